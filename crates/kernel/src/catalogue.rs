//! The catalogue: every ruleset, its rules and its scenarios by name.
//!
//! The CLI and the analysis crate find scenarios here; a ruleset module adds
//! itself by returning a [`RulesetEntry`] from its `entry()` and being listed in
//! [`catalogue`].

use crate::params::{Param, ParamError, RuleBook, Settings, Value, nearest};
use crate::rulesets;
use crate::scenario::DynScenario;
use std::fmt;

/// Builds a scenario from rules and validated settings.
pub type Builder = fn(&dyn RuleBook, &Settings) -> Result<Box<dyn DynScenario>, ParamError>;

/// One scenario of a ruleset.
#[derive(Clone)]
pub struct ScenarioEntry {
    /// Its name on the command line.
    pub name: &'static str,
    /// One sentence on what it plays out.
    pub summary: &'static str,
    /// Its keys, with defaults.
    pub params: Vec<Param>,
    /// Its constructor.
    pub build: Builder,
}

impl fmt::Debug for ScenarioEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ScenarioEntry").field("name", &self.name).finish_non_exhaustive()
    }
}

impl ScenarioEntry {
    /// Builds the scenario from `key=value` texts.
    pub fn build_from_text<'a>(
        &self,
        rules: &dyn RuleBook,
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Box<dyn DynScenario>, ParamError> {
        (self.build)(rules, &Settings::parse(&self.params, pairs)?)
    }

    /// Builds the scenario from typed values.
    pub fn build_from_values<'a>(
        &self,
        rules: &dyn RuleBook,
        pairs: impl IntoIterator<Item = (&'a str, Value)>,
    ) -> Result<Box<dyn DynScenario>, ParamError> {
        (self.build)(rules, &Settings::from_values(&self.params, pairs)?)
    }
}

/// One ruleset.
#[derive(Clone, Debug)]
pub struct RulesetEntry {
    /// Its name on the command line.
    pub name: &'static str,
    /// Its title.
    pub title: &'static str,
    /// The rules it follows, by title and edition (volley ships no rules text).
    pub source: &'static str,
    /// Its rules at their printed values.
    pub default_rules: fn() -> Box<dyn RuleBook>,
    /// Its scenarios.
    pub scenarios: Vec<ScenarioEntry>,
}

impl RulesetEntry {
    /// A scenario by name.
    pub fn scenario(&self, name: &str) -> Result<&ScenarioEntry, CatalogueError> {
        self.scenarios.iter().find(|s| s.name == name).ok_or_else(|| CatalogueError::UnknownScenario {
            ruleset: self.name,
            name: name.to_string(),
            nearest: nearest(name, self.scenarios.iter().map(|s| s.name)),
            valid: self.scenarios.iter().map(|s| s.name).collect(),
        })
    }
}

/// A name the catalogue does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CatalogueError {
    /// No such ruleset.
    UnknownRuleset {
        /// The name given.
        name: String,
        /// The closest names.
        nearest: Vec<String>,
        /// Every ruleset.
        valid: Vec<&'static str>,
    },
    /// No such scenario in the ruleset.
    UnknownScenario {
        /// The ruleset.
        ruleset: &'static str,
        /// The name given.
        name: String,
        /// The closest names.
        nearest: Vec<String>,
        /// Every scenario of the ruleset.
        valid: Vec<&'static str>,
    },
}

impl fmt::Display for CatalogueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (what, name, nearest, valid) = match self {
            CatalogueError::UnknownRuleset { name, nearest, valid } => ("ruleset".to_string(), name, nearest, valid),
            CatalogueError::UnknownScenario { ruleset, name, nearest, valid } => {
                (format!("scenario of {ruleset}"), name, nearest, valid)
            }
        };
        write!(f, "unknown {what} `{name}`")?;
        if !nearest.is_empty() {
            write!(f, "; did you mean `{}`?", nearest.join("`, `"))?;
        }
        write!(f, " (valid: {})", valid.join(", "))
    }
}

impl std::error::Error for CatalogueError {}

/// Every ruleset, in the order the CLI lists them.
pub fn catalogue() -> Vec<RulesetEntry> {
    vec![
        rulesets::huzzah::entry(),
        rulesets::brigades::entry(),
        rulesets::one_hour::entry(),
        rulesets::hougoumont::entry(),
        rulesets::dice::entry(),
    ]
}

/// A ruleset by name.
pub fn ruleset(name: &str) -> Result<RulesetEntry, CatalogueError> {
    let all = catalogue();
    let valid: Vec<&'static str> = all.iter().map(|r| r.name).collect();
    all.into_iter().find(|r| r.name == name).ok_or_else(|| CatalogueError::UnknownRuleset {
        name: name.to_string(),
        nearest: nearest(name, valid.iter().copied()),
        valid,
    })
}
