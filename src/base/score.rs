//! Search scores: one `i32` scale shared by every game.
//!
//! Static evaluations stay strictly inside `±MAX_EVALUATION`. A finished game scores beyond
//! `±WIN_THRESHOLD`: `WIN` plus a bonus for the margin, minus the distance in plies, so that the
//! search prefers bigger wins first and quicker wins second. Every score fits an `i16`, which is what
//! the transposition table stores.

/// Static evaluations lie strictly between `-MAX_EVALUATION` and `MAX_EVALUATION`.
pub const MAX_EVALUATION: i32 = 10_000;
/// The base score of a won game.
pub const WIN: i32 = 20_000;
/// Margins beyond this many units earn no extra bonus.
pub const MAX_MARGIN: i32 = 90;
/// Bonus per unit of margin in a won game. It exceeds `MAX_PLY`, so a score tells both the margin
/// and the distance: `WIN + margin * MARGIN_WEIGHT - ply`.
pub const MARGIN_WEIGHT: i32 = 128;
/// The deepest ply the search reaches from the root.
pub const MAX_PLY: usize = 128;
/// Any score at or beyond this magnitude is a proven win or loss.
pub const WIN_THRESHOLD: i32 = WIN - MAX_PLY as i32;
/// Larger than any score; the initial search window.
pub const INFINITY: i32 = 32_000;

/// The score of a game won by `margin`, `ply` plies from the root.
pub fn win_in(ply: usize, margin: i32) -> i32 {
    WIN + margin.clamp(0, MAX_MARGIN) * MARGIN_WEIGHT - ply as i32
}

/// The score of finishing a game of three or more `players` in a middle `place` (2 to
/// `players - 1`): evenly spaced inside the evaluation range, from near `MAX_EVALUATION` for
/// second place down to near `-MAX_EVALUATION` for the last but one. First and last places score
/// as a won and a lost game; a game's evaluation can use this to stay consistent with them.
pub fn middle_place(place: usize, players: usize) -> i32 {
    let (place, players) = (place as i32, players as i32);
    (players + 1 - 2 * place) * (MAX_EVALUATION - 1) / (players - 1)
}

/// The margin and the distance in plies of a decisive score, seen from the winner's side.
pub fn decode_win(score: i32) -> Option<(i32, usize)> {
    if !is_decisive(score) {
        return None;
    }
    let excess = score.abs() - WIN;
    let margin = (excess + MARGIN_WEIGHT - 1)
        .div_euclid(MARGIN_WEIGHT)
        .max(0);
    let ply = margin * MARGIN_WEIGHT - excess;
    Some((margin, ply as usize))
}

/// Whether `score` is a proven win or loss.
pub fn is_decisive(score: i32) -> bool {
    score.abs() >= WIN_THRESHOLD
}

/// An unproven loss scores this plus its distance in plies from the root (see
/// [`unproven_loss`]): below every static evaluation, but no proof.
pub const UNPROVEN_LOSS: i32 = -(MAX_EVALUATION - 1);

/// The unproven form of the proven loss `score`: a loss found over only some of a node's moves
/// (the rest left out by a game's candidate limit) keeps its distance, so that the winner still
/// prefers the quicker line, but leaves the decisive range, so that nothing reports it as proven
/// or stops on it.
pub fn unproven_loss(score: i32) -> i32 {
    let plies = decode_win(score).map_or(MAX_PLY, |(_, plies)| plies.min(MAX_PLY));
    UNPROVEN_LOSS + plies as i32
}

/// Whether `score` is a loss, proven or not ([`unproven_loss`]).
pub fn is_loss(score: i32) -> bool {
    score <= UNPROVEN_LOSS + MAX_PLY as i32
}

/// Converts a score relative to the root into one relative to the node at `ply`, for storing in
/// the transposition table.
pub fn to_table(score: i32, ply: usize) -> i32 {
    if score >= WIN_THRESHOLD {
        score + ply as i32
    } else if score <= -WIN_THRESHOLD {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_table`].
pub fn from_table(score: i32, ply: usize) -> i32 {
    if score >= WIN_THRESHOLD {
        score - ply as i32
    } else if score <= -WIN_THRESHOLD {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_fit_sixteen_bits() {
        assert!(win_in(0, i32::MAX) < i16::MAX as i32);
        assert!(INFINITY < i16::MAX as i32);
        assert!(win_in(MAX_PLY, 0) >= WIN_THRESHOLD);
        const { assert!(WIN_THRESHOLD > MAX_EVALUATION) };
    }

    #[test]
    fn an_unproven_loss_keeps_its_distance_below_every_evaluation() {
        let near = unproven_loss(-win_in(3, 0));
        let far = unproven_loss(-win_in(9, 0));
        assert!(near < far && far < -MAX_EVALUATION + MAX_PLY as i32 + 1);
        assert!(!is_decisive(near) && is_loss(near) && is_loss(-win_in(3, 0)));
        assert!(!is_loss(-(MAX_EVALUATION - 1) + MAX_PLY as i32 + 1));
    }

    #[test]
    fn table_conversion_round_trips() {
        for score in [-win_in(5, 3), -100, 0, 77, win_in(9, 0)] {
            assert_eq!(from_table(to_table(score, 7), 7), score);
        }
        assert_eq!(to_table(win_in(10, 0), 4), win_in(6, 0));
    }

    #[test]
    fn wins_decode_to_margin_and_distance() {
        for margin in [0, 1, 18, 64, MAX_MARGIN] {
            for ply in [0, 1, 5, MAX_PLY - 1] {
                assert_eq!(decode_win(win_in(ply, margin)), Some((margin, ply)));
                assert_eq!(decode_win(-win_in(ply, margin)), Some((margin, ply)));
            }
        }
        assert_eq!(decode_win(MAX_EVALUATION - 1), None);
    }
}
