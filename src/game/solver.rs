//! What a game's solvers are asked and what they answer: exact solutions, quick proofs of a
//! forced win, and moves a game chooses by its own means.

use crate::base::transposition::TranspositionTable;
use crate::game::levels::Strength;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// What an exact solver is asked to do.
pub struct SolveRequest<'a> {
    /// The shared stop flag: the solver gives up when it is raised.
    pub stop: &'a AtomicBool,
    /// Threads to solve with.
    pub threads: usize,
    /// When the solve began.
    pub start: Instant,
    /// The solver raises `stop` and gives up after this long.
    pub hard_time: Option<Duration>,
    /// Whether every move needs its exact score (for analysis), not just the best one.
    pub all_moves: bool,
    /// A table the solver may use.
    pub table: &'a TranspositionTable,
}

/// What [`crate::game::hooks::SearchHooks::direct_move`] may use.
pub struct DirectRequest<'a> {
    /// The playing level, 1 (beginner) to 8 (full strength).
    pub level: u8,
    /// A seed for the game's random choices: the same seed gives the same move.
    pub seed: u64,
    /// The shared stop flag: give up when it is raised.
    pub stop: &'a AtomicBool,
    /// When the move was asked for.
    pub start: Instant,
    /// Give up after this long.
    pub hard_time: Option<Duration>,
}

/// A move a game chose by its own means instead of the tree search (see [`crate::game::hooks::SearchHooks::direct_move`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirectMove<M> {
    /// The move.
    pub mv: M,
    /// The line the move begins (a plan of the mover's own moves), starting with `mv`.
    pub pv: Vec<M>,
    /// Whether the line is proven the shortest way to the mover's goal; otherwise it is a
    /// heuristic choice.
    pub exact: bool,
}

/// What the scores of a [`Solution`] measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolutionScale {
    /// The exact final margin for the side to move, in the game's units (discs in Reversi).
    Margin,
    /// Search scores ([`crate::base::score`]): a proven win or loss decodes with
    /// [`crate::base::score::decode_win`] (a threat-space solver's `win in N`).
    Search,
}

/// An exact solution of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution<M> {
    /// Moves with their exact scores for the side to move, best first. Only the first is present
    /// unless every move was asked for.
    pub moves: Vec<(M, i32)>,
    /// What the scores measure.
    pub scale: SolutionScale,
    /// A best line, starting with the best move.
    pub pv: Vec<M>,
    /// Positions visited.
    pub nodes: u64,
}

/// What the search asks of a game's quick proof search ([`crate::game::hooks::SearchHooks::find_forced_win`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProofRequest {
    /// About how many nodes the proof search may spend.
    pub nodes: u64,
    /// Whether this is the search's root, where a wider and deeper proof is worth its cost and the
    /// whole winning line is wanted.
    pub root: bool,
    /// The strength the search plays at: a game may prove nothing at low strength.
    pub strength: Strength,
}

/// A forced win found by a game's quick proof search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForcedWin<M> {
    /// The winning line, starting with the first move; at inner nodes it may hold only that move.
    pub line: Vec<M>,
    /// Plies to the end of the game, the winning move included, against the longest defence the
    /// proof saw.
    pub plies: usize,
}
