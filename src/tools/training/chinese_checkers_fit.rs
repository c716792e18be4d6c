//! Fits the Chinese Checkers evaluation weights by regression on played games: a seat's cost is
//! taken as an estimate of the moves it still needs, so each of its terms (see
//! `evaluation::Terms`) gets the moves per unit that a least-squares fit over the positions of
//! many games gives, and the weights are those coefficients over the rows' one, in sixteenths of
//! a row. The label of a position is the number of moves the seat to move still made before it
//! finished (positions of seats that never finished are left out).
//!
//! The games are played by the self-play loop (`tabula selfplay chinese-checkers`) at a fixed depth without the
//! race solver, so no clock is read: the same arguments give the same games and the same weights
//! at any load. `scripts/train/fit-chinese-checkers.sh` runs it.
//!
//! ```text
//! tabula train chinese-checkers --players 6 --games 400 --seed 101
//! ```

use crate::game::{Rules, Strength};
use crate::games::chinese_checkers::board::{GOAL_DISTANCES, HOPS, OFF_BOARD};
use crate::games::chinese_checkers::evaluation::{self, Weights, ROW};
use crate::games::chinese_checkers::{ChineseCheckers, RuleSet};
use crate::tools::selfplay::chinese_checkers::{play_match, Contender, MatchSettings};

/// The command line of `tabula train chinese-checkers`.
#[derive(clap::Args, Debug)]
pub struct ChineseCheckersTrainArgs {
    /// Players per game.
    #[arg(long, default_value_t = 6)]
    pub players: usize,
    /// One contender per seat, comma-separated (the seats rotate from game to game).
    #[arg(long, default_value = "8:norace,greedy,greedy,greedy,greedy,greedy")]
    pub lineup: String,
    /// Search depth of the engine seats.
    #[arg(long, default_value_t = 3)]
    pub depth: u32,
    /// Games to play.
    #[arg(long, default_value_t = 400)]
    pub games: usize,
    /// Seed of the greedy draws.
    #[arg(long, default_value_t = 101)]
    pub seed: u64,
    /// Games at once (the results do not depend on it).
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Only positions where the seat has at most this many rows to go.
    #[arg(long, default_value_t = 200)]
    pub max_rows: i32,
    /// Only positions where the seat has at least this many rows to go.
    #[arg(long, default_value_t = 0)]
    pub min_rows: i32,
    /// Only the positions of engine seats (not greedy ones).
    #[arg(long)]
    pub engines_only: bool,
    /// The terms fitted, comma-separated (rows always; sideways, side_camp, straggler, spread,
    /// hops; and three inputs the evaluation does not have, printed to see whether they would
    /// predict better: best_gain, the rows the seat's best move gains; home, its pieces 13 or
    /// more rows from the goal's tip; blocked, its pieces outside the goal with no forward step
    /// or hop): the evaluation's terms left out keep their default weights.
    #[arg(long, default_value = "rows,sideways,side_camp,straggler,spread,hops")]
    pub terms: String,
}

/// The names of the fitted terms, in the order of [`features`].
const NAMES: [&str; 10] = [
    "rows",
    "sideways",
    "side_camp",
    "straggler",
    "spread",
    "hops",
    "best_gain",
    "home",
    "blocked",
    "constant",
];
const N: usize = NAMES.len();

/// The regression inputs of `seat` (to move) in `position`: its cost terms and a constant.
fn features(position: &ChineseCheckers, seat: usize) -> [f64; N] {
    let terms = evaluation::terms(position, seat, Strength::FULL);
    let distances = &GOAL_DISTANCES[position.variant().goal_camp(seat)];
    let mut moves = Vec::new();
    position.generate_moves(&mut moves);
    let best_gain = moves
        .iter()
        .filter(|mv| !mv.is_pass())
        .map(|mv| distances[mv.from as usize] as i32 - distances[mv.to as usize] as i32)
        .max()
        .unwrap_or(0);
    let occupied = position.occupied();
    let mut home = 0;
    let mut blocked = 0;
    let mut pieces = position.pieces(seat);
    while pieces != 0 {
        let hole = pieces.trailing_zeros() as usize;
        pieces &= pieces - 1;
        let here = distances[hole];
        if here >= 13 {
            home += 1;
        }
        let step = HOPS[hole].iter().any(|hop| {
            hop.over != OFF_BOARD
                && occupied >> hop.over & 1 == 0
                && distances[hop.over as usize] + 1 == here
        });
        let forward = step || evaluation::has_forward_hop(hole, occupied, distances);
        if here > 3 && !forward {
            blocked += 1;
        }
    }
    [
        terms.rows as f64,
        terms.sideways as f64,
        terms.side_camp as f64,
        terms.straggler as f64,
        terms.spread as f64,
        terms.hops as f64,
        best_gain as f64,
        home as f64,
        blocked as f64,
        1.0,
    ]
}

/// Runs the command.
///
/// # Errors
/// Bad options, or a file that cannot be read or written.
pub fn run(arguments: &ChineseCheckersTrainArgs) -> anyhow::Result<()> {
    let lineup: Vec<Contender> = arguments
        .lineup
        .split(',')
        .map(|text| text.trim().parse())
        .collect::<Result<_, String>>()
        .map_err(anyhow::Error::msg)?;
    anyhow::ensure!(
        lineup.len() == arguments.players,
        "the lineup needs one contender per seat"
    );
    let rules = RuleSet {
        players: arguments.players,
        ..RuleSet::default()
    };
    let settings = MatchSettings::at_fixed_depth(
        rules,
        lineup,
        arguments.games,
        arguments.seed,
        arguments.jobs,
        arguments.depth,
    );
    let fitted: Vec<bool> = NAMES
        .iter()
        .map(|name| {
            *name == "rows"
                || *name == "constant"
                || arguments.terms.split(',').any(|term| term == *name)
        })
        .collect();
    let results = play_match(&settings, &mut |_| {})?;
    let mut samples: Vec<([f64; N], f64)> = Vec::new();
    for result in &results {
        let mut position = ChineseCheckers::from_rules(rules).expect("valid rules");
        // The ply of each seat's finishing move, to count its moves from any position.
        let mut pending: Vec<Vec<[f64; N]>> = vec![Vec::new(); arguments.players];
        let mut engine = vec![true; arguments.players];
        for (entry, &seat) in result.seats.iter().enumerate() {
            engine[seat] = settings.lineup[entry] != Contender::Greedy;
        }
        for &mv in &result.history {
            let seat = position.side_to_move();
            let rows = evaluation::terms(&position, seat, Strength::FULL).rows;
            if (arguments.min_rows..=arguments.max_rows).contains(&rows)
                && (engine[seat] || !arguments.engines_only)
            {
                let mut inputs = features(&position, seat);
                for (input, &kept) in inputs.iter_mut().zip(&fitted) {
                    if !kept {
                        *input = 0.0;
                    }
                }
                pending[seat].push(inputs);
            } else {
                // A placeholder: counted as a move, not kept as a sample.
                pending[seat].push([f64::NAN; N]);
            }
            position.try_play(mv).expect("a legal move");
            if position.place(seat).is_some() {
                let moves = pending[seat].len();
                for (index, row) in pending[seat].drain(..).enumerate() {
                    if !row[0].is_nan() {
                        samples.push((row, (moves - index) as f64));
                    }
                }
            }
        }
    }
    let (coefficients, r2, error) = fit(&samples);
    println!(
        "{} games, {} positions, R² {r2:.3}, mean absolute error {error:.2} moves",
        results.len(),
        samples.len()
    );
    for (name, coefficient) in NAMES.iter().zip(&coefficients) {
        println!("{name}: {coefficient:.4} moves per unit");
    }
    let scale = ROW as f64 / coefficients[0];
    let weight = |index: usize, default: i32| {
        if fitted[index] {
            (coefficients[index] * scale).round() as i32
        } else {
            default
        }
    };
    let defaults = Weights::DEFAULT;
    let fitted = Weights {
        sideways: weight(1, defaults.sideways),
        side_camp: weight(2, defaults.side_camp),
        straggler: weight(3, defaults.straggler),
        spread: weight(4, defaults.spread),
        hop: -weight(5, -defaults.hop),
        ..defaults
    };
    // The last line is what `--first-weights` of `tabula selfplay chinese-checkers` and
    // `Weights::DEFAULT` take.
    println!("fitted: {fitted}");
    Ok(())
}

/// The least-squares coefficients of `samples` (inputs, label), the R² and the mean absolute
/// error, by the normal equations (an input that never varies gets 0).
fn fit(samples: &[([f64; N], f64)]) -> ([f64; N], f64, f64) {
    let mut matrix = [[0.0f64; N + 1]; N];
    for (inputs, label) in samples {
        for row in 0..N {
            for column in 0..N {
                matrix[row][column] += inputs[row] * inputs[column];
            }
            matrix[row][N] += inputs[row] * label;
        }
    }
    // Gaussian elimination with partial pivoting; a tiny ridge keeps it solvable.
    for (index, row) in matrix.iter_mut().enumerate() {
        row[index] += 1e-6;
    }
    for column in 0..N {
        let pivot = (column..N)
            .max_by(|&a, &b| matrix[a][column].abs().total_cmp(&matrix[b][column].abs()))
            .expect("a row");
        matrix.swap(column, pivot);
        let pivot_row = matrix[column];
        for (index, row) in matrix.iter_mut().enumerate() {
            if index != column {
                let factor = row[column] / pivot_row[column];
                for (entry, &pivot_entry) in row.iter_mut().zip(&pivot_row).skip(column) {
                    *entry -= factor * pivot_entry;
                }
            }
        }
    }
    let mut coefficients = [0.0; N];
    for (index, coefficient) in coefficients.iter_mut().enumerate() {
        *coefficient = matrix[index][N] / matrix[index][index];
    }
    let count = samples.len().max(1) as f64;
    let mean = samples.iter().map(|(_, label)| label).sum::<f64>() / count;
    let mut residual = 0.0;
    let mut total = 0.0f64;
    let mut absolute = 0.0;
    for (inputs, label) in samples {
        let predicted: f64 = inputs.iter().zip(&coefficients).map(|(x, c)| x * c).sum();
        residual += (label - predicted).powi(2);
        absolute += (label - predicted).abs();
        total += (label - mean).powi(2);
    }
    (
        coefficients,
        1.0 - residual / total.max(1e-9),
        absolute / count,
    )
}
