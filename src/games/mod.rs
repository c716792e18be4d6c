//! The games Tabula plays, each in its own module.

pub mod reversi;
