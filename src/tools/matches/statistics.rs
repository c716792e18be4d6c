//! Match statistics: the Elo difference with its 95% interval, the likelihood of superiority,
//! pentanomial statistics of game pairs, and the sequential probability ratio test.
//!
//! The formulas are the usual ones of engine testing (cutechess-cli, fishtest, fastchess):
//! * Elo of a score `s`: `-400 log10(1/s - 1)` (the logistic model).
//! * Interval: the mean score plus or minus 1.96 standard errors, each end mapped to Elo. The
//!   per-game variance is `Σ p_i (x_i - s)²` over the results `x_i` (1, ½, 0); with pentanomial
//!   statistics the unit is a pair of games and `x_i` is half the pair's points.
//! * LOS: `½ (1 + erf((W - L) / √(2 (W + L))))`.
//! * SPRT, logistic model (default): the generalised SPRT (Michel Van den Bergh's, as fishtest
//!   runs it). Under each hypothesis the outcome distribution is the maximum-likelihood one
//!   whose mean score is that hypothesis's expected score `s = 1/(1 + 10^(-elo/400))`:
//!   `q_i = p_i / (1 + λ (x_i - s))` with `λ` solving `Σ p_i (x_i - s) / (1 + λ (x_i - s)) = 0`,
//!   where `p_i` are the observed shares of the results `x_i` (games: 0, ½, 1; pairs: 0, ¼, ½,
//!   ¾, 1). `LLR = Σ_i n_i ln(q1_i / q0_i)`. Counts of 0 are raised to 0.001 so that the
//!   distribution is defined from the first game; a sweep of `n` wins then gives
//!   `n ln(s1/s0)`, and with wins and losses only the LLR is `W ln(s1/s0) + L ln((1-s1)/(1-s0))`.
//! * SPRT, BayesElo model (`model=bayeselo`, cutechess-cli's): the draw Elo is estimated from the
//!   sample, `elo0` and `elo1` are divided by the draw-rate scale `4x/(1+x)²`
//!   (`x = 10^(-drawElo/400)`) and the LLR sums `W ln(pw1/pw0) + D ln(pd1/pd0) + L ln(pl1/pl0)`;
//!   it needs at least one win, one draw and one loss.
//! * Wald's bounds: accept H0 below `ln(β/(1-α))`, H1 above `ln((1-β)/α)`.

/// The normal quantile of 97.5%: a two-sided 95% interval is ±1.96 standard errors.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Elo difference that gives an expected score `score` (±infinity at 1 and 0).
pub fn elo_of_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The expected score of an Elo difference.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo estimate with its 95% interval; the ends may be infinite.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    /// The estimate.
    pub elo: f64,
    /// The lower end.
    pub low: f64,
    /// The upper end.
    pub high: f64,
}

impl Interval {
    /// Half the interval's width, the "±" figure (infinite when an end is).
    pub fn margin(&self) -> f64 {
        (self.high - self.low) / 2.0
    }

    /// `+35.2 +/- 20.1 (95% interval +15.1 .. +55.3)`; without the `+/-` part when an end is
    /// infinite.
    pub fn text(&self) -> String {
        if self.elo.is_infinite() {
            return format_elo(self.elo);
        }
        let interval = format!(
            "(95% interval {} .. {})",
            format_elo(self.low),
            format_elo(self.high)
        );
        if self.low.is_infinite() || self.high.is_infinite() {
            format!("{} {interval}", format_elo(self.elo))
        } else {
            format!(
                "{} +/- {:.1} {interval}",
                format_elo(self.elo),
                self.margin()
            )
        }
    }

    /// The interval around a mean score with a per-unit variance over `units` units.
    fn of_mean(mean: f64, variance: f64, units: f64) -> Interval {
        let error = Z95 * (variance / units).sqrt();
        Interval {
            elo: elo_of_score(mean),
            low: elo_of_score(mean - error),
            high: elo_of_score(mean + error),
        }
    }
}

/// Wins, draws and losses of one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Trinomial {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Trinomial {
    /// Adds one game's points (1, ½ or 0).
    pub fn add(&mut self, points: f64) {
        if points > 0.75 {
            self.wins += 1;
        } else if points < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// The number of games.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The mean score per game, 0 to 1.
    pub fn score(&self) -> f64 {
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games().max(1) as f64
    }

    /// The share of draws.
    pub fn draw_ratio(&self) -> f64 {
        self.draws as f64 / self.games().max(1) as f64
    }

    /// The variance of one game's points.
    pub fn variance(&self) -> f64 {
        let games = self.games().max(1) as f64;
        let mean = self.score();
        (self.wins as f64 * (1.0 - mean).powi(2)
            + self.draws as f64 * (0.5 - mean).powi(2)
            + self.losses as f64 * mean.powi(2))
            / games
    }

    /// The Elo difference with its 95% interval; `None` before any game.
    pub fn elo(&self) -> Option<Interval> {
        (self.games() > 0)
            .then(|| Interval::of_mean(self.score(), self.variance(), self.games() as f64))
    }

    /// The likelihood of superiority: the probability that the side is the stronger, from its
    /// wins and losses (draws say nothing).
    pub fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + libm::erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt()))
    }

    /// The same games seen from the other side.
    pub fn reversed(&self) -> Trinomial {
        Trinomial {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }
}

/// Game pairs (one opening, colours swapped) counted by the pair's points: 0, ½, 1, 1½, 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pairs with 0, ½, 1, 1½ and 2 points.
    pub counts: [u32; 5],
}

impl Pentanomial {
    /// Adds a pair with `points` (0 to 2 in halves).
    pub fn add(&mut self, points: f64) {
        let index = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.counts[index] += 1;
    }

    /// The number of pairs.
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// The mean score per game over the pairs, 0 to 1.
    pub fn score(&self) -> f64 {
        let points: f64 = self
            .counts
            .iter()
            .enumerate()
            .map(|(index, &count)| count as f64 * index as f64 / 4.0)
            .sum();
        points / self.pairs().max(1) as f64
    }

    /// The variance of a pair's mean score.
    pub fn variance(&self) -> f64 {
        let mean = self.score();
        let sum: f64 = self
            .counts
            .iter()
            .enumerate()
            .map(|(index, &count)| count as f64 * (index as f64 / 4.0 - mean).powi(2))
            .sum();
        sum / self.pairs().max(1) as f64
    }

    /// The Elo difference with its 95% interval from the pairs; `None` before any pair.
    pub fn elo(&self) -> Option<Interval> {
        (self.pairs() > 0)
            .then(|| Interval::of_mean(self.score(), self.variance(), self.pairs() as f64))
    }
}

/// How the SPRT turns Elo into result probabilities.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtModel {
    /// Logistic Elo, the generalised SPRT (fishtest, fastchess); pentanomial with game pairs.
    Logistic,
    /// cutechess-cli's BayesElo model with the draw Elo estimated from the sample.
    BayesElo,
}

/// A sequential probability ratio test of H0: `elo = elo0` against H1: `elo = elo1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The Elo of H0.
    pub elo0: f64,
    /// The Elo of H1.
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
    /// The Elo model.
    pub model: SprtModel,
}

/// What the SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Neither bound is crossed.
    Continue,
    /// The LLR fell below the lower bound.
    AcceptH0,
    /// The LLR rose above the upper bound.
    AcceptH1,
}

/// The state of the SPRT.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtStatus {
    /// The log-likelihood ratio.
    pub llr: f64,
    /// Wald's lower bound.
    pub lower: f64,
    /// Wald's upper bound.
    pub upper: f64,
    /// The decision.
    pub decision: SprtDecision,
}

impl Sprt {
    /// Wald's bounds `(ln(β/(1-α)), ln((1-β)/α))`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The test on the games so far: pentanomial when `pairs` has any pair and the model is
    /// logistic, trinomial otherwise.
    pub fn status(&self, games: &Trinomial, pairs: &Pentanomial) -> SprtStatus {
        let llr = match self.model {
            SprtModel::Logistic if pairs.pairs() > 0 => {
                gsprt_llr(&pairs.counts, &PAIR_RESULTS, self.elo0, self.elo1)
            }
            SprtModel::Logistic => gsprt_llr(
                &[games.losses, games.draws, games.wins],
                &GAME_RESULTS,
                self.elo0,
                self.elo1,
            ),
            SprtModel::BayesElo => bayeselo_llr(games, self.elo0, self.elo1).unwrap_or(0.0),
        };
        let (lower, upper) = self.bounds();
        let decision = if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        };
        SprtStatus {
            llr,
            lower,
            upper,
            decision,
        }
    }
}

/// Counts below this are raised to it in the generalised SPRT.
pub const REGULARIZATION: f64 = 1e-3;

/// The `λ` of the maximum-likelihood distribution with mean `mean` (see the module notes), by
/// bisection: the equation's left side falls as `λ` grows.
fn lagrange_multiplier(shares: &[f64], results: &[f64], mean: f64) -> f64 {
    let highest = results.iter().copied().fold(f64::MIN, f64::max);
    let lowest = results.iter().copied().fold(f64::MAX, f64::min);
    let (mut low, mut high) = (-1.0 / (highest - mean), -1.0 / (lowest - mean));
    let width = high - low;
    low += width * 1e-12;
    high -= width * 1e-12;
    let slope = |lambda: f64| -> f64 {
        shares
            .iter()
            .zip(results)
            .map(|(share, result)| share * (result - mean) / (1.0 + lambda * (result - mean)))
            .sum()
    };
    for _ in 0..200 {
        let middle = (low + high) / 2.0;
        if slope(middle) > 0.0 {
            low = middle;
        } else {
            high = middle;
        }
    }
    (low + high) / 2.0
}

/// The generalised SPRT's LLR of `elo1` against `elo0` for `counts[i]` results worth
/// `results[i]` (0 to 1), regularised as the module notes say. 0 before any result.
pub fn gsprt_llr(counts: &[u32], results: &[f64], elo0: f64, elo1: f64) -> f64 {
    if counts.iter().sum::<u32>() == 0 {
        return 0.0;
    }
    let counts: Vec<f64> = counts
        .iter()
        .map(|&count| (count as f64).max(REGULARIZATION))
        .collect();
    let total: f64 = counts.iter().sum();
    let shares: Vec<f64> = counts.iter().map(|count| count / total).collect();
    let (s0, s1) = (score_of_elo(elo0), score_of_elo(elo1));
    let (lambda0, lambda1) = (
        lagrange_multiplier(&shares, results, s0),
        lagrange_multiplier(&shares, results, s1),
    );
    counts
        .iter()
        .zip(results)
        .map(|(count, result)| {
            count * ((1.0 + lambda0 * (result - s0)).ln() - (1.0 + lambda1 * (result - s1)).ln())
        })
        .sum()
}

/// The results a game can have, for [`gsprt_llr`] with [`Trinomial`] counts (losses first).
pub const GAME_RESULTS: [f64; 3] = [0.0, 0.5, 1.0];
/// The results of a pair of games per game, for [`gsprt_llr`] with [`Pentanomial`] counts.
pub const PAIR_RESULTS: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Win, loss and draw probabilities of a BayesElo difference `elo` with draw Elo `draw_elo`.
fn bayeselo_probabilities(elo: f64, draw_elo: f64) -> (f64, f64, f64) {
    let win = 1.0 / (1.0 + 10f64.powf((draw_elo - elo) / 400.0));
    let loss = 1.0 / (1.0 + 10f64.powf((draw_elo + elo) / 400.0));
    (win, loss, 1.0 - win - loss)
}

/// cutechess-cli's LLR under the BayesElo model; `None` until there are wins, losses and draws.
pub fn bayeselo_llr(games: &Trinomial, elo0: f64, elo1: f64) -> Option<f64> {
    if games.wins == 0 || games.losses == 0 || games.draws == 0 {
        return None;
    }
    let count = games.games() as f64;
    let (win, loss) = (games.wins as f64 / count, games.losses as f64 / count);
    let draw_elo = 200.0 * ((1.0 - loss) / loss * (1.0 - win) / win).log10();
    let x = 10f64.powf(-draw_elo / 400.0);
    let scale = 4.0 * x / ((1.0 + x) * (1.0 + x));
    let (w0, l0, d0) = bayeselo_probabilities(elo0 / scale, draw_elo);
    let (w1, l1, d1) = bayeselo_probabilities(elo1 / scale, draw_elo);
    Some(
        games.wins as f64 * (w1 / w0).ln()
            + games.losses as f64 * (l1 / l0).ln()
            + games.draws as f64 * (d1 / d0).ln(),
    )
}

/// The one-sided 97.5% lower bound on the score after winning every one of `games` games
/// (exact binomial): the score `p` with `p^games = 0.025`.
pub fn sweep_bound(games: u32) -> f64 {
    0.025f64.powf(1.0 / games.max(1) as f64)
}

/// An Elo figure as text: `+35.2`, `+inf`, `-inf`.
pub fn format_elo(elo: f64) -> String {
    if elo.is_infinite() {
        if elo > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        format!("{:+.1}", elo + 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn elo_of_known_scores() {
        assert_eq!(elo_of_score(0.5), 0.0);
        // 0.75: -400 log10(1/3) = 400 log10 3 = 190.849
        assert!(close(elo_of_score(0.75), 190.849, 1e-3));
        assert!(close(elo_of_score(0.25), -190.849, 1e-3));
        assert!(close(score_of_elo(190.849), 0.75, 1e-6));
        assert_eq!(elo_of_score(1.0), f64::INFINITY);
        assert_eq!(elo_of_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn interval_of_a_hand_computed_match() {
        // 6 wins, 2 draws, 2 losses: s = 0.7, per-game variance
        // (6·0.3² + 2·0.2² + 2·0.7²)/10 = (0.54 + 0.08 + 0.98)/10 = 0.16, standard error
        // √(0.16/10) = 0.126491; s ± 1.96·SE = 0.452077 .. 0.947923.
        let games = Trinomial {
            wins: 6,
            draws: 2,
            losses: 2,
        };
        assert!(close(games.score(), 0.7, 1e-12));
        assert!(close(games.variance(), 0.16, 1e-12));
        let elo = games.elo().unwrap();
        assert!(close(elo.elo, 147.19, 0.01), "{elo:?}"); // 400 log10(7/3)
        assert!(close(
            elo.low,
            -400.0 * (1.0 / 0.452077f64 - 1.0).log10(),
            0.05
        ));
        assert!(close(
            elo.high,
            -400.0 * (1.0 / 0.947923f64 - 1.0).log10(),
            0.05
        ));
        assert!(close(elo.low, -33.40, 0.01), "{elo:?}");
        assert!(close(elo.high, 504.03, 0.01), "{elo:?}");
        assert_eq!(games.draw_ratio(), 0.2);
    }

    #[test]
    fn interval_matches_cutechess_error_margin() {
        // cutechess-cli's "Elo difference: X +/- Y": Y = (diff(mu + 1.96σ) - diff(mu - 1.96σ))/2
        // with σ = √(Σ p_i (x_i - mu)²)/√n. 30 wins, 40 draws, 30 losses: mu = 0.5,
        // σ = √(0.3·0.25·2)/10 = 0.0387298; ends 0.424090 and 0.575910: ±53.2 Elo.
        let games = Trinomial {
            wins: 30,
            draws: 40,
            losses: 30,
        };
        let elo = games.elo().unwrap();
        assert!(close(elo.elo, 0.0, 1e-9));
        assert!(close(elo.margin(), 53.2, 0.1), "{elo:?}");
        assert!(close(elo.low, -elo.high, 1e-9));
    }

    #[test]
    fn los_by_hand() {
        // 10 wins, 5 losses: ½(1 + erf(5/√30)) = ½(1 + erf(0.912871)) = ½(1 + 0.803294) = 0.901647
        let games = Trinomial {
            wins: 10,
            draws: 7,
            losses: 5,
        };
        assert!(close(games.los(), 0.901647, 1e-5), "{}", games.los());
        assert_eq!(Trinomial::default().los(), 0.5);
        let even = Trinomial {
            wins: 4,
            draws: 0,
            losses: 4,
        };
        assert!(close(even.los(), 0.5, 1e-12));
        assert!(close(games.reversed().los(), 1.0 - 0.901647, 1e-5));
    }

    #[test]
    fn pentanomial_by_hand() {
        // Pairs: one with 0 points, two with 1, three with 1½, two with 2 (8 pairs).
        // Mean per game: (0 + 2·0.5 + 3·0.75 + 2·1)/8 = 5.25/8 = 0.65625.
        let mut pairs = Pentanomial::default();
        for points in [0.0, 1.0, 1.0, 1.5, 1.5, 1.5, 2.0, 2.0] {
            pairs.add(points);
        }
        assert_eq!(pairs.counts, [1, 0, 2, 3, 2]);
        assert!(close(pairs.score(), 0.65625, 1e-12));
        // Variance: (0.65625² + 2·0.15625² + 3·0.09375² + 2·0.34375²)/8 = 0.7421875/8 = 0.0927734375
        assert!(close(pairs.variance(), 0.092_773_437_5, 1e-12));
        let elo = pairs.elo().unwrap();
        let error = Z95 * (0.092_773_437_5f64 / 8.0).sqrt();
        assert!(close(elo.low, elo_of_score(0.65625 - error), 1e-9));
        assert!(close(elo.high, elo_of_score(0.65625 + error), 1e-9));
    }

    #[test]
    fn wald_bounds() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Logistic,
        };
        let (lower, upper) = sprt.bounds();
        // ln(0.05/0.95) = -2.944439, ln(0.95/0.05) = 2.944439
        assert!(close(lower, -2.944439, 1e-6));
        assert!(close(upper, 2.944439, 1e-6));
    }

    #[test]
    fn gsprt_by_hand() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 20.0,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Logistic,
        };
        // Wins and losses only: the distributions are fixed by their means, q(win) = s.
        // s1 = 1/(1 + 10^(-20/400)) = 0.528751; 30 wins, 10 losses:
        // LLR = 30 ln(0.528751/0.5) + 10 ln(0.471249/0.5) = 1.677265 - 0.592209 = 1.085055
        let games = Trinomial {
            wins: 30,
            draws: 0,
            losses: 10,
        };
        let status = sprt.status(&games, &Pentanomial::default());
        assert!(close(status.llr, 1.085055, 1e-3), "{status:?}");
        assert_eq!(status.decision, SprtDecision::Continue);
        // A sweep of n wins: LLR = n ln(s1/s0) = n · 0.055909, so 53 wins accept H1
        // (52 · 0.055909 = 2.9073 < 2.944439 < 2.9632).
        let sweep = |wins| Trinomial {
            wins,
            draws: 0,
            losses: 0,
        };
        let status = sprt.status(&sweep(52), &Pentanomial::default());
        assert!(close(status.llr, 52.0 * 0.055909, 1e-3), "{status:?}");
        assert_eq!(status.decision, SprtDecision::Continue);
        assert_eq!(
            sprt.status(&sweep(53), &Pentanomial::default()).decision,
            SprtDecision::AcceptH1
        );
        // And a sweep of losses accepts H0 sooner: ln((1-s1)/(1-s0)) = -0.059221 per loss.
        assert_eq!(
            sprt.status(&sweep(50).reversed(), &Pentanomial::default())
                .decision,
            SprtDecision::AcceptH0
        );
    }

    #[test]
    fn gsprt_with_draws_and_pairs() {
        // 60 wins, 20 draws, 20 losses, elo 0 against 10. The value 1.38982 was computed
        // independently (Python, bisection on λ); the normal approximation
        // N (s1 - s0)(2s - s0 - s1)/(2σ²) = 100 · 0.014387 · 0.385613/0.32 = 1.7337 is near.
        let games = Trinomial {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        let llr = gsprt_llr(&[20, 20, 60], &GAME_RESULTS, 0.0, 10.0);
        assert!(close(llr, 1.38982, 1e-4), "{llr}");
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Logistic,
        };
        assert_eq!(sprt.status(&games, &Pentanomial::default()).llr, llr);
        // With pairs, the pentanomial counts are used: [1, 0, 2, 3, 2] pairs, elo 0 against
        // 10 (independently: 0.130180).
        let mut pairs = Pentanomial::default();
        for points in [0.0, 1.0, 1.0, 1.5, 1.5, 1.5, 2.0, 2.0] {
            pairs.add(points);
        }
        let status = sprt.status(&games, &pairs);
        assert!(close(status.llr, 0.130180, 1e-4), "{status:?}");
        // Equal results say nothing either way.
        assert!(close(
            gsprt_llr(&[5, 0, 5], &GAME_RESULTS, -5.0, 5.0),
            0.0,
            1e-9
        ));
        assert_eq!(gsprt_llr(&[0, 0, 0], &GAME_RESULTS, 0.0, 5.0), 0.0);
    }

    #[test]
    fn bayeselo_llr_matches_cutechess_by_hand() {
        // cutechess-cli: W = 60, L = 20, D = 20. pW = 0.6, pL = 0.2;
        // drawElo = 200 log10(0.8/0.2 · 0.4/0.6) = 85.194; x = 10^(-85.194/400) = 0.612372,
        // scale = 4x/(1+x)² = 0.942204; elo1 → 10/0.942204 = 10.6134 BayesElo.
        // H0: pw = pl = 1/(1 + 10^(85.194/400)) = 0.379796, pd = 0.240408;
        // H1: pw = 1/(1 + 10^((85.194 - 10.6134)/400)) = 0.394289,
        //     pl = 1/(1 + 10^((85.194 + 10.6134)/400)) = 0.365514, pd = 0.240197.
        // LLR = 60 ln(0.394289/0.379796) + 20 ln(0.365514/0.379796) + 20 ln(0.240197/0.240408)
        //     = 2.24699 - 0.76659 - 0.01756 = 1.4628
        let games = Trinomial {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        let llr = bayeselo_llr(&games, 0.0, 10.0).unwrap();
        assert!(close(llr, 1.4628, 1e-3), "{llr}");
        let no_draws = Trinomial {
            wins: 5,
            draws: 0,
            losses: 3,
        };
        assert_eq!(bayeselo_llr(&no_draws, 0.0, 10.0), None);
    }

    #[test]
    fn a_sweep_has_a_bound_only() {
        let games = Trinomial {
            wins: 20,
            draws: 0,
            losses: 0,
        };
        let elo = games.elo().unwrap();
        assert_eq!(elo.elo, f64::INFINITY);
        // 0.025^(1/20) = 0.831973: at least +277 Elo.
        assert!(close(elo_of_score(sweep_bound(20)), 277.0, 1.0));
        assert_eq!(format_elo(elo.elo), "+inf");
        assert_eq!(elo.text(), "+inf");
        let even = Interval {
            elo: 0.0,
            low: -53.2,
            high: 53.2,
        };
        assert_eq!(even.text(), "+0.0 +/- 53.2 (95% interval -53.2 .. +53.2)");
        assert_eq!(format_elo(-0.0), "+0.0");
    }
}
