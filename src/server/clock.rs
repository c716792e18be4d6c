//! Room clocks: the server times every seat with the engine's neutral [`Clock`] (main time, an
//! increment, byo-yomi periods) and knows when the seat to move runs out of time.

use crate::engine::clock::{Clock, TimeControl, TimeLeft};
use crate::game::Player;
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

/// A room's time control as clients write it, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeSpec {
    /// Main time per seat.
    #[serde(default)]
    pub main_ms: u64,
    /// Added after each move made in main time.
    #[serde(default)]
    pub increment_ms: u64,
    /// Byo-yomi: once main time is out, `period_moves` moves in each `period_ms`.
    #[serde(default)]
    pub period_ms: u64,
    /// Moves per byo-yomi period (0: none).
    #[serde(default)]
    pub period_moves: u32,
}

/// The longest time a room may give, a week, so that sums cannot overflow.
const LONGEST_MS: u64 = 7 * 24 * 3600 * 1000;

impl TimeSpec {
    /// Checks the numbers.
    ///
    /// # Errors
    /// A message for the client.
    pub fn check(&self) -> Result<(), String> {
        if [self.main_ms, self.increment_ms, self.period_ms]
            .iter()
            .any(|&ms| ms > LONGEST_MS)
        {
            return Err("a time control may give at most a week".into());
        }
        if self.main_ms == 0 && (self.period_ms == 0 || self.period_moves == 0) {
            return Err("a time control needs main time or byo-yomi periods".into());
        }
        if self.period_moves > 0 && self.period_ms == 0 {
            return Err("byo-yomi periods need a period time".into());
        }
        Ok(())
    }

    /// The engine's form.
    pub fn control(&self) -> TimeControl {
        TimeControl {
            main: Duration::from_millis(self.main_ms),
            increment: Duration::from_millis(self.increment_ms),
            period_time: Duration::from_millis(self.period_ms),
            period_moves: self.period_moves,
        }
    }
}

/// A seat's time left as it is stored: milliseconds, and moves left in the current period.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Left {
    /// Milliseconds left in main time or in the current period.
    pub ms: u64,
    /// Moves left in the period, 0 in main time.
    pub period_moves: u32,
}

/// A room's clock: every seat's time, and the seat whose time runs now.
#[derive(Clone, Debug)]
pub struct RoomClock {
    spec: Option<TimeSpec>,
    clock: Clock,
    players: usize,
    running: Option<(Player, Instant)>,
}

impl RoomClock {
    /// A clock for `players` seats under `spec` (`None`: untimed, but thinking time is still
    /// measured).
    pub fn new(spec: Option<TimeSpec>, players: usize) -> RoomClock {
        let mut clock = Clock::default();
        clock.set_control(spec.map(|spec| spec.control()));
        RoomClock {
            spec,
            clock,
            players,
            running: None,
        }
    }

    /// The time control.
    pub fn spec(&self) -> Option<TimeSpec> {
        self.spec
    }

    /// Restores the time left of each seat (from the database).
    pub fn restore(&mut self, left: &[Left]) {
        for (player, left) in left.iter().enumerate().take(self.players) {
            self.clock.set_left(
                player,
                TimeLeft {
                    time: Duration::from_millis(left.ms),
                    period_moves: left.period_moves,
                },
            );
        }
    }

    /// Each seat's time left, not counting the running turn; empty when untimed.
    pub fn stored(&self) -> Vec<Left> {
        (0..self.players)
            .filter_map(|player| self.clock.left(player))
            .map(|left| Left {
                ms: left.time.as_millis() as u64,
                period_moves: left.period_moves,
            })
            .collect()
    }

    /// `player`'s time left, not counting the running turn; `None` when untimed.
    pub fn left(&self, player: Player) -> Option<TimeLeft> {
        self.clock.left(player)
    }

    /// Starts `player`'s turn at `now` (a running turn is discarded).
    pub fn start(&mut self, player: Player, now: Instant) {
        self.running = Some((player, now));
    }

    /// The seat whose time runs.
    pub fn running(&self) -> Option<Player> {
        self.running.map(|(player, _)| player)
    }

    /// Stops the running turn at `now`, charges it, and returns the seat and the time it took.
    pub fn stop(&mut self, now: Instant) -> Option<(Player, Duration)> {
        let (player, since) = self.running.take()?;
        let elapsed = now.saturating_duration_since(since);
        self.clock.spend(player, elapsed);
        Some((player, elapsed))
    }

    /// How long `player` may think on this turn before its time is out; `None` when untimed.
    fn allowance(&self, player: Player) -> Option<Duration> {
        let control = self.clock.control()?;
        let left = self.clock.left(player)?;
        if left.period_moves == 0 && control.period_moves > 0 {
            // Main time, with a byo-yomi period behind it.
            return Some(left.time + control.period_time);
        }
        Some(left.time)
    }

    /// When the running seat's time is out, if the room is timed.
    pub fn deadline(&self) -> Option<(Player, Instant)> {
        let (player, since) = self.running?;
        Some((player, since + self.allowance(player)?))
    }

    /// Each seat's time left at `now`, counting the running turn, in milliseconds; empty when
    /// untimed.
    pub fn left_ms(&self, now: Instant) -> Vec<u64> {
        if self.clock.control().is_none() {
            return Vec::new();
        }
        (0..self.players)
            .map(|player| {
                let left = self
                    .clock
                    .left(player)
                    .map_or(Duration::ZERO, |left| left.time);
                let spent = match self.running {
                    Some((running, since)) if running == player => {
                        now.saturating_duration_since(since)
                    }
                    _ => Duration::ZERO,
                };
                left.saturating_sub(spent).as_millis() as u64
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_runs_out_of_main_time_and_gets_its_increment() {
        let spec = TimeSpec {
            main_ms: 1000,
            increment_ms: 500,
            ..TimeSpec::default()
        };
        let mut clock = RoomClock::new(Some(spec), 2);
        let start = Instant::now();
        clock.start(0, start);
        assert_eq!(
            clock.deadline(),
            Some((0, start + Duration::from_millis(1000)))
        );
        let (player, took) = clock.stop(start + Duration::from_millis(400)).unwrap();
        assert_eq!((player, took), (0, Duration::from_millis(400)));
        assert_eq!(clock.stored()[0].ms, 1100);
        clock.start(1, start);
        assert_eq!(
            clock.left_ms(start + Duration::from_millis(300)),
            vec![1100, 700]
        );
    }

    #[test]
    fn byo_yomi_extends_the_deadline_by_a_period() {
        let spec = TimeSpec {
            main_ms: 1000,
            period_ms: 300,
            period_moves: 1,
            ..TimeSpec::default()
        };
        assert!(spec.check().is_ok());
        let mut clock = RoomClock::new(Some(spec), 2);
        let start = Instant::now();
        clock.start(1, start);
        assert_eq!(
            clock.deadline(),
            Some((1, start + Duration::from_millis(1300)))
        );
        let mut restored = RoomClock::new(Some(spec), 2);
        restored.restore(&[
            Left {
                ms: 1000,
                period_moves: 0,
            },
            Left {
                ms: 250,
                period_moves: 1,
            },
        ]);
        restored.start(1, start);
        assert_eq!(
            restored.deadline(),
            Some((1, start + Duration::from_millis(250)))
        );
    }

    #[test]
    fn untimed_rooms_still_measure_thinking_time() {
        let mut clock = RoomClock::new(None, 3);
        let start = Instant::now();
        clock.start(2, start);
        assert_eq!(clock.deadline(), None);
        assert!(clock.left_ms(start).is_empty());
        assert_eq!(
            clock.stop(start + Duration::from_millis(20)),
            Some((2, Duration::from_millis(20)))
        );
        assert!(TimeSpec::default().check().is_err());
    }
}
