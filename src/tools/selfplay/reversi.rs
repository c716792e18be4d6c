//! Self-play games that label positions for training the pattern evaluation ([`crate::games::reversi::patterns`]).
//!
//! A game opens with a random number (0 to [`SelfPlayConfig::max_random_moves`]) of uniformly
//! random moves, then the engine plays at a fixed depth, picking at random among the moves that
//! score within a margin of the best (more often the better ones). Once the position has at most
//! [`SelfPlayConfig::exact_empties`] empties the exact solver takes over: every later position is
//! solved (cheaply, with the table still warm) and labelled with its exact score, and the game
//! follows the solver's best moves. Every earlier position from the end of the random opening on
//! is labelled with that exact final result, seen from its own side to move. Positions within the
//! random opening are left out: random moves follow them, so the result says little about them.
//!
//! Engine moves and exact solves run on the engine façade ([`Engine`]), one per thread, with
//! ProbCut off and a multi-PV search ([`Settings::probcut`], [`Settings::play_lines`]).
//! Games are independent, seeded by the run's seed and their number, and each is searched on one
//! thread with a table cleared before the game and fresh search threads, so the output depends
//! only on the configuration (and the evaluation in use), not on the thread count.
//!
//! # Output
//! One position per line: `<position string> <score> <game> [<search>]`, e.g.
//! `---------------------------OX------XO--------------------------- X +2 17 +135`: the `.obf`
//! board and side to move ([`crate::game::Rules::position_string`]), the label (final disc
//! difference for the side to move, empties to the winner), the game's number and, for positions
//! where the engine chose the move, the score of its search (evaluation units for the side to
//! move), which the trainer may blend into the label.
//!
//! A run can be resumed ([`SelfPlayConfig::resume`]): games are written whole and in order, so the
//! file's last game, which may have been cut short, is dropped and replayed with the games after it.

use crate::base::score;
use crate::base::zobrist::mix;
use crate::engine::{
    Engine, InfoMode, Mode, Request, Score, ScoreBound, Session, Settings, StopSignal,
};
use crate::game::Rules;
use crate::games::reversi::evaluation::DISC;
use crate::games::reversi::{Reversi, ReversiMove};
use anyhow::{anyhow, Context};
use rayon::prelude::*;
use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What to generate.
#[derive(Clone, Debug)]
pub struct SelfPlayConfig {
    /// Number of games.
    pub games: usize,
    /// Seed of the whole run; game `n` uses a seed derived from it and `n`.
    pub seed: u64,
    /// Number of the first game (so that runs can be split and joined).
    pub first_game: usize,
    /// Worker threads (games run in parallel, each on one thread).
    pub threads: usize,
    /// Each game opens with 0 to this many uniformly random moves.
    pub max_random_moves: u32,
    /// Search depth of engine moves.
    pub depth: u32,
    /// Engine moves consider the best this-many moves (multi-PV).
    pub candidates: usize,
    /// Moves scoring more than this below the best (evaluation units) are never picked.
    pub margin: i32,
    /// A move `d` units below the best is picked with weight `exp(-d / temperature)`.
    pub temperature: f64,
    /// Positions with at most this many empties are solved exactly.
    pub exact_empties: u32,
    /// Transposition table per thread, in MB.
    pub hash_megabytes: usize,
    /// Continue the games of an existing output file instead of starting it afresh.
    pub resume: bool,
}

impl Default for SelfPlayConfig {
    fn default() -> Self {
        SelfPlayConfig {
            games: 1000,
            seed: 1,
            first_game: 0,
            threads: 1,
            max_random_moves: 20,
            depth: 6,
            candidates: 4,
            margin: 300,
            temperature: 100.0,
            exact_empties: 18,
            hash_megabytes: 16,
            resume: false,
        }
    }
}

/// One labelled position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Labelled {
    /// The position.
    pub position: Reversi,
    /// The final disc difference for the side to move: exact from the solver, or the game's result.
    pub score: i32,
    /// The engine's search score for the side to move, in evaluation units, where the engine
    /// searched this position to choose its move.
    pub search: Option<i32>,
}

/// What one game produced, and what it cost.
#[derive(Clone, Debug, Default)]
pub struct GameRecord {
    /// The game's positions, in order, labelled.
    pub positions: Vec<Labelled>,
    /// Time in engine searches.
    pub search_time: Duration,
    /// Time in the exact solver.
    pub solve_time: Duration,
    /// Solver nodes.
    pub solve_nodes: u64,
}

/// A small deterministic generator (SplitMix64), so that games never depend on a library's stream.
pub(crate) struct Random(pub(crate) u64);

impl Random {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.0)
    }

    /// Uniform in `0..bound`.
    pub(crate) fn below(&mut self, bound: u64) -> u64 {
        ((self.next() as u128 * bound as u128) >> 64) as u64
    }

    /// Uniform in `[0, 1)`.
    pub(crate) fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The engine settings of the self-play games: one thread, the configured depth and table, ProbCut
/// off (the training data must not depend on a ProbCut model calibrated on the weights it
/// trains) and the best `candidates` moves scored exactly.
pub fn engine_settings(config: &SelfPlayConfig) -> Settings {
    Settings {
        depth: Some(config.depth),
        hash_megabytes: config.hash_megabytes,
        threads: 1,
        info: InfoMode::Off,
        probcut: false,
        play_lines: config.candidates.max(1),
        ..Settings::default()
    }
}

/// Plays and labels game number `number` with this thread's engine (made on the first game): a
/// cleared table and fresh search threads, as each game starts.
///
/// # Errors
/// The engine's table cannot be had, or the engine fails (a bug).
pub fn play_game(
    config: &SelfPlayConfig,
    number: usize,
    engine: &mut Option<Engine<Reversi>>,
) -> anyhow::Result<GameRecord> {
    let settings = engine_settings(config);
    let stop = Arc::new(StopSignal::default());
    let engine = match engine.take() {
        Some(mut old) => engine.insert(Engine::with_table(
            Reversi::new(),
            settings,
            stop,
            Session::take_table(&mut old),
        )),
        None => engine
            .insert(Engine::new(Reversi::new(), settings, stop).context("setting up the engine")?),
    };
    let mut random = Random(mix(config.seed ^ mix(number as u64 ^ 0x5E1F_9A7E)));
    let random_moves = random.below(config.max_random_moves as u64 + 1) as u32;
    let mut record = GameRecord::default();
    let mut moves = Vec::new();
    let mut plies = 0;
    // Positions before `solved_from` get the game's result; the later ones were solved exactly.
    let mut solved_from = usize::MAX;
    // Black's final result, once known.
    let black_result = loop {
        let position = engine.position().clone();
        if position.outcome().is_some() {
            break black_score(&position, position.final_score());
        }
        if position.empties() <= config.exact_empties {
            solved_from = record.positions.len();
            break solve_to_the_end(engine, &mut record)?;
        }
        // The result says little about a position that random moves follow: keep those out.
        if plies >= random_moves {
            record.positions.push(Labelled {
                position: position.clone(),
                score: 0,
                search: None,
            });
        }
        let mv = if let Some(pass) = position.forced_pass() {
            pass
        } else if plies < random_moves {
            position.generate_moves(&mut moves);
            moves[random.below(moves.len() as u64) as usize]
        } else {
            let start = Instant::now();
            let (mv, score) = engine_move(config, engine, &mut random)?;
            record.search_time += start.elapsed();
            if let Some(last) = record.positions.last_mut() {
                last.search = Some(score);
            }
            mv
        };
        engine.play(None, mv)?;
        plies += 1;
    };
    let unsolved = solved_from.min(record.positions.len());
    for labelled in &mut record.positions[..unsolved] {
        labelled.score = black_score(&labelled.position, black_result);
    }
    Ok(record)
}

/// A score for the side to move of `position`, as black's (and back: the map is its own inverse).
fn black_score(position: &Reversi, score: i32) -> i32 {
    if position.side == 0 {
        score
    } else {
        -score
    }
}

/// Solves every position from here to the end along the solver's best moves, labelling each
/// exactly. Returns black's exact final result.
fn solve_to_the_end(engine: &mut Engine<Reversi>, record: &mut GameRecord) -> anyhow::Result<i32> {
    let mut result = None;
    while engine.outcome().is_none() {
        let position = engine.position().clone();
        let start = Instant::now();
        let solution = engine
            .search(&Request::new(Mode::Solve), &mut |_| {})
            .with_context(|| format!("solving {}", position.position_string()))?;
        record.solve_time += start.elapsed();
        record.solve_nodes += solution.nodes;
        let best = solution.best();
        let Score::Exact(score) = best.score else {
            return Err(anyhow!(
                "solving {}: no exact score",
                position.position_string()
            ));
        };
        let black = black_score(&position, score);
        debug_assert!(
            result.is_none_or(|known| known == black),
            "best play keeps the score"
        );
        result.get_or_insert(black);
        record.positions.push(Labelled {
            position,
            score,
            search: None,
        });
        engine.play(None, best.mv)?;
    }
    let position = engine.position();
    Ok(result.unwrap_or_else(|| black_score(position, position.final_score())))
}

/// A reported search score back in search units ([`crate::base::score`]), as the search gave it.
fn search_value(score: Score) -> i32 {
    match score {
        Score::Heuristic(value) => (value * DISC as f64).round() as i32,
        Score::Exact(margin) => margin * DISC,
        Score::Win { plies, margin } => score::win_in(plies as usize, margin),
        Score::Loss { plies, margin } => -score::win_in(plies as usize, margin),
    }
}

/// An engine move: a fixed-depth multi-PV search, then a random pick among the near-best moves.
/// Returns the move and the best move's score.
fn engine_move(
    config: &SelfPlayConfig,
    engine: &mut Engine<Reversi>,
    random: &mut Random,
) -> anyhow::Result<(ReversiMove, i32)> {
    let request = Request::new(Mode::Play { commit: false });
    let found = engine.search(&request, &mut |_| {})?;
    let lines = &found.lines;
    let best = search_value(lines[0].score);
    let candidates: Vec<(ReversiMove, f64)> = lines
        .iter()
        .enumerate()
        .map(|(index, line)| (index, line, search_value(line.score)))
        .filter(|&(index, line, value)| {
            index == 0 || (line.bound == ScoreBound::Exact && value >= best - config.margin)
        })
        .map(|(_, line, value)| {
            let weight = (-((best - value) as f64) / config.temperature.max(1e-9)).exp();
            (line.mv, weight)
        })
        .collect();
    let total: f64 = candidates.iter().map(|&(_, weight)| weight).sum();
    let mut pick = random.unit() * total;
    // A proven result reads as its disc margin.
    let value = match score::decode_win(best) {
        Some((margin, _)) => best.signum() * margin * DISC,
        None => best,
    };
    for &(mv, weight) in &candidates {
        if pick < weight {
            return Ok((mv, value));
        }
        pick -= weight;
    }
    Ok((candidates[0].0, value))
}

/// Totals of a run.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Games played.
    pub games: usize,
    /// Positions written.
    pub positions: usize,
    /// Of which labelled exactly by the solver.
    pub exact: usize,
    /// Time in engine searches, over all threads.
    pub search_time: Duration,
    /// Time in the solver, over all threads.
    pub solve_time: Duration,
    /// Solver nodes.
    pub solve_nodes: u64,
}

/// Writes one labelled position as a line.
pub fn write_line(out: &mut impl Write, labelled: &Labelled, game: usize) -> std::io::Result<()> {
    write!(
        out,
        "{} {:+} {game}",
        labelled.position.position_string(),
        labelled.score
    )?;
    match labelled.search {
        Some(search) => writeln!(out, " {search:+}"),
        None => writeln!(out),
    }
}

/// Reads a line written by [`write_line`]: the labelled position and the game number.
pub fn read_line(line: &str) -> Option<(Labelled, u64)> {
    let mut words = line.split_whitespace();
    let board = words.next()?;
    let side = words.next()?;
    let score = words.next()?.parse().ok()?;
    let game = words.next()?.parse().ok()?;
    let search = match words.next() {
        Some(word) => Some(word.parse().ok()?),
        None => None,
    };
    if words.next().is_some() {
        return None;
    }
    let mut position = Reversi::new();
    position
        .set_position_string(&format!("{board} {side}"))
        .ok()?;
    Some((
        Labelled {
            position,
            score,
            search,
        },
        game,
    ))
}

/// The whole games at the start of a self-play file: the number of the first game not wholly
/// written (the file's last game, or the first line that does not read), and the bytes before it.
fn complete_prefix(text: &str) -> (Option<u64>, usize) {
    let mut last_game = None;
    // Where the current (last seen) game's lines start.
    let mut game_start = 0;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let parsed = line.ends_with('\n').then(|| read_line(line)).flatten();
        let Some((_, game)) = parsed else {
            // A cut or garbled line: its game is the one to replay.
            return match last_game {
                Some(last) => (Some(last), game_start),
                None => (None, 0),
            };
        };
        if last_game != Some(game) {
            last_game = Some(game);
            game_start = offset;
        }
        offset += line.len();
    }
    (last_game, game_start)
}

/// Plays the configured games on `config.threads` threads and writes every labelled position to
/// `out`, in game order. `progress` sees the running totals after each batch of games.
///
/// # Errors
/// Writing to `out` failed, or the thread pool could not start.
pub fn run(
    config: &SelfPlayConfig,
    out: &mut impl Write,
    progress: &mut dyn FnMut(&Summary),
) -> anyhow::Result<Summary> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads.max(1))
        .stack_size(32 << 20)
        .build()?;
    let mut summary = Summary::default();
    let batch = (config.threads.max(1) * 8).max(16);
    let end = config.first_game + config.games;
    let mut next = config.first_game;
    while next < end {
        let numbers: Vec<usize> = (next..(next + batch).min(end)).collect();
        next += numbers.len();
        let records: Vec<GameRecord> = pool.install(|| {
            numbers
                .par_iter()
                .map_init(|| None, |engine, &number| play_game(config, number, engine))
                .collect::<anyhow::Result<_>>()
        })?;
        for (record, &number) in records.iter().zip(&numbers) {
            for labelled in &record.positions {
                write_line(out, labelled, number)?;
            }
            summary.games += 1;
            summary.positions += record.positions.len();
            summary.exact += record
                .positions
                .iter()
                .filter(|labelled| labelled.position.empties() <= config.exact_empties)
                .count();
            summary.search_time += record.search_time;
            summary.solve_time += record.solve_time;
            summary.solve_nodes += record.solve_nodes;
        }
        out.flush()?;
        progress(&summary);
    }
    Ok(summary)
}

/// Plays the games of `config` into the file `out`, printing progress every 30 s. With
/// [`SelfPlayConfig::resume`], the games already in `out` are kept, the last one (possibly cut
/// short) is dropped, and play continues from it.
///
/// # Errors
/// The file cannot be read or written.
pub fn run_to_file(config: &SelfPlayConfig, out: &std::path::Path) -> anyhow::Result<()> {
    use anyhow::Context;
    let mut config = config.clone();
    let file = if config.resume && out.exists() {
        let text =
            std::fs::read_to_string(out).with_context(|| format!("reading {}", out.display()))?;
        let (next_game, keep) = complete_prefix(&text);
        let end = config.first_game + config.games;
        if let Some(next_game) = next_game {
            let next_game = (next_game as usize).max(config.first_game);
            config.games = end.saturating_sub(next_game);
            config.first_game = next_game;
        }
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(out)
            .with_context(|| format!("opening {}", out.display()))?;
        file.set_len(keep as u64)?;
        let mut file = file;
        std::io::Seek::seek(&mut file, std::io::SeekFrom::End(0))?;
        println!(
            "resuming {} at game {} ({} games left)",
            out.display(),
            config.first_game,
            config.games
        );
        file
    } else {
        std::fs::File::create(out).with_context(|| format!("creating {}", out.display()))?
    };
    let config = &config;
    let mut writer = std::io::BufWriter::new(file);
    let start = Instant::now();
    let total = config.games;
    let mut last_report = Instant::now();
    let mut progress = |summary: &Summary| {
        if last_report.elapsed().as_secs() >= 30 || summary.games == total {
            last_report = Instant::now();
            let elapsed = start.elapsed().as_secs_f64();
            let remaining = elapsed / summary.games.max(1) as f64 * (total - summary.games) as f64;
            println!(
                "{}/{total} games, {} positions ({} exact), {elapsed:.0} s elapsed, about {remaining:.0} s left; \
                 search {:.0} s, solver {:.0} s ({:.1} M nodes/s)",
                summary.games,
                summary.positions,
                summary.exact,
                summary.search_time.as_secs_f64(),
                summary.solve_time.as_secs_f64(),
                summary.solve_nodes as f64 / summary.solve_time.as_secs_f64().max(1e-9) / 1e6,
            );
        }
    };
    let summary = run(config, &mut writer, &mut progress)?;
    println!(
        "wrote {} positions of {} games to {} in {:.1} s",
        summary.positions,
        summary.games,
        out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The command line of `tabula selfplay reversi`: games for `tabula train reversi`.
#[derive(clap::Args, Debug)]
pub struct ReversiSelfplayArgs {
    /// Number of games.
    #[arg(long)]
    pub games: usize,
    /// Seed of the run.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Number of the first game (to split a run into parts).
    #[arg(long, default_value_t = 0)]
    pub first_game: usize,
    /// Games played in parallel.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Each game opens with 0 to this many random moves.
    #[arg(long, default_value_t = 20)]
    pub random_moves: u32,
    /// Search depth of engine moves.
    #[arg(long, default_value_t = 6)]
    pub depth: u32,
    /// Engine moves pick among the best this-many moves...
    #[arg(long, default_value_t = 4)]
    pub candidates: usize,
    /// ...that score at most this far below the best (in discs)...
    #[arg(long, default_value_t = 3.0)]
    pub margin: f64,
    /// ...with weight exp(-loss / temperature), in discs.
    #[arg(long, default_value_t = 1.0)]
    pub temperature: f64,
    /// Positions with at most this many empties are solved exactly.
    #[arg(long, default_value_t = 18)]
    pub exact_empties: u32,
    /// Transposition table per thread, in MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Output file (one labelled position per line).
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// Keep the whole games already in the output file and play on from there.
    #[arg(long)]
    pub resume: bool,
}

/// Runs `tabula selfplay reversi`.
///
/// # Errors
/// The file cannot be read or written.
pub fn run_command(arguments: &ReversiSelfplayArgs) -> anyhow::Result<()> {
    let disc = crate::games::reversi::evaluation::DISC as f64;
    let config = SelfPlayConfig {
        games: arguments.games,
        seed: arguments.seed,
        first_game: arguments.first_game,
        threads: arguments.threads,
        max_random_moves: arguments.random_moves,
        depth: arguments.depth,
        candidates: arguments.candidates,
        margin: (arguments.margin * disc).round() as i32,
        temperature: arguments.temperature * disc,
        exact_empties: arguments.exact_empties,
        hash_megabytes: arguments.hash,
        resume: arguments.resume,
    };
    run_to_file(&config, &arguments.out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small_config() -> SelfPlayConfig {
        SelfPlayConfig {
            games: 2,
            depth: 2,
            candidates: 3,
            exact_empties: 10,
            hash_megabytes: 1,
            ..SelfPlayConfig::default()
        }
    }

    #[test]
    fn games_are_labelled_consistently_and_reproducibly() {
        let config = small_config();
        let mut engine = None;
        for number in 0..2 {
            let record = play_game(&config, number, &mut engine).expect("a game");
            let again = play_game(&config, number, &mut engine).expect("a game");
            assert_eq!(record.positions, again.positions);
            let positions = &record.positions;
            // Consecutive positions follow by one move, and the labels agree on the result.
            let black = black_score(&positions[0].position, positions[0].score);
            for labelled in positions {
                assert_eq!(black_score(&labelled.position, labelled.score), black);
            }
            let last = positions.last().expect("positions");
            assert!(
                last.position.empties() <= config.exact_empties
                    || last.position.outcome().is_some()
            );
            // Round trip through the line format.
            let mut text = Vec::new();
            write_line(&mut text, &positions[5], number).expect("write");
            let line = String::from_utf8(text).expect("utf-8");
            assert_eq!(
                read_line(&line),
                Some((positions[5].clone(), number as u64))
            );
            // Engine-chosen positions carry their search score; solved ones do not.
            assert!(positions.iter().any(|labelled| labelled.search.is_some()));
            assert!(positions
                .iter()
                .filter(|labelled| labelled.position.empties() <= config.exact_empties)
                .all(|labelled| labelled.search.is_none()));
        }
    }

    #[test]
    fn a_resumed_run_writes_the_same_file() {
        let directory = std::env::temp_dir().join(format!("tabula-resume-{}", std::process::id()));
        std::fs::create_dir_all(&directory).expect("temporary directory");
        let whole = directory.join("whole.txt");
        let resumed = directory.join("resumed.txt");
        let config = SelfPlayConfig {
            games: 4,
            ..small_config()
        };
        run_to_file(&config, &whole).expect("whole run");
        let text = std::fs::read_to_string(&whole).expect("read");
        // A run cut in the middle of game 2's lines, in the middle of a line.
        let cut = text.find(" 2\n").expect("game 2") + 40;
        std::fs::write(&resumed, &text[..cut]).expect("write");
        let resume = SelfPlayConfig {
            resume: true,
            ..config.clone()
        };
        run_to_file(&resume, &resumed).expect("resumed run");
        assert_eq!(std::fs::read_to_string(&resumed).expect("read"), text);
        // Resuming a finished run changes nothing.
        run_to_file(&resume, &resumed).expect("resume a finished run");
        assert_eq!(std::fs::read_to_string(&resumed).expect("read"), text);
        std::fs::remove_dir_all(&directory).ok();
    }
}
