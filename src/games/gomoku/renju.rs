//! Renju's forbidden points for black: overline, double-four and double-three.
//!
//! Definitions, for a black stone played on point `p` (all of them about lines through `p`):
//! - **five**: a run of exactly five black stones through `p`. A five wins and is never forbidden,
//!   even when the same stone also makes an overline, a double-four or a double-three elsewhere.
//! - **overline**: a run of six or more black stones through `p`.
//! - **four**: an empty point `c` on the line such that black on `c` makes a run of exactly five
//!   that contains `p`. A straight four (`.XXXX.`, two such points five apart around the same four
//!   stones) is one four; two such points around different stones (`X.XXX.X`, `XX.XX.XX`) are two
//!   fours on one line.
//! - **three**: on a line with no four, an empty point `c` such that black on `c` makes a straight
//!   four containing `p` and `c` (four in a row, both ends empty, each end making exactly five),
//!   *and `c` is itself not forbidden* once `p` is black. That last condition recurses.
//! - A move is forbidden when it makes no five and makes an overline, two or more fours, or two or
//!   more threes (one per line at most).
//!
//! Each direction is classified by a table over the eleven points centred on `p` (five each side,
//! enough to see every five, overline and straight four through `p`), indexed in base 3 (empty,
//! black, blocked by white or the edge).

use super::lines::{Geometry, Placement, DIRECTIONS, MAX_LINES};
use super::patterns::{squeeze, TERNARY};
use std::sync::OnceLock;

/// Why a point is forbidden for black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Forbidden {
    /// Six or more in a row.
    Overline,
    /// Two or more fours at once.
    DoubleFour,
    /// Two or more threes at once.
    DoubleThree,
}

impl Forbidden {
    /// The rule's usual name: `overline`, `double-four`, `double-three`.
    pub fn name(self) -> &'static str {
        match self {
            Forbidden::Overline => "overline",
            Forbidden::DoubleFour => "double-four",
            Forbidden::DoubleThree => "double-three",
        }
    }
}

/// The points on each side of the centre in a window.
const REACH: usize = 5;
/// Non-centre points of a window.
const SIDE_POINTS: usize = 2 * REACH;
/// Number of windows: three states for each non-centre point.
const TABLE_SIZE: usize = 59_049; // 3^10

// Table entry layout.
const RUN_MASK: u16 = 0b11;
const RUN_FIVE: u16 = 1;
const RUN_OVERLINE: u16 = 2;
const FOURS_SHIFT: u16 = 2;
const THREES_SHIFT: u16 = 4;
/// The offsets from the centre that a three's completion point can have, by bit of the entry's
/// three field.
const THREE_DELTAS: [isize; 6] = [-3, -2, -1, 1, 2, 3];

const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const BLOCKED: u8 = 2;

fn table() -> &'static [u16] {
    static TABLE: OnceLock<Vec<u16>> = OnceLock::new();
    TABLE.get_or_init(|| (0..TABLE_SIZE).map(classify_window).collect())
}

/// The run of black through `index` in a window, as an inclusive span.
fn black_span(cells: &[u8; 2 * REACH + 1], index: usize) -> (usize, usize) {
    let mut low = index;
    while low > 0 && cells[low - 1] == BLACK {
        low -= 1;
    }
    let mut high = index;
    while high < 2 * REACH && cells[high + 1] == BLACK {
        high += 1;
    }
    (low, high)
}

/// Classifies the window with base-3 index `index` (centre black): see the entry layout.
fn classify_window(index: usize) -> u16 {
    let mut cells = [EMPTY; 2 * REACH + 1];
    let mut rest = index;
    for side in 0..SIDE_POINTS {
        let cell = if side < REACH { side } else { side + 1 };
        cells[cell] = [EMPTY, BLACK, BLOCKED][rest % 3];
        rest /= 3;
    }
    cells[REACH] = BLACK;
    let (low, high) = black_span(&cells, REACH);
    let run = high - low + 1;
    if run == 5 {
        return RUN_FIVE;
    }
    if run > 5 {
        return RUN_OVERLINE;
    }
    // Fours: completion points that make exactly five through the centre.
    let mut completions = [0usize; 2];
    let mut four_count = 0;
    for point in REACH - 4..=REACH + 4 {
        if cells[point] != EMPTY {
            continue;
        }
        cells[point] = BLACK;
        let (low, high) = black_span(&cells, REACH);
        if high - low + 1 == 5 && (low..=high).contains(&point) {
            completions[four_count] = point;
            four_count += 1;
        }
        cells[point] = EMPTY;
    }
    let fours = if four_count == 2 && completions[1] - completions[0] == 5 {
        1
    } else {
        four_count as u16
    };
    // Three completions: points that make a straight four through the centre.
    let mut threes = 0u16;
    for (bit, delta) in THREE_DELTAS.iter().enumerate() {
        let point = (REACH as isize + delta) as usize;
        if cells[point] != EMPTY {
            continue;
        }
        cells[point] = BLACK;
        let (low, high) = black_span(&cells, REACH);
        let straight = high - low + 1 == 4
            && (low..=high).contains(&point)
            && cells[low - 1] == EMPTY
            && cells[high + 1] == EMPTY
            && cells[low - 2] != BLACK
            && cells[high + 2] != BLACK;
        if straight {
            threes |= 1 << bit;
        }
        cells[point] = EMPTY;
    }
    (fours << FOURS_SHIFT) | (threes << THREES_SHIFT)
}

/// Black stones assumed on top of the board while a three's completion point is checked.
struct Assumed {
    points: [u16; MAX_ASSUMED],
    count: usize,
}

/// Deepest chain of assumed stones in the recursive three check. Real positions stay far below;
/// beyond it a completion point is taken as allowed.
const MAX_ASSUMED: usize = 32;

/// The stones a renju check reads: black and white line masks of one board.
pub struct Board<'a> {
    /// The board's lines.
    pub geometry: &'a Geometry,
    /// Black stones, by line.
    pub black: &'a [u32; MAX_LINES],
    /// White stones, by line.
    pub white: &'a [u32; MAX_LINES],
}

impl Board<'_> {
    /// Whether black on the empty point `point` (with black to move) is forbidden, and why. The
    /// caller filters points first with the threat data ([`super::threats`]): only a point with
    /// two threes by the patterns needs this full check.
    pub fn forbidden(&self, point: usize) -> Option<Forbidden> {
        let mut assumed = Assumed {
            points: [0; MAX_ASSUMED],
            count: 0,
        };
        self.check(point, &mut assumed)
    }

    /// The table entry of `point`'s line `placement`, with the assumed stones added.
    fn entry(&self, placement: Placement, direction: usize, assumed: &Assumed) -> u16 {
        let line = placement.line as usize;
        let mut black = self.black[line];
        for &other in &assumed.points[..assumed.count] {
            let other_placement = self.geometry.placements[other as usize][direction];
            if other_placement.line == placement.line {
                black |= 1 << other_placement.offset;
            }
        }
        let length = u32::from(self.geometry.lengths[line]);
        let black = ((u64::from(black) << REACH) >> placement.offset) & 0x7FF;
        let blocked = (((u64::from(self.white[line]) << REACH)
            | 0x1F
            | (!0u64 << (length as usize + REACH)))
            >> placement.offset)
            & 0x7FF;
        let index = TERNARY[squeeze(black)] as usize + 2 * TERNARY[squeeze(blocked)] as usize;
        table()[index]
    }

    fn check(&self, point: usize, assumed: &mut Assumed) -> Option<Forbidden> {
        let placements = self.geometry.placements[point];
        let mut entries = [0u16; DIRECTIONS];
        for direction in 0..DIRECTIONS {
            entries[direction] = self.entry(placements[direction], direction, assumed);
        }
        if entries.iter().any(|entry| entry & RUN_MASK == RUN_FIVE) {
            return None;
        }
        if entries.iter().any(|entry| entry & RUN_MASK == RUN_OVERLINE) {
            return Some(Forbidden::Overline);
        }
        let fours: u16 = entries
            .iter()
            .map(|entry| (entry >> FOURS_SHIFT) & 0b11)
            .sum();
        if fours >= 2 {
            return Some(Forbidden::DoubleFour);
        }
        let is_three_line =
            |entry: u16| (entry >> FOURS_SHIFT) & 0b11 == 0 && entry >> THREES_SHIFT != 0;
        let mut remaining = entries
            .iter()
            .filter(|&&entry| is_three_line(entry))
            .count();
        if remaining < 2 || assumed.count == MAX_ASSUMED {
            return None;
        }
        assumed.points[assumed.count] = point as u16;
        assumed.count += 1;
        let mut threes = 0;
        for direction in 0..DIRECTIONS {
            let entry = entries[direction];
            if !is_three_line(entry) {
                continue;
            }
            remaining -= 1;
            let placement = placements[direction];
            let mut completions = entry >> THREES_SHIFT;
            while completions != 0 {
                let bit = completions.trailing_zeros() as usize;
                completions &= completions - 1;
                let offset = (placement.offset as isize + THREE_DELTAS[bit]) as usize;
                let completion = self.geometry.point(placement.line as usize, offset);
                if self.check(completion, assumed).is_none() {
                    threes += 1;
                    break;
                }
            }
            if threes >= 2 || threes + remaining < 2 {
                break;
            }
        }
        assumed.count -= 1;
        (threes >= 2).then_some(Forbidden::DoubleThree)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table entry of a window written as text: `X` black, `O` blocked, `.` empty, the
    /// centre (index 5) must be `X`.
    fn entry_of(text: &str) -> u16 {
        let cells: Vec<u8> = text
            .bytes()
            .map(|byte| match byte {
                b'X' => BLACK,
                b'O' => BLOCKED,
                _ => EMPTY,
            })
            .collect();
        assert_eq!(cells.len(), 11);
        assert_eq!(cells[5], BLACK);
        let mut index = 0;
        let mut power = 1;
        for (cell, &state) in cells.iter().enumerate() {
            if cell != REACH {
                index += state as usize * power;
                power *= 3;
            }
        }
        classify_window(index)
    }

    #[test]
    fn windows_classify() {
        assert_eq!(entry_of("...XXXXX..."), RUN_FIVE);
        assert_eq!(entry_of("..XXXXXX..."), RUN_OVERLINE);
        assert_eq!(entry_of("X.XXXX....."), 1 << FOURS_SHIFT); // the five point would make six
        assert_eq!(entry_of("....XXXX..."), 1 << FOURS_SHIFT); // straight four: one four
        assert_eq!(entry_of("...X.XXX.X."), 2 << FOURS_SHIFT); // X.XXX.X
        assert_eq!(entry_of("..XX.XX.XX."), 2 << FOURS_SHIFT); // XX.XX.XX
        assert_eq!(entry_of(".XX.XX.XX.."), 2 << FOURS_SHIFT); // centre on the middle pair
        assert_eq!(entry_of("....XX.XX.X"), 1 << FOURS_SHIFT); // centre on an outer pair

        // ...XXX... with the centre at the right end: completions at -3 and +1.
        let open = entry_of("...XXX.....");
        assert_eq!(open & RUN_MASK, 0);
        assert_eq!(open >> FOURS_SHIFT & 0b11, 0);
        assert_eq!(open >> THREES_SHIFT, 0b1001);
        // A three against the wall is no three.
        assert_eq!(entry_of("..OXXX....."), 0);
        // .X.XX. is a split three with a single completion point.
        assert_eq!(entry_of("...X.XX...."), 1 << (THREES_SHIFT + 2));
        // X.XXX against a wall: one four, and no three beside it.
        assert_eq!(entry_of(".X.XXX.O..."), 1 << FOURS_SHIFT);
    }
}
