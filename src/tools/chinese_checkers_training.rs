//! Training the Chinese Checkers evaluation ([`crate::games::chinese_checkers::evaluation`]):
//! games are played in-process ([`super::chinese_checkers_match`]), every position a seat moves
//! from is labelled with the moves that seat still needed to finish, and a ridge regression of
//! those labels on the seat's features gives the weights.
//!
//! Everything runs in a fixed order from fixed seeds; with fixed search depths the games, and so
//! the weights, depend only on the settings.

use super::chinese_checkers_match::{play_observed_game, Contender, GameResult, MatchSettings};
use crate::games::chinese_checkers::evaluation::{features, FEATURES, FEATURE_NAMES};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// One labelled position of one seat.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// The seat's features.
    pub features: [i32; FEATURES],
    /// The moves the seat still made before it finished.
    pub moves_left: u32,
}

/// Plays `settings.games` games on `settings.jobs` threads and labels every position an engine
/// seat (not a greedy one) moved from, of the seats that finished. Returns the samples of each
/// game, in game order.
pub fn collect(settings: &MatchSettings) -> Vec<Vec<Sample>> {
    let next = AtomicUsize::new(0);
    let games: Mutex<Vec<(usize, Vec<Sample>)>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..settings.jobs.max(1) {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= settings.games {
                    break;
                }
                let mut seen: Vec<(usize, u32, [i32; FEATURES])> = Vec::new();
                let result: GameResult =
                    play_observed_game(settings, index, &mut |position, entry, moves| {
                        if settings.lineup[entry] == Contender::Greedy {
                            return;
                        }
                        let seat = result_seat(settings, index, entry);
                        seen.push((entry, moves, features(position, seat)));
                    });
                let samples = seen
                    .into_iter()
                    .filter_map(|(entry, moves, values)| {
                        let finished = result.finished_after[entry]?;
                        Some(Sample {
                            features: values,
                            moves_left: finished - moves,
                        })
                    })
                    .collect();
                games.lock().expect("no panic").push((index, samples));
            });
        }
    });
    let mut games = games.into_inner().expect("no panic");
    games.sort_by_key(|(index, _)| *index);
    games.into_iter().map(|(_, samples)| samples).collect()
}

/// The seat of lineup entry `entry` in game `index` (see [`MatchSettings::lineup`]).
fn result_seat(settings: &MatchSettings, index: usize, entry: usize) -> usize {
    (entry + index) % settings.rules.players
}

/// Which way each feature may count: +1 where more of it can only mean more moves (a search
/// would otherwise chase it, off the positions the data came from), -1 for the forward hops.
pub const SIGNS: [i8; FEATURES] = [1, 1, 1, 1, 1, 1, 1, 1, -1, 1, 1, 1];

/// [`fit_free`] with each weight kept on the side [`SIGNS`] gives it: a weight that comes out on
/// the wrong side is fixed at 0 and the rest are fitted again, until none does.
pub fn fit(samples: &[Sample], l2: f64) -> ([f64; FEATURES], f64) {
    let mut fixed = [false; FEATURES];
    loop {
        let (weights, intercept) = fit_with(samples, l2, &fixed);
        let mut changed = false;
        for index in 0..FEATURES {
            if !fixed[index] && weights[index] * f64::from(SIGNS[index]) < 0.0 {
                fixed[index] = true;
                changed = true;
            }
        }
        if !changed {
            return (weights, intercept);
        }
    }
}

/// The ridge regression of the labels on the features with an intercept, with no sign
/// constraint (see [`fit_with`]).
pub fn fit_free(samples: &[Sample], l2: f64) -> ([f64; FEATURES], f64) {
    fit_with(samples, l2, &[false; FEATURES])
}

/// The ridge regression of the labels on the features with an intercept: minimises
/// `Σ (b + Σ w f - label)² + λ n Σ w²` (the intercept is not penalised) with the `fixed`
/// weights held at 0. Returns the weights and the intercept.
fn fit_with(samples: &[Sample], l2: f64, fixed: &[bool; FEATURES]) -> ([f64; FEATURES], f64) {
    const SIZE: usize = FEATURES + 1;
    let mut normal = [[0f64; SIZE]; SIZE];
    let mut right = [0f64; SIZE];
    for sample in samples {
        let mut row = [1f64; SIZE];
        for ((slot, &value), &held) in row.iter_mut().zip(&sample.features).zip(fixed) {
            *slot = if held { 0.0 } else { value as f64 };
        }
        for i in 0..SIZE {
            right[i] += row[i] * sample.moves_left as f64;
            for j in 0..SIZE {
                normal[i][j] += row[i] * row[j];
            }
        }
    }
    // A tiny ridge keeps the system regular when a feature never varies (held or constant).
    for (i, line) in normal.iter_mut().enumerate().take(FEATURES) {
        line[i] += (l2 + 1e-9) * samples.len() as f64;
    }
    let solution = solve(normal, right);
    let mut weights = [0f64; FEATURES];
    weights.copy_from_slice(&solution[..FEATURES]);
    (weights, solution[FEATURES])
}

/// Solves `matrix · x = right` by Gaussian elimination with partial pivoting; a singular column
/// (a feature that never varies) gets 0.
fn solve<const N: usize>(mut matrix: [[f64; N]; N], mut right: [f64; N]) -> [f64; N] {
    for column in 0..N {
        let pivot = (column..N)
            .max_by(|&a, &b| matrix[a][column].abs().total_cmp(&matrix[b][column].abs()))
            .expect("a row");
        matrix.swap(column, pivot);
        right.swap(column, pivot);
        let head = matrix[column][column];
        if head.abs() < 1e-9 {
            continue;
        }
        for row in 0..N {
            if row != column {
                let factor = matrix[row][column] / head;
                if factor != 0.0 {
                    for k in column..N {
                        matrix[row][k] -= factor * matrix[column][k];
                    }
                    right[row] -= factor * right[column];
                }
            }
        }
    }
    let mut solution = [0f64; N];
    for (index, value) in solution.iter_mut().enumerate() {
        let head = matrix[index][index];
        *value = if head.abs() < 1e-9 {
            0.0
        } else {
            right[index] / head
        };
    }
    solution
}

/// The mean absolute error of `weights` (with `intercept`) on `samples`, in moves.
pub fn mean_error(samples: &[Sample], weights: &[f64; FEATURES], intercept: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|sample| {
            let predicted: f64 = intercept
                + weights
                    .iter()
                    .zip(&sample.features)
                    .map(|(weight, &value)| weight * value as f64)
                    .sum::<f64>();
            (predicted - sample.moves_left as f64).abs()
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// The weights as the Rust array of [`crate::games::chinese_checkers::evaluation::Weights`]:
/// thousandths of a move, rounded.
pub fn as_source(weights: &[f64; FEATURES]) -> String {
    let values: Vec<String> = weights
        .iter()
        .zip(FEATURE_NAMES)
        .map(|(weight, name)| format!("{} /* {name} */", (weight * 1000.0).round() as i32))
        .collect();
    format!("[{}]", values.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_regression_recovers_a_linear_rule() {
        // Labels made from two features exactly: the fit finds them, the others get 0.
        let samples: Vec<Sample> = (0..200)
            .map(|index| {
                let mut values = [0; FEATURES];
                values[0] = index % 37;
                values[3] = (index * 7) % 11;
                values[5] = (index * 13) % 5;
                Sample {
                    features: values,
                    moves_left: (2 + values[0] + 3 * values[3]) as u32,
                }
            })
            .collect();
        let (weights, intercept) = fit_free(&samples, 0.0);
        assert_eq!(fit(&samples, 0.0), (weights, intercept), "no sign is violated");
        assert!((weights[0] - 1.0).abs() < 1e-6, "{weights:?}");
        assert!((weights[3] - 3.0).abs() < 1e-6, "{weights:?}");
        assert!(weights[5].abs() < 1e-6, "{weights:?}");
        assert!((intercept - 2.0).abs() < 1e-6);
        assert!(mean_error(&samples, &weights, intercept) < 1e-6);
        // A rule that gives a feature the wrong sign: the constrained fit holds it at 0.
        let flipped: Vec<Sample> = samples
            .iter()
            .map(|sample| Sample {
                moves_left: (60 + 2 * sample.features[0] - 4 * sample.features[3]) as u32,
                ..*sample
            })
            .collect();
        let (constrained, _) = fit(&flipped, 0.0);
        assert_eq!(constrained[3], 0.0);
        assert!(constrained[0] > 0.0);
    }
}
