//! Solving: backward induction over turn-indexed states, the table of
//! choices, and the forward walk to the exact distribution.

use super::*;

/// What a state is worth to both sides under the play solved: each side's
/// chance of winning under the fight's purpose (`wins`), each side's chance
/// of beating the other outright (`beats`: the secondary aim that decides
/// between options the purpose values alike), and the turns still to play
/// (`turns`, expected: what decides last).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Worth {
    pub(super) wins: [f64; 2],
    pub(super) beats: [f64; 2],
    pub(super) turns: f64,
}

/// What ending `end` is worth under `purpose`: no turns left to play.
pub(super) fn ending_worth(purpose: Purpose, end: End) -> Worth {
    let mut worth = Worth::default();
    match purpose.winner(end) {
        ATTACKER => worth.wins[0] = 1.0,
        DEFENDER => worth.wins[1] = 1.0,
        _ => {}
    }
    if let Some(side) = end.beaten_by() {
        worth.beats[side as usize] = 1.0;
    }
    worth
}

pub(super) fn objective_of(wins: [f64; 2], side: u8, objective: Objective) -> f64 {
    let me = wins[side as usize];
    match objective {
        Objective::Margin => me - wins[1 - side as usize],
        Objective::Win => me,
    }
}

/// Values of the secondary aims closer than this are a tie (turns are
/// counted in whole turns, so a tolerance this size never hides a real
/// difference in them).
pub(super) const SECONDARY_TIE: f64 = 1e-9;

/// Side `side`'s preference key for an option: its aim under the purpose
/// and its objective, then its margin of outright wins (routing the enemy,
/// not being routed), then the turns to play, fewer where that margin is
/// not negative (a side with something to gain ends the fight sooner, one
/// with something to lose draws it out).
#[inline(always)]
pub(crate) fn preference(aim: f64, beat: f64, turns: f64) -> [f64; 3] {
    [aim, beat, if beat >= -TIE { -turns } else { turns }]
}

/// Whether preference key `a` beats `b`: lexicographically, each part
/// within its tolerance a tie.
#[inline(always)]
pub(crate) fn prefers(a: [f64; 3], b: [f64; 3]) -> bool {
    let tolerances = [TIE, TIE, SECONDARY_TIE];
    for i in 0..3 {
        if a[i] > b[i] + tolerances[i] {
            return true;
        }
        if a[i] < b[i] - tolerances[i] {
            return false;
        }
    }
    false
}

/// What backward induction carries for each state, and how a deciding side
/// ranks it: both sides' chances ([`Worth`], under a [`Plan`]'s
/// objectives), or, where every side that decides maximises one number or
/// its negative, that number alone with the secondary aims ([`Scaled`]),
/// which is less to read and add in each sweep.
pub(super) trait Value: Copy + Send + Sync {
    /// How the value is read from a [`Worth`] and ranked.
    type How: Copy + Send + Sync;
    const ZERO: Self;
    fn of(worth: Worth, how: Self::How) -> Self;
    fn add_scaled(&mut self, p: f64, other: Self);
    /// One more turn to play, with chance `p`.
    fn add_turn(&mut self, p: f64);
    /// What side `side` maximises, most important first (see [`preference`]).
    fn key(self, side: u8, how: Self::How) -> [f64; 3];
}

impl Value for Worth {
    type How = Plan;
    const ZERO: Worth = Worth { wins: [0.0; 2], beats: [0.0; 2], turns: 0.0 };

    #[inline(always)]
    fn of(worth: Worth, _: Plan) -> Worth {
        worth
    }

    #[inline(always)]
    fn add_scaled(&mut self, p: f64, other: Worth) {
        for s in 0..2 {
            self.wins[s] += p * other.wins[s];
            self.beats[s] += p * other.beats[s];
        }
        self.turns += p * other.turns;
    }

    #[inline(always)]
    fn add_turn(&mut self, p: f64) {
        self.turns += p;
    }

    #[inline(always)]
    fn key(self, side: u8, plan: Plan) -> [f64; 3] {
        let s = side as usize;
        preference(objective_of(self.wins, side, plan.objective[s]), self.beats[s] - self.beats[1 - s], self.turns)
    }
}

/// One number that every deciding side maximises or minimises:
/// `weights[0] * attacker wins + weights[1] * defender wins`, side `s`
/// maximising `signs[s]` times it, and likewise its outright wins'
/// margin, `beat_weights` against the two sides' outright wins. Both sides
/// maximising their margin is the zero-sum case (the attacker's margin,
/// which the defender minimises); a side deciding alone may maximise either
/// objective.
#[derive(Clone, Copy, Debug)]
pub(super) struct Scalar {
    pub(super) weights: [f64; 2],
    pub(super) beat_weights: [f64; 2],
    pub(super) signs: [f64; 2],
}

impl Scalar {
    /// The one number of `plan`, where there is one.
    pub(super) fn of(plan: Plan) -> Option<Scalar> {
        let deciding = plan.policy.map(|p| p == Policy::Best);
        let weights_of = |side: usize| {
            let mut weights = [0.0; 2];
            weights[side] = 1.0;
            if plan.objective[side] == Objective::Margin {
                weights[1 - side] = -1.0;
            }
            weights
        };
        let margin_of = |side: usize| {
            let mut weights = [-1.0; 2];
            weights[side] = 1.0;
            weights
        };
        match deciding {
            [true, true] => (plan.objective == [Objective::Margin; 2]).then_some(Scalar {
                weights: [1.0, -1.0],
                beat_weights: [1.0, -1.0],
                signs: [1.0, -1.0],
            }),
            [false, true] => Some(Scalar { weights: weights_of(1), beat_weights: margin_of(1), signs: [1.0; 2] }),
            _ => Some(Scalar { weights: weights_of(0), beat_weights: margin_of(0), signs: [1.0; 2] }),
        }
    }
}

/// A state's worth as a [`Scalar`] reads it: the aim, the outright wins'
/// margin, and the turns to play.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Scaled {
    pub(super) aim: f64,
    pub(super) beat: f64,
    pub(super) turns: f64,
}

impl Value for Scaled {
    type How = Scalar;
    const ZERO: Scaled = Scaled { aim: 0.0, beat: 0.0, turns: 0.0 };

    #[inline(always)]
    fn of(worth: Worth, how: Scalar) -> Scaled {
        Scaled {
            aim: how.weights[0] * worth.wins[0] + how.weights[1] * worth.wins[1],
            beat: how.beat_weights[0] * worth.beats[0] + how.beat_weights[1] * worth.beats[1],
            turns: worth.turns,
        }
    }

    #[inline(always)]
    fn add_scaled(&mut self, p: f64, other: Scaled) {
        self.aim += p * other.aim;
        self.beat += p * other.beat;
        self.turns += p * other.turns;
    }

    #[inline(always)]
    fn add_turn(&mut self, p: f64) {
        self.turns += p;
    }

    #[inline(always)]
    fn key(self, side: u8, how: Scalar) -> [f64; 3] {
        let sign = how.signs[side as usize];
        preference(sign * self.aim, sign * self.beat, self.turns)
    }
}

/// A solved game: its graph and, for each step, the option taken at each
/// decision node.
pub(super) struct Solution<S> {
    pub(super) graph: Graph<S>,
    /// `choices[t][slot]`: the index of the option taken at decision node
    /// `slot` at step `t`.
    pub(super) choices: Vec<Vec<u8>>,
    pub(super) plan: Plan,
}

/// One option of an explained decision.
#[derive(Clone, Debug, PartialEq)]
pub struct OptionValue {
    /// The option in words.
    pub option: String,
    /// The attacker's chance of winning if this option is taken, under best play afterwards.
    pub attacker_wins: f64,
    /// The defender's chance of winning.
    pub defender_wins: f64,
    /// The attacker's chance of beating the defender outright (routing,
    /// breaking or destroying it, or taking its aim), whatever the purpose
    /// makes of the other endings: the secondary aim.
    pub attacker_beats: f64,
    /// The defender's chance of beating the attacker outright.
    pub defender_beats: f64,
    /// The turns still to play after it, expected (what decides last).
    pub turns: f64,
    /// Whether the policy takes it.
    pub chosen: bool,
    /// How it compares with the option taken, where the two tie.
    pub tie: Tie,
}

/// How an option that was not taken compares with the one that was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tie {
    /// It is the one taken, or worse on the deciding side's aim under the
    /// purpose: no tie.
    No,
    /// As good on the purpose, worse on a secondary aim (outright wins,
    /// then the turns to play), which decided.
    Purpose,
    /// As good on every aim: the order the options are listed in decided.
    All,
}

/// A side's first decision from the start, with the value of every option.
#[derive(Clone, Debug, PartialEq)]
pub struct Explained {
    /// `attacker` or `defender`.
    pub side: &'static str,
    /// The decision's name.
    pub decision: &'static str,
    /// The situation, in words.
    pub situation: String,
    /// The game turn step (1-based) at which it is taken.
    pub step: u32,
    /// The chance that the fight reaches this very situation.
    pub reached: f64,
    /// Every option, in the order ties are broken.
    pub options: Vec<OptionValue>,
}

impl<S: Copy + Eq + Hash + Send + Sync + fmt::Debug> Solution<S> {
    pub(super) fn solve<G: Game<State = S>>(game: &G, plan: Plan) -> Option<Solution<S>> {
        let graph = Graph::explore(game, plan)?;
        let turns = game.steps() as usize;
        let mut choices = vec![Vec::new(); turns];
        match Scalar::of(plan) {
            Some(scalar) => {
                let mut worths = graph.limit_worths::<G, Scaled>(game, scalar);
                for t in (0..graph.turn_count()).rev() {
                    choices[t] = graph.backward_turn(t, &mut worths, scalar, &mut []);
                }
            }
            None => {
                let mut worths = graph.limit_worths::<G, Worth>(game, plan);
                for t in (0..graph.turn_count()).rev() {
                    choices[t] = graph.backward_turn(t, &mut worths, plan, &mut []);
                }
            }
        }
        Some(Solution { graph, choices, plan })
    }
}

impl<S: Copy + Eq + Hash + Send + Sync> Graph<S> {
    /// The worths at the turn limit, where backward induction starts.
    pub(super) fn limit_worths<G: Game<State = S>, V: Value>(&self, game: &G, how: V::How) -> Worths<V> {
        let w = self.within_count as usize;
        let starts: Vec<V> = self.states[w..w + self.start_count as usize]
            .iter()
            .map(|s| V::of(ending_worth(self.purpose, game.at_limit(s)), how))
            .collect();
        let mut live = vec![V::ZERO; w];
        live.extend_from_slice(&starts);
        Worths { live, current: starts }
    }

    /// One turn of backward induction: the worth in turn `t` of every state
    /// within a turn that turn `t` may reach ([`Graph::reaches_within`];
    /// run by run, each in parallel) and then of every state starting turn
    /// `t`, given the worths at the start of turn `t + 1`;
    /// the turn's worths then become the next. Returns the table of the
    /// options taken; each of `captures` (a state, and a decision slot with
    /// room for its options) also keeps the worth of each option there.
    pub(super) fn backward_turn<V: Value>(
        &self,
        t: usize,
        worths: &mut Worths<V>,
        how: V::How,
        captures: &mut [(u32, (u32, Vec<V>))],
    ) -> Vec<u8> {
        // Each state's decision nodes are its own slots, so the states of a
        // run write disjoint entries of the table.
        let table: Vec<AtomicU8> = (0..self.deciders.len()).map(|_| AtomicU8::new(0)).collect();
        let w = self.within_count;
        // Runs of equal height, the lowest first: ids `first..end`, reading
        // only the states within the turn at `end` and beyond.
        for &(first, end) in &self.heights {
            let (head, tail) = worths.live.split_at_mut(end as usize);
            let sweep = Sweep { values: tail, base: end };
            head[first as usize..].par_iter_mut().with_min_len(256).enumerate().for_each(|(i, worth)| {
                let id = first as usize + i;
                if self.reaches_within(t, id) {
                    *worth = self.worth(self.root[id], &sweep, how, &table, None);
                }
            });
        }
        let sweep = Sweep { values: &worths.live, base: 0 };
        let layer = self.layer(t);
        let starting: Vec<V> = layer
            .par_iter()
            .with_min_len(256)
            .map(|&id| self.worth(self.root[id as usize], &sweep, how, &table, None))
            .collect();
        for (id, capture) in captures.iter_mut() {
            self.worth(self.root[*id as usize], &sweep, how, &table, Some(capture));
        }
        for (&id, &worth) in layer.iter().zip(&starting) {
            worths.current[(id - w) as usize] = worth;
        }
        // This turn's starts become the next turn's, read by the turn before.
        worths.live[w as usize..].swap_with_slice(&mut worths.current);
        table.into_iter().map(AtomicU8::into_inner).collect()
    }

    /// The worth of node `node`, reading the worths of the states it leads
    /// to from `sweep`; records the option taken at each decision node in
    /// `table`, and, when `capture` is `Some(slot)`, the worth of each
    /// option at that node.
    pub(super) fn worth<V: Value>(
        &self,
        node: u32,
        sweep: &Sweep<'_, V>,
        how: V::How,
        table: &[AtomicU8],
        mut capture: Option<&mut (u32, Vec<V>)>,
    ) -> V {
        match self.nodes[node as usize] {
            Node::Leaf { first, count, ends } => {
                let mut worth = if ends == NO_NODE { V::ZERO } else { V::of(self.leaf_ends[ends as usize].worth, how) };
                let run = first as usize..(first + count) as usize;
                for (&target, &p) in self.targets[run.clone()].iter().zip(&self.probabilities[run]) {
                    worth.add_scaled(p, sweep.read(target));
                    // A state that starts a turn is a turn more to play.
                    if target >= self.within_count {
                        worth.add_turn(p);
                    }
                }
                worth
            }
            Node::Chance { first, count } => {
                let mut worth = V::ZERO;
                for &(bits, child) in &self.children[first as usize..(first + count) as usize] {
                    let w = self.worth(child, sweep, how, table, capture.as_deref_mut());
                    worth.add_scaled(f64::from_bits(bits), w);
                }
                worth
            }
            Node::Decide { first, count, slot } => {
                let side = self.deciders[slot as usize].0;
                let mut best: Option<([f64; 3], usize, V)> = None;
                // Each option's worth is kept only at the node being explained.
                let capturing = capture.as_ref().is_some_and(|c| c.0 == slot);
                let mut options = Vec::new();
                for (i, &(_, child)) in self.children[first as usize..(first + count) as usize].iter().enumerate() {
                    let w = self.worth(child, sweep, how, table, capture.as_deref_mut());
                    if capturing {
                        options.push(w);
                    }
                    // Options equal on every aim go to the one listed first.
                    let key = w.key(side, how);
                    if best.is_none_or(|(b, _, _)| prefers(key, b)) {
                        best = Some((key, i, w));
                    }
                }
                if capturing && let Some(c) = capture {
                    c.1 = options;
                }
                let (_, chosen, worth) = best.expect("a decision has options");
                table[slot as usize].store(chosen as u8, Ordering::Relaxed);
                worth
            }
        }
    }
}

/// Backward induction's worths: `live` by state id, those of the states
/// within a turn (this turn's) and then of the states that start one (the
/// next turn's), so that a transition's target indexes it directly; and
/// this turn's starts, as they are worked out (see [`Graph::within_count`]).
pub(super) struct Worths<V> {
    pub(super) live: Vec<V>,
    pub(super) current: Vec<V>,
}

/// What one sweep of backward induction reads: the worths of the states
/// from id `base` on (those within the turn, then the next turn's starts).
pub(super) struct Sweep<'a, V> {
    pub(super) values: &'a [V],
    pub(super) base: u32,
}

impl<V: Copy> Sweep<'_, V> {
    #[inline(always)]
    pub(super) fn read(&self, target: u32) -> V {
        self.values[(target - self.base) as usize]
    }
}

impl<S: Copy + Eq + Hash + Send + Sync + fmt::Debug> Solution<S> {
    /// Walks the table forwards from the start, a turn at a time: in each
    /// turn `t`, calls `at(t, id, p)`, where there is an `at`, for every
    /// state holding mass `p` (the turn's starting states, then the states
    /// within it in order) before spreading that mass, then `ended(t,
    /// masses)` with the mass of each ending that turn (by [`Graph::ending_states`] slot; the callee takes
    /// it, leaving zeros); stops after a turn for which `go_on(t)` is false.
    /// Returns the masses then: one for every state that goes on (the
    /// states within a turn, then the starts; see [`Graph::within_count`]:
    /// those of the next turn's starts) and then one for every ending slot.
    ///
    /// The states whose mass is spread together (a turn's starts, or a run
    /// of states within it of equal height, none of which leads to another)
    /// are cut into [`FORWARD_PARTS`] blocks, each spreading into masses of
    /// its own, in parallel; a state's mass is the sum of its parts', in
    /// order. The cut depends only on the number of states, so the sums are
    /// the same to the bit on any number of threads.
    pub(super) fn forward(
        &self,
        mut at: Option<impl FnMut(usize, u32, f64)>,
        mut ended: impl FnMut(usize, &mut [f64]),
        mut go_on: impl FnMut(usize) -> bool,
    ) -> Vec<f64> {
        let graph = &self.graph;
        let live = graph.live_count();
        let size = live + graph.ending_states.len();
        let mut parts: Vec<Vec<f64>> = (0..FORWARD_PARTS).map(|_| vec![0.0f64; size]).collect();
        parts[0][graph.layers[0][0] as usize] = 1.0;
        let take = |parts: &mut [Vec<f64>], id: u32| -> f64 {
            parts.iter_mut().fold(0.0, |sum, part| sum + std::mem::take(&mut part[id as usize]))
        };
        let mut sources: Vec<(u32, f64)> = Vec::new();
        for t in 0..graph.turn_count() {
            let layer = graph.layer(t);
            // Every start's mass is taken before any is spread: a start may
            // lead to another of this turn's, for the next turn.
            sources.clear();
            sources.extend(layer.iter().map(|&id| (id, take(&mut parts, id))));
            self.spread_parts(t, &sources, &mut parts, &mut at);
            // The states within the turn, each after all that lead to it: a
            // run of equal height at a time, the greatest first.
            for &(first, end) in graph.heights.iter().rev() {
                self.spread_run(t, first as usize, end as usize, &mut parts, &mut at);
            }
            let (head, rest) = parts.split_at_mut(1);
            for part in rest {
                for (sum, q) in head[0][live..].iter_mut().zip(&mut part[live..]) {
                    *sum += std::mem::take(q);
                }
            }
            ended(t, &mut head[0][live..]);
            if !go_on(t) {
                break;
            }
        }
        let (head, rest) = parts.split_at_mut(1);
        for part in rest {
            for (sum, q) in head[0].iter_mut().zip(part.iter()) {
                *sum += q;
            }
        }
        parts.swap_remove(0)
    }

    /// Spreads the masses of the states `first..end` within turn `t`, a run
    /// of equal height (none leads to another, and every state they lead
    /// to comes after them), into `parts` as [`Solution::spread_parts`]
    /// does, in the same blocks, calling `at` as it does: each block takes
    /// its own states' masses from every part as it goes, on its own
    /// thread, rather than all being taken first on one.
    pub(super) fn spread_run(
        &self,
        t: usize,
        first: usize,
        end: usize,
        parts: &mut [Vec<f64>],
        at: &mut Option<impl FnMut(usize, u32, f64)>,
    ) {
        if let Some(at) = at {
            for id in first..end {
                let p = parts.iter().fold(0.0, |sum, part| sum + part[id]);
                if p != 0.0 {
                    at(t, id as u32, p);
                }
            }
        }
        let count = parts.len();
        let blocks = if end - first < FORWARD_SPLIT { 1 } else { count };
        let size = (end - first).div_ceil(blocks);
        // Each block's share of every part over its states, and the part it
        // spreads into, beyond the run.
        let mut shares: Vec<Vec<&mut [f64]>> = (0..blocks).map(|_| Vec::with_capacity(count)).collect();
        let mut into: Vec<&mut [f64]> = Vec::with_capacity(blocks);
        for (k, part) in parts.iter_mut().enumerate() {
            let (head, tail) = part.split_at_mut(end);
            for (j, share) in head[first..].chunks_mut(size).enumerate() {
                shares[j].push(share);
            }
            if k < blocks {
                into.push(tail);
            }
        }
        shares.into_par_iter().zip(into).enumerate().for_each(|(j, (mut share, mass))| {
            let base = first + j * size;
            for i in 0..share[0].len() {
                let p = share.iter_mut().fold(0.0, |sum, part| sum + std::mem::take(&mut part[i]));
                if p != 0.0 {
                    self.spread(self.graph.root[base + i], t, p, &mut |target, q| {
                        debug_assert!(target as usize >= end, "a run leads only beyond itself");
                        mass[target as usize - end] += q;
                    });
                }
            }
        });
    }

    /// Spreads the mass of each of `sources` (states none of which leads to
    /// another in turn `t`, their mass taken) into `parts`, calling `at(t,
    /// id, p)` for each that holds any; see [`Solution::forward`].
    pub(super) fn spread_parts(
        &self,
        t: usize,
        sources: &[(u32, f64)],
        parts: &mut [Vec<f64>],
        at: &mut Option<impl FnMut(usize, u32, f64)>,
    ) {
        if let Some(at) = at {
            for &(id, p) in sources.iter().filter(|&&(_, p)| p != 0.0) {
                at(t, id, p);
            }
        }
        let spread_into = |mass: &mut Vec<f64>, block: &[(u32, f64)]| {
            for &(id, p) in block {
                if p != 0.0 {
                    self.spread(self.graph.root[id as usize], t, p, &mut |i, q| mass[i as usize] += q);
                }
            }
        };
        if sources.len() < FORWARD_SPLIT {
            spread_into(&mut parts[0], sources);
        } else {
            let block = sources.len().div_ceil(parts.len());
            parts.par_iter_mut().zip(sources.par_chunks(block)).for_each(|(mass, block)| spread_into(mass, block));
        }
    }

    /// The exact distribution of outcome codes under the table.
    pub(super) fn distribution<G: Game<State = S>>(&self, game: &G) -> Vec<(u64, f64)> {
        let graph = &self.graph;
        let mut ends: HashMap<u64, f64, BuildHasherDefault<CodeHasher>> = HashMap::default();
        let left = self.forward(
            None::<fn(usize, u32, f64)>,
            |t, masses| {
                for (slot, q) in masses.iter_mut().enumerate() {
                    if *q != 0.0 {
                        let (end, id) = graph.ending_states[slot];
                        let code = outcome_code(game, End::from_code(end), t as u32 + 1, &graph.states[id as usize]);
                        *ends.entry(code).or_insert(0.0) += std::mem::take(q);
                    }
                }
            },
            |_| true,
        );
        // What is still going has reached the limit (a layer list shorter
        // than the limit means nothing is).
        let limit = game.steps();
        for (id, &p) in left[..graph.live_count()].iter().enumerate() {
            if p > 0.0 {
                debug_assert!(id >= graph.within_count as usize, "no mass is left within a turn");
                let state = &graph.states[id];
                *ends.entry(outcome_code(game, game.at_limit(state), limit, state)).or_insert(0.0) += p;
            }
        }
        let mut result: Vec<(u64, f64)> = ends.into_iter().filter(|&(_, p)| p > 0.0).collect();
        result.sort_unstable_by_key(|&(code, _)| code);
        result
    }

    /// Sends mass `p` at node `node` (turn `t`) through the table: `out(i,
    /// q)` for mass `q` going on to state `i`, or ending in slot `i` less
    /// [`Graph::live_count`].
    pub(super) fn spread(&self, node: u32, t: usize, p: f64, out: &mut impl FnMut(u32, f64)) {
        let graph = &self.graph;
        match graph.nodes[node as usize] {
            Node::Leaf { first, count, ends } => {
                let run = first as usize..(first + count) as usize;
                for (&target, &q) in graph.targets[run.clone()].iter().zip(&graph.probabilities[run]) {
                    out(target, p * q);
                }
                if ends != NO_NODE {
                    let LeafEnds { first, count, .. } = graph.leaf_ends[ends as usize];
                    let live = graph.live_count() as u32;
                    for ending in &graph.endings[first as usize..(first + count) as usize] {
                        out(live + ending.slot, p * ending.probability);
                    }
                }
            }
            Node::Chance { first, count } => {
                for &(bits, child) in &graph.children[first as usize..(first + count) as usize] {
                    self.spread(child, t, p * f64::from_bits(bits), out);
                }
            }
            Node::Decide { first, slot, .. } => {
                let chosen = self.choices[t][slot as usize] as usize;
                self.spread(graph.children[first as usize + chosen].1, t, p, out);
            }
        }
    }

    /// Each side's first decision under the table: the most likely situation
    /// in the first turn where the side decides, with every option's worth.
    pub(super) fn explain<G: Game<State = S>>(&self, game: &G) -> Vec<Explained> {
        let graph = &self.graph;
        // Forward under the table: for each side, the first turn in which it
        // decides, and there the most likely (state, decision node) with its mass.
        let mut found: [Option<(usize, u32, u32, f64)>; 2] = [None, None];
        // Shared by the walk's two callbacks, each borrowing it in turn.
        let candidates: std::cell::RefCell<[Option<(u32, u32, f64)>; 2]> = Default::default();
        self.forward(
            Some(|t, id, p| {
                self.decisions_reached(graph.root[id as usize], t, p, &mut |side, node, q| {
                    let best = &mut candidates.borrow_mut()[side as usize];
                    if best.is_none_or(|(_, _, b)| q > b + TIE) {
                        *best = Some((id, node, q));
                    }
                });
            }),
            |_, _| {},
            |t| {
                let taken = candidates.take();
                for side in 0..2 {
                    if found[side].is_none()
                        && let Some((id, node, q)) = taken[side]
                    {
                        found[side] = Some((t, id, node, q));
                    }
                }
                !found.iter().all(Option::is_some)
            },
        );
        // The worth of each option there: backward again down to that turn.
        let targets: Vec<(usize, u32, u32, f64)> = found.iter().flatten().copied().collect();
        let Some(earliest) = targets.iter().map(|t| t.0).min() else { return Vec::new() };
        let mut worths = graph.limit_worths::<G, Worth>(game, self.plan);
        let mut captured: Vec<Option<Vec<Worth>>> = vec![None; targets.len()];
        for t in (earliest..graph.turn_count()).rev() {
            let at_t: Vec<usize> = (0..targets.len()).filter(|&k| targets[k].0 == t).collect();
            let mut captures: Vec<(u32, (u32, Vec<Worth>))> = at_t
                .iter()
                .map(|&k| {
                    let (_, id, node, _) = targets[k];
                    let Node::Decide { slot, .. } = graph.nodes[node as usize] else { unreachable!() };
                    (id, (slot, Vec::new()))
                })
                .collect();
            graph.backward_turn(t, &mut worths, self.plan, &mut captures);
            for (&k, (_, (_, options))) in at_t.iter().zip(captures) {
                captured[k] = Some(options);
            }
        }
        targets
            .iter()
            .zip(captured)
            .map(|(&(t, id, node, reached), worths)| {
                let Node::Decide { first, count, slot } = graph.nodes[node as usize] else { unreachable!() };
                let (side, decision) = graph.deciders[slot as usize];
                let chosen = self.choices[t][slot as usize] as usize;
                let worths = worths.expect("every target is captured");
                let taken = worths[chosen].key(side, self.plan);
                let options = graph.children[first as usize..(first + count) as usize]
                    .iter()
                    .zip(worths)
                    .enumerate()
                    .map(|(i, (&(option, _), w))| {
                        let key = w.key(side, self.plan);
                        let tie = if i == chosen || (key[0] - taken[0]).abs() > TIE {
                            Tie::No
                        } else if prefers(taken, key) {
                            Tie::Purpose
                        } else {
                            Tie::All
                        };
                        OptionValue {
                            option: game.describe_option(decision, option as u16),
                            attacker_wins: w.wins[0],
                            defender_wins: w.wins[1],
                            attacker_beats: w.beats[0],
                            defender_beats: w.beats[1],
                            turns: w.turns,
                            chosen: i == chosen,
                            tie,
                        }
                    })
                    .collect();
                Explained {
                    side: side_name(side),
                    decision: decision.name,
                    situation: game.describe_state(&graph.states[id as usize], side),
                    step: t as u32 + 1,
                    reached,
                    options,
                }
            })
            .collect()
    }

    /// Calls `visit(side, node, mass)` for each decision node met below `node`
    /// under the table, with the mass that reaches it (the first decision of
    /// each side on each path).
    pub(super) fn decisions_reached(&self, node: u32, t: usize, p: f64, visit: &mut impl FnMut(u8, u32, f64)) {
        let graph = &self.graph;
        match graph.nodes[node as usize] {
            Node::Leaf { .. } => {}
            Node::Chance { first, count } => {
                for &(bits, child) in &graph.children[first as usize..(first + count) as usize] {
                    self.decisions_reached(child, t, p * f64::from_bits(bits), visit);
                }
            }
            Node::Decide { first, slot, .. } => {
                let side = graph.deciders[slot as usize].0;
                visit(side, node, p);
                let chosen = self.choices[t][slot as usize] as usize;
                self.decisions_reached(graph.children[first as usize + chosen].1, t, p, visit);
            }
        }
    }
}
