//! The referee of one room: the true game state, the seats, the clock and the record. It has no
//! I/O: each operation checks a request, changes the state and returns what happened, which the
//! room layer ([`super::rooms`]) relays and stores.
//!
//! The game state is an engine [`Session`] with a table of one bucket, used only to check and
//! play moves. Forced passes are played by the referee itself and recorded, so that a record
//! replays move by move. A seat whose client is away past the grace period is played by Tabula
//! (takeover) or loses (forfeit); with more than two seats a seat that is out is placed last and
//! Tabula moves its pieces, so that the others can finish.

use super::auth;
use super::clock::RoomClock;
use super::wire::{
    Absence, ClockView, MoveRecord, MoveView, ResultView, RoomRecord, RoomView, SeatRecord,
    SeatSpec, SeatView,
};
use crate::base::transposition::TranspositionTable;
use crate::engine::{session_for, Session, Settings, StopSignal};
use crate::games;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The level Tabula plays the pieces of a seat that is out at, unless the room says.
pub const DEFAULT_TAKEOVER_LEVEL: u8 = 3;

/// The longest player name.
pub const MAX_NAME: usize = 40;

/// Milliseconds since 1970.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_millis() as u64)
}

/// A seat at the table.
#[derive(Clone, Debug)]
pub struct Seat {
    /// What the room was created with.
    pub spec: SeatSpec,
    /// The player's name, once taken.
    pub name: Option<String>,
    /// The digest of the seat token.
    pub token_digest: Option<String>,
    /// Connections holding the seat now.
    pub connected: usize,
    /// Since when no connection holds it (a taken remote seat).
    pub absent_since: Option<Instant>,
    /// Tabula plays it at this level while its client is away, or because it is out.
    pub stand_in: Option<u8>,
    /// Why it is out of the game.
    pub out: Option<String>,
    /// In which order it went out.
    pub out_order: usize,
}

impl Seat {
    fn new(spec: SeatSpec) -> Seat {
        Seat {
            spec,
            name: None,
            token_digest: None,
            connected: 0,
            absent_since: None,
            stand_in: None,
            out: None,
            out_order: 0,
        }
    }

    /// Whether a remote client may still take it.
    pub fn is_open(&self) -> bool {
        self.spec == SeatSpec::Open && self.token_digest.is_none()
    }

    /// The level Tabula plays it at, if Tabula plays it now.
    pub fn engine_level(&self) -> Option<u8> {
        match self.spec {
            SeatSpec::Tabula { level } => Some(level),
            SeatSpec::Open => self.stand_in,
        }
    }

    /// The name the records give it.
    pub fn record_name(&self) -> String {
        match (&self.spec, &self.name) {
            (SeatSpec::Tabula { level }, _) => format!("Tabula level {level}"),
            (SeatSpec::Open, Some(name)) => name.clone(),
            (SeatSpec::Open, None) => "nobody".to_string(),
        }
    }
}

/// Where a room's game is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Waiting for its open seats to be taken.
    Waiting,
    /// Being played.
    Playing,
    /// Over.
    Finished(ResultView),
}

/// What happened, for the room layer to relay and store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Every seat is taken: the game starts.
    Started,
    /// A move was played.
    Moved(MoveView),
    /// A seat changed.
    Seat(usize),
    /// The game is over.
    Ended(ResultView),
}

/// What an engine needs to reach a room's position.
#[derive(Clone, Debug)]
pub struct GameSetup {
    /// The game's name.
    pub game: String,
    /// Its options.
    pub options: Vec<(String, String)>,
    /// A start position string, if not the game's own.
    pub position: Option<String>,
    /// The moves from the start.
    pub moves: Vec<String>,
}

/// How a room is set up.
#[derive(Clone, Debug)]
pub struct RoomSpec {
    /// The game name (any alias).
    pub game: String,
    /// Options as `key=value` pairs.
    pub options: Vec<(String, String)>,
    /// A start position string.
    pub position: Option<String>,
    /// One per seat; all open when `None`.
    pub seats: Option<Vec<SeatSpec>>,
    /// The time control.
    pub time: Option<super::clock::TimeSpec>,
    /// The grace period of an absent seat.
    pub grace: Duration,
    /// What happens after it.
    pub absence: Absence,
    /// Tabula's level for absent and forfeited seats.
    pub takeover_level: u8,
}

/// The referee of one room.
pub struct Referee {
    /// The room's identifier.
    pub room: String,
    game: String,
    options: Vec<(String, String)>,
    position: Option<String>,
    start: String,
    session: Box<dyn Session>,
    /// The seats.
    pub seats: Vec<Seat>,
    /// The record.
    pub moves: Vec<MoveRecord>,
    /// The clock.
    pub clock: RoomClock,
    /// Where the game is.
    pub status: Status,
    grace: Duration,
    absence: Absence,
    takeover_level: u8,
    created_at: u64,
    started_at: Option<u64>,
}

/// A session that only checks and plays moves: a table of one bucket.
fn referee_session(game: games::AnyGame) -> Box<dyn Session> {
    session_for(
        game,
        Settings {
            hash_megabytes: 0,
            threads: 1,
            ..Settings::default()
        },
        Arc::new(StopSignal::default()),
        Some(TranspositionTable::new(0)),
    )
    .expect("a session with a given table allocates nothing")
}

fn check_name(name: &str) -> Result<String, String> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > MAX_NAME {
        return Err(format!("a name needs 1 to {MAX_NAME} characters"));
    }
    if name.chars().any(char::is_control) {
        return Err("a name may not hold control characters".into());
    }
    if name.to_ascii_lowercase().starts_with("tabula") {
        return Err("names starting with 'Tabula' are Tabula's own".into());
    }
    Ok(name.to_string())
}

fn check_level(level: u8) -> Result<u8, String> {
    if (crate::game::levels::MIN_LEVEL..=crate::game::levels::MAX_LEVEL).contains(&level) {
        Ok(level)
    } else {
        Err(format!(
            "a level is {} to {}, not {level}",
            crate::game::levels::MIN_LEVEL,
            crate::game::levels::MAX_LEVEL
        ))
    }
}

impl Referee {
    /// A new room.
    ///
    /// # Errors
    /// An unknown game or option, a bad position string, a seat list of the wrong length or
    /// without an open seat, a bad level or time control.
    pub fn create(room: String, spec: RoomSpec) -> Result<Referee, String> {
        let game = games::create(&spec.game, &spec.options).map_err(|error| error.to_string())?;
        let mut session = referee_session(game);
        if let Some(position) = &spec.position {
            session
                .set_position(position)
                .map_err(|error| error.to_string())?;
        }
        let players = session.player_count();
        let seats = spec.seats.unwrap_or_else(|| vec![SeatSpec::Open; players]);
        if seats.len() != players {
            return Err(format!(
                "{} has {players} seats, not {}",
                session.game_name(),
                seats.len()
            ));
        }
        for seat in &seats {
            if let SeatSpec::Tabula { level } = seat {
                check_level(*level)?;
            }
        }
        if !seats.contains(&SeatSpec::Open) {
            return Err("a room needs at least one open seat".into());
        }
        check_level(spec.takeover_level)?;
        if let Some(time) = &spec.time {
            time.check()?;
        }
        if session.outcome().is_some() {
            return Err("the start position is already over".into());
        }
        let options = session.game_options();
        let start = session.position();
        Ok(Referee {
            room,
            game: session.game_name().to_string(),
            options,
            position: spec.position,
            start,
            clock: RoomClock::new(spec.time, players),
            session,
            seats: seats.into_iter().map(Seat::new).collect(),
            moves: Vec::new(),
            status: Status::Waiting,
            grace: spec.grace,
            absence: spec.absence,
            takeover_level: spec.takeover_level,
            created_at: now_ms(),
            started_at: None,
        })
    }

    /// The set-up of a rematch: the same game, options, start, clock and absence rule, with the
    /// seats turned by one (new seat `i` is old seat `i + 1`, so black and white swap), and where
    /// each old seat sits in it.
    pub fn rematch_spec(&self) -> (RoomSpec, Vec<usize>) {
        let players = self.seats.len();
        let seats = (0..players)
            .map(|seat| self.seats[(seat + 1) % players].spec.clone())
            .collect();
        let moved = (0..players)
            .map(|old| (old + players - 1) % players)
            .collect();
        let spec = RoomSpec {
            game: self.game.clone(),
            options: self.options.clone(),
            position: self.position.clone(),
            seats: Some(seats),
            time: self.clock.spec(),
            grace: self.grace,
            absence: self.absence,
            takeover_level: self.takeover_level,
        };
        (spec, moved)
    }

    /// The game's canonical name.
    pub fn game(&self) -> &str {
        &self.game
    }

    /// The seat to move, while the game goes on.
    pub fn to_move(&self) -> Option<usize> {
        (self.status == Status::Playing).then(|| self.session.side_to_move())
    }

    /// Whether the game is over.
    pub fn is_finished(&self) -> bool {
        matches!(self.status, Status::Finished(_))
    }

    /// When the room was created, in milliseconds since 1970.
    pub fn created_at(&self) -> u64 {
        self.created_at
    }

    /// The position string now.
    pub fn position(&self) -> String {
        self.session.position()
    }

    /// The game, its start position and the moves, to set an engine up on this game.
    pub fn setup(&self) -> GameSetup {
        GameSetup {
            game: self.game.clone(),
            options: self.options.clone(),
            position: self.position.clone(),
            moves: self.moves.iter().map(|record| record.mv.clone()).collect(),
        }
    }

    /// Takes an open seat for `name`; returns the seat and its token.
    ///
    /// # Errors
    /// The game is over, the seat is not open, no seat is open, or the name is refused.
    pub fn join(
        &mut self,
        seat: Option<usize>,
        name: &str,
        now: Instant,
    ) -> Result<(usize, String, Vec<Event>), String> {
        let name = check_name(name)?;
        if self.is_finished() {
            return Err("the game is over".into());
        }
        let seat = match seat {
            Some(seat) => {
                let open = self.seats.get(seat).is_some_and(Seat::is_open);
                if !open {
                    return Err(format!("seat {seat} is not open"));
                }
                seat
            }
            None => self
                .seats
                .iter()
                .position(Seat::is_open)
                .ok_or("no seat is open: watch instead")?,
        };
        let token = auth::random_token();
        let entry = &mut self.seats[seat];
        entry.name = Some(name);
        entry.token_digest = Some(auth::digest(&token));
        entry.connected = 1;
        entry.absent_since = None;
        let mut events = vec![Event::Seat(seat)];
        if self.status == Status::Waiting && !self.seats.iter().any(Seat::is_open) {
            self.status = Status::Playing;
            self.started_at = Some(now_ms());
            events.push(Event::Started);
            events.extend(self.next_turn(now));
        }
        Ok((seat, token, events))
    }

    /// Comes back to a taken seat with its token.
    ///
    /// # Errors
    /// No such seat, or the wrong token (the same message for both).
    pub fn resume(&mut self, seat: usize, token: &str) -> Result<Vec<Event>, String> {
        let valid = self
            .seats
            .get(seat)
            .and_then(|entry| entry.token_digest.as_ref())
            .is_some_and(|stored| auth::matches_digest(token, stored));
        if !valid {
            return Err("wrong seat or token".into());
        }
        let entry = &mut self.seats[seat];
        entry.connected += 1;
        entry.absent_since = None;
        if entry.out.is_none() {
            entry.stand_in = None;
        }
        Ok(vec![Event::Seat(seat)])
    }

    /// A connection holding `seat` has gone.
    pub fn disconnect(&mut self, seat: usize, now: Instant) -> Vec<Event> {
        let Some(entry) = self.seats.get_mut(seat) else {
            return Vec::new();
        };
        entry.connected = entry.connected.saturating_sub(1);
        if entry.connected == 0 && entry.absent_since.is_none() {
            entry.absent_since = Some(now);
            return vec![Event::Seat(seat)];
        }
        Vec::new()
    }

    /// Plays `text` for `seat`; `ply` is the number of moves the client had seen.
    ///
    /// # Errors
    /// The game is not being played, it is not this seat's turn, the client saw an older
    /// position, or the move is malformed or illegal; nothing changes then.
    pub fn play(
        &mut self,
        seat: usize,
        text: &str,
        ply: Option<usize>,
        now: Instant,
    ) -> Result<Vec<Event>, String> {
        match self.status {
            Status::Waiting => return Err("the game has not started: seats are open".into()),
            Status::Finished(_) => return Err("the game is over".into()),
            Status::Playing => {}
        }
        let to_move = self.session.side_to_move();
        if to_move != seat {
            return Err(format!(
                "it is {}'s turn, not {}'s",
                self.session.format_player(to_move),
                self.session.format_player(seat)
            ));
        }
        if self.seats[seat].out.is_some() {
            return Err("this seat is out of the game".into());
        }
        if let Some(ply) = ply {
            if ply != self.moves.len() {
                return Err(format!(
                    "the move was meant for ply {ply}, but {} moves have been played",
                    self.moves.len()
                ));
            }
        }
        self.play_checked(seat, text, false, now)
    }

    /// Plays a move Tabula found for `seat` at ply `ply`; refused if the game has moved on.
    ///
    /// # Errors
    /// As [`Referee::play`].
    pub fn play_engine(
        &mut self,
        seat: usize,
        text: &str,
        ply: usize,
        now: Instant,
    ) -> Result<Vec<Event>, String> {
        if self.status != Status::Playing
            || ply != self.moves.len()
            || self.session.side_to_move() != seat
            || self.seats[seat].engine_level().is_none()
        {
            return Err("the game has moved on".into());
        }
        let auto = self.seats[seat].spec == SeatSpec::Open;
        self.play_checked(seat, text, auto, now)
    }

    fn play_checked(
        &mut self,
        seat: usize,
        text: &str,
        auto: bool,
        now: Instant,
    ) -> Result<Vec<Event>, String> {
        self.session
            .play(None, text)
            .map_err(|error| error.to_string())?;
        let ms = self
            .clock
            .stop(now)
            .map_or(0, |(_, took)| took.as_millis() as u64);
        let mut events = vec![self.record(seat, ms, auto, now)];
        events.extend(self.next_turn(now));
        Ok(events)
    }

    /// Records the move just played and describes it.
    fn record(&mut self, seat: usize, ms: u64, auto: bool, now: Instant) -> Event {
        let mv = self.session.moves_played().pop().unwrap_or_default();
        self.moves.push(MoveRecord {
            seat,
            mv: mv.clone(),
            ms,
        });
        let over = self.session.outcome().is_some();
        let to_move = (!over).then(|| self.session.side_to_move());
        let (legal, forbidden) = self.legal();
        Event::Moved(MoveView {
            room: self.room.clone(),
            ply: self.moves.len(),
            seat,
            mv,
            ms,
            auto,
            position: self.session.position(),
            to_move,
            left_ms: self.clock.left_ms(now),
            legal,
            forbidden,
        })
    }

    fn legal(&self) -> (Vec<String>, Vec<String>) {
        if self.session.outcome().is_some() {
            return (Vec::new(), Vec::new());
        }
        (
            self.session.legal_moves(None).unwrap_or_default(),
            self.session.forbidden_moves(),
        )
    }

    /// After a move: forced passes, the end of the game, or the next seat's clock.
    fn next_turn(&mut self, now: Instant) -> Vec<Event> {
        let mut events = Vec::new();
        loop {
            if self.session.outcome().is_some() {
                events.push(self.finish("normal"));
                return events;
            }
            let moves = self.session.legal_moves(None).unwrap_or_default();
            if moves.len() == 1 && moves[0] == "pass" {
                let seat = self.session.side_to_move();
                if self.session.play(None, "pass").is_err() {
                    break;
                }
                events.push(self.record(seat, 0, true, now));
                continue;
            }
            break;
        }
        self.clock.start(self.session.side_to_move(), now);
        events
    }

    /// Ends the game for `reason`, with the places the game and the seats out of it give.
    fn finish(&mut self, reason: &str) -> Event {
        self.clock.stop(Instant::now());
        let players = self.seats.len();
        let outcome = self.session.outcome();
        let mut places: Vec<u8> = match &outcome {
            Some(outcome) => (0..players).map(|seat| outcome.place(seat)).collect(),
            None => vec![1; players],
        };
        let out: Vec<usize> = (0..players)
            .filter(|&seat| self.seats[seat].out.is_some())
            .collect();
        if !out.is_empty() {
            // Those still in keep their order among themselves; those out follow, the first
            // out last.
            let mut inside: Vec<usize> = (0..players).filter(|seat| !out.contains(seat)).collect();
            inside.sort_by_key(|&seat| places[seat]);
            let mut ranked = vec![0u8; players];
            for (index, &seat) in inside.iter().enumerate() {
                let tied = index > 0 && places[inside[index - 1]] == places[seat];
                ranked[seat] = if tied {
                    ranked[inside[index - 1]]
                } else {
                    index as u8 + 1
                };
            }
            let mut gone = out.clone();
            gone.sort_by_key(|&seat| std::cmp::Reverse(self.seats[seat].out_order));
            for (index, &seat) in gone.iter().enumerate() {
                ranked[seat] = (inside.len() + index + 1) as u8;
            }
            places = ranked;
        }
        let text = match (&outcome, out.is_empty()) {
            (Some(_), true) => self.session.result_text().unwrap_or_default(),
            _ if players == 2 => {
                let winner = if places[0] == 1 { 0 } else { 1 };
                let name = self.session.format_player(winner);
                let letter = name.chars().next().unwrap_or('?').to_ascii_uppercase();
                let code = match reason {
                    "time" => 'T',
                    "resign" => 'R',
                    _ => 'F',
                };
                format!("{letter}+{code}")
            }
            _ => (0..players)
                .map(|seat| format!("{}:{}", self.session.format_player(seat), places[seat]))
                .collect::<Vec<_>>()
                .join(" "),
        };
        let reason = if out.is_empty() {
            "normal".to_string()
        } else {
            reason.to_string()
        };
        let result = ResultView {
            text,
            places,
            reason,
        };
        self.status = Status::Finished(result.clone());
        Event::Ended(result)
    }

    /// Takes `seat` out of the game for `reason` (`time`, `forfeit`, `resign`).
    fn knock_out(&mut self, seat: usize, reason: &str, now: Instant) -> Vec<Event> {
        if self.status != Status::Playing || self.seats[seat].out.is_some() {
            return Vec::new();
        }
        let order = self.seats.iter().filter(|seat| seat.out.is_some()).count() + 1;
        let entry = &mut self.seats[seat];
        entry.out = Some(reason.to_string());
        entry.out_order = order;
        let mut events = vec![Event::Seat(seat)];
        let inside = self.seats.iter().filter(|seat| seat.out.is_none()).count();
        if self.seats.len() == 2 || inside <= 1 {
            events.push(self.finish(reason));
            return events;
        }
        // Tabula moves the pieces of a seat that is out, so that the others can finish.
        self.seats[seat].stand_in = Some(self.takeover_level);
        if self.clock.running() == Some(seat) {
            // Its turn goes on with Tabula; its clock no longer counts.
            self.clock.start(seat, now);
        }
        events
    }

    /// Resigns `seat`.
    ///
    /// # Errors
    /// The game is not being played, or the seat is already out.
    pub fn resign(&mut self, seat: usize, now: Instant) -> Result<Vec<Event>, String> {
        if self.status != Status::Playing {
            return Err("the game is not being played".into());
        }
        if self.seats[seat].out.is_some() {
            return Err("this seat is already out".into());
        }
        Ok(self.knock_out(seat, "resign", now))
    }

    /// Flag falls and grace periods at `now`.
    pub fn tick(&mut self, now: Instant) -> Vec<Event> {
        let mut events = Vec::new();
        if self.status != Status::Playing {
            return events;
        }
        if let Some((seat, deadline)) = self.clock.deadline() {
            let engine = self.seats[seat].engine_level().is_some();
            if now >= deadline && self.seats[seat].out.is_none() && !engine {
                events.extend(self.knock_out(seat, "time", now));
            }
        }
        for seat in 0..self.seats.len() {
            if self.status != Status::Playing {
                break;
            }
            let entry = &self.seats[seat];
            let expired = entry.spec == SeatSpec::Open
                && entry.out.is_none()
                && entry.stand_in.is_none()
                && entry
                    .absent_since
                    .is_some_and(|since| now.saturating_duration_since(since) >= self.grace);
            if !expired {
                continue;
            }
            match self.absence {
                Absence::Takeover => {
                    self.seats[seat].stand_in = Some(self.takeover_level);
                    events.push(Event::Seat(seat));
                }
                Absence::Forfeit => events.extend(self.knock_out(seat, "forfeit", now)),
            }
        }
        events
    }

    /// The seat Tabula must move for now, with its level, and the ply it moves at.
    pub fn engine_turn(&self) -> Option<(usize, u8, usize)> {
        let seat = self.to_move()?;
        let level = self.seats[seat].engine_level()?;
        Some((seat, level, self.moves.len()))
    }

    /// Each seat's time left now, for Tabula's search.
    pub fn time_left(&self, seat: usize, now: Instant) -> Option<Duration> {
        self.clock
            .left_ms(now)
            .get(seat)
            .map(|&ms| Duration::from_millis(ms))
    }

    /// A seat as clients see it.
    pub fn seat_view(&self, seat: usize) -> SeatView {
        let entry = &self.seats[seat];
        SeatView {
            seat,
            player: self.session.format_player(seat),
            kind: match (&entry.spec, &entry.token_digest) {
                (SeatSpec::Tabula { .. }, _) => "tabula",
                (SeatSpec::Open, None) => "open",
                (SeatSpec::Open, Some(_)) => "remote",
            }
            .to_string(),
            name: match entry.spec {
                SeatSpec::Tabula { .. } => Some(entry.record_name()),
                SeatSpec::Open => entry.name.clone(),
            },
            level: match entry.spec {
                SeatSpec::Tabula { level } => Some(level),
                SeatSpec::Open => None,
            },
            connected: matches!(entry.spec, SeatSpec::Tabula { .. }) || entry.connected > 0,
            stand_in: entry.stand_in,
            out: entry.out.clone(),
        }
    }

    /// The whole state, for the client holding seat `you`.
    pub fn view(&self, you: Option<usize>, now: Instant) -> RoomView {
        let (legal, forbidden) = if self.status == Status::Playing {
            self.legal()
        } else {
            (Vec::new(), Vec::new())
        };
        RoomView {
            room: self.room.clone(),
            game: self.game.clone(),
            options: self.options.iter().cloned().collect::<BTreeMap<_, _>>(),
            start: self.start.clone(),
            position: self.session.position(),
            moves: self.moves.clone(),
            to_move: self.to_move(),
            seats: (0..self.seats.len())
                .map(|seat| self.seat_view(seat))
                .collect(),
            status: match self.status {
                Status::Waiting => "waiting",
                Status::Playing => "playing",
                Status::Finished(_) => "finished",
            }
            .to_string(),
            clock: ClockView {
                time: self.clock.spec(),
                left_ms: self.clock.left_ms(now),
                running: self.clock.running(),
            },
            result: match &self.status {
                Status::Finished(result) => Some(result.clone()),
                _ => None,
            },
            you,
            legal,
            forbidden,
        }
    }

    /// The room as the database keeps it.
    pub fn to_record(&self) -> RoomRecord {
        RoomRecord {
            room: self.room.clone(),
            game: self.game.clone(),
            options: self.options.clone(),
            position: self.position.clone(),
            seats: self
                .seats
                .iter()
                .map(|seat| SeatRecord {
                    spec: seat.spec.clone(),
                    name: seat.name.clone(),
                    token_digest: seat.token_digest.clone(),
                    out: seat.out.clone(),
                    out_order: seat.out_order,
                })
                .collect(),
            moves: self.moves.clone(),
            time: self.clock.spec(),
            left: self.clock.stored(),
            grace_ms: self.grace.as_millis() as u64,
            absence: self.absence,
            takeover_level: self.takeover_level,
            started: self.status != Status::Waiting,
            created_at: self.created_at,
            started_at: self.started_at,
        }
    }

    /// A room from the database, every remote client away since `now`; its game goes on.
    ///
    /// # Errors
    /// The record does not replay (a changed game, a corrupt row).
    pub fn from_record(record: &RoomRecord, now: Instant) -> Result<Referee, String> {
        let mut referee = Referee::create(
            record.room.clone(),
            RoomSpec {
                game: record.game.clone(),
                options: record.options.clone(),
                position: record.position.clone(),
                seats: Some(record.seats.iter().map(|seat| seat.spec.clone()).collect()),
                time: record.time,
                grace: Duration::from_millis(record.grace_ms),
                absence: record.absence,
                takeover_level: record.takeover_level,
            },
        )?;
        for (index, played) in record.moves.iter().enumerate() {
            referee
                .session
                .play(None, &played.mv)
                .map_err(|error| format!("move {} ({}): {error}", index + 1, played.mv))?;
        }
        referee.moves = record.moves.clone();
        for (seat, stored) in referee.seats.iter_mut().zip(&record.seats) {
            seat.name = stored.name.clone();
            seat.token_digest = stored.token_digest.clone();
            seat.out = stored.out.clone();
            seat.out_order = stored.out_order;
            if seat.out.is_some() {
                seat.stand_in = Some(record.takeover_level);
            }
            if seat.token_digest.is_some() {
                seat.absent_since = Some(now);
            }
        }
        referee.clock.restore(&record.left);
        referee.created_at = record.created_at;
        referee.started_at = record.started_at;
        if record.started {
            referee.status = Status::Playing;
            let events = referee.next_turn(now);
            if events.iter().any(|event| matches!(event, Event::Ended(_))) {
                return Err("the game was already over".into());
            }
        }
        Ok(referee)
    }

    /// The finished game as it is exported, or `None` while it goes on.
    pub fn game_record(&self) -> Option<super::wire::GameRecord> {
        let Status::Finished(result) = &self.status else {
            return None;
        };
        Some(super::wire::GameRecord {
            id: 0,
            room: self.room.clone(),
            game: self.game.clone(),
            options: self.options.iter().cloned().collect(),
            start: self.start.clone(),
            moves: self.moves.iter().map(|record| record.mv.clone()).collect(),
            seats: self.moves.iter().map(|record| record.seat).collect(),
            times_ms: self.moves.iter().map(|record| record.ms).collect(),
            players: (0..self.seats.len())
                .map(|seat| super::wire::PlayerRecord {
                    player: self.session.format_player(seat),
                    name: self.seats[seat].record_name(),
                    kind: match self.seats[seat].spec {
                        SeatSpec::Tabula { .. } => "tabula",
                        SeatSpec::Open => "remote",
                    }
                    .to_string(),
                })
                .collect(),
            result: result.clone(),
            started_at: self.started_at.unwrap_or(self.created_at),
            finished_at: now_ms(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(game: &str, options: &[(&str, &str)], seats: Option<Vec<SeatSpec>>) -> RoomSpec {
        RoomSpec {
            game: game.into(),
            options: options
                .iter()
                .map(|(key, value)| (key.to_string(), value.to_string()))
                .collect(),
            position: None,
            seats,
            time: None,
            grace: Duration::from_secs(60),
            absence: Absence::Takeover,
            takeover_level: 1,
        }
    }

    #[test]
    fn two_remote_players_play_in_turn_and_nobody_moves_for_another() {
        let now = Instant::now();
        let mut room = Referee::create("r".into(), spec("reversi", &[], None)).unwrap();
        assert!(room.play(0, "d3", None, now).is_err(), "not started");
        let (black, black_token, _) = room.join(None, "alice", now).unwrap();
        let (white, _, events) = room.join(None, "bob", now).unwrap();
        assert_eq!((black, white), (0, 1));
        assert!(events.contains(&Event::Started));
        assert!(room.join(None, "carol", now).is_err(), "no seat left");
        assert!(room
            .play(white, "d3", None, now)
            .unwrap_err()
            .contains("black's turn"));
        assert!(room.play(black, "a1", None, now).is_err(), "illegal");
        assert!(room.play(black, "zz", None, now).is_err(), "malformed");
        let events = room.play(black, "d3", Some(0), now).unwrap();
        assert!(
            matches!(&events[0], Event::Moved(view) if view.mv == "d3" && view.to_move == Some(1))
        );
        assert!(room
            .play(white, "c5", Some(0), now)
            .unwrap_err()
            .contains("ply 0"));
        assert!(room.resume(black, "0123").is_err());
        assert!(room.resume(black, &black_token).is_ok());
        assert!(
            room.resume(white, &black_token).is_err(),
            "a token opens one seat only"
        );
    }

    #[test]
    fn a_record_replays_into_the_same_room() {
        let now = Instant::now();
        let mut room = Referee::create(
            "r".into(),
            spec(
                "gomoku",
                &[("size", "9")],
                Some(vec![SeatSpec::Open, SeatSpec::Tabula { level: 1 }]),
            ),
        )
        .unwrap();
        room.join(None, "alice", now).unwrap();
        room.play(0, "e5", None, now).unwrap();
        assert_eq!(room.engine_turn(), Some((1, 1, 1)));
        room.play_engine(1, "d4", 1, now).unwrap();
        let record = room.to_record();
        let restored = Referee::from_record(&record, now).unwrap();
        assert_eq!(restored.position(), room.position());
        assert_eq!(restored.to_move(), Some(0));
        assert!(restored.seats[0].absent_since.is_some());
        assert_eq!(restored.to_record().moves, record.moves);
    }

    #[test]
    fn forced_passes_are_played_and_recorded() {
        let now = Instant::now();
        // Black to move with one move, after which white has none and black moves again.
        let mut room =
            Referee::create("r".into(), spec("reversi", &[("size", "4")], None)).unwrap();
        room.join(None, "alice", now).unwrap();
        room.join(None, "bob", now).unwrap();
        let mut plies = 0;
        while room.to_move().is_some() && plies < 40 {
            let seat = room.to_move().unwrap();
            let moves = room.session.legal_moves(None).unwrap();
            assert_ne!(
                moves,
                vec!["pass".to_string()],
                "the referee passes by itself"
            );
            room.play(seat, &moves[0], None, now).unwrap();
            plies += 1;
        }
        assert!(room.is_finished());
        let record = room.game_record().unwrap();
        let mut replay =
            referee_session(games::create("reversi", &[("size".into(), "4".into())]).unwrap());
        for mv in &record.moves {
            replay.play(None, mv).unwrap();
        }
        assert_eq!(replay.result_text().unwrap(), record.result.text);
    }

    #[test]
    fn a_seat_away_past_its_grace_is_taken_over_or_forfeits() {
        let start = Instant::now();
        let mut room = Referee::create("r".into(), spec("reversi", &[], None)).unwrap();
        room.join(None, "alice", start).unwrap();
        room.join(None, "bob", start).unwrap();
        room.disconnect(0, start);
        assert!(room.tick(start + Duration::from_secs(30)).is_empty());
        room.tick(start + Duration::from_secs(61));
        assert_eq!(room.seats[0].stand_in, Some(1));
        assert_eq!(room.engine_turn(), Some((0, 1, 0)));

        let mut strict = spec("reversi", &[], None);
        strict.absence = Absence::Forfeit;
        let mut room = Referee::create("r".into(), strict).unwrap();
        room.join(None, "alice", start).unwrap();
        room.join(None, "bob", start).unwrap();
        room.disconnect(1, start);
        let events = room.tick(start + Duration::from_secs(61));
        let Some(Event::Ended(result)) = events.last() else {
            panic!("the game ends: {events:?}");
        };
        assert_eq!(result.text, "B+F");
        assert_eq!(result.places, vec![1, 2]);
    }

    #[test]
    fn in_a_six_seat_game_a_resigned_seat_is_last_and_the_game_goes_on() {
        let start = Instant::now();
        let mut room = Referee::create(
            "r".into(),
            spec("chinese-checkers", &[("players", "6")], None),
        )
        .unwrap();
        for name in ["a", "b", "c", "d", "e", "f"] {
            room.join(None, name, start).unwrap();
        }
        let events = room.resign(2, start).unwrap();
        assert!(!events.iter().any(|event| matches!(event, Event::Ended(_))));
        assert_eq!(room.seats[2].engine_level(), Some(1));
        assert!(room.play(0, "1-2", None, start).is_err());
        let moves = room.session.legal_moves(None).unwrap();
        room.play(0, &moves[0], None, start).unwrap();
        assert_eq!(room.to_move(), Some(1));
    }

    #[test]
    fn time_runs_out() {
        let start = Instant::now();
        let mut timed = spec("gomoku", &[], None);
        timed.time = Some(super::super::clock::TimeSpec {
            main_ms: 1000,
            ..Default::default()
        });
        let mut room = Referee::create("r".into(), timed).unwrap();
        room.join(None, "alice", start).unwrap();
        room.join(None, "bob", start).unwrap();
        room.play(0, "h8", None, start + Duration::from_millis(300))
            .unwrap();
        assert!(room.tick(start + Duration::from_millis(1200)).is_empty());
        let events = room.tick(start + Duration::from_millis(1400));
        assert!(matches!(events.last(), Some(Event::Ended(result)) if result.text == "B+T"));
    }

    #[test]
    fn bad_rooms_are_refused() {
        assert!(Referee::create("r".into(), spec("chess", &[], None)).is_err());
        assert!(Referee::create("r".into(), spec("reversi", &[("size", "7")], None)).is_err());
        assert!(Referee::create(
            "r".into(),
            spec("reversi", &[], Some(vec![SeatSpec::Tabula { level: 1 }; 2]))
        )
        .is_err());
        assert!(Referee::create(
            "r".into(),
            spec(
                "reversi",
                &[],
                Some(vec![SeatSpec::Open, SeatSpec::Tabula { level: 9 }])
            )
        )
        .is_err());
        assert!(
            Referee::create("r".into(), spec("reversi", &[], Some(vec![SeatSpec::Open]))).is_err()
        );
    }
}
