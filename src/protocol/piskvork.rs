//! The Gomocup (Piskvork) protocol for Gomoku managers and GUIs, with the Yixin/Rapfi extensions
//! that analysis boards send. The protocol is Gomocup's "new protocol" (`protocl2en.htm` of
//! Piskvork): one command per line, replies `OK`, `x,y`, `ERROR <reason>`, `UNKNOWN <reason>`,
//! and `MESSAGE <text>` lines before a reply.
//!
//! Coordinates are Gomocup's: `x,y` from 0 with the origin at the top-left, `x` the column. Tabula's
//! own notation is renju-style, rows numbered from the bottom: on an `n`x`n` board, `x,y` is the
//! letter `a + x` and the row `n - y`, so on 15x15 `7,7` is `h8`, `0,0` is `a15` and `14,14` is `o1`.
//!
//! The front-end only parses and formats: the game, the clock and the search are the engine's
//! ([`Session`]). Managers send `INFO` at any time; the time keys are kept here and handed to the
//! engine's clock just before each search (see [`TimeInfo`]).

use super::input::Interrupt;
use super::output::Output;
use super::{Flow, FrontEnd};
use crate::base::transposition::TranspositionTable;
use crate::base::words::{out_of_range, NumberRange};
use crate::engine::clock::{TimeControl, TimeLeft};
use crate::engine::{
    new_session, options, session_for, EngineError, InfoMode, Mode, Report, Request, Score,
    ScoreBound, Session, Settings, StopSignal,
};
use crate::game::{GameError, ScoreUnit};
use crate::games::gomoku::{notation, Rule, DEFAULT_SIZE, MAX_SIZE, MIN_SIZE};
use crate::games::{self, AnyGame};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The lines that interrupt a search: `YXSTOP` stops it, `END` stops it and closes the input.
pub const INTERRUPTS: &[(&str, Interrupt)] =
    &[("yxstop", Interrupt::Stop), ("end", Interrupt::Abort)];

/// `INFO time_left` with this value means the match has no time limit.
const UNLIMITED_TIME_LEFT: i64 = 2_147_483_647;

/// Memory kept back from `INFO max_memory` for everything but the transposition table: the
/// binary, the board, the search threads' stacks and buffers (the process uses about 6 MB besides
/// its table; the rest is a margin).
const RESERVED_MEGABYTES: u64 = 16;

/// What `ABOUT` answers.
const ABOUT: &str = concat!(
    "name=\"Tabula\", version=\"",
    env!("CARGO_PKG_VERSION"),
    "\", author=\"the Tabula authors\", country=\"-\""
);

/// Why a command failed: `UNKNOWN` for what Tabula does not implement, `ERROR` for the rest.
#[derive(Debug, thiserror::Error)]
pub enum CommandError {
    /// A command Tabula does not know or does not implement: an `UNKNOWN` reply.
    #[error("{0}")]
    Unknown(String),
    /// Bad arguments or a command out of order: an `ERROR` reply.
    #[error("{0}")]
    Invalid(String),
    /// The engine refused: an `ERROR` reply.
    #[error(transparent)]
    Engine(#[from] EngineError),
}

impl From<GameError> for CommandError {
    fn from(error: GameError) -> Self {
        CommandError::Engine(EngineError::Game(error))
    }
}

fn invalid(message: impl Into<String>) -> CommandError {
    CommandError::Invalid(message.into())
}

/// A point in Gomocup coordinates: `x` the column from the left, `y` the row from the top, both
/// from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Point {
    /// The column, from 0 at the left.
    pub x: usize,
    /// The row, from 0 at the top.
    pub y: usize,
}

impl std::fmt::Display for Point {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(formatter, "{},{}", self.x, self.y)
    }
}

impl Point {
    /// Reads `x,y` (spaces around the numbers are allowed).
    ///
    /// # Errors
    /// A message when the text is not two whole numbers separated by a comma.
    pub fn parse(text: &str) -> Result<Point, CommandError> {
        let numbers = parse_numbers(text, 2)
            .ok_or_else(|| invalid(format!("malformed coordinates '{text}': expected x,y")))?;
        Ok(Point {
            x: numbers[0],
            y: numbers[1],
        })
    }

    /// The point in Tabula's notation (`h8`) on a `size`x`size` board.
    ///
    /// # Errors
    /// A message when the point is off the board.
    pub fn to_move(self, size: usize) -> Result<String, CommandError> {
        notation::move_from_gomocup(self.x, self.y, size)
            .map(|mv| notation::format_move(mv, size))
            .ok_or_else(|| invalid(format!("{self} is off the {size}x{size} board")))
    }

    /// The point of a move in Tabula's notation on a `size`x`size` board.
    pub fn from_move(text: &str, size: usize) -> Option<Point> {
        let mv = notation::parse_move(text, size).ok()?;
        let (x, y) = notation::gomocup_coordinates(mv, size);
        Some(Point { x, y })
    }
}

/// Reads `count` whole numbers separated by commas.
fn parse_numbers(text: &str, count: usize) -> Option<Vec<usize>> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    if parts.len() != count {
        return None;
    }
    parts
        .iter()
        .map(|part| {
            if !part.is_empty() && part.bytes().all(|byte| byte.is_ascii_digit()) {
                part.parse().ok()
            } else {
                None
            }
        })
        .collect()
}

/// A move in Tabula's notation written as Gomocup coordinates (as it is when it cannot be read).
fn gomocup_text(text: &str, size: usize) -> String {
    Point::from_move(text, size).map_or_else(|| text.to_string(), |point| point.to_string())
}

/// The time limits the manager sent. They are handed to the engine's clock just before each
/// search, so that `INFO` lines may come in any order and at any time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeInfo {
    /// `timeout_turn`: the longest a move may take; `Some(0)` means no cap of its own (as Rapfi and
    /// analysis GUIs read it), `None` that it was not sent.
    pub turn: Option<Duration>,
    /// `timeout_match`: the time for the whole game; `Some(0)` means no limit.
    pub game: Option<Duration>,
    /// The last `time_left` not yet given to the clock; `None` once given, or when the match has
    /// no limit.
    pub left: Option<Duration>,
    /// Whether a finite `time_left` has come in this game.
    pub left_seen: bool,
}

impl TimeInfo {
    /// Whether the game has a time limit: `timeout_match` above 0, or a finite `time_left`
    /// without any `timeout_match`.
    fn game_limited(&self) -> bool {
        match self.game {
            Some(total) => !total.is_zero(),
            None => self.left_seen,
        }
    }
}

/// What the lines between a board command and `DONE` are for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BlockKind {
    /// `BOARD`: set the position, then move.
    Board,
    /// `YXBOARD`: set the position, no reply.
    YixinBoard,
    /// `SWAP2BOARD`: read to `DONE`, then answer `UNKNOWN`.
    Swap2,
}

impl BlockKind {
    fn name(self) -> &'static str {
        match self {
            BlockKind::Board => "BOARD",
            BlockKind::YixinBoard => "YXBOARD",
            BlockKind::Swap2 => "SWAP2BOARD",
        }
    }
}

/// A stone in a board block: `1` own (the side to move), `2` the opponent's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stone {
    point: Point,
    own: bool,
}

/// A board block being read: the stones so far and the first problem found.
struct Block {
    kind: BlockKind,
    stones: Vec<Stone>,
    problem: Option<String>,
}

type Handler = fn(&mut Piskvork, &str) -> Result<Option<String>, CommandError>;

/// One command: its name, whether it needs `START` first, and its handler, which gets the rest
/// of the line and returns the reply line, if any.
struct Command {
    name: &'static str,
    needs_game: bool,
    handler: Handler,
}

/// Every command but `END` (which ends the session) and the board blocks' `DONE`.
#[rustfmt::skip]
const COMMANDS: &[Command] = &[
    Command { name: "START", needs_game: false, handler: start },
    Command { name: "RECTSTART", needs_game: false, handler: rectangle_start },
    Command { name: "RESTART", needs_game: true, handler: restart },
    Command { name: "BEGIN", needs_game: true, handler: begin },
    Command { name: "TURN", needs_game: true, handler: turn },
    Command { name: "BOARD", needs_game: true, handler: |front, rest| front.open_block(BlockKind::Board, rest) },
    Command { name: "YXBOARD", needs_game: true, handler: |front, rest| front.open_block(BlockKind::YixinBoard, rest) },
    Command { name: "SWAP2BOARD", needs_game: true, handler: |front, rest| front.open_block(BlockKind::Swap2, rest) },
    Command { name: "INFO", needs_game: false, handler: info },
    Command { name: "ABOUT", needs_game: false, handler: |_, _| Ok(Some(ABOUT.to_string())) },
    Command { name: "TAKEBACK", needs_game: true, handler: take_back },
    Command { name: "PLAY", needs_game: true, handler: play },
    Command { name: "YXSTOP", needs_game: false, handler: |_, _| Ok(None) },
    Command { name: "YXNBEST", needs_game: true, handler: best_moves },
    Command { name: "YXSHOWFORBID", needs_game: true, handler: show_forbidden },
    Command { name: "DONE", needs_game: false, handler: |_, _| Err(invalid("DONE without BOARD, YXBOARD or SWAP2BOARD")) },
];

/// The Piskvork front-end: a Gomoku game in progress and what the manager has said about it.
pub struct Piskvork {
    session: Box<dyn Session>,
    stop: Arc<StopSignal>,
    output: Output,
    /// Whether `START` has set up a game.
    started: bool,
    size: usize,
    rule: Rule,
    /// Why the manager's `INFO rule` cannot be played; moves are refused while it is set.
    unplayable_rule: Option<String>,
    time: TimeInfo,
    /// The table size Tabula would use without `INFO max_memory`, in MB.
    preferred_hash: usize,
    /// `INFO max_memory` in bytes; 0 for no limit.
    max_memory: u64,
    /// Yixin's realtime marks (`MESSAGE REALTIME BEST x,y`), from `INFO show_detail`.
    realtime: bool,
    block: Option<Block>,
    /// When the command being answered arrived (for a board block, its first line): a move's
    /// time counts from then, as the manager's clock does.
    received: Instant,
}

impl Piskvork {
    /// A brain waiting for `START`. Per-iteration search information goes into `MESSAGE` lines.
    ///
    /// The table starts at 1 MB and gets its size when `INFO max_memory` comes or just before
    /// the first search, so that the process never holds a table larger than the manager allows
    /// (managers watch the peak memory of the process).
    pub fn new(settings: Settings, stop: Arc<StopSignal>, output: Output) -> Piskvork {
        Piskvork::try_new(settings, stop, output)
            .expect("15x15 Gomoku with a 1 MB table always exists")
    }

    /// [`Piskvork::new`], or the error when the 1 MB table cannot be had (a server whose shared
    /// table memory is used up).
    pub fn try_new(
        settings: Settings,
        stop: Arc<StopSignal>,
        output: Output,
    ) -> Result<Piskvork, EngineError> {
        let preferred_hash = settings.hash_megabytes;
        let settings = Settings {
            info: InfoMode::Protocol,
            hash_megabytes: 1,
            ..settings
        };
        let options = game_options(DEFAULT_SIZE, Rule::Freestyle);
        let session = new_session("gomoku", &options, settings, stop.clone(), None)?;
        Ok(Piskvork {
            session,
            stop,
            output,
            started: false,
            size: DEFAULT_SIZE,
            rule: Rule::Freestyle,
            unplayable_rule: None,
            time: TimeInfo::default(),
            preferred_hash,
            max_memory: 0,
            realtime: false,
            block: None,
            received: Instant::now(),
        })
    }

    /// The game in progress.
    pub fn session(&self) -> &dyn Session {
        self.session.as_ref()
    }

    /// The time limits the manager has sent.
    pub fn time(&self) -> TimeInfo {
        self.time
    }

    /// Whether a board block (`BOARD` ... `DONE`) is being read.
    pub fn in_block(&self) -> bool {
        self.block.is_some()
    }

    /// Runs one line and returns its reply, if any (the caller writes it).
    fn execute(&mut self, line: &str) -> Result<Option<String>, CommandError> {
        let (name, rest) = match line.split_once(' ') {
            Some((name, rest)) => (name, rest.trim()),
            None => (line, ""),
        };
        if name.starts_with(|character: char| character.is_ascii_digit()) {
            return Err(invalid(format!(
                "'{line}' is a board line, but no BOARD, YXBOARD or SWAP2BOARD is open"
            )));
        }
        let Some(command) = COMMANDS
            .iter()
            .find(|command| command.name.eq_ignore_ascii_case(name))
        else {
            return Err(CommandError::Unknown(format!("unknown command '{name}'")));
        };
        if command.needs_game && !self.started {
            return Err(invalid(format!(
                "no game yet: START <size> comes before {}",
                command.name
            )));
        }
        (command.handler)(self, rest)
    }

    /// Writes a reply or an error in the protocol's form.
    fn write(&self, result: Result<Option<String>, CommandError>) {
        match result {
            Ok(Some(reply)) => self.output.line(&reply),
            Ok(None) => {}
            Err(CommandError::Unknown(message)) => self.output.line(&format!("UNKNOWN {message}")),
            Err(error) => self
                .output
                .line(&format!("ERROR {}", one_line(&error.to_string()))),
        }
    }

    /// A new session of `size` and `rule` with `moves` played. With `table`, it takes it over;
    /// without, it gets a table of one bucket (a scratch game to check something on).
    fn build(
        &self,
        size: usize,
        rule: Rule,
        moves: &[String],
        table: Option<TranspositionTable>,
    ) -> Result<Box<dyn Session>, CommandError> {
        // The weights an `INFO weights` chose stay for the new game.
        let mut options = game_options(size, rule);
        options.extend(
            self.session
                .game_options()
                .into_iter()
                .filter(|(key, _)| key == games::WEIGHTS),
        );
        let game: AnyGame = games::create("gomoku", &options)?;
        let table = table.unwrap_or_else(|| TranspositionTable::new(0));
        let mut session = session_for(
            game,
            self.session.settings().clone(),
            self.stop.clone(),
            Some(table),
        )?;
        for mv in moves {
            session.play(None, mv)?;
        }
        Ok(session)
    }

    /// Starts a new game of `size` under the current rule, reusing the table; the time limits
    /// stay, the time left is forgotten.
    fn new_game(&mut self, size: usize) -> Result<(), CommandError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(invalid(format!(
                "unsupported size {size}: Tabula plays Gomoku on {MIN_SIZE}x{MIN_SIZE} to {MAX_SIZE}x{MAX_SIZE}"
            )));
        }
        // Check the game before the old session gives up its table.
        games::create("gomoku", &game_options(size, self.rule))?;
        let table = self.session.take_table();
        self.session = self.build(size, self.rule, &[], Some(table))?;
        self.size = size;
        self.started = true;
        self.block = None;
        self.time.left = None;
        self.time.left_seen = false;
        Ok(())
    }

    /// Changes the rule, keeping the game in progress when it can be played under the new rule.
    fn change_rule(&mut self, rule: Rule) -> Result<(), CommandError> {
        if rule == self.rule {
            return Ok(());
        }
        let moves = self.session.moves_played();
        let position = self.session.position();
        // Try on a scratch game first, so that a failure changes nothing.
        let scratch = self.build(self.size, rule, &moves, None);
        let replayed = matches!(&scratch, Ok(session) if session.position() == position);
        if !replayed {
            let mut scratch = self.build(self.size, rule, &[], None)?;
            scratch.set_position(&position).map_err(|error| {
                invalid(format!(
                    "the game in progress cannot be played under rule {}: {error}",
                    rule.name()
                ))
            })?;
        }
        let table = self.session.take_table();
        self.session = self.build(self.size, rule, &[], Some(table))?;
        if replayed {
            for mv in &moves {
                self.session.play(None, mv)?;
            }
        } else {
            self.session.set_position(&position)?;
        }
        self.rule = rule;
        Ok(())
    }

    /// Refuses a move while the manager's rule cannot be played.
    fn check_rule(&self) -> Result<(), CommandError> {
        match &self.unplayable_rule {
            Some(message) => Err(invalid(message.clone())),
            None => Ok(()),
        }
    }

    /// Readies the engine for a search: the table at its size, and the manager's time limits in
    /// the engine's clock.
    fn prepare_search(&mut self) -> Result<(), CommandError> {
        if let Err(error) = self.fit_table() {
            // The table stays as it was; a search with it beats no move.
            log::warn!("{error}");
        }
        self.prepare_clock()
    }

    /// Hands the manager's time limits to the engine's clock.
    fn prepare_clock(&mut self) -> Result<(), CommandError> {
        let time = self.time;
        let limited = time.game_limited();
        let control = limited.then(|| TimeControl {
            main: time.game.unwrap_or_default(),
            ..TimeControl::default()
        });
        let side = self.session.side_to_move();
        let clock = self.session.clock();
        clock.set_per_move(time.turn.filter(|turn| !turn.is_zero()));
        // A new time control restarts the players' time, so only a changed one is set.
        if clock.control().map(|control| control.main) != control.map(|control| control.main) {
            clock.set_control(control);
        }
        if let Some(left) = time.left.filter(|_| limited) {
            clock.set_left(
                side,
                TimeLeft {
                    time: left,
                    period_moves: 0,
                },
            );
        }
        self.time.left = None;
        // `timeout_turn 0` without a match limit: no time limit at all (until YXSTOP, a depth or a
        // node limit), as analysis GUIs mean it.
        let unlimited = time.turn == Some(Duration::ZERO) && !limited;
        self.session
            .set_option("movetime", if unlimited { "0" } else { "default" })?;
        Ok(())
    }

    /// A sink for per-iteration reports: `MESSAGE` lines (or the log, as the `info` option says)
    /// and Yixin's realtime marks.
    fn message_sink(&self) -> impl FnMut(&Report<String>) + Send + 'static {
        let mode = self.session.settings().info;
        let unit = self.session.score_unit();
        let size = self.size;
        let realtime = self.realtime;
        let output = self.output.clone();
        move |report: &Report<String>| {
            let line = iteration_message(report, size, unit);
            match mode {
                InfoMode::Off => {}
                InfoMode::Log => log::info!(target: "tabula::info", "{line}"),
                InfoMode::Protocol => output.line(&format!("MESSAGE {line}")),
            }
            if realtime {
                if let Some(best) = report.lines.first() {
                    output.line(&format!(
                        "MESSAGE REALTIME BEST {}",
                        gomocup_text(&best.mv, size)
                    ));
                }
            }
        }
    }

    /// Searches for the side to move, plays the move found and returns it as `x,y`.
    fn think(&mut self) -> Result<Option<String>, CommandError> {
        self.check_rule()?;
        self.prepare_search()?;
        let mut sink = self.message_sink();
        let request = Request {
            received: Some(self.received),
            ..Request::new(Mode::Play { commit: true })
        };
        let found = self.session.search(&request, &mut sink)?;
        Ok(Some(gomocup_text(&found.best().mv, self.size)))
    }

    /// Starts a board block; words after the command on the same line are read as block lines.
    fn open_block(&mut self, kind: BlockKind, rest: &str) -> Result<Option<String>, CommandError> {
        self.block = Some(Block {
            kind,
            stones: Vec::new(),
            problem: None,
        });
        if rest.is_empty() {
            Ok(None)
        } else {
            self.block_line(rest)
        }
    }

    /// A line inside a board block: `x,y,field` words and `DONE`.
    fn block_line(&mut self, line: &str) -> Result<Option<String>, CommandError> {
        let size = self.size;
        for word in line.split_whitespace() {
            let block = self.block.as_mut().expect("a block is open");
            if word.eq_ignore_ascii_case("done") {
                return self.close_block();
            }
            if block.problem.is_some() {
                continue;
            }
            if let Err(problem) = read_stone(word, size, block) {
                block.problem = Some(problem);
            }
        }
        Ok(None)
    }

    /// `DONE`: sets the position the block describes, then answers as the block's command does.
    fn close_block(&mut self) -> Result<Option<String>, CommandError> {
        let block = self.block.take().expect("a block is open");
        if block.kind == BlockKind::Swap2 {
            return Err(CommandError::Unknown(
                "SWAP2BOARD is not supported: send the opening with BOARD".to_string(),
            ));
        }
        if let Some(problem) = block.problem {
            return Err(invalid(format!("{} refused: {problem}", block.kind.name())));
        }
        if block.kind == BlockKind::Board {
            self.check_rule()?;
        }
        self.set_board(&block.stones, block.kind == BlockKind::YixinBoard)
            .map_err(|error| invalid(format!("{} refused: {error}", block.kind.name())))?;
        match block.kind {
            BlockKind::Board => self.think(),
            _ => Ok(None),
        }
    }

    /// Sets the position of a board block, in which the side to move owns the `1` stones. The
    /// stones are played in the order given, each colour's in turn, so that a block in move order
    /// keeps the game's history (for `TAKEBACK`); stones in another order that cannot be played
    /// so are set as a position. A finished game is refused unless `finished_ok`. Nothing changes
    /// on an error.
    fn set_board(&mut self, stones: &[Stone], finished_ok: bool) -> Result<(), CommandError> {
        let own = stones.iter().filter(|stone| stone.own).count();
        let opponent = stones.len() - own;
        // Black moves first: black has as many stones as white when black is to move, one more
        // when white is.
        let own_is_black = if own == opponent {
            true
        } else if opponent == own + 1 {
            false
        } else {
            return Err(invalid(format!(
                "{own} own stones and {opponent} of the opponent: the side to move has as many \
                 stones as the opponent (playing black) or one fewer (playing white)"
            )));
        };
        let texts = |black: bool| -> Result<Vec<String>, CommandError> {
            stones
                .iter()
                .filter(|stone| stone.own == (own_is_black == black))
                .map(|stone| stone.point.to_move(self.size))
                .collect()
        };
        let (black, white) = (texts(true)?, texts(false)?);
        let mut moves = Vec::with_capacity(stones.len());
        for (index, mv) in black.iter().enumerate() {
            moves.push(mv.clone());
            if let Some(mv) = white.get(index) {
                moves.push(mv.clone());
            }
        }
        // Check on a scratch game first.
        let position = board_form(stones, own_is_black, self.size);
        let (scratch, in_order) = match self.build(self.size, self.rule, &moves, None) {
            Ok(scratch) => (scratch, true),
            Err(_) => {
                let mut scratch = self.build(self.size, self.rule, &[], None)?;
                scratch.set_position(&position)?;
                (scratch, false)
            }
        };
        if !finished_ok && scratch.outcome().is_some() {
            return Err(invalid("the game on that board is already over"));
        }
        if in_order {
            self.session.set_position("")?;
            for mv in &moves {
                self.session.play(None, mv)?;
            }
        } else {
            self.session.set_position(&position)?;
        }
        Ok(())
    }
}

/// Reads one `x,y,field` word of a board block into `block`.
fn read_stone(word: &str, size: usize, block: &mut Block) -> Result<(), String> {
    let numbers = parse_numbers(word, 3)
        .ok_or_else(|| format!("malformed board line '{word}': expected x,y,field"))?;
    let point = Point {
        x: numbers[0],
        y: numbers[1],
    };
    if point.x >= size || point.y >= size {
        return Err(format!("{point} is off the {size}x{size} board"));
    }
    let own = match numbers[2] {
        1 => true,
        2 => false,
        3 => {
            return Err(format!(
                "{word}: field 3 marks a blocked stone of a continuous game, which Tabula does not play"
            ))
        }
        other => return Err(format!("{word}: field {other} is not 1 (own) or 2 (opponent)")),
    };
    if block.stones.iter().any(|stone| stone.point == point) {
        return Err(format!("{point} is given twice"));
    }
    block.stones.push(Stone { point, own });
    Ok(())
}

/// A position string in the board form for `stones`, the side to move owning the `1` stones.
fn board_form(stones: &[Stone], own_is_black: bool, size: usize) -> String {
    let mut rows = vec![vec!['.'; size]; size];
    for stone in stones {
        let black = stone.own == own_is_black;
        rows[stone.point.y][stone.point.x] = if black { 'x' } else { 'o' };
    }
    let board: Vec<String> = rows
        .into_iter()
        .map(|row| row.into_iter().collect())
        .collect();
    let side = if own_is_black { 'x' } else { 'o' };
    format!("{} {side}", board.join("/"))
}

fn game_options(size: usize, rule: Rule) -> Vec<(String, String)> {
    vec![
        ("size".to_string(), size.to_string()),
        ("rule".to_string(), rule.name().to_string()),
    ]
}

/// A message on one line: the protocol allows no line break inside a reply.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A search score as Tabula writes it (`+35`, `win@7`), with `<=` for an upper bound.
fn score_text(score: &Score, unit: ScoreUnit) -> String {
    super::gtp::format_score(score, unit)
}

/// One iteration: `depth 9-15 score +35 nodes 81234 nps 402113 time 450 pv 7,7 8,8 6,6`.
pub fn iteration_message(report: &Report<String>, size: usize, unit: ScoreUnit) -> String {
    let best = report.best();
    let pv: Vec<String> = best.pv.iter().map(|mv| gomocup_text(mv, size)).collect();
    format!(
        "depth {}-{} score {} nodes {} nps {} time {} pv {}",
        report.depth,
        report.selective_depth,
        score_text(&best.score, unit),
        report.nodes,
        report.nodes_per_second(),
        report.elapsed.as_millis(),
        pv.join(" ")
    )
}

fn start(front: &mut Piskvork, rest: &str) -> Result<Option<String>, CommandError> {
    let size = parse_numbers(rest, 1)
        .ok_or_else(|| invalid(format!("START needs a board size, not '{rest}'")))?[0];
    front.new_game(size)?;
    Ok(Some("OK".to_string()))
}

fn rectangle_start(front: &mut Piskvork, rest: &str) -> Result<Option<String>, CommandError> {
    let numbers = parse_numbers(rest, 2)
        .ok_or_else(|| invalid(format!("RECTSTART needs width,height, not '{rest}'")))?;
    if numbers[0] != numbers[1] {
        return Err(invalid(format!(
            "rectangular boards ({}x{}) are not supported: Tabula plays square boards",
            numbers[0], numbers[1]
        )));
    }
    front.new_game(numbers[0])?;
    Ok(Some("OK".to_string()))
}

fn restart(front: &mut Piskvork, rest: &str) -> Result<Option<String>, CommandError> {
    no_arguments("RESTART", rest)?;
    front.new_game(front.size)?;
    Ok(Some("OK".to_string()))
}

fn no_arguments(name: &str, rest: &str) -> Result<(), CommandError> {
    if rest.is_empty() {
        Ok(())
    } else {
        Err(invalid(format!("{name} takes no arguments, not '{rest}'")))
    }
}

fn begin(front: &mut Piskvork, rest: &str) -> Result<Option<String>, CommandError> {
    no_arguments("BEGIN", rest)?;
    if stone_count(front) > 0 {
        return Err(invalid(
            "BEGIN opens a game on an empty board, and this one is not empty",
        ));
    }
    front.think()
}

/// The number of stones on the board.
fn stone_count(front: &Piskvork) -> usize {
    let position = front.session.position();
    // The board form: rows, then a space and the side to move.
    let board = position.split(' ').next().unwrap_or("");
    board
        .chars()
        .filter(|&cell| cell == 'x' || cell == 'o')
        .count()
}

/// Plays the move at `rest` for the side to move; `x,y (h8)` names it in errors.
fn play_point(front: &mut Piskvork, rest: &str) -> Result<Point, CommandError> {
    let point = Point::parse(rest)?;
    let mv = point.to_move(front.size)?;
    front
        .session
        .play(None, &mv)
        .map_err(|error| invalid(format!("{point} ({mv}) refused: {error}")))?;
    Ok(point)
}

fn turn(front: &mut Piskvork, rest: &str) -> Result<Option<String>, CommandError> {
    front.check_rule()?;
    let point = play_point(front, rest)?;
    if front.session.outcome().is_some() {
        // The opponent's move ended the game: nothing to answer with, and the state stays.
        let result = front.session.result_text().unwrap_or_default();
        front.session.undo()?;
        return Err(invalid(format!(
            "{point} ends the game ({result}): there is no move to answer"
        )));
    }
    match front.think() {
        Ok(reply) => Ok(reply),
        Err(error) => {
            front.session.undo()?;
            Err(error)
        }
    }
}

fn play(front: &mut Piskvork, rest: &str) -> Result<Option<String>, CommandError> {
    front.check_rule()?;
    let point = play_point(front, rest)?;
    Ok(Some(point.to_string()))
}

fn take_back(front: &mut Piskvork, rest: &str) -> Result<Option<String>, CommandError> {
    let point = Point::parse(rest)?;
    let mv = point.to_move(front.size)?;
    let last = front
        .session
        .moves_played()
        .last()
        .cloned()
        .ok_or_else(|| invalid(format!("TAKEBACK {point}: no move to take back")))?;
    if last != mv {
        return Err(invalid(format!(
            "TAKEBACK {point}: the last move is {}, not {point}",
            gomocup_text(&last, front.size)
        )));
    }
    front.session.undo()?;
    Ok(Some("OK".to_string()))
}

fn best_moves(front: &mut Piskvork, rest: &str) -> Result<Option<String>, CommandError> {
    let count = parse_numbers(rest, 1)
        .filter(|numbers| numbers[0] > 0)
        .ok_or_else(|| invalid(format!("YXNBEST needs a count of at least 1, not '{rest}'")))?[0];
    front.check_rule()?;
    front.prepare_search()?;
    let mut sink = front.message_sink();
    let found = front.session.search(
        &Request::new(Mode::Analyze { lines: Some(count) }),
        &mut sink,
    )?;
    let unit = front.session.score_unit();
    for (index, line) in found.lines.iter().enumerate() {
        let pv: Vec<String> = line
            .pv
            .iter()
            .map(|mv| gomocup_text(mv, front.size))
            .collect();
        let bound = if line.bound == ScoreBound::Upper {
            "<="
        } else {
            ""
        };
        front.output.line(&format!(
            "MESSAGE nbest {} {} score {bound}{} depth {} pv {}",
            index + 1,
            gomocup_text(&line.mv, front.size),
            score_text(&line.score, unit),
            line.depth,
            pv.join(" ")
        ));
    }
    // As Rapfi does: the best move is played and answered, as for TURN.
    let best = found.best().mv.clone();
    front.session.play(None, &best)?;
    Ok(Some(gomocup_text(&best, front.size)))
}

fn show_forbidden(front: &mut Piskvork, rest: &str) -> Result<Option<String>, CommandError> {
    no_arguments("YXSHOWFORBID", rest)?;
    let mut points: Vec<Point> = front
        .session
        .forbidden_moves()
        .iter()
        .filter_map(|mv| Point::from_move(mv, front.size))
        .collect();
    points.sort_by_key(|point| (point.y, point.x));
    let text: String = points
        .iter()
        .map(|point| format!("{:02}{:02}", point.x, point.y))
        .collect();
    Ok(Some(format!("FORBID {text}.")))
}

/// Reads a whole number of an `INFO` key.
fn info_number(key: &str, value: &str) -> Result<u64, CommandError> {
    value
        .parse()
        .map_err(|_| invalid(format!("INFO {key} needs a whole number, not '{value}'")))
}

fn milliseconds(key: &str, value: &str) -> Result<Duration, CommandError> {
    Ok(Duration::from_millis(info_number(key, value)?))
}

fn info(front: &mut Piskvork, rest: &str) -> Result<Option<String>, CommandError> {
    let (key, value) = match rest.split_once(' ') {
        Some((key, value)) => (key.to_ascii_lowercase(), value.trim()),
        None => (rest.to_ascii_lowercase(), ""),
    };
    if key.is_empty() {
        return Err(invalid("INFO needs a key and a value"));
    }
    if value.is_empty() {
        return Err(invalid(format!("INFO {key} needs a value")));
    }
    match key.as_str() {
        "timeout_turn" => front.time.turn = Some(milliseconds(&key, value)?),
        "timeout_match" => front.time.game = Some(milliseconds(&key, value)?),
        "time_left" => {
            let left: i64 = value.parse().map_err(|_| {
                invalid(format!("INFO time_left needs milliseconds, not '{value}'"))
            })?;
            if left >= UNLIMITED_TIME_LEFT {
                front.time.left = None;
            } else {
                // Negative when the brain has overrun: move at once.
                front.time.left = Some(Duration::from_millis(left.max(0) as u64));
                front.time.left_seen = true;
            }
        }
        "max_memory" => {
            front.max_memory = info_number(&key, value)?;
            front.fit_table()?;
        }
        "hash" => {
            let megabytes = info_number(&key, value)?;
            let sizes = NumberRange::new(1, options::MAX_HASH_MEGABYTES);
            if !sizes.contains(megabytes) {
                return Err(invalid(out_of_range(
                    "INFO hash (in MB)",
                    &sizes,
                    megabytes,
                )));
            }
            front.preferred_hash = megabytes as usize;
            front.fit_table()?;
        }
        "hash_size" => {
            // Yixin-Board: the table size in KB.
            let megabytes = (info_number(&key, value)? / 1024).max(1);
            front.preferred_hash = megabytes.min(options::MAX_HASH_MEGABYTES) as usize;
            front.fit_table()?;
        }
        "rule" => front.set_rule(value)?,
        "thread_num" => {
            let threads = info_number(&key, value)?.clamp(1, 256);
            front.session.set_option("threads", &threads.to_string())?;
        }
        "max_depth" => {
            let depth = info_number(&key, value)?;
            let deepest = crate::base::score::MAX_PLY as u64 - 1;
            // Deeper than the engine can go means no limit.
            let depth = if depth > deepest { 0 } else { depth };
            front.session.set_option("depth", &depth.to_string())?;
        }
        "max_node" => {
            let nodes = info_number(&key, value)?;
            front.session.set_option("nodes", &nodes.to_string())?;
        }
        "show_detail" => {
            let detail = info_number(&key, value)?;
            front.realtime = detail & 1 != 0;
            let info = if detail & 2 != 0 { "stdout" } else { "stderr" };
            front.session.set_option("info", info)?;
        }
        "game_type" => {
            info_number(&key, value)?;
        }
        "evaluate" => {
            Point::parse(value)?;
        }
        "folder" => log::info!("persistent folder {value} (Tabula keeps no files)"),
        "movetime" => {
            return Err(invalid(
                "INFO movetime is not used here: timeout_turn and timeout_match set the time",
            ))
        }
        name if options::find(name).is_ok() => front.session.set_option(name, value)?,
        other => log::info!("INFO {other} ignored"),
    }
    Ok(None)
}

impl Piskvork {
    /// Sets the table to the preferred size, bounded by `max_memory` less what the rest of the
    /// process needs.
    ///
    /// # Errors
    /// The table cannot be had; the old one stays.
    fn fit_table(&mut self) -> Result<(), CommandError> {
        let megabytes = if self.max_memory == 0 {
            self.preferred_hash
        } else {
            let room = (self.max_memory >> 20).saturating_sub(RESERVED_MEGABYTES);
            (room.min(self.preferred_hash as u64) as usize).max(1)
        };
        if megabytes != self.session.settings().hash_megabytes {
            self.session
                .set_option("hash", &megabytes.to_string())
                .map_err(CommandError::from)?;
        }
        Ok(())
    }

    /// `INFO rule`: Gomocup's bit flags. 0 is freestyle, 1 exactly five (standard), 4 renju;
    /// continuous games (2) and caro (8) cannot be played.
    fn set_rule(&mut self, value: &str) -> Result<(), CommandError> {
        let flags = info_number("rule", value)?;
        let rule = match flags {
            0 => Rule::Freestyle,
            1 => Rule::Standard,
            4 => Rule::Renju,
            other => {
                let message = format!(
                    "rule {other} cannot be played: Tabula plays rule 0 (freestyle), 1 (exactly \
                     five) and 4 (renju), not continuous games (2) or caro (8); moves are refused \
                     until a playable rule is set"
                );
                self.unplayable_rule = Some(message.clone());
                return Err(invalid(message));
            }
        };
        self.change_rule(rule)?;
        self.unplayable_rule = None;
        Ok(())
    }
}

impl FrontEnd for Piskvork {
    fn respond(&mut self, line: &str) -> Flow {
        let word = line.split_whitespace().next().unwrap_or("");
        if word.eq_ignore_ascii_case("end") {
            return Flow::Quit;
        }
        let in_block = self.block.is_some()
            && (word.eq_ignore_ascii_case("done")
                || word.starts_with(|character: char| {
                    character.is_ascii_digit() || character == '-' || character == '+'
                }));
        if in_block {
            let result = self.block_line(line);
            self.write(result);
            return Flow::Continue;
        }
        self.received = Instant::now();
        if let Some(block) = self.block.take() {
            // Another command before DONE: the block is dropped and the command runs.
            self.write(Err(invalid(format!(
                "{} ended without DONE and was ignored",
                block.kind.name()
            ))));
        }
        let result = self.execute(line);
        self.write(result);
        Flow::Continue
    }

    fn refuse(&mut self, _: Option<&str>, reason: &str) {
        match self.block.as_mut() {
            // A line of the block that could not be read spoils the block.
            Some(block) => {
                block.problem.get_or_insert_with(|| reason.to_string());
            }
            None => self.write(Err(invalid(reason))),
        }
    }

    fn internal_error(&mut self, line: &str) {
        self.block = None;
        self.write(Err(invalid(format!("internal error on '{line}'"))));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_map_to_renju_notation() {
        assert_eq!(Point::parse("7,7").unwrap().to_move(15).unwrap(), "h8");
        assert_eq!(Point::parse("0,0").unwrap().to_move(15).unwrap(), "a15");
        assert_eq!(Point::parse("14, 14").unwrap().to_move(15).unwrap(), "o1");
        assert_eq!(Point::parse("19,0").unwrap().to_move(20).unwrap(), "t20");
        assert_eq!(Point::from_move("h8", 15), Some(Point { x: 7, y: 7 }));
        assert_eq!(Point::from_move("a1", 20), Some(Point { x: 0, y: 19 }));
        assert!(Point::parse("15,0").unwrap().to_move(15).is_err());
        for bad in ["", "7", "7,", ",7", "7,7,1", "-1,3", "a,b", "7;7", "7 7"] {
            assert!(Point::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn board_form_puts_own_stones_by_colour() {
        let stones = [
            Stone {
                point: Point { x: 0, y: 0 },
                own: false,
            },
            Stone {
                point: Point { x: 4, y: 4 },
                own: true,
            },
            Stone {
                point: Point { x: 1, y: 0 },
                own: false,
            },
        ];
        assert_eq!(
            board_form(&stones, false, 5),
            "xx.../...../...../...../....o o"
        );
    }
}
