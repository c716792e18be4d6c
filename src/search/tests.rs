//! The search against plain minimax on a small game: with its table, aspiration windows, killers,
//! history and principal-variation windows, a fixed-depth search must find exactly the value that
//! an exhaustive minimax of the same depth finds, for two players (negamax), for three (paranoid)
//! and for best-reply search.
//!
//! The game is small enough for minimax and has at most three moves a node, so that late-move
//! reductions (which would change the value) never apply: what is tested is that the pruning, the
//! table and the move ordering change only how fast the value is found.

use super::limits::Limits;
use super::{search_with, SearchRequest, Worker, REDUCTION_MOVES};
use crate::base::score;
use crate::base::transposition::TranspositionTable;
use crate::base::zobrist::mix;
use crate::game::{
    GameError, MoveCode, MultiplayerSearch, Outcome, Player, Rules, SearchHooks, Strength,
    MAX_PLAYERS,
};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Take one, two or three stones from a shared pile; each stone taken scores a point for the
/// taker. The game ends when the pile is empty, and the seats are ranked by their scores. A seat's
/// moves can come in any order to the same position, so the table has transpositions to answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pile {
    players: usize,
    pile: u8,
    scores: [i32; MAX_PLAYERS],
    side: Player,
    /// Moves made, passes included: part of the position, so that equal positions are equally
    /// far from the root and a table entry always answers for the depth it was stored at.
    plies: u8,
    /// Whether the search's candidates leave out taking three stones, as
    /// a game with a limit on its candidates would (see `SearchHooks::left_out_moves`).
    limited: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Take {
    Stones(u8),
    /// Hands the turn on: the null move that best-reply search plays for skipped seats.
    Pass,
}

impl MoveCode for Take {
    fn code(self) -> u16 {
        match self {
            Take::Stones(count) => count as u16,
            Take::Pass => 0,
        }
    }
}

impl Pile {
    fn new(players: usize, pile: u8) -> Pile {
        Pile {
            players,
            pile,
            scores: [0; MAX_PLAYERS],
            side: 0,
            plies: 0,
            limited: false,
        }
    }
}

impl Rules for Pile {
    type Move = Take;
    type Undo = Pile;

    fn name(&self) -> &'static str {
        "pile"
    }

    fn options(&self) -> Vec<(String, String)> {
        Vec::new()
    }

    fn player_count(&self) -> usize {
        self.players
    }

    fn side_to_move(&self) -> Player {
        self.side
    }

    fn generate_moves(&self, moves: &mut Vec<Take>) {
        moves.clear();
        if self.pile > 0 {
            moves.extend((1..=3.min(self.pile)).map(Take::Stones));
        }
    }

    fn play_unchecked(&mut self, mv: Take) -> Pile {
        let before = *self;
        if let Take::Stones(count) = mv {
            self.scores[self.side] += count as i32;
            self.pile -= count;
        }
        self.side = (self.side + 1) % self.players;
        self.plies += 1;
        before
    }

    fn undo(&mut self, _mv: Take, undo: Pile) {
        *self = undo;
    }

    fn move_from_code(&self, code: u16) -> Option<Take> {
        match code {
            0 => Some(Take::Pass),
            1..=3 => Some(Take::Stones(code as u8)),
            _ => None,
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.pile > 0 {
            return None;
        }
        if self.players == 2 {
            let margin = self.scores[0] - self.scores[1];
            return Some(match margin.signum() {
                0 => Outcome::draw(2),
                1 => Outcome::win(0, margin),
                _ => Outcome::win(1, -margin),
            });
        }
        let places: Vec<u8> = (0..self.players)
            .map(|seat| {
                let better = (0..self.players)
                    .filter(|&other| self.scores[other] > self.scores[seat])
                    .count();
                better as u8 + 1
            })
            .collect();
        Some(Outcome::ranking(&places))
    }

    fn hash(&self) -> u64 {
        let mut key = mix(self.pile as u64 | (self.side as u64) << 8 | (self.plies as u64) << 16);
        for (seat, &taken) in self.scores[..self.players].iter().enumerate() {
            key = mix(key ^ (taken as u64) << (8 * seat + 24));
        }
        key
    }

    fn parse_move(&self, text: &str) -> Result<Take, GameError> {
        match text.to_ascii_lowercase().as_str() {
            "pass" => Ok(Take::Pass),
            _ => text
                .parse()
                .ok()
                .filter(|count| (1..=3).contains(count))
                .map(Take::Stones)
                .ok_or_else(|| GameError::MalformedMove(text.to_string())),
        }
    }

    fn format_move(&self, mv: Take) -> String {
        match mv {
            Take::Stones(count) => count.to_string(),
            Take::Pass => "pass".to_string(),
        }
    }

    /// `players pile side plies score,score,...`.
    fn position_string(&self) -> String {
        let scores: Vec<String> = self.scores[..self.players]
            .iter()
            .map(i32::to_string)
            .collect();
        format!(
            "{} {} {} {} {}",
            self.players,
            self.pile,
            self.side,
            self.plies,
            scores.join(",")
        )
    }

    fn set_position_string(&mut self, text: &str) -> Result<(), GameError> {
        let invalid = || GameError::InvalidPosition(text.to_string());
        let fields: Vec<&str> = text.split(' ').collect();
        let [players, pile, side, plies, scores] = fields[..] else {
            return Err(invalid());
        };
        let mut position = Pile::new(players.parse().map_err(|_| invalid())?, 0);
        position.pile = pile.parse().map_err(|_| invalid())?;
        position.side = side.parse().map_err(|_| invalid())?;
        position.plies = plies.parse().map_err(|_| invalid())?;
        for (seat, value) in scores.split(',').enumerate() {
            *position.scores.get_mut(seat).ok_or_else(invalid)? =
                value.parse().map_err(|_| invalid())?;
        }
        *self = position;
        Ok(())
    }

    fn diagram(&self) -> String {
        format!("{self:?}")
    }

    fn start_position(&self) -> Pile {
        Pile::new(self.players, 10)
    }
}

impl SearchHooks for Pile {
    /// The score lead over the best other seat, plus a little noise from the hash so that equal
    /// leads are told apart and move order matters.
    fn evaluate(&self, perspective: Player, _strength: Strength) -> i32 {
        let best_other = (0..self.players)
            .filter(|&seat| seat != perspective)
            .map(|seat| self.scores[seat])
            .max()
            .unwrap_or(0);
        let lead = 10 * (self.scores[perspective] - best_other);
        if self.players == 2 {
            // Zero-sum: the noise of one side is the other's loss.
            let noise = (mix(self.hash()) % 81) as i32 - 40;
            lead + if perspective == 0 { noise } else { -noise }
        } else {
            lead + (mix(self.hash() ^ perspective as u64) % 81) as i32 - 40
        }
    }

    fn expected_moves_left(&self) -> u32 {
        self.pile as u32
    }

    fn search_moves(&self, moves: &mut Vec<Take>) {
        self.generate_moves(moves);
        if self.limited {
            moves.retain(|&mv| mv != Take::Stones(3));
        }
    }

    fn left_out_moves(&self, moves: &mut Vec<Take>) {
        moves.clear();
        if self.limited && self.pile >= 3 {
            moves.push(Take::Stones(3));
        }
    }

    fn null_move(&self) -> Option<Take> {
        Some(Take::Pass)
    }
}

/// The value of a finished game for `seat`, `ply` plies from the root, as the search scores it.
fn terminal_for(outcome: &Outcome, seat: Player, players: usize, ply: usize) -> i32 {
    let place = outcome.place(seat) as usize;
    if players == 2 {
        return match outcome.winner() {
            None => 0,
            Some(winner) if winner == seat => score::win_in(ply, outcome.margin),
            Some(_) => -score::win_in(ply, outcome.margin),
        };
    }
    if place == 1 {
        score::win_in(ply, outcome.margin)
    } else if place >= players {
        -score::win_in(ply, outcome.margin)
    } else {
        score::middle_place(place, players)
    }
}

fn moves_of(position: &Pile) -> Vec<Take> {
    let mut moves = Vec::new();
    position.generate_moves(&mut moves);
    moves
}

/// Plain negamax: every move, no table, no window.
fn negamax(position: &Pile, depth: u32, ply: usize) -> i32 {
    let side = position.side_to_move();
    if let Some(outcome) = position.outcome() {
        return terminal_for(&outcome, side, 2, ply);
    }
    if depth == 0 {
        return position.evaluate(side, Strength::FULL);
    }
    moves_of(position)
        .into_iter()
        .map(|mv| {
            let mut child = *position;
            child.play_unchecked(mv);
            -negamax(&child, depth - 1, ply + 1)
        })
        .max()
        .expect("a game that goes on has moves")
}

/// Plain paranoid minimax, in the root player's terms: the root maximises, everyone else
/// minimises.
fn paranoid(position: &Pile, root: Player, depth: u32, ply: usize) -> i32 {
    if let Some(outcome) = position.outcome() {
        return terminal_for(&outcome, root, position.players, ply);
    }
    if depth == 0 {
        return position.evaluate(root, Strength::FULL);
    }
    let values = moves_of(position).into_iter().map(|mv| {
        let mut child = *position;
        child.play_unchecked(mv);
        paranoid(&child, root, depth - 1, ply + 1)
    });
    if position.side_to_move() == root {
        values.max()
    } else {
        values.min()
    }
    .expect("a game that goes on has moves")
}

/// Plain best-reply minimax, in the root player's terms: the root player moves; then the single
/// reply of any one opponent that is worst for the root player, the others passing, is one ply.
fn best_reply_root(position: &Pile, root: Player, depth: u32, ply: usize) -> i32 {
    if let Some(outcome) = position.outcome() {
        return terminal_for(&outcome, root, position.players, ply);
    }
    if depth == 0 {
        return position.evaluate(root, Strength::FULL);
    }
    moves_of(position)
        .into_iter()
        .map(|mv| {
            let mut child = *position;
            child.play_unchecked(mv);
            best_reply_coalition(&child, root, depth - 1, ply + 1)
        })
        .max()
        .expect("a game that goes on has moves")
}

fn best_reply_coalition(position: &Pile, root: Player, depth: u32, ply: usize) -> i32 {
    if let Some(outcome) = position.outcome() {
        return terminal_for(&outcome, root, position.players, ply);
    }
    if depth == 0 {
        return position.evaluate(root, Strength::FULL);
    }
    let mut worst = i32::MAX;
    let mut turn = *position;
    while turn.side_to_move() != root && turn.outcome().is_none() {
        for mv in moves_of(&turn) {
            let mut after = turn;
            after.play_unchecked(mv);
            while after.side_to_move() != root && after.outcome().is_none() {
                after.play_unchecked(Take::Pass);
            }
            worst = worst.min(best_reply_root(&after, root, depth - 1, ply + 1));
        }
        turn.play_unchecked(Take::Pass);
    }
    worst
}

/// The search's value at `depth` plies, with a fresh table, one thread, and three or more players
/// searched as `mode` says.
fn searched(position: &Pile, depth: u32, mode: MultiplayerSearch) -> i32 {
    searched_with(position, depth, mode, None)
}

/// [`searched`] with the selectivity `selectivity` instead of the game's.
fn searched_with(
    position: &Pile,
    depth: u32,
    mode: MultiplayerSearch,
    selectivity: Option<crate::game::Selectivity>,
) -> i32 {
    let table = TranspositionTable::new(1);
    let stop = AtomicBool::new(false);
    let mut workers: Vec<Worker<Pile>> = Vec::new();
    let request = SearchRequest {
        limits: Limits {
            depth: Some(depth),
            ..Limits::default()
        },
        selectivity,
        ..SearchRequest::default()
    };
    search_with(
        position,
        &request,
        mode,
        &table,
        &stop,
        &mut workers,
        &mut |_| {},
    )
    .score()
    .expect("a game that goes on has a best move")
}

/// Positions along a few lines of play, so that roots with every side to move are tested.
fn roots(players: usize) -> Vec<Pile> {
    let mut roots = Vec::new();
    for pile in [9, 12, 14] {
        let mut position = Pile::new(players, pile);
        roots.push(position);
        for count in [2, 1, 3] {
            position.play_unchecked(Take::Stones(count));
            roots.push(position);
        }
    }
    roots
}

// A node of the test game has three moves at most, fewer than late-move reductions wait for.
const _: () = assert!(3 < REDUCTION_MOVES);

#[test]
fn two_players_search_equals_plain_negamax() {
    for root in roots(2) {
        for depth in 1..=9 {
            assert_eq!(
                searched(&root, depth, MultiplayerSearch::Paranoid),
                negamax(&root, depth, 0),
                "depth {depth} from {root:?}"
            );
        }
    }
}

#[test]
fn three_players_paranoid_search_equals_plain_paranoid_minimax() {
    for root in roots(3) {
        let player = root.side_to_move();
        for depth in 1..=9 {
            assert_eq!(
                searched(&root, depth, MultiplayerSearch::Paranoid),
                paranoid(&root, player, depth, 0),
                "depth {depth} from {root:?}"
            );
        }
    }
}

#[test]
fn three_players_best_reply_search_equals_plain_best_reply_minimax() {
    for root in roots(3) {
        let player = root.side_to_move();
        for depth in 1..=8 {
            assert_eq!(
                searched(&root, depth, MultiplayerSearch::BestReply),
                best_reply_root(&root, player, depth, 0),
                "depth {depth} from {root:?}"
            );
        }
    }
}

/// The game plays by the generic consistency checks too, so that the tests above rest on rules
/// that hold together.
#[test]
fn the_test_game_is_consistent() {
    crate::game::consistency::check_random_games(&Pile::new(2, 10), 20, 20, 1);
    crate::game::consistency::check_random_games(&Pile::new(3, 10), 20, 20, 2);
}

/// A few searches of `position` at a fixed 200 ms a move (GTP's one move per period, the default
/// 50 ms overhead: a 150 ms hard limit), through the clock and the search as a match drives them;
/// the mean and longest wall time.
fn fixed_time_use<G: crate::game::Game>(position: &G, searches: u32) -> (Duration, Duration) {
    use crate::engine::clock::Clock;
    let mut clock = Clock::default();
    clock.set_gtp(Duration::ZERO, Duration::from_millis(200), 1);
    let limits = clock
        .budget(position.side_to_move(), 20, Duration::from_millis(50))
        .expect("a clock");
    assert!(limits.is_fixed_time(), "{limits:?}");
    let request = SearchRequest {
        limits,
        ..SearchRequest::default()
    };
    let table = TranspositionTable::new(16);
    let mut workers: Vec<Worker<G>> = Vec::new();
    let (mut total, mut longest) = (Duration::ZERO, Duration::ZERO);
    for _ in 0..searches {
        table.clear();
        let stop = AtomicBool::new(false);
        let started = Instant::now();
        let outcome = super::search(position, &request, &table, &stop, &mut workers, &mut |_| {});
        let took = started.elapsed();
        assert!(outcome.best_move().is_some());
        total += took;
        longest = longest.max(took);
    }
    (total / searches, longest)
}

/// `position` after its first `plies` search moves, so that it has choices to weigh.
fn after_first_moves<G: crate::game::Game>(mut position: G, plies: usize) -> G {
    let mut moves = Vec::new();
    for ply in 0..plies {
        moves.clear();
        position.search_moves(&mut moves);
        let mv = moves[ply % moves.len()];
        position.play_unchecked(mv);
    }
    position
}

#[test]
#[ignore = "slow tier: wall-clock time use of timed searches"]
fn a_fixed_time_per_move_is_mostly_used() {
    // Before the time manager a fixed 200 ms a move searched at most 130 ms (70 ms kept back),
    // and Piskvork's turn cap stopped at a soft limit of 6/10. Now the search aims at its 150 ms
    // hard limit: well over 60% of the move on average. On a loaded machine a search only gets
    // slower, never shorter, so the lower bound is robust; the upper bound is loose.
    let reversi = after_first_moves(crate::games::reversi::Reversi::new(), 8);
    let gomoku = after_first_moves(
        crate::games::gomoku::Gomoku::new(15, crate::games::gomoku::Rule::Freestyle)
            .expect("a board"),
        4,
    );
    for (name, (mean, longest)) in [
        ("reversi", fixed_time_use(&reversi, 5)),
        ("gomoku", fixed_time_use(&gomoku, 5)),
    ] {
        eprintln!("{name}: mean {mean:?}, longest {longest:?} of 200 ms");
        assert!(mean >= Duration::from_millis(125), "{name}: {mean:?}");
        assert!(longest < Duration::from_millis(1000), "{name}: {longest:?}");
    }
}

#[test]
fn futility_pruning_and_razoring_cut_only_outside_proven_windows() {
    use super::{futile, razored};
    use crate::game::Selectivity;
    let selectivity = Selectivity {
        futility_depth: 3,
        futility_margin: 50,
        razor_depth: 2,
        razor_margin: 40,
        ..Selectivity::default()
    };
    // Two plies left, not improving: futility needs beta + 50 (one ply after this move).
    assert!(futile(&selectivity, 150, false, 2, 0, 100));
    assert!(!futile(&selectivity, 149, false, 2, 0, 100));
    // Improving: one ply less of margin.
    assert!(futile(&selectivity, 100, true, 2, 0, 100));
    // Beyond the depth, nothing is pruned.
    assert!(!futile(&selectivity, 5000, false, 4, 0, 100));
    // Razoring: below alpha by more than 40 a ply.
    assert!(razored(&selectivity, -81, 2, 0, 1));
    assert!(!razored(&selectivity, -80, 2, 0, 1));
    assert!(!razored(&selectivity, -5000, 3, 0, 1));
    // Windows at a proven result are left to the search.
    let win = score::win_in(5, 0);
    assert!(!futile(&selectivity, 9000, false, 1, win - 1, win));
    assert!(!razored(&selectivity, -9000, 1, -win, -win + 1));
    // Nothing is on by default.
    assert!(!futile(&Selectivity::default(), 9000, true, 1, 0, 1));
    assert!(!razored(&Selectivity::default(), -9000, 1, 0, 1));
}

#[test]
fn futility_pruning_of_moves_needs_a_searched_move_and_an_open_window() {
    use super::futile_move;
    use crate::game::Selectivity;
    let selectivity = Selectivity {
        move_futility_depth: 3,
        move_futility_margin: 60,
        move_futility_hint: 60,
        ..Selectivity::default()
    };
    // Two plies left: the static value plus 120 must not pass alpha.
    assert!(futile_move(&selectivity, -20, 2, 100, 50));
    assert!(!futile_move(&selectivity, -19, 2, 100, 50));
    // Beyond the depth, nothing is skipped.
    assert!(!futile_move(&selectivity, -5000, 4, 100, 50));
    // While every move searched so far loses, the others are searched.
    let loss = -score::win_in(4, 0);
    assert!(!futile_move(&selectivity, -5000, 1, 100, loss));
    // Nor at a proven window.
    let win = score::win_in(5, 0);
    assert!(!futile_move(&selectivity, -5000, 1, win - 1, 50));
    // Nothing is on by default.
    assert!(!futile_move(&Selectivity::default(), -5000, 1, 100, 50));
}

#[test]
fn move_count_pruning_keeps_more_moves_deeper_and_when_improving() {
    use super::move_count_limit;
    let improving: Vec<usize> = (1..=6).map(|depth| move_count_limit(depth, true)).collect();
    let not: Vec<usize> = (1..=6)
        .map(|depth| move_count_limit(depth, false))
        .collect();
    assert_eq!(improving, [4, 5, 7, 9, 11, 13]);
    assert_eq!(not, [2, 2, 3, 4, 5, 6]);
}

#[test]
fn late_move_reductions_grow_with_depth_and_move_number() {
    use super::late_move_reduction;
    use crate::game::Selectivity;
    // The default: one ply, two for moves far down the list at depth 6 or more.
    let default = Selectivity::default();
    assert_eq!(late_move_reduction(&default, 3, 4), 1);
    assert_eq!(late_move_reduction(&default, 8, 11), 1);
    assert_eq!(late_move_reduction(&default, 8, 12), 2);
    assert_eq!(late_move_reduction(&default, 5, 20), 1);
    // Logarithmic: ln(depth) ln(move number) x 0.75, at least one ply, the child keeping one.
    let logarithmic = Selectivity {
        reduction_scale: 75,
        ..Selectivity::default()
    };
    assert_eq!(late_move_reduction(&logarithmic, 3, 4), 1);
    assert_eq!(late_move_reduction(&logarithmic, 8, 4), 2);
    assert_eq!(late_move_reduction(&logarithmic, 8, 9), 3);
    assert_eq!(late_move_reduction(&logarithmic, 16, 15), 5);
    assert_eq!(late_move_reduction(&logarithmic, 4, 40), 2);
    let reductions: Vec<i32> = (3..=16)
        .map(|depth| late_move_reduction(&logarithmic, depth, 10))
        .collect();
    assert!(reductions.windows(2).all(|pair| pair[0] <= pair[1]));
}

#[test]
fn internal_reduction_takes_a_ply_from_deep_nodes_without_a_table_move() {
    use super::internal_reduction;
    use crate::game::Selectivity;
    let selectivity = Selectivity {
        internal_reduction_depth: 4,
        ..Selectivity::default()
    };
    assert_eq!(internal_reduction(&selectivity, 4, false), 1);
    assert_eq!(internal_reduction(&selectivity, 9, false), 1);
    // Shallower nodes, and nodes the table has a move for, keep their depth.
    assert_eq!(internal_reduction(&selectivity, 3, false), 0);
    assert_eq!(internal_reduction(&selectivity, 9, true), 0);
    // Off by default.
    assert_eq!(internal_reduction(&Selectivity::default(), 9, false), 0);
}

#[test]
fn the_aspiration_window_changes_the_work_not_the_value() {
    use super::aspiration_window;
    use crate::game::Selectivity;
    // Windows far narrower and far wider than the test game's values move by between iterations
    // (tens of points): the re-searches after a failed window still end on the exact value.
    for window in [1, 7, 1000] {
        let selectivity = Selectivity {
            aspiration_window: window,
            ..Selectivity::default()
        };
        assert_eq!(aspiration_window(&selectivity), window);
        for root in roots(2) {
            for depth in 4..=9 {
                assert_eq!(
                    searched_with(&root, depth, MultiplayerSearch::Paranoid, Some(selectivity)),
                    negamax(&root, depth, 0),
                    "window {window}, depth {depth} from {root:?}"
                );
            }
        }
    }
    // 0 is the search's own default.
    assert_eq!(
        aspiration_window(&Selectivity::default()),
        super::ASPIRATION_WINDOW
    );
}

#[test]
fn a_loss_over_the_candidates_alone_is_not_claimed_as_proven() {
    use crate::game::{LeftOutLosses, Selectivity};
    let unproven = Selectivity {
        left_out_losses: LeftOutLosses::Unproven,
        ..Selectivity::default()
    };
    let mut false_losses = 0;
    for pile in 2..=9 {
        for lead in -3..=3 {
            let mut root = Pile::new(2, pile);
            root.scores[0] = lead.max(0);
            root.scores[1] = (-lead).max(0);
            let exact = negamax(&root, 12, 0);
            root.limited = true;
            let plain = searched_with(&root, 12, MultiplayerSearch::Paranoid, None);
            if plain <= -score::WIN_THRESHOLD && exact > -score::WIN_THRESHOLD {
                false_losses += 1;
            }
            // A claimed loss must be a loss over every move.
            let value = searched_with(&root, 12, MultiplayerSearch::Paranoid, Some(unproven));
            if value <= -score::WIN_THRESHOLD {
                assert!(exact <= -score::WIN_THRESHOLD, "pile {pile}, lead {lead}");
            }
        }
    }
    // Without it the limit makes the search claim losses that are not there.
    assert!(false_losses > 0);
}
