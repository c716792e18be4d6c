//! Deterministic pseudo-random keys for Zobrist hashing, computed at compile time or on demand.

/// The key families. Every user of Zobrist keys draws from a family of its own, so that no two
/// hash keys coincide by construction; the numbers only need to be distinct.
pub mod family {
    /// 8x8 Reversi: discs and the side to move.
    pub const REVERSI: u64 = 1;
    /// Reversi on the other board sizes.
    pub const GENERAL_REVERSI: u64 = 2;
    /// Gomoku: stones and the side to move.
    pub const GOMOKU: u64 = 3;
    /// Chinese Checkers: pieces, the side to move, finishing places and turn counters.
    pub const CHINESE_CHECKERS: u64 = 4;
    /// The Reversi endgame solver's salt, which keeps its entries apart from the search's.
    pub const REVERSI_SOLVER: u64 = 5;
    /// The Gomoku proof search's salt per board size and rule.
    pub const GOMOKU_PROOF: u64 = 31;
    /// The root player of a best-reply search, mixed into every hash of that search.
    pub const BEST_REPLY_ROOT: u64 = 98;
    /// The root player of a paranoid multi-player search.
    pub const PARANOID_ROOT: u64 = 99;
}

/// One step of SplitMix64: a well-mixed 64-bit value for every input.
pub const fn mix(value: u64) -> u64 {
    let mut z = value.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The key of item `index` in the key family `family` (see [`family`]).
pub const fn key(family: u64, index: u64) -> u64 {
    mix(mix(family.wrapping_mul(0x1000_0000_01B3)) ^ index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn keys_are_distinct() {
        let keys: HashSet<u64> = (0..4)
            .flat_map(|f| (0..2000).map(move |i| key(f, i)))
            .collect();
        assert_eq!(keys.len(), 8000);
    }

    #[test]
    fn families_are_distinct() {
        let families = [
            family::REVERSI,
            family::GENERAL_REVERSI,
            family::GOMOKU,
            family::CHINESE_CHECKERS,
            family::REVERSI_SOLVER,
            family::GOMOKU_PROOF,
            family::BEST_REPLY_ROOT,
            family::PARANOID_ROOT,
        ];
        let distinct: HashSet<u64> = families.iter().copied().collect();
        assert_eq!(distinct.len(), families.len());
    }
}
