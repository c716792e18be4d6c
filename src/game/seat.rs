//! Seats at the table.

/// The largest number of seats any game has (Chinese Checkers with six players).
pub const MAX_PLAYERS: usize = 6;

/// A seat at the table, counted from 0. Seat 0 moves first (black in Reversi and Gomoku,
/// player 1 in Chinese Checkers).
pub type Player = usize;
