//! The assault on the decision model ([`crate::game`]): the same turn, step
//! by step, as the fixed-policy chain of [`Assault`], with the players'
//! choices made named decisions.
//!
//! A turn is many steps ([`Game::starts_turn`]): each step takes at most one
//! decision and one roll of 2D6 (the engagement, both sides' rolls), then
//! runs the phases that need neither up to the next that does. The solver
//! therefore merges equal situations inside a turn (after two orders or
//! after one and a Huzzah!, say) rather than enumerating every sequence of
//! a turn's rolls; and each roll (with a chain of Huzzah!es after it, or
//! the other side's engagement roll) is one grouped draw of the places it
//! leads to, the last act of its step ([`Fate::draw_last`]: the places are
//! where the step leads, worked out once, and the step is not replayed for
//! each). Best play and the heuristics are
//! solved up to [`BEST_TURN_LIMIT`] turns (60; the default 30 take about
//! 1.9 s), and sampled beyond, `best` playing `bold`; an assault on a battery,
//! whose states never level off, only up to [`BATTERY_BEST_TURN_LIMIT`] turns
//! under best play and [`BATTERY_TURN_LIMIT`] under the heuristics.
//!
//! The decisions:
//!
//! - `advance` (attacker), each time its officer may give it an order in its
//!   Orders phase ("Orders and movement"), a Huzzah!'s free order included
//!   ("automatically successfully issue another order of any type"), the
//!   orders "Advance, Retire, Manoeuvre, Deploy" of "Sequence of play":
//!   - halt (give no further order this turn);
//!   - advance one move, the full allowance, stopping on entering the
//!     defender's threat zone, and engaging only from within its own zone or
//!     1 band ("Advance");
//!   - advance short of that ("A unit that receives an individual advance
//!     order can move forwards up to its full movement allowance"): any
//!     whole number of bands, offered as the nearest stop of each situation
//!     a stop can be in that neither halting nor the full advance reaches
//!     (in or out of the defender's threat zone, the defender in or out of
//!     the attacker's, the next full advance reaching contact or not, the
//!     battery's range band, infantry's Down 2 for advancing on cavalry):
//!     two stops in the same situation differ only in the bands behind the
//!     unit to its table edge, and the nearer is taken as the one a player
//!     would order. Cavalry in line 6 or 7 bands from a line may so stop at
//!     4, outside the line's 3-band zone with the line inside its own
//!     5-band zone, as it can from 9 or 10 bands with a full move; before,
//!     only starts 4-5 bands apart (mod 5) could, and the defender's win
//!     chance zig-zagged with the start distance (the sweeps below);
//!   - deploy ("Deploy": "Units can change from any allowable formation
//!     into another"): a column to line, and a square (formed by a forced
//!     order) back into line or column;
//!   - with the `attacker.retire` key, retire ("Retire": "up to half its
//!     full movement allowance", straight back, keeping its facing; in
//!     whole bands: a column 2, a line 1, cavalry in line 2, in column 3, a
//!     square none; never off the table), to the nearest stop of each
//!     situation other than where the unit stands;
//!   - with the `attacker.every_order` key, every whole number of bands for
//!     an advance or a retire, and every allowable formation (a line to
//!     column, cavalry between line and column, infantry into square of its
//!     own accord). March column and open order are not modelled: the
//!     assault's units have no road and no open-order ability, and a march
//!     column moves no further than a column while disadvantaged and
//!     without a threat zone.
//!
//!   Each order is rolled at its officer's rating ([`Assault::order_rating`]:
//!   an advance, partial or full, with the advance's modifiers, a deploy or
//!   a retire without them), Down 1 for each order before it this turn, and
//!   is offered when it can be rolled (a deploy may be offered where an
//!   infantry advance on cavalry, Down 2, cannot); a deploy completed in a
//!   threat zone is followed by its threat test ("Deploying"). The keys are
//!   off by default for the solve budget (the default assault, a column on
//!   a line, has the same graph and law as before the partial advances and
//!   re-forming squares: its partial stops are all in situations a halt or
//!   a full advance reaches, and it forms no square). With `attacker.retire`
//!   the default assault's exact solve takes 1.4 times the CPU (about 2.7 s
//!   against 2.0 s on a quiet machine; 665 MB against 540 MB), and the
//!   attacker's chance under the default purpose rises from 58.8% to 65.8%
//!   (it retires out of the line's zone to rally and re-forms its attack);
//!   60 turns solve in 682 MB; an assault on a battery under best play is
//!   then solved for 1 turn (2 pass the budget). With `attacker.every_order`
//!   the states within a turn multiply and 3 turns pass the state budget: it
//!   is solved up to [`EVERY_ORDER_TURN_LIMIT`] turns. Offering infantry
//!   facing cavalry a square of its own accord by default took the assault
//!   on cavalry past the budget at 3 turns; it is `every_order`'s.
//!   Bold always advances a full move (halting when it cannot); cautious
//!   re-forms a square into its starting formation out of the defender's
//!   zone, or within it where the re-formed unit's next advance makes
//!   contact, and else advances in square (a band a move, keeping the
//!   square's Up 2 against cavalry); in any other formation it advances
//!   only to the edge of the defender's threat zone, or into contact, and
//!   never deploys. (Re-forming at once inside the cavalry's zone, tried
//!   first, left the column to its threat tests: the defender won 99.4%.)
//!   A cautious column on cavalry (`defender.arm=cavalry
//!   attacker.policy=cautious`, 30 turns, sampled 20,000, seed 1, the
//!   defender bold past the solver's 3 turns) won 0% and lost 70.8% with no
//!   engagement, its forced square neither re-forming nor moving; it now
//!   creeps up in square, re-forms and engages: 7.0% and 92.2% (`stand`),
//!   infantry charging cavalry from 3 bands losing most engagements.
//! - `pursue` (attacker), the same order while the defender is a routing
//!   mob: hold the ground it won, or advance on the mob (a mob has no threat
//!   zone and engages on its disadvantaged rating, "Mob"). The fixed chain
//!   holds; bold pursues, cautious holds.
//! - `bombard` (defender, a battery), at each chance it has to bombard
//!   ("Artillery bombardment": once in each of the attacker's Orders phases,
//!   and once more after each order the attacker acts on): fire, or hold
//!   (keeping the bombardment; it may fire at a later chance the same
//!   phase, having not yet bombarded). Bold fires at every chance (the old
//!   `defender.fire = now`); cautious only at short range (the old `short`).
//! - `defend` (defender), its own order in its own turn ("Sequence of
//!   play": the phasing player issues orders, "Advance, Retire, Manoeuvre,
//!   Deploy") when no forced order is pending and it is neither a mob,
//!   blown, out of control, in contact nor a battery: stand, or (infantry
//!   facing cavalry and not in square) form square. With the scenario's
//!   `defender.orders` key also: retire half its move in whole bands
//!   ("Retire": "up to half its full movement allowance"; a line 1 band, a
//!   column 2), offered when that takes it out of the attacker's threat
//!   zone; re-form line ("Units can change from any allowable formation
//!   into another"); and advance to engage ("An advance order is the only
//!   order that can be used to make contact"), offered when the move makes
//!   contact (from within its own zone or 1 band), engaged with the
//!   defender as the phasing unit. Each is rolled at its officer's rating
//!   as printed ([`Assault::defender_order_rating`]: in its first order's
//!   modifiers, and on an advance the Down 2 for infantry advancing on
//!   cavalry, the failed check's Down 1 and the inspirational Up 1); a
//!   failed order does nothing (no forced order's stagger) and ends its
//!   orders that turn; a change of formation in the attacker's zone is
//!   followed by its threat test. With the key, an order that passes is
//!   followed by the next decision, as the attacker's ("Successive orders":
//!   "An officer can repeatedly order the same unit or command until he
//!   either fails an order or moves on"), each Down 1 for every order the
//!   defender was given before it that turn (its own; a turn with a forced
//!   order gives it none of its own, as before), and a Huzzah! by a free
//!   order ("automatically successfully issue another order of any type":
//!   every order open, no roll), after which it is given no other that turn
//!   (the test
//!   `the_defenders_successive_orders_are_each_down_one_and_a_huzzah_gives_a_free_order`
//!   works one through by hand). Without the key, forming square against
//!   cavalry is the defender's one order, as before. Bold stands (the
//!   chain's defender), cautious forms square against cavalry and else
//!   stands. The key is off by default: the defender's retires and
//!   advances move its table edge, so the turn starts stop levelling off,
//!   and the default 30 turns pass the solver's budget (see
//!   [`DEFENDER_ORDERS_TURN_LIMIT`]); with it on, up to 3 turns are solved
//!   and longer assaults sampled.
//!
//! The start distance: over the default 30 turns under best play (purpose
//! `stand`, as `manoeuvre`) the attacker wins 39.6% and the defender 27.7%
//! from 1 to 3 bands (inside the line's 3-band threat zone, where the column
//! starts under threat tests), and 47.3% and 19.1% from 4 bands on, to
//! within 0.1 point however far (the column halts where it likes and
//! advances when ready); under the default `attack` purpose 50.8% from 1-3
//! bands and 58.8% from 4-16. The one step, 3 to 4 bands, is under 10
//! points; over 3 turns the largest is the defender's 14.1% to 5.0% at the
//! same place (tests in `tests/huzzah/assault_game.rs`). With
//! `attacker.retire` (measured the same way): attack 53.9%, 56.1%, 58.3%
//! from 1, 2, 3 bands and 65.8-65.9% from 4 to 16; stand 44.6/27.5,
//! 46.9/25.5, 47.3/19.4 and 55.7/13.9-14.0 (the largest step, 3 to 4 bands,
//! 7.6 points).
//!
//! Cavalry in line attacking a Trained line, 30 turns, best play, by start
//! distance (`purposes huzzah assault attacker.arm=cavalry
//! attacker.formation=line distance=D`; attacker's and defender's wins, in
//! percent):
//!
//! | D | attack, before | attack, now | stand, before | stand, now |
//! | --- | --- | --- | --- | --- |
//! | 4-5 | 63.4 / 36.6 | 66.3 / 33.7 | 54.6 / 0.3 | 63.7 / 4.9 |
//! | 6-7 | 61.0 / 39.0 | 64.8 / 35.2 | 56.9 / 12.0 | 61.9 / 4.9 |
//! | 8 | 62.1 / 37.9 | 65.1 / 34.9 | 58.7 / 8.9 | 62.1 / 4.4 |
//! | 9-10 | 60.0 / 40.0 | 62.2 / 37.8 | 52.9 / 0.3 | 58.5 / 3.0 |
//! | 11-12 | 56.1 / 43.9 | 60.0 / 40.0 | 51.2 / 12.7 | 55.9 / 3.0 |
//!
//! Before the partial advance the defender's chance under `stand` zig-zagged
//! with period 5, the cavalry's move: only from 4-5 or 9-10 bands could the
//! cavalry stop at 4-5, outside the line's 3-band zone with the line inside
//! its own 5-band zone, and threaten it there turn after turn; from 6-7 or
//! 11-12 a full advance ran into the line's zone. Now every start reaches
//! that stop, and the chances fall steadily with the distance (fewer turns
//! left to fight), but for one reversal of 0.3 point at 8 bands, which the
//! table edge explains: the attacker's edge is its `edge` key's 16 bands
//! behind its start, so from farther off it stands farther from its own
//! edge when it fights, and routs off the table less often.
//!
//! Everything else is the chain's: the same phases, rolls and readings
//! (see [`Assault`] and the ruleset note), blown cavalry's recall orders,
//! defending cavalry (which the rules give no countercharge: it stands),
//! command checks and skirmisher superiority included. Seizing the flag on
//! a command check, a player's choice, is not modelled.

use super::limits::{
    BATTERY_BEST_TURN_LIMIT, BATTERY_TURN_LIMIT, BEST_TURN_LIMIT, BRIGADE_TURN_LIMIT, CAVALRY_TURN_LIMIT,
    DEFENDER_ORDERS_TURN_LIMIT, EVERY_ORDER_TURN_LIMIT,
};
use super::{
    ATTACKER_DEPLOY_THREAT, ATTACKER_ORDERS, Assault, BOMBARD, DEFENDER_CHECK, DEFENDER_DEPLOY_THREAT,
    DEFENDER_ENGAGE_ROLL, DEFENDER_FORCED, DEFENDER_ORDERS, ENGAGE_ATTACKER_ROLL, Fire, Formation, LAST_BOMBARD,
    ORDERS_SPENT, Packed, State, TURN_END, Taken, pair_of_total,
};
use crate::dice::Dice;
use crate::game::{ATTACKER, DEFENDER, Decision, End, Fate, Game, Law, Plan, Policy};
use crate::outcome::Layout;
use crate::rulesets::huzzah::standoff::{Node, TOTALS};
use crate::rulesets::huzzah::{Arm, pair_is_huzzah, pair_total};

/// The attacker's order, while the defender stands.
pub static ADVANCE: Decision = Decision {
    name: "advance",
    who: "attacker",
    doc: "Each time the attacker's officer may give it an order (Orders and movement; a Huzzah!'s free order \
          included): halt; advance (Advance: up to its full movement allowance, stopped on entering the \
          defender's threat zone), a full move or any whole number of bands short of it; deploy to any other \
          allowable formation (Deploy: infantry line, column or square, cavalry line or column); or retire any \
          whole number of bands up to half its move (Retire), keeping its facing.",
    options: "halt; advance one move; deploy to line; deploy to column; form square; advance N bands (short of \
              a full move); retire N bands",
};

/// The attacker's order while the defender routs.
pub static PURSUE: Decision = Decision {
    name: "pursue",
    who: "attacker",
    doc: "Each time the attacker may give an order while the defender is a routing mob: hold the ground it won, \
          or advance on the mob (which has no threat zone and fights disadvantaged).",
    options: "hold the ground; pursue",
};

/// The battery's choice at each chance to bombard.
pub static BOMBARD_DECISION: Decision = Decision {
    name: "bombard",
    who: "defender",
    doc: "A battery, at each chance to bombard in the attacker's Orders phase (Artillery bombardment: once a \
          phase and once more after each order the attacker acts on): fire now, or hold for a later chance.",
    options: "fire; hold",
};

/// The defender's own order in its Orders phase.
pub static DEFEND: Decision = Decision {
    name: "defend",
    who: "defender",
    doc: "The defender's order in its own Orders phase (Sequence of play; Orders and movement), with no forced \
          order pending and neither routing, blown nor in contact: stand (no order), retire half a move out of the \
          attacker's threat zone, form square (infantry facing cavalry), re-form line, or advance to engage (from \
          within its own threat zone or 1 band). Each is rolled at its officer's rating as printed, Down 1 for each \
          order before it that turn; a failed order does nothing and ends its orders, a passed one is followed by \
          the next (Successive orders), a Huzzah! by a free order of any type.",
    options: "stand; retire (in the attacker's zone); form square (facing cavalry); form line; advance to engage",
};

static DECISIONS: &[&Decision] = &[&ADVANCE, &PURSUE, &BOMBARD_DECISION, &DEFEND];

const HALT: u16 = 0;
/// The attacker's full advance (its move, or to the edge of the zone that stops it, or into contact).
const MOVE: u16 = 1;
/// The attacker's deploy to line ("Deploy").
const DEPLOY: u16 = 2;
/// The attacker's deploy to column.
const DEPLOY_COLUMN: u16 = 3;
/// The attacker's deploy to square (infantry).
const DEPLOY_SQUARE: u16 = 4;
/// `SHORT + k`: the attacker advances `k` bands, short of its full advance
/// ("Advance": "up to its full movement allowance").
pub(super) const SHORT: u16 = 8;
/// `BACK + k`: the attacker retires `k` bands ("Retire": "up to half its
/// full movement allowance").
pub(super) const BACK: u16 = 24;
const FIRE: u16 = 0;
const HOLD: u16 = 1;
pub(super) const STAND: u16 = 0;
pub(super) const RETIRE: u16 = 1;
const FORM_SQUARE: u16 = 2;
pub(super) const FORM_LINE: u16 = 3;
pub(super) const ADVANCE_ON: u16 = 4;

/// "s" for a count other than one.
fn plural(count: u16) -> &'static str {
    if count == 1 { "" } else { "s" }
}

/// No ending yet.
const GOING: u64 = u64::MAX;

/// A state of the assault on the decision model: the chain's state, packed,
/// and the code of the ending once there is one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Standing {
    state: Packed,
    end: u64,
}

#[cfg(test)]
impl Standing {
    /// The live assault at `s`.
    pub(super) fn live(s: &State) -> Standing {
        Standing { state: s.pack(), end: GOING }
    }

    /// The chain's state, while the assault goes on.
    pub(super) fn state(&self) -> Option<State> {
        (self.end == GOING).then(|| State::unpack(self.state))
    }
}

/// 2D6 as the chain's rolls take it: only the total matters (a Huzzah! is a
/// total of 2, double one), so each total is drawn as one pair of it.
#[derive(Debug)]
pub(super) struct TwoD6 {
    outcomes: [(u32, f64); 11],
}

impl TwoD6 {
    pub(super) fn new() -> TwoD6 {
        TwoD6 { outcomes: TOTALS.map(|(total, ways)| (pair_of_total(total), f64::from(ways) / 36.0)) }
    }
}

impl Law for TwoD6 {
    fn sample(&self, dice: &mut Dice) -> u32 {
        pair_of_total(pair_total(dice.two_d6_index()))
    }

    fn outcomes(&self) -> &[(u32, f64)] {
        &self.outcomes
    }
}

/// Masses of a few distinct values, in the order first met: a grouped law
/// in the making.
struct Masses<T> {
    items: Vec<(T, f64)>,
    /// The item last added to: successive totals of a roll often lead to
    /// the same place, so it is looked at first.
    last: usize,
}

impl<T: PartialEq> Masses<T> {
    fn new() -> Masses<T> {
        Masses { items: Vec::with_capacity(16), last: 0 }
    }

    fn add(&mut self, value: T, p: f64) {
        if let Some(item) = self.items.get_mut(self.last)
            && item.0 == value
        {
            item.1 += p;
            return;
        }
        match self.items.iter().position(|item| item.0 == value) {
            Some(i) => {
                self.items[i].1 += p;
                self.last = i;
            }
            None => {
                self.last = self.items.len();
                self.items.push((value, p));
            }
        }
    }
}

impl<T> Default for Masses<T> {
    fn default() -> Masses<T> {
        Masses { items: Vec::new(), last: 0 }
    }
}

/// Whether a threat test's chain of Huzzah!es goes on: it is rolled
/// through within the step that began it. Each link is a 1 in 36 chance, so
/// the states in the middle of a chain are many (one per state that may
/// test, per link) and hardly ever reached; rolling the chain through in
/// one step keeps them out of the solver's graph.
fn in_chain(s: &State) -> bool {
    s.huzzahs > 0
}

/// The assault as a game. See the module documentation.
#[derive(Debug)]
pub struct AssaultGame {
    /// What each side must achieve (the scenario's `purpose` key).
    purpose: crate::game::Purpose,
    /// The defender gives its own orders in its turn beyond forming square
    /// (the scenario's `defender.orders` key; see [`DEFEND`]).
    defender_orders: bool,
    /// The attacker is offered every order the rules allow (the scenario's
    /// `attacker.every_order` key; see [`ADVANCE`]).
    every_order: bool,
    /// The attacker may retire (the scenario's `attacker.retire` key).
    retire: bool,
    assault: Assault,
    /// The code stride of one turn.
    stride: u64,
}

/// The attacker's orders open in its Orders phase: `options[..count]`
/// (halt first), and the ratings of an advance and of any other order (a
/// deploy or a retire) where they can be rolled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Orders {
    pub(super) options: [u16; 16],
    pub(super) count: usize,
    pub(super) advance: Option<i32>,
    pub(super) other: Option<i32>,
}

impl Orders {
    fn push(&mut self, option: u16) {
        self.options[self.count] = option;
        self.count += 1;
    }
}

/// The defender's orders open in its own Orders phase: `options[..count]`
/// (stand first), each with its rating (`ratings`, by option code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct DefenderOrders {
    pub(super) options: [u16; 5],
    pub(super) count: usize,
    pub(super) ratings: [i32; 5],
}

/// What a state asks before its next roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Asks {
    /// The attacker's order (`advance`, or `pursue` while the defender routs),
    /// with its options ([`AssaultGame::order_options`]).
    Order(&'static Decision, Orders),
    /// The battery's fire.
    Bombard,
    /// The defender's own order, with its options
    /// ([`AssaultGame::defender_orders`]).
    Defend(DefenderOrders),
    /// Nothing: a roll, or no roll at all.
    Nothing,
}

impl AssaultGame {
    /// The assault `assault` (its `fire` key is replaced by the `bombard` decision).
    pub fn new(assault: Assault) -> AssaultGame {
        let assault = assault.with_fire(Fire::Now);
        let stride = assault.turn_stride();
        AssaultGame {
            purpose: crate::game::Purpose::Manoeuvre,
            defender_orders: false,
            every_order: false,
            retire: false,
            assault,
            stride,
        }
    }

    /// The chain this game plays.
    pub fn assault(&self) -> &Assault {
        &self.assault
    }

    /// Rolls 2D6: `first` takes the first roll, and while the node it leads
    /// to is live and `more` says so (a Huzzah! chain of threat tests, the
    /// other side's engagement roll) the chain's next phase takes another;
    /// then the phases that need no input run on ([`AssaultGame::quiet`]),
    /// and the step ends where they stop ([`AssaultGame::finish`]).
    /// Enumerated, the rolls are one last draw ([`Fate::draw_last`]) of the
    /// places they lead to, worked out once rather than once for each of a
    /// roll's 11 totals (and each total of each link of a chain after it, or
    /// 121 pairs of totals for an engagement), each place a branch of the
    /// step. Sampled, the dice are rolled as they come.
    fn rolled<F: Fate>(
        &self,
        fate: &mut F,
        first: impl Fn(u32) -> Node<State>,
        more: impl Fn(&State) -> bool,
    ) -> (Option<End>, Standing) {
        fate.draw_last(
            |dice| {
                let mut roll = || pair_of_total(pair_total(dice.two_d6_index()));
                let mut node = first(roll());
                while let Node::Live(s) = node
                    && more(&s)
                {
                    node = self.assault.step(s, Some(roll()));
                }
                self.finish(node)
            },
            || self.grouped_law(&first, &more),
        )
    }

    /// One roll of 2D6 whose place depends on its total only through
    /// `class` (an order: failed, passed, or a Huzzah!): as
    /// [`AssaultGame::rolled`] with no roll after it, but enumerated, the
    /// place is worked out once per class of totals rather than once per
    /// total (the totals of a class add up their chances, in order).
    fn rolled_by_class<F: Fate>(
        &self,
        fate: &mut F,
        class: impl Fn(u32) -> u8,
        first: impl Fn(u32) -> Node<State>,
    ) -> (Option<End>, Standing) {
        fate.draw_last(
            |dice| self.finish(first(pair_of_total(pair_total(dice.two_d6_index())))),
            || {
                // (class, a total of it, their chance), in the order first met.
                let mut classes: Vec<(u8, u32, f64)> = Vec::with_capacity(3);
                for (total, ways) in TOTALS {
                    let pair = pair_of_total(total);
                    let (key, p) = (class(pair), f64::from(ways) / 36.0);
                    match classes.iter_mut().find(|c| c.0 == key) {
                        Some(c) => c.2 += p,
                        None => classes.push((key, pair, p)),
                    }
                }
                let mut groups: Masses<Node<State>> = Masses::new();
                for (_, pair, p) in classes {
                    groups.add(first(pair), p);
                }
                self.quieted(groups)
            },
        )
    }

    /// The law of [`AssaultGame::rolled`]'s rolls: every sequence of totals,
    /// grouped by the place it leads to once the quiet phases after it have
    /// run (roll by roll: the states awaiting another roll are merged, and
    /// each is rolled on once; then the quiet phases run once per node the
    /// rolls led to).
    ///
    /// A Huzzah! chain of threat tests is rolled link by link only for its
    /// Huzzah!es: every other total of a link ends the chain the same way
    /// whatever the count of Huzzah!es before it (a test within a chain
    /// never counts as bombarded, and ending it forgets the count), so the
    /// links that differ only in that count are one class, whose mass is
    /// rolled on once at the end. A chain alternates between two testers, so
    /// a chain of up to its limit of links (eight) takes two classes' rolls
    /// rather than one per link.
    fn grouped_law(
        &self,
        first: &impl Fn(u32) -> Node<State>,
        more: &impl Fn(&State) -> bool,
    ) -> Vec<((Option<End>, Standing), f64)> {
        let mut groups: Masses<Node<State>> = Masses::new();
        // Live states awaiting another roll, with their mass.
        let mut waiting: Masses<State> = Masses::new();
        // Links of Huzzah! chains that differ only in the count of Huzzah!es
        // (a state of the class, and the class's mass).
        let mut links: Masses<State> = Masses::new();
        let place =
            |node: Node<State>, p: f64, groups: &mut Masses<Node<State>>, waiting: &mut Masses<State>| match node {
                Node::Live(s) if more(&s) => waiting.add(s, p),
                node => groups.add(node, p),
            };
        let totals = TOTALS.map(|(total, ways)| (pair_of_total(total), f64::from(ways) / 36.0));
        let (huzzah, huzzah_p) = totals[0];
        debug_assert!(pair_is_huzzah(huzzah));
        for &(pair, p) in &totals {
            place(first(pair), p, &mut groups, &mut waiting);
        }
        while !waiting.items.is_empty() {
            for (s, q) in std::mem::take(&mut waiting).items {
                if !in_chain(&s) {
                    for &(pair, p) in &totals {
                        place(self.assault.step(s, Some(pair)), q * p, &mut groups, &mut waiting);
                    }
                    continue;
                }
                place(self.assault.step(s, Some(huzzah)), q * huzzah_p, &mut groups, &mut waiting);
                links.add(State { huzzahs: 1, ..s }, q);
            }
        }
        for (class, q) in links.items {
            for &(pair, p) in &totals[1..] {
                place(self.assault.step(class, Some(pair)), q * p, &mut groups, &mut waiting);
            }
        }
        debug_assert!(waiting.items.is_empty(), "a chain's other totals end it");
        self.quieted(groups)
    }

    /// Where the step that has reached `node` leads once the quiet phases
    /// after it have run ([`AssaultGame::quiet`]): the winner, if the fight
    /// is over, and the state after it (a new turn's, at the end of one).
    fn finish(&self, node: Node<State>) -> (Option<End>, Standing) {
        match self.quiet(node) {
            // The code says all there is to say: endings with the same code
            // are one state, whatever led to them.
            Node::End(code) => (Some(self.end_of(code)), Standing { state: Packed(0, 0), end: code }),
            Node::Live(s) => {
                let s = if s.phase == TURN_END { Assault::new_turn(s) } else { s };
                (None, Standing { state: s.pack(), end: GOING })
            }
        }
    }

    /// Where the step leads from each of `groups` ([`AssaultGame::finish`],
    /// each once), merged where they meet: the law of a last draw
    /// ([`Fate::draw_last`]).
    fn quieted(&self, groups: Masses<Node<State>>) -> Vec<((Option<End>, Standing), f64)> {
        let mut places: Masses<(Option<End>, Standing)> = Masses::new();
        for (node, p) in groups.items {
            places.add(self.finish(node), p);
        }
        places.items
    }

    /// Whether the attacker's officer may give it an order now: its Orders
    /// phase, not in contact, not a mob, not blown (blown cavalry takes its
    /// recall order, the chain's), and a free order pending or an order
    /// that can still be rolled.
    fn may_order(&self, s: &State) -> Option<Orders> {
        if s.phase != ATTACKER_ORDERS || s.distance <= 0 || s.routing[0] || s.blown[0] {
            return None;
        }
        let orders = self.order_options(s);
        (orders.count > 1).then_some(orders)
    }

    /// The formations the attacker may deploy to, facing a defender in good
    /// order ("Deploy": "Units can change from any allowable formation into
    /// another allowable formation. Infantry can therefore form line,
    /// column, march column, square ... Cavalry can form line, column or
    /// march column"): every one but its own, line first. March column and
    /// open order are not modelled (see the module documentation).
    fn deploy_options(&self, s: &State) -> impl Iterator<Item = u16> {
        let infantry = self.assault.units[0].arm == Arm::Infantry;
        let now = s.formation[0];
        let every = self.every_order;
        let open = !s.routing[1];
        // Without `attacker.every_order`: a column deploys to line, and a
        // square (formed by a forced order) re-forms line or column.
        let offered = move |formation: Formation| match formation {
            _ if every => true,
            Formation::Line => infantry && now != Formation::Line,
            Formation::Column => now == Formation::Square,
            Formation::Square => false,
        };
        [(DEPLOY, Formation::Line), (DEPLOY_COLUMN, Formation::Column), (DEPLOY_SQUARE, Formation::Square)]
            .into_iter()
            .filter(move |&(_, formation)| {
                open && formation != now && (infantry || formation != Formation::Square) && offered(formation)
            })
            .map(|(option, _)| option)
    }

    /// What a stop `to` bands from the defender means for the attacker's
    /// next steps, as far as the assault tells stops apart: whether it is in
    /// the defender's threat zone, whether the defender is in its own, whether
    /// its next full advance from there makes contact, the battery's range
    /// band, and whether infantry there advances on cavalry (Down 2). Two
    /// stops with the same situation differ only in how far the unit stands
    /// from its own table edge.
    fn situation(&self, s: &State, to: i32) -> u8 {
        let a = &self.assault;
        let mut at = *s;
        at.distance = to as i8;
        let band = if a.units[1].arm == Arm::Artillery { a.bombard_band(to).map_or(3, |band| band) } else { 0 };
        let on_cavalry = a.units[0].arm == Arm::Infantry
            && a.units[1].arm == Arm::Cavalry
            && (to <= a.zone(&at, 1) || to <= a.zone(&at, 0) + a.move_of(&at, 0));
        u8::from(a.in_zone_of(&at, 1))
            | u8::from(a.in_zone_of(&at, 0)) << 1
            | u8::from(a.advance(&at) == 0) << 2
            | u8::from(on_cavalry) << 3
            | band << 4
    }

    /// The stops among `stops` (nearest the defender first) that an order
    /// offers: all of them with `attacker.every_order`; else the nearest stop
    /// of each situation ([`AssaultGame::situation`]) other than those in
    /// `taken` (where the unit stands, and where its full advance ends).
    fn stops(&self, s: &State, stops: impl Iterator<Item = i32>, taken: &[i32]) -> ([i32; 8], usize) {
        let mut kept = ([0; 8], 0);
        // (An array, not a vector: this is asked at every replay of a step.)
        let (mut seen, mut seen_count) = ([0u8; 10], taken.len());
        for (i, &to) in taken.iter().enumerate() {
            seen[i] = self.situation(s, to);
        }
        for to in stops {
            if kept.1 == kept.0.len() {
                break;
            }
            if !self.every_order {
                let situation = self.situation(s, to);
                if seen[..seen_count].contains(&situation) {
                    continue;
                }
                seen[seen_count] = situation;
                seen_count += 1;
            }
            kept.0[kept.1] = to;
            kept.1 += 1;
        }
        kept
    }

    /// How far the attacker may retire: half its move in whole bands
    /// ("Retire": "A unit that receives an individual retire order can move
    /// backwards up to half its full movement allowance"; a column's 4 bands
    /// give 2, a line's 3 give 1, cavalry in line 2, in column 3, a square's
    /// 1 none), and never off the table (a retire is a choice: a unit it
    /// would take past its edge is not ordered so far). Straight back from
    /// the only enemy, it meets no threat zone to stop it.
    pub(super) fn attacker_retire(&self, s: &State) -> i32 {
        (self.assault.move_of(s, 0) / 2).min(i32::from(s.behind[0])).max(0)
    }

    /// The defender's orders in its own Orders phase ("Sequence of play":
    /// the phasing player issues orders), where it may give one: no forced
    /// order pending (the forced order is its first), not a mob, not blown
    /// (blown cavalry takes only its recall order) nor out of control, not
    /// in contact, and not a battery (unlimbered artillery "cannot retire",
    /// "cannot advance to engage", and limbering is outside the assault).
    /// Each order is offered when it can be rolled: forming square
    /// (infantry facing cavalry, "Deploying"), and with the scenario's
    /// `defender.orders` key a retire that takes it out of the attacker's
    /// threat zone ([`Assault::defender_retire`]), re-forming line, and an
    /// advance that makes contact ([`Assault::defender_advance`]). `None`
    /// when only standing is open.
    pub(super) fn defender_orders(&self, s: &State) -> Option<DefenderOrders> {
        let a = &self.assault;
        let unit = &a.units[1];
        // Its first order in its Orders phase, or (`defender.orders`) a
        // successive one after an order passed ("Successive orders").
        let first = s.phase == DEFENDER_FORCED;
        if !(first || (s.phase == DEFENDER_ORDERS && self.defender_orders))
            || s.forced[1]
            || s.routing[1]
            || s.blown[1]
            || s.out_of_control[1]
            || s.rare.recall(1)
            || s.distance <= 0
            || unit.arm == Arm::Artillery
        {
            return None;
        }
        let mut orders = DefenderOrders { options: [STAND; 5], count: 1, ratings: [0; 5] };
        let mut offer = |option: u16, rating: Option<i32>| {
            if let Some(rating) = rating {
                orders.options[orders.count] = option;
                orders.ratings[usize::from(option)] = rating;
                orders.count += 1;
            }
        };
        // A Huzzah!'s free order is "another order of any type", given
        // without a roll: every order is open whatever its rating.
        let rating = |advance: bool| if s.free_order { Some(0) } else { a.defender_order_rating(s, advance) };
        let other = rating(false);
        if self.defender_faces_cavalry() && s.formation[1] != Formation::Square {
            offer(FORM_SQUARE, other);
        }
        if !self.defender_orders {
            return (orders.count > 1).then_some(orders);
        }
        let retire = a.defender_retire(s);
        if a.in_zone_of(s, 0) && retire > 0 && i32::from(s.distance) + retire > a.zone(s, 0) {
            offer(RETIRE, other);
        }
        if s.formation[1] != Formation::Line {
            offer(FORM_LINE, other);
        }
        if a.defender_advance(s) == 0 {
            offer(ADVANCE_ON, rating(true));
        }
        (orders.count > 1).then_some(orders)
    }

    /// The defender is infantry facing cavalry: it may form square
    /// ("Deploying").
    fn defender_faces_cavalry(&self) -> bool {
        self.assault.units[1].arm == Arm::Infantry && self.assault.units[0].arm == Arm::Cavalry
    }

    fn asks(&self, s: &State) -> Asks {
        if let Some(orders) = self.may_order(s) {
            return Asks::Order(if s.routing[1] { &PURSUE } else { &ADVANCE }, orders);
        }
        if s.huzzahs == 0 && (s.phase == BOMBARD || (s.phase == LAST_BOMBARD && self.assault.fire_now(s, false))) {
            return Asks::Bombard;
        }
        if let Some(orders) = self.defender_orders(s) {
            return Asks::Defend(orders);
        }
        Asks::Nothing
    }

    /// Whether the step at `s` takes a decision or a roll.
    fn wants_input(&self, s: &State) -> bool {
        self.waits(s, self.asks(s))
    }

    /// Whether the step at `s`, which asks `asks`, takes a decision or a roll.
    fn waits(&self, s: &State, asks: Asks) -> bool {
        asks != Asks::Nothing || self.assault.wants_roll(s)
    }

    /// Runs the phases that take neither decision nor roll, as the chain's
    /// `quiet_steps` does, up to the next that does or the end of the turn.
    fn quiet(&self, node: Node<State>) -> Node<State> {
        self.assault.steps_until(node, |s| self.wants_input(s))
    }

    /// [`AssaultGame::quiet`], with what the state it stops at asks (worth
    /// keeping: an order's options take its ratings).
    fn quiet_asking(&self, node: Node<State>) -> (Node<State>, Asks) {
        let last = std::cell::Cell::new(Asks::Nothing);
        let node = self.assault.steps_until(node, |s| {
            let asks = self.asks(s);
            last.set(asks);
            self.waits(s, asks)
        });
        (node, last.get())
    }

    /// The attacker's legal orders now: halt, and each order that a free
    /// order carries out or that can be rolled (an advance on cavalry is
    /// Down 2 for infantry, a deploy is not: "Orders and movement", Procedure).
    /// (In an array with their count and ratings: this is asked at every
    /// replay of a step, and a vector would be allocated each time.)
    ///
    /// In the order ties are broken: halt, the full advance, each deploy
    /// (line, column, square), the advances short of a full one (1 band
    /// first), the retires (1 band first). While the defender routs (the
    /// `pursue` decision) only halting and the full advance are offered.
    pub(super) fn order_options(&self, s: &State) -> Orders {
        let a = &self.assault;
        let mut orders =
            Orders { options: [HALT; 16], count: 1, advance: a.order_rating(s, true), other: a.order_rating(s, false) };
        let advance = s.free_order || orders.advance.is_some();
        let other = s.free_order || orders.other.is_some();
        if advance {
            orders.push(MOVE);
        }
        if s.routing[1] {
            return orders;
        }
        if other {
            for option in self.deploy_options(s) {
                orders.push(option);
            }
        }
        let distance = i32::from(s.distance);
        let full = a.advance(s);
        if advance && full + 1 < distance {
            // "Up to its full movement allowance": any whole number of bands
            // short of where the full advance ends (which a threat zone may
            // have stopped short of the move), nearest the defender first.
            let (stops, count) = self.stops(s, full + 1..distance, &[distance, full]);
            for &to in &stops[..count] {
                orders.push(SHORT + (distance - to) as u16);
            }
        }
        if other && (self.retire || self.every_order) {
            let back = if self.retire || self.every_order { self.attacker_retire(s) } else { 0 };
            let (stops, count) = self.stops(s, distance + 1..=distance + back, &[distance]);
            for &to in &stops[..count] {
                orders.push(BACK + (to - distance) as u16);
            }
        }
        orders
    }

    /// What a cautious attacker orders: a square (formed by a forced order)
    /// re-forms the unit's starting formation out of the defender's threat
    /// zone, or within it where the re-formed unit's next advance makes
    /// contact, and else advances in square; any other formation on to the
    /// edge of the defender's threat zone, or into contact, and no further.
    fn cautious_order(&self, s: &State) -> u16 {
        let a = &self.assault;
        if s.routing[1] {
            return HALT;
        }
        if s.formation[0] == Formation::Square {
            // Out of the defender's zone it re-forms at once; in it, only
            // where the re-formed unit's next advance makes contact, and
            // until then it advances in square (a band a move, Up 2 on its
            // threat tests against cavalry).
            let start = a.units[0].formation;
            let reformed = State { formation: [start, s.formation[1]], ..*s };
            let reform = if start == Formation::Line { DEPLOY } else { DEPLOY_COLUMN };
            return if !a.in_zone_of(s, 1) || a.advance(&reformed) == 0 { reform } else { MOVE };
        }
        let to = a.advance(s);
        if to == 0 || to >= a.zone(s, 1) && i32::from(s.distance) > a.zone(s, 1) { MOVE } else { HALT }
    }

    /// The step at `s`, which asks `asks`: its decision, its roll, and the
    /// chain's phase, then the quiet phases after them (a roll's places are
    /// quiet already: see [`AssaultGame::rolled`]).
    fn input_step<F: Fate>(&self, mut s: State, asks: Asks, fate: &mut F) -> (Option<End>, Standing) {
        let a = &self.assault;
        let r = &a.rules;
        debug_assert_eq!(asks, self.asks(&s));
        match asks {
            Asks::Order(decision, orders) => {
                let options = &orders.options[..orders.count];
                // A heuristic that would advance when no advance can be
                // rolled halts, as the chain does.
                let or_halt = |option: u16| if options.contains(&option) { option } else { HALT };
                let choice = fate.decide(ATTACKER, decision, options, &|policy| match policy {
                    Policy::Cautious => or_halt(self.cautious_order(&s)),
                    _ => or_halt(MOVE),
                });
                if choice == HALT {
                    // No further order this turn: the battery's last chance.
                    s.free_order = false;
                    s.phase = LAST_BOMBARD;
                    return self.finish(Node::Live(s));
                }
                if s.free_order {
                    // "Automatically successfully issue another order"; then
                    // no other orders that turn.
                    s.free_order = false;
                    s.orders = ORDERS_SPENT;
                    return self.finish(self.ordered(s, choice));
                }
                let advancing = choice == MOVE || (SHORT..BACK).contains(&choice);
                let rating = if advancing { orders.advance } else { orders.other };
                let rating = rating.expect("an order is offered only when it can be given");
                s.orders = s.orders.saturating_add(1);
                self.rolled_by_class(
                    fate,
                    |pair| if !r.passes(pair_total(pair), rating) { 0 } else { 1 + u8::from(pair_is_huzzah(pair)) },
                    |pair| {
                        let mut s = s;
                        if !r.passes(pair_total(pair), rating) {
                            // "An officer who fails when issuing an order can give no further orders that turn."
                            s.phase = LAST_BOMBARD;
                            return Node::Live(s);
                        }
                        s.free_order = pair_is_huzzah(pair);
                        if s.free_order {
                            // The free order is carried out whatever the count of
                            // orders before it, and no order follows it: the count
                            // no longer matters, and forgetting it merges states.
                            s.orders = 0;
                        }
                        self.ordered(s, choice)
                    },
                )
            }
            Asks::Bombard => {
                let band = a.bombard_band(i32::from(s.distance).max(1));
                let choice = fate.decide(DEFENDER, &BOMBARD_DECISION, &[FIRE, HOLD], &|policy| match policy {
                    Policy::Cautious if band != Some(0) => HOLD,
                    _ => FIRE,
                });
                if choice == HOLD {
                    s.phase =
                        if s.distance == 0 || s.phase == LAST_BOMBARD { ENGAGE_ATTACKER_ROLL } else { ATTACKER_ORDERS };
                    return self.finish(Node::Live(s));
                }
                self.rolled(fate, |pair| a.step(s, Some(pair)), in_chain)
            }
            Asks::Defend(orders) => {
                let options = &orders.options[..orders.count];
                // Bold stands, as the chain's defender does; cautious forms
                // square against cavalry when it can, and else stands.
                let choice = fate.decide(DEFENDER, &DEFEND, options, &|policy| match policy {
                    Policy::Cautious if a.units[0].arm == Arm::Cavalry && options.contains(&FORM_SQUARE) => FORM_SQUARE,
                    _ => STAND,
                });
                s.phase = DEFENDER_CHECK;
                if choice == STAND {
                    return self.finish(Node::Live(s));
                }
                if s.free_order {
                    // "Automatically successfully issue another order of any
                    // type"; then no other orders that turn.
                    s.free_order = false;
                    s.orders = ORDERS_SPENT;
                    s.phase = DEFENDER_ORDERS;
                    return self.finish(self.defender_ordered(s, choice));
                }
                // With `defender.orders`, a passed order is followed by the
                // next ("Successive orders": "An officer can repeatedly order
                // the same unit ... until he ... fails an order"), and a
                // Huzzah! by a free order; without it, forming square is
                // the defender's one order.
                let successive = self.defender_orders;
                let rating = orders.ratings[usize::from(choice)];
                self.rolled_by_class(
                    fate,
                    |pair| {
                        let passed = r.passes(pair_total(pair), rating);
                        u8::from(passed) + u8::from(passed && successive && pair_is_huzzah(pair))
                    },
                    |pair| {
                        // A failed order does nothing (no stagger: that is a
                        // forced order's), and no order follows it.
                        if !r.passes(pair_total(pair), rating) {
                            return Node::Live(s);
                        }
                        let mut s = s;
                        if successive {
                            s.phase = DEFENDER_ORDERS;
                            if pair_is_huzzah(pair) {
                                // The free order is carried out whatever the
                                // count before it: forgetting the count
                                // merges states, as the attacker's does.
                                s.free_order = true;
                                s.orders = 0;
                            } else {
                                s.orders += 1;
                            }
                        }
                        self.defender_ordered(s, choice)
                    },
                )
            }
            Asks::Nothing if s.phase == ENGAGE_ATTACKER_ROLL || s.phase == DEFENDER_ENGAGE_ROLL => {
                // Both engagement rolls in one step, the phasing side's
                // first, the sides worked out once for all 121 pairs of
                // totals, and what each side takes applied to the state
                // once for all the pairs that give it.
                let (fighters, rating) = a.fighters(&s);
                let taken = |first: u32, second: u32| a.taken_of_rolls(&s, &fighters, rating, first, second);
                fate.draw_last(
                    |dice| {
                        let first = pair_of_total(pair_total(dice.two_d6_index()));
                        let second = pair_of_total(pair_total(dice.two_d6_index()));
                        self.finish(a.engage_taken(s, taken(first, second)))
                    },
                    || {
                        let totals = TOTALS.map(|(total, ways)| (pair_of_total(total), f64::from(ways) / 36.0));
                        let mut losses: Masses<[Taken; 2]> = Masses::new();
                        for &(first, p) in &totals {
                            for &(second, q) in &totals {
                                losses.add(taken(first, second), p * q);
                            }
                        }
                        let mut groups: Masses<Node<State>> = Masses::new();
                        for (taken, p) in losses.items {
                            groups.add(a.engage_taken(s, taken), p);
                        }
                        self.quieted(groups)
                    },
                )
            }
            Asks::Nothing => self.rolled(fate, |pair| a.step(s, Some(pair)), in_chain),
        }
    }

    /// The attacker acts on order `choice` (a move, a deploy or a retire), given.
    pub(super) fn ordered(&self, mut s: State, choice: u16) -> Node<State> {
        let distance = i32::from(s.distance);
        let to = match choice {
            DEPLOY | DEPLOY_COLUMN | DEPLOY_SQUARE => {
                // "Deploying": the unit changes formation, and takes a threat
                // test on completing it within a threat zone; it has acted on
                // an order, so the battery may fire again.
                s.formation[0] = match choice {
                    DEPLOY => Formation::Line,
                    DEPLOY_COLUMN => Formation::Column,
                    _ => Formation::Square,
                };
                s.phase = ATTACKER_DEPLOY_THREAT;
                s.fire_ready = true;
                return Node::Live(s);
            }
            MOVE => self.assault.advance(&s),
            // Short of a full advance it stops outside contact.
            _ if choice < BACK => distance - i32::from(choice - SHORT),
            // "Moves must be made straight backwards ... All units keep the
            // same facing": its table edge nearer by as much.
            _ => distance + i32::from(choice - BACK),
        };
        self.assault.after_move(s, to)
    }

    /// The defender acts on its own order `choice` (passed), from its Rally
    /// phase's state `s`.
    pub(super) fn defender_ordered(&self, mut s: State, choice: u16) -> Node<State> {
        let a = &self.assault;
        match choice {
            RETIRE => {
                // "Moves must be made straight backwards ... All units keep
                // the same facing": its table edge nearer by as much.
                let moved = a.defender_retire(&s);
                s.behind[1] -= moved as i8;
                s.distance += moved as i8;
            }
            ADVANCE_ON => {
                let to = a.defender_advance(&s);
                s.behind[1] += s.distance - to as i8;
                s.distance = to as i8;
                if to == 0 {
                    // "An advance order is the only order that can be used to
                    // make contact": the defender, the phasing unit, engages.
                    s.phase = DEFENDER_ENGAGE_ROLL;
                }
            }
            _ => {
                // "Deploying": the change of formation, and a threat test on
                // completing it within the attacker's threat zone.
                s.formation[1] = if choice == FORM_SQUARE { Formation::Square } else { Formation::Line };
                s.phase = DEFENDER_DEPLOY_THREAT;
            }
        }
        Node::Live(s)
    }

    /// How the fight whose outcome code is `code` ended: the winner is the
    /// layout's first metric, and nobody's win within a step is both
    /// sides breaking at once.
    fn end_of(&self, code: u64) -> End {
        match self.assault.layout.value(code, 0) as u8 {
            ATTACKER => End::Attacker,
            DEFENDER => End::Defender,
            _ => End::BothBroke,
        }
    }
}

impl AssaultGame {
    /// This fight under `purpose`: what each side must achieve by the turn
    /// limit ([`crate::game::Purpose`]).
    pub fn with_purpose(mut self, purpose: crate::game::Purpose) -> Self {
        self.purpose = purpose;
        self
    }

    /// This fight with the defender's own orders in its turn (retire out of
    /// the attacker's zone, re-form line, advance to engage) as well as
    /// forming square: the scenario's `defender.orders` key.
    pub fn with_defender_orders(mut self, on: bool) -> Self {
        self.defender_orders = on;
        self
    }

    /// This fight with every order the rules allow the attacker: advances
    /// and retires of every whole number of bands, deploys to every
    /// allowable formation (the scenario's `attacker.every_order` key).
    pub fn with_every_order(mut self, on: bool) -> Self {
        self.every_order = on;
        self
    }

    /// This fight with the attacker's retire order (the scenario's
    /// `attacker.retire` key): half its move back, in whole bands.
    pub fn with_retire(mut self, on: bool) -> Self {
        self.retire = on;
        self
    }
}

impl Game for AssaultGame {
    type State = Standing;

    fn purpose(&self) -> crate::game::Purpose {
        self.purpose
    }

    fn layout(&self) -> &Layout {
        &self.assault.layout
    }

    fn start(&self) -> Standing {
        Standing { state: self.assault.start().pack(), end: GOING }
    }

    fn steps(&self) -> u32 {
        self.assault.turns
    }

    fn starts_turn(&self, standing: &Standing) -> bool {
        let s = State::unpack(standing.state);
        s.phase == super::ATTACKER_THREAT && s.huzzahs == 0
    }

    fn step<F: Fate>(&self, standing: &mut Standing, fate: &mut F) -> Option<End> {
        let (node, asks) = self.quiet_asking(Node::Live(State::unpack(standing.state)));
        let (winner, next) = match node {
            Node::Live(s) if s.phase != TURN_END => self.input_step(s, asks, fate),
            node => self.finish(node),
        };
        *standing = next;
        winner
    }

    fn code(&self, winner: u8, steps: u32, standing: &Standing) -> u64 {
        // The winner under the purpose, whatever the step's code said.
        if standing.end == GOING {
            self.assault.code(i64::from(winner), steps, &State::unpack(standing.state))
        } else {
            self.assault.layout.with_value(standing.end + u64::from(steps - 1) * self.stride, 0, i64::from(winner))
        }
    }

    fn decisions(&self) -> &'static [&'static Decision] {
        DECISIONS
    }

    fn fallback(&self) -> Policy {
        Policy::Bold
    }

    fn solvable(&self, plan: Plan) -> bool {
        let mut limit = match self.assault.units[1].arm {
            // The retire adds a third to a battery's states: 2 turns pass
            // the budget (1.9 GB), 1 takes 0.5 s.
            Arm::Artillery if plan.policy.contains(&Policy::Best) && (self.retire || self.every_order) => 1,
            Arm::Artillery if plan.policy.contains(&Policy::Best) => BATTERY_BEST_TURN_LIMIT,
            Arm::Artillery => BATTERY_TURN_LIMIT,
            Arm::Cavalry => CAVALRY_TURN_LIMIT,
            _ => BEST_TURN_LIMIT,
        };
        if self.assault.units[0].brigade > 0 {
            limit = limit.min(BRIGADE_TURN_LIMIT);
        }
        if self.defender_orders {
            // Cavalry defending with orders of its own passes the state
            // budget at the limit's 3 turns (see the limit's docs).
            let cavalry = self.assault.units[1].arm == Arm::Cavalry;
            limit = limit.min(DEFENDER_ORDERS_TURN_LIMIT - u32::from(cavalry));
        }
        if self.every_order {
            limit = limit.min(EVERY_ORDER_TURN_LIMIT);
        }
        self.assault.turns <= limit
    }

    /// Quick (about 2 s or less) where it solves, but for the limits' last
    /// turns against cavalry or with the attacker's command checks (3.5 s),
    /// and the defender's command checks (`defender.brigade`: 5 s at 10
    /// turns, 8 s and 2 GB at 30), which are solved only when asked.
    fn exact_is_cheap(&self, plan: Plan) -> bool {
        let turns = self.assault.turns;
        self.solvable(plan)
            && !(self.assault.units[1].arm == Arm::Cavalry && turns >= CAVALRY_TURN_LIMIT)
            && !(self.assault.units[0].brigade > 0 && turns >= BRIGADE_TURN_LIMIT)
            && self.assault.units[1].brigade == 0
    }

    /// The attacker always decides (its orders). The defender decides only
    /// where it has an order or a battery's fire to give: its own orders
    /// (`defender.orders`), a battery's fire or hold, or infantry not in
    /// square facing cavalry (forming square, "Deploying"); else it stands
    /// wherever it is, whatever its policy.
    fn decides(&self, side: usize) -> bool {
        let defender = &self.assault.units[1];
        side == 0
            || self.defender_orders
            || defender.arm == Arm::Artillery
            || (self.defender_faces_cavalry() && defender.formation != Formation::Square)
    }

    fn describe_state(&self, standing: &Standing, _side: u8) -> String {
        let s = State::unpack(standing.state);
        let a = &self.assault;
        let unit = |side: usize| {
            let arm = match a.units[side].arm {
                Arm::Infantry => "infantry",
                Arm::Cavalry => "cavalry",
                Arm::Artillery => "battery",
            };
            let formation = match (a.units[side].arm, s.formation[side]) {
                (Arm::Artillery, _) => "",
                (_, Formation::Line) => " in line",
                (_, Formation::Column) => " in column",
                (_, Formation::Square) => " in square",
            };
            let routing = if s.routing[side] { " (routing)" } else { "" };
            format!("{arm}{formation}{routing}, {} staggers {} kills", s.strength[2 * side], s.strength[2 * side + 1])
        };
        format!("{} {} bands from {}", unit(0), s.distance, unit(1))
    }

    fn describe_option(&self, decision: &'static Decision, option: u16) -> String {
        let words: &[&str] = match decision.name {
            "advance" if option >= BACK => return format!("retire {} band{}", option - BACK, plural(option - BACK)),
            "advance" if option >= SHORT => {
                return format!("advance {} band{}", option - SHORT, plural(option - SHORT));
            }
            "advance" => &["halt", "advance one move", "deploy to line", "deploy to column", "form square"],
            "pursue" => &["hold the ground", "pursue"],
            "bombard" => &["fire", "hold fire"],
            _ => &["stand", "retire", "form square", "form line", "advance to engage"],
        };
        words[usize::from(option).min(words.len() - 1)].to_string()
    }

    /// The numbers of arms, formations, officers, brigades and guns this
    /// assault has not: a formation's zone and move where no unit can take
    /// it (a column only starts so, a line comes of a column's deploy,
    /// square of infantry facing cavalry); officers' and favourable
    /// positions' Ups without them; battle and pursuit cavalry's without
    /// them; the battery's ranges and modifiers without a battery of that
    /// weight; command checks without a brigade, isolation without a lone
    /// unit; and the rules of other scenarios (the CinC, reorganising,
    /// the skirmish rolls, bounce-through and rearming, the quality table).
    fn reads_rule(&self, field: &str) -> bool {
        use super::{AssaultUnit, Guns};
        use crate::rulesets::huzzah::{CavalryKind, Officer};
        let a = &self.assault;
        let [attacker, defender] = &a.units;
        let any = |test: &dyn Fn(&AssaultUnit) -> bool| a.units.iter().any(test);
        let arm = |arm: Arm| any(&|unit| unit.arm == arm);
        // Formations: attacking infantry deploys to line, and re-forms a
        // square (facing cavalry) into line or column; with
        // `attacker.every_order` it takes any allowable formation, and
        // cavalry too; the defender may re-form line on its own order (only
        // with `defender.orders`), and infantry facing cavalry form square.
        let reforms = self.defender_orders;
        let every = self.every_order;
        let square_reforms = attacker.arm == Arm::Infantry && defender.arm == Arm::Cavalry;
        let infantry_in = |formation: Formation| {
            (attacker.arm == Arm::Infantry && (every || formation == Formation::Line))
                || (formation == Formation::Column && square_reforms)
                || (formation == Formation::Line && defender.arm == Arm::Infantry && reforms)
                || any(&|unit| unit.arm == Arm::Infantry && unit.formation == formation)
        };
        let cavalry_in = |formation: Formation| {
            (attacker.arm == Arm::Cavalry && every)
                || (formation == Formation::Line && defender.arm == Arm::Cavalry && reforms)
                || any(&|unit| unit.arm == Arm::Cavalry && unit.formation == formation)
        };
        let against_cavalry = arm(Arm::Infantry) && arm(Arm::Cavalry);
        let battery = defender.arm == Arm::Artillery;
        let guns = |weight: Guns| battery && a.guns == weight;
        let officer = any(&|unit| unit.officer != Officer::None);
        let inspirational = any(&|unit| unit.officer == Officer::Inspirational);
        let favourable = any(&|unit| unit.favourable);
        let cavalry = |kind: CavalryKind| any(&|unit| unit.cavalry == kind);
        match field {
            // "Orders and movement", Procedure (the CinC, broken
            // sub-commands, dense terrain and scaled moves are not here).
            "order_infantry_advancing_on_cavalry_down" => against_cavalry,
            "order_in_command_up" | "rally_in_command_up" => any(&|unit| unit.in_command),
            "order_officer_attached_up" | "threat_officer_up" | "engagement_officer_up" | "rally_officer_up" => officer,
            // The defender gives an advance order only with `defender.orders`.
            "order_inspirational_advance_up" => {
                attacker.officer == Officer::Inspirational
                    || (defender.officer == Officer::Inspirational
                        && defender.arm != Arm::Artillery
                        && self.defender_orders)
            }
            "threat_inspirational_up" | "engagement_inspirational_up" | "rally_inspirational_up" => inspirational,
            "order_isolated_down" | "threat_isolated_down" => a.isolated(0) || a.isolated(1),
            // Only a brigade's command check fails a check.
            "order_failed_check_advance_down" => any(&|unit| unit.brigade > 0),
            "command_cinc_bonus"
            | "command_cinc_maximum"
            | "order_broken_subcommand_down"
            | "order_dense_terrain_down"
            | "order_scaled_move_down" => false,
            // "Threat tests": the battery's, the open-order battery's
            // favourable position, the square's; forced orders come of a
            // column against a line or infantry in the open against cavalry.
            "threat_short_range_down"
            | "threat_extreme_range_up"
            | "threat_bombarded_in_column_down"
            | "threat_smoke_up" => battery,
            "threat_small_unit_long_range_up" => battery && attacker.small,
            "threat_favourable_up" => favourable || (battery && attacker.arm == Arm::Infantry),
            "threat_square_against_cavalry_up" => against_cavalry,
            "forced_order_failure_staggers" => a.units.iter().all(|unit| unit.arm == Arm::Infantry) || against_cavalry,
            // Only the attacker gives orders after a forced one (the
            // defender's forced order is its one order of the turn).
            "forced_order_counts" => attacker.arm == Arm::Infantry && defender.arm != Arm::Artillery,
            "threat_more_than_one_zone_down" | "forced_order_disobeyed_staggers" => false,
            // "Engage the enemy": a battery fights as a small unit by `artillery_small_unit`.
            "engagement_small_unit_down" => battery || any(&|unit| unit.small),
            "engagement_favourable_up" | "rally_favourable_up" => favourable,
            "engagement_battle_cavalry_up" | "rally_blown_battle_cavalry_down" => cavalry(CavalryKind::Battle),
            "engagement_pursuit_cavalry_up" => cavalry(CavalryKind::Pursuit),
            "artillery_small_unit" | "artillery_huzzah_loss" => battery,
            // "Command integrity check", for a brigade (level, an
            // inspirational brigade officer and seizing the flag are not modelled).
            "command_check_broken_down"
            | "command_check_failed_last_down"
            | "command_check_isolated_down"
            | "command_check_passed_last_up"
            | "command_check_failure_staggers"
            | "command_check_isolated"
            | "command_check_huzzah" => any(&|unit| unit.brigade > 0),
            "command_check_favourable_up" => any(&|unit| unit.brigade > 0 && unit.favourable),
            "command_check_level_down" | "command_check_inspirational_up" | "command_check_seize_flag_up" => false,
            // "Reorganise" is the `reorganise` scenario's; the superiority
            // rolls are the `skirmish` scenario's, and its zone bonus goes
            // to infantry against infantry or artillery (the `skirmish` key
            // saying whose it is is not kept apart from the bonus).
            "reorganise_broken_down"
            | "reorganise_division_down"
            | "reorganise_corps_down"
            | "reorganise_more_retired_up"
            | "reorganise_turn_waited_up"
            | "reorganise_inspirational_up"
            | "reorganise_attempt_kills"
            | "skirmish_failed_previous_down"
            | "skirmish_won_previous_up"
            | "skirmish_reinforced_up"
            | "skirmish_huzzah_reduction" => false,
            "skirmish_threat_zone_bonus_bands" => attacker.arm == Arm::Infantry && defender.arm != Arm::Cavalry,
            // Playsheet, Threat zones and Movement, by the formations units can take.
            "threat_zone_infantry_line" | "move_infantry_line" => {
                infantry_in(Formation::Line) || infantry_in(Formation::Column)
            }
            "threat_zone_infantry_column" | "move_infantry_column" => infantry_in(Formation::Column),
            "threat_zone_infantry_square" => infantry_in(Formation::Square) || against_cavalry,
            "threat_zone_cavalry_line" | "move_cavalry_line" => cavalry_in(Formation::Line),
            "threat_zone_cavalry_column" | "move_cavalry_column" => cavalry_in(Formation::Column),
            "move_infantry_march_column" => arm(Arm::Infantry),
            "move_cavalry_march_column" => arm(Arm::Cavalry),
            // A battery never routs (it breaks) and has no brigade to retire with.
            "move_foot_guns_march_column" => false,
            // "Artillery bombardment", by the battery's weight (bounce-through
            // and rearming are the `bombardment` scenario's).
            "threat_zone_light_artillery" | "long_range_light_artillery" | "extreme_range_light_artillery" => {
                guns(Guns::Light)
            }
            "threat_zone_medium_artillery" | "long_range_medium_artillery" | "extreme_range_medium_artillery" => {
                guns(Guns::Medium)
            }
            "threat_zone_heavy_artillery" | "long_range_heavy_artillery" | "extreme_range_heavy_artillery" => {
                guns(Guns::Heavy)
            }
            "bounce_through_light_artillery"
            | "bounce_through_medium_artillery"
            | "bounce_through_heavy_artillery"
            | "bounce_through"
            | "rearm_majority_depleted_up"
            | "rearm_all_depleted_up" => false,
            // Playsheet, Unit Quality Table: qualities are keys here.
            _ if field.starts_with("class_") => false,
            // Ratings (every quality, shifted), the dice, staggers, kills and rallies.
            _ => true,
        }
    }
}
