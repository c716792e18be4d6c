//! [`Session`]: an [`Engine`] with its game type erased, for front-ends that choose the game at run
//! time. Moves go in and out as text in the game's notation; everything else is typed.

use super::{Divide, Engine, EngineError, Report, Request, Settings, StopSignal};
use crate::base::transposition::TranspositionTable;
use crate::engine::clock::Clock;
use crate::game::{Game, Outcome, Player, ScoreUnit};
use crate::games::{self, AnyGame, GameVisitor};
use std::sync::Arc;

/// A game in progress, whatever the game. Implemented by [`Engine`] for every game.
pub trait Session: Send {
    /// The game's name.
    fn game_name(&self) -> &'static str;
    /// The game's variant options.
    fn game_options(&self) -> Vec<(String, String)>;
    /// The number of seats.
    fn player_count(&self) -> usize;
    /// The unit of the game's heuristic scores.
    fn score_unit(&self) -> ScoreUnit;
    /// Whether [`super::Mode::Solve`] can prove anything in this game.
    fn has_solver(&self) -> bool;
    /// Back to the start position; the settings stay.
    fn clear(&mut self);
    /// The position string.
    fn position(&self) -> String;
    /// Loads a position string; the history is cleared.
    ///
    /// # Errors
    /// The text is not a position of this game; the state is unchanged then.
    fn set_position(&mut self, text: &str) -> Result<(), EngineError>;
    /// The seat to move.
    fn side_to_move(&self) -> Player;
    /// Reads a seat in the game's words (`black`, `w`, `3`).
    ///
    /// # Errors
    /// The text names no seat of this game.
    fn parse_player(&self, text: &str) -> Result<Player, EngineError>;
    /// Writes a seat in the game's words.
    fn format_player(&self, player: Player) -> String;
    /// Plays a move for `player` (the side to move when `None`); see [`Engine::play`].
    ///
    /// # Errors
    /// A malformed or illegal move, the wrong player, or a finished game.
    fn play(&mut self, player: Option<Player>, mv: &str) -> Result<(), EngineError>;
    /// Takes back the last move (and any passes implied before it).
    ///
    /// # Errors
    /// [`EngineError::NothingToUndo`].
    fn undo(&mut self) -> Result<(), EngineError>;
    /// The moves played since the start or the last loaded position.
    fn moves_played(&self) -> Vec<String>;
    /// The moves `play` accepts for `player`; see [`Engine::legal_moves`].
    ///
    /// # Errors
    /// [`EngineError::WrongPlayer`].
    fn legal_moves(&self, player: Option<Player>) -> Result<Vec<String>, EngineError>;
    /// Points the side to move may not play because of a rule.
    fn forbidden_moves(&self) -> Vec<String>;
    /// The result once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// The result in the game's own words (`B+10`, `1:2 2:1 3:3`).
    ///
    /// # Errors
    /// [`EngineError::GameNotOver`].
    fn result_text(&self) -> Result<String, EngineError>;
    /// A board diagram.
    fn diagram(&self) -> String;
    /// Leaf count at `depth`, not stoppable (the `perft` subcommand).
    fn perft(&self, depth: usize) -> u64;
    /// Leaf count at `depth`, stoppable; see [`Engine::perft`].
    ///
    /// # Errors
    /// [`EngineError::Stopped`].
    fn perft_until_stopped(&self, depth: usize) -> Result<u64, EngineError>;
    /// Leaf count below each move, stoppable; see [`Engine::divide`].
    ///
    /// # Errors
    /// [`EngineError::Stopped`].
    fn divide(&self, depth: usize) -> Result<Divide<String>, EngineError>;
    /// Searches; see [`Engine::search`].
    ///
    /// # Errors
    /// As [`Engine::search`].
    fn search(
        &mut self,
        request: &Request,
        report: &mut (dyn FnMut(&Report<String>) + Send),
    ) -> Result<Report<String>, EngineError>;
    /// The engine settings.
    fn settings(&self) -> &Settings;
    /// The value of an option; see [`Engine::option_value`].
    ///
    /// # Errors
    /// As [`Engine::option_value`].
    fn option_value(&self, name: &str) -> Result<String, EngineError>;
    /// Sets an option; see [`Engine::set_option`].
    ///
    /// # Errors
    /// As [`Engine::set_option`].
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError>;
    /// The clock.
    fn clock(&mut self) -> &mut Clock;
    /// Hands the table on to the next session; this one keeps a table of one bucket.
    fn take_table(&mut self) -> TranspositionTable;
    /// As [`Engine::forget`].
    fn forget(&mut self);
}

impl<G: Game> Session for Engine<G> {
    fn game_name(&self) -> &'static str {
        self.position.name()
    }

    fn game_options(&self) -> Vec<(String, String)> {
        self.position.options()
    }

    fn player_count(&self) -> usize {
        self.position.player_count()
    }

    fn score_unit(&self) -> ScoreUnit {
        self.position.score_unit()
    }

    fn has_solver(&self) -> bool {
        self.position.has_solver()
    }

    fn clear(&mut self) {
        Engine::clear(self);
    }

    fn position(&self) -> String {
        self.position.position_string()
    }

    fn set_position(&mut self, text: &str) -> Result<(), EngineError> {
        let mut position = self.position.clone();
        position.set_position_string(text)?;
        Engine::set_position(self, position);
        Ok(())
    }

    fn side_to_move(&self) -> Player {
        self.position.side_to_move()
    }

    fn parse_player(&self, text: &str) -> Result<Player, EngineError> {
        Ok(self.position.parse_player(text)?)
    }

    fn format_player(&self, player: Player) -> String {
        self.position.format_player(player)
    }

    fn play(&mut self, player: Option<Player>, text: &str) -> Result<(), EngineError> {
        let mv = self.position.parse_move(text)?;
        Engine::play(self, player, mv)
    }

    fn undo(&mut self) -> Result<(), EngineError> {
        Engine::undo(self)
    }

    fn moves_played(&self) -> Vec<String> {
        // Each move is written in the position it was played from.
        let mut position = self.position.clone();
        let mut texts: Vec<String> = self
            .history
            .iter()
            .rev()
            .map(|played| {
                position.undo(played.mv, played.undo);
                position.format_move(played.mv)
            })
            .collect();
        texts.reverse();
        texts
    }

    fn legal_moves(&self, player: Option<Player>) -> Result<Vec<String>, EngineError> {
        Ok(Engine::legal_moves(self, player)?
            .into_iter()
            .map(|mv| self.position.format_move(mv))
            .collect())
    }

    fn forbidden_moves(&self) -> Vec<String> {
        Engine::forbidden_moves(self)
            .into_iter()
            .map(|mv| self.position.format_move(mv))
            .collect()
    }

    fn outcome(&self) -> Option<Outcome> {
        Engine::outcome(self)
    }

    fn result_text(&self) -> Result<String, EngineError> {
        let outcome = self.position.outcome().ok_or(EngineError::GameNotOver)?;
        Ok(self.position.format_result(&outcome))
    }

    fn diagram(&self) -> String {
        self.position.diagram()
    }

    fn perft(&self, depth: usize) -> u64 {
        self.position.perft(depth)
    }

    fn perft_until_stopped(&self, depth: usize) -> Result<u64, EngineError> {
        Engine::perft(self, depth)
    }

    fn divide(&self, depth: usize) -> Result<Divide<String>, EngineError> {
        let divide = Engine::divide(self, depth)?;
        Ok(Divide {
            moves: divide
                .moves
                .into_iter()
                .map(|(mv, leaves)| (self.position.format_move(mv), leaves))
                .collect(),
            total: divide.total,
        })
    }

    fn search(
        &mut self,
        request: &Request,
        report: &mut (dyn FnMut(&Report<String>) + Send),
    ) -> Result<Report<String>, EngineError> {
        // Moves are written in the position searched: the one before a committed move.
        let mut searched = self.position.clone();
        let before = self.history.len();
        let mut each = |found: &Report<G::Move>| {
            report(&found.map(|&mv| searched.format_move(mv)));
        };
        let found = Engine::search(self, request, &mut each)?;
        // Implied passes and a committed move are behind us now; rewind a copy to write the
        // moves in the position they were found in.
        searched = self.position.clone();
        for played in self.history[before..].iter().rev() {
            searched.undo(played.mv, played.undo);
        }
        Ok(found.map(|&mv| searched.format_move(mv)))
    }

    fn settings(&self) -> &Settings {
        Engine::settings(self)
    }

    fn option_value(&self, name: &str) -> Result<String, EngineError> {
        Engine::option_value(self, name)
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        Engine::set_option(self, name, value)
    }

    fn clock(&mut self) -> &mut Clock {
        Engine::clock(self)
    }

    fn take_table(&mut self) -> TranspositionTable {
        std::mem::replace(&mut self.table, TranspositionTable::new(0))
    }

    fn forget(&mut self) {
        Engine::forget(self);
    }
}

/// Builds an engine session over whatever game the registry made.
struct SessionBuilder {
    settings: Settings,
    stop: Arc<StopSignal>,
    table: Option<TranspositionTable>,
}

impl GameVisitor for SessionBuilder {
    type Output = Result<Box<dyn Session>, EngineError>;

    fn visit<G: Game>(self, game: G) -> Self::Output {
        let engine = match self.table {
            Some(table) => Engine::with_table(game, self.settings, self.stop, table),
            None => Engine::new(game, self.settings, self.stop)?,
        };
        Ok(Box::new(engine))
    }
}

/// Creates a session for the game `name` with `key=value` options. A `table` from the session
/// before is reused (cleared), so that a new game allocates nothing.
///
/// # Errors
/// An unknown game, an invalid option, or no memory for a new table.
pub fn new_session(
    name: &str,
    options: &[(String, String)],
    settings: Settings,
    stop: Arc<StopSignal>,
    table: Option<TranspositionTable>,
) -> Result<Box<dyn Session>, EngineError> {
    if !settings.local_files && options.iter().any(|(key, _)| key == games::WEIGHTS) {
        return Err(EngineError::InvalidOption(format!(
            "{} names a file, which this session may not read",
            games::WEIGHTS
        )));
    }
    session_for(games::create(name, options)?, settings, stop, table)
}

/// A session used only for its rules (reading positions, replaying moves, checking records): a
/// 1 MB table, one thread and no information lines.
///
/// # Errors
/// As [`new_session`].
pub fn rules_session(
    name: &str,
    options: &[(String, String)],
) -> Result<Box<dyn Session>, EngineError> {
    let settings = Settings {
        hash_megabytes: 1,
        threads: 1,
        info: super::InfoMode::Off,
        ..Settings::default()
    };
    new_session(
        name,
        options,
        settings,
        Arc::new(StopSignal::default()),
        None,
    )
}

/// A session for a game the registry made; see [`new_session`].
///
/// # Errors
/// No memory for a new table.
pub fn session_for(
    game: AnyGame,
    settings: Settings,
    stop: Arc<StopSignal>,
    table: Option<TranspositionTable>,
) -> Result<Box<dyn Session>, EngineError> {
    game.visit(SessionBuilder {
        settings,
        stop,
        table,
    })
}
