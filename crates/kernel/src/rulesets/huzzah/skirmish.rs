//! Skirmisher superiority ("Skirmisher superiority"): each army rolls 2D6
//! against its modified skirmish rating (6 Abysmal to 10 Excellent); the side
//! that succeeds by the greater amount wins a band of infantry threat zone for
//! the turn, and a Huzzah! lowers the enemy's rating for the rest of the battle.
//! Two pairs of dice: a [`PairTable`] of 1296 codes, exact by enumeration.

use super::single::delegate_to_table;
use super::{PairTable, Rules, invalid, pair_is_huzzah, pair_total, side_key};
use crate::catalogue::ScenarioEntry;
use crate::dice::Dice;
use crate::outcome::{Layout, Metric, SIDES};
use crate::params::{Param, ParamError, RuleBook, Settings, rules_of};
use crate::scenario::{DynScenario, Scenario};

/// One army's skirmish line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SkirmishLine {
    /// Skirmish rating, 6 (Abysmal) to 10 (Excellent).
    pub rating: i32,
    /// Failed the previous superiority test: Down 1.
    pub failed_previous: bool,
    /// Won the previous superiority test: Up 1.
    pub won_previous: bool,
    /// The skirmish line is reinforced: Up 1.
    pub reinforced: bool,
    /// Reductions suffered from enemy Huzzah!es earlier in the battle.
    pub reductions: i32,
}

impl SkirmishLine {
    /// A line of `rating` with no history.
    pub fn new(rating: i32) -> SkirmishLine {
        SkirmishLine { rating, failed_previous: false, won_previous: false, reinforced: false, reductions: 0 }
    }

    /// The modified skirmish rating ("Skirmisher superiority", Procedure): a
    /// simple plus and minus, as for any test not of unit quality.
    pub fn effective(&self, rules: &Rules) -> i32 {
        let mut rating = self.rating - self.reductions * rules.skirmish_huzzah_reduction;
        if self.failed_previous {
            rating -= rules.skirmish_failed_previous_down;
        }
        if self.won_previous {
            rating += rules.skirmish_won_previous_up;
        }
        if self.reinforced {
            rating += rules.skirmish_reinforced_up;
        }
        rating
    }

    fn from_settings(settings: &Settings, prefix: &str) -> SkirmishLine {
        let key = |name| side_key(prefix, name);
        SkirmishLine {
            rating: settings.int(&key("rating")) as i32,
            failed_previous: settings.bool(&key("failed_previous")),
            won_previous: settings.bool(&key("won_previous")),
            reinforced: settings.bool(&key("reinforced")),
            reductions: settings.int(&key("reductions")) as i32,
        }
    }

    fn params(prefix: &str) -> Vec<Param> {
        let key = |name| side_key(prefix, name);
        vec![
            Param::int(key("rating"), "skirmish rating: 6 Abysmal to 10 Excellent", 8, 6, 10),
            Param::boolean(key("failed_previous"), "failed the previous superiority test (Down 1)", false),
            Param::boolean(key("won_previous"), "won the previous superiority test (Up 1)", false),
            Param::boolean(key("reinforced"), "the skirmish line is reinforced (Up 1)", false),
            Param::int(key("reductions"), "rating lost to enemy Huzzah!es earlier in the battle", 0, 0, 5),
        ]
    }
}

/// One turn's skirmisher superiority test.
#[derive(Clone, Debug)]
pub struct Skirmish {
    ratings: [i32; 2],
    table: PairTable<2>,
}

impl Skirmish {
    /// Both armies' skirmish lines, attacker's first.
    pub fn new(rules: &Rules, attacker: SkirmishLine, defender: SkirmishLine) -> Result<Self, ParamError> {
        for (line, prefix) in [(&attacker, "attacker"), (&defender, "defender")] {
            if !(6..=10).contains(&line.rating) {
                return Err(invalid(side_key(prefix, "rating"), "skirmish ratings run from 6 to 10"));
            }
            if line.failed_previous && line.won_previous {
                return Err(invalid(
                    side_key(prefix, "won_previous"),
                    "a side that failed the previous test cannot have won it",
                ));
            }
        }
        if attacker.won_previous && defender.won_previous {
            return Err(invalid("defender.won_previous", "only one side can have won the previous test"));
        }
        // "It follows that only one army's skirmish line can be reinforced."
        if attacker.reinforced && defender.reinforced {
            return Err(invalid("defender.reinforced", "only one army's skirmish line can be reinforced"));
        }
        let ratings = [attacker.effective(rules), defender.effective(rules)];
        let metrics = vec![
            Metric::categories("result", "who wins superiority: attacker, defender or tie (neither)", SIDES),
            Metric::boolean("attacker_passed", "whether the attacker's skirmish line is effective"),
            Metric::boolean("defender_passed", "whether the defender's skirmish line is effective"),
            Metric::boolean(
                "attacker_huzzah",
                "the attacker rolled Huzzah!: the defender's rating falls for the battle",
            ),
            Metric::boolean(
                "defender_huzzah",
                "the defender rolled Huzzah!: the attacker's rating falls for the battle",
            ),
            Metric::integer("threat_zone_bonus", "bands the winner adds to its infantry threat zones this turn", 0, 3),
        ];
        let table = PairTable::new(metrics, |pairs| {
            let roll = [pair_total(pairs[0]), pair_total(pairs[1])];
            let passed = [rules.passes(roll[0], ratings[0]), rules.passes(roll[1], ratings[1])];
            let margin = [ratings[0] - roll[0], ratings[1] - roll[1]];
            // "Whichever side succeeds by the greatest amount wins"; "In the
            // event of a draw or if both rolls fail", neither does.
            let result = match (passed[0], passed[1]) {
                (true, true) if margin[0] > margin[1] => 0,
                (true, true) if margin[1] > margin[0] => 1,
                (true, false) => 0,
                (false, true) => 1,
                _ => 2,
            };
            let bonus = if result == 2 { 0 } else { i64::from(rules.skirmish_threat_zone_bonus_bands) };
            vec![
                result,
                i64::from(passed[0]),
                i64::from(passed[1]),
                i64::from(pair_is_huzzah(pairs[0])),
                i64::from(pair_is_huzzah(pairs[1])),
                bonus,
            ]
        });
        Ok(Skirmish { ratings, table })
    }

    /// The modified ratings, attacker's first.
    pub fn ratings(&self) -> [i32; 2] {
        self.ratings
    }
}

delegate_to_table!(Skirmish);

fn build(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    Ok(Box::new(Skirmish::new(
        rules_of::<Rules>(rules),
        SkirmishLine::from_settings(settings, "attacker"),
        SkirmishLine::from_settings(settings, "defender"),
    )?))
}

/// The `skirmish` scenario.
pub fn entry() -> ScenarioEntry {
    let mut params = SkirmishLine::params("attacker");
    params.extend(SkirmishLine::params("defender"));
    ScenarioEntry {
        name: "skirmish",
        summary: "One turn's skirmisher superiority test between two armies.",
        params,
        build,
    }
}
