//! The fixed-policy chain's Monte Carlo sampler and exact solver: a turn
//! with dice, and the absorbing chain propagated forward step by step for
//! all states together (see the module documentation of [`super`]).

use super::Assault;
use super::state::*;
use crate::dice::Dice;
use crate::outcome::Layout;
use crate::rulesets::huzzah::standoff::{Node, StateHasher, TOTALS};
use crate::scenario::Scenario;
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::hash::BuildHasherDefault;

/// States less likely than this are dropped by the exact solver (as
/// `markov::absorb` drops mass below 1e-300): a long assault reaches tens of
/// thousands of states, most of them far below any probability a report
/// prints. The dropped mass is below 1e-10 in the tests' assaults.
pub(super) const NEGLIGIBLE: f64 = 1e-15;

/// The longest assault the exact solver takes on, in turns. Since routed
/// units rally and come back, assaults last longer and the chain's live
/// states spread over positions, table edges and both units' staggers and
/// kills: the default assault's live states level off near 85 k a turn from
/// the tenth (91 k distinct turn starts in 20 turns, 676 k distinct states
/// within turns). What keeps them apart is play and outcome, not waste:
/// forgetting the kills would merge them 4 to 1, the formations or routing
/// 1.3 to 1.6 to 1, but forgetting `engaged` (an outcome metric, read by no
/// roll) only 1.03 to 1, and the positions take just 126 combinations of
/// distance and bands behind (the bands behind the attacker follow from the
/// distance and the bands behind the defender), so capping the bands merges
/// next to nothing. Each state's steps are therefore worked out once and
/// replayed in later turns (see the solver's `Known`): at a load of about 6 on this
/// two-core machine the default assault's 20 turns take 4.9 to 5.2 s of CPU
/// and 260 MB (10.5 s and 34 MB before), and its 30 turns 6.6 to 7.5 s and
/// 255 MB, over the 2 s budget: longer assaults are sampled, and the
/// default 30 turns are the decision model's to solve (issue 14, part B).
pub const EXACT_TURN_LIMIT: u32 = 20;

/// States the exact solver expands in one task before it merges their
/// successors (see [`Scenario::exact`]).
pub(super) const EXPAND_BLOCK: usize = 128;

/// States the exact solver expands at once, in blocks, while the batch
/// before merges: a batch of engagements holds about 120 successors a state.
pub(super) const EXPAND_BATCH: usize = 8 * EXPAND_BLOCK;

/// The rank of states that finished their turn.
pub(super) const NEXT_TURN: u32 = u32::MAX;

/// The mark of an ending among a state's steps (its code in the first word).
pub(super) const ENDED: u32 = u32::MAX - 1;

/// Each state the exact solver expanded, with its steps: the rank of each
/// successor (or [`ENDED`]), the successor and its chance. The assault's
/// turns repeat the same states (the default assault's 20 turns start from
/// 91 k distinct states in all, 85 k of them in each turn after the tenth),
/// so a state is worked out once and its steps replayed in later turns.
pub(super) type Known = HashMap<Packed, Steps, BuildHasherDefault<StateHasher>>;

/// A state's steps (see [`Known`]).
pub(super) type Steps = Box<[(u32, Packed, f64)]>;

pub(super) type Map<K> = HashMap<K, f64, BuildHasherDefault<StateHasher>>;

/// The successors of a block of states before they merge: live states with
/// their rank ([`Assault::progress`], or `NEXT_TURN`), and the endings.
#[derive(Default)]
pub(super) struct Successors {
    live: Vec<(u32, Packed, f64)>,
    ended: Vec<(u64, f64)>,
    /// The steps of the states expanded for the first time.
    learned: Vec<(Packed, Steps)>,
}

impl Successors {
    pub(super) fn clear(&mut self) {
        self.live.clear();
        self.ended.clear();
        self.learned.clear();
    }

    pub(super) fn is_empty(&self) -> bool {
        self.live.is_empty() && self.ended.is_empty()
    }

    /// Adds the block's successors to the maps, in order.
    pub(super) fn merge_into(
        &self,
        pending: &mut BTreeMap<u32, Map<Packed>>,
        current: &mut Map<Packed>,
        ended: &mut Map<u64>,
    ) {
        // Each successor looked up once before any is merged: the lookups
        // are independent, so their cache misses overlap, and the merges
        // that follow find their entries in cache (the maps are far larger
        // than it).
        let mut seen = 0usize;
        for &(later, packed, _) in &self.live {
            let map = if later == NEXT_TURN { Some(&*current) } else { pending.get(&later) };
            seen += usize::from(map.is_some_and(|map| map.contains_key(&packed)));
        }
        seen += self.ended.iter().filter(|(code, _)| ended.contains_key(code)).count();
        std::hint::black_box(seen);
        for &(code, mass) in &self.ended {
            *ended.entry(code).or_insert(0.0) += mass;
        }
        for &(later, packed, mass) in &self.live {
            let map = if later == NEXT_TURN { &mut *current } else { pending.entry(later).or_default() };
            *map.entry(packed).or_insert(0.0) += mass;
        }
    }
}

impl Assault {
    /// Runs a state to the end of its turn with dice.
    pub(super) fn sample_turn(&self, mut s: State, dice: &mut Dice) -> Node<State> {
        while s.phase != TURN_END {
            let pair = if self.wants_roll(&s) { Some(dice.two_d6_index()) } else { None };
            match self.step(s, pair) {
                Node::Live(next) => s = next,
                end => return end,
            }
        }
        Node::Live(s)
    }

    /// A new turn's state.
    pub(super) fn new_turn(mut s: State) -> State {
        s.phase = ATTACKER_THREAT;
        s.orders = 0;
        s.free_order = false;
        // "Artillery bombards only during the opponent's Orders phase": once
        // in each, whatever the target does.
        s.fire_ready = true;
        // A forced order from a test in the other player's turn waits for
        // the unit's next orders phase, so `forced` carries over.
        s
    }

    /// One step of the exact solver: every roll the state's phase may take,
    /// with its chance (a state at the end of its turn waits), into
    /// `branches` (cleared first: the solver reuses one buffer).
    pub(super) fn expand(&self, st: State, branches: &mut Vec<(Node<State>, f64)>) {
        branches.clear();
        // Any pair with a total does: only the total and whether it is double
        // one matter.
        if !self.wants_roll(&st) {
            branches.push((self.quiet_steps(self.step(st, None)), 1.0));
        } else if st.phase == ENGAGE_ATTACKER_ROLL || st.phase == DEFENDER_ENGAGE_ROLL {
            // Both engagement rolls at once.
            let (fighters, rating) = self.fighters(&st);
            for &(attacker_total, attacker_ways) in &TOTALS {
                for &(defender_total, defender_ways) in &TOTALS {
                    let pair = [pair_of_total(attacker_total), pair_of_total(defender_total)];
                    let node = self.engage_with(st, &fighters, rating, pair);
                    branches.push((self.quiet_steps(node), f64::from(attacker_ways * defender_ways) / 1296.0));
                }
            }
        } else {
            // Totals that lead to the same state (every pass of a threat
            // test, say) are merged here, among eleven, rather than in the
            // solver's large map.
            for &(total, ways) in &TOTALS {
                let node = self.quiet_steps(self.step(st, Some(pair_of_total(total))));
                let q = f64::from(ways) / 36.0;
                match branches.iter_mut().find(|(seen, _)| *seen == node) {
                    Some((_, p)) => *p += q,
                    None => branches.push((node, q)),
                }
            }
        }
    }

    /// Runs the steps that take no roll, as [`Assault::sample_turn`] does,
    /// up to the next roll or the end of the turn: the solver then merges
    /// states only where they wait for dice.
    pub(super) fn quiet_steps(&self, node: Node<State>) -> Node<State> {
        self.steps_until(node, |s| self.wants_roll(s))
    }

    /// Runs the steps up to one where `waits` (or the end of the turn),
    /// forgetting on the way what matters only in the Orders phase.
    pub(super) fn steps_until(&self, mut node: Node<State>, waits: impl Fn(&State) -> bool) -> Node<State> {
        while let Node::Live(s) = &mut node {
            // The defender's own successive orders count its orders in the
            // same field (the game's `defender.orders`), through the threat
            // test of a change of formation: kept there.
            if s.phase >= ENGAGE_ATTACKER_ROLL && s.phase != DEFENDER_ORDERS && s.phase != DEFENDER_DEPLOY_THREAT {
                // The count of orders and a pending free order matter only
                // in the orders phase (the next turn starts them afresh):
                // forgetting them after it lets the solver merge states
                // that differ in nothing else.
                s.orders = 0;
                s.free_order = false;
                s.fire_ready = true;
            }
            if s.phase == TURN_END || waits(s) {
                break;
            }
            node = self.step(*s, None);
        }
        node
    }

    /// How far into its turn a state is: every step of [`Assault::step`]
    /// raises it (the orders phase and its bombardments by the count of
    /// orders, a threat test by the length of its Huzzah! chain).
    pub(super) fn progress(s: &State) -> u32 {
        let huzzahs = u32::from(s.huzzahs);
        match s.phase {
            ATTACKER_ORDERS | BOMBARD => {
                (u32::from(ATTACKER_ORDERS) << 16)
                    | (u32::from(s.orders) << 8)
                    | (u32::from(s.phase == ATTACKER_ORDERS) << 4)
                    | huzzahs
            }
            phase => (u32::from(phase) << 16) | huzzahs,
        }
    }

    /// Expands a block of states of rank `rank` (of chance at least
    /// NEGLIGIBLE) with their chances, into `successors` (empty): from
    /// `known` when a state was expanded before, else worked out, and then
    /// kept in `successors.learned` for `known`.
    pub(super) fn expand_block(&self, rank: u32, states: &[(Packed, f64)], known: &Known, successors: &mut Successors) {
        let mut branches = Vec::with_capacity(TOTALS.len() * TOTALS.len());
        let mut steps: Vec<(u32, Packed, f64)> = Vec::with_capacity(TOTALS.len() * TOTALS.len());
        for &(packed, p) in states {
            let learned = known.get(&packed);
            if learned.is_none() {
                steps.clear();
                self.expand(State::unpack(packed), &mut branches);
                for &(node, q) in &branches {
                    steps.push(match node {
                        Node::End(code) => (ENDED, Packed(code, 0), q),
                        Node::Live(s) if s.phase == TURN_END => (NEXT_TURN, Self::new_turn(s).pack(), q),
                        Node::Live(s) => {
                            let later = Self::progress(&s);
                            debug_assert!(later > rank, "a step must lead to a later phase");
                            (later, s.pack(), q)
                        }
                    });
                }
            }
            let steps = learned.map_or(&steps[..], |learned| &learned[..]);
            for &(later, next, q) in steps {
                if later == ENDED {
                    successors.ended.push((next.0, p * q));
                } else {
                    successors.live.push((later, next, p * q));
                }
            }
            if learned.is_none() {
                successors.learned.push((packed, steps.into()));
            }
        }
    }

    pub(super) fn turn_stride(&self) -> u64 {
        let s = self.start();
        self.code(0, 2.min(self.turns), &s) - self.code(0, 1, &s)
    }
}

impl Scenario for Assault {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn sample(&self, dice: &mut Dice) -> u64 {
        let stride = self.turn_stride();
        let mut s = self.start();
        for turn in 1..=self.turns {
            match self.sample_turn(s, dice) {
                Node::End(code) => return code + u64::from(turn - 1) * stride,
                Node::Live(next) => s = Self::new_turn(next),
            }
        }
        self.code(2, self.turns, &s)
    }

    fn has_exact(&self) -> bool {
        self.turns <= EXACT_TURN_LIMIT
    }

    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        if self.turns > EXACT_TURN_LIMIT {
            return None;
        }
        // The absorbing chain propagated forward for all states together (as
        // `markov::absorb` does a turn at a time), a step at a time in the
        // order of the turn's phases: every step leads to a later phase (or a
        // later order, or a longer Huzzah! chain, by `progress`), so all the
        // ways into a state have merged before it is expanded, however many
        // rolls they took. Endings and states that finished their turn leave
        // at once. The maps key on packed states; a turn's endings merge in
        // a map of their own (keyed by their code at turn 1), which stays
        // small enough to be quick, and then join the result.
        let stride = self.turn_stride();
        let mut result: Vec<(u64, f64)> = Vec::new();
        let mut current: Map<Packed> = HashMap::default();
        current.insert(self.start().pack(), 1.0);
        // A rank's states are taken a batch at a time and expanded in blocks,
        // in parallel, while the blocks of the batch before merge, one after
        // another in their fixed order: on one thread or many, every sum is
        // taken in the same order, so the result is the same to the bit.
        let mut batch: Vec<(Packed, f64)> = Vec::with_capacity(EXPAND_BATCH);
        // Two sets of buffers, one filling while the other merges (reused,
        // so the solver allocates nothing per batch).
        let buffers = || (0..EXPAND_BATCH / EXPAND_BLOCK).map(|_| Successors::default()).collect::<Vec<_>>();
        let (mut expanding, mut expanded) = (buffers(), buffers());
        let mut known: Known = HashMap::default();
        for turn in 1..=self.turns {
            let mut ended: Map<u64> = HashMap::default();
            let mut pending: BTreeMap<u32, Map<Packed>> = BTreeMap::new();
            pending.insert(0, std::mem::take(&mut current));
            while let Some((rank, active)) = pending.pop_first() {
                let mut states = active.into_iter().filter(|&(_, p)| p >= NEGLIGIBLE);
                expanded.iter_mut().for_each(Successors::clear);
                loop {
                    batch.clear();
                    batch.extend(states.by_ref().take(EXPAND_BATCH));
                    if batch.is_empty() && expanded.iter().all(Successors::is_empty) {
                        break;
                    }
                    rayon::join(
                        || {
                            expanding
                                .par_iter_mut()
                                .zip(batch.par_chunks(EXPAND_BLOCK))
                                .for_each(|(successors, block)| self.expand_block(rank, block, &known, successors));
                        },
                        || {
                            for successors in &expanded {
                                successors.merge_into(&mut pending, &mut current, &mut ended);
                            }
                        },
                    );
                    // The states first expanded in this batch are known from
                    // now on (a state waits in one rank, so none of them
                    // comes up again within this one).
                    for successors in &mut expanding {
                        known.extend(successors.learned.drain(..));
                    }
                    std::mem::swap(&mut expanding, &mut expanded);
                    expanding.iter_mut().for_each(Successors::clear);
                }
            }
            let offset = u64::from(turn - 1) * stride;
            if turn == self.turns {
                for (packed, p) in current.drain() {
                    let s = State::unpack(packed);
                    debug_assert_eq!(self.code(2, 1, &s) + offset, self.code(2, self.turns, &s));
                    *ended.entry(self.code(2, 1, &s)).or_insert(0.0) += p;
                }
            }
            result.extend(ended.into_iter().map(|(code, p)| (code + offset, p)));
        }
        Some(result)
    }
}
