//! The engine façade: one game in progress, its history, search settings, clock and table.
//!
//! [`Engine`] is generic over the game. The protocol front-ends talk to it through the object-safe
//! [`Session`] trait, in move and position text, so that the game can be chosen at run time.

use crate::game::{Game, GameError, Player, SolveRequest, Strength};
use crate::score;
use crate::search::{self, Iteration, RootLine, SearchRequest, Worker};
use crate::time_management::{self, Clock, Limits};
use crate::transposition::TranspositionTable;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Errors the engine reports to a front-end.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The game rejected a move, position or option.
    #[error(transparent)]
    Game(#[from] GameError),
    /// The named player is not the one to move (and no pass can be implied).
    #[error("it is {expected}'s turn, not {given}'s")]
    WrongPlayer {
        /// The player to move.
        expected: String,
        /// The player named.
        given: String,
    },
    /// `undo` with no move to take back.
    #[error("no move to undo")]
    NothingToUndo,
    /// `final_score` while the game goes on.
    #[error("the game is not over")]
    GameNotOver,
    /// An option name or value the engine does not know.
    #[error("{0}")]
    InvalidOption(String),
    /// The game has no such feature.
    #[error("{0}")]
    Unsupported(String),
    /// The search was stopped before it had a result.
    #[error("stopped before a result")]
    Stopped,
}

/// The stop flag shared by the searches and the front-end's input reader, with a count of the
/// `stop` (or `quit`) lines read but not yet handled.
///
/// The reader raises the flag as soon as it reads a stop, even while the protocol thread is busy in
/// a search. A new search lowers the flag unless a stop is still pending, so a `stop` that arrives
/// just before the search it was meant for still stops it.
#[derive(Debug, Default)]
pub struct StopSignal {
    flag: AtomicBool,
    pending: AtomicUsize,
}

impl StopSignal {
    /// The flag every search thread polls.
    pub fn flag(&self) -> &AtomicBool {
        &self.flag
    }

    /// A stop was read: stop any search now.
    pub fn request(&self) {
        self.pending.fetch_add(1, Ordering::SeqCst);
        self.flag.store(true, Ordering::SeqCst);
    }

    /// A stop line has been handled.
    pub fn handled(&self) {
        let _ = self
            .pending
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |count| {
                count.checked_sub(1)
            });
    }

    /// Readies the flag for a new search.
    pub fn arm(&self) {
        self.flag.store(false, Ordering::SeqCst);
        if self.pending.load(Ordering::SeqCst) > 0 {
            self.flag.store(true, Ordering::SeqCst);
        }
    }

    /// Whether the flag is raised.
    pub fn is_raised(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
    }
}

/// How long `genmove` may think when no depth is set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveTime {
    /// [`DEFAULT_MOVE_TIME`] unless a clock is set.
    Default,
    /// A fixed time per move (the clock may cut it shorter).
    Fixed(Duration),
    /// No time limit: the search runs to its depth or until stopped.
    Unlimited,
}

/// Where per-iteration information lines go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InfoMode {
    /// Nowhere.
    Off,
    /// To stderr through `log` (at info level).
    Log,
    /// To stdout, as `info ...` lines before the reply.
    Protocol,
}

/// Engine settings that outlive a game: `set_game` carries them over.
#[derive(Clone, Debug)]
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
}

/// The time per move when neither a depth, a node count, a move time nor a clock is set.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_millis(1000);

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
        }
    }
}

/// Depth cap, evaluation strength and solver reach of each level.
struct LevelProfile {
    depth: Option<u32>,
    strength: u8,
    /// Solve exactly from this far from the end (empties in Reversi).
    solve_from: u32,
    /// Cap on the time per move.
    time: Option<Duration>,
}

fn level_profile(level: u8) -> LevelProfile {
    let (depth, strength, solve_from, millis) = match level {
        1 => (Some(1), 1, 0, Some(100)),
        2 => (Some(1), 2, 4, Some(100)),
        3 => (Some(2), 3, 6, Some(200)),
        4 => (Some(3), 4, 8, Some(300)),
        5 => (Some(4), 6, 10, Some(500)),
        6 => (Some(6), 7, 12, Some(1000)),
        7 => (Some(8), 8, 16, None),
        _ => (None, 8, 24, None),
    };
    LevelProfile {
        depth,
        strength,
        solve_from,
        time: millis.map(Duration::from_millis),
    }
}

/// How far from the end (empties in Reversi) the exact solver can usually finish within
/// `time`: about 14 empties in 5 ms, and each further empty costs a factor of about 2.6 (measured on
/// the FForum and FFO sets, one thread; a second thread is worth about one empty).
fn solvable_distance(time: Option<Duration>, threads: usize) -> u32 {
    let Some(time) = time else {
        return u32::MAX;
    };
    let ratio = time.as_secs_f64() / 0.005;
    if ratio <= 1.0 {
        return 14;
    }
    let extra = if threads > 1 { 1 } else { 0 };
    14 + (ratio.ln() / 2.6f64.ln()) as u32 + extra
}

/// One analysed move, as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalysisLine {
    /// The move.
    pub mv: String,
    /// Its score as the game writes it (`+1.25`, `+18`, `win`...).
    pub score: String,
    /// Whether the score is exact (solved); otherwise it comes from a heuristic search.
    pub exact: bool,
    /// Whether `score` is only an upper bound.
    pub bound: bool,
    /// The search depth.
    pub depth: u32,
    /// The principal variation.
    pub pv: Vec<String>,
}

/// The result of `genmove`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveChoice {
    /// The move, or `resign` is never used: the engine always plays on.
    pub mv: String,
    /// Its analysis.
    pub line: AnalysisLine,
}

/// What the protocol needs from a game in progress, in text. Implemented by [`Engine`] for every game.
pub trait Session: Send {
    /// The game's name.
    fn game_name(&self) -> &'static str;
    /// The game's variant options.
    fn game_options(&self) -> Vec<(String, String)>;
    /// Back to the start position; the settings stay.
    fn clear(&mut self);
    /// The position string.
    fn position(&self) -> String;
    /// Loads a position string; the history is cleared.
    fn set_position(&mut self, text: &str) -> Result<(), EngineError>;
    /// The player to move, as the game writes players.
    fn side_to_move(&self) -> String;
    /// Plays a move for `player` (the side to move when `None`), passing for the other side first
    /// when it has no other move.
    fn play(&mut self, player: Option<&str>, mv: &str) -> Result<(), EngineError>;
    /// Takes back the last move (and any passes implied before it).
    fn undo(&mut self) -> Result<(), EngineError>;
    /// The moves `play` accepts for `player` (the side to move when `None`): for another player,
    /// its moves after the forced passes of the players before it, and an error when one of them
    /// has a real move. Empty once the game is over.
    fn legal_moves(&self, player: Option<&str>) -> Result<Vec<String>, EngineError>;
    /// Points the side to move may not play because of a rule.
    fn forbidden_moves(&self) -> Vec<String>;
    /// A board diagram.
    fn diagram(&self) -> String;
    /// Leaf count at `depth`.
    fn perft(&self, depth: usize) -> u64;
    /// Leaf count below each move.
    fn divide(&self, depth: usize) -> Vec<(String, u64)>;
    /// [`Session::perft`] that gives up with [`EngineError::Stopped`] when the stop signal is
    /// raised (`stop`, `quit`, end of input), for the protocol.
    fn perft_until_stopped(&self, depth: usize) -> Result<u64, EngineError>;
    /// [`Session::divide`] that can be stopped like [`Session::perft_until_stopped`].
    fn divide_until_stopped(&self, depth: usize) -> Result<Vec<(String, u64)>, EngineError>;
    /// The result, GTP style: `B+10`, `W+2`, `0`, or a ranking for more than two players.
    fn final_score(&self) -> Result<String, EngineError>;
    /// Searches for `player` and plays the move when `commit` is set.
    fn genmove(
        &mut self,
        player: Option<&str>,
        commit: bool,
        info: &mut (dyn FnMut(String) + Send),
    ) -> Result<MoveChoice, EngineError>;
    /// The best `count` moves, or every move when `count` is `None`, ranked.
    fn analyze(
        &mut self,
        count: Option<usize>,
        info: &mut (dyn FnMut(String) + Send),
    ) -> Result<Vec<AnalysisLine>, EngineError>;
    /// Solves exactly: the best move and its exact score.
    fn solve(
        &mut self,
        info: &mut (dyn FnMut(String) + Send),
    ) -> Result<(String, i32), EngineError>;
    /// The engine settings.
    fn settings(&self) -> &Settings;
    /// Changes a setting.
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError>;
    /// GTP `time_settings`.
    fn time_settings(&mut self, main: Duration, byo_yomi: Duration, stones: u32);
    /// GTP `time_left`.
    fn time_left(&mut self, player: &str, time: Duration, stones: u32) -> Result<(), EngineError>;
}

struct Played<G: Game> {
    mv: G::Move,
    undo: G::Undo,
    /// A pass the engine played because the front-end moved for the other side.
    implied: bool,
}

/// A game in progress with everything needed to search it.
pub struct Engine<G: Game> {
    position: G,
    history: Vec<Played<G>>,
    settings: Settings,
    clock: Clock,
    table: TranspositionTable,
    workers: Vec<Worker<G>>,
    stop: Arc<StopSignal>,
}

impl<G: Game> Engine<G> {
    /// An engine on `position` with `settings`; `stop` is the signal front-ends raise.
    pub fn new(position: G, settings: Settings, stop: Arc<StopSignal>) -> Engine<G> {
        let table = TranspositionTable::new(settings.hash_megabytes);
        Engine {
            position,
            history: Vec::new(),
            settings,
            clock: Clock::default(),
            table,
            workers: Vec::new(),
            stop,
        }
    }

    /// The current position.
    pub fn position(&self) -> &G {
        &self.position
    }

    fn player(&self, text: Option<&str>) -> Result<Player, EngineError> {
        match text {
            None => Ok(self.position.side_to_move()),
            Some(text) => Ok(self.position.parse_player(text)?),
        }
    }

    /// A player as messages name it: a colour as it is, a number as `player 2`.
    fn describe_player(&self, player: Player) -> String {
        let text = self.position.format_player(player);
        if text.bytes().all(|byte| byte.is_ascii_digit()) {
            format!("player {text}")
        } else {
            text
        }
    }

    fn wrong_player(&self, player: Player) -> EngineError {
        EngineError::WrongPlayer {
            expected: self.describe_player(self.position.side_to_move()),
            given: self.describe_player(player),
        }
    }

    /// Plays forced passes until `player` is to move; errors (leaving the state as it was) when
    /// that cannot be done.
    fn bring_to_move(&mut self, player: Player) -> Result<(), EngineError> {
        let mut implied = 0;
        // A full round of passes is the most that can bring a player to move.
        while self.position.side_to_move() != player
            && self.position.outcome().is_none()
            && implied < self.position.player_count()
        {
            let Some(pass) = self.position.forced_pass() else {
                break;
            };
            let undo = self.position.play_unchecked(pass);
            self.history.push(Played {
                mv: pass,
                undo,
                implied: true,
            });
            implied += 1;
        }
        if self.position.side_to_move() == player || self.position.outcome().is_some() {
            return Ok(());
        }
        for _ in 0..implied {
            let played = self.history.pop().expect("implied pass");
            self.position.undo(played.mv, played.undo);
        }
        Err(self.wrong_player(player))
    }

    fn limits(&self, profile: &LevelProfile) -> Limits {
        let mut limits = Limits {
            depth: self.settings.depth.or(profile.depth),
            nodes: self.settings.nodes,
            ..Limits::default()
        };
        let player = self.position.side_to_move();
        if let Some(budget) = self
            .clock
            .budget(player, self.position.expected_moves_left())
        {
            limits = limits.tightest(budget);
        }
        let movetime = match self.settings.movetime {
            MoveTime::Fixed(time) => Some(time),
            MoveTime::Default
                if !self.clock.is_limited() && limits.depth.is_none() && limits.nodes.is_none() =>
            {
                Some(DEFAULT_MOVE_TIME)
            }
            _ => None,
        };
        if let Some(movetime) = movetime {
            limits = limits.tightest(time_management::move_time(movetime));
        }
        if let Some(cap) = profile.time {
            limits = limits.tightest(time_management::move_time(cap));
        }
        limits
    }

    fn run_search(
        &mut self,
        multi_pv: usize,
        instant_single_move: bool,
        info: &mut (dyn FnMut(String) + Send),
    ) -> Result<(Iteration<G::Move>, bool), EngineError> {
        let profile = level_profile(self.settings.level);
        let limits = self.limits(&profile);
        let start = Instant::now();
        // Exact solving near the end, for games with a solver.
        if let Some(distance) = self.position.solver_distance() {
            let reach = profile
                .solve_from
                .min(solvable_distance(limits.hard_time, self.settings.threads));
            if distance <= reach && self.settings.depth.is_none() {
                let solve_limits = Limits {
                    hard_time: limits.hard_time.map(|hard| hard * 7 / 10),
                    ..limits
                };
                if let Some(iteration) = self.try_solve(multi_pv > 1, solve_limits, start, info) {
                    return Ok((iteration, true));
                }
                // Out of time (or stopped): the heuristic search answers with what time is left.
                // A user's stop stays raised, so that search gives its first iteration at once.
                self.stop.arm();
            }
        }
        let remaining = |time: Option<Duration>| time.map(|t| t.saturating_sub(start.elapsed()));
        let request = SearchRequest {
            limits: Limits {
                soft_time: remaining(limits.soft_time),
                hard_time: remaining(limits.hard_time).map(|t| t.max(Duration::from_millis(1))),
                ..limits
            },
            threads: self.settings.threads.max(1),
            strength: Strength(profile.strength),
            multi_pv,
            instant_single_move,
        };
        if request.limits.is_unbounded() {
            log::info!("search without limits: it runs until stopped");
        }
        let position = self.position.clone();
        let info_mode = self.settings.info;
        let mut report = |iteration: &Iteration<G::Move>| {
            if info_mode != InfoMode::Off {
                info(format_iteration(&position, iteration));
            }
        };
        let outcome = search::search(
            &self.position,
            &request,
            &self.table,
            self.stop.flag(),
            &mut self.workers,
            &mut report,
        );
        outcome
            .best
            .map(|iteration| (iteration, false))
            .ok_or(EngineError::Stopped)
    }

    fn try_solve(
        &mut self,
        all_moves: bool,
        limits: Limits,
        start: Instant,
        info: &mut (dyn FnMut(String) + Send),
    ) -> Option<Iteration<G::Move>> {
        let request = SolveRequest {
            stop: self.stop.flag(),
            threads: self.settings.threads.max(1),
            start,
            hard_time: limits.hard_time,
            all_moves,
            table: &self.table,
        };
        let solution = self.position.solve(&request)?;
        let lines: Vec<RootLine<G::Move>> = solution
            .moves
            .iter()
            .enumerate()
            .map(|(index, &(mv, score))| RootLine {
                mv,
                score,
                exact: true,
                pv: if index == 0 {
                    solution.pv.clone()
                } else {
                    vec![mv]
                },
            })
            .collect();
        let iteration = Iteration {
            depth: self.position.solver_distance().unwrap_or(0),
            lines,
            nodes: solution.nodes,
            elapsed: start.elapsed(),
        };
        if self.settings.info != InfoMode::Off {
            info(format!(
                "info solved score {:+} nodes {} time {} pv {}",
                solution.moves[0].1,
                solution.nodes,
                start.elapsed().as_millis(),
                solution
                    .pv
                    .iter()
                    .map(|&mv| self.position.format_move(mv))
                    .collect::<Vec<_>>()
                    .join(" ")
            ));
        }
        Some(iteration)
    }

    fn analysis_line(&self, line: &RootLine<G::Move>, depth: u32, solved: bool) -> AnalysisLine {
        let score = if solved {
            format!("{:+}", line.score)
        } else {
            format_score(&self.position, line.score)
        };
        AnalysisLine {
            mv: self.position.format_move(line.mv),
            score,
            exact: solved,
            bound: !solved && !line.exact,
            depth,
            pv: line
                .pv
                .iter()
                .map(|&mv| self.position.format_move(mv))
                .collect(),
        }
    }
}

/// A score as text: the game's own units, or `win`/`loss` with the margin and plies.
pub fn format_score<G: Game>(position: &G, value: i32) -> String {
    match score::decode_win(value) {
        Some((margin, plies)) => {
            let word = if value > 0 { "win" } else { "loss" };
            if margin > 0 {
                format!(
                    "{word}{}{margin}@{plies}",
                    if value > 0 { '+' } else { '-' }
                )
            } else {
                format!("{word}@{plies}")
            }
        }
        None => position.format_evaluation(value),
    }
}

/// One information line: `info depth D score S nodes N nps R time MS pv MOVES`.
pub fn format_iteration<G: Game>(position: &G, iteration: &Iteration<G::Move>) -> String {
    let best = &iteration.lines[0];
    let millis = iteration.elapsed.as_millis().max(1);
    format!(
        "info depth {} score {} nodes {} nps {} time {} pv {}",
        iteration.depth,
        format_score(position, best.score),
        iteration.nodes,
        iteration.nodes as u128 * 1000 / millis,
        iteration.elapsed.as_millis(),
        best.pv
            .iter()
            .map(|&mv| position.format_move(mv))
            .collect::<Vec<_>>()
            .join(" ")
    )
}

fn parse_number<T: std::str::FromStr>(name: &str, value: &str) -> Result<T, EngineError> {
    value.parse().map_err(|_| {
        EngineError::InvalidOption(format!("option {name} needs a number, not '{value}'"))
    })
}

impl<G: Game> Session for Engine<G> {
    fn game_name(&self) -> &'static str {
        self.position.name()
    }

    fn game_options(&self) -> Vec<(String, String)> {
        self.position.options()
    }

    fn clear(&mut self) {
        self.position = self.position.start_position();
        self.history.clear();
        self.table.clear();
    }

    fn position(&self) -> String {
        self.position.position_string()
    }

    fn set_position(&mut self, text: &str) -> Result<(), EngineError> {
        let mut position = self.position.clone();
        position.set_position_string(text)?;
        self.position = position;
        self.history.clear();
        Ok(())
    }

    fn side_to_move(&self) -> String {
        self.position.format_player(self.position.side_to_move())
    }

    fn play(&mut self, player: Option<&str>, text: &str) -> Result<(), EngineError> {
        let player = self.player(player)?;
        let mv = self.position.parse_move(text)?;
        if self.position.outcome().is_some() {
            return Err(GameError::GameOver.into());
        }
        let before = self.history.len();
        self.bring_to_move(player)?;
        match self.position.try_play(mv) {
            Ok(undo) => {
                self.history.push(Played {
                    mv,
                    undo,
                    implied: false,
                });
                Ok(())
            }
            Err(error) => {
                while self.history.len() > before {
                    let played = self.history.pop().expect("implied pass");
                    self.position.undo(played.mv, played.undo);
                }
                Err(error.into())
            }
        }
    }

    fn undo(&mut self) -> Result<(), EngineError> {
        let played = self.history.pop().ok_or(EngineError::NothingToUndo)?;
        self.position.undo(played.mv, played.undo);
        while self.history.last().is_some_and(|played| played.implied) {
            let played = self.history.pop().expect("checked");
            self.position.undo(played.mv, played.undo);
        }
        Ok(())
    }

    fn legal_moves(&self, player: Option<&str>) -> Result<Vec<String>, EngineError> {
        let player = self.player(player)?;
        // Exactly what `play` accepts: the same forced passes on a copy.
        let mut after = self.position.clone();
        let mut passes = 0;
        while after.side_to_move() != player && after.outcome().is_none() {
            match after.forced_pass() {
                Some(pass) if passes < after.player_count() => {
                    after.play_unchecked(pass);
                    passes += 1;
                }
                _ => return Err(self.wrong_player(player)),
            }
        }
        let mut moves = Vec::new();
        after.generate_moves(&mut moves);
        Ok(moves.iter().map(|&mv| after.format_move(mv)).collect())
    }

    fn forbidden_moves(&self) -> Vec<String> {
        self.position
            .forbidden_moves()
            .into_iter()
            .map(|mv| self.position.format_move(mv))
            .collect()
    }

    fn diagram(&self) -> String {
        self.position.diagram()
    }

    fn perft(&self, depth: usize) -> u64 {
        self.position.perft(depth)
    }

    fn divide(&self, depth: usize) -> Vec<(String, u64)> {
        crate::perft::divide(&mut self.position.clone(), depth)
            .into_iter()
            .map(|(mv, count)| (self.position.format_move(mv), count))
            .collect()
    }

    fn perft_until_stopped(&self, depth: usize) -> Result<u64, EngineError> {
        self.stop.arm();
        crate::perft::perft_until_stopped(&self.position, depth, self.stop.flag())
            .ok_or(EngineError::Stopped)
    }

    fn divide_until_stopped(&self, depth: usize) -> Result<Vec<(String, u64)>, EngineError> {
        self.stop.arm();
        let mut moves = Vec::new();
        self.position.generate_moves(&mut moves);
        let mut lines = Vec::with_capacity(moves.len());
        for mv in moves {
            let mut child = self.position.clone();
            child.play_unchecked(mv);
            let leaves = crate::perft::perft_until_stopped(
                &child,
                depth.saturating_sub(1),
                self.stop.flag(),
            )
            .ok_or(EngineError::Stopped)?;
            lines.push((self.position.format_move(mv), leaves));
        }
        Ok(lines)
    }

    fn final_score(&self) -> Result<String, EngineError> {
        let outcome = self.position.outcome().ok_or(EngineError::GameNotOver)?;
        Ok(self.position.format_result(&outcome))
    }

    fn genmove(
        &mut self,
        player: Option<&str>,
        commit: bool,
        info: &mut (dyn FnMut(String) + Send),
    ) -> Result<MoveChoice, EngineError> {
        let player = self.player(player)?;
        if self.position.outcome().is_some() {
            return Err(GameError::GameOver.into());
        }
        let before = self.history.len();
        self.bring_to_move(player)?;
        if self.position.outcome().is_some() {
            return Err(GameError::GameOver.into());
        }
        self.stop.arm();
        let result = self.run_search(1, true, info);
        let (iteration, solved) = match result {
            Ok(found) => found,
            Err(error) => {
                while self.history.len() > before {
                    let played = self.history.pop().expect("implied pass");
                    self.position.undo(played.mv, played.undo);
                }
                return Err(error);
            }
        };
        let line = self.analysis_line(&iteration.lines[0], iteration.depth, solved);
        let mv = iteration.lines[0].mv;
        if commit {
            let undo = self.position.play_unchecked(mv);
            self.history.push(Played {
                mv,
                undo,
                implied: false,
            });
        } else {
            while self.history.len() > before {
                let played = self.history.pop().expect("implied pass");
                self.position.undo(played.mv, played.undo);
            }
        }
        Ok(MoveChoice {
            mv: line.mv.clone(),
            line,
        })
    }

    fn analyze(
        &mut self,
        count: Option<usize>,
        info: &mut (dyn FnMut(String) + Send),
    ) -> Result<Vec<AnalysisLine>, EngineError> {
        if self.position.outcome().is_some() {
            return Err(GameError::GameOver.into());
        }
        self.stop.arm();
        let mut moves = Vec::new();
        self.position.generate_moves(&mut moves);
        let wanted = count.unwrap_or(moves.len()).clamp(1, moves.len().max(1));
        let (iteration, solved) = self.run_search(wanted, false, info)?;
        Ok(iteration
            .lines
            .iter()
            .take(wanted)
            .map(|line| self.analysis_line(line, iteration.depth, solved))
            .collect())
    }

    fn solve(
        &mut self,
        info: &mut (dyn FnMut(String) + Send),
    ) -> Result<(String, i32), EngineError> {
        if self.position.solver_distance().is_none() {
            return Err(EngineError::Unsupported(format!(
                "{} has no exact solver",
                self.position.name()
            )));
        }
        if self.position.outcome().is_some() {
            return Err(GameError::GameOver.into());
        }
        self.stop.arm();
        // Only an explicit move time bounds a solve; otherwise it runs until done or stopped.
        let limits = match self.settings.movetime {
            MoveTime::Fixed(time) => time_management::move_time(time),
            _ => Limits::default(),
        };
        let iteration = self
            .try_solve(false, limits, Instant::now(), info)
            .ok_or(EngineError::Stopped)?;
        let best = &iteration.lines[0];
        Ok((self.position.format_move(best.mv), best.score))
    }

    fn settings(&self) -> &Settings {
        &self.settings
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        let lower = value.to_ascii_lowercase();
        let unlimited = matches!(lower.as_str(), "0" | "none" | "off" | "unlimited");
        match name.to_ascii_lowercase().as_str() {
            "depth" => {
                let depth: u32 = parse_number(name, value)?;
                if depth as usize >= crate::score::MAX_PLY {
                    return Err(EngineError::InvalidOption(format!(
                        "depth must be below {}",
                        crate::score::MAX_PLY
                    )));
                }
                self.settings.depth = (depth > 0).then_some(depth);
            }
            "movetime" => {
                self.settings.movetime = if lower == "default" {
                    MoveTime::Default
                } else if unlimited {
                    MoveTime::Unlimited
                } else {
                    MoveTime::Fixed(Duration::from_millis(parse_number(name, value)?))
                };
            }
            "nodes" => {
                let nodes: u64 = parse_number(name, value)?;
                self.settings.nodes = (nodes > 0).then_some(nodes);
            }
            "hash" => {
                let megabytes: usize = parse_number(name, value)?;
                if !(1..=65_536).contains(&megabytes) {
                    return Err(EngineError::InvalidOption(
                        "hash must be 1..65536 MB".into(),
                    ));
                }
                self.settings.hash_megabytes = megabytes;
                self.table = TranspositionTable::new(megabytes);
            }
            "threads" => {
                let threads: usize = parse_number(name, value)?;
                if !(1..=256).contains(&threads) {
                    return Err(EngineError::InvalidOption("threads must be 1..256".into()));
                }
                self.settings.threads = threads;
            }
            "level" => {
                let level: u8 = parse_number(name, value)?;
                if !(1..=8).contains(&level) {
                    return Err(EngineError::InvalidOption("level must be 1..8".into()));
                }
                self.settings.level = level;
            }
            "info" => {
                self.settings.info = match lower.as_str() {
                    "off" | "none" | "0" => InfoMode::Off,
                    "log" | "stderr" => InfoMode::Log,
                    "protocol" | "stdout" | "on" | "1" => InfoMode::Protocol,
                    _ => {
                        return Err(EngineError::InvalidOption(
                            "info takes off, stderr or stdout".into(),
                        ))
                    }
                };
            }
            _ => {
                return Err(EngineError::InvalidOption(format!(
                    "unknown option '{name}' (known: {})",
                    OPTION_NAMES.join(", ")
                )))
            }
        }
        Ok(())
    }

    fn time_settings(&mut self, main: Duration, byo_yomi: Duration, stones: u32) {
        self.clock.set(main, byo_yomi, stones);
    }

    fn time_left(&mut self, player: &str, time: Duration, stones: u32) -> Result<(), EngineError> {
        let player = self.position.parse_player(player)?;
        self.clock.set_left(player, time, stones);
        Ok(())
    }
}

/// The options `set_option` knows.
pub const OPTION_NAMES: [&str; 7] = [
    "depth", "movetime", "nodes", "hash", "threads", "level", "info",
];
