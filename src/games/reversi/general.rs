//! Reversi on any even board from 4x4 to 16x16, on a mailbox with a sentinel border.
//!
//! This is the general path: correct and reasonably quick, where the 8x8 board has bitboards.

use super::notation;
use super::ReversiMove;
use crate::base::words::{out_of_range, NumberRange};
use crate::game::{GameError, Outcome, Player, Rules, ScoreUnit, SearchHooks, Strength};

/// Smallest supported board side.
pub const MIN_SIZE: usize = 4;
/// Largest supported board side.
pub const MAX_SIZE: usize = 16;
/// Mailbox cells for the largest board: (16 + 2) rows of (16 + 1) cells, plus one at the end;
/// square (row, column) is cell `(row + 1) * (size + 1) + column + 1`.
const CELLS: usize = (MAX_SIZE + 2) * (MAX_SIZE + 1) + 1;

const EMPTY: u8 = 0;
const BORDER: u8 = 3;
const HASH_FAMILY: u64 = crate::base::zobrist::family::GENERAL_REVERSI;

/// Reversi on a `size`x`size` board with an even size from 4 to 16.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GeneralReversi {
    size: usize,
    /// Cells: 0 empty, 1 black, 2 white, 3 border.
    cells: [u8; CELLS],
    side: Player,
    hash: u64,
}

fn disc_key(colour: u8, square: usize) -> u64 {
    crate::base::zobrist::key(HASH_FAMILY, (colour as u64) * 256 + square as u64)
}

const SIDE_KEY: u64 = crate::base::zobrist::key(HASH_FAMILY, 10_000);

/// The sizes a board may have.
pub const SIZES: NumberRange = NumberRange::new(MIN_SIZE as u64, MAX_SIZE as u64).even();

impl GeneralReversi {
    /// The start position on a `size`x`size` board.
    ///
    /// # Errors
    /// [`GameError::InvalidOption`] unless `size` is even, from 4 to 16.
    pub fn new(size: usize) -> Result<GeneralReversi, GameError> {
        if !SIZES.contains(size as u64) {
            return Err(GameError::InvalidOption(out_of_range(
                "reversi size",
                &SIZES,
                size,
            )));
        }
        let mut board = GeneralReversi {
            size,
            cells: [BORDER; CELLS],
            side: 0,
            hash: 0,
        };
        for square in 0..size * size {
            let cell = board.cell(square);
            board.cells[cell] = EMPTY;
        }
        let middle = size / 2;
        // d5/e4 black and d4/e5 white on 8x8: the same pattern around the centre of any board.
        board.set(middle * size + middle - 1, 1); // d5 on 8x8
        board.set((middle - 1) * size + middle, 1); // e4
        board.set((middle - 1) * size + middle - 1, 2); // d4
        board.set(middle * size + middle, 2); // e5
        Ok(board)
    }

    /// The board side.
    pub fn size(&self) -> usize {
        self.size
    }

    fn width(&self) -> usize {
        self.size + 1
    }

    /// The mailbox cell of square `row * size + column`.
    fn cell(&self, square: usize) -> usize {
        let (row, column) = (square / self.size, square % self.size);
        (row + 1) * self.width() + column + 1
    }

    fn set(&mut self, square: usize, colour: u8) {
        let cell = self.cell(square);
        let old = self.cells[cell];
        if old == 1 || old == 2 {
            self.hash ^= disc_key(old, square);
        }
        self.cells[cell] = colour;
        if colour == 1 || colour == 2 {
            self.hash ^= disc_key(colour, square);
        }
    }

    fn directions(&self) -> [isize; 8] {
        let width = self.width() as isize;
        [
            1,
            -1,
            width,
            -width,
            width + 1,
            width - 1,
            1 - width,
            -1 - width,
        ]
    }

    /// The cells `colour` flips by playing on empty `cell`, written into `out`; returns how many.
    fn flips(&self, cell: usize, colour: u8, out: &mut [usize; 4 * MAX_SIZE * 2]) -> usize {
        let other = 3 - colour;
        let mut count = 0;
        for direction in self.directions() {
            let mut at = cell as isize + direction;
            let start = count;
            while self.cells[at as usize] == other {
                out[count] = at as usize;
                count += 1;
                at += direction;
            }
            if self.cells[at as usize] != colour {
                count = start;
            }
        }
        count
    }

    fn has_flip(&self, cell: usize, colour: u8) -> bool {
        let other = 3 - colour;
        self.directions().iter().any(|&direction| {
            let mut at = cell as isize + direction;
            if self.cells[at as usize] != other {
                return false;
            }
            while self.cells[at as usize] == other {
                at += direction;
            }
            self.cells[at as usize] == colour
        })
    }

    fn colour_to_move(&self) -> u8 {
        self.side as u8 + 1
    }

    fn squares(&self) -> impl Iterator<Item = usize> {
        0..self.size * self.size
    }

    fn can_move(&self, colour: u8) -> bool {
        self.squares().any(|square| {
            let cell = self.cell(square);
            self.cells[cell] == EMPTY && self.has_flip(cell, colour)
        })
    }

    fn counts(&self) -> (i32, i32) {
        self.squares().fold((0, 0), |(black, white), square| {
            match self.cells[self.cell(square)] {
                1 => (black + 1, white),
                2 => (black, white + 1),
                _ => (black, white),
            }
        })
    }

    /// The final disc difference for the side to move, empties to the winner.
    pub fn final_score(&self) -> i32 {
        let (black, white) = self.counts();
        let empties = (self.size * self.size) as i32 - black - white;
        let difference = black - white;
        let for_black = difference + difference.signum() * empties;
        if self.side == 0 {
            for_black
        } else {
            -for_black
        }
    }

    fn cells_row_major(&self) -> Vec<u8> {
        self.squares()
            .map(|square| self.cells[self.cell(square)])
            .collect()
    }
}

impl Rules for GeneralReversi {
    type Move = ReversiMove;

    type Undo = GeneralReversi;

    fn name(&self) -> &'static str {
        "reversi"
    }

    fn options(&self) -> Vec<(String, String)> {
        vec![("size".to_string(), self.size.to_string())]
    }

    fn player_count(&self) -> usize {
        2
    }

    fn side_to_move(&self) -> Player {
        self.side
    }

    fn generate_moves(&self, moves: &mut Vec<ReversiMove>) {
        moves.clear();
        let colour = self.colour_to_move();
        for square in self.squares() {
            let cell = self.cell(square);
            if self.cells[cell] == EMPTY && self.has_flip(cell, colour) {
                moves.push(ReversiMove(square as u16));
            }
        }
        if moves.is_empty() && self.can_move(3 - colour) {
            moves.push(ReversiMove::PASS);
        }
    }

    fn is_legal(&self, mv: ReversiMove) -> bool {
        let colour = self.colour_to_move();
        if mv.is_pass() {
            return !self.can_move(colour) && self.can_move(3 - colour);
        }
        if mv.square() >= self.size * self.size {
            return false;
        }
        let cell = self.cell(mv.square());
        self.cells[cell] == EMPTY && self.has_flip(cell, colour)
    }

    fn play_unchecked(&mut self, mv: ReversiMove) -> GeneralReversi {
        let before = *self;
        if !mv.is_pass() {
            let colour = self.colour_to_move();
            let cell = self.cell(mv.square());
            let mut flipped = [0usize; 4 * MAX_SIZE * 2];
            let count = self.flips(cell, colour, &mut flipped);
            let width = self.width();
            for &flip in &flipped[..count] {
                let square = ((flip - 1) / width - 1) * self.size + (flip - 1) % width;
                self.set(square, colour);
            }
            self.set(mv.square(), colour);
        }
        self.side ^= 1;
        self.hash ^= SIDE_KEY;
        before
    }

    fn undo(&mut self, _mv: ReversiMove, undo: GeneralReversi) {
        *self = undo;
    }

    fn illegal_reason(&self, mv: ReversiMove) -> String {
        let colour = self.colour_to_move();
        notation::illegal_reason(mv, self.can_move(colour), || {
            mv.square() < self.size * self.size && self.cells[self.cell(mv.square())] != EMPTY
        })
    }

    fn forced_pass(&self) -> Option<ReversiMove> {
        let colour = self.colour_to_move();
        (!self.can_move(colour) && self.can_move(3 - colour)).then_some(ReversiMove::PASS)
    }

    fn move_from_code(&self, code: u16) -> Option<ReversiMove> {
        ((code as usize) < self.size * self.size || code == ReversiMove::PASS.0)
            .then_some(ReversiMove(code))
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.can_move(1) || self.can_move(2) {
            return None;
        }
        Some(notation::outcome_from_score(self.side, self.final_score()))
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn recompute_hash(&self) -> u64 {
        let mut hash = if self.side == 1 { SIDE_KEY } else { 0 };
        for square in self.squares() {
            let colour = self.cells[self.cell(square)];
            if colour == 1 || colour == 2 {
                hash ^= disc_key(colour, square);
            }
        }
        hash
    }

    fn parse_move(&self, text: &str) -> Result<ReversiMove, GameError> {
        notation::parse_move(text, self.size)
    }

    fn format_move(&self, mv: ReversiMove) -> String {
        notation::format_move(mv, self.size)
    }

    fn position_string(&self) -> String {
        notation::write_position(&self.cells_row_major(), self.side)
    }

    fn set_position_string(&mut self, text: &str) -> Result<(), GameError> {
        let (cells, side) = notation::read_position(text, self.size)?;
        let mut board = GeneralReversi::new(self.size)?;
        for (square, &cell) in cells.iter().enumerate() {
            board.set(square, cell);
        }
        if side != 0 {
            board.side = 1;
            board.hash ^= SIDE_KEY;
        }
        *self = board;
        Ok(())
    }

    fn diagram(&self) -> String {
        let colour = self.colour_to_move();
        let cells: Vec<u8> = self
            .squares()
            .map(|square| {
                let cell = self.cell(square);
                match self.cells[cell] {
                    EMPTY if self.has_flip(cell, colour) => 3,
                    other => other,
                }
            })
            .collect();
        notation::diagram(&cells, self.size, self.side, self.outcome())
    }

    fn start_position(&self) -> GeneralReversi {
        GeneralReversi::new(self.size).expect("the size was valid before")
    }
}

impl SearchHooks for GeneralReversi {
    fn evaluate(&self, perspective: Player, strength: Strength) -> i32 {
        let own = perspective as u8 + 1;
        let (black, white) = self.counts();
        let discs = if own == 1 {
            black - white
        } else {
            white - black
        };
        if strength.0 <= 1 {
            return discs * super::evaluation::DISC;
        }
        let last = self.size - 1;
        let corners = [0, last, last * self.size, last * self.size + last];
        let corner_balance: i32 = corners
            .iter()
            .map(|&square| match self.cells[self.cell(square)] {
                EMPTY => 0,
                colour if colour == own => 1,
                _ => -1,
            })
            .sum();
        let mobility = |colour: u8| {
            self.squares()
                .filter(|&square| {
                    let cell = self.cell(square);
                    self.cells[cell] == EMPTY && self.has_flip(cell, colour)
                })
                .count() as i32
        };
        let filled = (black + white) as usize * 60 / (self.size * self.size);
        let disc_weight = if filled > 45 { 40 } else { -5 };
        let value =
            corner_balance * 700 + (mobility(own) - mobility(3 - own)) * 80 + discs * disc_weight;
        value.clamp(
            -crate::base::score::MAX_EVALUATION + 1,
            crate::base::score::MAX_EVALUATION - 1,
        )
    }

    fn expected_moves_left(&self) -> u32 {
        let (black, white) = self.counts();
        ((self.size * self.size) as u32 - (black + white) as u32)
            .div_ceil(2)
            .max(1)
    }

    fn score_unit(&self) -> ScoreUnit {
        super::evaluation::UNIT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_by_eight_agrees_with_published_perft() {
        let mut board = GeneralReversi::new(8).unwrap();
        let expected = [1, 4, 12, 56, 244, 1396, 8200, 55092];
        for (depth, &count) in expected.iter().enumerate() {
            assert_eq!(
                crate::game::perft::perft(&mut board, depth),
                count,
                "depth {depth}"
            );
        }
    }

    #[test]
    fn odd_and_out_of_range_sizes_are_refused() {
        for size in [0, 2, 3, 7, 18] {
            assert!(GeneralReversi::new(size).is_err(), "{size}");
        }
    }

    #[test]
    fn consistency_on_every_size() {
        for size in (MIN_SIZE..=MAX_SIZE).step_by(2) {
            let games = if size <= 10 { 20 } else { 3 };
            crate::game::consistency::check_random_games(
                &GeneralReversi::new(size).unwrap(),
                games,
                300,
                3,
            );
        }
    }
}
