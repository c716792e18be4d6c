//! `tabula serve`: engine sessions and refereed game rooms over TCP, and the web board over HTTP
//! and WebSocket (see `protocol.md`, "The server").
//!
//! One concern per file: [`limits`] (the numbers and the per-connection rate limiter),
//! [`listener`] (accepting TCP connections, lines with limits, idle timeouts), [`connection`]
//! (the line channels every transport is turned into), [`session`] (engine sessions on the
//! ordinary front-ends), [`referee`] and [`rooms`] (game rooms: the true state, seats, relaying),
//! [`clock`] (room clocks), [`database`] (SQLite records), [`http`] (the web board and its
//! WebSockets), [`auth`] (tokens), and [`wire`] (the room messages).

pub mod auth;
pub mod clock;
pub mod connection;
pub mod database;
pub mod http;
pub mod limits;
pub mod listener;
pub mod referee;
pub mod rooms;
pub mod session;
pub mod wire;

use crate::base::budget::SharedLimits;
use anyhow::{bail, Context, Result};
use limits::ServerLimits;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// The command line of `tabula serve`.
#[derive(clap::Args, Clone, Debug)]
pub struct ServeArgs {
    /// Engine sessions and rooms over TCP on this address.
    #[arg(long, default_value = "127.0.0.1:7471")]
    pub listen: SocketAddr,
    /// The web board (HTTP and WebSocket) on this address; `off` for none.
    #[arg(long, default_value = "127.0.0.1:7472", value_parser = parse_optional_address)]
    pub http: HttpAddress,
    /// Allow addresses other than loopback; needs --token-file.
    #[arg(long)]
    pub public: bool,
    /// A file holding the token clients must send first (`auth TOKEN`); made with a fresh random
    /// token when it does not exist. Required with --public; on loopback it turns auth on.
    #[arg(long)]
    pub token_file: Option<PathBuf>,
    /// The SQLite database of rooms, finished games and player records (default: the user's
    /// data directory, e.g. ~/.local/share/tabula/server.db).
    #[arg(long)]
    pub db: Option<PathBuf>,
    /// Print every finished game of the database as JSON Lines (the format `tabula analyze`
    /// reads, see protocol.md) to this file, `-` for stdout, and exit.
    #[arg(long)]
    pub export: Option<PathBuf>,
    #[command(flatten)]
    pub limits: ServerLimits,
}

/// The web board's address, or none (`off`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HttpAddress(pub Option<SocketAddr>);

fn parse_optional_address(text: &str) -> Result<HttpAddress, String> {
    if text.eq_ignore_ascii_case("off") || text.eq_ignore_ascii_case("none") {
        return Ok(HttpAddress(None));
    }
    text.parse()
        .map(|address| HttpAddress(Some(address)))
        .map_err(|error| format!("not an address: {error}"))
}

/// What a running server shares between its connections.
pub struct State {
    /// The limits in force.
    pub limits: ServerLimits,
    /// The search threads and table memory every session and Tabula seat draws from.
    pub shared: SharedLimits,
    /// Engine sessions running now (a permit each).
    pub sessions: Arc<Semaphore>,
    /// Connections open now (a permit each).
    pub connections: Arc<Semaphore>,
    /// The token clients must send first, if any.
    pub token: Option<auth::Token>,
    /// The rooms.
    pub rooms: rooms::Rooms,
    /// The database.
    pub database: Arc<database::Database>,
    next_connection: AtomicU64,
}

impl State {
    /// A fresh number for a connection, for logs and room bookkeeping.
    pub fn connection_number(&self) -> u64 {
        self.next_connection.fetch_add(1, Ordering::Relaxed)
    }

    /// Engine sessions running now.
    pub fn session_count(&self) -> usize {
        self.limits.max_sessions - self.sessions.available_permits()
    }
}

/// A server running in this process, for tests and for embedding.
pub struct Running {
    /// Where engine sessions and rooms listen.
    pub tcp: SocketAddr,
    /// Where the web board listens, if it does.
    pub http: Option<SocketAddr>,
    /// The shared state.
    pub state: Arc<State>,
    runtime: Option<tokio::runtime::Runtime>,
}

impl Running {
    /// Stops the server: every connection is dropped and every session hung up.
    pub fn shutdown(mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_timeout(Duration::from_secs(5));
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_timeout(Duration::from_secs(5));
        }
    }
}

/// What [`start`] needs.
pub struct Config {
    /// The TCP address.
    pub listen: SocketAddr,
    /// The HTTP address.
    pub http: Option<SocketAddr>,
    /// Whether addresses other than loopback are allowed.
    pub public: bool,
    /// The token, if clients must authenticate.
    pub token: Option<auth::Token>,
    /// The database file.
    pub db: PathBuf,
    /// The limits.
    pub limits: ServerLimits,
}

/// Refuses a non-loopback address unless the server is public with a token.
fn check_exposure(address: SocketAddr, public: bool, token: bool) -> Result<()> {
    if address.ip().is_loopback() {
        return Ok(());
    }
    if !public {
        bail!("{address} is not a loopback address: pass --public (and --token-file) to serve beyond this machine");
    }
    if !token {
        bail!("--public needs --token-file: clients must authenticate");
    }
    Ok(())
}

/// Starts a server on its own runtime and returns once it listens.
///
/// # Errors
/// A refused address (see [`ServeArgs::public`]), an address in use, or a database that cannot
/// be opened.
pub fn start(config: Config) -> Result<Running> {
    check_exposure(config.listen, config.public, config.token.is_some())?;
    if let Some(http) = config.http {
        check_exposure(http, config.public, config.token.is_some())?;
    }
    config.limits.check()?;
    let database = Arc::new(database::Database::open(&config.db)?);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(config.limits.runtime_threads())
        .thread_name("server")
        .thread_keep_alive(Duration::from_secs(2))
        .enable_all()
        .build()
        .context("starting the server runtime")?;
    let limits = config.limits.clone();
    let state = Arc::new(State {
        shared: SharedLimits::new(limits.threads, limits.table_megabytes),
        sessions: Arc::new(Semaphore::new(limits.max_sessions)),
        connections: Arc::new(Semaphore::new(limits.max_connections)),
        token: config.token,
        rooms: rooms::Rooms::default(),
        database,
        next_connection: AtomicU64::new(1),
        limits,
    });
    let (tcp, http) = runtime.block_on(async {
        let restored = rooms::restore(&state)?;
        if restored > 0 {
            log::warn!("{restored} rooms in progress restored from the database");
        }
        let tcp_listener = tokio::net::TcpListener::bind(config.listen)
            .await
            .with_context(|| format!("listening on {}", config.listen))?;
        let tcp = tcp_listener.local_addr()?;
        tokio::spawn(listener::accept(tcp_listener, state.clone()));
        let http = match config.http {
            Some(address) => {
                let http_listener = tokio::net::TcpListener::bind(address)
                    .await
                    .with_context(|| format!("listening on {address}"))?;
                let bound = http_listener.local_addr()?;
                tokio::spawn(http::serve(http_listener, state.clone()));
                Some(bound)
            }
            None => None,
        };
        tokio::spawn(rooms::tick(state.clone()));
        anyhow::Ok((tcp, http))
    })?;
    Ok(Running {
        tcp,
        http,
        state,
        runtime: Some(runtime),
    })
}

/// The default database: `tabula/server.db` in the user's data directory.
pub fn default_database() -> Result<PathBuf> {
    let base = dirs::data_dir().context("no data directory for the database: pass --db FILE")?;
    Ok(base.join("tabula").join("server.db"))
}

/// `tabula serve`: runs until killed, or exports the games and exits.
///
/// # Errors
/// As [`start`], or a token file or export file that cannot be read or written.
pub fn run(args: ServeArgs) -> Result<()> {
    let db = match args.db {
        Some(path) => path,
        None => default_database()?,
    };
    if let Some(path) = args.export {
        let database = database::Database::open(&db)?;
        let mut text = String::new();
        database.export(&mut |line| {
            text.push_str(line);
            text.push('\n');
        })?;
        if path.as_os_str() == "-" {
            print!("{text}");
        } else {
            std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
        }
        return Ok(());
    }
    let token = match &args.token_file {
        Some(path) => Some(auth::Token::load_or_create(path)?),
        None => None,
    };
    let running = start(Config {
        listen: args.listen,
        http: args.http.0,
        public: args.public,
        token,
        db: db.clone(),
        limits: args.limits,
    })?;
    println!("engine sessions and rooms on {}", running.tcp);
    if let Some(http) = running.http {
        println!("web board on http://{http}/");
    }
    println!("database {}", db.display());
    use std::io::Write;
    std::io::stdout().flush()?;
    loop {
        std::thread::park();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Command {
        #[command(flatten)]
        serve: ServeArgs,
    }

    #[test]
    fn the_command_line_reads() {
        let defaults = Command::try_parse_from(["serve"]).unwrap().serve;
        assert!(defaults.listen.ip().is_loopback());
        assert!(defaults.http.0.unwrap().ip().is_loopback());
        assert_eq!(defaults.limits, ServerLimits::default());
        let given = Command::try_parse_from([
            "serve",
            "--http",
            "off",
            "--listen",
            "127.0.0.1:0",
            "--max-sessions",
            "4",
            "--grace",
            "5",
        ])
        .unwrap()
        .serve;
        assert_eq!(given.http, HttpAddress(None));
        assert_eq!((given.limits.max_sessions, given.limits.grace), (4, 5));
        assert!(Command::try_parse_from(["serve", "--http", "nowhere"]).is_err());
    }
}
