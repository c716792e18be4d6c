//! The typed engine API, as tools and front-ends use it: reports, multi-PV, stop, limits, the
//! clock and the options table.

use std::sync::Arc;
use std::time::{Duration, Instant};
use tabula::engine::MoveTime;
use tabula::engine::{Engine, EngineError, Mode, Request, Score, ScoreBound, Settings, StopSignal};
use tabula::game::Rules;
use tabula::games::chinese_checkers::{greedy, ChineseCheckers, Jumps};
use tabula::games::reversi::Reversi;
use tabula::search::limits::Limits;

fn engine(settings: Settings) -> (Engine<Reversi>, Arc<StopSignal>) {
    let stop = Arc::new(StopSignal::default());
    let engine = Engine::new(Reversi::new(), settings, stop.clone()).expect("a small table");
    (engine, stop)
}

fn fixed_depth(depth: u32) -> Settings {
    Settings {
        depth: Some(depth),
        threads: 1,
        hash_megabytes: 16,
        ..Settings::default()
    }
}

#[test]
fn each_iteration_is_reported_and_the_last_is_the_answer() {
    let (mut engine, _) = engine(fixed_depth(5));
    let mut depths = Vec::new();
    let found = engine
        .search(&Request::new(Mode::Play { commit: true }), &mut |report| {
            depths.push(report.depth);
            assert!(!report.lines.is_empty());
        })
        .unwrap();
    assert_eq!(depths, [1, 2, 3, 4, 5]);
    assert_eq!(found.depth, 5);
    assert!(found.selective_depth >= 5);
    assert!(found.nodes > 0);
    let best = found.best();
    assert_eq!(best.pv[0], best.mv);
    assert_eq!(best.bound, ScoreBound::Exact);
    assert!(matches!(best.score, Score::Heuristic(_)));
    assert_eq!(engine.moves_played(), vec![best.mv], "the move was played");
}

#[test]
fn analysis_ranks_the_moves_it_is_asked_for() {
    let (mut engine, _) = engine(fixed_depth(4));
    let found = engine
        .search(&Request::new(Mode::Analyze { lines: Some(3) }), &mut |_| {})
        .unwrap();
    assert_eq!(found.lines.len(), 3);
    let values: Vec<f64> = found
        .lines
        .iter()
        .map(|line| line.score.as_units(1000.0))
        .collect();
    assert!(
        values.windows(2).all(|pair| pair[0] >= pair[1]),
        "{values:?}"
    );
    assert!(found
        .lines
        .iter()
        .all(|line| line.bound == ScoreBound::Exact && line.depth == 4));
    let every = engine
        .search(&Request::new(Mode::Analyze { lines: None }), &mut |_| {})
        .unwrap();
    assert_eq!(every.lines.len(), 4, "every opening move");
    assert!(engine.moves_played().is_empty(), "analysis plays nothing");
}

#[test]
fn a_stop_ends_a_search_without_limits_with_an_answer() {
    let settings = Settings {
        movetime: tabula::engine::MoveTime::Unlimited,
        threads: 2,
        hash_megabytes: 16,
        ..Settings::default()
    };
    let (mut engine, stop) = engine(settings);
    let stopper = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            stop.request();
        })
    };
    let start = Instant::now();
    let found = engine
        .search(&Request::new(Mode::Play { commit: false }), &mut |_| {})
        .unwrap();
    stopper.join().unwrap();
    assert!(start.elapsed() < Duration::from_secs(5));
    let legal = engine.legal_moves(None).unwrap();
    assert!(legal.contains(&found.best().mv));
    stop.handled();
}

#[test]
fn limits_for_one_search_override_the_settings() {
    let (mut engine, _) = engine(fixed_depth(30));
    let request = Request {
        limits: Some(Limits {
            nodes: Some(5_000),
            ..Limits::default()
        }),
        ..Request::new(Mode::Analyze { lines: Some(1) })
    };
    let found = engine.search(&request, &mut |_| {}).unwrap();
    assert!(found.depth < 30);
    assert!(found.nodes < 5_000 + 2 * 1024, "{}", found.nodes);
}

#[test]
fn the_clock_loses_the_time_a_move_took() {
    let (mut engine, _) = engine(Settings {
        threads: 1,
        hash_megabytes: 16,
        ..Settings::default()
    });
    engine
        .clock()
        .set_gtp(Duration::from_secs(10), Duration::ZERO, 0);
    let before = engine.clock().left(0).unwrap().time;
    engine
        .search(&Request::new(Mode::Play { commit: true }), &mut |_| {})
        .unwrap();
    let after = engine.clock().left(0).unwrap().time;
    assert!(after < before, "{before:?} then {after:?}");
    assert_eq!(engine.clock().left(1).unwrap().time, before);
}

#[test]
fn solving_gives_exact_scores_and_games_without_a_solver_refuse() {
    let (mut engine, _) = engine(fixed_depth(60));
    let mut position = Reversi::new();
    // FForum #1: black to move wins by 18 with g8.
    position
        .set_position_string("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X")
        .unwrap();
    engine.set_position(position);
    let found = engine
        .search(&Request::new(Mode::Solve), &mut |_| {})
        .unwrap();
    assert!(found.solved);
    assert_eq!(found.best().score, Score::Exact(18));
    assert_eq!(
        engine.position().format_move(found.best().mv),
        "g8".to_string()
    );
    // Gomoku's solver is its threat-space search: a proven win in plies, or nothing proven.
    let stop = Arc::new(StopSignal::default());
    let mut gomoku = Engine::new(
        tabula::games::gomoku::Gomoku::new(15, tabula::games::gomoku::Rule::Freestyle).unwrap(),
        fixed_depth(2),
        stop.clone(),
    )
    .unwrap();
    assert!(matches!(
        gomoku.search(&Request::new(Mode::Solve), &mut |_| {}),
        Err(EngineError::NotProven)
    ));
    let mut four_three = gomoku.position().clone();
    four_three
        .set_position_string("h8 a1 h9 c1 h10 h11 f7 e1 g7 g1")
        .unwrap();
    gomoku.set_position(four_three);
    let found = gomoku
        .search(&Request::new(Mode::Solve), &mut |_| {})
        .unwrap();
    assert!(found.solved);
    assert_eq!(
        found.best().score,
        Score::Win {
            plies: 5,
            margin: 0
        }
    );
    assert_eq!(gomoku.position().format_move(found.best().mv), "h7");
    let mut checkers = Engine::new(
        tabula::games::chinese_checkers::ChineseCheckers::from_options(&[]).unwrap(),
        fixed_depth(2),
        stop,
    )
    .unwrap();
    assert!(matches!(
        checkers.search(&Request::new(Mode::Solve), &mut |_| {}),
        Err(EngineError::Unsupported(_))
    ));
}

#[test]
fn options_are_checked_before_they_change_anything() {
    let (mut engine, _) = engine(fixed_depth(3));
    let before = engine.settings().clone();
    for (name, value) in [
        ("depth", "500"),
        ("level", "x"),
        ("bogus", "1"),
        ("hash", "1048576"),
    ] {
        assert!(engine.set_option(name, value).is_err(), "{name} {value}");
    }
    assert_eq!(engine.settings(), &before);
    engine.set_option("LEVEL", "3").unwrap();
    assert_eq!(engine.settings().level, 3);
}

/// A Chinese Checkers engine for the side to move, one thread, at `level`.
fn cc_engine(position: ChineseCheckers, level: u8, movetime: u64) -> Engine<ChineseCheckers> {
    let settings = Settings {
        level,
        threads: 1,
        hash_megabytes: 16,
        movetime: MoveTime::Fixed(Duration::from_millis(movetime)),
        ..Settings::default()
    };
    Engine::new(position, settings, Arc::new(StopSignal::default())).expect("a small table")
}

#[test]
fn level_one_plays_the_greedy_move_through_the_engine() {
    // Regression: the engine façade searched at level 1 instead of asking the game, so front-ends
    // never played the greedy player.
    let mut engine = cc_engine(
        ChineseCheckers::new(2, Jumps::Standard, 1000).unwrap(),
        1,
        100,
    );
    for ply in 0..40 {
        let before = engine.position().clone();
        let mut moves = Vec::new();
        before.generate_moves(&mut moves);
        let most = moves
            .iter()
            .map(|&mv| greedy::rows_gained(&before, mv))
            .max()
            .unwrap();
        let found = engine
            .search(&Request::new(Mode::Play { commit: true }), &mut |_| {})
            .unwrap();
        assert_eq!(
            greedy::rows_gained(&before, found.best().mv),
            most,
            "ply {ply}: {} is not a greedy move",
            before.format_move(found.best().mv)
        );
    }
}

#[test]
fn the_engine_plays_the_race_solvers_plan_to_the_end() {
    // Regression: the engine façade never asked the race solver, so a crossing played through
    // a front-end followed the depth-limited tree search. Twenty greedy moves into solitaire,
    // the line the engine announces must fill the goal, and the engine must not need more moves
    // than it announced.
    let mut position = ChineseCheckers::new(1, Jumps::Standard, 1000).unwrap();
    for _ in 0..20 {
        let mv = greedy::greedy_move(&position, 7).unwrap();
        position.play_unchecked(mv);
    }
    let mut engine = cc_engine(position, 8, 300);
    let first = engine
        .search(&Request::new(Mode::Play { commit: false }), &mut |_| {})
        .unwrap();
    let announced = first.best().pv.clone();
    assert!(announced.len() >= 8, "a long race: {}", announced.len());
    let mut replay = engine.position().clone();
    for &mv in &announced {
        assert!(replay.is_legal(mv));
        replay.play_unchecked(mv);
    }
    assert!(
        replay.outcome().is_some(),
        "the announced line fills the goal"
    );
    let mut played = 0;
    while engine.position().outcome().is_none() {
        engine
            .search(&Request::new(Mode::Play { commit: true }), &mut |_| {})
            .unwrap();
        played += 1;
        assert!(played <= announced.len(), "more moves than announced");
    }
}
