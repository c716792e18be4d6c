//! Engine sessions over the network: each connection runs the ordinary front-ends
//! ([`crate::protocol::serve_with`], the protocol chosen by the first line as on stdin) on a thread
//! of its own, fed by the connection's lines and writing into its outgoing queue.
//!
//! The session's settings carry the server's shared budgets, so its searches take their threads
//! from the shared thread budget and its table from the total table memory. When the client goes,
//! the session is hung up ([`crate::engine::StopSignal::hang_up`]): the running search stops at
//! once, queued lines are dropped, the session thread ends and gives its threads, its table and
//! its session slot back.

use super::connection::{Connection, Line};
use super::State;
use crate::engine::{InfoMode, Settings, StopSignal};
use crate::protocol::input::ReaderLimits;
use crate::protocol::output::Output;
use std::io::{BufRead, Read, Write};
use std::sync::Arc;
use tokio::sync::mpsc;

/// How many lines the session thread's reader may hold.
const SESSION_QUEUE: usize = 256;

/// The settings of a new network session.
pub fn settings(state: &State) -> Settings {
    Settings {
        threads: 1,
        hash_megabytes: state.limits.session_hash,
        info: InfoMode::Off,
        shared: Some(state.shared.clone()),
        // A client may not have the server read its files.
        local_files: false,
        ..Settings::default()
    }
}

/// Runs an engine session on `connection` until either side ends it. `first` is a line already
/// read (it chooses the protocol).
pub async fn run(connection: Connection, first: Option<Line>, state: Arc<State>) {
    let Ok(permit) = state.sessions.clone().try_acquire_owned() else {
        connection
            .send_line(&format!(
                "? server busy: {} engine sessions are running, the most it allows\n",
                state.limits.max_sessions
            ))
            .await;
        return;
    };
    if state.shared.table_megabytes.available() < state.limits.session_hash {
        connection
            .send_line("? server busy: the table memory is used up\n")
            .await;
        return;
    }
    let Connection {
        number,
        mut incoming,
        outgoing,
        closing,
        ..
    } = connection;
    let stop = Arc::new(StopSignal::default());
    let (lines, receiver) = mpsc::channel::<Vec<u8>>(SESSION_QUEUE);
    let (finished, mut done) = tokio::sync::oneshot::channel::<()>();
    let output = Output::new(QueueWriter {
        outgoing: outgoing.clone(),
    });
    let settings = settings(&state);
    let limits = ReaderLimits {
        max_line: state.limits.max_line,
        queue: SESSION_QUEUE,
    };
    let thread_stop = stop.clone();
    let spawned = std::thread::Builder::new()
        .name(format!("session-{number}"))
        .spawn(move || {
            let reader = QueueReader {
                receiver,
                current: Vec::new(),
                position: 0,
            };
            crate::protocol::serve_with(reader, output, settings, None, thread_stop, limits);
            let _ = finished.send(());
        });
    if let Err(error) = spawned {
        log::warn!("cannot start a session thread: {error}");
        let _ = outgoing
            .send("? server busy: no thread for a session\n\n".into())
            .await;
        return;
    }
    drop(outgoing);
    log::debug!("session {number} started");
    if let Some(line) = first {
        let _ = lines.send(with_newline(line)).await;
    }
    let mut ended = false;
    while !ended {
        tokio::select! {
            line = incoming.recv() => match line {
                Some(line) => {
                    tokio::select! {
                        sent = lines.send(with_newline(line)) => ended = sent.is_err(),
                        _ = &mut done => return finish(number, permit, closing),
                    }
                }
                // The client has gone: stop everything now.
                None => ended = true,
            },
            _ = &mut done => return finish(number, permit, closing),
        }
    }
    stop.hang_up();
    drop(lines);
    drop(incoming);
    let _ = done.await;
    finish(number, permit, closing);
}

/// After the session thread has ended: the writer sends what is queued and closes, the slot goes
/// back, and the memory the session's allocations left behind goes back to the system.
fn finish(
    number: u64,
    permit: tokio::sync::OwnedSemaphorePermit,
    closing: tokio::sync::watch::Sender<bool>,
) {
    drop(closing);
    drop(permit);
    super::limits::release_memory();
    log::debug!("session {number} ended");
}

fn with_newline(line: Line) -> Vec<u8> {
    let mut bytes = line.bytes;
    bytes.push(b'\n');
    bytes
}

/// The session thread's input: lines from the connection, in order; the end of input once the
/// connection's side is dropped.
struct QueueReader {
    receiver: mpsc::Receiver<Vec<u8>>,
    current: Vec<u8>,
    position: usize,
}

impl Read for QueueReader {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        let available = self.fill_buf()?;
        let count = available.len().min(buffer.len());
        buffer[..count].copy_from_slice(&available[..count]);
        self.consume(count);
        Ok(count)
    }
}

impl BufRead for QueueReader {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        while self.position >= self.current.len() {
            match self.receiver.blocking_recv() {
                Some(bytes) => {
                    self.current = bytes;
                    self.position = 0;
                }
                None => return Ok(&[]),
            }
        }
        Ok(&self.current[self.position..])
    }

    fn consume(&mut self, amount: usize) {
        self.position = (self.position + amount).min(self.current.len());
    }
}

/// The session's output: each write is queued for the connection's writer, waiting while the
/// queue is full; an error once the connection has gone.
struct QueueWriter {
    outgoing: mpsc::Sender<String>,
}

impl Write for QueueWriter {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        let text = String::from_utf8_lossy(data).into_owned();
        self.outgoing
            .blocking_send(text)
            .map_err(|_| std::io::Error::from(std::io::ErrorKind::BrokenPipe))?;
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
