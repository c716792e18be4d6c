//! Protocol front-ends. Each one parses and formats; the engine façade does the work.
//!
//! One binary speaks several protocols: our GTP dialect ([`gtp`], also GTP as Othello GUIs speak
//! it), Gomocup/Piskvork for Gomoku managers ([`piskvork`]) and NBoard for Othello GUIs
//! ([`nboard`]). The first meaningful line chooses the protocol unless the command line does
//! ([`Protocol::detect`]). Every front-end declares its own interrupt lines and its own
//! preprocessing; [`serve`] runs any of them.

pub mod ccp;
pub mod gtp;
pub mod input;
pub mod nboard;
pub mod output;
pub mod piskvork;

use crate::engine::{Settings, StopSignal};
use input::{Input, Interrupt, ReaderLimits};
use output::Output;
use std::io::BufRead;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;

/// The protocols Tabula speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// Our GTP dialect (`protocol.md`), which GTP GUIs such as Quarry also drive.
    Gtp,
    /// Gomocup/Piskvork with the Yixin extensions, for Gomoku managers and GUIs.
    Piskvork,
    /// NBoard, for Othello GUIs.
    Nboard,
    /// CCP, the Chinese Checkers protocol of the CCERL rating list.
    Ccp,
}

/// The first words that choose Piskvork when they start the session.
const PISKVORK_OPENERS: &[&str] = &["start", "rectstart", "info", "about", "board", "yxboard"];

impl Protocol {
    /// Every protocol, with its name for `--protocol`.
    pub const ALL: [(Protocol, &'static str); 4] = [
        (Protocol::Gtp, "gtp"),
        (Protocol::Piskvork, "piskvork"),
        (Protocol::Nboard, "nboard"),
        (Protocol::Ccp, "ccp"),
    ];

    /// The protocol named `name` (`gtp`, `piskvork` or `gomocup`, `nboard`).
    pub fn from_name(name: &str) -> Option<Protocol> {
        let lower = name.to_ascii_lowercase();
        if lower == "gomocup" {
            return Some(Protocol::Piskvork);
        }
        Protocol::ALL
            .iter()
            .find(|(_, known)| *known == lower)
            .map(|&(protocol, _)| protocol)
    }

    /// The protocol an executable's own name implies: Gomocup managers run brains named
    /// `pbrain-*`.
    pub fn from_program_name(path: &str) -> Option<Protocol> {
        let name = std::path::Path::new(path).file_name()?.to_str()?;
        name.to_ascii_lowercase()
            .starts_with("pbrain")
            .then_some(Protocol::Piskvork)
    }

    /// The protocol a session that starts with `line` speaks: `nboard` chooses NBoard, `ccp` CCP, a
    /// Piskvork opening command (`START`, `RECTSTART`, `INFO`, `ABOUT`, `BOARD`, `YXBOARD`)
    /// chooses Piskvork, and anything else our GTP dialect.
    pub fn detect(line: &str) -> Protocol {
        let (_, command) = input::split_id(line.trim());
        let word = command
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        if word == "nboard" {
            Protocol::Nboard
        } else if word == "ccp" {
            Protocol::Ccp
        } else if PISKVORK_OPENERS.contains(&word.as_str()) {
            Protocol::Piskvork
        } else {
            Protocol::Gtp
        }
    }

    /// The line as this protocol reads it (GTP cuts `#` comments; the others only clean).
    pub fn preprocess(&self, line: &str) -> String {
        match self {
            Protocol::Gtp => input::preprocess(line),
            Protocol::Piskvork | Protocol::Nboard | Protocol::Ccp => input::clean(line),
        }
    }

    /// How a preprocessed line interrupts a running search in this protocol.
    pub fn interrupt(&self, line: &str) -> Option<Interrupt> {
        let (_, command) = match self {
            Protocol::Gtp => input::split_id(line),
            _ => (None, line),
        };
        let word = command
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        let table = match self {
            Protocol::Gtp => gtp::INTERRUPTS,
            Protocol::Piskvork => piskvork::INTERRUPTS,
            Protocol::Nboard => nboard::INTERRUPTS,
            Protocol::Ccp => ccp::INTERRUPTS,
        };
        table
            .iter()
            .find(|(name, _)| *name == word)
            .map(|&(_, interrupt)| interrupt)
    }
}

/// Whether the session goes on after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// The protocol's quit was handled: exit.
    Quit,
}

/// A protocol front-end: it parses lines, drives the engine and formats replies.
pub trait FrontEnd {
    /// Handles one preprocessed, non-empty line and writes its reply (if the protocol has one).
    fn respond(&mut self, line: &str) -> Flow;
    /// Answers a line the reader refused (too long, not UTF-8) in the protocol's error form.
    fn refuse(&mut self, id: Option<&str>, reason: &str);
    /// Answers a line whose handling failed inside the engine (a bug); the session goes on.
    fn internal_error(&mut self, line: &str) {
        let _ = line;
        self.refuse(None, "internal error");
    }
}

/// The front-end for `protocol`, or the error when its first game cannot be set up (a server
/// whose shared table memory is used up).
pub fn front_end(
    protocol: Protocol,
    settings: Settings,
    stop: Arc<StopSignal>,
    output: Output,
) -> Result<Box<dyn FrontEnd>, crate::engine::EngineError> {
    Ok(match protocol {
        Protocol::Gtp => Box::new(gtp::Gtp::try_with_settings(settings, stop, output)?),
        Protocol::Piskvork => Box::new(piskvork::Piskvork::try_new(settings, stop, output)?),
        Protocol::Nboard => Box::new(nboard::Nboard::try_new(settings, stop, output)?),
        Protocol::Ccp => Box::new(ccp::Ccp::try_new(settings, stop, output)?),
    })
}

/// Serves a protocol on `input` and `output` until its quit or the end of input. With
/// `protocol` unset, the first meaningful line chooses it.
pub fn serve(
    input: impl BufRead + Send + 'static,
    output: Output,
    settings: Settings,
    protocol: Option<Protocol>,
) {
    let stop = Arc::new(StopSignal::default());
    serve_with(
        input,
        output,
        settings,
        protocol,
        stop,
        ReaderLimits::default(),
    );
}

/// [`serve`] for a host that runs sessions side by side (the server, over sockets): it keeps the
/// session's stop signal, to [`StopSignal::hang_up`] when its client has gone, and sets the reader's
/// limits.
pub fn serve_with(
    input: impl BufRead + Send + 'static,
    output: Output,
    settings: Settings,
    protocol: Option<Protocol>,
    stop: Arc<StopSignal>,
    limits: ReaderLimits,
) {
    let lines = input::spawn_reader_with(input, stop.clone(), protocol, limits);
    let mut settings = Some(settings);
    let mut front: Option<Box<dyn FrontEnd>> = None;
    for item in lines {
        match item {
            Input::Protocol(protocol) => {
                log::info!("speaking {protocol:?}");
                let settings = settings.take().unwrap_or_default();
                match front_end(protocol, settings, stop.clone(), output.clone()) {
                    Ok(chosen) => front = Some(chosen),
                    Err(error) => {
                        // Only a host with shared limits can get here: say so in the
                        // protocol's own error form and end the session.
                        log::warn!("no session: {error}");
                        let message = format!("server busy: {error}");
                        output.write(&match protocol {
                            Protocol::Gtp => format!("? {message}\n\n"),
                            Protocol::Piskvork => format!("ERROR {message}\n"),
                            Protocol::Nboard => format!("status {message}\n"),
                            Protocol::Ccp => format!("info string error {message}\n"),
                        });
                        break;
                    }
                }
            }
            Input::Line { text, raised } => {
                if raised {
                    stop.handled();
                }
                let Some(front) = front.as_mut() else {
                    continue;
                };
                // A bug must not end the session: report it and read on.
                match std::panic::catch_unwind(AssertUnwindSafe(|| front.respond(&text))) {
                    Ok(Flow::Quit) => break,
                    Ok(Flow::Continue) => {}
                    Err(_) => {
                        log::error!("internal error on '{text}'");
                        front.internal_error(&text);
                    }
                }
            }
            Input::Bad { id, reason } => {
                if let Some(front) = front.as_mut() {
                    front.refuse(id.as_deref(), &reason);
                }
            }
            Input::End => break,
        }
        if stop.is_hung_up() {
            log::info!("the client has gone");
            break;
        }
        if output.is_broken() {
            log::warn!("the output is closed: nobody reads the replies any more");
            break;
        }
    }
}
