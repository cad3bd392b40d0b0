//! The assault's turn as a state machine ("Sequence of play"): the
//! constructor and its checks, threat zones, moves and ratings (playsheet,
//! "Threat tests", "Orders and movement"), and [`Assault::step`], one phase
//! of the turn with at most one roll.

use super::state::*;
use super::{Assault, AssaultUnit, Fire, Formation, Guns, LastCheck, Superiority};
use crate::outcome::{Layout, Metric};
use crate::params::ParamError;
use crate::rulesets::huzzah::standoff::{Node, duel_metrics, staggers_after_reform, threat_staggers};
use crate::rulesets::huzzah::{
    Arm, CavalryKind, ForcedOrderCounts, HuzzahThreatChain, Officer, Rules, invalid, pair_is_huzzah, pair_total,
    remaining_percent,
};

impl Assault {
    /// An assault from `distance` bands (1-30) for at most `turns` turns,
    /// the battery (if the defender is one) with `bombardments` bombardments.
    pub fn new(
        rules: &Rules,
        attacker: AssaultUnit,
        defender: AssaultUnit,
        guns: Guns,
        bombardments: i32,
        distance: i32,
        turns: u32,
    ) -> Result<Self, ParamError> {
        if attacker.arm == Arm::Artillery {
            return Err(invalid(
                "attacker.arm",
                "the attacker is infantry or cavalry: artillery cannot advance to engage",
            ));
        }
        if attacker.formation == Formation::Square {
            return Err(invalid("attacker.formation", "a square cannot assault: use line or column"));
        }
        // "Deploying": "Cavalry can form line, column or march column".
        if defender.arm == Arm::Cavalry && defender.formation == Formation::Square {
            return Err(invalid("defender.formation", "cavalry forms line or column, not square"));
        }
        if defender.arm == Arm::Artillery && defender.formation != Formation::Line {
            return Err(invalid("defender.formation", "an unlimbered battery is in line"));
        }
        for (unit, prefix) in [(&attacker, "attacker"), (&defender, "defender")] {
            let full = rules.full_rating(unit.quality);
            if unit.staggers < 0 || unit.kills < 0 || unit.staggers + unit.kills >= full {
                return Err(invalid(format!("{prefix}.kills"), format!("staggers plus kills must stay below {full}")));
            }
            if !(-10..=10).contains(&unit.shifts) || !(6..=10).contains(&unit.rating) {
                return Err(invalid(format!("{prefix}.shifts"), "shifts -10 to 10, ratings 6 to 10"));
            }
            // "Command radius": "An individual unit attached to any officer is
            // always in command" (Up 1 to orders and rallies).
            if unit.officer != Officer::None && !unit.in_command {
                return Err(invalid(
                    format!("{prefix}.in_command"),
                    "a unit with an officer attached is always in command: in_command cannot be false",
                ));
            }
            if unit.routing && unit.arm == Arm::Artillery {
                return Err(invalid(format!("{prefix}.routing"), "a battery never routs: it breaks"));
            }
            // "Engage the enemy": battle and pursuit cavalry are kinds of cavalry.
            if unit.cavalry != CavalryKind::Regular && unit.arm != Arm::Cavalry {
                return Err(invalid(format!("{prefix}.cavalry"), "battle and pursuit apply to cavalry only"));
            }
            if !(0..=8).contains(&unit.brigade)
                || unit.brigade_lost < 0
                || (unit.brigade_lost > 0 && unit.brigade_lost >= unit.brigade)
            {
                return Err(invalid(
                    format!("{prefix}.brigade_lost"),
                    "a brigade of 0 to 8 units; the other units lost must be fewer than the brigade",
                ));
            }
            if unit.brigade == 0 && (unit.last_check != LastCheck::None || unit.brigade_isolated) {
                return Err(invalid(format!("{prefix}.brigade"), "brigade keys need a brigade (brigade 1 or more)"));
            }
            // "If the command check fails ... artillery limbers and retires one
            // move still limbered": a limbered battery is outside the assault.
            if unit.brigade > 0 && unit.arm == Arm::Artillery {
                return Err(invalid(
                    format!("{prefix}.brigade"),
                    "a battery's failed command check limbers it, which the assault does not model",
                ));
            }
            if !(0..=40).contains(&unit.edge) {
                return Err(invalid(format!("{prefix}.edge"), "the bands to the table edge must be 0 to 40"));
            }
        }
        if !(1..=30).contains(&distance) {
            return Err(invalid("distance", "the distance must be 1 to 30 bands"));
        }
        if !(0..=10).contains(&bombardments) {
            return Err(invalid("defender.bombardments", "bombardments must be 0 to 10"));
        }
        if !(1..=100).contains(&turns) {
            return Err(invalid("turns", "the turn limit must be 1 to 100"));
        }
        let mut metrics = duel_metrics(turns);
        metrics.push(Metric::boolean("engaged", "whether the units engaged at least once"));
        metrics.push(Metric::boolean("attacker_routing", "whether the attacker is a routing mob at the end"));
        metrics.push(Metric::boolean("defender_routing", "whether the defender is a routing mob at the end"));
        let full = [rules.full_rating(attacker.quality), rules.full_rating(defender.quality)];
        let mut assault = Assault {
            rules: rules.clone(),
            units: [attacker, defender],
            guns,
            distance,
            bombardments,
            full,
            turns,
            fire: Fire::Now,
            skirmish_bonus: [0; 2],
            zones: [[0; 3]; 2],
            layout: Layout::new(metrics),
        };
        assault.zones = assault.zone_table();
        Ok(assault)
    }

    /// Each side's threat zone in each formation (playsheet, Threat zones),
    /// with its skirmisher superiority bonus.
    pub(super) fn zone_table(&self) -> [[i32; 3]; 2] {
        let r = &self.rules;
        std::array::from_fn(|side| {
            [Formation::Line, Formation::Column, Formation::Square].map(|formation| {
                match (self.units[side].arm, formation) {
                    (Arm::Infantry, Formation::Line) => r.threat_zone_infantry_line + self.skirmish_bonus[side],
                    (Arm::Infantry, Formation::Column) => r.threat_zone_infantry_column + self.skirmish_bonus[side],
                    (Arm::Infantry, Formation::Square) => r.threat_zone_infantry_square + self.skirmish_bonus[side],
                    (Arm::Cavalry, Formation::Column) => r.threat_zone_cavalry_column,
                    (Arm::Cavalry, _) => r.threat_zone_cavalry_line,
                    (Arm::Artillery, _) => match self.guns {
                        Guns::Light => r.threat_zone_light_artillery,
                        Guns::Medium => r.threat_zone_medium_artillery,
                        Guns::Heavy => r.threat_zone_heavy_artillery,
                    },
                }
            })
        })
    }

    /// The same assault with `superiority`'s side holding skirmisher
    /// superiority every turn (the `skirmish` key).
    pub fn with_superiority(mut self, superiority: Superiority) -> Self {
        // "Whichever side succeeds by the greatest amount wins the skirmisher
        // war: that side adds 5cm (1 band) to the threat zone of its infantry
        // units in open terrain against enemy infantry and artillery units";
        // it "has no effect on infantry threat zones against: Cavalry", and
        // "Units that do not have threat zones do not gain a threat zone"
        // (see [`Assault::zone`]). The assault is fought in the open.
        let winner = match superiority {
            Superiority::None => None,
            Superiority::Attacker => Some(0),
            Superiority::Defender => Some(1),
        };
        self.skirmish_bonus = std::array::from_fn(|side| {
            let gains = winner == Some(side)
                && self.units[side].arm == Arm::Infantry
                && self.units[1 - side].arm != Arm::Cavalry;
            if gains { self.rules.skirmish_threat_zone_bonus_bands } else { 0 }
        });
        self.zones = self.zone_table();
        self
    }

    /// The same assault with the battery firing under `fire`.
    pub fn with_fire(mut self, fire: Fire) -> Self {
        self.fire = fire;
        self
    }

    /// Whether the battery bombards the attacker at this point of its Orders
    /// phase: it has bombardments left, it has not fired since the attacker
    /// last acted on an order ("Once a battery has bombarded, it cannot
    /// bombard the same target again during the same turn unless that target
    /// acts on another order"), the attacker is within extreme range and not
    /// engaged (a move into contact is fired on at 1 band, "at any stage in
    /// its movement"), and the fire policy takes the shot at this range.
    pub(super) fn fire_now(&self, s: &State, moving_into_contact: bool) -> bool {
        if s.bombardments == 0 || !s.fire_ready || (s.distance == 0 && !moving_into_contact) {
            return false;
        }
        match self.bombard_band(i32::from(s.distance).max(1)) {
            None => false,
            Some(band) => self.fire == Fire::Now || band == 0,
        }
    }

    pub(super) fn start(&self) -> State {
        let (a, d) = (&self.units[0], &self.units[1]);
        State {
            phase: ATTACKER_THREAT,
            distance: self.distance as i8,
            strength: [a.staggers as i8, a.kills as i8, d.staggers as i8, d.kills as i8],
            formation: [a.formation, d.formation],
            bombardments: if d.arm == Arm::Artillery { self.bombardments as u8 } else { 0 },
            smoke: 0,
            blown: [false; 2],
            officer: [a.officer != Officer::None, d.officer != Officer::None],
            engaged: false,
            tester: 0,
            huzzahs: 0,
            forced: [false; 2],
            orders: 0,
            free_order: false,
            engage_pair: 0,
            routing: [a.routing, d.routing],
            behind: [a.edge as i8, d.edge as i8],
            out_of_control: [false; 2],
            rare: {
                let mut rare = Rare::default();
                rare.set_last_check(0, a.last_check);
                rare.set_last_check(1, d.last_check);
                rare
            },
            fire_ready: true,
        }
    }

    /// The outcome code at turn 1 (later turns add a stride): `winner` 0
    /// attacker, 1 defender, 2 none.
    pub(super) fn code(&self, winner: i64, turn: u32, s: &State) -> u64 {
        let st = |i: usize| i32::from(s.strength[i]);
        self.layout.encode(&[
            winner,
            i64::from(turn),
            i64::from(st(0)),
            i64::from(st(1)),
            i64::from(st(2)),
            i64::from(st(3)),
            remaining_percent(self.full[0], st(0), st(1)),
            remaining_percent(self.full[1], st(2), st(3)),
            i64::from(s.engaged),
            i64::from(s.routing[0]),
            i64::from(s.routing[1]),
        ])
    }

    /// Whether `side` is in its favourable position: only at its starting
    /// place (its table edge as far behind it as at the start), so a unit
    /// driven off, or advancing off, its ground loses it.
    pub(super) fn favourable(&self, s: &State, side: usize) -> bool {
        self.units[side].favourable && i32::from(s.behind[side]) == self.units[side].edge
    }

    /// Whether `side` is blown cavalry.
    pub(super) fn blown(&self, s: &State, side: usize) -> bool {
        s.blown[side]
    }

    pub(super) fn officer_of(&self, s: &State, side: usize) -> Officer {
        if s.officer[side] { self.units[side].officer } else { Officer::None }
    }

    /// The depth of a side's threat zone now, in bands (playsheet, Threat zones).
    pub(super) fn zone(&self, s: &State, side: usize) -> i32 {
        // "Mob": "Mobs ... have no threat zone"; "Blown cavalry exerts no
        // threat zone" (only cavalry is ever blown).
        if s.routing[side] || s.blown[side] {
            return 0;
        }
        // Skirmisher superiority deepens infantry zones (see `zone_table`).
        self.zones[side][s.formation[side] as usize]
    }

    /// A side's move, in bands (playsheet, Movement).
    pub(super) fn move_of(&self, s: &State, side: usize) -> i32 {
        let r = &self.rules;
        match (self.units[side].arm, s.formation[side]) {
            (Arm::Infantry, Formation::Line) => r.move_infantry_line,
            (Arm::Infantry, Formation::Column) => r.move_infantry_column,
            (Arm::Infantry, Formation::Square) => 1,
            (Arm::Cavalry, Formation::Column) => r.move_cavalry_column,
            (Arm::Cavalry, _) => r.move_cavalry_line,
            (Arm::Artillery, _) => 0,
        }
    }

    /// A routing side's move: "one move at march column rate" in mob
    /// formation ("Engage the enemy"; "Compulsory movement: Rout").
    pub(super) fn rout_move(&self, side: usize) -> i32 {
        let r = &self.rules;
        match self.units[side].arm {
            Arm::Infantry => r.move_infantry_march_column,
            Arm::Cavalry => r.move_cavalry_march_column,
            Arm::Artillery => r.move_foot_guns_march_column,
        }
    }

    /// `side` moves `moved` bands back towards its table edge: the end (the
    /// unit is broken, the other side wins) if that takes it off the table.
    pub(super) fn fall_back(&self, s: &mut State, side: usize, moved: i32) -> Option<Node<State>> {
        if self.rules.leaves_table(i32::from(s.behind[side]), moved) {
            return Some(Node::End(self.code(1 - side as i64, 1, s)));
        }
        s.behind[side] -= moved as i8;
        s.distance += moved as i8;
        None
    }

    /// Whether the attacker acts on orders: not while it routs, and it holds
    /// the ground it won while the defender routs (a blown cavalry's recall
    /// order is still given).
    pub(super) fn may_order(&self, s: &State) -> bool {
        !s.routing[0] && (!s.routing[1] || s.rare.recall(0))
    }

    /// The formation a routing unit takes when it rallies ("Routing troops
    /// that rally immediately halt facing the enemy and assume whichever
    /// allowable formation they wish"): its starting formation, or square for
    /// infantry facing cavalry.
    pub(super) fn rally_formation(&self, side: usize) -> Formation {
        let unit = &self.units[side];
        if unit.arm == Arm::Infantry && self.units[1 - side].arm == Arm::Cavalry {
            Formation::Square
        } else {
            unit.formation
        }
    }

    pub(super) fn in_zone_of(&self, s: &State, side: usize) -> bool {
        i32::from(s.distance) <= self.zone(s, side)
    }

    pub(super) fn broken(&self, s: &State, side: usize) -> bool {
        i32::from(s.strength[2 * side]) + i32::from(s.strength[2 * side + 1]) >= self.full[side]
    }

    /// The end when `side` has broken (the other wins), else the state.
    pub(super) fn settle(&self, s: State, side: usize) -> Node<State> {
        if self.broken(&s, side) { Node::End(self.code(1 - side as i64, 1, &s)) } else { Node::Live(s) }
    }

    /// Whether `side` is disadvantaged when threatened: its own key, or a
    /// mob (playsheet, Threat tests: "Use disadvantaged rating ... if
    /// routing"; "Mob": mobs "use their disadvantaged morale rating if
    /// threatened or engaged"; a routing unit and cavalry out of control alike).
    pub(super) fn threat_disadvantaged(&self, s: &State, side: usize) -> bool {
        self.units[side].disadvantaged || s.routing[side] || s.out_of_control[side]
    }

    /// The effective rating of `side` tested by the other ("Threat tests",
    /// Procedure); `bombarded` is the bombardment range band (0 short, 1
    /// long, 2 extreme) or `None` for an ordinary threat.
    pub(super) fn threat_rating(&self, s: &State, side: usize, bombarded: Option<u8>) -> i32 {
        let r = &self.rules;
        let unit = &self.units[side];
        let enemy = &self.units[1 - side];
        let disadvantaged = self.threat_disadvantaged(s, side);
        let mut shifts = unit.shifts;
        if s.strength[2 * side] > 0 {
            shifts -= r.threat_staggers_down;
        }
        if s.strength[2 * side + 1] > 0 {
            shifts -= r.threat_kills_down;
        }
        // "Down 1 if unit is isolated."
        if self.isolated(side) {
            shifts -= r.threat_isolated_down;
        }
        // "Treat unlimbered artillery batteries as open order troops for
        // threats", and open order troops "threatened (not engaged!) only by
        // infantry or artillery while in open terrain" are in a favourable
        // position; "a single Up 1 regardless of the number" of reasons.
        let open_order_battery = unit.arm == Arm::Artillery && enemy.arm == Arm::Infantry;
        if (self.favourable(s, side) || open_order_battery) && !disadvantaged {
            shifts += r.threat_favourable_up;
        }
        shifts += match self.officer_of(s, side) {
            Officer::None => 0,
            Officer::Attached => r.threat_officer_up,
            Officer::Inspirational => r.threat_officer_up + r.threat_inspirational_up,
        };
        if enemy.arm == Arm::Artillery {
            let band = bombarded.unwrap_or(0);
            // "Down 1 if at short range"; "Up 1 if bombarded at extreme range".
            if band == 0 {
                shifts -= r.threat_short_range_down;
            } else if band == 2 {
                shifts += r.threat_extreme_range_up;
            }
            // "Up 1 if small unit bombarded at long or extreme range" (a
            // bombardment, not the battery's inherent short-range threat).
            if unit.small && band > 0 {
                shifts += r.threat_small_unit_long_range_up;
            }
            if s.formation[side] == Formation::Column {
                shifts -= r.threat_bombarded_in_column_down;
            }
            // "Up 1 if any smoke markers on threatening artillery."
            if s.smoke > 0 {
                shifts += r.threat_smoke_up;
            }
        }
        // "Up 2 if infantry in square threatened by cavalry."
        if s.formation[side] == Formation::Square && enemy.arm == Arm::Cavalry {
            shifts += r.threat_square_against_cavalry_up;
        }
        r.effective_rating(unit.quality, shifts, disadvantaged)
    }

    /// The range band of a bombardment at this distance, or `None` out of range.
    pub(super) fn bombard_band(&self, distance: i32) -> Option<u8> {
        let r = &self.rules;
        let (long, extreme) = match self.guns {
            Guns::Light => (r.long_range_light_artillery, r.extreme_range_light_artillery),
            Guns::Medium => (r.long_range_medium_artillery, r.extreme_range_medium_artillery),
            Guns::Heavy => (r.long_range_heavy_artillery, r.extreme_range_heavy_artillery),
        };
        let short = match self.guns {
            Guns::Light => r.threat_zone_light_artillery,
            Guns::Medium => r.threat_zone_medium_artillery,
            Guns::Heavy => r.threat_zone_heavy_artillery,
        };
        if distance <= short {
            Some(0)
        } else if distance <= long {
            Some(1)
        } else if distance <= extreme {
            Some(2)
        } else {
            None
        }
    }

    /// Whether a phase consumes a roll in this state.
    pub(super) fn wants_roll(&self, s: &State) -> bool {
        match s.phase {
            ATTACKER_THREAT => s.huzzahs > 0 || self.in_zone_of(s, 1),
            ATTACKER_FORCED => s.forced[0],
            ATTACKER_DEPLOY_THREAT => s.huzzahs > 0 || self.in_zone_of(s, 1),
            ATTACKER_ORDERS => {
                // Blown cavalry "cannot move until it reforms": it takes only
                // its recall order, and that only after failing to rally.
                !s.free_order
                    && s.distance > 0
                    && self.may_order(s)
                    && (!s.blown[0] || (s.rare.recall(0) && s.orders == 0))
                    && self.order_rating(s, !s.blown[0]).is_some()
            }
            BOMBARD | ENGAGE_DEFENDER_ROLL => true,
            LAST_BOMBARD => s.huzzahs > 0 || self.fire_now(s, false),
            ENGAGE_ATTACKER_ROLL | DEFENDER_ENGAGE_ROLL => s.distance == 0,
            DEFENDER_ENGAGE_SECOND => true,
            ATTACKER_CHECK => self.check_due(s, 0),
            DEFENDER_CHECK => self.check_due(s, 1),
            ATTACKER_REFORM => s.strength[0] > 0 || s.blown[0] || s.routing[0],
            DEFENDER_THREAT => s.huzzahs > 0 || self.in_zone_of(s, 0),
            DEFENDER_FORCED => s.forced[1] || (s.rare.recall(1) && !s.routing[1]),
            DEFENDER_DEPLOY_THREAT => s.huzzahs > 0 || self.in_zone_of(s, 0),
            DEFENDER_REFORM => s.strength[2] > 0 || s.routing[1] || s.blown[1],
            _ => false,
        }
    }

    /// The command rating of `side`'s first order of its Orders phase
    /// (a forced order, or the defender's own order to form square): its
    /// officer's rating, Up 1 in command, Up 1 with an officer attached,
    /// Down 1 in an enemy threat zone, Down 1 an isolated sub-command
    /// ("Orders and movement", Procedure).
    pub(super) fn first_order_rating(&self, s: &State, side: usize) -> i32 {
        let r = &self.rules;
        let unit = &self.units[side];
        let mut rating = unit.rating;
        if unit.in_command {
            rating += r.order_in_command_up;
        }
        if self.officer_of(s, side) != Officer::None {
            rating += r.order_officer_attached_up;
        }
        if self.in_zone_of(s, 1 - side) {
            rating -= r.order_threat_zone_down;
        }
        // "Down 1 if isolated sub-command".
        if self.isolated(side) {
            rating -= r.order_isolated_down;
        }
        rating
    }

    /// The attacker's effective command rating for its next order (an
    /// advance if `advance`, else a deploy or a recall), or `None` when no
    /// order can be given ("Orders and movement", Procedure).
    pub(super) fn order_rating(&self, s: &State, advance: bool) -> Option<i32> {
        let r = &self.rules;
        let unit = &self.units[0];
        let mut rating = unit.rating;
        // "Down 2 if infantry ordered to advance on cavalry": "if it is within
        // the threat zone of enemy cavalry, if an enemy cavalry unit is within
        // the threat zone of the infantry, or if an enemy cavalry unit could
        // come into the threat zone of the infantry if it advances on obeying
        // this order (i.e. the cavalry is within the infantry's combined move
        // and threat distances)" ("Infantry ordered to advance on cavalry").
        if advance && unit.arm == Arm::Infantry && self.units[1].arm == Arm::Cavalry {
            let distance = i32::from(s.distance);
            if distance <= self.zone(s, 1) || distance <= self.zone(s, 0) + self.move_of(s, 0) {
                rating -= r.order_infantry_advancing_on_cavalry_down;
            }
        }
        match self.officer_of(s, 0) {
            Officer::None => {}
            Officer::Attached => rating += r.order_officer_attached_up,
            // "Up 1 if both the officer is inspirational and the order is to advance."
            Officer::Inspirational => {
                rating += r.order_officer_attached_up;
                if advance {
                    rating += r.order_inspirational_advance_up;
                }
            }
        }
        // "Down 1 if isolated sub-command" (the unit ordered alone in its
        // brigade); "Down 1 if failed last command integrity check and
        // ordered to advance" ("There is no penalty on other orders").
        let failed_advance = advance && s.rare.last_check(0) == LastCheck::Failed;
        self.rated(rating, self.in_zone_of(s, 1), i32::from(s.orders), self.isolated(0), failed_advance)
    }

    /// An order's effective rating from `rating` (the officer's, with the
    /// modifiers only some orders take already applied) and those every
    /// order to a unit or a command group takes ("Orders and movement",
    /// Procedure): Down 1 in the enemy's threat zone, Down 1 for each of
    /// the `before` orders to the same unit or group this turn, Down 1 if
    /// an isolated sub-command, Down 1 on an advance after a failed command
    /// check, Up 1 in command; `None` where no order can be issued.
    pub(super) fn rated(
        &self,
        mut rating: i32,
        in_zone: bool,
        before: i32,
        isolated: bool,
        failed_advance: bool,
    ) -> Option<i32> {
        let r = &self.rules;
        if in_zone {
            rating -= r.order_threat_zone_down;
        }
        rating -= r.order_successive_down * before;
        if isolated {
            rating -= r.order_isolated_down;
        }
        if failed_advance {
            rating -= r.order_failed_check_advance_down;
        }
        if self.units[0].in_command {
            rating += r.order_in_command_up;
        }
        (rating > r.order_impossible_at).then_some(rating)
    }

    /// One threat test by `s.tester` with this roll, Huzzah! chain included;
    /// `bombarded` is set for the first test of a bombardment. Continues to `next`.
    pub(super) fn threat_test(&self, mut s: State, pair: u32, bombarded: Option<u8>, next: u8) -> Node<State> {
        let side = usize::from(s.tester);
        let total = pair_total(pair);
        let other = 1 - side;
        // "Place a single smoke marker by all artillery units that threatened
        // the testing unit": after the test, which the new marker cannot help.
        let smoke_after = s.smoke.saturating_add(u8::from(self.units[other].arm == Arm::Artillery));
        if pair_is_huzzah(pair) {
            // Huzzah! results: an enemy unit threatening the tester that is in
            // the tester's threat zone tests in turn.
            let answers = self.rules.huzzah_threat_chain == HuzzahThreatChain::Chain || s.huzzahs == 0;
            if answers && s.huzzahs < CHAIN_LIMIT && self.in_zone_of(&s, side) && self.in_zone_of(&s, other) {
                s.smoke = smoke_after;
                s.huzzahs += 1;
                s.tester = other as u8;
                return Node::Live(s);
            }
        } else {
            let rating = self.threat_rating(&s, side, if s.huzzahs == 0 { bombarded } else { None });
            let staggers = threat_staggers(&self.rules, rating, total);
            if staggers > 0 || !self.rules.passes(total, rating) {
                s.strength[2 * side] += staggers as i8;
                // "Threat tests", Forced orders.
                let (me, enemy) = (&self.units[side], &self.units[other]);
                let column_against_line = me.arm == Arm::Infantry
                    && s.formation[side] == Formation::Column
                    && enemy.arm == Arm::Infantry
                    && s.formation[other] == Formation::Line;
                let open_against_cavalry =
                    me.arm == Arm::Infantry && s.formation[side] != Formation::Square && enemy.arm == Arm::Cavalry;
                // A mob takes no forced order: it cannot act on orders.
                if (column_against_line || open_against_cavalry) && !s.routing[side] {
                    s.forced[side] = true;
                }
                if self.broken(&s, side) {
                    return self.settle(s, side);
                }
            }
        }
        s.smoke = smoke_after;
        s.tester = 0;
        s.huzzahs = 0;
        s.phase = next;
        Node::Live(s)
    }

    /// The defender's effective command rating for an order of its own in
    /// its Orders phase (an advance if `advance`, else a retire or a change
    /// of formation), or `None` when no order can be given ("Orders and
    /// movement", Procedure): its first order's rating (officer, in
    /// command, attached officer, enemy threat zone, isolated), with "Down 1
    /// if failed last command integrity check and ordered to advance",
    /// "Down 2 if infantry ordered to advance on cavalry" and "Up 1 if both
    /// the officer is inspirational and the order is to advance", and
    /// "Down 1 for each successive order issued to the same unit" for the
    /// orders it was given before this turn (`s.orders`, counted only under
    /// the game's `defender.orders`; none after a Huzzah!'s free order).
    pub(super) fn defender_order_rating(&self, s: &State, advance: bool) -> Option<i32> {
        let r = &self.rules;
        let unit = &self.units[1];
        if s.orders >= ORDERS_SPENT {
            // "After completing a Huzzah! order, a group or individual unit
            // can receive no other orders that turn."
            return None;
        }
        let mut rating = self.first_order_rating(s, 1) - r.order_successive_down * i32::from(s.orders);
        if advance {
            if unit.arm == Arm::Infantry && self.units[0].arm == Arm::Cavalry {
                let distance = i32::from(s.distance);
                if distance <= self.zone(s, 0) || distance <= self.zone(s, 1) + self.move_of(s, 1) {
                    rating -= r.order_infantry_advancing_on_cavalry_down;
                }
            }
            if s.rare.last_check(1) == LastCheck::Failed {
                rating -= r.order_failed_check_advance_down;
            }
            if self.officer_of(s, 1) == Officer::Inspirational {
                rating += r.order_inspirational_advance_up;
            }
        }
        (rating > r.order_impossible_at).then_some(rating)
    }

    /// How far the defender retires on a retire order: "A unit that receives
    /// an individual retire order can move backwards up to half its full
    /// movement allowance" ("Orders", Retire), in whole bands (half a line's
    /// 3 bands is 1, a column's 4 is 2; a square's 1 is none), and never off
    /// the table (a retire order is a choice; a unit it would take off the
    /// table retires only as far as its edge). Straight back, away from the
    /// only enemy, it meets no threat zone to stop at.
    pub(super) fn defender_retire(&self, s: &State) -> i32 {
        (self.move_of(s, 1) / 2).min(i32::from(s.behind[1])).max(0)
    }

    /// The defender moves one advance towards the attacker: the new distance
    /// (0 is contact). As the attacker's ([`Assault::advance`]): "Units must
    /// stop moving the instant they enter or touch the threat zone of an
    /// enemy unit", and "A unit cannot advance to engage an enemy that is
    /// outside its threat zone unless that enemy is within 5cm (1 band)".
    pub(super) fn defender_advance(&self, s: &State) -> i32 {
        let distance = i32::from(s.distance);
        let zone = self.zone(s, 0);
        let step = self.move_of(s, 1);
        let target = if distance > zone && zone > 0 { (distance - step).max(zone) } else { distance - step };
        if target <= 0 {
            let may_engage = distance <= self.zone(s, 1) || distance <= self.rules.engage_outside_threat_zone_bands;
            if may_engage { 0 } else { 1 }
        } else {
            target
        }
    }

    /// The attacker moves one advance: the new distance (0 is contact).
    pub(super) fn advance(&self, s: &State) -> i32 {
        let distance = i32::from(s.distance);
        let zone = self.zone(s, 1);
        let step = self.move_of(s, 0);
        // "Units must stop moving the instant they enter or touch the threat
        // zone of an enemy unit"; inside it they move on.
        let target = if distance > zone && zone > 0 { (distance - step).max(zone) } else { distance - step };
        // "A unit cannot advance to engage an enemy that is outside its threat
        // zone unless that enemy is within 5cm (1 band)."
        if target <= 0 {
            let may_engage = distance <= self.zone(s, 0) || distance <= self.rules.engage_outside_threat_zone_bands;
            if may_engage { 0 } else { 1 }
        } else {
            target
        }
    }

    /// The attacker moves up to `to` bands from the defender: its table edge
    /// falls behind it by as much.
    pub(super) fn advance_to(s: &mut State, to: i32) {
        s.behind[0] += s.distance - to as i8;
        s.distance = to as i8;
    }

    /// After a move: bombard if the battery can, else carry on ordering.
    /// The attacker has acted on an advance order: it may be bombarded again.
    pub(super) fn after_move(&self, mut s: State, moved_to: i32) -> Node<State> {
        Self::advance_to(&mut s, moved_to);
        s.fire_ready = true;
        if self.fire_now(&s, moved_to == 0) {
            s.phase = BOMBARD;
            s.tester = 0;
            s.huzzahs = 0;
        } else {
            s.phase = if moved_to == 0 { ENGAGE_ATTACKER_ROLL } else { ATTACKER_ORDERS };
        }
        Node::Live(s)
    }

    /// Cavalry out of control "advances one move in mob formation towards the
    /// nearest enemy unit" ("Forced orders", Recall): at its march column rate
    /// ("Mob": "Mobs use the movement rate for march column"), stopped on
    /// entering a threat zone ("The cavalry is stopped by threat zones"),
    /// and it may make contact from anywhere in that zone ("If it engages an
    /// enemy it fights using its disadvantaged morale rating"): the advance
    /// order's 1-band limit on engaging binds orders, and this is none.
    pub(super) fn out_of_control_move(&self, s: &State, side: usize) -> i32 {
        let distance = i32::from(s.distance);
        let zone = self.zone(s, 1 - side);
        let step = self.rules.move_cavalry_march_column;
        let target = if distance > zone && zone > 0 { (distance - step).max(zone) } else { distance - step };
        target.max(0)
    }

    /// Blown cavalry whose recall failed loses control: a mob advancing one
    /// move (see [`Assault::out_of_control_move`]); the battery has its last
    /// chance to fire on it before any engagement.
    pub(super) fn lose_control(&self, mut s: State) -> Node<State> {
        s.out_of_control[0] = true;
        let to = self.out_of_control_move(&s, 0);
        Self::advance_to(&mut s, to);
        s.phase = if self.fire_now(&s, to == 0) { BOMBARD } else { LAST_BOMBARD };
        Node::Live(s)
    }

    /// Defending cavalry whose recall failed loses control in its own
    /// Orders phase ("Forced orders", Recall): it advances one move as a
    /// mob towards the attacker (see [`Assault::out_of_control_move`]), its
    /// table edge falling behind it, and a move into contact is engaged in
    /// the defender's Engagement phase, with the defender the phasing unit.
    pub(super) fn defender_loses_control(&self, mut s: State) -> Node<State> {
        s.out_of_control[1] = true;
        let to = self.out_of_control_move(&s, 1);
        s.behind[1] += s.distance - to as i8;
        s.distance = to as i8;
        s.phase = if to == 0 { DEFENDER_ENGAGE_ROLL } else { DEFENDER_CHECK };
        Node::Live(s)
    }

    /// Applies one step: the phase of `s` with `pair` if it wants a roll.
    pub(super) fn step(&self, mut s: State, pair: Option<u32>) -> Node<State> {
        let r = &self.rules;
        match s.phase {
            ATTACKER_THREAT | DEFENDER_THREAT | ATTACKER_DEPLOY_THREAT | DEFENDER_DEPLOY_THREAT => {
                let side = usize::from(s.phase == DEFENDER_THREAT || s.phase == DEFENDER_DEPLOY_THREAT);
                let next = match s.phase {
                    ATTACKER_THREAT => ATTACKER_FORCED,
                    DEFENDER_THREAT => DEFENDER_FORCED,
                    ATTACKER_DEPLOY_THREAT => ATTACKER_ORDERS,
                    // A change of formation on the defender's own order
                    // (counted, or earning a free order: the game's
                    // `defender.orders`) goes back to its Orders phase for
                    // the next; a forced deploy's, with no order counted,
                    // on to its Rally phase.
                    _ if s.orders > 0 || s.free_order => DEFENDER_ORDERS,
                    _ => DEFENDER_CHECK,
                };
                let deployed = s.phase == ATTACKER_DEPLOY_THREAT;
                let node = match pair {
                    None => {
                        s.phase = next;
                        Node::Live(s)
                    }
                    Some(pair) => {
                        if s.huzzahs == 0 {
                            s.tester = side as u8;
                        }
                        self.threat_test(s, pair, None, next)
                    }
                };
                // The attacker acted on its forced order: the battery may fire
                // on it (after the deploy and its threat test).
                match node {
                    Node::Live(mut t) if deployed && t.phase == ATTACKER_ORDERS && self.fire_now(&t, false) => {
                        t.phase = BOMBARD;
                        Node::Live(t)
                    }
                    node => node,
                }
            }
            BOMBARD | LAST_BOMBARD => {
                let Some(pair) = pair else {
                    // The battery holds its fire.
                    s.phase = ENGAGE_ATTACKER_ROLL;
                    return Node::Live(s);
                };
                if s.huzzahs == 0 {
                    // "Each time a battery threatens a target by bombardment, one
                    // smoke marker is placed"; one bombardment is used, and the
                    // battery cannot fire again until the target acts on an order.
                    s.bombardments -= 1;
                    s.fire_ready = false;
                    s.tester = 0;
                }
                let band = self.bombard_band(i32::from(s.distance).max(1));
                let next =
                    if s.distance == 0 || s.phase == LAST_BOMBARD { ENGAGE_ATTACKER_ROLL } else { ATTACKER_ORDERS };
                // The battery's own smoke marker comes from threat_test.
                self.threat_test(s, pair, band, next)
            }
            ATTACKER_FORCED | DEFENDER_FORCED => {
                let side = usize::from(s.phase == DEFENDER_FORCED);
                let next = if side == 0 { ATTACKER_ORDERS } else { DEFENDER_CHECK };
                s.phase = next;
                let Some(pair) = pair else { return Node::Live(s) };
                let recall = side == 1 && s.rare.recall(1) && !s.forced[1];
                s.forced[side] = false;
                let rating = self.first_order_rating(&s, side);
                if side == 0 {
                    // "Forced orders are issued to that unit as the first
                    // order during the Orders phase": by default the next
                    // order to the unit is a successive one
                    // (`forced_order_counts`).
                    s.orders = u8::from(r.forced_order_counts == ForcedOrderCounts::First);
                }
                if recall {
                    // "Forced orders", Recall: obeyed, "the cavalry remains
                    // where it is" and is still blown; failed, "the cavalry
                    // loses control and advances one move in mob formation".
                    if rating > r.order_impossible_at && r.passes(pair_total(pair), rating) {
                        return Node::Live(s);
                    }
                    return self.defender_loses_control(s);
                }
                if rating > r.order_impossible_at && r.passes(pair_total(pair), rating) {
                    // Deploy: a column forms line; a line or column against
                    // cavalry forms square.
                    s.formation[side] =
                        if self.units[1 - side].arm == Arm::Cavalry { Formation::Square } else { Formation::Line };
                    if side == 0 && pair_is_huzzah(pair) {
                        s.free_order = true;
                    }
                    // "Deploying": "A unit that deploys within or into a threat
                    // zone must immediately take a threat test on completing the
                    // change of formation" (its deploy threat phase tests it when
                    // it is in the enemy's zone). The attacker has acted on an
                    // order: the battery may fire on it again.
                    s.phase = if side == 0 { ATTACKER_DEPLOY_THREAT } else { DEFENDER_DEPLOY_THREAT };
                    if side == 0 {
                        s.fire_ready = true;
                    }
                    Node::Live(s)
                } else {
                    // "The unit takes one stagger if the forced order fails", and
                    // the officer can give no further orders.
                    s.strength[2 * side] += r.forced_order_failure_staggers as i8;
                    if side == 0 {
                        s.phase = LAST_BOMBARD;
                    }
                    self.settle(s, side)
                }
            }
            ATTACKER_ORDERS => {
                if s.distance == 0 {
                    s.phase = ENGAGE_ATTACKER_ROLL;
                    return Node::Live(s);
                }
                if s.free_order && self.may_order(&s) {
                    // Huzzah! results: "automatically successfully issue another
                    // order"; then no other orders that turn.
                    s.free_order = false;
                    s.orders = ORDERS_SPENT;
                    let to = self.advance(&s);
                    return self.after_move(s, to);
                }
                let Some(pair) = pair else {
                    // No (further) order. Blown cavalry whose recall order
                    // cannot be given loses control: "If no recall order is
                    // given ... then the recall order fails."
                    if s.rare.recall(0) && s.orders == 0 && self.may_order(&s) {
                        s.orders = 1;
                        return self.lose_control(s);
                    }
                    s.phase = LAST_BOMBARD;
                    return Node::Live(s);
                };
                let rating = self.order_rating(&s, !s.blown[0]).expect("rolled only when an order can be given");
                s.orders = s.orders.saturating_add(1);
                if s.blown[0] {
                    // A recall order: obeyed, the cavalry stays blown where it is
                    // (it has acted on an order: the battery may fire again);
                    // failed, it advances one move out of control.
                    if r.passes(pair_total(pair), rating) {
                        s.fire_ready = true;
                        s.phase = if self.fire_now(&s, false) { BOMBARD } else { LAST_BOMBARD };
                        return Node::Live(s);
                    }
                    return self.lose_control(s);
                }
                if !r.passes(pair_total(pair), rating) {
                    // "An officer who fails when issuing an order can give no further orders that turn."
                    s.phase = LAST_BOMBARD;
                    return Node::Live(s);
                }
                if pair_is_huzzah(pair) {
                    s.free_order = true;
                }
                let to = self.advance(&s);
                self.after_move(s, to)
            }
            ENGAGE_ATTACKER_ROLL => match pair {
                None => {
                    s.phase = ATTACKER_CHECK;
                    Node::Live(s)
                }
                Some(pair) => {
                    s.engage_pair = pair as u8;
                    s.phase = ENGAGE_DEFENDER_ROLL;
                    Node::Live(s)
                }
            },
            ENGAGE_DEFENDER_ROLL => self.engage(s, u32::from(s.engage_pair), pair.expect("the defender rolls")),
            DEFENDER_ENGAGE_ROLL => match pair {
                None => {
                    s.phase = DEFENDER_CHECK;
                    Node::Live(s)
                }
                Some(pair) => {
                    s.engage_pair = pair as u8;
                    s.phase = DEFENDER_ENGAGE_SECOND;
                    Node::Live(s)
                }
            },
            DEFENDER_ENGAGE_SECOND => self.engage(s, pair.expect("the attacker rolls"), u32::from(s.engage_pair)),
            ATTACKER_CHECK | DEFENDER_CHECK => {
                let side = usize::from(s.phase == DEFENDER_CHECK);
                s.phase = if side == 0 { ATTACKER_REFORM } else { DEFENDER_REFORM };
                s.rare.set_due(side, false);
                let Some(pair) = pair else { return Node::Live(s) };
                self.command_check(s, side, pair)
            }
            ATTACKER_REFORM | DEFENDER_REFORM => {
                let side = usize::from(s.phase == DEFENDER_REFORM);
                s.phase = if side == 0 { DEFENDER_THREAT } else { TURN_END };
                if side == 1 && self.units[1].arm == Arm::Artillery {
                    // "Remove smoke": one marker from each unlimbered battery.
                    s.smoke = s.smoke.saturating_sub(1);
                }
                let Some(pair) = pair else { return Node::Live(s) };
                // "Rally, reform and rout", Procedure: rally routing units,
                // compulsory movement of routing units, reform blown and
                // non-routing units, compulsory casualties; one roll each.
                let rating = self.rally_rating(&s, side);
                let total = pair_total(pair);
                let rallied = pair_is_huzzah(pair) || r.passes(total, rating);
                if s.routing[side] {
                    if rallied {
                        // "Routing troops that rally immediately halt facing
                        // the enemy and assume whichever allowable formation they wish."
                        s.routing[side] = false;
                        s.formation[side] = self.rally_formation(side);
                    } else if let Some(end) = self.fall_back(&mut s, side, self.rout_move(side)) {
                        // "Routing units that fail to rally immediately make one
                        // move towards their line of communication at march column speed."
                        return end;
                    }
                }
                if s.blown[side] {
                    if rallied {
                        // "Blown troops that rally immediately lose the blown
                        // status" (and cavalry out of control is under control again).
                        s.blown[side] = false;
                        s.out_of_control[side] = false;
                        s.rare.set_recall(side, false);
                    } else {
                        // "Blown troops that fail to rally remain blown ...
                        // They receive a forced order of recall."
                        s.rare.set_recall(side, true);
                    }
                }
                let staggers = i32::from(s.strength[2 * side]);
                let left = staggers_after_reform(r, rating, staggers, total, pair_is_huzzah(pair));
                s.strength[2 * side] = left as i8;
                // "Compulsory casualties."
                if left > 0 {
                    s.strength[2 * side + 1] += r.compulsory_casualty_kills as i8;
                }
                self.settle(s, side)
            }
            DEFENDER_ORDERS => {
                // No further order (none can be given, or the free order is
                // spent): on to the Rally phase.
                s.phase = DEFENDER_CHECK;
                Node::Live(s)
            }
            _ => Node::Live(s),
        }
    }
}
