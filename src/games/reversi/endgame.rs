//! The exact endgame solver for 8x8 Reversi.
//!
//! Scores are final disc differences for the side to move, with empties to the winner, in -64..=64.
//! The solver is a null-window (scout) search with a principal-variation search on top:
//!
//! * the last one to four empties have dedicated solvers that order empties by quadrant parity;
//! * shallow nodes (up to [`SHALLOW_EMPTIES`]) order moves by parity only;
//! * nodes with fewer than [`TABLE_EMPTIES`] empties (from 4) keep bounds in the thread's own small
//!   table ([`super::local_table`]), which stays in the core's cache;
//! * deeper nodes probe the shared transposition table, cut off on stable discs, and order moves
//!   fastest-first (fewest opponent replies, with the static evaluation from
//!   [`STATIC_EVALUATION_EMPTIES`]), by a shallow evaluation search near the root, where the table's
//!   move goes first, before the others are sorted;
//! * from [`SPLIT_EMPTIES`] empties up, the younger brothers of a node are searched in parallel on a
//!   rayon pool once the eldest brother is done (young brothers wait), sharing the table and aborting
//!   when a brother cuts off;
//! * roots with [`SELECTIVE_EMPTIES`] or more first get selective passes, one per margin of
//!   [`SELECTIVE_MARGINS`], in which a node whose shallow evaluation search lies that far outside
//!   the window is cut off unproven (ProbCut). Each pass's score centres the next pass's aspiration
//!   window, and its table entries, marked by the pass's margin in their evaluation field, order the
//!   later passes' moves. A pass takes scores only from entries of passes at least as strict as
//!   itself (a margin at least as wide, or exact), so the exact pass never takes a score from a
//!   selective one and the final result stays exact.

use super::bitboard::{self, bit, Kernels};
use super::evaluation;
use super::local_table::{self, LocalTable};
use super::patterns::Weights;
use super::{final_score, Reversi, ReversiMove};
use crate::base::cpu;
use crate::base::transposition::{Bound, TranspositionTable};
use crate::game::{Rules, Solution, SolutionScale, SolveRequest, Strength};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};

/// Nodes with at most this many empties use the parity-ordered shallow search.
const SHALLOW_EMPTIES: u32 = 6;
/// Nodes with at least this many empties use the shared transposition table, and from
/// [`ETC_EMPTIES`] they try enhanced transposition cut-offs; those below, from 4 empties, the
/// thread's own table. Each shared probe is a cache miss, so probing fewer, larger nodes wins time
/// although it costs nodes (measurements: docs/results/reversi.md, the endgame solver's settings).
const TABLE_EMPTIES: u32 = 10;
/// See [`TABLE_EMPTIES`].
const ETC_EMPTIES: u32 = 13;
/// Nodes with at least this many empties sort moves by a shallow evaluation search; from this
/// many they also try the table's move before sorting the others, so a cut-off by the table's
/// move costs no sort. From 18 rather than lower because an evaluation search's nodes cost several
/// solver nodes each (a pattern evaluation per leaf), which the larger positions repay and the
/// smaller ones do not (measurements: docs/results/reversi.md).
const EVALUATION_SORT_EMPTIES: u32 = 18;
/// Nodes with at least this many empties (and fewer than [`EVALUATION_SORT_EMPTIES`]) add the
/// static evaluation after the move to the fast ordering value. It saves nodes from any depth, but
/// each evaluation costs about as much as the nodes it saves, so only the upper empties use it
/// (measurements: docs/results/reversi.md).
const STATIC_EVALUATION_EMPTIES: u32 = 13;
/// The weight of a disc of static evaluation in the fast ordering value: a quarter of a reply
/// left to the opponent ([`MOBILITY_WEIGHT`]).
const STATIC_EVALUATION_WEIGHT: i32 = 1024;
/// In that sort, a move's value is four times its evaluation (400 a disc) less this much for each
/// reply left to the opponent: fewer replies, a smaller subtree to refute (a disc per reply took
/// fewer nodes than a smaller weight; docs/results/reversi.md).
const EVALUATION_SORT_MOBILITY_WEIGHT: i32 = 400;
/// The evaluation search that orders a move (from [`EVALUATION_SORT_EMPTIES`]) is exact only
/// down to this many discs below the node's alpha; a move further below gets a bound, in a search
/// that stops as soon as it proves one (Edax's sort window does the same). Far-below moves are
/// refuted anyway, so their exact order is not worth the evaluation nodes; a bound above beta as
/// well cost more solver nodes (measurements: docs/results/reversi.md).
const EVALUATION_SORT_MARGIN: i32 = 4;
/// Nodes with at least this many empties may search their moves in parallel.
const SPLIT_EMPTIES: u32 = 13;
/// Stable-disc cut-offs are tried when alpha is at least this high (per empties), since counting
/// stable discs costs more than it saves in balanced windows; 4 rather than 8 below 12 empties
/// took fewer nodes for about the same time (docs/results/reversi.md).
const STABILITY_THRESHOLD: [i32; 61] = {
    let mut thresholds = [99; 61];
    let mut empties = 0;
    while empties <= 60 {
        thresholds[empties] = if empties < 4 { 99 } else { 4 };
        empties += 1;
    }
    thresholds
};
/// Half-width of the root's first aspiration window, in discs (odd: scores are even).
const ASPIRATION: i32 = 5;
/// Roots with at least this many empties get selective passes before the exact one: their
/// ordering and bounds make the exact pass much smaller on the largest positions
/// (docs/results/reversi.md).
const SELECTIVE_EMPTIES: u32 = 20;
/// In a selective pass, nodes with at least this many empties try a probable cut-off... (8 rather
/// than 10 or 12: fewer nodes and less time with the other settings here; docs/results/reversi.md.)
const PROBABLE_CUTOFF_EMPTIES: u32 = 8;
/// ...when a shallow evaluation search is the pass's margin, in discs, beyond the window: one pass
/// per margin, loosest first. The evaluation's error against exact scores is about 7-10 discs
/// (RMS) at these empties, so the last pass's wide margin keeps its result close to the truth (a
/// single pass at 4-8 discs gave worse hints than at 12-16); a cheap loose pass before it orders
/// that pass's moves (other margins and counts of passes: docs/results/reversi.md). The margin
/// also marks the pass's table entries, so it is never 0, which marks exact ones.
const SELECTIVE_MARGINS: [i32; 2] = [6, 14];
/// Key mixed into table keys so that exact scores never meet midgame evaluations.
const SOLVER_KEY: u64 = crate::base::zobrist::key(crate::base::zobrist::family::REVERSI_SOLVER, 1);
/// The stop flag and clock are checked every this many nodes.
const CHECK_INTERVAL: u64 = 4096;

/// The four quadrants, for parity ordering: an odd number of empties in a quadrant is good to play in.
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// Squares in the quadrants with an odd number of empties.
#[inline(always)]
fn odd_quadrants(empty: u64) -> u64 {
    // Plain arithmetic, no iterator adapters: their calls, if not inlined first, would keep a hot
    // body from being compiled for its instruction set (see [`crate::base::cpu`]).
    let mut mask = 0;
    let mut index = 0;
    while index < 4 {
        let quadrant = QUADRANTS[index];
        mask |= quadrant & ((empty & quadrant).count_ones() as u64 & 1).wrapping_neg();
        index += 1;
    }
    mask
}

/// Corners first, then the rest: a cheap static preference used with parity.
const CORNERS: u64 = 0x8100_0000_0000_0081;

/// What every thread of one solve shares.
struct Shared<'a> {
    table: &'a TranspositionTable,
    stop: &'a AtomicBool,
    nodes: AtomicU64,
    request: &'a SolveRequest<'a>,
    parallel: bool,
    /// The current pass's margin (see [`Solver::selective`]).
    selective: AtomicI32,
    /// This solve's number, for the threads' local tables (see [`local_table::salt`]).
    solve: u64,
    /// The position's pattern weights, for the evaluation that orders moves far from the end.
    patterns: Option<&'a Weights>,
}

/// Abort flags of the split points above a node: a node gives up when any of them is raised.
struct Abort<'a> {
    flag: &'a AtomicBool,
    parent: Option<&'a Abort<'a>>,
}

impl Abort<'_> {
    fn raised(&self) -> bool {
        let mut link = Some(self);
        while let Some(abort) = link {
            if abort.flag.load(Ordering::Relaxed) {
                return true;
            }
            link = abort.parent;
        }
        false
    }
}

/// One thread's view of the solve.
struct Solver<'a, K: Kernels> {
    /// The kernels' instruction set. The hot methods run their bodies inside `cpu.run`, so that
    /// each one, inlined or not, is compiled for it.
    cpu: K,
    shared: &'a Shared<'a>,
    abort: Option<&'a Abort<'a>>,
    /// Nodes counted since the last report to [`Shared::nodes`].
    unreported: u64,
    /// The margin of the current selective pass, 0 in the exact pass. In a selective pass nodes may
    /// be cut off by probability ([`Solver::probable_cutoff`]); its table entries carry the margin
    /// and serve stricter passes only as move hints.
    selective: i32,
    /// This thread's own table, for the nodes below [`TABLE_EMPTIES`] (see [`local_table`]), its
    /// keys salted by this solve and pass.
    local: LocalTable,
    /// [`Shared::patterns`], kept here to spare the hot path a load.
    patterns: Option<&'a Weights>,
}

impl<'a, K: Kernels> Solver<'a, K> {
    fn new(cpu: K, shared: &'a Shared<'a>, abort: Option<&'a Abort<'a>>) -> Solver<'a, K> {
        let selective = shared.selective.load(Ordering::Relaxed);
        Solver {
            cpu,
            patterns: shared.patterns,
            shared,
            abort,
            unreported: 0,
            selective,
            local: LocalTable::of_this_thread(local_table::salt(shared.solve, selective)),
        }
    }

    /// Narrows `known` by a fail-soft null-window result and stores it in the local table.
    #[inline(always)]
    fn remember(
        &self,
        mut known: local_table::Entry,
        score: i32,
        alpha: i32,
        square: Option<usize>,
    ) {
        known.record(score, alpha, square);
        self.local.set(known);
    }

    /// Whether a table entry's score may cut off here: exact results always, selective ones only in
    /// a selective pass no stricter than the one that wrote them.
    #[inline]
    fn trusts(&self, entry: &crate::base::transposition::Entry) -> bool {
        trusted(entry.evaluation, self.selective)
    }

    /// Selective pass only: a shallow evaluation search far outside the null window `(alpha,
    /// alpha + 1)` predicts the result, as in ProbCut. Inlined into [`Solver::scout`]: a call
    /// returning an `Option<i32>` would keep that body from being compiled for `cpu` (see
    /// [`crate::base::cpu`]).
    #[inline(always)]
    fn probable_cutoff(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        empties: u32,
    ) -> Option<i32> {
        let depth = if empties >= 18 { 2 } else { 1 };
        let margin = self.selective * evaluation::DISC;
        let (low, high) = (
            alpha * evaluation::DISC - margin,
            (alpha + 1) * evaluation::DISC + margin,
        );
        // Only whether the value reaches `high` or stays at most `low` matters: a search in
        // that window decides it as a full-window one would.
        let value = evaluation_search(player, opponent, depth, low, high, self);
        // Final scores lie in -64..=64: no prediction may claim one outside (a window at the edge,
        // such as (64, 65), has only one possible answer, and the search finds it).
        if alpha < 64 && value >= high {
            Some(alpha + 1)
        } else if alpha > -65 && value <= low {
            Some(alpha)
        } else {
            None
        }
    }

    /// Whether the search must give up: stopped, out of time, or a brother cut off.
    fn interrupted(&self) -> bool {
        self.shared.stop.load(Ordering::Relaxed) || self.abort.is_some_and(Abort::raised)
    }

    #[inline]
    fn count_node(&mut self) {
        self.unreported += 1;
        if self.unreported >= CHECK_INTERVAL {
            self.report_nodes();
        }
    }

    /// Adds the unreported nodes to the total and checks the clock. Kept out of line: a call that
    /// returns a pair of values (here `Instant::elapsed`) inside a `cpu.run` body would stop that
    /// body from being compiled for `cpu` (see [`crate::base::cpu`]).
    #[cold]
    #[inline(never)]
    fn report_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.unreported, Ordering::Relaxed);
        self.unreported = 0;
        let request = self.shared.request;
        if request
            .hard_time
            .is_some_and(|hard| request.start.elapsed() >= hard)
        {
            self.shared.stop.store(true, Ordering::Relaxed);
        }
    }

    fn flush(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.unreported, Ordering::Relaxed);
        self.unreported = 0;
    }

    /// The score when the side to move plays the last empty square `square`. Small, so always
    /// inlined into its caller's instruction set, like [`Solver::last_two`].
    #[inline(always)]
    fn last_one(&mut self, player: u64, opponent: u64, square: usize) -> i32 {
        self.count_node();
        let discs = player.count_ones() as i32;
        let flipped = self.cpu.last_flip_count(square, player) as i32;
        if flipped > 0 {
            return 2 * (discs + flipped + 1) - 64;
        }
        let flipped = self.cpu.last_flip_count(square, opponent) as i32;
        if flipped > 0 {
            return 2 * (discs - flipped) - 64;
        }
        // Nobody can play: 63 discs, the empty goes to the winner.
        let difference = 2 * discs - 63;
        if difference > 0 {
            difference + 1
        } else {
            difference - 1
        }
    }

    /// Null-window search with two empties: returns a score compared with `alpha` (fail-soft).
    #[inline(always)]
    fn last_two(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        first: usize,
        second: usize,
    ) -> i32 {
        self.count_node();
        let mut best = -65;
        for (square, other) in [(first, second), (second, first)] {
            let flipped = self.cpu.flips(square, player, opponent);
            if flipped != 0 {
                let score =
                    -self.last_one(opponent ^ flipped, player ^ flipped ^ bit(square), other);
                if score > best {
                    best = score;
                    if score > alpha {
                        return score;
                    }
                }
            }
        }
        if best > -65 {
            return best;
        }
        // Pass: the opponent plays, if it can.
        let mut best = 65;
        for (square, other) in [(first, second), (second, first)] {
            let flipped = self.cpu.flips(square, opponent, player);
            if flipped != 0 {
                let score =
                    self.last_one(player ^ flipped, opponent ^ flipped ^ bit(square), other);
                if score < best {
                    best = score;
                    if score <= alpha {
                        return score;
                    }
                }
            }
        }
        if best < 65 {
            best
        } else {
            final_score(player, opponent)
        }
    }

    /// Null-window search with three empties, odd-quadrant squares first.
    fn last_three(&mut self, player: u64, opponent: u64, alpha: i32, squares: [usize; 3]) -> i32 {
        self.cpu.run(|| {
            self.count_node();
            let mut best = -65;
            for index in 0..3 {
                let square = squares[index];
                let flipped = self.cpu.flips(square, player, opponent);
                if flipped == 0 {
                    continue;
                }
                let (first, second) = match index {
                    0 => (squares[1], squares[2]),
                    1 => (squares[0], squares[2]),
                    _ => (squares[0], squares[1]),
                };
                let score = -self.last_two(
                    opponent ^ flipped,
                    player ^ flipped ^ bit(square),
                    -alpha - 1,
                    first,
                    second,
                );
                if score > best {
                    best = score;
                    if score > alpha {
                        return score;
                    }
                }
            }
            if best > -65 {
                return best;
            }
            let [first, second, third] = squares;
            if self.cpu.flips(first, opponent, player)
                | self.cpu.flips(second, opponent, player)
                | self.cpu.flips(third, opponent, player)
                != 0
            {
                return -self.last_three(opponent, player, -alpha - 1, squares);
            }
            final_score(player, opponent)
        })
    }

    /// Null-window search with four empties, odd-quadrant squares first; bounds in the thread's
    /// own table, which saves a few nodes at no cost in time.
    fn last_four(&mut self, player: u64, opponent: u64, alpha: i32) -> i32 {
        self.cpu.run(|| {
            self.count_node();
            let known = self.local.get(table_key(player, opponent));
            let decided = known.decision(alpha);
            if decided != local_table::UNDECIDED {
                return decided;
            }
            let empty = !(player | opponent);
            let squares = parity_ordered::<4>(empty);
            let mut best = -65;
            for index in 0..4 {
                let square = squares[index];
                let flipped = self.cpu.flips(square, player, opponent);
                if flipped == 0 {
                    continue;
                }
                let rest = match index {
                    0 => [squares[1], squares[2], squares[3]],
                    1 => [squares[0], squares[2], squares[3]],
                    2 => [squares[0], squares[1], squares[3]],
                    _ => [squares[0], squares[1], squares[2]],
                };
                let score = -self.last_three(
                    opponent ^ flipped,
                    player ^ flipped ^ bit(square),
                    -alpha - 1,
                    rest,
                );
                if score > best {
                    best = score;
                    if score > alpha {
                        break;
                    }
                }
            }
            if best > -65 {
                self.remember(known, best, alpha, None);
                return best;
            }
            if self.cpu.can_move(opponent, player) {
                return -self.last_four(opponent, player, -alpha - 1);
            }
            final_score(player, opponent)
        })
    }

    /// Null-window search near the end: parity ordering, bounds in the thread's own table.
    #[allow(clippy::needless_range_loop)] // masks by index (see the loop)
    fn shallow(&mut self, player: u64, opponent: u64, alpha: i32, empties: u32) -> i32 {
        self.cpu.run(|| {
            if empties == 4 {
                return self.last_four(player, opponent, alpha);
            }
            self.count_node();
            let moves = self.cpu.moves(player, opponent);
            if moves == 0 {
                if self.cpu.can_move(opponent, player) {
                    return -self.shallow(opponent, player, -alpha - 1, empties);
                }
                return final_score(player, opponent);
            }
            let ceiling = stability_ceiling(self.cpu, player, opponent, alpha, empties);
            if ceiling <= alpha {
                return ceiling;
            }
            let known = self.local.get(table_key(player, opponent));
            let decided = known.decision(alpha);
            if decided != local_table::UNDECIDED {
                return decided;
            }
            let odd = odd_quadrants(!(player | opponent));
            let mut best = -65;
            let masks = [
                moves & odd & CORNERS,
                moves & odd & !CORNERS,
                moves & !odd & CORNERS,
                moves & !odd & !CORNERS,
            ];
            // By index: an array's own iterator returns a pair from a call that may stay out of
            // line, which keeps this body from being compiled for `cpu` (see [`crate::base::cpu`]).
            for index in 0..4 {
                for square in bitboard::squares(masks[index]) {
                    let flipped = self.cpu.flips(square, player, opponent);
                    let score = -self.shallow(
                        opponent ^ flipped,
                        player ^ flipped ^ bit(square),
                        -alpha - 1,
                        empties - 1,
                    );
                    if score > best {
                        best = score;
                        if score > alpha {
                            self.remember(known, score, alpha, None);
                            return score;
                        }
                    }
                }
            }
            self.remember(known, best, alpha, None);
            best
        })
    }

    /// Null-window search: is the score above `alpha`? Returns a fail-soft bound.
    fn scout(&mut self, player: u64, opponent: u64, alpha: i32, empties: u32) -> i32 {
        self.cpu.run(|| {
            if empties <= SHALLOW_EMPTIES {
                return self.shallow(player, opponent, alpha, empties);
            }
            self.count_node();
            // Below the table's empties nothing is stored, so an interruption is only looked for
            // from there: the small subtrees below finish and their results are thrown away.
            let checked = empties >= TABLE_EMPTIES;
            if checked && self.interrupted() {
                return 0;
            }
            let moves = self.cpu.moves(player, opponent);
            if moves == 0 {
                if self.cpu.can_move(opponent, player) {
                    return -self.scout(opponent, player, -alpha - 1, empties);
                }
                return final_score(player, opponent);
            }
            let ceiling = stability_ceiling(self.cpu, player, opponent, alpha, empties);
            if ceiling <= alpha {
                return ceiling;
            }
            let beta = alpha + 1;
            let use_table = empties >= TABLE_EMPTIES;
            let key = table_key(player, opponent);
            let mut table_move = None;
            let mut known = local_table::Entry::unknown(0);
            if !use_table {
                // Below the shared table's empties, the thread's own table.
                known = self.local.get(key);
                let decided = known.decision(alpha);
                if decided != local_table::UNDECIDED {
                    return decided;
                }
                if known.square < 64 {
                    table_move = Some(known.square as usize);
                }
            } else if let Some(entry) = self.shared.table.probe(key) {
                if let Some(code) = entry.move_code {
                    table_move = Some(code as usize);
                }
                if entry.depth as u32 >= empties && self.trusts(&entry) {
                    match entry.bound {
                        Bound::Exact => return entry.score,
                        Bound::Lower if entry.score >= beta => return entry.score,
                        Bound::Upper if entry.score <= alpha => return entry.score,
                        _ => {}
                    }
                }
            }
            if empties >= ETC_EMPTIES {
                if let Some(score) = self.enhanced_cutoff(player, opponent, moves, beta, empties) {
                    return score;
                }
            }
            if self.selective != 0 && empties >= PROBABLE_CUTOFF_EMPTIES {
                if let Some(score) = self.probable_cutoff(player, opponent, alpha, empties) {
                    return score;
                }
            }
            let mut best = -65;
            let mut best_square = None;
            let mut remaining = moves;
            if empties >= EVALUATION_SORT_EMPTIES {
                // Not `Option::filter`: a call that returns an `Option` can keep this body from
                // being compiled for `cpu` (see [`crate::base::cpu`]).
                let square = table_move.unwrap_or(64);
                if square < 64 && moves & bit(square) != 0 {
                    let flipped = self.cpu.flips(square, player, opponent);
                    let score = -self.scout(
                        opponent ^ flipped,
                        player ^ flipped ^ bit(square),
                        -beta,
                        empties - 1,
                    );
                    if self.interrupted() {
                        return 0;
                    }
                    best = score;
                    best_square = Some(square);
                    remaining &= !bit(square);
                    if score > alpha || remaining == 0 {
                        self.store(key, best, best_square, alpha, beta, empties);
                        return best;
                    }
                }
            }
            let mut list = MoveList::new(
                player, opponent, remaining, table_move, alpha, empties, self,
            );
            if self.shared.parallel
                && empties >= SPLIT_EMPTIES
                && (list.len > 1 || best_square.is_some())
            {
                let best = self.split(
                    player,
                    opponent,
                    alpha,
                    empties,
                    &mut list,
                    (best, best_square),
                );
                if self.interrupted() {
                    return 0;
                }
                if use_table {
                    self.store(key, best.0, best.1, alpha, beta, empties);
                }
                return best.0;
            }
            for index in 0..list.len {
                let square = list.squares[index] as usize;
                let flipped = self.cpu.flips(square, player, opponent);
                let score = -self.scout(
                    opponent ^ flipped,
                    player ^ flipped ^ bit(square),
                    -beta,
                    empties - 1,
                );
                if checked && self.interrupted() {
                    return 0;
                }
                if score > best {
                    best = score;
                    best_square = Some(square);
                    if score > alpha {
                        break;
                    }
                }
            }
            if use_table {
                self.store(key, best, best_square, alpha, beta, empties);
            } else {
                self.remember(known, best, alpha, best_square);
            }
            best
        })
    }

    /// Enhanced transposition cut-off: a child whose stored upper bound already refutes the
    /// opponent proves the cut-off without a search. Inlined into [`Solver::scout`], like
    /// [`Solver::probable_cutoff`], for its `Option` result.
    #[inline(always)]
    #[allow(clippy::needless_range_loop)] // by index (see [`Solver::shallow`])
    fn enhanced_cutoff(
        &self,
        player: u64,
        opponent: u64,
        moves: u64,
        beta: i32,
        empties: u32,
    ) -> Option<i32> {
        // Every child's bucket is asked for first, so that the cache misses overlap.
        let mut keys = [0u64; 32];
        let mut count = 0;
        for square in bitboard::squares(moves) {
            let flipped = self.cpu.flips(square, player, opponent);
            let key = table_key(opponent ^ flipped, player ^ flipped ^ bit(square));
            self.shared.table.prefetch(key);
            keys[count] = key;
            count += 1;
        }
        for index in 0..count {
            let key = keys[index];
            if let Some(entry) = self.shared.table.probe(key) {
                if entry.depth as u32 >= empties - 1
                    && self.trusts(&entry)
                    && entry.bound != Bound::Lower
                    && -entry.score >= beta
                {
                    return Some(-entry.score);
                }
            }
        }
        None
    }

    /// Young-brothers-wait split: the first move alone, then the rest in parallel. `searched` is
    /// the score and move of an eldest brother already searched (the table's move), if any: then
    /// every move of `list` is searched in parallel.
    fn split(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        empties: u32,
        list: &mut MoveList,
        searched: (i32, Option<usize>),
    ) -> (i32, Option<usize>) {
        let beta = alpha + 1;
        let (score, first, rest) = match searched {
            (score, Some(square)) => (score, square, 0),
            _ => {
                let first = list.squares[0] as usize;
                let flipped = self.cpu.flips(first, player, opponent);
                let score = -self.scout(
                    opponent ^ flipped,
                    player ^ flipped ^ bit(first),
                    -beta,
                    empties - 1,
                );
                if self.interrupted() || score > alpha {
                    return (score, Some(first));
                }
                (score, first, 1)
            }
        };
        let best = AtomicI32::new(score);
        let best_square = AtomicI32::new(first as i32);
        let cut = AtomicBool::new(false);
        let abort = Abort {
            flag: &cut,
            parent: self.abort,
        };
        let (cpu, shared) = (self.cpu, self.shared);
        let squares = &list.squares[rest..list.len];
        rayon::scope_fifo(|scope| {
            for &square in squares {
                let abort = &abort;
                let best = &best;
                let best_square = &best_square;
                let cut = &cut;
                scope.spawn_fifo(move |_| {
                    if abort.raised() || shared.stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let mut solver = Solver::new(cpu, shared, Some(abort));
                    let square = square as usize;
                    let flipped = cpu.flips(square, player, opponent);
                    let score = -solver.scout(
                        opponent ^ flipped,
                        player ^ flipped ^ bit(square),
                        -beta,
                        empties - 1,
                    );
                    solver.flush();
                    if solver.interrupted() && !cut.load(Ordering::Relaxed) {
                        return;
                    }
                    if abort.raised() {
                        return;
                    }
                    if best.fetch_max(score, Ordering::Relaxed) < score {
                        best_square.store(square as i32, Ordering::Relaxed);
                    }
                    if score > alpha {
                        cut.store(true, Ordering::Relaxed);
                    }
                });
            }
        });
        let square = best_square.load(Ordering::Relaxed) as usize;
        (best.load(Ordering::Relaxed), Some(square))
    }

    fn store(
        &self,
        key: u64,
        best: i32,
        square: Option<usize>,
        alpha: i32,
        beta: i32,
        empties: u32,
    ) {
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let code = if bound == Bound::Upper {
            None
        } else {
            square.map(|s| s as u16)
        };
        self.shared
            .table
            .store(key, code, best, self.selective, empties as u8, bound);
    }

    /// Full-window search for principal-variation nodes: exact within `(alpha, beta)`.
    fn principal(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
        empties: u32,
    ) -> (i32, Option<usize>) {
        self.cpu.run(|| {
            if empties <= SHALLOW_EMPTIES {
                return (
                    self.exact_by_scouts(player, opponent, alpha, beta, empties),
                    None,
                );
            }
            self.count_node();
            if self.interrupted() {
                return (0, None);
            }
            let moves = self.cpu.moves(player, opponent);
            if moves == 0 {
                if self.cpu.can_move(opponent, player) {
                    let (score, _) = self.principal(opponent, player, -beta, -alpha, empties);
                    return (-score, None);
                }
                return (final_score(player, opponent), None);
            }
            let key = table_key(player, opponent);
            let table_move = self
                .shared
                .table
                .probe(key)
                .and_then(|entry| entry.move_code)
                .map(|code| code as usize);
            let list = MoveList::new(player, opponent, moves, table_move, alpha, empties, self);
            let (best, best_square) =
                self.search_moves(player, opponent, &list, alpha, beta, empties);
            if self.interrupted() {
                return (0, None);
            }
            self.store(key, best, best_square, alpha, beta, empties);
            (best, best_square)
        })
    }

    /// The exact score when it lies within `(alpha, beta)`, otherwise a bound beyond the window,
    /// by bisection with null-window searches.
    fn exact_by_scouts(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
        empties: u32,
    ) -> i32 {
        let (mut low, mut high) = (-64, 64);
        while low < high {
            let probe = low + (high - low) / 2;
            let score = self.scout(player, opponent, probe, empties);
            if self.interrupted() {
                return 0;
            }
            if score > probe {
                low = score;
                if low >= beta {
                    return low;
                }
            } else {
                high = score;
                if high <= alpha {
                    return high;
                }
            }
        }
        low
    }

    /// The exact score within `(alpha, beta)`, or a bound beyond it.
    fn exact(&mut self, player: u64, opponent: u64, alpha: i32, beta: i32, empties: u32) -> i32 {
        if empties <= SHALLOW_EMPTIES {
            self.exact_by_scouts(player, opponent, alpha, beta, empties)
        } else {
            self.principal(player, opponent, alpha, beta, empties).0
        }
    }
}

/// Fail-soft stable-disc cut-off: the side to move cannot score above `64 - 2 * opponent's stable`,
/// the ceiling returned; 65 (no cut-off) when `alpha` is below the threshold for `empties`. A plain
/// `i32` rather than an `Option`, so that no hot body keeps a call returning a pair (see
/// [`crate::base::cpu`]).
#[inline(always)]
fn stability_ceiling<K: Kernels>(
    cpu: K,
    player: u64,
    opponent: u64,
    alpha: i32,
    empties: u32,
) -> i32 {
    // Only the opponent's discs can be its stable ones: when all of them would not bring the
    // ceiling down to `alpha`, counting the stable ones cannot either.
    if alpha < STABILITY_THRESHOLD[empties as usize]
        || 64 - 2 * opponent.count_ones() as i32 > alpha
    {
        return 65;
    }
    64 - 2 * cpu.stable_discs(opponent, player).count_ones() as i32
}

/// The solver's table key: a multiply-xorshift mix of the two bitboards, cheaper than the game's
/// byte-table Zobrist hash and unrelated to the midgame's keys.
#[inline(always)]
fn table_key(player: u64, opponent: u64) -> u64 {
    // Relative to the side to move, so the colour does not matter to the solver.
    let mut key = (player ^ SOLVER_KEY).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ opponent.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(32);
    key ^= key >> 29;
    key = key.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    key ^ (key >> 32)
}

/// The first `N` empty squares, odd-quadrant ones first.
#[inline(always)]
#[allow(clippy::needless_range_loop)] // masks by index (see the loop)
fn parity_ordered<const N: usize>(empty: u64) -> [usize; N] {
    let odd = odd_quadrants(empty);
    let mut squares = [0usize; N];
    let mut filled = 0;
    // By index, not by the array's iterator (see [`Solver::shallow`]).
    let masks = [empty & odd, empty & !odd];
    for index in 0..2 {
        let mut remaining = masks[index];
        while remaining != 0 && filled < N {
            squares[filled] = remaining.trailing_zeros() as usize;
            filled += 1;
            remaining &= remaining - 1;
        }
    }
    squares
}

/// The moves of a node, best first.
struct MoveList {
    squares: [u8; 32],
    len: usize,
}

impl MoveList {
    fn new<K: Kernels>(
        player: u64,
        opponent: u64,
        moves: u64,
        table_move: Option<usize>,
        alpha: i32,
        empties: u32,
        solver: &mut Solver<K>,
    ) -> MoveList {
        solver.cpu.run(|| {
            let mut squares = [0u8; 32];
            let mut values = [0i32; 32];
            let mut len = 0;
            let odd = odd_quadrants(!(player | opponent));
            // A child's evaluation search only needs its exact value when the move may come
            // near `alpha`: below, a bound orders it well enough among the bad moves.
            let sort_ceiling = (EVALUATION_SORT_MARGIN - alpha) * evaluation::DISC;
            for square in bitboard::squares(moves) {
                let flipped = solver.cpu.flips(square, player, opponent);
                let next_player = opponent ^ flipped;
                let next_opponent = player ^ flipped ^ bit(square);
                // The children's buckets are asked for while the list is built, so that their
                // probes find them loaded (from `ETC_EMPTIES` the cut-off's probes load them).
                if empties > TABLE_EMPTIES && empties < ETC_EMPTIES {
                    solver
                        .shared
                        .table
                        .prefetch(table_key(next_player, next_opponent));
                }
                let value = if Some(square) == table_move {
                    1 << 30
                } else if empties >= EVALUATION_SORT_EMPTIES {
                    // Near the root, a shallow search with the evaluation orders best: 2 plies
                    // from 18 empties, 3 at 22, 4 from 23, deeper only where the subtrees are
                    // large enough to repay it (measurements: docs/results/reversi.md).
                    let depth = match empties {
                        23.. => 4,
                        22 => 3,
                        _ => 2,
                    };
                    -evaluation_search(
                        next_player,
                        next_opponent,
                        depth,
                        -crate::base::score::INFINITY,
                        sort_ceiling,
                        solver,
                    ) * 4
                        - solver.cpu.moves(next_player, next_opponent).count_ones() as i32
                            * EVALUATION_SORT_MOBILITY_WEIGHT
                } else if empties >= STATIC_EVALUATION_EMPTIES {
                    fast_value(solver.cpu, square, next_player, next_opponent, odd)
                        - evaluation::evaluate_with(
                            solver.cpu,
                            next_player,
                            next_opponent,
                            Strength::FULL,
                            solver.patterns,
                        ) * STATIC_EVALUATION_WEIGHT
                            / evaluation::DISC
                } else {
                    fast_value(solver.cpu, square, next_player, next_opponent, odd)
                };
                squares[len] = square as u8;
                values[len] = value;
                len += 1;
            }
            // Insertion sort: lists are short.
            for index in 1..len {
                let (square, value) = (squares[index], values[index]);
                let mut at = index;
                while at > 0 && values[at - 1] < value {
                    squares[at] = squares[at - 1];
                    values[at] = values[at - 1];
                    at -= 1;
                }
                squares[at] = square;
                values[at] = value;
            }
            MoveList { squares, len }
        })
    }
}

/// Weights of the fast move ordering, by importance: the opponent's replies (corners count twice),
/// our stable corner discs, the opponent's potential mobility, then parity.
const MOBILITY_WEIGHT: i32 = 1 << 12;
const CORNER_STABILITY_WEIGHT: i32 = 1 << 11;
const POTENTIAL_MOBILITY_WEIGHT: i32 = 1 << 8;
const PARITY_WEIGHT: i32 = 1 << 7;

/// Fast ordering value of a move that leads to (`next_player`, `next_opponent`), where
/// `next_opponent` holds the mover's discs.
#[inline(always)]
fn fast_value<K: Kernels>(
    cpu: K,
    square: usize,
    next_player: u64,
    next_opponent: u64,
    odd: u64,
) -> i32 {
    let replies = cpu.moves(next_player, next_opponent);
    let mobility = replies.count_ones() + (replies & CORNERS).count_ones();
    let empty = !(next_player | next_opponent);
    let potential = (evaluation::neighbours(next_opponent) & empty).count_ones();
    let mut value = -(mobility as i32) * MOBILITY_WEIGHT
        + corner_stability(next_opponent) * CORNER_STABILITY_WEIGHT
        - potential as i32 * POTENTIAL_MOBILITY_WEIGHT;
    if bit(square) & odd != 0 {
        value += PARITY_WEIGHT;
    }
    value
}

/// Discs stable for sure next to the corners: owned corners and their owned edge neighbours.
#[inline(always)]
fn corner_stability(discs: u64) -> i32 {
    const CORNER_NEIGHBOURS: [(usize, [usize; 2]); 4] =
        [(0, [1, 8]), (7, [6, 15]), (56, [57, 48]), (63, [62, 55])];
    if discs & CORNERS == 0 {
        return 0;
    }
    let mut count = 0;
    for (corner, neighbours) in CORNER_NEIGHBOURS {
        if discs & bit(corner) != 0 {
            count += 1 + neighbours
                .iter()
                .filter(|&&square| discs & bit(square) != 0)
                .count() as i32;
        }
    }
    count
}

/// Nodes of [`evaluation_search`] with at least this many plies left try their moves fewest
/// replies first. The search's value does not depend on the order, only its size; from 1 ply the
/// replies' move generation would cost more than the leaves it saves (docs/results/reversi.md).
const EVALUATION_ORDER_DEPTH: u32 = 2;

/// A small alpha-beta search on the midgame evaluation, for ordering near the root: the value
/// within `(alpha, beta)` (evaluation units), otherwise a bound beyond it (fail-soft).
#[allow(clippy::needless_range_loop)] // by index (see [`Solver::shallow`])
fn evaluation_search<K: Kernels>(
    player: u64,
    opponent: u64,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    solver: &mut Solver<K>,
) -> i32 {
    solver.cpu.run(|| {
        solver.count_node();
        if depth == 0 {
            return evaluation::evaluate_with(
                solver.cpu,
                player,
                opponent,
                Strength::FULL,
                solver.patterns,
            );
        }
        let moves = solver.cpu.moves(player, opponent);
        if moves == 0 {
            if solver.cpu.can_move(opponent, player) {
                return -evaluation_search(opponent, player, depth, -beta, -alpha, solver);
            }
            return final_score(player, opponent) * evaluation::DISC;
        }
        // Squares in the order to try, each in the low 6 bits of a key sorted ascending.
        let mut keys = [0u32; 32];
        let mut count = 0;
        for square in bitboard::squares(moves) {
            let mut key = square as u32;
            if depth >= EVALUATION_ORDER_DEPTH {
                let flipped = solver.cpu.flips(square, player, opponent);
                let replies = solver
                    .cpu
                    .moves(opponent ^ flipped, player ^ flipped ^ bit(square));
                key |= (replies.count_ones() + (replies & CORNERS).count_ones()) << 6;
            }
            // Insertion: lists are short.
            let mut at = count;
            while at > 0 && keys[at - 1] > key {
                keys[at] = keys[at - 1];
                at -= 1;
            }
            keys[at] = key;
            count += 1;
        }
        let mut best = -crate::base::score::INFINITY;
        for index in 0..count {
            let square = (keys[index] & 63) as usize;
            let flipped = solver.cpu.flips(square, player, opponent);
            let score = -evaluation_search(
                opponent ^ flipped,
                player ^ flipped ^ bit(square),
                depth - 1,
                -beta,
                -alpha,
                solver,
            );
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    })
}

/// Solves `position` exactly. `None` when the game is over or the solve was stopped.
pub fn solve(position: &Reversi, request: &SolveRequest) -> Option<Solution<ReversiMove>> {
    cpu::dispatch!(cpu => solve_with(cpu, position, request))
}

/// [`solve`] with the kernels of `cpu`.
fn solve_with<K: Kernels>(
    cpu: K,
    position: &Reversi,
    request: &SolveRequest,
) -> Option<Solution<ReversiMove>> {
    let player = position.player;
    let opponent = position.opponent;
    let empties = position.empties();
    let root_moves = cpu.moves(player, opponent);
    if root_moves == 0 && !cpu.can_move(opponent, player) {
        return None;
    }
    let parallel = request.threads > 1;
    let shared = Shared {
        table: request.table,
        stop: request.stop,
        nodes: AtomicU64::new(0),
        request,
        parallel,
        selective: AtomicI32::new(0),
        solve: local_table::new_solve(),
        patterns: position.patterns().values.as_ref(),
    };
    let run = || {
        let mut solver = Solver::new(cpu, &shared, None);
        let moves = if root_moves == 0 {
            // A forced pass: solve the opponent's position.
            let score = -solver.exact(opponent, player, -64, 64, empties);
            vec![(ReversiMove::PASS, score)]
        } else {
            solver.root(player, opponent, root_moves, empties, request.all_moves)
        };
        solver.flush();
        if solver.interrupted() {
            return None;
        }
        let pv = principal_variation(position, request.table, moves[0].0);
        Some(Solution {
            moves,
            scale: SolutionScale::Margin,
            pv,
            nodes: shared.nodes.load(Ordering::Relaxed),
        })
    };
    if !parallel {
        // One thread needs no pool: solve here (self-play calls this from its own pool's threads).
        return run();
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(request.threads)
        .stack_size(16 << 20)
        .build()
        .ok()?;
    pool.install(run)
}

impl<K: Kernels> Solver<'_, K> {
    /// The root: every move's exact score when `all_moves`, otherwise the best move's exact score.
    /// Moves come back best first.
    fn root(
        &mut self,
        player: u64,
        opponent: u64,
        moves: u64,
        empties: u32,
        all_moves: bool,
    ) -> Vec<(ReversiMove, i32)> {
        let key = table_key(player, opponent);
        let table_move = self
            .shared
            .table
            .probe(key)
            .and_then(|entry| entry.move_code)
            .map(|code| code as usize);
        let list = MoveList::new(player, opponent, moves, table_move, -65, empties, self);
        if all_moves {
            let mut scored: Vec<(ReversiMove, i32)> = Vec::with_capacity(list.len);
            for &square in &list.squares[..list.len] {
                let square = square as usize;
                let flipped = self.cpu.flips(square, player, opponent);
                let score = -self.exact(
                    opponent ^ flipped,
                    player ^ flipped ^ bit(square),
                    -64,
                    64,
                    empties - 1,
                );
                if self.interrupted() {
                    return Vec::new();
                }
                scored.push((ReversiMove(square as u16), score));
            }
            scored.sort_by_key(|&(_, score)| std::cmp::Reverse(score));
            return scored;
        }
        // Aspiration: final scores are even, so odd bounds around an estimate leave the
        // estimate's neighbourhood exact; a failure widens the window on that side.
        let mut guess = self.estimate(player, opponent, empties);
        let mut list = list;
        if empties >= SELECTIVE_EMPTIES {
            // The selective passes: a closer estimate for the window and better move hints each.
            for margin in SELECTIVE_MARGINS {
                self.set_selective(margin);
                let result = self.aspirated(player, opponent, &list, guess, empties);
                self.set_selective(0);
                let Some((best, square)) = result else {
                    return Vec::new();
                };
                guess = best;
                if let Some(at) = list.squares[..list.len]
                    .iter()
                    .position(|&s| s as usize == square)
                {
                    list.squares[..=at].rotate_right(1);
                }
            }
        }
        let Some((best, square)) = self.aspirated(player, opponent, &list, guess, empties) else {
            return Vec::new();
        };
        self.store(key, best, Some(square), -65, 65, empties);
        vec![(ReversiMove(square as u16), best)]
    }

    fn set_selective(&mut self, selective: i32) {
        self.selective = selective;
        self.local
            .set_salt(local_table::salt(self.shared.solve, selective));
        self.shared.selective.store(selective, Ordering::Relaxed);
    }

    /// The root's best score and move by aspiration windows around `guess`; `None` when stopped.
    fn aspirated(
        &mut self,
        player: u64,
        opponent: u64,
        list: &MoveList,
        guess: i32,
        empties: u32,
    ) -> Option<(i32, usize)> {
        let (mut low, mut high) = ((guess - ASPIRATION).max(-65), (guess + ASPIRATION).min(65));
        // Which sides have failed: a selective pass's results depend on the window, so a window
        // may fail high and the next one, re-centred, fail low, for ever. After failures on both
        // sides the window is the whole range, which cannot fail.
        let (mut failed_low, mut failed_high) = (false, false);
        loop {
            let (best, square) = self.search_moves(player, opponent, list, low, high, empties);
            if self.interrupted() {
                return None;
            }
            if best <= low && low > -65 {
                failed_low = true;
                (low, high) = ((best - 2 * ASPIRATION).max(-65), best + 1);
            } else if best >= high && high < 65 {
                failed_high = true;
                (low, high) = (best - 1, (best + 2 * ASPIRATION).min(65));
            } else {
                return Some((best, square.expect("a root with moves has a best move")));
            }
            if failed_low && failed_high {
                (low, high) = (-65, 65);
            }
        }
    }

    /// Principal-variation search of the moves of `list` within `(low, high)`: the first move with
    /// the whole window, the others with a null window first. Fail-soft; the result means nothing
    /// once the solve is interrupted.
    fn search_moves(
        &mut self,
        player: u64,
        opponent: u64,
        list: &MoveList,
        low: i32,
        high: i32,
        empties: u32,
    ) -> (i32, Option<usize>) {
        let mut alpha = low;
        let mut best = -65;
        let mut best_square = None;
        for (index, &square) in list.squares[..list.len].iter().enumerate() {
            let square = square as usize;
            let flipped = self.cpu.flips(square, player, opponent);
            let (next_player, next_opponent) = (opponent ^ flipped, player ^ flipped ^ bit(square));
            let score = if index == 0 {
                -self.exact(next_player, next_opponent, -high, -alpha, empties - 1)
            } else {
                let probe = -self.scout(next_player, next_opponent, -alpha - 1, empties - 1);
                if probe > alpha && probe < high && !self.interrupted() {
                    -self.exact(
                        next_player,
                        next_opponent,
                        -high,
                        -probe.max(alpha),
                        empties - 1,
                    )
                } else {
                    probe
                }
            };
            if self.interrupted() {
                return (best, best_square);
            }
            if score > best {
                best = score;
                best_square = Some(square);
                if score > alpha {
                    alpha = score;
                    if score >= high {
                        break;
                    }
                }
            }
        }
        (best, best_square)
    }

    /// An even estimate of the final score from a shallow evaluation search.
    fn estimate(&mut self, player: u64, opponent: u64, empties: u32) -> i32 {
        let depth = (empties / 4).clamp(1, 6);
        let value = evaluation_search(
            player,
            opponent,
            depth,
            -crate::base::score::INFINITY,
            crate::base::score::INFINITY,
            self,
        ) / evaluation::DISC;
        (value.clamp(-64, 64) / 2) * 2
    }
}

/// Whether a pass with margin `pass` (0: the exact pass) may take a score from a table entry
/// whose evaluation field is `mark` (0: exact; otherwise the margin of the selective pass that
/// wrote it).
#[inline(always)]
fn trusted(mark: i32, pass: i32) -> bool {
    mark == 0 || (pass != 0 && mark >= pass)
}

/// Follows table moves from the best move to build a principal variation.
fn principal_variation(
    position: &Reversi,
    table: &TranspositionTable,
    first: ReversiMove,
) -> Vec<ReversiMove> {
    let mut line = vec![first];
    let mut current = position.clone();
    current.play_unchecked(first);
    while line.len() < 60 && current.outcome().is_none() {
        let next = match current.forced_pass() {
            Some(pass) => pass,
            None => {
                let Some(code) = table
                    .probe(table_key(current.player, current.opponent))
                    .and_then(|entry| entry.move_code)
                else {
                    break;
                };
                let mv = ReversiMove(code);
                if !current.is_legal(mv) {
                    break;
                }
                mv
            }
        };
        current.play_unchecked(next);
        line.push(next);
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::reversi::obf;
    use std::time::Instant;

    /// Every position within two plies of `player`/`opponent` (both colours to move).
    fn neighbourhood(player: u64, opponent: u64) -> Vec<(u64, u64)> {
        let mut found = vec![(player, opponent)];
        for _ in 0..2 {
            let mut next = Vec::new();
            for &(player, opponent) in &found {
                for square in bitboard::squares(bitboard::moves(player, opponent)) {
                    let flipped = bitboard::flips(square, player, opponent);
                    next.push((opponent ^ flipped, player ^ flipped ^ bit(square)));
                }
            }
            found.extend(next);
        }
        found
    }

    #[test]
    fn table_keys_tell_nearby_positions_apart() {
        // Every position up to six plies from the start, and each with the colours swapped.
        let start = Reversi::new();
        let mut positions = vec![(start.player, start.opponent)];
        for _ in 0..3 {
            let mut next: Vec<(u64, u64)> = positions
                .iter()
                .flat_map(|&(player, opponent)| neighbourhood(player, opponent))
                .collect();
            next.sort_unstable();
            next.dedup();
            positions = next;
        }
        let swapped: Vec<(u64, u64)> = positions.iter().map(|&(p, o)| (o, p)).collect();
        positions.extend(swapped);
        positions.sort_unstable();
        positions.dedup();
        let mut keys: Vec<u64> = positions
            .iter()
            .map(|&(player, opponent)| table_key(player, opponent))
            .collect();
        keys.sort_unstable();
        keys.dedup();
        assert!(positions.len() > 10_000, "{} positions", positions.len());
        assert_eq!(keys.len(), positions.len());
        // The bucket index takes the key's high bits: they must vary too.
        let mut high: Vec<u64> = keys.iter().map(|key| key >> 44).collect();
        high.sort_unstable();
        high.dedup();
        assert!(
            high.len() * 10 >= keys.len() * 9,
            "{} of {}",
            high.len(),
            keys.len()
        );
    }

    /// The weights the tests' evaluations use.
    static PATTERNS: std::sync::LazyLock<evaluation::Patterns> =
        std::sync::LazyLock::new(evaluation::embedded);

    /// Plain minimax on the evaluation, every move in square order, no pruning.
    fn minimax(player: u64, opponent: u64, depth: u32) -> i32 {
        let cpu = crate::base::cpu::Portable;
        if depth == 0 {
            return evaluation::evaluate_with(
                cpu,
                player,
                opponent,
                Strength::FULL,
                PATTERNS.values.as_ref(),
            );
        }
        let moves = cpu.moves(player, opponent);
        if moves == 0 {
            if cpu.can_move(opponent, player) {
                return -minimax(opponent, player, depth);
            }
            return final_score(player, opponent) * evaluation::DISC;
        }
        bitboard::squares(moves)
            .map(|square| {
                let flipped = cpu.flips(square, player, opponent);
                -minimax(
                    opponent ^ flipped,
                    player ^ flipped ^ bit(square),
                    depth - 1,
                )
            })
            .max()
            .expect("a move")
    }

    #[test]
    fn the_evaluation_search_finds_the_minimax_value_whatever_its_move_order_and_window() {
        // Its moves are tried fewest replies first from `EVALUATION_ORDER_DEPTH` plies: pruning
        // may skip nodes but never change the value.
        let table = TranspositionTable::new(1);
        let stop = AtomicBool::new(false);
        let request = one_thread_request(&stop, &table, false, None);
        let shared = Shared {
            table: &table,
            stop: &stop,
            nodes: AtomicU64::new(0),
            request: &request,
            parallel: false,
            selective: AtomicI32::new(0),
            solve: local_table::new_solve(),
            patterns: PATTERNS.values.as_ref(),
        };
        let mut solver = Solver::new(crate::base::cpu::Portable, &shared, None);
        let entries =
            obf::parse_file(include_str!("../../../tests/data/fforum-20-39.obf")).unwrap();
        for entry in &entries[..8] {
            let (player, opponent) = (entry.position.player, entry.position.opponent);
            for depth in 1..=3 {
                let exact = minimax(player, opponent, depth);
                let infinity = crate::base::score::INFINITY;
                assert_eq!(
                    evaluation_search(player, opponent, depth, -infinity, infinity, &mut solver),
                    exact,
                    "depth {depth}"
                );
                // In a narrower window: the value inside it, a bound beyond it (fail-soft).
                for (low, high) in [(-150, -50), (-50, 50), (50, 150), (-1, 1), (0, 1), (-1, 0)] {
                    let (alpha, beta) = (exact + low, exact + high);
                    let value =
                        evaluation_search(player, opponent, depth, alpha, beta, &mut solver);
                    if value <= alpha {
                        assert!(exact <= value, "depth {depth}, window {low}..{high}");
                    } else if value >= beta {
                        assert!(exact >= value, "depth {depth}, window {low}..{high}");
                    } else {
                        assert_eq!(value, exact, "depth {depth}, window {low}..{high}");
                    }
                }
            }
        }
    }

    /// A one-thread request over `table` and `stop`, with no time limit unless `hard_time`.
    fn one_thread_request<'a>(
        stop: &'a AtomicBool,
        table: &'a TranspositionTable,
        all_moves: bool,
        hard_time: Option<std::time::Duration>,
    ) -> SolveRequest<'a> {
        SolveRequest {
            stop,
            threads: 1,
            start: Instant::now(),
            hard_time,
            all_moves,
            table,
        }
    }

    /// One single-threaded solve with `cpu`'s kernels: the best score and the node count.
    fn solve_counting<K: Kernels>(cpu: K, position: &Reversi) -> (Option<i32>, u64) {
        let table = TranspositionTable::new(16);
        let stop = AtomicBool::new(false);
        let request = one_thread_request(&stop, &table, false, None);
        let solution = solve_with(cpu, position, &request).expect("a position in play solves");
        (Some(solution.moves[0].1), solution.nodes)
    }

    /// Both instruction sets find the known scores through the same trees (equal node counts).
    #[test]
    fn instruction_sets_solve_alike() {
        let entries = obf::parse_file(include_str!("../../../tests/data/fforum-1-19.obf")).unwrap();
        for entry in entries.iter().take(6) {
            let mut results = Vec::new();
            cpu::for_each_set!(cpu => results.push(solve_counting(cpu, &entry.position)));
            assert_eq!(results[0].0, entry.best_score());
            assert!(
                results.iter().all(|&result| result == results[0]),
                "{results:?}"
            );
        }
    }

    #[test]
    fn passes_trust_only_results_at_least_as_strict() {
        let [loose, strict] = SELECTIVE_MARGINS;
        assert!(loose < strict);
        // The exact pass trusts only exact entries.
        assert!(trusted(0, 0));
        assert!(!trusted(loose, 0) && !trusted(strict, 0));
        // A selective pass trusts exact entries and those of passes as strict or stricter.
        assert!(trusted(0, loose) && trusted(loose, loose) && trusted(strict, loose));
        assert!(trusted(0, strict) && trusted(strict, strict));
        assert!(!trusted(loose, strict));
    }

    #[test]
    fn selective_entries_never_decide_the_exact_score() {
        // FForum #26 (20 empties, so the selective pass runs). Fill the table around the root with
        // false "exact" selective results: the exact pass may take moves from the table, but its
        // scores must come from its own proof.
        let entries =
            obf::parse_file(include_str!("../../../tests/data/fforum-20-39.obf")).unwrap();
        let entry = &entries[6];
        let position = &entry.position;
        assert!(position.empties() >= SELECTIVE_EMPTIES);
        let table = TranspositionTable::new(16);
        for (player, opponent) in neighbourhood(position.player, position.opponent) {
            let empties = 64 - (player | opponent).count_ones();
            for bound in [Bound::Exact, Bound::Lower, Bound::Upper] {
                let lie = if bound == Bound::Upper { -64 } else { 64 };
                table.store(
                    table_key(player, opponent),
                    None,
                    lie,
                    SELECTIVE_MARGINS[SELECTIVE_MARGINS.len() - 1],
                    empties as u8,
                    bound,
                );
            }
        }
        let stop = AtomicBool::new(false);
        let request = one_thread_request(&stop, &table, false, None);
        let solution = solve(position, &request).expect("a position in play solves");
        assert_eq!(Some(solution.moves[0].1), entry.best_score());
    }

    /// Solves `position` on one thread with a fresh table, giving up after `seconds`: every root
    /// move searched with the full window and no selective pass (`all_moves`), or the best one.
    fn solve_within(position: &Reversi, all_moves: bool, seconds: u64) -> Vec<(ReversiMove, i32)> {
        let stop = AtomicBool::new(false);
        let table = TranspositionTable::new(16);
        let hard_time = Some(std::time::Duration::from_secs(seconds));
        let request = one_thread_request(&stop, &table, all_moves, hard_time);
        solve(position, &request).map_or(Vec::new(), |solution| solution.moves)
    }

    /// The root's best score agrees with the exact scores of all its moves.
    fn assert_solves_exactly(player: u64, opponent: u64) {
        let position = Reversi::from_bitboards(player, opponent, 0);
        assert!(position.empties() >= SELECTIVE_EMPTIES);
        let best = solve_within(&position, false, 30);
        assert!(!best.is_empty(), "no answer within 30 s");
        let exact = solve_within(&position, true, 600);
        let exact = exact.iter().map(|&(_, score)| score).max();
        assert_eq!(Some(best[0].1), exact);
        assert!((-64..=64).contains(&best[0].1));
    }

    #[test]
    fn a_near_wipe_out_keeps_its_scores_in_range() {
        // Found by self-play (seed 6, game 481, exact from 20 empties): the side to move has 12
        // discs against 32 and loses by about 60. A selective pass's window reaches -65, so its
        // scouts ask whether a reply scores at least 65; the probable cut-off answered yes (a score
        // no game can have), every root move came back as -65 and the root found no best move.
        assert_solves_exactly(0x0030_3434_1020_2020, 0x1f0f_0b0b_0f0f_1f0f);
    }

    #[test]
    fn an_unstable_selective_pass_still_ends() {
        // Found by self-play (seed 5, game 5364, exact from 20 empties): in the first selective
        // pass the window (-6, 5) failed high at 5 and the re-centred window (4, 15) failed low
        // at 4, and so on for ever (selective results depend on the window).
        assert_solves_exactly(0x0018_6061_9a04_3810, 0x7e24_1f1e_24fa_0508);
    }
}
