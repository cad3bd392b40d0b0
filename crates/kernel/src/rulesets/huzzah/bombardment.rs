//! One bombardment ("Artillery bombardment"): a battery forces a threat test on
//! a single target at short, long or extreme range, with the range, column,
//! small-unit and smoke modifiers; units close behind the target are hit by
//! bounce-through (`bounce_through`). One pair of dice: exact by enumeration.

use super::assault::Guns;
use super::single::delegate_to_table;
use super::standoff::threat_staggers;
use super::{BounceThrough, Officer, PairTable, Quality, Rules, invalid, pair_is_huzzah, pair_total, quality_param};
use crate::catalogue::ScenarioEntry;
use crate::dice::Dice;
use crate::outcome::{Layout, Metric};
use crate::params::{Param, ParamError, RuleBook, Settings, rules_of};
use crate::scenario::{DynScenario, Scenario};

/// The range bands, in order.
pub const RANGES: &[&str] = &["short", "long", "extreme"];

/// The target of a bombardment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    /// Base quality.
    pub quality: Quality,
    /// Net Ups minus Downs beyond those below.
    pub shifts: i32,
    /// Disadvantaged (flank, march column ...); a square always is against artillery.
    pub disadvantaged: bool,
    /// Infantry in square ("Infantry in square threatened by artillery" is disadvantaged).
    pub square: bool,
    /// In column: Down 1 ("Bombarded in column").
    pub column: bool,
    /// A small unit: Up 1 at long or extreme range.
    pub small: bool,
    /// In a favourable position (open order or unlimbered artillery at long
    /// or extreme range, behind a hedge ...).
    pub favourable: bool,
    /// Staggers before the test.
    pub staggers: i32,
    /// Kills before the test.
    pub kills: i32,
    /// An officer attached.
    pub officer: Officer,
}

/// One bombardment threat test.
#[derive(Clone, Debug)]
pub struct Bombardment {
    rating: i32,
    range: usize,
    table: PairTable<1>,
}

impl Bombardment {
    /// A battery of `guns` with smoke markers (`smoke`) bombards `target` at
    /// `distance` bands; a unit `behind` bands behind it (0: none) may be hit.
    pub fn new(
        rules: &Rules,
        target: Target,
        guns: Guns,
        distance: i32,
        smoke: bool,
        behind: i32,
    ) -> Result<Self, ParamError> {
        let (short, long, extreme, bounce) = match guns {
            Guns::Light => (
                rules.threat_zone_light_artillery,
                rules.long_range_light_artillery,
                rules.extreme_range_light_artillery,
                rules.bounce_through_light_artillery,
            ),
            Guns::Medium => (
                rules.threat_zone_medium_artillery,
                rules.long_range_medium_artillery,
                rules.extreme_range_medium_artillery,
                rules.bounce_through_medium_artillery,
            ),
            Guns::Heavy => (
                rules.threat_zone_heavy_artillery,
                rules.long_range_heavy_artillery,
                rules.extreme_range_heavy_artillery,
                rules.bounce_through_heavy_artillery,
            ),
        };
        // "Units that are split between ranges are at the closest of the two ranges."
        let range = if distance <= short {
            0
        } else if distance <= long {
            1
        } else if distance <= extreme {
            2
        } else {
            return Err(invalid(
                "distance",
                format!("{distance} bands is beyond the battery's extreme range of {extreme}"),
            ));
        };
        if distance < 1 || !(0..=10).contains(&behind) {
            return Err(invalid("distance", "the target is at least 1 band away; a unit behind 0 to 10 bands"));
        }
        let full = rules.full_rating(target.quality);
        if target.staggers < 0
            || target.kills < 0
            || target.staggers + target.kills >= full
            || !(-10..=10).contains(&target.shifts)
        {
            return Err(invalid("kills", format!("staggers plus kills must stay below {full}; shifts -10 to 10")));
        }
        if target.square && target.column {
            return Err(invalid("column", "a unit is in square or in column, not both"));
        }
        // "Threat tests", Conditions: "Infantry in square threatened by artillery" is disadvantaged.
        let disadvantaged = target.disadvantaged || target.square;
        let mut shifts = target.shifts;
        if target.staggers > 0 {
            shifts -= rules.threat_staggers_down;
        }
        if target.kills > 0 {
            shifts -= rules.threat_kills_down;
        }
        match range {
            0 => shifts -= rules.threat_short_range_down,
            2 => shifts += rules.threat_extreme_range_up,
            _ => {}
        }
        if target.column {
            shifts -= rules.threat_bombarded_in_column_down;
        }
        if target.small && range > 0 {
            shifts += rules.threat_small_unit_long_range_up;
        }
        if smoke {
            shifts += rules.threat_smoke_up;
        }
        if target.favourable && !disadvantaged {
            shifts += rules.threat_favourable_up;
        }
        shifts += match target.officer {
            Officer::None => 0,
            Officer::Attached => rules.threat_officer_up,
            Officer::Inspirational => rules.threat_officer_up + rules.threat_inspirational_up,
        };
        let rating = rules.effective_rating(target.quality, shifts, disadvantaged);
        // "Bounce through": "Troops that are behind a unit that is bombarded
        // may be hit by bounce through fire ... if it is also within the bounce
        // through distance. ... Units that are beyond extreme range can be hit
        // by bounce through fire": at every range under `bounce_through = all`
        // (only at short range under `short`).
        let in_range = rules.bounce_through == BounceThrough::All || range == 0;
        let bounce_through = in_range && behind > 0 && behind <= bounce;
        let metrics = vec![
            Metric::boolean("passed", "whether the target passes its threat test"),
            Metric::integer("staggers", "staggers the target takes", 0, 11),
            Metric::boolean("huzzah", "whether the target rolls Huzzah!"),
            Metric::boolean("broken", "whether the target's staggers and kills reach its full rating"),
            Metric::categories("range", "the range band: short, long or extreme", RANGES),
            Metric::boolean("bounce_through", "whether the unit behind must also take a threat test"),
        ];
        let table = PairTable::new(metrics, |pairs| {
            let total = pair_total(pairs[0]);
            let staggers = threat_staggers(rules, rating, total);
            vec![
                i64::from(rules.passes(total, rating)),
                i64::from(staggers),
                i64::from(pair_is_huzzah(pairs[0])),
                i64::from(target.staggers + target.kills + staggers >= full),
                range as i64,
                i64::from(bounce_through),
            ]
        });
        Ok(Bombardment { rating, range, table })
    }

    /// The target's effective rating.
    pub fn rating(&self) -> i32 {
        self.rating
    }

    /// The range band: 0 short, 1 long, 2 extreme.
    pub fn range(&self) -> usize {
        self.range
    }
}

delegate_to_table!(Bombardment);

fn build(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    let target = Target {
        quality: settings.choice("quality"),
        shifts: settings.int("shifts") as i32,
        disadvantaged: settings.bool("disadvantaged"),
        square: settings.bool("square"),
        column: settings.bool("column"),
        small: settings.bool("small"),
        favourable: settings.bool("favourable"),
        staggers: settings.int("staggers") as i32,
        kills: settings.int("kills") as i32,
        officer: settings.choice("officer"),
    };
    Ok(Box::new(Bombardment::new(
        rules_of::<Rules>(rules),
        target,
        settings.choice("guns"),
        settings.int("distance") as i32,
        settings.bool("smoke"),
        settings.int("behind") as i32,
    )?))
}

/// The `bombardment` scenario.
pub fn entry() -> ScenarioEntry {
    ScenarioEntry {
        name: "bombardment",
        summary: "One bombardment threat test at a range, with bounce-through behind the target.",
        params: vec![
            quality_param("quality".into(), Quality::Trained),
            Param::int("shifts", "net Ups minus Downs beyond the other keys", 0, -10, 10),
            Param::boolean("disadvantaged", "the target is disadvantaged", false),
            Param::boolean("square", "infantry in square (disadvantaged against artillery)", false),
            Param::boolean("column", "the target is in column (Down 1)", false),
            Param::boolean("small", "a small unit (Up 1 at long or extreme range)", false),
            Param::boolean("favourable", "the target is in a favourable position", false),
            Param::int("staggers", "staggers before the test", 0, 0, 10),
            Param::int("kills", "kills before the test", 0, 0, 10),
            Param::choice("officer", "officer attached: none, attached or inspirational", Officer::None),
            Param::choice("guns", "light, medium or heavy artillery", Guns::Medium),
            Param::int("distance", "bands from the battery to the target", 10, 1, 24),
            Param::boolean("smoke", "the battery has smoke markers (Up 1)", false),
            Param::int("behind", "bands from the target back to a unit behind it (0: none)", 0, 0, 10),
        ],
        build,
    }
}
