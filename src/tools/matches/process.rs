//! An engine process: started in its own process group, fed lines on stdin, its stdout read line
//! by line by a thread so that every read can have a deadline, and killed as a group (a shell
//! script's children too) when it misbehaves or the match ends.

use crate::tools::interrupt::Interrupt;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How to start an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// The working directory, if not the current one.
    pub directory: Option<PathBuf>,
    /// A file that collects the engine's stderr (appended); discarded otherwise.
    pub stderr: Option<PathBuf>,
}

/// Why a read gave no line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// The deadline passed.
    Timeout,
    /// The engine closed its output (it ended); its exit status when known.
    Closed(Option<String>),
    /// Ctrl-C.
    Interrupted,
}

/// How often a wait looks at Ctrl-C.
const POLL: Duration = Duration::from_millis(100);

/// A running engine.
pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    label: String,
}

impl Process {
    /// Starts the engine; `label` names it in the log.
    ///
    /// # Errors
    /// The program cannot be started.
    pub fn start(launch: &Launch, label: &str) -> std::io::Result<Process> {
        let (program, arguments) = launch.command.split_first().ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::InvalidInput, "an empty command")
        })?;
        let mut command = Command::new(program);
        command
            .args(arguments)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped());
        command.stderr(match &launch.stderr {
            Some(path) => Stdio::from(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)?,
            ),
            None => Stdio::null(),
        });
        if let Some(directory) = &launch.directory {
            command.current_dir(directory);
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            command.process_group(0);
        }
        let mut child = command.spawn()?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        let (sender, lines) = mpsc::channel();
        let reader_label = label.to_string();
        std::thread::Builder::new()
            .name(format!("read {label}"))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut bytes = Vec::new();
                loop {
                    bytes.clear();
                    match reader.read_until(b'\n', &mut bytes) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&bytes)
                                .trim_end_matches(['\r', '\n'])
                                .to_string();
                            log::debug!(target: "tabula::match", "{reader_label} > {line}");
                            if sender.send(line).is_err() {
                                break;
                            }
                        }
                    }
                }
            })?;
        log::debug!(target: "tabula::match", "{label} started: {:?}", launch.command);
        Ok(Process {
            child,
            stdin,
            lines,
            label: label.to_string(),
        })
    }

    /// The name in the log.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// Sends one line.
    ///
    /// # Errors
    /// The engine's input is closed (it ended).
    pub fn send(&mut self, line: &str) -> std::io::Result<()> {
        log::debug!(target: "tabula::match", "{} < {line}", self.label);
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::BrokenPipe, "input closed"))?;
        stdin.write_all(line.as_bytes())?;
        stdin.write_all(b"\n")?;
        stdin.flush()
    }

    /// The next line of output, waiting until `deadline` at most.
    ///
    /// # Errors
    /// [`ReadError`]: the deadline passed, the engine ended, or Ctrl-C.
    pub fn read_line(
        &mut self,
        deadline: Instant,
        interrupt: &Interrupt,
    ) -> Result<String, ReadError> {
        loop {
            if interrupt.is_raised() {
                return Err(ReadError::Interrupted);
            }
            let now = Instant::now();
            if now >= deadline {
                // A line already there still counts.
                return self.lines.try_recv().map_err(|_| ReadError::Timeout);
            }
            match self.lines.recv_timeout((deadline - now).min(POLL)) {
                Ok(line) => return Ok(line),
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(ReadError::Closed(self.exit_status()))
                }
            }
        }
    }

    /// The exit status once the process has ended (waiting a moment for it).
    fn exit_status(&mut self) -> Option<String> {
        let until = Instant::now() + Duration::from_millis(500);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status.to_string()),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(10)),
                _ => return None,
            }
        }
    }

    /// Whether the process still runs.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Sends `last_words` (a quit command), waits up to `grace` for the engine to end, then kills
    /// it and its process group.
    pub fn close(&mut self, last_words: Option<&str>, grace: Duration) {
        if let Some(words) = last_words {
            let _ = self.send(words);
        }
        self.stdin = None;
        let until = Instant::now() + grace;
        while Instant::now() < until {
            if !self.is_running() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }

    /// Kills the engine and its process group at once.
    pub fn kill(&mut self) {
        self.stdin = None;
        #[cfg(unix)]
        {
            use nix::sys::signal::{killpg, Signal};
            use nix::unistd::Pid;
            // The group has the child's id (process_group(0)); it may hold a script's children.
            let _ = killpg(Pid::from_raw(self.child.id() as i32), Signal::SIGKILL);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        log::debug!(target: "tabula::match", "{} ended", self.label);
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}
