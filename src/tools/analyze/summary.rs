//! The summary at the end of a run: how many positions, nodes and seconds, and when the input
//! carries answers, how many agree and which do not.

use super::record::Record;
use crate::base::words::plural;
use std::fmt::Write;

/// Totals over the positions analysed in this run.
#[derive(Debug, Default)]
pub struct Summary {
    /// Positions analysed.
    pub positions: usize,
    /// Nodes over all positions.
    pub nodes: u64,
    /// Search time over all positions, in milliseconds.
    pub time_ms: u64,
    /// Positions with answers.
    pub answered: usize,
    /// Positions whose result agrees with the answer.
    pub agreed: usize,
    /// The positions that disagree, described.
    pub disagreements: Vec<String>,
    /// Positions from game records.
    pub played: usize,
    /// Of those, positions whose best move is the one played.
    pub played_agreed: usize,
    /// Positions without a result (an error).
    pub errors: usize,
}

impl Summary {
    /// Counts one record.
    pub fn add(&mut self, record: &Record) {
        self.positions += 1;
        self.nodes += record.nodes;
        self.time_ms += record.time_ms;
        if record.error.is_some() {
            self.errors += 1;
        }
        if let Some(agree) = record.agree {
            self.answered += 1;
            if agree {
                self.agreed += 1;
            } else {
                let expected = record.expected.as_ref();
                self.disagreements.push(format!(
                    "{}:{} found {} {}, expected {}{}",
                    record.source,
                    record.line,
                    record.best.as_deref().unwrap_or("nothing"),
                    record.score.map_or(String::new(), |score| score.text()),
                    expected.map_or(String::new(), |expected| expected.moves.join("/")),
                    expected
                        .and_then(|expected| expected.score)
                        .map_or(String::new(), |score| format!(" {score:+}")),
                ));
            }
        }
        if let Some(played) = &record.played {
            self.played += 1;
            if record.best.as_ref() == Some(played) {
                self.played_agreed += 1;
            }
        }
    }

    /// The summary as text, one fact per line.
    pub fn text(&self, skipped: usize, bad_lines: usize) -> String {
        let mut text = String::new();
        let seconds = self.time_ms as f64 / 1000.0;
        let _ = writeln!(
            text,
            "analysed {}: {} in {:.3} s of search, {:.0} nodes/s",
            plural(self.positions as u64, "position"),
            plural(self.nodes, "node"),
            seconds,
            self.nodes as f64 / seconds.max(1e-3)
        );
        if skipped > 0 {
            let verb = if skipped == 1 { "was" } else { "were" };
            let _ = writeln!(
                text,
                "{} {verb} done before (--resume)",
                plural(skipped as u64, "position")
            );
        }
        if bad_lines > 0 {
            let _ = writeln!(
                text,
                "{} skipped",
                plural(bad_lines as u64, "bad input line")
            );
        }
        if self.errors > 0 {
            let _ = writeln!(
                text,
                "{} without a result (see their error)",
                plural(self.errors as u64, "position")
            );
        }
        if self.answered > 0 {
            let _ = writeln!(
                text,
                "answers: {} of {} positions agree, {} do not",
                self.agreed,
                self.answered,
                self.answered - self.agreed
            );
            for line in &self.disagreements {
                let _ = writeln!(text, "  different: {line}");
            }
        }
        if self.played > 0 {
            let _ = writeln!(
                text,
                "played moves: the best move is the one played in {} of {} positions ({:.1}%)",
                self.played_agreed,
                self.played,
                100.0 * self.played_agreed as f64 / self.played as f64
            );
        }
        text
    }
}
