//! The Gomoku rules checked against a second, naive implementation written here from the rule
//! definitions: it scans the board from scratch for every question, finds fours as distinct sets of
//! four stones, and finds renju's forbidden points by brute force with the recursive three (a three
//! is real only when a point that makes it a straight four is itself not forbidden). Only the
//! engine's public API is used.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeSet;
use tabula::game::{Outcome, Rules, SearchHooks};
use tabula::games::gomoku::{Gomoku, GomokuMove, Rule};

const STEPS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
const RULES: [Rule; 3] = [Rule::Freestyle, Rule::Standard, Rule::Renju];
const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;

type Point = (i32, i32);

/// Why the naive rules forbid a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Overline,
    DoubleFour,
    DoubleThree,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Overline => "overline",
            Kind::DoubleFour => "double-four",
            Kind::DoubleThree => "double-three",
        }
    }
}

#[derive(Clone)]
struct Naive {
    size: i32,
    rule: Rule,
    /// `board[y][x]`, `y` from the top.
    board: Vec<Vec<u8>>,
    side: usize,
    winner: Option<usize>,
    stones: usize,
    /// Threes found false because every completion point was forbidden: a statistic.
    false_threes: usize,
}

impl Naive {
    fn new(size: usize, rule: Rule) -> Naive {
        Naive {
            size: size as i32,
            rule,
            board: vec![vec![EMPTY; size]; size],
            side: 0,
            winner: None,
            stones: 0,
            false_threes: 0,
        }
    }

    fn at(&self, (x, y): Point) -> Option<u8> {
        let inside = (0..self.size).contains(&x) && (0..self.size).contains(&y);
        inside.then(|| self.board[y as usize][x as usize])
    }

    fn set(&mut self, (x, y): Point, value: u8) {
        self.board[y as usize][x as usize] = value;
    }

    /// Every point of the whole line through `point` along `step`, in order.
    fn line(&self, point: Point, (dx, dy): Point) -> Vec<Point> {
        let mut start = point;
        while self.at((start.0 - dx, start.1 - dy)).is_some() {
            start = (start.0 - dx, start.1 - dy);
        }
        let mut points = Vec::new();
        let mut current = start;
        while self.at(current).is_some() {
            points.push(current);
            current = (current.0 + dx, current.1 + dy);
        }
        points
    }

    /// The maximal run of `colour` through `point` along `step`, in order.
    fn run(&self, point: Point, step: Point, colour: u8) -> Vec<Point> {
        let line = self.line(point, step);
        let index = line.iter().position(|&p| p == point).unwrap();
        let mut low = index;
        while low > 0 && self.at(line[low - 1]) == Some(colour) {
            low -= 1;
        }
        let mut high = index;
        while high + 1 < line.len() && self.at(line[high + 1]) == Some(colour) {
            high += 1;
        }
        line[low..=high].to_vec()
    }

    fn winning_length(&self, colour: u8, length: usize) -> bool {
        match self.rule {
            Rule::Freestyle => length >= 5,
            Rule::Standard => length == 5,
            Rule::Renju if colour == BLACK => length == 5,
            Rule::Renju => length >= 5,
        }
    }

    fn wins_at(&self, point: Point, colour: u8) -> bool {
        STEPS
            .iter()
            .any(|&step| self.winning_length(colour, self.run(point, step, colour).len()))
    }

    fn full(&self) -> bool {
        self.stones == (self.size * self.size) as usize
    }

    fn over(&self) -> bool {
        self.winner.is_some() || self.full()
    }

    fn play(&mut self, point: Point) {
        assert_eq!(self.at(point), Some(EMPTY));
        let colour = self.side as u8 + 1;
        self.set(point, colour);
        self.stones += 1;
        if self.wins_at(point, colour) {
            self.winner = Some(self.side);
        }
        self.side ^= 1;
    }

    /// Every empty point, in index order (`y * size + x`).
    fn empties(&self) -> Vec<Point> {
        let mut points = Vec::new();
        for y in 0..self.size {
            for x in 0..self.size {
                if self.at((x, y)) == Some(EMPTY) {
                    points.push((x, y));
                }
            }
        }
        points
    }

    fn legal_moves(&mut self) -> Vec<Point> {
        if self.over() {
            return Vec::new();
        }
        let points = self.empties();
        if self.rule == Rule::Renju && self.side == 0 {
            points
                .into_iter()
                .filter(|&point| self.forbidden(point).is_none())
                .collect()
        } else {
            points
        }
    }

    fn forbidden_points(&mut self) -> Vec<(Point, Kind)> {
        if self.rule != Rule::Renju || self.side != 0 || self.over() {
            return Vec::new();
        }
        self.empties()
            .into_iter()
            .filter_map(|point| self.forbidden(point).map(|kind| (point, kind)))
            .collect()
    }

    /// Whether black on the empty `point` is forbidden, with the board as it is.
    fn forbidden(&mut self, point: Point) -> Option<Kind> {
        self.set(point, BLACK);
        let kind = self.classify(point);
        self.set(point, EMPTY);
        kind
    }

    /// Classifies the black stone on `point`.
    fn classify(&mut self, point: Point) -> Option<Kind> {
        let runs: Vec<usize> = STEPS
            .iter()
            .map(|&step| self.run(point, step, BLACK).len())
            .collect();
        if runs.contains(&5) {
            return None;
        }
        if runs.iter().any(|&length| length > 5) {
            return Some(Kind::Overline);
        }
        let fours: Vec<usize> = STEPS.iter().map(|&step| self.fours(point, step)).collect();
        if fours.iter().sum::<usize>() >= 2 {
            return Some(Kind::DoubleFour);
        }
        let mut threes = 0;
        for (index, &step) in STEPS.iter().enumerate() {
            if fours[index] == 0 && self.is_three(point, step) {
                threes += 1;
            }
        }
        (threes >= 2).then_some(Kind::DoubleThree)
    }

    /// The fours through the black stone on `point`: distinct sets of four stones that one more
    /// black stone turns into exactly five including `point`.
    fn fours(&mut self, point: Point, step: Point) -> usize {
        let mut fours = BTreeSet::new();
        for completion in self.line(point, step) {
            if self.at(completion) != Some(EMPTY) {
                continue;
            }
            self.set(completion, BLACK);
            let run = self.run(completion, step, BLACK);
            if run.len() == 5 && run.contains(&point) {
                let stones: Vec<Point> = run.into_iter().filter(|&p| p != completion).collect();
                fours.insert(stones);
            }
            self.set(completion, EMPTY);
        }
        fours.len()
    }

    /// Whether the black stone on `point` makes a three along `step`: some empty point makes a
    /// straight four through `point` and is itself not forbidden.
    fn is_three(&mut self, point: Point, step: Point) -> bool {
        for completion in self.line(point, step) {
            if self.at(completion) != Some(EMPTY) {
                continue;
            }
            self.set(completion, BLACK);
            let straight = self.straight_four(point, completion, step);
            self.set(completion, EMPTY);
            if straight {
                if self.forbidden(completion).is_none() {
                    return true;
                }
                self.false_threes += 1;
            }
        }
        false
    }

    /// Whether four black stones in a row through `point` and `completion` have both ends empty,
    /// each end making exactly five.
    fn straight_four(&mut self, point: Point, completion: Point, step: Point) -> bool {
        let run = self.run(point, step, BLACK);
        if run.len() != 4 || !run.contains(&completion) {
            return false;
        }
        let first = run[0];
        let last = run[3];
        let ends = [
            (first.0 - step.0, first.1 - step.1),
            (last.0 + step.0, last.1 + step.1),
        ];
        ends.iter().all(|&end| {
            if self.at(end) != Some(EMPTY) {
                return false;
            }
            self.set(end, BLACK);
            let five = self.run(end, step, BLACK).len() == 5;
            self.set(end, EMPTY);
            five
        })
    }

    /// Black to move under renju with every empty point forbidden: no legal move is left.
    fn stuck(&mut self) -> bool {
        if self.rule != Rule::Renju || self.side != 0 || self.over() {
            return false;
        }
        let points = self.empties();
        points
            .into_iter()
            .all(|point| self.forbidden(point).is_some())
    }

    /// A win, or a draw when the board is full or black is stuck on forbidden points.
    fn outcome(&mut self) -> Option<Outcome> {
        if let Some(winner) = self.winner {
            return Some(Outcome::win(winner, 0));
        }
        (self.full() || self.stuck()).then(|| Outcome::draw(2))
    }

    fn perft(&mut self, depth: usize) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if moves.is_empty() {
            return 1;
        }
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|mv| {
                let mut child = self.clone();
                child.play(mv);
                child.perft(depth - 1)
            })
            .sum()
    }
}

fn to_move(game: &Gomoku, (x, y): Point) -> GomokuMove {
    game.from_gomocup(x as usize, y as usize).unwrap()
}

fn to_point(game: &Gomoku, mv: GomokuMove) -> Point {
    let (x, y) = game.to_gomocup(mv);
    (x as i32, y as i32)
}

/// Both implementations after the same moves, written in renju notation.
fn replay(size: usize, rule: Rule, moves: &[&str]) -> (Gomoku, Naive) {
    let mut game = Gomoku::new(size, rule).unwrap();
    let mut naive = Naive::new(size, rule);
    for text in moves {
        let mv = game.parse_move(text).unwrap();
        naive.play(to_point(&game, mv));
        game.try_play(mv)
            .unwrap_or_else(|error| panic!("{text}: {error}"));
    }
    (game, naive)
}

/// Both implementations with stones set directly (black to move, so the counts must be equal).
fn setup(size: usize, rule: Rule, black: &[&str], white: &[&str]) -> (Gomoku, Naive) {
    assert_eq!(black.len(), white.len());
    let mut moves = Vec::new();
    for (b, w) in black.iter().zip(white) {
        moves.push(*b);
        moves.push(*w);
    }
    // Placing by board text avoids any rule on the way there.
    let mut game = Gomoku::new(size, rule).unwrap();
    let mut naive = Naive::new(size, rule);
    let mut rows = vec![vec!['.'; size]; size];
    for (index, text) in moves.iter().enumerate() {
        let (x, y) = game.to_gomocup(game.parse_move(text).unwrap());
        let colour = if index % 2 == 0 { BLACK } else { WHITE };
        rows[y][x] = if colour == BLACK { 'x' } else { 'o' };
        naive.set((x as i32, y as i32), colour);
        naive.stones += 1;
    }
    let text: Vec<String> = rows.iter().map(|row| row.iter().collect()).collect();
    game.set_position_string(&format!("{} x", text.join("/")))
        .unwrap();
    (game, naive)
}

/// Compares everything the two implementations can say about one position.
fn compare(game: &Gomoku, naive: &mut Naive) -> Vec<(Point, Kind)> {
    let context = game.position_string();
    assert_eq!(game.side_to_move(), naive.side, "{context}");
    assert_eq!(game.outcome(), naive.outcome(), "{context}");
    let mut moves = Vec::new();
    game.generate_moves(&mut moves);
    let engine: Vec<Point> = moves.iter().map(|&mv| to_point(game, mv)).collect();
    let expected = naive.legal_moves();
    assert_eq!(engine, expected, "legal moves at {context}");

    let forbidden = naive.forbidden_points();
    let engine_forbidden: Vec<Point> = game
        .forbidden_moves()
        .iter()
        .map(|&mv| to_point(game, mv))
        .collect();
    let naive_points: Vec<Point> = forbidden.iter().map(|&(point, _)| point).collect();
    assert_eq!(
        engine_forbidden, naive_points,
        "forbidden points at {context}"
    );
    for &(point, kind) in &forbidden {
        let reason = game.illegal_reason(to_move(game, point));
        assert_eq!(
            reason,
            format!("forbidden for black: {}", kind.name()),
            "{context}"
        );
    }

    if naive.outcome().is_none() {
        // The search's candidates: the winning points, else the legal blocks, else non-empty.
        let mut candidates = Vec::new();
        game.search_moves(&mut candidates);
        assert!(!candidates.is_empty(), "{context}");
        assert!(
            candidates.iter().all(|&mv| moves.contains(&mv)),
            "{context}"
        );
        let colour = naive.side as u8 + 1;
        let mut winning_points = |colour: u8| -> Vec<Point> {
            let mut points = Vec::new();
            for point in naive.empties() {
                naive.set(point, colour);
                if naive.wins_at(point, colour) {
                    points.push(point);
                }
                naive.set(point, EMPTY);
            }
            points
        };
        let wins = winning_points(colour);
        let mut blocks = winning_points(3 - colour);
        blocks.retain(|point| expected.contains(point));
        let engine_candidates: Vec<Point> =
            candidates.iter().map(|&mv| to_point(game, mv)).collect();
        if !wins.is_empty() {
            assert_eq!(engine_candidates, wins, "winning moves at {context}");
        } else if blocks.len() == 1 {
            assert_eq!(engine_candidates, blocks, "blocks at {context}");
        } else if blocks.len() > 1 {
            // Two fives to stop: the game is lost and one block is listed.
            assert_eq!(engine_candidates.len(), 1, "blocks at {context}");
            assert!(
                blocks.contains(&engine_candidates[0]),
                "blocks at {context}"
            );
        }
        let value = game.evaluate(0, tabula::game::Strength::FULL);
        assert!(
            value.abs() < tabula::base::score::MAX_EVALUATION,
            "{context}"
        );
    }
    forbidden
}

fn assert_perft(game: &Gomoku, naive: &Naive, depth: usize) {
    let engine = game.perft(depth);
    let expected = naive.clone().perft(depth);
    if engine != expected {
        let mut start = game.clone();
        for (mv, leaves) in tabula::game::perft::divide(&mut start, depth) {
            let mut child = naive.clone();
            child.play(to_point(game, mv));
            let naive_leaves = child.perft(depth - 1);
            assert_eq!(
                leaves,
                naive_leaves,
                "below {} at {}",
                game.format_move(mv),
                game.position_string()
            );
        }
    }
    assert_eq!(
        engine,
        expected,
        "perft({depth}) at {}",
        game.position_string()
    );
}

#[test]
fn perft_from_the_empty_board_matches_the_naive_rules() {
    for rule in RULES {
        for (size, depth) in [(5, 4), (6, 3), (7, 3)] {
            let (game, naive) = replay(size, rule, &[]);
            assert_perft(&game, &naive, depth);
        }
    }
    let (game, _) = replay(15, Rule::Freestyle, &[]);
    assert_eq!(game.perft(2), 225 * 224);
}

/// Renju positions with forbidden points, black to move, as black and white stones.
fn renju_positions() -> Vec<(Vec<&'static str>, Vec<&'static str>)> {
    vec![
        // A double-three at h8.
        (vec!["h9", "h10", "i8", "j8"], vec!["a1", "c1", "e1", "g1"]),
        // A double-four on one line at g8 (X.XXX.X).
        (
            vec!["d8", "f8", "h8", "j8", "h9", "h10"],
            vec!["a1", "c1", "e1", "g1", "a3", "c3"],
        ),
        // An overline point, and a false three whose completion j8 is an overline.
        (
            vec!["h9", "h10", "i8", "k8", "j6", "j7", "j9", "j10", "j11"],
            vec!["a1", "c1", "e1", "g1", "a3", "c3", "e3", "g3", "a5"],
        ),
        // A false three whose completion j8 is a four-three-three.
        (
            vec!["h9", "h10", "i8", "k8", "j9", "j10", "k9", "l10"],
            vec!["a1", "c1", "e1", "g1", "a3", "c3", "e3", "g3"],
        ),
        // A crowded cluster with fives, fours and threes about.
        (
            vec!["f6", "g7", "h8", "g8", "f8", "h6", "j8", "g5", "e7", "i6"],
            vec!["e5", "i9", "d8", "h7", "f9", "k8", "g9", "j5", "e9", "c9"],
        ),
    ]
}

#[test]
fn perft_through_forbidden_points_matches_the_naive_rules() {
    let mut forbidden_seen = 0;
    for (black, white) in renju_positions() {
        let (game, mut naive) = setup(15, Rule::Renju, &black, &white);
        forbidden_seen += compare(&game, &mut naive).len();
        assert_perft(&game, &naive, 2);
        // White to move one ply down, next to the stones: depth 2 checks black's forbidden
        // points in every child.
        let mut moves = Vec::new();
        game.search_moves(&mut moves);
        for &mv in moves.iter().take(1) {
            let mut child = game.clone();
            child.play_unchecked(mv);
            let mut naive_child = naive.clone();
            naive_child.play(to_point(&game, mv));
            assert_perft(&child, &naive_child, 2);
        }
    }
    assert!(forbidden_seen >= 5, "{forbidden_seen}");
}

/// A random game biased toward crowding: black mostly plays next to its own stones.
fn random_game(
    size: usize,
    rule: Rule,
    rng: &mut SmallRng,
    mut visit: impl FnMut(&Gomoku, &mut Naive),
) {
    let mut game = Gomoku::new(size, rule).unwrap();
    let mut naive = Naive::new(size, rule);
    loop {
        visit(&game, &mut naive);
        let mut moves = Vec::new();
        game.generate_moves(&mut moves);
        if moves.is_empty() {
            return;
        }
        let own = game.side_to_move() as u8 + 1;
        let crowded: Vec<GomokuMove> = moves
            .iter()
            .copied()
            .filter(|&mv| {
                let (x, y) = to_point(&game, mv);
                STEPS.iter().any(|&(dx, dy)| {
                    naive.at((x + dx, y + dy)) == Some(own)
                        || naive.at((x - dx, y - dy)) == Some(own)
                })
            })
            .collect();
        let crowd = if own == BLACK { 0.85 } else { 0.4 };
        let mv = if !crowded.is_empty() && rng.random_bool(crowd) {
            crowded[rng.random_range(0..crowded.len())]
        } else {
            moves[rng.random_range(0..moves.len())]
        };
        naive.play(to_point(&game, mv));
        game.play_unchecked(mv);
    }
}

#[test]
fn random_positions_agree_with_the_naive_rules() {
    let mut rng = SmallRng::seed_from_u64(2024);
    let mut positions = 0;
    let mut kinds = [0usize; 3];
    let mut false_threes = 0;
    let mut perft_positions = Vec::new();
    for rule in RULES {
        for size in [7, 9, 11, 15] {
            let games = if size == 15 { 6 } else { 30 };
            for _ in 0..games {
                let mut game_false_threes = 0;
                random_game(size, rule, &mut rng, |game, naive| {
                    positions += 1;
                    game_false_threes = naive.false_threes;
                    let forbidden = compare(game, naive);
                    for (_, kind) in &forbidden {
                        kinds[*kind as usize] += 1;
                    }
                    if forbidden.len() >= 2 && size == 9 && perft_positions.len() < 4 {
                        perft_positions.push((game.clone(), naive.clone()));
                    }
                });
                false_threes += game_false_threes;
            }
        }
    }
    for (game, naive) in &perft_positions {
        assert_perft(game, naive, 3);
    }
    println!("{positions} positions, forbidden by kind {kinds:?}, false threes {false_threes}");
    assert!(positions >= 3000, "{positions}");
    assert!(kinds.iter().all(|&count| count >= 10), "{kinds:?}");
    assert!(false_threes >= 10, "{false_threes}");
    assert_eq!(perft_positions.len(), 4);
}

#[test]
fn undo_restores_random_positions() {
    let mut rng = SmallRng::seed_from_u64(99);
    for rule in RULES {
        random_game(11, rule, &mut rng, |game, _| {
            let mut moves = Vec::new();
            game.generate_moves(&mut moves);
            let mut copy = game.clone();
            for &mv in moves.iter().step_by(7) {
                let undo = copy.play_unchecked(mv);
                copy.undo(mv, undo);
                assert_eq!(&copy, game);
                assert_eq!(copy.hash(), game.recompute_hash());
            }
        });
    }
}

#[test]
#[ignore = "one-off: naive perft(3) of a crowded renju position takes minutes"]
fn naive_perft_three_of_a_crowded_renju_position() {
    let moves = [
        "h8", "i9", "h9", "h7", "g8", "i8", "i7", "g9", "j8", "k9", "f8", "e8", "g7", "f6",
    ];
    let (game, naive) = replay(15, Rule::Renju, &moves);
    // The counts in the engine's perft table test: 211, 44310, 9260384.
    for depth in 1..=3 {
        let leaves = naive.clone().perft(depth);
        println!("perft({depth}) = {leaves}");
        assert_eq!(game.perft(depth), leaves);
    }
}

/// A renju self-play game at depth 4 (`gomoku_selfplay --rule renju --seed 11`, game 173) filled
/// the board but one point, forbidden for black, with black to move: the game went on with no
/// legal move, and the search returned none. It is over, drawn, and the point stays forbidden.
#[test]
fn black_with_only_forbidden_points_left_has_drawn() {
    let moves =
        "h8 h9 f11 g8 e10 g9 d9 g12 j9 e9 g10 h10 f7 i9 f9 e8 f8 f10 g11 i11 f5 f6 i12 e11 \
        e6 g4 c8 b7 j11 d12 c13 j12 k13 e12 f12 k10 j13 h11 l13 h13 h12 m13 k12 m14 l11 m10 l10 \
        l12 k11 m11 m12 k14 f13 l14 j14 o14 n14 e13 k15 i13 d7 b9 b10 d8 g5 c7 b6 e5 f4 e15 e14 d4 \
        c3 h6 l7 i6 l8 l9 k8 j6 g6 m6 d3 h7 f3 e3 h15 i14 e4 c2 f2 f1 f14 f15 d14 c14 g2 d5 h2 i2 \
        k4 m8 l6 m7 m9 m5 m4 l4 i8 j8 o7 n8 d2 e2 h14 g14 j15 i15 k5 k3 j2 i3 i5 e1 k6 k7 l5 j7 j3 \
        h5 n3 o2 o6 o5 g1 n5 a10 a8 j5 a5 j1 j4 a6 d6 c12 b8 a9 d11 c10 d10 a13 b11 a11 a12 n7 k1 \
        d15 l2 b5 m2 i7 o1 h4 b4 a7 a3 c5 n1 k2 d1 c1 o12 o10 o8 n4 a1 o3 n12 m1 o13 a4 b14 o11 \
        n15 n11 b13 b15 d13 i10 n9 c9 l15 g7 n13 n6 c11 n10 o9 c15 b3 h3 j10 m3 c6 o4 g3 h1 a15 \
        l1 g15 n2 m15 a2 a14 b12 g13 k9 c4 o15 b2 b1 i1 l3 e7";
    let moves: Vec<&str> = moves.split_whitespace().collect();
    assert_eq!(moves.len(), 224);
    let (game, mut naive) = replay(15, Rule::Renju, &moves);
    let forbidden = compare(&game, &mut naive);
    assert_eq!(forbidden.len(), 1, "the last point is forbidden");
    assert_eq!(game.outcome(), Some(Outcome::draw(2)));
    assert_eq!(game.forbidden_moves().len(), 1);
    let mut legal = Vec::new();
    game.generate_moves(&mut legal);
    assert!(legal.is_empty());
    // One move earlier, white to move, the game goes on.
    let (before, mut naive) = replay(15, Rule::Renju, &moves[..223]);
    compare(&before, &mut naive);
    assert_eq!(before.outcome(), None);
}
