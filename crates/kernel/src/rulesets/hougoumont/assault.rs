//! An assault (2, 3, 4, 5): attackers advance from a distance at their move,
//! charging the last stretch, under the defenders' artillery and musketry,
//! then melee until one side fails morale. `farm_assault` is the Hougoumont
//! case: defenders behind walls and in buildings, and the attackers' own guns
//! trying to penetrate the buildings and set them alight.
//!
//! Each turn follows 1: in Give Orders a retreating attacker tries to rally or
//! retreats 8 inches more (past its table edge it leaves the field); in
//! Movement an attacker not retreating advances its move, or charges into
//! contact when the distance is within its move plus charge bonus; in Firing
//! the attackers' battery (if any) fires at the buildings and the defenders'
//! guns at the attackers, and then, artillery casualties taken (3.2 note), the
//! defenders' small arms fire; no artillery fires once the units are in
//! contact (3.3); in Melee units in contact fight a round (4); in the Morale
//! Check a unit that lost 25% in a phase or fell below half tests (5). The
//! attackers do not fire: they are advancing to close.
//!
//! The fight ends when the defenders fail morale (they retreat from the
//! position: the attackers win; if the attackers also failed in the same
//! phase, no one holds it: none), when the attackers leave the field (the
//! defenders win), when a side is destroyed, or at the turn limit (none).
//!
//! The exact solver follows the same phases over positions (figures, distance,
//! rout, roof, fire, whether the battery has fired) with `markov::absorb`,
//! enumerating every shot, volley and melee total; it runs when the product
//! of the two sides' figures is at most [`EXACT_FIGURES_PRODUCT`].

use super::artillery::{Gun, Shot};
use super::melee::{MeleeSide, resolve};
use super::{
    Arm, ArtilleryKind, BurningBuilding, ClosingVolley, Cover, Crew, Ground, HalfStrengthTest, Quality, Rules, Target,
    Troops, d20_at_least, percent,
};
use crate::dice::Dice;
use crate::markov::{self, Step};
use crate::outcome::{Layout, Metric, WINNERS};
use crate::params::ParamError;
use crate::pmf::Pmf;
use crate::scenario::Scenario;
use std::collections::HashMap;
use std::hash::Hash;

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
    /// The defenders' guns: flat trajectory, or canister within its range.
    pub defender_guns: u32,
    /// The attackers' guns, if any, bombarding the defenders' buildings.
    pub battery: Option<Battery>,
    /// Inches between the units at the start.
    pub distance: u32,
    /// Inches behind the attacker's start to its table edge.
    pub edge: u32,
    /// The turn limit.
    pub turns: u32,
}

/// The `assault` and `farm_assault` scenarios.
#[derive(Clone, Debug)]
pub struct Assault {
    setup: AssaultSetup,
    /// The defenders' guns at each distance (index: inches).
    defender_guns: Vec<Option<Gun>>,
    /// The battery's first shot and its later (consecutive) shots.
    battery: Option<(Gun, Gun)>,
    move_inches: u32,
    charge_bonus: u32,
    attacker_melee: MeleeSide,
    defender_melee_modifier: i32,
    attacker_morale_need: i32,
    defender_morale_need: i32,
    rules: Rules,
    farm: bool,
    layout: Layout,
}

const ATTACKER: usize = 0;
const DEFENDER: usize = 1;
const NONE: usize = 2;

impl Assault {
    /// An assault as `setup` describes; a battery makes it a farm assault with
    /// the extra `fire` metric.
    pub fn new(rules: &Rules, setup: AssaultSetup) -> Result<Assault, ParamError> {
        for (key, figures) in
            [("attacker.figures", setup.attacker_figures), ("defender.figures", setup.defender_figures)]
        {
            if !(1..=200).contains(&figures) {
                return Err(ParamError::Invalid { key: key.into(), reason: "a unit needs 1 to 200 figures".into() });
            }
        }
        if setup.turns == 0 || setup.distance == 0 {
            return Err(ParamError::Invalid {
                key: "distance".into(),
                reason: "the units must start apart, with at least one turn".into(),
            });
        }
        // 2: "Cavalry ... cannot enter woods."
        if setup.ground == Ground::Woods && setup.attacker_arm == Arm::Cavalry {
            return Err(ParamError::Invalid {
                key: "attacker.arm".into(),
                reason: "cavalry cannot enter woods (2): choose infantry or light_infantry, or open ground".into(),
            });
        }
        let farm = setup.defender_cover == Cover::Walls;
        let attacker_target = if setup.ground == Ground::Woods { Target::Woods } else { Target::Open };
        // The farthest the attacker can be: its start, its edge and one retreat.
        let farthest = setup.distance + setup.edge + rules.retreat_distance;
        let defender_guns = (0..=farthest)
            .map(|d| {
                if setup.defender_guns == 0 || d == 0 {
                    return Ok(None);
                }
                let kind = if d <= rules.canister_range { ArtilleryKind::Canister } else { ArtilleryKind::Flat };
                Gun::new(rules, kind, d, attacker_target, Crew::Regular, false).map(Some)
            })
            .collect::<Result<Vec<_>, _>>()?;
        let battery = match setup.battery {
            None => None,
            Some(battery) => {
                if battery.kind == ArtilleryKind::Canister {
                    return Err(ParamError::Invalid {
                        key: "attacker.artillery".into(),
                        reason: "the battery bombards the buildings from a distance: choose flat or howitzer".into(),
                    });
                }
                let first = Gun::new(rules, battery.kind, battery.distance, Target::Building, battery.crew, false)
                    .map_err(|e| rename(e, "gun_distance"))?;
                // 3.2: firing again at a stationary target adds the consecutive adjustment.
                let later = Gun::new(rules, battery.kind, battery.distance, Target::Building, battery.crew, true)
                    .map_err(|e| rename(e, "gun_distance"))?;
                Some((first, later))
            }
        };
        let (move_inches, charge_bonus) = rules.movement(setup.attacker_arm, setup.ground);
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
        Ok(Assault {
            setup,
            defender_guns,
            battery,
            move_inches,
            charge_bonus,
            attacker_melee: MeleeSide {
                figures: setup.attacker_figures,
                modifier: rules.melee_modifier(setup.attacker_quality),
            },
            defender_melee_modifier: rules.melee_modifier(setup.defender_quality),
            attacker_morale_need: rules.morale_need(setup.attacker_quality, 0),
            defender_morale_need: rules.morale_need(setup.defender_quality, 0),
            rules: rules.clone(),
            farm,
            layout: Layout::new(metrics),
        })
    }

    fn encode(&self, winner: usize, turn: u32, figures: [u32; 2], fire: bool, roof: bool) -> u64 {
        let mut values = [
            winner as i64,
            i64::from(turn),
            percent(figures[0], self.setup.attacker_figures),
            percent(figures[1], self.setup.defender_figures),
            i64::from(fire),
            i64::from(roof),
        ];
        let used = if self.farm { 6 } else { 4 };
        values[used..].fill(0);
        self.layout.encode(&values[..used])
    }

    /// 5: whether a unit of `start` figures must test after going from `before` to `after` in a phase.
    fn must_test(&self, start: u32, before: u32, after: u32) -> bool {
        let lost = before - after;
        let heavy = lost > 0 && lost * 100 >= self.rules.morale_loss_percent * before;
        let half = self.rules.morale_half_strength_percent;
        let below = after * 100 < half * start;
        let was_below = before * 100 < half * start;
        heavy || (below && (self.rules.half_strength_test == HalfStrengthTest::EveryTurn || !was_below))
    }

    /// 3.1: the defenders' volley at `distance` inches: the attacker's losses.
    fn volley(&self, dice: &mut Dice, figures: u32, distance: u32) -> u32 {
        let cover = if self.setup.ground == Ground::Woods { Cover::Woods } else { Cover::Open };
        let need = self.rules.small_arms_need(self.setup.defender_troops, cover, distance);
        let mut hits = 0;
        for _ in 0..figures {
            hits += u32::from(dice.d20() as i32 >= need);
        }
        hits * self.rules.figures_per_hit
    }
}

/// The largest product of the two sides' figures the exact solver takes on.
pub const EXACT_FIGURES_PRODUCT: u32 = 400;

/// Each (attacker, defender) loss pair of one melee round and its chance.
type MeleeLosses = Vec<((u32, u32), f64)>;

/// The state of an assault between turns, for the exact solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Position {
    figures: [u32; 2],
    distance: u32,
    routed: bool,
    roof_intact: bool,
    burning: bool,
    battery_fired: bool,
}

/// Adds the weights of equal states, so branches stay few.
fn merged<S: Copy + Eq + Hash>(branches: Vec<(S, f64)>) -> Vec<(S, f64)> {
    let mut by_state: HashMap<S, f64> = HashMap::with_capacity(branches.len());
    for (state, p) in branches {
        *by_state.entry(state).or_insert(0.0) += p;
    }
    by_state.into_iter().collect()
}

impl Assault {
    /// 3.2: the figures a shot removes: flat hits count `figures_per_hit`
    /// each, howitzer and canister results are casualties.
    fn casualties(&self, gun: &Gun, shot: Shot) -> u32 {
        match gun.kind() {
            ArtilleryKind::Flat => shot.hits * self.rules.figures_per_hit,
            _ => shot.hits,
        }
    }

    /// The end code of a finished position.
    fn end(&self, winner: usize, turn: u32, p: &Position) -> u64 {
        self.encode(winner, turn, p.figures, p.burning, !p.roof_intact)
    }

    /// The winner when a side has no figures left.
    fn destroyed(figures: [u32; 2]) -> Option<usize> {
        match (figures[ATTACKER] == 0, figures[DEFENDER] == 0) {
            (false, false) => None,
            (true, false) => Some(DEFENDER),
            (false, true) => Some(ATTACKER),
            (true, true) => Some(NONE),
        }
    }

    /// The exact distribution as an absorbing chain over positions, turn by
    /// turn, mirroring `sample` phase by phase.
    fn exact_chain(&self) -> Option<Vec<(u64, f64)>> {
        if self.setup.attacker_figures * self.setup.defender_figures > EXACT_FIGURES_PRODUCT {
            return None;
        }
        let start = [self.setup.attacker_figures, self.setup.defender_figures];
        let farthest = self.setup.distance + self.setup.edge;
        let rally = d20_at_least(self.attacker_morale_need);
        let defender_pass = d20_at_least(self.defender_morale_need);
        let guns = self.setup.battery.map_or(0, |b| b.guns);
        let mut volleys: HashMap<(u32, u32), Pmf> = HashMap::new();
        let mut gun_fire: HashMap<u32, Pmf> = HashMap::new();
        let mut melees: HashMap<(u32, u32), MeleeLosses> = HashMap::new();
        let initial = Position {
            figures: start,
            distance: self.setup.distance,
            routed: false,
            roof_intact: true,
            burning: false,
            battery_fired: false,
        };
        let step = |position: &Position, turn: u32| -> Vec<(Step<Position>, f64)> {
            let mut out = Vec::new();
            // 5: Give Orders.
            let mut orders = Vec::new();
            if position.routed {
                orders.push((Position { routed: false, ..*position }, rally));
                let fled = Position { distance: position.distance + self.rules.retreat_distance, ..*position };
                if fled.distance > farthest {
                    out.push((Step::End(self.end(DEFENDER, turn, &fled)), 1.0 - rally));
                } else {
                    orders.push((fled, 1.0 - rally));
                }
            } else {
                orders.push((*position, 1.0));
            }
            for (mut moved, p) in orders {
                // 2: Movement.
                let mut charged_from = None;
                if !moved.routed && moved.distance > 0 {
                    if moved.distance <= self.move_inches + self.charge_bonus {
                        charged_from = Some(moved.distance);
                        moved.distance = 0;
                    } else {
                        moved.distance -= self.move_inches;
                    }
                }
                let before = moved.figures;
                // 3: Firing, artillery first (never into a melee).
                let mut fired = vec![(moved, p)];
                if moved.distance > 0 {
                    if let Some((first, later)) = &self.battery {
                        let gun = if moved.battery_fired { later } else { first };
                        for branch in &mut fired {
                            branch.0.battery_fired = true;
                        }
                        for _ in 0..guns {
                            let mut next = Vec::new();
                            for (s, q) in fired {
                                for (shot, r) in gun.exact(s.roof_intact) {
                                    let mut t = s;
                                    t.roof_intact &= !shot.roof_blown;
                                    t.burning |= shot.fire;
                                    t.figures[DEFENDER] =
                                        t.figures[DEFENDER].saturating_sub(self.casualties(gun, shot));
                                    next.push((t, q * r));
                                }
                            }
                            fired = merged(next);
                        }
                    }
                    if let Some(Some(gun)) = self.defender_guns.get(moved.distance as usize) {
                        let total = gun_fire
                            .entry(moved.distance)
                            .or_insert_with(|| {
                                let one = Pmf::from_weights(
                                    gun.exact(true)
                                        .into_iter()
                                        .map(|(shot, r)| (i64::from(self.casualties(gun, shot)), r)),
                                );
                                one.sum_of(self.setup.defender_guns)
                            })
                            .clone();
                        let mut next = Vec::new();
                        for (s, q) in fired {
                            for (losses, r) in total.iter().filter(|&(_, r)| r > 0.0) {
                                let mut t = s;
                                t.figures[ATTACKER] = t.figures[ATTACKER].saturating_sub(losses as u32);
                                next.push((t, q * r));
                            }
                        }
                        fired = merged(next);
                    }
                }
                // 3.2 note: small arms after artillery casualties.
                let volley_distance = match (moved.distance, charged_from, self.rules.closing_volley) {
                    (0, Some(from), ClosingVolley::AtChargeStart) => Some(from),
                    (0, _, _) => None,
                    (d, _, _) => Some(d),
                };
                if let Some(d) = volley_distance {
                    let cover = if self.setup.ground == Ground::Woods { Cover::Woods } else { Cover::Open };
                    let need = self.rules.small_arms_need(self.setup.defender_troops, cover, d);
                    let mut next = Vec::new();
                    for (s, q) in fired {
                        let hits = volleys
                            .entry((s.figures[DEFENDER], d))
                            .or_insert_with(|| Pmf::binomial(s.figures[DEFENDER], d20_at_least(need)));
                        for (h, r) in hits.iter().filter(|&(_, r)| r > 0.0) {
                            let mut t = s;
                            t.figures[ATTACKER] =
                                t.figures[ATTACKER].saturating_sub(h as u32 * self.rules.figures_per_hit);
                            next.push((t, q * r));
                        }
                    }
                    fired = merged(next);
                }
                for (after_fire, q) in fired {
                    if let Some(winner) = Self::destroyed(after_fire.figures) {
                        out.push((Step::End(self.end(winner, turn, &after_fire)), q));
                        continue;
                    }
                    if after_fire.burning && self.rules.burning_building == BurningBuilding::Evacuate {
                        out.push((Step::End(self.end(ATTACKER, turn, &after_fire)), q));
                        continue;
                    }
                    // 4: Melee.
                    let mut fought = vec![(after_fire, q)];
                    if after_fire.distance == 0 {
                        let [a, b] = after_fire.figures;
                        let results = melees.entry((a, b)).or_insert_with(|| {
                            let attacker = MeleeSide { figures: a, modifier: self.attacker_melee.modifier };
                            let defender = MeleeSide { figures: b, modifier: self.defender_melee_modifier };
                            let shift = |side: MeleeSide| i64::from(side.figures) * i64::from(side.modifier);
                            let (ta, tb) = (Pmf::dice(a, 20), Pmf::dice(b, 20));
                            let mut by_losses: HashMap<(u32, u32), f64> = HashMap::new();
                            for (x, px) in ta.iter() {
                                for (y, py) in tb.iter() {
                                    let result = resolve(
                                        self.rules.melee_casualties,
                                        attacker,
                                        x + shift(attacker),
                                        defender,
                                        y + shift(defender),
                                    );
                                    *by_losses
                                        .entry((result.attacker_casualties, result.defender_casualties))
                                        .or_insert(0.0) += px * py;
                                }
                            }
                            by_losses.into_iter().collect()
                        });
                        fought = results
                            .iter()
                            .map(|&((la, lb), r)| {
                                let mut t = after_fire;
                                t.figures[ATTACKER] -= la;
                                t.figures[DEFENDER] -= lb;
                                (t, q * r)
                            })
                            .collect();
                    }
                    for (fought, r) in fought {
                        if let Some(winner) = Self::destroyed(fought.figures) {
                            out.push((Step::End(self.end(winner, turn, &fought)), r));
                            continue;
                        }
                        // 5: Morale Check.
                        let tests = |i: usize| {
                            self.must_test(start[i], before[i], after_fire.figures[i])
                                || self.must_test(start[i], after_fire.figures[i], fought.figures[i])
                        };
                        let attacker_fail = if !fought.routed && tests(ATTACKER) { 1.0 - rally } else { 0.0 };
                        let defender_tests = tests(DEFENDER)
                            || (fought.burning && self.rules.burning_building == BurningBuilding::MoraleTest);
                        let defender_fail = if defender_tests { 1.0 - defender_pass } else { 0.0 };
                        // Both break: no one holds the position.
                        out.push((Step::End(self.end(NONE, turn, &fought)), r * attacker_fail * defender_fail));
                        out.push((
                            Step::End(self.end(ATTACKER, turn, &fought)),
                            r * (1.0 - attacker_fail) * defender_fail,
                        ));
                        let broke = Position {
                            routed: true,
                            distance: fought.distance + self.rules.retreat_distance,
                            ..fought
                        };
                        let weight = r * attacker_fail * (1.0 - defender_fail);
                        if broke.distance > farthest {
                            out.push((Step::End(self.end(DEFENDER, turn, &broke)), weight));
                        } else {
                            out.push((Step::Continue(broke), weight));
                        }
                        out.push((Step::Continue(fought), r * (1.0 - attacker_fail) * (1.0 - defender_fail)));
                    }
                }
            }
            out.retain(|&(_, p)| p > 0.0);
            out
        };
        let at_limit = |p: &Position| self.end(NONE, self.setup.turns, p);
        Some(markov::absorb(initial, self.setup.turns, step, at_limit))
    }
}

fn rename(error: ParamError, key: &str) -> ParamError {
    match error {
        ParamError::Invalid { reason, .. } => ParamError::Invalid { key: key.into(), reason },
        other => other,
    }
}

impl Scenario for Assault {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn has_exact(&self) -> bool {
        self.setup.attacker_figures * self.setup.defender_figures <= EXACT_FIGURES_PRODUCT
    }

    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        self.exact_chain()
    }

    fn sample(&self, dice: &mut Dice) -> u64 {
        let start = [self.setup.attacker_figures, self.setup.defender_figures];
        let mut figures = start;
        let mut distance = self.setup.distance;
        let farthest = self.setup.distance + self.setup.edge;
        let mut routed = false;
        let mut roof_intact = true;
        let mut burning = false;
        let mut battery_fired = false;
        for turn in 1..=self.setup.turns {
            // 5: Give Orders: a retreating attacker rallies or retreats again.
            if routed {
                if dice.d20() as i32 >= self.attacker_morale_need {
                    routed = false;
                } else {
                    distance += self.rules.retreat_distance;
                    if distance > farthest {
                        return self.encode(DEFENDER, turn, figures, burning, !roof_intact);
                    }
                }
            }
            // 2: Movement: advance, or charge into contact over the last stretch.
            let mut charged_from = None;
            if !routed && distance > 0 {
                if distance <= self.move_inches + self.charge_bonus {
                    charged_from = Some(distance);
                    distance = 0;
                } else {
                    distance -= self.move_inches;
                }
            }
            // 3: Firing, artillery first; 3.3: no artillery fires into a melee.
            let before = figures;
            if distance > 0 {
                if let Some((first, later)) = &self.battery {
                    let gun = if battery_fired { later } else { first };
                    battery_fired = true;
                    for _ in 0..self.setup.battery.map_or(0, |b| b.guns) {
                        let shot = gun.fire(dice, roof_intact);
                        roof_intact &= !shot.roof_blown;
                        burning |= shot.fire;
                        let casualties = self.casualties(gun, shot);
                        figures[DEFENDER] = figures[DEFENDER].saturating_sub(casualties);
                    }
                }
                if let Some(Some(gun)) = self.defender_guns.get(distance as usize) {
                    for _ in 0..self.setup.defender_guns {
                        let shot = gun.fire(dice, true);
                        let casualties = self.casualties(gun, shot);
                        figures[ATTACKER] = figures[ATTACKER].saturating_sub(casualties);
                    }
                }
            }
            // 3.2 note: small arms fire from the figures left after artillery.
            let volley_distance = match (distance, charged_from, self.rules.closing_volley) {
                (0, Some(from), ClosingVolley::AtChargeStart) => Some(from),
                (0, _, _) => None,
                (d, _, _) => Some(d),
            };
            if let Some(d) = volley_distance {
                let losses = self.volley(dice, figures[DEFENDER], d);
                figures[ATTACKER] = figures[ATTACKER].saturating_sub(losses);
            }
            if figures[ATTACKER] == 0 || figures[DEFENDER] == 0 {
                let winner = if figures[DEFENDER] > 0 {
                    DEFENDER
                } else if figures[ATTACKER] > 0 {
                    ATTACKER
                } else {
                    NONE
                };
                return self.encode(winner, turn, figures, burning, !roof_intact);
            }
            // 6 (interpretation): defenders leave a burning building.
            if burning && self.rules.burning_building == BurningBuilding::Evacuate {
                return self.encode(ATTACKER, turn, figures, burning, !roof_intact);
            }
            let after_fire = figures;
            // 4: Melee, when in contact.
            if distance == 0 {
                let attacker = MeleeSide { figures: figures[ATTACKER], modifier: self.attacker_melee.modifier };
                let defender = MeleeSide { figures: figures[DEFENDER], modifier: self.defender_melee_modifier };
                let a = attacker.roll(dice);
                let b = defender.roll(dice);
                let result = resolve(self.rules.melee_casualties, attacker, a, defender, b);
                figures[ATTACKER] -= result.attacker_casualties;
                figures[DEFENDER] -= result.defender_casualties;
                if figures[ATTACKER] == 0 || figures[DEFENDER] == 0 {
                    let winner = if figures[DEFENDER] > 0 {
                        DEFENDER
                    } else if figures[ATTACKER] > 0 {
                        ATTACKER
                    } else {
                        NONE
                    };
                    return self.encode(winner, turn, figures, burning, !roof_intact);
                }
            }
            // 5: Morale Check, on either phase's losses or falling below half.
            let tests = |i: usize| {
                self.must_test(start[i], before[i], after_fire[i])
                    || self.must_test(start[i], after_fire[i], figures[i])
            };
            let attacker_broke = !routed && tests(ATTACKER) && (dice.d20() as i32) < self.attacker_morale_need;
            let defender_tests =
                tests(DEFENDER) || (burning && self.rules.burning_building == BurningBuilding::MoraleTest);
            let defender_broke = defender_tests && (dice.d20() as i32) < self.defender_morale_need;
            if defender_broke {
                let winner = if attacker_broke { NONE } else { ATTACKER };
                return self.encode(winner, turn, figures, burning, !roof_intact);
            }
            if attacker_broke {
                routed = true;
                distance += self.rules.retreat_distance;
                if distance > farthest {
                    return self.encode(DEFENDER, turn, figures, burning, !roof_intact);
                }
            }
        }
        self.encode(NONE, self.setup.turns, figures, burning, !roof_intact)
    }
}
