//! The exact endgame solver: known answers, brute force, threads, analysis and the protocol.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::AtomicBool;
use std::time::Instant;
use tabula::base::transposition::TranspositionTable;
use tabula::game::{Rules, SearchHooks, SolveRequest};
use tabula::games::reversi::obf;
use tabula::games::reversi::Reversi;
use tabula::search::limits::Limits;
use tabula::search::{self, SearchRequest};

const FFORUM_1_19: &str = include_str!("../data/fforum-1-19.obf");
const FFORUM_20_39: &str = include_str!("../data/fforum-20-39.obf");

fn solve(position: &Reversi, threads: usize, all_moves: bool) -> (String, Vec<(String, i32)>) {
    let table = TranspositionTable::new(32);
    let stop = AtomicBool::new(false);
    let request = SolveRequest {
        stop: &stop,
        threads,
        start: Instant::now(),
        hard_time: None,
        all_moves,
        table: &table,
    };
    let solution = position.solve(&request).expect("a position in play solves");
    let moves = solution
        .moves
        .iter()
        .map(|&(mv, score)| (position.format_move(mv), score))
        .collect();
    (position.format_move(solution.moves[0].0), moves)
}

#[test]
fn fforum_1_to_19_exact_scores_and_best_moves() {
    for (index, entry) in obf::parse_file(FFORUM_1_19).unwrap().iter().enumerate() {
        let (best, moves) = solve(&entry.position, 1, false);
        assert_eq!(
            Some(moves[0].1),
            entry.best_score(),
            "FForum #{}",
            index + 1
        );
        assert!(
            entry.best_moves().contains(&best),
            "FForum #{}: {best}",
            index + 1
        );
    }
}

#[test]
fn fforum_every_move_scored_exactly() {
    // The annotations list every move's exact score: analysis must reproduce all of them.
    for (index, entry) in obf::parse_file(FFORUM_1_19)
        .unwrap()
        .iter()
        .enumerate()
        .take(8)
    {
        let (_, moves) = solve(&entry.position, 2, true);
        for (mv, score) in &entry.scores {
            let found = moves
                .iter()
                .find(|(candidate, _)| candidate.eq_ignore_ascii_case(mv));
            assert_eq!(
                found.map(|f| f.1),
                Some(*score),
                "FForum #{} move {mv}",
                index + 1
            );
        }
        assert!(
            moves.windows(2).all(|pair| pair[0].1 >= pair[1].1),
            "ranked best first"
        );
    }
}

#[test]
#[ignore = "slow tier: two-thread solves"]
fn fforum_20_to_29_with_two_threads() {
    // The quicker half of the second set (about 20 empties), solved on two threads.
    for (index, entry) in obf::parse_file(FFORUM_20_39)
        .unwrap()
        .iter()
        .enumerate()
        .take(10)
    {
        if entry.position.empties() > 20 {
            continue;
        }
        let (best, moves) = solve(&entry.position, 2, false);
        assert_eq!(
            Some(moves[0].1),
            entry.best_score(),
            "FForum #{}",
            index + 20
        );
        assert!(
            entry.best_moves().contains(&best),
            "FForum #{}: {best}",
            index + 20
        );
    }
}

/// Plain minimax over the whole remaining tree: no pruning, no ordering, no table.
fn brute_force(position: &Reversi) -> i32 {
    if position.outcome().is_some() {
        return position.final_score();
    }
    let mut moves = Vec::new();
    position.generate_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| {
            let mut child = position.clone();
            child.play_unchecked(mv);
            -brute_force(&child)
        })
        .max()
        .expect("a game in progress has a move")
}

fn random_endgame(rng: &mut SmallRng, empties: u32) -> Option<Reversi> {
    let mut position = Reversi::new();
    let mut moves = Vec::new();
    while position.empties() > empties {
        position.generate_moves(&mut moves);
        if moves.is_empty() {
            return None;
        }
        position.play_unchecked(moves[rng.random_range(0..moves.len())]);
    }
    position.outcome().is_none().then_some(position)
}

#[test]
fn solver_agrees_with_brute_force_minimax() {
    let mut rng = SmallRng::seed_from_u64(2024);
    let mut checked = 0;
    while checked < 60 {
        let empties = rng.random_range(1..=9);
        let Some(position) = random_endgame(&mut rng, empties) else {
            continue;
        };
        let expected = brute_force(&position);
        let (_, moves) = solve(&position, 1, false);
        assert_eq!(moves[0].1, expected, "{}", position.position_string());
        // Every move's score too.
        let (_, all) = solve(&position, 1, true);
        for (mv, score) in all {
            let mut child = position.clone();
            child.play_unchecked(position.parse_move(&mv).unwrap());
            assert_eq!(
                score,
                -brute_force(&child),
                "{mv} at {}",
                position.position_string()
            );
        }
        checked += 1;
    }
}

#[test]
#[ignore = "slow tier: two-thread solves"]
fn one_and_two_threads_agree_on_solved_positions() {
    let mut rng = SmallRng::seed_from_u64(77);
    let mut checked = 0;
    while checked < 12 {
        let Some(position) = random_endgame(&mut rng, 16) else {
            continue;
        };
        let (_, one) = solve(&position, 1, false);
        let (_, two) = solve(&position, 2, false);
        assert_eq!(one[0].1, two[0].1, "{}", position.position_string());
        // From 9 empties a 20-ply search reaches the end of every line (passes included): its
        // proven score must be exact and not depend on the thread count.
        let Some(near_end) = random_endgame(&mut rng, 9) else {
            continue;
        };
        let scores: Vec<i32> = [1, 2]
            .iter()
            .map(|&threads| {
                let table = TranspositionTable::new(8);
                let stop = AtomicBool::new(false);
                let request = SearchRequest {
                    limits: Limits {
                        depth: Some(20),
                        ..Limits::default()
                    },
                    threads,
                    ..SearchRequest::default()
                };
                let outcome = search::search(
                    &near_end,
                    &request,
                    &table,
                    &stop,
                    &mut Vec::new(),
                    &mut |_| {},
                );
                outcome.score().unwrap()
            })
            .collect();
        assert_eq!(scores[0], scores[1], "{}", near_end.position_string());
        let exact = brute_force(&near_end);
        let decoded = tabula::base::score::decode_win(scores[0]).map(|(margin, _)| margin);
        match exact.signum() {
            0 => assert_eq!(scores[0], 0),
            1 => assert_eq!((scores[0] > 0, decoded), (true, Some(exact))),
            _ => assert_eq!((scores[0] < 0, decoded), (true, Some(-exact))),
        }
        checked += 1;
    }
}
