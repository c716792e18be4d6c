//! The solitaire crossing of Chinese Checkers (one player, camp 1 to camp 4): the beam search of
//! the race solver at several widths, with the number of moves found and the time it took:
//! `tabula selfplay chinese-checkers --crossing 100,1000,10000`.

use crate::game::Rules;
use crate::games::chinese_checkers::race::{Budget, Race};
use crate::games::chinese_checkers::ChineseCheckers;
use anyhow::Context;
use std::time::Instant;

/// Plans the crossing at each beam width of `widths` and prints each line.
///
/// # Errors
/// A width finds no crossing.
pub fn run(widths: &[usize]) -> anyhow::Result<()> {
    let options = [("players".to_string(), "1".to_string())];
    let start = ChineseCheckers::from_options(&options)?;
    let race = Race::of(&start, 0).context("solitaire is a race")?;
    for &width in widths {
        let began = Instant::now();
        let line = race
            .plan(start.pieces(0), width, &Budget::nodes(u64::MAX))
            .with_context(|| format!("no crossing at width {width}"))?;
        let elapsed = began.elapsed();
        // Replay the line through the rules: every move legal, the game over at the end.
        let mut position = start.clone();
        for &(from, to) in &line.moves {
            let mv = crate::games::chinese_checkers::ChineseCheckersMove::new(
                from as usize,
                to as usize,
            );
            position.try_play(mv).expect("a legal move");
        }
        assert!(position
            .outcome()
            .is_some_and(|outcome| outcome.place(0) == 1));
        let text: Vec<String> = line
            .moves
            .iter()
            .map(|&(from, to)| format!("{}-{}", from + 1, to + 1))
            .collect();
        println!(
            "width {width}: {} moves in {:.2} s ({} positions): {}",
            line.moves.len(),
            elapsed.as_secs_f64(),
            line.nodes,
            text.join(" ")
        );
    }
    Ok(())
}
