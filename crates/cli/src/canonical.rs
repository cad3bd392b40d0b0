//! Canonical matchups: one description of a fight that each ruleset reads in
//! its own terms, so a spec states it once and runs it in all four.
//!
//! A spec sets `canonical.attacker.quality = "veteran"` (or sweeps it); each
//! ruleset's run receives the keys of its own quality ladder instead. The
//! default table is issue 8's, documented in docs/guide.md; a spec may override
//! any cell with `[quality_map.RULESET] CANONICAL = "value"` or, where a
//! ruleset needs two keys, `{ quality = "poor", conscript = true }`.

use std::collections::BTreeMap;

/// The six canonical qualities, best first.
pub const QUALITIES: [&str; 6] = ["elite", "veteran", "experienced", "average", "green", "raw"];

/// The prefix of canonical keys.
pub const PREFIX: &str = "canonical.";

/// One ruleset's reading of a canonical quality: (key suffix, value) pairs set
/// on a side, such as `quality = "b"`.
pub type Reading = Vec<(String, String)>;

fn reading(pairs: &[(&str, &str)]) -> Reading {
    pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

/// The default quality table: canonical -> per-ruleset keys of one side.
pub fn default_quality(ruleset: &str, canonical: &str) -> Option<Reading> {
    let index = QUALITIES.iter().position(|q| *q == canonical)?;
    let row: [Reading; 6] = match ruleset {
        // Huzzah! has no step above Veteran: elite and veteran both read Veteran.
        "huzzah" => [
            reading(&[("quality", "veteran")]),
            reading(&[("quality", "veteran")]),
            reading(&[("quality", "experienced")]),
            reading(&[("quality", "trained")]),
            reading(&[("quality", "green")]),
            reading(&[("quality", "raw")]),
        ],
        "brigades" => [
            reading(&[("quality", "a")]),
            reading(&[("quality", "b")]),
            reading(&[("quality", "c")]),
            reading(&[("quality", "d")]),
            reading(&[("quality", "e")]),
            reading(&[("quality", "f")]),
        ],
        // One Hour counts quality in hits; raw troops are Poor and conscripts.
        "one_hour" => [
            reading(&[("quality", "old_guard"), ("conscript", "false")]),
            reading(&[("quality", "excellent"), ("conscript", "false")]),
            reading(&[("quality", "excellent"), ("conscript", "false")]),
            reading(&[("quality", "good"), ("conscript", "false")]),
            reading(&[("quality", "poor"), ("conscript", "false")]),
            reading(&[("quality", "poor"), ("conscript", "true")]),
        ],
        "hougoumont" => [
            reading(&[("quality", "elite")]),
            reading(&[("quality", "veteran")]),
            reading(&[("quality", "experienced")]),
            reading(&[("quality", "experienced")]),
            reading(&[("quality", "inexperienced")]),
            reading(&[("quality", "inexperienced")]),
        ],
        _ => return None,
    };
    Some(row[index].clone())
}

/// The canonical formations of a unit receiving cavalry.
pub const FORMATIONS: [&str; 2] = ["line", "square"];

/// The default formation table: canonical -> per-ruleset keys of one side.
/// Hougoumont 1815 has no squares, so it has no reading.
pub fn default_formation(ruleset: &str, canonical: &str) -> Option<Reading> {
    let square = match canonical {
        "line" => false,
        "square" => true,
        _ => return None,
    };
    match ruleset {
        "huzzah" | "one_hour" => Some(reading(&[("square", if square { "true" } else { "false" })])),
        "brigades" => Some(reading(&[("formation", canonical)])),
        _ => None,
    }
}

/// Overrides of the quality table from a spec: ruleset -> canonical -> reading.
pub type QualityOverrides = BTreeMap<String, BTreeMap<String, Reading>>;

/// Translates one key and value into the ruleset's own keys. Keys without the
/// `canonical.` prefix pass through unchanged.
pub fn expand(ruleset: &str, key: &str, value: &str, overrides: &QualityOverrides) -> Result<Reading, String> {
    let Some(rest) = key.strip_prefix(PREFIX) else {
        return Ok(vec![(key.to_string(), value.to_string())]);
    };
    let Some((side, what)) = rest.split_once('.') else {
        return Err(format!("canonical key `{key}` must be canonical.SIDE.quality or canonical.SIDE.formation"));
    };
    if side != "attacker" && side != "defender" {
        return Err(format!("canonical key `{key}`: the side must be attacker or defender, not `{side}`"));
    }
    let mapped = match what {
        "quality" => {
            if !QUALITIES.contains(&value) {
                return Err(format!("`{key}` cannot be `{value}`: expected one of {}", QUALITIES.join(", ")));
            }
            overrides
                .get(ruleset)
                .and_then(|m| m.get(value).cloned())
                .or_else(|| default_quality(ruleset, value))
                .ok_or_else(|| {
                    format!("ruleset `{ruleset}` has no canonical quality table; give one with [quality_map.{ruleset}]")
                })?
        }
        "formation" => {
            if !FORMATIONS.contains(&value) {
                return Err(format!("`{key}` cannot be `{value}`: expected one of {}", FORMATIONS.join(", ")));
            }
            default_formation(ruleset, value)
                .ok_or_else(|| format!("ruleset `{ruleset}` has no canonical formation `{value}` (no squares)"))?
        }
        _ => {
            return Err(format!("canonical key `{key}`: the canonical keys are SIDE.quality and SIDE.formation"));
        }
    };
    Ok(mapped.into_iter().map(|(suffix, v)| (format!("{side}.{suffix}"), v)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_quality_reads_as_each_rulesets_own_keys() {
        let none = QualityOverrides::new();
        assert_eq!(
            expand("brigades", "canonical.attacker.quality", "veteran", &none).unwrap(),
            reading(&[("attacker.quality", "b")])
        );
        assert_eq!(
            expand("one_hour", "canonical.defender.quality", "raw", &none).unwrap(),
            reading(&[("defender.quality", "poor"), ("defender.conscript", "true")])
        );
        assert_eq!(
            expand("huzzah", "canonical.attacker.quality", "elite", &none).unwrap(),
            reading(&[("attacker.quality", "veteran")])
        );
        assert_eq!(expand("huzzah", "range", "3", &none).unwrap(), reading(&[("range", "3")]));
        assert!(
            expand("huzzah", "canonical.attacker.quality", "superb", &none)
                .unwrap_err()
                .contains("expected one of elite")
        );
        let mut overrides = QualityOverrides::new();
        overrides.entry("huzzah".into()).or_default().insert("elite".into(), reading(&[("quality", "experienced")]));
        assert_eq!(
            expand("huzzah", "canonical.attacker.quality", "elite", &overrides).unwrap(),
            reading(&[("attacker.quality", "experienced")])
        );
    }
}
