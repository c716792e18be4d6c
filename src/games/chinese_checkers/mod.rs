//! Chinese Checkers (Sternhalma) on the 121-hole star: solitaire, or 2, 3, 4 or 6 players.
//!
//! RuleSet, as documented for users in `protocol.md` (section "Chinese Checkers"); the options are
//! in [`variant`]:
//! - A move is a step to an adjacent empty hole, or a chain of one or more hops over single pieces
//!   of any colour (standard hops over an adjacent piece, or symmetric long jumps with `jumps=long`).
//!   The piece is lifted from its origin for the whole chain, lands on no hole twice and never ends
//!   on its origin. Different chains to the same hole are one move, `from-to`.
//! - House rules: with `goal_lock=on` (the default) a piece that stands in its goal camp must end
//!   its move in the goal camp again (it may hop out and back in within one move); with
//!   `goal_lock=strict` a chain that has landed in the goal camp (or starts there) lands only in
//!   it for the rest of the move. `equal_turn=on` (two players) draws a game where the first
//!   seat finishes with all ten pieces home and the second could finish with its next move;
//!   `at_cap=draw` makes the move cap and repetitions draws; `rules=ccerl` sets the CCERL rules. With
//!   `side_camps=open` (the default) pieces may pass through and rest in any other camp; with
//!   `no-stop` they may only pass through the camps that are neither their home nor their goal.
//! - With `finish=fill` (the default) a player whose goal camp is full and holds at least one of
//!   their own pieces has finished (Sturtevant's anti-spoiling rule), where another player's piece
//!   counts toward filling the camp only once its owner has taken `spoil_after` turns or has
//!   finished; with `finish=all` all ten pieces must be in the goal. Two players: the first to
//!   finish wins. Three or more: the others play on, finished players are skipped, and the last
//!   one left takes the last place. Solitaire (one player, camp 1 to camp 4) ends when the player
//!   finishes.
//! - A player with no legal move passes (an explicit `pass` move, the only legal move then).
//! - Engine games always end: after `max_moves` plies (default 1000) since the start or the last
//!   `setposition`, or when a position (board, side to move, finished players, turn counts)
//!   occurs for the third time in that stretch, the unfinished players are ranked by the sum of
//!   their pieces' distances to their goal tips, fewer being better, equal sums sharing a place.

pub mod board;
pub mod evaluation;
pub mod greedy;
pub mod moves;
pub mod notation;
pub mod race;
pub mod variant;

pub use moves::{ChineseCheckersMove, Jumps};
pub use variant::{
    start_camps, Finish, RuleSet, SideCamps, Variant, DEFAULT_MAX_MOVES, DEFAULT_SPOIL_AFTER,
    PLAYER_COUNTS,
};

use crate::game::{
    DirectMove, DirectRequest, GameError, MultiplayerSearch, Outcome, Player, Rules, ScoreUnit,
    SearchHooks, Strength, MAX_PLAYERS,
};
use board::{bit, CAMP_MASKS, CAMP_OF, GOAL_DISTANCES, HOLES};
use std::sync::Arc;
use variant::NO_SEAT;

/// The number of pieces each player has.
pub const PIECES: u32 = 10;
/// How often a position may occur before the game ends: it ends on the third occurrence.
pub const REPETITIONS: usize = 3;

const HASH_FAMILY: u64 = crate::base::zobrist::family::CHINESE_CHECKERS;

static PIECE_KEYS: [[u64; HOLES]; MAX_PLAYERS] = {
    let mut keys = [[0; HOLES]; MAX_PLAYERS];
    let mut seat = 0;
    while seat < MAX_PLAYERS {
        let mut hole = 0;
        while hole < HOLES {
            keys[seat][hole] = crate::base::zobrist::key(HASH_FAMILY, (seat * 128 + hole) as u64);
            hole += 1;
        }
        seat += 1;
    }
    keys
};

static SIDE_KEYS: [u64; MAX_PLAYERS] = {
    let mut keys = [0; MAX_PLAYERS];
    let mut seat = 0;
    while seat < MAX_PLAYERS {
        keys[seat] = crate::base::zobrist::key(HASH_FAMILY, 1000 + seat as u64);
        seat += 1;
    }
    keys
};

fn side_key(seat: usize) -> u64 {
    SIDE_KEYS[seat]
}

fn finish_key(seat: usize, place: u8) -> u64 {
    crate::base::zobrist::key(HASH_FAMILY, 2000 + (seat * 8) as u64 + place as u64)
}

/// The key of `seat` having taken `turns` turns, while that is below the spoiling count; a
/// saturated count adds nothing, so that positions without the count hash as before.
fn turn_key(seat: usize, turns: u8, limit: u8) -> u64 {
    if turns >= limit {
        0
    } else {
        crate::base::zobrist::key(HASH_FAMILY, 3000 + (seat * 256) as u64 + turns as u64)
    }
}

/// Everything of a position but the repetition history; it is also what undo restores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Snapshot {
    pieces: [u128; MAX_PLAYERS],
    occupied: u128,
    hash: u64,
    /// Sum of each seat's goal distances (see [`board::GOAL_DISTANCES`]).
    distances: [u16; MAX_PLAYERS],
    /// Each seat's finishing place, 0 while it plays on.
    places: [u8; MAX_PLAYERS],
    /// Turns each seat has taken, counted up to [`Variant::spoil_turns`] (finished seats count
    /// as having taken them all).
    turns: [u8; MAX_PLAYERS],
    finished: u8,
    side: u8,
    /// Plies since the start or the last loaded position.
    ply: u32,
    /// The first entry of the history a repetition may match: nothing before the last
    /// irreversible move (a piece entering a locked goal camp, a player finishing) can recur.
    window: u32,
    /// Whether the current position occurs for the third time.
    repeated: bool,
}

/// A Chinese Checkers game in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChineseCheckers {
    variant: Variant,
    state: Snapshot,
    /// The hashes of the positions before each ply since the start or the last loaded position.
    history: Vec<u64>,
    /// The evaluation's weights (the defaults unless the `weights` option or a tuning tool sets
    /// others).
    weights: evaluation::Weights,
    /// The file the `weights` option named, for [`Rules::options`]; `None` for the defaults.
    weights_file: Option<Arc<str>>,
}

impl ChineseCheckers {
    /// The start position of a variant with the default house rules.
    ///
    /// # Errors
    /// [`GameError::InvalidOption`] for a player count other than 1, 2, 3, 4 or 6, or a cap of 0.
    pub fn new(players: usize, jumps: Jumps, max_moves: u32) -> Result<ChineseCheckers, GameError> {
        ChineseCheckers::from_rules(RuleSet {
            players,
            jumps,
            max_moves,
            ..RuleSet::default()
        })
    }

    /// The start position for a set of rules.
    ///
    /// # Errors
    /// [`GameError::InvalidOption`] when the rules are out of range (see [`Variant::new`]).
    pub fn from_rules(rules: RuleSet) -> Result<ChineseCheckers, GameError> {
        let variant = Variant::new(rules)?;
        let mut pieces = [0; MAX_PLAYERS];
        for (seat, piece_mask) in pieces.iter_mut().enumerate().take(rules.players) {
            *piece_mask = CAMP_MASKS[variant.start_camp(seat)];
        }
        Ok(ChineseCheckers::from_parts(
            variant,
            pieces,
            0,
            &[],
            Some([0; MAX_PLAYERS]),
        ))
    }

    /// The start position for `set_game` options (see [`RuleSet::from_options`]).
    ///
    /// # Errors
    /// [`GameError::InvalidOption`] for an unknown or repeated key or a value out of range.
    pub fn from_options(options: &[(String, String)]) -> Result<ChineseCheckers, GameError> {
        let (weights, rules): (Vec<_>, Vec<_>) = options
            .iter()
            .cloned()
            .partition(|(key, _)| key.eq_ignore_ascii_case(crate::games::WEIGHTS));
        let mut game = ChineseCheckers::from_rules(RuleSet::from_options(&rules)?)?;
        if let Some(choice) = crate::games::WeightsChoice::from_options(&weights) {
            (game.weights, game.weights_file) = evaluation::load(&choice)?;
        }
        Ok(game)
    }

    /// A position from its pieces, the side to move, the players already finished in the order
    /// they finished, and the turns each seat has taken (`None`: all of them, as a position
    /// string without `turns=` says); players whose goal condition holds but are not listed are
    /// appended in seat order. The repetition history and the ply count start afresh.
    fn from_parts(
        variant: Variant,
        pieces: [u128; MAX_PLAYERS],
        side: Player,
        finish_order: &[Player],
        turns: Option<[u8; MAX_PLAYERS]>,
    ) -> ChineseCheckers {
        let limit = variant.spoil_turns();
        let mut state = Snapshot {
            pieces,
            occupied: pieces.iter().fold(0, |all, &mask| all | mask),
            hash: 0,
            distances: [0; MAX_PLAYERS],
            places: [0; MAX_PLAYERS],
            turns: turns
                .unwrap_or([limit; MAX_PLAYERS])
                .map(|count| count.min(limit)),
            finished: 0,
            side: side as u8,
            ply: 0,
            window: 0,
            repeated: false,
        };
        for (seat, &mask) in pieces.iter().enumerate().take(variant.players()) {
            state.distances[seat] = distance_sum(mask, variant.goal_camp(seat)) as u16;
        }
        let mut position = ChineseCheckers {
            variant,
            state,
            history: Vec::new(),
            weights: evaluation::Weights::DEFAULT,
            weights_file: None,
        };
        for &seat in finish_order {
            position.finish(seat);
        }
        position.finish_all_reached();
        position.state.hash = position.recompute_hash();
        position
    }

    /// Marks `seat` as finished in the next place; its pieces count in every goal from now on.
    fn finish(&mut self, seat: Player) {
        self.state.finished += 1;
        self.state.places[seat] = self.state.finished;
        self.state.turns[seat] = self.variant.spoil_turns();
    }

    /// The unfinished seats whose goal condition holds, counting the pieces of the ones found
    /// as finished too (a player that finishes makes its pieces count in other goals), as a mask
    /// of seats.
    fn newly_finished(&self) -> u8 {
        let mut probe = self.state;
        let mut found = 0u8;
        let limit = self.variant.spoil_turns();
        let players = self.variant.players();
        loop {
            let mut grew = false;
            for seat in 0..players {
                if probe.places[seat] == 0
                    && found & (1 << seat) == 0
                    && finish_condition(&self.variant, &probe, seat)
                {
                    found |= 1 << seat;
                    probe.turns[seat] = limit;
                    grew = true;
                }
            }
            if !grew {
                return found;
            }
        }
    }

    /// Finishes every player whose goal condition holds; players finishing together take their
    /// places in seat order. Returns whether anybody finished.
    fn finish_all_reached(&mut self) -> bool {
        let found = self.newly_finished();
        for seat in 0..self.variant.players() {
            if found & (1 << seat) != 0 {
                self.finish(seat);
            }
        }
        found != 0
    }

    /// [`ChineseCheckers::finish`] during play, keeping the hash up to date.
    fn finish_with_key(&mut self, seat: Player) {
        let limit = self.variant.spoil_turns();
        self.state.hash ^= turn_key(seat, self.state.turns[seat], limit);
        self.finish(seat);
        self.state.hash ^= finish_key(seat, self.state.finished);
    }

    /// [`ChineseCheckers::finish_all_reached`] during play, keeping the hash up to date.
    fn finish_reached_with_keys(&mut self) -> bool {
        let found = self.newly_finished();
        for seat in 0..self.variant.players() {
            if found & (1 << seat) != 0 {
                self.finish_with_key(seat);
            }
        }
        found != 0
    }

    /// The evaluation's weights.
    pub fn weights(&self) -> &evaluation::Weights {
        &self.weights
    }

    /// Evaluates with the weights of `other` (and reports its `weights` option): a new position
    /// keeps the session's weights.
    pub fn take_weights_of(&mut self, other: &ChineseCheckers) {
        self.weights = other.weights;
        self.weights_file = other.weights_file.clone();
    }

    /// Evaluates with `weights` from now on (for tuning).
    pub fn set_weights(&mut self, weights: evaluation::Weights) {
        self.weights = weights;
        self.weights_file = None;
    }

    /// The variant.
    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    /// The pieces of `seat` as a mask of holes (bit `i` is hole `i + 1`).
    pub fn pieces(&self, seat: Player) -> u128 {
        self.state.pieces[seat]
    }

    /// Every occupied hole.
    pub fn occupied(&self) -> u128 {
        self.state.occupied
    }

    /// The seat whose piece stands on `hole` (0-based), if any.
    pub fn owner(&self, hole: usize) -> Option<Player> {
        (0..self.variant.players()).find(|&seat| self.state.pieces[seat] & bit(hole) != 0)
    }

    /// The finishing place of `seat`, or `None` while it plays on.
    pub fn place(&self, seat: Player) -> Option<u8> {
        let place = self.state.places[seat];
        (place > 0).then_some(place)
    }

    /// The finished seats in the order they finished.
    pub fn finish_order(&self) -> Vec<Player> {
        let mut order: Vec<Player> = (0..self.variant.players())
            .filter(|&seat| self.state.places[seat] > 0)
            .collect();
        order.sort_by_key(|&seat| self.state.places[seat]);
        order
    }

    /// The plies played since the start or the last loaded position.
    pub fn ply(&self) -> u32 {
        self.state.ply
    }

    /// The turns `seat` has taken, counted up to [`Variant::spoil_turns`].
    pub fn turns(&self, seat: Player) -> u8 {
        self.state.turns[seat]
    }

    /// Whether the current position has occurred for the third time.
    pub fn is_repeated(&self) -> bool {
        self.state.repeated
    }

    /// The sum of the distances of `seat`'s pieces to its goal tip; 20 once all are in the goal.
    pub fn distance(&self, seat: Player) -> u32 {
        self.state.distances[seat] as u32
    }

    /// Whether `seat`'s finishing condition holds: with `finish=fill`, its goal camp is full,
    /// holds at least one of its pieces, and every other piece there belongs to a player that
    /// has taken its `spoil_after` turns; with `finish=all`, all its pieces are in the goal.
    pub fn goal_reached(&self, seat: Player) -> bool {
        finish_condition(&self.variant, &self.state, seat)
    }

    /// Whether the game has ended, by finishing, the move cap or repetition.
    pub fn is_over(&self) -> bool {
        let players = self.variant.players();
        self.state.finished as usize >= players.saturating_sub(1).max(1)
            || self.state.ply >= self.variant.max_moves()
            || self.state.repeated
    }

    /// Where the piece of `seat` on `from` may move, with the house rules applied.
    #[inline]
    pub fn piece_destinations(&self, seat: Player, from: usize) -> u128 {
        let goal = CAMP_MASKS[self.variant.goal_camp(seat)];
        let rules = self.variant.rules();
        let mut targets = if rules.goal_lock && rules.strict_lock {
            // No landing outside the goal after one inside it, within a chain too.
            moves::steps(from, self.state.occupied)
                | moves::hop_destinations_locked(
                    from,
                    self.state.occupied,
                    self.variant.jumps(),
                    goal,
                )
        } else {
            moves::destinations(from, self.state.occupied, self.variant.jumps())
        };
        // A piece that has reached its goal camp stays in it.
        if rules.goal_lock && goal & bit(from) != 0 {
            targets &= goal;
        }
        targets & !self.variant.barred(seat)
    }

    /// Whether the side to move has a move other than the pass.
    fn side_can_move(&self) -> bool {
        let seat = self.state.side as usize;
        let mut pieces = self.state.pieces[seat];
        while pieces != 0 {
            let from = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            if self.piece_destinations(seat, from) != 0 {
                return true;
            }
        }
        false
    }

    /// The number of legal moves of the side to move (the pass counting as one).
    fn count_moves(&self) -> u64 {
        let seat = self.state.side as usize;
        let mut pieces = self.state.pieces[seat];
        let mut count = 0;
        while pieces != 0 {
            let from = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            count += self.piece_destinations(seat, from).count_ones() as u64;
        }
        count.max(1)
    }

    /// The next seat after `seat` in turn order that has not finished.
    fn next_unfinished(&self, seat: usize) -> usize {
        let players = self.variant.players();
        (1..=players)
            .map(|offset| (seat + offset) % players)
            .find(|&next| self.state.places[next] == 0)
            .unwrap_or(seat)
    }

    /// The places when the game is over: finished seats keep theirs, the others follow by their
    /// distance sums, equal sums sharing a place. A solitaire game cut short before the goal is
    /// full gives the lone player place 2: it has not made it.
    fn ranking_by_progress(&self) -> Outcome {
        let players = self.variant.players();
        let state = &self.state;
        if players == 1 {
            return Outcome::ranking(&[if state.places[0] > 0 { 1 } else { 2 }]);
        }
        let mut places = [0u8; MAX_PLAYERS];
        for (seat, place) in places.iter_mut().enumerate().take(players) {
            *place = if state.places[seat] > 0 {
                state.places[seat]
            } else {
                let ahead = (0..players)
                    .filter(|&other| {
                        state.places[other] == 0 && state.distances[other] < state.distances[seat]
                    })
                    .count();
                state.finished + 1 + ahead as u8
            };
        }
        Outcome::ranking(&places[..players])
    }

    /// The equal-turn draw of two players: the first seat has finished with all its pieces in
    /// its goal, the second has not, is to move and has a move that finishes it.
    fn equal_turn_draw(&self) -> bool {
        if self.variant.players() != 2
            || self.state.places[0] != 1
            || self.state.places[1] != 0
            || self.state.side != 1
        {
            return false;
        }
        let goal = CAMP_MASKS[self.variant.goal_camp(0)];
        if self.state.pieces[0] & goal != goal {
            return false;
        }
        let mut pieces = self.state.pieces[1];
        while pieces != 0 {
            let from = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            let mut targets = self.piece_destinations(1, from);
            while targets != 0 {
                let to = targets.trailing_zeros() as usize;
                targets &= targets - 1;
                let mut probe = self.state;
                let change = bit(from) | bit(to);
                probe.pieces[1] ^= change;
                probe.occupied ^= change;
                if finish_condition(&self.variant, &probe, 1) {
                    return true;
                }
            }
        }
        false
    }

    /// Perft with bulk counting at the last ply and no move list.
    fn fast_perft(&mut self, depth: usize) -> u64 {
        if depth == 0 || self.is_over() {
            return 1;
        }
        if depth == 1 {
            return self.count_moves();
        }
        let seat = self.state.side as usize;
        let mut pieces = self.state.pieces[seat];
        let mut total = 0;
        let mut moved = false;
        while pieces != 0 {
            let from = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            let mut targets = self.piece_destinations(seat, from);
            while targets != 0 {
                let to = targets.trailing_zeros() as usize;
                targets &= targets - 1;
                moved = true;
                let mv = ChineseCheckersMove::new(from, to);
                let undo = self.play_unchecked(mv);
                total += self.fast_perft(depth - 1);
                self.undo(mv, undo);
            }
        }
        if !moved {
            let undo = self.play_unchecked(ChineseCheckersMove::PASS);
            total = self.fast_perft(depth - 1);
            self.undo(ChineseCheckersMove::PASS, undo);
        }
        total
    }

    /// Reads a move given as a hop path `a-b-c...` and checks the chain of hops on the board.
    ///
    /// Whose piece stands on the origin is left to the legality check of the move: the engine
    /// reads a move before it plays the forced passes that bring the named player to move.
    fn path_move(&self, text: &str, path: &[usize]) -> Result<ChineseCheckersMove, GameError> {
        if !moves::is_hop_path(path, self.state.occupied, self.variant.jumps()) {
            return Err(GameError::IllegalMove {
                mv: text.to_string(),
                reason: "the path is not a chain of legal hops".to_string(),
            });
        }
        let rules = self.variant.rules();
        if rules.goal_lock && rules.strict_lock {
            if let Some(seat) = self.owner(path[0]) {
                let goal = CAMP_MASKS[self.variant.goal_camp(seat)];
                if !moves::keeps_strict_lock(path, goal) {
                    return Err(GameError::IllegalMove {
                        mv: text.to_string(),
                        reason: "under goal_lock=strict the chain may not leave the goal camp \
                                 once it has landed there"
                            .to_string(),
                    });
                }
            }
        }
        Ok(ChineseCheckersMove::new(path[0], path[path.len() - 1]))
    }

    /// Checks that each listed finished player could have finished: at least one of its pieces
    /// (all of them with `finish=all`) stands in its goal camp. Other players' pieces may have
    /// left the goal since, so the camp need not be full.
    fn check_finished(&self, finish_order: &[Player]) -> Result<(), GameError> {
        for &seat in finish_order {
            let goal = CAMP_MASKS[self.variant.goal_camp(seat)];
            let own = self.state.pieces[seat] & goal;
            let possible = match self.variant.rules().finish {
                Finish::All => own == goal,
                Finish::Fill => own != 0,
            };
            if !possible {
                let why = match self.variant.rules().finish {
                    Finish::All => "not all of its pieces are in its goal camp",
                    Finish::Fill => "none of its pieces is in its goal camp",
                };
                return Err(GameError::InvalidPosition(format!(
                    "player {} is listed as finished, but {why}",
                    seat + 1
                )));
            }
        }
        Ok(())
    }
}

/// Whether `seat`'s finishing condition holds in `state` (see [`ChineseCheckers::goal_reached`]).
fn finish_condition(variant: &Variant, state: &Snapshot, seat: Player) -> bool {
    let goal = CAMP_MASKS[variant.goal_camp(seat)];
    let own = state.pieces[seat] & goal;
    match variant.rules().finish {
        Finish::All => own == goal,
        Finish::Fill => {
            if state.occupied & goal != goal || own == 0 {
                return false;
            }
            let limit = variant.spoil_turns();
            (0..variant.players()).all(|other| {
                other == seat || state.pieces[other] & goal == 0 || state.turns[other] >= limit
            })
        }
    }
}

/// The sum of the goal distances of the holes in `pieces` toward camp `goal`.
fn distance_sum(pieces: u128, goal: usize) -> u32 {
    let mut sum = 0;
    let mut rest = pieces;
    while rest != 0 {
        sum += GOAL_DISTANCES[goal][rest.trailing_zeros() as usize] as u32;
        rest &= rest - 1;
    }
    sum
}

impl Rules for ChineseCheckers {
    type Move = ChineseCheckersMove;

    type Undo = Snapshot;

    fn name(&self) -> &'static str {
        "chinese-checkers"
    }

    fn options(&self) -> Vec<(String, String)> {
        let mut options = self.variant.rules().to_options();
        if let Some(file) = &self.weights_file {
            options.push((crate::games::WEIGHTS.to_string(), file.to_string()));
        }
        options
    }

    fn set_option(&mut self, key: &str, value: &str) -> Result<(), GameError> {
        if key != crate::games::WEIGHTS {
            return Err(crate::game::rules::fixed_option(self.name(), key));
        }
        (self.weights, self.weights_file) =
            evaluation::load(&crate::games::WeightsChoice::parse(value))?;
        Ok(())
    }

    fn player_count(&self) -> usize {
        self.variant.players()
    }

    fn side_to_move(&self) -> Player {
        self.state.side as usize
    }

    fn generate_moves(&self, moves: &mut Vec<ChineseCheckersMove>) {
        moves.clear();
        if self.is_over() {
            return;
        }
        let seat = self.state.side as usize;
        let mut pieces = self.state.pieces[seat];
        while pieces != 0 {
            let from = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            let mut targets = self.piece_destinations(seat, from);
            while targets != 0 {
                moves.push(ChineseCheckersMove::new(
                    from,
                    targets.trailing_zeros() as usize,
                ));
                targets &= targets - 1;
            }
        }
        if moves.is_empty() {
            moves.push(ChineseCheckersMove::PASS);
        }
    }

    fn is_legal(&self, mv: ChineseCheckersMove) -> bool {
        if self.is_over() {
            return false;
        }
        if mv.is_pass() {
            return !self.side_can_move();
        }
        let (from, to) = (mv.from as usize, mv.to as usize);
        let seat = self.state.side as usize;
        from < HOLES
            && to < HOLES
            && self.state.pieces[seat] & bit(from) != 0
            && self.piece_destinations(seat, from) & bit(to) != 0
    }

    fn play_unchecked(&mut self, mv: ChineseCheckersMove) -> Snapshot {
        let before = self.state;
        self.history.push(before.hash);
        let seat = before.side as usize;
        let mut irreversible = false;
        if !mv.is_pass() {
            let (from, to) = (mv.from as usize, mv.to as usize);
            let state = &mut self.state;
            let change = bit(from) | bit(to);
            state.pieces[seat] ^= change;
            state.occupied ^= change;
            state.hash ^= PIECE_KEYS[seat][from] ^ PIECE_KEYS[seat][to];
            let goal = self.variant.goal_camp(seat);
            state.distances[seat] = state.distances[seat] + GOAL_DISTANCES[goal][to] as u16
                - GOAL_DISTANCES[goal][from] as u16;
            // With the goal lock, pieces never leave their goal camp: entering it is for good.
            irreversible = self.variant.rules().goal_lock
                && CAMP_MASKS[goal] & bit(from) == 0
                && CAMP_MASKS[goal] & bit(to) != 0;
        }
        let limit = self.variant.spoil_turns();
        let turns = self.state.turns[seat];
        // A player's condition can only come to hold when a piece enters its goal, or when the
        // mover's pieces start to count (its turns reach the limit).
        let mut check = false;
        if turns < limit {
            self.state.turns[seat] = turns + 1;
            self.state.hash ^= turn_key(seat, turns, limit) ^ turn_key(seat, turns + 1, limit);
            check = turns + 1 == limit;
            // Turn counts only grow: no earlier position can recur.
            irreversible = true;
        }
        if !mv.is_pass() && !check {
            let owner = self.variant.goal_owners[CAMP_OF[mv.to as usize] as usize];
            check = owner != NO_SEAT
                && self.state.places[owner as usize] == 0
                && self.goal_reached(owner as usize);
        }
        if check {
            irreversible |= self.finish_reached_with_keys();
        }
        let next = self.next_unfinished(seat);
        self.state.hash ^= side_key(seat) ^ side_key(next);
        self.state.side = next as u8;
        self.state.ply += 1;
        if irreversible {
            self.state.window = self.history.len() as u32;
        }
        let hash = self.state.hash;
        let earlier = self.history[self.state.window as usize..]
            .iter()
            .filter(|&&seen| seen == hash)
            .count();
        self.state.repeated = earlier + 1 >= REPETITIONS;
        before
    }

    fn undo(&mut self, _mv: ChineseCheckersMove, undo: Snapshot) {
        self.state = undo;
        self.history.pop();
    }

    fn illegal_reason(&self, mv: ChineseCheckersMove) -> String {
        if self.is_over() {
            return "the game is over".to_string();
        }
        if mv.is_pass() {
            return "a pass is only legal when no other move is".to_string();
        }
        let (from, to) = (mv.from as usize, mv.to as usize);
        if from >= HOLES || to >= HOLES {
            return "the hole is not on the board".to_string();
        }
        let seat = self.state.side as usize;
        let player = seat + 1;
        match self.owner(from) {
            None => return format!("hole {} is empty", from + 1),
            Some(owner) if owner != seat => {
                return format!(
                    "hole {} holds a piece of player {}, not of player {player}",
                    from + 1,
                    owner + 1
                )
            }
            _ => {}
        }
        if from == to {
            return "a move must end on another hole than the one it starts from".to_string();
        }
        if self.state.occupied & bit(to) != 0 {
            return format!("hole {} is occupied", to + 1);
        }
        let reachable = moves::destinations(from, self.state.occupied, self.variant.jumps());
        if reachable & bit(to) == 0 {
            return format!(
                "hole {} cannot be reached from hole {} by a step or a chain of hops",
                to + 1,
                from + 1
            );
        }
        let goal = CAMP_MASKS[self.variant.goal_camp(seat)];
        if self.variant.rules().goal_lock && goal & bit(from) != 0 && goal & bit(to) == 0 {
            return "a piece in its goal camp may not leave it".to_string();
        }
        if self.variant.rules().goal_lock && self.variant.rules().strict_lock {
            let strict = moves::hop_destinations_locked(
                from,
                self.state.occupied,
                self.variant.jumps(),
                goal,
            );
            if reachable & !moves::steps(from, self.state.occupied) & bit(to) != 0
                && strict & bit(to) == 0
            {
                return format!(
                    "under goal_lock=strict no chain reaches hole {} without leaving the goal \
                     camp after landing in it",
                    to + 1
                );
            }
        }
        if self.variant.barred(seat) & bit(to) != 0 {
            return format!(
                "hole {} is in a camp that is neither player {player}'s home nor its goal",
                to + 1
            );
        }
        "not a legal move in this position".to_string()
    }

    fn forced_pass(&self) -> Option<ChineseCheckersMove> {
        (!self.is_over() && !self.side_can_move()).then_some(ChineseCheckersMove::PASS)
    }

    fn move_from_code(&self, code: u16) -> Option<ChineseCheckersMove> {
        ChineseCheckersMove::from_code(code)
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        let rules = self.variant.rules();
        if rules.equal_turn && self.equal_turn_draw() {
            return Some(Outcome::draw(2));
        }
        let players = self.variant.players();
        if rules.cap_draw && players > 1 && (self.state.finished as usize) < players - 1 {
            // Cut short by the cap or a repetition: the players still playing share a place.
            let mut places = [0u8; MAX_PLAYERS];
            for (seat, place) in places.iter_mut().enumerate().take(players) {
                *place = match self.state.places[seat] {
                    0 => self.state.finished + 1,
                    finished => finished,
                };
            }
            return Some(Outcome::ranking(&places[..players]));
        }
        Some(self.ranking_by_progress())
    }

    fn hash(&self) -> u64 {
        self.state.hash
    }

    fn recompute_hash(&self) -> u64 {
        let mut hash = side_key(self.state.side as usize);
        let limit = self.variant.spoil_turns();
        for (seat, keys) in PIECE_KEYS.iter().enumerate().take(self.variant.players()) {
            hash ^= turn_key(seat, self.state.turns[seat], limit);
            let mut pieces = self.state.pieces[seat];
            while pieces != 0 {
                hash ^= keys[pieces.trailing_zeros() as usize];
                pieces &= pieces - 1;
            }
            if self.state.places[seat] > 0 {
                hash ^= finish_key(seat, self.state.places[seat]);
            }
        }
        hash
    }

    fn parse_move(&self, text: &str) -> Result<ChineseCheckersMove, GameError> {
        match notation::parse_move(text)? {
            None => Ok(ChineseCheckersMove::PASS),
            Some(path) if path.len() == 2 => Ok(ChineseCheckersMove::new(path[0], path[1])),
            Some(path) => self.path_move(text, &path),
        }
    }

    fn format_move(&self, mv: ChineseCheckersMove) -> String {
        notation::format_move(mv)
    }

    fn format_player(&self, player: Player) -> String {
        // Chinese Checkers players have numbers, not colours, even two of them.
        (player + 1).to_string()
    }

    fn format_result(&self, outcome: &Outcome) -> String {
        if self.variant.players() == 1 {
            // Solitaire: 1 when the crossing is complete, 0 when the game was cut short.
            return if outcome.place(0) == 1 { "1" } else { "0" }.to_string();
        }
        if self.variant.players() == 2 {
            // The winner's number, or 0 for a tie at the cap.
            return outcome
                .winner()
                .map_or("0".to_string(), |winner| self.format_player(winner));
        }
        (0..self.variant.players())
            .map(|seat| format!("{}:{}", self.format_player(seat), outcome.place(seat)))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn position_string(&self) -> String {
        let cells = self.cells();
        let limit = self.variant.spoil_turns();
        let players = self.variant.players();
        let turns = &self.state.turns[..players];
        let counting = turns.iter().any(|&count| count < limit);
        notation::write_position(
            &cells,
            self.state.side as usize,
            &self.finish_order(),
            counting.then_some(turns),
        )
    }

    fn set_position_string(&mut self, text: &str) -> Result<(), GameError> {
        let players = self.variant.players();
        let parsed = notation::read_position(text, players)?;
        let mut pieces = [0u128; MAX_PLAYERS];
        for (hole, &cell) in parsed.cells.iter().enumerate() {
            if cell > 0 {
                pieces[cell as usize - 1] |= bit(hole);
            }
        }
        let limit = self.variant.spoil_turns();
        let turns = match &parsed.turns {
            None => None,
            Some(_) if limit == 0 => {
                return Err(GameError::InvalidPosition(
                    "turns= applies only with finish=fill and spoil_after above 0".to_string(),
                ))
            }
            Some(list) => {
                if let Some(&count) = list.iter().find(|&&count| count > limit as u32) {
                    return Err(GameError::InvalidPosition(format!(
                        "turns are counted up to spoil_after ({limit}), not {count}"
                    )));
                }
                let mut turns = [limit; MAX_PLAYERS];
                for (seat, &count) in list.iter().enumerate() {
                    turns[seat] = count as u8;
                }
                Some(turns)
            }
        };
        let position = ChineseCheckers::from_parts(
            self.variant,
            pieces,
            parsed.side,
            &parsed.finish_order,
            turns,
        );
        if players > 1 && position.state.places[parsed.side] > 0 {
            return Err(GameError::InvalidPosition(format!(
                "player {} has finished and cannot be the side to move",
                parsed.side + 1
            )));
        }
        position.check_finished(&parsed.finish_order)?;
        if players > 1 && position.state.finished as usize >= players {
            return Err(GameError::InvalidPosition(
                "every player has finished".to_string(),
            ));
        }
        let weights = self.weights;
        let file = self.weights_file.take();
        *self = position;
        self.weights = weights;
        self.weights_file = file;
        Ok(())
    }

    fn diagram(&self) -> String {
        notation::diagram(self)
    }

    fn start_position(&self) -> ChineseCheckers {
        let mut start = ChineseCheckers::from_rules(*self.variant.rules())
            .expect("a variant that exists has a start position");
        start.weights = self.weights;
        start.weights_file = self.weights_file.clone();
        start
    }

    fn perft(&self, depth: usize) -> u64 {
        self.clone().fast_perft(depth)
    }
}

impl SearchHooks for ChineseCheckers {
    fn forget_thread_memory(&self) {
        race::forget_plans();
    }

    /// Moves that go backwards (away from the mover's goal tip) or end in a side camp are left
    /// out of the search while any other move exists: they almost never help, backward moves
    /// double the width of the tree, and a piece resting in a side camp can be shut in there for
    /// good when that camp is another player's goal and fills up.
    fn search_moves(&self, moves: &mut Vec<ChineseCheckersMove>) {
        moves.clear();
        if self.is_over() {
            return;
        }
        let seat = self.state.side as usize;
        let goal = self.variant.goal_camp(seat);
        let mut pieces = self.state.pieces[seat];
        while pieces != 0 {
            let from = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            let mut targets = self.piece_destinations(seat, from)
                & board::NOT_BEHIND[goal][GOAL_DISTANCES[goal][from] as usize]
                & !self.variant.side_camps(seat);
            while targets != 0 {
                moves.push(ChineseCheckersMove::new(
                    from,
                    targets.trailing_zeros() as usize,
                ));
                targets &= targets - 1;
            }
        }
        if moves.is_empty() {
            self.generate_moves(moves);
        }
    }

    fn direct_move(&self, request: &DirectRequest) -> Option<DirectMove<ChineseCheckersMove>> {
        if self.is_over() {
            return None;
        }
        if request.level <= 1 {
            // Level 1 is the reference design's greedy player.
            let mv = greedy::greedy_move(self, request.seed)?;
            return Some(DirectMove {
                mv,
                pv: vec![mv],
                exact: false,
            });
        }
        race::race_move(self, request)
    }

    fn null_move(&self) -> Option<ChineseCheckersMove> {
        Some(ChineseCheckersMove::PASS)
    }

    fn multiplayer_search(&self, depth: Option<u32>) -> MultiplayerSearch {
        // Six players and no depth cap (level 8): Monte-Carlo tree search, first more often than
        // best-reply search against five greedy seats at the same time a move. Otherwise
        // best-reply search, which beat paranoid search in every match measured; a Monte-Carlo
        // search has no depth to cap, and with three players it was first less often against
        // two best-reply seats (measurements: docs/results/chinese-checkers.md).
        if self.variant().players() == 6 && depth.is_none() {
            MultiplayerSearch::MonteCarlo
        } else {
            MultiplayerSearch::BestReply
        }
    }

    fn evaluate(&self, perspective: Player, strength: Strength) -> i32 {
        evaluation::evaluate(self, perspective, strength)
    }

    fn evaluate_all(&self, strength: Strength, values: &mut [i32]) {
        evaluation::evaluate_all(self, strength, values);
    }

    fn score_moves(&self, moves: &[ChineseCheckersMove], scores: &mut [i32]) {
        evaluation::score_moves(self, moves, scores);
    }

    fn policy_values(&self, moves: &[ChineseCheckersMove], values: &mut [i32]) {
        // The rows each move gains: the greedy player's rule (level 1).
        for (mv, value) in moves.iter().zip(values.iter_mut()) {
            *value = greedy::rows_gained(self, *mv);
        }
    }

    fn expected_moves_left(&self) -> u32 {
        evaluation::expected_moves_left(self)
    }

    fn score_unit(&self) -> ScoreUnit {
        evaluation::UNIT
    }
}

impl ChineseCheckers {
    /// The board as cells in hole order: 0 empty, `n` a piece of player number `n`.
    pub fn cells(&self) -> [u8; HOLES] {
        let mut cells = [0; HOLES];
        for seat in 0..self.variant.players() {
            let mut pieces = self.state.pieces[seat];
            while pieces != 0 {
                cells[pieces.trailing_zeros() as usize] = seat as u8 + 1;
                pieces &= pieces - 1;
            }
        }
        cells
    }
}

impl Default for ChineseCheckers {
    fn default() -> Self {
        ChineseCheckers::new(2, Jumps::Standard, DEFAULT_MAX_MOVES)
            .expect("two players is a valid variant")
    }
}

#[cfg(test)]
mod tests;

/// The positions `tabula bench` searches in Chinese Checkers: the start and a position 30 plies
/// into a fixed playout, for 2, 3 and 6 players.
pub fn bench_positions() -> Vec<ChineseCheckers> {
    let mut positions = Vec::new();
    for players in [2, 3, 6] {
        let start = ChineseCheckers::new(players, Jumps::Standard, DEFAULT_MAX_MOVES)
            .expect("a valid player count");
        positions.push(super::playout(&start, 30, 7));
        positions.insert(positions.len() - 1, start);
    }
    positions
}
