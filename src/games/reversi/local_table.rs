//! Each thread's own small table for the exact solver's nodes below the shared table.
//!
//! Most of the solver's nodes have few empties, and there the shared transposition table is not
//! used: a probe of it is a cache miss, which costs more than the transpositions it finds. A table
//! of the thread's own, small enough to stay in the core's cache (16,384 entries of 16 bytes), finds
//! most of them for little: no other thread writes it, so it needs no atomics, and an entry keeps
//! both bounds of its position, which a null-window search narrows from either side.
//!
//! Direct-mapped, always replaced. The handle mixes a salt of the solve and pass (see [`salt`])
//! into every key, so that an entry of another solve, or of a selective pass, never
//! matches: nothing needs clearing, and a solve's node count does not depend on the solves before
//! it.

use std::cell::Cell;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};

/// [`Entry::decision`] when the entry does not settle the search.
pub(super) const UNDECIDED: i32 = i32::MIN;

/// Entries in each thread's table.
const ENTRIES: usize = 1 << 14;

/// What a thread's table knows of one position: its exact score lies in `lower..=upper`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Entry {
    key: u64,
    /// A lower bound on the score.
    pub lower: i8,
    /// An upper bound on the score.
    pub upper: i8,
    /// The move that last failed high here, or 64 when none has.
    pub square: u8,
}

impl Entry {
    /// An entry that knows nothing of the position with `key`.
    pub const fn unknown(key: u64) -> Entry {
        Entry {
            key,
            lower: -64,
            upper: 64,
            square: 64,
        }
    }

    /// The bound that settles a null-window search at `alpha` (a lower bound above it or an upper
    /// bound at most it), or [`UNDECIDED`]. A plain `i32` rather than an `Option`, for the hot
    /// bodies that call it (see [`crate::base::cpu`]).
    #[inline(always)]
    pub fn decision(&self, alpha: i32) -> i32 {
        if self.lower as i32 > alpha {
            self.lower as i32
        } else if self.upper as i32 <= alpha {
            self.upper as i32
        } else {
            UNDECIDED
        }
    }

    /// Narrows the bounds by a fail-soft null-window result `score` at `alpha`, and keeps
    /// `square` when it failed high.
    #[inline(always)]
    pub fn record(&mut self, score: i32, alpha: i32, square: Option<usize>) {
        if score > alpha {
            self.lower = score as i8;
            self.square = square.map_or(64, |square| square as u8);
        } else {
            self.upper = score as i8;
        }
    }
}

type Entries = [Cell<Entry>; ENTRIES];

thread_local! {
    static ENTRIES_OF_THREAD: Rc<Entries> = {
        let entries: Box<Entries> = vec![Cell::new(Entry::unknown(0)); ENTRIES]
            .into_boxed_slice()
            .try_into()
            .expect("the table has ENTRIES entries");
        Rc::from(entries)
    };
}

/// A handle on the current thread's table, with the salt of the current solve and pass: it stays
/// on its thread (`Rc` is not `Send`).
pub(super) struct LocalTable {
    entries: Rc<Entries>,
    salt: u64,
}

impl LocalTable {
    /// The table of the thread that calls, its keys mixed with `salt`.
    pub fn of_this_thread(salt: u64) -> LocalTable {
        LocalTable {
            entries: ENTRIES_OF_THREAD.with(Rc::clone),
            salt,
        }
    }

    /// Mixes `salt` into the keys from now on (a new pass).
    pub fn set_salt(&mut self, salt: u64) {
        self.salt = salt;
    }

    /// The entry of position `key`: the stored one, or one that knows nothing when the slot holds
    /// another position.
    #[inline(always)]
    pub fn get(&self, key: u64) -> Entry {
        let key = key ^ self.salt;
        let entry = self.entries[key as usize % ENTRIES].get();
        if entry.key == key {
            entry
        } else {
            Entry::unknown(key)
        }
    }

    /// Stores `entry` (from [`LocalTable::get`], so its key is salted) in its slot, in place of
    /// whatever the slot held.
    #[inline(always)]
    pub fn set(&self, entry: Entry) {
        self.entries[entry.key as usize % ENTRIES].set(entry);
    }
}

/// Solves started in this process, for [`new_solve`].
static SOLVES: AtomicU64 = AtomicU64::new(0);

/// A number no other solve of this process has, to [`salt`] the keys of one solve.
pub(super) fn new_solve() -> u64 {
    SOLVES.fetch_add(1, Ordering::Relaxed)
}

/// The salt mixed into the keys of solve `solve`'s pass with margin `selective` (0: exact).
pub(super) fn salt(solve: u64, selective: i32) -> u64 {
    (solve.wrapping_mul(0xD6E8_FEB8_6659_FD93) ^ selective as u64)
        .wrapping_add(1)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_keep_both_bounds_and_other_keys_know_nothing() {
        // Salt 0: the stored keys are the keys asked for.
        let table = LocalTable::of_this_thread(0);
        let key = salt(new_solve(), 0) ^ 12345;
        let mut entry = table.get(key);
        assert_eq!((entry.lower, entry.upper, entry.square), (-64, 64, 64));
        entry.record(10, 5, Some(19));
        table.set(entry);
        let mut entry = table.get(key);
        entry.record(14, 15, None);
        table.set(entry);
        assert_eq!(
            table.get(key),
            Entry {
                key,
                lower: 10,
                upper: 14,
                square: 19
            }
        );
        let entry = table.get(key);
        assert_eq!(entry.decision(9), 10);
        assert_eq!(entry.decision(10), UNDECIDED);
        assert_eq!(entry.decision(13), UNDECIDED);
        assert_eq!(entry.decision(14), 14);
        // Another key of the same slot reads as unknown, and replaces the entry.
        let other = key ^ (ENTRIES as u64);
        assert_eq!(table.get(other), Entry::unknown(other));
        table.set(Entry::unknown(other));
        assert_eq!(table.get(key), Entry::unknown(key));
    }

    #[test]
    fn salts_differ_by_solve_and_pass() {
        let solve = new_solve();
        let salts = [
            salt(solve, 0),
            salt(solve, 6),
            salt(solve, 14),
            salt(solve + 1, 0),
        ];
        for (index, a) in salts.iter().enumerate() {
            for b in &salts[index + 1..] {
                assert_ne!(a, b);
            }
        }
    }
}
