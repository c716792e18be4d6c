//! Chinese Checkers checked against a second, naive model of the rules written here from the rule
//! text alone, through the public API only.
//!
//! The model builds the star from cube coordinates (the union of two triangles of side 13),
//! numbers the holes by sorting them into rows, and generates moves by a plain search over a
//! cell array. Perft counts of the engine and of the model must agree for every player count and
//! both jump rules, from the start and from positions reached by random and greedy play.

mod star;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::{BTreeSet, HashMap};
use tabula::game::{Game, Player};
use tabula::games::chinese_checkers::ChineseCheckers;

use star::Cube;

const DIRECTIONS: [Cube; 6] = [
    (1, -1, 0),
    (-1, 1, 0),
    (1, 0, -1),
    (-1, 0, 1),
    (0, 1, -1),
    (0, -1, 1),
];

/// The star: holes in text order (hole number = index + 1) and each hole's camp (0 = centre).
struct Star {
    holes: Vec<Cube>,
    index: HashMap<Cube, usize>,
    camps: Vec<usize>,
}

impl Star {
    fn new() -> Star {
        let holes = star::holes();
        let index = holes
            .iter()
            .enumerate()
            .map(|(i, &hole)| (hole, i))
            .collect();
        let camps = holes.iter().map(|&hole| star::camp(hole)).collect();
        Star {
            holes,
            index,
            camps,
        }
    }

    fn step(&self, hole: usize, direction: Cube, times: i32) -> Option<usize> {
        let (q, r, s) = self.holes[hole];
        let target = (
            q + direction.0 * times,
            r + direction.1 * times,
            s + direction.2 * times,
        );
        self.index.get(&target).copied()
    }
}

fn start_camps(players: usize) -> Vec<usize> {
    match players {
        2 => vec![1, 4],
        3 => vec![1, 3, 5],
        4 => vec![1, 2, 4, 5],
        _ => vec![1, 2, 3, 4, 5, 6],
    }
}

fn goal_of(camp: usize) -> usize {
    match camp {
        1 => 4,
        2 => 5,
        3 => 6,
        4 => 1,
        5 => 2,
        _ => 3,
    }
}

/// The naive model of a position.
#[derive(Clone)]
struct Naive<'a> {
    star: &'a Star,
    players: usize,
    long: bool,
    /// 0 empty, otherwise seat + 1.
    cells: Vec<usize>,
    side: Player,
    finished: Vec<Player>,
}

impl<'a> Naive<'a> {
    fn from_text(star: &'a Star, players: usize, long: bool, text: &str) -> Naive<'a> {
        let fields: Vec<&str> = text.split(' ').collect();
        let cells = fields[0]
            .chars()
            .map(|c| c.to_digit(10).unwrap_or(0) as usize)
            .collect();
        let side = fields[1].parse::<usize>().unwrap() - 1;
        let finished = fields
            .get(2)
            .map(|list| {
                list.trim_start_matches("finished=")
                    .split(',')
                    .map(|n| n.parse::<usize>().unwrap() - 1)
                    .collect()
            })
            .unwrap_or_default();
        Naive {
            star,
            players,
            long,
            cells,
            side,
            finished,
        }
    }

    fn goal(&self, seat: Player) -> usize {
        goal_of(start_camps(self.players)[seat])
    }

    fn is_over(&self) -> bool {
        self.finished.len() + 1 >= self.players
    }

    /// Where a hop from `hole` in `direction` lands on `cells`, if it may.
    fn hop(&self, cells: &[usize], hole: usize, direction: Cube) -> Option<usize> {
        let reach = if self.long { 8 } else { 1 };
        for distance in 1..=reach {
            let over = self.star.step(hole, direction, distance)?;
            if cells[over] == 0 {
                continue;
            }
            for beyond in distance + 1..2 * distance {
                let between = self.star.step(hole, direction, beyond)?;
                if cells[between] != 0 {
                    return None;
                }
            }
            let landing = self.star.step(hole, direction, 2 * distance)?;
            return (cells[landing] == 0).then_some(landing);
        }
        None
    }

    fn moves(&self) -> Vec<String> {
        let mut moves = Vec::new();
        if self.is_over() {
            return moves;
        }
        let goal = self.goal(self.side);
        for origin in 0..self.cells.len() {
            if self.cells[origin] != self.side + 1 {
                continue;
            }
            let mut lifted = self.cells.clone();
            lifted[origin] = 0;
            let mut targets = BTreeSet::new();
            for direction in DIRECTIONS {
                if let Some(next) = self.star.step(origin, direction, 1) {
                    if lifted[next] == 0 {
                        targets.insert(next);
                    }
                }
            }
            let mut landed = BTreeSet::from([origin]);
            let mut stack = vec![origin];
            while let Some(hole) = stack.pop() {
                for direction in DIRECTIONS {
                    if let Some(landing) = self.hop(&lifted, hole, direction) {
                        if landed.insert(landing) {
                            targets.insert(landing);
                            stack.push(landing);
                        }
                    }
                }
            }
            for target in targets {
                let stays = self.star.camps[origin] != goal || self.star.camps[target] == goal;
                if target != origin && stays {
                    moves.push(format!("{}-{}", origin + 1, target + 1));
                }
            }
        }
        if moves.is_empty() {
            moves.push("pass".to_string());
        }
        moves
    }

    fn play(&mut self, mv: &str) {
        let mover = self.side;
        if mv != "pass" {
            let (from, to) = mv.split_once('-').unwrap();
            let from: usize = from.parse::<usize>().unwrap() - 1;
            let to: usize = to.parse::<usize>().unwrap() - 1;
            self.cells[to] = self.cells[from];
            self.cells[from] = 0;
            for seat in 0..self.players {
                if self.finished.contains(&seat) {
                    continue;
                }
                let goal = self.goal(seat);
                let camp: Vec<usize> = (0..self.cells.len())
                    .filter(|&hole| self.star.camps[hole] == goal)
                    .collect();
                let full = camp.iter().all(|&hole| self.cells[hole] != 0);
                let own = camp.iter().any(|&hole| self.cells[hole] == seat + 1);
                if full && own {
                    self.finished.push(seat);
                }
            }
        }
        self.side = (1..=self.players)
            .map(|offset| (mover + offset) % self.players)
            .find(|seat| !self.finished.contains(seat))
            .unwrap();
    }

    fn perft(&self, depth: usize) -> u64 {
        if depth == 0 || self.is_over() {
            return 1;
        }
        let moves = self.moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|mv| {
                let mut child = self.clone();
                child.play(mv);
                child.perft(depth - 1)
            })
            .sum()
    }
}

fn variant(players: usize, jumps: &str) -> ChineseCheckers {
    let options = [
        ("players".to_string(), players.to_string()),
        ("jumps".to_string(), jumps.to_string()),
    ];
    ChineseCheckers::from_options(&options).unwrap()
}

const VARIANTS: [(usize, &str); 8] = [
    (2, "standard"),
    (2, "long"),
    (3, "standard"),
    (3, "long"),
    (4, "standard"),
    (4, "long"),
    (6, "standard"),
    (6, "long"),
];

/// Checks the move lists and perft counts (to `depth`, or 2 with over 70 moves) of the engine and
/// the model on one position, and returns the count.
fn compare(star: &Star, players: usize, jumps: &str, text: &str, depth: usize) -> u64 {
    let mut engine = variant(players, jumps);
    engine.set_position_string(text).unwrap();
    let naive = Naive::from_text(star, players, jumps == "long", text);
    let mut moves = Vec::new();
    engine.generate_moves(&mut moves);
    let mut listed: Vec<String> = moves.iter().map(|&mv| engine.format_move(mv)).collect();
    listed.sort();
    let mut expected = naive.moves();
    expected.sort();
    assert_eq!(listed, expected, "moves at {text}");
    // The model is slow: one ply less where the branching is wide.
    let depth = if listed.len() > 70 {
        depth.min(2)
    } else {
        depth
    };
    let count = naive.perft(depth);
    assert_eq!(engine.perft(depth), count, "perft {depth} at {text}");
    count
}

/// Plays from the start, greedily (best ordering score, ties at random) with probability
/// `greed`, otherwise at random, and keeps the position strings every `every` plies.
fn playout(
    players: usize,
    jumps: &str,
    greed: f64,
    plies: usize,
    every: usize,
    seed: u64,
) -> Vec<String> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut position = variant(players, jumps);
    let mut kept = Vec::new();
    let mut moves = Vec::new();
    for ply in 1..=plies {
        position.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = choose(&position, &moves, greed, &mut rng);
        position.play_unchecked(mv);
        if ply % every == 0 {
            kept.push(position.position_string());
        }
    }
    let last = position.position_string();
    if kept.last() != Some(&last) {
        kept.push(last);
    }
    kept
}

/// The best move by the engine's ordering score (ties at random) with probability `greed`,
/// otherwise a random move.
fn choose(
    position: &ChineseCheckers,
    moves: &[tabula::games::chinese_checkers::ChineseCheckersMove],
    greed: f64,
    rng: &mut SmallRng,
) -> tabula::games::chinese_checkers::ChineseCheckersMove {
    if !rng.random_bool(greed) {
        return moves[rng.random_range(0..moves.len())];
    }
    let mut scores = vec![0; moves.len()];
    position.score_moves(moves, &mut scores);
    let best = *scores.iter().max().unwrap();
    let candidates: Vec<_> = moves
        .iter()
        .zip(&scores)
        .filter(|&(_, &score)| score == best)
        .map(|(&mv, _)| mv)
        .collect();
    candidates[rng.random_range(0..candidates.len())]
}

#[test]
fn numbering_matches_the_model() {
    let star = Star::new();
    let start = variant(6, "standard");
    let naive = Naive::from_text(&star, 6, false, &start.position_string());
    // Each seat starts in its camp of the model: camps clockwise from the top.
    for (hole, &cell) in naive.cells.iter().enumerate() {
        assert_eq!(cell, star.camps[hole], "hole {}", hole + 1);
    }
}

#[test]
fn perft_from_the_start() {
    let star = Star::new();
    let start = variant(2, "standard");
    let text = start.position_string();
    let expected = [1, 14, 196, 4760, 115_600];
    for (depth, &count) in expected.iter().enumerate() {
        assert_eq!(start.perft(depth), count, "depth {depth}");
    }
    assert_eq!(compare(&star, 2, "standard", &text, 4), 115_600);
    let long = variant(2, "long").position_string();
    assert_eq!(compare(&star, 2, "long", &long, 4), 145_924);
    for (players, jumps) in VARIANTS {
        let text = variant(players, jumps).position_string();
        compare(&star, players, jumps, &text, 3);
    }
}

#[test]
fn perft_from_random_play() {
    let star = Star::new();
    for (index, (players, jumps)) in VARIANTS.iter().enumerate() {
        let positions = playout(*players, jumps, 0.0, 90, 30, index as u64);
        for text in &positions {
            compare(&star, *players, jumps, text, 3);
        }
    }
}

#[test]
fn perft_from_greedy_play_into_the_end_game() {
    let star = Star::new();
    let mut finished_seen = 0;
    for (index, (players, jumps)) in VARIANTS.iter().enumerate() {
        let positions = playout(
            *players,
            jumps,
            0.85,
            110 * players,
            3 * players,
            100 + index as u64,
        );
        // The last dozen positions: goal camps filling up, players finishing one after another.
        for text in positions.iter().rev().take(12) {
            finished_seen += usize::from(text.contains("finished"));
            compare(&star, *players, jumps, text, 3);
        }
    }
    assert!(finished_seen > 0, "greedy play should finish some players");
}

#[test]
fn consistency_of_every_variant() {
    for (index, (players, jumps)) in VARIANTS.iter().enumerate() {
        let start = variant(*players, jumps);
        tabula::consistency::check_random_games(&start, 2, 120, index as u64);
    }
}

#[test]
fn consistency_into_the_end_game() {
    let mut finishing_positions = 0;
    for (index, (players, jumps)) in VARIANTS.iter().enumerate() {
        let positions = playout(*players, jumps, 0.85, 110 * players, 1, 200 + index as u64);
        // Start a little before the end of the greedy game, while it still goes on.
        for back in [4 * players, 12 * players] {
            let text = &positions[positions.len().saturating_sub(back)];
            let mut position = variant(*players, jumps);
            position.set_position_string(text).unwrap();
            assert!(position.outcome().is_none(), "{text}");
            tabula::consistency::check_random_games(&position, 3, 60, index as u64);
            // Greedy play from there should reach the end.
            let finished = playout_from(position, 0.9, 200, index as u64);
            finishing_positions += usize::from(finished.outcome().is_some());
        }
    }
    assert!(finishing_positions >= 8, "{finishing_positions}");
}

/// Greedy play from `position`, as in [`playout`], for at most `plies` plies.
fn playout_from(
    mut position: ChineseCheckers,
    greed: f64,
    plies: usize,
    seed: u64,
) -> ChineseCheckers {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut moves = Vec::new();
    for _ in 0..plies {
        position.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = choose(&position, &moves, greed, &mut rng);
        position.play_unchecked(mv);
        tabula::consistency::check_position(&position);
    }
    position
}

#[test]
fn consistency_up_to_the_move_cap() {
    for (players, jumps) in [(2, "standard"), (3, "long"), (6, "standard")] {
        let options = [
            ("players".to_string(), players.to_string()),
            ("jumps".to_string(), jumps.to_string()),
            ("max_moves".to_string(), "40".to_string()),
        ];
        let start = ChineseCheckers::from_options(&options).unwrap();
        tabula::consistency::check_random_games(&start, 2, 60, players as u64);
    }
}
