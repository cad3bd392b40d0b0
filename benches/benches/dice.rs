//! Raw generator output against dice draws, measured in the same run so the cost
//! of a die reads as a ratio to one `u64` of the generator.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::hint::black_box;
use volley_kernel::dice::Dice;

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
    let cases: [(&str, fn(&mut Dice) -> u32); 7] = [
        ("d6_batched", Dice::d6),
        ("d10_batched", Dice::d10),
        ("d20_batched", Dice::d20),
        ("2d6_pair", |d| {
            let (a, b) = d.two_d6();
            a + b
        }),
        ("2d6_two_draws", |d| d.d6() + d.d6()),
        ("d6_single_word", |d| d.roll_single(6)),
        ("d10_single_word", |d| d.roll_single(10)),
    ];
    for (name, draw) in cases {
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
    group.finish();
}

criterion_group!(benches, dice);
criterion_main!(benches);
