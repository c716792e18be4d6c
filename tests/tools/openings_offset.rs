//! scripts/match/openings-offset.py turns openings in Tabula's move notation into c-gomoku-cli's
//! offset format, so that a match against Rapfi can be played from the files under data/openings/.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn convert(name: &str, text: &str, size: &str) -> Output {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir: PathBuf = std::env::temp_dir().join(format!(
        "tabula-openings-offset-{}-{name}",
        std::process::id()
    ));
    fs::create_dir_all(&dir).expect("a temporary folder");
    let file = dir.join("openings.txt");
    fs::write(&file, text).expect("the fixture is written");
    let output = Command::new("python3")
        .arg(root.join("scripts/match/openings-offset.py"))
        .arg(&file)
        .args(["--size", size])
        .output()
        .expect("python3 runs the script");
    let _ = fs::remove_dir_all(&dir);
    output
}

#[test]
fn moves_become_offsets_from_the_centre_with_rows_counted_from_the_top() {
    // h8 is the centre of 15x15; i9 lies one column right and one row up, which c-gomoku-cli
    // counts as y - 1. Comments and blank lines are skipped; offset lines pass unchanged.
    let output = convert("moves", "# a comment\n\nh8 i9 a1\n0,0, -1,0, 3,-1\n", "15");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(stdout, "0,0, 1,-1, -7,7\n0,0, -1,0, 3,-1\n");
}

#[test]
fn the_centre_follows_the_board_size() {
    let output = convert("size", "k11 t20\n", "20");
    assert!(output.status.success());
    assert_eq!(String::from_utf8_lossy(&output.stdout), "0,-1, 9,-10\n");
}

#[test]
fn a_bad_move_is_reported_with_its_line() {
    let output = convert("bad", "# header\nh8 z99\n", "15");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(":2: z99 is off a 15x15 board"), "{stderr}");
    let output = convert("word", "h8 pass\n", "15");
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("not a move: 'pass'"));
}
