//! The rule options of Chinese Checkers (`set_game` keys) and the seating derived from them.

use super::board::{self, CAMPS, CAMP_MASKS};
use super::Jumps;
use crate::base::words::{out_of_range, NumberRange};
use crate::game::{GameError, Player, MAX_PLAYERS};

/// The player counts the star seats: 1 (solitaire), 2, 3, 4 or 6.
pub const PLAYER_COUNTS: [usize; 5] = [1, 2, 3, 4, 6];
/// The default cap on the plies of a game.
pub const DEFAULT_MAX_MOVES: u32 = 1000;
/// The default number of turns a player has to leave its home camp before its pieces there
/// count toward filling another player's goal (see [`Finish::Fill`]).
pub const DEFAULT_SPOIL_AFTER: u8 = 30;
/// The largest `spoil_after` accepted.
pub const MAX_SPOIL_AFTER: u8 = 200;

/// The values `spoil_after` takes.
const SPOIL_AFTER: NumberRange = NumberRange::new(0, MAX_SPOIL_AFTER as u64);

/// The values `max_moves` takes: a cap of at least one ply that the ply counter can hold.
const MAX_MOVES: NumberRange = NumberRange::new(1, u32::MAX as u64);
/// The seat whose goal a camp is not.
pub(super) const NO_SEAT: u8 = u8::MAX;

/// Whether a move may end in a camp that is neither the mover's home nor its goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SideCamps {
    /// Pieces may stop anywhere (the default).
    Open,
    /// Pieces may hop through the four other camps but not end a move there (the reference design).
    NoStop,
}

/// When a player has finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Finish {
    /// The goal camp is full and holds at least one of the player's pieces; another player's
    /// piece there counts only once its owner has taken `spoil_after` turns (or has finished), so
    /// a player that keeps pieces at home cannot block a goal for good, and nobody finishes by
    /// filling the holes a player has just left at the start (the default).
    Fill,
    /// All ten of the player's pieces are in its goal camp (the reference design).
    All,
}

/// The rule options of a game, as `set_game` takes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleSet {
    /// Seats: 1 (solitaire), 2, 3, 4 or 6.
    pub players: usize,
    /// The jump rule.
    pub jumps: Jumps,
    /// The game ends after this many plies.
    pub max_moves: u32,
    /// Whether a piece in its goal camp must end every move there.
    pub goal_lock: bool,
    /// Where pieces may stop.
    pub side_camps: SideCamps,
    /// When a player has finished.
    pub finish: Finish,
    /// Turns after which a player's pieces count toward filling another goal ([`Finish::Fill`]).
    pub spoil_after: u8,
    /// With `goal_lock`, the strict form (`goal_lock=strict`): a piece that has landed in its goal
    /// camp, within a chain of hops too, lands only in the goal camp for the rest of the move.
    pub strict_lock: bool,
    /// The equal-turn draw (`equal_turn=on`, two players): when the first seat finishes with all
    /// ten pieces in its goal and the second seat could finish with its next move, the game is
    /// drawn.
    pub equal_turn: bool,
    /// What the move cap and the third repetition give: a ranking by progress
    /// (`at_cap=progress`, the default) or a draw among the players still playing (`at_cap=draw`).
    pub cap_draw: bool,
}

impl Default for RuleSet {
    fn default() -> Self {
        RuleSet {
            players: 2,
            jumps: Jumps::Standard,
            max_moves: DEFAULT_MAX_MOVES,
            goal_lock: true,
            side_camps: SideCamps::Open,
            finish: Finish::Fill,
            spoil_after: DEFAULT_SPOIL_AFTER,
            strict_lock: false,
            equal_turn: false,
            cap_draw: false,
        }
    }
}

/// The rules of the CCERL-2P10-v2 rating list (JumpStar's referee), the `rules=ccerl` preset: two
/// players, standard hops, the strict goal lock, open side camps, a full goal with at least one
/// own piece finishes (the anti-block rule), the equal-turn draw and a draw at 240 plies.
pub fn ccerl_rules() -> RuleSet {
    RuleSet {
        players: 2,
        jumps: Jumps::Standard,
        max_moves: CCERL_MAX_PLIES,
        goal_lock: true,
        side_camps: SideCamps::Open,
        finish: Finish::Fill,
        spoil_after: 0,
        strict_lock: true,
        equal_turn: true,
        cap_draw: true,
    }
}

/// The ply at which a CCERL game is drawn.
pub const CCERL_MAX_PLIES: u32 = 240;

impl RuleSet {
    /// Reads `set_game` options: `players`, `jumps`, `max_moves`, `goal_lock`, `side_camps`,
    /// `finish`, `spoil_after`, `equal_turn`, `at_cap` and the preset `rules=ccerl` (whose
    /// settings the other keys override, in whatever order they come); keys left out keep their
    /// defaults.
    ///
    /// # Errors
    /// [`GameError::InvalidOption`] for an unknown or repeated key, a value out of range, or
    /// `spoil_after` with `finish=all`.
    pub fn from_options(options: &[(String, String)]) -> Result<RuleSet, GameError> {
        let mut rules = RuleSet::default();
        let mut seen: Vec<String> = Vec::new();
        let invalid = |text: String| GameError::InvalidOption(text);
        let presets: Vec<&(String, String)> = options
            .iter()
            .filter(|(key, _)| key.trim().eq_ignore_ascii_case("rules"))
            .collect();
        if presets.len() > 1 {
            return Err(invalid("rules given twice".to_string()));
        }
        if let Some((_, value)) = presets.first() {
            let value = value.trim().to_ascii_lowercase();
            match value.as_str() {
                "ccerl" => rules = ccerl_rules(),
                "default" => {}
                _ => {
                    return Err(invalid(format!(
                        "rules must be ccerl or default, not '{value}'"
                    )))
                }
            }
        }
        for (key, value) in options {
            let key = key.trim().to_ascii_lowercase();
            let value = value.trim().to_ascii_lowercase();
            if seen.contains(&key) {
                return Err(invalid(format!("{key} given twice")));
            }
            match key.as_str() {
                "players" => {
                    rules.players = value
                        .parse()
                        .ok()
                        .filter(|count| PLAYER_COUNTS.contains(count))
                        .ok_or_else(|| {
                            invalid(format!("players must be 1, 2, 3, 4 or 6, not '{value}'"))
                        })?;
                }
                "jumps" => {
                    rules.jumps = match value.as_str() {
                        "standard" => Jumps::Standard,
                        "long" => Jumps::Long,
                        _ => {
                            return Err(invalid(format!(
                                "jumps must be standard or long, not '{value}'"
                            )))
                        }
                    }
                }
                "max_moves" => {
                    rules.max_moves = MAX_MOVES.parse("max_moves", &value).map_err(invalid)? as u32;
                }
                "rules" => {}
                "goal_lock" => {
                    (rules.goal_lock, rules.strict_lock) = match value.as_str() {
                        "on" => (true, false),
                        "off" => (false, false),
                        "strict" => (true, true),
                        _ => {
                            return Err(invalid(format!(
                                "goal_lock must be on, off or strict, not '{value}'"
                            )))
                        }
                    }
                }
                "equal_turn" => {
                    rules.equal_turn = match value.as_str() {
                        "on" => true,
                        "off" => false,
                        _ => {
                            return Err(invalid(format!(
                                "equal_turn must be on or off, not '{value}'"
                            )))
                        }
                    }
                }
                "at_cap" => {
                    rules.cap_draw = match value.as_str() {
                        "progress" => false,
                        "draw" => true,
                        _ => {
                            return Err(invalid(format!(
                                "at_cap must be progress or draw, not '{value}'"
                            )))
                        }
                    }
                }
                "side_camps" => {
                    rules.side_camps = match value.as_str() {
                        "open" => SideCamps::Open,
                        "no-stop" => SideCamps::NoStop,
                        _ => {
                            return Err(invalid(format!(
                                "side_camps must be open or no-stop, not '{value}'"
                            )))
                        }
                    }
                }
                "finish" => {
                    rules.finish = match value.as_str() {
                        "fill" => Finish::Fill,
                        "all" => Finish::All,
                        _ => {
                            return Err(invalid(format!(
                                "finish must be fill or all, not '{value}'"
                            )))
                        }
                    }
                }
                "spoil_after" => {
                    rules.spoil_after =
                        SPOIL_AFTER.parse("spoil_after", &value).map_err(invalid)? as u8;
                }
                _ => {
                    return Err(invalid(format!(
                        "unknown chinese-checkers option '{key}' (players, jumps, max_moves, \
                         goal_lock, side_camps, finish, spoil_after, equal_turn, at_cap, rules)"
                    )))
                }
            }
            seen.push(key);
        }
        if rules.equal_turn && rules.players != 2 {
            return Err(invalid(
                "equal_turn applies to two players only".to_string(),
            ));
        }
        if rules.finish == Finish::All && seen.iter().any(|key| key == "spoil_after") {
            return Err(invalid(
                "spoil_after applies to finish=fill only".to_string(),
            ));
        }
        Ok(rules)
    }

    /// The options as `key=value` pairs, the form `set_game` takes them: `players`, `jumps` and
    /// `max_moves` always, the house rules only where they differ from the defaults.
    pub fn to_options(&self) -> Vec<(String, String)> {
        let jumps = match self.jumps {
            Jumps::Standard => "standard",
            Jumps::Long => "long",
        };
        let mut options = vec![
            ("players".to_string(), self.players.to_string()),
            ("jumps".to_string(), jumps.to_string()),
            ("max_moves".to_string(), self.max_moves.to_string()),
        ];
        let defaults = RuleSet::default();
        if self.goal_lock != defaults.goal_lock || self.strict_lock != defaults.strict_lock {
            let value = match (self.goal_lock, self.strict_lock) {
                (true, true) => "strict",
                (true, false) => "on",
                (false, _) => "off",
            };
            options.push(("goal_lock".to_string(), value.to_string()));
        }
        if self.side_camps != defaults.side_camps {
            let value = match self.side_camps {
                SideCamps::Open => "open",
                SideCamps::NoStop => "no-stop",
            };
            options.push(("side_camps".to_string(), value.to_string()));
        }
        if self.finish != defaults.finish {
            let value = match self.finish {
                Finish::Fill => "fill",
                Finish::All => "all",
            };
            options.push(("finish".to_string(), value.to_string()));
        }
        if self.finish == Finish::Fill && self.spoil_after != defaults.spoil_after {
            options.push(("spoil_after".to_string(), self.spoil_after.to_string()));
        }
        if self.equal_turn != defaults.equal_turn {
            let value = if self.equal_turn { "on" } else { "off" };
            options.push(("equal_turn".to_string(), value.to_string()));
        }
        if self.cap_draw != defaults.cap_draw {
            let value = if self.cap_draw { "draw" } else { "progress" };
            options.push(("at_cap".to_string(), value.to_string()));
        }
        options
    }
}

/// The start camps (1..6) of the seats, in turn order, for a player count.
pub fn start_camps(players: usize) -> Option<&'static [usize]> {
    match players {
        1 => Some(&[1]),
        2 => Some(&[1, 4]),
        3 => Some(&[1, 3, 5]),
        4 => Some(&[1, 2, 4, 5]),
        6 => Some(&[1, 2, 3, 4, 5, 6]),
        _ => None,
    }
}

/// The variant: the rules, with the seating derived from them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    rules: RuleSet,
    /// Each seat's start and goal camp (1..6).
    starts: [u8; MAX_PLAYERS],
    goals: [u8; MAX_PLAYERS],
    /// The seat whose goal each camp is, or `NO_SEAT`.
    pub(super) goal_owners: [u8; CAMPS + 1],
    /// The holes where each seat may not end a move (the side camps under `side_camps=no-stop`).
    barred: [u128; MAX_PLAYERS],
    /// Each seat's side camps: the four camps that are neither its home nor its goal.
    side: [u128; MAX_PLAYERS],
}

impl Variant {
    /// The variant for a set of rules.
    ///
    /// # Errors
    /// [`GameError::InvalidOption`] for a player count other than 1, 2, 3, 4 or 6, a move cap of
    /// 0 or a `spoil_after` above [`MAX_SPOIL_AFTER`].
    pub fn new(rules: RuleSet) -> Result<Variant, GameError> {
        let camps = start_camps(rules.players).ok_or_else(|| {
            GameError::InvalidOption(format!(
                "players must be 1, 2, 3, 4 or 6, not {}",
                rules.players
            ))
        })?;
        if !MAX_MOVES.contains(rules.max_moves.into()) {
            return Err(GameError::InvalidOption(out_of_range(
                "max_moves",
                &MAX_MOVES,
                rules.max_moves,
            )));
        }
        if !SPOIL_AFTER.contains(rules.spoil_after.into()) {
            return Err(GameError::InvalidOption(out_of_range(
                "spoil_after",
                &SPOIL_AFTER,
                rules.spoil_after,
            )));
        }
        let mut variant = Variant {
            rules,
            starts: [0; MAX_PLAYERS],
            goals: [0; MAX_PLAYERS],
            goal_owners: [NO_SEAT; CAMPS + 1],
            barred: [0; MAX_PLAYERS],
            side: [0; MAX_PLAYERS],
        };
        for (seat, &camp) in camps.iter().enumerate() {
            let goal = board::opposite_camp(camp);
            variant.starts[seat] = camp as u8;
            variant.goals[seat] = goal as u8;
            variant.goal_owners[goal] = seat as u8;
            variant.side[seat] =
                !CAMP_MASKS[0] & !CAMP_MASKS[camp] & !CAMP_MASKS[goal] & board::ALL_HOLES;
            if rules.side_camps == SideCamps::NoStop {
                variant.barred[seat] = variant.side[seat];
            }
        }
        Ok(variant)
    }

    /// The rules.
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    /// The number of seats.
    pub fn players(&self) -> usize {
        self.rules.players
    }

    /// The jump rule.
    pub fn jumps(&self) -> Jumps {
        self.rules.jumps
    }

    /// The cap on plies after which the game ends.
    pub fn max_moves(&self) -> u32 {
        self.rules.max_moves
    }

    /// The start camp (1..6) of `seat`.
    pub fn start_camp(&self, seat: Player) -> usize {
        self.starts[seat] as usize
    }

    /// The goal camp (1..6) of `seat`.
    pub fn goal_camp(&self, seat: Player) -> usize {
        self.goals[seat] as usize
    }

    /// The holes where `seat` may not end a move.
    pub fn barred(&self, seat: Player) -> u128 {
        self.barred[seat]
    }

    /// The holes of `seat`'s side camps, the four that are neither its home nor its goal.
    pub fn side_camps(&self, seat: Player) -> u128 {
        self.side[seat]
    }

    /// The turns after which a seat's pieces count toward filling other goals; 0 when they
    /// always count or the finish rule does not look at other players' pieces.
    pub fn spoil_turns(&self) -> u8 {
        match self.rules.finish {
            Finish::Fill => self.rules.spoil_after,
            Finish::All => 0,
        }
    }
}
