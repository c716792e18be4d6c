//! Gomoku through the protocol: the binary is spawned and driven over pipes (see `tests/common`).
//!
//! Results are checked against a reading of the final `position` string done here, from the rules
//! alone: who has five (exactly five under standard, and for black under renju), or a full board.

use crate::common;

use common::Engine;
use std::time::Duration;

/// A board read from a position string in the board form.
struct Board {
    size: usize,
    /// Rows from the top, `x`, `o` or `.`.
    rows: Vec<Vec<char>>,
    /// `x` or `o`.
    side: char,
}

impl Board {
    fn read(position: &str) -> Board {
        let (board, side) = position.split_once(' ').expect("board and side");
        let rows: Vec<Vec<char>> = board.split('/').map(|row| row.chars().collect()).collect();
        let size = rows.len();
        assert!(rows.iter().all(|row| row.len() == size), "{position}");
        Board {
            size,
            rows,
            side: side.chars().next().unwrap(),
        }
    }

    /// The point name of row `y` from the top and column `x`: `h8` style, rows counted from the bottom.
    fn name(&self, x: usize, y: usize) -> String {
        format!("{}{}", (b'a' + x as u8) as char, self.size - y)
    }

    fn at(&self, x: i32, y: i32) -> char {
        if x < 0 || y < 0 || x >= self.size as i32 || y >= self.size as i32 {
            return ' ';
        }
        self.rows[y as usize][x as usize]
    }

    fn empties(&self) -> Vec<String> {
        let mut points = Vec::new();
        for y in 0..self.size {
            for x in 0..self.size {
                if self.rows[y][x] == '.' {
                    points.push(self.name(x, y));
                }
            }
        }
        points
    }

    fn count(&self, stone: char) -> usize {
        self.rows.iter().flatten().filter(|&&c| c == stone).count()
    }

    /// The lengths of every maximal run of `stone` along the four directions.
    fn runs(&self, stone: char) -> Vec<usize> {
        let mut lengths = Vec::new();
        let size = self.size as i32;
        for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            for y in 0..size {
                for x in 0..size {
                    // Only from the first stone of a run.
                    if self.at(x, y) != stone || self.at(x - dx, y - dy) == stone {
                        continue;
                    }
                    let mut length = 0;
                    while self.at(x + dx * length, y + dy * length) == stone {
                        length += 1;
                    }
                    lengths.push(length as usize);
                }
            }
        }
        lengths
    }

    fn wins(&self, stone: char, rule: &str) -> bool {
        let exact = rule == "standard" || (rule == "renju" && stone == 'x');
        self.runs(stone)
            .into_iter()
            .any(|length| if exact { length == 5 } else { length >= 5 })
    }

    /// `final_score` as the rules give it, or `None` while the game goes on.
    fn result(&self, rule: &str) -> Option<String> {
        let black = self.wins('x', rule);
        let white = self.wins('o', rule);
        assert!(!(black && white), "both sides have five");
        if black {
            Some("B+".to_string())
        } else if white {
            Some("W+".to_string())
        } else if self.count('.') == 0 {
            Some("0".to_string())
        } else {
            None
        }
    }
}

fn list(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
}

/// Plays a whole game with `genmove` for each side in turn (black searching `black_depth` plies,
/// white `white_depth`), checking every reply against the legal moves and the result against the
/// final position. Returns the final score.
fn play_out(size: usize, rule: &str, black_depth: u32, white_depth: u32) -> String {
    let mut engine = Engine::start();
    engine.ok(&format!("set_game gomoku size={size} rule={rule}"));
    engine.ok("set_option threads 1");
    let mut plies = 0;
    let result = loop {
        let board = Board::read(&engine.ok("position"));
        let expected = board.result(rule);
        let score = engine.send("final_score");
        assert_eq!(
            score.success,
            expected.is_some(),
            "{size} {rule}: final_score '{}' after {plies} plies",
            score.text
        );
        if let Some(expected) = expected {
            assert_eq!(score.text, expected, "{size} {rule}");
            break expected;
        }
        let side = engine.ok("side_to_move");
        assert_eq!(side, if board.side == 'x' { "black" } else { "white" });
        // Every empty point but black's forbidden ones under renju.
        let legal = list(&engine.ok("legal_moves"));
        let forbidden = list(&engine.ok("forbidden_moves"));
        if rule != "renju" || side == "white" {
            assert!(forbidden.is_empty(), "{forbidden:?}");
        }
        let mut expected_legal = board.empties();
        expected_legal.retain(|point| !forbidden.contains(point));
        assert_eq!(legal, expected_legal, "{size} {rule} after {plies} plies");
        let depth = if side == "black" {
            black_depth
        } else {
            white_depth
        };
        engine.ok(&format!("set_option depth {depth}"));
        let mv = engine.ok(&format!("genmove {side}"));
        assert!(legal.contains(&mv), "{mv} is not among the legal moves");
        plies += 1;
        assert!(plies <= size * size, "the game does not end");
    };
    assert!(plies >= 9, "five takes at least nine plies");
    // A finished game refuses moves and lists none.
    assert!(engine.error("genmove").contains("over"));
    assert!(engine.error("play a1").contains("over"));
    assert_eq!(engine.ok("legal_moves"), "");
    assert_eq!(engine.ok("forbidden_moves"), "");
    engine.quit();
    result
}

#[test]
fn whole_games_under_each_rule_end_with_the_right_score() {
    // Unequal depths make decisive games; 9x9 at equal depths tends to fill up for a draw.
    let mut results = Vec::new();
    for rule in ["freestyle", "standard", "renju"] {
        for (black, white) in [(2, 2), (1, 3), (3, 1)] {
            results.push(play_out(15, rule, black, white));
        }
        results.push(play_out(9, rule, 2, 2));
    }
    assert!(
        results.iter().any(|result| result != "0"),
        "no game was won: {results:?}"
    );
}

/// Black h9 h10 i8 j8 against white a1 a3 a5 a7: h8 would make two open threes.
const DOUBLE_THREE: &str = "h9a1h10a3i8a5j8a7";
/// Black e8 f8 g8 and h5 h6 h7: h8 would make two fours.
const DOUBLE_FOUR: &str = "e8a1f8a3g8a5h5a7h6c1h7c3";
/// Black c8 d8 e8 g8 h8: f8 would make six in a row.
const OVERLINE: &str = "c8a1d8a3e8a5g8a7h8a9";

#[test]
fn renju_forbidden_points_are_listed_shown_and_refused() {
    let mut engine = Engine::start();
    engine.ok("set_game gomoku size=15 rule=renju");
    engine.ok("set_option depth 2");
    engine.ok("set_option threads 1");
    for (moves, point, reason) in [
        (DOUBLE_THREE, "h8", "double-three"),
        (DOUBLE_FOUR, "h8", "double-four"),
        (OVERLINE, "f8", "overline"),
    ] {
        engine.ok(&format!("setposition {moves}"));
        let before = engine.ok("position");
        assert_eq!(engine.ok("side_to_move"), "black");
        assert_eq!(engine.ok("forbidden_moves"), point, "{moves}");
        let legal = list(&engine.ok("legal_moves"));
        assert!(!legal.iter().any(|mv| mv == point), "{moves}");
        assert_eq!(
            legal.len() + 1,
            Board::read(&before).empties().len(),
            "every empty point but the forbidden one"
        );
        let refusal = engine.error(&format!("play black {point}"));
        assert_eq!(
            refusal,
            format!("illegal move {point}: forbidden for black: {reason}")
        );
        assert_eq!(
            engine.ok("position"),
            before,
            "a refused move changes nothing"
        );
        // The diagram marks the point with '#'.
        let diagram = engine.ok("showboard");
        assert!(diagram.contains('#'), "{diagram}");
        assert!(
            diagram.contains("# marks black's forbidden points"),
            "{diagram}"
        );
        // The engine never plays it, and white has no forbidden points.
        let mv = engine.ok("genmove black");
        assert!(legal.contains(&mv), "{mv}");
        assert_eq!(engine.ok("forbidden_moves"), "");
        assert!(!engine.ok("showboard").contains('#'));
    }
    // The same shapes are allowed under the other rules.
    for rule in ["freestyle", "standard"] {
        engine.ok(&format!("set_game gomoku rule={rule}"));
        engine.ok(&format!("setposition {DOUBLE_THREE}"));
        assert_eq!(engine.ok("forbidden_moves"), "");
        engine.ok("play black h8");
    }
    engine.quit();
}

#[test]
fn notation_positions_and_board_commands() {
    let mut engine = Engine::start();
    engine.ok("set_game gomoku size=15 rule=renju");
    assert_eq!(engine.ok("game"), "gomoku size=15 rule=renju");
    let empty = engine.ok("position");
    assert_eq!(empty, format!("{} x", vec![".".repeat(15); 15].join("/")));
    let legal = list(&engine.ok("legal_moves"));
    assert_eq!(legal.len(), 225);
    assert_eq!(
        (legal[0].as_str(), legal[224].as_str()),
        ("a15", "o1"),
        "board order from the top-left"
    );
    engine.ok("play black h8");
    assert_eq!(engine.ok("side_to_move"), "white");
    let board = Board::read(&engine.ok("position"));
    assert_eq!(board.rows[7][7], 'x', "h8 is the centre");
    assert_eq!(board.side, 'o');
    let legal = list(&engine.ok("legal_moves"));
    assert_eq!(legal.len(), 224);
    assert!(!legal.contains(&"h8".to_string()));
    let diagram = engine.ok("showboard");
    assert!(
        diagram.contains(" 8 . . . . . . .[X]. . . . . . . 8"),
        "{diagram}"
    );
    assert!(diagram.contains("white (O) to move; renju rule, 15x15, 1 stone; last move h8"));
    // genmove for the player not to move is refused and changes nothing.
    let before = engine.ok("position");
    assert_eq!(
        engine.error("genmove black"),
        "it is white's turn, not black's"
    );
    engine.ok("set_option depth 2");
    let suggestion = engine.ok("reg_genmove white");
    assert!(legal.contains(&suggestion));
    assert_eq!(engine.ok("position"), before, "reg_genmove does not play");
    engine.ok("undo");
    assert_eq!(engine.ok("position"), empty);
    assert_eq!(engine.error("undo"), "cannot undo: no move to take back");
    // Both position forms: moves in three spellings, then the board form, round trip.
    engine.ok("setposition h8 i9 j10");
    let after_moves = engine.ok("position");
    for spelling in ["h8i9j10", "H8,I9,J10", " h8, i9 j10"] {
        engine.ok("clear_board");
        engine.ok(&format!("setposition {spelling}"));
        assert_eq!(engine.ok("position"), after_moves, "{spelling}");
    }
    assert!(engine.ok("showboard").contains("last move j10"));
    let board = Board::read(&after_moves);
    assert_eq!(
        (
            board.rows[7][7],
            board.rows[6][8],
            board.rows[5][9],
            board.side
        ),
        ('x', 'o', 'x', 'o')
    );
    engine.ok("clear_board");
    engine.ok(&format!("setposition {after_moves}"));
    assert_eq!(engine.ok("position"), after_moves);
    assert!(
        !engine.ok("showboard").contains("last move"),
        "a board has no move order"
    );
    assert_eq!(engine.error("undo"), "cannot undo: no move to take back");
    let dashes = after_moves.replace('.', "-").replace(" o", " white");
    engine.ok("clear_board");
    engine.ok(&format!("setposition {}", dashes.to_uppercase()));
    assert_eq!(engine.ok("position"), after_moves);
    // boardsize keeps the rule; a 20x20 board runs a20..t1.
    engine.ok("boardsize 20");
    assert_eq!(engine.ok("game"), "gomoku size=20 rule=renju");
    let legal = list(&engine.ok("legal_moves"));
    assert_eq!(legal.len(), 400);
    assert_eq!((legal[0].as_str(), legal[399].as_str()), ("a20", "t1"));
    engine.ok("play t20");
    engine.ok("play a1");
    let board = Board::read(&engine.ok("position"));
    assert_eq!((board.rows[0][19], board.rows[19][0]), ('x', 'o'));
    assert_eq!(engine.ok("perft 2"), (398 * 397).to_string());
    engine.ok("boardsize 9");
    assert_eq!(engine.ok("game"), "gomoku size=9 rule=renju");
    assert_eq!(list(&engine.ok("legal_moves")).len(), 81);
    engine.quit();
}

#[test]
fn finished_games_report_the_result_and_refuse_moves() {
    let mut engine = Engine::start();
    engine.ok("set_game gomoku rule=renju");
    engine.ok("set_option depth 2");
    engine.ok("setposition h8a1i8c1j8e1k8g1");
    assert_eq!(engine.error("final_score"), "the game is not over");
    engine.ok("play black l8");
    assert_eq!(engine.ok("final_score"), "B+");
    let finished = engine.ok("position");
    for command in [
        "play white a2",
        "play black a2",
        "genmove white",
        "reg_genmove",
        "hint",
        "analyze",
    ] {
        assert!(engine.error(command).contains("over"), "{command}");
        assert_eq!(engine.ok("position"), finished, "{command}");
    }
    assert_eq!(engine.ok("legal_moves"), "");
    assert_eq!(engine.ok("legal_moves white"), "");
    assert_eq!(engine.ok("forbidden_moves"), "");
    assert!(engine.ok("showboard").contains("black wins"));
    // Undo takes the win back.
    engine.ok("undo");
    assert_eq!(engine.error("final_score"), "the game is not over");
    assert!(list(&engine.ok("legal_moves")).contains(&"l8".to_string()));
    // White's overline (c8..h8 with f8) wins under renju; a loaded board has its winner read again.
    engine.ok("setposition a1c8a3d8a5e8a7g8a9h8b2");
    engine.ok("play white f8");
    assert_eq!(engine.ok("final_score"), "W+");
    let white_won = engine.ok("position");
    engine.ok("clear_board");
    engine.ok(&format!("setposition {white_won}"));
    assert_eq!(engine.ok("final_score"), "W+");
    // Black's overline wins nothing under standard, and wins under freestyle.
    engine.ok("set_game gomoku rule=standard");
    engine.ok(&format!("setposition {OVERLINE}"));
    engine.ok("play black f8");
    assert_eq!(engine.error("final_score"), "the game is not over");
    engine.ok("set_game gomoku rule=freestyle");
    engine.ok(&format!("setposition {OVERLINE}"));
    engine.ok("play black f8");
    assert_eq!(engine.ok("final_score"), "B+");
    // A full board without five is a draw.
    engine.ok("set_game gomoku size=5");
    engine.ok("setposition xxxox/ooxxx/xxooo/xooxx/oooox o");
    assert_eq!(engine.ok("final_score"), "0");
    assert_eq!(engine.ok("legal_moves"), "");
    assert!(engine.ok("showboard").contains("draw"));
    engine.quit();
}

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let mut engine = Engine::start();
    engine.ok("set_game gomoku size=15 rule=renju");
    engine.ok(&format!("setposition {DOUBLE_THREE}"));
    let refusals = [
        ("play black p1", "malformed move 'p1'"),
        ("play black a16", "malformed move 'a16'"),
        ("play black a0", "malformed move"),
        ("play black h", "malformed move"),
        ("play black h9", "illegal move h9: the point is occupied"),
        ("play black h8", "forbidden for black: double-three"),
        ("play white b2", "it is black's turn, not white's"),
        ("play green b2", "unknown player 'green'"),
        ("play black b2 c2", "too many arguments"),
        ("play black pass", "malformed move 'pass'"),
        ("genmove white", "it is black's turn, not white's"),
        ("legal_moves purple", "unknown player"),
        ("legal_moves white", "it is black's turn, not white's"),
        (
            "setposition h8h8",
            "move 2 (h8) is illegal: the point is occupied",
        ),
        ("setposition h8z9", "invalid position"),
        (
            "setposition h9a1h10a3i8a5j8a7h8",
            "move 9 (h8) is illegal: forbidden for black: double-three",
        ),
        (
            "setposition h8a1i8c1j8e1k8g1l8m1",
            "move 10 (m1) is illegal: the game is over",
        ),
        ("setposition .../x..../... x", "expected 15 rows"),
        (
            "setposition x o",
            "expected a point of the 15x15 board at 'x o'",
        ),
        ("setposition x", "invalid position"),
        ("perft 21", "depth must be at most 20"),
        ("perft deep", "usage"),
        ("set_game gomoku rule=chess", "unknown gomoku rule 'chess'"),
        ("set_game gomoku size=4", "size must be from 5 to 22"),
        ("set_game gomoku size=23", "size must be from 5 to 22"),
        (
            "set_game gomoku size=x",
            "must be a whole number from 5 to 22",
        ),
        (
            "set_game gomoku colour=red",
            "unknown gomoku option 'colour'",
        ),
        ("set_game gomoku rule", "expected key=value"),
        ("set_game gomokuu", "unknown game"),
        ("boardsize 23", "size must be from 5 to 22"),
        ("boardsize 4", "size must be from 5 to 22"),
        ("boardsize x", "must be a number"),
    ];
    let board_errors = [
        // A row too short, a stranger, too many black stones, the wrong side to move, two winners,
        // and a winner to move.
        ("row 15 has 14 points", {
            let mut rows = vec![".".repeat(15); 15];
            rows[0].pop();
            format!("{} x", rows.join("/"))
        }),
        ("unexpected point 'z'", {
            let mut rows = vec![".".repeat(15); 15];
            rows[3] = format!("z{}", ".".repeat(14));
            format!("{} x", rows.join("/"))
        }),
        ("black has 2 stones and white 0", {
            let mut rows = vec![".".repeat(15); 15];
            rows[7] = format!("xx{}", ".".repeat(13));
            format!("{} o", rows.join("/"))
        }),
        ("it is white to move", {
            let mut rows = vec![".".repeat(15); 15];
            rows[7] = format!("x{}", ".".repeat(14));
            format!("{} x", rows.join("/"))
        }),
        ("both sides have a winning line", {
            let mut rows = vec![".".repeat(15); 15];
            rows[0] = format!("xxxxx{}", ".".repeat(10));
            rows[14] = format!("ooooo{}", ".".repeat(10));
            format!("{} x", rows.join("/"))
        }),
        ("black has a winning line but did not make the last move", {
            let mut rows = vec![".".repeat(15); 15];
            rows[0] = format!("xxxxx{}", ".".repeat(10));
            rows[14] = format!("oooo.o{}", ".".repeat(9));
            format!("{} x", rows.join("/"))
        }),
        ("unknown side to move 'y'", {
            let rows = vec![".".repeat(15); 15];
            format!("{} y", rows.join("/"))
        }),
    ];
    let mut commands: Vec<(String, String)> = refusals
        .iter()
        .map(|(command, message)| (command.to_string(), message.to_string()))
        .collect();
    commands.extend(
        board_errors
            .iter()
            .map(|(message, board)| (format!("setposition {board}"), message.to_string())),
    );
    let before = (engine.ok("position"), engine.ok("game"));
    for (command, message) in &commands {
        let reply = engine.error(command);
        assert!(
            reply.contains(message.as_str()),
            "'{command}': '{reply}' lacks '{message}'"
        );
        assert_eq!(
            (engine.ok("position"), engine.ok("game")),
            before,
            "'{command}' changed the state"
        );
    }
    // The session goes on: the same position still plays.
    engine.ok("play black g8");
    engine.quit();
}

#[test]
fn games_aliases_and_the_game_command() {
    let mut engine = Engine::start();
    assert_eq!(engine.ok("list_games"), "reversi\ngomoku\nchinese-checkers");
    for (name, expected) in [
        ("gomoku", "gomoku size=15 rule=freestyle"),
        ("GOMOKU", "gomoku size=15 rule=freestyle"),
        ("gobang", "gomoku size=15 rule=freestyle"),
        ("five-in-a-row", "gomoku size=15 rule=freestyle"),
        ("renju", "gomoku size=15 rule=renju"),
        ("Renju size=19", "gomoku size=19 rule=renju"),
        ("renju rule=standard", "gomoku size=15 rule=standard"),
        ("gomoku rule=exact5 size=20", "gomoku size=20 rule=standard"),
        ("gomoku rule=RENJU", "gomoku size=15 rule=renju"),
    ] {
        engine.ok(&format!("set_game {name}"));
        assert_eq!(engine.ok("game"), expected, "set_game {name}");
        // What `game` prints is what set_game takes.
        engine.ok(&format!("set_game {expected}"));
        assert_eq!(engine.ok("game"), expected);
    }
    engine.quit();
}

#[test]
fn perft_counts_and_stops_at_once() {
    let mut engine = Engine::start();
    engine.ok("set_game gomoku");
    assert_eq!(engine.ok("perft 1"), "225");
    assert_eq!(engine.ok("perft 3"), "11239200");
    let divide = engine.ok("perft 2 divide");
    assert!(divide.lines().any(|line| line == "h8 224"), "{divide}");
    assert!(divide.ends_with("total 50400"), "{divide}");
    // Forbidden points are not counted (the crowded position of the unit tests).
    engine.ok("set_game gomoku rule=renju");
    engine.ok("setposition h8i9h9h7g8i8i7g9j8k9f8e8g7f6");
    assert_eq!(engine.ok("perft 1"), "211");
    assert_eq!(engine.ok("perft 2"), "44310");
    // Depth 6 is hundreds of trillions of leaves: stop ends it.
    engine.ok("clear_board");
    let (reply, waited) = engine.stop_after(11, "perft 6", Duration::from_millis(200));
    assert!(waited < Duration::from_secs(1), "{waited:?}");
    assert!(!reply.success);
    assert!(reply.text.contains("stopped"), "{}", reply.text);
    let (reply, _) = engine.stop_after(13, "perft 6 divide", Duration::from_millis(100));
    assert!(!reply.success);
    assert_eq!(engine.ok("perft 2"), "50400", "the session goes on");
    engine.quit();
}

#[test]
fn solve_reports_a_proven_win_with_its_line_or_unknown() {
    let mut engine = Engine::start();
    engine.ok("set_game gomoku");
    // Black's four h7 (white must take h6) makes the open three f7 g7 h7.
    engine.ok("setposition h8 a1 h9 c1 h10 h11 f7 e1 g7 g1");
    let reply = engine.ok("solve");
    assert!(reply.starts_with("h7 win@5 pv h7 h6 "), "{reply}");
    assert_eq!(reply.split_whitespace().count(), 8, "{reply}");
    // Nothing to prove on a quiet board, for either side.
    engine.ok("setposition h8 i9");
    assert_eq!(engine.ok("solve"), "unknown");
    engine.ok("setposition h8 i9 a1");
    assert_eq!(engine.ok("solve"), "unknown");
    engine.quit();
}
