//! `volley list [RULESET [SCENARIO]]`: what there is to run, its keys and metrics.

use super::find_ruleset;
use crate::error::bad_input;
use volley_kernel::catalogue::{RulesetEntry, ScenarioEntry, catalogue};
use volley_kernel::outcome::Domain;
use volley_kernel::params::{ParamKind, RuleBook, Value};

/// The most values of one integer key probed for an exact solver.
const MAX_PROBES: i64 = 400;

/// Prints the catalogue, a ruleset, or one scenario.
pub fn run(ruleset: Option<&str>, scenario: Option<&str>) -> anyhow::Result<()> {
    match (ruleset, scenario) {
        (None, _) => {
            for entry in catalogue() {
                println!("{}  {}  ({})", entry.name, entry.title, entry.source);
                for s in &entry.scenarios {
                    println!("    {:<16} {}", s.name, s.summary);
                }
                println!();
            }
            println!("`volley list RULESET` shows each scenario's keys and metrics.");
        }
        (Some(name), None) => {
            let entry = find_ruleset(name)?;
            println!("{}  {}  ({})\n", entry.name, entry.title, entry.source);
            for s in &entry.scenarios {
                print!("{}", describe(&entry, s)?);
            }
        }
        (Some(name), Some(scenario)) => {
            let entry = find_ruleset(name)?;
            let s = entry.scenario(scenario).map_err(|e| bad_input(e.to_string()))?;
            print!("{}", describe(&entry, s)?);
        }
    }
    Ok(())
}

/// One scenario's keys (with defaults and what they accept) and metrics.
fn describe(ruleset: &RulesetEntry, scenario: &ScenarioEntry) -> anyhow::Result<String> {
    let rules = (ruleset.default_rules)();
    let built = scenario
        .build_from_text(rules.as_ref(), [])
        .map_err(|e| anyhow::anyhow!("{} {} does not build at its defaults: {e}", ruleset.name, scenario.name))?;
    let coverage = exact_coverage(rules.as_ref(), scenario, built.has_exact());
    let exact = match (built.has_exact(), coverage.is_empty()) {
        (true, _) => "exact and Monte Carlo",
        (false, true) => "Monte Carlo only",
        (false, false) => "Monte Carlo at the defaults; exact for some settings",
    };
    let mut out = format!("{} {}: {} ({exact})\n", ruleset.name, scenario.name, scenario.summary);
    if !coverage.is_empty() {
        let verb = if built.has_exact() { "no exact solver when" } else { "exact when" };
        out.push_str(&format!("  {verb} (one key changed from the defaults): {}\n", coverage.join("; ")));
    }
    out.push_str("  keys:\n");
    if scenario.params.is_empty() {
        out.push_str("    (none)\n");
    }
    for p in &scenario.params {
        out.push_str(&format!(
            "    {:<24} default {:<10} {}; {}\n",
            p.name,
            p.default.to_string(),
            p.doc,
            p.kind.describe()
        ));
    }
    out.push_str("  metrics:\n");
    for m in built.metrics() {
        let values = match m.domain {
            Domain::Bool => "true/false".to_string(),
            Domain::Categories(labels) => labels.join("/"),
            Domain::Integer { min, max } => format!("{min}..{max}"),
        };
        out.push_str(&format!("    {:<24} {:<24} {}\n", m.name, values, m.doc));
    }
    // Decisions and play: who chooses what, and how (DESIGN, "Decisions and play").
    if !built.decisions().is_empty() {
        // The sides whose policy the scenario takes as a key: a side with
        // no key takes no decision (the enemy of a command reorganising).
        let sides: Vec<(usize, &str)> = [(0, "attacker"), (1, "defender")]
            .into_iter()
            .filter(|(_, side)| scenario.params.iter().any(|p| p.name == format!("{side}.policy")))
            .collect();
        let keys: Vec<String> = sides.iter().map(|(_, side)| format!("{side}.policy")).collect();
        let whose = if sides.len() == 1 { "its player's policy" } else { "each side's policy" };
        out.push_str(&format!("  decisions (made by {whose}: {}):\n", keys.join(", ")));
        for d in built.decisions() {
            out.push_str(&format!("    {:<24} {:<24} {}; options: {}\n", d.name, d.who, d.doc, d.options));
        }
        if let Some(policies) = built.policies() {
            let play: Vec<String> = sides.iter().map(|&(i, side)| format!("{side} {}", policies[i])).collect();
            out.push_str(&format!("  default play: {}\n", play.join(", ")));
        }
    }
    out.push('\n');
    Ok(out)
}

/// Where the exact solver's answer differs from the defaults' when one key is
/// changed: `turns 21-60` under a scenario exact at its defaults means no
/// solver there. Each key is probed over its values (an integer key over its
/// whole range, or up to [`MAX_PROBES`] evenly spaced values of it), which is
/// cheap because a scenario knows whether it can solve without solving.
pub fn exact_coverage(rules: &dyn RuleBook, scenario: &ScenarioEntry, at_defaults: bool) -> Vec<String> {
    let mut found = Vec::new();
    for param in &scenario.params {
        let values: Vec<Value> = match &param.kind {
            ParamKind::Int { min, max } => {
                let step = ((max - min) / MAX_PROBES).max(1);
                let mut values: Vec<i64> = (*min..=*max).step_by(step as usize).collect();
                if values.last() != Some(max) {
                    values.push(*max);
                }
                values.into_iter().map(Value::Int).collect()
            }
            ParamKind::Bool => vec![Value::Bool(false), Value::Bool(true)],
            ParamKind::Choice(names) => names.iter().map(|n| Value::Choice(n.to_string())).collect(),
            ParamKind::Dice => Vec::new(),
        };
        let differs: Vec<Value> = values
            .into_iter()
            .filter(|value| {
                scenario
                    .build_from_values(rules, [(param.name.as_str(), value.clone())])
                    .is_ok_and(|built| built.has_exact() != at_defaults)
            })
            .collect();
        if !differs.is_empty() {
            found.push(format!("{} {}", param.name, describe_values(&differs)));
        }
    }
    found
}

/// Values as text, runs of consecutive integers as ranges: `21-60, 80`.
fn describe_values(values: &[Value]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut run: Option<(i64, i64)> = None;
    let flush = |run: &mut Option<(i64, i64)>, parts: &mut Vec<String>| {
        if let Some((a, b)) = run.take() {
            parts.push(if a == b { a.to_string() } else { format!("{a}-{b}") });
        }
    };
    for value in values {
        match (value, run) {
            (Value::Int(v), Some((a, b))) if *v == b + 1 => run = Some((a, *v)),
            (Value::Int(v), _) => {
                flush(&mut run, &mut parts);
                run = Some((*v, *v));
            }
            (other, _) => {
                flush(&mut run, &mut parts);
                parts.push(other.to_string());
            }
        }
    }
    flush(&mut run, &mut parts);
    parts.join(", ")
}
