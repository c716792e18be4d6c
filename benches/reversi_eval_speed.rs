//! Times the Reversi evaluations on positions from random games, with a release build:
//! `cargo bench --bench reversi_eval_speed -- [weight file]` (default: the embedded weights).
//! `TRIALS=n` sets the number of timed passes (default 40).

use std::hint::black_box;
use std::time::Instant;
use tabula::base::zobrist::mix;
use tabula::game::Rules;
use tabula::games::reversi::bitboard;
use tabula::games::reversi::evaluation::hand_made;
use tabula::games::reversi::patterns::Weights;
use tabula::games::reversi::Reversi;

/// Positions from random games, every ply of each game.
fn positions(games: u64) -> Vec<(u64, u64)> {
    let mut all = Vec::new();
    let mut moves = Vec::new();
    for game in 0..games {
        let mut position = Reversi::new();
        let mut state = mix(game);
        while position.outcome().is_none() {
            all.push((position.player, position.opponent));
            position.generate_moves(&mut moves);
            state = mix(state);
            position.play_unchecked(moves[(state % moves.len() as u64) as usize]);
        }
    }
    all
}

/// The leaves of full-width depth-`depth` trees below every 8th position of `games`, in search
/// order: the locality a real search sees.
fn search_leaves(games: &[(u64, u64)], depth: u32) -> Vec<(u64, u64)> {
    fn walk(player: u64, opponent: u64, depth: u32, leaves: &mut Vec<(u64, u64)>) {
        let mut moves = bitboard::moves(player, opponent);
        if depth == 0 || moves == 0 {
            leaves.push((player, opponent));
            return;
        }
        while moves != 0 {
            let square = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let flipped = bitboard::flips(square, player, opponent);
            walk(
                opponent ^ flipped,
                player ^ flipped ^ (1 << square),
                depth - 1,
                leaves,
            );
        }
    }
    let mut leaves = Vec::new();
    for &(player, opponent) in games.iter().step_by(8) {
        walk(player, opponent, depth, &mut leaves);
    }
    leaves
}

/// Times `evaluate` over `positions`, `trials` times, and prints the fastest and the median trial
/// per evaluation: on a shared machine the fastest trial is the least disturbed.
fn time(name: &str, positions: &[(u64, u64)], trials: usize, evaluate: impl Fn(u64, u64) -> i32) {
    let mut sum = 0i64;
    let mut per_eval: Vec<f64> = (0..trials)
        .map(|_| {
            let start = Instant::now();
            for &(player, opponent) in positions {
                sum += evaluate(black_box(player), black_box(opponent)) as i64;
            }
            start.elapsed().as_secs_f64() * 1e9 / positions.len() as f64
        })
        .collect();
    per_eval.sort_by(f64::total_cmp);
    println!(
        "{name:<24} {:>6.1} ns/eval fastest, {:>6.1} median ({} positions x {trials}, checksum {sum})",
        per_eval[0],
        per_eval[trials / 2],
        positions.len()
    );
}

fn main() {
    // `cargo bench` adds `--bench`; a weight file is the only other argument.
    let weights = match std::env::args()
        .skip(1)
        .find(|argument| !argument.starts_with("--"))
    {
        Some(path) => {
            Weights::decode(&std::fs::read(&path).expect("a readable file")).expect("a weight file")
        }
        None => Weights::embedded(),
    };
    let positions = positions(2000);
    let leaves = search_leaves(&positions[..6000], 3);
    let repeated: Vec<(u64, u64)> = positions
        .iter()
        .step_by(997)
        .flat_map(|&position| std::iter::repeat_n(position, 500))
        .collect();
    // A small count suits instruction-counting runs (valgrind --tool=callgrind).
    let trials: usize = std::env::var("TRIALS")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(40);
    println!("random-game positions (all phases, little locality):");
    time("  patterns", &positions, trials, |p, o| {
        weights.evaluate(p, o)
    });
    time("  hand-made (level 7)", &positions, trials, |p, o| {
        hand_made(p, o, 7)
    });
    println!("leaves of depth-3 trees, in search order:");
    time("  patterns", &leaves, trials.div_ceil(4), |p, o| {
        weights.evaluate(p, o)
    });
    time(
        "  hand-made (level 7)",
        &leaves,
        trials.div_ceil(4),
        |p, o| hand_made(p, o, 7),
    );
    println!("each position 500 times in a row (weights in cache):");
    time("  patterns", &repeated, trials, |p, o| {
        weights.evaluate(p, o)
    });
    time("  hand-made (level 7)", &repeated, trials, |p, o| {
        hand_made(p, o, 7)
    });
}
