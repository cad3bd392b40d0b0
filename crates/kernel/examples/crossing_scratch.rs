//! Scratch.
use volley_kernel::catalogue::ruleset;
use volley_kernel::rulesets::brigades::Rules;

fn main() {
    let entry = ruleset("brigades").unwrap();
    let basic = Rules::default();
    let pt = Rules { optional_pass_through_fire: true, ..Rules::default() };
    for (name, rules) in [("basic", &basic), ("pt", &pt)] {
        for (policy, obj) in [("bold", "margin"), ("cautious", "margin"), ("best", "win"), ("best", "margin")] {
            let mut line = format!("{name:6} {policy:8} {obj:6}:");
            for exposed in (2..=24).step_by(2) {
                let e = exposed.to_string();
                let keys = [
                    ("firer.weapon", "field_gun"),
                    ("firer.figures", "12"),
                    ("range", "canister"),
                    ("exposed", e.as_str()),
                    ("attacker.policy", policy),
                    ("attacker.objective", obj),
                ];
                let s = entry.scenario("crossing").unwrap().build_from_text(rules, keys).unwrap();
                let d = s.exact_distribution().unwrap();
                line += &format!(" {:.3}", d.probability("arrived", 1));
            }
            println!("{line}");
        }
    }
}
