//! Board geometry and the line masks: the incremental tables of Gomoku.
//!
//! A point is `y * size + x`, with `x` the column from the left and `y` the row from the top (the
//! Gomocup convention). Every point lies on four lines (a row, a column, a diagonal and an
//! anti-diagonal); each line keeps one bit mask per colour, with bit `offset` for the point at that
//! offset along the line. Win checks, renju checks and move scores read these masks directly
//! instead of scanning the board. The threat data (`super::patterns`, `super::threats`) is
//! derived from these masks.

use std::sync::OnceLock;

/// Smallest supported board side.
pub const MIN_SIZE: usize = 5;
/// Largest supported board side.
pub const MAX_SIZE: usize = 22;
/// Points on the largest board.
pub const MAX_POINTS: usize = MAX_SIZE * MAX_SIZE;
/// Lines on the largest board: rows, columns, and two diagonal families of `2 * size - 1` each.
pub const MAX_LINES: usize = 6 * MAX_SIZE - 2;
/// The four directions: horizontal, vertical, diagonal (down-right) and anti-diagonal (down-left).
pub const DIRECTIONS: usize = 4;

/// Where a point lies on one of its four lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Placement {
    /// The line index.
    pub line: u8,
    /// The bit of the point within the line.
    pub offset: u8,
}

/// The lines of one board size.
#[derive(Debug)]
pub struct Geometry {
    /// The board side.
    pub size: usize,
    /// The number of lines.
    pub line_count: usize,
    /// Points on each line.
    pub lengths: [u8; MAX_LINES],
    /// The point at offset 0 of each line.
    pub starts: [u16; MAX_LINES],
    /// The point step from one offset to the next along each line.
    pub steps: [u16; MAX_LINES],
    /// The four placements of every point, by direction.
    pub placements: [[Placement; DIRECTIONS]; MAX_POINTS],
}

impl Geometry {
    fn build(size: usize) -> Geometry {
        let mut geometry = Geometry {
            size,
            line_count: 6 * size - 2,
            lengths: [0; MAX_LINES],
            starts: [0; MAX_LINES],
            steps: [0; MAX_LINES],
            placements: [[Placement::default(); DIRECTIONS]; MAX_POINTS],
        };
        for y in 0..size {
            for x in 0..size {
                let point = y * size + x;
                let diagonal = x + size - 1 - y;
                let anti_diagonal = x + y;
                let first_anti_row = anti_diagonal.saturating_sub(size - 1);
                let lines = [
                    (y, x, y * size, 1, size),
                    (size + x, y, x, size, size),
                    (
                        2 * size + diagonal,
                        x.min(y),
                        if x >= y { x - y } else { (y - x) * size },
                        size + 1,
                        size - x.abs_diff(y),
                    ),
                    (
                        4 * size - 1 + anti_diagonal,
                        y - first_anti_row,
                        first_anti_row * size + anti_diagonal - first_anti_row,
                        size - 1,
                        size - anti_diagonal.abs_diff(size - 1),
                    ),
                ];
                for (direction, (line, offset, start, step, length)) in
                    lines.into_iter().enumerate()
                {
                    geometry.placements[point][direction] = Placement {
                        line: line as u8,
                        offset: offset as u8,
                    };
                    geometry.lengths[line] = length as u8;
                    geometry.starts[line] = start as u16;
                    geometry.steps[line] = step as u16;
                }
            }
        }
        geometry
    }

    /// The point at `offset` along `line`.
    #[inline]
    pub fn point(&self, line: usize, offset: usize) -> usize {
        self.starts[line] as usize + offset * self.steps[line] as usize
    }

    /// The bits of `line` that lie on the board.
    #[inline]
    pub fn line_mask(&self, line: usize) -> u32 {
        (1u32 << self.lengths[line]) - 1
    }
}

/// The geometry of a `size`x`size` board, built on first use and shared.
///
/// # Panics
/// When `size` is outside [`MIN_SIZE`]..=[`MAX_SIZE`].
pub fn geometry(size: usize) -> &'static Geometry {
    static GEOMETRIES: [OnceLock<Box<Geometry>>; MAX_SIZE + 1] =
        [const { OnceLock::new() }; MAX_SIZE + 1];
    assert!((MIN_SIZE..=MAX_SIZE).contains(&size), "board size {size}");
    GEOMETRIES[size].get_or_init(|| Box::new(Geometry::build(size)))
}

/// Points off the board coded beyond each end of a line in [`LineCodes`]: a pattern window
/// reaches five points past its centre.
const CODE_PADDING: usize = 5;

/// Every line's cells coded two bits each, for the pair tables (`super::patterns::PairTable`):
/// 0 empty, 1 black, 2 white, 3 off the board; the cell at `offset` is at bit
/// `2 * (offset + 5)`, so that the window of any point on the line is one shift away.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineCodes([u64; MAX_LINES]);

impl LineCodes {
    /// The codes of the empty board of `geometry`.
    pub fn empty(geometry: &Geometry) -> LineCodes {
        let mut codes = [0; MAX_LINES];
        for (line, code) in codes.iter_mut().enumerate().take(geometry.line_count) {
            let end = 2 * (usize::from(geometry.lengths[line]) + CODE_PADDING);
            let beyond = if end >= 64 { 0 } else { !0u64 << end };
            *code = ((1 << (2 * CODE_PADDING)) - 1) | beyond;
        }
        LineCodes(codes)
    }

    /// Puts a stone of `colour` on, or takes it off, the empty or `colour` cell at `placement`.
    #[inline]
    pub fn toggle(&mut self, placement: Placement, colour: usize) {
        self.0[placement.line as usize] ^=
            (colour as u64 + 1) << (2 * (usize::from(placement.offset) + CODE_PADDING));
    }

    /// The code of `line`.
    #[inline]
    pub fn line(&self, line: usize) -> u64 {
        self.0[line]
    }
}

/// The length of the run of `stones` through bit `offset` (which must be set for a non-zero run).
#[inline]
pub fn run_length(stones: u32, offset: u32) -> u32 {
    let above = (stones >> offset).trailing_ones();
    // The bits below `offset`, moved to the top of a word; offset 0 leaves nothing.
    let below = ((u64::from(stones) << (32 - offset)) as u32).leading_ones();
    above + below
}

/// Start bits of the five-point windows of a line that hold no opponent stone, and of those, the
/// windows holding exactly 1..=5 own stones (index `k - 1`).
#[inline]
pub fn window_masks(own: u32, opponent: u32, length: u32) -> [u32; 5] {
    if length < 5 {
        return [0; 5];
    }
    let starts = (1u32 << (length - 4)) - 1;
    let free = !(opponent | opponent >> 1 | opponent >> 2 | opponent >> 3 | opponent >> 4) & starts;
    // A bit-sliced count of own stones in each window: two full adders and a half adder.
    let (a, b, c, d, e) = (own, own >> 1, own >> 2, own >> 3, own >> 4);
    let sum_abc = a ^ b ^ c;
    let carry_abc = (a & b) | (c & (a ^ b));
    let ones = sum_abc ^ d ^ e;
    let carry_de = (sum_abc & d) | (e & (sum_abc ^ d));
    let twos = carry_abc ^ carry_de;
    let fours = carry_abc & carry_de;
    [
        free & ones & !twos & !fours,
        free & !ones & twos & !fours,
        free & ones & twos & !fours,
        free & !ones & !twos & fours,
        free & ones & !twos & fours,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_point_lies_on_four_distinct_lines_consistently() {
        for size in MIN_SIZE..=MAX_SIZE {
            let geometry = geometry(size);
            for point in 0..size * size {
                for placement in geometry.placements[point] {
                    let line = placement.line as usize;
                    assert!(line < geometry.line_count);
                    assert!(placement.offset < geometry.lengths[line]);
                    assert_eq!(geometry.point(line, placement.offset as usize), point);
                }
            }
            let total: usize = geometry.lengths[..geometry.line_count]
                .iter()
                .map(|&length| length as usize)
                .sum();
            assert_eq!(total, 4 * size * size);
        }
    }

    #[test]
    fn runs_count_both_sides() {
        assert_eq!(run_length(0b0111_1100, 4), 5);
        assert_eq!(run_length(0b1, 0), 1);
        assert_eq!(run_length(0b1111_1111, 0), 8);
        assert_eq!(run_length(0b1111_1111, 7), 8);
        assert_eq!(run_length(0b1101_1011, 3), 2);
    }
}
