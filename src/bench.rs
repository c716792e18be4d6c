//! `tabula bench`: a fixed set of positions per game searched to a fixed depth.
//!
//! The total node count is a signature of the search: it changes only when the search, the move
//! ordering or the evaluation changes. Time and nodes per second measure speed; with more than
//! one thread the node count is no longer deterministic, but the time to reach the depth shows the
//! parallel speed-up.

use crate::engine::Score;
use crate::game::{Game, ScoreUnit, Strength};
use crate::games::chinese_checkers::ChineseCheckers;
use crate::games::gomoku::Gomoku;
use crate::games::reversi::Reversi;
use crate::search::{self, SearchRequest, Worker};
use crate::time_management::Limits;
use crate::transposition::TranspositionTable;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Reversi openings: plies of a fixed pseudo-random playout from the start, with its seed.
const REVERSI_OPENINGS: &[(usize, u64)] = &[(0, 0), (2, 1), (8, 2), (12, 3), (16, 4), (24, 5)];

/// Reversi middle games: the FFO #40-#44 boards, 20-23 empties.
const REVERSI_POSITIONS: &[&str] = &[
    "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X",
    "-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O- X",
    "--OOO-------XX-OOOOOOXOO-OOOOXOOX-OOOXXO---OOXOO---OOOXO--OOOO-- X",
    "--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX- O",
    "--O-X-O---O-XO-O-OOXXXOOOOOOXXXOOOOOXX--XXOOXO----XXXX-----XXX-- O",
];

/// Gomoku openings, as move sequences on 15x15 freestyle and renju.
const GOMOKU_OPENINGS: &[&str] = &[
    "h8",
    "h8 i9 j8",
    "h8 i8 h9 h7 g9 f10 i10",
    "h8 i9 i8 g8 j7 k6 j8 j9 k8",
    "h8 h9 i10 g8 j11 k12 g10 i7 f9",
];

/// One benchmark position's result.
#[derive(Clone, Debug)]
pub struct BenchLine {
    /// The game and position index, e.g. `reversi #3`.
    pub label: String,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// The best move found.
    pub best_move: String,
    /// Its score.
    pub score: Option<Score>,
    /// The unit of the game's scores.
    pub unit: ScoreUnit,
}

/// Benchmark settings.
#[derive(Clone, Debug)]
pub struct BenchSettings {
    /// Search threads.
    pub threads: usize,
    /// Table size in MB.
    pub hash_megabytes: usize,
    /// Depth override for every game (otherwise each game's default).
    pub depth: Option<u32>,
    /// Only this game, if set.
    pub game: Option<String>,
}

fn run_positions<G: Game>(
    name: &str,
    positions: &[G],
    depth: u32,
    settings: &BenchSettings,
    lines: &mut Vec<BenchLine>,
) {
    let table = TranspositionTable::new(settings.hash_megabytes);
    let mut workers: Vec<Worker<G>> = Vec::new();
    for (index, position) in positions.iter().enumerate() {
        // Each position starts afresh, so that the node count does not depend on the order.
        table.clear();
        workers.clear();
        let stop = AtomicBool::new(false);
        let request = SearchRequest {
            limits: Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            threads: settings.threads,
            strength: Strength::FULL,
            multi_pv: 1,
            instant_single_move: false,
        };
        let start = Instant::now();
        let outcome = search::search(position, &request, &table, &stop, &mut workers, &mut |_| {});
        let elapsed = start.elapsed();
        let (best_move, score) = match (outcome.best_move(), outcome.score()) {
            (Some(mv), Some(score)) => (
                position.format_move(mv),
                Some(Score::from_search(score, position.score_unit())),
            ),
            _ => ("-".to_string(), None),
        };
        lines.push(BenchLine {
            label: format!("{name} #{}", index + 1),
            nodes: outcome.nodes,
            elapsed,
            best_move,
            score,
            unit: position.score_unit(),
        });
    }
}

/// Plays a move sequence from `start`; panics on an illegal move (the sequences are fixed).
fn replay<G: Game>(start: &G, moves: &str) -> G {
    let mut position = start.clone();
    for text in moves.split_whitespace() {
        let mv = position.parse_move(text).expect("a bench move parses");
        position.try_play(mv).expect("a bench move is legal");
    }
    position
}

/// Positions reached by a fixed pseudo-random playout of `plies` plies.
fn playout<G: Game>(start: &G, plies: usize, seed: u64) -> G {
    let mut position = start.clone();
    let mut moves = Vec::new();
    for ply in 0..plies {
        position.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let pick = crate::zobrist::mix(seed ^ ply as u64) as usize % moves.len();
        position.play_unchecked(moves[pick]);
    }
    position
}

/// Runs the benchmark and returns one line per position.
pub fn run(settings: &BenchSettings) -> Vec<BenchLine> {
    let wanted = |game: &str| settings.game.as_deref().is_none_or(|filter| filter == game);
    let mut lines = Vec::new();
    if wanted("reversi") {
        let mut positions: Vec<Reversi> = REVERSI_OPENINGS
            .iter()
            .map(|&(plies, seed)| playout(&Reversi::new(), plies, seed))
            .collect();
        positions.extend(REVERSI_POSITIONS.iter().map(|text| {
            let mut position = Reversi::new();
            position
                .set_position_string(text)
                .expect("bench positions are valid");
            position
        }));
        run_positions(
            "reversi",
            &positions,
            settings.depth.unwrap_or(13),
            settings,
            &mut lines,
        );
    }
    if wanted("gomoku") {
        let mut positions = Vec::new();
        for rule in ["freestyle", "renju"] {
            let options = [("rule".to_string(), rule.to_string())];
            let start = Gomoku::from_options(&options).expect("gomoku bench rule");
            positions.extend(GOMOKU_OPENINGS.iter().map(|moves| replay(&start, moves)));
        }
        run_positions(
            "gomoku",
            &positions,
            settings.depth.unwrap_or(6),
            settings,
            &mut lines,
        );
    }
    if wanted("chinese-checkers") {
        let mut positions = Vec::new();
        for players in ["2", "3", "6"] {
            let options = [("players".to_string(), players.to_string())];
            let start = ChineseCheckers::from_options(&options).expect("chinese checkers bench");
            positions.push(start.clone());
            positions.push(playout(&start, 30, 7));
        }
        run_positions(
            "chinese-checkers",
            &positions,
            settings.depth.unwrap_or(6),
            settings,
            &mut lines,
        );
    }
    lines
}
