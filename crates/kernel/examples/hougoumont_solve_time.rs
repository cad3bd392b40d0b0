//! Times the exact solve (best play) of Hougoumont's multi-turn scenarios at their defaults.
use volley_kernel::catalogue::ruleset;
fn main() {
    let hougoumont = ruleset("hougoumont").unwrap();
    let rules = (hougoumont.default_rules)();
    let names: Vec<String> = std::env::args().skip(1).collect();
    for name in names {
        let start = std::time::Instant::now();
        let scenario = hougoumont.scenario(&name).unwrap().build_from_text(rules.as_ref(), []).unwrap();
        let exact = scenario.exact_distribution().unwrap();
        let [a, d, n] = [0, 1, 2].map(|w| exact.probability("winner", w));
        println!("{name}: attacker {a:.4} defender {d:.4} none {n:.4} in {:?}", start.elapsed());
    }
}
