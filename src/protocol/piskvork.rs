//! The Gomocup/Piskvork protocol for Gomoku managers and GUIs (work in progress).

use super::input::Interrupt;
use super::output::Output;
use super::{Flow, FrontEnd};
use crate::engine::{Settings, StopSignal};
use std::sync::Arc;

/// The lines that interrupt a search: `YXSTOP` stops it, `END` closes the input.
pub const INTERRUPTS: &[(&str, Interrupt)] =
    &[("yxstop", Interrupt::Stop), ("end", Interrupt::Quit)];

/// The Piskvork front-end.
pub struct Piskvork {
    output: Output,
}

impl Piskvork {
    /// A new brain.
    pub fn new(settings: Settings, stop: Arc<StopSignal>, output: Output) -> Piskvork {
        let _ = (settings, stop);
        Piskvork { output }
    }
}

impl FrontEnd for Piskvork {
    fn respond(&mut self, line: &str) -> Flow {
        if line.eq_ignore_ascii_case("end") {
            return Flow::Quit;
        }
        self.output.line("UNKNOWN this front-end is being written");
        Flow::Continue
    }

    fn refuse(&mut self, _: Option<&str>, reason: &str) {
        self.output.line(&format!("ERROR {reason}"));
    }
}
