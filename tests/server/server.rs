//! `tabula serve` over loopback: engine sessions with their limits, rooms refereed to the end (a
//! six-seat Chinese Checkers room played by six remote engine clients with an observer), bad
//! input, authentication, and a server killed with SIGKILL and restarted.

use crate::netclient;

use netclient::{closes_within, wait_until, EngineClient, RoomClient};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tabula::engine::{new_session, Mode, Request, Session, Settings, StopSignal};
use tabula::server::{self, auth::Token, limits::ServerLimits, Config, Running};

fn temporary(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "tabula-server-{name}-{}",
        server::auth::random_token()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn start(name: &str, limits: ServerLimits, token: Option<Token>) -> Running {
    server::start(Config {
        listen: "127.0.0.1:0".parse().unwrap(),
        http: Some("127.0.0.1:0".parse().unwrap()),
        public: false,
        token,
        db: temporary(name).join("server.db"),
        limits,
    })
    .expect("the server starts")
}

fn small_limits() -> ServerLimits {
    ServerLimits {
        threads: 2,
        session_hash: 4,
        table_megabytes: 256,
        seat_hash: 2,
        ..ServerLimits::default()
    }
}

#[test]
fn an_engine_session_over_tcp_speaks_the_protocol_its_first_line_chooses() {
    let running = start("protocols", small_limits(), None);
    let mut gtp = EngineClient::connect(running.tcp);
    assert_eq!(gtp.must("name"), "Tabula");
    gtp.must("set_game gomoku size=9");
    gtp.must("set_option depth 2");
    let reply = gtp.must("genmove");
    assert!(reply.len() >= 2, "a move: {reply}");
    assert!(!gtp.ask("play zz").success);
    assert_eq!(gtp.must("game"), "gomoku size=9 rule=freestyle");
    // A client may not have the server read a file: the weights stay the built-in ones.
    let refused = gtp.ask("set_option weights /etc/hostname");
    assert!(
        !refused.success && refused.text.contains("may not read"),
        "{refused:?}"
    );
    assert!(!gtp.ask("set_game reversi weights=/etc/hostname").success);
    assert_eq!(gtp.must("get_option weights"), "default");
    assert_eq!(gtp.must("game"), "gomoku size=9 rule=freestyle");
    // A line over the server's cap is refused with its id; the session goes on.
    let long = format!("7 {}\n", "x".repeat(20 * 1024));
    gtp.try_send(long.as_bytes());
    let reply = gtp.reply().unwrap();
    assert!(
        !reply.success && reply.text.contains("line too long (over 16384 bytes)"),
        "{reply:?}"
    );
    gtp.try_send(b"5 play b \xff\xfe\n");
    let reply = gtp.reply().unwrap();
    assert!(!reply.success && reply.text.contains("UTF-8"), "{reply:?}");
    assert_eq!(gtp.must("protocol_version"), "2");
    gtp.send("quit");
    assert!(gtp.reply().unwrap().success);
    assert!(gtp.line().is_none(), "quit closes the connection");
    // Piskvork: the first line chooses it, as on stdin.
    let mut piskvork = EngineClient::connect(running.tcp);
    piskvork.send("START 15");
    let answer = piskvork.line().unwrap();
    assert!(
        !answer.is_empty(),
        "Piskvork answers START with a line: {answer}"
    );
    running.shutdown();
}

#[test]
fn a_client_gone_mid_search_frees_its_threads_and_its_session_at_once() {
    let running = start("gone", small_limits(), None);
    let state = running.state.clone();
    let mut client = EngineClient::connect(running.tcp);
    client.must("set_option movetime 0");
    client.must("set_option threads 8");
    client.send("genmove");
    assert!(
        wait_until(Duration::from_secs(20), || state.shared.threads.used() == 2),
        "the search takes the whole budget of 2 threads, not the 8 it asked for"
    );
    assert_eq!(state.session_count(), 1);
    let left = Instant::now();
    drop(client);
    assert!(
        wait_until(Duration::from_secs(5), || state.shared.threads.used() == 0
            && state.session_count() == 0
            && state.shared.table_megabytes.used() == 0),
        "threads {} sessions {} table {} MB",
        state.shared.threads.used(),
        state.session_count(),
        state.shared.table_megabytes.used()
    );
    let freed = left.elapsed();
    eprintln!("an unbounded search was freed {freed:?} after its client left");
    assert!(freed < Duration::from_secs(2), "freed after {freed:?}");
    running.shutdown();
}

#[test]
fn sessions_tables_and_lines_are_limited() {
    let limits = ServerLimits {
        max_sessions: 2,
        table_megabytes: 40,
        session_hash: 16,
        lines_per_second: 50,
        ..small_limits()
    };
    let running = start("limits", limits, None);
    let mut first = EngineClient::connect(running.tcp);
    let mut second = EngineClient::connect(running.tcp);
    assert_eq!(first.must("name"), "Tabula");
    assert_eq!(second.must("name"), "Tabula");
    let mut third = EngineClient::connect(running.tcp);
    third.send("name");
    let refused = third.reply().unwrap();
    assert!(
        !refused.success && refused.text.contains("server busy"),
        "{refused:?}"
    );
    // 32 MB of 40 are taken: a bigger table is refused and the old one stays.
    let bigger = first.ask("set_option hash 20");
    assert!(
        !bigger.success && bigger.text.contains("budget"),
        "{bigger:?}"
    );
    assert_eq!(first.must("get_option hash"), "16");
    first.must("set_option hash 8");
    second.must("set_option hash 16");
    // The rate limit paces a burst: 200 lines at 50 a second, after a burst of 100.
    let start = Instant::now();
    let burst: String = (0..200).map(|_| "protocol_version\n").collect();
    first.try_send(burst.as_bytes());
    for _ in 0..200 {
        assert_eq!(first.reply().unwrap().text, "2");
    }
    let paced = start.elapsed();
    eprintln!("200 lines at 50 lines/s took {paced:?}");
    assert!(paced >= Duration::from_millis(1500), "not paced: {paced:?}");
    running.shutdown();
}

#[test]
fn idle_and_half_open_connections_are_closed() {
    let limits = ServerLimits {
        idle_timeout: 2,
        ..small_limits()
    };
    let running = start("idle", limits, None);
    let mut silent = TcpStream::connect(running.tcp).unwrap();
    let mut partial = TcpStream::connect(running.tcp).unwrap();
    partial.write_all(b"genm").unwrap();
    let mut trickle = TcpStream::connect(running.tcp).unwrap();
    trickle.write_all(b"na").unwrap();
    let start = Instant::now();
    let trickler = std::thread::spawn(move || {
        // A byte a second never finishes a line: slowloris.
        for _ in 0..6 {
            std::thread::sleep(Duration::from_millis(900));
            if trickle.write_all(b"m").is_err() {
                return true;
            }
        }
        closes_within(&mut trickle, Duration::from_secs(3))
    });
    assert!(closes_within(&mut silent, Duration::from_secs(8)));
    assert!(closes_within(&mut partial, Duration::from_secs(8)));
    assert!(trickler.join().unwrap(), "a line that never ends is cut");
    eprintln!("idle connections closed after {:?}", start.elapsed());
    // A live session is unaffected.
    let mut live = EngineClient::connect(running.tcp);
    assert_eq!(live.must("name"), "Tabula");
    running.shutdown();
}

#[test]
fn a_token_is_required_when_the_server_has_one() {
    let token = Token::new("0123456789abcdef0123456789abcdef").unwrap();
    let running = start("token", small_limits(), Some(token));
    let mut stranger = EngineClient::connect(running.tcp);
    stranger.send("name");
    assert_eq!(
        stranger.line().unwrap(),
        "error authenticate first: auth TOKEN"
    );
    assert!(stranger.line().is_none(), "closed");
    let mut wrong = EngineClient::connect(running.tcp);
    wrong.send("auth 0123456789abcdef0123456789abcdee");
    assert_eq!(wrong.line().unwrap(), "error wrong token");
    let mut friend = EngineClient::connect(running.tcp);
    friend.send("auth 0123456789abcdef0123456789abcdef");
    assert_eq!(friend.line().unwrap(), "ok");
    assert_eq!(friend.must("name"), "Tabula");
    let mut room = RoomClient::connect(running.tcp);
    room.send_raw(b"auth 0123456789abcdef0123456789abcdef\n");
    room.request(json!({"type": "ping"}), "pong");
    // The records need the token too.
    let http = running.http.unwrap();
    assert!(get(http, "/api/players").starts_with("HTTP/1.1 401"));
    assert!(
        get(http, "/api/players?token=0123456789abcdef0123456789abcdef")
            .starts_with("HTTP/1.1 200")
    );
    running.shutdown();
    // Beyond loopback the server needs --public and a token.
    let refused = server::start(Config {
        listen: "0.0.0.0:0".parse().unwrap(),
        http: None,
        public: false,
        token: None,
        db: temporary("public").join("server.db"),
        limits: small_limits(),
    });
    assert!(refused.err().unwrap().to_string().contains("--public"));
    let refused = server::start(Config {
        listen: "127.0.0.1:0".parse().unwrap(),
        http: Some("0.0.0.0:0".parse().unwrap()),
        public: true,
        token: None,
        db: temporary("public").join("server.db"),
        limits: small_limits(),
    });
    assert!(refused.err().unwrap().to_string().contains("--token-file"));
}

/// A plain HTTP GET; the whole response.
fn get(address: SocketAddr, path: &str) -> String {
    let mut stream = TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response
}

fn body(response: &str) -> &str {
    response.split_once("\r\n\r\n").map_or("", |(_, body)| body)
}

#[test]
fn bad_room_requests_get_an_error_for_that_client_alone() {
    let running = start("bad-rooms", small_limits(), None);
    let mut alice = RoomClient::connect(running.tcp);
    let room = alice.create(
        "reversi",
        json!({}),
        json!([{"kind": "open"}, {"kind": "open"}]),
    );
    let joined = alice.request(
        json!({"type": "join", "room": room, "name": "alice"}),
        "joined",
    );
    let token = joined["token"].as_str().unwrap().to_string();
    let mut bob = RoomClient::connect(running.tcp);
    bob.request(
        json!({"type": "join", "room": room, "name": "bob"}),
        "joined",
    );
    let mut observer = RoomClient::connect(running.tcp);
    observer.request(json!({"type": "watch", "room": room}), "watching");
    let error = |client: &mut RoomClient, message: Value| {
        client.send(&message);
        client.expect("error")["message"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert!(error(&mut bob, json!({"type": "move", "move": "d3"})).contains("black's turn"));
    assert!(error(&mut alice, json!({"type": "move", "move": "a1"})).contains("illegal"));
    assert!(error(&mut alice, json!({"type": "move", "move": "zz9"})).contains("malformed"));
    assert!(error(&mut alice, json!({"type": "move", "move": "d3", "ply": 4})).contains("ply 4"));
    assert!(error(&mut observer, json!({"type": "move", "move": "d3"})).contains("observers"));
    assert!(error(&mut alice, json!({"type": "fly"})).contains("malformed message"));
    let weights =
        json!({"type": "create", "game": "reversi", "options": {"weights": "/etc/hostname"}});
    assert!(error(&mut alice, weights).contains("does not read"));
    alice.send_raw(b"{not json\n");
    assert!(alice.expect("error")["message"]
        .as_str()
        .unwrap()
        .contains("malformed"));
    alice.send_raw(b"{\"type\":\"ping\"\xff}\n");
    assert!(alice.expect("error")["message"]
        .as_str()
        .unwrap()
        .contains("UTF-8"));
    let huge = format!(
        "{{\"type\":\"ping\",\"x\":\"{}\"}}\n",
        "y".repeat(20 * 1024)
    );
    alice.send_raw(huge.as_bytes());
    assert!(alice.expect("error")["message"]
        .as_str()
        .unwrap()
        .contains("too long"));
    let mut stranger = RoomClient::connect(running.tcp);
    assert!(error(
        &mut stranger,
        json!({"type": "join", "room": "0123456789abcdef0123456789abcdef", "name": "eve"})
    )
    .contains("unknown room"));
    assert!(error(&mut stranger, json!({"type": "resume", "room": room, "seat": 0, "token": "0123456789abcdef0123456789abcdef"}))
        .contains("wrong seat or token"));
    assert!(
        error(
            &mut stranger,
            json!({"type": "resume", "room": room, "seat": 1, "token": token})
        )
        .contains("wrong seat or token"),
        "a token opens its own seat only"
    );
    assert!(error(
        &mut stranger,
        json!({"type": "join", "room": room, "name": "eve"})
    )
    .contains("no seat is open"));
    // After all that the game goes on, and everyone sees the move.
    alice.send(&json!({"type": "move", "move": "d3", "ply": 0}));
    for client in [&mut alice, &mut bob, &mut observer] {
        let moved = client.expect("move");
        assert_eq!(
            (moved["move"].as_str(), moved["seat"].as_u64()),
            (Some("d3"), Some(0))
        );
    }
    // A connection may create only so many rooms.
    let mut creator = RoomClient::connect(running.tcp);
    for _ in 0..8 {
        creator.create(
            "gomoku",
            json!({"size": 9}),
            json!([{"kind": "open"}, {"kind": "tabula", "level": 1}]),
        );
    }
    creator.send(&json!({"type": "create", "game": "gomoku"}));
    assert!(creator.expect("error")["message"]
        .as_str()
        .unwrap()
        .contains("at most 8 rooms"));
    running.shutdown();
}

/// A remote engine client: a Tabula session at a low level that follows the room's moves and
/// answers for its seat.
fn engine_player(address: SocketAddr, room: String, name: String) -> (usize, usize) {
    let mut client = RoomClient::connect(address);
    let joined = client.request(
        json!({"type": "join", "room": room, "name": name}),
        "joined",
    );
    let seat = joined["seat"].as_u64().unwrap() as usize;
    let settings = Settings {
        level: 1,
        depth: Some(1),
        threads: 1,
        hash_megabytes: 1,
        ..Settings::default()
    };
    let options = [("players".to_string(), "6".to_string())];
    let mut session: Box<dyn Session> = new_session(
        "chinese-checkers",
        &options,
        settings,
        Arc::new(StopSignal::default()),
        None,
    )
    .unwrap();
    let mut moves_made = 0;
    let mut plies = 0;
    let mut to_move = None;
    let mut answered = None;
    loop {
        let message = client.next().expect("the room goes on until its end");
        match message["type"].as_str() {
            Some("state") => {
                // The moves this client has not seen yet.
                let moves = message["moves"].as_array().unwrap();
                for record in &moves[plies..] {
                    session
                        .play(None, record["move"].as_str().unwrap())
                        .unwrap();
                }
                plies = moves.len();
                to_move = message["to_move"].as_u64();
            }
            Some("move") => {
                let ply = message["ply"].as_u64().unwrap() as usize;
                if ply > plies {
                    assert_eq!(ply, plies + 1, "seat {seat} misses no move");
                    session
                        .play(None, message["move"].as_str().unwrap())
                        .unwrap();
                    plies = ply;
                    assert_eq!(
                        session.position(),
                        message["position"].as_str().unwrap(),
                        "seat {seat} follows the game"
                    );
                }
                to_move = message["to_move"].as_u64();
            }
            Some("end") => return (seat, moves_made),
            Some("error") => panic!("seat {seat}: {message}"),
            _ => {}
        }
        let forced = session
            .legal_moves(None)
            .map(|moves| moves == ["pass"])
            .unwrap_or(false);
        if to_move == Some(seat as u64) && answered != Some(plies) && !forced {
            let found = session
                .search(&Request::new(Mode::Play { commit: false }), &mut |_| {})
                .unwrap();
            client.send(&json!({"type": "move", "move": found.best().mv, "ply": plies}));
            answered = Some(plies);
            moves_made += 1;
        }
    }
}

#[test]
fn six_remote_engines_play_a_chinese_checkers_room_to_the_end_with_an_observer() {
    let running = start("six", small_limits(), None);
    let address = running.tcp;
    let mut host = RoomClient::connect(address);
    let room = host.create("chinese-checkers", json!({"players": 6}), json!(null));
    let mut observer = RoomClient::connect(address);
    observer.request(json!({"type": "watch", "room": room}), "watching");
    let started = Instant::now();
    let players: Vec<_> = (0..6)
        .map(|index| {
            let room = room.clone();
            std::thread::spawn(move || engine_player(address, room, format!("engine-{index}")))
        })
        .collect();
    // The observer sees every move, in order, until the end.
    let mut seen = Vec::new();
    let result = loop {
        let message = observer.next().expect("the observer stays until the end");
        match message["type"].as_str() {
            Some("move") => {
                assert_eq!(
                    message["ply"].as_u64().unwrap() as usize,
                    seen.len() + 1,
                    "no move is missed"
                );
                seen.push(message["move"].as_str().unwrap().to_string());
            }
            Some("end") => break message["result"].clone(),
            _ => {}
        }
    };
    let mut seats: Vec<(usize, usize)> = players
        .into_iter()
        .map(|player| player.join().unwrap())
        .collect();
    seats.sort();
    assert_eq!(
        seats.iter().map(|(seat, _)| *seat).collect::<Vec<_>>(),
        vec![0, 1, 2, 3, 4, 5]
    );
    let engine_moves: usize = seats.iter().map(|(_, moves)| moves).sum();
    let elapsed = started.elapsed();
    eprintln!(
        "six-seat room: {} plies ({engine_moves} by the engines, the rest forced passes) in {elapsed:?}, result {}",
        seen.len(),
        result["text"]
    );
    let places: Vec<u64> = result["places"]
        .as_array()
        .unwrap()
        .iter()
        .map(|place| place.as_u64().unwrap())
        .collect();
    assert_eq!(places.len(), 6);
    assert!(places.contains(&1));
    // The record the server stored is the game the observer saw.
    let export = get(running.http.unwrap(), "/api/games.jsonl");
    let record: Value = serde_json::from_str(body(&export).lines().next().unwrap()).unwrap();
    let stored: Vec<String> = record["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|mv| mv.as_str().unwrap().to_string())
        .collect();
    assert_eq!(stored, seen);
    assert_eq!(record["game"], "chinese-checkers");
    assert_eq!(record["options"]["players"], "6");
    let players = get(running.http.unwrap(), "/api/players");
    let standings: Value = serde_json::from_str(body(&players)).unwrap();
    assert_eq!(standings.as_array().unwrap().len(), 6);
    running.shutdown();
}

/// The server binary, started on free ports, with its addresses.
struct ServerProcess {
    child: Child,
    tcp: SocketAddr,
    http: SocketAddr,
}

fn spawn_server(db: &std::path::Path) -> ServerProcess {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--http",
            "127.0.0.1:0",
            "--threads",
            "2",
            "--grace",
            "600",
        ])
        .arg("--db")
        .arg(db)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("tabula serve starts");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut address = |prefix: &str| -> SocketAddr {
        let line = lines.next().unwrap().unwrap();
        let rest = line
            .strip_prefix(prefix)
            .unwrap_or_else(|| panic!("'{line}'"));
        rest.trim_start_matches("http://")
            .trim_end_matches('/')
            .parse()
            .unwrap()
    };
    let tcp = address("engine sessions and rooms on ");
    let http = address("web board on ");
    // The server prints more (the database's path): read it all, so that a closed pipe never
    // makes the server fail to print.
    std::thread::spawn(move || lines.for_each(drop));
    ServerProcess { child, tcp, http }
}

fn to_move_of(view: &Value) -> Option<u64> {
    view["to_move"].as_u64()
}

/// The first state message of a game that has started.
fn playing_state(client: &mut RoomClient) -> Value {
    loop {
        let state = client.expect("state");
        if state["status"] == "playing" {
            return state;
        }
    }
}

/// Plays the first legal move for `seat` whenever it is to move, `count` times or to the end.
fn play_first_moves(client: &mut RoomClient, seat: usize, mut view: Value, count: usize) -> Value {
    let mut played = 0;
    loop {
        let forced_pass = view["legal"] == json!(["pass"]);
        if view["to_move"].as_u64() == Some(seat as u64) && played < count && !forced_pass {
            let mv = view["legal"][0].as_str().unwrap().to_string();
            let ply = view["ply"]
                .as_u64()
                .or_else(|| view["moves"].as_array().map(|moves| moves.len() as u64))
                .unwrap();
            client.send(&json!({"type": "move", "move": mv, "ply": ply}));
            played += 1;
        } else if played >= count || view["type"] == "end" {
            return view;
        }
        view = client.expect_either("move", "end");
        if view["type"] == "end" {
            return view;
        }
    }
}

#[test]
fn a_killed_server_keeps_every_finished_game_and_resumes_the_others() {
    let dir = temporary("restart");
    let db = dir.join("server.db");
    let mut server = spawn_server(&db);
    // A finished game between two remote players.
    let mut alice = RoomClient::connect(server.tcp);
    let finished_room = alice.create("reversi", json!({"size": 6}), json!(null));
    alice.request(
        json!({"type": "join", "room": finished_room, "name": "alice"}),
        "joined",
    );
    let mut bob = RoomClient::connect(server.tcp);
    bob.request(
        json!({"type": "join", "room": finished_room, "name": "bob"}),
        "joined",
    );
    let mut view = playing_state(&mut alice);
    let mut finished_moves = Vec::new();
    while let Some(to_move) = view["to_move"].as_u64() {
        let client = if to_move == 0 { &mut alice } else { &mut bob };
        let mv = view["legal"][0].as_str().unwrap().to_string();
        let ply = finished_moves.len();
        client.send(&json!({"type": "move", "move": mv, "ply": ply}));
        // Alice sees every move, forced passes included, and the end.
        loop {
            let message = alice.expect_either("move", "end");
            if message["type"] == "end" {
                view = message;
                break;
            }
            finished_moves.push(message["move"].as_str().unwrap().to_string());
            view = message;
            // The server plays a forced pass itself, right after.
            if view["legal"] != json!(["pass"]) {
                break;
            }
        }
        if view["type"] == "end" {
            break;
        }
    }
    if view["type"] != "end" {
        view = alice.expect("end");
    }
    assert_eq!(view["type"], "end", "the 6x6 game ends");
    let _ = to_move_of(&view);
    // Two games in progress: Gomoku against Tabula, and a three-seat Chinese Checkers room.
    let mut carol = RoomClient::connect(server.tcp);
    let gomoku_room = carol.create(
        "gomoku",
        json!({"size": 9}),
        json!([{"kind": "open"}, {"kind": "tabula", "level": 1}]),
    );
    let joined = carol.request(
        json!({"type": "join", "room": gomoku_room, "name": "carol"}),
        "joined",
    );
    let carol_token = joined["token"].as_str().unwrap().to_string();
    let state = carol.expect("state");
    let after = play_first_moves(&mut carol, 0, state, 3);
    // Wait for Tabula's third reply so the position is settled.
    let mut gomoku_plies = after["ply"].as_u64().unwrap_or(0);
    while gomoku_plies < 6 {
        gomoku_plies = carol.expect("move")["ply"].as_u64().unwrap();
    }
    let mut dave = RoomClient::connect(server.tcp);
    let halma_room = dave.create(
        "chinese-checkers",
        json!({"players": 3}),
        json!([{"kind": "open"}, {"kind": "tabula", "level": 1}, {"kind": "tabula", "level": 1}]),
    );
    let joined = dave.request(
        json!({"type": "join", "room": halma_room, "name": "dave"}),
        "joined",
    );
    let dave_token = joined["token"].as_str().unwrap().to_string();
    let state = dave.expect("state");
    play_first_moves(&mut dave, 0, state, 2);
    let mut halma_plies = 0;
    while halma_plies < 6 {
        halma_plies = dave.expect("move")["ply"].as_u64().unwrap();
    }
    // An engine session mid-search, too.
    let mut session = EngineClient::connect(server.tcp);
    session.must("set_option movetime 0");
    session.send("genmove");
    std::thread::sleep(Duration::from_millis(300));

    server.child.kill().unwrap(); // SIGKILL
    server.child.wait().unwrap();
    drop((alice, bob, carol, dave, session));

    let mut server = spawn_server(&db);
    let export = get(server.http, "/api/games.jsonl");
    let games: Vec<Value> = body(&export)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(games.len(), 1, "the finished game, once");
    assert_eq!(games[0]["room"], finished_room.as_str());
    let stored: Vec<String> = games[0]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|mv| mv.as_str().unwrap().to_string())
        .collect();
    let played: Vec<String> = finished_moves.clone();
    assert_eq!(stored, played);
    let standings: Value = serde_json::from_str(body(&get(server.http, "/api/players"))).unwrap();
    let names: Vec<&str> = standings
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, vec!["alice", "bob"]);
    assert_eq!(standings[0]["games"], 1);
    assert_eq!(
        standings[0]["wins"].as_u64().unwrap()
            + standings[0]["losses"].as_u64().unwrap()
            + standings[0]["draws"].as_u64().unwrap(),
        1
    );

    // The games in progress resume where they were, and play on to the end.
    let mut carol = RoomClient::connect(server.tcp);
    carol.send(&json!({"type": "resume", "room": gomoku_room, "seat": 0, "token": carol_token}));
    let state = carol.expect("state");
    assert_eq!(
        state["moves"].as_array().unwrap().len() as u64,
        gomoku_plies,
        "no move lost"
    );
    assert_eq!(state["status"], "playing");
    let end = play_first_moves(&mut carol, 0, state, usize::MAX);
    assert_eq!(end["type"], "end");
    let mut dave = RoomClient::connect(server.tcp);
    dave.send(&json!({"type": "resume", "room": halma_room, "seat": 0, "token": dave_token}));
    let state = dave.expect("state");
    assert_eq!(state["moves"].as_array().unwrap().len() as u64, halma_plies);
    assert_eq!(state["seats"][0]["name"], "dave");

    // The database file on disk has both finished games; the export command reads it.
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["serve", "--export", "-", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    let lines: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["room"], gomoku_room.as_str());

    // `tabula analyze` reads an exported game: one analysed position per move of the record.
    let exported = dir.join("gomoku.jsonl");
    std::fs::write(&exported, format!("{}\n", lines[1])).unwrap();
    let analysis = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args([
            "analyze", "--game", "gomoku", "-o", "size=9", "--depth", "1",
        ])
        .args(["--quiet", "--strict", "--jobs", "1", "--threads", "1"])
        .arg(&exported)
        .output()
        .unwrap();
    assert!(
        analysis.status.success(),
        "{}",
        String::from_utf8_lossy(&analysis.stderr)
    );
    let analysed: Vec<Value> = String::from_utf8(analysis.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let moves = lines[1]["moves"].as_array().unwrap();
    assert_eq!(analysed.len(), moves.len(), "{analysed:?}");
    assert_eq!(analysed[0]["played"], moves[0]);
    let _ = std::fs::remove_dir_all(dir);
}

/// Whether a documented message matches what the server sent: placeholders (`ROOM`,
/// `NAME-TOKEN`) bind to the random values the first time and must agree after, and `ms` is a
/// measured time.
fn documented(
    doc: &Value,
    actual: &Value,
    bindings: &mut std::collections::HashMap<String, String>,
) -> bool {
    match (doc, actual) {
        (Value::String(placeholder), Value::String(value))
            if placeholder == "ROOM" || placeholder.ends_with("-TOKEN") =>
        {
            bindings
                .entry(placeholder.clone())
                .or_insert_with(|| value.clone())
                == value
        }
        (Value::Object(doc), Value::Object(actual)) => {
            doc.len() == actual.len()
                && doc.iter().all(|(key, value)| {
                    actual.get(key).is_some_and(|other| {
                        (key == "ms" && other.is_u64()) || documented(value, other, bindings)
                    })
                })
        }
        (Value::Array(doc), Value::Array(actual)) => {
            doc.len() == actual.len()
                && doc
                    .iter()
                    .zip(actual)
                    .all(|(doc, actual)| documented(doc, actual, bindings))
        }
        _ => doc == actual,
    }
}

#[test]
fn the_documented_room_session_replays() {
    let text = include_str!("../../protocol.md");
    let section = text
        .split("### Example room session")
        .nth(1)
        .and_then(|rest| rest.split("\n### ").next())
        .expect("protocol.md has an example room session");
    let running = start("documented", small_limits(), None);
    let mut clients: std::collections::HashMap<String, RoomClient> = Default::default();
    let mut bindings = std::collections::HashMap::new();
    let mut checked = 0;
    for line in section.lines().filter_map(|line| line.strip_prefix("    ")) {
        if let Some((name, message)) = line.split_once("> ") {
            let mut message = message.to_string();
            for (placeholder, value) in &bindings {
                message = message.replace(&format!("\"{placeholder}\""), &format!("\"{value}\""));
            }
            let client = clients
                .entry(name.to_string())
                .or_insert_with(|| RoomClient::connect(running.tcp));
            client.send_raw(format!("{message}\n").as_bytes());
        } else if let Some((name, message)) = line.split_once("< ") {
            let doc: Value = serde_json::from_str(message).unwrap();
            let actual = clients
                .get_mut(name)
                .and_then(RoomClient::next)
                .unwrap_or_else(|| panic!("{name} gets {message}"));
            assert!(
                documented(&doc, &actual, &mut bindings),
                "{name}: documented\n{doc}\nbut the server sent\n{actual}"
            );
            checked += 1;
        } else if let Some(name) = line.strip_suffix(" closes") {
            clients.remove(name);
            std::thread::sleep(Duration::from_millis(200));
        } else if let Some(name) = line.strip_suffix(" connects") {
            clients.insert(name.to_string(), RoomClient::connect(running.tcp));
        } else {
            panic!("unreadable example line: {line}");
        }
    }
    assert!(
        checked > 30,
        "the example was replayed ({checked} messages)"
    );
    running.shutdown();
}

/// Regression: a session that starts when the server's shared table memory has just been used
/// up (by others, between the server's check and the session's start) used to panic its thread
/// ("8x8 Reversi with the default table always exists"), leaving its client without an answer.
/// Now each protocol answers in its own error form and the session ends.
#[test]
fn a_session_without_table_memory_is_told_the_server_is_busy() {
    use tabula::base::budget::SharedLimits;
    use tabula::protocol::{input::ReaderLimits, output::Captured, serve_with};
    for (first, expected) in [
        ("name\n", "? server busy: "),
        ("START 15\n", "ERROR server busy: "),
        ("nboard 2\n", "status server busy: "),
    ] {
        let captured = Captured::default();
        let settings = Settings {
            hash_megabytes: 4,
            shared: Some(SharedLimits::new(1, 0)),
            ..Settings::default()
        };
        serve_with(
            std::io::Cursor::new(first.as_bytes().to_vec()),
            captured.output(),
            settings,
            None,
            Arc::new(StopSignal::default()),
            ReaderLimits::default(),
        );
        let reply = captured.take();
        assert!(reply.starts_with(expected), "{first:?} answered {reply:?}");
    }
}

#[test]
fn a_finished_room_offers_a_rematch_with_the_seats_turned() {
    let running = start("rematch", small_limits(), None);
    let mut alice = RoomClient::connect(running.tcp);
    let room = alice.create(
        "gomoku",
        json!({"size": 9}),
        json!([{"kind": "open"}, {"kind": "open"}]),
    );
    alice.request(
        json!({"type": "join", "room": room, "name": "alice"}),
        "joined",
    );
    let mut bob = RoomClient::connect(running.tcp);
    bob.request(
        json!({"type": "join", "room": room, "name": "bob"}),
        "joined",
    );
    let mut observer = RoomClient::connect(running.tcp);
    observer.request(json!({"type": "watch", "room": room}), "watching");
    let error = |client: &mut RoomClient, message: Value| {
        client.send(&message);
        client.expect("error")["message"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let mut stranger = RoomClient::connect(running.tcp);
    assert!(error(&mut stranger, json!({"type": "rematch"})).contains("join a room first"));
    assert!(error(&mut alice, json!({"type": "rematch"})).contains("once the game is over"));
    alice.request(json!({"type": "resign"}), "end");
    assert!(error(&mut observer, json!({"type": "rematch"})).contains("observers"));
    bob.send(&json!({"type": "rematch"}));
    let mut next = String::new();
    for client in [&mut alice, &mut bob, &mut observer] {
        let rematch = client.expect("rematch");
        assert_eq!(rematch["room"], json!(room));
        assert_eq!(rematch["seats"], json!([1, 0]), "black and white swap");
        next = rematch["next"].as_str().unwrap().to_string();
    }
    assert_ne!(next, room);
    // Asking again announces the same room.
    alice.send(&json!({"type": "rematch"}));
    assert_eq!(alice.expect("rematch")["next"], json!(next));
    // Each takes the seat the message gives; the new room starts with bob as black.
    alice.request(
        json!({"type": "join", "room": next, "seat": 1, "name": "alice"}),
        "joined",
    );
    bob.request(
        json!({"type": "join", "room": next, "seat": 0, "name": "bob"}),
        "joined",
    );
    let state = loop {
        let state = bob.expect("state");
        if state["room"] == json!(next) && state["status"] == "playing" {
            break state;
        }
    };
    assert_eq!(state["seats"][0]["name"], json!("bob"));
    assert_eq!(state["seats"][1]["name"], json!("alice"));
    assert_eq!(state["options"]["size"], json!("9"));
    running.shutdown();
}
