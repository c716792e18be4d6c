//! Typed search reports: what a search found, with numbers, for each front-end to format its own way.

use crate::base::score;
use crate::game::ScoreUnit;
use std::time::Duration;

/// A score for the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Score {
    /// A heuristic value from a search, in the game's unit (discs, points, rows).
    Heuristic(f64),
    /// The exact final result, in the game's unit (the disc difference in Reversi).
    Exact(i32),
    /// A proven win `plies` plies away, by `margin` units where the game scores a margin.
    Win {
        /// Plies to the end of the game.
        plies: u32,
        /// The margin, 0 where the game has none.
        margin: i32,
    },
    /// A proven loss `plies` plies away, by `margin` units.
    Loss {
        /// Plies to the end of the game.
        plies: u32,
        /// The margin, 0 where the game has none.
        margin: i32,
    },
}

impl Score {
    /// A search score (see [`crate::base::score`]) in `unit`.
    pub fn from_search(value: i32, unit: ScoreUnit) -> Score {
        match score::decode_win(value) {
            Some((margin, plies)) if value > 0 => Score::Win {
                plies: plies as u32,
                margin,
            },
            Some((margin, plies)) => Score::Loss {
                plies: plies as u32,
                margin,
            },
            None => Score::Heuristic(unit.convert(value)),
        }
    }

    /// Whether the score is a proven result (exact, win or loss).
    pub fn is_proven(&self) -> bool {
        !matches!(self, Score::Heuristic(_))
    }

    /// The score as a single number in the game's unit, for sorting and for protocols that know
    /// only numbers: a win counts `big` plus its margin, a loss minus that.
    pub fn as_units(&self, big: f64) -> f64 {
        match *self {
            Score::Heuristic(value) => value,
            Score::Exact(value) => value as f64,
            Score::Win { margin, .. } => big + margin as f64,
            Score::Loss { margin, .. } => -big - margin as f64,
        }
    }
}

/// How a score relates to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    /// The score is the value the search found.
    Exact,
    /// The true value is at most the score (the move was refuted).
    Upper,
    /// The true value is at least the score.
    Lower,
}

/// One root move with its score.
#[derive(Clone, Debug, PartialEq)]
pub struct Line<M> {
    /// The move.
    pub mv: M,
    /// Its score for the side to move.
    pub score: Score,
    /// How the score relates to the true value.
    pub bound: ScoreBound,
    /// The depth of the last iteration that searched this move (the distance to the end for a solve).
    pub depth: u32,
    /// The principal variation, starting with the move.
    pub pv: Vec<M>,
}

impl<M> Line<M> {
    /// The same line with moves turned into another form (text, for instance).
    pub fn map<N>(&self, mut convert: impl FnMut(&M) -> N) -> Line<N> {
        Line {
            mv: convert(&self.mv),
            score: self.score,
            bound: self.bound,
            depth: self.depth,
            pv: self.pv.iter().map(convert).collect(),
        }
    }
}

/// What a search has found: after each iteration, and at the end.
#[derive(Clone, Debug, PartialEq)]
pub struct Report<M> {
    /// The depth of the last completed iteration (the distance to the end for a solve).
    pub depth: u32,
    /// The deepest ply any thread reached.
    pub selective_depth: u32,
    /// Root moves, best first: one for play, several for analysis.
    pub lines: Vec<Line<M>>,
    /// Nodes searched, over all threads.
    pub nodes: u64,
    /// Time since the search began.
    pub elapsed: Duration,
    /// Whether the exact solver produced the result.
    pub solved: bool,
}

impl<M> Report<M> {
    /// The best line.
    pub fn best(&self) -> &Line<M> {
        &self.lines[0]
    }

    /// Nodes per second.
    pub fn nodes_per_second(&self) -> u64 {
        (self.nodes as u128 * 1000 / self.elapsed.as_millis().max(1)) as u64
    }

    /// The same report with moves turned into another form.
    pub fn map<N>(&self, mut convert: impl FnMut(&M) -> N) -> Report<N> {
        Report {
            depth: self.depth,
            selective_depth: self.selective_depth,
            lines: self
                .lines
                .iter()
                .map(|line| line.map(&mut convert))
                .collect(),
            nodes: self.nodes,
            elapsed: self.elapsed,
            solved: self.solved,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_scores_decode() {
        let unit = ScoreUnit {
            per_unit: 100,
            decimals: 2,
            name: "discs",
        };
        assert_eq!(Score::from_search(125, unit), Score::Heuristic(1.25));
        assert_eq!(
            Score::from_search(score::win_in(7, 18), unit),
            Score::Win {
                plies: 7,
                margin: 18
            }
        );
        assert_eq!(
            Score::from_search(-score::win_in(3, 0), unit),
            Score::Loss {
                plies: 3,
                margin: 0
            }
        );
    }
}
