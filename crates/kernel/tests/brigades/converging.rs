//! `converging_fire`: two units fire at one target in one phase, and the
//! target tests once on all its hits (5.4 (1), 5.6); hand-worked values that
//! catch testing each firer's hits apart, and Monte Carlo against the exact law.

use super::{close, exact, rules};
use volley_kernel::catalogue::ruleset;
use volley_kernel::check::assert_agrees;
use volley_kernel::params::RuleBook;
use volley_kernel::rulesets::brigades::Rules;
use volley_kernel::rulesets::brigades::converging::ConvergingHits;
use volley_kernel::scenario::DynScenario;

fn build(rules: &dyn RuleBook, pairs: &[(&str, &str)]) -> Box<dyn DynScenario> {
    let brigades = ruleset("brigades").unwrap();
    {
        let entry = brigades.scenario("converging_fire").unwrap();
        entry.build_from_text(rules, crate::manoeuvring(entry, pairs))
    }
    .unwrap()
}

/// The chance of a failed test: every outcome but untested and pass.
fn routed(dist: &volley_kernel::outcome::Distribution) -> f64 {
    1.0 - dist.probability("outcome", 0) - dist.probability("outcome", 1)
}

#[test]
fn two_volleys_add_their_hits_for_the_test() {
    // Two units of 8 figures, 2 dice each (3.1), muskets at close range on
    // a 16-figure grade D target in the open: 7-10, 0.4 a die. Summed
    // (default), the target's hits are Bin(4, 0.4): 0 0.1296, 1 0.3456,
    // 2 0.3456, 3 0.1536, 4 0.0256. Two or more test (5.4 (1)): P = 0.5248.
    // D passes on 3; -1 per 2 hits this phase (5.6), -2 per quarter lost
    // (4 of 16): 2 or 3 hits -1, passes 4-10 (fails 0.3); 4 hits -1 x 2
    // -2 = -4, passes 7-10 (fails 0.6). No rout can shatter it (a score of
    // 1 or more; 4 hits and 4 rout hits are under 12 of 16).
    //   P(rout) = (0.3456 + 0.1536) x 0.3 + 0.0256 x 0.6 = 0.16512.
    // Tested volley by volley (`per_firer`), it tests only if one volley
    // hit twice (0.16 each): 1 - 0.84^2 = 0.2944; with one such volley (2
    // or 3 hits in all) -1 (fails 0.3); both, 4 hits: -2 -2 (fails 0.6):
    //   P(rout) = 2 x 0.16 x (0.36 + 0.48) x 0.3 + 0.0256 x 0.6 = 0.096.
    // One unit alone: tests on 2 hits (0.16), fails 0.3: 0.048.
    let pairs = [("first.figures", "8"), ("second.figures", "8"), ("target.figures", "16")];
    let dist = exact(build(&rules(), &pairs).as_ref());
    close(dist.probability("tested", 1), 0.5248);
    close(routed(&dist), 0.16512);
    close(dist.probability("outcome", 1), 0.5248 - 0.16512);
    close(dist.probability("hits", 4), 0.0256);
    let apart = Rules { converging_hits: ConvergingHits::PerFirer, ..rules() };
    let dist = exact(build(&apart, &pairs).as_ref());
    close(dist.probability("tested", 1), 0.2944);
    close(routed(&dist), 0.096);
    let mut alone = pairs.to_vec();
    alone.push(("units", "1"));
    let dist = exact(build(&rules(), &alone).as_ref());
    close(dist.probability("tested", 1), 0.16);
    close(routed(&dist), 0.048);
}

#[test]
fn converging_fire_agrees_with_monte_carlo() {
    // A battery's canister and a battalion's musketry on a column that has
    // lost a quarter already, shattering at 3/4 (5.3) within reach.
    let pairs = [
        ("first.weapon", "field_gun"),
        ("first.range", "canister"),
        ("first.guns", "4"),
        ("second.figures", "16"),
        ("target.figures", "12"),
        ("target.lost", "4"),
        ("target.quality", "e"),
    ];
    assert_agrees(build(&rules(), &pairs).as_ref(), 400_000, 61);
    let apart = Rules { converging_hits: ConvergingHits::PerFirer, ..rules() };
    assert_agrees(build(&apart, &pairs).as_ref(), 400_000, 62);
}
