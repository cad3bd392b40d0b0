//! Raw generator output against dice draws, measured in the same run so the cost
//! of a die reads as a ratio to one `u64` of the generator.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::hint::black_box;
use volley_kernel::dice::Dice;
use volley_kernel::outcome::{Layout, Metric};
use volley_kernel::runner::{self, RunOptions};
use volley_kernel::scenario::Scenario;

const DRAWS: u64 = 1 << 16;

fn dice(c: &mut Criterion) {
    let mut group = c.benchmark_group("draws");
    group.throughput(Throughput::Elements(DRAWS));
    group.bench_function("raw_u64", |b| {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        b.iter(|| {
            let mut acc = 0u64;
            for _ in 0..DRAWS {
                acc = acc.wrapping_add(rng.next_u64());
            }
            black_box(acc)
        })
    });
    // Each die is measured through a generic function, so it inlines into the
    // loop exactly as it does in a scenario's `sample`.
    draw_bench(&mut group, "d6_batched", Dice::d6);
    draw_bench(&mut group, "d10_batched", Dice::d10);
    draw_bench(&mut group, "d20_batched", Dice::d20);
    draw_bench(&mut group, "2d6_pair", |d: &mut Dice| {
        let (a, b) = d.two_d6();
        a + b
    });
    draw_bench(&mut group, "2d6_two_draws", |d: &mut Dice| d.d6() + d.d6());
    draw_bench(&mut group, "d6_single_word", |d: &mut Dice| d.roll_single(6));
    draw_bench(&mut group, "d10_single_word", |d: &mut Dice| d.roll_single(10));
    group.finish();
}

fn draw_bench<M: criterion::measurement::Measurement>(
    group: &mut criterion::BenchmarkGroup<'_, M>,
    name: &str,
    mut draw: impl FnMut(&mut Dice) -> u32,
) {
    group.bench_function(name, |b| {
        let mut dice = Dice::seed_from_u64(1);
        b.iter(|| {
            let mut acc = 0u32;
            for _ in 0..DRAWS {
                acc = acc.wrapping_add(draw(&mut dice));
            }
            black_box(acc)
        })
    });
}

/// The cheapest possible scenario: one raw word, eight outcome codes.
struct OneWord {
    layout: Layout,
}

impl Scenario for OneWord {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    #[inline]
    fn sample(&self, dice: &mut Dice) -> u64 {
        dice.word() & 7
    }

    fn has_exact(&self) -> bool {
        false
    }
}

/// What the runner adds per sample: the one-word scenario through the runner
/// (one thread) against the same draw and count in a bare loop.
fn runner(c: &mut Criterion) {
    const SAMPLES: u64 = 1 << 22;
    let mut group = c.benchmark_group("runner");
    group.throughput(Throughput::Elements(SAMPLES));
    group.bench_function("bare_loop_word_and_count", |b| {
        let mut dice = Dice::seed_from_u64(1);
        b.iter(|| {
            let mut counts = [0u64; 8];
            for _ in 0..SAMPLES {
                counts[(dice.word() & 7) as usize] += 1;
            }
            black_box(counts)
        })
    });
    let scenario = OneWord { layout: Layout::new(vec![Metric::integer("low_bits", "three low bits", 0, 7)]) };
    group.bench_function("runner_one_thread", |b| {
        b.iter(|| black_box(runner::run(&scenario, &RunOptions::new(SAMPLES, 1).with_threads(1)).unwrap()))
    });
    group.bench_function("runner_two_threads", |b| {
        b.iter(|| black_box(runner::run(&scenario, &RunOptions::new(SAMPLES, 1).with_threads(2)).unwrap()))
    });
    group.finish();
}

criterion_group!(benches, dice, runner);
criterion_main!(benches);
