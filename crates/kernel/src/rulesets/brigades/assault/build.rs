//! Building an [`Assault`] from its keys, and what each side is: its arm,
//! grade, steadiness, moves and ranges.

use super::*;

impl Assault {
    /// A charge from `distance` inches with a turn limit.
    pub fn new(
        rules: &Rules,
        charger: Charger,
        holder: Holder,
        distance: u32,
        turns: u32,
    ) -> Result<Assault, ParamError> {
        if charger.arm == Arm::Gunners {
            return Err(invalid("attacker.arm", "gunners cannot charge (2.6)"));
        }
        if holder.arm == Arm::Gunners {
            return Err(invalid("defender.arm", "a battery is a defender with a gun weapon (assault)"));
        }
        if holder.arm == Arm::Cavalry {
            if holder.weapon.is_gun() {
                return Err(invalid("defender.weapon", "cavalry has no guns: a battery is infantry's arm here"));
            }
            if holder.formation != DefenderFormation::Line {
                return Err(invalid("defender.formation", "only infantry forms square (1.8)"));
            }
            if holder.two_rank {
                return Err(invalid("defender.two_rank", "a two-rank line is foot (7.9)"));
            }
        }
        if holder.evades && !holder.weapon.is_gun() && holder.order != DefenderOrder::Skirmish {
            return Err(invalid(
                "defender.evades",
                "only skirmishers, gunners and limbered horse guns may evade (2.7)",
            ));
        }
        if charger.plowed && charger.arm != Arm::Cavalry {
            return Err(invalid("attacker.plowed", "plowed fields disrupt cavalry charges only (6.6)"));
        }
        if charger.flank && holder.formation != DefenderFormation::Line {
            return Err(invalid("attacker.flank", "a square faces out in all directions (1.8): it has no flank"));
        }
        if holder.formation != DefenderFormation::Line
            && (holder.weapon.is_gun() || holder.order == DefenderOrder::Skirmish)
        {
            return Err(invalid("defender.formation", "only close-order infantry forms square"));
        }
        if holder.formation == DefenderFormation::FormsSquare && charger.arm != Arm::Cavalry {
            return Err(invalid(
                "defender.formation",
                "forms_square is a line forming square against a cavalry charge (2.12); against infantry set square",
            ));
        }
        let built = Assault {
            purpose: game::Purpose::Manoeuvre,
            rules: rules.clone(),
            charger,
            holder,
            distance,
            turns,
            square_now: false,
            pinned_now: false,
            layout: Layout::new(Vec::new()),
        };
        if holder.formation == DefenderFormation::FormsSquare && built.square_cost_in_half_moves() > 2 {
            return Err(invalid(
                "defender.formation",
                "an extended line of grade E-F needs two moves to form square (2.12), not one movement phase",
            ));
        }
        if (charger.nation != Nation::None || holder.nation != Nation::None) && !rules.optional_national_modifiers {
            let key = if charger.nation != Nation::None { "attacker.nation" } else { "defender.nation" };
            return Err(invalid(key, "needs the optional rule optional_national_modifiers (7.11)"));
        }
        if holder.two_rank && !rules.optional_two_rank_line {
            return Err(invalid("defender.two_rank", "needs the optional rule optional_two_rank_line (7.9)"));
        }
        if holder.formation != DefenderFormation::Line && charger.arm == Arm::Infantry && charger.figures == 0 {
            return Err(invalid("defender.formation", "nothing charges"));
        }
        if holder.block > 0 {
            let refuse = |key: &str, why: &str| Err(invalid(key, format!("a town block (6.4): {why}")));
            if charger.arm != Arm::Infantry {
                return refuse("attacker.arm", "only infantry may enter or attack a town block (6.4.1)");
            }
            if holder.arm != Arm::Infantry || holder.weapon.is_gun() || holder.formation != DefenderFormation::Line {
                return refuse("defender.formation", "its garrison is infantry, in no formation (6.4.3); no guns here");
            }
            if holder.figures > holder.block {
                return refuse("defender.figures", "the garrison is more than the block holds (6.4.1)");
            }
            if holder.cover == CombatCover::None {
                return refuse("defender.block_cover", "a block gives soft or hard cover vs. combat (6.4.2)");
            }
            if charger.flank || charger.units > 1 {
                return refuse("attacker.flank", "no flank (it faces every side, 6.4.3) and one attacker");
            }
        }
        if charger.units == 2 {
            let refuse =
                |key: &str, why: &str| Err(invalid(key, format!("with two chargers (attacker.units = 2): {why}")));
            if holder.arm != Arm::Infantry
                || holder.weapon.is_gun()
                || holder.order != DefenderOrder::Close
                || holder.formation != DefenderFormation::Line
            {
                return refuse("defender.formation", "the defender is a close-order infantry line");
            }
            if charger.flank || charger.plowed {
                return refuse("attacker.flank", "no flank charge, no plowed field");
            }
            if charger.general == GeneralPlace::Attached {
                return refuse("attacker.general", "a general attaches to one unit (1.11); in_radius or out_of_radius");
            }
            if charger.nation != Nation::None || holder.nation != Nation::None {
                return refuse("attacker.nation", "national modifiers are not played");
            }
            if rules.optional_pursuit || rules.optional_cavalry_bounce {
                return refuse("attacker.units", "pursuit (7.4) and the cavalry bounce (7.1) are not played");
            }
        }
        if charger.figures > 60 || holder.figures > 60 {
            return Err(invalid("attacker.figures", "at most 60 figures a side"));
        }
        Ok(Assault {
            purpose: game::Purpose::Manoeuvre,
            rules: rules.clone(),
            charger,
            holder,
            distance,
            turns,
            square_now: holder.formation == DefenderFormation::Square,
            pinned_now: false,
            layout: Layout::new(multi_turn_metrics(turns)),
        })
    }

    /// `assault` from the catalogue's settings.
    pub fn from_assault_settings(rules: &Rules, settings: &Settings) -> Result<Assault, ParamError> {
        let charger = charger_from(settings, settings.choice("attacker.arm"), settings.choice("attacker.formation"));
        let holder = holder_from(settings, settings.choice("defender.formation"));
        if holder.block > 0 && settings.choice::<CombatCover>("defender.cover") != CombatCover::None {
            return Err(invalid("defender.cover", "a town block's cover is defender.block_cover (6.4.2)"));
        }
        Assault::new(rules, charger, holder, settings.int("distance") as u32, settings.int("turns") as u32)
    }

    /// `cavalry_charge` from the catalogue's settings.
    pub fn from_cavalry_settings(rules: &Rules, settings: &Settings) -> Result<Assault, ParamError> {
        let charger = charger_from(settings, Arm::Cavalry, ChargerFormation::Line);
        let holder = holder_from(settings, settings.choice("defender.formation"));
        Assault::new(rules, charger, holder, settings.int("distance") as u32, settings.int("turns") as u32)
    }

    pub(super) fn start(&self) -> AssaultState {
        AssaultState {
            distance: self.distance as u16,
            rounds: 0,
            figures: [self.charger.figures as u8, self.holder.figures as u8],
            general: [self.charger.general == GeneralPlace::Attached, self.holder.general == GeneralPlace::Attached],
            pursuer: None,
            square: self.holder.formation == DefenderFormation::Square,
            pinned: false,
            charisma: [UNROLLED; 2],
            fate: 0,
            second: if self.charger.units == 2 { self.charger.figures as u8 } else { 0 },
            chargers: 0,
        }
    }

    /// The scenario as it plays in `state`: the defender's formation is the
    /// state's (it may have formed square by its decision).
    pub(super) fn view(&self, state: &AssaultState) -> std::borrow::Cow<'_, Assault> {
        if state.square == self.square_now && state.pinned == self.pinned_now {
            std::borrow::Cow::Borrowed(self)
        } else {
            let mut view = self.clone();
            view.square_now = state.square;
            view.pinned_now = state.pinned;
            std::borrow::Cow::Owned(view)
        }
    }

    /// Side `s`'s combat modifiers that hold in every round: its own net
    /// modifier, grades (4.2) and, cavalry against cavalry, heaviness (4.3).
    pub(super) fn standing_modifier(&self, s: usize) -> i32 {
        let rules = &self.rules;
        let (modifier, grade, enemy) = if s == 0 {
            (self.charger.modifier, self.charger.grade, self.holder.grade)
        } else {
            (self.holder.modifier, self.holder.grade, self.charger.grade)
        };
        let mut total = modifier + grade_modifier(rules, grade, enemy);
        if self.arm(0) == Arm::Cavalry && self.arm(1) == Arm::Cavalry {
            let (own, other) = if s == 0 {
                (self.charger.heaviness, self.holder.heaviness)
            } else {
                (self.holder.heaviness, self.charger.heaviness)
            };
            // 4.2, 4.3: heavier cavalry +1 per level, lighter -1.
            total += (own as i32 - other as i32) * rules.combat_per_heaviness;
        }
        total
    }

    /// Side `s`'s arm in combat (4.1).
    pub(super) fn arm(&self, s: usize) -> Arm {
        match s {
            0 => self.charger.arm,
            _ if self.battery() => Arm::Gunners,
            _ => self.holder.arm,
        }
    }

    pub(super) fn grade(&self, s: usize) -> Grade {
        if s == 0 { self.charger.grade } else { self.holder.grade }
    }

    /// 2.11: cavalry's normal move, by heaviness (which is faster, 7.4).
    pub(super) fn cavalry_speed(&self, s: usize) -> u32 {
        let heaviness = if s == 0 { self.charger.heaviness } else { self.holder.heaviness };
        match heaviness {
            Heaviness::Light => self.rules.move_light_cavalry,
            _ => self.rules.move_heavy_cavalry,
        }
    }

    pub(super) fn cavalry(&self) -> bool {
        self.charger.arm == Arm::Cavalry
    }

    pub(super) fn holder_cavalry(&self) -> bool {
        self.holder.arm == Arm::Cavalry
    }

    pub(super) fn square(&self) -> bool {
        self.square_now
    }

    /// 4.10, 3.1: the figures on the one face of a square of `figures` that
    /// meets the charger, which fires at it and fights infantry: a quarter
    /// (1.8: it faces out in all four directions), rounded by `square_face`.
    pub(super) fn square_face(&self, figures: u32) -> u32 {
        let faces = self.rules.square_faces.max(1);
        match self.rules.square_face {
            SquareFace::Down => figures / faces,
            SquareFace::Up => figures.div_ceil(faces),
        }
    }

    /// 2.12: what forming square costs the defender, in half moves: half a
    /// move, a whole move for an extended line (1.8: wider than 24 figures),
    /// and twice that if unsteady or grade E-F (the grade F defender is
    /// unsteady too, 2.3; pinning comes after the change, 7.3).
    pub(super) fn square_cost_in_half_moves(&self) -> u32 {
        let rules = &self.rules;
        let base = if self.holder.figures > rules.line_max_width { 2 } else { 1 };
        let unsteady = matches!(self.holder.grade, Grade::E | Grade::F);
        if unsteady { base * 2 } else { base }
    }

    /// 7.3 Pinning: the defender formed square within 4" of the cavalry, and
    /// is shaken at once; it cannot recover (2.4) before contact, nor while
    /// it fights, so it stays shaken.
    pub(super) fn pinned(&self) -> bool {
        self.pinned_now
    }

    /// 2.3: steady if in good morale, close order, not disordered, grade E or
    /// better: the charger as it launches its charge.
    pub(super) fn charger_steady(&self) -> bool {
        self.charger.grade != Grade::F
    }

    /// 2.3: the charger disordered as it makes contact: by disordering
    /// terrain crossed or entered, by the plowed-field roll (6.6), or, for
    /// infantry, by starting a charge against cavalry.
    pub(super) fn charger_disordered_on_contact(&self, plowed: bool) -> bool {
        self.charger.terrain == ChargeTerrain::Disordering || plowed || self.infantry_charges_cavalry()
    }

    /// Infantry charging cavalry (2.3: disordered from the start of its charge).
    pub(super) fn infantry_charges_cavalry(&self) -> bool {
        !self.cavalry() && self.holder_cavalry()
    }

    /// 2.3, 6.5: the charger steady as it makes contact: steady at launch,
    /// not disordered on the way, and not charging into an obstacle.
    pub(super) fn charger_steady_on_contact(&self, plowed: bool) -> bool {
        // 6.4.1: troops contacting a town block are unsteady.
        self.charger_steady()
            && !self.charger_disordered_on_contact(plowed)
            && !self.charger.obstacle
            && self.holder.block == 0
    }

    pub(super) fn holder_steady(&self) -> bool {
        // 2.3: skirmishers, gunners and shaken units are unsteady; 6.4.1:
        // so are troops inside a town block.
        !self.pinned()
            && self.holder.grade != Grade::F
            && !self.battery()
            && self.holder.order == DefenderOrder::Close
            && self.holder.block == 0
    }

    pub(super) fn battery(&self) -> bool {
        self.holder.weapon.is_gun()
    }

    /// 2.7, 2.8: whether the defender may evade a charge starting
    /// `distance` inches away: it is skirmishers or gunners allowed to
    /// (`defender.evades`), and the charge starts farther than 2" (infantry)
    /// or 4" (cavalry).
    pub(super) fn may_evade(&self, distance: u32) -> bool {
        self.holder.evades && distance > self.evade_within()
    }

    /// 4.11: close-order chargers wipe out gunners and skirmishers they
    /// contact, unless these hold houses or fieldworks (cover).
    pub(super) fn overrun(&self) -> bool {
        (self.battery() || self.holder.order == DefenderOrder::Skirmish) && self.holder.cover == CombatCover::None
    }

    /// The defender's band: guns fire canister close and ballshot far.
    pub(super) fn holder_band(&self, band: RangeBand) -> RangeBand {
        match (self.battery(), band) {
            (true, RangeBand::Close) => RangeBand::Canister,
            (true, RangeBand::Far) => RangeBand::Ballshot,
            (_, band) => band,
        }
    }

    /// 2.11: the charger's move, and its charge reach.
    pub(super) fn moves(&self) -> (u32, u32) {
        let rules = &self.rules;
        // 2.11: the charge move is for steady cavalry launching a charge;
        // under `charge_move_steady = contact` the terrain or obstacle it
        // charges into takes it away too.
        let steady = self.charger_steady()
            && (rules.charge_move_steady == ChargeMoveSteady::Launch
                || (self.charger.terrain == ChargeTerrain::None && !self.charger.obstacle));
        match (self.charger.arm, self.charger.heaviness) {
            (Arm::Cavalry, Heaviness::Light) => {
                let charge = if steady { rules.move_light_cavalry_charge } else { rules.move_light_cavalry };
                (rules.move_light_cavalry, charge)
            }
            (Arm::Cavalry, _) => {
                let charge = if steady { rules.move_heavy_cavalry_charge } else { rules.move_heavy_cavalry };
                (rules.move_heavy_cavalry, charge)
            }
            _ => {
                let m = match self.charger.formation {
                    ChargerFormation::Column => rules.move_infantry_column,
                    // 1.8, 2.11: a line wider than 24 figures is an extended line, 3".
                    ChargerFormation::Line if self.charger.figures > rules.line_max_width => {
                        rules.move_infantry_extended_line
                    }
                    ChargerFormation::Line => rules.move_infantry_line,
                };
                (m, m)
            }
        }
    }

    /// 3.2, 3.8: the band the defender shoots a charger at that ended its
    /// approach move `left` inches away, or `None` out of range.
    pub(super) fn band_at(&self, left: u32) -> Option<RangeBand> {
        let rules = &self.rules;
        let close = rules.band_range(self.holder.weapon, self.holder_band(RangeBand::Close)).unwrap_or(0);
        let far = rules.band_range(self.holder.weapon, self.holder_band(RangeBand::Far)).unwrap_or(0);
        if left <= close {
            Some(RangeBand::Close)
        } else if left <= far {
            Some(RangeBand::Far)
        } else {
            None
        }
    }

    /// Side `s`'s general: where it is and its charisma.
    pub(super) fn general(&self, s: usize) -> (GeneralPlace, Charisma) {
        if s == 0 { (self.charger.general, self.charger.charisma) } else { (self.holder.general, self.holder.charisma) }
    }
}

/// Whether the evading fire reading halves the dice (2.7 "1/2 effect").
pub(super) fn rules_halve(rules: &Rules) -> bool {
    rules.evade_fire != EvadeFire::Modifier
}

fn charger_from(settings: &Settings, arm: Arm, formation: ChargerFormation) -> Charger {
    Charger {
        arm,
        grade: settings.choice("attacker.quality"),
        figures: settings.int("attacker.figures") as u32,
        formation,
        heaviness: settings.choice("attacker.heaviness"),
        lancers: settings.bool("attacker.lancers"),
        fresh: settings.bool("attacker.fresh"),
        terrain: settings.choice("attacker.terrain"),
        obstacle: settings.bool("attacker.obstacle"),
        plowed: settings.bool("attacker.plowed"),
        flank: settings.bool("attacker.flank"),
        modifier: settings.int("attacker.modifier") as i32,
        general: settings.choice("attacker.general"),
        charisma: settings.choice("attacker.charisma"),
        nation: settings.choice("attacker.nation"),
        units: settings.int("attacker.units") as u32,
    }
}

fn holder_from(settings: &Settings, formation: DefenderFormation) -> Holder {
    // The cavalry keys are `cavalry_charge`'s only.
    let cavalry_keys = settings.iter().any(|(k, _)| k == "defender.arm");
    Holder {
        arm: if cavalry_keys { settings.choice("defender.arm") } else { Arm::Infantry },
        heaviness: if cavalry_keys { settings.choice("defender.heaviness") } else { Heaviness::Heavy },
        lancers: cavalry_keys && settings.bool("defender.lancers"),
        advanced: if cavalry_keys { settings.int("defender.advanced") as u32 } else { 0 },
        fresh: !cavalry_keys || settings.bool("defender.fresh"),
        evades: settings.iter().any(|(k, _)| k == "defender.evades") && settings.bool("defender.evades"),
        block: if settings.iter().any(|(k, _)| k == "defender.block") {
            settings.int("defender.block") as u32
        } else {
            0
        },
        grade: settings.choice("defender.quality"),
        figures: settings.int("defender.figures") as u32,
        weapon: settings.choice("defender.weapon"),
        guns: if settings.iter().any(|(k, _)| k == "defender.guns") { settings.int("defender.guns") as u32 } else { 0 },
        order: if settings.iter().any(|(k, _)| k == "defender.order") {
            settings.choice("defender.order")
        } else {
            DefenderOrder::Close
        },
        formation,
        cover: if settings.iter().any(|(k, _)| k == "defender.block") && settings.int("defender.block") > 0 {
            // 6.4.2: the block's cover vs. combat.
            settings.choice("defender.block_cover")
        } else {
            settings.choice("defender.cover")
        },
        modifier: settings.int("defender.modifier") as i32,
        fire_modifier: settings.int("defender.fire_modifier") as i32,
        general: settings.choice("defender.general"),
        charisma: settings.choice("defender.charisma"),
        two_rank: settings.bool("defender.two_rank"),
        nation: settings.choice("defender.nation"),
    }
}

impl Assault {
    /// This fight under `purpose`: what each side must achieve by the turn
    /// limit ([`crate::game::Purpose`]).
    pub fn with_purpose(mut self, purpose: game::Purpose) -> Self {
        self.purpose = purpose;
        self
    }
}
