//! Chinese Checkers games between seats played in-process: Tabula levels (with paranoid,
//! best-reply or Monte-Carlo tree search, with or without the race solver) and the greedy
//! player, seats rotating from game to game, results per contender and per seat.
//!
//! Each contender has its own transposition table and search threads, as separate engines would.
//! A move is chosen the way the engine chooses it: the game's direct move first (the greedy player
//! at level 1, the race solver once contact is over), otherwise the search with the level's depth
//! cap, evaluation strength and time cap, within the match's time per move.

use crate::base::transposition::TranspositionTable;
use crate::engine::clock;
use crate::game::{DirectRequest, MultiplayerSearch, Rules, SearchHooks};
use crate::games::chinese_checkers::board::HOME_DISTANCE;
use crate::games::chinese_checkers::evaluation::Weights;
use crate::games::chinese_checkers::{greedy, race, ChineseCheckers, ChineseCheckersMove, RuleSet};
use crate::search::limits::Limits;
use crate::search::{self, SearchRequest, Worker};
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// One player of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contender {
    /// The reference design's greedy player (what level 1 plays).
    Greedy,
    /// A Tabula level.
    Engine {
        /// 1 to 8.
        level: u8,
        /// How three or more players are searched; `None`: as the game chooses.
        search: Option<MultiplayerSearch>,
        /// Whether the race solver plays once contact is over.
        race: bool,
        /// Search threads (1 unless `:tN` is given).
        threads: usize,
    },
}

impl FromStr for Contender {
    type Err = String;

    /// `greedy`, or a level `1`..`8` followed by any of `:brs`, `:paranoid`, `:mcts`, `:norace`
    /// and `:tN` (N search threads; default: the game's own search, with the race solver, on one
    /// thread).
    fn from_str(text: &str) -> Result<Contender, String> {
        let lower = text.to_ascii_lowercase();
        if lower == "greedy" {
            return Ok(Contender::Greedy);
        }
        let mut parts = lower.split(':');
        let level: u8 = parts
            .next()
            .and_then(|level| level.trim_start_matches('l').parse().ok())
            .filter(|level| (1..=8).contains(level))
            .ok_or_else(|| format!("'{text}': expected greedy or a level from 1 to 8"))?;
        let mut search = None;
        let mut race = true;
        let mut threads = 1;
        for flag in parts {
            match flag {
                "brs" => search = Some(MultiplayerSearch::BestReply),
                "paranoid" => search = Some(MultiplayerSearch::Paranoid),
                "mcts" => search = Some(MultiplayerSearch::MonteCarlo),
                "norace" => race = false,
                _ => {
                    threads = flag
                        .strip_prefix('t')
                        .and_then(|count| count.parse().ok())
                        .filter(|&count| count >= 1)
                        .ok_or_else(|| format!("'{text}': unknown flag '{flag}'"))?;
                }
            }
        }
        Ok(Contender::Engine {
            level,
            search,
            race,
            threads,
        })
    }
}

impl fmt::Display for Contender {
    fn fmt(&self, out: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Contender::Greedy => write!(out, "greedy"),
            Contender::Engine {
                level,
                search,
                race,
                threads,
            } => {
                write!(out, "L{level}")?;
                match search {
                    Some(MultiplayerSearch::BestReply) => write!(out, ":brs")?,
                    Some(MultiplayerSearch::Paranoid) => write!(out, ":paranoid")?,
                    Some(MultiplayerSearch::MonteCarlo) => write!(out, ":mcts")?,
                    None => {}
                }
                if !race {
                    write!(out, ":norace")?;
                }
                if *threads > 1 {
                    write!(out, ":t{threads}")?;
                }
                Ok(())
            }
        }
    }
}

/// A match.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    /// The rules (the player count among them).
    pub rules: RuleSet,
    /// One contender per seat, in the order of the first game; game `g` seats contender `i` at
    /// seat `(i + g) % players`.
    pub lineup: Vec<Contender>,
    /// Games to play.
    pub games: usize,
    /// Time per move of the engines (a level's own cap may be lower).
    pub movetime: Duration,
    /// Transposition table of each engine, in MB.
    pub hash_megabytes: usize,
    /// The seed of the greedy players' draws and of the openings.
    pub seed: u64,
    /// Games played at once, each on one thread.
    pub jobs: usize,
    /// Plies played by the greedy player (seeded per game) before the contenders take over, so
    /// that games between deterministic engines differ.
    pub opening_plies: usize,
    /// The evaluation weights of each contender (lineup order); empty for the defaults.
    pub weights: Vec<Weights>,
    /// A fixed search depth for every engine instead of the levels' limits and the time (for
    /// reproducible tuning).
    pub depth: Option<u32>,
    /// A node budget per move instead of the time: a machine's load then changes nothing (the
    /// levels' depth caps still apply; the race solver keeps `movetime`).
    pub nodes: Option<u64>,
}

impl MatchSettings {
    /// A reproducible match, as tuning and fitting want it: every engine searches to `depth` with
    /// no clock (the minute per move only bounds the race solver, which contenders used for this
    /// turn off), 16 MB tables, no opening plies, the default weights.
    pub fn at_fixed_depth(
        rules: RuleSet,
        lineup: Vec<Contender>,
        games: usize,
        seed: u64,
        jobs: usize,
        depth: u32,
    ) -> MatchSettings {
        MatchSettings {
            rules,
            lineup,
            games,
            movetime: Duration::from_secs(60),
            hash_megabytes: 16,
            seed,
            jobs,
            opening_plies: 0,
            weights: Vec::new(),
            depth: Some(depth),
            nodes: None,
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// Every player but one (solitaire: the player) finished.
    Finished,
    /// The move cap.
    Cap,
    /// A third repetition.
    Repetition,
}

/// One game's result.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// The game's number, from 0.
    pub index: usize,
    /// The seat of each contender (lineup order).
    pub seats: Vec<usize>,
    /// The place of each contender (lineup order), 1 first.
    pub places: Vec<u8>,
    /// How the game ended.
    pub end: End,
    /// Plies played.
    pub plies: u32,
    /// Thinking time of each contender (lineup order).
    pub time: Vec<Duration>,
    /// Moves of each contender (lineup order).
    pub moves: Vec<u32>,
    /// The moves each contender had made when it finished (lineup order), if it did.
    pub finished_after: Vec<Option<u32>>,
    /// The rows each contender still had to go (its distance sum less the home distance) after
    /// each of its moves (lineup order), to see where a game was won or lost.
    pub rows_to_go: Vec<Vec<u16>>,
    /// The moves played, from the start position of the rules.
    pub history: Vec<ChineseCheckersMove>,
}

/// One contender's engine: its table and search threads.
struct Seat {
    table: TranspositionTable,
    workers: Vec<Worker<ChineseCheckers>>,
}

/// Chooses `contender`'s move in `position`.
fn choose(
    contender: Contender,
    seat: Option<&mut Seat>,
    position: &ChineseCheckers,
    settings: &MatchSettings,
    seed: u64,
) -> ChineseCheckersMove {
    let movetime = settings.movetime;
    let (level, mode, race, threads) = match contender {
        Contender::Greedy => {
            return greedy::greedy_move(position, seed).expect("a game in progress has a move")
        }
        Contender::Engine {
            level,
            search,
            race,
            threads,
        } => (level, search, race, threads),
    };
    let start = Instant::now();
    let profile = position.level_profile(level);
    let time = profile.time.map_or(movetime, |cap| cap.min(movetime));
    let timed = clock::move_time(time, Duration::ZERO);
    let limits = match (settings.depth, settings.nodes) {
        (Some(depth), _) => Limits {
            depth: Some(depth),
            ..Limits::default()
        },
        (None, Some(nodes)) => Limits {
            depth: profile.depth,
            nodes: Some(nodes),
            ..Limits::default()
        },
        (None, None) => Limits {
            depth: profile.depth,
            ..Limits::default()
        }
        .tightest(timed),
    };
    let stop = AtomicBool::new(false);
    if race || level <= 1 {
        let request = DirectRequest {
            level,
            seed,
            stop: &stop,
            start,
            hard_time: limits.hard_time.or(timed.hard_time),
        };
        if let Some(direct) = position.direct_move(&request) {
            return direct.mv;
        }
    }
    let seat = seat.expect("an engine seat");
    let request = SearchRequest {
        limits,
        threads,
        strength: profile.strength,
        multi_pv: 1,
        instant_single_move: true,
        probcut: true,
        selectivity: None,
    };
    let mode = mode.unwrap_or_else(|| position.multiplayer_search(request.limits.depth));
    let outcome = search::search_with(
        position,
        &request,
        mode,
        &seat.table,
        &stop,
        &mut seat.workers,
        &mut |_| {},
    );
    outcome.best_move().expect("a game in progress has a move")
}

/// Plays game `index` of the match.
pub fn play_game(settings: &MatchSettings, index: usize) -> GameResult {
    let players = settings.rules.players;
    let mut position = ChineseCheckers::from_rules(settings.rules).expect("valid rules");
    // The race solver's plans of an earlier game on this thread are no help in this one.
    race::forget_plans();
    let seats: Vec<usize> = (0..players)
        .map(|entry| (entry + index) % players)
        .collect();
    let mut at_seat = vec![0; players];
    for (entry, &seat) in seats.iter().enumerate() {
        at_seat[seat] = entry;
    }
    let mut engines: Vec<Option<Seat>> = settings
        .lineup
        .iter()
        .map(|contender| match contender {
            Contender::Greedy => None,
            Contender::Engine { .. } => Some(Seat {
                table: TranspositionTable::new(settings.hash_megabytes),
                workers: Vec::new(),
            }),
        })
        .collect();
    let game_seed =
        crate::base::zobrist::mix(settings.seed ^ crate::base::zobrist::mix(index as u64));
    let mut time = vec![Duration::ZERO; players];
    let mut moves = vec![0; players];
    let mut finished_after: Vec<Option<u32>> = vec![None; players];
    let mut rows_to_go: Vec<Vec<u16>> = vec![Vec::new(); players];
    let mut history = Vec::new();
    let mut ply = 0u64;
    while position.outcome().is_none() {
        let seat = position.side_to_move();
        let entry = at_seat[seat];
        let seed = crate::base::zobrist::mix(game_seed ^ ply);
        let started = Instant::now();
        let mv = if (ply as usize) < settings.opening_plies {
            greedy::greedy_move(&position, seed).expect("a move")
        } else if let Some(&weights) = settings.weights.get(entry) {
            let mut weighted = position.clone();
            weighted.set_weights(weights);
            choose(
                settings.lineup[entry],
                engines[entry].as_mut(),
                &weighted,
                settings,
                seed,
            )
        } else {
            choose(
                settings.lineup[entry],
                engines[entry].as_mut(),
                &position,
                settings,
                seed,
            )
        };
        time[entry] += started.elapsed();
        moves[entry] += 1;
        position.try_play(mv).unwrap_or_else(|error| {
            panic!("{} played an illegal move: {error}", settings.lineup[entry])
        });
        history.push(mv);
        ply += 1;
        rows_to_go[entry].push((position.distance(seat) - HOME_DISTANCE) as u16);
        for (other, done) in finished_after.iter_mut().enumerate() {
            if done.is_none() && position.place(seats[other]).is_some() {
                *done = Some(moves[other]);
            }
        }
    }
    let outcome = position.outcome().expect("the game is over");
    let end = if position.finish_order().len() >= players.saturating_sub(1).max(1) {
        End::Finished
    } else if position.is_repeated() {
        End::Repetition
    } else {
        End::Cap
    };
    GameResult {
        index,
        places: seats.iter().map(|&seat| outcome.place(seat)).collect(),
        seats,
        end,
        plies: position.ply(),
        time,
        moves,
        finished_after,
        rows_to_go,
        history,
    }
}

/// Plays the match on `settings.jobs` threads, handing each result to `each` as it comes.
pub fn play_match(settings: &MatchSettings, each: &mut dyn FnMut(&GameResult)) -> Vec<GameResult> {
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel();
    let mut results = Vec::new();
    std::thread::scope(|scope| {
        for _ in 0..settings.jobs.max(1) {
            let sender = sender.clone();
            let next = &next;
            std::thread::Builder::new()
                .stack_size(64 << 20)
                .spawn_scoped(scope, move || loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= settings.games {
                        break;
                    }
                    if sender.send(play_game(settings, index)).is_err() {
                        break;
                    }
                })
                .expect("a game thread");
        }
        drop(sender);
        for result in receiver {
            each(&result);
            results.push(result);
        }
    });
    results.sort_by_key(|result| result.index);
    results
}

/// The summary of a match, as text: per contender its places and time, per seat the places of
/// each contender there, and how the games ended.
pub fn summary(settings: &MatchSettings, results: &[GameResult]) -> String {
    let players = settings.rules.players;
    let mut text = String::new();
    let games = results.len().max(1) as f64;
    for (entry, contender) in settings.lineup.iter().enumerate() {
        let mut counts = vec![0usize; players + 2];
        let mut place_sum = 0.0;
        let mut time = Duration::ZERO;
        let mut moves = 0u32;
        let mut finishes = Vec::new();
        for result in results {
            finishes.extend(result.finished_after[entry]);
            let place = result.places[entry] as usize;
            counts[place.min(players + 1)] += 1;
            place_sum += place as f64;
            time += result.time[entry];
            moves += result.moves[entry];
        }
        let places: Vec<String> = (1..=players.max(2))
            .map(|place| format!("{place}:{}", counts[place]))
            .collect();
        let finish = if finishes.is_empty() {
            "never finished".to_string()
        } else {
            format!(
                "finished {} times in {:.1} moves on average",
                finishes.len(),
                finishes.iter().sum::<u32>() as f64 / finishes.len() as f64
            )
        };
        text.push_str(&format!(
            "contender {} {contender}: first {}/{} ({:.1}%), places {}, mean place {:.2}, {finish}, {:.1} ms a move\n",
            entry + 1,
            counts[1],
            results.len(),
            100.0 * counts[1] as f64 / games,
            places.join(" "),
            place_sum / games,
            time.as_secs_f64() * 1000.0 / moves.max(1) as f64
        ));
    }
    for seat in 0..players {
        let line: Vec<String> = settings
            .lineup
            .iter()
            .enumerate()
            .map(|(entry, contender)| {
                let here: Vec<&GameResult> = results
                    .iter()
                    .filter(|result| result.seats[entry] == seat)
                    .collect();
                let firsts = here
                    .iter()
                    .filter(|result| result.places[entry] == 1)
                    .count();
                format!("{contender} first {firsts}/{}", here.len())
            })
            .collect();
        text.push_str(&format!("seat {}: {}\n", seat + 1, line.join(", ")));
    }
    let count = |end: End| results.iter().filter(|result| result.end == end).count();
    let plies: u32 = results.iter().map(|result| result.plies).sum();
    text.push_str(&format!(
        "ends: finished {}, repetition {}, cap {}; mean plies {:.0}\n",
        count(End::Finished),
        count(End::Repetition),
        count(End::Cap),
        plies as f64 / games
    ));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contenders_read_back_what_they_write() {
        for text in [
            "greedy",
            "L8",
            "L3:t2",
            "L8:brs",
            "L5:paranoid:norace",
            "L8:brs:t2",
            "L8:mcts",
        ] {
            let contender: Contender = text.parse().unwrap();
            assert_eq!(contender.to_string(), text);
        }
        assert_eq!(
            "8:t2".parse::<Contender>(),
            Ok(Contender::Engine {
                level: 8,
                search: None,
                race: true,
                threads: 2,
            })
        );
        for wrong in ["9", "8:t0", "8:tx", "8:fast"] {
            assert!(wrong.parse::<Contender>().is_err(), "{wrong}");
        }
    }

    #[test]
    fn a_two_thread_seat_plays_a_game() {
        let settings = MatchSettings {
            rules: RuleSet::default(),
            lineup: vec!["3:t2".parse().unwrap(), Contender::Greedy],
            games: 1,
            movetime: Duration::from_millis(5),
            hash_megabytes: 1,
            seed: 1,
            jobs: 1,
            opening_plies: 0,
            weights: Vec::new(),
            depth: Some(1),
            nodes: None,
        };
        let result = play_game(&settings, 0);
        assert!(result.plies > 20);
        assert!(result.moves[0] > 10);
    }
}
