//! The stop signal shared by the searches and a front-end's input reader.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The stop flag every search thread polls, with the bookkeeping that lets the input reader raise
/// it while the protocol thread is busy.
///
/// The reader calls [`StopSignal::request`] for each interrupt line it reads (a front-end declares
/// which lines interrupt) and queues the line. The protocol loop calls [`StopSignal::handled`] for
/// each such line as it takes it from the queue, whatever the front-end then does with it, so the
/// count of pending interrupts always returns to zero. A new search lowers the flag unless an
/// interrupt is still pending: a `stop` that arrives just before the search it was meant for
/// still stops it.
///
/// When the input is closed (end of input, or a `quit` queued behind other commands) nobody can
/// stop a search any more, so a search without any limit is stopped at once (see
/// [`StopSignal::begin_unbounded`]); a bounded one runs to its end, so that a piped script still
/// gets a full answer to every command.
#[derive(Debug, Default)]
pub struct StopSignal {
    flag: AtomicBool,
    pending: AtomicUsize,
    closed: AtomicBool,
    unbounded: AtomicBool,
    gone: AtomicBool,
}

impl StopSignal {
    /// The flag every search thread polls.
    pub fn flag(&self) -> &AtomicBool {
        &self.flag
    }

    /// An interrupt line was read: stop any search now.
    pub fn request(&self) {
        self.pending.fetch_add(1, Ordering::SeqCst);
        self.flag.store(true, Ordering::SeqCst);
    }

    /// An interrupt line has been taken from the queue.
    pub fn handled(&self) {
        let _ = self
            .pending
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |count| {
                count.checked_sub(1)
            });
    }

    /// The number of interrupt lines read but not yet taken from the queue.
    pub fn pending(&self) -> usize {
        self.pending.load(Ordering::SeqCst)
    }

    /// Readies the flag for a new search.
    pub fn arm(&self) {
        self.flag.store(false, Ordering::SeqCst);
        self.unbounded.store(false, Ordering::SeqCst);
        if self.pending.load(Ordering::SeqCst) > 0 || self.gone.load(Ordering::SeqCst) {
            self.flag.store(true, Ordering::SeqCst);
        }
    }

    /// Marks the search that starts now as one without limits: it stops at once if the input is
    /// closed, now or later.
    pub fn begin_unbounded(&self) {
        self.unbounded.store(true, Ordering::SeqCst);
        if self.closed.load(Ordering::SeqCst) {
            self.flag.store(true, Ordering::SeqCst);
        }
    }

    /// The input is closed: no `stop` can come any more.
    pub fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        if self.unbounded.load(Ordering::SeqCst) {
            self.flag.store(true, Ordering::SeqCst);
        }
    }

    /// The client has gone (a network connection dropped): nobody reads any answer, so the
    /// running search and every later one stop at once, bounded or not.
    pub fn hang_up(&self) {
        self.gone.store(true, Ordering::SeqCst);
        self.close();
        self.flag.store(true, Ordering::SeqCst);
    }

    /// Whether the client has gone.
    pub fn is_hung_up(&self) -> bool {
        self.gone.load(Ordering::SeqCst)
    }

    /// Whether the input is closed.
    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }

    /// Raises the flag without an interrupt line (a front-end's own reason, e.g. a time limit).
    pub fn raise(&self) {
        self.flag.store(true, Ordering::SeqCst);
    }

    /// Whether the flag is raised.
    pub fn is_raised(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handled_interrupts_no_longer_stop_new_searches() {
        let signal = StopSignal::default();
        signal.request();
        signal.arm();
        assert!(signal.is_raised(), "a pending stop stops the next search");
        signal.handled();
        signal.arm();
        assert!(!signal.is_raised());
    }

    #[test]
    fn after_a_hang_up_every_search_stops_at_once() {
        let signal = StopSignal::default();
        signal.arm();
        signal.hang_up();
        assert!(signal.is_raised());
        signal.arm();
        assert!(
            signal.is_raised(),
            "a search queued behind the hang-up stops too"
        );
    }

    #[test]
    fn closing_stops_only_unbounded_searches() {
        let signal = StopSignal::default();
        signal.arm();
        signal.close();
        assert!(!signal.is_raised(), "a bounded search runs on");
        signal.begin_unbounded();
        assert!(signal.is_raised());
        let running = StopSignal::default();
        running.arm();
        running.begin_unbounded();
        running.close();
        assert!(running.is_raised());
    }
}
