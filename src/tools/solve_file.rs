//! `tabula solve`: the exact solver on the Reversi positions of an Edax `.obf` file, numbered as
//! the suite numbers them, with a check of each known score. It runs `tabula analyze --exact`'s
//! input reading and solving, one position at a time, and prints a table.

use crate::engine::{new_session, InfoMode, Settings, StopSignal};
use crate::search::limits::Limits;
use crate::tools::analyze::{input, search};
use anyhow::{bail, Context, Result};
use std::path::PathBuf;
use std::sync::Arc;

/// What `tabula solve` solves, and how.
#[derive(Debug, Clone)]
pub struct SolveRequest {
    /// The Edax `.obf` file of positions.
    pub file: PathBuf,
    /// The number of the file's first position (FFO files start at 40, say).
    pub first_number: usize,
    /// The first position number to solve; none: from the file's first.
    pub from: Option<usize>,
    /// The last position number to solve; none: to the file's last.
    pub to: Option<usize>,
    /// Solver threads.
    pub threads: usize,
    /// Transposition table size in megabytes.
    pub hash_megabytes: usize,
    /// Score every move, not just the best.
    pub all_moves: bool,
}

/// Solves the positions numbered `from..=to` of the request's file and prints a table with a
/// check of each known score; `all_moves` scores every move.
///
/// # Errors
/// The file cannot be read or parsed, or a position is solved wrongly.
pub fn run(request: &SolveRequest) -> Result<()> {
    let SolveRequest {
        ref file,
        first_number,
        from,
        to,
        threads,
        hash_megabytes,
        all_moves,
    } = *request;
    // No clock here: a first touch of the table may compact memory for huge pages.
    crate::base::transposition::prefer_huge_pages();
    let settings = Settings {
        hash_megabytes,
        threads,
        info: InfoMode::Off,
        ..Settings::default()
    };
    let mut session = new_session(
        "reversi",
        &[],
        settings,
        Arc::new(StopSignal::default()),
        None,
    )
    .context("cannot set up Reversi")?;
    let input = input::read_inputs(std::slice::from_ref(file), session.as_mut(), true)?;
    let task = search::Task {
        limits: Limits::default(),
        exact: true,
        multipv: if all_moves { 64 } else { 1 },
        keep_table: false,
    };
    let (mut total_nodes, mut total_time, mut failures) = (0u64, 0f64, 0);
    println!(
        "{:>4} {:>7} {:>5} {:>6} {:>8} {:>10} {:>14} {:>12}  check",
        "#", "empties", "move", "score", "expected", "time (s)", "nodes", "nodes/s"
    );
    for (index, item) in input.items.iter().enumerate() {
        let number = first_number + index;
        if from.is_some_and(|from| number < from) || to.is_some_and(|to| number > to) {
            continue;
        }
        let record = search::analyse(session.as_mut(), item, index, input.items.len(), "", &task)
            .context("stopped")?;
        if let Some(error) = &record.error {
            bail!("position {number}: {error}");
        }
        let score = record.score.and_then(|score| score.exact());
        let seconds = record.time_ms as f64 / 1000.0;
        let check = if record.agree.unwrap_or(true) {
            "ok"
        } else {
            "WRONG"
        };
        if check != "ok" {
            failures += 1;
        }
        total_nodes += record.nodes;
        total_time += seconds;
        println!(
            "{number:>4} {:>7} {:>5} {:>6} {:>8} {seconds:>10.3} {:>14} {:>12.0}  {check}",
            record.depth,
            record.best.as_deref().unwrap_or("-"),
            score.map_or("?".to_string(), |score| format!("{score:+}")),
            record
                .expected
                .as_ref()
                .and_then(|expected| expected.score)
                .map_or("?".to_string(), |score| format!("{score:+}")),
            record.nodes,
            record.nodes as f64 / seconds.max(1e-3),
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
