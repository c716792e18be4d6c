//! Threats as first-class data: for every empty point and each colour, the pattern a stone there
//! would make in each of the four directions ([`Pattern`]), the threat kinds that the four
//! patterns add up to, and the set of points of each kind.
//!
//! Play and undo keep it all up to date: a stone changes only the windows of the points within
//! [`REACH`] of it on its four lines (four under freestyle), and for each colour only up to the
//! nearest opponent stones, so each move re-reads at most forty entries of the pair table, which
//! gives both colours' patterns at once from the line's cell codes. A point's kinds follow from a
//! running tally of its four patterns. Candidate moves, move ordering, the threat solvers,
//! renju's forbidden points and the evaluation all read these tables instead of scanning lines.

use super::lines::{geometry, DIRECTIONS, MAX_POINTS};
use super::patterns::{pair_table, table, PairTable, Pattern, PatternTable, PATTERN_COUNT, REACH};
use super::{Gomoku, Rule};
use crate::game::Player;

/// Words of a [`PointSet`].
const POINT_WORDS: usize = MAX_POINTS.div_ceil(64);

/// A set of points, one bit each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PointSet([u64; POINT_WORDS]);

impl PointSet {
    /// Adds `point`.
    #[inline]
    pub fn insert(&mut self, point: usize) {
        self.0[point / 64] |= 1 << (point % 64);
    }

    /// Removes `point`.
    #[inline]
    pub fn remove(&mut self, point: usize) {
        self.0[point / 64] &= !(1 << (point % 64));
    }

    /// Whether `point` is in the set.
    #[inline]
    pub fn contains(&self, point: usize) -> bool {
        self.0[point / 64] >> (point % 64) & 1 != 0
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&word| word == 0)
    }

    /// The number of points.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.iter().map(|word| word.count_ones() as usize).sum()
    }

    /// The smallest point, if any.
    #[inline]
    pub fn first(&self) -> Option<usize> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, &word)| word != 0)
            .map(|(index, word)| index * 64 + word.trailing_zeros() as usize)
    }

    /// The points in increasing order.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(index, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    index * 64 + bit
                })
            })
        })
    }

    /// The points in both sets.
    #[inline]
    pub fn intersection(&self, other: &PointSet) -> PointSet {
        let mut result = *self;
        for (word, other) in result.0.iter_mut().zip(other.0) {
            *word &= other;
        }
        result
    }

    /// The points in either set.
    #[inline]
    pub fn union(&self, other: &PointSet) -> PointSet {
        let mut result = *self;
        for (word, other) in result.0.iter_mut().zip(other.0) {
            *word |= other;
        }
        result
    }
}

/// A threat kind: a set of points per colour. A point may be of several kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Kind {
    /// A stone here completes a winning line.
    Five = 0,
    /// A stone here makes at least one four (a five next move).
    Four,
    /// A stone here makes two points that complete a five: an open four, a double four on one
    /// line, or fours on two lines. It wins unless the opponent can make five first.
    OpenFour,
    /// A stone here makes a four and an open three on another line.
    FourThree,
    /// A stone here makes an open three.
    Three,
    /// A stone here makes two open threes.
    DoubleThree,
    /// Renju, black: a stone here would be an overline or a double four, which is forbidden (a
    /// point that makes five is never of this kind). Such a point has no other kind.
    Forbidden,
    /// Renju, black: a stone here makes two or more threes by the patterns and no five; the
    /// full rule ([`super::renju`]) decides whether it is forbidden.
    MaybeForbidden,
}

/// The number of kinds.
pub const KIND_COUNT: usize = 8;

impl Kind {
    const ALL: [Kind; KIND_COUNT] = [
        Kind::Five,
        Kind::Four,
        Kind::OpenFour,
        Kind::FourThree,
        Kind::Three,
        Kind::DoubleThree,
        Kind::Forbidden,
        Kind::MaybeForbidden,
    ];

    #[inline]
    fn bit(self) -> u8 {
        1 << self as u8
    }
}

// Per-pattern contributions to a point's tallies, summed over its four directions: fields of
// three bits (at most four directions add to one), four for the fours (a double four on one line
// counts two, as renju counts them). Sixteen bits in all, so a tally is a `u16`.
const FIVES: u16 = 0;
const FOURS: u16 = 3;
const OPEN_FOURS: u16 = 7;
const THREES: u16 = 10;
const OVERLINES: u16 = 13;
const FIELD: u16 = 0b111;

const fn contribution(pattern: Pattern) -> u16 {
    match pattern {
        Pattern::Five => 1 << FIVES,
        Pattern::Overline => 1 << OVERLINES,
        Pattern::OpenThree => 1 << THREES,
        Pattern::Four => 1 << FOURS,
        Pattern::OpenFour => 1 << FOURS | 1 << OPEN_FOURS,
        Pattern::DoubleFour => 2 << FOURS,
        _ => 0,
    }
}

const CONTRIBUTIONS: [u16; PATTERN_COUNT] = {
    let mut table = [0; PATTERN_COUNT];
    let mut index = 0;
    while index < PATTERN_COUNT {
        table[index] = contribution(Pattern::ALL[index]);
        index += 1;
    }
    table
};

/// By packed pair of patterns (as [`PairTable`] packs them): black's contribution in the low
/// sixteen bits and white's in the high, so that one addition updates both colours' tallies.
const PAIR_CONTRIBUTIONS: [u32; 256] = {
    let mut table = [0; 256];
    let mut pair = 0;
    while pair < 256 {
        if let Some([black, white]) = PairTable::codes(pair) {
            table[pair] = CONTRIBUTIONS[black] as u32 | (CONTRIBUTIONS[white] as u32) << 16;
        }
        pair += 1;
    }
    table
};

/// The kinds of a point for one colour, from its four patterns. `forbids` is true for black under
/// renju.
#[inline]
pub fn kinds_of(patterns: &[Pattern; DIRECTIONS], forbids: bool) -> u8 {
    let tally = patterns
        .iter()
        .map(|&pattern| CONTRIBUTIONS[pattern as usize])
        .sum();
    kinds_of_tally(tally, forbids)
}

/// The kinds of a point for one colour from the sum of its patterns' [`CONTRIBUTIONS`].
#[inline]
fn kinds_of_tally(tally: u16, forbids: bool) -> u8 {
    let field = |shift: u16| (tally >> shift) & FIELD;
    if field(FIVES) > 0 {
        return Kind::Five.bit();
    }
    let fours = (tally >> FOURS) & 0xF;
    if forbids && (field(OVERLINES) > 0 || fours >= 2) {
        return Kind::Forbidden.bit();
    }
    let threes = field(THREES);
    let mut kinds = 0;
    if fours > 0 {
        kinds |= Kind::Four.bit();
        if threes > 0 {
            kinds |= Kind::FourThree.bit();
        }
        if fours >= 2 || field(OPEN_FOURS) > 0 {
            kinds |= Kind::OpenFour.bit();
        }
    }
    if threes > 0 {
        kinds |= Kind::Three.bit();
        if threes >= 2 {
            kinds |= Kind::DoubleThree.bit();
            if forbids {
                kinds |= Kind::MaybeForbidden.bit();
            }
        }
    }
    kinds
}

/// A point's threat entries for both colours, side by side so that the journal saves and
/// restores a point with one 12-byte copy.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Entry {
    /// By direction: what a stone of each colour here makes on that line, packed as
    /// [`PairTable`] packs them. [`Pattern::None`] for both on occupied points.
    pairs: [u8; DIRECTIONS],
    /// The sums of the four patterns' [`CONTRIBUTIONS`], black's in the low sixteen bits and
    /// white's in the high, kept with the patterns so that the point's kinds are read from them
    /// instead of summed again.
    tallies: u32,
    /// By colour: the [`Kind`] bits.
    kinds: [u8; 2],
    /// The point itself, which tells the journal where a saved entry goes back.
    point: u16,
}

/// The threat tables of a position (see the module documentation).
#[derive(Clone, PartialEq, Eq)]
pub struct Threats {
    /// By point: its patterns, tallies and kinds.
    entries: [Entry; MAX_POINTS],
    /// By colour and kind: the points of that kind.
    sets: [[PointSet; KIND_COUNT]; 2],
    /// By colour and kind: how many points are of that kind (the size of the set).
    sizes: [[i32; KIND_COUNT]; 2],
    /// By colour and pattern code: how many (empty point, direction) pairs make it (sixteen
    /// codes, so that a packed code indexes it without a bounds check).
    counts: [[i32; 16]; 2],
    /// The entries each stone in play changed, for its undo.
    journal: Journal,
}

/// What one stone changed: where its points start in [`Journal::points`], and the pattern counts
/// before it.
#[derive(Clone, Copy)]
struct Frame {
    point: u16,
    /// The number of stones on the board with this one.
    stones: u16,
    start: u32,
    counts: [[i32; 16]; 2],
}

/// The threat entries that each stone on the board changed when it was placed, so that taking it
/// off restores them instead of reading the pattern tables again (the search takes back every
/// stone it places). A copy of a position starts with an empty journal, and a stone with no frame
/// (placed before the copy, or taken off out of order) is taken off by reading the tables.
#[derive(Default)]
struct Journal {
    frames: Vec<Frame>,
    /// The entries of the points the stones changed, as they were before.
    points: Vec<Entry>,
}

impl Clone for Journal {
    fn clone(&self) -> Self {
        Journal::default()
    }
}

/// The journal is a cache of how the tables got here, not part of what they say.
impl PartialEq for Journal {
    fn eq(&self, _: &Journal) -> bool {
        true
    }
}

impl Eq for Journal {}

impl Default for Threats {
    fn default() -> Self {
        Threats {
            entries: std::array::from_fn(|point| Entry {
                pairs: [0; DIRECTIONS],
                tallies: 0,
                kinds: [0; 2],
                point: point as u16,
            }),
            sets: [[PointSet::default(); KIND_COUNT]; 2],
            sizes: [[0; KIND_COUNT]; 2],
            counts: [[0; 16]; 2],
            journal: Journal::default(),
        }
    }
}

impl Threats {
    /// The pattern `colour` makes on `point` in `direction`.
    #[inline]
    pub fn pattern(&self, colour: Player, point: usize, direction: usize) -> Pattern {
        PairTable::pattern(self.entries[point].pairs[direction], colour)
    }

    /// The four patterns of `colour` on `point`.
    #[inline]
    pub fn patterns(&self, colour: Player, point: usize) -> [Pattern; DIRECTIONS] {
        self.entries[point]
            .pairs
            .map(|pair| PairTable::pattern(pair, colour))
    }

    /// Both colours' patterns of `point` by direction, packed as [`PairTable`] packs them.
    #[inline]
    pub fn pairs(&self, point: usize) -> [u8; DIRECTIONS] {
        self.entries[point].pairs
    }

    /// Whether `point` is of `kind` for `colour`.
    #[inline]
    pub fn is(&self, colour: Player, point: usize, kind: Kind) -> bool {
        self.entries[point].kinds[colour] & kind.bit() != 0
    }

    /// The points of `kind` for `colour`.
    #[inline]
    pub fn points(&self, colour: Player, kind: Kind) -> &PointSet {
        &self.sets[colour][kind as usize]
    }

    /// How many points are of `kind` for `colour`: the size of [`Threats::points`].
    #[inline]
    pub fn size(&self, colour: Player, kind: Kind) -> i32 {
        self.sizes[colour][kind as usize]
    }

    /// How many (empty point, direction) pairs make `pattern` for `colour`.
    #[inline]
    pub fn count(&self, colour: Player, pattern: Pattern) -> i32 {
        self.counts[colour][pattern as usize]
    }

    /// Sets both colours' patterns of one direction, packed as [`PairTable`] packs them;
    /// returns the colours whose tally changed, and with it possibly their kinds (bit 0 black,
    /// bit 1 white). It does not branch on whether the patterns changed, which is hard to
    /// predict.
    #[inline]
    fn set_pair(&mut self, point: usize, direction: usize, pair: u8) -> u8 {
        let entry = &mut self.entries[point];
        let old = std::mem::replace(&mut entry.pairs[direction], pair);
        let before = entry.tallies;
        // Each half holds the old pattern's contribution, so the subtraction borrows nothing
        // across the halves.
        entry.tallies =
            before - PAIR_CONTRIBUTIONS[usize::from(old)] + PAIR_CONTRIBUTIONS[usize::from(pair)];
        let difference = before ^ entry.tallies;
        let (old, pair) = (usize::from(old), usize::from(pair));
        self.counts[0][old & 0xF] -= 1;
        self.counts[1][old >> 4] -= 1;
        self.counts[0][pair & 0xF] += 1;
        self.counts[1][pair >> 4] += 1;
        u8::from(difference & 0xFFFF != 0) | u8::from(difference >> 16 != 0) << 1
    }

    #[inline]
    fn refresh_kinds(&mut self, colour: Player, point: usize, forbids: bool) {
        let tally = (self.entries[point].tallies >> (16 * colour)) as u16;
        let kinds = kinds_of_tally(tally, forbids);
        self.set_kinds(colour, point, kinds);
    }

    /// Opens the journal's frame for a stone placed on `point`, the `stones`th on the board.
    #[inline]
    fn open_frame(&mut self, point: usize, stones: usize) {
        let frame = Frame {
            point: point as u16,
            stones: stones as u16,
            start: self.journal.points.len() as u32,
            counts: self.counts,
        };
        self.journal.frames.push(frame);
    }

    /// Saves `point`'s entries in the open frame.
    #[inline]
    fn save(&mut self, point: usize) {
        self.journal.points.push(self.entries[point]);
    }

    /// Restores what the stone on `point`, the `stones`th on the board, changed, if its frame is
    /// the journal's last; returns whether it was (otherwise the journal is emptied).
    fn restore(&mut self, point: usize, stones: usize) -> bool {
        let Some(frame) = self.journal.frames.pop() else {
            return false;
        };
        if usize::from(frame.point) != point || usize::from(frame.stones) != stones {
            self.journal.frames.clear();
            self.journal.points.clear();
            return false;
        }
        let start = frame.start as usize;
        let Threats {
            entries,
            sets,
            sizes,
            journal,
            ..
        } = self;
        for saved in &journal.points[start..] {
            let point = usize::from(saved.point);
            let entry = &mut entries[point];
            let kinds = entry.kinds;
            *entry = *saved;
            // Most points a stone changed keep their kinds.
            if kinds != saved.kinds {
                for colour in 0..2 {
                    update_sets(
                        &mut sets[colour],
                        &mut sizes[colour],
                        point,
                        kinds[colour],
                        saved.kinds[colour],
                    );
                }
            }
        }
        self.journal.points.truncate(start);
        self.counts = frame.counts;
        true
    }

    #[inline]
    fn set_kinds(&mut self, colour: Player, point: usize, kinds: u8) {
        let old = std::mem::replace(&mut self.entries[point].kinds[colour], kinds);
        update_sets(
            &mut self.sets[colour],
            &mut self.sizes[colour],
            point,
            old,
            kinds,
        );
    }
}

/// Moves `point` between one colour's `sets` of kinds (and their `sizes`) as its kinds go from
/// `old` to `kinds`.
#[inline]
fn update_sets(
    sets: &mut [PointSet; KIND_COUNT],
    sizes: &mut [i32; KIND_COUNT],
    point: usize,
    old: u8,
    kinds: u8,
) {
    let mut changed = old ^ kinds;
    while changed != 0 {
        let kind = changed.trailing_zeros() as usize;
        changed &= changed - 1;
        if kinds >> kind & 1 != 0 {
            sets[kind].insert(point);
            sizes[kind] += 1;
        } else {
            sets[kind].remove(point);
            sizes[kind] -= 1;
        }
    }
}

impl Rule {
    /// The pattern tables for black and white.
    fn tables(self) -> [&'static PatternTable; 2] {
        match self {
            Rule::Freestyle => [table(false), table(false)],
            Rule::Standard => [table(true), table(true)],
            Rule::Renju => [table(true), table(false)],
        }
    }

    /// The table of both colours' patterns under this rule.
    fn pair_table(self) -> &'static PairTable {
        match self {
            Rule::Freestyle => pair_table([false, false]),
            Rule::Standard => pair_table([true, true]),
            Rule::Renju => pair_table([true, false]),
        }
    }

    /// Whether the rule forbids some points to `colour`: black under renju.
    #[inline]
    pub fn forbids(self, colour: Player) -> bool {
        self == Rule::Renju && colour == 0
    }

    /// How far along a line a stone changes other points' patterns.
    fn pattern_reach(self) -> usize {
        match self {
            Rule::Freestyle => REACH - 1,
            _ => REACH,
        }
    }
}

/// The pattern a stone of the colour whose stones on a line of `length` points are `own` makes at
/// `offset`, against the `opponent` stones, read from the colour's own table: the slow path,
/// from the line masks, which the rebuild takes so that it checks the pair tables and the line
/// codes of the incremental refresh.
fn window_pattern(
    table: &PatternTable,
    own: u32,
    opponent: u32,
    length: usize,
    offset: usize,
) -> Pattern {
    let edge = 0x1F | (!0u64 << (length + REACH));
    let own = u64::from(own) << REACH;
    let blocked = u64::from(opponent) << REACH | edge;
    table.get(own >> offset, blocked >> offset)
}

/// The bits of a line strictly between the nearest of `blockers` below bit `offset` and the
/// nearest above it (to the ends of the word where there is none); `offset` itself is not one
/// of `blockers`.
#[inline]
fn between_blockers(blockers: u32, offset: usize) -> u32 {
    let above = blockers >> offset;
    let below = blockers & ((1 << offset) - 1);
    // Bits below the first blocker above `offset`, and above the last one below it.
    let under_above = if above == 0 {
        !0
    } else {
        (1u32 << (offset as u32 + above.trailing_zeros())) - 1
    };
    let over_below = if below == 0 {
        !0
    } else {
        !0u32 << (32 - below.leading_zeros())
    };
    under_above & over_below
}

impl Gomoku {
    /// Brings the threat tables up to date after a stone was put on or taken off `point` (the
    /// line masks and cells already changed).
    pub(super) fn refresh_threats(&mut self, point: usize) {
        let now_empty = self.cells[point] == 0;
        if now_empty {
            if self.threats.restore(point, self.stones + 1) {
                return;
            }
        } else {
            self.threats.open_frame(point, self.stones);
            self.threats.save(point);
        }
        let geometry = geometry(self.size);
        let table = self.rule.pair_table();
        let reach = self.rule.pattern_reach();
        for direction in 0..DIRECTIONS {
            let placement = geometry.placements[point][direction];
            let line = placement.line as usize;
            let length = geometry.lengths[line] as usize;
            let offset = placement.offset as usize;
            let (black, white) = (self.lines[0][line], self.lines[1][line]);
            let code = self.codes.line(line);
            let mut empty = !(black | white) & geometry.line_mask(line);
            // The neighbours within reach on this line, the point itself aside.
            let low = offset.saturating_sub(reach);
            let high = (offset + reach).min(length - 1);
            empty &= ((2u32 << high) - 1) & !((1u32 << low) - 1) & !(1 << offset);
            // A colour's pattern on a point depends only on the points up to the nearest
            // opponent stones (a five cannot pass them), so a point with stones of both colours
            // between it and this one keeps both patterns.
            let others = !(1 << offset);
            empty &=
                between_blockers(white & others, offset) | between_blockers(black & others, offset);
            while empty != 0 {
                let other_offset = empty.trailing_zeros() as usize;
                empty &= empty - 1;
                let other = geometry.point(line, other_offset);
                if !now_empty {
                    self.threats.save(other);
                }
                let pair = table.get(code, other_offset);
                // Most patterns that change keep the point's kinds (a two becomes a three,
                // say, or a one a two).
                let changed = self.threats.set_pair(other, direction, pair);
                for colour in 0..2 {
                    if changed >> colour & 1 != 0 {
                        self.threats
                            .refresh_kinds(colour, other, self.rule.forbids(colour));
                    }
                }
            }
            let pair = if now_empty {
                table.get(code, offset)
            } else {
                0
            };
            self.threats.set_pair(point, direction, pair);
        }
        for colour in 0..2 {
            self.threats
                .refresh_kinds(colour, point, self.rule.forbids(colour));
        }
    }

    /// Recomputes every point's threats from the line masks.
    pub(super) fn rebuild_threats(&mut self) {
        self.threats = Threats::default();
        // Occupied points keep Pattern::None, which the counts must include.
        let points = self.size * self.size;
        for colour in 0..2 {
            self.threats.counts[colour][Pattern::None as usize] = (MAX_POINTS * DIRECTIONS) as i32;
        }
        let geometry = geometry(self.size);
        let tables = self.rule.tables();
        for point in 0..points {
            if self.cells[point] != 0 {
                continue;
            }
            for direction in 0..DIRECTIONS {
                let placement = geometry.placements[point][direction];
                let line = placement.line as usize;
                let mut pair = 0;
                for (colour, table) in tables.into_iter().enumerate() {
                    let pattern = window_pattern(
                        table,
                        self.lines[colour][line],
                        self.lines[colour ^ 1][line],
                        geometry.lengths[line] as usize,
                        placement.offset as usize,
                    );
                    pair |= (pattern as u8) << (4 * colour);
                }
                self.threats.set_pair(point, direction, pair);
            }
            for colour in 0..2 {
                self.threats
                    .refresh_kinds(colour, point, self.rule.forbids(colour));
            }
        }
    }

    /// The threat tables.
    pub fn threats(&self) -> &Threats {
        &self.threats
    }
}

/// Every kind, for tests and diagnostics.
pub fn all_kinds() -> [Kind; KIND_COUNT] {
    Kind::ALL
}
