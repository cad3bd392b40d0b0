//! Two units in each other's threat zones, turn after turn ("Threat tests";
//! "Rally and reform"): each player's turn its unit takes a threat test, then
//! reforms and takes compulsory casualties, until one breaks or the turn limit.
//!
//! The exact solver is an absorbing Markov chain over (staggers, kills) of both
//! units ([`markov::absorb`]); each turn is composed of its four phases, with
//! the distribution merged after each phase so it stays small. The same phase
//! functions serve the Monte Carlo sampler and the solver, roll by roll.
//!
//! It takes no decision, by construction: every roll in it is compulsory
//! (a unit in an enemy threat zone "must take a threat test", and rally,
//! reform and compulsory casualties follow in each Rally phase), and the
//! one choice a player has there, to order the unit forward or away, is the
//! question the scenario fixes: how long two units hold their ground in each
//! other's zones. Ordering forward, halting or deploying is the `assault`'s
//! `advance` decision.

use super::{
    HuzzahThreatChain, Officer, Quality, Rules, invalid, pair_is_huzzah, pair_total, quality_param, remaining_percent,
    side_key,
};
use crate::catalogue::ScenarioEntry;
use crate::dice::Dice;
use crate::markov::{self, Step};
use crate::outcome::{Layout, Metric, WINNERS};
use crate::params::{Param, ParamError, RuleBook, Settings, rules_of};
use crate::scenario::{DynScenario, Scenario};
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// The 2D6 totals with their number of ways out of 36; a total of 2 is
/// always double one, a Huzzah!.
pub const TOTALS: [(i32, u32); 11] =
    [(2, 1), (3, 2), (4, 3), (5, 4), (6, 5), (7, 6), (8, 5), (9, 4), (10, 3), (11, 2), (12, 1)];

/// A unit holding its ground in an enemy threat zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stand {
    /// Base descriptive quality.
    pub quality: Quality,
    /// Net Ups minus Downs on its threat tests beyond those below.
    pub shifts: i32,
    /// Tests on its disadvantaged rating (rallying always uses the full one).
    pub disadvantaged: bool,
    /// An officer attached.
    pub officer: Officer,
    /// In a favourable position.
    pub favourable: bool,
    /// In command of its officer (Up 1 to rally).
    pub in_command: bool,
    /// Staggers at the start.
    pub staggers: i32,
    /// Kills at the start.
    pub kills: i32,
}

impl Stand {
    /// A fresh unit of `quality`, in command, nothing else.
    pub fn new(quality: Quality) -> Stand {
        Stand {
            quality,
            shifts: 0,
            disadvantaged: false,
            officer: Officer::None,
            favourable: false,
            in_command: true,
            staggers: 0,
            kills: 0,
        }
    }

    /// The effective rating of a threat test with these staggers and kills
    /// ("Threat tests", Procedure).
    pub fn threat_rating(&self, rules: &Rules, staggers: i32, kills: i32) -> i32 {
        let mut shifts = self.shifts;
        if staggers > 0 {
            shifts -= rules.threat_staggers_down;
        }
        if kills > 0 {
            shifts -= rules.threat_kills_down;
        }
        // "Disadvantaged troops never benefit from the favourable position modifier."
        if self.favourable && !self.disadvantaged {
            shifts += rules.threat_favourable_up;
        }
        shifts += match self.officer {
            Officer::None => 0,
            Officer::Attached => rules.threat_officer_up,
            Officer::Inspirational => rules.threat_officer_up + rules.threat_inspirational_up,
        };
        rules.effective_rating(self.quality, shifts, self.disadvantaged)
    }

    /// The effective rating to rally or reform ("Rally and reform", Procedure):
    /// always on the full rating.
    pub fn reform_rating(&self, rules: &Rules, kills: i32, in_threat_zone: bool) -> i32 {
        let mut shifts = 0;
        if kills > 0 {
            shifts -= rules.rally_kills_down;
        }
        if in_threat_zone {
            shifts -= rules.rally_threat_zone_down;
        }
        if self.in_command {
            shifts += rules.rally_in_command_up;
        }
        // "Favourable position": "Only troops that are not disadvantaged can
        // be in a favourable position", so a disadvantaged unit takes no Up
        // for it when it reforms either (though it reforms on its full rating).
        if self.favourable && !self.disadvantaged {
            shifts += rules.rally_favourable_up;
        }
        shifts += match self.officer {
            Officer::None => 0,
            Officer::Attached => rules.rally_officer_up,
            Officer::Inspirational => rules.rally_officer_up + rules.rally_inspirational_up,
        };
        rules.effective_rating(self.quality, shifts, false)
    }

    fn validate(&self, rules: &Rules, prefix: &str) -> Result<(), ParamError> {
        if !(-10..=10).contains(&self.shifts) {
            return Err(invalid(side_key(prefix, "shifts"), "shifts must be -10 to 10"));
        }
        let full = rules.full_rating(self.quality);
        if self.staggers < 0 || self.kills < 0 || self.staggers + self.kills >= full {
            return Err(invalid(
                side_key(prefix, "kills"),
                format!("staggers plus kills must be from 0 to below the full rating {full}"),
            ));
        }
        Ok(())
    }

    /// Reads `prefix.quality` ... from settings.
    pub fn from_settings(settings: &Settings, prefix: &str) -> Stand {
        let key = |name| side_key(prefix, name);
        Stand {
            quality: settings.choice(&key("quality")),
            shifts: settings.int(&key("shifts")) as i32,
            disadvantaged: settings.bool(&key("disadvantaged")),
            officer: settings.choice(&key("officer")),
            favourable: settings.bool(&key("favourable")),
            in_command: settings.bool(&key("in_command")),
            staggers: settings.int(&key("staggers")) as i32,
            kills: settings.int(&key("kills")) as i32,
        }
    }

    /// The keys of one side.
    pub fn params(prefix: &str, quality: Quality) -> Vec<Param> {
        let key = |name| side_key(prefix, name);
        vec![
            quality_param(key("quality"), quality),
            Param::int(key("shifts"), "net Ups minus Downs on threat tests (renowned enemy, isolated ...)", 0, -10, 10),
            Param::boolean(key("disadvantaged"), "threat tests on the disadvantaged rating", false),
            Param::int(key("staggers"), "staggers at the start", 0, 0, 10),
            Param::int(key("kills"), "kills at the start", 0, 0, 10),
            Param::choice(key("officer"), "officer attached: none, attached or inspirational", Officer::None),
            Param::boolean(key("favourable"), "in a favourable position", false),
            Param::boolean(key("in_command"), "in command of its officer (Up 1 to rally)", true),
        ]
    }
}

/// Staggers from a threat test: the excess of the roll over the rating
/// ("Threat tests", Procedure; 11 and 12 always fail).
#[inline]
pub fn threat_staggers(rules: &Rules, rating: i32, total: i32) -> i32 {
    if rules.passes(total, rating) { 0 } else { (total - rating).max(0) }
}

/// Staggers left after reforming ("Rally and reform", Procedure): a roll under
/// the rating removes the difference; a Huzzah! removes all.
#[inline]
pub fn staggers_after_reform(rules: &Rules, rating: i32, staggers: i32, total: i32, huzzah: bool) -> i32 {
    if huzzah {
        0
    } else if rules.passes(total, rating) {
        (staggers - (rating - total)).max(0)
    } else {
        staggers
    }
}

/// (staggers, kills) of both units: attacker's first.
pub type Strength = [i32; 4];

/// A two-unit standoff of threat tests.
#[derive(Clone, Debug)]
pub struct Standoff {
    rules: Rules,
    units: [Stand; 2],
    full: [i32; 2],
    turns: u32,
    layout: Layout,
}

/// The metrics every multi-turn Huzzah! duel reports, in order.
pub fn duel_metrics(turns: u32) -> Vec<Metric> {
    vec![
        Metric::categories(
            "winner",
            "whose enemy broke: attacker, defender or none by the turn limit; in the assaults, under `purpose = attack`, every fight the attacker does not win is the defender's (`ended` says how each ended)",
            WINNERS,
        ),
        Metric::integer("turns", "the turn it ended (the limit if undecided)", 1, i64::from(turns)),
        Metric::integer("attacker_staggers", "the attacker's staggers at the end", 0, 30),
        Metric::integer("attacker_kills", "the attacker's kills at the end", 0, 15),
        Metric::integer("defender_staggers", "the defender's staggers at the end", 0, 30),
        Metric::integer("defender_kills", "the defender's kills at the end", 0, 15),
        Metric::integer("attacker_remaining", "percent of the attacker's breaking threshold not yet used", 0, 100),
        Metric::integer("defender_remaining", "percent of the defender's breaking threshold not yet used", 0, 100),
    ]
}

/// Where one phase leaves a duel: still going, or ended with an outcome code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Node<S> {
    /// Still going.
    Live(S),
    /// Ended with this code.
    End(u64),
}

/// A quick hasher for small integer states (folded multiply per word); the
/// states are ours, not attacker-chosen.
#[derive(Default, Clone, Copy, Debug)]
pub struct StateHasher(u64);

impl std::hash::Hasher for StateHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u64(&mut self, value: u64) {
        let wide = u128::from(self.0 ^ value) * 0x9E37_79B9_7F4A_7C15;
        self.0 = (wide as u64) ^ ((wide >> 64) as u64);
    }

    fn write_u32(&mut self, value: u32) {
        self.write_u64(u64::from(value));
    }

    fn write_i32(&mut self, value: i32) {
        self.write_u64(u64::from(value as u32));
    }

    fn write_isize(&mut self, value: isize) {
        self.write_u64(value as u64);
    }

    fn write_usize(&mut self, value: usize) {
        self.write_u64(value as u64);
    }
}

/// Applies one phase to a distribution and merges equal results.
pub fn then<S: Copy + Eq + std::hash::Hash>(
    dist: Vec<(Node<S>, f64)>,
    mut phase: impl FnMut(S) -> Vec<(Node<S>, f64)>,
) -> Vec<(Node<S>, f64)> {
    let mut merged: HashMap<Node<S>, f64, BuildHasherDefault<StateHasher>> =
        HashMap::with_capacity_and_hasher(dist.len() * 4, BuildHasherDefault::default());
    for (node, p) in dist {
        match node {
            Node::End(_) => *merged.entry(node).or_insert(0.0) += p,
            Node::Live(state) => {
                for (next, q) in phase(state) {
                    *merged.entry(next).or_insert(0.0) += p * q;
                }
            }
        }
    }
    merged.into_iter().collect()
}

impl Standoff {
    /// A standoff of two validated units for at most `turns` turns (1-200).
    pub fn new(rules: &Rules, attacker: Stand, defender: Stand, turns: u32) -> Result<Self, ParamError> {
        attacker.validate(rules, "attacker")?;
        defender.validate(rules, "defender")?;
        if !(1..=200).contains(&turns) {
            return Err(invalid("turns", "the turn limit must be 1 to 200"));
        }
        let full = [rules.full_rating(attacker.quality), rules.full_rating(defender.quality)];
        Ok(Standoff {
            rules: rules.clone(),
            units: [attacker, defender],
            full,
            turns,
            layout: Layout::new(duel_metrics(turns)),
        })
    }

    fn start(&self) -> Strength {
        [self.units[0].staggers, self.units[0].kills, self.units[1].staggers, self.units[1].kills]
    }

    fn broken(&self, s: &Strength, side: usize) -> bool {
        s[2 * side] + s[2 * side + 1] >= self.full[side]
    }

    /// The outcome code: `winner` 0 attacker, 1 defender, 2 none.
    fn code(&self, winner: i64, turn: u32, s: &Strength) -> u64 {
        self.layout.encode(&[
            winner,
            i64::from(turn),
            i64::from(s[0]),
            i64::from(s[1]),
            i64::from(s[2]),
            i64::from(s[3]),
            remaining_percent(self.full[0], s[0], s[1]),
            remaining_percent(self.full[1], s[2], s[3]),
        ])
    }

    /// A unit of `side` tests with this 2D6 total: its new strength, or the end.
    fn threat_result(&self, s: Strength, side: usize, total: i32, turn: u32) -> Node<Strength> {
        let unit = &self.units[side];
        let rating = unit.threat_rating(&self.rules, s[2 * side], s[2 * side + 1]);
        let mut next = s;
        next[2 * side] += threat_staggers(&self.rules, rating, total);
        self.settle(next, side, turn)
    }

    /// The end if `side` broke (the other side wins), else still going.
    fn settle(&self, s: Strength, side: usize, turn: u32) -> Node<Strength> {
        if self.broken(&s, side) { Node::End(self.code(1 - side as i64, turn, &s)) } else { Node::Live(s) }
    }

    /// `side` reforms with this roll and takes compulsory casualties.
    fn reform_result(&self, s: Strength, side: usize, total: i32, huzzah: bool, turn: u32) -> Node<Strength> {
        let unit = &self.units[side];
        let rating = unit.reform_rating(&self.rules, s[2 * side + 1], true);
        let mut next = s;
        next[2 * side] = staggers_after_reform(&self.rules, rating, s[2 * side], total, huzzah);
        // "Compulsory casualties": staggers left after reforming cost one kill.
        if next[2 * side] > 0 {
            next[2 * side + 1] += self.rules.compulsory_casualty_kills;
        }
        self.settle(next, side, turn)
    }

    /// The exact threat-test phase of `side`, Huzzah! chain included.
    fn threat_phase(&self, s: Strength, side: usize, turn: u32) -> Vec<(Node<Strength>, f64)> {
        let h = 1.0 / 36.0;
        let outcomes = |tester: usize, weight: f64| {
            TOTALS[1..].iter().map(move |&(total, ways)| {
                (self.threat_result(s, tester, total, turn), weight * f64::from(ways) / 36.0)
            })
        };
        match self.rules.huzzah_threat_chain {
            // "Threat tests", Huzzah! results: each Huzzah! (a pass, changing
            // nothing) makes the other unit test; the chain ends at the first
            // test that is not a Huzzah!, by the first unit after an even number
            // of Huzzah!es: weights 1/(1-h^2) and h/(1-h^2).
            HuzzahThreatChain::Chain => {
                let scale = 1.0 / (1.0 - h * h);
                outcomes(side, scale).chain(outcomes(1 - side, h * scale)).collect()
            }
            HuzzahThreatChain::Single => {
                outcomes(side, 1.0).chain(outcomes(1 - side, h)).chain([(Node::Live(s), h * h)]).collect()
            }
        }
    }

    fn reform_phase(&self, s: Strength, side: usize, turn: u32) -> Vec<(Node<Strength>, f64)> {
        // "All routing, staggered or blown units ... must attempt to restore order."
        if s[2 * side] == 0 {
            return vec![(Node::Live(s), 1.0)];
        }
        TOTALS
            .iter()
            .map(|&(total, ways)| (self.reform_result(s, side, total, total == 2, turn), f64::from(ways) / 36.0))
            .collect()
    }

    fn sample_threat(&self, s: Strength, side: usize, turn: u32, dice: &mut Dice) -> Node<Strength> {
        let mut tester = side;
        let mut answers = 0;
        loop {
            let pair = dice.two_d6_index();
            if !pair_is_huzzah(pair) {
                return self.threat_result(s, tester, pair_total(pair), turn);
            }
            answers += 1;
            if self.rules.huzzah_threat_chain == HuzzahThreatChain::Single && answers == 2 {
                return Node::Live(s);
            }
            tester = 1 - tester;
        }
    }

    fn sample_reform(&self, s: Strength, side: usize, turn: u32, dice: &mut Dice) -> Node<Strength> {
        if s[2 * side] == 0 {
            return Node::Live(s);
        }
        let pair = dice.two_d6_index();
        self.reform_result(s, side, pair_total(pair), pair_is_huzzah(pair), turn)
    }
}

impl Scenario for Standoff {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn sample(&self, dice: &mut Dice) -> u64 {
        let mut s = self.start();
        for turn in 1..=self.turns {
            // Turn sequence: each player's threat tests, then its rally phase.
            for side in 0..2 {
                match self.sample_threat(s, side, turn, dice) {
                    Node::End(code) => return code,
                    Node::Live(next) => s = next,
                }
                match self.sample_reform(s, side, turn, dice) {
                    Node::End(code) => return code,
                    Node::Live(next) => s = next,
                }
            }
        }
        self.code(2, self.turns, &s)
    }

    fn has_exact(&self) -> bool {
        true
    }

    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        // A turn's law does not depend on the turn number except through the
        // `turns` metric of an ending, so each state's turn is worked out once
        // (as turn 1) and its end codes moved along by the turn's stride.
        let start = self.start();
        let turn_stride = self.code(0, 2.min(self.turns), &start) - self.code(0, 1, &start);
        type Laws = HashMap<Strength, Vec<(Node<Strength>, f64)>, BuildHasherDefault<StateHasher>>;
        let mut cache: Laws = HashMap::default();
        Some(markov::absorb(
            start,
            self.turns,
            |&s, turn| {
                let law = cache.entry(s).or_insert_with(|| {
                    let mut dist = vec![(Node::Live(s), 1.0)];
                    for side in 0..2 {
                        dist = then(dist, |s| self.threat_phase(s, side, 1));
                        dist = then(dist, |s| self.reform_phase(s, side, 1));
                    }
                    dist
                });
                law.iter()
                    .map(|&(node, p)| match node {
                        Node::Live(s) => (Step::Continue(s), p),
                        Node::End(code) => (Step::End(code + u64::from(turn - 1) * turn_stride), p),
                    })
                    .collect()
            },
            |s| self.code(2, self.turns, s),
        ))
    }
}

fn build(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    Ok(Box::new(Standoff::new(
        rules_of::<Rules>(rules),
        Stand::from_settings(settings, "attacker"),
        Stand::from_settings(settings, "defender"),
        settings.int("turns") as u32,
    )?))
}

/// The `standoff` scenario.
pub fn entry() -> ScenarioEntry {
    let mut params = Stand::params("attacker", Quality::Trained);
    params.extend(Stand::params("defender", Quality::Trained));
    params.push(Param::int("turns", "the turn limit", 30, 1, 200));
    ScenarioEntry {
        name: "standoff",
        summary: "Two units in each other's threat zones: threat tests, reform and compulsory casualties each turn until one breaks.",
        params,
        build,
    }
}
