//! Playing levels: what each level from 1 (beginner) to 8 (full strength) may do.
//!
//! A level caps the search depth and the time per move, chooses how much the evaluation knows
//! ([`Strength`]) and how far from the end an exact solver may take over. Every game starts from
//! [`default_profile`]; a game whose levels mean something else overrides
//! [`crate::game::hooks::SearchHooks::level_profile`].

use std::time::Duration;

/// How strong the static evaluation should be, from 1 (beginner) to 8 (full strength).
///
/// Levels trade knowledge for weakness in the way the reference designs offer eight levels; a game
/// may ignore the strength and always evaluate at full strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Strength(pub u8);

impl Strength {
    /// Full strength: every evaluation feature the game has.
    pub const FULL: Strength = Strength(8);
}

impl Default for Strength {
    fn default() -> Self {
        Strength::FULL
    }
}

/// The lowest level.
pub const MIN_LEVEL: u8 = 1;
/// The highest level: full strength.
pub const MAX_LEVEL: u8 = 8;

/// What one level may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelProfile {
    /// The deepest search, if capped.
    pub depth: Option<u32>,
    /// How much the evaluation knows.
    pub strength: Strength,
    /// Solve exactly from this far from the end (empties in Reversi), for games with a solver.
    pub solve_from: u32,
    /// Cap on the time per move.
    pub time: Option<Duration>,
}

/// The level table every game starts from.
pub fn default_profile(level: u8) -> LevelProfile {
    let (depth, strength, solve_from, millis) = match level {
        0 | 1 => (Some(1), 1, 0, Some(100)),
        2 => (Some(1), 2, 4, Some(100)),
        3 => (Some(2), 3, 6, Some(200)),
        4 => (Some(3), 4, 8, Some(300)),
        5 => (Some(4), 6, 10, Some(500)),
        6 => (Some(6), 7, 12, Some(1000)),
        7 => (Some(8), 8, 16, None),
        _ => (None, 8, 24, None),
    };
    LevelProfile {
        depth,
        strength: Strength(strength),
        solve_from,
        time: millis.map(Duration::from_millis),
    }
}
