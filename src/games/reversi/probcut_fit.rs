//! The calibrated lines of the Reversi ProbCut model: their form, and the buckets of empties
//! they are calibrated per. The generated [`super::probcut_table`] holds the values.

/// Empties are bucketed in runs of this many...
pub const BUCKET_WIDTH: u32 = 10;
/// ...from this many empties (fewer count as the first bucket)...
pub const FIRST_BUCKET_EMPTIES: u32 = 10;
/// ...into this many buckets (more count as the last).
pub const BUCKETS: usize = 5;
/// One calibrated line: slope in thousandths, intercept and sigma in evaluation points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fit {
    /// Deep value per thousand points of shallow value.
    pub slope_thousandths: i32,
    /// Deep value at a shallow value of 0, in evaluation points.
    pub intercept: i32,
    /// Standard deviation of the deep value around the line, in evaluation points.
    pub sigma: i32,
}

/// A calibrated line (for the generated table).
pub const fn fit(slope_thousandths: i32, intercept: i32, sigma: i32) -> Fit {
    Fit {
        slope_thousandths,
        intercept,
        sigma,
    }
}

/// A pair that was not calibrated.
pub const NONE: Fit = fit(0, 0, 0);

/// The bucket of a position with `empties` empty squares.
pub fn bucket(empties: u32) -> usize {
    let last = FIRST_BUCKET_EMPTIES + BUCKET_WIDTH * BUCKETS as u32 - 1;
    ((empties.clamp(FIRST_BUCKET_EMPTIES, last) - FIRST_BUCKET_EMPTIES) / BUCKET_WIDTH) as usize
}
