//! Gomoku evaluation, move ordering and the search's candidate moves.
//!
//! The evaluation reads the pattern counts that play and undo keep up to date (see
//! [`super::lines`]), so it costs a few multiplications. Strength selects what it knows: 1 counts
//! free five-point windows by stones; 2 adds a bonus for the side to move; 3 sees that a side to
//! move with a winning point makes five next; 4 and up add open threes and open fours, and the
//! threats that follow from them (an opponent's open four or two fours, the side to move's open
//! three against no four).

use super::lines::{
    geometry, lane, window_masks, LineFeatures, MAX_SIZE, OPEN_FOUR_LANE, OPEN_THREE_LANE,
    WINDOW_LANES,
};
use super::{Gomoku, GomokuMove};
use crate::cpu::{self, InstructionSet};
use crate::game::{Game, Player, Strength};
use crate::score::MAX_EVALUATION;

/// Evaluations stay within this bound, strictly inside `±MAX_EVALUATION`.
const BOUND: i32 = MAX_EVALUATION - 1;
/// A free five-point window holding 1, 2, 3 or 4 own stones.
const WINDOW_WEIGHTS: [i32; 4] = [1, 6, 35, 180];
/// One open three (`..XXX..` counts twice, a three open on one side only once).
const OPEN_THREE: i32 = 110;
/// One open four.
const OPEN_FOUR: i32 = 1500;
/// The side to move has a four: it makes five next move.
const FIVE_NEXT: i32 = 9000;
/// The opponent has an open four or two fours: the side to move can stop only one.
const UNSTOPPABLE_FOUR: i32 = 6000;
/// The side to move has an open three and the opponent no four: an open four follows.
const OPEN_FOUR_NEXT: i32 = 3000;
/// Move ordering: a window through the point holding 0..=4 own stones, for attack and defence.
const ATTACK_WEIGHTS: [i32; 5] = [1, 8, 60, 500, 100_000];
const DEFENCE_WEIGHTS: [i32; 5] = [0, 6, 45, 400, 50_000];

/// The pattern counts of one colour.
struct Counts {
    windows: [i32; 4],
    open_fours: i32,
    open_threes: i32,
}

impl Counts {
    fn of(features: LineFeatures) -> Counts {
        Counts {
            windows: [0, 1, 2, 3].map(|index| lane(features, WINDOW_LANES[index])),
            open_fours: lane(features, OPEN_FOUR_LANE),
            open_threes: lane(features, OPEN_THREE_LANE),
        }
    }

    fn fours(&self) -> i32 {
        self.windows[3]
    }

    fn value(&self, shapes: bool) -> i32 {
        let windows: i32 = self
            .windows
            .iter()
            .zip(WINDOW_WEIGHTS)
            .map(|(count, weight)| count * weight)
            .sum();
        if shapes {
            windows + self.open_threes * OPEN_THREE + self.open_fours * OPEN_FOUR
        } else {
            windows
        }
    }
}

/// The static value for the side to move, within `±(MAX_EVALUATION - 1)`.
pub fn evaluate(game: &Gomoku, strength: Strength) -> i32 {
    let side = game.side;
    if let Some(winner) = game.winner {
        return if winner == side { BOUND } else { -BOUND };
    }
    let level = strength.0;
    let mine = Counts::of(game.features[side]);
    let theirs = Counts::of(game.features[side ^ 1]);
    let shapes = level >= 4;
    let own_value = mine.value(shapes);
    let mut value = own_value - theirs.value(shapes);
    if level >= 2 {
        // The side to move gets to use its shapes first.
        value += own_value / 4;
    }
    // A four whose completion would make six wins nothing under standard and for renju's black.
    if level >= 3 && mine.fours() > 0 && has_winning_point(game, side) {
        return (FIVE_NEXT + value.clamp(0, BOUND - FIVE_NEXT)).min(BOUND);
    }
    if shapes {
        if theirs.open_fours > 0 || theirs.fours() >= 2 {
            value -= UNSTOPPABLE_FOUR;
        } else if theirs.fours() == 0 && mine.open_threes > 0 {
            value += OPEN_FOUR_NEXT;
        }
    }
    value.clamp(-BOUND, BOUND)
}

/// Calls `visit` with the empty point of every free five-point window holding four stones of
/// `colour` (a point may come more than once), until `visit` returns false.
fn four_completions(game: &Gomoku, colour: Player, mut visit: impl FnMut(usize) -> bool) {
    if lane(game.features[colour], WINDOW_LANES[3]) == 0 {
        return;
    }
    let geometry = geometry(game.size);
    for line in 0..geometry.line_count {
        if lane(game.line_features[colour][line], WINDOW_LANES[3]) == 0 {
            continue;
        }
        let own = game.lines[colour][line];
        let opponent = game.lines[colour ^ 1][line];
        let length = u32::from(geometry.lengths[line]);
        let empty = !(own | opponent) & geometry.line_mask(line);
        let mut fours = window_masks(own, opponent, length)[3];
        while fours != 0 {
            let window = fours.trailing_zeros();
            fours &= fours - 1;
            let offset = window + ((empty >> window) & 0x1F).trailing_zeros();
            if !visit(geometry.point(line, offset as usize)) {
                return;
            }
        }
    }
}

/// Whether `colour` could complete a winning line with one stone.
fn has_winning_point(game: &Gomoku, colour: Player) -> bool {
    let mut found = false;
    four_completions(game, colour, |point| {
        found = game.makes_five(point, colour);
        !found
    });
    found
}

/// Appends the empty points where `colour` would complete a winning line, sorted and without
/// repeats.
pub fn winning_points(game: &Gomoku, colour: Player, points: &mut Vec<GomokuMove>) {
    let start = points.len();
    four_completions(game, colour, |point| {
        if game.makes_five(point, colour) {
            points.push(GomokuMove(point as u16));
        }
        true
    });
    points[start..].sort_unstable();
    let mut kept = start;
    for index in start..points.len() {
        if kept == start || points[index] != points[kept - 1] {
            points[kept] = points[index];
            kept += 1;
        }
    }
    points.truncate(kept);
}

/// The search's candidates: the winning moves if there are any; else the points that stop the
/// opponent's immediate wins, when the side to move may play them; else the points within two of a
/// stone (the centre on an empty board), without black's forbidden points under renju.
pub fn search_moves(game: &Gomoku, moves: &mut Vec<GomokuMove>) {
    moves.clear();
    if game.outcome().is_some() {
        return;
    }
    // Compiled for the chosen instruction set (`crate::cpu`): bit scans and the renju check.
    cpu::dispatch!(cpu => cpu.run(|| {
        let side = game.side;
        winning_points(game, side, moves);
        if !moves.is_empty() {
            return;
        }
        winning_points(game, side ^ 1, moves);
        if game.checks_forbidden() {
            let board = game.renju_board();
            moves.retain(|mv| board.forbidden(mv.point()).is_none());
        }
        if !moves.is_empty() {
            return;
        }
        neighbourhood(game, moves);
        if moves.is_empty() {
            game.generate_moves(moves);
        }
    }))
}

/// The empty points within two rows and two columns of a stone, skipping forbidden points.
#[inline(always)] // Into `search_moves`'s instruction set.
fn neighbourhood(game: &Gomoku, moves: &mut Vec<GomokuMove>) {
    let size = game.size;
    if game.stones == 0 {
        moves.push(GomokuMove(((size / 2) * size + size / 2) as u16));
        return;
    }
    let row_mask = (1u32 << size) - 1;
    // Lines 0..size are the rows, with the column as offset.
    let mut occupied = [0u32; MAX_SIZE];
    let mut spread = [0u32; MAX_SIZE];
    for y in 0..size {
        let stones = game.lines[0][y] | game.lines[1][y];
        occupied[y] = stones;
        spread[y] = (stones | stones << 1 | stones << 2 | stones >> 1 | stones >> 2) & row_mask;
    }
    let board = game.checks_forbidden().then(|| game.renju_board());
    for y in 0..size {
        let mut near = spread[y.saturating_sub(2)..(y + 3).min(size)]
            .iter()
            .fold(0, |near, &row| near | row)
            & !occupied[y];
        while near != 0 {
            let x = near.trailing_zeros() as usize;
            near &= near - 1;
            let point = y * size + x;
            if board
                .as_ref()
                .is_none_or(|board| board.forbidden(point).is_none())
            {
                moves.push(GomokuMove(point as u16));
            }
        }
    }
}

/// The sum over the free five-point windows through the empty `point` of `weights[own stones]`,
/// for `colour`. Always inlined into [`score_moves`]'s instruction set.
#[inline(always)]
fn potential(game: &Gomoku, point: usize, colour: Player, weights: &[i32; 5]) -> i32 {
    let geometry = geometry(game.size);
    let mut total = 0;
    for placement in geometry.placements[point] {
        let line = placement.line as usize;
        let offset = placement.offset;
        let length = u32::from(geometry.lengths[line]);
        // Nine points centred on `point`; the edge blocks like an opponent stone.
        let own = ((u64::from(game.lines[colour][line]) << 4) >> offset) & 0x1FF;
        let blocked =
            (((u64::from(game.lines[colour ^ 1][line]) << 4) | 0xF | (!0u64 << (length + 4)))
                >> offset)
                & 0x1FF;
        for start in 0..5 {
            let window = 0x1F << start;
            if blocked & window == 0 {
                total += weights[(own & window).count_ones() as usize];
            }
        }
    }
    total
}

/// Ordering hints: what a stone on each point builds for the side to move plus what it takes from
/// the opponent, by the windows through it.
pub fn score_moves(game: &Gomoku, moves: &[GomokuMove], scores: &mut [i32]) {
    let side = game.side;
    // Compiled for the chosen instruction set (`crate::cpu`): `potential` counts bits.
    cpu::dispatch!(cpu => cpu.run(|| {
        for (mv, score) in moves.iter().zip(scores.iter_mut()) {
            let point = mv.point();
            *score = if point < game.size * game.size && game.cells[point] == 0 {
                potential(game, point, side, &ATTACK_WEIGHTS)
                    + potential(game, point, side ^ 1, &DEFENCE_WEIGHTS)
            } else {
                i32::MIN / 2
            };
        }
    }))
}
