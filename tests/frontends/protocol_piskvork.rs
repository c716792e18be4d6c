//! The Gomocup/Piskvork front-end driven over pipes, in the exact form managers send: `START`,
//! `INFO` lines, `BEGIN`/`TURN`/`BOARD`, `TAKEBACK`, `RESTART`, `END`, lines ended by CR LF.
//!
//! Positions are written here in Gomocup coordinates (`x,y` from the top-left); the expected
//! answers follow from the rules alone (a five to complete, a four to block, a forbidden point).

use crate::common;

use common::Engine;
use std::time::{Duration, Instant};

/// A brain speaking Piskvork, set up as c-gomoku-cli sets one up: `START`, then the game's `INFO`.
fn brain(size: usize, rule: u32, turn_milliseconds: u64) -> Engine {
    let mut engine = Engine::start_with(&["--protocol", "piskvork"]);
    assert_eq!(engine.piskvork(&format!("START {size}")), "OK");
    engine.piskvork_silent(&[
        &format!("INFO rule {rule}"),
        &format!("INFO timeout_turn {turn_milliseconds}"),
        "INFO timeout_match 0",
        "INFO max_memory 367001600",
        "INFO thread_num 1",
        "INFO time_left 2147483647",
    ]);
    engine
}

/// Reads `x,y` on a `size`x`size` board.
fn point(reply: &str, size: usize) -> (usize, usize) {
    let (x, y) = reply
        .split_once(',')
        .unwrap_or_else(|| panic!("a move x,y, not '{reply}'"));
    let (x, y): (usize, usize) = (x.parse().unwrap(), y.parse().unwrap());
    assert!(x < size && y < size, "{reply} is off the board");
    (x, y)
}

/// A `BOARD` (or `YXBOARD`) block: own stones get field 1, the opponent's 2, in the order given
/// (own first, then the opponent's, alternately from the colour that moved first).
fn board_lines(command: &str, own: &[(usize, usize)], opponent: &[(usize, usize)]) -> String {
    // Black moved first: the side with more stones, or the side to move when even.
    let (first, second, first_field, second_field) = if opponent.len() > own.len() {
        (opponent, own, 2, 1)
    } else {
        (own, opponent, 1, 2)
    };
    let mut text = format!("{command}\r\n");
    for (index, &(x, y)) in first.iter().enumerate() {
        text.push_str(&format!("{x},{y},{first_field}\r\n"));
        if let Some(&(x, y)) = second.get(index) {
            text.push_str(&format!("{x},{y},{second_field}\r\n"));
        }
    }
    text.push_str("DONE\r\n");
    text
}

fn send_board(engine: &mut Engine, own: &[(usize, usize)], opponent: &[(usize, usize)]) -> String {
    engine.send_raw(board_lines("BOARD", own, opponent).as_bytes());
    engine.read_piskvork().1
}

const FOUR: [(usize, usize); 4] = [(3, 7), (4, 7), (5, 7), (6, 7)];

#[test]
fn a_whole_game_as_a_manager_plays_it() {
    let size = 15;
    let mut engine = brain(size, 0, 300);
    let mut occupied = Vec::new();
    let first = point(&engine.piskvork("BEGIN"), size);
    occupied.push(first);
    // The opponent plays; each answer is a free point, within the turn time.
    for step in 0..6 {
        let opponent = (0..size)
            .flat_map(|y| (0..size).map(move |x| (x, y)))
            .find(|candidate| !occupied.contains(candidate) && (candidate.0 + step) % 3 == 0)
            .unwrap();
        occupied.push(opponent);
        let start = Instant::now();
        engine.send_raw(format!("TURN {},{}\r\n", opponent.0, opponent.1).as_bytes());
        let (messages, reply) = engine.read_piskvork();
        // The search keeps within the turn, and the reply comes within the 1 s that Piskvork
        // tolerates beyond it, on a loaded machine too.
        if !messages.is_empty() {
            assert!(searched_milliseconds(&messages) < 300, "{messages:?}");
        }
        assert!(
            start.elapsed() < Duration::from_millis(1300),
            "{:?}",
            start.elapsed()
        );
        let answer = point(&reply, size);
        assert!(!occupied.contains(&answer), "{reply} is occupied");
        occupied.push(answer);
    }
    // Takebacks go back move by move: the brain's move, then the opponent's.
    let brain_move = occupied.pop().unwrap();
    let opponent_move = *occupied.last().unwrap();
    let refused = engine.piskvork(&format!("TAKEBACK {},{}", opponent_move.0, opponent_move.1));
    assert!(refused.starts_with("ERROR"), "not the last move: {refused}");
    assert_eq!(
        engine.piskvork(&format!("TAKEBACK {},{}", brain_move.0, brain_move.1)),
        "OK"
    );
    let opponent_move = occupied.pop().unwrap();
    assert_eq!(
        engine.piskvork(&format!("TAKEBACK {},{}", opponent_move.0, opponent_move.1)),
        "OK"
    );
    let reply = engine.piskvork(&format!("TURN {},{}", opponent_move.0, opponent_move.1));
    assert!(!occupied.contains(&point(&reply, size)));
    // A new game on the same board.
    assert_eq!(engine.piskvork("RESTART"), "OK");
    point(&engine.piskvork("BEGIN"), size);
    engine.send_raw(b"END\r\n");
    engine.wait_exit(Duration::from_secs(5));
}

#[test]
fn an_immediate_win_is_taken_under_every_rule() {
    let others = [(2, 7), (10, 10), (11, 3), (12, 12)];
    for rule in [0, 1, 4] {
        // The brain is black (as many stones as the opponent) with four in a row.
        let mut engine = brain(15, rule, 1000);
        assert_eq!(
            send_board(&mut engine, &FOUR, &others),
            "7,7",
            "rule {rule}"
        );
        // The brain is white (one stone fewer).
        let mut engine = brain(15, rule, 1000);
        let black = [(2, 7), (10, 10), (11, 3), (12, 12), (13, 1)];
        assert_eq!(send_board(&mut engine, &FOUR, &black), "7,7", "rule {rule}");
    }
}

#[test]
fn a_four_is_blocked_under_every_rule() {
    for rule in [0, 1, 4] {
        // White to move against black's four, blocked on one side.
        let mut engine = brain(15, rule, 1000);
        assert_eq!(
            send_board(&mut engine, &[(2, 7), (10, 10), (12, 3)], &FOUR),
            "7,7",
            "rule {rule}"
        );
        // Black to move against white's four.
        let mut engine = brain(15, rule, 1000);
        assert_eq!(
            send_board(&mut engine, &[(2, 7), (10, 10), (12, 3), (0, 14)], &FOUR),
            "7,7",
            "rule {rule}"
        );
    }
}

#[test]
fn renju_forbidden_points_are_shown_and_never_played() {
    // Black to move: 8,7 would make two open threes.
    let black = [(6, 7), (7, 7), (8, 6), (8, 5)];
    let white = [(0, 0), (2, 0), (4, 0), (14, 14)];
    let mut engine = brain(15, 4, 1000);
    engine.send_raw(board_lines("YXBOARD", &black, &white).as_bytes());
    assert_eq!(engine.piskvork("YXSHOWFORBID"), "FORBID 0807.");
    // Freestyle has no forbidden points, and neither has white.
    let mut engine = brain(15, 0, 1000);
    engine.send_raw(board_lines("YXBOARD", &black, &white).as_bytes());
    assert_eq!(engine.piskvork("YXSHOWFORBID"), "FORBID .");
    let mut engine = brain(15, 4, 1000);
    let white_to_move = [(0, 0), (2, 0), (4, 0)];
    engine.send_raw(board_lines("YXBOARD", &white_to_move, &black).as_bytes());
    assert_eq!(engine.piskvork("YXSHOWFORBID"), "FORBID .");

    // Black to move with 1..3 and 5..6 on a row: 4,7 makes six.
    let black = [(1, 7), (2, 7), (3, 7), (5, 7), (6, 7)];
    let white = [(10, 0), (12, 0), (14, 2), (14, 5), (0, 14)];
    // Freestyle: six in a row wins.
    let mut engine = brain(15, 0, 1000);
    assert_eq!(send_board(&mut engine, &black, &white), "4,7");
    // Renju: the overline is forbidden for black, shown and not played.
    let mut engine = brain(15, 4, 1000);
    engine.send_raw(board_lines("YXBOARD", &black, &white).as_bytes());
    let forbidden = engine.piskvork("YXSHOWFORBID");
    assert!(
        forbidden.starts_with("FORBID ") && forbidden.ends_with('.'),
        "{forbidden}"
    );
    let points = &forbidden["FORBID ".len()..forbidden.len() - 1];
    assert_eq!(points.len() % 4, 0, "{forbidden}");
    let points: Vec<&str> = (0..points.len() / 4)
        .map(|index| &points[index * 4..index * 4 + 4])
        .collect();
    assert!(points.contains(&"0407"), "{forbidden}");
    let reply = send_board(&mut engine, &black, &white);
    assert_ne!(reply, "4,7");
    let played = point(&reply, 15);
    assert!(
        !points.contains(&format!("{:02}{:02}", played.0, played.1).as_str()),
        "{reply} is forbidden"
    );
    // The opponent may not play it either: with black to move, TURN plays for black.
    let mut engine = brain(15, 4, 1000);
    engine.send_raw(board_lines("YXBOARD", &black, &white).as_bytes());
    let refused = engine.piskvork("TURN 4,7");
    assert!(
        refused.starts_with("ERROR") && refused.contains("forbidden"),
        "{refused}"
    );
    point(&engine.piskvork("TURN 9,9"), 15);
}

#[test]
fn yxstop_stops_a_search_and_the_next_search_runs_to_full_depth() {
    let mut engine = brain(15, 0, 0);
    // timeout_turn 0 without a match limit: the search runs until stopped.
    engine.send_raw(b"TURN 7,7\r\n");
    std::thread::sleep(Duration::from_millis(400));
    let start = Instant::now();
    engine.send_raw(b"YXSTOP\r\n");
    let (_, reply) = engine.read_piskvork();
    assert!(
        start.elapsed() < Duration::from_millis(500),
        "{:?}",
        start.elapsed()
    );
    point(&reply, 15);
    // The stop is spent: a later search with a depth limit reaches that depth.
    engine.piskvork_silent(&["INFO max_depth 4"]);
    engine.send_raw(b"TURN 0,0\r\n");
    let (messages, reply) = engine.read_piskvork();
    point(&reply, 15);
    let depths: Vec<u32> = messages
        .iter()
        .filter_map(|line| line.strip_prefix("MESSAGE depth "))
        .map(|rest| rest.split('-').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(depths.last(), Some(&4), "{messages:?}");
    // END during a search without limits ends it and the brain exits.
    engine.piskvork_silent(&["INFO max_depth 0"]);
    engine.send_raw(b"TURN 0,1\r\n");
    std::thread::sleep(Duration::from_millis(200));
    engine.send_raw(b"END\r\n");
    engine.wait_exit(Duration::from_secs(5));
}

#[test]
fn message_lines_carry_the_search() {
    let mut engine = brain(15, 0, 500);
    engine.send_raw(b"TURN 7,7\r\n");
    let (messages, reply) = engine.read_piskvork();
    point(&reply, 15);
    assert!(!messages.is_empty());
    for message in &messages {
        let words: Vec<&str> = message.split(' ').collect();
        assert_eq!(
            [words[1], words[3], words[5], words[7], words[9], words[11]],
            ["depth", "score", "nodes", "nps", "time", "pv"],
            "{message}"
        );
        // The principal variation is in x,y coordinates.
        assert!(
            words[12..].iter().all(|mv| mv.split(',').count() == 2),
            "{message}"
        );
    }
    // The last iteration's first move is the move played.
    assert_eq!(
        messages.last().unwrap().split(' ').nth(12),
        Some(reply.as_str())
    );
}

/// The search time of the last `MESSAGE` line.
fn searched_milliseconds(messages: &[String]) -> u64 {
    messages
        .iter()
        .rev()
        .find_map(|line| line.split(" time ").nth(1))
        .and_then(|rest| rest.split(' ').next())
        .and_then(|milliseconds| milliseconds.parse().ok())
        .unwrap_or_else(|| panic!("a MESSAGE line with the time: {messages:?}"))
}

/// The first of a few points near the centre that no move in `taken` holds: the opponent's next
/// move must not land on a point the engine chose (which depends on how far its search got).
fn free_point(taken: &[(usize, usize)]) -> (usize, usize) {
    [(9, 9), (10, 10), (5, 9), (9, 5), (4, 4)]
        .into_iter()
        .find(|point| !taken.contains(point))
        .expect("five points cannot all be taken by four moves")
}

#[test]
fn a_turn_counts_from_the_first_line_of_its_command() {
    // The manager's clock runs from the moment it starts sending `BOARD`: time spent before the
    // search (here, a block that arrives slowly; in matches, setting up the board) is the
    // move's. Counted from the search's start instead, this reply would take about 1.9 s.
    let mut engine = brain(15, 0, 2000);
    engine.send_raw(b"BOARD\r\n");
    std::thread::sleep(Duration::from_millis(1500));
    let start = Instant::now();
    engine.send_raw(b"7,7,2\r\n8,8,1\r\nDONE\r\n");
    let (_, reply) = engine.read_piskvork();
    let answer = point(&reply, 15);
    assert!(answer != (7, 7) && answer != (8, 8), "{reply} is occupied");
    assert!(
        start.elapsed() < Duration::from_millis(1000),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn the_time_limits_are_kept() {
    // A match clock nearly out: the search keeps to a share of the time left (at most a quarter),
    // and the reply comes, process and pipes included, well before the time runs out.
    let mut engine = brain(15, 0, 5000);
    engine.piskvork_silent(&["INFO timeout_match 60000", "INFO time_left 1500"]);
    let start = Instant::now();
    engine.send_raw(b"TURN 7,7\r\n");
    let (messages, reply) = engine.read_piskvork();
    let mut taken = vec![(7, 7), point(&reply, 15)];
    assert!(searched_milliseconds(&messages) <= 375, "{messages:?}");
    assert!(
        start.elapsed() < Duration::from_millis(1500),
        "{:?}",
        start.elapsed()
    );
    // Time running out (even below zero) still gives a move at once.
    engine.piskvork_silent(&["INFO time_left -20"]);
    let start = Instant::now();
    let second = free_point(&taken);
    engine.send_raw(format!("TURN {},{}\r\n", second.0, second.1).as_bytes());
    let (messages, reply) = engine.read_piskvork();
    taken.extend([second, point(&reply, 15)]);
    assert!(searched_milliseconds(&messages) <= 50, "{messages:?}");
    assert!(
        start.elapsed() < Duration::from_millis(1000),
        "{:?}",
        start.elapsed()
    );
    // A turn limit holds without a match limit.
    engine.piskvork_silent(&["INFO timeout_match 0", "INFO timeout_turn 300"]);
    let third = free_point(&taken);
    engine.send_raw(format!("TURN {},{}\r\n", third.0, third.1).as_bytes());
    let (messages, reply) = engine.read_piskvork();
    point(&reply, 15);
    assert!(searched_milliseconds(&messages) < 300, "{messages:?}");
}

#[test]
fn bad_input_gets_error_or_unknown_and_the_game_goes_on() {
    let mut engine = Engine::start_with(&["--protocol", "piskvork"]);
    // Out of order: nothing before START.
    for line in ["BEGIN", "TURN 7,7", "BOARD", "TAKEBACK 7,7", "RESTART"] {
        let reply = engine.piskvork(line);
        assert!(reply.starts_with("ERROR"), "{line}: {reply}");
    }
    for line in [
        "START",
        "START x",
        "START 4",
        "START 23",
        "RECTSTART 20,15",
        "RECTSTART 20",
    ] {
        let reply = engine.piskvork(line);
        assert!(reply.starts_with("ERROR"), "{line}: {reply}");
    }
    assert_eq!(engine.piskvork("RECTSTART 20,20"), "OK");
    engine.piskvork_silent(&["INFO timeout_turn 200", "INFO thread_num 1"]);
    let first = engine.piskvork("TURN 10,10");
    let (x, y) = point(&first, 20);
    for line in [
        "TURN 10,10".to_string(),
        format!("TURN {x},{y}"),
        "TURN 20,3".to_string(),
        "TURN -1,3".to_string(),
        "TURN 3".to_string(),
        "TURN a,b".to_string(),
        "TURN".to_string(),
        "BEGIN".to_string(),
        "DONE".to_string(),
        "3,3,1".to_string(),
        "TAKEBACK 10,10".to_string(),
        "INFO timeout_turn soon".to_string(),
        "INFO rule 8".to_string(),
        "INFO rule 2".to_string(),
        "YXNBEST 0".to_string(),
    ] {
        let reply = engine.piskvork(&line);
        assert!(reply.starts_with("ERROR"), "{line}: {reply}");
    }
    // An unplayable rule refuses moves until a playable one comes.
    assert!(engine.piskvork("TURN 0,0").starts_with("ERROR"));
    engine.piskvork_silent(&["INFO rule 1"]);
    for line in ["FOO", "SUGGEST 1,1", "YXSOMETHING"] {
        assert!(engine.piskvork(line).starts_with("UNKNOWN"), "{line}");
    }
    // A board block with a bad line is refused whole; a block cut short by a command too.
    engine.send_raw(b"BOARD\r\n1,1,1\r\n1,1,2\r\nDONE\r\n");
    assert!(engine.read_piskvork().1.starts_with("ERROR"));
    engine.send_raw(b"BOARD\r\n1,1,5\r\nDONE\r\n");
    assert!(engine.read_piskvork().1.starts_with("ERROR"));
    engine.send_raw(b"BOARD\r\n1,1,3\r\nDONE\r\n");
    assert!(engine.read_piskvork().1.contains("continuous"));
    engine.send_raw(b"BOARD\r\n1,1,1\r\nABOUT\r\n");
    assert!(engine.read_piskvork().1.starts_with("ERROR"));
    assert!(engine.read_piskvork().1.starts_with("name=\"Tabula\""));
    // SWAP2BOARD is read to its DONE and answered once.
    engine.send_raw(b"SWAP2BOARD\r\n7,7\r\n8,7\r\n9,9\r\nDONE\r\n");
    assert!(engine.read_piskvork().1.starts_with("UNKNOWN"));
    // The game is as it was: the brain's move can be taken back, then the opponent's.
    assert_eq!(engine.piskvork(&format!("TAKEBACK {x},{y}")), "OK");
    assert_eq!(engine.piskvork("TAKEBACK 10,10"), "OK");
    assert!(engine.piskvork("TAKEBACK 10,10").starts_with("ERROR"));
    point(&engine.piskvork("BEGIN"), 20);
    engine.send_raw(b"END\r\n");
    engine.wait_exit(Duration::from_secs(5));
}

#[test]
fn yxnbest_ranks_moves_and_plays_the_best() {
    let mut engine = brain(15, 0, 500);
    engine.send_raw(b"YXBOARD 7,7,2 DONE\r\nYXNBEST 3\r\n");
    let (messages, reply) = engine.read_piskvork();
    let ranked: Vec<&str> = messages
        .iter()
        .filter_map(|line| line.strip_prefix("MESSAGE nbest "))
        .map(|rest| rest.split(' ').nth(1).unwrap())
        .collect();
    assert_eq!(ranked.len(), 3, "{messages:?}");
    assert_eq!(ranked[0], reply);
    assert!(ranked[1] != ranked[0] && ranked[2] != ranked[1] && ranked[2] != ranked[0]);
    assert_eq!(engine.piskvork(&format!("TAKEBACK {reply}")), "OK");
}

#[test]
fn the_first_line_or_the_program_name_chooses_piskvork() {
    let mut engine = Engine::start();
    assert!(engine
        .piskvork("ABOUT")
        .starts_with("name=\"Tabula\", version=\""));
    assert_eq!(engine.piskvork("START 15"), "OK");
    let mut engine = Engine::start();
    engine.piskvork_silent(&["INFO timeout_turn 200"]);
    assert_eq!(engine.piskvork("START 20"), "OK");
    point(&engine.piskvork("BEGIN"), 20);

    // A brain named pbrain-*, as Gomocup managers want it, speaks Piskvork from its first line.
    let directory = std::env::temp_dir().join(format!("tabula-pbrain-{}", std::process::id()));
    std::fs::create_dir_all(&directory).unwrap();
    let link = directory.join("pbrain-tabula");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_tabula"), &link).unwrap();
    let mut engine = Engine::start_program(&link, &[]);
    // Not a Piskvork opener, yet answered in Piskvork's form.
    assert!(engine.piskvork("BEGIN").starts_with("ERROR"));
    assert_eq!(engine.piskvork("START 15"), "OK");
    engine.send_raw(b"END\r\n");
    engine.wait_exit(Duration::from_secs(5));
    // Under another name the same line is GTP.
    let mut engine = Engine::start();
    assert!(!engine.send("BEGIN").success);
    std::fs::remove_dir_all(&directory).unwrap();
}

/// The example session of `protocol.md` replays: every fixed reply is the documented one. Where
/// the brain searched, its move may differ from the documented one: it is taken back and the
/// documented move played instead (`PLAY`), so that the rest of the session stays as written.
#[test]
fn the_documented_session_replays() {
    let text = include_str!("../../protocol.md");
    let start = text
        .find("### Example Piskvork session")
        .expect("protocol.md has a Piskvork session");
    let mut exchanges: Vec<(String, Vec<String>)> = Vec::new();
    for line in text[start..].lines().skip(1) {
        if line.starts_with('#') {
            break;
        }
        if let Some(command) = line.strip_prefix("    > ") {
            exchanges.push((command.to_string(), Vec::new()));
        } else if let (Some(reply), Some(last)) = (line.strip_prefix("    "), exchanges.last_mut())
        {
            last.1.push(reply.to_string());
        }
    }
    assert!(exchanges.len() > 20);
    let mut engine = Engine::start();
    let mut block = None;
    for (command, documented) in &exchanges {
        let word = command.split(' ').next().unwrap().to_ascii_uppercase();
        engine.send_raw(format!("{command}\r\n").as_bytes());
        let replies: Vec<&String> = documented
            .iter()
            .filter(|line| !line.starts_with("MESSAGE"))
            .collect();
        assert!(replies.len() <= 1, "{command}: {documented:?}");
        let searched = match word.as_str() {
            "BOARD" | "YXBOARD" | "SWAP2BOARD" => {
                block = Some(word.clone());
                false
            }
            "DONE" => block.take().as_deref() == Some("BOARD"),
            _ => ["BEGIN", "TURN", "YXNBEST"].contains(&word.as_str()),
        };
        let Some(&expected) = replies.first() else {
            continue;
        };
        let (messages, reply) = engine.read_piskvork();
        if searched && reply.contains(',') && &reply != expected {
            point(&reply, 15);
            assert!(!messages.is_empty(), "{command}: no MESSAGE lines");
            assert_eq!(engine.piskvork(&format!("TAKEBACK {reply}")), "OK");
            assert_eq!(&engine.piskvork(&format!("PLAY {expected}")), expected);
        } else {
            assert_eq!(&reply, expected, "{command}");
        }
    }
    engine.wait_exit(Duration::from_secs(5));
}

#[test]
fn end_during_a_timed_search_exits_at_once() {
    // A 10 s turn: END must not wait for it.
    let mut engine = brain(15, 0, 10_000);
    engine.send_raw(b"TURN 7,7\r\n");
    std::thread::sleep(Duration::from_millis(300));
    let start = Instant::now();
    engine.send_raw(b"END\r\n");
    engine.wait_exit(Duration::from_secs(5));
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
}
