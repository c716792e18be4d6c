//! Tunes the Chinese Checkers evaluation weights by self-play: a coordinate search in which each
//! candidate (one weight moved by one step) plays the current weights at a fixed depth, from
//! greedy openings, with the seats rotating; a candidate that scores above `--accept` replaces
//! them. Fixed depths, one thread per game and no race solver (it works by the clock) make every
//! run give the same games. `scripts/train/tune-chinese-checkers.sh` runs it.
//!
//! ```text
//! tabula tune chinese-checkers evaluation --players 2 --depth 3 --games 40
//! ```
//!
//! The score of a game is 1 for first place, 0 for last, evenly between (a shared place counts
//! its average).

use crate::games::chinese_checkers::evaluation::Weights;
use crate::games::chinese_checkers::RuleSet;
use crate::tools::selfplay::chinese_checkers::{play_match, Contender, MatchSettings};

/// The command line of `tabula tune chinese-checkers evaluation`.
#[derive(clap::Args, Debug)]
pub struct ChineseCheckersTuneArgs {
    /// Players per game; the candidate takes one seat, the current weights the others.
    #[arg(long, default_value_t = 2)]
    pub players: usize,
    /// Search depth of every seat.
    #[arg(long, default_value_t = 3)]
    pub depth: u32,
    /// Games per candidate.
    #[arg(long, default_value_t = 40)]
    pub games: usize,
    /// Greedy opening plies.
    #[arg(long, default_value_t = 4)]
    pub opening: usize,
    /// A candidate replaces the current weights when it scores above this.
    #[arg(long, default_value_t = 0.55)]
    pub accept: f64,
    /// Rounds over all the weights.
    #[arg(long, default_value_t = 2)]
    pub rounds: usize,
    /// Games at once.
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// The weights to start from, as `key=value` pairs (keys left out keep the committed
    /// defaults); the default is the hand-set first weights, so that a run reproduces the
    /// committed ones.
    #[arg(
        long,
        default_value = "sideways=3,side_camp=48,straggler=3,straggler_free=6,spread=0,hop=0,tempo=0"
    )]
    pub start: String,
    /// Search mode flag of every seat (`brs` or `paranoid`).
    #[arg(long, default_value = "brs")]
    pub search: String,
}

/// The candidate's mean score over a match against `current`.
fn score(
    arguments: &ChineseCheckersTuneArgs,
    candidate: Weights,
    current: Weights,
    seed: u64,
) -> anyhow::Result<f64> {
    let players = arguments.players;
    // No race solver: it works by the clock, and the games must not depend on it.
    let contender: Contender = format!("8:{}:norace", arguments.search)
        .parse()
        .map_err(anyhow::Error::msg)?;
    let mut weights = vec![current; players];
    weights[0] = candidate;
    let rules = RuleSet {
        players,
        ..RuleSet::default()
    };
    let lineup = vec![contender; players];
    let settings = MatchSettings {
        opening_plies: arguments.opening * players,
        weights,
        ..MatchSettings::at_fixed_depth(
            rules,
            lineup,
            arguments.games,
            seed,
            arguments.jobs,
            arguments.depth,
        )
    };
    let results = play_match(&settings, &mut |_| {})?;
    let total: f64 = results
        .iter()
        .map(|result| {
            let place = result.places[0] as f64;
            let shared = result
                .places
                .iter()
                .filter(|&&other| other == result.places[0])
                .count();
            // Places place .. place + shared - 1 are shared: take their average.
            let average = place + (shared as f64 - 1.0) / 2.0;
            (players as f64 - average) / (players as f64 - 1.0)
        })
        .sum();
    Ok(total / results.len().max(1) as f64)
}

/// Runs the command.
///
/// # Errors
/// Bad options, or a file that cannot be read or written.
pub fn run(arguments: &ChineseCheckersTuneArgs) -> anyhow::Result<()> {
    let mut current: Weights = arguments.start.parse().map_err(anyhow::Error::msg)?;
    println!(
        "players {}, depth {}, {} games a candidate, opening {} plies a player, search {}",
        arguments.players, arguments.depth, arguments.games, arguments.opening, arguments.search
    );
    println!("start: {current}");
    // Steps per weight, in the order of `Weights::KEYS`.
    const STEPS: [i32; 7] = [2, 16, 2, 2, 4, 4, 4];
    let mut seed = 1;
    for round in 1..=arguments.rounds {
        for (name, step) in Weights::KEYS.into_iter().zip(STEPS) {
            for sign in [1, -1] {
                let mut candidate = current;
                let value = candidate.get_mut(name).expect("a known key");
                *value = (*value + sign * step).max(0);
                if candidate == current {
                    continue;
                }
                let result = score(arguments, candidate, current, seed)?;
                seed += 1;
                let accepted = result > arguments.accept;
                println!(
                    "round {round} {name} {} -> {}: score {result:.3}{}",
                    current.get(name).expect("a known key"),
                    candidate.get(name).expect("a known key"),
                    if accepted { " accepted" } else { "" }
                );
                if accepted {
                    current = candidate;
                    break;
                }
            }
        }
        println!("after round {round}: {current}");
    }
    // The last line is what `--first-weights` of `tabula selfplay chinese-checkers` and
    // `Weights::DEFAULT` take.
    println!("tuned: {current}");
    Ok(())
}
