//! The base layer: what every other layer may use and nothing here imports from above.
//!
//! Scores and their encoding, Zobrist key families, the shared transposition table, the
//! processor's instruction sets and the memory budget.

pub mod budget;
pub mod cpu;
pub mod score;
pub mod transposition;
pub mod words;
pub mod zobrist;
