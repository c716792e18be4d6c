//! The `tabula` binary: the engine loop by default, and subcommands for perft and benchmarks.

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use std::time::Instant;
use tabula::engine::{Settings, StopSignal};
use tabula::games;
use tabula::protocol::{self, output::Output};

/// One engine for Reversi/Othello, Gomoku and Chinese Checkers. With no subcommand it speaks its
/// GTP-like protocol on stdin/stdout (see protocol.md).
#[derive(Parser)]
#[command(name = "tabula", version, about)]
struct Cli {
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
}

fn main() -> Result<()> {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    match cli.command {
        None => {
            let stdin = std::io::BufReader::new(std::io::stdin());
            protocol::serve(stdin, Output::stdout(), Settings::default());
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
    }
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
    let mut session = games::new_session(game, &options, Settings::default(), stop)
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
        for (mv, count) in session.divide(depth) {
            println!("{mv} {count}");
        }
    }
    Ok(())
}
