//! What makes a fight even: the value of one key (or rule field) at which a
//! measure crosses a target, by default the attacker's chance of winning
//! crossing 50%.
//!
//! The search walks the key's values in their order: every integer in its
//! range, or a choice's names in the order the scenario lists them (a
//! quality ladder, a formation's list). Each value probed is solved exactly
//! where the experiment asks ([`Experiment::exact`], or
//! [`Solving::WhereQuick`] where the solve is quick), and sampled
//! otherwise: with [`Experiment::precision`] set, sequentially, in rounds
//! that grow fourfold from [`FIRST_ROUND`] samples and stop as soon as the
//! interval excludes the target, or at the precision asked (then the value
//! cannot be told from the target at that precision, and the answer says
//! so). Every value uses the experiment's seed, so two values share their
//! dice and their difference is the key's, not luck's.
//!
//! A range of at most [`SCAN_ALL`] values is probed whole, so every crossing
//! is seen; a longer one is probed on an even grid of about [`GRID_POINTS`]
//! values, and each grid step whose ends lie either side of the target is
//! bisected down to two neighbouring values. A crossing and its return
//! within one grid step is then unseen, and the answer names the grid's
//! step. Bisection is the right tool here (rather than a root finder over
//! reals): the key takes whole values, and each probe is a full solve or a
//! sampled run, so the search needs the fewest probes that bracket the
//! crossing between two neighbours, which bisection gives.

use crate::AnalysisError;
use crate::balance::{Estimate, Experiment, Measure, Solving, capitalised, frame_of};
use crate::frame::Run;
use crate::stats::samples_for_half_width;
use polars::prelude::*;
use volley_kernel::params::{ParamError, ParamKind};

/// Ranges up to this many values are probed at every value.
pub const SCAN_ALL: usize = 25;
/// About how many values a longer range's first pass probes.
pub const GRID_POINTS: usize = 13;
/// The samples of a sequential probe's first round.
pub const FIRST_ROUND: u64 = 2_000;
/// The prefix naming a rule field as the varied key.
pub const RULE_PREFIX: &str = "rules.";
/// The most values a range may hold when none is given (a rule field's
/// whole integer type is not a range anyone means).
pub const MAX_DEFAULT_VALUES: usize = 500;

/// The values a search walks: a key's or rule field's, in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    /// The key as given (`attacker.figures`, `rules.FIELD`).
    pub key: String,
    /// The values as text, in the order walked.
    pub values: Vec<String>,
    /// The values as numbers, for an integer key (a crossing between two
    /// is then interpolated).
    pub numbers: Option<Vec<i64>>,
}

impl Axis {
    /// The values of `key` (a scenario key, or `rules.FIELD`) from `from`
    /// to `to` (texts; the whole range where not given). A choice walks its
    /// names in the listed order, or backwards where `from` comes after
    /// `to`.
    pub fn of(experiment: &Experiment, key: &str, from: Option<&str>, to: Option<&str>) -> Result<Axis, AnalysisError> {
        let kind = match key.strip_prefix(RULE_PREFIX) {
            Some(field) => {
                let fields = experiment.rules.fields();
                let found = fields.iter().find(|f| f.name == field).ok_or_else(|| {
                    AnalysisError::Invalid(format!(
                        "{} has no rule field `{field}` (`volley rules {}` lists them)",
                        experiment.ruleset, experiment.ruleset
                    ))
                })?;
                found.kind.clone()
            }
            None => experiment
                .scenario
                .params
                .iter()
                .find(|p| p.name == key)
                .ok_or_else(|| {
                    let valid: Vec<&str> = experiment.scenario.params.iter().map(|p| p.name.as_str()).collect();
                    AnalysisError::Invalid(format!(
                        "scenario `{}` of `{}` has no key `{key}` (valid keys: {}; a rule field is rules.FIELD)",
                        experiment.scenario.name,
                        experiment.ruleset,
                        valid.join(", ")
                    ))
                })?
                .kind
                .clone(),
        };
        let bad = |what: String| AnalysisError::Invalid(format!("{key}: {what}"));
        match kind {
            ParamKind::Int { min, max } => {
                let parse = |text: Option<&str>, default: i64, end: &str| -> Result<i64, AnalysisError> {
                    match text {
                        None => Ok(default),
                        Some(t) => match t.trim().parse::<i64>() {
                            Ok(v) if (min..=max).contains(&v) => Ok(v),
                            _ => Err(bad(format!("the range's {end} `{t}` must be an integer from {min} to {max}"))),
                        },
                    }
                };
                let (low, high) = (parse(from, min, "start")?, parse(to, max, "end")?);
                if low >= high {
                    return Err(bad(format!("the range {low} to {high} must rise (two values at least)")));
                }
                if (high - low) as u128 + 1 > MAX_DEFAULT_VALUES as u128 && (from.is_none() || to.is_none()) {
                    return Err(bad(format!(
                        "accepts {min} to {max}, too wide to search whole; give the range to search (from and to)"
                    )));
                }
                let numbers: Vec<i64> = (low..=high).collect();
                Ok(Axis {
                    key: key.to_string(),
                    values: numbers.iter().map(i64::to_string).collect(),
                    numbers: Some(numbers),
                })
            }
            ParamKind::Choice(names) => {
                let position = |text: Option<&str>, default: usize, end: &str| -> Result<usize, AnalysisError> {
                    match text {
                        None => Ok(default),
                        Some(t) => names
                            .iter()
                            .position(|n| *n == t.trim())
                            .ok_or_else(|| bad(format!("the range's {end} `{t}` is not one of {}", names.join(", ")))),
                    }
                };
                let (a, b) = (position(from, 0, "start")?, position(to, names.len() - 1, "end")?);
                let mut values: Vec<String> = names[a.min(b)..=a.max(b)].iter().map(|n| n.to_string()).collect();
                if a > b {
                    values.reverse();
                }
                if values.len() < 2 {
                    return Err(bad("the range must hold two values at least".to_string()));
                }
                Ok(Axis { key: key.to_string(), values, numbers: None })
            }
            ParamKind::Bool => {
                if from.is_some() || to.is_some() {
                    return Err(bad("is true or false; give no range".to_string()));
                }
                Ok(Axis { key: key.to_string(), values: vec!["false".into(), "true".into()], numbers: None })
            }
            ParamKind::Dice => Err(bad("is dice (NdS), which has no order to search; vary a number".to_string())),
        }
    }
}

/// One value probed.
#[derive(Clone, Debug, PartialEq)]
pub struct EvenPoint {
    /// Its place on the axis.
    pub index: usize,
    /// The value as text.
    pub value: String,
    /// The measure there.
    pub estimate: Estimate,
    /// The samples it took (0 where solved exactly).
    pub samples: u64,
}

impl EvenPoint {
    /// Above the target (1), below (-1), or at it exactly (0). A sampled
    /// value is on its estimate's side, settled or not (see
    /// [`EvenPoint::settled`]).
    pub fn side(&self, target: f64) -> i8 {
        if (self.estimate.value - target).abs() < 1e-12 {
            0
        } else if self.estimate.value > target {
            1
        } else {
            -1
        }
    }

    /// Its side of the target in a word: `above`, `below` or `at`.
    pub fn side_word(&self, target: f64) -> &'static str {
        match self.side(target) {
            1 => "above",
            -1 => "below",
            _ => "at",
        }
    }

    /// Whether its interval leaves the target out (always, where exact).
    pub fn settled(&self, target: f64) -> bool {
        self.estimate.samples.is_none() || self.estimate.ci_low > target || self.estimate.ci_high < target
    }
}

/// Where the measure meets the target.
#[derive(Clone, Debug, PartialEq)]
pub enum Crossing {
    /// Between two neighbouring values, one either side of the target.
    Between {
        /// The first of the two in the axis's order (an index into [`Even::points`]).
        below: usize,
        /// The second (an index into [`Even::points`]).
        above: usize,
        /// For an integer key, where a straight line between them meets the target.
        at: Option<f64>,
    },
    /// At one value exactly.
    At {
        /// The value (an index into [`Even::points`]).
        point: usize,
    },
}

/// The answer of a search.
#[derive(Clone, Debug)]
pub struct Even {
    /// The ruleset.
    pub ruleset: String,
    /// The scenario.
    pub scenario: String,
    /// What was varied, and over which values.
    pub axis: Axis,
    /// What was measured.
    pub measure: Measure,
    /// The value sought.
    pub target: f64,
    /// Every value probed, in the axis's order.
    pub points: Vec<EvenPoint>,
    /// Every crossing found, in the axis's order.
    pub crossings: Vec<Crossing>,
    /// 1 where every value was probed; else the first pass's grid step.
    pub grid_step: usize,
    /// Samples drawn over the whole search.
    pub samples_spent: u64,
    /// The sampled precision asked, if the search sampled sequentially.
    pub precision: Option<f64>,
    /// Every run, in the order of `points`.
    pub runs: Vec<Run>,
}

/// The target a measure is searched for: `target` where given (a
/// probability between 0 and 1 for a probability), else even odds; a mean
/// has no default.
pub fn target_for(measure: &Measure, target: Option<f64>) -> Result<f64, AnalysisError> {
    match (target, measure.is_probability()) {
        (Some(t), true) if !(t > 0.0 && t < 1.0) => {
            Err(AnalysisError::Invalid(format!("target {t} must be a probability above 0 and below 1, such as 0.5")))
        }
        (Some(t), _) if !t.is_finite() => Err(AnalysisError::Invalid(format!("target {t} must be a number"))),
        (Some(t), _) => Ok(t),
        (None, true) => Ok(0.5),
        (None, false) => Err(AnalysisError::Invalid(format!(
            "{} has no even point of its own; give the target value",
            measure.plain()
        ))),
    }
}

/// The measure searched when none is named: the attacker's chance of
/// winning (its success under the scenario's purpose).
pub fn default_measure(experiment: &Experiment, measure: Option<Measure>) -> Result<Measure, AnalysisError> {
    match measure {
        Some(m) => {
            m.check(&experiment.metrics()?)?;
            Ok(m)
        }
        None => Measure::attacker_wins(&experiment.metrics()?).ok_or_else(|| {
            AnalysisError::Invalid(format!(
                "scenario `{}` has neither a `winner` nor a `result` metric; name the measure",
                experiment.scenario.name
            ))
        }),
    }
}

/// Searches `axis` for where `measure` crosses `target`.
pub fn search(experiment: &Experiment, axis: &Axis, measure: &Measure, target: f64) -> Result<Even, AnalysisError> {
    let n = axis.values.len();
    let mut probed: Vec<Option<(EvenPoint, Run)>> = vec![None; n];
    let probe = |index: usize, probed: &mut Vec<Option<(EvenPoint, Run)>>| -> Result<i8, AnalysisError> {
        if probed[index].is_none() {
            probed[index] = Some(probe_value(experiment, axis, index, measure, target)?);
        }
        Ok(probed[index].as_ref().expect("just probed").0.side(target))
    };
    let grid_step = if n <= SCAN_ALL { 1 } else { (n - 1).div_ceil(GRID_POINTS - 1) };
    let mut grid: Vec<usize> = (0..n).step_by(grid_step).collect();
    if grid.last() != Some(&(n - 1)) {
        grid.push(n - 1);
    }
    for &index in &grid {
        probe(index, &mut probed)?;
    }
    for pair in grid.windows(2) {
        let (mut low, mut high) = (pair[0], pair[1]);
        let (side_low, side_high) = (probe(low, &mut probed)?, probe(high, &mut probed)?);
        if side_low * side_high >= 0 {
            continue;
        }
        // Invariant: `low` on `side_low`'s side, `high` on the other.
        while high - low > 1 {
            let mid = low + (high - low) / 2;
            match probe(mid, &mut probed)? {
                0 => break,
                s if s == side_low => low = mid,
                _ => high = mid,
            }
        }
    }
    let (mut points, mut runs) = (Vec::new(), Vec::new());
    for (point, run) in probed.into_iter().flatten() {
        points.push(point);
        runs.push(run);
    }
    let crossings = crossings(&points, axis, target);
    let samples_spent = points.iter().map(|p| p.samples).sum();
    Ok(Even {
        ruleset: experiment.ruleset.clone(),
        scenario: experiment.scenario.name.to_string(),
        axis: axis.clone(),
        measure: measure.clone(),
        target,
        points,
        crossings,
        grid_step,
        samples_spent,
        precision: experiment.precision,
        runs,
    })
}

/// The crossings among probed points in the axis's order: every point at
/// the target, and every two neighbouring points (no point at the target
/// between) on opposite sides.
fn crossings(points: &[EvenPoint], axis: &Axis, target: f64) -> Vec<Crossing> {
    let mut found = Vec::new();
    for (k, point) in points.iter().enumerate() {
        if point.side(target) == 0 {
            found.push(Crossing::At { point: k });
        }
        if k + 1 < points.len() {
            let next = &points[k + 1];
            if point.side(target) * next.side(target) < 0 {
                let at = axis.numbers.as_ref().map(|numbers| {
                    let (x0, x1) = (numbers[point.index] as f64, numbers[next.index] as f64);
                    let (y0, y1) = (point.estimate.value, next.estimate.value);
                    x0 + (target - y0) / (y1 - y0) * (x1 - x0)
                });
                found.push(Crossing::Between { below: k, above: k + 1, at });
            }
        }
    }
    found
}

/// The experiment at one value of the axis: exact where asked or quick,
/// else sampled (sequentially where a precision is set).
fn probe_value(
    experiment: &Experiment,
    axis: &Axis,
    index: usize,
    measure: &Measure,
    target: f64,
) -> Result<(EvenPoint, Run), AnalysisError> {
    let value = &axis.values[index];
    let at = at_value(experiment, &axis.key, value)?;
    let scenario = at.build(at.rules.as_ref(), &[])?;
    let exact = if experiment.solving == Solving::Always {
        Some(scenario.exact_distribution().ok_or_else(|| {
            AnalysisError::Invalid(format!(
                "{} {} has no exact solver at {} = {value}; sample it instead",
                experiment.ruleset, experiment.scenario.name, axis.key
            ))
        })?)
    } else if experiment.solving.solves(scenario.as_ref()) {
        scenario.exact_distribution()
    } else {
        None
    };
    let (distribution, samples) = match exact {
        Some(law) => (law, 0),
        None => {
            let mut options = experiment.options.clone();
            match experiment.precision {
                None => (scenario.simulate(&options)?, options.samples),
                Some(precision) => {
                    // Enough for a probability at 1/2 (the widest) to reach
                    // the precision; a mean stops at the experiment's samples.
                    let cap = if measure.is_probability() {
                        samples_for_half_width(0.5, precision, experiment.confidence)
                    } else {
                        options.samples
                    }
                    .max(FIRST_ROUND);
                    let mut n = FIRST_ROUND;
                    let mut spent = 0;
                    loop {
                        options.samples = n;
                        let law = scenario.simulate(&options)?;
                        spent += n;
                        let e = measure.estimate(&law, experiment.confidence)?;
                        let half = (e.ci_high - e.ci_low) / 2.0;
                        if e.ci_low > target || e.ci_high < target || half <= precision || n >= cap {
                            break (law, spent);
                        }
                        n = (n * 4).min(cap);
                    }
                }
            }
        }
    };
    let estimate = measure.estimate(&distribution, experiment.confidence)?;
    let run = Run {
        ruleset: experiment.ruleset.clone(),
        scenario: experiment.scenario.name.to_string(),
        keys: vec![(axis.key.clone(), value.clone())],
        distribution,
        policies: scenario.policies(),
        unread: scenario.unread_keys(),
    };
    Ok((EvenPoint { index, value: value.clone(), estimate, samples }, run))
}

/// The experiment with `key` (a scenario key, or `rules.FIELD`) set to
/// `value` in every run.
pub fn at_value(experiment: &Experiment, key: &str, value: &str) -> Result<Experiment, AnalysisError> {
    match key.strip_prefix(RULE_PREFIX) {
        Some(field) => {
            let mut rules = experiment.rules.clone();
            rules.set_text(field, value).map_err(|e| match e {
                ParamError::UnknownKey { .. } => {
                    AnalysisError::Invalid(format!("{} has no rule field `{field}`", experiment.ruleset))
                }
                e => e.into(),
            })?;
            Ok(experiment.clone().with_rules(rules))
        }
        None => Ok(experiment.clone().with_fixed([(key, value)])),
    }
}

/// For each value of `by`, the search along `axis`: the even value of one
/// key against each of another's (figures needed against each quality).
/// Each search's runs carry the `by` key beside the searched one.
pub fn curve(
    experiment: &Experiment,
    by: &Axis,
    axis: &Axis,
    measure: &Measure,
    target: f64,
) -> Result<Vec<Even>, AnalysisError> {
    by.values
        .iter()
        .map(|value| {
            let mut found = search(&at_value(experiment, &by.key, value)?, axis, measure, target)?;
            for run in &mut found.runs {
                run.keys.insert(0, (by.key.clone(), value.clone()));
            }
            Ok(found)
        })
        .collect()
}

/// A measure's value in a person's words: a percentage for a probability.
pub fn say(measure: &Measure, value: f64) -> String {
    if measure.is_probability() { format!("{:.1}%", value * 100.0) } else { format!("{value:.2}") }
}

impl Even {
    /// Whether the search probed every value of its range.
    pub fn scanned_all(&self) -> bool {
        self.grid_step == 1
    }

    /// A point's value with its measure, as "33 (51.2%)", with its
    /// interval where sampled.
    fn point_words(&self, point: &EvenPoint) -> String {
        let e = &point.estimate;
        let said = say(&self.measure, e.value);
        if e.samples.is_none() {
            return format!("{} ({said})", point.value);
        }
        let half = (e.ci_high - e.ci_low) / 2.0;
        let plus = if self.measure.is_probability() {
            format!("±{:.1} points", half * 100.0)
        } else {
            format!("±{half:.2}")
        };
        format!("{} ({said} {plus})", point.value)
    }

    /// One crossing in words.
    pub fn crossing_words(&self, crossing: &Crossing) -> String {
        match crossing {
            Crossing::At { point } => format!("at {}", self.point_words(&self.points[*point])),
            Crossing::Between { below, above, at } => {
                let (b, a) = (&self.points[*below], &self.points[*above]);
                let mut text = format!("between {} and {}", self.point_words(b), self.point_words(a));
                if let Some(at) = at {
                    text.push_str(&format!(", about {at:.1} by a straight line between them"));
                }
                let unsettled: Vec<&str> =
                    [b, a].iter().filter(|p| !p.settled(self.target)).map(|p| p.value.as_str()).collect();
                if !unsettled.is_empty() {
                    let precision = self.precision.map_or(String::new(), |p| {
                        if self.measure.is_probability() {
                            format!(" at ±{:.1} points", p * 100.0)
                        } else {
                            format!(" at ±{p}")
                        }
                    });
                    text.push_str(&format!(
                        " ({} cannot be told from {}{precision}: either may be the nearer)",
                        unsettled.join(" and "),
                        say(&self.measure, self.target)
                    ));
                }
                text
            }
        }
    }

    /// The answer in plain words.
    pub fn finding(&self) -> String {
        let measure = capitalised(&self.measure.plain());
        let target = say(&self.measure, self.target);
        let (first, last) = (&self.axis.values[0], &self.axis.values[self.axis.values.len() - 1]);
        let range = format!("{} from {first} to {last}", self.axis.key);
        let mut text = match self.crossings.as_slice() {
            [] => {
                let values: Vec<f64> = self.points.iter().map(|p| p.estimate.value).collect();
                let (low, high) =
                    values.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &v| (l.min(v), h.max(v)));
                let side = if low > self.target { "above" } else { "below" };
                format!(
                    "{measure} stays {side} {target} over {range} ({} to {}): no value there makes it even.",
                    say(&self.measure, low),
                    say(&self.measure, high)
                )
            }
            [one] => format!("{measure} crosses {target} {} ({range} searched).", self.crossing_words(one)),
            many => {
                let listed: Vec<String> = many.iter().map(|c| self.crossing_words(c)).collect();
                format!(
                    "{measure} is not monotone in {}: it crosses {target} {} times over {range}: {}.",
                    self.axis.key,
                    many.len(),
                    listed.join("; ")
                )
            }
        };
        if !self.scanned_all() {
            text.push_str(&format!(
                " One value in every {} was probed first and each step across {target} bisected, so a crossing and \
                 its return within {} values would not be seen.",
                self.grid_step, self.grid_step
            ));
        }
        text
    }

    /// One row per value probed: the value, the measure with its interval,
    /// its side of the target and the samples it took.
    pub fn frame(&self) -> PolarsResult<DataFrame> {
        let column = |name: &str, values: Vec<f64>| Column::new(name.into(), values);
        frame_of(vec![
            Column::new(self.axis.key.as_str().into(), self.points.iter().map(|p| p.value.clone()).collect::<Vec<_>>()),
            column("estimate", self.points.iter().map(|p| p.estimate.value).collect()),
            column("ci_low", self.points.iter().map(|p| p.estimate.ci_low).collect()),
            column("ci_high", self.points.iter().map(|p| p.estimate.ci_high).collect()),
            Column::new("side".into(), self.points.iter().map(|p| p.side_word(self.target)).collect::<Vec<_>>()),
            Column::new("settled".into(), self.points.iter().map(|p| p.settled(self.target)).collect::<Vec<_>>()),
            Column::new("samples".into(), self.points.iter().map(|p| p.samples).collect::<Vec<_>>()),
        ])
    }
}
