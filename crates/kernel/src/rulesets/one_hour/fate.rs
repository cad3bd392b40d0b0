//! Where the game logic gets its chances: rolled dice when sampling, every
//! branch with its probability when solving exactly.
//!
//! The multi-turn scenarios write one side turn once, against [`Fate`]. The
//! sampler runs it with [`Rolling`] (real dice). The exact solver runs it with
//! [`Replay`], which answers each chance with one branch and, run again and
//! again by [`enumerate`], walks every branch in depth-first order: the same
//! code gives both the Monte Carlo outcome and the exact law of one turn, so
//! the two cannot drift apart (the tests check the dice side by Monte Carlo).
//!
//! [`play`] and [`solve`] run any fight made of side turns this way: the
//! sampler plays one fight with real dice, the solver propagates the exact law
//! of its states side turn by side turn as an absorbing Markov chain.

use super::attack::Attack;
use crate::dice::Dice;
use crate::markov::{self, Step};
use std::collections::HashMap;
use std::hash::Hash;

/// The winner code of the attacker (the order of [`WINNERS`](crate::outcome::WINNERS)).
pub const ATTACKER: u8 = 0;
/// The winner code of the defender.
pub const DEFENDER: u8 = 1;
/// The winner code of a fight that nobody won (the turn limit, or cavalry broke off).
pub const NONE: u8 = 2;

/// The chances a turn of One Hour Napoleonic needs.
pub trait Fate {
    /// The hits an attack inflicts.
    fn hits(&mut self, attack: &Attack) -> u32;
    /// One D6.
    fn d6(&mut self) -> u32;
    /// Whether 2D6 total `total` or less (leader risk: "a 2D6 roll of '2'").
    fn two_d6_at_most(&mut self, total: u32) -> bool;
}

/// Real dice.
#[derive(Debug)]
pub struct Rolling<'a>(pub &'a mut Dice);

impl Fate for Rolling<'_> {
    #[inline]
    fn hits(&mut self, attack: &Attack) -> u32 {
        attack.roll(self.0)
    }

    #[inline]
    fn d6(&mut self) -> u32 {
        self.0.d6()
    }

    #[inline]
    fn two_d6_at_most(&mut self, total: u32) -> bool {
        let (a, b) = self.0.two_d6();
        a + b <= total
    }
}

/// One branch of every chance, chosen by a path; see [`enumerate`].
#[derive(Debug, Default)]
pub struct Replay {
    /// (chosen option, number of options) at each chance taken so far.
    path: Vec<(usize, usize)>,
    depth: usize,
    probability: f64,
}

impl Replay {
    /// Takes the option the path names at this depth (the first, when the
    /// path is new here) and multiplies in its probability.
    fn pick(&mut self, probabilities: &[f64]) -> usize {
        if self.depth == self.path.len() {
            self.path.push((0, probabilities.len()));
        }
        let (chosen, _) = self.path[self.depth];
        self.depth += 1;
        self.probability *= probabilities[chosen];
        chosen
    }
}

const D6: [f64; 6] = [1.0 / 6.0; 6];

impl Fate for Replay {
    fn hits(&mut self, attack: &Attack) -> u32 {
        let law = attack.law();
        if law.len() == 1 {
            return law[0].0;
        }
        let probabilities: Vec<f64> = law.iter().map(|&(_, p)| p).collect();
        law[self.pick(&probabilities)].0
    }

    fn d6(&mut self) -> u32 {
        self.pick(&D6) as u32 + 1
    }

    fn two_d6_at_most(&mut self, total: u32) -> bool {
        let ways = (1..=6u32).flat_map(|a| (1..=6u32).map(move |b| a + b)).filter(|&t| t <= total).count();
        match ways {
            0 => false,
            36 => true,
            _ => {
                let p = ways as f64 / 36.0;
                self.pick(&[p, 1.0 - p]) == 0
            }
        }
    }
}

/// Every outcome of `run` with its probability: `run` is called once per
/// branch of the chances it takes (equal outcomes are not merged).
pub fn enumerate<R>(mut run: impl FnMut(&mut Replay) -> R) -> Vec<(R, f64)> {
    let mut results = Vec::new();
    let mut path = Vec::new();
    loop {
        let mut replay = Replay { path, depth: 0, probability: 1.0 };
        let outcome = run(&mut replay);
        results.push((outcome, replay.probability));
        path = replay.path;
        path.truncate(replay.depth);
        // The next branch: the deepest chance with an option left moves on.
        loop {
            match path.last_mut() {
                None => return results,
                Some(last) if last.0 + 1 < last.1 => {
                    last.0 += 1;
                    break;
                }
                Some(_) => {
                    path.pop();
                }
            }
        }
    }
}

/// Plays one fight: side turns from `start` until `side_turn` names a winner or
/// `turns` game turns (two side turns each) have passed; the outcome code
/// `code(winner, game turn, final state)`.
pub fn play<S: Copy, F: Fate>(
    start: S,
    turns: u32,
    fate: &mut F,
    side_turn: impl Fn(&mut S, &mut F) -> Option<u8>,
    code: impl Fn(u8, u32, &S) -> u64,
) -> u64 {
    let mut state = start;
    for step in 1..=2 * turns {
        if let Some(winner) = side_turn(&mut state, fate) {
            return code(winner, step.div_ceil(2), &state);
        }
    }
    code(NONE, turns, &state)
}

/// The exact law of the outcome codes [`play`] gives: one Markov step per side
/// turn, each state's law from running `side_turn` under every branch of its
/// chances (once per state, cached).
pub fn solve<S: Copy + Eq + Hash>(
    start: S,
    turns: u32,
    side_turn: impl Fn(&mut S, &mut Replay) -> Option<u8>,
    code: impl Fn(u8, u32, &S) -> u64,
) -> Vec<(u64, f64)> {
    type SideTurnLaw<S> = Vec<(Result<S, (u8, S)>, f64)>;
    let mut cache: HashMap<S, SideTurnLaw<S>> = HashMap::new();
    let step = |state: &S, step: u32| -> Vec<(Step<S>, f64)> {
        let law = cache.entry(*state).or_insert_with(|| {
            let branches = enumerate(|replay: &mut Replay| {
                let mut next = *state;
                match side_turn(&mut next, replay) {
                    Some(winner) => Err((winner, next)),
                    None => Ok(next),
                }
            });
            let mut merged: SideTurnLaw<S> = Vec::new();
            for (outcome, p) in branches {
                match merged.iter_mut().find(|(o, _)| *o == outcome) {
                    Some(slot) => slot.1 += p,
                    None => merged.push((outcome, p)),
                }
            }
            merged
        });
        let turn = step.div_ceil(2);
        law.iter()
            .map(|&(outcome, p)| match outcome {
                Ok(next) => (Step::Continue(next), p),
                Err((winner, end)) => (Step::End(code(winner, turn, &end)), p),
            })
            .collect()
    };
    markov::absorb(start, 2 * turns, step, |state| code(NONE, turns, state))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enumerate_walks_every_branch_once() {
        // Two D6, the second only when the first is 6: 5 + 6 branches.
        let outcomes = enumerate(|fate| {
            let first = fate.d6();
            if first == 6 { first + fate.d6() } else { first }
        });
        assert_eq!(outcomes.len(), 11);
        let total: f64 = outcomes.iter().map(|o| o.1).sum();
        assert!((total - 1.0).abs() < 1e-15);
        let twelve: f64 = outcomes.iter().filter(|o| o.0 == 12).map(|o| o.1).sum();
        assert!((twelve - 1.0 / 36.0).abs() < 1e-15);
        let snake_eyes = enumerate(|fate| fate.two_d6_at_most(2));
        assert_eq!(snake_eyes.len(), 2);
        assert!((snake_eyes[0].1 - 1.0 / 36.0).abs() < 1e-15 && snake_eyes[0].0);
    }
}
