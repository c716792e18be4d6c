//! The games Tabula plays, each in its own module, and the registry that creates them by name.
//!
//! The registry knows only games: it hands a new game to a [`GameVisitor`] with its concrete type, and
//! the engine (a layer above) builds its sessions that way.

pub mod chinese_checkers;
pub mod gomoku;
pub mod reversi;

use crate::game::{Game, GameError};
use std::sync::Arc;

/// Makes a game from `key=value` options.
pub type Constructor = fn(&[(String, String)]) -> Result<AnyGame, GameError>;

/// A game the registry can create.
pub struct GameEntry {
    /// The canonical name.
    pub name: &'static str,
    /// Other names `set_game` accepts (case-insensitive).
    pub aliases: &'static [&'static str],
    /// A summary of the options it takes, for documentation (`list_games` prints only names).
    pub options: &'static str,
    /// Creates the game from `key=value` options (aliases' options already added).
    pub create: Constructor,
    /// The positions `tabula bench` searches.
    pub bench: fn() -> Bench,
}

/// What `tabula bench` searches in one game: fixed positions to a fixed depth.
pub struct Bench {
    /// The positions, in order.
    pub positions: Vec<AnyGame>,
    /// The depth each is searched to, unless the command line says otherwise.
    pub depth: u32,
}

/// Plays a fixed move sequence from `start`.
///
/// # Panics
/// On a malformed or illegal move: the sequences are fixed and known to be legal.
pub fn replay<G: Game>(start: &G, moves: &str) -> G {
    let mut position = start.clone();
    for text in moves.split_whitespace() {
        let mv = position.parse_move(text).expect("a fixed move parses");
        position.try_play(mv).expect("a fixed move is legal");
    }
    position
}

/// The position a fixed pseudo-random playout of `plies` plies reaches from `start`.
pub fn playout<G: Game>(start: &G, plies: usize, seed: u64) -> G {
    let mut position = start.clone();
    let mut moves = Vec::new();
    for ply in 0..plies {
        position.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let pick = crate::base::zobrist::mix(seed ^ ply as u64) as usize % moves.len();
        position.play_unchecked(moves[pick]);
    }
    position
}

/// The game option that every game takes: the file of the evaluation's weights, or `default` for
/// the built-in ones. Declared here once; each game reads its own kind of file.
pub const WEIGHTS: &str = "weights";

/// What the `weights` option names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightsChoice {
    /// The built-in weights (`default`).
    Default,
    /// A file.
    File(String),
}

impl WeightsChoice {
    /// Reads the option's value; `default` (any case) is the built-in weights.
    pub fn parse(value: &str) -> WeightsChoice {
        if value.eq_ignore_ascii_case("default") {
            WeightsChoice::Default
        } else {
            WeightsChoice::File(value.to_string())
        }
    }

    /// The `weights` value among `options`, if one is given.
    pub fn from_options(options: &[(String, String)]) -> Option<WeightsChoice> {
        options
            .iter()
            .find(|(key, _)| key == WEIGHTS)
            .map(|(_, value)| WeightsChoice::parse(value))
    }
}

/// A game's evaluation weights with the file they came from, shared by the positions of a session:
/// an [`Arc`] of it is cheap to copy into a position, and two sessions in one process may hold
/// different ones.
#[derive(Debug, PartialEq, Eq)]
pub struct LoadedWeights<W> {
    /// The file named by the `weights` option; `None` for the built-in weights.
    pub file: Option<String>,
    /// The weights.
    pub values: W,
}

impl<W> LoadedWeights<W> {
    /// The `weights` entry of a game's options: `None` for the built-in weights, which the
    /// options leave out.
    pub fn option(&self) -> Option<(String, String)> {
        self.file
            .as_ref()
            .map(|file| (WEIGHTS.to_string(), file.clone()))
    }
}

/// Loads the weights `choice` names: the built-in ones from `default`, or a file read by `read`
/// (which says what is wrong with its text).
///
/// # Errors
/// [`GameError::InvalidOption`] naming the file and what is wrong: it cannot be read, or `read`
/// refuses it.
pub fn load_weights<W>(
    game: &str,
    choice: &WeightsChoice,
    default: impl FnOnce() -> Arc<LoadedWeights<W>>,
    read: impl FnOnce(&[u8]) -> Result<W, String>,
) -> Result<Arc<LoadedWeights<W>>, GameError> {
    match choice {
        WeightsChoice::Default => Ok(default()),
        WeightsChoice::File(file) => {
            let bytes = std::fs::read(file).map_err(|error| {
                GameError::InvalidOption(format!("weights: cannot read {file}: {error}"))
            })?;
            let values = read(&bytes).map_err(|error| {
                GameError::InvalidOption(format!(
                    "weights: {file} is not a {game} weight file: {error}"
                ))
            })?;
            Ok(Arc::new(LoadedWeights {
                file: Some(file.clone()),
                values,
            }))
        }
    }
}

/// Aliases that also choose an option, as `(alias, key, value)`: `set_game renju` is Gomoku under
/// the renju rule. An option given with the alias wins.
pub const ALIAS_OPTIONS: &[(&str, &str, &str)] = &[("renju", "rule", "renju")];

/// Every game, in `list_games` order.
pub const GAMES: &[GameEntry] = &[
    GameEntry {
        name: "reversi",
        aliases: &["othello"],
        options: "size=N (even, from 4 to 16; default 8) weights=FILE|none|default (8x8)",
        create: reversi,
        bench: || Bench {
            positions: reversi::bench_positions()
                .into_iter()
                .map(AnyGame::Reversi)
                .collect(),
            depth: 13,
        },
    },
    GameEntry {
        name: "gomoku",
        aliases: &["gobang", "renju", "five-in-a-row"],
        options: "size=N (from 5 to 22; default 15) rule=freestyle|standard|renju \
                  weights=FILE|default",
        create: |options| Ok(AnyGame::Gomoku(gomoku::Gomoku::from_options(options)?)),
        bench: || Bench {
            positions: gomoku::bench_positions()
                .into_iter()
                .map(AnyGame::Gomoku)
                .collect(),
            depth: 6,
        },
    },
    GameEntry {
        name: "chinese-checkers",
        aliases: &["chinese_checkers", "chinesecheckers", "halma", "sternhalma"],
        options: "players=1|2|3|4|6 jumps=standard|long max_moves=N goal_lock=on|off|strict \
                  side_camps=open|no-stop finish=fill|all spoil_after=N equal_turn=on|off \
                  at_cap=progress|draw rules=ccerl weights=FILE|default",
        create: |options| {
            Ok(AnyGame::ChineseCheckers(
                chinese_checkers::ChineseCheckers::from_options(options)?,
            ))
        },
        bench: || Bench {
            positions: chinese_checkers::bench_positions()
                .into_iter()
                .map(AnyGame::ChineseCheckers)
                .collect(),
            depth: 6,
        },
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

fn reversi(options: &[(String, String)]) -> Result<AnyGame, GameError> {
    check_keys("reversi", options, &["size", WEIGHTS])?;
    let size = match options.iter().find(|(key, _)| key == "size") {
        None => 8,
        Some((_, value)) => reversi::general::SIZES
            .parse("reversi size", value)
            .map_err(GameError::InvalidOption)? as usize,
    };
    let weights = WeightsChoice::from_options(options);
    if size == 8 {
        let mut game = reversi::Reversi::new();
        if let Some(choice) = weights {
            game.set_patterns(reversi::evaluation::load(&choice)?);
        }
        Ok(AnyGame::Reversi(game))
    } else if weights.is_some() {
        Err(GameError::InvalidOption(format!(
            "weights: reversi on {size}x{size} has no pattern weights (only 8x8 has)"
        )))
    } else {
        Ok(AnyGame::GeneralReversi(
            reversi::general::GeneralReversi::new(size)?,
        ))
    }
}

/// A game of any kind, as the registry creates it; [`AnyGame::visit`] hands it on with its type.
/// Made once per session, so the size of its largest variant does not matter.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum AnyGame {
    /// 8x8 Reversi on bitboards.
    Reversi(reversi::Reversi),
    /// Reversi on another board size.
    GeneralReversi(reversi::general::GeneralReversi),
    /// Gomoku under any rule.
    Gomoku(gomoku::Gomoku),
    /// Chinese Checkers for any number of players.
    ChineseCheckers(chinese_checkers::ChineseCheckers),
}

/// Work to do with a game of any type: the registry hands the game to [`GameVisitor::visit`]
/// with its concrete type, so that generic code (an engine, a benchmark) can take it.
pub trait GameVisitor {
    /// What the work gives.
    type Output;
    /// Does the work on `game`.
    fn visit<G: Game>(self, game: G) -> Self::Output;
}

impl AnyGame {
    /// Hands the game to `visitor` with its concrete type.
    pub fn visit<V: GameVisitor>(self, visitor: V) -> V::Output {
        match self {
            AnyGame::Reversi(game) => visitor.visit(game),
            AnyGame::GeneralReversi(game) => visitor.visit(game),
            AnyGame::Gomoku(game) => visitor.visit(game),
            AnyGame::ChineseCheckers(game) => visitor.visit(game),
        }
    }
}

/// Creates the game `name` with `key=value` options, in its start position.
///
/// # Errors
/// [`GameError::UnknownGame`] for an unknown game, [`GameError::InvalidOption`] for an invalid
/// option.
pub fn create(name: &str, options: &[(String, String)]) -> Result<AnyGame, GameError> {
    let lower = name.to_ascii_lowercase();
    let mut options = options.to_vec();
    for &(alias, key, value) in ALIAS_OPTIONS {
        if lower == alias && !options.iter().any(|(given, _)| given == key) {
            options.insert(0, (key.to_string(), value.to_string()));
        }
    }
    let entry = GAMES
        .iter()
        .find(|entry| entry.name == lower || entry.aliases.contains(&lower.as_str()))
        .ok_or_else(|| {
            GameError::UnknownGame(format!(
                "'{name}' (known: {})",
                GAMES
                    .iter()
                    .map(|entry| entry.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?;
    (entry.create)(&options)
}
