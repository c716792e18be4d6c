//! Tabula: one engine for Reversi/Othello, Gomoku and Chinese Checkers.
//!
//! The layers, each importing only from those before it:
//! [`base`] (scores, hashing, the transposition table) → [`game`] (the rules trait and what every
//! game shares) → [`games`] (the three games) → [`search`] → [`engine`] (the façade) →
//! [`protocol`] front-ends, [`tools`] and the [`server`].

pub mod base;
pub mod engine;
pub mod game;
pub mod games;
pub mod protocol;
pub mod search;
pub mod server;
pub mod tools;
