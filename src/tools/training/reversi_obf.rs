//! `tabula [--weights FILE] train reversi --measure --obf FILE...`: compares the static
//! evaluations with the exact scores of `.obf` test positions (validation only). Prints, per file,
//! the mean absolute error of the evaluation in use in discs, and the correlation of it and of the
//! hand-made evaluation with the exact scores.

use crate::game::Strength;
use crate::games::reversi::evaluation::{default_patterns, evaluate, hand_made, DISC};
use crate::games::reversi::obf;
use anyhow::{anyhow, Context, Result};
use std::path::PathBuf;

fn correlation(pairs: &[(f64, f64)]) -> f64 {
    let count = pairs.len() as f64;
    let (mean_x, mean_y) = pairs
        .iter()
        .fold((0.0, 0.0), |(x, y), &(a, b)| (x + a / count, y + b / count));
    let (mut xy, mut xx, mut yy) = (0.0, 0.0, 0.0);
    for &(x, y) in pairs {
        xy += (x - mean_x) * (y - mean_y);
        xx += (x - mean_x) * (x - mean_x);
        yy += (y - mean_y) * (y - mean_y);
    }
    xy / (xx * yy).sqrt().max(1e-12)
}

/// Measures the evaluation in use on the positions of `files`.
///
/// # Errors
/// A file cannot be read or is no `.obf` file.
pub fn measure(files: &[PathBuf]) -> Result<()> {
    let patterns_in_use = default_patterns();
    for file in files {
        let name = file.display();
        let text = std::fs::read_to_string(file).with_context(|| format!("reading {name}"))?;
        let positions = obf::parse_file(&text).map_err(|error| anyhow!("{name}: {error}"))?;
        let mut patterns = Vec::new();
        let mut hand = Vec::new();
        for entry in &positions {
            let Some(exact) = entry.best_score() else {
                continue;
            };
            let (player, opponent) = (entry.position.player, entry.position.opponent);
            let value = evaluate(
                player,
                opponent,
                Strength::FULL,
                patterns_in_use.values.as_ref(),
            ) as f64
                / DISC as f64;
            patterns.push((value, exact as f64));
            hand.push((hand_made(player, opponent, 7) as f64, exact as f64));
        }
        let error =
            patterns.iter().map(|(x, y)| (x - y).abs()).sum::<f64>() / patterns.len().max(1) as f64;
        println!(
            "{name}: {} positions; evaluation MAE {error:.2} discs, correlation {:.3}; hand-made correlation {:.3}",
            patterns.len(),
            correlation(&patterns),
            correlation(&hand)
        );
    }
    Ok(())
}
