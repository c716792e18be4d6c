//! Line patterns: what one more stone of a colour on an empty point makes along one line.
//!
//! A point's pattern in one direction depends only on the eleven points centred on it along that
//! line (five each side): every five through the point, and whether it is exactly five, lies
//! within them. Each side point is empty, own, or blocked (an opponent stone or the edge), so a
//! table of 3^10 entries per win rule answers every window; it is built once, on first use.
//!
//! The patterns are defined from the top down (for a stone of the colour put on the centre):
//! - **five**: it completes a winning line through the centre;
//! - **overline**: under an exactly-five rule, a run of six or more through the centre;
//! - **four**: exactly one empty point would then complete a winning line through the centre;
//!   **open four** two such points five apart (`.XXXX.`), **double four** two others (`X.XXX.X`);
//! - **open three**: one more stone on the line can make an open four (through the centre),
//!   **closed three**: one more stone can make a four but no open four;
//! - **open two** / **closed two**: one more stone can make an open / a closed three;
//! - **open one** / **closed one**: one more stone can make an open / a closed two;
//! - **none**: no five can ever pass through the point on this line.
//!
//! Under an at-least-five rule the outermost points never matter (a five through the centre lies
//! within four points of it), which lets freestyle refresh a narrower neighbourhood.

use std::sync::OnceLock;

/// What a stone on a point makes along one line, weakest first (overline aside).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Pattern {
    /// No five can pass through the point on this line (or the point is occupied).
    #[default]
    None = 0,
    /// Six or more in a row that do not win (exactly-five rules only).
    Overline,
    /// One more stone makes at best a closed two.
    ClosedOne,
    /// One more stone can make an open two.
    OpenOne,
    /// One more stone makes at best a closed three.
    ClosedTwo,
    /// One more stone can make an open three.
    OpenTwo,
    /// One more stone makes at best a four.
    ClosedThree,
    /// One more stone can make an open four.
    OpenThree,
    /// One point completes a five.
    Four,
    /// Two points five apart complete a five: `.XXXX.`.
    OpenFour,
    /// Two points not around the same four complete a five: `X.XXX.X`, `XX.XX.XX`.
    DoubleFour,
    /// The stone completes a winning line.
    Five,
}

/// The number of patterns.
pub const PATTERN_COUNT: usize = 12;

impl Pattern {
    /// Every pattern, in code order.
    pub const ALL: [Pattern; PATTERN_COUNT] = [
        Pattern::None,
        Pattern::Overline,
        Pattern::ClosedOne,
        Pattern::OpenOne,
        Pattern::ClosedTwo,
        Pattern::OpenTwo,
        Pattern::ClosedThree,
        Pattern::OpenThree,
        Pattern::Four,
        Pattern::OpenFour,
        Pattern::DoubleFour,
        Pattern::Five,
    ];

    /// A short name, for diagnostics and weight files.
    pub fn name(self) -> &'static str {
        match self {
            Pattern::None => "none",
            Pattern::Overline => "overline",
            Pattern::ClosedOne => "closed-one",
            Pattern::OpenOne => "open-one",
            Pattern::ClosedTwo => "closed-two",
            Pattern::OpenTwo => "open-two",
            Pattern::ClosedThree => "closed-three",
            Pattern::OpenThree => "open-three",
            Pattern::Four => "four",
            Pattern::OpenFour => "open-four",
            Pattern::DoubleFour => "double-four",
            Pattern::Five => "five",
        }
    }

    /// How many fours the pattern makes on its line, as renju counts them (an open four is one).
    #[inline]
    pub fn fours(self) -> u32 {
        match self {
            Pattern::Four | Pattern::OpenFour => 1,
            Pattern::DoubleFour => 2,
            _ => 0,
        }
    }

    /// The pattern one stone short of this one: what a point makes when one more stone can
    /// make this.
    fn one_short(self) -> Pattern {
        match self {
            Pattern::OpenFour => Pattern::OpenThree,
            Pattern::Four | Pattern::DoubleFour => Pattern::ClosedThree,
            Pattern::OpenThree => Pattern::OpenTwo,
            Pattern::ClosedThree => Pattern::ClosedTwo,
            Pattern::OpenTwo => Pattern::OpenOne,
            Pattern::ClosedTwo => Pattern::ClosedOne,
            _ => Pattern::None,
        }
    }
}

/// Points on each side of the centre of a window.
pub const REACH: usize = 5;
/// Side points of a window.
const SIDE_POINTS: usize = 2 * REACH;
/// Windows: three states for each side point.
const ENTRIES: usize = 59_049; // 3^10
const CENTRE: usize = REACH;

const EMPTY: u8 = 0;
const OWN: u8 = 1;
#[cfg(test)]
const BLOCKED: u8 = 2;

/// `TERNARY[mask]` reads the ten bits of `mask` as base-3 digits 0 or 1, so that a window's
/// index is `TERNARY[own] + 2 * TERNARY[blocked]`.
pub static TERNARY: [u16; 1 << SIDE_POINTS] = build_ternary();

const fn build_ternary() -> [u16; 1 << SIDE_POINTS] {
    let mut table = [0u16; 1 << SIDE_POINTS];
    let mut mask = 0;
    while mask < 1 << SIDE_POINTS {
        let mut value = 0u16;
        let mut power = 1u16;
        let mut bit = 0;
        while bit < SIDE_POINTS {
            if mask & (1 << bit) != 0 {
                value += power;
            }
            power *= 3;
            bit += 1;
        }
        table[mask] = value;
        mask += 1;
    }
    table
}

/// Drops the centre bit of an eleven-bit window: bits 0..=4 stay, bits 6..=10 move down by one.
#[inline]
pub fn squeeze(window: u64) -> usize {
    ((window & 0x1F) | ((window >> 6) << 5) & 0x3E0) as usize
}

/// The pattern table of one win rule.
pub struct PatternTable {
    entries: Vec<Pattern>,
}

impl PatternTable {
    /// The pattern of the window whose own and blocked points are the bits of `own` and `blocked`
    /// (eleven bits each, the centre at bit 5 and ignored).
    #[inline]
    pub fn get(&self, own: u64, blocked: u64) -> Pattern {
        let index = TERNARY[squeeze(own)] as usize + 2 * TERNARY[squeeze(blocked)] as usize;
        self.entries[index]
    }
}

/// The table of patterns under an exactly-five rule (`exact`) or an at-least-five rule.
pub fn table(exact: bool) -> &'static PatternTable {
    static TABLES: [OnceLock<PatternTable>; 2] = [OnceLock::new(), OnceLock::new()];
    TABLES[usize::from(exact)].get_or_init(|| build(exact))
}

/// Both colours' patterns of every window at once, read from a line's cell codes (see
/// [`super::lines::LineCodes`]): black's pattern in the low four bits of an entry, white's in the
/// high four. One lookup answers for both colours, where the [`PatternTable`] needs two index
/// computations per colour.
pub struct PairTable {
    /// Whether only the eight points within four of the centre index the table (at-least-five
    /// rules for both colours: the outermost points never matter then).
    narrow: bool,
    entries: Vec<u8>,
}

impl PairTable {
    /// The patterns of black and white on the point at `offset` of a line whose cells are
    /// `code`, packed as in the table.
    #[inline]
    pub fn get(&self, code: u64, offset: usize) -> u8 {
        let window = code >> (2 * offset);
        let index = if self.narrow {
            ((window >> 2) & 0xFF) | ((window >> 12) & 0xFF) << 8
        } else {
            (window & 0x3FF) | ((window >> 12) & 0x3FF) << 10
        };
        self.entries[index as usize]
    }

    /// Black's and white's pattern codes of the packed `pair` (0..256), or `None` where a code
    /// is past the last pattern (no table entry holds such a pair): for the tables built per
    /// packed pair.
    pub const fn codes(pair: usize) -> Option<[usize; 2]> {
        let (black, white) = (pair & 0xF, pair >> 4 & 0xF);
        if black < PATTERN_COUNT && white < PATTERN_COUNT {
            Some([black, white])
        } else {
            None
        }
    }

    /// Black's (`colour` 0) or white's pattern of a packed entry.
    #[inline]
    pub fn pattern(pair: u8, colour: usize) -> Pattern {
        NIBBLE_PATTERNS[usize::from(pair >> (4 * colour) & 0xF)]
    }

    fn build(black: &PatternTable, white: &PatternTable, narrow: bool) -> PairTable {
        // The window points that index the table, from the first side point on.
        let cells: &[usize] = if narrow {
            &[1, 2, 3, 4, 6, 7, 8, 9]
        } else {
            &[0, 1, 2, 3, 4, 6, 7, 8, 9, 10]
        };
        let entries = (0..1usize << (2 * cells.len()))
            .map(|index| {
                let (mut own, mut blocked) = ([0u64; 2], [0u64; 2]);
                for (side, &cell) in cells.iter().enumerate() {
                    match index >> (2 * side) & 3 {
                        0 => {}
                        1 => {
                            own[0] |= 1 << cell;
                            blocked[1] |= 1 << cell;
                        }
                        2 => {
                            own[1] |= 1 << cell;
                            blocked[0] |= 1 << cell;
                        }
                        _ => {
                            blocked[0] |= 1 << cell;
                            blocked[1] |= 1 << cell;
                        }
                    }
                }
                black.get(own[0], blocked[0]) as u8 | (white.get(own[1], blocked[1]) as u8) << 4
            })
            .collect();
        PairTable { narrow, entries }
    }
}

/// The pattern of each four-bit code, sixteen entries so that reading a packed code needs no
/// bounds check (codes past the last pattern never occur).
const NIBBLE_PATTERNS: [Pattern; 16] = {
    let mut table = [Pattern::None; 16];
    let mut code = 0;
    while code < PATTERN_COUNT {
        table[code] = Pattern::ALL[code];
        code += 1;
    }
    table
};

/// The pair table of a rule: `exact` tells, for black and for white, whether exactly five wins.
pub fn pair_table(exact: [bool; 2]) -> &'static PairTable {
    static TABLES: [OnceLock<PairTable>; 4] = [const { OnceLock::new() }; 4];
    let index = usize::from(exact[0]) | usize::from(exact[1]) << 1;
    TABLES[index]
        .get_or_init(|| PairTable::build(table(exact[0]), table(exact[1]), exact == [false, false]))
}

const UNKNOWN: u8 = u8::MAX;

fn build(exact: bool) -> PatternTable {
    let mut memo = vec![UNKNOWN; ENTRIES];
    for index in 0..ENTRIES {
        classify(index, exact, &mut memo);
    }
    PatternTable {
        entries: memo
            .into_iter()
            .map(|code| Pattern::ALL[code as usize])
            .collect(),
    }
}

fn decode(index: usize) -> [u8; 2 * REACH + 1] {
    let mut cells = [EMPTY; 2 * REACH + 1];
    let mut rest = index;
    for side in 0..SIDE_POINTS {
        let cell = if side < REACH { side } else { side + 1 };
        cells[cell] = (rest % 3) as u8;
        rest /= 3;
    }
    cells[CENTRE] = OWN;
    cells
}

fn encode(cells: &[u8; 2 * REACH + 1]) -> usize {
    let mut index = 0;
    let mut power = 1;
    for (cell, &state) in cells.iter().enumerate() {
        if cell != CENTRE {
            index += state as usize * power;
            power *= 3;
        }
    }
    index
}

/// The run of own stones through `index`, as an inclusive span.
fn own_span(cells: &[u8; 2 * REACH + 1], index: usize) -> (usize, usize) {
    let mut low = index;
    while low > 0 && cells[low - 1] == OWN {
        low -= 1;
    }
    let mut high = index;
    while high < 2 * REACH && cells[high + 1] == OWN {
        high += 1;
    }
    (low, high)
}

/// The pattern of window `index` (centre own), memoised in `memo`.
fn classify(index: usize, exact: bool, memo: &mut [u8]) -> Pattern {
    if memo[index] != UNKNOWN {
        return Pattern::ALL[memo[index] as usize];
    }
    let wins = |length: usize| if exact { length == 5 } else { length >= 5 };
    let mut cells = decode(index);
    let (low, high) = own_span(&cells, CENTRE);
    let pattern = if wins(high - low + 1) {
        Pattern::Five
    } else if high - low + 1 > 5 {
        Pattern::Overline
    } else {
        // Points that would complete a winning line through the centre.
        let mut completions = [0usize; 8];
        let mut count = 0;
        for point in CENTRE - 4..=CENTRE + 4 {
            if cells[point] != EMPTY {
                continue;
            }
            cells[point] = OWN;
            let (low, high) = own_span(&cells, CENTRE);
            if wins(high - low + 1) && (low..=high).contains(&point) {
                completions[count] = point;
                count += 1;
            }
            cells[point] = EMPTY;
        }
        let completions = &completions[..count];
        if count >= 2 {
            let straight = completions
                .iter()
                .any(|&first| completions.contains(&(first + 5)));
            if straight {
                Pattern::OpenFour
            } else {
                Pattern::DoubleFour
            }
        } else if count == 1 {
            Pattern::Four
        } else {
            // One more stone, anywhere a five through the centre could use it.
            let mut best = Pattern::None;
            for point in CENTRE - 4..=CENTRE + 4 {
                if cells[point] != EMPTY {
                    continue;
                }
                cells[point] = OWN;
                let next = classify(encode(&cells), exact, memo).one_short();
                cells[point] = EMPTY;
                best = best.max(next);
            }
            best
        }
    };
    memo[index] = pattern as u8;
    pattern
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pattern of a window written as text: `X` own, `O` blocked, `.` empty; the centre
    /// (index 5) must be `.` or `X` and counts as own.
    fn pattern_of(text: &str, exact: bool) -> Pattern {
        let cells: Vec<u8> = text
            .bytes()
            .map(|byte| match byte {
                b'X' => OWN,
                b'O' => BLOCKED,
                _ => EMPTY,
            })
            .collect();
        assert_eq!(cells.len(), 11);
        assert_ne!(cells[CENTRE], BLOCKED);
        let (mut own, mut blocked) = (0u64, 0u64);
        for (index, &cell) in cells.iter().enumerate() {
            if index == CENTRE {
                continue;
            }
            if cell == OWN {
                own |= 1 << index;
            }
            if cell == BLOCKED {
                blocked |= 1 << index;
            }
        }
        table(exact).get(own, blocked)
    }

    #[test]
    fn windows_classify() {
        for exact in [false, true] {
            assert_eq!(pattern_of("...XX.XX...", exact), Pattern::Five);
            assert_eq!(pattern_of("....X.XX...", exact), Pattern::OpenFour);
            assert_eq!(pattern_of("...OX.XX...", exact), Pattern::Four);
            assert_eq!(pattern_of("..X.X.X.X..", exact), Pattern::DoubleFour);
            assert_eq!(pattern_of("....X.X....", exact), Pattern::OpenThree);
            assert_eq!(pattern_of("...X..X....", exact), Pattern::OpenThree);
            assert_eq!(pattern_of("...OX.X....", exact), Pattern::ClosedThree);
            assert_eq!(pattern_of("....O.XX...", exact), Pattern::ClosedThree);
            assert_eq!(pattern_of("....X......", exact), Pattern::OpenTwo);
            assert_eq!(pattern_of("...........", exact), Pattern::OpenOne);
            assert_eq!(pattern_of("....O.O....", exact), Pattern::None);
            assert_eq!(pattern_of("..O...O....", exact), Pattern::None);
            assert_eq!(pattern_of("O.....O....", exact), Pattern::ClosedOne);
            // Room for one five only: every shape is closed.
            assert_eq!(pattern_of(".O.XX..O...", exact), Pattern::ClosedThree);
            assert_eq!(pattern_of(".O..X..O...", exact), Pattern::ClosedTwo);
        }
        // Six in a row wins only under the at-least-five rule.
        assert_eq!(pattern_of("..XXX.XX...", false), Pattern::Five);
        assert_eq!(pattern_of("..XXX.XX...", true), Pattern::Overline);
        // A four whose completion would make six is no four under exactly five.
        assert_eq!(pattern_of("X.XXX......", false), Pattern::OpenFour);
        assert_eq!(pattern_of("X.XXX......", true), Pattern::Four);
        assert_eq!(pattern_of("XX.XX......", false), Pattern::Four);
        assert_eq!(pattern_of("XX.XX......", true), Pattern::ClosedThree);
    }

    /// The threat tables refresh a colour's patterns only up to the nearest opponent stones of a
    /// changed point (`super::super::threats`): that is right because nothing beyond a blocked
    /// point changes a pattern.
    #[test]
    fn nothing_beyond_a_blocked_point_matters() {
        for exact in [false, true] {
            let table = table(exact);
            for index in 0..ENTRIES {
                let cells = decode(index);
                let mut inner = cells;
                let left = (0..CENTRE).rev().find(|&cell| cells[cell] == BLOCKED);
                let right = (CENTRE + 1..=2 * REACH).find(|&cell| cells[cell] == BLOCKED);
                for cell in left.map_or(0..0, |left| 0..left) {
                    inner[cell] = EMPTY;
                }
                for cell in right.map_or(0..0, |right| right + 1..2 * REACH + 1) {
                    inner[cell] = EMPTY;
                }
                assert_eq!(
                    table.entries[index],
                    table.entries[encode(&inner)],
                    "{cells:?} exact {exact}"
                );
            }
        }
    }

    #[test]
    fn the_outermost_points_do_not_matter_under_at_least_five() {
        let table = table(false);
        for index in 0..ENTRIES {
            let cells = decode(index);
            let mut inner = cells;
            inner[0] = EMPTY;
            inner[2 * REACH] = EMPTY;
            assert_eq!(
                table.entries[index],
                table.entries[encode(&inner)],
                "{cells:?}"
            );
        }
    }
}
