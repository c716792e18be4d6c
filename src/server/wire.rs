//! The room protocol's messages: JSON objects, one per line over TCP and one per message over
//! WebSocket, each with a `type` (see `protocol.md`, "Rooms").

use super::clock::{Left, TimeSpec};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A seat as `create` asks for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SeatSpec {
    /// For a remote client (a person in the browser, an engine over TCP).
    Open,
    /// Tabula itself at a level from 1 to 8.
    Tabula {
        /// The level.
        level: u8,
    },
}

/// What happens to a seat whose client has been gone longer than the grace period.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Absence {
    /// Tabula plays for it until its client comes back.
    #[default]
    Takeover,
    /// It loses: a two-seat game ends; with more seats it is placed last and Tabula moves its
    /// pieces so that the others can finish.
    Forfeit,
}

/// A message from a client.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
    /// Creates a room.
    Create {
        /// The game, any name `set_game` takes.
        game: String,
        /// Game options, as `set_game`'s `key=value` (values may be numbers).
        #[serde(default)]
        options: BTreeMap<String, serde_json::Value>,
        /// A start position string instead of the game's start.
        #[serde(default)]
        position: Option<String>,
        /// One per seat, in seat order; all open when left out.
        #[serde(default)]
        seats: Option<Vec<SeatSpec>>,
        /// The time control; untimed when left out.
        #[serde(default)]
        time: Option<TimeSpec>,
        /// The grace period of an absent seat, in milliseconds.
        #[serde(default)]
        grace_ms: Option<u64>,
        /// What happens after the grace period.
        #[serde(default)]
        absence: Option<Absence>,
        /// The level Tabula plays an absent seat at (takeover, and forfeited seats' pieces).
        #[serde(default)]
        takeover_level: Option<u8>,
    },
    /// Takes an open seat.
    Join {
        /// The room.
        room: String,
        /// The seat (from 0); the first open one when left out.
        #[serde(default)]
        seat: Option<usize>,
        /// The player's name, for the records.
        name: String,
    },
    /// Comes back to one's seat.
    Resume {
        /// The room.
        room: String,
        /// The seat.
        seat: usize,
        /// The seat token `joined` gave.
        token: String,
    },
    /// Watches a room.
    Watch {
        /// The room.
        room: String,
    },
    /// Plays a move for one's seat.
    Move {
        /// The move in the game's notation.
        #[serde(rename = "move")]
        mv: String,
        /// The number of moves played before it, as the client saw them; a move sent for an
        /// older position is refused rather than played somewhere else.
        #[serde(default)]
        ply: Option<usize>,
    },
    /// Gives up the game.
    Resign,
    /// Leaves the room (the seat stays, as after a disconnection).
    Leave,
    /// Once the game is over, asks for a new room with the same game, options, clock and seats,
    /// the seats turned by one (black and white swap).
    Rematch,
    /// Asks for the room's state.
    State,
    /// Keeps the connection alive.
    Ping,
}

/// One move of a room's record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// The seat that moved (from 0).
    pub seat: usize,
    /// The move in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Thinking time, in milliseconds.
    pub ms: u64,
}

/// A seat as clients see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatView {
    /// Its number, from 0.
    pub seat: usize,
    /// Its name in the game (`black`, `3`).
    pub player: String,
    /// `open`, `remote` or `tabula`.
    pub kind: String,
    /// The player's name, once taken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Tabula's level, for a Tabula seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    /// Whether its client is connected.
    pub connected: bool,
    /// The level Tabula plays it at while its client is away, if it does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stand_in: Option<u8>,
    /// Why it is out of the game, if it is (`time`, `forfeit`, `resign`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub out: Option<String>,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultView {
    /// The result: the game's own (`B+10`, `1:2 2:1 3:3`), or SGF's for a game won by default
    /// (`W+T` on time, `B+R` by resignation, `W+F` by forfeit).
    pub text: String,
    /// Each seat's place, 1 for first; equal places tie.
    pub places: Vec<u8>,
    /// `normal`, `time`, `resign` or `forfeit`.
    pub reason: String,
}

/// The clock as clients see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockView {
    /// The time control, if the room is timed.
    pub time: Option<TimeSpec>,
    /// Each seat's time left in milliseconds (empty when untimed).
    pub left_ms: Vec<u64>,
    /// The seat whose time runs.
    pub running: Option<usize>,
}

/// A room's whole state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomView {
    /// The room.
    pub room: String,
    /// The game's canonical name.
    pub game: String,
    /// Its options.
    pub options: BTreeMap<String, String>,
    /// The start position string.
    pub start: String,
    /// The position string now.
    pub position: String,
    /// The moves so far.
    pub moves: Vec<MoveRecord>,
    /// The seat to move, while the game goes on.
    pub to_move: Option<usize>,
    /// The seats.
    pub seats: Vec<SeatView>,
    /// `waiting` (for players), `playing` or `finished`.
    pub status: String,
    /// The clock.
    pub clock: ClockView,
    /// The result, once finished.
    pub result: Option<ResultView>,
    /// The receiver's seat, if it has one.
    pub you: Option<usize>,
    /// The legal moves of the seat to move.
    pub legal: Vec<String>,
    /// Points the seat to move may not play because of a rule (renju).
    pub forbidden: Vec<String>,
}

/// One move as it is relayed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveView {
    /// The room.
    pub room: String,
    /// Moves played, this one included.
    pub ply: usize,
    /// The seat that moved.
    pub seat: usize,
    /// The move.
    #[serde(rename = "move")]
    pub mv: String,
    /// Thinking time, in milliseconds.
    pub ms: u64,
    /// Whether the server played it: a forced pass, or Tabula for an absent seat.
    pub auto: bool,
    /// The position string after it.
    pub position: String,
    /// The seat to move next, while the game goes on.
    pub to_move: Option<usize>,
    /// Each seat's time left, in milliseconds (empty when untimed).
    pub left_ms: Vec<u64>,
    /// The legal moves of the seat to move.
    pub legal: Vec<String>,
    /// Its forbidden points.
    pub forbidden: Vec<String>,
}

/// A message from the server.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// A room was created.
    Created {
        /// Its identifier, which is also the secret that lets one join or watch it.
        room: String,
    },
    /// The client has its seat.
    Joined {
        /// The room.
        room: String,
        /// The seat.
        seat: usize,
        /// The seat token, for `resume`.
        token: String,
    },
    /// The client watches the room.
    Watching {
        /// The room.
        room: String,
    },
    /// The room's whole state.
    State(Box<RoomView>),
    /// A move was played.
    Move(MoveView),
    /// A seat changed: taken, left, back, taken over, out.
    Seat {
        /// The room.
        room: String,
        /// The seat.
        #[serde(flatten)]
        view: SeatView,
    },
    /// The game started: every seat is taken.
    Started {
        /// The room.
        room: String,
    },
    /// The game ended.
    End {
        /// The room.
        room: String,
        /// The result.
        result: ResultView,
    },
    /// The client left the room.
    Left {
        /// The room.
        room: String,
    },
    /// A request was refused; nothing changed.
    Error {
        /// Why.
        message: String,
    },
    /// The answer to `ping`.
    Pong,
    /// A rematch room was created for this finished room: everyone in the room hears of it.
    Rematch {
        /// The finished room.
        room: String,
        /// The new room.
        next: String,
        /// Where each seat of the finished room sits in the new one (index: the old seat).
        seats: Vec<usize>,
    },
}

impl ServerMessage {
    /// The message as one line of JSON.
    pub fn to_line(&self) -> String {
        serde_json::to_string(self)
            .unwrap_or_else(|_| r#"{"type":"error","message":"internal error"}"#.into())
    }

    /// An error message.
    pub fn error(message: impl Into<String>) -> ServerMessage {
        ServerMessage::Error {
            message: message.into(),
        }
    }
}

/// A room as the database keeps it while it is open.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomRecord {
    /// The room.
    pub room: String,
    /// The game.
    pub game: String,
    /// Its options.
    pub options: Vec<(String, String)>,
    /// A start position, if not the game's own.
    pub position: Option<String>,
    /// The seats.
    pub seats: Vec<SeatRecord>,
    /// The moves.
    pub moves: Vec<MoveRecord>,
    /// The time control.
    pub time: Option<TimeSpec>,
    /// Each seat's time left after the last move.
    pub left: Vec<Left>,
    /// The grace period, in milliseconds.
    pub grace_ms: u64,
    /// What happens after it.
    pub absence: Absence,
    /// Tabula's level for absent seats.
    pub takeover_level: u8,
    /// Whether the game has started.
    pub started: bool,
    /// When the room was created and the game started, in milliseconds since 1970.
    pub created_at: u64,
    /// When the game started.
    pub started_at: Option<u64>,
}

/// A seat as the database keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRecord {
    /// The seat's specification.
    pub spec: SeatSpec,
    /// The player's name, once taken.
    pub name: Option<String>,
    /// The SHA-256 digest of the seat token.
    pub token_digest: Option<String>,
    /// Why it is out, if it is.
    pub out: Option<String>,
    /// In which order it went out (1 first).
    pub out_order: usize,
}

/// A finished game as `tabula serve --export` and `/api/games.jsonl` write it, one per line, for
/// `tabula analyze` and other tools.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The record's number in the database.
    pub id: i64,
    /// The room it was played in.
    pub room: String,
    /// The game's canonical name.
    pub game: String,
    /// Its options, as `set_game` takes them.
    pub options: BTreeMap<String, String>,
    /// The start position string.
    pub start: String,
    /// Every move in the game's notation, passes included, from the start position.
    pub moves: Vec<String>,
    /// The seat that played each move (from 0).
    pub seats: Vec<usize>,
    /// Thinking time of each move, in milliseconds.
    pub times_ms: Vec<u64>,
    /// The players in seat order: a name and `remote` or `tabula`.
    pub players: Vec<PlayerRecord>,
    /// The result.
    pub result: ResultView,
    /// When the game started and ended, in milliseconds since 1970.
    pub started_at: u64,
    /// When it ended.
    pub finished_at: u64,
}

/// A player of a finished game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerRecord {
    /// The seat's name in the game.
    pub player: String,
    /// The player's name.
    pub name: String,
    /// `remote` or `tabula`.
    pub kind: String,
}

/// A named player's totals.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// The name.
    pub name: String,
    /// Games finished.
    pub games: u64,
    /// Won.
    pub wins: u64,
    /// Lost.
    pub losses: u64,
    /// Drawn (a shared first place).
    pub draws: u64,
    /// Thinking time over all games, in milliseconds.
    pub thinking_ms: u64,
    /// Moves made.
    pub moves: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_messages_read_as_documented() {
        let create: ClientMessage = serde_json::from_str(
            r#"{"type":"create","game":"chinese-checkers","options":{"players":6},
                "seats":[{"kind":"open"},{"kind":"tabula","level":2}],"absence":"forfeit"}"#,
        )
        .unwrap();
        let ClientMessage::Create {
            options,
            seats,
            absence,
            ..
        } = create
        else {
            panic!("not a create");
        };
        assert_eq!(options["players"], serde_json::json!(6));
        assert_eq!(seats.unwrap()[1], SeatSpec::Tabula { level: 2 });
        assert_eq!(absence, Some(Absence::Forfeit));
        let played: ClientMessage =
            serde_json::from_str(r#"{"type":"move","move":"d3","ply":0}"#).unwrap();
        assert_eq!(
            played,
            ClientMessage::Move {
                mv: "d3".into(),
                ply: Some(0)
            }
        );
        assert!(serde_json::from_str::<ClientMessage>(r#"{"type":"fly"}"#).is_err());
    }

    #[test]
    fn server_messages_carry_their_type() {
        assert_eq!(ServerMessage::Pong.to_line(), r#"{"type":"pong"}"#);
        assert_eq!(
            ServerMessage::error("no").to_line(),
            r#"{"type":"error","message":"no"}"#
        );
    }
}
