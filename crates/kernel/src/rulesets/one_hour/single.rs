//! The single tests: one unit's fire (`shoot`) and one cavalry charge
//! (`charge`), exact by the binomial of the dice then the halving or doubling.

use super::attack::{self, Attack, ChargeSituation, FireTarget, Rerolls};
use super::{Effect, PivotToFace, Rules, UnitType};
use crate::catalogue::ScenarioEntry;
use crate::dice::Dice;
use crate::outcome::{Layout, Metric};
use crate::params::{Param, ParamError, RuleBook, Settings, rules_of};
use crate::scenario::{DynScenario, Scenario};

crate::choice_enum! {
    /// A unit that shoots (cavalry "do NOT shoot").
    pub enum Shooter {
        /// Artillery.
        Artillery = "artillery",
        /// Line infantry.
        LineInfantry = "line_infantry",
        /// Light infantry.
        LightInfantry = "light_infantry",
        /// Rifles.
        Rifles = "rifles",
    }
}

impl Shooter {
    /// As a unit type.
    pub fn unit(self) -> UnitType {
        match self {
            Shooter::Artillery => UnitType::Artillery,
            Shooter::LineInfantry => UnitType::LineInfantry,
            Shooter::LightInfantry => UnitType::LightInfantry,
            Shooter::Rifles => UnitType::Rifles,
        }
    }
}

crate::choice_enum! {
    /// What a shot hits, as far as the fire is concerned.
    pub enum ShootTarget {
        /// Formed troops: full hits.
        Formed = "formed",
        /// Light infantry: "half hits from infantry/artillery fire".
        LightInfantry = "light_infantry",
        /// Cavalry: the rules give cavalry nothing against fire (as formed).
        Cavalry = "cavalry",
    }
}

crate::choice_enum! {
    /// A unit that charges.
    pub enum Charger {
        /// Cavalry.
        Cavalry = "cavalry",
        /// Heavy cavalry.
        HeavyCavalry = "heavy_cavalry",
    }
}

impl Charger {
    /// As a unit type.
    pub fn unit(self) -> UnitType {
        match self {
            Charger::Cavalry => UnitType::Cavalry,
            Charger::HeavyCavalry => UnitType::HeavyCavalry,
        }
    }
}

fn hits_metric(max: u32) -> Metric {
    Metric::integer("hits", "hits the target takes, after any halving or doubling", 0, i64::from(max))
}

/// One unit's fire at one target (Shooting).
#[derive(Clone, Debug)]
pub struct Shoot {
    attack: Attack,
    /// Hits at which the target retreats (`u32::MAX` when steadfast).
    retreat_at: u32,
    /// The keys these settings do not read, with why.
    unread: Vec<(String, String)>,
    layout: Layout,
}

/// The settings of one shot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShootSetup {
    /// Who shoots.
    pub shooter: Shooter,
    /// The range in boxes.
    pub range: u32,
    /// Full, half or quarter effect.
    pub effect: Effect,
    /// Double dice (artillery against flanks or squares).
    pub double: bool,
    /// The target.
    pub target: ShootTarget,
    /// Extra dice (Picton's, or the user's).
    pub extra_dice: u32,
    /// The target is conscript (retreats at 2 hits).
    pub target_conscript: bool,
    /// The target is steadfast (never retreats).
    pub target_steadfast: bool,
    /// The target holds a town or strongpoint (line infantry shoots it at half effect).
    pub target_in_town: bool,
    /// Commanders' re-rolls: Hill's re-roll of a miss, Orange's or Reille's forced re-roll of a hit.
    pub rerolls: Rerolls,
}

impl Shoot {
    /// One shot; fails when the shooter cannot reach the range.
    pub fn new(rules: &Rules, setup: ShootSetup) -> Result<Shoot, ParamError> {
        let unit = setup.shooter.unit();
        let target = FireTarget {
            light: setup.target == ShootTarget::LightInfantry,
            double: setup.double,
            in_town: setup.target_in_town,
        };
        let attack = attack::fire(rules, unit, setup.range, setup.effect, target, setup.extra_dice, setup.rerolls)
            .ok_or_else(|| ParamError::Invalid {
                key: "range".into(),
                reason: format!(
                    "{} shoots from 1 to {} boxes, not {}",
                    crate::params::Choice::name(setup.shooter),
                    rules.max_range(unit),
                    setup.range
                ),
            })?;
        // Shooting: "3 (or more) hits ... = retreat 1 box"; "Conscripts retreat
        // ... when suffering 2 (or more) hits"; "Steadfast troops ignore this effect".
        let retreat_at = if setup.target_steadfast {
            u32::MAX
        } else if setup.target_conscript {
            rules.conscript_retreat_hits
        } else {
            rules.retreat_hits
        };
        let layout = Layout::new(vec![
            hits_metric(attack.max_hits()),
            Metric::boolean("retreats", "whether the target must retreat a box (3 or more hits; 2 for conscripts)"),
        ]);
        let mut unread = Vec::new();
        if setup.shooter != Shooter::LineInfantry {
            // Towns and Strongpoints: "attacked at half effect by Line Infantry";
            // artillery "fires at units in them as normal"; light infantry's
            // "Attacks ignore cover".
            unread.push(("target_in_town".into(), "only line infantry shoots a town at half effect".into()));
        }
        if setup.target_steadfast {
            unread.push(("target_conscript".into(), "a steadfast target never retreats".into()));
        }
        Ok(Shoot { attack, retreat_at, unread, layout })
    }

    /// The attack this shot rolls.
    pub fn attack(&self) -> &Attack {
        &self.attack
    }

    fn code(&self, hits: u32) -> u64 {
        u64::from(hits) + (u64::from(self.attack.max_hits()) + 1) * u64::from(hits >= self.retreat_at)
    }
}

impl Scenario for Shoot {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    #[inline]
    fn sample(&self, dice: &mut Dice) -> u64 {
        self.code(self.attack.roll(dice))
    }

    fn has_exact(&self) -> bool {
        true
    }

    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        Some(self.attack.law().iter().map(|&(hits, p)| (self.code(hits), p)).collect())
    }

    /// `target_in_town` for a shooter other than line infantry, and
    /// `target_conscript` on a steadfast target.
    fn unread_keys(&self) -> Vec<(String, String)> {
        self.unread.clone()
    }
}

/// One cavalry charge (Cavalry Charges): only the charger inflicts hits.
#[derive(Clone, Debug)]
pub struct Charge {
    attack: Attack,
    /// The keys these settings do not read, with why.
    unread: Vec<(String, String)>,
    layout: Layout,
}

impl Charge {
    /// One charge of `charger` on `target`; fails on a charge the rules forbid.
    pub fn new(
        rules: &Rules,
        charger: Charger,
        target: UnitType,
        situation: ChargeSituation,
    ) -> Result<Charge, ParamError> {
        Charge::with_rerolls(rules, charger, target, situation, Rerolls::default())
    }

    /// The same with commanders' re-rolls: Lobau's re-roll of a missed die,
    /// Orange's forced re-roll of a successful one.
    pub fn with_rerolls(
        rules: &Rules,
        charger: Charger,
        target: UnitType,
        situation: ChargeSituation,
        rerolls: Rerolls,
    ) -> Result<Charge, ParamError> {
        if situation.target_shock && !target.is_cavalry() {
            return Err(ParamError::Invalid {
                key: "target_shock".into(),
                reason: "only cavalry can have shock".into(),
            });
        }
        let attack = attack::charge(rules, charger.unit(), target, situation, rerolls);
        let layout = Layout::new(vec![hits_metric(attack.max_hits())]);
        let unread = charge_unread_keys(rules, target, &situation);
        Ok(Charge { attack, unread, layout })
    }

    /// The attack this charge rolls.
    pub fn attack(&self) -> &Attack {
        &self.attack
    }
}

impl Scenario for Charge {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    #[inline]
    fn sample(&self, dice: &mut Dice) -> u64 {
        u64::from(self.attack.roll(dice))
    }

    fn has_exact(&self) -> bool {
        true
    }

    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        Some(self.attack.law().iter().map(|&(hits, p)| (u64::from(hits), p)).collect())
    }

    /// `flank`, `target_column`, `target_in_cover` and the shock keys where
    /// the target's type or situation makes them change nothing.
    fn unread_keys(&self) -> Vec<(String, String)> {
        self.unread.clone()
    }
}

/// The keys of `charge` that change no die or hit at these settings, with
/// why; each mirrors a condition of [`attack::charge`]. Unit table: "2x dice
/// flank attack or vs Light Infantry, or Artillery not in cover" (several
/// reasons double once); Light Infantry "No flanks"; Line Infantry "may
/// pivot to face a charge" (rule `line_infantry_pivot`); Towns: "cannot be
/// charged/shot in the flank/rear", charged at "quarter effect vs
/// Infantry"; Cavalry Charges: "Units with Shock charging units without
/// same gain an extra D6".
fn charge_unread_keys(rules: &Rules, target: UnitType, situation: &ChargeSituation) -> Vec<(String, String)> {
    let mut unread: Vec<(String, String)> = Vec::new();
    let mut push = |key: &str, why: &str| unread.push((key.into(), why.into()));
    let light = target.is_light();
    let town = situation.target_in_town;
    let pivots = target == UnitType::LineInfantry && rules.line_infantry_pivot == PivotToFace::Always;
    let guns_doubled = target == UnitType::Artillery && !situation.target_in_cover && !town;
    let flank_why = if light {
        Some("light infantry has no flanks")
    } else if town {
        Some("a town cannot be charged in the flank")
    } else if situation.target_column {
        Some("a column of route is flanked already")
    } else if pivots {
        Some("line infantry pivots to face a charge (rule line_infantry_pivot)")
    } else if guns_doubled {
        Some("guns not in cover are doubled against already")
    } else {
        None
    };
    if let Some(why) = flank_why {
        push("flank", why);
    }
    let column_why = if light {
        Some("light infantry has no flanks, in column of route or not")
    } else if town {
        Some("a unit holding a town is charged as a town, never in the flank")
    } else if situation.flank && !pivots {
        Some("the charge strikes its flank already")
    } else if guns_doubled {
        Some("guns not in cover are doubled against already")
    } else {
        None
    };
    if let Some(why) = column_why {
        push("target_column", why);
    }
    let cover_why = if target != UnitType::Artillery {
        Some("cover spares only guns (\"Artillery not in cover\")")
    } else if town {
        Some("guns holding a town are charged at half effect, never doubled")
    } else if situation.flank || situation.target_column {
        Some("a charge in the flank doubles against guns in cover too")
    } else {
        None
    };
    if let Some(why) = cover_why {
        push("target_in_cover", why);
    }
    if town && target.is_infantry() {
        push("effect", "infantry holding a town is charged at quarter effect whatever the charge's own");
    }
    if situation.target_shock {
        push("shock", "the target has shock too, so the charger's gains nothing");
    }
    if !situation.shock {
        push("target_shock", "the charger has no shock for the target's to cancel");
    }
    unread
}

fn build_shoot(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    let setup = ShootSetup {
        shooter: settings.choice("shooter"),
        range: settings.int("range") as u32,
        effect: settings.choice("effect"),
        double: settings.bool("double"),
        target: settings.choice("target"),
        extra_dice: settings.int("extra_dice") as u32,
        target_conscript: settings.bool("target_conscript"),
        target_steadfast: settings.bool("target_steadfast"),
        target_in_town: settings.bool("target_in_town"),
        rerolls: rerolls_from(settings),
    };
    Ok(Box::new(Shoot::new(rules_of::<Rules>(rules), setup)?))
}

fn build_charge(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    let situation = ChargeSituation {
        flank: settings.bool("flank"),
        target_column: settings.bool("target_column"),
        shock: settings.bool("shock"),
        target_shock: settings.bool("target_shock"),
        target_in_cover: settings.bool("target_in_cover"),
        target_in_town: settings.bool("target_in_town"),
        effect: settings.choice("effect"),
        extra_dice: settings.int("extra_dice") as u32,
    };
    Ok(Box::new(Charge::with_rerolls(
        rules_of::<Rules>(rules),
        settings.choice("charger"),
        settings.choice("target"),
        situation,
        rerolls_from(settings),
    )?))
}

fn rerolls_from(settings: &Settings) -> Rerolls {
    Rerolls { miss: settings.bool("reroll_miss"), forced_hit: settings.bool("forced_reroll") }
}

/// The `shoot` scenario for the catalogue.
pub fn shoot_entry() -> ScenarioEntry {
    ScenarioEntry {
        name: "shoot",
        summary: "One unit's fire: D6 by type and range, 3+ to hit (5+ half, 6 quarter); hits and whether the target retreats.",
        params: vec![
            Param::choice("shooter", "the unit shooting", Shooter::LineInfantry),
            Param::int("range", "the range in boxes", 1, 1, 12),
            Param::choice("effect", "full (3+), half (5+) or quarter (6) effect", Effect::Full),
            Param::boolean("double", "double dice (artillery against flanks or squares)", false),
            Param::choice("target", "the target: formed, light_infantry (half hits) or cavalry", ShootTarget::Formed),
            Param::int("extra_dice", "extra D6 (Picton's, or any other)", 0, 0, 12),
            Param::boolean("reroll_miss", "the shooter re-rolls one missed die (Hill)", false),
            Param::boolean(
                "forced_reroll",
                "the target forces one successful die to be re-rolled (Orange, Reille)",
                false,
            ),
            Param::boolean("target_conscript", "the target is conscript: retreats at 2 hits", false),
            Param::boolean("target_steadfast", "the target is steadfast: never retreats", false),
            Param::boolean(
                "target_in_town",
                "the target holds a town or strongpoint: line infantry shoots at half effect",
                false,
            ),
        ],
        build: build_shoot,
    }
}

/// The `charge` scenario for the catalogue.
pub fn charge_entry() -> ScenarioEntry {
    ScenarioEntry {
        name: "charge",
        summary: "One cavalry charge: 3D6 (doubled against flanks, light infantry and guns not in cover), hits on 3+.",
        params: vec![
            Param::choice("charger", "the charging cavalry", Charger::Cavalry),
            Param::choice("target", "the unit charged", UnitType::LineInfantry),
            Param::boolean("flank", "the charge strikes a flank (line infantry pivots to face it by default)", false),
            Param::boolean("target_column", "the target is in column of route: treated as flanked, no pivoting", false),
            Param::boolean("shock", "the charger has shock: +1D6 against units without it", false),
            Param::boolean("target_shock", "the target (cavalry) has shock too", false),
            Param::boolean("target_in_cover", "the target is in cover (guns in cover are not doubled against)", false),
            Param::boolean(
                "target_in_town",
                "the target holds a town: half effect against cavalry and guns, quarter against infantry",
                false,
            ),
            Param::choice(
                "effect",
                "full, half (woods by road, bridges, column of route) or quarter effect",
                Effect::Full,
            ),
            Param::int("extra_dice", "extra D6 (Ney's, D'Erlon's, or any other)", 0, 0, 12),
            Param::boolean("reroll_miss", "the charger re-rolls one missed die (Lobau)", false),
            Param::boolean("forced_reroll", "the target forces one successful die to be re-rolled (Orange)", false),
        ],
        build: build_charge,
    }
}
