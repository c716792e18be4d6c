//! Gomoku's threat data checked against a naive model written here from the definitions: for
//! each empty point, colour and direction it scans the whole line (not a window) and tries every
//! extra stone by brute force. Only the engine's public API is used.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;
use tabula::game::{Rules, SearchHooks};
use tabula::games::gomoku::patterns::Pattern;
use tabula::games::gomoku::threats::Kind;
use tabula::games::gomoku::{Gomoku, GomokuMove, Rule};

/// The four directions in the engine's order: horizontal, vertical, down-right, down-left.
const STEPS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];
const RULES: [Rule; 3] = [Rule::Freestyle, Rule::Standard, Rule::Renju];

/// One line through a point: its cells (0 empty, 1 own, 2 other) and the point's index.
#[derive(Clone)]
struct Line {
    cells: Vec<u8>,
    centre: usize,
    exact: bool,
}

impl Line {
    fn read(game: &Gomoku, colour: usize, point: (i32, i32), step: (i32, i32)) -> Line {
        let size = game.size() as i32;
        let inside = |(x, y): (i32, i32)| (0..size).contains(&x) && (0..size).contains(&y);
        let mut start = point;
        while inside((start.0 - step.0, start.1 - step.1)) {
            start = (start.0 - step.0, start.1 - step.1);
        }
        let mut cells = Vec::new();
        let mut centre = 0;
        let mut at = start;
        while inside(at) {
            if at == point {
                centre = cells.len();
            }
            cells.push(match game.stone_at(at.0 as usize, at.1 as usize) {
                None => 0,
                Some(stone) if stone == colour => 1,
                Some(_) => 2,
            });
            at = (at.0 + step.0, at.1 + step.1);
        }
        let exact = match game.rule() {
            Rule::Freestyle => false,
            Rule::Standard => true,
            Rule::Renju => colour == 0,
        };
        Line {
            cells,
            centre,
            exact,
        }
    }

    fn run(&self, index: usize) -> (usize, usize) {
        let mut low = index;
        while low > 0 && self.cells[low - 1] == 1 {
            low -= 1;
        }
        let mut high = index;
        while high + 1 < self.cells.len() && self.cells[high + 1] == 1 {
            high += 1;
        }
        (low, high)
    }

    fn wins(&self, length: usize) -> bool {
        if self.exact {
            length == 5
        } else {
            length >= 5
        }
    }

    /// Empty points whose stone would make a winning run through the centre (already own).
    fn completions(&mut self) -> Vec<usize> {
        let mut found = Vec::new();
        for index in 0..self.cells.len() {
            if self.cells[index] != 0 {
                continue;
            }
            self.cells[index] = 1;
            let (low, high) = self.run(self.centre);
            if self.wins(high - low + 1) && (low..=high).contains(&index) {
                found.push(index);
            }
            self.cells[index] = 0;
        }
        found
    }

    /// The pattern of the centre (which must be own), by the definitions, trying every extra
    /// stone that a five through the centre could hold (within four points of it); `memo` keeps
    /// the lines already classified.
    fn pattern(&mut self, memo: &mut HashMap<Vec<u8>, Pattern>) -> Pattern {
        if let Some(&known) = memo.get(&self.cells) {
            return known;
        }
        let pattern = self.classify(memo);
        memo.insert(self.cells.clone(), pattern);
        pattern
    }

    fn classify(&mut self, memo: &mut HashMap<Vec<u8>, Pattern>) -> Pattern {
        let (low, high) = self.run(self.centre);
        if self.wins(high - low + 1) {
            return Pattern::Five;
        }
        if high - low + 1 > 5 {
            return Pattern::Overline;
        }
        let completions = self.completions();
        if completions.len() >= 2 {
            let straight = completions
                .iter()
                .any(|first| completions.contains(&(first + 5)));
            return if straight {
                Pattern::OpenFour
            } else {
                Pattern::DoubleFour
            };
        }
        if completions.len() == 1 {
            return Pattern::Four;
        }
        let mut best = Pattern::None;
        let reach = self.centre.saturating_sub(4)..(self.centre + 5).min(self.cells.len());
        for index in reach {
            if self.cells[index] != 0 {
                continue;
            }
            self.cells[index] = 1;
            let next = match self.pattern(memo) {
                Pattern::OpenFour => Pattern::OpenThree,
                Pattern::Four | Pattern::DoubleFour => Pattern::ClosedThree,
                Pattern::OpenThree => Pattern::OpenTwo,
                Pattern::ClosedThree => Pattern::ClosedTwo,
                Pattern::OpenTwo => Pattern::OpenOne,
                Pattern::ClosedTwo => Pattern::ClosedOne,
                _ => Pattern::None,
            };
            self.cells[index] = 0;
            best = best.max(next);
            if best == Pattern::OpenThree {
                break;
            }
        }
        best
    }
}

/// The naive patterns of `colour` on the empty `point`, by direction.
fn naive_patterns(game: &Gomoku, colour: usize, point: (i32, i32)) -> [Pattern; 4] {
    STEPS.map(|step| {
        let mut line = Line::read(game, colour, point, step);
        line.cells[line.centre] = 1;
        line.pattern(&mut HashMap::new())
    })
}

/// The kinds the patterns of a point add up to, by their definitions (renju's forbidden kinds
/// aside).
fn naive_kinds(patterns: &[Pattern; 4], forbids: bool) -> Vec<Kind> {
    let fours: u32 = patterns
        .iter()
        .map(|pattern| match pattern {
            Pattern::Four | Pattern::OpenFour => 1,
            Pattern::DoubleFour => 2,
            _ => 0,
        })
        .sum();
    let threes = patterns
        .iter()
        .filter(|&&pattern| pattern == Pattern::OpenThree)
        .count();
    if patterns.contains(&Pattern::Five) {
        return vec![Kind::Five];
    }
    if forbids && (patterns.contains(&Pattern::Overline) || fours >= 2) {
        return vec![Kind::Forbidden];
    }
    let mut kinds = Vec::new();
    if fours > 0 {
        kinds.push(Kind::Four);
    }
    if patterns.contains(&Pattern::OpenFour) || fours >= 2 {
        kinds.push(Kind::OpenFour);
    }
    if fours > 0 && threes > 0 {
        kinds.push(Kind::FourThree);
    }
    if threes > 0 {
        kinds.push(Kind::Three);
    }
    if threes >= 2 {
        kinds.push(Kind::DoubleThree);
        if forbids {
            kinds.push(Kind::MaybeForbidden);
        }
    }
    kinds
}

fn check(game: &Gomoku) {
    let size = game.size() as i32;
    let threats = game.threats();
    let all = [
        Kind::Five,
        Kind::Four,
        Kind::OpenFour,
        Kind::FourThree,
        Kind::Three,
        Kind::DoubleThree,
        Kind::Forbidden,
        Kind::MaybeForbidden,
    ];
    for y in 0..size {
        for x in 0..size {
            let point = (y * size + x) as usize;
            if game.stone(point).is_some() {
                for colour in 0..2 {
                    assert!(threats
                        .patterns(colour, point)
                        .iter()
                        .all(|&p| p == Pattern::None));
                }
                continue;
            }
            for colour in 0..2 {
                let naive = naive_patterns(game, colour, (x, y));
                let context = format!(
                    "{} colour {colour} at {}",
                    game.position_string(),
                    game.format_move(GomokuMove(point as u16))
                );
                assert_eq!(threats.patterns(colour, point), naive, "{context}");
                let forbids = colour == 0 && game.rule() == Rule::Renju;
                let kinds = naive_kinds(&naive, forbids);
                for kind in all {
                    assert_eq!(
                        threats.is(colour, point, kind),
                        kinds.contains(&kind),
                        "{kind:?} {context}"
                    );
                    assert_eq!(
                        threats.points(colour, kind).contains(point),
                        kinds.contains(&kind),
                        "{kind:?} set {context}"
                    );
                }
            }
        }
    }
}

#[test]
fn threats_match_the_naive_definitions() {
    let mut rng = SmallRng::seed_from_u64(7);
    for rule in RULES {
        for size in [9, 15] {
            for _ in 0..3 {
                let mut game = Gomoku::new(size, rule).unwrap();
                let mut moves = Vec::new();
                for ply in 0..60 {
                    if ply % 6 == 0 {
                        check(&game);
                    }
                    game.search_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    let mv = moves[rng.random_range(0..moves.len())];
                    game.play_unchecked(mv);
                }
                check(&game);
            }
        }
    }
}
