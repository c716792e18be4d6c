//! RuleSet tests: perft, the end of the game, house rules, passes and bad input; and the
//! Monte-Carlo search on small positions.

use super::board::{hole_at, COLUMN_OF, GOAL_DISTANCES, NEIGHBOURS, NONE, ROW_OF};
use super::*;
use crate::base::transposition::TranspositionTable;
use crate::search::limits::Limits;
use crate::search::{self, RootLine, SearchRequest};
use std::sync::atomic::AtomicBool;

fn game(players: usize, jumps: Jumps) -> ChineseCheckers {
    ChineseCheckers::new(players, jumps, DEFAULT_MAX_MOVES).unwrap()
}

/// The hole at doubled coordinates, which must exist.
fn at(column: i32, row: i32) -> usize {
    hole_at(column, row).unwrap_or_else(|| panic!("no hole at ({column}, {row})"))
}

fn holes_of(mask: u128) -> Vec<usize> {
    (0..HOLES).filter(|&hole| mask & bit(hole) != 0).collect()
}

/// A camp's holes split into nine to fill, one left empty at the camp's mouth, and the hole just
/// outside that leads into it.
fn almost_full(camp: usize) -> (Vec<usize>, usize, usize) {
    let holes = holes_of(CAMP_MASKS[camp]);
    for &empty in &holes {
        let outside = NEIGHBOURS[empty]
            .iter()
            .find(|&&next| next != NONE && CAMP_MASKS[0] & bit(next as usize) != 0);
        if let Some(&outside) = outside {
            let nine = holes
                .iter()
                .copied()
                .filter(|&hole| hole != empty)
                .collect();
            return (nine, empty, outside as usize);
        }
    }
    unreachable!("every camp touches the centre")
}

/// A position string from the holes of each player (player number = index + 1).
fn position_text(pieces: &[Vec<usize>], side: Player, finished: &str) -> String {
    let mut cells = ['.'; HOLES];
    for (seat, holes) in pieces.iter().enumerate() {
        assert_eq!(holes.len(), 10, "player {} needs ten pieces", seat + 1);
        for &hole in holes {
            assert_eq!(cells[hole], '.', "hole {} used twice", hole + 1);
            cells[hole] = (b'1' + seat as u8) as char;
        }
    }
    let board: String = cells.iter().collect();
    format!("{board} {}{finished}", side + 1)
}

fn load(players: usize, jumps: Jumps, text: &str) -> ChineseCheckers {
    let mut position = game(players, jumps);
    position.set_position_string(text).unwrap();
    position
}

fn play(position: &mut ChineseCheckers, from: usize, to: usize) {
    position
        .try_play(ChineseCheckersMove::new(from, to))
        .unwrap_or_else(|error| panic!("{}-{}: {error}", from + 1, to + 1));
}

/// `count` holes of the central row 8, from the left.
fn centre_row(count: usize, skip: usize) -> Vec<usize> {
    (0..count)
        .map(|index| at(-8 + 2 * (index + skip) as i32, 8))
        .collect()
}

#[test]
fn perft_two_players_standard() {
    let start = game(2, Jumps::Standard);
    for (depth, expected) in [(1, 14), (2, 196), (3, 4760), (4, 115_600)] {
        assert_eq!(start.perft(depth), expected, "depth {depth}");
    }
}

#[test]
fn perft_two_players_long() {
    let start = game(2, Jumps::Long);
    for (depth, expected) in [(1, 14), (2, 196), (3, 5348), (4, 145_924)] {
        assert_eq!(start.perft(depth), expected, "depth {depth}");
    }
}

#[test]
fn fast_perft_agrees_with_generic_perft() {
    for players in PLAYER_COUNTS {
        for jumps in [Jumps::Standard, Jumps::Long] {
            let start = game(players, jumps);
            for depth in 0..=3 {
                assert_eq!(
                    start.perft(depth),
                    crate::game::perft::perft(&mut start.clone(), depth),
                    "{players} players, {jumps:?}, depth {depth}"
                );
            }
        }
    }
}

#[test]
fn start_positions_seat_players_clockwise() {
    let expectations: [(usize, &[usize]); 4] = [
        (2, &[1, 4]),
        (3, &[1, 3, 5]),
        (4, &[1, 2, 4, 5]),
        (6, &[1, 2, 3, 4, 5, 6]),
    ];
    for (players, camps) in expectations {
        let start = game(players, Jumps::Standard);
        assert_eq!(start.player_count(), players);
        assert_eq!(start.side_to_move(), 0);
        for (seat, &camp) in camps.iter().enumerate() {
            assert_eq!(start.pieces(seat), CAMP_MASKS[camp]);
            assert_eq!(start.variant().goal_camp(seat), board::opposite_camp(camp));
            assert_eq!(start.distance(seat), 140);
        }
        assert!(start.outcome().is_none());
        assert_eq!(start.ply(), 0);
    }
}

#[test]
fn turns_go_round_the_table() {
    let mut position = game(3, Jumps::Standard);
    let mut moves = Vec::new();
    for expected in [0, 1, 2, 0, 1] {
        assert_eq!(position.side_to_move(), expected);
        position.generate_moves(&mut moves);
        position.play_unchecked(moves[0]);
    }
}

#[test]
fn filling_the_goal_wins() {
    let (nine, empty, outside) = almost_full(4);
    let mut first = nine.clone();
    first.push(outside);
    let second = centre_row(9, 0).into_iter().chain([at(0, 6)]).collect();
    let text = position_text(&[first, second], 0, "");
    let mut position = load(2, Jumps::Standard, &text);
    assert!(position.outcome().is_none());
    play(&mut position, outside, empty);
    let outcome = position.outcome().expect("player 1 has filled the goal");
    assert_eq!(outcome.winner(), Some(0));
    assert_eq!(outcome.place(1), 2);
    assert!(position.position_string().ends_with(" 2 finished=1"));
    let mut moves = Vec::new();
    position.generate_moves(&mut moves);
    assert!(moves.is_empty());
    assert!(matches!(
        position.clone().try_play(ChineseCheckersMove::new(0, 1)),
        Err(GameError::GameOver)
    ));
}

#[test]
fn anti_spoiling_one_own_piece_is_enough() {
    // Player 2 squats in nine holes of player 1's goal; player 1 fills the tenth and wins.
    let (nine, empty, outside) = almost_full(4);
    let mut first = centre_row(9, 0);
    first.push(outside);
    let mut second = nine;
    second.push(at(0, 6));
    let text = position_text(&[first, second], 0, "");
    let mut position = load(2, Jumps::Standard, &text);
    play(&mut position, outside, empty);
    assert_eq!(
        position.outcome().and_then(|outcome| outcome.winner()),
        Some(0)
    );
}

#[test]
fn anti_spoiling_a_full_goal_of_others_is_no_win() {
    // Player 2 fills player 1's goal with its own pieces only: nobody has won.
    let (nine, empty, outside) = almost_full(4);
    let mut second = nine;
    second.push(outside);
    let first = centre_row(9, 0).into_iter().chain([at(0, 6)]).collect();
    let text = position_text(&[first, second], 1, "");
    let mut position = load(2, Jumps::Standard, &text);
    play(&mut position, outside, empty);
    assert_eq!(position.occupied() & CAMP_MASKS[4], CAMP_MASKS[4]);
    assert!(!position.goal_reached(0));
    assert!(position.outcome().is_none());
    assert_eq!(position.side_to_move(), 0);
}

#[test]
fn anti_spoiling_the_other_player_can_complete_your_goal() {
    // Player 1 has one piece in its goal; player 2 fills the last hole and so makes player 1 win.
    let (nine, empty, outside) = almost_full(4);
    let mut second: Vec<usize> = nine[1..].to_vec();
    second.push(outside);
    second.push(at(0, 4));
    let mut first = vec![nine[0]];
    first.extend(centre_row(9, 0));
    let text = position_text(&[first, second], 1, "");
    let mut position = load(2, Jumps::Standard, &text);
    assert!(position.outcome().is_none());
    play(&mut position, outside, empty);
    assert_eq!(
        position.outcome().and_then(|outcome| outcome.winner()),
        Some(0)
    );
    assert_eq!(position.side_to_move(), 1, "the mover is the only one left");
}

#[test]
fn three_players_play_on_until_the_ranking_is_settled() {
    // Seats: player 1 from camp 1 to 4, player 2 from 3 to 6, player 3 from 5 to 2.
    let (nine_first, empty_first, outside_first) = almost_full(4);
    let (nine_second, empty_second, outside_second) = almost_full(6);
    let mut first = nine_first;
    first.push(outside_first);
    let mut second = nine_second;
    second.push(outside_second);
    let third = holes_of(CAMP_MASKS[5]);
    let text = position_text(&[first, second, third.clone()], 0, "");
    let mut position = load(3, Jumps::Standard, &text);

    play(&mut position, outside_first, empty_first);
    assert_eq!(position.place(0), Some(1));
    assert!(position.outcome().is_none(), "two players play on");
    assert_eq!(position.side_to_move(), 1);
    assert!(position.position_string().ends_with(" 2 finished=1"));
    let reloaded = load(3, Jumps::Standard, &position.position_string());
    assert_eq!(reloaded.hash(), position.hash());
    assert_eq!(reloaded.place(0), Some(1));

    // Player 2 steps away from its goal instead, player 3 moves, and player 1 is skipped.
    let away = NEIGHBOURS[outside_second]
        .iter()
        .map(|&hole| hole as usize)
        .find(|&hole| hole < HOLES && position.occupied() & bit(hole) == 0 && CAMP_OF[hole] == 0)
        .unwrap();
    play(&mut position, outside_second, away);
    assert_eq!(position.side_to_move(), 2);
    let mut moves = Vec::new();
    position.generate_moves(&mut moves);
    position.try_play(moves[0]).unwrap();
    assert_eq!(position.side_to_move(), 1, "finished player 1 is skipped");
    play(&mut position, away, outside_second);
    position.generate_moves(&mut moves);
    position.try_play(moves[0]).unwrap();
    assert_eq!(position.side_to_move(), 1);
    play(&mut position, outside_second, empty_second);
    let outcome = position.outcome().expect("only player 3 is left");
    assert_eq!(&outcome.places[..3], &[1, 2, 3]);
    assert_eq!(outcome.winner(), Some(0));
}

#[test]
fn finished_players_are_remembered_after_leaving_squatters() {
    // Four players: player 3 (camp 4) still has a piece at home when player 1 completes camp 4.
    // When that piece leaves, player 1 stays finished.
    let (nine, empty, outside) = almost_full(4);
    let mut first: Vec<usize> = nine[1..].to_vec();
    first.push(outside);
    first.push(at(0, 8));
    let squatter = nine[0];
    let mut third = vec![squatter];
    third.extend(centre_row(4, 0));
    third.extend((0..5).map(|index| at(-5 + 2 * index, 9)));
    let second = holes_of(CAMP_MASKS[2]);
    let fourth = holes_of(CAMP_MASKS[5]);
    let text = position_text(&[first, second, third, fourth], 0, "");
    let mut position = load(4, Jumps::Standard, &text);
    play(&mut position, outside, empty);
    assert_eq!(position.place(0), Some(1));
    // The pieces after the squatter, players 2, 3 and 4 move; player 3 moves its squatter out
    // when it can, and player 1 stays finished.
    let mut moves = Vec::new();
    for _ in 0..12 {
        position.generate_moves(&mut moves);
        let mv = moves
            .iter()
            .copied()
            .find(|mv| mv.from as usize == squatter)
            .unwrap_or(moves[0]);
        position.try_play(mv).unwrap();
        assert_eq!(position.place(0), Some(1));
        assert_ne!(position.side_to_move(), 0);
        let reloaded = load(4, Jumps::Standard, &position.position_string());
        assert_eq!(reloaded.hash(), position.hash());
    }
    assert!(!position.goal_reached(0), "the squatter has left");
}

#[test]
fn pieces_do_not_leave_their_goal_camp() {
    let inside = at(-3, 13);
    let mut first = vec![inside];
    first.extend(centre_row(9, 0));
    let second = holes_of(CAMP_MASKS[2]);
    let text = position_text(&[first, second], 0, "");
    let mut position = load(2, Jumps::Standard, &text);
    let mut moves = Vec::new();
    position.generate_moves(&mut moves);
    let from_inside: Vec<_> = moves
        .iter()
        .filter(|mv| mv.from as usize == inside)
        .collect();
    assert!(!from_inside.is_empty());
    assert!(from_inside
        .iter()
        .all(|mv| CAMP_MASKS[4] & bit(mv.to as usize) != 0));
    let before = position.clone();
    let error = position
        .try_play(ChineseCheckersMove::new(inside, at(-4, 12)))
        .unwrap_err();
    assert!(error.to_string().contains("goal camp"), "{error}");
    assert_eq!(position, before);
}

#[test]
fn pieces_may_rest_in_other_camps() {
    let mut position = game(2, Jumps::Standard);
    // 10-19 then 19-20: hole 20 (row 4, column 6) belongs to camp 2, nobody's camp here.
    for (from, to) in [(10, 19), (113, 105), (19, 20)] {
        let mv = position.parse_move(&format!("{from}-{to}")).unwrap();
        position.try_play(mv).unwrap();
    }
    assert_eq!(CAMP_OF[19], 2);
    assert_ne!(position.pieces(0) & bit(19), 0);
}

#[test]
fn a_blocked_player_passes() {
    // Player 1 sits in its full start camp, walled in by two full rows of the others.
    let first = holes_of(CAMP_MASKS[1]);
    let row_four: Vec<usize> = (0..5).map(|index| at(-4 + 2 * index, 4)).collect();
    let row_five: Vec<usize> = (0..6).map(|index| at(-5 + 2 * index, 5)).collect();
    let mut second = row_four;
    second.extend(holes_of(CAMP_MASKS[3]).into_iter().take(5));
    let mut third = row_five;
    third.extend(holes_of(CAMP_MASKS[5]).into_iter().take(4));
    for jumps in [Jumps::Standard, Jumps::Long] {
        let text = position_text(&[first.clone(), second.clone(), third.clone()], 0, "");
        let mut position = load(3, jumps, &text);
        let mut moves = Vec::new();
        position.generate_moves(&mut moves);
        assert_eq!(moves, vec![ChineseCheckersMove::PASS]);
        assert_eq!(position.forced_pass(), Some(ChineseCheckersMove::PASS));
        assert_eq!(position.parse_move("pass"), Ok(ChineseCheckersMove::PASS));
        let before = position.clone();
        let undo = position.try_play(ChineseCheckersMove::PASS).unwrap();
        assert_eq!(position.side_to_move(), 1);
        assert_eq!(position.hash(), position.recompute_hash());
        position.undo(ChineseCheckersMove::PASS, undo);
        assert_eq!(position, before);
        assert_eq!(
            position.perft(2),
            crate::game::perft::perft(&mut position.clone(), 2)
        );
    }
    let mut start = game(3, Jumps::Standard);
    assert!(!start.is_legal(ChineseCheckersMove::PASS));
    assert!(start.try_play(ChineseCheckersMove::PASS).is_err());
    assert_eq!(start.forced_pass(), None);
}

#[test]
fn the_move_cap_ends_the_game_and_ranks_by_progress() {
    let options = |cap: &str| {
        vec![
            ("players".to_string(), "3".to_string()),
            ("max_moves".to_string(), cap.to_string()),
        ]
    };
    let mut position = ChineseCheckers::from_options(&options("2")).unwrap();
    // Player 1 and 2 each step forward one row; player 3 has not moved yet.
    let mut moves = Vec::new();
    for _ in 0..2 {
        position.generate_moves(&mut moves);
        let mut scores = vec![0; moves.len()];
        position.score_moves(&moves, &mut scores);
        let best = moves[scores
            .iter()
            .position(|&score| score == evaluation::ROW)
            .unwrap()];
        position.try_play(best).unwrap();
    }
    let outcome = position.outcome().expect("the cap is reached");
    assert_eq!(&outcome.places[..3], &[1, 1, 3], "ties share a place");
    position.generate_moves(&mut moves);
    assert!(moves.is_empty());
    // Loading a position starts the count afresh.
    let text = position.position_string();
    position.set_position_string(&text).unwrap();
    assert!(position.outcome().is_none());
    assert_eq!(position.ply(), 0);

    let mut two =
        ChineseCheckers::from_options(&[("max_moves".to_string(), "3".to_string())]).unwrap();
    for text in ["8-17", "113-105", "17-29"] {
        let mv = two.parse_move(text).unwrap();
        two.try_play(mv).unwrap();
    }
    assert_eq!(two.outcome().and_then(|outcome| outcome.winner()), Some(0));
}

#[test]
fn the_third_repetition_ends_the_game() {
    // A loaded position without turns= counts every player's turns as taken.
    let mut position = game(2, Jumps::Standard);
    let start_text = position.position_string();
    assert!(start_text.ends_with(" 1 turns=0,0"), "{start_text}");
    let start_text = start_text.replace(" turns=0,0", "");
    position.set_position_string(&start_text).unwrap();
    let start_hash = position.hash();
    let cycle = ["8-17", "113-105", "17-8", "105-113"];
    for (ply, text) in cycle.iter().chain(cycle.iter()).enumerate() {
        assert!(position.outcome().is_none(), "ply {ply}");
        let mv = position.parse_move(text).unwrap();
        position.try_play(mv).unwrap();
    }
    assert_eq!(position.hash(), start_hash);
    assert!(position.is_repeated());
    let outcome = position.outcome().expect("third occurrence of the start");
    assert_eq!(&outcome.places[..2], &[1, 1]);
    assert_eq!(outcome.winner(), None);
    // Undo brings the game back.
    let mut again = game(2, Jumps::Standard);
    again.set_position_string(&start_text).unwrap();
    let mut undos = Vec::new();
    for text in cycle.iter().chain(cycle.iter()) {
        let mv = again.parse_move(text).unwrap();
        undos.push((mv, again.play_unchecked(mv)));
    }
    let (mv, undo) = undos.pop().unwrap();
    again.undo(mv, undo);
    assert!(again.outcome().is_none());
    assert!(!again.is_repeated());
}

#[test]
fn hop_paths_are_checked() {
    // Player 1's piece on (0, 4) can hop over (1, 5) to (2, 6) and over (3, 7) to (4, 8).
    let origin = at(0, 4);
    let mut first = vec![origin];
    first.extend(holes_of(CAMP_MASKS[1]).into_iter().take(9));
    let mut second = vec![at(1, 5), at(3, 7)];
    second.extend(holes_of(CAMP_MASKS[4]).into_iter().take(8));
    let text = position_text(&[first, second], 0, "");
    let position = load(2, Jumps::Standard, &text);
    let path = format!("{}-{}-{}", origin + 1, at(2, 6) + 1, at(4, 8) + 1);
    assert_eq!(
        position.parse_move(&path),
        Ok(ChineseCheckersMove::new(origin, at(4, 8)))
    );
    assert!(position.is_legal(ChineseCheckersMove::new(origin, at(4, 8))));
    let wrong = format!("{}-{}-{}", origin + 1, at(2, 6) + 1, at(6, 8) + 1);
    assert!(matches!(
        position.parse_move(&wrong),
        Err(GameError::IllegalMove { .. })
    ));
    let back = format!("{}-{}-{}", origin + 1, at(2, 6) + 1, origin + 1);
    assert!(
        position.parse_move(&back).is_err(),
        "a chain may not return to its origin"
    );
    // A chain from another player's piece reads as a move, which is not legal for player 1.
    let not_mine = format!("{}-{}-{}", at(1, 5) + 1, at(2, 6) + 1, at(4, 8) + 1);
    assert!(position
        .parse_move(&not_mine)
        .map_or(true, |mv| !position.is_legal(mv)));
    // With long jumps the nearest piece on a line is the one jumped, so the chain is the same.
    let long = load(2, Jumps::Long, &text);
    assert_eq!(
        long.parse_move(&path),
        Ok(ChineseCheckersMove::new(origin, at(4, 8)))
    );
}

#[test]
fn long_jumps_reach_further() {
    // A lone pair on row 8: the piece on column -8 jumps the piece on column -2 to column 4.
    let mut first = vec![at(-8, 8)];
    first.extend(holes_of(CAMP_MASKS[1]).into_iter().take(9));
    let mut second = vec![at(-2, 8)];
    second.extend(holes_of(CAMP_MASKS[4]).into_iter().take(9));
    let text = position_text(&[first, second], 0, "");
    let long_move = ChineseCheckersMove::new(at(-8, 8), at(4, 8));
    assert!(load(2, Jumps::Long, &text).is_legal(long_move));
    assert!(!load(2, Jumps::Standard, &text).is_legal(long_move));
    let reason = load(2, Jumps::Standard, &text).illegal_reason(long_move);
    assert!(reason.contains("cannot be reached"), "{reason}");
}

#[test]
fn bad_moves_leave_the_game_unchanged() {
    let mut position = game(2, Jumps::Standard);
    for text in [
        "", "0-5", "122-1", "1-122", "5", "a-b", "5_18", "5-18-", "1.5-6",
    ] {
        assert!(
            matches!(position.parse_move(text), Err(GameError::MalformedMove(_))),
            "{text}"
        );
    }
    let before = position.clone();
    let attempts = [
        ("60-61", "empty"),
        ("112-100", "player 2"),
        ("1-3", "occupied"),
        ("8-30", "cannot be reached"),
    ];
    for (text, reason) in attempts {
        let mv = position.parse_move(text).unwrap();
        match position.try_play(mv) {
            Err(GameError::IllegalMove { reason: why, .. }) => {
                assert!(why.contains(reason), "{text}: {why}")
            }
            other => panic!("{text}: {other:?}"),
        }
        assert_eq!(position, before);
    }
    assert!(matches!(
        position.parse_move("5-18-31"),
        Err(GameError::IllegalMove { .. })
    ));
    assert_eq!(position, before);
}

#[test]
fn bad_positions_leave_the_game_unchanged() {
    let mut position = game(3, Jumps::Standard);
    position.try_play(ChineseCheckersMove::new(7, 16)).unwrap();
    let before = position.clone();
    let good = position.position_string();
    let board = &good[..HOLES];
    let bad = [
        String::new(),
        board.to_string(),
        format!("{board} 4"),
        format!("{board} 0"),
        format!("{board} x"),
        format!("{} 1", &board[1..]),
        format!("{board}. 1"),
        format!("{} 1", board.replacen('.', "4", 1)),
        format!("{} 1", board.replacen('1', ".", 1)),
        format!("{} 1", board.replacen('.', "1", 1)),
        format!("{} 1", board.replacen('.', "x", 1)),
        format!("{board} 1 finished=1,1"),
        format!("{board} 1 finished=1,2,3"),
        format!("{board} 1 finished=4"),
        format!("{board} 1 finished=1"),
        format!("{board} 1 done=2"),
        format!("{board} 1 finished=2 more"),
    ];
    for text in bad {
        assert!(
            matches!(
                position.set_position_string(&text),
                Err(GameError::InvalidPosition(_))
            ),
            "{text}"
        );
        assert_eq!(position, before);
    }
    position.set_position_string(&good).unwrap();
    assert_eq!(position.position_string(), good);
    assert_eq!(position.hash(), before.hash());
}

#[test]
fn options_are_read_and_reported() {
    let options = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(key, value)| (key.to_string(), value.to_string()))
            .collect()
    };
    let position = ChineseCheckers::from_options(&options(&[
        ("players", "6"),
        ("jumps", "LONG"),
        ("max_moves", "300"),
    ]))
    .unwrap();
    assert_eq!(position.name(), "chinese-checkers");
    assert_eq!(
        position.options(),
        options(&[("players", "6"), ("jumps", "long"), ("max_moves", "300")])
    );
    assert_eq!(
        ChineseCheckers::from_options(&[]).unwrap().options(),
        options(&[
            ("players", "2"),
            ("jumps", "standard"),
            ("max_moves", "1000")
        ])
    );
    for bad in [
        &[("players", "5")][..],
        &[("players", "two")],
        &[("jumps", "short")],
        &[("max_moves", "0")],
        &[("max_moves", "-3")],
        &[("size", "8")],
        &[("players", "2"), ("players", "3")],
    ] {
        assert!(
            matches!(
                ChineseCheckers::from_options(&options(bad)),
                Err(GameError::InvalidOption(_))
            ),
            "{bad:?}"
        );
    }
}

#[test]
fn players_read_and_write_as_numbers() {
    let two = game(2, Jumps::Standard);
    assert_eq!(two.format_player(1), "2");
    assert_eq!(two.parse_player("2"), Ok(1));
    let six = game(6, Jumps::Standard);
    assert_eq!(six.parse_player("6"), Ok(5));
    assert!(six.parse_player("7").is_err());
}

#[test]
fn evaluation_stays_in_range_and_prefers_progress() {
    let mut position = game(2, Jumps::Standard);
    let mv = position.parse_move("5-18").unwrap();
    position.try_play(mv).unwrap();
    assert!(position.evaluate(0, Strength::FULL) > 0);
    assert_eq!(
        position.evaluate(0, Strength::FULL),
        -position.evaluate(1, Strength::FULL)
    );
    // A finished player in a three-player game is worth a lot; extremes stay in range.
    let (nine, empty, outside) = almost_full(4);
    let mut first = nine;
    first.push(outside);
    let text = position_text(
        &[first, holes_of(CAMP_MASKS[3]), holes_of(CAMP_MASKS[5])],
        0,
        "",
    );
    let mut three = load(3, Jumps::Standard, &text);
    play(&mut three, outside, empty);
    let limit = crate::base::score::MAX_EVALUATION;
    for level in 1..=8 {
        for seat in 0..3 {
            let value = three.evaluate(seat, Strength(level));
            assert!(value.abs() < limit, "{value}");
        }
        assert!(three.evaluate(0, Strength(level)) > 5000);
        assert!(three.evaluate(1, Strength(level)) < 0);
    }
    assert!(three.expected_moves_left() > 10);
}

#[test]
fn diagram_shows_the_star() {
    let position = game(3, Jumps::Long);
    let diagram = position.diagram();
    let lines: Vec<&str> = diagram.lines().collect();
    assert_eq!(
        lines[0],
        format!("  1  {}1{}  1", " ".repeat(12), " ".repeat(12))
    );
    assert_eq!(lines[4], " 11  . . . . . . . . . . . . .  23");
    assert_eq!(
        lines[16],
        format!("121  {}.{}  121", " ".repeat(12), " ".repeat(12))
    );
    assert!(diagram.contains("player 1 to move"));
    assert!(diagram.contains("player 2 camp 3 -> 6"));
}

/// A start position for `key=value` options.
fn with_rules(options: &str) -> ChineseCheckers {
    let pairs: Vec<(String, String)> = options
        .split_whitespace()
        .map(|word| {
            let (key, value) = word.split_once('=').unwrap();
            (key.to_string(), value.to_string())
        })
        .collect();
    ChineseCheckers::from_options(&pairs).unwrap()
}

fn load_with(options: &str, text: &str) -> ChineseCheckers {
    let mut position = with_rules(options);
    position.set_position_string(text).unwrap();
    position
}

fn play_text(position: &mut ChineseCheckers, text: &str) {
    let mv = position.parse_move(text).unwrap();
    position
        .try_play(mv)
        .unwrap_or_else(|error| panic!("{text}: {error}"));
}

#[test]
fn without_the_goal_lock_pieces_may_leave_the_goal() {
    let inside = at(-3, 13);
    let outside = at(-4, 12);
    let mut first = vec![inside];
    first.extend(centre_row(9, 0));
    let second = holes_of(CAMP_MASKS[2]);
    let text = position_text(&[first, second], 0, "");
    let mut locked = load_with("players=2", &text);
    assert!(locked
        .try_play(ChineseCheckersMove::new(inside, outside))
        .is_err());
    let mut free = load_with("players=2 goal_lock=off", &text);
    free.try_play(ChineseCheckersMove::new(inside, outside))
        .unwrap();
    assert_eq!(free.pieces(0) & bit(outside), bit(outside));
}

#[test]
fn no_stop_side_camps_may_be_hopped_through_but_not_rested_in() {
    // Player 1 hops from (2, 4) over (4, 4) into camp 2 at (6, 4), and on over (5, 5) to (4, 6).
    let origin = at(2, 4);
    let in_camp = at(6, 4);
    let beyond = at(4, 6);
    assert_eq!(CAMP_OF[in_camp], 2);
    assert_eq!(CAMP_OF[beyond], 0);
    let mut first = vec![origin, at(4, 4), at(5, 5)];
    first.extend(holes_of(CAMP_MASKS[1]).into_iter().take(7));
    let second = holes_of(CAMP_MASKS[4]);
    let text = position_text(&[first, second], 0, "");
    let open = load_with("players=2", &text);
    let barred = load_with("players=2 side_camps=no-stop", &text);
    let targets = |position: &ChineseCheckers| position.piece_destinations(0, origin);
    assert_ne!(targets(&open) & bit(in_camp), 0);
    assert_ne!(targets(&open) & bit(beyond), 0);
    assert_eq!(targets(&barred) & bit(in_camp), 0);
    assert_ne!(targets(&barred) & bit(beyond), 0, "a hop through camp 2");
    let error = barred
        .clone()
        .try_play(ChineseCheckersMove::new(origin, in_camp))
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("neither player 1's home nor its goal"),
        "{error}"
    );
    // The home and goal camps stay open: a step back home is fine.
    let mut home = barred.clone();
    play(&mut home, at(4, 4), at(3, 3));
}

#[test]
fn solitaire_ends_when_the_goal_is_full() {
    let (nine, empty, outside) = almost_full(4);
    let mut pieces = nine;
    pieces.push(outside);
    let text = position_text(&[pieces], 0, "");
    let mut position = load_with("players=1", &text);
    assert_eq!(position.player_count(), 1);
    assert!(position.outcome().is_none());
    play(&mut position, outside, empty);
    let outcome = position.outcome().expect("the goal is full");
    assert_eq!(outcome.place(0), 1);
    assert_eq!(position.format_result(&outcome), "1");
    assert!(position.position_string().ends_with(" 1 finished=1"));
    // A finished solitaire game reloads (there is no one else to move).
    let reloaded = load_with("players=1", &position.position_string());
    assert_eq!(reloaded.hash(), position.hash());
    assert!(reloaded.outcome().is_some());
    // Cut short by the move cap, the crossing has failed.
    let mut short = load_with("players=1 max_moves=1", &text);
    let away = NEIGHBOURS[outside]
        .iter()
        .map(|&hole| hole as usize)
        .find(|&hole| hole < HOLES && CAMP_OF[hole] == 0)
        .unwrap();
    play(&mut short, outside, away);
    let outcome = short.outcome().expect("the cap");
    assert_eq!(outcome.place(0), 2);
    assert_eq!(short.format_result(&outcome), "0");
    // From the start, the solitaire player has player 1's fourteen opening moves.
    assert_eq!(with_rules("players=1").perft(1), 14);
}

/// The six-player long-jump opening of issue 12: player 3 leaves hole 86 of its home camp at ply
/// 3, and player 6 fills it from its own camp at ply 6.
const SIX_PLAYER_SPOIL: [&str; 6] = ["4-15", "20-19", "86-84", "113-105", "76-78", "36-86"];

#[test]
fn nobody_finishes_on_the_holes_another_player_has_just_left() {
    for options in [
        "players=6 jumps=long",
        "players=6 jumps=long finish=all",
        "players=6 jumps=long spoil_after=5",
    ] {
        let mut position = with_rules(options);
        for text in SIX_PLAYER_SPOIL {
            play_text(&mut position, text);
        }
        assert_eq!(
            position.occupied() & CAMP_MASKS[3],
            CAMP_MASKS[3],
            "camp 3 is full"
        );
        assert_eq!(position.place(5), None, "{options}");
        assert!(!position.goal_reached(5), "{options}");
        assert_eq!(position.side_to_move(), 0);
    }
    // The old rule, where other players' pieces always count, let player 6 finish there.
    let mut old = with_rules("players=6 jumps=long spoil_after=0");
    for text in SIX_PLAYER_SPOIL {
        play_text(&mut old, text);
    }
    assert_eq!(old.place(5), Some(1));
}

#[test]
fn a_spoiler_cannot_block_a_goal_for_good() {
    // Two players: player 2 keeps one piece at home, in player 1's goal; player 1 fills the rest.
    let (nine, empty, _) = almost_full(4);
    let spoiler = nine[0];
    let mut first: Vec<usize> = nine[1..].to_vec();
    first.push(empty);
    first.push(at(0, 8));
    let mut second = vec![spoiler];
    second.extend(centre_row(4, 0));
    second.extend((0..5).map(|index| at(-7 + 2 * index, 5)));
    let board = position_text(&[first.clone(), second.clone()], 0, "");
    // Player 2 has taken 29 turns of 30: its piece does not count yet.
    let counting = format!("{board} turns=30,29");
    let mut position = load_with("players=2", &counting);
    assert_eq!(position.position_string(), counting);
    assert!(position.outcome().is_none());
    assert!(!position.goal_reached(0));
    play(&mut position, at(0, 8), at(1, 9));
    assert!(position.outcome().is_none());
    // Player 2's thirtieth turn, away from home: now its piece there counts and player 1 is done.
    play(&mut position, at(-7, 5), at(-6, 6));
    assert_eq!(
        position.outcome().and_then(|outcome| outcome.winner()),
        Some(0)
    );
    assert!(position.position_string().ends_with(" finished=1"));
    // Without turn counts (every player has had its turns) player 1 has finished at once.
    let second_to_move = position_text(&[first, second], 1, "");
    let mut late = load_with("players=2", &second_to_move);
    assert_eq!(late.place(0), Some(1));
    assert!(late.outcome().is_some());
    // With finish=all, the spoiler blocks the goal: player 1 must wait for it to leave.
    late = load_with("players=2 finish=all", &board);
    assert_eq!(late.place(0), None);
    assert!(late.outcome().is_none());
}

#[test]
fn players_who_finish_on_one_ply_take_their_places_in_seat_order() {
    // Six players. Player 1 has nine pieces in its goal (camp 4); the tenth hole holds a piece of
    // player 4, the seat opposite, still at home and ten turns from counting. Player 4 fills its
    // own goal (camp 1, where a piece of player 2, which has taken its thirty turns, counts) and
    // finishes; a finished player's pieces count at once, so player 1's goal is full on the same
    // ply, and player 1, earlier in the seat order, takes the first place from the player that
    // made the move. (Six-player games are decided this way in the thirtieth round: see
    // docs/results/chinese-checkers.md.)
    let (nine_four, straggler, _) = almost_full(4);
    let (nine_one, empty_one, outside_one) = almost_full(1);
    let first: Vec<usize> = nine_four.into_iter().chain([at(0, 8)]).collect();
    let junk = nine_one[0];
    let second: Vec<usize> = holes_of(CAMP_MASKS[2])
        .into_iter()
        .take(9)
        .chain([junk])
        .collect();
    let fourth: Vec<usize> = nine_one[1..]
        .iter()
        .copied()
        .chain([straggler, outside_one])
        .collect();
    let pieces = [
        first,
        second,
        holes_of(CAMP_MASKS[3]),
        fourth,
        holes_of(CAMP_MASKS[5]),
        holes_of(CAMP_MASKS[6]),
    ];
    let board = position_text(&pieces, 3, "");
    let mut position = load_with("players=6", &format!("{board} turns=20,30,20,20,20,20"));
    assert_eq!(position.place(0), None);
    assert_eq!(position.place(3), None);
    play(&mut position, outside_one, empty_one);
    assert_eq!(position.place(0), Some(1));
    assert_eq!(position.place(3), Some(2));
    assert!(position.outcome().is_none(), "four players play on");
}

#[test]
fn pieces_that_will_fill_the_goal_spare_the_farthest_piece() {
    // Player 1's goal holds eight of its pieces and one of player 2's, still at home; one hole is
    // empty, with a piece of player 1 next to it and another far behind.
    let (nine, _, outside) = almost_full(4);
    let mut second = vec![nine[0]];
    second.extend(centre_row(4, 0));
    second.extend((0..5).map(|index| at(-7 + 2 * index, 5)));
    let cost = |far: usize, turns: &str| {
        let mut first = nine[1..].to_vec();
        first.extend([outside, far]);
        let board = position_text(&[first, second.clone()], 0, "");
        let position = load_with("players=2", &format!("{board} turns={turns}"));
        evaluation::cost(&position, 0, Strength::FULL)
    };
    let (behind, ahead) = (at(4, 4), at(3, 5));
    let rows_between = (GOAL_DISTANCES[4][behind] - GOAL_DISTANCES[4][ahead]) as i32;
    assert!(rows_between > 0);
    // Close to its thirtieth turn, player 2's piece is taken to stay and count: only the near
    // piece is needed, and the far one costs only the spared piece's half a row per row, since
    // the filler may still leave and the far piece then has to come in.
    assert_eq!(
        cost(behind, "26,26") - cost(ahead, "26,26"),
        rows_between * evaluation::ROW / 2
    );
    // Early, that piece is about to leave and the far piece must come too.
    assert!(cost(ahead, "10,10") + evaluation::ROW <= cost(behind, "10,10"));
    // With finish=all nothing but its own pieces fills a goal.
    let mut first = nine[1..].to_vec();
    first.extend([outside, behind]);
    let board = position_text(&[first, second.clone()], 0, "");
    let all = load_with("players=2 finish=all", &board);
    assert!(evaluation::fillers(&all, 0) == 0);
}

#[test]
fn turn_counts_stop_mattering_after_spoil_after_turns() {
    let mut position = with_rules("players=2 spoil_after=3");
    assert!(position.position_string().ends_with(" 1 turns=0,0"));
    let mut moves = Vec::new();
    for ply in 1..=6 {
        position.generate_moves(&mut moves);
        position.try_play(moves[0]).unwrap();
        let text = position.position_string();
        let expected = match ply {
            1 => " turns=1,0",
            2 => " turns=1,1",
            3 => " turns=2,1",
            4 => " turns=2,2",
            5 => " turns=3,2",
            _ => "",
        };
        if expected.is_empty() {
            assert!(!text.contains("turns="), "{text}");
        } else {
            assert!(text.ends_with(expected), "{text}");
        }
        let reloaded = load_with("players=2 spoil_after=3", &text);
        assert_eq!(reloaded.hash(), position.hash());
    }
    // Counts are refused where the rule does not use them.
    let board = &position.position_string()[..HOLES];
    for options in ["players=2 finish=all", "players=2 spoil_after=0"] {
        let mut other = with_rules(options);
        assert!(other
            .set_position_string(&format!("{board} 1 turns=1,1"))
            .is_err());
    }
}

#[test]
fn finished_players_must_have_pieces_in_their_goal() {
    // Issue 8: `setposition <start> 1 finished=2` was accepted.
    let mut position = game(2, Jumps::Standard);
    let before = position.clone();
    let board = &position.position_string()[..HOLES];
    let error = position
        .set_position_string(&format!("{board} 1 finished=2"))
        .unwrap_err();
    assert!(
        error.to_string().contains("player 2 is listed as finished"),
        "{error}"
    );
    assert_eq!(position, before);
    assert!(position.outcome().is_none());
}

#[test]
fn cost_terms_of_the_start_counted_by_hand() {
    let start = game(2, Jumps::Standard);
    let terms = evaluation::terms(&start, 0, Strength::FULL);
    // Ten pieces at 13 to 16 rows from the goal's tip, 12 from home each: 120 rows; all on the
    // axis; the back piece 3 rows behind the front row, within the free rows; the three pieces
    // of the second row can hop over the front row; player 1 is to move.
    let expected = evaluation::Terms {
        rows: 120,
        sideways: 0,
        side_camp: 0,
        straggler: 0,
        spread: 3,
        hops: 3,
        tempo: 1,
        spared: 0,
    };
    assert_eq!(terms, expected);
    assert_eq!(
        evaluation::terms(&start, 1, Strength::FULL),
        evaluation::Terms {
            tempo: 0,
            ..expected
        }
    );
    // Below strength 3 only the rows count; the spread from strength 5, the hops from 6.
    assert_eq!(
        evaluation::terms(&start, 0, Strength(2)),
        evaluation::Terms {
            rows: 120,
            ..evaluation::Terms::default()
        }
    );
    assert_eq!(evaluation::terms(&start, 0, Strength(4)).spread, 0);
    assert_eq!(evaluation::terms(&start, 0, Strength(5)).hops, 0);
    // The cost is the weighted sum of the terms.
    let weights = start.weights();
    assert_eq!(
        evaluation::cost(&start, 0, Strength::FULL),
        120 * evaluation::ROW + 3 * weights.spread - 3 * weights.hop - weights.tempo
    );
}

#[test]
fn a_piece_left_behind_is_a_straggler() {
    // Player 1 with eight pieces in its goal, one just outside it and one still at its home
    // camp's tip: the home piece lags behind the front by all the rows between them, and pays
    // for those beyond the free ones.
    let start = game(2, Jumps::Standard);
    let goal = start.variant().goal_camp(0);
    let distances = &GOAL_DISTANCES[goal];
    let (nine, _, outside) = almost_full(goal);
    let home_tip = holes_of(start.pieces(0))
        .into_iter()
        .max_by_key(|&hole| distances[hole])
        .unwrap();
    let mut first = nine[1..].to_vec();
    first.extend([outside, home_tip]);
    let mut second = centre_row(9, 0);
    second.push(at(-7, 7));
    let board = position_text(&[first, second], 0, "");
    let position = load_with("players=2", &board);
    let terms = evaluation::terms(&position, 0, Strength::FULL);
    let lag = distances[home_tip] as i32 - distances[outside] as i32;
    assert_eq!(terms.spread, lag);
    assert_eq!(
        terms.straggler,
        lag - evaluation::Weights::DEFAULT.straggler_free
    );
    assert!(terms.straggler > 0);
}

#[test]
fn six_players_without_a_depth_cap_are_searched_by_monte_carlo() {
    for (players, depth, expected) in [
        (6, None, MultiplayerSearch::MonteCarlo),
        (6, Some(5), MultiplayerSearch::BestReply),
        (4, None, MultiplayerSearch::BestReply),
        (3, None, MultiplayerSearch::BestReply),
    ] {
        let position = ChineseCheckers::new(players, Jumps::Standard, DEFAULT_MAX_MOVES).unwrap();
        assert_eq!(
            position.multiplayer_search(depth),
            expected,
            "{players} players, {depth:?}"
        );
    }
}

/// Monte-Carlo tree search of `position` with `iterations` iterations: its answer.
fn monte_carlo(position: &ChineseCheckers, iterations: u64) -> RootLine<ChineseCheckersMove> {
    let request = SearchRequest {
        limits: Limits {
            nodes: Some(iterations),
            ..Limits::default()
        },
        ..SearchRequest::default()
    };
    let outcome = search::search_with(
        position,
        &request,
        MultiplayerSearch::MonteCarlo,
        &TranspositionTable::new(1),
        &AtomicBool::new(false),
        &mut Vec::new(),
        &mut |_| {},
    );
    assert_eq!(outcome.nodes, iterations);
    outcome.best.expect("a game in progress has a move").lines[0].clone()
}

/// Three players: player 1 with nine pieces in its goal and the tenth `away` steps straight out
/// from the empty hole, player 2 with nine in its goal and the tenth on `second_last`, player 3
/// at home; player 1 to move.
fn race_of_two(away: i32, second_last: usize) -> ChineseCheckers {
    let (mut first, empty, outside) = almost_full(4);
    let (row, column) = (ROW_OF[outside] as i32, COLUMN_OF[outside] as i32);
    let (step_row, step_column) = (row - ROW_OF[empty] as i32, column - COLUMN_OF[empty] as i32);
    first.push(at(
        column + (away - 1) * step_column,
        row + (away - 1) * step_row,
    ));
    let (mut second, _, _) = almost_full(6);
    second.push(second_last);
    let third = holes_of(CAMP_MASKS[5]);
    load(
        3,
        Jumps::Standard,
        &position_text(&[first, second, third], 0, ""),
    )
}

#[test]
fn monte_carlo_search_finishes_in_one_move() {
    let (_, empty, outside) = almost_full(4);
    let (_, _, second_outside) = almost_full(6);
    let position = race_of_two(1, second_outside);
    let best = monte_carlo(&position, 300);
    assert_eq!(best.mv, ChineseCheckersMove::new(outside, empty));
    // Finishing first is worth every reward there is.
    assert!(best.score > 300, "{}", best.score);
}

#[test]
fn monte_carlo_search_sees_an_opponent_about_to_finish() {
    // Player 1 needs two moves. Player 2 finishes with its next move from just outside its
    // goal, but needs several from its home camp's tip, where player 1 comes first.
    let (_, _, second_outside) = almost_full(6);
    let second_home = holes_of(CAMP_MASKS[3])
        .into_iter()
        .max_by_key(|&hole| GOAL_DISTANCES[6][hole])
        .unwrap();
    let threatened = monte_carlo(&race_of_two(2, second_outside), 1000);
    let safe = monte_carlo(&race_of_two(2, second_home), 1000);
    assert!(
        safe.score > 300 && threatened.score < 30,
        "safe {}, threatened {}",
        safe.score,
        threatened.score
    );
}

#[test]
fn monte_carlo_search_is_legal_and_reproducible() {
    let mut position = game(6, Jumps::Standard);
    for ply in 0..120u64 {
        if ply % 20 == 7 {
            let best = monte_carlo(&position, 200);
            assert!(position.is_legal(best.mv), "ply {ply}: {:?}", best.mv);
            assert_eq!(monte_carlo(&position, 200).mv, best.mv, "ply {ply}");
        }
        let mv = greedy::greedy_move(&position, ply).unwrap();
        position.try_play(mv).unwrap();
    }
}
