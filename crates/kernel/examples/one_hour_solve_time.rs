//! Times the exact solve (best play) of One Hour's multi-turn scenarios at their defaults.
use volley_kernel::catalogue::ruleset;
fn main() {
    let one_hour = ruleset("one_hour").unwrap();
    let rules = (one_hour.default_rules)();
    let names: Vec<String> = std::env::args().skip(1).collect();
    for name in names {
        let start = std::time::Instant::now();
        let scenario = one_hour.scenario(&name).unwrap().build_from_text(rules.as_ref(), []).unwrap();
        let exact = scenario.exact_distribution().unwrap();
        println!("{name}: attacker {:.4} in {:?}", exact.probability("winner", 0), start.elapsed());
    }
}
