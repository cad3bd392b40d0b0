//! Chains of orders in one Orders phase ("Orders and movement"): an officer
//! orders the same unit or command again and again, Down 1 for each
//! successive order, until he fails (and gives no more orders that turn), his
//! effective rating reaches 1 (no order can be issued), a Huzzah! gives him a
//! free order after which that unit takes no more orders this turn, or the
//! player has all the orders he wanted (`order_chain`). A side's phase puts
//! several such officers together with the CinC, whose failure "ends the
//! player's Orders phase immediately" (`orders_phase`).
//!
//! Each roll depends only on its total, and the chain is at most ten rolls,
//! so the exact answers walk the chain roll by roll.
//!
//! The Huzzah! order is the player's choice: "An officer can forgo the
//! opportunity to use the Huzzah! order and roll if he prefers". The
//! `huzzah_order` key says what the player does: `take` it, `forgo` it, or
//! take it only when one sure order is worth at least as many orders as
//! rolling on is expected to give (`best`, worked out backwards from the
//! last wanted order, so it is the policy that maximises the expected
//! number of orders carried out).

use super::{Rules, TOTAL_WAYS, invalid, pair_total};
use crate::catalogue::ScenarioEntry;
use crate::dice::Dice;
use crate::outcome::{Layout, Metric};
use crate::params::{Choice, Param, ParamError, RuleBook, Settings, rules_of};
use crate::scenario::{DynScenario, Scenario};
use std::collections::HashMap;

crate::choice_enum! {
    /// The kind of order ("Orders and movement": all officers can order an advance, retire, manoeuvre or deploy).
    pub enum OrderKind {
        /// Advance: an inspirational officer's Up 1 and the Downs for a failed
        /// last command check and infantry advancing on cavalry apply.
        Advance = "advance",
        /// Retire.
        Retire = "retire",
        /// Manoeuvre.
        Manoeuvre = "manoeuvre",
        /// Deploy.
        Deploy = "deploy",
    }
}

crate::choice_enum! {
    /// What the player does with a Huzzah!'s free order when more orders are wanted.
    pub enum HuzzahOrder {
        /// Take the free order; the unit then takes no more orders this turn.
        Take = "take",
        /// Forgo it and roll for the next order.
        Forgo = "forgo",
        /// Take it when one sure order is worth at least the orders rolling on is expected to give.
        Best = "best",
    }
}

crate::choice_enum! {
    /// How a chain of orders ended.
    pub enum ChainEnd {
        /// Every wanted order was carried out.
        Completed = "completed",
        /// A roll failed: the officer gives no more orders this turn (the CinC's ends the side's phase).
        Failed = "failed",
        /// The effective rating reached the point where no order can be issued.
        NoRoll = "no_roll",
        /// The free Huzzah! order was taken with more orders wanted: the unit takes no more this turn.
        HuzzahOrder = "huzzah_order",
    }
}

/// An officer ordering one unit or command, with the modifiers of
/// "Orders and movement", Procedure, that stay the same through the chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Officer {
    /// Command rating, 6 (Abysmal) to 10 (Excellent), as rolled.
    pub rating: i32,
    /// The CinC: two higher, at most Excellent (playsheet, Command modifiers).
    pub cinc: bool,
    /// The kind of every order in the chain.
    pub kind: OrderKind,
    /// Any unit ordered is in an enemy threat zone (Down 1).
    pub threat_zone: bool,
    /// Broken sub-commands (Down 1 each).
    pub broken: i32,
    /// An isolated sub-command (Down 1).
    pub isolated: bool,
    /// The command failed its last command integrity check (Down 1 on advance orders).
    pub failed_last_check: bool,
    /// Any unit ordered is in dense terrain (Down 1).
    pub dense: bool,
    /// Infantry ordered to advance on cavalry (Down 2 on advance orders).
    pub infantry_on_cavalry: bool,
    /// All units ordered are in command (Up 1).
    pub in_command: bool,
    /// The officer is attached (Up 1).
    pub attached: bool,
    /// The officer is inspirational (Up 1 on advance orders).
    pub inspirational: bool,
    /// Net further Ups minus Downs.
    pub shifts: i32,
    /// "Scaling a game": standard distances with reduced units, so each
    /// successive order after an advance or retire is Down 2.
    pub scaled: bool,
}

impl Officer {
    /// An officer of `rating` with no modifiers.
    pub fn new(rating: i32) -> Officer {
        Officer {
            rating,
            cinc: false,
            kind: OrderKind::Advance,
            threat_zone: false,
            broken: 0,
            isolated: false,
            failed_last_check: false,
            dense: false,
            infantry_on_cavalry: false,
            in_command: false,
            attached: false,
            inspirational: false,
            shifts: 0,
            scaled: false,
        }
    }

    /// The effective command rating of the first order (no successive orders
    /// yet): "The net result of all modifiers is applied", a simple plus and
    /// minus ("Modifiers: Ups and Downs").
    pub fn first_rating(&self, rules: &Rules) -> i32 {
        // Playsheet, Command modifiers: "The CinC has a command rating two
        // higher than rolled, up to a maximum of Excellent".
        let mut rating = if self.cinc {
            (self.rating + rules.command_cinc_bonus).min(rules.command_cinc_maximum.max(self.rating))
        } else {
            self.rating
        };
        let advance = self.kind == OrderKind::Advance;
        let down = |applies: bool, by: i32| if applies { by } else { 0 };
        rating -= down(self.threat_zone, rules.order_threat_zone_down);
        rating -= self.broken * rules.order_broken_subcommand_down;
        rating -= down(self.isolated, rules.order_isolated_down);
        rating -= down(self.failed_last_check && advance, rules.order_failed_check_advance_down);
        rating -= down(self.dense, rules.order_dense_terrain_down);
        rating -= down(self.infantry_on_cavalry && advance, rules.order_infantry_advancing_on_cavalry_down);
        rating += down(self.in_command, rules.order_in_command_up);
        rating += down(self.attached, rules.order_officer_attached_up);
        rating += down(self.inspirational && advance, rules.order_inspirational_advance_up);
        rating + self.shifts
    }

    /// The Down for each order already given to the unit this turn.
    pub fn successive_down(&self, rules: &Rules) -> i32 {
        if self.scaled && matches!(self.kind, OrderKind::Advance | OrderKind::Retire) {
            rules.order_scaled_move_down
        } else {
            rules.order_successive_down
        }
    }

    fn validate(&self, prefix: &str) -> Result<(), ParamError> {
        if !(6..=10).contains(&self.rating) {
            return Err(invalid(format!("{prefix}rating"), format!("{} is outside 6 (Abysmal) to 10", self.rating)));
        }
        if !(0..=10).contains(&self.broken) {
            return Err(invalid(format!("{prefix}broken"), "broken sub-commands run from 0 to 10"));
        }
        if !(-10..=10).contains(&self.shifts) {
            return Err(invalid(format!("{prefix}shifts"), "shifts run from -10 to 10"));
        }
        // "Command radius": "An individual unit attached to any officer is
        // always in command", so an attached officer with `in_command` unset
        // contradicts the rules (the Up 1 for being in command would be lost).
        if self.attached && !self.in_command {
            return Err(invalid(
                format!("{prefix}in_command"),
                "a unit with its officer attached is always in command: set in_command too",
            ));
        }
        if self.infantry_on_cavalry && self.kind != OrderKind::Advance {
            return Err(invalid(format!("{prefix}infantry_on_cavalry"), "applies to advance orders only"));
        }
        Ok(())
    }

    /// The keys of [`Officer::params`]; `cinc` where the scenario has that key.
    fn from_settings(settings: &Settings, cinc: bool) -> Officer {
        Officer {
            rating: settings.int("rating") as i32,
            cinc,
            kind: settings.choice("order"),
            threat_zone: settings.bool("threat_zone"),
            broken: settings.int("broken") as i32,
            isolated: settings.bool("isolated"),
            failed_last_check: settings.bool("failed_last_check"),
            dense: settings.bool("dense"),
            infantry_on_cavalry: settings.bool("infantry_on_cavalry"),
            in_command: settings.bool("in_command"),
            attached: settings.bool("attached"),
            inspirational: settings.bool("inspirational"),
            shifts: settings.int("shifts") as i32,
            scaled: settings.bool("scaled"),
        }
    }

    fn params() -> Vec<Param> {
        vec![
            Param::int("rating", "command rating: 6 Abysmal, 7 Poor, 8 Average, 9 Skilful, 10 Excellent", 8, 6, 10),
            Param::boolean("cinc", "the officer is the CinC (rating two higher, at most Excellent)", false),
            Param::choice("order", "the kind of every order: advance, retire, manoeuvre or deploy", OrderKind::Advance),
            Param::boolean("threat_zone", "a unit ordered is in an enemy threat zone (Down 1)", false),
            Param::int("broken", "broken sub-commands (Down 1 each)", 0, 0, 10),
            Param::boolean("isolated", "an isolated sub-command (Down 1)", false),
            Param::boolean("failed_last_check", "failed its last command integrity check (Down 1 to advance)", false),
            Param::boolean("dense", "a unit ordered is in dense terrain (Down 1)", false),
            Param::boolean("infantry_on_cavalry", "infantry ordered to advance on cavalry (Down 2)", false),
            Param::boolean("in_command", "all units ordered are in command (Up 1)", false),
            Param::boolean(
                "attached",
                "the officer is attached (Up 1; needs in_command: an attached unit is always in command)",
                false,
            ),
            Param::boolean("inspirational", "an inspirational officer (Up 1 to advance)", false),
            Param::int("shifts", "net further Ups minus Downs (a simple plus or minus)", 0, -10, 10),
            Param::boolean(
                "scaled",
                "Scaling a game: each successive order after an advance or retire is Down 2, not 1",
                false,
            ),
        ]
    }
}

/// The end of one chain: orders carried out, how it ended and whether a
/// Huzzah! was rolled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChainResult {
    /// Orders carried out, the free Huzzah! order included.
    pub orders: u32,
    /// How the chain ended.
    pub end: ChainEnd,
    /// A Huzzah! was rolled.
    pub huzzah: bool,
}

/// What one order roll does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Roll {
    Fails,
    Succeeds,
    Huzzah,
}

/// One officer's chain of orders to one unit or command.
#[derive(Clone, Debug)]
pub struct Chain {
    /// The effective rating of each wanted order (before the chain stops).
    ratings: Vec<i32>,
    /// `take[j]`: a Huzzah! on the order that brings the count to `j` takes
    /// the free order (for `j` below the wanted number).
    take: Vec<bool>,
    rules: Rules,
}

impl Chain {
    /// An officer wanting `wanted` orders (1-10) for one unit or command.
    pub fn new(rules: &Rules, officer: &Officer, wanted: u32, policy: HuzzahOrder) -> Chain {
        let first = officer.first_rating(rules);
        let down = officer.successive_down(rules);
        // "Down 1 for each successive order issued to the same unit or command group".
        let ratings: Vec<i32> = (0..wanted as i32).map(|i| first - i * down).collect();
        let mut chain = Chain { ratings, take: vec![false; wanted as usize + 1], rules: rules.clone() };
        // Backwards: the expected orders still to come from rolling for order
        // `i` on, with the Huzzah! decisions already made for later orders.
        let wanted = wanted as usize;
        let mut expected = vec![0.0; wanted + 1];
        for i in (0..wanted).rev() {
            let [_, success, huzzah] = chain.roll_chances(i);
            let after_huzzah = if i + 1 == wanted {
                0.0
            } else {
                let take = match policy {
                    HuzzahOrder::Take => true,
                    HuzzahOrder::Forgo => false,
                    HuzzahOrder::Best => 1.0 >= expected[i + 1],
                };
                chain.take[i + 1] = take;
                if take { 1.0 } else { expected[i + 1] }
            };
            expected[i] = success * (1.0 + expected[i + 1]) + huzzah * (1.0 + after_huzzah);
        }
        chain
    }

    /// The orders wanted.
    pub fn wanted(&self) -> u32 {
        self.ratings.len() as u32
    }

    /// The effective rating of order `i` (0 the first).
    pub fn rating(&self, i: usize) -> i32 {
        self.ratings[i]
    }

    /// "An order cannot be issued if an officer's effective command rating reaches 1."
    fn possible(&self, i: usize) -> bool {
        self.ratings[i] > self.rules.order_impossible_at
    }

    /// Order `i`'s result on a roll of `total`.
    fn roll(&self, i: usize, total: i32) -> Roll {
        // "The order succeeds if the result is less than or equal to the
        // officer's effective command rating. An order always fails on a roll
        // of 11 or 12."
        if !self.rules.passes(total, self.ratings[i]) {
            Roll::Fails
        } else if total == 2 {
            Roll::Huzzah
        } else {
            Roll::Succeeds
        }
    }

    /// The chances of failing, succeeding and rolling Huzzah! on order `i`
    /// (all 0 where it cannot be issued).
    fn roll_chances(&self, i: usize) -> [f64; 3] {
        let mut chances = [0.0; 3];
        if self.possible(i) {
            for (index, &ways) in TOTAL_WAYS.iter().enumerate() {
                chances[self.roll(i, index as i32 + 2) as usize] += f64::from(ways) / 36.0;
            }
        }
        chances
    }

    /// What happens after a Huzzah! on order `i`: the result if the chain
    /// stops there, or `None` if it rolls on.
    fn after_huzzah(&self, i: usize) -> Option<ChainResult> {
        let done = i as u32 + 1;
        if done == self.wanted() {
            Some(ChainResult { orders: done, end: ChainEnd::Completed, huzzah: true })
        } else if self.take[done as usize] {
            // "Any officer who gets Huzzah! carries out the initial order and
            // can then automatically successfully issue another order of any
            // type to the same command or unit. After completing a Huzzah!
            // order, a group or individual unit can receive no other orders
            // that turn."
            let orders = done + 1;
            let end = if orders == self.wanted() { ChainEnd::Completed } else { ChainEnd::HuzzahOrder };
            Some(ChainResult { orders, end, huzzah: true })
        } else {
            None
        }
    }

    /// One chain, rolled.
    pub fn sample(&self, dice: &mut Dice) -> ChainResult {
        let mut huzzah = false;
        for i in 0..self.ratings.len() {
            if !self.possible(i) {
                return ChainResult { orders: i as u32, end: ChainEnd::NoRoll, huzzah };
            }
            match self.roll(i, pair_total(dice.two_d6_index())) {
                Roll::Fails => return ChainResult { orders: i as u32, end: ChainEnd::Failed, huzzah },
                Roll::Succeeds => {}
                Roll::Huzzah => {
                    huzzah = true;
                    if let Some(result) = self.after_huzzah(i) {
                        return result;
                    }
                }
            }
        }
        ChainResult { orders: self.wanted(), end: ChainEnd::Completed, huzzah }
    }

    /// Every end of the chain with its chance.
    pub fn exact(&self) -> Vec<(ChainResult, f64)> {
        let mut ends: HashMap<ChainResult, f64> = HashMap::new();
        // The chance of reaching order `i` with or without a Huzzah! so far.
        let mut reach = [1.0, 0.0];
        for i in 0..self.ratings.len() {
            let mut next = [0.0; 2];
            for (had, &p) in reach.iter().enumerate() {
                if p == 0.0 {
                    continue;
                }
                let huzzah = had == 1;
                if !self.possible(i) {
                    *ends.entry(ChainResult { orders: i as u32, end: ChainEnd::NoRoll, huzzah }).or_default() += p;
                    continue;
                }
                let [fail, success, huzzah_chance] = self.roll_chances(i);
                *ends.entry(ChainResult { orders: i as u32, end: ChainEnd::Failed, huzzah }).or_default() += p * fail;
                next[had] += p * success;
                match self.after_huzzah(i) {
                    Some(result) => *ends.entry(result).or_default() += p * huzzah_chance,
                    None => next[1] += p * huzzah_chance,
                }
            }
            reach = next;
        }
        for (had, &p) in reach.iter().enumerate() {
            if p > 0.0 {
                let result = ChainResult { orders: self.wanted(), end: ChainEnd::Completed, huzzah: had == 1 };
                *ends.entry(result).or_default() += p;
            }
        }
        ends.into_iter().filter(|&(_, p)| p > 0.0).collect()
    }
}

/// The `order_chain` scenario: one officer's chain of orders.
#[derive(Clone, Debug)]
pub struct OrderChain {
    chain: Chain,
    layout: Layout,
}

impl OrderChain {
    /// An officer wanting `wanted` orders (1-10) for one unit or command.
    pub fn new(rules: &Rules, officer: &Officer, wanted: u32, policy: HuzzahOrder) -> Result<Self, ParamError> {
        officer.validate("")?;
        if !(1..=10).contains(&wanted) {
            return Err(invalid("orders", format!("{wanted} is outside 1 to 10 orders")));
        }
        let metrics = vec![
            Metric::integer("orders", "orders carried out, a free Huzzah! order included", 0, i64::from(wanted)),
            Metric::boolean("completed", "whether every wanted order was carried out"),
            Metric::categories(
                "ended",
                "how the chain ended: completed, failed (no more orders from this officer; a CinC's ends the side's phase), no_roll (effective rating 1 or less) or huzzah_order (the free order taken, the unit takes no more)",
                ChainEnd::NAMES,
            ),
            Metric::boolean("huzzah", "whether a Huzzah! was rolled"),
        ];
        Ok(OrderChain { chain: Chain::new(rules, officer, wanted, policy), layout: Layout::new(metrics) })
    }

    /// The chain.
    pub fn chain(&self) -> &Chain {
        &self.chain
    }

    fn code(&self, result: ChainResult) -> u64 {
        self.layout.encode(&[
            i64::from(result.orders),
            i64::from(result.orders == self.chain.wanted()),
            result.end as i64,
            i64::from(result.huzzah),
        ])
    }
}

impl Scenario for OrderChain {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn sample(&self, dice: &mut Dice) -> u64 {
        self.code(self.chain.sample(dice))
    }

    fn has_exact(&self) -> bool {
        true
    }

    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        Some(self.chain.exact().into_iter().map(|(result, p)| (self.code(result), p)).collect())
    }
}

crate::choice_enum! {
    /// When the CinC gives his orders in the side's phase.
    pub enum CincTurn {
        /// Before the other officers: his failure ends the phase for them.
        First = "first",
        /// After them: his failure costs only his own orders.
        Last = "last",
    }
}

/// The `orders_phase` scenario: `commands` officers each ordering their own
/// command, and the CinC ordering the unit he is attached to (or a command he
/// supersedes), first or last. "A side's Orders phase ends immediately if the
/// CinC fails a command roll"; the other officers' failures stop only
/// themselves. Each command and the CinC's unit want the same number of
/// orders as set.
#[derive(Clone, Debug)]
pub struct OrdersPhase {
    commands: u32,
    command: Chain,
    cinc: Option<Chain>,
    turn: CincTurn,
    layout: Layout,
}

impl OrdersPhase {
    /// The phase: `commands` (1-8) officers like `officer`, wanting `orders`
    /// each; the CinC (`cinc.cinc` is set here) wanting `cinc_orders` (0: he
    /// gives none), giving his orders at `turn`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        rules: &Rules,
        commands: u32,
        officer: &Officer,
        orders: u32,
        cinc: &Officer,
        cinc_orders: u32,
        turn: CincTurn,
        policy: HuzzahOrder,
    ) -> Result<Self, ParamError> {
        officer.validate("")?;
        cinc.validate("cinc_")?;
        if !(1..=8).contains(&commands) {
            return Err(invalid("commands", format!("{commands} is outside 1 to 8 commands")));
        }
        if !(1..=10).contains(&orders) {
            return Err(invalid("orders", format!("{orders} is outside 1 to 10 orders")));
        }
        if cinc_orders > 10 {
            return Err(invalid("cinc_orders", format!("{cinc_orders} is outside 0 to 10 orders")));
        }
        let cinc_officer = Officer { cinc: true, ..*cinc };
        let cinc = (cinc_orders > 0).then(|| Chain::new(rules, &cinc_officer, cinc_orders, policy));
        let most = i64::from(commands * orders + cinc_orders);
        let metrics = vec![
            Metric::integer(
                "commands_completed",
                "commands (not the CinC's) that carried out every wanted order",
                0,
                i64::from(commands),
            ),
            Metric::boolean("cinc_completed", "whether the CinC's unit carried out every wanted order"),
            Metric::integer("orders", "orders carried out by all, free Huzzah! orders included", 0, most),
            Metric::boolean(
                "cut_short",
                "whether the CinC failed before the other officers gave their orders, ending the phase",
            ),
        ];
        Ok(OrdersPhase {
            commands,
            command: Chain::new(rules, officer, orders, policy),
            cinc,
            turn,
            layout: Layout::new(metrics),
        })
    }

    fn code(&self, completed: u32, orders: u32, cinc_completed: bool, cut_short: bool) -> u64 {
        self.layout.encode(&[i64::from(completed), i64::from(cinc_completed), i64::from(orders), i64::from(cut_short)])
    }
}

impl Scenario for OrdersPhase {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn sample(&self, dice: &mut Dice) -> u64 {
        let commands = |dice: &mut Dice| {
            let (mut completed, mut orders) = (0, 0);
            for _ in 0..self.commands {
                let result = self.command.sample(dice);
                completed += u32::from(result.orders == self.command.wanted());
                orders += result.orders;
            }
            (completed, orders)
        };
        let Some(cinc) = &self.cinc else {
            let (completed, orders) = commands(dice);
            return self.code(completed, orders, false, false);
        };
        if self.turn == CincTurn::Last {
            let (completed, orders) = commands(dice);
            let own = cinc.sample(dice);
            return self.code(completed, orders + own.orders, own.orders == cinc.wanted(), false);
        }
        let own = cinc.sample(dice);
        let own_completed = own.orders == cinc.wanted();
        if own.end == ChainEnd::Failed {
            // "The player's Orders phase ends immediately if the CinC fails an order."
            return self.code(0, own.orders, own_completed, true);
        }
        let (completed, orders) = commands(dice);
        self.code(completed, orders + own.orders, own_completed, false)
    }

    fn has_exact(&self) -> bool {
        true
    }

    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        // The commands' (completed, orders) by convolution over the commands.
        let one: Vec<((u32, u32), f64)> = self
            .command
            .exact()
            .into_iter()
            .map(|(r, p)| ((u32::from(r.orders == self.command.wanted()), r.orders), p))
            .collect();
        let mut commands: HashMap<(u32, u32), f64> = HashMap::from([((0, 0), 1.0)]);
        for _ in 0..self.commands {
            let mut next = HashMap::new();
            for (&(c, o), &p) in &commands {
                for &((dc, doo), q) in &one {
                    *next.entry((c + dc, o + doo)).or_insert(0.0) += p * q;
                }
            }
            commands = next;
        }
        let mut codes: HashMap<u64, f64> = HashMap::new();
        let Some(cinc) = &self.cinc else {
            return Some(commands.into_iter().map(|((c, o), p)| (self.code(c, o, false, false), p)).collect());
        };
        for (own, q) in cinc.exact() {
            let own_completed = own.orders == cinc.wanted();
            if self.turn == CincTurn::First && own.end == ChainEnd::Failed {
                *codes.entry(self.code(0, own.orders, own_completed, true)).or_default() += q;
                continue;
            }
            for (&(c, o), &p) in &commands {
                *codes.entry(self.code(c, o + own.orders, own_completed, false)).or_default() += p * q;
            }
        }
        Some(codes.into_iter().collect())
    }
}

fn build_chain(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    Ok(Box::new(OrderChain::new(
        rules_of::<Rules>(rules),
        &Officer::from_settings(settings, settings.bool("cinc")),
        settings.int("orders") as u32,
        settings.choice("huzzah_order"),
    )?))
}

fn build_phase(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    let officer = Officer::from_settings(settings, false);
    // The CinC's own modifiers are his attachment and his shifts; the order
    // kind and the scaling rule are the side's.
    // "Command radius": "An individual unit attached to any officer is always
    // in command": the CinC attached to the unit he orders has it in command
    // (Up 1), as well as attached (Up 1).
    let cinc = Officer {
        attached: settings.bool("cinc_attached"),
        in_command: settings.bool("cinc_attached"),
        shifts: settings.int("cinc_shifts") as i32,
        kind: officer.kind,
        scaled: officer.scaled,
        ..Officer::new(settings.int("cinc_rating") as i32)
    };
    Ok(Box::new(OrdersPhase::new(
        rules_of::<Rules>(rules),
        settings.int("commands") as u32,
        &officer,
        settings.int("orders") as u32,
        &cinc,
        settings.int("cinc_orders") as u32,
        settings.choice("cinc_goes"),
        settings.choice("huzzah_order"),
    )?))
}

fn huzzah_param() -> Param {
    Param::choice(
        "huzzah_order",
        "the player's use of a Huzzah!'s free order when more are wanted: take, forgo, or best (most orders expected)",
        HuzzahOrder::Take,
    )
}

/// The `order_chain` and `orders_phase` scenarios.
pub fn entries() -> Vec<ScenarioEntry> {
    let mut chain = Officer::params();
    chain.push(Param::int("orders", "orders wanted for the same unit or command this turn", 3, 1, 10));
    chain.push(huzzah_param());
    let mut phase: Vec<Param> = Officer::params().into_iter().filter(|p| p.name != "cinc").collect();
    phase.extend([
        Param::int("commands", "commands ordered by their own officers (like the keys above)", 3, 1, 8),
        Param::int("orders", "orders each command wants this turn", 1, 1, 10),
        Param::int("cinc_rating", "the CinC's command rating as rolled (two higher in play, at most 10)", 8, 6, 10),
        Param::int("cinc_orders", "orders the CinC wants for the unit he leads (0: none)", 1, 0, 10),
        Param::boolean(
            "cinc_attached",
            "the CinC is attached to the unit he orders (Up 1, and Up 1 in command: an attached unit is always in command)",
            true,
        ),
        Param::int(
            "cinc_shifts",
            "the CinC's net further Ups minus Downs (the keys above are the commands')",
            0,
            -10,
            10,
        ),
        Param::choice("cinc_goes", "when the CinC gives his orders: first or last", CincTurn::First),
        huzzah_param(),
    ]);
    vec![
        ScenarioEntry {
            name: "order_chain",
            summary: "One officer orders the same unit again and again (Down 1 each) until he fails, cannot, or has all he wanted.",
            params: chain,
            build: build_chain,
        },
        ScenarioEntry {
            name: "orders_phase",
            summary: "A side's Orders phase: officers ordering their commands and the CinC, whose failure ends the phase.",
            params: phase,
            build: build_phase,
        },
    ]
}
