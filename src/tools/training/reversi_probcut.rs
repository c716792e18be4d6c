//! `tabula tune reversi`: calibrates the Reversi ProbCut model
//! ([`crate::games::reversi::probcut`]) and prints it as the Rust table the build uses
//! (`src/games/reversi/probcut_table.rs`); run by `scripts/train/calibrate-reversi-probcut.sh`.
//! The summary file gets the fitted lines of the pairs the model uses, in discs. Progress goes
//! to stderr.
//!
//! Positions come from seeded games: a few uniformly random moves, then mostly the best move of a
//! shallow search (with an occasional random move for variety), stopped at an empties count drawn
//! uniformly from the configured range. Each position is searched once by iterative deepening to
//! the deepest depth, on one thread with ProbCut off, a cleared table and fresh history; the score
//! of every iteration is kept. For every pair of depths (deep, shallow) and every bucket of
//! empties, a least-squares line `deep = slope * shallow + intercept` is fitted over the
//! positions, with the standard deviation of its residuals. Scores of proven wins and losses are
//! left out. The output depends only on the configuration and the evaluation, not on the thread
//! count.

use crate::base::score;
use crate::base::transposition::TranspositionTable;
use crate::base::zobrist::mix;
use crate::game::Rules;
use crate::games::reversi::probcut::shallow_depth;
use crate::games::reversi::probcut_fit::{bucket, BUCKETS, BUCKET_WIDTH, FIRST_BUCKET_EMPTIES};
use crate::games::reversi::{Reversi, ReversiMove};
use crate::search::limits::Limits;
use crate::search::{self, SearchRequest, Worker};
use crate::tools::selfplay::reversi::Random;
use rayon::prelude::*;
use std::fmt::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// What to calibrate on.
#[derive(Clone, Debug)]
pub struct CalibrationConfig {
    /// Number of positions.
    pub positions: usize,
    /// Seed of the whole run; position `n` uses a seed derived from it and `n`.
    pub seed: u64,
    /// Worker threads (positions run in parallel, each searched on one thread).
    pub threads: usize,
    /// The deepest search; every shallower depth pairs with every deeper one.
    pub deepest: u32,
    /// Positions have between these many empties...
    pub fewest_empties: u32,
    /// ...and these many.
    pub most_empties: u32,
    /// Depth of the searches that play the sampling games.
    pub playing_depth: u32,
    /// Transposition table per thread, in MB.
    pub hash_megabytes: usize,
}

impl Default for CalibrationConfig {
    fn default() -> Self {
        CalibrationConfig {
            positions: 2000,
            seed: 1,
            threads: 1,
            deepest: 12,
            fewest_empties: 12,
            most_empties: 58,
            playing_depth: 3,
            hash_megabytes: 32,
        }
    }
}

/// A least-squares line through points `(shallow, deep)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Line {
    /// Deep value per point of shallow value.
    pub slope: f64,
    /// Deep value at a shallow value of 0.
    pub intercept: f64,
    /// Standard deviation of the residuals (with `samples - 2` degrees of freedom).
    pub sigma: f64,
    /// Number of points.
    pub samples: usize,
}

/// Fits `deep = slope * shallow + intercept` to `points` of `(shallow, deep)`; `None` for fewer
/// than three points or when every shallow value is the same.
pub fn fit(points: &[(f64, f64)]) -> Option<Line> {
    let count = points.len();
    if count < 3 {
        return None;
    }
    let n = count as f64;
    let mean_x = points.iter().map(|&(x, _)| x).sum::<f64>() / n;
    let mean_y = points.iter().map(|&(_, y)| y).sum::<f64>() / n;
    let (mut sxx, mut sxy) = (0.0, 0.0);
    for &(x, y) in points {
        sxx += (x - mean_x) * (x - mean_x);
        sxy += (x - mean_x) * (y - mean_y);
    }
    if sxx <= 0.0 {
        return None;
    }
    let slope = sxy / sxx;
    let intercept = mean_y - slope * mean_x;
    let squares: f64 = points
        .iter()
        .map(|&(x, y)| {
            let residual = y - (slope * x + intercept);
            residual * residual
        })
        .sum();
    Some(Line {
        slope,
        intercept,
        sigma: (squares / (n - 2.0)).sqrt(),
        samples: count,
    })
}

/// One sampled position with the root score of each iteration (`scores[d]` for depth `d`;
/// `None` at depth 0 and for proven results).
#[derive(Clone, Debug)]
pub struct Sample {
    /// The position.
    pub position: Reversi,
    /// Root scores by depth.
    pub scores: Vec<Option<i32>>,
}

/// The calibration: `lines[deep][shallow][bucket]` for `shallow < deep <= deepest`.
#[derive(Clone, Debug)]
pub struct Calibration {
    /// The configuration it came from.
    pub config: CalibrationConfig,
    /// The fitted lines.
    pub lines: Vec<Vec<Vec<Option<Line>>>>,
    /// Positions in each bucket.
    pub bucket_counts: Vec<usize>,
    /// Search nodes over all positions.
    pub nodes: u64,
}

/// Position number `number` of the run: a seeded game stopped at its drawn empties count, or
/// `None` when the game ended before it.
pub fn sample_position(config: &CalibrationConfig, number: usize) -> Option<Reversi> {
    let mut random = Random(mix(config.seed ^ mix(number as u64 ^ 0x9C0B_CA11)));
    let span = config.most_empties.saturating_sub(config.fewest_empties) as u64 + 1;
    let target = config.fewest_empties + random.below(span) as u32;
    let random_moves = random.below(9);
    let table = TranspositionTable::new(1);
    let stop = AtomicBool::new(false);
    let mut position = Reversi::new();
    let mut moves: Vec<ReversiMove> = Vec::new();
    let mut plies = 0;
    while position.empties() > target {
        position.generate_moves(&mut moves);
        if moves.is_empty() {
            return None;
        }
        let mv = if plies < random_moves || random.unit() < 0.1 {
            moves[random.below(moves.len() as u64) as usize]
        } else {
            let mut workers: Vec<Worker<Reversi>> = Vec::new();
            let request = SearchRequest {
                limits: Limits {
                    depth: Some(config.playing_depth),
                    ..Limits::default()
                },
                probcut: false,
                ..SearchRequest::default()
            };
            table.clear();
            search::search(
                &position,
                &request,
                &table,
                &stop,
                &mut workers,
                &mut |_| {},
            )
            .best_move()
            .expect("an unfinished game has moves")
        };
        position.play_unchecked(mv);
        plies += 1;
    }
    if position.outcome().is_some() || position.forced_pass().is_some() {
        return None;
    }
    Some(position)
}

/// Searches `position` to `deepest` with ProbCut off and returns the root score of each
/// iteration and the nodes searched.
pub fn scores_by_depth(
    position: &Reversi,
    deepest: u32,
    table: &TranspositionTable,
) -> (Vec<Option<i32>>, u64) {
    table.clear();
    let mut workers: Vec<Worker<Reversi>> = Vec::new();
    let stop = AtomicBool::new(false);
    let request = SearchRequest {
        limits: Limits {
            depth: Some(deepest),
            ..Limits::default()
        },
        probcut: false,
        ..SearchRequest::default()
    };
    let mut scores = vec![None; deepest as usize + 1];
    let mut record = |iteration: &search::Iteration<ReversiMove>| {
        let value = iteration.lines[0].score;
        if !score::is_decisive(value) {
            scores[iteration.depth as usize] = Some(value);
        }
    };
    let outcome = search::search(position, &request, table, &stop, &mut workers, &mut record);
    (scores, outcome.nodes)
}

/// Samples and searches every position of the run; `progress` sees the count done so far.
///
/// # Errors
/// The thread pool could not start.
pub fn calibrate(
    config: &CalibrationConfig,
    progress: &(dyn Fn(usize) + Sync),
) -> anyhow::Result<Calibration> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads.max(1))
        .stack_size(32 << 20)
        .build()?;
    let done = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<Option<(Sample, u64)>> = pool.install(|| {
        (0..config.positions)
            .into_par_iter()
            .map_init(
                || TranspositionTable::new(config.hash_megabytes),
                |table, number| {
                    let position = sample_position(config, number)?;
                    let (scores, nodes) = scores_by_depth(&position, config.deepest, table);
                    progress(done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1);
                    Some((Sample { position, scores }, nodes))
                },
            )
            .collect()
    });
    let nodes = results.iter().flatten().map(|(_, nodes)| nodes).sum();
    let samples: Vec<Sample> = results.into_iter().flatten().map(|(s, _)| s).collect();
    Ok(fit_samples(config, &samples, nodes))
}

/// Fits every (deep, shallow, bucket) line over `samples`.
pub fn fit_samples(config: &CalibrationConfig, samples: &[Sample], nodes: u64) -> Calibration {
    let deepest = config.deepest as usize;
    let mut bucket_counts = vec![0; BUCKETS];
    for sample in samples {
        bucket_counts[bucket(sample.position.empties())] += 1;
    }
    let lines = (0..=deepest)
        .map(|deep| {
            (0..deep)
                .map(|shallow| {
                    (0..BUCKETS)
                        .map(|index| {
                            let points: Vec<(f64, f64)> = samples
                                .iter()
                                .filter(|sample| bucket(sample.position.empties()) == index)
                                .filter_map(|sample| {
                                    let low = sample.scores.get(shallow).copied().flatten();
                                    let high = sample.scores.get(deep).copied().flatten();
                                    Some((low? as f64, high? as f64))
                                })
                                .collect();
                            fit(&points)
                        })
                        .collect()
                })
                .collect()
        })
        .collect();
    Calibration {
        config: config.clone(),
        lines,
        bucket_counts,
        nodes,
    }
}

/// The Rust source of `src/games/reversi/probcut_table.rs`.
pub fn table_source(calibration: &Calibration) -> String {
    let config = &calibration.config;
    let deepest = config.deepest as usize;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "//! The Reversi ProbCut model's lines, written by `scripts/train/calibrate-reversi-probcut.sh`\n\
         //! (`tabula tune reversi`): do not edit. {} positions (seed {}, {} to\n\
         //! {} empties, per bucket of {} empties from {}: {:?}), searched to depth {}.\n\
         //! `FITS[deep][shallow][bucket]` is `fit(slope in thousandths, intercept, sigma)` in\n\
         //! evaluation points; `NONE` where the pair was not calibrated.",
        config.positions,
        config.seed,
        config.fewest_empties,
        config.most_empties,
        BUCKET_WIDTH,
        FIRST_BUCKET_EMPTIES,
        calibration.bucket_counts,
        config.deepest,
    );
    let _ = writeln!(out);
    let _ = writeln!(out, "use super::probcut_fit::{{fit, Fit, BUCKETS, NONE}};");
    let _ = writeln!(out);
    let _ = writeln!(out, "/// The deepest calibrated depth.");
    let _ = writeln!(out, "pub const DEEPEST: usize = {deepest};");
    let _ = writeln!(out);
    let _ = writeln!(out, "/// `FITS[deep][shallow][bucket]`.");
    let _ = writeln!(out, "#[rustfmt::skip]");
    let _ = writeln!(
        out,
        "pub const FITS: [[[Fit; BUCKETS]; DEEPEST]; DEEPEST + 1] = ["
    );
    for deep in 0..=deepest {
        let _ = writeln!(out, "    [");
        for shallow in 0..deepest {
            let cells: Vec<String> = (0..BUCKETS)
                .map(|index| {
                    let line = calibration.lines[deep]
                        .get(shallow)
                        .and_then(|lines| lines[index]);
                    match line {
                        Some(line) => format!(
                            "fit({}, {}, {})",
                            (line.slope * 1000.0).round() as i64,
                            line.intercept.round() as i64,
                            line.sigma.round() as i64
                        ),
                        None => "NONE".to_string(),
                    }
                })
                .collect();
            let _ = writeln!(out, "        [{}],", cells.join(", "));
        }
        let _ = writeln!(out, "    ],");
    }
    let _ = writeln!(out, "];");
    out
}

/// A readable summary: slope, intercept and sigma (in discs) per depth pair and bucket.
pub fn summary(calibration: &Calibration, pairs: &[(usize, usize)]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "positions per bucket {:?}, search nodes {}",
        calibration.bucket_counts, calibration.nodes
    );
    for &(deep, shallow) in pairs {
        let cells: Vec<String> = (0..BUCKETS)
            .map(|index| {
                match calibration
                    .lines
                    .get(deep)
                    .and_then(|lines| lines.get(shallow))
                    .and_then(|lines| lines[index])
                {
                    Some(line) => format!(
                        "{:.3} {:+.2} {:.2}",
                        line.slope,
                        line.intercept / 100.0,
                        line.sigma / 100.0
                    ),
                    None => "-".to_string(),
                }
            })
            .collect();
        let _ = writeln!(out, "{deep:>2}/{shallow:<2} {}", cells.join(" | "));
    }
    out
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_recovers_a_known_line() {
        // Residuals +-3 alternate around 1.25 x - 40, so the line is exact and sigma is known.
        let points: Vec<(f64, f64)> = (0..100)
            .map(|i| {
                let x = (i * 37 % 101) as f64 * 10.0 - 500.0;
                let noise = if i % 2 == 0 { 3.0 } else { -3.0 };
                (x, 1.25 * x - 40.0 + noise)
            })
            .collect();
        let line = fit(&points).expect("a line");
        assert!((line.slope - 1.25).abs() < 0.01, "{line:?}");
        assert!((line.intercept + 40.0).abs() < 1.0, "{line:?}");
        assert!((line.sigma - 3.0).abs() < 0.1, "{line:?}");
        assert_eq!(line.samples, 100);
    }

    #[test]
    fn the_fit_refuses_degenerate_points() {
        assert_eq!(fit(&[(1.0, 2.0), (2.0, 3.0)]), None);
        assert_eq!(fit(&[(1.0, 2.0), (1.0, 3.0), (1.0, 4.0)]), None);
    }

    #[test]
    fn sampling_is_deterministic_and_in_range() {
        let config = CalibrationConfig {
            fewest_empties: 40,
            most_empties: 50,
            playing_depth: 1,
            ..CalibrationConfig::default()
        };
        for number in 0..5 {
            let first = sample_position(&config, number);
            assert_eq!(first, sample_position(&config, number));
            if let Some(position) = first {
                assert!((40..=50).contains(&position.empties()));
            }
        }
    }
}
