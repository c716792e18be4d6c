//! Tools built on the engine: they use the search and the games, and no game depends on them.
//!
//! `analyze` (batch analysis) and `matches` (engine-against-engine matches) are the subcommands
//! people script; `positions`, `progress` and `interrupt` are what they share.

pub mod analyze;
pub mod bench;
pub mod interrupt;
pub mod matches;
pub mod positions;
pub mod progress;
pub mod selfplay;
pub mod solve_file;
pub mod training;
