//! Training the pattern weights ([`crate::games::reversi::patterns`]) from labelled positions
//! ([`crate::tools::selfplay::reversi`] lines).
//!
//! Each phase is an independent ridge regression on the sparse compact features: minimise
//! `Σ (Σ w[feature] - label)² + λ Σ w²` over the phase's training positions, by conjugate
//! gradients on the normal equations, preconditioned by their diagonal (each weight's step is
//! scaled by its feature's frequency). A phase also trains on positions up to
//! [`TrainConfig::overlap`] empties beyond its own range, which smooths the weights from phase to
//! phase. Games whose hashed number falls in the held-out tenth are kept for validation: all of a
//! game's positions are on the same side, since they share one label.
//!
//! Everything runs in a fixed order, so the weights depend only on the data and the configuration.

use crate::base::zobrist::mix;
use crate::games::reversi::evaluation::DISC;
use crate::games::reversi::patterns::{self, FEATURE_COUNT, PHASES};
use crate::tools::selfplay::reversi as selfplay;
use anyhow::{bail, Context, Result};
use rayon::prelude::*;

/// How to train. Also the options of `tabula train reversi`, with [`TrainConfig::default`]'s values
/// as their defaults.
#[derive(Clone, Debug, clap::Args)]
pub struct TrainConfig {
    /// Conjugate-gradient iterations per phase.
    #[arg(long, default_value_t = TrainConfig::default().iterations)]
    pub iterations: usize,
    /// Ridge penalty per weight, in squared evaluation units per position: a weight needs about
    /// this many positions before the data outweighs the pull towards 0.
    #[arg(long, default_value_t = TrainConfig::default().l2)]
    pub l2: f64,
    /// Percentage of games held out for validation.
    #[arg(long, default_value_t = TrainConfig::default().validation_percent)]
    pub validation_percent: u64,
    /// Seed of the validation split.
    #[arg(long, default_value_t = TrainConfig::default().seed)]
    pub seed: u64,
    /// A phase also trains on positions this many empties beyond its range.
    #[arg(long, default_value_t = TrainConfig::default().overlap)]
    pub overlap: u32,
    /// Threads (phases train in parallel unless chained).
    #[arg(long, default_value_t = TrainConfig::default().threads)]
    pub threads: usize,
    /// Chain the phases: each phase's weights are pulled towards those of the phase before it
    /// (one empty square fewer) instead of towards 0, and phases train one after the other.
    #[arg(long, conflicts_with = "prior")]
    pub chain: bool,
    /// A weight file whose weights each phase is pulled towards instead of 0: new data refines
    /// them rather than starting afresh.
    #[arg(long)]
    pub prior: Option<std::path::PathBuf>,
    /// Share of the label taken from the engine's own search score, where the line has one: the
    /// label is `(1 - w) x result + w x search`. Positions solved exactly keep their exact score.
    #[arg(long, default_value_t = TrainConfig::default().search_weight)]
    pub search_weight: f64,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            iterations: 200,
            l2: 8.0,
            validation_percent: 10,
            seed: 1,
            overlap: 2,
            threads: 1,
            chain: false,
            prior: None,
            search_weight: 0.0,
        }
    }
}

/// A parsed line: features, result, search score (NaN: none), empties and game.
type ParsedLine = ([u32; FEATURE_COUNT], f32, f32, u8, u64);

/// Labelled positions as compact features.
#[derive(Default)]
pub struct Dataset {
    /// `FEATURE_COUNT` compact features per position.
    features: Vec<u32>,
    /// Labels in evaluation units: the results, or a blend with the search scores
    /// ([`Dataset::blend`]).
    targets: Vec<f32>,
    /// Each position's result (exact score or the game's result), in evaluation units.
    results: Vec<f32>,
    /// Each position's search score in evaluation units, NaN where the line has none.
    searches: Vec<f32>,
    /// Empty squares of each position.
    empties: Vec<u8>,
    /// Game number of each position.
    games: Vec<u64>,
}

impl Dataset {
    /// Number of positions.
    pub fn len(&self) -> usize {
        self.targets.len()
    }

    /// Whether there are no positions.
    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    /// Adds the positions of a self-play file. Game numbers are offset by `game_offset`, so that
    /// games of different files stay apart.
    ///
    /// # Errors
    /// A line that does not read as a labelled position.
    pub fn add_text(&mut self, text: &str, game_offset: u64, name: &str) -> Result<()> {
        let lines: Vec<&str> = text
            .lines()
            .filter(|line| !line.trim().is_empty())
            .collect();
        let parsed: Vec<Option<ParsedLine>> = lines
            .par_iter()
            .map(|line| {
                let (labelled, game) = selfplay::read_line(line)?;
                let position = labelled.position;
                let mut features = [0u32; FEATURE_COUNT];
                patterns::compact_features(position.player, position.opponent, &mut features);
                let result = (labelled.score * DISC) as f32;
                let search = labelled.search.map_or(f32::NAN, |search| search as f32);
                Some((features, result, search, position.empties() as u8, game))
            })
            .collect();
        for (number, item) in parsed.into_iter().enumerate() {
            let Some((features, result, search, empties, game)) = item else {
                bail!("{name}:{}: not a labelled position", number + 1);
            };
            self.features.extend_from_slice(&features);
            self.targets.push(result);
            self.results.push(result);
            self.searches.push(search);
            self.empties.push(empties);
            self.games.push(game.wrapping_add(game_offset));
        }
        Ok(())
    }

    /// Reads self-play files; each file's game numbers are kept apart from the others'.
    ///
    /// # Errors
    /// A file that cannot be read or holds a malformed line.
    pub fn load(paths: &[std::path::PathBuf]) -> Result<Dataset> {
        let mut dataset = Dataset::default();
        for (index, path) in paths.iter().enumerate() {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading {}", path.display()))?;
            dataset.add_text(&text, (index as u64) << 40, &path.display().to_string())?;
        }
        Ok(dataset)
    }

    /// Sets each label to `(1 - search_weight) x result + search_weight x search` where the
    /// position has a search score, and to its result elsewhere.
    pub fn blend(&mut self, search_weight: f64) {
        let weight = search_weight as f32;
        for ((target, &result), &search) in self
            .targets
            .iter_mut()
            .zip(&self.results)
            .zip(&self.searches)
        {
            *target = if search.is_nan() {
                result
            } else {
                (1.0 - weight) * result + weight * search
            };
        }
    }

    fn sample(&self, index: usize) -> &[u32] {
        &self.features[index * FEATURE_COUNT..][..FEATURE_COUNT]
    }
}

/// What training found for one phase.
#[derive(Clone, Debug, Default)]
pub struct PhaseReport {
    /// The phase.
    pub phase: usize,
    /// Its empties, inclusive.
    pub empties: (u32, u32),
    /// Training positions (with the overlap).
    pub training: usize,
    /// Held-out positions of the phase's own range.
    pub validation: usize,
    /// Mean absolute error on the training positions of the phase's own range, in discs.
    pub training_error: f64,
    /// Mean absolute error on the held-out positions, in discs.
    pub validation_error: f64,
    /// Root mean square error on the held-out positions, in discs.
    pub validation_rms: f64,
    /// Mean absolute label of the held-out positions, in discs: the error of always saying 0.
    pub validation_spread: f64,
}

/// The empties of `phase`, inclusive.
pub fn phase_empties(phase: usize) -> (u32, u32) {
    let low = (1..=64).find(|&empties| patterns::phase(empties) == phase);
    let high = (0..=60)
        .rev()
        .find(|&empties| patterns::phase(empties) == phase);
    (low.unwrap_or(0), high.unwrap_or(0))
}

/// Whether game `game` is held out for validation.
fn held_out(config: &TrainConfig, game: u64) -> bool {
    mix(game ^ mix(config.seed)) % 100 < config.validation_percent
}

/// Trains every phase. Returns the compact weights of all phases (for [`patterns::encode`]) and
/// a report per phase.
pub fn train(dataset: &Dataset, config: &TrainConfig) -> Result<(Vec<i16>, Vec<PhaseReport>)> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads.max(1))
        .build()?;
    let size = patterns::compact_size();
    let results: Vec<(Vec<i16>, PhaseReport)> = if config.chain {
        let mut prior = vec![0f64; size];
        let mut results = Vec::with_capacity(PHASES);
        for phase in 0..PHASES {
            let (weights, quantised, report) =
                pool.install(|| train_phase(dataset, config, phase, &prior));
            results.push((quantised, report));
            prior = weights;
        }
        results
    } else {
        let prior: Vec<f64> = match &config.prior {
            Some(path) => {
                let bytes =
                    std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
                patterns::decode_compact(&bytes)
                    .with_context(|| format!("decoding {}", path.display()))?
                    .into_iter()
                    .map(f64::from)
                    .collect()
            }
            None => vec![0f64; PHASES * size],
        };
        pool.install(|| {
            (0..PHASES)
                .into_par_iter()
                .map(|phase| {
                    let prior = &prior[phase * size..][..size];
                    let (_, quantised, report) = train_phase(dataset, config, phase, prior);
                    (quantised, report)
                })
                .collect()
        })
    };
    let mut weights = Vec::with_capacity(PHASES * size);
    let mut reports = Vec::with_capacity(PHASES);
    for (phase_weights, report) in results {
        weights.extend_from_slice(&phase_weights);
        reports.push(report);
    }
    Ok((weights, reports))
}

/// Trains one phase, with its ridge penalty pulling towards `prior`. Returns the weights, their
/// rounding and the report.
fn train_phase(
    dataset: &Dataset,
    config: &TrainConfig,
    phase: usize,
    prior: &[f64],
) -> (Vec<f64>, Vec<i16>, PhaseReport) {
    let (low, high) = phase_empties(phase);
    let mut training = Vec::new();
    let mut validation = Vec::new();
    let mut own_training = Vec::new();
    for index in 0..dataset.len() {
        let empties = dataset.empties[index] as u32;
        let own = (low..=high).contains(&empties);
        if held_out(config, dataset.games[index]) {
            if own {
                validation.push(index);
            }
        } else if empties + config.overlap >= low && empties <= high + config.overlap {
            training.push(index);
            if own {
                own_training.push(index);
            }
        }
    }
    let weights = solve_ridge(dataset, &training, prior, config);
    let quantised: Vec<i16> = weights
        .iter()
        .map(|&weight| weight.round().clamp(i16::MIN as f64, i16::MAX as f64) as i16)
        .collect();
    let errors = |indices: &[usize]| -> (f64, f64, f64) {
        let (mut absolute, mut squared, mut spread) = (0f64, 0f64, 0f64);
        for &index in indices {
            let prediction: i32 = dataset
                .sample(index)
                .iter()
                .map(|&feature| quantised[feature as usize] as i32)
                .sum();
            let prediction = prediction.clamp(
                -crate::base::score::MAX_EVALUATION + 1,
                crate::base::score::MAX_EVALUATION - 1,
            );
            let error = (prediction as f64 - dataset.targets[index] as f64) / 100.0;
            absolute += error.abs();
            squared += error * error;
            spread += (dataset.targets[index] as f64 / 100.0).abs();
        }
        let count = indices.len().max(1) as f64;
        (absolute / count, (squared / count).sqrt(), spread / count)
    };
    let (training_error, _, _) = errors(&own_training);
    let (validation_error, validation_rms, validation_spread) = errors(&validation);
    let report = PhaseReport {
        phase,
        empties: (low, high),
        training: training.len(),
        validation: validation.len(),
        training_error,
        validation_error,
        validation_rms,
        validation_spread,
    };
    (weights, quantised, report)
}

/// Ridge regression on the samples `indices` by Jacobi-preconditioned conjugate gradients: the
/// weights minimise `Σ (Σ w[feature] - label)² + λ |w - prior|²`. Solved for `w - prior`, which is
/// a plain ridge regression on the labels less the prior's predictions.
fn solve_ridge(
    dataset: &Dataset,
    indices: &[usize],
    prior: &[f64],
    config: &TrainConfig,
) -> Vec<f64> {
    let lambda = config.l2;
    let size = prior.len();
    // The diagonal of AᵀA + λI: a feature can occur several times in one position.
    let mut diagonal = vec![lambda; size];
    let mut right = vec![0f64; size];
    let mut sorted = [0u32; FEATURE_COUNT];
    for &index in indices {
        let sample = dataset.sample(index);
        let target = dataset.targets[index] as f64
            - sample
                .iter()
                .map(|&feature| prior[feature as usize])
                .sum::<f64>();
        sorted.copy_from_slice(sample);
        sorted.sort_unstable();
        let mut start = 0;
        while start < FEATURE_COUNT {
            let mut end = start + 1;
            while end < FEATURE_COUNT && sorted[end] == sorted[start] {
                end += 1;
            }
            let count = (end - start) as f64;
            diagonal[sorted[start] as usize] += count * count;
            right[sorted[start] as usize] += count * target;
            start = end;
        }
    }
    let apply = |vector: &[f64], out: &mut [f64]| {
        // out = (AᵀA + λI) vector
        for (slot, &value) in out.iter_mut().zip(vector) {
            *slot = lambda * value;
        }
        for &index in indices {
            let sample = dataset.sample(index);
            let product: f64 = sample.iter().map(|&feature| vector[feature as usize]).sum();
            for &feature in sample {
                out[feature as usize] += product;
            }
        }
    };
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
    let mut weights = vec![0f64; size];
    let mut residual = right;
    let mut preconditioned: Vec<f64> = residual.iter().zip(&diagonal).map(|(r, d)| r / d).collect();
    let mut direction = preconditioned.clone();
    let mut product = vec![0f64; size];
    let mut rho = dot(&residual, &preconditioned);
    for _ in 0..config.iterations {
        if rho <= 0.0 {
            break;
        }
        apply(&direction, &mut product);
        let curvature = dot(&direction, &product);
        if curvature <= 0.0 {
            break;
        }
        let step = rho / curvature;
        for ((weight, residual), (&d, &p)) in weights
            .iter_mut()
            .zip(residual.iter_mut())
            .zip(direction.iter().zip(&product))
        {
            *weight += step * d;
            *residual -= step * p;
        }
        for ((z, r), d) in preconditioned.iter_mut().zip(&residual).zip(&diagonal) {
            *z = r / d;
        }
        let next_rho = dot(&residual, &preconditioned);
        let beta = next_rho / rho;
        rho = next_rho;
        for (d, &z) in direction.iter_mut().zip(&preconditioned) {
            *d = z + beta * *d;
        }
    }
    for (weight, &mean) in weights.iter_mut().zip(prior) {
        *weight += mean;
    }
    weights
}

/// Trains weights from self-play files and writes them to `out`, with a report per phase.
///
/// # Errors
/// A file cannot be read or written, or training fails.
pub fn train_files(
    data: &[std::path::PathBuf],
    out: &std::path::Path,
    config: &TrainConfig,
) -> Result<()> {
    let start = std::time::Instant::now();
    let mut dataset = Dataset::load(data)?;
    dataset.blend(config.search_weight);
    println!(
        "read {} positions in {:.1} s",
        dataset.len(),
        start.elapsed().as_secs_f64()
    );
    let (weights, reports) = train(&dataset, config)?;
    println!(
        "{:>5} {:>7} {:>9} {:>9} {:>10} {:>10} {:>10} {:>10}",
        "phase", "empties", "train", "held out", "train MAE", "valid MAE", "valid RMS", "mean |y|"
    );
    for report in &reports {
        println!(
            "{:>5} {:>7} {:>9} {:>9} {:>10.2} {:>10.2} {:>10.2} {:>10.2}",
            report.phase,
            format!("{}-{}", report.empties.0, report.empties.1),
            report.training,
            report.validation,
            report.training_error,
            report.validation_error,
            report.validation_rms,
            report.validation_spread,
        );
    }
    std::fs::write(out, patterns::encode(&weights))
        .with_context(|| format!("writing {}", out.display()))?;
    println!(
        "wrote {} in {:.1} s (errors in discs)",
        out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The error of an evaluation on labelled positions of one range of empties.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ErrorReport {
    /// The empties, inclusive.
    pub empties: (u32, u32),
    /// Positions.
    pub positions: usize,
    /// Mean absolute error, in discs.
    pub mean_absolute: f64,
    /// Root mean square error, in discs.
    pub root_mean_square: f64,
    /// Mean absolute label, in discs: the error of always saying 0.
    pub mean_label: f64,
}

/// The error of `evaluate` (evaluation units for the side to move) against each position's
/// result label, by the phases' ranges of empties. Search scores in the lines are ignored: the
/// labels are the exact scores (solved positions) and the games' results.
pub fn error_by_empties(
    lines: &[&str],
    evaluate: impl Fn(&crate::games::reversi::Reversi) -> i32 + Sync,
) -> Result<Vec<ErrorReport>> {
    let errors: Vec<Option<(u32, f64, f64)>> = lines
        .par_iter()
        .map(|line| {
            let (labelled, _) = selfplay::read_line(line)?;
            let prediction = evaluate(&labelled.position) as f64 / DISC as f64;
            Some((
                labelled.position.empties(),
                prediction - labelled.score as f64,
                labelled.score as f64,
            ))
        })
        .collect();
    let mut reports: Vec<ErrorReport> = (0..PHASES)
        .map(|phase| ErrorReport {
            empties: phase_empties(phase),
            ..ErrorReport::default()
        })
        .collect();
    for (number, item) in errors.into_iter().enumerate() {
        let Some((empties, error, label)) = item else {
            bail!("line {}: not a labelled position", number + 1);
        };
        let report = &mut reports[patterns::phase(empties)];
        report.positions += 1;
        report.mean_absolute += error.abs();
        report.root_mean_square += error * error;
        report.mean_label += label.abs();
    }
    for report in &mut reports {
        let count = report.positions.max(1) as f64;
        report.mean_absolute /= count;
        report.root_mean_square = (report.root_mean_square / count).sqrt();
        report.mean_label /= count;
    }
    Ok(reports)
}

/// Prints the error of the active evaluation (the `--weights` in use) on labelled positions that
/// training did not see, by empties: `tabula train reversi --measure`.
///
/// # Errors
/// A file that cannot be read or holds a malformed line.
pub fn error_files(data: &[std::path::PathBuf]) -> Result<()> {
    use crate::game::Strength;
    use crate::games::reversi::evaluation;
    let mut text = String::new();
    for path in data {
        text += &std::fs::read_to_string(path)
            .with_context(|| format!("reading {}", path.display()))?;
        text.push('\n');
    }
    let lines: Vec<&str> = text
        .lines()
        .filter(|line| !line.trim().is_empty())
        .collect();
    // The weights of `tabula --weights`, the default of every position.
    let patterns = evaluation::default_patterns();
    let reports = error_by_empties(&lines, |position| {
        evaluation::evaluate(
            position.player,
            position.opponent,
            Strength::FULL,
            patterns.values.as_ref(),
        )
    })?;
    println!(
        "{:>7} {:>9} {:>8} {:>8} {:>9}",
        "empties", "positions", "MAE", "RMS", "mean |y|"
    );
    let (mut total, mut absolute) = (0usize, 0f64);
    for report in &reports {
        println!(
            "{:>7} {:>9} {:>8.2} {:>8.2} {:>9.2}",
            format!("{}-{}", report.empties.0, report.empties.1),
            report.positions,
            report.mean_absolute,
            report.root_mean_square,
            report.mean_label,
        );
        total += report.positions;
        absolute += report.mean_absolute * report.positions as f64;
    }
    println!(
        "{:>7} {:>9} {:>8.2} (errors in discs)",
        "all",
        total,
        absolute / total.max(1) as f64
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::selfplay::reversi::{play_game, write_line, SelfPlayConfig};

    #[test]
    fn phases_partition_the_empties() {
        assert_eq!(phase_empties(0), (1, 5));
        assert_eq!(phase_empties(PHASES - 1), (56, 60));
        for phase in 1..PHASES {
            assert_eq!(phase_empties(phase).0, phase_empties(phase - 1).1 + 1);
        }
    }

    #[test]
    fn training_fits_a_few_games_deterministically() {
        let config = SelfPlayConfig {
            depth: 1,
            candidates: 2,
            exact_empties: 8,
            hash_megabytes: 1,
            ..SelfPlayConfig::default()
        };
        let mut engine = None;
        let mut text = Vec::new();
        for number in 0..12 {
            let record = play_game(&config, number, &mut engine).expect("a game");
            for labelled in record.positions {
                write_line(&mut text, &labelled, number).expect("write");
            }
        }
        let mut dataset = Dataset::default();
        dataset
            .add_text(std::str::from_utf8(&text).expect("utf-8"), 0, "games")
            .expect("parse");
        let train_config = TrainConfig {
            iterations: 30,
            l2: 1.0,
            validation_percent: 20,
            ..TrainConfig::default()
        };
        let (weights, reports) = train(&dataset, &train_config).expect("train");
        let (again, _) = train(&dataset, &train_config).expect("train");
        assert_eq!(weights, again);
        assert_eq!(reports.len(), PHASES);
        assert!(reports.iter().any(|report| report.validation > 0));
        // Labels that the features can express exactly are fitted almost exactly.
        let size = patterns::compact_size();
        for index in 0..dataset.len() {
            let phase = patterns::phase(dataset.empties[index] as u32);
            dataset.targets[index] = dataset
                .sample(index)
                .iter()
                .map(|&feature| (mix((phase * size) as u64 + feature as u64) % 61) as f32 - 30.0)
                .sum();
        }
        // No overlap: a neighbouring phase's labels come from other weights.
        let exact_config = TrainConfig {
            iterations: 100,
            l2: 0.01,
            validation_percent: 0,
            overlap: 0,
            ..TrainConfig::default()
        };
        let (_, reports) = train(&dataset, &exact_config).expect("train");
        for report in &reports {
            // Rounding the weights to whole units costs about 0.02 discs.
            assert!(report.training_error < 0.1, "{report:?}");
        }
        let bytes = patterns::encode(&weights);
        patterns::Weights::decode(&bytes).expect("the trained weights encode");
        assert_eq!(patterns::decode_compact(&bytes).expect("decode"), weights);
        // A prior that the penalty holds fast is kept; a loose one is moved by the data.
        let path = std::env::temp_dir().join(format!("tabula-prior-{}.bin", std::process::id()));
        std::fs::write(&path, &bytes).expect("write the prior");
        let held = TrainConfig {
            iterations: 30,
            l2: 1e12,
            prior: Some(path.clone()),
            ..TrainConfig::default()
        };
        let (kept, _) = train(&dataset, &held).expect("train");
        let loose = TrainConfig { l2: 0.01, ..held };
        let (moved, _) = train(&dataset, &loose).expect("train");
        std::fs::remove_file(&path).ok();
        assert_eq!(kept, weights);
        assert_ne!(moved, weights);
    }

    const START: &str = "---------------------------OX------XO---------------------------";

    #[test]
    fn search_scores_blend_into_labels_where_lines_have_them() {
        let text = format!("{START} X +2 17 +100\n{START} X -4 18\n");
        let mut dataset = Dataset::default();
        dataset.add_text(&text, 0, "lines").expect("parse");
        assert_eq!(dataset.targets, vec![200.0, -400.0]);
        dataset.blend(0.25);
        // 0.75 x 200 + 0.25 x 100; the line without a search keeps its result.
        assert_eq!(dataset.targets, vec![175.0, -400.0]);
        dataset.blend(0.0);
        assert_eq!(dataset.targets, vec![200.0, -400.0]);
    }

    #[test]
    fn errors_by_empties_measure_the_evaluation_against_results() {
        let opening = format!("{START} X +2 1 +100");
        let later = "OOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX-- X -6 1";
        let lines = [opening.as_str(), later];
        // An evaluation of one disc for the side to move everywhere.
        let reports = error_by_empties(&lines, |_| DISC).expect("measure");
        assert_eq!(reports.len(), PHASES);
        let start = &reports[patterns::phase(60)];
        assert_eq!(
            (start.positions, start.mean_absolute, start.mean_label),
            (1, 1.0, 2.0)
        );
        let end = &reports[patterns::phase(2)];
        assert_eq!(
            (end.positions, end.mean_absolute, end.root_mean_square),
            (1, 7.0, 7.0)
        );
        assert_eq!(
            reports.iter().map(|report| report.positions).sum::<usize>(),
            2
        );
        assert!(error_by_empties(&["not a position"], |_| 0).is_err());
    }
}
