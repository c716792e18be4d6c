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
pub const MAX_MARGIN: i32 = 900;
/// Bonus per unit of margin in a won game.
pub const MARGIN_WEIGHT: i32 = 10;
/// The deepest ply the search reaches from the root.
pub const MAX_PLY: usize = 128;
/// Any score at or beyond this magnitude is a proven win or loss.
pub const WIN_THRESHOLD: i32 = WIN - MAX_PLY as i32;
/// Larger than any score; the initial search window.
pub const INFINITY: i32 = 31_000;

/// The score of a game won by `margin`, `ply` plies from the root.
pub fn win_in(ply: usize, margin: i32) -> i32 {
    WIN + margin.clamp(0, MAX_MARGIN) * MARGIN_WEIGHT - ply as i32
}

/// Whether `score` is a proven win or loss.
pub fn is_decisive(score: i32) -> bool {
    score.abs() >= WIN_THRESHOLD
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
        assert!(WIN_THRESHOLD > MAX_EVALUATION);
    }

    #[test]
    fn table_conversion_round_trips() {
        for score in [-win_in(5, 3), -100, 0, 77, win_in(9, 0)] {
            assert_eq!(from_table(to_table(score, 7), 7), score);
        }
        assert_eq!(to_table(win_in(10, 0), 4), win_in(6, 0));
    }
}
