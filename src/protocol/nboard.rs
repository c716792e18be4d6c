//! The NBoard protocol (version 2, and version 1) for Othello GUIs: NBoard itself, and the
//! tools written for Edax's and NTest's `-nboard` modes. See `protocol.md` for a session.
//!
//! The GUI keeps the game and tells the engine about it: `set game <GGF>` loads a whole game,
//! `move <square>[/eval[/time]]` adds a move. `go` asks for a move, which the engine names with
//! `=== <move>/<eval>/<time>` and does not play: the GUI sends it back with `move` if it accepts it.
//! `hint n` asks for the n best moves as `search <pv> <eval> 0 <depth>` lines, and `analyze` for an
//! evaluation of every position of the game, from the end back, as `analysis <moves> <eval>` lines.
//! `ping n` stops a running search; its `pong n` comes after the search's reply, so the GUI knows
//! which replies are about positions it has since left. Evaluations are in discs for the side to
//! move; a depth of `100%` marks an exact solve and `100%W` a proven win, draw or loss.
//!
//! Depth: `set depth N` makes every search a fixed N-ply search, except near the end, where the
//! exact solver takes over from [`exact_empties`]`(N)` empty squares. Before any `set depth` (and
//! after `set depth 0`) the engine's own limits apply, as for GTP's `genmove`. The value is checked
//! against the options table's `depth` entry.
//!
//! Nothing in this protocol has an error reply: a line that cannot be understood or carried out
//! is logged on stderr and ignored, and the game stays as it was.

use super::input::Interrupt;
use super::output::Output;
use super::{Flow, FrontEnd};
use crate::engine::{
    new_session, options, EngineError, Line, Mode, Report, Request, Score, Session, Settings,
    StopSignal,
};
use crate::game::{GameError, Player};
use crate::games;
use crate::games::reversi::ggf::{self, GgfError};
use crate::games::reversi::notation;
use crate::search::limits::Limits;
use std::sync::Arc;

/// The lines that interrupt a search: `ping` stops it, `quit` closes the input.
pub const INTERRUPTS: &[(&str, Interrupt)] =
    &[("ping", Interrupt::Stop), ("quit", Interrupt::Quit)];

/// The name the engine gives the GUI with `set myname`.
pub const NAME: &str = "Tabula";

/// The protocol versions spoken; a GUI that announces another is answered as version 2.
const VERSIONS: &[&str] = &["1", "2"];

/// The exact solver takes over this many empty squares beyond the midgame depth...
const SOLVE_BEYOND_DEPTH: u32 = 6;
/// ...but never from more empties than this: a 22-empty solve takes seconds, and each further
/// empty square multiplies the time by about 2.6.
const MAX_SOLVE_EMPTIES: u32 = 22;

/// The number of empty squares from which a search at NBoard depth `depth` is an exact solve.
pub fn exact_empties(depth: u32) -> u32 {
    depth
        .saturating_add(SOLVE_BEYOND_DEPTH)
        .min(MAX_SOLVE_EMPTIES)
}

/// Why a line was ignored.
#[derive(Debug, thiserror::Error)]
pub enum NboardError {
    /// Not a command of the protocol.
    #[error("unknown command")]
    Unknown,
    /// A command with arguments it cannot take.
    #[error("{0}")]
    Usage(String),
    /// A `set game` record that cannot be read.
    #[error(transparent)]
    Ggf(#[from] GgfError),
    /// The engine refused (an illegal move, a finished game...).
    #[error(transparent)]
    Engine(#[from] EngineError),
}

impl From<GameError> for NboardError {
    fn from(error: GameError) -> Self {
        NboardError::Engine(EngineError::Game(error))
    }
}

type Handler = fn(&mut Nboard, &str) -> Result<Flow, NboardError>;

/// Every command with its handler, which gets the rest of the line.
const COMMANDS: &[(&str, Handler)] = &[
    ("nboard", nboard),
    ("set", set),
    ("move", play),
    ("hint", hint),
    ("go", go),
    ("ping", ping),
    ("learn", learn),
    ("analyze", analyze),
    ("quit", |_, _| Ok(Flow::Quit)),
];

/// The game as the GUI gave it: a start position and the moves since, with every pass written
/// out (a pass the engine had to imply is recorded as a move of its own).
#[derive(Clone, Debug, PartialEq)]
struct Record {
    size: usize,
    start: String,
    moves: Vec<(Player, String)>,
}

impl Record {
    fn start_of_game(size: usize, start: String) -> Record {
        Record {
            size,
            start,
            moves: Vec::new(),
        }
    }
}

/// The NBoard front-end: an 8x8 Reversi session, the game record and the depth.
pub struct Nboard {
    session: Box<dyn Session>,
    stop: Arc<StopSignal>,
    output: Output,
    /// The board size of the session (the record's, except while one is being loaded).
    size: usize,
    depth: Option<u32>,
    contempt: f64,
    record: Record,
}

impl Nboard {
    /// A new engine on the Othello start position. With a table the machine cannot give, the
    /// default size.
    pub fn new(settings: Settings, stop: Arc<StopSignal>, output: Output) -> Nboard {
        Nboard::try_new(settings, stop, output)
            .expect("8x8 Reversi with the default table always exists")
    }

    /// [`Nboard::new`], or the error when not even the default table can be had (a server whose
    /// shared table memory is used up).
    pub fn try_new(
        settings: Settings,
        stop: Arc<StopSignal>,
        output: Output,
    ) -> Result<Nboard, EngineError> {
        let session =
            new_session("reversi", &[], settings.clone(), stop.clone(), None).or_else(|error| {
                let settings = Settings {
                    hash_megabytes: Settings::default().hash_megabytes,
                    ..settings
                };
                log::warn!("{error}: using a {} MB table", settings.hash_megabytes);
                new_session("reversi", &[], settings, stop.clone(), None)
            })?;
        let record = Record::start_of_game(8, session.position());
        Ok(Nboard {
            session,
            stop,
            output,
            size: 8,
            depth: None,
            contempt: 0.0,
            record,
        })
    }

    /// The game in progress.
    pub fn session(&self) -> &dyn Session {
        self.session.as_ref()
    }

    /// The depth `set depth` gave, if any.
    pub fn depth(&self) -> Option<u32> {
        self.depth
    }

    /// The contempt `set contempt` gave, in centi-discs. It is accepted and kept, but the search
    /// scores every draw as 0.
    pub fn contempt(&self) -> f64 {
        self.contempt
    }

    /// Carries out one line and writes its replies.
    ///
    /// # Errors
    /// An [`NboardError`] when the line is ignored: an unknown command, bad arguments, a malformed
    /// record or a move the game refuses; the game is unchanged then.
    pub fn execute(&mut self, line: &str) -> Result<Flow, NboardError> {
        let (word, rest) = split_word(line);
        let lower = word.to_ascii_lowercase();
        match COMMANDS.iter().find(|(name, _)| *name == lower) {
            Some((_, handler)) => handler(self, rest),
            // Protocol version 1 sends a move alone, without `move`.
            None if rest.is_empty() && ggf::parse_move(0, word).is_ok() => play(self, word),
            None => Err(NboardError::Unknown),
        }
    }

    fn line(&self, text: &str) {
        self.output.line(text);
    }

    fn empties(&self) -> u32 {
        let position = self.session.position();
        let board = position.split_whitespace().next().unwrap_or("");
        board.bytes().filter(|&cell| cell == b'-').count() as u32
    }

    /// The limits a search gets: the engine's own without a depth; with one, that depth, or no
    /// depth at all where the solver takes over.
    fn limits(&self) -> Option<Limits> {
        let depth = self.depth?;
        if self.session.has_solver() && self.empties() <= exact_empties(depth) {
            // No depth and no time: the engine solves exactly (full strength solves from 24
            // empties, more than exact_empties ever gives), and only a `ping` ends it sooner.
            Some(Limits::default())
        } else {
            Some(Limits {
                depth: Some(depth),
                ..Limits::default()
            })
        }
    }

    /// Searches the current position. Each iteration is reported as `nodestats` and `search`
    /// lines for its best `shown` moves, and the final result too when it differs from the last
    /// iteration's.
    fn search(&mut self, mode: Mode, shown: usize) -> Result<Report<String>, NboardError> {
        let request = Request {
            player: None,
            mode,
            limits: self.limits(),
            received: None,
        };
        let output = self.output.clone();
        let mut last = Vec::new();
        let mut sink = |report: &Report<String>| {
            if shown > 0 {
                output.line(&node_stats(report));
                last = search_lines(report, shown);
                for line in &last {
                    output.line(line);
                }
            }
        };
        let found = self.session.search(&request, &mut sink)?;
        if shown > 0 {
            let lines = search_lines(&found, shown);
            if lines != last {
                self.line(&node_stats(&found));
                for line in &lines {
                    self.line(line);
                }
            }
        }
        Ok(found)
    }

    /// Loads `record` up to its `count`th move and returns its moves with implied passes written
    /// out. On an error the session may be anywhere: the caller loads a good record again.
    fn replay(
        &mut self,
        record: &Record,
        count: usize,
    ) -> Result<Vec<(Player, String)>, NboardError> {
        if record.size != self.size {
            let options = [("size".to_string(), record.size.to_string())];
            // Check the size before the session gives up its table.
            games::create("reversi", &options)?;
            let settings = self.session.settings().clone();
            let table = self.session.take_table();
            self.session = new_session(
                "reversi",
                &options,
                settings,
                self.stop.clone(),
                Some(table),
            )?;
            self.size = record.size;
        }
        self.session.set_position(&record.start)?;
        let mut moves = Vec::with_capacity(count);
        for (player, mv) in &record.moves[..count] {
            let side = self.session.side_to_move();
            self.session.play(Some(*player), mv)?;
            if side != *player {
                moves.push((side, "pass".to_string()));
            }
            moves.push((*player, mv.clone()));
        }
        Ok(moves)
    }

    /// Loads a new game; on an error the game stays as it was.
    fn load(&mut self, mut record: Record) -> Result<(), NboardError> {
        let count = record.moves.len();
        match self.replay(&record, count) {
            Ok(moves) => {
                record.moves = moves;
                self.record = record;
                Ok(())
            }
            Err(error) => {
                self.restore();
                Err(error)
            }
        }
    }

    /// Brings the session back to the whole recorded game.
    fn restore(&mut self) {
        let record = self.record.clone();
        if let Err(error) = self.replay(&record, record.moves.len()) {
            log::error!("the game could not be restored: {error}");
        }
        self.record = record;
    }

    /// Plays `mv` for the side to move, or for the other side after the side to move's forced
    /// pass (a GUI may leave passes out).
    fn apply(&mut self, mv: &str) -> Result<(), NboardError> {
        let side = self.session.side_to_move();
        match self.session.play(Some(side), mv) {
            Ok(()) => self.record.moves.push((side, mv.to_string())),
            Err(error) if mv != "pass" => {
                let other = (side + 1) % self.session.player_count();
                self.session.play(Some(other), mv).map_err(|_| error)?;
                self.record.moves.push((side, "pass".to_string()));
                self.record.moves.push((other, mv.to_string()));
            }
            Err(error) => return Err(error.into()),
        }
        Ok(())
    }

    /// The result of a finished game in discs for the side to move.
    fn final_margin(&self) -> Option<i32> {
        let outcome = self.session.outcome()?;
        Some(match outcome.winner() {
            None => 0,
            Some(winner) if winner == self.session.side_to_move() => outcome.margin,
            Some(_) => -outcome.margin,
        })
    }
}

impl FrontEnd for Nboard {
    fn respond(&mut self, line: &str) -> Flow {
        match self.execute(line) {
            Ok(flow) => flow,
            Err(error) => {
                log::warn!("ignored '{line}': {error}");
                Flow::Continue
            }
        }
    }

    fn refuse(&mut self, _: Option<&str>, reason: &str) {
        log::warn!("ignored a line: {reason}");
    }
}

/// The first word of a line and the rest, trimmed.
fn split_word(line: &str) -> (&str, &str) {
    let line = line.trim();
    match line.split_once(char::is_whitespace) {
        Some((word, rest)) => (word, rest.trim()),
        None => (line, ""),
    }
}

fn nboard(front: &mut Nboard, version: &str) -> Result<Flow, NboardError> {
    if !VERSIONS.contains(&version) {
        log::warn!("NBoard protocol version '{version}' is not 1 or 2; speaking version 2");
    }
    front.line(&format!("set myname {NAME}"));
    Ok(Flow::Continue)
}

fn set(front: &mut Nboard, rest: &str) -> Result<Flow, NboardError> {
    let (what, value) = split_word(rest);
    match what.to_ascii_lowercase().as_str() {
        "depth" => {
            let mut settings = front.session.settings().clone();
            options::find("depth")
                .and_then(|option| option.set(&mut settings, value))
                .map_err(NboardError::Usage)?;
            front.depth = settings.depth;
            front.line(&format!("set myname {NAME}"));
        }
        "game" => {
            let game = ggf::parse_game(value)?;
            let record = Record {
                size: game.size,
                start: notation::write_position(&game.cells, game.side),
                moves: game
                    .moves
                    .into_iter()
                    .map(|mv| (mv.player, mv.mv))
                    .collect(),
            };
            front.load(record)?;
        }
        "contempt" => {
            let contempt = value
                .parse::<f64>()
                .ok()
                .filter(|contempt| contempt.is_finite())
                .ok_or_else(|| NboardError::Usage(format!("bad contempt '{value}'")))?;
            log::info!("contempt {contempt} kept, but draws always score 0");
            front.contempt = contempt;
        }
        _ => return Err(NboardError::Unknown),
    }
    Ok(Flow::Continue)
}

fn play(front: &mut Nboard, item: &str) -> Result<Flow, NboardError> {
    let mv = ggf::parse_move(0, item)?;
    front.apply(&mv.mv)?;
    Ok(Flow::Continue)
}

fn thinking(front: &Nboard) {
    front.line(&format!("status {NAME} is thinking"));
}

fn waiting(front: &Nboard) {
    front.line(&format!("status {NAME} is waiting"));
}

fn hint(front: &mut Nboard, count: &str) -> Result<Flow, NboardError> {
    let wanted = if count.is_empty() {
        1
    } else {
        count
            .parse::<usize>()
            .ok()
            .filter(|&wanted| wanted > 0)
            .ok_or_else(|| NboardError::Usage(format!("bad number of hints '{count}'")))?
    };
    thinking(front);
    let found = front.search(
        Mode::Analyze {
            lines: Some(wanted),
        },
        wanted,
    );
    waiting(front);
    found?;
    Ok(Flow::Continue)
}

fn go(front: &mut Nboard, _: &str) -> Result<Flow, NboardError> {
    thinking(front);
    let found = front.search(Mode::Play { commit: false }, 1);
    if let Ok(found) = &found {
        let best = found.best();
        let (eval, _) = evaluation(best, found);
        front.line(&format!(
            "=== {}/{eval}/{:.2}",
            square(&best.mv),
            found.elapsed.as_secs_f64()
        ));
    }
    waiting(front);
    found?;
    Ok(Flow::Continue)
}

fn ping(front: &mut Nboard, number: &str) -> Result<Flow, NboardError> {
    front.line(format!("pong {number}").trim_end());
    Ok(Flow::Continue)
}

fn learn(front: &mut Nboard, _: &str) -> Result<Flow, NboardError> {
    log::info!("no opening book: the game is not stored");
    front.line("learned");
    Ok(Flow::Continue)
}

fn analyze(front: &mut Nboard, _: &str) -> Result<Flow, NboardError> {
    front.line(&format!("status {NAME} is analyzing"));
    let record = front.record.clone();
    let total = record.moves.len();
    let mut result = Ok(Flow::Continue);
    for count in (0..=total).rev() {
        if front.stop.pending() > 0 || front.stop.is_closed() {
            log::info!("analysis interrupted with {count} positions left");
            break;
        }
        if let Err(error) = front.replay(&record, count) {
            result = Err(error);
            break;
        }
        let eval = match front.final_margin() {
            Some(margin) => margin.to_string(),
            None => match front.search(Mode::Analyze { lines: Some(1) }, 0) {
                Ok(found) => evaluation(found.best(), &found).0,
                Err(error) => {
                    result = Err(error);
                    break;
                }
            },
        };
        front.line(&format!("analysis {count} {eval}"));
    }
    front.restore();
    waiting(front);
    result
}

/// A move as NBoard writes it: `F5`, or `PA` for a pass.
fn square(mv: &str) -> String {
    if mv.eq_ignore_ascii_case("pass") {
        "PA".to_string()
    } else {
        mv.to_ascii_uppercase()
    }
}

/// A line's evaluation for the side to move and its depth, as NBoard writes them: a heuristic
/// score with two decimals at the iteration's depth; an exact result in whole discs at `100%`; a
/// win or loss the search proved by reaching the end, with the margin it saw, at `100%W`.
fn evaluation(line: &Line<String>, report: &Report<String>) -> (String, String) {
    let proven = |margin: i32, sign: i32| {
        let depth = if report.solved { "100%" } else { "100%W" };
        ((sign * margin.max(1)).to_string(), depth.to_string())
    };
    match line.score {
        Score::Heuristic(value) => (format!("{value:.2}"), report.depth.to_string()),
        Score::Exact(value) => (value.to_string(), "100%".to_string()),
        Score::Win { margin, .. } => proven(margin, 1),
        Score::Loss { margin, .. } => proven(margin, -1),
    }
}

/// `search <pv> <eval> 0 <depth>` for the best `shown` lines of a report; the PV is written
/// `F5-D6-C3`.
fn search_lines(report: &Report<String>, shown: usize) -> Vec<String> {
    report
        .lines
        .iter()
        .take(shown)
        .map(|line| {
            let pv = line
                .pv
                .iter()
                .map(|mv| square(mv))
                .collect::<Vec<_>>()
                .join("-");
            let (eval, depth) = evaluation(line, report);
            format!("search {pv} {eval} 0 {depth}")
        })
        .collect()
}

/// `nodestats <nodes> <seconds>`.
fn node_stats(report: &Report<String>) -> String {
    format!(
        "nodestats {} {:.2}",
        report.nodes,
        report.elapsed.as_secs_f64()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ScoreBound;
    use std::time::Duration;

    fn report(score: Score, solved: bool) -> Report<String> {
        Report {
            depth: 7,
            selective_depth: 9,
            lines: vec![Line {
                mv: "pass".into(),
                score,
                bound: ScoreBound::Exact,
                depth: 7,
                pv: vec!["pass".into(), "d3".into()],
            }],
            nodes: 1234,
            elapsed: Duration::from_millis(1500),
            solved,
        }
    }

    #[test]
    fn reports_are_written_as_nboard_reads_them() {
        assert_eq!(
            search_lines(&report(Score::Heuristic(-1.256), false), 1),
            ["search PA-D3 -1.26 0 7"]
        );
        assert_eq!(
            search_lines(&report(Score::Exact(18), true), 1),
            ["search PA-D3 18 0 100%"]
        );
        let win = Score::Win {
            plies: 5,
            margin: 6,
        };
        assert_eq!(
            search_lines(&report(win, false), 1),
            ["search PA-D3 6 0 100%W"]
        );
        let loss = Score::Loss {
            plies: 5,
            margin: 0,
        };
        assert_eq!(
            search_lines(&report(loss, false), 1),
            ["search PA-D3 -1 0 100%W"]
        );
        assert_eq!(
            node_stats(&report(Score::Exact(0), true)),
            "nodestats 1234 1.50"
        );
    }

    #[test]
    fn the_solver_takes_over_near_the_end() {
        assert_eq!(exact_empties(1), 7);
        assert_eq!(exact_empties(12), 18);
        assert_eq!(exact_empties(40), MAX_SOLVE_EMPTIES);
        assert_eq!(exact_empties(u32::MAX), MAX_SOLVE_EMPTIES);
    }

    #[test]
    fn words_are_split() {
        assert_eq!(split_word("  set  depth 8 "), ("set", "depth 8"));
        assert_eq!(split_word("go"), ("go", ""));
    }
}
