//! In-process Gomoku matches between two configurations of the engine, for strength tests and
//! for the evaluation's training games.
//!
//! ```text
//! cargo run --release --example gomoku_selfplay -- --games 40 --rule freestyle \
//!     --a "level=8 movetime=200" --b "level=1" [--openings data/openings/gomoku-15.txt]
//!     [--size 15] [--threads 1] [--seed 1] [--out games.txt] [--quiet]
//!     [--sprt "elo0=0 elo1=20 alpha=0.05 beta=0.05"]
//! ```
//!
//! A player is a list of `key=value` words: `level=1..8` (the Gomoku level table below),
//! `depth=N`, `movetime=MS` (`none`: no time limit; 1000 unless given), `nodes=N`, `strength=1..8`, `weights=FILE` (evaluation weights).
//! With `engine=PATH` the player is another Tabula binary driven over its protocol (to compare
//! versions): `level`, `depth`, `movetime` and `nodes` become its options, and this program keeps
//! the board and checks every move.
//! Each opening is played twice with the colours swapped; without an openings file, openings are
//! random two- and three-stone starts near the centre. `--rule freestyle,renju` takes the rules in
//! turn, one pair of games each. The summary gives A's wins, draws and losses, its score and the
//! Elo difference with a 95% interval (and per rule when there are several). `--out` appends one
//! line per game: the rule, the size, the moves from the empty board and the result for black (1,
//! 0.5, 0).
//!
//! With `--sprt`, the match is a sequential probability ratio test of A against B on the pairs of
//! games (`tabula match`'s test: the generalised SPRT on pentanomial counts, see
//! `src/tools/matches/statistics.rs`): it stops as soon as the test decides, and `--games` is then
//! the cap. The last line says `SPRT: H1 accepted`, `H0 accepted` or `undecided` (the cap
//! reached); the tuning pipeline (scripts/train/tune-gomoku-eval.sh) counts only `H1 accepted` as a win
//! for A. At a fixed depth on one thread the games, and so the decision, are the same on every run.

use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use tabula::base::transposition::TranspositionTable;
use tabula::engine::clock;
use tabula::game::{Rules, Strength};
use tabula::games::gomoku::evaluation::{SharedWeights, Weights};
use tabula::games::gomoku::{Gomoku, GomokuMove, Rule};
use tabula::search::limits::Limits;
use tabula::search::{self, SearchRequest, Worker};
use tabula::tools::matches::spec::parse_sprt;
use tabula::tools::matches::statistics::{Pentanomial, Sprt, SprtDecision, SprtStatus, Trinomial};

/// The Gomoku level table: depth cap, evaluation strength and time cap (ms) of each level.
const LEVELS: [(Option<u32>, u8, Option<u64>); 8] = [
    (Some(1), 1, None),
    (Some(2), 2, Some(100)),
    (Some(3), 3, Some(200)),
    (Some(4), 4, Some(300)),
    (Some(6), 6, Some(500)),
    (Some(8), 7, Some(1000)),
    (Some(10), 8, None),
    (None, 8, None),
];

#[derive(Clone, Debug)]
struct Player {
    name: String,
    engine: Option<String>,
    level: Option<u64>,
    depth: Option<u32>,
    movetime: Option<u64>,
    nodes: Option<u64>,
    strength: u8,
    weights: Option<SharedWeights>,
}

impl Player {
    fn parse(spec: &str) -> Player {
        let mut player = Player {
            name: spec.to_string(),
            engine: None,
            level: None,
            depth: None,
            movetime: Some(1000),
            nodes: None,
            strength: 8,
            weights: None,
        };
        for word in spec.split([' ', ',']).filter(|word| !word.is_empty()) {
            let (key, value) = word.split_once('=').expect("key=value");
            let number = || value.parse::<u64>().expect("a number");
            match key {
                "engine" => player.engine = Some(value.to_string()),
                "level" => {
                    player.level = Some(number());
                    let (depth, strength, time) = LEVELS[number() as usize - 1];
                    player.depth = depth;
                    player.strength = strength;
                    player.movetime = time.or(player.movetime);
                    if depth.is_some() && time.is_none() {
                        player.movetime = None;
                    }
                }
                "depth" => player.depth = Some(number() as u32),
                "movetime" if value == "none" => player.movetime = None,
                "movetime" => player.movetime = Some(number()),
                "nodes" => player.nodes = Some(number()),
                "strength" => player.strength = number() as u8,
                "weights" => {
                    let text = std::fs::read_to_string(value).expect("a weight file");
                    let weights = Weights::parse(&text).expect("valid weights");
                    player.weights = Some(weights.shared());
                }
                _ => panic!("unknown player key '{key}'"),
            }
        }
        player
    }

    fn request(&self, threads: usize) -> SearchRequest {
        let mut limits = Limits {
            depth: self.depth,
            nodes: self.nodes,
            ..Limits::default()
        };
        if let Some(time) = self.movetime {
            let overhead = Duration::from_millis(5);
            limits = limits.tightest(clock::move_time(Duration::from_millis(time), overhead));
        }
        SearchRequest {
            limits,
            threads,
            strength: Strength(self.strength),
            multi_pv: 1,
            instant_single_move: true,
            probcut: true,
        }
    }
}

/// One side's search state, kept for a whole game.
struct Seat {
    player: Player,
    table: TranspositionTable,
    workers: Vec<Worker<Gomoku>>,
    time: Duration,
    moves: u32,
    process: Option<External>,
}

/// Another engine driven over the protocol.
struct External {
    child: std::process::Child,
    input: std::process::ChildStdin,
    output: std::io::BufReader<std::process::ChildStdout>,
}

impl External {
    fn start(path: &str) -> External {
        let mut child = std::process::Command::new(path)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("starting the engine");
        let input = child.stdin.take().expect("stdin");
        let output = std::io::BufReader::new(child.stdout.take().expect("stdout"));
        External {
            child,
            input,
            output,
        }
    }

    /// Sends a command and returns the reply's text; panics on an error reply.
    fn command(&mut self, command: &str) -> String {
        use std::io::BufRead;
        writeln!(self.input, "{command}").expect("writing to the engine");
        self.input.flush().expect("flushing");
        let mut reply = String::new();
        loop {
            let mut line = String::new();
            let read = self
                .output
                .read_line(&mut line)
                .expect("reading the engine");
            assert!(read > 0, "the engine closed its output after '{command}'");
            if line.trim().is_empty() {
                if reply.is_empty() {
                    continue;
                }
                break;
            }
            reply.push_str(&line);
        }
        assert!(reply.starts_with('='), "'{command}' failed: {reply}");
        reply.trim_start_matches('=').trim().to_string()
    }
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.child.wait();
    }
}

impl Seat {
    /// Starts a game from `opening` on the external engine, if this seat has one.
    fn start_game(&mut self, start: &Gomoku, opening: &[GomokuMove], threads: usize) {
        let Some(path) = self.player.engine.clone() else {
            return;
        };
        let process = self.process.get_or_insert_with(|| External::start(&path));
        process.command(&format!(
            "set_game gomoku size={} rule={}",
            start.size(),
            start.rule().name()
        ));
        process.command(&format!("set_option threads {threads}"));
        if let Some(level) = self.player.level {
            process.command(&format!("set_option level {level}"));
        }
        if let Some(depth) = self.player.depth {
            process.command(&format!("set_option depth {depth}"));
        }
        if let Some(nodes) = self.player.nodes {
            process.command(&format!("set_option nodes {nodes}"));
        }
        let movetime = self
            .player
            .movetime
            .map_or("unlimited".to_string(), |time| time.to_string());
        process.command(&format!("set_option movetime {movetime}"));
        process.command("clear_board");
        let mut game = start.clone();
        for &mv in opening {
            let colour = game.format_player(game.side_to_move());
            process.command(&format!("play {colour} {}", game.format_move(mv)));
            game.play_unchecked(mv);
        }
    }

    /// The external engine's move, or `None` for an in-process seat.
    fn external_move(&mut self, game: &Gomoku) -> Option<GomokuMove> {
        let process = self.process.as_mut()?;
        let colour = game.format_player(game.side_to_move());
        let reply = process.command(&format!("genmove {colour}"));
        Some(game.parse_move(&reply).expect("a move"))
    }

    /// Tells the external engine the opponent's move.
    fn tell(&mut self, game: &Gomoku, mv: GomokuMove) {
        if let Some(process) = self.process.as_mut() {
            let colour = game.format_player(game.side_to_move());
            process.command(&format!("play {colour} {}", game.format_move(mv)));
        }
    }
}

fn play_game(
    start: &Gomoku,
    opening: &[GomokuMove],
    seats: &mut [Seat; 2],
    threads: usize,
) -> (Vec<GomokuMove>, Option<usize>) {
    let mut game = start.clone();
    let mut moves = opening.to_vec();
    for &mv in opening {
        game.try_play(mv).expect("a legal opening");
    }
    for seat in seats.iter_mut() {
        seat.table.clear();
        seat.workers.clear();
        seat.start_game(start, opening, threads);
    }
    while game.outcome().is_none() {
        let side = game.side_to_move();
        let seat = &mut seats[side];
        let begin = Instant::now();
        if let Some(mv) = seat.external_move(&game) {
            seat.time += begin.elapsed();
            seat.moves += 1;
            seats[side ^ 1].tell(&game, mv);
            game.try_play(mv).expect("the engine plays legal moves");
            moves.push(mv);
            continue;
        }
        let mut position = game.clone();
        if let Some(weights) = &seat.player.weights {
            position.set_weights(weights.clone());
        }
        let stop = AtomicBool::new(false);
        let outcome = search::search(
            &position,
            &seat.player.request(threads),
            &seat.table,
            &stop,
            &mut seat.workers,
            &mut |_| {},
        );
        seat.time += begin.elapsed();
        seat.moves += 1;
        let Some(mv) = outcome.best_move() else {
            let text: Vec<String> = moves.iter().map(|&mv| game.format_move(mv)).collect();
            panic!(
                "no move from the search while the game goes on, after {}",
                text.join(" ")
            );
        };
        seats[side ^ 1].tell(&game, mv);
        game.try_play(mv).expect("the search plays legal moves");
        moves.push(mv);
    }
    (moves, game.outcome().and_then(|outcome| outcome.winner()))
}

/// Random openings: two or three stones within two points of the centre, all different.
fn random_openings(start: &Gomoku, count: usize, seed: u64) -> Vec<Vec<GomokuMove>> {
    let size = start.size();
    let centre = size / 2;
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut openings: Vec<Vec<GomokuMove>> = Vec::new();
    while openings.len() < count {
        let stones = 2 + (next() % 2) as usize;
        let mut opening = Vec::new();
        while opening.len() < stones {
            let x = centre + (next() % 5) as usize - 2;
            let y = centre + (next() % 5) as usize - 2;
            let mv = start.from_gomocup(x, y).expect("on the board");
            if !opening.contains(&mv) {
                opening.push(mv);
            }
        }
        if !openings.contains(&opening) {
            openings.push(opening);
        }
    }
    openings
}

/// Reads an openings file: each line either a move sequence from the empty board (`h8 h9 g9`, as
/// in data/openings/) or c-gomoku-cli's offsets from the centre (`0,0, -1,0, 3,-1`, x to the right
/// and y down, as in data/gomoku-openings-*.txt).
fn read_openings(path: &str, start: &Gomoku) -> Vec<Vec<GomokuMove>> {
    let text = std::fs::read_to_string(path).expect("an openings file");
    text.lines()
        .map(|line| line.split('#').next().unwrap_or("").trim())
        .filter(|line| !line.is_empty())
        .map(|line| {
            let moves: Vec<GomokuMove> = if line.contains(',') {
                offset_opening(line, start.size())
            } else {
                line.split_whitespace()
                    .map(|text| start.parse_move(text).expect("a move"))
                    .collect()
            };
            let mut game = start.clone();
            for &mv in &moves {
                assert!(game.is_legal(mv), "illegal opening move in {line}");
                game.play_unchecked(mv);
            }
            moves
        })
        .collect()
}

/// The moves of an opening in offsets from the centre of a `size` board.
fn offset_opening(line: &str, size: usize) -> Vec<GomokuMove> {
    let numbers: Vec<i64> = line
        .split(',')
        .map(|number| number.trim().parse().expect("an offset"))
        .collect();
    assert!(
        numbers.len().is_multiple_of(2),
        "offsets come in x,y pairs: {line}"
    );
    let centre = (size / 2) as i64;
    numbers
        .chunks(2)
        .map(|pair| {
            let (x, y) = (centre + pair[0], centre + pair[1]);
            let inside = (0..size as i64).contains(&x) && (0..size as i64).contains(&y);
            assert!(inside, "an opening stone off the board: {line}");
            GomokuMove((y * size as i64 + x) as u16)
        })
        .collect()
}

/// The command line (see the module documentation).
#[derive(clap::Parser)]
struct Arguments {
    /// Games to play, each opening twice with the colours swapped.
    #[arg(long, default_value_t = 40)]
    games: usize,
    /// Board size.
    #[arg(long, default_value_t = 15)]
    size: usize,
    /// The rule: freestyle, standard or renju; several, comma-separated, are taken in turn, one
    /// pair of games each.
    #[arg(long, default_value = "freestyle")]
    rule: String,
    /// Search threads of each player.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Player A, as `key=value` words.
    #[arg(long, default_value = "level=8 movetime=200")]
    a: String,
    /// Player B, as `key=value` words.
    #[arg(long, default_value = "level=1")]
    b: String,
    /// An openings file (move sequences or c-gomoku-cli offsets); random openings without one.
    #[arg(long)]
    openings: Option<String>,
    /// A file to append the games to.
    #[arg(long)]
    out: Option<String>,
    /// Print only the summary.
    #[arg(long)]
    quiet: bool,
    /// Stop when this SPRT of A against B decides: `elo0=A elo1=B [alpha=X] [beta=Y]`.
    #[arg(long)]
    sprt: Option<String>,
}

/// The rule of the game pair `pair` and the index of its opening, with `rules` rules taken in
/// turn and `openings` openings per rule.
fn schedule(pair: usize, rules: usize, openings: usize) -> (usize, usize) {
    (pair % rules, (pair / rules) % openings)
}

/// The SPRT's verdict as the last line of the output says it.
fn verdict(status: &SprtStatus) -> &'static str {
    match status.decision {
        SprtDecision::AcceptH1 => "H1 accepted",
        SprtDecision::AcceptH0 => "H0 accepted",
        SprtDecision::Continue => "undecided",
    }
}

fn main() {
    let arguments: Arguments = clap::Parser::parse();
    let (games, size, threads, quiet) = (
        arguments.games,
        arguments.size,
        arguments.threads,
        arguments.quiet,
    );
    let rules: Vec<Rule> = arguments
        .rule
        .split(',')
        .map(|name| Rule::parse(name.trim()).expect("rule"))
        .collect();
    let sprt: Option<Sprt> = arguments.sprt.as_ref().map(|text| {
        let words: Vec<String> = text.split_whitespace().map(str::to_string).collect();
        parse_sprt(&words).expect("an SPRT: elo0=A elo1=B [alpha=X] [beta=Y]")
    });
    let players = [Player::parse(&arguments.a), Player::parse(&arguments.b)];
    let starts: Vec<Gomoku> = rules
        .iter()
        .map(|&rule| Gomoku::new(size, rule).expect("a board size"))
        .collect();
    let pairs_per_rule = games.div_ceil(2).div_ceil(rules.len());
    let openings: Vec<Vec<Vec<GomokuMove>>> = starts
        .iter()
        .map(|start| match &arguments.openings {
            Some(path) => read_openings(path, start),
            None => random_openings(start, pairs_per_rule, arguments.seed),
        })
        .collect();
    let mut out = arguments.out.as_ref().map(|path| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .expect("an output file")
    });
    let mut seats = players.clone().map(|player| Seat {
        player,
        table: TranspositionTable::new(16),
        workers: Vec::new(),
        time: Duration::ZERO,
        moves: 0,
        process: None,
    });
    let opening_count = openings.iter().map(Vec::len).min().unwrap_or(0);
    let mut per_rule = vec![Trinomial::default(); rules.len()];
    let mut pairs = Pentanomial::default();
    let mut pair_points = 0.0;
    let mut status = None;
    let mut results = Vec::new();
    for game_index in 0..games {
        let (rule_index, opening_index) = schedule(game_index / 2, rules.len(), opening_count);
        let (start, rule) = (&starts[rule_index], rules[rule_index]);
        let opening = &openings[rule_index][opening_index];
        // Even games: A is black; odd games: A is white.
        let a_colour = game_index % 2;
        if a_colour == 1 {
            seats.swap(0, 1);
        }
        let (moves, winner) = play_game(start, opening, &mut seats, threads);
        if a_colour == 1 {
            seats.swap(0, 1);
        }
        let a_result = match winner {
            None => 0.5,
            Some(colour) if colour == a_colour => 1.0,
            Some(_) => 0.0,
        };
        per_rule[rule_index].add(a_result);
        results.push(a_result);
        pair_points += a_result;
        if a_colour == 1 {
            pairs.add(pair_points);
            pair_points = 0.0;
        }
        let text: Vec<String> = moves.iter().map(|&mv| start.format_move(mv)).collect();
        let black_result = match winner {
            None => "0.5",
            Some(0) => "1",
            Some(_) => "0",
        };
        if let Some(file) = out.as_mut() {
            writeln!(
                file,
                "{} {size} {} {black_result}",
                rule.name(),
                text.join("")
            )
            .expect("writing a game");
        }
        if !quiet {
            println!(
                "game {:>3}: {}, A plays {}, {} plies, A scores {a_result}: {}",
                game_index + 1,
                rule.name(),
                if a_colour == 0 { "black" } else { "white" },
                moves.len(),
                text.join(" ")
            );
        }
        if let Some(sprt) = &sprt {
            if a_colour == 1 {
                let now = sprt.status(&Trinomial::default(), &pairs);
                status = Some(now);
                if now.decision != SprtDecision::Continue {
                    break;
                }
            }
        }
    }
    let mut all = Trinomial::default();
    for &result in &results {
        all.add(result);
    }
    let summary = |games: &Trinomial| {
        format!(
            "{} games, +{} ={} -{}, score {:.1}%, Elo {}",
            games.games(),
            games.wins,
            games.draws,
            games.losses,
            100.0 * games.score(),
            games.elo().map_or("-".to_string(), |elo| elo.text())
        )
    };
    println!(
        "A = {} vs B = {}: {}",
        players[0].name,
        players[1].name,
        summary(&all)
    );
    if rules.len() > 1 {
        for (rule, games) in rules.iter().zip(&per_rule) {
            println!("  {}: {}", rule.name(), summary(games));
        }
    }
    for seat in &seats {
        println!(
            "{}: {:.3} s per move over {} moves",
            seat.player.name,
            seat.time.as_secs_f64() / f64::from(seat.moves.max(1)),
            seat.moves
        );
    }
    if let (Some(sprt), Some(status)) = (&sprt, status) {
        println!(
            "SPRT (elo0={} elo1={} alpha={} beta={}, pairs {:?}): LLR {:.3}, bounds {:.3} .. {:.3}: {} after {} games",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            pairs.counts,
            status.llr,
            status.lower,
            status.upper,
            verdict(&status),
            results.len()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_take_turns_by_pairs() {
        // Two rules, three openings each: pairs go freestyle 0, renju 0, freestyle 1, ...
        let order: Vec<(usize, usize)> = (0..8).map(|pair| schedule(pair, 2, 3)).collect();
        assert_eq!(
            order,
            [
                (0, 0),
                (1, 0),
                (0, 1),
                (1, 1),
                (0, 2),
                (1, 2),
                (0, 0),
                (1, 0)
            ]
        );
        // One rule: the openings in order, as before there were several rules.
        assert_eq!(schedule(4, 1, 3), (0, 1));
    }

    #[test]
    fn the_sprt_verdict_names_each_decision() {
        let sprt = parse_sprt(&["elo0=0".to_string(), "elo1=20".to_string()]).unwrap();
        let mut pairs = Pentanomial::default();
        assert_eq!(
            verdict(&sprt.status(&Trinomial::default(), &pairs)),
            "undecided"
        );
        for _ in 0..60 {
            pairs.add(2.0);
        }
        assert_eq!(
            verdict(&sprt.status(&Trinomial::default(), &pairs)),
            "H1 accepted"
        );
        let mut pairs = Pentanomial::default();
        for _ in 0..60 {
            pairs.add(0.0);
        }
        assert_eq!(
            verdict(&sprt.status(&Trinomial::default(), &pairs)),
            "H0 accepted"
        );
    }

    /// The balanced openings of data/ are in c-gomoku-cli's offset format; reading them once
    /// panicked because each line was taken for a position string.
    #[test]
    fn reads_both_opening_formats_of_data() {
        let start = Gomoku::new(15, Rule::Freestyle).unwrap();
        let offsets = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/data/gomoku-openings-freestyle.txt"
        );
        let openings = read_openings(offsets, &start);
        assert!(openings.len() >= 10, "{} openings", openings.len());
        // `0,0, -1,0, 3,-1`: the centre h8, then g8, then k9 (y counts down, rows up).
        let first: Vec<GomokuMove> = ["h8", "g8", "k9"]
            .iter()
            .map(|text| start.parse_move(text).unwrap())
            .collect();
        assert_eq!(openings[0], first);
        let sequences = concat!(env!("CARGO_MANIFEST_DIR"), "/data/openings/gomoku-15.txt");
        let openings = read_openings(sequences, &start);
        assert!(openings.len() >= 10 && openings.iter().all(|opening| opening.len() == 3));
    }
}
