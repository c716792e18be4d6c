//! Accepting TCP clients: the connection limit, the socket's reader and writer tasks, the token
//! check, and the choice between an engine session and a room client.
//!
//! After the token (when one is required), the first line chooses: a line that starts with `{`
//! opens a room client (JSON Lines, see `protocol.md`); anything else starts an engine session
//! whose protocol that line chooses, as on stdin.

use super::connection::{self, Connection, Ends, LineSplitter, Stopped, WRITE_TIMEOUT};
use super::limits::RateLimiter;
use super::{auth, rooms, session, State};
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::OwnedSemaphorePermit;

/// Accepts clients until the runtime stops.
pub async fn accept(listener: TcpListener, state: Arc<State>) {
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(error) => {
                // Out of file descriptors, say: wait a little rather than spin.
                log::warn!("accept: {error}");
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        match state.connections.clone().try_acquire_owned() {
            Ok(permit) => {
                tokio::spawn(handle(stream, peer, permit, state.clone()));
            }
            Err(_) => {
                tokio::spawn(refuse(stream, "error server full: too many connections"));
            }
        }
    }
}

async fn refuse(mut stream: TcpStream, message: &'static str) {
    let line = format!("{message}\n");
    let write = stream.write_all(line.as_bytes());
    let _ = tokio::time::timeout(std::time::Duration::from_secs(2), write).await;
    let _ = stream.shutdown().await;
}

async fn handle(
    stream: TcpStream,
    peer: SocketAddr,
    permit: OwnedSemaphorePermit,
    state: Arc<State>,
) {
    let (read, write) = stream.into_split();
    let (connection, ends) = connection::pair(state.connection_number(), peer.to_string());
    let Ends {
        incoming,
        outgoing,
        closing,
        close,
        activity,
    } = ends;
    let limits = state.limits.clone();
    let reader = tokio::spawn(read_lines(
        read,
        incoming,
        closing.clone(),
        activity.clone(),
        limits,
    ));
    tokio::spawn(write_text(
        write, outgoing, closing, close, activity, permit,
    ));
    log::debug!("connection {} from {peer}", connection.number);
    dispatch(connection, state).await;
    let _ = reader.await;
}

/// Authenticates the client if the server requires it, then starts what its first line asks for.
pub async fn dispatch(mut connection: Connection, state: Arc<State>) {
    let Some(first) = authenticate(&mut connection, &state).await else {
        return;
    };
    let opens_room = first
        .text()
        .is_some_and(|text| text.trim_start().starts_with('{'));
    if opens_room {
        rooms::serve_client(connection, Some(first), state).await;
    } else {
        session::run(connection, Some(first), state).await;
    }
}

/// Checks the token (when the server has one) and returns the first line after it; `None` when
/// the client has gone or failed.
pub async fn authenticate(connection: &mut Connection, state: &State) -> Option<connection::Line> {
    let Some(token) = &state.token else {
        // No token: an `auth` line is answered and skipped; any other line is the first.
        let line = connection.next_line().await?;
        if line.text().is_some_and(is_auth_line) {
            connection.send_line("ok").await;
            return connection.next_line().await;
        }
        return Some(line);
    };
    let wait = std::time::Duration::from_secs(state.limits.auth_timeout.max(1));
    let line = match tokio::time::timeout(wait, connection.next_line()).await {
        Ok(Some(line)) => line,
        Ok(None) => return None,
        Err(_) => {
            connection
                .send_line("error authenticate first: auth TOKEN")
                .await;
            return None;
        }
    };
    match auth::check_line(token, line.text().unwrap_or("")) {
        Ok(()) => {
            connection.send_line("ok").await;
            connection.next_line().await
        }
        Err(message) => {
            log::warn!("connection {}: authentication failed", connection.number);
            connection.send_line(message).await;
            None
        }
    }
}

fn is_auth_line(text: &str) -> bool {
    text.split_whitespace()
        .next()
        .is_some_and(|word| word.eq_ignore_ascii_case("auth"))
}

/// Reads capped lines from the socket, paced by the rate limits, until the client goes, the
/// connection idles or the server closes it.
async fn read_lines(
    read: OwnedReadHalf,
    incoming: tokio::sync::mpsc::Sender<connection::Line>,
    mut closing: tokio::sync::watch::Receiver<bool>,
    activity: connection::Activity,
    limits: super::limits::ServerLimits,
) -> Stopped {
    let mut reader = BufReader::with_capacity(8 * 1024, read);
    let mut splitter = LineSplitter::default();
    let mut rate = RateLimiter::new(&limits);
    loop {
        let Some(wait) = connection::idle_budget(&limits, &activity, splitter.line_age()) else {
            log::debug!("closing an idle connection");
            return Stopped::Idle;
        };
        let read = tokio::select! {
            read = tokio::time::timeout(wait, reader.fill_buf()) => read,
            _ = closing.changed() => return Stopped::Server,
        };
        let data = match read {
            Err(_) => continue,
            Ok(Err(_)) => return Stopped::Closed,
            Ok(Ok(data)) => data,
        };
        if data.is_empty() {
            if let Some(line) = splitter.finish() {
                let _ = connection::deliver(line, &mut rate, &incoming, &activity).await;
            }
            return Stopped::Closed;
        }
        activity.touch();
        let (used, line) = splitter.feed(data, limits.max_line);
        reader.consume(used);
        if let Some(line) = line {
            let delivered = tokio::select! {
                delivered = connection::deliver(line, &mut rate, &incoming, &activity) => delivered,
                _ = closing.changed() => return Stopped::Server,
            };
            if !delivered {
                return Stopped::Server;
            }
        }
    }
}

/// Writes queued text until every sender is gone or the connection closes; a write that makes no
/// progress for [`WRITE_TIMEOUT`] closes it. Holds the connection's permit until then.
async fn write_text(
    mut write: OwnedWriteHalf,
    mut outgoing: tokio::sync::mpsc::Receiver<String>,
    mut closing: tokio::sync::watch::Receiver<bool>,
    close: tokio::sync::watch::Sender<bool>,
    activity: connection::Activity,
    permit: OwnedSemaphorePermit,
) {
    loop {
        let text = tokio::select! {
            text = outgoing.recv() => text,
            _ = closing.changed() => None,
        };
        let Some(text) = text else {
            break;
        };
        match tokio::time::timeout(WRITE_TIMEOUT, write.write_all(text.as_bytes())).await {
            Ok(Ok(())) => activity.touch(),
            _ => break,
        }
    }
    let _ = close.send(true);
    let _ = tokio::time::timeout(std::time::Duration::from_secs(1), write.shutdown()).await;
    drop(permit);
}
