//! Balance analytics: the quality ladder, rule
//! sensitivity, sweeps and convergence, each a plain result with a frame.
//!
//! Every analysis runs an [`Experiment`]: one scenario of one ruleset, its
//! rules, the keys held fixed, and how to run. Every point of an analysis uses
//! the same seed. The points then share their dice (common random numbers), so
//! differences between points come from the rules and keys, not from luck; a
//! bisection sees a smoother curve and a sensitivity sees smaller noise.

use crate::AnalysisError;
use crate::charts::format_value;
use crate::frame::Run;
use crate::stats::{DEFAULT_CONFIDENCE, mean_with_standard_error, wilson, z_for_confidence};
use polars::prelude::*;
use volley_kernel::catalogue::{RulesetEntry, ScenarioEntry};
use volley_kernel::game::{Policy, PolicyUse};
use volley_kernel::outcome::{Distribution, Domain, Metric};
use volley_kernel::params::{ParamKind, RuleBook, Value};
use volley_kernel::runner::RunOptions;
use volley_kernel::scenario::DynScenario;

/// The key of the attacker's quality in two-sided scenarios.
pub const ATTACKER_QUALITY: &str = "attacker.quality";
/// The key of the defender's quality in two-sided scenarios.
pub const DEFENDER_QUALITY: &str = "defender.quality";

/// Where an experiment solves a point exactly rather than sampling it: one
/// setting, not two switches, so that no combination means nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solving {
    /// At every point, where the scenario has an exact solver (a
    /// playsheet's numbers to print, `--exact`); sampled only where it has
    /// none.
    Always,
    /// Where the point's exact answer is quick
    /// ([`DynScenario::exact_is_cheap`]), sampling the others: the default
    /// of specs and commands that do not ask to sample.
    WhereQuick,
    /// Nowhere: every point sampled (`--samples`, `--precision`).
    Never,
}

impl Solving {
    /// What a request's `exact` asks: `true` always, `false` never, unsaid
    /// where quick.
    pub fn asked(exact: Option<bool>) -> Solving {
        match exact {
            Some(true) => Solving::Always,
            Some(false) => Solving::Never,
            None => Solving::WhereQuick,
        }
    }

    /// Whether `scenario` is solved exactly under this setting (where it
    /// has an exact solver at all).
    pub fn solves(self, scenario: &dyn DynScenario) -> bool {
        match self {
            Solving::Always => true,
            Solving::WhereQuick => scenario.exact_is_cheap(),
            Solving::Never => false,
        }
    }
}

/// One scenario of one ruleset under given rules, with keys held fixed and
/// how to run it.
#[derive(Clone, Debug)]
pub struct Experiment {
    /// The ruleset's name, for frames and titles.
    pub ruleset: String,
    /// The scenario.
    pub scenario: ScenarioEntry,
    /// The rules it is built under.
    pub rules: Box<dyn RuleBook>,
    /// Keys every run sets, as `key=value` texts.
    pub fixed: Vec<(String, String)>,
    /// Samples per point, seed (shared by every point), threads, progress and cancel.
    pub options: RunOptions,
    /// The confidence level of every interval.
    pub confidence: f64,
    /// Where each point is solved exactly rather than sampled.
    pub solving: Solving,
    /// The interval half-width a run in rounds aimed for, if it did (for
    /// the record of how the result was made; the rounds are the caller's).
    pub precision: Option<f64>,
}

impl Experiment {
    /// A scenario of a catalogue ruleset by name, at the ruleset's printed rules.
    pub fn new(ruleset: &RulesetEntry, scenario: &str, options: RunOptions) -> Result<Experiment, AnalysisError> {
        let entry = ruleset.scenario(scenario)?;
        Ok(Experiment::from_parts(ruleset.name, entry, (ruleset.default_rules)(), options))
    }

    /// A scenario entry under given rules (for rule books loaded from a file,
    /// or scenarios outside the catalogue).
    pub fn from_parts(
        ruleset: &str,
        scenario: &ScenarioEntry,
        rules: Box<dyn RuleBook>,
        options: RunOptions,
    ) -> Experiment {
        Experiment {
            ruleset: ruleset.to_string(),
            scenario: scenario.clone(),
            rules,
            fixed: Vec::new(),
            options,
            confidence: DEFAULT_CONFIDENCE,
            solving: Solving::Never,
            precision: None,
        }
    }

    /// The same, solving exactly where `solving` says.
    pub fn with_solving(mut self, solving: Solving) -> Self {
        self.solving = solving;
        self
    }

    /// The same, recording the precision its samples were chosen for.
    pub fn with_precision(mut self, precision: Option<f64>) -> Self {
        self.precision = precision;
        self
    }

    /// The same, with these keys set in every run.
    pub fn with_fixed<K: Into<String>, V: Into<String>>(mut self, pairs: impl IntoIterator<Item = (K, V)>) -> Self {
        self.fixed.extend(pairs.into_iter().map(|(k, v)| (k.into(), v.into())));
        self
    }

    /// The same, under other rules.
    pub fn with_rules(mut self, rules: Box<dyn RuleBook>) -> Self {
        self.rules = rules;
        self
    }

    /// The same, with intervals at another confidence level.
    pub fn with_confidence(mut self, confidence: f64) -> Self {
        self.confidence = confidence;
        self
    }

    /// The same, with another number of samples per point.
    pub fn with_samples(mut self, samples: u64) -> Self {
        self.options.samples = samples;
        self
    }

    /// Builds the scenario under `rules` with the fixed keys, then `extra`
    /// (which wins where both set a key).
    pub fn build(
        &self,
        rules: &dyn RuleBook,
        extra: &[(String, String)],
    ) -> Result<Box<dyn DynScenario>, AnalysisError> {
        let pairs = self.fixed.iter().chain(extra).map(|(k, v)| (k.as_str(), v.as_str()));
        Ok(self.scenario.build_from_text(rules, pairs)?)
    }

    /// A run with the fixed keys and `extra` (exact where [`Experiment::exact`]
    /// asks and the scenario can, else Monte Carlo); the run's keys are `extra`.
    pub fn run(&self, extra: &[(String, String)]) -> Result<Run, AnalysisError> {
        self.run_under(self.rules.as_ref(), extra, self.options.samples)
    }

    /// [`Experiment::run`] with no extra keys, and the exact law where the
    /// scenario has one, from one build of the scenario: a game solved for
    /// the sampler's best play is not solved again for its law.
    pub fn run_and_exact(&self) -> Result<(Run, Option<Distribution>), AnalysisError> {
        let scenario = self.build(self.rules.as_ref(), &[])?;
        let run = self.run_built(scenario.as_ref(), &[], self.options.samples, false)?;
        let exact = scenario.exact_distribution();
        Ok((run, exact))
    }

    /// A run under other rules and sample count (exact as [`Experiment::run`]).
    pub fn run_under(
        &self,
        rules: &dyn RuleBook,
        extra: &[(String, String)],
        samples: u64,
    ) -> Result<Run, AnalysisError> {
        self.run_solving(rules, extra, samples, false)
    }

    /// [`Experiment::run_under`], taking the exact law also wherever a side
    /// plays `best` and `solved` is set: sampling best play follows the
    /// solver's table, so the game is solved either way and its exact law
    /// costs little more. A sensitivity study's runs take it (hundreds of
    /// runs, none compared with the sampler); a report that sets Monte Carlo
    /// beside the exact solver keeps sampling.
    fn run_solving(
        &self,
        rules: &dyn RuleBook,
        extra: &[(String, String)],
        samples: u64,
        solved: bool,
    ) -> Result<Run, AnalysisError> {
        let scenario = self.build(rules, extra)?;
        self.run_built(scenario.as_ref(), extra, samples, solved)
    }

    /// [`Experiment::run_solving`] of a scenario already built.
    fn run_built(
        &self,
        scenario: &dyn DynScenario,
        extra: &[(String, String)],
        samples: u64,
        solved: bool,
    ) -> Result<Run, AnalysisError> {
        let solved_anyway =
            solved && scenario.policies().is_some_and(|uses| uses.iter().any(|used| used.played == Policy::Best));
        let wanted = solved_anyway || self.solving.solves(scenario);
        let exact = if wanted && scenario.has_exact() { scenario.exact_distribution() } else { None };
        let distribution = match exact {
            Some(distribution) => distribution,
            None => {
                let mut options = self.options.clone();
                options.samples = samples;
                scenario.simulate(&options)?
            }
        };
        Ok(Run {
            ruleset: self.ruleset.clone(),
            scenario: self.scenario.name.to_string(),
            keys: extra.to_vec(),
            distribution,
            // After the run: a game solved for it keeps its table, so this
            // solves nothing again.
            policies: scenario.policies(),
            unread: scenario.unread_keys(),
        })
    }

    /// The metrics the scenario reports with the fixed keys.
    pub fn metrics(&self) -> Result<Vec<Metric>, AnalysisError> {
        Ok(self.build(self.rules.as_ref(), &[])?.metrics())
    }

    /// The integer range of a scenario key.
    pub fn integer_key_range(&self, key: &str) -> Result<(i64, i64), AnalysisError> {
        match self.scenario.params.iter().find(|p| p.name == key).map(|p| &p.kind) {
            Some(ParamKind::Int { min, max }) => Ok((*min, *max)),
            Some(other) => Err(AnalysisError::Invalid(format!("key `{key}` is {}, not an integer", other.describe()))),
            None => Err(self.unknown_key(key)),
        }
    }

    /// The names a choice key accepts.
    pub fn choices(&self, key: &str) -> Result<Vec<String>, AnalysisError> {
        match self.scenario.params.iter().find(|p| p.name == key).map(|p| &p.kind) {
            Some(ParamKind::Choice(names)) => Ok(names.iter().map(|n| n.to_string()).collect()),
            Some(other) => Err(AnalysisError::Invalid(format!("key `{key}` is {}, not a choice", other.describe()))),
            None => Err(self.unknown_key(key)),
        }
    }

    fn unknown_key(&self, key: &str) -> AnalysisError {
        let valid: Vec<&str> = self.scenario.params.iter().map(|p| p.name.as_str()).collect();
        AnalysisError::Invalid(format!(
            "scenario `{}` of `{}` has no key `{key}` (valid keys: {})",
            self.scenario.name,
            self.ruleset,
            valid.join(", ")
        ))
    }
}

/// What an analysis measures of each run: the probability of one value of a
/// metric, or a numeric metric's mean.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Measure {
    /// The probability that `metric` takes `value` (as the CLI prints it).
    Probability {
        /// The metric.
        metric: String,
        /// Its value: `true`/`false`, a label, or an integer.
        value: String,
    },
    /// The mean of a numeric metric.
    Mean {
        /// The metric.
        metric: String,
    },
    /// The probability that an integer metric is at least `value` (the
    /// chance of at least 3 hits), written `metric>=value`.
    AtLeast {
        /// The metric.
        metric: String,
        /// The least value counted.
        value: i64,
    },
}

impl Measure {
    /// The probability that `metric` takes `value`.
    pub fn probability(metric: impl Into<String>, value: impl Into<String>) -> Measure {
        Measure::Probability { metric: metric.into(), value: value.into() }
    }

    /// The mean of `metric`.
    pub fn mean(metric: impl Into<String>) -> Measure {
        Measure::Mean { metric: metric.into() }
    }

    /// The probability that `metric` is at least `value`.
    pub fn at_least(metric: impl Into<String>, value: i64) -> Measure {
        Measure::AtLeast { metric: metric.into(), value }
    }

    /// The attacker's win: `winner = attacker` in multi-turn scenarios, or
    /// `result = attacker` in single rounds; `None` if there is neither metric.
    pub fn attacker_wins(metrics: &[Metric]) -> Option<Measure> {
        ["winner", "result"]
            .into_iter()
            .find(|name| metrics.iter().any(|m| m.name == *name))
            .map(|name| Measure::probability(name, "attacker"))
    }

    /// The metric it reads.
    pub fn metric(&self) -> &str {
        match self {
            Measure::Probability { metric, .. } | Measure::Mean { metric } | Measure::AtLeast { metric, .. } => metric,
        }
    }

    /// Whether it is a probability (so 0 to 1, and 0.5 means even odds).
    pub fn is_probability(&self) -> bool {
        matches!(self, Measure::Probability { .. } | Measure::AtLeast { .. })
    }

    /// A short label: `P(winner = attacker)` or `mean of hits`.
    pub fn label(&self) -> String {
        match self {
            Measure::Probability { metric, value } => format!("P({metric} = {value})"),
            Measure::Mean { metric } => format!("mean of {metric}"),
            Measure::AtLeast { metric, value } => format!("P({metric} >= {value})"),
        }
    }

    /// The measure in a designer's words, for findings: "the attacker's
    /// chance of winning", "the chance of passing", "the mean hits".
    pub fn plain(&self) -> String {
        match self {
            Measure::Probability { metric, value } => match (metric.as_str(), value.as_str()) {
                ("winner" | "result", "attacker") => "the attacker's chance of winning".into(),
                ("winner" | "result", "defender") => "the defender's chance of winning".into(),
                ("winner", "none") => "the chance that nobody wins".into(),
                ("result", "tie") => "the chance of a tie".into(),
                ("passed", "true") => "the chance of passing".into(),
                ("arrived", "true") => "the chance of getting across".into(),
                ("completed", "true") => "the chance of getting every order through".into(),
                ("hit", "true") => "the chance of a hit".into(),
                ("retreats", "true") => "the chance the target retreats".into(),
                (metric, value) => format!("the chance that {} is {value}", metric.replace('_', " ")),
            },
            Measure::Mean { metric } => format!("the mean {}", metric.replace('_', " ")),
            Measure::AtLeast { metric, value } => {
                // "at least 1 hit", "at least 3 hits": a plural metric's name
                // is singular after 1.
                let name = metric.replace('_', " ");
                let name = if *value == 1 { name.strip_suffix('s').map_or(name.clone(), str::to_string) } else { name };
                format!("the chance of at least {value} {name}")
            }
        }
    }

    /// Its estimate from a distribution, with an interval at `confidence`:
    /// Wilson for probabilities, the normal interval of the mean otherwise. An
    /// exact distribution's interval is the value itself.
    pub fn estimate(&self, dist: &Distribution, confidence: f64) -> Result<Estimate, AnalysisError> {
        let (index, code) = self.check(&dist.metrics)?;
        let metric = dist.metrics[index];
        let samples = dist.samples();
        match self {
            Measure::Probability { .. } => {
                let code = code.expect("a probability's value was checked");
                let row = dist.marginal(index).into_iter().find(|r| r.value == code);
                let (count, probability) = row.map_or((0, 0.0), |r| (r.count, r.probability));
                Ok(Estimate::of_share(count, probability, samples, confidence))
            }
            Measure::AtLeast { value, .. } => {
                let rows = dist.marginal(index).into_iter().filter(|r| r.value >= *value);
                let (count, probability) =
                    rows.fold((0u64, 0.0), |(count, probability), r| (count + r.count, probability + r.probability));
                Ok(Estimate::of_share(count, probability.min(1.0), samples, confidence))
            }
            Measure::Mean { .. } => {
                let (mean, standard_error) = mean_with_standard_error(dist, metric.name);
                let half = z_for_confidence(confidence) * standard_error;
                Ok(Estimate { value: mean, ci_low: mean - half, ci_high: mean + half, standard_error, samples })
            }
        }
    }
}

impl Measure {
    /// Whether a scenario with these metrics can be measured so: the metric's
    /// index and, for a probability, the code of its value. A spec is checked
    /// with this before anything runs.
    pub fn check(&self, metrics: &[Metric]) -> Result<(usize, Option<i64>), AnalysisError> {
        let index = metrics.iter().position(|m| m.name == self.metric()).ok_or_else(|| {
            let valid: Vec<&str> = metrics.iter().map(|m| m.name).collect();
            AnalysisError::Invalid(format!("no metric `{}` (valid metrics: {})", self.metric(), valid.join(", ")))
        })?;
        let metric = &metrics[index];
        match self {
            Measure::Probability { value, .. } => {
                let code = value_code(metric, value).ok_or_else(|| {
                    AnalysisError::Invalid(format!(
                        "metric `{}` has no value `{value}` (it takes {})",
                        metric.name,
                        describe_domain(&metric.domain)
                    ))
                })?;
                Ok((index, Some(code)))
            }
            Measure::Mean { .. } if !metric.domain.is_numeric() => Err(AnalysisError::Invalid(format!(
                "metric `{}` is categorical and has no mean; measure the probability of one of its values",
                metric.name
            ))),
            Measure::Mean { .. } => Ok((index, None)),
            // A metric's range can grow with the settings a sweep moves
            // (more figures, more hits), so a count past this range is
            // allowed: where it cannot happen its chance is 0.
            Measure::AtLeast { value, .. } => match metric.domain {
                Domain::Integer { min, .. } if *value > min => Ok((index, None)),
                Domain::Integer { min, .. } => Err(AnalysisError::Invalid(format!(
                    "metric `{}` is never below {min}, so at least {value} is certain; ask for more than {min}",
                    metric.name
                ))),
                _ => Err(AnalysisError::Invalid(format!(
                    "metric `{}` is not a count; `>=` needs an integer metric such as hits",
                    metric.name
                ))),
            },
        }
    }
}

/// The integer a metric's printed value stands for, if it is one of its values.
pub fn value_code(metric: &Metric, text: &str) -> Option<i64> {
    match metric.domain {
        Domain::Bool => match text {
            "true" => Some(1),
            "false" => Some(0),
            _ => None,
        },
        Domain::Categories(labels) => labels.iter().position(|l| *l == text).map(|i| i as i64),
        Domain::Integer { min, max } => text.parse().ok().filter(|v| (min..=max).contains(v)),
    }
}

fn describe_domain(domain: &Domain) -> String {
    match domain {
        Domain::Bool => "true or false".to_string(),
        Domain::Categories(labels) => labels.join(", "),
        Domain::Integer { min, max } => format!("integers {min} to {max}"),
    }
}

/// An estimate with its interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The estimate.
    pub value: f64,
    /// The interval's lower end.
    pub ci_low: f64,
    /// The interval's upper end.
    pub ci_high: f64,
    /// Its standard error (0 when exact).
    pub standard_error: f64,
    /// The samples behind it, or `None` when exact.
    pub samples: Option<u64>,
}

impl Estimate {
    /// An exact value.
    pub fn exact(value: f64) -> Estimate {
        Estimate { value, ci_low: value, ci_high: value, standard_error: 0.0, samples: None }
    }

    /// The estimate of a share: `count` of `samples` with its Wilson
    /// interval at `confidence` (one division of the count, free of the
    /// rounding noise a sum of joint probabilities carries), or, where the
    /// law is exact, `probability` itself.
    pub fn of_share(count: u64, probability: f64, samples: Option<u64>, confidence: f64) -> Estimate {
        match samples {
            Some(n) => {
                let share = count as f64 / n.max(1) as f64;
                let (ci_low, ci_high) = wilson(count, n, confidence);
                let standard_error = (share * (1.0 - share) / n.max(1) as f64).sqrt();
                Estimate { value: share, ci_low, ci_high, standard_error, samples }
            }
            None => Estimate::exact(probability),
        }
    }
}

fn pair(key: &str, value: impl ToString) -> (String, String) {
    (key.to_string(), value.to_string())
}

/// Builds a frame from named columns of equal length.
pub(crate) fn frame_of(columns: Vec<Column>) -> PolarsResult<DataFrame> {
    DataFrame::new_infer_height(columns)
}

/// The win-probability matrix over every pair of qualities.
#[derive(Clone, Debug)]
pub struct Ladder {
    /// What each cell measures (the attacker's win, by default).
    pub measure: Measure,
    /// The qualities, best first as the scenario lists them; rows are the
    /// attacker's, columns the defender's.
    pub qualities: Vec<String>,
    /// `cells[attacker][defender]`.
    pub cells: Vec<Vec<Estimate>>,
    /// Every run, keyed by both qualities.
    pub runs: Vec<Run>,
}

/// The quality ladder of a two-sided scenario: every attacker quality against
/// every defender quality (or those given), measured by `measure` or, when
/// `None`, the attacker's win.
pub fn quality_ladder(
    experiment: &Experiment,
    qualities: Option<&[String]>,
    measure: Option<Measure>,
) -> Result<Ladder, AnalysisError> {
    let all = experiment.choices(ATTACKER_QUALITY)?;
    experiment.choices(DEFENDER_QUALITY)?;
    let qualities: Vec<String> = match qualities {
        Some(given) => given.to_vec(),
        None => all,
    };
    let measure = match measure {
        Some(m) => m,
        None => Measure::attacker_wins(&experiment.metrics()?).ok_or_else(|| {
            AnalysisError::Invalid(format!(
                "scenario `{}` has neither a `winner` nor a `result` metric; name the measure",
                experiment.scenario.name
            ))
        })?,
    };
    // Each cell is its own run from the experiment's seed: made side by side
    // (a sampled cell short of one chunk runs on one core), they give the
    // same numbers as one after another.
    let n = qualities.len();
    let outcomes = side_by_side(n * n, experiment.options.threads, |k| {
        experiment.run(&[pair(ATTACKER_QUALITY, &qualities[k / n]), pair(DEFENDER_QUALITY, &qualities[k % n])])
    });
    let mut cells = Vec::with_capacity(n);
    let mut runs = Vec::with_capacity(n * n);
    for (k, outcome) in outcomes.into_iter().enumerate() {
        let run = outcome?;
        if k % n == 0 {
            cells.push(Vec::with_capacity(n));
        }
        cells.last_mut().expect("a row").push(measure.estimate(&run.distribution, experiment.confidence)?);
        runs.push(run);
    }
    Ok(Ladder { measure, qualities, cells, runs })
}

impl Ladder {
    /// One row per (attacker, defender): the estimate and its interval.
    pub fn frame(&self) -> PolarsResult<DataFrame> {
        let mut attacker = Vec::new();
        let mut defender = Vec::new();
        let mut estimates = Vec::new();
        for (a, row) in self.qualities.iter().zip(&self.cells) {
            for (d, estimate) in self.qualities.iter().zip(row) {
                attacker.push(a.clone());
                defender.push(d.clone());
                estimates.push(*estimate);
            }
        }
        let mut columns =
            vec![Column::new(ATTACKER_QUALITY.into(), attacker), Column::new(DEFENDER_QUALITY.into(), defender)];
        columns.extend(estimate_columns(&self.measure, &estimates));
        frame_of(columns)
    }
}

/// The columns `measure`, `estimate`, `ci_low`, `ci_high`, `samples` of some estimates.
fn estimate_columns(measure: &Measure, estimates: &[Estimate]) -> Vec<Column> {
    vec![
        Column::new("measure".into(), vec![measure.label(); estimates.len()]),
        Column::new("estimate".into(), estimates.iter().map(|e| e.value).collect::<Vec<_>>()),
        Column::new("ci_low".into(), estimates.iter().map(|e| e.ci_low).collect::<Vec<_>>()),
        Column::new("ci_high".into(), estimates.iter().map(|e| e.ci_high).collect::<Vec<_>>()),
        Column::new("samples".into(), estimates.iter().map(|e| e.samples).collect::<Vec<_>>()),
    ]
}

/// Text with its first letter in capitals, to open a sentence.
pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// One step of one rule field, and what it did to the measure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Change {
    /// The field's value in this run.
    pub value: i64,
    /// The measure there.
    pub estimate: Estimate,
    /// The measure less the baseline.
    pub change: f64,
    /// The change's interval (normal, from both standard errors).
    pub ci_low: f64,
    /// The change's interval's upper end.
    pub ci_high: f64,
}

/// One integer rule field moved a step each way.
#[derive(Clone, Debug, PartialEq)]
pub struct SensitivityRow {
    /// The field's name.
    pub field: String,
    /// Its document (the rules' section).
    pub doc: String,
    /// Its value in the baseline rules.
    pub baseline: i64,
    /// One less, if it is in range and builds.
    pub down: Option<Change>,
    /// One more, if it is in range and builds.
    pub up: Option<Change>,
}

impl SensitivityRow {
    /// The larger size of its two changes: what the ranking sorts by.
    pub fn largest_change(&self) -> f64 {
        [self.down, self.up].iter().flatten().map(|c| c.change.abs()).fold(0.0, f64::max)
    }
}

/// A step or reading of a rule field that was not run, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The field.
    pub field: String,
    /// The value it would have had.
    pub value: String,
    /// Why not: out of the field's range, or the scenario rejects it.
    pub reason: String,
}

/// One other reading of an interpretation, or an optional rule switched,
/// and what it did to the measure.
#[derive(Clone, Debug, PartialEq)]
pub struct Alternative {
    /// The field's name.
    pub field: String,
    /// Its document (the interpretation and its readings, or the optional rule).
    pub doc: String,
    /// Its value in the baseline rules.
    pub baseline: String,
    /// The value in this run.
    pub value: String,
    /// The measure there.
    pub estimate: Estimate,
    /// The measure less the baseline.
    pub change: f64,
    /// The change's interval (normal, from both standard errors).
    pub ci_low: f64,
    /// The change's interval's upper end.
    pub ci_high: f64,
}

/// How much each printed number moves a measure.
#[derive(Clone, Debug)]
pub struct Sensitivity {
    /// What was measured.
    pub measure: Measure,
    /// The measure under the baseline rules.
    pub baseline: Estimate,
    /// Every integer field with at least one step run, largest change first.
    pub rows: Vec<SensitivityRow>,
    /// Every other value of every choice (interpretation) and switch
    /// (optional rule) field that builds, largest change first.
    pub alternatives: Vec<Alternative>,
    /// The steps not run.
    pub skipped: Vec<Skipped>,
    /// How many of the steps run change a rule field the scenario does not
    /// read at its settings
    /// ([`reads_rule`](volley_kernel::scenario::DynScenario::reads_rule)): each is the
    /// baseline's run, to the bit, without being solved or sampled again.
    pub unread: usize,
    /// Every run: the baseline (keys `rule` = `baseline`) and each step or
    /// reading (keys `rule` = field, `rule_value` = value).
    pub runs: Vec<Run>,
    /// The top field's step run again from other starting distances, where
    /// the scenario has one: does the rule matter in play, or only because
    /// of where this fight happens to start?
    pub start_check: Option<StartCheck>,
}

/// The largest step of the top-ranked rule field measured again from
/// neighbouring starting distances.
#[derive(Clone, Debug, PartialEq)]
pub struct StartCheck {
    /// The field.
    pub field: String,
    /// The value it was stepped to.
    pub value: i64,
    /// The start key (`distance`, `range`).
    pub key: String,
    /// The start the analysis used.
    pub start: i64,
    /// The change the step made from that start.
    pub change: f64,
    /// (another start, the change the same step makes from there).
    pub elsewhere: Vec<(i64, f64)>,
}

/// The names of the keys that fix where a multi-turn fight starts.
pub const START_KEYS: [&str; 2] = ["distance", "range"];

impl StartCheck {
    /// Whether the step matters mostly because of the fixed start: from every
    /// neighbouring start it moves the measure less than half as much.
    pub fn start_driven(&self) -> bool {
        !self.elsewhere.is_empty() && self.elsewhere.iter().all(|(_, c)| c.abs() < self.change.abs() / 2.0)
    }
}

/// Reruns the top row's larger step from the starts one below and one above
/// the experiment's (within the key's range), measuring the change each time.
fn start_check(
    experiment: &Experiment,
    measure: &Measure,
    top: &SensitivityRow,
) -> Result<Option<StartCheck>, AnalysisError> {
    let Some(param) = experiment
        .scenario
        .params
        .iter()
        .find(|p| START_KEYS.contains(&p.name.as_str()) && matches!(p.kind, ParamKind::Int { .. }))
    else {
        return Ok(None);
    };
    let ParamKind::Int { min, max } = param.kind else {
        return Ok(None);
    };
    let start = match experiment.fixed.iter().rev().find(|(k, _)| *k == param.name) {
        Some((_, v)) => v.parse().unwrap_or(0),
        None => match param.default {
            Value::Int(v) => v,
            _ => return Ok(None),
        },
    };
    let step = [top.down, top.up].into_iter().flatten().max_by(|a, b| a.change.abs().total_cmp(&b.change.abs()));
    let Some(step) = step else {
        return Ok(None);
    };
    let mut stepped = experiment.rules.clone_box();
    stepped.set(&top.field, &Value::Int(step.value))?;
    let mut elsewhere = Vec::new();
    for other in [start - 1, start + 1].into_iter().filter(|v| (min..=max).contains(v)) {
        let at = [pair(&param.name, other)];
        let measured = |rules: &dyn RuleBook| -> Result<Option<f64>, AnalysisError> {
            match experiment.run_solving(rules, &at, experiment.options.samples, true) {
                Ok(run) => Ok(Some(measure.estimate(&run.distribution, experiment.confidence)?.value)),
                Err(AnalysisError::Run(e)) => Err(AnalysisError::Run(e)),
                // A start the scenario refuses is simply not compared.
                Err(_) => Ok(None),
            }
        };
        if let (Some(base), Some(moved)) = (measured(experiment.rules.as_ref())?, measured(stepped.as_ref())?) {
            elsewhere.push((other, moved - base));
        }
    }
    Ok(Some(StartCheck {
        field: top.field.clone(),
        value: step.value,
        key: param.name.clone(),
        start,
        change: step.change,
        elsewhere,
    }))
}

/// `work(0..count)`, on up to `threads` threads (0: one per core) taking the
/// next index as each finishes; the results in index order. The threads are
/// plain ones, not the solver's pool: a run's own parallel work goes to
/// that pool, and a thread waiting on it never takes another run onto its
/// stack, as a pool's worker would.
pub(crate) fn side_by_side<T: Send>(count: usize, threads: usize, work: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let threads = match threads {
        0 => std::thread::available_parallelism().map_or(1, usize::from),
        n => n,
    }
    .clamp(1, count.max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut done: Vec<(usize, T)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if k >= count {
                            return mine;
                        }
                        mine.push((k, work(k)));
                    }
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().expect("a sensitivity run panicked")).collect()
    });
    done.sort_by_key(|&(k, _)| k);
    done.into_iter().map(|(_, t)| t).collect()
}

/// Moves every integer rule field one step down and up (within its range),
/// reruns the scenario, and ranks the fields by how far `measure` moves; and
/// runs every other reading of every interpretation (choice field) and every
/// optional rule switched (boolean field), ranked the same way.
///
/// The change's interval adds both runs' variances as if they were
/// independent; the runs share their dice, which makes the true interval
/// narrower, so this one errs wide. A run where a side plays `best` is
/// exact (the sampler would have solved the game anyway), with no interval.
pub fn sensitivity(experiment: &Experiment, measure: &Measure) -> Result<Sensitivity, AnalysisError> {
    let z = z_for_confidence(experiment.confidence);
    let base_scenario = experiment.build(experiment.rules.as_ref(), &[])?;
    let mut base_run = experiment.run_built(base_scenario.as_ref(), &[], experiment.options.samples, true)?;
    base_run.keys = vec![pair("rule", "baseline")];
    let baseline = measure.estimate(&base_run.distribution, experiment.confidence)?;
    // Every run to make, in the rule book's order: each other reading of an
    // interpretation, the optional rule switched, and each number one step
    // down and up.
    let fields = experiment.rules.fields();
    let mut steps: Vec<(usize, Value)> = Vec::new();
    for (i, field) in fields.iter().enumerate() {
        match (&field.kind, &field.default) {
            (ParamKind::Bool, Value::Bool(current)) => steps.push((i, Value::Bool(!current))),
            (ParamKind::Choice(names), Value::Choice(current)) => steps.extend(
                names.iter().filter(|&&name| name != current).map(|&name| (i, Value::Choice(name.to_string()))),
            ),
            (ParamKind::Int { .. }, Value::Int(current)) => {
                steps.extend([current - 1, current + 1].map(|value| (i, Value::Int(value))));
            }
            _ => {}
        }
    }
    // The runs are independent, each from the experiment's seed: made side
    // by side (a solver's serial stretches and a sampler's chunks overlap on
    // every core), they give the same numbers as one after another.
    // A field the scenario promises not to read at these settings (a
    // howitzer's numbers where there is no howitzer) gives the baseline's
    // outcomes to the bit: its value is still checked and the scenario still
    // built with it, but not run again.
    let mut unread = 0;
    let outcomes = side_by_side(steps.len(), experiment.options.threads, |k| {
        let (i, value) = &steps[k];
        let mut rules = experiment.rules.clone_box();
        rules.set(&fields[*i].name, value).map_err(AnalysisError::from)?;
        let scenario = experiment.build(rules.as_ref(), &[])?;
        if base_scenario.reads_rule(&fields[*i].name) {
            experiment.run_built(scenario.as_ref(), &[], experiment.options.samples, true).map(Some)
        } else {
            Ok(None)
        }
    });
    let mut runs = vec![base_run];
    let mut rows: Vec<SensitivityRow> = Vec::new();
    let mut skipped = Vec::new();
    let mut alternatives = Vec::new();
    for ((i, value), outcome) in steps.into_iter().zip(outcomes) {
        let field = &fields[i];
        // The run's estimate, change and the change's interval, or `None`
        // (listed as skipped) where the value is out of range or the
        // scenario rejects it.
        let measured = match outcome.map(|run| {
            run.unwrap_or_else(|| {
                unread += 1;
                Run { keys: Vec::new(), ..runs[0].clone() }
            })
        }) {
            Ok(mut run) => {
                run.keys = vec![pair("rule", &field.name), pair("rule_value", &value)];
                let estimate = measure.estimate(&run.distribution, experiment.confidence)?;
                let change = estimate.value - baseline.value;
                let half = z * (estimate.standard_error.powi(2) + baseline.standard_error.powi(2)).sqrt();
                runs.push(run);
                Some((estimate, change, change - half, change + half))
            }
            // A cancelled run is not a property of the rule: stop.
            Err(AnalysisError::Run(e)) => return Err(AnalysisError::Run(e)),
            Err(e) => {
                skipped.push(Skipped { field: field.name.clone(), value: value.to_string(), reason: e.to_string() });
                None
            }
        };
        let Some((estimate, change, ci_low, ci_high)) = measured else { continue };
        let Value::Int(stepped) = value else {
            alternatives.push(Alternative {
                field: field.name.clone(),
                doc: field.doc.clone(),
                baseline: field.default.to_string(),
                value: value.to_string(),
                estimate,
                change,
                ci_low,
                ci_high,
            });
            continue;
        };
        let Value::Int(current) = field.default else { unreachable!("a number's steps are numbers") };
        if rows.last().is_none_or(|row| row.field != field.name) {
            rows.push(SensitivityRow {
                field: field.name.clone(),
                doc: field.doc.clone(),
                baseline: current,
                down: None,
                up: None,
            });
        }
        let row = rows.last_mut().expect("just pushed");
        let step = Some(Change { value: stepped, estimate, change, ci_low, ci_high });
        if stepped < current { row.down = step } else { row.up = step }
    }
    // A stable sort keeps the rule book's order among equal changes.
    rows.sort_by(|a, b| b.largest_change().total_cmp(&a.largest_change()));
    alternatives.sort_by(|a, b| b.change.abs().total_cmp(&a.change.abs()));
    let start_check = match rows.first().filter(|top| top.largest_change() > 0.0) {
        Some(top) => start_check(experiment, measure, top)?,
        None => None,
    };
    Ok(Sensitivity { measure: measure.clone(), baseline, rows, alternatives, skipped, unread, runs, start_check })
}

impl Sensitivity {
    /// One row per step run, ranked as [`Sensitivity::rows`].
    pub fn frame(&self) -> PolarsResult<DataFrame> {
        let mut field = Vec::new();
        let mut baseline = Vec::new();
        let mut value = Vec::new();
        let mut estimates = Vec::new();
        let mut change = Vec::new();
        let mut change_low = Vec::new();
        let mut change_high = Vec::new();
        for row in &self.rows {
            for step in [row.down, row.up].into_iter().flatten() {
                field.push(row.field.clone());
                baseline.push(row.baseline);
                value.push(step.value);
                estimates.push(step.estimate);
                change.push(step.change);
                change_low.push(step.ci_low);
                change_high.push(step.ci_high);
            }
        }
        let mut columns = vec![
            Column::new("field".into(), field),
            Column::new("baseline_value".into(), baseline),
            Column::new("value".into(), value),
        ];
        columns.extend(estimate_columns(&self.measure, &estimates));
        columns.extend([
            Column::new("change".into(), change),
            Column::new("change_ci_low".into(), change_low),
            Column::new("change_ci_high".into(), change_high),
        ]);
        frame_of(columns)
    }

    /// One row per interpretation's other reading or optional rule
    /// switched, ranked as [`Sensitivity::alternatives`].
    pub fn alternatives_frame(&self) -> PolarsResult<DataFrame> {
        let texts = |f: &dyn Fn(&Alternative) -> String| self.alternatives.iter().map(f).collect::<Vec<String>>();
        let numbers = |f: &dyn Fn(&Alternative) -> f64| self.alternatives.iter().map(f).collect::<Vec<f64>>();
        let estimates: Vec<Estimate> = self.alternatives.iter().map(|a| a.estimate).collect();
        let mut columns = vec![
            Column::new("field".into(), texts(&|a| a.field.clone())),
            Column::new("baseline_value".into(), texts(&|a| a.baseline.clone())),
            Column::new("value".into(), texts(&|a| a.value.clone())),
        ];
        columns.extend(estimate_columns(&self.measure, &estimates));
        columns.extend([
            Column::new("change".into(), numbers(&|a| a.change)),
            Column::new("change_ci_low".into(), numbers(&|a| a.ci_low)),
            Column::new("change_ci_high".into(), numbers(&|a| a.ci_high)),
        ]);
        frame_of(columns)
    }

    /// The finding in one line, and a second sentence on the interpretation
    /// or optional rule that moves the measure most, where one does.
    pub fn finding(&self) -> String {
        let mut finding = self.steps_finding();
        if let Some(top) = self.alternatives.first().filter(|a| a.change != 0.0) {
            let size = if self.measure.is_probability() {
                format!("{:+.1} percentage points", top.change * 100.0)
            } else {
                format!("{:+.3}", top.change)
            };
            finding.push_str(&format!(
                " Of the interpretations and optional rules, {} = {} (default {}) moves it most: {size}.",
                top.field, top.value, top.baseline
            ));
        }
        finding
    }

    fn steps_finding(&self) -> String {
        let Some(top) = self.rows.first() else {
            return "No integer rule field could be moved.".to_string();
        };
        if top.largest_change() == 0.0 {
            return format!(
                "No printed number moves {} by one step (it stays at {}).",
                self.measure.plain(),
                format_value(self.baseline.value, self.measure.is_probability())
            );
        }
        let (size, baseline) = if self.measure.is_probability() {
            (
                format!("{:.1} percentage points", top.largest_change() * 100.0),
                format!("{:.1}%", self.baseline.value * 100.0),
            )
        } else {
            (format!("{:.3}", top.largest_change()), format!("{:.3}", self.baseline.value))
        };
        let runner_up = match self.rows.get(1) {
            Some(next) => format!("; next is {}", next.field),
            None => String::new(),
        };
        format!(
            "{} moves {} most: one step from its printed {} moves it up to {size} (from {baseline}){runner_up}.",
            top.field,
            self.measure.plain(),
            top.baseline
        )
    }

    /// Whether the field that moves the measure most does so from other
    /// starts too, in a sentence (empty where no start was checked): a
    /// ranking led by the fixed start rather than by play says so.
    pub fn start_sentence(&self) -> String {
        let mut finding = String::new();
        if let Some(check) = &self.start_check
            && !check.elsewhere.is_empty()
        {
            let points = |c: f64| {
                if self.measure.is_probability() { format!("{:+.1} points", c * 100.0) } else { format!("{c:+.3}") }
            };
            let elsewhere: Vec<String> =
                check.elsewhere.iter().map(|(at, c)| format!("{} from {} {at}", points(*c), check.key)).collect();
            if check.start_driven() {
                finding.push_str(&format!(
                    "That is mostly the fixed start, not play: the fight starts at {} {}, and the same step ({} = {}) \
                     moves it only {} from a start one step nearer or farther.",
                    check.key,
                    check.start,
                    check.field,
                    check.value,
                    elsewhere.join(" and ")
                ));
            } else {
                finding.push_str(&format!(
                    "It matters in play, not only from this fight's start ({} {}): the same step moves it {} too.",
                    check.key,
                    check.start,
                    elsewhere.join(" and ")
                ));
            }
        }
        finding
    }
}

/// A measure over values of one key, for lines with bands.
#[derive(Clone, Debug)]
pub struct Sweep {
    /// The ruleset, which names the series in a chart.
    pub ruleset: String,
    /// The key swept.
    pub key: String,
    /// What was measured.
    pub measure: Measure,
    /// (value as text, estimate) in the order given.
    pub points: Vec<(String, Estimate)>,
    /// Every run, keyed by the swept value.
    pub runs: Vec<Run>,
}

/// Runs the experiment at each value of `key` and measures each run.
pub fn sweep(experiment: &Experiment, key: &str, values: &[String], measure: &Measure) -> Result<Sweep, AnalysisError> {
    // Side by side, each point from the experiment's seed: the same numbers
    // as one after another.
    let outcomes = side_by_side(values.len(), experiment.options.threads, |k| experiment.run(&[pair(key, &values[k])]));
    let mut points = Vec::with_capacity(values.len());
    let mut runs = Vec::with_capacity(values.len());
    for (value, outcome) in values.iter().zip(outcomes) {
        let run = outcome?;
        points.push((value.clone(), measure.estimate(&run.distribution, experiment.confidence)?));
        runs.push(run);
    }
    Ok(Sweep { ruleset: experiment.ruleset.clone(), key: key.to_string(), measure: measure.clone(), points, runs })
}

/// One sample count of a convergence study.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConvergencePoint {
    /// The samples.
    pub samples: u64,
    /// The estimate after them.
    pub estimate: Estimate,
}

/// A measure's estimate and interval as the samples grow.
#[derive(Clone, Debug)]
pub struct Convergence {
    /// What was measured.
    pub measure: Measure,
    /// One point per sample count, in the order given.
    pub points: Vec<ConvergencePoint>,
    /// The exact value, when the scenario has a solver.
    pub exact: Option<f64>,
    /// Each side's policy as asked and as played (see [`Run::policies`]).
    pub policies: Option<[PolicyUse; 2]>,
}

/// Sample counts 1, 2 and 5 times powers of ten from 100 up to `max`, and `max`.
pub fn default_sample_counts(max: u64) -> Vec<u64> {
    let mut counts = Vec::new();
    let mut decade: u64 = 100;
    'outer: loop {
        for factor in [1, 2, 5] {
            let n = decade.saturating_mul(factor);
            if n >= max {
                break 'outer;
            }
            counts.push(n);
        }
        decade = decade.saturating_mul(10);
    }
    counts.push(max);
    counts
}

/// Runs the experiment at each sample count. The runner splits samples into
/// fixed chunks, each seeded by its index, so a smaller run's samples are a
/// prefix of a larger one's: the points are one growing sample, as a reader
/// of a convergence chart assumes.
pub fn convergence(
    experiment: &Experiment,
    measure: &Measure,
    sample_counts: &[u64],
) -> Result<Convergence, AnalysisError> {
    let scenario = experiment.build(experiment.rules.as_ref(), &[])?;
    let exact = match scenario.exact_distribution() {
        Some(dist) => Some(measure.estimate(&dist, experiment.confidence)?.value),
        None => None,
    };
    let mut points = Vec::with_capacity(sample_counts.len());
    for &samples in sample_counts {
        let mut options = experiment.options.clone();
        options.samples = samples;
        let dist = scenario.simulate(&options)?;
        points.push(ConvergencePoint { samples, estimate: measure.estimate(&dist, experiment.confidence)? });
    }
    Ok(Convergence { measure: measure.clone(), points, exact, policies: scenario.policies() })
}

impl Convergence {
    /// One row per sample count.
    pub fn frame(&self) -> PolarsResult<DataFrame> {
        let estimates: Vec<Estimate> = self.points.iter().map(|p| p.estimate).collect();
        let mut columns = estimate_columns(&self.measure, &estimates);
        columns.push(Column::new("exact".into(), vec![self.exact; estimates.len()]));
        frame_of(columns)
    }
}
