//! Reversi/Othello: the 8x8 bitboard fast path ([`Reversi`]) and other even sizes ([`general::GeneralReversi`]).
//!
//! Notation: squares `a1`..`h8`, column letters from the left and row 1 at the top; `pass` is an
//! explicit move. Black moves first from d5/e4 black, d4/e5 white. The score of a finished game is
//! the disc difference with the empty squares given to the winner (the World Othello Federation rule).

pub mod bitboard;
pub mod endgame;
pub mod evaluation;
pub mod general;
pub mod ggf;
mod local_table;
pub mod notation;
pub mod obf;
pub mod patterns;
pub mod probcut;
pub mod probcut_fit;
mod probcut_table;

use crate::base::cpu::{self, InstructionSet};
use crate::game::{
    GameError, MoveCode, Outcome, Player, ProbCut, Rules, ScoreUnit, SearchHooks, Solution,
    SolveRequest, Strength,
};
use bitboard::{bit, Kernels};

/// A Reversi move on boards up to 16x16: a square index `row * size + column`, or the pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ReversiMove(pub u16);

impl ReversiMove {
    /// The explicit pass.
    pub const PASS: ReversiMove = ReversiMove(u16::MAX);

    /// Whether this is the pass.
    pub fn is_pass(self) -> bool {
        self == Self::PASS
    }

    /// The square index, for a move that is not a pass.
    pub fn square(self) -> usize {
        self.0 as usize
    }
}

impl MoveCode for ReversiMove {
    fn code(self) -> u16 {
        self.0
    }
}

/// 8x8 Reversi on bitboards, kept relative to the side to move.
#[derive(Clone, Debug)]
pub struct Reversi {
    /// Discs of the side to move.
    pub player: u64,
    /// Discs of the other side.
    pub opponent: u64,
    /// The side to move: 0 black, 1 white.
    pub side: Player,
    /// The pattern weights of full strength, shared with the positions made from this one.
    patterns: evaluation::Patterns,
}

/// Two positions are equal when their discs and side to move are, and they evaluate with the
/// same weights (the same shared handle).
impl PartialEq for Reversi {
    fn eq(&self, other: &Reversi) -> bool {
        self.board() == other.board() && std::sync::Arc::ptr_eq(&self.patterns, &other.patterns)
    }
}

impl Eq for Reversi {}

/// What [`Reversi`]'s moves change: the discs and the side to move, without the weights, which
/// stay. Restoring it undoes a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ReversiUndo {
    player: u64,
    opponent: u64,
    side: Player,
}

/// Zobrist keys folded by byte: `BYTE_KEYS[colour][byte index][byte value]` is the exclusive-or of
/// the square keys of the set bits, so a whole board hashes in 16 look-ups.
static BYTE_KEYS: [[[u64; 256]; 8]; 2] = build_byte_keys();
const SIDE_KEY: u64 = crate::base::zobrist::key(crate::base::zobrist::family::REVERSI, 1000);

const fn build_byte_keys() -> [[[u64; 256]; 8]; 2] {
    let mut table = [[[0u64; 256]; 8]; 2];
    let mut colour = 0;
    while colour < 2 {
        let mut byte = 0;
        while byte < 8 {
            let mut value = 0;
            while value < 256 {
                let mut key = 0u64;
                let mut bit_index = 0;
                while bit_index < 8 {
                    if value & (1 << bit_index) != 0 {
                        let square = byte * 8 + bit_index;
                        key ^= crate::base::zobrist::key(
                            crate::base::zobrist::family::REVERSI,
                            (colour * 64 + square) as u64,
                        );
                    }
                    bit_index += 1;
                }
                table[colour][byte][value] = key;
                value += 1;
            }
            byte += 1;
        }
        colour += 1;
    }
    table
}

fn hash_discs(discs: u64, colour: usize) -> u64 {
    let keys = &BYTE_KEYS[colour];
    discs
        .to_le_bytes()
        .iter()
        .enumerate()
        .fold(0, |hash, (index, &byte)| hash ^ keys[index][byte as usize])
}

impl Reversi {
    /// The standard start position: d5/e4 black, d4/e5 white, black to move.
    pub fn new() -> Reversi {
        Reversi {
            player: bit(28) | bit(35),
            opponent: bit(27) | bit(36),
            side: 0,
            patterns: evaluation::default_patterns(),
        }
    }

    /// The position with `player` to move against `opponent`, `side` being the colour to move.
    pub fn from_bitboards(player: u64, opponent: u64, side: Player) -> Reversi {
        Reversi {
            player,
            opponent,
            side,
            ..Reversi::new()
        }
    }

    /// The pattern weights this position evaluates with at full strength.
    pub fn patterns(&self) -> &evaluation::Patterns {
        &self.patterns
    }

    /// Evaluates with `patterns` from now on (this position and those made from it).
    pub fn set_patterns(&mut self, patterns: evaluation::Patterns) {
        self.patterns = patterns;
    }

    /// The discs and side to move, as a move's undo record keeps them.
    fn board(&self) -> ReversiUndo {
        ReversiUndo {
            player: self.player,
            opponent: self.opponent,
            side: self.side,
        }
    }

    /// Black and white discs.
    pub fn discs(&self) -> (u64, u64) {
        if self.side == 0 {
            (self.player, self.opponent)
        } else {
            (self.opponent, self.player)
        }
    }

    /// The position with the given discs and side to move.
    pub fn from_discs(black: u64, white: u64, side: Player) -> Reversi {
        if side == 0 {
            Reversi::from_bitboards(black, white, side)
        } else {
            Reversi::from_bitboards(white, black, side)
        }
    }

    /// Number of empty squares.
    pub fn empties(&self) -> u32 {
        64 - (self.player | self.opponent).count_ones()
    }

    /// The legal-move mask of the side to move.
    pub fn move_mask(&self) -> u64 {
        bitboard::moves(self.player, self.opponent)
    }

    /// The final disc difference for the side to move, empties to the winner.
    pub fn final_score(&self) -> i32 {
        final_score(self.player, self.opponent)
    }
}

/// The disc difference of a finished game for `player`, with the empty squares to the winner.
pub fn final_score(player: u64, opponent: u64) -> i32 {
    let mine = player.count_ones() as i32;
    let theirs = opponent.count_ones() as i32;
    let empties = 64 - mine - theirs;
    match mine.cmp(&theirs) {
        std::cmp::Ordering::Greater => mine - theirs + empties,
        std::cmp::Ordering::Less => mine - theirs - empties,
        std::cmp::Ordering::Equal => 0,
    }
}

/// Reversi openings for `tabula bench`: plies of a fixed pseudo-random playout from the start,
/// with its seed.
const BENCH_OPENINGS: &[(usize, u64)] = &[(0, 0), (2, 1), (8, 2), (12, 3), (16, 4), (24, 5)];

/// Reversi middle games for `tabula bench`: the FFO #40-#44 boards, 20-23 empties.
const BENCH_MIDDLE_GAMES: &[&str] = &[
    "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X",
    "-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O- X",
    "--OOO-------XX-OOOOOOXOO-OOOOXOOX-OOOXXO---OOXOO---OOOXO--OOOO-- X",
    "--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX- O",
    "--O-X-O---O-XO-O-OOXXXOOOOOOXXXOOOOOXX--XXOOXO----XXXX-----XXX-- O",
];

/// The positions `tabula bench` searches in Reversi.
pub fn bench_positions() -> Vec<Reversi> {
    let mut positions: Vec<Reversi> = BENCH_OPENINGS
        .iter()
        .map(|&(plies, seed)| super::playout(&Reversi::new(), plies, seed))
        .collect();
    positions.extend(BENCH_MIDDLE_GAMES.iter().map(|text| {
        let mut position = Reversi::new();
        position
            .set_position_string(text)
            .expect("bench positions are valid");
        position
    }));
    positions
}

impl Default for Reversi {
    fn default() -> Self {
        Reversi::new()
    }
}

/// Perft with bulk counting at the last ply; a pass uses a ply and a finished game is one leaf.
pub fn perft(player: u64, opponent: u64, depth: usize) -> u64 {
    cpu::dispatch!(cpu => perft_with(cpu, player, opponent, depth))
}

/// [`perft`] with the kernels of `cpu`.
pub fn perft_with<K: Kernels>(cpu: K, player: u64, opponent: u64, depth: usize) -> u64 {
    match depth {
        0 => 1,
        1 => {
            let moves = cpu.moves(player, opponent);
            moves.count_ones() as u64 + (moves == 0) as u64
        }
        _ => perft_from_two(cpu, player, opponent, depth),
    }
}

/// [`perft`] for `depth >= 2`: the last two plies are counted by [`Kernels::count_replies`].
fn perft_from_two<K: Kernels>(cpu: K, player: u64, opponent: u64, depth: usize) -> u64 {
    // Each call runs its body in `cpu.run`: a recursive call is not inlined into its caller.
    cpu.run(move || {
        let moves = cpu.moves(player, opponent);
        if moves == 0 {
            let replies = cpu.moves(opponent, player);
            if replies == 0 {
                return 1;
            }
            if depth == 2 {
                return replies.count_ones() as u64;
            }
            return perft_from_two(cpu, opponent, player, depth - 1);
        }
        if depth == 2 {
            return cpu.count_replies(player, opponent, moves);
        }
        let mut total = 0;
        for square in bitboard::squares(moves) {
            let flipped = cpu.flips(square, player, opponent);
            total += perft_from_two(
                cpu,
                opponent ^ flipped,
                player ^ flipped ^ bit(square),
                depth - 1,
            );
        }
        total
    })
}

impl Rules for Reversi {
    type Move = ReversiMove;

    type Undo = ReversiUndo;

    fn name(&self) -> &'static str {
        "reversi"
    }

    fn options(&self) -> Vec<(String, String)> {
        let mut options = vec![("size".to_string(), "8".to_string())];
        options.extend(self.patterns.option());
        options
    }

    fn set_option(&mut self, key: &str, value: &str) -> Result<(), GameError> {
        if key != crate::games::WEIGHTS {
            return Err(crate::game::rules::fixed_option(self.name(), key));
        }
        self.patterns = evaluation::load(&crate::games::WeightsChoice::parse(value))?;
        Ok(())
    }

    fn player_count(&self) -> usize {
        2
    }

    fn side_to_move(&self) -> Player {
        self.side
    }

    // Inlined into the search, so that only the chosen kernel is a call.
    #[inline]
    fn generate_moves(&self, moves: &mut Vec<ReversiMove>) {
        moves.clear();
        let mask = self.move_mask();
        if mask != 0 {
            moves.extend(bitboard::squares(mask).map(|square| ReversiMove(square as u16)));
        } else if bitboard::can_move(self.opponent, self.player) {
            moves.push(ReversiMove::PASS);
        }
    }

    fn is_legal(&self, mv: ReversiMove) -> bool {
        let mask = self.move_mask();
        if mv.is_pass() {
            mask == 0 && bitboard::can_move(self.opponent, self.player)
        } else {
            mv.square() < 64 && mask & bit(mv.square()) != 0
        }
    }

    // Inlined into the search, so that only the chosen kernel is a call.
    #[inline]
    fn play_unchecked(&mut self, mv: ReversiMove) -> ReversiUndo {
        let before = self.board();
        if mv.is_pass() {
            std::mem::swap(&mut self.player, &mut self.opponent);
        } else {
            let square = mv.square();
            let flipped = bitboard::flips(square, self.player, self.opponent);
            let player = self.player ^ flipped ^ bit(square);
            self.player = self.opponent ^ flipped;
            self.opponent = player;
        }
        self.side ^= 1;
        before
    }

    fn undo(&mut self, _mv: ReversiMove, undo: ReversiUndo) {
        self.player = undo.player;
        self.opponent = undo.opponent;
        self.side = undo.side;
    }

    fn illegal_reason(&self, mv: ReversiMove) -> String {
        notation::illegal_reason(mv, self.move_mask() != 0, || {
            (self.player | self.opponent) & bit(mv.square()) != 0
        })
    }

    fn forced_pass(&self) -> Option<ReversiMove> {
        (self.move_mask() == 0 && bitboard::can_move(self.opponent, self.player))
            .then_some(ReversiMove::PASS)
    }

    fn move_from_code(&self, code: u16) -> Option<ReversiMove> {
        (code < 64 || code == ReversiMove::PASS.0).then_some(ReversiMove(code))
    }

    // Inlined into the search, so that only the chosen kernel is a call.
    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        let (player, opponent) = (self.player, self.opponent);
        let open = cpu::dispatch!(cpu => cpu.run(move || {
            cpu.can_move(player, opponent) || cpu.can_move(opponent, player)
        }));
        if open {
            return None;
        }
        Some(notation::outcome_from_score(self.side, self.final_score()))
    }

    fn hash(&self) -> u64 {
        let (black, white) = self.discs();
        let side = if self.side == 1 { SIDE_KEY } else { 0 };
        hash_discs(black, 0) ^ hash_discs(white, 1) ^ side
    }

    fn parse_move(&self, text: &str) -> Result<ReversiMove, GameError> {
        notation::parse_move(text, 8)
    }

    fn format_move(&self, mv: ReversiMove) -> String {
        notation::format_move(mv, 8)
    }

    fn position_string(&self) -> String {
        let (black, white) = self.discs();
        let cells: Vec<u8> = (0..64)
            .map(|square| {
                if black & bit(square) != 0 {
                    1
                } else if white & bit(square) != 0 {
                    2
                } else {
                    0
                }
            })
            .collect();
        notation::write_position(&cells, self.side)
    }

    fn set_position_string(&mut self, text: &str) -> Result<(), GameError> {
        let (cells, side) = notation::read_position(text, 8)?;
        let mut black = 0;
        let mut white = 0;
        for (square, &cell) in cells.iter().enumerate() {
            match cell {
                1 => black |= bit(square),
                2 => white |= bit(square),
                _ => {}
            }
        }
        let patterns = self.patterns.clone();
        *self = Reversi::from_discs(black, white, side);
        self.patterns = patterns;
        Ok(())
    }

    fn diagram(&self) -> String {
        let (black, white) = self.discs();
        let moves = self.move_mask();
        let cells: Vec<u8> = (0..64)
            .map(|square| {
                if black & bit(square) != 0 {
                    1
                } else if white & bit(square) != 0 {
                    2
                } else if moves & bit(square) != 0 {
                    3
                } else {
                    0
                }
            })
            .collect();
        notation::diagram(&cells, 8, self.side, self.outcome())
    }

    fn start_position(&self) -> Reversi {
        Reversi {
            patterns: self.patterns.clone(),
            ..Reversi::new()
        }
    }

    fn perft(&self, depth: usize) -> u64 {
        perft(self.player, self.opponent, depth)
    }
}

impl SearchHooks for Reversi {
    // Inlined into the search, so that only the chosen kernel is a call.
    #[inline]
    fn evaluate(&self, perspective: Player, strength: Strength) -> i32 {
        let value = evaluation::evaluate(
            self.player,
            self.opponent,
            strength,
            self.patterns.values.as_ref(),
        );
        if perspective == self.side {
            value
        } else {
            -value
        }
    }

    // Inlined into the search, so that only the chosen kernel is a call.
    #[inline]
    fn score_moves(&self, moves: &[ReversiMove], scores: &mut [i32]) {
        evaluation::score_moves(self.player, self.opponent, moves, scores);
    }

    fn expected_moves_left(&self) -> u32 {
        self.empties().div_ceil(2).max(1)
    }

    fn score_unit(&self) -> ScoreUnit {
        evaluation::UNIT
    }

    fn probcut(&self, depth: u32) -> Option<ProbCut> {
        probcut::model(self.empties(), depth)
    }

    fn solver_distance(&self) -> Option<u32> {
        Some(self.empties())
    }

    /// About 14 empties in 5 ms, and each further empty costs a factor of about 2.6 (measured on
    /// the FForum and FFO sets, one thread; a second thread is worth about one empty).
    fn solver_reach(&self, time: Option<std::time::Duration>, threads: usize) -> u32 {
        let Some(time) = time else {
            return u32::MAX;
        };
        let ratio = time.as_secs_f64() / 0.005;
        if ratio <= 1.0 {
            return 14;
        }
        let extra = if threads > 1 { 1 } else { 0 };
        14 + (ratio.ln() / 2.6f64.ln()) as u32 + extra
    }

    fn solve(&self, request: &SolveRequest) -> Option<Solution<ReversiMove>> {
        endgame::solve(self, request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_perft_counts_to_depth_eight() {
        let expected = [1, 4, 12, 56, 244, 1396, 8200, 55092, 390216];
        let start = Reversi::new();
        for (depth, &count) in expected.iter().enumerate() {
            assert_eq!(
                perft(start.player, start.opponent, depth),
                count,
                "depth {depth}"
            );
            assert_eq!(crate::game::perft::perft(&mut start.clone(), depth), count);
        }
    }

    /// Both instruction sets count the published perft to depth 10, passes and all.
    #[test]
    fn both_instruction_sets_count_perft_ten() {
        let start = Reversi::new();
        cpu::for_each_set!(cpu => assert_eq!(
            perft_with(cpu, start.player, start.opponent, 10),
            24_571_284,
            "{}",
            cpu_name(cpu)
        ));
    }

    fn cpu_name<I: InstructionSet>(_cpu: I) -> &'static str {
        I::NAME
    }

    #[test]
    fn consistency() {
        crate::game::consistency::check_random_games(&Reversi::new(), 60, 80, 7);
    }
}
