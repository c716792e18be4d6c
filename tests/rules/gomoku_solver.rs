//! Gomoku's threat-space solvers (VCF and VCT) on hand-made positions with known answers, under
//! each rule, including renju positions where the winning line would need a point forbidden to
//! black. Every win's line is replayed and checked move by move with the public rules.

use tabula::game::{Rules, SearchHooks};
use tabula::games::gomoku::threats::Kind;
use tabula::games::gomoku::vcf::{Budget, ThreatSolver};
use tabula::games::gomoku::{Gomoku, GomokuMove, Rule};

use crate::gomoku_positions;
use gomoku_positions::{position, RULES};

fn names(game: &Gomoku, line: &[GomokuMove]) -> Vec<String> {
    line.iter().map(|&mv| game.format_move(mv)).collect()
}

/// Solves with a generous budget and checks the line; returns the plies and the line.
fn solve(game: &Gomoku, threes: u32) -> Option<(u32, Vec<String>)> {
    let mut solver = ThreatSolver::new(16);
    let mut copy = game.clone();
    let budget = Budget::vct(2_000_000, 40, threes);
    let win = solver.solve(&mut copy, budget)?;
    assert_eq!(&copy, game, "the solver changed the position");
    let line = solver.principal_line(&mut copy, budget);
    assert_eq!(line.first(), Some(&win.first));
    check_line(game, &line, threes == 0);
    Some((win.plies, names(game, &line)))
}

/// Replays a winning line: every move legal, the attacker wins with its last move, and in a VCF
/// every attacker move but the last threatens a five, which the defender's next move blocks when
/// it is the only one and black may play it.
fn check_line(game: &Gomoku, line: &[GomokuMove], vcf: bool) {
    let attacker = game.side_to_move();
    let mut position = game.clone();
    for (index, &mv) in line.iter().enumerate() {
        assert!(
            position.is_legal(mv),
            "{} illegal in line {:?}",
            position.format_move(mv),
            names(game, line)
        );
        position.play_unchecked(mv);
        let last = index + 1 == line.len();
        if vcf && !last && position.side_to_move() != attacker {
            let fives = position.threats().points(attacker, Kind::Five);
            assert!(!fives.is_empty(), "no four in {:?}", names(game, line));
            let block = fives.first().unwrap();
            if fives.len() == 1 && position.is_legal(GomokuMove(block as u16)) {
                assert_eq!(line[index + 1].point(), block, "{:?}", names(game, line));
            }
        }
    }
    assert_eq!(
        position.winner(),
        Some(attacker),
        "the line {:?} does not win",
        names(game, line)
    );
}

#[test]
fn a_five_and_an_open_four_are_found_under_each_rule() {
    for rule in RULES {
        let game = position(
            rule,
            &["e8", "f8", "g8", "h8"],
            &["e9", "f9", "g9", "d8"],
            true,
        );
        assert_eq!(solve(&game, 0).map(|(plies, _)| plies), Some(1), "{rule:?}");
        let game = position(rule, &["f8", "g8", "h8"], &["e9", "f9", "g9"], true);
        let (plies, line) = solve(&game, 0).expect("an open four");
        assert_eq!(plies, 3, "{rule:?}");
        assert!(["e8", "i8"].contains(&line[0].as_str()), "{line:?}");
    }
}

#[test]
fn a_four_then_a_four_three_wins_by_vcf() {
    // Column h: white h11 over black h10 h9 h8, so h7 is a four (white must take h6) that also
    // makes the open three f7 g7 h7; the open four follows.
    for rule in RULES {
        let game = position(
            rule,
            &["h8", "h9", "h10", "f7", "g7"],
            &["h11", "c12", "l12", "c3", "l3"],
            true,
        );
        let (plies, line) = solve(&game, 0).expect("a VCF");
        assert_eq!(plies, 5, "{rule:?} {line:?}");
        assert_eq!(line[..2], ["h7", "h6"], "{rule:?}");
    }
}

#[test]
fn counter_fours_of_the_defender_are_answered_or_refute() {
    // As above, but white's forced block h6 makes the white four h6 i5 j4 k3 (against black g7):
    // black must block at l2, which makes its own four l2 l3 l4 l5 (against white l6); then the
    // open four follows.
    for rule in RULES {
        let black = ["h8", "h9", "h10", "f7", "g7", "l3", "l4", "l5"];
        let white = ["h11", "i5", "j4", "k3", "l6", "c12", "l12", "c3"];
        let game = position(rule, &black, &white, true);
        let (plies, line) = solve(&game, 0).expect("a VCF through the counter-four");
        assert_eq!(line[..4], ["h7", "h6", "l2", "l1"], "{rule:?}");
        assert_eq!(plies, 7, "{rule:?}");
        // Without the black stones of column l, black's block is no four: the VCF fails.
        let game = position(rule, &black[..5], &white, true);
        assert_eq!(solve(&game, 0), None, "{rule:?}");
    }
}

#[test]
fn a_double_three_wins_by_vct_but_not_by_vcf_and_is_forbidden_to_black_in_renju() {
    // h8 makes the open threes f8 g8 h8 and h6 h7 h8.
    let twos = ["f8", "g8", "h6", "h7"];
    let far = ["c12", "l12", "c3", "l3"];
    for rule in RULES {
        let game = position(rule, &twos, &far, true);
        assert_eq!(solve(&game, 0), None, "{rule:?}");
        if rule == Rule::Renju {
            let h8 = game.parse_move("h8").unwrap().point();
            assert!(game.forbidden_for_black(h8).is_some());
            let result = solve(&game, 2);
            assert!(
                result.as_ref().is_none_or(|(_, line)| line[0] != "h8"),
                "{result:?}"
            );
        } else {
            let (plies, line) = solve(&game, 2).expect("a VCT");
            assert_eq!((plies, line[0].as_str()), (5, "h8"), "{rule:?}");
        }
        // White may play it under every rule.
        let far_black = ["c12", "l12", "c3", "l3", "a7"];
        let game = position(rule, &far_black, &twos, false);
        assert_eq!(solve(&game, 0), None, "{rule:?}");
        let (plies, line) = solve(&game, 2).expect("white's double three");
        assert_eq!((plies, line[0].as_str()), (5, "h8"), "{rule:?}");
    }
}

#[test]
fn renju_black_cannot_win_through_a_double_four() {
    // i8 makes two fours: e8 (white) f8 g8 h8 i8 and i4 (white) i5 i6 i7 i8.
    let black = ["f8", "g8", "h8", "i5", "i6", "i7"];
    let white = ["e8", "i4", "c12", "l12", "c3", "l3"];
    for rule in [Rule::Freestyle, Rule::Standard] {
        let game = position(rule, &black, &white, true);
        let (plies, line) = solve(&game, 0).expect("a double four");
        assert_eq!((plies, line[0].as_str()), (3, "i8"), "{rule:?}");
    }
    let renju = position(Rule::Renju, &black, &white, true);
    let i8 = renju.parse_move("i8").unwrap().point();
    assert_eq!(
        renju.forbidden_for_black(i8).map(|reason| reason.name()),
        Some("double-four")
    );
    assert_eq!(solve(&renju, 0), None);
}

#[test]
fn renju_white_wins_where_black_would_have_to_block_on_a_forbidden_point() {
    // Black's twos i8 j8 and k6 k7 make k8 a double three, forbidden to black. White's j7 makes
    // the four j7 _ l9 m10 n11 (o12 black) whose only completion is k8: black cannot block it.
    let black = ["i8", "j8", "k6", "k7", "o12"];
    let white = ["l9", "m10", "n11"];
    let renju = position(Rule::Renju, &black, &white, false);
    let k8 = renju.parse_move("k8").unwrap().point();
    assert_eq!(
        renju.forbidden_for_black(k8).map(|reason| reason.name()),
        Some("double-three")
    );
    let (plies, line) = solve(&renju, 0).expect("white's win through the forbidden block");
    assert_eq!((plies, line[0].as_str()), (3, "j7"), "{line:?}");
    assert_eq!(line.last().map(String::as_str), Some("k8"));
    // Under the other rules black blocks on k8 and white has no VCF.
    for rule in [Rule::Freestyle, Rule::Standard] {
        let game = position(rule, &black, &white, false);
        assert_eq!(solve(&game, 0), None, "{rule:?}");
    }
}

/// A naive VCF of at most `depth` attacker moves, from the public rules alone: the attacker plays
/// any legal point after which it can make five; the defender must block the one five.
fn naive_vcf(game: &mut Gomoku, depth: u32) -> bool {
    let attacker = game.side_to_move();
    let defender = 1 - attacker;
    let empties: Vec<GomokuMove> = (0..game.size() * game.size())
        .filter(|&point| game.stone(point).is_none())
        .map(|point| GomokuMove(point as u16))
        .collect();
    let fives = |game: &Gomoku, colour: usize| -> Vec<GomokuMove> {
        empties
            .iter()
            .copied()
            .filter(|&mv| game.stone(mv.point()).is_none() && game.makes_five(mv.point(), colour))
            .collect()
    };
    if fives(game, attacker).iter().any(|&mv| game.is_legal(mv)) {
        return true;
    }
    if depth == 0 {
        return false;
    }
    let blocks = fives(game, defender);
    let candidates: Vec<GomokuMove> = match blocks.len() {
        0 => empties.clone(),
        1 => blocks,
        _ => return false,
    };
    for mv in candidates {
        if !game.is_legal(mv) {
            continue;
        }
        let token = game.play_unchecked(mv);
        let threats = fives(game, attacker);
        let wins = if threats.is_empty() || !fives(game, defender).is_empty() {
            false
        } else if threats.len() >= 2 || !game.is_legal(threats[0]) {
            true
        } else {
            let block = game.play_unchecked(threats[0]);
            let wins = naive_vcf(game, depth - 1);
            game.undo(threats[0], block);
            wins
        };
        game.undo(mv, token);
        if wins {
            return true;
        }
    }
    false
}

#[test]
fn vcf_agrees_with_a_naive_search_on_random_positions() {
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    let mut rng = SmallRng::seed_from_u64(5);
    let mut wins = [0; 3];
    for (index, rule) in RULES.into_iter().enumerate() {
        for _ in 0..40 {
            let mut game = Gomoku::new(11, rule).unwrap();
            let plies = rng.random_range(8..30);
            let mut moves = Vec::new();
            for _ in 0..plies {
                game.search_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                game.play_unchecked(moves[rng.random_range(0..moves.len())]);
            }
            if game.outcome().is_some() {
                continue;
            }
            for depth in 1..=3 {
                let mut solver = ThreatSolver::new(14);
                let found = solver.solve(&mut game.clone(), Budget::vcf(10_000_000, depth));
                let naive = naive_vcf(&mut game.clone(), depth);
                assert_eq!(
                    found.is_some(),
                    naive,
                    "depth {depth} at {}",
                    game.position_string()
                );
                if let Some(win) = found {
                    assert!(win.plies < 2 * depth + 2);
                    wins[index] += 1;
                }
            }
        }
    }
    // The positions hold wins to find under every rule.
    assert!(wins.iter().all(|&count| count >= 5), "{wins:?}");
}
