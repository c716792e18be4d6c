//! The 121-hole star in cube coordinates, written from the rule text alone. Shared by the naive
//! rules model (`tests/rules/chinese_checkers.rs`) and the game follower of the protocol tests
//! (`tests/frontends/protocol_chinese_checkers.rs`); neither uses the engine's own geometry.

/// Cube coordinates `(q, r, s)` with `q + r + s = 0`.
pub type Cube = (i32, i32, i32);

/// The holes in hole order (hole number = index + 1): the union of two triangles of side 13,
/// in rows along `r` from the top, left to right (growing `q`) within a row.
pub fn holes() -> Vec<Cube> {
    let mut holes = Vec::new();
    for q in -8..=8 {
        for r in -8..=8 {
            let s = -q - r;
            let pointing_down = q >= -4 && r >= -4 && s >= -4;
            let pointing_up = q <= 4 && r <= 4 && s <= 4;
            if pointing_down || pointing_up {
                holes.push((q, r, s));
            }
        }
    }
    holes.sort_by_key(|&(q, r, _)| (r, q));
    let lengths: Vec<usize> = (-8..=8)
        .map(|r| holes.iter().filter(|hole| hole.1 == r).count())
        .collect();
    assert_eq!(
        lengths,
        [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1]
    );
    holes
}

/// The camp of a hole, 1..=6 clockwise from the top (the six star points beyond the hexagon
/// `|q|, |r|, |s| <= 4`), or 0 for the centre.
pub fn camp((q, r, s): Cube) -> usize {
    match () {
        _ if r < -4 => 1,
        _ if q > 4 => 2,
        _ if s < -4 => 3,
        _ if r > 4 => 4,
        _ if q < -4 => 5,
        _ if s > 4 => 6,
        _ => 0,
    }
}
