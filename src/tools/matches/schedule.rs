//! The games of a match: which opening each plays and who sits where.
//!
//! Games go in blocks of one per seat rotation: with P seats, games `P·b .. P·b + P - 1` play the
//! `b`-th opening with the seating rotated by 0 to P-1 places, so that every engine plays the
//! opening from every seat (colours swapped, in two-player games). The seating before rotation
//! repeats the engines in order (`A B A` for two engines in three seats).

use super::referee::Scheduled;
use crate::tools::positions::Start;
use rand::seq::SliceRandom;
use rand::SeedableRng;

/// The openings in the order the match plays them: as read, or shuffled with `seed`.
pub fn opening_order(count: usize, shuffle: bool, seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..count).collect();
    if shuffle {
        let mut random = rand::rngs::SmallRng::seed_from_u64(seed);
        order.shuffle(&mut random);
    }
    order
}

/// Every game of the match: `games` games (numbered from 1) for `engines` engines in `seats`
/// seats, with the openings in `order` (cycled; none when `openings` is empty).
pub fn schedule(
    games: usize,
    seats: usize,
    engines: usize,
    openings: &[Start],
    order: &[usize],
) -> Vec<Scheduled> {
    let base: Vec<usize> = (0..seats).map(|seat| seat % engines.max(1)).collect();
    (0..games)
        .map(|game| {
            let (block, rotation) = (game / seats, game % seats);
            let opening = (!openings.is_empty()).then(|| {
                let index = order[block % order.len()];
                (index + 1, openings[index].clone())
            });
            Scheduled {
                number: game + 1,
                opening,
                seats: (0..seats)
                    .map(|seat| base[(seat + rotation) % seats])
                    .collect(),
            }
        })
        .collect()
}

/// The pair a game belongs to for pentanomial statistics: two-player games `2b` and `2b + 1`
/// share an opening with the colours swapped.
pub fn pair_of(number: usize) -> usize {
    (number - 1) / 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_players_swap_colours_on_each_opening() {
        let openings = vec![
            Start::Moves(vec!["f5".into()]),
            Start::Moves(vec!["e6".into()]),
        ];
        let games = schedule(5, 2, 2, &openings, &[0, 1]);
        let seats: Vec<&[usize]> = games.iter().map(|game| game.seats.as_slice()).collect();
        assert_eq!(seats, [&[0, 1][..], &[1, 0], &[0, 1], &[1, 0], &[0, 1]]);
        let numbers: Vec<usize> = games
            .iter()
            .map(|game| game.opening.as_ref().unwrap().0)
            .collect();
        assert_eq!(numbers, [1, 1, 2, 2, 1]);
        assert_eq!(pair_of(1), pair_of(2));
        assert_ne!(pair_of(2), pair_of(3));
    }

    #[test]
    fn three_seats_rotate_two_engines() {
        let games = schedule(3, 3, 2, &[], &[]);
        let seats: Vec<&[usize]> = games.iter().map(|game| game.seats.as_slice()).collect();
        assert_eq!(seats, [&[0, 1, 0][..], &[1, 0, 0], &[0, 0, 1]]);
        assert!(games.iter().all(|game| game.opening.is_none()));
    }

    #[test]
    fn shuffled_openings_are_a_permutation() {
        let mut order = opening_order(10, true, 7);
        assert_eq!(order, opening_order(10, true, 7));
        order.sort();
        assert_eq!(order, (0..10).collect::<Vec<_>>());
        assert_eq!(opening_order(3, false, 7), [0, 1, 2]);
    }
}
