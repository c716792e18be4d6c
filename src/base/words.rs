//! Words for people: plurals and number ranges, so that every message says them the same way.

use std::fmt;

/// `count` and `word`, with an `s` unless the count is one: `1 stone`, `2 stones`.
pub fn plural(count: impl Into<u64>, word: &str) -> String {
    let count = count.into();
    if count == 1 {
        format!("{count} {word}")
    } else {
        format!("{count} {word}s")
    }
}

/// The whole numbers an option or setting accepts, as a message says them:
/// `from 1 to 8`, `even, from 4 to 16`, `from 1 to 127, or 0 for no fixed depth`. The upper
/// bound is always said, so that a number too large for the type reads as out of range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NumberRange {
    /// The smallest value.
    pub min: u64,
    /// The largest value; `u64::MAX` means no upper bound worth saying.
    pub max: u64,
    /// Only even values.
    pub even: bool,
    /// What 0 means when it is accepted below `min`.
    pub zero: Option<&'static str>,
}

impl NumberRange {
    /// The numbers from `min` to `max`.
    pub const fn new(min: u64, max: u64) -> NumberRange {
        NumberRange {
            min,
            max,
            even: false,
            zero: None,
        }
    }

    /// Only the even ones.
    pub const fn even(self) -> NumberRange {
        NumberRange { even: true, ..self }
    }

    /// With 0 accepted too, meaning `meaning`.
    pub const fn or_zero(self, meaning: &'static str) -> NumberRange {
        NumberRange {
            zero: Some(meaning),
            ..self
        }
    }

    /// Whether `value` is in the range.
    pub fn contains(&self, value: u64) -> bool {
        (self.zero.is_some() && value == 0)
            || ((self.min..=self.max).contains(&value) && (!self.even || value.is_multiple_of(2)))
    }

    /// Reads `text` as a number of the range.
    ///
    /// # Errors
    /// [`out_of_range`]'s message when `text` is no number of the range (too large ones
    /// included), or a message that it must be a whole number.
    pub fn parse(&self, name: &str, text: &str) -> Result<u64, String> {
        let text = text.trim();
        if text.is_empty() || !text.bytes().all(|byte| byte.is_ascii_digit()) {
            return Err(format!(
                "{name} must be a whole number {self}, not '{text}'"
            ));
        }
        match text.parse::<u64>() {
            Ok(value) if self.contains(value) => Ok(value),
            _ => Err(out_of_range(name, self, text)),
        }
    }
}

impl fmt::Display for NumberRange {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.even {
            write!(formatter, "even, ")?;
        }
        write!(formatter, "from {} to {}", self.min, self.max)?;
        if let Some(meaning) = self.zero {
            write!(formatter, ", or 0 for {meaning}")?;
        }
        Ok(())
    }
}

/// The one message for a number outside what `name` accepts:
/// `level must be from 1 to 8, not 9`.
pub fn out_of_range(name: &str, range: &NumberRange, value: impl fmt::Display) -> String {
    format!("{name} must be {range}, not {value}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plurals_and_ranges_read_as_words() {
        assert_eq!(plural(1u32, "stone"), "1 stone");
        assert_eq!(plural(0u32, "stone"), "0 stones");
        assert_eq!(
            NumberRange::new(4, 16).even().to_string(),
            "even, from 4 to 16"
        );
        assert_eq!(
            NumberRange::new(1, 127)
                .or_zero("no fixed depth")
                .to_string(),
            "from 1 to 127, or 0 for no fixed depth"
        );
    }

    #[test]
    fn every_bad_number_gets_the_same_form() {
        let level = NumberRange::new(1, 8);
        assert_eq!(
            level.parse("level", "9"),
            Err("level must be from 1 to 8, not 9".into())
        );
        assert_eq!(
            level.parse("level", "99999999999999999999"),
            Err("level must be from 1 to 8, not 99999999999999999999".into())
        );
        assert_eq!(level.parse("level", "3"), Ok(3));
        assert!(level
            .parse("level", "x")
            .unwrap_err()
            .contains("whole number"));
        assert_eq!(
            NumberRange::new(4, 16)
                .even()
                .parse("size", "9")
                .unwrap_err(),
            "size must be even, from 4 to 16, not 9"
        );
    }
}
