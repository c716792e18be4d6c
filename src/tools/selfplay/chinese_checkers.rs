//! Chinese Checkers games between seats played in-process: Tabula levels (with paranoid,
//! best-reply or Monte-Carlo tree search, with or without the race solver) and the greedy
//! player, seats rotating from game to game, results per contender and per seat.
//!
//! Each contender is an engine façade of its own (table, search threads, level), played through
//! the match loop of [`super`]: the game's direct move first (the greedy player at level 1, the race
//! solver once contact is over), otherwise the search with the level's depth cap, evaluation
//! strength and time cap, within the match's time per move. Every game starts from engines as new.

use super::{BetweenGames, Match, Pairing, Played};
use crate::engine::{clock, InfoMode, MoveTime, Settings};
use crate::game::{MultiplayerSearch, Rules, SearchHooks};
use crate::games::chinese_checkers::board::HOME_DISTANCE;
use crate::games::chinese_checkers::evaluation::Weights;
use crate::games::chinese_checkers::{greedy, ChineseCheckers, ChineseCheckersMove, RuleSet};
use crate::search::limits::Limits;
use anyhow::Result;
use std::fmt;
use std::ops::ControlFlow;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

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

/// The engine contender that plays `contender` in `settings`' match, with `weights` if given.
fn engine_contender(
    contender: Contender,
    settings: &MatchSettings,
    weights: Option<Weights>,
) -> super::Contender<ChineseCheckers> {
    let start = ChineseCheckers::from_rules(settings.rules).expect("valid rules");
    let (level, search, race, threads) = match contender {
        // Level 1 is the greedy player: the game's direct move, with no search.
        Contender::Greedy => (1, None, true, 1),
        Contender::Engine {
            level,
            search,
            race,
            threads,
        } => (level, search, race, threads),
    };
    let profile = start.level_profile(level);
    // The level's time cap within the match's time; the race solver keeps it in every mode.
    let time = profile
        .time
        .map_or(settings.movetime, |cap| cap.min(settings.movetime));
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
        .tightest(clock::move_time(time, Duration::ZERO)),
    };
    let engine_settings = Settings {
        level,
        threads,
        hash_megabytes: match contender {
            Contender::Greedy => 1,
            Contender::Engine { .. } => settings.hash_megabytes,
        },
        movetime: MoveTime::Fixed(time),
        overhead: Duration::ZERO,
        info: InfoMode::Off,
        multiplayer_search: search,
        direct_moves: race,
        ..Settings::default()
    };
    super::Contender {
        name: contender.to_string(),
        settings: engine_settings,
        limits: Some(limits),
        prepare: weights.map(|weights| {
            Arc::new(move |position: &mut ChineseCheckers| position.set_weights(weights))
                as super::Prepare<ChineseCheckers>
        }),
    }
}

/// Game `index` of the match: the seats rotated by the game's number, and the greedy opening
/// plies drawn with the game's seed.
fn pairing(settings: &MatchSettings, index: usize) -> Pairing<ChineseCheckers> {
    let players = settings.rules.players;
    let start = ChineseCheckers::from_rules(settings.rules).expect("valid rules");
    let at_seat: Vec<usize> = (0..players)
        .map(|seat| (seat + players - index % players) % players)
        .collect();
    let seed = crate::base::zobrist::mix(settings.seed ^ crate::base::zobrist::mix(index as u64));
    let mut position = start.clone();
    let mut opening = Vec::new();
    while opening.len() < settings.opening_plies && position.outcome().is_none() {
        let ply_seed = crate::base::zobrist::mix(seed ^ opening.len() as u64);
        let mv = greedy::greedy_move(&position, ply_seed).expect("a game in progress has a move");
        position.play_unchecked(mv);
        opening.push(mv);
    }
    Pairing {
        start,
        opening,
        seats: at_seat,
        seed,
    }
}

/// The result of a game the loop played, in the lineup's terms.
fn result_of(settings: &MatchSettings, played: &Played<ChineseCheckers>) -> GameResult {
    let players = settings.rules.players;
    let at_seat = &played.seats;
    let mut seats = vec![0; players];
    for (seat, &entry) in at_seat.iter().enumerate() {
        seats[entry] = seat;
    }
    let mut time = vec![Duration::ZERO; players];
    for (&seat, &spent) in played.movers[played.opening..].iter().zip(&played.times) {
        time[at_seat[seat]] += spent;
    }
    // Replayed for what each contender had left after each of its moves.
    let mut position = ChineseCheckers::from_rules(settings.rules).expect("valid rules");
    let mut moves = vec![0; players];
    let mut finished_after: Vec<Option<u32>> = vec![None; players];
    let mut rows_to_go: Vec<Vec<u16>> = vec![Vec::new(); players];
    for (&mv, &seat) in played.moves.iter().zip(&played.movers) {
        let entry = at_seat[seat];
        moves[entry] += 1;
        position.play_unchecked(mv);
        rows_to_go[entry].push((position.distance(seat) - HOME_DISTANCE) as u16);
        for (other, done) in finished_after.iter_mut().enumerate() {
            if done.is_none() && position.place(seats[other]).is_some() {
                *done = Some(moves[other]);
            }
        }
    }
    let end = if played.end.finish_order().len() >= players.saturating_sub(1).max(1) {
        End::Finished
    } else if played.end.is_repeated() {
        End::Repetition
    } else {
        End::Cap
    };
    GameResult {
        index: played.index,
        places: seats
            .iter()
            .map(|&seat| played.outcome.place(seat))
            .collect(),
        seats,
        end,
        plies: played.end.ply(),
        time,
        moves,
        finished_after,
        rows_to_go,
        history: played.moves.clone(),
    }
}

/// Plays game `index` of the match alone.
///
/// # Errors
/// As [`play_match`].
pub fn play_game(settings: &MatchSettings, index: usize) -> Result<GameResult> {
    let single = MatchSettings {
        games: index + 1,
        jobs: 1,
        ..settings.clone()
    };
    let contenders = contenders(&single);
    let games = Match {
        contenders: &contenders,
        games: 1,
        jobs: 1,
        between_games: BetweenGames::Forget,
    };
    let played = games.play(&|_| pairing(&single, index), &mut |_| {
        ControlFlow::Continue(())
    })?;
    let mut result = result_of(&single, &played[0]);
    result.index = index;
    Ok(result)
}

fn contenders(settings: &MatchSettings) -> Vec<super::Contender<ChineseCheckers>> {
    settings
        .lineup
        .iter()
        .enumerate()
        .map(|(entry, &contender)| {
            engine_contender(contender, settings, settings.weights.get(entry).copied())
        })
        .collect()
}

/// Plays the match on `settings.jobs` threads, handing each result to `each` as it comes.
///
/// # Errors
/// An engine failed to start or to move (which would be a bug).
pub fn play_match(
    settings: &MatchSettings,
    each: &mut dyn FnMut(&GameResult),
) -> Result<Vec<GameResult>> {
    let contenders = contenders(settings);
    let games = Match {
        contenders: &contenders,
        games: settings.games,
        jobs: settings.jobs,
        between_games: BetweenGames::Forget,
    };
    let played = games.play(&|index| pairing(settings, index), &mut |played| {
        each(&result_of(settings, played));
        ControlFlow::Continue(())
    })?;
    Ok(played
        .iter()
        .map(|played| result_of(settings, played))
        .collect())
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

/// The command line of `tabula selfplay chinese-checkers`.
#[derive(clap::Args, Debug)]
pub struct ChineseCheckersSelfplayArgs {
    /// Game options as key=value words, e.g. "players=6 jumps=long".
    #[arg(long, default_value = "players=2")]
    pub options: String,
    /// One contender per seat, comma-separated, in the seating of the first game.
    #[arg(long, required_unless_present = "crossing")]
    pub lineup: Option<String>,
    /// Instead of a match: the one-player crossing (camp 1 to camp 4) planned by the race
    /// solver at each of these beam widths, e.g. `100,1000`.
    #[arg(long, value_delimiter = ',', conflicts_with = "lineup")]
    pub crossing: Vec<usize>,
    /// Games to play.
    #[arg(long, default_value_t = 10)]
    pub games: usize,
    /// Milliseconds per move for the engines.
    #[arg(long, default_value_t = 100)]
    pub movetime: u64,
    /// Transposition table per engine, MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Seed of the greedy draws and openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games at once.
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Greedy opening plies before the contenders play.
    #[arg(long, default_value_t = 0)]
    pub opening: usize,
    /// A fixed search depth for every engine instead of the levels' limits and the time.
    #[arg(long)]
    pub depth: Option<u32>,
    /// A node budget per move instead of the time (the race solver keeps --movetime).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Evaluation weights of contender 1, e.g. "spread=8,hop=4" (the others keep the defaults;
    /// `--weights` is the Reversi weight file of every command).
    #[arg(long)]
    pub first_weights: Option<String>,
    /// Print one line per game.
    #[arg(long)]
    pub verbose: bool,
}

/// Runs `tabula selfplay chinese-checkers`.
///
/// # Errors
/// Bad options or lineup, or an engine error.
pub fn run(arguments: &ChineseCheckersSelfplayArgs) -> Result<()> {
    let Some(lineup) = &arguments.lineup else {
        return super::crossing::run(&arguments.crossing);
    };
    let pairs =
        crate::games::parse_options(&arguments.options.split_whitespace().collect::<Vec<_>>())?;
    let rules = RuleSet::from_options(&pairs)?;
    let lineup: Vec<Contender> = lineup
        .split(',')
        .map(|text| text.trim().parse())
        .collect::<Result<_, String>>()
        .map_err(anyhow::Error::msg)?;
    anyhow::ensure!(
        lineup.len() == rules.players,
        "the lineup needs {} contenders",
        rules.players
    );
    let settings = MatchSettings {
        rules,
        lineup,
        games: arguments.games,
        movetime: Duration::from_millis(arguments.movetime),
        hash_megabytes: arguments.hash,
        seed: arguments.seed,
        jobs: arguments.jobs,
        opening_plies: arguments.opening,
        weights: match &arguments.first_weights {
            None => Vec::new(),
            Some(text) => {
                let mut weights = vec![Weights::DEFAULT; rules.players];
                weights[0] = text.parse().map_err(anyhow::Error::msg)?;
                weights
            }
        },
        depth: arguments.depth,
        nodes: arguments.nodes,
    };
    println!(
        "options '{}', lineup {}, {} games, {} ms a move, nodes {:?}, depth {:?}, seed {}, opening {}",
        arguments.options,
        settings
            .lineup
            .iter()
            .map(|contender| contender.to_string())
            .collect::<Vec<_>>()
            .join(","),
        settings.games,
        arguments.movetime,
        settings.nodes,
        settings.depth,
        settings.seed,
        settings.opening_plies
    );
    let verbose = arguments.verbose;
    let results = play_match(&settings, &mut |result| {
        if verbose {
            let end = match result.end {
                End::Finished => "finished",
                End::Repetition => "repetition",
                End::Cap => "cap",
            };
            let finished: Vec<String> = result
                .finished_after
                .iter()
                .map(|moves| moves.map_or("-".to_string(), |moves| moves.to_string()))
                .collect();
            println!(
                "game {}: seats {:?} places {:?} finished after [{}] moves, {end} after {} plies",
                result.index + 1,
                result.seats.iter().map(|seat| seat + 1).collect::<Vec<_>>(),
                result.places,
                finished.join(", "),
                result.plies
            );
            // When each contender first had at most 60, 40, 20, 10 and 0 rows to go.
            for (entry, rows) in result.rows_to_go.iter().enumerate() {
                let reached: Vec<String> = [60, 40, 20, 10, 0]
                    .iter()
                    .map(|&mark| {
                        rows.iter()
                            .position(|&left| left <= mark)
                            .map_or("-".to_string(), |index| (index + 1).to_string())
                    })
                    .collect();
                println!(
                    "  contender {} ({}): moves to 60/40/20/10/0 rows to go: {}",
                    entry + 1,
                    settings.lineup[entry],
                    reached.join("/")
                );
            }
        }
    })?;
    print!("{}", summary(&settings, &results));
    Ok(())
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

    /// A contender's flags become its engine's settings: the level, the threads, the search for
    /// three or more players and whether the race solver may answer.
    #[test]
    fn contenders_become_engine_settings() {
        let settings = MatchSettings::at_fixed_depth(
            RuleSet::default(),
            vec![Contender::Greedy, "8:paranoid:norace:t2".parse().unwrap()],
            1,
            1,
            1,
            3,
        );
        let greedy = engine_contender(settings.lineup[0], &settings, None);
        assert_eq!(greedy.settings.level, 1);
        let engine = engine_contender(settings.lineup[1], &settings, Some(Weights::DEFAULT));
        assert_eq!(engine.settings.level, 8);
        assert_eq!(engine.settings.threads, 2);
        assert_eq!(
            engine.settings.multiplayer_search,
            Some(MultiplayerSearch::Paranoid)
        );
        assert!(!engine.settings.direct_moves);
        assert_eq!(engine.limits.and_then(|limits| limits.depth), Some(3));
        assert!(engine.prepare.is_some());
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
        let result = play_game(&settings, 0).unwrap();
        assert!(result.plies > 20);
        assert!(result.moves[0] > 10);
    }
}
