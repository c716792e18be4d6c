//! `tabula solve`: the exact solver on the Reversi positions of an Edax `.obf` file, checked
//! against the scores the file gives.

use crate::game::{Game, SolveRequest};
use crate::games::reversi::obf;
use crate::transposition::TranspositionTable;
use anyhow::{bail, Context, Result};
use std::time::Instant;

/// Solves the positions numbered `from..=to` of `file` (whose first position is `first_number`)
/// and prints a table with a check of each known score.
///
/// # Errors
/// The file cannot be read or parsed, or a position is solved wrongly.
#[allow(clippy::too_many_arguments)]
pub fn run(
    file: &std::path::Path,
    first_number: usize,
    from: Option<usize>,
    to: Option<usize>,
    threads: usize,
    hash: usize,
    all_moves: bool,
) -> Result<()> {
    use std::sync::atomic::AtomicBool;
    let text =
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    let positions = obf::parse_file(&text)?;
    let table = TranspositionTable::new(hash);
    let stop = AtomicBool::new(false);
    let (mut total_nodes, mut total_time, mut failures) = (0u64, 0f64, 0);
    println!(
        "{:>4} {:>7} {:>5} {:>6} {:>8} {:>10} {:>14} {:>12}  check",
        "#", "empties", "move", "score", "expected", "time (s)", "nodes", "nodes/s"
    );
    for (index, entry) in positions.iter().enumerate() {
        let number = first_number + index;
        if from.is_some_and(|from| number < from) || to.is_some_and(|to| number > to) {
            continue;
        }
        table.clear();
        let start = Instant::now();
        let request = SolveRequest {
            stop: &stop,
            threads,
            start,
            hard_time: None,
            all_moves,
            table: &table,
        };
        let solution = entry
            .position
            .solve(&request)
            .context("the position is already finished")?;
        let seconds = start.elapsed().as_secs_f64();
        let (best, score) = solution.moves[0];
        let written = entry.position.format_move(best);
        let expected = entry.best_score();
        let score_ok = expected.is_none_or(|expected| expected == score);
        let move_ok = entry.best_moves().is_empty() || entry.best_moves().contains(&written);
        let mut check = if score_ok && move_ok {
            "ok".to_string()
        } else {
            "WRONG".to_string()
        };
        if all_moves {
            for (mv, known) in &entry.scores {
                let found = solution.moves.iter().find(|(candidate, _)| {
                    entry
                        .position
                        .format_move(*candidate)
                        .eq_ignore_ascii_case(mv)
                });
                if found.map(|&(_, value)| value) != Some(*known) {
                    check = format!(
                        "WRONG ({mv}: expected {known:+}, found {:?})",
                        found.map(|f| f.1)
                    );
                }
            }
        }
        if !check.starts_with("ok") {
            failures += 1;
        }
        total_nodes += solution.nodes;
        total_time += seconds;
        println!(
            "{number:>4} {:>7} {written:>5} {score:>+6} {:>8} {seconds:>10.3} {:>14} {:>12.0}  {check}",
            entry.position.empties(),
            expected.map_or("?".to_string(), |e| format!("{e:+}")),
            solution.nodes,
            solution.nodes as f64 / seconds.max(1e-9),
        );
    }
    println!(
        "total {total_time:.3} s, {total_nodes} nodes, {:.0} nodes/s, {failures} wrong",
        total_nodes as f64 / total_time.max(1e-9)
    );
    if failures > 0 {
        bail!("{failures} positions solved wrongly");
    }
    Ok(())
}
