//! The tallies of a match and their text: the score line after each game, and at the end the Elo
//! difference, LOS, draw ratio, pentanomial statistics, the SPRT, places per engine and per seat
//! (for more than two seats), endings and move times.

use super::records::{GameRecord, Termination};
use super::schedule::pair_of;
use super::statistics::{self, Interval, Pentanomial, Sprt, SprtDecision, SprtModel, Trinomial};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

/// Move times of one engine.
#[derive(Clone, Copy, Debug, Default)]
struct Times {
    moves: u64,
    total_ms: u64,
    max_ms: u64,
}

/// Everything counted so far.
#[derive(Debug)]
pub struct Results {
    names: Vec<String>,
    seats: usize,
    /// Games counted.
    pub games: usize,
    /// Head-to-head tallies of engine pairs `(i, j)`, `i < j`, from `i`'s side.
    head_to_head: BTreeMap<(usize, usize), Trinomial>,
    /// Pairs of two-player games (engines 0 and 1), from engine 0's side.
    pairs: Pentanomial,
    half_pairs: HashMap<usize, f64>,
    places_by_engine: Vec<Vec<u32>>,
    places_by_seat: Vec<Vec<u32>>,
    endings: BTreeMap<&'static str, u32>,
    forfeits: BTreeMap<(usize, &'static str), u32>,
    times: Vec<Times>,
    /// The Elo estimate of engine 0 against engine 1 after each game: (games, interval).
    pub history: Vec<(usize, Interval)>,
    /// The SPRT's first decision and the games counted when it was made: games already in play
    /// still finish and count, and may move the LLR back inside the bounds, but the decision holds.
    sprt_decision: Option<(usize, statistics::SprtStatus)>,
}

impl Results {
    /// Empty tallies for engines `names` in `seats` seats.
    pub fn new(names: Vec<String>, seats: usize) -> Results {
        let engines = names.len();
        Results {
            names,
            seats,
            games: 0,
            head_to_head: BTreeMap::new(),
            pairs: Pentanomial::default(),
            half_pairs: HashMap::new(),
            places_by_engine: vec![vec![0; seats]; engines],
            places_by_seat: vec![vec![0; seats]; seats],
            endings: BTreeMap::new(),
            forfeits: BTreeMap::new(),
            times: vec![Times::default(); engines],
            history: Vec::new(),
            sprt_decision: None,
        }
    }

    /// Checks the SPRT after a game and keeps its first decision; true when this game decided it.
    pub fn decide(&mut self, sprt: &Sprt) -> bool {
        if self.sprt_decision.is_some() {
            return false;
        }
        let status = self.sprt(sprt);
        if status.decision == SprtDecision::Continue {
            return false;
        }
        self.sprt_decision = Some((self.games, status));
        true
    }

    /// The main tally: engine 0 against engine 1.
    pub fn main(&self) -> Trinomial {
        self.head_to_head.get(&(0, 1)).copied().unwrap_or_default()
    }

    /// The pentanomial tally of engine 0 against engine 1 (two seats only).
    pub fn pairs(&self) -> Pentanomial {
        self.pairs
    }

    /// Counts a finished game whose seat `s` held engine `engines[s]`.
    pub fn add(&mut self, record: &GameRecord, engines: &[usize]) {
        if record.termination == Termination::Interrupted {
            return;
        }
        self.games += 1;
        *self.endings.entry(record.termination.name()).or_default() += 1;
        if let Some(loser) = record.loser {
            *self
                .forfeits
                .entry((engines[loser], record.termination.name()))
                .or_default() += 1;
        }
        for (seat, &place) in record.places.iter().enumerate() {
            let place = (place.max(1) as usize - 1).min(self.seats - 1);
            self.places_by_engine[engines[seat]][place] += 1;
            self.places_by_seat[seat][place] += 1;
        }
        for first in 0..engines.len() {
            for second in first + 1..engines.len() {
                let (a, b) = (engines[first], engines[second]);
                if a == b {
                    continue;
                }
                let points = match record.places[first].cmp(&record.places[second]) {
                    std::cmp::Ordering::Less => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Greater => 0.0,
                };
                let (key, points) = if a < b {
                    ((a, b), points)
                } else {
                    ((b, a), 1.0 - points)
                };
                self.head_to_head.entry(key).or_default().add(points);
            }
        }
        if self.seats == 2 && self.names.len() == 2 {
            let points = match record.places[0].cmp(&record.places[1]) {
                std::cmp::Ordering::Less => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Greater => 0.0,
            };
            let points = if engines[0] == 0 {
                points
            } else {
                1.0 - points
            };
            match self.half_pairs.remove(&pair_of(record.number)) {
                Some(first) => self.pairs.add(first + points),
                None => {
                    self.half_pairs.insert(pair_of(record.number), points);
                }
            }
        }
        for (&millis, &seat) in record.move_ms.iter().zip(&record.move_seats) {
            let times = &mut self.times[engines[seat]];
            times.moves += 1;
            times.total_ms += millis;
            times.max_ms = times.max_ms.max(millis);
        }
        if let Some(elo) = self.main().elo() {
            self.history.push((self.games, elo));
        }
    }

    /// `Finished game N (A vs B): result {reason}`.
    pub fn finished_line(record: &GameRecord) -> String {
        format!(
            "Finished game {} ({}): {} {{{}}}",
            record.number,
            record.seats.join(" vs "),
            record.result,
            record.reason
        )
    }

    /// `Score of A vs B: W - L - D  [score] N` for every pair of engines that met.
    pub fn score_lines(&self) -> Vec<String> {
        self.head_to_head
            .iter()
            .map(|(&(a, b), tally)| {
                format!(
                    "Score of {} vs {}: {} - {} - {}  [{:.3}] {}{}",
                    self.names[a],
                    self.names[b],
                    tally.wins,
                    tally.losses,
                    tally.draws,
                    tally.score(),
                    tally.games(),
                    if self.seats > 2 { " (seat pairs)" } else { "" }
                )
            })
            .collect()
    }

    /// The SPRT on engine 0 against engine 1.
    pub fn sprt(&self, sprt: &Sprt) -> statistics::SprtStatus {
        sprt.status(&self.main(), &self.pairs)
    }

    /// The full report.
    pub fn report(&self, sprt: Option<&Sprt>) -> String {
        let mut text = String::new();
        for line in self.score_lines() {
            let _ = writeln!(text, "{line}");
        }
        let main = self.main();
        if let Some(elo) = main.elo() {
            let _ = writeln!(text, "{}", elo_line(&main, &elo));
        }
        if let Some(elo) = self.pairs.elo() {
            let _ = writeln!(
                text,
                "Ptnml(0-2): {:?}, {} pairs: Elo {}",
                self.pairs.counts,
                self.pairs.pairs(),
                elo.text()
            );
        }
        if let Some(sprt) = sprt {
            let status = self.sprt(sprt);
            let model = match sprt.model {
                SprtModel::Logistic if self.pairs.pairs() > 0 => "logistic, pentanomial",
                SprtModel::Logistic => "logistic, trinomial",
                SprtModel::BayesElo => "BayesElo",
            };
            let decided = self
                .sprt_decision
                .map_or(status.decision, |(_, first)| first.decision);
            let decision = match decided {
                SprtDecision::Continue => "continue",
                SprtDecision::AcceptH0 => "H0 accepted",
                SprtDecision::AcceptH1 => "H1 accepted",
            };
            let _ = writeln!(
                text,
                "SPRT ({model}; elo0={} elo1={} alpha={} beta={}): LLR {:.3} ({:.1}%), bounds {:.3} .. {:.3}: {decision}",
                sprt.elo0,
                sprt.elo1,
                sprt.alpha,
                sprt.beta,
                status.llr,
                100.0 * status.llr / if status.llr < 0.0 { -status.lower } else { status.upper },
                status.lower,
                status.upper
            );
            if let Some((games, first)) =
                self.sprt_decision.filter(|&(games, _)| games != self.games)
            {
                let _ = writeln!(
                    text,
                    "SPRT decided after {games} games (LLR {:.3}); the {} games in play then were finished and are counted above",
                    first.llr,
                    self.games - games
                );
            }
        }
        if self.seats > 2 {
            let _ = writeln!(
                text,
                "Places by engine (games, mean place, then 1st 2nd ...):"
            );
            for (engine, places) in self.places_by_engine.iter().enumerate() {
                let _ = writeln!(text, "  {:<16} {}", self.names[engine], places_text(places));
            }
            let _ = writeln!(text, "Places by seat:");
            for (seat, places) in self.places_by_seat.iter().enumerate() {
                let _ = writeln!(text, "  seat {:<11} {}", seat + 1, places_text(places));
            }
        }
        let endings: Vec<String> = self
            .endings
            .iter()
            .map(|(name, count)| format!("{name} {count}"))
            .collect();
        let _ = writeln!(text, "Endings: {}", endings.join(", "));
        if !self.forfeits.is_empty() {
            let forfeits: Vec<String> = self
                .forfeits
                .iter()
                .map(|(&(engine, name), count)| format!("{} {name} {count}", self.names[engine]))
                .collect();
            let _ = writeln!(text, "Forfeits: {}", forfeits.join(", "));
        }
        for (engine, times) in self.times.iter().enumerate() {
            if let Some(mean) = times.total_ms.checked_div(times.moves) {
                let _ = writeln!(
                    text,
                    "Move time of {}: mean {mean} ms, max {} ms over {} moves",
                    self.names[engine], times.max_ms, times.moves
                );
            }
        }
        text
    }
}

/// `Elo difference: ... LOS ... draw ratio ...`.
fn elo_line(tally: &Trinomial, elo: &Interval) -> String {
    let mut line = if elo.elo.is_infinite() {
        let bound = statistics::elo_of_score(statistics::sweep_bound(tally.games()));
        if elo.elo > 0.0 {
            format!(
                "Elo difference: +inf (every game won; 95% lower bound {:+.1})",
                bound
            )
        } else {
            format!(
                "Elo difference: -inf (every game lost; 95% upper bound {:+.1})",
                -bound
            )
        }
    } else {
        format!("Elo difference: {}", elo.text())
    };
    let _ = write!(
        line,
        ", LOS: {:.1} %, draw ratio: {:.1} %",
        100.0 * tally.los(),
        100.0 * tally.draw_ratio()
    );
    line
}

fn places_text(places: &[u32]) -> String {
    let games: u32 = places.iter().sum();
    let mean = places
        .iter()
        .enumerate()
        .map(|(index, &count)| (index + 1) as f64 * count as f64)
        .sum::<f64>()
        / games.max(1) as f64;
    let counts: Vec<String> = places.iter().map(u32::to_string).collect();
    format!("{games:>5} {mean:>6.2}   {}", counts.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(
        number: usize,
        places: Vec<u8>,
        termination: Termination,
        loser: Option<usize>,
    ) -> GameRecord {
        GameRecord {
            number,
            game: "reversi".into(),
            options: Default::default(),
            opening: None,
            seats: vec![],
            start: String::new(),
            moves: vec![],
            opening_plies: 0,
            result: String::new(),
            places,
            termination,
            reason: String::new(),
            loser,
            move_ms: vec![10, 20],
            move_seats: vec![0, 1],
            duration_ms: 0,
        }
    }

    #[test]
    fn two_player_games_in_pairs() {
        let mut results = Results::new(vec!["a".into(), "b".into()], 2);
        // Game 1: a (black) wins; game 2: a (white) draws; game 3: b (black) wins by forfeit of a.
        results.add(&record(1, vec![1, 2], Termination::Normal, None), &[0, 1]);
        results.add(&record(2, vec![1, 1], Termination::Normal, None), &[1, 0]);
        results.add(
            &record(3, vec![1, 2], Termination::TimeForfeit, Some(1)),
            &[1, 0],
        );
        let main = results.main();
        assert_eq!((main.wins, main.draws, main.losses), (1, 1, 1));
        assert_eq!(results.pairs().counts, [0, 0, 0, 1, 0]);
        assert_eq!(results.history.len(), 3);
        let report = results.report(None);
        assert!(
            report.starts_with("Score of a vs b: 1 - 1 - 1  [0.500] 3\n"),
            "{report}"
        );
        assert!(report.contains("Forfeits: a time-forfeit 1"), "{report}");
        assert!(report.contains("Move time of a: mean 16 ms"), "{report}");
        // Interrupted games do not count.
        results.add(
            &record(4, vec![1, 1], Termination::Interrupted, None),
            &[0, 1],
        );
        assert_eq!(results.games, 3);
    }

    #[test]
    fn the_first_sprt_decision_holds_after_the_games_in_play() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 100.0,
            alpha: 0.2,
            beta: 0.2,
            model: statistics::SprtModel::Logistic,
        };
        let mut results = Results::new(vec!["a".into(), "b".into()], 2);
        let mut number = 0;
        let mut pair = |results: &mut Results, a_wins: bool| {
            let places = if a_wins { vec![1, 2] } else { vec![2, 1] };
            number += 1;
            results.add(
                &record(number, places.clone(), Termination::Normal, None),
                &[0, 1],
            );
            number += 1;
            results.add(&record(number, places, Termination::Normal, None), &[0, 1]);
        };
        // Mixed pairs, then a's wins until H1.
        pair(&mut results, false);
        pair(&mut results, true);
        let mut decided = false;
        for _ in 0..20 {
            pair(&mut results, true);
            if results.decide(&sprt) {
                decided = true;
                break;
            }
        }
        assert!(decided);
        let games = results.games;
        // Games that were in play lose and take the LLR back inside the bounds.
        for _ in 0..20 {
            if results.sprt(&sprt).decision == SprtDecision::Continue {
                break;
            }
            pair(&mut results, false);
        }
        assert_eq!(results.sprt(&sprt).decision, SprtDecision::Continue);
        assert!(!results.decide(&sprt));
        let report = results.report(Some(&sprt));
        assert!(report.contains(": H1 accepted\n"), "{report}");
        assert!(
            report.contains(&format!("SPRT decided after {games} games")),
            "{report}"
        );
    }

    #[test]
    fn many_seats_give_places_and_seat_pairs() {
        let mut results = Results::new(vec!["a".into(), "b".into()], 3);
        // Seats a b a: places 2 1 3 → b beats both a seats.
        results.add(
            &record(1, vec![2, 1, 3], Termination::Normal, None),
            &[0, 1, 0],
        );
        let main = results.main();
        assert_eq!((main.wins, main.draws, main.losses), (0, 0, 2));
        let report = results.report(None);
        assert!(report.contains("(seat pairs)"), "{report}");
        assert!(report.contains("Places by engine"), "{report}");
        assert_eq!(results.places_by_engine[0], vec![0, 1, 1]);
        assert_eq!(results.places_by_engine[1], vec![1, 0, 0]);
        assert_eq!(results.places_by_seat[1], vec![1, 0, 0]);
    }
}
