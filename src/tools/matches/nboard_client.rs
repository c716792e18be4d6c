//! The NBoard side of a match: Othello engines with an NBoard mode (Edax `-nboard`, Tabula
//! `--protocol nboard`, NTest).
//!
//! The protocol keeps no clock: an engine plays at the strength its `set` options give it
//! (`option.depth=N` goes out as `set depth N`), and the referee holds it to the match's time
//! control all the same. A game goes out whole as a GGF record (`set game`), the other side's
//! moves as `move F5`, and `go` asks for a move, which the engine names in a `=== F5/eval/time`
//! line without playing it: the client then plays it with `move`, as a GUI does. Nothing in
//! NBoard has an error reply, so after each set-up the client sends `ping N` and waits for its
//! `pong N`, which tells a live engine from a dead or stuck one.

use super::client::{Client, Fault, GameSetup, MoveRequest, PlayedMove};
use super::process::Process;
use super::records::Termination;
use super::spec::EngineSpec;
use crate::tools::interrupt::Interrupt;
use std::time::{Duration, Instant};

/// An engine spoken to in NBoard.
pub struct NboardClient {
    process: Process,
    spec: EngineSpec,
    interrupt: Interrupt,
    pings: u64,
    ready: bool,
}

/// A move as NBoard writes it: `F5`, or `PA` for a pass.
fn nboard_move(mv: &str) -> String {
    if mv.eq_ignore_ascii_case("pass") {
        "PA".to_string()
    } else {
        mv.to_ascii_uppercase()
    }
}

/// A move as the referee reads it, from an NBoard move (`F5`, `f5`, `PA`).
fn our_move(mv: &str) -> String {
    if mv.eq_ignore_ascii_case("pa") {
        "pass".to_string()
    } else {
        mv.to_ascii_lowercase()
    }
}

/// The move of a `===` line's rest: `F5/1.5/0.3` (NBoard 2) or `f5 0.00 0.0` (Edax).
fn named_move(rest: &str) -> String {
    our_move(
        rest.split(|c: char| c == '/' || c.is_whitespace())
            .next()
            .unwrap_or(""),
    )
}

/// The 8x8 Othello start position as a position string.
const START: &str = "---------------------------OX------XO--------------------------- X";

/// The GGF record of a game's set-up: its start position (`X` black, `O` white in our position
/// strings; `*` and `O` in GGF) and the opening's moves.
pub fn ggf_record(setup: &GameSetup) -> Result<String, Fault> {
    let position = setup.position.as_deref().unwrap_or(START);
    let (board, side) = position.split_once(' ').unwrap_or((position, "X"));
    let malformed = || {
        Fault::new(
            Termination::ProtocolError,
            format!("the position '{position}' is not an 8x8 Othello position"),
        )
    };
    if board.chars().count() != 64 {
        return Err(malformed());
    }
    let to_ggf = |square: char| match square {
        'X' | 'x' | '*' | 'B' | 'b' => Ok('*'),
        'O' | 'o' | 'W' | 'w' => Ok('O'),
        '-' | '.' => Ok('-'),
        _ => Err(malformed()),
    };
    let board: String = board.chars().map(to_ggf).collect::<Result<_, _>>()?;
    let side = to_ggf(side.trim().chars().next().unwrap_or('X'))?;
    let mut record = format!("(;GM[Othello]PC[tabula-match]TY[8]BO[8 {board} {side}]");
    for played in &setup.opening {
        let colour = if played.seat == 0 { 'B' } else { 'W' };
        record.push_str(&format!("{colour}[{}]", nboard_move(&played.mv)));
    }
    record.push_str(";)");
    Ok(record)
}

impl NboardClient {
    /// A client for a started engine.
    pub fn new(process: Process, spec: &EngineSpec, interrupt: Interrupt) -> NboardClient {
        NboardClient {
            process,
            spec: spec.clone(),
            interrupt,
            pings: 0,
            ready: false,
        }
    }

    fn send(&mut self, command: &str) -> Result<(), Fault> {
        self.process
            .send(command)
            .map_err(|error| Fault::of_write(&error, command))
    }

    /// Sends `command`, then a ping, and waits for the pong within the engine's timeout.
    fn settled(&mut self, command: &str) -> Result<(), Fault> {
        self.send(command)?;
        self.pings += 1;
        let ping = format!("ping {}", self.pings);
        self.send(&ping)?;
        let pong = format!("pong {}", self.pings);
        let sent = Instant::now();
        let deadline = sent + self.spec.timeout;
        loop {
            let line = self
                .process
                .read_line(deadline, &self.interrupt)
                .map_err(|error| Fault::of_read(error, command, self.spec.timeout, false))?;
            if line.trim() == pong {
                return Ok(());
            }
        }
    }

    /// The first set-up of a new process: the protocol, options and init commands.
    fn prepare(&mut self) -> Result<(), Fault> {
        self.settled("nboard 2")?;
        for (name, value) in self.spec.options.clone() {
            self.settled(&format!("set {name} {value}"))?;
        }
        for command in self.spec.init.clone() {
            self.settled(&command)?;
        }
        self.ready = true;
        Ok(())
    }
}

impl Client for NboardClient {
    fn new_game(&mut self, setup: &GameSetup) -> Result<(), Fault> {
        if setup.game != "reversi" || setup.option("size").is_some_and(|size| size != "8") {
            return Err(Fault::new(
                Termination::ProtocolError,
                "NBoard plays only 8x8 Othello",
            ));
        }
        if !self.ready {
            self.prepare()?;
        }
        let record = ggf_record(setup)?;
        self.settled(&format!("set game {record}"))
    }

    fn tell(&mut self, played: &PlayedMove) -> Result<(), Fault> {
        self.settled(&format!("move {}", nboard_move(&played.mv)))
    }

    fn genmove(&mut self, request: &MoveRequest) -> Result<String, Fault> {
        let command = "go";
        let sent = Instant::now();
        self.send(command)?;
        let clocked = request.clock.control().is_limited();
        let waited = request.deadline.saturating_duration_since(sent);
        let line = loop {
            let line = self
                .process
                .read_line(request.deadline, &self.interrupt)
                .map_err(|error| Fault::of_read(error, command, waited, clocked))?;
            if let Some(rest) = line.trim().strip_prefix("===") {
                break rest.trim().to_string();
            }
        };
        let mv = named_move(&line);
        if mv.is_empty() {
            return Err(Fault::new(
                Termination::ProtocolError,
                format!("no move in '=== {line}'"),
            ));
        }
        // The engine named its move without playing it; a GUI plays it back. An illegal move
        // ends the game before the next request, and the next game sends a whole new record.
        self.send(&format!("move {}", nboard_move(&mv)))?;
        Ok(mv)
    }

    fn close(&mut self) {
        self.process.close(Some("quit"), Duration::from_secs(1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::matches::clock::{MatchClock, MatchTimeControl};

    fn setup(position: Option<&str>, opening: &[(usize, &str)]) -> GameSetup {
        GameSetup {
            game: "reversi".to_string(),
            options: vec![("size".to_string(), "8".to_string())],
            position: position.map(str::to_string),
            opening: opening
                .iter()
                .map(|&(seat, mv)| PlayedMove {
                    seat,
                    player: if seat == 0 { "black" } else { "white" }.to_string(),
                    mv: mv.to_string(),
                })
                .collect(),
            seat: 0,
            clock: MatchClock::new(MatchTimeControl::default()),
        }
    }

    #[test]
    fn a_game_goes_out_as_ggf() {
        let record = ggf_record(&setup(None, &[(0, "f5"), (1, "d6"), (0, "pass")])).unwrap();
        assert_eq!(
            record,
            "(;GM[Othello]PC[tabula-match]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[D6]B[PA];)"
        );
        let white = format!("{}{} O", "X".repeat(10), "-".repeat(54));
        let record = ggf_record(&setup(Some(&white), &[])).unwrap();
        assert!(record.contains(&format!("BO[8 {}{} O]", "*".repeat(10), "-".repeat(54))));
        assert!(ggf_record(&setup(Some("X-- X"), &[])).is_err());
    }

    #[test]
    fn moves_cross_both_ways() {
        assert_eq!(nboard_move("pass"), "PA");
        assert_eq!(nboard_move("f5"), "F5");
        assert_eq!(our_move("PA"), "pass");
        assert_eq!(our_move("G2"), "g2");
        // Tabula's form and Edax's.
        assert_eq!(named_move("G2/60/0.03"), "g2");
        assert_eq!(named_move("b5 0.00 0.0"), "b5");
        assert_eq!(named_move("PA"), "pass");
    }
}
