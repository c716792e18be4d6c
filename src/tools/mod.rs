//! Tools built on the engine: they use the search and the games, and no game depends on them.

pub mod chinese_checkers_match;
pub mod reversi_selfplay;
pub mod reversi_training;
pub mod solve_file;
