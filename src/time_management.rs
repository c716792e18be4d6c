//! Search limits and the clock: how long a move may take.
//!
//! GTP's `time_settings main byo_time byo_stones` and `time_left colour seconds stones` set the
//! clock; the `movetime` option caps a single move. The budget keeps a safety margin for process
//! start-up, pipes and the reply, so the engine never overruns its clock.

use crate::game::{Player, MAX_PLAYERS};
use std::time::Duration;

/// Where the search must stop. Only the main search thread watches the time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The deepest iteration to run.
    pub depth: Option<u32>,
    /// The most nodes to search, over all threads.
    pub nodes: Option<u64>,
    /// After an iteration ends past this time, no new iteration starts.
    pub soft_time: Option<Duration>,
    /// The search stops at once at this time.
    pub hard_time: Option<Duration>,
}

impl Limits {
    /// Combines two sets of limits, keeping the tighter of each.
    pub fn tightest(self, other: Limits) -> Limits {
        fn min<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
            match (a, b) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            }
        }
        Limits {
            depth: min(self.depth, other.depth),
            nodes: min(self.nodes, other.nodes),
            soft_time: min(self.soft_time, other.soft_time),
            hard_time: min(self.hard_time, other.hard_time),
        }
    }

    /// Whether nothing limits the search (it would run until stopped).
    pub fn is_unbounded(&self) -> bool {
        self.depth.is_none() && self.nodes.is_none() && self.hard_time.is_none()
    }
}

/// Time kept back from every budget for process, pipe and reply overhead.
const OVERHEAD: Duration = Duration::from_millis(15);
/// The smallest budget the engine gives itself, even when the clock is nearly out.
const MINIMUM_BUDGET: Duration = Duration::from_millis(5);

/// The game clock as GTP describes it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    main_time: Duration,
    byo_yomi_time: Duration,
    byo_yomi_stones: u32,
    /// Whether `time_settings` has set a limit.
    limited: bool,
    /// Per seat: time left and stones left in the period (0 in main time), from `time_left`.
    left: [Option<(Duration, u32)>; MAX_PLAYERS],
}

impl Clock {
    /// GTP `time_settings`: `byo_yomi_time > 0` with `byo_yomi_stones == 0` means no limit.
    pub fn set(&mut self, main_time: Duration, byo_yomi_time: Duration, byo_yomi_stones: u32) {
        self.main_time = main_time;
        self.byo_yomi_time = byo_yomi_time;
        self.byo_yomi_stones = byo_yomi_stones;
        self.limited = !(byo_yomi_time > Duration::ZERO && byo_yomi_stones == 0);
        self.left = [None; MAX_PLAYERS];
    }

    /// GTP `time_left`: `stones == 0` means the seat is in main time.
    pub fn set_left(&mut self, player: Player, time: Duration, stones: u32) {
        self.left[player] = Some((time, stones));
        self.limited = true;
    }

    /// Whether the clock limits the engine at all.
    pub fn is_limited(&self) -> bool {
        self.limited
    }

    /// The soft and hard time for `player`'s next move, given how many of its own moves the game
    /// probably still lasts.
    pub fn budget(&self, player: Player, moves_left: u32) -> Option<Limits> {
        if !self.limited {
            return None;
        }
        let (time, stones) = self.left[player].unwrap_or(if self.main_time > Duration::ZERO {
            (self.main_time, 0)
        } else {
            (self.byo_yomi_time, self.byo_yomi_stones)
        });
        let moves_left = moves_left.max(1);
        let (target, ceiling) = if stones > 0 {
            // In a byo-yomi period: spread the period over its stones.
            let share = time / stones;
            (share, share)
        } else if self.byo_yomi_stones > 0 && self.byo_yomi_time > Duration::ZERO {
            // Main time with a byo-yomi behind it: use main time over the game, plus a period share.
            let period_share = self.byo_yomi_time / self.byo_yomi_stones;
            let share = time / (moves_left + 2) + period_share;
            (share, time / 2 + period_share)
        } else {
            // Sudden death: keep a reserve for the moves still to come.
            let share = time / (moves_left + 4);
            (share, time / 4)
        };
        Some(budget_from(target, ceiling))
    }
}

/// A per-move budget from a target and an absolute ceiling.
fn budget_from(target: Duration, ceiling: Duration) -> Limits {
    let safety = OVERHEAD.min(ceiling / 5);
    let hard = ceiling.saturating_sub(safety).max(MINIMUM_BUDGET);
    let target = target.saturating_sub(safety).max(MINIMUM_BUDGET).min(hard);
    Limits {
        soft_time: Some(target * 6 / 10),
        hard_time: Some(hard.min(target * 2).max(target)),
        ..Limits::default()
    }
}

/// Limits for a fixed time per move.
pub fn move_time(time: Duration) -> Limits {
    let hard = time
        .saturating_sub(OVERHEAD.min(time / 10))
        .max(MINIMUM_BUDGET);
    Limits {
        soft_time: Some(hard * 6 / 10),
        hard_time: Some(hard),
        ..Limits::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byo_yomi_share_stays_within_the_period() {
        let mut clock = Clock::default();
        clock.set(Duration::ZERO, Duration::from_secs(2), 30);
        clock.set_left(0, Duration::from_secs(2), 30);
        let limits = clock.budget(0, 20).unwrap();
        let per_move = Duration::from_secs(2) / 30;
        assert!(limits.hard_time.unwrap() < per_move);
        assert!(limits.soft_time.unwrap() <= limits.hard_time.unwrap());
    }

    #[test]
    fn no_limit_when_gtp_says_so() {
        let mut clock = Clock::default();
        clock.set(Duration::ZERO, Duration::from_secs(5), 0);
        assert!(clock.budget(0, 10).is_none());
        assert!(Clock::default().budget(1, 10).is_none());
    }

    #[test]
    fn sudden_death_keeps_a_reserve() {
        let mut clock = Clock::default();
        clock.set(Duration::from_secs(60), Duration::ZERO, 0);
        let limits = clock.budget(1, 30).unwrap();
        assert!(limits.hard_time.unwrap() <= Duration::from_secs(15));
        assert!(limits.hard_time.unwrap() >= Duration::from_millis(500));
    }
}
