//! Perft: counting the leaves of the move tree, the standard check of a move generator.
//!
//! A pass counts as a move and uses up a ply; a finished game before the last ply is one leaf.

use crate::game::Game;
use std::time::{Duration, Instant};

/// Counts the leaves `depth` plies below `position`, with one reusable move buffer per ply.
pub fn perft<G: Game>(position: &mut G, depth: usize) -> u64 {
    let mut buffers: Vec<Vec<G::Move>> = (0..=depth).map(|_| Vec::new()).collect();
    count(position, depth, &mut buffers)
}

fn count<G: Game>(position: &mut G, depth: usize, buffers: &mut [Vec<G::Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (moves, rest) = buffers.split_first_mut().expect("one buffer per ply");
    position.generate_moves(moves);
    if moves.is_empty() {
        return 1;
    }
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for &mv in moves.iter() {
        let undo = position.play_unchecked(mv);
        total += count(position, depth - 1, rest);
        position.undo(mv, undo);
    }
    total
}

/// The leaf count below each legal move, in generation order.
pub fn divide<G: Game>(position: &mut G, depth: usize) -> Vec<(G::Move, u64)> {
    let mut moves = Vec::new();
    position.generate_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let undo = position.play_unchecked(mv);
            let leaves = perft(position, depth.saturating_sub(1));
            position.undo(mv, undo);
            (mv, leaves)
        })
        .collect()
}

/// One line of a perft report.
#[derive(Clone, Debug)]
pub struct PerftLine {
    /// The depth counted.
    pub depth: usize,
    /// Leaves at that depth.
    pub leaves: u64,
    /// Wall time of this depth.
    pub elapsed: Duration,
}

impl PerftLine {
    /// Leaves per second.
    pub fn leaves_per_second(&self) -> f64 {
        self.leaves as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Times `counter` at a given depth; games with a faster dedicated perft pass it in place of [`perft`].
pub fn timed(depth: usize, counter: impl FnOnce(usize) -> u64) -> PerftLine {
    let start = Instant::now();
    let leaves = counter(depth);
    PerftLine {
        depth,
        leaves,
        elapsed: start.elapsed(),
    }
}
