//! Tunes level 8's evaluation weights for the issue's six-player target: level 8 in one seat, the
//! greedy player in the others, seats rotating. A coordinate search on training games: each
//! candidate (one weight moved by its step, and further while that helps) plays the same games
//! (the same seed, so the same greedy draws and seatings), at a fixed depth without the race
//! solver, so no clock is read and the same arguments give the same weights at any load and with
//! any `--jobs`. A candidate replaces the current weights when its objective is better by more
//! than `--margin`; a round that changes nothing halves the steps.
//! `scripts/train/tune-chinese-checkers-greedy.sh` runs it.
//!
//! ```text
//! tabula tune chinese-checkers greedy --games 600 --rounds 3
//! ```
//!
//! The objective is level 8's share of first places (`first`) or its mean place (`place`); both
//! are printed for every candidate, with its mean moves to finish.

use crate::games::chinese_checkers::evaluation::Weights;
use crate::games::chinese_checkers::RuleSet;
use crate::tools::selfplay::chinese_checkers::{play_match, Contender, MatchSettings};
use clap::ValueEnum;
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Objective {
    /// The share of games level 8 finishes first (the issue's target).
    First,
    /// Level 8's mean place, lower is better.
    Place,
}

/// The command line of `tabula tune chinese-checkers greedy`.
#[derive(clap::Args, Debug)]
pub struct ChineseCheckersGreedyTuneArgs {
    /// Players per game: level 8 and greedy seats.
    #[arg(long, default_value_t = 6)]
    pub players: usize,
    /// Search depth of level 8.
    #[arg(long, default_value_t = 3)]
    pub depth: u32,
    /// Games per candidate.
    #[arg(long, default_value_t = 600)]
    pub games: usize,
    /// Seed of the training games (the six-player measurements use seeds 1-40).
    #[arg(long, default_value_t = 101)]
    pub seed: u64,
    /// What the search improves.
    #[arg(long, value_enum, default_value_t = Objective::First)]
    pub objective: Objective,
    /// A candidate is accepted when it is better by more than this (a share of games for
    /// `first`, places for `place`).
    #[arg(long, default_value_t = 0.01)]
    pub margin: f64,
    /// Rounds over the weights.
    #[arg(long, default_value_t = 3)]
    pub rounds: usize,
    /// Games at once.
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// The weights to start from, `key=value` pairs (keys left out keep the defaults).
    #[arg(long, default_value = "")]
    pub start: String,
    /// The first step of each weight searched, `key=value` pairs; only these keys are searched.
    #[arg(
        long,
        default_value = "sideways=2,side_camp=16,straggler=2,straggler_free=2,spread=4,hop=4,tempo=4"
    )]
    pub steps: String,
}

/// Level 8's results over the training games.
#[derive(Clone, Copy)]
struct Score {
    first: usize,
    place_sum: usize,
    moves: f64,
    games: usize,
}

impl Score {
    fn first_share(&self) -> f64 {
        self.first as f64 / self.games as f64
    }

    fn mean_place(&self) -> f64 {
        self.place_sum as f64 / self.games as f64
    }

    /// The objective, higher is better.
    fn value(&self, objective: Objective) -> f64 {
        match objective {
            Objective::First => self.first_share(),
            Objective::Place => -self.mean_place(),
        }
    }
}

impl std::fmt::Display for Score {
    fn fmt(&self, out: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(
            out,
            "first {}/{} ({:.1}%), mean place {:.3}, {:.2} moves",
            self.first,
            self.games,
            100.0 * self.first_share(),
            self.mean_place(),
            self.moves
        )
    }
}

/// Level 8 with `weights` against greedy seats, over the training games.
fn score(arguments: &ChineseCheckersGreedyTuneArgs, weights: Weights) -> anyhow::Result<Score> {
    let players = arguments.players;
    // No race solver: it works by the clock, and the games must not depend on it.
    let engine = Contender::Engine {
        level: 8,
        search: None,
        race: false,
        threads: 1,
    };
    let mut lineup = vec![Contender::Greedy; players];
    lineup[0] = engine;
    let rules = RuleSet {
        players,
        ..RuleSet::default()
    };
    let settings = MatchSettings {
        weights: vec![weights; players],
        ..MatchSettings::at_fixed_depth(
            rules,
            lineup,
            arguments.games,
            arguments.seed,
            arguments.jobs,
            arguments.depth,
        )
    };
    let results = play_match(&settings, &mut |_| {})?;
    let finishes: Vec<u32> = results
        .iter()
        .filter_map(|result| result.finished_after[0])
        .collect();
    Ok(Score {
        first: results
            .iter()
            .filter(|result| result.places[0] == 1)
            .count(),
        place_sum: results.iter().map(|result| result.places[0] as usize).sum(),
        moves: finishes.iter().sum::<u32>() as f64 / finishes.len().max(1) as f64,
        games: results.len().max(1),
    })
}

/// Runs the command.
///
/// # Errors
/// Bad options, or a file that cannot be read or written.
pub fn run(arguments: &ChineseCheckersGreedyTuneArgs) -> anyhow::Result<()> {
    let mut current: Weights = arguments.start.parse().map_err(anyhow::Error::msg)?;
    let mut steps = Weights::pairs(&arguments.steps).map_err(anyhow::Error::msg)?;
    println!(
        "players {}, depth {}, {} games a candidate from seed {}, objective {}, margin {}",
        arguments.players,
        arguments.depth,
        arguments.games,
        arguments.seed,
        match arguments.objective {
            Objective::First => "first places",
            Objective::Place => "mean place",
        },
        arguments.margin
    );
    let mut scores: HashMap<Weights, Score> = HashMap::new();
    let mut measure = |weights: Weights| -> anyhow::Result<Score> {
        if let Some(known) = scores.get(&weights) {
            return Ok(*known);
        }
        let measured = score(arguments, weights)?;
        scores.insert(weights, measured);
        Ok(measured)
    };
    let mut best = measure(current)?;
    println!("start {current}: {best}");
    let objective = arguments.objective;
    for round in 1..=arguments.rounds {
        let mut changed = false;
        for (key, step) in steps.iter_mut() {
            for sign in [1, -1] {
                let mut moved = false;
                loop {
                    let mut candidate = current;
                    let value = candidate.get_mut(key).expect("a known key");
                    *value += sign * *step;
                    let result = measure(candidate)?;
                    let accepted =
                        result.value(objective) > best.value(objective) + arguments.margin;
                    println!(
                        "round {round} {key} {} -> {}: {result}{}",
                        current.get(key).expect("a known key"),
                        candidate.get(key).expect("a known key"),
                        if accepted { " accepted" } else { "" }
                    );
                    if !accepted {
                        break;
                    }
                    current = candidate;
                    best = result;
                    moved = true;
                    changed = true;
                }
                if moved {
                    break;
                }
            }
        }
        if !changed {
            for (_, step) in steps.iter_mut() {
                *step = (*step / 2).max(1);
            }
        }
        println!("after round {round}: {current}: {best}");
    }
    // The last line is what `--first-weights` of `tabula selfplay chinese-checkers` takes.
    println!("tuned: {current}");
    Ok(())
}
