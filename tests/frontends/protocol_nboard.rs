//! The NBoard front-end over pipes, in exact wire form: a recorded session replayed with its
//! expected replies, exact hints against published endgame scores, a game with a pass, `ping`
//! during a search, and bad input that is ignored.

use crate::common;

use common::Engine;
use std::time::{Duration, Instant};

const SESSION: &str = include_str!("../data/nboard-session.txt");
const FFORUM_1_19: &str = include_str!("../data/fforum-1-19.obf");
const START: &str = "---------------------------O*------*O---------------------------";

/// The random game of the recorded session: a pass for white at move 54, 61 moves in all.
const GAME: &str = "B[D3]W[C3]B[C4]W[C5]B[B5]W[F3]B[B2]W[B4]B[B3]W[A2]B[F5]W[A6]B[E3]W[B1]B[A5]W[F6]B[E6]W[D2]B[G3]W[A4]B[G7]W[F2]B[A3]W[H4]B[F1]W[E2]B[E1]W[G1]B[H3]W[D1]B[A1]W[G6]B[C2]W[G8]B[F4]W[F7]B[C1]W[D6]B[H1]W[H2]B[H7]W[H5]B[C6]W[G5]B[H8]W[D7]B[E7]W[C7]B[F8]W[E8]B[A7]W[B6]B[G2]W[PA]B[D8]W[B8]B[H6]W[B7]B[A8]W[G4]B[C8]";

/// The first `count` moves of [`GAME`] as GGF move properties.
fn game_moves(count: usize) -> String {
    GAME.split_inclusive(']').take(count).collect()
}

fn ggf(board: &str, side: char, moves: &str) -> String {
    format!("(;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[8 {board} {side}]{moves};)")
}

/// Whether `text` is a whole number.
fn is_int(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit())
}

fn is_square(text: &str) -> bool {
    let bytes = text.as_bytes();
    text == "PA"
        || (bytes.len() == 2
            && (b'A'..=b'H').contains(&bytes[0])
            && (b'1'..=b'8').contains(&bytes[1]))
}

/// Whether `text` fits a placeholder of the session file.
fn fits(placeholder: &str, text: &str) -> bool {
    match placeholder {
        "int" => is_int(text),
        "seconds" => text.split_once('.').is_some_and(|(whole, fraction)| {
            is_int(whole) && fraction.len() == 2 && is_int(fraction)
        }),
        "eval" => !text.starts_with('+') && text.parse::<f64>().is_ok_and(f64::is_finite),
        "depth" => is_int(text) || text == "100%" || text == "100%W",
        "move" => is_square(text),
        "pv" => text.split('-').all(is_square),
        _ => match placeholder.strip_prefix("pv:") {
            Some(first) => text.split('-').all(is_square) && text.split('-').next() == Some(first),
            None => panic!("unknown placeholder <{placeholder}>"),
        },
    }
}

/// Whether `line` matches `pattern`: literal text, and `<placeholder>`s that each take the
/// longest run of characters other than a space or a slash.
fn matches(pattern: &str, line: &str) -> bool {
    let mut rest = line;
    let mut pattern = pattern;
    while !pattern.is_empty() {
        if let Some(after) = pattern.strip_prefix('<') {
            let Some((name, tail)) = after.split_once('>') else {
                panic!("unclosed placeholder in '{pattern}'");
            };
            let end = rest.find([' ', '/']).unwrap_or(rest.len());
            if !fits(name, &rest[..end]) {
                return false;
            }
            rest = &rest[end..];
            pattern = tail;
        } else {
            let end = pattern.find('<').unwrap_or(pattern.len());
            let Some(after) = rest.strip_prefix(&pattern[..end]) else {
                return false;
            };
            rest = after;
            pattern = &pattern[end..];
        }
    }
    rest.is_empty()
}

enum Expected {
    /// One line.
    Line(String),
    /// At least one line, each matching one of these.
    Repeated(Vec<String>),
}

struct Step {
    command: String,
    replies: Vec<Expected>,
}

fn parse_session(text: &str) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    for line in text
        .lines()
        .filter(|line| !line.starts_with('#') && !line.is_empty())
    {
        if let Some(command) = line.strip_prefix("> ") {
            steps.push(Step {
                command: command.to_string(),
                replies: Vec::new(),
            });
            continue;
        }
        let step = steps.last_mut().expect("a reply follows a command");
        if let Some(pattern) = line.strip_prefix("<* ") {
            match step.replies.last_mut() {
                Some(Expected::Repeated(patterns)) => patterns.push(pattern.to_string()),
                _ => step
                    .replies
                    .push(Expected::Repeated(vec![pattern.to_string()])),
            }
        } else if let Some(pattern) = line.strip_prefix("< ") {
            step.replies.push(Expected::Line(pattern.to_string()));
        } else {
            panic!("a session line starts with '>', '<' or '<*': {line}");
        }
    }
    for step in &steps {
        assert!(
            !matches!(step.replies.last(), Some(Expected::Repeated(_))),
            "repeated replies must be followed by a fixed one: {}",
            step.command
        );
    }
    steps
}

#[test]
fn the_recorded_session_replays_with_the_expected_replies() {
    let steps = parse_session(SESSION);
    assert!(steps.len() > 15);
    let mut engine = Engine::start();
    let mut transcript = Vec::new();
    for step in &steps {
        engine.send_line(&step.command);
        transcript.push(format!("> {}", step.command));
        let mut waiting: Option<String> = None;
        for expected in &step.replies {
            match expected {
                Expected::Line(pattern) => {
                    let line = waiting.take().unwrap_or_else(|| engine.read_line());
                    transcript.push(format!("< {line}"));
                    assert!(
                        matches(pattern, &line),
                        "after '{}': '{line}' does not match '{pattern}'\n{}",
                        step.command,
                        transcript.join("\n")
                    );
                }
                Expected::Repeated(patterns) => {
                    let mut count = 0;
                    loop {
                        let line = waiting.take().unwrap_or_else(|| engine.read_line());
                        if patterns.iter().any(|pattern| matches(pattern, &line)) {
                            transcript.push(format!("< {line}"));
                            count += 1;
                        } else {
                            waiting = Some(line);
                            break;
                        }
                    }
                    assert!(count > 0, "after '{}': none of {patterns:?}", step.command);
                }
            }
        }
        assert!(waiting.is_none());
    }
    assert_eq!(engine.read_rest(), "", "nothing after quit");
    engine.wait_exit(Duration::from_secs(10));
}

#[test]
fn the_session_matcher_can_fail() {
    assert!(matches(
        "search <pv:G2> 60 0 100%",
        "search G2-PA-A7 60 0 100%"
    ));
    assert!(!matches(
        "search <pv:G2> 60 0 100%",
        "search C8-PA 60 0 100%"
    ));
    assert!(!matches("search <pv> <eval> 0 <depth>", "search G2 +6 0 7"));
    assert!(matches("=== <move>/<eval>/<seconds>", "=== PA/-1.25/0.03"));
    assert!(!matches("=== <move>/<eval>/<seconds>", "=== e6 0.00 0.0"));
    assert!(!matches("nodestats <int> <seconds>", "nodestats 12 0.5"));
    assert!(!matches("pong 1", "pong 12"));
}

/// Sends `ping n` once nothing is running and returns the lines before `pong n`.
fn synchronise(engine: &mut Engine, number: u32) -> Vec<String> {
    engine.send_line(&format!("ping {number}"));
    let mut lines = engine.read_until(|line| line == format!("pong {number}"));
    lines.pop();
    lines
}

/// Runs `hint n` and returns the last `n` search lines (the final result).
fn hints(engine: &mut Engine, count: usize) -> Vec<String> {
    engine.send_line(&format!("hint {count}"));
    let lines = engine.read_until(|line| line == "status Tabula is waiting");
    assert_eq!(lines[0], "status Tabula is thinking");
    let searches: Vec<String> = lines
        .into_iter()
        .filter(|line| line.starts_with("search "))
        .collect();
    searches[searches.len() - count..].to_vec()
}

/// The move, evaluation and depth of a `search` line.
fn hint_fields(line: &str) -> (String, String, String) {
    let words: Vec<&str> = line.split(' ').collect();
    assert_eq!(words.len(), 5, "{line}");
    assert_eq!(words[3], "0");
    (
        words[1][..2].to_string(),
        words[2].to_string(),
        words[4].to_string(),
    )
}

#[test]
fn hints_near_the_end_are_exact_and_agree_with_the_published_scores() {
    let mut engine = Engine::start();
    engine.send_line("nboard 2");
    assert_eq!(engine.read_line(), "set myname Tabula");
    // FForum #1: 14 empties, G8:+18 H1:+12 H7:+6 A2:+6; depth 8 solves from 14 empties.
    let first = FFORUM_1_19.lines().next().unwrap();
    let board = first[..64].replace('X', "*");
    engine.send_line(&format!("set game {}", ggf(&board, '*', "")));
    engine.send_line("set depth 8");
    assert_eq!(engine.read_line(), "set myname Tabula");
    let found: Vec<(String, String, String)> = hints(&mut engine, 3)
        .iter()
        .map(|line| hint_fields(line))
        .collect();
    assert_eq!(found[0], ("G8".into(), "18".into(), "100%".into()));
    assert_eq!(found[1], ("H1".into(), "12".into(), "100%".into()));
    assert!(["H7", "A2"].contains(&found[2].0.as_str()), "{found:?}");
    assert_eq!(found[2].1, "6");
    engine.send_line("go");
    let lines = engine.read_until(|line| line.starts_with("status Tabula is waiting"));
    let best = lines
        .iter()
        .find(|line| line.starts_with("=== "))
        .expect("a move");
    assert!(best.starts_with("=== G8/18/"), "{best}");
    // Depth 7 solves from 13 empties only: a heuristic search at depth 7.
    engine.send_line("set depth 7");
    assert_eq!(engine.read_line(), "set myname Tabula");
    let (_, _, depth) = hint_fields(&hints(&mut engine, 1)[0]);
    assert_eq!(depth, "7");
    engine.send_line("quit");
    engine.wait_exit(Duration::from_secs(10));
}

/// The `analysis` lines of an `analyze`.
fn analysis(engine: &mut Engine) -> Vec<(usize, String)> {
    engine.send_line("analyze");
    let lines = engine.read_until(|line| line == "status Tabula is waiting");
    assert_eq!(lines[0], "status Tabula is analyzing");
    lines[1..lines.len() - 1]
        .iter()
        .map(|line| {
            let words: Vec<&str> = line.split(' ').collect();
            assert_eq!((words.len(), words[0]), (3, "analysis"), "{line}");
            (words[1].parse().unwrap(), words[2].to_string())
        })
        .collect()
}

#[test]
fn a_game_with_a_pass_is_followed_with_or_without_the_pass_written() {
    let mut engine = Engine::start_with(&["--protocol", "nboard"]);
    engine.send_line("nboard 1");
    assert_eq!(engine.read_line(), "set myname Tabula");
    engine.send_line("set depth 4");
    assert_eq!(engine.read_line(), "set myname Tabula");
    // The whole game: 61 moves with white's pass, to the end: black 50, white 14.
    engine.send_line(&format!("set game {}", ggf(START, '*', &game_moves(61))));
    let whole = analysis(&mut engine);
    assert_eq!(
        whole.len(),
        62,
        "every position from the end back to the start"
    );
    assert_eq!(whole[0].0, 61);
    assert_eq!(whole[61].0, 0);
    // The last positions are solved (they agree with Edax's exact solve of the same game).
    assert_eq!(whole[61 - 55].1, "-34");
    assert_eq!(whole[61 - 50].1, "60");
    // At the end, the result in discs for the side to move, and sides alternating before it.
    let last: i32 = whole[0].1.parse().unwrap();
    let before: i32 = whole[1].1.parse().unwrap();
    assert_eq!(last, -before, "the last move was the best one: {whole:?}");
    // The same game with the pass left out: black plays twice in a row, the pass is implied.
    let without_pass = game_moves(55).replace("W[PA]", "");
    engine.send_line(&format!("set game {}", ggf(START, '*', &without_pass)));
    let implied = analysis(&mut engine);
    assert_eq!(
        implied[0],
        (55, "-34".to_string()),
        "the implied pass counts as a move"
    );
    // A pass sent with `move`, and a move sent alone (protocol version 1).
    engine.send_line(&format!("set game {}", ggf(START, '*', &game_moves(53))));
    engine.send_line("move PA");
    engine.send_line("D8");
    assert_eq!(analysis(&mut engine)[0], (55, "-34".to_string()));
    engine.send_line("quit");
    engine.wait_exit(Duration::from_secs(10));
}

#[test]
fn ping_stops_a_search_and_answers_after_it_and_later_searches_run_at_full_depth() {
    let mut engine = Engine::start();
    engine.send_line("nboard 2");
    assert_eq!(engine.read_line(), "set myname Tabula");
    // Depth 60 from the start would run for ages.
    engine.send_line("set depth 60");
    assert_eq!(engine.read_line(), "set myname Tabula");
    engine.send_line("go");
    assert_eq!(engine.read_line(), "status Tabula is thinking");
    std::thread::sleep(Duration::from_millis(300));
    let start = Instant::now();
    engine.send_line("ping 7");
    let lines = engine.read_until(|line| line == "pong 7");
    let elapsed = start.elapsed();
    assert!(elapsed < Duration::from_secs(1), "{elapsed:?}");
    let n = lines.len();
    assert!(n >= 3, "{lines:?}");
    assert_eq!(lines[n - 2], "status Tabula is waiting");
    assert!(
        lines[n - 3].starts_with("=== "),
        "the move comes before the pong: {lines:?}"
    );
    assert!(
        ["=== F5/", "=== E6/", "=== D3/", "=== C4/"]
            .iter()
            .any(|prefix| lines[n - 3].starts_with(prefix)),
        "{lines:?}"
    );
    // A ping does not cripple later searches: each runs to its full depth.
    engine.send_line("set depth 6");
    assert_eq!(engine.read_line(), "set myname Tabula");
    for _ in 0..2 {
        let (_, _, depth) = hint_fields(&hints(&mut engine, 1)[0]);
        assert_eq!(depth, "6");
    }
    // A ping while idle answers at once, and so does a second one.
    assert!(synchronise(&mut engine, 8).is_empty());
    assert!(synchronise(&mut engine, 9).is_empty());
    let (_, _, depth) = hint_fields(&hints(&mut engine, 2)[1]);
    assert_eq!(depth, "6");
    engine.send_line("quit");
    engine.wait_exit(Duration::from_secs(10));
}

#[test]
fn bad_input_is_ignored_without_a_word_and_the_game_stays() {
    let mut engine = Engine::start();
    engine.send_line("nboard 2");
    assert_eq!(engine.read_line(), "set myname Tabula");
    engine.send_line("set depth 8");
    assert_eq!(engine.read_line(), "set myname Tabula");
    engine.send_line(&format!("set game {}", ggf(START, '*', &game_moves(50))));
    let before: Vec<_> = hints(&mut engine, 2)
        .iter()
        .map(|line| hint_fields(line))
        .collect();
    assert_eq!(before[0].1, "60");
    let bad = [
        // Malformed records.
        "set game".to_string(),
        "set game (;GM[Othello]BO[8 ---- *];)".to_string(),
        format!("set game {}", ggf(START, '*', "B[F5]W[Z9]")),
        format!("set game {}", ggf(START, '*', "B[F5/x]")),
        format!("set game (;GM[Othello]BO[8 {START} *]B[F5]"),
        format!("set game (;GM[Chess]BO[8 {START} *];)"),
        // Illegal moves in a record: F5 twice, and a white move first.
        format!("set game {}", ggf(START, '*', "B[F5]W[F5]")),
        format!("set game {}", ggf(START, '*', "W[F5]")),
        // An odd board size the game cannot have, and a 6x6 game with an illegal move (C4 is
        // taken): the 8x8 game must come back whole.
        "set game (;GM[Othello]TY[3]BO[3 --------- *];)".to_string(),
        "set game (;GM[Othello]TY[6]BO[6 --------------O*----*O-------------- *]B[C4];)"
            .to_string(),
        // Illegal and malformed moves.
        "move A1".into(),
        "move Z9".into(),
        "move F5/abc".into(),
        "move".into(),
        "PA".into(),
        // Bad numbers and unknown commands.
        "hint x".into(),
        "hint 0".into(),
        "set depth -1".into(),
        "set depth many".into(),
        "set depth 999".into(),
        "set contempt nan".into(),
        "set colour blue".into(),
        "frobnicate now".into(),
        "=== F5".into(),
    ];
    for line in &bad {
        engine.send_line(line);
    }
    assert!(
        synchronise(&mut engine, 1).is_empty(),
        "no reply to ignored lines"
    );
    let after: Vec<_> = hints(&mut engine, 2)
        .iter()
        .map(|line| hint_fields(line))
        .collect();
    assert_eq!(after, before, "the game and depth stayed");
    // A finished game: `go` and `hint` have nothing to say but their status.
    engine.send_line(&format!("set game {}", ggf(START, '*', &game_moves(61))));
    engine.send_line("go");
    assert_eq!(
        engine.read_until(|line| line == "status Tabula is waiting"),
        ["status Tabula is thinking", "status Tabula is waiting"]
    );
    engine.send_line("move C8");
    assert!(synchronise(&mut engine, 2).is_empty());
    assert_eq!(analysis(&mut engine)[0], (61, "-36".to_string()));
    engine.send_line("quit");
    engine.wait_exit(Duration::from_secs(10));
}

#[test]
fn end_of_input_ends_the_session() {
    let mut engine = Engine::start();
    engine.send_line("nboard 2");
    assert_eq!(engine.read_line(), "set myname Tabula");
    engine.send_line("learn");
    assert_eq!(engine.read_line(), "learned");
    engine.close_input();
    engine.wait_exit(Duration::from_secs(5));
}

/// The pattern a documented reply stands for: node counts, times and PV continuations vary.
fn documented_pattern(reply: &str) -> String {
    let words: Vec<&str> = reply.split(' ').collect();
    match words[0] {
        "nodestats" => "nodestats <int> <seconds>".to_string(),
        "===" => {
            let (head, _) = reply.rsplit_once('/').expect("=== move/eval/time");
            format!("{head}/<seconds>")
        }
        "search" => format!("search <pv:{}> {}", &words[1][..2], words[2..].join(" ")),
        _ => reply.to_string(),
    }
}

#[test]
fn the_documented_session_replays() {
    let text = include_str!("../../protocol.md");
    let block = text
        .split("### NBoard session")
        .nth(1)
        .expect("protocol.md has an NBoard session");
    let block = block.split("\n#").next().unwrap();
    let mut steps: Vec<Step> = Vec::new();
    for line in block.lines() {
        let Some(line) = line.strip_prefix("    ") else {
            continue;
        };
        if let Some(command) = line.strip_prefix("> ") {
            steps.push(Step {
                command: command.to_string(),
                replies: Vec::new(),
            });
        } else if let Some(step) = steps.last_mut() {
            step.replies.push(Expected::Line(documented_pattern(line)));
        }
    }
    assert!(steps.len() > 10);
    let mut engine = Engine::start();
    for step in &steps {
        engine.send_line(&step.command);
        for expected in &step.replies {
            let Expected::Line(pattern) = expected else {
                unreachable!()
            };
            let line = engine.read_line();
            assert!(
                matches(pattern, &line),
                "after '{}': '{line}' is not '{pattern}'",
                step.command
            );
        }
    }
    assert_eq!(engine.read_rest(), "");
    engine.wait_exit(Duration::from_secs(10));
}
