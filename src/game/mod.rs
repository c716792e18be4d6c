//! What every game shares: the rules trait, its search hooks, outcomes and errors, playing levels,
//! perft and the consistency test.
//!
//! A game implements [`Rules`] (its rules and notation) and [`SearchHooks`] (evaluation and what
//! the search may ask beyond the rules, mostly defaulted); together they make a [`Game`]. Search,
//! perft, analysis and the protocol front-ends are written once, generic over [`Game`]. A game
//! keeps its rules, its evaluation and its text notation in its own module under `games/`.
//!
//! The files of this folder import one another by their own paths; this file only gathers the
//! names the layers above use.

pub mod consistency;
pub mod error;
pub mod hooks;
pub mod levels;
pub mod notation;
pub mod outcome;
pub mod perft;
pub mod rules;
pub mod seat;
pub mod solver;

pub use error::GameError;
pub use hooks::{
    Game, LeftOutLosses, MultiplayerSearch, ProbCut, ScoreUnit, SearchHooks, Selectivity,
};
pub use levels::Strength;
pub use outcome::Outcome;
pub use rules::{MoveCode, Rules};
pub use seat::{Player, MAX_PLAYERS};
pub use solver::{
    DirectMove, DirectRequest, ForcedWin, ProofRequest, Solution, SolutionScale, SolveRequest,
};
