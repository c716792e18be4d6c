//! Game records: one JSON object per line and per game, written by `tabula match --records` and
//! read back by `tabula analyze`.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Termination {
    /// The rules ended it.
    Normal,
    /// The referee's exact solve or proven win ended it.
    Adjudicated,
    /// The move cap ended it as a draw.
    MoveCap,
    /// An engine played an illegal move.
    IllegalMove,
    /// An engine's process ended.
    Crash,
    /// An engine gave no reply in time to a command other than a move under a clock.
    Hang,
    /// An engine ran out of time on a move.
    TimeForfeit,
    /// An engine resigned.
    Resignation,
    /// An engine broke the protocol: a refused command, an error reply, a malformed line.
    ProtocolError,
    /// The match was interrupted during the game; it does not count.
    Interrupted,
}

impl Termination {
    /// Whether an engine lost the game by a fault of its own.
    pub fn is_forfeit(self) -> bool {
        matches!(
            self,
            Termination::IllegalMove
                | Termination::Crash
                | Termination::Hang
                | Termination::TimeForfeit
                | Termination::Resignation
                | Termination::ProtocolError
        )
    }

    /// The name as records write it.
    pub fn name(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Adjudicated => "adjudicated",
            Termination::MoveCap => "move-cap",
            Termination::IllegalMove => "illegal-move",
            Termination::Crash => "crash",
            Termination::Hang => "hang",
            Termination::TimeForfeit => "time-forfeit",
            Termination::Resignation => "resignation",
            Termination::ProtocolError => "protocol-error",
            Termination::Interrupted => "interrupted",
        }
    }
}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's number in the match, from 1.
    pub number: usize,
    /// The game's canonical name (`reversi`, `gomoku`, `chinese-checkers`).
    pub game: String,
    /// The game's options, as `set_game` takes them.
    pub options: BTreeMap<String, String>,
    /// The number of the opening in the openings file, from 1; `None` without openings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening: Option<usize>,
    /// The engine in each seat (black first in two-player games).
    pub seats: Vec<String>,
    /// The position string the game started from.
    pub start: String,
    /// Every move from `start`, the opening's first.
    pub moves: Vec<String>,
    /// How many of `moves` the opening gave.
    pub opening_plies: usize,
    /// The result in the game's words (`B+10`, `1:2 2:1 3:3`), or who forfeited.
    pub result: String,
    /// Each seat's place, 1 for first; equal places are a tie.
    pub places: Vec<u8>,
    /// How the game ended.
    pub termination: Termination,
    /// The ending in words.
    pub reason: String,
    /// The seat that lost by a fault, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loser: Option<usize>,
    /// Milliseconds each engine move took, in order (the opening's moves excluded).
    pub move_ms: Vec<u64>,
    /// The seat that made each of those moves.
    pub move_seats: Vec<usize>,
    /// The game's wall time in milliseconds.
    pub duration_ms: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_through_json() {
        let record = GameRecord {
            number: 3,
            game: "reversi".into(),
            options: [("size".to_string(), "8".to_string())]
                .into_iter()
                .collect(),
            opening: Some(2),
            seats: vec!["a".into(), "b".into()],
            start: "start".into(),
            moves: vec!["f5".into(), "d6".into()],
            opening_plies: 1,
            result: "B+4".into(),
            places: vec![1, 2],
            termination: Termination::TimeForfeit,
            reason: "white ran out of time".into(),
            loser: Some(1),
            move_ms: vec![12],
            move_seats: vec![1],
            duration_ms: 40,
        };
        let text = serde_json::to_string(&record).unwrap();
        assert!(text.contains("\"termination\":\"time-forfeit\""), "{text}");
        assert_eq!(serde_json::from_str::<GameRecord>(&text).unwrap(), record);
        assert_eq!(Termination::TimeForfeit.name(), "time-forfeit");
    }
}
