//! A round of combat (4): each side's dice and modifiers, and the outcome code
//! of an ended fight.

use super::*;

impl Assault {
    /// One round's hits (on the charger, on the defender).
    pub(super) fn combat_round<R: Roller>(&self, state: &AssaultState, plowed: bool, roller: &mut R) -> (u32, u32) {
        let rules = &self.rules;
        let terms = self.combat_terms(state, plowed);
        let base = rules.combat_base_to_hit;
        let on_holder = roller.hits(
            terms.charger_dice,
            &rules.hit_faces(base, terms.charger_mod),
            rules.hit_chance(base, terms.charger_mod),
        );
        let on_charger = roller.hits(
            terms.holder_dice,
            &rules.hit_faces(base, terms.holder_mod),
            rules.hit_chance(base, terms.holder_mod),
        );
        (on_charger, on_holder)
    }

    /// One round's dice and modifiers (4.1, 4.2) of the charger whose
    /// figures are `state.figures[0]` and of the defender against it.
    pub(super) fn combat_terms(&self, state: &AssaultState, plowed: bool) -> CombatTerms {
        let rules = &self.rules;
        let first = state.rounds == 0;
        let cavalry = self.cavalry();
        let square = self.square();
        let charger_figures = u32::from(state.figures[0]);
        let holder_figures = u32::from(state.figures[1]);
        // 4.1: the front rank fights: a column's is up to 8 wide.
        let charger_front = if self.holder.block > 0 {
            // 6.4.4: all the attacker's figures may attack a block, whatever
            // its formation or depth, up to 1.5 times the block's garrison
            // size against any one side.
            charger_figures.min(self.holder.block * rules.block_attack_side_percent / 100)
        } else if !cavalry && self.charger.formation == ChargerFormation::Column {
            charger_figures.min(rules.column_width)
        } else {
            charger_figures
        };
        // 4.10: a square fights infantry with one face, cavalry with all four.
        // (`square_face`: the face's figures, a quarter rounded down by default.)
        let holder_front = if square && !cavalry { self.square_face(holder_figures) } else { holder_figures };
        let open = !square && self.holder.cover == CombatCover::None;
        let charger_arm = self.charger.arm;
        let mut charger_dice = combat_dice(rules, charger_arm, charger_front, Arm::Infantry, open);
        if cavalry && square {
            charger_dice = combat_dice(rules, charger_arm, charger_front, Arm::Infantry, false);
        }
        let holder_arm = self.arm(1);
        if !square {
            charger_dice = combat_dice(rules, charger_arm, charger_front, holder_arm, open);
        }
        // 4.1: cavalry fighting unsquared infantry in the open rolls a die a
        // figure; charged by infantry, the open ground is the charger's
        // (`charged_cavalry`: as printed, or a die per three).
        let holder_open = if self.infantry_charges_cavalry() {
            self.charger.terrain == ChargeTerrain::None
                && !self.charger.obstacle
                && rules.charged_cavalry == ChargedCavalry::AsPrinted
        } else {
            open
        };
        let holder_dice = combat_dice(rules, holder_arm, holder_front, charger_arm, holder_open);
        // 4.2 modifiers.
        let mut charger_mod = self.standing_modifier(0);
        let mut holder_mod = self.standing_modifier(1);
        if self.charger.flank {
            // 4.6, 4.7: the flank bonus and penalty last the whole combat.
            charger_mod += rules.combat_flank_attack;
            holder_mod += rules.combat_striking_to_flank;
        }
        if self.pinned() {
            // 4.2: the unit is shaken (pinned, 7.3), every round.
            holder_mod += rules.combat_shaken;
        }
        let charger_steady = first && self.charger_steady_on_contact(plowed);
        let holder_steady_now = first && self.holder_steady();
        // 2.3: who is disordered in the first round: the charger by the
        // ground it charged across (terrain, 6.6's roll).
        let mut charger_disordered = !first || self.charger_disordered_on_contact(plowed);
        if self.charger.obstacle {
            // 4.2: vs. steep slope/obstacle, every round.
            charger_mod += rules.combat_vs_obstacle;
        }
        let mut holder_disordered = !first;
        if first {
            if cavalry && square && self.holder_steady() {
                charger_disordered = true;
            }
            // 2.3: infantry not in a steady square contacted by steady cavalry.
            let steady_square = square && self.holder_steady();
            if cavalry && !steady_square && charger_steady && !self.battery() && !self.holder_cavalry() {
                holder_disordered = true;
            }
            if !cavalry && square && charger_steady {
                holder_disordered = true;
            }
        }
        if cavalry {
            if square {
                charger_mod += rules.combat_cavalry_vs_square;
                holder_mod += rules.combat_square_vs_cavalry;
            } else if charger_steady && !charger_disordered && !self.battery() && !self.holder_cavalry() {
                charger_mod += rules.combat_steady_cavalry_vs_unsquared;
                holder_mod += rules.combat_unsquared_vs_steady_cavalry;
            }
            // 4.2 and "Fresh Cavalry": fresh (steady, in its first combat of
            // the game) cavalry against a non-fresh enemy: by default only
            // cavalry, which alone is rated fresh or not (`fresh_against`).
            let charger_fresh = first && charger_steady && !charger_disordered && self.charger.fresh;
            let holder_fresh = first && self.holder_cavalry() && self.holder.fresh && self.holder_steady();
            let rated = self.holder_cavalry() || rules.fresh_against == FreshAgainst::Any;
            if charger_fresh && !holder_fresh && rated {
                charger_mod += rules.combat_fresh_cavalry;
            }
            if charger_fresh && self.charger.lancers {
                charger_mod += rules.combat_lancers_first_round;
            }
            if self.holder_cavalry() {
                if holder_fresh && !charger_fresh {
                    holder_mod += rules.combat_fresh_cavalry;
                }
                if first && self.holder_steady() && self.holder.lancers {
                    holder_mod += rules.combat_lancers_first_round;
                }
                if first && self.holder.advanced < rules.cavalry_stationary_advance {
                    // 4.4: cavalry caught stationary, in the first round; there
                    // are no countercharges (2.6).
                    holder_mod += rules.combat_cavalry_stationary;
                }
            }
            if self.holder.two_rank && !square {
                charger_mod += rules.combat_cavalry_vs_two_rank;
            }
        }
        if self.infantry_charges_cavalry() {
            // Cavalry charged by infantry: it cannot countercharge (2.6) or
            // evade (2.7), and stands steady (2.3) while the infantry is
            // disordered from the start of its charge.
            let steady = first && self.holder_steady();
            if steady && rules.charged_cavalry == ChargedCavalry::AsPrinted {
                // 4.2: steady cavalry vs. unsquared infantry +3; the infantry -3.
                holder_mod += rules.combat_steady_cavalry_vs_unsquared;
                charger_mod += rules.combat_unsquared_vs_steady_cavalry;
            }
            if first && self.holder.advanced < rules.cavalry_stationary_advance {
                // 4.4: caught stationary, the first round.
                holder_mod += rules.combat_cavalry_stationary;
            }
            if steady && self.holder.lancers {
                // 4.2: steady lancers, the first round.
                holder_mod += rules.combat_lancers_first_round;
            }
            if steady && self.holder.fresh && rules.fresh_against == FreshAgainst::Any {
                // 4.2 fresh cavalry vs. non-fresh: infantry counts only under `any`.
                holder_mod += rules.combat_fresh_cavalry;
            }
        }
        if self.holder.two_rank && !square && self.holder.cover == CombatCover::None {
            holder_mod += rules.combat_two_rank;
        }
        match self.holder.cover {
            CombatCover::None => {}
            CombatCover::Soft => charger_mod += rules.combat_vs_soft_cover,
            CombatCover::Hard => charger_mod += rules.combat_vs_hard_cover,
        }
        let charger_is_steady = charger_steady && !charger_disordered;
        let holder_is_steady = holder_steady_now && !holder_disordered;
        if charger_disordered && holder_is_steady {
            charger_mod += rules.combat_disordered_vs_steady;
        }
        if holder_disordered && charger_is_steady {
            holder_mod += rules.combat_disordered_vs_steady;
        }
        CombatTerms { charger_front, charger_dice, charger_mod, holder_dice, holder_mod }
    }

    pub(super) fn encode(&self, turn: u32, state: &AssaultState, fate: [(bool, bool, bool); 2]) -> u64 {
        let winner = match (fate[0].0, fate[1].0) {
            (false, true) => 0,
            (true, false) => 1,
            _ => 2,
        };
        self.layout.encode(&[
            winner,
            i64::from(turn),
            percent(u32::from(state.figures[0]) + u32::from(state.second), self.charger.figures * self.charger.units),
            percent(u32::from(state.figures[1]), self.holder.figures),
            i64::from(fate[0].1),
            i64::from(fate[1].1),
            i64::from(fate[0].2),
            i64::from(fate[1].2),
        ])
    }
}
