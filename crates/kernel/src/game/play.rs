//! Sampling: real dice, and choices by heuristic, from a solved table, or
//! by looking ahead ([`Policy::Lookahead`]: rollouts of the base play from
//! each option, the step replayed up to the decision).

use super::*;
use crate::dice::chunk_generator;
use std::hash::BuildHasher;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize};

/// Real dice, and choices by heuristic or from a solved table; `L` keeps
/// what each step is given where a side looks ahead (`K`: [`Lookahead`]), and
/// nothing otherwise ([`NoLook`], the default: a fight in which no side
/// looks ahead, and every rollout, compiles to a loop with no recording in
/// it).
pub(super) struct Rolling<'a, S, K = NoLook> {
    pub(super) dice: &'a mut Dice,
    pub(super) plan: Plan,
    pub(super) solution: Option<&'a Solution<S>>,
    /// The turn being played (0-based).
    pub(super) step: u32,
    /// Where in the current state's tree the step is (`NO_NODE`: past the
    /// last decision, or no solved table).
    pub(super) node: u32,
    /// Where a side plays [`Policy::Lookahead`] (in the fight itself, never
    /// in a rollout): the rollouts, and what the step has been given so far.
    pub(super) look: K,
}

/// What a fate keeps of a step for a side looking ahead: nothing
/// ([`NoLook`]), or all it was given ([`Lookahead`]). A type rather than a
/// run-time switch, so that the sampler of a fight in which no side looks
/// ahead pays nothing for it (measured: 4-5% of the assault's sampling time).
pub(super) trait Look<S> {
    /// Keeps what the step was given.
    fn keep(&mut self, given: impl FnOnce() -> Given);
    /// A new step starts from `state`.
    fn restart(&mut self, state: &S);
    /// The look-ahead, where a side looks ahead.
    fn lookahead(&self) -> Option<&Lookahead<'_, S>>;
}

/// No side looks ahead: nothing is kept.
pub(super) struct NoLook;

impl<S> Look<S> for NoLook {
    #[inline(always)]
    fn keep(&mut self, _given: impl FnOnce() -> Given) {}

    #[inline(always)]
    fn restart(&mut self, _state: &S) {}

    #[inline(always)]
    fn lookahead(&self) -> Option<&Lookahead<'_, S>> {
        None
    }
}

impl<'a, S: Copy> Look<S> for Lookahead<'a, S> {
    #[inline]
    fn keep(&mut self, given: impl FnOnce() -> Given) {
        self.given.push(given());
    }

    #[inline]
    fn restart(&mut self, state: &S) {
        self.start = *state;
        self.given.clear();
    }

    fn lookahead(&self) -> Option<&Lookahead<'_, S>> {
        Some(self)
    }
}

/// What a fate gave a step: kept, while a side looks ahead, so that a
/// rollout can replay the step up to the decision it looks at.
pub(super) enum Given {
    Die(u32),
    Ways(bool),
    Draw(u32),
    Grouped(Box<dyn Any>),
    Decided(u16),
}

/// A side's look-ahead in one fight.
pub(super) struct Lookahead<'a, S> {
    /// The game, behind a trait object so that [`Rolling`] stays generic
    /// over the state only.
    rollouts: &'a dyn Rollouts<S>,
    /// The decisions already worked out, by every fight on every thread.
    memo: &'a Memo<S>,
    /// The state the current step started from.
    start: S,
    /// What the fate has given the current step so far.
    given: Vec<Given>,
}

impl<S: Copy> Lookahead<'_, S> {
    /// Where side `side` now decides among `options` in turn `turn`, as a
    /// key: `None` where the step was given a grouped draw before the
    /// decision (its value is not hashable), so that the decision is not
    /// kept.
    fn situation(&self, turn: u32, side: u8, options: &[u16]) -> Option<Situation<S>> {
        let mut trail = Vec::with_capacity(2 * (self.given.len() + options.len()));
        for given in &self.given {
            let (tag, value) = match *given {
                Given::Die(value) => (0, value),
                Given::Ways(hit) => (1, u32::from(hit)),
                Given::Draw(value) => (2, value),
                Given::Decided(option) => (3, u32::from(option)),
                Given::Grouped(_) => return None,
            };
            trail.extend([tag, value]);
        }
        for &option in options {
            trail.extend([4, u32::from(option)]);
        }
        Some(Situation { start: self.start, turn, side, trail: trail.into_boxed_slice() })
    }
}

/// Where a look-ahead decides: the state its step started from, the turn,
/// the side, and what the step was given before the decision (each a tag
/// and a value) followed by the options offered. Its decision depends on
/// nothing else.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Situation<S> {
    start: S,
    turn: u32,
    side: u8,
    trail: Box<[u32]>,
}

/// The shards of a [`Memo`], each behind its own lock: enough that two
/// threads seldom wait on one.
const MEMO_SHARDS: usize = 64;

/// The most decisions a look-ahead's memo keeps ([`Memo`]); past it a
/// decision not kept is worked out again, the same way, so the limit bounds
/// the memory and never changes a decision.
pub const LOOKAHEAD_MEMO_LIMIT: usize = 4_000_000;

type Shard<S> = Mutex<HashMap<Situation<S>, u16, BuildHasherDefault<CodeHasher>>>;

/// The look-ahead's decisions, shared by every fight of a played scenario
/// on every thread ([`Played`] holds one). A decision is a pure function of
/// its situation (the step's start state, the turn, the side, what the
/// step was given and the options; its rollouts are seeded from a hash of
/// it, not from the fight's dice), so equal situations get equal decisions whoever meets
/// them first, the counts are the same on any thread count, and the many
/// fights that meet the same situation (every fight starts from the same
/// one) work it out once.
pub struct Memo<S> {
    shards: Box<[Shard<S>]>,
    /// Decisions asked of the memo, and those it already held.
    asked: AtomicU64,
    found: AtomicU64,
    /// Decisions it holds.
    kept: AtomicUsize,
}

impl<S> fmt::Debug for Memo<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Memo").field("reuse", &self.reuse()).finish_non_exhaustive()
    }
}

impl<S: Eq + Hash> Memo<S> {
    /// An empty memo.
    pub(super) fn new() -> Memo<S> {
        Memo {
            shards: (0..MEMO_SHARDS).map(|_| Mutex::new(HashMap::default())).collect(),
            asked: AtomicU64::new(0),
            found: AtomicU64::new(0),
            kept: AtomicUsize::new(0),
        }
    }

    fn shard(&self, hash: u64) -> &Shard<S> {
        &self.shards[(hash >> 58) as usize % MEMO_SHARDS]
    }

    fn get(&self, situation: &Situation<S>, hash: u64) -> Option<u16> {
        self.asked.fetch_add(1, Ordering::Relaxed);
        let found = self.shard(hash).lock().unwrap_or_else(|e| e.into_inner()).get(situation).copied();
        if found.is_some() {
            self.found.fetch_add(1, Ordering::Relaxed);
        }
        found
    }

    fn insert(&self, situation: Situation<S>, hash: u64, option: u16) {
        if self.kept.load(Ordering::Relaxed) >= LOOKAHEAD_MEMO_LIMIT {
            return;
        }
        if self.shard(hash).lock().unwrap_or_else(|e| e.into_inner()).insert(situation, option).is_none() {
            self.kept.fetch_add(1, Ordering::Relaxed);
        }
    }
}

impl<S> Memo<S> {
    /// How much the look-ahead's decisions were reused: the decisions asked
    /// of the memo, those it already held, and those it holds.
    pub fn reuse(&self) -> MemoReuse {
        MemoReuse {
            asked: self.asked.load(Ordering::Relaxed),
            found: self.found.load(Ordering::Relaxed),
            kept: self.kept.load(Ordering::Relaxed),
        }
    }
}

/// A look-ahead memo's use so far (see [`Memo::reuse`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoReuse {
    /// Decisions (with more than one option, and no grouped draw before
    /// them in their step) asked of the memo.
    pub asked: u64,
    /// Of those, the ones it already held.
    pub found: u64,
    /// Decisions it holds.
    pub kept: usize,
}

/// Rollouts of a game under its base plan (see [`Plan::base`]).
pub(super) trait Rollouts<S> {
    /// The winner (under the purpose) of a fight that starts the step from
    /// `start` in turn `turn` (0-based), is given `given` in it, takes
    /// `option` at the decision that follows, and is then played out by
    /// both sides under the base plan with `dice`.
    fn rollout(&self, start: &S, turn: u32, given: &[Given], option: u16, dice: &mut Dice) -> u8;
    /// The most rounds of rollouts a decision takes ([`Game::lookahead_rounds`]).
    fn rounds(&self) -> u32;
}

/// A game under its base plan: the rollouts of a look-ahead.
struct GameRollouts<'a, G> {
    game: &'a G,
    base: Plan,
}

impl<G: Game> Rollouts<G::State> for GameRollouts<'_, G> {
    fn rollout(&self, start: &G::State, turn: u32, given: &[Given], option: u16, dice: &mut Dice) -> u8 {
        let mut state = *start;
        let rest = Rolling { dice, plan: self.base, solution: None, step: turn, node: NO_NODE, look: NoLook };
        let mut fate = Replay { given, at: 0, option: Some(option), rest };
        let end = match self.game.step(&mut state, &mut fate) {
            Some(end) => end,
            None => {
                let next = if self.game.starts_turn(&state) { turn + 1 } else { turn };
                run(self.game, &mut state, next, &mut fate.rest).0
            }
        };
        self.game.purpose().winner(end)
    }

    fn rounds(&self) -> u32 {
        self.game.lookahead_rounds()
    }
}

/// A fate that gives a step what it was given before, then the option
/// looked at, then real dice and the base plan's choices.
struct Replay<'a, 'b, S> {
    given: &'a [Given],
    at: usize,
    option: Option<u16>,
    rest: Rolling<'b, S, NoLook>,
}

impl<S: Copy> Replay<'_, '_, S> {
    /// The next thing given, while the replay lasts.
    fn next(&mut self) -> Option<&Given> {
        let given = self.given.get(self.at)?;
        self.at += 1;
        Some(given)
    }
}

/// A replayed step asked for something it was not given the first time.
fn diverged() -> ! {
    panic!("a replayed step took another chance or choice than it did: a step must depend on its state and fate only")
}

impl<S: Copy + Eq + Hash> Fate for Replay<'_, '_, S> {
    fn die(&mut self, sides: u32) -> u32 {
        match self.next() {
            Some(&Given::Die(value)) => value,
            Some(_) => diverged(),
            None => self.rest.die(sides),
        }
    }

    fn ways(&mut self, ways: u32, of: u32) -> bool {
        match self.next() {
            Some(&Given::Ways(hit)) => hit,
            Some(_) => diverged(),
            None => self.rest.ways(ways, of),
        }
    }

    fn draw<L: Law + ?Sized>(&mut self, law: &L) -> u32 {
        match self.next() {
            Some(&Given::Draw(value)) => value,
            Some(_) => diverged(),
            None => self.rest.draw(law),
        }
    }

    fn draw_grouped<T: Clone + 'static>(
        &mut self,
        sample: impl FnOnce(&mut Dice) -> T,
        law: impl FnOnce() -> Vec<(T, f64)>,
    ) -> T {
        match self.next() {
            Some(Given::Grouped(value)) => value.downcast_ref::<T>().unwrap_or_else(|| diverged()).clone(),
            Some(_) => diverged(),
            None => self.rest.draw_grouped(sample, law),
        }
    }

    fn decide(
        &mut self,
        side: u8,
        decision: &'static Decision,
        options: &[u16],
        heuristic: &dyn Fn(Policy) -> u16,
    ) -> u16 {
        match self.next() {
            Some(&Given::Decided(option)) => option,
            Some(_) => diverged(),
            None => match self.option.take() {
                Some(option) => {
                    debug_assert!(options.contains(&option));
                    option
                }
                None => self.rest.decide(side, decision, options, heuristic),
            },
        }
    }
}

/// The most rounds of rollouts a look-ahead plays from each option of a
/// decision ([`Policy::Lookahead`]), unless the game says otherwise
/// ([`Game::lookahead_rounds`]): each round plays every option once on the
/// same dice.
pub const LOOKAHEAD_ROUNDS: u32 = 32;

/// The rounds a look-ahead plays before it next weighs the options.
pub const LOOKAHEAD_BATCH: u32 = 8;

/// How sure a look-ahead must be, after all its rounds, to leave the base
/// play's option: the mean of the paired differences between the leading
/// option's rollouts and the base option's must exceed this many of its
/// standard errors.
pub const LOOKAHEAD_Z: f64 = 2.0;

/// How promising the leading option must look after a batch for the
/// look-ahead to play the next: its paired lead over the base option in
/// standard errors. Below it the base option is kept at once.
pub const LOOKAHEAD_PROMISE: f64 = 1.0;

/// A rollout's worth to `side` under `objective`: 1 for its win, -1 for
/// its loss under the margin, 0 otherwise.
fn score(winner: u8, side: u8, objective: Objective) -> i32 {
    match (winner, objective) {
        (w, _) if w == side => 1,
        (NONE, _) | (_, Objective::Win) => 0,
        _ => -1,
    }
}

pub(super) const NO_NODE: u32 = u32::MAX;

impl<S, K> Rolling<'_, S, K> {
    /// Follows a chance branch down the tree when a decision lies below it.
    #[inline]
    pub(super) fn follow(&mut self, index: usize) {
        if self.node != NO_NODE {
            let graph = &self.solution.expect("a node implies a solution").graph;
            self.node = match graph.nodes[self.node as usize] {
                Node::Chance { first, .. } => graph.children[first as usize + index].1,
                _ => panic!("the step took a chance where its enumeration did not"),
            };
            self.node = graph.tracked(self.node);
        }
    }
}

impl<S: Copy + Eq + Hash, K: Look<S>> Rolling<'_, S, K> {
    /// Keeps what the step was given, where a side looks ahead.
    #[inline(always)]
    fn keep(&mut self, given: impl FnOnce() -> Given) {
        self.look.keep(given);
    }

    /// Side `side`'s choice by looking ahead ([`Policy::Lookahead`]):
    /// the memo's ([`Memo`]) where the same situation was met before, by
    /// this fight or another; else rounds of rollouts, each playing every
    /// option once from this decision on the same dice (seeded from a hash
    /// of the decision's [`Situation`] and the round, so that the decision
    /// is a function of where it is taken: the same on any thread count,
    /// whoever meets it first), the rest of
    /// the fight played under the base plan, in batches of
    /// [`LOOKAHEAD_BATCH`] up to the game's [`Game::lookahead_rounds`]. The
    /// option with the best total is taken where, after every round, its
    /// paired difference from the base play's option is clear
    /// ([`LOOKAHEAD_Z`] standard errors); the look stops early, keeping the
    /// base play's option, where after a batch no other option leads it by
    /// [`LOOKAHEAD_PROMISE`] standard errors.
    fn look_ahead(&mut self, side: u8, options: &[u16], heuristic: &dyn Fn(Policy) -> u16) -> u16 {
        let look = self.look.lookahead().expect("a side looks ahead only with rollouts");
        let situation = look.situation(self.step, side, options);
        let seed = match &situation {
            Some(situation) => {
                let hash = BuildHasherDefault::<CodeHasher>::default().hash_one(situation);
                if let Some(option) = look.memo.get(situation, hash) {
                    return option;
                }
                hash
            }
            // A grouped draw before the decision: not kept, and seeded from
            // the fight's own stream.
            None => self.dice.word(),
        };
        let look = self.look.lookahead().expect("a side looks ahead only with rollouts");
        let option = self.weigh(look, side, options, heuristic(Policy::Bold), seed);
        if let Some(situation) = situation {
            // The seed is the situation's hash.
            look.memo.insert(situation, seed, option);
        }
        option
    }

    /// The look-ahead's choice among `options` for `side`, `base` the base
    /// play's, its rollouts seeded from `seed` and the round.
    fn weigh(&self, look: &Lookahead<'_, S>, side: u8, options: &[u16], base: u16, seed: u64) -> u16 {
        let objective = self.plan.objective[side as usize];
        let most = look.rollouts.rounds().max(2);
        let n = options.len();
        let b = options.iter().position(|&o| o == base).expect("the base play picks an offered option");
        let mut totals = vec![0i64; n];
        let mut squares = vec![0i64; n];
        let mut scores = vec![0i32; n];
        let mut round = 0;
        loop {
            let batch_end = (round + LOOKAHEAD_BATCH).min(most);
            while round < batch_end {
                for (j, &option) in options.iter().enumerate() {
                    let mut dice = Dice::from_generator(chunk_generator(seed, u64::from(round)));
                    let winner = look.rollouts.rollout(&look.start, self.step, &look.given, option, &mut dice);
                    scores[j] = score(winner, side, objective);
                }
                for j in 0..n {
                    let d = i64::from(scores[j] - scores[b]);
                    totals[j] += i64::from(scores[j]);
                    squares[j] += d * d;
                }
                round += 1;
            }
            // The best total, ties to the base option, then to the first listed.
            let best = (0..n).max_by_key(|&j| (totals[j], j == b, std::cmp::Reverse(j))).expect("options");
            if best == b {
                return base;
            }
            // The paired difference's mean in standard errors.
            let rounds = f64::from(round);
            let mean = (totals[best] - totals[b]) as f64 / rounds;
            let variance = ((squares[best] as f64 / rounds) - mean * mean).max(0.0) * rounds / (rounds - 1.0);
            let error = (variance / rounds).sqrt();
            let lead = if error > 0.0 { mean / error } else { f64::INFINITY };
            if round >= most {
                return if lead > LOOKAHEAD_Z { options[best] } else { base };
            }
            if lead < LOOKAHEAD_PROMISE {
                return base;
            }
        }
    }
}

impl<S: Copy + Eq + Hash, K: Look<S>> Fate for Rolling<'_, S, K> {
    #[inline]
    fn die(&mut self, sides: u32) -> u32 {
        if sides <= 1 {
            return 1;
        }
        let value = self.dice.die(sides);
        self.follow(value as usize - 1);
        self.keep(|| Given::Die(value));
        value
    }

    #[inline]
    fn ways(&mut self, ways: u32, of: u32) -> bool {
        if ways == 0 {
            return false;
        }
        if ways >= of {
            return true;
        }
        let hit = (self.dice.below(u64::from(of)) as u32) < ways;
        self.follow(usize::from(!hit));
        self.keep(|| Given::Ways(hit));
        hit
    }

    #[inline]
    fn draw<L: Law + ?Sized>(&mut self, law: &L) -> u32 {
        let value = law.sample(self.dice);
        if self.node != NO_NODE && law.outcomes().len() > 1 {
            let index =
                law.outcomes().binary_search_by_key(&value, |&(v, _)| v).expect("a sampled value is in its law");
            self.follow(index);
        }
        self.keep(|| Given::Draw(value));
        value
    }

    fn draw_grouped<T: Clone + 'static>(
        &mut self,
        sample: impl FnOnce(&mut Dice) -> T,
        law: impl FnOnce() -> Vec<(T, f64)>,
    ) -> T {
        if self.node == NO_NODE {
            let value = sample(self.dice);
            self.keep(|| Given::Grouped(Box::new(value.clone())));
            return value;
        }
        // A decision lies below: draw from the law itself, to follow the
        // branch the enumeration made of it.
        let law = law();
        let mut u = (self.dice.word() >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
        let index = law
            .iter()
            .position(|&(_, p)| {
                u -= p;
                u < 0.0
            })
            .unwrap_or(law.len() - 1);
        self.follow(index);
        law[index].0.clone()
    }

    fn decide(
        &mut self,
        side: u8,
        decision: &'static Decision,
        options: &[u16],
        heuristic: &dyn Fn(Policy) -> u16,
    ) -> u16 {
        if self.plan.policy[side as usize] == Policy::Lookahead && options.len() > 1 {
            let option = self.look_ahead(side, options, heuristic);
            self.keep(|| Given::Decided(option));
            return option;
        }
        if let Some(option) = settled(self.plan, side, decision, options, heuristic) {
            self.keep(|| Given::Decided(option));
            return option;
        }
        let solution = self.solution.expect("best play is sampled from a solved table");
        let graph = &solution.graph;
        let Node::Decide { first, count, slot, .. } = graph.nodes[self.node as usize] else {
            panic!("decision {} taken where its enumeration took none", decision.name)
        };
        debug_assert_eq!(count as usize, options.len());
        let chosen = solution.choices[self.step as usize][slot as usize] as usize;
        let (option, child) = graph.children[first as usize + chosen];
        self.node = graph.tracked(child);
        option as u16
    }
}

/// A decision that needs no table and no branch: a single option, or a side
/// playing a heuristic. Sampling and enumeration settle these alike, so the
/// two never disagree on where a decision node stands.
pub(super) fn settled(
    plan: Plan,
    side: u8,
    decision: &'static Decision,
    options: &[u16],
    heuristic: &dyn Fn(Policy) -> u16,
) -> Option<u16> {
    debug_assert!(!options.is_empty(), "decision {} offered no option", decision.name);
    if options.len() == 1 {
        return Some(options[0]);
    }
    let policy = plan.policy[side as usize];
    assert!(policy != Policy::Lookahead, "a side looking ahead is sampled, never enumerated");
    (policy != Policy::Best).then(|| heuristic(policy))
}

/// Plays one fight with real dice under `plan`, following `solution`'s table
/// for the sides playing `best`.
/// A side looking ahead ([`Policy::Lookahead`]) takes, at each of its
/// decisions, the option whose rollouts under the base plan ([`Plan::base`])
/// do clearly best.
/// Its decisions are kept in `memo`, shared by every fight of the scenario.
pub(super) fn play<G: Game>(
    game: &G,
    plan: Plan,
    solution: Option<&Solution<G::State>>,
    memo: &Memo<G::State>,
    dice: &mut Dice,
) -> u64 {
    let mut state = game.start();
    let (end, steps) = if plan.looks_ahead() {
        assert!(solution.is_none(), "a side looking ahead plays against a heuristic, not a solved table");
        let rollouts = GameRollouts { game, base: plan.base() };
        let rollouts = &rollouts as &dyn Rollouts<G::State>;
        let look = Lookahead { rollouts, memo, start: state, given: Vec::new() };
        let mut fate = Rolling { dice, plan, solution, step: 0, node: NO_NODE, look };
        run(game, &mut state, 0, &mut fate)
    } else {
        let mut fate = Rolling { dice, plan, solution, step: 0, node: NO_NODE, look: NoLook };
        run(game, &mut state, 0, &mut fate)
    };
    outcome_code(game, end, steps, &state)
}

/// Plays a fight from `state`, a state met in turn `first` (0-based), to
/// its end: how it ended and after how many turns.
fn run<G: Game, K: Look<G::State>>(
    game: &G,
    state: &mut G::State,
    first: u32,
    fate: &mut Rolling<'_, G::State, K>,
) -> (End, u32) {
    let turns = game.steps();
    let solution = fate.solution;
    for turn in first..turns {
        fate.step = turn;
        loop {
            fate.node = match solution {
                Some(solution) => {
                    let id = *solution.graph.ids.get(state).expect("every reachable state is in the solved graph");
                    solution.graph.tracked(solution.graph.root[id as usize])
                }
                None => NO_NODE,
            };
            fate.look.restart(state);
            if let Some(end) = game.step(state, fate) {
                return (end, turn + 1);
            }
            if game.starts_turn(state) {
                break;
            }
        }
    }
    (game.at_limit(state), turns)
}

/// The outcome code of a fight that ended `end` after `steps` steps in
/// `state`: the game's code (under the winner its purpose gives) with the
/// `ended` metric after it (see [`Played`]): what a solver of a game's own
/// must code its outcomes as.
pub fn outcome_code<G: Game>(game: &G, end: End, steps: u32, state: &G::State) -> u64 {
    game.code(game.purpose().winner(end), steps, state) * ENDED.len() as u64 + end.ended_index()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::{Metric, WINNERS};
    use crate::runner::RunOptions;
    use crate::scenario::DynScenario;

    static PICK: Decision = Decision {
        name: "pick",
        who: "attacker",
        doc: "the long chance (a die: 1 wins) or the good one (1-5 wins)",
        options: "long, good",
    };
    static PICK_DECISIONS: &[&Decision] = &[&PICK];

    /// Two turns, an attack: in the first the attacker survives 5 in 6
    /// (else the defender wins); in the second a die (a grouped draw) is
    /// rolled, and on an even die the attacker picks the long chance (bold's
    /// pick: 1 in 6 to win) or the good one (5 in 6); on an odd die only the
    /// long chance is offered. So best play wins 5/6 * (1/2 * 5/6 + 1/2 *
    /// 1/6) = 5/12, bold 5/6 * 1/6 = 5/36, and a look-ahead, replaying the
    /// die to each decision, must play the good chance on every even die.
    struct Pick {
        layout: Layout,
        /// The second turn's die is a grouped draw (not kept in the
        /// look-ahead's memo), else a plain die.
        grouped: bool,
    }

    impl Game for Pick {
        type State = u8;

        fn layout(&self) -> &Layout {
            &self.layout
        }
        fn start(&self) -> u8 {
            0
        }
        fn steps(&self) -> u32 {
            2
        }
        fn step<F: Fate>(&self, state: &mut u8, fate: &mut F) -> Option<End> {
            if *state == 0 {
                *state = 1;
                return (!fate.ways(5, 6)).then_some(End::Defender);
            }
            let die = if self.grouped {
                fate.draw_grouped(|dice| dice.die(6), || (1..=6).map(|v| (v, 1.0 / 6.0)).collect())
            } else {
                fate.die(6)
            };
            let options: &[u16] = if die % 2 == 0 { &[0, 1] } else { &[0] };
            let pick = fate.decide(ATTACKER, &PICK, options, &|_| 0);
            let wins = if pick == 0 { 1 } else { 5 };
            Some(if fate.die(6) <= wins { End::Attacker } else { End::Defender })
        }
        fn purpose(&self) -> Purpose {
            Purpose::Attack
        }
        fn code(&self, winner: u8, _: u32, _: &u8) -> u64 {
            u64::from(winner)
        }
        fn decisions(&self) -> &'static [&'static Decision] {
            PICK_DECISIONS
        }
        fn describe_state(&self, state: &u8, _: u8) -> String {
            format!("turn {}", state + 1)
        }
        fn describe_option(&self, _: &'static Decision, option: u16) -> String {
            ["long", "good"][usize::from(option)].into()
        }
    }

    fn pick(attacker: Policy) -> Played<Pick> {
        pick_with(attacker, true)
    }

    fn pick_with(attacker: Policy, grouped: bool) -> Played<Pick> {
        let layout = Layout::new(vec![Metric::categories("winner", "who won", WINNERS)]);
        Played::new(Pick { layout, grouped }, Plan { policy: [attacker, Policy::Bold], ..Plan::BEST })
    }

    #[test]
    fn a_look_ahead_takes_the_option_best_play_takes() {
        let exact = |policy| pick(policy).exact_distribution().expect("solved").probability("winner", 0);
        assert!((exact(Policy::Best) - 5.0 / 12.0).abs() < 1e-12);
        assert!((exact(Policy::Bold) - 5.0 / 36.0).abs() < 1e-12);
        let looking = pick(Policy::Lookahead);
        assert!(!DynScenario::has_exact(&looking), "a look-ahead is sampled only");
        let samples = 4000;
        let sampled = looking.simulate(&RunOptions::new(samples, 5)).expect("run").probability("winner", 0);
        // Within four standard errors of best play's 5/12 (0.0078 each), and
        // far from bold's 5/36.
        let error = (5.0 / 12.0 * 7.0 / 12.0 / samples as f64).sqrt();
        assert!((sampled - 5.0 / 12.0).abs() < 4.0 * error, "look-ahead wins {sampled}, best play 5/12");
    }

    #[test]
    fn a_look_ahead_gives_the_same_counts_on_any_thread_count() {
        let looking = pick(Policy::Lookahead);
        let law = |threads| looking.simulate(&RunOptions::new(3000, 9).with_threads(threads)).expect("run");
        let one = law(1);
        assert_eq!(one.probability("winner", 0), law(3).probability("winner", 0));
        assert_eq!(one.samples(), Some(3000));
    }

    #[test]
    fn a_look_ahead_decides_each_situation_once_and_alike() {
        // With a plain die before the decision, the situations the
        // look-ahead decides in are three (turn 2 after a 2, a 4 or a 6):
        // each is worked out once, by whichever fight meets it first, and
        // every other fight reuses it, on one thread as on three; the play
        // is still best play's (the good chance on every even die), within
        // four standard errors of 5/12.
        for threads in [1, 3] {
            let looking = pick_with(Policy::Lookahead, false);
            let samples = 4000;
            let law = looking.simulate(&RunOptions::new(samples, 5).with_threads(threads)).expect("run");
            let reuse = looking.lookahead_reuse();
            assert_eq!(reuse.kept, 3, "{reuse:?}");
            // Two threads may both work out a situation before either keeps it.
            assert!(reuse.asked - reuse.found >= 3 && reuse.asked - reuse.found <= 3 * threads as u64, "{reuse:?}");
            // The decision is asked in the fights that reach an even die: about 5/12 of them.
            assert!(reuse.asked > samples / 3 && reuse.asked < samples / 2, "{reuse:?}");
            let sampled = law.probability("winner", 0);
            let error = (5.0 / 12.0 * 7.0 / 12.0 / samples as f64).sqrt();
            assert!((sampled - 5.0 / 12.0).abs() < 4.0 * error, "look-ahead wins {sampled}, best play 5/12");
        }
        // A grouped draw before the decision keeps it out of the memo.
        let grouped = pick(Policy::Lookahead);
        grouped.simulate(&RunOptions::new(500, 5)).expect("run");
        assert_eq!(grouped.lookahead_reuse(), MemoReuse::default());
        // Counts are the same on any thread count.
        let plain = pick_with(Policy::Lookahead, false);
        let law = |threads| plain.simulate(&RunOptions::new(3000, 9).with_threads(threads)).expect("run");
        assert_eq!(law(1).probability("winner", 0), law(3).probability("winner", 0));
    }
}
