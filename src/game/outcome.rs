//! The result of a finished game.

use crate::game::seat::{Player, MAX_PLAYERS};

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Place of each seat: 1 is first, and equal places are a tie. Seats beyond the player count are 0.
    pub places: [u8; MAX_PLAYERS],
    /// The winner's margin in the game's own unit (discs in Reversi); 0 where the game has none.
    pub margin: i32,
}

impl Outcome {
    /// A two-player game won by `winner` by `margin`.
    pub fn win(winner: Player, margin: i32) -> Outcome {
        let mut places = [0; MAX_PLAYERS];
        places[0] = 2;
        places[1] = 2;
        places[winner] = 1;
        Outcome { places, margin }
    }

    /// A drawn game between `players` seats.
    pub fn draw(players: usize) -> Outcome {
        let mut places = [0; MAX_PLAYERS];
        places[..players].fill(1);
        Outcome { places, margin: 0 }
    }

    /// A finished ranking: `places[p]` is seat `p`'s place, 1 for first.
    pub fn ranking(places: &[u8]) -> Outcome {
        let mut all = [0; MAX_PLAYERS];
        all[..places.len()].copy_from_slice(places);
        Outcome {
            places: all,
            margin: 0,
        }
    }

    /// The number of seats this outcome ranks.
    pub fn player_count(&self) -> usize {
        self.places.iter().filter(|&&place| place > 0).count()
    }

    /// The sole first-placed seat, or `None` for a shared first place.
    pub fn winner(&self) -> Option<Player> {
        let mut firsts = self
            .places
            .iter()
            .enumerate()
            .filter(|(_, &place)| place == 1);
        match (firsts.next(), firsts.next()) {
            (Some((seat, _)), None) => Some(seat),
            _ => None,
        }
    }

    /// Seat `player`'s place, 1 for first.
    pub fn place(&self, player: Player) -> u8 {
        self.places[player]
    }
}
