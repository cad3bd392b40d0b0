//! `volley list [RULESET [SCENARIO]]`: what there is to run, its keys and metrics.

use super::find_ruleset;
use crate::error::bad_input;
use volley_kernel::catalogue::{RulesetEntry, ScenarioEntry, catalogue};
use volley_kernel::outcome::Domain;

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
    let exact = if built.has_exact() { "exact and Monte Carlo" } else { "Monte Carlo only" };
    let mut out = format!("{} {}: {} ({exact})\n", ruleset.name, scenario.name, scenario.summary);
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
        out.push_str("  decisions (made by each side's policy: attacker.policy, defender.policy):\n");
        for d in built.decisions() {
            out.push_str(&format!("    {:<24} {:<24} {}; options: {}\n", d.name, d.who, d.doc, d.options));
        }
        if let Some(policies) = built.policies() {
            out.push_str(&format!("  default play: attacker {}, defender {}\n", policies[0], policies[1]));
        }
    }
    out.push('\n');
    Ok(out)
}
