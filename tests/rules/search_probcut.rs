//! ProbCut in the generic search: a game's model only changes the search through the cuts it
//! makes, and Othello's calibrated model saves nodes.

use std::sync::atomic::AtomicBool;
use tabula::base::transposition::TranspositionTable;
use tabula::game::{Game, GameError, Player, ProbCut, Rules, SearchHooks, Strength};
use tabula::games::reversi::{bench_positions, Reversi, ReversiMove, ReversiUndo};
use tabula::search::limits::Limits;
use tabula::search::{self, SearchOutcome, SearchRequest, Worker};

/// Reversi with a ProbCut model chosen by the test instead of its own.
#[derive(Clone, Debug, PartialEq)]
struct Modelled {
    inner: Reversi,
    model: Option<ProbCut>,
}

impl Rules for Modelled {
    type Move = ReversiMove;

    type Undo = ReversiUndo;

    fn name(&self) -> &'static str {
        self.inner.name()
    }

    fn options(&self) -> Vec<(String, String)> {
        self.inner.options()
    }

    fn player_count(&self) -> usize {
        2
    }

    fn side_to_move(&self) -> Player {
        self.inner.side_to_move()
    }

    fn generate_moves(&self, moves: &mut Vec<ReversiMove>) {
        self.inner.generate_moves(moves);
    }

    fn play_unchecked(&mut self, mv: ReversiMove) -> ReversiUndo {
        self.inner.play_unchecked(mv)
    }

    fn undo(&mut self, mv: ReversiMove, undo: ReversiUndo) {
        self.inner.undo(mv, undo);
    }

    fn forced_pass(&self) -> Option<ReversiMove> {
        self.inner.forced_pass()
    }

    fn move_from_code(&self, code: u16) -> Option<ReversiMove> {
        self.inner.move_from_code(code)
    }

    fn outcome(&self) -> Option<tabula::game::Outcome> {
        self.inner.outcome()
    }

    fn hash(&self) -> u64 {
        self.inner.hash()
    }

    fn parse_move(&self, text: &str) -> Result<ReversiMove, GameError> {
        self.inner.parse_move(text)
    }

    fn format_move(&self, mv: ReversiMove) -> String {
        self.inner.format_move(mv)
    }

    fn position_string(&self) -> String {
        self.inner.position_string()
    }

    fn set_position_string(&mut self, text: &str) -> Result<(), GameError> {
        self.inner.set_position_string(text)
    }

    fn diagram(&self) -> String {
        self.inner.diagram()
    }

    fn start_position(&self) -> Self {
        Modelled {
            inner: self.inner.start_position(),
            model: self.model,
        }
    }
}

impl SearchHooks for Modelled {
    fn evaluate(&self, perspective: Player, strength: Strength) -> i32 {
        self.inner.evaluate(perspective, strength)
    }

    fn score_moves(&self, moves: &[ReversiMove], scores: &mut [i32]) {
        self.inner.score_moves(moves, scores);
    }

    fn expected_moves_left(&self) -> u32 {
        self.inner.expected_moves_left()
    }

    fn probcut(&self, depth: u32) -> Option<ProbCut> {
        self.model
            .filter(|model| model.shallow_depth + 2 <= depth)
            .map(|model| ProbCut {
                shallow_depth: depth - 2,
                ..model
            })
    }
}

fn search_to<G: Game>(position: &G, depth: u32, probcut: bool) -> SearchOutcome<G::Move> {
    let table = TranspositionTable::new(16);
    let mut workers: Vec<Worker<G>> = Vec::new();
    let request = SearchRequest {
        limits: Limits {
            depth: Some(depth),
            ..Limits::default()
        },
        probcut,
        ..SearchRequest::default()
    };
    search::search(
        position,
        &request,
        &table,
        &AtomicBool::new(false),
        &mut workers,
        &mut |_| {},
    )
}

fn modelled(inner: Reversi, sigma: f64) -> Modelled {
    Modelled {
        inner,
        model: Some(ProbCut {
            shallow_depth: 1,
            slope: 1.0,
            intercept: 0.0,
            sigma,
        }),
    }
}

#[test]
fn a_model_that_can_never_cut_changes_nothing() {
    // A margin beyond any evaluation: no probe is searched, so the tree is the one without ProbCut.
    for inner in bench_positions().into_iter().take(6) {
        let plain = search_to(&inner, 7, false);
        let never = search_to(&modelled(inner.clone(), 1.0e9), 7, true);
        assert_eq!(never.nodes, plain.nodes, "{}", inner.position_string());
        assert_eq!(never.best_move(), plain.best_move());
        assert_eq!(never.score(), plain.score());
    }
}

#[test]
fn probcut_off_ignores_the_model() {
    for inner in bench_positions().into_iter().take(6) {
        let plain = search_to(&inner, 7, false);
        let off = search_to(&modelled(inner, 0.0), 7, false);
        assert_eq!(off.nodes, plain.nodes);
        assert_eq!(off.score(), plain.score());
    }
}

#[test]
fn a_tight_model_cuts_nodes() {
    // With no margin at all, a probe two plies shallower decides most non-PV nodes.
    let (mut plain_nodes, mut cut_nodes) = (0, 0);
    for inner in bench_positions().into_iter().take(6) {
        let plain = search_to(&inner, 8, false);
        let cut = search_to(&modelled(inner, 0.0), 8, true);
        assert!(cut.best_move().is_some());
        plain_nodes += plain.nodes;
        cut_nodes += cut.nodes;
    }
    assert!(cut_nodes < plain_nodes, "{cut_nodes} against {plain_nodes}");
}

#[test]
fn othellos_calibrated_model_saves_nodes_at_depth_ten() {
    let (mut plain_nodes, mut cut_nodes) = (0, 0);
    for position in bench_positions() {
        let plain = search_to(&position, 10, false);
        let cut = search_to(&position, 10, true);
        let mut legal = Vec::new();
        position.generate_moves(&mut legal);
        assert!(legal.contains(&cut.best_move().expect("a move")));
        plain_nodes += plain.nodes;
        cut_nodes += cut.nodes;
    }
    assert!(
        cut_nodes * 2 < plain_nodes,
        "{cut_nodes} against {plain_nodes}"
    );
}
