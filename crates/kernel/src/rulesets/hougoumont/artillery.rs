//! One artillery shot (3.2, 6): flat trajectory (3D20 against the distance,
//! 9 more to penetrate a building), howitzer (2D6, 7 a direct hit, crews
//! adjusting towards it) or canister (D8, D6 against cover), with the roof and
//! fire rules of buildings.

use super::{ArtilleryKind, BuildingHits, Crew, FireAfter, RoofHit, Rules, Target};
use crate::dice::Dice;
use crate::outcome::{Layout, Metric};
use crate::params::ParamError;
use crate::pmf::Pmf;
use crate::scenario::Scenario;

/// One shot's effect, before encoding.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shot {
    /// Hits on the target (a flat hit is 1, a howitzer direct hit D4, canister D8 or D6).
    pub hits: u32,
    /// A flat-trajectory shot went through a building's wall.
    pub penetrated: bool,
    /// A howitzer's adjusted 2D6 was the direct-hit score.
    pub direct_hit: bool,
    /// The building caught fire.
    pub fire: bool,
    /// The shot blew the roof off.
    pub roof_blown: bool,
}

/// A validated gun: what it fires, how far, at what, by whom.
#[derive(Clone, Debug)]
pub struct Gun {
    kind: ArtilleryKind,
    distance: u32,
    target: Target,
    adjust: u32,
    /// What a consecutive turn adds to the 2D6 roll itself (the literal
    /// reading of 3.2, `howitzer_consecutive = roll_plus_one`); 0 otherwise.
    roll_shift: u32,
    flat_dice: u32,
    flat_penetration_extra: u32,
    building_hits: BuildingHits,
    fire_at_least: u32,
    fire_after: FireAfter,
    direct_score: u32,
    damage_die: u32,
    near_miss_hits: u32,
    roof_hit: RoofHit,
    canister_die: u32,
}

impl Gun {
    /// Checks the ranges: a howitzer no closer than its minimum range, canister
    /// no farther than its range (3.2).
    pub fn new(
        rules: &Rules,
        kind: ArtilleryKind,
        distance: u32,
        target: Target,
        crew: Crew,
        consecutive: bool,
    ) -> Result<Gun, ParamError> {
        if distance == 0 {
            return Err(ParamError::Invalid {
                key: "distance".into(),
                reason: "the distance must be at least 1 inch".into(),
            });
        }
        match kind {
            // 3.2: "Minimum range: 7 inches."
            ArtilleryKind::Howitzer if distance < rules.howitzer_minimum_range => {
                return Err(ParamError::Invalid {
                    key: "distance".into(),
                    reason: format!(
                        "a howitzer cannot fire at {distance} inches: its minimum range is {} inches (3.2)",
                        rules.howitzer_minimum_range
                    ),
                });
            }
            // 3.2: "Canister Fire: Within 20 inches."
            ArtilleryKind::Canister if distance > rules.canister_range => {
                return Err(ParamError::Invalid {
                    key: "distance".into(),
                    reason: format!(
                        "canister reaches only {} inches (3.2), not {distance}; use flat or howitzer fire",
                        rules.canister_range
                    ),
                });
            }
            _ => {}
        }
        let canister_die = match target {
            Target::Open => rules.canister_damage_die,
            // 3.2: "Against woods or walls/buildings: Roll D6 for damage instead of D8."
            Target::Woods | Target::Building => rules.canister_cover_damage_die,
        };
        Ok(Gun {
            kind,
            distance,
            target,
            adjust: rules.howitzer_adjust(crew, consecutive),
            roll_shift: rules.howitzer_roll_shift(consecutive),
            flat_dice: rules.flat_dice,
            flat_penetration_extra: rules.flat_penetration_extra,
            building_hits: rules.building_hits,
            fire_at_least: rules.fire_at_least,
            fire_after: rules.fire_after,
            direct_score: rules.howitzer_direct_score,
            damage_die: rules.howitzer_damage_die,
            near_miss_hits: rules.howitzer_near_miss_hits,
            roof_hit: rules.roof_hit,
            canister_die,
        })
    }

    /// The most hits one shot can do.
    pub fn max_hits(&self) -> u32 {
        1.max(self.damage_die).max(self.near_miss_hits).max(self.canister_die)
    }

    /// The kind of fire.
    pub fn kind(&self) -> ArtilleryKind {
        self.kind
    }

    /// 3.2: how far off the target a howitzer's 2D6 `roll` lands once the crew
    /// moves it up to its adjustment towards the direct-hit score.
    pub fn howitzer_offset(&self, roll: u32) -> u32 {
        (roll + self.roll_shift).abs_diff(self.direct_score).saturating_sub(self.adjust)
    }

    /// 3.2, 6: the figures a near miss (one inch off) kills. Under an intact
    /// roof that a direct hit only blows off (`roof_hit = roof_only`), none:
    /// "Subsequent hits calculate regular howitzer damage", so the roof goes
    /// first, and a near miss cannot do what a direct hit on it does not.
    fn near_miss_damage(&self, under_roof: bool) -> u32 {
        if under_roof && self.roof_hit == RoofHit::RoofOnly { 0 } else { self.near_miss_hits }
    }

    /// The chance a D6 sets a building alight.
    fn fire_chance(&self) -> f64 {
        f64::from(7u32.saturating_sub(self.fire_at_least).min(6)) / 6.0
    }

    /// One shot. `roof_intact` matters only for a howitzer at a building.
    #[inline]
    pub fn fire(&self, dice: &mut Dice, roof_intact: bool) -> Shot {
        let mut shot = Shot::default();
        let building = self.target == Target::Building;
        match self.kind {
            ArtilleryKind::Flat => {
                // 3.2: hit if the 3D20 reach the distance; 6: 9 more to penetrate a building.
                let sum = dice.sum(self.flat_dice, 20);
                let hit = sum >= self.distance;
                if building {
                    shot.penetrated = sum >= self.distance + self.flat_penetration_extra;
                    let counts = match self.building_hits {
                        BuildingHits::PenetratingOnly => shot.penetrated,
                        BuildingHits::AnyHit => hit,
                    };
                    shot.hits = u32::from(counts);
                    shot.fire = shot.penetrated && dice.d6() >= self.fire_at_least;
                } else {
                    shot.hits = u32::from(hit);
                }
            }
            ArtilleryKind::Howitzer => {
                let (a, b) = dice.two_d6();
                match self.howitzer_offset(a + b) {
                    0 => {
                        // 3.2: direct hit, D4; 6: the first blows the roof off.
                        shot.direct_hit = true;
                        if building && roof_intact {
                            shot.roof_blown = true;
                            shot.hits = match self.roof_hit {
                                RoofHit::RoofOnly => 0,
                                RoofHit::RoofAndDamage => dice.die(self.damage_die),
                            };
                        } else {
                            shot.hits = dice.die(self.damage_die);
                        }
                        shot.fire = building && dice.d6() >= self.fire_at_least;
                    }
                    // 3.2: one inch off, one hit; 6: not through an intact roof.
                    1 => {
                        shot.hits = self.near_miss_damage(building && roof_intact);
                        shot.fire =
                            building && self.fire_after == FireAfter::AnyHowitzerHit && dice.d6() >= self.fire_at_least;
                    }
                    // 3.2: more than one inch off, no effect.
                    _ => {}
                }
            }
            ArtilleryKind::Canister => {
                // 3.2: D8 casualties, D6 against woods, walls or buildings.
                shot.hits = dice.die(self.canister_die);
            }
        }
        shot
    }

    /// The exact distribution of one shot's effect.
    pub fn exact(&self, roof_intact: bool) -> Vec<(Shot, f64)> {
        let building = self.target == Target::Building;
        let fire = self.fire_chance();
        let mut out = Vec::new();
        // A building check: with chance `fire` it burns.
        let with_fire = |out: &mut Vec<(Shot, f64)>, shot: Shot, p: f64, check: bool| {
            if check {
                out.push((Shot { fire: true, ..shot }, p * fire));
                out.push((shot, p * (1.0 - fire)));
            } else {
                out.push((shot, p));
            }
        };
        match self.kind {
            ArtilleryKind::Flat => {
                for (sum, p) in Pmf::dice(self.flat_dice, 20).iter() {
                    let sum = sum as u32;
                    let hit = sum >= self.distance;
                    let mut shot = Shot::default();
                    if building {
                        shot.penetrated = sum >= self.distance + self.flat_penetration_extra;
                        shot.hits = u32::from(match self.building_hits {
                            BuildingHits::PenetratingOnly => shot.penetrated,
                            BuildingHits::AnyHit => hit,
                        });
                    } else {
                        shot.hits = u32::from(hit);
                    }
                    with_fire(&mut out, shot, p, shot.penetrated);
                }
            }
            ArtilleryKind::Howitzer => {
                for (roll, p) in Pmf::dice(2, 6).iter() {
                    match self.howitzer_offset(roll as u32) {
                        0 => {
                            let roof = building && roof_intact;
                            let damage = if roof && self.roof_hit == RoofHit::RoofOnly {
                                Pmf::point(0)
                            } else {
                                Pmf::die(self.damage_die)
                            };
                            for (hits, q) in damage.iter() {
                                let shot =
                                    Shot { hits: hits as u32, direct_hit: true, roof_blown: roof, ..Shot::default() };
                                with_fire(&mut out, shot, p * q, building);
                            }
                        }
                        1 => {
                            let shot = Shot { hits: self.near_miss_damage(building && roof_intact), ..Shot::default() };
                            with_fire(&mut out, shot, p, building && self.fire_after == FireAfter::AnyHowitzerHit);
                        }
                        _ => out.push((Shot::default(), p)),
                    }
                }
            }
            ArtilleryKind::Canister => {
                for (hits, p) in Pmf::die(self.canister_die).iter() {
                    out.push((Shot { hits: hits as u32, ..Shot::default() }, p));
                }
            }
        }
        out
    }
}

/// The `artillery` scenario: one shot.
#[derive(Clone, Debug)]
pub struct Artillery {
    gun: Gun,
    roof_intact: bool,
    layout: Layout,
}

impl Artillery {
    /// One shot of `kind` at `distance` inches at `target`; `crew` and
    /// `consecutive` adjust a howitzer; `roof_intact` says whether a building
    /// still has its roof.
    pub fn new(
        rules: &Rules,
        kind: ArtilleryKind,
        distance: u32,
        target: Target,
        crew: Crew,
        consecutive: bool,
        roof_intact: bool,
    ) -> Result<Artillery, ParamError> {
        let gun = Gun::new(rules, kind, distance, target, crew, consecutive)?;
        let layout = Layout::new(vec![
            Metric::integer("hits", "hits (figures removed) on the target", 0, i64::from(gun.max_hits())),
            Metric::boolean("penetrated", "a flat-trajectory shot penetrated the building"),
            Metric::boolean("direct_hit", "a howitzer scored a direct hit"),
            Metric::boolean("fire", "the building was set alight"),
        ]);
        Ok(Artillery { gun, roof_intact, layout })
    }

    fn encode(&self, shot: Shot) -> u64 {
        self.layout.encode(&[
            i64::from(shot.hits),
            i64::from(shot.penetrated),
            i64::from(shot.direct_hit),
            i64::from(shot.fire),
        ])
    }
}

impl Scenario for Artillery {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    #[inline]
    fn sample(&self, dice: &mut Dice) -> u64 {
        self.encode(self.gun.fire(dice, self.roof_intact))
    }

    fn has_exact(&self) -> bool {
        true
    }

    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        Some(self.gun.exact(self.roof_intact).into_iter().map(|(shot, p)| (self.encode(shot), p)).collect())
    }
}
