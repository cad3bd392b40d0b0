//! One turn's logic, written once, run two ways: with real dice (Monte Carlo)
//! or by enumerating every branch with its probability (exact solvers).
//!
//! A turn function takes a [`Roller`]. [`DiceRoller`] rolls. [`enumerate`]
//! replays the function with a script of branch choices, odometer fashion,
//! until every path has been taken once: each path's probability is the
//! product of the chances of its choices. The kernel's `markov::absorb` then
//! carries the per-turn laws from turn to turn.

use super::{Rules, TestResult, roll_test, test_distribution};
use crate::dice::Dice;
use crate::pmf::Pmf;

/// The random events a turn needs.
pub trait Roller {
    /// How many of `dice` D10s hit, each on `faces` (with the chance `chance`).
    fn hits(&mut self, dice: u32, faces: &[bool; 10], chance: f64) -> u32;
    /// One morale test and rout roll (5.2, 5.7).
    fn test(&mut self, rules: &Rules, pass: i32, modifier: i32, rout_modifier: i32) -> TestResult;
    /// True with chance `tenths` / 10 (one D10 at or under `tenths`).
    fn d10_at_most(&mut self, tenths: u32) -> bool;
}

/// Real dice.
pub struct DiceRoller<'a>(pub &'a mut Dice);

impl Roller for DiceRoller<'_> {
    #[inline]
    fn hits(&mut self, dice: u32, faces: &[bool; 10], _chance: f64) -> u32 {
        let mut hits = 0;
        for _ in 0..dice {
            hits += u32::from(faces[self.0.d10() as usize - 1]);
        }
        hits
    }

    #[inline]
    fn test(&mut self, rules: &Rules, pass: i32, modifier: i32, rout_modifier: i32) -> TestResult {
        roll_test(rules, self.0, pass, modifier, rout_modifier)
    }

    #[inline]
    fn d10_at_most(&mut self, tenths: u32) -> bool {
        self.0.d10() <= tenths
    }
}

/// Replays a script of branch choices and records the branches it meets.
struct ScriptRoller<'a> {
    script: &'a [usize],
    taken: Vec<usize>,
    branches: Vec<usize>,
    probability: f64,
}

impl ScriptRoller<'_> {
    fn choose<T: Copy>(&mut self, options: &[(T, f64)]) -> T {
        let depth = self.taken.len();
        let index = self.script.get(depth).copied().unwrap_or(0);
        self.taken.push(index);
        self.branches.push(options.len());
        self.probability *= options[index].1;
        options[index].0
    }
}

impl Roller for ScriptRoller<'_> {
    fn hits(&mut self, dice: u32, _faces: &[bool; 10], chance: f64) -> u32 {
        let options: Vec<(u32, f64)> =
            Pmf::binomial(dice, chance).iter().filter(|&(_, p)| p > 0.0).map(|(v, p)| (v as u32, p)).collect();
        self.choose(&options)
    }

    fn test(&mut self, rules: &Rules, pass: i32, modifier: i32, rout_modifier: i32) -> TestResult {
        self.choose(&test_distribution(rules, pass, modifier, rout_modifier))
    }

    fn d10_at_most(&mut self, tenths: u32) -> bool {
        let p = f64::from(tenths.min(10)) / 10.0;
        let options: Vec<(bool, f64)> = [(true, p), (false, 1.0 - p)].into_iter().filter(|&(_, q)| q > 0.0).collect();
        self.choose(&options)
    }
}

/// Every outcome of `turn` with its probability, one entry per path.
pub fn enumerate<T>(mut turn: impl FnMut(&mut dyn Roller) -> T) -> Vec<(T, f64)> {
    let mut out = Vec::new();
    let mut script: Vec<usize> = Vec::new();
    loop {
        let mut roller = ScriptRoller { script: &script, taken: Vec::new(), branches: Vec::new(), probability: 1.0 };
        let result = turn(&mut roller);
        out.push((result, roller.probability));
        // The next path: the deepest choice with an untried branch moves on.
        let ScriptRoller { mut taken, branches, .. } = roller;
        loop {
            match taken.pop() {
                None => return out,
                Some(index) if index + 1 < branches[taken.len()] => {
                    taken.push(index + 1);
                    break;
                }
                Some(_) => {}
            }
        }
        script = taken;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enumeration_covers_every_path_once() {
        // Two dice at 0.5, then, if both hit, a D10 of 1-3: P(2 hits and low) = 0.25 * 0.3.
        let faces = [false; 10];
        let paths = enumerate(|r: &mut dyn Roller| {
            let h = r.hits(2, &faces, 0.5);
            if h == 2 { (h, r.d10_at_most(3)) } else { (h, false) }
        });
        assert_eq!(paths.len(), 4);
        let total: f64 = paths.iter().map(|p| p.1).sum();
        assert!((total - 1.0).abs() < 1e-15);
        let low: f64 = paths.iter().filter(|p| p.0 == (2, true)).map(|p| p.1).sum();
        assert!((low - 0.075).abs() < 1e-15);
    }
}
