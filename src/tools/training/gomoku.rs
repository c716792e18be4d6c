//! Fits the Gomoku pattern evaluation's weights to labelled positions (Texel's method): every
//! quiet position of a set of games is labelled with the game's result for the side to move, or
//! with a blend of that result and a deeper search's score, and the weights are chosen to minimise
//! the log-loss of `sigmoid(scale * value)` against the labels, where `value` is the linear
//! pattern value of `src/games/gomoku/evaluation.rs` (the side to move's features times the
//! `own.` weights minus the opponent's times the `other.` weights).
//!
//! ```text
//! tabula train gomoku --games games.txt [--games more.txt] \
//!     --start data/gomoku-weights-hand.txt --out data/gomoku-weights.txt \
//!     [--epochs 400] [--skip 4] [--every 1] [--regularisation 0.0001] [--steps 0.25,0.5,1] \
//!     [--label-depth 7 --search-weight 0.5 --drop-decided --scores scores.txt --threads 1] \
//!     [--hold-out 5 --compare other-weights.txt] [--hold NAME] [--round-by-loss]
//! tabula train gomoku --start current.txt --scale own.open-three=1.25 \
//!     --out candidate.txt
//! ```
//!
//! The games are lines as ``tabula selfplay gomoku --out`` writes them: the rule, the board size, the
//! moves from the empty board run together (`h8g8k9...`) and black's result (1, 0.5 or 0).
//! A position is used when it is not the game's first `--skip` plies, its ply is a multiple of
//! `--every`, the game is not over and no threat decides it within three plies (those are scored
//! by fixed values, not by the weights).
//!
//! **Labels.** Without `--label-depth` the label is the result. With it, each position is
//! searched to that depth with the starting weights (one thread, a fresh table: the same score on
//! every run), the score becomes an expected result `sigmoid(k x score)` (a proven result or a
//! threat-decided score above 8000 counts as a win or a loss; `k` is fitted to the results of
//! the training games), and the label is `(1 - w) x result + w x expected` with `w` the
//! `--search-weight` (the lambda of the blend). With `--drop-decided` the positions whose search
//! is decided (about half of those of depth-4 self-play at depth 7) are left out: fitted on them,
//! the weights learn to foresee tactics, which is the search's work, and play worse (see
//! docs/results/gomoku.md). `--scores` keeps the searches' scores in a file,
//! so that a second fit on the same positions and depth does not search again.
//!
//! **Held-out error.** With `--hold-out N` every Nth game is left out of the fit, and the error of
//! the starting weights, of the fit, of each line-search step and of each `--compare` file is
//! reported on its positions (log-loss against the labels and against the results, squared error
//! against the results), together with that of the labelling search itself.
//!
//! The scale is first fitted to the starting weights and then held, so the tuned weights keep
//! the starting weights' units. The weights are then fitted by full-batch gradient descent (Adam)
//! in floating point, from the starting weights, with a small pull towards them, and rounded:
//! to the nearest integer, or with `--round-by-loss` each down or up by the loss on the training
//! positions (the features of ones and twos count in the hundreds, so nearest rounding can cost
//! much: 0.512 to 0.554 in log-loss in one labelled fit). `--hold NAME` keeps a weight at its
//! starting value. Everything is deterministic: the same games and options give the same file.
//!
//! With `--steps`, the candidates of a line search are written as well: for each step `a`, the
//! weights `start + a (fit - start)` (the fit before rounding), rounded, to `OUT` with `-a` before
//! its extension (`fit.txt` gives `fit-0.25.txt`, ...). The tuning pipeline plays them against the
//! current weights in an SPRT.
//!
//! Without `--games`, `--scale NAME=FACTOR` (once or more) writes the starting weights with those
//! weights multiplied and rounded: the pipeline's one-weight candidates.

use crate::base::score;
use crate::base::transposition::TranspositionTable;
use crate::game::{Rules, Strength};
use crate::games::gomoku::evaluation::{self, Weights};
use crate::games::gomoku::{Gomoku, GomokuMove, Rule};
use crate::search::limits::Limits;
use crate::search::{self, SearchRequest, Worker};
use anyhow::{anyhow, bail, Context};
use rayon::prelude::*;
use std::io::Write;
use std::sync::atomic::AtomicBool;

/// One training position: its features for the side to move, the game's result for that side,
/// the label the fit aims at (the result, or its blend with a search score) and the number of
/// its game among all games read.
struct Sample {
    features: Vec<f64>,
    result: f64,
    label: f64,
    game: usize,
}

/// The game lines of a games file: not blank, not a `#` comment.
pub(super) fn game_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .filter(|line| !line.trim().is_empty() && !line.trim_start().starts_with('#'))
}

/// A game line `rule size moves result`: the empty board, the moves and black's result; `None`
/// when the line is not one.
pub(super) fn parse_game_line(line: &str) -> Option<(Gomoku, Vec<&str>, f64)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let [rule, size, moves, result] = words[..] else {
        return None;
    };
    let rule = Rule::parse(rule)?;
    let game = Gomoku::new(size.parse().ok()?, rule).ok()?;
    Some((game, split_moves(moves), result.parse().ok()?))
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

/// The features of `game` for the side to move, signed as the evaluation uses them.
fn signed_features(game: &Gomoku) -> Vec<f64> {
    evaluation::features(game)
        .into_iter()
        .map(f64::from)
        .collect()
}

/// How the positions of the games are chosen.
#[derive(Clone, Copy, Debug)]
struct Sampling {
    /// Opening plies left out.
    skip: usize,
    /// Only the plies that are multiples of this.
    every: usize,
}

/// The positions of one games file that the fit uses, with the positions themselves when
/// `positions` is given (for the labelling searches). `first_game` numbers the file's first game.
fn read_samples(
    path: &str,
    sampling: Sampling,
    first_game: usize,
    samples: &mut Vec<Sample>,
    mut positions: Option<&mut Vec<Gomoku>>,
) -> anyhow::Result<usize> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
    let mut games = 0;
    for line in game_lines(&text) {
        let wrong = || anyhow!("{path}: not 'rule size moves result': {line}");
        let (mut game, moves, black) = parse_game_line(line).ok_or_else(wrong)?;
        let number = first_game + games;
        games += 1;
        for (ply, text) in moves.into_iter().enumerate() {
            let chosen = ply >= sampling.skip && ply.is_multiple_of(sampling.every.max(1));
            if chosen && game.outcome().is_none() {
                let value = evaluation::evaluate(&game, Strength(8));
                let decided = value.abs() > 8000;
                if !decided {
                    let result = if game.side_to_move() == 0 {
                        black
                    } else {
                        1.0 - black
                    };
                    samples.push(Sample {
                        features: signed_features(&game),
                        result,
                        label: result,
                        game: number,
                    });
                    if let Some(positions) = positions.as_deref_mut() {
                        positions.push(game.clone());
                    }
                }
            }
            let mv: GomokuMove = game.parse_move(text).map_err(|_| wrong())?;
            game.try_play(mv).map_err(|_| wrong())?;
        }
    }
    Ok(games)
}

/// The score of a search of `position` to `depth` on one thread with a fresh table, for the side
/// to move: the same on every run.
fn search_score(position: &Gomoku, depth: u32, table: &TranspositionTable) -> Option<i32> {
    table.clear();
    let mut workers: Vec<Worker<Gomoku>> = Vec::new();
    let stop = AtomicBool::new(false);
    let request = SearchRequest {
        limits: Limits {
            depth: Some(depth),
            ..Limits::default()
        },
        ..SearchRequest::default()
    };
    search::search(position, &request, table, &stop, &mut workers, &mut |_| {}).score()
}

/// The search score of every position to `depth`, on `threads` threads (each search on one, so
/// the scores do not depend on the thread count). A position without a score (none happen: the
/// game is not over) counts as even.
fn search_scores(positions: &[Gomoku], depth: u32, threads: usize) -> anyhow::Result<Vec<i32>> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .stack_size(32 << 20)
        .build()?;
    let done = std::sync::atomic::AtomicUsize::new(0);
    let total = positions.len();
    Ok(pool.install(|| {
        positions
            .par_iter()
            .map_init(
                || TranspositionTable::new(16),
                |table, position| {
                    let score = search_score(position, depth, table).unwrap_or(0);
                    let count = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                    if count.is_multiple_of(500) {
                        log::info!("labelled {count} of {total} positions");
                    }
                    score
                },
            )
            .collect()
    }))
}

/// The first line of a scores file: what the scores are, so that a file made for other positions
/// or another depth is not reused.
fn scores_header(depth: u32, count: usize, start_path: &str) -> String {
    format!("# gomoku search scores: depth {depth}, {count} positions, weights {start_path}")
}

/// The search scores from `cache` when it holds them for these positions and depth, otherwise
/// searched (and written to `cache`, if given).
fn cached_search_scores(
    positions: &[Gomoku],
    depth: u32,
    threads: usize,
    start_path: &str,
    cache: Option<&str>,
) -> anyhow::Result<Vec<i32>> {
    let header = scores_header(depth, positions.len(), start_path);
    if let Some(path) = cache {
        if let Ok(text) = std::fs::read_to_string(path) {
            let mut lines = text.lines();
            if lines.next() == Some(header.as_str()) {
                let scores: Result<Vec<i32>, _> = lines.map(str::parse).collect();
                match scores {
                    Ok(scores) if scores.len() == positions.len() => {
                        eprintln!("search scores read from {path}");
                        return Ok(scores);
                    }
                    _ => log::warn!("{path}: unreadable search scores; searching again"),
                }
            }
        }
    }
    let scores = search_scores(positions, depth, threads)?;
    if let Some(path) = cache {
        let mut text = header;
        for score in &scores {
            text.push_str(&format!("\n{score}"));
        }
        text.push('\n');
        std::fs::write(path, text).with_context(|| format!("writing {path}"))?;
    }
    Ok(scores)
}

/// Whether a search score is a proven result or a threat-decided one (above the pattern values).
fn decided(score: i32) -> bool {
    score::is_decisive(score) || score.abs() > 8000
}

/// A search score as an expected result for the side to move: a proven or threat-decided result
/// is a win or a loss, anything else `sigmoid(scale x score)`.
fn expected_result(score: i32, scale: f64) -> f64 {
    if decided(score) {
        if score > 0 {
            1.0
        } else {
            0.0
        }
    } else {
        sigmoid(scale * f64::from(score))
    }
}

/// The scale that turns search scores into expected results best (the least log-loss against
/// the results), by the same search as [`fit_scale`].
fn fit_search_scale(samples: &[Sample], scores: &[i32]) -> f64 {
    let pairs: Vec<Sample> = samples
        .iter()
        .zip(scores)
        .filter(|(_, &score)| !decided(score))
        .map(|(sample, &score)| Sample {
            features: vec![f64::from(score)],
            result: sample.result,
            label: sample.result,
            game: sample.game,
        })
        .collect();
    fit_scale(&pairs, &[1.0])
}

/// Sets each label to `(1 - search_weight) x result + search_weight x expected`, where
/// `expected` is the search score as an expected result.
fn blend(samples: &mut [Sample], scores: &[i32], scale: f64, search_weight: f64) {
    for (sample, &score) in samples.iter_mut().zip(scores) {
        sample.label =
            (1.0 - search_weight) * sample.result + search_weight * expected_result(score, scale);
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn value(weights: &[f64], features: &[f64]) -> f64 {
    weights.iter().zip(features).map(|(w, f)| w * f).sum()
}

/// The mean log-loss of the predictions `sigmoid(scale x value)` against each sample's label.
fn loss(samples: &[Sample], weights: &[f64], scale: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|sample| {
            cross_entropy(
                sigmoid(scale * value(weights, &sample.features)),
                sample.label,
            )
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// The log-loss of the prediction `p` against the label `target`.
fn cross_entropy(p: f64, target: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    -(target * p.ln() + (1.0 - target) * (1.0 - p).ln())
}

/// How well weights predict a set of positions: the mean log-loss against the labels and
/// against the results alone, and the mean squared error against the results.
#[derive(Clone, Copy, Debug)]
struct Error {
    labels: f64,
    results: f64,
    squared: f64,
}

fn error(samples: &[Sample], weights: &[f64], scale: f64) -> Error {
    let count = samples.len().max(1) as f64;
    let (mut labels, mut results, mut squared) = (0.0, 0.0, 0.0);
    for sample in samples {
        let p = sigmoid(scale * value(weights, &sample.features));
        labels += cross_entropy(p, sample.label);
        results += cross_entropy(p, sample.result);
        squared += (p - sample.result) * (p - sample.result);
    }
    Error {
        labels: labels / count,
        results: results / count,
        squared: squared / count,
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(
            formatter,
            "log-loss {:.5} against the labels, {:.5} against the results, squared error {:.5}",
            self.labels, self.results, self.squared
        )
    }
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

/// The command line of `tabula train gomoku` (see the module documentation).
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
    /// Only the plies that are multiples of this (1: every ply).
    #[arg(long, default_value_t = 1)]
    pub every: usize,
    /// Pull towards the starting weights.
    #[arg(long, default_value_t = 1e-4)]
    pub regularisation: f64,
    /// Steps of the line search from the start towards the fit, comma-separated (`0.25,0.5,1`).
    #[arg(long, value_delimiter = ',')]
    pub steps: Vec<f64>,
    /// Without games: multiply a weight, `NAME=FACTOR`.
    #[arg(long)]
    pub scale: Vec<String>,
    /// Label each position with a search to this depth, with the starting weights, as well as
    /// with the game's result (0: the result alone).
    #[arg(long, default_value_t = 0)]
    pub label_depth: u32,
    /// The share of the label taken from the search: `(1 - w) x result + w x expected`, where
    /// `expected` is the search score as an expected result.
    #[arg(long, default_value_t = 0.5)]
    pub search_weight: f64,
    /// A file that keeps the search scores: read when it holds those of these positions at this
    /// depth, written otherwise.
    #[arg(long)]
    pub scores: Option<String>,
    /// Threads of the labelling searches (each search runs on one).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Hold out every Nth game (the games numbered N, 2N, ... over the files in order): fit on
    /// the others and report the error of the starting and the fitted weights on these.
    #[arg(long, default_value_t = 0)]
    pub hold_out: usize,
    /// More weights whose held-out error to report (their scale fitted on the training positions).
    #[arg(long)]
    pub compare: Vec<String>,
    /// With `--label-depth`: leave out the positions whose search finds the game decided (a
    /// proof, or a threat valued above the patterns), so that the fit learns quiet positions and
    /// leaves tactics to the search.
    #[arg(long)]
    pub drop_decided: bool,
    /// Round each weight down or up by the loss on the training positions, not to the nearest
    /// integer (see `round_to_samples`).
    #[arg(long)]
    pub round_by_loss: bool,
    /// A weight the fit leaves at its starting value (once per weight): to measure what a
    /// feature adds.
    #[arg(long)]
    pub hold: Vec<String>,
}

/// Whether the game numbered `game` (from 0) is held out.
fn held_out(game: usize, every: usize) -> bool {
    every > 0 && (game + 1).is_multiple_of(every)
}

fn parse_weights(path: &str) -> anyhow::Result<(String, Weights)> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading weights {path}"))?;
    let weights = Weights::parse(&text).map_err(|error| anyhow!("{path}: {error}"))?;
    Ok((text, weights))
}

fn to_floats(weights: &[i32]) -> Vec<f64> {
    weights.iter().map(|&w| f64::from(w)).collect()
}

/// Runs the command.
///
/// # Errors
/// Bad options, or a file that cannot be read or written.
pub fn run(arguments: &GomokuTrainArgs) -> anyhow::Result<()> {
    let start_path = arguments.start.as_str();
    let out_path = arguments.out.as_str();
    let (start_text, start) = parse_weights(start_path)?;
    if arguments.files.is_empty() {
        if arguments.scale.is_empty() {
            bail!("give --games to fit, or --scale");
        }
        let mut vector = start.to_vector();
        for change in &arguments.scale {
            vector = scaled(&vector, change).map_err(anyhow::Error::msg)?;
        }
        let mut file =
            std::fs::File::create(out_path).with_context(|| format!("creating {out_path}"))?;
        write!(file, "{}", scaled_header(&start_text, &arguments.scale))?;
        write!(file, "{}", Weights::from_vector(&vector).write())?;
        return Ok(());
    }
    if !(0.0..=1.0).contains(&arguments.search_weight) {
        bail!("--search-weight must lie in 0..=1");
    }
    if let Some(unknown) = arguments
        .hold
        .iter()
        .find(|name| !Weights::names().contains(name))
    {
        bail!("--hold {unknown}: no such weight");
    }
    let sampling = Sampling {
        skip: arguments.skip,
        every: arguments.every,
    };
    let mut samples = Vec::new();
    let mut positions = Vec::new();
    let labelling = arguments.label_depth > 0;
    let mut games = 0;
    for file in &arguments.files {
        games += read_samples(
            file,
            sampling,
            games,
            &mut samples,
            labelling.then_some(&mut positions),
        )?;
    }
    eprintln!("{games} games, {} positions", samples.len());
    let label_note = if labelling {
        samples = label(samples, positions, &start, arguments)?;
        format!(
            "labels (1 - {w}) x result + {w} x depth-{d} search",
            w = arguments.search_weight,
            d = arguments.label_depth
        )
    } else {
        "results".to_string()
    };
    let (training, held): (Vec<Sample>, Vec<Sample>) = samples
        .into_iter()
        .partition(|sample| !held_out(sample.game, arguments.hold_out));
    let held_games = (0..games)
        .filter(|&game| held_out(game, arguments.hold_out))
        .count();
    eprintln!(
        "training: {} games, {} positions; held out: {held_games} games, {} positions",
        games - held_games,
        training.len(),
        held.len()
    );
    let initial = to_floats(&start.to_vector());
    let scale = fit_scale(&training, &initial);
    let initial_loss = loss(&training, &initial, scale);
    eprintln!("scale {scale:.6}, loss of the starting weights {initial_loss:.5}");
    let weights = fit(&training, &initial, scale, arguments);
    eprintln!(
        "loss of the fit before rounding {:.5}",
        loss(&training, &weights, scale)
    );
    let round = |point: &[f64]| {
        if arguments.round_by_loss {
            round_to_samples(&training, point, scale)
        } else {
            point.iter().map(|w| w.round() as i32).collect()
        }
    };
    // `start + 1 x (fit - start)`, not the fit itself, as the first stage has always rounded.
    let rounded = round(&line_float(&initial, &weights, 1.0));
    let final_loss = loss(&training, &to_floats(&rounded), scale);
    eprintln!("loss of the tuned weights {final_loss:.5} (was {initial_loss:.5})");
    if !held.is_empty() {
        eprintln!("held out, {start_path}: {}", error(&held, &initial, scale));
        eprintln!(
            "held out, the fit: {} (before rounding: {})",
            error(&held, &to_floats(&rounded), scale),
            error(&held, &weights, scale)
        );
        for step in &arguments.steps {
            let point = to_floats(&round(&line_float(&initial, &weights, *step)));
            eprintln!("held out, step {step}: {}", error(&held, &point, scale));
        }
        for path in &arguments.compare {
            let (_, other) = parse_weights(path)?;
            let other = to_floats(&other.to_vector());
            let other_scale = fit_scale(&training, &other);
            eprintln!(
                "held out, {path} (scale {other_scale:.6}): {}",
                error(&held, &other, other_scale)
            );
        }
    }
    // A fit to the results alone keeps the first stage's header, so that its pipeline still
    // reproduces its file byte for byte.
    let plain = !labelling && held.is_empty();
    let (writer, source) = if plain {
        ("tune-gomoku-eval.sh", format!("{games} games"))
    } else {
        (
            "tune-gomoku-eval-search.sh",
            format!("{games} games ({held_games} held out), {label_note}"),
        )
    };
    let positions = training.len();
    let mut file =
        std::fs::File::create(out_path).with_context(|| format!("creating {out_path}"))?;
    writeln!(
        file,
        "# Gomoku pattern evaluation weights (see src/games/gomoku/evaluation.rs), written by\n\
         # scripts/train/{writer}: Texel fit from {start_path} on {source},\n\
         # {positions} positions, scale {scale:.6}, log-loss {initial_loss:.5} -> {final_loss:.5}."
    )?;
    write!(file, "{}", Weights::from_vector(&rounded).write())?;
    for &step in &arguments.steps {
        let point = round(&line_float(&initial, &weights, step));
        let point_loss = loss(&training, &to_floats(&point), scale);
        let path = step_path(out_path, step);
        let mut file = std::fs::File::create(&path).with_context(|| format!("creating {path}"))?;
        let header = if plain {
            format!(
                "# Gomoku pattern evaluation weights (see src/games/gomoku/evaluation.rs), written by\n\
                 # scripts/train/{writer}: {start_path} + {step} x (Texel fit - it) on {games}\n\
                 # games, {positions} positions, scale {scale:.6}, log-loss {initial_loss:.5} -> \
                 {point_loss:.5}."
            )
        } else {
            format!(
                "# Gomoku pattern evaluation weights (see src/games/gomoku/evaluation.rs), written by\n\
                 # scripts/train/{writer}: {start_path} + {step} x (Texel fit - it)\n\
                 # on {source},\n\
                 # {positions} positions, scale {scale:.6}, log-loss {initial_loss:.5} -> {point_loss:.5}."
            )
        };
        writeln!(file, "{header}")?;
        write!(file, "{}", Weights::from_vector(&point).write())?;
        eprintln!("step {step}: loss {point_loss:.5}, written to {path}");
    }
    Ok(())
}

/// The samples labelled by searches of their `positions` (see the module documentation), those
/// the search decides left out with `--drop-decided`; reports how well the search predicts the
/// held-out games.
fn label(
    samples: Vec<Sample>,
    mut positions: Vec<Gomoku>,
    start: &Weights,
    arguments: &GomokuTrainArgs,
) -> anyhow::Result<Vec<Sample>> {
    let begin = std::time::Instant::now();
    let weights = start.clone().shared();
    for position in &mut positions {
        position.set_weights(weights.clone());
    }
    let scores = cached_search_scores(
        &positions,
        arguments.label_depth,
        arguments.threads,
        &arguments.start,
        arguments.scores.as_deref(),
    )?;
    drop(positions);
    let (samples_kept, scores) = if arguments.drop_decided {
        let kept: Vec<(Sample, i32)> = samples
            .into_iter()
            .zip(scores)
            .filter(|(_, score)| !decided(*score))
            .collect();
        eprintln!("{} positions the search does not decide", kept.len());
        kept.into_iter().unzip()
    } else {
        (samples, scores)
    };
    let mut samples = samples_kept;
    let training: Vec<usize> = (0..samples.len())
        .filter(|&index| !held_out(samples[index].game, arguments.hold_out))
        .collect();
    let training_samples: Vec<Sample> = training
        .iter()
        .map(|&index| Sample {
            features: Vec::new(),
            ..samples[index]
        })
        .collect();
    let training_scores: Vec<i32> = training.iter().map(|&index| scores[index]).collect();
    let search_scale = fit_search_scale(&training_samples, &training_scores);
    blend(&mut samples, &scores, search_scale, arguments.search_weight);
    // How well the search itself predicts the results of the held-out games.
    let held: Vec<(f64, f64)> = samples
        .iter()
        .zip(&scores)
        .filter(|(sample, _)| held_out(sample.game, arguments.hold_out))
        .map(|(sample, &score)| (expected_result(score, search_scale), sample.result))
        .collect();
    if !held.is_empty() {
        let count = held.len() as f64;
        let log_loss = held.iter().map(|&(p, r)| cross_entropy(p, r)).sum::<f64>() / count;
        let squared = held.iter().map(|&(p, r)| (p - r) * (p - r)).sum::<f64>() / count;
        eprintln!(
            "held out, the depth-{} search: log-loss {log_loss:.5} against the results, \
             squared error {squared:.5}",
            arguments.label_depth
        );
    }
    eprintln!(
        "labels: depth-{} search scores (scale {search_scale:.6}) blended with the results, \
         search weight {}; {:.0} s",
        arguments.label_depth,
        arguments.search_weight,
        begin.elapsed().as_secs_f64()
    );
    Ok(samples)
}

/// The weights fitted to the samples' labels at `scale` by full-batch gradient descent (Adam)
/// from `initial`, with a pull towards it, before rounding.
fn fit(samples: &[Sample], initial: &[f64], scale: f64, arguments: &GomokuTrainArgs) -> Vec<f64> {
    // Features that never occur keep their starting weight (and overlines and fives are not
    // features at all), as do those held.
    let names = Weights::names();
    let used: Vec<bool> = (0..Weights::COUNT)
        .map(|index| {
            !arguments.hold.contains(&names[index])
                && samples.iter().any(|sample| sample.features[index] != 0.0)
        })
        .collect();
    let mut weights = initial.to_vec();
    let (mut first, mut second) = (vec![0.0; Weights::COUNT], vec![0.0; Weights::COUNT]);
    let (rate, beta1, beta2) = (1.0, 0.9, 0.999);
    // The pull towards the starting weights, relative to their size.
    let prior: Vec<f64> = initial.iter().map(|w| w.abs().max(10.0)).collect();
    let count = samples.len().max(1) as f64;
    for epoch in 1..=arguments.epochs {
        let mut gradient = vec![0.0; Weights::COUNT];
        for sample in samples {
            let p = sigmoid(scale * value(&weights, &sample.features));
            let error = (p - sample.label) * scale;
            for (g, f) in gradient.iter_mut().zip(&sample.features) {
                *g += error * f;
            }
        }
        for index in 0..Weights::COUNT {
            if !used[index] {
                continue;
            }
            let pull =
                2.0 * arguments.regularisation * (weights[index] - initial[index]) / prior[index];
            let g = gradient[index] / count + pull;
            first[index] = beta1 * first[index] + (1.0 - beta1) * g;
            second[index] = beta2 * second[index] + (1.0 - beta2) * g * g;
            let corrected_first = first[index] / (1.0 - beta1.powi(epoch as i32));
            let corrected_second = second[index] / (1.0 - beta2.powi(epoch as i32));
            weights[index] -= rate * corrected_first / (corrected_second.sqrt() + 1e-12);
        }
        if epoch % 100 == 0 {
            eprintln!("epoch {epoch}: loss {:.5}", loss(samples, &weights, scale));
        }
    }
    weights
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

/// The weights `start + step (fit - start)`.
fn line_float(start: &[f64], fit: &[f64], step: f64) -> Vec<f64> {
    start
        .iter()
        .zip(fit)
        .map(|(s, f)| s + step * (f - s))
        .collect()
}

/// `point` rounded to integers, each weight down or up, whichever gives the samples the smaller
/// loss at `scale` (by coordinate passes from the nearest integers until none helps). Plain
/// rounding costs much: the features of ones and twos count in the hundreds, so half a unit on
/// their weights moves the value by tens of units.
fn round_to_samples(samples: &[Sample], point: &[f64], scale: f64) -> Vec<i32> {
    let mut weights: Vec<i32> = point.iter().map(|w| w.round() as i32).collect();
    let mut values: Vec<f64> = samples
        .iter()
        .map(|sample| value(&to_floats(&weights), &sample.features))
        .collect();
    let total = |values: &[f64]| -> f64 {
        samples
            .iter()
            .zip(values)
            .map(|(sample, v)| cross_entropy(sigmoid(scale * v), sample.label))
            .sum()
    };
    let mut best = total(&values);
    for _ in 0..20 {
        let mut changed = false;
        for index in 0..weights.len() {
            let other = if f64::from(weights[index]) > point[index] {
                point[index].floor() as i32
            } else {
                point[index].ceil() as i32
            };
            if other == weights[index] {
                continue;
            }
            let delta = f64::from(other - weights[index]);
            let trial: Vec<f64> = values
                .iter()
                .zip(samples)
                .map(|(v, sample)| v + delta * sample.features[index])
                .collect();
            let trial_loss = total(&trial);
            if trial_loss < best {
                best = trial_loss;
                values = trial;
                weights[index] = other;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    weights
}

/// `OUT` with `-step` before its extension: `target/fit.txt` and 0.5 give `target/fit-0.5.txt`.
fn step_path(out: &str, step: f64) -> String {
    match out.rsplit_once('.') {
        Some((stem, extension)) if !extension.contains('/') => format!("{stem}-{step}.{extension}"),
        _ => format!("{out}-{step}"),
    }
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
        assert_eq!(line_float(&start, &fit, 0.0), [10.0, 40.0, 0.0]);
        assert_eq!(line_float(&start, &fit, 0.25), [12.5, 37.5, -0.75]);
        assert_eq!(line_float(&start, &fit, 1.0), [20.0, 30.0, -3.0]);
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
    fn search_scores_blend_into_labels() {
        let sample = |result| Sample {
            features: Vec::new(),
            result,
            label: result,
            game: 0,
        };
        let mut samples = vec![sample(1.0), sample(0.0), sample(1.0)];
        let decisive = score::win_in(3, 0);
        blend(&mut samples, &[0, 8500, -decisive], 0.01, 0.25);
        assert!((samples[0].label - (0.75 + 0.25 * 0.5)).abs() < 1e-12);
        assert!((samples[1].label - 0.25).abs() < 1e-12);
        assert!((samples[2].label - 0.75).abs() < 1e-12);
        blend(&mut samples, &[0, 8500, -decisive], 0.01, 0.0);
        assert_eq!(samples[0].label, 1.0);
        assert_eq!(samples[1].label, 0.0);
    }

    #[test]
    fn every_nth_game_is_held_out() {
        let held: Vec<usize> = (0..12).filter(|&game| held_out(game, 5)).collect();
        assert_eq!(held, [4, 9]);
        assert!(!(0..12).any(|game| held_out(game, 0)));
    }

    #[test]
    fn splits_run_together_moves() {
        assert_eq!(split_moves("h8g10k9"), vec!["h8", "g10", "k9"]);
        assert_eq!(split_moves("a1"), vec!["a1"]);
    }
}
