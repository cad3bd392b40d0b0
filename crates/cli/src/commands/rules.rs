//! `volley rules RULESET`: every rule number and interpretation as TOML that
//! `--rules` accepts back.

use super::{find_ruleset, load_rules};
use std::path::Path;
use volley_kernel::params::{Param, Value};

/// Prints the rules of a ruleset.
pub fn run(ruleset: &str, overrides: Option<&Path>) -> anyhow::Result<()> {
    let entry = find_ruleset(ruleset)?;
    let book = load_rules(&entry, overrides)?;
    print!("{}", render(entry.title, entry.source, entry.name, &book.fields()));
    Ok(())
}

/// The TOML text of a rule book's fields.
pub fn render(title: &str, source: &str, name: &str, fields: &[Param]) -> String {
    let mut out = format!(
        "# {title}: every rule number and interpretation, at its current value.\n\
         # Source: {source}. Edit and pass back with --rules FILE.\n[{name}]\n"
    );
    if fields.is_empty() {
        out.push_str("# (no rule numbers)\n");
    }
    for field in fields {
        out.push('\n');
        for line in wrap(&field.doc, 78) {
            out.push_str(&format!("# {line}\n"));
        }
        out.push_str(&format!("# accepts {}\n", field.kind.describe()));
        out.push_str(&format!("{} = {}\n", field.name, toml_value(&field.default)));
    }
    out
}

fn toml_value(value: &Value) -> String {
    match value {
        Value::Choice(name) => format!("\"{name}\""),
        Value::Dice { .. } => format!("\"{value}\""),
        other => other.to_string(),
    }
}

fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}
