//! The Piskvork (Gomocup) side of a match, for Gomoku brains such as Rapfi.
//!
//! A game starts with `START <size>` (answered `OK`) and `INFO` lines: `rule` (0 freestyle, 1
//! exactly five, 4 renju), `timeout_turn` and `timeout_match` in milliseconds (0: no match limit),
//! `time_increment`, and each `option.X=V` as `INFO X V`. The brain hears the other side's move
//! only when asked for its own: `TURN x,y`, or the whole board (`BOARD`, `x,y,1` for its own
//! stones and `x,y,2` for the other's, `DONE`) the first time, or `BEGIN` on an empty board.
//! `INFO time_left` precedes each request. Points are `x,y` from the top-left corner: `x` is
//! the column, `y` the row counted from the top (Tabula's `h8` is `7,7` on 15x15).

use super::client::{Client, Fault, GameSetup, MoveRequest, PlayedMove};
use super::process::Process;
use super::records::Termination;
use super::spec::EngineSpec;
use crate::game::Player;
use crate::tools::interrupt::Interrupt;
use std::time::{Duration, Instant};

/// The time left sent when there is no game clock (c-gomoku-cli sends the same).
const NO_MATCH_LIMIT_MS: u64 = 2_147_483_647;

/// A stone: column, row from the top, seat.
type Stone = (usize, usize, Player);

/// A Gomoku brain spoken to in Piskvork.
pub struct PiskvorkClient {
    process: Process,
    spec: EngineSpec,
    interrupt: Interrupt,
    size: usize,
    stones: Vec<Stone>,
    /// Whether the brain knows the board up to the moves in `unsent`.
    synced: bool,
    unsent: Vec<Stone>,
}

/// `h8` on a board of `size` as `(7, 7)`.
pub fn to_point(mv: &str, size: usize) -> Option<(usize, usize)> {
    let mut characters = mv.trim().chars();
    let letter = characters.next()?.to_ascii_lowercase();
    if !letter.is_ascii_lowercase() {
        return None;
    }
    let row: usize = characters.as_str().parse().ok()?;
    let x = (letter as u8 - b'a') as usize;
    (x < size && (1..=size).contains(&row)).then(|| (x, size - row))
}

/// `(7, 7)` on a board of `size` as `h8`.
pub fn from_point(x: usize, y: usize, size: usize) -> Option<String> {
    (x < size && y < size && x < 26).then(|| format!("{}{}", (b'a' + x as u8) as char, size - y))
}

/// The stones of a Gomoku board position string (`rows/from/the/top side`).
fn stones_of_position(position: &str, size: usize) -> Result<Vec<Stone>, String> {
    let board = position.split_whitespace().next().unwrap_or("");
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != size {
        return Err(format!("a board of {} rows, not {size}", rows.len()));
    }
    let mut stones = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        for (x, cell) in row.chars().enumerate() {
            match cell.to_ascii_lowercase() {
                'x' => stones.push((x, y, 0)),
                'o' => stones.push((x, y, 1)),
                _ => {}
            }
        }
    }
    Ok(stones)
}

impl PiskvorkClient {
    /// A client for a started brain.
    pub fn new(process: Process, spec: &EngineSpec, interrupt: Interrupt) -> PiskvorkClient {
        PiskvorkClient {
            process,
            spec: spec.clone(),
            interrupt,
            size: 15,
            stones: Vec::new(),
            synced: false,
            unsent: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.process
            .send(line)
            .map_err(|error| Fault::of_write(&error, line))
    }

    /// The next line that is not a message, within `deadline`.
    fn answer(&mut self, command: &str, deadline: Instant, clocked: bool) -> Result<String, Fault> {
        let sent = Instant::now();
        loop {
            let line = self
                .process
                .read_line(deadline, &self.interrupt)
                .map_err(|error| {
                    Fault::of_read(
                        error,
                        command,
                        deadline.saturating_duration_since(sent),
                        clocked,
                    )
                })?;
            let trimmed = line.trim();
            let word = trimmed
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_ascii_uppercase();
            match word.as_str() {
                "" | "MESSAGE" | "DEBUG" | "SUGGEST" => continue,
                "ERROR" | "UNKNOWN" => {
                    return Err(Fault::new(
                        Termination::ProtocolError,
                        format!("answered '{command}' with '{trimmed}'"),
                    ))
                }
                _ => return Ok(trimmed.to_string()),
            }
        }
    }

    fn point(&self, mv: &str) -> Result<(usize, usize), Fault> {
        to_point(mv, self.size).ok_or_else(|| {
            Fault::new(
                Termination::ProtocolError,
                format!(
                    "the move {mv} is not a point of the {0}x{0} board",
                    self.size
                ),
            )
        })
    }
}

impl Client for PiskvorkClient {
    fn new_game(&mut self, setup: &GameSetup) -> Result<(), Fault> {
        if setup.game != "gomoku" {
            return Err(Fault::new(
                Termination::ProtocolError,
                format!("Piskvork plays Gomoku, not {}", setup.game),
            ));
        }
        self.size = setup
            .option("size")
            .and_then(|size| size.parse().ok())
            .unwrap_or(15);
        let rule = match setup.option("rule").unwrap_or("freestyle") {
            "standard" => 1,
            "renju" => 4,
            _ => 0,
        };
        let start = format!("START {}", self.size);
        self.send(&start)?;
        let deadline = Instant::now() + self.spec.timeout;
        let reply = self.answer(&start, deadline, false)?;
        if !reply.eq_ignore_ascii_case("ok") {
            return Err(Fault::new(
                Termination::ProtocolError,
                format!("answered '{start}' with '{reply}'"),
            ));
        }
        let control = setup.clock.control();
        let millis = |duration: Duration| duration.as_millis() as u64;
        let mut info = vec![format!("INFO rule {rule}")];
        if let Some(turn) = control.per_move.or(control.base) {
            info.push(format!("INFO timeout_turn {}", millis(turn)));
        }
        info.push(format!(
            "INFO timeout_match {}",
            control.base.map_or(0, millis)
        ));
        if control.base.is_some() {
            info.push(format!("INFO time_increment {}", millis(control.increment)));
        }
        for (key, value) in &self.spec.options {
            info.push(format!("INFO {key} {value}"));
        }
        for line in info {
            self.send(&line)?;
        }
        self.stones = match &setup.position {
            Some(position) => stones_of_position(position, self.size)
                .map_err(|error| Fault::new(Termination::ProtocolError, error))?,
            None => Vec::new(),
        };
        self.synced = false;
        self.unsent.clear();
        for played in &setup.opening {
            self.tell(played)?;
        }
        Ok(())
    }

    fn tell(&mut self, played: &PlayedMove) -> Result<(), Fault> {
        let (x, y) = self.point(&played.mv)?;
        self.stones.push((x, y, played.seat));
        self.unsent.push((x, y, played.seat));
        Ok(())
    }

    fn genmove(&mut self, request: &MoveRequest) -> Result<String, Fault> {
        let left = request
            .clock
            .remaining()
            .map_or(NO_MATCH_LIMIT_MS, |left| left.as_millis() as u64);
        self.send(&format!("INFO time_left {left}"))?;
        let command = match self.unsent.as_slice() {
            [(x, y, seat)] if self.synced && *seat != request.seat => format!("TURN {x},{y}"),
            _ if self.stones.is_empty() => "BEGIN".to_string(),
            _ => {
                self.send("BOARD")?;
                for (x, y, seat) in self.stones.clone() {
                    let owner = if seat == request.seat { 1 } else { 2 };
                    self.send(&format!("{x},{y},{owner}"))?;
                }
                "DONE".to_string()
            }
        };
        self.send(&command)?;
        let clocked = request.clock.control().is_limited();
        let reply = self.answer(&command, request.deadline, clocked)?;
        let point = reply.split_once(',').and_then(|(x, y)| {
            Some((
                x.trim().parse::<usize>().ok()?,
                y.trim().parse::<usize>().ok()?,
            ))
        });
        let mv = point
            .and_then(|(x, y)| from_point(x, y, self.size).map(|mv| (x, y, mv)))
            .ok_or_else(|| {
                Fault::new(
                    Termination::ProtocolError,
                    format!("answered '{command}' with '{reply}', not a point of the board"),
                )
            })?;
        self.stones.push((mv.0, mv.1, request.seat));
        self.synced = true;
        self.unsent.clear();
        Ok(mv.2)
    }

    fn close(&mut self) {
        self.process.close(Some("END"), Duration::from_secs(1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gomocup_points() {
        assert_eq!(to_point("h8", 15), Some((7, 7)));
        assert_eq!(to_point("a1", 15), Some((0, 14)));
        assert_eq!(to_point("A15", 15), Some((0, 0)));
        assert_eq!(to_point("p1", 15), None);
        assert_eq!(to_point("a16", 15), None);
        assert_eq!(from_point(7, 7, 15).as_deref(), Some("h8"));
        assert_eq!(from_point(0, 14, 15).as_deref(), Some("a1"));
        assert_eq!(from_point(19, 0, 20).as_deref(), Some("t20"));
        assert_eq!(from_point(15, 0, 15), None);
    }

    #[test]
    fn board_positions_give_stones() {
        let stones = stones_of_position(
            "......./......./....o../...x.../..x..../......./....... o",
            7,
        )
        .unwrap();
        assert_eq!(stones, vec![(4, 2, 1), (3, 3, 0), (2, 4, 0)]);
        assert!(stones_of_position("../.. x", 7).is_err());
    }
}
