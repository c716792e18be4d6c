//! Load: 32 clients at once on one server in this process — engine sessions and rooms playing,
//! with floods, garbage, half-open connections and clients that vanish mid-search. The server
//! stays up, the well-behaved clients get every answer right, and once everyone has left the
//! process has as many threads as before and no more memory than it settles at (measured from
//! /proc/self, over two waves). Its own test binary, so no other test's threads are counted.
//!
//! `TABULA_LOAD_SCALE=K` runs K times as many clients of each kind per wave (32·K in all);
//! `scripts/bench/server-load.sh` uses it for heavier runs than `cargo test` should make.

// The load test uses only part of the shared clients; the rest serves the tests in tests/server/.
#[allow(dead_code)]
#[path = "support/netclient.rs"]
mod netclient;

use netclient::{closes_within, wait_until, EngineClient, RoomClient};
use serde_json::json;
use std::io::Write;
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tabula::server::{self, limits::ServerLimits, Config};

/// Moves played over the whole wave, by engines and room players.
static MOVES: AtomicUsize = AtomicUsize::new(0);

/// When the last game (engine session or room) of the wave ended, in ms from the wave's start.
static GAMES_DONE_MS: AtomicUsize = AtomicUsize::new(0);

fn game_done(start: Instant) {
    GAMES_DONE_MS.fetch_max(start.elapsed().as_millis() as usize, Ordering::Relaxed);
}

/// An engine session playing both sides of a short game at level 1.
fn engine_game(address: SocketAddr, index: usize) {
    let mut client = EngineClient::connect(address);
    let game = match index % 3 {
        0 => "reversi",
        1 => "gomoku size=9",
        _ => "chinese-checkers players=3",
    };
    client.must(&format!("set_game {game}"));
    client.must(&format!("set_option level {}", 1 + index % 3));
    for _ in 0..24 {
        if client.must("legal_moves").is_empty() {
            break;
        }
        let mv = client.must("genmove");
        assert!(!mv.is_empty());
        MOVES.fetch_add(1, Ordering::Relaxed);
    }
    assert!(!client.must("moves").is_empty());
    client.send("quit");
    let _ = client.reply();
}

/// One side of a two-seat room: plays the first legal move whenever it is to move.
fn room_player(address: SocketAddr, room: String, name: String) {
    let mut client = RoomClient::connect(address);
    client.request(
        json!({"type": "join", "room": room, "name": name}),
        "joined",
    );
    let mut view = loop {
        let state = client.expect("state");
        if state["status"] == "playing" {
            break state;
        }
    };
    let seat = client_seat(&view);
    let mut plies = view["moves"].as_array().unwrap().len();
    loop {
        if view["to_move"].as_u64() == Some(seat) && view["legal"] != json!(["pass"]) {
            let mv = view["legal"][0].as_str().unwrap().to_string();
            client.send(&json!({"type": "move", "move": mv, "ply": plies}));
            MOVES.fetch_add(1, Ordering::Relaxed);
        }
        view = client.expect_either("move", "end");
        if view["type"] == "end" {
            return;
        }
        plies = view["ply"].as_u64().unwrap() as usize;
    }
}

fn client_seat(state: &serde_json::Value) -> u64 {
    state["you"].as_u64().expect("a seat")
}

/// Floods an engine session with lines, then reads every answer (or vanishes without reading).
fn flood(address: SocketAddr, read_answers: bool) {
    let mut client = EngineClient::connect(address);
    let burst: String = (0..1500)
        .map(|index| {
            if index % 2 == 0 {
                "name\n"
            } else {
                "frobnicate\n"
            }
        })
        .collect();
    client.try_send(burst.as_bytes());
    if read_answers {
        for index in 0..1500 {
            let reply = client.reply().expect("every flooded line is answered");
            assert_eq!(reply.success, index % 2 == 0);
        }
        assert_eq!(client.must("name"), "Tabula");
    }
}

/// Garbage: bytes that are not UTF-8, a line far over the cap, a room client's broken JSON; the
/// connection then still works.
fn garbage(address: SocketAddr, index: usize) {
    if index == 0 {
        let mut room = RoomClient::connect(address);
        room.send_raw(b"{\"type\": \"join\", \"room\": \n");
        assert_eq!(room.expect("error")["type"], "error");
        room.send_raw(b"{\xff\xfe}\n");
        room.expect("error");
        room.request(json!({"type": "ping"}), "pong");
        return;
    }
    let mut client = EngineClient::connect(address);
    let mut noise: Vec<u8> = (0..4000u32).map(|byte| (byte * 7919 % 251) as u8).collect();
    noise.retain(|&byte| byte != b'\n');
    noise.push(b'\n');
    client.try_send(&noise);
    assert!(!client.reply().unwrap().success);
    let huge = vec![b'z'; 200 * 1024];
    client.try_send(&huge);
    client.try_send(b"\n");
    assert!(client.reply().unwrap().text.contains("too long"));
    assert_eq!(client.must("name"), "Tabula");
}

/// Half-open: a connection that sends half a line, or nothing, and never more.
fn half_open(address: SocketAddr, index: usize) {
    let mut stream = TcpStream::connect(address).unwrap();
    if index.is_multiple_of(2) {
        stream.write_all(b"set_game rev").unwrap();
    }
    assert!(
        closes_within(&mut stream, Duration::from_secs(20)),
        "the server closes it"
    );
}

/// Vanishes in the middle of a search without limits.
fn vanish(address: SocketAddr) {
    let mut client = EngineClient::connect(address);
    client.must("set_game gomoku");
    client.must("set_option movetime 0");
    client.send("genmove");
    std::thread::sleep(Duration::from_millis(400));
    drop(client);
}

/// What one wave measured.
struct Wave {
    moves: usize,
    games: Duration,
    total: Duration,
    peak_threads: usize,
    peak_kilobytes: u64,
}

/// How many times the 32 clients of a wave are multiplied (`TABULA_LOAD_SCALE`, 1 by default).
fn scale() -> usize {
    std::env::var("TABULA_LOAD_SCALE")
        .ok()
        .and_then(|value| value.parse().ok())
        .filter(|&scale| scale >= 1)
        .unwrap_or(1)
}

fn wave(address: SocketAddr) -> Wave {
    let scale = scale();
    MOVES.store(0, Ordering::Relaxed);
    GAMES_DONE_MS.store(0, Ordering::Relaxed);
    let start = Instant::now();
    let sampling = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let sampler = {
        let sampling = sampling.clone();
        std::thread::spawn(move || {
            let (mut peak_threads, mut peak_kilobytes) = (0, 0);
            while sampling.load(Ordering::Relaxed) {
                peak_threads = peak_threads.max(threads());
                peak_kilobytes = peak_kilobytes.max(resident_kilobytes());
                std::thread::sleep(Duration::from_millis(20));
            }
            (peak_threads, peak_kilobytes)
        })
    };
    let mut clients = Vec::new();
    // 12 engine sessions playing.
    for index in 0..12 * scale {
        clients.push(std::thread::spawn(move || {
            engine_game(address, index);
            game_done(start);
        }));
    }
    // 4 rooms, 8 remote players.
    let mut host = RoomClient::connect(address);
    for index in 0..4 * scale {
        let (game, options) = if index % 2 == 0 {
            ("reversi", json!({"size": 6}))
        } else {
            ("gomoku", json!({"size": 7}))
        };
        let room = host.create(game, options, json!(null));
        for seat in 0..2 {
            let room = room.clone();
            clients.push(std::thread::spawn(move || {
                room_player(address, room, format!("player-{index}-{seat}"))
            }));
        }
    }
    drop(host);
    // 3 floods, 3 garbage, 3 half-open, 3 vanishing mid-search.
    for index in 0..3 * scale {
        clients.push(std::thread::spawn(move || flood(address, index % 3 != 2)));
        clients.push(std::thread::spawn(move || garbage(address, index % 3)));
        clients.push(std::thread::spawn(move || half_open(address, index)));
        clients.push(std::thread::spawn(move || vanish(address)));
    }
    assert_eq!(clients.len(), 32 * scale);
    for client in clients {
        client.join().expect("every client finishes as expected");
    }
    let total = start.elapsed();
    sampling.store(false, Ordering::Relaxed);
    let (peak_threads, peak_kilobytes) = sampler.join().unwrap();
    Wave {
        moves: MOVES.load(Ordering::Relaxed),
        games: Duration::from_millis(GAMES_DONE_MS.load(Ordering::Relaxed) as u64),
        total,
        peak_threads,
        peak_kilobytes,
    }
}

#[test]
#[ignore = "slow tier: a load test with wall-clock bounds"]
fn thirty_two_clients_at_once_leave_no_thread_and_no_memory_behind() {
    let dir = std::env::temp_dir().join(format!("tabula-load-{}", server::auth::random_token()));
    let running = server::start(Config {
        listen: "127.0.0.1:0".parse().unwrap(),
        http: None,
        public: false,
        token: None,
        db: dir.join("server.db"),
        limits: ServerLimits {
            threads: 2,
            session_hash: 4,
            seat_hash: 2,
            table_megabytes: 256 * scale(),
            idle_timeout: 3,
            lines_per_second: 2000,
            max_sessions: 32 * scale(),
            max_connections: 256 * scale(),
            max_rooms: 500 * scale(),
            rooms_per_connection: 8 * scale(),
            ..ServerLimits::default()
        },
    })
    .unwrap();
    let state = running.state.clone();
    let address = running.tcp;
    let settled = |state: &Arc<server::State>| {
        wait_until(Duration::from_secs(30), || {
            state.session_count() == 0
                && state.shared.threads.used() == 0
                && state.shared.table_megabytes.used() == 0
        })
    };
    // Idle threads of the runtime's blocking pool retire after 2 s.
    let quiet = || std::thread::sleep(Duration::from_secs(4));
    quiet();
    let threads_before = threads();
    let memory_before = resident_kilobytes();
    let first = wave(address);
    assert!(
        settled(&state),
        "every session, thread and table is given back"
    );
    quiet();
    let threads_after = threads();
    let memory_after = resident_kilobytes();
    let second = wave(address);
    assert!(settled(&state));
    quiet();
    let threads_final = threads();
    let memory_final = resident_kilobytes();
    let describe = |wave: &Wave| {
        format!(
            "{} moves in {:.1?} of games ({:.0} moves/s; the wave {:.1?} with the idle cuts), peak {} threads, {} kB",
            wave.moves,
            wave.games,
            wave.moves as f64 / wave.games.as_secs_f64(),
            wave.total,
            wave.peak_threads,
            wave.peak_kilobytes
        )
    };
    eprintln!(
        "load: {} clients per wave ({} engine sessions, {} room players in {} rooms, {} floods, {} garbage, {} half-open, {} gone mid-search)\n\
         wave 1: {}\nwave 2: {}\n\
         threads: {threads_before} before, {threads_after} after wave 1, {threads_final} after wave 2\n\
         resident memory: {memory_before} kB before, {memory_after} kB after wave 1, {memory_final} kB after wave 2",
        32 * scale(),
        12 * scale(),
        8 * scale(),
        4 * scale(),
        3 * scale(),
        3 * scale(),
        3 * scale(),
        3 * scale(),
        describe(&first),
        describe(&second)
    );
    // The server still serves.
    let mut probe = EngineClient::connect(address);
    assert_eq!(probe.must("name"), "Tabula");
    drop(probe);
    assert!(
        threads_after <= threads_before,
        "threads: {threads_before} -> {threads_after}"
    );
    assert!(
        threads_final <= threads_before,
        "threads: {threads_before} -> {threads_final}"
    );
    // The first wave may warm allocator arenas up; the second must not grow memory further.
    assert!(
        memory_after < memory_before + 96 * 1024,
        "{memory_before} -> {memory_after} kB"
    );
    assert!(
        memory_final < memory_after + 32 * 1024,
        "{memory_after} -> {memory_final} kB"
    );
    running.shutdown();
    let _ = std::fs::remove_dir_all(dir);
}

/// Threads of this process, from /proc/self.
pub fn threads() -> usize {
    std::fs::read_dir("/proc/self/task").map_or(0, |tasks| tasks.count())
}

/// Resident memory of this process in kB, from /proc/self.
pub fn resident_kilobytes() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|line| line.starts_with("VmRSS:"))
        .and_then(|line| line.split_whitespace().nth(1))
        .and_then(|value| value.parse().ok())
        .unwrap_or(0)
}
