//! Sampling: real dice, and choices by heuristic or from a solved table.

use super::*;

/// Real dice, and choices by heuristic or from a solved table.
pub(super) struct Rolling<'a, S> {
    pub(super) dice: &'a mut Dice,
    pub(super) plan: Plan,
    pub(super) solution: Option<&'a Solution<S>>,
    /// The turn being played (0-based).
    pub(super) step: u32,
    /// Where in the current state's tree the step is (`NO_NODE`: past the
    /// last decision, or no solved table).
    pub(super) node: u32,
}

pub(super) const NO_NODE: u32 = u32::MAX;

impl<S> Rolling<'_, S> {
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

impl<S> Fate for Rolling<'_, S> {
    #[inline]
    fn die(&mut self, sides: u32) -> u32 {
        if sides <= 1 {
            return 1;
        }
        let value = self.dice.die(sides);
        self.follow(value as usize - 1);
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
        value
    }

    fn draw_grouped<T: Clone + 'static>(
        &mut self,
        sample: impl FnOnce(&mut Dice) -> T,
        law: impl FnOnce() -> Vec<(T, f64)>,
    ) -> T {
        if self.node == NO_NODE {
            return sample(self.dice);
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
        if let Some(option) = settled(self.plan, side, decision, options, heuristic) {
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
    (policy != Policy::Best).then(|| heuristic(policy))
}

/// Plays one fight with real dice under `plan`, following `solution`'s table
/// for the sides playing `best`.
pub(super) fn play<G: Game>(game: &G, plan: Plan, solution: Option<&Solution<G::State>>, dice: &mut Dice) -> u64 {
    let mut state = game.start();
    let turns = game.steps();
    let mut fate = Rolling { dice, plan, solution, step: 0, node: NO_NODE };
    for turn in 0..turns {
        fate.step = turn;
        loop {
            fate.node = match solution {
                Some(solution) => {
                    let id = *solution.graph.ids.get(&state).expect("every reachable state is in the solved graph");
                    solution.graph.tracked(solution.graph.root[id as usize])
                }
                None => NO_NODE,
            };
            if let Some(end) = game.step(&mut state, &mut fate) {
                return outcome_code(game, end, turn + 1, &state);
            }
            if game.starts_turn(&state) {
                break;
            }
        }
    }
    outcome_code(game, game.at_limit(&state), turns, &state)
}

/// The outcome code of a fight that ended `end` after `steps` steps in
/// `state`: the game's code (under the winner its purpose gives) with the
/// `ended` metric after it (see [`Played`]): what a solver of a game's own
/// must code its outcomes as.
pub fn outcome_code<G: Game>(game: &G, end: End, steps: u32, state: &G::State) -> u64 {
    game.code(game.purpose().winner(end), steps, state) * ENDED.len() as u64 + end.ended_index()
}
