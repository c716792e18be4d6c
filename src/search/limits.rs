//! Where a search must stop: depth, nodes and time.

use std::time::Duration;

/// Where the search must stop.
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
