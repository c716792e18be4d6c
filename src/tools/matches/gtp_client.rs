//! The GTP side of a match: Tabula, Edax (`-gtp`), gtp-rhino and other engines that speak GTP
//! with our game commands (`set_game`, `setposition`, players `1`..`6` for Chinese Checkers).
//!
//! Commands carry no ids (Edax echoes an id on every later reply once it has seen one). Lines
//! before a reply (banners, info lines) are skipped. The clock goes out as GTP has it: a base time
//! as sudden death (`time_settings B 0 0`, then `time_left <player> <left> 0` before each move,
//! the left time including increments), a time per move as one-move byo-yomi (`time_settings 0
//! M 1`, `time_left <player> M 1`).

use super::client::{Client, Fault, GameSetup, MoveRequest, PlayedMove};
use super::process::Process;
use super::records::Termination;
use super::spec::{ClockMode, EngineSpec, PassStyle};
use crate::games::WEIGHTS;
use crate::tools::interrupt::Interrupt;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// An engine spoken to in GTP.
pub struct GtpClient {
    process: Process,
    spec: EngineSpec,
    interrupt: Interrupt,
    known: HashMap<String, bool>,
    pass: PassStyle,
    clock: bool,
    ready: bool,
}

/// Seconds as GTP arguments: whole when whole, else with milliseconds.
fn seconds(duration: Duration) -> String {
    if duration.subsec_millis() == 0 {
        duration.as_secs().to_string()
    } else {
        format!("{:.3}", duration.as_secs_f64())
    }
}

impl GtpClient {
    /// A client for a started engine.
    pub fn new(process: Process, spec: &EngineSpec, interrupt: Interrupt) -> GtpClient {
        GtpClient {
            process,
            pass: spec.pass,
            spec: spec.clone(),
            interrupt,
            known: HashMap::new(),
            clock: false,
            ready: false,
        }
    }

    /// Sends `command` and reads its reply within `deadline`: whether it succeeded, and its text.
    fn exchange(
        &mut self,
        command: &str,
        deadline: Instant,
        clocked: bool,
    ) -> Result<(bool, String), Fault> {
        let sent = Instant::now();
        self.process
            .send(command)
            .map_err(|error| Fault::of_write(&error, command))?;
        let fault = |error| {
            Fault::of_read(
                error,
                command,
                deadline.saturating_duration_since(sent),
                clocked,
            )
        };
        let (success, mut text) = loop {
            let line = self
                .process
                .read_line(deadline, &self.interrupt)
                .map_err(fault)?;
            let trimmed = line.trim();
            if let Some(status @ ('=' | '?')) = trimmed.chars().next() {
                let rest = trimmed[1..].trim_start_matches(|c: char| c.is_ascii_digit());
                break (status == '=', vec![rest.trim().to_string()]);
            }
        };
        loop {
            let line = self
                .process
                .read_line(deadline, &self.interrupt)
                .map_err(fault)?;
            if line.trim().is_empty() {
                break;
            }
            text.push(line);
        }
        while text.last().is_some_and(|line| line.is_empty()) {
            text.pop();
        }
        Ok((success, text.join("\n").trim().to_string()))
    }

    /// A command that is not a move, with the engine's reply timeout.
    fn command(&mut self, command: &str) -> Result<(bool, String), Fault> {
        let deadline = Instant::now() + self.spec.timeout;
        self.exchange(command, deadline, false)
    }

    /// A command that must succeed.
    fn must(&mut self, command: &str) -> Result<String, Fault> {
        match self.command(command)? {
            (true, text) => Ok(text),
            (false, text) => Err(Fault::new(
                Termination::ProtocolError,
                format!("refused '{command}': {text}"),
            )),
        }
    }

    /// Whether the engine knows a command (asked once).
    fn knows(&mut self, name: &str) -> Result<bool, Fault> {
        if let Some(&known) = self.known.get(name) {
            return Ok(known);
        }
        let (success, text) = self.command(&format!("known_command {name}"))?;
        let known = success && text.eq_ignore_ascii_case("true");
        self.known.insert(name.to_string(), known);
        Ok(known)
    }

    /// The engine's `weights` option, if it has one: a game option, which `set_game` would reset,
    /// so it goes with each `set_game` instead of `set_option` at start-up.
    fn game_weights(&self) -> Option<&str> {
        self.spec
            .options
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(WEIGHTS))
            .map(|(_, value)| value.as_str())
    }

    /// The first set-up of a new process: options (but the game's, see [`Self::game_weights`])
    /// and init commands.
    fn prepare(&mut self) -> Result<(), Fault> {
        for (name, value) in self.spec.options.clone() {
            if name.eq_ignore_ascii_case(WEIGHTS) {
                continue;
            }
            self.must(&format!("set_option {name} {value}"))?;
        }
        for command in self.spec.init.clone() {
            self.must(&command)?;
        }
        self.ready = true;
        Ok(())
    }

    /// `set_game` for the game; Othello on 8x8 also suits engines that know no `set_game`.
    fn set_game(&mut self, setup: &GameSetup) -> Result<(), Fault> {
        let weights = self.game_weights().map(str::to_string);
        let plain_othello = setup.game == "reversi"
            && setup.option("size").is_none_or(|size| size == "8")
            && weights.is_none();
        if !self.knows("set_game")? {
            if plain_othello {
                return Ok(());
            }
            return Err(Fault::new(
                Termination::ProtocolError,
                format!("knows no set_game, which {} needs", setup.game),
            ));
        }
        if plain_othello {
            self.must("set_game Othello")?;
        } else {
            let options: Vec<String> = setup
                .options
                .iter()
                .map(|(key, value)| format!("{key}={value}"))
                .chain(weights.map(|file| format!("{WEIGHTS}={file}")))
                .collect();
            self.must(format!("set_game {} {}", setup.game, options.join(" ")).trim_end())?;
        }
        Ok(())
    }
}

impl Client for GtpClient {
    fn new_game(&mut self, setup: &GameSetup) -> Result<(), Fault> {
        if !self.ready {
            self.prepare()?;
        }
        self.set_game(setup)?;
        self.must("clear_board")?;
        if let Some(position) = &setup.position {
            if !self.knows("setposition")? {
                return Err(Fault::new(
                    Termination::ProtocolError,
                    "knows no setposition, which a position opening needs",
                ));
            }
            self.must(&format!("setposition {position}"))?;
        }
        for played in &setup.opening {
            self.tell(played)?;
        }
        let control = setup.clock.control();
        self.clock = control.is_limited()
            && match self.spec.clock {
                ClockMode::Off => false,
                ClockMode::On => true,
                ClockMode::Auto => self.knows("time_settings")?,
            };
        if self.clock {
            match (control.base, control.per_move) {
                (Some(base), _) => self.must(&format!("time_settings {} 0 0", seconds(base)))?,
                (None, Some(per_move)) => {
                    self.must(&format!("time_settings 0 {} 1", seconds(per_move)))?
                }
                (None, None) => String::new(),
            };
        }
        Ok(())
    }

    fn tell(&mut self, played: &PlayedMove) -> Result<(), Fault> {
        let command = format!("play {} {}", played.player, played.mv);
        if played.is_pass() {
            match self.pass {
                PassStyle::Implied => return Ok(()),
                PassStyle::Explicit => {
                    self.must(&command)?;
                }
                PassStyle::Auto => {
                    if !self.command(&command)?.0 {
                        log::info!(
                            "{} refused an explicit pass: passes are implied from now on",
                            self.spec.name
                        );
                        self.pass = PassStyle::Implied;
                    }
                }
            }
            return Ok(());
        }
        match self.command(&command)? {
            (true, _) => Ok(()),
            (false, text) => Err(Fault::new(
                Termination::ProtocolError,
                format!("refused the legal move '{command}': {text}"),
            )),
        }
    }

    fn genmove(&mut self, request: &MoveRequest) -> Result<String, Fault> {
        if self.clock {
            let control = request.clock.control();
            match (request.clock.remaining(), control.per_move) {
                (Some(left), _) => {
                    self.must(&format!("time_left {} {} 0", request.player, seconds(left)))?
                }
                (None, Some(per_move)) => self.must(&format!(
                    "time_left {} {} 1",
                    request.player,
                    seconds(per_move)
                ))?,
                (None, None) => String::new(),
            };
        }
        let command = format!("genmove {}", request.player);
        let clocked = request.clock.control().is_limited();
        match self.exchange(&command, request.deadline, clocked)? {
            (true, text) => Ok(text.lines().next().unwrap_or("").trim().to_string()),
            (false, text) => Err(Fault::new(
                Termination::ProtocolError,
                format!("refused '{command}': {text}"),
            )),
        }
    }

    fn close(&mut self) {
        self.process.close(Some("quit"), Duration::from_secs(1));
    }
}
