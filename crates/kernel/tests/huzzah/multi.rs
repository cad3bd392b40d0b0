//! "Multiple unit engagements": two alike units against one, exactly.

use volley_kernel::catalogue::ruleset;
use volley_kernel::check::assert_agrees;
use volley_kernel::scenario::DynScenario;

fn multi(pairs: &[(&str, &str)]) -> Result<Box<dyn DynScenario>, volley_kernel::params::ParamError> {
    let entry = ruleset("huzzah").unwrap();
    let rules = (entry.default_rules)();
    entry.scenario("multi_engagement").unwrap().build_from_text(rules.as_ref(), pairs.iter().copied())
}

#[test]
fn a_defender_takes_a_kill_when_it_fails_or_either_attacker_rolls_huzzah() {
    // Two Trained attackers against one Trained defender (all rating 8). The
    // defender takes a kill if it fails (10/36) or if either attacker rolls
    // double one ("inflicts one kill on each opposing unit"), so it escapes
    // only by passing while neither attacker rolls Huzzah!:
    // 1 - (26/36)(35/36)^2 = 1 - 31850/46656 = 14806/46656.
    let exact = multi(&[]).unwrap().exact_distribution().unwrap();
    let no_kill = exact.probability("defender_kills", 0);
    assert!((1.0 - no_kill - 14806.0 / 46656.0).abs() < 1e-12, "{no_kill}");
    // The attackers' kills are F + 2H: F ~ Binomial(2, 10/36) for their own
    // failures, H = 1 when the defender rolls Huzzah! (1/36), which gives each
    // of them a kill. So two kills in all is F = 2 without H, or F = 0 with H:
    // (10/36)^2 (35/36) + (26/36)^2 (1/36).
    let two_kills = (10.0f64 / 36.0).powi(2) * (35.0 / 36.0) + (26.0f64 / 36.0).powi(2) / 36.0;
    assert!((exact.probability("attacker_kills", 2) - two_kills).abs() < 1e-12);
}

#[test]
fn two_against_two_is_refused_and_monte_carlo_agrees() {
    let error = multi(&[("attacker.units", "2"), ("defender.units", "2")]).err().expect("refused");
    assert!(error.to_string().contains("two one-on-one engagements"), "{error}");
    assert_agrees(multi(&[("defender.quality", "experienced")]).unwrap().as_ref(), 1_000_000, 21);
    assert_agrees(multi(&[("attacker.units", "1"), ("defender.units", "2")]).unwrap().as_ref(), 1_000_000, 22);
}
