//! GGF game records, as NBoard and the GGS server write Othello games:
//! `(;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[8 <64 squares> *]B[F5]W[F6/-1.50/2.1];)`.
//!
//! The record is a list of `KEY[value]` properties between `(;` and `;)`. Only the game type
//! (`GM`), the match type (`TY`), the start board (`BO`) and the moves (`B`, `W`) matter here; every
//! other property (players, place, date, clocks, result, comments) is read past. A value may escape
//! a `]` or a `\` with a backslash.
//!
//! The board is `BO[<size> <squares> <side>]`: the squares row by row from the top left, `*` (also
//! `x`, `X`) black, `O` (also `o`, `0`) white, `-` (also `.`) empty, whitespace between them allowed,
//! then the side to move in the same letters. A move is a square (`F5`, any case) or a pass (`PA`,
//! `PASS`, `--`), optionally followed by `/eval` and `/eval/time` (either may be empty).

use crate::game::Player;

/// Why a GGF record could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("malformed GGF: {0}")]
pub struct GgfError(pub String);

fn error(message: impl Into<String>) -> GgfError {
    GgfError(message.into())
}

/// One move of a record.
#[derive(Clone, Debug, PartialEq)]
pub struct GgfMove {
    /// Who played it: 0 black, 1 white.
    pub player: Player,
    /// The square in lower case (`f5`), or `pass`.
    pub mv: String,
    /// The evaluation written with it, in discs for the mover, if any.
    pub eval: Option<f64>,
    /// The seconds it took, if written.
    pub time: Option<f64>,
}

/// A game record: the start position and the moves played from it.
#[derive(Clone, Debug, PartialEq)]
pub struct GgfGame {
    /// The board size (8 for Othello).
    pub size: usize,
    /// The start board, row by row from the top left: 0 empty, 1 black, 2 white.
    pub cells: Vec<u8>,
    /// The side to move at the start: 0 black, 1 white.
    pub side: Player,
    /// The moves, in order.
    pub moves: Vec<GgfMove>,
}

/// Reads a square colour: 1 black, 2 white, 0 empty.
fn colour(character: char) -> Option<u8> {
    match character {
        '*' | 'x' | 'X' => Some(1),
        'O' | 'o' | '0' => Some(2),
        '-' | '.' => Some(0),
        _ => None,
    }
}

/// Splits a record into its `(key, value)` properties, in order.
///
/// # Errors
/// A [`GgfError`] when the record does not start with `(;`, a property has no `[value]`, or a value
/// is not closed.
pub fn properties(text: &str) -> Result<Vec<(String, String)>, GgfError> {
    let text = text.trim_start();
    // GGS may put the number of games (1, or 2 for a synchro match) before the record.
    let text = text.trim_start_matches(['1', '2']).trim_start();
    let mut rest = text
        .strip_prefix('(')
        .map(str::trim_start)
        .and_then(|rest| rest.strip_prefix(';'))
        .ok_or_else(|| error("a game record starts with '(;'"))?;
    let mut found = Vec::new();
    loop {
        rest = rest.trim_start();
        if rest.starts_with(';') || rest.starts_with(')') {
            return Ok(found);
        }
        let open = rest
            .find('[')
            .ok_or_else(|| error("the record does not end with ';)'"))?;
        let key = rest[..open].trim();
        if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphabetic()) {
            return Err(error(format!("bad property name '{key}'")));
        }
        let mut value = String::new();
        let mut characters = rest[open + 1..].char_indices();
        let close = loop {
            match characters.next() {
                Some((_, '\\')) => match characters.next() {
                    Some((_, escaped)) => value.push(escaped),
                    None => return Err(error(format!("{key}[ is not closed"))),
                },
                Some((index, ']')) => break open + 1 + index,
                Some((_, character)) => value.push(character),
                None => return Err(error(format!("{key}[ is not closed"))),
            }
        };
        found.push((key.to_ascii_uppercase(), value));
        rest = &rest[close + 1..];
    }
}

/// Reads a move with its optional `/eval/time` suffixes.
///
/// # Errors
/// A [`GgfError`] when the square, the evaluation or the time is malformed.
pub fn parse_move(player: Player, text: &str) -> Result<GgfMove, GgfError> {
    let mut parts = text.trim().split('/');
    let square = parts.next().unwrap_or("").trim();
    let number = |part: Option<&str>, what: &str| -> Result<Option<f64>, GgfError> {
        match part.map(str::trim) {
            None | Some("") => Ok(None),
            Some(text) => text
                .parse::<f64>()
                .ok()
                .filter(|value| value.is_finite())
                .map(Some)
                .ok_or_else(|| error(format!("bad {what} '{text}'"))),
        }
    };
    let eval = number(parts.next(), "evaluation")?;
    let time = number(parts.next(), "time")?;
    if parts.next().is_some() {
        return Err(error(format!("too many fields in move '{text}'")));
    }
    let lower = square.to_ascii_lowercase();
    let mv = if matches!(lower.as_str(), "pa" | "pas" | "pass" | "ps" | "--") {
        "pass".to_string()
    } else if lower.len() >= 2
        && lower.as_bytes()[0].is_ascii_lowercase()
        && lower[1..].bytes().all(|byte| byte.is_ascii_digit())
    {
        lower
    } else {
        return Err(error(format!("bad move '{square}'")));
    };
    Ok(GgfMove {
        player,
        mv,
        eval,
        time,
    })
}

/// Reads a `BO[...]` board.
fn parse_board(text: &str) -> Result<(usize, Vec<u8>, Player), GgfError> {
    let text = text.trim_start();
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let size: usize = text[..digits]
        .parse()
        .map_err(|_| error(format!("the board '{text}' does not start with its size")))?;
    if !(1..=32).contains(&size) {
        return Err(error(format!("unsupported board size {size}")));
    }
    let mut squares = text[digits..].chars().filter(|c| !c.is_whitespace());
    let cells = (&mut squares)
        .take(size * size)
        .map(|character| {
            colour(character).ok_or_else(|| error(format!("bad square '{character}' in BO")))
        })
        .collect::<Result<Vec<u8>, _>>()?;
    if cells.len() != size * size {
        return Err(error(format!(
            "BO has {} squares, not {}",
            cells.len(),
            size * size
        )));
    }
    let side = match squares.next().map(colour) {
        Some(Some(1)) => 0,
        Some(Some(2)) => 1,
        _ => return Err(error("BO does not end with the side to move (* or O)")),
    };
    if squares.next().is_some() {
        return Err(error("extra text after the side to move in BO"));
    }
    Ok((size, cells, side))
}

/// Reads a whole game record.
///
/// # Errors
/// A [`GgfError`] for a malformed record, a game other than Othello, an anti-Othello match type, a
/// missing or bad board, a board size that disagrees with the match type, or a malformed move.
/// Whether the moves are legal is for the caller to check.
pub fn parse_game(text: &str) -> Result<GgfGame, GgfError> {
    let mut board = None;
    let mut match_size = None;
    let mut moves = Vec::new();
    for (key, value) in properties(text)? {
        match key.as_str() {
            "GM" if !value.trim().eq_ignore_ascii_case("othello") => {
                return Err(error(format!("GM[{value}] is not Othello")));
            }
            "TY" => {
                let value = value.trim();
                let digits = value.bytes().take_while(u8::is_ascii_digit).count();
                match_size = value[..digits].parse::<usize>().ok();
                // Anti-Othello (the lesser disc count wins) is another game.
                if value[digits..].contains('a') {
                    return Err(error(format!("TY[{value}]: anti-Othello is not supported")));
                }
            }
            "BO" => board = Some(parse_board(&value)?),
            "B" => moves.push(parse_move(0, &value)?),
            "W" => moves.push(parse_move(1, &value)?),
            _ => {}
        }
    }
    let (size, cells, side) = board.ok_or_else(|| error("no BO[] board"))?;
    if let Some(match_size) = match_size.filter(|&typed| typed != size) {
        return Err(error(format!(
            "TY says {match_size}x{match_size} but BO is {size}x{size}"
        )));
    }
    Ok(GgfGame {
        size,
        cells,
        side,
        moves,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "---------------------------O*------*O---------------------------";

    #[test]
    fn nboard_records_are_read() {
        let text = format!(
            "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 {START} *]B[F5]W[f6/-1.50/2.1]B[PA]W[d3//3];)"
        );
        let game = parse_game(&text).unwrap();
        assert_eq!(game.size, 8);
        assert_eq!(game.side, 0);
        assert_eq!(game.cells[27], 2);
        assert_eq!(game.cells[28], 1);
        let moves: Vec<(Player, &str)> = game
            .moves
            .iter()
            .map(|mv| (mv.player, mv.mv.as_str()))
            .collect();
        assert_eq!(moves, [(0, "f5"), (1, "f6"), (0, "pass"), (1, "d3")]);
        assert_eq!(game.moves[1].eval, Some(-1.5));
        assert_eq!(game.moves[1].time, Some(2.1));
        assert_eq!(game.moves[3].eval, None);
        assert_eq!(game.moves[3].time, Some(3.0));
    }

    #[test]
    fn comments_escapes_and_spaced_boards_are_read() {
        let spaced: String = START
            .as_bytes()
            .chunks(8)
            .map(|row| std::str::from_utf8(row).unwrap())
            .collect::<Vec<_>>()
            .join(" ");
        let text = format!("1 ( ;C[a \\] ; comment]BO[8 {spaced} O]KM[0];)");
        let game = parse_game(&text).unwrap();
        assert_eq!(game.side, 1);
        assert_eq!(game.cells.iter().filter(|&&cell| cell != 0).count(), 4);
    }

    #[test]
    fn malformed_records_are_refused() {
        let good = format!("(;GM[Othello]BO[8 {START} *]B[F5];)");
        assert!(parse_game(&good).is_ok());
        for bad in [
            String::new(),
            "GM[Othello]".to_string(),
            format!("(;GM[Go]BO[8 {START} *];)"),
            format!("(;BO[8 {START} *]B[F5"),
            format!("(;BO[8 {START}];)"),
            format!("(;BO[8 {START}- *];)"),
            format!("(;BO[8 {} *];)", &START[1..]),
            format!("(;BO[8 {START} *]B[Z];)"),
            format!("(;BO[8 {START} *]B[F5/x];)"),
            format!("(;BO[8 {START} *]B[F5/1/2/3];)"),
            format!("(;TY[8a]BO[8 {START} *];)"),
            format!("(;TY[10]BO[8 {START} *];)"),
            "(;GM[Othello]B[F5];)".to_string(),
            format!("(;BO[x {START} *];)"),
            format!("(;B O[8 {START} *];)"),
        ] {
            assert!(parse_game(&bad).is_err(), "{bad}");
        }
    }
}
