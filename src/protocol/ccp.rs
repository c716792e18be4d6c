//! CCP, the UCI-like Chinese Checkers protocol of the CCERL-2P10 rating list (JumpStar's
//! referee). See `protocol.md`, section "CCP", for a session.
//!
//! The referee keeps the game and sends the whole position before each `go`: `position cells
//! <121 characters> player <0|1> ply <N>`, the holes in reading order with `.` for an empty
//! hole, `0` and `1` for the players' pieces. The engine answers `go` with `info` lines and
//! `bestmove <path>`, a hop path of hole numbers. CCP numbers holes from 0 where we number them
//! from 1 (its hole = ours - 1), and its players 0 and 1 are our players 1 and 2; the star and
//! the reading order are the same. Player 0 starts at the top and moves first.
//!
//! The game is played under the CCERL rules, the `rules=ccerl` preset of Chinese Checkers: the
//! strict goal lock, the anti-block finish, the equal-turn draw and a draw at ply 240, counted
//! from the `ply` the position gives.
//!
//! Every line that cannot be carried out gets `info string error <why>`; the position stays as it
//! was and the session goes on.

use super::input::Interrupt;
use super::output::Output;
use super::{Flow, FrontEnd};
use crate::engine::clock;
use crate::engine::{Engine, EngineError, Mode, Report, Request, Score, Settings, StopSignal};
use crate::game::Rules;
use crate::game::{GameError, Player};
use crate::games;
use crate::games::chinese_checkers::board::{bit, CAMP_MASKS, HOLES, NEIGHBOUR_MASKS};
use crate::games::chinese_checkers::variant::{ccerl_rules, CCERL_MAX_PLIES};
use crate::games::chinese_checkers::{moves, ChineseCheckers, ChineseCheckersMove, Jumps};
use crate::search::limits::Limits;
use std::sync::Arc;
use std::time::Duration;

/// The lines that interrupt a search: `stop` ends it, `quit` closes the input.
pub const INTERRUPTS: &[(&str, Interrupt)] =
    &[("stop", Interrupt::Stop), ("quit", Interrupt::Quit)];

/// The engine's name in `id name`.
pub const NAME: &str = "Tabula";

/// The move a referee reads as "no move".
const NO_MOVE: &str = "0000";

/// Why a line was refused.
#[derive(Debug, thiserror::Error)]
pub enum CcpError {
    /// Not a command of the protocol.
    #[error("unknown command '{0}'")]
    Unknown(String),
    /// A command with arguments it cannot take.
    #[error("{0}")]
    Usage(String),
    /// A move that is not legal in the position (the reason numbers holes from 1, as Tabula does).
    #[error("illegal move {mv}: {reason} (Tabula's hole numbers, from 1)")]
    Illegal {
        /// The move as CCP wrote it.
        mv: String,
        /// Why it is illegal.
        reason: String,
    },
    /// The engine refused (a finished game...).
    #[error(transparent)]
    Engine(#[from] EngineError),
}

impl From<GameError> for CcpError {
    fn from(error: GameError) -> Self {
        CcpError::Engine(EngineError::Game(error))
    }
}

fn usage(text: impl Into<String>) -> CcpError {
    CcpError::Usage(text.into())
}

/// The CCP front-end: a two-player Chinese Checkers engine under the CCERL rules.
pub struct Ccp {
    engine: Engine<ChineseCheckers>,
    output: Output,
    /// The ply of the current position in the referee's count.
    ply: u32,
}

impl Ccp {
    /// A new engine on the start position.
    ///
    /// # Errors
    /// The table the settings ask for cannot be had.
    pub fn try_new(
        settings: Settings,
        stop: Arc<StopSignal>,
        output: Output,
    ) -> Result<Ccp, EngineError> {
        let start = game_at_ply(0)?;
        let engine = Engine::new(start, settings, stop)?;
        Ok(Ccp {
            engine,
            output,
            ply: 0,
        })
    }

    /// The position searched now.
    pub fn position(&self) -> &ChineseCheckers {
        self.engine.position()
    }

    /// Carries out one line and writes its replies.
    ///
    /// # Errors
    /// A [`CcpError`] when the line is refused; the position is unchanged then.
    pub fn execute(&mut self, line: &str) -> Result<Flow, CcpError> {
        let (word, rest) = split_word(line);
        match word.to_ascii_lowercase().as_str() {
            "ccp" => {
                self.line(&format!("id name {NAME} {}", env!("CARGO_PKG_VERSION")));
                self.line("id author the Tabula developers");
                self.line(&format!(
                    "option name Threads type spin default {} min 1 max 256",
                    self.engine.settings().threads
                ));
                self.line(&format!(
                    "option name Hash type spin default {} min 1 max 65536",
                    self.engine.settings().hash_megabytes
                ));
                self.line(&format!(
                    "option name Level type spin default {} min 0 max 10",
                    self.engine.settings().level
                ));
                self.line(&format!(
                    "option name Weights type string default {}",
                    self.engine.option_value(games::WEIGHTS)?
                ));
                self.line("ccpok");
            }
            "protocol" => self.line("protocol ccp 1"),
            "isready" => self.line("readyok"),
            "setoption" => self.set_option(rest)?,
            "ucinewgame" | "newgame" => {
                let mut start = game_at_ply(0)?;
                start.take_weights_of(self.engine.position());
                self.engine.set_position(start);
                self.ply = 0;
            }
            "position" => self.set_position(rest)?,
            "go" => self.go(rest)?,
            // A search is stopped by the input reader; a `stop` without one has nothing to do.
            "stop" => {}
            "quit" => return Ok(Flow::Quit),
            _ => return Err(CcpError::Unknown(word.to_string())),
        }
        Ok(Flow::Continue)
    }

    fn line(&self, text: &str) {
        self.output.line(text);
    }

    /// `setoption name <name> value <value>`: the engine's options (`Threads`, `Hash`, `Level`
    /// and the rest of the options table).
    fn set_option(&mut self, rest: &str) -> Result<(), CcpError> {
        let rest = rest
            .strip_prefix("name ")
            .ok_or_else(|| usage("setoption name <name> value <value>"))?;
        let (name, value) = match rest.split_once(" value ") {
            Some((name, value)) => (name.trim(), value.trim()),
            None => (rest.trim(), ""),
        };
        let name = match name.to_ascii_lowercase().as_str() {
            "hash" => "hash".to_string(),
            other => other.to_string(),
        };
        self.engine.set_option(&name, value)?;
        Ok(())
    }

    /// `position startpos [moves ...]` or `position cells <121> player <0|1> ply <N> [moves ...]`.
    fn set_position(&mut self, rest: &str) -> Result<(), CcpError> {
        let words: Vec<&str> = rest.split_whitespace().collect();
        let (mut game, ply, used) = match words.first().map(|word| word.to_ascii_lowercase()) {
            Some(word) if word == "startpos" => (game_at_ply(0)?, 0, 1),
            Some(word) if word == "cells" => {
                let usage_text = "position cells <121 characters . 0 1> player <0|1> ply <N>";
                if words.len() < 6
                    || !words[2].eq_ignore_ascii_case("player")
                    || !words[4].eq_ignore_ascii_case("ply")
                {
                    return Err(usage(usage_text));
                }
                let side = match words[3] {
                    "0" => 0,
                    "1" => 1,
                    other => {
                        return Err(usage(format!("the player must be 0 or 1, not '{other}'")))
                    }
                };
                let ply: u32 = words[5].parse().map_err(|_| {
                    usage(format!(
                        "the ply must be a whole number, not '{}'",
                        words[5]
                    ))
                })?;
                (position_from_cells(words[1], side, ply)?, ply, 6)
            }
            _ => return Err(usage("position startpos | position cells ... [moves ...]")),
        };
        game.take_weights_of(self.engine.position());
        let mut played = 0;
        if let Some(word) = words.get(used) {
            if !word.eq_ignore_ascii_case("moves") {
                return Err(usage(format!("expected 'moves', not '{word}'")));
            }
            for text in &words[used + 1..] {
                let mv = parse_ccp_move(&game, text)?;
                if !game.is_legal(mv) {
                    return Err(CcpError::Illegal {
                        mv: text.to_string(),
                        reason: game.illegal_reason(mv),
                    });
                }
                game.play_unchecked(mv);
                played += 1;
            }
        }
        self.engine.set_position(game);
        self.ply = ply + played;
        Ok(())
    }

    /// `go movetime <ms> | nodes <n> | depth <d> | wtime <ms> btime <ms> [winc <ms> binc <ms>]
    /// | infinite` (limits combine; the first to be reached ends the search).
    fn go(&mut self, rest: &str) -> Result<(), CcpError> {
        let limits = self.limits(rest)?;
        if self.position().outcome().is_some() {
            self.line("info string error the game is over");
            self.line(&format!("bestmove {NO_MOVE}"));
            return Ok(());
        }
        let request = Request {
            limits,
            ..Request::new(Mode::Play { commit: false })
        };
        let output = self.output.clone();
        let start = self.position().clone();
        let mut report_line = move |report: &Report<ChineseCheckersMove>| {
            output.line(&info_line(&start, report));
        };
        match self.engine.search(&request, &mut report_line) {
            Ok(report) => {
                let position = self.position();
                let text = report
                    .lines
                    .first()
                    .map_or(NO_MOVE.to_string(), |line| ccp_move(position, line.mv));
                self.line(&format!("bestmove {text}"));
                Ok(())
            }
            Err(error) => {
                // The referee waits for a bestmove: give one even so.
                self.line(&format!("info string error {error}"));
                let fallback = self.fallback_move();
                self.line(&format!("bestmove {fallback}"));
                Ok(())
            }
        }
    }

    /// A legal move when the search gave none (stopped at once): the first legal one.
    fn fallback_move(&self) -> String {
        let position = self.position();
        let mut moves = Vec::new();
        position.generate_moves(&mut moves);
        moves
            .first()
            .map_or(NO_MOVE.to_string(), |&mv| ccp_move(position, mv))
    }

    /// The limits `go` asks for; `None` for the engine's own.
    fn limits(&self, rest: &str) -> Result<Option<Limits>, CcpError> {
        let words: Vec<&str> = rest.split_whitespace().collect();
        let mut limits = Limits::default();
        let mut any = false;
        let (mut wtime, mut btime, mut winc, mut binc) = (None, None, 0u64, 0u64);
        let mut index = 0;
        while index < words.len() {
            let key = words[index].to_ascii_lowercase();
            if key == "infinite" {
                any = true;
                index += 1;
                continue;
            }
            let value = words
                .get(index + 1)
                .ok_or_else(|| usage(format!("go {key} needs a value")))?;
            let number: u64 = value
                .parse()
                .map_err(|_| usage(format!("go {key}: '{value}' is not a whole number")))?;
            match key.as_str() {
                "movetime" => {
                    if number == 0 {
                        return Err(usage("go movetime must be at least 1"));
                    }
                    let overhead = self.engine.settings().overhead;
                    limits =
                        limits.tightest(clock::move_time(Duration::from_millis(number), overhead));
                }
                "nodes" => {
                    if number == 0 {
                        return Err(usage("go nodes must be at least 1"));
                    }
                    limits.nodes = Some(number);
                }
                "depth" => {
                    if number == 0 || number > 100 {
                        return Err(usage("go depth must be 1 to 100"));
                    }
                    limits.depth = Some(number as u32);
                }
                "wtime" => wtime = Some(number),
                "btime" => btime = Some(number),
                "winc" => winc = number,
                "binc" => binc = number,
                "movestogo" => {}
                _ => return Err(usage(format!("unknown go argument '{key}'"))),
            }
            any = true;
            index += 2;
        }
        // `wtime` is player 0's time, `btime` player 1's: a share of what is left.
        let side: Player = self.position().side_to_move();
        let (left, increment) = if side == 0 {
            (wtime, winc)
        } else {
            (btime, binc)
        };
        if let Some(left) = left {
            let share = left / 25 + increment * 3 / 4;
            let share = share.clamp(1, left.max(1));
            let overhead = self.engine.settings().overhead;
            limits = limits.tightest(clock::move_time(Duration::from_millis(share), overhead));
        }
        Ok(any.then_some(limits))
    }
}

impl FrontEnd for Ccp {
    fn respond(&mut self, line: &str) -> Flow {
        match self.execute(line) {
            Ok(flow) => flow,
            Err(error) => {
                log::warn!("'{line}': {error}");
                self.line(&format!("info string error {error}"));
                Flow::Continue
            }
        }
    }

    fn refuse(&mut self, _id: Option<&str>, reason: &str) {
        log::warn!("refused a line: {reason}");
        self.line(&format!("info string error {reason}"));
    }
}

/// The first word of a line and the rest.
fn split_word(line: &str) -> (&str, &str) {
    let line = line.trim();
    match line.split_once(char::is_whitespace) {
        Some((word, rest)) => (word, rest.trim()),
        None => (line, ""),
    }
}

/// The CCERL start position, with the 240-ply draw counted from `ply`.
fn game_at_ply(ply: u32) -> Result<ChineseCheckers, GameError> {
    if ply >= CCERL_MAX_PLIES {
        return Err(GameError::InvalidPosition(format!(
            "the game is drawn at ply {CCERL_MAX_PLIES}, and the position is at ply {ply}"
        )));
    }
    ChineseCheckers::from_rules(crate::games::chinese_checkers::RuleSet {
        max_moves: CCERL_MAX_PLIES - ply,
        ..ccerl_rules()
    })
}

/// The position a `position cells` line gives.
fn position_from_cells(cells: &str, side: Player, ply: u32) -> Result<ChineseCheckers, CcpError> {
    let count = cells.chars().count();
    if count != HOLES {
        return Err(usage(format!(
            "the cells must be {HOLES} characters, not {count}"
        )));
    }
    let mut board = String::with_capacity(HOLES);
    for (hole, character) in cells.chars().enumerate() {
        board.push(match character {
            '.' => '.',
            '0' => '1',
            '1' => '2',
            other => return Err(usage(format!("cell {hole}: '{other}' is not one of . 0 1"))),
        });
    }
    let mut game = game_at_ply(ply)?;
    game.set_position_string(&format!("{board} {}", side + 1))?;
    if game.outcome().is_some() {
        return Err(usage("the game is over in this position"));
    }
    Ok(game)
}

/// Reads a CCP move, a path of holes numbered from 0 joined by `-` (or `,`), as a move of ours.
/// A path of two holes is the move between them, however it is made.
fn parse_ccp_move(game: &ChineseCheckers, text: &str) -> Result<ChineseCheckersMove, CcpError> {
    let holes: Result<Vec<usize>, _> = text
        .split(['-', ','])
        .map(|item| item.parse::<usize>())
        .collect();
    let holes = holes
        .ok()
        .filter(|holes| holes.len() >= 2 && holes.iter().all(|&hole| hole < HOLES))
        .ok_or_else(|| {
            usage(format!(
                "'{text}' is not a move: two or more holes 0..120 joined by '-'"
            ))
        })?;
    let ours: Vec<String> = holes.iter().map(|hole| (hole + 1).to_string()).collect();
    game.parse_move(&ours.join("-"))
        .map_err(|error| match error {
            GameError::IllegalMove { reason, .. } => CcpError::Illegal {
                mv: text.to_string(),
                reason,
            },
            other => other.into(),
        })
}

/// A move as CCP writes it: the full path, holes numbered from 0.
pub fn ccp_move(position: &ChineseCheckers, mv: ChineseCheckersMove) -> String {
    if mv.is_pass() {
        return NO_MOVE.to_string();
    }
    witness_path(position, mv)
        .iter()
        .map(|hole| hole.to_string())
        .collect::<Vec<_>>()
        .join("-")
}

/// A path (0-based holes) that makes `mv` in `position`: the step, or a shortest chain of hops
/// that keeps the strict goal lock where the rules have it.
pub fn witness_path(position: &ChineseCheckers, mv: ChineseCheckersMove) -> Vec<usize> {
    let (from, to) = (mv.from as usize, mv.to as usize);
    let occupied = position.occupied();
    if NEIGHBOUR_MASKS[from] & bit(to) != 0 {
        return vec![from, to];
    }
    let variant = position.variant();
    let rules = variant.rules();
    let strict = rules.goal_lock && rules.strict_lock;
    let goal = position
        .owner(from)
        .map_or(0, |seat| CAMP_MASKS[variant.goal_camp(seat)]);
    let others = occupied & !bit(from);
    let mut parent = [usize::MAX; HOLES];
    let mut reached = bit(from);
    let mut queue = std::collections::VecDeque::from([from]);
    while let Some(hole) = queue.pop_front() {
        if hole == to {
            break;
        }
        let mut landings = match variant.jumps() {
            Jumps::Standard => moves::standard_hops(hole, others),
            Jumps::Long => moves::long_hops(hole, others),
        } & !reached;
        if strict && goal & bit(hole) != 0 {
            landings &= goal;
        }
        reached |= landings;
        while landings != 0 {
            let landing = landings.trailing_zeros() as usize;
            landings &= landings - 1;
            parent[landing] = hole;
            queue.push_back(landing);
        }
    }
    if parent[to] == usize::MAX {
        // Not reachable by hops (it cannot happen for a legal move): the endpoints alone.
        return vec![from, to];
    }
    let mut path = vec![to];
    let mut hole = to;
    while hole != from {
        hole = parent[hole];
        path.push(hole);
    }
    path.reverse();
    path
}

/// An `info` line for one finished iteration: depth, nodes, time, score and the principal
/// variation as CCP paths.
fn info_line(start: &ChineseCheckers, report: &Report<ChineseCheckersMove>) -> String {
    let mut text = format!(
        "info depth {} seldepth {} nodes {} time {} nps {}",
        report.depth,
        report.selective_depth,
        report.nodes,
        report.elapsed.as_millis(),
        report.nodes_per_second()
    );
    if let Some(best) = report.lines.first() {
        match best.score {
            Score::Win { plies, .. } => {
                text.push_str(&format!(" score mate {}", plies.div_ceil(2)))
            }
            Score::Loss { plies, .. } => {
                text.push_str(&format!(" score mate -{}", plies.div_ceil(2)))
            }
            score => text.push_str(&format!(
                " score cp {}",
                (score.as_units(0.0) * 100.0).round()
            )),
        }
        let mut position = start.clone();
        let mut pv = Vec::new();
        for &mv in &best.pv {
            if !position.is_legal(mv) {
                break;
            }
            pv.push(ccp_move(&position, mv));
            position.play_unchecked(mv);
        }
        if !pv.is_empty() {
            text.push_str(" pv ");
            text.push_str(&pv.join(" "));
        }
    }
    text
}
