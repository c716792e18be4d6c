//! A client connection as the rest of the server sees it, whatever carries it (a TCP socket or
//! a WebSocket): a queue of incoming lines and a queue of outgoing text.
//!
//! The transport's reader task splits the input into lines of at most `max_line` bytes (a longer
//! line arrives cut to `max_line + 1` bytes and marked, so that whoever reads it refuses it
//! whole), paces the client to its rate limits and closes the connection after the idle timeout
//! (no byte either way) or when one line takes longer than that to arrive (slowloris). The writer
//! task writes what is queued, and closes the connection when a write makes no progress for
//! [`WRITE_TIMEOUT`] (a client that does not read). Dropping a [`Connection`] closes it.

use super::limits::{RateLimiter, ServerLimits};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, watch};

/// How long one write may make no progress before the client counts as gone.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(30);

/// How many outgoing messages may wait for a slow client.
pub const OUTGOING_QUEUE: usize = 256;

/// How many incoming lines may wait for the server.
pub const INCOMING_QUEUE: usize = 64;

/// One line from the client, without its newline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The bytes, at most `max_line + 1` of them.
    pub bytes: Vec<u8>,
    /// Whether the line was longer than `max_line` and was cut.
    pub too_long: bool,
}

impl Line {
    /// The line as text, if it is UTF-8 and not too long.
    pub fn text(&self) -> Option<&str> {
        if self.too_long {
            return None;
        }
        std::str::from_utf8(&self.bytes).ok()
    }
}

/// The last time anything went either way, shared by a connection's reader and writer.
#[derive(Clone)]
pub struct Activity {
    start: Instant,
    last: Arc<AtomicU64>,
}

impl Default for Activity {
    fn default() -> Self {
        Activity {
            start: Instant::now(),
            last: Arc::new(AtomicU64::new(0)),
        }
    }
}

impl Activity {
    /// Something went through now.
    pub fn touch(&self) {
        let now = self.start.elapsed().as_millis() as u64;
        self.last.store(now, Ordering::Relaxed);
    }

    /// How long since anything went through.
    pub fn idle_for(&self) -> Duration {
        let last = Duration::from_millis(self.last.load(Ordering::Relaxed));
        self.start.elapsed().saturating_sub(last)
    }
}

/// A client connection: lines in, text out.
pub struct Connection {
    /// A number for logs and bookkeeping.
    pub number: u64,
    /// Who is at the other end.
    pub peer: String,
    /// Lines from the client; `None` once it has gone.
    pub incoming: mpsc::Receiver<Line>,
    /// Text to the client. A send error means it has gone.
    pub outgoing: mpsc::Sender<String>,
    /// Raising this closes the connection at once.
    pub closing: watch::Sender<bool>,
}

impl Connection {
    /// Queues `text` (with a newline added) and waits while the queue is full.
    pub async fn send_line(&self, text: &str) -> bool {
        self.outgoing.send(format!("{text}\n")).await.is_ok()
    }

    /// The next line, or `None` once the client has gone.
    pub async fn next_line(&mut self) -> Option<Line> {
        self.incoming.recv().await
    }

    /// Closes the connection now, dropping whatever is queued.
    pub fn close(&self) {
        let _ = self.closing.send(true);
    }
}

/// The channel ends a transport's tasks work with.
pub struct Ends {
    /// Where the reader puts lines.
    pub incoming: mpsc::Sender<Line>,
    /// Where the writer takes text.
    pub outgoing: mpsc::Receiver<String>,
    /// Raised when the connection is to close.
    pub closing: watch::Receiver<bool>,
    /// Raises `closing` (the writer's way to stop the reader).
    pub close: watch::Sender<bool>,
    /// The idle clock.
    pub activity: Activity,
}

/// A new connection and the ends its transport tasks work with.
pub fn pair(number: u64, peer: String) -> (Connection, Ends) {
    let (incoming_sender, incoming) = mpsc::channel(INCOMING_QUEUE);
    let (outgoing, outgoing_receiver) = mpsc::channel(OUTGOING_QUEUE);
    let (closing, closing_receiver) = watch::channel(false);
    let activity = Activity::default();
    activity.touch();
    (
        Connection {
            number,
            peer,
            incoming,
            outgoing,
            closing: closing.clone(),
        },
        Ends {
            incoming: incoming_sender,
            outgoing: outgoing_receiver,
            closing: closing_receiver,
            close: closing,
            activity,
        },
    )
}

/// Splits incoming bytes into capped lines; keeps its state between calls, so that a read that
/// is given up (on a timeout) loses nothing.
#[derive(Default)]
pub struct LineSplitter {
    buffer: Vec<u8>,
    too_long: bool,
    /// When the line being read started to arrive.
    started: Option<Instant>,
}

impl LineSplitter {
    /// Takes bytes from `data` up to and including a newline; returns how many it used and the
    /// line if one ended. Carriage returns before the newline stay (protocols drop them).
    pub fn feed(&mut self, data: &[u8], max_line: usize) -> (usize, Option<Line>) {
        if data.is_empty() {
            return (0, None);
        }
        if self.started.is_none() {
            self.started = Some(Instant::now());
        }
        let (chunk, ended) = match data.iter().position(|&byte| byte == b'\n') {
            Some(end) => (&data[..end], true),
            None => (data, false),
        };
        let room = (max_line + 1).saturating_sub(self.buffer.len());
        if chunk.len() > room {
            self.too_long = true;
        }
        self.buffer
            .extend_from_slice(&chunk[..chunk.len().min(room)]);
        if self.buffer.len() > max_line {
            self.too_long = true;
        }
        let used = chunk.len() + ended as usize;
        if !ended {
            return (used, None);
        }
        self.started = None;
        let line = Line {
            bytes: std::mem::take(&mut self.buffer),
            too_long: std::mem::take(&mut self.too_long),
        };
        (used, Some(line))
    }

    /// How long the line being read has been arriving, if one is.
    pub fn line_age(&self) -> Option<Duration> {
        self.started.map(|started| started.elapsed())
    }

    /// What is left at the end of input, as a last line (a line cut by the end of input).
    pub fn finish(&mut self) -> Option<Line> {
        self.started = None;
        (!self.buffer.is_empty()).then(|| Line {
            bytes: std::mem::take(&mut self.buffer),
            too_long: std::mem::take(&mut self.too_long),
        })
    }
}

/// Why a reader stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// The client closed or the read failed.
    Closed,
    /// Nothing went either way for the idle timeout, or a line took longer than that.
    Idle,
    /// The server closed the connection.
    Server,
}

/// What a reader does with each line: pace it and queue it. Returns false when the server no
/// longer takes lines.
pub async fn deliver(
    line: Line,
    rate: &mut RateLimiter,
    ends_incoming: &mpsc::Sender<Line>,
    activity: &Activity,
) -> bool {
    activity.touch();
    let wait = rate.line(line.bytes.len() + 1);
    if !wait.is_zero() {
        tokio::time::sleep(wait).await;
    }
    ends_incoming.send(line).await.is_ok()
}

/// How long a reader may still wait before the connection counts as idle, or `None` when it is
/// idle now.
pub fn idle_budget(
    limits: &ServerLimits,
    activity: &Activity,
    line_age: Option<Duration>,
) -> Option<Duration> {
    let idle = limits.idle();
    let since = activity.idle_for();
    if since >= idle || line_age.is_some_and(|age| age >= idle) {
        return None;
    }
    let mut left = idle - since;
    if let Some(age) = line_age {
        left = left.min(idle - age);
    }
    Some(left.max(Duration::from_millis(10)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_split_and_capped() {
        let mut splitter = LineSplitter::default();
        let (used, line) = splitter.feed(b"name\nrest", 8);
        assert_eq!(used, 5);
        assert_eq!(line.unwrap().text(), Some("name"));
        let (used, line) = splitter.feed(b"rest", 8);
        assert_eq!((used, line), (4, None));
        let (_, line) = splitter.feed(b"0123456789abc\n", 8);
        let line = line.unwrap();
        assert!(line.too_long);
        assert_eq!(line.bytes.len(), 9, "cut to one byte over the cap");
        assert_eq!(line.text(), None);
        let (_, line) = splitter.feed(b"ok\n", 8);
        assert_eq!(line.unwrap().text(), Some("ok"));
        splitter.feed(b"tail", 8);
        assert_eq!(splitter.finish().unwrap().bytes, b"tail");
        assert!(splitter.finish().is_none());
    }
}
