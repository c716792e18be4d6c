//! Static evaluation of Chinese Checkers positions, in sixteenths of a row of progress.
//!
//! A seat's cost is the way its pieces still have to go: rows toward the goal tip (strength 1 and
//! up); pieces far to the side of the axis through the goal, which must come back in, and pieces
//! resting in a side camp, which can be shut in (strength 3 and up); stragglers, each row beyond the group's front that a piece lags (strength 5 and up),
//! since a lone piece has nobody to hop over and steps one row a move; and, from strength 6, a
//! bonus for each piece with a forward hop ready (a hop ladder) and for the side to move (tempo).
//! With `finish=fill`, other players' pieces that count (or soon will) toward filling a seat's
//! goal fill it (see [`fillers`]): only the empty holes need pieces, the seat's nearest ones, and
//! its farthest pieces then cost no straggler and no spread cost and, instead of their rows, half
//! a row per row they lie outside the goal, for a filler that leaves (strength 3 and up).
//!
//! Two players: a seat's value is the opponent's cost less its own. Three or more: the search
//! scores a finished game by places (see [`crate::base::score::middle_place`]), so a position is valued
//! between the best place the seat can still reach and the next one, by its lead over the best
//! unfinished opponent: finishing always beats playing on, and every finished opponent costs a
//! place. Solitaire: minus the cost.

use super::board::{CAMP_MASKS, GOAL_DISTANCES, HOLES, HOME_DISTANCE, HOPS, OFF_BOARD, SIDEWAYS};
use super::{ChineseCheckers, ChineseCheckersMove, Finish, PIECES};
use crate::base::score::{middle_place, MAX_EVALUATION};
use crate::game::{GameError, Player, Rules, ScoreUnit, Strength};
use crate::games::{LoadedWeights, WeightsChoice};
use std::sync::Arc;

/// One row of progress toward the goal, in evaluation units.
pub const ROW: i32 = 16;
/// The cost of one doubled column beyond the band in front of the goal (ordering hints).
const SIDEWAYS_WEIGHT: i32 = 3;
/// The goal camp's holes lie 0 to this many rows from its tip.
const CAMP_DEPTH: i32 = 3;
/// Per row a piece that the fillers spare lies outside the goal camp (half a row): a filler may
/// leave before its owner's pieces count, and a spared piece must then come in.
const SPARED_WEIGHT: i32 = 8;
const LIMIT: i32 = MAX_EVALUATION - 1;

/// The evaluation's weights, in evaluation units (a row is [`ROW`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Weights {
    /// Per doubled column a piece lies beyond the band in front of the goal (strength 3+).
    pub sideways: i32,
    /// Per piece resting in a side camp, neither its home nor its goal (strength 3+): it may be
    /// shut in there when the camp is another player's goal.
    pub side_camp: i32,
    /// Per row a piece lags more than [`Weights::straggler_free`] rows behind the group's front
    /// piece (strength 5+).
    pub straggler: i32,
    /// Rows behind the front piece that cost nothing.
    pub straggler_free: i32,
    /// Per row between the front and the back piece outside the goal (strength 5+): a compact
    /// group keeps its hop ladders.
    pub spread: i32,
    /// Per piece with a forward hop ready (strength 6+).
    pub hop: i32,
    /// For the side to move (strength 6+).
    pub tempo: i32,
}

impl Weights {
    /// The weights of full strength: the output of `scripts/train/tune-chinese-checkers.sh` (two
    /// rounds of coordinate search by two-player self-play at depth 3, from the hand-set weights
    /// sideways=3, side_camp=48, straggler=3, straggler_free=6, spread=0, hop=0, tempo=0).
    pub const DEFAULT: Weights = Weights {
        sideways: 3,
        side_camp: 64,
        straggler: 7,
        straggler_free: 6,
        spread: 8,
        hop: 8,
        tempo: 0,
    };

    /// The names of the weights, as `key=value` text spells them.
    pub const KEYS: [&'static str; 7] = [
        "sideways",
        "side_camp",
        "straggler",
        "straggler_free",
        "spread",
        "hop",
        "tempo",
    ];

    /// The weight named `key` (one of [`Weights::KEYS`]).
    pub fn get(&self, key: &str) -> Option<i32> {
        let mut copy = *self;
        copy.get_mut(key).copied()
    }

    /// `key=value` pairs separated by commas (as [`Weights`]' `FromStr` reads them), each key
    /// checked against [`Weights::KEYS`] and each value a whole number, in their order.
    pub fn pairs(text: &str) -> Result<Vec<(&'static str, i32)>, String> {
        text.split(',')
            .filter(|pair| !pair.is_empty())
            .map(|pair| {
                let (key, value) = pair
                    .split_once('=')
                    .ok_or_else(|| format!("'{pair}': expected key=value"))?;
                let key = Weights::KEYS
                    .into_iter()
                    .find(|&known| known == key)
                    .ok_or_else(|| format!("unknown weight '{key}'"))?;
                let value = value
                    .parse()
                    .map_err(|_| format!("'{pair}': the value must be a whole number"))?;
                Ok((key, value))
            })
            .collect()
    }

    /// The weight named `key`, to change it (one of [`Weights::KEYS`]).
    pub fn get_mut(&mut self, key: &str) -> Option<&mut i32> {
        match key {
            "sideways" => Some(&mut self.sideways),
            "side_camp" => Some(&mut self.side_camp),
            "straggler" => Some(&mut self.straggler),
            "straggler_free" => Some(&mut self.straggler_free),
            "spread" => Some(&mut self.spread),
            "hop" => Some(&mut self.hop),
            "tempo" => Some(&mut self.tempo),
            _ => None,
        }
    }
}

/// The weights the `weights` option names, with the file for the game's options: `default` (the
/// built-in [`Weights::DEFAULT`]) or a file of `key=value` pairs, separated by commas, spaces or
/// lines, `#` starting a comment (the form `Weights`' `FromStr` reads, over several lines).
///
/// # Errors
/// [`GameError::InvalidOption`] naming the file and what is wrong with it.
pub fn load(choice: &WeightsChoice) -> Result<(Weights, Option<Arc<str>>), GameError> {
    let loaded = crate::games::load_weights(
        "chinese-checkers",
        choice,
        || {
            Arc::new(LoadedWeights {
                file: None,
                values: Weights::DEFAULT,
            })
        },
        |bytes| {
            let text = std::str::from_utf8(bytes).map_err(|_| "it is not text".to_string())?;
            let pairs: Vec<&str> = text
                .lines()
                .map(|line| line.split('#').next().unwrap_or(""))
                .flat_map(|line| line.split(|c: char| c == ',' || c.is_whitespace()))
                .filter(|pair| !pair.is_empty())
                .collect();
            pairs.join(",").parse()
        },
    )?;
    Ok((loaded.values, loaded.file.as_deref().map(Arc::from)))
}

impl std::str::FromStr for Weights {
    type Err = String;

    /// `key=value` pairs separated by commas, starting from the defaults, e.g. `spread=8,hop=4`.
    fn from_str(text: &str) -> Result<Weights, String> {
        let mut weights = Weights::DEFAULT;
        for (key, value) in Weights::pairs(text)? {
            *weights.get_mut(key).expect("a key of Weights::KEYS") = value;
        }
        Ok(weights)
    }
}

impl std::fmt::Display for Weights {
    /// The weights as `key=value` pairs separated by commas, as its `FromStr` reads them.
    fn fmt(&self, out: &mut std::fmt::Formatter) -> std::fmt::Result {
        for (index, key) in Weights::KEYS.into_iter().enumerate() {
            let separator = if index == 0 { "" } else { "," };
            let value = self.get(key).expect("a key of Weights::KEYS");
            write!(out, "{separator}{key}={value}")?;
        }
        Ok(())
    }
}

impl Default for Weights {
    fn default() -> Self {
        Weights::DEFAULT
    }
}

/// Whether the piece on `hole` can hop forward, toward the goal tip with `distances`, now.
#[inline]
pub fn has_forward_hop(hole: usize, occupied: u128, distances: &[u8; HOLES]) -> bool {
    let here = distances[hole];
    HOPS[hole].iter().any(|hop| {
        hop.over != OFF_BOARD
            && occupied >> hop.over & 1 == 1
            && occupied >> hop.landing & 1 == 0
            && distances[hop.landing as usize] + 2 == here
    })
}

/// The parts of a seat's cost before weighting: [`cost`] is `rows` rows plus each other term
/// times its weight (the spared rows' weight is fixed). A term the strength leaves out is 0, and
/// so are the hops when their weight is 0 (they are not counted then).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terms {
    /// Rows the seat's pieces still have to go: the distance sum less the home distance, or, with
    /// fillers in the goal, the rows the nearest pieces need to the holes left empty.
    pub rows: i32,
    /// Doubled columns the pieces lie beyond the band in front of the goal (strength 3+).
    pub sideways: i32,
    /// Pieces resting in a side camp (strength 3+).
    pub side_camp: i32,
    /// Rows pieces outside the goal lag more than `straggler_free` rows behind the front
    /// (strength 5+).
    pub straggler: i32,
    /// Rows between the front and the back piece outside the goal (strength 5+).
    pub spread: i32,
    /// Pieces with a forward hop ready (strength 6+).
    pub hops: i32,
    /// 1 when the seat is to move (strength 6+).
    pub tempo: i32,
    /// Rows the pieces that the fillers spare lie outside the goal camp (strength 3+; 0 without
    /// fillers).
    pub spared: i32,
}

/// The unweighted parts of what `seat` still has to do (see [`Terms`]).
pub fn terms(position: &ChineseCheckers, seat: Player, strength: Strength) -> Terms {
    let remaining = position.distance(seat) as i32 - HOME_DISTANCE as i32;
    if strength.0 < 3 {
        return Terms {
            rows: remaining,
            ..Terms::default()
        };
    }
    let weights = position.weights();
    let goal = position.variant().goal_camp(seat);
    let distances = &GOAL_DISTANCES[goal];
    let camp = CAMP_MASKS[goal];
    let occupied = position.occupied();
    let fillers = fillers(position, seat);
    let resting = position.pieces(seat) & position.variant().side_camps(seat);
    let mut terms = Terms {
        side_camp: resting.count_ones() as i32,
        ..Terms::default()
    };
    let mut pieces = position.pieces(seat);
    let mut nearest = i32::MAX;
    // How many pieces outside the goal stand at each distance from its tip.
    let mut lags = [0i32; 17];
    let count_hops = strength.0 >= 6 && weights.hop != 0;
    while pieces != 0 {
        let hole = pieces.trailing_zeros() as usize;
        pieces &= pieces - 1;
        terms.sideways += SIDEWAYS[goal][hole] as i32;
        let distance = distances[hole] as i32;
        if camp >> hole & 1 == 0 {
            nearest = nearest.min(distance);
            lags[distance as usize] += 1;
            if count_hops && has_forward_hop(hole, occupied, distances) {
                terms.hops += 1;
            }
        }
    }
    if fillers == 0 {
        // The distance sum less the home distance.
        terms.rows = remaining;
    } else {
        // Only the holes the fillers leave empty need pieces: the nearest pieces outside the
        // goal, one per empty hole, to the depths of those holes. The farthest pieces, which
        // the fillers spare, lag behind nobody: they leave `lags`.
        let mut empty = camp & !position.pieces(seat) & !fillers;
        let mut needed = empty.count_ones() as i32;
        let mut rows = 0;
        while empty != 0 {
            rows -= distances[empty.trailing_zeros() as usize] as i32;
            empty &= empty - 1;
        }
        for (distance, count) in lags.iter_mut().enumerate() {
            let used = (*count).min(needed);
            terms.spared += (*count - used) * (distance as i32 - CAMP_DEPTH);
            *count = used;
            needed -= used;
            rows += used * distance as i32;
        }
        terms.rows = rows;
        if lags.iter().all(|&count| count == 0) {
            nearest = i32::MAX;
        }
    }
    if strength.0 >= 5 && nearest != i32::MAX {
        let back = lags
            .iter()
            .rposition(|&count| count > 0)
            .unwrap_or(nearest as usize) as i32;
        terms.spread = back - nearest;
        // Each piece outside the goal pays for the rows it lags behind the front of the group.
        let free = nearest + weights.straggler_free;
        for (distance, &count) in lags.iter().enumerate().skip(free.max(0) as usize + 1) {
            terms.straggler += count * (distance as i32 - free);
        }
    }
    if strength.0 >= 6 && position.side_to_move() == seat {
        terms.tempo = 1;
    }
    terms
}

/// What `seat` still has to do, in evaluation units; 0 with every piece in the goal camp.
pub fn cost(position: &ChineseCheckers, seat: Player, strength: Strength) -> i32 {
    let weights = position.weights();
    let terms = terms(position, seat, strength);
    terms.rows * ROW
        + terms.sideways * weights.sideways
        + terms.side_camp * weights.side_camp
        + terms.straggler * weights.straggler
        + terms.spread * weights.spread
        - terms.hops * weights.hop
        - terms.tempo * weights.tempo
        + terms.spared * SPARED_WEIGHT
}

/// How many turns before its pieces start to count toward filling other goals (`spoil_after`)
/// a player's pieces in `seat`'s goal camp are taken as staying there: this late, a piece still
/// in its home camp is a straggler that rarely leaves before its turns are up.
const FILLER_TURNS: u8 = 8;

/// The other players' pieces in `seat`'s goal camp that count, or soon will, toward filling it
/// (`finish=fill`): those of finished players and of players within [`FILLER_TURNS`] of their
/// `spoil_after` turns. With `finish=all` none count. With `spoil_after=0` (the CCERL rules)
/// only a finished player's pieces count: the rules count every other piece at once, but its
/// owner still moves it out when it likes, so it is no filler to count on.
pub fn fillers(position: &ChineseCheckers, seat: Player) -> u128 {
    if position.variant().rules().finish != Finish::Fill {
        return 0;
    }
    let camp = CAMP_MASKS[position.variant().goal_camp(seat)];
    let limit = position.variant().spoil_turns();
    let mut found = 0;
    for other in 0..position.player_count() {
        let here = position.pieces(other) & camp;
        let staying = position.place(other).is_some()
            || (limit > 0 && position.turns(other).saturating_add(FILLER_TURNS) >= limit);
        if other != seat && here != 0 && staying {
            found |= here;
        }
    }
    found
}

/// The value of the position for `perspective`, strictly within ±[`MAX_EVALUATION`].
pub fn evaluate(position: &ChineseCheckers, perspective: Player, strength: Strength) -> i32 {
    value_of(position, perspective, strength, &mut |seat| {
        cost(position, seat, strength)
    })
}

/// [`evaluate`] for every seat into `values` (one per seat), each seat's cost computed at most
/// once: every seat's value needs the best opponent's cost, so evaluating the seats one by one
/// costs most of them several times.
pub fn evaluate_all(position: &ChineseCheckers, strength: Strength, values: &mut [i32]) {
    let mut costs = [None; crate::game::MAX_PLAYERS];
    let mut cost_of =
        |seat: Player| *costs[seat].get_or_insert_with(|| cost(position, seat, strength));
    for (seat, value) in values.iter_mut().enumerate() {
        *value = value_of(position, seat, strength, &mut cost_of);
    }
}

/// [`evaluate`] with each seat's [`cost`] from `cost_of`.
fn value_of(
    position: &ChineseCheckers,
    perspective: Player,
    strength: Strength,
    cost_of: &mut impl FnMut(Player) -> i32,
) -> i32 {
    let players = position.player_count();
    if let Some(place) = position.place(perspective) {
        // Settled: the value the search gives that place, kept inside the evaluation range.
        return place_value(place as usize, players);
    }
    if players == 1 {
        // Solitaire: only the way still to go counts.
        return (-cost_of(perspective)).clamp(-LIMIT, LIMIT);
    }
    let best_opponent = best_opponent_cost(position, perspective, strength, cost_of);
    let Some(best_opponent) = best_opponent else {
        // The last player left: the game is over and the place is the last.
        return -LIMIT;
    };
    let lead = best_opponent - cost_of(perspective);
    if players == 2 {
        return lead.clamp(-LIMIT, LIMIT);
    }
    let finished = (0..players)
        .filter(|&seat| position.place(seat).is_some())
        .count();
    // Between the best place still open and the next one.
    let best = place_value(finished + 1, players);
    let next = place_value(finished + 2, players);
    let half = (best - next) / 2 - 1;
    (best + next) / 2 + lead.clamp(-half, half)
}

/// The smallest cost among the unfinished opponents of `perspective`, each from `cost_of`.
/// Opponents are costed in the order of their rows to go, and one whose rows alone (less the
/// most its bonuses can take off) cannot beat the best so far is skipped.
fn best_opponent_cost(
    position: &ChineseCheckers,
    perspective: Player,
    strength: Strength,
    cost_of: &mut impl FnMut(Player) -> i32,
) -> Option<i32> {
    let players = position.player_count();
    let weights = position.weights();
    let bonuses = if strength.0 >= 6 {
        PIECES as i32 * weights.hop.max(0) + weights.tempo.max(0)
    } else {
        0
    };
    let mut candidates = [(0i32, 0usize); crate::game::MAX_PLAYERS];
    let mut count = 0;
    for seat in 0..players {
        if seat != perspective && position.place(seat).is_none() {
            // Fillers take rows off the cost: such a seat is always costed.
            let rows = if strength.0 >= 3 && fillers(position, seat) != 0 {
                i32::MIN
            } else {
                (position.distance(seat) as i32 - HOME_DISTANCE as i32) * ROW - bonuses
            };
            candidates[count] = (rows, seat);
            count += 1;
        }
    }
    let candidates = &mut candidates[..count];
    candidates.sort_unstable();
    let mut best: Option<i32> = None;
    for &(lower, seat) in candidates.iter() {
        if best.is_some_and(|best| lower >= best) {
            break;
        }
        let cost = cost_of(seat);
        best = Some(best.map_or(cost, |best| best.min(cost)));
    }
    best
}

/// A place's value as the search scores it, inside the evaluation range.
fn place_value(place: usize, players: usize) -> i32 {
    if place <= 1 {
        LIMIT
    } else if place >= players {
        -LIMIT
    } else {
        middle_place(place, players)
    }
}

/// Ordering hints: the progress a move makes toward the side to move's goal, long forward hops
/// first, with a bonus for entering the goal camp.
pub fn score_moves(position: &ChineseCheckers, moves: &[ChineseCheckersMove], scores: &mut [i32]) {
    let seat = position.side_to_move();
    let goal = position.variant().goal_camp(seat);
    let distances = &GOAL_DISTANCES[goal];
    let sideways = &SIDEWAYS[goal];
    for (mv, score) in moves.iter().zip(scores.iter_mut()) {
        if mv.is_pass() {
            *score = 0;
            continue;
        }
        let (from, to) = (mv.from as usize, mv.to as usize);
        let gain = distances[from] as i32 - distances[to] as i32;
        let drift = sideways[to] as i32 - sideways[from] as i32;
        let enters = CAMP_MASKS[goal] >> to & 1 == 1 && CAMP_MASKS[goal] >> from & 1 == 0;
        *score = gain * ROW - drift * SIDEWAYS_WEIGHT + if enters { ROW / 2 } else { 0 };
    }
}

/// The moves the side to move probably still needs: about three rows of progress per move.
pub fn expected_moves_left(position: &ChineseCheckers) -> u32 {
    let remaining = position
        .distance(position.side_to_move())
        .saturating_sub(HOME_DISTANCE);
    remaining.div_ceil(3) + 2
}

/// Evaluation points count sixteenths of a row of progress.
pub const UNIT: ScoreUnit = ScoreUnit {
    per_unit: ROW,
    decimals: 2,
    name: "rows",
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chinese_checkers::Jumps;

    #[test]
    fn start_is_balanced_for_two() {
        let start = ChineseCheckers::new(2, Jumps::Standard, 1000).unwrap();
        for level in 1..=8 {
            assert_eq!(evaluate(&start, 0, Strength(level)), 0);
            assert_eq!(evaluate(&start, 1, Strength(level)), 0);
        }
        assert_eq!(cost(&start, 0, Strength(1)), 120 * ROW);
    }

    #[test]
    fn every_seat_at_once_is_each_seat_in_turn() {
        // Greedy games, so that seats finish and goals hold other players' fillers; with the
        // default weights and with negative ones, where the opponents' cost bound skips nobody.
        let mut finished_seen = false;
        for players in [1, 2, 3, 6] {
            for weights in [
                Weights::DEFAULT,
                "straggler=-4,hop=-8,tempo=5".parse().unwrap(),
            ] {
                let mut position = ChineseCheckers::new(players, Jumps::Standard, 1000).unwrap();
                position.set_weights(weights);
                for ply in 0..400 {
                    if position.is_over() {
                        break;
                    }
                    if ply % 5 == 0 {
                        finished_seen |= (0..players).any(|seat| position.place(seat).is_some());
                        for level in 1..=8 {
                            let strength = Strength(level);
                            let mut all = vec![0; players];
                            evaluate_all(&position, strength, &mut all);
                            let each: Vec<i32> = (0..players)
                                .map(|seat| evaluate(&position, seat, strength))
                                .collect();
                            assert_eq!(all, each, "{players} players, ply {ply}, level {level}");
                        }
                    }
                    let mv =
                        crate::games::chinese_checkers::greedy::greedy_move(&position, 7).unwrap();
                    position.play_unchecked(mv);
                }
            }
        }
        assert!(
            finished_seen,
            "no position with a finished seat was checked"
        );
    }

    #[test]
    fn finishing_beats_playing_on_with_several_players() {
        // Whatever the lead, an unfinished seat is valued below the best place it can still
        // take, and above the place after it.
        for players in [3, 4, 6] {
            for finished in 0..players - 1 {
                let best = place_value(finished + 1, players);
                let next = place_value(finished + 2, players);
                assert!(best > next, "{players} players, {finished} finished");
                let half = (best - next) / 2 - 1;
                let mid = (best + next) / 2;
                assert!(mid + half < best && mid - half > next);
            }
        }
    }

    #[test]
    fn forward_moves_score_higher() {
        let start = ChineseCheckers::new(2, Jumps::Standard, 1000).unwrap();
        let mut moves = Vec::new();
        start.generate_moves(&mut moves);
        let mut scores = vec![0; moves.len()];
        score_moves(&start, &moves, &mut scores);
        for (mv, score) in moves.iter().zip(&scores) {
            // Steps gain one row and hops two; nothing drifts sideways from the start camp.
            let gain = GOAL_DISTANCES[4][mv.from as usize] - GOAL_DISTANCES[4][mv.to as usize];
            assert_eq!(*score, gain as i32 * ROW, "{mv:?}");
        }
        assert_eq!(scores.iter().filter(|&&score| score == 2 * ROW).count(), 6);
    }

    #[test]
    fn weights_read_back_what_they_write() {
        let weights = Weights {
            sideways: 1,
            side_camp: 2,
            straggler: 3,
            straggler_free: 4,
            spread: 5,
            hop: 6,
            tempo: 7,
        };
        assert_eq!(weights.to_string().parse::<Weights>(), Ok(weights));
        // The keys name every field once, in this order.
        let mut numbered = Weights::DEFAULT;
        for (index, key) in Weights::KEYS.iter().enumerate() {
            *numbered.get_mut(key).unwrap() = index as i32 + 1;
        }
        assert_eq!(numbered, weights);
        assert!(numbered.get_mut("rows").is_none());
        assert_eq!(
            Weights::DEFAULT.to_string().parse::<Weights>(),
            Ok(Weights::DEFAULT)
        );
    }

    #[test]
    fn an_opponent_at_home_is_no_filler_when_spoil_after_is_0() {
        // Under the CCERL rules (spoil_after=0) the opponent's ten pieces at home stand in the
        // seat's goal from the start; they leave as the game goes on, so the seat still has all
        // its rows to go, as under the default rules. They were taken as fillers: no rows at all.
        let ccerl =
            ChineseCheckers::from_rules(crate::games::chinese_checkers::variant::ccerl_rules())
                .unwrap();
        let default = ChineseCheckers::new(2, Jumps::Standard, 1000).unwrap();
        for seat in 0..2 {
            assert_eq!(fillers(&ccerl, seat), 0);
            assert_eq!(terms(&ccerl, seat, Strength::FULL).rows, 120);
            assert_eq!(
                cost(&ccerl, seat, Strength::FULL),
                cost(&default, seat, Strength::FULL)
            );
        }
    }

    #[test]
    fn values_count_sixteenths_of_rows() {
        assert_eq!(UNIT.convert(24), 1.5);
        assert_eq!(UNIT.convert(-4), -0.25);
    }
}
