//! Text helpers shared by every game's notation.

use crate::game::error::GameError;

/// Splits a position string into its whitespace-separated fields: the board, then `who` is to
/// move (`"side"` or `"player"`), then at most `optional` further fields.
///
/// # Errors
/// [`GameError::InvalidPosition`] for an empty text, a missing side to move or extra fields.
pub fn position_fields<'a>(
    text: &'a str,
    who: &str,
    optional: usize,
) -> Result<Vec<&'a str>, GameError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    match fields.len() {
        0 => Err(GameError::InvalidPosition("empty position".to_string())),
        1 => Err(GameError::InvalidPosition(format!(
            "missing the {who} to move after the board"
        ))),
        count if count > 2 + optional => Err(GameError::InvalidPosition(format!(
            "extra text after the {who} to move"
        ))),
        _ => Ok(fields),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_counted() {
        assert_eq!(position_fields("xx o", "side", 0), Ok(vec!["xx", "o"]));
        assert_eq!(
            position_fields("xx 1 finished=2", "player", 1)
                .unwrap()
                .len(),
            3
        );
        assert!(position_fields("  ", "side", 0).is_err());
        assert!(position_fields("xx", "side", 0)
            .unwrap_err()
            .to_string()
            .contains("side to move"));
        assert!(position_fields("xx o y", "side", 0).is_err());
    }
}
