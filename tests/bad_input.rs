//! Property tests: any input line gets exactly one reply, a refused command leaves the state as it
//! was, and nothing panics.

use proptest::prelude::*;
use std::sync::Arc;
use tabula::engine::{Settings, StopSignal};
use tabula::protocol::gtp::Gtp;
use tabula::protocol::input::{classify, Input};
use tabula::protocol::output::Captured;
use tabula::protocol::{FrontEnd, Protocol};

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
