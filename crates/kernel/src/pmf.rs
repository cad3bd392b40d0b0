//! Exact distributions of small integer random variables: dice and what is made of them.
//!
//! A [`Pmf`] holds probabilities over a contiguous range of integers. Sums come
//! from convolution, "at least k" from tail sums, independent pairs from
//! [`Pmf::combine`]. Everything is `f64`; dice arithmetic of the sizes we use
//! stays accurate to well under 1e-12, which the tests check against integer
//! enumeration.

/// A probability mass function over the integers `min..min + probs.len()`.
#[derive(Clone, Debug, PartialEq)]
pub struct Pmf {
    min: i64,
    probs: Vec<f64>,
}

impl Pmf {
    /// A certain value.
    pub fn point(value: i64) -> Pmf {
        Pmf { min: value, probs: vec![1.0] }
    }

    /// One fair die: 1..=sides, each 1/sides.
    pub fn die(sides: u32) -> Pmf {
        assert!(sides > 0, "a die needs at least one side");
        Pmf { min: 1, probs: vec![1.0 / f64::from(sides); sides as usize] }
    }

    /// The sum of `count` fair dice of `sides` faces.
    pub fn dice(count: u32, sides: u32) -> Pmf {
        Pmf::die(sides).sum_of(count)
    }

    /// A Bernoulli trial: 1 with probability `p`, else 0.
    pub fn bernoulli(p: f64) -> Pmf {
        Pmf { min: 0, probs: vec![1.0 - p, p] }
    }

    /// The number of successes in `trials` independent trials of chance `p`.
    pub fn binomial(trials: u32, p: f64) -> Pmf {
        Pmf::bernoulli(p).sum_of(trials)
    }

    /// From (value, weight) pairs; weights need not be normalised, and a value
    /// may appear more than once (its weights add).
    pub fn from_weights(pairs: impl IntoIterator<Item = (i64, f64)>) -> Pmf {
        let pairs: Vec<(i64, f64)> = pairs.into_iter().collect();
        assert!(!pairs.is_empty(), "a distribution needs at least one value");
        let min = pairs.iter().map(|p| p.0).min().unwrap_or(0);
        let max = pairs.iter().map(|p| p.0).max().unwrap_or(0);
        let mut probs = vec![0.0; (max - min + 1) as usize];
        let mut total = 0.0;
        for (value, weight) in pairs {
            assert!(weight >= 0.0, "weights cannot be negative");
            probs[(value - min) as usize] += weight;
            total += weight;
        }
        assert!(total > 0.0, "weights must not all be zero");
        probs.iter_mut().for_each(|p| *p /= total);
        Pmf { min, probs }.trimmed()
    }

    /// The smallest value with a stored probability.
    pub fn min(&self) -> i64 {
        self.min
    }

    /// The largest value with a stored probability.
    pub fn max(&self) -> i64 {
        self.min + self.probs.len() as i64 - 1
    }

    /// P(X = value).
    pub fn p(&self, value: i64) -> f64 {
        if value < self.min {
            return 0.0;
        }
        self.probs.get((value - self.min) as usize).copied().unwrap_or(0.0)
    }

    /// P(X >= value).
    pub fn at_least(&self, value: i64) -> f64 {
        self.iter().filter(|&(v, _)| v >= value).map(|(_, p)| p).sum()
    }

    /// P(X <= value).
    pub fn at_most(&self, value: i64) -> f64 {
        self.iter().filter(|&(v, _)| v <= value).map(|(_, p)| p).sum()
    }

    /// (value, probability) for every value in the support range, zeros included.
    pub fn iter(&self) -> impl Iterator<Item = (i64, f64)> + '_ {
        self.probs.iter().enumerate().map(move |(i, &p)| (self.min + i as i64, p))
    }

    /// The expectation.
    pub fn mean(&self) -> f64 {
        self.iter().map(|(v, p)| v as f64 * p).sum()
    }

    /// The variance.
    pub fn variance(&self) -> f64 {
        let mean = self.mean();
        self.iter().map(|(v, p)| (v as f64 - mean).powi(2) * p).sum()
    }

    /// The sum of all probabilities (1 up to rounding).
    pub fn total(&self) -> f64 {
        self.probs.iter().sum()
    }

    /// The distribution of X + Y for independent X (self) and Y.
    pub fn convolve(&self, other: &Pmf) -> Pmf {
        let mut probs = vec![0.0; self.probs.len() + other.probs.len() - 1];
        for (i, &a) in self.probs.iter().enumerate() {
            if a == 0.0 {
                continue;
            }
            for (j, &b) in other.probs.iter().enumerate() {
                probs[i + j] += a * b;
            }
        }
        Pmf { min: self.min + other.min, probs }
    }

    /// The sum of `count` independent copies (0 copies is the point 0).
    pub fn sum_of(&self, count: u32) -> Pmf {
        let mut result = Pmf::point(0);
        let mut power = self.clone();
        let mut remaining = count;
        while remaining > 0 {
            if remaining & 1 == 1 {
                result = result.convolve(&power);
            }
            remaining >>= 1;
            if remaining > 0 {
                power = power.convolve(&power);
            }
        }
        result
    }

    /// The distribution of f(X).
    pub fn map(&self, f: impl Fn(i64) -> i64) -> Pmf {
        Pmf::from_weights(self.iter().filter(|&(_, p)| p > 0.0).map(|(v, p)| (f(v), p)))
    }

    /// The distribution of f(X, Y) for independent X (self) and Y.
    pub fn combine(&self, other: &Pmf, f: impl Fn(i64, i64) -> i64) -> Pmf {
        Pmf::from_weights(self.joint(other).map(|(a, b, p)| (f(a, b), p)))
    }

    /// The joint outcomes of independent X (self) and Y: (x, y, probability),
    /// zero-probability pairs left out.
    pub fn joint<'a>(&'a self, other: &'a Pmf) -> impl Iterator<Item = (i64, i64, f64)> + 'a {
        self.iter()
            .filter(|&(_, p)| p > 0.0)
            .flat_map(move |(a, pa)| other.iter().filter(|&(_, p)| p > 0.0).map(move |(b, pb)| (a, b, pa * pb)))
    }

    /// A mixture: with probability `w_i` draw from `pmf_i` (weights normalised).
    pub fn mixture(parts: &[(f64, Pmf)]) -> Pmf {
        Pmf::from_weights(parts.iter().flat_map(|(w, pmf)| pmf.iter().map(move |(v, p)| (v, w * p))))
    }

    fn trimmed(mut self) -> Pmf {
        let first = self.probs.iter().position(|&p| p > 0.0).unwrap_or(0);
        let last = self.probs.iter().rposition(|&p| p > 0.0).unwrap_or(0);
        self.probs = self.probs[first..=last].to_vec();
        self.min += first as i64;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts of each total of `count` dice, by brute-force enumeration in integers.
    fn enumerate(count: u32, sides: u32) -> Vec<(i64, u64)> {
        let mut counts = std::collections::BTreeMap::new();
        let outcomes = u64::from(sides).pow(count);
        for index in 0..outcomes {
            let mut rest = index;
            let mut total = 0;
            for _ in 0..count {
                total += (rest % u64::from(sides)) as i64 + 1;
                rest /= u64::from(sides);
            }
            *counts.entry(total).or_insert(0u64) += 1;
        }
        counts.into_iter().collect()
    }

    #[test]
    fn two_d6_seven_is_six_in_thirty_six() {
        assert!((Pmf::dice(2, 6).p(7) - 6.0 / 36.0).abs() < 1e-15);
        assert!((Pmf::dice(2, 6).p(2) - 1.0 / 36.0).abs() < 1e-15);
        assert_eq!(Pmf::dice(2, 6).p(13), 0.0);
    }

    #[test]
    fn three_d20_at_least_31_matches_enumeration() {
        // By hand: a -> 21 - a maps a sum s to 63 - s, so #(s >= 31) = #(s <= 32).
        // With a' = a - 1 in 0..=19, that is #(a' + b' + c' <= 29): C(32, 3) = 4960
        // by stars and bars, less 3 * C(12, 3) = 660 where one a' >= 20 (two
        // cannot): 4300 of 8000. Integer enumeration confirms it independently.
        let favourable: u64 = enumerate(3, 20).into_iter().filter(|&(t, _)| t >= 31).map(|(_, c)| c).sum();
        assert_eq!(favourable, 4300);
        let exact = Pmf::dice(3, 20).at_least(31);
        assert!((exact - 4300.0 / 8000.0).abs() < 1e-14, "{exact}");
    }

    #[test]
    fn sums_agree_with_enumeration_to_1e12() {
        for (count, sides) in [(1, 4), (3, 6), (4, 6), (2, 10), (3, 20), (5, 8)] {
            let pmf = Pmf::dice(count, sides);
            let total = f64::from(sides).powi(count as i32);
            for (value, ways) in enumerate(count, sides) {
                assert!((pmf.p(value) - ways as f64 / total).abs() < 1e-12, "{count}d{sides} = {value}");
            }
            assert!((pmf.total() - 1.0).abs() < 1e-12);
        }
    }

    #[test]
    fn binomial_matches_the_formula() {
        // P(2 of 3 dice hit on 3+) = 3 * (2/3)^2 * (1/3) = 4/9.
        assert!((Pmf::binomial(3, 2.0 / 3.0).p(2) - 4.0 / 9.0).abs() < 1e-15);
    }

    #[test]
    fn map_and_combine() {
        let d6 = Pmf::die(6);
        let halves = d6.map(|v| v / 2);
        assert!((halves.p(0) - 1.0 / 6.0).abs() < 1e-15);
        assert!((halves.p(3) - 1.0 / 6.0).abs() < 1e-15);
        let larger = d6.combine(&d6, i64::max);
        assert!((larger.p(6) - 11.0 / 36.0).abs() < 1e-15);
        assert!((d6.mean() - 3.5).abs() < 1e-15);
        assert!((d6.variance() - 35.0 / 12.0).abs() < 1e-14);
        let mix = Pmf::mixture(&[(0.5, Pmf::point(0)), (0.5, Pmf::point(2))]);
        assert_eq!(mix.p(1), 0.0);
        assert!((mix.p(2) - 0.5).abs() < 1e-15);
    }
}
