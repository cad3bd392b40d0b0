//! Dice drawn from one `u64` stream: exactly unbiased, several to a word.
//!
//! Every draw comes from [`Xoshiro256PlusPlus`], a named generator whose output
//! will not change under us. A single bounded draw uses Lemire's multiply-shift
//! with rejection. Small dice are drawn in batches: one 64-bit word is multiplied
//! by each die's size in turn, the high words are the dice and the final low word
//! decides, by one rejection test against the product of the sizes, whether the
//! whole batch is exactly uniform (Brackett-Milano and Lemire, "Batched ranged
//! random integer generation", 2024). Batches are sized so their product stays
//! below 2^56, which keeps rejections rarer than one in a thousand words; the
//! dice are nonetheless exactly unbiased, not merely close. Since the leftover
//! word is known from the first word alone, the test is made before the first
//! die is used and each die then costs one multiplication.

use rand::{SeedableRng, TryRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::convert::Infallible;

/// The generator every simulation uses.
pub type Generator = Xoshiro256PlusPlus;

/// How many dice of `sides` fit in one batch whose product stays at most 2^56.
const fn batch_len(sides: u64) -> usize {
    let mut product: u128 = 1;
    let mut count = 0;
    while product * (sides as u128) <= (1u128 << 56) {
        product *= sides as u128;
        count += 1;
    }
    count
}

/// A running 64-bit word that yields up to `LEN` faces of one die size.
///
/// Multiplying the word by the die's size gives a face (the high word) and the
/// word for the next face (the low word). After `LEN` faces the leftover word is
/// `x * SIDES^LEN mod 2^64` for the starting word `x`, so whether the batch is
/// exactly uniform is known before the first face is used: a starting word
/// whose leftover would fall in the short, biased stretch is rejected up front.
#[derive(Clone, Debug)]
struct Batch<const SIDES: u64> {
    word: u64,
    left: u32,
}

impl<const SIDES: u64> Batch<SIDES> {
    const LEN: u32 = batch_len(SIDES) as u32;
    const PRODUCT: u64 = SIDES.pow(Self::LEN);
    /// Leftovers below this are the biased stretch: 2^64 mod PRODUCT.
    const THRESHOLD: u64 = Self::PRODUCT.wrapping_neg() % Self::PRODUCT;

    fn new() -> Self {
        Batch { word: 0, left: 0 }
    }

    /// The next face, 0-based (0..SIDES).
    #[inline(always)]
    fn draw(&mut self, rng: &mut Generator) -> u32 {
        if self.left == 0 {
            self.refill(rng);
        }
        self.left -= 1;
        let wide = u128::from(self.word) * u128::from(SIDES);
        self.word = wide as u64;
        (wide >> 64) as u32
    }

    // Inlined so the running word can live in a register: a call here would
    // let the batch's address escape and send every die through memory.
    #[inline(always)]
    fn refill(&mut self, rng: &mut Generator) {
        let mut word = next_u64(rng);
        while word.wrapping_mul(Self::PRODUCT) < Self::THRESHOLD {
            word = next_u64(rng);
        }
        self.word = word;
        self.left = Self::LEN;
    }
}

#[inline(always)]
fn next_u64(rng: &mut Generator) -> u64 {
    match rng.try_next_u64() {
        Ok(word) => word,
    }
}

/// A source of dice: the generator plus one face buffer per common die size.
///
/// `Dice` is itself a [`rand::Rng`], so anything that takes a generator takes it.
/// The same seed gives the same dice in the same order, always.
#[derive(Clone, Debug)]
pub struct Dice {
    rng: Generator,
    d4: Batch<4>,
    d6: Batch<6>,
    d8: Batch<8>,
    d10: Batch<10>,
    d12: Batch<12>,
    d20: Batch<20>,
    d6_pair: Batch<36>,
}

impl Dice {
    /// Dice from a generator already seeded.
    pub fn from_generator(rng: Generator) -> Self {
        Dice {
            rng,
            d4: Batch::new(),
            d6: Batch::new(),
            d8: Batch::new(),
            d10: Batch::new(),
            d12: Batch::new(),
            d20: Batch::new(),
            d6_pair: Batch::new(),
        }
    }

    /// Dice seeded from one `u64` (expanded by SplitMix64).
    pub fn seed_from_u64(seed: u64) -> Self {
        Self::from_generator(Generator::seed_from_u64(seed))
    }

    /// One raw 64-bit word of the generator.
    #[inline(always)]
    pub fn word(&mut self) -> u64 {
        next_u64(&mut self.rng)
    }

    /// A uniform integer in `0..bound` from whole words: Lemire's multiply-shift
    /// with rejection. `bound` must be at least 1.
    #[inline]
    pub fn below(&mut self, bound: u64) -> u64 {
        debug_assert!(bound > 0, "below(0) has no values");
        let mut wide = u128::from(self.word()) * u128::from(bound);
        if (wide as u64) < bound {
            let threshold = bound.wrapping_neg() % bound;
            while (wide as u64) < threshold {
                wide = u128::from(self.word()) * u128::from(bound);
            }
        }
        (wide >> 64) as u64
    }

    /// One die of any number of sides (1..=sides), one word each: no batching.
    #[inline]
    pub fn roll_single(&mut self, sides: u32) -> u32 {
        self.below(u64::from(sides)) as u32 + 1
    }

    /// A d4, batched.
    #[inline(always)]
    pub fn d4(&mut self) -> u32 {
        self.d4.draw(&mut self.rng) + 1
    }

    /// A d6, batched (21 to a word).
    #[inline(always)]
    pub fn d6(&mut self) -> u32 {
        self.d6.draw(&mut self.rng) + 1
    }

    /// A d8, batched.
    #[inline(always)]
    pub fn d8(&mut self) -> u32 {
        self.d8.draw(&mut self.rng) + 1
    }

    /// A d10, batched (16 to a word).
    #[inline(always)]
    pub fn d10(&mut self) -> u32 {
        self.d10.draw(&mut self.rng) + 1
    }

    /// A d12, batched.
    #[inline(always)]
    pub fn d12(&mut self) -> u32 {
        self.d12.draw(&mut self.rng) + 1
    }

    /// A d20, batched (12 to a word).
    #[inline(always)]
    pub fn d20(&mut self) -> u32 {
        self.d20.draw(&mut self.rng) + 1
    }

    /// Two d6 at once, as one draw of 36 faces (10 pairs to a word).
    #[inline(always)]
    pub fn two_d6(&mut self) -> (u32, u32) {
        let pair = self.d6_pair.draw(&mut self.rng);
        (pair / 6 + 1, pair % 6 + 1)
    }

    /// The index of a 2D6 pair, 0..36: `6 * (first - 1) + (second - 1)`.
    /// Scenarios whose whole outcome depends on the pair count it directly.
    #[inline(always)]
    pub fn two_d6_index(&mut self) -> u32 {
        self.d6_pair.draw(&mut self.rng)
    }

    /// One die of `sides` faces (1..=sides), batched where the size is common.
    #[inline]
    pub fn die(&mut self, sides: u32) -> u32 {
        match sides {
            4 => self.d4(),
            6 => self.d6(),
            8 => self.d8(),
            10 => self.d10(),
            12 => self.d12(),
            20 => self.d20(),
            _ => self.roll_single(sides),
        }
    }

    /// The sum of `count` dice of `sides` faces.
    #[inline]
    pub fn sum(&mut self, count: u32, sides: u32) -> u32 {
        (0..count).map(|_| self.die(sides)).sum()
    }

    /// How many of `count` dice of `sides` faces roll `target` or more.
    #[inline]
    pub fn count_at_least(&mut self, count: u32, sides: u32, target: u32) -> u32 {
        (0..count).map(|_| u32::from(self.die(sides) >= target)).sum()
    }
}

impl TryRng for Dice {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok((self.word() >> 32) as u32)
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(self.word())
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for chunk in dst.chunks_mut(8) {
            let bytes = self.word().to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
        Ok(())
    }
}

/// SplitMix64's output function: a bijective mix of one word.
#[inline]
pub const fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The generator of chunk `index` of a run seeded with `seed`.
///
/// The 256-bit state is four successive SplitMix64 outputs from a starting
/// point mixed from both numbers, so neighbouring chunks and neighbouring seeds
/// share nothing.
pub fn chunk_generator(seed: u64, index: u64) -> Generator {
    let mut state = splitmix64(seed) ^ splitmix64(index ^ 0xD1B5_4A32_D192_ED03).rotate_left(17);
    let mut bytes = [0u8; 32];
    for word in bytes.chunks_mut(8) {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        word.copy_from_slice(&splitmix64(state).to_le_bytes());
    }
    Generator::from_seed(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batch_lengths_keep_the_product_below_two_to_the_56() {
        assert_eq!(batch_len(6), 21);
        assert_eq!(batch_len(10), 16);
        assert_eq!(batch_len(20), 12);
        assert_eq!(batch_len(36), 10);
        assert_eq!(batch_len(4), 28);
        assert_eq!(Batch::<6>::PRODUCT, 6u64.pow(21));
    }

    #[test]
    fn faces_stay_in_range() {
        let mut dice = Dice::seed_from_u64(7);
        for _ in 0..10_000 {
            assert!((1..=6).contains(&dice.d6()));
            assert!((1..=10).contains(&dice.d10()));
            assert!((1..=20).contains(&dice.d20()));
            assert!((1..=4).contains(&dice.d4()));
            assert!((1..=8).contains(&dice.d8()));
            assert!((1..=12).contains(&dice.d12()));
            assert!((1..=7).contains(&dice.roll_single(7)));
            let (a, b) = dice.two_d6();
            assert!((1..=6).contains(&a) && (1..=6).contains(&b));
        }
    }

    #[test]
    fn below_one_is_always_zero() {
        let mut dice = Dice::seed_from_u64(1);
        assert!((0..100).all(|_| dice.below(1) == 0));
    }
}
