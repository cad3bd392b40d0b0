//! Outcomes: named metrics, the code that packs one sample's metrics into a
//! single integer, the mergeable counter of codes, and the resulting distribution.
//!
//! A scenario's sample is one `u64` outcome code. Counting codes rather than
//! metrics means one increment per sample however many metrics there are; the
//! codes are split into metrics once, at the end. A [`Layout`] packs metric
//! values into a code in mixed radix; a fast scenario may instead use a code of
//! its own (say, the index of the dice it rolled) and decode it itself.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// What values a metric takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Domain {
    /// `false` (0) or `true` (1).
    Bool,
    /// One of the labels, by index.
    Categories(&'static [&'static str]),
    /// An integer in `min..=max`.
    Integer {
        /// The smallest value.
        min: i64,
        /// The largest value.
        max: i64,
    },
}

impl Domain {
    /// The number of values.
    pub fn size(&self) -> u64 {
        match *self {
            Domain::Bool => 2,
            Domain::Categories(labels) => labels.len() as u64,
            Domain::Integer { min, max } => (max - min + 1) as u64,
        }
    }

    /// The smallest value.
    pub fn min(&self) -> i64 {
        match *self {
            Domain::Integer { min, .. } => min,
            _ => 0,
        }
    }

    /// The value as the CLI prints it: `true`/`false`, a label, or the integer.
    pub fn format(&self, value: i64) -> String {
        match *self {
            Domain::Bool => (value != 0).to_string(),
            Domain::Categories(labels) => {
                labels.get(value as usize).map_or_else(|| value.to_string(), |s| s.to_string())
            }
            Domain::Integer { .. } => value.to_string(),
        }
    }

    /// Whether the metric is numeric (has a meaningful mean).
    pub fn is_numeric(&self) -> bool {
        matches!(self, Domain::Integer { .. } | Domain::Bool)
    }
}

/// One named quantity a scenario reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Metric {
    /// The name scripts use (`winner`, `hits`, ...).
    pub name: &'static str,
    /// One sentence on what it counts.
    pub doc: &'static str,
    /// Its values.
    pub domain: Domain,
}

impl Metric {
    /// An integer metric in `min..=max`.
    pub const fn integer(name: &'static str, doc: &'static str, min: i64, max: i64) -> Metric {
        Metric { name, doc, domain: Domain::Integer { min, max } }
    }

    /// A true/false metric.
    pub const fn boolean(name: &'static str, doc: &'static str) -> Metric {
        Metric { name, doc, domain: Domain::Bool }
    }

    /// A categorical metric.
    pub const fn categories(name: &'static str, doc: &'static str, labels: &'static [&'static str]) -> Metric {
        Metric { name, doc, domain: Domain::Categories(labels) }
    }
}

/// Side labels every two-sided metric uses, in this order.
pub const SIDES: &[&str] = &["attacker", "defender", "tie"];
/// Winner labels of multi-turn scenarios, in this order.
pub const WINNERS: &[&str] = &["attacker", "defender", "none"];

/// Packs one value per metric into a code, in mixed radix (first metric fastest).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    metrics: Vec<Metric>,
    strides: Vec<u64>,
    size: u64,
}

impl Layout {
    /// The layout of these metrics. Panics if the codes would not fit a `u64`,
    /// which is a programming error in the scenario.
    pub fn new(metrics: Vec<Metric>) -> Layout {
        let mut strides = Vec::with_capacity(metrics.len());
        let mut size: u64 = 1;
        for metric in &metrics {
            strides.push(size);
            size = size.checked_mul(metric.domain.size()).expect("outcome codes overflow u64");
        }
        Layout { metrics, strides, size }
    }

    /// The metrics, in order.
    pub fn metrics(&self) -> &[Metric] {
        &self.metrics
    }

    /// The number of distinct codes.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The code of one value per metric, in metric order.
    #[inline]
    pub fn encode(&self, values: &[i64]) -> u64 {
        debug_assert_eq!(values.len(), self.metrics.len());
        let mut code = 0;
        for ((value, metric), stride) in values.iter().zip(&self.metrics).zip(&self.strides) {
            let offset = value - metric.domain.min();
            debug_assert!(
                offset >= 0 && (offset as u64) < metric.domain.size(),
                "metric {} value {value} is outside its domain",
                metric.name
            );
            code += offset as u64 * stride;
        }
        code
    }

    /// The value of metric `index` in a code.
    #[inline]
    pub fn value(&self, code: u64, index: usize) -> i64 {
        let metric = &self.metrics[index];
        ((code / self.strides[index]) % metric.domain.size()) as i64 + metric.domain.min()
    }

    /// `code` with metric `index` set to `value` instead.
    #[inline]
    pub fn with_value(&self, code: u64, index: usize, value: i64) -> u64 {
        let stride = self.strides[index];
        let min = self.metrics[index].domain.min();
        code - (self.value(code, index) - min) as u64 * stride + (value - min) as u64 * stride
    }

    /// The values of a code, in metric order.
    pub fn decode(&self, code: u64, values: &mut [i64]) {
        for ((value, metric), stride) in values.iter_mut().zip(&self.metrics).zip(&self.strides) {
            *value = ((code / stride) % metric.domain.size()) as i64 + metric.domain.min();
        }
    }
}

/// Codes below this many are counted in a flat table; others in a hash map.
pub const DENSE_LIMIT: u64 = 1 << 19;

/// A fixed-memory counter of outcome codes; merging adds counts, so any order of
/// merges gives the same counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    dense: Vec<u64>,
    sparse: HashMap<u64, u64, BuildHasherDefault<CodeHasher>>,
    samples: u64,
}

impl Tally {
    /// A counter for codes below `space` (all codes, when `space` is large,
    /// go to the hash map).
    pub fn new(space: u64) -> Tally {
        let dense = if space <= DENSE_LIMIT { vec![0; space as usize] } else { Vec::new() };
        Tally { dense, sparse: HashMap::default(), samples: 0 }
    }

    /// Counts one sample.
    #[inline(always)]
    pub fn record(&mut self, code: u64) {
        self.samples += 1;
        match self.dense.get_mut(code as usize) {
            Some(count) => *count += 1,
            None => *self.sparse.entry(code).or_insert(0) += 1,
        }
    }

    /// Counts `samples` codes drawn from `next`: the runner's hot loop. The
    /// flat table is borrowed as a slice and the sample count added once, so
    /// the loop body is one draw and one increment.
    #[inline(always)]
    pub fn record_each(&mut self, samples: u64, mut next: impl FnMut() -> u64) {
        self.samples += samples;
        let dense = &mut self.dense[..];
        let sparse = &mut self.sparse;
        for _ in 0..samples {
            let code = next();
            match dense.get_mut(code as usize) {
                Some(count) => *count += 1,
                None => *sparse.entry(code).or_insert(0) += 1,
            }
        }
    }

    /// Adds another tally's counts.
    pub fn merge(&mut self, other: Tally) {
        self.samples += other.samples;
        if self.dense.len() < other.dense.len() {
            self.dense.resize(other.dense.len(), 0);
        }
        for (mine, theirs) in self.dense.iter_mut().zip(&other.dense) {
            *mine += theirs;
        }
        for (code, count) in other.sparse {
            *self.sparse.entry(code).or_insert(0) += count;
        }
    }

    /// The number of samples counted.
    pub fn samples(&self) -> u64 {
        self.samples
    }

    /// (code, count) for every code seen, in code order.
    pub fn counts(&self) -> Vec<(u64, u64)> {
        let mut counts: Vec<(u64, u64)> = self
            .dense
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c > 0)
            .map(|(code, &c)| (code as u64, c))
            .chain(self.sparse.iter().map(|(&code, &c)| (code, c)))
            .collect();
        counts.sort_unstable();
        counts
    }
}

/// A multiplicative hash for outcome codes (Fibonacci hashing); the codes are
/// small integers, not attacker-chosen.
#[derive(Default, Clone, Copy, Debug)]
pub struct CodeHasher(u64);

impl Hasher for CodeHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Eight bytes at a time: derived `Hash` of a state struct (arrays of
        // small integers) arrives here as one slice.
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word) ^ ((chunk.len() as u64) << 59));
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = (self.0 ^ value).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
    }

    fn write_u32(&mut self, value: u32) {
        self.write_u64(u64::from(value));
    }

    fn write_u8(&mut self, value: u8) {
        self.write_u64(u64::from(value));
    }

    fn write_usize(&mut self, value: usize) {
        self.write_u64(value as u64);
    }
}

/// Where a distribution's weights came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Counts of this many Monte Carlo samples.
    MonteCarlo {
        /// The number of samples.
        samples: u64,
    },
    /// Exact probabilities.
    Exact,
}

/// One joint outcome: every metric's value, its count (Monte Carlo) and probability.
#[derive(Clone, Debug, PartialEq)]
pub struct Joint {
    /// One value per metric, in metric order.
    pub values: Vec<i64>,
    /// The number of samples (0 for exact distributions).
    pub count: u64,
    /// The probability (count / samples for Monte Carlo).
    pub probability: f64,
}

/// One value of one metric.
#[derive(Clone, Debug, PartialEq)]
pub struct MarginalRow {
    /// The value.
    pub value: i64,
    /// The number of samples (0 for exact distributions).
    pub count: u64,
    /// The probability.
    pub probability: f64,
}

/// The distribution of a scenario's outcomes, joint over its metrics.
#[derive(Clone, Debug, PartialEq)]
pub struct Distribution {
    /// The metrics, in order.
    pub metrics: Vec<Metric>,
    /// Monte Carlo or exact.
    pub source: Source,
    /// The joint outcomes with nonzero weight, in code order.
    pub joint: Vec<Joint>,
}

impl Distribution {
    /// A Monte Carlo distribution from counted codes.
    pub fn from_tally(metrics: Vec<Metric>, tally: &Tally, decode: impl Fn(u64, &mut [i64])) -> Distribution {
        let samples = tally.samples();
        let joint = tally
            .counts()
            .into_iter()
            .map(|(code, count)| {
                let mut values = vec![0; metrics.len()];
                decode(code, &mut values);
                Joint { values, count, probability: count as f64 / samples.max(1) as f64 }
            })
            .collect();
        Distribution { metrics, source: Source::MonteCarlo { samples }, joint }
    }

    /// An exact distribution from (code, probability) pairs; repeated codes add.
    pub fn from_exact(
        metrics: Vec<Metric>,
        probabilities: impl IntoIterator<Item = (u64, f64)>,
        decode: impl Fn(u64, &mut [i64]),
    ) -> Distribution {
        let mut by_code: Vec<(u64, f64)> = probabilities.into_iter().collect();
        by_code.sort_unstable_by_key(|&(code, _)| code);
        let mut merged: Vec<(u64, f64)> = Vec::with_capacity(by_code.len());
        for (code, p) in by_code {
            match merged.last_mut() {
                Some(last) if last.0 == code => last.1 += p,
                _ => merged.push((code, p)),
            }
        }
        let joint = merged
            .into_iter()
            .filter(|&(_, p)| p > 0.0)
            .map(|(code, probability)| {
                let mut values = vec![0; metrics.len()];
                decode(code, &mut values);
                Joint { values, count: 0, probability }
            })
            .collect();
        Distribution { metrics, source: Source::Exact, joint }
    }

    /// The number of Monte Carlo samples, or `None` for an exact distribution.
    pub fn samples(&self) -> Option<u64> {
        match self.source {
            Source::MonteCarlo { samples } => Some(samples),
            Source::Exact => None,
        }
    }

    /// The index of a metric by name.
    pub fn metric_index(&self, name: &str) -> Option<usize> {
        self.metrics.iter().position(|m| m.name == name)
    }

    /// One metric's distribution, in value order. Every value of a Bool or
    /// categorical metric appears, with zero weight if it never occurred.
    pub fn marginal(&self, metric: usize) -> Vec<MarginalRow> {
        let mut rows: Vec<MarginalRow> = match self.metrics[metric].domain {
            Domain::Bool | Domain::Categories(_) => (0..self.metrics[metric].domain.size() as i64)
                .map(|value| MarginalRow { value, count: 0, probability: 0.0 })
                .collect(),
            Domain::Integer { .. } => Vec::new(),
        };
        for outcome in &self.joint {
            let value = outcome.values[metric];
            match rows.binary_search_by_key(&value, |row| row.value) {
                Ok(i) => {
                    rows[i].count += outcome.count;
                    rows[i].probability += outcome.probability;
                }
                Err(i) => rows.insert(i, MarginalRow { value, count: outcome.count, probability: outcome.probability }),
            }
        }
        rows
    }

    /// The probability that a metric takes a value.
    pub fn probability(&self, metric: &str, value: i64) -> f64 {
        let index = self.metric_index(metric).unwrap_or_else(|| panic!("no metric {metric}"));
        // fold from +0.0: an empty f64 sum is -0.0, which prints as "-0".
        self.joint.iter().filter(|o| o.values[index] == value).fold(0.0, |sum, o| sum + o.probability)
    }

    /// The mean of a numeric metric.
    pub fn mean(&self, metric: &str) -> f64 {
        let index = self.metric_index(metric).unwrap_or_else(|| panic!("no metric {metric}"));
        self.joint.iter().map(|o| o.values[index] as f64 * o.probability).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const METRICS: [Metric; 3] = [
        Metric::boolean("passed", "whether it passed"),
        Metric::integer("hits", "hits", -1, 5),
        Metric::categories("side", "who", SIDES),
    ];

    #[test]
    fn layout_round_trips_every_code() {
        let layout = Layout::new(METRICS.to_vec());
        assert_eq!(layout.size(), 2 * 7 * 3);
        let mut values = [0; 3];
        for code in 0..layout.size() {
            layout.decode(code, &mut values);
            assert_eq!(layout.encode(&values), code);
        }
        assert_eq!(layout.encode(&[1, -1, 2]), 1 + 2 * 7 * 2);
    }

    #[test]
    fn sparse_and_dense_tallies_agree() {
        let mut dense = Tally::new(100);
        let mut sparse = Tally::new(u64::MAX);
        for code in [3, 5, 3, 99, 0] {
            dense.record(code);
            sparse.record(code);
        }
        assert_eq!(dense.counts(), sparse.counts());
        assert_eq!(dense.counts(), vec![(0, 1), (3, 2), (5, 1), (99, 1)]);
        let mut codes = [3u64, 5, 3, 99, 0].into_iter();
        let mut each = Tally::new(100);
        each.record_each(5, || codes.next().unwrap());
        assert_eq!(each, dense);
    }

    #[test]
    fn marginals_list_every_category() {
        let layout = Layout::new(METRICS.to_vec());
        let mut tally = Tally::new(layout.size());
        tally.record(layout.encode(&[1, 2, 0]));
        tally.record(layout.encode(&[1, 4, 0]));
        let dist = Distribution::from_tally(METRICS.to_vec(), &tally, |c, v| layout.decode(c, v));
        let side = dist.marginal(2);
        assert_eq!(side.len(), 3);
        assert_eq!(side[0].count, 2);
        assert_eq!(side[2].count, 0);
        assert_eq!(dist.mean("hits"), 3.0);
        assert_eq!(dist.probability("passed", 1), 1.0);
        assert!(dist.probability("passed", 0).is_sign_positive(), "never-seen values are +0, not -0");
    }
}
