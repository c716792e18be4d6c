//! The positions that search threads are in the middle of, so that a thread reaching one that
//! another thread is already searching can leave it for later and search its other moves first
//! (the deferral idea of ABDADA, Weill 1996). Without it, Lazy SMP threads that order moves alike
//! walk the same subtrees at the same moment and a second thread adds little.
//!
//! A small table of slots indexed by the position's key: a thread marks a position when it starts
//! searching its moves and clears the mark when done. Races between threads only make the answer
//! stale (a move deferred that need not be, or searched twice), never wrong: the table steers the
//! order of work, not the values.

use crate::game::Game;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

/// Slots in the table (a power of two). Only nodes with some depth left are marked, and at most
/// one per ply and thread at a time, so a few thousand slots keep collisions rare.
const SLOTS: usize = 1 << 12;

struct Slot {
    key: AtomicU64,
    /// One more than the marking thread's number; zero when free.
    owner: AtomicU32,
}

pub(super) struct Busy {
    slots: Box<[Slot]>,
}

impl Busy {
    pub(super) fn new() -> Busy {
        Busy {
            slots: (0..SLOTS)
                .map(|_| Slot {
                    key: AtomicU64::new(0),
                    owner: AtomicU32::new(0),
                })
                .collect(),
        }
    }

    fn slot(&self, key: u64) -> &Slot {
        &self.slots[(key as usize) & (SLOTS - 1)]
    }

    /// Marks `key` as searched by `thread` when its slot is free; true when marked (and then
    /// [`Busy::leave`] must follow).
    pub(super) fn enter(&self, key: u64, thread: usize) -> bool {
        let slot = self.slot(key);
        let owner = thread as u32 + 1;
        if slot
            .owner
            .compare_exchange(0, owner, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            return false;
        }
        slot.key.store(key, Ordering::Release);
        true
    }

    /// Clears the mark that [`Busy::enter`] set.
    pub(super) fn leave(&self, key: u64) {
        let slot = self.slot(key);
        slot.key.store(0, Ordering::Relaxed);
        slot.owner.store(0, Ordering::Release);
    }

    /// Whether a thread other than `thread` is searching `key` now.
    pub(super) fn searched_elsewhere(&self, key: u64, thread: usize) -> bool {
        let slot = self.slot(key);
        let owner = slot.owner.load(Ordering::Acquire);
        owner != 0 && owner != thread as u32 + 1 && slot.key.load(Ordering::Acquire) == key
    }

    /// Whether a thread other than `thread` is searching the position after `mv` now (keys mixed
    /// with `root_key`, as the search stores them).
    pub(super) fn move_searched_elsewhere<G: Game>(
        &self,
        position: &mut G,
        mv: G::Move,
        root_key: u64,
        thread: usize,
    ) -> bool {
        let undo = position.play_unchecked(mv);
        let key = position.hash() ^ root_key;
        position.undo(mv, undo);
        self.searched_elsewhere(key, thread)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Rules, SearchHooks};
    use crate::games::reversi::Reversi;

    #[test]
    fn a_position_is_busy_for_other_threads_only_while_marked() {
        let busy = Busy::new();
        let key = 0x1234_5678_9abc_def1;
        assert!(!busy.searched_elsewhere(key, 1));
        assert!(busy.enter(key, 0));
        assert!(busy.searched_elsewhere(key, 1));
        assert!(!busy.searched_elsewhere(key, 0), "a thread's own mark");
        assert!(
            !busy.searched_elsewhere(key ^ 1 << 40, 1),
            "same slot, other key"
        );
        assert!(!busy.enter(key ^ 1 << 40, 1), "the slot is taken");
        busy.leave(key);
        assert!(!busy.searched_elsewhere(key, 1));
        assert!(busy.enter(key ^ 1 << 40, 1));
    }

    #[test]
    fn a_move_leads_to_a_busy_position_only_when_another_thread_searches_it() {
        let mut position = Reversi::new();
        let start = position.hash();
        let mut moves = Vec::new();
        position.search_moves(&mut moves);
        let (first, second) = (moves[0], moves[1]);
        let root_key = 0x55;
        let undo = position.play_unchecked(first);
        let child = position.hash() ^ root_key;
        position.undo(first, undo);
        let busy = Busy::new();
        assert!(busy.enter(child, 0));
        assert!(busy.move_searched_elsewhere(&mut position, first, root_key, 1));
        assert!(!busy.move_searched_elsewhere(&mut position, first, root_key, 0));
        assert!(!busy.move_searched_elsewhere(&mut position, second, root_key, 1));
        assert!(
            !busy.move_searched_elsewhere(&mut position, first, 0, 1),
            "another root key"
        );
        assert_eq!(position.hash(), start, "the position is left as it was");
        busy.leave(child);
        assert!(!busy.move_searched_elsewhere(&mut position, first, root_key, 1));
    }
}
