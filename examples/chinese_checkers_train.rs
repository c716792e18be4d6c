//! Trains the Chinese Checkers evaluation weights: plays the fixed set of self-play matches below
//! at fixed depths, labels each position of an engine seat with the moves that seat still needed
//! to finish, fits a ridge regression (every tenth game held out), and prints the weights as the
//! array of `Weights::DEFAULT` in `src/games/chinese_checkers/evaluation.rs`.
//!
//!     cargo run --release --example chinese_checkers_train -- --jobs 2
//!     cargo run --release --example chinese_checkers_train -- --jobs 2 --weights "rows=300,..."
//!
//! `--weights` makes the engines play with other weights (a second round trains on the games of
//! the first round's weights); `--scale` multiplies the number of games.

use clap::Parser;
use std::time::{Duration, Instant};
use tabula::games::chinese_checkers::evaluation::{Weights, FEATURE_NAMES};
use tabula::games::chinese_checkers::Rules;
use tabula::tools::chinese_checkers_match::{Contender, MatchSettings};
use tabula::tools::chinese_checkers_training::{as_source, collect, fit, mean_error, Sample};

#[derive(Parser)]
struct Arguments {
    /// Games at once.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// The engines' weights while they play (default: the compiled-in ones).
    #[arg(long)]
    weights: Option<String>,
    /// Ridge penalty per sample.
    #[arg(long, default_value_t = 0.001)]
    l2: f64,
    /// Multiplies every match's number of games.
    #[arg(long, default_value_t = 1.0)]
    scale: f64,
}

/// The matches: player count, lineup, games, depth, greedy opening plies.
const MATCHES: &[(usize, &str, usize, u32, usize)] = &[
    (2, "8,8", 120, 3, 8),
    (3, "8,8,8", 60, 3, 9),
    (4, "8,8,8,8", 30, 3, 8),
    (6, "8,8,8,8,8,8", 20, 2, 12),
    (6, "8,greedy,greedy,greedy,greedy,greedy", 60, 3, 0),
    (3, "8,greedy,greedy", 40, 3, 0),
];

fn main() -> anyhow::Result<()> {
    let arguments = Arguments::parse();
    let weights: Weights = match &arguments.weights {
        Some(text) => text.parse().map_err(anyhow::Error::msg)?,
        None => Weights::DEFAULT,
    };
    println!("playing with {weights:?}");
    let mut training: Vec<Sample> = Vec::new();
    let mut validation: Vec<Sample> = Vec::new();
    for (number, &(players, lineup, games, depth, opening)) in MATCHES.iter().enumerate() {
        let lineup: Vec<Contender> = lineup
            .split(',')
            .map(|text| text.parse())
            .collect::<Result<_, String>>()
            .map_err(anyhow::Error::msg)?;
        let settings = MatchSettings {
            rules: Rules {
                players,
                ..Rules::default()
            },
            lineup,
            games: ((games as f64) * arguments.scale).round().max(1.0) as usize,
            movetime: Duration::from_millis(200),
            hash_megabytes: 16,
            seed: 1000 + number as u64,
            jobs: arguments.jobs,
            opening_plies: opening,
            weights: vec![weights; players],
            depth: Some(depth),
            nodes: None,
        };
        let start = Instant::now();
        let games = collect(&settings);
        let count: usize = games.iter().map(Vec::len).sum();
        for (index, samples) in games.into_iter().enumerate() {
            if index % 10 == 9 {
                validation.extend(samples);
            } else {
                training.extend(samples);
            }
        }
        println!(
            "{players} players, {} games at depth {depth}: {count} positions in {:.0} s",
            settings.games,
            start.elapsed().as_secs_f64()
        );
    }
    let (fitted, intercept) = fit(&training, arguments.l2);
    println!(
        "{} training and {} validation positions; intercept {intercept:.3} moves",
        training.len(),
        validation.len()
    );
    for (name, weight) in FEATURE_NAMES.iter().zip(&fitted) {
        println!("  {name:>13}: {weight:+.4} moves");
    }
    println!(
        "mean absolute error: training {:.3} moves, validation {:.3} moves",
        mean_error(&training, &fitted, intercept),
        mean_error(&validation, &fitted, intercept)
    );
    let rows_only = {
        let mut only = [0.0; tabula::games::chinese_checkers::evaluation::FEATURES];
        only[0] = 1.0 / 3.0;
        only
    };
    println!(
        "  (a third of a move a row, for comparison: validation {:.3} moves)",
        mean_error(&validation, &rows_only, 0.0)
    );
    println!("features: {}", as_source(&fitted));
    Ok(())
}
