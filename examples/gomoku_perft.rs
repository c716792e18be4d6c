//! Times Gomoku perft from the empty board (or a position string) with a release build:
//! `cargo run --release --example gomoku_perft -- [size] [rule] [depth] [position]`.

use tabula::game::Rules;
use tabula::games::gomoku::{Gomoku, Rule};

fn main() {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let size = arguments
        .first()
        .map_or(15, |text| text.parse().expect("a board size"));
    let rule = arguments
        .get(1)
        .map_or(Rule::Freestyle, |text| Rule::parse(text).expect("a rule"));
    let depth = arguments
        .get(2)
        .map_or(4, |text| text.parse().expect("a depth"));
    let mut game = Gomoku::new(size, rule).expect("a valid size");
    if let Some(position) = arguments.get(3) {
        game.set_position_string(position)
            .expect("a valid position");
    }
    for depth in 1..=depth {
        let line = tabula::game::perft::timed(depth, |depth| game.perft(depth));
        println!(
            "{size}x{size} {} perft({depth}) = {} in {:.3} s: {:.1} M leaves/s",
            rule.name(),
            line.leaves,
            line.elapsed.as_secs_f64(),
            line.leaves_per_second() / 1e6
        );
    }
}
