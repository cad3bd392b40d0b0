//! The `combat` scenario: one round of combat (4.1-4.2). Both sides strike at
//! once with D10s hitting on 6 or more after modifiers, natural 1 missing and
//! natural 10 hitting (1.12); the side that loses more hits than it inflicts
//! has lost (5.4 (4)).

use super::{Arm, Grade, Rules, dice_from_figures, grade_param, invalid, split_dice};
use crate::dice::Dice;
use crate::outcome::{Layout, Metric, WINNERS};
use crate::params::{Param, ParamError, Settings};
use crate::pmf::Pmf;
use crate::scenario::Scenario;

/// The keys of `combat`.
pub fn params() -> Vec<Param> {
    let mut params = Vec::new();
    for (side, arm) in [("attacker", Arm::Cavalry), ("defender", Arm::Infantry)] {
        params.push(Param::choice(format!("{side}.arm"), "infantry, cavalry or gunners (4.1)", arm));
        params.push(Param::int(
            format!("{side}.figures"),
            "eligible figures: the front rank (two ranks when cavalry fights cavalry; 4.1, 4.10)",
            12,
            0,
            200,
        ));
        params.push(grade_param(&format!("{side}.quality"), "morale grade (4.2: +1 per grade higher than the enemy)"));
        params.push(Param::int(format!("{side}.modifier"), "net of the other combat modifiers (4.2)", 0, -20, 20));
    }
    params.push(Param::boolean(
        "open_ground",
        "the infantry is unsquared in the open: cavalry against it rolls one die per figure (4.1)",
        true,
    ));
    params
}

/// One side of a combat, as the round sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Striker {
    /// Its arm.
    pub arm: Arm,
    /// Eligible figures.
    pub figures: u32,
    /// Its grade.
    pub grade: Grade,
    /// Net of the other combat modifiers.
    pub modifier: i32,
}

impl Striker {
    /// A side's keys `PREFIX.arm`, `.figures`, `.quality` and `.modifier`.
    pub fn from_settings(settings: &Settings, prefix: &str) -> Striker {
        Striker {
            arm: settings.choice(&format!("{prefix}.arm")),
            figures: settings.int(&format!("{prefix}.figures")) as u32,
            grade: settings.choice(&format!("{prefix}.quality")),
            modifier: settings.int(&format!("{prefix}.modifier")) as i32,
        }
    }
}

/// 4.1 The dice a striker rolls against an enemy of `enemy_arm`.
pub fn combat_dice(rules: &Rules, striker: Arm, figures: u32, enemy_arm: Arm, open_ground: bool) -> u32 {
    match striker {
        Arm::Cavalry
            if enemy_arm == Arm::Infantry && open_ground && rules.combat_cavalry_vs_open_infantry_die_per_figure =>
        {
            // 4.1: cavalry against unsquared infantry in the open: one die per figure.
            figures
        }
        Arm::Cavalry => {
            dice_from_figures(figures, rules.combat_cavalry_figures_per_die, rules.combat_cavalry_remainder_rounds_up)
        }
        Arm::Infantry | Arm::Gunners => {
            dice_from_figures(figures, rules.combat_foot_figures_per_die, rules.combat_foot_remainder_rounds_up)
        }
    }
}

/// 4.2 The grade modifier of `grade` against `enemy`: +1 per grade higher.
pub fn grade_modifier(rules: &Rules, grade: Grade, enemy: Grade) -> i32 {
    (enemy.index() as i32 - grade.index() as i32) * rules.combat_per_grade
}

/// One round of combat.
#[derive(Clone, Debug)]
pub struct Combat {
    attacker_dice: u32,
    defender_dice: u32,
    attacker_faces: [bool; 10],
    defender_faces: [bool; 10],
    attacker_chance: f64,
    defender_chance: f64,
    layout: Layout,
}

impl Combat {
    /// A round between two strikers.
    pub fn new(rules: &Rules, attacker: Striker, defender: Striker, open_ground: bool) -> Result<Combat, ParamError> {
        let attacker_dice = combat_dice(rules, attacker.arm, attacker.figures, defender.arm, open_ground);
        let defender_dice = combat_dice(rules, defender.arm, defender.figures, attacker.arm, open_ground);
        let attacker_modifier = attacker.modifier + grade_modifier(rules, attacker.grade, defender.grade);
        let defender_modifier = defender.modifier + grade_modifier(rules, defender.grade, attacker.grade);
        let layout = Layout::new(vec![
            Metric::integer("hits_on_attacker", "hits the defender scores", 0, i64::from(defender_dice)),
            Metric::integer("hits_on_defender", "hits the attacker scores", 0, i64::from(attacker_dice)),
            Metric::categories("loser", "the side that loses more hits than it inflicts, or none", WINNERS),
        ]);
        // 4.1: the base chance to hit is 6-10.
        let base = rules.combat_base_to_hit;
        Ok(Combat {
            attacker_dice,
            defender_dice,
            attacker_faces: rules.hit_faces(base, attacker_modifier),
            defender_faces: rules.hit_faces(base, defender_modifier),
            attacker_chance: rules.hit_chance(base, attacker_modifier),
            defender_chance: rules.hit_chance(base, defender_modifier),
            layout,
        })
    }

    /// From the catalogue's settings.
    pub fn from_settings(rules: &Rules, settings: &Settings) -> Result<Combat, ParamError> {
        let side = |name| Striker::from_settings(settings, name);
        Combat::new(rules, side("attacker"), side("defender"), settings.bool("open_ground"))
    }

    /// The dice each side rolls (attacker, defender).
    pub fn dice(&self) -> (u32, u32) {
        (self.attacker_dice, self.defender_dice)
    }

    /// The chance each side's die hits (attacker, defender).
    pub fn chances(&self) -> (f64, f64) {
        (self.attacker_chance, self.defender_chance)
    }

    fn code(&self, hits_on_attacker: u32, hits_on_defender: u32) -> u64 {
        // 5.4 (4): the loser loses more hits than it inflicts.
        let loser = match hits_on_attacker.cmp(&hits_on_defender) {
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Less => 1,
            std::cmp::Ordering::Equal => 2,
        };
        self.layout.encode(&[i64::from(hits_on_attacker), i64::from(hits_on_defender), loser])
    }
}

impl Scenario for Combat {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    #[inline]
    fn sample(&self, dice: &mut Dice) -> u64 {
        let mut on_defender = 0;
        for _ in 0..self.attacker_dice {
            on_defender += u32::from(self.attacker_faces[dice.d10() as usize - 1]);
        }
        let mut on_attacker = 0;
        for _ in 0..self.defender_dice {
            on_attacker += u32::from(self.defender_faces[dice.d10() as usize - 1]);
        }
        self.code(on_attacker, on_defender)
    }

    fn has_exact(&self) -> bool {
        true
    }

    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        let on_defender = Pmf::binomial(self.attacker_dice, self.attacker_chance);
        let on_attacker = Pmf::binomial(self.defender_dice, self.defender_chance);
        Some(on_attacker.joint(&on_defender).map(|(a, d, p)| (self.code(a as u32, d as u32), p)).collect())
    }
}

crate::choice_enum! {
    /// 4.5: which attacker the defender has the most figures in combat with,
    /// so takes its odd die.
    pub enum SplitTowards {
        /// The first attacker.
        Attacker = "attacker",
        /// The second attacker.
        Second = "second",
    }
}

/// The keys of `multi_combat`: those of `combat`, a `second` attacker, and
/// where the defender's odd die goes.
pub fn multi_params() -> Vec<Param> {
    let mut params = params();
    params.push(Param::choice("second.arm", "the second attacker: infantry, cavalry or gunners (4.1)", Arm::Infantry));
    params.push(Param::int("second.figures", "the second attacker's eligible figures (4.1)", 12, 1, 200));
    params.push(grade_param("second.quality", "the second attacker's morale grade (4.2)"));
    params.push(Param::int("second.modifier", "net of the second attacker's other combat modifiers (4.2)", 0, -20, 20));
    params.push(Param::int(
        "defender.modifier_vs_attacker",
        "the defender's modifiers against the first attacker alone, added to defender.modifier (4.9 Case D: none at the unit in front)",
        0,
        -20,
        20,
    ));
    params.push(Param::int(
        "defender.modifier_vs_second",
        "the defender's modifiers against the second attacker alone, added to defender.modifier (4.9 Case D: -3 striking to a flank attacker)",
        0,
        -20,
        20,
    ));
    params.push(Param::choice(
        "defender.split_towards",
        "the attacker the defender has the most figures in combat with, which takes its odd die (4.5)",
        SplitTowards::Attacker,
    ));
    params
}

/// One round of a multi-unit combat (4.5): two units strike one, which
/// divides its dice as evenly as possible between them, the odd die towards
/// the one it has the most figures in combat with. Each attacker's dice all
/// strike the defender. The defender's grade modifier is taken against each
/// target in turn (4.2, grade against grade), its other modifiers
/// (`defender.modifier`) against both, and each target's own
/// (`defender.modifier_vs_attacker`, `defender.modifier_vs_second`) against
/// that target alone: in 4.9 Case D the defender strikes the unit in front
/// "with no penalty" and the one on its flank at -3 (4.7).
///
/// `loser` compares the sides' totals (the attackers together against the
/// defender); 5.4 (4) tests a unit that lost a combat, and where each of two
/// units on a side compares only its own hits the rules do not say, so
/// `attacker_lost` and `second_lost` give each attacker's own comparison
/// (the hits the defender put on it against the hits it scored).
#[derive(Clone, Debug)]
pub struct MultiCombat {
    /// Dice of the first attacker, the second, and the defender at each.
    dice: [u32; 4],
    faces: [[bool; 10]; 4],
    chances: [f64; 4],
    layout: Layout,
}

/// The most joint outcomes the exact solver enumerates.
const MULTI_EXACT_LIMIT: u64 = 20_000_000;

impl MultiCombat {
    /// A round between `attacker` and `second` on one side and `defender`,
    /// the defender's modifiers the same against both.
    pub fn new(
        rules: &Rules,
        attacker: Striker,
        second: Striker,
        defender: Striker,
        towards: SplitTowards,
        open_ground: bool,
    ) -> Result<MultiCombat, ParamError> {
        MultiCombat::with_targets(rules, attacker, second, defender, towards, open_ground, [0, 0])
    }

    /// The same, the defender also taking `per_target[i]` against the first
    /// (0) and the second (1) attacker alone (4.9 Case D, 4.7).
    pub fn with_targets(
        rules: &Rules,
        attacker: Striker,
        second: Striker,
        defender: Striker,
        towards: SplitTowards,
        open_ground: bool,
        per_target: [i32; 2],
    ) -> Result<MultiCombat, ParamError> {
        // A cavalry defender's dice depend on its enemy's arm (4.1); against
        // two arms at once they would depend on how it divides them first.
        if defender.arm == Arm::Cavalry && attacker.arm != second.arm {
            return Err(invalid(
                "second.arm",
                "a cavalry defender's dice depend on its enemy's arm (4.1): give both attackers the same arm",
            ));
        }
        let defender_dice = combat_dice(rules, defender.arm, defender.figures, attacker.arm, open_ground);
        let weights = match towards {
            SplitTowards::Attacker => [1, 0],
            SplitTowards::Second => [0, 1],
        };
        let split = split_dice(defender_dice, &weights);
        let dice = [
            combat_dice(rules, attacker.arm, attacker.figures, defender.arm, open_ground),
            combat_dice(rules, second.arm, second.figures, defender.arm, open_ground),
            split[0],
            split[1],
        ];
        let modifiers = [
            attacker.modifier + grade_modifier(rules, attacker.grade, defender.grade),
            second.modifier + grade_modifier(rules, second.grade, defender.grade),
            defender.modifier + per_target[0] + grade_modifier(rules, defender.grade, attacker.grade),
            defender.modifier + per_target[1] + grade_modifier(rules, defender.grade, second.grade),
        ];
        // 4.1: the base chance to hit is 6-10.
        let base = rules.combat_base_to_hit;
        let layout = Layout::new(vec![
            Metric::integer(
                "hits_on_attacker",
                "hits the defender scores on the first attacker",
                0,
                i64::from(dice[2]),
            ),
            Metric::integer("hits_on_second", "hits the defender scores on the second attacker", 0, i64::from(dice[3])),
            Metric::integer("hits_on_defender", "hits both attackers score", 0, i64::from(dice[0] + dice[1])),
            Metric::categories(
                "loser",
                "the side that loses more hits than it inflicts (the attackers' totals), or none",
                WINNERS,
            ),
            Metric::boolean("attacker_lost", "whether the first attacker took more hits than it scored"),
            Metric::boolean("second_lost", "whether the second attacker took more hits than it scored"),
        ]);
        Ok(MultiCombat {
            dice,
            faces: modifiers.map(|m| rules.hit_faces(base, m)),
            chances: modifiers.map(|m| rules.hit_chance(base, m)),
            layout,
        })
    }

    /// From the catalogue's settings.
    pub fn from_settings(rules: &Rules, settings: &Settings) -> Result<MultiCombat, ParamError> {
        let side = |name| Striker::from_settings(settings, name);
        MultiCombat::with_targets(
            rules,
            side("attacker"),
            side("second"),
            side("defender"),
            settings.choice("defender.split_towards"),
            settings.bool("open_ground"),
            [settings.int("defender.modifier_vs_attacker") as i32, settings.int("defender.modifier_vs_second") as i32],
        )
    }

    /// The dice of the first attacker, the second, and the defender at each.
    pub fn dice(&self) -> [u32; 4] {
        self.dice
    }

    /// The chance of each of those dice to hit.
    pub fn chances(&self) -> [f64; 4] {
        self.chances
    }

    /// The code of hits by the first and second attacker and on each.
    fn code(&self, by: [u32; 2], on: [u32; 2]) -> u64 {
        let (taken, scored) = (on[0] + on[1], by[0] + by[1]);
        let loser = match taken.cmp(&scored) {
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Less => 1,
            std::cmp::Ordering::Equal => 2,
        };
        self.layout.encode(&[
            i64::from(on[0]),
            i64::from(on[1]),
            i64::from(scored),
            loser,
            i64::from(on[0] > by[0]),
            i64::from(on[1] > by[1]),
        ])
    }
}

impl Scenario for MultiCombat {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn sample(&self, dice: &mut Dice) -> u64 {
        let mut hits = [0u32; 4];
        for (slot, hit) in hits.iter_mut().enumerate() {
            for _ in 0..self.dice[slot] {
                *hit += u32::from(self.faces[slot][dice.d10() as usize - 1]);
            }
        }
        self.code([hits[0], hits[1]], [hits[2], hits[3]])
    }

    fn has_exact(&self) -> bool {
        self.dice.iter().map(|&d| u64::from(d) + 1).product::<u64>() <= MULTI_EXACT_LIMIT
    }

    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        if !self.has_exact() {
            return None;
        }
        let pmfs: Vec<Pmf> = (0..4).map(|slot| Pmf::binomial(self.dice[slot], self.chances[slot])).collect();
        let mut codes: std::collections::HashMap<u64, f64> = std::collections::HashMap::new();
        for (by0, by1, p) in pmfs[0].joint(&pmfs[1]) {
            for (on0, on1, q) in pmfs[2].joint(&pmfs[3]) {
                *codes.entry(self.code([by0 as u32, by1 as u32], [on0 as u32, on1 as u32])).or_insert(0.0) += p * q;
            }
        }
        Some(codes.into_iter().collect())
    }
}
