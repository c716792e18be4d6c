//! The games Tabula plays, each in its own module.

pub mod gomoku;
pub mod reversi;
