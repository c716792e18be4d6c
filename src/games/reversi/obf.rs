//! Edax `.obf` test positions: a position string, then the known scores of its moves.
//!
//! A line reads `<64 squares> <side>; A2:+38; C7:+36; ...`. The first score is the best.

use super::Reversi;
use crate::game::{GameError, Rules};

/// One `.obf` line: the position and the known move scores, best first.
#[derive(Clone, Debug, PartialEq)]
pub struct ObfPosition {
    /// The position.
    pub position: Reversi,
    /// Known moves and their exact scores, as listed.
    pub scores: Vec<(String, i32)>,
}

impl ObfPosition {
    /// The best score listed.
    pub fn best_score(&self) -> Option<i32> {
        self.scores.iter().map(|&(_, score)| score).max()
    }

    /// Every move that reaches the best score, lower-case.
    pub fn best_moves(&self) -> Vec<String> {
        let best = self.best_score();
        self.scores
            .iter()
            .filter(|&&(_, score)| Some(score) == best)
            .map(|(mv, _)| mv.to_ascii_lowercase())
            .collect()
    }
}

/// Reads one `.obf` line.
///
/// # Errors
/// [`GameError::InvalidPosition`] when the board or a score annotation is malformed.
pub fn parse_line(line: &str) -> Result<ObfPosition, GameError> {
    let mut parts = line.split(';');
    let mut position = Reversi::new();
    position.set_position_string(parts.next().unwrap_or(""))?;
    let mut scores = Vec::new();
    for part in parts {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let (mv, score) = part
            .split_once(':')
            .ok_or_else(|| GameError::InvalidPosition(format!("bad annotation '{part}'")))?;
        let score: i32 = score
            .trim()
            .parse()
            .map_err(|_| GameError::InvalidPosition(format!("bad score in '{part}'")))?;
        scores.push((mv.trim().to_string(), score));
    }
    Ok(ObfPosition { position, scores })
}

/// Reads every non-empty, non-comment line of an `.obf` file.
///
/// # Errors
/// The first malformed line, with its number.
pub fn parse_file(text: &str) -> Result<Vec<ObfPosition>, GameError> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.trim_start().starts_with('%'))
        .map(|(number, line)| {
            parse_line(line).map_err(|error| {
                GameError::InvalidPosition(format!("line {}: {error}", number + 1))
            })
        })
        .collect()
}
