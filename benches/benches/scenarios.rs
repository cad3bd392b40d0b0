//! Samples per second of each catalogued scenario at its defaults, beside the
//! raw generator, through the same runner the CLI uses (one thread).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::hint::black_box;
use volley_kernel::catalogue::catalogue;
use volley_kernel::runner::RunOptions;

const SAMPLES: u64 = 1 << 20;

fn scenarios(c: &mut Criterion) {
    let mut group = c.benchmark_group("scenarios");
    group.sample_size(10);
    group.throughput(Throughput::Elements(SAMPLES));
    group.bench_function("raw_u64", |b| {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        b.iter(|| {
            let mut acc = 0u64;
            for _ in 0..SAMPLES {
                acc = acc.wrapping_add(rng.next_u64());
            }
            black_box(acc)
        })
    });
    for ruleset in catalogue() {
        let rules = (ruleset.default_rules)();
        for entry in &ruleset.scenarios {
            let scenario = entry.build_from_text(rules.as_ref(), []).expect("defaults build");
            let options = RunOptions::new(SAMPLES, 1).with_threads(1);
            group.bench_function(format!("{}/{}", ruleset.name, entry.name), |b| {
                b.iter(|| black_box(scenario.simulate(&options).expect("not cancelled")))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, scenarios);
criterion_main!(benches);
