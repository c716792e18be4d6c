//! Tabula: one engine for Reversi/Othello, Gomoku and Chinese Checkers.
//!
//! Layers: rules ([`games`], behind the [`game::Game`] trait) → search ([`search`]) → the engine
//! façade ([`engine`]) → protocol front-ends ([`protocol`]).

pub mod consistency;
pub mod game;
pub mod games;
pub mod perft;
pub mod score;
pub mod zobrist;
