//! The search hooks: what the search asks of a game beyond its rules, each with a default.

use crate::game::levels::{LevelProfile, Strength};
use crate::game::rules::Rules;
use crate::game::seat::Player;
use crate::game::solver::{
    DirectMove, DirectRequest, ForcedWin, ProofRequest, Solution, SolveRequest,
};
use std::time::Duration;

/// How the search treats three or more players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MultiplayerSearch {
    /// The mover against a coalition of all the others, who move in turn.
    Paranoid,
    /// Best-reply search (Schadd and Winands): after each move of the mover, only the single
    /// strongest reply of any one opponent, the others skipping their turn. Needs
    /// [`SearchHooks::null_move`]; games without one are searched paranoid.
    BestReply,
    /// Monte-Carlo tree search (UCT) with max-n backup: every seat maximises its own reward,
    /// estimated by short playouts scored with the evaluation. A tree per thread (root
    /// parallelism); a node limit counts iterations, and without a node or time limit it runs a
    /// fixed number of them.
    MonteCarlo,
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

/// Selective pruning and extensions that a game asks of the two-player search, each off (0 or
/// `false`) by default, and the width of its root's aspiration window. The pruning acts only
/// outside the principal variation (the extension and the internal reduction also on it) and, but
/// for the internal reduction, never where the side to move must answer a threat
/// ([`SearchHooks::threatened`]). Depths are in plies left at the node, values in evaluation
/// points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Selectivity {
    /// Futility pruning of the node (reverse futility): with at most this many plies left, a node
    /// whose static value is at least beta plus [`Selectivity::futility_margin`] per ply left
    /// after this move returns the static value.
    pub futility_depth: i32,
    /// See [`Selectivity::futility_depth`].
    pub futility_margin: i32,
    /// Razoring: with at most this many plies left, a node whose static value is below alpha by
    /// more than [`Selectivity::razor_margin`] per ply returns it (after the game's quick proof
    /// search found no forced win).
    pub razor_depth: i32,
    /// See [`Selectivity::razor_depth`].
    pub razor_margin: i32,
    /// Move-count pruning: with at most this many plies left, once a move that does not lose is
    /// known, the ordinary moves (not the table move or a killer) beyond the first
    /// `3 + depth^1.3` (half as many where the static value has not improved over two plies) are
    /// not searched.
    pub move_count_depth: i32,
    /// Searches the only reply to a forced position (a node with a single candidate move, such as
    /// the block of a four) one ply deeper.
    pub single_reply_extension: bool,
    /// Late-move reductions that grow with depth and move number: a late ordinary move is searched
    /// `ln(depth) * ln(move number) * reduction_scale / 100` plies shallower (at least one). With 0,
    /// the reduction is one ply, two for the moves well down the list at depth 6 or more.
    pub reduction_scale: i32,
    /// Internal iterative reduction: a node with at least this many plies left and no move from
    /// the transposition table is searched one ply shallower, since its move order is a guess.
    pub internal_reduction_depth: i32,
    /// Futility pruning of moves: with at most this many plies left, once a move has been
    /// searched, an ordinary move whose hint is below [`Selectivity::move_futility_hint`] is
    /// skipped when the node's static value plus [`Selectivity::move_futility_margin`] per ply
    /// left is at most alpha: a quiet move rarely lifts a position that far.
    pub move_futility_depth: i32,
    /// See [`Selectivity::move_futility_depth`].
    pub move_futility_margin: i32,
    /// See [`Selectivity::move_futility_depth`].
    pub move_futility_hint: i32,
    /// Half-width of the root's first aspiration window, in evaluation points; 0 keeps the search's
    /// default. A game whose values move by hundreds between iterations may search its root fewer
    /// times with a wider one.
    pub aspiration_window: i32,
    /// What a node does when every move it searched loses and the game's candidate limit left
    /// moves out ([`SearchHooks::left_out_moves`]): a loss proven over part of the moves is no
    /// proof, and one of the others may hold.
    pub left_out_losses: LeftOutLosses,
}

/// How the search treats a loss over a node's candidates when the game's candidate limit left
/// other moves out ([`Selectivity::left_out_losses`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LeftOutLosses {
    /// The loss counts as proven (a game without a candidate limit, or the plain search that
    /// the weight tuning reproduces).
    #[default]
    Proven,
    /// The node returns the loss as unproven ([`crate::base::score::unproven_loss`]): worse
    /// than any evaluation but no proof, at no cost in nodes. The root, where the move is
    /// chosen, searches the moves left out once every move loses.
    Unproven,
}

impl Selectivity {
    /// Whether any pruning needs the static value of inner nodes.
    pub fn uses_static_value(&self) -> bool {
        self.futility_depth > 0
            || self.razor_depth > 0
            || self.move_count_depth > 0
            || self.move_futility_depth > 0
    }
}

/// What the search, the engine and the tools ask of a game beyond its rules: evaluation, move
/// ordering hints, selectivity, the solvers and the playing levels. Only `evaluate` and
/// `expected_moves_left` must be written; the rest have defaults that suit a plain game.
pub trait SearchHooks: Rules {
    /// The moves the search considers: a subset of the legal moves, never empty while the game goes
    /// on. Games with a huge branching factor (Gomoku) prune here, for example to points near stones
    /// or to the replies that stop an immediate threat. The default is every legal move.
    fn search_moves(&self, moves: &mut Vec<Self::Move>) {
        self.generate_moves(moves);
    }
    /// Static evaluation from `perspective`'s point of view: positive is good for that seat.
    /// Its magnitude stays below [`crate::base::score::MAX_EVALUATION`].
    fn evaluate(&self, perspective: Player, strength: Strength) -> i32;
    /// [`SearchHooks::evaluate`] from every seat's point of view at once, into `values` (one per
    /// seat): a game whose seats' values share parts (each seat's lead over the best other seat)
    /// computes them once. The default evaluates each seat in turn.
    fn evaluate_all(&self, strength: Strength, values: &mut [i32]) {
        for (seat, value) in values.iter_mut().enumerate() {
            *value = self.evaluate(seat, strength);
        }
    }
    /// Ordering hints for the search: a higher score means search the move earlier. The default
    /// gives every move 0.
    fn score_moves(&self, moves: &[Self::Move], scores: &mut [i32]) {
        let _ = moves;
        scores.fill(0);
    }
    /// Coarse values of `moves` for a stochastic move policy: a Monte-Carlo search's playouts
    /// and its model of the other seats' choices draw at random among the moves of the highest
    /// value, where the search's hints ([`SearchHooks::score_moves`]) would break every tie the same
    /// way. The default is the hints.
    fn policy_values(&self, moves: &[Self::Move], values: &mut [i32]) {
        self.score_moves(moves, values);
    }
    /// The [`Rules::hash`] the position will have after `mv`, where the game knows it more cheaply
    /// than playing the move: the search then fetches the child's table entry while the move is
    /// played. `None` (the default) fetches it after the move.
    fn key_after(&self, mv: Self::Move) -> Option<u64> {
        let _ = mv;
        None
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
    /// The selective pruning and extensions the two-player search may use in this game (see
    /// [`Selectivity`]); asked once per search, of the root. The default uses none.
    fn selectivity(&self) -> Selectivity {
        Selectivity::default()
    }
    /// Whether the side to move must answer an immediate threat (in Gomoku: the opponent can make
    /// five, or an open four, next move); the search then neither prunes selectively nor trusts
    /// the static value. The default is `false`.
    fn threatened(&self) -> bool {
        false
    }
    /// How far the game is from its end for an exact solver (empty squares in Reversi), or `None`
    /// when the game has no solver.
    fn solver_distance(&self) -> Option<u32> {
        None
    }
    /// How far from the end (see [`SearchHooks::solver_distance`]) the solver can usually finish within
    /// `time` on `threads` threads; the engine hands a position to the solver within this reach.
    fn solver_reach(&self, time: Option<Duration>, threads: usize) -> u32 {
        let _ = (time, threads);
        u32::MAX
    }
    /// Whether [`SearchHooks::solve`] can prove anything in this game (the `solve` command).
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
    /// forced win (see [`SearchHooks::find_forced_win`]), when the opponent would have one if it moved
    /// now and some move stops it. The request bounds the proof searches. The default keeps every
    /// move.
    fn keep_root_defences(&self, moves: &mut Vec<Self::Move>, request: &ProofRequest) {
        let _ = (moves, request);
    }
    /// The legal moves that [`SearchHooks::search_moves`] leaves out by a limit on their number
    /// rather than because they lose at once (see [`Selectivity::left_out_losses`]), in `moves`
    /// (cleared first). The default leaves none out.
    fn left_out_moves(&self, moves: &mut Vec<Self::Move>) {
        moves.clear();
    }
    /// A quick proof search for a forced win of the side to move within the request's node budget
    /// (Gomoku's threat-space search), which the search calls at its root and at shallow nodes.
    /// `None` when none is found; the state must be unchanged on return. The default proves
    /// nothing.
    fn find_forced_win(&mut self, request: &ProofRequest) -> Option<ForcedWin<Self::Move>> {
        let _ = request;
        None
    }
    /// Forgets what the game keeps between searches on the calling thread (Gomoku's proof table,
    /// Chinese Checkers' race plans), so that the next search does not depend on earlier ones.
    /// The default keeps nothing.
    fn forget_thread_memory(&self) {}
}

/// A game the whole engine can play: its rules and its search hooks. Every type that implements
/// both is a `Game`; generic code outside the rules asks for this bound.
pub trait Game: SearchHooks {}

impl<T: SearchHooks> Game for T {}
