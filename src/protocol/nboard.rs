//! The NBoard protocol for Othello GUIs (work in progress).

use super::input::Interrupt;
use super::output::Output;
use super::{Flow, FrontEnd};
use crate::engine::{Settings, StopSignal};
use std::sync::Arc;

/// The lines that interrupt a search: `ping` stops it, `quit` closes the input.
pub const INTERRUPTS: &[(&str, Interrupt)] =
    &[("ping", Interrupt::Stop), ("quit", Interrupt::Quit)];

/// The NBoard front-end.
pub struct Nboard {
    output: Output,
}

impl Nboard {
    /// A new engine session.
    pub fn new(settings: Settings, stop: Arc<StopSignal>, output: Output) -> Nboard {
        let _ = (settings, stop);
        Nboard { output }
    }
}

impl FrontEnd for Nboard {
    fn respond(&mut self, line: &str) -> Flow {
        if line.eq_ignore_ascii_case("quit") {
            return Flow::Quit;
        }
        log::warn!("ignored: {line}");
        let _ = &self.output;
        Flow::Continue
    }

    fn refuse(&mut self, _: Option<&str>, reason: &str) {
        log::warn!("refused: {reason}");
    }
}
