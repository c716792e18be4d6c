//! The `weights` game option: each session evaluates with its own weights, in one process, and a
//! bad weight file is refused with the file named and the session left as it was.

use std::path::PathBuf;
use std::sync::Arc;
use tabula::engine::{new_session, Mode, Request, Score, Session, Settings, StopSignal};
use tabula::games::gomoku::evaluation::Weights;

fn session(game: &str, options: &[(&str, &str)]) -> Box<dyn Session> {
    let options: Vec<(String, String)> = options
        .iter()
        .map(|(key, value)| (key.to_string(), value.to_string()))
        .collect();
    let settings = Settings {
        depth: Some(2),
        threads: 1,
        hash_megabytes: 1,
        info: tabula::engine::InfoMode::Off,
        ..Settings::default()
    };
    new_session(
        game,
        &options,
        settings,
        Arc::new(StopSignal::default()),
        None,
    )
    .expect("a session")
}

/// The best score of a two-ply search, which the evaluation decides.
fn score(session: &mut Box<dyn Session>) -> Score {
    session
        .search(&Request::new(Mode::Play { commit: false }), &mut |_| {})
        .expect("a search")
        .best()
        .score
}

/// A file of this test's own in the temporary folder.
fn temporary_file(name: &str, contents: &[u8]) -> PathBuf {
    let path = std::env::temp_dir().join(format!("tabula-weights-{}-{name}", std::process::id()));
    std::fs::write(&path, contents).expect("writing a temporary file");
    path
}

/// The built-in Gomoku weights of freestyle (the default rule) with every weight doubled, as a
/// weight file.
fn doubled_gomoku_weights() -> String {
    let built_in =
        tabula::games::gomoku::evaluation::weights(tabula::games::gomoku::Rule::Freestyle);
    let doubled: Vec<i32> = built_in
        .values
        .to_vector()
        .iter()
        .map(|weight| weight * 2)
        .collect();
    Weights::from_vector(&doubled).write()
}

#[test]
fn two_sessions_in_one_process_evaluate_with_their_own_weights() {
    let mut patterns = session("reversi", &[]);
    let mut hand_made = session("reversi", &[("weights", "none")]);
    let pattern_score = score(&mut patterns);
    assert_ne!(score(&mut hand_made), pattern_score);
    // The other session's choice changed nothing here, nor for a session made after it.
    assert_eq!(score(&mut patterns), pattern_score);
    assert_eq!(score(&mut session("reversi", &[])), pattern_score);
    assert_eq!(hand_made.option_value("weights").unwrap(), "none");
    assert_eq!(patterns.option_value("weights").unwrap(), "default");

    let file = temporary_file("doubled.txt", doubled_gomoku_weights().as_bytes());
    let file_name = file.to_str().unwrap();
    let mut built_in = session("gomoku", &[]);
    let mut doubled = session("gomoku", &[("weights", file_name)]);
    for session in [&mut built_in, &mut doubled] {
        session.play(None, "h8").unwrap();
        session.play(None, "h9").unwrap();
        session.play(None, "i9").unwrap();
    }
    let built_in_score = score(&mut built_in);
    assert_ne!(score(&mut doubled), built_in_score);
    assert!(doubled
        .game_options()
        .contains(&("weights".to_string(), file_name.to_string())));
    // Mid-game, the option changes the weights and keeps the game.
    doubled.set_option("weights", "default").unwrap();
    assert_eq!(doubled.moves_played(), ["h8", "h9", "i9"]);
    assert_eq!(score(&mut doubled), built_in_score);
    built_in.set_option("weights", file_name).unwrap();
    assert_ne!(score(&mut built_in), built_in_score);
    std::fs::remove_file(file).ok();
}

#[test]
fn a_bad_weight_file_is_refused_with_its_name_and_the_session_is_unchanged() {
    let missing = std::env::temp_dir().join("tabula-weights-no-such-file.bin");
    let missing = missing.to_str().unwrap();
    let garbage = temporary_file("garbage.txt", b"these are no weights\n");
    let garbage = garbage.to_str().unwrap();
    for (game, file, problem) in [
        ("reversi", missing, "cannot read"),
        ("reversi", garbage, "is not a reversi weight file"),
        ("gomoku", missing, "cannot read"),
        ("gomoku", garbage, "is not a gomoku weight file: line 1"),
        ("chinese-checkers", missing, "cannot read"),
        (
            "chinese-checkers",
            garbage,
            "is not a chinese-checkers weight file",
        ),
    ] {
        let mut session = session(game, &[]);
        let first_move = session.legal_moves(None).unwrap()[0].clone();
        session.play(None, &first_move).unwrap();
        let (options, position) = (session.game_options(), session.position());
        let before = score(&mut session);
        let error = session.set_option("weights", file).unwrap_err().to_string();
        assert!(error.contains(file), "{game}: {error}");
        assert!(error.contains(problem), "{game}: {error}");
        assert_eq!(session.game_options(), options, "{game}");
        assert_eq!(session.position(), position, "{game}");
        assert_eq!(session.moves_played(), [first_move], "{game}");
        assert_eq!(session.option_value("weights").unwrap(), "default");
        assert_eq!(score(&mut session), before, "{game}");
        // A new game naming the file is refused the same way.
        let refused = new_session(
            game,
            &[("weights".to_string(), file.to_string())],
            Settings::default(),
            Arc::new(StopSignal::default()),
            None,
        )
        .err()
        .expect("refused")
        .to_string();
        assert!(
            refused.contains(file) && refused.contains(problem),
            "{refused}"
        );
    }
    std::fs::remove_file(garbage).ok();
}

#[test]
fn a_session_that_may_not_read_files_refuses_the_option() {
    let mut session = session("reversi", &[]);
    let settings = Settings {
        local_files: false,
        ..Settings::default()
    };
    let refused = new_session(
        "reversi",
        &[("weights".to_string(), "none".to_string())],
        settings.clone(),
        Arc::new(StopSignal::default()),
        None,
    )
    .err()
    .expect("refused")
    .to_string();
    assert!(refused.contains("may not read"), "{refused}");
    let mut remote = new_session(
        "reversi",
        &[],
        settings,
        Arc::new(StopSignal::default()),
        None,
    )
    .unwrap();
    assert!(remote.set_option("weights", "/etc/passwd").is_err());
    assert!(session.set_option("weights", "none").is_ok());
}
