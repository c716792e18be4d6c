//! Static evaluation of Chinese Checkers positions, in sixteenths of a row of progress.
//!
//! A seat's cost is the distance its pieces still have to travel: rows toward the goal tip
//! (strength 1 and up), plus a penalty for pieces far to the side of the axis through the goal,
//! where they would have to come back in (strength 3 and up), plus one for the last straggler,
//! which has nobody left to hop over (strength 5 and up). With three or more players the search
//! reduces the game to the root seat against a coalition (paranoid), so a seat's value is its
//! lead over the best unfinished opponent, minus a penalty for each player already finished.

use super::board::{CAMP_MASKS, GOAL_DISTANCES, HOME_DISTANCE, SIDEWAYS};
use super::{ChineseCheckers, ChineseCheckersMove};
use crate::game::{Game, Player, ScoreUnit, Strength};
use crate::score::MAX_EVALUATION;

/// One row of progress toward the goal, in evaluation units.
pub const ROW: i32 = 16;
/// The cost of one doubled column beyond the band in front of the goal.
const SIDEWAYS_WEIGHT: i32 = 3;
/// The cost of each row the farthest piece lies beyond [`STRAGGLER_FREE`].
const STRAGGLER_WEIGHT: i32 = 3;
const STRAGGLER_FREE: i32 = 6;
/// The value of having finished first; each later place is worth [`PLACE_STEP`] less.
const FINISHED: i32 = 9_000;
const PLACE_STEP: i32 = 1_000;
/// The penalty for each other player that has already finished.
const FINISHED_AHEAD: i32 = 1_500;
const LIMIT: i32 = MAX_EVALUATION - 1;

/// What `seat` still has to do, in evaluation units; 0 with every piece in the goal camp.
pub fn cost(position: &ChineseCheckers, seat: Player, strength: Strength) -> i32 {
    let remaining = position.distance(seat) as i32 - HOME_DISTANCE as i32;
    let mut cost = remaining * ROW;
    if strength.0 < 3 {
        return cost;
    }
    let goal = position.variant().goal_camp(seat);
    let mut pieces = position.pieces(seat);
    let mut farthest = 0;
    while pieces != 0 {
        let hole = pieces.trailing_zeros() as usize;
        pieces &= pieces - 1;
        cost += SIDEWAYS[goal][hole] as i32 * SIDEWAYS_WEIGHT;
        farthest = farthest.max(GOAL_DISTANCES[goal][hole] as i32);
    }
    if strength.0 >= 5 {
        cost += (farthest - STRAGGLER_FREE).max(0) * STRAGGLER_WEIGHT;
    }
    cost
}

/// The value of the position for `perspective`, strictly within ±[`MAX_EVALUATION`].
pub fn evaluate(position: &ChineseCheckers, perspective: Player, strength: Strength) -> i32 {
    if let Some(place) = position.place(perspective) {
        return (FINISHED - (place as i32 - 1) * PLACE_STEP).clamp(-LIMIT, LIMIT);
    }
    let players = position.player_count();
    let finished = (0..players)
        .filter(|&seat| position.place(seat).is_some())
        .count() as i32;
    let best_opponent = (0..players)
        .filter(|&seat| seat != perspective && position.place(seat).is_none())
        .map(|seat| cost(position, seat, strength))
        .min();
    let Some(best_opponent) = best_opponent else {
        // The last player left: the game is over and the place is settled.
        return (-finished * FINISHED_AHEAD).clamp(-LIMIT, LIMIT);
    };
    let value = best_opponent - cost(position, perspective, strength) - finished * FINISHED_AHEAD;
    value.clamp(-LIMIT, LIMIT)
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

/// The moves the side to move probably still needs: about three rows of progress per move.
pub fn expected_moves_left(position: &ChineseCheckers) -> u32 {
    let remaining = position
        .distance(position.side_to_move())
        .saturating_sub(HOME_DISTANCE);
    remaining.div_ceil(3) + 2
}

/// Evaluation points count sixteenths of a row of progress.
pub const UNIT: ScoreUnit = ScoreUnit {
    per_unit: ROW,
    decimals: 2,
    name: "rows",
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chinese_checkers::Jumps;

    #[test]
    fn start_is_balanced_for_two() {
        let start = ChineseCheckers::new(2, Jumps::Standard, 1000).unwrap();
        for level in 1..=8 {
            assert_eq!(evaluate(&start, 0, Strength(level)), 0);
            assert_eq!(evaluate(&start, 1, Strength(level)), 0);
        }
        assert_eq!(cost(&start, 0, Strength(1)), 120 * ROW);
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
    fn values_count_sixteenths_of_rows() {
        assert_eq!(UNIT.convert(24), 1.5);
        assert_eq!(UNIT.convert(-4), -0.25);
    }
}
