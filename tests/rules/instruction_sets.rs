//! The binary chooses its instruction set at run time: the fast one where the CPU has it, the
//! portable one with `TABULA_PORTABLE=1`, and both count every game's perft alike.

use std::process::Command;

/// Runs `tabula perft` for `game` to `depth`, with or without `TABULA_PORTABLE=1`; returns the
/// leaf count of the last depth and the instruction set the binary reported on stderr.
fn perft(game: &str, depth: usize, portable: bool) -> (u64, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tabula"));
    command
        .args(["perft", "--game", game, "--depth", &depth.to_string()])
        .env("RUST_LOG", "info");
    if portable {
        command.env("TABULA_PORTABLE", "1");
    } else {
        command.env_remove("TABULA_PORTABLE");
    }
    let output = command.output().expect("tabula runs");
    assert!(output.status.success(), "perft {game} {depth} failed");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let line = stdout
        .lines()
        .find(|line| {
            line.split_whitespace()
                .take(2)
                .eq(["perft", &depth.to_string()])
        })
        .unwrap_or_else(|| panic!("no perft {depth} line in {stdout}"));
    let leaves = line.split_whitespace().nth(2).unwrap().parse().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let set = stderr
        .lines()
        .find_map(|line| line.split("instruction set: ").nth(1))
        .unwrap_or_else(|| panic!("no instruction set reported in {stderr}"))
        .trim()
        .to_string();
    (leaves, set)
}

#[test]
fn every_game_counts_perft_alike_on_both_instruction_sets() {
    #[cfg(target_arch = "x86_64")]
    let fast = tabula::base::cpu::Avx2::detect().map_or("portable", |_| "avx2");
    #[cfg(not(target_arch = "x86_64"))]
    let fast = "portable";
    for (game, depth, count) in [
        ("reversi", 9, 3_005_288),
        ("gomoku", 3, 11_239_200),
        ("chinese-checkers", 4, 115_600),
    ] {
        assert_eq!(
            perft(game, depth, true),
            (count, "portable".to_string()),
            "{game}"
        );
        assert_eq!(
            perft(game, depth, false),
            (count, fast.to_string()),
            "{game}"
        );
    }
}
