//! Calibrates the Reversi ProbCut model and prints the Rust table the build uses
//! (`src/games/reversi/probcut_table.rs`); run by `scripts/train/calibrate-reversi-probcut.sh`:
//!
//!     cargo run --release --example reversi_probcut -- POSITIONS SEED THREADS DEEPEST \
//!         FEWEST_EMPTIES MOST_EMPTIES SUMMARY_FILE > src/games/reversi/probcut_table.rs
//!
//! The summary file gets the fitted lines of the pairs the model uses, in discs. Progress goes to
//! stderr.

use std::time::Instant;
use tabula::games::reversi::probcut::shallow_depth;
use tabula::tools::reversi_probcut::{calibrate, summary, table_source, CalibrationConfig};

fn main() -> anyhow::Result<()> {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let [positions, seed, threads, deepest, fewest, most, summary_file] = arguments.as_slice()
    else {
        anyhow::bail!(
            "usage: reversi_probcut POSITIONS SEED THREADS DEEPEST FEWEST_EMPTIES MOST_EMPTIES SUMMARY_FILE"
        );
    };
    let config = CalibrationConfig {
        positions: positions.parse()?,
        seed: seed.parse()?,
        threads: threads.parse()?,
        deepest: deepest.parse()?,
        fewest_empties: fewest.parse()?,
        most_empties: most.parse()?,
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
    std::fs::write(summary_file, &text)?;
    eprint!("{text}");
    Ok(())
}
