//! What the referee asks of an engine, whatever its protocol: set up a game, hear the other
//! players' moves, and produce a move within a deadline. A failure is a [`Fault`] that loses the
//! game for the engine.

use super::clock::MatchClock;
use super::process::ReadError;
use super::records::Termination;
use crate::game::Player;
use std::time::{Duration, Instant};

/// Why an engine loses a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// The kind of failure.
    pub termination: Termination,
    /// What happened, in words.
    pub reason: String,
}

impl Fault {
    /// A fault of `termination` kind.
    pub fn new(termination: Termination, reason: impl Into<String>) -> Fault {
        Fault {
            termination,
            reason: reason.into(),
        }
    }

    /// The fault for a failed read while waiting for the reply to `command`; `clocked` says
    /// that the wait was the engine's own time, so that running out of it loses on time.
    pub fn of_read(error: ReadError, command: &str, waited: Duration, clocked: bool) -> Fault {
        match error {
            ReadError::Timeout if clocked => Fault::new(
                Termination::TimeForfeit,
                format!(
                    "no reply to '{command}' within its time ({:.0} ms)",
                    waited.as_secs_f64() * 1000.0
                ),
            ),
            ReadError::Timeout => Fault::new(
                Termination::Hang,
                format!(
                    "no reply to '{command}' within {:.1} s",
                    waited.as_secs_f64()
                ),
            ),
            ReadError::Closed(status) => Fault::new(
                Termination::Crash,
                format!(
                    "ended during '{command}'{}",
                    status.map_or(String::new(), |status| format!(" ({status})"))
                ),
            ),
            ReadError::Interrupted => Fault::new(Termination::Interrupted, "interrupted"),
        }
    }

    /// The fault for a failed write of `command`.
    pub fn of_write(error: &std::io::Error, command: &str) -> Fault {
        Fault::new(
            Termination::Crash,
            format!("cannot be sent '{command}' ({error}): it has ended"),
        )
    }
}

/// A move of the game as engines are told it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// The seat that played it.
    pub seat: Player,
    /// The seat in the game's words (`black`, `3`).
    pub player: String,
    /// The move in the game's notation.
    pub mv: String,
}

impl PlayedMove {
    /// Whether the move is a pass.
    pub fn is_pass(&self) -> bool {
        self.mv.eq_ignore_ascii_case("pass")
    }
}

/// A new game.
#[derive(Clone, Debug)]
pub struct GameSetup {
    /// The game's canonical name.
    pub game: String,
    /// Its options.
    pub options: Vec<(String, String)>,
    /// The position string it starts from; `None` for the game's start position.
    pub position: Option<String>,
    /// The opening's moves from there.
    pub opening: Vec<PlayedMove>,
    /// The engine's seat.
    pub seat: Player,
    /// The engine's clock at the start.
    pub clock: MatchClock,
}

impl GameSetup {
    /// A game option's value.
    pub fn option(&self, key: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(known, _)| known == key)
            .map(|(_, value)| value.as_str())
    }
}

/// A request for a move.
#[derive(Clone, Debug)]
pub struct MoveRequest {
    /// The seat to move.
    pub seat: Player,
    /// The seat in the game's words.
    pub player: String,
    /// The engine's clock before the move.
    pub clock: MatchClock,
    /// When the engine loses on time (or hangs, without a clock).
    pub deadline: Instant,
}

/// An engine in a match.
pub trait Client: Send {
    /// Sets up a new game.
    ///
    /// # Errors
    /// The engine failed or refused.
    fn new_game(&mut self, setup: &GameSetup) -> Result<(), Fault>;
    /// Tells the engine a move of another seat.
    ///
    /// # Errors
    /// The engine failed or refused the move.
    fn tell(&mut self, played: &PlayedMove) -> Result<(), Fault>;
    /// Asks for a move; returns it as the engine wrote it, in the game's notation.
    ///
    /// # Errors
    /// The engine failed, refused or gave no move in time.
    fn genmove(&mut self, request: &MoveRequest) -> Result<String, Fault>;
    /// Asks the engine to quit, then ends its process.
    fn close(&mut self);
}
