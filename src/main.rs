//! The `tabula` binary: the engine loop by default, and subcommands for perft, solving, and
//! self-play, training and tuning.

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Instant;
use tabula::engine::{InfoMode, Settings, StopSignal};
use tabula::games;
use tabula::protocol::{self, output::Output, Protocol};

/// One engine for Reversi/Othello, Gomoku and Chinese Checkers. With no subcommand it speaks its
/// GTP-like protocol on stdin/stdout (see protocol.md).
#[derive(Parser)]
#[command(name = "tabula", version, about)]
struct Cli {
    /// The Reversi pattern weights for full-strength evaluation: a weight file written by
    /// `tabula train reversi`, `none` for the hand-made evaluation, or `embedded` (the default). A
    /// shorthand for the `weights` option of every Reversi session (`set_game reversi
    /// weights=FILE`, `set_option weights FILE`), which a session's own option overrides.
    #[arg(long, global = true, default_value = "embedded")]
    weights: String,
    /// The protocol to speak: gtp, piskvork (gomocup) or nboard. Without it the first line
    /// chooses, and a program named pbrain-* speaks Piskvork.
    #[arg(long, value_parser = parse_protocol)]
    protocol: Option<Protocol>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Counts the leaves of the move tree at each depth, with time and leaves per second.
    Perft {
        /// The game: reversi (othello), gomoku or chinese-checkers.
        #[arg(long, default_value = "reversi")]
        game: String,
        /// Board size, for games that have one.
        #[arg(long)]
        size: Option<usize>,
        /// Further game options as key=value (e.g. rule=renju, players=3, jumps=long).
        #[arg(long = "option", short = 'o')]
        options: Vec<String>,
        /// Start from this position string instead of the start position.
        #[arg(long)]
        position: Option<String>,
        /// The deepest depth to count.
        #[arg(long)]
        depth: usize,
        /// Print the count below each move at the last depth.
        #[arg(long)]
        divide: bool,
    },
    /// Searches a fixed set of positions per game to a fixed depth: total nodes (a signature of the
    /// search), time and nodes per second.
    Bench {
        /// Search threads (1 gives a deterministic node count).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Transposition table size in MB.
        #[arg(long, default_value_t = 64)]
        hash: usize,
        /// Search depth for every game, instead of each game's default (13 Reversi, 6 Gomoku and Chinese Checkers).
        #[arg(long)]
        depth: Option<u32>,
        /// Only this game.
        #[arg(long)]
        game: Option<String>,
    },
    /// Solves the Reversi positions of an Edax `.obf` file exactly and checks the known scores.
    Solve {
        /// The `.obf` file (e.g. ../shared/data/othello/ffo-40-59.obf).
        file: std::path::PathBuf,
        /// The number of the file's first position (FFO files start at 40, say).
        #[arg(long, default_value_t = 1)]
        first_number: usize,
        /// Only positions numbered from here...
        #[arg(long)]
        from: Option<usize>,
        /// ...up to here.
        #[arg(long)]
        to: Option<usize>,
        /// Solver threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Transposition table size in MB.
        #[arg(long, default_value_t = 256)]
        hash: usize,
        /// Score every move, not just the best.
        #[arg(long)]
        all_moves: bool,
    },
    /// Analyses positions from files or stdin (position strings, move sequences, .obf lines,
    /// match records): JSON Lines, CSV or text, with resume, shards and a progress bar.
    Analyze(tabula::tools::analyze::AnalyzeArgs),
    /// Plays a match between engines (GTP, Piskvork, NBoard; one per seat in Chinese Checkers) with a
    /// referee that checks every move: scores, Elo, LOS, SPRT, game records and an Elo plot.
    Match(tabula::tools::matches::MatchArgs),
    /// Plays games between engine configurations in-process, on the engine façade (see
    /// docs/command-line.md).
    #[command(subcommand)]
    Selfplay(tabula::tools::selfplay::SelfplayCommand),
    /// Serves engine sessions and refereed game rooms over TCP, and the web board over HTTP
    /// (see protocol.md, "The server").
    Serve(tabula::server::ServeArgs),
    /// Fits a game's evaluation to played games (see docs/command-line.md).
    #[command(subcommand)]
    Train(tabula::tools::training::TrainCommand),
    /// Tunes a game's numbers by matches or measured searches (see docs/command-line.md).
    #[command(subcommand)]
    Tune(tabula::tools::training::TuneCommand),
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(
        env_logger::Env::default().default_filter_or("warn,tabula::info=info"),
    )
    .target(env_logger::Target::Stderr)
    .init();
    // Choose the instruction set now, so that the log (at info level) names it first.
    tabula::base::cpu::fast();
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            // One line for the user, whatever RUST_BACKTRACE says: anyhow's Debug form (what
            // returning the error from main prints) would add a backtrace.
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<()> {
    choose_weights(&cli.weights)?;
    match cli.command {
        None => {
            let interactive = std::io::stdin().is_terminal();
            let mut settings = Settings::default();
            if interactive {
                eprintln!(
                    "Tabula {}: type `help` or `list_commands`",
                    env!("CARGO_PKG_VERSION")
                );
                // A person at the terminal reads the replies; search lines come when asked for
                // (`set_option info stderr`).
                settings.info = InfoMode::Off;
            }
            let stdin = std::io::BufReader::new(std::io::stdin());
            let chosen = cli.protocol.or_else(|| {
                std::env::args()
                    .next()
                    .and_then(|program| Protocol::from_program_name(&program))
            });
            protocol::serve(stdin, Output::stdout(), settings, chosen);
            Ok(())
        }
        Some(Command::Perft {
            game,
            size,
            options,
            position,
            depth,
            divide,
        }) => perft(&game, size, &options, position.as_deref(), depth, divide),
        Some(Command::Bench {
            threads,
            hash,
            depth,
            game,
        }) => {
            let game = game
                .map(|name| {
                    games::canonical_name(&name)
                        .map(str::to_string)
                        .context("unknown game")
                })
                .transpose()?;
            bench(&tabula::tools::bench::BenchSettings {
                threads,
                hash_megabytes: hash,
                depth,
                game,
                selectivity: None,
                probcut: true,
            });
            Ok(())
        }
        Some(Command::Solve {
            file,
            first_number,
            from,
            to,
            threads,
            hash,
            all_moves,
        }) => tabula::tools::solve_file::run(&tabula::tools::solve_file::SolveRequest {
            file,
            first_number,
            from,
            to,
            threads,
            hash_megabytes: hash,
            all_moves,
        }),
        Some(Command::Selfplay(command)) => tabula::tools::selfplay::run(&command),
        Some(Command::Analyze(args)) => tools_exit(tabula::tools::analyze::run(&args)),
        Some(Command::Match(args)) => tools_exit(tabula::tools::matches::run(&args)),
        Some(Command::Serve(args)) => tabula::server::run(args),
        Some(Command::Train(command)) => tabula::tools::training::train(&command),
        Some(Command::Tune(command)) => tabula::tools::training::tune(&command),
    }
}

/// A tool's result; an interrupted run exits with the status of Ctrl-C, and a run whose reader
/// closed its output (`tabula analyze ... | head`) ends quietly, as command-line filters do.
fn tools_exit(result: Result<()>) -> Result<()> {
    if let Err(error) = &result {
        if let Some(interrupted) = error.downcast_ref::<tabula::tools::interrupt::Interrupted>() {
            eprintln!("{interrupted}");
            std::process::exit(tabula::tools::interrupt::EXIT_STATUS);
        }
        let closed_output = error.chain().any(|cause| {
            cause
                .downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
        });
        if closed_output {
            return Ok(());
        }
    }
    result
}

fn parse_protocol(name: &str) -> Result<Protocol, String> {
    Protocol::from_name(name)
        .ok_or_else(|| format!("unknown protocol '{name}' (gtp, piskvork, nboard)"))
}

/// Makes the Reversi pattern weights named on the command line the default of every position: a
/// shorthand for the `weights` game option of every session.
fn choose_weights(choice: &str) -> Result<()> {
    use tabula::games::{reversi::evaluation, WeightsChoice};
    let choice = WeightsChoice::parse(choice);
    if choice == WeightsChoice::Default || choice == WeightsChoice::File("embedded".into()) {
        return Ok(());
    }
    let patterns = evaluation::load(&choice)?;
    Ok(evaluation::set_default(patterns)?)
}

fn bench(settings: &tabula::tools::bench::BenchSettings) {
    let lines = tabula::tools::bench::run(settings);
    let (mut nodes, mut seconds) = (0u64, 0f64);
    for line in &lines {
        let time = line.elapsed.as_secs_f64();
        println!(
            "{:<22} {:>6} {:>9} {:>14} nodes {:>9.3} s {:>12.0} nodes/s",
            line.label,
            line.best_move,
            line.score.map_or("-".to_string(), |score| {
                tabula::protocol::gtp::format_score(&score, line.unit)
            }),
            line.nodes,
            time,
            line.nodes as f64 / time.max(1e-9)
        );
        nodes += line.nodes;
        seconds += time;
    }
    println!(
        "total {nodes} nodes {seconds:.3} s {:.0} nodes/s ({} threads)",
        nodes as f64 / seconds.max(1e-9),
        settings.threads
    );
}

fn perft(
    game: &str,
    size: Option<usize>,
    options: &[String],
    position: Option<&str>,
    depth: usize,
    divide: bool,
) -> Result<()> {
    let mut words: Vec<String> = options.to_vec();
    if let Some(size) = size {
        words.push(format!("size={size}"));
    }
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let options = games::parse_options(&words)?;
    let stop = std::sync::Arc::new(StopSignal::default());
    let mut session = tabula::engine::new_session(game, &options, Settings::default(), stop, None)
        .with_context(|| format!("cannot set up {game}"))?;
    if let Some(position) = position {
        session.set_position(position)?;
    }
    if depth == 0 {
        bail!("depth must be at least 1");
    }
    println!("{}", session.diagram());
    let mut total_leaves = 0u64;
    let mut total_time = 0f64;
    for current in 1..=depth {
        let start = Instant::now();
        let leaves = session.perft(current);
        let seconds = start.elapsed().as_secs_f64();
        total_leaves += leaves;
        total_time += seconds;
        println!(
            "perft {current:>2} {leaves:>16} {seconds:>10.3} s {:>14.0} leaves/s",
            leaves as f64 / seconds.max(1e-9)
        );
    }
    println!(
        "total {total_leaves} leaves in {total_time:.3} s: {:.0} leaves/s",
        total_leaves as f64 / total_time.max(1e-9)
    );
    if divide {
        for (mv, count) in session.divide(depth)?.moves {
            println!("{mv} {count}");
        }
    }
    Ok(())
}
