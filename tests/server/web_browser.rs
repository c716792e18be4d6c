//! The web board in a real browser: headless Chromium driven over WebDriver (chromedriver)
//! loads the page, plays a whole Reversi game against Tabula by clicking, shows a renju position
//! with black's forbidden points, joins a Chinese Checkers room by its link and moves a piece
//! there, and takes screenshots of each board (into `target/screenshots`, or the folder in
//! `TABULA_SCREENSHOTS`).
//!
//! Needs `chromium` and `chromedriver` (Debian's `chromium` and `chromium-driver`; `.ci/run`
//! installs both). Without them the test fails, unless `TABULA_SKIP_BROWSER=1` is set: then it
//! says it is skipped and passes (for a developer machine; `.ci/run` unsets it). Linux only (the
//! browser's process group is killed through `libc`).
#![cfg(target_os = "linux")]

use crate::netclient;

use fantoccini::{key::Key, Client, ClientBuilder, Locator};
use netclient::RoomClient;
use serde_json::{json, Value};
use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tabula::server::{self, limits::ServerLimits, Config};

fn find(program: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")?
        .to_str()?
        .split(':')
        .map(|dir| Path::new(dir).join(program))
        .find(|path| path.is_file())
}

/// chromedriver in a process group of its own, with the browsers it starts: dropping it (also
/// when the test fails partway and never closes its WebDriver session) kills the whole group, so
/// no headless Chromium is left behind.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        if let Ok(group) = i32::try_from(self.0.id()) {
            // Safety: a plain system call on the group this test created (its leader's id).
            unsafe {
                libc::kill(-group, libc::SIGKILL);
            }
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

async fn connect(port: u16, profile: &Path) -> Client {
    let chromium = find("chromium").expect("chromium");
    let capabilities = json!({
        "goog:chromeOptions": {
            "binary": chromium,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1100,900",
                format!("--user-data-dir={}", profile.display()),
            ]
        }
    });
    let capabilities = match capabilities {
        Value::Object(map) => map,
        _ => unreachable!(),
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        match ClientBuilder::new(connector)
            .capabilities(capabilities.clone())
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
        {
            Ok(client) => return client,
            Err(error) if Instant::now() < deadline => {
                eprintln!("waiting for chromedriver: {error}");
                tokio::time::sleep(Duration::from_millis(300)).await;
            }
            Err(error) => panic!("chromedriver: {error}"),
        }
    }
}

async fn script(client: &Client, code: &str) -> Value {
    client.execute(code, vec![]).await.expect("the script runs")
}

/// Waits until `code` returns true.
async fn until(client: &Client, code: &str, limit: Duration, what: &str) {
    let deadline = Instant::now() + limit;
    loop {
        if script(client, code).await == Value::Bool(true) {
            return;
        }
        if Instant::now() > deadline {
            let status = script(
                client,
                "return document.getElementById('status').textContent",
            )
            .await;
            panic!("timed out waiting for {what}; status: {status}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn status(client: &Client) -> String {
    script(
        client,
        "return document.getElementById('status').textContent",
    )
    .await
    .as_str()
    .unwrap_or("")
    .to_string()
}

async fn screenshot(client: &Client, folder: &Path, name: &str) {
    let png = client.screenshot().await.expect("a screenshot");
    assert!(png.starts_with(b"\x89PNG"), "a PNG");
    std::fs::write(folder.join(name), png).unwrap();
}

async fn choose(client: &Client, select: &str, value: &str) {
    let code = format!(
        "const s = document.getElementById('{select}'); s.value = '{value}'; s.dispatchEvent(new Event('change')); return s.value === '{value}';"
    );
    assert_eq!(
        script(client, &code).await,
        Value::Bool(true),
        "{select} = {value}"
    );
}

async fn click(client: &Client, css: &str) {
    client
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|error| panic!("{css}: {error}"))
        .click()
        .await
        .unwrap_or_else(|error| panic!("clicking {css}: {error}"));
}

#[test]
#[ignore = "slow tier: drives a real browser"]
fn the_web_board_plays_reversi_shows_renju_and_joins_a_chinese_checkers_room() {
    let (Some(_), Some(chromedriver)) = (find("chromium"), find("chromedriver")) else {
        let skip = std::env::var("TABULA_SKIP_BROWSER").is_ok_and(|value| value == "1");
        assert!(
            skip,
            "chromium or chromedriver is missing: install them (apt-get install chromium chromium-driver), \
             or set TABULA_SKIP_BROWSER=1 to skip this test"
        );
        eprintln!("skipped (TABULA_SKIP_BROWSER=1): chromium or chromedriver is not installed");
        return;
    };
    let folder = std::env::var_os("TABULA_SCREENSHOTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/screenshots"));
    std::fs::create_dir_all(&folder).unwrap();
    let scratch =
        std::env::temp_dir().join(format!("tabula-browser-{}", server::auth::random_token()));
    std::fs::create_dir_all(&scratch).unwrap();
    let running = server::start(Config {
        listen: "127.0.0.1:0".parse().unwrap(),
        http: Some("127.0.0.1:0".parse().unwrap()),
        public: false,
        token: None,
        db: scratch.join("server.db"),
        limits: ServerLimits {
            threads: 2,
            session_hash: 4,
            seat_hash: 2,
            table_megabytes: 256,
            ..ServerLimits::default()
        },
    })
    .unwrap();
    let page = format!("http://{}/", running.http.unwrap());
    let port = free_port();
    let _driver = Driver(
        Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .process_group(0)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts"),
    );
    let tcp = running.tcp;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let client = connect(port, &scratch.join("profile")).await;

        // Reversi against Tabula, by clicking legal-move marks until the game ends.
        client.goto(&page).await.unwrap();
        until(&client, "return document.querySelectorAll('[data-legal]').length > 0", Duration::from_secs(30), "the first legal moves").await;
        choose(&client, "level", "1").await;
        click(&client, "#new-game").await;
        until(&client, "return document.body.dataset.moves === '0' && document.querySelectorAll('[data-legal]').length === 4", Duration::from_secs(30), "a new game").await;
        let started = Instant::now();
        let mut clicks = 0;
        let mut shot = false;
        loop {
            if script(&client, "return document.body.dataset.over === 'yes'").await == Value::Bool(true) {
                break;
            }
            let marks = client.find_all(Locator::Css("[data-legal]")).await.unwrap();
            if marks.is_empty() {
                tokio::time::sleep(Duration::from_millis(100)).await;
                assert!(started.elapsed() < Duration::from_secs(240), "the game ends; status {}", status(&client).await);
                continue;
            }
            let before: String = script(&client, "return document.body.dataset.moves").await.as_str().unwrap().to_string();
            // The page redraws the board on every message (a late `info` line, say), which may
            // replace a mark between finding it and clicking it: look again then.
            if marks[0].click().await.is_err() {
                continue;
            }
            clicks += 1;
            let changed = format!("return document.body.dataset.moves !== '{before}'");
            until(&client, &changed, Duration::from_secs(30), "the move to be played").await;
            if clicks == 8 && !shot {
                // Mid-game, with Tabula's reply drawn: legal-move marks and the flipped discs.
                until(&client, "return document.querySelectorAll('[data-legal]').length > 0 || document.body.dataset.over === 'yes'", Duration::from_secs(30), "Tabula's reply").await;
                client.find(Locator::Css("#hint")).await.unwrap().click().await.unwrap();
                until(&client, "return document.getElementById('hint-text').textContent !== '–'", Duration::from_secs(30), "a hint").await;
                screenshot(&client, &folder, "reversi.png").await;
                shot = true;
            }
        }
        let final_status = status(&client).await;
        eprintln!("Reversi against Tabula level 1: {clicks} clicks, {:?}; {final_status}", started.elapsed());
        assert!(final_status.starts_with("Game over"), "{final_status}");
        let record = script(&client, "return document.getElementById('record-text').value").await;
        assert!(record.as_str().unwrap().starts_with("reversi size=8"), "{record}");
        // Undo against the engine takes back to the player's turn.
        click(&client, "#undo").await;
        until(&client, "return document.body.dataset.over === 'no' && document.querySelectorAll('[data-legal]').length > 0", Duration::from_secs(30), "undo").await;
        // Keyboard: the first arrow puts the cursor on the middle square (e5 on 8x8), arrows
        // move it (rows count down the screen), Enter plays where it is if legal.
        let legal = script(&client, "return [...document.querySelectorAll('[data-legal]')].map(e => e.dataset.legal)").await;
        let target = legal[0].as_str().expect("a legal move").to_string();
        let column = i64::from(target.as_bytes()[0] - b'a');
        let row: i64 = target[1..].parse::<i64>().unwrap() - 1;
        assert!(!script(&client, "return document.getElementById('record-text').value").await.as_str().unwrap().contains(&target));
        script(&client, "document.getElementById('board').focus(); return true").await;
        let board = client.find(Locator::Id("board")).await.unwrap();
        let mut keys = Key::Down.to_string();
        let (across, down) = (column - 4, row - 4);
        let horizontal = if across < 0 { Key::Left } else { Key::Right };
        let vertical = if down < 0 { Key::Up } else { Key::Down };
        for _ in 0..across.abs() {
            keys.push(horizontal.into());
        }
        for _ in 0..down.abs() {
            keys.push(vertical.into());
        }
        board.send_keys(&keys).await.unwrap();
        let label = script(&client, "return document.getElementById('board').getAttribute('aria-label')").await;
        assert_eq!(label, json!(format!("Board, cursor on {target}, legal")));
        let before = script(&client, "return document.body.dataset.moves").await;
        board.send_keys(&Key::Enter.to_string()).await.unwrap();
        until(&client, &format!("return document.body.dataset.moves !== {before}"), Duration::from_secs(30), "the move played from the keyboard").await;
        let record = script(&client, "return document.getElementById('record-text').value").await;
        assert!(record.as_str().unwrap().contains(&target), "{target} in {record}");
        eprintln!("played {target} from the keyboard");
        until(&client, "return document.querySelectorAll('[data-legal]').length > 0 || document.body.dataset.over === 'yes'", Duration::from_secs(30), "Tabula's reply").await;

        // New game while Tabula thinks: level 8 (a second a move) plays black's first move, and
        // New game as black stops it; the new game starts from the first position with black's
        // four legal moves (a click that waited for Tabula's move would leave one move played).
        choose(&client, "level", "8").await;
        choose(&client, "human-seat", "1").await;
        click(&client, "#new-game").await;
        until(&client, "return document.getElementById('status').textContent.includes('thinking')", Duration::from_secs(30), "Tabula thinking as black").await;
        choose(&client, "human-seat", "0").await;
        let asked = Instant::now();
        click(&client, "#new-game").await;
        until(&client, "return document.body.dataset.moves === '0' && document.querySelectorAll('[data-legal]').length === 4", Duration::from_secs(30), "a new game while Tabula thought").await;
        eprintln!("New game while Tabula thought: started after {:?}", asked.elapsed());
        choose(&client, "level", "1").await;

        // Gomoku under renju: a loaded position with black's forbidden points.
        choose(&client, "game", "gomoku").await;
        choose(&client, "gomoku-rule", "renju").await;
        choose(&client, "level", "2").await;
        click(&client, "#new-game").await;
        until(&client, "return document.body.dataset.game === 'gomoku'", Duration::from_secs(30), "a Gomoku game").await;
        let input = client.find(Locator::Id("position-text")).await.unwrap();
        input.clear().await.unwrap();
        input.send_keys("h9a1h10a3i8a5j8a7").await.unwrap();
        click(&client, "#load-position").await;
        until(&client, "return document.querySelectorAll('[data-forbidden]').length > 0", Duration::from_secs(30), "renju forbidden points").await;
        let forbidden = script(&client, "return [...document.querySelectorAll('[data-forbidden]')].map(e => e.dataset.forbidden)").await;
        assert!(forbidden.as_array().unwrap().contains(&json!("h8")), "{forbidden}");
        screenshot(&client, &folder, "gomoku.png").await;

        // A six-seat Chinese Checkers room: created over TCP with five Tabula seats, joined by
        // its link, and played until the board shows a chain of hops.
        let mut host = RoomClient::connect(tcp);
        let tabula = json!({"kind": "tabula", "level": 2});
        let room = host.create(
            "chinese-checkers",
            json!({"players": 6}),
            json!([{"kind": "open"}, tabula, tabula, tabula, tabula, tabula]),
        );
        let mut observer = RoomClient::connect(tcp);
        observer.request(json!({"type": "watch", "room": room}), "watching");
        // A new page load: a link differs from the board's address only by its fragment.
        client.goto("about:blank").await.unwrap();
        client.goto(&format!("{page}#room={room}")).await.unwrap();
        until(&client, "return document.getElementById('seats').children.length === 6", Duration::from_secs(30), "the room's seats").await;
        let name = client.find(Locator::Id("player-name")).await.unwrap();
        name.clear().await.unwrap();
        name.send_keys("browser").await.unwrap();
        click(&client, "#join-room").await;
        let mut turns = 0;
        loop {
            until(&client, "return document.querySelectorAll('.piece.movable').length > 0", Duration::from_secs(60), "the player's turn").await;
            let hops = script(&client, "const p = document.querySelector('.hop-path'); return p ? p.dataset.path.split('-').length : 0").await;
            if turns >= 3 && hops.as_u64().unwrap_or(0) >= 3 {
                break;
            }
            assert!(turns < 30, "a chain of hops within 30 turns");
            // A piece that can go forward: the last target of one of the movable pieces.
            let pieces = client.find_all(Locator::Css(".piece.movable")).await.unwrap();
            if pieces.is_empty() {
                continue;
            }
            let piece = &pieces[(turns * 7) % pieces.len()];
            if piece.click().await.is_err() {
                continue;
            }
            until(&client, "return document.querySelectorAll('[data-target]').length > 0", Duration::from_secs(10), "targets").await;
            let targets = client.find_all(Locator::Css("[data-target]")).await.unwrap();
            if targets.is_empty() || targets.last().unwrap().click().await.is_err() {
                continue;
            }
            // The observer sees the browser's move (after Tabula's replies to the one before).
            let moved = loop {
                let moved = observer.expect("move");
                if moved["seat"] == 0 {
                    break moved;
                }
            };
            eprintln!("the browser played {}", moved["move"]);
            // The page has drawn it too before its pieces are looked at again.
            let ply = moved["ply"].as_u64().unwrap();
            until(&client, &format!("return Number(document.body.dataset.moves) >= {ply}"), Duration::from_secs(30), "the page to show the move").await;
            turns += 1;
        }
        let seats = script(&client, "return [...document.querySelectorAll('#seats li')].map(e => e.textContent)").await;
        assert!(seats[0].as_str().unwrap().contains("browser"), "{seats}");
        screenshot(&client, &folder, "chinese-checkers.png").await;
        // A narrow screen keeps the board and the controls.
        client.set_window_size(420, 900).await.unwrap();
        tokio::time::sleep(Duration::from_millis(300)).await;
        let width = script(&client, "return document.querySelector('#board svg').getBoundingClientRect().width").await;
        assert!(width.as_f64().unwrap() <= 420.0, "the board fits: {width}");
        screenshot(&client, &folder, "narrow.png").await;
        client.close().await.unwrap();
    });
    running.shutdown();
    let _ = std::fs::remove_dir_all(scratch);
}
