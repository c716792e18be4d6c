//! Tabula: one engine for Reversi/Othello, Gomoku and Chinese Checkers.
//!
//! Layers: rules ([`games`], behind the [`game::Game`] trait) → search ([`search`]) → the engine
//! façade ([`engine`]) → protocol front-ends ([`protocol`]).

pub mod bench;
pub mod budget;
pub mod consistency;
pub mod cpu;
pub mod engine;
pub mod game;
pub mod games;
pub mod levels;
pub mod notation;
pub mod ordering;
pub mod perft;
pub mod protocol;
pub mod score;
pub mod search;
pub mod server;
pub mod time_management;
pub mod tools;
pub mod transposition;
pub mod zobrist;
