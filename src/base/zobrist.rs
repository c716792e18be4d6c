//! Deterministic pseudo-random keys for Zobrist hashing, computed at compile time or on demand.

/// One step of SplitMix64: a well-mixed 64-bit value for every input.
pub const fn mix(value: u64) -> u64 {
    let mut z = value.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The key of item `index` in the key family `family` (each game uses its own family numbers).
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
}
