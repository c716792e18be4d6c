//! Perft: counting the leaves of the move tree, the standard check of a move generator.
//!
//! A pass counts as a move and uses up a ply; a finished game before the last ply is one leaf.

use crate::game::rules::Rules;

pub use crate::game::rules::perft;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The leaf count below each legal move, in generation order.
pub fn divide<G: Rules>(position: &mut G, depth: usize) -> Vec<(G::Move, u64)> {
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

/// Estimated leaves in a subtree that [`perft_until_stopped`] counts without looking at the stop
/// flag: a few milliseconds at the games' perft speeds.
const CHUNK_LEAVES: u64 = 1 << 22;
/// The deepest subtree counted in one piece, whatever the branching factor.
const MAX_CHUNK_DEPTH: u32 = 3;

/// [`crate::game::Rules::perft`] that can be stopped: subtrees of an estimated `CHUNK_LEAVES` leaves or fewer
/// are counted by the game's own perft, and `stop` is checked between them. `None` when stopped.
///
/// The protocol uses it, where a deep count (Gomoku's branching factor is in the hundreds) must
/// not leave the engine deaf until it ends.
pub fn perft_until_stopped<G: Rules>(position: &G, depth: usize, stop: &AtomicBool) -> Option<u64> {
    let mut moves = Vec::new();
    position.generate_moves(&mut moves);
    let branching = moves.len().max(2) as u64;
    let mut chunk = 1;
    while chunk < MAX_CHUNK_DEPTH && branching.pow(chunk + 1) <= CHUNK_LEAVES {
        chunk += 1;
    }
    count_until_stopped(&mut position.clone(), depth, chunk as usize, stop)
}

fn count_until_stopped<G: Rules>(
    position: &mut G,
    depth: usize,
    chunk: usize,
    stop: &AtomicBool,
) -> Option<u64> {
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    if depth <= chunk {
        return Some(position.perft(depth));
    }
    let mut moves = Vec::new();
    position.generate_moves(&mut moves);
    if moves.is_empty() {
        return Some(1);
    }
    let mut total = 0;
    for mv in moves {
        let undo = position.play_unchecked(mv);
        let leaves = count_until_stopped(position, depth - 1, chunk, stop);
        position.undo(mv, undo);
        total += leaves?;
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chinese_checkers::ChineseCheckers;
    use crate::games::reversi::Reversi;

    #[test]
    fn stoppable_perft_counts_the_same_and_stops() {
        let running = AtomicBool::new(false);
        let reversi = Reversi::new();
        for depth in 0..=7 {
            assert_eq!(
                perft_until_stopped(&reversi, depth, &running),
                Some(reversi.perft(depth))
            );
        }
        let checkers = ChineseCheckers::default();
        assert_eq!(perft_until_stopped(&checkers, 5, &running), Some(3_188_520));
        let stopped = AtomicBool::new(true);
        assert_eq!(perft_until_stopped(&reversi, 12, &stopped), None);
    }
}
