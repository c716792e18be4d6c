//! The one in-process match loop of `tabula selfplay`, `train` and `tune`, for every game.
//!
//! Each contender is an engine façade of its own ([`Engine`]: its settings, table and search
//! threads), as the daemon would run it. A game seats the contenders, plays its opening into every
//! engine, then asks the engine of the seat to move for its move and tells the move to all the
//! others, until the game is over. Games run on `jobs` threads, each with its own engines; the
//! per-game parts (openings, seating, what is written) belong to the game's tool.

pub mod chinese_checkers;
pub mod crossing;
pub mod gomoku;
pub mod reversi;

use crate::engine::{Engine, Mode, Request, Settings, StopSignal};
use crate::game::{Game, Outcome};
use crate::search::limits::Limits;
use anyhow::{anyhow, Context, Result};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// `tabula selfplay <game>`: games between engine configurations, written for training or
/// summed up for strength tests.
#[derive(clap::Subcommand, Debug)]
pub enum SelfplayCommand {
    /// Reversi games with random openings and softened engine choices, written as labelled
    /// positions for `tabula train reversi`.
    #[command(visible_alias = "othello")]
    Reversi(reversi::ReversiSelfplayArgs),
    /// Gomoku games between two players (engine options), with openings, an SPRT and game files
    /// for `tabula train gomoku`.
    Gomoku(gomoku::GomokuSelfplayArgs),
    /// Chinese Checkers games between a lineup of levels and greedy players, seats rotating.
    #[command(name = "chinese-checkers")]
    ChineseCheckers(chinese_checkers::ChineseCheckersSelfplayArgs),
}

/// Runs `tabula selfplay`.
///
/// # Errors
/// As the game's own tool.
pub fn run(command: &SelfplayCommand) -> Result<()> {
    match command {
        SelfplayCommand::Reversi(arguments) => reversi::run_command(arguments),
        SelfplayCommand::Gomoku(arguments) => gomoku::run(arguments),
        SelfplayCommand::ChineseCheckers(arguments) => chinese_checkers::run(arguments),
    }
}

/// Sets a contender's own evaluation (its weights) on a start position.
pub type Prepare<G> = Arc<dyn Fn(&mut G) + Send + Sync>;

/// One player of a match: an engine configuration.
pub struct Contender<G: Game> {
    /// The name the summaries give it.
    pub name: String,
    /// Its engine settings (level, threads, table size, multiplayer search...).
    pub settings: Settings,
    /// The limits of each of its moves instead of those its settings, level and clock give.
    pub limits: Option<Limits>,
    /// What it changes on the start position, such as its weights.
    pub prepare: Option<Prepare<G>>,
}

impl<G: Game> Contender<G> {
    /// A contender that plays as `settings` say.
    pub fn new(name: &str, settings: Settings) -> Contender<G> {
        Contender {
            name: name.to_string(),
            settings,
            limits: None,
            prepare: None,
        }
    }
}

/// What an engine keeps from one game to the next on the same thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BetweenGames {
    /// A cleared table (old entries stay to steer replacement, as `clear_board` leaves them) and
    /// fresh search threads.
    Clear,
    /// Nothing: a wiped table, fresh search threads and per-thread memory, as a new engine.
    Forget,
}

/// One game to play.
pub struct Pairing<G: Game> {
    /// The start position.
    pub start: G,
    /// Moves played from the start before the contenders think (they count for the seats).
    pub opening: Vec<G::Move>,
    /// The contender at each seat.
    pub seats: Vec<usize>,
    /// The game's seed: ply `p` is played with the engine seed `mix(seed ^ p)`.
    pub seed: u64,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Played<G: Game> {
    /// The game's number, from 0.
    pub index: usize,
    /// The contender at each seat.
    pub seats: Vec<usize>,
    /// Every move from the start position, the opening first.
    pub moves: Vec<G::Move>,
    /// The seat that played each move.
    pub movers: Vec<usize>,
    /// How many of `moves` are the opening.
    pub opening: usize,
    /// Thinking time of each move after the opening.
    pub times: Vec<Duration>,
    /// The position at the end.
    pub end: G,
    /// The result.
    pub outcome: Outcome,
}

impl<G: Game> Played<G> {
    /// The thinking time and the number of moves of each contender (of `contenders`) after the
    /// opening.
    pub fn thinking(&self, contenders: usize) -> Vec<(Duration, u32)> {
        let mut totals = vec![(Duration::ZERO, 0); contenders];
        for (&seat, time) in self.movers[self.opening..].iter().zip(&self.times) {
            let total = &mut totals[self.seats[seat]];
            total.0 += *time;
            total.1 += 1;
        }
        totals
    }
}

/// A match: the contenders and how their engines run.
pub struct Match<'a, G: Game> {
    /// The contenders.
    pub contenders: &'a [Contender<G>],
    /// Games to play (at most: `each` may stop the match).
    pub games: usize,
    /// Games played at once, each on its own thread with its own engines.
    pub jobs: usize,
    /// What an engine keeps between games.
    pub between_games: BetweenGames,
}

/// Stack of a game thread: deep searches and the solvers recurse.
const GAME_STACK_BYTES: usize = 64 << 20;

impl<G: Game> Match<'_, G> {
    /// Plays the games `pairing` describes, handing each finished game to `each` in the order
    /// they finish (with one job, the order of the games); `each` may end the match early, and
    /// the games that finish after that are dropped. Returns the games handed to `each`, in the
    /// order of their numbers.
    ///
    /// # Errors
    /// A pairing that does not fit the contenders, an illegal opening, or an engine error.
    pub fn play(
        &self,
        pairing: &(dyn Fn(usize) -> Pairing<G> + Sync),
        each: &mut dyn FnMut(&Played<G>) -> ControlFlow<()>,
    ) -> Result<Vec<Played<G>>> {
        let next = AtomicUsize::new(0);
        let finished = AtomicBool::new(false);
        let (sender, receiver) = mpsc::channel::<Result<Played<G>>>();
        let mut played = Vec::new();
        let mut failure = None;
        std::thread::scope(|scope| -> Result<()> {
            for _ in 0..self.jobs.max(1) {
                let sender = sender.clone();
                let (next, finished) = (&next, &finished);
                std::thread::Builder::new()
                    .stack_size(GAME_STACK_BYTES)
                    .spawn_scoped(scope, move || {
                        let mut engines: Option<Vec<Engine<G>>> = None;
                        while !finished.load(Ordering::Relaxed) {
                            let index = next.fetch_add(1, Ordering::Relaxed);
                            if index >= self.games {
                                break;
                            }
                            let result = self.play_game(index, &pairing(index), &mut engines);
                            let failed = result.is_err();
                            if sender.send(result).is_err() || failed {
                                break;
                            }
                        }
                    })
                    .context("starting a game thread")?;
            }
            drop(sender);
            for result in receiver {
                match result {
                    // A game under way when the match ended (the one thread starts the next
                    // game before `each` has seen the last) is dropped, so that what `each` saw
                    // does not depend on that race.
                    Ok(_) if finished.load(Ordering::Relaxed) => {}
                    Ok(game) => {
                        if each(&game).is_break() {
                            finished.store(true, Ordering::Relaxed);
                        }
                        played.push(game);
                    }
                    Err(error) => {
                        finished.store(true, Ordering::Relaxed);
                        failure.get_or_insert(error);
                    }
                }
            }
            Ok(())
        })?;
        if let Some(error) = failure {
            return Err(error);
        }
        played.sort_by_key(|game| game.index);
        Ok(played)
    }

    /// Plays game `index` with this thread's engines (made on the first game).
    fn play_game(
        &self,
        index: usize,
        pairing: &Pairing<G>,
        engines: &mut Option<Vec<Engine<G>>>,
    ) -> Result<Played<G>> {
        let players = pairing.start.player_count();
        anyhow::ensure!(
            pairing.seats.len() == players
                && pairing
                    .seats
                    .iter()
                    .all(|&entry| entry < self.contenders.len()),
            "game {}: {} seats for {players} players",
            index + 1,
            pairing.seats.len()
        );
        let start_of = |contender: &Contender<G>| {
            let mut start = pairing.start.clone();
            if let Some(prepare) = &contender.prepare {
                prepare(&mut start);
            }
            start
        };
        let engines = match engines {
            Some(engines) => {
                for (engine, contender) in engines.iter_mut().zip(self.contenders) {
                    match self.between_games {
                        BetweenGames::Forget => {
                            engine.forget();
                            engine.set_position(start_of(contender));
                        }
                        BetweenGames::Clear => {
                            let table = crate::engine::Session::take_table(engine);
                            *engine = Engine::with_table(
                                start_of(contender),
                                contender.settings.clone(),
                                Arc::new(StopSignal::default()),
                                table,
                            );
                        }
                    }
                }
                engines
            }
            None => {
                let mut made = Vec::new();
                for contender in self.contenders {
                    let engine = Engine::new(
                        start_of(contender),
                        contender.settings.clone(),
                        Arc::new(StopSignal::default()),
                    )
                    .with_context(|| format!("setting up {}", contender.name))?;
                    made.push(engine);
                }
                // A new engine's table is cleared once, which `Clear` asks; `Forget` wants it
                // as if never used.
                if self.between_games == BetweenGames::Forget {
                    made.iter_mut().for_each(Engine::forget);
                }
                engines.insert(made)
            }
        };
        let mut position = pairing.start.clone();
        let (mut moves, mut movers) = (Vec::new(), Vec::new());
        for &mv in &pairing.opening {
            movers.push(position.side_to_move());
            position
                .try_play(mv)
                .map_err(|error| anyhow!("game {}: illegal opening: {error}", index + 1))?;
            for engine in engines.iter_mut() {
                engine.play(None, mv)?;
            }
            moves.push(mv);
        }
        let mut times = Vec::new();
        while position.outcome().is_none() {
            let seat = position.side_to_move();
            let entry = pairing.seats[seat];
            let contender = &self.contenders[entry];
            let seed = crate::base::zobrist::mix(pairing.seed ^ moves.len() as u64);
            let engine = &mut engines[entry];
            engine.set_option("seed", &seed.to_string())?;
            let request = Request {
                player: None,
                received: None,
                mode: Mode::Play { commit: true },
                limits: contender.limits,
            };
            let started = Instant::now();
            let found = engine
                .search(&request, &mut |_| {})
                .with_context(|| format!("game {}: {} found no move", index + 1, contender.name))?;
            times.push(started.elapsed());
            let mv = found.best().mv;
            position.try_play(mv).map_err(|error| {
                anyhow!(
                    "game {}: {} played an illegal move: {error}",
                    index + 1,
                    contender.name
                )
            })?;
            for (other, engine) in engines.iter_mut().enumerate() {
                if other != entry {
                    engine.play(None, mv)?;
                }
            }
            movers.push(seat);
            moves.push(mv);
        }
        let outcome = position.outcome().expect("the game is over");
        Ok(Played {
            index,
            seats: pairing.seats.clone(),
            opening: pairing.opening.len(),
            moves,
            movers,
            times,
            end: position,
            outcome,
        })
    }
}
