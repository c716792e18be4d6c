//! The server's limits, and the per-connection rate limiter.
//!
//! Every number that keeps one client from exhausting the server is here, with its default and
//! its command-line flag: connections, engine sessions, the shared thread budget, the total table
//! memory, the line length, the idle timeout, the rate limits, rooms.

use anyhow::{bail, Result};
use std::time::{Duration, Instant};

/// The server's limits.
#[derive(clap::Args, Clone, Debug, PartialEq, Eq)]
pub struct ServerLimits {
    /// Most connections open at once (TCP and WebSocket together); more are refused at once.
    #[arg(long, default_value_t = 256)]
    pub max_connections: usize,
    /// Most engine sessions at once; a client over the limit gets an error and is closed.
    #[arg(long, default_value_t = 32)]
    pub max_sessions: usize,
    /// Search threads shared by every search (sessions and Tabula seats): a search gets no more
    /// than are left. Default: the machine's cores.
    #[arg(long, default_value_t = default_threads())]
    pub threads: usize,
    /// Transposition-table memory over all sessions and Tabula seats, in MB.
    #[arg(long, default_value_t = 1024)]
    pub table_megabytes: usize,
    /// The table of a new engine session, in MB (a client may ask for more with its protocol,
    /// within the total).
    #[arg(long, default_value_t = 16)]
    pub session_hash: usize,
    /// The longest line (or WebSocket message) a client may send, in bytes.
    #[arg(long, default_value_t = 16 * 1024)]
    pub max_line: usize,
    /// Seconds without a byte either way after which a connection is closed.
    #[arg(long, default_value_t = 300)]
    pub idle_timeout: u64,
    /// Seconds a client has to authenticate (when a token is required).
    #[arg(long, default_value_t = 10)]
    pub auth_timeout: u64,
    /// Lines (or messages) a client may send per second, on average; faster input waits.
    #[arg(long, default_value_t = 200)]
    pub lines_per_second: u32,
    /// Bytes a client may send per second, on average; faster input waits.
    #[arg(long, default_value_t = 256 * 1024)]
    pub bytes_per_second: u32,
    /// Most rooms at once (waiting, playing, or finished but not yet closed).
    #[arg(long, default_value_t = 500)]
    pub max_rooms: usize,
    /// Rooms one connection may create.
    #[arg(long, default_value_t = 8)]
    pub rooms_per_connection: usize,
    /// Seconds a room waits for its players before it is closed.
    #[arg(long, default_value_t = 3600)]
    pub room_wait: u64,
    /// The grace period of a room seat whose client has gone, in seconds, unless the room says.
    #[arg(long, default_value_t = 60)]
    pub grace: u64,
    /// The table of a Tabula seat's search, in MB.
    #[arg(long, default_value_t = 8)]
    pub seat_hash: usize,
}

fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(2, |count| count.get())
}

impl Default for ServerLimits {
    fn default() -> Self {
        ServerLimits {
            max_connections: 256,
            max_sessions: 32,
            threads: default_threads(),
            table_megabytes: 1024,
            session_hash: 16,
            max_line: 16 * 1024,
            idle_timeout: 300,
            auth_timeout: 10,
            lines_per_second: 200,
            bytes_per_second: 256 * 1024,
            max_rooms: 500,
            rooms_per_connection: 8,
            room_wait: 3600,
            grace: 60,
            seat_hash: 8,
        }
    }
}

impl ServerLimits {
    /// Refuses limits that cannot work.
    ///
    /// # Errors
    /// A zero where something is needed, or a session table over the total.
    pub fn check(&self) -> Result<()> {
        for (name, value) in [
            ("max-connections", self.max_connections),
            ("max-sessions", self.max_sessions),
            ("threads", self.threads),
            ("table-megabytes", self.table_megabytes),
            ("session-hash", self.session_hash),
            ("max-line", self.max_line),
            ("lines-per-second", self.lines_per_second as usize),
            ("bytes-per-second", self.bytes_per_second as usize),
            ("seat-hash", self.seat_hash),
        ] {
            if value == 0 {
                bail!("--{name} must be at least 1");
            }
        }
        if self.session_hash > self.table_megabytes || self.seat_hash > self.table_megabytes {
            bail!("--session-hash and --seat-hash must fit in --table-megabytes");
        }
        if self.max_line < 256 {
            bail!("--max-line must be at least 256");
        }
        Ok(())
    }

    /// Worker threads of the network runtime: searches run on their own threads.
    pub fn runtime_threads(&self) -> usize {
        default_threads().clamp(1, 4)
    }

    /// The idle timeout.
    pub fn idle(&self) -> Duration {
        Duration::from_secs(self.idle_timeout.max(1))
    }
}

/// Gives the memory freed by ended sessions back to the system. Searches allocate large
/// buffers on many threads; glibc keeps freed memory in per-thread arenas (and raises its mmap
/// threshold), so without a trim a server's resident memory would stay at its busiest level.
pub fn release_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // Safety: malloc_trim only returns free memory of the allocator's own to the system.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// A token bucket: `rate` units per second on average, in bursts of up to two seconds' worth.
#[derive(Clone, Debug)]
pub struct Bucket {
    rate: f64,
    capacity: f64,
    tokens: f64,
    last: Instant,
}

impl Bucket {
    /// A full bucket of `rate` units per second.
    pub fn new(rate: u32) -> Bucket {
        let rate = f64::from(rate.max(1));
        Bucket {
            rate,
            capacity: rate * 2.0,
            tokens: rate * 2.0,
            last: Instant::now(),
        }
    }

    /// Takes `amount` units and says how long to wait before the next input may be read (zero
    /// while the client stays within its rate).
    pub fn take(&mut self, amount: usize, now: Instant) -> Duration {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.rate).min(self.capacity) - amount as f64;
        if self.tokens >= 0.0 {
            Duration::ZERO
        } else {
            Duration::from_secs_f64(-self.tokens / self.rate)
        }
    }
}

/// The rate limits of one connection: lines and bytes.
#[derive(Clone, Debug)]
pub struct RateLimiter {
    lines: Bucket,
    bytes: Bucket,
}

impl RateLimiter {
    /// The limiter `limits` ask for.
    pub fn new(limits: &ServerLimits) -> RateLimiter {
        RateLimiter {
            lines: Bucket::new(limits.lines_per_second),
            bytes: Bucket::new(limits.bytes_per_second),
        }
    }

    /// Counts one line of `bytes` bytes; returns how long to wait before reading on.
    pub fn line(&mut self, bytes: usize) -> Duration {
        let now = Instant::now();
        self.lines.take(1, now).max(self.bytes.take(bytes, now))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_lets_bursts_through_and_then_paces() {
        let start = Instant::now();
        let mut bucket = Bucket::new(10);
        for _ in 0..20 {
            assert_eq!(bucket.take(1, start), Duration::ZERO);
        }
        let wait = bucket.take(1, start);
        assert!(wait > Duration::from_millis(90) && wait <= Duration::from_millis(100));
        // A second later ten more are allowed, less the one overdrawn.
        let later = start + Duration::from_secs(1);
        for _ in 0..9 {
            assert_eq!(bucket.take(1, later), Duration::ZERO);
        }
        assert!(bucket.take(1, later) > Duration::ZERO);
    }

    #[test]
    fn defaults_pass_their_own_check() {
        ServerLimits::default().check().unwrap();
        let bad = ServerLimits {
            max_line: 10,
            ..ServerLimits::default()
        };
        assert!(bad.check().is_err());
    }
}
