//! Property tests: any input line gets exactly one reply (GTP), at most the replies Piskvork
//! allows, or none but well-formed ones (NBoard); a refused command leaves the state as it was,
//! and nothing panics.

use proptest::prelude::*;
use std::sync::Arc;
use tabula::engine::{Settings, StopSignal};
use tabula::protocol::gtp::Gtp;
use tabula::protocol::input::{classify, Input};
use tabula::protocol::nboard::Nboard;
use tabula::protocol::output::Captured;
use tabula::protocol::piskvork::Piskvork;
use tabula::protocol::{serve, FrontEnd, Protocol};

/// `solve` is left out: from an early position it runs until stopped, as it should.
const WORDS: &[&str] = &[
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "legal_moves",
    "position",
    "setposition",
    "perft",
    "final_score",
    "set_option",
    "set_game",
    "boardsize",
    "clear_board",
    "komi",
    "showboard",
    "hint",
    "analyze",
    "time_settings",
    "time_left",
    "known_command",
    "list_games",
    "forbidden_moves",
    "side_to_move",
    "get_option",
    "name",
    "frob",
    "PLAY",
    "stop",
    "quit",
    "yxstop",
    "end",
    "set_option hash",
    "set_option threads",
    "list_options",
    "moves",
];

const ARGUMENTS: &[&str] = &[
    "b",
    "w",
    "black",
    "white",
    "x",
    "1",
    "2",
    "3",
    "-1",
    "99999999999999999999",
    "65536",
    "30000",
    "1048576",
    "256",
    "d3",
    "c4",
    "D3",
    "a1",
    "h8",
    "i9",
    "z0",
    "pass",
    "resign",
    "size=6",
    "size=10",
    "size=7",
    "size=x",
    "rule=renju",
    "reversi",
    "othello",
    "gomoku",
    "depth",
    "level",
    "threads",
    "hash",
    "info",
    "bogus",
    "divide",
    "-",
    "=",
    "é",
    "☃",
    "\u{0}",
    "nan",
    "inf",
    "1e3",
    "0.5",
    "---------------------------OX------XO--------------------------- X",
    "XXXX O",
    "----",
    ";",
];

fn line_strategy() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        // Raw bytes, including invalid UTF-8 and control characters.
        prop::collection::vec(
            any::<u8>().prop_filter("no newline", |b| *b != b'\n'),
            0..120
        ),
        // A command with plausible and implausible arguments, maybe with an id.
        (
            prop::option::of(0u32..1000),
            prop::sample::select(WORDS),
            prop::collection::vec(prop::sample::select(ARGUMENTS), 0..4)
        )
            .prop_map(|(id, word, arguments)| {
                let mut line = String::new();
                if let Some(id) = id {
                    line.push_str(&format!("{id} "));
                }
                line.push_str(word);
                for argument in arguments {
                    line.push(' ');
                    line.push_str(argument);
                }
                line.into_bytes()
            }),
    ]
}

/// Counts replies: each ends with a blank line, and `info` lines are not replies.
fn reply_count(text: &str) -> usize {
    text.split("\n\n")
        .filter(|reply| !reply.trim().is_empty())
        .count()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn every_line_gets_one_reply_and_errors_change_nothing(lines in prop::collection::vec(line_strategy(), 1..24)) {
        let buffer = Captured::default();
        let stop = Arc::new(StopSignal::default());
        let settings = Settings { depth: Some(2), threads: 1, ..Settings::default() };
        let mut gtp = Gtp::with_settings(settings, stop, buffer.output());
        for raw in lines {
            let before_position = gtp.session().position();
            let before_game = gtp.session().game_name();
            match classify(&raw, true, Protocol::Gtp) {
                None => {
                    prop_assert_eq!(buffer.take(), "", "an ignored line must not be answered");
                    continue;
                }
                Some(Input::Line { text, .. }) => {
                    // A quit would end a real session; here it only must answer.
                    gtp.respond(&text);
                }
                Some(Input::Bad { id, reason }) => gtp.refuse(id.as_deref(), &reason),
                Some(other) => unreachable!("{other:?}"),
            }
            let reply = buffer.take();
            prop_assert_eq!(reply_count(&reply), 1, "one reply per line: {:?}", reply);
            prop_assert!(reply.ends_with("\n\n"));
            if reply.starts_with('?') {
                prop_assert_eq!(gtp.session().position(), before_position, "{:?}", reply);
                prop_assert_eq!(gtp.session().game_name(), before_game);
            } else {
                prop_assert!(reply.starts_with('='), "{:?}", reply);
            }
            // Whatever happened, the position is still coherent.
            let legal = gtp.session().legal_moves(None).expect("legal moves of the side to move");
            let leaves = gtp.session().perft(1);
            prop_assert_eq!(leaves, legal.len().max(1) as u64);
        }
    }
}

/// `INFO` keys. `depth` and `max_depth` are left out: with `timeout_turn 0` they would lift the
/// depth limit and a search would run until stopped, as it should.
const INFO_KEYS: &[&str] = &[
    "timeout_turn",
    "timeout_match",
    "time_left",
    "max_memory",
    "rule",
    "thread_num",
    "max_node",
    "show_detail",
    "game_type",
    "evaluate",
    "folder",
    "hash",
    "level",
    "info",
    "movetime",
    "bogus",
];

const INFO_VALUES: &[&str] = &[
    "0",
    "1",
    "2",
    "4",
    "8",
    "100",
    "300",
    "2147483647",
    "-5",
    "x",
    "7,7",
    "stdout",
    "",
];

/// Commands without a point, right or wrong.
const PISKVORK_WORDS: &[&str] = &[
    "START 15",
    "START 20",
    "START 23",
    "START",
    "RECTSTART 15,15",
    "RECTSTART 20,15",
    "RESTART",
    "BEGIN",
    "DONE",
    "ABOUT",
    "YXSTOP",
    "YXNBEST 2",
    "YXNBEST 0",
    "YXSHOWFORBID",
    "SWAP2BOARD",
    "END",
    "FOO bar",
    "turn",
    "TURN a,b",
    "TURN 7",
    "TAKEBACK",
    "é",
];

/// A point, mostly on a 15x15 board, sometimes off it.
fn point_strategy() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => (0usize..15, 0usize..15).prop_map(|(x, y)| format!("{x},{y}")),
        1 => (0usize..25, 0usize..25).prop_map(|(x, y)| format!("{x},{y}")),
        1 => prop::sample::select(&["-1,2", "3", "7,7,7", ",", "x,y"][..]).prop_map(str::to_string),
    ]
}

/// One manager's message: a command, or a board block of several lines.
fn piskvork_message_strategy() -> impl Strategy<Value = Vec<Vec<u8>>> {
    let command = (
        prop::sample::select(&["TURN", "PLAY", "TAKEBACK"][..]),
        point_strategy(),
    )
        .prop_map(|(word, point)| format!("{word} {point}"));
    let info = (
        prop::sample::select(INFO_KEYS),
        prop::sample::select(INFO_VALUES),
    )
        .prop_map(|(key, value)| format!("INFO {key} {value}"));
    let block = (
        prop::sample::select(&["BOARD", "YXBOARD", "SWAP2BOARD"][..]),
        prop::collection::vec((point_strategy(), 1u8..4), 0..8),
        prop::sample::select(&["DONE", "DONE", "DONE", "ABOUT", ""][..]),
    )
        .prop_map(|(word, stones, end)| {
            let mut lines = vec![word.to_string()];
            lines.extend(
                stones
                    .into_iter()
                    .map(|(point, field)| format!("{point},{field}")),
            );
            lines.push(end.to_string());
            lines
        });
    prop_oneof![
        1 => prop::collection::vec(
            any::<u8>().prop_filter("no newline", |b| *b != b'\n'),
            0..60
        )
        .prop_map(|bytes| vec![bytes]),
        4 => command.prop_map(|line| vec![line.into_bytes()]),
        2 => info.prop_map(|line| vec![line.into_bytes()]),
        2 => prop::sample::select(PISKVORK_WORDS).prop_map(|line| vec![line.as_bytes().to_vec()]),
        2 => block.prop_map(|lines| lines.into_iter().map(String::into_bytes).collect()),
    ]
}

/// Whether `reply` has one of the forms a Piskvork brain may answer with.
fn is_piskvork_reply(reply: &str) -> bool {
    let point = reply.split_once(',').is_some_and(|(x, y)| {
        [x, y]
            .iter()
            .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    });
    let forbid = reply.strip_prefix("FORBID ").is_some_and(|rest| {
        rest.strip_suffix('.').is_some_and(|points| {
            points.len() % 4 == 0 && points.bytes().all(|b| b.is_ascii_digit())
        })
    });
    reply == "OK"
        || (reply.starts_with("ERROR ") && reply.len() > 6)
        || (reply.starts_with("UNKNOWN ") && reply.len() > 8)
        || reply.starts_with("name=\"Tabula\"")
        || point
        || forbid
}

/// The stone at Gomocup `x,y` in a Gomoku position string, if any.
fn stone_at(position: &str, x: usize, y: usize) -> Option<char> {
    let board = position.split(' ').next()?;
    let row = board.split('/').nth(y)?;
    row.chars()
        .nth(x)
        .filter(|&cell| cell == 'x' || cell == 'o')
}

/// NBoard lines: commands with plausible and implausible arguments.
const NBOARD_WORDS: &[&str] = &[
    "nboard",
    "set depth",
    "set game",
    "set contempt",
    "set myname",
    "move",
    "hint",
    "go",
    "ping",
    "learn",
    "analyze",
    "F5",
    "PA",
    "frob",
    "SET DEPTH",
    "Move",
    "===",
    "search",
];

const NBOARD_ARGUMENTS: &[&str] = &[
    "1", "2", "3", "0", "-1", "x", "99999999999999999999", "F5", "f5", "D6", "C3", "A1", "H8",
    "PA", "pass", "--", "Z9", "F5/1.25/3", "F5//2", "F5/x", "nan", "1e3", "é", "(", ";)",
    "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *];)",
    "(;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- O]W[F5];)",
    "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[E6]W[F4];)",
    "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F5];)",
    "(;GM[Othello]BO[8 ---- *];)",
    "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[F5",
    "(;GM[Othello]TY[6]BO[6 --------------O*----*O-------------- *]B[C4];)",
    "(;GM[Othello]BO[8 XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX *];)",
    "(;GM[Othello]BO[8 **************************************************************-O *];)",
];

fn nboard_line() -> impl Strategy<Value = String> {
    (
        prop::sample::select(NBOARD_WORDS),
        prop::collection::vec(prop::sample::select(NBOARD_ARGUMENTS), 0..3),
    )
        .prop_map(|(word, arguments)| {
            let mut line = word.to_string();
            for argument in arguments {
                line.push(' ');
                line.push_str(argument);
            }
            line
        })
}

/// Whether `line` is one of the forms the NBoard front-end writes.
fn is_nboard_reply(line: &str) -> bool {
    [
        "set myname Tabula",
        "status Tabula is ",
        "search ",
        "nodestats ",
        "=== ",
        "pong",
        "learned",
        "analysis ",
    ]
    .iter()
    .any(|start| line.starts_with(start))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn piskvork_lines_get_at_most_the_replies_the_protocol_allows(
        opening in prop::sample::select(&["START 15", "START 20", "START 5", "RECTSTART 9,9", "ABOUT"][..]),
        rule in prop::sample::select(&["INFO rule 0", "INFO rule 1", "INFO rule 4", "INFO rule 2"][..]),
        messages in prop::collection::vec(piskvork_message_strategy(), 1..24)
    ) {
        // Most sessions start as managers start them, so that moves are played.
        let lines = [opening.as_bytes().to_vec(), rule.as_bytes().to_vec()]
            .into_iter()
            .chain(messages.into_iter().flatten());
        let buffer = Captured::default();
        let stop = Arc::new(StopSignal::default());
        let settings = Settings { depth: Some(2), threads: 1, hash_megabytes: 4, ..Settings::default() };
        let mut brain = Piskvork::new(settings, stop, buffer.output());
        for raw in lines {
            let before_position = brain.session().position();
            let before_options = brain.session().game_options();
            let in_block = brain.in_block();
            let text = match classify(&raw, true, Protocol::Piskvork) {
                None => {
                    prop_assert_eq!(buffer.take(), "", "an ignored line must not be answered");
                    continue;
                }
                Some(Input::Line { text, .. }) => {
                    // END would end a real session; here it must only stay silent.
                    brain.respond(&text);
                    text
                }
                Some(Input::Bad { reason, .. }) => {
                    brain.refuse(None, &reason);
                    // An unreadable line spoils an open block silently, or gets an ERROR.
                    let output = buffer.take();
                    let expected = if in_block { "" } else { "ERROR " };
                    prop_assert!(output.starts_with(expected) && output.lines().count() <= 1, "{:?}", output);
                    prop_assert_eq!(brain.session().position(), before_position);
                    continue;
                }
                Some(other) => unreachable!("{other:?}"),
            };
            let output = buffer.take();
            let replies: Vec<&str> = output
                .lines()
                .filter(|line| !line.starts_with("MESSAGE "))
                .collect();
            for reply in &replies {
                prop_assert!(is_piskvork_reply(reply), "{:?} on {:?}", reply, text);
            }
            let word = text.split_whitespace().next().unwrap_or("").to_ascii_uppercase();
            let block_line = word == "DONE"
                || word.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+');
            // A command that cuts a board block short.
            let dropped_block = in_block && !block_line;
            let allowed = if word == "END" {
                0
            } else if dropped_block {
                // The open block is dropped with an ERROR, then the command runs.
                2
            } else if in_block {
                usize::from(text.to_ascii_uppercase().split_whitespace().any(|w| w == "DONE"))
            } else {
                1
            };
            prop_assert!(replies.len() <= allowed, "{:?} got {:?}", text, replies);
            if dropped_block && word != "END" {
                prop_assert!(replies[0].starts_with("ERROR "), "{:?}", replies);
            }
            let refused = replies.last().is_some_and(|reply| {
                reply.starts_with("ERROR") || reply.starts_with("UNKNOWN")
            });
            if refused && !dropped_block {
                prop_assert_eq!(brain.session().position(), before_position, "{:?}: {:?}", text, replies);
                prop_assert_eq!(brain.session().game_options(), before_options);
            }
            // A move answered is on the board and played.
            if let Some((x, y)) = replies.last().and_then(|reply| reply.split_once(',')) {
                if let (Ok(x), Ok(y)) = (x.parse::<usize>(), y.parse::<usize>()) {
                    let position = brain.session().position();
                    prop_assert!(stone_at(&position, x, y).is_some(), "{x},{y} not played: {position}");
                }
            }
            // Whatever happened, the position is still coherent.
            let legal = brain.session().legal_moves(None).expect("legal moves of the side to move");
            let leaves = brain.session().perft(1);
            prop_assert_eq!(leaves, legal.len().max(1) as u64);
        }
    }

    #[test]
    fn nboard_lines_never_break_the_game(lines in prop::collection::vec(nboard_line(), 1..24)) {
        let buffer = Captured::default();
        let stop = Arc::new(StopSignal::default());
        let settings = Settings { depth: Some(2), threads: 1, ..Settings::default() };
        let mut nboard = Nboard::new(settings, stop, buffer.output());
        for line in lines {
            let before = nboard.session().position();
            let text = match classify(line.as_bytes(), true, Protocol::Nboard) {
                Some(Input::Line { text, .. }) => text,
                _ => continue,
            };
            // A quit would end a real session; here it only must not break anything.
            let result = nboard.execute(&text);
            let replies = buffer.take();
            for reply in replies.lines() {
                prop_assert!(is_nboard_reply(reply), "{:?} after {:?}", reply, text);
            }
            if result.is_err() {
                prop_assert_eq!(nboard.session().position(), before, "{:?}", text);
            }
            prop_assert!(nboard.depth().is_none_or(|depth| depth <= 3));
            let legal = nboard.session().legal_moves(None).expect("legal moves of the side to move");
            prop_assert_eq!(nboard.session().perft(1), legal.len().max(1) as u64);
        }
    }

    #[test]
    fn nboard_sessions_served_end_with_their_last_pong(lines in prop::collection::vec(nboard_line(), 0..16)) {
        let mut input = String::from("nboard 2\nset depth 2\n");
        for line in &lines {
            input.push_str(line);
            input.push('\n');
        }
        input.push_str("ping 4242\n");
        let buffer = Captured::default();
        let settings = Settings { depth: Some(2), threads: 1, ..Settings::default() };
        serve(std::io::Cursor::new(input.into_bytes()), buffer.output(), settings, None);
        let output = buffer.take();
        for reply in output.lines() {
            prop_assert!(is_nboard_reply(reply), "{:?}", reply);
        }
        prop_assert!(output.starts_with("set myname Tabula\n"));
        prop_assert!(output.ends_with("pong 4242\n"), "{:?}", output);
    }
}
