//! Static evaluation of 8x8 Reversi positions, in hundredths of a disc for the side to move.
//!
//! Strength selects how much the evaluation knows, in the spirit of the eight levels of the
//! reference designs: 1 counts discs; 2 weights corners and edges; 3 adds mobility; 4 adds stable
//! discs; 5 to 7 add potential mobility, X- and C-square danger and parity. Levels 1 to 7 are
//! these hand-made features; 8 ([`Strength::FULL`]) is the trained pattern evaluation
//! ([`super::patterns`]), or the level-7 features when the patterns were turned off.
//!
//! Each position carries its pattern weights ([`Patterns`], chosen by the game's `weights`
//! option), so that sessions in one process may differ; [`super::patterns`] only holds weights and
//! computes with them.

use super::bitboard::{bit, Kernels};
use super::patterns::Weights;
use super::ReversiMove;
use crate::base::cpu;
use crate::game::{GameError, ScoreUnit, Strength};
use crate::games::{LoadedWeights, WeightsChoice};
use std::sync::{Arc, OnceLock};

/// One disc in evaluation units.
pub const DISC: i32 = 100;

const CORNERS: u64 = 0x8100_0000_0000_0081;
const EDGES: u64 = 0xFF81_8181_8181_81FF;
/// X-squares (diagonally next to a corner), with the corner each one belongs to.
const X_SQUARES: [(usize, usize); 4] = [(9, 0), (14, 7), (49, 56), (54, 63)];
/// C-squares (next to a corner along an edge), with their corner.
const C_SQUARES: [(usize, usize); 8] = [
    (1, 0),
    (8, 0),
    (6, 7),
    (15, 7),
    (48, 56),
    (57, 56),
    (55, 63),
    (62, 63),
];

/// Weights of the hand-made evaluation, each for the opening (index 0) and the late middle game
/// (index 1); the game phase interpolates between them.
struct HandWeights {
    mobility: [i32; 2],
    potential_mobility: [i32; 2],
    corner: [i32; 2],
    x_square: [i32; 2],
    c_square: [i32; 2],
    stable: [i32; 2],
    edge: [i32; 2],
    disc: [i32; 2],
    parity: [i32; 2],
}

const WEIGHTS: HandWeights = HandWeights {
    mobility: [85, 60],
    potential_mobility: [30, 15],
    corner: [800, 600],
    x_square: [-450, -250],
    c_square: [-120, -60],
    stable: [120, 100],
    edge: [20, 10],
    disc: [-8, 25],
    parity: [0, 120],
};

fn blend(weights: [i32; 2], phase: i32) -> i32 {
    // phase runs from 0 (start) to 60 (full board)
    (weights[0] * (60 - phase) + weights[1] * phase) / 60
}

/// The pattern weights a position evaluates with at full strength, shared by the positions of a
/// session; `values` is `None` when the `weights` option turned the patterns off (`none`), and
/// full strength uses the level-7 features then.
pub type Patterns = Arc<LoadedWeights<Option<Weights>>>;

/// The weights compiled into the binary, decoded once per process.
pub fn embedded() -> Patterns {
    static EMBEDDED: OnceLock<Patterns> = OnceLock::new();
    EMBEDDED
        .get_or_init(|| {
            Arc::new(LoadedWeights {
                file: None,
                values: Some(Weights::embedded()),
            })
        })
        .clone()
}

/// The weights new positions start with: the embedded ones unless [`set_default`] chose others.
static DEFAULT: OnceLock<Patterns> = OnceLock::new();

/// [`set_default`] came after the default was chosen or first used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the default pattern weights were already chosen")]
pub struct AlreadyChosen;

/// Chooses the weights that new positions start with (`tabula --weights FILE`, a shorthand for
/// the `weights` option of every session), before the first position is made. A session's own
/// `weights` option still wins.
///
/// # Errors
/// [`AlreadyChosen`] once the default is in use or already chosen.
pub fn set_default(patterns: Patterns) -> Result<(), AlreadyChosen> {
    // The default reads `default` in a game's options, whatever file it came from.
    let values = Arc::try_unwrap(patterns)
        .map_or_else(|shared| shared.values.clone(), |loaded| loaded.values);
    DEFAULT
        .set(Arc::new(LoadedWeights { file: None, values }))
        .map_err(|_| AlreadyChosen)
}

/// The weights new positions start with; see [`set_default`].
pub fn default_patterns() -> Patterns {
    DEFAULT.get_or_init(embedded).clone()
}

/// The weights the `weights` option names: `default` (those of [`default_patterns`]), `embedded`
/// (compiled in), `none` (the hand-made features) or a file written by `tabula train reversi`.
///
/// # Errors
/// [`GameError::InvalidOption`] naming the file and what is wrong with it.
pub fn load(choice: &WeightsChoice) -> Result<Patterns, GameError> {
    match choice {
        WeightsChoice::File(word) if word == "embedded" => Ok(Arc::new(LoadedWeights {
            file: Some(word.clone()),
            values: Some(Weights::embedded()),
        })),
        WeightsChoice::File(word) if word == "none" => Ok(Arc::new(LoadedWeights {
            file: Some(word.clone()),
            values: None,
        })),
        _ => crate::games::load_weights("reversi", choice, default_patterns, |bytes| {
            Weights::decode(bytes)
                .map(Some)
                .map_err(|error| error.to_string())
        }),
    }
}

/// The value of the position for `player` to move against `opponent`, with the pattern weights
/// `patterns` at full strength (the hand-made features when `None`).
#[inline]
pub fn evaluate(player: u64, opponent: u64, strength: Strength, patterns: Option<&Weights>) -> i32 {
    cpu::dispatch!(cpu => evaluate_with(cpu, player, opponent, strength, patterns))
}

/// [`evaluate`] with the kernels of `cpu`.
#[inline]
pub fn evaluate_with<K: Kernels>(
    cpu: K,
    player: u64,
    opponent: u64,
    strength: Strength,
    patterns: Option<&Weights>,
) -> i32 {
    if strength >= Strength::FULL {
        if let Some(weights) = patterns {
            return weights.evaluate_with(cpu, player, opponent);
        }
    }
    hand_made_with(cpu, player, opponent, strength.0.min(7))
}

/// The hand-made evaluation at `level` 1..=7 (higher levels count as 7).
pub fn hand_made(player: u64, opponent: u64, level: u8) -> i32 {
    cpu::dispatch!(cpu => hand_made_with(cpu, player, opponent, level))
}

/// [`hand_made`] with the kernels of `cpu`.
pub fn hand_made_with<K: Kernels>(cpu: K, player: u64, opponent: u64, level: u8) -> i32 {
    cpu.run(|| hand_made_features(cpu, player, opponent, level))
}

/// [`hand_made`], inlined into its `run`.
#[inline(always)]
fn hand_made_features<K: Kernels>(cpu: K, player: u64, opponent: u64, level: u8) -> i32 {
    let discs = player.count_ones() as i32 - opponent.count_ones() as i32;
    if level <= 1 {
        return discs * DISC;
    }
    let weighted = |mask: u64| {
        (mask & CORNERS).count_ones() as i32 * 5
            + (mask & EDGES & !CORNERS).count_ones() as i32 * 2
            + (mask & !EDGES).count_ones() as i32
    };
    if level == 2 {
        return (weighted(player) - weighted(opponent)) * DISC / 2;
    }
    let occupied = player | opponent;
    let phase = (occupied.count_ones() as i32 - 4).clamp(0, 60);
    let player_moves = cpu.moves(player, opponent);
    let opponent_moves = cpu.moves(opponent, player);
    let mobility = player_moves.count_ones() as i32 - opponent_moves.count_ones() as i32;
    let mut value = blend(WEIGHTS.mobility, phase) * mobility;
    value += blend(WEIGHTS.corner, phase)
        * ((player & CORNERS).count_ones() as i32 - (opponent & CORNERS).count_ones() as i32);
    if level == 3 {
        return value + discs * DISC / 4;
    }
    let stable = cpu.stable_discs(player, opponent).count_ones() as i32
        - cpu.stable_discs(opponent, player).count_ones() as i32;
    value += blend(WEIGHTS.stable, phase) * stable;
    if level == 4 {
        return value;
    }
    let empty = !occupied;
    let potential = frontier(opponent, empty) - frontier(player, empty);
    value += blend(WEIGHTS.potential_mobility, phase) * potential;
    value += blend(WEIGHTS.disc, phase) * discs;
    if level >= 6 {
        let mut danger = 0;
        for (square, corner) in X_SQUARES {
            if empty & bit(corner) != 0 {
                danger += ownership(player, opponent, square) * blend(WEIGHTS.x_square, phase);
            }
        }
        for (square, corner) in C_SQUARES {
            if empty & bit(corner) != 0 {
                danger += ownership(player, opponent, square) * blend(WEIGHTS.c_square, phase);
            }
        }
        value += danger;
        let edge = (player & EDGES & !CORNERS).count_ones() as i32
            - (opponent & EDGES & !CORNERS).count_ones() as i32;
        value += blend(WEIGHTS.edge, phase) * edge;
    }
    if level >= 7 {
        // With an odd number of empties the side to move expects the last move.
        let parity = if empty.count_ones() % 2 == 1 { 1 } else { -1 };
        value += blend(WEIGHTS.parity, phase) * parity * phase / 60;
    }
    value.clamp(
        -crate::base::score::MAX_EVALUATION + 1,
        crate::base::score::MAX_EVALUATION - 1,
    )
}

/// +1 if `player` holds `square`, -1 if the opponent does, 0 if it is empty.
fn ownership(player: u64, opponent: u64, square: usize) -> i32 {
    (player >> square & 1) as i32 - (opponent >> square & 1) as i32
}

/// The number of empty squares next to `discs`: the potential mobility they give the other side.
fn frontier(discs: u64, empty: u64) -> i32 {
    (neighbours(discs) & empty).count_ones() as i32
}

/// Squares next to any square of `mask`.
pub fn neighbours(mask: u64) -> u64 {
    let not_a = 0xFEFE_FEFE_FEFE_FEFEu64;
    let not_h = 0x7F7F_7F7F_7F7F_7F7Fu64;
    let horizontal = ((mask << 1) & not_a) | ((mask >> 1) & not_h);
    let line = mask | horizontal;
    horizontal | (line << 8) | (line >> 8)
}

/// A square's static worth, for move ordering.
const SQUARE_VALUES: [i32; 64] = [
    100, -20, 10, 5, 5, 10, -20, 100, //
    -20, -50, -2, -2, -2, -2, -50, -20, //
    10, -2, 1, 1, 1, 1, -2, 10, //
    5, -2, 1, 0, 0, 1, -2, 5, //
    5, -2, 1, 0, 0, 1, -2, 5, //
    10, -2, 1, 1, 1, 1, -2, 10, //
    -20, -50, -2, -2, -2, -2, -50, -20, //
    100, -20, 10, 5, 5, 10, -20, 100,
];

/// Ordering hints: fewer replies for the opponent first, then the square's worth.
#[inline]
pub fn score_moves(player: u64, opponent: u64, moves: &[ReversiMove], scores: &mut [i32]) {
    cpu::dispatch!(cpu => score_moves_with(cpu, player, opponent, moves, scores))
}

/// [`score_moves`] with the kernels of `cpu`.
pub fn score_moves_with<K: Kernels>(
    cpu: K,
    player: u64,
    opponent: u64,
    moves: &[ReversiMove],
    scores: &mut [i32],
) {
    cpu.run(|| {
        for (mv, score) in moves.iter().zip(scores.iter_mut()) {
            if mv.is_pass() {
                *score = 0;
                continue;
            }
            let square = mv.square();
            let flipped = cpu.flips(square, player, opponent);
            let next_player = opponent ^ flipped;
            let next_opponent = player ^ flipped ^ bit(square);
            let replies = cpu.moves(next_player, next_opponent).count_ones() as i32;
            *score = SQUARE_VALUES[square] * 4 - replies * 64;
        }
    })
}

/// Evaluation points count hundredths of a disc.
pub const UNIT: ScoreUnit = ScoreUnit {
    per_unit: DISC,
    decimals: 2,
    name: "discs",
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_balanced() {
        cpu::for_each_set!(cpu => start_position_is_balanced_with(cpu));
    }

    fn start_position_is_balanced_with<K: Kernels>(cpu: K) {
        let start = super::super::Reversi::new();
        for level in 1..=7 {
            assert_eq!(
                evaluate_with(cpu, start.player, start.opponent, Strength(level), None),
                0
            );
        }
        // The trained evaluation only knows the start is about even.
        let patterns = embedded();
        let full = evaluate_with(
            cpu,
            start.player,
            start.opponent,
            Strength::FULL,
            patterns.values.as_ref(),
        );
        assert!(full.abs() <= 2 * DISC, "start position {full}");
    }

    #[test]
    fn full_strength_is_the_pattern_evaluation() {
        let start = super::super::Reversi::new();
        let (player, opponent) = (start.player | bit(19) | bit(27), start.opponent & !bit(27));
        cpu::for_each_set!(cpu => assert_eq!(
            evaluate_with(cpu, player, opponent, Strength::FULL, embedded().values.as_ref()),
            Weights::embedded().evaluate(player, opponent)
        ));
    }

    /// Every level gives the same value with either instruction set.
    #[test]
    fn instruction_sets_agree() {
        let patterns = embedded();
        let patterns = patterns.values.as_ref();
        let mut state = 0xE7A1_u64;
        for _ in 0..2_000 {
            state = crate::base::zobrist::mix(state);
            let occupied = state | crate::base::zobrist::mix(state ^ 1);
            let player = occupied & crate::base::zobrist::mix(state ^ 2);
            let opponent = occupied & !player;
            for level in 1..=8 {
                let expected =
                    evaluate_with(cpu::Portable, player, opponent, Strength(level), patterns);
                cpu::for_each_set!(cpu => assert_eq!(
                    evaluate_with(cpu, player, opponent, Strength(level), patterns),
                    expected
                ));
            }
        }
    }

    #[test]
    fn values_count_hundredths_of_discs() {
        assert_eq!(UNIT.convert(325), 3.25);
        assert_eq!(UNIT.convert(-7), -0.07);
    }
}
