//! The engine façade: one game in progress, its history, search settings, clock and table.
//!
//! [`Engine`] is generic over the game and offers typed operations: load a position, play, undo,
//! list moves, and search with typed limits, returning typed [`Report`]s. [`Session`] erases the
//! game type so that front-ends can choose the game at run time; it speaks move text, since every
//! front-end reads and writes moves in some notation, but scores, depths, nodes and times stay
//! numbers. Protocol text is written only by the front-ends.

pub mod clock;
mod error;
pub mod options;
pub mod report;
mod session;
mod stop;

pub use error::EngineError;
pub use options::{InfoMode, MoveTime, Settings, DEFAULT_MOVE_TIME, OPTIONS};
pub use report::{Line, Report, Score, ScoreBound};
pub use session::{new_session, rules_session, session_for, Session};
pub use stop::StopSignal;

use crate::base::transposition::TranspositionTable;
use crate::game::levels::LevelProfile;
use crate::game::{
    DirectMove, DirectRequest, Game, GameError, Outcome, Player, SolutionScale, SolveRequest,
};
use crate::search::limits::Limits;
use crate::search::{self, Iteration, RootLine, Worker};
use clock::Clock;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Choose a move for the player, and play it when `commit` is set.
    Play {
        /// Whether to play the move found.
        commit: bool,
    },
    /// Rank the moves of the side to move: the best `lines`, or every move the search considers.
    Analyze {
        /// How many moves get exact scores; `None` for all.
        lines: Option<usize>,
    },
    /// Solve the position exactly with the game's solver (Reversi's endgame, Gomoku's threats).
    Solve,
}

/// A search the front-end asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    /// The player to search for (the side to move when `None`); a pass for the players before it
    /// is implied when they can only pass. Only [`Mode::Play`] uses it.
    pub player: Option<Player>,
    /// What the search is for.
    pub mode: Mode,
    /// Limits for this search alone, instead of those the settings, level and clock give.
    pub limits: Option<Limits>,
    /// When the command asking for this search arrived, where the front-end knows it: the time
    /// limits count from then, so that the work before the search (setting up a board, say) is
    /// charged to the move, as the opponent's clock charges it. `None`: from the search's start.
    pub received: Option<Instant>,
}

impl Request {
    /// A search for the side to move with the engine's own limits.
    pub fn new(mode: Mode) -> Request {
        Request {
            player: None,
            mode,
            limits: None,
            received: None,
        }
    }
}

/// Perft's count below each move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divide<M> {
    /// Each legal move with the leaves below it; empty at depth 0 and in a finished game.
    pub moves: Vec<(M, u64)>,
    /// The leaves at the depth, the same as perft's count.
    pub total: u64,
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
    ///
    /// # Errors
    /// [`EngineError::Memory`] when the table the settings ask for cannot be had.
    pub fn new(
        position: G,
        settings: Settings,
        stop: Arc<StopSignal>,
    ) -> Result<Engine<G>, EngineError> {
        let table = new_table(&settings)?;
        Ok(Engine::with_table(position, settings, stop, table))
    }

    /// An engine that reuses `table` (cleared), as a new game does: no new allocation.
    pub fn with_table(
        position: G,
        settings: Settings,
        stop: Arc<StopSignal>,
        table: TranspositionTable,
    ) -> Engine<G> {
        table.clear();
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

    /// Loads `position`; the history is cleared.
    pub fn set_position(&mut self, position: G) {
        self.position = position;
        self.history.clear();
    }

    /// Back to the start position, with an empty table; the settings and clock stay.
    pub fn clear(&mut self) {
        self.position = self.position.start_position();
        self.history.clear();
        self.table.clear();
    }

    /// Forgets what earlier searches learnt: an empty table, fresh per-thread search state
    /// (history, killers) and the game's own per-thread memory, so that the next search gives
    /// what it would give in a new process.
    pub fn forget(&mut self) {
        self.table.wipe();
        self.workers.clear();
        self.position.forget_thread_memory();
    }

    /// The moves played since the start or the last loaded position, implied passes included.
    pub fn moves_played(&self) -> Vec<G::Move> {
        self.history.iter().map(|played| played.mv).collect()
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The value of an option of [`OPTIONS`] as text, from the settings or the game.
    ///
    /// # Errors
    /// [`EngineError::InvalidOption`] for an unknown option.
    pub fn option_value(&self, name: &str) -> Result<String, EngineError> {
        let option = options::find(name).map_err(EngineError::InvalidOption)?;
        Ok(option.get(&self.settings).unwrap_or_else(|| {
            self.position
                .options()
                .into_iter()
                .find(|(key, _)| key == option.name)
                .map_or_else(|| option.default.to_string(), |(_, value)| value)
        }))
    }

    /// Sets an option of [`OPTIONS`]. A new `hash` size allocates a new table first and keeps the
    /// old one when that fails.
    ///
    /// # Errors
    /// [`EngineError::InvalidOption`] for an unknown option or a bad value,
    /// [`EngineError::Memory`] when the table cannot be had.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        let option = options::find(name).map_err(EngineError::InvalidOption)?;
        if option.held_by_game() {
            if option.kind == options::OptionKind::File && !self.settings.local_files {
                return Err(EngineError::InvalidOption(format!(
                    "{} names a file, which this session may not read",
                    option.name
                )));
            }
            self.position.set_option(option.name, value)?;
            // What the table and the per-thread state learnt came from the old evaluation.
            self.forget();
            return Ok(());
        }
        let mut settings = self.settings.clone();
        option
            .set(&mut settings, value)
            .map_err(EngineError::InvalidOption)?;
        if settings.hash_megabytes != self.settings.hash_megabytes {
            // The old table's share of a shared budget counts until the new one is made.
            let old = std::mem::replace(&mut self.table, TranspositionTable::new(0));
            match new_table(&settings) {
                Ok(table) => self.table = table,
                Err(error) => {
                    self.table = old;
                    return Err(error);
                }
            }
        }
        self.settings = settings;
        Ok(())
    }

    /// The clock, for front-ends to set and correct.
    pub fn clock(&mut self) -> &mut Clock {
        &mut self.clock
    }

    /// The result once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.position.outcome()
    }

    fn side(&self, player: Option<Player>) -> Player {
        player.unwrap_or_else(|| self.position.side_to_move())
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
        if player >= self.position.player_count() {
            return Err(self.wrong_player(player));
        }
        let before = self.history.len();
        // A full round of passes is the most that can bring a player to move.
        while self.position.side_to_move() != player
            && self.position.outcome().is_none()
            && self.history.len() - before < self.position.player_count()
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
        }
        if self.position.side_to_move() == player || self.position.outcome().is_some() {
            return Ok(());
        }
        self.take_back_to(before);
        Err(self.wrong_player(player))
    }

    /// Takes back moves until the history is `length` long.
    fn take_back_to(&mut self, length: usize) {
        while self.history.len() > length {
            let played = self.history.pop().expect("a move to take back");
            self.position.undo(played.mv, played.undo);
        }
    }

    /// Plays `mv` for `player` (the side to move when `None`), passing for the players before it
    /// when they can only pass.
    ///
    /// # Errors
    /// The game is over, the player cannot be brought to move, or the move is illegal; the state
    /// is unchanged then.
    pub fn play(&mut self, player: Option<Player>, mv: G::Move) -> Result<(), EngineError> {
        if self.position.outcome().is_some() {
            return Err(GameError::GameOver.into());
        }
        let before = self.history.len();
        self.bring_to_move(self.side(player))?;
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
                self.take_back_to(before);
                Err(error.into())
            }
        }
    }

    /// Takes back the last move, and the passes implied before it.
    ///
    /// # Errors
    /// [`EngineError::NothingToUndo`] at the start or right after a loaded position.
    pub fn undo(&mut self) -> Result<(), EngineError> {
        let played = self.history.pop().ok_or(EngineError::NothingToUndo)?;
        self.position.undo(played.mv, played.undo);
        while self.history.last().is_some_and(|played| played.implied) {
            let played = self.history.pop().expect("checked");
            self.position.undo(played.mv, played.undo);
        }
        Ok(())
    }

    /// The moves `play` accepts for `player`: for another player than the side to move, its moves
    /// after the forced passes of the players before it. Empty once the game is over.
    ///
    /// # Errors
    /// [`EngineError::WrongPlayer`] when a player before it has a real move.
    pub fn legal_moves(&self, player: Option<Player>) -> Result<Vec<G::Move>, EngineError> {
        let player = self.side(player);
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
        Ok(moves)
    }

    /// Points the side to move may not play because of a rule.
    pub fn forbidden_moves(&self) -> Vec<G::Move> {
        self.position.forbidden_moves()
    }

    /// Leaf count at `depth`; stops with [`EngineError::Stopped`] when the stop signal is raised.
    ///
    /// # Errors
    /// [`EngineError::Stopped`].
    pub fn perft(&self, depth: usize) -> Result<u64, EngineError> {
        self.stop.arm();
        self.mark_long_perft(depth);
        crate::game::perft::perft_until_stopped(&self.position, depth, self.stop.flag())
            .ok_or(EngineError::Stopped)
    }

    /// A count that would run for hours counts as unbounded: once the input is closed, nobody
    /// could stop it. Shorter counts finish, so that piped scripts get their answers.
    fn mark_long_perft(&self, depth: usize) {
        /// About an hour at the games' perft speeds.
        const LONG_PERFT_LEAVES: f64 = 1e12;
        let mut moves = Vec::new();
        self.position.generate_moves(&mut moves);
        let estimate = (moves.len().max(1) as f64).powi(depth as i32);
        if estimate > LONG_PERFT_LEAVES {
            self.stop.begin_unbounded();
        }
    }

    /// Leaf count below each move at `depth`, stoppable like [`Engine::perft`].
    ///
    /// # Errors
    /// [`EngineError::Stopped`].
    pub fn divide(&self, depth: usize) -> Result<Divide<G::Move>, EngineError> {
        let mut moves = Vec::new();
        if depth > 0 {
            self.position.generate_moves(&mut moves);
        }
        if moves.is_empty() {
            return Ok(Divide {
                moves: Vec::new(),
                total: self.perft(depth)?,
            });
        }
        self.stop.arm();
        self.mark_long_perft(depth);
        let mut lines = Vec::with_capacity(moves.len());
        for mv in moves {
            let mut child = self.position.clone();
            child.play_unchecked(mv);
            let leaves =
                crate::game::perft::perft_until_stopped(&child, depth - 1, self.stop.flag())
                    .ok_or(EngineError::Stopped)?;
            lines.push((mv, leaves));
        }
        let total = lines.iter().map(|(_, leaves)| leaves).sum();
        Ok(Divide {
            moves: lines,
            total,
        })
    }

    /// Searches as `request` asks; `report` sees each completed iteration (and a solve's result).
    ///
    /// # Errors
    /// The game is over, the player cannot be brought to move, the game has no solver
    /// ([`Mode::Solve`]), the solver proved nothing ([`EngineError::NotProven`]) or the search was
    /// stopped before any result; the state is unchanged then.
    pub fn search(
        &mut self,
        request: &Request,
        report: &mut (dyn FnMut(&Report<G::Move>) + Send),
    ) -> Result<Report<G::Move>, EngineError> {
        if self.position.outcome().is_some() {
            return Err(GameError::GameOver.into());
        }
        let before = self.history.len();
        let player = self.side(request.player);
        if matches!(request.mode, Mode::Play { .. }) {
            self.bring_to_move(player)?;
            if self.position.outcome().is_some() {
                self.take_back_to(before);
                return Err(GameError::GameOver.into());
            }
        }
        self.stop.arm();
        let now = Instant::now();
        let start = request
            .received
            .filter(|&received| received <= now)
            .unwrap_or(now);
        // With a shared thread budget, the search gets no more threads than are left (it waits
        // for one while none is, until stopped); they go back when `grant` drops.
        let wanted = self.settings.threads.max(1);
        let grant = match &self.settings.shared {
            Some(shared) => match shared.threads.take_up_to(wanted, self.stop.flag()) {
                Some(grant) => Some(grant),
                None => {
                    self.take_back_to(before);
                    return Err(EngineError::Stopped);
                }
            },
            None => None,
        };
        let threads = grant.as_ref().map_or(wanted, |grant| grant.amount());
        let result = match request.mode {
            Mode::Solve => self.solve(threads, request.limits, start, report),
            Mode::Play { .. } => {
                let lines = self.settings.play_lines.max(1);
                self.run_search(threads, lines, true, request.limits, start, report)
            }
            Mode::Analyze { lines } => {
                let mut moves = Vec::new();
                self.position.search_moves(&mut moves);
                let wanted = lines.unwrap_or(moves.len()).clamp(1, moves.len().max(1));
                self.run_search(threads, wanted, false, request.limits, start, report)
                    .map(|mut found| {
                        found.lines.truncate(wanted);
                        found
                    })
            }
        };
        let found = match result {
            Ok(found) => found,
            Err(error) => {
                self.take_back_to(before);
                return Err(error);
            }
        };
        match request.mode {
            Mode::Play { commit: true } => {
                let mv = found.best().mv;
                let undo = self.position.play_unchecked(mv);
                self.history.push(Played {
                    mv,
                    undo,
                    implied: false,
                });
                self.clock.spend(player, start.elapsed());
            }
            _ => self.take_back_to(before),
        }
        Ok(found)
    }

    /// The limits the settings, the level and the clock give the side to move.
    fn limits(&self, profile: &LevelProfile) -> Limits {
        let mut limits = Limits {
            depth: self.settings.depth.or(profile.depth),
            nodes: self.settings.nodes,
            ..Limits::default()
        };
        let overhead = self.settings.overhead;
        let player = self.position.side_to_move();
        if let Some(budget) =
            self.clock
                .budget(player, self.position.expected_moves_left(), overhead)
        {
            limits = limits.tightest(budget);
        }
        let movetime = match self.settings.movetime {
            MoveTime::Fixed(time) => Some(time),
            // The default time applies unless the user set a depth, a node limit or a clock;
            // a level's own depth cap does not count.
            MoveTime::Default
                if !self.clock.is_limited()
                    && self.settings.depth.is_none()
                    && self.settings.nodes.is_none() =>
            {
                Some(DEFAULT_MOVE_TIME)
            }
            _ => None,
        };
        if let Some(movetime) = movetime {
            limits = limits.tightest(clock::move_time(movetime, overhead));
        }
        if let Some(cap) = profile.time {
            limits = limits.tightest(clock::move_time(cap, overhead));
        }
        limits
    }

    fn run_search(
        &mut self,
        threads: usize,
        multi_pv: usize,
        instant_single_move: bool,
        limits: Option<Limits>,
        start: Instant,
        report: &mut (dyn FnMut(&Report<G::Move>) + Send),
    ) -> Result<Report<G::Move>, EngineError> {
        let profile = self.position.level_profile(self.settings.level);
        let overridden = limits.is_some();
        let limits = limits.unwrap_or_else(|| self.limits(&profile));
        // Exact solving near the end, for games with a solver.
        if let Some(distance) = self.position.solver_distance() {
            let reach = profile
                .solve_from
                .min(self.position.solver_reach(limits.hard_time, threads));
            let fixed_depth =
                self.settings.depth.is_some() || (overridden && limits.depth.is_some());
            if distance <= reach && !fixed_depth {
                let solve_limits = Limits {
                    hard_time: limits.hard_time.map(|hard| hard * 7 / 10),
                    ..limits
                };
                if let Some(found) = self.try_solve(threads, multi_pv > 1, solve_limits, start) {
                    report(&found);
                    return Ok(found);
                }
                // Out of time (or stopped): the heuristic search answers with what time is left.
                // A user's stop stays raised, so that search gives its first iteration at once.
                self.stop.arm();
            }
        }
        // A move the game chooses by its own means (Chinese Checkers' greedy level 1 and its race
        // solver), when playing; above level 1 only while the settings allow it.
        let direct = self.settings.direct_moves || self.settings.level <= 1;
        if multi_pv == 1 && instant_single_move && direct {
            let request = DirectRequest {
                level: self.settings.level,
                seed: self.settings.seed,
                stop: self.stop.flag(),
                start,
                // Limits given for the search alone (a fixed depth) leave the game's own means
                // the move time of the settings.
                hard_time: limits.hard_time.or_else(|| match self.settings.movetime {
                    MoveTime::Fixed(time) => {
                        clock::move_time(time, self.settings.overhead).hard_time
                    }
                    _ => None,
                }),
            };
            if let Some(direct) = self.position.direct_move(&request) {
                let found = self.report_of_direct(direct, &profile, start);
                report(&found);
                return Ok(found);
            }
        }
        let remaining = |time: Option<Duration>| time.map(|t| t.saturating_sub(start.elapsed()));
        let request = search::SearchRequest {
            limits: Limits {
                soft_time: remaining(limits.soft_time),
                hard_time: remaining(limits.hard_time).map(|t| t.max(Duration::from_millis(1))),
                ..limits
            },
            threads,
            strength: profile.strength,
            multi_pv,
            instant_single_move,
            probcut: self.settings.probcut,
            selectivity: self.settings.selectivity,
        };
        if request.limits.is_unbounded() {
            log::info!("search without limits: it runs until stopped");
            self.stop.begin_unbounded();
        }
        let unit = self.position.score_unit();
        let mut each = |iteration: &Iteration<G::Move>| {
            report(&report_of_iteration(iteration, unit));
        };
        let mode = self
            .settings
            .multiplayer_search
            .unwrap_or_else(|| self.position.multiplayer_search(request.limits.depth));
        let outcome = search::search_with(
            &self.position,
            &request,
            mode,
            &self.table,
            self.stop.flag(),
            &mut self.workers,
            &mut each,
        );
        let mut found = outcome
            .best
            .map(|iteration| report_of_iteration(&iteration, unit))
            .ok_or(EngineError::Stopped)?;
        found.nodes = found.nodes.max(outcome.nodes);
        found.elapsed = outcome.elapsed;
        Ok(found)
    }

    /// A report of a move the game chose without the search: scored by the evaluation of the
    /// position it leads to, from the mover's side.
    fn report_of_direct(
        &self,
        direct: DirectMove<G::Move>,
        profile: &LevelProfile,
        start: Instant,
    ) -> Report<G::Move> {
        let mover = self.position.side_to_move();
        let mut after = self.position.clone();
        after.play_unchecked(direct.mv);
        let value = after.evaluate(mover, profile.strength);
        let depth = direct.pv.len() as u32;
        Report {
            depth,
            selective_depth: depth,
            lines: vec![Line {
                mv: direct.mv,
                score: Score::from_search(value, self.position.score_unit()),
                bound: ScoreBound::Exact,
                depth,
                pv: direct.pv,
            }],
            nodes: 0,
            elapsed: start.elapsed(),
            solved: false,
        }
    }

    fn solve(
        &mut self,
        threads: usize,
        limits: Option<Limits>,
        start: Instant,
        report: &mut (dyn FnMut(&Report<G::Move>) + Send),
    ) -> Result<Report<G::Move>, EngineError> {
        if !self.position.has_solver() {
            return Err(EngineError::Unsupported(format!(
                "{} has no exact solver",
                self.position.name()
            )));
        }
        // Only an explicit move time bounds a solve; otherwise it runs until done or stopped.
        let limits = limits.unwrap_or_else(|| match self.settings.movetime {
            MoveTime::Fixed(time) => clock::move_time(time, self.settings.overhead),
            _ => Limits::default(),
        });
        if limits.hard_time.is_none() {
            self.stop.begin_unbounded();
        }
        match self.try_solve(threads, false, limits, start) {
            Some(found) => {
                report(&found);
                Ok(found)
            }
            None if self.stop.is_raised() => Err(EngineError::Stopped),
            None => Err(EngineError::NotProven),
        }
    }

    fn try_solve(
        &mut self,
        threads: usize,
        all_moves: bool,
        limits: Limits,
        start: Instant,
    ) -> Option<Report<G::Move>> {
        let request = SolveRequest {
            stop: self.stop.flag(),
            threads,
            start,
            hard_time: limits.hard_time,
            all_moves,
            table: &self.table,
        };
        let solution = self.position.solve(&request)?;
        let distance = self.position.solver_distance().unwrap_or(0);
        let unit = self.position.score_unit();
        let lines = solution
            .moves
            .iter()
            .enumerate()
            .map(|(index, &(mv, value))| {
                let score = match solution.scale {
                    SolutionScale::Margin => Score::Exact(value),
                    SolutionScale::Search => Score::from_search(value, unit),
                };
                let depth = match score {
                    Score::Win { plies, .. } | Score::Loss { plies, .. } => plies,
                    _ => distance,
                };
                Line {
                    mv,
                    score,
                    bound: ScoreBound::Exact,
                    depth,
                    pv: if index == 0 {
                        solution.pv.clone()
                    } else {
                        vec![mv]
                    },
                }
            })
            .collect::<Vec<_>>();
        let depth = lines.first().map_or(distance, |line| line.depth);
        Some(Report {
            depth,
            selective_depth: depth,
            lines,
            nodes: solution.nodes,
            elapsed: start.elapsed(),
            solved: true,
        })
    }
}

/// A table of the size the settings ask, from their shared budget if they have one.
fn new_table(settings: &Settings) -> Result<TranspositionTable, EngineError> {
    let budget = settings
        .shared
        .as_ref()
        .map(|shared| &shared.table_megabytes);
    Ok(TranspositionTable::try_new_within(
        settings.hash_megabytes,
        budget,
    )?)
}

/// A search iteration as a typed report.
fn report_of_iteration<M: Copy>(
    iteration: &Iteration<M>,
    unit: crate::game::ScoreUnit,
) -> Report<M> {
    let line = |root: &RootLine<M>| Line {
        mv: root.mv,
        score: Score::from_search(root.score, unit),
        bound: if root.exact {
            ScoreBound::Exact
        } else {
            ScoreBound::Upper
        },
        depth: root.depth,
        pv: root.pv.clone(),
    };
    Report {
        depth: iteration.depth,
        selective_depth: iteration.selective_depth.max(iteration.depth),
        lines: iteration
            .lines
            .iter()
            .filter(|root| root.depth > 0 || iteration.depth == 0)
            .map(line)
            .collect(),
        nodes: iteration.nodes,
        elapsed: iteration.elapsed,
        solved: false,
    }
}
