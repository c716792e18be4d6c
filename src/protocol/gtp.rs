//! Tabula's own protocol: GTP framing with commands for every game (see `protocol.md`). GTP GUIs
//! for Othello (Quarry) drive it too: it reads their pass spellings and game names and answers
//! with GTP's standard error texts where GTP has them.
//!
//! The command table is declared once; it drives dispatch, argument checks, `list_commands` and
//! `known_command`. Every handler returns a typed error, which becomes a `?` reply, and the session
//! goes on.

use super::input::{split_id, Interrupt};
use super::output::Output;
use super::{Flow, FrontEnd};
use crate::engine::clock::TimeLeft;
use crate::engine::{
    new_session, options, EngineError, InfoMode, Mode, Report, Request, Score, ScoreBound, Session,
    Settings, StopSignal,
};
use crate::game::{GameError, ScoreUnit};
use crate::games;
use std::sync::Arc;
use std::time::Duration;

/// The lines that interrupt a search: `stop` stops it, `quit` closes the input.
pub const INTERRUPTS: &[(&str, Interrupt)] =
    &[("stop", Interrupt::Stop), ("quit", Interrupt::Quit)];

/// Why a command failed; each becomes a `?` reply.
#[derive(Debug, thiserror::Error)]
pub enum CommandError {
    /// No such command.
    #[error("unknown command: {0}")]
    Unknown(String),
    /// A line with an id and nothing after it.
    #[error("no command after the id")]
    Missing,
    /// Wrong number or form of arguments.
    #[error("{problem}; usage: {usage}")]
    Usage {
        /// What is wrong.
        problem: String,
        /// The command's usage line.
        usage: &'static str,
    },
    /// A move that may not be played, in GTP's words.
    #[error("illegal move: {0}")]
    IllegalMove(EngineError),
    /// `boardsize` with a size the game cannot have, in GTP's words.
    #[error("unacceptable size: {0}")]
    UnacceptableSize(EngineError),
    /// The engine refused.
    #[error(transparent)]
    Engine(#[from] EngineError),
}

impl From<GameError> for CommandError {
    fn from(error: GameError) -> Self {
        CommandError::Engine(EngineError::Game(error))
    }
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
    Command { name: "help", minimum: 0, maximum: 0, usage: "help", handler: help },
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
    Command { name: "moves", minimum: 0, maximum: 0, usage: "moves", handler: moves },
    Command { name: "perft", minimum: 1, maximum: 2, usage: "perft <depth> [divide]", handler: perft },
    Command { name: "final_score", minimum: 0, maximum: 0, usage: "final_score", handler: final_score },
    Command { name: "set_option", minimum: 2, maximum: 2, usage: "set_option <name> <value>", handler: set_option },
    Command { name: "get_option", minimum: 0, maximum: 1, usage: "get_option [<name>]", handler: get_option },
    Command { name: "list_options", minimum: 0, maximum: 0, usage: "list_options", handler: list_options },
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

    /// A session on 8x8 Reversi with the given settings; with a table the machine cannot give,
    /// the default size.
    pub fn with_settings(settings: Settings, stop: Arc<StopSignal>, output: Output) -> Gtp {
        Gtp::try_with_settings(settings, stop, output)
            .expect("8x8 Reversi with the default table always exists")
    }

    /// [`Gtp::with_settings`], or the error when not even the default table can be had (a server
    /// whose shared table memory is used up).
    pub fn try_with_settings(
        settings: Settings,
        stop: Arc<StopSignal>,
        output: Output,
    ) -> Result<Gtp, EngineError> {
        let session =
            new_session("reversi", &[], settings.clone(), stop.clone(), None).or_else(|error| {
                log::warn!(
                    "{error}: using a {} MB table",
                    Settings::default().hash_megabytes
                );
                let settings = Settings {
                    hash_megabytes: Settings::default().hash_megabytes,
                    ..settings
                };
                new_session("reversi", &[], settings, stop.clone(), None)
            })?;
        Ok(Gtp {
            session,
            stop,
            output,
            komi: 0.0,
        })
    }

    /// The game in progress.
    pub fn session(&self) -> &dyn Session {
        self.session.as_ref()
    }

    /// Runs a command and returns its reply text.
    ///
    /// # Errors
    /// A [`CommandError`] for an unknown command, bad arguments or a refusal by the engine.
    pub fn execute(&mut self, name: &str, arguments: &[&str]) -> Result<String, CommandError> {
        let command = find(name).ok_or_else(|| CommandError::Unknown(name.to_string()))?;
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

    /// A sink for per-iteration reports that writes `info` lines as the `info` option says.
    fn info_sink(&self) -> impl FnMut(&Report<String>) + 'static {
        let mode = self.session.settings().info;
        let unit = self.session.score_unit();
        let output = self.output.clone();
        move |report: &Report<String>| match mode {
            InfoMode::Off => {}
            InfoMode::Log => log::info!(target: "tabula::info", "{}", info_line(report, unit)),
            InfoMode::Protocol => output.line(&info_line(report, unit)),
        }
    }

    /// Replaces the game, keeping the settings and reusing the table.
    fn replace_game(
        &mut self,
        name: &str,
        options: &[(String, String)],
    ) -> Result<(), CommandError> {
        // Check the game and options before the old session gives up its table.
        games::create(name, options)?;
        let settings = self.session.settings().clone();
        let table = self.session.take_table();
        self.session = new_session(name, options, settings, self.stop.clone(), Some(table))?;
        Ok(())
    }
}

impl FrontEnd for Gtp {
    fn respond(&mut self, line: &str) -> Flow {
        let (id, command) = split_id(line);
        let id = id.map(str::to_string);
        let mut words = command.split(' ').filter(|word| !word.is_empty());
        let name = words.next().unwrap_or("").to_ascii_lowercase();
        let arguments: Vec<&str> = words.collect();
        let result = if name.is_empty() {
            Err(CommandError::Missing)
        } else {
            self.execute(&name, &arguments)
        };
        let quit = name == "quit" && result.is_ok();
        self.output
            .reply(id.as_deref(), result.map_err(|error| error.to_string()));
        if quit {
            Flow::Quit
        } else {
            Flow::Continue
        }
    }

    fn refuse(&mut self, id: Option<&str>, reason: &str) {
        self.output.reply(id, Err(reason.to_string()));
    }
}

fn find(name: &str) -> Option<&'static Command> {
    COMMANDS
        .iter()
        .find(|command| command.name.eq_ignore_ascii_case(name))
}

fn usage_error(name: &str, problem: impl Into<String>) -> CommandError {
    CommandError::Usage {
        problem: problem.into(),
        usage: find(name).map_or("", |command| command.usage),
    }
}

fn number<T: std::str::FromStr>(command: &str, what: &str, text: &str) -> Result<T, CommandError> {
    text.parse()
        .map_err(|_| usage_error(command, format!("{what} must be a number, not '{text}'")))
}

fn known_command(_: &mut Gtp, arguments: &[&str]) -> Result<String, CommandError> {
    Ok(find(arguments[0]).is_some().to_string())
}

fn list_commands(_: &mut Gtp, _: &[&str]) -> Result<String, CommandError> {
    Ok(COMMANDS
        .iter()
        .map(|command| command.name)
        .collect::<Vec<_>>()
        .join("\n"))
}

/// Every command with its arguments, for a person at the terminal.
fn help(_: &mut Gtp, _: &[&str]) -> Result<String, CommandError> {
    Ok(COMMANDS
        .iter()
        .map(|command| command.usage)
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

fn set_game(gtp: &mut Gtp, arguments: &[&str]) -> Result<String, CommandError> {
    let options = games::parse_options(&arguments[1..])?;
    gtp.replace_game(arguments[0], &options)?;
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
        return Err(CommandError::UnacceptableSize(EngineError::Unsupported(
            format!("{} has a fixed board", gtp.session.game_name()),
        )));
    };
    entry.1 = size.to_string();
    let name = gtp.session.game_name();
    gtp.replace_game(name, &options)
        .map_err(|error| match error {
            // GTP's own prefix says what is wrong; the game's "invalid game option" would repeat it.
            CommandError::Engine(EngineError::Game(GameError::InvalidOption(text))) => {
                CommandError::UnacceptableSize(EngineError::Unsupported(text))
            }
            CommandError::Engine(error) => CommandError::UnacceptableSize(error),
            other => other,
        })?;
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

/// The player named by `text`, if any.
fn player(gtp: &Gtp, text: Option<&str>) -> Result<Option<usize>, CommandError> {
    text.map(|text| gtp.session.parse_player(text))
        .transpose()
        .map_err(CommandError::from)
}

/// GTP's pass spellings, as GUIs send them, in the game's own word.
fn normalise_move(text: &str) -> &str {
    match text.to_ascii_lowercase().as_str() {
        "pass" | "pa" | "ps" => "pass",
        _ => text,
    }
}

fn play(gtp: &mut Gtp, arguments: &[&str]) -> Result<String, CommandError> {
    let (who, mv) = match arguments {
        [mv] => (None, *mv),
        [who, mv] => (Some(*who), *mv),
        _ => unreachable!("argument count checked"),
    };
    let who = player(gtp, who)?;
    gtp.session
        .play(who, normalise_move(mv))
        .map_err(|error| match error {
            EngineError::Game(GameError::GameOver) => CommandError::IllegalMove(error),
            other => CommandError::Engine(other),
        })?;
    Ok(String::new())
}

fn generate(gtp: &mut Gtp, arguments: &[&str], commit: bool) -> Result<String, CommandError> {
    let request = Request {
        player: player(gtp, arguments.first().copied())?,
        ..Request::new(Mode::Play { commit })
    };
    let mut sink = gtp.info_sink();
    let found = gtp.session.search(&request, &mut sink)?;
    Ok(found.best().mv.clone())
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
    Ok(gtp.session.format_player(gtp.session.side_to_move()))
}

fn legal_moves(gtp: &mut Gtp, arguments: &[&str]) -> Result<String, CommandError> {
    let who = player(gtp, arguments.first().copied())?;
    Ok(gtp.session.legal_moves(who)?.join(" "))
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

fn moves(gtp: &mut Gtp, _: &[&str]) -> Result<String, CommandError> {
    Ok(gtp.session.moves_played().join(" "))
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
        Some(word) if word.eq_ignore_ascii_case("divide") => {
            let divide = gtp.session.divide(depth)?;
            let mut text: Vec<String> = divide
                .moves
                .into_iter()
                .map(|(mv, count)| format!("{mv} {count}"))
                .collect();
            text.push(format!("total {}", divide.total));
            Ok(text.join("\n"))
        }
        Some(other) => Err(usage_error("perft", format!("unexpected '{other}'"))),
    }
}

fn final_score(gtp: &mut Gtp, _: &[&str]) -> Result<String, CommandError> {
    Ok(gtp.session.result_text()?)
}

fn set_option(gtp: &mut Gtp, arguments: &[&str]) -> Result<String, CommandError> {
    gtp.session.set_option(arguments[0], arguments[1])?;
    Ok(String::new())
}

fn get_option(gtp: &mut Gtp, arguments: &[&str]) -> Result<String, CommandError> {
    match arguments.first() {
        None => Ok(options::OPTIONS
            .iter()
            .map(|option| {
                gtp.session
                    .option_value(option.name)
                    .map(|value| format!("{} {value}", option.name))
            })
            .collect::<Result<Vec<_>, _>>()?
            .join("\n")),
        Some(name) => Ok(gtp.session.option_value(name)?),
    }
}

fn list_options(_: &mut Gtp, _: &[&str]) -> Result<String, CommandError> {
    Ok(options::OPTIONS
        .iter()
        .map(|option| {
            // An option whose default is a word of its own (movetime's `default`) says it among
            // its values, not as `default default`.
            if option.default == "default" {
                format!(
                    "{} {}, or default; {}",
                    option.name,
                    option.range(),
                    option.help
                )
            } else {
                format!(
                    "{} {}; default {}; {}",
                    option.name,
                    option.range(),
                    option.default,
                    option.help
                )
            }
        })
        .collect::<Vec<_>>()
        .join("\n"))
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
    gtp.session.clock().set_gtp(main, byo_yomi, stones);
    Ok(String::new())
}

fn time_left(gtp: &mut Gtp, arguments: &[&str]) -> Result<String, CommandError> {
    let who = gtp.session.parse_player(arguments[0])?;
    let time = seconds("time_left", arguments[1])?;
    let stones: u32 = number("time_left", "the stones", arguments[2])?;
    gtp.session.clock().set_left(
        who,
        TimeLeft {
            time,
            period_moves: stones,
        },
    );
    Ok(String::new())
}

/// A score in the game's unit: `+1.25`, `+18`, `win@7`, `win+18@7`, `loss@4`.
pub fn format_score(score: &Score, unit: ScoreUnit) -> String {
    let decisive = |word: &str, sign: char, margin: i32, plies: u32| {
        if margin > 0 {
            format!("{word}{sign}{margin}@{plies}")
        } else {
            format!("{word}@{plies}")
        }
    };
    match *score {
        Score::Heuristic(value) => format!("{value:+.*}", unit.decimals),
        Score::Exact(value) => format!("{value:+}"),
        Score::Win { plies, margin } => decisive("win", '+', margin, plies),
        Score::Loss { plies, margin } => decisive("loss", '-', margin, plies),
    }
}

/// One information line: `info depth D seldepth S score S nodes N nps R time MS pv MOVES`.
pub fn info_line(report: &Report<String>, unit: ScoreUnit) -> String {
    let best = report.best();
    format!(
        "info depth {} seldepth {} score {} nodes {} nps {} time {} pv {}",
        report.depth,
        report.selective_depth,
        format_score(&best.score, unit),
        report.nodes,
        report.nodes_per_second(),
        report.elapsed.as_millis(),
        best.pv.join(" ")
    )
}

fn format_analysis(report: &Report<String>, unit: ScoreUnit) -> String {
    report
        .lines
        .iter()
        .map(|line| {
            let kind = if report.solved {
                "exact"
            } else if line.bound == ScoreBound::Upper {
                "bound"
            } else {
                "depth"
            };
            format!(
                "{} {}{} {} {} pv {}",
                line.mv,
                if line.bound == ScoreBound::Upper {
                    "<="
                } else {
                    ""
                },
                format_score(&line.score, unit),
                kind,
                line.depth,
                line.pv.join(" ")
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A count argument; a number too large for the machine means "all".
fn count(command: &str, arguments: &[&str]) -> Result<Option<usize>, CommandError> {
    arguments
        .first()
        .map(|text| {
            let count = if !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit()) {
                text.parse::<usize>().unwrap_or(usize::MAX)
            } else {
                return Err(usage_error(
                    command,
                    format!("the count must be a number, not '{text}'"),
                ));
            };
            if count == 0 {
                Err(usage_error(command, "the count must be at least 1"))
            } else {
                Ok(count)
            }
        })
        .transpose()
}

fn run_analysis(gtp: &mut Gtp, lines: Option<usize>) -> Result<String, CommandError> {
    // Analysis starts afresh, so that the same position and limits give the same answer whatever
    // was searched before (a `hint` and then an `analyze` agree); `genmove` keeps the table.
    gtp.session.forget();
    let mut sink = gtp.info_sink();
    let found = gtp
        .session
        .search(&Request::new(Mode::Analyze { lines }), &mut sink)?;
    Ok(format_analysis(&found, gtp.session.score_unit()))
}

fn hint(gtp: &mut Gtp, arguments: &[&str]) -> Result<String, CommandError> {
    let wanted = count("hint", arguments)?.unwrap_or(1);
    run_analysis(gtp, Some(wanted))
}

fn analyze(gtp: &mut Gtp, arguments: &[&str]) -> Result<String, CommandError> {
    let wanted = count("analyze", arguments)?;
    run_analysis(gtp, wanted)
}

fn solve(gtp: &mut Gtp, _: &[&str]) -> Result<String, CommandError> {
    let mut sink = gtp.info_sink();
    let found = match gtp.session.search(&Request::new(Mode::Solve), &mut sink) {
        Err(EngineError::NotProven) => return Ok("unknown".to_string()),
        other => other?,
    };
    let best = found.best();
    Ok(format!(
        "{} {} pv {}",
        best.mv,
        format_score(&best.score, gtp.session.score_unit()),
        best.pv.join(" ")
    ))
}
