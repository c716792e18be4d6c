//! `tabula analyze`: batch analysis of positions from files or stdin, for any game.
//!
//! ```text
//! tabula analyze [--game G] [-o key=value]... [--depth D | --movetime MS | --nodes N | --exact]
//!                [--multipv N] [--format jsonl|csv|text] [--output FILE] [--resume]
//!                [--jobs J] [--threads T] [--hash MB] [--keep-table] [--quiet] [--strict]
//!                [--shard K/N] FILE...
//! tabula analyze merge OUT SHARD...
//! ```
//!
//! Each input line is a position string of the game, a move sequence from the start, an Edax
//! `.obf` line (whose `move:score` answers are checked), or a game record of `tabula match`
//! (every position after its opening, with the move played). Each position gives one output line
//! (JSON Lines by default), written and flushed as soon as it is done, in the order positions
//! finish; every line carries the position's index in the input, so that `--resume` skips what is
//! done and `merge` joins shards in order.

pub mod format;
pub mod input;
pub mod plan;
pub mod record;
pub mod resume;
pub mod search;
pub mod shard;
pub mod summary;

use crate::base::words::NumberRange;
use crate::engine::clock;
use crate::engine::{new_session, rules_session, InfoMode, Session, Settings, StopSignal};
use crate::game::Game;
use crate::games::{self, GameVisitor};
use crate::search::limits::Limits;
use crate::tools::interrupt::{Interrupt, Interrupted};
use anyhow::{bail, Context, Result};
use format::{Format, Writer};
use input::Input;
use search::Task;
use shard::Shard;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

/// The default move time when no limit is given, in milliseconds.
pub const DEFAULT_MOVETIME_MS: u64 = 1000;

/// From this far from the end (empties in Reversi) an exact solve counts as big: one position at
/// a time with every thread.
const BIG_SOLVE_DISTANCE: u32 = 24;
/// From this move time a position counts as big.
const BIG_MOVETIME_MS: u64 = 2000;

/// `tabula analyze`'s command line.
#[derive(clap::Args, Debug, Clone)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct AnalyzeArgs {
    #[command(subcommand)]
    pub command: Option<AnalyzeCommand>,
    /// Input files, one position per line (stdin when none is given, or `-`).
    pub files: Vec<PathBuf>,
    /// The game: reversi (othello), gomoku or chinese-checkers.
    #[arg(long, default_value = "reversi")]
    pub game: String,
    /// Game options as key=value (size=10, rule=renju, players=3...).
    #[arg(short = 'o', long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Search each position to this depth.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Search each position this many milliseconds (the default is 1000 when no limit is given).
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Search each position this many nodes.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Solve each position exactly (Reversi's endgame solver, Gomoku's threat solver: a proven
    /// win, or the result `unknown`; a game without a solver refuses). With --movetime, a solve
    /// not finished in time gives an error for that position.
    #[arg(long, conflicts_with_all = ["depth", "nodes"])]
    pub exact: bool,
    /// Score the N best moves.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub multipv: usize,
    /// Output format.
    #[arg(long, value_enum, default_value = "jsonl")]
    pub format: Format,
    /// Write to this file instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Append to the output and skip the positions it already has.
    #[arg(long, requires = "output")]
    pub resume: bool,
    /// Positions analysed at once (default: automatic).
    #[arg(long, value_name = "J")]
    pub jobs: Option<usize>,
    /// Search threads per position (default: automatic).
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,
    /// Keep the table and search state from one position to the next of a job: faster on
    /// related positions, but a position's result then depends on those analysed before it.
    #[arg(long)]
    pub keep_table: bool,
    /// Transposition table memory in MB, over all jobs together.
    #[arg(long, default_value_t = 256, value_name = "MB")]
    pub hash: usize,
    /// Playing level of the engine, 1 to 8.
    #[arg(long, default_value_t = 8, value_parser = parse_level)]
    pub level: u8,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Stop at the first bad input line instead of skipping it.
    #[arg(long)]
    pub strict: bool,
    /// Only this share of the positions: K/N takes every N-th from the K-th (1 ≤ K ≤ N).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
}

/// `tabula analyze merge`.
#[derive(clap::Subcommand, Debug, Clone)]
pub enum AnalyzeCommand {
    /// Joins the outputs of `--shard` runs into one file sorted by position, checking that every
    /// position is there exactly once.
    Merge {
        /// The merged file to write.
        out: PathBuf,
        /// The shard outputs.
        #[arg(required = true)]
        shards: Vec<PathBuf>,
    },
}

/// Runs `tabula analyze`.
///
/// # Errors
/// Bad arguments or input, an output that cannot be written, or [`Interrupted`] after Ctrl-C.
pub fn run(args: &AnalyzeArgs) -> Result<()> {
    if let Some(AnalyzeCommand::Merge { out, shards }) = &args.command {
        let merged = shard::merge(out, shards)?;
        eprintln!(
            "merged {} positions from {} files into {}",
            merged.positions,
            merged.files,
            out.display()
        );
        return Ok(());
    }
    run_analysis(args, &Interrupt::install())
}

/// `--level`, with the engine's own words for a number out of range (clap would say `1..=8`).
fn parse_level(text: &str) -> Result<u8, String> {
    let levels = NumberRange::new(
        crate::game::levels::MIN_LEVEL as u64,
        crate::game::levels::MAX_LEVEL as u64,
    );
    Ok(levels.parse("the level", text)? as u8)
}

fn game_options(args: &AnalyzeArgs) -> Result<Vec<(String, String)>> {
    let words: Vec<&str> = args.options.iter().map(String::as_str).collect();
    Ok(games::parse_options(&words)?)
}

fn task(args: &AnalyzeArgs) -> Result<Task> {
    if args.multipv == 0 {
        bail!("--multipv must be at least 1");
    }
    let mut limits = Limits {
        depth: args.depth,
        nodes: args.nodes,
        ..Limits::default()
    };
    if args.depth == Some(0) || args.nodes == Some(0) || args.movetime == Some(0) {
        bail!("limits must be at least 1");
    }
    let movetime = args.movetime.or(
        (args.depth.is_none() && args.nodes.is_none() && !args.exact)
            .then_some(DEFAULT_MOVETIME_MS),
    );
    if let Some(millis) = movetime {
        limits = limits.tightest(clock::move_time(
            Duration::from_millis(millis),
            Duration::ZERO,
        ));
    }
    Ok(Task {
        limits,
        exact: args.exact,
        multipv: args.multipv,
        keep_table: args.keep_table,
    })
}

/// The solver distance of each position (empties in Reversi), for games with a solver.
struct Distances<'a>(&'a [input::Item]);

impl GameVisitor for Distances<'_> {
    type Output = Vec<u32>;

    fn visit<G: Game>(self, mut game: G) -> Vec<u32> {
        self.0
            .iter()
            .filter_map(|item| {
                game.set_position_string(&item.position).ok()?;
                game.solver_distance()
            })
            .collect()
    }
}

/// Whether some position is big enough for every thread (see [`plan::plan`]).
fn has_big_positions(
    args: &AnalyzeArgs,
    options: &[(String, String)],
    items: &[input::Item],
) -> Result<bool> {
    if args
        .movetime
        .is_some_and(|millis| millis >= BIG_MOVETIME_MS)
    {
        return Ok(true);
    }
    if !args.exact {
        return Ok(false);
    }
    let distances = games::create(&args.game, options)?.visit(Distances(items));
    Ok(distances
        .iter()
        .any(|&distance| distance >= BIG_SOLVE_DISTANCE))
}

/// The output: stdout, a new file, or with `--resume` the file so far. Returns the writer and
/// what the file already holds.
fn open_output(args: &AnalyzeArgs, input: &Input) -> Result<(Writer, resume::Existing)> {
    let Some(path) = &args.output else {
        let writer = Writer::new(args.format, Box::new(std::io::stdout()), true)?;
        return Ok((writer, resume::Existing::default()));
    };
    let total = input.items.len();
    let existing = if args.resume {
        resume::scan(path, args.format, total, &|index| {
            input.items.get(index).map(|item| item.position.clone())
        })?
    } else {
        if std::fs::metadata(path).is_ok_and(|metadata| metadata.len() > 0) {
            bail!(
                "{} exists: --resume continues it; remove it to start again",
                path.display()
            );
        }
        resume::Existing::default()
    };
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("opening {}", path.display()))?;
    let writer = Writer::new(args.format, Box::new(file), !existing.has_header)?;
    Ok((writer, existing))
}

/// Runs an analysis with `interrupt` as its Ctrl-C.
///
/// # Errors
/// As [`run`].
pub fn run_analysis(args: &AnalyzeArgs, interrupt: &Interrupt) -> Result<()> {
    let options = game_options(args)?;
    let task = task(args)?;
    let mut reader = rules_session(&args.game, &options)
        .with_context(|| format!("cannot set up {}", args.game))?;
    if args.exact && !reader.has_solver() {
        bail!("--exact: {} has no exact solver", reader.game_name());
    }
    let input = input::read_inputs(&args.files, reader.as_mut(), args.strict)?;
    let total = input.items.len();
    let selected: Vec<usize> = (0..total)
        .filter(|&index| args.shard.is_none_or(|shard| shard.takes(index)))
        .collect();
    let (mut writer, existing) = open_output(args, &input)?;
    let done = &existing.done;
    if let Some(index) = done
        .iter()
        .find(|&&index| args.shard.is_some_and(|shard| !shard.takes(index)))
    {
        bail!(
            "the output holds position {index}, which is not in shard {}/{}: was it written for another shard?",
            args.shard.map_or(0, |shard| shard.number),
            args.shard.map_or(0, |shard| shard.count)
        );
    }
    let todo: Vec<usize> = selected
        .iter()
        .copied()
        .filter(|index| !done.contains(index))
        .collect();
    let skipped = selected.len() - todo.len();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let big = has_big_positions(args, &options, &input.items)?;
    let plan = plan::plan(cores, todo.len(), big, args.jobs, args.threads, args.hash);
    log::info!(
        "{} positions to analyse ({} done before): {} jobs of {} threads, {} MB of table each",
        todo.len(),
        skipped,
        plan.jobs,
        plan.threads,
        plan.hash_per_job
    );
    let settings = Settings {
        hash_megabytes: plan.hash_per_job,
        threads: plan.threads,
        level: args.level,
        info: InfoMode::Off,
        overhead: Duration::ZERO,
        ..Settings::default()
    };
    let mut sessions: Vec<Box<dyn Session>> = Vec::with_capacity(plan.jobs);
    for _ in 0..plan.jobs.min(todo.len()) {
        let stop = Arc::new(StopSignal::default());
        interrupt.watch(stop.clone());
        sessions.push(
            new_session(&args.game, &options, settings.clone(), stop, None)
                .with_context(|| format!("cannot set up {}", args.game))?,
        );
    }
    let progress =
        crate::tools::progress::bar(todo.len() as u64, skipped as u64, "positions", args.quiet);
    let mut summary = summary::Summary::default();
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel();
    let written = std::thread::scope(|scope| -> Result<()> {
        for mut session in sessions.drain(..) {
            let sender = sender.clone();
            let (todo, next, input, task) = (&todo, &next, &input, &task);
            scope.spawn(move || {
                while !interrupt.is_raised() {
                    let Some(&index) = todo.get(next.fetch_add(1, Ordering::SeqCst)) else {
                        break;
                    };
                    let item = &input.items[index];
                    let source = &input.sources[item.source];
                    match search::analyse(session.as_mut(), item, index, total, source, task) {
                        // Ctrl-C may have stopped the solve that failed: leave it for --resume.
                        Some(record) if record.error.is_some() && interrupt.is_raised() => break,
                        Some(record) => {
                            if sender.send(record).is_err() {
                                break;
                            }
                        }
                        None => break,
                    }
                }
            });
        }
        drop(sender);
        for record in receiver {
            writer.write(&record).context("writing the output")?;
            summary.add(&record);
            progress.inc(1);
            if summary.answered > 0 {
                progress.set_message(format!("{}/{} agree", summary.agreed, summary.answered));
            }
        }
        Ok(())
    });
    crate::tools::progress::finish(&progress);
    let mut text = summary.text(skipped, input.bad_lines);
    if existing.answered > 0 {
        let (agreed, answered) = (
            existing.agreed + summary.agreed,
            existing.answered + summary.answered,
        );
        text.push_str(&format!(
            "answers in the whole output: {agreed} of {answered} positions agree, {} do not\n",
            answered - agreed
        ));
    }
    if args.output.is_some() {
        print!("{text}");
    } else {
        eprint!("{text}");
    }
    written?;
    if interrupt.is_raised() {
        let left = todo.len() - summary.positions;
        return Err(Interrupted(format!(
            "{left} positions left; run again with --resume to finish"
        ))
        .into());
    }
    Ok(())
}
