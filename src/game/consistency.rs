//! The generic consistency check that every game runs in its tests.
//!
//! It walks random games and checks, at every position, that move generation, legality, play, undo,
//! hashing, move codes and the text forms agree with each other.

use crate::game::error::GameError;
use crate::game::hooks::SearchHooks;
use crate::game::rules::{MoveCode, Rules};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;

/// Plays `games` random games from `start` (at most `max_plies` plies each) and checks every position
/// on the way. Panics with a description of the first inconsistency.
pub fn check_random_games<G: SearchHooks>(start: &G, games: usize, max_plies: usize, seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    for _ in 0..games {
        let mut position = start.clone();
        let mut last_move = None;
        for _ in 0..max_plies {
            check_position(&position);
            let mut moves = Vec::new();
            position.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            position.play_unchecked(mv);
            last_move = Some(mv);
        }
        check_position(&position);
        if position.outcome().is_some() {
            check_finished_refuses(&position, last_move);
        }
    }
}

/// Checks one position: see the module documentation.
pub fn check_position<G: SearchHooks>(position: &G) {
    let text = position.position_string();
    assert_eq!(
        position.hash(),
        position.recompute_hash(),
        "incremental hash differs from a recomputed one at {text}"
    );
    let mut reloaded = position.start_position();
    reloaded
        .set_position_string(&text)
        .unwrap_or_else(|error| panic!("own position string {text} does not load: {error}"));
    assert_eq!(
        reloaded.position_string(),
        text,
        "position string round trip"
    );
    assert_eq!(
        reloaded.hash(),
        position.hash(),
        "hash after reloading {text}"
    );

    let mut moves = Vec::new();
    position.generate_moves(&mut moves);
    if position.outcome().is_some() {
        assert!(moves.is_empty(), "a finished game lists moves at {text}");
        return;
    }
    assert!(
        !moves.is_empty(),
        "a game in progress lists no moves at {text}"
    );
    let unique: HashSet<_> = moves.iter().collect();
    assert_eq!(
        unique.len(),
        moves.len(),
        "a move is listed twice at {text}"
    );
    for &mv in &moves {
        assert!(
            position.is_legal(mv),
            "listed move {mv:?} is not legal at {text}"
        );
        let written = position.format_move(mv);
        assert_eq!(
            position.parse_move(&written),
            Ok(mv),
            "move text {written} does not read back at {text}"
        );
        assert_eq!(
            position.parse_move(&written.to_uppercase()),
            Ok(mv),
            "move text is case-sensitive"
        );
        assert_eq!(
            position.move_from_code(mv.code()),
            Some(mv),
            "move code round trip"
        );
        let mut child = position.clone();
        let known = position.key_after(mv);
        let undo = child.play_unchecked(mv);
        assert_eq!(
            child.hash(),
            child.recompute_hash(),
            "hash after {written} at {text}"
        );
        if let Some(key) = known {
            assert_eq!(key, child.hash(), "key after {written} at {text}");
        }
        assert_ne!(
            child.hash(),
            position.hash(),
            "hash unchanged by {written} at {text}"
        );
        child.undo(mv, undo);
        assert_eq!(
            &child, position,
            "play then undo of {written} changed {text}"
        );
        assert_eq!(
            child.hash(),
            position.hash(),
            "undo of {written} broke the hash"
        );
        let mut checked = position.clone();
        assert!(
            checked.try_play(mv).is_ok(),
            "try_play refuses legal {written}"
        );
    }
}

fn check_finished_refuses<G: Rules>(position: &G, last_move: Option<G::Move>) {
    let mut finished = position.clone();
    if let Some(mv) = last_move {
        assert!(
            matches!(finished.try_play(mv), Err(GameError::GameOver)),
            "a finished game accepts a move"
        );
        assert_eq!(&finished, position, "a refused move changed the position");
    }
    assert!(
        finished.forced_pass().is_none(),
        "a finished game offers a pass"
    );
}
