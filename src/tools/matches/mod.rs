//! `tabula match`: engine-against-engine matches for every game.
//!
//! ```text
//! tabula match --game G [-o key=value]... --engine cmd=CMD name=NAME [proto=gtp|piskvork|nboard]
//!              [option.X=V]... --engine ... [--each key=value...] [--games N] [--rounds R]
//!              [--concurrency C] [--movetime MS | --tc BASE+INC] [--margin MS]
//!              [--openings FILE [--shuffle] [--seed S]] [--sprt elo0=A elo1=B alpha=X beta=Y]
//!              [--plot FILE.svg] [--records FILE] [--adjudicate-exact EMPTIES]
//!              [--adjudicate-win DEPTH] [--max-plies N]
//! ```
//!
//! Engines are processes speaking GTP (Tabula, Edax, gtp-rhino), Piskvork (Gomocup brains), NBoard
//! (Othello engines such as Edax `-nboard`) or, for Chinese Checkers, our protocol with one process per seat. A referee keeps the true state of
//! each game in process with Tabula's rules and checks every move; a fault loses the game for the
//! engine at fault, and a crashed or hung engine is restarted for its next game.

pub mod client;
pub mod clock;
pub mod gtp_client;
pub mod nboard_client;
pub mod piskvork_client;
pub mod plot;
pub mod process;
pub mod records;
pub mod referee;
pub mod results;
pub mod schedule;
pub mod spec;
pub mod statistics;

use crate::engine::rules_session;
use crate::games;
use crate::tools::interrupt::{Interrupt, Interrupted};
use crate::tools::positions::{self, Start};
use anyhow::{bail, Context, Result};
use clock::{BaseIncrement, MatchTimeControl};
use records::GameRecord;
use referee::{Adjudication, Instance, MatchReferee, Scheduled};
use results::Results;
use spec::{Defaults, EngineProtocol, EngineSpec};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

/// `tabula match`'s command line.
#[derive(clap::Args, Debug, Clone)]
pub struct MatchArgs {
    /// The game: reversi (othello), gomoku or chinese-checkers.
    #[arg(long)]
    pub game: String,
    /// Game options as key=value (size=10, rule=renju, players=3...).
    #[arg(short = 'o', long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    #[command(flatten)]
    pub engine: spec::EngineWords,
    /// key=value words for every engine (an engine's own words win).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub each: Vec<String>,
    /// Games per round (default: every opening once per seat rotation).
    #[arg(long)]
    pub games: Option<usize>,
    /// Rounds: the games are played this many times over.
    #[arg(long, default_value_t = 1)]
    pub rounds: usize,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Time per move in milliseconds.
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Time per game and increment per move, in seconds (e.g. 10+0.1).
    #[arg(long, value_name = "BASE+INC")]
    pub tc: Option<BaseIncrement>,
    /// Time a move may take over its allowance before it loses on time, in milliseconds.
    #[arg(long, default_value_t = 100, value_name = "MS")]
    pub margin: u64,
    /// Seconds to wait for a reply that no clock limits before the engine counts as hung.
    #[arg(long, default_value_t = 60.0, value_name = "SECONDS")]
    pub timeout: f64,
    /// Openings, one per line: position strings or move sequences.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Play the openings in a random order.
    #[arg(long)]
    pub shuffle: bool,
    /// Seed of the shuffle.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A sequential probability ratio test of engine 1 against engine 2, as key=value words:
    /// elo0=A elo1=B [alpha=0.05] [beta=0.05] [model=logistic|bayeselo]. The match stops when
    /// it decides.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
    /// Draw the Elo estimate and its 95% band as games accumulate into this SVG file.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Append one JSON record per game to this file (`tabula analyze` reads it back).
    #[arg(long, value_name = "FILE")]
    pub records: Option<PathBuf>,
    /// End a game with Tabula's exact solve once this close to the end (empties in Reversi).
    #[arg(long, value_name = "EMPTIES")]
    pub adjudicate_exact: Option<u32>,
    /// Search every position to this depth and end the game when the search proves a win.
    #[arg(long, value_name = "DEPTH")]
    pub adjudicate_win: Option<u32>,
    /// End a game as a draw after this many plies past the opening.
    #[arg(long, value_name = "PLIES")]
    pub max_plies: Option<usize>,
    /// Print the full results every this many games (0: only at the end).
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub rating_interval: usize,
    /// Print only the final results.
    #[arg(long)]
    pub quiet: bool,
}

/// Reads the openings file: every line a position string or a move sequence of the game.
fn read_openings(path: &Path, game: &str, options: &[(String, String)]) -> Result<Vec<Start>> {
    let mut session = rules_session(game, options)?;
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if positions::is_blank_or_comment(line) {
            continue;
        }
        let body = line.split(';').next().unwrap_or("");
        let start = positions::load(session.as_mut(), body.trim())
            .map_err(|error| anyhow::anyhow!("{}:{}: {error}", path.display(), number + 1))?;
        if session.outcome().is_some() {
            bail!(
                "{}:{}: the game is over in this opening",
                path.display(),
                number + 1
            );
        }
        openings.push(start);
    }
    if openings.is_empty() {
        bail!("{}: no openings", path.display());
    }
    Ok(openings)
}

/// The engines of the match, checked against the game.
fn engine_specs(args: &MatchArgs, game: &str, seats: usize) -> Result<Vec<Arc<EngineSpec>>> {
    let defaults = Defaults {
        time: MatchTimeControl {
            base: args.tc.map(|tc| tc.base),
            increment: args.tc.map_or(Duration::ZERO, |tc| tc.increment),
            per_move: args.movetime.map(Duration::from_millis),
        },
        margin: Duration::from_millis(args.margin),
        timeout: Duration::try_from_secs_f64(args.timeout)
            .ok()
            .filter(|timeout| !timeout.is_zero())
            .context("--timeout must be more than 0 seconds")?,
    };
    let mut specs = args
        .engine
        .0
        .iter()
        .map(|words| spec::parse_engine(&args.each, words, &defaults))
        .collect::<Result<Vec<_>>>()?;
    spec::distinct_names(&mut specs);
    if specs.len() < 2 {
        bail!("a match needs at least two engines (--engine ... --engine ...)");
    }
    if specs.len() > seats {
        bail!(
            "{} engines for {seats} seats: give at most one engine per seat (tournaments of more are not supported)",
            specs.len()
        );
    }
    if let Some(spec) = specs
        .iter()
        .find(|spec| spec.protocol == EngineProtocol::Piskvork && game != "gomoku")
    {
        bail!("{} speaks Piskvork, which plays only Gomoku", spec.name);
    }
    if let Some(spec) = specs
        .iter()
        .find(|spec| spec.protocol == EngineProtocol::Nboard && game != "reversi")
    {
        bail!("{} speaks NBoard, which plays only Othello", spec.name);
    }
    Ok(specs.into_iter().map(Arc::new).collect())
}

/// Runs `tabula match`.
///
/// # Errors
/// Bad arguments, an engine that cannot be started, an output that cannot be written, or
/// [`Interrupted`] after Ctrl-C.
pub fn run(args: &MatchArgs) -> Result<()> {
    run_match(args, &Interrupt::install())
}

/// What the workers send the main thread: a finished game (with the engine in each seat) or a
/// failure, and where to acknowledge it. A worker starts its next game only after the main thread
/// has counted the last one, so that a decided SPRT starts no further game.
type Finished = (Result<(GameRecord, Vec<usize>)>, mpsc::Sender<()>);

/// What every worker of a match shares: the match, its engines and schedule, and the signals that
/// stop it.
struct WorkerShared<'a> {
    /// The match's command line.
    args: &'a MatchArgs,
    /// The game's options, as the referee settled them.
    options: &'a [(String, String)],
    /// The engines of the match.
    specs: &'a [Arc<EngineSpec>],
    /// Every game of the match, in order.
    schedule: &'a [Scheduled],
    /// The index in `schedule` of the next game to play.
    next: &'a AtomicUsize,
    /// Raised when no new game may start (a failure or a decided SPRT).
    halt: &'a AtomicBool,
    /// Ctrl-C.
    interrupt: &'a Interrupt,
}

/// Plays games from the shared schedule until none is left, `halt` is raised or Ctrl-C.
fn worker(number: usize, shared: &WorkerShared, sender: mpsc::Sender<Finished>) {
    let WorkerShared {
        args,
        options,
        specs,
        schedule,
        next,
        halt,
        interrupt,
    } = *shared;
    let adjudication = Adjudication {
        exact: args.adjudicate_exact,
        win_depth: args.adjudicate_win,
        max_plies: args.max_plies,
    };
    let (acknowledge, acknowledged) = mpsc::channel();
    let mut referee = match MatchReferee::new(&args.game, options, adjudication, interrupt.clone())
    {
        Ok(referee) => referee,
        Err(error) => {
            let _ = sender.send((Err(error), acknowledge));
            return;
        }
    };
    let mut pool: Vec<Vec<Instance>> = (0..specs.len()).map(|_| Vec::new()).collect();
    let mut started = vec![0; specs.len()];
    while !halt.load(Ordering::SeqCst) && !interrupt.is_raised() {
        let Some(scheduled) = schedule.get(next.fetch_add(1, Ordering::SeqCst)) else {
            break;
        };
        let mut instances: Vec<Instance> = scheduled
            .seats
            .iter()
            .map(|&engine| {
                pool[engine].pop().unwrap_or_else(|| {
                    started[engine] += 1;
                    let label =
                        format!("{}#{}.{}", specs[engine].name, number + 1, started[engine]);
                    Instance::new(specs[engine].clone(), label, interrupt.clone())
                })
            })
            .collect();
        let played = referee.play(scheduled, &mut instances);
        for (instance, &engine) in instances.into_iter().zip(&scheduled.seats).rev() {
            pool[engine].push(instance);
        }
        let failed = played.is_err();
        let finished = played.map(|record| (record, scheduled.seats.clone()));
        if sender.send((finished, acknowledge.clone())).is_err()
            || failed
            || acknowledged.recv().is_err()
        {
            break;
        }
    }
    for instance in pool.iter_mut().flatten() {
        instance.close();
    }
}

/// Runs a match with `interrupt` as its Ctrl-C.
///
/// # Errors
/// As [`run`].
pub fn run_match(args: &MatchArgs, interrupt: &Interrupt) -> Result<()> {
    let words: Vec<&str> = args.options.iter().map(String::as_str).collect();
    let options = games::parse_options(&words)?;
    let probe = MatchReferee::new(
        &args.game,
        &options,
        Adjudication::default(),
        Interrupt::detached(),
    )
    .with_context(|| format!("cannot set up {}", args.game))?;
    let seats = probe.player_count();
    let options = probe.options().to_vec();
    let game = games::canonical_name(&args.game).unwrap_or("?").to_string();
    drop(probe);
    let specs = engine_specs(args, &game, seats)?;
    let sprt = args.sprt.as_deref().map(spec::parse_sprt).transpose()?;
    if args.concurrency == 0 || args.rounds == 0 || args.games == Some(0) {
        bail!("--concurrency, --rounds and --games must be at least 1");
    }
    let openings = match &args.openings {
        Some(path) => read_openings(path, &args.game, &options)?,
        None => Vec::new(),
    };
    let order = schedule::opening_order(openings.len(), args.shuffle, args.seed);
    let per_round = args.games.unwrap_or(seats * openings.len().max(1));
    let schedule = schedule::schedule(
        per_round * args.rounds,
        seats,
        specs.len(),
        &openings,
        &order,
    );
    let mut records = match &args.records {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| format!("opening {}", path.display()))?,
        ),
        None => None,
    };
    let names: Vec<String> = specs.iter().map(|spec| spec.name.clone()).collect();
    let mut results = Results::new(names.clone(), seats);
    let title = format!("Elo of {} against {} with its 95% band", names[0], names[1]);
    if !args.quiet {
        println!(
            "Match of {} games of {} {} between {}, {} at a time",
            schedule.len(),
            game,
            options
                .iter()
                .map(|(key, value)| format!("{key}={value}"))
                .collect::<Vec<_>>()
                .join(" "),
            names.join(", "),
            args.concurrency
        );
    }
    let next = AtomicUsize::new(0);
    let halt = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel::<Finished>();
    let mut failure = None;
    let shared = WorkerShared {
        args,
        options: &options,
        specs: &specs,
        schedule: &schedule,
        next: &next,
        halt: &halt,
        interrupt,
    };
    std::thread::scope(|scope| {
        let shared = &shared;
        for number in 0..args.concurrency.min(schedule.len()) {
            let sender = sender.clone();
            scope.spawn(move || worker(number, shared, sender));
        }
        drop(sender);
        for (finished, acknowledge) in receiver {
            let (record, engines) = match finished {
                Ok(finished) => finished,
                Err(error) => {
                    halt.store(true, Ordering::SeqCst);
                    failure.get_or_insert(error);
                    continue;
                }
            };
            if record.termination == records::Termination::Interrupted {
                let _ = acknowledge.send(());
                continue;
            }
            if let Err(error) = write_record(records.as_mut(), &record) {
                halt.store(true, Ordering::SeqCst);
                failure.get_or_insert(error);
            }
            results.add(&record, &engines);
            if !args.quiet {
                println!("{}", Results::finished_line(&record));
                for line in results.score_lines() {
                    println!("{line}");
                }
                if args.rating_interval > 0
                    && results.games.is_multiple_of(args.rating_interval)
                    && results.games < schedule.len()
                {
                    print!("{}", results.report(sprt.as_ref()));
                }
            }
            if let Some(path) = &args.plot {
                if let Err(error) = plot::write(path, &title, &results.history) {
                    log::warn!("cannot draw {}: {error}", path.display());
                }
            }
            if let Some(sprt) = &sprt {
                if results.decide(sprt) && !halt.swap(true, Ordering::SeqCst) {
                    println!(
                        "SPRT decided after {} games: no new games start",
                        results.games
                    );
                }
            }
            let _ = acknowledge.send(());
        }
    });
    if let Some(error) = failure {
        return Err(error);
    }
    println!("Finished match: {} games", results.games);
    print!("{}", results.report(sprt.as_ref()));
    if let Some(path) = &args.plot {
        println!("Elo plot: {}", path.display());
    }
    if interrupt.is_raised() {
        return Err(Interrupted(format!(
            "{} of {} games played",
            results.games,
            schedule.len()
        ))
        .into());
    }
    Ok(())
}

fn write_record(file: Option<&mut std::fs::File>, record: &GameRecord) -> Result<()> {
    if let Some(file) = file {
        let mut line = serde_json::to_string(record)?;
        line.push('\n');
        file.write_all(line.as_bytes())
            .context("writing a game record")?;
        file.flush()?;
    }
    Ok(())
}
