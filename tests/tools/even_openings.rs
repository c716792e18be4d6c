//! scripts/match/even-openings.py keeps the openings a judge engine scores near even, run on the
//! stand-in judge of the move-quality test (its score: the side to move's stones' x minus the
//! opponent's; a proven win when the opponent has a stone at x = 0).

use std::fs;
use std::path::Path;
use std::process::Command;

#[test]
fn openings_within_the_bound_are_kept_in_their_order_and_notation() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let directory =
        std::env::temp_dir().join(format!("tabula-even-openings-{}", std::process::id()));
    fs::create_dir_all(&directory).unwrap();
    let file = directory.join("openings.txt");
    // Scores for the side to move: -8 (white to move), -1, a proven win, +6.
    fs::write(&file, "# header\nh8 i9 j8\n0,0, 1,0\nh8 a1 i8 o15\nn8 h8\n").unwrap();
    let output = Command::new("python3")
        .arg(root.join("scripts/match/even-openings.py"))
        .arg(root.join("tests/data/move-quality/judge"))
        .arg(&file)
        .args(["--within", "6", "--milliseconds", "50"])
        .output()
        .expect("python3 runs the script");
    let _ = fs::remove_dir_all(&directory);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let kept: Vec<&str> = stdout
        .lines()
        .filter(|line| !line.starts_with('#'))
        .collect();
    assert_eq!(kept, ["0,0, 1,0", "n8 h8"], "{stdout}");
    assert!(stdout.starts_with("# 2 of the 4 openings"), "{stdout}");
}
