//! The server's records in SQLite: rooms in progress, finished games and players' totals.
//!
//! The database runs in write-ahead-log mode; every change is one transaction, committed before
//! the server goes on, so a killed server (SIGKILL) loses nothing it had acknowledged. A finished
//! game is stored, its players' totals updated and its room row deleted in one transaction: the
//! game is either finished and counted, or still in progress, never half of each. An open room is
//! written after every change (a move, a seat taken), so games in progress resume after a restart.

use super::wire::{GameRecord, RoomRecord, Standing};
use anyhow::{Context, Result};
use rusqlite::{params, Connection, OptionalExtension};
use std::path::Path;
use std::sync::{Mutex, MutexGuard};

/// The server's database.
pub struct Database {
    connection: Mutex<Connection>,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS rooms (
    room TEXT PRIMARY KEY,
    record TEXT NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    room TEXT NOT NULL UNIQUE,
    game TEXT NOT NULL,
    result TEXT NOT NULL,
    finished_at INTEGER NOT NULL,
    record TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS players (
    name TEXT PRIMARY KEY,
    games INTEGER NOT NULL DEFAULT 0,
    wins INTEGER NOT NULL DEFAULT 0,
    losses INTEGER NOT NULL DEFAULT 0,
    draws INTEGER NOT NULL DEFAULT 0,
    thinking_ms INTEGER NOT NULL DEFAULT 0,
    moves INTEGER NOT NULL DEFAULT 0
);
";

impl Database {
    /// Opens (or creates) the database at `path`, and its folder.
    ///
    /// # Errors
    /// The file cannot be opened or is not a database of this server.
    pub fn open(path: &Path) -> Result<Database> {
        if let Some(parent) = path
            .parent()
            .filter(|parent| !parent.as_os_str().is_empty())
        {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating {}", parent.display()))?;
        }
        let connection = Connection::open(path)
            .with_context(|| format!("opening the database {}", path.display()))?;
        connection.busy_timeout(std::time::Duration::from_secs(5))?;
        // WAL with NORMAL sync: a commit survives the process being killed (only a power cut
        // could take back the last commits).
        connection.pragma_update(None, "journal_mode", "WAL")?;
        connection.pragma_update(None, "synchronous", "NORMAL")?;
        connection
            .execute_batch(SCHEMA)
            .with_context(|| format!("setting up {}", path.display()))?;
        Ok(Database {
            connection: Mutex::new(connection),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Connection> {
        match self.connection.lock() {
            Ok(connection) => connection,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// Writes an open room.
    ///
    /// # Errors
    /// The write failed.
    pub fn save_room(&self, record: &RoomRecord) -> Result<()> {
        let text = serde_json::to_string(record)?;
        self.lock().execute(
            "INSERT INTO rooms (room, record, updated_at) VALUES (?1, ?2, ?3)
             ON CONFLICT(room) DO UPDATE SET record = excluded.record, updated_at = excluded.updated_at",
            params![record.room, text, super::referee::now_ms() as i64],
        )?;
        Ok(())
    }

    /// Forgets an open room (closed before its game started).
    ///
    /// # Errors
    /// The write failed.
    pub fn delete_room(&self, room: &str) -> Result<()> {
        self.lock()
            .execute("DELETE FROM rooms WHERE room = ?1", params![room])?;
        Ok(())
    }

    /// Every open room.
    ///
    /// # Errors
    /// The read failed. A row that does not parse is skipped with a warning.
    pub fn load_rooms(&self) -> Result<Vec<RoomRecord>> {
        let connection = self.lock();
        let mut statement = connection.prepare("SELECT room, record FROM rooms ORDER BY rowid")?;
        let rows = statement.query_map([], |row| {
            Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?))
        })?;
        let mut rooms = Vec::new();
        for row in rows {
            let (room, text) = row?;
            match serde_json::from_str(&text) {
                Ok(record) => rooms.push(record),
                Err(error) => log::warn!("room {room} in the database does not read: {error}"),
            }
        }
        Ok(rooms)
    }

    /// Stores a finished game and its players' totals and closes its room, in one transaction.
    /// A game already stored (the same room) is not stored twice. Returns the game's number.
    ///
    /// # Errors
    /// The write failed; nothing is changed then.
    pub fn finish_game(&self, record: &GameRecord) -> Result<i64> {
        let mut connection = self.lock();
        let transaction = connection.transaction()?;
        let existing: Option<i64> = transaction
            .query_row(
                "SELECT id FROM games WHERE room = ?1",
                params![record.room],
                |row| row.get(0),
            )
            .optional()?;
        if let Some(id) = existing {
            transaction.execute("DELETE FROM rooms WHERE room = ?1", params![record.room])?;
            transaction.commit()?;
            return Ok(id);
        }
        transaction.execute(
            "INSERT INTO games (room, game, result, finished_at, record) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![
                record.room,
                record.game,
                record.result.text,
                record.finished_at as i64,
                serde_json::to_string(record)?
            ],
        )?;
        let id = transaction.last_insert_rowid();
        let places = &record.result.places;
        for (seat, player) in record.players.iter().enumerate() {
            let place = places.get(seat).copied().unwrap_or(0);
            let shared_first = places.iter().filter(|&&other| other == 1).count() > 1;
            let (win, draw, loss) = match (place, shared_first) {
                (1, false) => (1, 0, 0),
                (1, true) => (0, 1, 0),
                _ => (0, 0, 1),
            };
            let (thinking, moves) = record
                .seats
                .iter()
                .zip(&record.times_ms)
                .filter(|(&mover, _)| mover == seat)
                .fold((0u64, 0u64), |(time, count), (_, &ms)| {
                    (time + ms, count + 1)
                });
            transaction.execute(
                "INSERT INTO players (name, games, wins, losses, draws, thinking_ms, moves)
                 VALUES (?1, 1, ?2, ?3, ?4, ?5, ?6)
                 ON CONFLICT(name) DO UPDATE SET games = games + 1, wins = wins + ?2,
                     losses = losses + ?3, draws = draws + ?4, thinking_ms = thinking_ms + ?5,
                     moves = moves + ?6",
                params![player.name, win, loss, draw, thinking as i64, moves as i64],
            )?;
        }
        transaction.execute("DELETE FROM rooms WHERE room = ?1", params![record.room])?;
        transaction.commit()?;
        Ok(id)
    }

    /// Hands every finished game, oldest first, to `line` as one line of JSON.
    ///
    /// # Errors
    /// The read failed.
    pub fn export(&self, line: &mut dyn FnMut(&str)) -> Result<()> {
        let connection = self.lock();
        let mut statement = connection.prepare("SELECT id, record FROM games ORDER BY id")?;
        let rows = statement.query_map([], |row| {
            Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?))
        })?;
        for row in rows {
            let (id, text) = row?;
            let mut record: GameRecord = serde_json::from_str(&text)
                .with_context(|| format!("game {id} in the database"))?;
            record.id = id;
            line(&serde_json::to_string(&record)?);
        }
        Ok(())
    }

    /// Every finished game.
    ///
    /// # Errors
    /// The read failed.
    pub fn games(&self) -> Result<Vec<GameRecord>> {
        let mut games = Vec::new();
        let mut failure = None;
        self.export(&mut |line| match serde_json::from_str(line) {
            Ok(record) => games.push(record),
            Err(error) => failure = Some(error),
        })?;
        if let Some(error) = failure {
            return Err(error.into());
        }
        Ok(games)
    }

    /// Every named player's totals, by name.
    ///
    /// # Errors
    /// The read failed.
    pub fn standings(&self) -> Result<Vec<Standing>> {
        let connection = self.lock();
        let mut statement = connection.prepare(
            "SELECT name, games, wins, losses, draws, thinking_ms, moves FROM players ORDER BY name",
        )?;
        let rows = statement.query_map([], |row| {
            Ok(Standing {
                name: row.get(0)?,
                games: row.get::<_, i64>(1)? as u64,
                wins: row.get::<_, i64>(2)? as u64,
                losses: row.get::<_, i64>(3)? as u64,
                draws: row.get::<_, i64>(4)? as u64,
                thinking_ms: row.get::<_, i64>(5)? as u64,
                moves: row.get::<_, i64>(6)? as u64,
            })
        })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }
}

#[cfg(test)]
mod tests {
    use super::super::wire::{PlayerRecord, ResultView};
    use super::*;

    fn game(room: &str, places: Vec<u8>) -> GameRecord {
        GameRecord {
            id: 0,
            room: room.into(),
            game: "reversi".into(),
            options: [("size".to_string(), "8".to_string())].into(),
            start: "start".into(),
            moves: vec!["f5".into(), "d6".into(), "c3".into()],
            seats: vec![0, 1, 0],
            times_ms: vec![100, 200, 300],
            players: vec![
                PlayerRecord {
                    player: "black".into(),
                    name: "alice".into(),
                    kind: "remote".into(),
                },
                PlayerRecord {
                    player: "white".into(),
                    name: "bob".into(),
                    kind: "remote".into(),
                },
            ],
            result: ResultView {
                text: "B+F".into(),
                places,
                reason: "forfeit".into(),
            },
            started_at: 1,
            finished_at: 2,
        }
    }

    #[test]
    fn finished_games_count_once_and_export_in_order() {
        let path = std::env::temp_dir().join(format!(
            "tabula-db-{}.db",
            super::super::auth::random_token()
        ));
        let database = Database::open(&path).unwrap();
        assert_eq!(database.finish_game(&game("a", vec![1, 2])).unwrap(), 1);
        assert_eq!(
            database.finish_game(&game("a", vec![1, 2])).unwrap(),
            1,
            "stored once"
        );
        database.finish_game(&game("b", vec![1, 1])).unwrap();
        let standings = database.standings().unwrap();
        let alice = &standings[0];
        assert_eq!(
            (alice.games, alice.wins, alice.draws, alice.losses),
            (2, 1, 1, 0)
        );
        assert_eq!((alice.thinking_ms, alice.moves), (800, 4));
        let bob = &standings[1];
        assert_eq!((bob.games, bob.wins, bob.draws, bob.losses), (2, 0, 1, 1));
        let games = database.games().unwrap();
        assert_eq!(
            games.iter().map(|game| game.id).collect::<Vec<_>>(),
            vec![1, 2]
        );
        assert_eq!(games[0].moves, vec!["f5", "d6", "c3"]);
        drop(database);
        let reopened = Database::open(&path).unwrap();
        assert_eq!(reopened.games().unwrap().len(), 2);
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
    }
}
