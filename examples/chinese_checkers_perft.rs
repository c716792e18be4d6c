//! Times Chinese Checkers perft from the start position.
//!
//! `cargo run --release --example chinese_checkers_perft -- [depth] [players] [jumps] [generic]`,
//! for example `-- 5 2 long`; the defaults are depth 5, 2 players, standard jumps. With `generic`
//! it times the trait's generic perft (a move list and play/undo for every leaf) instead of the
//! game's own perft, which counts the moves at the last ply without playing them.

use tabula::game::Rules;
use tabula::games::chinese_checkers::ChineseCheckers;

fn main() {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let depth: usize = arguments
        .first()
        .map_or(5, |text| text.parse().expect("a depth"));
    let players = arguments.get(1).cloned().unwrap_or_else(|| "2".to_string());
    let jumps = arguments
        .get(2)
        .cloned()
        .unwrap_or_else(|| "standard".to_string());
    let options = [
        ("players".to_string(), players.clone()),
        ("jumps".to_string(), jumps.clone()),
    ];
    let generic = arguments.get(3).is_some_and(|text| text == "generic");
    let start = ChineseCheckers::from_options(&options).expect("valid options");
    for current in 1..=depth {
        let line = tabula::game::perft::timed(current, |depth| {
            if generic {
                tabula::game::perft::perft(&mut start.clone(), depth)
            } else {
                start.perft(depth)
            }
        });
        println!(
            "players={players} jumps={jumps}{} depth {current}: {} leaves in {:.3} s, {:.1} M leaves/s",
            if generic { " generic" } else { "" },
            line.leaves,
            line.elapsed.as_secs_f64(),
            line.leaves_per_second() / 1e6
        );
    }
}
