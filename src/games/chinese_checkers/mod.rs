//! Chinese Checkers (Sternhalma) for 2, 3, 4 or 6 players on the 121-hole star.
//!
//! Rules, as documented for users in `protocol.md` (section "Chinese Checkers"):
//! - A move is a step to an adjacent empty hole, or a chain of one or more hops over single pieces
//!   of any colour (standard hops over an adjacent piece, or symmetric long jumps with `jumps=long`).
//!   The piece is lifted from its origin for the whole chain, lands on no hole twice and never ends
//!   on its origin. Different chains to the same hole are one move, `from-to`.
//! - House rules: a piece that stands in its goal camp must end its move in the goal camp again
//!   (it may hop out and back in within one move). Pieces may pass through and rest in any other
//!   camp; the anti-spoiling rule below keeps that from blocking a goal for good.
//! - A player whose goal camp is full and holds at least one of their own pieces has finished
//!   (Sturtevant's anti-spoiling rule). Two players: the first to finish wins. Three or more: the
//!   others play on, finished players are skipped, and the last one left takes the last place.
//! - A player with no legal move passes (an explicit `pass` move, the only legal move then).
//! - Engine games always end: after `max_moves` plies (default 1000) since the start or the last
//!   `setposition`, or when a position (board, side to move, finished players) occurs for the
//!   third time in that stretch, the unfinished players are ranked by the sum of their pieces'
//!   distances to their goal tips, fewer being better, equal sums sharing a place.

pub mod board;
pub mod evaluation;
pub mod moves;
pub mod notation;

pub use moves::{ChineseCheckersMove, Jumps};

use crate::game::{Game, GameError, Outcome, Player, ScoreUnit, Strength, MAX_PLAYERS};
use board::{bit, CAMPS, CAMP_MASKS, CAMP_OF, GOAL_DISTANCES, HOLES};

/// The player counts the star seats.
pub const PLAYER_COUNTS: [usize; 4] = [2, 3, 4, 6];
/// The default cap on the plies of a game.
pub const DEFAULT_MAX_MOVES: u32 = 1000;
/// The number of pieces each player has.
pub const PIECES: u32 = 10;
/// How often a position may occur before the game ends: it ends on the third occurrence.
pub const REPETITIONS: usize = 3;

const HASH_FAMILY: u64 = 4;
const NO_SEAT: u8 = u8::MAX;

static PIECE_KEYS: [[u64; HOLES]; MAX_PLAYERS] = {
    let mut keys = [[0; HOLES]; MAX_PLAYERS];
    let mut seat = 0;
    while seat < MAX_PLAYERS {
        let mut hole = 0;
        while hole < HOLES {
            keys[seat][hole] = crate::zobrist::key(HASH_FAMILY, (seat * 128 + hole) as u64);
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
        keys[seat] = crate::zobrist::key(HASH_FAMILY, 1000 + seat as u64);
        seat += 1;
    }
    keys
};

fn side_key(seat: usize) -> u64 {
    SIDE_KEYS[seat]
}

fn finish_key(seat: usize, place: u8) -> u64 {
    crate::zobrist::key(HASH_FAMILY, 2000 + (seat * 8) as u64 + place as u64)
}

/// The start camps (1..6) of the seats, in turn order, for a player count.
pub fn start_camps(players: usize) -> Option<&'static [usize]> {
    match players {
        2 => Some(&[1, 4]),
        3 => Some(&[1, 3, 5]),
        4 => Some(&[1, 2, 4, 5]),
        6 => Some(&[1, 2, 3, 4, 5, 6]),
        _ => None,
    }
}

/// The variant: player count, jump rule and move cap, with the seating derived from them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    players: usize,
    jumps: Jumps,
    max_moves: u32,
    /// Each seat's start and goal camp (1..6).
    starts: [u8; MAX_PLAYERS],
    goals: [u8; MAX_PLAYERS],
    /// The seat whose goal each camp is, or `NO_SEAT`.
    goal_owners: [u8; CAMPS + 1],
}

impl Variant {
    /// The variant for `players` seats (2, 3, 4 or 6).
    ///
    /// # Errors
    /// [`GameError::InvalidOption`] for another player count or a move cap of 0.
    pub fn new(players: usize, jumps: Jumps, max_moves: u32) -> Result<Variant, GameError> {
        let camps = start_camps(players).ok_or_else(|| {
            GameError::InvalidOption(format!("players must be 2, 3, 4 or 6, not {players}"))
        })?;
        if max_moves == 0 {
            return Err(GameError::InvalidOption(
                "max_moves must be at least 1".to_string(),
            ));
        }
        let mut variant = Variant {
            players,
            jumps,
            max_moves,
            starts: [0; MAX_PLAYERS],
            goals: [0; MAX_PLAYERS],
            goal_owners: [NO_SEAT; CAMPS + 1],
        };
        for (seat, &camp) in camps.iter().enumerate() {
            let goal = board::opposite_camp(camp);
            variant.starts[seat] = camp as u8;
            variant.goals[seat] = goal as u8;
            variant.goal_owners[goal] = seat as u8;
        }
        Ok(variant)
    }

    /// The number of seats.
    pub fn players(&self) -> usize {
        self.players
    }

    /// The jump rule.
    pub fn jumps(&self) -> Jumps {
        self.jumps
    }

    /// The cap on plies after which the game ends.
    pub fn max_moves(&self) -> u32 {
        self.max_moves
    }

    /// The start camp (1..6) of `seat`.
    pub fn start_camp(&self, seat: Player) -> usize {
        self.starts[seat] as usize
    }

    /// The goal camp (1..6) of `seat`.
    pub fn goal_camp(&self, seat: Player) -> usize {
        self.goals[seat] as usize
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
    finished: u8,
    side: u8,
    /// Plies since the start or the last loaded position.
    ply: u32,
    /// The first entry of the history a repetition may match: moves into a goal camp cannot be
    /// undone, so nothing before the last of them can recur.
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
}

impl ChineseCheckers {
    /// The start position of a variant.
    ///
    /// # Errors
    /// [`GameError::InvalidOption`] for a player count other than 2, 3, 4 or 6, or a cap of 0.
    pub fn new(players: usize, jumps: Jumps, max_moves: u32) -> Result<ChineseCheckers, GameError> {
        let variant = Variant::new(players, jumps, max_moves)?;
        let mut pieces = [0; MAX_PLAYERS];
        for (seat, piece_mask) in pieces.iter_mut().enumerate().take(players) {
            *piece_mask = CAMP_MASKS[variant.start_camp(seat)];
        }
        Ok(ChineseCheckers::from_parts(variant, pieces, 0, &[]))
    }

    /// The start position for `set_game` options: `players` (2, 3, 4, 6; default 2), `jumps`
    /// (`standard` or `long`; default standard) and `max_moves` (plies, default 1000).
    ///
    /// # Errors
    /// [`GameError::InvalidOption`] for an unknown or repeated key or a value out of range.
    pub fn from_options(options: &[(String, String)]) -> Result<ChineseCheckers, GameError> {
        let mut players = 2;
        let mut jumps = Jumps::Standard;
        let mut max_moves = DEFAULT_MAX_MOVES;
        let mut seen: Vec<String> = Vec::new();
        for (key, value) in options {
            let key = key.trim().to_ascii_lowercase();
            let value = value.trim().to_ascii_lowercase();
            if seen.contains(&key) {
                return Err(GameError::InvalidOption(format!("{key} given twice")));
            }
            match key.as_str() {
                "players" => {
                    players = value
                        .parse()
                        .ok()
                        .filter(|count| PLAYER_COUNTS.contains(count))
                        .ok_or_else(|| {
                            GameError::InvalidOption(format!(
                                "players must be 2, 3, 4 or 6, not '{value}'"
                            ))
                        })?;
                }
                "jumps" => {
                    jumps = match value.as_str() {
                        "standard" => Jumps::Standard,
                        "long" => Jumps::Long,
                        _ => {
                            return Err(GameError::InvalidOption(format!(
                                "jumps must be standard or long, not '{value}'"
                            )))
                        }
                    }
                }
                "max_moves" => {
                    max_moves = value.parse().ok().filter(|&cap| cap >= 1).ok_or_else(|| {
                        GameError::InvalidOption(format!(
                            "max_moves must be a whole number of at least 1, not '{value}'"
                        ))
                    })?;
                }
                _ => {
                    return Err(GameError::InvalidOption(format!(
                        "unknown chinese-checkers option '{key}' (players, jumps, max_moves)"
                    )))
                }
            }
            seen.push(key);
        }
        ChineseCheckers::new(players, jumps, max_moves)
    }

    /// A position from its pieces, the side to move and the players already finished, in the
    /// order they finished; players whose goal condition holds but are not listed are appended in
    /// seat order. The repetition history and the ply count start afresh.
    fn from_parts(
        variant: Variant,
        pieces: [u128; MAX_PLAYERS],
        side: Player,
        finish_order: &[Player],
    ) -> ChineseCheckers {
        let mut state = Snapshot {
            pieces,
            occupied: pieces.iter().fold(0, |all, &mask| all | mask),
            hash: 0,
            distances: [0; MAX_PLAYERS],
            places: [0; MAX_PLAYERS],
            finished: 0,
            side: side as u8,
            ply: 0,
            window: 0,
            repeated: false,
        };
        for (seat, &mask) in pieces.iter().enumerate().take(variant.players) {
            state.distances[seat] = distance_sum(mask, variant.goal_camp(seat)) as u16;
        }
        let mut position = ChineseCheckers {
            variant,
            state,
            history: Vec::new(),
        };
        for &seat in finish_order {
            position.finish(seat);
        }
        for seat in 0..variant.players {
            if position.state.places[seat] == 0 && position.goal_reached(seat) {
                position.finish(seat);
            }
        }
        position.state.hash = position.recompute_hash();
        position
    }

    /// Marks `seat` as finished in the next place.
    fn finish(&mut self, seat: Player) {
        self.state.finished += 1;
        self.state.places[seat] = self.state.finished;
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
        (0..self.variant.players).find(|&seat| self.state.pieces[seat] & bit(hole) != 0)
    }

    /// The finishing place of `seat`, or `None` while it plays on.
    pub fn place(&self, seat: Player) -> Option<u8> {
        let place = self.state.places[seat];
        (place > 0).then_some(place)
    }

    /// The finished seats in the order they finished.
    pub fn finish_order(&self) -> Vec<Player> {
        let mut order: Vec<Player> = (0..self.variant.players)
            .filter(|&seat| self.state.places[seat] > 0)
            .collect();
        order.sort_by_key(|&seat| self.state.places[seat]);
        order
    }

    /// The plies played since the start or the last loaded position.
    pub fn ply(&self) -> u32 {
        self.state.ply
    }

    /// Whether the current position has occurred for the third time.
    pub fn is_repeated(&self) -> bool {
        self.state.repeated
    }

    /// The sum of the distances of `seat`'s pieces to its goal tip; 20 once all are in the goal.
    pub fn distance(&self, seat: Player) -> u32 {
        self.state.distances[seat] as u32
    }

    /// Whether `seat`'s goal camp is full and holds at least one of its pieces.
    pub fn goal_reached(&self, seat: Player) -> bool {
        let goal = CAMP_MASKS[self.variant.goal_camp(seat)];
        self.state.occupied & goal == goal && self.state.pieces[seat] & goal != 0
    }

    /// Whether the game has ended, by finishing, the move cap or repetition.
    pub fn is_over(&self) -> bool {
        self.state.finished as usize + 1 >= self.variant.players
            || self.state.ply >= self.variant.max_moves
            || self.state.repeated
    }

    /// Where the piece of `seat` on `from` may move, with the house rules applied.
    #[inline]
    pub fn piece_destinations(&self, seat: Player, from: usize) -> u128 {
        let mut targets = moves::destinations(from, self.state.occupied, self.variant.jumps);
        let goal = CAMP_MASKS[self.variant.goal_camp(seat)];
        // A piece that has reached its goal camp stays in it.
        if goal & bit(from) != 0 {
            targets &= goal;
        }
        targets
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
        let players = self.variant.players;
        (1..=players)
            .map(|offset| (seat + offset) % players)
            .find(|&next| self.state.places[next] == 0)
            .unwrap_or(seat)
    }

    /// The places when the game is cut short: finished seats keep theirs, the others follow by
    /// their distance sums, equal sums sharing a place.
    fn ranking_by_progress(&self) -> Outcome {
        let players = self.variant.players;
        let state = &self.state;
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
        if !moves::is_hop_path(path, self.state.occupied, self.variant.jumps) {
            return Err(GameError::IllegalMove {
                mv: text.to_string(),
                reason: "the path is not a chain of legal hops".to_string(),
            });
        }
        Ok(ChineseCheckersMove::new(path[0], path[path.len() - 1]))
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

impl Game for ChineseCheckers {
    type Move = ChineseCheckersMove;
    type Undo = Snapshot;

    fn name(&self) -> &'static str {
        "chinese-checkers"
    }

    fn options(&self) -> Vec<(String, String)> {
        let jumps = match self.variant.jumps {
            Jumps::Standard => "standard",
            Jumps::Long => "long",
        };
        vec![
            ("players".to_string(), self.variant.players.to_string()),
            ("jumps".to_string(), jumps.to_string()),
            ("max_moves".to_string(), self.variant.max_moves.to_string()),
        ]
    }

    fn player_count(&self) -> usize {
        self.variant.players
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
            let goal = self.variant.goals[seat] as usize;
            state.distances[seat] = state.distances[seat] + GOAL_DISTANCES[goal][to] as u16
                - GOAL_DISTANCES[goal][from] as u16;
            // Pieces never leave their goal camp, so entering it cannot be undone.
            irreversible = CAMP_MASKS[goal] & bit(from) == 0 && CAMP_MASKS[goal] & bit(to) != 0;
            // Only the camp moved into can have filled up, so at most one seat finishes.
            let owner = self.variant.goal_owners[CAMP_OF[to] as usize];
            if owner != NO_SEAT
                && self.state.places[owner as usize] == 0
                && self.goal_reached(owner as usize)
            {
                self.finish(owner as usize);
                self.state.hash ^= finish_key(owner as usize, self.state.finished);
                irreversible = true;
            }
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
        let reachable = moves::destinations(from, self.state.occupied, self.variant.jumps);
        if reachable & bit(to) == 0 {
            return format!(
                "hole {} cannot be reached from hole {} by a step or a chain of hops",
                to + 1,
                from + 1
            );
        }
        let goal = CAMP_MASKS[self.variant.goal_camp(seat)];
        if goal & bit(from) != 0 && goal & bit(to) == 0 {
            return "a piece in its goal camp may not leave it".to_string();
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
        self.is_over().then(|| self.ranking_by_progress())
    }

    fn perft(&self, depth: usize) -> u64 {
        self.clone().fast_perft(depth)
    }

    fn hash(&self) -> u64 {
        self.state.hash
    }

    fn recompute_hash(&self) -> u64 {
        let mut hash = side_key(self.state.side as usize);
        for (seat, keys) in PIECE_KEYS.iter().enumerate().take(self.variant.players) {
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

    fn evaluate(&self, perspective: Player, strength: Strength) -> i32 {
        evaluation::evaluate(self, perspective, strength)
    }

    fn score_moves(&self, moves: &[ChineseCheckersMove], scores: &mut [i32]) {
        evaluation::score_moves(self, moves, scores);
    }

    fn expected_moves_left(&self) -> u32 {
        evaluation::expected_moves_left(self)
    }

    fn score_unit(&self) -> ScoreUnit {
        evaluation::UNIT
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
        if self.variant.players == 2 {
            // The winner's number, or 0 for a tie at the cap.
            return outcome
                .winner()
                .map_or("0".to_string(), |winner| self.format_player(winner));
        }
        (0..self.variant.players)
            .map(|seat| format!("{}:{}", self.format_player(seat), outcome.place(seat)))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn position_string(&self) -> String {
        let cells = self.cells();
        notation::write_position(&cells, self.state.side as usize, &self.finish_order())
    }

    fn set_position_string(&mut self, text: &str) -> Result<(), GameError> {
        let parsed = notation::read_position(text, self.variant.players)?;
        let mut pieces = [0u128; MAX_PLAYERS];
        for (hole, &cell) in parsed.cells.iter().enumerate() {
            if cell > 0 {
                pieces[cell as usize - 1] |= bit(hole);
            }
        }
        let position =
            ChineseCheckers::from_parts(self.variant, pieces, parsed.side, &parsed.finish_order);
        if position.state.places[parsed.side] > 0 {
            return Err(GameError::InvalidPosition(format!(
                "player {} has finished and cannot be the side to move",
                parsed.side + 1
            )));
        }
        if position.state.finished as usize >= self.variant.players {
            return Err(GameError::InvalidPosition(
                "every player has finished".to_string(),
            ));
        }
        *self = position;
        Ok(())
    }

    fn diagram(&self) -> String {
        notation::diagram(self)
    }

    fn start_position(&self) -> ChineseCheckers {
        ChineseCheckers::new(
            self.variant.players,
            self.variant.jumps,
            self.variant.max_moves,
        )
        .expect("a variant that exists has a start position")
    }
}

impl ChineseCheckers {
    /// The board as cells in hole order: 0 empty, `n` a piece of player number `n`.
    pub fn cells(&self) -> [u8; HOLES] {
        let mut cells = [0; HOLES];
        for seat in 0..self.variant.players {
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
