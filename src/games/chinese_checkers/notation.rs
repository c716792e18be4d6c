//! Chinese Checkers text: moves, position strings and the board diagram.
//!
//! Holes are numbered 1..121 row by row from the top, left to right. A move is `from-to` (for
//! example `9-18`), or a whole hop path `from-over...-to` whose intermediate landing holes are
//! checked; `pass` is the move of a player who has no other.
//!
//! A position string is 121 characters in hole order (`.` empty, `1`..`6` a piece of that player
//! number), a space and the number of the player to move. When players have finished in a game
//! that goes on, a field `finished=a,b` lists them in the order they finished. While some player
//! has taken fewer than `spoil_after` turns (`finish=fill`), a last field `turns=t1,t2,...` gives
//! each player's count, up to `spoil_after`; without it every player counts as having taken them.

use super::board::{COLUMN_OF, HOLES, ROWS, ROW_LENGTHS, ROW_STARTS};
use super::{ChineseCheckers, ChineseCheckersMove, PIECES};
use crate::game::{GameError, Player, Rules};

/// Reads a move: `None` for the pass, otherwise the holes of the path (0-based, at least two).
///
/// # Errors
/// [`GameError::MalformedMove`] unless the text is `pass` or two or more hole numbers 1..121
/// joined by `-`, with no hole twice in a row.
pub fn parse_move(text: &str) -> Result<Option<Vec<usize>>, GameError> {
    let trimmed = text.trim();
    let malformed = || GameError::MalformedMove(text.to_string());
    if trimmed.eq_ignore_ascii_case("pass") {
        return Ok(None);
    }
    let mut path = Vec::new();
    for part in trimmed.split('-') {
        let digits = part.trim();
        if digits.is_empty()
            || digits.len() > 3
            || !digits.bytes().all(|byte| byte.is_ascii_digit())
            || digits.starts_with('0')
        {
            return Err(malformed());
        }
        let number: usize = digits.parse().map_err(|_| malformed())?;
        if !(1..=HOLES).contains(&number) {
            return Err(malformed());
        }
        path.push(number - 1);
    }
    // A path that stays on a hole is well formed and illegal: the game says why.
    if path.len() < 2 {
        return Err(malformed());
    }
    Ok(Some(path))
}

/// Writes a move as `from-to` with 1-based hole numbers, or `pass`.
pub fn format_move(mv: ChineseCheckersMove) -> String {
    if mv.is_pass() {
        "pass".to_string()
    } else {
        format!("{}-{}", mv.from as usize + 1, mv.to as usize + 1)
    }
}

/// A position string read and checked against a player count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedPosition {
    /// The holes: 0 empty, `n` a piece of player number `n`.
    pub cells: [u8; HOLES],
    /// The seat to move, 0-based.
    pub side: Player,
    /// The seats that have finished, in the order they finished.
    pub finish_order: Vec<Player>,
    /// The turns each seat has taken (`turns=`), one count per seat, if given.
    pub turns: Option<Vec<u32>>,
}

/// Reads a position string for a game of `players` players: the board, the player to move and
/// optionally `finished=a,b` and `turns=t1,t2,...` in that order.
///
/// # Errors
/// [`GameError::InvalidPosition`] for a wrong length, an unknown character, a piece of a player
/// number the game does not have, a player without exactly ten pieces, an unknown side to move or
/// a bad `finished=` or `turns=` list.
pub fn read_position(text: &str, players: usize) -> Result<ParsedPosition, GameError> {
    let invalid = |why: String| GameError::InvalidPosition(why);
    let fields = crate::game::notation::position_fields(text, "player", 2)?;
    let board = fields[0];
    let side_text = fields[1];
    if board.chars().count() != HOLES {
        return Err(invalid(format!(
            "expected {HOLES} holes, found {}",
            board.chars().count()
        )));
    }
    let mut cells = [0u8; HOLES];
    let mut counts = [0u32; 7];
    for (hole, character) in board.chars().enumerate() {
        let cell = match character {
            '.' => 0,
            '1'..='6' => character as u8 - b'0',
            other => return Err(invalid(format!("unexpected character '{other}'"))),
        };
        if cell as usize > players {
            return Err(invalid(format!(
                "hole {} holds a piece of player {cell}, but there are {players} players",
                hole + 1
            )));
        }
        cells[hole] = cell;
        counts[cell as usize] += 1;
    }
    for (number, &count) in counts.iter().enumerate().take(players + 1).skip(1) {
        if count != PIECES {
            return Err(invalid(format!(
                "player {number} has {count} pieces instead of {PIECES}"
            )));
        }
    }
    let side = read_player(side_text, players)
        .ok_or_else(|| invalid(format!("unknown player to move '{side_text}'")))?;
    let mut finish_order = Vec::new();
    let mut turns = None;
    for (index, field) in fields[2..].iter().enumerate() {
        let lower = field.to_ascii_lowercase();
        if let Some(list) = lower.strip_prefix("finished=") {
            if index > 0 {
                return Err(invalid("finished= comes before turns=".to_string()));
            }
            for item in list.split(',') {
                let seat = read_player(item, players)
                    .ok_or_else(|| invalid(format!("unknown finished player '{item}'")))?;
                if finish_order.contains(&seat) {
                    return Err(invalid(format!(
                        "player {item} is listed twice as finished"
                    )));
                }
                finish_order.push(seat);
            }
            if finish_order.len() >= players.max(2) {
                return Err(invalid("too many finished players".to_string()));
            }
        } else if let Some(list) = lower.strip_prefix("turns=") {
            if turns.is_some() {
                return Err(invalid("turns= is given twice".to_string()));
            }
            let counts: Vec<u32> = list
                .split(',')
                .map(|item| {
                    item.parse::<u32>()
                        .ok()
                        .filter(|_| !item.starts_with('+'))
                        .ok_or_else(|| invalid(format!("'{item}' is not a turn count")))
                })
                .collect::<Result<_, _>>()?;
            if counts.len() != players {
                return Err(invalid(format!(
                    "turns= needs one count per player ({players}), found {}",
                    counts.len()
                )));
            }
            turns = Some(counts);
        } else {
            return Err(invalid(format!(
                "unexpected '{field}' (expected finished=... or turns=...)"
            )));
        }
    }
    Ok(ParsedPosition {
        cells,
        side,
        finish_order,
        turns,
    })
}

fn read_player(text: &str, players: usize) -> Option<Player> {
    if text.len() != 1 {
        return None;
    }
    let number: usize = text.parse().ok()?;
    (1..=players).contains(&number).then(|| number - 1)
}

/// Writes a position string from cells (0 empty, `n` player number `n`), the side to move, the
/// finished seats in finishing order and, while they matter, the turns each seat has taken.
pub fn write_position(
    cells: &[u8; HOLES],
    side: Player,
    finish_order: &[Player],
    turns: Option<&[u8]>,
) -> String {
    let mut text: String = cells
        .iter()
        .map(|&cell| {
            if cell == 0 {
                '.'
            } else {
                (b'0' + cell) as char
            }
        })
        .collect();
    text.push(' ');
    text.push_str(&(side + 1).to_string());
    if !finish_order.is_empty() {
        let list: Vec<String> = finish_order
            .iter()
            .map(|seat| (seat + 1).to_string())
            .collect();
        text.push_str(" finished=");
        text.push_str(&list.join(","));
    }
    if let Some(turns) = turns {
        let list: Vec<String> = turns.iter().map(|count| count.to_string()).collect();
        text.push_str(" turns=");
        text.push_str(&list.join(","));
    }
    text
}

/// The star as text: each row between the numbers of its first and last hole, pieces as player
/// numbers, empty holes as `.`, then the seating, finished players and the side to move with the
/// ply count (or the final places).
pub fn diagram(position: &ChineseCheckers) -> String {
    let cells = position.cells();
    let mut out = String::new();
    for row in 0..ROWS {
        let first = ROW_STARTS[row];
        let last = first + ROW_LENGTHS[row] - 1;
        // Doubled columns -12..=12 map onto character columns 0..=24.
        let mut line = vec![b' '; 25];
        for hole in first..=last {
            let column = (COLUMN_OF[hole] as i32 + 12) as usize;
            line[column] = if cells[hole] == 0 {
                b'.'
            } else {
                b'0' + cells[hole]
            };
        }
        let drawn = String::from_utf8(line).expect("ASCII");
        out.push_str(&format!("{:>3}  {drawn}  {}\n", first + 1, last + 1));
    }
    let variant = position.variant();
    let seats: Vec<String> = (0..variant.players())
        .map(|seat| {
            format!(
                "player {} camp {} -> {}",
                seat + 1,
                variant.start_camp(seat),
                variant.goal_camp(seat)
            )
        })
        .collect();
    out.push_str(&seats.join(", "));
    out.push('\n');
    let finished: Vec<String> = position
        .finish_order()
        .iter()
        .map(|&seat| format!("player {} place {}", seat + 1, position.state.places[seat]))
        .collect();
    if !finished.is_empty() {
        out.push_str(&format!("finished: {}\n", finished.join(", ")));
    }
    match position.outcome() {
        Some(outcome) => {
            let places: Vec<String> = (0..variant.players())
                .map(|seat| format!("{}:{}", seat + 1, outcome.place(seat)))
                .collect();
            let winner = match outcome.winner() {
                Some(winner) => format!("player {} wins", winner + 1),
                None => "no winner".to_string(),
            };
            out.push_str(&format!("game over, {winner}; places {}", places.join(" ")));
        }
        None => out.push_str(&format!(
            "player {} to move, ply {} of at most {}",
            position.side_to_move() + 1,
            position.ply(),
            variant.max_moves()
        )),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_read_and_write() {
        assert_eq!(parse_move("9-18"), Ok(Some(vec![8, 17])));
        assert_eq!(parse_move(" 5-18-31 "), Ok(Some(vec![4, 17, 30])));
        assert_eq!(parse_move("PASS"), Ok(None));
        // Well formed, though never legal: the game says why.
        assert_eq!(parse_move("9-9"), Ok(Some(vec![8, 8])));
        for bad in [
            "", "9", "9-", "-9", "0-5", "122-5", "5-122", "a-b", "05-18", "9--18", "9 18",
            "1234-5", "+9-18",
        ] {
            assert!(parse_move(bad).is_err(), "{bad}");
        }
        assert_eq!(format_move(ChineseCheckersMove::new(8, 17)), "9-18");
        assert_eq!(format_move(ChineseCheckersMove::PASS), "pass");
    }

    #[test]
    fn positions_are_checked() {
        let mut cells = [0u8; HOLES];
        cells[..10].fill(1);
        cells[111..].fill(2);
        let text = write_position(&cells, 1, &[], None);
        assert_eq!(text.len(), 123);
        let parsed = read_position(&text, 2).unwrap();
        assert_eq!(parsed.cells, cells);
        assert_eq!(parsed.side, 1);
        assert!(read_position(&text, 3).is_err(), "player 3 has no pieces");
        assert!(read_position(&text.replace(" 2", " 3"), 2).is_err());
        assert!(read_position(&text.replace(" 2", ""), 2).is_err());
        assert!(read_position(&format!("{text} finished=1"), 2).is_ok());
        assert!(read_position(&format!("{text} finished=1,2"), 2).is_err());
        assert!(read_position(&format!("{text} done=1"), 2).is_err());
        assert!(read_position(&format!("{text} finished=1 x"), 2).is_err());
        let counted = read_position(&format!("{text} finished=1 turns=3,30"), 2).unwrap();
        assert_eq!(counted.turns, Some(vec![3, 30]));
        assert_eq!(counted.finish_order, vec![0]);
        assert!(read_position(&format!("{text} turns=3,30 finished=1"), 2).is_err());
        assert!(read_position(&format!("{text} turns=3"), 2).is_err());
        assert!(read_position(&format!("{text} turns=3,x"), 2).is_err());
        assert!(read_position(&format!("{text} turns=1,2 turns=1,2"), 2).is_err());
        assert!(read_position(&text[1..], 2).is_err());
        assert!(read_position(&text.replacen('.', "x", 1), 2).is_err());
        assert!(read_position(&text.replacen('.', "2", 1), 2).is_err());
    }
}
