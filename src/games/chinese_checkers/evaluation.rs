//! Static evaluation of Chinese Checkers positions.
//!
//! A seat's cost estimates the moves it still needs to fill its goal: a linear model of features
//! of its pieces (rows to go, pieces outside the goal, the farthest piece and the spread of the
//! group, how far pieces lag behind the front, pieces to the side of the goal's axis or in side
//! camps, pieces still at home, forward hops ready, empty goal holes, and the hole classes a hop
//! cannot change), trained by regression on the moves players actually needed in self-play
//! (`scripts/train-chinese-checkers-eval.sh`). Evaluation points are 1/48 of a move. Strengths 1
//! and 2 count rows only (a third of a move each); 3 and 4 leave out the hop and class features.
//!
//! Two players: a seat's value is the opponent's cost less its own, with half a move for the side
//! to move (strength 6 and up). Three or more: the search scores a finished game by places (see
//! [`crate::score::middle_place`]), so a position is valued between the best place the seat can
//! still reach and the next one, by its lead over the best unfinished opponent: finishing always
//! beats playing on, and every finished opponent costs a place. Solitaire: minus the cost.

use super::board::{
    CAMP_MASKS, CLASS_MASKS, GOAL_DISTANCES, HOLES, HOME_DISTANCE, HOPS, OFF_BOARD, SIDEWAYS,
};
use super::{ChineseCheckers, ChineseCheckersMove};
use crate::game::{Game, Player, ScoreUnit, Strength};
use crate::score::{middle_place, MAX_EVALUATION};

/// One move, in evaluation points.
pub const MOVE: i32 = 48;
/// One row of progress in the ordering hints (and the cost of a row at strengths 1 and 2).
pub const ROW: i32 = 16;
/// The cost of one doubled column beyond the band in front of the goal (ordering hints).
const SIDEWAYS_WEIGHT: i32 = 3;
const LIMIT: i32 = MAX_EVALUATION - 1;

/// The number of features of a seat.
pub const FEATURES: usize = 12;

/// The features' names, as [`Weights`] reads them.
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "rows",
    "outside",
    "back",
    "spread",
    "lag",
    "sideways",
    "side_camp",
    "home",
    "hops",
    "holes",
    "rows_squared",
    "classes",
];

/// Features a strength below 5 leaves out (hops, classes).
const FULL_ONLY: [usize; 2] = [8, 11];

/// The model: thousandths of a move per unit of each feature, and the tempo.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per unit of each feature, in thousandths of a move (see [`FEATURE_NAMES`]).
    pub features: [i32; FEATURES],
    /// For the side to move, in evaluation points (strength 6+).
    pub tempo: i32,
}

impl Weights {
    /// The trained weights (see `scripts/train-chinese-checkers-eval.sh`).
    pub const DEFAULT: Weights = Weights {
        features: [281, 399, 698, 0, 0, 0, 2139, 0, -536, 399, 0, 0],
        tempo: MOVE / 2,
    };
}

impl std::str::FromStr for Weights {
    type Err = String;

    /// `name=value` pairs separated by commas, starting from the defaults, e.g. `spread=200`;
    /// `tempo` is in evaluation points, the rest in thousandths of a move.
    fn from_str(text: &str) -> Result<Weights, String> {
        let mut weights = Weights::DEFAULT;
        for pair in text.split(',').filter(|pair| !pair.is_empty()) {
            let (key, value) = pair
                .split_once('=')
                .ok_or_else(|| format!("'{pair}': expected key=value"))?;
            let value: i32 = value
                .parse()
                .map_err(|_| format!("'{pair}': the value must be a whole number"))?;
            if key == "tempo" {
                weights.tempo = value;
                continue;
            }
            let index = FEATURE_NAMES
                .iter()
                .position(|&name| name == key)
                .ok_or_else(|| format!("unknown weight '{key}'"))?;
            weights.features[index] = value;
        }
        Ok(weights)
    }
}

impl Default for Weights {
    fn default() -> Self {
        Weights::DEFAULT
    }
}

/// Whether the piece on `hole` can hop forward, toward the goal tip with `distances`, now.
#[inline]
fn has_forward_hop(hole: usize, occupied: u128, distances: &[u8; HOLES]) -> bool {
    let here = distances[hole];
    HOPS[hole].iter().any(|hop| {
        hop.over != OFF_BOARD
            && occupied >> hop.over & 1 == 1
            && occupied >> hop.landing & 1 == 0
            && distances[hop.landing as usize] + 2 == here
    })
}

/// The features of `seat`'s pieces (see [`FEATURE_NAMES`]).
pub fn features(position: &ChineseCheckers, seat: Player) -> [i32; FEATURES] {
    let variant = position.variant();
    let goal = variant.goal_camp(seat);
    let distances = &GOAL_DISTANCES[goal];
    let camp = CAMP_MASKS[goal];
    let occupied = position.occupied();
    let own = position.pieces(seat);
    let outside_mask = own & !camp;
    let mut front = i32::MAX;
    let mut back = 0;
    let mut lag_sum = 0;
    let mut sideways = 0;
    let mut squares = 0;
    let mut hops = 0;
    let mut rest = own;
    while rest != 0 {
        let hole = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let distance = distances[hole] as i32;
        sideways += SIDEWAYS[goal][hole] as i32;
        squares += distance * distance;
        if camp >> hole & 1 == 0 {
            front = front.min(distance);
            back = back.max(distance);
            lag_sum += distance;
            if has_forward_hop(hole, occupied, distances) {
                hops += 1;
            }
        }
    }
    let outside = outside_mask.count_ones() as i32;
    let (spread, lag) = if outside == 0 {
        (0, 0)
    } else {
        (back - front, lag_sum - outside * front)
    };
    let mut classes = 0;
    for mask in &CLASS_MASKS {
        classes += ((camp & mask).count_ones() as i32 - (own & mask).count_ones() as i32).max(0);
    }
    [
        position.distance(seat) as i32 - HOME_DISTANCE as i32,
        outside,
        back,
        spread,
        lag,
        sideways,
        (own & variant.side_camps(seat)).count_ones() as i32,
        (own & CAMP_MASKS[variant.start_camp(seat)]).count_ones() as i32,
        hops,
        (camp & !own).count_ones() as i32,
        squares / 16,
        classes,
    ]
}

/// What `seat` still has to do, in evaluation points; 0 with every piece in the goal camp.
pub fn cost(position: &ChineseCheckers, seat: Player, strength: Strength) -> i32 {
    let remaining = position.distance(seat) as i32 - HOME_DISTANCE as i32;
    if remaining == 0 {
        return 0;
    }
    if strength.0 < 3 {
        return remaining * ROW;
    }
    let weights = position.weights();
    let values = features(position, seat);
    let mut total: i64 = 0;
    for (index, (&weight, &value)) in weights.features.iter().zip(&values).enumerate() {
        if strength.0 < 5 && FULL_ONLY.contains(&index) {
            continue;
        }
        total += weight as i64 * value as i64;
    }
    let mut cost = (total * MOVE as i64 / 1000) as i32;
    if strength.0 >= 6 && position.side_to_move() == seat {
        cost -= weights.tempo;
    }
    // Never below a move for each piece still outside the goal, nor below one move.
    cost.max(values[1] * MOVE).max(MOVE / 2)
}

/// The value of the position for `perspective`, strictly within ±[`MAX_EVALUATION`].
pub fn evaluate(position: &ChineseCheckers, perspective: Player, strength: Strength) -> i32 {
    let players = position.player_count();
    if let Some(place) = position.place(perspective) {
        // Settled: the value the search gives that place, kept inside the evaluation range.
        return place_value(place as usize, players);
    }
    if players == 1 {
        // Solitaire: only the way still to go counts.
        return (-cost(position, perspective, strength)).clamp(-LIMIT, LIMIT);
    }
    let best_opponent = best_opponent_cost(position, perspective, strength);
    let Some(best_opponent) = best_opponent else {
        // The last player left: the game is over and the place is the last.
        return -LIMIT;
    };
    let lead = best_opponent - cost(position, perspective, strength);
    if players == 2 {
        return lead.clamp(-LIMIT, LIMIT);
    }
    let finished = (0..players)
        .filter(|&seat| position.place(seat).is_some())
        .count();
    // Between the best place still open and the next one.
    let best = place_value(finished + 1, players);
    let next = place_value(finished + 2, players);
    let half = (best - next) / 2 - 1;
    (best + next) / 2 + lead.clamp(-half, half)
}

/// The smallest cost among the unfinished opponents of `perspective`. Opponents are costed in
/// the order of their rows to go; one whose rows alone cannot beat the best so far is skipped,
/// which is exact as long as the rows' weight is a lower bound of the cost (checked in the tests)
/// and a bound that may skip a close second otherwise.
fn best_opponent_cost(
    position: &ChineseCheckers,
    perspective: Player,
    strength: Strength,
) -> Option<i32> {
    let players = position.player_count();
    let weights = position.weights();
    // A lower bound of each cost from the rows alone: the rows' weight and the tempo.
    let per_row = if strength.0 < 3 {
        ROW
    } else {
        weights.features[0] * MOVE / 1000
    };
    let bonus = if strength.0 >= 6 { weights.tempo.max(0) } else { 0 };
    // The rows bound the cost from below only while no other feature takes anything off.
    let bounded = strength.0 < 3 || weights.features[1..].iter().all(|&weight| weight >= 0);
    let mut candidates = [(0i32, 0usize); crate::game::MAX_PLAYERS];
    let mut count = 0;
    for seat in 0..players {
        if seat != perspective && position.place(seat).is_none() {
            let rows = position.distance(seat) as i32 - HOME_DISTANCE as i32;
            candidates[count] = (rows * per_row - bonus, seat);
            count += 1;
        }
    }
    let candidates = &mut candidates[..count];
    candidates.sort_unstable();
    let mut best: Option<i32> = None;
    for &(lower, seat) in candidates.iter() {
        if bounded && best.is_some_and(|best| lower >= best) {
            break;
        }
        let cost = cost(position, seat, strength);
        best = Some(best.map_or(cost, |best| best.min(cost)));
    }
    best
}

/// A place's value as the search scores it, inside the evaluation range.
fn place_value(place: usize, players: usize) -> i32 {
    if place <= 1 {
        LIMIT
    } else if place >= players {
        -LIMIT
    } else {
        middle_place(place, players)
    }
}

/// Ordering hints: the progress a move makes toward the side to move's goal, long forward hops
/// first, with a bonus for entering the goal camp.
pub fn score_moves(position: &ChineseCheckers, moves: &[ChineseCheckersMove], scores: &mut [i32]) {
    let seat = position.side_to_move();
    let goal = position.variant().goal_camp(seat);
    let distances = &GOAL_DISTANCES[goal];
    let sideways = &SIDEWAYS[goal];
    for (mv, score) in moves.iter().zip(scores.iter_mut()) {
        if mv.is_pass() {
            *score = 0;
            continue;
        }
        let (from, to) = (mv.from as usize, mv.to as usize);
        let gain = distances[from] as i32 - distances[to] as i32;
        let drift = sideways[to] as i32 - sideways[from] as i32;
        let enters = CAMP_MASKS[goal] >> to & 1 == 1 && CAMP_MASKS[goal] >> from & 1 == 0;
        *score = gain * ROW - drift * SIDEWAYS_WEIGHT + if enters { ROW / 2 } else { 0 };
    }
}

/// The moves the side to move probably still needs: its cost, and two to spare.
pub fn expected_moves_left(position: &ChineseCheckers) -> u32 {
    let seat = position.side_to_move();
    (cost(position, seat, Strength::FULL).max(0) / MOVE) as u32 + 2
}

/// Evaluation points count 1/48 of a move.
pub const UNIT: ScoreUnit = ScoreUnit {
    per_unit: MOVE,
    decimals: 2,
    name: "moves",
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chinese_checkers::Jumps;

    #[test]
    fn start_is_balanced_for_two() {
        let start = ChineseCheckers::new(2, Jumps::Standard, 1000).unwrap();
        for level in 1..=8 {
            // From strength 6 the side to move has half a move in hand.
            let tempo = if level >= 6 { Weights::DEFAULT.tempo } else { 0 };
            assert_eq!(evaluate(&start, 0, Strength(level)), tempo);
            assert_eq!(evaluate(&start, 1, Strength(level)), -tempo);
        }
        assert_eq!(cost(&start, 0, Strength(1)), 120 * ROW);
    }

    #[test]
    fn finishing_beats_playing_on_with_several_players() {
        // Whatever the lead, an unfinished seat is valued below the best place it can still
        // take, and above the place after it.
        for players in [3, 4, 6] {
            for finished in 0..players - 1 {
                let best = place_value(finished + 1, players);
                let next = place_value(finished + 2, players);
                assert!(best > next, "{players} players, {finished} finished");
                let half = (best - next) / 2 - 1;
                let mid = (best + next) / 2;
                assert!(mid + half < best && mid - half > next);
            }
        }
    }

    #[test]
    fn forward_moves_score_higher() {
        let start = ChineseCheckers::new(2, Jumps::Standard, 1000).unwrap();
        let mut moves = Vec::new();
        start.generate_moves(&mut moves);
        let mut scores = vec![0; moves.len()];
        score_moves(&start, &moves, &mut scores);
        for (mv, score) in moves.iter().zip(&scores) {
            // Steps gain one row and hops two; nothing drifts sideways from the start camp.
            let gain = GOAL_DISTANCES[4][mv.from as usize] - GOAL_DISTANCES[4][mv.to as usize];
            assert_eq!(*score, gain as i32 * ROW, "{mv:?}");
        }
        assert_eq!(scores.iter().filter(|&&score| score == 2 * ROW).count(), 6);
    }

    #[test]
    fn values_count_moves() {
        assert_eq!(UNIT.convert(72), 1.5);
        assert_eq!(UNIT.convert(-12), -0.25);
    }

    #[test]
    fn costs_count_moves_and_features_read_back() {
        let start = ChineseCheckers::new(2, Jumps::Standard, 1000).unwrap();
        let values = features(&start, 0);
        assert_eq!(values[0], 120, "rows");
        assert_eq!(values[1], 10, "outside");
        assert_eq!(values[7], 10, "home");
        assert_eq!(values[9], 10, "empty goal holes");
        // Never below a move for each piece outside the goal.
        assert!(cost(&start, 0, Strength(8)) >= 10 * MOVE);
        let weights: Weights = "spread=250,tempo=10".parse().unwrap();
        assert_eq!(weights.features[3], 250);
        assert_eq!(weights.tempo, 10);
        assert!("size=3".parse::<Weights>().is_err());
    }
}
