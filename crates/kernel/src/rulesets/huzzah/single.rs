//! Single 2D6 rolls of Huzzah!: a quality (threat) test, an order, the
//! Unit Quality Table, a rearm order and a command integrity check. Each outcome depends on one pair of dice only, so each
//! scenario is a [`PairTable`] of 36 codes, exact by enumeration.

use super::{
    CommandCheckHuzzah, PairTable, Quality, Rules, UnitClass, invalid, pair_is_huzzah, pair_total, quality_param,
};
use crate::catalogue::ScenarioEntry;
use crate::dice::Dice;
use crate::outcome::{Layout, Metric};
use crate::params::{Choice, Param, ParamError, RuleBook, Settings, rules_of};
use crate::scenario::{DynScenario, Scenario};

/// One quality test, as a threat test: pass at or under the effective rating,
/// else take staggers equal to the excess ("Threat tests", Procedure).
#[derive(Clone, Debug)]
pub struct QualityTest {
    rating: i32,
    table: PairTable<1>,
}

impl QualityTest {
    /// A unit of `quality` with net `shifts` (Ups minus Downs, -10 to 10),
    /// on its disadvantaged rating when `disadvantaged`.
    pub fn new(rules: &Rules, quality: Quality, shifts: i32, disadvantaged: bool) -> Result<Self, ParamError> {
        if !(-10..=10).contains(&shifts) {
            return Err(invalid("shifts", format!("{shifts} is outside -10 to 10")));
        }
        let rating = rules.effective_rating(quality, shifts, disadvantaged);
        let metrics = vec![
            Metric::boolean("passed", "whether the roll is at or under the effective rating (11-12 always fail)"),
            Metric::integer("staggers", "staggers taken: the amount the roll exceeds the rating", 0, 11),
            Metric::boolean("huzzah", "whether the roll is double one (threatening units must test in turn)"),
        ];
        let table = PairTable::new(metrics, |pairs| {
            let roll = pair_total(pairs[0]);
            // "Threat tests", Procedure: a unit that fails takes staggers equal
            // to the difference between the result and its effective rating;
            // 11 and 12 always fail.
            let passed = rules.passes(roll, rating);
            let staggers = if passed { 0 } else { (roll - rating).max(0) };
            vec![i64::from(passed), i64::from(staggers), i64::from(pair_is_huzzah(pairs[0]))]
        });
        Ok(QualityTest { rating, table })
    }

    /// The effective rating tested against.
    pub fn rating(&self) -> i32 {
        self.rating
    }
}

/// One order roll: pass at or under the officer's effective command rating
/// ("Orders and movement", Procedure).
#[derive(Clone, Debug)]
pub struct OrderRoll {
    rating: i32,
    table: PairTable<1>,
}

impl OrderRoll {
    /// An officer of command `rating` (6 Abysmal to 10 Excellent) with net
    /// `shifts`; a CinC's rating is raised first (playsheet, Command modifiers).
    pub fn new(rules: &Rules, rating: i32, shifts: i32, cinc: bool) -> Result<Self, ParamError> {
        if !(6..=10).contains(&rating) {
            return Err(invalid("rating", format!("{rating} is outside 6 (Abysmal) to 10 (Excellent)")));
        }
        if !(-10..=10).contains(&shifts) {
            return Err(invalid("shifts", format!("{shifts} is outside -10 to 10")));
        }
        // Playsheet, Command modifiers: "The CinC has a command rating two
        // higher than rolled, up to a maximum of Excellent".
        let base =
            if cinc { (rating + rules.command_cinc_bonus).min(rules.command_cinc_maximum.max(rating)) } else { rating };
        // "Modifiers: Ups and Downs": for tests that do not involve unit
        // quality, the Ups and Downs are a simple plus or minus.
        let effective = base + shifts;
        // "Orders and movement", Procedure: "an order cannot be issued if an
        // officer's effective command rating reaches 1".
        let possible = effective > rules.order_impossible_at;
        let metrics = vec![
            Metric::boolean("succeeded", "whether the order succeeds"),
            Metric::boolean("huzzah", "whether the roll is double one (a free extra order)"),
        ];
        let table = PairTable::new(metrics, |pairs| {
            let roll = pair_total(pairs[0]);
            let succeeded = possible && rules.passes(roll, effective);
            vec![i64::from(succeeded), i64::from(possible && pair_is_huzzah(pairs[0]))]
        });
        Ok(OrderRoll { rating: effective, table })
    }

    /// The effective command rating.
    pub fn rating(&self) -> i32 {
        self.rating
    }
}

/// One roll on the Unit Quality Table (playsheet): a class's descriptive quality.
#[derive(Clone, Debug)]
pub struct QualityRoll {
    table: PairTable<1>,
}

impl QualityRoll {
    /// A unit of `class`. The class's bands must rise and reach 12.
    pub fn new(rules: &Rules, class: UnitClass) -> Result<Self, ParamError> {
        let bands = rules.class_table(class);
        let mut previous = 1;
        for &max in bands.iter().filter(|&&max| max != 0) {
            if max <= previous {
                return Err(invalid("class", format!("the bands of {} do not rise: {bands:?}", class.name())));
            }
            previous = max;
        }
        if previous != 12 {
            return Err(invalid("class", format!("the bands of {} stop at {previous}, not 12", class.name())));
        }
        let metrics = vec![Metric::categories("quality", "the descriptive quality rolled", Quality::NAMES)];
        let table = PairTable::new(metrics, |pairs| vec![rules.class_quality(class, pair_total(pairs[0])) as i64]);
        Ok(QualityRoll { table })
    }
}

/// One rearm order by the CinC ("Artillery bombardment", Rearm): 2D6 at or
/// under the army's modified bombardment factor rearms every battery; a
/// Huzzah! also raises the factor by one.
#[derive(Clone, Debug)]
pub struct RearmRoll {
    factor: i32,
    table: PairTable<1>,
}

impl RearmRoll {
    /// An army of bombardment `factor` (1-6) with the majority or all of its
    /// batteries depleted.
    pub fn new(rules: &Rules, factor: i32, majority_depleted: bool, all_depleted: bool) -> Result<Self, ParamError> {
        if !(1..=6).contains(&factor) {
            return Err(invalid("factor", "bombardment factors run from 1 to 6"));
        }
        if all_depleted && !majority_depleted {
            return Err(invalid("majority_depleted", "when all batteries are depleted, so is the majority"));
        }
        // "Up 1 if the majority of batteries are depleted"; "Up 1 if all batteries are depleted".
        let effective = factor
            + if majority_depleted { rules.rearm_majority_depleted_up } else { 0 }
            + if all_depleted { rules.rearm_all_depleted_up } else { 0 };
        let metrics = vec![
            Metric::boolean("succeeded", "whether the batteries rearm"),
            Metric::boolean("huzzah", "whether the roll is double one (the factor rises by one)"),
        ];
        let table = PairTable::new(metrics, |pairs| {
            let total = pair_total(pairs[0]);
            vec![i64::from(rules.passes(total, effective)), i64::from(pair_is_huzzah(pairs[0]))]
        });
        Ok(RearmRoll { factor: effective, table })
    }

    /// The modified bombardment factor.
    pub fn factor(&self) -> i32 {
        self.factor
    }
}

/// The state of a command taking a command integrity check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Command {
    /// The officer's command rating, 6 to 10.
    pub rating: i32,
    /// Broken or routing sub-commands.
    pub broken: i32,
    /// Sub-commands in a favourable position.
    pub favourable: i32,
    /// The last command check: failed (-1), none (0) or passed (1).
    pub last_check: i32,
    /// Levels of command between the testing officer and the command's own.
    pub levels_removed: i32,
    /// The command is an isolated sub-command.
    pub isolated: bool,
    /// The officer is inspirational.
    pub inspirational: bool,
    /// The officer seizes the flag.
    pub seize_flag: bool,
    /// The command's own officer is dead or captured: the command fails
    /// unless a senior officer (`levels_removed` above 0, or the CinC in
    /// person) takes the check.
    pub officer_dead: bool,
    /// The CinC has superseded the officer and takes the check in person: no
    /// Down for the difference in command level.
    pub cinc_in_person: bool,
}

/// One command integrity check ("Command integrity check"): pass at or under
/// the officer's modified rating; on failure every unit takes a stagger for
/// each broken or routing sub-command and non-routing units retire, and an
/// officer who seized the flag is killed. A command whose officer is dead
/// fails unless a senior officer stands in, at Down 1 for each level of
/// command removed (none for the CinC in person).
#[derive(Clone, Debug)]
pub struct CommandCheck {
    rating: i32,
    table: PairTable<1>,
}

impl CommandCheck {
    /// A check for `command`.
    pub fn new(rules: &Rules, command: Command) -> Result<Self, ParamError> {
        if !(6..=10).contains(&command.rating) {
            return Err(invalid("rating", "command ratings run from 6 to 10"));
        }
        if !(0..=10).contains(&command.broken) || !(0..=10).contains(&command.favourable) {
            return Err(invalid("broken", "sub-command counts run from 0 to 10"));
        }
        if !(-1..=1).contains(&command.last_check) || !(0..=3).contains(&command.levels_removed) {
            return Err(invalid("last_check", "last_check is -1, 0 or 1; levels_removed 0 to 3"));
        }
        if command.cinc_in_person && command.levels_removed == 0 {
            return Err(invalid(
                "cinc_in_person",
                "the CinC supersedes a junior officer: set levels_removed to the levels between them (1 to 3)",
            ));
        }
        // "If its officer has been killed, a command automatically fails the
        // command check unless a senior officer takes the test."
        let stand_in = command.levels_removed > 0;
        let automatic_failure = command.officer_dead && !stand_in;
        if automatic_failure && command.seize_flag {
            return Err(invalid(
                "seize_flag",
                "a dead officer cannot seize the flag: set levels_removed for a stand-in",
            ));
        }
        // "Difference in command level": Down 1 for each level removed; "A
        // CinC who has superseded an officer ... receives no penalty".
        let levels = if command.cinc_in_person { 0 } else { command.levels_removed };
        // A simple plus and minus: the test is of the officer, not of quality.
        let mut rating = command.rating - command.broken * rules.command_check_broken_down
            + command.favourable * rules.command_check_favourable_up
            - levels * rules.command_check_level_down;
        rating += match command.last_check {
            -1 => -rules.command_check_failed_last_down,
            1 => rules.command_check_passed_last_up,
            _ => 0,
        };
        if command.isolated {
            rating -= rules.command_check_isolated_down;
        }
        if command.inspirational {
            rating += rules.command_check_inspirational_up;
        }
        if command.seize_flag {
            rating += rules.command_check_seize_flag_up;
        }
        let metrics = vec![
            Metric::boolean("passed", "whether the command passes"),
            Metric::boolean(
                "huzzah",
                "whether the check passed on double one (no further checks until another sub-command breaks)",
            ),
            Metric::integer("staggers", "staggers each unit of the command takes", 0, 10),
            Metric::boolean("retires", "whether the non-routing units retire one full move"),
            Metric::boolean("officer_killed", "whether an officer who seized the flag is killed"),
        ];
        let table = PairTable::new(metrics, |pairs| {
            let huzzah = !automatic_failure && pair_is_huzzah(pairs[0]);
            // Huzzah! results: the command "need not take another command
            // check"; whether that passes a rating below 2 is `command_check_huzzah`.
            let huzzah_passes = huzzah && rules.command_check_huzzah == CommandCheckHuzzah::Passes;
            let passed = !automatic_failure && (huzzah_passes || rules.passes(pair_total(pairs[0]), rating));
            vec![
                i64::from(passed),
                i64::from(huzzah && passed),
                if passed { 0 } else { i64::from(command.broken) },
                i64::from(!passed),
                i64::from(!passed && command.seize_flag),
            ]
        });
        Ok(CommandCheck { rating, table })
    }

    /// The effective command rating.
    pub fn rating(&self) -> i32 {
        self.rating
    }
}

macro_rules! delegate_to_table {
    ($($name:ty),*) => {$(
        impl Scenario for $name {
            fn layout(&self) -> &Layout {
                self.table.layout()
            }
            #[inline(always)]
            fn sample(&self, dice: &mut Dice) -> u64 {
                self.table.sample(dice)
            }
            fn code_space(&self) -> u64 {
                self.table.code_space()
            }
            fn decode(&self, code: u64, values: &mut [i64]) {
                self.table.decode(code, values)
            }
            fn has_exact(&self) -> bool {
                true
            }

            fn exact(&self) -> Option<Vec<(u64, f64)>> {
                self.table.exact()
            }
        }
    )*};
}
#[allow(unused_imports)]
pub(crate) use delegate_to_table;

delegate_to_table!(QualityTest, OrderRoll, QualityRoll, RearmRoll, CommandCheck);

fn build_test(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    let rules = rules_of::<Rules>(rules);
    Ok(Box::new(QualityTest::new(
        rules,
        settings.choice("quality"),
        settings.int("shifts") as i32,
        settings.bool("disadvantaged"),
    )?))
}

fn build_orders(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    let rules = rules_of::<Rules>(rules);
    Ok(Box::new(OrderRoll::new(
        rules,
        settings.int("rating") as i32,
        settings.int("shifts") as i32,
        settings.bool("cinc"),
    )?))
}

fn build_quality_roll(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    Ok(Box::new(QualityRoll::new(rules_of::<Rules>(rules), settings.choice("class"))?))
}

fn build_rearm(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    Ok(Box::new(RearmRoll::new(
        rules_of::<Rules>(rules),
        settings.int("factor") as i32,
        settings.bool("majority_depleted"),
        settings.bool("all_depleted"),
    )?))
}

fn build_command_check(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    let command = Command {
        rating: settings.int("rating") as i32,
        broken: settings.int("broken") as i32,
        favourable: settings.int("favourable") as i32,
        last_check: settings.int("last_check") as i32,
        levels_removed: settings.int("levels_removed") as i32,
        isolated: settings.bool("isolated"),
        inspirational: settings.bool("inspirational"),
        seize_flag: settings.bool("seize_flag"),
        officer_dead: settings.bool("officer_dead"),
        cinc_in_person: settings.bool("cinc_in_person"),
    };
    Ok(Box::new(CommandCheck::new(rules_of::<Rules>(rules), command)?))
}

/// The `test`, `orders`, `quality_roll`, `rearm` and `command_check` scenarios.
pub fn entries() -> Vec<ScenarioEntry> {
    vec![
        ScenarioEntry {
            name: "test",
            summary: "One 2D6 quality (threat) test: pass, staggers on failure, Huzzah!.",
            params: vec![
                quality_param("quality".into(), Quality::Trained),
                Param::int("shifts", "net Ups minus Downs on the descriptive quality", 0, -10, 10),
                Param::boolean("disadvantaged", "use the disadvantaged rating", false),
            ],
            build: build_test,
        },
        ScenarioEntry {
            name: "orders",
            summary: "One order roll against an officer's command rating.",
            params: vec![
                Param::int("rating", "command rating: 6 Abysmal, 7 Poor, 8 Average, 9 Skilful, 10 Excellent", 8, 6, 10),
                Param::int("shifts", "net Ups minus Downs (a simple plus or minus)", 0, -10, 10),
                Param::boolean("cinc", "the officer is the CinC (rating two higher, at most Excellent)", false),
            ],
            build: build_orders,
        },
        ScenarioEntry {
            name: "quality_roll",
            summary: "One roll on the Unit Quality Table: a class's descriptive quality.",
            params: vec![Param::choice("class", "grade and class, elites_a to militia_d", UnitClass::RegularsB)],
            build: build_quality_roll,
        },
        ScenarioEntry {
            name: "rearm",
            summary: "One rearm order against the army's bombardment factor.",
            params: vec![
                Param::int("factor", "the army's bombardment factor", 3, 1, 6),
                Param::boolean("majority_depleted", "more batteries depleted than not (Up 1)", true),
                Param::boolean("all_depleted", "every battery depleted (Up 1 more)", false),
            ],
            build: build_rearm,
        },
        ScenarioEntry {
            name: "command_check",
            summary: "One command integrity check: staggers, retirement and a flag-seizing officer's death on failure.",
            params: vec![
                Param::int("rating", "the officer's command rating, 6 to 10", 8, 6, 10),
                Param::int("broken", "broken or routing sub-commands (Down 1 each)", 1, 0, 10),
                Param::int("favourable", "sub-commands in a favourable position (Up 1 each)", 0, 0, 10),
                Param::int("last_check", "last command check: -1 failed, 0 none, 1 passed", 0, -1, 1),
                Param::int(
                    "levels_removed",
                    "levels between the testing officer and the command's own (Down 1 each)",
                    0,
                    0,
                    3,
                ),
                Param::boolean("isolated", "an isolated sub-command (Down 2)", false),
                Param::boolean("inspirational", "an inspirational officer (Up 1)", false),
                Param::boolean("seize_flag", "the officer seizes the flag (Up 1; killed if it fails)", false),
                Param::boolean(
                    "officer_dead",
                    "the command's officer is dead or captured: it fails unless a senior officer stands in (levels_removed)",
                    false,
                ),
                Param::boolean(
                    "cinc_in_person",
                    "the CinC superseded the officer and tests in person (no Down for levels removed)",
                    false,
                ),
            ],
            build: build_command_check,
        },
    ]
}
