//! A black-box client: spawns the `tabula` binary and talks to it over pipes.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// One reply: whether it succeeded, its id and its text (lines joined by `\n`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    pub success: bool,
    pub id: Option<String>,
    pub text: String,
}

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl Engine {
    pub fn start() -> Engine {
        Engine::start_with(&[])
    }

    pub fn start_with(arguments: &[&str]) -> Engine {
        Engine::start_program(env!("CARGO_BIN_EXE_tabula"), arguments)
    }

    /// Starts the binary through another path (a `pbrain-*` link, say).
    pub fn start_program(program: impl AsRef<std::ffi::OsStr>, arguments: &[&str]) -> Engine {
        let mut child = Command::new(program)
            .args(arguments)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the tabula binary starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Engine {
            child,
            stdin: Some(stdin),
            stdout,
        }
    }

    /// Sends raw bytes (a line must end with `\n`).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("input is open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// Sends `command` with id `id`, lets it run for `running`, then sends `stop` with id `id + 1`.
    /// Returns the command's reply and how long after the stop it came; the stop's own reply
    /// must follow with its id and succeed.
    pub fn stop_after(&mut self, id: u32, command: &str, running: Duration) -> (Reply, Duration) {
        self.send_raw(format!("{id} {command}\n").as_bytes());
        std::thread::sleep(running);
        let start = Instant::now();
        self.send_raw(format!("{} stop\n", id + 1).as_bytes());
        let reply = self.read_reply();
        let waited = start.elapsed();
        assert_eq!(reply.id, Some(id.to_string()), "{reply:?}");
        let stop = self.read_reply();
        assert!(stop.success, "{stop:?}");
        assert_eq!(stop.id, Some((id + 1).to_string()), "{stop:?}");
        (reply, waited)
    }

    /// Reads one reply, skipping `info` lines.
    pub fn read_reply(&mut self) -> Reply {
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            let read = self.stdout.read_line(&mut line).expect("reading a reply");
            assert!(
                read > 0,
                "the engine closed its output; lines so far: {lines:?}"
            );
            let line = line.trim_end_matches('\n').to_string();
            if line.is_empty() {
                if lines.is_empty() {
                    continue;
                }
                break;
            }
            if lines.is_empty() && line.starts_with("info ") {
                continue;
            }
            lines.push(line);
        }
        let first = &lines[0];
        let success = match first.chars().next() {
            Some('=') => true,
            Some('?') => false,
            _ => panic!("a reply must start with = or ?: {lines:?}"),
        };
        let head = &first[1..];
        let id_end = head
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(head.len());
        let id = (id_end > 0).then(|| head[..id_end].to_string());
        let mut text = head[id_end..].trim_start().to_string();
        for line in &lines[1..] {
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(line);
        }
        Reply { success, id, text }
    }

    /// Reads raw lines up to and including the reply that ends with a blank line.
    pub fn read_raw_reply(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "output closed"
            );
            let line = line.trim_end_matches('\n').to_string();
            if line.is_empty() {
                return lines;
            }
            lines.push(line);
        }
    }

    /// Reads a Piskvork reply: the `MESSAGE` and `DEBUG` lines before it, and the reply line.
    pub fn read_piskvork(&mut self) -> (Vec<String>, String) {
        let mut messages = Vec::new();
        loop {
            let line = self.read_line();
            if line.starts_with("MESSAGE") || line.starts_with("DEBUG") {
                messages.push(line);
            } else {
                return (messages, line);
            }
        }
    }

    /// Sends one Piskvork line that has a reply and returns the reply line (messages skipped).
    pub fn piskvork(&mut self, line: &str) -> String {
        self.send_raw(format!("{line}\r\n").as_bytes());
        self.read_piskvork().1
    }

    /// Sends Piskvork lines that have no reply (`INFO`, board lines).
    pub fn piskvork_silent(&mut self, lines: &[&str]) {
        for line in lines {
            self.send_raw(format!("{line}\r\n").as_bytes());
        }
    }

    /// Sends a command line and reads its reply.
    pub fn send(&mut self, command: &str) -> Reply {
        self.send_raw(format!("{command}\n").as_bytes());
        self.read_reply()
    }

    /// Sends a command that must succeed and returns its text.
    pub fn ok(&mut self, command: &str) -> String {
        let reply = self.send(command);
        assert!(reply.success, "'{command}' failed: {}", reply.text);
        reply.text
    }

    /// Sends a command that must fail and returns its message.
    pub fn error(&mut self, command: &str) -> String {
        let reply = self.send(command);
        assert!(
            !reply.success,
            "'{command}' should fail but gave '{}'",
            reply.text
        );
        assert!(
            !reply.text.is_empty(),
            "'{command}' failed without a message"
        );
        reply.text
    }

    /// Sends `quit` and waits for the process to exit.
    pub fn quit(mut self) {
        let reply = self.send("quit");
        assert!(reply.success);
        self.wait_exit(Duration::from_secs(10));
    }

    /// Waits for the process to exit; panics when it does not in time or fails.
    pub fn wait_exit(&mut self, limit: Duration) {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "engine exited with {status}");
                return;
            }
            assert!(start.elapsed() < limit, "the engine did not exit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Closes stdin: the engine sees the end of its input.
    pub fn close_input(&mut self) {
        self.stdin.take();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Line-oriented framing, for protocols whose replies are single lines (NBoard, Piskvork).
impl Engine {
    /// Sends one line without reading anything.
    pub fn send_line(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    /// Reads one output line, without its newline.
    pub fn read_line(&mut self) -> String {
        let mut line = String::new();
        assert!(
            self.stdout.read_line(&mut line).expect("reading a line") > 0,
            "the engine closed its output"
        );
        line.trim_end_matches('\n').to_string()
    }

    /// Reads lines up to and including the first one that `last` accepts.
    pub fn read_until(&mut self, last: impl Fn(&str) -> bool) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.read_line();
            let done = last(&line);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// Reads whatever is left once the engine has closed its output.
    pub fn read_rest(&mut self) -> String {
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut self.stdout, &mut rest).expect("reading the rest");
        rest
    }
}
