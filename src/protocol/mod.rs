//! Protocol front-ends. Each one parses and formats; the engine façade does the work.

pub mod gtp;
pub mod input;
pub mod output;

use crate::engine::{Settings, StopSignal};
use gtp::{Flow, Gtp};
use input::Input;
use output::Output;
use std::io::BufRead;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;

/// Serves the protocol on `input` and `output` until `quit` or end of input.
pub fn serve(input: impl BufRead + Send + 'static, output: Output, settings: Settings) {
    let stop = Arc::new(StopSignal::default());
    let lines = input::spawn_reader(input, stop.clone());
    let mut gtp = Gtp::with_settings(settings, stop, output);
    for item in lines {
        match item {
            Input::Line(line) => {
                // A bug must not end the session: report it and read on.
                match std::panic::catch_unwind(AssertUnwindSafe(|| gtp.respond(&line))) {
                    Ok(Flow::Quit) => break,
                    Ok(Flow::Continue) => {}
                    Err(_) => {
                        log::error!("internal error on '{line}'");
                        gtp.refuse(None, "internal error");
                    }
                }
            }
            Input::Bad { id, reason } => gtp.refuse(id.as_deref(), &reason),
            Input::End => break,
        }
    }
}
