//! Exact solutions of multi-turn duels as absorbing Markov chains, turn by turn.
//!
//! A duel's state (remaining strength, staggers, ...) moves by a known
//! probability law each turn until it reaches an end. Propagating the whole
//! distribution of states one turn at a time gives the exact probability of
//! every ending at every turn, including what is still undecided at the turn
//! limit, which is exactly what the Monte Carlo version counts.

use crate::outcome::CodeHasher;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash};

/// States are small plain values, not attacker-chosen: a multiplicative hash
/// serves them several times faster than the default SipHash.
type Map<K> = HashMap<K, f64, BuildHasherDefault<CodeHasher>>;

/// Where one turn takes a state.
#[derive(Clone, Debug, PartialEq)]
pub enum Step<S> {
    /// The duel goes on in this state.
    Continue(S),
    /// The duel ends with this outcome code.
    End(u64),
}

/// The exact distribution of outcome codes of a chain that starts in `start`.
///
/// `step(state, turn)` lists where turn `turn` (1-based) takes `state`, with
/// probabilities summing to 1. States still going after `max_turns` turns end
/// with `at_limit(state)`. Mass below `1e-300` is dropped.
pub fn absorb<S, F, L>(start: S, max_turns: u32, mut step: F, at_limit: L) -> Vec<(u64, f64)>
where
    S: Eq + Hash + Clone,
    F: FnMut(&S, u32) -> Vec<(Step<S>, f64)>,
    L: Fn(&S) -> u64,
{
    let mut ended: Map<u64> = Map::default();
    let mut current: Map<S> = Map::default();
    current.insert(start, 1.0);
    for turn in 1..=max_turns {
        if current.is_empty() {
            break;
        }
        let mut next: Map<S> = Map::with_capacity_and_hasher(current.len(), Default::default());
        for (state, p) in current {
            for (outcome, q) in step(&state, turn) {
                let mass = p * q;
                if mass < 1e-300 {
                    continue;
                }
                match outcome {
                    Step::Continue(s) => *next.entry(s).or_insert(0.0) += mass,
                    Step::End(code) => *ended.entry(code).or_insert(0.0) += mass,
                }
            }
        }
        current = next;
    }
    for (state, p) in current {
        *ended.entry(at_limit(&state)).or_insert(0.0) += p;
    }
    let mut result: Vec<(u64, f64)> = ended.into_iter().collect();
    result.sort_unstable_by_key(|&(code, _)| code);
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_coin_flipped_until_heads_within_three_turns() {
        // End code = the turn of the first head; 0 = no head by the limit.
        let result = absorb((), 3, |_, turn| vec![(Step::End(u64::from(turn)), 0.5), (Step::Continue(()), 0.5)], |_| 0);
        assert_eq!(result, vec![(0, 0.125), (1, 0.5), (2, 0.25), (3, 0.125)]);
    }
}
