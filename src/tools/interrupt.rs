//! Ctrl-C for the tools: the first one asks the run to finish cleanly (searches stop, nothing
//! unfinished is written, the summary is printed); a second one ends the process at once.

use crate::engine::StopSignal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// The exit status of a run ended by Ctrl-C (128 + SIGINT).
pub const EXIT_STATUS: i32 = 130;

/// The error a tool returns when it was interrupted and finished cleanly.
#[derive(Debug, thiserror::Error)]
#[error("interrupted: {0}")]
pub struct Interrupted(pub String);

/// What Ctrl-C raises.
#[derive(Default)]
struct Shared {
    flag: AtomicBool,
    stops: Mutex<Vec<Arc<StopSignal>>>,
}

static SHARED: OnceLock<Arc<Shared>> = OnceLock::new();

/// The run's view of Ctrl-C.
#[derive(Clone)]
pub struct Interrupt {
    shared: Arc<Shared>,
}

impl Interrupt {
    /// Installs the Ctrl-C handler (once per process) and returns the flag it raises. Without a
    /// handler (another one is installed), Ctrl-C keeps its default effect.
    pub fn install() -> Interrupt {
        let shared = SHARED
            .get_or_init(|| {
                let shared = Arc::new(Shared::default());
                let handler = shared.clone();
                let installed = ctrlc::set_handler(move || {
                    if handler.flag.swap(true, Ordering::SeqCst) {
                        eprintln!("interrupted again: stopping now");
                        std::process::exit(EXIT_STATUS);
                    }
                    eprintln!("interrupted: finishing cleanly (Ctrl-C again to stop at once)");
                    for stop in handler.stops.lock().expect("not poisoned").iter() {
                        stop.request();
                    }
                });
                if let Err(error) = installed {
                    log::warn!("no Ctrl-C handler: {error}");
                }
                shared
            })
            .clone();
        Interrupt { shared }
    }

    /// A flag that no Ctrl-C raises (for runs inside tests).
    pub fn detached() -> Interrupt {
        Interrupt {
            shared: Arc::new(Shared::default()),
        }
    }

    /// Whether Ctrl-C was pressed.
    pub fn is_raised(&self) -> bool {
        self.shared.flag.load(Ordering::SeqCst)
    }

    /// Raises the flag as Ctrl-C does.
    pub fn raise(&self) {
        self.shared.flag.store(true, Ordering::SeqCst);
        for stop in self.shared.stops.lock().expect("not poisoned").iter() {
            stop.request();
        }
    }

    /// Stops `stop`'s searches on Ctrl-C. A search started after the interrupt stops at once
    /// (the request stays pending).
    pub fn watch(&self, stop: Arc<StopSignal>) {
        // Listed first, checked second: a Ctrl-C in between requests the stop either way.
        self.shared
            .stops
            .lock()
            .expect("not poisoned")
            .push(stop.clone());
        if self.is_raised() {
            stop.request();
        }
    }
}
