//! Analysis specs: the TOML files in analyses/ that `volley run` and `volley
//! report` execute. Parsing keeps every value's position, so a mistake is
//! reported with its file, line and column.
//!
//! ```toml
//! title = "Quality ladder"
//! question = "How often does each quality beat each other?"
//! analysis = "ladder"   # distribution, ladder, sweep, equivalence (or even), sensitivity, convergence, points
//! precision = 0.005     # or: samples = 100000 (per point)
//! seed = 1
//! exact = true          # solve exactly wherever the scenario can; false: sample
//!                       # (unset: exact wherever that is quick, sampled elsewhere)
//!
//! [[run]]
//! ruleset = "huzzah"
//! scenario = "engagement"
//! set = { "attacker.arm" = "infantry" }
//!
//! [rules.huzzah]        # the same TOML `volley rules huzzah` prints
//! engagement_huzzah_kills = 1
//! ```
//!
//! A run may also carry its own `rules = { ... }`, applied over the spec's
//! `[rules.RULESET]` for that run alone.

use crate::error::bad_input;
use crate::rules_file::line_column;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;
use toml::Spanned;

/// What kind of analysis a spec asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AnalysisKind {
    /// One scenario's outcome distribution (per run), with the exact solver's
    /// agreement where there is one.
    Distribution,
    /// Win probability over every pair of qualities.
    Ladder,
    /// A measure over the values of one key, one line per run.
    Sweep,
    /// What makes it even: the value of one key (or rule field) at which
    /// the measure crosses a target, and with `by`, that value against each
    /// value of another key (`even` is the same analysis).
    #[serde(alias = "even")]
    Equivalence,
    /// Every integer rule number moved a step each way, ranked by effect.
    Sensitivity,
    /// An estimate as samples grow.
    Convergence,
    /// Points from play: every kind (a quality, a size) attacks every kind,
    /// and one strength per kind is fitted (Bradley-Terry with draws).
    Points,
}

/// A whole spec file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spec {
    /// The report's title.
    pub title: String,
    /// The question it answers, in one sentence.
    pub question: String,
    /// The analysis.
    pub analysis: AnalysisKind,
    /// Samples per point (a spec gives this or `precision`, not both).
    pub samples: Option<Spanned<u64>>,
    /// Run in rounds until every reported probability's interval half-width
    /// is at most this.
    pub precision: Option<Spanned<f64>>,
    /// The seed of every run.
    pub seed: Option<u64>,
    /// `true`: solve every point exactly where its scenario has an exact
    /// solver (playsheets), sampling only the others; `false`: sample every
    /// point; unset: exact wherever the exact answer is quick.
    #[serde(default)]
    pub exact: Option<bool>,
    /// The confidence level of every interval (default 0.95).
    pub confidence: Option<Spanned<f64>>,
    /// What to measure, as `metric=value` (a probability) or `mean:metric`.
    pub measure: Option<Spanned<String>>,
    /// For `equivalence`: the measure's value sought in every run (default:
    /// even odds, 0.5, for a probability; a run's own `target` wins).
    pub target: Option<Spanned<f64>>,
    /// For `sweep`: the x axis's title (default: the key).
    pub x_label: Option<String>,
    /// For `sweep`: the y axis's title (default: the measure).
    pub y_label: Option<String>,
    /// For `sweep`: what its grid's rows are, one per run (`grade`,
    /// `quality`; default `run`), printed in the grid's corner.
    pub rows: Option<String>,
    /// The runs: one per ruleset in a comparison.
    #[serde(rename = "run")]
    pub runs: Vec<RunSpec>,
    /// Rule overrides per ruleset.
    #[serde(default)]
    pub rules: BTreeMap<String, Spanned<BTreeMap<String, Spanned<toml::Value>>>>,
    /// Overrides of the canonical quality table per ruleset: `CANONICAL =
    /// "quality"` or `CANONICAL = { key = value, ... }`.
    #[serde(default)]
    pub quality_map: BTreeMap<String, Spanned<BTreeMap<String, Spanned<toml::Value>>>>,
    /// Which question of the index the report answers (`quality`, `balance`
    /// or `playsheet`; default: by the analysis).
    pub group: Option<Spanned<String>>,
    /// For a playsheet: the rules' section a player reads beside the table,
    /// printed under it.
    pub rule: Option<String>,
    /// The most A4 pages its `report.html` may print on (default: by the
    /// analysis and its number of runs, see [`Spec::page_limit`]); the print
    /// test holds every shipped report to it.
    pub pages: Option<Spanned<usize>>,
}

impl Spec {
    /// The most A4 pages its report may print on: `pages` if given, else a
    /// page for the title and finding and, per run, what its analysis
    /// needs (a sweep draws every run on one chart).
    pub fn page_limit(&self) -> usize {
        if let Some(pages) = &self.pages {
            return *pages.get_ref();
        }
        let runs = self.runs.len().max(1);
        match self.analysis {
            AnalysisKind::Sweep => 3,
            AnalysisKind::Distribution | AnalysisKind::Ladder | AnalysisKind::Equivalence => 1 + 2 * runs,
            AnalysisKind::Convergence => 1 + runs,
            AnalysisKind::Sensitivity => 1 + 3 * runs,
            AnalysisKind::Points => 1 + 2 * runs,
        }
    }
}

/// One scenario run of a spec.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunSpec {
    /// The ruleset.
    pub ruleset: Spanned<String>,
    /// The scenario.
    pub scenario: Spanned<String>,
    /// A label for charts and tables (default: the ruleset).
    pub label: Option<String>,
    /// Keys held fixed; `canonical.*` keys are translated per ruleset.
    #[serde(default)]
    pub set: BTreeMap<String, Spanned<toml::Value>>,
    /// For `sweep` and `equivalence`: the key to vary; for `points`, the
    /// side-less key whose values are the kinds (`quality` sets
    /// `attacker.quality` and `defender.quality`; default `quality`).
    pub key: Option<Spanned<String>>,
    /// For `sweep`: the values, as a list, or `{ from, to, step }`; for
    /// `points`, the kinds (default: every value of a choice key).
    pub values: Option<Spanned<Values>>,
    /// For `equivalence`: the range to search, `[from, to]` (integers, or a
    /// choice's names; default: the key's whole range).
    pub range: Option<Spanned<Vec<toml::Value>>>,
    /// For `equivalence`: the measure's value sought (default: even odds,
    /// 0.5, for a probability).
    pub target: Option<Spanned<f64>>,
    /// For `equivalence`: a second key; the search is run at each of its
    /// values (`by_values`, default all of them) and drawn as a curve.
    pub by: Option<Spanned<String>>,
    /// For `equivalence` with `by`: the second key's values.
    pub by_values: Option<Spanned<Vec<toml::Value>>>,
    /// For `ladder`: the qualities, best first (default: all of them).
    pub qualities: Option<Spanned<Vec<String>>>,
    /// This run's measure, when it differs from the spec's (a scenario with
    /// `result` rather than `winner`, say).
    pub measure: Option<Spanned<String>>,
    /// For `sweep`: where each value sits on a shared numeric x axis (range
    /// as a fraction of the weapon's longest, say), one per value.
    pub x: Option<Spanned<Vec<f64>>>,
    /// For `sweep`: a factor on the measure (100 / a standard unit's
    /// strength turns hits into percent of a unit).
    pub y_scale: Option<f64>,
    /// Rule overrides for this run only, applied over the spec's
    /// `[rules.RULESET]`: two runs of one ruleset with an optional rule off
    /// and on compare the rule in play.
    #[serde(default)]
    pub rules: BTreeMap<String, Spanned<toml::Value>>,
}

impl Spec {
    /// The index's question this spec answers: its `group`, else playsheets
    /// for `playsheet-*` specs, rule balance for a sensitivity analysis and
    /// troop quality otherwise.
    pub fn group(&self, stem: &str) -> &str {
        match &self.group {
            Some(group) => group.get_ref(),
            None if stem.starts_with("playsheet") => "playsheet",
            None if matches!(self.analysis, AnalysisKind::Sensitivity | AnalysisKind::Points) => "balance",
            None => "quality",
        }
    }
}

impl RunSpec {
    /// The run's name in tables, charts and data: its label, else its ruleset.
    pub fn label_or_ruleset(&self) -> String {
        self.label.clone().unwrap_or_else(|| self.ruleset.get_ref().clone())
    }
}

/// The questions the index groups its reports under: (name in a spec, heading).
pub const GROUPS: [(&str, &str); 3] = [
    ("quality", "Troop quality: what does a grade, a battalion or a formation buy?"),
    ("balance", "Rule balance: which rules and readings move the result?"),
    ("playsheet", "Playsheets: the odds to print and keep beside the table"),
];

/// Sweep values: a list or an integer range.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum Values {
    /// Listed values.
    List(Vec<toml::Value>),
    /// `from..=to` in steps.
    Range {
        /// The first value.
        from: i64,
        /// The last value.
        to: i64,
        /// The step (default 1).
        step: Option<i64>,
    },
}

impl Values {
    /// The values as the texts `--set` would take.
    pub fn texts(&self) -> Result<Vec<String>, String> {
        match self {
            Values::List(list) => list.iter().map(value_text).collect(),
            Values::Range { from, to, step } => {
                let step = step.unwrap_or(1);
                if step <= 0 || from > to {
                    return Err(format!("range {from} to {to} in steps of {step} is empty; from <= to and step >= 1"));
                }
                Ok((*from..=*to).step_by(step as usize).map(|v| v.to_string()).collect())
            }
        }
    }
}

/// A TOML scalar as the text a key takes.
pub fn value_text(value: &toml::Value) -> Result<String, String> {
    match value {
        toml::Value::String(s) => Ok(s.clone()),
        toml::Value::Integer(i) => Ok(i.to_string()),
        toml::Value::Boolean(b) => Ok(b.to_string()),
        other => Err(format!("expected a string, integer or boolean, found {}", other.type_str())),
    }
}

/// A spec and where it came from, for messages.
#[derive(Clone, Debug)]
pub struct LoadedSpec {
    /// The parsed spec.
    pub spec: Spec,
    /// The file's text.
    pub text: String,
    /// The file's name as given.
    pub origin: String,
    /// The file's stem: the report folder's name.
    pub stem: String,
}

impl LoadedSpec {
    /// `file:line:column` of a byte offset.
    pub fn at(&self, offset: usize) -> String {
        let (line, column) = line_column(&self.text, offset);
        format!("{}:{line}:{column}", self.origin)
    }

    /// Bad input located at a span.
    pub fn error_at(&self, span: std::ops::Range<usize>, message: impl std::fmt::Display) -> anyhow::Error {
        bad_input(format!("{}: {message}", self.at(span.start)))
    }
}

/// Reads and parses a spec file.
pub fn load(path: &Path) -> anyhow::Result<LoadedSpec> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| bad_input(format!("cannot read analysis spec {}: {e}", path.display())))?;
    let origin = path.display().to_string();
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("analysis").to_string();
    parse(text, origin, stem)
}

/// A TOML type error in a designer's words: "invalid type: string
/// \"many\", expected u64" reads "got the text \"many\", expected a whole
/// number such as 100000".
pub fn plain_type_words(message: &str) -> String {
    let mut text = message.to_string();
    for (from, to) in [
        ("invalid type: string ", "got the text "),
        ("invalid type: integer ", "got the whole number "),
        ("invalid type: floating point ", "got the number "),
        ("invalid type: boolean ", "got "),
        ("invalid type: sequence", "got a list"),
        ("invalid type: map", "got a table"),
        ("expected u64", "expected a whole number such as 100000"),
        ("expected u32", "expected a whole number"),
        ("expected i64", "expected a whole number"),
        ("expected i32", "expected a whole number"),
        ("expected f64", "expected a number such as 0.005"),
        ("expected a string", "expected text in quotes"),
    ] {
        text = text.replace(from, to);
    }
    text
}

/// Parses spec text.
pub fn parse(text: String, origin: String, stem: String) -> anyhow::Result<LoadedSpec> {
    let spec: Spec = toml::from_str(&text).map_err(|e| {
        let place = e.span().map(|s| line_column(&text, s.start)).map(|(l, c)| format!(":{l}:{c}")).unwrap_or_default();
        // The key on the value's line, where the message is about a value.
        let key = e
            .span()
            .and_then(|s| text[..s.start].rsplit('\n').next())
            .and_then(|line| line.split_once('=').map(|(k, _)| k.trim().trim_matches('"').to_string()))
            .filter(|k| !k.is_empty() && !k.contains(['[', '{', ',']))
            .map_or(String::new(), |k| format!("{k}: "));
        bad_input(format!("{origin}{place}: {key}{}", plain_type_words(e.message().trim())))
    })?;
    let loaded = LoadedSpec { spec, text, origin, stem };
    if loaded.spec.runs.is_empty() {
        return Err(bad_input(format!("{}: a spec needs at least one [[run]]", loaded.origin)));
    }
    if let Some(p) = &loaded.spec.precision
        && !(*p.get_ref() > 0.0 && *p.get_ref() < 0.5)
    {
        return Err(loaded.error_at(p.span(), "precision must be above 0 and below 0.5, such as 0.005"));
    }
    if let Some(c) = &loaded.spec.confidence
        && !(*c.get_ref() > 0.0 && *c.get_ref() < 1.0)
    {
        return Err(loaded.error_at(c.span(), "confidence must be between 0 and 1, such as 0.95"));
    }
    if let Some(s) = &loaded.spec.samples
        && *s.get_ref() == 0
    {
        return Err(loaded.error_at(s.span(), "samples must be at least 1"));
    }
    if let Some(p) = &loaded.spec.pages
        && *p.get_ref() == 0
    {
        return Err(loaded.error_at(p.span(), "pages must be at least 1 (the most A4 pages the report may print on)"));
    }
    if let (Some(s), Some(_)) = (&loaded.spec.samples, &loaded.spec.precision) {
        return Err(loaded.error_at(
            s.span(),
            "give `samples` (a fixed count per point) or `precision` (rounds until every interval is that narrow), not both",
        ));
    }
    if let Some(group) = &loaded.spec.group
        && !GROUPS.iter().any(|(name, _)| name == group.get_ref())
    {
        let names: Vec<&str> = GROUPS.iter().map(|(name, _)| *name).collect();
        return Err(
            loaded.error_at(group.span(), format!("group `{}`: expected one of {}", group.get_ref(), names.join(", ")))
        );
    }
    let mut labels: BTreeMap<String, &RunSpec> = BTreeMap::new();
    for run in &loaded.spec.runs {
        let label = run.label_or_ruleset();
        if let Some(first) = labels.insert(label.clone(), run) {
            let (line, _) = line_column(&loaded.text, first.ruleset.span().start);
            return Err(loaded.error_at(
                run.ruleset.span(),
                format!(
                    "two runs are labelled `{label}` (the other is at line {line}); give each [[run]] its own `label`, \
                     which names it in tables, charts and data.csv"
                ),
            ));
        }
        if let Some(values) = &run.values
            && matches!(values.get_ref(), Values::List(list) if list.is_empty())
        {
            return Err(loaded.error_at(values.span(), "`values` is empty: list at least one value to sweep"));
        }
        if let Some(qualities) = &run.qualities
            && qualities.get_ref().is_empty()
        {
            return Err(loaded.error_at(
                qualities.span(),
                "`qualities` is empty: list at least one quality, or leave it out for all of them",
            ));
        }
    }
    Ok(loaded)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_text(text: &str) -> anyhow::Result<LoadedSpec> {
        parse(text.to_string(), "a.toml".into(), "a".into())
    }

    #[test]
    fn a_full_spec_parses() {
        let spec = parse_text(
            "title = \"t\"\nquestion = \"q\"\nanalysis = \"sweep\"\nsamples = 1000\n\
             [[run]]\nruleset = \"dice\"\nscenario = \"at_least\"\nkey = \"target\"\n\
             values = { from = 1, to = 6, step = 2 }\nset = { dice = \"3d6\" }\n",
        )
        .unwrap();
        assert_eq!(spec.spec.analysis, AnalysisKind::Sweep);
        let values = spec.spec.runs[0].values.as_ref().unwrap().get_ref().texts().unwrap();
        assert_eq!(values, ["1", "3", "5"]);
    }

    #[test]
    fn mistakes_name_file_line_and_column() {
        let e = parse_text(
            "title = \"t\"\nquestion = \"q\"\nanalysis = \"ladderr\"\n[[run]]\nruleset=\"dice\"\nscenario=\"sum\"\n",
        )
        .unwrap_err();
        assert!(e.to_string().starts_with("a.toml:3:12: analysis: unknown variant `ladderr`"), "{e}");
        // A value of the wrong type, in a designer's words, naming the key.
        let e = parse_text(
            "title = \"t\"\nquestion = \"q\"\nanalysis = \"ladder\"\nsamples = \"many\"\n[[run]]\nruleset=\"dice\"\nscenario=\"sum\"\n",
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "a.toml:4:11: samples: got the text \"many\", expected a whole number such as 100000"
        );
        let e = parse_text("title = \"t\"\nquestion = \"q\"\nanalysis = \"ladder\"\nsampels = 3\n[[run]]\nruleset=\"dice\"\nscenario=\"sum\"\n")
            .unwrap_err();
        assert!(e.to_string().starts_with("a.toml:4:1: unknown field `sampels`"), "{e}");
        let e = parse_text("title = \"t\"\nquestion = \"q\"\nanalysis = \"ladder\"\nprecision = 2.0\n[[run]]\nruleset=\"dice\"\nscenario=\"sum\"\n")
            .unwrap_err();
        assert_eq!(e.to_string(), "a.toml:4:13: precision must be above 0 and below 0.5, such as 0.005");
        let e = parse_text("title = \"t\"\nquestion = \"q\"\nanalysis = \"ladder\"\nrun = []\n").unwrap_err();
        assert_eq!(e.to_string(), "a.toml: a spec needs at least one [[run]]");
    }
}
