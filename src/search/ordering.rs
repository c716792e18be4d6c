//! Move ordering for the search: the transposition-table move, killers, history and the game's hints.
//!
//! Ordering is kept apart from move generation: a game lists its moves, and the [`MovePicker`] hands
//! them to the search best first, selecting lazily because most cut-offs come early.

use crate::base::score::MAX_PLY;
use crate::game::{MoveCode, Player, MAX_PLAYERS};

/// Ordering score of the transposition-table move.
const TABLE_MOVE: i32 = 1 << 30;
/// Ordering score of the first killer; the second gets one less.
const KILLER: i32 = 1 << 29;
/// History scores stay within this bound; past it every entry is halved.
const HISTORY_LIMIT: i32 = 1 << 20;
/// The weight of a game's ordering hint against history.
const HINT_WEIGHT: i32 = 16;

/// History counters, per seat and move code: how often a move caused a cut-off, weighted by depth.
pub struct History {
    table: Vec<i32>,
}

impl Default for History {
    fn default() -> Self {
        History {
            table: vec![0; MAX_PLAYERS << 16],
        }
    }
}

impl History {
    fn index(player: Player, code: u16) -> usize {
        (player << 16) | code as usize
    }

    /// The counter of a move.
    pub fn get(&self, player: Player, code: u16) -> i32 {
        self.table[Self::index(player, code)]
    }

    /// Rewards the move that cut off and punishes the others in `tried` (the moves handed out at
    /// the node so far).
    pub fn reward<M: MoveCode>(&mut self, player: Player, best: u16, tried: &[M], depth: i32) {
        let bonus = (depth * depth).min(400);
        let entry = &mut self.table[Self::index(player, best)];
        *entry += bonus;
        let overflow = *entry > HISTORY_LIMIT;
        for mv in tried.iter().filter(|mv| mv.code() != best) {
            let entry = &mut self.table[Self::index(player, mv.code())];
            *entry = (*entry - bonus).max(-HISTORY_LIMIT);
        }
        if overflow {
            self.age();
        }
    }

    /// Halves every counter, so that old knowledge fades.
    pub fn age(&mut self) {
        for entry in &mut self.table {
            *entry /= 2;
        }
    }
}

/// Two killer moves per ply: quiet moves that recently caused a cut-off at the same depth.
pub struct Killers<M> {
    slots: Vec<[Option<M>; 2]>,
}

impl<M: Copy + PartialEq> Default for Killers<M> {
    fn default() -> Self {
        Killers {
            slots: vec![[None; 2]; MAX_PLY + 2],
        }
    }
}

impl<M: Copy + PartialEq> Killers<M> {
    /// The killers of `ply`.
    pub fn get(&self, ply: usize) -> [Option<M>; 2] {
        self.slots[ply]
    }

    /// Records a cut-off move at `ply`.
    pub fn record(&mut self, ply: usize, mv: M) {
        let slot = &mut self.slots[ply];
        if slot[0] != Some(mv) {
            slot[1] = slot[0];
            slot[0] = Some(mv);
        }
    }

    /// Forgets every killer.
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|slot| *slot = [None; 2]);
    }
}

/// Whether a move handed out by the [`MovePicker`] was the table move or a killer, which late-move
/// reductions leave alone, or an ordinary move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rank {
    /// The table move or a killer.
    Expected,
    /// Any other move, ranked by history and the game's hint.
    Ordinary,
}

/// A move as the [`MovePicker`] hands it out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Picked<M> {
    /// The move.
    pub mv: M,
    /// How it earned its place.
    pub rank: Rank,
}

/// How the two killers of a ply rank against each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KillerOrder {
    /// The newer killer first: at a node of one seat, the latest cut-off is the likelier one.
    NewestFirst,
    /// Both alike, in generation order: at a best-reply node the killers may be moves of two
    /// different seats.
    Alike,
}

/// The ordering score of `mv`: the table move first, then the killers, then the rest by history
/// and the game's `hint`. Every search node orders its moves by this one scale.
pub fn order_score<M: MoveCode + PartialEq>(
    mv: M,
    hint: i32,
    table_move: Option<u16>,
    killers: ([Option<M>; 2], KillerOrder),
    history: &History,
    player: Player,
) -> i32 {
    let (killers, order) = killers;
    if Some(mv.code()) == table_move {
        TABLE_MOVE
    } else if Some(mv) == killers[0] {
        KILLER
    } else if Some(mv) == killers[1] {
        match order {
            KillerOrder::NewestFirst => KILLER - 1,
            KillerOrder::Alike => KILLER,
        }
    } else {
        history.get(player, mv.code()) + hint * HINT_WEIGHT
    }
}

/// Hands out the moves of one node best first, by lazy selection.
pub struct MovePicker<'a, M> {
    moves: &'a mut [M],
    scores: &'a mut [i32],
    next: usize,
}

impl<'a, M: MoveCode + PartialEq> MovePicker<'a, M> {
    /// Scores `moves` for ordering. `hints` holds the game's hints and is overwritten with the final
    /// ordering scores.
    pub fn new(
        moves: &'a mut [M],
        scores: &'a mut [i32],
        table_move: Option<M>,
        killers: [Option<M>; 2],
        history: &History,
        player: Player,
    ) -> MovePicker<'a, M> {
        let table_code = table_move.map(MoveCode::code);
        for (mv, score) in moves.iter().zip(scores.iter_mut()) {
            let killers = (killers, KillerOrder::NewestFirst);
            *score = order_score(*mv, *score, table_code, killers, history, player);
        }
        MovePicker {
            moves,
            scores,
            next: 0,
        }
    }

    /// The next best move.
    pub fn next_move(&mut self) -> Option<Picked<M>> {
        let start = self.next;
        if start >= self.moves.len() {
            return None;
        }
        let mut best = start;
        for index in start + 1..self.moves.len() {
            if self.scores[index] > self.scores[best] {
                best = index;
            }
        }
        self.moves.swap(start, best);
        self.scores.swap(start, best);
        self.next += 1;
        let rank = if self.scores[start] >= KILLER - 1 {
            Rank::Expected
        } else {
            Rank::Ordinary
        };
        Some(Picked {
            mv: self.moves[start],
            rank,
        })
    }

    /// The moves handed out so far, in order.
    pub fn tried(&self) -> &[M] {
        &self.moves[..self.next]
    }
}
