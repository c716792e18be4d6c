//! GTP as Quarry speaks it: the exact command sequence Quarry 0.2.0 sent Tabula in a logged
//! Reversi game (tests/data/quarry-gtp-session.txt), replayed against the binary.

use crate::common;

use common::Engine;

const SESSION: &str = include_str!("../data/quarry-gtp-session.txt");

/// Each command Quarry sent with the reply Tabula gave in the logged game (replies come in the
/// order of the commands, each ending with a blank line).
fn exchanges() -> Vec<(String, String)> {
    let mut commands = Vec::new();
    let mut replies = Vec::new();
    let mut reply = Vec::new();
    for line in SESSION.lines().filter(|line| !line.starts_with('#')) {
        if let Some(command) = line.strip_prefix("> ") {
            commands.push(command.to_string());
        } else if let Some(text) = line.strip_prefix('<') {
            let text = text.trim();
            if text.is_empty() {
                replies.push(reply.join("\n"));
                reply.clear();
            } else {
                reply.push(text.to_string());
            }
        }
    }
    assert_eq!(commands.len(), replies.len(), "one reply per command");
    commands.into_iter().zip(replies).collect()
}

#[test]
fn the_logged_quarry_session_replays() {
    let exchanges = exchanges();
    assert!(exchanges.len() > 90, "{}", exchanges.len());
    assert!(exchanges.iter().all(|(_, reply)| reply.starts_with('=')));
    let mut engine = Engine::start();
    // The one line the test adds: quicker moves than Quarry's 2 s per move.
    engine.ok("set_option movetime 50");
    let mut passes_implied = 0;
    // Whether the last move was the engine's own (no `play` since its `genmove`).
    let mut engine_moved_last = false;
    for (command, logged) in &exchanges {
        let logged = logged.trim_start_matches('=').trim();
        if let Some(player) = command.strip_prefix("genmove ") {
            // Quarry never sends a pass: a second genmove for the same side implies one.
            passes_implied += usize::from(engine_moved_last);
            let legal = engine.ok(&format!("legal_moves {player}"));
            let mv = engine.ok(command);
            assert!(
                legal.split(' ').any(|legal| legal == mv),
                "'{command}' gave {mv}, not one of {legal}"
            );
            // Follow the logged game whatever the engine chose.
            if mv != logged {
                engine.ok("undo");
                engine.ok(&format!("play {player} {logged}"));
            }
            engine_moved_last = true;
            continue;
        }
        if command.starts_with("play ") {
            engine_moved_last = false;
        }
        let reply = engine.send(command);
        assert!(reply.success, "'{command}': {}", reply.text);
        if !["version", "list_commands"].contains(&command.as_str()) {
            assert_eq!(reply.text, logged, "'{command}'");
        }
    }
    assert!(passes_implied > 0, "the logged game has white's passes");
    assert_eq!(engine.ok("final_score"), "B+40");
    engine.quit();
}
