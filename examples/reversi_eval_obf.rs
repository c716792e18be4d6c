//! Compares the static evaluations with the exact scores of `.obf` test positions (validation
//! only): `cargo run --release --example reversi_eval_obf -- FILE... [--weights FILE]`.
//! Prints, per file, the mean absolute error of the pattern evaluation in discs, and the
//! correlation of each evaluation with the exact scores.

use tabula::games::reversi::evaluation::{hand_made, DISC};
use tabula::games::reversi::obf;
use tabula::games::reversi::patterns::Weights;

fn correlation(pairs: &[(f64, f64)]) -> f64 {
    let count = pairs.len() as f64;
    let (mean_x, mean_y) = pairs
        .iter()
        .fold((0.0, 0.0), |(x, y), &(a, b)| (x + a / count, y + b / count));
    let (mut xy, mut xx, mut yy) = (0.0, 0.0, 0.0);
    for &(x, y) in pairs {
        xy += (x - mean_x) * (y - mean_y);
        xx += (x - mean_x) * (x - mean_x);
        yy += (y - mean_y) * (y - mean_y);
    }
    xy / (xx * yy).sqrt().max(1e-12)
}

fn main() {
    let mut files = Vec::new();
    let mut weights = Weights::embedded();
    let mut arguments = std::env::args().skip(1);
    while let Some(argument) = arguments.next() {
        if argument == "--weights" {
            let path = arguments.next().expect("a weight file after --weights");
            weights = Weights::decode(&std::fs::read(&path).expect("a readable file"))
                .expect("a weight file");
        } else {
            files.push(argument);
        }
    }
    for file in files {
        let text = std::fs::read_to_string(&file).expect("a readable .obf file");
        let positions = obf::parse_file(&text).expect("an .obf file");
        let mut patterns = Vec::new();
        let mut hand = Vec::new();
        for entry in &positions {
            let Some(exact) = entry.best_score() else {
                continue;
            };
            let (player, opponent) = (entry.position.player, entry.position.opponent);
            let value = weights.evaluate(player, opponent) as f64 / DISC as f64;
            patterns.push((value, exact as f64));
            hand.push((hand_made(player, opponent, 7) as f64, exact as f64));
        }
        let error =
            patterns.iter().map(|(x, y)| (x - y).abs()).sum::<f64>() / patterns.len() as f64;
        println!(
            "{file}: {} positions; patterns MAE {error:.2} discs, correlation {:.3}; hand-made correlation {:.3}",
            patterns.len(),
            correlation(&patterns),
            correlation(&hand)
        );
    }
}
