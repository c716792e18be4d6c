//! The games Tabula plays, each in its own module, and the registry that creates them by name.

pub mod chinese_checkers;
pub mod gomoku;
pub mod reversi;

use crate::engine::{Engine, EngineError, Session, Settings, StopSignal};
use crate::game::GameError;
use std::sync::Arc;

/// A game the registry can create.
pub struct GameEntry {
    /// The canonical name.
    pub name: &'static str,
    /// Other names `set_game` accepts (case-insensitive).
    pub aliases: &'static [&'static str],
    /// A summary of the options it takes, for documentation (`list_games` prints only names).
    pub options: &'static str,
}

/// Aliases that also choose an option, as `(alias, key, value)`: `set_game renju` is Gomoku under
/// the renju rule. An option given with the alias wins.
pub const ALIAS_OPTIONS: &[(&str, &str, &str)] = &[("renju", "rule", "renju")];

/// Every game, in `list_games` order.
pub const GAMES: &[GameEntry] = &[
    GameEntry {
        name: "reversi",
        aliases: &["othello"],
        options: "size=4..16 (even, default 8)",
    },
    GameEntry {
        name: "gomoku",
        aliases: &["gobang", "renju", "five-in-a-row"],
        options: "size=5..22 (default 15) rule=freestyle|standard|renju",
    },
    GameEntry {
        name: "chinese-checkers",
        aliases: &["chinese_checkers", "chinesecheckers", "halma", "sternhalma"],
        options: "players=1|2|3|4|6 jumps=standard|long max_moves=N goal_lock=on|off \
                  side_camps=open|no-stop finish=fill|all spoil_after=N",
    },
];

/// The canonical name of a game, from any of its names.
pub fn canonical_name(name: &str) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    GAMES
        .iter()
        .find(|entry| entry.name == lower || entry.aliases.contains(&lower.as_str()))
        .map(|entry| entry.name)
}

/// Reads `key=value` words.
///
/// # Errors
/// [`GameError::InvalidOption`] for a word without `=`.
pub fn parse_options(words: &[&str]) -> Result<Vec<(String, String)>, GameError> {
    words
        .iter()
        .map(|word| match word.split_once('=') {
            Some((key, value)) if !key.is_empty() && !value.is_empty() => {
                Ok((key.to_ascii_lowercase(), value.to_string()))
            }
            _ => Err(GameError::InvalidOption(format!(
                "expected key=value, not '{word}'"
            ))),
        })
        .collect()
}

/// Refuses option keys outside `known`.
///
/// # Errors
/// [`GameError::InvalidOption`] naming the first unknown key.
pub fn check_keys(
    game: &str,
    options: &[(String, String)],
    known: &[&str],
) -> Result<(), GameError> {
    match options
        .iter()
        .find(|(key, _)| !known.contains(&key.as_str()))
    {
        Some((key, _)) => Err(GameError::InvalidOption(format!(
            "{game} has no option '{key}' (known: {})",
            known.join(", ")
        ))),
        None => Ok(()),
    }
}

fn reversi_session(
    options: &[(String, String)],
    settings: Settings,
    stop: Arc<StopSignal>,
) -> Result<Box<dyn Session>, EngineError> {
    check_keys("reversi", options, &["size"])?;
    let size = match options.iter().find(|(key, _)| key == "size") {
        None => 8,
        Some((_, value)) => value.parse::<usize>().map_err(|_| {
            GameError::InvalidOption(format!("size must be a number, not '{value}'"))
        })?,
    };
    if size == 8 {
        Ok(Box::new(Engine::new(
            reversi::Reversi::new(),
            settings,
            stop,
        )))
    } else {
        let board = reversi::general::GeneralReversi::new(size)?;
        Ok(Box::new(Engine::new(board, settings, stop)))
    }
}

/// Creates a session for the game `name` with `key=value` options.
///
/// # Errors
/// An unknown game or an invalid option.
pub fn new_session(
    name: &str,
    options: &[(String, String)],
    settings: Settings,
    stop: Arc<StopSignal>,
) -> Result<Box<dyn Session>, EngineError> {
    let lower = name.to_ascii_lowercase();
    let mut options = options.to_vec();
    for &(alias, key, value) in ALIAS_OPTIONS {
        if lower == alias && !options.iter().any(|(given, _)| given == key) {
            options.insert(0, (key.to_string(), value.to_string()));
        }
    }
    let options = options.as_slice();
    match canonical_name(name) {
        Some("reversi") => reversi_session(options, settings, stop),
        Some("gomoku") => {
            let game = gomoku::Gomoku::from_options(options)?;
            Ok(Box::new(Engine::new(game, settings, stop)))
        }
        Some("chinese-checkers") => {
            let game = chinese_checkers::ChineseCheckers::from_options(options)?;
            Ok(Box::new(Engine::new(game, settings, stop)))
        }
        _ => Err(EngineError::Unsupported(format!(
            "unknown game '{name}' (known: {})",
            GAMES
                .iter()
                .map(|entry| entry.name)
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}
