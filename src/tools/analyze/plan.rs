//! How a run uses the machine: positions in parallel (jobs) when there are many small ones, threads
//! inside each search when there are few or big ones, and the table memory shared out so that the
//! total stays within `--hash`.

/// Jobs, threads per job and table size per job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Positions searched at once, each by its own engine.
    pub jobs: usize,
    /// Search threads of each engine.
    pub threads: usize,
    /// Table size of each engine, in MB.
    pub hash_per_job: usize,
}

/// Positions per core from which positions go in parallel rather than threads in one search.
pub const MANY_PER_CORE: usize = 4;

/// The plan for `positions` positions on `cores` cores with `hash` MB in total. `big` says that
/// some position takes long (a deep exact solve, a long move time), where one position at a time
/// with every thread finishes the run sooner than a last big position on one thread. `jobs` and
/// `threads` given by the user win.
pub fn plan(
    cores: usize,
    positions: usize,
    big: bool,
    jobs: Option<usize>,
    threads: Option<usize>,
    hash: usize,
) -> Plan {
    let cores = cores.max(1);
    let (jobs, threads) = match (jobs, threads) {
        (Some(jobs), Some(threads)) => (jobs, threads),
        (Some(jobs), None) => (jobs, (cores / jobs.max(1)).max(1)),
        (None, Some(threads)) => ((cores / threads.max(1)).max(1), threads),
        (None, None) if positions >= MANY_PER_CORE * cores && !big => (cores, 1),
        (None, None) => (1, cores),
    };
    let jobs = jobs.clamp(1, positions.max(1));
    Plan {
        jobs,
        threads: threads.max(1),
        hash_per_job: (hash / jobs).max(1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn many_small_positions_go_in_parallel() {
        assert_eq!(
            plan(2, 10_000, false, None, None, 256),
            Plan {
                jobs: 2,
                threads: 1,
                hash_per_job: 128
            }
        );
    }

    #[test]
    fn few_or_big_positions_get_every_thread() {
        assert_eq!(plan(2, 5, false, None, None, 256).threads, 2);
        assert_eq!(plan(2, 5, false, None, None, 256).jobs, 1);
        assert_eq!(plan(2, 10_000, true, None, None, 256).jobs, 1);
    }

    #[test]
    fn the_user_wins_and_memory_is_shared() {
        assert_eq!(
            plan(2, 10_000, false, Some(4), None, 100),
            Plan {
                jobs: 4,
                threads: 1,
                hash_per_job: 25
            }
        );
        assert_eq!(plan(8, 10_000, false, None, Some(2), 64).jobs, 4);
        assert_eq!(plan(8, 3, false, Some(6), Some(1), 64).jobs, 3);
    }
}
