//! The geometry of the 121-hole star, in tables built at compile time.
//!
//! Holes are indexed 0..121 row by row from the top and left to right within a row (hole number
//! `index + 1` in text). Row lengths are 1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1.
//! A hole has "doubled" coordinates (`column`, `row`): the column runs from -12 (left tip of a
//! 13-hole row) to 12 in steps of 2 within a row, and the centre hole is (0, 8). Neighbours differ
//! by (±2, 0) or (±1, ±1).
//!
//! Camps are numbered 1..6 clockwise from the top: camp 1 is rows 0..3, and camp `k + 1` is camp 1
//! turned clockwise by `k` sixths of a turn about the centre. Camp 0 stands for the central hexagon.

/// The number of holes.
pub const HOLES: usize = 121;
/// The number of rows.
pub const ROWS: usize = 17;
/// Holes per row, top to bottom.
pub const ROW_LENGTHS: [usize; ROWS] = [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1];
/// The number of camps (star points).
pub const CAMPS: usize = 6;
/// Holes per camp.
pub const CAMP_SIZE: u32 = 10;
/// No hole: the end of a line, or a missing neighbour.
pub const NONE: u8 = u8::MAX;

/// The six directions as (column, row) offsets. East, south-east and south-west lead to higher
/// hole indices, their opposites (`direction + 3`) to lower ones.
pub const DIRECTIONS: [(i32, i32); 6] = [(2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1)];

/// The bit of a hole in a 121-hole mask.
#[inline(always)]
pub const fn bit(hole: usize) -> u128 {
    1u128 << hole
}

/// Every hole of the board.
pub const ALL_HOLES: u128 = (1u128 << HOLES) - 1;

/// The index of the first hole of each row.
pub const ROW_STARTS: [usize; ROWS] = {
    let mut starts = [0; ROWS];
    let mut row = 1;
    while row < ROWS {
        starts[row] = starts[row - 1] + ROW_LENGTHS[row - 1];
        row += 1;
    }
    starts
};

/// The row of each hole, 0 at the top.
pub const ROW_OF: [u8; HOLES] = {
    let mut rows = [0; HOLES];
    let mut row = 0;
    while row < ROWS {
        let mut index = 0;
        while index < ROW_LENGTHS[row] {
            rows[ROW_STARTS[row] + index] = row as u8;
            index += 1;
        }
        row += 1;
    }
    rows
};

/// The doubled column of each hole, -12..=12.
pub const COLUMN_OF: [i8; HOLES] = {
    let mut columns = [0; HOLES];
    let mut row = 0;
    while row < ROWS {
        let length = ROW_LENGTHS[row];
        let mut index = 0;
        while index < length {
            columns[ROW_STARTS[row] + index] = (2 * index as i32 - (length as i32 - 1)) as i8;
            index += 1;
        }
        row += 1;
    }
    columns
};

/// The hole at doubled coordinates (`column`, `row`), if the star has one there.
pub const fn hole_at(column: i32, row: i32) -> Option<usize> {
    if row < 0 || row >= ROWS as i32 {
        return None;
    }
    let length = ROW_LENGTHS[row as usize] as i32;
    let offset = column + length - 1;
    if offset < 0 || offset > 2 * (length - 1) || offset % 2 != 0 {
        return None;
    }
    Some(ROW_STARTS[row as usize] + (offset / 2) as usize)
}

/// `NEIGHBOURS[hole][direction]`: the adjacent hole, or [`NONE`].
pub const NEIGHBOURS: [[u8; 6]; HOLES] = {
    let mut table = [[NONE; 6]; HOLES];
    let mut hole = 0;
    while hole < HOLES {
        let mut direction = 0;
        while direction < 6 {
            let column = COLUMN_OF[hole] as i32 + DIRECTIONS[direction].0;
            let row = ROW_OF[hole] as i32 + DIRECTIONS[direction].1;
            if let Some(next) = hole_at(column, row) {
                table[hole][direction] = next as u8;
            }
            direction += 1;
        }
        hole += 1;
    }
    table
};

/// The holes adjacent to each hole.
pub static NEIGHBOUR_MASKS: [u128; HOLES] = {
    let mut masks = [0; HOLES];
    let mut hole = 0;
    while hole < HOLES {
        let mut direction = 0;
        while direction < 6 {
            let next = NEIGHBOURS[hole][direction];
            if next != NONE {
                masks[hole] |= bit(next as usize);
            }
            direction += 1;
        }
        hole += 1;
    }
    masks
};

/// A bit past the board that no mask ever holds: missing hops point there, so that a fixed
/// six-entry loop needs no bounds test.
pub const OFF_BOARD: u8 = 127;

/// One ordinary hop: the hole jumped over and the landing hole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hop {
    /// The adjacent hole that must hold a piece, or [`OFF_BOARD`].
    pub over: u8,
    /// The hole beyond it, which must be empty, or [`OFF_BOARD`].
    pub landing: u8,
}

/// The ordinary hops from each hole, one per direction; a hop off the board has both holes
/// [`OFF_BOARD`].
pub static HOPS: [[Hop; 6]; HOLES] = {
    let missing = Hop {
        over: OFF_BOARD,
        landing: OFF_BOARD,
    };
    let mut hops = [[missing; 6]; HOLES];
    let mut hole = 0;
    while hole < HOLES {
        let mut direction = 0;
        while direction < 6 {
            let over = NEIGHBOURS[hole][direction];
            if over != NONE {
                let landing = NEIGHBOURS[over as usize][direction];
                if landing != NONE {
                    hops[hole][direction] = Hop { over, landing };
                }
            }
            direction += 1;
        }
        hole += 1;
    }
    hops
};

/// [`HOPS`] as masks, `(over, landing)` per direction, both 0 for a hop off the board: move
/// generation tests the occupancy against masks loaded from this table, which took about a fifth
/// less CPU in six-player Monte-Carlo search than shifting a 128-bit one by the hole's index.
pub static HOP_MASKS: [[(u128, u128); 6]; HOLES] = {
    let mut masks = [[(0, 0); 6]; HOLES];
    let mut hole = 0;
    while hole < HOLES {
        let mut direction = 0;
        while direction < 6 {
            let hop = HOPS[hole][direction];
            if hop.over != OFF_BOARD {
                masks[hole][direction] = (bit(hop.over as usize), bit(hop.landing as usize));
            }
            direction += 1;
        }
        hole += 1;
    }
    masks
};

/// `REFLECTIONS[hole][centre]`: the hole as far beyond `centre` as `hole` is before it, or
/// [`NONE`]; a long jump from `hole` over a piece on `centre` lands there.
pub static REFLECTIONS: [[u8; HOLES]; HOLES] = {
    let mut table = [[NONE; HOLES]; HOLES];
    let mut hole = 0;
    while hole < HOLES {
        let mut centre = 0;
        while centre < HOLES {
            let column = 2 * COLUMN_OF[centre] as i32 - COLUMN_OF[hole] as i32;
            let row = 2 * ROW_OF[centre] as i32 - ROW_OF[hole] as i32;
            if centre != hole {
                if let Some(landing) = hole_at(column, row) {
                    table[hole][centre] = landing as u8;
                }
            }
            centre += 1;
        }
        hole += 1;
    }
    table
};

/// The longest line from a hole to the edge, in holes.
pub const MAX_LINE: usize = 16;

/// `LINES[hole][direction][k - 1]`: the hole `k` steps away along the line, or [`NONE`] past the edge.
pub const LINES: [[[u8; MAX_LINE]; 6]; HOLES] = {
    let mut table = [[[NONE; MAX_LINE]; 6]; HOLES];
    let mut hole = 0;
    while hole < HOLES {
        let mut direction = 0;
        while direction < 6 {
            let mut current = hole;
            let mut step = 0;
            while step < MAX_LINE {
                let next = NEIGHBOURS[current][direction];
                if next == NONE {
                    break;
                }
                table[hole][direction][step] = next;
                current = next as usize;
                step += 1;
            }
            direction += 1;
        }
        hole += 1;
    }
    table
};

/// `RAYS[hole][direction]`: every hole along the line from `hole` (itself excluded).
pub static RAYS: [[u128; 6]; HOLES] = {
    let mut table = [[0; 6]; HOLES];
    let mut hole = 0;
    while hole < HOLES {
        let mut direction = 0;
        while direction < 6 {
            let mut step = 0;
            while step < MAX_LINE && LINES[hole][direction][step] != NONE {
                table[hole][direction] |= bit(LINES[hole][direction][step] as usize);
                step += 1;
            }
            direction += 1;
        }
        hole += 1;
    }
    table
};

/// The hole of `mask` nearest to the start of a ray in `direction` (`mask` must not be empty).
#[inline(always)]
pub fn nearest(direction: usize, mask: u128) -> usize {
    // The first three directions lead to higher indices, the others to lower ones.
    if direction < 3 {
        mask.trailing_zeros() as usize
    } else {
        127 - mask.leading_zeros() as usize
    }
}

/// Doubled coordinates relative to the centre hole, turned clockwise by `sixths` sixths of a turn.
pub const fn rotate(column: i32, row: i32, sixths: usize) -> (i32, i32) {
    let mut column = column;
    let mut row = row - 8;
    let mut turn = 0;
    while turn < sixths % 6 {
        // Axial (a, b) with column = 2a + b and row = b; a sixth clockwise maps (a, b) to (-b, a + b).
        let a = (column - row) / 2;
        let b = row;
        column = a - b;
        row = a + b;
        turn += 1;
    }
    (column, row + 8)
}

/// The hole `hole` is moved to by turning the star clockwise by `sixths` sixths of a turn.
pub const fn rotate_hole(hole: usize, sixths: usize) -> usize {
    let (column, row) = rotate(COLUMN_OF[hole] as i32, ROW_OF[hole] as i32, sixths);
    match hole_at(column, row) {
        Some(turned) => turned,
        None => panic!("the star is symmetric under a sixth of a turn"),
    }
}

/// `CAMP_MASKS[camp]`: the ten holes of camps 1..6; entry 0 is the central hexagon.
pub const CAMP_MASKS: [u128; CAMPS + 1] = {
    let mut masks = [0; CAMPS + 1];
    let mut hole = 0;
    // Camp 1 is the top four rows; the others are it turned clockwise.
    while hole < ROW_STARTS[4] {
        let mut camp = 1;
        while camp <= CAMPS {
            masks[camp] |= bit(rotate_hole(hole, camp - 1));
            camp += 1;
        }
        hole += 1;
    }
    let mut centre = ALL_HOLES;
    let mut camp = 1;
    while camp <= CAMPS {
        centre &= !masks[camp];
        camp += 1;
    }
    masks[0] = centre;
    masks
};

/// The camp (1..6) of each hole, or 0 for the central hexagon.
pub const CAMP_OF: [u8; HOLES] = {
    let mut camps = [0; HOLES];
    let mut hole = 0;
    while hole < HOLES {
        let mut camp = 1;
        while camp <= CAMPS {
            if CAMP_MASKS[camp] & bit(hole) != 0 {
                camps[hole] = camp as u8;
            }
            camp += 1;
        }
        hole += 1;
    }
    camps
};

/// The camp opposite `camp` (1..6): a player starting in one aims for the other.
pub const fn opposite_camp(camp: usize) -> usize {
    (camp + 2) % CAMPS + 1
}

/// `GOAL_DISTANCES[camp][hole]`: how many rows the hole lies from the tip of camp 1..6, counted
/// along the star's axis through that camp (0 at the tip, 16 at the opposite tip).
pub const GOAL_DISTANCES: [[u8; HOLES]; CAMPS + 1] = {
    let mut table = [[0; HOLES]; CAMPS + 1];
    let mut camp = 1;
    while camp <= CAMPS {
        let mut hole = 0;
        while hole < HOLES {
            // Turn the star so that the camp lies at the bottom (camp 4), then count rows.
            let (_, row) = rotate(
                COLUMN_OF[hole] as i32,
                ROW_OF[hole] as i32,
                (CAMPS + 4 - camp) % CAMPS,
            );
            table[camp][hole] = (16 - row) as u8;
            hole += 1;
        }
        camp += 1;
    }
    table
};

/// `NOT_BEHIND[camp][distance]`: the holes at most `distance` rows from the tip of camp 1..6.
pub static NOT_BEHIND: [[u128; 17]; CAMPS + 1] = {
    let mut table = [[0; 17]; CAMPS + 1];
    let mut camp = 1;
    while camp <= CAMPS {
        let mut hole = 0;
        while hole < HOLES {
            let mut distance = GOAL_DISTANCES[camp][hole] as usize;
            while distance < 17 {
                table[camp][distance] |= bit(hole);
                distance += 1;
            }
            hole += 1;
        }
        camp += 1;
    }
    table
};

/// `SIDEWAYS[camp][hole]`: how far the hole lies to the side of the axis through camp 1..6, in
/// doubled columns beyond 4 (0 within the band as wide as the camp's mouth).
pub const SIDEWAYS: [[u8; HOLES]; CAMPS + 1] = {
    let mut table = [[0; HOLES]; CAMPS + 1];
    let mut camp = 1;
    while camp <= CAMPS {
        let mut hole = 0;
        while hole < HOLES {
            let (column, _) = rotate(
                COLUMN_OF[hole] as i32,
                ROW_OF[hole] as i32,
                (CAMPS + 4 - camp) % CAMPS,
            );
            let beyond = column.abs() - 4;
            table[camp][hole] = if beyond > 0 { beyond as u8 } else { 0 };
            hole += 1;
        }
        camp += 1;
    }
    table
};

/// The smallest sum of goal distances ten pieces can have: all of them in the goal camp.
pub const HOME_DISTANCE: u32 = 20;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_and_numbering() {
        assert_eq!(ROW_STARTS[16], 120);
        assert_eq!(hole_at(0, 0), Some(0));
        assert_eq!(hole_at(0, 8), Some(60));
        assert_eq!(hole_at(-12, 4), Some(10));
        assert_eq!(hole_at(12, 12), Some(ROW_STARTS[12] + 12));
        assert_eq!(hole_at(1, 0), None);
        assert_eq!(hole_at(0, 17), None);
        for hole in 0..HOLES {
            assert_eq!(
                hole_at(COLUMN_OF[hole] as i32, ROW_OF[hole] as i32),
                Some(hole)
            );
        }
    }

    #[test]
    fn adjacency_is_symmetric() {
        let mut links = 0;
        for (hole, neighbours) in NEIGHBOURS.iter().enumerate() {
            for (direction, &next) in neighbours.iter().enumerate() {
                if next != NONE {
                    links += 1;
                    assert_eq!(NEIGHBOURS[next as usize][(direction + 3) % 6], hole as u8);
                    let increasing = (next as usize) > hole;
                    assert_eq!(increasing, direction < 3);
                }
            }
        }
        // 6 links from each of the 61 hexagon holes... counted both ways: 2 * 300 edges.
        assert_eq!(links % 2, 0);
        assert_eq!(NEIGHBOUR_MASKS[60].count_ones(), 6);
        assert_eq!(NEIGHBOUR_MASKS[0].count_ones(), 2);
    }

    #[test]
    fn camps_are_clockwise_triangles() {
        let mut union = CAMP_MASKS[0];
        for camp in &CAMP_MASKS[1..] {
            assert_eq!(camp.count_ones(), CAMP_SIZE);
            assert_eq!(union & camp, 0);
            union |= camp;
        }
        assert_eq!(union, ALL_HOLES);
        assert_eq!(CAMP_MASKS[0].count_ones(), 61);
        assert_eq!(CAMP_MASKS[1], (1 << 10) - 1);
        assert_eq!(CAMP_MASKS[4], ((1 << 10) - 1) << 111);
        // Upper right: the right end of rows 4..7, starting with hole 23 (the end of row 4).
        assert_ne!(CAMP_MASKS[2] & bit(22), 0);
        assert_ne!(CAMP_OF[hole_at(12, 12).unwrap()], 0);
        assert_eq!(CAMP_OF[hole_at(12, 12).unwrap()], 3);
        assert_eq!(CAMP_OF[hole_at(-12, 12).unwrap()], 5);
        assert_eq!(CAMP_OF[hole_at(-12, 4).unwrap()], 6);
        assert_eq!(opposite_camp(1), 4);
        assert_eq!(opposite_camp(5), 2);
        assert_eq!(opposite_camp(6), 3);
    }

    #[test]
    fn distances_are_symmetric() {
        for camp in 1..=CAMPS {
            let mut sorted: Vec<u8> = GOAL_DISTANCES[camp].to_vec();
            sorted.sort_unstable();
            let mut bottom: Vec<u8> = GOAL_DISTANCES[4].to_vec();
            bottom.sort_unstable();
            assert_eq!(sorted, bottom);
            let home: u32 = (0..HOLES)
                .filter(|&hole| CAMP_MASKS[camp] & bit(hole) != 0)
                .map(|hole| GOAL_DISTANCES[camp][hole] as u32)
                .sum();
            assert_eq!(home, HOME_DISTANCE);
            let far: u32 = (0..HOLES)
                .filter(|&hole| CAMP_MASKS[opposite_camp(camp)] & bit(hole) != 0)
                .map(|hole| GOAL_DISTANCES[camp][hole] as u32)
                .sum();
            assert_eq!(far, 140);
        }
        assert_eq!(GOAL_DISTANCES[4][120], 0);
        assert_eq!(GOAL_DISTANCES[4][0], 16);
        assert_eq!(GOAL_DISTANCES[1][0], 0);
    }

    #[test]
    fn lines_and_steps() {
        // From the top tip straight down: the holes of the middle column.
        assert_eq!(LINES[0][1][0], 2);
        assert_eq!(RAYS[60][0].count_ones(), 4);
        assert_eq!(RAYS[10][0].count_ones(), 12);
        assert_eq!(REFLECTIONS[10][16] as usize, 22);
        assert_eq!(REFLECTIONS[0][60] as usize, 120);
        assert_eq!(REFLECTIONS[60][0], NONE);
        assert_eq!(HOPS[0][0].over, OFF_BOARD);
        assert_eq!(HOPS[0][1].landing as usize, hole_at(2, 2).unwrap());
        assert_eq!(nearest(0, RAYS[10][0]), 11);
        assert_eq!(nearest(3, RAYS[22][3]), 21);
    }

    #[test]
    fn hop_masks_are_the_hops() {
        for hole in 0..HOLES {
            for (hop, &(over, landing)) in HOPS[hole].iter().zip(&HOP_MASKS[hole]) {
                if hop.over == OFF_BOARD {
                    assert_eq!((over, landing), (0, 0), "hole {hole}");
                } else {
                    let expected = (bit(hop.over as usize), bit(hop.landing as usize));
                    assert_eq!((over, landing), expected, "hole {hole}");
                }
            }
        }
    }
}
