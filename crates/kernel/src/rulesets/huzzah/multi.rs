//! One multiple-unit engagement ("Engage the enemy", Multiple unit
//! engagements): two alike units against one, or one against two, resolved
//! by [`resolve_multi`] over every roll of every unit, exactly.
//!
//! The rules break larger fights into one-on-one engagements first ("two
//! units against two always becomes two one-on-one engagements"), so a
//! multiple-unit engagement is always several units against one. Two against
//! one is the rules' own example; three against one would need a table of
//! 36^4 = 1.7 million rows and is left to the one-on-one scenario.

use super::engagement::{Fate, Fighter, engagement_rating, resolve_multi};
use super::{PairTable, Quality, Rules};
use crate::catalogue::ScenarioEntry;
use crate::outcome::{Metric, SIDES};
use crate::params::{Param, ParamError, RuleBook, Settings, rules_of};
use crate::scenario::DynScenario;

/// The metrics of a multiple-unit engagement, in order; staggers and kills
/// are totals over the side's units.
pub fn metrics(units: [usize; 2]) -> Vec<Metric> {
    let most = |side: usize| units[side] as i64;
    vec![
        Metric::categories("result", "who won: attacker, defender or tie", SIDES),
        Metric::integer("attacker_staggers", "staggers the attacking units took, in all", 0, 12),
        Metric::integer("attacker_kills", "kills the attacking units took, in all", 0, 2 * most(0)),
        Metric::integer("defender_staggers", "staggers the defending units took, in all", 0, 12),
        Metric::integer("defender_kills", "kills the defending units took, in all", 0, 2 * most(1)),
        Metric::integer("attacker_routed", "attacking units that rout or break", 0, most(0)),
        Metric::integer("defender_routed", "defending units that rout or break", 0, most(1)),
        Metric::integer("attacker_broken", "attacking units that break", 0, most(0)),
        Metric::integer("defender_broken", "defending units that break", 0, most(1)),
    ]
}

/// A multiple-unit engagement: `units[0]` alike attackers against `units[1]`
/// alike defenders, one side with a single unit.
pub fn table(
    rules: &Rules,
    attacker: Fighter,
    defender: Fighter,
    units: [usize; 2],
) -> Result<Box<dyn DynScenario>, ParamError> {
    attacker.validate(rules, "attacker")?;
    defender.validate(rules, "defender")?;
    if units[0] > 1 && units[1] > 1 {
        return Err(ParamError::Invalid {
            key: "defender.units".into(),
            reason: "two units against two are two one-on-one engagements (Multiple unit engagements); \
                     give one side a single unit"
                .into(),
        });
    }
    // All units of a side are alike, so each compares itself with its like
    // opponent for the Ups and Downs, as one-on-one.
    let ratings = [engagement_rating(rules, &attacker, &defender), engagement_rating(rules, &defender, &attacker)];
    let sides = [vec![attacker; units[0]], vec![defender; units[1]]];
    let side_ratings = [vec![ratings[0]; units[0]], vec![ratings[1]; units[1]]];
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
    Ok(match units[0] + units[1] {
        2 => Box::new(PairTable::<2>::new(metrics(units), row)),
        _ => Box::new(PairTable::<3>::new(metrics(units), row)),
    })
}

fn build(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    let units = [settings.int("attacker.units") as usize, settings.int("defender.units") as usize];
    table(
        rules_of::<Rules>(rules),
        Fighter::from_settings(settings, "attacker"),
        Fighter::from_settings(settings, "defender"),
        units,
    )
}

/// The `multi_engagement` scenario.
pub fn entry() -> ScenarioEntry {
    let mut params = vec![
        Param::int("attacker.units", "attacking units, all alike (one side has a single unit)", 2, 1, 2),
        Param::int("defender.units", "defending units, all alike (one side has a single unit)", 1, 1, 2),
    ];
    params.extend(Fighter::params("attacker", Quality::Trained));
    params.extend(Fighter::params("defender", Quality::Trained));
    ScenarioEntry {
        name: "multi_engagement",
        summary: "Two alike units engage one (or one engages two): the best roll of a side counts, staggers are shared.",
        params,
        build,
    }
}
