//! Monte-Carlo tree search (UCT) for three or more players ([`MultiplayerSearch::MonteCarlo`]).
//!
//! Each iteration walks down the tree from the root, every seat choosing at its own nodes the
//! child with the best UCB1 value of *its own* mean reward (max-n backup, as in Sturtevant's
//! analysis of UCT in multi-player games), expands the node it ends on, plays a short playout
//! from there, scores every seat and adds each seat's reward to every node on the way. The root
//! seat's nodes keep every search move, in the order of the game's hints ([`crate::game::SearchHooks::score_moves`]);
//! the other seats' keep only their moves of the highest policy value ([`crate::game::SearchHooks::policy_values`],
//! in Chinese Checkers the rows a move gains), at most a few, drawn at random among equal values,
//! so that the tree spends its iterations on the root seat's choices.
//!
//! A playout is a few turns of each seat, each move the best by the hints (the root seat) or by
//! the policy values (the other seats), ties broken at random, or with a small probability a
//! random move (epsilon-greedy playouts, after Nijssen and Winands). It is then cut off and
//! every seat is scored: its reward is its mean chance of ending ahead of each other seat, the
//! logistic of the difference of the two seats' evaluations ([`crate::game::SearchHooks::evaluate_all`], each from its
//! own seat), or 1, 1/2 or 0 by the places when the game has ended.
//!
//! With several threads each grows a tree of its own from the same root, with its own generator
//! (root parallelism), and the root's statistics are added up at the end. The search uses no
//! transposition table, and every thread's generator is seeded by the root position and the
//! thread's number, so that a search of a fixed number of iterations ([`Limits::nodes`] counts
//! iterations, shared out among the threads) always returns the same move.
//!
//! [`MultiplayerSearch::MonteCarlo`]: crate::game::MultiplayerSearch::MonteCarlo
//! [`Limits::nodes`]: crate::search::limits::Limits::nodes

use super::{Iteration, RootLine, SearchOutcome, SearchRequest};
use crate::base::score::MAX_EVALUATION;
use crate::game::{Game, Player, Strength, MAX_PLAYERS};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Weight of the exploration term of UCB1 (rewards lie in [0, 1]).
const EXPLORATION: f64 = 0.5;
/// Turns of each seat a playout plays before it is cut off and scored.
const PLAYOUT_TURNS: usize = 2;
/// The probability that a playout move is drawn at random instead of the hint's first.
const EPSILON: f64 = 0.05;
/// Evaluation points per unit of the logistic that turns the difference of two seats' values
/// into the chance that the first ends ahead. 256 points are 16 rows in Chinese Checkers: with
/// 64 (4 rows) a seat some ten rows ahead saw every move as a sure win and stopped telling them
/// apart; 256 raised six-player level 8's first places against five greedy seats from 77.7% to
/// 82.0% (1150 games, 5000 iterations; 128 and 512 were no better on the seeds tried).
const REWARD_SCALE: f64 = 256.0;
/// At a node where another seat than the root's moves, only moves of the highest policy value
/// are kept, at most this many, drawn at random among them: the moves that seat plays if it
/// follows the policy. With the next best moves kept too (3 children whatever their value),
/// six-player level 8 was first against five greedy seats in 80.5% of 200 games where this
/// gives 89.5% (4300 iterations, the same seeds).
const OPPONENT_CHILDREN: usize = 3;
/// Iterations when the request sets neither a node (iteration) limit nor a time.
const DEFAULT_ITERATIONS: u64 = 4096;
/// The clock and the stop flag are read every this many iterations.
const CHECK_INTERVAL: u64 = 16;
/// The tree stops growing at this many nodes (80 bytes each in Chinese Checkers, so some 340 MB,
/// reached after about 35 s of search): from the six-player start it grew by about 116,000 nodes
/// a second (100,000 iterations: 216,856 nodes in 1.87 s), so an hour's analysis would have taken
/// some 30 GB. Once it is full, iterations go on from its leaves, which no longer expand.
const MAX_TREE_NODES: usize = 1 << 22;
/// Mixed into the root's hash to seed the generator.
const SEED: u64 = 0x6d63_7473;
/// Multiplied by a thread's number and mixed into its generator's seed.
const THREAD_SEED: u64 = 0x9e37_79b9_7f4a_7c15;

/// A node of the tree: the position after `mv`, played by `mover`.
struct Node<M> {
    mv: Option<M>,
    mover: Player,
    /// Children sit together from `first_child`, in the order of the game's hints.
    first_child: usize,
    children: usize,
    expanded: bool,
    visits: u32,
    /// The sum of the rewards of each seat over the iterations through this node.
    rewards: [f64; MAX_PLAYERS],
}

impl<M> Node<M> {
    fn new(mv: Option<M>, mover: Player) -> Self {
        Node {
            mv,
            mover,
            first_child: 0,
            children: 0,
            expanded: false,
            visits: 0,
            rewards: [0.0; MAX_PLAYERS],
        }
    }

    fn mean(&self, seat: Player) -> f64 {
        self.rewards[seat] / self.visits.max(1) as f64
    }
}

/// One search's tree and the scratch space of its playouts.
struct Tree<G: Game> {
    nodes: Vec<Node<G::Move>>,
    players: usize,
    root_player: Player,
    strength: Strength,
    random: SmallRng,
    moves: Vec<G::Move>,
    hints: Vec<i32>,
    /// The moves' indices in the order of their hints, while a node expands.
    order: Vec<usize>,
    path: Vec<usize>,
    deepest: usize,
    /// Leaves expand only while the tree holds fewer nodes than this.
    max_nodes: usize,
}

/// Searches `root` (three or more players, game not over, `root_moves` its search moves) by
/// Monte-Carlo tree search within the request's limits.
pub(super) fn search<G: Game>(
    root: &G,
    root_moves: &[G::Move],
    request: &SearchRequest,
    stop: &AtomicBool,
    start: Instant,
    report: &mut (dyn FnMut(&Iteration<G::Move>) + Send),
) -> SearchOutcome<G::Move> {
    let limits = request.limits;
    // No iterations to end: all of a fixed time per move, about the clock's target of a budget.
    let budget = limits.anytime_time();
    let iterations = limits
        .nodes
        .unwrap_or(if budget.is_some() {
            u64::MAX
        } else {
            DEFAULT_ITERATIONS
        })
        .max(1);
    let threads = request.threads.max(1);
    let grow = |thread: usize| {
        // The iterations are shared out among the threads (a fixed count stays reproducible).
        let share = if iterations == u64::MAX {
            u64::MAX
        } else {
            (iterations / threads as u64 + u64::from((thread as u64) < iterations % threads as u64))
                .max(1)
        };
        let seed = root.hash() ^ SEED ^ (thread as u64).wrapping_mul(THREAD_SEED);
        let mut tree = Tree::new(root, request.strength, MAX_TREE_NODES / threads, seed);
        tree.expand(0, root, root_moves);
        let mut done = 0;
        while done < share {
            if done % CHECK_INTERVAL == 0
                && done > 0
                && (stop.load(Ordering::Relaxed)
                    || budget.is_some_and(|time| start.elapsed() >= time))
            {
                break;
            }
            tree.iterate(root);
            done += 1;
        }
        (tree, done)
    };
    let (tree, done) = if threads == 1 {
        grow(0)
    } else {
        // Root parallelism: a tree per thread, their root statistics added up at the end.
        let grown: Vec<(Tree<G>, u64)> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|thread| scope.spawn(move || grow(thread)))
                .collect();
            handles
                .into_iter()
                .map(|handle| handle.join().expect("a search thread panicked"))
                .collect()
        });
        let mut grown = grown.into_iter();
        let (mut tree, mut done) = grown.next().expect("one tree a thread");
        for (other, other_done) in grown {
            tree.add_root_statistics(&other);
            done += other_done;
        }
        (tree, done)
    };
    let iteration = tree.result(root.side_to_move(), done, start);
    report(&iteration);
    SearchOutcome {
        best: Some(iteration),
        nodes: done,
        elapsed: start.elapsed(),
    }
}

impl<G: Game> Tree<G> {
    /// A tree of the root alone, which grows to at most about `max_nodes` nodes.
    fn new(root: &G, strength: Strength, max_nodes: usize, seed: u64) -> Tree<G> {
        Tree {
            nodes: vec![Node::new(None, root.side_to_move())],
            players: root.player_count(),
            root_player: root.side_to_move(),
            strength,
            random: SmallRng::seed_from_u64(seed),
            moves: Vec::new(),
            hints: Vec::new(),
            order: Vec::new(),
            path: Vec::new(),
            deepest: 0,
            max_nodes,
        }
    }

    /// Adds the root's statistics of `other`, a tree of the same root grown by another thread,
    /// to this tree's: the root seat's moves are in the same order in both.
    fn add_root_statistics(&mut self, other: &Tree<G>) {
        let (first, children) = (self.nodes[0].first_child, self.nodes[0].children);
        let their_first = other.nodes[0].first_child;
        debug_assert_eq!(children, other.nodes[0].children);
        // The root itself, then its children side by side.
        let pairs = std::iter::once((0, 0))
            .chain((0..children).map(|index| (first + index, their_first + index)));
        for (target, source) in pairs {
            let source = &other.nodes[source];
            debug_assert!(target == 0 || self.nodes[target].mv == source.mv);
            let target = &mut self.nodes[target];
            target.visits += source.visits;
            for (sum, reward) in target.rewards.iter_mut().zip(&source.rewards) {
                *sum += reward;
            }
        }
        self.deepest = self.deepest.max(other.deepest);
    }

    /// Adds the children of `node`, one per move of `moves`, best hint first.
    fn expand(&mut self, node: usize, position: &G, moves: &[G::Move]) {
        let mover = position.side_to_move();
        let opponent = mover != self.root_player;
        move_values(position, self.root_player, moves, &mut self.hints);
        let hints = &self.hints;
        self.order.clear();
        self.order.extend(0..moves.len());
        if opponent {
            // Equal moves in a random order (the sort keeps it): the model draws among them.
            self.order.shuffle(&mut self.random);
        }
        self.order
            .sort_by_key(|&index| std::cmp::Reverse(hints[index]));
        if opponent {
            // Only the moves the policy would play: the best value, ties drawn (shuffled above).
            let best = self.order.first().map(|&index| hints[index]);
            let ties = self
                .order
                .iter()
                .take_while(|&&index| Some(hints[index]) == best)
                .count();
            self.order.truncate(ties.min(OPPONENT_CHILDREN));
        }
        let first = self.nodes.len();
        let count = self.order.len();
        self.nodes.extend(
            self.order
                .iter()
                .map(|&index| Node::new(Some(moves[index]), mover)),
        );
        let parent = &mut self.nodes[node];
        parent.first_child = first;
        parent.children = count;
        parent.expanded = true;
    }

    /// One iteration: selection, expansion, playout and backup.
    fn iterate(&mut self, root: &G) {
        let mut position = root.clone();
        self.path.clear();
        self.path.push(0);
        let mut node = 0;
        loop {
            if position.outcome().is_some() {
                break;
            }
            if !self.nodes[node].expanded {
                // A leaf is expanded on its second visit: most leaves are visited only once.
                if self.nodes[node].visits == 0 || self.nodes.len() >= self.max_nodes {
                    break;
                }
                let mut moves = std::mem::take(&mut self.moves);
                position.search_moves(&mut moves);
                self.expand(node, &position, &moves);
                self.moves = moves;
            }
            if self.nodes[node].children == 0 {
                break;
            }
            node = self.select(node);
            let mv = self.nodes[node].mv.expect("a child has a move");
            position.play_unchecked(mv);
            self.path.push(node);
        }
        self.deepest = self.deepest.max(self.path.len() - 1);
        self.playout(&mut position);
        let rewards = rewards(&position, self.strength);
        for &on_path in &self.path {
            let node = &mut self.nodes[on_path];
            node.visits += 1;
            for (sum, reward) in node.rewards.iter_mut().zip(&rewards) {
                *sum += reward;
            }
        }
    }

    /// The child of `node` with the best UCB1 value for the seat that moves there; an unvisited
    /// child first, in the order of the hints.
    fn select(&self, node: usize) -> usize {
        let parent = &self.nodes[node];
        let children = parent.first_child..parent.first_child + parent.children;
        let logarithm = (parent.visits.max(1) as f64).ln();
        let mut best = children.start;
        let mut best_value = f64::NEG_INFINITY;
        for child in children {
            let candidate = &self.nodes[child];
            if candidate.visits == 0 {
                return child;
            }
            let value = candidate.mean(candidate.mover)
                + EXPLORATION * (logarithm / candidate.visits as f64).sqrt();
            if value > best_value {
                best_value = value;
                best = child;
            }
        }
        best
    }

    /// Plays [`PLAYOUT_TURNS`] turns of each seat (fewer if the game ends), epsilon-greedy.
    fn playout(&mut self, position: &mut G) {
        for _ in 0..PLAYOUT_TURNS * self.players {
            if position.outcome().is_some() {
                return;
            }
            position.search_moves(&mut self.moves);
            if self.moves.is_empty() {
                return;
            }
            let chosen = if self.random.random_bool(EPSILON) {
                self.random.random_range(0..self.moves.len())
            } else {
                move_values(position, self.root_player, &self.moves, &mut self.hints);
                let best = *self.hints.iter().max().expect("a move");
                let ties = self.hints.iter().filter(|&&hint| hint == best).count();
                let pick = self.random.random_range(0..ties);
                self.hints
                    .iter()
                    .enumerate()
                    .filter(|(_, &hint)| hint == best)
                    .nth(pick)
                    .map(|(index, _)| index)
                    .expect("a tie")
            };
            position.play_unchecked(self.moves[chosen]);
        }
    }

    /// The root's moves, most visited first, as a completed iteration. A move's score is the
    /// root seat's mean reward taken back through the reward's logistic: the lead in evaluation
    /// points over each other seat that would give that reward.
    fn result(&self, seat: Player, iterations: u64, start: Instant) -> Iteration<G::Move> {
        let root = &self.nodes[0];
        let mut children: Vec<&Node<G::Move>> = self.nodes
            [root.first_child..root.first_child + root.children]
            .iter()
            .collect();
        // Most visits first; among equal visits the better mean, then the hints' order (stable).
        children.sort_by(|a, b| {
            b.visits
                .cmp(&a.visits)
                .then(b.mean(seat).total_cmp(&a.mean(seat)))
        });
        let lines = children
            .iter()
            .map(|child| {
                let mv = child.mv.expect("a child has a move");
                RootLine {
                    mv,
                    score: score_of(child.mean(seat)),
                    exact: child.visits > 0,
                    depth: self.deepest as u32,
                    pv: vec![mv],
                }
            })
            .collect();
        Iteration {
            depth: self.deepest as u32,
            lines,
            selective_depth: self.deepest as u32,
            nodes: iterations,
            elapsed: start.elapsed(),
        }
    }
}

/// Every seat's reward in [0, 1] at the end of a playout: its mean chance of ending ahead of
/// each other seat, from the places when the game is over and otherwise from the logistic of the
/// difference of the two seats' values over [`REWARD_SCALE`].
fn rewards<G: Game>(position: &G, strength: Strength) -> [f64; MAX_PLAYERS] {
    let players = position.player_count();
    let outcome = position.outcome();
    let mut values = [0.0; MAX_PLAYERS];
    if outcome.is_none() {
        let mut evaluated = [0; MAX_PLAYERS];
        position.evaluate_all(strength, &mut evaluated[..players]);
        for (value, &evaluation) in values.iter_mut().zip(&evaluated) {
            *value = evaluation as f64;
        }
    }
    let beats = |seat: Player, other: Player| match &outcome {
        Some(outcome) => match outcome.place(seat).cmp(&outcome.place(other)) {
            std::cmp::Ordering::Less => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Greater => 0.0,
        },
        None => logistic((values[seat] - values[other]) / REWARD_SCALE),
    };
    let mut rewards = [0.0; MAX_PLAYERS];
    for (seat, reward) in rewards.iter_mut().enumerate().take(players) {
        let beaten: f64 = (0..players)
            .filter(|&other| other != seat)
            .map(|other| beats(seat, other))
            .sum();
        *reward = beaten / (players - 1) as f64;
    }
    rewards
}

/// The values the search ranks `moves` of `position` by into `values`: the hints
/// ([`crate::game::SearchHooks::score_moves`]) for the root seat's moves, the policy values ([`crate::game::SearchHooks::policy_values`])
/// for the other seats'.
fn move_values<G: Game>(
    position: &G,
    root_player: Player,
    moves: &[G::Move],
    values: &mut Vec<i32>,
) {
    values.clear();
    values.resize(moves.len(), 0);
    if position.side_to_move() == root_player {
        position.score_moves(moves, values);
    } else {
        position.policy_values(moves, values);
    }
}

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// A mean reward as evaluation points (the inverse of the reward's logistic), inside the
/// evaluation's range.
fn score_of(mean: f64) -> i32 {
    let mean = mean.clamp(1e-6, 1.0 - 1e-6);
    let points = REWARD_SCALE * (mean / (1.0 - mean)).ln();
    (points.round() as i32).clamp(-(MAX_EVALUATION - 1), MAX_EVALUATION - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Rules, SearchHooks};
    use crate::games::chinese_checkers::{ChineseCheckers, Jumps, DEFAULT_MAX_MOVES};

    #[test]
    fn other_seats_are_modelled_by_a_draw_among_their_best_policy_moves() {
        // Seat 1 has moved; seat 2's node keeps its moves of the most rows gained (the game's
        // policy values), drawn at random among the ties, not always the same few of them.
        let root = ChineseCheckers::new(6, Jumps::Standard, DEFAULT_MAX_MOVES).unwrap();
        let mut moves = Vec::new();
        root.search_moves(&mut moves);
        let mut next = root.clone();
        next.play_unchecked(moves[0]);
        next.search_moves(&mut moves);
        let mut values = vec![0; moves.len()];
        next.policy_values(&moves, &mut values);
        let best = *values.iter().max().unwrap();
        let ties = values.iter().filter(|&&value| value == best).count();
        assert!(ties > OPPONENT_CHILDREN, "{ties} moves of the best value");
        let mut seen = std::collections::HashSet::new();
        for draw in 0..40 {
            let mut tree = Tree::new(&root, Strength::FULL, usize::MAX, draw);
            tree.expand(0, &next, &moves);
            let node = &tree.nodes[0];
            assert_eq!(node.children, OPPONENT_CHILDREN);
            for child in &tree.nodes[node.first_child..node.first_child + node.children] {
                let mv = child.mv.unwrap();
                let index = moves.iter().position(|&other| other == mv).unwrap();
                assert_eq!(values[index], best, "{mv:?}");
                seen.insert(mv);
            }
        }
        assert_eq!(seen.len(), ties, "every tied move is drawn sometimes");
    }

    #[test]
    fn another_seat_keeps_no_move_below_its_best_policy_value() {
        // Greedy seats play from the six-player start; at every other seat's turn, that seat's
        // node keeps only its moves of the most rows gained: one child where one move gains the
        // most (it kept the next two best as well, moves a greedy seat never plays).
        use crate::games::chinese_checkers::greedy;
        let root = ChineseCheckers::new(6, Jumps::Standard, DEFAULT_MAX_MOVES).unwrap();
        let mut position = root.clone();
        let mut moves = Vec::new();
        let mut unique = 0;
        for ply in 0..120 {
            if position.side_to_move() != 0 {
                position.search_moves(&mut moves);
                let mut values = vec![0; moves.len()];
                position.policy_values(&moves, &mut values);
                let best = *values.iter().max().unwrap();
                let ties = values.iter().filter(|&&value| value == best).count();
                let mut tree = Tree::new(&root, Strength::FULL, usize::MAX, ply);
                tree.expand(0, &position, &moves);
                assert_eq!(tree.nodes[0].children, ties.min(OPPONENT_CHILDREN));
                unique += usize::from(ties == 1);
            }
            match greedy::greedy_move(&position, ply) {
                Some(mv) => {
                    position.play_unchecked(mv);
                }
                None => break,
            }
        }
        assert!(unique > 0, "no position with a single best move");
    }

    #[test]
    fn a_seat_well_ahead_still_tells_its_moves_apart() {
        // Six greedy seats play from the start until seat 1, to move, leads the best other seat
        // by 8 to 16 rows (the middle game). Its moves must still earn rewards far enough apart
        // for a few thousand iterations to rank them: with the logistic over 64 points (4 rows)
        // the pairwise chances of such a leader were all within a hair of 1.
        use crate::games::chinese_checkers::{evaluation, greedy};
        let mut position = ChineseCheckers::new(6, Jumps::Standard, DEFAULT_MAX_MOVES).unwrap();
        let lead = |position: &ChineseCheckers| {
            let own = evaluation::cost(position, 0, Strength::FULL);
            let best_other = (1..6)
                .map(|seat| evaluation::cost(position, seat, Strength::FULL))
                .min()
                .unwrap();
            best_other - own
        };
        // The first such position of the first game with one (greedy draws seeded by game and
        // ply, so the position is always the same).
        let start = position.clone();
        let mut ply = 0;
        let mut game = 0;
        while !(position.side_to_move() == 0
            && (8 * evaluation::ROW..=16 * evaluation::ROW).contains(&lead(&position)))
        {
            match greedy::greedy_move(&position, game * 1000 + ply) {
                Some(mv) if position.outcome().is_none() && ply < 120 => {
                    position.play_unchecked(mv);
                    ply += 1;
                }
                _ => {
                    game += 1;
                    ply = 0;
                    position = start.clone();
                    assert!(game < 100, "seat 1 never led by 8 to 16 rows");
                }
            }
        }
        let mut moves = Vec::new();
        position.search_moves(&mut moves);
        let after = |mv| {
            let mut next = position.clone();
            next.play_unchecked(mv);
            rewards(&next, Strength::FULL)[0]
        };
        let values: Vec<f64> = moves.iter().map(|&mv| after(mv)).collect();
        let best = values.iter().copied().fold(f64::MIN, f64::max);
        let worst = values.iter().copied().fold(f64::MAX, f64::min);
        // Ten rows up with some 30 moves to go is a good lead, not a won race; and the best
        // move's reward stands clear of the worst's (64 points gave 0.9996 and 0.9918 here).
        assert!(best < 0.95, "best {best}");
        assert!(best - worst > 0.05, "best {best}, worst {worst}");
    }

    #[test]
    fn threads_share_the_iterations_and_add_up_their_roots() {
        let root = ChineseCheckers::new(6, Jumps::Standard, DEFAULT_MAX_MOVES).unwrap();
        let mut moves = Vec::new();
        root.search_moves(&mut moves);
        let run = |threads: usize| {
            let request = SearchRequest {
                limits: crate::search::limits::Limits {
                    nodes: Some(3001),
                    ..Default::default()
                },
                threads,
                ..SearchRequest::default()
            };
            let outcome = search(
                &root,
                &moves,
                &request,
                &AtomicBool::new(false),
                Instant::now(),
                &mut |_| {},
            );
            assert_eq!(outcome.nodes, 3001, "{threads} threads");
            let lines = outcome.best.unwrap().lines;
            assert_eq!(lines.len(), moves.len());
            lines
                .iter()
                .map(|line| (line.mv, line.score))
                .collect::<Vec<_>>()
        };
        let one = run(1);
        let two = run(2);
        // A fixed iteration count gives the same answer every time, with any number of threads;
        // the second thread's tree is grown from another draw, so the two differ.
        assert_eq!(two, run(2));
        assert_eq!(run(3), run(3));
        assert_ne!(one, two);
        // The root statistics of two trees add up move by move.
        let grow = |seed: u64| {
            let mut tree = Tree::new(&root, Strength::FULL, usize::MAX, seed);
            tree.expand(0, &root, &moves);
            for _ in 0..500 {
                tree.iterate(&root);
            }
            tree
        };
        let (mut first, second) = (grow(1), grow(2));
        let statistics = |tree: &Tree<ChineseCheckers>| {
            let root = &tree.nodes[0];
            (0..=root.children)
                .map(|index| {
                    let node = &tree.nodes[if index == 0 {
                        0
                    } else {
                        root.first_child + index - 1
                    }];
                    (node.mv, node.visits, node.rewards[0])
                })
                .collect::<Vec<_>>()
        };
        let (before, others) = (statistics(&first), statistics(&second));
        first.add_root_statistics(&second);
        let after = statistics(&first);
        assert_eq!(after[0].1, 1000);
        for ((sum, mine), theirs) in after.iter().zip(&before).zip(&others) {
            assert_eq!(sum.0, mine.0);
            assert_eq!(mine.0, theirs.0);
            assert_eq!(sum.1, mine.1 + theirs.1);
            assert!((sum.2 - mine.2 - theirs.2).abs() < 1e-9);
        }
    }

    #[test]
    fn the_tree_stops_growing_at_its_limit() {
        let root = ChineseCheckers::new(6, Jumps::Standard, DEFAULT_MAX_MOVES).unwrap();
        let mut moves = Vec::new();
        root.search_moves(&mut moves);
        let grow = |max_nodes: usize| {
            let mut tree = Tree::new(&root, Strength::FULL, max_nodes, root.hash() ^ SEED);
            tree.expand(0, &root, &moves);
            for _ in 0..2000 {
                tree.iterate(&root);
            }
            tree.nodes.len()
        };
        // Unbounded, 2000 iterations grow the tree far past 1000 nodes; bounded, it stops within
        // one expansion (one node's moves, far fewer than 200) of the limit.
        assert!(grow(usize::MAX) > 1000);
        let bounded = grow(200);
        assert!((200..400).contains(&bounded), "{bounded} nodes");
    }
}
