//! Chinese Checkers moves and their generation on 121-bit masks.
//!
//! A move is identified by its origin and destination only: the many hop paths that may lead to one
//! hole are one move. Generation works per piece and yields a mask of destinations, so duplicates
//! never arise and nothing is allocated.

use super::board::{self, bit, HOLES, HOP_MASKS, NEIGHBOUR_MASKS, NONE, RAYS, REFLECTIONS};
use crate::game::MoveCode;

/// A move from one hole to another (indices 0..121), or the pass of a player with no legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ChineseCheckersMove {
    /// The origin hole, 0-based.
    pub from: u8,
    /// The destination hole, 0-based.
    pub to: u8,
}

impl ChineseCheckersMove {
    /// The pass, only legal when the side to move has no other move.
    pub const PASS: ChineseCheckersMove = ChineseCheckersMove { from: 127, to: 127 };

    /// The move from hole `from` to hole `to` (0-based indices).
    pub const fn new(from: usize, to: usize) -> ChineseCheckersMove {
        ChineseCheckersMove {
            from: from as u8,
            to: to as u8,
        }
    }

    /// Whether this is the pass.
    pub fn is_pass(self) -> bool {
        self == Self::PASS
    }

    /// The move a code stands for: `from * 128 + to` with distinct holes on the board, or the pass.
    pub fn from_code(code: u16) -> Option<ChineseCheckersMove> {
        let mv = ChineseCheckersMove {
            from: (code / 128) as u8,
            to: (code % 128) as u8,
        };
        let on_board = (mv.from as usize) < HOLES && (mv.to as usize) < HOLES && mv.from != mv.to;
        (code < 128 * 128 && (on_board || mv.is_pass())).then_some(mv)
    }
}

impl MoveCode for ChineseCheckersMove {
    fn code(self) -> u16 {
        self.from as u16 * 128 + self.to as u16
    }
}

/// Which hops are allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Jumps {
    /// A hop goes over one adjacent piece onto the hole right behind it.
    Standard,
    /// A hop goes over a single piece `k` holes away along a line onto the hole `2k` away, with
    /// every hole in between empty (symmetric long jumps); `k = 1` is the standard hop.
    Long,
}

/// The holes one step from `from` that are empty.
#[inline(always)]
pub fn steps(from: usize, occupied: u128) -> u128 {
    NEIGHBOUR_MASKS[from] & !occupied
}

/// Every hole a chain of one or more hops can end on, starting from `from`.
///
/// The moving piece is lifted from `from` for the whole chain: its origin counts as empty, and it
/// can be neither jumped over nor landed on.
#[inline]
pub fn hop_destinations(from: usize, occupied: u128, jumps: Jumps) -> u128 {
    let others = occupied & !bit(from);
    // Landing holes found so far; the origin counts as visited so that no chain returns to it.
    let mut reached = bit(from);
    let mut frontier = bit(from);
    while frontier != 0 {
        let hole = frontier.trailing_zeros() as usize;
        frontier &= frontier - 1;
        let landings = match jumps {
            Jumps::Standard => standard_hops(hole, others),
            Jumps::Long => long_hops(hole, others),
        } & !reached;
        reached |= landings;
        frontier |= landings;
    }
    reached & !bit(from)
}

/// [`hop_destinations`] under the strict goal lock: once a chain has landed in `goal` (or starts
/// there), every later landing must be in `goal` too. Whether a chain is locked depends only on
/// the hole it stands on (a landing outside the goal is never locked), so one search over holes
/// finds every destination.
#[inline]
pub fn hop_destinations_locked(from: usize, occupied: u128, jumps: Jumps, goal: u128) -> u128 {
    let others = occupied & !bit(from);
    let mut reached = bit(from);
    let mut frontier = bit(from);
    while frontier != 0 {
        let hole = frontier.trailing_zeros() as usize;
        frontier &= frontier - 1;
        let mut landings = match jumps {
            Jumps::Standard => standard_hops(hole, others),
            Jumps::Long => long_hops(hole, others),
        } & !reached;
        if goal & bit(hole) != 0 {
            landings &= goal;
        }
        reached |= landings;
        frontier |= landings;
    }
    reached & !bit(from)
}

/// Whether a chain of hops `path` keeps the strict goal lock: after its first hole in `goal`, every
/// later hole of the path is in `goal` too.
pub fn keeps_strict_lock(path: &[usize], goal: u128) -> bool {
    let mut locked = false;
    for &hole in path {
        let inside = hole < HOLES && goal & bit(hole) != 0;
        if locked && !inside {
            return false;
        }
        locked |= inside;
    }
    true
}

/// The landing holes of single standard hops from `hole`.
#[inline(always)]
pub fn standard_hops(hole: usize, occupied: u128) -> u128 {
    let mut landings = 0;
    // A missing hop's masks are 0, so it never finds a piece to jump. (Bit tests with branches
    // measured faster than shifting the occupancy by the hole index.)
    for &(over, landing) in &HOP_MASKS[hole] {
        if occupied & over != 0 && occupied & landing == 0 {
            landings |= landing;
        }
    }
    landings
}

/// The landing holes of single long hops from `hole`.
#[inline(always)]
pub fn long_hops(hole: usize, occupied: u128) -> u128 {
    let mut landings = 0;
    for (direction, &ray) in RAYS[hole].iter().enumerate() {
        let blockers = ray & occupied;
        if blockers == 0 {
            continue;
        }
        // The nearest piece on the line is the only one that can be jumped.
        let jumped = board::nearest(direction, blockers);
        let landing = REFLECTIONS[hole][jumped];
        if landing == NONE {
            continue;
        }
        // The holes after the jumped piece, up to and including the landing hole, must be empty.
        let gap = RAYS[jumped][direction] ^ RAYS[landing as usize][direction];
        if occupied & gap == 0 {
            landings |= bit(landing as usize);
        }
    }
    landings
}

/// Every destination of the piece on `from`, before the house rules on camps.
#[inline(always)]
pub fn destinations(from: usize, occupied: u128, jumps: Jumps) -> u128 {
    steps(from, occupied) | hop_destinations(from, occupied, jumps)
}

/// Whether `path` (at least two holes) is a chain of hops for the piece on `path[0]`: each hop
/// legal for the rule `jumps`, no landing hole visited twice and the origin never landed on.
pub fn is_hop_path(path: &[usize], occupied: u128, jumps: Jumps) -> bool {
    let Some((&from, landings)) = path.split_first() else {
        return false;
    };
    if landings.is_empty() {
        return false;
    }
    let others = occupied & !bit(from);
    let mut visited = bit(from);
    let mut current = from;
    for &landing in landings {
        let reachable = match jumps {
            Jumps::Standard => standard_hops(current, others),
            Jumps::Long => long_hops(current, others),
        };
        if landing >= HOLES || reachable & bit(landing) == 0 || visited & bit(landing) != 0 {
            return false;
        }
        visited |= bit(landing);
        current = landing;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chinese_checkers::board::{hole_at, CAMP_MASKS};

    #[test]
    fn codes_round_trip() {
        let mv = ChineseCheckersMove::new(120, 3);
        assert_eq!(ChineseCheckersMove::from_code(mv.code()), Some(mv));
        assert_eq!(
            ChineseCheckersMove::from_code(ChineseCheckersMove::PASS.code()),
            Some(ChineseCheckersMove::PASS)
        );
        assert_eq!(ChineseCheckersMove::from_code(5 * 128 + 5), None);
        assert_eq!(ChineseCheckersMove::from_code(121 * 128), None);
        assert_eq!(ChineseCheckersMove::from_code(u16::MAX), None);
    }

    #[test]
    fn start_camp_moves() {
        let occupied = CAMP_MASKS[1] | CAMP_MASKS[4];
        let mut count = 0;
        let mut pieces = CAMP_MASKS[1];
        while pieces != 0 {
            let from = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            count += destinations(from, occupied, Jumps::Standard).count_ones();
        }
        assert_eq!(count, 14);
    }

    #[test]
    fn long_hop_needs_symmetry() {
        // A lone piece three holes east of the centre: a long hop lands six holes east.
        let centre = hole_at(0, 8).unwrap();
        let jumped = hole_at(6, 8).unwrap();
        let landing = hole_at(12, 8);
        assert_eq!(landing, None);
        let row_start = hole_at(-8, 8).unwrap();
        let piece = hole_at(-2, 8).unwrap();
        let target = hole_at(4, 8).unwrap();
        let occupied = bit(row_start) | bit(piece);
        assert_eq!(long_hops(row_start, occupied) & bit(target), bit(target));
        // A second piece between the jumped piece and the landing hole blocks the hop.
        assert_eq!(
            long_hops(row_start, occupied | bit(centre)) & bit(target),
            0
        );
        assert_eq!(long_hops(centre, bit(centre) | bit(jumped)), 0);
        assert_eq!(standard_hops(row_start, occupied), 0);
    }
}
