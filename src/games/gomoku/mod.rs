//! Gomoku: freestyle, standard (exactly five) and renju, on square boards from 5x5 to 22x22.
//!
//! Black (seat 0) moves first and there is no pass. A move is a point; its code is the point index
//! `y * size + x` (Gomocup coordinates, origin top-left, see [`notation`]).
//!
//! - [`Rule::Freestyle`]: five or more in a row wins.
//! - [`Rule::Standard`]: exactly five wins; an overline wins nothing and play goes on.
//! - [`Rule::Renju`]: black wins with exactly five and may not play an overline, a double-four or a
//!   double-three (see [`renju`]); a black five wins even when the stone also makes one of those.
//!   White wins with five or more.
//!
//! A full board with no winner is a draw. The state keeps incremental line tables ([`lines`]): bit
//! masks per line and colour and each line's cells coded two bits a cell, and from them the
//! patterns of every point ([`threats`]), so that win checks, renju checks, move ordering and the
//! evaluation never rescan the board.

pub mod candidates;
pub mod evaluation;
pub mod lines;
pub mod notation;
pub mod patterns;
pub mod renju;
pub mod threats;
pub mod vcf;

use crate::base::cpu::{self, InstructionSet};
use crate::base::words::{out_of_range, plural, NumberRange};
use crate::game::{
    ForcedWin, GameError, LeftOutLosses, MoveCode, Outcome, Player, ProbCut, ProofRequest, Rules,
    SearchHooks, Selectivity, Solution, SolveRequest, Strength,
};
use lines::{geometry, run_length, LineCodes, MAX_LINES, MAX_POINTS};
use renju::Forbidden;
use std::fmt;
use threats::{Kind, Threats};

pub use lines::{MAX_SIZE, MIN_SIZE};

/// The board size when none is given.
pub const DEFAULT_SIZE: usize = 15;

const HASH_FAMILY: u64 = crate::base::zobrist::family::GOMOKU;
const SIDE_KEY: u64 = crate::base::zobrist::key(HASH_FAMILY, 10_000);

/// The stones' hash keys by `colour * MAX_POINTS + point`, computed when the program is
/// compiled: each key mixes twice, which every move would otherwise pay for.
static STONE_KEYS: [u64; 2 * MAX_POINTS] = {
    let mut keys = [0; 2 * MAX_POINTS];
    let mut index = 0;
    while index < 2 * MAX_POINTS {
        keys[index] = crate::base::zobrist::key(HASH_FAMILY, index as u64);
        index += 1;
    }
    keys
};

fn stone_key(colour: Player, point: usize) -> u64 {
    STONE_KEYS[colour * MAX_POINTS + point]
}

/// Which rule set decides wins and forbidden points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Five or more in a row wins.
    Freestyle,
    /// Exactly five wins; overlines do not.
    Standard,
    /// Exactly five for black, five or more for white; black's overline, double-four and
    /// double-three points are forbidden.
    Renju,
}

impl Rule {
    /// The option value: `freestyle`, `standard` or `renju`.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
        }
    }

    /// Reads a rule name, case-insensitive; `exact5` is read as `standard`.
    pub fn parse(text: &str) -> Option<Rule> {
        match text.to_ascii_lowercase().as_str() {
            "freestyle" => Some(Rule::Freestyle),
            "standard" | "exact5" => Some(Rule::Standard),
            "renju" => Some(Rule::Renju),
            _ => None,
        }
    }

    /// Whether a run of `length` stones of `colour` wins.
    #[inline]
    pub fn wins(self, colour: Player, length: u32) -> bool {
        match self {
            Rule::Freestyle => length >= 5,
            Rule::Standard => length == 5,
            Rule::Renju if colour == 0 => length == 5,
            Rule::Renju => length >= 5,
        }
    }
}

/// A Gomoku move: a point index `y * size + x`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GomokuMove(pub u16);

impl GomokuMove {
    /// The point index.
    #[inline]
    pub fn point(self) -> usize {
        self.0 as usize
    }
}

impl MoveCode for GomokuMove {
    fn code(self) -> u16 {
        self.0
    }
}

/// What undo needs beyond the move itself: the previous last move (for the diagram's marker).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GomokuUndo {
    last_move: Option<GomokuMove>,
}

/// A Gomoku position with its rule set and incremental line tables.
#[derive(Clone, PartialEq, Eq)]
pub struct Gomoku {
    size: usize,
    rule: Rule,
    side: Player,
    stones: usize,
    winner: Option<Player>,
    last_move: Option<GomokuMove>,
    hash: u64,
    /// By point: 0 empty, 1 black, 2 white.
    cells: [u8; MAX_POINTS],
    /// Stones by colour and line (see [`lines`]).
    lines: [[u32; MAX_LINES]; 2],
    /// The same stones coded two bits a cell, line by line, for the pattern tables.
    codes: LineCodes,
    /// What a stone would make on every empty point, for each colour (see [`threats`]).
    threats: Threats,
    /// The evaluation's weights, shared with the positions made from this one.
    weights: evaluation::SharedWeights,
    /// The move-ordering values (the rule's unless set).
    ordering: &'static candidates::OrderingValues,
    /// The same values by pair of patterns.
    ordering_pairs: &'static candidates::PairValues,
}

impl fmt::Debug for Gomoku {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter
            .debug_struct("Gomoku")
            .field("size", &self.size)
            .field("rule", &self.rule)
            .field("position", &self.position_string())
            .field("last_move", &self.last_move.map(|mv| self.format_move(mv)))
            .finish()
    }
}

/// The sizes a board may have.
pub const SIZES: NumberRange = NumberRange::new(MIN_SIZE as u64, MAX_SIZE as u64);

impl Gomoku {
    /// Hands the turn to the other side (the side and its hash key), as a move and its undo do;
    /// alone, for the threat searches that ask what the opponent could do if it moved now.
    #[inline]
    pub(crate) fn switch_side(&mut self) {
        self.side ^= 1;
        self.hash ^= SIDE_KEY;
    }

    /// The empty board of side `size` under `rule`.
    ///
    /// # Errors
    /// [`GameError::InvalidOption`] unless `size` is from 5 to 22.
    pub fn new(size: usize, rule: Rule) -> Result<Gomoku, GameError> {
        if !SIZES.contains(size as u64) {
            return Err(GameError::InvalidOption(out_of_range(
                "gomoku size",
                &SIZES,
                size,
            )));
        }
        let mut game = Gomoku {
            size,
            rule,
            side: 0,
            stones: 0,
            winner: None,
            last_move: None,
            hash: 0,
            cells: [0; MAX_POINTS],
            lines: [[0; MAX_LINES]; 2],
            codes: LineCodes::empty(geometry(size)),
            threats: Threats::default(),
            weights: evaluation::weights(rule),
            ordering: rule.ordering(),
            ordering_pairs: candidates::pair_values(rule.ordering()),
        };
        game.rebuild_threats();
        Ok(game)
    }

    /// The empty board from `key=value` options: `size` (5..=22, default 15) and `rule`
    /// (`freestyle`, `standard` or its alias `exact5`, `renju`; default `freestyle`).
    ///
    /// # Errors
    /// [`GameError::InvalidOption`] for an unknown key or a value out of range.
    pub fn from_options(options: &[(String, String)]) -> Result<Gomoku, GameError> {
        let mut size = DEFAULT_SIZE;
        let mut rule = Rule::Freestyle;
        let mut weights = None;
        for (key, value) in options {
            match key.to_ascii_lowercase().as_str() {
                "size" => {
                    size = SIZES
                        .parse("gomoku size", value)
                        .map_err(GameError::InvalidOption)? as usize;
                }
                "rule" => {
                    rule = Rule::parse(value.trim()).ok_or_else(|| {
                        GameError::InvalidOption(format!(
                            "unknown gomoku rule '{value}' (freestyle, standard, renju)"
                        ))
                    })?;
                }
                crate::games::WEIGHTS => weights = Some(crate::games::WeightsChoice::parse(value)),
                _ => {
                    return Err(GameError::InvalidOption(format!(
                        "unknown gomoku option '{key}' (size, rule, weights)"
                    )))
                }
            }
        }
        let mut game = Gomoku::new(size, rule)?;
        // Loaded once the rule is known, since the built-in weights depend on it.
        if let Some(choice) = weights {
            game.weights = evaluation::load(&choice, rule)?;
        }
        Ok(game)
    }

    /// Evaluates with `weights` from now on (this position and those made from it).
    pub fn set_weights(&mut self, weights: evaluation::SharedWeights) {
        self.weights = weights;
    }

    /// Orders moves by `values` from now on (this position and those made from it), such as the
    /// hand-set values that the weight tuning plays with.
    pub fn set_ordering(&mut self, values: &'static candidates::OrderingValues) {
        self.ordering = values;
        self.ordering_pairs = candidates::pair_values(values);
    }

    /// The move-ordering values in use.
    pub fn ordering(&self) -> &'static candidates::OrderingValues {
        self.ordering
    }

    /// The board side.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The rule set.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The number of stones on the board.
    pub fn stone_count(&self) -> usize {
        self.stones
    }

    /// The stone on `point`, if any: 0 black, 1 white.
    pub fn stone(&self, point: usize) -> Option<Player> {
        match self.cells.get(point).copied() {
            Some(1) => Some(0),
            Some(2) => Some(1),
            _ => None,
        }
    }

    /// The stone at Gomocup coordinates (`x` from the left, `y` from the top, both from 0).
    pub fn stone_at(&self, x: usize, y: usize) -> Option<Player> {
        if x < self.size && y < self.size {
            self.stone(y * self.size + x)
        } else {
            None
        }
    }

    /// The winner, once someone has made a winning line.
    pub fn winner(&self) -> Option<Player> {
        self.winner
    }

    /// The last move played, when it is known (not after loading a board).
    pub fn last_move(&self) -> Option<GomokuMove> {
        self.last_move
    }

    /// The move at Gomocup coordinates, or `None` off the board.
    pub fn from_gomocup(&self, x: usize, y: usize) -> Option<GomokuMove> {
        notation::move_from_gomocup(x, y, self.size)
    }

    /// The Gomocup coordinates `(x, y)` of `mv`.
    pub fn to_gomocup(&self, mv: GomokuMove) -> (usize, usize) {
        notation::gomocup_coordinates(mv, self.size)
    }

    /// Whether black on the empty point `point` would be forbidden under renju, and why; `None`
    /// under the other rules, on an occupied point, or when the point is allowed. It answers for
    /// black whoever is to move.
    pub fn forbidden_for_black(&self, point: usize) -> Option<Forbidden> {
        if self.rule != Rule::Renju || point >= self.size * self.size || self.cells[point] != 0 {
            return None;
        }
        self.forbidden_reason(point)
    }

    /// Why black may not play the empty `point` under renju, from the threat data: the patterns
    /// decide overlines and double fours, and a point with two threes by the patterns gets the
    /// full recursive check of [`renju`]. Any rule but renju marks no point.
    #[inline]
    fn forbidden_reason(&self, point: usize) -> Option<Forbidden> {
        if self.threats.is(0, point, Kind::Forbidden) {
            let overline = self
                .threats
                .patterns(0, point)
                .contains(&patterns::Pattern::Overline);
            Some(if overline {
                Forbidden::Overline
            } else {
                Forbidden::DoubleFour
            })
        } else if self.threats.is(0, point, Kind::MaybeForbidden) {
            self.renju_board().forbidden(point)
        } else {
            None
        }
    }

    /// Whether `colour` on the empty point `point` would complete a winning line.
    #[inline]
    pub fn makes_five(&self, point: usize, colour: Player) -> bool {
        let geometry = geometry(self.size);
        geometry.placements[point].iter().any(|placement| {
            let stones = self.lines[colour][placement.line as usize] | 1 << placement.offset;
            self.rule
                .wins(colour, run_length(stones, u32::from(placement.offset)))
        })
    }

    fn renju_board(&self) -> renju::Board<'_> {
        renju::Board {
            geometry: geometry(self.size),
            black: &self.lines[0],
            white: &self.lines[1],
        }
    }

    /// Whether black is to move under renju with enough stones for a forbidden shape: every one
    /// needs four black stones besides the new one (two threes, two fours, an overline).
    fn checks_forbidden(&self) -> bool {
        self.rule == Rule::Renju && self.side == 0 && self.stones / 2 >= 4
    }

    /// Whether black, to move under renju, may play none of the empty points: every one is
    /// forbidden. There is no pass move, so the game ends there, drawn like a full board. The
    /// threat data's forbidden and maybe-forbidden points bound the forbidden ones, so the exact
    /// check runs only when they are at least as many as the empty points.
    fn only_forbidden_points(&self) -> bool {
        if !self.checks_forbidden() {
            return false;
        }
        let marked = self
            .threats
            .points(0, Kind::Forbidden)
            .union(self.threats.points(0, Kind::MaybeForbidden));
        let empty = self.size * self.size - self.stones;
        empty <= marked.len()
            && (0..self.size * self.size)
                .all(|point| self.cells[point] != 0 || self.forbidden_reason(point).is_some())
    }

    /// Puts a stone on an empty point, keeping every table but the winner and side.
    fn place(&mut self, point: usize, colour: Player) {
        // The threat tables count bits: compiled for the chosen instruction set (`crate::base::cpu`).
        cpu::dispatch!(cpu => cpu.run(|| {
            let geometry = geometry(self.size);
            self.cells[point] = colour as u8 + 1;
            self.hash ^= stone_key(colour, point);
            self.stones += 1;
            for placement in geometry.placements[point] {
                self.lines[colour][placement.line as usize] |= 1 << placement.offset;
                self.codes.toggle(placement, colour);
            }
            self.refresh_threats(point);
        }))
    }

    /// Takes a stone off, the inverse of [`Gomoku::place`].
    fn remove(&mut self, point: usize, colour: Player) {
        // Compiled for the chosen instruction set (`crate::base::cpu`).
        cpu::dispatch!(cpu => cpu.run(|| {
            let geometry = geometry(self.size);
            self.cells[point] = 0;
            self.hash ^= stone_key(colour, point);
            self.stones -= 1;
            for placement in geometry.placements[point] {
                self.lines[colour][placement.line as usize] &= !(1 << placement.offset);
                self.codes.toggle(placement, colour);
            }
            self.refresh_threats(point);
        }))
    }

    /// Whether the stone of `colour` on `point` is part of a winning line.
    fn completes_five(&self, point: usize, colour: Player) -> bool {
        let geometry = geometry(self.size);
        geometry.placements[point].iter().any(|placement| {
            let stones = self.lines[colour][placement.line as usize];
            self.rule
                .wins(colour, run_length(stones, u32::from(placement.offset)))
        })
    }

    /// Whether `colour` has a winning line anywhere on the board.
    fn has_winning_line(&self, colour: Player) -> bool {
        let geometry = geometry(self.size);
        (0..geometry.line_count).any(|line| {
            let mut stones = self.lines[colour][line];
            while stones != 0 {
                let start = stones.trailing_zeros();
                let length = (stones >> start).trailing_ones();
                if self.rule.wins(colour, length) {
                    return true;
                }
                stones &= !(((1u64 << length) - 1) << start) as u32;
            }
            false
        })
    }

    /// The empty points, row by row.
    fn for_each_empty(&self, mut visit: impl FnMut(usize)) {
        let row_mask = (1u32 << self.size) - 1;
        // Lines 0..size are the rows, with the column as offset.
        for y in 0..self.size {
            let mut empty = !(self.lines[0][y] | self.lines[1][y]) & row_mask;
            while empty != 0 {
                let x = empty.trailing_zeros() as usize;
                empty &= empty - 1;
                visit(y * self.size + x);
            }
        }
    }

    /// Loads the board form, see [`notation`].
    fn load_board(&self, text: &str) -> Result<Gomoku, GameError> {
        let invalid = |why: String| GameError::InvalidPosition(why);
        let (cells, side) = notation::parse_board(text, self.size)?;
        let mut game = self.start_position();
        for (point, &cell) in cells.iter().enumerate() {
            if cell != 0 {
                game.place(point, cell as usize - 1);
            }
        }
        let black = cells.iter().filter(|&&cell| cell == 1).count();
        let white = cells.iter().filter(|&&cell| cell == 2).count();
        let to_move = if black == white {
            0
        } else if black == white + 1 {
            1
        } else {
            return Err(invalid(format!(
                "black has {black} stones and white {white}: black moves first, so black has as \
                 many stones as white or one more"
            )));
        };
        if side != to_move {
            return Err(invalid(format!(
                "with {black} black and {white} white stones it is {} to move",
                game.format_player(to_move)
            )));
        }
        let black_wins = game.has_winning_line(0);
        let white_wins = game.has_winning_line(1);
        if black_wins && white_wins {
            return Err(invalid("both sides have a winning line".into()));
        }
        if (black_wins && side == 0) || (white_wins && side == 1) {
            return Err(invalid(format!(
                "{} has a winning line but did not make the last move",
                game.format_player(side)
            )));
        }
        if side == 1 {
            game.switch_side();
        }
        game.winner = if black_wins {
            Some(0)
        } else if white_wins {
            Some(1)
        } else {
            None
        };
        Ok(game)
    }

    /// Replays the moves form, see [`notation`].
    fn load_moves(&self, text: &str) -> Result<Gomoku, GameError> {
        let moves = notation::parse_move_sequence(text, self.size)?;
        let mut game = self.start_position();
        for (index, &mv) in moves.iter().enumerate() {
            game.try_play(mv).map_err(|error| {
                let reason = match error {
                    GameError::IllegalMove { reason, .. } => reason,
                    other => other.to_string(),
                };
                GameError::InvalidPosition(format!(
                    "move {} ({}) is illegal: {reason}",
                    index + 1,
                    game.format_move(mv)
                ))
            })?;
        }
        Ok(game)
    }
}

impl Rules for Gomoku {
    type Move = GomokuMove;

    type Undo = GomokuUndo;

    fn name(&self) -> &'static str {
        "gomoku"
    }

    fn options(&self) -> Vec<(String, String)> {
        let mut options = vec![
            ("size".to_string(), self.size.to_string()),
            ("rule".to_string(), self.rule.name().to_string()),
        ];
        options.extend(self.weights.option());
        options
    }

    fn set_option(&mut self, key: &str, value: &str) -> Result<(), GameError> {
        if key != crate::games::WEIGHTS {
            return Err(crate::game::rules::fixed_option(self.name(), key));
        }
        self.weights = evaluation::load(&crate::games::WeightsChoice::parse(value), self.rule)?;
        Ok(())
    }

    fn player_count(&self) -> usize {
        2
    }

    fn side_to_move(&self) -> Player {
        self.side
    }

    fn generate_moves(&self, moves: &mut Vec<GomokuMove>) {
        moves.clear();
        if self.winner.is_some() {
            return;
        }
        // Compiled for the chosen instruction set (`crate::base::cpu`): bit scans and the renju check.
        cpu::dispatch!(cpu => cpu.run(|| {
            if self.checks_forbidden() {
                self.for_each_empty(|point| {
                    if self.forbidden_reason(point).is_none() {
                        moves.push(GomokuMove(point as u16));
                    }
                });
            } else {
                self.for_each_empty(|point| moves.push(GomokuMove(point as u16)));
            }
        }))
    }

    fn is_legal(&self, mv: GomokuMove) -> bool {
        let point = mv.point();
        point < self.size * self.size
            && self.cells[point] == 0
            && self.winner.is_none()
            && !(self.checks_forbidden() && self.forbidden_reason(point).is_some())
    }

    fn play_unchecked(&mut self, mv: GomokuMove) -> GomokuUndo {
        let undo = GomokuUndo {
            last_move: self.last_move,
        };
        let point = mv.point();
        let colour = self.side;
        self.place(point, colour);
        if self.completes_five(point, colour) {
            self.winner = Some(colour);
        }
        self.switch_side();
        self.last_move = Some(mv);
        undo
    }

    fn undo(&mut self, mv: GomokuMove, undo: GomokuUndo) {
        self.switch_side();
        self.remove(mv.point(), self.side);
        // Moves are only played while nobody has won.
        self.winner = None;
        self.last_move = undo.last_move;
    }

    fn illegal_reason(&self, mv: GomokuMove) -> String {
        let point = mv.point();
        if point >= self.size * self.size {
            return "the point is off the board".to_string();
        }
        // A game that ends with black stuck on forbidden points still names the reason.
        if self.winner.is_some() || self.stones == self.size * self.size {
            return "the game is over".to_string();
        }
        if self.cells[point] != 0 {
            return "the point is occupied".to_string();
        }
        if self.checks_forbidden() {
            if let Some(reason) = self.forbidden_reason(point) {
                return format!("forbidden for black: {}", reason.name());
            }
        }
        "not a legal move in this position".to_string()
    }

    fn forbidden_moves(&self) -> Vec<GomokuMove> {
        let mut forbidden = Vec::new();
        if self.checks_forbidden() && self.winner.is_none() {
            self.for_each_empty(|point| {
                if self.forbidden_reason(point).is_some() {
                    forbidden.push(GomokuMove(point as u16));
                }
            });
        }
        forbidden
    }

    fn move_from_code(&self, code: u16) -> Option<GomokuMove> {
        ((code as usize) < self.size * self.size).then_some(GomokuMove(code))
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.winner {
            Some(winner) => Some(Outcome::win(winner, 0)),
            None if self.stones == self.size * self.size || self.only_forbidden_points() => {
                Some(Outcome::draw(2))
            }
            None => None,
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn recompute_hash(&self) -> u64 {
        let stones = (0..self.size * self.size)
            .filter_map(|point| self.stone(point).map(|colour| stone_key(colour, point)))
            .fold(0, |hash, key| hash ^ key);
        stones ^ if self.side == 1 { SIDE_KEY } else { 0 }
    }

    fn parse_move(&self, text: &str) -> Result<GomokuMove, GameError> {
        notation::parse_move(text, self.size)
    }

    fn format_move(&self, mv: GomokuMove) -> String {
        if mv.point() < self.size * self.size {
            notation::format_move(mv, self.size)
        } else {
            format!("#{}", mv.0)
        }
    }

    /// The board form (see [`notation`]), e.g. `x..../...../..o../...../..... x`.
    fn position_string(&self) -> String {
        notation::write_board(&self.cells[..self.size * self.size], self.size, self.side)
    }

    /// Reads either form (see [`notation`]): text with a `/` is a board, anything else a list of
    /// moves replayed from the empty board with every rule checked.
    fn set_position_string(&mut self, text: &str) -> Result<(), GameError> {
        let text = text.trim();
        let game = if text.contains('/') {
            self.load_board(text)?
        } else {
            self.load_moves(text)?
        };
        *self = game;
        Ok(())
    }

    fn diagram(&self) -> String {
        let mut cells = self.cells[..self.size * self.size].to_vec();
        let marks_forbidden = self.checks_forbidden() && self.winner.is_none();
        for mv in self.forbidden_moves() {
            cells[mv.point()] = 3;
        }
        let mut status = match self.outcome() {
            Some(outcome) => match outcome.winner() {
                Some(winner) => format!("{} wins", self.format_player(winner)),
                None => "draw: the board is full".to_string(),
            },
            None => format!(
                "{} to move",
                if self.side == 0 {
                    "black (X)"
                } else {
                    "white (O)"
                }
            ),
        };
        status.push_str(&format!(
            "; {} rule, {}x{}, {}",
            self.rule.name(),
            self.size,
            self.size,
            plural(self.stones as u64, "stone")
        ));
        if let Some(mv) = self.last_move {
            status.push_str(&format!("; last move {}", self.format_move(mv)));
        }
        if marks_forbidden {
            status.push_str("; # marks black's forbidden points");
        }
        notation::diagram(
            &cells,
            self.size,
            self.last_move.map(GomokuMove::point),
            &status,
        )
    }

    fn start_position(&self) -> Gomoku {
        let mut start =
            Gomoku::new(self.size, self.rule).expect("the size was checked when the game was made");
        start.weights = self.weights.clone();
        start.ordering = self.ordering;
        start.ordering_pairs = self.ordering_pairs;
        start
    }
}

/// The selective search, each part kept by a self-play SPRT at 100 ms a move (see
/// docs/results/gomoku.md): late-move reductions growing with depth and move number, futility
/// pruning up to 3 plies from the horizon, a forced reply (a node with one candidate, such as
/// the block of a four) searched without using up a ply, internal iterative reduction, and a root
/// aspiration window of 100 points, since Gomoku's values swing by hundreds between iterations.
const SELECTIVITY: Selectivity = Selectivity {
    reduction_scale: 75,
    futility_depth: 3,
    futility_margin: 60,
    razor_depth: 0,
    razor_margin: 0,
    move_count_depth: 0,
    single_reply_extension: true,
    internal_reduction_depth: 4,
    move_futility_depth: 0,
    move_futility_margin: 0,
    move_futility_hint: 0,
    aspiration_window: 100,
    left_out_losses: LeftOutLosses::Unproven,
};

/// ProbCut ([`ProbCut`]) from this many plies left, outside the principal variation and never
/// where the side to move must answer a four or an open three...
const PROBCUT_FROM: u32 = 5;
/// ...probed this many plies shallower...
const PROBCUT_GAP: u32 = 4;
/// ...cutting where the probe clears the bound by 1.5 times this (150 points). A depth-d value
/// lies about 270 points from the depth d-4 value (one standard deviation, 240 positions from
/// games against Rapfi, both rules), so this is a margin chosen by self-play, not a confidence
/// bound: with 270 ProbCut almost never cut; 100 gained, and 70 and 140 did no better
/// (docs/results/gomoku.md).
const PROBCUT_SIGMA: f64 = 100.0;

impl SearchHooks for Gomoku {
    fn search_moves(&self, moves: &mut Vec<GomokuMove>) {
        candidates::search_moves(self, moves);
    }

    fn left_out_moves(&self, moves: &mut Vec<GomokuMove>) {
        candidates::left_out(self, moves);
    }

    fn key_after(&self, mv: GomokuMove) -> Option<u64> {
        Some(self.hash ^ stone_key(self.side, mv.point()) ^ SIDE_KEY)
    }

    fn evaluate(&self, perspective: Player, strength: Strength) -> i32 {
        let value = evaluation::evaluate(self, strength);
        if perspective == self.side {
            value
        } else {
            -value
        }
    }

    fn score_moves(&self, moves: &[GomokuMove], scores: &mut [i32]) {
        candidates::score_moves(self, moves, scores);
    }

    fn expected_moves_left(&self) -> u32 {
        // Games between decent players rarely fill more than a quarter of the board; count
        // this side's moves.
        let empties = (self.size * self.size - self.stones) as u32;
        let typical = (self.size * self.size / 4) as u32;
        let left = typical.saturating_sub(self.stones as u32).max(20) / 2;
        left.min(empties.div_ceil(2)).max(1)
    }

    fn has_solver(&self) -> bool {
        true
    }

    fn solve(&self, request: &SolveRequest) -> Option<Solution<GomokuMove>> {
        vcf::solve(self, request)
    }

    fn find_forced_win(&mut self, request: &ProofRequest) -> Option<ForcedWin<GomokuMove>> {
        vcf::find_forced_win(self, request)
    }

    fn keep_root_defences(&self, moves: &mut Vec<GomokuMove>, request: &ProofRequest) {
        vcf::keep_root_defences(self, moves, request);
    }

    fn forget_thread_memory(&self) {
        vcf::forget_thread_solver();
    }

    fn selectivity(&self) -> Selectivity {
        SELECTIVITY
    }

    fn probcut(&self, depth: u32) -> Option<ProbCut> {
        // Lazily built: the shallow depth exists only from PROBCUT_FROM on.
        (depth >= PROBCUT_FROM && !self.threatened()).then(|| ProbCut {
            shallow_depth: depth - PROBCUT_GAP,
            slope: 1.0,
            intercept: 0.0,
            sigma: PROBCUT_SIGMA,
        })
    }

    fn threatened(&self) -> bool {
        let opponent = self.side ^ 1;
        !self.threats.points(opponent, Kind::Five).is_empty()
            || !self.threats.points(opponent, Kind::OpenFour).is_empty()
    }
}

#[cfg(test)]
mod tests;

/// Gomoku openings for `tabula bench`, as move sequences on 15x15 freestyle and renju.
const BENCH_OPENINGS: &[&str] = &[
    "h8",
    "h8 i9 j8",
    "h8 i8 h9 h7 g9 f10 i10",
    "h8 i9 i8 g8 j7 k6 j8 j9 k8",
    "h8 h9 i10 g8 j11 k12 g10 i7 f9",
];

/// The positions `tabula bench` searches in Gomoku.
pub fn bench_positions() -> Vec<Gomoku> {
    let mut positions = Vec::new();
    for rule in [Rule::Freestyle, Rule::Renju] {
        let start = Gomoku::new(15, rule).expect("15x15 exists under every rule");
        positions.extend(
            BENCH_OPENINGS
                .iter()
                .map(|moves| super::replay(&start, moves)),
        );
    }
    positions
}
