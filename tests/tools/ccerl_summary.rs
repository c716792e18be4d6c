//! The report of scripts/match/ccerl.py on the CCERL referee's game logs: Tabula's score from
//! either colour, every shard's games, the forfeits blamed on the engine that made them, and an
//! Elo and implied rating that say they go through one engine of the list.

use std::path::Path;
use std::process::Command;

fn summarize(directory: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let output = Command::new("python3")
        .arg(root.join("scripts/match/ccerl.py"))
        .arg("--summarize")
        .arg(directory)
        .output()
        .expect("python3 runs the match script");
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

#[test]
fn scores_forfeits_and_the_implied_rating() {
    // Two shards (game ids restart in each): Tabula wins with each colour, draws at ply 240,
    // wins on tt-pvs's illegal move and loses on its own timeout.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let stdout = summarize(&root.join("tests/data/ccerl-summary"));
    for expected in [
        "games 5: Tabula 3 wins, 1 draws, 1 losses; 3.5 points (70.0%)",
        "as player 0 (moves first): W 1 D 1 L 1; as player 1: W 2 D 0 L 0",
        "illegal moves: Tabula 0, tt-pvs 1; protocol errors: Tabula 1, tt-pvs 0",
        "games-1.jsonl game 0 (o2): illegal_move by tt-pvs: bestmove 3-99",
        "games-1.jsonl game 1 (o2): protocol_error by tabula",
        "Elo difference Tabula - tt-pvs: +147, 95% interval [-148, +443]",
        "implied CCERL-2P10-v2 rating: tt-pvs 737 +147 = 884, 95% interval [589, 1180]",
        "inferred through ONE engine of the list",
    ] {
        assert!(
            stdout.contains(expected),
            "missing '{expected}' in\n{stdout}"
        );
    }
}

#[test]
fn no_loss_gives_an_open_interval_with_a_lower_bound() {
    let directory = std::env::temp_dir().join(format!("tabula-ccerl-{}", std::process::id()));
    std::fs::create_dir_all(&directory).unwrap();
    let mut log = String::new();
    for game in 0..20 {
        let (p0, p1, winner) = if game % 2 == 0 {
            ("tabula", "tt-pvs", 0)
        } else {
            ("tt-pvs", "tabula", 1)
        };
        log.push_str(&format!(
            "{{\"type\": \"ccp_game_start\", \"game_id\": {game}, \"p0\": \"{p0}\", \"p1\": \"{p1}\", \"position_id\": \"o{}\"}}\n",
            game / 2
        ));
        log.push_str(&format!(
            "{{\"type\": \"ccp_game_end\", \"game_id\": {game}, \"draw\": false, \"winner\": {winner}, \"reason\": \"all_pieces_in_goal\", \"plies\": 100}}\n"
        ));
    }
    std::fs::write(directory.join("games-0.jsonl"), log).unwrap();
    let stdout = summarize(&directory);
    std::fs::remove_dir_all(&directory).ok();
    assert!(
        stdout.contains("games 20: Tabula 20 wins, 0 draws, 0 losses; 20 points (100.0%)"),
        "{stdout}"
    );
    // The point estimate is infinite; Wilson's interval still bounds it from below.
    assert!(
        stdout.contains("Elo difference Tabula - tt-pvs: +inf, 95% interval [+"),
        "{stdout}"
    );
    assert!(
        stdout.contains("(score interval 83.9%-100.0%, Wilson)"),
        "{stdout}"
    );
    assert!(stdout.contains("= +inf, 95% interval ["), "{stdout}");
}
