//! `tabula tune reversi`: calibrates the Reversi ProbCut model and prints the Rust table the build
//! uses (`src/games/reversi/probcut_table.rs`); run by `scripts/train/calibrate-reversi-probcut.sh`.
//! The summary file gets the fitted lines of the pairs the model uses, in discs. Progress goes
//! to stderr.

use crate::games::reversi::probcut::shallow_depth;
use crate::tools::reversi_probcut::{calibrate, summary, table_source, CalibrationConfig};
use std::path::PathBuf;
use std::time::Instant;

/// The command line of `tabula tune reversi`.
#[derive(clap::Args, Debug)]
pub struct ReversiTuneArgs {
    /// Positions to measure.
    #[arg(long)]
    pub positions: usize,
    /// Seed of the positions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// The deepest search depth of the model.
    #[arg(long)]
    pub deepest: u32,
    /// Positions with at least this many empties...
    #[arg(long)]
    pub fewest_empties: u32,
    /// ...and at most this many.
    #[arg(long)]
    pub most_empties: u32,
    /// Where the summary (the fitted lines, in discs) goes.
    #[arg(long)]
    pub summary: PathBuf,
}

/// Runs `tabula tune reversi`.
///
/// # Errors
/// The calibration failed or the summary cannot be written.
pub fn run(arguments: &ReversiTuneArgs) -> anyhow::Result<()> {
    let config = CalibrationConfig {
        positions: arguments.positions,
        seed: arguments.seed,
        threads: arguments.threads,
        deepest: arguments.deepest,
        fewest_empties: arguments.fewest_empties,
        most_empties: arguments.most_empties,
        ..CalibrationConfig::default()
    };
    let start = Instant::now();
    let total = config.positions;
    let calibration = calibrate(&config, &|done| {
        if done % 100 == 0 {
            eprintln!(
                "{done}/{total} positions, {:.0} s",
                start.elapsed().as_secs_f64()
            );
        }
    })?;
    print!("{}", table_source(&calibration));
    let deepest = config.deepest as usize;
    let pairs: Vec<(usize, usize)> = (3..=deepest)
        .map(|deep| (deep, shallow_depth(deep as u32) as usize))
        .collect();
    let mut text = summary(&calibration, &pairs);
    text.push_str(&format!(
        "calibration took {:.0} s on {} threads\n",
        start.elapsed().as_secs_f64(),
        config.threads
    ));
    std::fs::write(&arguments.summary, &text)?;
    eprint!("{text}");
    Ok(())
}
