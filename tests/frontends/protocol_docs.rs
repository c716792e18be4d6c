//! The example sessions of `protocol.md` are real: each is replayed through the binary and every
//! reply must be the documented one. Search replies depend on the search, so a documented
//! `genmove` reply is checked to be legal and played instead, and `hint`/`analyze` replies only
//! need to succeed with the documented number of lines.

use crate::common;

use common::Engine;
use std::time::Duration;

/// One documented exchange: the command and the reply lines.
struct Exchange {
    command: String,
    reply: Vec<String>,
}

/// The example sessions: the indented blocks after each `### Example session` heading.
fn sessions(text: &str) -> Vec<(String, Vec<Exchange>)> {
    let mut sessions = Vec::new();
    let mut section = String::new();
    let mut current: Option<Vec<Exchange>> = None;
    for line in text.lines() {
        if line.starts_with('#') {
            if let Some(exchanges) = current.take() {
                sessions.push((section.clone(), exchanges));
            }
        }
        if let Some(title) = line.strip_prefix("## ") {
            section = title.to_string();
        }
        if line == "### Example session" {
            current = Some(Vec::new());
            continue;
        }
        let Some(exchanges) = current.as_mut() else {
            continue;
        };
        if let Some(command) = line.strip_prefix("    > ") {
            exchanges.push(Exchange {
                command: command.to_string(),
                reply: Vec::new(),
            });
        } else if let (Some(body), Some(last)) = (line.strip_prefix("    "), exchanges.last_mut()) {
            last.reply.push(body.trim_end().to_string());
        }
    }
    if let Some(exchanges) = current {
        sessions.push((section, exchanges));
    }
    sessions
}

#[test]
fn every_documented_session_replays() {
    let text = include_str!("../../protocol.md");
    let sessions = sessions(text);
    let names: Vec<&str> = sessions.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, ["Reversi / Othello", "Gomoku", "Chinese Checkers"]);
    for (name, exchanges) in &sessions {
        let mut engine = Engine::start();
        for exchange in exchanges {
            let command = &exchange.command;
            let words: Vec<&str> = command.split(' ').collect();
            let documented = &exchange.reply;
            let head = documented.first().map(String::as_str).unwrap_or("");
            let searches = words.contains(&"genmove") && head.starts_with('=');
            if searches {
                // Play the documented move, after checking that it is legal.
                let mv = head.trim_start_matches('=').trim();
                let player = words.get(1).map_or(String::new(), |p| format!(" {p}"));
                let legal = engine.ok(&format!("legal_moves{player}"));
                assert!(
                    legal.split(' ').any(|candidate| candidate == mv),
                    "{name}: '{command}' documents {mv}, not among {legal}"
                );
                engine.ok(&format!("play{player} {mv}"));
                continue;
            }
            engine.send_raw(format!("{command}\n").as_bytes());
            let reply: Vec<String> = engine
                .read_raw_reply()
                .iter()
                .map(|line| line.trim_end().to_string())
                .collect();
            if words.contains(&"hint") || words.contains(&"analyze") {
                assert!(reply[0].starts_with('='), "{name}: '{command}': {reply:?}");
                assert_eq!(reply.len(), documented.len(), "{name}: '{command}'");
            } else {
                assert_eq!(&reply, documented, "{name}: '{command}'");
            }
            if command == "quit" {
                engine.wait_exit(Duration::from_secs(5));
            }
        }
    }
}
