//! The web board in a real browser: headless Chromium driven over WebDriver (chromedriver)
//! loads the page at 1280x720, plays a whole Reversi game against Tabula by clicking (the player
//! bar, hints and endings in words, Rematch), shows a renju position with black's forbidden
//! points, plays a two-person Gomoku room opened by a link in the same tab to a five (marked,
//! then a rematch), joins a Chinese Checkers room by its link and moves a piece there, shows the
//! players' records, and checks that the board, the players and the status fit the window at
//! 1280x720 and on a 390x844 phone screen. It takes screenshots (`web-*.png`) into
//! `target/screenshots`, or the folder in `TABULA_SCREENSHOTS`:
//! `TABULA_SCREENSHOTS=docs cargo test --test web_browser` refreshes the ones in `docs/`.
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
                "--disable-dev-shm-usage", "--window-size=1280,720",
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

/// An ending in words: "You win 40-24", "Tabula wins 34-30", "Draw, 32-32".
fn regex_like_ending(status: &str) -> bool {
    let Some(rest) = ["You win ", "Tabula, level 1 (Rookie) wins ", "Draw, "]
        .iter()
        .find_map(|start| status.strip_prefix(start))
    else {
        return false;
    };
    let Some(score) = rest.strip_suffix('.') else {
        return false;
    };
    let mut parts = score.split('-');
    let (Some(a), Some(b), None) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    a.parse::<u32>().is_ok() && b.parse::<u32>().is_ok()
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

/// Sets the window so that the page's viewport is `width` x `height` (headless Chromium's window
/// may be larger than its viewport).
async fn viewport(client: &Client, width: u32, height: u32) {
    client.set_window_size(width, height).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let inner = script(client, "return [window.innerWidth, window.innerHeight]").await;
    let (inner_width, inner_height) = (
        inner[0].as_u64().unwrap() as u32,
        inner[1].as_u64().unwrap() as u32,
    );
    if (inner_width, inner_height) != (width, height) {
        client
            .set_window_size(
                width + width.saturating_sub(inner_width),
                height + height.saturating_sub(inner_height),
            )
            .await
            .unwrap();
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    let inner = script(client, "return [window.innerWidth, window.innerHeight]").await;
    eprintln!("viewport {inner} for {width}x{height}");
}

/// Asserts that each element `css` names is shown and lies inside the viewport (the page
/// scrolled to its top).
async fn within_viewport(client: &Client, css: &[&str], what: &str) {
    for selector in css {
        let code = format!(
            "window.scrollTo(0, 0); const e = document.querySelector('{selector}'); if (!e) return 'missing'; \
             const r = e.getBoundingClientRect(); \
             return [r.left, r.top, r.right, r.bottom, window.innerWidth, window.innerHeight, e.offsetParent !== null || e.tagName === 'svg'];"
        );
        let rect = script(client, &code).await;
        assert!(rect.is_array(), "{selector} is on the page ({what})");
        let number = |index: usize| rect[index].as_f64().unwrap();
        assert!(rect[6] == Value::Bool(true), "{selector} is shown ({what})");
        assert!(
            number(0) >= -0.5
                && number(1) >= -0.5
                && number(2) <= number(4) + 0.5
                && number(3) <= number(5) + 0.5,
            "{selector} lies inside the viewport ({what}): {rect}"
        );
    }
}

async fn text(client: &Client, css: &str) -> String {
    let code = format!("const e = document.querySelector('{css}'); return e ? e.textContent : '';");
    script(client, &code)
        .await
        .as_str()
        .unwrap_or("")
        .to_string()
}

async fn player_texts(client: &Client) -> Vec<String> {
    let texts = script(
        client,
        "return [...document.querySelectorAll('#players .player')].map(e => e.textContent)",
    )
    .await;
    texts
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect()
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

        viewport(&client, 1280, 720).await;
        let wide = ["#players", "#status", "#board svg"];

        // The engine's defaults and sizes, and the levels' names.
        client.goto(&page).await.unwrap();
        until(&client, "return document.querySelectorAll('[data-legal]').length > 0", Duration::from_secs(30), "the first legal moves").await;
        assert_eq!(script(&client, "return document.getElementById('gomoku-rule').value").await, json!("freestyle"));
        let sizes = script(&client, "return [...document.getElementById('gomoku-size').options].map(o => Number(o.value))").await;
        assert_eq!(sizes, json!((5..=22).collect::<Vec<_>>()), "Gomoku sizes 5-22");
        assert_eq!(script(&client, "return document.getElementById('gomoku-size').value").await, json!("15"));
        let levels = script(&client, "return [...document.getElementById('level').options].map(o => o.textContent)").await;
        assert_eq!(levels[0], json!("1 · Rookie"));
        assert_eq!(levels[7], json!("8 · Sage"));

        // Reversi against Tabula, by clicking legal-move marks until the game ends.
        choose(&client, "level", "1").await;
        click(&client, "#new-game").await;
        until(&client, "return document.body.dataset.moves === '0' && document.querySelectorAll('[data-legal]').length === 4 && document.getElementById('players').textContent.includes('Rookie')", Duration::from_secs(30), "a new game").await;
        // The player bar: names, discs, clocks, whose turn.
        let players = player_texts(&client).await;
        assert_eq!(players.len(), 2, "{players:?}");
        assert!(players[0].contains("You") && players[0].contains("2 discs") && players[0].contains("your move"), "{players:?}");
        assert!(players[1].contains("Tabula, level 1 (Rookie)") && players[1].contains("2 discs"), "{players:?}");
        let clock = text(&client, "#players .player .clock").await;
        assert!(clock.contains(':'), "a clock: {clock}");
        assert_eq!(status(&client).await, "Your move (black).");
        within_viewport(&client, &wide, "Reversi at 1280x720").await;
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
                // Mid-game, with Tabula's reply drawn: a hint in words, from the player's side.
                until(&client, "return document.querySelectorAll('[data-legal]').length > 0 || document.body.dataset.over === 'yes'", Duration::from_secs(30), "Tabula's reply").await;
                let evaluation = text(&client, "#evaluation").await;
                assert!(evaluation.starts_with("Tabula "), "an evaluation in words: {evaluation}");
                client.find(Locator::Css("#hint")).await.unwrap().click().await.unwrap();
                until(&client, "return document.getElementById('hint-text').textContent !== '–'", Duration::from_secs(30), "a hint").await;
                let hint = text(&client, "#hint-text").await;
                assert!(hint.starts_with("Play ") && hint.contains("Tabula") && !hint.contains(" for black") && !hint.contains(" for white"), "{hint}");
                let said = status(&client).await;
                assert!(said.contains("Hint: "), "the hint beside the board: {said}");
                assert_eq!(script(&client, "return document.querySelectorAll('.hint-mark').length").await, json!(1));
                screenshot(&client, &folder, "web-reversi.png").await;
                shot = true;
                // The hint goes once the position changes.
                let before = script(&client, "return document.body.dataset.moves").await;
                let hinted = script(&client, "return document.querySelector('.hint-mark') && [...document.querySelectorAll('[data-legal]')].map(e => e.dataset.legal)").await;
                eprintln!("legal after the hint: {hinted}");
                client.find(Locator::Css("[data-legal]")).await.unwrap().click().await.unwrap();
                until(&client, &format!("return document.body.dataset.moves !== {before}"), Duration::from_secs(30), "the move after the hint").await;
                assert_eq!(text(&client, "#hint-text").await, "–", "the hint is cleared");
                assert_eq!(script(&client, "return document.querySelectorAll('.hint-mark').length").await, json!(0));
                assert!(!status(&client).await.contains("Hint"));
            }
        }
        let final_status = status(&client).await;
        eprintln!("Reversi against Tabula level 1: {clicks} clicks, {:?}; {final_status}", started.elapsed());
        let ending = regex_like_ending(&final_status);
        assert!(ending, "an ending in words: {final_status}");
        within_viewport(&client, &["#players", "#status", "#end-actions", "#rematch", "#board svg"], "the end at 1280x720").await;
        let record = script(&client, "return document.getElementById('record-text').value").await;
        assert!(record.as_str().unwrap().starts_with("reversi size=8"), "{record}");
        if !final_status.starts_with("Draw") {
            assert_eq!(script(&client, "return document.querySelectorAll('#players .winner').length").await, json!(1));
        }
        // Rematch: the same game with the colours swapped; Tabula (black) moves first.
        click(&client, "#rematch").await;
        until(&client, "return document.body.dataset.over === 'no' && Number(document.body.dataset.moves) >= 1 && document.querySelectorAll('[data-legal]').length > 0", Duration::from_secs(30), "the rematch").await;
        assert_eq!(script(&client, "return document.getElementById('human-seat').value").await, json!("1"));
        let players = player_texts(&client).await;
        assert!(players[0].contains("Tabula, level 1") && players[1].contains("You"), "{players:?}");
        assert_eq!(status(&client).await, "Your move (white).");
        // Back to black for the rest.
        choose(&client, "human-seat", "0").await;
        click(&client, "#new-game").await;
        until(&client, "return document.body.dataset.moves === '0' && document.querySelectorAll('[data-legal]').length === 4", Duration::from_secs(30), "a new game as black").await;
        // Undo against the engine takes back to the player's turn.
        client.find(Locator::Css("[data-legal]")).await.unwrap().click().await.unwrap();
        until(&client, "return Number(document.body.dataset.moves) >= 2 && document.querySelectorAll('[data-legal]').length > 0", Duration::from_secs(30), "Tabula's reply").await;
        click(&client, "#undo").await;
        until(&client, "return document.body.dataset.moves === '0' && document.querySelectorAll('[data-legal]').length > 0", Duration::from_secs(30), "undo").await;
        // Keyboard: the first arrow puts the cursor on the middle square (e5 on 8x8), arrows
        // move it (rows count down the screen), Enter plays where it is if legal.
        let legal = script(&client, "return [...document.querySelectorAll('[data-legal]')].map(e => e.dataset.legal)").await;
        let target = legal[0].as_str().expect("a legal move").to_string();
        let column = i64::from(target.as_bytes()[0] - b'a');
        let row: i64 = target[1..].parse::<i64>().unwrap() - 1;
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
        board.send_keys(&Key::Enter.to_string()).await.unwrap();
        until(&client, "return document.body.dataset.moves !== '0'", Duration::from_secs(30), "the move played from the keyboard").await;
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
        let players = player_texts(&client).await;
        assert!(players[0].contains("Tabula, level 8 (Sage)") && players[0].contains("Tabula is thinking"), "{players:?}");
        choose(&client, "human-seat", "0").await;
        let asked = Instant::now();
        click(&client, "#new-game").await;
        until(&client, "return document.body.dataset.moves === '0' && document.querySelectorAll('[data-legal]').length === 4", Duration::from_secs(30), "a new game while Tabula thought").await;
        eprintln!("New game while Tabula thought: started after {:?}", asked.elapsed());
        choose(&client, "level", "1").await;

        // Gomoku under renju: a loaded position with black's forbidden points, and a hint in words.
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
        click(&client, "#hint").await;
        until(&client, "return document.getElementById('hint-text').textContent !== '–'", Duration::from_secs(60), "a Gomoku hint").await;
        let hint = text(&client, "#hint-text").await;
        assert!(hint.starts_with("Play ") && !hint.contains('@') && !hint.contains(" for white") && !hint.contains(" for black"), "{hint}");
        eprintln!("Gomoku hint: {hint}");
        within_viewport(&client, &wide, "Gomoku at 1280x720").await;
        screenshot(&client, &folder, "web-gomoku-renju.png").await;

        // A two-person Gomoku room opened by its link in this tab (a hashchange, no page load):
        // alice in the browser, bob over TCP; alice makes five.
        let mut bob = RoomClient::connect(tcp);
        let room = bob.create("gomoku", json!({"size": 15}), json!([{"kind": "open"}, {"kind": "open"}]));
        // The name field is on the Rooms tab, hidden while playing Tabula.
        script(&client, "document.getElementById('player-name').value = 'alice'; return true").await;
        script(&client, &format!("location.hash = '#room={room}'; return true")).await;
        until(&client, "return document.getElementById('seats').children.length === 2", Duration::from_secs(30), "the room shown after a hashchange").await;
        click(&client, "#join-room").await;
        until(&client, "return document.querySelector('#players .player') !== null && document.querySelector('#players .player').textContent.includes('alice (you)')", Duration::from_secs(30), "alice seated").await;
        assert!(status(&client).await.starts_with("Waiting for 1 more player"), "{}", status(&client).await);
        bob.request(json!({"type": "join", "room": room, "name": "bob"}), "joined");
        for (ply, (mine, theirs)) in [("h8", "a1"), ("h9", "a2"), ("h10", "a3"), ("h11", "a4"), ("h12", "")].iter().enumerate() {
            let mark = format!("[data-legal=\"{mine}\"]");
            until(&client, &format!("return document.querySelector('{mark}') !== null"), Duration::from_secs(30), "alice's turn").await;
            click(&client, &mark).await;
            if theirs.is_empty() {
                break;
            }
            until(&client, "return document.getElementById('status').textContent === 'bob (white) to move.'", Duration::from_secs(30), "bob's turn named").await;
            bob.send(&json!({"type": "move", "move": theirs, "ply": 2 * ply + 1}));
        }
        until(&client, "return document.body.dataset.over === 'yes'", Duration::from_secs(30), "five in a row").await;
        assert_eq!(status(&client).await, "You win: five in a row.");
        let five = script(&client, "return [...document.querySelectorAll('[data-five]')].map(e => e.dataset.five).sort()").await;
        assert_eq!(five, json!(["h10", "h11", "h12", "h8", "h9"]), "the five is marked");
        let players = player_texts(&client).await;
        assert!(players[0].contains("alice (you)") && players[0].contains("wins") && players[1].contains("bob"), "{players:?}");
        within_viewport(&client, &["#players", "#status", "#rematch", "#board svg"], "the Gomoku room's end at 1280x720").await;
        screenshot(&client, &folder, "web-gomoku.png").await;
        // Rematch: a new room, colours swapped, both players moved there.
        click(&client, "#rematch").await;
        let rematch = bob.expect("rematch");
        assert_eq!(rematch["seats"], json!([1, 0]));
        let next = rematch["next"].as_str().unwrap().to_string();
        bob.request(json!({"type": "join", "room": next, "seat": 0, "name": "bob"}), "joined");
        until(&client, &format!("return location.hash === '#room={next}' && document.getElementById('status').textContent === 'bob (black) to move.'"), Duration::from_secs(30), "the rematch room").await;
        let players = player_texts(&client).await;
        assert!(players[0].contains("bob") && players[1].contains("alice (you)"), "{players:?}");

        // The records: both players' finished game.
        click(&client, "#tab-records").await;
        until(&client, "return document.querySelectorAll('#records-table tbody tr').length >= 2", Duration::from_secs(30), "the records").await;
        let rows = script(&client, "return [...document.querySelectorAll('#records-table tbody tr')].map(r => [...r.children].map(c => c.textContent))").await;
        let row = |name: &str| rows.as_array().unwrap().iter().find(|row| row[0] == json!(name)).cloned().unwrap_or_else(|| panic!("{name} in {rows}"));
        assert_eq!(row("alice").as_array().unwrap()[1..6], [json!("1"), json!("1"), json!("0"), json!("0"), json!("100%")]);
        assert_eq!(row("bob").as_array().unwrap()[1..6], [json!("1"), json!("0"), json!("1"), json!("0"), json!("0%")]);
        screenshot(&client, &folder, "web-records.png").await;

        // Seat choices are written out, not left to defaults.
        click(&client, "#tab-rooms").await;
        choose(&client, "game", "chinese-checkers").await;
        choose(&client, "cc-players", "6").await;
        let summary = text(&client, "#seat-summary").await;
        assert!(summary.contains("1 you") && summary.contains("6 Tabula, level 2 (Novice)"), "{summary}");

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
            if turns == 0 {
                // Tabula's seats think in turn, and the player bar says so.
                until(&client, "return document.getElementById('players').textContent.includes('Tabula is thinking') || document.querySelectorAll('.piece.movable').length > 0", Duration::from_secs(30), "Tabula thinking in the room").await;
            }
            // The page has drawn it too before its pieces are looked at again.
            let ply = moved["ply"].as_u64().unwrap();
            until(&client, &format!("return Number(document.body.dataset.moves) >= {ply}"), Duration::from_secs(30), "the page to show the move").await;
            turns += 1;
        }
        let seats = script(&client, "return [...document.querySelectorAll('#seats li')].map(e => e.textContent)").await;
        assert!(seats[0].as_str().unwrap().contains("browser"), "{seats}");
        let players = player_texts(&client).await;
        assert_eq!(players.len(), 6);
        assert!(players[0].contains("browser (you)") && players[0].contains("/10 home"), "{players:?}");
        assert!(players[1].contains("Tabula, level 2 (Novice)"), "{players:?}");
        assert_eq!(status(&client).await, "Your move (red).");
        within_viewport(&client, &wide, "the star at 1280x720").await;
        screenshot(&client, &folder, "web-chinese-checkers.png").await;
        // A phone-sized screen keeps the players, the status and the whole board in view.
        viewport(&client, 390, 844).await;
        client.refresh().await.unwrap();
        until(&client, "return document.querySelectorAll('.piece.movable').length > 0", Duration::from_secs(30), "the room after a reload").await;
        within_viewport(&client, &wide, "the star at 390x844").await;
        screenshot(&client, &folder, "web-narrow.png").await;
        click(&client, "#tab-play").await;
        choose(&client, "game", "reversi").await;
        click(&client, "#new-game").await;
        until(&client, "return document.body.dataset.game === 'reversi' && document.querySelectorAll('[data-legal]').length === 4", Duration::from_secs(30), "Reversi on a phone").await;
        within_viewport(&client, &wide, "Reversi at 390x844").await;
        screenshot(&client, &folder, "web-phone-reversi.png").await;
        client.close().await.unwrap();
    });
    running.shutdown();
    let _ = std::fs::remove_dir_all(scratch);
}
