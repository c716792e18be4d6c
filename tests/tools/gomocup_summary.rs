//! The summary of a c-gomoku-cli match (scripts/match/gomocup-summary.py, run by
//! scripts/match/rapfi-gomocup.sh) scores only games that were played.

use std::path::Path;
use std::process::Command;

#[test]
fn a_game_with_no_move_is_void_not_a_win() {
    // The fixture is the shape of two games from a renju match against Rapfi: in the first, Rapfi
    // answered `START 15` with an error and no move was played, yet c-gomoku-cli wrote a time
    // forfeit won by Black (Tabula) in the SGF and counted the game as Tabula's loss in its
    // score line; the second is a real loss.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let output = Command::new("python3")
        .arg(root.join("scripts/match/gomocup-summary.py"))
        .arg(root.join("tests/data/gomocup-void"))
        .arg("0/1")
        .output()
        .expect("python3 runs the summary script");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stdout.contains("Tabula: +0 =0 -1 in 1 games (0.0%)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("void games (left out of the score): 1"),
        "{stdout}"
    );
    assert!(
        stdout.contains("game 1 (Tabula vs Rapfi): no move was played"),
        "{stdout}"
    );
    assert!(stdout.contains("Tabula: 5 moves, mean 493 ms"), "{stdout}");
}
