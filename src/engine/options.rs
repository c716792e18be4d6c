//! Engine settings and the one table of options that reads and writes them.
//!
//! Every front-end uses [`OPTIONS`]: `set_option`/`get_option`/`list_options` in our protocol,
//! Piskvork's `INFO` keys and NBoard's `set depth` map onto the same entries, so an option is
//! declared once, with its type, range, default and help.

use crate::base::budget::SharedLimits;
use crate::base::words::NumberRange;
use crate::game::{MultiplayerSearch, Selectivity};
use std::time::Duration;

/// How long a move may think when no depth or node limit is set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveTime {
    /// [`DEFAULT_MOVE_TIME`] unless a clock, a depth or a node limit is set.
    Default,
    /// A fixed time per move (the clock may cut it shorter).
    Fixed(Duration),
    /// No time limit: the search runs to its depth or until stopped.
    Unlimited,
}

/// Where per-iteration search information goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InfoMode {
    /// Nowhere.
    Off,
    /// To stderr through `log`.
    Log,
    /// Into the protocol, in the front-end's own form (`info` lines, `MESSAGE` lines...).
    Protocol,
}

/// The time per move when neither a depth, a node count, a move time nor a clock is set.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_millis(1000);

/// The largest table the options accept, in MB; the machine's free memory may allow less.
pub const MAX_HASH_MEGABYTES: u64 = 1 << 20;

/// Engine settings that outlive a game: `set_game` carries them over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Fixed search depth, if any.
    pub depth: Option<u32>,
    /// Time per move.
    pub movetime: MoveTime,
    /// Node limit per search.
    pub nodes: Option<u64>,
    /// Transposition table size in MB.
    pub hash_megabytes: usize,
    /// Search threads.
    pub threads: usize,
    /// Playing level, 1 (beginner) to 8 (full strength).
    pub level: u8,
    /// Where information lines go.
    pub info: InfoMode,
    /// Time kept back from every move's budget for process, pipe and reply latency.
    pub overhead: Duration,
    /// The seed of a game's own random choices (the ties of Chinese Checkers' greedy level 1):
    /// the same seed and position give the same move.
    pub seed: u64,
    /// Budgets shared with other sessions in the same process (the server's): a search takes
    /// its threads from them and a table its memory. `None`: take what the settings ask.
    pub shared: Option<SharedLimits>,
    /// How three or more players are searched; `None`: as the game chooses. Not a protocol
    /// option: the self-play tools set it to compare the searches.
    pub multiplayer_search: Option<MultiplayerSearch>,
    /// Whether a move the game chooses by its own means (Chinese Checkers' race solver) may
    /// answer before the search above level 1 (level 1's greedy player always answers so). Not a protocol option:
    /// the self-play tools turn it off to measure the search alone.
    pub direct_moves: bool,
    /// Whether the search may prune by ProbCut where the game has a model. Not a protocol option:
    /// Reversi's self-play turns it off, so that its training data does not depend on a model
    /// calibrated on the weights it trains, and so does Gomoku's plain search (`selectivity`).
    pub probcut: bool,
    /// The selective pruning of a two-player search; `None`: what the game asks. Not a protocol
    /// option: Gomoku's weight tuning plays its fixed-depth games with the plain search
    /// (`Selectivity::default()`), so that the weights it writes do not move with the game's
    /// selective search.
    pub selectivity: Option<Selectivity>,
    /// How many of the best moves a search for play scores exactly (multi-PV); 1 scores the best
    /// only. Not a protocol option: Reversi's self-play picks among the best few.
    pub play_lines: usize,
    /// Whether options may name files on this machine (`weights`): not for a network client.
    pub local_files: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            depth: None,
            movetime: MoveTime::Default,
            nodes: None,
            hash_megabytes: 64,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            level: 8,
            info: InfoMode::Log,
            overhead: Duration::from_millis(DEFAULT_OVERHEAD_MILLIS),
            seed: 0,
            shared: None,
            multiplayer_search: None,
            direct_moves: true,
            probcut: true,
            selectivity: None,
            play_lines: 1,
            local_files: true,
        }
    }
}

const DEFAULT_OVERHEAD_MILLIS: u64 = 50;

/// The kind of value an option takes, for validation and discovery.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// A whole number in a range; `zero` names what 0 means, if it is allowed outside the range.
    Integer {
        /// The smallest value.
        min: u64,
        /// The largest value.
        max: u64,
        /// What 0 means when it is accepted below `min`.
        zero: Option<&'static str>,
    },
    /// One of a few words.
    Choice(&'static [&'static str]),
    /// A file name, or `default`.
    File,
}

/// Where an option's value lives.
pub enum Holder {
    /// In the [`Settings`], which outlive a game.
    Settings {
        /// Reads the value as text.
        read: fn(&Settings) -> String,
        /// Stores a checked value (its number for an integer, its text in lower case).
        write: fn(&mut Settings, u64, &str) -> Result<(), String>,
    },
    /// In the game: its `key=value` option of the same name, which the game reads and changes
    /// itself ([`crate::game::Rules::set_option`]), so that it belongs to this game only.
    Game,
}

/// One engine option.
pub struct EngineOption {
    /// Its name, as `set_option` takes it (case-insensitive).
    pub name: &'static str,
    /// Its values.
    pub kind: OptionKind,
    /// Its default, as `get_option` writes it.
    pub default: &'static str,
    /// What it does.
    pub help: &'static str,
    /// Where its value lives.
    pub holder: Holder,
}

impl EngineOption {
    /// The current value as text, for an option the settings hold; `None` for one the game
    /// holds.
    pub fn get(&self, settings: &Settings) -> Option<String> {
        match self.holder {
            Holder::Settings { read, .. } => Some(read(settings)),
            Holder::Game => None,
        }
    }

    /// Whether the game holds the value, not the settings.
    pub fn held_by_game(&self) -> bool {
        matches!(self.holder, Holder::Game)
    }

    /// Checks `value` and stores it in `settings`.
    ///
    /// # Errors
    /// A message saying what the option accepts, or that the game holds it; `settings` is
    /// unchanged then.
    pub fn set(&self, settings: &mut Settings, value: &str) -> Result<(), String> {
        let Holder::Settings { write, .. } = self.holder else {
            return Err(format!(
                "{} belongs to the game, not the settings",
                self.name
            ));
        };
        let number = match self.kind {
            OptionKind::Integer { .. } => {
                let words: &[&str] = match self.name {
                    "movetime" => &["default", "none", "off", "unlimited"],
                    _ => &[],
                };
                if words.contains(&value.to_ascii_lowercase().as_str()) {
                    0
                } else {
                    self.numbers().parse(self.name, value)?
                }
            }
            OptionKind::Choice(words) => {
                let lower = value.to_ascii_lowercase();
                if !words.contains(&lower.as_str()) {
                    return Err(format!("{} must be {}", self.name, self.range()));
                }
                0
            }
            OptionKind::File => 0,
        };
        write(settings, number, &value.to_ascii_lowercase())
    }

    /// The accepted values in words, e.g. `from 1 to 256` or `off, stderr or stdout`.
    pub fn range(&self) -> String {
        match self.kind {
            OptionKind::Integer { .. } => self.numbers().to_string(),
            OptionKind::Choice(words) => match words {
                [] => String::new(),
                [only] => only.to_string(),
                [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
            },
            OptionKind::File => "a file".to_string(),
        }
    }
}

impl EngineOption {
    /// The numbers an integer option accepts (none for a choice).
    fn numbers(&self) -> NumberRange {
        match self.kind {
            OptionKind::Integer { min, max, zero } => {
                let range = NumberRange::new(min, max);
                match zero {
                    Some(meaning) => range.or_zero(meaning),
                    None => range,
                }
            }
            OptionKind::Choice(_) | OptionKind::File => NumberRange::new(0, 0),
        }
    }
}

fn millis(duration: Duration) -> String {
    duration.as_millis().to_string()
}

/// Every option, in `list_options` order.
pub const OPTIONS: &[EngineOption] = &[
    EngineOption {
        name: "depth",
        kind: OptionKind::Integer {
            min: 1,
            max: crate::base::score::MAX_PLY as u64 - 1,
            zero: Some("no fixed depth"),
        },
        default: "0",
        help: "a fixed search depth",
        holder: Holder::Settings {
    read: |settings| settings.depth.unwrap_or(0).to_string(),
            write: |settings, number, _| {
                settings.depth = (number > 0).then_some(number as u32);
                Ok(())
            },
        },
    },
    EngineOption {
        name: "movetime",
        kind: OptionKind::Integer {
            min: 1,
            max: 1_000_000_000,
            zero: Some("no limit"),
        },
        default: "default",
        help: "milliseconds per move; 0 (or none) for no limit; default (the default) is 1 s unless a depth, node limit or clock is set",
        holder: Holder::Settings {
    read: |settings| match settings.movetime {
                MoveTime::Default => "default".to_string(),
                MoveTime::Fixed(time) => millis(time),
                MoveTime::Unlimited => "0".to_string(),
            },
            write: |settings, number, text| {
                settings.movetime = match (text, number) {
                    ("default", _) => MoveTime::Default,
                    (_, 0) => MoveTime::Unlimited,
                    (_, number) => MoveTime::Fixed(Duration::from_millis(number)),
                };
                Ok(())
            },
        },
    },
    EngineOption {
        name: "nodes",
        kind: OptionKind::Integer {
            min: 1,
            max: u64::MAX,
            zero: Some("no limit"),
        },
        default: "0",
        help: "node limit per search",
        holder: Holder::Settings {
    read: |settings| settings.nodes.unwrap_or(0).to_string(),
            write: |settings, number, _| {
                settings.nodes = (number > 0).then_some(number);
                Ok(())
            },
        },
    },
    EngineOption {
        name: "hash",
        kind: OptionKind::Integer {
            min: 1,
            max: MAX_HASH_MEGABYTES,
            zero: None,
        },
        default: "64",
        help: "transposition table size in MB; refused when the machine has not that much memory free",
        holder: Holder::Settings {
    read: |settings| settings.hash_megabytes.to_string(),
            write: |settings, number, _| {
                settings.hash_megabytes = number as usize;
                Ok(())
            },
        },
    },
    EngineOption {
        name: "threads",
        kind: OptionKind::Integer {
            min: 1,
            max: 256,
            zero: None,
        },
        default: "all cores",
        help: "search threads",
        holder: Holder::Settings {
    read: |settings| settings.threads.to_string(),
            write: |settings, number, _| {
                settings.threads = number as usize;
                Ok(())
            },
        },
    },
    EngineOption {
        name: "level",
        kind: OptionKind::Integer {
            min: crate::game::levels::MIN_LEVEL as u64,
            max: crate::game::levels::MAX_LEVEL as u64,
            zero: None,
        },
        default: "8",
        help: "playing level, 1 (weakest) to 8 (full strength): Rookie, Novice, Beginner, Player, Skilled, Master, Grandmaster, Sage",
        holder: Holder::Settings {
    read: |settings| settings.level.to_string(),
            write: |settings, number, _| {
                settings.level = number as u8;
                Ok(())
            },
        },
    },
    EngineOption {
        name: "info",
        kind: OptionKind::Choice(&["off", "stderr", "stdout", "none", "log", "protocol", "on"]),
        default: "stderr",
        help: "where search information goes: off, stderr (the log) or stdout (into the protocol)",
        holder: Holder::Settings {
    read: |settings| {
                match settings.info {
                    InfoMode::Off => "off",
                    InfoMode::Log => "stderr",
                    InfoMode::Protocol => "stdout",
                }
                .to_string()
            },
            write: |settings, _, text| {
                settings.info = match text {
                    "off" | "none" => InfoMode::Off,
                    "stderr" | "log" => InfoMode::Log,
                    _ => InfoMode::Protocol,
                };
                Ok(())
            },
        },
    },
    EngineOption {
        name: "overhead",
        kind: OptionKind::Integer {
            min: 0,
            max: 60_000,
            zero: None,
        },
        default: "50",
        help: "milliseconds kept back from each move's time for process and pipe latency",
        holder: Holder::Settings {
    read: |settings| millis(settings.overhead),
            write: |settings, number, _| {
                settings.overhead = Duration::from_millis(number);
                Ok(())
            },
        },
    },
    EngineOption {
        name: "seed",
        kind: OptionKind::Integer {
            min: 0,
            max: u64::MAX,
            zero: None,
        },
        default: "0",
        help: "seed of a game's own random choices (the ties of Chinese Checkers' level 1); the same seed and position give the same move",
        holder: Holder::Settings {
    read: |settings| settings.seed.to_string(),
            write: |settings, number, _| {
                settings.seed = number;
                Ok(())
            },
        },
    },
    EngineOption {
        name: crate::games::WEIGHTS,
        kind: OptionKind::File,
        default: "default",
        help: "the evaluation's weights for the game in play, the same as set_game's weights=FILE: \
               reversi a file of tabula train reversi (or none: the hand-made features), gomoku `name value` lines, \
               chinese-checkers key=value pairs; default (the default) is the built-in weights \
               (for reversi those of tabula --weights)",
        holder: Holder::Game,
    },
];

/// The option named `name` (case-insensitive).
///
/// # Errors
/// A message naming the known options.
pub fn find(name: &str) -> Result<&'static EngineOption, String> {
    OPTIONS
        .iter()
        .find(|option| option.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| {
            format!(
                "unknown option '{name}' (known: {})",
                OPTIONS
                    .iter()
                    .map(|option| option.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_reads_back_what_it_takes() {
        let mut settings = Settings::default();
        for (name, value) in [
            ("depth", "7"),
            ("movetime", "250"),
            ("nodes", "5000"),
            ("hash", "16"),
            ("threads", "3"),
            ("level", "5"),
            ("info", "stdout"),
            ("overhead", "20"),
            ("seed", "12345678901234"),
        ] {
            let option = find(name).unwrap();
            option.set(&mut settings, value).unwrap();
            assert_eq!(option.get(&settings).as_deref(), Some(value), "{name}");
        }
        find("movetime")
            .unwrap()
            .set(&mut settings, "default")
            .unwrap();
        assert_eq!(settings.movetime, MoveTime::Default);
        find("movetime").unwrap().set(&mut settings, "0").unwrap();
        assert_eq!(settings.movetime, MoveTime::Unlimited);
    }

    #[test]
    fn defaults_are_what_the_table_says() {
        let settings = Settings::default();
        for option in OPTIONS.iter().filter(|option| option.name != "threads") {
            let value = option.get(&settings);
            let value = value.as_deref().unwrap_or("default");
            assert_eq!(value, option.default, "{}", option.name);
        }
    }

    #[test]
    fn bad_values_leave_settings_alone() {
        let mut settings = Settings::default();
        let before = settings.clone();
        for (name, value) in [
            ("depth", "128"),
            ("depth", "x"),
            ("level", "9"),
            ("level", "0"),
            ("threads", "0"),
            ("hash", "0"),
            ("hash", "99999999999999999999999"),
            ("info", "loud"),
        ] {
            assert!(
                find(name).unwrap().set(&mut settings, value).is_err(),
                "{name} {value}"
            );
        }
        assert_eq!(settings, before);
        assert!(find("frob").is_err());
        assert!(find("hash")
            .unwrap()
            .set(&mut settings, "99999999999999999999999")
            .unwrap_err()
            .contains("must be from 1 to 1048576, not 99999999999999999999999"));
    }
}
