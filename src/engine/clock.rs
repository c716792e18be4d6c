//! The engine's game clock: how long a move may take.
//!
//! The [`Clock`] is neutral: main time, an increment, byo-yomi periods of some moves, and a cap per
//! move. GTP's `time_settings`/`time_left`, Piskvork's `timeout_turn`/`timeout_match`/`time_left`
//! and NBoard's game clocks all map onto it. The engine keeps the clock itself, deducting its own
//! thinking time after each move, and a front-end's report of the time left corrects it. Every
//! budget keeps a safety margin (the `overhead` option) for process start-up, pipes and the reply.

use crate::game::{Player, MAX_PLAYERS};
use crate::search::limits::{Limits, HARD_STRETCH, SOFT_SHARE};
use std::time::Duration;

/// The smallest budget the engine gives itself, even when the clock is nearly out.
const MINIMUM_BUDGET: Duration = Duration::from_millis(5);
/// Besides the fixed overhead, this share of a move's ceiling is kept back (1/50: 2%).
const PROPORTIONAL_MARGIN: u32 = 50;
/// When time a move does not use is lost and the search runs to its hard limit on every move, this
/// share of the ceiling is kept back instead (1/10: 10%): every move then ends at the hard limit, so
/// a late stop on a loaded machine would cost the game (1 s a move: 850 ms rather than 930; at
/// 900 ms one move of 20 games took 1079 ms under load 8).
const WHOLE_MOVE_MARGIN: u32 = 10;
/// At a fixed time per move, the margin kept back is at most this share of the move (1/4), so that
/// a short move still searches for most of its time: 100 ms a move with the default 50 ms overhead
/// searched 50 ms (the margin was capped at half), and searches 75 ms.
const FIXED_MARGIN_CAP: u32 = 4;

/// How a game's time is measured for each player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeControl {
    /// Main time per player.
    pub main: Duration,
    /// Time added after each move made in main time.
    pub increment: Duration,
    /// Once main time is used up: `period_moves` moves must be made in each `period_time`
    /// (Japanese/Canadian byo-yomi as GTP describes it; 0 moves: no periods, sudden death).
    pub period_time: Duration,
    /// Moves per period.
    pub period_moves: u32,
}

/// A player's time left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLeft {
    /// Time left in main time or in the current period.
    pub time: Duration,
    /// Moves left to make in the current period, 0 while in main time.
    pub period_moves: u32,
}

/// The game clock.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    control: Option<TimeControl>,
    /// A cap on any single move, with or without a time control.
    per_move: Option<Duration>,
    left: [Option<TimeLeft>; MAX_PLAYERS],
}

impl Clock {
    /// Sets the time control (`None`: no limit) and restarts every player's time.
    pub fn set_control(&mut self, control: Option<TimeControl>) {
        self.control = control;
        self.left = [None; MAX_PLAYERS];
    }

    /// The time control.
    pub fn control(&self) -> Option<TimeControl> {
        self.control
    }

    /// Caps every move at `time` (`None`: no cap).
    pub fn set_per_move(&mut self, time: Option<Duration>) {
        self.per_move = time;
    }

    /// GTP `time_settings main byo_time byo_stones`: `byo_time > 0` with `byo_stones == 0` means
    /// no limit.
    pub fn set_gtp(&mut self, main: Duration, period_time: Duration, period_moves: u32) {
        let unlimited = period_time > Duration::ZERO && period_moves == 0;
        self.set_control((!unlimited).then_some(TimeControl {
            main,
            increment: Duration::ZERO,
            period_time,
            period_moves,
        }));
    }

    /// A front-end's report of `player`'s time left (GTP `time_left`, Piskvork `INFO time_left`).
    /// Without a time control, the report makes one: sudden death from now.
    pub fn set_left(&mut self, player: Player, left: TimeLeft) {
        if self.control.is_none() {
            self.control = Some(TimeControl {
                main: left.time,
                ..TimeControl::default()
            });
        }
        self.left[player] = Some(left);
    }

    /// `player`'s time left, as the clock keeps it.
    pub fn left(&self, player: Player) -> Option<TimeLeft> {
        let control = self.control?;
        Some(
            self.left[player].unwrap_or(if control.main > Duration::ZERO {
                TimeLeft {
                    time: control.main,
                    period_moves: 0,
                }
            } else {
                TimeLeft {
                    time: control.period_time,
                    period_moves: control.period_moves,
                }
            }),
        )
    }

    /// Whether the clock limits the engine at all.
    pub fn is_limited(&self) -> bool {
        self.control.is_some() || self.per_move.is_some()
    }

    /// Deducts `elapsed` from `player`'s time after it moved, moving into byo-yomi and on to the
    /// next period as the time control says.
    pub fn spend(&mut self, player: Player, elapsed: Duration) {
        let (Some(control), Some(mut left)) = (self.control, self.left(player)) else {
            return;
        };
        if left.period_moves == 0 {
            if elapsed <= left.time || control.period_moves == 0 {
                left.time = left.time.saturating_sub(elapsed) + control.increment;
            } else {
                let overrun = elapsed - left.time;
                left = TimeLeft {
                    time: control.period_time.saturating_sub(overrun),
                    period_moves: control.period_moves,
                };
            }
        } else {
            left.time = left.time.saturating_sub(elapsed);
            left.period_moves -= 1;
            if left.period_moves == 0 {
                left = TimeLeft {
                    time: control.period_time,
                    period_moves: control.period_moves,
                };
            }
        }
        self.left[player] = Some(left);
    }

    /// The soft and hard time for `player`'s next move, given how many of its own moves the game
    /// probably still lasts, keeping `overhead` back; `None` when the clock sets no limit.
    pub fn budget(&self, player: Player, moves_left: u32, overhead: Duration) -> Option<Limits> {
        let moves_left = moves_left.max(1);
        let left = self.left(player);
        // Time this move does not use is lost when it is the last move of a byo-yomi period (one
        // move per period: a fixed time per move): then the search aims at all of it, within a
        // hard limit that keeps a wider margin back, since every move runs to it.
        let lost = matches!(left, Some(left) if left.period_moves == 1);
        let from_control = self.control.zip(left).map(|(control, left)| {
            if left.period_moves > 0 {
                // In a byo-yomi period: spread the period over its moves.
                let share = left.time / left.period_moves;
                (share, share)
            } else if control.period_moves > 0 && control.period_time > Duration::ZERO {
                // Main time with byo-yomi behind it: main time over the game, plus a period share.
                let period_share = control.period_time / control.period_moves;
                let share = left.time / (moves_left + 2) + period_share;
                (share, left.time / 2 + period_share)
            } else {
                // Sudden death, perhaps with an increment: keep a reserve for the moves to come.
                let share = left.time / (moves_left + 4) + control.increment * 3 / 4;
                let ceiling = (left.time / 4 + control.increment).min(left.time);
                (share.min(ceiling), ceiling)
            }
        });
        let (target, ceiling) = match (from_control, self.per_move) {
            (None, None) => return None,
            (Some((target, ceiling)), None) => (target, ceiling),
            // A cap per move alone (Piskvork's timeout_turn without a match limit): time a move
            // leaves is lost too, so it is a fixed time per move, as the `movetime` option is,
            // with the same margin as before (overhead and 2%: 930 ms of 1000). Gomoku searches
            // under such a cap ran to its hard limit on most moves already (the soft limit,
            // stretched when the best move changes, reached it), and the managers that send it
            // tolerate a second or more past the turn.
            (None, Some(cap)) => return Some(move_time(cap, overhead)),
            (Some((target, ceiling)), Some(cap)) => (target.min(cap), ceiling.min(cap)),
        };
        if lost {
            return Some(whole_move_time(ceiling, overhead));
        }
        Some(budget_from(target, ceiling, overhead))
    }
}

/// The margin kept back from a move that may take at most `ceiling`.
fn margin(ceiling: Duration, overhead: Duration) -> Duration {
    (overhead + ceiling / PROPORTIONAL_MARGIN).min(ceiling / 2)
}

/// A per-move budget from a target and an absolute ceiling.
fn budget_from(target: Duration, ceiling: Duration, overhead: Duration) -> Limits {
    let hard = ceiling
        .saturating_sub(margin(ceiling, overhead))
        .max(MINIMUM_BUDGET);
    let target = target
        .saturating_sub(margin(ceiling, overhead))
        .max(MINIMUM_BUDGET)
        .min(hard);
    Limits {
        soft_time: Some(target * SOFT_SHARE.0 / SOFT_SHARE.1),
        hard_time: Some(
            hard.min(target * HARD_STRETCH.0 / HARD_STRETCH.1)
                .max(target),
        ),
        ..Limits::default()
    }
}

/// Limits for a move whose unused time is lost (the last move of a byo-yomi period): the search
/// aims at its hard limit, which keeps [`WHOLE_MOVE_MARGIN`] back besides
/// `overhead` (at most a quarter of the move).
fn whole_move_time(ceiling: Duration, overhead: Duration) -> Limits {
    let margin = (overhead + ceiling / WHOLE_MOVE_MARGIN).min(ceiling / FIXED_MARGIN_CAP);
    let hard = ceiling.saturating_sub(margin).max(MINIMUM_BUDGET);
    Limits {
        soft_time: Some(hard),
        hard_time: Some(hard),
        ..Limits::default()
    }
}

/// Limits for a fixed time per move, keeping `overhead` back. Time not used on this move is lost,
/// so the search aims at the hard limit (or its depth, or a proven result): see
/// [`Limits::next_iteration`].
pub fn move_time(time: Duration, overhead: Duration) -> Limits {
    let margin = margin(time, overhead).min(time / FIXED_MARGIN_CAP);
    let hard = time.saturating_sub(margin).max(MINIMUM_BUDGET);
    Limits {
        soft_time: Some(hard),
        hard_time: Some(hard),
        ..Limits::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OVERHEAD: Duration = Duration::from_millis(50);

    #[test]
    fn byo_yomi_share_stays_within_the_period() {
        let mut clock = Clock::default();
        clock.set_gtp(Duration::ZERO, Duration::from_secs(2), 30);
        clock.set_left(
            0,
            TimeLeft {
                time: Duration::from_secs(2),
                period_moves: 30,
            },
        );
        let limits = clock.budget(0, 20, OVERHEAD).unwrap();
        let per_move = Duration::from_secs(2) / 30;
        assert!(limits.hard_time.unwrap() < per_move);
        assert!(limits.soft_time.unwrap() <= limits.hard_time.unwrap());
    }

    #[test]
    fn a_one_move_period_keeps_a_margin() {
        let mut clock = Clock::default();
        clock.set_gtp(Duration::ZERO, Duration::from_secs(2), 1);
        let hard = clock.budget(0, 20, OVERHEAD).unwrap().hard_time.unwrap();
        // 50 ms and 10% kept back: the search runs to this limit on every such move.
        assert!(hard <= Duration::from_millis(1910), "{hard:?}");
        assert!(hard >= Duration::from_millis(1700), "{hard:?}");
    }

    #[test]
    fn a_fixed_time_per_move_is_used_whole() {
        // GTP `time_settings 0 1 1` (a match's 1 s per move): time left over is lost, so the
        // search may start iterations until its hard limit.
        let mut per_period = Clock::default();
        per_period.set_gtp(Duration::ZERO, Duration::from_secs(1), 1);
        let limits = per_period.budget(0, 20, OVERHEAD).unwrap();
        assert_eq!(limits.soft_time, limits.hard_time, "{limits:?}");
        // 50 ms of overhead and 10% of the second kept back.
        assert_eq!(limits.hard_time, Some(Duration::from_millis(850)));
        // A cap per move alone (Piskvork's timeout_turn without a match limit) is a fixed time
        // too: the time a move leaves is lost.
        let mut capped = Clock::default();
        capped.set_per_move(Some(Duration::from_secs(1)));
        let limits = capped.budget(0, 20, OVERHEAD).unwrap();
        assert!(limits.is_fixed_time(), "{limits:?}");
        assert_eq!(limits.hard_time, Some(Duration::from_millis(930)));
        // With a match limit as well, time saved serves later moves: a budget.
        capped.set_control(Some(TimeControl {
            main: Duration::from_secs(60),
            ..TimeControl::default()
        }));
        let limits = capped.budget(0, 20, OVERHEAD).unwrap();
        assert!(limits.soft_time < limits.hard_time, "{limits:?}");
        // Within a longer period, time saved now serves the period's later moves.
        let mut shared_period = Clock::default();
        shared_period.set_gtp(Duration::ZERO, Duration::from_secs(10), 5);
        let limits = shared_period.budget(0, 20, OVERHEAD).unwrap();
        assert!(limits.soft_time < limits.hard_time, "{limits:?}");
    }

    #[test]
    fn a_short_fixed_time_keeps_at_most_a_quarter_back() {
        // 100 ms a move with 50 ms of overhead: 75 ms of search (the margin was half: 50 ms).
        let mut per_period = Clock::default();
        per_period.set_gtp(Duration::ZERO, Duration::from_millis(100), 1);
        let limits = per_period.budget(0, 20, OVERHEAD).unwrap();
        assert_eq!(limits.hard_time, Some(Duration::from_millis(75)));
        assert_eq!(
            move_time(Duration::from_millis(100), OVERHEAD).hard_time,
            Some(Duration::from_millis(75))
        );
        // Longer moves keep the overhead and the proportional margin.
        assert_eq!(
            move_time(Duration::from_secs(1), OVERHEAD).hard_time,
            Some(Duration::from_millis(930))
        );
        // Every fixed time stays below the move, whatever its length.
        for millis in [1, 5, 10, 40, 100, 200, 1000, 30_000] {
            let time = Duration::from_millis(millis);
            for limits in [move_time(time, OVERHEAD), whole_move_time(time, OVERHEAD)] {
                assert!(limits.is_fixed_time(), "{millis}: {limits:?}");
                let hard = limits.hard_time.unwrap();
                assert!(hard < time || hard == MINIMUM_BUDGET, "{millis}: {hard:?}");
            }
        }
    }

    #[test]
    fn no_limit_when_gtp_says_so() {
        let mut clock = Clock::default();
        clock.set_gtp(Duration::ZERO, Duration::from_secs(5), 0);
        assert!(clock.budget(0, 10, OVERHEAD).is_none());
        assert!(Clock::default().budget(1, 10, OVERHEAD).is_none());
    }

    #[test]
    fn sudden_death_keeps_a_reserve() {
        let mut clock = Clock::default();
        clock.set_gtp(Duration::from_secs(60), Duration::ZERO, 0);
        let limits = clock.budget(1, 30, OVERHEAD).unwrap();
        assert!(limits.hard_time.unwrap() <= Duration::from_secs(15));
        assert!(limits.hard_time.unwrap() >= Duration::from_millis(500));
    }

    #[test]
    fn spending_counts_down_main_time_then_periods() {
        let mut clock = Clock::default();
        clock.set_gtp(Duration::from_secs(10), Duration::from_secs(5), 2);
        clock.spend(0, Duration::from_secs(4));
        assert_eq!(
            clock.left(0),
            Some(TimeLeft {
                time: Duration::from_secs(6),
                period_moves: 0
            })
        );
        // Main time runs out 1 s into this move: the first period has 4 s left for 2 moves.
        clock.spend(0, Duration::from_secs(7));
        assert_eq!(
            clock.left(0),
            Some(TimeLeft {
                time: Duration::from_secs(4),
                period_moves: 2
            })
        );
        clock.spend(0, Duration::from_secs(1));
        clock.spend(0, Duration::from_secs(1));
        assert_eq!(
            clock.left(0),
            Some(TimeLeft {
                time: Duration::from_secs(5),
                period_moves: 2
            }),
            "a new period after its moves are made"
        );
        assert_eq!(clock.left(1).unwrap().time, Duration::from_secs(10));
    }

    #[test]
    fn spending_shrinks_the_budget() {
        let mut clock = Clock::default();
        clock.set_gtp(Duration::from_secs(60), Duration::ZERO, 0);
        let before = clock.budget(0, 30, OVERHEAD).unwrap().hard_time.unwrap();
        clock.spend(0, Duration::from_secs(50));
        let after = clock.budget(0, 30, OVERHEAD).unwrap().hard_time.unwrap();
        assert!(after < before / 3, "{before:?} then {after:?}");
    }

    #[test]
    fn increments_are_added_and_a_cap_holds() {
        let mut clock = Clock::default();
        clock.set_control(Some(TimeControl {
            main: Duration::from_secs(10),
            increment: Duration::from_secs(1),
            ..TimeControl::default()
        }));
        clock.spend(0, Duration::from_millis(500));
        assert_eq!(clock.left(0).unwrap().time, Duration::from_millis(10_500));
        clock.set_per_move(Some(Duration::from_millis(300)));
        let limits = clock.budget(0, 10, OVERHEAD).unwrap();
        assert!(limits.hard_time.unwrap() < Duration::from_millis(300));
        let mut capped = Clock::default();
        capped.set_per_move(Some(Duration::from_secs(1)));
        assert!(capped.is_limited());
        assert!(
            capped.budget(0, 10, OVERHEAD).unwrap().hard_time.unwrap() < Duration::from_secs(1)
        );
    }
}
