//! Shared budgets: a process that runs many engine sessions side by side (the server) gives them
//! one allowance of search threads and one of table memory, and each search or table draws from
//! it and gives back what it took when it ends.
//!
//! A [`Budget`] counts units of one resource; a [`Grant`] is what one user holds, returned on drop,
//! so a session that ends in any way (a client gone mid-search, a panic) frees what it held.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// A shared allowance of some resource: search threads, or megabytes of table memory.
#[derive(Debug)]
pub struct Budget {
    total: usize,
    used: Mutex<usize>,
    freed: Condvar,
}

/// Units taken from a [`Budget`]; they go back when the grant is dropped.
#[derive(Debug)]
pub struct Grant {
    budget: Arc<Budget>,
    amount: usize,
}

/// How often a waiting search looks at its stop flag.
const STOP_POLL: Duration = Duration::from_millis(20);

impl Budget {
    /// A budget of `total` units.
    pub fn new(total: usize) -> Arc<Budget> {
        Arc::new(Budget {
            total,
            used: Mutex::new(0),
            freed: Condvar::new(),
        })
    }

    fn lock(&self) -> MutexGuard<'_, usize> {
        match self.used.lock() {
            Ok(used) => used,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// All the units.
    pub fn total(&self) -> usize {
        self.total
    }

    /// The units held now.
    pub fn used(&self) -> usize {
        *self.lock()
    }

    /// The units left.
    pub fn available(&self) -> usize {
        self.total.saturating_sub(self.used())
    }

    /// Takes exactly `amount` units, or nothing when fewer are left.
    pub fn try_take(self: &Arc<Self>, amount: usize) -> Option<Grant> {
        let mut used = self.lock();
        if self.total.saturating_sub(*used) < amount {
            return None;
        }
        *used += amount;
        Some(Grant {
            budget: self.clone(),
            amount,
        })
    }

    /// Takes up to `wanted` units (at least one), waiting while none is left; gives up and returns
    /// `None` once `stop` is raised. A `wanted` of 0 counts as 1.
    pub fn take_up_to(self: &Arc<Self>, wanted: usize, stop: &AtomicBool) -> Option<Grant> {
        let wanted = wanted.max(1);
        let mut used = self.lock();
        loop {
            let left = self.total.saturating_sub(*used);
            if left > 0 {
                let amount = left.min(wanted);
                *used += amount;
                return Some(Grant {
                    budget: self.clone(),
                    amount,
                });
            }
            if stop.load(Ordering::SeqCst) || self.total == 0 {
                return None;
            }
            used = match self.freed.wait_timeout(used, STOP_POLL) {
                Ok((used, _)) => used,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
    }
}

impl Grant {
    /// The units held.
    pub fn amount(&self) -> usize {
        self.amount
    }
}

impl Drop for Grant {
    fn drop(&mut self) {
        let mut used = self.budget.lock();
        *used = used.saturating_sub(self.amount);
        drop(used);
        self.budget.freed.notify_all();
    }
}

/// The budgets sessions share when a host runs many of them in one process. Settings carry it
/// ([`crate::engine::Settings::shared`]); a lone engine on stdin has none and takes what it asks.
#[derive(Clone, Debug)]
pub struct SharedLimits {
    /// Search threads, over every search running at once.
    pub threads: Arc<Budget>,
    /// Transposition-table megabytes, over every session's table.
    pub table_megabytes: Arc<Budget>,
}

impl SharedLimits {
    /// Budgets of `threads` search threads and `table_megabytes` MB of tables.
    pub fn new(threads: usize, table_megabytes: usize) -> SharedLimits {
        SharedLimits {
            threads: Budget::new(threads),
            table_megabytes: Budget::new(table_megabytes),
        }
    }
}

/// Two settings share limits when they draw from the same budgets.
impl PartialEq for SharedLimits {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.threads, &other.threads)
            && Arc::ptr_eq(&self.table_megabytes, &other.table_megabytes)
    }
}

impl Eq for SharedLimits {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grants_go_back_when_dropped() {
        let budget = Budget::new(3);
        let stop = AtomicBool::new(false);
        let first = budget.take_up_to(2, &stop).unwrap();
        assert_eq!(first.amount(), 2);
        let second = budget.take_up_to(4, &stop).unwrap();
        assert_eq!(second.amount(), 1, "never more than is left");
        assert!(budget.try_take(1).is_none());
        drop(first);
        assert_eq!(budget.available(), 2);
        assert!(budget.try_take(3).is_none(), "all or nothing");
        let third = budget.try_take(2).unwrap();
        assert_eq!(budget.available(), 0);
        drop((second, third));
        assert_eq!(budget.used(), 0);
    }

    #[test]
    fn a_waiting_taker_gets_freed_units_or_gives_up_on_stop() {
        let budget = Budget::new(1);
        let stop = AtomicBool::new(false);
        let held = budget.take_up_to(1, &stop).unwrap();
        let waiter = {
            let budget = budget.clone();
            std::thread::spawn(move || {
                let stop = AtomicBool::new(false);
                budget.take_up_to(1, &stop).map(|grant| grant.amount())
            })
        };
        std::thread::sleep(Duration::from_millis(50));
        drop(held);
        assert_eq!(waiter.join().unwrap(), Some(1));
        let _held = budget.take_up_to(1, &stop).unwrap();
        stop.store(true, Ordering::SeqCst);
        assert!(budget.take_up_to(1, &stop).is_none());
    }
}
