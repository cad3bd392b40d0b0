//! Two chargers against one target (the `second` charger): their shooting in
//! the approach, the target's split fire and its choice of target.

use super::*;

impl Assault {
    /// Whether side `s`'s national modifiers apply: the optional rule is on,
    /// and they are for grade A-E troops (7.11).
    pub(super) fn national(&self, s: usize) -> bool {
        let (nation, grade) =
            if s == 0 { (self.charger.nation, self.charger.grade) } else { (self.holder.nation, self.holder.grade) };
        self.rules.optional_national_modifiers && nation != Nation::None && grade != Grade::F
    }

    /// 7.11: side `s` is British cavalry with national modifiers.
    pub(super) fn british_cavalry(&self, s: usize) -> bool {
        let nation = if s == 0 { self.charger.nation } else { self.holder.nation };
        self.national(s) && self.arm(s) == Arm::Cavalry && nation == Nation::Britain
    }

    /// 7.11: an infantry charger's morale modifier vs. shooting hits while it
    /// approaches before the charge (not while charging). France's and
    /// Spain's are for a column "advancing full speed": a column that
    /// `halted` at the edge of its charge reach, short of its full move (its
    /// `approach` decision), has not, and goes without. Austria's, later
    /// Prussia's and Britain's ask only the formation.
    pub(super) fn national_vs_shooting_in_approach(&self, halted: bool) -> i32 {
        let column = self.charger.formation == ChargerFormation::Column;
        match (self.charger.nation, column) {
            (Nation::France | Nation::Spain, true) if halted => 0,
            (Nation::France, true) => 2,
            (Nation::Spain, true) | (Nation::Austria, true) | (Nation::PrussiaLate, true) => 1,
            (Nation::Austria, false) | (Nation::PrussiaLate, false) => -1,
            (Nation::Britain, false) => 1,
            _ => 0,
        }
    }

    /// 3.10: a unit being charged "must split its fire as evenly as possible
    /// among all the targets charging it": `dice` between the chargers of
    /// `figures` still in the fight (`charging`). The odd die goes toward
    /// the charger with more figures, the first if they are equal
    /// (`split_odd_die = more_figures`, 4.5's rounding), or where the
    /// defender chooses (`chosen`, its `target` decision). Between alike
    /// chargers shot together from their start no reading changes a result;
    /// after an approach on which one was shot, it may.
    pub(super) fn split_fire<R: Roller>(
        &self,
        dice: u32,
        figures: [u8; 2],
        charging: [bool; 2],
        roller: &mut R,
    ) -> [u32; 2] {
        match charging {
            [true, true] => {}
            [true, false] => return [dice, 0],
            [false, true] => return [0, dice],
            [false, false] => return [0, 0],
        }
        let split = split_dice(dice, &[u32::from(figures[0]), u32::from(figures[1])]);
        if dice % 2 == 1 && self.rules.split_odd_die == SplitOddDie::Chosen {
            let to =
                roller.decide(DEFENDER, &TARGET_DECISION, &[0, 1], &|policy| Self::target_heuristic(figures, policy));
            let half = dice / 2;
            return if to == 0 { [half + 1, half] } else { [half, half + 1] };
        }
        [split[0], split[1]]
    }

    /// The `target` heuristics: bold shoots at the charger with fewer
    /// figures, to break it; cautious at the one with more, the greater
    /// threat; the first when they are equal.
    pub(super) fn target_heuristic(figures: [u8; 2], policy: Policy) -> u16 {
        match policy {
            Policy::Bold => u16::from(figures[1] < figures[0]),
            _ => u16::from(figures[1] > figures[0]),
        }
    }

    /// `state` as charger `i` of two sees it: its figures in the charger's place.
    pub(super) fn as_charger(state: &AssaultState, i: usize, figures: [u8; 2]) -> AssaultState {
        AssaultState { figures: [figures[i], state.figures[1]], ..*state }
    }

    /// Charger `i`'s bit of kind `kind` (0 out, 1 routed, 2 shattered) in
    /// `AssaultState::chargers`.
    pub(super) fn charger_bit(i: usize, kind: u8) -> u8 {
        1u8 << (2 * kind + i as u8)
    }

    /// The attacker side's (out, routed, shattered) from the chargers' ends:
    /// out once both are, routed or shattered if either is.
    pub(super) fn chargers_side(ends: u8) -> (bool, bool, bool) {
        (ends & 3 == 3, ends & 12 != 0, ends & 48 != 0)
    }

    /// Charger `i` of two (figures `figures[i]`) takes `hits` of shooting
    /// and, after 2 or more or charging home (`home_test`), its morale test
    /// (5.4 (1), (2)); its ends go into `ends`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn charger_shot<R: Roller>(
        &self,
        state: &AssaultState,
        i: usize,
        figures: &mut [u8; 2],
        ends: &mut u8,
        hits: u32,
        home_test: bool,
        charisma: [i32; 2],
        roller: &mut R,
    ) {
        let rules = &self.rules;
        let bit = Self::charger_bit;
        let mut me = Self::as_charger(state, i, *figures);
        let shattered = self.take_hits(0, &mut me, hits);
        figures[i] = me.figures[0];
        if shattered {
            *ends |= bit(i, 0) | bit(i, 2);
            return;
        }
        if hits >= rules.morale_test_shooting_hits || home_test {
            let (pass, mut modifier, rout_modifier) = self.base_test(0, &me, hits, charisma);
            if home_test && !self.cavalry() {
                modifier += rules.morale_foot_charging_home;
            }
            if let TestResult::Rout(row) = roller.test(rules, pass, modifier, rout_modifier) {
                let shattered = self.rout(0, &mut me, row);
                figures[i] = me.figures[0];
                *ends |= bit(i, 0) | bit(i, 1) | if shattered { bit(i, 2) } else { 0 };
            }
        }
    }

    /// 2.11: how far from the defender a charger (or two moving together)
    /// `distance` inches away, beyond its charge reach, ends its move, and
    /// whether it halted short of its full move. Where the full move would
    /// end nearer than the edge of its charge reach, the attacker's
    /// `approach` decision: close the full move, or halt at the edge, from
    /// where next turn's charge lands just the same, to be shot at from
    /// farther meanwhile (3.2's bands). A full move stops 2" short (2.2).
    pub(super) fn approach_move<R: Roller>(&self, distance: u32, roller: &mut R) -> (u32, bool) {
        let (step, reach) = self.moves();
        // 2.2: "A unit may not approach within 2\" of an enemy unit unless
        // charging at that unit": a full move that is not a charge stops at
        // `no_closer_than` (an infantry charger 1" beyond its reach, whose
        // full move would end 1" away, once stood there uncharged).
        let nearest = self.rules.no_closer_than.min(distance);
        let full = distance.saturating_sub(step).max(nearest);
        if full < reach
            && roller.decide(ATTACKER, &APPROACH_DECISION, &[0, 1], &|policy| {
                // Bold closes the full move (the play before the decision);
                // cautious halts at the edge.
                u16::from(policy == Policy::Cautious)
            }) == 1
        {
            return (reach, true);
        }
        (full, false)
    }

    /// One turn of two chargers still beyond charge reach (2.11), moving
    /// together (2.1: the attacker moves all its units in its phase): the
    /// attacker's `approach` decision where the full move would end nearer
    /// than the edge of charge reach, then the line's fire where they stand
    /// (3.8: a stationary unit shoots what passed through its range), all
    /// of it at one charger (3.10 "must concentrate its fire onto one
    /// target": its `target` decision), and that charger's test after 2
    /// hits (5.4 (1)). A charger out of the fight (routed or shattered on
    /// the way) is no target; the other goes on alone.
    pub(super) fn approach_two<R: Roller>(&self, before: AssaultState, charisma: [i32; 2], roller: &mut R) -> Ending {
        let mut state = before;
        let (left, _) = self.approach_move(u32::from(state.distance), roller);
        state.distance = left.max(1) as u16;
        let mut figures = [state.figures[0], state.second];
        let mut ends = state.chargers;
        let is_in = [ends & Self::charger_bit(0, 0) == 0, ends & Self::charger_bit(1, 0) == 0];
        if let Some(band) = self.band_at(left) {
            let target = match is_in {
                // 3.10: the line concentrates its fire on one target, its choice.
                [true, true] => roller
                    .decide(DEFENDER, &TARGET_DECISION, &[0, 1], &|policy| Self::target_heuristic(figures, policy))
                    as usize,
                [true, false] => 0,
                _ => 1,
            };
            let (faces, chance, dice) = self.defender_fire(u32::from(state.figures[1]), band, false, false);
            let hits = roller.hits(dice, &faces, chance);
            self.charger_shot(&state, target, &mut figures, &mut ends, hits, false, charisma, roller);
        }
        state.figures[0] = figures[0];
        state.second = figures[1];
        state.chargers = ends;
        if Self::chargers_side(ends).0 {
            return Ending::Over(state, [Self::chargers_side(ends), (false, false, false)]);
        }
        Ending::Going(state)
    }

    /// One turn of two chargers (`attacker.units = 2`): beyond charge reach
    /// their approach ([`Assault::approach_two`]); within it, the charge of
    /// those still in the fight, together: the defender's fire split
    /// between them (3.10), each charger's test (5.4 (1), (2)), the
    /// defender's one test (5.4 (3); 2.1: one test in the phase), then a
    /// combat round in which the defender divides its dice between the
    /// chargers in contact (4.5) and every unit that lost more hits than it
    /// inflicted tests (5.4 (4)).
    pub(super) fn turn_two<R: Roller>(&self, before: AssaultState, charisma: [i32; 2], roller: &mut R) -> Ending {
        if u32::from(before.distance) > self.moves().1 {
            return self.approach_two(before, charisma, roller);
        }
        let rules = &self.rules;
        let mut state = before;
        let mut figures = [state.figures[0], state.second];
        let bit = Self::charger_bit;
        let mut ends = state.chargers;
        let is_in = |ends: u8, i: usize| ends & bit(i, 0) == 0;
        let finish = |state: &mut AssaultState, figures: [u8; 2], ends: u8| {
            state.figures[0] = figures[0];
            state.second = figures[1];
            state.chargers = ends;
        };
        let side = Self::chargers_side;
        if state.distance > 0 {
            let band = match rules.defensive_fire_band {
                DefensiveFireBand::Close => RangeBand::Close,
                DefensiveFireBand::Far => RangeBand::Far,
            };
            let (faces, chance, dice) = self.defender_fire(u32::from(state.figures[1]), band, false, false);
            // 3.8, 3.10: all its fire goes at the chargers charging it, split
            // evenly; one that was put out on the approach charges no more.
            let charging = [is_in(ends, 0), is_in(ends, 1)];
            let shares = self.split_fire(dice, figures, charging, roller);
            // 5.4 (2): charging home frontally against steady infantry or hard cover.
            let home_test = self.holder_steady() || self.holder.cover == CombatCover::Hard;
            for i in (0..2).filter(|&i| charging[i]) {
                let hits = roller.hits(shares[i], &faces, chance);
                self.charger_shot(&state, i, &mut figures, &mut ends, hits, home_test, charisma, roller);
            }
            finish(&mut state, figures, ends);
            if side(ends).0 {
                return Ending::Over(state, [side(ends), (false, false, false)]);
            }
            state.distance = 0;
            // 5.4 (3): the defender tests once (2.1), charged by steady enemies.
            if self.charger_steady_on_contact(false) {
                let (pass, mut modifier, rout_modifier) = self.base_test(1, &state, 0, charisma);
                modifier += if self.cavalry() {
                    rules.morale_meeting_cavalry_charge
                } else {
                    rules.morale_meeting_infantry_charge
                };
                if let TestResult::Rout(row) = roller.test(rules, pass, modifier, rout_modifier) {
                    let shattered = self.rout(1, &mut state, row);
                    return Ending::Over(state, [side(ends), (true, true, shattered)]);
                }
            }
        }
        // 2.1 phase 6: a round of combat. 4.5: the defender divides its dice
        // among the chargers in contact, the odd die toward the one with
        // more figures in combat; each charger strikes with all its dice.
        let terms: Vec<(usize, CombatTerms)> = (0..2)
            .filter(|&i| is_in(ends, i))
            .map(|i| (i, self.combat_terms(&Self::as_charger(&state, i, figures), false)))
            .collect();
        let fronts: Vec<u32> = terms.iter().map(|(_, t)| t.charger_front).collect();
        let shares = split_dice(terms[0].1.holder_dice, &fronts);
        let base = rules.combat_base_to_hit;
        let mut on_holder = 0;
        // Per charger: (hits it took, hits it struck).
        let mut struck = [(0u32, 0u32); 2];
        for ((i, t), &share) in terms.iter().zip(&shares) {
            let faces = rules.hit_faces(base, t.charger_mod);
            let on_it = roller.hits(t.charger_dice, &faces, rules.hit_chance(base, t.charger_mod));
            let faces = rules.hit_faces(base, t.holder_mod);
            let on_me = roller.hits(share, &faces, rules.hit_chance(base, t.holder_mod));
            on_holder += on_it;
            struck[*i] = (on_me, on_it);
        }
        // Only whether a round has been fought matters (2.3: disordered after
        // one), so the count stops at 1 and the solver's states merge.
        state.rounds = 1;
        let holder_shattered = self.take_hits(1, &mut state, on_holder);
        for &(i, _) in &terms {
            let mut me = Self::as_charger(&state, i, figures);
            if self.take_hits(0, &mut me, struck[i].0) {
                ends |= bit(i, 0) | bit(i, 2);
            }
            figures[i] = me.figures[0];
        }
        finish(&mut state, figures, ends);
        if holder_shattered || side(ends).0 {
            return Ending::Over(state, [side(ends), (holder_shattered, false, holder_shattered)]);
        }
        // 5.4 (4): each unit that lost more hits than it inflicted tests, at -3.
        let inflicted: u32 = struck.iter().map(|s| s.0).sum();
        let mut holder_end = (false, false, false);
        if on_holder > inflicted {
            let (pass, modifier, rout_modifier) = self.base_test(1, &state, on_holder, charisma);
            let result = roller.test(rules, pass, modifier + rules.morale_losing_combat, rout_modifier);
            self.danger(1, &mut state, on_holder, roller);
            if let TestResult::Rout(row) = result {
                let shattered = self.rout(1, &mut state, row);
                holder_end = (true, true, shattered);
            }
        } else {
            self.danger(1, &mut state, on_holder, roller);
        }
        let side_lost = inflicted > on_holder;
        for &(i, _) in &terms {
            let lost = match rules.multi_loser {
                MultiLoser::PerUnit => struck[i].0 > struck[i].1,
                MultiLoser::Side => side_lost,
            };
            if is_in(ends, i) && lost {
                let mut me = Self::as_charger(&state, i, figures);
                let (pass, modifier, rout_modifier) = self.base_test(0, &me, struck[i].0, charisma);
                let result = roller.test(rules, pass, modifier + rules.morale_losing_combat, rout_modifier);
                if let TestResult::Rout(row) = result {
                    let shattered = self.rout(0, &mut me, row);
                    figures[i] = me.figures[0];
                    ends |= bit(i, 0) | bit(i, 1) | if shattered { bit(i, 2) } else { 0 };
                }
            }
        }
        finish(&mut state, figures, ends);
        if holder_end.0 || side(ends).0 {
            return Ending::Over(state, [side(ends), holder_end]);
        }
        Ending::Going(state)
    }
}
