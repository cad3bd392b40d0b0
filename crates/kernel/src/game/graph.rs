//! Enumeration: every branch of every chance and `best` decision, depth
//! first, laid out as each state's law in a graph of chance and decision nodes.

use super::*;

/// One entry of a branch's path: a chance or a decision, and the branch taken.
/// A decision's options live in the enumeration's arena ([`Leaves::options`]),
/// so that a pick is plain data and a path is copied without allocating.
#[derive(Clone, Copy, Debug)]
pub(super) enum Pick {
    /// `law`: a grouped draw's law in [`Leaves::laws`] ([`NO_NODE`] for
    /// any other chance).
    Chance {
        chosen: u32,
        count: u32,
        probability: f64,
        law: u32,
    },
    Decide {
        side: u8,
        decision: &'static Decision,
        options: u32,
        count: u32,
        chosen: u32,
    },
}

impl Pick {
    pub(super) fn chosen(&self) -> u32 {
        match self {
            Pick::Chance { chosen, .. } | Pick::Decide { chosen, .. } => *chosen,
        }
    }

    pub(super) fn count(&self) -> u32 {
        match self {
            Pick::Chance { count, .. } | Pick::Decide { count, .. } => *count,
        }
    }
}

/// One branch of every chance and `best` decision, chosen by a path.
pub(super) struct Replay<'a> {
    pub(super) plan: Plan,
    pub(super) path: Vec<Pick>,
    pub(super) depth: usize,
    /// The law (in `laws`) of the [`Fate::draw_last`] that ended the step,
    /// whose every value is a branch.
    pub(super) last: Option<u32>,
    /// The options of every decision pick, each a run its pick points to.
    pub(super) options: &'a mut Vec<u16>,
    /// The law of every grouped draw (a `Vec<(T, f64)>` of its `T`), each
    /// one its pick points to.
    pub(super) laws: &'a mut Vec<Box<dyn Any>>,
}

impl Replay<'_> {
    /// Panics if the step went on after a [`Fate::draw_last`].
    #[inline]
    pub(super) fn going(&self) {
        assert!(self.last.is_none(), "a step took a chance or a choice after its last draw");
    }

    /// The branch the path names at this depth (the first, when new).
    pub(super) fn chance(&mut self, probabilities: impl Fn(usize) -> f64, count: usize) -> usize {
        self.going();
        if self.depth == self.path.len() {
            self.path.push(Pick::Chance {
                chosen: 0,
                count: count as u32,
                probability: probabilities(0),
                law: NO_NODE,
            });
        }
        let chosen = self.path[self.depth].chosen() as usize;
        if let Pick::Chance { probability, .. } = &mut self.path[self.depth] {
            *probability = probabilities(chosen);
        }
        self.depth += 1;
        chosen
    }
}

impl Fate for Replay<'_> {
    fn die(&mut self, sides: u32) -> u32 {
        if sides <= 1 {
            return 1;
        }
        self.chance(|_| 1.0 / f64::from(sides), sides as usize) as u32 + 1
    }

    fn ways(&mut self, ways: u32, of: u32) -> bool {
        if ways == 0 {
            return false;
        }
        if ways >= of {
            return true;
        }
        let p = f64::from(ways) / f64::from(of);
        self.chance(|i| if i == 0 { p } else { 1.0 - p }, 2) == 0
    }

    fn draw<L: Law + ?Sized>(&mut self, law: &L) -> u32 {
        let outcomes = law.outcomes();
        if outcomes.len() == 1 {
            return outcomes[0].0;
        }
        outcomes[self.chance(|i| outcomes[i].1, outcomes.len())].0
    }

    fn draw_grouped<T: Clone + 'static>(
        &mut self,
        _sample: impl FnOnce(&mut Dice) -> T,
        law: impl FnOnce() -> Vec<(T, f64)>,
    ) -> T {
        self.going();
        if self.depth == self.path.len() {
            // Met for the first time on this path: the law is worked out
            // once, and every later replay of the path reads it back.
            let law = law();
            debug_assert!(!law.is_empty(), "a grouped draw has a value");
            let (count, probability) = (law.len() as u32, law[0].1);
            self.laws.push(Box::new(law));
            self.path.push(Pick::Chance { chosen: 0, count, probability, law: self.laws.len() as u32 - 1 });
        }
        let Pick::Chance { chosen, law, .. } = self.path[self.depth] else {
            panic!("a grouped draw met where the same path took a decision")
        };
        assert_ne!(law, NO_NODE, "a grouped draw met where the same path took another chance");
        let law = self.laws[law as usize]
            .downcast_ref::<Vec<(T, f64)>>()
            .expect("a grouped draw met where the same path drew another kind of value");
        let (value, probability) = law[chosen as usize].clone();
        if let Pick::Chance { probability: p, .. } = &mut self.path[self.depth] {
            *p = probability;
        }
        self.depth += 1;
        value
    }

    fn draw_last<S: Clone + 'static>(
        &mut self,
        sample: impl FnOnce(&mut Dice) -> (Option<End>, S),
        law: impl FnOnce() -> Vec<((Option<End>, S), f64)>,
    ) -> (Option<End>, S) {
        // Met only at the end of a path: the enumeration takes every value
        // the first time, and never replays the step into it.
        assert_eq!(self.depth, self.path.len(), "a last draw met where the same path went on");
        let value = self.draw_grouped(sample, law);
        self.last = Some(self.laws.len() as u32 - 1);
        value
    }

    fn decide(
        &mut self,
        side: u8,
        decision: &'static Decision,
        options: &[u16],
        heuristic: &dyn Fn(Policy) -> u16,
    ) -> u16 {
        self.going();
        if let Some(option) = settled(self.plan, side, decision, options, heuristic) {
            return option;
        }
        if self.depth == self.path.len() {
            let first = self.options.len() as u32;
            self.options.extend_from_slice(options);
            self.path.push(Pick::Decide { side, decision, options: first, count: options.len() as u32, chosen: 0 });
        }
        let Pick::Decide { options: first, count, chosen, .. } = self.path[self.depth] else {
            panic!("decision {} taken where the same path took a chance", decision.name)
        };
        debug_assert!(
            &self.options[first as usize..(first + count) as usize] == options,
            "decision {} offered different options on the same path",
            decision.name
        );
        self.depth += 1;
        options[chosen as usize]
    }
}

/// Where one branch of a step leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Branch<S> {
    /// The fight goes on in this state, next turn.
    Continue(S),
    /// The fight goes on in this state, within the same turn.
    Within(S),
    /// The fight ends: how, and the final state.
    End(End, S),
}

/// One leaf of a step's enumeration: where it leads and its path, a run of
/// [`Leaves::picks`].
#[derive(Clone, Copy, Debug)]
pub(super) struct Leaf<S> {
    pub(super) branch: Branch<S>,
    pub(super) first: u32,
    pub(super) len: u32,
    /// The index in its path of the last decision, or -1.
    pub(super) last_decision: i32,
}

/// Every branch of one step, depth first, with the picks of every path and
/// the options of every decision pick.
pub(super) struct Leaves<S> {
    pub(super) leaves: Vec<Leaf<S>>,
    pub(super) picks: Vec<Pick>,
    pub(super) options: Vec<u16>,
    pub(super) laws: Vec<Box<dyn Any>>,
}

impl<S> Leaves<S> {
    pub(super) fn path(&self, leaf: &Leaf<S>) -> &[Pick] {
        &self.picks[leaf.first as usize..(leaf.first + leaf.len) as usize]
    }
}

/// Every branch of one step from `state`, with its path, into `leaves`
/// (cleared first; its buffers, like `path`'s, are reused from state to state).
pub(super) fn enumerate<G: Game>(
    game: &G,
    plan: Plan,
    state: &G::State,
    leaves: &mut Leaves<G::State>,
    path_buffer: &mut Vec<Pick>,
) {
    leaves.leaves.clear();
    leaves.picks.clear();
    leaves.options.clear();
    leaves.laws.clear();
    path_buffer.clear();
    let mut path = std::mem::take(path_buffer);
    let branch_of = |end: Option<End>, next: G::State| match end {
        Some(end) => Branch::End(end, next),
        None if game.starts_turn(&next) => Branch::Continue(next),
        None => Branch::Within(next),
    };
    loop {
        let mut replay =
            Replay { plan, path, depth: 0, last: None, options: &mut leaves.options, laws: &mut leaves.laws };
        let mut next = *state;
        let winner = game.step(&mut next, &mut replay);
        let (depth, last) = (replay.depth, replay.last);
        path = replay.path;
        path.truncate(depth);
        let last_decision = path.iter().rposition(|pick| matches!(pick, Pick::Decide { .. })).map_or(-1, |i| i as i32);
        let Leaves { leaves: list, picks, laws, .. } = leaves;
        let mut push = |branch: Branch<G::State>, path: &[Pick]| {
            list.push(Leaf { branch, first: picks.len() as u32, len: path.len() as u32, last_decision });
            picks.extend_from_slice(path);
        };
        match last {
            None => push(branch_of(winner, next), &path),
            Some(law) => {
                // Every value of the last draw is a branch: the pick takes
                // each in turn, and is left at its last for the next path.
                let law = laws[law as usize]
                    .downcast_ref::<Vec<((Option<End>, G::State), f64)>>()
                    .expect("a last draw's values are the winner and the state of the game");
                debug_assert!(law[0].0 == (winner, next), "a step takes its last draw's value as it is");
                let at = path.len() - 1;
                for (i, &((winner, next), p)) in law.iter().enumerate() {
                    if let Pick::Chance { chosen, probability, .. } = &mut path[at] {
                        (*chosen, *probability) = (i as u32, p);
                    }
                    push(branch_of(winner, next), &path);
                }
            }
        }
        // The next branch: the deepest pick with a branch left moves on.
        loop {
            match path.last_mut() {
                None => {
                    *path_buffer = path;
                    return;
                }
                Some(last) if last.chosen() + 1 < last.count() => {
                    match last {
                        Pick::Chance { chosen, .. } | Pick::Decide { chosen, .. } => *chosen += 1,
                    }
                    break;
                }
                Some(_) => {
                    path.pop();
                }
            }
        }
    }
}

/// Sets bit `i` of `bits`, growing it as needed.
fn set_bit(bits: &mut Vec<u64>, i: usize) {
    if bits.len() <= i / 64 {
        bits.resize(i / 64 + 1, 0);
    }
    bits[i / 64] |= 1 << (i % 64);
}

/// Bit `i` of `bits` (unset beyond its end).
#[inline(always)]
fn bit(bits: &[u64], i: usize) -> bool {
    bits.get(i / 64).is_some_and(|word| word >> (i % 64) & 1 != 0)
}

/// The longest cycle of turns' starting states that exploration looks for.
pub(super) const LONGEST_PERIOD: usize = 6;

/// The period after which `next`, the states starting the turn after those
/// of `layers`, repeats the states a turn started from, where it is at most
/// [`LONGEST_PERIOD`] turns.
pub(super) fn repeated_layer(layers: &[Vec<u32>], next: &[u32]) -> Option<usize> {
    let mut sorted: Option<Vec<u32>> = None;
    (1..=LONGEST_PERIOD.min(layers.len())).find(|&period| {
        let earlier = &layers[layers.len() - period];
        if earlier.len() != next.len() {
            return false;
        }
        let next_sorted = sorted.get_or_insert_with(|| {
            let mut v = next.to_vec();
            v.sort_unstable();
            v
        });
        let mut earlier = earlier.clone();
        earlier.sort_unstable();
        earlier == *next_sorted
    })
}

/// A node of a state's law.
#[derive(Clone, Copy, Debug)]
pub(super) enum Node {
    /// A side decides: children `first..first + count` of [`Graph::children`]
    /// (option, node); `slot` indexes the solved table's choices and
    /// [`Graph::deciders`] (who decides what: kept apart, so that a node
    /// takes 16 bytes rather than 32).
    Decide { first: u32, count: u32, slot: u32 },
    /// A chance with a decision somewhere below it: children
    /// `first..first + count` of [`Graph::children`] (branch probability as
    /// bits, node).
    Chance { first: u32, count: u32 },
    /// Chances only from here: transitions `first..first + count` of
    /// [`Graph::transitions`]; once the graph is laid out, those of
    /// [`Graph::targets`] that go on, and the endings are `ends` of
    /// [`Graph::leaf_ends`] ([`NO_NODE`]: none).
    Leaf { first: u32, count: u32, ends: u32 },
}

/// Where a leaf's mass goes.
#[derive(Clone, Copy, Debug)]
pub(super) struct Transition {
    /// The state id (the next state, or the final state of an ending).
    pub(super) target: u32,
    /// [`CONTINUES`], [`WITHIN`], or the code of an ending (`End as u8`).
    pub(super) winner: u8,
    pub(super) probability: f64,
}

/// A transition to a state that starts the next turn.
pub(super) const CONTINUES: u8 = u8::MAX;
/// A transition to a state within the same turn.
pub(super) const WITHIN: u8 = u8::MAX - 1;

pub(super) type Ids<S> = HashMap<S, u32, BuildHasherDefault<CodeHasher>>;

/// Every state reachable from the start under every option of the `best`
/// sides, with each state's law as a tree.
pub(super) struct Graph<S> {
    pub(super) states: Vec<S>,
    pub(super) ids: Ids<S>,
    /// Each state's root node (`NO_NODE` for a state only ever ended in).
    pub(super) root: Vec<u32>,
    /// Each state's run of [`Graph::transitions`] (first, count): its law's
    /// transitions are added together. Until laid out.
    pub(super) spans: Vec<(u32, u32)>,
    pub(super) nodes: Vec<Node>,
    /// Children of decision nodes (option, node) and chance nodes (probability bits, node).
    pub(super) children: Vec<(u64, u32)>,
    /// Every leaf's transitions, until laid out ([`Graph::renumber`]).
    pub(super) transitions: Vec<Transition>,
    /// Once laid out, the transitions that go on, as two arrays (a sweep
    /// reads no more): each one's target and its chance. Within a turn
    /// exactly when the target is below [`Graph::within_count`].
    pub(super) targets: Vec<u32>,
    pub(super) probabilities: Vec<f64>,
    /// The states at the start of each turn explored ([`Graph::layer`]
    /// gives every turn's).
    pub(super) layers: Vec<Vec<u32>>,
    /// For each turn up to the limit (or until nothing goes on), the index
    /// in [`Graph::layers`] of the states it starts from: its own, or, once
    /// the turns repeat, those of the turn it repeats (kept once).
    pub(super) layer_of: Vec<u32>,
    /// The states within a turn (reached by a step that does not start a
    /// turn), in an order that puts every such state after all the states
    /// that lead to it within a turn: by their height (the longest run of
    /// steps within a turn that may follow them), the greatest first.
    pub(super) within: Vec<u32>,
    /// `within` cut by height: runs of equal height (first, end), the
    /// lowest first. A run depends only on the runs before it.
    pub(super) heights: Vec<(u32, u32)>,
    /// The side deciding at each decision slot, and the decision: one
    /// entry for each decision node.
    pub(super) deciders: Vec<(u8, &'static Decision)>,
    /// Once laid out ([`Graph::renumber`]): the states within a turn are
    /// ids `0..within_count` (in the order of [`Graph::within`]), the states
    /// that start a turn `within_count..within_count + start_count`, and the
    /// states only ever ended in come last. A transition that goes on is
    /// therefore within the turn exactly when its target is below
    /// `within_count`.
    pub(super) within_count: u32,
    pub(super) start_count: u32,
    /// The first turn in which each state within a turn is reached (by id;
    /// the states within a turn are ids `0..within_count` once laid out):
    /// backward induction skips it in the turns before, where nothing
    /// reached reads its worth.
    pub(super) first_turn: Vec<u32>,
    /// The states within a turn that each turn reaches, where exploration
    /// knows them exactly: `reach_of[t]` indexes [`Graph::reached`] (a
    /// bitset over the ids `0..within_count`), or is [`NO_NODE`] where
    /// turn `t` may reach every state first reached by then
    /// ([`Graph::first_turn`]). A game whose turn is cut into phases, each
    /// state knowing its phase, reaches a phase's states within a turn
    /// only in the turns of that phase: backward induction values each in
    /// those turns alone.
    pub(super) reach_of: Vec<u32>,
    pub(super) reached: Vec<Vec<u64>>,
    /// The endings of each leaf that has any (see [`Node::Leaf`]).
    pub(super) leaf_ends: Vec<LeafEnds>,
    /// The endings of every leaf, each a run of [`LeafEnds`].
    pub(super) endings: Vec<Ending>,
    /// The ending each [`Ending::slot`] stands for: its code (`End as u8`)
    /// and the final state.
    pub(super) ending_states: Vec<(u8, u32)>,
    /// What each side must achieve: who wins each ending.
    pub(super) purpose: Purpose,
}

impl<S> Graph<S> {
    /// The states starting turn `t`.
    pub(super) fn layer(&self, t: usize) -> &[u32] {
        &self.layers[self.layer_of[t] as usize]
    }

    /// The turns that start with any state: the limit, or fewer where
    /// nothing goes on.
    pub(super) fn turn_count(&self) -> usize {
        self.layer_of.len()
    }

    /// The states that go on: those within a turn and those starting one.
    pub(super) fn live_count(&self) -> usize {
        (self.within_count + self.start_count) as usize
    }
}

/// A leaf's endings: what they are worth together (the backward pass needs
/// no more) and where they are listed (for the forward walk).
#[derive(Clone, Copy, Debug)]
pub(super) struct LeafEnds {
    pub(super) worth: Worth,
    pub(super) first: u32,
    pub(super) count: u32,
}

/// One ending of a leaf: its slot in [`Graph::ending_states`] and its chance.
#[derive(Clone, Copy, Debug)]
pub(super) struct Ending {
    pub(super) slot: u32,
    pub(super) probability: f64,
}

/// A run of states' trees laid out anew ([`Graph::renumber`]), its
/// indices (of nodes, children, transitions, leaf endings, endings and
/// decision slots) counted from its own start.
#[derive(Default)]
pub(super) struct LaidOut {
    /// Each state's root node ([`NO_NODE`] for none).
    pub(super) roots: Vec<u32>,
    pub(super) nodes: Vec<Node>,
    pub(super) deciders: Vec<(u8, &'static Decision)>,
    pub(super) children: Vec<(u64, u32)>,
    pub(super) targets: Vec<u32>,
    pub(super) probabilities: Vec<f64>,
    pub(super) leaf_ends: Vec<LeafEnds>,
    /// Each ending's [`Ending::slot`] holds, until the runs are joined,
    /// its final state and ending as `END_COUNT * state + end`.
    pub(super) endings: Vec<Ending>,
}

impl LaidOut {
    /// Appends the run `piece`, moving its indices on by what is here, and
    /// gives its endings their slots (`ending_slots` by `END_COUNT * state +
    /// end`, new ones in the order met).
    pub(super) fn join(&mut self, piece: LaidOut, ending_slots: &mut [u32], ending_states: &mut Vec<(u8, u32)>) {
        let node_base = self.nodes.len() as u32;
        let child_base = self.children.len() as u32;
        let target_base = self.targets.len() as u32;
        let leaf_end_base = self.leaf_ends.len() as u32;
        let ending_base = self.endings.len() as u32;
        let slot_base = self.deciders.len() as u32;
        self.roots.extend(piece.roots.iter().map(|&r| if r == NO_NODE { NO_NODE } else { r + node_base }));
        self.nodes.extend(piece.nodes.iter().map(|&node| match node {
            Node::Decide { first, count, slot } => {
                Node::Decide { first: first + child_base, count, slot: slot + slot_base }
            }
            Node::Chance { first, count } => Node::Chance { first: first + child_base, count },
            Node::Leaf { first, count, ends } => Node::Leaf {
                first: first + target_base,
                count,
                ends: if ends == NO_NODE { NO_NODE } else { ends + leaf_end_base },
            },
        }));
        self.deciders.extend_from_slice(&piece.deciders);
        self.children.extend(piece.children.iter().map(|&(key, node)| (key, node + node_base)));
        self.targets.extend_from_slice(&piece.targets);
        self.probabilities.extend_from_slice(&piece.probabilities);
        self.leaf_ends.extend(piece.leaf_ends.iter().map(|&ends| LeafEnds { first: ends.first + ending_base, ..ends }));
        self.endings.extend(piece.endings.iter().map(|&ending| {
            let key = ending.slot;
            let slot = &mut ending_slots[key as usize];
            if *slot == NO_NODE {
                *slot = ending_states.len() as u32;
                ending_states.push(((key % END_COUNT as u32) as u8, key / END_COUNT as u32));
            }
            Ending { slot: *slot, probability: ending.probability }
        }));
    }
}

/// Runs `produce` on each of `batches` in turn, and `consume` on what each
/// gives, in order: each batch is consumed (one thread) while the next is
/// produced (the others, and that one once it is done), so that a serial
/// step overlaps the parallel work after it.
pub(super) fn pipelined<B: Send, T: Send>(
    batches: impl IntoIterator<Item = B>,
    produce: impl Fn(B) -> T + Sync,
    mut consume: impl FnMut(T) + Send,
) {
    let mut pending: Option<T> = None;
    for batch in batches {
        let ((), next) = rayon::join(
            || {
                if let Some(done) = pending.take() {
                    consume(done);
                }
            },
            || produce(batch),
        );
        pending = Some(next);
    }
    if let Some(done) = pending {
        consume(done);
    }
}

/// The states whose trees one task of [`Graph::renumber`] lays out.
pub(super) const LAY_OUT_CHUNK: usize = 2048;

/// The runs of [`LAY_OUT_CHUNK`] states laid out while those before them are joined.
pub(super) const LAY_OUT_BATCH: usize = 16;

/// The laws of a run of states, one after another, before their targets
/// have ids: one set of buffers for the run rather than one per state.
pub(super) struct RawLaw<S> {
    pub(super) nodes: Vec<Node>,
    /// Who decides what at each decision node, its `slot` indexing them.
    pub(super) deciders: Vec<(u8, &'static Decision)>,
    pub(super) children: Vec<(u64, u32)>,
    pub(super) transitions: Vec<(Branch<S>, f64)>,
    /// Each state's root node and the end of its transitions.
    pub(super) ends: Vec<(u32, u32)>,
}

/// The blocks the forward walk cuts a run of states into, each spreading
/// into masses of its own ([`Solution::forward`]): fixed, not the number of
/// threads, so that the sums do not depend on it.
pub(super) const FORWARD_PARTS: usize = 2;

/// A run of fewer states than this is spread as one block.
pub(super) const FORWARD_SPLIT: usize = 4096;

/// The states whose laws one task of exploration works out, in one set of buffers.
pub(super) const EXPAND_CHUNK: usize = 64;

/// The states whose laws exploration works out while the batch before them is added.
pub(super) const EXPAND_BATCH: usize = 16 * EXPAND_CHUNK;

/// A leaf node with more distinct branches than this merges them through a
/// hash map rather than by a linear search.
pub(super) const LINEAR_MERGE: usize = 16;

impl<S: Copy + Eq + Hash> RawLaw<S> {
    /// Buffers for the laws of `states` states, sized for a typical law
    /// (a few nodes, a dozen transitions) so that they seldom grow: a
    /// growing vector is copied each time it doubles.
    pub(super) fn new(states: usize) -> RawLaw<S> {
        RawLaw {
            nodes: Vec::with_capacity(4 * states),
            deciders: Vec::with_capacity(states),
            children: Vec::with_capacity(4 * states),
            transitions: Vec::with_capacity(12 * states),
            ends: Vec::with_capacity(states),
        }
    }

    /// Adds the tree of the next state's step (its branches, paths in
    /// depth-first order).
    pub(super) fn add(&mut self, leaves: &Leaves<S>) {
        let root = self.node(leaves, &leaves.leaves, 0);
        self.ends.push((root, self.transitions.len() as u32));
    }

    /// The node of `group` (leaves that share their first `depth` picks); its
    /// index. Probabilities below it are conditional on reaching it.
    pub(super) fn node(&mut self, all: &Leaves<S>, group: &[Leaf<S>], depth: usize) -> u32 {
        let index = self.nodes.len() as u32;
        if !group.iter().any(|leaf| leaf.last_decision >= depth as i32) {
            // Chances only: merge equal branches, in the order first met, so
            // that the sums are the same whatever the merging method.
            let first = self.transitions.len();
            let mut seen: HashMap<Branch<S>, usize, BuildHasherDefault<CodeHasher>> = HashMap::default();
            for leaf in group {
                let path = all.path(leaf);
                let p: f64 = path[depth.min(path.len())..]
                    .iter()
                    .map(|pick| match pick {
                        Pick::Chance { probability, .. } => *probability,
                        Pick::Decide { .. } => 1.0,
                    })
                    .product();
                let found = if self.transitions.len() - first <= LINEAR_MERGE {
                    self.transitions[first..].iter().position(|(b, _)| *b == leaf.branch).map(|i| first + i)
                } else {
                    if seen.is_empty() {
                        seen.extend(self.transitions[first..].iter().enumerate().map(|(i, (b, _))| (*b, first + i)));
                    }
                    seen.get(&leaf.branch).copied()
                };
                match found {
                    Some(i) => self.transitions[i].1 += p,
                    None => {
                        if !seen.is_empty() {
                            seen.insert(leaf.branch, self.transitions.len());
                        }
                        self.transitions.push((leaf.branch, p));
                    }
                }
            }
            self.nodes.push(Node::Leaf {
                first: first as u32,
                count: (self.transitions.len() - first) as u32,
                ends: NO_NODE,
            });
            return index;
        }
        // The pick at this depth, shared by every leaf here.
        let head = all.path(&group[0])[depth];
        self.nodes.push(Node::Leaf { first: 0, count: 0, ends: NO_NODE });
        let chosen_at = |leaf: &Leaf<S>| all.path(leaf)[depth].chosen();
        let mut kids = Vec::with_capacity(head.count() as usize);
        let mut start = 0;
        for i in 1..=group.len() {
            if i == group.len() || chosen_at(&group[i]) != chosen_at(&group[start]) {
                let chosen = chosen_at(&group[start]);
                let child = self.node(all, &group[start..i], depth + 1);
                let key = match all.path(&group[start])[depth] {
                    Pick::Chance { probability, .. } => probability.to_bits(),
                    Pick::Decide { options, .. } => u64::from(all.options[(options + chosen) as usize]),
                };
                kids.push((key, child));
                start = i;
            }
        }
        let first = self.children.len() as u32;
        let count = kids.len() as u32;
        self.children.extend(kids);
        debug_assert_eq!(count, head.count());
        self.nodes[index as usize] = match head {
            Pick::Chance { .. } => Node::Chance { first, count },
            Pick::Decide { side, decision, .. } => {
                self.deciders.push((side, decision));
                Node::Decide { first, count, slot: self.deciders.len() as u32 - 1 }
            }
        };
        index
    }
}

impl<S> Graph<S> {
    /// The node to track when sampling: `NO_NODE` once no decision lies below.
    #[inline]
    pub(super) fn tracked(&self, node: u32) -> u32 {
        match self.nodes.get(node as usize) {
            Some(Node::Leaf { .. }) | None => NO_NODE,
            Some(_) => node,
        }
    }
}

impl<S: Copy + Eq + Hash + Send + Sync> Graph<S> {
    /// The id of a state, added if new.
    pub(super) fn id(&mut self, state: S) -> (u32, bool) {
        if let Some(&id) = self.ids.get(&state) {
            return (id, false);
        }
        let id = self.states.len() as u32;
        self.states.push(state);
        self.ids.insert(state, id);
        self.root.push(NO_NODE);
        self.spans.push((0, 0));
        (id, true)
    }

    /// Enumerates every state reachable within the game's turns; `None` when
    /// the graph outgrows the budget.
    pub(super) fn explore<G: Game<State = S>>(game: &G, plan: Plan) -> Option<Graph<S>> {
        let mut graph = Graph {
            states: Vec::new(),
            ids: Ids::default(),
            root: Vec::new(),
            spans: Vec::new(),
            nodes: Vec::new(),
            children: Vec::new(),
            transitions: Vec::new(),
            targets: Vec::new(),
            probabilities: Vec::new(),
            layers: Vec::new(),
            layer_of: Vec::new(),
            within: Vec::new(),
            heights: Vec::new(),
            deciders: Vec::new(),
            within_count: 0,
            start_count: 0,
            first_turn: Vec::new(),
            reach_of: Vec::new(),
            reached: Vec::new(),
            leaf_ends: Vec::new(),
            endings: Vec::new(),
            ending_states: Vec::new(),
            purpose: game.purpose(),
        };
        let budget = game.state_budget();
        let (start, _) = graph.id(game.start());
        let mut layer = vec![start];
        // The states of `layer` to walk from: all of them, until the layers
        // are nested (each holds the one before), and then only those new to it.
        let mut fresh = layer.clone();
        // `seen[id] == t` marks ids in layer t; `inside[id] == t` marks ids
        // reached within turn t.
        let mut seen: Vec<u32> = vec![0];
        let mut inside: Vec<u32> = vec![u32::MAX];
        let mut first_turn: Vec<u32> = vec![u32::MAX];
        // The states within each turn that it reaches, as a bitset over
        // exploration's ids, for each turn that walks the whole of its
        // layer (none once only the states new to a layer are walked).
        let mut reached: Vec<Option<Vec<u64>>> = Vec::new();
        // Once a turn's next layer holds the whole of its own, every later
        // one holds the one before too (what a layer leads to only grows
        // with it): from then on a turn walks only from the states new to
        // its layer, and a state within a turn reached in any turn since
        // then needs no second walk.
        let mut nested_from: Option<u32> = None;
        let turns = game.steps();
        for t in 0..turns {
            if layer.is_empty() {
                break;
            }
            let mut next = Vec::new();
            if nested_from.is_some() {
                next.extend_from_slice(&layer);
                for &id in &layer {
                    seen[id as usize] = t + 1;
                }
            }
            let mut kept = 0;
            let mut fresh_next = Vec::new();
            let mut reached_now: Option<Vec<u64>> = nested_from.is_none().then(Vec::new);
            let mut frontier = std::mem::take(&mut fresh);
            while !frontier.is_empty() {
                let mut more = Vec::new();
                graph.expand(game, plan, &frontier, &mut |graph: &Graph<S>, walked: &[u32]| {
                    seen.resize(graph.states.len(), u32::MAX);
                    inside.resize(graph.states.len(), u32::MAX);
                    first_turn.resize(graph.states.len(), u32::MAX);
                    for &id in walked {
                        graph.successors(id, &mut |target, within| {
                            let target_ = target as usize;
                            if within {
                                let mark = inside[target_];
                                let walked = mark == t || nested_from.is_some_and(|n| mark != u32::MAX && mark >= n);
                                if !walked {
                                    if let Some(bits) = &mut reached_now {
                                        set_bit(bits, target_);
                                    }
                                    inside[target_] = t;
                                    first_turn[target_] = first_turn[target_].min(t);
                                    more.push(target);
                                }
                            } else if seen[target_] != t + 1 {
                                let in_layer = seen[target_] == t;
                                kept += usize::from(in_layer);
                                seen[target_] = t + 1;
                                next.push(target);
                                if !in_layer {
                                    fresh_next.push(target);
                                }
                            }
                        });
                    }
                });
                if graph.states.len() > budget {
                    return None;
                }
                frontier = more;
            }
            reached.push(reached_now);
            if nested_from.is_none() && kept == layer.len() {
                nested_from = Some(t);
            }
            graph.layer_of.push(graph.layers.len() as u32);
            graph.layers.push(layer);
            // A turn that leads back to the very states a turn `period`
            // turns before it started from repeats the turns since: what a
            // turn starts from depends only on what the turn before started
            // from, so every later turn starts as the turn `period` before
            // it did (a game whose steps are phases cycles through them).
            let period = if fresh_next.is_empty() && next.len() == graph.layers[t as usize].len() {
                Some(1)
            } else {
                repeated_layer(&graph.layers, &next)
            };
            if let Some(period) = period {
                while graph.layer_of.len() < turns as usize {
                    graph.layer_of.push(graph.layer_of[graph.layer_of.len() - period]);
                }
                break;
            }
            fresh = if nested_from.is_some() { fresh_next } else { next.clone() };
            layer = next;
        }
        first_turn.resize(graph.states.len(), u32::MAX);
        graph.first_turn = first_turn;
        // Every state in a layer or continued into was marked in `seen`.
        seen.resize(graph.states.len(), u32::MAX);
        let starts: Vec<bool> = seen.iter().map(|&mark| mark != u32::MAX).collect();
        graph.order_within(game);
        graph.reach_from(&reached);
        graph.renumber(starts);
        Some(graph)
    }

    /// Works out and adds the laws of the states of `ids` met for the first
    /// time: in parallel, then given ids in order, so that ids never depend
    /// on threads. The laws come in batches of [`EXPAND_BATCH`] states, and
    /// each batch is added (one thread) while the next is worked out (the
    /// others, and that one once it is done). `walk` is called with `ids`
    /// cut in runs, in order, each once the laws of all its states are in,
    /// on the thread that adds them.
    pub(super) fn expand<G: Game<State = S>>(
        &mut self,
        game: &G,
        plan: Plan,
        ids: &[u32],
        walk: &mut (impl FnMut(&Graph<S>, &[u32]) + Send),
    ) {
        // The states new to the graph, with where each is in `ids`.
        let (places, fresh): (Vec<usize>, Vec<u32>) =
            ids.iter().enumerate().filter(|&(_, &id)| self.root[id as usize] == NO_NODE).unzip();
        let states: Vec<S> = fresh.iter().map(|&id| self.states[id as usize]).collect();
        // The runs of `ids` ready once each batch is in: up to its last new state.
        let ends: Vec<usize> = places.chunks(EXPAND_BATCH).map(|batch| batch[batch.len() - 1] + 1).collect();
        let mut walked = 0;
        let work_out = |batch: &[S]| -> Vec<RawLaw<S>> {
            batch
                .par_chunks(EXPAND_CHUNK)
                .map(|chunk| {
                    let mut law = RawLaw::new(chunk.len());
                    let mut leaves =
                        Leaves { leaves: Vec::new(), picks: Vec::new(), options: Vec::new(), laws: Vec::new() };
                    let mut path = Vec::new();
                    for state in chunk {
                        enumerate(game, plan, state, &mut leaves, &mut path);
                        law.add(&leaves);
                    }
                    law
                })
                .collect()
        };
        pipelined(
            fresh.chunks(EXPAND_BATCH).zip(states.chunks(EXPAND_BATCH)).zip(ends),
            |((fresh, batch), end)| (fresh, work_out(batch), end),
            |(fresh, laws, end)| {
                self.insert_all(fresh, laws);
                walk(self, &ids[walked..end]);
                walked = end;
            },
        );
        walk(self, &ids[walked..]);
    }

    /// Adds the laws of a batch of states, a chunk of [`EXPAND_CHUNK`] at a time.
    pub(super) fn insert_all(&mut self, ids: &[u32], laws: Vec<RawLaw<S>>) {
        for (ids, law) in ids.chunks(EXPAND_CHUNK).zip(laws) {
            self.insert(ids, law);
        }
    }

    /// Fills [`Graph::within`] and [`Graph::heights`]; panics if steps
    /// within a turn loop.
    pub(super) fn order_within<G: Game<State = S>>(&mut self, game: &G) {
        const UNKNOWN: u32 = u32::MAX;
        const PENDING: u32 = u32::MAX - 1;
        let n = self.states.len();
        // Exploration marks every state it reaches within a turn with the
        // first turn it does so.
        let is_within: Vec<bool> = self.first_turn.iter().map(|&t| t != u32::MAX).collect();
        debug_assert!(
            self.transitions.iter().filter(|t| t.winner == WITHIN).all(|t| is_within[t.target as usize]),
            "every state reached within a turn has a first turn"
        );
        // Heights by a depth-first walk, without recursion: a state's height
        // is one more than its highest successor within the turn.
        let mut height = vec![UNKNOWN; n];
        let mut stack: Vec<(u32, bool)> = Vec::new();
        for id in (0..n as u32).filter(|&id| is_within[id as usize]) {
            if height[id as usize] != UNKNOWN {
                continue;
            }
            stack.push((id, false));
            while let Some((id, done)) = stack.pop() {
                if done {
                    let mut h = 0;
                    self.successors(id, &mut |target, within| {
                        if within {
                            h = h.max(height[target as usize] + 1);
                        }
                    });
                    height[id as usize] = h;
                    continue;
                }
                if height[id as usize] != UNKNOWN {
                    continue;
                }
                height[id as usize] = PENDING;
                stack.push((id, true));
                self.successors(id, &mut |target, within| {
                    if within {
                        match height[target as usize] {
                            UNKNOWN => stack.push((target, false)),
                            PENDING => panic!(
                                "steps within a turn come back to {:?}: each step within a turn must make progress",
                                game.describe_state(&self.states[target as usize], ATTACKER)
                            ),
                            _ => {}
                        }
                    }
                });
            }
        }
        let mut within: Vec<u32> = (0..n as u32).filter(|&id| is_within[id as usize]).collect();
        within.sort_by_key(|&id| std::cmp::Reverse(height[id as usize]));
        let mut heights = Vec::new();
        let mut end = within.len();
        while end > 0 {
            let h = height[within[end - 1] as usize];
            let first = within[..end].partition_point(|&id| height[id as usize] > h);
            heights.push((first as u32, end as u32));
            end = first;
        }
        self.within = within;
        self.heights = heights;
    }

    /// Fills [`Graph::reach_of`] and [`Graph::reached`] from `reached`, the
    /// states within each explored turn that it reaches (by exploration's
    /// ids; `None` where it is not known): once [`Graph::within`] holds the
    /// order they will be numbered in.
    pub(super) fn reach_from(&mut self, reached: &[Option<Vec<u64>>]) {
        let explored = reached.len();
        // A repeated turn reaches what the turn it repeats did.
        self.reach_of =
            self.layer_of.iter().map(|&t| if reached[t as usize].is_some() { t } else { NO_NODE }).collect();
        let words = self.within.len().div_ceil(64);
        let mut index = vec![NO_NODE; explored];
        for (t, bits) in reached.iter().enumerate() {
            let Some(bits) = bits else { continue };
            if !self.reach_of.contains(&(t as u32)) {
                continue;
            }
            let mut out = vec![0u64; words];
            for (i, &old) in self.within.iter().enumerate() {
                if bit(bits, old as usize) {
                    set_bit(&mut out, i);
                }
            }
            index[t] = self.reached.len() as u32;
            self.reached.push(out);
        }
        for of in &mut self.reach_of {
            if *of != NO_NODE {
                *of = index[*of as usize];
            }
        }
    }

    /// Whether turn `t` may reach state `id`, within a turn (laid out).
    #[inline(always)]
    pub(super) fn reaches_within(&self, t: usize, id: usize) -> bool {
        match self.reach_of[t] {
            NO_NODE => self.first_turn[id] as usize <= t,
            of => bit(&self.reached[of as usize], id),
        }
    }

    /// Renumbers the states in the order backward induction visits them
    /// (the states within a turn as [`Graph::within`] holds them, then the
    /// states that start a turn, then those only ever ended in) and lays out
    /// each state's tree, transitions and decision slots in that order, so
    /// that every sweep of the solver reads the graph front to back rather
    /// than in the order exploration happened to meet it. Each leaf's
    /// endings move to [`Graph::endings`], summed into its worth
    /// ([`LeafEnds`]). `starts` marks the states that start a turn.
    pub(super) fn renumber(&mut self, starts: Vec<bool>) {
        let n = self.states.len();
        let mut order: Vec<u32> = Vec::with_capacity(n);
        let mut placed = vec![false; n];
        for &id in &self.within {
            order.push(id);
            placed[id as usize] = true;
        }
        // The states that start a turn (`starts`): those of the layers and
        // those a step continues into (the last turn's may have no law of
        // their own), as exploration marked them.
        for &id in self.layers.iter().flatten() {
            assert!(
                !placed[id as usize],
                "a state starts a turn and is reached within one: `starts_turn` must say which, from the state alone"
            );
            debug_assert!(starts[id as usize]);
        }
        debug_assert!(self.transitions.iter().filter(|t| t.winner == CONTINUES).all(|t| starts[t.target as usize]));
        let starts_from = order.len();
        order.extend((0..n as u32).filter(|&id| starts[id as usize]));
        let start_count = order.len() - starts_from;
        order.extend((0..n as u32).filter(|&id| !placed[id as usize] && !starts[id as usize]));
        let mut new_of = vec![0u32; n];
        for (new, &old) in order.iter().enumerate() {
            new_of[old as usize] = new as u32;
        }
        self.first_turn = order[..self.within.len()].iter().map(|&old| self.first_turn[old as usize]).collect();
        // Runs of the order laid out in parallel, and joined in order (each
        // run's indices moved on by the runs before it) while the next are
        // laid out: the same arrays as laying out one state after another.
        let mut joined = LaidOut {
            roots: Vec::with_capacity(n),
            nodes: Vec::with_capacity(self.nodes.len()),
            deciders: Vec::with_capacity(self.deciders.len()),
            children: Vec::with_capacity(self.children.len()),
            targets: Vec::with_capacity(self.transitions.len()),
            probabilities: Vec::with_capacity(self.transitions.len()),
            leaf_ends: Vec::new(),
            endings: Vec::new(),
        };
        let mut ending_states: Vec<(u8, u32)> = Vec::new();
        // The slot of each ending met so far, by final state and winner
        // (`END_COUNT * state + end`; `NO_NODE` for none yet): slots in the order
        // the endings are met.
        let mut ending_slots = vec![NO_NODE; END_COUNT * n];
        pipelined(
            order.chunks(LAY_OUT_CHUNK * LAY_OUT_BATCH),
            |batch| {
                batch
                    .par_chunks(LAY_OUT_CHUNK)
                    .map(|chunk| {
                        // Sized to hold the run: its transitions (the
                        // targets and endings together) are known.
                        let transitions: usize = chunk.iter().map(|&old| self.spans[old as usize].1 as usize).sum();
                        let mut laid = LaidOut {
                            roots: Vec::with_capacity(chunk.len()),
                            nodes: Vec::with_capacity(4 * chunk.len()),
                            children: Vec::with_capacity(4 * chunk.len()),
                            targets: Vec::with_capacity(transitions),
                            probabilities: Vec::with_capacity(transitions),
                            endings: Vec::with_capacity(transitions / 2),
                            ..LaidOut::default()
                        };
                        for &old in chunk {
                            let root = self.root[old as usize];
                            let root = if root == NO_NODE { NO_NODE } else { self.lay_out(root, &new_of, &mut laid) };
                            laid.roots.push(root);
                        }
                        laid
                    })
                    .collect::<Vec<LaidOut>>()
            },
            |pieces| {
                for piece in pieces {
                    joined.join(piece, &mut ending_slots, &mut ending_states);
                }
            },
        );
        let (states, ids) = (&mut self.states, &mut self.ids);
        rayon::join(
            || *states = order.par_iter().map(|&old| states[old as usize]).collect(),
            || {
                for id in ids.values_mut() {
                    *id = new_of[*id as usize];
                }
            },
        );
        for id in self.layers.iter_mut().flatten().chain(&mut self.within) {
            *id = new_of[*id as usize];
        }
        for layer in &mut self.layers {
            layer.sort_unstable();
            debug_assert!(layer.iter().all(|&id| {
                let id = id as usize;
                id >= self.within.len() && id < self.within.len() + start_count
            }));
        }
        self.root = joined.roots;
        (self.spans, self.transitions) = (Vec::new(), Vec::new());
        (self.nodes, self.deciders, self.children, self.targets, self.probabilities) =
            (joined.nodes, joined.deciders, joined.children, joined.targets, joined.probabilities);
        (self.leaf_ends, self.endings, self.ending_states) = (joined.leaf_ends, joined.endings, ending_states);
        self.within_count = self.within.len() as u32;
        self.start_count = start_count as u32;
    }

    /// Copies the tree below `node` into `laid`, its states renumbered by
    /// `new_of`; the copy's index.
    pub(super) fn lay_out(&self, node: u32, new_of: &[u32], laid: &mut LaidOut) -> u32 {
        let index = laid.nodes.len() as u32;
        match self.nodes[node as usize] {
            Node::Leaf { first, count, .. } => {
                let start = laid.targets.len() as u32;
                let ends_first = laid.endings.len() as u32;
                let mut worth = Worth::ZERO;
                for t in &self.transitions[first as usize..(first + count) as usize] {
                    let target = new_of[t.target as usize];
                    if t.winner == CONTINUES || t.winner == WITHIN {
                        laid.targets.push(target);
                        laid.probabilities.push(t.probability);
                    } else {
                        debug_assert!((t.winner as usize) < END_COUNT, "an ending's code");
                        worth.add_scaled(t.probability, ending_worth(self.purpose, End::from_code(t.winner)));
                        let key = END_COUNT as u32 * target + u32::from(t.winner);
                        laid.endings.push(Ending { slot: key, probability: t.probability });
                    }
                }
                let ends_count = laid.endings.len() as u32 - ends_first;
                let ends = if ends_count == 0 {
                    NO_NODE
                } else {
                    laid.leaf_ends.push(LeafEnds { worth, first: ends_first, count: ends_count });
                    laid.leaf_ends.len() as u32 - 1
                };
                laid.nodes.push(Node::Leaf { first: start, count: laid.targets.len() as u32 - start, ends });
            }
            Node::Chance { first, count } | Node::Decide { first, count, .. } => {
                let kind = self.nodes[node as usize];
                laid.nodes.push(kind);
                // A decision's slot, in the order the layout meets them.
                let slot = laid.deciders.len() as u32;
                if let Node::Decide { slot: old, .. } = kind {
                    laid.deciders.push(self.deciders[old as usize]);
                }
                // The children's places first, then each child's tree.
                let start = laid.children.len() as u32;
                laid.children.extend_from_slice(&self.children[first as usize..(first + count) as usize]);
                for i in start..start + count {
                    let child = laid.children[i as usize].1;
                    laid.children[i as usize].1 = self.lay_out(child, new_of, laid);
                }
                laid.nodes[index as usize] = match kind {
                    Node::Decide { .. } => Node::Decide { first: start, count, slot },
                    _ => Node::Chance { first: start, count },
                };
            }
        }
        index
    }

    /// Adds the laws of the states `ids`, giving their targets ids.
    pub(super) fn insert(&mut self, ids: &[u32], law: RawLaw<S>) {
        let node_base = self.nodes.len() as u32;
        let child_base = self.children.len() as u32;
        let transition_base = self.transitions.len() as u32;
        let slot_base = self.deciders.len() as u32;
        for &node in &law.nodes {
            self.nodes.push(match node {
                Node::Decide { first, count, slot } => {
                    Node::Decide { first: first + child_base, count, slot: slot + slot_base }
                }
                Node::Chance { first, count } => Node::Chance { first: first + child_base, count },
                Node::Leaf { first, count, ends } => Node::Leaf { first: first + transition_base, count, ends },
            });
        }
        self.deciders.extend_from_slice(&law.deciders);
        self.children.extend(law.children.iter().map(|&(key, node)| (key, node + node_base)));
        for &(branch, probability) in &law.transitions {
            let (winner, state) = match branch {
                Branch::Continue(s) => (CONTINUES, s),
                Branch::Within(s) => (WITHIN, s),
                Branch::End(end, s) => (end as u8, s),
            };
            let target = self.id(state).0;
            self.transitions.push(Transition { target, winner, probability });
        }
        let mut first = transition_base;
        for (&id, &(root, end)) in ids.iter().zip(&law.ends) {
            self.root[id as usize] = node_base + root;
            self.spans[id as usize] = (first, transition_base + end - first);
            first = transition_base + end;
        }
    }

    /// Calls `visit(target, within)` with every state that may follow state
    /// `id`, whatever is chosen, and whether it is within the same turn: its
    /// transitions are one run, so this is a scan, not a walk of its tree.
    pub(super) fn successors(&self, id: u32, visit: &mut impl FnMut(u32, bool)) {
        let (first, count) = self.spans[id as usize];
        for t in &self.transitions[first as usize..(first + count) as usize] {
            if t.winner == CONTINUES || t.winner == WITHIN {
                visit(t.target, t.winner == WITHIN);
            }
        }
    }
}
