//! VCF speed on a puzzle set: solved positions per second.
//!
//! The puzzle set is made here from seeded random games (moves drawn from the empty points within
//! two of a stone, so the set does not change with the search's candidate pruning) on 15x15, under freestyle and renju: a position is a puzzle when the side to move has a
//! VCF of at least `MIN_ATTACKER_MOVES` attacker moves and no five in one, found with a generous
//! budget. Each puzzle is then solved again with a fresh table, `ROUNDS` times, and the time is
//! reported per rule as puzzles per second and nodes per second. Every timed solve must find the
//! win again, so a solver that fails a puzzle stops the run.
//!
//! ```text
//! cargo bench --bench gomoku_vcf_speed -- [PUZZLES_PER_RULE] [SEED]
//! ```

use std::time::Instant;
use tabula::game::Rules;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tabula::games::gomoku::candidates::neighbourhood;
use tabula::games::gomoku::vcf::{Budget, ThreatSolver};
use tabula::games::gomoku::{Gomoku, Rule};

/// Attacker moves a VCF may use, in the set and in the timed solves.
const MAX_ATTACKER_MOVES: u32 = 20;
/// Fewer attacker moves than this make a puzzle too easy to count.
const MIN_ATTACKER_MOVES: u32 = 5;
/// Node budget of one solve.
const NODES: u64 = 2_000_000;
/// Times each puzzle is solved in the timed part.
const ROUNDS: usize = 5;
/// The solver's table: 2^16 entries.
const TABLE_BITS: u32 = 16;

fn puzzles(rule: Rule, count: usize, rng: &mut SmallRng) -> Vec<Gomoku> {
    let mut found = Vec::new();
    let mut moves = Vec::new();
    let mut solver = ThreatSolver::new(TABLE_BITS);
    while found.len() < count {
        let mut game = Gomoku::new(15, rule).expect("15x15 exists under every rule");
        let plies = rng.random_range(10..60);
        for _ in 0..plies {
            if game.outcome().is_some() {
                break;
            }
            moves.clear();
            neighbourhood(&game, &mut moves);
            if moves.is_empty() {
                break;
            }
            game.play_unchecked(moves[rng.random_range(0..moves.len())]);
        }
        if game.outcome().is_some() {
            continue;
        }
        let budget = Budget::vcf(NODES, MAX_ATTACKER_MOVES);
        if let Some(win) = solver.solve(&mut game.clone(), budget) {
            if win.plies >= 2 * MIN_ATTACKER_MOVES - 1 {
                found.push(game);
            }
        }
    }
    found
}

fn main() {
    // `cargo bench` adds `--bench`; the numbers are the only other arguments.
    let arguments: Vec<String> = std::env::args()
        .filter(|argument| !argument.starts_with("--"))
        .collect();
    let count = arguments
        .get(1)
        .map_or(200, |text| text.parse().expect("a count"));
    let seed = arguments
        .get(2)
        .map_or(1, |text| text.parse().expect("a seed"));
    let mut rng = SmallRng::seed_from_u64(seed);
    for rule in [Rule::Freestyle, Rule::Renju] {
        let set = puzzles(rule, count, &mut rng);
        let mut nodes = 0;
        let mut plies = 0;
        let start = Instant::now();
        for _ in 0..ROUNDS {
            for puzzle in &set {
                let mut solver = ThreatSolver::new(TABLE_BITS);
                let win = solver
                    .solve(&mut puzzle.clone(), Budget::vcf(NODES, MAX_ATTACKER_MOVES))
                    .unwrap_or_else(|| panic!("unsolved: {}", puzzle.position_string()));
                nodes += solver.nodes();
                plies += u64::from(win.plies);
            }
        }
        let seconds = start.elapsed().as_secs_f64();
        let solves = (set.len() * ROUNDS) as f64;
        println!(
            "{rule:?}: {} puzzles x {ROUNDS} rounds, mean {:.1} plies to the five, {:.3} s: \
             {:.0} puzzles/s, {:.0} nodes/s, {:.0} nodes per puzzle",
            set.len(),
            plies as f64 / solves,
            seconds,
            solves / seconds,
            nodes as f64 / seconds,
            nodes as f64 / solves
        );
    }
}
