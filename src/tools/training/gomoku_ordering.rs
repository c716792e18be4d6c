//! `tabula train gomoku-ordering`: Gomoku's move-ordering values fitted to the moves played in
//! games. Each quiet position (no five or open four to make or stop) with more candidates near
//! the stones than the search keeps is a sample; a softmax over those candidates of their
//! ordering values is fitted to the move that was played (maximum likelihood, full-batch Adam,
//! deterministic), starting from the hand-set values at their best temperature. Every tenth game
//! is held out and reported: mean log-likelihood, and how often the played move is ranked first,
//! in the first four and in the first [`WIDTH`].

use super::gomoku::{game_lines, parse_game_line};
use crate::game::Rules;
use crate::games::gomoku::candidates::{
    neighbourhood, ordering_features, OrderingValues, HAND_ORDERING, ORDERING_FEATURES, WIDTH,
};
use crate::games::gomoku::patterns::Pattern;
use crate::games::gomoku::threats::Kind;
use crate::games::gomoku::{Gomoku, GomokuMove};
use anyhow::{anyhow, Context};

/// The command line of `tabula train gomoku-ordering`.
#[derive(clap::Args, Debug)]
pub struct GomokuOrderingArgs {
    /// A file of games, one `rule size moves result` line each (as scripts/train/match-games.py
    /// writes them); give it once per file.
    #[arg(long = "games", required = true)]
    pub files: Vec<String>,
    /// Adam steps over all training samples.
    #[arg(long, default_value_t = 400)]
    pub steps: usize,
    /// Opening plies of each game left out.
    #[arg(long, default_value_t = 4)]
    pub skip: usize,
}

/// Adam's step size, on values in units of the softmax's logits.
const LEARNING_RATE: f64 = 0.02;
/// Pull of each value towards 0.
const REGULARISATION: f64 = 1e-4;
/// Every this many games, one is held out.
const HOLD_OUT: usize = 10;
/// The fitted values are scaled so that an own open three is worth what the hand-set values give
/// it (60), relative to a blocked direction.
const ANCHOR: f64 = 60.0;

/// One position: the features of each candidate and which one was played.
struct Sample {
    candidates: Vec<[f64; ORDERING_FEATURES]>,
    played: usize,
    held_out: bool,
}

/// Whether no five or open four decides the candidates (a quiet position, where the ordering
/// values choose them).
fn quiet(game: &Gomoku) -> bool {
    let side = game.side_to_move();
    let threats = game.threats();
    [Kind::Five, Kind::OpenFour].iter().all(|&kind| {
        threats.points(side, kind).is_empty() && threats.points(side ^ 1, kind).is_empty()
    })
}

fn read_samples(
    path: &str,
    skip: usize,
    games: &mut usize,
    samples: &mut Vec<Sample>,
) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
    for line in game_lines(&text) {
        let wrong = || anyhow!("{path}: not 'rule size moves result': {line}");
        let (mut game, played_moves, _) = parse_game_line(line).ok_or_else(wrong)?;
        *games += 1;
        let held_out = games.is_multiple_of(HOLD_OUT);
        let mut moves = Vec::new();
        for (ply, text) in played_moves.into_iter().enumerate() {
            let mv: GomokuMove = game.parse_move(text).map_err(|_| wrong())?;
            if ply >= skip && game.outcome().is_none() && quiet(&game) {
                moves.clear();
                neighbourhood(&game, &mut moves);
                if let Some(played) = moves.iter().position(|&candidate| candidate == mv) {
                    if moves.len() > WIDTH {
                        samples.push(Sample {
                            candidates: moves
                                .iter()
                                .map(|candidate| {
                                    ordering_features(&game, candidate.point()).map(f64::from)
                                })
                                .collect(),
                            played,
                            held_out,
                        });
                    }
                }
            }
            game.try_play(mv).map_err(|_| wrong())?;
        }
    }
    Ok(())
}

fn dot(values: &[f64; ORDERING_FEATURES], features: &[f64; ORDERING_FEATURES]) -> f64 {
    values
        .iter()
        .zip(features)
        .map(|(value, feature)| value * feature)
        .sum()
}

/// How well `values` predict the played moves of the training or the held-out samples.
#[derive(Clone, Copy, Debug, Default)]
struct Fit {
    log_likelihood: f64,
    first: f64,
    first_four: f64,
    kept: f64,
}

impl std::fmt::Display for Fit {
    fn fmt(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(
            formatter,
            "log-likelihood {:.4}, played move first {:.1}%, in the first 4 {:.1}%, in the first {WIDTH} {:.1}%",
            self.log_likelihood,
            100.0 * self.first,
            100.0 * self.first_four,
            100.0 * self.kept
        )
    }
}

fn measure(samples: &[Sample], values: &[f64; ORDERING_FEATURES], held_out: bool) -> Fit {
    let mut fit = Fit::default();
    let mut count = 0.0;
    for sample in samples.iter().filter(|sample| sample.held_out == held_out) {
        let scores: Vec<f64> = sample
            .candidates
            .iter()
            .map(|features| dot(values, features))
            .collect();
        let top = scores.iter().copied().fold(f64::MIN, f64::max);
        let total: f64 = scores.iter().map(|score| (score - top).exp()).sum();
        let played = scores[sample.played];
        fit.log_likelihood += played - top - total.ln();
        // Ties rank against the played move.
        let above = scores.iter().filter(|&&score| score >= played).count() - 1;
        fit.first += f64::from(u8::from(above == 0));
        fit.first_four += f64::from(u8::from(above < 4));
        fit.kept += f64::from(u8::from(above < WIDTH));
        count += 1.0;
    }
    let count: f64 = f64::max(count, 1.0);
    Fit {
        log_likelihood: fit.log_likelihood / count,
        first: fit.first / count,
        first_four: fit.first_four / count,
        kept: fit.kept / count,
    }
}

/// The temperature that fits the hand-set values best, among powers of 2^(1/6).
fn temperature(samples: &[Sample], hand: &[f64; ORDERING_FEATURES]) -> f64 {
    (0..60)
        .map(|step| 2f64.powf(f64::from(step) / 6.0))
        .map(|tau| {
            (
                measure(samples, &hand.map(|value| value / tau), false).log_likelihood,
                tau,
            )
        })
        .fold(
            (f64::MIN, 1.0),
            |best, next| if next.0 > best.0 { next } else { best },
        )
        .1
}

fn fit(
    samples: &[Sample],
    start: [f64; ORDERING_FEATURES],
    steps: usize,
) -> [f64; ORDERING_FEATURES] {
    let mut values = start;
    let (mut mean, mut square) = ([0.0; ORDERING_FEATURES], [0.0; ORDERING_FEATURES]);
    let train: Vec<&Sample> = samples.iter().filter(|sample| !sample.held_out).collect();
    let count = train.len().max(1) as f64;
    for step in 1..=steps {
        let mut gradient = [0.0; ORDERING_FEATURES];
        for sample in &train {
            let scores: Vec<f64> = sample
                .candidates
                .iter()
                .map(|features| dot(&values, features))
                .collect();
            let top = scores.iter().copied().fold(f64::MIN, f64::max);
            let weights: Vec<f64> = scores.iter().map(|score| (score - top).exp()).collect();
            let total: f64 = weights.iter().sum();
            for (index, features) in sample.candidates.iter().enumerate() {
                let error = f64::from(u8::from(index == sample.played)) - weights[index] / total;
                for (slot, feature) in gradient.iter_mut().zip(features) {
                    *slot += error * feature;
                }
            }
        }
        let step = step as i32;
        for index in 0..ORDERING_FEATURES {
            let slope = gradient[index] / count - REGULARISATION * values[index];
            mean[index] = 0.9 * mean[index] + 0.1 * slope;
            square[index] = 0.999 * square[index] + 0.001 * slope * slope;
            let mean_hat = mean[index] / (1.0 - 0.9f64.powi(step));
            let square_hat = square[index] / (1.0 - 0.999f64.powi(step));
            values[index] += LEARNING_RATE * mean_hat / (square_hat.sqrt() + 1e-8);
        }
    }
    values
}

/// The fitted values in the hand-set values' units: relative to a blocked direction, an own open
/// three worth [`ANCHOR`]; an overline, which the data rarely hold and which wins nothing, is 0.
fn scaled(values: &[f64; ORDERING_FEATURES]) -> OrderingValues {
    let patterns = Pattern::ALL.len();
    let none = Pattern::None as usize;
    let scale = ANCHOR / (values[Pattern::OpenThree as usize] - values[none]);
    let mut vector = [0; ORDERING_FEATURES];
    for (index, value) in values.iter().enumerate() {
        let relative = match index {
            index if index < patterns => value - values[none],
            index if index < 2 * patterns => value - values[patterns + none],
            _ => *value,
        };
        vector[index] = (relative * scale).round() as i32;
    }
    vector[Pattern::Overline as usize] = 0;
    vector[patterns + Pattern::Overline as usize] = 0;
    OrderingValues::from_vector(&vector)
}

/// Runs `tabula train gomoku-ordering`: prints the hand-set values' fit, the fitted values' and
/// the fitted values as `candidates.rs` spells them.
///
/// # Errors
/// A file that cannot be read or holds a line that is not a game.
pub fn run(arguments: &GomokuOrderingArgs) -> anyhow::Result<()> {
    let mut samples = Vec::new();
    let mut games = 0;
    for path in &arguments.files {
        read_samples(path, arguments.skip, &mut games, &mut samples)?;
    }
    let held = samples.iter().filter(|sample| sample.held_out).count();
    println!(
        "{games} games, {} positions ({held} held out)",
        samples.len()
    );
    let hand = HAND_ORDERING.to_vector().map(f64::from);
    let tau = temperature(&samples, &hand);
    let start = hand.map(|value| value / tau);
    println!("hand-set values (temperature {tau:.2}):");
    println!("  training: {}", measure(&samples, &start, false));
    println!("  held out: {}", measure(&samples, &start, true));
    let fitted = fit(&samples, start, arguments.steps);
    println!("fitted values, {} steps:", arguments.steps);
    println!("  training: {}", measure(&samples, &fitted, false));
    println!("  held out: {}", measure(&samples, &fitted, true));
    let values = scaled(&fitted);
    let rounded = values.to_vector().map(f64::from);
    let tau = temperature(&samples, &rounded);
    println!(
        "  the scaled values (temperature {tau:.2}), held out: {}",
        measure(&samples, &rounded.map(|value| value / tau), true)
    );
    println!("FITTED_ORDERING (src/games/gomoku/candidates.rs):");
    println!("    attack: {:?},", values.attack);
    println!("    defence: {:?},", values.defence);
    for (name, value) in [
        ("four_three", values.four_three),
        ("double_three", values.double_three),
        ("opponent_four_three", values.opponent_four_three),
        ("opponent_double_three", values.opponent_double_three),
        ("three_two", values.three_two),
        ("double_two", values.double_two),
        ("opponent_three_two", values.opponent_three_two),
        ("opponent_double_two", values.opponent_double_two),
    ] {
        println!("    {name}: {value},");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scaling_anchors_the_open_three_and_keeps_ratios() {
        let mut values = [0.0; ORDERING_FEATURES];
        values[Pattern::None as usize] = -1.0;
        values[Pattern::OpenThree as usize] = 2.0;
        values[Pattern::Four as usize] = 3.5;
        values[Pattern::Overline as usize] = 7.0;
        values[2 * Pattern::ALL.len()] = 1.5;
        let scaled = scaled(&values);
        assert_eq!(scaled.attack[Pattern::None as usize], 0);
        assert_eq!(scaled.attack[Pattern::OpenThree as usize], 60);
        assert_eq!(scaled.attack[Pattern::Four as usize], 90);
        assert_eq!(scaled.attack[Pattern::Overline as usize], 0);
        assert_eq!(scaled.four_three, 30);
    }

    #[test]
    fn a_fit_raises_the_likelihood_of_the_played_moves() {
        let path = std::env::temp_dir().join(format!("tabula-ordering-{}.txt", std::process::id()));
        let games = "freestyle 15 h8i9i8g8j7k6j8j9k8l8h7g6h9h10i10 1\n".repeat(3);
        std::fs::write(&path, games).unwrap();
        let mut samples = Vec::new();
        let mut count = 0;
        read_samples(path.to_str().unwrap(), 2, &mut count, &mut samples).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(count, 3);
        assert!(!samples.is_empty());
        let start = HAND_ORDERING
            .to_vector()
            .map(|value| f64::from(value) / 40.0);
        let before = measure(&samples, &start, false).log_likelihood;
        let after = measure(&samples, &fit(&samples, start, 50), false).log_likelihood;
        assert!(after > before, "{after} <= {before}");
    }
}
