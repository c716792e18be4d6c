//! `tabula bench`: a fixed set of positions per game searched to a fixed depth.
//!
//! The total node count is a signature of the search: it changes only when the search, the move
//! ordering or the evaluation changes. Time and nodes per second measure speed; with more than
//! one thread the node count is no longer deterministic, but the time to reach the depth shows the
//! parallel speed-up.

use crate::base::transposition::TranspositionTable;
use crate::engine::Score;
use crate::game::{Game, ScoreUnit, Selectivity, Strength};
use crate::games::{GameVisitor, GAMES};
use crate::search::limits::Limits;
use crate::search::{self, SearchRequest, Worker};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// One benchmark position's result.
#[derive(Clone, Debug)]
pub struct BenchLine {
    /// The game and position index, e.g. `reversi #3`.
    pub label: String,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// The best move found.
    pub best_move: String,
    /// Its score.
    pub score: Option<Score>,
    /// The unit of the game's scores.
    pub unit: ScoreUnit,
}

/// Benchmark settings.
#[derive(Clone, Debug)]
pub struct BenchSettings {
    /// Search threads.
    pub threads: usize,
    /// Table size in MB.
    pub hash_megabytes: usize,
    /// Depth override for every game (otherwise each game's default).
    pub depth: Option<u32>,
    /// Only this game, if set.
    pub game: Option<String>,
    /// The selective pruning of every search; `None`: what each game asks.
    pub selectivity: Option<Selectivity>,
    /// Whether the searches may prune by ProbCut where the game has a model.
    pub probcut: bool,
}

/// Searches one position to a fixed depth, with a fresh table and fresh threads' state, so that
/// the node count does not depend on what ran before.
struct BenchVisitor<'a> {
    label: String,
    depth: u32,
    settings: &'a BenchSettings,
    table: &'a TranspositionTable,
}

impl GameVisitor for BenchVisitor<'_> {
    type Output = BenchLine;

    fn visit<G: Game>(self, position: G) -> BenchLine {
        self.table.clear();
        let mut workers: Vec<Worker<G>> = Vec::new();
        let stop = AtomicBool::new(false);
        let request = SearchRequest {
            limits: Limits {
                depth: Some(self.depth),
                ..Limits::default()
            },
            threads: self.settings.threads,
            strength: Strength::FULL,
            multi_pv: 1,
            instant_single_move: false,
            probcut: self.settings.probcut,
            selectivity: self.settings.selectivity,
        };
        let start = Instant::now();
        let outcome = search::search(
            &position,
            &request,
            self.table,
            &stop,
            &mut workers,
            &mut |_| {},
        );
        let elapsed = start.elapsed();
        let unit = position.score_unit();
        let (best_move, score) = match (outcome.best_move(), outcome.score()) {
            (Some(mv), Some(score)) => (
                position.format_move(mv),
                Some(Score::from_search(score, unit)),
            ),
            _ => ("-".to_string(), None),
        };
        BenchLine {
            label: self.label,
            nodes: outcome.nodes,
            elapsed,
            best_move,
            score,
            unit,
        }
    }
}

/// Runs the benchmark over every game of the registry (or the one asked for) and returns one
/// line per position.
pub fn run(settings: &BenchSettings) -> Vec<BenchLine> {
    let table = TranspositionTable::new(settings.hash_megabytes);
    let mut lines = Vec::new();
    for entry in GAMES {
        if settings
            .game
            .as_deref()
            .is_some_and(|wanted| wanted != entry.name)
        {
            continue;
        }
        let bench = (entry.bench)();
        for (index, position) in bench.positions.into_iter().enumerate() {
            lines.push(position.visit(BenchVisitor {
                label: format!("{} #{}", entry.name, index + 1),
                depth: settings.depth.unwrap_or(bench.depth),
                settings,
                table: &table,
            }));
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The node count of each game's benchmark on one thread: a signature that changes only when
    /// the search, the move ordering or an evaluation changes. Update it in the commit that makes
    /// such a change, with the reason.
    const SIGNATURES: [(&str, u64); 3] = [
        ("reversi", 1_530_100),
        ("gomoku", 19_955),
        ("chinese-checkers", 236_628),
    ];

    /// The nodes of `game`'s benchmark on one thread, with `selectivity` (`None`: the game's and
    /// its ProbCut; otherwise without ProbCut, as a plain search).
    fn signature(game: &str, selectivity: Option<Selectivity>) -> u64 {
        let lines = run(&BenchSettings {
            threads: 1,
            hash_megabytes: 64,
            depth: None,
            game: Some(game.to_string()),
            selectivity,
            probcut: selectivity.is_none(),
        });
        lines.iter().map(|line| line.nodes).sum()
    }

    #[test]
    fn each_game_keeps_its_bench_signature() {
        for (game, nodes) in SIGNATURES {
            assert_eq!(signature(game, None), nodes, "{game}");
        }
    }

    /// Gomoku's weight tuning (scripts/train/tune-gomoku-eval.sh) plays with the plain search and
    /// the hand-set move ordering, which must stay what the committed weights were tuned with:
    /// its bench signature with the committed weights.
    #[test]
    fn gomoku_keeps_the_plain_search_of_its_weight_tuning() {
        use crate::games::gomoku::candidates::HAND_ORDERING;
        let settings = BenchSettings {
            threads: 1,
            hash_megabytes: 64,
            depth: None,
            game: Some("gomoku".to_string()),
            selectivity: Some(Selectivity::default()),
            probcut: false,
        };
        let entry = GAMES.iter().find(|entry| entry.name == "gomoku").unwrap();
        let depth = (entry.bench)().depth;
        let table = TranspositionTable::new(settings.hash_megabytes);
        let nodes: u64 = crate::games::gomoku::bench_positions()
            .into_iter()
            .map(|mut position| {
                position.set_ordering(&HAND_ORDERING);
                let visitor = BenchVisitor {
                    label: String::new(),
                    depth,
                    settings: &settings,
                    table: &table,
                };
                visitor.visit(position).nodes
            })
            .sum();
        assert_eq!(nodes, 124_971);
    }
}
