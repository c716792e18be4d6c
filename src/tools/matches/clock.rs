//! The referee's clocks: a time per move, a base time with an increment, or both; the time each
//! engine is allowed for its next move, and what it has left.

use std::str::FromStr;
use std::time::Duration;

/// A time control.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchTimeControl {
    /// Time for the whole game, if any.
    pub base: Option<Duration>,
    /// Added after each move (with a base time).
    pub increment: Duration,
    /// A cap on every move, if any.
    pub per_move: Option<Duration>,
}

impl MatchTimeControl {
    /// Whether any clock limits the engine.
    pub fn is_limited(&self) -> bool {
        self.base.is_some() || self.per_move.is_some()
    }
}

/// Reads seconds with decimals (`10`, `0.5`).
fn seconds(text: &str) -> Result<Duration, String> {
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("bad number of seconds '{text}'"))?;
    if !value.is_finite() || !(0.0..=1e7).contains(&value) {
        return Err(format!("seconds out of range: '{text}'"));
    }
    Ok(Duration::from_secs_f64(value))
}

/// `BASE+INC` in seconds, as `--tc` takes it (`60+0.6`, `10`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BaseIncrement {
    /// Time for the game.
    pub base: Duration,
    /// Added after each move.
    pub increment: Duration,
}

impl FromStr for BaseIncrement {
    type Err = String;

    fn from_str(text: &str) -> Result<BaseIncrement, String> {
        let (base, increment) = match text.split_once('+') {
            Some((base, increment)) => (seconds(base)?, seconds(increment)?),
            None => (seconds(text)?, Duration::ZERO),
        };
        if base.is_zero() {
            return Err("the base time must be more than 0".to_string());
        }
        Ok(BaseIncrement { base, increment })
    }
}

/// One engine's clock during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchClock {
    control: MatchTimeControl,
    remaining: Option<Duration>,
}

impl MatchClock {
    /// A full clock.
    pub fn new(control: MatchTimeControl) -> MatchClock {
        MatchClock {
            control,
            remaining: control.base,
        }
    }

    /// The time control.
    pub fn control(&self) -> MatchTimeControl {
        self.control
    }

    /// The base time left, if there is a base time.
    pub fn remaining(&self) -> Option<Duration> {
        self.remaining
    }

    /// The most the next move may take (before the engine's margin); `None` without a clock.
    pub fn allowed(&self) -> Option<Duration> {
        match (self.remaining, self.control.per_move) {
            (Some(left), Some(cap)) => Some(left.min(cap)),
            (left, cap) => left.or(cap),
        }
    }

    /// Takes `elapsed` off the base time and adds the increment.
    pub fn spend(&mut self, elapsed: Duration) {
        if let Some(left) = self.remaining {
            self.remaining = Some(left.saturating_sub(elapsed) + self.control.increment);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_and_increment() {
        let tc: BaseIncrement = "10+0.5".parse().unwrap();
        assert_eq!(tc.base, Duration::from_secs(10));
        assert_eq!(tc.increment, Duration::from_millis(500));
        assert_eq!(
            "3".parse::<BaseIncrement>().unwrap().increment,
            Duration::ZERO
        );
        assert!("0+1".parse::<BaseIncrement>().is_err());
        assert!("x+1".parse::<BaseIncrement>().is_err());
        let mut clock = MatchClock::new(MatchTimeControl {
            base: Some(tc.base),
            increment: tc.increment,
            per_move: Some(Duration::from_secs(2)),
        });
        assert_eq!(clock.allowed(), Some(Duration::from_secs(2)));
        clock.spend(Duration::from_secs(9));
        assert_eq!(clock.remaining(), Some(Duration::from_millis(1500)));
        assert_eq!(clock.allowed(), Some(Duration::from_millis(1500)));
        let free = MatchClock::new(MatchTimeControl::default());
        assert_eq!(free.allowed(), None);
    }
}
