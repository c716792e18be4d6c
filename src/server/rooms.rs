//! Game rooms: the registry, room clients, relaying, Tabula's seats, timers and persistence.
//!
//! Each room is a [`Referee`] behind a mutex, with the connections that hold a seat in it or
//! watch it. A client's request is checked by the referee; what happened is relayed to everyone
//! in the room and written to the database before the next request is read. Tabula's moves (its
//! own seats, absent seats it takes over) are searched on the blocking pool, with threads from the
//! shared budget, and played through the referee like anyone's. A ticker enforces clocks, grace
//! periods and the lifetime of rooms.

use super::connection::{Connection, Line};
use super::referee::{Event, GameSetup, Referee, RoomSpec, DEFAULT_TAKEOVER_LEVEL};
use super::wire::{ClientMessage, ServerMessage};
use super::{auth, State};
use crate::base::transposition::TranspositionTable;
use crate::engine::clock::TimeLeft;
use crate::engine::{
    new_session, session_for, InfoMode, Mode, Request, Session, Settings, StopSignal,
};
use crate::games;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, watch};

/// How often the ticker looks at clocks and grace periods.
const TICK: Duration = Duration::from_millis(200);

/// How long a finished room stays, for late watchers, once nobody is in it.
const FINISHED_LINGER: Duration = Duration::from_secs(120);

/// A connection in a room.
struct Member {
    connection: u64,
    seat: Option<usize>,
    outgoing: mpsc::Sender<String>,
    closing: watch::Sender<bool>,
}

/// One room: its referee and who is in it.
pub struct Room {
    referee: Referee,
    members: Vec<Member>,
    /// The stop signal of Tabula's search for this room, while one runs.
    engine: Option<Arc<StopSignal>>,
    closed: bool,
    /// When the room was last empty of connections (for closing idle rooms).
    empty_since: Option<Instant>,
    finished_at: Option<Instant>,
    /// The rematch room, once one was asked for: (its identifier, where each seat went).
    rematch: Option<(String, Vec<usize>)>,
}

/// Every room, by identifier.
#[derive(Default)]
pub struct Rooms {
    map: Mutex<HashMap<String, Arc<Mutex<Room>>>>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    match mutex.lock() {
        Ok(guard) => guard,
        Err(poisoned) => poisoned.into_inner(),
    }
}

impl Rooms {
    fn get(&self, room: &str) -> Option<Arc<Mutex<Room>>> {
        if !auth::well_formed(room) {
            return None;
        }
        lock(&self.map).get(room).cloned()
    }

    fn all(&self) -> Vec<(String, Arc<Mutex<Room>>)> {
        lock(&self.map)
            .iter()
            .map(|(id, room)| (id.clone(), room.clone()))
            .collect()
    }

    /// The number of rooms.
    pub fn count(&self) -> usize {
        lock(&self.map).len()
    }
}

impl Room {
    fn new(referee: Referee) -> Room {
        Room {
            referee,
            members: Vec::new(),
            engine: None,
            closed: false,
            empty_since: Some(Instant::now()),
            finished_at: None,
            rematch: None,
        }
    }

    /// Sends a line to every member; a member that cannot keep up is closed and dropped.
    fn broadcast(&mut self, message: &ServerMessage) {
        let line = format!("{}\n", message.to_line());
        self.members
            .retain(|member| match member.outgoing.try_send(line.clone()) {
                Ok(()) => true,
                Err(mpsc::error::TrySendError::Full(_)) => {
                    log::warn!(
                        "connection {} cannot keep up with its room: closed",
                        member.connection
                    );
                    let _ = member.closing.send(true);
                    false
                }
                Err(mpsc::error::TrySendError::Closed(_)) => false,
            });
    }

    /// Sends each member the room's state as it sees it.
    fn send_states(&mut self, now: Instant) {
        let referee = &self.referee;
        self.members.retain(|member| {
            let view = referee.view(member.seat, now);
            let line = format!("{}\n", ServerMessage::State(Box::new(view)).to_line());
            member.outgoing.try_send(line).is_ok()
        });
    }
}

/// Stores and relays what happened in `room`, and starts Tabula's search if it is to move. The
/// database has the change before anyone hears of it.
fn apply(room_handle: &Arc<Mutex<Room>>, room: &mut Room, events: Vec<Event>, state: &Arc<State>) {
    let now = Instant::now();
    let id = room.referee.room.clone();
    persist(room, state);
    let mut ended = false;
    for event in events {
        match event {
            Event::Moved(view) => room.broadcast(&ServerMessage::Move(view)),
            Event::Seat(seat) => {
                let view = room.referee.seat_view(seat);
                room.broadcast(&ServerMessage::Seat {
                    room: id.clone(),
                    view,
                });
            }
            Event::Started => {
                room.broadcast(&ServerMessage::Started { room: id.clone() });
                room.send_states(now);
            }
            Event::Ended(result) => {
                room.broadcast(&ServerMessage::End {
                    room: id.clone(),
                    result,
                });
                ended = true;
            }
        }
    }
    if ended {
        room.finished_at = Some(now);
        if let Some(stop) = room.engine.take() {
            stop.hang_up();
        }
    } else {
        start_engine(room_handle, room, state);
    }
}

/// Writes the room (or, once over, its finished game) to the database.
fn persist(room: &Room, state: &State) {
    let result = match room.referee.game_record() {
        Some(record) => state.database.finish_game(&record).map(|id| {
            log::info!("room {}: game {id} stored", room.referee.room);
        }),
        None => state.database.save_room(&room.referee.to_record()),
    };
    if let Err(error) = result {
        log::error!(
            "room {}: cannot write the database: {error:#}",
            room.referee.room
        );
    }
}

/// Starts Tabula's search when a seat it plays is to move and none runs.
fn start_engine(room_handle: &Arc<Mutex<Room>>, room: &mut Room, state: &Arc<State>) {
    if room.engine.is_some() || room.closed {
        return;
    }
    let Some((seat, level, ply)) = room.referee.engine_turn() else {
        return;
    };
    let stop = Arc::new(StopSignal::default());
    room.engine = Some(stop.clone());
    let game = room.referee.setup();
    let left = room.referee.clock.left(seat);
    let control = room.referee.clock.spec().map(|spec| spec.control());
    let room_handle = room_handle.clone();
    let state = state.clone();
    tokio::task::spawn_blocking(move || {
        let setup = EngineSetup {
            game,
            level,
            seat,
            left,
            control,
        };
        let found = engine_move(&state, &setup, stop.clone());
        let mut room = lock(&room_handle);
        if room
            .engine
            .as_ref()
            .is_some_and(|running| Arc::ptr_eq(running, &stop))
        {
            room.engine = None;
        }
        if room.closed || stop.is_hung_up() {
            return;
        }
        let now = Instant::now();
        let mv = match found {
            Ok(mv) => mv,
            Err(error) => {
                log::error!("room {}: Tabula found no move: {error}", room.referee.room);
                let view = room.referee.view(None, now);
                match view.legal.first() {
                    Some(mv) => mv.clone(),
                    None => return,
                }
            }
        };
        match room.referee.play_engine(seat, &mv, ply, now) {
            Ok(events) => apply(&room_handle, &mut room, events, &state),
            Err(_) => start_engine(&room_handle, &mut room, &state),
        }
    });
}

/// What Tabula needs to search a room's position.
struct EngineSetup {
    game: GameSetup,
    level: u8,
    seat: usize,
    left: Option<TimeLeft>,
    control: Option<crate::engine::clock::TimeControl>,
}

/// Tabula's move for a room: a session at the seat's level, on one thread of the shared budget,
/// with the seat's time left on its clock.
fn engine_move(
    state: &State,
    setup: &EngineSetup,
    stop: Arc<StopSignal>,
) -> Result<String, String> {
    let settings = Settings {
        level: setup.level,
        threads: 1,
        hash_megabytes: state.limits.seat_hash,
        info: InfoMode::Off,
        shared: Some(state.shared.clone()),
        ..Settings::default()
    };
    let mut session: Box<dyn Session> = match new_session(
        &setup.game.game,
        &setup.game.options,
        settings.clone(),
        stop.clone(),
        None,
    ) {
        Ok(session) => session,
        // The table budget is used up: search with a table of one bucket.
        Err(_) => {
            let game = games::create(&setup.game.game, &setup.game.options)
                .map_err(|error| error.to_string())?;
            session_for(game, settings, stop, Some(TranspositionTable::new(0)))
                .map_err(|error| error.to_string())?
        }
    };
    if let Some(position) = &setup.game.position {
        session
            .set_position(position)
            .map_err(|error| error.to_string())?;
    }
    for mv in &setup.game.moves {
        session.play(None, mv).map_err(|error| error.to_string())?;
    }
    if let (Some(control), Some(left)) = (setup.control, setup.left) {
        session.clock().set_control(Some(control));
        session.clock().set_left(setup.seat, left);
    }
    let found = session
        .search(&Request::new(Mode::Play { commit: false }), &mut |_| {})
        .map_err(|error| error.to_string())?;
    Ok(found.best().mv.clone())
}

/// A room client's place: the room it is in and its seat there.
struct Membership {
    room: String,
    handle: Arc<Mutex<Room>>,
    seat: Option<usize>,
}

/// Serves a room client until it goes: one JSON message per line, each answered or relayed.
pub async fn serve_client(mut connection: Connection, first: Option<Line>, state: Arc<State>) {
    let mut membership: Option<Membership> = None;
    let mut created = 0usize;
    let mut pending = first;
    loop {
        let line = match pending.take() {
            Some(line) => line,
            None => match connection.next_line().await {
                Some(line) => line,
                None => break,
            },
        };
        let Some(text) = line.text() else {
            let reason = if line.too_long {
                format!("line too long (over {} bytes)", state.limits.max_line)
            } else {
                "input is not valid UTF-8".to_string()
            };
            if !reply(&connection, &ServerMessage::error(reason)).await {
                break;
            }
            continue;
        };
        if text.trim().is_empty() {
            continue;
        }
        let message: ClientMessage = match serde_json::from_str(text) {
            Ok(message) => message,
            Err(error) => {
                let answer = ServerMessage::error(format!("malformed message: {error}"));
                if !reply(&connection, &answer).await {
                    break;
                }
                continue;
            }
        };
        let answers = handle(&connection, &mut membership, &mut created, message, &state);
        let mut gone = false;
        for answer in answers {
            if !reply(&connection, &answer).await {
                gone = true;
                break;
            }
        }
        if gone {
            break;
        }
    }
    if let Some(place) = membership.take() {
        leave(&place, connection.number, &state);
    }
}

async fn reply(connection: &Connection, message: &ServerMessage) -> bool {
    connection.send_line(&message.to_line()).await
}

/// Takes a connection out of its room; its seat becomes absent.
fn leave(place: &Membership, connection: u64, state: &Arc<State>) {
    let mut room = lock(&place.handle);
    room.members
        .retain(|member| member.connection != connection);
    if room.members.is_empty() {
        room.empty_since = Some(Instant::now());
    }
    if let Some(seat) = place.seat {
        let events = room.referee.disconnect(seat, Instant::now());
        if !events.is_empty() {
            apply(&place.handle, &mut room, events, state);
        }
    }
}

/// Adds a connection to a room (leaving the one it was in).
fn enter(
    connection: &Connection,
    membership: &mut Option<Membership>,
    room_id: &str,
    handle: &Arc<Mutex<Room>>,
    seat: Option<usize>,
    room: &mut Room,
) {
    room.members.push(Member {
        connection: connection.number,
        seat,
        outgoing: connection.outgoing.clone(),
        closing: connection.closing.clone(),
    });
    room.empty_since = None;
    *membership = Some(Membership {
        room: room_id.to_string(),
        handle: handle.clone(),
        seat,
    });
}

/// Answers one message. Relayed messages go out through the room; the answers returned go to
/// this client alone, after them.
fn handle(
    connection: &Connection,
    membership: &mut Option<Membership>,
    created: &mut usize,
    message: ClientMessage,
    state: &Arc<State>,
) -> Vec<ServerMessage> {
    let now = Instant::now();
    match message {
        ClientMessage::Ping => vec![ServerMessage::Pong],
        ClientMessage::Create {
            game,
            options,
            position,
            seats,
            time,
            grace_ms,
            absence,
            takeover_level,
        } => {
            if let Some(refusal) = room_limit_refusal(*created, state) {
                return vec![refusal];
            }
            let options = options
                .into_iter()
                .map(|(key, value)| {
                    let value = match value {
                        serde_json::Value::String(text) => text,
                        other => other.to_string(),
                    };
                    (key.to_ascii_lowercase(), value)
                })
                .collect::<Vec<_>>();
            // A client may not have the server read its files.
            if options.iter().any(|(key, _)| key == games::WEIGHTS) {
                return vec![ServerMessage::error(format!(
                    "{} names a file, which the server does not read for a client",
                    games::WEIGHTS
                ))];
            }
            let id = auth::random_token();
            let spec = RoomSpec {
                game,
                options,
                position,
                seats,
                time,
                grace: grace_ms.map_or(
                    Duration::from_secs(state.limits.grace),
                    Duration::from_millis,
                ),
                absence: absence.unwrap_or_default(),
                takeover_level: takeover_level.unwrap_or(DEFAULT_TAKEOVER_LEVEL),
            };
            let referee = match Referee::create(id.clone(), spec) {
                Ok(referee) => referee,
                Err(message) => return vec![ServerMessage::error(message)],
            };
            let room = Room::new(referee);
            persist(&room, state);
            lock(&state.rooms.map).insert(id.clone(), Arc::new(Mutex::new(room)));
            *created += 1;
            log::info!("connection {} created room {id}", connection.number);
            vec![ServerMessage::Created { room: id }]
        }
        ClientMessage::Join {
            room: id,
            seat,
            name,
        } => {
            let Some(handle) = state.rooms.get(&id) else {
                return vec![ServerMessage::error("unknown room")];
            };
            if let Some(place) = membership.take() {
                leave(&place, connection.number, state);
            }
            let mut room = lock(&handle);
            match room.referee.join(seat, &name, now) {
                Ok((seat, token, events)) => {
                    enter(connection, membership, &id, &handle, Some(seat), &mut room);
                    // The seat's holder hears of its seat and the room before the others move.
                    let joined = ServerMessage::Joined {
                        room: id.clone(),
                        seat,
                        token,
                    };
                    let _ = connection
                        .outgoing
                        .try_send(format!("{}\n", joined.to_line()));
                    let view = room.referee.view(Some(seat), now);
                    let _ = connection.outgoing.try_send(format!(
                        "{}\n",
                        ServerMessage::State(Box::new(view)).to_line()
                    ));
                    apply(&handle, &mut room, events, state);
                    Vec::new()
                }
                Err(message) => vec![ServerMessage::error(message)],
            }
        }
        ClientMessage::Resume {
            room: id,
            seat,
            token,
        } => {
            let Some(handle) = state.rooms.get(&id) else {
                return vec![ServerMessage::error("unknown room")];
            };
            if let Some(place) = membership.take() {
                leave(&place, connection.number, state);
            }
            let mut room = lock(&handle);
            match room.referee.resume(seat, &token) {
                Ok(events) => {
                    enter(connection, membership, &id, &handle, Some(seat), &mut room);
                    let view = room.referee.view(Some(seat), now);
                    let _ = connection.outgoing.try_send(format!(
                        "{}\n",
                        ServerMessage::State(Box::new(view)).to_line()
                    ));
                    apply(&handle, &mut room, events, state);
                    Vec::new()
                }
                Err(message) => vec![ServerMessage::error(message)],
            }
        }
        ClientMessage::Watch { room: id } => {
            let Some(handle) = state.rooms.get(&id) else {
                return vec![ServerMessage::error("unknown room")];
            };
            if let Some(place) = membership.take() {
                leave(&place, connection.number, state);
            }
            let mut room = lock(&handle);
            enter(connection, membership, &id, &handle, None, &mut room);
            vec![
                ServerMessage::Watching { room: id },
                ServerMessage::State(Box::new(room.referee.view(None, now))),
            ]
        }
        ClientMessage::Move { mv, ply } => {
            let Some(place) = membership.as_ref() else {
                return vec![ServerMessage::error("join a room first")];
            };
            let Some(seat) = place.seat else {
                return vec![ServerMessage::error("observers cannot move")];
            };
            let mut room = lock(&place.handle);
            match room.referee.play(seat, &mv, ply, now) {
                Ok(events) => {
                    apply(&place.handle, &mut room, events, state);
                    Vec::new()
                }
                Err(message) => vec![ServerMessage::error(message)],
            }
        }
        ClientMessage::Resign => {
            let Some(place) = membership.as_ref() else {
                return vec![ServerMessage::error("join a room first")];
            };
            let Some(seat) = place.seat else {
                return vec![ServerMessage::error("observers cannot resign")];
            };
            let mut room = lock(&place.handle);
            match room.referee.resign(seat, now) {
                Ok(events) => {
                    apply(&place.handle, &mut room, events, state);
                    Vec::new()
                }
                Err(message) => vec![ServerMessage::error(message)],
            }
        }
        ClientMessage::Leave => match membership.take() {
            Some(place) => {
                leave(&place, connection.number, state);
                vec![ServerMessage::Left { room: place.room }]
            }
            None => vec![ServerMessage::error("not in a room")],
        },
        ClientMessage::Rematch => rematch(connection, membership.as_ref(), created, state),
        ClientMessage::State => match membership.as_ref() {
            Some(place) => {
                let room = lock(&place.handle);
                vec![ServerMessage::State(Box::new(
                    room.referee.view(place.seat, now),
                ))]
            }
            None => vec![ServerMessage::error("not in a room")],
        },
    }
}

/// The refusal of a new room when this connection or the server has as many rooms as it may.
fn room_limit_refusal(created: usize, state: &State) -> Option<ServerMessage> {
    if created >= state.limits.rooms_per_connection {
        return Some(ServerMessage::error(format!(
            "a connection may create at most {} rooms",
            state.limits.rooms_per_connection
        )));
    }
    if state.rooms.count() >= state.limits.max_rooms {
        return Some(ServerMessage::error("too many rooms: try again later"));
    }
    None
}

/// A seat of a finished room asks for a rematch: a new room with the same set-up, seats turned
/// by one, announced to everyone in the finished room (once: a second request repeats it).
fn rematch(
    connection: &Connection,
    membership: Option<&Membership>,
    created: &mut usize,
    state: &Arc<State>,
) -> Vec<ServerMessage> {
    let Some(place) = membership else {
        return vec![ServerMessage::error("join a room first")];
    };
    if place.seat.is_none() {
        return vec![ServerMessage::error("observers cannot ask for a rematch")];
    }
    let mut room = lock(&place.handle);
    if room.finished_at.is_none() && !room.referee.is_finished() {
        return vec![ServerMessage::error(
            "a rematch can be asked for once the game is over",
        )];
    }
    if room.rematch.is_none() {
        if let Some(refusal) = room_limit_refusal(*created, state) {
            return vec![refusal];
        }
        let (spec, seats) = room.referee.rematch_spec();
        let id = auth::random_token();
        let referee = match Referee::create(id.clone(), spec) {
            Ok(referee) => referee,
            Err(message) => return vec![ServerMessage::error(message)],
        };
        let next = Room::new(referee);
        persist(&next, state);
        lock(&state.rooms.map).insert(id.clone(), Arc::new(Mutex::new(next)));
        *created += 1;
        log::info!(
            "connection {} created room {id}, a rematch of {}",
            connection.number,
            place.room
        );
        room.rematch = Some((id, seats));
    }
    let (next, seats) = room.rematch.clone().unwrap_or_default();
    room.broadcast(&ServerMessage::Rematch {
        room: place.room.clone(),
        next,
        seats,
    });
    Vec::new()
}

/// Clocks, grace periods, and the end of rooms nobody uses, until the runtime stops.
pub async fn tick(state: Arc<State>) {
    let mut interval = tokio::time::interval(TICK);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        interval.tick().await;
        let now = Instant::now();
        let wait = Duration::from_secs(state.limits.room_wait);
        let mut closed = Vec::new();
        for (id, handle) in state.rooms.all() {
            let mut room = lock(&handle);
            let events = room.referee.tick(now);
            if !events.is_empty() {
                apply(&handle, &mut room, events, &state);
            }
            let empty_for = room
                .empty_since
                .map(|since| now.saturating_duration_since(since));
            let over = room.finished_at.is_some()
                && empty_for.is_some_and(|empty| empty >= FINISHED_LINGER);
            let abandoned = room.referee.status == super::referee::Status::Waiting
                && empty_for.is_some_and(|empty| empty >= wait);
            if over || abandoned {
                room.closed = true;
                if let Some(stop) = room.engine.take() {
                    stop.hang_up();
                }
                if abandoned {
                    if let Err(error) = state.database.delete_room(&id) {
                        log::error!("room {id}: {error:#}");
                    }
                }
                closed.push(id);
            }
        }
        if !closed.is_empty() {
            let mut map = lock(&state.rooms.map);
            for id in closed {
                map.remove(&id);
            }
            drop(map);
            super::limits::release_memory();
        }
    }
}

/// Puts the rooms the database holds back in play; returns how many.
///
/// # Errors
/// The database cannot be read.
pub fn restore(state: &Arc<State>) -> anyhow::Result<usize> {
    let now = Instant::now();
    let mut count = 0;
    for record in state.database.load_rooms()? {
        match Referee::from_record(&record, now) {
            Ok(referee) => {
                let handle = Arc::new(Mutex::new(Room::new(referee)));
                {
                    let mut room = lock(&handle);
                    start_engine(&handle, &mut room, state);
                }
                lock(&state.rooms.map).insert(record.room.clone(), handle);
                count += 1;
            }
            Err(error) => log::warn!("room {} cannot resume: {error}", record.room),
        }
    }
    Ok(count)
}
