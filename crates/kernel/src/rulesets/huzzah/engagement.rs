//! Engagements ("Engage the enemy"): each side rolls 2D6 against its effective
//! rating; success inflicts staggers equal to the margin, failure (or 11-12)
//! takes a kill, the greater success wins and the loser routs.
//!
//! A one-on-one engagement depends only on the two pairs of dice, so
//! [`Engagement`] is a [`PairTable`] of 1296 codes: the rules run once per code
//! in the constructor and sampling is one draw of 1296 faces. The same [`resolve`] serves
//! the multi-turn [`assault`](super::assault).

use super::single::delegate_to_table;
use super::{
    Arm, ArtilleryHuzzahLoss, ArtillerySmallUnit, CavalryKind, Officer, PairTable, Quality, Rules, invalid,
    pair_is_huzzah, pair_total, quality_param, side_key,
};
use crate::catalogue::ScenarioEntry;
use crate::dice::Dice;
use crate::outcome::{Layout, Metric, SIDES};
use crate::params::{Param, ParamError, RuleBook, Settings, rules_of};
use crate::scenario::{DynScenario, Scenario};

crate::choice_enum! {
    /// What becomes of a unit after an engagement ("Engage the enemy").
    pub enum Fate {
        /// It stays where it is (a defender on a tie, or the winner).
        Holds = "holds",
        /// It retires one move in good order (an attacker on a tie, a Huzzah! loser).
        Retires = "retires",
        /// It routs (the loser).
        Routs = "routs",
        /// It is broken and removed.
        Broken = "broken",
    }
}

/// Who won an engagement, as [`SIDES`] indexes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Victor {
    /// The attacker (the phasing player's unit).
    Attacker = 0,
    /// The defender.
    Defender = 1,
    /// Neither.
    Tie = 2,
}

/// One unit in an engagement: its quality, situation and state before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fighter {
    /// Base descriptive quality.
    pub quality: Quality,
    /// Net Ups minus Downs the automatic modifiers below do not cover
    /// (renowned opponent, not in doctrinal deployment, open order in dense terrain ...).
    pub shifts: i32,
    /// Disadvantaged (flank or rear, march column, blown, routing, ...).
    pub disadvantaged: bool,
    /// Staggers before the engagement.
    pub staggers: i32,
    /// Kills before the engagement.
    pub kills: i32,
    /// Its arm.
    pub arm: Arm,
    /// Infantry in square.
    pub square: bool,
    /// An officer attached.
    pub officer: Officer,
    /// In a favourable position.
    pub favourable: bool,
    /// Battle or pursuit cavalry.
    pub cavalry: CavalryKind,
    /// A small unit (batteries follow `artillery_small_unit`).
    pub small: bool,
}

impl Fighter {
    /// A fresh, unmodified infantry unit of `quality`.
    pub fn new(quality: Quality) -> Fighter {
        Fighter {
            quality,
            shifts: 0,
            disadvantaged: false,
            staggers: 0,
            kills: 0,
            arm: Arm::Infantry,
            square: false,
            officer: Officer::None,
            favourable: false,
            cavalry: CavalryKind::Regular,
            small: false,
        }
    }

    /// The same unit of another arm.
    pub fn of_arm(mut self, arm: Arm) -> Fighter {
        self.arm = arm;
        self
    }

    /// Checks the unit; `prefix` names its keys in errors.
    pub fn validate(&self, rules: &Rules, prefix: &str) -> Result<(), ParamError> {
        let full = rules.full_rating(self.quality);
        if !(-10..=10).contains(&self.shifts) {
            return Err(invalid(side_key(prefix, "shifts"), format!("{} is outside -10 to 10", self.shifts)));
        }
        if self.staggers < 0 || self.kills < 0 {
            return Err(invalid(side_key(prefix, "staggers"), "staggers and kills cannot be negative"));
        }
        if self.staggers + self.kills >= full {
            return Err(invalid(
                side_key(prefix, "kills"),
                format!(
                    "{} staggers and {} kills already reach the full rating {full}: the unit is broken",
                    self.staggers, self.kills
                ),
            ));
        }
        if self.square && self.arm != Arm::Infantry {
            return Err(invalid(side_key(prefix, "square"), "only infantry forms square"));
        }
        if self.cavalry != CavalryKind::Regular && self.arm != Arm::Cavalry {
            return Err(invalid(side_key(prefix, "cavalry"), "battle and pursuit apply to cavalry only"));
        }
        Ok(())
    }

    /// Reads `prefix.quality`, `prefix.shifts`, ... from settings.
    pub fn from_settings(settings: &Settings, prefix: &str) -> Fighter {
        let key = |name| side_key(prefix, name);
        Fighter {
            quality: settings.choice(&key("quality")),
            shifts: settings.int(&key("shifts")) as i32,
            disadvantaged: settings.bool(&key("disadvantaged")),
            staggers: settings.int(&key("staggers")) as i32,
            kills: settings.int(&key("kills")) as i32,
            arm: settings.choice(&key("arm")),
            square: settings.bool(&key("square")),
            officer: settings.choice(&key("officer")),
            favourable: settings.bool(&key("favourable")),
            cavalry: settings.choice(&key("cavalry")),
            small: settings.bool(&key("small")),
        }
    }

    /// The keys of one side, `prefix.quality` and so on.
    pub fn params(prefix: &str, quality: Quality) -> Vec<Param> {
        let key = |name| side_key(prefix, name);
        vec![
            quality_param(key("quality"), quality),
            Param::int(key("shifts"), "net Ups minus Downs not covered by the other keys", 0, -10, 10),
            Param::boolean(
                key("disadvantaged"),
                "use the disadvantaged rating (flank, march column, blown ...)",
                false,
            ),
            Param::int(key("staggers"), "staggers before the engagement", 0, 0, 10),
            Param::int(key("kills"), "kills before the engagement", 0, 0, 10),
            Param::choice(key("arm"), "infantry, cavalry or artillery (an unlimbered battery)", Arm::Infantry),
            Param::boolean(key("square"), "infantry in square", false),
            Param::choice(key("officer"), "officer attached: none, attached or inspirational", Officer::None),
            Param::boolean(key("favourable"), "in a favourable position (lost when disadvantaged)", false),
            Param::choice(key("cavalry"), "regular, battle or pursuit cavalry", CavalryKind::Regular),
            Param::boolean(key("small"), "a small unit (batteries follow artillery_small_unit)", false),
        ]
    }
}

/// Whether `me` fights on its disadvantaged rating against `enemy`
/// ("Engage the enemy", Conditions: cavalry against infantry in square).
pub fn is_disadvantaged(me: &Fighter, enemy: &Fighter) -> bool {
    me.disadvantaged || (me.arm == Arm::Cavalry && enemy.arm == Arm::Infantry && enemy.square)
}

/// Whether a unit fights as a small unit: its own `small` key, or a battery
/// under `artillery_small_unit = small` ("Most artillery batteries are small units").
pub fn is_small(rules: &Rules, unit: &Fighter) -> bool {
    unit.small || (unit.arm == Arm::Artillery && rules.artillery_small_unit == ArtillerySmallUnit::Small)
}

/// The effective rating of `me` engaging `enemy` ("Engage the enemy", Procedure).
pub fn engagement_rating(rules: &Rules, me: &Fighter, enemy: &Fighter) -> i32 {
    let disadvantaged = is_disadvantaged(me, enemy);
    let mut shifts = me.shifts;
    // "Down 1 if more kills than opponent"; "Down 1 if more staggers than opponent".
    if me.kills > enemy.kills {
        shifts -= rules.engagement_more_kills_down;
    }
    if me.staggers > enemy.staggers {
        shifts -= rules.engagement_more_staggers_down;
    }
    // "Down 1 if small unit": "Most artillery batteries are small units and
    // suffer this penalty. If smaller units than the typical sized infantry or
    // cavalry units are in play, ... such units suffer this penalty in
    // engagements against standard-sized units." Two small units (a battery
    // among them) meet as equals: neither takes the Down.
    if is_small(rules, me) && !is_small(rules, enemy) {
        shifts -= rules.engagement_small_unit_down;
    }
    // "Disadvantaged units never get the favourable position modifier."
    if me.favourable && !disadvantaged {
        shifts += rules.engagement_favourable_up;
    }
    // "Up 1 if leader attached"; "Up 1 if inspirational leader attached".
    match me.officer {
        Officer::None => {}
        Officer::Attached => shifts += rules.engagement_officer_up,
        Officer::Inspirational => shifts += rules.engagement_officer_up + rules.engagement_inspirational_up,
    }
    if me.arm == Arm::Cavalry {
        // "Up 1 if battle cavalry"; "Up 1 if pursuit cavalry fighting a disadvantaged enemy".
        match me.cavalry {
            CavalryKind::Regular => {}
            CavalryKind::Battle => shifts += rules.engagement_battle_cavalry_up,
            CavalryKind::Pursuit => {
                if is_disadvantaged(enemy, me) {
                    shifts += rules.engagement_pursuit_cavalry_up;
                }
            }
        }
    }
    rules.effective_rating(me.quality, shifts, disadvantaged)
}

/// What one side took in an engagement and what became of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideResult {
    /// The effective rating it rolled against.
    pub rating: i32,
    /// Staggers taken in this engagement.
    pub staggers: i32,
    /// Kills taken in this engagement.
    pub kills: i32,
    /// Broken: staggers and kills reach the full rating, or broken by losing.
    pub broken: bool,
    /// Holds, retires, routs or broken.
    pub fate: Fate,
    /// Cavalry that did not rout (or break) is blown.
    pub blown: bool,
    /// An attached officer is killed when the unit takes a kill or breaks.
    pub officer_killed: bool,
    /// It rolled a Huzzah!.
    pub huzzah: bool,
}

/// A resolved one-on-one engagement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resolution {
    /// Who won.
    pub victor: Victor,
    /// The attacker's side.
    pub attacker: SideResult,
    /// The defender's side.
    pub defender: SideResult,
}

/// Resolves one engagement from the two 2D6 pair indices (attacker's first).
pub fn resolve(
    rules: &Rules,
    attacker: &Fighter,
    defender: &Fighter,
    attacker_pair: u32,
    defender_pair: u32,
) -> Resolution {
    let rating = [engagement_rating(rules, attacker, defender), engagement_rating(rules, defender, attacker)];
    resolve_with_ratings(rules, [attacker, defender], rating, [attacker_pair, defender_pair])
}

/// [`resolve`] with the effective ratings already worked out.
pub fn resolve_with_ratings(rules: &Rules, units: [&Fighter; 2], rating: [i32; 2], pair: [u32; 2]) -> Resolution {
    let roll = [pair_total(pair[0]), pair_total(pair[1])];
    let huzzah = [pair_is_huzzah(pair[0]), pair_is_huzzah(pair[1])];
    // A unit that rolls at or under its rating succeeds by the difference
    // (11 and 12 always fail).
    let passed = [rules.passes(roll[0], rating[0]), rules.passes(roll[1], rating[1])];
    let margin = [rating[0] - roll[0], rating[1] - roll[1]];
    let mut staggers = [0; 2];
    let mut kills = [0; 2];
    for me in 0..2 {
        let enemy = 1 - me;
        // "Any unit that rolls 11 or 12 or that rolls more than its effective
        // morale rating takes one kill whether its side wins or loses."
        if !passed[me] {
            kills[me] += rules.engagement_failure_kills;
        }
        // Huzzah! results: "inflicts one kill on each opposing unit".
        if huzzah[enemy] {
            kills[me] += rules.engagement_huzzah_kills;
        }
        // The enemy's success inflicts staggers equal to its margin, which a
        // Huzzah! ignores.
        if passed[enemy] && !huzzah[me] {
            staggers[me] = margin[enemy];
        }
    }
    // "The unit that succeeds by the greatest amount is the winner"; a tie if
    // both fail or the differences are equal.
    let mut victor = match (passed[0], passed[1]) {
        (true, true) if margin[0] > margin[1] => Victor::Attacker,
        (true, true) if margin[1] > margin[0] => Victor::Defender,
        (true, false) => Victor::Attacker,
        (false, true) => Victor::Defender,
        _ => Victor::Tie,
    };
    // "A unit whose total of staggers and kills equals or exceeds its full,
    // not disadvantaged, morale rating is broken."
    let mut broken = [false; 2];
    for side in 0..2 {
        let unit = units[side];
        broken[side] = unit.staggers + unit.kills + staggers[side] + kills[side] >= rules.full_rating(unit.quality);
    }
    // "The result is a tie if the winner breaks as a result of staggers and kills."
    if (victor == Victor::Attacker && broken[0]) || (victor == Victor::Defender && broken[1]) {
        victor = Victor::Tie;
    }
    let mut fate = [Fate::Holds; 2];
    for side in 0..2 {
        let (me, enemy) = (units[side], units[1 - side]);
        let lost = match victor {
            Victor::Attacker => side == 1,
            Victor::Defender => side == 0,
            Victor::Tie => false,
        };
        if lost && loss_breaks(rules, me, enemy.arm == Arm::Cavalry, huzzah[side]) {
            broken[side] = true;
        }
        fate[side] = if broken[side] {
            Fate::Broken
        } else if lost {
            // "A unit that rolls Huzzah! but loses retires, not routs."
            if huzzah[side] { Fate::Retires } else { Fate::Routs }
        } else if victor == Victor::Tie && side == 0 {
            // "Attacking units in a tied engagement retire one move."
            Fate::Retires
        } else {
            Fate::Holds
        };
    }
    let side_result = |side: usize| {
        let unit = units[side];
        SideResult {
            rating: rating[side],
            staggers: staggers[side],
            kills: kills[side],
            broken: broken[side],
            fate: fate[side],
            // "Cavalry that does not rout after an engagement is blown."
            blown: unit.arm == Arm::Cavalry && matches!(fate[side], Fate::Holds | Fate::Retires),
            // "An attached officer is killed ... if the unit he is attached to
            // takes a kill in an engagement or is broken."
            officer_killed: unit.officer != Officer::None && (kills[side] > 0 || broken[side]),
            huzzah: huzzah[side],
        }
    };
    Resolution { victor, attacker: side_result(0), defender: side_result(1) }
}

/// What one unit of a multi-unit engagement took and what became of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitResult {
    /// Staggers taken.
    pub staggers: i32,
    /// Kills taken.
    pub kills: i32,
    /// Broken.
    pub broken: bool,
    /// Holds, retires, routs or broken.
    pub fate: Fate,
}

/// A resolved multi-unit engagement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MultiResolution {
    /// Who won.
    pub victor: Victor,
    /// Each attacking unit, in the order given.
    pub attackers: Vec<UnitResult>,
    /// Each defending unit, in the order given.
    pub defenders: Vec<UnitResult>,
}

/// Whether a unit that loses an engagement is broken by it, whatever its
/// staggers and kills: an unlimbered battery, or infantry not in square against
/// cavalry in the open (one-on-one engagements are in the open), in either
/// case unless its own roll is a Huzzah! where the rules or the
/// `artillery_huzzah_loss` interpretation spare it.
pub fn loss_breaks(rules: &Rules, me: &Fighter, enemy_has_cavalry: bool, huzzah: bool) -> bool {
    // "Unlimbered artillery that loses an engagement is broken."
    let battery_breaks =
        me.arm == Arm::Artillery && (!huzzah || rules.artillery_huzzah_loss == ArtilleryHuzzahLoss::Breaks);
    // "Infantry that is not in square ... and which loses an engagement in
    // open terrain involving enemy cavalry is broken unless it gets a Huzzah!
    // result."
    let caught_by_cavalry = me.arm == Arm::Infantry && !me.square && enemy_has_cavalry && !huzzah;
    battery_breaks || caught_by_cavalry
}

/// Resolves a multi-unit engagement ("Engage the enemy", Multiple unit
/// engagements): each side's units with their effective ratings and rolls
/// (pair indices). Each side's best success alone inflicts staggers, divided
/// equally among the opposing units, odd staggers first to a unit that took
/// a kill (where the controlling player would choose, the first listed unit
/// takes them: interpretation). A Huzzah! inflicts a kill on every opposing
/// unit and its own share of staggers is lost, not redistributed.
pub fn resolve_multi(
    rules: &Rules,
    units: [&[Fighter]; 2],
    ratings: [&[i32]; 2],
    pairs: [&[u32]; 2],
) -> MultiResolution {
    let mut best: [Option<(i32, usize)>; 2] = [None, None];
    let mut results: [Vec<UnitResult>; 2] = [Vec::new(), Vec::new()];
    for side in 0..2 {
        for (index, (&rating, &pair)) in ratings[side].iter().zip(pairs[side]).enumerate() {
            let roll = pair_total(pair);
            let passed = rules.passes(roll, rating);
            // "All units that roll 11 or 12 or that roll over their effective
            // morale rating take one kill even if their side wins."
            let kills = if passed { 0 } else { rules.engagement_failure_kills };
            results[side].push(UnitResult { staggers: 0, kills, broken: false, fate: Fate::Holds });
            // "The unit that rolls the greatest difference ... wins the engagement for its side."
            if passed && best[side].is_none_or(|(margin, _)| rating - roll > margin) {
                best[side] = Some((rating - roll, index));
            }
        }
    }
    for side in 0..2 {
        let enemy = 1 - side;
        // Huzzah! results: one kill on each opposing unit per Huzzah!.
        let enemy_huzzahs = pairs[enemy].iter().filter(|&&pair| pair_is_huzzah(pair)).count() as i32;
        for result in &mut results[side] {
            result.kills += enemy_huzzahs * rules.engagement_huzzah_kills;
        }
        // "Any staggers are divided equally between units. Any odd staggers are
        // first allocated to any unit that takes a kill."
        let count = results[side].len() as i32;
        if let (Some((margin, _)), true) = (best[enemy], count > 0) {
            let (share, mut odd) = (margin / count, margin % count);
            let mut order: Vec<usize> = (0..results[side].len()).collect();
            order.sort_by_key(|&i| results[side][i].kills == 0);
            for &i in &order {
                let extra = if odd > 0 { 1 } else { 0 };
                odd -= extra;
                // A Huzzah! ignores the staggers; they are lost.
                if !pair_is_huzzah(pairs[side][i]) {
                    results[side][i].staggers = share + extra;
                }
            }
        }
        for (result, unit) in results[side].iter_mut().zip(units[side]) {
            result.broken =
                unit.staggers + unit.kills + result.staggers + result.kills >= rules.full_rating(unit.quality);
        }
    }
    let mut victor = match (best[0], best[1]) {
        (Some((a, _)), Some((d, _))) if a > d => Victor::Attacker,
        (Some((a, _)), Some((d, _))) if d > a => Victor::Defender,
        (Some(_), None) => Victor::Attacker,
        (None, Some(_)) => Victor::Defender,
        _ => Victor::Tie,
    };
    // "If the winning unit on one side breaks, the result is a tie."
    if let Some((_, index)) = match victor {
        Victor::Attacker => best[0],
        Victor::Defender => best[1],
        Victor::Tie => None,
    } {
        let side = if victor == Victor::Attacker { 0 } else { 1 };
        if results[side][index].broken {
            victor = Victor::Tie;
        }
    }
    for side in 0..2 {
        let lost = (victor == Victor::Attacker && side == 1) || (victor == Victor::Defender && side == 0);
        let enemy_has_cavalry = units[1 - side].iter().any(|unit| unit.arm == Arm::Cavalry);
        for (index, result) in results[side].iter_mut().enumerate() {
            let huzzah = pair_is_huzzah(pairs[side][index]);
            // A losing battery, or infantry out of square against cavalry,
            // breaks (as one-on-one: "All units obey the results for ties or
            // losing, as for one-on-one engagements").
            if lost && loss_breaks(rules, &units[side][index], enemy_has_cavalry, huzzah) {
                result.broken = true;
            }
            result.fate = if result.broken {
                Fate::Broken
            } else if lost {
                if huzzah { Fate::Retires } else { Fate::Routs }
            } else if victor == Victor::Tie && side == 0 {
                Fate::Retires
            } else {
                Fate::Holds
            };
        }
    }
    let [attackers, defenders] = results;
    MultiResolution { victor, attackers, defenders }
}

/// One one-on-one engagement: 1296 equally likely pairs of rolls.
#[derive(Clone, Debug)]
pub struct Engagement {
    ratings: [i32; 2],
    table: PairTable<2>,
}

/// The metrics of an engagement, in order.
pub fn metrics() -> Vec<Metric> {
    vec![
        Metric::categories("result", "who won: attacker, defender or tie", SIDES),
        Metric::integer("attacker_staggers", "staggers the attacker took in this engagement", 0, 9),
        Metric::integer("attacker_kills", "kills the attacker took in this engagement", 0, 6),
        Metric::integer("defender_staggers", "staggers the defender took in this engagement", 0, 9),
        Metric::integer("defender_kills", "kills the defender took in this engagement", 0, 6),
        Metric::boolean("attacker_broken", "whether the attacker is broken"),
        Metric::boolean("defender_broken", "whether the defender is broken"),
        Metric::categories("attacker_fate", "holds, retires, routs or broken", <Fate as crate::params::Choice>::NAMES),
        Metric::categories("defender_fate", "holds, retires, routs or broken", <Fate as crate::params::Choice>::NAMES),
        Metric::boolean("attacker_blown", "whether the attacker is cavalry left blown"),
        Metric::boolean("defender_blown", "whether the defender is cavalry left blown"),
        Metric::boolean("attacker_officer_killed", "whether the attacker's attached officer is killed"),
        Metric::boolean("defender_officer_killed", "whether the defender's attached officer is killed"),
    ]
}

impl Engagement {
    /// An engagement between two validated units.
    pub fn new(rules: &Rules, attacker: Fighter, defender: Fighter) -> Result<Self, ParamError> {
        attacker.validate(rules, "attacker")?;
        defender.validate(rules, "defender")?;
        let ratings = [engagement_rating(rules, &attacker, &defender), engagement_rating(rules, &defender, &attacker)];
        let table = PairTable::new(metrics(), |pairs| {
            let r = resolve_with_ratings(rules, [&attacker, &defender], ratings, [pairs[0], pairs[1]]);
            let (a, d) = (r.attacker, r.defender);
            vec![
                r.victor as i64,
                i64::from(a.staggers),
                i64::from(a.kills),
                i64::from(d.staggers),
                i64::from(d.kills),
                i64::from(a.broken),
                i64::from(d.broken),
                a.fate as i64,
                d.fate as i64,
                i64::from(a.blown),
                i64::from(d.blown),
                i64::from(a.officer_killed),
                i64::from(d.officer_killed),
            ]
        });
        Ok(Engagement { ratings, table })
    }

    /// The effective ratings, attacker's first.
    pub fn ratings(&self) -> [i32; 2] {
        self.ratings
    }

    /// The code of a pair of rolls (pair indices, attacker's first).
    pub fn code(attacker_pair: u32, defender_pair: u32) -> u64 {
        u64::from(attacker_pair) * 36 + u64::from(defender_pair)
    }
}

delegate_to_table!(Engagement);

fn build(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    let rules = rules_of::<Rules>(rules);
    Ok(Box::new(Engagement::new(
        rules,
        Fighter::from_settings(settings, "attacker"),
        Fighter::from_settings(settings, "defender"),
    )?))
}

/// The `engagement` scenario.
pub fn entry() -> ScenarioEntry {
    let mut params = Fighter::params("attacker", Quality::Trained);
    params.extend(Fighter::params("defender", Quality::Trained));
    ScenarioEntry {
        name: "engagement",
        summary: "One one-on-one engagement: staggers, kills, the winner and each unit's fate.",
        params,
        build,
    }
}
