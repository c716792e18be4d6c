//! The result of analysing one position, as `tabula analyze` writes it.

use crate::engine::{Line, Report, Score, ScoreBound};
use serde::{Deserialize, Serialize};

/// A typed score for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum ScoreRecord {
    /// A heuristic value in the game's unit (discs, points, rows).
    Heuristic {
        /// The value.
        value: f64,
        /// How it relates to the true value.
        bound: BoundRecord,
    },
    /// The exact final margin with perfect play (an endgame solve).
    Exact {
        /// The margin for the side to move.
        value: i32,
        /// How it relates to the true value.
        bound: BoundRecord,
    },
    /// A proven win.
    Win {
        /// Plies to the end.
        plies: u32,
        /// The margin, 0 where the game has none.
        margin: i32,
        /// How it relates to the true value.
        bound: BoundRecord,
    },
    /// A proven loss.
    Loss {
        /// Plies to the end.
        plies: u32,
        /// The margin, 0 where the game has none.
        margin: i32,
        /// How it relates to the true value.
        bound: BoundRecord,
    },
}

/// [`ScoreBound`] as records write it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BoundRecord {
    /// The score is the value found.
    Exact,
    /// The true value is at most the score.
    Upper,
    /// The true value is at least the score.
    Lower,
}

impl ScoreRecord {
    /// The record of an engine score.
    pub fn new(score: Score, bound: ScoreBound) -> ScoreRecord {
        let bound = match bound {
            ScoreBound::Exact => BoundRecord::Exact,
            ScoreBound::Upper => BoundRecord::Upper,
            ScoreBound::Lower => BoundRecord::Lower,
        };
        match score {
            Score::Heuristic(value) => ScoreRecord::Heuristic {
                value: (value * 1000.0).round() / 1000.0,
                bound,
            },
            Score::Exact(value) => ScoreRecord::Exact { value, bound },
            Score::Win { plies, margin } => ScoreRecord::Win {
                plies,
                margin,
                bound,
            },
            Score::Loss { plies, margin } => ScoreRecord::Loss {
                plies,
                margin,
                bound,
            },
        }
    }

    /// The exact margin, for an exact score.
    pub fn exact(&self) -> Option<i32> {
        match *self {
            ScoreRecord::Exact { value, .. } => Some(value),
            _ => None,
        }
    }

    /// The score in short words: `+1.25`, `+18` (exact), `win in 7`, `loss in 4`, with `<=`
    /// or `>=` for a bound.
    pub fn text(&self) -> String {
        let (body, bound) = match *self {
            ScoreRecord::Heuristic { value, bound } => (format!("{value:+.2}"), bound),
            ScoreRecord::Exact { value, bound } => (format!("{value:+} exact"), bound),
            ScoreRecord::Win {
                plies,
                margin,
                bound,
            } => (win_text("win", plies, margin), bound),
            ScoreRecord::Loss {
                plies,
                margin,
                bound,
            } => (win_text("loss", plies, margin), bound),
        };
        match bound {
            BoundRecord::Exact => body,
            BoundRecord::Upper => format!("<={body}"),
            BoundRecord::Lower => format!(">={body}"),
        }
    }

    /// The kind's name.
    pub fn kind(&self) -> &'static str {
        match self {
            ScoreRecord::Heuristic { .. } => "heuristic",
            ScoreRecord::Exact { .. } => "exact",
            ScoreRecord::Win { .. } => "win",
            ScoreRecord::Loss { .. } => "loss",
        }
    }
}

fn win_text(word: &str, plies: u32, margin: i32) -> String {
    if margin == 0 {
        format!("{word} in {plies}")
    } else {
        format!("{word} by {margin} in {plies}")
    }
}

/// One ranked move (with `--multipv`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LineRecord {
    /// The move.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its score.
    pub score: ScoreRecord,
    /// The depth it was searched to.
    pub depth: u32,
    /// Its principal variation.
    pub pv: Vec<String>,
}

impl LineRecord {
    /// The record of an engine line.
    pub fn new(line: &Line<String>) -> LineRecord {
        LineRecord {
            mv: line.mv.clone(),
            score: ScoreRecord::new(line.score, line.bound),
            depth: line.depth,
            pv: line.pv.clone(),
        }
    }
}

/// What the input expected.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Expected {
    /// The best moves the input names.
    pub moves: Vec<String>,
    /// Their exact score, when the input gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<i32>,
}

/// The analysis of one position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The position's number among all the input's positions, from 0.
    pub index: usize,
    /// How many positions the input has (all shards together).
    pub total: usize,
    /// The input it came from (`-` for stdin).
    pub source: String,
    /// Its line there, from 1.
    pub line: usize,
    /// Its ply in a recorded game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ply: Option<usize>,
    /// The position string.
    pub position: String,
    /// The player to move.
    pub to_move: String,
    /// The best move; `None` when the game is over or nothing was found.
    pub best: Option<String>,
    /// Its score.
    pub score: Option<ScoreRecord>,
    /// The depth of the last completed iteration (the distance to the end for a solve).
    pub depth: u32,
    /// The deepest ply reached.
    pub selective_depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken, in milliseconds.
    pub time_ms: u64,
    /// The principal variation, from the best move.
    pub pv: Vec<String>,
    /// The best moves with `--multipv`, best first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<LineRecord>,
    /// The result, when the position is already over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// Why there is no best move (e.g. a solver that proved nothing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// What the input expected.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<Expected>,
    /// Whether the result agrees with the expected answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agree: Option<bool>,
    /// The move played in the recorded game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub played: Option<String>,
}

impl Record {
    /// Fills the search fields from a report (`multipv` lines kept when more than one).
    pub fn fill(&mut self, report: &Report<String>, multipv: usize) {
        let best = report.best();
        self.best = Some(best.mv.clone());
        self.score = Some(ScoreRecord::new(best.score, best.bound));
        self.depth = report.depth;
        self.selective_depth = report.selective_depth;
        self.nodes = report.nodes;
        self.time_ms = report.elapsed.as_millis() as u64;
        self.pv = best.pv.clone();
        if multipv > 1 {
            self.lines = report.lines.iter().map(LineRecord::new).collect();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_tagged_by_kind() {
        let exact = ScoreRecord::new(Score::Exact(18), ScoreBound::Exact);
        assert_eq!(
            serde_json::to_string(&exact).unwrap(),
            r#"{"kind":"exact","value":18,"bound":"exact"}"#
        );
        let win = ScoreRecord::new(
            Score::Win {
                plies: 7,
                margin: 0,
            },
            ScoreBound::Exact,
        );
        assert_eq!(
            serde_json::to_string(&win).unwrap(),
            r#"{"kind":"win","plies":7,"margin":0,"bound":"exact"}"#
        );
        let heuristic = ScoreRecord::new(Score::Heuristic(-1.2344), ScoreBound::Upper);
        assert_eq!(heuristic.text(), "<=-1.23");
        assert_eq!(
            serde_json::from_str::<ScoreRecord>(&serde_json::to_string(&heuristic).unwrap())
                .unwrap(),
            ScoreRecord::Heuristic {
                value: -1.234,
                bound: BoundRecord::Upper
            }
        );
    }
}
