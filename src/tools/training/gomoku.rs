//! Fits the Gomoku pattern evaluation's weights to game results (Texel's method): every quiet
//! position of a set of games is labelled with the game's result for the side to move, and the
//! weights are chosen to minimise the log-loss of `sigmoid(scale * value)` against the labels,
//! where `value` is the linear pattern value of `src/games/gomoku/evaluation.rs` (the side to
//! move's features times the `own.` weights minus the opponent's times the `other.` weights).
//!
//! ```text
//! tabula train gomoku --games games.txt [--games more.txt] \
//!     --start data/gomoku-weights-hand.txt --out data/gomoku-weights.txt \
//!     [--epochs 400] [--skip 4] [--regularisation 0.0001] [--steps 0.25,0.5,1]
//! tabula train gomoku --start current.txt --scale own.open-three=1.25 \
//!     --out candidate.txt
//! ```
//!
//! The games are lines as ``tabula selfplay gomoku --out`` writes them: the rule, the board size, the
//! moves from the empty board run together (`h8g8k9...`) and black's result (1, 0.5 or 0).
//! A position is used when it is not the game's first `--skip` plies, the game is not over and no
//! threat decides it within three plies (those are scored by fixed values, not by the weights).
//! The scale is first fitted to the starting weights and then held, so the tuned weights keep
//! the starting weights' units. The weights are then fitted by full-batch gradient descent (Adam)
//! in floating point, from the starting weights, with a small pull towards them, and rounded.
//! Everything is deterministic: the same games and options give the same file.
//!
//! With `--steps`, the candidates of a line search are written as well: for each step `a`, the
//! weights `start + a (fit - start)` (the fit before rounding), rounded, to `OUT` with `-a` before
//! its extension (`fit.txt` gives `fit-0.25.txt`, ...). The tuning pipeline plays them against the
//! current weights in an SPRT.
//!
//! Without `--games`, `--scale NAME=FACTOR` (once or more) writes the starting weights with those
//! weights multiplied and rounded: the pipeline's one-weight candidates.

use crate::game::{Rules, Strength};
use crate::games::gomoku::evaluation::{self, Weights};
use crate::games::gomoku::{Gomoku, GomokuMove, Rule};
use anyhow::{anyhow, bail, Context};
use std::io::Write;

/// One training position: its features for the side to move and the result for that side.
struct Sample {
    features: Vec<f64>,
    result: f64,
}

/// Splits run-together moves such as `h8g10k9` into `["h8", "g10", "k9"]`.
fn split_moves(text: &str) -> Vec<&str> {
    let mut moves = Vec::new();
    let bytes = text.as_bytes();
    let mut start = 0;
    for index in 1..=bytes.len() {
        let boundary = index == bytes.len() || bytes[index].is_ascii_alphabetic();
        if boundary && bytes[index - 1].is_ascii_digit() {
            moves.push(&text[start..index]);
            start = index;
        }
    }
    moves
}

/// The positions of one games file that the fit uses.
fn read_samples(path: &str, skip: usize, samples: &mut Vec<Sample>) -> anyhow::Result<usize> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
    let mut games = 0;
    for line in text.lines().filter(|line| !line.trim().is_empty()) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let wrong = || anyhow!("{path}: not 'rule size moves result': {line}");
        if words.len() != 4 {
            return Err(wrong());
        }
        let rule = Rule::parse(words[0]).ok_or_else(wrong)?;
        let size: usize = words[1].parse().map_err(|_| wrong())?;
        let black: f64 = words[3].parse().map_err(|_| wrong())?;
        let mut game = Gomoku::new(size, rule).map_err(|_| wrong())?;
        games += 1;
        for (ply, text) in split_moves(words[2]).into_iter().enumerate() {
            if ply >= skip && game.outcome().is_none() {
                let value = evaluation::evaluate(&game, Strength(8));
                let decided = value.abs() > 8000;
                if !decided {
                    let result = if game.side_to_move() == 0 {
                        black
                    } else {
                        1.0 - black
                    };
                    // The evaluation subtracts the opponent's features.
                    let features = evaluation::features(&game)
                        .into_iter()
                        .zip(Weights::names())
                        .map(|(count, name)| {
                            let sign = if name.starts_with("other.") {
                                -1.0
                            } else {
                                1.0
                            };
                            sign * f64::from(count)
                        })
                        .collect();
                    samples.push(Sample { features, result });
                }
            }
            let mv: GomokuMove = game.parse_move(text).map_err(|_| wrong())?;
            game.try_play(mv).map_err(|_| wrong())?;
        }
    }
    Ok(games)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn value(weights: &[f64], features: &[f64]) -> f64 {
    weights.iter().zip(features).map(|(w, f)| w * f).sum()
}

/// The mean log-loss of `weights` at `scale`.
fn loss(samples: &[Sample], weights: &[f64], scale: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|sample| {
            let p = sigmoid(scale * value(weights, &sample.features)).clamp(1e-9, 1.0 - 1e-9);
            -(sample.result * p.ln() + (1.0 - sample.result) * (1.0 - p).ln())
        })
        .sum();
    total / samples.len() as f64
}

/// The scale that minimises the loss of `weights`, by golden-section search on its logarithm.
fn fit_scale(samples: &[Sample], weights: &[f64]) -> f64 {
    let (mut low, mut high) = ((1e-5f64).ln(), (1.0f64).ln());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if loss(samples, weights, a.exp()) < loss(samples, weights, b.exp()) {
            high = b;
        } else {
            low = a;
        }
    }
    ((low + high) / 2.0).exp()
}

/// The command line (see the module documentation).
/// The command line of `tabula train gomoku`.
#[derive(clap::Args, Debug)]
pub struct GomokuTrainArgs {
    /// A file of games as ``tabula selfplay gomoku --out`` writes them; give it once per file.
    #[arg(long = "games")]
    pub files: Vec<String>,
    /// The starting weights.
    #[arg(long, default_value = "data/gomoku-weights-hand.txt")]
    pub start: String,
    /// Where to write the tuned weights.
    #[arg(long)]
    pub out: String,
    /// Gradient descent steps.
    #[arg(long, default_value_t = 400)]
    pub epochs: usize,
    /// Opening plies of each game left out.
    #[arg(long, default_value_t = 4)]
    pub skip: usize,
    /// Pull towards the starting weights.
    #[arg(long, default_value_t = 1e-4)]
    pub regularisation: f64,
    /// Steps of the line search from the start towards the fit, comma-separated (`0.25,0.5,1`).
    #[arg(long, value_delimiter = ',')]
    pub steps: Vec<f64>,
    /// Without games: multiply a weight, `NAME=FACTOR`.
    #[arg(long)]
    pub scale: Vec<String>,
}

/// `weights` with the weight `change` names (`NAME=FACTOR`) multiplied by its factor and rounded.
fn scaled(weights: &[i32], change: &str) -> Result<Vec<i32>, String> {
    let (name, factor) = change
        .split_once('=')
        .ok_or_else(|| format!("expected NAME=FACTOR, not '{change}'"))?;
    let factor: f64 = factor
        .parse()
        .map_err(|_| format!("'{factor}' is not a number"))?;
    let index = Weights::names()
        .iter()
        .position(|known| known == name)
        .ok_or_else(|| format!("unknown weight '{name}'"))?;
    let mut weights = weights.to_vec();
    weights[index] = (f64::from(weights[index]) * factor).round() as i32;
    Ok(weights)
}

/// The weights `start + step (fit - start)`, rounded.
fn line_point(start: &[f64], fit: &[f64], step: f64) -> Vec<i32> {
    start
        .iter()
        .zip(fit)
        .map(|(s, f)| (s + step * (f - s)).round() as i32)
        .collect()
}

/// `OUT` with `-step` before its extension: `target/fit.txt` and 0.5 give `target/fit-0.5.txt`.
fn step_path(out: &str, step: f64) -> String {
    match out.rsplit_once('.') {
        Some((stem, extension)) if !extension.contains('/') => format!("{stem}-{step}.{extension}"),
        _ => format!("{out}-{step}"),
    }
}

/// Runs the command.
///
/// # Errors
/// Bad options, or a file that cannot be read or written.
pub fn run(arguments: &GomokuTrainArgs) -> anyhow::Result<()> {
    let GomokuTrainArgs {
        files,
        start: start_path,
        out: out_path,
        epochs,
        skip,
        regularisation,
        steps,
        scale,
    } = arguments;
    let (epochs, skip, regularisation) = (*epochs, *skip, *regularisation);
    let start_text = std::fs::read_to_string(start_path)
        .with_context(|| format!("reading the starting weights {start_path}"))?;
    let start = Weights::parse(&start_text).map_err(|error| anyhow!("{start_path}: {error}"))?;
    if files.is_empty() {
        if scale.is_empty() {
            bail!("give --games to fit, or --scale");
        }
        let mut vector = start.to_vector();
        for change in scale {
            vector = scaled(&vector, change).map_err(anyhow::Error::msg)?;
        }
        let mut file =
            std::fs::File::create(out_path).with_context(|| format!("creating {out_path}"))?;
        write!(file, "{}", scaled_header(&start_text, scale))?;
        write!(file, "{}", Weights::from_vector(&vector).write())?;
        return Ok(());
    }
    let mut samples = Vec::new();
    let mut games = 0;
    for file in files {
        games += read_samples(file, skip, &mut samples)?;
    }
    eprintln!("{games} games, {} positions", samples.len());
    let initial: Vec<f64> = start.to_vector().into_iter().map(f64::from).collect();
    for (label, result) in [("won", 1.0), ("lost", 0.0)] {
        let values: Vec<f64> = samples
            .iter()
            .filter(|sample| sample.result == result)
            .map(|sample| value(&initial, &sample.features))
            .collect();
        let mean = values.iter().sum::<f64>() / values.len().max(1) as f64;
        if std::env::var("TUNE_DEBUG").is_ok() {
            for (index, name) in Weights::names().iter().enumerate() {
                let total: f64 = samples
                    .iter()
                    .filter(|sample| sample.result == result)
                    .map(|sample| sample.features[index])
                    .sum();
                eprintln!("  {name} {:.2}", total / values.len().max(1) as f64);
            }
        }
        eprintln!(
            "{} positions {label} by the side to move, mean starting value {mean:.1}",
            values.len()
        );
    }
    let scale = fit_scale(&samples, &initial);
    let initial_loss = loss(&samples, &initial, scale);
    eprintln!("scale {scale:.6}, loss of the starting weights {initial_loss:.5}");

    // Features that never occur keep their starting weight (and overlines and fives are not
    // features at all).
    let used: Vec<bool> = (0..Weights::COUNT)
        .map(|index| samples.iter().any(|sample| sample.features[index] != 0.0))
        .collect();
    let mut weights = initial.clone();
    let (mut first, mut second) = (vec![0.0; Weights::COUNT], vec![0.0; Weights::COUNT]);
    let (rate, beta1, beta2) = (1.0, 0.9, 0.999);
    // The pull towards the starting weights, relative to their size.
    let prior: Vec<f64> = initial.iter().map(|w| w.abs().max(10.0)).collect();
    for epoch in 1..=epochs {
        let mut gradient = vec![0.0; Weights::COUNT];
        for sample in &samples {
            let p = sigmoid(scale * value(&weights, &sample.features));
            let error = (p - sample.result) * scale;
            for (g, f) in gradient.iter_mut().zip(&sample.features) {
                *g += error * f;
            }
        }
        for index in 0..Weights::COUNT {
            if !used[index] {
                continue;
            }
            let pull = 2.0 * regularisation * (weights[index] - initial[index]) / prior[index];
            let g = gradient[index] / samples.len() as f64 + pull;
            first[index] = beta1 * first[index] + (1.0 - beta1) * g;
            second[index] = beta2 * second[index] + (1.0 - beta2) * g * g;
            let corrected_first = first[index] / (1.0 - beta1.powi(epoch as i32));
            let corrected_second = second[index] / (1.0 - beta2.powi(epoch as i32));
            weights[index] -= rate * corrected_first / (corrected_second.sqrt() + 1e-12);
        }
        if epoch % 100 == 0 {
            eprintln!("epoch {epoch}: loss {:.5}", loss(&samples, &weights, scale));
        }
    }
    let rounded = line_point(&initial, &weights, 1.0);
    let final_loss = loss(
        &samples,
        &rounded.iter().map(|&w| f64::from(w)).collect::<Vec<_>>(),
        scale,
    );
    eprintln!("loss of the tuned weights {final_loss:.5} (was {initial_loss:.5})");
    let tuned = Weights::from_vector(&rounded);
    let mut file =
        std::fs::File::create(out_path).with_context(|| format!("creating {out_path}"))?;
    writeln!(
        file,
        "# Gomoku pattern evaluation weights (see src/games/gomoku/evaluation.rs), written by\n\
         # scripts/train/tune-gomoku-eval.sh: Texel fit from {start_path} on {games} games,\n\
         # {} positions, scale {scale:.6}, log-loss {initial_loss:.5} -> {final_loss:.5}.",
        samples.len()
    )?;
    write!(file, "{}", tuned.write())?;
    for &step in steps {
        let point = line_point(&initial, &weights, step);
        let point_loss = loss(
            &samples,
            &point.iter().map(|&w| f64::from(w)).collect::<Vec<_>>(),
            scale,
        );
        let path = step_path(out_path, step);
        let mut file = std::fs::File::create(&path).with_context(|| format!("creating {path}"))?;
        writeln!(
            file,
            "# Gomoku pattern evaluation weights (see src/games/gomoku/evaluation.rs), written by\n\
             # scripts/train/tune-gomoku-eval.sh: {start_path} + {step} x (Texel fit - it) on {games}\n\
             # games, {} positions, scale {scale:.6}, log-loss {initial_loss:.5} -> {point_loss:.5}.",
            samples.len()
        )?;
        write!(file, "{}", Weights::from_vector(&point).write())?;
        eprintln!("step {step}: loss {point_loss:.5}, written to {path}");
    }
    Ok(())
}

/// The header of a weights file made by one-weight changes: the start's own header, which says
/// where it came from, then the changes, so that it names no file of the pipeline's work folder
/// (the output must not depend on where that folder is).
fn scaled_header(start_text: &str, changes: &[String]) -> String {
    let mut header = String::new();
    for line in start_text.lines().take_while(|line| line.starts_with('#')) {
        header.push_str(line);
        header.push('\n');
    }
    header.push_str(&format!("# Then {}.\n", changes.join(", ")));
    header
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_points_run_from_the_start_to_the_fit() {
        let (start, fit) = ([10.0, 40.0, 0.0], [20.0, 30.0, -3.0]);
        assert_eq!(line_point(&start, &fit, 0.0), [10, 40, 0]);
        assert_eq!(line_point(&start, &fit, 0.25), [13, 38, -1]);
        assert_eq!(line_point(&start, &fit, 1.0), [20, 30, -3]);
        assert_eq!(step_path("target/x/fit.txt", 0.25), "target/x/fit-0.25.txt");
        assert_eq!(step_path("fit", 1.0), "fit-1");
    }

    #[test]
    fn scaling_changes_one_named_weight() {
        let start = Weights::parse("own.open-three 40\nother.four 40\n")
            .unwrap()
            .to_vector();
        let names = Weights::names();
        let open_three = names
            .iter()
            .position(|name| name == "own.open-three")
            .unwrap();
        let four = names.iter().position(|name| name == "other.four").unwrap();
        let changed = scaled(&start, "own.open-three=1.25").unwrap();
        assert_eq!(changed[open_three], 50);
        assert_eq!(changed[four], 40);
        assert_eq!(scaled(&start, "other.four=0.8").unwrap()[four], 32);
        assert!(scaled(&start, "own.six=2").is_err());
        assert!(scaled(&start, "own.open-three").is_err());
    }

    #[test]
    fn a_scaled_file_keeps_its_starts_header_and_names_no_work_file() {
        let start =
            "# written by the fit: hand + 0.25 x (fit - hand)\n# on 600 games.\nown.four 63\n";
        let header = scaled_header(start, &["own.four=1.25".to_string()]);
        assert_eq!(
            header,
            "# written by the fit: hand + 0.25 x (fit - hand)\n# on 600 games.\n# Then own.four=1.25.\n"
        );
    }

    #[test]
    fn splits_run_together_moves() {
        assert_eq!(split_moves("h8g10k9"), vec!["h8", "g10", "k9"]);
        assert_eq!(split_moves("a1"), vec!["a1"]);
    }
}
