//! An assault (2, 3, 4, 5) as a game: attackers advance from a distance under
//! the defenders' artillery and musketry, firing back, halt where they choose,
//! charge the last stretch, then melee until one side fails morale.
//! `farm_assault` is the Hougoumont case: defenders behind walls and in
//! buildings, and the attackers' own guns trying to penetrate the buildings
//! and set them alight.
//!
//! # A turn
//!
//! Each turn follows 1, as three steps of the game (orders, movement and
//! artillery; the defenders' volley; the attackers' volley or the melee with
//! the Morale Check), so `turns` counts three steps as one turn:
//!
//! 1. **Give Orders and Movement.** A retreating attacker tries to rally (a
//!    D20 against its morale need) or retreats 8 inches more, leaving the
//!    field past its table edge (5). An attacker not retreating takes the
//!    decision [`ADVANCE`]: hold, advance any whole number of inches up to its
//!    move (movement rates are maximums, 2), or, within its move plus its
//!    charge bonus, charge into contact.
//! 2. **Artillery.** While the units are not in contact (3.3), the attackers'
//!    battery fires at the buildings and the defenders' guns at the attackers:
//!    canister within its range, flat-trajectory shot or howitzer shells
//!    beyond. A howitzer firing again at a target that has not moved since
//!    adds its consecutive bonus (3.2); the count resets when it does not fire
//!    or the target moves.
//! 3. **Defenders' small arms**, from the figures left after artillery (3.2
//!    note), at the distance; in the turn of a charge only under
//!    `closing_volley = at_charge_start`, at the distance the charge began
//!    (the defenders' guns then fire canister at it too).
//! 4. **Attackers' small arms**, from the figures they had after artillery
//!    (both volleys are simultaneous), unless they are retreating, in contact,
//!    or forbidden by `attacker_fire` (cavalry does not fire by default).
//! 5. **Melee and Morale Check.** Units in contact fight a round (4); a unit
//!    that lost 25% in the Firing or the Melee phase, or fell below half,
//!    tests (5); a burning building makes its defenders test under
//!    `burning_building = morale_test`.
//!
//! The fight ends when the defenders fail morale (they retreat from the
//! position: the attackers win; if the attackers also failed in the same
//! phase, no one holds it: none), when the attackers leave the field (the
//! defenders win), when a side is destroyed, when the buildings burn under
//! `burning_building = evacuate` (the attackers win), or at the turn limit
//! (none).
//!
//! # Decisions
//!
//! Only the attacker decides: how far to move and when to charge. Its
//! options are listed least movement first (hold, advance 1 inch, ...,
//! advance its full move, charge), so that among equal options the solver
//! keeps the attacker back. Its policies: `bold` charges when it can and
//! otherwise advances its full move (the fixed play before the game model);
//! `cautious` never ends a move nearer than its charge reach (move plus
//! charge bonus) unless it charges from there. The rules give the defender no
//! choice worth a decision here: firing never harms the firer, so every
//! defender and gun fires whenever the rules allow, and a defender that
//! leaves its position concedes it (see the ruleset note, item 9).
//!
//! Every state of a default fight is solved exactly; the solver's tables are
//! built once per scenario. Settings whose graph would outgrow the solver
//! ([`Assault::size_estimate`] above [`SOLVER_LIMIT`]) play the `cautious`
//! fallback; measured on the default assault, cautious wins 11.9% where best
//! play wins 19.2% (bold: 11.2%), a gap of 7.3 points.
//!
//! The turn limit matters to best play: a fight still going at the limit is
//! undecided (`assault_limit`), and an attacker that expects to lose more
//! than it wins may hold out of musket range and wait for it. The default
//! assault attacks at 30 turns (19.2%) but waits at 20 (0.0%, 77% undecided).

use super::artillery::{Gun, Shot};
use super::melee::{MeleeSide, resolve};
use super::{
    Arm, ArtilleryKind, AssaultLimit, AttackerFire, BurningBuilding, ClosingVolley, Cover, Crew, Ground,
    HalfStrengthTest, LossTestBase, MeleeCasualties, Quality, Rules, Target, Troops, d20_at_least, percent,
};
use crate::dice::Dice;
use crate::game::{ATTACKER, DEFENDER, Decision, Fate, Game, Law, NONE, Policy};
use crate::outcome::{Layout, Metric, WINNERS};
use crate::params::ParamError;
use crate::pmf::Pmf;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The attackers' guns bombarding the defenders' buildings (`farm_assault`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Battery {
    /// How many guns.
    pub guns: u32,
    /// Flat trajectory or howitzer.
    pub kind: ArtilleryKind,
    /// The crews' quality (howitzer adjustment).
    pub crew: Crew,
    /// Inches from the guns to the buildings.
    pub distance: u32,
}

/// Everything an assault is built from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AssaultSetup {
    /// The attacker's figures.
    pub attacker_figures: u32,
    /// The attacker's experience.
    pub attacker_quality: Quality,
    /// How the attacker moves.
    pub attacker_arm: Arm,
    /// The ground the attackers cross.
    pub ground: Ground,
    /// The defender's figures.
    pub defender_figures: u32,
    /// The defender's experience.
    pub defender_quality: Quality,
    /// What the defenders fire.
    pub defender_troops: Troops,
    /// Open (the `assault`) or walls and buildings (`farm_assault`).
    pub defender_cover: Cover,
    /// The defenders' guns: canister within its range, `defender_artillery` beyond.
    pub defender_guns: u32,
    /// Flat trajectory or howitzer: what the defenders' guns fire beyond canister range.
    pub defender_artillery: ArtilleryKind,
    /// The attackers' guns, if any, bombarding the defenders' buildings.
    pub battery: Option<Battery>,
    /// Inches between the units at the start.
    pub distance: u32,
    /// Inches behind the attacker's start to its table edge.
    pub edge: u32,
    /// The turn limit.
    pub turns: u32,
}

/// The decision of the attacker in each Movement phase.
pub static ADVANCE: Decision = Decision {
    name: "advance",
    who: "attacker",
    doc: "In Movement (2), how far the attackers move: movement rates are maximums, so they may hold or stop \
          short; within their move plus charge bonus they may charge into contact.",
    options: "hold; advance 1 inch, 2 inches, ... up to the full move; charge (least movement first)",
};

static DECISIONS: &[&Decision] = &[&ADVANCE];

/// The steps of a turn: orders, movement and artillery; the defenders'
/// volley; the attackers' volley or the melee, and the Morale Check.
const MOVEMENT: u8 = 0;
const DEFENDER_VOLLEY: u8 = 1;
const CLOSE: u8 = 2;
/// Steps per turn.
pub const PHASES: u32 = 3;

/// The attacker is retreating (failed morale, not yet rallied).
const ROUTED: u8 = 1;
/// A howitzer has blown the roof off.
const ROOF_OFF: u8 = 2;
/// The buildings burn.
const BURNING: u8 = 4;
/// The battery's howitzers fired at the buildings last turn.
const BATTERY_RANGED: u8 = 8;
/// The defenders' howitzers fired at the attackers last turn, and the attackers have not moved since.
const GUNS_RANGED: u8 = 16;
/// The attacker must test morale at this turn's Morale Check.
const ATTACKER_TESTS: u8 = 32;
/// The defender must test morale at this turn's Morale Check.
const DEFENDER_TESTS: u8 = 64;

/// An assault between steps. Fields that cannot matter at a step are kept
/// at zero, so that equal situations are one state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The attacker's figures.
    attacker: u8,
    /// The defender's figures.
    defender: u8,
    /// The attacker's figures at the start of the Firing phase (morale), then,
    /// before its volley, the figures that fire it.
    attacker_mark: u8,
    /// The defender's figures at the start of the Firing phase (morale).
    defender_mark: u8,
    /// Inches between the attackers and the position (0: in contact).
    distance: u8,
    /// The distance the defenders fire at this turn (0: they do not).
    fire_at: u8,
    /// The next step of the turn.
    phase: u8,
    /// [`ROUTED`], [`ROOF_OFF`], ...
    flags: u8,
}

/// Casualties of one volley of small arms (3.1): each figure's D20 against a need.
#[derive(Debug)]
struct Volley {
    figures: u32,
    need: i32,
    figures_per_hit: u32,
    outcomes: Vec<(u32, f64)>,
}

impl Volley {
    fn new(figures: u32, need: i32, figures_per_hit: u32) -> Volley {
        let outcomes = Pmf::binomial(figures, d20_at_least(need))
            .iter()
            .filter(|&(_, p)| p > 0.0)
            .map(|(hits, p)| (hits as u32 * figures_per_hit, p))
            .collect();
        Volley { figures, need, figures_per_hit, outcomes }
    }
}

impl Law for Volley {
    fn sample(&self, dice: &mut Dice) -> u32 {
        let mut hits = 0;
        for _ in 0..self.figures {
            hits += u32::from(dice.d20() as i32 >= self.need);
        }
        hits * self.figures_per_hit
    }

    fn outcomes(&self) -> &[(u32, f64)] {
        &self.outcomes
    }
}

/// One turn of several guns at one target: casualties, and for a building
/// whether the roof came off and whether it caught fire, packed as
/// `casualties << 2 | roof_blown << 1 | fire`. Each gun fires in turn, so a
/// roof blown by the first is gone for the second.
#[derive(Debug)]
struct Salvo {
    gun: Gun,
    guns: u32,
    roof_intact: bool,
    figures_per_hit: u32,
    outcomes: Vec<(u32, f64)>,
}

fn pack_shot(casualties: u32, roof_blown: bool, fire: bool) -> u32 {
    casualties << 2 | u32::from(roof_blown) << 1 | u32::from(fire)
}

impl Salvo {
    fn new(gun: Gun, guns: u32, roof_intact: bool, figures_per_hit: u32) -> Salvo {
        let mut salvo = Salvo { gun, guns, roof_intact, figures_per_hit, outcomes: Vec::new() };
        // (casualties, roof still intact, fire) after each gun.
        let mut states: BTreeMap<(u32, bool, bool), f64> = BTreeMap::from([((0, roof_intact, false), 1.0)]);
        for _ in 0..guns {
            let mut next = BTreeMap::new();
            for ((casualties, intact, fire), p) in states {
                for (shot, q) in salvo.gun.exact(intact) {
                    let key = (casualties + salvo.casualties(shot), intact && !shot.roof_blown, fire || shot.fire);
                    *next.entry(key).or_insert(0.0) += p * q;
                }
            }
            states = next;
        }
        let mut outcomes: Vec<(u32, f64)> = states
            .into_iter()
            .filter(|&(_, p)| p > 0.0)
            .map(|((casualties, intact, fire), p)| (pack_shot(casualties, roof_intact && !intact, fire), p))
            .collect();
        outcomes.sort_unstable_by_key(|&(value, _)| value);
        salvo.outcomes = outcomes;
        salvo
    }

    /// 3.2: flat hits count `figures_per_hit` each; howitzer and canister results are casualties.
    fn casualties(&self, shot: Shot) -> u32 {
        match self.gun.kind() {
            ArtilleryKind::Flat => shot.hits * self.figures_per_hit,
            _ => shot.hits,
        }
    }
}

impl Law for Salvo {
    fn sample(&self, dice: &mut Dice) -> u32 {
        let (mut casualties, mut intact, mut fire) = (0, self.roof_intact, false);
        for _ in 0..self.guns {
            let shot = self.gun.fire(dice, intact);
            casualties += self.casualties(shot);
            intact &= !shot.roof_blown;
            fire |= shot.fire;
        }
        pack_shot(casualties, self.roof_intact && !intact, fire)
    }

    fn outcomes(&self) -> &[(u32, f64)] {
        &self.outcomes
    }
}

/// One round of melee (4.2): the casualties of each side, packed as
/// `attacker << 8 | defender`.
#[derive(Debug)]
struct MeleeRound {
    attacker: MeleeSide,
    defender: MeleeSide,
    rule: MeleeCasualties,
    outcomes: Vec<(u32, f64)>,
}

impl MeleeRound {
    fn new(attacker: MeleeSide, defender: MeleeSide, rule: MeleeCasualties) -> MeleeRound {
        let shift = |side: MeleeSide| i64::from(side.figures) * i64::from(side.modifier);
        let (totals_a, totals_b) = (Pmf::dice(attacker.figures, 20), Pmf::dice(defender.figures, 20));
        // Dense by (attacker losses, defender losses): the totals are many, the losses few.
        let width = defender.figures as usize + 1;
        let mut by_losses = vec![0.0f64; (attacker.figures as usize + 1) * width];
        for (x, px) in totals_a.iter() {
            for (y, py) in totals_b.iter() {
                let result = resolve(rule, attacker, x + shift(attacker), defender, y + shift(defender));
                by_losses[result.attacker_casualties as usize * width + result.defender_casualties as usize] += px * py;
            }
        }
        let outcomes: Vec<(u32, f64)> = by_losses
            .iter()
            .enumerate()
            .filter(|&(_, &p)| p > 0.0)
            .map(|(i, &p)| (((i / width) as u32) << 8 | (i % width) as u32, p))
            .collect();
        MeleeRound { attacker, defender, rule, outcomes }
    }
}

impl Law for MeleeRound {
    fn sample(&self, dice: &mut Dice) -> u32 {
        let a = self.attacker.roll(dice);
        let b = self.defender.roll(dice);
        let result = resolve(self.rule, self.attacker, a, self.defender, b);
        result.attacker_casualties << 8 | result.defender_casualties
    }

    fn outcomes(&self) -> &[(u32, f64)] {
        &self.outcomes
    }
}

/// The D20 needs that differ: 1 or less (always), 2..=20, 21 or more (never).
const NEEDS: usize = 21;

/// The `assault` and `farm_assault` scenarios, as a game.
#[derive(Debug)]
pub struct Assault {
    setup: AssaultSetup,
    rules: Rules,
    farm: bool,
    move_inches: u32,
    charge_bonus: u32,
    /// Past this distance the attackers have left the field.
    farthest: u32,
    /// The attackers' small-arms troops, or `None` if they do not fire.
    attacker_troops: Option<Troops>,
    /// The D20 each side needs to pass morale or rally.
    morale_need: [i32; 2],
    melee_modifier: [i32; 2],
    /// The battery's salvo by `[roof intact][consecutive]`.
    battery: Option<[[Salvo; 2]; 2]>,
    /// The defenders' guns at each distance, `[consecutive]`; `None` where they cannot fire.
    defender_guns: Vec<[Option<Salvo>; 2]>,
    /// Volleys by side, firing figures and need, built when first needed.
    volleys: [Vec<OnceLock<Volley>>; 2],
    /// Melee rounds by attacker and defender figures, built when first needed.
    melees: Vec<OnceLock<MeleeRound>>,
    layout: Layout,
}

fn invalid(key: &str, reason: impl Into<String>) -> ParamError {
    ParamError::Invalid { key: key.into(), reason: reason.into() }
}

fn rename(error: ParamError, key: &str) -> ParamError {
    match error {
        ParamError::Invalid { reason, .. } => ParamError::Invalid { key: key.into(), reason },
        other => other,
    }
}

impl Assault {
    /// An assault as `setup` describes; a battery or walls make it a farm
    /// assault with the extra `fire` and `roof` metrics.
    pub fn new(rules: &Rules, setup: AssaultSetup) -> Result<Assault, ParamError> {
        for (key, figures) in
            [("attacker.figures", setup.attacker_figures), ("defender.figures", setup.defender_figures)]
        {
            if !(1..=200).contains(&figures) {
                return Err(invalid(key, "a unit needs 1 to 200 figures"));
            }
        }
        if setup.turns == 0 || setup.distance == 0 {
            return Err(invalid("distance", "the units must start apart, with at least one turn"));
        }
        // 2: "Cavalry ... cannot enter woods."
        if setup.ground == Ground::Woods && setup.attacker_arm == Arm::Cavalry {
            return Err(invalid(
                "attacker.arm",
                "cavalry cannot enter woods (2): choose infantry or light_infantry, or open ground",
            ));
        }
        if setup.defender_artillery == ArtilleryKind::Canister {
            return Err(invalid(
                "defender.artillery",
                "the defenders' guns fire canister within its range anyway: choose flat or howitzer for beyond it",
            ));
        }
        let farthest = setup.distance + setup.edge;
        // Distances are kept in a byte: the farthest retreat must fit.
        if farthest + rules.retreat_distance > 255 {
            return Err(invalid("distance", "the distance, the edge and a retreat must add to at most 255 inches"));
        }
        let farm = setup.defender_cover == Cover::Walls;
        let attacker_target = if setup.ground == Ground::Woods { Target::Woods } else { Target::Open };
        let gun_at = |d: u32, consecutive: bool| -> Option<Salvo> {
            if setup.defender_guns == 0 || d == 0 {
                return None;
            }
            // 3.2: canister within its range (a crew always loads the deadlier round there).
            let kind = if d <= rules.canister_range { ArtilleryKind::Canister } else { setup.defender_artillery };
            // A howitzer inside its minimum range beyond canister range cannot fire.
            let gun = Gun::new(rules, kind, d, attacker_target, Crew::Regular, consecutive).ok()?;
            Some(Salvo::new(gun, setup.defender_guns, true, rules.figures_per_hit))
        };
        let defender_guns = (0..=farthest + rules.retreat_distance)
            .map(|d| {
                let consecutive = setup.defender_artillery == ArtilleryKind::Howitzer;
                [gun_at(d, false), if consecutive { gun_at(d, true) } else { None }]
            })
            .collect();
        let battery = match setup.battery {
            None => None,
            Some(battery) => {
                if battery.kind == ArtilleryKind::Canister {
                    return Err(invalid(
                        "attacker.artillery",
                        "the battery bombards the buildings from a distance: choose flat or howitzer",
                    ));
                }
                let salvo = |roof_intact: bool, consecutive: bool| -> Result<Salvo, ParamError> {
                    let gun =
                        Gun::new(rules, battery.kind, battery.distance, Target::Building, battery.crew, consecutive)
                            .map_err(|e| rename(e, "gun_distance"))?;
                    Ok(Salvo::new(gun, battery.guns, roof_intact, rules.figures_per_hit))
                };
                Some([[salvo(false, false)?, salvo(false, true)?], [salvo(true, false)?, salvo(true, true)?]])
            }
        };
        let (move_inches, charge_bonus) = rules.movement(setup.attacker_arm, setup.ground);
        // Interpretation `attacker_fire`: who among the attackers fires.
        let attacker_troops = match (rules.attacker_fire, setup.attacker_arm) {
            (AttackerFire::Never, _) | (AttackerFire::Infantry, Arm::Cavalry) => None,
            (_, Arm::LightInfantry) => Some(Troops::Light),
            (_, _) => Some(Troops::Line),
        };
        let mut metrics = vec![
            Metric::categories("winner", "who holds the field (none: the turn limit, or both broke)", WINNERS),
            Metric::integer("turns", "turns played", 1, i64::from(setup.turns)),
            Metric::integer("attacker_remaining", "the attacker's figures left, percent of its start", 0, 100),
            Metric::integer("defender_remaining", "the defender's figures left, percent of its start", 0, 100),
        ];
        if farm {
            metrics.push(Metric::boolean("fire", "the buildings were set alight"));
            metrics.push(Metric::boolean("roof", "a howitzer blew the roof off"));
        }
        let figures = [setup.attacker_figures as usize + 1, setup.defender_figures as usize + 1];
        Ok(Assault {
            setup,
            rules: rules.clone(),
            farm,
            move_inches,
            charge_bonus,
            farthest,
            attacker_troops,
            morale_need: [rules.morale_need(setup.attacker_quality, 0), rules.morale_need(setup.defender_quality, 0)],
            melee_modifier: [
                rules.melee_modifier(setup.attacker_quality),
                rules.melee_modifier(setup.defender_quality),
            ],
            battery,
            defender_guns,
            volleys: [
                (0..figures[0] * NEEDS).map(|_| OnceLock::new()).collect(),
                (0..figures[1] * NEEDS).map(|_| OnceLock::new()).collect(),
            ],
            melees: (0..figures[0] * figures[1]).map(|_| OnceLock::new()).collect(),
            layout: Layout::new(metrics),
        })
    }

    /// The setup.
    pub fn setup(&self) -> &AssaultSetup {
        &self.setup
    }

    /// 2: the attackers' charge reach, their move plus their charge bonus.
    pub fn charge_reach(&self) -> u32 {
        self.move_inches + self.charge_bonus
    }

    /// The volley of `figures` of side `side` at `distance` inches.
    fn volley(&self, side: u8, figures: u8, distance: u8) -> &Volley {
        let need = if side == DEFENDER {
            let cover = if self.setup.ground == Ground::Woods { Cover::Woods } else { Cover::Open };
            self.rules.small_arms_need(self.setup.defender_troops, cover, u32::from(distance))
        } else {
            let troops = self.attacker_troops.expect("only attackers with muskets fire");
            self.rules.small_arms_need(troops, self.setup.defender_cover, u32::from(distance))
        };
        let need = need.clamp(1, NEEDS as i32);
        let index = usize::from(figures) * NEEDS + need as usize - 1;
        self.volleys[side as usize][index]
            .get_or_init(|| Volley::new(u32::from(figures), need, self.rules.figures_per_hit))
    }

    /// Whether the attackers fire at `distance` with any chance to hit (a
    /// volley that cannot hit is left out, so that states stay few).
    fn attacker_can_hit(&self, distance: u8) -> bool {
        match self.attacker_troops {
            Some(troops) if distance > 0 => {
                self.rules.small_arms_need(troops, self.setup.defender_cover, u32::from(distance)) <= 20
            }
            _ => false,
        }
    }

    /// Whether the defenders' muskets can hit at `fire_at` inches (0: they do not fire).
    fn defenders_can_hit(&self, fire_at: u8) -> bool {
        let cover = if self.setup.ground == Ground::Woods { Cover::Woods } else { Cover::Open };
        fire_at > 0 && self.rules.small_arms_need(self.setup.defender_troops, cover, u32::from(fire_at)) <= 20
    }

    /// The melee round of `attacker` against `defender` figures.
    fn melee(&self, attacker: u8, defender: u8) -> &MeleeRound {
        let index = usize::from(attacker) * (self.setup.defender_figures as usize + 1) + usize::from(defender);
        self.melees[index].get_or_init(|| {
            MeleeRound::new(
                MeleeSide { figures: u32::from(attacker), modifier: self.melee_modifier[0] },
                MeleeSide { figures: u32::from(defender), modifier: self.melee_modifier[1] },
                self.rules.melee_casualties,
            )
        })
    }

    /// 5: whether side `side` must test after going from `before` to `after`
    /// figures in a phase (interpretations `loss_test_base`, `half_strength_test`).
    fn must_test(&self, side: u8, before: u8, after: u8) -> bool {
        let start = if side == ATTACKER { self.setup.attacker_figures } else { self.setup.defender_figures };
        let (before, after) = (u32::from(before), u32::from(after));
        let lost = before - after;
        let base = match self.rules.loss_test_base {
            LossTestBase::PhaseStart => before,
            LossTestBase::UnitStart => start,
        };
        let heavy = lost > 0 && lost * 100 >= self.rules.morale_loss_percent * base;
        let half = self.rules.morale_half_strength_percent;
        let below = after * 100 < half * start;
        let was_below = before * 100 < half * start;
        heavy || (below && (self.rules.half_strength_test == HalfStrengthTest::EveryTurn || !was_below))
    }

    /// The ways in 20 that side `side` passes a morale test or rallies.
    fn pass_ways(&self, side: u8) -> u32 {
        (21 - self.morale_need[side as usize]).clamp(0, 20) as u32
    }

    /// The attacker's options at `distance`: `moved << 8 | target`, least movement first.
    fn options(&self, distance: u8) -> ([u16; 64], usize) {
        let mut options = [0u16; 64];
        let mut count = 0;
        let distance = u32::from(distance);
        let nearest = distance.saturating_sub(self.move_inches).max(1);
        for target in (nearest..=distance).rev() {
            options[count] = option(distance - target, target);
            count += 1;
        }
        if distance <= self.charge_reach() {
            options[count] = option(distance, 0);
            count += 1;
        }
        (options, count)
    }

    /// What each heuristic does at `distance` (see the module documentation).
    fn heuristic(&self, policy: Policy, distance: u8) -> u16 {
        let distance = u32::from(distance);
        if distance <= self.charge_reach() {
            return option(distance, 0);
        }
        let full = distance.saturating_sub(self.move_inches).max(1);
        let target = match policy {
            Policy::Cautious => full.max(self.charge_reach()).min(distance),
            _ => full,
        };
        option(distance - target, target)
    }

    /// The winner when a side has no figures left.
    fn destroyed(state: &Position) -> Option<u8> {
        match (state.attacker == 0, state.defender == 0) {
            (false, false) => None,
            (true, false) => Some(DEFENDER),
            (false, true) => Some(ATTACKER),
            (true, true) => Some(NONE),
        }
    }

    /// 1, 2, 5: Give Orders (rally or retreat) and Movement (the decision).
    fn movement<F: Fate>(&self, s: &mut Position, fate: &mut F) -> Option<u8> {
        s.phase = DEFENDER_VOLLEY;
        let mut moved = false;
        if s.flags & ROUTED != 0 {
            // 5: "In the next Give Orders phase, the unit may attempt to rally."
            if fate.ways(self.pass_ways(ATTACKER), 20) {
                s.flags &= !ROUTED;
            } else {
                // 5: "it continues to retreat 8 inches per turn until it rallies or exits."
                s.distance += self.rules.retreat_distance as u8;
                moved = true;
                if u32::from(s.distance) > self.farthest {
                    return Some(DEFENDER);
                }
            }
        }
        let mut charged_from = 0;
        if s.flags & ROUTED == 0 && s.distance > 0 {
            let (options, count) = self.options(s.distance);
            let distance = s.distance;
            let chosen = fate.decide(ATTACKER, &ADVANCE, &options[..count], &|policy| self.heuristic(policy, distance));
            let target = (chosen & 0xff) as u8;
            moved = target != s.distance;
            if target == 0 {
                charged_from = s.distance;
            }
            s.distance = target;
        }
        if moved {
            s.flags &= !GUNS_RANGED;
        }
        // 3, 4: the defenders fire at the attackers' distance; in the turn of a
        // charge only under the closing volley reading, at its start.
        s.fire_at = if s.distance > 0 {
            s.distance
        } else if charged_from > 0 && self.rules.closing_volley == ClosingVolley::AtChargeStart {
            charged_from
        } else {
            0
        };
        s.attacker_mark = s.attacker;
        s.defender_mark = s.defender;
        self.artillery(s, fate);
        None
    }

    /// 3.2, 3.3, 6: the battery at the buildings, the defenders' guns at the attackers.
    fn artillery<F: Fate>(&self, s: &mut Position, fate: &mut F) {
        if let Some(battery) = &self.battery {
            // 3.3: no artillery into a melee; a battery that does not fire loses its range.
            if s.distance > 0 {
                let roof_intact = s.flags & ROOF_OFF == 0;
                let consecutive = s.flags & BATTERY_RANGED != 0;
                let shot = fate.draw(&battery[usize::from(roof_intact)][usize::from(consecutive)]);
                s.defender = s.defender.saturating_sub((shot >> 2).min(255) as u8);
                if shot & 2 != 0 {
                    s.flags |= ROOF_OFF;
                }
                if shot & 1 != 0 {
                    s.flags |= BURNING;
                }
                if battery[1][1].gun.kind() == ArtilleryKind::Howitzer {
                    s.flags |= BATTERY_RANGED;
                }
            } else {
                s.flags &= !BATTERY_RANGED;
            }
        }
        let consecutive = s.flags & GUNS_RANGED != 0;
        s.flags &= !GUNS_RANGED;
        if s.fire_at > 0
            && let Some(salvo) = &self.defender_guns[usize::from(s.fire_at)][usize::from(consecutive)]
        {
            let shot = fate.draw(salvo);
            s.attacker = s.attacker.saturating_sub((shot >> 2).min(255) as u8);
            // 3.2: howitzers that fired may fire again next turn at a target
            // that stays put (the flag is kept only where it can matter).
            if self.setup.defender_artillery == ArtilleryKind::Howitzer {
                s.flags |= GUNS_RANGED;
            }
        }
        // A side that no volley can still hit has its Firing-phase losses
        // complete: it learns now whether it tests, and its mark is dropped,
        // so that equal situations are one state (a bombarded farm out of
        // musket range, say).
        if !self.attacker_can_hit(s.distance) || s.flags & ROUTED != 0 {
            if self.must_test(DEFENDER, s.defender_mark, s.defender) {
                s.flags |= DEFENDER_TESTS;
            }
            s.defender_mark = 0;
        }
        if !self.defenders_can_hit(s.fire_at) {
            if self.must_test(ATTACKER, s.attacker_mark, s.attacker) {
                s.flags |= ATTACKER_TESTS;
            }
            s.attacker_mark = 0;
        }
    }

    /// 3.1: the defenders' volley; the attacker's Firing-phase losses are then complete.
    fn defender_volley<F: Fate>(&self, s: &mut Position, fate: &mut F) {
        s.phase = CLOSE;
        let shooters = s.attacker;
        if s.fire_at > 0 && s.defender > 0 && s.attacker > 0 {
            let hits = fate.draw(self.volley(DEFENDER, s.defender, s.fire_at));
            s.attacker = s.attacker.saturating_sub(hits.min(255) as u8);
        }
        // A mark of 0: the test was settled after artillery.
        if s.attacker_mark > 0 && self.must_test(ATTACKER, s.attacker_mark, s.attacker) {
            s.flags |= ATTACKER_TESTS;
        }
        // Both volleys are simultaneous: the attackers fire with the figures
        // they had before the defenders' volley.
        let fires = self.attacker_can_hit(s.distance) && s.flags & ROUTED == 0;
        s.attacker_mark = if fires { shooters } else { 0 };
    }

    /// 3.1: the attackers' volley; then the end of the Firing phase.
    fn attacker_volley<F: Fate>(&self, s: &mut Position, fate: &mut F) -> Option<u8> {
        if s.attacker_mark > 0 && s.defender > 0 {
            let hits = fate.draw(self.volley(ATTACKER, s.attacker_mark, s.distance));
            s.defender = s.defender.saturating_sub(hits.min(255) as u8);
        }
        if s.defender_mark > 0 && self.must_test(DEFENDER, s.defender_mark, s.defender) {
            s.flags |= DEFENDER_TESTS;
        }
        s.attacker_mark = 0;
        s.defender_mark = 0;
        s.fire_at = 0;
        if let Some(winner) = Self::destroyed(s) {
            return Some(winner);
        }
        // 6 (interpretation `burning_building`): defenders leave a burning building.
        if s.flags & BURNING != 0 && self.rules.burning_building == BurningBuilding::Evacuate {
            return Some(ATTACKER);
        }
        None
    }

    /// 4, 5: a round of melee in contact, then the Morale Check.
    fn melee_and_morale<F: Fate>(&self, s: &mut Position, fate: &mut F) -> Option<u8> {
        if s.distance == 0 {
            let (a, d) = (s.attacker, s.defender);
            let losses = fate.draw(self.melee(a, d));
            s.attacker -= (losses >> 8) as u8;
            s.defender -= (losses & 0xff) as u8;
            if let Some(winner) = Self::destroyed(s) {
                return Some(winner);
            }
            if self.must_test(ATTACKER, a, s.attacker) {
                s.flags |= ATTACKER_TESTS;
            }
            if self.must_test(DEFENDER, d, s.defender) {
                s.flags |= DEFENDER_TESTS;
            }
        }
        // 5: a retreating unit does not test again until it has rallied.
        let attacker_tests = s.flags & ATTACKER_TESTS != 0 && s.flags & ROUTED == 0;
        let burning_test = s.flags & BURNING != 0 && self.rules.burning_building == BurningBuilding::MoraleTest;
        let defender_tests = s.flags & DEFENDER_TESTS != 0 || burning_test;
        s.flags &= !(ATTACKER_TESTS | DEFENDER_TESTS);
        let attacker_broke = attacker_tests && !fate.ways(self.pass_ways(ATTACKER), 20);
        let defender_broke = defender_tests && !fate.ways(self.pass_ways(DEFENDER), 20);
        if defender_broke {
            // The defenders retreat from the position: whoever still stands holds it.
            return Some(if attacker_broke { NONE } else { ATTACKER });
        }
        if attacker_broke {
            // 5: "The unit must immediately move 8 inches away from the enemy."
            s.flags |= ROUTED;
            s.flags &= !GUNS_RANGED;
            s.distance += self.rules.retreat_distance as u8;
            if u32::from(s.distance) > self.farthest {
                return Some(DEFENDER);
            }
        }
        None
    }

    /// The position's place, in words, from the attackers.
    fn target_words(&self) -> &'static str {
        if self.farm { "the farm" } else { "the defenders" }
    }
}

/// "1 inch", "8 inches".
fn inches(n: u32) -> String {
    if n == 1 { "1 inch".into() } else { format!("{n} inches") }
}

/// An attacker's option: inches moved and the distance it ends at (0: contact).
fn option(moved: u32, target: u32) -> u16 {
    (moved << 8 | target) as u16
}

impl Game for Assault {
    type State = Position;

    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn start(&self) -> Position {
        Position {
            attacker: self.setup.attacker_figures as u8,
            defender: self.setup.defender_figures as u8,
            attacker_mark: 0,
            defender_mark: 0,
            distance: self.setup.distance as u8,
            fire_at: 0,
            phase: MOVEMENT,
            flags: 0,
        }
    }

    fn steps(&self) -> u32 {
        self.setup.turns * PHASES
    }

    fn step<F: Fate>(&self, state: &mut Position, fate: &mut F) -> Option<u8> {
        match state.phase {
            MOVEMENT => self.movement(state, fate),
            DEFENDER_VOLLEY => {
                self.defender_volley(state, fate);
                None
            }
            _ => {
                // The attackers' volley and the melee never fall in the same
                // turn: muskets fire only while the units are apart.
                state.phase = MOVEMENT;
                if let Some(winner) = self.attacker_volley(state, fate) {
                    return Some(winner);
                }
                self.melee_and_morale(state, fate)
            }
        }
    }

    fn code(&self, winner: u8, steps: u32, state: &Position) -> u64 {
        let turn = steps.div_ceil(PHASES);
        let values = [
            i64::from(winner),
            i64::from(turn),
            percent(u32::from(state.attacker), self.setup.attacker_figures),
            percent(u32::from(state.defender), self.setup.defender_figures),
            i64::from(state.flags & BURNING != 0),
            i64::from(state.flags & ROOF_OFF != 0),
        ];
        self.layout.encode(&values[..if self.farm { 6 } else { 4 }])
    }

    /// Interpretation `assault_limit`: undecided, or the defenders hold.
    fn at_limit(&self, _state: &Position) -> u8 {
        match self.rules.assault_limit {
            AssaultLimit::Undecided => NONE,
            AssaultLimit::DefenderHolds => DEFENDER,
        }
    }

    fn decisions(&self) -> &'static [&'static Decision] {
        DECISIONS
    }

    fn fallback(&self) -> Policy {
        Policy::Cautious
    }

    /// The solver's own limit is not used: [`Assault::solvable`] decides up front.
    fn state_budget(&self) -> usize {
        usize::MAX
    }

    /// Whether the graph stays within what solves in about a second: an
    /// estimate of the states of the attackers' volley step, the largest,
    /// (firing figures and figures left, defenders, distances), checked
    /// against measured solves (see `solver_size` in the tests).
    fn solvable(&self) -> bool {
        self.size_estimate() <= SOLVER_LIMIT
    }

    fn describe_state(&self, state: &Position, _side: u8) -> String {
        let place = self.target_words();
        let (a, d) = (state.attacker, state.defender);
        match state.distance {
            0 => format!("{a} attackers in contact with {d} defenders"),
            distance => format!(
                "{a} attackers {} from {place} ({d} defenders; charge reach {})",
                inches(u32::from(distance)),
                inches(self.charge_reach())
            ),
        }
    }

    fn describe_option(&self, _decision: &'static Decision, option: u16) -> String {
        let (moved, target) = (u32::from(option >> 8), u32::from(option & 0xff));
        let (moved_words, target_words) = (inches(moved), inches(target));
        match (moved, target) {
            (_, 0) => format!("charge {moved_words} into contact"),
            (0, _) => format!("hold at {target_words}"),
            _ if target == self.charge_reach() => format!("advance {moved_words} to charge reach ({target_words})"),
            _ => format!("advance {moved_words} to {target_words}"),
        }
    }
}

/// The largest [`Assault::size_estimate`] solved: about a second and a few
/// hundred megabytes on the reference machine.
pub const SOLVER_LIMIT: u64 = 5_000_000;

impl Assault {
    /// A rough count of the states of the largest step: the attackers' firing
    /// and remaining figures, the defenders' figures (and, under a
    /// bombardment, their figures before it), and the distances.
    pub fn size_estimate(&self) -> u64 {
        let a = u64::from(self.setup.attacker_figures) + 1;
        let d = u64::from(self.setup.defender_figures) + 1;
        let distances = u64::from(self.farthest + self.rules.retreat_distance) + 1;
        let shooters = if self.attacker_troops.is_some() { a * (a + 1) / 2 } else { a };
        // The defenders' figures before the battery fired, at most its greatest salvo more.
        let bombarded = match &self.battery {
            Some(battery) => d.min(1 + u64::from(battery[0][0].guns * battery[0][0].gun.max_hits())),
            None => 1,
        };
        shooters * d * bombarded * distances
    }
}
