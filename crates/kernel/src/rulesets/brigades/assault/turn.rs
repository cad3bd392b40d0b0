//! One turn of a single charger against its target: who moves first, the
//! approach and the defensive fire, the morale tests, the charge home and
//! combat, evasion and pursuit.

use super::build::rules_halve;
use super::*;

impl Assault {
    /// 2.1: whether cavalry within charge reach of the line moves (and so
    /// charges) before the line's movement phase: it wins the initiative
    /// (each side a D10, ties rerolled: half the time) under
    /// `square_initiative = rolled`. Out of reach, who moves first changes
    /// nothing the line cares about: it may form after the cavalry's move.
    pub(super) fn cavalry_charges_first<R: Roller>(&self, state: AssaultState, roller: &mut R) -> bool {
        let (_, reach) = self.moves();
        self.rules.square_initiative == SquareInitiative::Rolled
            && u32::from(state.distance) <= reach
            && roller.d10_at_most(5)
    }

    /// 2.8: a charge starting within this many inches cannot be evaded.
    pub(super) fn evade_within(&self) -> u32 {
        if self.cavalry() { self.rules.evade_cavalry_within } else { self.rules.evade_infantry_within }
    }

    /// The fate of both sides when the turn limit comes: a pursued side has
    /// routed.
    pub(super) fn limit_fate(state: &AssaultState) -> [(bool, bool, bool); 2] {
        let mut fate = [(false, false, false); 2];
        if let Some(p) = state.pursuer {
            fate[1 - usize::from(p)] = (true, true, false);
        }
        fate
    }

    /// 7.4: whether side `p` may pursue the other: gunners never pursue,
    /// infantry never pursues cavalry, and cavalry never pursues faster
    /// cavalry.
    pub(super) fn may_pursue(&self, p: usize) -> bool {
        match self.arm(p) {
            Arm::Cavalry => self.arm(1 - p) != Arm::Cavalry || self.cavalry_speed(1 - p) <= self.cavalry_speed(p),
            Arm::Infantry => self.arm(1 - p) != Arm::Cavalry,
            Arm::Gunners => false,
        }
    }

    /// 7.4: side `p`'s roll to enter pursuit (fails to resist it): a D10 of
    /// 1-4, 1-7 for grade E/F.
    pub(super) fn pursuit_roll<R: Roller>(&self, p: usize, roller: &mut R) -> bool {
        let rules = &self.rules;
        let mut most = rules.pursuit_max_score;
        if matches!(self.grade(p), Grade::E | Grade::F) {
            // 7.4: -3 to the roll if grade E/F, so more often.
            most -= rules.pursuit_grade_e_f;
        }
        let nation = if p == 0 { self.charger.nation } else { self.holder.nation };
        if self.national(p) && nation == Nation::Britain {
            // 7.11: British cavalry an additional -3 to resist pursuit.
            most += 3;
        }
        roller.d10_at_most(most.clamp(0, 10) as u32)
    }

    /// 7.4: whether side `p` enters pursuit of the other, which it routed.
    pub(super) fn enters_pursuit<R: Roller>(&self, p: usize, roller: &mut R) -> bool {
        if !self.rules.optional_pursuit || !self.may_pursue(p) {
            return false;
        }
        if self.arm(p) == Arm::Infantry {
            // 7.4: "Infantry only enter pursuit if they want to": the
            // winner's decision. Bold pursues; cautious holds.
            return roller.decide(p as u8, &PURSUE_DECISION, &[0, 1], &|policy| u16::from(policy == Policy::Bold)) == 1;
        }
        // 7.4: cavalry must roll to resist pursuit.
        self.pursuit_roll(p, roller)
    }

    /// 7.1 Cavalry bounce: whether the winner `w` follows up the recoiling
    /// enemy (it must roll to resist pursuit, or follow up).
    pub(super) fn follows_up<R: Roller>(&self, w: usize, roller: &mut R) -> bool {
        self.rules.bounce_follow_up == BounceFollowUp::Roll && self.may_pursue(w) && self.pursuit_roll(w, roller)
    }

    /// 7.4: a pursuit round: the pursuers, disordered, strike the shaken
    /// routers with double hits; if the routers lose again they rout again,
    /// and the pursuers may follow again at the cost of a rout hit.
    pub(super) fn pursuit_turn<R: Roller>(
        &self,
        mut state: AssaultState,
        p: usize,
        charisma: [i32; 2],
        roller: &mut R,
    ) -> Ending {
        let rules = &self.rules;
        let r = 1 - p;
        // The routers end their rout in the open, and a square in column (5.7.4).
        let router_arm = if self.arm(r) == Arm::Cavalry { Arm::Cavalry } else { Arm::Infantry };
        let pursuer_dice = combat_dice(rules, self.arm(p), u32::from(state.figures[p]), router_arm, true);
        let router_dice = combat_dice(rules, router_arm, u32::from(state.figures[r]), self.arm(p), true);
        let pursuer_mod = self.standing_modifier(p);
        let router_mod = self.standing_modifier(r) + rules.combat_shaken;
        let base = rules.combat_base_to_hit;
        let struck =
            roller.hits(pursuer_dice, &rules.hit_faces(base, pursuer_mod), rules.hit_chance(base, pursuer_mod));
        let on_pursuer =
            roller.hits(router_dice, &rules.hit_faces(base, router_mod), rules.hit_chance(base, router_mod));
        let on_router = struck * rules.pursuit_hit_multiplier;
        state.rounds = state.rounds.saturating_add(1);
        let mut shattered = [false; 2];
        // `pursue` tells a renewed pursuit from a first one by the marker.
        let marker = state.pursuer;
        shattered[p] = self.take_hits(p, &mut state, on_pursuer);
        shattered[r] = self.take_hits(r, &mut state, on_router);
        let mut fate = [(false, false, false); 2];
        fate[p] = (shattered[p], false, shattered[p]);
        fate[r] = (true, true, shattered[r]);
        state.pursuer = None;
        let renew = |state: AssaultState| AssaultState { pursuer: marker, ..state };
        if shattered[0] || shattered[1] || on_router == on_pursuer {
            // The pursuit ends: the routers got away or are gone.
            return Ending::Over(state, fate);
        }
        if on_pursuer > on_router {
            // 5.4 (4): the pursuer lost the round. By default it tests like any
            // unit losing a combat (`pursuer_loses`); the pursuit ends either way.
            if rules.pursuer_loses == PursuerLoses::Tests {
                let (pass, modifier, rout_modifier) = self.base_test(p, &state, on_pursuer, charisma);
                let result = roller.test(rules, pass, modifier + rules.morale_losing_combat, rout_modifier);
                if let TestResult::Rout(row) = result {
                    let shattered = self.rout(p, &mut state, row);
                    fate[p] = (true, true, shattered);
                }
            }
            return Ending::Over(state, fate);
        }
        // Losing again, the routers rout again (no test), on the rout table.
        let (_, _, rout_modifier) = self.base_test(r, &state, on_router, charisma);
        if let TestResult::Rout(row) = roller.test(rules, i32::MAX / 2, 0, rout_modifier)
            && self.rout(r, &mut state, row)
        {
            fate[r].2 = true;
            return Ending::Over(state, fate);
        }
        if self.enters_pursuit(p, roller) {
            return self.pursue(p, renew(state), fate);
        }
        Ending::Over(state, fate)
    }

    /// 7.4: side `p` enters pursuit of the other, which it has just routed:
    /// it loses a rout hit to disorganization (every pursuit by default,
    /// `pursuit_cost`; under `again` only a pursuit renewed after a pursuit
    /// round), which may shatter it, and pursues next turn.
    pub(super) fn pursue(&self, p: usize, mut state: AssaultState, mut fate: [(bool, bool, bool); 2]) -> Ending {
        let rules = &self.rules;
        let renewed = state.pursuer.is_some();
        if (renewed || rules.pursuit_cost == PursuitCost::Every)
            && self.take_hits(p, &mut state, rules.pursuit_rout_hits)
        {
            fate[p] = (true, false, true);
            state.pursuer = None;
            return Ending::Over(state, fate);
        }
        state.pursuer = Some(p as u8);
        Ending::Going(state)
    }

    /// The defender's fire at `band`: (dice, faces, chance), or `None` out of range.
    pub(super) fn defender_fire(
        &self,
        figures: u32,
        band: RangeBand,
        reformed: bool,
        evading: bool,
    ) -> ([bool; 10], f64, u32) {
        let (faces, chance, dice) = self.defender_fire_standing(figures, band, reformed, evading);
        if evading && rules_halve(&self.rules) {
            // 2.7: an evading unit shoots at half effect: half its dice.
            return (faces, chance, dice / 2);
        }
        (faces, chance, dice)
    }

    pub(super) fn defender_fire_standing(
        &self,
        figures: u32,
        band: RangeBand,
        reformed: bool,
        evading: bool,
    ) -> ([bool; 10], f64, u32) {
        let rules = &self.rules;
        let band = self.holder_band(band);
        let score = rules.score_to_hit(self.holder.weapon, band, Target::Normal).unwrap_or(0);
        let mut modifier = self.holder.fire_modifier + rules.fire_grade(self.holder.grade);
        if reformed && rules.formation_change_fire == FormationChangeFire::Moving {
            if self.square_cost_in_half_moves() > 1 {
                // 2.12, 3.1: a formation change that took its whole move
                // leaves no half move to fire after: it does not fire.
                return ([false; 10], 0.0, 0);
            }
            // 2.12, 3.1: it used half a move to form square: moving, -2 (3.3).
            modifier += rules.fire_moving;
        }
        if self.pinned() {
            // 7.3, 3.3: shaken, -2.
            modifier += rules.fire_shaken;
        }
        if self.national(1) {
            // 7.11: steady British infantry +1 with musketry; Russians -1.
            modifier += match self.holder.nation {
                Nation::Britain if self.holder_steady() && self.holder.weapon == Weapon::Musket => 1,
                Nation::Russia if self.holder.weapon == Weapon::Musket => -1,
                _ => 0,
            };
        }
        if self.holder.order == DefenderOrder::Skirmish {
            modifier += rules.fire_disordered_or_skirmishing;
        }
        if evading && rules.evade_fire != EvadeFire::HalfDice {
            // 3.3: evading, -2 (3.1: "may shoot at a penalty before evading").
            modifier += rules.fire_evading;
        }
        // 3.5: a column of 3 or more ranks is dense, for ballshot.
        let dense = !self.cavalry()
            && self.charger.formation == ChargerFormation::Column
            && self.charger.figures > 2 * rules.column_width;
        if dense && band == RangeBand::Ballshot {
            modifier += rules.fire_ball_vs_dense;
        }
        if self.battery() {
            // 3.1: a die per actual gun, the gunners spread over the models
            // as the firefight spreads them (`battery_crew`); no gun is lost to a charger's fire.
            let dice = battery_dice(rules, self.holder.guns, self.holder.guns, figures);
            return (rules.hit_faces(score, modifier), rules.hit_chance(score, modifier), dice);
        }
        let mut firing = figures;
        if self.holder.block > 0 {
            // 6.4.4: "Up to half the figures may shoot out any side of a block."
            firing = figures / self.rules.block_fire_divisor.max(1);
        }
        if self.square() {
            // 3.1, 3.3: one rank fires; a square shows one face to the charge, at -1.
            modifier += rules.fire_in_square;
            firing = self.square_face(figures);
        }
        let dice = if self.holder.two_rank && !self.square() {
            dice_from_figures(firing, rules.two_rank_figures_per_die, rules.two_rank_remainder_rounds_up)
        } else {
            dice_from_figures(firing, rules.fire_figures_per_die, rules.fire_remainder_rounds_up)
        };
        (rules.hit_faces(score, modifier), rules.hit_chance(score, modifier), dice)
    }

    /// A side's morale numbers: (pass, modifier, rout modifier), before the
    /// situation's own modifiers.
    pub(super) fn base_test(&self, s: usize, state: &AssaultState, hits: u32, charisma: [i32; 2]) -> (i32, i32, i32) {
        let rules = &self.rules;
        let (grade, start, place) = if s == 0 {
            (self.charger.grade, self.charger.figures, self.charger.general)
        } else {
            (self.holder.grade, self.holder.figures, self.holder.general)
        };
        let now = u32::from(state.figures[s]);
        let mut modifier = (hits / 2) as i32 * rules.morale_per_two_hits;
        modifier += Rules::quarters_lost(start, start - now) * rules.morale_per_quarter_losses;
        if s == 1 && self.pinned() {
            // 5.6: the unit is shaken (pinned, 7.3).
            modifier += rules.morale_shaken;
        }
        let mut rout = rules.rout_grade(grade);
        if now * 2 <= start {
            rout += rules.rout_half_strength;
        }
        let (mg, rg) = general_modifiers(rules, place, state.general[s], charisma[s]);
        (rules.morale_pass(grade), modifier + mg, rout + rg)
    }

    /// Takes `hits` off side `s`; true if that shatters it (5.3).
    pub(super) fn take_hits(&self, s: usize, state: &mut AssaultState, hits: u32) -> bool {
        let start = if s == 0 { self.charger.figures } else { self.holder.figures };
        state.figures[s] = u32::from(state.figures[s]).saturating_sub(hits) as u8;
        self.rules.is_shattered(start, start - u32::from(state.figures[s]))
    }

    /// 5.7: a failed test's result on side `s`: rout hits; true if it shattered.
    pub(super) fn rout(&self, s: usize, state: &mut AssaultState, row: RoutRow) -> bool {
        if row == RoutRow::Shattered {
            return true;
        }
        let hits = self.rules.rout_hits(row, u32::from(state.figures[s]));
        self.take_hits(s, state, hits)
    }

    /// 7.5: an attached general whose unit took 2 or more hits may be lost.
    pub(super) fn danger<R: Roller>(&self, s: usize, state: &mut AssaultState, hits: u32, roller: &mut R) {
        let rules = &self.rules;
        if rules.optional_danger_to_generals
            && state.general[s]
            && hits >= rules.general_danger_hits
            && roller.d10_at_most(rules.general_danger_max)
        {
            state.general[s] = false;
        }
    }

    /// One turn: the defender's formation decision in its movement phase,
    /// then the turn in the formation it chose.
    pub(super) fn turn<R: Roller>(&self, before: AssaultState, charisma: [i32; 2], roller: &mut R) -> Ending {
        let rules = &self.rules;
        let mut state = before;
        let mut reformed = false;
        if state.pursuer.is_none()
            && state.distance > 0
            && self.cavalry()
            && self.holder.formation == DefenderFormation::FormsSquare
            && !state.square
            && !self.cavalry_charges_first(state, roller)
        {
            // 2.1, 2.12: the line may form square in its own movement phase,
            // before the cavalry moves (there is no emergency square).
            let form = roller.decide(DEFENDER, &SQUARE_DECISION, &[0, 1], &|policy| {
                // Cautious forms square at once; bold keeps its line.
                u16::from(policy == Policy::Cautious)
            });
            if form == 1 {
                state.square = true;
                reformed = true;
                // 7.3: a formation change within 4" of an enemy: shaken.
                state.pinned = rules.optional_pinning && u32::from(state.distance) <= rules.pinning_distance;
            }
        }
        self.view(&state).turn_formed(state, reformed, charisma, roller)
    }

    /// One turn in the defender's formation (`reformed`: it formed square
    /// this turn).
    pub(super) fn turn_formed<R: Roller>(
        &self,
        before: AssaultState,
        reformed: bool,
        charisma: [i32; 2],
        roller: &mut R,
    ) -> Ending {
        let rules = &self.rules;
        let mut state = before;
        // Per side: (out, routed, shattered).
        let mut fate = [(false, false, false); 2];
        if let Some(p) = state.pursuer {
            return self.pursuit_turn(state, usize::from(p), charisma, roller);
        }
        // Whether the plowed-field roll (6.6) disordered the charger this turn.
        let mut plowed_disorder = false;
        if state.distance > 0 {
            let (_, reach) = self.moves();
            let distance = u32::from(state.distance);
            let mut charging = distance <= reach;
            let mut close_to = None;
            // 2.6: a charge is a voluntary move; within reach the charger
            // may hold where it stands instead (its `hold` decision). Both
            // heuristics charge (the play before the decision): a charger
            // that never charged would stall every fight to the limit.
            if charging && roller.decide(ATTACKER, &HOLD_DECISION, &[0, 1], &|_| 0) == 1 {
                charging = false;
                close_to = Some(distance);
            }
            if charging && self.may_evade(distance) {
                // 2.7, 2.8: charge now, where they may evade, or close to
                // where the next turn's charge catches them.
                let close = roller.decide(ATTACKER, &CHARGE_DECISION, &[0, 1], &|policy| {
                    // Bold charges at once; cautious closes first.
                    u16::from(policy == Policy::Cautious)
                });
                if close == 1 {
                    charging = false;
                    close_to = Some(self.evade_within());
                }
            }
            // Whether the charger halted at the edge of its charge reach
            // (its `approach` decision), short of its full move.
            let mut halted = false;
            let band = if charging {
                Some(match rules.defensive_fire_band {
                    DefensiveFireBand::Close => RangeBand::Close,
                    DefensiveFireBand::Far => RangeBand::Far,
                })
            } else {
                // The charger advances, a full move or to the edge of its
                // charge reach (2.11), and is shot where it stands (3.8).
                let left = match close_to {
                    Some(left) => {
                        // Holding is not "advancing full speed" (7.11).
                        halted = left == distance;
                        left
                    }
                    None => {
                        let (left, short) = self.approach_move(distance, roller);
                        halted = short;
                        left
                    }
                };
                state.distance = left.max(1) as u16;
                self.band_at(left)
            };
            // 3.1: cavalry cannot shoot. And the arc of fire is 45 degrees
            // either side of the front, while a proper flank charger starts
            // its charge behind the target's frontage (4.6): it is out of the
            // arc on its approach moves as on the charge itself. (Either way
            // the charger still advances: before, a charger out of reach of
            // such a defender never moved.)
            let band = if self.holder_cavalry() || self.charger.flank { None } else { band };
            // 2.7, 2.8: skirmishers or gunners evading the charge shoot first.
            let evading = charging
                && self.may_evade(distance)
                && roller.decide(DEFENDER, &EVADE_DECISION, &[0, 1], &|policy| {
                    // Bold stands; cautious evades.
                    u16::from(policy == Policy::Cautious)
                }) == 1;
            let mut hits = 0;
            if let Some(band) = band {
                let (faces, chance, dice) = self.defender_fire(u32::from(state.figures[1]), band, reformed, evading);
                hits = roller.hits(dice, &faces, chance);
            }
            if self.take_hits(0, &mut state, hits) {
                fate[0] = (true, false, true);
                return Ending::Over(state, fate);
            }
            // 5.4 (2): charging home frontally against steady infantry or hard cover.
            let against_steady_foot = self.holder_steady() && !self.holder_cavalry();
            // A proper flank or rear charge need not test unless hit twice, nor
            // does cavalry charging cavalry (5.4).
            let home_test = charging
                && !self.charger.flank
                && !self.holder_cavalry()
                && (against_steady_foot || self.holder.cover == CombatCover::Hard);
            if hits >= rules.morale_test_shooting_hits || home_test {
                let (pass, mut modifier, rout_modifier) = self.base_test(0, &state, hits, charisma);
                if self.national(0) && !self.cavalry() && hits >= rules.morale_test_shooting_hits {
                    if !charging {
                        modifier += self.national_vs_shooting_in_approach(halted);
                    } else if self.charger.nation == Nation::Britain && self.charger.formation == ChargerFormation::Line
                    {
                        // 7.11: British infantry +1 vs. shooting hits in line,
                        // with no exception for charging (the other nations'
                        // column modifiers have one).
                        modifier += 1;
                    }
                }
                if charging && self.british_cavalry(0) {
                    // 7.11: British cavalry +1 on morale to charge: every
                    // test of the charging unit that turn.
                    modifier += 1;
                }
                if home_test {
                    if self.cavalry() {
                        if self.square() && against_steady_foot {
                            modifier += rules.morale_cavalry_vs_square;
                        }
                    } else {
                        modifier += rules.morale_foot_charging_home;
                    }
                }
                let result = roller.test(rules, pass, modifier, rout_modifier);
                self.danger(0, &mut state, hits, roller);
                if let TestResult::Rout(row) = result {
                    let shattered = self.rout(0, &mut state, row);
                    fate[0] = (true, true, shattered);
                    return Ending::Over(state, fate);
                }
            }
            if !charging {
                return Ending::Going(state);
            }
            if evading {
                // 2.7: the evaders move away and the charge meets nobody.
                // Skirmishers get away: no winner. Gunners leave their guns
                // to the charger: the battery is taken.
                if self.battery() {
                    fate[1] = (true, false, false);
                }
                return Ending::Over(state, fate);
            }
            state.distance = 0;
            if self.overrun() {
                // 4.11: the gunners or skirmishers contacted are wiped out.
                state.figures[1] = 0;
                fate[1] = (true, false, false);
                return Ending::Over(state, fate);
            }
            // 6.6: cavalry that charged across plowed field is disordered on
            // a D10 of 8-10.
            plowed_disorder = self.cavalry()
                && self.charger.plowed
                && !roller.d10_at_most(rules.plowed_disorder_min.saturating_sub(1));
            // 5.4 (3): infantry charged successfully by a steady enemy test.
            let mut exempt = self.square()
                && self.cavalry()
                && self.holder_steady()
                && rules.square_charged_test == SquareChargedTest::Exempt;
            // 7.11: steady early Prussian infantry is immune to panic tests by cavalry.
            exempt |= self.cavalry()
                && self.national(1)
                && self.holder.nation == Nation::PrussiaEarly
                && self.holder_steady();
            // Cavalry charged does not test (5.4 (3) names infantry and artillery).
            if self.charger_steady_on_contact(plowed_disorder) && !exempt && !self.holder_cavalry() {
                let (pass, mut modifier, rout_modifier) = self.base_test(1, &state, 0, charisma);
                modifier += if self.cavalry() {
                    rules.morale_meeting_cavalry_charge
                } else {
                    rules.morale_meeting_infantry_charge
                };
                if self.charger.flank {
                    // 5.6: charged on flank or rear this turn.
                    modifier += rules.morale_flanked;
                }
                if let TestResult::Rout(row) = roller.test(rules, pass, modifier, rout_modifier) {
                    let shattered = self.rout(1, &mut state, row);
                    fate[1] = (true, true, shattered);
                    return Ending::Over(state, fate);
                }
            }
        }
        // 2.1 phase 6: a round of combat. The first round is fought in the
        // turn the charge lands (or, from contact, the first turn played).
        let charge_turn = state.rounds == 0;
        let (hits_on_charger, hits_on_holder) = self.combat_round(&state, plowed_disorder, roller);
        state.rounds = state.rounds.saturating_add(1);
        let shattered = [self.take_hits(0, &mut state, hits_on_charger), self.take_hits(1, &mut state, hits_on_holder)];
        if shattered[0] || shattered[1] {
            fate = [(shattered[0], false, shattered[0]), (shattered[1], false, shattered[1])];
            return Ending::Over(state, fate);
        }
        // 5.4 (4): the side losing more hits than it inflicts tests, at -3.
        let loser = match hits_on_charger.cmp(&hits_on_holder) {
            std::cmp::Ordering::Greater => Some((0, hits_on_charger)),
            std::cmp::Ordering::Less => Some((1, hits_on_holder)),
            std::cmp::Ordering::Equal => None,
        };
        for s in 0..2 {
            let hits = if s == 0 { hits_on_charger } else { hits_on_holder };
            if loser.is_some_and(|(l, _)| l == s) {
                let (pass, modifier, rout_modifier) = self.base_test(s, &state, hits, charisma);
                // 7.11: Russian infantry +2 on morale vs. losing a combat.
                let russian = if s == 0 {
                    self.national(0) && !self.cavalry() && self.charger.nation == Nation::Russia
                } else {
                    self.national(1) && !self.holder_cavalry() && self.holder.nation == Nation::Russia
                };
                let mut modifier = modifier + if russian { 2 } else { 0 };
                if charge_turn && self.british_cavalry(s) {
                    // 7.11: British cavalry +1 on morale to charge or meet a
                    // charge, on every test of the turn the charge lands.
                    modifier += 1;
                }
                if s == 1 && self.charger.flank && charge_turn {
                    // 5.6: "charged on flank or rear this turn" counts on every
                    // test of the turn the charge lands, the test for losing
                    // its first round of combat too.
                    modifier += rules.morale_flanked;
                }
                let result = roller.test(rules, pass, modifier + rules.morale_losing_combat, rout_modifier);
                self.danger(s, &mut state, hits, roller);
                if let TestResult::Rout(row) = result {
                    let shattered = self.rout(s, &mut state, row);
                    fate[s] = (true, true, shattered);
                    if !shattered && self.enters_pursuit(1 - s, roller) {
                        return self.pursue(1 - s, state, fate);
                    }
                    return Ending::Over(state, fate);
                }
            } else {
                self.danger(s, &mut state, hits, roller);
            }
        }
        if rules.optional_cavalry_bounce {
            // 7.1 Cavalry bounce: cavalry that fails to inflict more losses than
            // it suffers, with nobody routed, recoils 4". A winner that is
            // cavalry must roll to resist pursuit or follow up, and the combat
            // goes on next turn (no double hits: nobody routed); otherwise, or
            // if both recoil, the combat is over and nobody broke.
            let recoils = [
                self.cavalry() && hits_on_holder <= hits_on_charger,
                self.holder_cavalry() && hits_on_charger <= hits_on_holder,
            ];
            if recoils[0] || recoils[1] {
                let winner = match recoils {
                    [true, false] => Some(1),
                    [false, true] => Some(0),
                    _ => None,
                };
                if winner.is_some_and(|w| self.follows_up(w, roller)) {
                    return Ending::Going(state);
                }
                return Ending::Over(state, fate);
            }
        }
        Ending::Going(state)
    }
}
