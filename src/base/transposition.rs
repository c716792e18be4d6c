//! The transposition table: lock-free, shared by every search thread.
//!
//! # Layout
//! The table is an array of 64-byte buckets, each holding four entries of two `AtomicU64` words:
//! `check = key ^ data` and `data`. The data word packs
//!
//! | bits   | field                                          |
//! |--------|------------------------------------------------|
//! | 0-15   | best move code ([`crate::game::MoveCode`])     |
//! | 16-31  | score (`i16`, mate scores relative to the node) |
//! | 32-47  | static evaluation (`i16`), or 0                |
//! | 48-55  | depth in plies                                 |
//! | 56-57  | bound: 1 upper, 2 lower, 3 exact (0: empty)    |
//! | 58     | whether a best move is stored                  |
//! | 59-63  | generation (search number, modulo 32)          |
//!
//! # Torn reads
//! Threads read and write entries with relaxed atomics and no lock, so a reader may see the `check`
//! word of one write and the `data` word of another. The reader accepts an entry only when
//! `check ^ data` equals the probed key; a torn pair fails that test (except with chance 2^-64) and
//! reads as a miss. A stored move is still only a hint: the search checks it against the legal moves
//! before playing it, so even an undetected collision cannot corrupt a position.
//!
//! # Clearing
//! Clearing a table of gigabytes word by word takes seconds, so [`TranspositionTable::clear`]
//! only draws a new salt, which is mixed into every key: entries written before read as misses
//! (except with chance 2^-64 each) and, marked as old by a jump in the generation, are the first
//! to be replaced.
//!
//! # Memory
//! The table is allocated zeroed in one piece, which the system gives lazily; a request larger
//! than the memory the machine has available, or one the allocator refuses, is an error and not
//! an abort.
//!
//! # Replacement
//! An entry with the same key is overwritten unless it holds a deeper result of the same search
//! that the new one cannot improve on. Otherwise the entry of the bucket with the lowest
//! `depth - 4 * age` is replaced, where age counts searches since the entry was written.

use crate::base::budget::{Budget, Grant};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::sync::Arc;

/// Why a table could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// The machine has less memory available than the table needs.
    #[error("a {megabytes} MB table needs more memory than the {available} MB available")]
    NotEnoughMemory {
        /// The size asked for.
        megabytes: usize,
        /// The memory available, in MB.
        available: u64,
    },
    /// The allocator refused.
    #[error("cannot allocate a {0} MB table")]
    AllocationFailed(usize),
    /// The shared table budget (see [`crate::base::budget`]) has less left than the table needs.
    #[error("a {megabytes} MB table is over the shared table budget: {available} MB of it left")]
    OverBudget {
        /// The size asked for.
        megabytes: usize,
        /// The budget left, in MB.
        available: usize,
    },
}

/// What kind of bound a stored score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most the stored one (the node failed low).
    Upper = 1,
    /// The true score is at least the stored one (the node failed high).
    Lower = 2,
    /// The stored score is exact.
    Exact = 3,
}

/// One probed entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The stored best move's code, if any.
    pub move_code: Option<u16>,
    /// The stored score (relative to the stored node; see [`crate::base::score::from_table`]).
    pub score: i32,
    /// The stored static evaluation.
    pub evaluation: i32,
    /// The depth the score was searched to.
    pub depth: u8,
    /// The kind of bound.
    pub bound: Bound,
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

#[derive(Default)]
#[repr(align(64))]
struct Bucket {
    slots: [Slot; 4],
}

/// The shared, lock-free transposition table.
pub struct TranspositionTable {
    buckets: Buckets,
    generation: AtomicU8,
    salt: AtomicU64,
    /// The share of a shared budget the table holds, given back when it is dropped.
    _grant: Option<Grant>,
}

/// The bucket array. Probes land at random, so with 4 KiB pages nearly every probe of a large
/// table also misses the TLB: on Linux, tables of 2 MiB and more are mapped straight from the
/// system, aligned to 2 MiB and asked for transparent huge pages (`madvise`) when that cannot
/// stall a search (see `huge_pages_without_stalls`; the kernel may refuse, which only costs
/// speed). The system maps such memory zeroed and lazily, page by page, so a
/// table of any size is ready at once.
struct Buckets {
    pointer: std::ptr::NonNull<Bucket>,
    count: usize,
    memory: Memory,
}

/// Where the buckets live, for freeing them.
enum Memory {
    /// From the global allocator with this layout.
    Heap(std::alloc::Layout),
    /// An anonymous mapping of this many bytes at this address.
    #[cfg(target_os = "linux")]
    Mapped {
        base: *mut libc::c_void,
        length: usize,
    },
}

const HUGE_PAGE: usize = 2 << 20;

impl Buckets {
    /// `count` empty buckets, or `None` when the system refuses the memory.
    fn new(count: usize) -> Option<Buckets> {
        let size = count.checked_mul(std::mem::size_of::<Bucket>())?;
        #[cfg(target_os = "linux")]
        if size >= HUGE_PAGE {
            return Buckets::map(count, size);
        }
        let layout =
            std::alloc::Layout::from_size_align(size, std::mem::align_of::<Bucket>()).ok()?;
        // Safety: the layout's size is at least one bucket. All-zero words are empty slots.
        let raw = unsafe { std::alloc::alloc_zeroed(layout) };
        let pointer = std::ptr::NonNull::new(raw.cast::<Bucket>())?;
        Some(Buckets {
            pointer,
            count,
            memory: Memory::Heap(layout),
        })
    }

    /// Maps `size` bytes for `count` buckets, 2 MiB aligned, with huge pages advised.
    #[cfg(target_os = "linux")]
    fn map(count: usize, size: usize) -> Option<Buckets> {
        let length = size.checked_add(HUGE_PAGE)?;
        // Safety: an anonymous private mapping owns no existing memory; the result is checked.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                length,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return None;
        }
        let offset = (HUGE_PAGE - base as usize % HUGE_PAGE) % HUGE_PAGE;
        // Safety: `offset` is less than 2 MiB, so the aligned start and `size` bytes after it lie
        // inside the mapping; the advice changes no contents. Fresh anonymous memory reads as
        // zero, which is an empty slot.
        let start = unsafe {
            let start = base.cast::<u8>().add(offset);
            if HUGE_PAGES_DESPITE_STALLS.load(Ordering::Relaxed) || huge_pages_without_stalls() {
                libc::madvise(start.cast(), size, libc::MADV_HUGEPAGE);
            }
            start
        };
        Some(Buckets {
            pointer: std::ptr::NonNull::new(start.cast::<Bucket>())?,
            count,
            memory: Memory::Mapped { base, length },
        })
    }
}

/// Whether tables made from now on ask for huge pages even where a first touch may stall (see
/// [`prefer_huge_pages`]).
static HUGE_PAGES_DESPITE_STALLS: AtomicBool = AtomicBool::new(false);

/// Makes later tables ask for huge pages even when the kernel would compact memory on the spot
/// to find them: for processes with no clock to keep, such as `tabula solve`, where a stall costs
/// only its own time. On FFO #40-#49 (one thread, 512 MB) the solver took 0.93x the user time
/// with huge pages: a probe that misses the cache no longer also misses the TLB.
pub fn prefer_huge_pages() {
    HUGE_PAGES_DESPITE_STALLS.store(true, Ordering::Relaxed);
}

/// Whether advising huge pages costs no stalls. When the kernel's THP `defrag` mode is `always`,
/// `madvise` or `defer+madvise`, a first touch of advised memory with no huge page free compacts
/// memory on the spot: on a busy machine that made the first 2101 nodes of a Gomoku search with a
/// 256 MB table take 1.6 s instead of 10 ms, past the move's time limit, since the search checks
/// the clock only every 1024 nodes. Under `defer` or `never` a fault takes a huge page only when
/// one is free and leaves compaction to the background.
#[cfg(target_os = "linux")]
fn huge_pages_without_stalls() -> bool {
    std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/defrag")
        .is_ok_and(|modes| modes.contains("[defer]") || modes.contains("[never]"))
}

impl std::ops::Deref for Buckets {
    type Target = [Bucket];

    fn deref(&self) -> &[Bucket] {
        // Safety: `pointer` holds `count` initialised buckets until drop.
        unsafe { std::slice::from_raw_parts(self.pointer.as_ptr(), self.count) }
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        match self.memory {
            // Safety: allocated in `new` with this same layout.
            Memory::Heap(layout) => unsafe {
                std::alloc::dealloc(self.pointer.as_ptr().cast(), layout)
            },
            // Safety: mapped in `map` with this base and length, and unmapped only here.
            #[cfg(target_os = "linux")]
            Memory::Mapped { base, length } => unsafe {
                libc::munmap(base, length);
            },
        }
    }
}

// Safety: buckets hold only atomics, which threads may share and send.
unsafe impl Send for Buckets {}
unsafe impl Sync for Buckets {}

const GENERATION_MASK: u64 = 0x1F;
const MEGABYTE: usize = 1 << 20;

/// The memory the system could still give, in bytes (Linux's `MemAvailable`), if it says.
pub fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text
        .lines()
        .find(|line| line.starts_with("MemAvailable:"))?;
    let kilobytes: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kilobytes * 1024)
}

impl TranspositionTable {
    /// A table of about `megabytes` MB (at least one bucket).
    ///
    /// # Panics
    /// When the memory cannot be had; front-ends use [`TranspositionTable::try_new`].
    pub fn new(megabytes: usize) -> TranspositionTable {
        TranspositionTable::try_new(megabytes).unwrap_or_else(|error| panic!("{error}"))
    }

    /// A table of about `megabytes` MB (at least one bucket).
    ///
    /// # Errors
    /// [`TableError::NotEnoughMemory`] when the machine has less memory available than asked
    /// for, and [`TableError::AllocationFailed`] when the allocator refuses.
    pub fn try_new(megabytes: usize) -> Result<TranspositionTable, TableError> {
        let bytes = megabytes
            .checked_mul(MEGABYTE)
            .ok_or(TableError::AllocationFailed(megabytes))?;
        if let Some(available) = available_memory() {
            if bytes as u64 > available {
                return Err(TableError::NotEnoughMemory {
                    megabytes,
                    available: available / MEGABYTE as u64,
                });
            }
        }
        let count = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let buckets = Buckets::new(count).ok_or(TableError::AllocationFailed(megabytes))?;
        Ok(TranspositionTable {
            buckets,
            generation: AtomicU8::new(0),
            salt: AtomicU64::new(0),
            _grant: None,
        })
    }

    /// A table of about `megabytes` MB drawn from `budget` (in MB), which it holds until it is
    /// dropped; without a budget, [`TranspositionTable::try_new`].
    ///
    /// # Errors
    /// [`TableError::OverBudget`] when the budget has less left, and those of `try_new`.
    pub fn try_new_within(
        megabytes: usize,
        budget: Option<&Arc<Budget>>,
    ) -> Result<TranspositionTable, TableError> {
        let grant = match budget {
            None => None,
            Some(budget) => Some(budget.try_take(megabytes).ok_or(TableError::OverBudget {
                megabytes,
                available: budget.available(),
            })?),
        };
        let mut table = TranspositionTable::try_new(megabytes)?;
        table._grant = grant;
        Ok(table)
    }

    /// The size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Forgets everything, in constant time (see the module's notes on clearing).
    pub fn clear(&self) {
        // A new odd multiplier-derived salt each time; 0 stays the salt of a fresh table.
        let salt = self.salt.load(Ordering::Relaxed);
        self.salt.store(
            salt.wrapping_add(0x9E37_79B9_7F4A_7C15) | 1,
            Ordering::Relaxed,
        );
        // Old entries look half the generation cycle old, so that they are replaced first.
        let next = (self.generation.load(Ordering::Relaxed) + 16) & GENERATION_MASK as u8;
        self.generation.store(next, Ordering::Relaxed);
    }

    /// Empties the table as if it were new: every slot zeroed, generation and salt back to 0.
    /// [`TranspositionTable::clear`] is instant but leaves old entries in place, and they still
    /// steer which slots later stores replace; a search that must not depend on earlier ones
    /// (the same analysis for the same input) needs this.
    pub fn wipe(&self) {
        for bucket in self.buckets.iter() {
            for slot in &bucket.slots {
                slot.check.store(0, Ordering::Relaxed);
                slot.data.store(0, Ordering::Relaxed);
            }
        }
        self.generation.store(0, Ordering::Relaxed);
        self.salt.store(0, Ordering::Relaxed);
    }

    /// The key as stored: salted, so that clearing invalidates every entry at once.
    fn salted(&self, key: u64) -> u64 {
        key ^ self.salt.load(Ordering::Relaxed)
    }

    /// Starts a new search: older entries age and become easier to replace.
    pub fn new_search(&self) {
        let next = (self.generation.load(Ordering::Relaxed) + 1) & GENERATION_MASK as u8;
        self.generation.store(next, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key onto any table length without a power-of-two size.
        let index = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Asks the CPU to start loading the bucket of `key`.
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let address = self.bucket(self.salted(key)) as *const Bucket as *const i8;
            // Safety: prefetching is a hint and never faults, whatever the address.
            unsafe { std::arch::x86_64::_mm_prefetch(address, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let key = self.salted(key);
        for slot in &self.bucket(key).slots {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if data != 0 && check ^ data == key {
                return Some(unpack(data));
            }
        }
        None
    }

    /// Stores a search result for `key`. A missing `move_code` keeps the move already stored for
    /// the same key.
    pub fn store(
        &self,
        key: u64,
        move_code: Option<u16>,
        score: i32,
        evaluation: i32,
        depth: u8,
        bound: Bound,
    ) {
        let key = self.salted(key);
        let generation = self.generation.load(Ordering::Relaxed) as u64;
        let bucket = self.bucket(key);
        let mut victim = &bucket.slots[0];
        let mut victim_worth = i32::MAX;
        for slot in &bucket.slots {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if data != 0 && check ^ data == key {
                let old = unpack(data);
                let same_search = (data >> 59) & GENERATION_MASK == generation;
                if same_search && old.depth > depth.saturating_add(2) && bound != Bound::Exact {
                    return;
                }
                let move_code = move_code.or(old.move_code);
                write(
                    slot,
                    key,
                    pack(move_code, score, evaluation, depth, bound, generation),
                );
                return;
            }
            let worth = if data == 0 {
                i32::MIN
            } else {
                let age = (generation + 32 - ((data >> 59) & GENERATION_MASK)) & GENERATION_MASK;
                ((data >> 48) & 0xFF) as i32 - 4 * age as i32
            };
            if worth < victim_worth {
                victim_worth = worth;
                victim = slot;
            }
        }
        write(
            victim,
            key,
            pack(move_code, score, evaluation, depth, bound, generation),
        );
    }

    /// The share of entries written in the current search, in permille of a sample.
    pub fn fullness_permille(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) as u64;
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for bucket in &self.buckets[..sample] {
            for slot in &bucket.slots {
                let data = slot.data.load(Ordering::Relaxed);
                if data != 0 && (data >> 59) & GENERATION_MASK == generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * 4).max(1)) as u32
    }
}

fn write(slot: &Slot, key: u64, data: u64) {
    slot.check.store(key ^ data, Ordering::Relaxed);
    slot.data.store(data, Ordering::Relaxed);
}

fn pack(
    move_code: Option<u16>,
    score: i32,
    evaluation: i32,
    depth: u8,
    bound: Bound,
    generation: u64,
) -> u64 {
    let score = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
    let evaluation = evaluation.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
    move_code.unwrap_or(0) as u64
        | score << 16
        | evaluation << 32
        | (depth as u64) << 48
        | (bound as u64) << 56
        | (move_code.is_some() as u64) << 58
        | (generation & GENERATION_MASK) << 59
}

fn unpack(data: u64) -> Entry {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        _ => Bound::Exact,
    };
    Entry {
        move_code: ((data >> 58) & 1 == 1).then_some(data as u16),
        score: (data >> 16) as u16 as i16 as i32,
        evaluation: (data >> 32) as u16 as i16 as i32,
        depth: (data >> 48) as u8,
        bound,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_touches_of_a_fresh_table_do_not_stall() {
        // A search stores all over a fresh table. With huge pages advised while the kernel
        // compacts memory on the spot (THP defrag `madvise`, `defer+madvise` or `always`), each
        // first touch of a 2 MiB region waited for compaction: on the shared machine, 2101 nodes
        // of a Gomoku search took 1.6 s with a 256 MB table instead of 10 ms, past any time limit.
        let table = TranspositionTable::new(256);
        let start = std::time::Instant::now();
        for index in 0..4096u64 {
            table.store(
                index.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                None,
                0,
                0,
                1,
                Bound::Exact,
            );
        }
        let elapsed = start.elapsed();
        assert!(
            elapsed < std::time::Duration::from_millis(250),
            "{elapsed:?}"
        );
    }

    #[test]
    fn stores_and_probes() {
        let table = TranspositionTable::new(1);
        assert_eq!(table.probe(42), None);
        table.store(42, Some(7), -1234, 55, 9, Bound::Lower);
        let entry = table.probe(42).unwrap();
        assert_eq!(entry.move_code, Some(7));
        assert_eq!(entry.score, -1234);
        assert_eq!(entry.evaluation, 55);
        assert_eq!(entry.depth, 9);
        assert_eq!(entry.bound, Bound::Lower);
        table.store(42, None, 30, 0, 10, Bound::Exact);
        assert_eq!(table.probe(42).unwrap().move_code, Some(7), "move kept");
        table.clear();
        assert_eq!(table.probe(42), None);
        table.store(42, Some(9), 5, 0, 1, Bound::Exact);
        assert_eq!(table.probe(42).unwrap().move_code, Some(9));
    }

    #[test]
    fn cleared_entries_are_replaced_first() {
        let table = TranspositionTable::new(0);
        for key in 1..=4u64 {
            table.store(key, None, 0, 0, 60, Bound::Exact);
        }
        table.clear();
        table.store(5, None, 0, 0, 1, Bound::Exact);
        table.store(6, None, 0, 0, 1, Bound::Exact);
        assert!(table.probe(5).is_some() && table.probe(6).is_some());
    }

    #[test]
    fn impossible_sizes_are_errors() {
        assert!(TranspositionTable::try_new(usize::MAX / 2).is_err());
        if let Some(available) = available_memory() {
            let too_big = (available / MEGABYTE as u64) as usize + 1024;
            assert!(matches!(
                TranspositionTable::try_new(too_big),
                Err(TableError::NotEnoughMemory { .. })
            ));
        }
    }

    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let table = TranspositionTable::new(1);
        table.store(99, Some(3), 10, 0, 4, Bound::Exact);
        let slot = &table.bucket(99).slots[0];
        // Simulate a second writer's data word landing beside the first writer's check word.
        slot.data
            .store(pack(Some(5), 20, 0, 6, Bound::Exact, 0), Ordering::Relaxed);
        assert_eq!(table.probe(99), None);
    }

    #[test]
    fn full_buckets_replace_the_shallowest() {
        let table = TranspositionTable::new(0);
        for key in 1..=4u64 {
            table.store(key, None, 0, 0, key as u8 * 10, Bound::Exact);
        }
        table.store(5, None, 0, 0, 25, Bound::Exact);
        assert_eq!(table.probe(1), None);
        assert!(table.probe(2).is_some() && table.probe(5).is_some());
    }
}
