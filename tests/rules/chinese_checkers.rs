//! Chinese Checkers checked against a second, naive model of the rules written here from the rule
//! text alone, through the public API only.
//!
//! The model builds the star from cube coordinates (the union of two triangles of side 13),
//! numbers the holes by sorting them into rows, and generates moves by a plain search over a
//! cell array. Perft counts of the engine and of the model must agree for every player count,
//! both jump rules and every house-rule option, from the start and from positions reached by
//! random and greedy play.

use crate::star;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::{BTreeSet, HashMap};
use tabula::game::{Player, Rules, SearchHooks};
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
        1 => vec![1],
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

/// The rule options, read from `key=value` words the way the documentation states them.
#[derive(Clone, Copy)]
struct ModelRules {
    players: usize,
    long: bool,
    goal_lock: bool,
    /// Moves may not end in a camp that is neither the mover's home nor its goal.
    no_stop: bool,
    /// A player finishes only with all ten pieces in its goal.
    all_ten: bool,
    /// Turns after which a player's pieces count in another player's goal.
    spoil_after: u32,
    /// `goal_lock=strict`: a hop chain that has landed in the mover's goal (or starts there)
    /// may land nowhere else afterwards.
    strict: bool,
    /// Two players: a draw when the first seat finishes with ten pieces home and the second can
    /// finish with its next move.
    equal_turn: bool,
    /// The game ends after this many plies since the position was loaded...
    max_moves: u32,
    /// ...as a draw (otherwise the ranking by distance, which the model does not judge).
    cap_draw: bool,
}

impl ModelRules {
    fn read(options: &str) -> ModelRules {
        let mut rules = ModelRules {
            players: 2,
            long: false,
            goal_lock: true,
            no_stop: false,
            all_ten: false,
            spoil_after: 30,
            strict: false,
            equal_turn: false,
            max_moves: 1000,
            cap_draw: false,
        };
        // The CCERL preset as the documentation lists it, whatever the order of the words.
        if options.split_whitespace().any(|word| word == "rules=ccerl") {
            rules.spoil_after = 0;
            rules.goal_lock = true;
            rules.strict = true;
            rules.equal_turn = true;
            rules.max_moves = 240;
            rules.cap_draw = true;
        }
        for word in options.split_whitespace() {
            let (key, value) = word.split_once('=').unwrap();
            match key {
                "rules" => {}
                "players" => rules.players = value.parse().unwrap(),
                "jumps" => rules.long = value == "long",
                "goal_lock" => {
                    rules.goal_lock = value != "off";
                    rules.strict = value == "strict";
                }
                "equal_turn" => rules.equal_turn = value == "on",
                "at_cap" => rules.cap_draw = value == "draw",
                "side_camps" => rules.no_stop = value == "no-stop",
                "finish" => rules.all_ten = value == "all",
                "spoil_after" => rules.spoil_after = value.parse().unwrap(),
                "max_moves" => rules.max_moves = value.parse().unwrap(),
                _ => panic!("the model does not know {key}"),
            }
        }
        rules
    }
}

/// The naive model of a position.
#[derive(Clone)]
struct Naive<'a> {
    star: &'a Star,
    rules: ModelRules,
    /// 0 empty, otherwise seat + 1.
    cells: Vec<usize>,
    side: Player,
    finished: Vec<Player>,
    /// Turns each player has taken (only compared with `spoil_after`).
    turns: Vec<u32>,
    /// Plies since the position was loaded.
    ply: u32,
}

impl<'a> Naive<'a> {
    fn from_text(star: &'a Star, rules: ModelRules, text: &str) -> Naive<'a> {
        let fields: Vec<&str> = text.split(' ').collect();
        let cells = fields[0]
            .chars()
            .map(|c| c.to_digit(10).unwrap_or(0) as usize)
            .collect();
        let side = fields[1].parse::<usize>().unwrap() - 1;
        let list = |prefix: &str| -> Option<Vec<usize>> {
            fields[2..].iter().find_map(|field| {
                field.strip_prefix(prefix).map(|items| {
                    items
                        .split(',')
                        .map(|n| n.parse::<usize>().unwrap())
                        .collect()
                })
            })
        };
        let finished: Vec<Player> = list("finished=")
            .unwrap_or_default()
            .into_iter()
            .map(|n| n - 1)
            .collect();
        // Without a count, every player has taken its turns.
        let mut turns: Vec<u32> = list("turns=")
            .map(|counts| counts.into_iter().map(|n| n as u32).collect())
            .unwrap_or_else(|| vec![u32::MAX; rules.players]);
        for &seat in &finished {
            turns[seat] = u32::MAX;
        }
        Naive {
            star,
            rules,
            cells,
            side,
            finished,
            turns,
            ply: 0,
        }
    }

    fn players(&self) -> usize {
        self.rules.players
    }

    fn home(&self, seat: Player) -> usize {
        start_camps(self.players())[seat]
    }

    fn goal(&self, seat: Player) -> usize {
        goal_of(self.home(seat))
    }

    fn is_over(&self) -> bool {
        // Solitaire ends when its one player finishes; otherwise when one player is left.
        self.finished.len() >= self.players().saturating_sub(1).max(1)
            || self.ply >= self.rules.max_moves
    }

    /// The result of a finished two-player game, where the model judges it: `Some(None)` for a
    /// draw, `Some(Some(seat))` for a win; `None` while the game goes on or where the engine ranks
    /// by distance.
    fn outcome(&self) -> Option<Option<Player>> {
        if !self.is_over() || self.players() != 2 {
            return None;
        }
        if let Some(&first) = self.finished.first() {
            // The equal-turn draw: seat 0 is home with all ten, seat 1 to move can follow.
            let goal = self.goal(0);
            let all_home = (0..self.cells.len())
                .filter(|&hole| self.star.camps[hole] == goal)
                .all(|hole| self.cells[hole] == 1);
            if self.rules.equal_turn && first == 0 && all_home && self.side == 1 {
                let mut probe = self.clone();
                probe.finished.clear();
                probe.ply = 0;
                let follows = probe.moves().iter().any(|mv| {
                    let mut next = probe.clone();
                    next.play(mv);
                    next.has_finished(1, &[])
                });
                if follows {
                    return Some(None);
                }
            }
            return Some(Some(first));
        }
        self.rules.cap_draw.then_some(None)
    }

    /// Where a hop from `hole` in `direction` lands on `cells`, if it may.
    fn hop(&self, cells: &[usize], hole: usize, direction: Cube) -> Option<usize> {
        let reach = if self.rules.long { 8 } else { 1 };
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

    /// Whether a piece of `seat` may end a move from `origin` on `target`.
    fn may_end(&self, seat: Player, origin: usize, target: usize) -> bool {
        let goal = self.goal(seat);
        let camp = self.star.camps[target];
        if self.rules.goal_lock && self.star.camps[origin] == goal && camp != goal {
            return false;
        }
        !(self.rules.no_stop && camp != 0 && camp != goal && camp != self.home(seat))
    }

    fn moves(&self) -> Vec<String> {
        let mut moves = Vec::new();
        if self.is_over() {
            return moves;
        }
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
            // Each chain state is a hole and whether the chain has been in the goal; the strict
            // lock forbids landing outside the goal once it has.
            let goal = self.goal(self.side);
            let starts_home = self.star.camps[origin] == goal;
            let mut landed = BTreeSet::from([(origin, starts_home)]);
            let mut stack = vec![(origin, starts_home)];
            while let Some((hole, been_home)) = stack.pop() {
                for direction in DIRECTIONS {
                    if let Some(landing) = self.hop(&lifted, hole, direction) {
                        let home = self.star.camps[landing] == goal;
                        if self.rules.strict && been_home && !home {
                            continue;
                        }
                        if landing == origin {
                            continue;
                        }
                        if landed.insert((landing, been_home || home)) {
                            targets.insert(landing);
                            stack.push((landing, been_home || home));
                        }
                    }
                }
            }
            for target in targets {
                if target != origin && self.may_end(self.side, origin, target) {
                    moves.push(format!("{}-{}", origin + 1, target + 1));
                }
            }
        }
        if moves.is_empty() {
            moves.push("pass".to_string());
        }
        moves
    }

    /// Whether `seat` meets its finishing condition, taking the players in `done` as finished.
    fn has_finished(&self, seat: Player, done: &[Player]) -> bool {
        let goal = self.goal(seat);
        let camp: Vec<usize> = (0..self.cells.len())
            .filter(|&hole| self.star.camps[hole] == goal)
            .collect();
        if self.rules.all_ten {
            return camp.iter().all(|&hole| self.cells[hole] == seat + 1);
        }
        let full = camp.iter().all(|&hole| self.cells[hole] != 0);
        let own = camp.iter().any(|&hole| self.cells[hole] == seat + 1);
        // Another player's piece counts once its owner has taken its turns or has finished.
        let counted = camp.iter().all(|&hole| {
            let owner = self.cells[hole];
            owner == 0
                || owner == seat + 1
                || done.contains(&(owner - 1))
                || self.turns[owner - 1] >= self.rules.spoil_after
        });
        full && own && counted
    }

    fn play(&mut self, mv: &str) {
        let mover = self.side;
        if mv != "pass" {
            let (from, to) = mv.split_once('-').unwrap();
            let from: usize = from.parse::<usize>().unwrap() - 1;
            let to: usize = to.parse::<usize>().unwrap() - 1;
            self.cells[to] = self.cells[from];
            self.cells[from] = 0;
        }
        self.turns[mover] = self.turns[mover].saturating_add(1);
        self.ply += 1;
        // Everybody whose condition holds now finishes, in seat order; a player finishing can
        // make another one's goal count as full.
        let mut done = self.finished.clone();
        let mut now = Vec::new();
        loop {
            let next = (0..self.players())
                .find(|&seat| !done.contains(&seat) && self.has_finished(seat, &done));
            match next {
                Some(seat) => {
                    done.push(seat);
                    now.push(seat);
                }
                None => break,
            }
        }
        now.sort_unstable();
        self.finished.extend(now);
        let players = self.players();
        self.side = (1..=players)
            .map(|offset| (mover + offset) % players)
            .find(|seat| !self.finished.contains(seat))
            .unwrap_or(mover);
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

/// The engine's start position for `key=value` options.
fn variant(options: &str) -> ChineseCheckers {
    let pairs: Vec<(String, String)> = options
        .split_whitespace()
        .map(|word| {
            let (key, value) = word.split_once('=').unwrap();
            (key.to_string(), value.to_string())
        })
        .collect();
    ChineseCheckers::from_options(&pairs).unwrap()
}

/// Every player count with both jump rules.
const VARIANTS: [&str; 8] = [
    "players=2 jumps=standard",
    "players=2 jumps=long",
    "players=3 jumps=standard",
    "players=3 jumps=long",
    "players=4 jumps=standard",
    "players=4 jumps=long",
    "players=6 jumps=standard",
    "players=6 jumps=long",
];

/// Solitaire and every house-rule option, alone and in combinations.
const RULE_OPTIONS: [&str; 15] = [
    "players=1",
    "players=1 jumps=long",
    "players=2 goal_lock=off",
    "players=3 jumps=long goal_lock=off",
    "players=6 goal_lock=off",
    "players=2 side_camps=no-stop",
    "players=4 side_camps=no-stop jumps=long",
    "players=6 side_camps=no-stop",
    "players=3 finish=all",
    "players=6 jumps=long finish=all goal_lock=off",
    "players=4 spoil_after=0 side_camps=no-stop goal_lock=off",
    "players=2 goal_lock=strict",
    "players=4 jumps=long goal_lock=strict",
    "rules=ccerl",
    "players=2 equal_turn=on at_cap=draw finish=all goal_lock=strict max_moves=5",
];

/// Checks the move lists and perft counts (to `depth`, or 2 with over 70 moves) of the engine and
/// the model on one position, and returns the count.
fn compare(star: &Star, options: &str, text: &str, depth: usize) -> u64 {
    let mut engine = variant(options);
    engine.set_position_string(text).unwrap();
    assert_eq!(engine.position_string(), text, "{options}: round trip");
    let naive = Naive::from_text(star, ModelRules::read(options), text);
    let mut moves = Vec::new();
    engine.generate_moves(&mut moves);
    let mut listed: Vec<String> = moves.iter().map(|&mv| engine.format_move(mv)).collect();
    listed.sort();
    let mut expected = naive.moves();
    expected.sort();
    assert_eq!(listed, expected, "{options}: moves at {text}");
    if let Some(result) = naive.outcome() {
        let outcome = engine.outcome().expect("the model says the game is over");
        assert_eq!(outcome.winner(), result, "{options}: result at {text}");
    }
    // The model is slow: one ply less where the branching is wide.
    let depth = if listed.len() > 70 {
        depth.min(2)
    } else {
        depth
    };
    let count = naive.perft(depth);
    assert_eq!(
        engine.perft(depth),
        count,
        "{options}: perft {depth} at {text}"
    );
    count
}

/// Plays from the start, greedily (best ordering score, ties at random) with probability
/// `greed`, otherwise at random, and keeps the position strings every `every` plies.
fn playout(options: &str, greed: f64, plies: usize, every: usize, seed: u64) -> Vec<String> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut position = variant(options);
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

/// The number of players in `key=value` options.
fn players_of(options: &str) -> usize {
    ModelRules::read(options).players
}

#[test]
fn numbering_matches_the_model() {
    let star = Star::new();
    let start = variant("players=6");
    let naive = Naive::from_text(
        &star,
        ModelRules::read("players=6"),
        &start.position_string(),
    );
    // Each seat starts in its camp of the model: camps clockwise from the top.
    for (hole, &cell) in naive.cells.iter().enumerate() {
        assert_eq!(cell, star.camps[hole], "hole {}", hole + 1);
    }
}

#[test]
fn perft_from_the_start() {
    let star = Star::new();
    let start = variant("players=2");
    let text = start.position_string();
    let expected = [1, 14, 196, 4760, 115_600];
    for (depth, &count) in expected.iter().enumerate() {
        assert_eq!(start.perft(depth), count, "depth {depth}");
    }
    assert_eq!(compare(&star, "players=2", &text, 4), 115_600);
    let long = variant("players=2 jumps=long").position_string();
    assert_eq!(compare(&star, "players=2 jumps=long", &long, 4), 145_924);
    for options in VARIANTS {
        let text = variant(options).position_string();
        compare(&star, options, &text, 3);
    }
}

#[test]
fn perft_of_the_rule_options_from_the_start() {
    let star = Star::new();
    // Solitaire opens with player 1's fourteen moves of the two-player game.
    let solitaire = variant("players=1").position_string();
    assert_eq!(compare(&star, "players=1", &solitaire, 1), 14);
    for options in RULE_OPTIONS {
        let text = variant(options).position_string();
        let depth = if players_of(options) <= 2 { 4 } else { 3 };
        compare(&star, options, &text, depth);
    }
}

#[test]
fn perft_from_random_play() {
    let star = Star::new();
    for (index, options) in VARIANTS.iter().chain(&RULE_OPTIONS).enumerate() {
        let positions = playout(options, 0.0, 90, 30, index as u64);
        for text in &positions {
            compare(&star, options, text, 3);
        }
    }
}

#[test]
fn perft_from_greedy_play_into_the_end_game() {
    let star = Star::new();
    let mut finished_seen = 0;
    for (index, options) in VARIANTS.iter().chain(&RULE_OPTIONS).enumerate() {
        let players = players_of(options);
        let positions = playout(
            options,
            0.85,
            110 * players.max(2),
            3 * players,
            100 + index as u64,
        );
        // The last dozen positions: goal camps filling up, players finishing one after another.
        for text in positions.iter().rev().take(12) {
            finished_seen += usize::from(text.contains("finished"));
            compare(&star, options, text, 3);
        }
    }
    assert!(finished_seen > 0, "greedy play should finish some players");
}

#[test]
fn consistency_of_every_variant() {
    for (index, options) in VARIANTS.iter().chain(&RULE_OPTIONS).enumerate() {
        let start = variant(options);
        tabula::game::consistency::check_random_games(&start, 2, 120, index as u64);
    }
}

#[test]
fn consistency_into_the_end_game() {
    let mut finishing_positions = 0;
    for (index, options) in VARIANTS.iter().chain(&RULE_OPTIONS).enumerate() {
        let players = players_of(options);
        let positions = playout(options, 0.85, 110 * players.max(2), 1, 200 + index as u64);
        // Start a little before the end of the greedy game, while it still goes on.
        for back in [4 * players, 12 * players] {
            let text = &positions[positions.len().saturating_sub(back)];
            let mut position = variant(options);
            position.set_position_string(text).unwrap();
            assert!(position.outcome().is_none(), "{options}: {text}");
            tabula::game::consistency::check_random_games(&position, 3, 60, index as u64);
            // Greedy play from there should reach the end.
            let finished = playout_from(position, 0.9, 200, index as u64);
            finishing_positions += usize::from(finished.outcome().is_some());
        }
    }
    assert!(finishing_positions >= 12, "{finishing_positions}");
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
        tabula::game::consistency::check_position(&position);
    }
    position
}

#[test]
fn consistency_up_to_the_move_cap() {
    for options in [
        "players=2 max_moves=40",
        "players=3 jumps=long max_moves=40",
        "players=6 max_moves=40",
        "players=1 max_moves=40",
    ] {
        let start = variant(options);
        tabula::game::consistency::check_random_games(&start, 2, 60, options.len() as u64);
    }
}

/// Player 2's piece on hole 27 reaches hole 9 only by a chain that lands in its goal camp (hole
/// 7), leaves it (hole 29) and comes back: the `26-8` of a CCERL game in JumpStar's numbering.
const LEAVE_AND_RETURN: &str = "..............111.........2.................................\
                                1111111............................................222222222. 2";

#[test]
fn strict_goal_lock_rejects_a_chain_that_leaves_the_goal_and_comes_back() {
    let star = Star::new();
    for options in ["rules=ccerl", "players=2 goal_lock=strict"] {
        let mut position = variant(options);
        position.set_position_string(LEAVE_AND_RETURN).unwrap();
        let error = position.parse_move("27-7-29-9").unwrap_err().to_string();
        assert!(error.contains("strict"), "{options}: {error}");
        let mv = position.parse_move("27-9").unwrap();
        assert!(!position.is_legal(mv), "{options}");
        assert!(position.illegal_reason(mv).contains("strict"), "{options}");
        compare(&star, options, LEAVE_AND_RETURN, 2);
    }
    // The plain goal lock lets the chain out and back in.
    let mut position = variant("players=2");
    position.set_position_string(LEAVE_AND_RETURN).unwrap();
    let mv = position.parse_move("27-7-29-9").unwrap();
    assert!(position.is_legal(mv));
    compare(&star, "players=2", LEAVE_AND_RETURN, 2);
}

/// Player 1 steps 103-112 and has all ten pieces home; player 2 can answer 19-10 (a draw under
/// the equal-turn rule) or, in the second position, cannot (player 1 wins).
const EQUAL_TURN: &str = "222222222.........2.........................................\
                          ..........................................1.........111111111 1";
const EQUAL_TURN_TOO_LATE: &str = "222222222...................................................2\
                                   .........................................1.........111111111 1";

#[test]
fn equal_turn_draw() {
    let star = Star::new();
    for (options, text, winner) in [
        ("rules=ccerl", EQUAL_TURN, None),
        ("rules=ccerl", EQUAL_TURN_TOO_LATE, Some(0)),
        ("players=2 equal_turn=on", EQUAL_TURN, None),
        ("players=2", EQUAL_TURN, Some(0)),
        ("players=2 equal_turn=on finish=all", EQUAL_TURN, None),
    ] {
        let mut position = variant(options);
        position.set_position_string(text).unwrap();
        compare(&star, options, text, 2);
        let mv = position.parse_move("103-112").unwrap();
        assert!(position.is_legal(mv), "{options}");
        position.play_unchecked(mv);
        let outcome = position.outcome().expect("player 1 has finished");
        assert_eq!(outcome.winner(), winner, "{options}: {text}");
        assert_eq!(outcome.place(1), if winner.is_some() { 2 } else { 1 });
        compare(&star, options, &position.position_string(), 1);
    }
}

#[test]
fn draw_at_the_move_cap() {
    for (options, draw) in [
        ("players=2 max_moves=6 at_cap=draw", true),
        ("rules=ccerl max_moves=6", true),
        ("players=2 max_moves=6", false),
    ] {
        let mut position = variant(options);
        let mut moves = Vec::new();
        for _ in 0..6 {
            position.generate_moves(&mut moves);
            position.play_unchecked(moves[0]);
        }
        let outcome = position.outcome().expect("the cap ends the game");
        let shared = outcome.place(0) == 1 && outcome.place(1) == 1;
        // Ranked by progress, the places share only where the distance sums are equal.
        let expected = draw || position.distance(0) == position.distance(1);
        assert_eq!(shared, expected, "{options}");
    }
}

#[test]
fn the_ccerl_preset_round_trips() {
    let position = variant("rules=ccerl");
    let options: Vec<String> = position
        .options()
        .iter()
        .map(|(key, value)| format!("{key}={value}"))
        .collect();
    assert_eq!(
        options.join(" "),
        "players=2 jumps=standard max_moves=240 goal_lock=strict spoil_after=0 equal_turn=on at_cap=draw"
    );
    assert_eq!(variant(&options.join(" ")).options(), position.options());
    // Keys after (or before) the preset override it.
    let looser = variant("goal_lock=on rules=ccerl");
    assert!(!looser
        .options()
        .contains(&("goal_lock".to_string(), "strict".to_string())));
    assert!(looser
        .options()
        .contains(&("equal_turn".to_string(), "on".to_string())));
    let pairs = [("rules".to_string(), "nonsense".to_string())];
    assert!(ChineseCheckers::from_options(&pairs).is_err());
}
