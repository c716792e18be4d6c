//! Reversi text: squares, moves, position strings and diagrams, shared by every board size.
//!
//! Position strings are Edax's `.obf` board: the squares a1..h1, a2..h8 (row by row from the top),
//! `X` (also `*`, `B`) black, `O` (also `W`) white, `-` (also `.`) empty, then a space and the
//! side to move. Anything after a `;` is ignored, so whole `.obf` lines load.

use super::ReversiMove;
use crate::game::{GameError, Outcome, Player};

/// Reads `a1`-style squares and `pass` (case-insensitive) on a `size`x`size` board.
pub fn parse_move(text: &str, size: usize) -> Result<ReversiMove, GameError> {
    let lower = text.trim().to_ascii_lowercase();
    if lower == "pass" || lower == "pa" {
        return Ok(ReversiMove::PASS);
    }
    parse_square(&lower, size)
        .map(|(column, row)| ReversiMove((row * size + column) as u16))
        .ok_or_else(|| GameError::MalformedMove(text.to_string()))
}

/// Column and row of an `a1`-style square on a `size`x`size` board.
pub fn parse_square(text: &str, size: usize) -> Option<(usize, usize)> {
    let mut characters = text.chars();
    let letter = characters.next()?.to_ascii_lowercase();
    if !letter.is_ascii_lowercase() {
        return None;
    }
    let column = (letter as u8 - b'a') as usize;
    let digits = characters.as_str();
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if digits.starts_with('0') {
        return None;
    }
    let row = digits.parse::<usize>().ok()?.checked_sub(1)?;
    (column < size && row < size).then_some((column, row))
}

/// Writes a move as `a1` or `pass`.
pub fn format_move(mv: ReversiMove, size: usize) -> String {
    if mv.is_pass() {
        return "pass".to_string();
    }
    let column = (b'a' + (mv.square() % size) as u8) as char;
    format!("{column}{}", mv.square() / size + 1)
}

/// Why `mv` is illegal: a pass with moves available, an occupied square, or no flips.
pub fn illegal_reason(mv: ReversiMove, has_moves: bool, occupied: impl FnOnce() -> bool) -> String {
    if mv.is_pass() {
        if has_moves {
            "a pass is only legal with no other move"
        } else {
            "the game is over"
        }
    } else if occupied() {
        "the square is occupied"
    } else {
        "it flips no disc"
    }
    .to_string()
}

/// The outcome of a finished game, from the final score of `side`.
pub fn outcome_from_score(side: Player, score: i32) -> Outcome {
    match score.signum() {
        0 => Outcome::draw(2),
        1 => Outcome::win(side, score),
        _ => Outcome::win(side ^ 1, -score),
    }
}

/// Reads a position string: cells (0 empty, 1 black, 2 white) and the side to move.
pub fn read_position(text: &str, size: usize) -> Result<(Vec<u8>, Player), GameError> {
    let text = text.split(';').next().unwrap_or("").trim();
    let invalid = |why: String| GameError::InvalidPosition(why);
    let fields = crate::game::notation::position_fields(text, "side", 0)?;
    let (board, side_text) = (fields[0], fields[1]);
    let squares = size * size;
    if board.chars().count() != squares {
        return Err(invalid(format!(
            "expected {squares} squares, found {}",
            board.chars().count()
        )));
    }
    let cells = board
        .chars()
        .map(|cell| match cell.to_ascii_lowercase() {
            'x' | '*' | 'b' => Ok(1),
            'o' | 'w' => Ok(2),
            '-' | '.' => Ok(0),
            other => Err(invalid(format!("unexpected square '{other}'"))),
        })
        .collect::<Result<Vec<u8>, _>>()?;
    let side = match side_text.to_ascii_lowercase().as_str() {
        "x" | "*" | "b" | "black" => 0,
        "o" | "w" | "white" => 1,
        other => return Err(invalid(format!("unknown side to move '{other}'"))),
    };
    Ok((cells, side))
}

/// Writes a position string from cells (0 empty, 1 black, 2 white).
pub fn write_position(cells: &[u8], side: Player) -> String {
    let mut text: String = cells
        .iter()
        .map(|&cell| match cell {
            1 => 'X',
            2 => 'O',
            _ => '-',
        })
        .collect();
    text.push(' ');
    text.push(if side == 0 { 'X' } else { 'O' });
    text
}

/// A board diagram: cells 0 empty, 1 black (`X`), 2 white (`O`), 3 a legal move (`.`); the last
/// line says who is to move, or who won once the game is over (`outcome`).
pub fn diagram(cells: &[u8], size: usize, side: Player, outcome: Option<Outcome>) -> String {
    let letters: String = (0..size)
        .map(|column| format!(" {}", (b'a' + column as u8) as char))
        .collect();
    let mut out = format!("   {letters}\n");
    let (mut black, mut white) = (0, 0);
    for row in 0..size {
        out.push_str(&format!("{:>2} ", row + 1));
        for column in 0..size {
            let symbol = match cells[row * size + column] {
                1 => {
                    black += 1;
                    'X'
                }
                2 => {
                    white += 1;
                    'O'
                }
                3 => '.',
                _ => '-',
            };
            out.push(' ');
            out.push(symbol);
        }
        out.push('\n');
    }
    let name = |player: Player| {
        if player == 0 {
            "black (X)"
        } else {
            "white (O)"
        }
    };
    let status = match outcome {
        None => format!("{} to move", name(side)),
        Some(outcome) => match outcome.winner() {
            Some(winner) => format!("game over, {} wins", name(winner)),
            None => "game over, a draw".to_string(),
        },
    };
    out.push_str(&format!("{status}; black {black}, white {white}"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_read_both_cases() {
        assert_eq!(parse_move("d3", 8), Ok(ReversiMove(19)));
        assert_eq!(parse_move("D3", 8), Ok(ReversiMove(19)));
        assert_eq!(parse_move("PASS", 8), Ok(ReversiMove::PASS));
        assert_eq!(parse_move("j10", 10), Ok(ReversiMove(99)));
        for bad in ["", "i1", "a9", "a0", "a01", "3d", "d", "d3x", "é3", "a-1"] {
            assert!(parse_move(bad, 8).is_err(), "{bad}");
        }
    }

    #[test]
    fn obf_lines_load() {
        let line = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38;";
        let (cells, side) = read_position(line, 8).unwrap();
        assert_eq!(side, 0);
        assert_eq!(cells[0], 2);
        assert_eq!(cells[7], 1);
        assert!(read_position("XO X", 8).is_err());
        assert!(read_position(&format!("{} Y", "-".repeat(64)), 8).is_err());
    }
}
