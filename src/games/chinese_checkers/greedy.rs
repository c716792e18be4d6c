//! The reference design's greedy player, Tabula's level 1: among all legal moves, one that brings
//! a piece farthest toward the tip of its goal camp (the most rows gained), ties broken at random
//! from a seed.

use super::board::GOAL_DISTANCES;
use super::{ChineseCheckers, ChineseCheckersMove};
use crate::game::Rules;

/// The rows `mv` gains toward the side to move's goal tip (negative when it goes back).
pub fn rows_gained(position: &ChineseCheckers, mv: ChineseCheckersMove) -> i32 {
    if mv.is_pass() {
        return 0;
    }
    let goal = position.variant().goal_camp(position.side_to_move());
    GOAL_DISTANCES[goal][mv.from as usize] as i32 - GOAL_DISTANCES[goal][mv.to as usize] as i32
}

/// The greedy player's move: the most rows gained, ties broken by a pseudo-random draw from
/// `seed` and the position, so that a seed always gives the same game. `None` when the game is
/// over.
pub fn greedy_move(position: &ChineseCheckers, seed: u64) -> Option<ChineseCheckersMove> {
    let mut moves = Vec::new();
    position.generate_moves(&mut moves);
    let best = moves.iter().map(|&mv| rows_gained(position, mv)).max()?;
    let ties: Vec<ChineseCheckersMove> = moves
        .into_iter()
        .filter(|&mv| rows_gained(position, mv) == best)
        .collect();
    let draw = crate::base::zobrist::mix(seed ^ crate::base::zobrist::mix(position.hash()));
    Some(ties[(draw % ties.len() as u64) as usize])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chinese_checkers::board::{bit, hole_at, CAMP_MASKS};
    use crate::games::chinese_checkers::Jumps;
    use std::collections::HashSet;

    fn at(column: i32, row: i32) -> usize {
        hole_at(column, row).unwrap()
    }

    /// Two players, player 1 to move, with player 1's pieces on `first` and player 2's in
    /// camp 2, out of the way.
    fn position(first: &[usize]) -> ChineseCheckers {
        let mut cells = ['.'; 121];
        for (hole, cell) in cells.iter_mut().enumerate() {
            if CAMP_MASKS[2] & bit(hole) != 0 {
                *cell = '2';
            }
        }
        for &hole in first {
            assert_eq!(cells[hole], '.');
            cells[hole] = '1';
        }
        let text: String = cells.iter().collect();
        let mut game = ChineseCheckers::new(2, Jumps::Standard, 1000).unwrap();
        game.set_position_string(&format!("{text} 1")).unwrap();
        game
    }

    #[test]
    fn the_longest_forward_hop_wins() {
        // The piece on (0, 2) hops over (1, 3) to (2, 4) and over (3, 5) to (4, 6): four rows.
        // The cluster on the left has hops of two rows at most; steps gain one.
        let mut first = vec![at(0, 2), at(1, 3), at(3, 5)];
        first.extend([at(-12, 4), at(-10, 4), at(-8, 4)]);
        first.extend([at(-11, 5), at(-9, 5), at(-7, 5), at(-5, 5)]);
        let game = position(&first);
        for seed in 0..20 {
            let mv = greedy_move(&game, seed).unwrap();
            assert_eq!(
                (mv.from as usize, mv.to as usize),
                (at(0, 2), at(4, 6)),
                "seed {seed}"
            );
            assert_eq!(rows_gained(&game, mv), 4);
        }
    }

    #[test]
    fn ties_are_broken_at_random_but_reproducibly() {
        // At the start the six opening hops gain two rows each, the steps one.
        let game = ChineseCheckers::new(2, Jumps::Standard, 1000).unwrap();
        let chosen: HashSet<ChineseCheckersMove> = (0..64)
            .map(|seed| greedy_move(&game, seed).unwrap())
            .collect();
        assert!(chosen.len() >= 4, "{chosen:?}");
        for mv in &chosen {
            assert_eq!(rows_gained(&game, *mv), 2);
        }
        for seed in 0..8 {
            assert_eq!(greedy_move(&game, seed), greedy_move(&game, seed));
        }
    }

    #[test]
    fn a_lone_piece_steps_forward() {
        // Nine pieces fill player 1's goal camp but for its corner (-3, 13); the tenth stands
        // alone on (0, 8). Only its two forward steps gain a row: moves inside the goal gain
        // nothing (sideways into the corner) or lose a row.
        let corner = at(-3, 13);
        let mut first: Vec<usize> = (0..121)
            .filter(|&hole| CAMP_MASKS[4] & bit(hole) != 0 && hole != corner)
            .collect();
        first.push(at(0, 8));
        let game = position(&first);
        let chosen: HashSet<(usize, usize)> = (0..64)
            .map(|seed| greedy_move(&game, seed).unwrap())
            .map(|mv| (mv.from as usize, mv.to as usize))
            .collect();
        let expected = HashSet::from([(at(0, 8), at(-1, 9)), (at(0, 8), at(1, 9))]);
        assert_eq!(chosen, expected);
    }
}
