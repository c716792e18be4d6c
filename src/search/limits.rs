//! Where a search must stop: depth, nodes and time, and whether another iteration is worth
//! starting.

use std::time::Duration;

/// Where the search must stop.
///
/// Two kinds of time limit come from the clock (`engine/clock.rs`): a *budget*, where the soft
/// time lies below the hard time and time a move saves serves the moves after it, and a *fixed*
/// time per move (soft and hard time equal), where time a move does not use is lost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The deepest iteration to run.
    pub depth: Option<u32>,
    /// The most nodes to search, over all threads.
    pub nodes: Option<u64>,
    /// The time an iterative search aims at: past it (stretched or shrunk by how settled the
    /// search is, see [`Limits::next_iteration`]) no new iteration starts.
    pub soft_time: Option<Duration>,
    /// The search stops at once at this time.
    pub hard_time: Option<Duration>,
}

/// Below this, an iteration's time says nothing of the next one's (timer and start-up noise).
const MEASURABLE: Duration = Duration::from_millis(2);
/// The effective branching factor assumed when the last iterations were too short to measure it.
const DEFAULT_GROWTH: f64 = 3.0;
/// The effective branching factor measured is kept within these bounds: a short iteration after a
/// longer one (a table hit) does not promise that the next one is short too.
const GROWTH_BOUNDS: (f64, f64) = (1.5, 8.0);
/// Under a budget the soft time is this share of the clock's target for the move (6/10): an
/// iteration that starts before it may end well past it.
pub const SOFT_SHARE: (u32, u32) = (6, 10);
/// The hard time under a budget is at most this multiple of the target (2).
pub const HARD_STRETCH: (u32, u32) = (2, 1);

/// What the main thread knows of its time when an iteration has ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IterationTimes {
    /// Time since the search began.
    pub elapsed: Duration,
    /// How long the iteration that just ended took.
    pub last: Duration,
    /// How long the iteration before it took, if there was one.
    pub before: Option<Duration>,
    /// How much more (above 1) or less (below 1) time the search deserves by how settled its
    /// best move and score are: above 1 when the best move just changed or the score fell, below
    /// 1 when the best move has stayed the same for several iterations.
    pub stretch: f64,
}

impl IterationTimes {
    /// The predicted time of the next iteration: the last one's times the effective branching
    /// factor of the last two.
    pub fn predicted_next(&self) -> Duration {
        let growth = match self.before {
            Some(before) if before >= MEASURABLE && self.last >= MEASURABLE => {
                (self.last.as_secs_f64() / before.as_secs_f64())
                    .clamp(GROWTH_BOUNDS.0, GROWTH_BOUNDS.1)
            }
            _ => DEFAULT_GROWTH,
        };
        self.last.max(MEASURABLE).mul_f64(growth)
    }
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

    /// Whether the time is a fixed time per move (time not used is lost): soft and hard time
    /// equal.
    pub fn is_fixed_time(&self) -> bool {
        self.hard_time.is_some()
            && self
                .soft_time
                .is_some_and(|soft| Some(soft) >= self.hard_time)
    }

    /// The time an anytime search (one without iterations, such as Monte-Carlo tree search)
    /// runs for: all of a fixed time per move; under a budget, about what an iterative search
    /// spends on average, within the hard time.
    pub fn anytime_time(&self) -> Option<Duration> {
        match (self.soft_time, self.hard_time) {
            (Some(soft), Some(hard)) => {
                // The soft time back to the clock's target.
                Some((soft * SOFT_SHARE.1 / SOFT_SHARE.0).min(hard).max(soft))
            }
            (soft, hard) => soft.or(hard),
        }
    }

    /// The time manager's rule, the same for every game: whether the main thread starts another
    /// iteration, given the times of the last ones (`true` also when the time sets no limit).
    ///
    /// - Under a budget (soft time below hard time; time saved now serves later moves): an
    ///   iteration starts before the soft time stretched by [`IterationTimes::stretch`] (up to the
    ///   hard time when the best move changed or the score fell; less when the move has been
    ///   stable). When the move has been stable for several iterations (a stretch below 1), one
    ///   that likely would not end before the hard time ([`IterationTimes::predicted_next`]) does
    ///   not start: it would spend the time on a move that is settled.
    /// - At a fixed time per move (time not used is lost): every iteration starts until the hard
    ///   time. A stopped iteration counts once it has searched the last best move at the new
    ///   depth, and time left over is lost, so stopping early gains nothing.
    ///
    /// Starting no iteration that would be cut off, in every position, was measured under a
    /// budget (Othello, 6 s + 60 ms a game) and lost about 29 Elo against starting them: a cut-off
    /// iteration is often worth its time in this search. The hard time itself (with the
    /// `overhead` kept back) stops any iteration, so no move goes over it.
    pub fn next_iteration(&self, times: &IterationTimes) -> bool {
        let Some(soft) = self.soft_time else {
            return true;
        };
        let hard = self.hard_time.unwrap_or(Duration::MAX);
        let elapsed = times.elapsed;
        if elapsed >= hard {
            return false;
        }
        if self.is_fixed_time() {
            return true;
        }
        let stretch = if times.stretch.is_finite() && times.stretch > 0.0 {
            times.stretch
        } else {
            1.0
        };
        let target = soft.mul_f64(stretch).min(hard);
        let ends_in_time = elapsed.saturating_add(times.predicted_next()) <= hard;
        elapsed < target && (ends_in_time || stretch >= 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(millis: u64) -> Duration {
        Duration::from_millis(millis)
    }

    fn times(elapsed: u64, last: u64, before: Option<u64>, stretch: f64) -> IterationTimes {
        IterationTimes {
            elapsed: ms(elapsed),
            last: ms(last),
            before: before.map(ms),
            stretch,
        }
    }

    fn budget(soft: u64, hard: u64) -> Limits {
        Limits {
            soft_time: Some(ms(soft)),
            hard_time: Some(ms(hard)),
            ..Limits::default()
        }
    }

    #[test]
    fn the_next_iteration_is_predicted_from_the_branching_factor() {
        // 40 ms after 10 ms: a factor of 4, so 160 ms next.
        assert_eq!(times(60, 40, Some(10), 1.0).predicted_next(), ms(160));
        // Too short to measure: the default factor of 3.
        assert_eq!(times(2, 1, Some(0), 1.0).predicted_next(), ms(6));
        assert_eq!(times(30, 20, None, 1.0).predicted_next(), ms(60));
        // A faster iteration after a slow one (a table hit) still predicts growth.
        assert_eq!(times(150, 10, Some(100), 1.0).predicted_next(), ms(15));
        // A factor beyond 8 is capped.
        assert_eq!(times(300, 200, Some(5), 1.0).predicted_next(), ms(1600));
    }

    #[test]
    fn no_time_limit_never_stops_the_search() {
        let limits = Limits {
            depth: Some(10),
            ..Limits::default()
        };
        assert!(limits.next_iteration(&times(100_000, 50_000, Some(10_000), 1.0)));
        assert!(!limits.is_fixed_time());
    }

    #[test]
    fn a_budget_starts_iterations_before_its_soft_time() {
        let limits = budget(300, 1000);
        assert!(!limits.is_fixed_time());
        assert!(limits.next_iteration(&times(100, 50, Some(17), 1.0)));
        // Before the soft time, an iteration starts even when it will be cut off at the hard
        // time (250 + 4 x 240 ms): a cut-off iteration still counts when it finds a better move.
        assert!(limits.next_iteration(&times(250, 240, Some(60), 1.0)));
        // Past the soft time: stop, even when the next iteration would fit.
        assert!(!limits.next_iteration(&times(320, 20, Some(10), 1.0)));
        // Past the hard time: stop.
        assert!(!limits.next_iteration(&times(1000, 1, None, 2.5)));
    }

    #[test]
    fn an_unsettled_search_gets_more_and_a_settled_one_less() {
        let limits = budget(300, 1000);
        // 400 ms in, past the soft time: the best move just changed (stretch 2: up to 600 ms).
        let unsettled = times(400, 150, Some(75), 2.0);
        assert!(limits.next_iteration(&unsettled));
        assert!(!limits.next_iteration(&IterationTimes {
            stretch: 1.0,
            ..unsettled
        }));
        // Stable for several iterations: 0.7 x 300 = 210 ms is the target...
        assert!(!limits.next_iteration(&times(220, 20, Some(10), 0.7)));
        assert!(limits.next_iteration(&times(220, 20, Some(10), 1.0)));
        // ... and an iteration that would be cut off at the hard time does not start.
        assert!(limits.next_iteration(&times(200, 20, Some(10), 0.7)));
        assert!(!limits.next_iteration(&times(200, 190, Some(20), 0.7)));
        assert!(limits.next_iteration(&times(200, 190, Some(20), 1.0)));
        // A stretch never takes the search past the hard time, nor does a nonsense stretch.
        assert!(!limits.next_iteration(&times(1000, 2, Some(1), 10.0)));
        assert!(limits.next_iteration(&times(100, 10, Some(5), f64::NAN)));
    }

    #[test]
    fn a_fixed_time_is_used_whole() {
        let limits = budget(850, 850);
        assert!(limits.is_fixed_time());
        // Past 6/10 of the time, with an iteration that will be cut off, settled or not: the
        // time is lost otherwise.
        assert!(limits.next_iteration(&times(700, 300, Some(100), 1.0)));
        assert!(limits.next_iteration(&times(840, 300, Some(100), 0.5)));
        assert!(!limits.next_iteration(&times(850, 1, None, 1.0)));
    }

    #[test]
    fn an_anytime_search_uses_a_fixed_time_whole_and_about_the_target_of_a_budget() {
        assert_eq!(budget(850, 850).anytime_time(), Some(ms(850)));
        assert_eq!(budget(300, 1000).anytime_time(), Some(ms(500)));
        assert_eq!(budget(300, 400).anytime_time(), Some(ms(400)));
        let hard_only = Limits {
            hard_time: Some(ms(70)),
            ..Limits::default()
        };
        assert_eq!(hard_only.anytime_time(), Some(ms(70)));
        assert_eq!(Limits::default().anytime_time(), None);
    }
}
