//! The search, written once for every game: iterative-deepening principal-variation search with
//! aspiration windows, a shared lock-free transposition table and Lazy SMP threads.
//!
//! Two-player games use negamax. For three or more players the search is *paranoid*: the root
//! player plays against a coalition of all the others, and scores flip sign only when the turn
//! passes between the root player and the coalition. A game may ask for best-reply search instead
//! ([`MultiplayerSearch::BestReply`], in `search/best_reply.rs`), where the coalition's turn is
//! the single strongest reply of any one opponent, or Monte-Carlo tree search
//! ([`MultiplayerSearch::MonteCarlo`], in `search/monte_carlo.rs`).
//!
//! Every thread checks the node and hard time limits as it counts its nodes and raises the one
//! shared stop flag; only the main thread decides whether another iteration is worth starting
//! ([`Limits::next_iteration`]: the time manager, the same for every game).
//! With one thread and a fixed depth the search is deterministic.

mod best_reply;
mod busy;
pub mod limits;
mod monte_carlo;
pub mod ordering;
#[cfg(test)]
mod tests;

use crate::base::score::{self, INFINITY, MAX_PLY};
use crate::base::transposition::{Bound, Entry, TranspositionTable};
use crate::game::{
    Game, LeftOutLosses, MoveCode, MultiplayerSearch, Outcome, Player, ProbCut, ProofRequest,
    Selectivity, Strength,
};
use crate::search::limits::{IterationTimes, Limits};
use crate::search::ordering::{History, Killers, MovePicker, Picked, Rank};
use busy::Busy;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Half-width of the first aspiration window, in score units, unless the game asks for another
/// ([`Selectivity::aspiration_window`]).
const ASPIRATION_WINDOW: i32 = 40;
/// Aspiration windows start at this depth.
const ASPIRATION_DEPTH: u32 = 4;
/// Late-move reductions apply from this depth...
const REDUCTION_DEPTH: i32 = 3;
/// ...to moves after this many have been searched.
const REDUCTION_MOVES: usize = 4;
/// Threads add their node counts to the shared total, and the main thread checks the clock, every
/// this many nodes.
const CHECK_INTERVAL: u64 = 1024;
/// Stack for each search thread: recursion is at most `MAX_PLY` deep, with move buffers on the heap.
const STACK_SIZE: usize = 32 << 20;
/// Key mixed into the hash for the root player of a multi-player (paranoid) search.
const ROOT_KEYS_FAMILY: u64 = crate::base::zobrist::family::PARANOID_ROOT;
/// Key mixed into the hash for the root player of a best-reply search.
const BEST_REPLY_KEYS_FAMILY: u64 = crate::base::zobrist::family::BEST_REPLY_ROOT;
/// Node budget of the game's proof searches at the root ([`crate::game::SearchHooks::find_forced_win`] and
/// [`crate::game::SearchHooks::keep_root_defences`])...
const ROOT_PROOF_NODES: u64 = 60_000;
/// ...and at inner nodes with at least [`PROOF_DEPTH`] plies left.
const NODE_PROOF_NODES: u64 = 200;
const PROOF_DEPTH: i32 = 1;
/// ProbCut cuts a node when its deep value lies this many of the model's standard deviations
/// outside the window.
const PROBCUT_THRESHOLD: f64 = 1.5;
/// With several threads, a node with at least this many plies left is marked busy while searched,
/// and a later move whose position another thread is searching waits for the end of the list.
const DEFER_DEPTH: i32 = 2;
/// The static value of a ply whose node did not compute one (see [`Worker::static_values`]).
const NO_STATIC_VALUE: i32 = i32::MIN;

/// What a search is asked to do.
#[derive(Clone, Debug)]
pub struct SearchRequest {
    /// Depth, node and time limits.
    pub limits: Limits,
    /// Threads to search with (at least one).
    pub threads: usize,
    /// How much the evaluation knows.
    pub strength: Strength,
    /// How many root moves get exact scores (1 for play; more for `hint` and `analyze`).
    pub multi_pv: usize,
    /// Play a single legal move at once instead of searching it.
    pub instant_single_move: bool,
    /// Cut nodes by ProbCut where the game has a model for it ([`crate::game::SearchHooks::probcut`]); off for
    /// searches that calibrate the model or must not depend on it.
    pub probcut: bool,
    /// The selective pruning and extensions of a two-player search: `None` (the default) for what
    /// the game asks ([`crate::game::SearchHooks::selectivity`]), or these instead.
    pub selectivity: Option<Selectivity>,
}

impl Default for SearchRequest {
    fn default() -> Self {
        SearchRequest {
            limits: Limits::default(),
            threads: 1,
            strength: Strength::FULL,
            multi_pv: 1,
            instant_single_move: false,
            probcut: true,
            selectivity: None,
        }
    }
}

/// A root move with its score after the last completed iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootLine<M> {
    /// The move.
    pub mv: M,
    /// Its score for the side to move at the root.
    pub score: i32,
    /// Whether `score` is exact; otherwise it is an upper bound (the move was refuted).
    pub exact: bool,
    /// The depth of the last iteration that searched this move; 0 before any has.
    pub depth: u32,
    /// The principal variation, starting with `mv`.
    pub pv: Vec<M>,
}

/// What one completed iteration found; reported to the caller as it goes.
#[derive(Clone, Debug)]
pub struct Iteration<M> {
    /// The iteration's depth.
    pub depth: u32,
    /// Root moves, best first. A stopped iteration can count (see [`search`]); then the moves it
    /// did not reach keep the score and depth of the last iteration that searched them.
    pub lines: Vec<RootLine<M>>,
    /// The deepest ply any thread reached so far.
    pub selective_depth: u32,
    /// Nodes searched so far, over all threads.
    pub nodes: u64,
    /// Time since the search began.
    pub elapsed: Duration,
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct SearchOutcome<M> {
    /// The last completed (or usable partial) iteration; `None` when the game is over.
    pub best: Option<Iteration<M>>,
    /// Nodes over all threads.
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
}

impl<M: Copy> SearchOutcome<M> {
    /// The move to play.
    pub fn best_move(&self) -> Option<M> {
        self.best
            .as_ref()
            .and_then(|iteration| iteration.lines.first())
            .map(|line| line.mv)
    }

    /// The score of the best move.
    pub fn score(&self) -> Option<i32> {
        self.best
            .as_ref()
            .and_then(|iteration| iteration.lines.first())
            .map(|line| line.score)
    }
}

/// One thread's private state, kept between searches (history survives from move to move).
pub struct Worker<G: Game> {
    history: History,
    killers: Killers<G::Move>,
    moves: Vec<Vec<G::Move>>,
    scores: Vec<Vec<i32>>,
    pv: Vec<Vec<G::Move>>,
    /// Per ply, the moves put off because another thread was searching them.
    deferred: Vec<Vec<Picked<G::Move>>>,
    /// Per ply, the static value of the node on the current line, for the game's selective
    /// pruning ([`Selectivity`]); [`NO_STATIC_VALUE`] where the node computed none.
    static_values: Vec<i32>,
    /// This thread's number in the current search (0 is the main thread).
    thread: usize,
    nodes: u64,
    unreported: u64,
    /// The deepest ply this thread reached since it last reported.
    selective_depth: usize,
    /// Set while the main thread runs its first iteration, which ignores `stop` so that every
    /// search has a move to give.
    must_finish: bool,
}

impl<G: Game> Default for Worker<G> {
    fn default() -> Self {
        Worker {
            history: History::default(),
            killers: Killers::default(),
            moves: (0..=MAX_PLY + 1).map(|_| Vec::new()).collect(),
            scores: (0..=MAX_PLY + 1).map(|_| Vec::new()).collect(),
            pv: (0..=MAX_PLY + 1).map(|_| Vec::new()).collect(),
            deferred: (0..=MAX_PLY + 1).map(|_| Vec::new()).collect(),
            static_values: vec![NO_STATIC_VALUE; MAX_PLY + 2],
            thread: 0,
            nodes: 0,
            unreported: 0,
            selective_depth: 0,
            must_finish: false,
        }
    }
}

/// Whether this thread must stop now.
fn stopped<G: Game>(worker: &Worker<G>, shared: &Shared) -> bool {
    !worker.must_finish && shared.stop.load(Ordering::Relaxed)
}

/// What every thread of one search shares.
struct Shared<'a> {
    table: &'a TranspositionTable,
    stop: &'a AtomicBool,
    nodes: AtomicU64,
    selective_depth: AtomicU32,
    start: Instant,
    limits: Limits,
    root_player: Player,
    players: usize,
    root_key: u64,
    strength: Strength,
    /// Whether the coalition's turns are searched as best replies.
    best_reply: bool,
    /// Whether ProbCut may cut nodes.
    probcut: bool,
    /// The positions threads are searching now; only with several threads.
    busy: Option<Busy>,
    /// The game's selective pruning and extensions; none with more than two players.
    selectivity: Selectivity,
}

impl Shared<'_> {
    /// Whether seats `a` and `b` are on the same side of the (paranoid) search.
    fn same_team(&self, a: Player, b: Player) -> bool {
        if self.players == 2 {
            a == b
        } else {
            (a == self.root_player) == (b == self.root_player)
        }
    }

    fn out_of_time(&self) -> bool {
        self.limits
            .hard_time
            .is_some_and(|hard| self.start.elapsed() >= hard)
    }
}

/// Searches `root` and returns the best move found. `report` sees each iteration the main thread
/// completes. `workers` supplies per-thread state; it grows to the thread count. Three or more
/// players are searched as the game asks ([`crate::game::SearchHooks::multiplayer_search`]).
pub fn search<G: Game>(
    root: &G,
    request: &SearchRequest,
    table: &TranspositionTable,
    stop: &AtomicBool,
    workers: &mut Vec<Worker<G>>,
    report: &mut (dyn FnMut(&Iteration<G::Move>) + Send),
) -> SearchOutcome<G::Move> {
    let mode = root.multiplayer_search(request.limits.depth);
    search_with(root, request, mode, table, stop, workers, report)
}

/// [`search`] with three or more players searched as `mode` says.
pub fn search_with<G: Game>(
    root: &G,
    request: &SearchRequest,
    mode: MultiplayerSearch,
    table: &TranspositionTable,
    stop: &AtomicBool,
    workers: &mut Vec<Worker<G>>,
    report: &mut (dyn FnMut(&Iteration<G::Move>) + Send),
) -> SearchOutcome<G::Move> {
    let start = Instant::now();
    let threads = request.threads.max(1);
    while workers.len() < threads {
        workers.push(Worker::default());
    }
    table.new_search();
    let root_player = root.side_to_move();
    let players = root.player_count();
    let mut root_moves = Vec::new();
    root.search_moves(&mut root_moves);
    if root.outcome().is_some() || root_moves.is_empty() {
        return SearchOutcome {
            best: None,
            nodes: 0,
            elapsed: start.elapsed(),
        };
    }
    if root_moves.len() == 1 && request.instant_single_move {
        let line = RootLine {
            mv: root_moves[0],
            score: 0,
            exact: false,
            depth: 0,
            pv: vec![root_moves[0]],
        };
        return SearchOutcome {
            best: Some(Iteration {
                depth: 0,
                lines: vec![line],
                selective_depth: 0,
                nodes: 0,
                elapsed: start.elapsed(),
            }),
            nodes: 0,
            elapsed: start.elapsed(),
        };
    }
    if let Some(proven) = prove_root(root, &mut root_moves, request, start, report) {
        return proven;
    }
    if mode == MultiplayerSearch::MonteCarlo && players > 2 {
        return monte_carlo::search(root, &root_moves, request, stop, start, report);
    }
    let best_reply =
        mode == MultiplayerSearch::BestReply && players > 2 && root.null_move().is_some();
    let keys_family = if best_reply {
        BEST_REPLY_KEYS_FAMILY
    } else {
        ROOT_KEYS_FAMILY
    };
    let shared = Shared {
        table,
        stop,
        nodes: AtomicU64::new(0),
        selective_depth: AtomicU32::new(0),
        start,
        limits: request.limits,
        root_player,
        players,
        root_key: if players > 2 {
            crate::base::zobrist::key(keys_family, root_player as u64)
        } else {
            0
        },
        strength: request.strength,
        best_reply,
        probcut: request.probcut,
        busy: (threads > 1).then(Busy::new),
        selectivity: if players == 2 {
            request.selectivity.unwrap_or_else(|| root.selectivity())
        } else {
            Selectivity::default()
        },
    };
    let best = std::thread::scope(|scope| {
        let (main_worker, helpers) = workers[..threads].split_first_mut().expect("one worker");
        let shared = &shared;
        let root_moves = &root_moves;
        for (index, helper) in helpers.iter_mut().enumerate() {
            std::thread::Builder::new()
                .name(format!("search-{}", index + 1))
                .stack_size(STACK_SIZE)
                .spawn_scoped(scope, move || {
                    let mut position = root.clone();
                    let mut silent = |_: &Iteration<G::Move>| {};
                    iterate(
                        helper,
                        &mut position,
                        root_moves,
                        request,
                        shared,
                        index + 1,
                        &mut silent,
                    );
                })
                .expect("spawning a search thread");
        }
        let main = std::thread::Builder::new()
            .name("search-main".into())
            .stack_size(STACK_SIZE)
            .spawn_scoped(scope, move || {
                let mut position = root.clone();
                let best = iterate(
                    main_worker,
                    &mut position,
                    root_moves,
                    request,
                    shared,
                    0,
                    report,
                );
                // The main thread is done: stop the helpers.
                shared.stop.store(true, Ordering::Relaxed);
                best
            })
            .expect("spawning the main search thread");
        main.join().expect("the main search thread panicked")
    });
    SearchOutcome {
        best,
        nodes: shared.nodes.load(Ordering::Relaxed),
        elapsed: start.elapsed(),
    }
}

/// The game's proof work at the root before any search (two players, one line wanted): a forced
/// win of the side to move ([`crate::game::SearchHooks::find_forced_win`]) is the outcome; otherwise `root_moves` are
/// cut to the defences against the opponent's forced win ([`crate::game::SearchHooks::keep_root_defences`]) and
/// `None` lets the search run.
fn prove_root<G: Game>(
    root: &G,
    root_moves: &mut Vec<G::Move>,
    request: &SearchRequest,
    start: Instant,
    report: &mut (dyn FnMut(&Iteration<G::Move>) + Send),
) -> Option<SearchOutcome<G::Move>> {
    if root.player_count() != 2 || request.multi_pv > 1 {
        return None;
    }
    let proof = ProofRequest {
        nodes: ROOT_PROOF_NODES,
        root: true,
        strength: request.strength,
    };
    let win = root
        .clone()
        .find_forced_win(&proof)
        .filter(|win| win.line.first().is_some_and(|mv| root_moves.contains(mv)));
    let Some(win) = win else {
        root.keep_root_defences(root_moves, &proof);
        return None;
    };
    let mv = win.line[0];
    let iteration = Iteration {
        depth: win.plies as u32,
        lines: vec![RootLine {
            mv,
            score: score::win_in(win.plies, 0),
            exact: true,
            depth: win.plies as u32,
            pv: win.line,
        }],
        selective_depth: win.plies as u32,
        nodes: 0,
        elapsed: start.elapsed(),
    };
    report(&iteration);
    Some(SearchOutcome {
        best: Some(iteration),
        nodes: 0,
        elapsed: start.elapsed(),
    })
}

/// Iterative deepening on one thread. Helper threads (`thread > 0`) start one ply deeper on odd
/// thread numbers, so that threads spread over depths.
fn iterate<G: Game>(
    worker: &mut Worker<G>,
    root: &mut G,
    root_moves: &[G::Move],
    request: &SearchRequest,
    shared: &Shared,
    thread: usize,
    report: &mut (dyn FnMut(&Iteration<G::Move>) + Send),
) -> Option<Iteration<G::Move>> {
    worker.thread = thread;
    worker.nodes = 0;
    worker.unreported = 0;
    worker.selective_depth = 0;
    worker.killers.clear();
    let mut lines: Vec<RootLine<G::Move>> = order_root(root, root_moves, shared, worker);
    let multi_pv = request.multi_pv.clamp(1, lines.len());
    let max_depth = request
        .limits
        .depth
        .unwrap_or(MAX_PLY as u32 - 1)
        .clamp(1, MAX_PLY as u32 - 1);
    let mut completed: Option<Iteration<G::Move>> = None;
    let mut widened = false;
    let mut stability = Stability::default();
    // The times of the main thread's last two iterations, for the time manager's prediction.
    let mut last_time: Option<Duration> = None;
    let mut depth = 1 + (thread % 2) as u32;
    while depth <= max_depth {
        worker.must_finish = thread == 0 && completed.is_none();
        let iteration_start = shared.start.elapsed();
        let previous = completed.as_ref().map(|iteration| iteration.lines[0].score);
        let finished = match previous {
            Some(score)
                if multi_pv == 1 && depth >= ASPIRATION_DEPTH && !score::is_decisive(score) =>
            {
                aspiration(worker, root, &mut lines, depth, score, shared)
            }
            _ => {
                let node = Node {
                    depth: depth as i32,
                    ply: 0,
                    alpha: -INFINITY,
                    beta: INFINITY,
                };
                search_root(worker, root, &mut lines, node, multi_pv, shared)
            }
        };
        if !finished {
            // A stopped iteration still counts when the last best move was searched in it and
            // the best move so far has an exact score at the new depth: either the last best
            // move confirmed one ply deeper, or another move that beat it. (With several lines
            // wanted, only a new best move counts: the other lines would mix depths.) The moves
            // it did not reach keep their scores and depths from the iteration before. It is
            // reported like a finished one.
            if thread == 0 {
                if let (Some(done), Some(first)) = (&completed, lines.first()) {
                    let previous_best = done.lines[0].mv;
                    let previous_searched = lines
                        .iter()
                        .any(|line| line.mv == previous_best && line.depth == depth);
                    if first.exact
                        && first.depth == depth
                        && (first.mv != previous_best || multi_pv == 1)
                        && previous_searched
                    {
                        flush_nodes(worker, shared);
                        let mut partial = done.clone();
                        partial.lines = lines.clone();
                        partial.nodes = shared.nodes.load(Ordering::Relaxed);
                        partial.selective_depth = shared.selective_depth.load(Ordering::Relaxed);
                        partial.elapsed = shared.start.elapsed();
                        // Report it, so that the last report names the move the search returns.
                        report(&partial);
                        completed = Some(partial);
                    }
                }
            }
            break;
        }
        flush_nodes(worker, shared);
        let iteration = Iteration {
            depth,
            lines: lines.clone(),
            selective_depth: shared.selective_depth.load(Ordering::Relaxed),
            nodes: shared.nodes.load(Ordering::Relaxed),
            elapsed: shared.start.elapsed(),
        };
        if thread == 0 {
            report(&iteration);
        }
        let best_score = iteration.lines[0].score;
        if thread == 0 {
            stability.update(&iteration, completed.as_ref());
        }
        completed = Some(iteration);
        if thread == 0 {
            // The time manager: does the next iteration likely end in time, and is it worth it
            // (see `Limits::next_iteration`)?
            let elapsed = shared.start.elapsed();
            let took = elapsed.saturating_sub(iteration_start);
            let times = IterationTimes {
                elapsed,
                last: took,
                before: last_time,
                stretch: stability.factor(),
            };
            last_time = Some(took);
            let out_of_time = !shared.limits.next_iteration(&times);
            // A loss over the candidates alone is searched again with the moves they left out.
            let widening =
                score::is_loss(best_score) && widen_root(root, &mut lines, &mut widened, shared);
            // A proven result within the searched depth cannot change with more depth, unless
            // the game scores margins: a bigger win may lie deeper.
            let proven = score::decode_win(best_score)
                .is_some_and(|(margin, plies)| margin == 0 && plies <= depth as usize)
                && multi_pv == 1
                && !widening;
            if out_of_time || proven || shared.stop.load(Ordering::Relaxed) {
                break;
            }
        } else if shared.stop.load(Ordering::Relaxed) {
            break;
        }
        depth += 1;
    }
    worker.must_finish = false;
    flush_nodes(worker, shared);
    completed
}

/// Adds the root moves the game's candidate limit left out to `lines`, once, when the game asks
/// for it ([`Selectivity::left_out_losses`]) and every root move searched loses: true when there
/// were any, so that the loss is no proof yet.
fn widen_root<G: Game>(
    root: &G,
    lines: &mut Vec<RootLine<G::Move>>,
    widened: &mut bool,
    shared: &Shared,
) -> bool {
    if *widened || shared.selectivity.left_out_losses == LeftOutLosses::Proven {
        return false;
    }
    *widened = true;
    let mut left_out = Vec::new();
    root.left_out_moves(&mut left_out);
    left_out.retain(|mv| lines.iter().all(|line| line.mv != *mv));
    let added = !left_out.is_empty();
    lines.extend(left_out.into_iter().map(|mv| RootLine {
        mv,
        score: -INFINITY,
        exact: false,
        depth: 0,
        pv: vec![mv],
    }));
    added
}

/// How settled the search looks, to spend more time where the best move or its score is still
/// moving and less where it has been the same for a while ([`IterationTimes::stretch`]).
#[derive(Default)]
struct Stability {
    /// Grows by one when the best move changes and halves every iteration.
    changes: f64,
    /// Iterations the best move has stayed the same.
    unchanged: u32,
    /// Whether the best score just fell noticeably.
    falling: bool,
}

/// A drop of the best score by this much (in evaluation points) counts as falling.
const FALLING_SCORE: i32 = 30;

impl Stability {
    fn update<M: PartialEq>(&mut self, iteration: &Iteration<M>, previous: Option<&Iteration<M>>) {
        self.changes /= 2.0;
        let Some(previous) = previous else {
            return;
        };
        let (now, before) = (&iteration.lines[0], &previous.lines[0]);
        if now.mv == before.mv {
            self.unchanged += 1;
        } else {
            self.changes += 1.0;
            self.unchanged = 0;
        }
        self.falling = now.score + FALLING_SCORE < before.score;
    }

    /// The factor to stretch (or shrink) the soft time by.
    fn factor(&self) -> f64 {
        let mut factor = 1.0 + 0.6 * self.changes;
        if self.falling {
            factor *= 1.3;
        }
        if self.unchanged >= 4 {
            factor *= 0.7;
        }
        factor.clamp(0.5, 2.5)
    }
}

/// Root moves ordered by the game's hints, each with a zero score.
fn order_root<G: Game>(
    root: &G,
    root_moves: &[G::Move],
    shared: &Shared,
    worker: &Worker<G>,
) -> Vec<RootLine<G::Move>> {
    let mut hints = vec![0; root_moves.len()];
    root.score_moves(root_moves, &mut hints);
    let table_move = shared
        .table
        .probe(root.hash() ^ shared.root_key)
        .and_then(|entry| entry.move_code)
        .and_then(|code| root.move_from_code(code));
    let mut indexed: Vec<(i32, G::Move)> = root_moves
        .iter()
        .zip(hints)
        .map(|(&mv, hint)| {
            let bonus = if Some(mv) == table_move { 1 << 28 } else { 0 };
            (
                hint * 16 + worker.history.get(root.side_to_move(), mv.code()) + bonus,
                mv,
            )
        })
        .collect();
    indexed.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
    indexed
        .into_iter()
        .map(|(_, mv)| RootLine {
            mv,
            score: -INFINITY,
            exact: false,
            depth: 0,
            pv: vec![mv],
        })
        .collect()
}

/// Searches the root with a narrow window around the last score, widening it on failure. Returns
/// false when stopped.
fn aspiration<G: Game>(
    worker: &mut Worker<G>,
    root: &mut G,
    lines: &mut [RootLine<G::Move>],
    depth: u32,
    previous: i32,
    shared: &Shared,
) -> bool {
    let mut delta = aspiration_window(&shared.selectivity);
    let mut alpha = (previous - delta).max(-INFINITY);
    let mut beta = (previous + delta).min(INFINITY);
    loop {
        let node = Node {
            depth: depth as i32,
            ply: 0,
            alpha,
            beta,
        };
        if !search_root(worker, root, lines, node, 1, shared) {
            return false;
        }
        let best = lines[0].score;
        if best <= alpha {
            beta = (alpha + beta) / 2;
            alpha = (best - delta).max(-INFINITY);
        } else if best >= beta {
            beta = (best + delta).min(INFINITY);
        } else {
            return true;
        }
        delta *= 2;
        if delta > 4 * score::MAX_EVALUATION {
            alpha = -INFINITY;
            beta = INFINITY;
        }
    }
}

/// One iteration at the root. With `multi_pv` above one, the best `multi_pv` moves get exact scores.
/// Returns false when stopped; the lines are re-sorted best first either way, and the moves not
/// searched (after a stop or a fail-high) keep what the last iteration that searched them found.
fn search_root<G: Game>(
    worker: &mut Worker<G>,
    root: &mut G,
    lines: &mut [RootLine<G::Move>],
    node: Node,
    multi_pv: usize,
    shared: &Shared,
) -> bool {
    let Node {
        depth,
        mut alpha,
        beta,
        ..
    } = node;
    let next = |low: i32, high: i32| node.next(depth - 1, low, high);
    let mover = root.side_to_move();
    let mut exact_scores: Vec<i32> = Vec::with_capacity(multi_pv);
    let mut interrupted = false;
    let mut searched = 0;
    for (index, line) in lines.iter_mut().enumerate() {
        let mv = line.mv;
        // With multi-PV, a move must beat the weakest of the best lines found so far.
        let floor = if exact_scores.len() >= multi_pv {
            alpha.max(exact_scores[multi_pv - 1])
        } else {
            alpha
        };
        let value = if index == 0 || exact_scores.len() < multi_pv {
            child::<G, Pv>(worker, root, mv, mover, next(floor, beta), shared)
        } else {
            let probe = child::<G, NonPv>(worker, root, mv, mover, next(floor, floor + 1), shared);
            if probe > floor && probe < beta && !stopped(worker, shared) {
                child::<G, Pv>(worker, root, mv, mover, next(floor, beta), shared)
            } else {
                probe
            }
        };
        if stopped(worker, shared) {
            interrupted = true;
            break;
        }
        searched += 1;
        line.score = value;
        line.depth = depth as u32;
        line.exact = value > floor && value < beta;
        line.pv.clear();
        line.pv.push(mv);
        if value > floor {
            line.pv.extend_from_slice(&worker.pv[1]);
            if line.exact {
                exact_scores.push(value);
                exact_scores.sort_by_key(|&score| std::cmp::Reverse(score));
            }
        }
        if multi_pv == 1 && value > alpha {
            alpha = value;
            if value >= beta {
                break;
            }
        }
    }
    // Unsearched moves keep their old order below the searched ones.
    lines[..searched].sort_by_key(|line| std::cmp::Reverse(line.score));
    !interrupted
}

/// Plays `mv`, searches the child (a node of kind `N` at `node`, its window for `mover`'s side)
/// and returns its value for `mover`'s side.
fn child<G: Game, N: NodeKind>(
    worker: &mut Worker<G>,
    position: &mut G,
    mv: G::Move,
    mover: Player,
    node: Node,
    shared: &Shared,
) -> i32 {
    let known = position.key_after(mv);
    if let Some(key) = known {
        shared.table.prefetch(key ^ shared.root_key);
    }
    let undo = position.play_unchecked(mv);
    debug_assert!(known.is_none_or(|key| key == position.hash()));
    if known.is_none() {
        shared.table.prefetch(position.hash() ^ shared.root_key);
    }
    let value = if shared.best_reply && mover == shared.root_player {
        best_reply::after_root_move::<G, N>(worker, position, node, shared)
    } else if shared.same_team(mover, position.side_to_move()) {
        negamax::<G, N>(worker, position, node, shared)
    } else {
        -negamax::<G, N>(worker, position, node.negated(), shared)
    };
    position.undo(mv, undo);
    value
}

fn flush_nodes<G: Game>(worker: &mut Worker<G>, shared: &Shared) {
    shared.nodes.fetch_add(worker.unreported, Ordering::Relaxed);
    shared
        .selective_depth
        .fetch_max(worker.selective_depth as u32, Ordering::Relaxed);
    worker.unreported = 0;
}

/// The value of a finished game for the side to move's team, `ply` plies from the root.
fn terminal_value(outcome: &Outcome, side: Player, ply: usize, shared: &Shared) -> i32 {
    if shared.players == 2 {
        return match outcome.winner() {
            None => 0,
            Some(winner) if winner == side => score::win_in(ply, outcome.margin),
            Some(_) => -score::win_in(ply, outcome.margin),
        };
    }
    let players = shared.players as i32;
    let place = outcome.place(shared.root_player) as i32;
    let for_root = if place == 1 {
        score::win_in(ply, outcome.margin)
    } else if place >= players {
        -score::win_in(ply, outcome.margin)
    } else {
        // Middle places score between the two, inside the evaluation range.
        score::middle_place(place as usize, players as usize)
    };
    if side == shared.root_player {
        for_root
    } else {
        -for_root
    }
}

/// The static value of a position for the side to move's team.
fn static_value<G: Game>(position: &G, shared: &Shared) -> i32 {
    let side = position.side_to_move();
    if shared.players == 2 {
        position.evaluate(side, shared.strength)
    } else {
        let for_root = position.evaluate(shared.root_player, shared.strength);
        if side == shared.root_player {
            for_root
        } else {
            -for_root
        }
    }
}

/// The kind of a node, as a marker type: each kind's search is compiled on its own, with no
/// runtime flag to test.
trait NodeKind {
    /// On the principal variation: searched with an open window, its line kept, never cut off by
    /// the table or by ProbCut, and never reduced.
    const PV: bool;
}

/// A node on the principal variation.
struct Pv;

/// A node off the principal variation, searched with a null window.
struct NonPv;

impl NodeKind for Pv {
    const PV: bool = true;
}

impl NodeKind for NonPv {
    const PV: bool = false;
}

/// Where a node stands: the depth left, its distance from the root and its window, for the side
/// to move there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Node {
    depth: i32,
    ply: usize,
    alpha: i32,
    beta: i32,
}

impl Node {
    /// The same node with the window seen from the other side.
    fn negated(self) -> Node {
        Node {
            alpha: -self.beta,
            beta: -self.alpha,
            ..self
        }
    }

    /// A node one ply further, `depth` deep, with the window `alpha..beta`.
    fn next(self, depth: i32, alpha: i32, beta: i32) -> Node {
        Node {
            depth,
            ply: self.ply + 1,
            alpha,
            beta,
        }
    }
}

/// Whether a search thread goes on or must stop now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Stop,
}

/// Counts a node, clears its line and checks the limits every [`CHECK_INTERVAL`] nodes. Every
/// tree search's node starts here.
#[inline(always)]
fn enter<G: Game>(worker: &mut Worker<G>, ply: usize, shared: &Shared) -> Flow {
    worker.pv[ply].clear();
    worker.nodes += 1;
    worker.unreported += 1;
    worker.selective_depth = worker.selective_depth.max(ply);
    if worker.unreported >= CHECK_INTERVAL {
        flush_nodes(worker, shared);
        let over_nodes = shared
            .limits
            .nodes
            .is_some_and(|limit| shared.nodes.load(Ordering::Relaxed) >= limit);
        if over_nodes || shared.out_of_time() {
            shared.stop.store(true, Ordering::Relaxed);
        }
    }
    if stopped(worker, shared) {
        Flow::Stop
    } else {
        Flow::Continue
    }
}

/// What the part of a node's prologue shared by every kind of node found: the value to return at
/// once, or the node's key and table entry to search on with.
enum Prologue {
    Done(i32),
    Search { key: u64, entry: Option<Entry> },
}

/// Narrows the window to what a line from `ply` can still win or lose, then probes the table and
/// cuts off on a stored bound that settles the node.
#[inline(always)]
fn prologue<G: Game, N: NodeKind>(position: &G, node: &mut Node, shared: &Shared) -> Prologue {
    // No line from here can win or lose by more than the largest margin, right now.
    node.alpha = node.alpha.max(-score::win_in(node.ply, score::MAX_MARGIN));
    node.beta = node.beta.min(score::win_in(node.ply, score::MAX_MARGIN));
    if node.alpha >= node.beta {
        return Prologue::Done(node.alpha);
    }
    let key = position.hash() ^ shared.root_key;
    let entry = shared.table.probe(key);
    match table_cutoff::<N>(entry, node) {
        Some(stored) => Prologue::Done(stored),
        None => Prologue::Search { key, entry },
    }
}

/// Principal-variation negamax with a transposition table, killers, history and late-move
/// reductions, at a node of kind `N`. Returns a score for the side to move's team; meaningless
/// once stopped.
fn negamax<G: Game, N: NodeKind>(
    worker: &mut Worker<G>,
    position: &mut G,
    node: Node,
    shared: &Shared,
) -> i32 {
    let mut node = node;
    let Node { depth, ply, .. } = node;
    if enter(worker, ply, shared) == Flow::Stop {
        return 0;
    }
    if depth <= 0 || ply >= MAX_PLY {
        return match position.outcome() {
            Some(outcome) => terminal_value(&outcome, position.side_to_move(), ply, shared),
            None => static_value(position, shared),
        };
    }
    let (key, entry) = match prologue::<G, N>(position, &mut node, shared) {
        Prologue::Done(value) => return value,
        Prologue::Search { key, entry } => (key, entry),
    };
    // The node as it is searched, its window narrowed: what the table stores it as.
    let searched = node;
    let Node {
        mut alpha, beta, ..
    } = node;
    let table_move = entry
        .and_then(|entry| entry.move_code)
        .and_then(|code| position.move_from_code(code));
    if !N::PV && shared.probcut {
        if let Some(model) = position.probcut(depth as u32) {
            if let Some(value) = probcut(worker, position, &model, searched, shared) {
                return value;
            }
        }
    }

    let selectivity = shared.selectivity;
    let mut static_eval = None;
    let mut improving = false;
    if selectivity.uses_static_value() {
        worker.static_values[ply] = NO_STATIC_VALUE;
        if !position.threatened() && position.outcome().is_none() {
            let eval = static_value(position, shared);
            worker.static_values[ply] = eval;
            let before = if ply >= 2 {
                worker.static_values[ply - 2]
            } else {
                NO_STATIC_VALUE
            };
            improving = before == NO_STATIC_VALUE || eval > before;
            // Before the proof search: a forced win it might find would only fail higher.
            if !N::PV && futile(&selectivity, eval, improving, depth, alpha, beta) {
                return eval;
            }
            static_eval = Some(eval);
        }
    }

    if depth >= PROOF_DEPTH && shared.players == 2 {
        let proof = ProofRequest {
            nodes: NODE_PROOF_NODES,
            root: false,
            strength: shared.strength,
        };
        if let Some(win) = position.find_forced_win(&proof) {
            // A win at least this quick: store it as a lower bound.
            let value = score::win_in(ply + win.plies, 0);
            let first = win.line.first().map(|mv| mv.code());
            let stored = score::to_table(value, ply);
            let depth = depth.clamp(0, 255) as u8;
            shared
                .table
                .store(key, first, stored, 0, depth, Bound::Lower);
            if N::PV {
                worker.pv[ply].extend_from_slice(&win.line);
            }
            return value;
        }
    }

    if let Some(eval) = static_eval {
        // After the proof search: a forced win would lift the node above the static value.
        if !N::PV && razored(&selectivity, eval, depth, alpha, beta) {
            return eval;
        }
    }

    let depth = depth - internal_reduction(&selectivity, depth, table_move.is_some());
    let mut moves = std::mem::take(&mut worker.moves[ply]);
    let mut scores = std::mem::take(&mut worker.scores[ply]);
    position.search_moves(&mut moves);
    if moves.is_empty() {
        // Only a finished game has no moves to search.
        worker.moves[ply] = moves;
        worker.scores[ply] = scores;
        return match position.outcome() {
            Some(outcome) => terminal_value(&outcome, position.side_to_move(), ply, shared),
            None => static_value(position, shared),
        };
    }
    // The only reply to a threat costs no depth.
    let extension = (selectivity.single_reply_extension && moves.len() == 1) as i32;
    let move_limit = (!N::PV && static_eval.is_some() && depth <= selectivity.move_count_depth)
        .then(|| move_count_limit(depth, improving));
    scores.clear();
    scores.resize(moves.len(), 0);
    position.score_moves(&moves, &mut scores);
    let mover = position.side_to_move();
    let table_move = table_move.filter(|mv| moves.contains(mv));
    let next = |depth: i32, low: i32, high: i32| searched.next(depth, low, high);
    let mut best = -INFINITY;
    let mut best_move = None;
    let mut cutoff = false;
    let mut deferred = std::mem::take(&mut worker.deferred[ply]);
    deferred.clear();
    let busy = shared.busy.as_ref().filter(|_| depth >= DEFER_DEPTH);
    let marked = busy.is_some_and(|busy| busy.enter(key, worker.thread));
    {
        let killers = worker.killers.get(ply);
        let mut picker = MovePicker::new(
            &mut moves,
            &mut scores,
            table_move,
            killers,
            &worker.history,
            mover,
        );
        let mut index = 0;
        let mut next_deferred = 0;
        loop {
            let Picked { mv, rank } = match picker.next_move() {
                Some(picked) => {
                    if index > 0
                        && busy.is_some_and(|busy| {
                            busy.move_searched_elsewhere(
                                position,
                                picked.mv,
                                shared.root_key,
                                worker.thread,
                            )
                        })
                    {
                        deferred.push(picked);
                        continue;
                    }
                    picked
                }
                None => match deferred.get(next_deferred) {
                    Some(&picked) => {
                        next_deferred += 1;
                        picked
                    }
                    None => break,
                },
            };
            // Move-count pruning, once a move that does not lose is known.
            if move_limit.is_some_and(|limit| index >= limit)
                && rank == Rank::Ordinary
                && best > -score::WIN_THRESHOLD
            {
                continue;
            }
            if !N::PV
                && index > 0
                && rank == Rank::Ordinary
                && static_eval
                    .is_some_and(|eval| futile_move(&selectivity, eval, depth, alpha, best))
                && move_hint(position, mv) < selectivity.move_futility_hint
            {
                continue;
            }
            let depth = depth + extension;
            let value = if index == 0 {
                child::<G, N>(
                    worker,
                    position,
                    mv,
                    mover,
                    next(depth - 1, alpha, beta),
                    shared,
                )
            } else {
                // Once a win is proven, only a full-depth search can prove a bigger one: a reduced
                // search ending on a heuristic value would wrongly refute the move.
                let reduction = if !N::PV
                    && rank == Rank::Ordinary
                    && depth >= REDUCTION_DEPTH
                    && index >= REDUCTION_MOVES
                    && alpha < score::WIN_THRESHOLD
                {
                    late_move_reduction(&selectivity, depth, index)
                } else {
                    0
                };
                let null_window = next(depth - 1 - reduction, alpha, alpha + 1);
                let mut value = child::<G, NonPv>(worker, position, mv, mover, null_window, shared);
                if value > alpha && reduction > 0 {
                    let null_window = next(depth - 1, alpha, alpha + 1);
                    value = child::<G, NonPv>(worker, position, mv, mover, null_window, shared);
                }
                if value > alpha && value < beta && N::PV {
                    let open = next(depth - 1, alpha, beta);
                    value = child::<G, Pv>(worker, position, mv, mover, open, shared);
                }
                value
            };
            index += 1;
            if stopped(worker, shared) {
                break;
            }
            if value > best {
                best = value;
                if value > alpha {
                    best_move = Some(mv);
                    alpha = value;
                    if N::PV {
                        let (head, tail) = worker.pv.split_at_mut(ply + 1);
                        head[ply].clear();
                        head[ply].push(mv);
                        head[ply].extend_from_slice(&tail[0]);
                    }
                    if value >= beta {
                        cutoff = true;
                        worker
                            .history
                            .reward(mover, mv.code(), picker.tried(), depth);
                        worker.killers.record(ply, mv);
                        break;
                    }
                }
            }
        }
    }
    // A loss over the candidates alone is no proof while the game's limit left other moves out.
    if !cutoff
        && selectivity.left_out_losses == LeftOutLosses::Unproven
        && best <= -score::WIN_THRESHOLD
    {
        // This node's move list is done with: its buffer takes the moves left out.
        position.left_out_moves(&mut moves);
        if !moves.is_empty() {
            best = score::unproven_loss(best);
        }
    }
    if let Some(busy) = busy.filter(|_| marked) {
        busy.leave(key);
    }
    worker.deferred[ply] = deferred;
    worker.moves[ply] = moves;
    worker.scores[ply] = scores;
    if stopped(worker, shared) {
        return 0;
    }
    store_node(shared, key, best_move, best, cutoff, searched);
    best
}

/// Futility pruning of a node outside the principal variation (see [`Selectivity`]): whether its
/// static value `eval` is so far above beta that the node fails high without a search. Windows at
/// proven wins or losses are left alone.
fn futile(
    selectivity: &Selectivity,
    eval: i32,
    improving: bool,
    depth: i32,
    alpha: i32,
    beta: i32,
) -> bool {
    let plies_after = (depth - 1 - improving as i32).max(0);
    depth <= selectivity.futility_depth
        && !score::is_decisive(alpha)
        && !score::is_decisive(beta)
        && eval - selectivity.futility_margin * plies_after >= beta
}

/// Futility pruning of a move outside the principal variation (see
/// [`Selectivity::move_futility_depth`]), all but the test of its hint: whether the node's static
/// value `eval` is so far below alpha that a quiet move is not worth a search. Once a win or loss
/// is proven, or while every move searched loses, every move is searched.
fn futile_move(selectivity: &Selectivity, eval: i32, depth: i32, alpha: i32, best: i32) -> bool {
    depth <= selectivity.move_futility_depth
        && !score::is_decisive(alpha)
        && best > -score::WIN_THRESHOLD
        && eval + selectivity.move_futility_margin * depth <= alpha
}

/// The game's ordering hint of `mv` alone.
fn move_hint<G: Game>(position: &G, mv: G::Move) -> i32 {
    let mut hint = [0];
    position.score_moves(&[mv], &mut hint);
    hint[0]
}

/// Razoring of a node outside the principal variation (see [`Selectivity`]): whether its static
/// value `eval` is so far below alpha that the node fails low without a search.
fn razored(selectivity: &Selectivity, eval: i32, depth: i32, alpha: i32, beta: i32) -> bool {
    depth <= selectivity.razor_depth
        && !score::is_decisive(alpha)
        && !score::is_decisive(beta)
        && eval + selectivity.razor_margin * depth < alpha
}

/// The half-width of the root's first aspiration window (see [`Selectivity::aspiration_window`]).
fn aspiration_window(selectivity: &Selectivity) -> i32 {
    match selectivity.aspiration_window {
        0 => ASPIRATION_WINDOW,
        window => window,
    }
}

/// Internal iterative reduction (see [`Selectivity::internal_reduction_depth`]): the plies a node
/// `depth` plies deep loses when the transposition table has no move for it.
fn internal_reduction(selectivity: &Selectivity, depth: i32, table_move: bool) -> i32 {
    let depth_from = selectivity.internal_reduction_depth;
    (depth_from > 0 && depth >= depth_from && !table_move) as i32
}

/// How many plies a late ordinary move at index `index` of a node `depth` plies deep is reduced by
/// (see [`Selectivity::reduction_scale`]); the child keeps at least one ply.
fn late_move_reduction(selectivity: &Selectivity, depth: i32, index: usize) -> i32 {
    let reduction = if selectivity.reduction_scale > 0 {
        let logs = (depth as f64).ln() * ((index + 1) as f64).ln();
        ((logs * selectivity.reduction_scale as f64 / 100.0) as i32).max(1)
    } else {
        1 + (depth >= 6 && index >= 3 * REDUCTION_MOVES) as i32
    };
    reduction.min(depth - 2).max(0)
}

/// How many moves a node `depth` plies deep searches under move-count pruning: `3 + depth^1.3`,
/// half as many where the static value has not improved over the last two plies.
fn move_count_limit(depth: i32, improving: bool) -> usize {
    let limit = 3 + (depth.max(0) as f64).powf(1.3) as usize;
    if improving {
        limit
    } else {
        limit / 2
    }
}

/// ProbCut (Buro) at a node outside the principal variation: a null-window search `model`'s
/// shallow depth deep at the bound that the deep value would pass with a margin of
/// [`PROBCUT_THRESHOLD`] sigmas. Returns `beta` when the deep search would likely fail high,
/// `alpha` when it would likely fail low, `None` to search the node in full. Windows at proven
/// wins or losses are left alone, and so is a bound that no heuristic value can reach.
fn probcut<G: Game>(
    worker: &mut Worker<G>,
    position: &mut G,
    model: &ProbCut,
    node: Node,
    shared: &Shared,
) -> Option<i32> {
    let Node {
        depth,
        ply,
        alpha,
        beta,
    } = node;
    let shallow = model.shallow_depth as i32;
    if shallow >= depth
        || model.slope <= 0.0
        || score::is_decisive(alpha)
        || score::is_decisive(beta)
    {
        return None;
    }
    let margin = PROBCUT_THRESHOLD * model.sigma;
    let reachable = -score::MAX_EVALUATION as f64..=score::MAX_EVALUATION as f64;
    // A shallow null-window search of (window, window + 1); `None` once the search is stopped.
    let mut probe = |window: i32| {
        let null_window = Node {
            depth: shallow,
            ply,
            alpha: window,
            beta: window + 1,
        };
        let value = negamax::<G, NonPv>(worker, position, null_window, shared);
        (!stopped(worker, shared)).then_some(value)
    };
    let high = ((beta as f64 - model.intercept + margin) / model.slope).ceil();
    if reachable.contains(&high) {
        let window = high as i32 - 1;
        match probe(window) {
            None => return Some(0),
            Some(value) if value > window => return Some(beta),
            Some(_) => {}
        }
    }
    let low = ((alpha as f64 - model.intercept - margin) / model.slope).floor();
    if reachable.contains(&low) {
        let window = low as i32;
        match probe(window) {
            None => return Some(0),
            Some(value) if value <= window => return Some(alpha),
            Some(_) => {}
        }
    }
    None
}

/// The stored score when a table entry decides a node outside the principal variation: deep
/// enough, and exact or a bound outside the window.
#[inline(always)]
fn table_cutoff<N: NodeKind>(entry: Option<Entry>, node: &Node) -> Option<i32> {
    let entry = entry?;
    if N::PV || (entry.depth as i32) < node.depth {
        return None;
    }
    let stored = score::from_table(entry.score, node.ply);
    let cut = match entry.bound {
        Bound::Exact => true,
        Bound::Lower => stored >= node.beta,
        Bound::Upper => stored <= node.alpha,
    };
    cut.then_some(stored)
}

/// Stores the result of the node `searched` (its window as the search began): a lower bound after
/// a cutoff, exact when it raised alpha, an upper bound otherwise.
fn store_node<M: MoveCode>(
    shared: &Shared,
    key: u64,
    best_move: Option<M>,
    best: i32,
    cutoff: bool,
    searched: Node,
) {
    let bound = if cutoff {
        Bound::Lower
    } else if best > searched.alpha {
        Bound::Exact
    } else {
        Bound::Upper
    };
    shared.table.store(
        key,
        best_move.map(|mv| mv.code()),
        score::to_table(best, searched.ply),
        0,
        searched.depth.clamp(0, 255) as u8,
        bound,
    );
}
