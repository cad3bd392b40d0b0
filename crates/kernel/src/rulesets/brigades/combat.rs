//! The `combat` scenario: one round of combat (4.1-4.2). Both sides strike at
//! once with D10s hitting on 6 or more after modifiers, natural 1 missing and
//! natural 10 hitting (1.12); the side that loses more hits than it inflicts
//! has lost (5.4 (4)).

use super::{Arm, Grade, Rules, dice_from_figures, grade_param};
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
        let side = |name: &str| Striker {
            arm: settings.choice(&format!("{name}.arm")),
            figures: settings.int(&format!("{name}.figures")) as u32,
            grade: settings.choice(&format!("{name}.quality")),
            modifier: settings.int(&format!("{name}.modifier")) as i32,
        };
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
