//! CCP sessions replayed through the binary, in the form JumpStar's CCERL referee speaks it:
//! `ccp`, `isready`, `position cells ... player N ply N`, `go movetime N`, `quit`; bad input gets
//! `info string error ...` and the session goes on with the position unchanged.
//!
//! Holes are numbered from 0 here, as CCP numbers them; CCP's players 0 and 1 are Tabula's 1
//! and 2.

use crate::common;

use common::Engine;
use std::time::Duration;

/// The start position as CCP writes it: player 0 in the top camp (holes 0-9), player 1 in the
/// bottom camp (holes 111-120).
fn start_cells() -> String {
    format!("{}{}{}", "0".repeat(10), ".".repeat(101), "1".repeat(10))
}

/// Player 1's piece on hole 26 reaches hole 8 only by a chain that lands in its goal camp (hole
/// 6), leaves it (hole 28) and comes back: the `26-8` CCERL's referee forfeits.
const LEAVE_AND_RETURN: &str = "..............000.........1.................................\
                                0000000............................................111111111.";

/// A session speaking CCP, auto-detected from its first line.
struct Ccp {
    engine: Engine,
}

impl Ccp {
    fn start() -> Ccp {
        let mut engine = Engine::start();
        engine.send_raw(b"ccp\n");
        let mut session = Ccp { engine };
        let lines = session.read_until("ccpok");
        assert!(
            lines.iter().any(|line| line.starts_with("id name Tabula")),
            "{lines:?}"
        );
        session
    }

    fn send(&mut self, line: &str) {
        self.engine.send_raw(format!("{line}\n").as_bytes());
    }

    /// The lines up to and including the first that starts with `prefix`.
    fn read_until(&mut self, prefix: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.engine.read_line();
            let done = line.starts_with(prefix);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// Sends a line that must be refused: its one reply is an error.
    fn refused(&mut self, line: &str) -> String {
        self.send(line);
        let reply = self.engine.read_line();
        assert!(
            reply.starts_with("info string error "),
            "'{line}' gave '{reply}'"
        );
        // The session goes on and answers in order.
        self.send("isready");
        assert_eq!(self.engine.read_line(), "readyok", "after '{line}'");
        reply
    }

    fn ready(&mut self) {
        self.send("isready");
        assert_eq!(self.engine.read_line(), "readyok");
    }

    /// `go` with `arguments`; returns the info lines and the move.
    fn go(&mut self, arguments: &str) -> (Vec<String>, String) {
        self.send(&format!("go {arguments}"));
        let mut lines = self.read_until("bestmove ");
        let best = lines.pop().unwrap();
        (lines, best["bestmove ".len()..].to_string())
    }

    fn quit(mut self) {
        self.send("quit");
        self.engine.wait_exit(Duration::from_secs(10));
    }
}

/// Reads a path `a-b-c` of CCP holes.
fn path(text: &str) -> Vec<usize> {
    text.split('-')
        .map(|hole| {
            hole.parse()
                .unwrap_or_else(|_| panic!("'{text}' is not a path"))
        })
        .collect()
}

#[test]
fn a_referee_session() {
    let mut ccp = Ccp::start();
    ccp.ready();
    ccp.send(&format!("position cells {} player 0 ply 0", start_cells()));
    let (infos, best) = ccp.go("movetime 200");
    assert!(
        infos.iter().any(|line| line.starts_with("info depth ")),
        "{infos:?}"
    );
    assert!(infos.iter().any(|line| line.contains(" pv ")), "{infos:?}");
    let holes = path(&best);
    assert!(holes.len() >= 2 && holes[0] < 10, "{best}");
    // The other side, after that move.
    let mut cells: Vec<char> = start_cells().chars().collect();
    cells[holes[0]] = '.';
    cells[*holes.last().unwrap()] = '0';
    let cells: String = cells.into_iter().collect();
    ccp.send(&format!("position cells {cells} player 1 ply 1"));
    let (_, reply) = ccp.go("nodes 2000");
    let holes = path(&reply);
    assert!(holes[0] >= 111, "{reply}");
    ccp.send("position startpos moves 9-18 111-102");
    let (infos, best) = ccp.go("depth 2");
    assert!(
        infos.iter().any(|line| line.starts_with("info depth")),
        "{infos:?}"
    );
    assert!(path(&best)[0] < 20, "{best}");
    ccp.quit();
}

#[test]
fn paths_in_and_out() {
    let mut ccp = Ccp::start();
    // The full path is accepted, and so are its endpoints alone.
    ccp.send("position startpos moves 9-18 111-102 4-17-19");
    ccp.ready();
    ccp.send("position startpos moves 9-18 111-102 4-19");
    ccp.ready();
    // A path that is not a chain of hops is not.
    let error = ccp.refused("position startpos moves 9-18 111-102 4-18-19");
    assert!(error.contains("illegal move 4-18-19"), "{error}");
    // The engine's own moves are full paths: consecutive holes a step or a hop apart.
    ccp.send("position startpos moves 9-18 111-102 4-19 102-90");
    let (_, best) = ccp.go("movetime 100");
    let holes = path(&best);
    assert!(holes.len() >= 2, "{best}");
    ccp.send(&format!(
        "position startpos moves 9-18 111-102 4-19 102-90 {best}"
    ));
    ccp.ready();
    ccp.quit();
}

#[test]
fn strict_goal_lock_refuses_a_chain_that_leaves_the_goal() {
    let mut ccp = Ccp::start();
    ccp.send(&format!(
        "position cells {LEAVE_AND_RETURN} player 1 ply 80"
    ));
    ccp.ready();
    let error = ccp.refused(&format!(
        "position cells {LEAVE_AND_RETURN} player 1 ply 80 moves 26-6-28-8"
    ));
    assert!(error.contains("strict"), "{error}");
    let error = ccp.refused(&format!(
        "position cells {LEAVE_AND_RETURN} player 1 ply 80 moves 26-8"
    ));
    assert!(error.contains("illegal move 26-8"), "{error}");
    // The engine never plays it: its moves all keep the lock.
    for _ in 0..3 {
        ccp.send(&format!(
            "position cells {LEAVE_AND_RETURN} player 1 ply 80"
        ));
        let (_, best) = ccp.go("movetime 50");
        let holes = path(&best);
        let goal = |hole: usize| hole < 10;
        let first_in = holes.iter().position(|&hole| goal(hole));
        if let Some(first) = first_in {
            assert!(holes[first..].iter().all(|&hole| goal(hole)), "{best}");
        }
        assert_ne!(*holes.last().unwrap(), 8, "{best}");
    }
    ccp.quit();
}

#[test]
fn bad_input_is_answered_and_the_session_goes_on() {
    let mut ccp = Ccp::start();
    ccp.send("position startpos moves 9-18");
    ccp.ready();
    ccp.refused("fly");
    ccp.refused("position");
    ccp.refused("position sideways");
    ccp.refused("position cells");
    ccp.refused(&format!("position cells {} player 0", start_cells()));
    ccp.refused(&format!("position cells {} player 2 ply 0", start_cells()));
    ccp.refused(&format!("position cells {} player 0 ply -3", start_cells()));
    ccp.refused(&format!(
        "position cells {} player 0 ply 240",
        start_cells()
    ));
    let short = &start_cells()[1..];
    let error = ccp.refused(&format!("position cells {short} player 0 ply 0"));
    assert!(error.contains("121"), "{error}");
    let long = format!("{}.", start_cells());
    ccp.refused(&format!("position cells {long} player 0 ply 0"));
    let wrong = start_cells().replacen('0', "2", 1);
    ccp.refused(&format!("position cells {wrong} player 0 ply 0"));
    let missing = start_cells().replacen('0', ".", 1);
    ccp.refused(&format!("position cells {missing} player 0 ply 0"));
    ccp.refused("position startpos moves 9-30");
    ccp.refused("position startpos moves 9");
    ccp.refused("position startpos moves 9-x");
    ccp.refused("position startpos moves 200-201");
    ccp.refused("position startpos moves 111-100");
    ccp.refused("position startpos 9-20");
    ccp.refused("go movetime");
    ccp.refused("go movetime soon");
    ccp.refused("go movetime 0");
    ccp.refused("go depth 0");
    ccp.refused("go nodes -1");
    ccp.refused("go sideways 10");
    ccp.refused("setoption name Colour value blue");
    ccp.refused("setoption");
    // The position from before the bad lines is still there: player 1 (CCP) to move after 9-20.
    let (_, best) = ccp.go("depth 1");
    assert!(path(&best)[0] >= 111, "{best}");
    ccp.quit();
}

#[test]
fn the_equal_turn_and_the_ply_limit_end_the_game() {
    let mut ccp = Ccp::start();
    // Player 0 is home with all ten: the game is over (player 1 could follow: a draw).
    let mut cells = vec!['.'; 121];
    cells[111..121].fill('0');
    cells[..9].fill('1');
    cells[18] = '1';
    let cells: String = cells.into_iter().collect();
    let error = ccp.refused(&format!("position cells {cells} player 1 ply 90"));
    assert!(error.contains("over"), "{error}");
    // At ply 239 one move is left, and the engine still gives one.
    ccp.send(&format!(
        "position cells {} player 1 ply 239",
        start_cells()
    ));
    let (_, best) = ccp.go("movetime 50");
    assert!(path(&best)[0] >= 111, "{best}");
    ccp.quit();
}
