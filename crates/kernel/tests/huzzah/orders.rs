//! "Orders and movement": chains of successive orders to one unit, the
//! Huzzah!'s free order, and a side's Orders phase ended by the CinC.

use volley_kernel::catalogue::ruleset;
use volley_kernel::check::assert_agrees;
use volley_kernel::outcome::Distribution;
use volley_kernel::scenario::DynScenario;

fn scenario(name: &str, pairs: &[(&str, &str)]) -> Box<dyn DynScenario> {
    let entry = ruleset("huzzah").unwrap();
    let rules = (entry.default_rules)();
    {
        let entry = entry.scenario(name).unwrap();
        entry.build_from_text(rules.as_ref(), crate::manoeuvring(entry, pairs))
    }
    .unwrap()
}

fn exact(name: &str, pairs: &[(&str, &str)]) -> Distribution {
    scenario(name, pairs).exact_distribution().unwrap()
}

fn close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-12, "{a} != {b}");
}

/// The categories of `ended`.
const COMPLETED: i64 = 0;
const FAILED: i64 = 1;
const NO_ROLL: i64 = 2;
const HUZZAH_ORDER: i64 = 3;

#[test]
fn three_orders_from_an_average_officer() {
    // Average (8), Down 1 per successive order: ratings 8, 7, 6, passing on
    // 26, 21 and 15 of 36 (one of each a Huzzah!, double one).
    let d = exact("order_chain", &[]);
    // Taking the free order: a Huzzah! on the first order gives the second
    // and stops (orders 2, huzzah_order); on the second it gives the third.
    // completed = 25/36 (1/36 + 20/36 * 15/36) = 8400/46656.
    close(d.probability("completed", 1), 8400.0 / 46656.0);
    close(d.probability("ended", COMPLETED), 8400.0 / 46656.0);
    close(d.probability("ended", HUZZAH_ORDER), 1.0 / 36.0);
    close(d.probability("orders", 0), 10.0 / 36.0);
    // Two orders: the Huzzah! order, or passing twice (no Huzzah! on the
    // second) and failing the third: 1/36 + 25/36 * 20/36 * 21/36.
    close(d.probability("orders", 2), 11796.0 / 46656.0);
    // Forgoing the Huzzah! order a Huzzah! is just a pass: 26 * 21 * 15 / 36^3.
    let forgo = exact("order_chain", &[("huzzah_order", "forgo")]);
    close(forgo.probability("completed", 1), 8190.0 / 46656.0);
    close(forgo.probability("ended", HUZZAH_ORDER), 0.0);
    // Here one sure order beats rolling on (expected 0.84 and 0.42 orders),
    // so the best policy is to take it.
    let best = exact("order_chain", &[("huzzah_order", "best")]);
    close(best.probability("completed", 1), 8400.0 / 46656.0);
    assert_agrees(scenario("order_chain", &[]).as_ref(), 1_000_000, 31);
}

#[test]
fn an_excellent_officer_does_better_rolling_on_than_taking_the_free_order() {
    // Excellent (10), four orders: 10, 9, 8, 7, passing on 33, 30, 26, 21.
    // Rolling on from the third order is worth 25/36 (1 + 21/36) + 2/36 =
    // 1.155 expected orders, more than the one sure free order, so `best`
    // forgoes a Huzzah! on the first two orders and takes it on the third,
    // where it completes the chain:
    // completed = 33/36 * 30/36 * (1/36 + 25/36 * 21/36) = 555390 / 36^4.
    let keys = [("rating", "10"), ("orders", "4"), ("huzzah_order", "best")];
    let best = exact("order_chain", &keys);
    close(best.probability("completed", 1), 555_390.0 / 1_679_616.0);
    close(best.probability("ended", HUZZAH_ORDER), 0.0);
    let take = exact("order_chain", &[("rating", "10"), ("orders", "4")]);
    let forgo = exact("order_chain", &[("rating", "10"), ("orders", "4"), ("huzzah_order", "forgo")]);
    assert!(take.probability("ended", HUZZAH_ORDER) > 0.0);
    // Best maximises the expected orders carried out.
    assert!(best.mean("orders") >= take.mean("orders") + 1e-3, "{} {}", best.mean("orders"), take.mean("orders"));
    assert!(best.mean("orders") >= forgo.mean("orders") - 1e-12);
    assert_agrees(scenario("order_chain", &keys).as_ref(), 1_000_000, 32);
}

#[test]
fn no_order_is_rolled_at_an_effective_rating_of_one() {
    // Abysmal (6) with three Downs: ratings 3, 2, 1. At 3 totals 2-3 pass
    // (3/36), at 2 only double one; at 1 no order can be issued.
    let forgo = exact("order_chain", &[("rating", "6"), ("shifts", "-3"), ("huzzah_order", "forgo")]);
    // Forgoing the free order after the second order's Huzzah! leaves the
    // third unrollable: 3/36 * 1/36.
    close(forgo.probability("ended", NO_ROLL), 3.0 / 1296.0);
    close(forgo.probability("completed", 1), 0.0);
    // Taking it carries out the third order whatever the rating: the second
    // order passes only on a Huzzah!, so completed = 3/36 * 1/36 (the first
    // order's Huzzah! gives the second and stops there instead: 1/36 of
    // which completes nothing). First-order Huzzah!: orders 2, huzzah_order.
    let take = exact("order_chain", &[("rating", "6"), ("shifts", "-3")]);
    close(take.probability("completed", 1), 2.0 / 1296.0);
    close(take.probability("ended", HUZZAH_ORDER), 1.0 / 36.0);
    close(take.probability("ended", NO_ROLL), 0.0);
    close(take.probability("ended", FAILED), 1.0 - 2.0 / 1296.0 - 1.0 / 36.0);
}

#[test]
fn each_listed_modifier_moves_the_rating() {
    // One order: each modifier alone changes the chance of passing from
    // Average's 26/36 to 21/36 (Down 1), 15/36 (Down 2) or 30/36 (Up 1).
    let pass = |keys: &[(&str, &str)]| {
        let mut all = vec![("orders", "1")];
        all.extend_from_slice(keys);
        exact("order_chain", &all).probability("completed", 1)
    };
    close(pass(&[]), 26.0 / 36.0);
    for down in [("threat_zone", "true"), ("broken", "1"), ("isolated", "true"), ("dense", "true")] {
        close(pass(&[down]), 21.0 / 36.0);
    }
    close(pass(&[("failed_last_check", "true")]), 21.0 / 36.0);
    close(pass(&[("failed_last_check", "true"), ("order", "retire")]), 26.0 / 36.0);
    close(pass(&[("infantry_on_cavalry", "true")]), 15.0 / 36.0);
    close(pass(&[("inspirational", "true")]), 30.0 / 36.0);
    close(pass(&[("inspirational", "true"), ("order", "deploy")]), 26.0 / 36.0);
    close(pass(&[("in_command", "true"), ("attached", "true")]), 33.0 / 36.0);
    close(pass(&[("broken", "2")]), 15.0 / 36.0);
    // The CinC: two higher than Average, 10.
    close(pass(&[("cinc", "true")]), 33.0 / 36.0);
    // Scaling a game: Down 2 per successive advance, so the second order is
    // at 6 (15/36) rather than 7; a manoeuvre stays at Down 1.
    let second = |keys: &[(&str, &str)]| {
        let mut all = vec![("orders", "2"), ("huzzah_order", "forgo")];
        all.extend_from_slice(keys);
        exact("order_chain", &all).probability("completed", 1)
    };
    close(second(&[("scaled", "true")]), 26.0 * 15.0 / 1296.0);
    close(second(&[("scaled", "true"), ("order", "manoeuvre")]), 26.0 * 21.0 / 1296.0);
    close(second(&[]), 26.0 * 21.0 / 1296.0);
    let entry = ruleset("huzzah").unwrap();
    let rules = (entry.default_rules)();
    let refused = entry
        .scenario("order_chain")
        .unwrap()
        .build_from_text(rules.as_ref(), [("infantry_on_cavalry", "true"), ("order", "retire")])
        .err()
        .expect("refused");
    assert!(refused.to_string().contains("infantry_on_cavalry"), "{refused}");
}

#[test]
fn a_cinc_who_fails_first_ends_the_phase() {
    // Three Average brigade officers, one order each (26/36); the CinC
    // (Average, so 10) attached to a unit (Up 1: 11, so only 11-12 fail,
    // 3/36). Going first, his failure ends the phase for all three.
    let first = exact("orders_phase", &[]);
    close(first.probability("cut_short", 1), 3.0 / 36.0);
    close(first.probability("commands_completed", 3), 33.0 / 36.0 * (26.0f64 / 36.0).powi(3));
    close(first.probability("cinc_completed", 1), 33.0 / 36.0);
    let last = exact("orders_phase", &[("cinc_goes", "last")]);
    close(last.probability("cut_short", 1), 0.0);
    close(last.probability("commands_completed", 3), (26.0f64 / 36.0).powi(3));
    // Going first costs each command 3/36 of its 26/36.
    close(last.mean("commands_completed") - first.mean("commands_completed"), 3.0 * 26.0 / 36.0 * 3.0 / 36.0);
    close(first.mean("orders"), last.mean("orders") - 3.0 * 26.0 / 36.0 * 3.0 / 36.0);
    // Without the CinC, the commands alone.
    let alone = exact("orders_phase", &[("cinc_orders", "0")]);
    close(alone.probability("commands_completed", 3), (26.0f64 / 36.0).powi(3));
    assert_agrees(scenario("orders_phase", &[]).as_ref(), 1_000_000, 33);
    let busy = [("orders", "2"), ("cinc_orders", "3"), ("cinc_attached", "false"), ("huzzah_order", "best")];
    assert_agrees(scenario("orders_phase", &busy).as_ref(), 1_000_000, 34);
}

#[test]
fn an_attached_officer_always_has_his_unit_in_command() {
    // "Command radius": "An individual unit attached to any officer is always
    // in command". The CinC (rated 8, so 10) attached to the unit he orders
    // three times: Up 1 attached and Up 1 in command, 12, 11 and 10, each
    // failing only on 11-12 (33/36). With the free order taken, a Huzzah! on
    // the first order gives two orders and ends the chain short of three;
    // one on the second gives the third free. P(all three) =
    // (32/36) ((32/36)(33/36) + 1/36) = 32 * 1092 / 46656, about 74.9%
    // (without the in-command Up, 11, 10 and 9: about 68.3%).
    let phase = exact("orders_phase", &[("cinc_orders", "3")]);
    close(phase.probability("cinc_completed", 1), 32.0 * (32.0 * 33.0 + 36.0) / 46656.0);
    // A chain with its officer attached but the unit out of command
    // contradicts the rule, and is refused; in command, it is accepted.
    let entry = ruleset("huzzah").unwrap();
    let rules = (entry.default_rules)();
    for name in ["order_chain", "orders_phase"] {
        let scenario = entry.scenario(name).unwrap();
        let refused = scenario.build_from_text(rules.as_ref(), [("attached", "true")]).err().expect("refused");
        assert!(refused.to_string().contains("in_command"), "{refused}");
        assert!(scenario.build_from_text(rules.as_ref(), [("attached", "true"), ("in_command", "true")]).is_ok());
    }
}
