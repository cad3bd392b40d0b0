//! How a result was made, so anyone can reproduce it: the ruleset and
//! scenario, every key set, each side's policy (and the policy it played,
//! where best play was beyond the solver), every rule that differs from the
//! printed rules, how it was computed (exact or sampled, samples or
//! precision, seed, confidence) and the volley version.
//!
//! `volley dist` prints it above its table, as comment lines of its CSV and
//! as a field of its JSON; every report's Method section is written from it.

use crate::balance::{Experiment, Solving};
use volley_kernel::catalogue::{self, ScenarioEntry};
use volley_kernel::game::{PolicyUse, Purpose, side_name};
use volley_kernel::params::{Choice, RuleBook};

/// The version of volley that made a result.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// A key whose name ends so is a side's policy: always recorded, set or not,
/// because the same fight under another policy is another result.
pub const POLICY_SUFFIX: &str = ".policy";

/// The key naming a fight's purpose: always recorded, set or not, because
/// the same fight with another purpose answers another question.
pub const PURPOSE_KEY: &str = "purpose";

/// One rule field whose value is not the printed one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleChange {
    /// The field's name, as `volley rules` prints it.
    pub field: String,
    /// Its value in this run.
    pub value: String,
    /// The printed value (the default).
    pub printed: String,
}

/// How the numbers were computed.
#[derive(Clone, Debug, PartialEq)]
pub enum Computation {
    /// Every number solved exactly.
    Exact,
    /// Monte Carlo.
    Sampled {
        /// Samples per point (the last round's, where a precision was asked).
        samples: u64,
        /// The interval half-width the rounds aimed for, if any.
        precision: Option<f64>,
        /// The seed.
        seed: u64,
    },
    /// Monte Carlo in one run of as many samples as the widest interval (at
    /// probability 1/2) needs to be within `precision` (`volley dist
    /// --precision`).
    SampledToPrecision {
        /// The samples drawn.
        samples: u64,
        /// The largest interval half-width allowed.
        precision: f64,
        /// The seed.
        seed: u64,
    },
    /// Exact wherever the scenario's exact answer is quick, sampled elsewhere.
    ExactWhereQuick {
        /// Samples per sampled point.
        samples: u64,
        /// The interval half-width the rounds aimed for, if any.
        precision: Option<f64>,
        /// The seed of sampled points.
        seed: u64,
    },
    /// A search for the value at which a measure crosses its target
    /// (`volley even`, an `even` analysis): each value probed exact as
    /// `exact` says, the rest sampled: with a precision, in rounds from
    /// `first` samples, four times more each round, until the interval
    /// leaves the target out or is within the precision; without one,
    /// `samples` a value.
    Searched {
        /// Where values are solved exactly.
        solving: Solving,
        /// The first round's samples.
        first: u64,
        /// Samples a value where no precision was asked.
        samples: u64,
        /// The interval half-width the rounds stop at, if any.
        precision: Option<f64>,
        /// The seed every value shares.
        seed: u64,
    },
    /// Exact wherever the scenario's solver can, sampled elsewhere.
    ExactWherePossible {
        /// Samples per sampled point.
        samples: u64,
        /// The interval half-width the rounds aimed for, if any.
        precision: Option<f64>,
        /// The seed of sampled points.
        seed: u64,
    },
}

/// Everything needed to make a result again.
#[derive(Clone, Debug, PartialEq)]
pub struct Provenance {
    /// The ruleset's name.
    pub ruleset: String,
    /// The scenario's name.
    pub scenario: String,
    /// Every key set, as given (canonical keys already read in the ruleset's
    /// terms), in order.
    pub keys: Vec<(String, String)>,
    /// Every `*.policy` key of the scenario with its value, set or default.
    pub policies: Vec<(String, String)>,
    /// The fight's purpose (its `purpose` key, set or default) and what it
    /// means, where the scenario has one.
    pub purpose: Option<(String, String)>,
    /// Keys set that the scenario does not read at these settings, each
    /// with why ([`DynScenario::unread_keys`](volley_kernel::scenario::DynScenario::unread_keys)).
    pub unread: Vec<(String, String)>,
    /// What a side played where it is not what its policy key asked (best
    /// play beyond the solver, where the game plays its fallback heuristic,
    /// or a side with no decision at the settings), in words, a side at a
    /// time: `attacker bold (best asked; beyond the solver here)`. Empty
    /// where every side played as asked.
    pub played: Vec<String>,
    /// Every rule field that differs from the printed rules.
    pub rules_changed: Vec<RuleChange>,
    /// Exact or sampled, and how.
    pub computation: Computation,
    /// The confidence level of every interval.
    pub confidence: f64,
}

impl Provenance {
    /// The provenance of a scenario built with `keys` under `rules`.
    pub fn new(
        ruleset: &str,
        scenario: &ScenarioEntry,
        rules: &dyn RuleBook,
        keys: &[(String, String)],
        computation: Computation,
        confidence: f64,
    ) -> Provenance {
        let policies = scenario
            .params
            .iter()
            .filter(|p| p.name.ends_with(POLICY_SUFFIX))
            .map(|p| {
                let set = keys.iter().rev().find(|(k, _)| *k == p.name).map(|(_, v)| v.clone());
                (p.name.clone(), set.unwrap_or_else(|| p.default.to_string()))
            })
            .collect();
        let purpose = scenario.params.iter().find(|p| p.name == PURPOSE_KEY).map(|p| {
            let name =
                keys.iter().rev().find(|(k, _)| *k == p.name).map_or_else(|| p.default.to_string(), |(_, v)| v.clone());
            let meaning = Purpose::from_name(&name).map_or("", Purpose::sentence).to_string();
            (name, meaning)
        });
        Provenance {
            ruleset: ruleset.to_string(),
            scenario: scenario.name.to_string(),
            keys: keys.to_vec(),
            policies,
            purpose,
            unread: Vec::new(),
            played: Vec::new(),
            rules_changed: rules_changed(ruleset, rules),
            computation,
            confidence,
        }
    }

    /// The provenance of an experiment's runs, with `extra` keys set on top
    /// of its fixed ones (a swept key, say, as `key = first..last`).
    pub fn of_experiment(experiment: &Experiment, extra: &[(String, String)]) -> Provenance {
        let mut keys = experiment.fixed.clone();
        keys.extend(extra.iter().cloned());
        let (samples, precision, seed) = (experiment.options.samples, experiment.precision, experiment.options.seed);
        let computation = match experiment.solving {
            Solving::Always => Computation::ExactWherePossible { samples, precision, seed },
            Solving::WhereQuick => Computation::ExactWhereQuick { samples, precision, seed },
            Solving::Never => Computation::Sampled { samples, precision, seed },
        };
        Provenance::new(
            &experiment.ruleset,
            &experiment.scenario,
            experiment.rules.as_ref(),
            &keys,
            computation,
            experiment.confidence,
        )
    }

    /// The provenance of a search over `experiment` for where a measure
    /// crosses its target, with `extra` keys as in [`Provenance::of_experiment`]
    /// and `first` samples in a sampled value's first round.
    pub fn of_search(experiment: &Experiment, extra: &[(String, String)], first: u64) -> Provenance {
        let solving = experiment.solving;
        let (samples, precision, seed) = (experiment.options.samples, experiment.precision, experiment.options.seed);
        Provenance {
            computation: Computation::Searched { solving, first, samples, precision, seed },
            ..Provenance::of_experiment(experiment, extra)
        }
    }

    /// The record with what each side played at the points it covers (the
    /// [`DynScenario::policies`](volley_kernel::scenario::DynScenario::policies)
    /// of each point's scenario, once run), where it differs from what the
    /// side's policy key asked: `attacker bold (best asked; beyond the solver
    /// here)`, or `at 3 of 7 points` where it did at some points only. Sides
    /// without a policy key take no decision and are left out.
    pub fn with_played(mut self, points: &[Option<[PolicyUse; 2]>]) -> Provenance {
        let known: Vec<&[PolicyUse; 2]> = points.iter().flatten().collect();
        for side in [0, 1] {
            let name = side_name(side as u8);
            if !self.policies.iter().any(|(key, _)| key.strip_suffix(POLICY_SUFFIX) == Some(name)) {
                continue;
            }
            // A side that has no decision anywhere plays no policy at all:
            // its policy is not what it played, whatever it fell back to.
            if !known.is_empty() && known.iter().all(|uses| !uses[side].decides) {
                self.played.push(format!("{name} takes no decision at these settings (its policy changes nothing)"));
                continue;
            }
            // Each (asked, played) that differs, with the points it held at, in order of first sight.
            let mut differing: Vec<(PolicyUse, usize)> = Vec::new();
            for uses in &known {
                let used = uses[side];
                if used.asked == used.played {
                    continue;
                }
                match differing.iter_mut().find(|(seen, _)| seen.asked == used.asked && seen.played == used.played) {
                    Some((_, count)) => *count += 1,
                    None => differing.push((used, 1)),
                }
            }
            for (used, count) in differing {
                let (played, asked) = (used.played.name(), used.asked.name());
                self.played.push(match (count == known.len(), known.len()) {
                    (true, 1) => format!("{name} {played} ({asked} asked; beyond the solver here)"),
                    (true, _) => format!("{name} {played} ({asked} asked; beyond the solver at every point)"),
                    (false, all) => {
                        format!("{name} {played} at {count} of {all} points ({asked} asked; beyond the solver there)")
                    }
                });
            }
        }
        self
    }

    /// The record with the keys set that a scenario built from them does
    /// not read (`unread`, the scenario's whole list: only those set are
    /// kept), so that nobody takes a key echoed under "keys set" for one
    /// that mattered.
    pub fn with_unread(mut self, unread: &[(String, String)]) -> Provenance {
        for (key, why) in unread {
            if self.keys.iter().any(|(k, _)| k == key) && !self.unread.iter().any(|(k, _)| k == key) {
                self.unread.push((key.clone(), why.clone()));
            }
        }
        self
    }

    /// The record with the changed rule fields that the scenario does not
    /// read at these settings (`reads`: [`DynScenario::reads_rule`](volley_kernel::scenario::DynScenario::reads_rule)),
    /// named `rules.FIELD` under "not read here", so that a changed field
    /// listed under the rules is never taken for one that mattered.
    pub fn with_unread_rules(mut self, reads: impl Fn(&str) -> bool) -> Provenance {
        for change in &self.rules_changed {
            let key = format!("rules.{}", change.field);
            if !reads(&change.field) && !self.unread.iter().any(|(k, _)| *k == key) {
                self.unread.push((key, "a rule field this scenario does not read at these settings".to_string()));
            }
        }
        self
    }

    /// The record as (label, value) lines, the same in every format.
    pub fn lines(&self) -> Vec<(&'static str, String)> {
        let pairs = |pairs: &[(String, String)]| {
            if pairs.is_empty() {
                "none".to_string()
            } else {
                pairs.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(", ")
            }
        };
        let rules = if self.rules_changed.is_empty() {
            "the printed rules (no field changed)".to_string()
        } else {
            self.rules_changed
                .iter()
                .map(|c| format!("{}={} (printed {})", c.field, c.value, c.printed))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut lines = vec![
            ("ruleset", self.ruleset.clone()),
            ("scenario", self.scenario.clone()),
            (
                "keys set",
                if self.keys.is_empty() { "none (the scenario's defaults)".into() } else { pairs(&self.keys) },
            ),
        ];
        if !self.unread.is_empty() {
            let words: Vec<String> = self.unread.iter().map(|(k, why)| format!("{k} ({why})")).collect();
            lines.push(("not read here", words.join("; ")));
        }
        if let Some((name, meaning)) = &self.purpose {
            lines.push(("purpose", if meaning.is_empty() { name.clone() } else { format!("{name} ({meaning})") }));
        }
        if !self.policies.is_empty() {
            lines.push(("policies", pairs(&self.policies)));
        }
        if !self.played.is_empty() {
            lines.push(("played", self.played.join(", ")));
        }
        lines.push(("rules", rules));
        lines.push(("computed", self.computation_text()));
        lines.push(("confidence", format!("{}%", percent(self.confidence))));
        lines.push(("volley", VERSION.to_string()));
        lines
    }

    /// How the numbers were computed, in words.
    pub fn computation_text(&self) -> String {
        let sampled = |samples: u64, precision: Option<f64>, seed: u64| {
            let mut text = format!("Monte Carlo, {samples} samples per point, seed {seed}");
            if let Some(p) = precision {
                text.push_str(&format!(
                    " (in rounds until every {}% interval was within ±{p} or four rounds had run)",
                    percent(self.confidence)
                ));
            }
            text
        };
        match &self.computation {
            Computation::Exact => "exact (every number solved, no sampling)".to_string(),
            Computation::Sampled { samples, precision, seed } => sampled(*samples, *precision, *seed),
            Computation::SampledToPrecision { samples, precision, seed } => format!(
                "Monte Carlo, {samples} samples, seed {seed} (enough for every {}% interval to be within ±{precision})",
                percent(self.confidence)
            ),
            Computation::Searched { solving, first, samples, precision, seed } => {
                let sampled = match precision {
                    Some(p) => format!(
                        "Monte Carlo in rounds from {first} samples, four times more each round, until the {}% \
                         interval left the target out or was within ±{p}, seed {seed}",
                        percent(self.confidence)
                    ),
                    None => format!("Monte Carlo, {samples} samples a value, seed {seed}"),
                };
                match solving {
                    Solving::Always => "exact at every value".to_string(),
                    Solving::WhereQuick => format!("exact at every value where that is quick; elsewhere {sampled}"),
                    Solving::Never => sampled,
                }
            }
            Computation::ExactWherePossible { samples, precision, seed } => format!(
                "exact wherever the scenario's solver can (the data's `exact` column says which); otherwise {}",
                sampled(*samples, *precision, *seed)
            ),
            Computation::ExactWhereQuick { samples, precision, seed } => format!(
                "exact wherever the exact answer is quick (the data's `exact` column says which); otherwise {}",
                sampled(*samples, *precision, *seed)
            ),
        }
    }

    /// The record as one paragraph of a report's Method section.
    pub fn paragraph(&self) -> String {
        let body: Vec<String> = self.lines().into_iter().map(|(label, value)| format!("{label}: {value}")).collect();
        format!("{}.", body.join("; "))
    }
}

/// Every field of `rules` whose value differs from the ruleset's printed
/// rules; none for a ruleset the catalogue does not know.
pub fn rules_changed(ruleset: &str, rules: &dyn RuleBook) -> Vec<RuleChange> {
    let Ok(entry) = catalogue::ruleset(ruleset) else {
        return Vec::new();
    };
    let printed = (entry.default_rules)().fields();
    rules
        .fields()
        .into_iter()
        .filter_map(|field| {
            let default = printed.iter().find(|p| p.name == field.name)?;
            (default.default != field.default).then(|| RuleChange {
                field: field.name.clone(),
                value: field.default.to_string(),
                printed: default.default.to_string(),
            })
        })
        .collect()
}

/// A confidence level as a percentage without noise: 95, 99.9.
pub fn percent(confidence: f64) -> String {
    format!("{}", (confidence * 1000.0).round() / 10.0)
}
