//! `tabula selfplay gomoku`: games between two configurations of the engine, for strength tests
//! and for the evaluation's training games.
//!
//! A player is a list of `key=value` words naming engine options: `level=1..8` (the engine's
//! levels), `depth=N`, `movetime=MS` (`none`: no time limit), `nodes=N`, `weights=FILE`
//! (evaluation weights), `selectivity=plain` (the search without Gomoku's selective pruning
//! and deeper reductions, [`Settings::selectivity`]; `game`, the default, keeps them) and
//! `ordering=hand` or `fitted` (the move-ordering values; by default the rule's). A player's
//! limits are the engine's: without a depth, a node limit or a move time it thinks a second a
//! move. Each opening is played twice with the colours swapped;
//! without an openings file, openings are random two- and three-stone starts near the centre.
//! `--rule freestyle,renju` takes the rules in turn, one pair of games each. The summary gives A's
//! wins, draws and losses, its score and the Elo difference with a 95% interval (and per rule when
//! there are several). `--out` appends one line per game: the rule, the size, the moves from the
//! empty board and the result for black (1, 0.5, 0).
//!
//! With `--sprt`, the match is a sequential probability ratio test of A against B on the pairs of
//! games (`tabula match`'s test, see `src/tools/matches/statistics.rs`): it stops as soon as the
//! test decides, and `--games` is then the cap. The last line says `SPRT: H1 accepted`,
//! `H0 accepted` or `undecided` (the cap reached); the tuning pipeline
//! (scripts/train/tune-gomoku-eval.sh) counts only `H1 accepted` as a win for A. At a fixed depth
//! on one thread the games, and so the decision, are the same on every run. Another engine
//! binary is played with `tabula match`.

use super::{BetweenGames, Contender, Match, Pairing};
use crate::engine::{InfoMode, Settings};
use crate::game::{Rules, Selectivity};
use crate::games::gomoku::candidates::{FITTED_ORDERING, HAND_ORDERING};
use crate::games::gomoku::evaluation::Weights;
use crate::games::gomoku::{Gomoku, GomokuMove, Rule};
use crate::tools::matches::spec::parse_sprt;
use crate::tools::matches::statistics::{Pentanomial, Sprt, SprtDecision, SprtStatus, Trinomial};
use anyhow::{anyhow, bail, Context, Result};
use std::io::Write;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::Duration;

/// The command line of `tabula selfplay gomoku`.
#[derive(clap::Args, Debug)]
pub struct GomokuSelfplayArgs {
    /// Games to play, each opening twice with the colours swapped.
    #[arg(long, default_value_t = 40)]
    pub games: usize,
    /// Board size.
    #[arg(long, default_value_t = 15)]
    pub size: usize,
    /// The rule: freestyle, standard or renju; several, comma-separated, are taken in turn, one
    /// pair of games each.
    #[arg(long, default_value = "freestyle")]
    pub rule: String,
    /// Search threads of each player.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Player A, as `key=value` words.
    #[arg(long, default_value = "level=8 movetime=200")]
    pub a: String,
    /// Player B, as `key=value` words.
    #[arg(long, default_value = "level=1")]
    pub b: String,
    /// An openings file (move sequences or c-gomoku-cli offsets); random openings without one.
    #[arg(long)]
    pub openings: Option<String>,
    /// A file to append the games to.
    #[arg(long)]
    pub out: Option<String>,
    /// Print only the summary.
    #[arg(long)]
    pub quiet: bool,
    /// Stop when this SPRT of A against B decides: `elo0=A elo1=B [alpha=X] [beta=Y]`.
    #[arg(long)]
    pub sprt: Option<String>,
}

/// Time kept back from each move for the loop's own work.
const OVERHEAD: Duration = Duration::from_millis(5);

/// The engine contender a player's words describe.
fn player(spec: &str, threads: usize) -> Result<Contender<Gomoku>> {
    let mut settings = Settings {
        threads,
        hash_megabytes: 16,
        info: InfoMode::Off,
        overhead: OVERHEAD,
        ..Settings::default()
    };
    let mut weights = None;
    let mut ordering = None;
    for word in spec.split([' ', ',']).filter(|word| !word.is_empty()) {
        let (key, value) = word
            .split_once('=')
            .with_context(|| format!("player '{spec}': '{word}' is not key=value"))?;
        match key {
            "level" | "depth" | "movetime" | "nodes" => {
                crate::engine::options::find(key)
                    .and_then(|option| option.set(&mut settings, value))
                    .map_err(|error| anyhow!("player '{spec}': {error}"))?;
            }
            "weights" => {
                let text =
                    std::fs::read_to_string(value).with_context(|| format!("reading {value}"))?;
                let parsed =
                    Weights::parse(&text).map_err(|error| anyhow!("weights {value}: {error}"))?;
                weights = Some(parsed.shared());
            }
            "ordering" => {
                ordering = Some(match value {
                    "hand" => &HAND_ORDERING,
                    "fitted" => &FITTED_ORDERING,
                    _ => bail!("player '{spec}': ordering is 'hand' or 'fitted', not '{value}'"),
                });
            }
            "selectivity" => {
                settings.selectivity = match value {
                    "game" => None,
                    "plain" => Some(Selectivity::default()),
                    _ => bail!("player '{spec}': selectivity is 'game' or 'plain', not '{value}'"),
                };
                // The plain search prunes nothing selectively, ProbCut included.
                settings.probcut = settings.selectivity.is_none();
            }
            _ => bail!(
                "player '{spec}': unknown key '{key}' (level, depth, movetime, nodes, weights, \
                 selectivity, ordering)"
            ),
        }
    }
    let prepare = (weights.is_some() || ordering.is_some()).then(|| {
        Arc::new(move |position: &mut Gomoku| {
            if let Some(weights) = &weights {
                position.set_weights(weights.clone());
            }
            if let Some(ordering) = ordering {
                position.set_ordering(ordering);
            }
        }) as super::Prepare<Gomoku>
    });
    Ok(Contender {
        prepare,
        ..Contender::new(spec, settings)
    })
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
///
/// # Errors
/// The file cannot be read, or a line is no legal opening on `start`.
pub fn read_openings(path: &str, start: &Gomoku) -> Result<Vec<Vec<GomokuMove>>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
    text.lines()
        .map(|line| line.split('#').next().unwrap_or("").trim())
        .filter(|line| !line.is_empty())
        .map(|line| {
            let moves: Vec<GomokuMove> = if line.contains(',') {
                offset_opening(line, start.size())?
            } else {
                line.split_whitespace()
                    .map(|text| {
                        start
                            .parse_move(text)
                            .map_err(|error| anyhow!("opening '{line}': {error}"))
                    })
                    .collect::<Result<_>>()?
            };
            let mut game = start.clone();
            for &mv in &moves {
                if !game.is_legal(mv) {
                    bail!("illegal opening move in {line}");
                }
                game.play_unchecked(mv);
            }
            Ok(moves)
        })
        .collect()
}

/// The moves of an opening in offsets from the centre of a `size` board.
fn offset_opening(line: &str, size: usize) -> Result<Vec<GomokuMove>> {
    let numbers: Vec<i64> = line
        .split(',')
        .map(|number| {
            number
                .trim()
                .parse()
                .with_context(|| format!("opening '{line}': '{number}' is no offset"))
        })
        .collect::<Result<_>>()?;
    if !numbers.len().is_multiple_of(2) {
        bail!("offsets come in x,y pairs: {line}");
    }
    let centre = (size / 2) as i64;
    numbers
        .chunks(2)
        .map(|pair| {
            let (x, y) = (centre + pair[0], centre + pair[1]);
            let inside = (0..size as i64).contains(&x) && (0..size as i64).contains(&y);
            if !inside {
                bail!("an opening stone off the board: {line}");
            }
            Ok(GomokuMove((y * size as i64 + x) as u16))
        })
        .collect()
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

/// Runs `tabula selfplay gomoku`.
///
/// # Errors
/// Bad options, players or openings, or an output file that cannot be written.
pub fn run(arguments: &GomokuSelfplayArgs) -> Result<()> {
    let (games, size, quiet) = (arguments.games, arguments.size, arguments.quiet);
    let rules: Vec<Rule> = arguments
        .rule
        .split(',')
        .map(|name| Rule::parse(name.trim()).with_context(|| format!("unknown rule '{name}'")))
        .collect::<Result<_>>()?;
    let sprt: Option<Sprt> = match &arguments.sprt {
        Some(text) => {
            let words: Vec<String> = text.split_whitespace().map(str::to_string).collect();
            Some(parse_sprt(&words)?)
        }
        None => None,
    };
    let players = [
        player(&arguments.a, arguments.threads)?,
        player(&arguments.b, arguments.threads)?,
    ];
    let starts: Vec<Gomoku> = rules
        .iter()
        .map(|&rule| Gomoku::new(size, rule).map_err(|error| anyhow!("{error}")))
        .collect::<Result<_>>()?;
    let pairs_per_rule = games.div_ceil(2).div_ceil(rules.len());
    let openings: Vec<Vec<Vec<GomokuMove>>> = starts
        .iter()
        .map(|start| match &arguments.openings {
            Some(path) => read_openings(path, start),
            None => Ok(random_openings(start, pairs_per_rule, arguments.seed)),
        })
        .collect::<Result<_>>()?;
    let opening_count = openings.iter().map(Vec::len).min().unwrap_or(0);
    if opening_count == 0 {
        bail!("no openings");
    }
    let mut out = match &arguments.out {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| format!("opening {path}"))?,
        ),
        None => None,
    };
    let game_plan = |index: usize| {
        let (rule_index, opening_index) = schedule(index / 2, rules.len(), opening_count);
        (rule_index, &openings[rule_index][opening_index])
    };
    // Even games: A is black; odd games: A is white.
    let pairing = |index: usize| {
        let (rule_index, opening) = game_plan(index);
        Pairing {
            start: starts[rule_index].clone(),
            opening: opening.clone(),
            seats: if index.is_multiple_of(2) {
                vec![0, 1]
            } else {
                vec![1, 0]
            },
            seed: 0,
        }
    };
    let mut per_rule = vec![Trinomial::default(); rules.len()];
    let mut pairs = Pentanomial::default();
    let mut pair_points = 0.0;
    let mut status = None;
    let mut results = Vec::new();
    let mut thinking = [(Duration::ZERO, 0u32); 2];
    let mut failure = None;
    let games_played = Match {
        contenders: &players,
        games,
        jobs: 1,
        between_games: BetweenGames::Clear,
    };
    games_played.play(&pairing, &mut |played| {
        let (rule_index, _) = game_plan(played.index);
        let (start, rule) = (&starts[rule_index], rules[rule_index]);
        let a_colour = played.index % 2;
        let winner = played.outcome.winner();
        let a_result = match winner {
            None => 0.5,
            Some(colour) if colour == a_colour => 1.0,
            Some(_) => 0.0,
        };
        for (total, (time, moves)) in thinking.iter_mut().zip(played.thinking(2)) {
            total.0 += time;
            total.1 += moves;
        }
        per_rule[rule_index].add(a_result);
        results.push(a_result);
        pair_points += a_result;
        if a_colour == 1 {
            pairs.add(pair_points);
            pair_points = 0.0;
        }
        let text: Vec<String> = played
            .moves
            .iter()
            .map(|&mv| start.format_move(mv))
            .collect();
        let black_result = match winner {
            None => "0.5",
            Some(0) => "1",
            Some(_) => "0",
        };
        if let Some(file) = out.as_mut() {
            if let Err(error) = writeln!(
                file,
                "{} {size} {} {black_result}",
                rule.name(),
                text.join("")
            ) {
                failure = Some(error);
                return ControlFlow::Break(());
            }
        }
        if !quiet {
            println!(
                "game {:>3}: {}, A plays {}, {} plies, A scores {a_result}: {}",
                played.index + 1,
                rule.name(),
                if a_colour == 0 { "black" } else { "white" },
                played.moves.len(),
                text.join(" ")
            );
        }
        if let Some(sprt) = &sprt {
            if a_colour == 1 {
                let now = sprt.status(&Trinomial::default(), &pairs);
                status = Some(now);
                if now.decision != SprtDecision::Continue {
                    return ControlFlow::Break(());
                }
            }
        }
        ControlFlow::Continue(())
    })?;
    if let Some(error) = failure {
        return Err(error).context("writing a game");
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
    for (contender, (time, moves)) in players.iter().zip(thinking) {
        println!(
            "{}: {:.3} s per move over {} moves",
            contender.name,
            time.as_secs_f64() / f64::from(moves.max(1)),
            moves
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
    Ok(())
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
        let openings = read_openings(offsets, &start).unwrap();
        assert!(openings.len() >= 10, "{} openings", openings.len());
        // `0,0, -1,0, 3,-1`: the centre h8, then g8, then k9 (y counts down, rows up).
        let first: Vec<GomokuMove> = ["h8", "g8", "k9"]
            .iter()
            .map(|text| start.parse_move(text).unwrap())
            .collect();
        assert_eq!(openings[0], first);
        let sequences = concat!(env!("CARGO_MANIFEST_DIR"), "/data/openings/gomoku-15.txt");
        let openings = read_openings(sequences, &start).unwrap();
        assert!(openings.len() >= 10 && openings.iter().all(|opening| opening.len() == 3));
    }

    /// A player's words are engine options; a bad one is an error, not a panic.
    #[test]
    fn players_are_engine_options() {
        let contender = player("depth=4 movetime=none", 1).unwrap();
        assert_eq!(contender.settings.depth, Some(4));
        assert_eq!(
            contender.settings.movetime,
            crate::engine::MoveTime::Unlimited
        );
        assert_eq!(contender.settings.selectivity, None);
        let plain = player("depth=4 selectivity=plain", 1).unwrap();
        assert_eq!(plain.settings.selectivity, Some(Selectivity::default()));
        assert!(!plain.settings.probcut);
        assert!(contender.settings.probcut);
        assert!(contender.prepare.is_none());
        let hand = player("depth=4 ordering=hand", 1).unwrap();
        let mut position = Gomoku::new(15, Rule::Freestyle).unwrap();
        assert_ne!(position.ordering(), &HAND_ORDERING);
        (hand.prepare.expect("ordering prepares the position"))(&mut position);
        assert_eq!(position.ordering(), &HAND_ORDERING);
        for wrong in [
            "depth",
            "depth=x",
            "colour=black",
            "level=9",
            "selectivity=none",
            "ordering=best",
        ] {
            assert!(player(wrong, 1).is_err(), "{wrong}");
        }
    }

    /// A game already under way when the callback ends the match is not handed to it: the SPRT's
    /// count of games must not depend on how fast the next game started.
    #[test]
    fn games_after_the_stop_are_not_handed_on() {
        use std::sync::atomic::{AtomicBool, Ordering};
        let players = [
            player("depth=1 movetime=none", 1).unwrap(),
            player("depth=1 movetime=none", 1).unwrap(),
        ];
        let start = Gomoku::new(7, Rule::Freestyle).unwrap();
        let stopped = AtomicBool::new(false);
        // The second game waits for the stop, so it is always under way when it comes.
        let pairing = |index: usize| {
            while index > 0 && !stopped.load(Ordering::SeqCst) {
                std::thread::yield_now();
            }
            Pairing {
                start: start.clone(),
                opening: Vec::new(),
                seats: vec![index % 2, 1 - index % 2],
                seed: 0,
            }
        };
        let mut handed = 0;
        let games = Match {
            contenders: &players,
            games: 4,
            jobs: 1,
            between_games: BetweenGames::Clear,
        };
        let played = games
            .play(&pairing, &mut |_| {
                handed += 1;
                stopped.store(true, Ordering::SeqCst);
                ControlFlow::Break(())
            })
            .unwrap();
        assert_eq!(handed, 1);
        assert_eq!(played.len(), 1);
    }
}
