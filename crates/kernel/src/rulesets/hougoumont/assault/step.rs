//! The steps of an assault's turn (1): Give Orders and Movement with the
//! decisions, artillery, the two volleys, the melee and the Morale Check.

use super::*;

impl Assault {
    /// One step of the turn (see the module documentation, "A turn").
    pub(super) fn play_step<F: Fate>(&self, state: &mut Position, fate: &mut F) -> Option<End> {
        match state.phase {
            MOVEMENT => self.movement(state, fate),
            ARTILLERY => {
                state.phase = HOLDER_VOLLEY;
                self.artillery(state, fate);
                None
            }
            HOLDER_VOLLEY => {
                self.holder_volley(state, fate);
                None
            }
            _ => {
                // The outside side's volley and the melee never fall in the
                // same turn: muskets fire only while the units are apart.
                state.phase = MOVEMENT;
                if let Some(winner) = self.outside_volley(state, fate) {
                    return Some(winner);
                }
                self.melee_and_morale(state, fate)
            }
        }
    }

    /// 1, 2, 5: Give Orders (rally or retreat) and Movement (the decision).
    pub(super) fn movement<F: Fate>(&self, s: &mut Position, fate: &mut F) -> Option<End> {
        s.phase = HOLDER_VOLLEY;
        let mut moved = false;
        if s.empty() {
            if let Some(end) = self.regroup(s, fate) {
                return Some(end);
            }
            if s.empty() {
                // No one in the position fires, no one outside has a target
                // nearer than the position: the turn passes.
                s.fire_at = 0;
                s.outside_mark = 0;
                s.holder_mark = 0;
                return None;
            }
            // A side walked in; the other, if rallied, acts normally from
            // where it stands (its rally was settled above).
            moved = true;
        }
        let outside = s.outside();
        if s.flags & ROUTED != 0 && !moved {
            // 5: "In the next Give Orders phase, the unit may attempt to rally."
            if fate.ways(self.pass_ways(outside), 20) {
                s.flags &= !ROUTED;
            } else {
                // 5: "it continues to retreat 8 inches per turn until it rallies or exits."
                s.distance += self.rules.retreat_distance as u8;
                moved = true;
                if u32::from(s.distance) > self.farthest[outside as usize] {
                    return Some(End::won_by(s.holder()));
                }
            }
        }
        let mut charged_from = 0;
        let mut walked_in = false;
        if s.flags & ROUTED == 0 && s.distance > 0 {
            let (options, count) = self.options(outside, s.distance);
            let distance = s.distance;
            let decision = if outside == ATTACKER { &ADVANCE } else { &RETAKE };
            let chosen =
                fate.decide(outside, decision, &options[..count], &|policy| self.heuristic(outside, policy, distance));
            let target = (chosen & 0xff) as u8;
            moved = target != s.distance;
            if target == 0 && s.sallied() {
                // The `sally` key: the garrison is out, the farm empty; the
                // attackers walk into it and hold it, the garrison now
                // outside it where its sally took it, acting normally.
                s.flags ^= HELD;
                s.flags &= !(GUNS_RANGED | BATTERY_RANGED);
                s.distance = std::mem::take(&mut s.out);
                walked_in = true;
            } else if target == 0 {
                charged_from = s.distance;
                // 5, `flanked_when = contact`: a charge on the flanked
                // defenders makes them test at this turn's Morale Check.
                if outside == ATTACKER && self.flanked_at_contact() {
                    s.flags |= HOLDER_TESTS;
                }
            }
            if !walked_in {
                s.distance = target;
            }
        }
        // The `counter_charge` key: the holders, seeing where the side
        // outside stands, may charge out at it (2 ties no unit to its ground).
        // Their muskets are charging and their guns would fire through their
        // own men (3.3), so neither fires this turn.
        let holder = s.holder();
        if self.counter_charge
            && !walked_in
            && !s.sallied()
            && s.flags & ROUTED == 0
            && !s.empty()
            && s.distance > 0
            && u32::from(s.distance) <= self.reach(holder)
        {
            let chosen = fate.decide(holder, &COUNTER_CHARGE, &[0, 1], &|_| 0);
            if chosen == 1 {
                s.sortie = s.distance;
                s.distance = 0;
                moved = true;
                // `closing_volley = at_charge_start`: the side outside, charged,
                // fires once where the charge began (no artillery fires: the
                // units are in contact, 3.3). Drawn here, the turn's only fire,
                // so that no half-fired state is kept.
                if self.rules.closing_volley == ClosingVolley::AtChargeStart
                    && let Some(need) = self.sortie_need(outside, s.sortie)
                {
                    let before = s.figures[holder as usize];
                    let hits = fate.draw(self.volley(outside, s.figures[outside as usize], need));
                    s.figures[holder as usize] = before.saturating_sub(hits.min(255) as u8);
                    if let Some(end) = Self::destroyed(s) {
                        return Some(end);
                    }
                    if self.must_test(holder, before, s.figures[holder as usize]) {
                        s.flags |= HOLDER_TESTS;
                    }
                }
            }
        }
        let sally_charged_from = if walked_in { 0 } else { self.sally_move(s, fate) };
        if moved || s.sallied() {
            s.flags &= !GUNS_RANGED;
        }
        // 3, 4: the holders fire at the distance of the side outside; in the
        // turn of a charge only under the closing volley reading, at its start.
        // A sallying garrison fires from where it stands, but not in the turn
        // it charges the gunners nor in melee with them: then `fire_at` is
        // the distance its charge began at from the guns (their canister
        // meets it there under `closing_volley = at_charge_start`), or 0.
        s.fire_at = if s.sallied() {
            if self.at_the_guns(s) {
                if self.rules.closing_volley == ClosingVolley::AtChargeStart { sally_charged_from } else { 0 }
            } else {
                self.sally_gap(s)
            }
        } else if s.distance > 0 {
            s.distance
        } else if charged_from > 0 && self.rules.closing_volley == ClosingVolley::AtChargeStart {
            charged_from
        } else {
            0
        };
        s.outside_mark = s.figures[s.outside() as usize];
        s.holder_mark = s.figures[s.holder() as usize];
        if self.artillery_fires(s) {
            s.phase = ARTILLERY;
        } else {
            self.artillery(s, fate);
        }
        None
    }

    /// The `sally` key: the garrison's decision ([`SALLY`]) after the
    /// attackers' move, and its move. At home, with the attackers not in
    /// contact and the battery's crews standing, it stays or sallies; out,
    /// it turns back or goes on (with the crews gone, it turns back). Going
    /// on is its full move towards the guns (2), or within its move plus
    /// charge bonus a charge into contact with their crews; turning back is
    /// its full move towards the farm, into it when the farm is within that
    /// move. Returns the inches from the guns a charge began at (0: none).
    fn sally_move<F: Fate>(&self, s: &mut Position, fate: &mut F) -> u8 {
        let Some(battery) = self.setup.battery else { return 0 };
        let home = !s.sallied();
        if !self.sally || s.flags & HELD != 0 || s.empty() || s.sortie > 0 || (home && (s.distance == 0 || s.crew == 0))
        {
            return 0;
        }
        let go_on = if s.crew == 0 { false } else { fate.decide(DEFENDER, &SALLY, &[0, 1], &|_| 0) == 1 };
        let walk = self.move_inches[DEFENDER as usize];
        if !go_on {
            s.out = s.out.saturating_sub(walk as u8);
            return 0;
        }
        let gap = self.gunners_gap(s);
        if gap == 0 {
            // In contact: the melee goes on.
            return 0;
        }
        if gap <= self.reach(DEFENDER) {
            s.out = battery.distance as u8;
            return gap as u8;
        }
        s.out += walk as u8;
        0
    }

    /// Whether any gun fires at this turn's artillery step (3.2, 3.3): the
    /// battery at the buildings or the defenders' guns at the attackers.
    fn artillery_fires(&self, s: &Position) -> bool {
        if s.sallied() {
            // The battery's canister at the garrison in the open (3.2), not
            // into a melee (3.3); the farm's guns stand unmanned.
            let gap = if self.at_the_guns(s) { u32::from(s.fire_at) } else { self.gunners_gap(s) };
            return self.guns_firing(s) > 0 && gap > 0 && gap <= self.rules.canister_range;
        }
        let defenders_hold = s.flags & HELD == 0;
        let battery = self.battery.is_some() && s.distance > 0 && defenders_hold && self.guns_firing(s) > 0;
        let consecutive = usize::from(s.flags & GUNS_RANGED != 0);
        let guns = s.fire_at > 0 && defenders_hold && self.defender_guns[usize::from(s.fire_at)][consecutive].is_some();
        battery || guns
    }

    /// 5 with the position empty (`both_break = play_on`): in Give Orders each
    /// retreating side tries to rally or retreats 8 inches more, leaving the
    /// field past its table edge; in Movement each rallied side walks back
    /// its full move towards the position, and the first to reach it holds
    /// it (the side needing the smaller part of its move; on equal parts the
    /// side that held it last, whose ground it is, the other arriving with
    /// it in contact if it charges). The side left outside then acts as the
    /// side outside always does (the caller gives it its decision).
    fn regroup<F: Fate>(&self, s: &mut Position, fate: &mut F) -> Option<End> {
        let (outside, holder) = (s.outside(), s.holder());
        let retreat = self.rules.retreat_distance as u8;
        // 5: "In the next Give Orders phase, the unit may attempt to rally";
        // both sides roll, in the same phase.
        if s.flags & ROUTED != 0 {
            if fate.ways(self.pass_ways(outside), 20) {
                s.flags &= !ROUTED;
            } else {
                s.distance += retreat;
            }
        }
        if s.flags & HOLDER_ROUTED != 0 {
            if fate.ways(self.pass_ways(holder), 20) {
                s.flags &= !HOLDER_ROUTED;
            } else {
                s.behind += retreat;
            }
        }
        if let Some(end) = self.left_field(s) {
            return Some(end);
        }
        let (walk_out, walk_in) = (self.move_inches[outside as usize], self.move_inches[holder as usize]);
        let (outside_far, holder_far) = (u32::from(s.distance), u32::from(s.behind));
        let outside_reaches = s.flags & ROUTED == 0 && outside_far <= walk_out;
        let holder_reaches = s.flags & HOLDER_ROUTED == 0 && holder_far <= walk_in;
        // Arrival as a part of the move: d / m, compared across.
        let holder_first = holder_reaches && (!outside_reaches || holder_far * walk_out <= outside_far * walk_in);
        if holder_first {
            s.behind = 0;
        } else if outside_reaches {
            // The side outside walks in: the two exchange places.
            let holder_routed = s.flags & HOLDER_ROUTED != 0;
            s.flags ^= HELD;
            s.flags &= !(ROUTED | HOLDER_ROUTED);
            if holder_routed {
                s.flags |= ROUTED;
            }
            s.distance = s.behind;
            s.behind = 0;
        } else {
            // Neither reaches it: a rallied side comes its full move nearer.
            if s.flags & ROUTED == 0 {
                s.distance -= walk_out as u8;
            }
            if s.flags & HOLDER_ROUTED == 0 {
                s.behind -= walk_in as u8;
            }
        }
        None
    }

    /// 5: a side retreated past its table edge has left the field; the other
    /// wins, and if both left in the same phase no one does.
    fn left_field(&self, s: &Position) -> Option<End> {
        let (outside, holder) = (s.outside(), s.holder());
        let outside_left = u32::from(s.distance) > self.farthest[outside as usize];
        let holder_left = s.empty() && u32::from(s.behind) > self.farthest[holder as usize];
        match (outside_left, holder_left) {
            (true, true) => Some(End::BothBroke),
            (true, false) => Some(End::won_by(holder)),
            (false, true) => Some(End::won_by(outside)),
            (false, false) => None,
        }
    }

    /// 3.2, 3.3, 6: the battery at the buildings, the defenders' guns at the
    /// attackers, both only while the defenders hold the position.
    pub(super) fn artillery<F: Fate>(&self, s: &mut Position, fate: &mut F) {
        let defenders_hold = s.flags & HELD == 0 && !s.sallied();
        if s.sallied() {
            // 3.2: canister at the garrison in the open within its range; at
            // the guns only the closing canister of its charge (3.3: none into
            // the melee after). The buildings, empty, are not fired at.
            let firing = self.guns_firing(s);
            let gap = if self.at_the_guns(s) { u32::from(std::mem::take(&mut s.fire_at)) } else { self.gunners_gap(s) };
            if firing > 0 && gap > 0 && gap <= self.rules.canister_range {
                let shot = fate.draw(self.canister_salvo(firing));
                s.figures[1] = s.figures[1].saturating_sub((shot >> 2).min(255) as u8);
            }
            s.flags &= !BATTERY_RANGED;
        } else if let Some(battery) = &self.battery {
            // 3.3: no artillery into a melee or on its own men; a battery that
            // does not fire loses its range.
            let firing = self.guns_firing(s);
            if s.distance > 0 && defenders_hold && firing > 0 {
                let roof_intact = s.flags & ROOF_OFF == 0;
                let consecutive = s.flags & BATTERY_RANGED != 0;
                let salvo = &battery[firing - 1][usize::from(roof_intact)][usize::from(consecutive)];
                let shot = fate.draw(salvo);
                s.figures[1] = s.figures[1].saturating_sub((shot >> 2).min(255) as u8);
                if shot & 2 != 0 {
                    s.flags |= ROOF_OFF;
                }
                if shot & 1 != 0 {
                    s.flags |= BURNING;
                }
                if salvo.gun.kind() == ArtilleryKind::Howitzer {
                    s.flags |= BATTERY_RANGED;
                }
            } else {
                s.flags &= !BATTERY_RANGED;
            }
        }
        let consecutive = s.flags & GUNS_RANGED != 0;
        s.flags &= !GUNS_RANGED;
        if s.fire_at > 0
            && defenders_hold
            && let Some(salvo) = &self.defender_guns[usize::from(s.fire_at)][usize::from(consecutive)]
        {
            let shot = fate.draw(salvo);
            s.figures[0] = s.figures[0].saturating_sub((shot >> 2).min(255) as u8);
            // 3.2: howitzers that fired may fire again next turn at a target
            // that stays put (the flag is kept only where it can matter).
            if self.setup.defender_artillery == ArtilleryKind::Howitzer {
                s.flags |= GUNS_RANGED;
            }
        }
        // Each side's mark becomes what the volley still to come at it must
        // do to make it test: a side that tests already learns it now, and
        // one that no volley can still hit, or only too lightly, keeps no
        // mark, so that equal situations are one state (a bombarded farm
        // out of musket range, say).
        let (outside, holder) = (s.outside(), s.holder());
        let per_hit = self.rules.figures_per_hit;
        let at_holders = if self.outside_can_hit(s) { u32::from(s.figures[outside as usize]) * per_hit } else { 0 };
        let at_outside = if self.holders_can_hit(s) { u32::from(s.figures[holder as usize]) * per_hit } else { 0 };
        s.holder_mark = self.test_at(s, holder, s.holder_mark, at_holders, HOLDER_TESTS);
        s.outside_mark = self.test_at(s, outside, s.outside_mark, at_outside, OUTSIDE_TESTS);
        self.settle_burning(s);
    }

    /// 5: side `side`, `mark` figures at the start of the Firing phase and
    /// its figures now, about to take a volley of at most `most` hits: the
    /// fewest hits that make it test (a test is triggered by more hits
    /// whenever by fewer: a greater loss, a lower strength), or 0 when no
    /// hit can or the test is already due (then `flag` is set).
    fn test_at(&self, s: &mut Position, side: u8, mark: u8, most: u32, flag: u16) -> u8 {
        let now = s.figures[side as usize];
        if mark == 0 {
            return 0;
        }
        if self.must_test(side, mark, now) {
            s.flags |= flag;
            return 0;
        }
        (1..=most.min(u32::from(now))).find(|&hits| self.must_test(side, mark, now - hits as u8)).unwrap_or(0) as u8
    }

    /// `burning_building = evacuate`: buildings set alight in this turn's
    /// artillery end the fight after this Firing phase (`outside_volley`),
    /// before any Morale Check; so the morale marks and flags, the crews
    /// (beyond whether the garrison may still fire at them) and the guns'
    /// ranging can change nothing, and are dropped so that such states
    /// merge. After the holders' volley the battery is no target and,
    /// with no volley to come, neither the distance nor the retreat of the
    /// side outside is read.
    fn settle_burning(&self, s: &mut Position) {
        if s.flags & BURNING == 0 || s.empty() || self.rules.burning_building != BurningBuilding::Evacuate {
            return;
        }
        s.outside_mark = if s.phase == CLOSE { s.outside_mark } else { 0 };
        s.holder_mark = 0;
        s.flags &= !(OUTSIDE_TESTS | HOLDER_TESTS | BATTERY_RANGED | GUNS_RANGED);
        s.crew = s.crew.min(1);
        if s.phase == CLOSE {
            s.crew = 0;
            s.flags &= !ROUTED;
            if s.outside_mark == 0 {
                s.distance = 0;
            }
        }
    }

    /// 3.1: the holders' volley; the outside side's Firing-phase losses are then complete.
    pub(super) fn holder_volley<F: Fate>(&self, s: &mut Position, fate: &mut F) {
        s.phase = CLOSE;
        let (outside, holder) = (s.outside() as usize, s.holder() as usize);
        let shooters = s.figures[outside];
        let at_outside = self.need(holder as u8, true, s.fire_at).filter(|_| s.figures[outside] > 0);
        // Interpretation `fire_at_gunners`: the garrison may fire at the
        // battery's gunners instead, and does when they alone are in reach.
        let at_gunners = self.gunners_in_reach(s).filter(|_| s.figures[holder] > 0);
        let target = match (at_outside, at_gunners) {
            (Some(_), Some(_)) => fate.decide(DEFENDER, &TARGET, &[0, 1], &|_| 0),
            (None, Some(_)) => 1,
            _ => 0,
        };
        let mut hits_on_outside = 0;
        if target == 1
            && let Some(need) = at_gunners
        {
            let hits = fate.draw(self.volley(holder as u8, s.figures[holder], need));
            s.crew = s.crew.saturating_sub(hits.min(255) as u8);
            // A silenced battery has no range to keep.
            if s.crew == 0 {
                s.flags &= !BATTERY_RANGED;
            }
        } else if let Some(need) = at_outside
            && s.figures[holder] > 0
        {
            hits_on_outside = fate.draw(self.volley(holder as u8, s.figures[holder], need));
            s.figures[outside] = s.figures[outside].saturating_sub(hits_on_outside.min(255) as u8);
        }
        // The mark is the fewest hits that make the side outside test (0:
        // settled after artillery).
        if s.outside_mark > 0 && hits_on_outside >= u32::from(s.outside_mark) {
            s.flags |= OUTSIDE_TESTS;
        }
        // Both volleys are simultaneous: the side outside fires with the
        // figures it had before the holders' volley.
        s.outside_mark = if self.outside_can_hit(s) { shooters } else { 0 };
        s.fire_at = 0;
        self.settle_burning(s);
    }

    /// 3.1: the outside side's volley; then the end of the Firing phase.
    pub(super) fn outside_volley<F: Fate>(&self, s: &mut Position, fate: &mut F) -> Option<End> {
        let (outside, holder) = (s.outside(), s.holder());
        let mut hits = 0;
        if s.outside_mark > 0
            && s.figures[holder as usize] > 0
            && let Some(need) = self.outside_need(s)
        {
            hits = fate.draw(self.volley(outside, s.outside_mark, need));
            let left = &mut s.figures[holder as usize];
            *left = left.saturating_sub(hits.min(255) as u8);
        }
        // The holders' mark is the fewest hits that make them test.
        if s.holder_mark > 0 && hits >= u32::from(s.holder_mark) {
            s.flags |= HOLDER_TESTS;
        }
        s.outside_mark = 0;
        s.holder_mark = 0;
        s.fire_at = 0;
        if let Some(winner) = Self::destroyed(s) {
            return Some(winner);
        }
        // 6 (interpretation `burning_building`): the holders leave a burning
        // building and lose it (only the defenders' buildings are fired).
        if s.flags & BURNING != 0 && !s.empty() && self.rules.burning_building == BurningBuilding::Evacuate {
            return Some(End::won_by(outside));
        }
        None
    }

    /// 4, 5: a round of melee in contact, then the Morale Check.
    pub(super) fn melee_and_morale<F: Fate>(&self, s: &mut Position, fate: &mut F) -> Option<End> {
        // An empty position: both sides retreat or walk back, no one tests.
        if s.empty() {
            return None;
        }
        let (outside, holder) = (s.outside(), s.holder());
        if self.at_the_guns(s) && s.crew > 0 {
            // 4: the sallying garrison and the battery's crews in melee; the
            // battery takes no morale test (it is fire support, not a unit
            // that retreats), and a gun whose crew is gone falls silent.
            let garrison = s.figures[1];
            let losses = fate.draw(self.gunner_melee(s.crew, garrison));
            s.crew -= (losses >> 8) as u8;
            s.figures[1] -= (losses & 0xff) as u8;
            if let Some(winner) = Self::destroyed(s) {
                return Some(winner);
            }
            if self.must_test(DEFENDER, garrison, s.figures[1]) {
                s.flags |= HOLDER_TESTS;
            }
        }
        if s.distance == 0 {
            let [a, d] = s.figures;
            let losses = fate.draw(self.melee(a, d));
            s.figures[0] -= (losses >> 8) as u8;
            s.figures[1] -= (losses & 0xff) as u8;
            if let Some(winner) = Self::destroyed(s) {
                return Some(winner);
            }
            let before = [a, d];
            if self.must_test(outside, before[outside as usize], s.figures[outside as usize]) {
                s.flags |= OUTSIDE_TESTS;
            }
            if self.must_test(holder, before[holder as usize], s.figures[holder as usize]) {
                s.flags |= HOLDER_TESTS;
            }
        }
        // 5: a retreating unit does not test again until it has rallied.
        let routed = s.flags & ROUTED != 0;
        let outside_tests = s.flags & OUTSIDE_TESTS != 0 && !routed;
        let burning_test =
            s.flags & BURNING != 0 && !s.sallied() && self.rules.burning_building == BurningBuilding::MoraleTest;
        // 5: "Unit is flanked": defenders attacked in the flank test at the
        // first Morale Check (the start state asks it; under `flanked_when =
        // contact` a charge reaching them does); under `flanked_test =
        // every_check` at every one while they hold the position (in
        // contact, under `contact`), for an attack thrown back comes again
        // the same way.
        let flanked_test = self.setup.defender_flanked
            && holder == DEFENDER
            && self.rules.flanked_test == FlankedTest::EveryCheck
            && (self.rules.flanked_when == FlankedWhen::Start || s.distance == 0);
        let holder_tests = s.flags & HOLDER_TESTS != 0 || burning_test || flanked_test;
        s.flags &= !(OUTSIDE_TESTS | HOLDER_TESTS);
        let outside_broke = outside_tests && !fate.ways(self.pass_ways(outside), 20);
        let holder_broke = holder_tests && !fate.ways(self.pass_ways(holder), 20);
        // Holders who counter-charged: a melee lost is one lost at their
        // position (below); a melee won, or under `sortie_return =
        // after_round` one still standing, sends them back to it, the side
        // outside where it stood or, broken, 8 inches beyond (5: "8 inches
        // away from the enemy").
        let sortie = std::mem::take(&mut s.sortie);
        if sortie > 0 && !holder_broke {
            if outside_broke {
                s.flags |= ROUTED;
                s.flags &= !GUNS_RANGED;
                s.distance = sortie + self.rules.retreat_distance as u8;
                if u32::from(s.distance) > self.farthest[outside as usize] {
                    return Some(End::won_by(holder));
                }
            } else if self.rules.sortie_return == SortieReturn::AfterRound {
                s.distance = sortie;
            } else {
                s.sortie = sortie;
            }
            return None;
        }
        if holder_broke {
            // A garrison broken on its sally is handled as holders broken at
            // their position (as a counter-charge lost): the inches between
            // are not kept.
            s.out = 0;
            if outside_broke || routed {
                // Interpretation `both_break = no_one` (and the defenders'
                // first failure under `defender_failure = attacker_wins`):
                // both sides in retreat, no one holds the position.
                if self.rules.both_break == BothBreak::NoOne
                    || self.rules.defender_failure == DefenderFailure::AttackerWins
                {
                    return Some(End::BothBroke);
                }
                // 5: both "immediately move 8 inches away from the enemy",
                // the holders behind the position and the side outside (if
                // it broke now; one already retreating stays where its
                // retreat took it) farther out, and the position is empty.
                s.flags |= ROUTED | HOLDER_ROUTED;
                s.flags &= !(GUNS_RANGED | BATTERY_RANGED);
                s.behind = self.rules.retreat_distance as u8;
                if outside_broke {
                    s.distance += self.rules.retreat_distance as u8;
                }
                return self.left_field(s);
            }
            // Interpretation `defender_failure = attacker_wins`: the first
            // failure of the defenders gives the attackers the fight.
            if self.rules.defender_failure == DefenderFailure::AttackerWins {
                return Some(End::won_by(outside));
            }
            // `handover = walk_in`: holders broken with the side outside
            // some way off leave the position empty; the side outside walks
            // in at its move (`regroup`), unless they rally and get back first.
            if self.rules.handover == Handover::WalkIn && s.distance > 0 {
                s.flags |= HOLDER_ROUTED;
                s.flags &= !(GUNS_RANGED | BATTERY_RANGED);
                s.behind = self.rules.retreat_distance as u8;
                return self.left_field(s);
            }
            // 5: the holders "immediately move 8 inches away from the enemy"
            // and the side outside takes the position they left.
            s.flags ^= HELD;
            s.flags |= ROUTED;
            s.flags &= !(GUNS_RANGED | BATTERY_RANGED);
            s.distance = self.rules.retreat_distance as u8;
            if u32::from(s.distance) > self.farthest[holder as usize] {
                return Some(End::won_by(outside));
            }
            return None;
        }
        if outside_broke {
            // 5: "The unit must immediately move 8 inches away from the enemy."
            s.flags |= ROUTED;
            s.flags &= !GUNS_RANGED;
            s.distance += self.rules.retreat_distance as u8;
            if u32::from(s.distance) > self.farthest[outside as usize] {
                return Some(End::won_by(holder));
            }
        }
        None
    }
}
