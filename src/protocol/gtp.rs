//! Tabula's own protocol: GTP framing with commands for every game (see `protocol.md`).
//!
//! The command table is declared once; it drives dispatch, argument checks, `list_commands` and
//! `known_command`. Every handler returns a typed error, which becomes a `?` reply, and the session
//! goes on.

use super::output::Output;
use crate::engine::{AnalysisLine, EngineError, InfoMode, Session, Settings, StopSignal};
use crate::game::GameError;
use crate::games;
use std::sync::Arc;
use std::time::Duration;

/// Why a command failed; each becomes a `?` reply.
#[derive(Debug, thiserror::Error)]
pub enum CommandError {
    /// No such command.
    #[error("unknown command '{0}'")]
    Unknown(String),
    /// Wrong number or form of arguments.
    #[error("{problem}; usage: {usage}")]
    Usage {
        /// What is wrong.
        problem: String,
        /// The command's usage line.
        usage: &'static str,
    },
    /// The engine refused.
    #[error(transparent)]
    Engine(#[from] EngineError),
}

impl From<GameError> for CommandError {
    fn from(error: GameError) -> Self {
        CommandError::Engine(EngineError::Game(error))
    }
}

/// Whether the session goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// `quit` was handled: exit.
    Quit,
}

type Handler = fn(&mut Gtp, &[&str]) -> Result<String, CommandError>;

/// One command: its name, argument counts, usage and handler.
struct Command {
    name: &'static str,
    minimum: usize,
    maximum: usize,
    usage: &'static str,
    handler: Handler,
}

const ANY: usize = usize::MAX;

/// Every command, in `list_commands` order.
#[rustfmt::skip]
const COMMANDS: &[Command] = &[
    Command { name: "protocol_version", minimum: 0, maximum: 0, usage: "protocol_version", handler: |_, _| Ok("2".into()) },
    Command { name: "name", minimum: 0, maximum: 0, usage: "name", handler: |_, _| Ok("Tabula".into()) },
    Command { name: "version", minimum: 0, maximum: 0, usage: "version", handler: |_, _| Ok(env!("CARGO_PKG_VERSION").into()) },
    Command { name: "known_command", minimum: 1, maximum: 1, usage: "known_command <name>", handler: known_command },
    Command { name: "list_commands", minimum: 0, maximum: 0, usage: "list_commands", handler: list_commands },
    Command { name: "quit", minimum: 0, maximum: 0, usage: "quit", handler: |_, _| Ok(String::new()) },
    Command { name: "list_games", minimum: 0, maximum: 0, usage: "list_games", handler: list_games },
    Command { name: "set_game", minimum: 1, maximum: ANY, usage: "set_game <name> [key=value ...]", handler: set_game },
    Command { name: "game", minimum: 0, maximum: 0, usage: "game", handler: current_game },
    Command { name: "boardsize", minimum: 1, maximum: 1, usage: "boardsize <size>", handler: boardsize },
    Command { name: "clear_board", minimum: 0, maximum: 0, usage: "clear_board", handler: clear_board },
    Command { name: "komi", minimum: 1, maximum: 1, usage: "komi <number>", handler: komi },
    Command { name: "play", minimum: 1, maximum: 2, usage: "play [<player>] <move>", handler: play },
    Command { name: "genmove", minimum: 0, maximum: 1, usage: "genmove [<player>]", handler: genmove },
    Command { name: "reg_genmove", minimum: 0, maximum: 1, usage: "reg_genmove [<player>]", handler: reg_genmove },
    Command { name: "undo", minimum: 0, maximum: 0, usage: "undo", handler: undo },
    Command { name: "showboard", minimum: 0, maximum: 0, usage: "showboard", handler: showboard },
    Command { name: "side_to_move", minimum: 0, maximum: 0, usage: "side_to_move", handler: side_to_move },
    Command { name: "legal_moves", minimum: 0, maximum: 1, usage: "legal_moves [<player>]", handler: legal_moves },
    Command { name: "forbidden_moves", minimum: 0, maximum: 0, usage: "forbidden_moves", handler: forbidden_moves },
    Command { name: "position", minimum: 0, maximum: 0, usage: "position", handler: position },
    Command { name: "setposition", minimum: 1, maximum: ANY, usage: "setposition <position string>", handler: set_position },
    Command { name: "perft", minimum: 1, maximum: 2, usage: "perft <depth> [divide]", handler: perft },
    Command { name: "final_score", minimum: 0, maximum: 0, usage: "final_score", handler: final_score },
    Command { name: "set_option", minimum: 2, maximum: 2, usage: "set_option <name> <value>", handler: set_option },
    Command { name: "get_option", minimum: 0, maximum: 1, usage: "get_option [<name>]", handler: get_option },
    Command { name: "time_settings", minimum: 3, maximum: 3, usage: "time_settings <main seconds> <byo-yomi seconds> <byo-yomi stones>", handler: time_settings },
    Command { name: "time_left", minimum: 3, maximum: 3, usage: "time_left <player> <seconds> <stones>", handler: time_left },
    Command { name: "stop", minimum: 0, maximum: 0, usage: "stop", handler: |_, _| Ok(String::new()) },
    Command { name: "hint", minimum: 0, maximum: 1, usage: "hint [<count>]", handler: hint },
    Command { name: "analyze", minimum: 0, maximum: 1, usage: "analyze [<count>]", handler: analyze },
    Command { name: "solve", minimum: 0, maximum: 0, usage: "solve", handler: solve },
];

/// The protocol state: the game in progress and the output.
pub struct Gtp {
    session: Box<dyn Session>,
    stop: Arc<StopSignal>,
    output: Output,
    komi: f64,
}

impl Gtp {
    /// A session on 8x8 Reversi with default settings.
    pub fn new(stop: Arc<StopSignal>, output: Output) -> Gtp {
        Gtp::with_settings(Settings::default(), stop, output)
    }

    /// A session on 8x8 Reversi with the given settings.
    pub fn with_settings(settings: Settings, stop: Arc<StopSignal>, output: Output) -> Gtp {
        let session = games::new_session("reversi", &[], settings, stop.clone())
            .expect("8x8 Reversi always exists");
        Gtp {
            session,
            stop,
            output,
            komi: 0.0,
        }
    }

    /// The game in progress.
    pub fn session(&self) -> &dyn Session {
        self.session.as_ref()
    }

    /// Runs one preprocessed, non-empty line and writes its reply.
    pub fn respond(&mut self, line: &str) -> Flow {
        let (id, command) = super::input::split_id(line);
        let id = id.map(str::to_string);
        let mut words = command.split(' ').filter(|word| !word.is_empty());
        let name = words.next().unwrap_or("").to_ascii_lowercase();
        let arguments: Vec<&str> = words.collect();
        if name == "stop" || name == "quit" {
            // Harmless when this line raised nothing: the count never goes below zero.
            self.stop.handled();
        }
        let result = self.execute(&name, &arguments);
        self.output
            .reply(id.as_deref(), result.map_err(|error| error.to_string()));
        if name == "quit" {
            Flow::Quit
        } else {
            Flow::Continue
        }
    }

    /// Writes the reply to a line the reader refused.
    pub fn refuse(&mut self, id: Option<&str>, reason: &str) {
        self.output.reply(id, Err(reason.to_string()));
    }

    /// Runs a command and returns its reply text.
    ///
    /// # Errors
    /// A [`CommandError`] for an unknown command, bad arguments or a refusal by the engine.
    pub fn execute(&mut self, name: &str, arguments: &[&str]) -> Result<String, CommandError> {
        let command = COMMANDS
            .iter()
            .find(|command| command.name == name)
            .ok_or_else(|| CommandError::Unknown(name.to_string()))?;
        if arguments.len() < command.minimum || arguments.len() > command.maximum {
            let problem = if arguments.len() < command.minimum {
                "missing arguments"
            } else {
                "too many arguments"
            };
            return Err(CommandError::Usage {
                problem: problem.to_string(),
                usage: command.usage,
            });
        }
        (command.handler)(self, arguments)
    }

    /// A closure that routes information lines per the `info` option.
    fn info_sink(&self) -> impl FnMut(String) + Send + 'static {
        let mode = self.session.settings().info;
        let output = self.output.clone();
        move |line: String| match mode {
            InfoMode::Off => {}
            InfoMode::Log => log::info!("{line}"),
            InfoMode::Protocol => output.line(&line),
        }
    }
}

fn usage_error(name: &str, problem: impl Into<String>) -> CommandError {
    let usage = COMMANDS
        .iter()
        .find(|command| command.name == name)
        .map_or("", |command| command.usage);
    CommandError::Usage {
        problem: problem.into(),
        usage,
    }
}

fn number<T: std::str::FromStr>(command: &str, what: &str, text: &str) -> Result<T, CommandError> {
    text.parse()
        .map_err(|_| usage_error(command, format!("{what} must be a number, not '{text}'")))
}

fn known_command(_: &mut Gtp, arguments: &[&str]) -> Result<String, CommandError> {
    let known = COMMANDS.iter().any(|command| command.name == arguments[0]);
    Ok(known.to_string())
}

fn list_commands(_: &mut Gtp, _: &[&str]) -> Result<String, CommandError> {
    Ok(COMMANDS
        .iter()
        .map(|command| command.name)
        .collect::<Vec<_>>()
        .join("\n"))
}

fn list_games(_: &mut Gtp, _: &[&str]) -> Result<String, CommandError> {
    Ok(games::GAMES
        .iter()
        .map(|entry| entry.name)
        .collect::<Vec<_>>()
        .join("\n"))
}

fn replace_session(
    gtp: &mut Gtp,
    name: &str,
    options: &[(String, String)],
) -> Result<(), CommandError> {
    let settings = gtp.session.settings().clone();
    gtp.session = games::new_session(name, options, settings, gtp.stop.clone())?;
    Ok(())
}

fn set_game(gtp: &mut Gtp, arguments: &[&str]) -> Result<String, CommandError> {
    let options = games::parse_options(&arguments[1..])?;
    replace_session(gtp, arguments[0], &options)?;
    Ok(String::new())
}

fn current_game(gtp: &mut Gtp, _: &[&str]) -> Result<String, CommandError> {
    let mut words = vec![gtp.session.game_name().to_string()];
    words.extend(
        gtp.session
            .game_options()
            .into_iter()
            .map(|(key, value)| format!("{key}={value}")),
    );
    Ok(words.join(" "))
}

fn boardsize(gtp: &mut Gtp, arguments: &[&str]) -> Result<String, CommandError> {
    let size: usize = number("boardsize", "the size", arguments[0])?;
    let mut options = gtp.session.game_options();
    let Some(entry) = options.iter_mut().find(|(key, _)| key == "size") else {
        return Err(EngineError::Unsupported(format!(
            "{} has a fixed board",
            gtp.session.game_name()
        ))
        .into());
    };
    entry.1 = size.to_string();
    let name = gtp.session.game_name();
    replace_session(gtp, name, &options)?;
    Ok(String::new())
}

fn clear_board(gtp: &mut Gtp, _: &[&str]) -> Result<String, CommandError> {
    gtp.session.clear();
    Ok(String::new())
}

fn komi(gtp: &mut Gtp, arguments: &[&str]) -> Result<String, CommandError> {
    let komi: f64 = number("komi", "komi", arguments[0])?;
    if !komi.is_finite() {
        return Err(usage_error("komi", "komi must be finite"));
    }
    gtp.komi = komi;
    Ok(String::new())
}

fn play(gtp: &mut Gtp, arguments: &[&str]) -> Result<String, CommandError> {
    let (player, mv) = match arguments {
        [mv] => (None, *mv),
        [player, mv] => (Some(*player), *mv),
        _ => unreachable!("argument count checked"),
    };
    gtp.session.play(player, mv)?;
    Ok(String::new())
}

fn generate(gtp: &mut Gtp, arguments: &[&str], commit: bool) -> Result<String, CommandError> {
    let mut sink = gtp.info_sink();
    let choice = gtp
        .session
        .genmove(arguments.first().copied(), commit, &mut sink)?;
    Ok(choice.mv)
}

fn genmove(gtp: &mut Gtp, arguments: &[&str]) -> Result<String, CommandError> {
    generate(gtp, arguments, true)
}

fn reg_genmove(gtp: &mut Gtp, arguments: &[&str]) -> Result<String, CommandError> {
    generate(gtp, arguments, false)
}

fn undo(gtp: &mut Gtp, _: &[&str]) -> Result<String, CommandError> {
    gtp.session.undo()?;
    Ok(String::new())
}

fn showboard(gtp: &mut Gtp, _: &[&str]) -> Result<String, CommandError> {
    Ok(format!("\n{}", gtp.session.diagram()))
}

fn side_to_move(gtp: &mut Gtp, _: &[&str]) -> Result<String, CommandError> {
    Ok(gtp.session.side_to_move())
}

fn legal_moves(gtp: &mut Gtp, arguments: &[&str]) -> Result<String, CommandError> {
    Ok(gtp
        .session
        .legal_moves(arguments.first().copied())?
        .join(" "))
}

fn forbidden_moves(gtp: &mut Gtp, _: &[&str]) -> Result<String, CommandError> {
    Ok(gtp.session.forbidden_moves().join(" "))
}

fn position(gtp: &mut Gtp, _: &[&str]) -> Result<String, CommandError> {
    Ok(gtp.session.position())
}

fn set_position(gtp: &mut Gtp, arguments: &[&str]) -> Result<String, CommandError> {
    gtp.session.set_position(&arguments.join(" "))?;
    Ok(String::new())
}

/// Deeper perft runs for a long time; the protocol refuses it (the `perft` subcommand does not).
/// Below the cap a count can still take hours (Gomoku from depth 5), so `stop` ends it.
const MAX_PROTOCOL_PERFT: usize = 20;

fn perft(gtp: &mut Gtp, arguments: &[&str]) -> Result<String, CommandError> {
    let depth: usize = number("perft", "the depth", arguments[0])?;
    if depth > MAX_PROTOCOL_PERFT {
        return Err(usage_error(
            "perft",
            format!("depth must be at most {MAX_PROTOCOL_PERFT}"),
        ));
    }
    match arguments.get(1) {
        None => Ok(gtp.session.perft_until_stopped(depth)?.to_string()),
        Some(&"divide") => {
            let lines = gtp.session.divide_until_stopped(depth)?;
            let total: u64 = lines.iter().map(|(_, count)| count).sum();
            let mut text: Vec<String> = lines
                .into_iter()
                .map(|(mv, count)| format!("{mv} {count}"))
                .collect();
            text.push(format!("total {total}"));
            Ok(text.join("\n"))
        }
        Some(other) => Err(usage_error("perft", format!("unexpected '{other}'"))),
    }
}

fn final_score(gtp: &mut Gtp, _: &[&str]) -> Result<String, CommandError> {
    Ok(gtp.session.final_score()?)
}

fn set_option(gtp: &mut Gtp, arguments: &[&str]) -> Result<String, CommandError> {
    gtp.session.set_option(arguments[0], arguments[1])?;
    Ok(String::new())
}

fn get_option(gtp: &mut Gtp, arguments: &[&str]) -> Result<String, CommandError> {
    let settings = gtp.session.settings();
    let values = [
        (
            "depth",
            settings
                .depth
                .map_or("0".to_string(), |depth| depth.to_string()),
        ),
        (
            "movetime",
            match settings.movetime {
                crate::engine::MoveTime::Default => "default".to_string(),
                crate::engine::MoveTime::Fixed(time) => time.as_millis().to_string(),
                crate::engine::MoveTime::Unlimited => "0".to_string(),
            },
        ),
        (
            "nodes",
            settings
                .nodes
                .map_or("0".to_string(), |nodes| nodes.to_string()),
        ),
        ("hash", settings.hash_megabytes.to_string()),
        ("threads", settings.threads.to_string()),
        ("level", settings.level.to_string()),
        (
            "info",
            match settings.info {
                InfoMode::Off => "off",
                InfoMode::Log => "stderr",
                InfoMode::Protocol => "stdout",
            }
            .to_string(),
        ),
    ];
    match arguments.first() {
        None => Ok(values
            .iter()
            .map(|(name, value)| format!("{name} {value}"))
            .collect::<Vec<_>>()
            .join("\n")),
        Some(name) => values
            .iter()
            .find(|(known, _)| known.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.clone())
            .ok_or_else(|| EngineError::InvalidOption(format!("unknown option '{name}'")).into()),
    }
}

fn seconds(command: &str, text: &str) -> Result<Duration, CommandError> {
    let value: f64 = number(command, "the time", text)?;
    if !value.is_finite() || !(0.0..=1e9).contains(&value) {
        return Err(usage_error(command, format!("time out of range: {text}")));
    }
    Ok(Duration::from_secs_f64(value))
}

fn time_settings(gtp: &mut Gtp, arguments: &[&str]) -> Result<String, CommandError> {
    let main = seconds("time_settings", arguments[0])?;
    let byo_yomi = seconds("time_settings", arguments[1])?;
    let stones: u32 = number("time_settings", "the stones", arguments[2])?;
    gtp.session.time_settings(main, byo_yomi, stones);
    Ok(String::new())
}

fn time_left(gtp: &mut Gtp, arguments: &[&str]) -> Result<String, CommandError> {
    let time = seconds("time_left", arguments[1])?;
    let stones: u32 = number("time_left", "the stones", arguments[2])?;
    gtp.session.time_left(arguments[0], time, stones)?;
    Ok(String::new())
}

fn format_analysis(lines: &[AnalysisLine]) -> String {
    lines
        .iter()
        .map(|line| {
            let kind = if line.exact {
                "exact"
            } else if line.bound {
                "bound"
            } else {
                "depth"
            };
            format!(
                "{} {}{} {} {} pv {}",
                line.mv,
                if line.bound { "<=" } else { "" },
                line.score,
                kind,
                line.depth,
                line.pv.join(" ")
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn count(command: &str, arguments: &[&str]) -> Result<Option<usize>, CommandError> {
    arguments
        .first()
        .map(|text| {
            let count: usize = number(command, "the count", text)?;
            if count == 0 {
                Err(usage_error(command, "the count must be at least 1"))
            } else {
                Ok(count)
            }
        })
        .transpose()
}

fn hint(gtp: &mut Gtp, arguments: &[&str]) -> Result<String, CommandError> {
    let wanted = count("hint", arguments)?.unwrap_or(1);
    let mut sink = gtp.info_sink();
    let lines = gtp.session.analyze(Some(wanted), &mut sink)?;
    Ok(format_analysis(&lines))
}

fn analyze(gtp: &mut Gtp, arguments: &[&str]) -> Result<String, CommandError> {
    let wanted = count("analyze", arguments)?;
    let mut sink = gtp.info_sink();
    let lines = gtp.session.analyze(wanted, &mut sink)?;
    Ok(format_analysis(&lines))
}

fn solve(gtp: &mut Gtp, _: &[&str]) -> Result<String, CommandError> {
    let mut sink = gtp.info_sink();
    let (mv, score) = gtp.session.solve(&mut sink)?;
    Ok(format!("{mv} {score:+}"))
}
