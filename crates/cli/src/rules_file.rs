//! Rule overrides from TOML: the format `volley rules` prints, one table per
//! ruleset. Errors name the file, line, column and key.

use crate::error::bad_input;
use std::collections::BTreeMap;
use std::path::Path;
use toml::Spanned;
use volley_kernel::catalogue;
use volley_kernel::params::{RuleBook, Value};

type Tables = BTreeMap<String, Spanned<toml::Value>>;

/// Applies the `[ruleset]` table of a TOML file to a rule book. Anything else
/// in the file is refused rather than ignored: a spec's `[rules.RULESET]`
/// form, another ruleset's table, or keys outside any table would otherwise
/// leave the printed rules in force while the user believes they changed.
pub fn apply(path: &Path, ruleset: &str, book: &mut dyn RuleBook) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| bad_input(format!("cannot read rules file {}: {e}", path.display())))?;
    apply_text(&text, &path.display().to_string(), ruleset, book)
}

/// Applies overrides given as TOML text; `origin` names it in messages.
pub fn apply_text(text: &str, origin: &str, ruleset: &str, book: &mut dyn RuleBook) -> anyhow::Result<()> {
    let tables: Tables = toml::from_str(text).map_err(|e| {
        let place = e.span().map(|s| line_column(text, s.start)).map(|(l, c)| format!(":{l}:{c}")).unwrap_or_default();
        bad_input(format!("{origin}{place}: {}", e.message().trim()))
    })?;
    let expected =
        format!("a rules file for {ruleset} holds one table, [{ruleset}], as `volley rules {ruleset}` prints");
    let mut table = None;
    for (name, value) in &tables {
        let (line, column) = line_column(text, value.span().start);
        let at = format!("{origin}:{line}:{column}");
        match (name.as_str(), value.get_ref()) {
            (name, toml::Value::Table(inner)) if name == ruleset => table = Some(inner),
            ("rules", toml::Value::Table(inner)) => {
                let found: Vec<String> = inner.keys().map(|k| format!("[rules.{k}]")).collect();
                return Err(bad_input(format!(
                    "{at}: {} is the form an analysis spec takes; {expected} (write [{ruleset}] instead)",
                    found.join(", ")
                )));
            }
            (name, toml::Value::Table(_)) => {
                let what = if catalogue::ruleset(name).is_ok() {
                    format!("[{name}] is the rules of another ruleset")
                } else {
                    format!("unknown table [{name}]")
                };
                return Err(bad_input(format!("{at}: {what}; {expected}")));
            }
            (name, _) => {
                return Err(bad_input(format!(
                    "{at}: `{name}` is outside any table; {expected} (put `{name}` under [{ruleset}])"
                )));
            }
        }
    }
    let Some(table) = table else {
        return Err(bad_input(format!("{origin}: no [{ruleset}] table; {expected}")));
    };
    // Positions of the table's keys come from a second, spanned reading.
    let spanned: BTreeMap<String, Spanned<BTreeMap<String, Spanned<toml::Value>>>> =
        toml::from_str(text).map_err(|e| bad_input(format!("{origin}: {}", e.message().trim())))?;
    let spanned = spanned.get(ruleset).map(|t| t.get_ref());
    for key in table.keys() {
        let value = spanned.and_then(|t| t.get(key)).expect("the same table read twice");
        let (line, column) = line_column(text, value.span().start);
        let at = format!("{origin}:{line}:{column}: [{ruleset}] {key}");
        let converted = convert(value.get_ref()).map_err(|why| bad_input(format!("{at}: {why}")))?;
        book.set(key, &converted).map_err(|e| bad_input(format!("{origin}:{line}:{column}: [{ruleset}] {e}")))?;
    }
    Ok(())
}

/// A TOML value as a rule value: integers, booleans and choice names.
pub fn convert(value: &toml::Value) -> Result<Value, String> {
    match value {
        toml::Value::Integer(v) => Ok(Value::Int(*v)),
        toml::Value::Boolean(v) => Ok(Value::Bool(*v)),
        toml::Value::String(v) => Ok(Value::Choice(v.to_ascii_lowercase())),
        other => Err(format!("expected an integer, true/false or a quoted name, found {}", other.type_str())),
    }
}

/// The 1-based line and column of a byte offset.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    volley_kernel::rule_book! {
        /// Rules to test overrides with.
        pub struct TestRules {
            /// A number.
            pub limit: u32 = 11, range 2..=13;
            /// A switch.
            pub enabled: bool = false;
        }
    }

    #[test]
    fn overrides_apply_from_the_rulesets_own_table() {
        let mut rules = TestRules::default();
        apply_text("[mine]\nlimit = 12\nenabled = true\n", "f.toml", "mine", &mut rules).unwrap();
        assert_eq!((rules.limit, rules.enabled), (12, true));
    }

    #[test]
    fn anything_but_the_rulesets_own_table_is_refused() {
        let cases = [
            ("[rules.mine]\nlimit = 3\n", "f.toml:1:2: [rules.mine] is the form an analysis spec takes"),
            ("[huzzah]\nlimit = 3\n[mine]\nlimit = 4\n", "f.toml:1:1: [huzzah] is the rules of another ruleset"),
            ("[mine]\nlimit = 3\n[extra]\n", "f.toml:3:1: unknown table [extra]"),
            ("limit = 9\n", "f.toml:1:9: `limit` is outside any table"),
            ("", "f.toml: no [mine] table"),
        ];
        for (text, expected) in cases {
            let mut rules = TestRules::default();
            let e = apply_text(text, "f.toml", "mine", &mut rules).unwrap_err();
            assert!(e.to_string().starts_with(expected), "{text:?}: {e}");
            assert!(e.to_string().contains("[mine], as `volley rules mine` prints"), "{e}");
            assert_eq!(crate::error::exit_status(&e), 2);
        }
    }

    #[test]
    fn errors_name_file_line_column_and_key() {
        let mut rules = TestRules::default();
        let e = apply_text("[mine]\n\nlimit = 20\n", "f.toml", "mine", &mut rules).unwrap_err();
        assert_eq!(e.to_string(), "f.toml:3:9: [mine] `limit` = 20 is out of range: expected 2 to 13");
        let e = apply_text("[mine]\nlimt = 3\n", "f.toml", "mine", &mut rules).unwrap_err();
        assert!(e.to_string().starts_with("f.toml:2:8: [mine] unknown key `limt`; did you mean `limit`?"), "{e}");
        let e = apply_text("[mine]\nlimit = 2.5\n", "f.toml", "mine", &mut rules).unwrap_err();
        assert_eq!(
            e.to_string(),
            "f.toml:2:9: [mine] limit: expected an integer, true/false or a quoted name, found float"
        );
        let e = apply_text("[mine]\nlimit = = 3\n", "f.toml", "mine", &mut rules).unwrap_err();
        assert!(e.to_string().starts_with("f.toml:2:"), "{e}");
        assert_eq!(crate::error::exit_status(&e), 2);
    }
}
