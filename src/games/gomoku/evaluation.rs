//! Gomoku evaluation: the greedy player's window count at strength 1, a pattern evaluation from
//! the threat data above it.
//!
//! **Strength 1** is the classic greedy player's knowledge: every five-point window free of one
//! colour is worth something to the other, by how many stones it holds. It is built so that a
//! one-ply search picks exactly the greedy player's move: the value of a position for the side
//! that just moved is `Σ attack(k)` over its windows with `k` stones and no opponent stone minus
//! `Σ defence(k)` over the opponent's, where `attack(k)` sums [`GREEDY_ATTACK`] below `k`; so a
//! move raises it by the greedy score of its point (see [`greedy_score`]).
//!
//! **Strength 2 and up** is a linear evaluation of the threat tables: for each colour, how many
//! (empty point, direction) pairs make each pattern, and how many points make an open four, a
//! four-three or a double three, with one weight per feature and side (to move or not). The
//! weights come from `data/gomoku-weights.txt` (freestyle's from
//! `data/gomoku-weights-freestyle.txt`), the output of `scripts/train/tune-gomoku-eval.sh`
//! (hand-set values moved towards a fit to self-play results, each step accepted by an SPRT in
//! self-play). On top of the weights, the threats that decide the game within three plies score
//! near a win: the side to move can make five, or an open four while the opponent has no four;
//! the opponent has two fives to block.

use super::lines::{geometry, window_masks};
use super::patterns::{Pattern, PATTERN_COUNT};
use super::threats::Kind;
use super::{Gomoku, GomokuMove, Rule};
use crate::base::score::MAX_EVALUATION;
use crate::game::{GameError, Player, Strength};
use crate::games::{LoadedWeights, WeightsChoice};
use std::sync::{Arc, OnceLock};

/// Evaluations stay within this bound, strictly inside `±MAX_EVALUATION`.
const BOUND: i32 = MAX_EVALUATION - 1;
/// The side to move makes five next move.
const FIVE_NEXT: i32 = 9000;
/// The side to move makes an open four and the opponent has no four: five in three plies.
const OPEN_FOUR_NEXT: i32 = 8500;
/// The side to move cannot stop all of the opponent's fives.
const FIVES_AGAINST: i32 = -9000;
/// Ordinary pattern values stay within this bound, below the threat values.
const PATTERN_BOUND: i32 = 8000;

/// The greedy player's value of a window through a point holding 0..=4 of its own stones...
pub const GREEDY_ATTACK: [i32; 5] = [1, 8, 60, 500, 100_000];
/// ...and holding 0..=4 of the opponent's stones.
pub const GREEDY_DEFENCE: [i32; 5] = [0, 6, 45, 400, 50_000];

/// The greedy player's score of the empty `point` for `colour`: over the windows through it,
/// [`GREEDY_ATTACK`] by own stones for those free of opponent stones plus [`GREEDY_DEFENCE`] by
/// opponent stones for those free of own stones.
pub fn greedy_score(game: &Gomoku, point: usize, colour: Player) -> i32 {
    potential(game, point, colour, &GREEDY_ATTACK)
        + potential(game, point, colour ^ 1, &GREEDY_DEFENCE)
}

/// The sum over the free five-point windows through the empty `point` of `weights[own stones]`,
/// for `colour`.
fn potential(game: &Gomoku, point: usize, colour: Player, weights: &[i32; 5]) -> i32 {
    let geometry = geometry(game.size);
    let mut total = 0;
    for placement in geometry.placements[point] {
        let line = placement.line as usize;
        let offset = placement.offset;
        let length = u32::from(geometry.lengths[line]);
        // Nine points centred on `point`; the edge blocks like an opponent stone.
        let own = ((u64::from(game.lines[colour][line]) << 4) >> offset) & 0x1FF;
        let blocked =
            (((u64::from(game.lines[colour ^ 1][line]) << 4) | 0xF | (!0u64 << (length + 4)))
                >> offset)
                & 0x1FF;
        for start in 0..5 {
            let window = 0x1F << start;
            if blocked & window == 0 {
                total += weights[(own & window).count_ones() as usize];
            }
        }
    }
    total
}

/// The greedy value for the side that just moved (see the module documentation).
fn greedy_value(game: &Gomoku) -> i32 {
    let mover = game.side ^ 1;
    let geometry = geometry(game.size);
    let mut windows = [[0i32; 5]; 2];
    for line in 0..geometry.line_count {
        let length = u32::from(geometry.lengths[line]);
        for (colour, counts) in windows.iter_mut().enumerate() {
            let masks = window_masks(
                game.lines[colour][line],
                game.lines[colour ^ 1][line],
                length,
            );
            for (stones, mask) in masks.iter().enumerate().take(4) {
                counts[stones + 1] += mask.count_ones() as i32;
            }
        }
    }
    let mut value = 0;
    let mut attack = 0;
    for stones in 1..5 {
        attack += GREEDY_ATTACK[stones - 1];
        value += attack * windows[mover][stones];
        value -= GREEDY_DEFENCE[stones] * windows[mover ^ 1][stones];
    }
    value
}

/// The evaluation weights: per pattern and kind, for the side to move and for the opponent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// By pattern code, for the side to move's (empty point, direction) pairs.
    pub own: [i32; PATTERN_COUNT],
    /// By pattern code, for the opponent's.
    pub other: [i32; PATTERN_COUNT],
    /// By [`KIND_FEATURES`], the side to move's points of that kind.
    pub own_kinds: [i32; KIND_FEATURES.len()],
    /// The opponent's points of each kind.
    pub other_kinds: [i32; KIND_FEATURES.len()],
}

/// The point kinds the evaluation counts.
pub const KIND_FEATURES: [Kind; 3] = [Kind::OpenFour, Kind::FourThree, Kind::DoubleThree];

impl Weights {
    /// The number of features (and weights).
    pub const COUNT: usize = 2 * PATTERN_COUNT + 2 * KIND_FEATURES.len();

    /// The feature names, in the order of [`Weights::to_vector`].
    pub fn names() -> Vec<String> {
        let mut names = Vec::new();
        for side in ["own", "other"] {
            for pattern in Pattern::ALL {
                names.push(format!("{side}.{}", pattern.name()));
            }
        }
        for side in ["own", "other"] {
            for kind in KIND_FEATURES {
                names.push(format!("{side}.{}", kind_name(kind)));
            }
        }
        names
    }

    /// The weights as one vector, in [`Weights::names`] order.
    pub fn to_vector(&self) -> Vec<i32> {
        let mut vector = Vec::with_capacity(Self::COUNT);
        vector.extend_from_slice(&self.own);
        vector.extend_from_slice(&self.other);
        vector.extend_from_slice(&self.own_kinds);
        vector.extend_from_slice(&self.other_kinds);
        vector
    }

    /// Weights from a vector in [`Weights::names`] order.
    ///
    /// # Panics
    /// When the vector does not have [`Weights::COUNT`] entries.
    pub fn from_vector(vector: &[i32]) -> Weights {
        assert_eq!(vector.len(), Self::COUNT);
        let kinds = KIND_FEATURES.len();
        let mut weights = Weights {
            own: [0; PATTERN_COUNT],
            other: [0; PATTERN_COUNT],
            own_kinds: [0; KIND_FEATURES.len()],
            other_kinds: [0; KIND_FEATURES.len()],
        };
        weights.own.copy_from_slice(&vector[..PATTERN_COUNT]);
        weights
            .other
            .copy_from_slice(&vector[PATTERN_COUNT..2 * PATTERN_COUNT]);
        weights
            .own_kinds
            .copy_from_slice(&vector[2 * PATTERN_COUNT..2 * PATTERN_COUNT + kinds]);
        weights
            .other_kinds
            .copy_from_slice(&vector[2 * PATTERN_COUNT + kinds..]);
        weights
    }

    /// Reads a weight file: one `name value` pair a line, `#` comments; a missing name weighs 0.
    ///
    /// # Errors
    /// A line that is not a known name and an integer.
    pub fn parse(text: &str) -> Result<Weights, String> {
        let names = Self::names();
        let mut vector = vec![0; Self::COUNT];
        for (number, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let mut words = line.split_whitespace();
            let (Some(name), Some(value), None) = (words.next(), words.next(), words.next()) else {
                return Err(format!("line {}: expected 'name value'", number + 1));
            };
            let index = names
                .iter()
                .position(|known| known == name)
                .ok_or_else(|| format!("line {}: unknown weight '{name}'", number + 1))?;
            vector[index] = value
                .parse()
                .map_err(|_| format!("line {}: '{value}' is not an integer", number + 1))?;
        }
        Ok(Self::from_vector(&vector))
    }

    /// The weight file form that [`Weights::parse`] reads.
    pub fn write(&self) -> String {
        Self::names()
            .iter()
            .zip(self.to_vector())
            .map(|(name, value)| format!("{name} {value}\n"))
            .collect()
    }
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::OpenFour => "open-four-points",
        Kind::FourThree => "four-three-points",
        Kind::DoubleThree => "double-three-points",
        _ => "other-points",
    }
}

/// Weights as a position holds them: shared, with the file they came from.
pub type SharedWeights = Arc<LoadedWeights<Weights>>;

impl Weights {
    /// These weights as a position holds them, from no file (a tool's own weights).
    pub fn shared(self) -> SharedWeights {
        Arc::new(LoadedWeights {
            file: None,
            values: self,
        })
    }
}

/// The built-in weights of `rule`, made once per process: freestyle's from
/// `data/gomoku-weights-freestyle.txt`, renju's and standard's from `data/gomoku-weights.txt`.
/// The two differ by the one-weight changes that self-play SPRTs accepted in freestyle and not in
/// renju (`FREESTYLE_CHANGES` in `scripts/train/tune-gomoku-eval.sh`).
pub fn weights(rule: Rule) -> SharedWeights {
    static FREESTYLE: OnceLock<SharedWeights> = OnceLock::new();
    static OTHERS: OnceLock<SharedWeights> = OnceLock::new();
    let (cell, text) = match rule {
        Rule::Freestyle => (
            &FREESTYLE,
            include_str!("../../../data/gomoku-weights-freestyle.txt"),
        ),
        Rule::Standard | Rule::Renju => (&OTHERS, include_str!("../../../data/gomoku-weights.txt")),
    };
    cell.get_or_init(|| {
        Weights::parse(text)
            .expect("the built-in Gomoku weights are valid")
            .shared()
    })
    .clone()
}

/// The weights the `weights` option names under `rule`: `default` (built in for the rule) or a
/// file of `name value` lines ([`Weights::parse`]).
///
/// # Errors
/// [`GameError::InvalidOption`] naming the file and what is wrong with it.
pub fn load(choice: &WeightsChoice, rule: Rule) -> Result<SharedWeights, GameError> {
    crate::games::load_weights(
        "gomoku",
        choice,
        || weights(rule),
        |bytes| {
            let text = std::str::from_utf8(bytes).map_err(|_| "it is not text".to_string())?;
            Weights::parse(text)
        },
    )
}

/// The features of a position for the side to move, in [`Weights::names`] order, signed as the
/// evaluation uses them (the opponent's counts negative), so that [`pattern_value`] is their
/// dot product with the weights before its clamp.
pub fn features(game: &Gomoku) -> Vec<i32> {
    let side = game.side;
    let threats = &game.threats;
    let mut features = Vec::with_capacity(Weights::COUNT);
    for (colour, sign) in [(side, 1), (side ^ 1, -1)] {
        for pattern in Pattern::ALL {
            features.push(if matches!(pattern, Pattern::None | Pattern::Five) {
                0
            } else {
                sign * threats.count(colour, pattern)
            });
        }
    }
    for (colour, sign) in [(side, 1), (side ^ 1, -1)] {
        for kind in KIND_FEATURES {
            features.push(sign * threats.size(colour, kind));
        }
    }
    features
}

/// The value of the threats that decide the game within three plies, for the side to move, if
/// any.
fn decisive_threats(game: &Gomoku) -> Option<i32> {
    let side = game.side;
    let threats = &game.threats;
    if threats.size(side, Kind::Five) > 0 {
        return Some(FIVE_NEXT);
    }
    let fives = threats.size(side ^ 1, Kind::Five);
    if fives >= 2 {
        return Some(FIVES_AGAINST);
    }
    if fives == 1 {
        let block = threats.points(side ^ 1, Kind::Five).first();
        return block
            .filter(|&block| !game.allowed_for(side, block))
            .map(|_| FIVES_AGAINST);
    }
    let open_four =
        threats.size(side, Kind::OpenFour) > 0 && !game.open_four_points(side).is_empty();
    open_four.then_some(OPEN_FOUR_NEXT)
}

/// The pattern value for the side to move with `weights`.
pub fn pattern_value(game: &Gomoku, weights: &Weights) -> i32 {
    let side = game.side;
    let threats = &game.threats;
    let mut value = 0;
    for pattern in Pattern::ALL {
        if matches!(pattern, Pattern::None | Pattern::Five) {
            continue;
        }
        value += weights.own[pattern as usize] * threats.count(side, pattern);
        value -= weights.other[pattern as usize] * threats.count(side ^ 1, pattern);
    }
    for (index, kind) in KIND_FEATURES.into_iter().enumerate() {
        value += weights.own_kinds[index] * threats.size(side, kind);
        value -= weights.other_kinds[index] * threats.size(side ^ 1, kind);
    }
    value.clamp(-PATTERN_BOUND, PATTERN_BOUND)
}

/// The static value for the side to move, within `±(MAX_EVALUATION - 1)`.
pub fn evaluate(game: &Gomoku, strength: Strength) -> i32 {
    let side = game.side;
    if let Some(winner) = game.winner {
        return if winner == side { BOUND } else { -BOUND };
    }
    if strength.0 <= 1 {
        return (-greedy_value(game)).clamp(-BOUND, BOUND);
    }
    if let Some(value) = decisive_threats(game) {
        return value;
    }
    pattern_value(game, &game.weights.values)
}

/// The greedy player's choice among `moves`: the first with the highest [`greedy_score`].
pub fn greedy_choice(game: &Gomoku, moves: &[GomokuMove]) -> Option<GomokuMove> {
    let mut best: Option<(i32, GomokuMove)> = None;
    for &mv in moves {
        let score = greedy_score(game, mv.point(), game.side);
        if best.is_none_or(|(top, _)| score > top) {
            best = Some((score, mv));
        }
    }
    best.map(|(_, mv)| mv)
}
