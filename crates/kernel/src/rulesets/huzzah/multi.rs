//! One multiple-unit engagement ("Engage the enemy", Multiple unit
//! engagements): two to four units against one, or one against two to four,
//! resolved by [`resolve_multi`] over every roll of every unit, exactly. A
//! side's units are alike but for the quality of those after the first
//! (`support_quality`), so a Veteran battalion's support by Green ones can be
//! weighed.
//!
//! The rules break larger fights into one-on-one engagements first ("two
//! units against two always becomes two one-on-one engagements"), so a
//! multiple-unit engagement is always several units against one. Only each
//! roll's total matters (double one is the only 2), so the scenario is a
//! [`TotalTable`] of 11^units codes: 161,051 for four against one, where a
//! table of pairs would need 36^5 = 60 million.

use super::engagement::{Fate, Fighter, engagement_rating, resolve_multi};
use super::{Quality, Rules, TotalTable};
use crate::catalogue::ScenarioEntry;
use crate::outcome::{Metric, SIDES};
use crate::params::{Param, ParamError, RuleBook, Settings, rules_of};
use crate::scenario::DynScenario;

/// The most units on the larger side.
pub const MAX_UNITS: usize = 4;

/// The metrics of a multiple-unit engagement, in order; staggers and kills
/// are totals over the side's units. A unit takes at most its own failure's
/// kill and one for each enemy Huzzah!.
pub fn metrics(rules: &Rules, units: [usize; 2]) -> Vec<Metric> {
    let most = |side: usize| units[side] as i64;
    let kills = |side: usize| {
        most(side)
            * (i64::from(rules.engagement_failure_kills) + most(1 - side) * i64::from(rules.engagement_huzzah_kills))
    };
    vec![
        Metric::categories("result", "who won: attacker, defender or tie", SIDES),
        Metric::integer("attacker_staggers", "staggers the attacking units took, in all", 0, 12),
        Metric::integer("attacker_kills", "kills the attacking units took, in all", 0, kills(0)),
        Metric::integer("defender_staggers", "staggers the defending units took, in all", 0, 12),
        Metric::integer("defender_kills", "kills the defending units took, in all", 0, kills(1)),
        Metric::integer("attacker_routed", "attacking units that rout or break", 0, most(0)),
        Metric::integer("defender_routed", "defending units that rout or break", 0, most(1)),
        Metric::integer("attacker_broken", "attacking units that break", 0, most(0)),
        Metric::integer("defender_broken", "defending units that break", 0, most(1)),
    ]
}

crate::choice_enum! {
    /// The quality of a side's units after the first.
    pub enum Support {
        /// As the first unit: all alike.
        Same = "same",
        /// Veteran.
        Veteran = "veteran",
        /// Experienced.
        Experienced = "experienced",
        /// Trained.
        Trained = "trained",
        /// Green.
        Green = "green",
        /// Raw.
        Raw = "raw",
        /// Unreliable.
        Unreliable = "unreliable",
    }
}

impl Support {
    /// The supporting units' quality, given the first unit's.
    pub fn quality(self, first: Quality) -> Quality {
        match self {
            Support::Same => first,
            Support::Veteran => Quality::Veteran,
            Support::Experienced => Quality::Experienced,
            Support::Trained => Quality::Trained,
            Support::Green => Quality::Green,
            Support::Raw => Quality::Raw,
            Support::Unreliable => Quality::Unreliable,
        }
    }
}

/// A multiple-unit engagement: `units[0]` attackers against `units[1]`
/// defenders, one side with a single unit. A side's units after its first are
/// like it but of its `support` quality.
pub fn table(
    rules: &Rules,
    attacker: Fighter,
    defender: Fighter,
    units: [usize; 2],
    support: [Support; 2],
) -> Result<Box<dyn DynScenario>, ParamError> {
    attacker.validate(rules, "attacker")?;
    defender.validate(rules, "defender")?;
    for (side, key) in [(0, "attacker.units"), (1, "defender.units")] {
        if !(1..=MAX_UNITS).contains(&units[side]) {
            return Err(ParamError::Invalid {
                key: key.into(),
                reason: format!("{} is outside 1 to {MAX_UNITS} units", units[side]),
            });
        }
    }
    if units[0] > 1 && units[1] > 1 {
        return Err(ParamError::Invalid {
            key: "defender.units".into(),
            reason: "two units against two are two one-on-one engagements (Multiple unit engagements); \
                     give one side a single unit"
                .into(),
        });
    }
    // A side's units differ at most in quality, which no Up or Down compares,
    // so each takes its Ups and Downs against the other side's first unit,
    // as one-on-one.
    let first = [attacker, defender];
    let sides: [Vec<Fighter>; 2] = std::array::from_fn(|side| {
        (0..units[side])
            .map(|i| match i {
                0 => first[side],
                _ => Fighter { quality: support[side].quality(first[side].quality), ..first[side] },
            })
            .collect()
    });
    let side_ratings: [Vec<i32>; 2] = std::array::from_fn(|side| {
        sides[side].iter().map(|unit| engagement_rating(rules, unit, &first[1 - side])).collect()
    });
    let row = |pairs: &[u32]| {
        let (attacking, defending) = pairs.split_at(units[0]);
        let r =
            resolve_multi(rules, [&sides[0], &sides[1]], [&side_ratings[0], &side_ratings[1]], [attacking, defending]);
        let total = |units: &[super::engagement::UnitResult], f: &dyn Fn(&super::engagement::UnitResult) -> i64| {
            units.iter().map(f).sum::<i64>()
        };
        let routed = |u: &super::engagement::UnitResult| i64::from(matches!(u.fate, Fate::Routs | Fate::Broken));
        vec![
            r.victor as i64,
            total(&r.attackers, &|u| i64::from(u.staggers)),
            total(&r.attackers, &|u| i64::from(u.kills)),
            total(&r.defenders, &|u| i64::from(u.staggers)),
            total(&r.defenders, &|u| i64::from(u.kills)),
            total(&r.attackers, &routed),
            total(&r.defenders, &routed),
            total(&r.attackers, &|u| i64::from(u.broken)),
            total(&r.defenders, &|u| i64::from(u.broken)),
        ]
    };
    Ok(Box::new(TotalTable::new(metrics(rules, units), (units[0] + units[1]) as u32, row)))
}

fn build(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    let units = [settings.int("attacker.units") as usize, settings.int("defender.units") as usize];
    table(
        rules_of::<Rules>(rules),
        Fighter::from_settings(settings, "attacker"),
        Fighter::from_settings(settings, "defender"),
        units,
        [settings.choice("attacker.support_quality"), settings.choice("defender.support_quality")],
    )
}

/// The `multi_engagement` scenario.
pub fn entry() -> ScenarioEntry {
    let mut params = vec![
        Param::int(
            "attacker.units",
            "attacking units, alike but for support_quality (one side has a single unit)",
            2,
            1,
            MAX_UNITS as i64,
        ),
        Param::int(
            "defender.units",
            "defending units, alike but for support_quality (one side has a single unit)",
            1,
            1,
            MAX_UNITS as i64,
        ),
        Param::choice(
            "attacker.support_quality",
            "quality of the attacking units after the first (same: all alike)",
            Support::Same,
        ),
        Param::choice(
            "defender.support_quality",
            "quality of the defending units after the first (same: all alike)",
            Support::Same,
        ),
    ];
    params.extend(Fighter::params("attacker", Quality::Trained));
    params.extend(Fighter::params("defender", Quality::Trained));
    ScenarioEntry {
        name: "multi_engagement",
        summary: "Two to four alike units engage one (or one engages several): the best roll of a side counts, staggers are shared.",
        params,
        build,
    }
}
