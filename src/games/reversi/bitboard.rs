//! 8x8 Reversi bitboards: legal-move masks, flips, last-move flip counts and stable discs.
//!
//! Bit `row * 8 + column` is a square, with a1 = bit 0, h1 = bit 7 and a8 = bit 56 (row 1 at the top).
//! The board is kept relative to the side to move: `player` holds its discs, `opponent` the others.
//!
//! The kernels ([`Kernels`]) have two implementations, chosen at run time ([`crate::base::cpu`]): AVX2
//! (one 256-bit vector holds the four line directions, so a shift by `[1, 8, 9, 7]` moves every
//! lane at once) with PEXT table look-ups for `last_flip_count` and pattern indices, and a portable
//! scalar one. Hot loops (perft, the endgame solver, the evaluation) are generic over [`Kernels`]
//! and compiled once per instruction set; the free functions here choose per call, for the rest.
//! The tests check both implementations against slow scans.

use crate::base::cpu::{self, InstructionSet, Portable};

/// Every square but the a- and h-files, to stop horizontal and diagonal shifts wrapping around.
const INNER_COLUMNS: u64 = 0x7E7E_7E7E_7E7E_7E7E;
/// The a-file.
const FILE_A: u64 = 0x0101_0101_0101_0101;
/// The h-file.
const FILE_H: u64 = 0x8080_8080_8080_8080;
/// Rows 1 and 8.
const TOP_AND_BOTTOM: u64 = 0xFF00_0000_0000_00FF;
/// Every edge square.
const EDGES: u64 = FILE_A | FILE_H | TOP_AND_BOTTOM;

/// The bit of a square.
#[inline(always)]
pub const fn bit(square: usize) -> u64 {
    1u64 << square
}

/// The bitboard kernels of one instruction set. Its value proves the CPU can run them.
pub trait Kernels: InstructionSet {
    /// The legal moves of `player` against `opponent`, as a mask of empty squares.
    fn moves(self, player: u64, opponent: u64) -> u64;

    /// The opponent discs that a move by `player` on the empty `square` (below 64) flips; 0 when
    /// the move is illegal.
    fn flips(self, square: usize, player: u64, opponent: u64) -> u64;

    /// For each move in `moves` (legal moves of `player`), the number of legal replies of the
    /// opponent, counting 1 where it has none; summed. This is perft's last two plies with bulk
    /// counting.
    fn count_replies(self, player: u64, opponent: u64, moves: u64) -> u64;

    /// The number of discs `player` flips by playing `square` when every other square is full
    /// (the last empty square; the opponent holds the rest). 0 when the move is illegal.
    fn last_flip_count(self, square: usize, player: u64) -> u32;

    /// Masks of the filled rows, columns, diagonals and anti-diagonals.
    fn full_lines(self, occupied: u64) -> [u64; 4];

    /// The bits of `board` under `mask`, packed to the low end in square order (PEXT).
    fn extract(self, board: u64, mask: u64) -> u64;

    /// Whether `player` has any legal move.
    #[inline(always)]
    fn can_move(self, player: u64, opponent: u64) -> bool {
        self.moves(player, opponent) != 0
    }

    /// Discs of `player` that can never be flipped. A disc is stable when each of its four lines
    /// is full, leaves the board on one side, or holds a stable disc of the same colour beside it.
    /// This is a lower bound on the truly stable discs: enough for evaluation and endgame cut-offs.
    #[inline(always)]
    fn stable_discs(self, player: u64, opponent: u64) -> u64 {
        let [rows, columns, diagonals, anti_diagonals] = self.full_lines(player | opponent);
        // Lines that are full or end at the edge protect a disc in that direction outright.
        let west_east_base = rows | FILE_A | FILE_H;
        let north_south_base = columns | TOP_AND_BOTTOM;
        let diagonal_base = diagonals | EDGES;
        let anti_diagonal_base = anti_diagonals | EDGES;
        let mut stable =
            player & west_east_base & north_south_base & diagonal_base & anti_diagonal_base;
        if stable == 0 {
            return 0;
        }
        loop {
            let west_east = west_east_base | ((stable << 1) & !FILE_A) | ((stable >> 1) & !FILE_H);
            let north_south = north_south_base | (stable << 8) | (stable >> 8);
            let diagonal = diagonal_base | ((stable << 9) & !FILE_A) | ((stable >> 9) & !FILE_H);
            let anti_diagonal =
                anti_diagonal_base | ((stable << 7) & !FILE_H) | ((stable >> 7) & !FILE_A);
            let grown = stable | (player & west_east & north_south & diagonal & anti_diagonal);
            if grown == stable {
                return stable;
            }
            stable = grown;
        }
    }
}

impl Kernels for Portable {
    #[inline(always)]
    fn moves(self, player: u64, opponent: u64) -> u64 {
        scalar::moves(player, opponent)
    }

    #[inline(always)]
    fn flips(self, square: usize, player: u64, opponent: u64) -> u64 {
        debug_assert!(square < 64);
        scalar::flips(square, player, opponent)
    }

    #[inline(always)]
    fn count_replies(self, player: u64, opponent: u64, moves: u64) -> u64 {
        scalar::count_replies(player, opponent, moves)
    }

    /// Without PEXT: the flips themselves, counted.
    #[inline(always)]
    fn last_flip_count(self, square: usize, player: u64) -> u32 {
        debug_assert!(square < 64 && player & bit(square) == 0);
        scalar::flips(square, player, !player & !bit(square)).count_ones()
    }

    #[inline(always)]
    fn full_lines(self, occupied: u64) -> [u64; 4] {
        scalar::full_lines(occupied)
    }

    #[inline(always)]
    fn extract(self, board: u64, mask: u64) -> u64 {
        software_extract(board, mask)
    }
}

#[cfg(target_arch = "x86_64")]
impl Kernels for cpu::Avx2 {
    #[inline(always)]
    fn moves(self, player: u64, opponent: u64) -> u64 {
        // Safety: an `Avx2` value exists only on a CPU with AVX2.
        unsafe { simd::moves(player, opponent) }
    }

    #[inline(always)]
    fn flips(self, square: usize, player: u64, opponent: u64) -> u64 {
        debug_assert!(square < 64);
        // Safety: an `Avx2` value exists only on a CPU with AVX2.
        unsafe { simd::flips(square, player, opponent) }
    }

    #[inline(always)]
    fn count_replies(self, player: u64, opponent: u64, moves: u64) -> u64 {
        // Safety: an `Avx2` value exists only on a CPU with AVX2 and POPCNT.
        unsafe { simd::count_replies(player, opponent, moves) }
    }

    #[inline(always)]
    fn last_flip_count(self, square: usize, player: u64) -> u32 {
        debug_assert!(square < 64 && player & bit(square) == 0);
        // Safety: an `Avx2` value exists only on a CPU with BMI2.
        unsafe { last_flips::count(square, player) }
    }

    #[inline(always)]
    fn full_lines(self, occupied: u64) -> [u64; 4] {
        // Safety: an `Avx2` value exists only on a CPU with AVX2.
        unsafe { simd::full_lines(occupied) }
    }

    #[inline(always)]
    fn extract(self, board: u64, mask: u64) -> u64 {
        // Safety: an `Avx2` value exists only on a CPU with BMI2.
        unsafe { core::arch::x86_64::_pext_u64(board, mask) }
    }
}

/// [`Kernels::moves`] with the chosen instruction set, for code outside the hot loops (a kernel
/// call: no closure, so the choice costs a load and a branch).
pub fn moves(player: u64, opponent: u64) -> u64 {
    cpu::dispatch!(cpu => cpu.moves(player, opponent))
}

/// [`Kernels::can_move`] with the chosen instruction set, for code outside the hot loops.
pub fn can_move(player: u64, opponent: u64) -> bool {
    moves(player, opponent) != 0
}

/// [`Kernels::flips`] with the chosen instruction set, for code outside the hot loops.
pub fn flips(square: usize, player: u64, opponent: u64) -> u64 {
    cpu::dispatch!(cpu => cpu.flips(square, player, opponent))
}

/// [`Kernels::stable_discs`] with the chosen instruction set, for code outside the hot loops.
pub fn stable_discs(player: u64, opponent: u64) -> u64 {
    cpu::dispatch!(cpu => cpu.run(|| cpu.stable_discs(player, opponent)))
}

/// PEXT one mask bit at a time: the bits of `board` under `mask`, packed to the low end.
pub const fn software_extract(board: u64, mask: u64) -> u64 {
    let mut result = 0;
    let mut remaining = mask;
    let mut out = 0;
    while remaining != 0 {
        let lowest = remaining & remaining.wrapping_neg();
        if board & lowest != 0 {
            result |= 1 << out;
        }
        out += 1;
        remaining &= remaining - 1;
    }
    result
}

/// The squares of `mask`, lowest first.
#[inline]
pub fn squares(mask: u64) -> Squares {
    Squares(mask)
}

/// Iterator over the squares of a mask (see [`squares`]).
pub struct Squares(u64);

impl Iterator for Squares {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let square = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(square)
    }
}

/// Line directions as (column step, row step), in the order of the vector lanes: the first four raise
/// the bit index by 1, 8, 9 and 7, the last four lower it by the same.
const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (0, 1),
    (1, 1),
    (-1, 1),
    (-1, 0),
    (0, -1),
    (-1, -1),
    (1, -1),
];

/// For each square and direction, the squares strictly beyond it to the board edge; 32-byte aligned
/// so that a square's four upward (or downward) rays are one aligned vector load.
#[repr(C, align(32))]
struct Rays([[u64; 8]; 64]);

static RAYS: Rays = Rays(build_rays());

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

/// The portable implementations.
mod scalar {
    use super::{bit, FILE_A, FILE_H, INNER_COLUMNS, RAYS};

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

    #[inline]
    pub fn moves(player: u64, opponent: u64) -> u64 {
        let inner = opponent & INNER_COLUMNS;
        let reach = line_moves(player, inner, 1)
            | line_moves(player, opponent, 8)
            | line_moves(player, inner, 7)
            | line_moves(player, inner, 9);
        reach & !(player | opponent)
    }

    /// Toward higher bits, adding the ray's first bit to `opponent | !ray` carries through the run of
    /// opponent discs (and the off-ray bits) and stops on the first square past it. Toward lower bits,
    /// the highest non-opponent ray square is found with a leading-zero count.
    #[inline]
    pub fn flips(square: usize, player: u64, opponent: u64) -> u64 {
        let rays = &RAYS.0[square & 63];
        let mut flipped = 0;
        for &ray in &rays[..4] {
            let first = ray & ray.wrapping_neg();
            let outflank = (opponent | !ray).wrapping_add(first) & player & ray;
            let found = ((outflank != 0) as u64).wrapping_neg();
            flipped |= outflank.wrapping_sub(first) & ray & found;
        }
        for &ray in &rays[4..] {
            let stoppers = ray & !opponent;
            let outflank =
                (0x8000_0000_0000_0000u64 >> (stoppers | 1).leading_zeros()) & player & ray;
            flipped |= ray & !(outflank << 1).wrapping_sub(1);
        }
        flipped
    }

    #[inline]
    pub fn count_replies(player: u64, opponent: u64, moves: u64) -> u64 {
        let mut total = 0;
        for square in super::squares(moves) {
            let flipped = flips(square, player, opponent);
            let replies = self::moves(opponent ^ flipped, player ^ flipped ^ bit(square));
            total += replies.count_ones() as u64 + (replies == 0) as u64;
        }
        total
    }

    /// Masks of the filled rows, columns, diagonals and anti-diagonals, without loops: rows and columns
    /// by folding the board onto itself, diagonals by spreading each empty square along its line (a
    /// fill by 1, 2 and 4 steps each way) and keeping what no empty square reached.
    #[inline]
    pub fn full_lines(occupied: u64) -> [u64; 4] {
        const NOT_A: u64 = !FILE_A;
        const NOT_AB: u64 = !(FILE_A | (FILE_A << 1));
        const NOT_AD: u64 = !(FILE_A * 0x0F);
        const NOT_H: u64 = !FILE_H;
        const NOT_GH: u64 = !(FILE_H | (FILE_H >> 1));
        const NOT_EH: u64 = !(FILE_A * 0xF0);

        let mut row_full = occupied;
        row_full &= row_full >> 4;
        row_full &= row_full >> 2;
        row_full &= row_full >> 1;
        let rows = (row_full & FILE_A) * 0xFF;

        let mut column_full = occupied;
        column_full &= column_full >> 32;
        column_full &= column_full >> 16;
        column_full &= column_full >> 8;
        let columns = (column_full & 0xFF) * FILE_A;

        let empty = !occupied;
        // Diagonals (steps of 9: one column right and one row down the board per step).
        let mut up = empty;
        up |= (up << 9) & NOT_A;
        up |= (up << 18) & NOT_AB;
        up |= (up << 36) & NOT_AD;
        let mut down = empty;
        down |= (down >> 9) & NOT_H;
        down |= (down >> 18) & NOT_GH;
        down |= (down >> 36) & NOT_EH;
        let diagonals = !(up | down);

        // Anti-diagonals (steps of 7: one column left per step up the bits).
        let mut up = empty;
        up |= (up << 7) & NOT_H;
        up |= (up << 14) & NOT_GH;
        up |= (up << 28) & NOT_EH;
        let mut down = empty;
        down |= (down >> 7) & NOT_A;
        down |= (down >> 14) & NOT_AB;
        down |= (down >> 28) & NOT_AD;
        let anti_diagonals = !(up | down);

        [rows, columns, diagonals, anti_diagonals]
    }
}

/// AVX2: lane `i` of a vector works on direction `i` of [`DIRECTIONS`] (shifts by 1, 8, 9 and 7),
/// upward with a left shift and downward with a right shift. Callers must make sure that the CPU
/// has AVX2 (and POPCNT for `count_replies`): [`Kernels for cpu::Avx2`](Kernels) does.
#[cfg(target_arch = "x86_64")]
mod simd {
    use super::{bit, FILE_A, INNER_COLUMNS, RAYS};
    use std::arch::x86_64::*;

    /// The shift of each lane's direction.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn lane_shifts() -> __m256i {
        _mm256_set_epi64x(7, 9, 8, 1)
    }

    /// Opponent discs that may be flipped in each lane's direction: not on the a- or h-file, except
    /// for the vertical lane.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn lane_wraps() -> __m256i {
        let inner = INNER_COLUMNS as i64;
        _mm256_set_epi64x(inner, inner, -1, inner)
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    fn broadcast(value: u64) -> __m256i {
        _mm256_set1_epi64x(value as i64)
    }

    /// The OR of the four lanes.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn or_lanes(vector: __m256i) -> u64 {
        let half = _mm_or_si128(
            _mm256_castsi256_si128(vector),
            _mm256_extracti128_si256::<1>(vector),
        );
        _mm_cvtsi128_si64(_mm_or_si128(half, _mm_unpackhi_epi64(half, half))) as u64
    }

    /// The OR of the four lanes, in every lane: keeps a result in vector registers for the next step.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn or_lanes_broadcast(vector: __m256i) -> __m256i {
        let vector = _mm256_or_si256(vector, _mm256_permute4x64_epi64::<0b01_00_11_10>(vector));
        _mm256_or_si256(vector, _mm256_shuffle_epi32::<0b01_00_11_10>(vector))
    }

    /// The squares reached in each lane's direction (both ways) from `player` over opponent runs; the
    /// scalar `line_moves` four at a time, before masking to empty squares.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn moves_vector(player: __m256i, opponent: __m256i) -> __m256i {
        let shift = lane_shifts();
        let double = _mm256_add_epi64(shift, shift);
        let mask = _mm256_and_si256(opponent, lane_wraps());
        let mut up = _mm256_and_si256(mask, _mm256_sllv_epi64(player, shift));
        let mut down = _mm256_and_si256(mask, _mm256_srlv_epi64(player, shift));
        up = _mm256_or_si256(up, _mm256_and_si256(mask, _mm256_sllv_epi64(up, shift)));
        down = _mm256_or_si256(down, _mm256_and_si256(mask, _mm256_srlv_epi64(down, shift)));
        let pairs_up = _mm256_and_si256(mask, _mm256_sllv_epi64(mask, shift));
        let pairs_down = _mm256_srlv_epi64(pairs_up, shift);
        up = _mm256_or_si256(
            up,
            _mm256_and_si256(pairs_up, _mm256_sllv_epi64(up, double)),
        );
        down = _mm256_or_si256(
            down,
            _mm256_and_si256(pairs_down, _mm256_srlv_epi64(down, double)),
        );
        up = _mm256_or_si256(
            up,
            _mm256_and_si256(pairs_up, _mm256_sllv_epi64(up, double)),
        );
        down = _mm256_or_si256(
            down,
            _mm256_and_si256(pairs_down, _mm256_srlv_epi64(down, double)),
        );
        _mm256_or_si256(_mm256_sllv_epi64(up, shift), _mm256_srlv_epi64(down, shift))
    }

    /// The flips of each lane's two directions (unreduced).
    ///
    /// Upward: adding the ray's first bit to `opponent | !ray` carries through the opponent run and
    /// lands on the square past it, the outflank if it holds a player disc. Downward: the highest
    /// non-opponent ray square is isolated by clearing every stopper lying below another (a fill of
    /// the stoppers shifted down by 1, 2 and 4 steps); the flips are the ray squares above it.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn flips_vector(square: usize, player: __m256i, opponent: __m256i) -> __m256i {
        let rays = &RAYS.0[square & 63];
        let up = _mm256_set_epi64x(
            rays[3] as i64,
            rays[2] as i64,
            rays[1] as i64,
            rays[0] as i64,
        );
        let down = _mm256_set_epi64x(
            rays[7] as i64,
            rays[6] as i64,
            rays[5] as i64,
            rays[4] as i64,
        );
        let zero = _mm256_setzero_si256();
        let ones = _mm256_cmpeq_epi64(zero, zero);

        let first = _mm256_and_si256(up, _mm256_sub_epi64(zero, up));
        let blockers = _mm256_or_si256(opponent, _mm256_andnot_si256(up, ones));
        let outflank = _mm256_and_si256(
            _mm256_and_si256(_mm256_add_epi64(blockers, first), player),
            up,
        );
        let flipped_up = _mm256_and_si256(_mm256_sub_epi64(outflank, first), up);
        let flipped_up = _mm256_andnot_si256(_mm256_cmpeq_epi64(outflank, zero), flipped_up);

        let shift = lane_shifts();
        let double = _mm256_add_epi64(shift, shift);
        let quadruple = _mm256_add_epi64(double, double);
        let stoppers = _mm256_andnot_si256(opponent, down);
        let mut below = _mm256_srlv_epi64(stoppers, shift);
        below = _mm256_or_si256(below, _mm256_srlv_epi64(below, shift));
        below = _mm256_or_si256(below, _mm256_srlv_epi64(below, double));
        below = _mm256_or_si256(below, _mm256_srlv_epi64(below, quadruple));
        let outflank = _mm256_and_si256(_mm256_andnot_si256(below, stoppers), player);
        let flipped_down = _mm256_and_si256(
            down,
            _mm256_sub_epi64(zero, _mm256_add_epi64(outflank, outflank)),
        );
        _mm256_or_si256(flipped_up, flipped_down)
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    pub fn moves(player: u64, opponent: u64) -> u64 {
        or_lanes(moves_vector(broadcast(player), broadcast(opponent))) & !(player | opponent)
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    pub fn flips(square: usize, player: u64, opponent: u64) -> u64 {
        or_lanes(flips_vector(square, broadcast(player), broadcast(opponent)))
    }

    /// Keeps each child in vector registers from its flips to its move generation, and works on three
    /// children at a time so that their long, independent dependency chains overlap.
    #[target_feature(enable = "avx2,popcnt")]
    #[inline]
    pub fn count_replies(player: u64, opponent: u64, mut moves: u64) -> u64 {
        let player_vector = broadcast(player);
        let opponent_vector = broadcast(opponent);
        let empty = !(player | opponent);
        let mut total = 0;
        while moves.count_ones() >= 3 {
            total += count_some_replies::<3>(&mut moves, player_vector, opponent_vector, empty);
        }
        total += match moves.count_ones() {
            2 => count_some_replies::<2>(&mut moves, player_vector, opponent_vector, empty),
            1 => count_some_replies::<1>(&mut moves, player_vector, opponent_vector, empty),
            _ => 0,
        };
        total
    }

    /// [`count_replies`] for the `N` lowest moves of `moves`, which it clears.
    #[target_feature(enable = "avx2,popcnt")]
    #[inline]
    fn count_some_replies<const N: usize>(
        moves: &mut u64,
        player: __m256i,
        opponent: __m256i,
        empty: u64,
    ) -> u64 {
        let mut squares = [0usize; N];
        for square in &mut squares {
            *square = moves.trailing_zeros() as usize;
            *moves &= *moves - 1;
        }
        let mut flipped = [_mm256_setzero_si256(); N];
        for (flipped, &square) in flipped.iter_mut().zip(&squares) {
            *flipped = or_lanes_broadcast(flips_vector(square, player, opponent));
        }
        let mut reach = [_mm256_setzero_si256(); N];
        for index in 0..N {
            let next_player = _mm256_xor_si256(opponent, flipped[index]);
            let placed = broadcast(bit(squares[index]));
            let next_opponent = _mm256_xor_si256(player, _mm256_or_si256(flipped[index], placed));
            reach[index] = moves_vector(next_player, next_opponent);
        }
        let mut total = 0;
        for (&reach, &square) in reach.iter().zip(&squares) {
            let replies = or_lanes(reach) & empty & !bit(square);
            total += replies.count_ones() as u64 + (replies == 0) as u64;
        }
        total
    }

    /// Full lines four at a time: lane `i` spreads the empty squares along direction `i` both ways
    /// (steps of 1, 2 and 4, masked so that no step wraps around the board), and a line is full where
    /// no empty square reached.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub fn full_lines(occupied: u64) -> [u64; 4] {
        const fn not_files(files: u64) -> i64 {
            !(files * FILE_A) as i64
        }
        // Files a, a-b, a-d and h, g-h, e-h: where a step right (left) by 1, 2, 4 lands after wrapping.
        let (a, ab, ad) = (not_files(0x01), not_files(0x03), not_files(0x0F));
        let (h, gh, eh) = (not_files(0x80), not_files(0xC0), not_files(0xF0));
        let shift = lane_shifts();
        let double = _mm256_add_epi64(shift, shift);
        let quadruple = _mm256_add_epi64(double, double);
        let empty = broadcast(!occupied);
        // Lanes (high to low): anti-diagonal (7, leftward), diagonal (9), column (8), row (1).
        let mut up = empty;
        let step = _mm256_sllv_epi64(up, shift);
        up = _mm256_or_si256(up, _mm256_and_si256(step, _mm256_set_epi64x(h, a, -1, a)));
        let step = _mm256_sllv_epi64(up, double);
        up = _mm256_or_si256(
            up,
            _mm256_and_si256(step, _mm256_set_epi64x(gh, ab, -1, ab)),
        );
        let step = _mm256_sllv_epi64(up, quadruple);
        up = _mm256_or_si256(
            up,
            _mm256_and_si256(step, _mm256_set_epi64x(eh, ad, -1, ad)),
        );
        let mut down = empty;
        let step = _mm256_srlv_epi64(down, shift);
        down = _mm256_or_si256(down, _mm256_and_si256(step, _mm256_set_epi64x(a, h, -1, h)));
        let step = _mm256_srlv_epi64(down, double);
        down = _mm256_or_si256(
            down,
            _mm256_and_si256(step, _mm256_set_epi64x(ab, gh, -1, gh)),
        );
        let step = _mm256_srlv_epi64(down, quadruple);
        down = _mm256_or_si256(
            down,
            _mm256_and_si256(step, _mm256_set_epi64x(ad, eh, -1, eh)),
        );
        let reached = _mm256_or_si256(up, down);
        let low = _mm256_castsi256_si128(reached);
        let high = _mm256_extracti128_si256::<1>(reached);
        [
            !_mm_cvtsi128_si64(low) as u64,
            !_mm_extract_epi64::<1>(low) as u64,
            !_mm_cvtsi128_si64(high) as u64,
            !_mm_extract_epi64::<1>(high) as u64,
        ]
    }
}

/// The last-move flip count by table: the four lines through the square are gathered with PEXT into
/// 8-bit patterns, and a table gives the flips along a line from the square's place in the pattern.
#[cfg(target_arch = "x86_64")]
mod last_flips {
    use std::arch::x86_64::_pext_u64;

    /// A square's four lines (row, column, diagonal, anti-diagonal) and, for each, where its counts
    /// start in [`COUNTS`]: 256 times the square's index among the line's squares in bit order.
    #[repr(C, align(64))]
    struct Lines {
        masks: [u64; 4],
        offsets: [u16; 4],
    }

    static LINES: [Lines; 64] = build_lines();

    /// `COUNTS[256 * place + pattern]`: discs flipped along a line by playing its square at `place`,
    /// where `pattern` has the player discs and every other square but `place` is the opponent's.
    /// Lines shorter than 8 leave high pattern bits 0: read as opponent discs with no player disc
    /// beyond, they flip nothing, which is right.
    static COUNTS: [u8; 2048] = build_counts();

    const fn build_lines() -> [Lines; 64] {
        let mut lines = [const {
            Lines {
                masks: [0; 4],
                offsets: [0; 4],
            }
        }; 64];
        let mut square = 0;
        while square < 64 {
            let (column, row) = ((square % 8) as i32, (square / 8) as i32);
            let masks = &mut lines[square].masks;
            let mut other = 0;
            while other < 64 {
                let (other_column, other_row) = (other % 8, other / 8);
                let b = 1u64 << other;
                if other_row == row {
                    masks[0] |= b;
                }
                if other_column == column {
                    masks[1] |= b;
                }
                if other_column - other_row == column - row {
                    masks[2] |= b;
                }
                if other_column + other_row == column + row {
                    masks[3] |= b;
                }
                other += 1;
            }
            let mut line = 0;
            while line < 4 {
                let place = (lines[square].masks[line] & ((1u64 << square) - 1)).count_ones();
                lines[square].offsets[line] = (place * 256) as u16;
                line += 1;
            }
            square += 1;
        }
        lines
    }

    const fn build_counts() -> [u8; 2048] {
        let mut counts = [0u8; 2048];
        let mut place = 0;
        while place < 8 {
            let mut pattern = 0;
            while pattern < 256 {
                let mut total = 0;
                // Upward, then downward along the line.
                let mut run = 0;
                let mut index = place + 1;
                while index < 8 && pattern & (1 << index) == 0 {
                    run += 1;
                    index += 1;
                }
                if index < 8 {
                    total += run;
                }
                run = 0;
                let mut index = place as i32 - 1;
                while index >= 0 && pattern & (1 << index) == 0 {
                    run += 1;
                    index -= 1;
                }
                if index >= 0 {
                    total += run;
                }
                counts[place * 256 + pattern] = total;
                pattern += 1;
            }
            place += 1;
        }
        counts
    }

    #[target_feature(enable = "bmi2")]
    #[inline]
    pub fn count(square: usize, player: u64) -> u32 {
        let lines = &LINES[square & 63];
        let mut total = 0;
        for (&mask, &offset) in lines.masks.iter().zip(&lines.offsets) {
            total += COUNTS[(offset as usize + _pext_u64(player, mask) as usize) & 2047] as u32;
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START_BLACK: u64 = bit(28) | bit(35);
    const START_WHITE: u64 = bit(27) | bit(36);

    /// Random boards, in turn about 3/4 full, half full, 1/4 full, and full but for one square.
    fn random_boards(seed: u64, count: usize) -> impl Iterator<Item = (u64, u64)> {
        let mut state = seed;
        (0..count).map(move |index| {
            state = crate::base::zobrist::mix(state);
            let occupied = match index % 4 {
                0 => state | crate::base::zobrist::mix(state ^ 3),
                1 => state,
                2 => state & crate::base::zobrist::mix(state ^ 3),
                _ => !(1u64 << (state % 64)),
            };
            let player = occupied & crate::base::zobrist::mix(state ^ 1);
            (player, occupied & !player)
        })
    }

    #[test]
    fn start_moves_are_d3_c4_f5_e6() {
        let squares = [19, 26, 37, 44]; // d3 c4 f5 e6
        let expected = squares.iter().fold(0, |mask, &square| mask | bit(square));
        assert_eq!(moves(START_BLACK, START_WHITE), expected);
        cpu::for_each_set!(cpu => assert_eq!(cpu.moves(START_BLACK, START_WHITE), expected));
    }

    #[test]
    fn flips_and_moves_match_a_slow_scan() {
        cpu::for_each_set!(cpu => flips_and_moves_match(cpu));
    }

    fn flips_and_moves_match<K: Kernels>(cpu: K) {
        for (player, opponent) in random_boards(0x1234_5678_9ABC_DEF1, 20_000) {
            let mut slow_moves = 0;
            for square in 0..64 {
                if (player | opponent) & bit(square) != 0 {
                    continue;
                }
                let slow = slow_flips(square, player, opponent);
                assert_eq!(cpu.flips(square, player, opponent), slow, "{}", K::NAME);
                if slow != 0 {
                    slow_moves |= bit(square);
                }
            }
            assert_eq!(cpu.moves(player, opponent), slow_moves, "{}", K::NAME);
        }
    }

    #[test]
    fn count_replies_matches_move_by_move_counting() {
        cpu::for_each_set!(cpu => count_replies_match(cpu));
    }

    fn count_replies_match<K: Kernels>(cpu: K) {
        for (player, opponent) in random_boards(0x0BAD_CAFE, 5_000) {
            let legal = cpu.moves(player, opponent);
            let mut expected = 0;
            for square in (0..64).filter(|&square| legal & bit(square) != 0) {
                let flipped = slow_flips(square, player, opponent);
                let (next_player, next_opponent) =
                    (opponent ^ flipped, player ^ flipped ^ bit(square));
                let replies = (0..64)
                    .filter(|&reply| {
                        (next_player | next_opponent) & bit(reply) == 0
                            && slow_flips(reply, next_player, next_opponent) != 0
                    })
                    .count() as u64;
                expected += replies.max(1);
            }
            let counted = cpu.count_replies(player, opponent, legal);
            assert_eq!(counted, expected, "{}", K::NAME);
        }
    }

    #[test]
    fn last_flip_count_matches_a_slow_scan() {
        cpu::for_each_set!(cpu => last_flip_count_matches(cpu));
    }

    fn last_flip_count_matches<K: Kernels>(cpu: K) {
        let mut state = 0x5EED_u64;
        for _ in 0..50_000 {
            state = crate::base::zobrist::mix(state);
            let square = (state % 64) as usize;
            let player = crate::base::zobrist::mix(state ^ 7) & !bit(square);
            // Bias some boards toward few player discs, where long runs get flipped.
            let player = if state & 0x100 != 0 {
                player & crate::base::zobrist::mix(state ^ 9)
            } else {
                player
            };
            let opponent = !player & !bit(square);
            let slow = slow_flips(square, player, opponent).count_ones();
            assert_eq!(
                cpu.last_flip_count(square, player),
                slow,
                "{} square {square} player {player:#x}",
                K::NAME
            );
            assert_eq!(
                cpu.last_flip_count(square, opponent),
                slow_flips(square, opponent, player).count_ones(),
                "{}",
                K::NAME
            );
        }
    }

    #[test]
    fn full_lines_match_a_line_by_line_check() {
        cpu::for_each_set!(cpu => full_lines_match(cpu));
    }

    fn full_lines_match<K: Kernels>(cpu: K) {
        for (player, opponent) in random_boards(0xF011_11E5, 20_000) {
            let occupied = player | opponent;
            let expected = slow_full_lines(occupied);
            let found = cpu.full_lines(occupied);
            assert_eq!(found, expected, "{} {occupied:#x}", K::NAME);
        }
        assert_eq!(cpu.full_lines(!0), [!0; 4]);
        assert_eq!(cpu.full_lines(0), [0; 4]);
    }

    #[test]
    fn stable_discs_match_the_iterative_definition() {
        cpu::for_each_set!(cpu => stable_discs_match(cpu));
    }

    fn stable_discs_match<K: Kernels>(cpu: K) {
        for (player, opponent) in random_boards(0x57AB_1E00, 20_000) {
            let expected = slow_stable_discs(player, opponent);
            assert_eq!(cpu.stable_discs(player, opponent), expected, "{}", K::NAME);
            let expected = slow_stable_discs(opponent, player);
            assert_eq!(cpu.stable_discs(opponent, player), expected, "{}", K::NAME);
        }
    }

    #[test]
    fn extract_matches_a_bit_by_bit_gather() {
        cpu::for_each_set!(cpu => extract_matches(cpu));
    }

    fn extract_matches<K: Kernels>(cpu: K) {
        for (player, opponent) in random_boards(0xE7AC_7000, 20_000) {
            // Masks sparse and dense, over boards that share some of their squares.
            let (board, mask) = (player | opponent.rotate_left(19), opponent);
            let mut expected = 0;
            for (place, square) in squares(mask).enumerate() {
                expected |= (board >> square & 1) << place;
            }
            assert_eq!(cpu.extract(board, mask), expected, "{}", K::NAME);
            assert_eq!(software_extract(board, mask), expected);
        }
    }

    /// Every disc reported stable stays put in random playouts from random late positions.
    #[test]
    fn stable_discs_never_flip_in_random_playouts() {
        let mut state = 0xD15C_u64;
        let mut checked = 0u64;
        for _ in 0..300 {
            // A random game to a random ply in the last half.
            let (mut player, mut opponent) = (START_BLACK, START_WHITE);
            state = crate::base::zobrist::mix(state);
            let stop = 30 + state % 30;
            let mut ply = 0;
            while ply < stop && !random_move(&mut player, &mut opponent, &mut state) {
                ply += 1;
            }
            let (mine, theirs) = (
                stable_discs(player, opponent),
                stable_discs(opponent, player),
            );
            checked += (mine | theirs).count_ones() as u64;
            for _ in 0..20 {
                let (mut p, mut o, mut player_turn) = (player, opponent, true);
                let mut playout = state;
                loop {
                    let (first, second) = if player_turn { (p, o) } else { (o, p) };
                    assert_eq!(
                        first & mine,
                        mine,
                        "a stable disc of the side to move flipped"
                    );
                    assert_eq!(
                        second & theirs,
                        theirs,
                        "a stable disc of the other side flipped"
                    );
                    if random_move(&mut p, &mut o, &mut playout) {
                        break;
                    }
                    player_turn = !player_turn;
                }
                state = playout;
            }
        }
        assert!(
            checked > 1000,
            "too few stable discs were checked: {checked}"
        );
    }

    /// Plays a random legal move (or passes) and swaps sides; true when the game is over.
    fn random_move(player: &mut u64, opponent: &mut u64, state: &mut u64) -> bool {
        let legal = moves(*player, *opponent);
        if legal == 0 {
            if moves(*opponent, *player) == 0 {
                return true;
            }
        } else {
            *state = crate::base::zobrist::mix(*state);
            let mut pick = legal;
            for _ in 0..(*state % legal.count_ones() as u64) {
                pick &= pick - 1;
            }
            let square = pick.trailing_zeros() as usize;
            let flipped = slow_flips(square, *player, *opponent);
            *player ^= flipped | bit(square);
            *opponent ^= flipped;
        }
        std::mem::swap(player, opponent);
        false
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

    /// The squares of the line through `square` with steps (column, row) both ways.
    fn slow_line(square: usize, column_step: i32, row_step: i32) -> u64 {
        let mut line = bit(square);
        for sign in [1, -1] {
            let mut column = (square % 8) as i32 + sign * column_step;
            let mut row = (square / 8) as i32 + sign * row_step;
            while (0..8).contains(&column) && (0..8).contains(&row) {
                line |= bit((row * 8 + column) as usize);
                column += sign * column_step;
                row += sign * row_step;
            }
        }
        line
    }

    fn slow_full_lines(occupied: u64) -> [u64; 4] {
        let mut full = [0u64; 4];
        for square in 0..64 {
            for (index, (column_step, row_step)) in
                [(1, 0), (0, 1), (1, 1), (-1, 1)].into_iter().enumerate()
            {
                let line = slow_line(square, column_step, row_step);
                if occupied & line == line {
                    full[index] |= bit(square);
                }
            }
        }
        full
    }

    /// The stability definition square by square: grow the set of stable discs until it stops, where
    /// a disc joins when, on each of its four lines, the line is full, or one neighbour along it is off
    /// the board or already stable.
    fn slow_stable_discs(player: u64, opponent: u64) -> u64 {
        let occupied = player | opponent;
        let mut stable = 0u64;
        loop {
            let mut grown = stable;
            for square in (0..64).filter(|&square| player & bit(square) != 0) {
                let (column, row) = ((square % 8) as i32, (square / 8) as i32);
                let protected =
                    [(1, 0), (0, 1), (1, 1), (-1, 1)]
                        .into_iter()
                        .all(|(column_step, row_step)| {
                            let line = slow_line(square, column_step, row_step);
                            occupied & line == line
                                || [1, -1].into_iter().any(|sign| {
                                    let (c, r) =
                                        (column + sign * column_step, row + sign * row_step);
                                    !(0..8).contains(&c)
                                        || !(0..8).contains(&r)
                                        || stable & bit((r * 8 + c) as usize) != 0
                                })
                        });
                if protected {
                    grown |= bit(square);
                }
            }
            if grown == stable {
                return stable;
            }
            stable = grown;
        }
    }
}
