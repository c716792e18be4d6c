//! The web board over HTTP: the page and its scripts (embedded in the binary), the WebSockets
//! for engine sessions (`/ws/engine`, our protocol as on stdin) and rooms (`/ws/room`, the room
//! messages), and the records (`/api/games.jsonl`, `/api/players`, `/api/status`).
//!
//! Connections share the server's connection limit; headers must arrive within
//! [`HEADER_TIMEOUT`]; a WebSocket is refused unless it comes from the page's own origin (no other
//! site may drive the engine from a visitor's browser); the records need the token when the
//! server has one.

use super::connection::{self, Ends, Line, Stopped, WRITE_TIMEOUT};
use super::limits::RateLimiter;
use super::{listener, rooms, session, State};
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State as Shared};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use futures_util::{SinkExt, StreamExt};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;

/// How long a client has to send its request headers (slowloris).
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

const INDEX: &str = include_str!("../../web/index.html");
const SCRIPT: &str = include_str!("../../web/app.js");
const BOARDS: &str = include_str!("../../web/boards.js");
const STYLE: &str = include_str!("../../web/style.css");
const ICON: &str = include_str!("../../web/icon.svg");

/// Serves HTTP on `listener` until the runtime stops.
pub async fn serve(listener: TcpListener, state: Arc<State>) {
    let router = router(state.clone());
    loop {
        let (stream, _) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(error) => {
                log::warn!("accept: {error}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let Ok(permit) = state.connections.clone().try_acquire_owned() else {
            drop(stream);
            continue;
        };
        let service = TowerToHyperService::new(router.clone());
        tokio::spawn(async move {
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .max_buf_size(64 * 1024);
            let served = builder
                .serve_connection(TokioIo::new(stream), service)
                .with_upgrades()
                .await;
            if let Err(error) = served {
                log::debug!("http: {error}");
            }
            drop(permit);
        });
    }
}

/// The routes.
pub fn router(state: Arc<State>) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { page(INDEX, "text/html; charset=utf-8") }),
        )
        .route(
            "/app.js",
            get(|| async { page(SCRIPT, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/boards.js",
            get(|| async { page(BOARDS, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/style.css",
            get(|| async { page(STYLE, "text/css; charset=utf-8") }),
        )
        .route("/icon.svg", get(|| async { page(ICON, "image/svg+xml") }))
        .route("/ws/engine", get(engine_socket))
        .route("/ws/room", get(room_socket))
        .route("/api/games.jsonl", get(export))
        .route("/api/players", get(players))
        .route("/api/status", get(status))
        .with_state(state)
}

fn page(body: &'static str, kind: &'static str) -> Response {
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'",
        ),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// Whether a WebSocket request comes from a page of this server: its `Origin`, when a browser
/// sends one, names the host it asked for.
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers
        .get(header::ORIGIN)
        .and_then(|value| value.to_str().ok())
    else {
        // Not a browser: programs send no Origin.
        return true;
    };
    let Some(host) = headers
        .get(header::HOST)
        .and_then(|value| value.to_str().ok())
    else {
        return false;
    };
    let origin_host = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
        .unwrap_or("");
    origin_host.eq_ignore_ascii_case(host)
}

/// Which kind of WebSocket.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Engine,
    Room,
}

async fn engine_socket(
    ws: WebSocketUpgrade,
    headers: HeaderMap,
    Shared(state): Shared<Arc<State>>,
) -> Response {
    upgrade(ws, &headers, state, Kind::Engine)
}

async fn room_socket(
    ws: WebSocketUpgrade,
    headers: HeaderMap,
    Shared(state): Shared<Arc<State>>,
) -> Response {
    upgrade(ws, &headers, state, Kind::Room)
}

fn upgrade(ws: WebSocketUpgrade, headers: &HeaderMap, state: Arc<State>, kind: Kind) -> Response {
    if !same_origin(headers) {
        return (StatusCode::FORBIDDEN, "cross-origin WebSocket refused").into_response();
    }
    let Ok(permit) = state.connections.clone().try_acquire_owned() else {
        return (StatusCode::SERVICE_UNAVAILABLE, "too many connections").into_response();
    };
    let largest = state.limits.max_line * 4;
    ws.max_message_size(largest)
        .max_frame_size(largest)
        .on_upgrade(move |socket| run_socket(socket, state, permit, kind))
}

async fn run_socket(
    socket: WebSocket,
    state: Arc<State>,
    permit: tokio::sync::OwnedSemaphorePermit,
    kind: Kind,
) {
    let (sink, stream) = socket.split();
    let (mut connection, ends) = connection::pair(state.connection_number(), "websocket".into());
    let Ends {
        incoming,
        outgoing,
        closing,
        close,
        activity,
    } = ends;
    let reader = tokio::spawn(read_messages(
        stream,
        incoming,
        closing.clone(),
        activity.clone(),
        state.limits.clone(),
    ));
    tokio::spawn(write_messages(
        sink, outgoing, closing, close, activity, permit,
    ));
    let first = listener::authenticate(&mut connection, &state).await;
    if let Some(first) = first {
        match kind {
            Kind::Engine => session::run(connection, Some(first), state).await,
            Kind::Room => rooms::serve_client(connection, Some(first), state).await,
        }
    }
    let _ = reader.await;
}

/// Splits a message into capped lines.
fn lines_of(data: &[u8], max_line: usize) -> Vec<Line> {
    let data = data.strip_suffix(b"\n").unwrap_or(data);
    data.split(|&byte| byte == b'\n')
        .map(|line| Line {
            bytes: line[..line.len().min(max_line + 1)].to_vec(),
            too_long: line.len() > max_line,
        })
        .collect()
}

async fn read_messages(
    mut stream: futures_util::stream::SplitStream<WebSocket>,
    incoming: tokio::sync::mpsc::Sender<Line>,
    mut closing: tokio::sync::watch::Receiver<bool>,
    activity: connection::Activity,
    limits: super::limits::ServerLimits,
) -> Stopped {
    let mut rate = RateLimiter::new(&limits);
    loop {
        let Some(wait) = connection::idle_budget(&limits, &activity, None) else {
            return Stopped::Idle;
        };
        let message = tokio::select! {
            message = tokio::time::timeout(wait, stream.next()) => message,
            _ = closing.changed() => return Stopped::Server,
        };
        let data = match message {
            Err(_) => continue,
            Ok(None) | Ok(Some(Err(_))) | Ok(Some(Ok(Message::Close(_)))) => {
                return Stopped::Closed
            }
            Ok(Some(Ok(Message::Text(text)))) => text.as_str().as_bytes().to_vec(),
            Ok(Some(Ok(Message::Binary(bytes)))) => bytes.to_vec(),
            Ok(Some(Ok(_))) => {
                activity.touch();
                continue;
            }
        };
        activity.touch();
        for line in lines_of(&data, limits.max_line) {
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

async fn write_messages(
    mut sink: futures_util::stream::SplitSink<WebSocket, Message>,
    mut outgoing: tokio::sync::mpsc::Receiver<String>,
    mut closing: tokio::sync::watch::Receiver<bool>,
    close: tokio::sync::watch::Sender<bool>,
    activity: connection::Activity,
    permit: tokio::sync::OwnedSemaphorePermit,
) {
    loop {
        let text = tokio::select! {
            text = outgoing.recv() => text,
            _ = closing.changed() => None,
        };
        let Some(text) = text else {
            break;
        };
        match tokio::time::timeout(WRITE_TIMEOUT, sink.send(Message::Text(text.into()))).await {
            Ok(Ok(())) => activity.touch(),
            _ => break,
        }
    }
    let _ = close.send(true);
    let _ = tokio::time::timeout(Duration::from_secs(1), sink.close()).await;
    drop(permit);
}

/// Whether a records request carries the token, when the server has one (`Authorization:
/// Bearer TOKEN`, or `?token=TOKEN`).
fn authorized(state: &State, headers: &HeaderMap, query: &HashMap<String, String>) -> bool {
    let Some(token) = &state.token else {
        return true;
    };
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "));
    bearer
        .or(query.get("token").map(String::as_str))
        .is_some_and(|given| token.accepts(given))
}

fn unauthorized() -> Response {
    (StatusCode::UNAUTHORIZED, "the token is required\n").into_response()
}

fn database_unreadable() -> Response {
    (
        StatusCode::INTERNAL_SERVER_ERROR,
        "cannot read the database\n",
    )
        .into_response()
}

async fn export(
    Shared(state): Shared<Arc<State>>,
    headers: HeaderMap,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    if !authorized(&state, &headers, &query) {
        return unauthorized();
    }
    let database = state.database.clone();
    let text = tokio::task::spawn_blocking(move || {
        let mut text = String::new();
        database
            .export(&mut |line| {
                text.push_str(line);
                text.push('\n');
            })
            .map(|()| text)
    })
    .await;
    match text {
        Ok(Ok(text)) => (
            [(header::CONTENT_TYPE, "application/jsonl; charset=utf-8")],
            text,
        )
            .into_response(),
        _ => database_unreadable(),
    }
}

async fn players(
    Shared(state): Shared<Arc<State>>,
    headers: HeaderMap,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    if !authorized(&state, &headers, &query) {
        return unauthorized();
    }
    let database = state.database.clone();
    match tokio::task::spawn_blocking(move || database.standings()).await {
        Ok(Ok(standings)) => json_response(&serde_json::to_value(standings).unwrap_or_default()),
        _ => database_unreadable(),
    }
}

async fn status(
    Shared(state): Shared<Arc<State>>,
    headers: HeaderMap,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    if !authorized(&state, &headers, &query) {
        return unauthorized();
    }
    json_response(&serde_json::json!({
        "sessions": state.session_count(),
        "max_sessions": state.limits.max_sessions,
        "rooms": state.rooms.count(),
        "threads_used": state.shared.threads.used(),
        "threads": state.shared.threads.total(),
        "table_megabytes_used": state.shared.table_megabytes.used(),
        "table_megabytes": state.shared.table_megabytes.total(),
        "connections": state.limits.max_connections - state.connections.available_permits(),
    }))
}

fn json_response(value: &serde_json::Value) -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        value.to_string(),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn websockets_from_other_sites_are_refused() {
        let mut headers = HeaderMap::new();
        assert!(same_origin(&headers), "programs send no origin");
        headers.insert(header::HOST, HeaderValue::from_static("127.0.0.1:7472"));
        headers.insert(
            header::ORIGIN,
            HeaderValue::from_static("http://127.0.0.1:7472"),
        );
        assert!(same_origin(&headers));
        headers.insert(
            header::ORIGIN,
            HeaderValue::from_static("https://evil.example"),
        );
        assert!(!same_origin(&headers));
    }

    #[test]
    fn messages_split_into_capped_lines() {
        let lines = lines_of(b"name\nversion\n", 8);
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[1].text(), Some("version"));
        let long = lines_of(&[b'x'; 20], 8);
        assert!(long[0].too_long && long[0].bytes.len() == 9);
    }
}
