//! Fits the Gomoku pattern evaluation's weights to game results (Texel's method): every quiet
//! position of a set of games is labelled with the game's result for the side to move, and the
//! weights are chosen to minimise the log-loss of `sigmoid(scale * value)` against the labels,
//! where `value` is the linear pattern value of `src/games/gomoku/evaluation.rs` (the side to
//! move's features times the `own.` weights minus the opponent's times the `other.` weights).
//!
//! ```text
//! cargo run --release --example gomoku_tune -- --games games.txt [--games more.txt] \
//!     --start data/gomoku-weights-hand.txt --out data/gomoku-weights.txt \
//!     [--epochs 400] [--skip 4] [--regularisation 0.0001]
//! ```
//!
//! The games are lines as `gomoku_selfplay --out` writes them: the rule, the board size, the
//! moves from the empty board run together (`h8g8k9...`) and black's result (1, 0.5 or 0).
//! A position is used when it is not the game's first `--skip` plies, the game is not over and no
//! threat decides it within three plies (those are scored by fixed values, not by the weights).
//! The scale is first fitted to the starting weights and then held, so the tuned weights keep
//! the starting weights' units. The weights are then fitted by full-batch gradient descent (Adam)
//! in floating point, from the starting weights, with a small pull towards them, and rounded.
//! Everything is deterministic: the same games and options give the same file.

use std::io::Write;
use tabula::game::{Game, Strength};
use tabula::games::gomoku::evaluation::{self, Weights};
use tabula::games::gomoku::{Gomoku, GomokuMove, Rule};

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
fn read_samples(path: &str, skip: usize, samples: &mut Vec<Sample>) -> usize {
    let text = std::fs::read_to_string(path).expect("a games file");
    let mut games = 0;
    for line in text.lines().filter(|line| !line.trim().is_empty()) {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words.len(), 4, "rule size moves result: {line}");
        let rule = Rule::parse(words[0]).expect("a rule");
        let size: usize = words[1].parse().expect("a size");
        let black: f64 = words[3].parse().expect("a result");
        let mut game = Gomoku::new(size, rule).expect("a board size");
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
            let mv: GomokuMove = game.parse_move(text).expect("a move");
            game.try_play(mv).expect("a legal move");
        }
    }
    games
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
#[derive(clap::Parser)]
struct Arguments {
    /// A file of games as `gomoku_selfplay --out` writes them; give it once per file.
    #[arg(long = "games", required = true)]
    files: Vec<String>,
    /// The starting weights.
    #[arg(long, default_value = "data/gomoku-weights-hand.txt")]
    start: String,
    /// Where to write the tuned weights.
    #[arg(long)]
    out: String,
    /// Gradient descent steps.
    #[arg(long, default_value_t = 400)]
    epochs: usize,
    /// Opening plies of each game left out.
    #[arg(long, default_value_t = 4)]
    skip: usize,
    /// Pull towards the starting weights.
    #[arg(long, default_value_t = 1e-4)]
    regularisation: f64,
}

fn main() {
    let Arguments {
        files,
        start: start_path,
        out: out_path,
        epochs,
        skip,
        regularisation,
    } = clap::Parser::parse();

    let start_text = std::fs::read_to_string(&start_path).expect("the starting weights");
    let start = Weights::parse(&start_text).expect("valid starting weights");
    let mut samples = Vec::new();
    let mut games = 0;
    for file in &files {
        games += read_samples(file, skip, &mut samples);
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
    let rounded: Vec<i32> = weights.iter().map(|w| w.round() as i32).collect();
    let final_loss = loss(
        &samples,
        &rounded.iter().map(|&w| f64::from(w)).collect::<Vec<_>>(),
        scale,
    );
    eprintln!("loss of the tuned weights {final_loss:.5} (was {initial_loss:.5})");
    let tuned = Weights::from_vector(&rounded);
    let mut file = std::fs::File::create(&out_path).expect("the output file");
    writeln!(
        file,
        "# Gomoku pattern evaluation weights (see src/games/gomoku/evaluation.rs), written by\n\
         # scripts/tune-gomoku-eval.sh: Texel fit from {start_path} on {games} games,\n\
         # {} positions, scale {scale:.6}, log-loss {initial_loss:.5} -> {final_loss:.5}.",
        samples.len()
    )
    .expect("writing");
    write!(file, "{}", tuned.write()).expect("writing");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_run_together_moves() {
        assert_eq!(split_moves("h8g10k9"), vec!["h8", "g10", "k9"]);
        assert_eq!(split_moves("a1"), vec!["a1"]);
    }
}
