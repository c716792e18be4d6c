//! The search's candidate moves and their ordering, from the threat data.
//!
//! Candidates, in order of precedence, for the side to move:
//! 1. its winning points, if any;
//! 2. else the legal point that stops the opponent's five (every other move loses at once); when
//!    the opponent has two fives the game is lost, and the one block listed is the greedy
//!    player's choice among them (see [`super::evaluation::greedy_score`]);
//! 3. else its points that make an open four (or two fours), which win;
//! 4. else, when the opponent threatens an open four (it has an open three), the points that stop
//!    every such threat together with the side to move's own fours: any other move lets the
//!    opponent make an open four, which only a five could answer;
//! 5. else the points within two rows and columns of a stone: the [`WIDTH`] best by the ordering
//!    values of [`score_moves`], and every other threat point among them.
//!
//! Black's forbidden points under renju are never candidates.

use super::evaluation::greedy_choice;
use super::lines::{geometry, run_length, DIRECTIONS, MAX_SIZE};
use super::patterns::{PairTable, Pattern, PATTERN_COUNT};
use super::threats::{Kind, PointSet};
use super::{Gomoku, GomokuMove, Rule};
use crate::game::{Player, Rules};

impl Gomoku {
    /// Whether the side to move may play the empty `point`: false only for black's forbidden
    /// points under renju.
    #[inline]
    pub(super) fn allowed(&self, point: usize) -> bool {
        !(self.checks_forbidden() && self.forbidden_reason(point).is_some())
    }

    /// Whether `colour` may play the empty `point`, whoever is to move: false only for black's
    /// forbidden points under renju.
    #[inline]
    pub(super) fn allowed_for(&self, colour: Player, point: usize) -> bool {
        !(self.rule.forbids(colour) && self.forbidden_reason(point).is_some())
    }

    /// The points where `colour` makes an open four (or two fours) and may play.
    pub(super) fn open_four_points(&self, colour: Player) -> PointSet {
        let mut points = *self.threats.points(colour, Kind::OpenFour);
        for point in self.threats.points(colour, Kind::MaybeForbidden).iter() {
            if points.contains(point) && !self.allowed_for(colour, point) {
                points.remove(point);
            }
        }
        points
    }

    /// The points where, after `colour` plays `point`, one more stone of `colour` completes a
    /// winning line through `point`.
    pub(super) fn completions(&self, colour: Player, point: usize) -> PointSet {
        let geometry = geometry(self.size);
        let mut completions = PointSet::default();
        for (direction, placement) in geometry.placements[point].iter().enumerate() {
            if self.threats.pattern(colour, point, direction).fours() == 0 {
                continue;
            }
            let line = placement.line as usize;
            let offset = u32::from(placement.offset);
            let own = self.lines[colour][line] | 1 << offset;
            let mut empty = !(own | self.lines[colour ^ 1][line]) & geometry.line_mask(line);
            // A five through `point` lies within four points of it.
            let low = offset.saturating_sub(4);
            let high = (offset + 4).min(u32::from(geometry.lengths[line]) - 1);
            empty &= ((2u32 << high) - 1) & !((1u32 << low) - 1);
            while empty != 0 {
                let other = empty.trailing_zeros();
                empty &= empty - 1;
                if self.rule.wins(colour, run_length(own | 1 << other, offset)) {
                    completions.insert(geometry.point(line, other as usize));
                }
            }
        }
        completions
    }

    /// The points that stop every open-four threat of `attacker` (each threat point, or one of
    /// the points its four would then need), or `None` when `attacker` has no such threat.
    pub(super) fn defences(&self, attacker: Player) -> Option<PointSet> {
        let threats = self.open_four_points(attacker);
        let mut defences: Option<PointSet> = None;
        for point in threats.iter() {
            let mut stops = self.completions(attacker, point);
            stops.insert(point);
            defences = Some(match defences {
                None => stops,
                Some(so_far) => so_far.intersection(&stops),
            });
        }
        defences
    }

    /// Appends the points of `set` that the side to move may play.
    fn push_allowed(&self, set: &PointSet, moves: &mut Vec<GomokuMove>) {
        for point in set.iter() {
            if self.allowed(point) {
                moves.push(GomokuMove(point as u16));
            }
        }
    }
}

/// The search's candidates (see the module documentation).
pub fn search_moves(game: &Gomoku, moves: &mut Vec<GomokuMove>) {
    moves.clear();
    if game.outcome().is_some() || forced_moves(game, moves) {
        return;
    }
    neighbourhood(game, moves);
    if moves.is_empty() {
        game.generate_moves(moves);
    }
    keep_best(game, moves);
}

/// The points near the stones that [`search_moves`] leaves out of a quiet position by its
/// [`WIDTH`] limit, in `moves`; none in a position where a threat decides the candidates.
pub fn left_out(game: &Gomoku, moves: &mut Vec<GomokuMove>) {
    moves.clear();
    if game.outcome().is_some() || forced_moves(game, moves) {
        moves.clear();
        return;
    }
    neighbourhood(game, moves);
    let mut kept = moves.clone();
    keep_best(game, &mut kept);
    moves.retain(|mv| !kept.contains(mv));
}

/// The candidates of rules 1 to 4 of the module documentation, in `moves` (empty on entry): true
/// when one of them applies, false for a quiet position.
fn forced_moves(game: &Gomoku, moves: &mut Vec<GomokuMove>) -> bool {
    let side = game.side;
    let opponent = side ^ 1;
    let threats = &game.threats;
    let fives = threats.points(side, Kind::Five);
    if !fives.is_empty() {
        moves.extend(fives.iter().map(|point| GomokuMove(point as u16)));
        return true;
    }
    let blocks = threats.points(opponent, Kind::Five);
    if !blocks.is_empty() {
        game.push_allowed(blocks, moves);
        if moves.is_empty() {
            // Every block is forbidden: the game is lost, any move will do.
            neighbourhood(game, moves);
        }
        if blocks.len() >= 2 || moves.len() >= 2 {
            let choice = greedy_choice(game, moves).expect("a move");
            moves.clear();
            moves.push(choice);
        }
        return true;
    }
    let wins = game.open_four_points(side);
    if !wins.is_empty() {
        game.push_allowed(&wins, moves);
        return true;
    }
    if let Some(defences) = game.defences(opponent) {
        let replies = defences.union(threats.points(side, Kind::Four));
        game.push_allowed(&replies, moves);
        if !moves.is_empty() {
            return true;
        }
    }
    false
}

/// Quiet positions keep at most this many candidates, the best by [`score_moves`].
pub const WIDTH: usize = 16;

/// Keeps the [`WIDTH`] candidates with the highest ordering values, ties going to the lower point,
/// and every other candidate that is a threat: a four, an open three, a four-three or a double
/// three for the side to move, or a four-three or a double three the opponent would make there.
fn keep_best(game: &Gomoku, moves: &mut Vec<GomokuMove>) {
    if moves.len() <= WIDTH {
        return;
    }
    let side = game.side;
    let threats = &game.threats;
    let threat = |point: usize| {
        [Kind::Four, Kind::Three, Kind::FourThree, Kind::DoubleThree]
            .into_iter()
            .any(|kind| threats.is(side, point, kind))
            || [Kind::FourThree, Kind::DoubleThree]
                .into_iter()
                .any(|kind| threats.is(side ^ 1, point, kind))
    };
    let mut scores = vec![0; moves.len()];
    score_moves(game, moves, &mut scores);
    // One integer per candidate orders by value, highest first, then by point: only the first
    // WIDTH need sorting, and the threats among the rest.
    let mut ranked: Vec<u64> = scores
        .into_iter()
        .zip(moves.iter())
        .map(|(score, mv)| ((i64::from(i32::MAX) - i64::from(score)) as u64) << 16 | mv.0 as u64)
        .collect();
    ranked.select_nth_unstable(WIDTH - 1);
    let (best, rest) = ranked.split_at_mut(WIDTH);
    best.sort_unstable();
    let mut others: Vec<u64> = rest
        .iter()
        .copied()
        .filter(|&key| threat((key & 0xFFFF) as usize))
        .collect();
    others.sort_unstable();
    moves.clear();
    moves.extend(
        best.iter()
            .chain(&others)
            .map(|&key| GomokuMove((key & 0xFFFF) as u16)),
    );
}

/// The empty points within two rows and two columns of a stone, skipping forbidden points.
pub fn neighbourhood(game: &Gomoku, moves: &mut Vec<GomokuMove>) {
    let size = game.size;
    if game.stones == 0 {
        moves.push(GomokuMove(((size / 2) * size + size / 2) as u16));
        return;
    }
    let row_mask = (1u32 << size) - 1;
    // Lines 0..size are the rows, with the column as offset.
    let mut occupied = [0u32; MAX_SIZE];
    let mut spread = [0u32; MAX_SIZE];
    for y in 0..size {
        let stones = game.lines[0][y] | game.lines[1][y];
        occupied[y] = stones;
        spread[y] = (stones | stones << 1 | stones << 2 | stones >> 1 | stones >> 2) & row_mask;
    }
    for y in 0..size {
        let mut near = spread[y.saturating_sub(2)..(y + 3).min(size)]
            .iter()
            .fold(0, |near, &row| near | row)
            & !occupied[y];
        while near != 0 {
            let x = near.trailing_zeros() as usize;
            near &= near - 1;
            let point = y * size + x;
            if game.allowed(point) {
                moves.push(GomokuMove(point as u16));
            }
        }
    }
}

/// The ordering values of an empty point: what a stone there makes for the side to move (attack)
/// and what it takes from the opponent (defence), by the four patterns of the point and the
/// combinations they add up to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OrderingValues {
    /// By [`super::patterns::Pattern`] code, for each of the side to move's four patterns.
    pub attack: [i32; PATTERN_COUNT],
    /// By pattern code, for each of the opponent's four patterns.
    pub defence: [i32; PATTERN_COUNT],
    /// A four and an open three for the side to move; else...
    pub four_three: i32,
    /// ...two open threes.
    pub double_three: i32,
    /// The same for the opponent: a four and an open three; else...
    pub opponent_four_three: i32,
    /// ...two open threes.
    pub opponent_double_three: i32,
    /// An open three and an open two for the side to move; else...
    pub three_two: i32,
    /// ...two open twos.
    pub double_two: i32,
    /// The same for the opponent: an open three and an open two; else...
    pub opponent_three_two: i32,
    /// ...two open twos.
    pub opponent_double_two: i32,
}

/// The number of [`ordering_features`], in [`OrderingValues::to_vector`] order.
pub const ORDERING_FEATURES: usize = 2 * PATTERN_COUNT + 8;

impl OrderingValues {
    /// The values as one vector: attack, defence, then the combinations in field order.
    pub fn to_vector(&self) -> [i32; ORDERING_FEATURES] {
        let mut vector = [0; ORDERING_FEATURES];
        vector[..PATTERN_COUNT].copy_from_slice(&self.attack);
        vector[PATTERN_COUNT..2 * PATTERN_COUNT].copy_from_slice(&self.defence);
        vector[2 * PATTERN_COUNT..].copy_from_slice(&[
            self.four_three,
            self.double_three,
            self.opponent_four_three,
            self.opponent_double_three,
            self.three_two,
            self.double_two,
            self.opponent_three_two,
            self.opponent_double_two,
        ]);
        vector
    }

    /// Values from a vector in [`OrderingValues::to_vector`] order.
    pub fn from_vector(vector: &[i32; ORDERING_FEATURES]) -> OrderingValues {
        let mut attack = [0; PATTERN_COUNT];
        let mut defence = [0; PATTERN_COUNT];
        attack.copy_from_slice(&vector[..PATTERN_COUNT]);
        defence.copy_from_slice(&vector[PATTERN_COUNT..2 * PATTERN_COUNT]);
        let rest = &vector[2 * PATTERN_COUNT..];
        OrderingValues {
            attack,
            defence,
            four_three: rest[0],
            double_three: rest[1],
            opponent_four_three: rest[2],
            opponent_double_three: rest[3],
            three_two: rest[4],
            double_two: rest[5],
            opponent_three_two: rest[6],
            opponent_double_two: rest[7],
        }
    }
}

/// The hand-set ordering values, which renju and standard keep, and Gomoku's weight tuning plays
/// with (`ordering=hand`).
pub const HAND_ORDERING: OrderingValues = OrderingValues {
    attack: [0, 0, 1, 2, 4, 10, 14, 60, 70, 800, 800, 20_000],
    defence: [0, 0, 1, 1, 3, 7, 10, 40, 50, 500, 500, 10_000],
    four_three: 600,
    double_three: 300,
    opponent_four_three: 300,
    opponent_double_three: 150,
    three_two: 0,
    double_two: 0,
    opponent_three_two: 0,
    opponent_double_two: 0,
};

/// Ordering values fitted to the moves level 8 played in self-play (`tabula train
/// gomoku-ordering`, scripts/train/fit-gomoku-ordering.sh): they rank the move played first more
/// often than the hand-set values. Freestyle plays them: they gained there by SPRT and did not in
/// renju (docs/results/gomoku.md).
pub const FITTED_ORDERING: OrderingValues = OrderingValues {
    attack: [0, 0, 1, 3, 9, 25, 30, 60, 82, 246, 246, 8825],
    defence: [0, 0, 3, 1, 3, 14, 21, 48, 65, 106, 116, 4341],
    four_three: 134,
    double_three: 18,
    opponent_four_three: 23,
    opponent_double_three: -7,
    three_two: 9,
    double_two: 4,
    opponent_three_two: 0,
    opponent_double_two: -6,
};

/// By side to move and packed pair of patterns (as the pair table packs one direction of a
/// point for both colours): the side's [`OrderingValues::attack`] plus the opponent's
/// [`OrderingValues::defence`], so that [`score_moves`] reads a direction's value at once.
pub type PairValues = [[i32; 256]; 2];

const fn pair_values_of(values: &OrderingValues) -> PairValues {
    let mut table = [[0; 256]; 2];
    let mut pair = 0;
    while pair < 256 {
        if let Some([black, white]) = PairTable::codes(pair) {
            table[0][pair] = values.attack[black] + values.defence[white];
            table[1][pair] = values.attack[white] + values.defence[black];
        }
        pair += 1;
    }
    table
}

static HAND_PAIRS: PairValues = pair_values_of(&HAND_ORDERING);
static FITTED_PAIRS: PairValues = pair_values_of(&FITTED_ORDERING);

/// The [`PairValues`] of `values`: built in for the two sets the engine plays, made once per
/// process for any other.
pub fn pair_values(values: &OrderingValues) -> &'static PairValues {
    if *values == FITTED_ORDERING {
        return &FITTED_PAIRS;
    }
    if *values == HAND_ORDERING {
        return &HAND_PAIRS;
    }
    static OTHERS: std::sync::Mutex<Vec<&'static (OrderingValues, PairValues)>> =
        std::sync::Mutex::new(Vec::new());
    let mut others = OTHERS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(known) = others.iter().find(|(known, _)| known == values) {
        return &known.1;
    }
    let made: &'static (OrderingValues, PairValues) =
        Box::leak(Box::new((*values, pair_values_of(values))));
    others.push(made);
    &made.1
}

impl Rule {
    /// The ordering values a position under this rule starts with.
    pub fn ordering(self) -> &'static OrderingValues {
        match self {
            Rule::Freestyle => &FITTED_ORDERING,
            Rule::Standard | Rule::Renju => &HAND_ORDERING,
        }
    }
}

/// By colour and packed pair of patterns: 1 in the low four bits where the colour's pattern is
/// an open two, in the high four where it is an open three, so that the sum over a point's four
/// directions counts both.
const SHAPES: [[u8; 256]; 2] = {
    let mut table = [[0; 256]; 2];
    let mut pair = 0;
    while pair < 256 {
        if let Some(codes) = PairTable::codes(pair) {
            let mut colour = 0;
            while colour < 2 {
                table[colour][pair] = if codes[colour] == Pattern::OpenTwo as usize {
                    1
                } else if codes[colour] == Pattern::OpenThree as usize {
                    1 << 4
                } else {
                    0
                };
                colour += 1;
            }
        }
        pair += 1;
    }
    table
};

/// The combination a point's four directions (`pairs`, packed as the threat tables keep them)
/// make for `colour`: (an open three with an open two, else two open twos).
#[inline]
pub(super) fn combinations(pairs: [u8; DIRECTIONS], colour: Player) -> (bool, bool) {
    let shapes = &SHAPES[colour];
    let sum: u8 = pairs.iter().map(|&pair| shapes[usize::from(pair)]).sum();
    let (twos, threes) = (sum & 0xF, sum >> 4);
    let three_two = threes >= 1 && twos >= 1;
    (three_two, !three_two && twos >= 2)
}

/// What the ordering values weigh on the empty `point` for the side to move, in
/// [`OrderingValues::to_vector`] order: [`score_moves`] is their dot product with the rule's
/// values.
pub fn ordering_features(game: &Gomoku, point: usize) -> [i32; ORDERING_FEATURES] {
    let side = game.side;
    let threats = &game.threats;
    let mut features = [0; ORDERING_FEATURES];
    for pattern in threats.patterns(side, point) {
        features[pattern as usize] += 1;
    }
    for pattern in threats.patterns(side ^ 1, point) {
        features[PATTERN_COUNT + pattern as usize] += 1;
    }
    let base = 2 * PATTERN_COUNT;
    for (colour, offset) in [(side, 0), (side ^ 1, 2)] {
        if threats.is(colour, point, Kind::FourThree) {
            features[base + offset] = 1;
        } else if threats.is(colour, point, Kind::DoubleThree) {
            features[base + offset + 1] = 1;
        }
    }
    for (colour, offset) in [(side, 4), (side ^ 1, 6)] {
        let (three_two, double_two) = combinations(threats.pairs(point), colour);
        features[base + offset] = three_two as i32;
        features[base + offset + 1] = double_two as i32;
    }
    features
}

/// Ordering hints: what a stone on each point makes for the side to move plus what it takes from
/// the opponent, by the patterns of the point and the rule's [`OrderingValues`].
pub fn score_moves(game: &Gomoku, moves: &[GomokuMove], scores: &mut [i32]) {
    let side = game.side;
    let threats = &game.threats;
    let values = game.ordering;
    let pair_values = &game.ordering_pairs[side];
    let combine = values.three_two != 0
        || values.double_two != 0
        || values.opponent_three_two != 0
        || values.opponent_double_two != 0;
    for (mv, score) in moves.iter().zip(scores.iter_mut()) {
        let point = mv.point();
        *score = if point < game.size * game.size && game.cells[point] == 0 {
            let pairs = threats.pairs(point);
            let mut value = 0;
            for pair in pairs {
                value += pair_values[usize::from(pair)];
            }
            if threats.is(side, point, Kind::FourThree) {
                value += values.four_three;
            } else if threats.is(side, point, Kind::DoubleThree) {
                value += values.double_three;
            }
            if threats.is(side ^ 1, point, Kind::FourThree) {
                value += values.opponent_four_three;
            } else if threats.is(side ^ 1, point, Kind::DoubleThree) {
                value += values.opponent_double_three;
            }
            if combine {
                let (three_two, double_two) = combinations(pairs, side);
                value +=
                    values.three_two * three_two as i32 + values.double_two * double_two as i32;
                let (three_two, double_two) = combinations(pairs, side ^ 1);
                value += values.opponent_three_two * three_two as i32
                    + values.opponent_double_two * double_two as i32;
            }
            value
        } else {
            i32::MIN / 2
        };
    }
}
