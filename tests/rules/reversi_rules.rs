//! Reversi perft: the published counts, and agreement with a naive generator written here from the
//! rules alone (a plain grid, eight direction scans, no bitboards).

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tabula::game::{Game, Rules};
use tabula::games::reversi::general::GeneralReversi;
use tabula::games::reversi::Reversi;

/// A naive board: `cells[row][column]` is 0 empty, 1 black, 2 white.
#[derive(Clone, Debug, PartialEq)]
struct Naive {
    size: usize,
    cells: Vec<Vec<u8>>,
    to_move: u8,
}

const STEPS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

impl Naive {
    fn from_position_string(text: &str, size: usize) -> Naive {
        let (board, side) = text.split_once(' ').unwrap();
        let cells: Vec<u8> = board
            .chars()
            .map(|c| match c {
                'X' => 1,
                'O' => 2,
                _ => 0,
            })
            .collect();
        Naive {
            size,
            cells: cells.chunks(size).map(|row| row.to_vec()).collect(),
            to_move: if side == "X" { 1 } else { 2 },
        }
    }

    fn captures(&self, row: usize, column: usize, colour: u8) -> Vec<(usize, usize)> {
        if self.cells[row][column] != 0 {
            return Vec::new();
        }
        let other = 3 - colour;
        let mut all = Vec::new();
        for (row_step, column_step) in STEPS {
            let mut line = Vec::new();
            let (mut r, mut c) = (row as i32 + row_step, column as i32 + column_step);
            while r >= 0 && c >= 0 && (r as usize) < self.size && (c as usize) < self.size {
                let cell = self.cells[r as usize][c as usize];
                if cell == other {
                    line.push((r as usize, c as usize));
                } else {
                    if cell == colour {
                        all.extend(line.iter().copied());
                    }
                    break;
                }
                r += row_step;
                c += column_step;
            }
        }
        all
    }

    /// Moves as "a1" text, with "pass" when only a pass is possible; empty when the game is over.
    fn moves(&self) -> Vec<String> {
        let own = self.moves_of(self.to_move);
        if !own.is_empty() {
            return own;
        }
        if self.moves_of(3 - self.to_move).is_empty() {
            Vec::new()
        } else {
            vec!["pass".to_string()]
        }
    }

    fn moves_of(&self, colour: u8) -> Vec<String> {
        let mut moves = Vec::new();
        for row in 0..self.size {
            for column in 0..self.size {
                if !self.captures(row, column, colour).is_empty() {
                    moves.push(format!("{}{}", (b'a' + column as u8) as char, row + 1));
                }
            }
        }
        moves
    }

    fn play(&mut self, mv: &str) {
        if mv != "pass" {
            let column = (mv.as_bytes()[0] - b'a') as usize;
            let row: usize = mv[1..].parse::<usize>().unwrap() - 1;
            for (r, c) in self.captures(row, column, self.to_move) {
                self.cells[r][c] = self.to_move;
            }
            self.cells[row][column] = self.to_move;
        }
        self.to_move = 3 - self.to_move;
    }

    fn perft(&self, depth: usize) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        if moves.is_empty() {
            return 1;
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

    /// The final score for black, with the empties going to the winner.
    fn black_score(&self) -> i32 {
        let count = |colour| {
            self.cells
                .iter()
                .flatten()
                .filter(|&&c| c == colour)
                .count() as i32
        };
        let (black, white) = (count(1), count(2));
        let empty = (self.size * self.size) as i32 - black - white;
        let difference = black - white;
        difference + difference.signum() * empty
    }
}

fn engine_moves<G: Game>(position: &G) -> Vec<String> {
    let mut moves = Vec::new();
    position.generate_moves(&mut moves);
    let mut text: Vec<String> = moves.iter().map(|&mv| position.format_move(mv)).collect();
    text.sort();
    text
}

/// Walks random games, comparing the engine's moves, perft and final scores with the naive rules.
fn compare_random_games<G: Game>(
    start: &G,
    size: usize,
    games: usize,
    perft_depth: usize,
    seed: u64,
) {
    let mut rng = SmallRng::seed_from_u64(seed);
    for _ in 0..games {
        let mut position = start.clone();
        loop {
            let naive = Naive::from_position_string(&position.position_string(), size);
            let mut expected = naive.moves();
            expected.sort();
            assert_eq!(
                engine_moves(&position),
                expected,
                "at {}",
                position.position_string()
            );
            if rng.random_range(0..8) == 0 {
                assert_eq!(position.perft(perft_depth), naive.perft(perft_depth));
            }
            if expected.is_empty() {
                let outcome = position.outcome().expect("no moves means the game is over");
                let black = naive.black_score();
                match outcome.winner() {
                    None => assert_eq!(black, 0),
                    Some(0) => assert_eq!(outcome.margin, black),
                    Some(_) => assert_eq!(outcome.margin, -black),
                }
                break;
            }
            let choice = &expected[rng.random_range(0..expected.len())];
            let mv = position.parse_move(choice).unwrap();
            position.try_play(mv).unwrap();
        }
    }
}

#[test]
fn published_counts_to_depth_ten() {
    let expected = [
        4u64, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284,
    ];
    let start = Reversi::new();
    for (index, &count) in expected.iter().enumerate() {
        assert_eq!(start.perft(index + 1), count, "depth {}", index + 1);
    }
}

#[test]
fn naive_rules_agree_on_the_start_position() {
    let naive = Naive::from_position_string(&Reversi::new().position_string(), 8);
    for depth in 1..=5 {
        assert_eq!(naive.perft(depth), Reversi::new().perft(depth));
    }
}

#[test]
fn naive_rules_agree_on_random_eight_by_eight_games() {
    compare_random_games(&Reversi::new(), 8, 120, 3, 11);
}

#[test]
fn naive_rules_agree_on_six_by_six_and_ten_by_ten() {
    compare_random_games(&GeneralReversi::new(6).unwrap(), 6, 100, 4, 12);
    compare_random_games(&GeneralReversi::new(10).unwrap(), 10, 15, 3, 13);
    compare_random_games(&GeneralReversi::new(4).unwrap(), 4, 50, 5, 14);
}

#[test]
fn general_and_bitboard_paths_agree_at_eight() {
    let mut rng = SmallRng::seed_from_u64(5);
    for _ in 0..40 {
        let mut fast = Reversi::new();
        let mut general = GeneralReversi::new(8).unwrap();
        for _ in 0..rng.random_range(0..50) {
            let mut moves = Vec::new();
            fast.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            fast.play_unchecked(mv);
            general.play_unchecked(mv);
        }
        assert_eq!(fast.position_string(), general.position_string());
        assert_eq!(fast.perft(3), general.perft(3));
        assert_eq!(fast.outcome(), general.outcome());
    }
}

#[test]
fn a_wipe_out_ends_the_game() {
    // The shortest games end after nine moves with one colour gone.
    let mut position = Reversi::new();
    for mv in ["e6", "f4", "e3", "f6", "g5", "d6", "e7", "f5", "c5"] {
        let parsed = position.parse_move(mv).unwrap();
        position.try_play(parsed).unwrap();
    }
    let outcome = position.outcome().expect("game over");
    assert_eq!(outcome.winner(), Some(0));
    assert_eq!(outcome.margin, 64);
}
