//! Chinese Checkers through the protocol: the binary is spawned and driven over pipes (see
//! `tests/common`).
//!
//! Whole games are followed from the `position` strings alone with a small star model written
//! here: who has filled their goal camp and when, the move cap, third repetitions, and the
//! distance ranking of a game cut short. `final_score` must agree with it.

use crate::common;
use crate::star;

use common::Engine;
use star::{camp, holes};
use std::collections::HashMap;
use std::time::Duration;

/// Rows from a hole to the tip of camp `goal`, along the axis through that camp.
fn distance((q, r, s): (i32, i32, i32), goal: usize) -> i32 {
    match goal {
        1 => r + 8,
        2 => 8 - q,
        3 => s + 8,
        4 => 8 - r,
        5 => q + 8,
        _ => 8 - s,
    }
}

fn start_camps(players: usize) -> &'static [usize] {
    match players {
        2 => &[1, 4],
        3 => &[1, 3, 5],
        4 => &[1, 2, 4, 5],
        _ => &[1, 2, 3, 4, 5, 6],
    }
}

fn goal_camp(players: usize, seat: usize) -> usize {
    (start_camps(players)[seat] + 2) % 6 + 1
}

/// Holes (1-based) of a camp.
fn camp_holes(camp_number: usize) -> Vec<usize> {
    holes()
        .into_iter()
        .enumerate()
        .filter(|&(_, hole)| camp(hole) == camp_number)
        .map(|(index, _)| index + 1)
        .collect()
}

/// The documented default of `spoil_after`.
const SPOIL_AFTER: usize = 30;

/// A position string read back: cells by hole (0 empty, else player number), the player to move,
/// the finished players in order and the turns each player has taken (`turns=`; without it, all).
struct Position {
    cells: Vec<usize>,
    side: usize,
    finished: Vec<usize>,
    turns: Option<Vec<usize>>,
}

impl Position {
    fn read(text: &str) -> Position {
        let fields: Vec<&str> = text.split(' ').collect();
        assert!((2..=4).contains(&fields.len()), "{text}");
        let cells: Vec<usize> = fields[0]
            .chars()
            .map(|c| c.to_digit(10).map_or(0, |digit| digit as usize))
            .collect();
        assert_eq!(cells.len(), 121, "{text}");
        let list = |prefix: &str| -> Option<Vec<usize>> {
            fields[2..].iter().find_map(|field| {
                field.strip_prefix(prefix).map(|items| {
                    items
                        .split(',')
                        .map(|number| number.parse().unwrap())
                        .collect()
                })
            })
        };
        Position {
            cells,
            side: fields[1].parse().unwrap(),
            finished: list("finished=").unwrap_or_default(),
            turns: list("turns="),
        }
    }

    /// Whether `player`'s goal camp is full and holds one of its pieces, where another player's
    /// piece counts once that player has finished (as in `done`) or taken its turns.
    fn goal_reached(&self, players: usize, player: usize, done: &[usize]) -> bool {
        let goal = camp_holes(goal_camp(players, player - 1));
        let counts = |owner: usize| {
            owner == player
                || done.contains(&owner)
                || self
                    .turns
                    .as_ref()
                    .is_none_or(|turns| turns[owner - 1] >= SPOIL_AFTER)
        };
        goal.iter()
            .all(|&hole| self.cells[hole - 1] != 0 && counts(self.cells[hole - 1]))
            && goal.iter().any(|&hole| self.cells[hole - 1] == player)
    }

    fn distance(&self, players: usize, player: usize) -> i32 {
        let goal = goal_camp(players, player - 1);
        holes()
            .into_iter()
            .enumerate()
            .filter(|&(index, _)| self.cells[index] == player)
            .map(|(_, hole)| distance(hole, goal))
            .sum()
    }
}

/// `final_score` from the finishing order and, for the players still on, their distances.
fn expected_score(players: usize, finished: &[usize], last: &Position) -> String {
    let place = |player: usize| -> usize {
        if let Some(index) = finished.iter().position(|&done| done == player) {
            return index + 1;
        }
        let mine = last.distance(players, player);
        let ahead = (1..=players)
            .filter(|other| !finished.contains(other))
            .filter(|&other| last.distance(players, other) < mine)
            .count();
        finished.len() + 1 + ahead
    };
    if players == 2 {
        return match (place(1), place(2)) {
            (1, 2) => "1".to_string(),
            (2, 1) => "2".to_string(),
            _ => "0".to_string(),
        };
    }
    (1..=players)
        .map(|player| format!("{player}:{}", place(player)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// How a followed game ended.
#[derive(Debug, PartialEq, Eq)]
enum End {
    /// All players but one finished.
    Finished,
    /// The move cap.
    Cap,
    /// A position occurred for the third time.
    Repetition,
}

/// Plays a whole game with `genmove` for each player in turn at a fixed depth, following it from
/// the position strings; returns how it ended and the final score.
fn play_out(options: &str, depth: u32) -> (End, String) {
    let mut engine = Engine::start();
    engine.ok(&format!("set_game chinese-checkers {options}"));
    let game = engine.ok("game");
    let value = |key: &str| -> usize {
        game.split(' ')
            .find_map(|word| word.strip_prefix(&format!("{key}=")))
            .unwrap()
            .parse()
            .unwrap()
    };
    let (players, max_moves) = (value("players"), value("max_moves"));
    engine.ok("set_option threads 1");
    engine.ok(&format!("set_option depth {depth}"));
    let mut finished: Vec<usize> = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut plies = 0;
    let mut text = engine.ok("position");
    seen.insert(text.clone(), 1);
    let end = loop {
        let position = Position::read(&text);
        assert_eq!(position.finished, finished, "{options}: finishing order");
        let end = if finished.len() + 1 >= players {
            Some(End::Finished)
        } else if seen[&text] >= 3 {
            Some(End::Repetition)
        } else if plies >= max_moves {
            Some(End::Cap)
        } else {
            None
        };
        let score = engine.send("final_score");
        assert_eq!(
            score.success,
            end.is_some(),
            "{options}: final_score '{}' after {plies} plies",
            score.text
        );
        if let Some(end) = end {
            assert_eq!(
                score.text,
                expected_score(players, &finished, &position),
                "{options}, {end:?} after {plies} plies: {text}"
            );
            break end;
        }
        let side = engine.ok("side_to_move");
        assert_eq!(side, position.side.to_string());
        assert!(
            !finished.contains(&position.side),
            "a finished player moves"
        );
        let legal = engine.ok("legal_moves");
        let mv = engine.ok(&format!("genmove {side}"));
        assert!(
            legal.split(' ').any(|candidate| candidate == mv),
            "{mv} is not among {legal}"
        );
        plies += 1;
        text = engine.ok("position");
        let after = Position::read(&text);
        // Players finishing on the same turn are placed in player order.
        let mut now: Vec<usize> = Vec::new();
        while let Some(player) = (1..=players).find(|player| {
            let done: Vec<usize> = finished.iter().chain(&now).copied().collect();
            !done.contains(player) && after.goal_reached(players, *player, &done)
        }) {
            now.push(player);
        }
        now.sort_unstable();
        finished.extend(now);
        *seen.entry(text.clone()).or_insert(0) += 1;
    };
    // A finished game refuses moves and lists none.
    assert!(engine.error("genmove").contains("over"));
    assert_eq!(engine.ok("legal_moves"), "");
    let final_score = engine.ok("final_score");
    let board = engine.ok("showboard");
    assert!(
        board.contains("game over, ") && board.contains("; places "),
        "{board}"
    );
    engine.quit();
    (end, final_score)
}

#[test]
fn two_player_games_are_played_to_a_real_finish() {
    for options in ["players=2", "players=2 jumps=long"] {
        let (end, score) = play_out(options, 3);
        assert_eq!(end, End::Finished, "{options}: {score}");
        assert!(score == "1" || score == "2", "{options}: {score}");
    }
    // Cut short, the smaller distance wins; at depth 2 the game tends to end in repetitions.
    let (end, _) = play_out("players=2 max_moves=40", 2);
    assert_eq!(end, End::Cap);
    play_out("players=2", 2);
}

#[test]
fn multi_player_games_end_with_the_right_ranking() {
    // Three players with long jumps finish for real; the larger tables are cut short by the cap
    // (or a repetition), where the distances decide the places.
    let (end, score) = play_out("players=3 jumps=long", 3);
    assert_eq!(end, End::Finished, "{score}");
    let mut ends = Vec::new();
    for options in [
        "players=3 max_moves=90",
        "players=4 max_moves=80",
        "players=6 max_moves=120",
        "players=6 jumps=long max_moves=150",
    ] {
        ends.push(play_out(options, 2));
    }
    assert!(
        ends.iter().any(|(end, _)| *end == End::Cap),
        "no game reached its cap: {ends:?}"
    );
}

/// A position string from each player's holes (1-based), players numbered from 1.
fn board(pieces: &[&[usize]], side: usize) -> String {
    let mut cells = vec!['.'; 121];
    for (seat, holes) in pieces.iter().enumerate() {
        assert_eq!(holes.len(), 10);
        for &hole in *holes {
            assert_eq!(cells[hole - 1], '.', "hole {hole} twice");
            cells[hole - 1] = char::from(b'1' + seat as u8);
        }
    }
    format!("{} {side}", cells.into_iter().collect::<String>())
}

const CAMP_1: [usize; 10] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
const CAMP_2: [usize; 10] = [20, 21, 22, 23, 33, 34, 35, 45, 46, 56];

/// Three players; player 1, to move, is shut in its start camp: holes 15..19 around it and
/// 27..32 behind them are taken, so it has no step and no hop and must pass.
fn player_one_shut_in() -> String {
    board(
        &[
            &CAMP_1,
            &[15, 16, 17, 18, 19, 27, 75, 85, 86, 96],
            &[28, 29, 30, 31, 32, 66, 76, 77, 87, 88],
        ],
        1,
    )
}

/// Six players; players 1 and 2 are shut in their start camps, so player 3 moves after two
/// forced passes.
fn players_one_and_two_shut_in() -> String {
    board(
        &[
            &CAMP_1,
            &CAMP_2,
            &[15, 16, 17, 18, 19, 75, 85, 86, 96, 97],
            &[27, 28, 29, 30, 31, 112, 113, 114, 115, 116],
            &[32, 43, 44, 54, 66, 76, 77, 87, 88, 89],
            &[55, 64, 65, 74, 11, 12, 13, 14, 24, 25],
        ],
        1,
    )
}

#[test]
fn camps_match_the_documented_numbering() {
    assert_eq!(camp_holes(1), CAMP_1);
    assert_eq!(camp_holes(2), CAMP_2);
    assert_eq!(camp_holes(3), [75, 85, 86, 96, 97, 98, 108, 109, 110, 111]);
    assert_eq!(camp_holes(4), (112..=121).collect::<Vec<_>>());
    assert_eq!(camp_holes(5), [66, 76, 77, 87, 88, 89, 99, 100, 101, 102]);
    assert_eq!(camp_holes(6), [11, 12, 13, 14, 24, 25, 26, 36, 37, 47]);
}

#[test]
fn notation_moves_and_board_commands() {
    let mut engine = Engine::start();
    engine.ok("set_game chinese-checkers");
    assert_eq!(
        engine.ok("game"),
        "chinese-checkers players=2 jumps=standard max_moves=1000"
    );
    assert_eq!(engine.ok("side_to_move"), "1");
    assert_eq!(
        engine.ok("legal_moves"),
        "4-15 4-17 5-16 5-18 6-17 6-19 7-15 7-16 8-16 8-17 9-17 9-18 10-18 10-19"
    );
    assert_eq!(engine.ok("legal_moves 1"), engine.ok("legal_moves black"));
    assert_eq!(engine.ok("forbidden_moves"), "");
    let start = engine.ok("position");
    // A hop: 5 over 9 to 18.
    engine.ok("play 1 5-18");
    let after = Position::read(&engine.ok("position"));
    assert_eq!((after.cells[4], after.cells[17], after.side), (0, 1, 2));
    assert_eq!(
        engine.error("play 1 9-17"),
        "it is player 2's turn, not player 1's"
    );
    assert_eq!(
        engine.error("legal_moves 1"),
        "it is player 2's turn, not player 1's"
    );
    engine.ok("undo");
    assert_eq!(engine.ok("position"), start);
    // A chain of two hops, 4 over 8 to 17 and over 18 to 19, written as a path or from-to.
    engine.ok("play 1 10-18");
    engine.ok("play white 112-103");
    let before = engine.ok("position");
    engine.ok("play 1 4-17-19");
    let chained = engine.ok("position");
    let cells = Position::read(&chained).cells;
    assert_eq!((cells[3], cells[16], cells[18]), (0, 0, 1));
    engine.ok("undo");
    assert_eq!(engine.ok("position"), before);
    engine.ok("play 1 4-19");
    assert_eq!(engine.ok("position"), chained, "a path is its from-to move");
    engine.ok("undo");
    let refusals = [
        (
            "play 1 4-17-30",
            "illegal move 4-17-30: the path is not a chain of legal hops",
        ),
        (
            "play 1 4-17-4",
            "illegal move 4-17-4: the path is not a chain of legal hops",
        ),
        (
            "play 1 8-19",
            "illegal move 8-19: hole 19 cannot be reached from hole 8 by a step or a chain of hops",
        ),
        ("play 1 60-61", "illegal move 60-61: hole 60 is empty"),
        (
            "play 1 103-92",
            "illegal move 103-92: hole 103 holds a piece of player 2, not of player 1",
        ),
        ("play 1 1-3", "illegal move 1-3: hole 3 is occupied"),
        (
            "play 1 pass",
            "illegal move pass: a pass is only legal when no other move is",
        ),
        ("play 1 5-122", "malformed move '5-122'"),
        ("play 1 0-5", "malformed move '0-5'"),
        ("play 1 5", "malformed move '5'"),
        (
            "play 1 1-1",
            "illegal move 1-1: a move must end on another hole than the one it starts from",
        ),
        ("play 2 113-104", "it is player 1's turn, not player 2's"),
        ("genmove 2", "it is player 1's turn, not player 2's"),
        (
            "boardsize 10",
            "unacceptable size: chinese-checkers has a fixed board",
        ),
    ];
    for (command, message) in refusals {
        assert_eq!(engine.error(command), message, "{command}");
        assert_eq!(engine.ok("position"), before, "{command}");
    }
    let diagram = engine.ok("showboard");
    assert!(
        diagram.contains("player 1 camp 1 -> 4, player 2 camp 4 -> 1"),
        "{diagram}"
    );
    assert!(
        diagram.contains("player 1 to move, ply 2 of at most 1000"),
        "{diagram}"
    );
    assert!(
        diagram.contains("  1              1              1"),
        "{diagram}"
    );
    // Round trip through setposition; the ply count and the history start again.
    engine.ok("clear_board");
    assert_eq!(engine.ok("position"), start);
    engine.ok(&format!("setposition {before}"));
    assert_eq!(engine.ok("position"), before);
    assert!(engine
        .ok("showboard")
        .contains("player 1 to move, ply 0 of at most 1000"));
    assert_eq!(engine.error("undo"), "cannot undo: no move to take back");
    engine.quit();
}

#[test]
fn forced_passes_and_legal_moves_of_other_players() {
    let mut engine = Engine::start();
    engine.ok("set_option depth 2");
    engine.ok("set_option threads 1");
    engine.ok("set_game chinese-checkers players=3");
    // The side to move may list moves; another player only after forced passes.
    assert_eq!(
        engine.error("legal_moves 2"),
        "it is player 1's turn, not player 2's"
    );
    let shut_in = player_one_shut_in();
    engine.ok(&format!("setposition {shut_in}"));
    assert_eq!(engine.ok("legal_moves"), "pass");
    assert_eq!(engine.ok("legal_moves 1"), "pass");
    assert!(engine.error("play 1 7-15").contains("hole 15 is occupied"));
    assert_eq!(
        engine.error("legal_moves 3"),
        "it is player 1's turn, not player 3's"
    );
    // Player 2 moves after player 1's pass, which play and genmove imply.
    let second = engine.ok("legal_moves 2");
    assert!(!second.is_empty() && second != "pass");
    for mv in second.split(' ') {
        engine.ok(&format!("play 2 {mv}"));
        assert_eq!(engine.ok("side_to_move"), "3");
        engine.ok("undo");
        assert_eq!(engine.ok("position"), shut_in, "undo takes back the pass");
    }
    assert!(engine
        .error("play 2 pass")
        .contains("a pass is only legal when no other move is"));
    assert_eq!(engine.ok("position"), shut_in);
    let mv = engine.ok("genmove 2");
    assert!(second.split(' ').any(|candidate| candidate == mv));
    engine.ok("undo");
    assert_eq!(engine.ok("genmove 1"), "pass");
    assert_eq!(engine.ok("side_to_move"), "2");
    assert_eq!(engine.ok("legal_moves"), second);
    // Two forced passes in a row: player 3 moves next.
    engine.ok("set_game chinese-checkers players=6");
    let shut_in = players_one_and_two_shut_in();
    engine.ok(&format!("setposition {shut_in}"));
    assert_eq!(engine.ok("legal_moves"), "pass");
    assert_eq!(engine.ok("legal_moves 2"), "pass");
    let third = engine.ok("legal_moves 3");
    assert!(!third.is_empty() && third != "pass");
    for mv in third.split(' ') {
        engine.ok(&format!("play 3 {mv}"));
        assert_eq!(engine.ok("side_to_move"), "4");
        engine.ok("undo");
        assert_eq!(
            engine.ok("position"),
            shut_in,
            "undo takes back both passes"
        );
    }
    assert_eq!(
        engine.error("legal_moves 4"),
        "it is player 1's turn, not player 4's"
    );
    engine.quit();
}

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let mut engine = Engine::start();
    engine.ok("set_game chinese-checkers players=3");
    engine.ok("play 1 5-18");
    let good = engine.ok("position");
    let board_part = good.split(' ').next().unwrap().to_string();
    let with = |hole: usize, cell: char| {
        let mut cells: Vec<char> = board_part.chars().collect();
        cells[hole - 1] = cell;
        cells.into_iter().collect::<String>()
    };
    let refusals = [
        (
            "play 1 9-17".to_string(),
            "it is player 2's turn, not player 1's",
        ),
        ("play 4 109-107".to_string(), "unknown player '4'"),
        ("play black 109-107".to_string(), "unknown player 'black'"),
        ("play 2 109-200".to_string(), "malformed move '109-200'"),
        ("play 2 109--107".to_string(), "malformed move"),
        ("play 2 1.5-6".to_string(), "malformed move"),
        ("play 2 60-61".to_string(), "hole 60 is empty"),
        (
            "play 2 1-2".to_string(),
            "hole 1 holds a piece of player 1, not of player 2",
        ),
        ("play 2 109-98".to_string(), "hole 98 is occupied"),
        ("play 2 109-60".to_string(), "cannot be reached"),
        (
            "play 2 109-107-105".to_string(),
            "the path is not a chain of legal hops",
        ),
        (
            "play 2 pass".to_string(),
            "a pass is only legal when no other move is",
        ),
        (
            "genmove 3".to_string(),
            "it is player 2's turn, not player 3's",
        ),
        (
            "legal_moves 3".to_string(),
            "it is player 2's turn, not player 3's",
        ),
        ("legal_moves 7".to_string(), "unknown player '7'"),
        (
            "setposition 111 2".to_string(),
            "expected 121 holes, found 3",
        ),
        (
            format!("setposition {} 2", with(60, 'x')),
            "unexpected character 'x'",
        ),
        (
            format!("setposition {} 2", with(60, '4')),
            "there are 3 players",
        ),
        (
            format!("setposition {} 2", with(1, '.')),
            "player 1 has 9 pieces instead of 10",
        ),
        (
            format!("setposition {board_part} 4"),
            "unknown player to move '4'",
        ),
        (
            format!("setposition {board_part} 0"),
            "unknown player to move '0'",
        ),
        (
            format!("setposition {board_part}"),
            "missing the player to move",
        ),
        (
            format!("setposition {board_part} 2 finished=1,1"),
            "listed twice",
        ),
        (
            format!("setposition {board_part} 2 finished=1,3,2"),
            "too many finished players",
        ),
        (
            format!("setposition {board_part} 2 done=1"),
            "expected finished=",
        ),
        (
            format!("setposition {board_part} 1 finished=1"),
            "player 1 has finished",
        ),
        (
            format!("setposition {board_part} 2 finished=1 more"),
            "unexpected 'more' (expected finished=... or turns=...)",
        ),
        (
            format!("setposition {board_part} 2 finished=1 turns=1,1,1 more"),
            "extra text",
        ),
        (
            "set_game chinese-checkers players=5".to_string(),
            "players must be 1, 2, 3, 4 or 6, not '5'",
        ),
        (
            "set_game chinese-checkers players=0".to_string(),
            "players must be 1, 2, 3, 4 or 6",
        ),
        (
            format!("setposition {board_part} 1 finished=2"),
            "player 2 is listed as finished, but none of its pieces is in its goal camp",
        ),
        (
            format!("setposition {board_part} 2 turns=1,1"),
            "turns= needs one count per player (3), found 2",
        ),
        (
            format!("setposition {board_part} 2 turns=1,1,31"),
            "turns are counted up to spoil_after (30), not 31",
        ),
        (
            "set_game chinese-checkers goal_lock=maybe".to_string(),
            "goal_lock must be on, off or strict",
        ),
        (
            "set_game chinese-checkers side_camps=closed".to_string(),
            "side_camps must be open or no-stop",
        ),
        (
            "set_game chinese-checkers finish=most".to_string(),
            "finish must be fill or all",
        ),
        (
            "set_game chinese-checkers spoil_after=201".to_string(),
            "spoil_after must be from 0 to 200, not 201",
        ),
        (
            "set_game chinese-checkers finish=all spoil_after=5".to_string(),
            "spoil_after applies to finish=fill only",
        ),
        (
            "set_game chinese-checkers jumps=far".to_string(),
            "jumps must be standard or long",
        ),
        (
            "set_game chinese-checkers max_moves=0".to_string(),
            "max_moves must be",
        ),
        (
            "set_game chinese-checkers max_moves=x".to_string(),
            "max_moves must be",
        ),
        (
            "set_game chinese-checkers players=3 players=4".to_string(),
            "players given twice",
        ),
        (
            "set_game chinese-checkers size=9".to_string(),
            "unknown chinese-checkers option 'size'",
        ),
        (
            "boardsize 10".to_string(),
            "unacceptable size: chinese-checkers has a fixed board",
        ),
        ("solve".to_string(), "chinese-checkers has no exact solver"),
        ("time_left 4 10 0".to_string(), "unknown player '4'"),
        ("perft 21".to_string(), "depth must be at most 20"),
    ];
    let before = (engine.ok("position"), engine.ok("game"));
    for (command, message) in &refusals {
        let reply = engine.error(command);
        assert!(
            reply.contains(message),
            "'{command}': '{reply}' lacks '{message}'"
        );
        assert_eq!(
            (engine.ok("position"), engine.ok("game")),
            before,
            "'{command}' changed the state"
        );
    }
    engine.ok("play 2 109-107");
    engine.quit();
}

#[test]
fn aliases_game_output_and_perft() {
    let mut engine = Engine::start();
    for name in [
        "chinese-checkers",
        "Chinese-Checkers",
        "chinese_checkers",
        "chinesecheckers",
        "halma",
        "sternhalma",
    ] {
        engine.ok(&format!("set_game {name}"));
        assert_eq!(
            engine.ok("game"),
            "chinese-checkers players=2 jumps=standard max_moves=1000",
            "{name}"
        );
    }
    engine.ok("set_game chinese-checkers players=6 jumps=LONG max_moves=300");
    let game = engine.ok("game");
    assert_eq!(game, "chinese-checkers players=6 jumps=long max_moves=300");
    engine.ok(&format!("set_game {game}"));
    assert_eq!(engine.ok("game"), game);
    // The published two-player counts.
    engine.ok("set_game chinese-checkers");
    assert_eq!(engine.ok("perft 3"), "4760");
    assert_eq!(engine.ok("perft 4"), "115600");
    let divide = engine.ok("perft 2 divide");
    assert!(divide.lines().any(|line| line == "5-18 14"), "{divide}");
    assert!(divide.ends_with("total 196"), "{divide}");
    engine.ok("set_game chinese-checkers jumps=long");
    assert_eq!(engine.ok("perft 3"), "5348");
    // Depth 9 would take hours: stop ends it.
    let (reply, waited) = engine.stop_after(4, "perft 9", Duration::from_millis(200));
    assert!(waited < Duration::from_secs(1), "{waited:?}");
    assert!(
        !reply.success && reply.text.contains("stopped"),
        "{reply:?}"
    );
    assert_eq!(engine.ok("perft 1"), "14");
    engine.quit();
}

#[test]
fn a_finished_list_must_match_the_position() {
    // Issue 8: `setposition <start> 1 finished=2` was accepted and ended the game with `2`.
    let mut engine = Engine::start();
    engine.ok("set_game chinese-checkers");
    let start = engine.ok("position");
    let board = start.split(' ').next().unwrap();
    let reply = engine.error(&format!("setposition {board} 1 finished=2"));
    assert!(
        reply
            .contains("player 2 is listed as finished, but none of its pieces is in its goal camp"),
        "{reply}"
    );
    assert_eq!(engine.ok("position"), start);
    assert!(engine.error("final_score").contains("not over"));
    // finish=all asks for all ten pieces.
    engine.ok("set_game chinese-checkers players=3 finish=all");
    let board = engine.ok("position");
    let board = board.split(' ').next().unwrap();
    let reply = engine.error(&format!("setposition {board} 2 finished=1"));
    assert!(reply.contains("not all of its pieces"), "{reply}");
    engine.quit();
}

#[test]
fn house_rules_and_solitaire_through_the_protocol() {
    let mut engine = Engine::start();
    engine.ok("set_game chinese-checkers players=1 goal_lock=off side_camps=no-stop finish=all");
    assert_eq!(
        engine.ok("game"),
        "chinese-checkers players=1 jumps=standard max_moves=1000 goal_lock=off \
         side_camps=no-stop finish=all"
    );
    engine.ok("set_game chinese-checkers spoil_after=12");
    assert_eq!(
        engine.ok("game"),
        "chinese-checkers players=2 jumps=standard max_moves=1000 spoil_after=12"
    );
    assert!(engine.ok("position").ends_with(" 1 turns=0,0"));
    // Solitaire: one piece short of the goal, then the crossing is complete.
    engine.ok("set_game chinese-checkers players=1");
    assert_eq!(engine.ok("perft 1"), "14");
    let mut cells = vec!['.'; 121];
    for hole in 113..=121 {
        cells[hole - 1] = '1';
    }
    cells[104 - 1] = '1';
    let board: String = cells.into_iter().collect();
    engine.ok(&format!("setposition {board} 1"));
    assert!(engine.error("final_score").contains("not over"));
    assert_eq!(engine.ok("genmove 1"), "104-112");
    assert_eq!(engine.ok("final_score"), "1");
    // The diagram names the winner, not a player to move.
    let board = engine.ok("showboard");
    assert!(
        board.contains("game over, player 1 wins; places 1:1"),
        "{board}"
    );
    assert!(!board.contains("to move"), "{board}");
    engine.quit();
}

/// Three players, player 3 finished. Player 2 has nine pieces in its goal (camp 6) and finishes
/// next by hopping 49-47 over player 1's piece on 48, unless player 1, to move, takes that piece
/// away. Player 1's other pieces have hops forward that gain more rows than any move of 48.
fn player_two_threatens_to_finish() -> String {
    let mut text = board(
        &[
            &[48, 60, 61, 62, 63, 64, 70, 71, 72, 73],
            &[11, 12, 13, 14, 24, 25, 26, 36, 37, 49],
            &CAMP_2,
        ],
        1,
    );
    text.push_str(" finished=3");
    text
}

#[test]
fn the_search_sees_an_opponent_about_to_finish() {
    let mut engine = Engine::start();
    engine.ok("set_game chinese-checkers players=3");
    engine.ok("set_option threads 1");
    let finishing = |moves: &str| moves.split_whitespace().any(|mv| mv == "49-47");
    // Depth 1 sees only player 1's own move, and the greedy player (level 1) only rows gained:
    // both leave the hop open, so the position does test the search.
    for setup in ["set_option depth 1", "set_option level 1"] {
        engine.ok(&format!("setposition {}", player_two_threatens_to_finish()));
        engine.ok(setup);
        let mv = engine.ok("genmove 1");
        assert_ne!(mv, "48-58", "{setup}");
        assert!(finishing(&engine.ok("legal_moves 2")), "{setup}: {mv}");
        engine.ok("set_option level 8");
    }
    // Best-reply search (the default with three players) sees player 2's reply from depth 2.
    for depth in 2..=4 {
        engine.ok(&format!("setposition {}", player_two_threatens_to_finish()));
        engine.ok(&format!("set_option depth {depth}"));
        let mv = engine.ok("genmove 1");
        let replies = engine.ok("legal_moves 2");
        assert!(!finishing(&replies), "depth {depth}: {mv} leaves {replies}");
    }
    engine.quit();
}
