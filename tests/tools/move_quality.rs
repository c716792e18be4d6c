//! scripts/bench/gomoku-move-quality.py, run end to end on stand-in engines: a judge whose score
//! is the side to move's stones' x minus the opponent's, and two builds that play the largest or
//! the smallest free x. Moving to x = 14 gains 14 of the judge's points; a stone at x = 0 is a
//! loss by the judge's score (a win for the opponent), which counts as the largest loss, 3000.

use std::path::Path;
use std::process::Command;

#[test]
fn the_bench_scores_each_move_by_the_judge_and_compares_the_builds() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let data = root.join("tests/data/move-quality");
    let output = Command::new("python3")
        .arg(root.join("scripts/bench/gomoku-move-quality.py"))
        .arg(data.join("judge"))
        .arg(data.join("games.sgf"))
        .arg(format!("--build=high={}", data.join("high").display()))
        .arg(format!("--build=low={}@50", data.join("low").display()))
        .args(["--jobs", "2", "--movetime", "100", "--judge-time", "100"])
        .output()
        .expect("python3 runs the bench");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}{stderr}");
    // Five positions with Tabula to move from the fifth stone on; the one with 12 stones is a
    // win by the judge's score, so it is left out.
    assert!(
        stderr.contains("5 positions drawn, 4 undecided"),
        "{stderr}"
    );
    assert!(
        stdout.contains("| high | 4 | -14.0 | -14 | 0 (0.0%) | 0 (0.0%) | 4 (100.0%) |"),
        "{stdout}"
    );
    assert!(
        stdout.contains("| low | 4 | 3000.0 | 3000 | 4 (100.0%) | 4 (100.0%) | 0 (0.0%) |"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "high - low: 4 of 4 positions with different moves; Rapfi prefers high's move 4 \
             times, low's 0; mean loss difference -3000.0"
        ),
        "{stdout}"
    );
}
