//! Unit tests of the Gomoku rules: renju shapes, wins, text forms and bad input.

use super::*;

/// White stones far from the action, to balance the stone counts of a constructed position.
const FILLERS: [&str; 16] = [
    "a1", "c1", "e1", "g1", "i1", "k1", "m1", "o1", "a3", "c3", "e3", "g3", "i3", "k3", "m3", "o3",
];

fn point(game: &Gomoku, text: &str) -> usize {
    game.parse_move(text).unwrap().point()
}

/// A 15x15 position with these stones; white gets fillers until black is to move (or white, when
/// `white_to_move`).
fn position(rule: Rule, black: &[&str], white: &[&str], white_to_move: bool) -> Gomoku {
    let mut game = Gomoku::new(15, rule).unwrap();
    let mut cells = vec![0u8; 225];
    for text in black {
        cells[point(&game, text)] = 1;
    }
    let wanted = black.len() - usize::from(white_to_move);
    assert!(white.len() <= wanted);
    for text in white.iter().chain(FILLERS.iter()).take(wanted) {
        cells[point(&game, text)] = 2;
    }
    let side = usize::from(white_to_move);
    let text = notation::write_board(&cells, 15, side);
    game.set_position_string(&text).unwrap();
    game
}

fn black_to_move(rule: Rule, black: &[&str]) -> Gomoku {
    position(rule, black, &[], false)
}

fn forbidden(game: &Gomoku, text: &str) -> Option<Forbidden> {
    game.forbidden_for_black(point(game, text))
}

fn legal_moves(game: &Gomoku) -> Vec<GomokuMove> {
    let mut moves = Vec::new();
    game.generate_moves(&mut moves);
    moves
}

/// Checks that black may not play `text`, for `reason`, and that refusing changes nothing.
fn assert_forbidden(game: &Gomoku, text: &str, reason: Forbidden) {
    assert_eq!(forbidden(game, text), Some(reason), "{text}");
    let mv = game.parse_move(text).unwrap();
    assert!(!game.is_legal(mv));
    assert!(!legal_moves(game).contains(&mv));
    assert!(game.forbidden_moves().contains(&mv));
    let mut copy = game.clone();
    match copy.try_play(mv) {
        Err(GameError::IllegalMove { reason: why, .. }) => {
            assert_eq!(why, format!("forbidden for black: {}", reason.name()));
        }
        other => panic!("{text} was not refused: {other:?}"),
    }
    assert_eq!(&copy, game);
}

fn assert_allowed(game: &Gomoku, text: &str) {
    assert_eq!(forbidden(game, text), None, "{text}");
    let mv = game.parse_move(text).unwrap();
    assert!(game.is_legal(mv));
    assert!(legal_moves(game).contains(&mv));
    assert!(!game.forbidden_moves().contains(&mv));
}

#[test]
fn double_three_is_forbidden_only_under_renju() {
    let stones = ["h9", "h10", "i8", "j8"];
    assert_forbidden(
        &black_to_move(Rule::Renju, &stones),
        "h8",
        Forbidden::DoubleThree,
    );
    assert!(black_to_move(Rule::Freestyle, &stones)
        .forbidden_moves()
        .is_empty());
    assert!(black_to_move(Rule::Standard, &stones).is_legal(GomokuMove(7 * 15 + 7)));
    // A split three (h8 i8 . k8) with an open three counts too.
    let split = black_to_move(Rule::Renju, &["h9", "h10", "i8", "k8"]);
    assert_forbidden(&split, "h8", Forbidden::DoubleThree);
    // A three closed at one end is no three.
    let closed = position(Rule::Renju, &["h9", "h10", "i8", "j8"], &["k8"], false);
    assert_allowed(&closed, "h8");
}

#[test]
fn double_four_is_forbidden() {
    let game = black_to_move(Rule::Renju, &["h9", "h10", "h11", "i8", "j8", "k8"]);
    assert_forbidden(&game, "h8", Forbidden::DoubleFour);
    // Closed fours count as fours as well.
    let closed = position(
        Rule::Renju,
        &["h9", "h10", "h11", "i8", "j8", "k8"],
        &["h12", "l8"],
        false,
    );
    assert_forbidden(&closed, "h8", Forbidden::DoubleFour);
}

#[test]
fn double_four_on_one_line_is_forbidden() {
    // X.XXX.X with the new stone in the middle three.
    let game = black_to_move(Rule::Renju, &["d8", "f8", "h8", "j8"]);
    assert_forbidden(&game, "g8", Forbidden::DoubleFour);
    // XX.XX.XX with the new stone in the middle pair.
    let game = black_to_move(Rule::Renju, &["c8", "d8", "f8", "i8", "j8"]);
    assert_forbidden(&game, "g8", Forbidden::DoubleFour);
    // The same shape with the new stone on an outer end makes only one new four.
    let game = black_to_move(Rule::Renju, &["d8", "f8", "g8", "h8"]);
    assert_allowed(&game, "j8");
}

#[test]
fn overline_is_forbidden_for_black_and_wins_for_white() {
    let game = black_to_move(Rule::Renju, &["c8", "d8", "e8", "g8", "h8"]);
    assert_forbidden(&game, "f8", Forbidden::Overline);

    let mut white = position(
        Rule::Renju,
        &["a15", "c15", "e15", "g15", "i15", "k15"],
        &["c8", "d8", "e8", "g8", "h8"],
        true,
    );
    white.try_play(white.parse_move("f8").unwrap()).unwrap();
    assert_eq!(white.outcome(), Some(Outcome::win(1, 0)));
}

#[test]
fn four_three_is_allowed() {
    let game = black_to_move(Rule::Renju, &["h9", "h10", "h11", "i8", "j8"]);
    assert_allowed(&game, "h8");
}

#[test]
fn five_wins_despite_double_four_or_overline() {
    let stones = [
        "h9", "h10", "h11", "h12", "i8", "j8", "k8", "i9", "j10", "k11",
    ];
    let mut game = black_to_move(Rule::Renju, &stones);
    assert_allowed(&game, "h8");
    game.try_play(game.parse_move("h8").unwrap()).unwrap();
    assert_eq!(game.winner(), Some(0));
    assert_eq!(game.outcome(), Some(Outcome::win(0, 0)));
    assert!(legal_moves(&game).is_empty());

    // A five in one direction with six in another.
    let stones = ["h9", "h10", "h11", "h12", "d8", "e8", "f8", "g8", "i8"];
    let mut game = black_to_move(Rule::Renju, &stones);
    assert_allowed(&game, "h8");
    game.try_play(game.parse_move("h8").unwrap()).unwrap();
    assert_eq!(game.winner(), Some(0));
}

#[test]
fn a_three_whose_completion_is_an_overline_is_false() {
    // h8 makes the split three h8 i8 . k8, completed only by j8, and j8 would make six in the j
    // column: that three is false, so h8 (with the true vertical three h8 h9 h10) is allowed.
    let column = ["j6", "j7", "j9", "j10", "j11"];
    let mut stones = vec!["h9", "h10", "i8", "k8"];
    stones.extend(column);
    let game = black_to_move(Rule::Renju, &stones);
    assert_forbidden(&game, "j8", Forbidden::Overline);
    assert_allowed(&game, "h8");
    // Without the column the same h8 is a double-three.
    let game = black_to_move(Rule::Renju, &["h9", "h10", "i8", "k8"]);
    assert_forbidden(&game, "h8", Forbidden::DoubleThree);
}

#[test]
fn a_three_whose_completion_is_a_double_three_is_false() {
    // j8 completes the split three h8 i8 . k8 into a straight four, but j8 also makes threes in
    // the j column and on the j8-k9-l10 diagonal: four-three-three, forbidden. Two levels deep.
    let stones = ["h9", "h10", "i8", "k8", "j9", "j10", "k9", "l10"];
    let game = black_to_move(Rule::Renju, &stones);
    assert_allowed(&game, "h8");
    let mut after = game.clone();
    // With h8 on the board, j8 is forbidden as a double-three next to the four.
    after.place(point(&game, "h8"), 0);
    after.place(point(&game, "a15"), 1);
    assert_eq!(forbidden(&after, "j8"), Some(Forbidden::DoubleThree));
}

#[test]
fn a_three_whose_completion_makes_five_is_true() {
    // j8 completes the split three and makes five in the j column: five is never forbidden.
    let stones = ["h9", "h10", "i8", "k8", "j6", "j7", "j9", "j10"];
    let game = black_to_move(Rule::Renju, &stones);
    assert_forbidden(&game, "h8", Forbidden::DoubleThree);
}

#[test]
fn freestyle_overline_wins_and_standard_overline_does_not() {
    let stones = ["c8", "d8", "e8", "g8", "h8"];
    let mut freestyle = black_to_move(Rule::Freestyle, &stones);
    freestyle
        .try_play(freestyle.parse_move("f8").unwrap())
        .unwrap();
    assert_eq!(freestyle.winner(), Some(0));

    let mut standard = black_to_move(Rule::Standard, &stones);
    standard
        .try_play(standard.parse_move("f8").unwrap())
        .unwrap();
    assert_eq!(standard.outcome(), None);
    assert_eq!(standard.side_to_move(), 1);
    assert_eq!(legal_moves(&standard).len(), 225 - 11);
    // Exactly five still wins under standard.
    let mut standard = black_to_move(Rule::Standard, &["c8", "d8", "e8", "f8"]);
    standard
        .try_play(standard.parse_move("g8").unwrap())
        .unwrap();
    assert_eq!(standard.winner(), Some(0));
}

#[test]
fn fives_at_the_edges_win() {
    for (stones, last) in [
        (["a11", "a12", "a13", "a14"], "a15"),
        (["b1", "c1", "d1", "e1"], "a1"),
        (["k5", "l4", "m3", "n2"], "o1"),
        (["k11", "l12", "m13", "n14"], "o15"),
    ] {
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
            let mut game = position(rule, &stones, &["h8", "h9", "h10", "h11"], false);
            game.try_play(game.parse_move(last).unwrap()).unwrap();
            assert_eq!(game.winner(), Some(0), "{last} {rule:?}");
        }
    }
}

#[test]
fn a_full_board_without_five_is_a_draw() {
    let rows = ["xxoox", "ooxxo", "xxoox", "ooxxo", "xxoox"];
    let mut black = Vec::new();
    let mut white = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        for (x, cell) in row.bytes().enumerate() {
            let mv = notation::move_from_gomocup(x, y, 5).unwrap();
            if cell == b'x' {
                black.push(mv)
            } else {
                white.push(mv)
            }
        }
    }
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        let mut game = Gomoku::new(5, rule).unwrap();
        for ply in 0..25 {
            let mv = if ply % 2 == 0 {
                black[ply / 2]
            } else {
                white[ply / 2]
            };
            assert_eq!(game.outcome(), None);
            game.try_play(mv).unwrap();
        }
        assert_eq!(game.outcome(), Some(Outcome::draw(2)));
        assert!(legal_moves(&game).is_empty());
        assert_eq!(game.try_play(GomokuMove(0)), Err(GameError::GameOver));
        let mut reloaded = game.start_position();
        reloaded
            .set_position_string(&game.position_string())
            .unwrap();
        assert_eq!(reloaded.outcome(), Some(Outcome::draw(2)));
    }
}

#[test]
fn position_strings_round_trip_in_both_forms() {
    let mut played = Gomoku::new(15, Rule::Renju).unwrap();
    for text in ["h8", "i9", "j10"] {
        played.try_play(played.parse_move(text).unwrap()).unwrap();
    }
    for form in [
        "h8i9j10",
        "h8 i9 j10",
        "H8,I9,J10",
        played.position_string().as_str(),
    ] {
        let mut loaded = Gomoku::new(15, Rule::Renju).unwrap();
        loaded.set_position_string(form).unwrap();
        assert_eq!(loaded.position_string(), played.position_string());
        assert_eq!(loaded.hash(), played.hash());
        assert_eq!(loaded.side_to_move(), 1);
    }
    let small = Gomoku::new(5, Rule::Freestyle).unwrap();
    assert_eq!(small.position_string(), "...../...../...../...../..... x");
    let mut empty = played.clone();
    empty.set_position_string("").unwrap();
    assert_eq!(empty.stone_count(), 0);
}

#[test]
fn loaded_boards_recompute_the_winner() {
    let mut game = Gomoku::new(5, Rule::Freestyle).unwrap();
    game.set_position_string("xxxxx/oooo./...../...../..... o")
        .unwrap();
    assert_eq!(game.winner(), Some(0));
    // Under standard an overline is no win; under renju white's overline wins.
    let mut game = Gomoku::new(7, Rule::Standard).unwrap();
    game.set_position_string(".xxxxxx/ooo.oo./......./......./......./......./....... o")
        .unwrap();
    assert_eq!(game.outcome(), None);
    let mut game = Gomoku::new(7, Rule::Renju).unwrap();
    let text = "oooooo./xx.xx../......./x.x..../......./......./....... x";
    assert!(game.set_position_string(text).is_ok());
    assert_eq!(game.winner(), Some(1));
}

#[test]
fn bad_positions_are_refused_and_change_nothing() {
    let mut game = Gomoku::new(5, Rule::Renju).unwrap();
    game.set_position_string("c3").unwrap();
    let before = game.clone();
    for bad in [
        "c3c3",                              // occupied
        "c3z9",                              // not a point
        "c3d",                               // a letter without a row
        "a1a2b1b2c1c2d1d2e1e2",              // a move after the win
        "...../...../...../...../..... x x", // extra text
        "...../...../...../...../.....",     // no side
        "...../...../...../..... x",         // too few rows
        "...../...../..x../...../..... x",   // black to move with one stone more
        "...../...../..o../...../..... o",   // white with more stones
        "xx.../...../...../...../..... o",   // two stones more
        "xxxxx/oooo./o..../...../..... x",   // the winner to move
        "xxxxx/ooooo/...../...../x.... o",   // both win
        "...../...../..y../...../..... x",   // a bad point
    ] {
        assert!(
            matches!(
                game.set_position_string(bad),
                Err(GameError::InvalidPosition(_))
            ),
            "{bad}"
        );
        assert_eq!(game, before, "{bad}");
    }
    // Renju: replaying a forbidden point fails.
    let mut renju = Gomoku::new(15, Rule::Renju).unwrap();
    let error = renju
        .set_position_string("h9a1h10a3i8a5j8a7h8")
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("forbidden for black: double-three"),
        "{error}"
    );
    assert_eq!(renju.stone_count(), 0);
}

#[test]
fn bad_moves_are_refused_with_reasons() {
    let mut game = Gomoku::new(15, Rule::Freestyle).unwrap();
    for bad in ["p1", "a16", "a0", "", "h", "88", "pass"] {
        assert!(
            matches!(game.parse_move(bad), Err(GameError::MalformedMove(_))),
            "{bad}"
        );
    }
    assert_eq!(game.move_from_code(225), None);
    assert_eq!(
        game.illegal_reason(GomokuMove(225)),
        "the point is off the board"
    );
    assert!(game.try_play(GomokuMove(500)).is_err());
    let centre = game.parse_move("h8").unwrap();
    game.try_play(centre).unwrap();
    let before = game.clone();
    match game.try_play(centre) {
        Err(GameError::IllegalMove { reason, .. }) => assert_eq!(reason, "the point is occupied"),
        other => panic!("{other:?}"),
    }
    assert_eq!(game, before);
}

#[test]
fn options_are_checked() {
    let options = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(key, value)| (key.to_string(), value.to_string()))
            .collect()
    };
    let game = Gomoku::from_options(&options(&[("size", "20"), ("rule", "RENJU")])).unwrap();
    assert_eq!((game.size(), game.rule()), (20, Rule::Renju));
    assert_eq!(
        game.options(),
        options(&[("size", "20"), ("rule", "renju")])
    );
    assert_eq!(game.name(), "gomoku");
    let default = Gomoku::from_options(&[]).unwrap();
    assert_eq!((default.size(), default.rule()), (15, Rule::Freestyle));
    let alias = Gomoku::from_options(&options(&[("rule", "exact5")])).unwrap();
    assert_eq!(alias.rule(), Rule::Standard);
    for bad in [
        options(&[("size", "4")]),
        options(&[("size", "23")]),
        options(&[("size", "big")]),
        options(&[("rule", "caro")]),
        options(&[("colour", "black")]),
    ] {
        assert!(
            matches!(Gomoku::from_options(&bad), Err(GameError::InvalidOption(_))),
            "{bad:?}"
        );
    }
}

#[test]
fn gomocup_coordinates_match_the_notation() {
    let game = Gomoku::new(20, Rule::Freestyle).unwrap();
    let corner = game.parse_move("a20").unwrap();
    assert_eq!(game.to_gomocup(corner), (0, 0));
    assert_eq!(
        game.from_gomocup(19, 19),
        Some(game.parse_move("t1").unwrap())
    );
    assert_eq!(game.from_gomocup(20, 0), None);
    let centre = Gomoku::new(15, Rule::Freestyle).unwrap();
    assert_eq!(centre.to_gomocup(centre.parse_move("h8").unwrap()), (7, 7));
}

#[test]
fn search_moves_win_block_or_stay_near() {
    let empty = Gomoku::new(15, Rule::Renju).unwrap();
    let mut moves = Vec::new();
    empty.search_moves(&mut moves);
    assert_eq!(moves, vec![empty.parse_move("h8").unwrap()]);

    // Black to move with an open four wins at either end.
    let game = position(
        Rule::Freestyle,
        &["e8", "f8", "g8", "h8"],
        &["e9", "f9", "g9"],
        false,
    );
    game.search_moves(&mut moves);
    let written: Vec<String> = moves.iter().map(|&mv| game.format_move(mv)).collect();
    assert_eq!(written, ["d8", "i8"]);

    // White to move must block black's four.
    let game = position(
        Rule::Freestyle,
        &["e8", "f8", "g8", "h8"],
        &["d8", "a9", "c9"],
        true,
    );
    game.search_moves(&mut moves);
    assert_eq!(moves, vec![game.parse_move("i8").unwrap()]);

    // Black to move cannot block white's four on a forbidden point, so it looks around instead.
    let black = ["i8", "j8", "i9", "j10", "h3"];
    let white = ["h4", "h5", "h6", "h7"];
    let game = position(Rule::Renju, &black, &white, false);
    assert_eq!(forbidden(&game, "h8"), Some(Forbidden::DoubleThree));
    game.search_moves(&mut moves);
    assert!(!moves.is_empty());
    assert!(moves.iter().all(|&mv| game.is_legal(mv)));

    // Otherwise: points within two of a stone.
    let mut game = Gomoku::new(15, Rule::Freestyle).unwrap();
    game.try_play(game.parse_move("a1").unwrap()).unwrap();
    game.search_moves(&mut moves);
    assert_eq!(moves.len(), 8);
}

/// The search prunes selectively only where the side to move faces no threat: not against a four
/// (a five to block) nor an open three (an open four to stop).
#[test]
fn threatened_means_a_four_or_an_open_three_of_the_opponent() {
    for rule in [Rule::Freestyle, Rule::Renju] {
        // White to move against black's four, closed at d8.
        let four = position(rule, &["e8", "f8", "g8", "h8"], &["d8", "a9", "c9"], true);
        assert!(four.threatened(), "{rule:?}");
        // White to move against black's open three.
        let three = position(rule, &["f8", "g8", "h8"], &["a9", "c9"], true);
        assert!(three.threatened(), "{rule:?}");
        // Black to move with that open three of its own: no threat against it.
        let own = position(
            rule,
            &["f8", "g8", "h8", "m13"],
            &["a9", "c9", "a11"],
            false,
        );
        assert!(!own.threatened(), "{rule:?}");
        // A closed three is no threat.
        let closed = position(rule, &["f8", "g8", "h8"], &["e8", "c9"], true);
        assert!(!closed.threatened(), "{rule:?}");
        assert!(!Gomoku::new(15, rule).unwrap().threatened());
    }
}

#[test]
fn probcut_probes_quiet_nodes_from_five_plies_and_never_against_a_threat() {
    for rule in [Rule::Freestyle, Rule::Renju] {
        let quiet = position(rule, &["h8", "i9"], &["g7"], true);
        assert!(!quiet.threatened());
        assert_eq!(quiet.probcut(4), None, "{rule:?}");
        let model = quiet.probcut(9).expect("a probe at 9 plies");
        assert_eq!(model.shallow_depth, 5);
        assert!(model.sigma > 0.0 && model.slope > 0.0);
        // White to move against black's open three: every reply matters, so no probe.
        let three = position(rule, &["f8", "g8", "h8"], &["a9", "c9"], true);
        assert_eq!(three.probcut(9), None, "{rule:?}");
    }
}

#[test]
fn evaluation_stays_bounded_and_sees_threats() {
    let bound = crate::base::score::MAX_EVALUATION;
    let game = position(
        Rule::Freestyle,
        &["e8", "f8", "g8", "h8"],
        &["e9", "f9", "g9"],
        false,
    );
    for level in 1..=8 {
        let value = game.evaluate(0, Strength(level));
        assert!(value.abs() < bound);
        assert!(value > 0, "level {level}");
        assert_eq!(game.evaluate(1, Strength(level)), -value);
    }
    assert!(game.evaluate(0, Strength::FULL) > 8000);
    let mut won = game.clone();
    won.try_play(game.parse_move("d8").unwrap()).unwrap();
    assert!(won.evaluate(0, Strength::FULL).abs() < bound);
    assert!(won.evaluate(0, Strength::FULL) > 0);
}

#[test]
fn move_scores_prefer_threats() {
    let game = position(Rule::Freestyle, &["e8", "f8", "g8"], &["e9", "f9"], false);
    let moves: Vec<GomokuMove> = ["h8", "a15", "g9"]
        .iter()
        .map(|text| game.parse_move(text).unwrap())
        .collect();
    let mut scores = vec![0; 3];
    game.score_moves(&moves, &mut scores);
    assert!(scores[0] > scores[2] && scores[2] > scores[1], "{scores:?}");
}

#[test]
fn diagram_shows_coordinates_last_move_and_forbidden_points() {
    let mut game = black_to_move(Rule::Renju, &["h9", "h10", "i8", "j8"]);
    let diagram = game.diagram();
    assert!(diagram.contains(" 8 "), "{diagram}");
    assert!(diagram.contains('#'), "{diagram}");
    assert!(diagram.contains("black (X) to move"));
    game.try_play(game.parse_move("a15").unwrap()).unwrap();
    let diagram = game.diagram();
    assert!(diagram.contains("15[X]"), "{diagram}");
}

#[test]
fn consistency_on_every_rule_and_size() {
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        for (size, games, plies) in [(5, 40, 30), (15, 3, 120), (20, 2, 100), (22, 1, 120)] {
            let start = Gomoku::new(size, rule).unwrap();
            crate::game::consistency::check_random_games(&start, games, plies, size as u64);
        }
    }
}

#[test]
fn the_documented_session_holds() {
    let mut game = Gomoku::from_options(&[
        ("size".to_string(), "15".to_string()),
        ("rule".to_string(), "renju".to_string()),
    ])
    .unwrap();
    game.set_position_string("h9a1h10a3i8a5j8a7").unwrap();
    let forbidden: Vec<String> = game
        .forbidden_moves()
        .iter()
        .map(|&mv| game.format_move(mv))
        .collect();
    assert_eq!(forbidden, ["h8"]);
    assert_eq!(legal_moves(&game).len(), 216);
    let error = game.try_play(game.parse_move("h8").unwrap()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "illegal move h8: forbidden for black: double-three"
    );
    let error = game.set_position_string(".../x..../... x").unwrap_err();
    assert_eq!(
        error.to_string(),
        "invalid position: expected 15 rows separated by '/', found 3"
    );
    game.set_position_string("h8a1i8c1j8e1k8g1").unwrap();
    game.try_play(game.parse_move("l8").unwrap()).unwrap();
    assert_eq!(game.outcome(), Some(Outcome::win(0, 0)));
    assert!(legal_moves(&game).is_empty());
    let mut small = Gomoku::new(7, Rule::Freestyle).unwrap();
    small.set_position_string("d4e5c3").unwrap();
    assert_eq!(
        small.position_string(),
        "......./......./....o../...x.../..x..../......./....... o"
    );
}

#[test]
fn perft_table() {
    // The crowded renju position's counts were confirmed by the naive rules of
    // tests/rules/gomoku_rules.rs (the ignored one-off test there).
    let crowded = "h8i9h9h7g8i8i7g9j8k9f8e8g7f6";
    let table: [(usize, Rule, &str, &[u64]); 4] = [
        (15, Rule::Freestyle, "", &[1, 225, 50_400, 11_239_200]),
        (15, Rule::Renju, crowded, &[1, 211, 44_310, 9_260_384]),
        (5, Rule::Standard, "", &[1, 25, 600, 13_800, 303_600]),
        (20, Rule::Freestyle, "", &[1, 400, 159_600]),
    ];
    for (size, rule, position, counts) in table {
        let mut game = Gomoku::new(size, rule).unwrap();
        game.set_position_string(position).unwrap();
        for (depth, &count) in counts.iter().enumerate() {
            assert_eq!(
                game.perft(depth),
                count,
                "{size} {rule:?} '{position}' depth {depth}"
            );
        }
    }
}

/// Panics unless `game`'s threat tables equal ones rebuilt from its lines.
fn assert_threats_rebuilt(game: &Gomoku, when: &str) {
    let mut rebuilt = game.clone();
    rebuilt.rebuild_threats();
    assert!(
        rebuilt.threats == game.threats,
        "threats differ {when} at {}",
        game.position_string()
    );
}

#[test]
fn incremental_threats_equal_rebuilt_ones() {
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    let mut rng = SmallRng::seed_from_u64(11);
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        for size in [7, 15, 20] {
            for _ in 0..4 {
                let mut game = Gomoku::new(size, rule).unwrap();
                let mut played = Vec::new();
                let mut moves = Vec::new();
                for _ in 0..size * size {
                    assert_threats_rebuilt(&game, "after play");
                    // Mostly near the stones, so that shapes form.
                    game.search_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    let mv = moves[rng.random_range(0..moves.len())];
                    played.push((mv, game.play_unchecked(mv)));
                }
                // Undo restores the entries the journal saved; a copy has no journal for the
                // moves before it and reads the tables again, then journals its own moves.
                let mut copy = game.clone();
                let mut copy_played = played.clone();
                let mut extra = Vec::new();
                copy.search_moves(&mut moves);
                for &mv in moves.iter().take(3) {
                    if copy.outcome().is_none() {
                        extra.push((mv, copy.play_unchecked(mv)));
                    }
                }
                while let Some((mv, undo)) = extra.pop() {
                    copy.undo(mv, undo);
                }
                for (position, history) in [(&mut game, &mut played), (&mut copy, &mut copy_played)]
                {
                    while let Some((mv, undo)) = history.pop() {
                        position.undo(mv, undo);
                        assert_threats_rebuilt(position, "after undo");
                    }
                    assert!(*position == Gomoku::new(size, rule).unwrap());
                }
            }
        }
    }
}

/// The candidate limit of quiet positions never drops a threat: every point near the stones where
/// the side to move makes a four, an open three, a four-three or a double three, or where the
/// opponent would make a four-three or a double three, stays a candidate. Random positions from
/// a fixed seed, under freestyle and renju.
#[test]
fn the_candidate_limit_keeps_every_threat_point() {
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    let mut rng = SmallRng::seed_from_u64(11);
    let mut limited = 0;
    for rule in [Rule::Freestyle, Rule::Renju] {
        for _ in 0..200 {
            let mut game = Gomoku::new(15, rule).unwrap();
            let mut near = Vec::new();
            for _ in 0..rng.random_range(6..40) {
                near.clear();
                candidates::neighbourhood(&game, &mut near);
                if near.is_empty() || game.outcome().is_some() {
                    break;
                }
                game.play_unchecked(near[rng.random_range(0..near.len())]);
            }
            if game.outcome().is_some() {
                continue;
            }
            let mut moves = Vec::new();
            game.search_moves(&mut moves);
            near.clear();
            candidates::neighbourhood(&game, &mut near);
            if moves.len() >= near.len() {
                continue;
            }
            // Only quiet positions are cut; forced replies are shorter lists.
            let side = game.side;
            let threats = game.threats();
            let forced = [Kind::Five, Kind::OpenFour]
                .into_iter()
                .any(|kind| !threats.points(side, kind).is_empty())
                || !threats.points(side ^ 1, Kind::Five).is_empty()
                || game.defences(side ^ 1).is_some();
            if forced {
                continue;
            }
            limited += 1;
            for mv in &near {
                let point = mv.point();
                let threat = [Kind::Four, Kind::Three, Kind::FourThree, Kind::DoubleThree]
                    .into_iter()
                    .any(|kind| threats.is(side, point, kind))
                    || [Kind::FourThree, Kind::DoubleThree]
                        .into_iter()
                        .any(|kind| threats.is(side ^ 1, point, kind));
                if threat {
                    assert!(
                        moves.contains(mv),
                        "{} dropped in {}",
                        game.format_move(*mv),
                        game.position_string()
                    );
                }
            }
        }
    }
    assert!(limited >= 100, "{limited} limited positions");
}

/// A loss is not proven over the candidates alone. From a renju game lost to Rapfi: after `j12`,
/// black's `h8` makes a four and an open three, and white's `i8`, which blocks the three and
/// saves the game, lies below the candidate limit. Searching only the candidates, white's every
/// move lost and the search reported a proven loss; the moves the limit left out must be
/// searched before a loss is claimed.
#[test]
fn a_search_searches_the_moves_left_out_before_it_claims_a_loss() {
    use crate::base::score::WIN_THRESHOLD;
    use crate::base::transposition::TranspositionTable;
    use crate::game::MultiplayerSearch;
    use crate::search::limits::Limits;
    use crate::search::{search_with, SearchRequest};
    use std::sync::atomic::AtomicBool;

    let mut game = Gomoku::new(15, Rule::Renju).unwrap();
    for text in "g7 h7 e5 j10 i9 j8 g8 j9 j7 i11 g6 g9 f8 j11 j12".split(' ') {
        game.try_play(game.parse_move(text).unwrap()).unwrap();
    }
    let saving = game.parse_move("i8").unwrap();
    let mut candidates = Vec::new();
    game.search_moves(&mut candidates);
    assert!(!candidates.contains(&saving));
    let mut left_out = Vec::new();
    game.left_out_moves(&mut left_out);
    assert!(left_out.contains(&saving));
    assert!(left_out.iter().all(|mv| !candidates.contains(mv)));

    let request = SearchRequest {
        limits: Limits {
            depth: Some(10),
            ..Limits::default()
        },
        ..SearchRequest::default()
    };
    let outcome = search_with(
        &game,
        &request,
        MultiplayerSearch::Paranoid,
        &TranspositionTable::new(16),
        &AtomicBool::new(false),
        &mut Vec::new(),
        &mut |_| {},
    );
    let best = outcome.best.expect("a move").lines[0].clone();
    assert!(
        best.score > -WIN_THRESHOLD,
        "white claims a loss: {}",
        best.score
    );
}

#[test]
fn probcut_has_no_model_below_its_first_depth() {
    let game = black_to_move(Rule::Freestyle, &["h8"]);
    for depth in 0..PROBCUT_FROM {
        assert!(game.probcut(depth).is_none(), "depth {depth}");
    }
    let model = game
        .probcut(PROBCUT_FROM)
        .expect("a model from PROBCUT_FROM on");
    assert_eq!(model.shallow_depth, PROBCUT_FROM - PROBCUT_GAP);
}

#[test]
fn move_scores_are_the_ordering_values_times_the_ordering_features() {
    use candidates::{ordering_features, score_moves, FITTED_ORDERING, HAND_ORDERING};
    // Openings with threes, fours and combinations on the board, played on under each rule.
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        let start = Gomoku::new(15, rule).unwrap();
        for moves in BENCH_OPENINGS
            .iter()
            .chain(&["h8 i9 i8 g8 j7 k6 j8 j9 k8 l8 h7 g6 h9"])
        {
            let game = crate::games::replay(&start, moves);
            let mut candidates = Vec::new();
            candidates::neighbourhood(&game, &mut candidates);
            let mut scores = vec![0; candidates.len()];
            score_moves(&game, &candidates, &mut scores);
            let values = game.ordering.to_vector();
            for (mv, score) in candidates.iter().zip(&scores) {
                let features = ordering_features(&game, mv.point());
                let product: i32 = values.iter().zip(features).map(|(v, f)| v * f).sum();
                assert_eq!(*score, product, "{rule:?} {moves} {mv:?}");
            }
        }
    }
    // Freestyle plays the fitted values, renju and standard the hand-set ones.
    assert_eq!(Rule::Freestyle.ordering(), &FITTED_ORDERING);
    assert_eq!(Rule::Renju.ordering(), &HAND_ORDERING);
    assert_eq!(Rule::Standard.ordering(), &HAND_ORDERING);
    let vector = FITTED_ORDERING.to_vector();
    assert_eq!(
        candidates::OrderingValues::from_vector(&vector),
        FITTED_ORDERING
    );
}

/// The evaluation's pattern value is the weights times the (signed) features the tuner fits,
/// under every rule, with either side to move, in random positions from a fixed seed.
#[test]
fn combinations_from_packed_pairs_match_the_patterns_counted_one_by_one() {
    use super::patterns::Pattern;
    let mut seen = [[0; 2]; 2];
    for rule in [Rule::Freestyle, Rule::Renju] {
        let start = Gomoku::new(15, rule).unwrap();
        for moves in BENCH_OPENINGS
            .iter()
            .chain(&["h8 i9 i8 g8 j7 k6 j8 j9 k8 l8 h7 g6 h9"])
        {
            let game = crate::games::replay(&start, moves);
            for point in 0..15 * 15 {
                for colour in 0..2 {
                    let patterns = game.threats.patterns(colour, point);
                    let count = |wanted| patterns.iter().filter(|&&p| p == wanted).count();
                    let (twos, threes) = (count(Pattern::OpenTwo), count(Pattern::OpenThree));
                    let three_two = threes >= 1 && twos >= 1;
                    let expected = (three_two, !three_two && twos >= 2);
                    let found = candidates::combinations(game.threats.pairs(point), colour);
                    assert_eq!(
                        found, expected,
                        "{rule:?} {moves} point {point} colour {colour}"
                    );
                    seen[0][usize::from(found.0)] += 1;
                    seen[1][usize::from(found.1)] += 1;
                }
            }
        }
    }
    // The positions hold both combinations, so the comparison covers them.
    assert!(seen[0][1] > 0 && seen[1][1] > 0, "{seen:?}");
}

#[test]
fn pair_values_add_attack_and_defence_for_any_ordering_values() {
    use super::candidates::{FITTED_ORDERING, HAND_ORDERING};
    use super::patterns::{PairTable, Pattern};
    let mut custom = HAND_ORDERING;
    custom.attack[Pattern::OpenThree as usize] += 7;
    custom.defence[Pattern::Four as usize] -= 3;
    for values in [HAND_ORDERING, FITTED_ORDERING, custom] {
        let table = candidates::pair_values(&values);
        // Made once per set of values, then shared.
        assert!(std::ptr::eq(table, candidates::pair_values(&values)));
        for black in Pattern::ALL {
            for white in Pattern::ALL {
                let pair = black as u8 | (white as u8) << 4;
                assert_eq!(PairTable::pattern(pair, 0), black);
                assert_eq!(PairTable::pattern(pair, 1), white);
                let (black, white) = (black as usize, white as usize);
                let pair = usize::from(pair);
                assert_eq!(table[0][pair], values.attack[black] + values.defence[white]);
                assert_eq!(table[1][pair], values.attack[white] + values.defence[black]);
            }
        }
    }
}

#[test]
fn the_pattern_value_is_the_weights_times_the_features() {
    use evaluation::{features, pattern_value, weights};
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    let mut rng = SmallRng::seed_from_u64(5);
    let mut moves = Vec::new();
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        let weights = weights(rule);
        let vector = weights.values.to_vector();
        for _ in 0..6 {
            let mut game = Gomoku::new(15, rule).unwrap();
            for _ in 0..60 {
                if game.outcome().is_some() {
                    break;
                }
                let expected: i32 = features(&game)
                    .iter()
                    .zip(&vector)
                    .map(|(count, weight)| count * weight)
                    .sum();
                assert_eq!(
                    pattern_value(&game, &weights.values),
                    expected.clamp(-8000, 8000)
                );
                game.search_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.random_range(0..moves.len())];
                game.play_unchecked(mv);
            }
        }
    }
}

/// Each rule plays its own built-in weights, whichever option came first, and `weights=default`
/// on a live position goes back to its rule's: freestyle's differ from renju's and standard's.
#[test]
fn each_rule_evaluates_with_its_own_built_in_weights() {
    use evaluation::weights;
    use std::sync::Arc;
    let option = |key: &str, value: &str| (key.to_string(), value.to_string());
    assert_ne!(weights(Rule::Freestyle).values, weights(Rule::Renju).values);
    assert_eq!(weights(Rule::Standard).values, weights(Rule::Renju).values);
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        let game = Gomoku::new(15, rule).unwrap();
        assert!(Arc::ptr_eq(&game.weights, &weights(rule)));
        let options = [option("weights", "default"), option("rule", rule.name())];
        let mut game = Gomoku::from_options(&options).unwrap();
        assert!(
            Arc::ptr_eq(&game.weights, &weights(rule)),
            "{}",
            rule.name()
        );
        game.set_option("weights", "default").unwrap();
        assert!(Arc::ptr_eq(&game.weights, &weights(rule)));
    }
}
