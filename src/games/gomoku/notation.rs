//! Gomoku text: points, the Gomocup `x,y` form, position strings and diagrams.
//!
//! Points are written in renju notation: a column letter from `a` on the left and a row number
//! from `1` at the bottom, so `h8` is the centre of 15x15 and, on 20x20, `a20` is the top-left
//! corner and `t1` the bottom-right one. Input is case-insensitive.
//!
//! Gomocup (Piskvork) numbers points `x,y` from 0 with the origin at the top-left: `x` is the
//! column index and `y = size - row`. A point's index (its move code) is `y * size + x`.
//!
//! Position strings come in two forms:
//! - **moves**: the moves from the empty board, black first, written one after the other
//!   (`h8i9j10`), optionally separated by spaces or commas. The empty string is the empty board.
//! - **board** (the canonical form written by `position_string`): the rows from the top (row
//!   `size`) to the bottom, `x` black, `o` white, `.` (or `-`) empty, rows separated by `/`, then a
//!   space and the side to move, `x` or `o` (`b`/`w` and `black`/`white` are read too).

use super::GomokuMove;
use crate::game::{GameError, Player};

/// The letter of column `x`.
pub fn column_letter(x: usize) -> char {
    (b'a' + x as u8) as char
}

/// The move at Gomocup coordinates (`x` column from the left, `y` row from the top, both from 0),
/// or `None` off a `size`x`size` board.
pub fn move_from_gomocup(x: usize, y: usize, size: usize) -> Option<GomokuMove> {
    (x < size && y < size).then_some(GomokuMove((y * size + x) as u16))
}

/// The Gomocup coordinates `(x, y)` of a move on a `size`x`size` board.
pub fn gomocup_coordinates(mv: GomokuMove, size: usize) -> (usize, usize) {
    (mv.point() % size, mv.point() / size)
}

/// Writes a move in renju notation, `h8`.
pub fn format_move(mv: GomokuMove, size: usize) -> String {
    let (x, y) = gomocup_coordinates(mv, size);
    format!("{}{}", column_letter(x), size - y)
}

/// Reads one point at the start of `text` (letter, then a row number of one or two digits without
/// a leading zero): the move and the number of bytes read.
fn read_point(text: &[u8], size: usize) -> Option<(GomokuMove, usize)> {
    let letter = text.first()?.to_ascii_lowercase();
    if !letter.is_ascii_lowercase() {
        return None;
    }
    let digits = text[1..]
        .iter()
        .take(2)
        .take_while(|byte| byte.is_ascii_digit())
        .count();
    if digits == 0 || text[1] == b'0' {
        return None;
    }
    let row: usize = std::str::from_utf8(&text[1..1 + digits])
        .ok()?
        .parse()
        .ok()?;
    let x = (letter - b'a') as usize;
    if row == 0 || row > size {
        return None;
    }
    move_from_gomocup(x, size - row, size).map(|mv| (mv, 1 + digits))
}

/// Reads a move in renju notation (case-insensitive).
///
/// # Errors
/// [`GameError::MalformedMove`] when the text is not a point of a `size`x`size` board.
pub fn parse_move(text: &str, size: usize) -> Result<GomokuMove, GameError> {
    let trimmed = text.trim();
    match read_point(trimmed.as_bytes(), size) {
        Some((mv, length)) if length == trimmed.len() => Ok(mv),
        _ => Err(GameError::MalformedMove(text.to_string())),
    }
}

/// Reads the moves form of a position string: points one after the other, with optional spaces
/// and commas between them.
///
/// # Errors
/// [`GameError::InvalidPosition`] at the first text that is not a point of the board.
pub fn parse_move_sequence(text: &str, size: usize) -> Result<Vec<GomokuMove>, GameError> {
    let bytes = text.as_bytes();
    let mut moves = Vec::new();
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index].is_ascii_whitespace() || bytes[index] == b',' {
            index += 1;
            continue;
        }
        let (mv, length) = read_point(&bytes[index..], size).ok_or_else(|| {
            let rest: String = text[index..].chars().take(8).collect();
            GameError::InvalidPosition(format!(
                "expected a point of the {size}x{size} board at '{rest}'"
            ))
        })?;
        moves.push(mv);
        index += length;
    }
    Ok(moves)
}

/// Reads the board form of a position string: the cells by point (0 empty, 1 black, 2 white) and
/// the side to move.
///
/// # Errors
/// [`GameError::InvalidPosition`] when the rows, cells or side do not fit a `size`x`size` board.
pub fn parse_board(text: &str, size: usize) -> Result<(Vec<u8>, Player), GameError> {
    let invalid = |why: String| GameError::InvalidPosition(why);
    let fields = crate::game::notation::position_fields(text, "side", 0)?;
    let (board, side_text) = (fields[0], fields[1]);
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != size {
        return Err(invalid(format!(
            "expected {size} rows separated by '/', found {}",
            rows.len()
        )));
    }
    let mut cells = Vec::with_capacity(size * size);
    for (index, row) in rows.iter().enumerate() {
        if row.chars().count() != size {
            return Err(invalid(format!(
                "row {} has {} points, expected {size}",
                size - index,
                row.chars().count()
            )));
        }
        for cell in row.chars() {
            cells.push(match cell.to_ascii_lowercase() {
                'x' => 1,
                'o' => 2,
                '.' | '-' => 0,
                other => return Err(invalid(format!("unexpected point '{other}'"))),
            });
        }
    }
    let side = match side_text.to_ascii_lowercase().as_str() {
        "x" | "b" | "black" => 0,
        "o" | "w" | "white" => 1,
        other => return Err(invalid(format!("unknown side to move '{other}'"))),
    };
    Ok((cells, side))
}

/// Writes the board form from cells by point (0 empty, 1 black, 2 white).
pub fn write_board(cells: &[u8], size: usize, side: Player) -> String {
    let mut text = String::with_capacity(size * (size + 1) + 2);
    for (y, row) in cells.chunks(size).enumerate() {
        if y > 0 {
            text.push('/');
        }
        text.extend(row.iter().map(|&cell| match cell {
            1 => 'x',
            2 => 'o',
            _ => '.',
        }));
    }
    text.push(' ');
    text.push(if side == 0 { 'x' } else { 'o' });
    text
}

/// A board diagram: cells by point (0 empty, 1 black `X`, 2 white `O`, 3 forbidden `#`), the last
/// move in brackets, coordinates on every side and a status line below.
pub fn diagram(cells: &[u8], size: usize, last: Option<usize>, status: &str) -> String {
    let letters: String = (0..size)
        .map(|x| format!(" {}", column_letter(x)))
        .collect();
    let mut out = format!("  {letters}\n");
    for y in 0..size {
        let row = size - y;
        out.push_str(&format!("{row:>2}"));
        let marked = last
            .filter(|&point| point / size == y)
            .map(|point| point % size);
        for x in 0..size {
            out.push(match marked {
                Some(column) if column == x => '[',
                Some(column) if column + 1 == x => ']',
                _ => ' ',
            });
            out.push(match cells[y * size + x] {
                1 => 'X',
                2 => 'O',
                3 => '#',
                _ => '.',
            });
        }
        out.push(if marked == Some(size - 1) { ']' } else { ' ' });
        out.push_str(&format!("{row}\n"));
    }
    out.push_str(&format!("  {letters}\n"));
    out.push_str(status);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_read_in_renju_notation() {
        assert_eq!(parse_move("h8", 15), Ok(GomokuMove(7 * 15 + 7)));
        assert_eq!(parse_move("H8", 15), Ok(GomokuMove(112)));
        assert_eq!(parse_move("a20", 20), Ok(GomokuMove(0)));
        assert_eq!(parse_move("t1", 20), Ok(GomokuMove(399)));
        assert_eq!(parse_move(" a1 ", 15), Ok(GomokuMove(14 * 15)));
        for bad in [
            "", "h", "8h", "h0", "h08", "p1", "a16", "h8x", "h-1", "h 8", "é8",
        ] {
            assert!(parse_move(bad, 15).is_err(), "{bad}");
        }
        assert_eq!(format_move(GomokuMove(0), 20), "a20");
        assert_eq!(format_move(GomokuMove(112), 15), "h8");
    }

    #[test]
    fn gomocup_coordinates_map_both_ways() {
        let mv = parse_move("h8", 15).unwrap();
        assert_eq!(gomocup_coordinates(mv, 15), (7, 7));
        let mv = parse_move("c17", 20).unwrap();
        assert_eq!(gomocup_coordinates(mv, 20), (2, 3));
        assert_eq!(move_from_gomocup(2, 3, 20), Some(mv));
        assert_eq!(move_from_gomocup(20, 0, 20), None);
    }

    #[test]
    fn move_sequences_split_without_separators() {
        let moves = parse_move_sequence("h8i9j10, k11 a1", 15).unwrap();
        let written: Vec<String> = moves.iter().map(|&mv| format_move(mv, 15)).collect();
        assert_eq!(written, ["h8", "i9", "j10", "k11", "a1"]);
        assert_eq!(parse_move_sequence("  ", 15), Ok(vec![]));
        assert!(parse_move_sequence("h8z9", 15).is_err());
        assert!(parse_move_sequence("h8i", 15).is_err());
    }

    #[test]
    fn boards_read_and_write() {
        let text = "x..../...../..o../...../..... x";
        let (cells, side) = parse_board(text, 5).unwrap();
        assert_eq!((cells[0], cells[12], side), (1, 2, 0));
        assert_eq!(write_board(&cells, 5, side), text);
        assert!(parse_board("x..../...../...../..... x", 5).is_err());
        assert!(parse_board("x..../...../...../...../....", 5).is_err());
        assert!(parse_board("x..../...../...z./...../..... x", 5).is_err());
        assert!(parse_board("x..../...../...../...../..... y", 5).is_err());
    }
}
