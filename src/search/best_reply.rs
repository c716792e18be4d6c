//! Best-reply search (Schadd and Winands, 2011) for three or more players.
//!
//! After each move of the root player, the coalition's turn is a single node: every move of every
//! opponent still playing, as if that opponent moved now and the others skipped their turns (with
//! [`crate::game::SearchHooks::null_move`]); the coalition keeps the reply that is worst for the root player, and the
//! root player moves again. A search of depth `d` thus gives the root player `d / 2` moves of its
//! own whatever the number of players, where paranoid search gives it one move per round.
//!
//! Values at these nodes are kept for the coalition, the side to move there, as negamax keeps them.

use super::ordering::{order_score, KillerOrder};
use super::{
    enter, negamax, prologue, stopped, terminal_value, Flow, Node, NodeKind, NonPv, Prologue, Pv,
    Shared, Worker, MAX_PLY,
};
use crate::base::score::INFINITY;
use crate::game::{Game, MoveCode, Player, MAX_PLAYERS};

/// Only this many replies, the first in move order, are searched at a coalition node: with five
/// opponents a node has some two hundred, and the search only reaches depth 4 in time when most
/// are pruned (measured in six-player Chinese Checkers against greedy players at depth 4: 25 of
/// 30 games won with 16 replies, at a twelfth of the time of all replies).
const BEST_REPLIES: usize = 16;

/// A reply: the opponent `skipped` turns after the first one to move, and its move.
#[derive(Clone, Copy)]
struct Reply<M> {
    skipped: u8,
    seat: u8,
    mv: M,
    order: i32,
}

/// The value for the root player of the position after its move (the coalition to move), searched
/// as a node of kind `N` at `node` (its window for the root player).
pub(super) fn after_root_move<G: Game, N: NodeKind>(
    worker: &mut Worker<G>,
    position: &mut G,
    node: Node,
    shared: &Shared,
) -> i32 {
    -coalition_node::<G, N>(worker, position, node.negated(), shared)
}

/// The value for the root player where the coalition's turn is over: a finished game, a leaf, or
/// a node where the root player moves.
fn root_value<G: Game, N: NodeKind>(
    worker: &mut Worker<G>,
    position: &mut G,
    node: Node,
    shared: &Shared,
) -> i32 {
    let root = shared.root_player;
    match position.outcome() {
        Some(outcome) => terminal_value(&outcome, root, node.ply, shared),
        None if position.side_to_move() == root => negamax::<G, N>(worker, position, node, shared),
        // The root player has finished while the others play on: its place is settled.
        None => position.evaluate(root, shared.strength),
    }
}

/// Every reply of every opponent, in turn order, with ordering scores.
fn replies<G: Game>(
    worker: &Worker<G>,
    position: &mut G,
    table_code: Option<u16>,
    ply: usize,
    shared: &Shared,
) -> Vec<Reply<G::Move>> {
    let null = position
        .null_move()
        .expect("best-reply search needs a null move");
    let killers = worker.killers.get(ply);
    let mut found = Vec::new();
    let mut undos = Vec::new();
    let mut moves = Vec::new();
    let mut hints = Vec::new();
    for skipped in 0..shared.players {
        let seat = position.side_to_move();
        if seat == shared.root_player || position.outcome().is_some() {
            break;
        }
        position.search_moves(&mut moves);
        hints.clear();
        hints.resize(moves.len(), 0);
        position.score_moves(&moves, &mut hints);
        for (&mv, &hint) in moves.iter().zip(&hints) {
            let killers = (killers, KillerOrder::Alike);
            let order = order_score(mv, hint, table_code, killers, &worker.history, seat);
            found.push(Reply {
                skipped: skipped as u8,
                seat: seat as u8,
                mv,
                order,
            });
        }
        undos.push(position.play_unchecked(null));
    }
    while let Some(undo) = undos.pop() {
        position.undo(null, undo);
    }
    found.sort_by_key(|reply| std::cmp::Reverse(reply.order));
    found
}

/// Plays `reply` with the skipped turns before it and after it, up to the root player's turn (or
/// the end of the game), searches on (a node of kind `N` at `node`, its window for the coalition),
/// and takes it all back. Returns the value for the coalition.
fn search_reply<G: Game, N: NodeKind>(
    worker: &mut Worker<G>,
    position: &mut G,
    reply: Reply<G::Move>,
    node: Node,
    shared: &Shared,
) -> i32 {
    let null = position
        .null_move()
        .expect("best-reply search needs a null move");
    // At most one turn of each seat is played: the skipped ones, the reply, the skipped ones.
    let mut played: [Option<(G::Move, G::Undo)>; 2 * MAX_PLAYERS] = [None; 2 * MAX_PLAYERS];
    let mut count = 0;
    for _ in 0..reply.skipped {
        played[count] = Some((null, position.play_unchecked(null)));
        count += 1;
    }
    played[count] = Some((reply.mv, position.play_unchecked(reply.mv)));
    count += 1;
    for _ in 0..shared.players {
        if position.side_to_move() == shared.root_player || position.outcome().is_some() {
            break;
        }
        played[count] = Some((null, position.play_unchecked(null)));
        count += 1;
    }
    shared.table.prefetch(position.hash() ^ shared.root_key);
    let value = -root_value::<G, N>(worker, position, node.negated(), shared);
    for (mv, undo) in played[..count].iter().rev().flatten() {
        position.undo(*mv, *undo);
    }
    value
}

/// The coalition's turn: the best reply for the coalition among all opponents' moves, as a
/// principal-variation search with a transposition table, at a node of kind `N`. Returns the
/// coalition's value.
fn coalition_node<G: Game, N: NodeKind>(
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
    // A leaf: the root player's value, with no window to keep.
    let leaf = |node: Node| Node { depth: 0, ..node }.negated();
    if depth <= 0 || ply >= MAX_PLY || position.outcome().is_some() {
        return -root_value::<G, NonPv>(worker, position, leaf(node), shared);
    }
    let (key, entry) = match prologue::<G, N>(position, &mut node, shared) {
        Prologue::Done(value) => return value,
        Prologue::Search { key, entry } => (key, entry),
    };
    let table_code = entry.and_then(|entry| entry.move_code);
    let mut list = replies(worker, position, table_code, ply, shared);
    list.truncate(BEST_REPLIES);
    if list.is_empty() {
        return -root_value::<G, NonPv>(worker, position, leaf(node), shared);
    }
    // The node as it is searched, its window narrowed: what the table stores it as.
    let searched = node;
    let Node {
        mut alpha, beta, ..
    } = node;
    let next = |alpha: i32, beta: i32| searched.next(depth - 1, alpha, beta);
    let mut best = -INFINITY;
    let mut best_move = None;
    let mut cutoff = false;
    for (index, &reply) in list.iter().enumerate() {
        let value = if index == 0 {
            search_reply::<G, N>(worker, position, reply, next(alpha, beta), shared)
        } else {
            let null_window = next(alpha, alpha + 1);
            let probe = search_reply::<G, NonPv>(worker, position, reply, null_window, shared);
            if probe > alpha && probe < beta && N::PV && !stopped(worker, shared) {
                search_reply::<G, Pv>(worker, position, reply, next(alpha, beta), shared)
            } else {
                probe
            }
        };
        if stopped(worker, shared) {
            return 0;
        }
        if value > best {
            best = value;
            if value > alpha {
                best_move = Some(reply.mv);
                alpha = value;
                if N::PV {
                    let (head, tail) = worker.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(reply.mv);
                    head[ply].extend_from_slice(&tail[0]);
                }
                if value >= beta {
                    cutoff = true;
                    worker.killers.record(ply, reply.mv);
                    let tried: &[G::Move] = &[];
                    worker
                        .history
                        .reward(reply.seat as Player, reply.mv.code(), tried, depth);
                    break;
                }
            }
        }
    }
    super::store_node(shared, key, best_move, best, cutoff, searched);
    best
}
