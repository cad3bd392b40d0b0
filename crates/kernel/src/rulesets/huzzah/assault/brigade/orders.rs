//! The brigade's Orders phase ("Orders and movement"): the officer's orders
//! to each unit in turn, and the battery's chances to bombard between them
//! ("Artillery bombardment").

use super::*;

impl BrigadeGame {
    /// The next unit the officer orders, its forced order first (units with
    /// one pending come first), or the battery's last chance when he has
    /// ordered them all or failed.
    pub(super) fn next_orderer(&self, mut w: Work) -> Work {
        w.meta.charging = false;
        let free = |i: usize| w.meta.ordered & (1 << i) == 0;
        let pick = if w.meta.done {
            None
        } else {
            self.alive(&w)
                .filter(|&i| free(i) && w.units[i].has(FORCED))
                .chain(self.alive(&w).filter(|&i| free(i)))
                .next()
        };
        match pick {
            Some(i) => {
                w.meta.cursor = i as u8;
                w.meta.ordered |= 1 << i;
                w.s.phase = ATTACKER_FORCED;
            }
            None => w.s.phase = LAST_BOMBARD,
        }
        w
    }

    /// Whether the officer may give unit `s` an order now (the assault
    /// game's test): not in contact, not a mob, and a free order pending or
    /// an order that can be rolled.
    pub(super) fn may_order(&self, a: &Assault, s: &State) -> bool {
        s.distance > 0
            && !s.routing[0]
            && (s.free_order
                || a.order_rating(s, true).is_some()
                || (self.may_deploy(a, s) && a.order_rating(s, false).is_some()))
    }

    pub(super) fn may_deploy(&self, a: &Assault, s: &State) -> bool {
        !s.routing[1] && a.units[0].arm == Arm::Infantry && s.formation[0] == Formation::Column
    }

    /// The distance the battery fires at unit `unit` (1 band for a unit
    /// moving into contact).
    pub(super) fn range(&self, w: &Work, unit: usize) -> i32 {
        let charging = w.meta.charging && w.s.phase == BOMBARD && unit == usize::from(w.meta.cursor);
        if charging { 1 } else { i32::from(w.units[unit].distance) }
    }

    /// The units the battery may bombard now (bits): the nearest of those
    /// it has not bombarded since they last acted on an order, within its
    /// range and not engaged.
    pub(super) fn targets(&self, w: &Work) -> u8 {
        if w.s.bombardments == 0 {
            return 0;
        }
        let legitimate = |i: usize| {
            let u = w.units[i];
            let range = self.range(w, i);
            !u.broken() && u.has(FIRE_READY) && range > 0 && self.base.bombard_band(range).is_some()
        };
        let nearest = (0..self.units).filter(|&i| legitimate(i)).map(|i| self.range(w, i)).min();
        (0..self.units).filter(|&i| legitimate(i) && Some(self.range(w, i)) == nearest).fold(0, |bits, i| bits | 1 << i)
    }

    /// After a chance to bombard: back to the unit being ordered, the next
    /// unit, or the engagement after the last chance.
    pub(super) fn after_chance(&self, mut w: Work) -> Work {
        w.meta.charging = false;
        if w.s.phase == LAST_BOMBARD {
            w.s.phase = ENGAGE_ATTACKER_ROLL;
            return self.forget_orders(w);
        }
        let i = usize::from(w.meta.cursor);
        if w.units[i].broken() || w.units[i].distance == 0 {
            self.next_orderer(w)
        } else {
            w.s.phase = ATTACKER_ORDERS;
            w
        }
    }

    /// What matters only in the Orders phase is forgotten after it (as the
    /// assault's `steps_until` does), so that equal states merge.
    pub(super) fn forget_orders(&self, mut w: Work) -> Work {
        w.meta = Meta::default();
        for i in self.alive(&w).collect::<Vec<_>>() {
            let u = &mut w.units[i];
            u.orders = 0;
            u.set(FREE_ORDER, false);
            u.set(FIRE_READY, true);
        }
        w
    }

    /// What a cautious attacker orders (the assault game's): on to the edge
    /// of the defender's threat zone, or into contact, and no further.
    pub(super) fn cautious_order(&self, a: &Assault, s: &State) -> u16 {
        if s.routing[1] {
            return HALT;
        }
        let to = a.advance(s);
        if to == 0 || to >= a.zone(s, 1) && i32::from(s.distance) > a.zone(s, 1) { MOVE } else { HALT }
    }

    /// The officer's order to unit `unit` (the assault game's `advance` or
    /// `pursue`), rolled unless a Huzzah!'s free order carries it out.
    pub(super) fn order<F: Chance>(
        &self,
        mut w: Work,
        unit: usize,
        decision: &'static Decision,
        fate: &mut F,
    ) -> Node<Work> {
        let a = self.variant(&w, unit);
        let r = &a.rules;
        let mut s = self.load(&w, unit);
        let mut options = vec![HALT];
        if s.free_order || a.order_rating(&s, true).is_some() {
            options.push(MOVE);
        }
        if self.may_deploy(a, &s) && (s.free_order || a.order_rating(&s, false).is_some()) {
            options.push(DEPLOY);
        }
        let cautious = self.cautious_order(a, &s);
        let or_halt = |option: u16| if options.contains(&option) { option } else { HALT };
        let choice = fate.decide(ATTACKER, decision, &options, &|policy| match policy {
            Policy::Cautious => or_halt(cautious),
            _ => or_halt(MOVE),
        });
        if choice == HALT {
            // No further order to this unit: the officer moves on.
            s.free_order = false;
            self.store(&mut w, unit, s);
            return Node::Live(self.next_orderer(w));
        }
        w.meta.issued = w.meta.issued.saturating_add(1);
        if s.free_order {
            // "Automatically successfully issue another order"; then no
            // other orders to this unit that turn.
            s.free_order = false;
            s.orders = u8::MAX / 2;
        } else {
            let rating = a.order_rating(&s, choice == MOVE).expect("an order is offered only when it can be given");
            let pair = self.roll(fate);
            s.orders = s.orders.saturating_add(1);
            if !r.passes(pair_total(pair), rating) {
                // "An officer who fails when issuing an order can give no
                // further orders that turn": the battery's last chance.
                self.store(&mut w, unit, s);
                w.meta.done = true;
                w.meta.charging = false;
                w.s.phase = LAST_BOMBARD;
                return Node::Live(w);
            }
            if pair_is_huzzah(pair) {
                s.free_order = true;
            }
        }
        if choice == DEPLOY {
            s.formation[0] = Formation::Line;
            s.phase = ATTACKER_DEPLOY_THREAT;
            s.fire_ready = true;
            self.store(&mut w, unit, s);
            return Node::Live(w);
        }
        let to = a.advance(&s);
        Assault::advance_to(&mut s, to);
        s.fire_ready = true;
        s.phase = BOMBARD;
        self.store(&mut w, unit, s);
        w.meta.charging = to == 0;
        Node::Live(w)
    }

    /// The battery's chance at the nearest of `targets` (bits).
    pub(super) fn bombard<F: Chance>(&self, w: Work, targets: u8, fate: &mut F) -> Node<Work> {
        let chance = w.s.phase;
        let targets: Vec<usize> = (0..self.units).filter(|&i| targets & (1 << i) != 0).collect();
        let band = self.base.bombard_band(self.range(&w, targets[0]));
        let choice = fate.decide(DEFENDER, &BOMBARD_DECISION, &[FIRE, HOLD], &|policy| match policy {
            Policy::Cautious if band != Some(0) => HOLD,
            _ => FIRE,
        });
        if choice == HOLD {
            return Node::Live(self.after_chance(w));
        }
        let options: Vec<u16> = targets.iter().map(|&i| i as u16).collect();
        // Bold fires at the unit nearest to breaking; cautious at the first listed.
        let weakest = *targets
            .iter()
            .max_by_key(|&&i| (i32::from(w.units[i].staggers) + i32::from(w.units[i].kills), std::cmp::Reverse(i)))
            .expect("a chance has a target");
        let target = usize::from(fate.decide(DEFENDER, &TARGET, &options, &|policy| match policy {
            Policy::Cautious => options[0],
            _ => weakest as u16,
        }));
        let pair = self.roll(fate);
        let node = self.on_unit(w, target, |a, mut s| {
            s.phase = chance;
            s.huzzahs = 0;
            self.through_chain(a, a.step(s, Some(pair)), fate)
        });
        // The chance goes on: the next nearest unit not yet bombarded.
        match node {
            Node::Live(mut w) => {
                w.s.phase = chance;
                Node::Live(w)
            }
            end => end,
        }
    }
}
