//! The errors the engine reports to a front-end.

use crate::game::GameError;

/// Errors the engine reports to a front-end.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The game rejected a move, position or option.
    #[error(transparent)]
    Game(#[from] GameError),
    /// The named player is not the one to move (and no pass can be implied).
    #[error("it is {expected}'s turn, not {given}'s")]
    WrongPlayer {
        /// The player to move.
        expected: String,
        /// The player named.
        given: String,
    },
    /// `undo` with no move to take back.
    #[error("cannot undo: no move to take back")]
    NothingToUndo,
    /// `final_score` while the game goes on.
    #[error("the game is not over")]
    GameNotOver,
    /// An option name or value the engine does not know.
    #[error("{0}")]
    InvalidOption(String),
    /// Memory for the transposition table could not be had; the old table stays.
    #[error("{0}; the table stays as it was")]
    Memory(#[from] crate::base::transposition::TableError),
    /// The game has no such feature.
    #[error("{0}")]
    Unsupported(String),
    /// The solver ran to its end and proved nothing (Gomoku's threat search finds no win).
    #[error("no result proven")]
    NotProven,
    /// The search was stopped before it had a result.
    #[error("stopped before a result")]
    Stopped,
}
