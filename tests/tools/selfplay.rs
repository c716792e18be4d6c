//! `tabula selfplay`, `train` and `tune` as people run them: the in-process match loop gives the
//! same games for the same options, the fits read what self-play writes, and bad options are
//! error messages, not panics.

use std::path::PathBuf;
use std::process::{Command, Output};

const TABULA: &str = env!("CARGO_BIN_EXE_tabula");

fn tabula(arguments: &[&str]) -> Output {
    Command::new(TABULA)
        .args(arguments)
        .output()
        .expect("running tabula")
}

fn scratch(name: &str) -> PathBuf {
    let folder =
        std::env::temp_dir().join(format!("tabula-selfplay-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    folder
}

/// Fixed-depth Gomoku self-play writes the same games on every run, and the Texel fit reads them.
#[test]
fn gomoku_selfplay_at_a_fixed_depth_repeats_and_feeds_the_fit() {
    let folder = scratch("gomoku");
    let mut files = Vec::new();
    for run in 0..2 {
        let games = folder.join(format!("games-{run}.txt"));
        let _ = std::fs::remove_file(&games);
        let output = tabula(&[
            "selfplay",
            "gomoku",
            "--rule",
            "freestyle,renju",
            "--games",
            "4",
            "--seed",
            "3",
            "--quiet",
            "--a",
            "depth=2 movetime=none",
            "--b",
            "depth=1 movetime=none",
            "--out",
            games.to_str().unwrap(),
        ]);
        assert!(output.status.success(), "{output:?}");
        let text = std::fs::read_to_string(&games).unwrap();
        assert_eq!(text.lines().count(), 4, "{text}");
        assert!(text.starts_with("freestyle 15 "), "{text}");
        files.push(text);
    }
    assert_eq!(files[0], files[1]);
    let weights = folder.join("fit.txt");
    let output = tabula(&[
        "train",
        "gomoku",
        "--games",
        folder.join("games-0.txt").to_str().unwrap(),
        "--start",
        concat!(env!("CARGO_MANIFEST_DIR"), "/data/gomoku-weights-hand.txt"),
        "--epochs",
        "10",
        "--out",
        weights.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{output:?}");
    assert!(std::fs::read_to_string(&weights).unwrap().contains("own."));
    std::fs::remove_dir_all(&folder).unwrap();
}

/// A Chinese Checkers match at a fixed depth gives the same summary on every run.
#[test]
fn chinese_checkers_selfplay_at_a_fixed_depth_repeats() {
    let arguments = [
        "selfplay",
        "chinese-checkers",
        "--options",
        "players=3",
        "--lineup",
        "8,greedy,3:brs",
        "--games",
        "3",
        "--depth",
        "1",
        "--opening",
        "2",
        "--seed",
        "5",
    ];
    let places = |output: &Output| -> Vec<String> {
        assert!(output.status.success(), "{output:?}");
        String::from_utf8_lossy(&output.stdout)
            .lines()
            .filter(|line| line.starts_with("seat ") || line.starts_with("ends:"))
            .map(str::to_string)
            .collect()
    };
    let first = places(&tabula(&arguments));
    assert_eq!(first.len(), 4, "{first:?}");
    assert_eq!(first, places(&tabula(&arguments)));
}

/// The one-player crossing finds a line through the rules.
#[test]
fn the_crossing_is_planned() {
    let output = tabula(&["selfplay", "chinese-checkers", "--crossing", "50"]);
    assert!(output.status.success(), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stdout).starts_with("width 50: "));
}

/// Bad players, lineups and files are one error line and exit status 1, never a panic.
#[test]
fn bad_options_are_errors_not_panics() {
    for arguments in [
        &["selfplay", "gomoku", "--games", "2", "--a", "colour=black"][..],
        &["selfplay", "gomoku", "--games", "2", "--b", "depth=x"],
        &[
            "selfplay",
            "gomoku",
            "--games",
            "2",
            "--openings",
            "/nonexistent",
        ],
        &["selfplay", "chinese-checkers", "--lineup", "9,greedy"],
        &[
            "selfplay",
            "chinese-checkers",
            "--lineup",
            "8,greedy,greedy",
        ],
        &[
            "train",
            "gomoku",
            "--games",
            "/nonexistent",
            "--out",
            "/nonexistent/out.txt",
        ],
        &["train", "reversi", "--measure", "--data", "/nonexistent"],
    ] {
        let output = tabula(arguments);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{arguments:?}: {stderr}");
        assert!(stderr.starts_with("error: "), "{arguments:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{arguments:?}: {stderr}");
    }
}
