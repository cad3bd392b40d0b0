//! The brigade's turn, phase by phase: what each position asks, the
//! phases that ask nothing, the rolls, the engagement ("Multiple unit
//! engagements") and the brigade's command check ("Command integrity check").

use super::*;

impl BrigadeGame {
    pub(super) fn roll<F: Chance>(&self, fate: &mut F) -> u32 {
        fate.draw(&self.two_d6)
    }

    /// A threat test's chain of Huzzah!es played out within its step (as
    /// the assault game does).
    pub(super) fn through_chain<F: Chance>(&self, a: &Assault, mut node: Node<State>, fate: &mut F) -> Node<State> {
        while let Node::Live(s) = node
            && s.huzzahs > 0
        {
            node = a.step(s, Some(self.roll(fate)));
        }
        node
    }

    /// What the position asks.
    pub(super) fn asks(&self, w: &Work) -> Asks {
        let cursor = usize::from(w.meta.cursor);
        match w.s.phase {
            ATTACKER_THREAT | ATTACKER_REFORM => {
                if cursor < self.units && !w.units[cursor].broken() {
                    let a = self.variant(w, cursor);
                    if a.wants_roll(&self.load(w, cursor)) {
                        return Asks::Roll(cursor);
                    }
                }
                Asks::Nothing
            }
            ATTACKER_FORCED | ATTACKER_DEPLOY_THREAT => {
                let a = self.variant(w, cursor);
                if !w.units[cursor].broken() && a.wants_roll(&self.load(w, cursor)) {
                    Asks::Roll(cursor)
                } else {
                    Asks::Nothing
                }
            }
            ATTACKER_ORDERS if w.meta.level == LEVEL_ASKING => Asks::Level,
            ATTACKER_ORDERS if w.meta.level == LEVEL_GROUP && w.meta.acting == 0 => {
                if self.group_orderable(w) {
                    Asks::GroupOrder
                } else {
                    Asks::Nothing
                }
            }
            ATTACKER_ORDERS if w.meta.level == LEVEL_GROUP => {
                if self.may_act(w, cursor) {
                    Asks::Act(cursor)
                } else {
                    Asks::Nothing
                }
            }
            ATTACKER_ORDERS => {
                let s = self.load(w, cursor);
                if !w.meta.done && !w.units[cursor].broken() && self.may_order(self.variant(w, cursor), &s) {
                    Asks::Order(cursor, if s.routing[1] { &PURSUE } else { &ADVANCE })
                } else {
                    Asks::Nothing
                }
            }
            BOMBARD | LAST_BOMBARD => match self.targets(w) {
                0 => Asks::Nothing,
                targets => Asks::Bombard(targets),
            },
            ENGAGE_ATTACKER_ROLL => {
                match self.alive(w).filter(|&i| w.units[i].distance == 0).fold(0, |bits, i| bits | 1 << i) {
                    0 => Asks::Nothing,
                    engaged => Asks::Engage(engaged),
                }
            }
            ATTACKER_CHECK => match self.check_focus(w) {
                Some(focus) if self.check_due(w) => Asks::Check(focus),
                _ => Asks::Nothing,
            },
            DEFENDER_THREAT | DEFENDER_FORCED | DEFENDER_DEPLOY_THREAT | DEFENDER_CHECK | DEFENDER_REFORM => {
                let focus = self.defender_focus(w);
                if self.variant(w, focus).wants_roll(&self.load(w, focus)) { Asks::Roll(focus) } else { Asks::Nothing }
            }
            phase => panic!("the brigade's assault never waits in phase {phase}"),
        }
    }

    /// Moves on where the position asks nothing.
    pub(super) fn pass(&self, mut w: Work) -> Node<Work> {
        let cursor = usize::from(w.meta.cursor);
        match w.s.phase {
            ATTACKER_THREAT => {
                if cursor + 1 < self.units {
                    w.meta.cursor += 1;
                } else {
                    w.meta = Meta::default();
                    w = self.next_orderer(w);
                }
                Node::Live(w)
            }
            ATTACKER_FORCED => {
                w.s.phase = ATTACKER_ORDERS;
                Node::Live(w)
            }
            ATTACKER_DEPLOY_THREAT => {
                w.s.phase = BOMBARD;
                Node::Live(w)
            }
            ATTACKER_ORDERS if w.meta.level == LEVEL_GROUP && w.meta.acting == 0 => {
                // No further order can be given to the group.
                w.s.phase = LAST_BOMBARD;
                Node::Live(w)
            }
            ATTACKER_ORDERS if w.meta.level == LEVEL_GROUP => Node::Live(self.next_actor(w)),
            ATTACKER_ORDERS => Node::Live(self.next_orderer(w)),
            BOMBARD | LAST_BOMBARD => Node::Live(self.after_chance(w)),
            ENGAGE_ATTACKER_ROLL => {
                w.s.phase = ATTACKER_CHECK;
                Node::Live(w)
            }
            ATTACKER_CHECK => {
                w.s.rare.set_due(0, false);
                w.s.phase = ATTACKER_REFORM;
                w.meta.cursor = 0;
                Node::Live(w)
            }
            ATTACKER_REFORM => {
                if cursor + 1 < self.units {
                    w.meta.cursor += 1;
                } else {
                    w.meta.cursor = 0;
                    w.s.phase = DEFENDER_THREAT;
                }
                Node::Live(w)
            }
            _ => {
                // The defender's phases: the assault's step without a roll.
                let focus = self.defender_focus(&w);
                self.on_unit(w, focus, |a, s| a.step(s, None))
            }
        }
    }

    /// Runs the phases that ask nothing, up to one that asks or the end of the turn.
    pub(super) fn quiet(&self, mut node: Node<Work>) -> Node<Work> {
        while let Node::Live(w) = node {
            if w.s.phase == TURN_END || self.asks(&w) != Asks::Nothing {
                return Node::Live(w);
            }
            node = self.pass(w);
        }
        node
    }

    /// The brigade's command check is due ("Command integrity check",
    /// Conditions): a unit routed since its last Rally phase, it failed its
    /// last check, or it has units broken or routing and a unit in the
    /// enemy's threat zone; a Huzzah! on its last check spares it until a
    /// unit routs again.
    pub(super) fn check_due(&self, w: &Work) -> bool {
        let s = &w.s;
        if self.base.units[0].brigade == 0 {
            return false;
        }
        let any_in_zone = self.alive(w).any(|i| self.base.in_zone_of(&self.load(w, i), 1));
        s.rare.due(0)
            || (!s.rare.exempt(0)
                && (s.rare.last_check(0) == LastCheck::Failed || (self.brigade_losses(w) > 0 && any_in_zone)))
    }

    /// The brigade's units broken or routing, those outside the scenario included.
    pub(super) fn brigade_losses(&self, w: &Work) -> i32 {
        self.base.units[0].brigade_lost
            + (0..self.units).filter(|&i| w.units[i].broken() || w.units[i].has(ROUTING)).count() as i32
    }

    /// The unit whose view the brigade's check is rated on: the first standing.
    pub(super) fn check_focus(&self, w: &Work) -> Option<usize> {
        self.alive(w).next()
    }

    /// The brigade's command check with this roll: the assault's rating on
    /// the focus unit's view (its other units' losses counted), Up 1 for each
    /// other unit in its favourable position; failed, every unit takes a
    /// stagger for each unit broken or routing and each that is not routing
    /// retires a full move.
    pub(super) fn command_check(&self, mut w: Work, focus: usize, pair: u32) -> Node<Work> {
        let r = &self.base.rules;
        let a = self.variant(&w, focus);
        let mut rating = a.check_rating(&self.load(&w, focus), 0);
        for i in self.alive(&w).filter(|&i| i != focus) {
            let s = self.load(&w, i);
            if a.favourable(&s, 0) && !a.threat_disadvantaged(&s, 0) {
                rating += r.command_check_favourable_up;
            }
        }
        w.s.rare.set_due(0, false);
        w.s.phase = ATTACKER_REFORM;
        w.meta.cursor = 0;
        let huzzah = pair_is_huzzah(pair);
        let passed =
            (huzzah && r.command_check_huzzah == CommandCheckHuzzah::Passes) || r.passes(pair_total(pair), rating);
        if passed {
            w.s.rare.set_last_check(0, LastCheck::Passed);
            w.s.rare.set_exempt(0, huzzah);
            return Node::Live(w);
        }
        w.s.rare.set_last_check(0, LastCheck::Failed);
        let staggers = (self.brigade_losses(&w) * r.command_check_failure_staggers) as i8;
        for i in self.alive(&w).collect::<Vec<_>>() {
            w.units[i].staggers += staggers;
            if w.units[i].has(ROUTING) {
                continue;
            }
            let a = self.variant(&w, i);
            let mut s = self.load(&w, i);
            let moved = a.move_of(&s, 0).max(1);
            match a.fall_back(&mut s, 0, moved) {
                Some(_) => self.break_unit(&mut w, i),
                None => self.store(&mut w, i, s),
            }
        }
        self.settle(w)
    }

    /// The engagement of the units in contact: one-on-one as the assault's,
    /// several against one as `multi_engagement`'s.
    pub(super) fn engage(&self, mut w: Work, engaged: &[usize], pairs: &[u32], defender_pair: u32) -> Node<Work> {
        let r = &self.base.rules;
        let sides: Vec<([Fighter; 2], [i32; 2])> =
            engaged.iter().map(|&i| self.plain(i).fighters(&self.load(&w, i))).collect();
        let defender = sides[0].0[1];
        let mut results: Vec<UnitResult> = Vec::with_capacity(engaged.len());
        let (defender_result, defender_officer_killed);
        if engaged.len() == 1 {
            let ([a, d], rating) = sides[0];
            let res = resolve_with_ratings(r, [&a, &d], rating, [pairs[0], defender_pair]);
            let taken = res.attacker;
            results.push(UnitResult {
                staggers: taken.staggers,
                kills: taken.kills,
                broken: taken.broken,
                fate: taken.fate,
            });
            defender_result = UnitResult {
                staggers: res.defender.staggers,
                kills: res.defender.kills,
                broken: res.defender.broken,
                fate: res.defender.fate,
            };
            defender_officer_killed = res.defender.officer_killed;
        } else {
            let fighters: Vec<Fighter> = sides.iter().map(|(f, _)| f[0]).collect();
            let ratings: Vec<i32> = sides.iter().map(|(_, rating)| rating[0]).collect();
            // The defender takes its Ups and Downs against the first unit
            // engaged, as `multi_engagement` does.
            let res = resolve_multi(
                r,
                [&fighters, std::slice::from_ref(&defender)],
                [&ratings, &[sides[0].1[1]]],
                [pairs, &[defender_pair]],
            );
            results = res.attackers;
            defender_result = res.defenders[0];
            defender_officer_killed =
                defender.officer != Officer::None && (defender_result.kills > 0 || defender_result.broken);
        }
        w.s.engaged = true;
        for (k, &i) in engaged.iter().enumerate() {
            let taken = results[k];
            w.units[i].staggers += taken.staggers as i8;
            w.units[i].kills += taken.kills as i8;
            // "An officer who is attached to a unit that takes a kill or is
            // broken is himself killed."
            if sides[k].0[0].officer != Officer::None && (taken.kills > 0 || taken.broken) {
                w.units[i].set(OFFICER, false);
            }
        }
        w.s.strength[2] += defender_result.staggers as i8;
        w.s.strength[3] += defender_result.kills as i8;
        if defender_officer_killed {
            w.s.officer[1] = false;
        }
        for (k, &i) in engaged.iter().enumerate() {
            if results[k].fate == Fate::Broken {
                self.break_unit(&mut w, i);
            }
        }
        let attackers_broken = self.alive(&w).next().is_none();
        match (defender_result.fate == Fate::Broken, attackers_broken) {
            (true, true) => return Node::End(self.code(NONE, 1, &w)),
            (true, false) => return Node::End(self.code(ATTACKER, 1, &w)),
            (false, true) => return Node::End(self.code(DEFENDER, 1, &w)),
            (false, false) => {}
        }
        w.s.phase = ATTACKER_CHECK;
        // The losers rout, a tied attacker or a Huzzah! loser retires; each
        // attacking unit moves on its own, the defender away from them all.
        let brigade = self.base.units[0].brigade > 0;
        for (k, &i) in engaged.iter().enumerate() {
            let a = self.plain(i);
            let mut s = self.load(&w, i);
            let moved = match results[k].fate {
                Fate::Routs => {
                    s.routing[0] = true;
                    s.forced[0] = false;
                    if brigade {
                        w.s.rare.set_due(0, true);
                        w.s.rare.set_exempt(0, false);
                    }
                    a.rout_move(0)
                }
                Fate::Retires => a.move_of(&s, 0).max(1),
                Fate::Holds | Fate::Broken => continue,
            };
            s.rare = w.s.rare;
            if a.fall_back(&mut s, 0, moved).is_some() {
                w.units[i].set(ROUTING, s.routing[0]);
                self.break_unit(&mut w, i);
            } else {
                self.store(&mut w, i, s);
            }
        }
        if let Node::End(code) = self.settle(w) {
            return Node::End(code);
        }
        let focus = engaged.iter().copied().find(|&i| !w.units[i].broken()).or_else(|| self.alive(&w).next());
        let Some(focus) = focus else { return self.settle(w) };
        let a = self.plain(focus);
        let mut s = self.load(&w, focus);
        let moved = match defender_result.fate {
            Fate::Routs => {
                s.routing[1] = true;
                if a.units[1].brigade > 0 {
                    s.rare.set_due(1, true);
                    s.rare.set_exempt(1, false);
                }
                s.forced[1] = false;
                a.rout_move(1)
            }
            Fate::Retires => a.move_of(&s, 1).max(1),
            Fate::Holds | Fate::Broken => return self.settle(w),
        };
        if a.fall_back(&mut s, 1, moved).is_some() {
            w.s.routing[1] = s.routing[1];
            return Node::End(self.code(ATTACKER, 1, &w));
        }
        self.store(&mut w, focus, s);
        self.settle(w)
    }

    /// The step at a position that asks: its decision and its rolls.
    pub(super) fn input<F: Chance>(&self, w: Work, asks: Asks, fate: &mut F) -> Node<Work> {
        let phase = w.s.phase;
        match asks {
            Asks::Roll(unit) => {
                let pair = self.roll(fate);
                let mut disobeyed = 0;
                if phase == ATTACKER_FORCED {
                    // "The unit takes one extra stagger for each order issued
                    // by their officer before the forced order is issued."
                    disobeyed = i32::from(w.meta.issued) * self.base.rules.forced_order_disobeyed_staggers;
                }
                let mut w = w;
                if phase == ATTACKER_FORCED {
                    w.meta.issued = w.meta.issued.saturating_add(1);
                }
                let node = self.on_unit(w, unit, |a, mut s| {
                    s.strength[0] += disobeyed as i8;
                    self.through_chain(a, a.step(s, Some(pair)), fate)
                });
                let Node::Live(mut w) = node else { return node };
                match phase {
                    ATTACKER_THREAT | ATTACKER_REFORM => w.s.phase = phase,
                    // A failed forced order: no further orders.
                    ATTACKER_FORCED if w.s.phase == LAST_BOMBARD => w.meta.done = true,
                    // The deployed unit's test done: the battery's chance.
                    ATTACKER_DEPLOY_THREAT => w.s.phase = BOMBARD,
                    _ => {}
                }
                if matches!(phase, ATTACKER_THREAT | ATTACKER_REFORM) {
                    // The unit's part done: the next unit's (the quiet step moves on).
                    return self.pass(w);
                }
                Node::Live(w)
            }
            Asks::Order(unit, decision) => self.order(w, unit, decision, fate),
            Asks::Bombard(targets) => self.bombard(w, targets, fate),
            Asks::Engage(engaged) => {
                let engaged: Vec<usize> = (0..self.units).filter(|&i| engaged & (1 << i) != 0).collect();
                let pairs: Vec<u32> = engaged.iter().map(|_| self.roll(fate)).collect();
                let defender = self.roll(fate);
                self.engage(w, &engaged, &pairs, defender)
            }
            Asks::Check(focus) => {
                let pair = self.roll(fate);
                self.command_check(w, focus, pair)
            }
            Asks::Level => self.choose_level(w, fate),
            Asks::GroupOrder => self.group_order(w, fate),
            Asks::Act(unit) => self.act(w, unit, fate),
            Asks::Nothing => unreachable!("a position that asks nothing passes"),
        }
    }
}
