//! The endgame race: once a player's pieces have passed everybody else's (contact is over), or in
//! solitaire, bringing them home is a puzzle for one player: the fewest moves that fill its goal.
//!
//! The other players' pieces stay where they are in this model. A player is contact-free when no
//! piece of a player still playing stands within one row of the band its own pieces occupy (rows
//! counted toward its goal tip), except pieces locked in their own goal camp: nobody can then hop
//! over or block anybody else without going backwards. Every piece of a finished player, and
//! every locked piece, is a fixed obstacle (a locked piece may still move inside its camp; the
//! race is planned afresh at every move).
//!
//! [`Race::solve`] is an IDA* search with an admissible bound, so the line it returns is the
//! shortest; [`Race::plan`] is a beam search that finds a short line quickly when the race is too
//! long to prove (the solitaire crossing from the start, 27 moves at best).

use super::board::{
    bit, ALL_HOLES, CAMP_MASKS, COLUMN_OF, GOAL_DISTANCES, HOLES, ROW_OF, SIDEWAYS,
};
use super::moves::{self, Jumps};
use super::variant::Finish;
use super::{ChineseCheckers, ChineseCheckersMove};
use crate::game::{DirectMove, DirectRequest, Player, Rules};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The four hole classes: a hop keeps a piece in its class, a step changes it.
const CLASSES: usize = 4;

/// `CLASS_MASKS[k]`: the holes of class `k`, from the parity of the axial coordinates.
static CLASS_MASKS: [u128; CLASSES] = {
    let mut masks = [0; CLASSES];
    let mut hole = 0;
    while hole < HOLES {
        let row = ROW_OF[hole] as i32;
        let axial = (COLUMN_OF[hole] as i32 - row) / 2;
        let class = (axial.rem_euclid(2) * 2 + row.rem_euclid(2)) as usize;
        masks[class] |= bit(hole);
        hole += 1;
    }
    masks
};

/// Check the clock and the stop flag every this many nodes.
const CHECK_INTERVAL: u64 = 4096;
/// The exact search forgets the positions it has refuted when it knows this many (about 50 MB).
const MAX_REFUTED: usize = 1 << 21;
/// The widest beam [`race_move`] tries (a beam keeps width × moves positions per move).
const MAX_WIDTH: usize = 4096;

/// The longest line a beam looks for.
const MAX_PLAN_MOVES: usize = 100;

/// A move of the race: from a hole to a hole.
pub type Step = (u8, u8);

/// When a race search must give up.
#[derive(Clone, Copy, Debug)]
pub struct Budget<'a> {
    /// Give up when this is raised.
    pub stop: Option<&'a AtomicBool>,
    /// Give up at this instant.
    pub deadline: Option<Instant>,
    /// Give up after this many positions.
    pub nodes: u64,
}

impl Budget<'_> {
    /// A budget of `nodes` positions and nothing else.
    pub fn nodes(nodes: u64) -> Budget<'static> {
        Budget {
            stop: None,
            deadline: None,
            nodes,
        }
    }

    fn exhausted(&self, nodes: u64) -> bool {
        nodes >= self.nodes
            || (nodes.is_multiple_of(CHECK_INTERVAL)
                && (self.stop.is_some_and(|stop| stop.load(Ordering::Relaxed))
                    || self
                        .deadline
                        .is_some_and(|deadline| Instant::now() >= deadline)))
    }
}

/// One player's race home, the other pieces fixed.
#[derive(Clone, Debug)]
pub struct Race {
    /// The goal holes the player must fill (its goal camp less fixed obstacles in it).
    targets: u128,
    /// The whole goal camp, for the goal lock.
    camp: u128,
    /// Every other piece.
    obstacles: u128,
    jumps: Jumps,
    goal_lock: bool,
    /// The strict goal lock (`goal_lock=strict`): no landing outside the camp after one in it.
    strict_lock: bool,
    /// Holes where the player may not end a move.
    barred: u128,
    /// Rows from each hole to the goal tip.
    distances: &'static [u8; HOLES],
    /// How far each hole lies to the side of the goal's axis.
    sideways: &'static [u8; HOLES],
    /// Each target class's number of holes.
    class_targets: [u32; CLASSES],
}

/// A found line and the positions searched for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RaceLine {
    /// The moves, first to last; empty when the goal is already full.
    pub moves: Vec<Step>,
    /// Positions searched.
    pub nodes: u64,
}

impl Race {
    /// The race of `seat` in `position`, if it is one: the seat plays on, and no piece of
    /// another player still playing is near its band of rows (always so in solitaire).
    pub fn of(position: &ChineseCheckers, seat: Player) -> Option<Race> {
        if position.place(seat).is_some() {
            return None;
        }
        let variant = position.variant();
        let goal = variant.goal_camp(seat);
        let distances = &GOAL_DISTANCES[goal];
        let pieces = position.pieces(seat);
        let mut reach = 0;
        let mut rest = pieces;
        while rest != 0 {
            reach = reach.max(distances[rest.trailing_zeros() as usize]);
            rest &= rest - 1;
        }
        let band = (0..HOLES)
            .filter(|&hole| distances[hole] <= reach + 1)
            .fold(0u128, |mask, hole| mask | bit(hole));
        let mut obstacles = 0;
        let goal_lock = variant.rules().goal_lock;
        for other in 0..variant.players() {
            if other == seat {
                continue;
            }
            let theirs = position.pieces(other);
            // Pieces locked in their own goal camp stay there: they are obstacles, not contact.
            let locked = if goal_lock {
                CAMP_MASKS[variant.goal_camp(other)]
            } else {
                0
            };
            if position.place(other).is_none() && theirs & band & !locked != 0 {
                return None;
            }
            obstacles |= theirs;
        }
        let camp = CAMP_MASKS[goal];
        if variant.rules().finish == Finish::All && obstacles & camp != 0 {
            return None;
        }
        let targets = camp & !obstacles;
        if targets == 0 {
            return None;
        }
        let mut race = Race::new(
            targets,
            camp,
            obstacles,
            variant.jumps(),
            variant.rules().goal_lock,
            variant.barred(seat),
            goal,
        );
        race.strict_lock = variant.rules().goal_lock && variant.rules().strict_lock;
        Some(race)
    }

    /// A race toward goal camp `goal` (1..6) with the given holes to fill and fixed obstacles.
    pub fn new(
        targets: u128,
        camp: u128,
        obstacles: u128,
        jumps: Jumps,
        goal_lock: bool,
        barred: u128,
        goal: usize,
    ) -> Race {
        let mut class_targets = [0; CLASSES];
        for (count, mask) in class_targets.iter_mut().zip(CLASS_MASKS.iter()) {
            *count = (targets & mask).count_ones();
        }
        Race {
            targets,
            camp,
            obstacles,
            jumps,
            goal_lock,
            strict_lock: false,
            barred,
            distances: &GOAL_DISTANCES[goal],
            sideways: &SIDEWAYS[goal],
            class_targets,
        }
    }

    /// A key of the race from `pieces`: equal keys mean the same race from the same position.
    fn key(&self, pieces: u128) -> u64 {
        use crate::base::zobrist::mix;
        let words = [
            pieces,
            self.targets,
            self.obstacles,
            self.barred,
            self.camp
                | (self.goal_lock as u128) << 127
                | (self.jumps as u128) << 126
                | (self.strict_lock as u128) << 125,
        ];
        words.iter().fold(0, |key, &word| {
            mix(mix(key ^ word as u64) ^ (word >> 64) as u64)
        })
    }

    /// Whether `pieces` fill every target hole.
    pub fn is_done(&self, pieces: u128) -> bool {
        pieces & self.targets == self.targets
    }

    /// A lower bound on the moves still needed: every empty target hole needs a move that fills
    /// it, and a class with fewer pieces than target holes needs a step (the only move that
    /// changes a piece's class) for each missing piece.
    pub fn lower_bound(&self, pieces: u128) -> u32 {
        let empty = (self.targets & !pieces).count_ones();
        let mut steps = 0;
        for (count, mask) in self.class_targets.iter().zip(CLASS_MASKS.iter()) {
            steps += count.saturating_sub((pieces & mask).count_ones());
        }
        empty.max(steps)
    }

    /// Where the piece on `from` may go.
    fn destinations(&self, pieces: u128, from: usize) -> u128 {
        let occupied = pieces | self.obstacles;
        let mut targets = if self.strict_lock {
            moves::steps(from, occupied)
                | moves::hop_destinations_locked(from, occupied, self.jumps, self.camp)
        } else {
            moves::destinations(from, occupied, self.jumps)
        };
        if self.goal_lock && self.camp & bit(from) != 0 {
            targets &= self.camp;
        }
        targets & !self.barred & ALL_HOLES
    }

    /// Every move from `pieces`, the most rows gained first.
    fn moves(&self, pieces: u128, list: &mut Vec<(i32, Step)>) {
        list.clear();
        let mut rest = pieces;
        while rest != 0 {
            let from = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let mut targets = self.destinations(pieces, from);
            while targets != 0 {
                let to = targets.trailing_zeros() as usize;
                targets &= targets - 1;
                let gain = self.distances[from] as i32 - self.distances[to] as i32;
                let filling = (self.targets & bit(to) != 0) as i32;
                list.push((gain * 4 + filling, (from as u8, to as u8)));
            }
        }
        list.sort_unstable_by_key(|&(score, _)| std::cmp::Reverse(score));
    }

    /// The shortest line that fills the goal (IDA*), or `None` when the budget runs out first.
    pub fn solve(&self, pieces: u128, budget: &Budget) -> Option<RaceLine> {
        let mut search = Exact {
            race: self,
            budget,
            nodes: 0,
            failed: HashMap::new(),
            line: Vec::new(),
            lists: Vec::new(),
        };
        let mut bound = self.lower_bound(pieces);
        loop {
            match search.visit(pieces, 0, bound) {
                Visit::Found => {
                    return Some(RaceLine {
                        moves: search.line,
                        nodes: search.nodes,
                    })
                }
                Visit::Exceeded(next) => bound = next,
                Visit::Exhausted => return None,
            }
        }
    }

    /// The heuristic value of `pieces` for the beam: rows to go, weighted, plus the distance
    /// to the side of the goal's axis and the spread of the group (a compact group hops).
    fn beam_score(&self, pieces: u128) -> i32 {
        let mut rows = 0;
        let mut side = 0;
        let mut farthest = 0;
        let mut nearest = i32::MAX;
        let mut rest = pieces;
        while rest != 0 {
            let hole = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let distance = self.distances[hole] as i32;
            rows += distance;
            side += self.sideways[hole] as i32;
            farthest = farthest.max(distance);
            if self.targets & bit(hole) == 0 {
                nearest = nearest.min(distance);
            }
        }
        let spread = if nearest == i32::MAX {
            0
        } else {
            farthest - nearest
        };
        8 * rows + 4 * side + 4 * spread + 3 * self.lower_bound(pieces) as i32
    }

    /// A short line that fills the goal, found by a beam search keeping the `width` best
    /// positions after each move, or `None` when the budget runs out, the beam dies out or no
    /// line of 100 moves is found.
    pub fn plan(&self, pieces: u128, width: usize, budget: &Budget) -> Option<RaceLine> {
        if self.is_done(pieces) {
            return Some(RaceLine {
                moves: Vec::new(),
                nodes: 0,
            });
        }
        struct Node {
            pieces: u128,
            parent: u32,
            step: Step,
        }
        let mut levels: Vec<Vec<Node>> = vec![vec![Node {
            pieces,
            parent: 0,
            step: (0, 0),
        }]];
        // Positions of the last two levels, so that no line steps back into them.
        let mut previous: HashSet<u128> = HashSet::from([pieces]);
        let mut list = Vec::new();
        let mut nodes = 0u64;
        let width = width.max(1);
        loop {
            let frontier = levels.last().expect("a level");
            let mut children: Vec<(i32, Node)> = Vec::new();
            let mut seen: HashSet<u128> = HashSet::new();
            for (index, node) in frontier.iter().enumerate() {
                self.moves(node.pieces, &mut list);
                for &(_, (from, to)) in &list {
                    let child = node.pieces ^ bit(from as usize) ^ bit(to as usize);
                    nodes += 1;
                    if budget.exhausted(nodes) {
                        return None;
                    }
                    if previous.contains(&child) || !seen.insert(child) {
                        continue;
                    }
                    let next = Node {
                        pieces: child,
                        parent: index as u32,
                        step: (from, to),
                    };
                    if self.is_done(child) {
                        let mut moves = vec![next.step];
                        let mut parent = next.parent as usize;
                        for level in levels.iter().skip(1).rev() {
                            let node = &level[parent];
                            moves.push(node.step);
                            parent = node.parent as usize;
                        }
                        moves.reverse();
                        return Some(RaceLine { moves, nodes });
                    }
                    children.push((self.beam_score(child), next));
                }
            }
            // A goal that cannot be filled (a hole nobody can reach) would let the beam wander
            // for ever.
            if children.is_empty() || levels.len() >= MAX_PLAN_MOVES {
                return None;
            }
            if children.len() > width {
                children.select_nth_unstable_by_key(width - 1, |&(score, _)| score);
                children.truncate(width);
            }
            previous = children.iter().map(|(_, node)| node.pieces).collect();
            levels.push(children.into_iter().map(|(_, node)| node).collect());
        }
    }
}

enum Visit {
    Found,
    /// The smallest estimate above the bound.
    Exceeded(u32),
    Exhausted,
}

/// The state of one IDA* search.
struct Exact<'a> {
    race: &'a Race,
    budget: &'a Budget<'a>,
    nodes: u64,
    /// The largest number of further moves each position is known not to finish within.
    failed: HashMap<u128, u32>,
    line: Vec<Step>,
    lists: Vec<Vec<(i32, Step)>>,
}

impl Exact<'_> {
    fn visit(&mut self, pieces: u128, done: u32, bound: u32) -> Visit {
        self.nodes += 1;
        if self.budget.exhausted(self.nodes) {
            return Visit::Exhausted;
        }
        if self.race.is_done(pieces) {
            return Visit::Found;
        }
        let estimate = done + self.race.lower_bound(pieces);
        if estimate > bound {
            return Visit::Exceeded(estimate);
        }
        let left = bound - done;
        if let Some(&known) = self.failed.get(&pieces) {
            if known >= left {
                return Visit::Exceeded(done + known + 1);
            }
        }
        let depth = done as usize;
        if self.lists.len() <= depth {
            self.lists.resize_with(depth + 1, Vec::new);
        }
        let mut list = std::mem::take(&mut self.lists[depth]);
        self.race.moves(pieces, &mut list);
        let mut next = u32::MAX;
        let mut result = None;
        for &(_, (from, to)) in &list {
            let child = pieces ^ bit(from as usize) ^ bit(to as usize);
            self.line.push((from, to));
            match self.visit(child, done + 1, bound) {
                Visit::Found => {
                    result = Some(Visit::Found);
                    break;
                }
                Visit::Exceeded(estimate) => next = next.min(estimate),
                Visit::Exhausted => {
                    result = Some(Visit::Exhausted);
                    break;
                }
            }
            self.line.pop();
        }
        self.lists[depth] = list;
        if let Some(result) = result {
            return result;
        }
        if self.failed.len() >= MAX_REFUTED {
            self.failed.clear();
        }
        self.failed.insert(pieces, left);
        Visit::Exceeded(next)
    }
}

/// Positions the exact search may visit per millisecond of the move's time (it visits about
/// two million a second).
const EXACT_NODES_PER_MILLISECOND: u64 = 1_000;
/// The time a race move may take when the request has no limit.
const DEFAULT_RACE_TIME: Duration = Duration::from_millis(1_000);
/// The first beam width; each next try doubles it.
const FIRST_WIDTH: usize = 16;

/// The side to move's race move, if it is in a race: the first move of the shortest line when
/// the exact search proves one within part of the time, otherwise of the shortest line among the
/// ones that beams of growing widths find in the rest and the rest of the line the last move of
/// this race followed (remembered per thread, see [`forget_plans`]): a plan only gets shorter
/// from move to move. Without a remembered line it needs the time of one beam of width 16.
pub fn race_move(
    position: &ChineseCheckers,
    request: &DirectRequest,
) -> Option<DirectMove<ChineseCheckersMove>> {
    let seat = position.side_to_move();
    let race = Race::of(position, seat)?;
    let pieces = position.pieces(seat);
    if race.is_done(pieces) {
        return None;
    }
    let time = request.hard_time.unwrap_or(DEFAULT_RACE_TIME);
    let known = recall(race.key(pieces));
    let exact_time = time * 2 / 5;
    let exact = Budget {
        stop: Some(request.stop),
        deadline: Some(request.start + exact_time),
        nodes: (exact_time.as_millis() as u64).max(1) * EXACT_NODES_PER_MILLISECOND,
    };
    // A long remembered line is out of the exact search's reach in the time of a move: the
    // beams get all of it.
    let hopeless = known
        .as_ref()
        .is_some_and(|plan| plan.steps.len() > EXACT_PLAN_MOVES);
    if !hopeless {
        if let Some(line) = race.solve(pieces, &exact) {
            return Some(direct(&line.moves, true));
        }
    }
    let beam = Budget {
        stop: Some(request.stop),
        deadline: Some(request.start + time * 9 / 10),
        nodes: u64::MAX,
    };
    let mut best: Option<Vec<Step>> = None;
    // Start from the width that found the remembered line: the narrower beams would find
    // nothing shorter than the line already known.
    let mut width = known.as_ref().map_or(FIRST_WIDTH, |plan| plan.width);
    let mut widest = width;
    let bound = race.lower_bound(pieces) as usize;
    // Without a remembered line the first beam always runs to the end, so that there is a line
    // to play.
    let first = Budget::nodes(u64::MAX);
    while width <= MAX_WIDTH {
        let budget = if best.is_none() && known.is_none() {
            &first
        } else {
            &beam
        };
        let Some(line) = race.plan(pieces, width, budget) else {
            break;
        };
        widest = width;
        if best
            .as_ref()
            .is_none_or(|found| line.moves.len() < found.len())
        {
            best = Some(line.moves);
        }
        if best.as_ref().is_some_and(|line| line.len() <= bound) {
            break;
        }
        width *= 2;
    }
    if let Some(plan) = known {
        if best
            .as_ref()
            .is_none_or(|found| plan.steps.len() <= found.len())
        {
            best = Some(plan.steps);
        }
    }
    let steps = best?;
    let first = steps[0];
    remember(
        race.key(pieces ^ bit(first.0 as usize) ^ bit(first.1 as usize)),
        Plan {
            steps: steps[1..].to_vec(),
            width: widest,
        },
    );
    Some(direct(&steps, false))
}

/// The move that begins `steps`, with the line.
fn direct(steps: &[Step], exact: bool) -> DirectMove<ChineseCheckersMove> {
    let moves: Vec<ChineseCheckersMove> = steps
        .iter()
        .map(|&(from, to)| ChineseCheckersMove::new(from as usize, to as usize))
        .collect();
    DirectMove {
        mv: moves[0],
        pv: moves,
        exact,
    }
}

/// Remembered lines longer than this are not worth an exact search.
const EXACT_PLAN_MOVES: usize = 10;

/// The rest of a line played from, and the widest beam that completed at that move.
#[derive(Clone)]
struct Plan {
    steps: Vec<Step>,
    width: usize,
}

/// How many lines the plan memory keeps.
const REMEMBERED_PLANS: usize = 64;

thread_local! {
    /// The rest of the lines played from, by the key of the position they continue from (see
    /// [`Race::key`]): a later move compares its own plan with the rest of the one it follows,
    /// so a plan only ever gets shorter from move to move, and the short times of single moves
    /// add up. Kept per thread, as a game is played on one thread; [`forget_plans`] clears it.
    static PLANS: std::cell::RefCell<Vec<(u64, Plan)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Forgets every remembered plan of this thread (at the start of a game).
pub fn forget_plans() {
    PLANS.with(|plans| plans.borrow_mut().clear());
}

fn recall(key: u64) -> Option<Plan> {
    PLANS.with(|plans| {
        plans
            .borrow()
            .iter()
            .find(|(known, _)| *known == key)
            .map(|(_, plan)| plan.clone())
    })
}

fn remember(key: u64, plan: Plan) {
    if plan.steps.is_empty() {
        return;
    }
    PLANS.with(|plans| {
        let mut plans = plans.borrow_mut();
        plans.retain(|(known, _)| *known != key);
        if plans.len() >= REMEMBERED_PLANS {
            plans.remove(0);
        }
        plans.push((key, plan));
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chinese_checkers::board::hole_at;
    use std::collections::VecDeque;

    fn at(column: i32, row: i32) -> usize {
        hole_at(column, row).unwrap()
    }

    /// A solitaire race toward camp 4 with player 1's pieces on `holes`.
    fn solitaire(holes: &[usize]) -> (Race, u128) {
        let pieces = holes.iter().fold(0u128, |mask, &hole| mask | bit(hole));
        assert_eq!(pieces.count_ones(), 10);
        let camp = CAMP_MASKS[4];
        (
            Race::new(camp, camp, 0, Jumps::Standard, true, 0, 4),
            pieces,
        )
    }

    fn goal_without(missing: &[usize]) -> Vec<usize> {
        (0..HOLES)
            .filter(|&hole| CAMP_MASKS[4] & bit(hole) != 0 && !missing.contains(&hole))
            .collect()
    }

    /// The fewest moves by breadth-first search over every position, up to `limit` moves.
    fn breadth_first(race: &Race, pieces: u128, limit: usize) -> Option<usize> {
        let mut seen = HashSet::from([pieces]);
        let mut queue = VecDeque::from([(pieces, 0)]);
        let mut list = Vec::new();
        while let Some((current, moves)) = queue.pop_front() {
            if race.is_done(current) {
                return Some(moves);
            }
            if moves == limit {
                continue;
            }
            race.moves(current, &mut list);
            for &(_, (from, to)) in &list {
                let child = current ^ bit(from as usize) ^ bit(to as usize);
                if seen.insert(child) {
                    queue.push_back((child, moves + 1));
                }
            }
        }
        None
    }

    #[test]
    fn a_lone_piece_walks_home() {
        // The goal lacks its corner (-3, 13); the tenth piece stands on (0, 10) with nothing to
        // hop over: three steps south-west, and no goal piece can help (a goal piece moving into
        // the corner only leaves another hole for the walker).
        let mut holes = goal_without(&[at(-3, 13)]);
        holes.push(at(0, 10));
        let (race, pieces) = solitaire(&holes);
        let line = race.solve(pieces, &Budget::nodes(1_000_000)).unwrap();
        assert_eq!(line.moves.len(), 3, "{line:?}");
        assert_eq!(breadth_first(&race, pieces, 4), Some(3));
        assert!(race.lower_bound(pieces) <= 3);
    }

    #[test]
    fn a_hop_into_the_tip_makes_room() {
        // The goal lacks its tip (0, 16); the tenth piece stands on (0, 12). It cannot reach the
        // tip in one move, so it takes two: (-2, 14) hops over (-1, 15) into the tip, then the
        // piece on (0, 12) hops over (-1, 13) into (-2, 14).
        let mut holes = goal_without(&[at(0, 16)]);
        holes.push(at(0, 12));
        let (race, pieces) = solitaire(&holes);
        let line = race.solve(pieces, &Budget::nodes(1_000_000)).unwrap();
        assert_eq!(line.moves.len(), 2, "{line:?}");
        let mut replay = pieces;
        for &(from, to) in &line.moves {
            replay ^= bit(from as usize) ^ bit(to as usize);
        }
        assert!(race.is_done(replay));
    }

    #[test]
    fn two_pieces_step_in_side_by_side() {
        let mut holes = goal_without(&[at(-3, 13), at(3, 13)]);
        holes.extend([at(-2, 12), at(2, 12)]);
        let (race, pieces) = solitaire(&holes);
        assert_eq!(race.lower_bound(pieces), 2);
        let line = race.solve(pieces, &Budget::nodes(1_000)).unwrap();
        assert_eq!(line.moves.len(), 2);
    }

    #[test]
    fn the_exact_search_agrees_with_breadth_first_search() {
        // Positions 1 to 4 moves before the end of the beam's solitaire crossing.
        let start: Vec<usize> = (0..10).collect();
        let (race, pieces) = solitaire(&start);
        let line = race.plan(pieces, 200, &Budget::nodes(u64::MAX)).unwrap();
        let mut checked = 0;
        for back in 1..=4 {
            let mut position = pieces;
            for &(from, to) in &line.moves[..line.moves.len() - back] {
                position ^= bit(from as usize) ^ bit(to as usize);
            }
            let exact = race.solve(position, &Budget::nodes(10_000_000)).unwrap();
            let shortest = breadth_first(&race, position, back).unwrap();
            assert_eq!(exact.moves.len(), shortest, "{back} moves before the end");
            assert!(race.lower_bound(position) as usize <= shortest);
            checked += 1;
        }
        assert_eq!(checked, 4);
    }

    #[test]
    fn the_budget_stops_the_search() {
        let start: Vec<usize> = (0..10).collect();
        let (race, pieces) = solitaire(&start);
        assert!(race.solve(pieces, &Budget::nodes(10_000)).is_none());
        assert!(race.plan(pieces, 100, &Budget::nodes(10_000)).is_none());
    }

    fn request(stop: &AtomicBool, millis: u64) -> DirectRequest<'_> {
        DirectRequest {
            level: 8,
            seed: 1,
            stop,
            start: Instant::now(),
            hard_time: Some(Duration::from_millis(millis)),
        }
    }

    #[test]
    fn a_goal_nobody_can_fill_ends_the_beam() {
        // The tip of the goal is barred: no line fills it, and the beam gives up after its
        // longest line instead of wandering for ever.
        let start: Vec<usize> = (0..10).collect();
        let pieces = start.iter().fold(0u128, |mask, &hole| mask | bit(hole));
        let camp = CAMP_MASKS[4];
        let race = Race::new(camp, camp, 0, Jumps::Standard, true, bit(at(0, 16)), 4);
        assert!(race.plan(pieces, 4, &Budget::nodes(u64::MAX)).is_none());
    }

    #[test]
    fn a_plan_never_gets_longer_from_move_to_move() {
        // A long first move finds a short crossing; the next move, with next to no time, only
        // manages the narrowest beam, but follows the rest of the plan it remembers.
        forget_plans();
        let mut game = ChineseCheckers::new(1, Jumps::Standard, 1000).unwrap();
        let stop = AtomicBool::new(false);
        let first = race_move(&game, &request(&stop, 3000)).expect("a move");
        game.try_play(first.mv).unwrap();
        let race = Race::of(&game, 0).unwrap();
        let narrow = race
            .plan(game.pieces(0), FIRST_WIDTH, &Budget::nodes(u64::MAX))
            .unwrap();
        let second = race_move(&game, &request(&stop, 1)).expect("a move");
        assert!(second.pv.len() < first.pv.len(), "{first:?} {second:?}");
        assert!(
            narrow.moves.len() > second.pv.len(),
            "the narrowest beam is no worse ({} moves): the test shows nothing",
            narrow.moves.len()
        );
        forget_plans();
        let alone = race_move(&game, &request(&stop, 1)).expect("a move");
        assert!(alone.pv.len() > second.pv.len());
    }

    #[test]
    fn races_begin_when_contact_is_over() {
        let start = ChineseCheckers::new(2, Jumps::Standard, 1000).unwrap();
        assert!(Race::of(&start, 0).is_none());
        let solitaire = ChineseCheckers::new(1, Jumps::Standard, 1000).unwrap();
        assert!(Race::of(&solitaire, 0).is_some());
        // Player 1 on rows 10 and 11, player 2 on rows 5 and 6: three rows apart, a race for
        // both. Player 2 moving a piece down to row 9 brings it back into contact.
        let first: Vec<usize> = (0..10)
            .map(|index| {
                if index < 5 {
                    at(-4 + 2 * index, 10)
                } else {
                    at(-9 + 2 * index, 11)
                }
            })
            .collect();
        let second: Vec<usize> = (0..10)
            .map(|index| {
                if index < 5 {
                    at(-4 + 2 * index, 6)
                } else {
                    at(-9 + 2 * index, 5)
                }
            })
            .collect();
        let text = |second: &[usize]| {
            let mut cells = ['.'; HOLES];
            for &hole in &first {
                cells[hole] = '1';
            }
            for &hole in second {
                cells[hole] = '2';
            }
            format!("{} 1", cells.iter().collect::<String>())
        };
        let mut position = start.clone();
        position.set_position_string(&text(&second)).unwrap();
        assert!(Race::of(&position, 0).is_some());
        assert!(Race::of(&position, 1).is_some());
        let mut closer = second.clone();
        closer[0] = at(-3, 9);
        position.set_position_string(&text(&closer)).unwrap();
        assert!(Race::of(&position, 0).is_none());
        assert!(Race::of(&position, 1).is_none());
    }
}
