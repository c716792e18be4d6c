//! The Reversi ProbCut model ([`crate::game::ProbCut`]): which shallow depth probes a search of a
//! given depth, and the line that predicts the deep value from the shallow one, per bucket of
//! empties. The lines are calibrated by `scripts/train/calibrate-reversi-probcut.sh` on the evaluation in
//! use and compiled in from [`super::probcut_table`].

use super::probcut_fit::{bucket, NONE};
use super::probcut_table::{DEEPEST, FITS};
use crate::game::ProbCut;

/// ProbCut applies to searches at least this deep.
const SHALLOWEST_CUT: u32 = 3;

/// The depth that probes a search `depth` deep: about half of it, of the same parity.
pub fn shallow_depth(depth: u32) -> u32 {
    2 * (depth / 4) + (depth & 1)
}

/// The model for a search `depth` plies deep from a position with `empties` empties. Beyond the
/// calibrated depths, the line of the deepest calibrated pair of the same parity and the same
/// distance between the depths stands in, as far as it reaches (to depth 21).
pub fn model(empties: u32, depth: u32) -> Option<ProbCut> {
    if depth < SHALLOWEST_CUT {
        return None;
    }
    let shallow = shallow_depth(depth);
    let gap = (depth - shallow) as usize;
    let mut deep = depth as usize;
    if deep > DEEPEST {
        deep = DEEPEST - (DEEPEST + deep) % 2;
    }
    let line = FITS[deep][deep.checked_sub(gap)?][bucket(empties)];
    if line == NONE || line.slope_thousandths <= 0 {
        return None;
    }
    Some(ProbCut {
        shallow_depth: shallow,
        slope: line.slope_thousandths as f64 / 1000.0,
        intercept: line.intercept as f64,
        sigma: line.sigma as f64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::reversi::probcut_fit::BUCKETS;

    #[test]
    fn buckets_cover_every_empties_count() {
        assert_eq!(bucket(0), 0);
        assert_eq!(bucket(19), 0);
        assert_eq!(bucket(20), 1);
        assert_eq!(bucket(59), BUCKETS - 1);
        assert_eq!(bucket(60), BUCKETS - 1);
    }

    #[test]
    fn the_shallow_depth_is_below_the_deep_one_with_its_parity() {
        for depth in SHALLOWEST_CUT..60 {
            let shallow = shallow_depth(depth);
            assert!(shallow < depth);
            assert_eq!(shallow % 2, depth % 2);
        }
    }

    #[test]
    fn every_depth_from_the_shallowest_cut_has_a_model() {
        for depth in SHALLOWEST_CUT..=21 {
            for empties in 12..=60 {
                let model = model(empties, depth).expect("a model");
                assert!(model.shallow_depth < depth);
                assert!(model.slope > 0.5 && model.slope < 1.5, "{model:?}");
                assert!(model.sigma > 0.0, "{model:?}");
            }
        }
    }
}
