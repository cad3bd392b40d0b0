//! A lower bound on the states the exact solver would have to enumerate for
//! Huzzah!'s `brigade_assault` (Trained columns against a Trained line, the
//! scenario's defaults but for the keys given): plays `FIGHTS` fights with
//! real dice and every decision taken at random, and counts the distinct
//! states they pass through, by turn. Best play enumerates every roll and
//! every option of every decision, so every state met here is one it must
//! hold; the true count is larger (the count still grows with the fights).
//!
//! `cargo run --release -p volley-kernel --example brigade_reach -- FIGHTS [UNITS [DISTANCE [TURNS]]]`
//! (defaults 1,000,000 fights, 2 units, 8 bands, 30 turns).
use std::collections::HashSet;
use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
use volley_kernel::dice::Dice;
use volley_kernel::game::{Decision, Fate, Game, Law, Policy};
use volley_kernel::rulesets::huzzah::assault::brigade::{Brigade, BrigadeGame};
use volley_kernel::rulesets::huzzah::assault::{Assault, AssaultUnit, Formation, Guns};
use volley_kernel::rulesets::huzzah::multi::Support;
use volley_kernel::rulesets::huzzah::{Arm, Quality, Rules};

/// Real dice, and a choice taken uniformly among the options.
struct AtRandom<'a>(&'a mut Dice);

impl Fate for AtRandom<'_> {
    fn die(&mut self, sides: u32) -> u32 {
        self.0.roll_single(sides)
    }

    fn ways(&mut self, ways: u32, of: u32) -> bool {
        (self.0.below(u64::from(of)) as u32) < ways
    }

    fn draw<L: Law + ?Sized>(&mut self, law: &L) -> u32 {
        law.sample(self.0)
    }

    fn draw_grouped<T: Clone + 'static>(
        &mut self,
        sample: impl FnOnce(&mut Dice) -> T,
        _law: impl FnOnce() -> Vec<(T, f64)>,
    ) -> T {
        sample(self.0)
    }

    fn decide(&mut self, _: u8, _: &'static Decision, options: &[u16], _: &dyn Fn(Policy) -> u16) -> u16 {
        options[self.0.below(options.len() as u64) as usize]
    }
}

/// A state with its turn, by a 64-bit hash: tens of millions of states
/// stay in memory, and a collision among 10^8 of them has a chance of
/// about 3 in 10,000 (it could only lower the count).
fn key(turn: u32, state: &Brigade) -> u64 {
    BuildHasherDefault::<DefaultHasher>::default().hash_one((turn, state))
}

fn main() {
    let arg = |n: usize, default: u64| std::env::args().nth(n).map_or(default, |a| a.parse().expect("a number"));
    let (fights, units, distance, turns) = (arg(1, 1_000_000), arg(2, 2), arg(3, 8), arg(4, 30) as u32);
    let rules = Rules::default();
    let column = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column);
    let line = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Line);
    let assault = Assault::new(&rules, column, line, Guns::Medium, 0, distance as i32, turns).expect("valid keys");
    let game = BrigadeGame::new(assault, units as usize, Support::Same).expect("valid keys");
    let mut starts: Vec<HashSet<u64>> = vec![HashSet::new(); turns as usize];
    let mut all = HashSet::new();
    let mut dice = Dice::seed_from_u64(7);
    for _ in 0..fights {
        let mut state = game.start();
        let mut turn = 0;
        starts[0].insert(key(0, &state));
        all.insert(key(0, &state));
        while game.step(&mut state, &mut AtRandom(&mut dice)).is_none() {
            if game.starts_turn(&state) {
                turn += 1;
                if turn == turns {
                    break;
                }
                starts[turn as usize].insert(key(turn, &state));
            }
            all.insert(key(turn, &state));
        }
    }
    let by_turn: Vec<usize> = starts.iter().map(HashSet::len).collect();
    println!("{fights} fights of {units} units from {distance} bands over {turns} turns, decisions at random:");
    println!("  distinct states starting a turn: {} ({by_turn:?} by turn)", by_turn.iter().sum::<usize>());
    println!("  distinct states between steps: {} ({} bytes each unpacked)", all.len(), size_of::<Brigade>());
}
