//! Reading the positions to analyse: files or stdin, one position per line (a position string, a
//! move sequence or an `.obf` line with answers), or game records (JSON, one per line), each of
//! which gives every position of its game after the opening: those `tabula match` writes and the
//! finished games `tabula serve --export` writes.

use crate::engine::Session;
use crate::tools::positions::{self, Answer};
use anyhow::{bail, Context, Result};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

/// What the analysis reads of a game record. `tabula match`'s records and `tabula serve`'s
/// exported games both have these fields (a served game has no opening); the rest is ignored.
#[derive(Debug, Deserialize)]
struct RecordedGame {
    game: String,
    options: BTreeMap<String, String>,
    start: String,
    moves: Vec<String>,
    #[serde(default)]
    opening_plies: usize,
}

/// One position to analyse.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    /// Which input it comes from (an index into [`Input::sources`]).
    pub source: usize,
    /// Its line in that input, from 1.
    pub line: usize,
    /// For a game record: the ply of the position in the game, from 0.
    pub ply: Option<usize>,
    /// The position string.
    pub position: String,
    /// Expected answers, from an `.obf` line.
    pub answers: Vec<Answer>,
    /// For a game record: the move played in the game.
    pub played: Option<String>,
}

/// Every position of the inputs, in order.
#[derive(Debug, Default)]
pub struct Input {
    /// The inputs' names as given (`-` for stdin).
    pub sources: Vec<String>,
    /// The positions, in input order.
    pub items: Vec<Item>,
    /// Lines that were skipped because they could not be read.
    pub bad_lines: usize,
}

/// The name standing for stdin.
pub const STDIN: &str = "-";

/// Reads every input (stdin when `paths` is empty), checking each position with `session`. A bad
/// line is reported as `file:line: reason` and skipped, or stops the reading when `strict`.
///
/// # Errors
/// An input cannot be read, or a bad line with `strict`.
pub fn read_inputs(paths: &[PathBuf], session: &mut dyn Session, strict: bool) -> Result<Input> {
    let stdin = [PathBuf::from(STDIN)];
    let paths = if paths.is_empty() { &stdin[..] } else { paths };
    let mut input = Input::default();
    for path in paths {
        let text = read_text(path)?;
        let source = input.sources.len();
        input.sources.push(path.display().to_string());
        for (number, line) in text.lines().enumerate() {
            if positions::is_blank_or_comment(line) {
                continue;
            }
            match read_one(session, line, source, number + 1) {
                Ok(mut items) => input.items.append(&mut items),
                Err(reason) => {
                    let place = format!("{}:{}", path.display(), number + 1);
                    if strict {
                        bail!("{place}: {reason}");
                    }
                    log::warn!("{place}: {reason}; line skipped");
                    input.bad_lines += 1;
                }
            }
        }
    }
    Ok(input)
}

fn read_text(path: &Path) -> Result<String> {
    let mut text = String::new();
    if path.as_os_str() == STDIN {
        std::io::stdin()
            .read_to_string(&mut text)
            .context("reading stdin")?;
    } else {
        text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    }
    Ok(text)
}

/// The positions of one line.
fn read_one(
    session: &mut dyn Session,
    line: &str,
    source: usize,
    number: usize,
) -> Result<Vec<Item>, String> {
    if line.trim_start().starts_with('{') {
        let record: RecordedGame =
            serde_json::from_str(line).map_err(|error| format!("not a game record: {error}"))?;
        return record_positions(session, &record, source, number);
    }
    let parsed = positions::read_line(session, line)?;
    if let Some((index, answer)) = parsed
        .answers
        .iter()
        .enumerate()
        .find(|(index, answer)| parsed.answers[..*index].iter().any(|a| a.mv == answer.mv))
    {
        return Err(format!(
            "answer {} ({}) is given twice",
            index + 1,
            answer.mv
        ));
    }
    Ok(vec![Item {
        source,
        line: number,
        ply: None,
        position: session.position(),
        answers: parsed.answers,
        played: None,
    }])
}

/// Every position of a recorded game after its opening, with the move played there.
fn record_positions(
    session: &mut dyn Session,
    record: &RecordedGame,
    source: usize,
    number: usize,
) -> Result<Vec<Item>, String> {
    let mut wanted: Vec<(String, String)> = record
        .options
        .iter()
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    wanted.sort();
    // The weights are the analysis's own choice, not a rule of the recorded game.
    let mut have: Vec<(String, String)> = session
        .game_options()
        .into_iter()
        .filter(|(key, _)| key != crate::games::WEIGHTS)
        .collect();
    have.sort();
    let canonical = crate::games::canonical_name(&record.game);
    if canonical != Some(session.game_name()) || wanted != have {
        return Err(format!(
            "a record of {} {}, but the analysis is of {} {}",
            record.game,
            pairs_text(&wanted),
            session.game_name(),
            pairs_text(&have)
        ));
    }
    session
        .set_position(&record.start)
        .map_err(|error| format!("the record's start: {error}"))?;
    let mut items = Vec::new();
    for (ply, mv) in record.moves.iter().enumerate() {
        if ply >= record.opening_plies {
            items.push(Item {
                source,
                line: number,
                ply: Some(ply),
                position: session.position(),
                answers: Vec::new(),
                played: Some(mv.clone()),
            });
        }
        session
            .play(None, mv)
            .map_err(|error| format!("the record's move {} ({mv}): {error}", ply + 1))?;
    }
    Ok(items)
}

fn pairs_text(pairs: &[(String, String)]) -> String {
    pairs
        .iter()
        .map(|(key, value)| format!("{key}={value}"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{new_session, Settings, StopSignal};
    use std::sync::Arc;

    fn reversi() -> Box<dyn Session> {
        let settings = Settings {
            hash_megabytes: 1,
            threads: 1,
            ..Settings::default()
        };
        new_session(
            "reversi",
            &[],
            settings,
            Arc::new(StopSignal::default()),
            None,
        )
        .unwrap()
    }

    #[test]
    fn a_record_gives_the_positions_after_its_opening() {
        let mut session = reversi();
        let start = session.position();
        let record = crate::tools::matches::records::GameRecord {
            number: 1,
            game: "othello".into(),
            options: [("size".to_string(), "8".to_string())]
                .into_iter()
                .collect(),
            opening: None,
            seats: vec!["a".into(), "b".into()],
            start,
            moves: vec!["f5".into(), "d6".into(), "c3".into()],
            opening_plies: 1,
            result: "?".into(),
            places: vec![1, 2],
            termination: crate::tools::matches::records::Termination::Interrupted,
            reason: String::new(),
            loser: None,
            move_ms: vec![],
            move_seats: vec![],
            duration_ms: 0,
        };
        let line = serde_json::to_string(&record).unwrap();
        let items = read_one(session.as_mut(), &line, 0, 7).unwrap();
        assert_eq!(items.len(), 2);
        assert_eq!(items[0].ply, Some(1));
        assert_eq!(items[0].played.as_deref(), Some("d6"));
        assert_eq!(items[1].played.as_deref(), Some("c3"));
        assert_eq!(items[1].line, 7);
        let mut other = record.clone();
        other.game = "gomoku".into();
        let error = read_one(
            session.as_mut(),
            &serde_json::to_string(&other).unwrap(),
            0,
            1,
        )
        .unwrap_err();
        assert!(error.contains("a record of gomoku"), "{error}");
    }
}
