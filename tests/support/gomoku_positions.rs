//! Hand-made 15x15 Gomoku positions for the Gomoku test files.

use tabula::game::Rules;
use tabula::games::gomoku::{Gomoku, Rule};

/// Every rule.
pub const RULES: [Rule; 3] = [Rule::Freestyle, Rule::Standard, Rule::Renju];

/// Filler points far from the action, three apart so that no filler can make a four in one move.
pub const FILLERS: [&str; 12] = [
    "a1", "d1", "g1", "j1", "m1", "a4", "m4", "o7", "a10", "o12", "d15", "j15",
];

/// A 15x15 position with these stones and `black_to_move`; fillers balance the stone counts.
pub fn position(rule: Rule, black: &[&str], white: &[&str], black_to_move: bool) -> Gomoku {
    let mut game = Gomoku::new(15, rule).unwrap();
    let mut cells = vec!['.'; 225];
    let mut put = |text: &str, stone: char| {
        let point = game.parse_move(text).unwrap().point();
        assert_eq!(cells[point], '.', "{text} twice");
        cells[point] = stone;
    };
    for text in black {
        put(text, 'x');
    }
    for text in white {
        put(text, 'o');
    }
    let (mut blacks, mut whites) = (black.len(), white.len());
    let mut fillers = FILLERS.iter();
    let wanted_black = |whites: usize| if black_to_move { whites } else { whites + 1 };
    while blacks != wanted_black(whites) {
        let filler = fillers.next().expect("enough fillers");
        if blacks < wanted_black(whites) {
            put(filler, 'x');
            blacks += 1;
        } else {
            put(filler, 'o');
            whites += 1;
        }
    }
    let rows: Vec<String> = cells.chunks(15).map(|row| row.iter().collect()).collect();
    let text = format!(
        "{} {}",
        rows.join("/"),
        if black_to_move { 'x' } else { 'o' }
    );
    game.set_position_string(&text).unwrap();
    game
}
