//! "Multiple unit engagements": two to four alike units against one, exactly.

use volley_kernel::catalogue::ruleset;
use volley_kernel::check::assert_agrees;
use volley_kernel::scenario::DynScenario;

fn multi(pairs: &[(&str, &str)]) -> Result<Box<dyn DynScenario>, volley_kernel::params::ParamError> {
    let entry = ruleset("huzzah").unwrap();
    let rules = (entry.default_rules)();
    {
        let entry = entry.scenario("multi_engagement").unwrap();
        entry.build_from_text(rules.as_ref(), crate::manoeuvring(entry, pairs))
    }
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

#[test]
fn three_against_one_counts_only_the_best_roll() {
    // Three Trained attackers (8) against one Trained defender (8). The
    // defender escapes a kill only by passing (26/36) while no attacker rolls
    // double one: 1 - (26/36)(35/36)^3.
    let three = multi(&[("attacker.units", "3")]).unwrap();
    let exact = three.exact_distribution().unwrap();
    let no_kill = (26.0 / 36.0) * (35.0f64 / 36.0).powi(3);
    assert!((exact.probability("defender_kills", 0) - no_kill).abs() < 1e-12);
    // The most the defender can take: its own failure and three Huzzah!s.
    let four_kills = (10.0 / 36.0) * (1.0f64 / 36.0).powi(3);
    assert!((exact.probability("defender_kills", 4) - four_kills).abs() < 1e-15);
    // The defender wins only if it passes and beats the best of three: with
    // the defender's margin m = 8 - total, every attacker must fail or pass by
    // less. P(an attacker's margin < m) = P(total > 8 - m) = P(total > t) for
    // the defender's total t, and the defender must pass (t <= 8).
    let ways = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0];
    let above = |t: usize| ways[t - 1..].iter().sum::<f64>() / 36.0; // P(total > t), t = 2..=12 at index t-2
    let mut defender_wins = 0.0;
    for t in 2..=8usize {
        defender_wins += ways[t - 2] / 36.0 * above(t).powi(3);
    }
    assert!((exact.probability("result", 1) - defender_wins).abs() < 1e-12, "{defender_wins}");
    assert_agrees(three.as_ref(), 1_000_000, 23);
}

#[test]
fn a_losing_battery_breaks_in_a_multiple_engagement_too() {
    // One Veteran battery (10, Down 1 as a small unit: 9) engaged by two
    // Trained infantry (8): "Unlimbered artillery that loses an engagement is
    // broken", whatever its staggers. So every defender loss is a break.
    let fight = multi(&[("defender.arm", "artillery"), ("defender.quality", "veteran")]).unwrap();
    let exact = fight.exact_distribution().unwrap();
    assert!(exact.probability("result", 0) > 0.2);
    // The defender is never routed without being broken.
    assert!((exact.probability("defender_routed", 1) - exact.probability("defender_broken", 1)).abs() < 1e-12);
    // Four cavalry against one Trained line: losing in the open breaks it.
    let line = multi(&[("attacker.units", "4"), ("attacker.arm", "cavalry")]).unwrap();
    let line = line.exact_distribution().unwrap();
    assert!((line.probability("defender_routed", 1) - line.probability("defender_broken", 1)).abs() < 1e-12);
    // Every attackers' win breaks it unless it rolled Huzzah! (1/36).
    assert!(line.probability("defender_broken", 1) >= line.probability("result", 0) - 1.0 / 36.0);
    assert_agrees(multi(&[("attacker.units", "4"), ("attacker.arm", "cavalry")]).unwrap().as_ref(), 1_000_000, 24);
    let error = multi(&[("attacker.units", "5")]).err().expect("refused");
    assert!(error.to_string().contains("attacker.units"), "{error}");
}

#[test]
fn a_veteran_supported_by_a_green_battalion() {
    // A Veteran (10) and a Green (7) attack one Trained (8). The defender
    // wins only by passing with a margin 8 - t above both attackers' best:
    // the Veteran's margin is below it when its total exceeds t + 2, the
    // Green's when its total exceeds t - 1 (failures included, as totals over
    // the rating). So P(defender wins) = sum over t = 2..8 of
    // P(t) P(T > t + 2) P(T > t - 1).
    let ways = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0];
    let above = |x: i32| -> f64 {
        (2..=12).filter(|&total| total > x).map(|total| ways[total as usize - 2]).sum::<f64>() / 36.0
    };
    let defender_wins: f64 = (2..=8).map(|t| ways[t as usize - 2] / 36.0 * above(t + 2) * above(t - 1)).sum();
    let keys = [("attacker.quality", "veteran"), ("attacker.support_quality", "green")];
    let mixed = multi(&keys).unwrap();
    let exact = mixed.exact_distribution().unwrap();
    assert!((exact.probability("result", 1) - defender_wins).abs() < 1e-12, "{defender_wins}");
    // The Green support helps the Veteran, but less than a second Veteran.
    let alone = multi(&[("attacker.quality", "veteran"), ("attacker.units", "1")]).unwrap();
    let two_veterans = multi(&[("attacker.quality", "veteran")]).unwrap();
    let wins = |s: &dyn DynScenario| s.exact_distribution().unwrap().probability("result", 0);
    let (alone, helped, doubled) = (wins(alone.as_ref()), exact.probability("result", 0), wins(two_veterans.as_ref()));
    assert!(alone < helped && helped < doubled, "{alone} {helped} {doubled}");
    // "same" is all alike: the support key changes nothing then.
    let same = multi(&[("attacker.quality", "veteran"), ("attacker.support_quality", "veteran")]).unwrap();
    assert!((wins(same.as_ref()) - doubled).abs() < 1e-15);
    assert_agrees(mixed.as_ref(), 1_000_000, 25);
}
