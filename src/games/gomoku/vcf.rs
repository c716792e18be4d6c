//! Threat-space search: VCF (victory by continuous fours) and VCT (victory by continuous threats:
//! fours and open threes), for the side to move.
//!
//! The attacker moves at *attack* nodes and the defender at *defence* nodes:
//! - At an attack node the attacker wins at once with a five. When the defender has a five to
//!   make, the attacker must block it (two fives: the attack fails). Otherwise an open four (or
//!   two fours) wins in three plies, and the attacker tries each four, and under VCT each open
//!   three while its budget of threes lasts.
//! - At a defence node the defender wins (the attack fails) with a five of its own. Against one
//!   attacker five it must block there (two, or a block forbidden to black under renju, lose).
//!   Against an open-four threat (VCT) it may play any point that stops every threat (see
//!   [`Gomoku::defences`]) or any four of its own (a counter-four the attacker must answer);
//!   every other move lets the attacker make an open four. Without either threat the attack
//!   failed. The attacker wins only if it wins after every reply.
//!
//! Renju's forbidden points are respected on both sides: black never attacks or defends on one,
//! and a black defender whose only block is forbidden loses.
//!
//! Results go into a transposition table keyed by the position (and the rule and board size): a
//! win with its distance and first move, or a failure with the budget it was searched with,
//! which also answers every smaller budget. A search stops at a node budget, at a raised stop
//! flag or at a deadline; a stopped search proves nothing.

use super::threats::{Kind, PointSet};
use super::{Gomoku, GomokuMove};
use crate::game::{
    ForcedWin, Player, ProofRequest, Rules, SearchHooks, Solution, SolutionScale, SolveRequest,
};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Budget of one threat search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Nodes (moves played) before the search gives up.
    pub nodes: u64,
    /// Attacker moves on any line.
    pub moves: u32,
    /// Attacker open threes on any line: 0 is a pure VCF.
    pub threes: u32,
}

impl Budget {
    /// A VCF of at most `moves` attacker moves within `nodes` nodes.
    pub fn vcf(nodes: u64, moves: u32) -> Budget {
        Budget {
            nodes,
            moves,
            threes: 0,
        }
    }

    /// A VCT with at most `threes` open threes.
    pub fn vct(nodes: u64, moves: u32, threes: u32) -> Budget {
        Budget {
            nodes,
            moves,
            threes,
        }
    }
}

/// A proven win for the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Win {
    /// The first move.
    pub first: GomokuMove,
    /// Plies to the five, the five included, against the longest defence found.
    pub plies: u32,
}

/// Check the stop flag and the clock this often (in nodes).
const CHECK_INTERVAL: u64 = 1024;
/// Hash key families of the table's rule-and-size salt.
const SALT_FAMILY: u64 = crate::base::zobrist::family::GOMOKU_PROOF;

/// A table entry's data: bits 0-15 the winning move's point, 16-23 plies, 24 the win flag; for
/// failures bits 0-7 the moves budget and 8-15 the threes budget.
const WIN_FLAG: u32 = 1 << 24;

/// The threat solver: its table and counters. Keep one per thread and reuse it.
pub struct ThreatSolver {
    /// The table: a key and its packed data per slot, zeroed (empty) at first.
    keys: Vec<u64>,
    data: Vec<u32>,
    mask: usize,
    nodes: u64,
    limit: u64,
    aborted: bool,
    salt: u64,
    /// The winning first move found at the root of the last search.
    root_move: Option<GomokuMove>,
    move_lists: Vec<Vec<GomokuMove>>,
}

/// When a search must give up besides its node budget.
#[derive(Clone, Copy)]
struct Deadline<'a> {
    stop: Option<&'a AtomicBool>,
    time: Option<Instant>,
}

impl ThreatSolver {
    /// A solver with a table of `2^bits` entries (12 bytes each).
    pub fn new(bits: u32) -> ThreatSolver {
        ThreatSolver {
            keys: vec![0; 1 << bits],
            data: vec![0; 1 << bits],
            mask: (1 << bits) - 1,
            nodes: 0,
            limit: 0,
            aborted: false,
            salt: 0,
            root_move: None,
            move_lists: Vec::new(),
        }
    }

    /// Nodes searched by the last call.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the last call stopped before it could decide.
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// Forgets every stored win and failure.
    pub fn clear(&mut self) {
        self.keys.fill(0);
        self.data.fill(0);
    }

    /// Searches for a win of the side to move within `budget`. `None` when there is none within
    /// the budget, or the search stopped (see [`ThreatSolver::aborted`]).
    pub fn solve(&mut self, game: &mut Gomoku, budget: Budget) -> Option<Win> {
        self.solve_until(game, budget, None, None)
    }

    /// [`ThreatSolver::solve`] that also gives up when `stop` is raised or at `deadline`.
    pub fn solve_until(
        &mut self,
        game: &mut Gomoku,
        budget: Budget,
        stop: Option<&AtomicBool>,
        deadline: Option<Instant>,
    ) -> Option<Win> {
        if game.outcome().is_some() {
            return None;
        }
        self.nodes = 0;
        self.limit = budget.nodes;
        self.aborted = false;
        self.root_move = None;
        self.salt =
            crate::base::zobrist::key(SALT_FAMILY, (game.size * 4 + game.rule as usize) as u64);
        let deadline = Deadline {
            stop,
            time: deadline,
        };
        let plies = self.attack(game, budget.moves, budget.threes, 0, &deadline);
        let plies = plies.filter(|_| !self.aborted)?;
        let first = self
            .root_move
            .or_else(|| self.stored_win(game).map(|(first, _)| first))?;
        Some(Win { first, plies })
    }

    /// The winning line from the position, for the side to move, as far as the table and fresh
    /// searches within `budget` can follow it: the attacker's winning move at each attack node and
    /// the defender's longest-lasting reply at each defence node, down to the five.
    pub fn principal_line(&mut self, game: &mut Gomoku, budget: Budget) -> Vec<GomokuMove> {
        let mut line = Vec::new();
        let mut undo = Vec::new();
        let attacker = game.side;
        while game.outcome().is_none() && line.len() < 2 * budget.moves as usize + 4 {
            let mv = if game.side == attacker {
                match self.stored_win(game) {
                    Some((mv, _)) => mv,
                    None => match self.solve(game, budget) {
                        Some(win) => win.first,
                        None => break,
                    },
                }
            } else {
                let mut replies = Vec::new();
                if !self.defence_moves(game, &mut replies, u32::MAX) {
                    break;
                }
                if replies.is_empty() {
                    // Nothing stops the attacker: any move will do.
                    game.search_moves(&mut replies);
                    replies.truncate(1);
                }
                let mut best: Option<(u32, GomokuMove)> = None;
                for reply in replies {
                    let token = game.play_unchecked(reply);
                    let plies = match self.stored_win(game) {
                        Some((_, plies)) => Some(plies),
                        None => self.solve(game, budget).map(|win| win.plies),
                    };
                    game.undo(reply, token);
                    if let Some(plies) = plies {
                        if best.is_none_or(|(longest, _)| plies > longest) {
                            best = Some((plies, reply));
                        }
                    }
                }
                match best {
                    Some((_, reply)) => reply,
                    None => break,
                }
            };
            undo.push((mv, game.play_unchecked(mv)));
            line.push(mv);
        }
        while let Some((mv, token)) = undo.pop() {
            game.undo(mv, token);
        }
        line
    }

    /// The points the win of the side to move that the last search proved depends on: the
    /// attacker's moves and the defender's candidate replies (the blocks of its threats and the
    /// defender's fours) all over the proof tree, read from the table. A defender's stone
    /// elsewhere blocks none of the proof's threats. `None` when the table no longer holds the
    /// whole tree or the tree has more than `limit` nodes.
    pub fn proof_zone(&mut self, game: &mut Gomoku, limit: u64) -> Option<PointSet> {
        let mut zone = PointSet::default();
        let mut nodes = 0;
        self.zone_attack(game, &mut zone, &mut nodes, limit)
            .then_some(zone)
    }

    /// An attacker's node of [`Self::proof_zone`]'s walk: follows the one winning move stored in
    /// the table.
    fn zone_attack(
        &mut self,
        game: &mut Gomoku,
        zone: &mut PointSet,
        nodes: &mut u64,
        limit: u64,
    ) -> bool {
        *nodes += 1;
        if *nodes > limit {
            return false;
        }
        let attacker = game.side;
        if let Some(five) = game.threats.points(attacker, Kind::Five).first() {
            zone.insert(five);
            return true;
        }
        let Some((mv, _)) = self.stored_win(game) else {
            return false;
        };
        zone.insert(mv.point());
        let token = game.play_unchecked(mv);
        let proven = self.zone_defend(game, zone, nodes, limit);
        game.undo(mv, token);
        proven
    }

    /// A defender's node of [`Self::proof_zone`]'s walk: every candidate reply must still lose.
    fn zone_defend(
        &mut self,
        game: &mut Gomoku,
        zone: &mut PointSet,
        nodes: &mut u64,
        limit: u64,
    ) -> bool {
        let defender = game.side;
        if game.outcome().is_some() {
            return true;
        }
        if !game.threats.points(defender, Kind::Five).is_empty() {
            return false;
        }
        let mut replies = Vec::new();
        if !self.defence_moves(game, &mut replies, u32::MAX) {
            return false;
        }
        // The points that complete the attacker's fives: blocking one of two does not help.
        let fives = game.threats.points(defender ^ 1, Kind::Five);
        *zone = zone.union(fives);
        for reply in replies {
            zone.insert(reply.point());
            let token = game.play_unchecked(reply);
            let proven = self.zone_attack(game, zone, nodes, limit);
            game.undo(reply, token);
            if !proven {
                return false;
            }
        }
        true
    }

    fn key(&self, game: &Gomoku) -> u64 {
        game.hash() ^ self.salt
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize ^ (key >> 32) as usize) & self.mask
    }

    /// A stored win of the side to move: its move and plies.
    fn stored_win(&self, game: &Gomoku) -> Option<(GomokuMove, u32)> {
        let key = self.key(game);
        let slot = self.slot(key);
        let data = self.data[slot];
        (self.keys[slot] == key && data & WIN_FLAG != 0)
            .then_some((GomokuMove((data & 0xFFFF) as u16), (data >> 16) & 0xFF))
    }

    /// Whether the table holds a failure searched with at least this budget.
    fn stored_failure(&self, key: u64, moves: u32, threes: u32) -> bool {
        let slot = self.slot(key);
        let data = self.data[slot];
        self.keys[slot] == key
            && data & WIN_FLAG == 0
            && data & 0xFF >= moves.min(255)
            && (data >> 8) & 0xFF >= threes.min(255)
    }

    fn store(&mut self, key: u64, data: u32) {
        let slot = self.slot(key);
        self.keys[slot] = key;
        self.data[slot] = data;
    }

    /// Counts a node; false when the search must stop.
    fn count_node(&mut self, deadline: &Deadline) -> bool {
        self.nodes += 1;
        if self.nodes >= self.limit {
            self.aborted = true;
        } else if self.nodes.is_multiple_of(CHECK_INTERVAL) {
            let stopped = deadline
                .stop
                .is_some_and(|flag| flag.load(Ordering::Relaxed));
            let late = deadline.time.is_some_and(|time| Instant::now() >= time);
            if stopped || late {
                self.aborted = true;
            }
        }
        !self.aborted
    }

    fn take_list(&mut self, ply: usize) -> Vec<GomokuMove> {
        if self.move_lists.len() <= ply {
            self.move_lists.resize_with(ply + 1, Vec::new);
        }
        let mut list = std::mem::take(&mut self.move_lists[ply]);
        list.clear();
        list
    }

    /// The attacker (to move) wins within `moves` moves and `threes` threes: plies to the five.
    fn attack(
        &mut self,
        game: &mut Gomoku,
        moves: u32,
        threes: u32,
        ply: usize,
        deadline: &Deadline,
    ) -> Option<u32> {
        let attacker = game.side;
        let defender = attacker ^ 1;
        let threats = &game.threats;
        if let Some(five) = threats.points(attacker, Kind::Five).first() {
            self.store(self.key(game), WIN_FLAG | 1 << 16 | five as u32);
            if ply == 0 {
                self.root_move = Some(GomokuMove(five as u16));
            }
            return Some(1);
        }
        if moves == 0 {
            return None;
        }
        let key = self.key(game);
        if let Some((mv, plies)) = self.stored_win(game) {
            if ply == 0 {
                self.root_move = Some(mv);
            }
            return Some(plies);
        }
        if self.stored_failure(key, moves, threes) {
            return None;
        }
        let mut list = self.take_list(ply);
        let blocks = threats.points(defender, Kind::Five);
        if !blocks.is_empty() {
            let block = blocks.first().expect("a block");
            if blocks.len() == 1 && game.allowed_for(attacker, block) {
                list.push(GomokuMove(block as u16));
            }
        } else {
            let wins = game.open_four_points(attacker);
            if let Some(win) = wins.first() {
                self.move_lists[ply] = list;
                self.store(key, WIN_FLAG | 3 << 16 | win as u32);
                if ply == 0 {
                    self.root_move = Some(GomokuMove(win as u16));
                }
                return Some(3);
            }
            attack_moves(game, attacker, threes > 0, &mut list);
        }
        let mut result = None;
        for &mv in &list {
            if !self.count_node(deadline) {
                break;
            }
            let token = game.play_unchecked(mv);
            let outcome = self.defend(game, moves - 1, threes, ply + 1, deadline);
            game.undo(mv, token);
            if let Some(plies) = outcome {
                result = Some((mv, plies + 1));
                break;
            }
            if self.aborted {
                break;
            }
        }
        self.move_lists[ply] = list;
        if self.aborted {
            return None;
        }
        match result {
            Some((mv, plies)) => {
                self.store(key, WIN_FLAG | plies.min(255) << 16 | u32::from(mv.0));
                if ply == 0 {
                    self.root_move = Some(mv);
                }
                Some(plies)
            }
            None => {
                self.store(key, moves.min(255) | threes.min(255) << 8);
                None
            }
        }
    }

    /// Fills `replies` with the defender's (to move) candidate replies to the attacker's threats.
    /// Returns false when the attacker has no threat; `replies` is empty (with true) when the
    /// defender cannot stop it. A three's threat counts only while `threes > 0`.
    fn defence_moves(&self, game: &Gomoku, replies: &mut Vec<GomokuMove>, threes: u32) -> bool {
        let defender = game.side;
        let attacker = defender ^ 1;
        let threats = &game.threats;
        replies.clear();
        let fives = threats.points(attacker, Kind::Five);
        if let Some(five) = fives.first() {
            if fives.len() == 1 && game.allowed_for(defender, five) {
                replies.push(GomokuMove(five as u16));
            }
            return true;
        }
        if threes == 0 {
            return false;
        }
        let Some(stops) = game.defences(attacker) else {
            return false;
        };
        let candidates: PointSet = stops.union(threats.points(defender, Kind::Four));
        for point in candidates.iter() {
            if game.allowed_for(defender, point) {
                replies.push(GomokuMove(point as u16));
            }
        }
        true
    }

    /// The attacker (who just moved) wins against every reply: plies to the five.
    fn defend(
        &mut self,
        game: &mut Gomoku,
        moves: u32,
        threes: u32,
        ply: usize,
        deadline: &Deadline,
    ) -> Option<u32> {
        let defender = game.side;
        if !game.threats.points(defender, Kind::Five).is_empty() {
            return None;
        }
        let mut replies = self.take_list(ply);
        let attacked_by_five = !game.threats.points(defender ^ 1, Kind::Five).is_empty();
        if !self.defence_moves(game, &mut replies, threes) {
            self.move_lists[ply] = replies;
            return None;
        }
        // A three's threat costs one three from here on.
        let threes_left = if attacked_by_five { threes } else { threes - 1 };
        if replies.is_empty() {
            self.move_lists[ply] = replies;
            // Nothing stops the five (or the open four that comes next).
            return Some(if attacked_by_five { 2 } else { 4 });
        }
        let mut longest = 0;
        for &reply in &replies {
            if !self.count_node(deadline) {
                break;
            }
            let token = game.play_unchecked(reply);
            let outcome = self.attack(game, moves, threes_left, ply + 1, deadline);
            game.undo(reply, token);
            match outcome {
                Some(plies) => longest = longest.max(plies + 1),
                None => {
                    longest = 0;
                    break;
                }
            }
        }
        self.move_lists[ply] = replies;
        (longest > 0 && !self.aborted).then_some(longest)
    }
}

/// The attacker's fours (and, with `threes`, its open threes) that it may play, most promising
/// first: four-threes, other fours, double threes, other threes.
fn attack_moves(game: &Gomoku, attacker: Player, threes: bool, list: &mut Vec<GomokuMove>) {
    let threats = &game.threats;
    let fours = threats.points(attacker, Kind::Four);
    let four_threes = threats.points(attacker, Kind::FourThree);
    let push = |set: &PointSet, skip: &PointSet, list: &mut Vec<GomokuMove>| {
        for point in set.iter() {
            if !skip.contains(point) && game.allowed_for(attacker, point) {
                list.push(GomokuMove(point as u16));
            }
        }
    };
    let none = PointSet::default();
    push(four_threes, &none, list);
    push(fours, four_threes, list);
    if threes {
        let double_threes = threats.points(attacker, Kind::DoubleThree);
        let skip = fours.union(double_threes);
        push(double_threes, fours, list);
        push(threats.points(attacker, Kind::Three), &skip, list);
    }
}

/// The strength from which the search uses the threat solvers.
const PROOF_STRENGTH: u8 = 3;
/// Table size of each search thread's solver: 2^18 entries, 3 MiB.
const THREAD_TABLE_BITS: u32 = 18;
/// Longest line the quick proofs look at, in attacker moves.
const PROOF_MOVES: u32 = 30;
/// Open threes in the root's VCT.
const ROOT_THREES: u32 = 3;
/// Table size of `solve`: 2^22 entries, 48 MiB.
const SOLVE_TABLE_BITS: u32 = 22;
/// Longest line `solve` looks at, in attacker moves, and the most open threes in its VCT.
const SOLVE_MOVES: u32 = 60;
const SOLVE_THREES: u32 = 6;
/// Nodes `solve` spends at most, over all its searches.
const SOLVE_NODES: u64 = 20_000_000;

thread_local! {
    static SOLVER: std::cell::RefCell<ThreatSolver> =
        std::cell::RefCell::new(ThreatSolver::new(THREAD_TABLE_BITS));
}

/// Empties this thread's proof table: wins and failures found in earlier searches would
/// otherwise shape the next one.
pub fn forget_thread_solver() {
    SOLVER.with(|solver| solver.borrow_mut().clear());
}

/// The search's quick proof (see [`crate::game::SearchHooks::find_forced_win`]): a VCF, and at the
/// root a VCT too, with half the budget each.
pub fn find_forced_win(game: &mut Gomoku, request: &ProofRequest) -> Option<ForcedWin<GomokuMove>> {
    if request.strength.0 < PROOF_STRENGTH || game.outcome().is_some() {
        return None;
    }
    let side = game.side;
    let threats = &game.threats;
    if threats.points(side, Kind::Five).is_empty()
        && threats.points(side, Kind::Four).is_empty()
        && !request.root
    {
        return None;
    }
    SOLVER.with(|solver| {
        let mut solver = solver.borrow_mut();
        let vcf = Budget::vcf(request.nodes / 2, PROOF_MOVES);
        let (win, budget) = match solver.solve(game, vcf) {
            Some(win) => (win, vcf),
            None if request.root => {
                let vct = Budget::vct(request.nodes / 2, PROOF_MOVES, ROOT_THREES);
                (solver.solve(game, vct)?, vct)
            }
            None => return None,
        };
        let line = if request.root {
            solver.principal_line(game, budget)
        } else {
            vec![win.first]
        };
        Some(ForcedWin {
            line,
            plies: win.plies as usize,
        })
    })
}

/// Root moves checked against the opponent's threats at most (the first ones in the given order).
const DEFENCE_MOVES: usize = 40;
/// Nodes of the threat search after each root move, at least.
const DEFENCE_MOVE_NODES: u64 = 1_000;
/// The most open threes of the opponent's threat win that the root looks for.
const DEFENCE_THREES: u32 = 5;
/// Nodes of the walk over the opponent's proof tree (see [`ThreatSolver::proof_zone`]).
const ZONE_NODES: u64 = 20_000;

/// [`crate::game::SearchHooks::keep_root_defences`] for Gomoku. When the opponent would have a forced win
/// by threats if the side to move passed (a VCT with the fewest open threes, up to
/// [`DEFENCE_THREES`], fours included, found within an eighth of the request's nodes), keeps only
/// the moves after which the same search of the opponent, with half of the request's nodes
/// shared among the moves (at least [`DEFENCE_MOVE_NODES`] each), finds none. A move away from
/// the opponent's proof tree (see [`ThreatSolver::proof_zone`]) that makes no four or three of
/// its own stops nothing and is dropped without a search. Nothing changes when no move is left
/// (the game is lost anyway, or the win lies beyond the budgets) or below the threat solvers'
/// strength.
pub fn keep_root_defences(game: &Gomoku, moves: &mut Vec<GomokuMove>, request: &ProofRequest) {
    if request.strength.0 < PROOF_STRENGTH || game.outcome().is_some() || moves.len() <= 1 {
        return;
    }
    let side = game.side;
    if !game.threats.points(side, Kind::Five).is_empty() {
        // The side to move wins at once: nothing to defend.
        return;
    }
    let mut passed = game.clone();
    passed.switch_side();
    SOLVER.with(|solver| {
        let mut solver = solver.borrow_mut();
        if threat_win(&mut solver, &mut passed, request.nodes / 8).is_none() {
            return;
        }
        let zone = solver.proof_zone(&mut passed, ZONE_NODES);
        let threats = &game.threats;
        let own_threats = [Kind::Four, Kind::Three]
            .iter()
            .fold(PointSet::default(), |set, &kind| {
                set.union(threats.points(side, kind))
            });
        let relevant = |mv: &GomokuMove| {
            zone.as_ref()
                .is_none_or(|zone| zone.contains(mv.point()) || own_threats.contains(mv.point()))
        };
        let searched: Vec<GomokuMove> = moves
            .iter()
            .take(DEFENCE_MOVES)
            .copied()
            .filter(relevant)
            .collect();
        let nodes = (request.nodes / 2 / searched.len().max(1) as u64).max(DEFENCE_MOVE_NODES);
        let mut position = game.clone();
        let defences: Vec<GomokuMove> = searched
            .into_iter()
            .filter(|&mv| {
                let undo = position.play_unchecked(mv);
                let refuted = threat_win(&mut solver, &mut position, nodes).is_some();
                position.undo(mv, undo);
                !refuted
            })
            .collect();
        if !defences.is_empty() {
            *moves = defences;
        }
    });
}

/// The side to move's threat win with the fewest open threes, up to [`DEFENCE_THREES`], within
/// `nodes` over all the searches: the open threes it needs.
fn threat_win(solver: &mut ThreatSolver, game: &mut Gomoku, nodes: u64) -> Option<u32> {
    let mut left = nodes;
    for threes in 1..=DEFENCE_THREES {
        let win = solver.solve(game, Budget::vct(left, PROOF_MOVES, threes));
        left = left.saturating_sub(solver.nodes());
        if win.is_some() {
            return Some(threes);
        }
        if solver.aborted() || left == 0 {
            return None;
        }
    }
    None
}

/// `solve` for Gomoku: a VCF, then VCTs with one open three more each time (up to
/// [`SOLVE_THREES`]), until a win is proven, [`SOLVE_NODES`] nodes are spent, the stop flag is
/// raised or the request's time runs out. The score is the search's
/// score of a win in the line's plies (see [`crate::base::score::win_in`]).
pub fn solve(position: &Gomoku, request: &SolveRequest) -> Option<Solution<GomokuMove>> {
    if position.outcome().is_some() {
        return None;
    }
    let mut game = position.clone();
    let mut solver = ThreatSolver::new(SOLVE_TABLE_BITS);
    let deadline = request.hard_time.map(|time| request.start + time);
    let mut nodes = 0;
    for threes in 0..=SOLVE_THREES {
        let budget = Budget::vct(SOLVE_NODES.saturating_sub(nodes), SOLVE_MOVES, threes);
        let win = solver.solve_until(&mut game, budget, Some(request.stop), deadline);
        nodes += solver.nodes();
        if let Some(win) = win {
            let pv = solver.principal_line(&mut game, budget);
            nodes += solver.nodes();
            return Some(Solution {
                moves: vec![(win.first, crate::base::score::win_in(win.plies as usize, 0))],
                scale: SolutionScale::Search,
                pv,
                nodes,
            });
        }
        log::debug!("solve: no win with {threes} threes, {nodes} nodes");
        if solver.aborted() {
            // Out of time: say so by raising the stop flag, as the request asks.
            if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                request.stop.store(true, Ordering::Relaxed);
            }
            break;
        }
    }
    None
}
