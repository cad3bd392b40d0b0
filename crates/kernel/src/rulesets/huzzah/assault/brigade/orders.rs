//! The brigade's Orders phase ("Orders and movement"): the officer's orders
//! to each unit in turn, and the battery's chances to bombard between them
//! ("Artillery bombardment").

use super::*;

/// The `command` decision's options.
const BY_UNITS: u16 = 0;
const AS_GROUP: u16 = 1;

impl BrigadeGame {
    /// The next unit the officer orders, its forced order first (units with
    /// one pending come first), or the battery's last chance when he has
    /// ordered them all or failed.
    pub(super) fn next_orderer(&self, mut w: Work) -> Work {
        w.meta.charging = false;
        if w.meta.level == LEVEL_OPEN {
            // The officer first chooses his command level, where he may
            // order the brigade as one group.
            if !w.meta.done && self.group_may_be_ordered(&w) {
                w.meta.level = LEVEL_ASKING;
                w.s.phase = ATTACKER_ORDERS;
                return w;
            }
            w.meta.level = LEVEL_UNITS;
        }
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
        if w.meta.level == LEVEL_GROUP {
            // "Units in a command group are moved one at a time; each unit
            // must complete its order before another unit in the command is
            // moved": the next unit's turn on the group's order.
            return self.next_actor(w);
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
            s.orders = ORDERS_SPENT;
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

    /// The units the officer orders when he orders the brigade as one
    /// group and that can act on it: standing, not routing ("Routing units
    /// cannot be given orders and never act on orders given to their command
    /// group") and not in contact ("A unit that advances into contact with
    /// an enemy ... cannot act on any further orders that phase").
    pub(super) fn members(&self, w: &Work) -> impl Iterator<Item = usize> + '_ {
        let units = w.units;
        (0..self.units).filter(move |&i| !units[i].broken() && !units[i].has(ROUTING) && units[i].distance > 0)
    }

    /// Whether the officer may choose to order the brigade as one group:
    /// two or more units can act on a group's order, and no unit has a
    /// forced order pending (a forced order is the unit's own, issued to it
    /// first, so that the officer's orders that turn are to units one by
    /// one: an interpretation, see the module docs). With one unit able to
    /// act, a group order is that unit's order with the whole group's
    /// Downs, never better than ordering it alone.
    pub(super) fn group_may_be_ordered(&self, w: &Work) -> bool {
        self.units > 1
            && !self.alive(w).any(|i| w.units[i].has(FORCED))
            && self.members(w).count() >= 2
            && self.group_rating(w, false).is_some()
    }

    /// The officer's effective rating for an order to the brigade as one
    /// group ("Orders and movement", Procedure), `None` where no order can
    /// be issued: his rating, Down 1 if any unit ordered (standing and not
    /// routing) is in the enemy's threat zone ("Even if a command has only
    /// one unit in a threat zone, the whole command receives the penalty"),
    /// Down 1 for each broken sub-command (each of the scenario's units
    /// broken), Down 1 if the brigade is an isolated sub-command of its
    /// division (`attacker.brigade_isolated`), Down 1 on an advance after a
    /// failed command check, Down 1 for each order to the group before it
    /// this turn, Up 1 if all its units are in command. (No officer is
    /// attached to a unit of a brigade of two or more, and the defender is
    /// never cavalry here.)
    pub(super) fn group_rating(&self, w: &Work, advance: bool) -> Option<i32> {
        let r = &self.base.rules;
        let ordered = |i: usize| !w.units[i].broken() && !w.units[i].has(ROUTING);
        let in_zone = (0..self.units).filter(|&i| ordered(i)).any(|i| self.base.in_zone_of(&self.load(w, i), 1));
        let broken = (0..self.units).filter(|&i| w.units[i].broken()).count() as i32;
        let rating = self.base.units[0].rating - r.order_broken_subcommand_down * broken;
        let failed_advance = advance && w.s.rare.last_check(0) == LastCheck::Failed;
        self.base.rated(
            rating,
            in_zone,
            i32::from(w.meta.group_orders),
            self.base.units[0].brigade_isolated,
            failed_advance,
        )
    }

    /// The officer's choice of command level for the turn (the `command`
    /// decision). Bold orders the brigade as one group where its roll is no
    /// harder than any unit's own advance order (every unit able to act in
    /// the enemy's threat zone or none, no unit broken), so that one roll
    /// moves them all; cautious orders the units one by one, to halt each
    /// at the edge of the enemy's zone.
    pub(super) fn choose_level<F: Chance>(&self, mut w: Work, fate: &mut F) -> Node<Work> {
        let group = self.group_rating(&w, true);
        let no_harder = group.is_some()
            && self.members(&w).all(|i| self.variant(&w, i).order_rating(&self.load(&w, i), true) <= group);
        let choice = fate.decide(ATTACKER, &COMMAND, &[BY_UNITS, AS_GROUP], &|policy| match policy {
            Policy::Cautious => BY_UNITS,
            _ if no_harder => AS_GROUP,
            _ => BY_UNITS,
        });
        if choice == BY_UNITS {
            w.meta.level = LEVEL_UNITS;
            return Node::Live(self.next_orderer(w));
        }
        w.meta.level = LEVEL_GROUP;
        w.meta.cursor = 0;
        w.s.phase = ATTACKER_ORDERS;
        Node::Live(w)
    }

    /// Whether the group can be given a further order now.
    pub(super) fn group_orderable(&self, w: &Work) -> bool {
        !w.meta.done && self.members(w).next().is_some() && (w.meta.group_free || self.group_rating(w, false).is_some())
    }

    /// The officer's next order to the brigade as one group (the
    /// `group_order` decision): none (his orders end), advance or deploy,
    /// rolled once for the whole group unless a Huzzah! gave a free order
    /// ("Any officer who gets Huzzah! carries out the initial order and can
    /// then automatically successfully issue another order of any type to
    /// the same command"; after it the group "can receive no other orders
    /// that turn"). Bold advances; cautious advances while some unit's
    /// cautious order is to advance (to the edge of the zone, or into
    /// contact).
    pub(super) fn group_order<F: Chance>(&self, mut w: Work, fate: &mut F) -> Node<Work> {
        let r = &self.base.rules;
        let free = w.meta.group_free;
        let mut options = vec![HALT];
        if free || self.group_rating(&w, true).is_some() {
            options.push(MOVE);
        }
        let columns = self.members(&w).any(|i| self.may_deploy(&self.base, &self.load(&w, i)));
        if columns && (free || self.group_rating(&w, false).is_some()) {
            options.push(DEPLOY);
        }
        let cautious = if self.members(&w).any(|i| self.cautious_order(self.variant(&w, i), &self.load(&w, i)) == MOVE)
        {
            MOVE
        } else {
            HALT
        };
        let or_halt = |option: u16| if options.contains(&option) { option } else { HALT };
        let choice = fate.decide(ATTACKER, &GROUP_ORDER, &options, &|policy| match policy {
            Policy::Cautious => or_halt(cautious),
            _ => or_halt(MOVE),
        });
        if choice == HALT {
            w.meta.done = true;
            w.s.phase = LAST_BOMBARD;
            return Node::Live(w);
        }
        if free {
            w.meta.group_free = false;
            w.meta.done = true;
        } else {
            let rating = self.group_rating(&w, choice == MOVE).expect("an order is offered only when it can be given");
            let pair = self.roll(fate);
            w.meta.group_orders = w.meta.group_orders.saturating_add(1);
            if !r.passes(pair_total(pair), rating) {
                // "An officer who fails when issuing an order can give no
                // further orders that turn": the battery's last chance.
                w.meta.done = true;
                w.s.phase = LAST_BOMBARD;
                return Node::Live(w);
            }
            w.meta.group_free = pair_is_huzzah(pair);
        }
        w.meta.acting = choice;
        w.meta.acted = 0;
        w.meta.obeyed = false;
        Node::Live(self.next_actor(w))
    }

    /// Whether unit `unit` can act on the group's current order.
    pub(super) fn may_act(&self, w: &Work, unit: usize) -> bool {
        let member = self.members(w).any(|i| i == unit);
        member && (w.meta.acting == MOVE || self.may_deploy(&self.base, &self.load(w, unit)))
    }

    /// The next unit's turn on the group's order, in the order listed; when
    /// every unit has had its turn, back to the officer's next order, or
    /// his orders end where no unit acted ("If no unit acts on an order,
    /// the order fails and the officer can issue no further orders that
    /// turn") or a free order was the group's last.
    pub(super) fn next_actor(&self, mut w: Work) -> Work {
        w.meta.charging = false;
        w.s.phase = ATTACKER_ORDERS;
        if let Some(i) = self.alive(&w).find(|&i| w.meta.acted & (1 << i) == 0) {
            w.meta.cursor = i as u8;
            w.meta.acted |= 1 << i;
            return w;
        }
        if !w.meta.obeyed {
            w.meta.done = true;
        }
        (w.meta.acting, w.meta.acted, w.meta.obeyed, w.meta.cursor) = (0, 0, false, 0);
        if w.meta.done {
            w.s.phase = LAST_BOMBARD;
        }
        w
    }

    /// Unit `unit`'s turn on the group's order (the `act` decision): stand,
    /// or act on it, advancing one move ("Units in a command group that has
    /// been given an order to advance ... can only advance"; each infantry
    /// unit up to its own formation's allowance: "Units in a group ... can
    /// move forwards only up to the maximum move allowance of the slowest
    /// arm in that group", and every unit here is infantry) or deploying
    /// to line. Bold acts; cautious acts on an advance as its own cautious
    /// order would, and on a deploy.
    pub(super) fn act<F: Chance>(&self, mut w: Work, unit: usize, fate: &mut F) -> Node<Work> {
        let a = self.variant(&w, unit);
        let mut s = self.load(&w, unit);
        let order = w.meta.acting;
        let cautious = if order == MOVE { self.cautious_order(a, &s) } else { order };
        let choice = fate.decide(ATTACKER, &ACT, &[HALT, order], &|policy| match policy {
            Policy::Cautious => cautious,
            _ => order,
        });
        if choice == HALT {
            return Node::Live(self.next_actor(w));
        }
        w.meta.obeyed = true;
        s.fire_ready = true;
        if choice == DEPLOY {
            // "A unit that deploys within or into a threat zone must
            // immediately take a threat test" (the deploy threat phase).
            s.formation[0] = Formation::Line;
            s.phase = ATTACKER_DEPLOY_THREAT;
            self.store(&mut w, unit, s);
            return Node::Live(w);
        }
        let to = a.advance(&s);
        Assault::advance_to(&mut s, to);
        s.phase = BOMBARD;
        self.store(&mut w, unit, s);
        w.meta.charging = to == 0;
        Node::Live(w)
    }
}
