//! Position text as the tools read it: a position string of the game, a move sequence from the
//! start, and either followed by `;`-separated answers (Edax `.obf` lines: `<board> X; A2:+38;
//! C7:+36`). Used by `tabula analyze` for its input and by `tabula match` for its openings.

use crate::engine::Session;

/// How a line gives its position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// A position string, as the session writes it.
    Position(String),
    /// Moves from the start position, as the session writes them.
    Moves(Vec<String>),
}

/// A move the line names as an answer, with its score when the line gives one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The move, as the session writes it.
    pub mv: String,
    /// Its exact score for the side to move, if given.
    pub score: Option<i32>,
}

/// A line that was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedLine {
    /// Where the position comes from.
    pub start: Start,
    /// The answers the line gives, in its order.
    pub answers: Vec<Answer>,
}

/// Whether a line holds nothing to read: blank, or a comment (`#` or `%` first).
pub fn is_blank_or_comment(line: &str) -> bool {
    let trimmed = line.trim_start();
    trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with('%')
}

/// Reads `line` into `session`, which is left at the position.
///
/// # Errors
/// A message saying why the text is neither a position nor a move sequence, or why an answer is
/// not a legal move.
pub fn read_line(session: &mut dyn Session, line: &str) -> Result<ParsedLine, String> {
    let (body, annotations) = match line.split_once(';') {
        Some((body, rest)) => (body.trim(), Some(rest)),
        None => (line.trim(), None),
    };
    if body.is_empty() {
        return Err("no position before the answers".to_string());
    }
    let start = load(session, body)?;
    let answers = match annotations {
        Some(text) => read_answers(session, text)?,
        None => Vec::new(),
    };
    Ok(ParsedLine { start, answers })
}

/// Loads a position string or a move sequence into `session`.
///
/// # Errors
/// A message with both reasons when the text is neither.
pub fn load(session: &mut dyn Session, text: &str) -> Result<Start, String> {
    let as_position = match session.set_position(text) {
        Ok(()) => return Ok(Start::Position(session.position())),
        Err(error) => error.to_string(),
    };
    match play_sequence(session, text) {
        Ok(moves) => Ok(Start::Moves(moves)),
        Err(as_moves) => Err(format!(
            "neither a position ({as_position}) nor a move sequence ({as_moves})"
        )),
    }
}

/// Plays a move sequence from the start position: moves separated by spaces or commas, or
/// written together when each is letters then digits (`f5d6c3`).
fn play_sequence(session: &mut dyn Session, text: &str) -> Result<Vec<String>, String> {
    session.clear();
    let mut count = 0;
    for token in text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|token| !token.is_empty())
    {
        let whole = session.play(None, token);
        if whole.is_ok() {
            count += 1;
            continue;
        }
        let pieces = split_joined(token).filter(|pieces| pieces.len() > 1);
        let Some(pieces) = pieces else {
            let error = whole.unwrap_err();
            return Err(format!("move {} ({token}): {error}", count + 1));
        };
        for piece in pieces {
            session
                .play(None, piece)
                .map_err(|error| format!("move {} ({piece}): {error}", count + 1))?;
            count += 1;
        }
    }
    if count == 0 {
        return Err("no moves".to_string());
    }
    Ok(session.moves_played())
}

/// Splits `f5d6c3` into `f5`, `d6`, `c3`: runs of letters each followed by a run of digits.
fn split_joined(token: &str) -> Option<Vec<&str>> {
    let bytes = token.as_bytes();
    let mut pieces = Vec::new();
    let mut start = 0;
    while start < bytes.len() {
        let mut end = start;
        while end < bytes.len() && bytes[end].is_ascii_alphabetic() {
            end += 1;
        }
        let letters = end - start;
        while end < bytes.len() && bytes[end].is_ascii_digit() {
            end += 1;
        }
        if letters == 0 || end == start + letters {
            return None;
        }
        pieces.push(&token[start..end]);
        start = end;
    }
    Some(pieces)
}

/// Reads `A2:+38; C7:+36` (or bare moves) as answers for the session's position.
fn read_answers(session: &mut dyn Session, text: &str) -> Result<Vec<Answer>, String> {
    let mut answers = Vec::new();
    for part in text
        .split(';')
        .map(str::trim)
        .filter(|part| !part.is_empty())
    {
        let (mv, score) = match part.split_once(':') {
            Some((mv, score)) => {
                let score = score
                    .trim()
                    .trim_start_matches('+')
                    .parse::<i32>()
                    .map_err(|_| format!("bad score in the answer '{part}'"))?;
                (mv.trim(), Some(score))
            }
            None => (part, None),
        };
        session
            .play(None, mv)
            .map_err(|error| format!("answer '{part}': {error}"))?;
        let written = session.moves_played().pop().unwrap_or_default();
        session.undo().map_err(|error| error.to_string())?;
        answers.push(Answer { mv: written, score });
    }
    Ok(answers)
}

/// `count` positions reached by random legal moves from the start, each after a number of plies
/// drawn from `plies` (games that end sooner are played again), as position strings. The same
/// `seed` gives the same positions.
pub fn random_positions(
    session: &mut dyn Session,
    count: usize,
    plies: std::ops::RangeInclusive<usize>,
    seed: u64,
) -> Vec<String> {
    use rand::{Rng, SeedableRng};
    let mut random = rand::rngs::SmallRng::seed_from_u64(seed);
    let mut positions = Vec::with_capacity(count);
    while positions.len() < count {
        session.clear();
        let length = random.random_range(plies.clone());
        let mut played = 0;
        while played < length {
            let moves = session.legal_moves(None).unwrap_or_default();
            if moves.is_empty() || session.outcome().is_some() {
                break;
            }
            let mv = &moves[random.random_range(0..moves.len())];
            if session.play(None, mv).is_err() {
                break;
            }
            played += 1;
        }
        if played == length && session.outcome().is_none() {
            positions.push(session.position());
        }
    }
    positions
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{new_session, Settings, StopSignal};
    use std::sync::Arc;

    fn session(game: &str) -> Box<dyn Session> {
        let settings = Settings {
            hash_megabytes: 1,
            threads: 1,
            ..Settings::default()
        };
        new_session(game, &[], settings, Arc::new(StopSignal::default()), None).unwrap()
    }

    #[test]
    fn obf_lines_give_the_position_and_answers() {
        let mut reversi = session("reversi");
        let line = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6;";
        let parsed = read_line(reversi.as_mut(), line).unwrap();
        assert!(matches!(parsed.start, Start::Position(_)));
        assert_eq!(
            parsed.answers,
            vec![
                Answer {
                    mv: "g8".into(),
                    score: Some(18)
                },
                Answer {
                    mv: "h1".into(),
                    score: Some(12)
                },
                Answer {
                    mv: "h7".into(),
                    score: Some(6)
                },
            ]
        );
    }

    #[test]
    fn move_sequences_with_or_without_spaces() {
        let mut reversi = session("reversi");
        let joined = read_line(reversi.as_mut(), "f5d6c3").unwrap();
        let position = reversi.position();
        let spaced = read_line(reversi.as_mut(), "F5 d6, c3").unwrap();
        assert_eq!(joined.start, spaced.start);
        assert_eq!(
            joined.start,
            Start::Moves(vec!["f5".into(), "d6".into(), "c3".into()])
        );
        assert_eq!(reversi.position(), position);
        let mut checkers = session("chinese-checkers");
        let parsed = read_line(checkers.as_mut(), "10-18 112-103 4-17-19").unwrap();
        assert_eq!(
            parsed.start,
            Start::Moves(vec!["10-18".into(), "112-103".into(), "4-19".into()])
        );
    }

    #[test]
    fn bad_lines_say_why() {
        let mut reversi = session("reversi");
        let error = read_line(reversi.as_mut(), "f5 f5").unwrap_err();
        assert!(error.contains("move 2 (f5)"), "{error}");
        let error = read_line(reversi.as_mut(), "f5; z9:+3").unwrap_err();
        assert!(error.contains("z9"), "{error}");
        assert!(read_line(reversi.as_mut(), "; a1").is_err());
        assert!(is_blank_or_comment("  # a comment"));
        assert!(is_blank_or_comment("% edax comment"));
        assert!(!is_blank_or_comment("f5"));
    }

    #[test]
    fn random_positions_are_reproducible_and_playable() {
        let mut gomoku = session("gomoku");
        let first = random_positions(gomoku.as_mut(), 20, 5..=15, 3);
        assert_eq!(first, random_positions(gomoku.as_mut(), 20, 5..=15, 3));
        assert_eq!(first.len(), 20);
        for position in &first {
            gomoku.set_position(position).unwrap();
            assert!(gomoku.outcome().is_none());
        }
    }
}
