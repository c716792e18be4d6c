//! Black-box tests of the protocol: the binary is spawned and driven over pipes.

use crate::common;

use common::Engine;
use std::time::{Duration, Instant};

const REQUIRED: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "list_games",
    "set_game",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "showboard",
    "legal_moves",
    "position",
    "setposition",
    "perft",
    "final_score",
    "set_option",
    "time_settings",
    "time_left",
    "stop",
    "hint",
    "analyze",
    "solve",
    "forbidden_moves",
];

/// Black must pass; white's only move, a1, ends the game 8-0 (W+64 with the empties).
const BLACK_MUST_PASS: &str = "-XOOOOOO-------------------------------------------------------- X";

#[test]
fn identity_and_command_list() {
    let mut engine = Engine::start();
    assert_eq!(engine.ok("protocol_version"), "2");
    assert_eq!(engine.ok("name"), "Tabula");
    assert_eq!(engine.ok("version"), env!("CARGO_PKG_VERSION"));
    let commands = engine.ok("list_commands");
    let listed: Vec<&str> = commands.lines().collect();
    for command in REQUIRED {
        assert!(listed.contains(command), "{command} is not listed");
        assert_eq!(engine.ok(&format!("known_command {command}")), "true");
    }
    assert_eq!(engine.ok("known_command fly"), "false");
    engine.quit();
}

#[test]
fn ids_are_echoed_on_success_and_failure() {
    let mut engine = Engine::start();
    let reply = engine.send("17 name");
    assert!(reply.success);
    assert_eq!(reply.id.as_deref(), Some("17"));
    let reply = engine.send("18 frobnicate");
    assert!(!reply.success);
    assert_eq!(reply.id.as_deref(), Some("18"));
    assert!(reply.text.contains("unknown command"));
    let reply = engine.send("19 play b z9");
    assert!(!reply.success);
    assert_eq!(reply.id.as_deref(), Some("19"));
    engine.quit();
}

#[test]
fn games_sizes_and_board_commands() {
    let mut engine = Engine::start();
    let games = engine.ok("list_games");
    assert!(games.lines().any(|line| line == "reversi"));
    engine.ok("set_game Othello");
    assert_eq!(engine.ok("game"), "reversi size=8");
    engine.ok("set_game reversi size=10");
    let position = engine.ok("position");
    assert_eq!(position.len(), 102, "{position}");
    assert_eq!(engine.ok("legal_moves"), "e4 d5 g6 f7");
    assert!(engine.error("set_game reversi size=7").contains("size"));
    assert!(engine.error("set_game reversi size=x").contains("size"));
    assert!(engine.error("set_game reversi depth=3").contains("option"));
    assert!(engine.error("set_game chess").contains("unknown game"));
    assert!(engine.error("set_game reversi size").contains("key=value"));
    assert_eq!(
        engine.ok("game"),
        "reversi size=10",
        "failed set_game keeps the game"
    );
    engine.ok("boardsize 6");
    assert_eq!(engine.ok("game"), "reversi size=6");
    assert_eq!(engine.ok("perft 2"), "12");
    engine.error("boardsize 5");
    engine.error("boardsize x");
    assert_eq!(engine.ok("game"), "reversi size=6");
    engine.ok("boardsize 8");
    engine.ok("play b d3");
    engine.ok("clear_board");
    assert_eq!(engine.ok("legal_moves"), "d3 c4 f5 e6");
    engine.ok("komi 6.5");
    engine.error("komi lots");
    engine.quit();
}

#[test]
fn play_undo_and_positions() {
    let mut engine = Engine::start();
    let start = engine.ok("position");
    assert_eq!(
        start,
        "---------------------------OX------XO--------------------------- X"
    );
    assert_eq!(engine.ok("side_to_move"), "black");
    engine.ok("play black D3");
    assert_eq!(engine.ok("side_to_move"), "white");
    assert!(engine.error("play b c3").contains("turn"));
    assert!(engine.error("play w d3").contains("occupied"));
    assert!(engine.error("play w a1").contains("flips no disc"));
    assert!(engine.error("play w pass").contains("pass"));
    assert!(engine.error("play green c3").contains("player"));
    engine.error("play w");
    engine.error("play w c3 c5");
    engine.ok("play w c3");
    let board = engine.ok("showboard");
    assert!(board.contains(" 3  - . O X"), "{board}");
    engine.ok("undo");
    engine.ok("undo");
    assert!(engine.error("undo").contains("no move"));
    assert_eq!(engine.ok("position"), start);
    engine.ok("setposition ---------------------------OX------XO--------------------------- O");
    assert_eq!(engine.ok("side_to_move"), "white");
    assert!(engine.error("setposition XO X").contains("64"));
    assert!(engine.error("setposition").contains("usage"));
    assert_eq!(
        engine.ok("position"),
        "---------------------------OX------XO--------------------------- O",
        "a bad position leaves the old one"
    );
    engine.ok("setposition ...........................wb......bw........................... b");
    assert_eq!(engine.ok("position"), start);
    engine.quit();
}

#[test]
fn perft_and_divide() {
    let mut engine = Engine::start();
    assert_eq!(engine.ok("perft 1"), "4");
    assert_eq!(engine.ok("perft 6"), "8200");
    let divide = engine.ok("perft 3 divide");
    assert!(divide.contains("d3 14"), "{divide}");
    assert!(divide.ends_with("total 56"), "{divide}");
    engine.error("perft");
    engine.error("perft -1");
    engine.error("perft 3 sideways");
    engine.error("perft 99");
    engine.quit();
}

#[test]
fn forced_passes_are_explicit_or_implied() {
    let mut engine = Engine::start();
    engine.ok(&format!("setposition {BLACK_MUST_PASS}"));
    assert_eq!(engine.ok("legal_moves"), "pass");
    assert_eq!(engine.ok("legal_moves white"), "a1");
    assert!(engine.error("final_score").contains("not over"));
    // Quarry-style: white moves while black is to move, so black's pass is implied.
    engine.ok("play white a1");
    assert_eq!(engine.ok("final_score"), "W+64");
    assert_eq!(engine.ok("legal_moves"), "");
    assert!(engine.error("play b pass").contains("over"));
    assert!(engine.error("genmove b").contains("over"));
    engine.ok("undo");
    assert_eq!(
        engine.ok("position"),
        BLACK_MUST_PASS,
        "undo takes back the implied pass"
    );
    assert_eq!(engine.ok("genmove b"), "pass");
    assert_eq!(engine.ok("genmove w"), "a1");
    engine.ok("undo");
    engine.ok("undo");
    assert_eq!(engine.ok("reg_genmove w"), "a1");
    assert_eq!(
        engine.ok("position"),
        BLACK_MUST_PASS,
        "reg_genmove does not play"
    );
    assert_eq!(engine.ok("genmove w"), "a1");
    assert_eq!(engine.ok("final_score"), "W+64");
    engine.quit();
}

#[test]
fn options() {
    let mut engine = Engine::start();
    engine.ok("set_option depth 3");
    engine.ok("set_option movetime 100");
    engine.ok("set_option hash 16");
    engine.ok("set_option threads 2");
    engine.ok("set_option level 5");
    engine.ok("set_option nodes 100000");
    assert_eq!(engine.ok("get_option depth"), "3");
    assert_eq!(engine.ok("get_option hash"), "16");
    assert!(engine
        .error("set_option colour blue")
        .contains("unknown option"));
    engine.error("set_option depth deep");
    engine.error("set_option level 9");
    engine.error("set_option threads 0");
    engine.error("set_option hash 0");
    engine.error("set_option depth");
    assert_eq!(engine.ok("get_option level"), "5");
    engine.ok("set_game reversi size=10");
    assert_eq!(
        engine.ok("get_option level"),
        "5",
        "settings survive set_game"
    );
    engine.quit();
}

/// Counts the discs of a position string and applies the WOF rule, independently of the engine.
fn expected_final_score(position: &str) -> String {
    let board = position.split(' ').next().unwrap();
    let black = board.matches('X').count() as i32;
    let white = board.matches('O').count() as i32;
    let empty = board.len() as i32 - black - white;
    match black.cmp(&white) {
        std::cmp::Ordering::Greater => format!("B+{}", black - white + empty),
        std::cmp::Ordering::Less => format!("W+{}", white - black + empty),
        std::cmp::Ordering::Equal => "0".to_string(),
    }
}

#[test]
fn a_whole_self_play_game_ends_with_the_right_score() {
    let mut engine = Engine::start();
    engine.ok("set_option movetime 30");
    engine.ok("set_option threads 2");
    let mut plies = 0;
    while !engine.send("final_score").success {
        let side = engine.ok("side_to_move");
        let legal = engine.ok("legal_moves");
        let mv = engine.ok(&format!("genmove {side}"));
        assert!(
            legal.split(' ').any(|candidate| candidate == mv),
            "{mv} is not among {legal}"
        );
        plies += 1;
        assert!(plies <= 130, "the game does not end");
    }
    let position = engine.ok("position");
    assert_eq!(engine.ok("final_score"), expected_final_score(&position));
    assert!(plies >= 9);
    engine.quit();
}

#[test]
fn a_small_board_game_at_fixed_depth_is_deterministic() {
    let play_out = || {
        let mut engine = Engine::start();
        engine.ok("set_game reversi size=6");
        engine.ok("set_option depth 3");
        engine.ok("set_option threads 1");
        let mut moves = Vec::new();
        while !engine.send("final_score").success {
            let side = engine.ok("side_to_move");
            moves.push(engine.ok(&format!("genmove {side}")));
        }
        let position = engine.ok("position");
        assert_eq!(engine.ok("final_score"), expected_final_score(&position));
        engine.quit();
        moves
    };
    assert_eq!(play_out(), play_out());
}

#[test]
fn stop_answers_a_long_search_at_once() {
    let mut engine = Engine::start();
    engine.ok("set_option movetime 0");
    engine.ok("set_option threads 2");
    let legal = engine.ok("legal_moves");
    let (reply, waited) = engine.stop_after(5, "genmove b", Duration::from_millis(300));
    assert!(waited < Duration::from_millis(500), "{waited:?}");
    assert!(reply.success);
    assert!(
        legal.split(' ').any(|mv| mv == reply.text),
        "{}",
        reply.text
    );
    // The engine is usable afterwards.
    assert_eq!(engine.ok("side_to_move"), "white");
    engine.quit();
}

#[test]
fn quit_during_a_search_exits() {
    let mut engine = Engine::start();
    engine.ok("set_option movetime 0");
    engine.send_raw(b"genmove b\n");
    std::thread::sleep(Duration::from_millis(200));
    engine.send_raw(b"quit\n");
    let genmove = engine.read_reply();
    assert!(genmove.success);
    let quit = engine.read_reply();
    assert!(quit.success);
    engine.wait_exit(Duration::from_secs(5));
}

#[test]
fn end_of_input_exits() {
    let mut engine = Engine::start();
    engine.ok("name");
    engine.close_input();
    engine.wait_exit(Duration::from_secs(5));
}

#[test]
fn piped_commands_before_quit_are_all_answered_in_full() {
    let mut engine = Engine::start();
    engine.send_raw(b"set_option depth 4\nset_option movetime 0\ngenmove b\ngenmove w\nquit\n");
    for _ in 0..2 {
        assert!(engine.read_reply().success);
    }
    let black = engine.read_reply();
    let white = engine.read_reply();
    assert!(black.success && white.success);
    assert!(engine.read_reply().success);
    engine.wait_exit(Duration::from_secs(5));
}

#[test]
fn time_left_keeps_genmove_well_within_budget() {
    let mut engine = Engine::start();
    engine.ok("time_settings 0 2 30");
    engine.ok("time_left b 2 30");
    engine.ok("set_option info stdout");
    let legal = engine.ok("legal_moves");
    let start = Instant::now();
    engine.send_raw(b"genmove b\n");
    let lines = engine.read_raw_reply();
    let elapsed = start.elapsed();
    let (reply, info) = lines.split_last().unwrap();
    let mv = reply.trim_start_matches("= ");
    assert!(
        legal.split(' ').any(|candidate| candidate == mv),
        "{lines:?}"
    );
    // 2 s for 30 moves is 66 ms a move: the search's own clock must stay within that share
    // (the budget is about half of it; the bound allows for a loaded machine's scheduling, and
    // still fails when the engine takes the whole 2 s as its budget)...
    let searched: u64 = info
        .last()
        .and_then(|line| line.split(" time ").nth(1))
        .and_then(|rest| rest.split(' ').next())
        .and_then(|millis| millis.parse().ok())
        .expect("an info line with the time");
    assert!(searched <= 500, "searched for {searched} ms");
    // ...and the whole reply, process and pipes included, well within the 2 s on the clock.
    assert!(elapsed < Duration::from_millis(500), "took {elapsed:?}");
    engine.ok("set_option info off");
    engine.error("time_left b x 30");
    engine.error("time_left purple 2 30");
    engine.error("time_settings 1 2");
    engine.quit();
}

#[test]
fn hint_and_analyze_rank_moves() {
    let mut engine = Engine::start();
    engine.ok("set_option depth 4");
    engine.ok("set_option threads 1");
    engine.ok("play b d3");
    let hint = engine.ok("hint 2");
    let lines: Vec<&str> = hint.lines().collect();
    assert_eq!(lines.len(), 2, "{hint}");
    assert!(lines[0].contains(" depth 4 pv "), "{hint}");
    let analysis = engine.ok("analyze");
    let lines: Vec<&str> = analysis.lines().collect();
    assert_eq!(lines.len(), 3, "every legal move: {analysis}");
    let scores: Vec<f64> = lines
        .iter()
        .map(|line| line.split(' ').nth(1).unwrap().parse().unwrap())
        .collect();
    assert!(
        scores.windows(2).all(|pair| pair[0] >= pair[1]),
        "{analysis}"
    );
    engine.error("hint 0");
    engine.error("analyze many");
    engine.quit();
}

#[test]
fn info_lines_can_go_to_the_protocol() {
    let mut engine = Engine::start();
    engine.ok("set_option info stdout");
    engine.ok("set_option depth 3");
    engine.send_raw(b"genmove b\n");
    let lines = engine.read_raw_reply();
    let (reply, info) = lines.split_last().unwrap();
    assert!(reply.starts_with("= "), "{lines:?}");
    assert_eq!(info.len(), 3, "one line per iteration: {lines:?}");
    for (depth, line) in info.iter().enumerate() {
        assert!(
            line.starts_with(&format!("info depth {} seldepth ", depth + 1))
                && line.contains(" score "),
            "{line}"
        );
        assert!(line.contains(" nodes ") && line.contains(" nps ") && line.contains(" pv "));
    }
    engine.ok("set_option info off");
    engine.send_raw(b"genmove w\n");
    assert_eq!(engine.read_raw_reply().len(), 1);
    engine.quit();
}

#[test]
fn bad_bytes_and_long_lines_get_errors_and_the_session_goes_on() {
    let mut engine = Engine::start();
    engine.send_raw(b"3 play b \xff\xfe\n");
    let reply = engine.read_reply();
    assert!(!reply.success);
    assert_eq!(reply.id.as_deref(), Some("3"));
    assert!(reply.text.contains("UTF-8"));
    let mut long = vec![b'a'; 70_000];
    long.push(b'\n');
    engine.send_raw(&long);
    let reply = engine.read_reply();
    assert!(!reply.success);
    assert!(reply.text.contains("too long"));
    engine.send_raw(b"# a comment\n\n   \n\t\nname # trailing comment\r\n");
    assert_eq!(engine.read_reply().text, "Tabula");
    engine.send_raw(b"na\x01me\n");
    assert_eq!(
        engine.read_reply().text,
        "Tabula",
        "control characters are dropped"
    );
    assert_eq!(engine.ok("perft 2"), "12", "state unchanged");
    engine.quit();
}

#[test]
fn command_line_help_and_version() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_tabula"))
        .arg("--version")
        .output()
        .unwrap();
    assert!(output.status.success());
    assert!(String::from_utf8_lossy(&output.stdout).contains(env!("CARGO_PKG_VERSION")));
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_tabula"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(output.status.success());
    assert!(String::from_utf8_lossy(&output.stdout).contains("perft"));
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["perft", "--game", "reversi", "--depth", "6"])
        .output()
        .unwrap();
    assert!(output.status.success());
    assert!(String::from_utf8_lossy(&output.stdout).contains("8200"));
}

#[test]
fn weights_is_an_option_of_the_game_and_a_bad_file_changes_nothing() {
    let mut engine = Engine::start();
    let options = engine.ok("list_options");
    assert!(
        options
            .lines()
            .any(|line| line.starts_with("weights a file")),
        "{options}"
    );
    assert_eq!(engine.ok("get_option weights"), "default");
    engine.ok("play d3");
    let missing = std::env::temp_dir().join("tabula-protocol-no-such-weights.bin");
    let missing = missing.to_str().unwrap();
    let error = engine.error(&format!("set_option weights {missing}"));
    assert!(
        error.contains(missing) && error.contains("cannot read"),
        "{error}"
    );
    let garbage = std::env::temp_dir().join(format!(
        "tabula-protocol-garbage-weights-{}.bin",
        std::process::id()
    ));
    std::fs::write(&garbage, "no weights here").unwrap();
    let garbage = garbage.to_str().unwrap();
    let error = engine.error(&format!("set_option weights {garbage}"));
    assert!(
        error.contains(garbage) && error.contains("is not a reversi weight file"),
        "{error}"
    );
    let error = engine.error(&format!("set_game gomoku weights={garbage}"));
    assert!(error.contains(garbage), "{error}");
    std::fs::remove_file(garbage).ok();
    // Nothing changed.
    assert_eq!(engine.ok("game"), "reversi size=8");
    assert_eq!(engine.ok("moves"), "d3");
    assert_eq!(engine.ok("get_option weights"), "default");
    // A good choice changes the weights, keeps the game and shows in `game`.
    engine.ok("set_option weights none");
    assert_eq!(engine.ok("get_option weights"), "none");
    assert_eq!(engine.ok("game"), "reversi size=8 weights=none");
    assert_eq!(engine.ok("moves"), "d3");
    engine.ok("clear_board");
    assert_eq!(engine.ok("get_option weights"), "none");
    engine.ok("set_game reversi");
    assert_eq!(engine.ok("get_option weights"), "default");
    engine.quit();
}
