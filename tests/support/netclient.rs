//! Clients of `tabula serve` for the server tests: an engine session over TCP (our protocol) and
//! a room client (JSON Lines), both blocking, with time limits on every read.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// How long a test waits for any one answer.
pub const ANSWER: Duration = Duration::from_secs(60);

/// One reply of our protocol.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    pub success: bool,
    pub text: String,
}

/// An engine session over TCP.
pub struct EngineClient {
    pub stream: TcpStream,
    reader: BufReader<TcpStream>,
    /// `info` lines seen since the last reply.
    pub info: Vec<String>,
}

impl EngineClient {
    pub fn connect(address: SocketAddr) -> EngineClient {
        let stream = TcpStream::connect(address).expect("the server accepts");
        stream.set_read_timeout(Some(ANSWER)).unwrap();
        stream.set_nodelay(true).unwrap();
        let reader = BufReader::new(stream.try_clone().unwrap());
        EngineClient {
            stream,
            reader,
            info: Vec::new(),
        }
    }

    pub fn send(&mut self, line: &str) {
        self.stream
            .write_all(format!("{line}\n").as_bytes())
            .unwrap();
    }

    pub fn try_send(&mut self, bytes: &[u8]) -> bool {
        self.stream.write_all(bytes).is_ok()
    }

    /// Reads one line (without its newline); `None` at the end.
    pub fn line(&mut self) -> Option<String> {
        let mut line = String::new();
        match self.reader.read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(line.trim_end_matches(['\n', '\r']).to_string()),
        }
    }

    /// Reads one reply (skipping `info` lines, which it keeps).
    pub fn reply(&mut self) -> Option<Reply> {
        let first = loop {
            let line = self.line()?;
            if line.starts_with("info ") {
                self.info.push(line);
                continue;
            }
            if !line.is_empty() {
                break line;
            }
        };
        let success = first.starts_with('=');
        let mut text = first[1..]
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .trim()
            .to_string();
        loop {
            let line = self.line()?;
            if line.is_empty() {
                break;
            }
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(&line);
        }
        Some(Reply { success, text })
    }

    /// Sends a command and reads its reply.
    pub fn ask(&mut self, line: &str) -> Reply {
        self.send(line);
        self.reply()
            .unwrap_or_else(|| panic!("no reply to '{line}'"))
    }

    /// Sends a command that must succeed and returns its text.
    pub fn must(&mut self, line: &str) -> String {
        let reply = self.ask(line);
        assert!(reply.success, "'{line}' failed: {}", reply.text);
        reply.text
    }
}

/// A room client.
pub struct RoomClient {
    pub stream: TcpStream,
    reader: BufReader<TcpStream>,
    /// Messages read but not yet taken.
    pub seen: Vec<Value>,
}

impl RoomClient {
    pub fn connect(address: SocketAddr) -> RoomClient {
        let stream = TcpStream::connect(address).expect("the server accepts");
        stream.set_read_timeout(Some(ANSWER)).unwrap();
        stream.set_nodelay(true).unwrap();
        let reader = BufReader::new(stream.try_clone().unwrap());
        RoomClient {
            stream,
            reader,
            seen: Vec::new(),
        }
    }

    pub fn send(&mut self, message: &Value) {
        self.stream
            .write_all(format!("{message}\n").as_bytes())
            .unwrap();
    }

    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.stream.write_all(bytes).unwrap();
    }

    /// The next message, or `None` when the connection ends.
    pub fn next(&mut self) -> Option<Value> {
        if !self.seen.is_empty() {
            return Some(self.seen.remove(0));
        }
        self.read_message()
    }

    /// The next message from the connection itself (blank lines and `ok` skipped), or `None`
    /// when it ends.
    fn read_message(&mut self) -> Option<Value> {
        loop {
            let mut line = String::new();
            match self.reader.read_line(&mut line) {
                Ok(0) | Err(_) => return None,
                Ok(_) => {}
            }
            let line = line.trim();
            if line.is_empty() || line == "ok" {
                continue;
            }
            return Some(
                serde_json::from_str(line).unwrap_or_else(|error| panic!("'{line}': {error}")),
            );
        }
    }

    /// Reads until a message of `kind` (keeping the others for later), within [`ANSWER`].
    pub fn expect(&mut self, kind: &str) -> Value {
        let deadline = Instant::now() + ANSWER;
        let mut skipped = Vec::new();
        if let Some(index) = self.seen.iter().position(|message| message["type"] == kind) {
            return self.seen.remove(index);
        }
        loop {
            assert!(Instant::now() < deadline, "no '{kind}' message");
            let Some(message) = self.read_message() else {
                panic!("the connection ended before a '{kind}' message; skipped {skipped:?}")
            };
            if message["type"] == kind {
                self.seen.extend(skipped);
                return message;
            }
            skipped.push(message);
        }
    }

    /// Sends `message` and returns the reply of `kind`, panicking on an error message.
    pub fn request(&mut self, message: Value, kind: &str) -> Value {
        self.send(&message);
        let reply = self.expect_either(kind, "error");
        assert_eq!(reply["type"], kind, "{message} was answered {reply}");
        reply
    }

    /// Reads until a message of either kind.
    pub fn expect_either(&mut self, first: &str, second: &str) -> Value {
        let deadline = Instant::now() + ANSWER;
        loop {
            assert!(
                Instant::now() < deadline,
                "neither '{first}' nor '{second}'"
            );
            let message = if let Some(index) = self
                .seen
                .iter()
                .position(|message| message["type"] == first || message["type"] == second)
            {
                self.seen.remove(index)
            } else {
                let message = self.read_message().expect("the connection ended");
                if message["type"] != first && message["type"] != second {
                    self.seen.push(message);
                    continue;
                }
                message
            };
            return message;
        }
    }

    pub fn create(&mut self, game: &str, options: Value, seats: Value) -> String {
        let reply = self.request(
            json!({"type": "create", "game": game, "options": options, "seats": seats}),
            "created",
        );
        reply["room"].as_str().unwrap().to_string()
    }
}

/// Waits until `condition` holds, up to `limit`.
pub fn wait_until(limit: Duration, mut condition: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        if condition() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    condition()
}

/// Reads whatever comes until the peer closes or `limit` passes; true when it closed.
pub fn closes_within(stream: &mut TcpStream, limit: Duration) -> bool {
    stream
        .set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    let deadline = Instant::now() + limit;
    let mut buffer = [0u8; 4096];
    while Instant::now() < deadline {
        match stream.read(&mut buffer) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(error)
                if matches!(
                    error.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(_) => return true,
        }
    }
    false
}
