//! The solitaire crossing of Chinese Checkers (one player, camp 1 to camp 4): the beam search of
//! the race solver at several widths, with the number of moves found and the time it took.
//!
//!     cargo run --release --example chinese_checkers_solitaire -- 100 1000 10000

use std::time::Instant;
use tabula::game::Rules;
use tabula::games::chinese_checkers::race::{Budget, Race};
use tabula::games::chinese_checkers::ChineseCheckers;

fn main() {
    let widths: Vec<usize> = std::env::args()
        .skip(1)
        .map(|arg| arg.parse().expect("a beam width"))
        .collect();
    let widths = if widths.is_empty() {
        vec![100, 1000]
    } else {
        widths
    };
    let options = [("players".to_string(), "1".to_string())];
    let start = ChineseCheckers::from_options(&options).expect("solitaire");
    let race = Race::of(&start, 0).expect("solitaire is a race");
    for width in widths {
        let began = Instant::now();
        let line = race
            .plan(start.pieces(0), width, &Budget::nodes(u64::MAX))
            .expect("a crossing");
        let elapsed = began.elapsed();
        // Replay the line through the rules: every move legal, the game over at the end.
        let mut position = start.clone();
        for &(from, to) in &line.moves {
            let mv = tabula::games::chinese_checkers::ChineseCheckersMove::new(
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
}
