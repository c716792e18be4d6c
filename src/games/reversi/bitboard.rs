//! 8x8 Reversi bitboards: legal-move masks and flips.
//!
//! Bit `row * 8 + column` is a square, with a1 = bit 0, h1 = bit 7 and a8 = bit 56 (row 1 at the top).
//! The board is kept relative to the side to move: `player` holds its discs, `opponent` the others.

/// Every square but the a- and h-files, to stop horizontal and diagonal shifts wrapping around.
const INNER_COLUMNS: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// The bit of a square.
#[inline(always)]
pub const fn bit(square: usize) -> u64 {
    1u64 << square
}

/// Squares reached from `player` discs over a contiguous run of `mask`ed opponent discs along one
/// line direction (`shift` and its opposite), by parallel prefix: runs of 1 and 2, then doubling.
#[inline(always)]
fn line_moves(player: u64, mask: u64, shift: u32) -> u64 {
    let mut forward = mask & (player << shift);
    let mut backward = mask & (player >> shift);
    forward |= mask & (forward << shift);
    backward |= mask & (backward >> shift);
    let pairs_forward = mask & (mask << shift);
    let pairs_backward = pairs_forward >> shift;
    forward |= pairs_forward & (forward << (2 * shift));
    backward |= pairs_backward & (backward >> (2 * shift));
    forward |= pairs_forward & (forward << (2 * shift));
    backward |= pairs_backward & (backward >> (2 * shift));
    (forward << shift) | (backward >> shift)
}

/// The legal moves of `player` against `opponent`, as a mask of empty squares.
#[inline]
pub fn moves(player: u64, opponent: u64) -> u64 {
    let inner = opponent & INNER_COLUMNS;
    let reach = line_moves(player, inner, 1)
        | line_moves(player, opponent, 8)
        | line_moves(player, inner, 7)
        | line_moves(player, inner, 9);
    reach & !(player | opponent)
}

/// Whether `player` has any legal move.
#[inline]
pub fn can_move(player: u64, opponent: u64) -> bool {
    moves(player, opponent) != 0
}

/// Column and row steps of the eight directions: the first four raise the bit index, the last
/// four lower it.
const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
    (-1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
];

/// For each square and direction, the squares strictly beyond it to the board edge.
static RAYS: [[u64; 8]; 64] = build_rays();

const fn build_rays() -> [[u64; 8]; 64] {
    let mut rays = [[0u64; 8]; 64];
    let mut square = 0;
    while square < 64 {
        let mut direction = 0;
        while direction < 8 {
            let (column_step, row_step) = DIRECTIONS[direction];
            let mut column = (square % 8) as i32 + column_step;
            let mut row = (square / 8) as i32 + row_step;
            let mut ray = 0u64;
            while column >= 0 && column < 8 && row >= 0 && row < 8 {
                ray |= 1u64 << (row * 8 + column);
                column += column_step;
                row += row_step;
            }
            rays[square][direction] = ray;
            direction += 1;
        }
        square += 1;
    }
    rays
}

/// The opponent discs that a move by `player` on the empty `square` flips; 0 when the move is illegal.
///
/// Toward higher bits, adding the ray's first bit to `opponent | !ray` carries through the run of
/// opponent discs (and the off-ray bits) and stops on the first square past it. Toward lower bits, the
/// highest non-opponent ray square is found with a leading-zero count.
#[inline]
pub fn flips(square: usize, player: u64, opponent: u64) -> u64 {
    let rays = &RAYS[square];
    let mut flipped = 0;
    for &ray in &rays[..4] {
        let first = ray & ray.wrapping_neg();
        let outflank = (opponent | !ray).wrapping_add(first) & player & ray;
        let found = ((outflank != 0) as u64).wrapping_neg();
        flipped |= outflank.wrapping_sub(first) & ray & found;
    }
    for &ray in &rays[4..] {
        let stoppers = ray & !opponent;
        let outflank = (0x8000_0000_0000_0000u64 >> (stoppers | 1).leading_zeros()) & player & ray;
        flipped |= ray & !(outflank << 1).wrapping_sub(1);
    }
    flipped
}

/// The a-file.
const FILE_A: u64 = 0x0101_0101_0101_0101;
/// The h-file.
const FILE_H: u64 = 0x8080_8080_8080_8080;
/// Rows 1 and 8.
const TOP_AND_BOTTOM: u64 = 0xFF00_0000_0000_00FF;
/// Every edge square.
const EDGES: u64 = FILE_A | FILE_H | TOP_AND_BOTTOM;

/// Discs of `player` that can never be flipped. A disc is stable when each of its four lines is
/// full, leaves the board on one side, or holds a stable disc of the same colour beside it. This is
/// a lower bound on the truly stable discs: enough for evaluation and endgame cut-offs.
pub fn stable_discs(player: u64, opponent: u64) -> u64 {
    let [rows, columns, diagonals, anti_diagonals] = full_lines(player | opponent);
    let mut stable = 0u64;
    loop {
        let west_east =
            rows | FILE_A | FILE_H | ((stable << 1) & !FILE_A) | ((stable >> 1) & !FILE_H);
        let north_south = columns | TOP_AND_BOTTOM | (stable << 8) | (stable >> 8);
        let diagonal = diagonals | EDGES | ((stable << 9) & !FILE_A) | ((stable >> 9) & !FILE_H);
        let anti_diagonal =
            anti_diagonals | EDGES | ((stable << 7) & !FILE_H) | ((stable >> 7) & !FILE_A);
        let grown = stable | (player & west_east & north_south & diagonal & anti_diagonal);
        if grown == stable {
            return stable;
        }
        stable = grown;
    }
}

/// Masks of the filled rows, columns, diagonals and anti-diagonals.
fn full_lines(occupied: u64) -> [u64; 4] {
    let mut rows = 0u64;
    let mut columns = 0u64;
    for index in 0..8 {
        let row = 0xFFu64 << (8 * index);
        if occupied & row == row {
            rows |= row;
        }
        let column = FILE_A << index;
        if occupied & column == column {
            columns |= column;
        }
    }
    let mut diagonals = 0u64;
    let mut anti_diagonals = 0u64;
    for (&diagonal, &anti_diagonal) in DIAGONAL_LINES.iter().zip(ANTI_DIAGONAL_LINES.iter()) {
        if occupied & diagonal == diagonal {
            diagonals |= diagonal;
        }
        if occupied & anti_diagonal == anti_diagonal {
            anti_diagonals |= anti_diagonal;
        }
    }
    [rows, columns, diagonals, anti_diagonals]
}

/// The 15 lines parallel to a1-h8 (square steps of +9).
static DIAGONAL_LINES: [u64; 15] = build_lines(9);
/// The 15 lines parallel to h1-a8 (square steps of +7).
static ANTI_DIAGONAL_LINES: [u64; 15] = build_lines(7);

const fn build_lines(step: usize) -> [u64; 15] {
    let mut lines = [0u64; 15];
    let mut square = 0;
    while square < 64 {
        let column = square % 8;
        let row = square / 8;
        // Lines are indexed by column - row (step 9) or column + row (step 7).
        let index = if step == 9 {
            column - row + 7
        } else {
            column + row
        };
        lines[index as usize] |= 1u64 << square;
        square += 1;
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    const START_BLACK: u64 = bit(28) | bit(35);
    const START_WHITE: u64 = bit(27) | bit(36);

    #[test]
    fn start_moves_are_d3_c4_f5_e6() {
        let squares = [19, 26, 37, 44]; // d3 c4 f5 e6
        let expected = squares.iter().fold(0, |mask, &square| mask | bit(square));
        assert_eq!(moves(START_BLACK, START_WHITE), expected);
    }

    #[test]
    fn flips_match_a_slow_scan() {
        let mut state = 0x1234_5678_9ABC_DEF1u64;
        for _ in 0..20_000 {
            state = crate::zobrist::mix(state);
            let player = state & crate::zobrist::mix(state ^ 1);
            let opponent = crate::zobrist::mix(state ^ 2) & !player;
            for square in 0..64 {
                if (player | opponent) & bit(square) != 0 {
                    continue;
                }
                let slow = slow_flips(square, player, opponent);
                assert_eq!(flips(square, player, opponent), slow);
                assert_eq!(moves(player, opponent) & bit(square) != 0, slow != 0);
            }
        }
    }

    fn slow_flips(square: usize, player: u64, opponent: u64) -> u64 {
        let mut all = 0;
        for (column_step, row_step) in DIRECTIONS {
            let mut run = 0;
            let mut column = (square % 8) as i32 + column_step;
            let mut row = (square / 8) as i32 + row_step;
            while (0..8).contains(&column) && (0..8).contains(&row) {
                let here = bit((row * 8 + column) as usize);
                if opponent & here != 0 {
                    run |= here;
                } else {
                    if player & here != 0 {
                        all |= run;
                    }
                    break;
                }
                column += column_step;
                row += row_step;
            }
        }
        all
    }
}
