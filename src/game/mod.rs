//! The one trait every game implements.
//!
//! Search, perft, analysis and the protocol front-ends are written once, generic over [`Game`].
//! A game keeps its rules, its evaluation and its text notation in its own module under `games/`.

pub mod consistency;
pub mod levels;
pub mod notation;
pub mod perft;

use crate::base::transposition::TranspositionTable;
use crate::game::levels::LevelProfile;
use std::fmt::Debug;
use std::hash::Hash;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The largest number of seats any game has (Chinese Checkers with six players).
pub const MAX_PLAYERS: usize = 6;

/// A seat at the table, counted from 0. Seat 0 moves first (black in Reversi and Gomoku,
/// player 1 in Chinese Checkers).
pub type Player = usize;

/// How strong the static evaluation should be, from 1 (beginner) to 8 (full strength).
///
/// Levels trade knowledge for weakness in the way the reference designs offer eight levels; a game
/// may ignore the strength and always evaluate at full strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Strength(pub u8);

impl Strength {
    /// Full strength: every evaluation feature the game has.
    pub const FULL: Strength = Strength(8);
}

impl Default for Strength {
    fn default() -> Self {
        Strength::FULL
    }
}

/// Errors a game reports for bad moves, positions and options.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The text is not a move in this game's notation.
    #[error("malformed move '{0}'")]
    MalformedMove(String),
    /// The move is well formed but may not be played here.
    #[error("illegal move {mv}: {reason}")]
    IllegalMove {
        /// The move as the user wrote it.
        mv: String,
        /// Why it may not be played.
        reason: String,
    },
    /// The text names no player of this game.
    #[error("unknown player '{0}'")]
    UnknownPlayer(String),
    /// A position string could not be read.
    #[error("invalid position: {0}")]
    InvalidPosition(String),
    /// A `key=value` game option is unknown or out of range.
    #[error("invalid game option: {0}")]
    InvalidOption(String),
    /// The game has ended, so no move may be played.
    #[error("the game is over")]
    GameOver,
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Place of each seat: 1 is first, and equal places are a tie. Seats beyond the player count are 0.
    pub places: [u8; MAX_PLAYERS],
    /// The winner's margin in the game's own unit (discs in Reversi); 0 where the game has none.
    pub margin: i32,
}

impl Outcome {
    /// A two-player game won by `winner` by `margin`.
    pub fn win(winner: Player, margin: i32) -> Outcome {
        let mut places = [0; MAX_PLAYERS];
        places[0] = 2;
        places[1] = 2;
        places[winner] = 1;
        Outcome { places, margin }
    }

    /// A drawn game between `players` seats.
    pub fn draw(players: usize) -> Outcome {
        let mut places = [0; MAX_PLAYERS];
        places[..players].fill(1);
        Outcome { places, margin: 0 }
    }

    /// A finished ranking: `places[p]` is seat `p`'s place, 1 for first.
    pub fn ranking(places: &[u8]) -> Outcome {
        let mut all = [0; MAX_PLAYERS];
        all[..places.len()].copy_from_slice(places);
        Outcome {
            places: all,
            margin: 0,
        }
    }

    /// The number of seats this outcome ranks.
    pub fn player_count(&self) -> usize {
        self.places.iter().filter(|&&place| place > 0).count()
    }

    /// The sole first-placed seat, or `None` for a shared first place.
    pub fn winner(&self) -> Option<Player> {
        let mut firsts = self
            .places
            .iter()
            .enumerate()
            .filter(|(_, &place)| place == 1);
        match (firsts.next(), firsts.next()) {
            (Some((seat, _)), None) => Some(seat),
            _ => None,
        }
    }

    /// Seat `player`'s place, 1 for first.
    pub fn place(&self, player: Player) -> u8 {
        self.places[player]
    }
}

/// What an exact solver is asked to do.
pub struct SolveRequest<'a> {
    /// The shared stop flag: the solver gives up when it is raised.
    pub stop: &'a AtomicBool,
    /// Threads to solve with.
    pub threads: usize,
    /// When the solve began.
    pub start: Instant,
    /// The solver raises `stop` and gives up after this long.
    pub hard_time: Option<Duration>,
    /// Whether every move needs its exact score (for analysis), not just the best one.
    pub all_moves: bool,
    /// A table the solver may use.
    pub table: &'a TranspositionTable,
}

/// What [`Game::direct_move`] may use.
pub struct DirectRequest<'a> {
    /// The playing level, 1 (beginner) to 8 (full strength).
    pub level: u8,
    /// A seed for the game's random choices: the same seed gives the same move.
    pub seed: u64,
    /// The shared stop flag: give up when it is raised.
    pub stop: &'a AtomicBool,
    /// When the move was asked for.
    pub start: Instant,
    /// Give up after this long.
    pub hard_time: Option<Duration>,
}

/// A move a game chose by its own means instead of the tree search (see [`Game::direct_move`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirectMove<M> {
    /// The move.
    pub mv: M,
    /// The line the move begins (a plan of the mover's own moves), starting with `mv`.
    pub pv: Vec<M>,
    /// Whether the line is proven the shortest way to the mover's goal; otherwise it is a
    /// heuristic choice.
    pub exact: bool,
}

/// How the search treats three or more players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MultiplayerSearch {
    /// The mover against a coalition of all the others, who move in turn.
    Paranoid,
    /// Best-reply search (Schadd and Winands): after each move of the mover, only the single
    /// strongest reply of any one opponent, the others skipping their turn. Needs
    /// [`Game::null_move`]; games without one are searched paranoid.
    BestReply,
    /// Monte-Carlo tree search (UCT) with max-n backup: every seat maximises its own reward,
    /// estimated by short playouts scored with the evaluation. A tree per thread (root
    /// parallelism); a node limit counts iterations, and without a node or time limit it runs a
    /// fixed number of them.
    MonteCarlo,
}

/// What the scores of a [`Solution`] measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolutionScale {
    /// The exact final margin for the side to move, in the game's units (discs in Reversi).
    Margin,
    /// Search scores ([`crate::base::score`]): a proven win or loss decodes with
    /// [`crate::base::score::decode_win`] (a threat-space solver's `win in N`).
    Search,
}

/// An exact solution of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution<M> {
    /// Moves with their exact scores for the side to move, best first. Only the first is present
    /// unless every move was asked for.
    pub moves: Vec<(M, i32)>,
    /// What the scores measure.
    pub scale: SolutionScale,
    /// A best line, starting with the best move.
    pub pv: Vec<M>,
    /// Positions visited.
    pub nodes: u64,
}

/// What the search asks of a game's quick proof search ([`Game::find_forced_win`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProofRequest {
    /// About how many nodes the proof search may spend.
    pub nodes: u64,
    /// Whether this is the search's root, where a wider and deeper proof is worth its cost and the
    /// whole winning line is wanted.
    pub root: bool,
    /// The strength the search plays at: a game may prove nothing at low strength.
    pub strength: Strength,
}

/// A forced win found by a game's quick proof search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForcedWin<M> {
    /// The winning line, starting with the first move; at inner nodes it may hold only that move.
    pub line: Vec<M>,
    /// Plies to the end of the game, the winning move included, against the longest defence the
    /// proof saw.
    pub plies: usize,
}

/// The unit a game's evaluation counts in: `per_unit` evaluation points make one unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoreUnit {
    /// Evaluation points per unit.
    pub per_unit: i32,
    /// Decimals worth showing.
    pub decimals: usize,
    /// The unit's name, plural (`discs`, `points`, `rows`).
    pub name: &'static str,
}

impl ScoreUnit {
    /// Raw evaluation points, shown whole.
    pub const POINTS: ScoreUnit = ScoreUnit {
        per_unit: 1,
        decimals: 0,
        name: "points",
    };

    /// `value` evaluation points in this unit.
    pub fn convert(&self, value: i32) -> f64 {
        value as f64 / self.per_unit as f64
    }
}

/// A game's statistical model for ProbCut (Buro): at a node searched `depth` plies deep, the value
/// of that search is about `slope * shallow + intercept`, where `shallow` is the value of a search
/// of the same node only `shallow_depth` plies deep, with residuals of standard deviation `sigma`
/// (all in evaluation points, for the side to move). The search probes the shallow depth with a
/// null window and cuts the node when the deep value is then likely outside the window.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProbCut {
    /// Depth of the probing search, below the node's depth.
    pub shallow_depth: u32,
    /// Deep value per point of shallow value.
    pub slope: f64,
    /// Deep value at a shallow value of 0.
    pub intercept: f64,
    /// Standard deviation of the deep value around the line.
    pub sigma: f64,
}

/// A move that fits in 16 bits, so that the transposition table can store it.
pub trait MoveCode: Copy {
    /// The 16-bit code of this move. Codes are unique within a game variant.
    fn code(self) -> u16;
}

/// One board game: its rules, notation and evaluation.
///
/// The state is small and `Clone`; `play_unchecked`/`undo` make and unmake moves in place, and an
/// implementation chooses whether [`Game::Undo`] carries a copy of the state (copy-make) or only what
/// undo needs (incremental).
pub trait Game: Clone + PartialEq + Debug + Send + Sync + 'static {
    /// A move, including any explicit pass.
    type Move: MoveCode + Eq + Hash + Debug + Send + Sync + 'static;
    /// What [`Game::undo`] needs to take back a move.
    type Undo: Copy + Send;

    /// The game's canonical name, as `set_game` takes it.
    fn name(&self) -> &'static str;
    /// The variant options as `key=value` pairs, the form `set_game` takes them.
    fn options(&self) -> Vec<(String, String)>;
    /// The number of seats.
    fn player_count(&self) -> usize;
    /// The seat whose turn it is.
    fn side_to_move(&self) -> Player;

    /// Replaces `moves` with every legal move of the side to move. A game with passes lists the pass
    /// as the only move when nothing else is legal. A finished game lists nothing.
    fn generate_moves(&self, moves: &mut Vec<Self::Move>);
    /// The moves the search considers: a subset of the legal moves, never empty while the game goes
    /// on. Games with a huge branching factor (Gomoku) prune here, for example to points near stones
    /// or to the replies that stop an immediate threat. The default is every legal move.
    fn search_moves(&self, moves: &mut Vec<Self::Move>) {
        self.generate_moves(moves);
    }
    /// Whether `mv` is legal for the side to move.
    fn is_legal(&self, mv: Self::Move) -> bool {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        moves.contains(&mv)
    }
    /// Plays a legal move. The caller guarantees legality; an illegal move may corrupt the state.
    fn play_unchecked(&mut self, mv: Self::Move) -> Self::Undo;
    /// Takes back `mv`, which must be the last move played, using what `play_unchecked` returned.
    fn undo(&mut self, mv: Self::Move, undo: Self::Undo);
    /// Plays `mv` after checking that the game goes on and that the move is legal.
    ///
    /// # Errors
    /// [`GameError::GameOver`] when the game has ended, [`GameError::IllegalMove`] when the move may not
    /// be played; the state is unchanged then.
    fn try_play(&mut self, mv: Self::Move) -> Result<Self::Undo, GameError> {
        if self.outcome().is_some() {
            return Err(GameError::GameOver);
        }
        if !self.is_legal(mv) {
            return Err(GameError::IllegalMove {
                mv: self.format_move(mv),
                reason: self.illegal_reason(mv),
            });
        }
        Ok(self.play_unchecked(mv))
    }
    /// Why `mv` is not legal here, for error messages.
    fn illegal_reason(&self, _mv: Self::Move) -> String {
        "not a legal move in this position".to_string()
    }
    /// The pass move when it is the only legal move of the side to move, for games with passes.
    fn forced_pass(&self) -> Option<Self::Move> {
        None
    }
    /// Points the side to move may not play because of a rule (renju's forbidden points), sorted.
    fn forbidden_moves(&self) -> Vec<Self::Move> {
        Vec::new()
    }
    /// The move that a 16-bit code stands for in this variant, if any. The result need not be legal.
    fn move_from_code(&self, code: u16) -> Option<Self::Move>;

    /// The result once the game is over, `None` while it goes on.
    fn outcome(&self) -> Option<Outcome>;
    /// The number of leaves `depth` plies below this position (see [`crate::game::perft`]); games with a
    /// faster dedicated generator override it.
    fn perft(&self, depth: usize) -> u64 {
        crate::game::perft::perft(&mut self.clone(), depth)
    }
    /// The 64-bit Zobrist-style hash of the position, side to move included.
    fn hash(&self) -> u64;
    /// The hash computed from scratch; it must equal [`Game::hash`]. Games that keep the hash
    /// incrementally override this.
    fn recompute_hash(&self) -> u64 {
        self.hash()
    }
    /// Static evaluation from `perspective`'s point of view: positive is good for that seat.
    /// Its magnitude stays below [`crate::base::score::MAX_EVALUATION`].
    fn evaluate(&self, perspective: Player, strength: Strength) -> i32;
    /// Ordering hints for the search: a higher score means search the move earlier. The default
    /// gives every move 0.
    fn score_moves(&self, moves: &[Self::Move], scores: &mut [i32]) {
        let _ = moves;
        scores.fill(0);
    }
    /// Coarse values of `moves` for a stochastic move policy: a Monte-Carlo search's playouts
    /// and its model of the other seats' choices draw at random among the moves of the highest
    /// value, where the search's hints ([`Game::score_moves`]) would break every tie the same
    /// way. The default is the hints.
    fn policy_values(&self, moves: &[Self::Move], values: &mut [i32]) {
        self.score_moves(moves, values);
    }
    /// The number of moves the game probably still lasts, for time management.
    fn expected_moves_left(&self) -> u32;
    /// The unit of this game's evaluation, so that front-ends can show search scores in it.
    fn score_unit(&self) -> ScoreUnit {
        ScoreUnit::POINTS
    }
    /// What `level` (1 to 8) may do in this game; the default is [`crate::game::levels::default_profile`].
    fn level_profile(&self, level: u8) -> LevelProfile {
        crate::game::levels::default_profile(level)
    }

    /// A move chosen without the tree search, or `None` to search. Chinese Checkers plays its
    /// level-1 greedy player here and, once contact is over, the plan of its race solver. The
    /// default searches.
    fn direct_move(&self, request: &DirectRequest) -> Option<DirectMove<Self::Move>> {
        let _ = request;
        None
    }
    /// A move that only hands the turn to the next player, whatever the position, for searches
    /// that skip seats ([`MultiplayerSearch::BestReply`]); `None` (the default) in games without.
    fn null_move(&self) -> Option<Self::Move> {
        None
    }
    /// How the search should treat three or more players in this game, for a search capped at
    /// `depth` plies (`None`: no cap); the default is paranoid.
    fn multiplayer_search(&self, depth: Option<u32>) -> MultiplayerSearch {
        let _ = depth;
        MultiplayerSearch::Paranoid
    }

    /// The ProbCut model for a search `depth` plies deep from this position (see [`ProbCut`]), or
    /// `None` (the default) where the search should not cut selectively.
    fn probcut(&self, depth: u32) -> Option<ProbCut> {
        let _ = depth;
        None
    }

    /// How far the game is from its end for an exact solver (empty squares in Reversi), or `None`
    /// when the game has no solver.
    fn solver_distance(&self) -> Option<u32> {
        None
    }
    /// How far from the end (see [`Game::solver_distance`]) the solver can usually finish within
    /// `time` on `threads` threads; the engine hands a position to the solver within this reach.
    fn solver_reach(&self, time: Option<Duration>, threads: usize) -> u32 {
        let _ = (time, threads);
        u32::MAX
    }
    /// Whether [`Game::solve`] can prove anything in this game (the `solve` command).
    fn has_solver(&self) -> bool {
        self.solver_distance().is_some()
    }
    /// Solves the position exactly. `None` when the game has no solver, the game is over, the
    /// solver proved nothing, or the solve was stopped.
    fn solve(&self, request: &SolveRequest) -> Option<Solution<Self::Move>> {
        let _ = request;
        None
    }

    /// Before the root search: keeps only the root `moves` after which the opponent has no quick
    /// forced win (see [`Game::find_forced_win`]), when the opponent would have one if it moved
    /// now and some move stops it. The request bounds the proof searches. The default keeps every
    /// move.
    fn keep_root_defences(&self, moves: &mut Vec<Self::Move>, request: &ProofRequest) {
        let _ = (moves, request);
    }

    /// A quick proof search for a forced win of the side to move within the request's node budget
    /// (Gomoku's threat-space search), which the search calls at its root and at shallow nodes.
    /// `None` when none is found; the state must be unchanged on return. The default proves
    /// nothing.
    fn find_forced_win(&mut self, request: &ProofRequest) -> Option<ForcedWin<Self::Move>> {
        let _ = request;
        None
    }

    /// Reads a move in this game's notation. Case does not matter.
    ///
    /// # Errors
    /// [`GameError::MalformedMove`] when the text is not a move of this variant.
    fn parse_move(&self, text: &str) -> Result<Self::Move, GameError>;
    /// Writes a move in this game's notation.
    fn format_move(&self, mv: Self::Move) -> String;
    /// Reads a seat: colours (`b`, `black`, `w`, `white`) in two-player games, `1`..`6` otherwise.
    ///
    /// # Errors
    /// [`GameError::UnknownPlayer`] when the text names no seat.
    fn parse_player(&self, text: &str) -> Result<Player, GameError> {
        let lower = text.to_ascii_lowercase();
        if self.player_count() == 2 {
            match lower.as_str() {
                "b" | "black" | "x" | "*" => return Ok(0),
                "w" | "white" | "o" => return Ok(1),
                _ => {}
            }
        }
        match lower.parse::<usize>() {
            Ok(number) if (1..=self.player_count()).contains(&number) => Ok(number - 1),
            _ => Err(GameError::UnknownPlayer(text.to_string())),
        }
    }
    /// Writes a seat the way `parse_player` reads it.
    fn format_player(&self, player: Player) -> String {
        if self.player_count() == 2 {
            if player == 0 { "black" } else { "white" }.to_string()
        } else {
            (player + 1).to_string()
        }
    }
    /// The result of a finished game as `final_score` reports it. The default is GTP's for two
    /// players (`B+10`, `W+2`, `0`, from the first letter of each player's name; a win without a
    /// margin, as in Gomoku, is SGF's `B+`) and the place of every seat otherwise (`1:2 2:1 3:3`,
    /// player:place).
    fn format_result(&self, outcome: &Outcome) -> String {
        if self.player_count() == 2 {
            return match outcome.winner() {
                None => "0".to_string(),
                Some(winner) => {
                    let name = self.format_player(winner);
                    let letter = name.chars().next().unwrap_or('?').to_ascii_uppercase();
                    if outcome.margin == 0 {
                        format!("{letter}+")
                    } else {
                        format!("{letter}+{}", outcome.margin)
                    }
                }
            };
        }
        (0..self.player_count())
            .map(|seat| format!("{}:{}", self.format_player(seat), outcome.place(seat)))
            .collect::<Vec<_>>()
            .join(" ")
    }
    /// The position string, the form `setposition` reads.
    fn position_string(&self) -> String;
    /// Loads a position string of this variant.
    ///
    /// # Errors
    /// [`GameError::InvalidPosition`] when the text is not a valid position; `self` is unchanged then.
    fn set_position_string(&mut self, text: &str) -> Result<(), GameError>;
    /// A readable board diagram for `showboard`, several lines.
    fn diagram(&self) -> String;
    /// The start position of this variant.
    fn start_position(&self) -> Self;
}
