//! Analysing one position with an engine session: a search with the run's limits, or an exact
//! solve (`--exact`), and the comparison with the answers the input gives.

use super::input::Item;
use super::record::{Expected, Record};
use crate::engine::{EngineError, Line, Mode, Report, Request, Score, ScoreBound, Session};
use crate::search::limits::Limits;
use std::time::Duration;

/// What to do with each position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Task {
    /// Search limits (ignored by an exact solve except the hard time).
    pub limits: Limits,
    /// Solve exactly instead of searching.
    pub exact: bool,
    /// How many best moves to score.
    pub multipv: usize,
    /// Keep the table and search state of the position before (`--keep-table`).
    pub keep_table: bool,
}

/// Analyses `item` in `session`. `None` when the search was stopped before it gave anything
/// (an interrupted run), so that the position is left for `--resume`; an exact solve stopped by
/// the time limit gives a record with an error instead.
pub fn analyse(
    session: &mut dyn Session,
    item: &Item,
    index: usize,
    total: usize,
    source: &str,
    task: &Task,
) -> Option<Record> {
    let mut record = Record {
        index,
        total,
        source: source.to_string(),
        line: item.line,
        ply: item.ply,
        position: item.position.clone(),
        to_move: String::new(),
        best: None,
        score: None,
        depth: 0,
        selective_depth: 0,
        nodes: 0,
        time_ms: 0,
        pv: Vec::new(),
        lines: Vec::new(),
        result: None,
        error: None,
        expected: None,
        agree: None,
        played: item.played.clone(),
    };
    if !task.keep_table {
        // Same input, same answer: nothing learnt on the positions before may change this one.
        session.forget();
    }
    if let Err(error) = session.set_position(&item.position) {
        record.error = Some(error.to_string());
        return Some(record);
    }
    record.to_move = session.format_player(session.side_to_move());
    if session.outcome().is_some() {
        record.result = session.result_text().ok();
        return Some(record);
    }
    let found = if task.exact && task.multipv > 1 {
        solve_each_move(session, task)
    } else if task.exact {
        let request = Request {
            player: None,
            received: None,
            mode: Mode::Solve,
            limits: task.limits.hard_time.map(|hard| Limits {
                hard_time: Some(hard),
                ..Limits::default()
            }),
        };
        session.search(&request, &mut |_| {})
    } else {
        let request = Request {
            player: None,
            received: None,
            mode: Mode::Analyze {
                lines: Some(task.multipv),
            },
            limits: Some(task.limits),
        };
        session.search(&request, &mut |_| {})
    };
    match found {
        Ok(report) if !report.lines.is_empty() => record.fill(&report, task.multipv),
        Ok(_) => record.error = Some("the search found no move".to_string()),
        // An exact solve stopped by its hard time is an answer too; any other stop is Ctrl-C.
        Err(EngineError::Stopped) if task.exact && task.limits.hard_time.is_some() => {
            record.error = Some("not solved in the time given (--movetime)".to_string())
        }
        Err(EngineError::Stopped) => return None,
        // A solver that proves only wins (Gomoku's threat search) leaves the rest open: that is
        // an answer, not a failure.
        Err(EngineError::NotProven) if task.exact => record.result = Some("unknown".to_string()),
        Err(error) => record.error = Some(error.to_string()),
    }
    judge(&mut record, item);
    Some(record)
}

/// The same score seen by the player before: a move earlier.
fn negate(score: Score) -> Score {
    match score {
        Score::Heuristic(value) => Score::Heuristic(-value),
        Score::Exact(value) => Score::Exact(-value),
        Score::Win { plies, margin } => Score::Loss {
            plies: plies + 1,
            margin,
        },
        Score::Loss { plies, margin } => Score::Win {
            plies: plies + 1,
            margin,
        },
    }
}

/// Every move solved exactly, by solving the position after it: `--exact --multipv N`.
fn solve_each_move(session: &mut dyn Session, task: &Task) -> Result<Report<String>, EngineError> {
    let mover = session.side_to_move();
    let moves = session.legal_moves(None)?;
    let mut lines: Vec<Line<String>> = Vec::new();
    let (mut nodes, mut elapsed, mut depth) = (0, Duration::ZERO, 0);
    for mv in moves {
        session.play(None, &mv)?;
        let line = match session.outcome() {
            Some(outcome) => {
                let score = match outcome.winner() {
                    None => Score::Exact(0),
                    Some(winner) if outcome.margin != 0 => Score::Exact(if winner == mover {
                        outcome.margin
                    } else {
                        -outcome.margin
                    }),
                    Some(winner) if winner == mover => Score::Win {
                        plies: 1,
                        margin: 0,
                    },
                    Some(_) => Score::Loss {
                        plies: 1,
                        margin: 0,
                    },
                };
                Ok(Line {
                    mv: mv.clone(),
                    score,
                    bound: ScoreBound::Exact,
                    depth: 1,
                    pv: vec![mv.clone()],
                })
            }
            None => {
                let request = Request {
                    player: None,
                    received: None,
                    mode: Mode::Solve,
                    limits: task.limits.hard_time.map(|hard| Limits {
                        hard_time: Some(hard),
                        ..Limits::default()
                    }),
                };
                let same_side = session.side_to_move() == mover;
                session.search(&request, &mut |_| {}).map(|report| {
                    nodes += report.nodes;
                    elapsed += report.elapsed;
                    let best = report.best();
                    let mut pv = vec![mv.clone()];
                    pv.extend(best.pv.iter().cloned());
                    Line {
                        mv: mv.clone(),
                        score: if same_side {
                            best.score
                        } else {
                            negate(best.score)
                        },
                        bound: ScoreBound::Exact,
                        depth: best.depth + 1,
                        pv,
                    }
                })
            }
        };
        session.undo()?;
        match line {
            Ok(line) => {
                depth = depth.max(line.depth);
                lines.push(line);
            }
            Err(EngineError::NotProven) => {}
            Err(error) => return Err(error),
        }
    }
    if lines.is_empty() {
        return Err(EngineError::NotProven);
    }
    lines.sort_by(|a, b| b.score.as_units(1e6).total_cmp(&a.score.as_units(1e6)));
    lines.truncate(task.multipv);
    Ok(Report {
        depth,
        selective_depth: depth,
        lines,
        nodes,
        elapsed,
        solved: true,
    })
}

/// Compares the record with the item's answers (and with the played move of a game record).
fn judge(record: &mut Record, item: &Item) {
    if item.answers.is_empty() {
        return;
    }
    let best_score = item.answers.iter().filter_map(|answer| answer.score).max();
    let moves: Vec<String> = item
        .answers
        .iter()
        .filter(|answer| best_score.is_none() || answer.score == best_score)
        .map(|answer| answer.mv.clone())
        .collect();
    let move_agrees = record
        .best
        .as_ref()
        .is_some_and(|best| moves.contains(best));
    let found_exact = record.score.and_then(|score| score.exact());
    let score_agrees = match (best_score, found_exact) {
        (Some(expected), Some(found)) => expected == found,
        _ => true,
    };
    // Lines with exact scores must match every answer that gives a score for their move.
    let lines_agree = record.lines.iter().all(|line| {
        match (
            line.score.exact(),
            item.answers.iter().find(|answer| answer.mv == line.mv),
        ) {
            (Some(found), Some(answer)) => answer.score.is_none_or(|score| score == found),
            _ => true,
        }
    });
    record.agree = Some(record.error.is_none() && move_agrees && score_agrees && lines_agree);
    record.expected = Some(Expected {
        moves,
        score: best_score,
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{new_session, Settings, StopSignal};
    use crate::tools::positions;
    use std::sync::Arc;

    fn reversi(threads: usize) -> Box<dyn Session> {
        let settings = Settings {
            hash_megabytes: 16,
            threads,
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

    fn item(session: &mut dyn Session, line: &str) -> Item {
        let parsed = positions::read_line(session, line).unwrap();
        Item {
            source: 0,
            line: 1,
            ply: None,
            position: session.position(),
            answers: parsed.answers,
            played: None,
        }
    }

    const FFORUM_1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;";

    #[test]
    fn an_exact_solve_agrees_with_the_obf_answers() {
        let mut session = reversi(1);
        let item = item(session.as_mut(), FFORUM_1);
        let task = Task {
            limits: Limits::default(),
            exact: true,
            multipv: 1,
            keep_table: false,
        };
        let record = analyse(session.as_mut(), &item, 0, 1, "t", &task).unwrap();
        assert_eq!(record.best.as_deref(), Some("g8"));
        assert_eq!(record.score.unwrap().exact(), Some(18));
        assert_eq!(record.agree, Some(true));
        let all = Task { multipv: 3, ..task };
        let record = analyse(session.as_mut(), &item, 0, 1, "t", &all).unwrap();
        let lines: Vec<(String, Option<i32>)> = record
            .lines
            .iter()
            .map(|line| (line.mv.clone(), line.score.exact()))
            .collect();
        assert_eq!(lines[0], ("g8".to_string(), Some(18)));
        assert_eq!(lines[1], ("h1".to_string(), Some(12)));
        assert_eq!(lines[2].1, Some(6));
        assert_eq!(record.agree, Some(true));
    }

    #[test]
    fn a_wrong_answer_disagrees() {
        let mut session = reversi(1);
        let wrong = FFORUM_1.replace("G8:+18", "G8:+16");
        let item = item(session.as_mut(), &wrong);
        let task = Task {
            limits: Limits::default(),
            exact: true,
            multipv: 1,
            keep_table: false,
        };
        let record = analyse(session.as_mut(), &item, 0, 1, "t", &task).unwrap();
        assert_eq!(record.agree, Some(false));
        assert_eq!(record.expected.unwrap().score, Some(16));
    }

    #[test]
    fn a_depth_limited_search_reports_its_depth() {
        let mut session = reversi(1);
        let item = item(session.as_mut(), "f5 d6 c3 d3 c4");
        let task = Task {
            limits: Limits {
                depth: Some(4),
                ..Limits::default()
            },
            exact: false,
            multipv: 2,
            keep_table: false,
        };
        let record = analyse(session.as_mut(), &item, 0, 1, "t", &task).unwrap();
        assert_eq!(record.depth, 4);
        assert_eq!(record.lines.len(), 2);
        assert!(record.nodes > 0);
        assert_eq!(record.to_move, "white");
        assert_eq!(record.pv.first(), record.best.as_ref());
    }
}
