//! The errors a game reports for bad moves, positions and options.

/// Errors a game reports for bad moves, positions and options.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The text is not a move in this game's notation.
    #[error("malformed move '{0}'")]
    MalformedMove(String),
    /// The move is well formed but may not be played here.
    #[error("illegal move {mv}: {reason}")]
    IllegalMove {
        /// The move as the user wrote it.
        mv: String,
        /// Why it may not be played.
        reason: String,
    },
    /// The text names no player of this game.
    #[error("unknown player '{0}'")]
    UnknownPlayer(String),
    /// A position string could not be read.
    #[error("invalid position: {0}")]
    InvalidPosition(String),
    /// No game has this name; the text lists those that do.
    #[error("unknown game {0}")]
    UnknownGame(String),
    /// A `key=value` game option is unknown or out of range.
    #[error("invalid game option: {0}")]
    InvalidOption(String),
    /// The game has ended, so no move may be played.
    #[error("the game is over")]
    GameOver,
}
