//! Synthetic scenarios whose answers are known exactly: a duel whose crossing
//! of even odds is at a known strength, and a shot whose rule fields have known
//! effects.

use volley_kernel::catalogue::ScenarioEntry;
use volley_kernel::dice::Dice;
use volley_kernel::outcome::{Layout, Metric, WINNERS};
use volley_kernel::params::{Param, ParamError, RuleBook, Settings, rules_of};
use volley_kernel::scenario::{DynScenario, Scenario};

volley_kernel::choice_enum! {
    /// Three grades, best first, as rulesets list them.
    pub enum Quality {
        /// Worth three.
        Veteran = "veteran",
        /// Worth two.
        Trained = "trained",
        /// Worth one.
        Green = "green",
    }
}

fn worth(quality: Quality) -> u64 {
    match quality {
        Quality::Veteran => 3,
        Quality::Trained => 2,
        Quality::Green => 1,
    }
}

/// A duel the attacker wins with probability 2A / (2A + 2D + 1), where each
/// side's strength is its figures times its quality's worth: even odds fall
/// between two whole strengths, so the crossing is never on a probed value.
pub struct Duel {
    attacker: u64,
    defender: u64,
    layout: Layout,
}

impl Duel {
    /// The exact chance that the attacker wins.
    pub fn attacker_wins(attacker: u64, defender: u64) -> f64 {
        (2 * attacker) as f64 / (2 * attacker + 2 * defender + 1) as f64
    }
}

impl Scenario for Duel {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn sample(&self, dice: &mut Dice) -> u64 {
        let attacker_wins = dice.below(2 * self.attacker + 2 * self.defender + 1) < 2 * self.attacker;
        self.layout.encode(&[if attacker_wins { 0 } else { 1 }])
    }

    fn has_exact(&self) -> bool {
        true
    }

    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        let p = Duel::attacker_wins(self.attacker, self.defender);
        Some(vec![(0, p), (1, 1.0 - p)])
    }
}

volley_kernel::rule_book! {
    /// Rules of the synthetic shot.
    pub struct ShotRules {
        /// The d12 roll that hits, before bonuses.
        pub hit_target: u32 = 7, range 1..=13;
        /// Each step of bonus lowers the target by two.
        pub bonus: u32 = 1, range 0..=3;
        /// Changes nothing.
        pub irrelevant: u32 = 3, range 0..=10;
        /// Changes nothing, and the scenario refuses values over 5.
        pub limit: u32 = 5, range 0..=10;
        /// A switch: on, it counts as one more step of bonus.
        pub switch: bool = false;
    }
}

/// One d12 that hits on `hit_target - 2 * bonus` or more: moving the target
/// one step moves the chance by 1/12, moving the bonus by 2/12.
pub struct Shot {
    target: u32,
    layout: Layout,
}

impl Shot {
    /// The exact chance of a hit under these rules.
    pub fn hit_chance(rules: &ShotRules) -> f64 {
        let target = (rules.hit_target as i64 - 2 * (rules.bonus as i64 + i64::from(rules.switch))).clamp(1, 13);
        (13 - target) as f64 / 12.0
    }
}

impl Scenario for Shot {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn sample(&self, dice: &mut Dice) -> u64 {
        u64::from(dice.d12() >= self.target)
    }

    fn has_exact(&self) -> bool {
        true
    }

    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        let p = f64::from(13 - self.target) / 12.0;
        Some(vec![(1, p), (0, 1.0 - p)])
    }
}

fn build_duel(_: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    let side = |prefix: &str| {
        settings.int(&format!("{prefix}.figures")) as u64
            * worth(settings.choice::<Quality>(&format!("{prefix}.quality")))
    };
    Ok(Box::new(Duel {
        attacker: side("attacker"),
        defender: side("defender"),
        layout: Layout::new(vec![Metric::categories("winner", "who won", WINNERS)]),
    }))
}

fn build_shot(rules: &dyn RuleBook, _: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    let rules: &ShotRules = rules_of(rules);
    if rules.limit > 5 {
        return Err(ParamError::Invalid { key: "limit".into(), reason: "the shot allows at most 5".into() });
    }
    let target = (rules.hit_target as i64 - 2 * (rules.bonus as i64 + i64::from(rules.switch))).clamp(1, 13) as u32;
    Ok(Box::new(Shot { target, layout: Layout::new(vec![Metric::boolean("hit", "whether the shot hit")]) }))
}

/// The duel as a catalogue entry.
pub fn duel_entry() -> ScenarioEntry {
    ScenarioEntry {
        name: "duel",
        summary: "A duel with a known chance.",
        params: vec![
            Param::choice("attacker.quality", "the attacker's grade", Quality::Trained),
            Param::choice("defender.quality", "the defender's grade", Quality::Trained),
            Param::int("attacker.figures", "the attacker's figures", 4, 1, 60),
            Param::int("defender.figures", "the defender's figures", 4, 1, 60),
        ],
        build: build_duel,
    }
}

/// The shot as a catalogue entry.
pub fn shot_entry() -> ScenarioEntry {
    ScenarioEntry { name: "shot", summary: "One die against a target.", params: vec![], build: build_shot }
}

/// Rules for the duel, which has none that matter.
pub fn duel_rules() -> Box<dyn RuleBook> {
    Box::new(ShotRules::default())
}
