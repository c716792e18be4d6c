//! The referee: plays one game between engine instances, keeping the true game state in an
//! in-process Tabula session and checking every move against it. An illegal move, a crash, a hang,
//! a timeout or a refused command loses the game for that engine, with the reason recorded.

use super::client::{Client, Fault, GameSetup, MoveRequest, PlayedMove};
use super::clock::MatchClock;
use super::gtp_client::GtpClient;
use super::nboard_client::NboardClient;
use super::piskvork_client::PiskvorkClient;
use super::process::Process;
use super::records::{GameRecord, Termination};
use super::spec::{EngineProtocol, EngineSpec};
use crate::engine::{new_session, InfoMode, Mode, Request, Score, Session, Settings, StopSignal};
use crate::game::{Game, Player};
use crate::games::{self, GameVisitor};
use crate::search::limits::Limits;
use crate::tools::interrupt::Interrupt;
use crate::tools::positions::Start;
use anyhow::{Context, Result};
use std::sync::Arc;
use std::time::Instant;

/// One engine process that sits in a seat, started when first needed and restarted after it
/// failed.
pub struct Instance {
    spec: Arc<EngineSpec>,
    label: String,
    client: Option<Box<dyn Client>>,
    interrupt: Interrupt,
}

impl Instance {
    /// An instance of `spec`, not started yet; `label` names its process in the log.
    pub fn new(spec: Arc<EngineSpec>, label: String, interrupt: Interrupt) -> Instance {
        Instance {
            spec,
            label,
            client: None,
            interrupt,
        }
    }

    /// The engine's spec.
    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    /// The running client, started if need be.
    ///
    /// # Errors
    /// The engine's program cannot be started: the match cannot go on.
    fn client(&mut self) -> Result<&mut Box<dyn Client>> {
        if self.client.is_none() {
            let process = Process::start(&self.spec.launch, &self.label).with_context(|| {
                format!(
                    "cannot start {} ({})",
                    self.spec.name,
                    self.spec.launch.command.join(" ")
                )
            })?;
            let client: Box<dyn Client> = match self.spec.protocol {
                EngineProtocol::Gtp => {
                    Box::new(GtpClient::new(process, &self.spec, self.interrupt.clone()))
                }
                EngineProtocol::Piskvork => Box::new(PiskvorkClient::new(
                    process,
                    &self.spec,
                    self.interrupt.clone(),
                )),
                EngineProtocol::Nboard => Box::new(NboardClient::new(
                    process,
                    &self.spec,
                    self.interrupt.clone(),
                )),
            };
            self.client = Some(client);
        }
        Ok(self.client.as_mut().expect("just started"))
    }

    /// Ends the process after a failure; the next game starts a new one.
    fn discard(&mut self) {
        // Dropping the client kills its process group.
        if self.client.take().is_some() {
            log::info!("{} is restarted for its next game", self.label);
        }
    }

    /// Asks the engine to quit and ends its process.
    pub fn close(&mut self) {
        if let Some(mut client) = self.client.take() {
            client.close();
        }
    }
}

/// When the referee ends a game early.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    /// Solve exactly from this far from the end (empties in Reversi) and end the game with the
    /// result of perfect play.
    pub exact: Option<u32>,
    /// Search every position to this depth, and end the game when it proves a win.
    pub win_depth: Option<u32>,
    /// End the game as a draw after this many plies past the opening.
    pub max_plies: Option<usize>,
}

/// A game to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scheduled {
    /// Its number, from 1.
    pub number: usize,
    /// The opening's number (from 1) and where it starts.
    pub opening: Option<(usize, Start)>,
    /// The engine in each seat (an index into the match's engines).
    pub seats: Vec<usize>,
}

/// The solver distance of a position string, for a game with a solver.
struct Distance<'a>(&'a str);

impl GameVisitor for Distance<'_> {
    type Output = Option<u32>;

    fn visit<G: Game>(self, mut game: G) -> Option<u32> {
        game.set_position_string(self.0).ok()?;
        game.solver_distance()
    }
}

/// A game's end as the referee decides it.
struct Ending {
    places: Vec<u8>,
    result: String,
    termination: Termination,
    reason: String,
    loser: Option<Player>,
}

/// Plays games, one at a time, with its own session for the rules.
pub struct MatchReferee {
    game: String,
    options: Vec<(String, String)>,
    session: Box<dyn Session>,
    adjudication: Adjudication,
    interrupt: Interrupt,
}

impl MatchReferee {
    /// A referee for `game` with `options`.
    ///
    /// # Errors
    /// An unknown game or option.
    pub fn new(
        game: &str,
        options: &[(String, String)],
        adjudication: Adjudication,
        interrupt: Interrupt,
    ) -> Result<MatchReferee> {
        let settings = Settings {
            hash_megabytes: 16,
            threads: 1,
            info: InfoMode::Off,
            ..Settings::default()
        };
        let stop = Arc::new(StopSignal::default());
        interrupt.watch(stop.clone());
        let session = new_session(game, options, settings, stop, None)?;
        Ok(MatchReferee {
            game: session.game_name().to_string(),
            options: session.game_options(),
            session,
            adjudication,
            interrupt,
        })
    }

    /// The game's seat count.
    pub fn player_count(&self) -> usize {
        self.session.player_count()
    }

    /// The game's options.
    pub fn options(&self) -> &[(String, String)] {
        &self.options
    }

    /// `winner` wins (or a draw with `None`) by `margin`, in the game's words (`B+6`, `0`).
    fn result_text(&self, winner: Option<Player>, margin: i32) -> String {
        match winner {
            None => "0".to_string(),
            Some(winner) => {
                let name = self.session.format_player(winner);
                let letter = name.chars().next().unwrap_or('?').to_ascii_uppercase();
                if margin == 0 {
                    format!("{letter}+")
                } else {
                    format!("{letter}+{margin}")
                }
            }
        }
    }

    /// Places with `loser` last and everyone else sharing first.
    fn forfeit(&self, loser: Player, fault: Fault) -> Ending {
        let players = self.player_count();
        let places = (0..players)
            .map(|seat| if seat == loser { players as u8 } else { 1 })
            .collect();
        Ending {
            places,
            result: format!("{} forfeits", self.session.format_player(loser)),
            termination: fault.termination,
            reason: format!("{} {}", self.session.format_player(loser), fault.reason),
            loser: Some(loser),
        }
    }

    /// A two-player result decided by the referee's own search.
    fn decided(&self, mover: Player, score: Score, how: &str) -> Option<Ending> {
        let (winner, margin) = match score {
            Score::Exact(value) if value > 0 => (Some(mover), value),
            Score::Exact(value) if value < 0 => (Some(1 - mover), -value),
            Score::Exact(_) => (None, 0),
            Score::Win { margin, .. } => (Some(mover), margin),
            Score::Loss { margin, .. } => (Some(1 - mover), margin),
            Score::Heuristic(_) => return None,
        };
        let places = match winner {
            Some(winner) => (0..2)
                .map(|seat| if seat == winner { 1 } else { 2 })
                .collect(),
            None => vec![1, 1],
        };
        let result = self.result_text(winner, margin);
        Some(Ending {
            places,
            reason: format!("adjudicated by {how}: {result}"),
            result,
            termination: Termination::Adjudicated,
            loser: None,
        })
    }

    /// Ends the game by the referee's exact solve or proven win, when the options ask for it.
    fn adjudicate(&mut self) -> Option<Ending> {
        if self.player_count() != 2 {
            return None;
        }
        let mover = self.session.side_to_move();
        if let Some(limit) = self.adjudication.exact {
            let position = self.session.position();
            let distance = games::create(&self.game, &self.options)
                .ok()?
                .visit(Distance(&position));
            if distance.is_some_and(|distance| distance <= limit) {
                let request = Request::new(Mode::Solve);
                if let Ok(report) = self.session.search(&request, &mut |_| {}) {
                    let how = format!("an exact solve at {} empties", distance.unwrap_or(0));
                    return self.decided(mover, report.best().score, &how);
                }
            }
        }
        if let Some(depth) = self.adjudication.win_depth {
            let request = Request {
                player: None,
                received: None,
                mode: Mode::Analyze { lines: Some(1) },
                limits: Some(Limits {
                    depth: Some(depth),
                    ..Limits::default()
                }),
            };
            if let Ok(report) = self.session.search(&request, &mut |_| {}) {
                let score = report.best().score;
                if matches!(score, Score::Win { .. } | Score::Loss { .. }) {
                    return self.decided(
                        mover,
                        score,
                        &format!("a proven result at depth {depth}"),
                    );
                }
            }
        }
        None
    }

    /// Plays `game` with one instance per seat.
    ///
    /// # Errors
    /// An engine cannot be started at all, or the opening does not fit the game.
    pub fn play(&mut self, game: &Scheduled, instances: &mut [Instance]) -> Result<GameRecord> {
        let began = Instant::now();
        self.session.clear();
        let mut position = None;
        let mut opening_moves = Vec::new();
        match &game.opening {
            Some((number, Start::Position(text))) => {
                self.session
                    .set_position(text)
                    .with_context(|| format!("opening {number}"))?;
                position = Some(self.session.position());
            }
            Some((_, Start::Moves(moves))) => opening_moves = moves.clone(),
            None => {}
        }
        let start = self.session.position();
        let mut opening = Vec::new();
        for mv in &opening_moves {
            let seat = self.session.side_to_move();
            self.session
                .play(None, mv)
                .with_context(|| format!("opening move {mv}"))?;
            opening.push(PlayedMove {
                seat,
                player: self.session.format_player(seat),
                mv: self.session.moves_played().pop().unwrap_or_default(),
            });
        }
        let mut clocks: Vec<MatchClock> = instances
            .iter()
            .map(|instance| MatchClock::new(instance.spec().time))
            .collect();
        let mut timed = Vec::new();
        let ending = self.run(instances, position, &opening, &mut clocks, &mut timed)?;
        let ending = match ending {
            Some(ending) => ending,
            None => {
                let outcome = self.session.outcome();
                Ending {
                    places: (0..self.player_count())
                        .map(|seat| outcome.map_or(1, |outcome| outcome.place(seat)))
                        .collect(),
                    result: self.session.result_text().unwrap_or_default(),
                    termination: Termination::Normal,
                    reason: "end of game".to_string(),
                    loser: None,
                }
            }
        };
        if let Some(loser) = ending.loser {
            if matches!(
                ending.termination,
                Termination::Crash
                    | Termination::Hang
                    | Termination::TimeForfeit
                    | Termination::ProtocolError
            ) {
                instances[loser].discard();
            }
        }
        if ending.termination == Termination::Interrupted {
            for instance in instances.iter_mut() {
                instance.discard();
            }
        }
        Ok(GameRecord {
            number: game.number,
            game: self.game.clone(),
            options: self.options.iter().cloned().collect(),
            opening: game.opening.as_ref().map(|(number, _)| *number),
            seats: instances
                .iter()
                .map(|instance| instance.spec().name.clone())
                .collect(),
            start,
            moves: self.session.moves_played(),
            opening_plies: opening.len(),
            result: ending.result,
            places: ending.places,
            termination: ending.termination,
            reason: ending.reason,
            loser: ending.loser,
            move_ms: timed.iter().map(|&(_, millis)| millis).collect(),
            move_seats: timed.iter().map(|&(seat, _)| seat).collect(),
            duration_ms: began.elapsed().as_millis() as u64,
        })
    }

    /// The game from the set-up to its end; `None` when the rules ended it. `timed` receives
    /// the seat and milliseconds of each engine move.
    fn run(
        &mut self,
        instances: &mut [Instance],
        position: Option<String>,
        opening: &[PlayedMove],
        clocks: &mut [MatchClock],
        timed: &mut Vec<(Player, u64)>,
    ) -> Result<Option<Ending>> {
        for (seat, instance) in instances.iter_mut().enumerate() {
            let setup = GameSetup {
                game: self.game.clone(),
                options: self.options.clone(),
                position: position.clone(),
                opening: opening.to_vec(),
                seat,
                clock: clocks[seat],
            };
            if let Err(fault) = instance.client()?.new_game(&setup) {
                return Ok(Some(self.forfeit(seat, fault)));
            }
        }
        let mut plies = 0;
        loop {
            if self.interrupt.is_raised() {
                return Ok(Some(Ending {
                    places: vec![1; self.player_count()],
                    result: "*".to_string(),
                    termination: Termination::Interrupted,
                    reason: "the match was interrupted".to_string(),
                    loser: None,
                }));
            }
            if self.session.outcome().is_some() {
                return Ok(None);
            }
            if self.adjudication.max_plies.is_some_and(|cap| plies >= cap) {
                return Ok(Some(Ending {
                    places: vec![1; self.player_count()],
                    result: "0".to_string(),
                    termination: Termination::MoveCap,
                    reason: format!("drawn by the move cap of {plies} plies"),
                    loser: None,
                }));
            }
            if let Some(ending) = self.adjudicate() {
                return Ok(Some(ending));
            }
            let mover = self.session.side_to_move();
            let player = self.session.format_player(mover);
            let spec = instances[mover].spec().clone();
            let clock = clocks[mover];
            let allowed = clock.allowed();
            let asked = Instant::now();
            let request = MoveRequest {
                seat: mover,
                player: player.clone(),
                clock,
                deadline: asked + allowed.map_or(spec.timeout, |allowed| allowed + spec.margin),
            };
            let reply = match instances[mover].client()?.genmove(&request) {
                Ok(reply) => reply,
                Err(fault) => return Ok(Some(self.forfeit(mover, fault))),
            };
            let elapsed = asked.elapsed();
            if let Some(allowed) = allowed.filter(|&allowed| elapsed > allowed + spec.margin) {
                let fault = Fault::new(
                    Termination::TimeForfeit,
                    format!(
                        "took {} ms, allowed {} ms and a margin of {} ms",
                        elapsed.as_millis(),
                        allowed.as_millis(),
                        spec.margin.as_millis()
                    ),
                );
                return Ok(Some(self.forfeit(mover, fault)));
            }
            clocks[mover].spend(elapsed);
            if reply.eq_ignore_ascii_case("resign") {
                return Ok(Some(
                    self.forfeit(mover, Fault::new(Termination::Resignation, "resigned")),
                ));
            }
            if let Err(error) = self.session.play(Some(mover), &reply) {
                let fault = Fault::new(Termination::IllegalMove, format!("played {error}"));
                return Ok(Some(self.forfeit(mover, fault)));
            }
            timed.push((mover, elapsed.as_millis() as u64));
            plies += 1;
            let played = PlayedMove {
                seat: mover,
                player,
                mv: self.session.moves_played().pop().unwrap_or(reply),
            };
            for (seat, instance) in instances.iter_mut().enumerate() {
                if seat == mover {
                    continue;
                }
                if let Err(fault) = instance.client()?.tell(&played) {
                    return Ok(Some(self.forfeit(seat, fault)));
                }
            }
        }
    }
}
