//! `tabula match` driven from the outside: Tabula levels against each other in every game (two
//! games at a time), the faults of misbehaving engines (`tests/engines/`), the Piskvork client
//! against a small brain, SPRT stopping, and game records read back by `tabula analyze`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const TABULA: &str = env!("CARGO_BIN_EXE_tabula");

fn engines_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines")
}

/// A scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let directory =
        std::env::temp_dir().join(format!("tabula-match-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    std::fs::create_dir_all(&directory).unwrap();
    directory
}

/// Tabula at `level` on one thread, as an engine of the match, with a time margin of 2 s so
/// that a loaded machine does not make it lose on time.
fn tabula(name: &str, level: u8) -> Vec<String> {
    [
        "--engine".to_string(),
        format!("cmd={TABULA}"),
        format!("name={name}"),
        format!("option.level={level}"),
        "option.threads=1".to_string(),
        "option.hash=8".to_string(),
        "margin=2000".to_string(),
    ]
    .to_vec()
}

fn run(arguments: &[String]) -> Output {
    let output = Command::new(TABULA)
        .arg("match")
        .args(arguments)
        .output()
        .expect("tabula runs");
    eprintln!("{}", String::from_utf8_lossy(&output.stdout));
    eprintln!("{}", String::from_utf8_lossy(&output.stderr));
    output
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
}

fn records(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// Runs a match that must succeed with its records written to `path`; returns its output and
/// the records.
fn run_recorded(mut arguments: Vec<String>, path: &Path) -> (Output, Vec<serde_json::Value>) {
    arguments.extend(["--records".into(), path.display().to_string()]);
    let output = run(&arguments);
    assert!(output.status.success());
    let games = records(path);
    (output, games)
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).to_string()
}

#[test]
#[ignore = "slow tier: plays timed games"]
fn reversi_levels_with_openings_records_and_a_plot() {
    let directory = scratch("reversi");
    let openings = directory.join("openings.txt");
    std::fs::write(&openings, "# two openings\nf5 d6 c3\nf5f6e6f4\n").unwrap();
    let records_path = directory.join("games.jsonl");
    let plot = directory.join("elo.svg");
    let mut arguments = words("--game othello --concurrency 2 --movetime 150 --rating-interval 2");
    arguments.extend(tabula("weak", 1));
    arguments.extend(tabula("strong", 3));
    arguments.extend([
        "--openings".into(),
        openings.display().to_string(),
        "--plot".into(),
        plot.display().to_string(),
    ]);
    let (output, games) = run_recorded(arguments, &records_path);
    let text = stdout(&output);
    assert!(text.contains("Finished match: 4 games"), "{text}");
    assert!(text.contains("Score of weak vs strong: "), "{text}");
    assert!(text.contains("Elo difference: "), "{text}");
    assert!(text.contains("Ptnml(0-2): "), "{text}");
    assert_eq!(games.len(), 4);
    let mut numbers: Vec<u64> = games
        .iter()
        .map(|game| game["number"].as_u64().unwrap())
        .collect();
    numbers.sort();
    assert_eq!(numbers, [1, 2, 3, 4]);
    for game in &games {
        assert_eq!(game["termination"], "normal", "{game}");
        let number = game["number"].as_u64().unwrap();
        let (opening, plies) = if number <= 2 {
            (["f5", "d6", "c3"].as_slice(), 3)
        } else {
            (["f5", "f6", "e6", "f4"].as_slice(), 4)
        };
        let moves: Vec<&str> = game["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|mv| mv.as_str().unwrap())
            .collect();
        assert_eq!(&moves[..plies], opening, "{game}");
        assert_eq!(game["opening_plies"], plies);
        let black = if number % 2 == 1 { "weak" } else { "strong" };
        assert_eq!(game["seats"][0], black, "colours alternate on each opening");
    }
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.starts_with("<svg"));
    // The records read back: every position after the opening, with the move played there.
    let analysed = Command::new(TABULA)
        .args(["analyze", "--depth", "1", "--quiet", "--game", "reversi"])
        .arg(&records_path)
        .output()
        .unwrap();
    assert!(
        analysed.status.success(),
        "{}",
        String::from_utf8_lossy(&analysed.stderr)
    );
    let positions: usize = games
        .iter()
        .map(|game| {
            game["moves"].as_array().unwrap().len()
                - game["opening_plies"].as_u64().unwrap() as usize
        })
        .sum();
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&analysed.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines.len(), positions);
    assert!(lines
        .iter()
        .all(|line| line["played"].is_string() && line["best"].is_string()));
    assert!(String::from_utf8_lossy(&analysed.stderr)
        .contains("played moves: the best move is the one played in"));
    std::fs::remove_dir_all(&directory).unwrap();
}

#[test]
#[ignore = "slow tier: plays timed games"]
fn gomoku_levels() {
    let directory = scratch("gomoku");
    let records_path = directory.join("games.jsonl");
    let mut arguments = words("--game gomoku -o size=9 --concurrency 2 --games 2 --movetime 150");
    arguments.extend(tabula("level1", 1));
    arguments.extend(tabula("level3", 3));
    let (output, recorded) = run_recorded(arguments, &records_path);
    assert!(stdout(&output).contains("Finished match: 2 games"));
    for game in recorded {
        assert_eq!(game["termination"], "normal", "{game}");
        assert!(
            ["B+", "W+", "0"].contains(&game["result"].as_str().unwrap()),
            "{game}"
        );
    }
    std::fs::remove_dir_all(&directory).unwrap();
}

#[test]
#[ignore = "slow tier: plays timed games"]
fn chinese_checkers_in_three_and_six_seats() {
    let directory = scratch("checkers");
    for (players, games, extra) in [(3, 3, false), (6, 2, true)] {
        let records_path = directory.join(format!("games-{players}.jsonl"));
        let mut arguments = words(&format!(
            "--game chinese-checkers -o players={players} -o max_moves=60 --concurrency 2 --games {games} --movetime 150"
        ));
        arguments.extend(tabula("first", 1));
        arguments.extend(tabula("second", 2));
        if extra {
            arguments.extend(tabula("third", 3));
        }
        let (output, recorded) = run_recorded(arguments, &records_path);
        let text = stdout(&output);
        assert!(
            text.contains(&format!("Finished match: {games} games")),
            "{text}"
        );
        assert!(text.contains("Places by engine"), "{text}");
        assert!(text.contains("Places by seat"), "{text}");
        assert!(text.contains("Score of first vs second: "), "{text}");
        for game in recorded {
            assert_eq!(game["termination"], "normal", "{game}");
            assert_eq!(game["places"].as_array().unwrap().len(), players);
            assert_eq!(game["seats"].as_array().unwrap().len(), players);
        }
    }
    std::fs::remove_dir_all(&directory).unwrap();
}

/// A match of the fake GTP engine in `mode` against Tabula: both games lost by the fake with
/// `termination`. Returns the match's output and how often the fake was started.
fn fake_loses(mode: &str, termination: &str, extra: &[&str]) -> (String, usize) {
    let directory = scratch(&format!("{mode}-{termination}"));
    let log = directory.join("starts.log");
    let records_path = directory.join("games.jsonl");
    let mut arguments = vec![
        "--game".to_string(),
        "reversi".to_string(),
        "--engine".to_string(),
        format!(
            "cmd=sh {} {mode} {}",
            engines_dir().join("fake-gtp.sh").display(),
            log.display()
        ),
        "name=fake".to_string(),
    ];
    arguments.extend(extra.iter().map(|word| word.to_string()));
    arguments.extend(tabula("tabula", 1));
    arguments.extend(words("--games 2"));
    let (output, games) = run_recorded(arguments, &records_path);
    assert_eq!(games.len(), 2);
    for game in &games {
        assert_eq!(game["termination"], termination, "{game}");
        let fake_seat = if game["seats"][0] == "fake" { 0 } else { 1 };
        assert_eq!(game["loser"], fake_seat, "{game}");
        assert_eq!(game["places"][fake_seat], 2, "{game}");
    }
    let starts = std::fs::read_to_string(&log).unwrap().lines().count();
    std::fs::remove_dir_all(&directory).unwrap();
    (stdout(&output), starts)
}

#[test]
fn an_illegal_move_loses() {
    let (text, starts) = fake_loses("illegal", "illegal-move", &["--movetime", "500"]);
    assert!(text.contains("played illegal move a1"), "{text}");
    assert!(
        text.contains("Score of fake vs tabula: 0 - 2 - 0"),
        "{text}"
    );
    assert_eq!(
        starts, 1,
        "an engine that only played an illegal move is kept"
    );
}

#[test]
fn a_crash_loses_and_the_engine_is_restarted() {
    let (text, starts) = fake_loses("crash", "crash", &["--movetime", "500"]);
    assert!(text.contains("ended during 'genmove"), "{text}");
    assert_eq!(
        starts, 2,
        "the crashed engine is started again for the second game"
    );
}

#[test]
#[ignore = "slow tier: plays timed games"]
fn a_hang_under_a_clock_loses_on_time() {
    let (text, starts) = fake_loses(
        "hang",
        "time-forfeit",
        &["--movetime", "300", "--margin", "50"],
    );
    assert!(text.contains("within its time (350 ms)"), "{text}");
    assert_eq!(starts, 2, "a hung engine is killed and started again");
}

#[test]
fn a_hang_without_a_clock_is_a_hang() {
    let (text, _) = fake_loses("hang", "hang", &["timeout=1"]);
    assert!(text.contains("no reply to 'genmove"), "{text}");
}

#[test]
fn a_resignation_loses() {
    let (text, _) = fake_loses("resign", "resignation", &["--movetime", "500"]);
    assert!(
        text.contains("fake vs tabula): black forfeits {black resigned}"),
        "{text}"
    );
}

#[test]
fn a_refused_genmove_is_a_protocol_error() {
    fake_loses("refuse", "protocol-error", &["--movetime", "500"]);
}

#[test]
#[ignore = "slow tier: plays timed games"]
fn sprt_stops_the_match() {
    let directory = scratch("sprt");
    let mut arguments = vec![
        "--game".to_string(),
        "reversi".to_string(),
        "--engine".to_string(),
        format!(
            "cmd=sh {} illegal",
            engines_dir().join("fake-gtp.sh").display()
        ),
        "name=fake".to_string(),
    ];
    arguments.extend(tabula("tabula", 1));
    // Games come in pairs (colours swapped), and the GSPRT counts pairs: each pair lost 0-2
    // adds ln((1 - s1)/(1 - s0)) = ln(0.0909/0.5) = -1.705 for elo1 = 400, so two pairs (four
    // games) cross the lower bound ln(0.05/0.95) = -2.944.
    arguments.extend(words(
        "--games 20 --movetime 500 --sprt elo0=0 elo1=400 alpha=0.05 beta=0.05",
    ));
    let output = run(&arguments);
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(text.contains("SPRT decided after 4 games"), "{text}");
    assert!(text.contains("Finished match: 4 games"), "{text}");
    assert!(text.contains("H0 accepted"), "{text}");
    std::fs::remove_dir_all(&directory).unwrap();
}

#[test]
fn piskvork_brains_play_through_the_client() {
    let directory = scratch("piskvork");
    for (mode, termination) in [("first", "normal"), ("occupied", "illegal-move")] {
        let records_path = directory.join(format!("{mode}.jsonl"));
        let mut arguments = vec![
            "--game".to_string(),
            "gomoku".to_string(),
            "-o".to_string(),
            "size=9".to_string(),
            "--engine".to_string(),
            format!(
                "cmd={} {mode}",
                engines_dir().join("fake-piskvork.sh").display()
            ),
            "proto=piskvork".to_string(),
            "name=brain".to_string(),
        ];
        arguments.extend(tabula("tabula", 2));
        arguments.extend(words("--games 2 --movetime 300"));
        let (_, recorded) = run_recorded(arguments, &records_path);
        for game in recorded {
            assert_eq!(game["termination"], termination, "{game}");
        }
    }
    std::fs::remove_dir_all(&directory).unwrap();
}

#[test]
fn bad_command_lines_are_refused() {
    for arguments in [
        "--game reversi --engine cmd=x --engine name=y",
        "--game reversi --engine cmd=x proto=piskvork --engine cmd=y",
        "--game reversi --engine cmd=x --engine cmd=y --engine cmd=z",
        "--game reversi --engine cmd=x --engine cmd=y --sprt elo0=5 elo1=0",
        "--game reversi --engine cmd=x --engine cmd=y --tc 0+1",
    ] {
        let output = run(&words(arguments));
        assert!(!output.status.success(), "{arguments}");
    }
    let missing = run(&words(
        "--game reversi --engine cmd=/nonexistent/engine --engine cmd=/nonexistent/other --games 1",
    ));
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot start"));
}

/// Tabula at `level` with extra `key=value` words.
fn tabula_with(name: &str, level: u8, extra: &[&str]) -> Vec<String> {
    let mut words = tabula(name, level);
    words.extend(extra.iter().map(|word| word.to_string()));
    words
}

/// `tabula analyze` of the position after every move of `game`'s record, as one JSON object.
fn analyse_end(game: &serde_json::Value, arguments: &[&str]) -> serde_json::Value {
    let moves: Vec<&str> = game["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|mv| mv.as_str().unwrap())
        .collect();
    let mut child = Command::new(TABULA)
        .arg("analyze")
        .args(arguments)
        .args(["--quiet", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    writeln!(child.stdin.take().unwrap(), "{}", moves.join(" ")).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    serde_json::from_str(String::from_utf8_lossy(&output.stdout).trim()).unwrap()
}

/// The result a record should give for a score of the side to move in an analysed position.
fn result_of(analysed: &serde_json::Value) -> String {
    let mover = analysed["to_move"].as_str().unwrap();
    let letter = mover[..1].to_ascii_uppercase();
    let other = if letter == "B" { "W" } else { "B" };
    let score = &analysed["score"];
    match score["kind"].as_str().unwrap() {
        "exact" => {
            let value = score["value"].as_i64().unwrap();
            match value {
                0 => "0".to_string(),
                value if value > 0 => format!("{letter}+{value}"),
                value => format!("{other}+{}", -value),
            }
        }
        "win" => format!("{letter}+"),
        "loss" => format!("{other}+"),
        kind => panic!("no proven result: {kind}"),
    }
}

#[test]
fn an_exact_solve_adjudicates_with_the_result_of_perfect_play() {
    let directory = scratch("adjudicate-exact");
    let records_path = directory.join("games.jsonl");
    // Level 1 against itself reaches 12 empties (a stronger side may wipe the other out first).
    let mut arguments = words("--game reversi --concurrency 2 --games 2 --adjudicate-exact 12");
    arguments.extend(tabula("a", 1));
    arguments.extend(tabula("b", 1));
    let (output, recorded) = run_recorded(arguments, &records_path);
    assert!(stdout(&output).contains("Endings: adjudicated 2"));
    for game in recorded {
        assert_eq!(game["termination"], "adjudicated", "{game}");
        assert!(
            game["reason"]
                .as_str()
                .unwrap()
                .starts_with("adjudicated by an exact solve at 12 empties"),
            "{game}"
        );
        // A solve of the last position, from the side to move, gives the recorded result.
        let analysed = analyse_end(&game, &["--exact"]);
        assert_eq!(
            analysed["position"].as_str().unwrap().matches('-').count(),
            12
        );
        assert_eq!(
            game["result"].as_str().unwrap(),
            result_of(&analysed),
            "{game}"
        );
        let winner = &game["result"].as_str().unwrap()[..1];
        let expected_places = match winner {
            "B" => [1, 2],
            "W" => [2, 1],
            _ => [1, 1],
        };
        assert_eq!(game["places"], serde_json::json!(expected_places), "{game}");
    }
    std::fs::remove_dir_all(&directory).unwrap();
}

/// The `weights` option is a game option, which `set_game` resets: a match engine's
/// `option.weights=FILE` used to be set before `set_game` and refused, every game a forfeit.
#[test]
fn an_engines_weights_option_holds_for_its_games() {
    let directory = scratch("weights");
    let records_path = directory.join("games.jsonl");
    let weights = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/gomoku-weights-hand.txt");
    let mut arguments = words("--game gomoku -o size=9 --games 2");
    arguments.extend(tabula_with(
        "a",
        2,
        &[
            "option.depth=1",
            &format!("option.weights={}", weights.display()),
        ],
    ));
    arguments.extend(tabula_with("b", 2, &["option.depth=1"]));
    let (_, recorded) = run_recorded(arguments, &records_path);
    assert_eq!(recorded.len(), 2);
    for game in recorded {
        assert_ne!(game["termination"], "protocol-error", "{game}");
    }
    std::fs::remove_dir_all(&directory).unwrap();
}

#[test]
fn a_proven_win_adjudicates_before_the_five() {
    let directory = scratch("adjudicate-win");
    let records_path = directory.join("games.jsonl");
    let mut arguments = words(
        "--game gomoku -o size=9 --concurrency 2 --games 2 --movetime 100 --adjudicate-win 3",
    );
    arguments.extend(tabula("a", 1));
    arguments.extend(tabula("b", 2));
    let (_, recorded) = run_recorded(arguments, &records_path);
    for game in recorded {
        if game["result"] == "0" {
            continue;
        }
        assert_eq!(game["termination"], "adjudicated", "{game}");
        let analysed = analyse_end(&game, &["--game", "gomoku", "-o", "size=9", "--depth", "3"]);
        assert_eq!(
            game["result"].as_str().unwrap(),
            result_of(&analysed),
            "{game}"
        );
    }
    std::fs::remove_dir_all(&directory).unwrap();
}

#[test]
fn the_move_cap_draws_for_every_seat() {
    let directory = scratch("move-cap");
    let records_path = directory.join("games.jsonl");
    let mut arguments =
        words("--game chinese-checkers -o players=3 --games 3 --concurrency 2 --max-plies 7");
    arguments.extend(tabula("a", 1));
    arguments.extend(tabula("b", 1));
    let (_, games) = run_recorded(arguments, &records_path);
    assert_eq!(games.len(), 3);
    for game in games {
        assert_eq!(game["termination"], "move-cap", "{game}");
        assert_eq!(game["moves"].as_array().unwrap().len(), 7, "{game}");
        assert_eq!(game["places"], serde_json::json!([1, 1, 1]), "{game}");
    }
    std::fs::remove_dir_all(&directory).unwrap();
}

/// An engine that takes 300 ms a move whatever its clock says, under `tc`.
fn slow_engine_under(tc: &str) -> Vec<serde_json::Value> {
    let directory = scratch(&format!("tc-{tc}"));
    let records_path = directory.join("games.jsonl");
    let mut arguments = words(&format!(
        "--game reversi --games 2 --tc {tc} --max-plies 16"
    ));
    arguments.extend(tabula_with(
        "slow",
        8,
        &["clock=off", "option.movetime=300", "margin=50"],
    ));
    arguments.extend(tabula("fast", 1));
    let (_, games) = run_recorded(arguments, &records_path);
    std::fs::remove_dir_all(&directory).unwrap();
    games
}

#[test]
fn a_game_clock_counts_its_base_and_increment() {
    // Half a second for the game: a third move of 240-300 ms cannot fit in what is left.
    for game in slow_engine_under("0.5+0") {
        assert_eq!(game["termination"], "time-forfeit", "{game}");
        let slow_seat = if game["seats"][0] == "slow" { 0 } else { 1 };
        assert_eq!(game["loser"], slow_seat, "{game}");
        let slow_moves = game["move_seats"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|seat| **seat == slow_seat)
            .count();
        assert!(slow_moves <= 2, "{game}");
    }
    // Half a second more per move keeps the same engine within its clock until the cap.
    for game in slow_engine_under("1+0.5") {
        assert_eq!(game["termination"], "move-cap", "{game}");
    }
}

#[test]
fn nboard_engines_play_through_the_client() {
    let directory = scratch("nboard");
    let openings = directory.join("openings.txt");
    // A move sequence with a pass-free opening, and a position with white to move.
    std::fs::write(
        &openings,
        "f5 d6 c3\n---------------------------OX------XXX-------------------------- O\n",
    )
    .unwrap();
    let records_path = directory.join("games.jsonl");
    let mut arguments = words("--game reversi --concurrency 2 --movetime 500");
    arguments.extend([
        "--engine".to_string(),
        format!("cmd={TABULA} --protocol nboard"),
        "proto=nboard".to_string(),
        "name=nboard".to_string(),
        "option.depth=2".to_string(),
        "margin=2000".to_string(),
    ]);
    arguments.extend(tabula("gtp", 1));
    arguments.extend(["--openings".into(), openings.display().to_string()]);
    let (_, games) = run_recorded(arguments, &records_path);
    assert_eq!(games.len(), 4);
    for game in &games {
        assert_eq!(game["termination"], "normal", "{game}");
    }
    // Faults: an illegal move and a crash lose, as over GTP.
    for (mode, termination) in [("illegal", "illegal-move"), ("crash", "crash")] {
        let records_path = directory.join(format!("{mode}.jsonl"));
        let mut arguments = vec![
            "--game".to_string(),
            "reversi".to_string(),
            "--engine".to_string(),
            format!(
                "cmd=sh {} {mode}",
                engines_dir().join("fake-nboard.sh").display()
            ),
            "proto=nboard".to_string(),
            "name=fake".to_string(),
        ];
        arguments.extend(tabula("tabula", 1));
        arguments.extend(words("--games 2 --movetime 500"));
        let (_, recorded) = run_recorded(arguments, &records_path);
        for game in recorded {
            assert_eq!(game["termination"], termination, "{game}");
            let fake_seat = if game["seats"][0] == "fake" { 0 } else { 1 };
            assert_eq!(game["loser"], fake_seat, "{game}");
        }
    }
    // NBoard is for Othello only.
    let gomoku = run(&words(
        "--game gomoku --engine cmd=x proto=nboard --engine cmd=y --games 1",
    ));
    assert!(!gomoku.status.success());
    std::fs::remove_dir_all(&directory).unwrap();
}
