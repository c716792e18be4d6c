//! The games Tabula plays, each in its own module.

pub mod chinese_checkers;
pub mod reversi;
