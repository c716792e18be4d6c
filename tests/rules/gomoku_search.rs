//! The search on Gomoku: the basic tactics under each rule (win in one, block a four, block an
//! open three, play a winning four-three), `solve`, determinism at one thread and a fixed depth,
//! one and two threads agreeing on won positions, level 1 as the greedy player, and the root's
//! defence against the opponent's threat win; the tactics again under the most selective
//! pruning, and the extension of the only reply to a four.

use std::sync::atomic::AtomicBool;
use std::time::Instant;
use tabula::base::score;
use tabula::base::transposition::TranspositionTable;
use tabula::game::{LeftOutLosses, Rules, SearchHooks, Selectivity, SolveRequest, Strength};
use tabula::games::gomoku::evaluation::greedy_score;
use tabula::games::gomoku::threats::Kind;
use tabula::games::gomoku::vcf::{Budget, ThreatSolver};
use tabula::games::gomoku::{Gomoku, GomokuMove, Rule};
use tabula::search::limits::Limits;
use tabula::search::{self, SearchOutcome, SearchRequest, Worker};

use crate::gomoku_positions;
use gomoku_positions::{position, RULES};

fn search(game: &Gomoku, depth: u32, threads: usize, strength: u8) -> SearchOutcome<GomokuMove> {
    search_under(game, depth, threads, strength, None)
}

/// Pruning far more selective than any a game would ask for: futility pruning of nodes and of
/// moves (whatever their hint) and razoring at every depth with no margin, move-count pruning
/// everywhere, late-move reductions four times Gomoku's, the single-reply extension, and internal
/// iterative reduction from two plies, no widening before a loss, under the search's own aspiration window (with a window of
/// one point, so unsound a search played the move that loses to the opponent's threat win at
/// depth 6).
const RECKLESS: Selectivity = Selectivity {
    futility_depth: 64,
    futility_margin: 0,
    razor_depth: 64,
    razor_margin: 0,
    move_count_depth: 64,
    single_reply_extension: true,
    reduction_scale: 300,
    internal_reduction_depth: 2,
    move_futility_depth: 64,
    move_futility_margin: 0,
    move_futility_hint: i32::MAX,
    aspiration_window: 0,
    left_out_losses: LeftOutLosses::Proven,
};

/// The game's own selectivity and [`RECKLESS`].
const SELECTIVITIES: [Option<Selectivity>; 2] = [None, Some(RECKLESS)];

/// [`search`] with `selectivity` instead of the game's own (`None`: the game's).
fn search_under(
    game: &Gomoku,
    depth: u32,
    threads: usize,
    strength: u8,
    selectivity: Option<Selectivity>,
) -> SearchOutcome<GomokuMove> {
    let table = TranspositionTable::new(16);
    let mut workers: Vec<Worker<Gomoku>> = Vec::new();
    let request = SearchRequest {
        limits: Limits {
            depth: Some(depth),
            ..Limits::default()
        },
        threads,
        strength: Strength(strength),
        multi_pv: 1,
        instant_single_move: false,
        probcut: true,
        selectivity,
    };
    search::search(
        game,
        &request,
        &table,
        &AtomicBool::new(false),
        &mut workers,
        &mut |_| {},
    )
}

/// The best move at `depth`, the same under every selectivity of [`SELECTIVITIES`].
fn best(game: &Gomoku, depth: u32) -> String {
    let moves: Vec<String> = SELECTIVITIES
        .iter()
        .map(|&selectivity| {
            let outcome = search_under(game, depth, 1, 8, selectivity);
            game.format_move(outcome.best_move().unwrap())
        })
        .collect();
    assert_eq!(moves[0], moves[1], "the selectivities disagree");
    moves[0].clone()
}

/// Both colours: the shape for the side to move (or, with `against`, for its opponent).
fn both_colours(rule: Rule, own: &[&str], other: &[&str]) -> [Gomoku; 2] {
    [
        position(rule, own, other, true),
        position(rule, other, own, false),
    ]
}

#[test]
fn a_five_is_always_played() {
    for rule in RULES {
        for game in both_colours(rule, &["e8", "f8", "g8", "h8"], &["d8", "e9", "f9", "g9"]) {
            for depth in [1, 2, 5] {
                assert_eq!(best(&game, depth), "i8", "{rule:?} depth {depth}");
            }
        }
    }
}

#[test]
fn a_four_is_always_blocked() {
    for rule in RULES {
        // The opponent's four e8 f8 g8 h8 against d8; the side to move has a three of its own.
        for game in both_colours(
            rule,
            &["f10", "g10", "h10", "d8"],
            &["e8", "f8", "g8", "h8"],
        ) {
            for depth in [1, 2, 5] {
                assert_eq!(best(&game, depth), "i8", "{rule:?} depth {depth}");
            }
        }
    }
}

#[test]
fn an_open_three_is_always_stopped() {
    for rule in RULES {
        // The opponent's open three f8 g8 h8; the side to move has scattered stones.
        for game in both_colours(rule, &["c12", "m12", "l3"], &["f8", "g8", "h8"]) {
            let side = game.side_to_move();
            for (depth, selectivity) in [1, 2, 4]
                .into_iter()
                .flat_map(|depth| SELECTIVITIES.map(|selectivity| (depth, selectivity)))
            {
                let mut after = game.clone();
                let mv = search_under(&game, depth, 1, 8, selectivity)
                    .best_move()
                    .unwrap();
                after.try_play(mv).unwrap();
                assert!(
                    after.threats().points(1 - side, Kind::OpenFour).is_empty(),
                    "{rule:?} depth {depth}: {} lets the open four through",
                    game.format_move(mv)
                );
            }
        }
    }
}

#[test]
fn a_four_three_is_played_and_scored_as_a_win() {
    for rule in RULES {
        // h8 makes the four e8 f8 g8 h8 (against d8) and the open three h6 h7 h8.
        let own = ["e8", "f8", "g8", "h6", "h7"];
        let other = ["d8", "c12", "m12", "l3", "a7"];
        for game in both_colours(rule, &own, &other) {
            for (depth, selectivity) in [1, 3, 5]
                .into_iter()
                .flat_map(|depth| SELECTIVITIES.map(|selectivity| (depth, selectivity)))
            {
                let outcome = search_under(&game, depth, 1, 8, selectivity);
                let value = outcome.score().unwrap();
                assert!(
                    value >= score::WIN_THRESHOLD,
                    "{rule:?} depth {depth}: {value}"
                );
                assert_eq!(game.format_move(outcome.best_move().unwrap()), "h8");
            }
        }
    }
}

/// `lost` lets the opponent win by threats within `threat`; searches of depth 2, 4 and 6 must
/// neither play it nor any other move after which that threat win remains.
fn assert_the_root_defends(game: &Gomoku, lost: &str, threat: Budget) {
    let lost = game.parse_move(lost).unwrap();
    let mut after = game.clone();
    after.play_unchecked(lost);
    assert!(
        ThreatSolver::new(16).solve(&mut after, threat).is_some(),
        "the opponent wins by threats after {}",
        game.format_move(lost)
    );
    for (depth, selectivity) in [2, 4, 6]
        .into_iter()
        .flat_map(|depth| SELECTIVITIES.map(|selectivity| (depth, selectivity)))
    {
        let mv = search_under(game, depth, 1, 8, selectivity)
            .best_move()
            .unwrap();
        assert_ne!(mv, lost, "depth {depth}");
        let mut after = game.clone();
        after.play_unchecked(mv);
        assert!(
            ThreatSolver::new(16).solve(&mut after, threat).is_none(),
            "depth {depth}: the opponent still wins by threats after {}",
            game.format_move(mv)
        );
    }
}

/// Level 8 lost a renju game to the greedy player after playing i8 here (black to move): white
/// then wins by threats (a VCT with three open threes, found in about a thousand nodes), but
/// searches of depth 2 to 6 did not see it. The root now keeps only the moves that stop the
/// opponent's quick threat win, so every depth defends (e12 blocks it).
#[test]
fn the_root_defends_against_the_opponents_threat_win() {
    let mut game = Gomoku::new(15, Rule::Renju).unwrap();
    game.set_position_string("h6 f9 i10 h9 g9 g10 h11 f11")
        .unwrap();
    assert_the_root_defends(&game, "i8", Budget::vct(100_000, 30, 3));
}

/// The freestyle twin of the position above: there white's threat win after `i8` needs four open
/// threes, one more than the root's check looked for, and level 8 played `i8` at 200 ms a move
/// and lost to the greedy player.
#[test]
fn the_root_defends_against_a_threat_win_with_four_threes() {
    let mut game = Gomoku::new(15, Rule::Freestyle).unwrap();
    game.set_position_string("h6 f9 i10 h9 g9 g10 h11 f11")
        .unwrap();
    let mut after = game.clone();
    after.play_unchecked(game.parse_move("i8").unwrap());
    assert!(
        ThreatSolver::new(16)
            .solve(&mut after, Budget::vct(100_000, 30, 3))
            .is_none(),
        "not with three open threes"
    );
    assert_the_root_defends(&game, "i8", Budget::vct(100_000, 30, 4));
}

/// The side to move can make a four (h8, against d8) but has no win: at depth 2 the opponent's
/// block of that four is its only reply, and the extension searches it one ply deeper, so the
/// search reaches ply 3 only with the extension.
#[test]
fn the_only_reply_to_a_four_is_searched_one_ply_deeper() {
    for rule in RULES {
        let game = position(
            rule,
            &["e8", "f8", "g8", "c12"],
            &["d8", "m12", "l3", "c3"],
            true,
        );
        let reach = |single_reply_extension| {
            let selectivity = Selectivity {
                single_reply_extension,
                ..Selectivity::default()
            };
            let outcome = search_under(&game, 2, 1, 8, Some(selectivity));
            assert!(!score::is_decisive(outcome.score().unwrap()), "{rule:?}");
            outcome.best.unwrap().selective_depth
        };
        assert_eq!(reach(false), 2, "{rule:?}");
        assert!(reach(true) >= 3, "{rule:?}");
    }
}

#[test]
fn solve_reports_a_win_with_its_line_or_nothing() {
    let game = position(
        Rule::Freestyle,
        &["h8", "h9", "h10", "f7", "g7"],
        &["h11", "c12", "l12", "c3", "l3"],
        true,
    );
    let stop = AtomicBool::new(false);
    let table = TranspositionTable::new(1);
    let request = SolveRequest {
        stop: &stop,
        threads: 1,
        start: Instant::now(),
        hard_time: None,
        all_moves: false,
        table: &table,
    };
    let solution = game.solve(&request).expect("a VCF");
    assert_eq!(solution.moves.len(), 1);
    let (first, value) = solution.moves[0];
    assert_eq!(game.format_move(first), "h7");
    assert_eq!(value, score::win_in(5, 0));
    assert_eq!(solution.pv.len(), 5);
    assert_eq!(solution.pv[0], first);
    let quiet = position(Rule::Freestyle, &["h8", "c12"], &["h9", "l3"], true);
    assert_eq!(quiet.solve(&request), None);
}

#[test]
fn fixed_depth_searches_on_one_thread_repeat_exactly() {
    for rule in RULES {
        let mut game = Gomoku::new(15, rule).unwrap();
        game.set_position_string("h8i9h9h7g8i8i7g9").unwrap();
        let first = search(&game, 5, 1, 8);
        let second = search(&game, 5, 1, 8);
        assert_eq!(first.best_move(), second.best_move(), "{rule:?}");
        assert_eq!(first.score(), second.score(), "{rule:?}");
        assert_eq!(first.nodes, second.nodes, "{rule:?}");
    }
}

#[test]
fn one_and_two_threads_agree_on_won_positions() {
    for rule in RULES {
        let game = position(
            rule,
            &["h8", "h9", "h10", "f7", "g7"],
            &["h11", "c12", "l12", "c3", "l3"],
            true,
        );
        let mut white = game.clone();
        white.set_position_string("h8i9h9h7g8i8i7g9j10").unwrap();
        for position in [game, white] {
            let one = search(&position, 6, 1, 8);
            let two = search(&position, 6, 2, 8);
            let (a, b) = (one.score().unwrap(), two.score().unwrap());
            if score::is_decisive(a) || score::is_decisive(b) {
                assert_eq!(a.signum(), b.signum(), "{rule:?}: {a} vs {b}");
                assert!(
                    score::is_decisive(a) && score::is_decisive(b),
                    "{rule:?}: {a} vs {b}"
                );
            }
        }
    }
}

#[test]
fn level_one_plays_the_greedy_move() {
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    let mut rng = SmallRng::seed_from_u64(3);
    for rule in RULES {
        let mut checked = 0;
        for _ in 0..200 {
            if checked == 15 {
                break;
            }
            let mut game = Gomoku::new(15, rule).unwrap();
            let mut moves = Vec::new();
            for _ in 0..rng.random_range(2..40) {
                game.search_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                game.play_unchecked(moves[rng.random_range(0..moves.len())]);
            }
            if game.outcome().is_some() {
                continue;
            }
            game.search_moves(&mut moves);
            let side = game.side_to_move();
            let top = moves
                .iter()
                .map(|mv| greedy_score(&game, mv.point(), side))
                .max()
                .unwrap();
            let chosen = search(&game, 1, 1, 1).best_move().unwrap();
            assert_eq!(
                greedy_score(&game, chosen.point(), side),
                top,
                "{rule:?} at {}",
                game.position_string()
            );
            checked += 1;
        }
        assert_eq!(checked, 15, "{rule:?}");
    }
}
