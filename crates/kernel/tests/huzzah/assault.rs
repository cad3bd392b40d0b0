//! Assaults: a hand-worked first turn of orders, and the Markov solver against
//! Monte Carlo for infantry, cavalry and a battery with bombardments.

use super::assert_agrees;
use volley_kernel::catalogue;
use volley_kernel::game::{Decision, Objective, Plan, Played, Policy};
use volley_kernel::rulesets::huzzah::assault::{
    Assault, AssaultGame, AssaultUnit, BEST_TURN_LIMIT, DEFAULT_EDGE, Fire, Formation, Guns, Superiority,
};
use volley_kernel::rulesets::huzzah::{Arm, LeaveTable, Quality, Rules};
use volley_kernel::scenario::DynScenario;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

#[test]
fn cavalry_four_bands_out_needs_two_orders_or_a_huzzah_to_engage() {
    // Cavalry in line (moves 5, threatens 5) starts 4 bands from a line
    // (threatens 3): no threat test. First order: 8 + 1 in command = 9, so
    // 30/36; it stops on entering the zone, at 3. Second order: Down 1 in a
    // threat zone, Down 1 successive: 7, so 21/36, and it makes contact (the
    // line is within its threat zone). A Huzzah! first order (1/36) gives the
    // second move free. P(engaged on turn 1) = 1/36 + (29/36)(21/36) = 645/1296.
    let rules = Rules::default();
    let cavalry = AssaultUnit::new(Quality::Trained, Arm::Cavalry, Formation::Line);
    let line = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Line);
    let assault = Assault::new(&rules, cavalry, line, Guns::Medium, 0, 4, 1).unwrap();
    let exact = assault.exact_distribution().unwrap();
    assert!(close(exact.probability("engaged", 1), 645.0 / 1296.0));
    // Over three turns Monte Carlo agrees with the chain.
    assert_agrees(&Assault::new(&rules, cavalry, line, Guns::Medium, 0, 4, 3).unwrap(), 1_000_000, 61);
}

#[test]
fn a_column_assaulting_a_line_agrees_with_monte_carlo() {
    let rules = Rules::default();
    let column = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column);
    let mut line = AssaultUnit::new(Quality::Experienced, Arm::Infantry, Formation::Line);
    line.favourable = true;
    let assault = Assault::new(&rules, column, line, Guns::Medium, 0, 4, 3).unwrap();
    let exact = assault.exact_distribution().unwrap();
    // Experienced, favourably placed defenders should win most assaults.
    assert!(exact.probability("winner", 1) > exact.probability("winner", 0));
    assert_agrees(&assault, 1_000_000, 62);
}

#[test]
fn a_battery_bombards_an_advancing_column() {
    let rules = Rules::default();
    let column = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column);
    let battery = AssaultUnit::new(Quality::Trained, Arm::Artillery, Formation::Line);
    let with_guns = Assault::new(&rules, column, battery, Guns::Light, 2, 9, 2).unwrap();
    let silent = Assault::new(&rules, column, battery, Guns::Light, 0, 9, 2).unwrap();
    let (with_guns_exact, silent_exact) =
        (with_guns.exact_distribution().unwrap(), silent.exact_distribution().unwrap());
    // Bombardment can only hurt the attacker.
    assert!(
        with_guns_exact.mean("attacker_staggers") + with_guns_exact.mean("attacker_kills")
            > silent_exact.mean("attacker_staggers") + silent_exact.mean("attacker_kills")
    );
    assert!(with_guns_exact.probability("winner", 1) > silent_exact.probability("winner", 1));
    assert_agrees(&with_guns, 1_000_000, 63);
}

#[test]
fn cavalry_against_a_square() {
    let rules = Rules::default();
    let cavalry = AssaultUnit::new(Quality::Veteran, Arm::Cavalry, Formation::Column);
    let square = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Square);
    let line = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Line);
    let against_square = Assault::new(&rules, cavalry, square, Guns::Medium, 0, 6, 2).unwrap();
    let against_line = Assault::new(&rules, cavalry, line, Guns::Medium, 0, 6, 2).unwrap();
    // Disadvantaged against a square, and the square takes Up 2 against
    // cavalry threats: the square does better than the line.
    let square_wins = against_square.exact_distribution().unwrap().probability("winner", 1);
    let line_wins = against_line.exact_distribution().unwrap().probability("winner", 1);
    assert!(square_wins > line_wins, "square {square_wins} line {line_wins}");
    assert_agrees(&against_line, 1_000_000, 64);
}

#[test]
fn the_catalogue_builds_assaults_and_rejects_what_cannot_assault() {
    let huzzah = catalogue::ruleset("huzzah").unwrap();
    let rules = (huzzah.default_rules)();
    let entry = huzzah.scenario("assault").unwrap();
    let assault = entry
        .build_from_text(rules.as_ref(), [("attacker.quality", "veteran"), ("distance", "6"), ("turns", "2")])
        .unwrap();
    let exact = assault.exact_distribution().unwrap();
    let total: f64 = (0..3).map(|w| exact.probability("winner", w)).sum();
    // The solver drops states below 1e-15 (a mass far below 1e-9).
    assert!((total - 1.0).abs() < 1e-9);
    // Past the solver's turn limit the assault is sampled only.
    let past_limit = (BEST_TURN_LIMIT + 1).to_string();
    let long = entry.build_from_text(rules.as_ref(), [("turns", past_limit.as_str())]).unwrap();
    assert!(!long.has_exact() && long.exact_distribution().is_none());
    assert!(
        entry.build_from_text(rules.as_ref(), [("defender.arm", "artillery"), ("defender.routing", "true")]).is_err()
    );
    assert!(entry.build_from_text(rules.as_ref(), [("attacker.edge", "41")]).is_err());
    // "An individual unit attached to any officer is always in command": an
    // attached officer with the unit out of command is refused.
    for side in ["attacker", "defender"] {
        let (officer, in_command) = (format!("{side}.officer"), format!("{side}.in_command"));
        let refused = entry
            .build_from_text(rules.as_ref(), [(officer.as_str(), "attached"), (in_command.as_str(), "false")])
            .err()
            .expect("refused");
        assert!(refused.to_string().contains("in_command"), "{refused}");
        assert!(entry.build_from_text(rules.as_ref(), [(officer.as_str(), "inspirational")]).is_ok());
    }
    assert!(entry.build_from_text(rules.as_ref(), [("attacker.arm", "artillery")]).is_err());
    assert!(entry.build_from_text(rules.as_ref(), [("attacker.formation", "square")]).is_err());
    assert!(entry.build_from_text(rules.as_ref(), [("defender.arm", "cavalry")]).is_ok());
    assert!(
        entry.build_from_text(rules.as_ref(), [("defender.arm", "cavalry"), ("defender.formation", "square")]).is_err()
    );
    assert!(entry.build_from_text(rules.as_ref(), [("defender.arm", "artillery"), ("defender.guns", "light")]).is_ok());
}

#[test]
fn each_assault_rule_pushes_the_right_way() {
    // Switching a rule off must move the attacker's chances the way the rule
    // says: these catch a modifier applied with the wrong sign.
    let column = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column);
    let battery = AssaultUnit::new(Quality::Trained, Arm::Artillery, Formation::Line);
    let line = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Line);
    let attacker_wins = |rules: &Rules, defender: AssaultUnit, distance: i32| {
        Assault::new(rules, column, defender, Guns::Light, 2, distance, 2)
            .unwrap()
            .exact_distribution()
            .unwrap()
            .probability("winner", 0)
    };
    let rules = Rules::default();
    // Smoke on the guns helps the attacker's later threat tests.
    let no_smoke = Rules { threat_smoke_up: 0, ..Rules::default() };
    assert!(attacker_wins(&rules, battery, 9) > attacker_wins(&no_smoke, battery, 9));
    // Being bombarded in column hurts.
    let no_column_penalty = Rules { threat_bombarded_in_column_down: 0, ..Rules::default() };
    assert!(attacker_wins(&rules, battery, 9) < attacker_wins(&no_column_penalty, battery, 9));
    // A failed forced order (deploy to line) costs a stagger.
    let no_forced_stagger = Rules { forced_order_failure_staggers: 0, ..Rules::default() };
    assert!(attacker_wins(&rules, line, 3) < attacker_wins(&no_forced_stagger, line, 3));
    // Successive orders get harder.
    let no_successive = Rules { order_successive_down: 0, ..Rules::default() };
    assert!(attacker_wins(&rules, line, 6) < attacker_wins(&no_successive, line, 6));
}

#[test]
fn a_hand_worked_advance_through_a_bombardment() {
    // A Trained column 10 bands from light guns (short range 6), an Abysmal
    // officer (6) out of command, one bombardment, one turn. Order 1 at 6:
    // 15/36, of which 1/36 is a Huzzah!. It stops entering the guns' zone at
    // 6 bands and is bombarded (which cannot break it: at most 6 staggers).
    // Order 2: Down 1 in the zone, Down 1 successive, 4: 6/36, moving to 2
    // bands; a Huzzah! there (1/36) gives a free move into contact. Order 3
    // at 3 (3/36) makes contact, the guns being inside its threat zone. A
    // Huzzah! on order 1 spends its free move getting to 2 bands, no further.
    // P(engaged) = (14/36) (1/36 + (5/36)(3/36)) = 714/46656.
    let rules = Rules::default();
    let mut column = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column);
    column.rating = 6;
    column.in_command = false;
    let battery = AssaultUnit::new(Quality::Trained, Arm::Artillery, Formation::Line);
    let assault = Assault::new(&rules, column, battery, Guns::Light, 1, 10, 1).unwrap();
    let exact = assault.exact_distribution().unwrap();
    assert!(close(exact.probability("engaged", 1), 714.0 / 46656.0));
    // The bombardment at short range against a column is at Raw (6): it
    // leaves staggers only on 7 or more, so, with the battery holding its
    // fire for short range, no stagger at all has chance at least
    // (1 - 15/36) + (15/36)(15/36) before any later test.
    let holding = assault.clone().with_fire(Fire::Short);
    let exact = holding.exact_distribution().unwrap();
    assert!(exact.probability("attacker_staggers", 0) >= 21.0 / 36.0 + (15.0 / 36.0) * (15.0 / 36.0) - 1e-12);
    assert_agrees(&assault, 1_000_000, 65);
}

#[test]
fn a_battery_bombards_a_target_that_acts_on_no_order() {
    // "Artillery bombardment": a battery may bombard once in each of the
    // opponent's Orders phases, and again each time its target acts on
    // another order. The column of the test above, with 7 kills (one
    // stagger more breaks it), 10 bands from light guns with one
    // bombardment, one turn. Its first order (at 6: 15/36) takes it to 6
    // bands, short range, where the battery fires under either policy. When
    // that order fails (21/36) the column acts on no order, still 10 bands
    // out (long range): a battery firing `now` bombards it there, at
    // Trained Down 1 (kills) Down 1 (column), Raw (6), which any roll of 7
    // or more (21/36) breaks; one holding for `short` does not fire, and
    // nothing else can touch the column that turn. So firing `now` breaks
    // it (21/36)(21/36) = 441/1296 more often than holding. The old reading
    // fired only after an advance: no difference at all.
    let rules = Rules::default();
    let mut column = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column);
    (column.rating, column.in_command, column.kills) = (6, false, 7);
    let battery = AssaultUnit::new(Quality::Trained, Arm::Artillery, Formation::Line);
    let now = Assault::new(&rules, column, battery, Guns::Light, 1, 10, 1).unwrap();
    let short = now.clone().with_fire(Fire::Short);
    let (now_exact, short_exact) = (now.exact_distribution().unwrap(), short.exact_distribution().unwrap());
    let gap = now_exact.probability("winner", 1) - short_exact.probability("winner", 1);
    assert!(close(gap, 441.0 / 1296.0), "{gap}");
    // The catalogue's assault plays it on the decision model: a bold column
    // against a cautious battery (which holds fire beyond short range) is
    // the holding battery, against a bold one the battery firing `now`; a
    // battery at its best does at least as well as either (a little better:
    // 0.644342 against 0.644310, holding a chance where a later one is worth more).
    let huzzah = catalogue::ruleset("huzzah").unwrap();
    let defaults = (huzzah.default_rules)();
    let built = |policy: &str| {
        let built = huzzah
            .scenario("assault")
            .unwrap()
            .build_from_text(
                defaults.as_ref(),
                [
                    ("attacker.rating", "6"),
                    ("attacker.in_command", "false"),
                    ("attacker.kills", "7"),
                    ("defender.arm", "artillery"),
                    ("defender.guns", "light"),
                    ("defender.bombardments", "1"),
                    ("attacker.policy", "bold"),
                    ("defender.policy", policy),
                    ("distance", "10"),
                    ("turns", "1"),
                    // The old assault's fights end at the limit as draws.
                    ("purpose", "manoeuvre"),
                ],
            )
            .unwrap();
        let exact = built.exact_distribution().unwrap();
        exact.probability("winner", 1) - exact.probability("winner", 0)
    };
    let margin =
        |exact: &volley_kernel::outcome::Distribution| exact.probability("winner", 1) - exact.probability("winner", 0);
    assert!(close(built("cautious"), margin(&short_exact)));
    assert!(close(built("bold"), margin(&now_exact)));
    assert!(built("best") > margin(&now_exact) + 1e-6, "{}", built("best"));
    assert_agrees(&now, 1_000_000, 69);
}

#[test]
fn the_default_table_edge_is_16_bands_behind_each_unit() {
    // "The typical depth of a battlefield in Huzzah! is 40 bands", the units
    // 8 bands apart across its middle: 16 bands behind each. Both units
    // start routing 30 bands apart (no threat zones, no orders while the
    // defender routs): each rallies at Trained, Up 1 in command, Down 1
    // routing (8: 26/36) or routs 4 bands. The defender leaves the table
    // only by routing off it: without an engagement and without a stagger
    // (a unit broken by threats or casualties has staggers). With 16 bands
    // behind it, three turns of failed rallies (12 bands) cannot take it
    // off. With the old 8 it leaves on its third failure, (10/36)^3, unless
    // the attacker has left first, on its own third failure earlier that
    // turn: (10/36)^3 (1 - (10/36)^3).
    assert_eq!(DEFAULT_EDGE, 16);
    let rules = Rules::default();
    let mut column = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column);
    let mut line = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Line);
    (column.routing, line.routing) = (true, true);
    let routed_off = |column: AssaultUnit, line: AssaultUnit| {
        let exact = Assault::new(&rules, column, line, Guns::Medium, 0, 30, 3).unwrap().exact_distribution().unwrap();
        let index = |name: &str| exact.metric_index(name).unwrap();
        let (winner, engaged, staggers) = (index("winner"), index("engaged"), index("defender_staggers"));
        exact
            .joint
            .iter()
            .filter(|o| o.values[winner] == 0 && o.values[engaged] == 0 && o.values[staggers] == 0)
            .map(|o| o.probability)
            .sum::<f64>()
    };
    assert!(close(routed_off(column, line), 0.0));
    (column.edge, line.edge) = (8, 8);
    let third = (10.0f64 / 36.0).powi(3);
    assert!(close(routed_off(column, line), third * (1.0 - third)));
}

#[test]
fn the_rules_rally_example_a_routing_raw_cavalry_regiment() {
    // "Rally and reform", Example: Rally. A routing Raw cavalry regiment with
    // two kills and two staggers, in command: Raw Up 1 (in command), Down 1
    // (kills), Down 1 (routing) is Unreliable (5); out of command it stays
    // Unreliable. 5 or less (10/36) rallies it; a 4 removes one stagger and
    // it takes a compulsory kill; a 3 (or a Huzzah!) removes both. A failure
    // routs it 6 bands (cavalry march column) and, staggered, it takes a
    // kill. Ten bands out, nobody threatens anybody in the one turn.
    let rules = Rules::default();
    let mut cavalry = AssaultUnit::new(Quality::Raw, Arm::Cavalry, Formation::Line);
    (cavalry.staggers, cavalry.kills, cavalry.routing) = (2, 2, true);
    let line = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Line);
    for in_command in [true, false] {
        cavalry.in_command = in_command;
        let exact = Assault::new(&rules, cavalry, line, Guns::Medium, 0, 10, 1).unwrap().exact_distribution().unwrap();
        assert!(close(exact.probability("attacker_routing", 0), 10.0 / 36.0));
        assert!(close(exact.probability("attacker_staggers", 0), 3.0 / 36.0));
        assert!(close(exact.probability("attacker_staggers", 1), 3.0 / 36.0));
        assert!(close(exact.probability("attacker_staggers", 2), 30.0 / 36.0));
        assert!(close(exact.probability("attacker_kills", 3), 33.0 / 36.0));
        assert!(close(exact.probability("winner", 2), 1.0));
        assert!(close(exact.probability("engaged", 0), 1.0));
    }
    // With 5 bands behind it the failed rally's 6-band rout leaves the table:
    // broken. With 6 bands it ends at the edge: on the table unless
    // `leave_table = reaching`.
    cavalry.in_command = true;
    cavalry.edge = 5;
    let off = Assault::new(&rules, cavalry, line, Guns::Medium, 0, 10, 1).unwrap().exact_distribution().unwrap();
    assert!(close(off.probability("winner", 1), 26.0 / 36.0));
    assert!(close(off.probability("attacker_kills", 2), 26.0 / 36.0 + 3.0 / 36.0));
    cavalry.edge = 6;
    let at_edge = Assault::new(&rules, cavalry, line, Guns::Medium, 0, 10, 1).unwrap().exact_distribution().unwrap();
    assert!(close(at_edge.probability("winner", 1), 0.0));
    let reaching = Rules { leave_table: LeaveTable::Reaching, ..Rules::default() };
    let left = Assault::new(&reaching, cavalry, line, Guns::Medium, 0, 10, 1).unwrap().exact_distribution().unwrap();
    assert!(close(left.probability("winner", 1), 26.0 / 36.0));
    assert_agrees(&Assault::new(&rules, cavalry, line, Guns::Medium, 0, 10, 3).unwrap(), 1_000_000, 66);
}

#[test]
fn the_attacker_holds_while_the_defender_routs_and_the_defender_rallies_in_its_turn() {
    // A Trained line starts routing 6 bands from a Trained column (whose
    // threat zone is 3): the attacker gives no order while it routs, and no
    // one tests threats. In its Rally phase the line, Trained Down 1
    // (routing) Up 1 (in command), rallies on 8 or less (26/36); otherwise
    // it routs 4 bands (infantry march column), off the table when only 3
    // bands lie behind it.
    let rules = Rules::default();
    let column = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column);
    let mut line = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Line);
    line.routing = true;
    let exact = Assault::new(&rules, column, line, Guns::Medium, 0, 6, 1).unwrap().exact_distribution().unwrap();
    assert!(close(exact.probability("defender_routing", 0), 26.0 / 36.0));
    assert!(close(exact.probability("engaged", 0), 1.0));
    assert!(close(exact.probability("winner", 2), 1.0));
    // Without the routing Down 1 the line rallies as Experienced (9): 30/36.
    let no_routing_down = Rules { rally_routing_down: 0, ..Rules::default() };
    let easier =
        Assault::new(&no_routing_down, column, line, Guns::Medium, 0, 6, 1).unwrap().exact_distribution().unwrap();
    assert!(close(easier.probability("defender_routing", 0), 30.0 / 36.0));
    // On favourable ground it still rallies at Trained (26/36): a mob is
    // disadvantaged (playsheet: "Use disadvantaged rating ... if routing")
    // and "Only troops that are not disadvantaged can be in a favourable
    // position" (the old reading rallied it as Experienced, 30/36). Its
    // second try, off that ground, is at Trained too.
    line.favourable = true;
    let on_ground = Assault::new(&rules, column, line, Guns::Medium, 0, 6, 2).unwrap().exact_distribution().unwrap();
    // Never rallied in two turns: still routing, and (the attacker holding
    // while it routs) never engaged.
    let never = joint(&on_ground, &[("defender_routing", 1), ("engaged", 0)]);
    assert!(close(never, (10.0 / 36.0) * (10.0 / 36.0)));
    line.favourable = false;
    line.edge = 3;
    let off = Assault::new(&rules, column, line, Guns::Medium, 0, 6, 1).unwrap().exact_distribution().unwrap();
    assert!(close(off.probability("winner", 0), 10.0 / 36.0));
    // Once rallied, the assault goes on: the attacker advances again.
    line.edge = 8;
    let longer = Assault::new(&rules, column, line, Guns::Medium, 0, 6, 3).unwrap();
    assert!(longer.exact_distribution().unwrap().probability("engaged", 1) > 0.0);
    assert_agrees(&longer, 1_000_000, 67);
}

#[test]
fn routed_units_come_back_and_assaults_last_longer() {
    // A column against a line at 4 bands: a rout no longer ends the assault,
    // so by turn 2 some engagements have routed a unit that then rallied,
    // and some units have routed twice or left the table.
    let rules = Rules::default();
    let column = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column);
    let line = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Line);
    let assault = Assault::new(&rules, column, line, Guns::Medium, 0, 2, 3).unwrap();
    let exact = assault.exact_distribution().unwrap();
    assert!(exact.probability("defender_routing", 1) > 0.0 && exact.probability("attacker_routing", 1) > 0.0);
    assert!(exact.probability("winner", 2) > 0.1);
    assert_agrees(&assault, 1_000_000, 68);
}

#[test]
fn an_advancing_attacker_leaves_its_table_edge_behind() {
    // A column that starts at its table edge (edge 0) and advances 8 bands to
    // engage has 8 bands behind it by then: in the first turn a rout (4) and
    // a failed rally (4 more) cannot take it off the table, so its first turn
    // is the same as with 40 bands behind it. Over three turns it can leave.
    let rules = Rules::default();
    let mut column = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column);
    let line = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Line);
    let winner = |column: AssaultUnit, turns: u32| {
        let exact =
            Assault::new(&rules, column, line, Guns::Medium, 0, 8, turns).unwrap().exact_distribution().unwrap();
        [0, 1, 2].map(|w| exact.probability("winner", w))
    };
    column.edge = 0;
    let (at_edge, at_edge_later) = (winner(column, 1), winner(column, 3));
    column.edge = 40;
    let (far, far_later) = (winner(column, 1), winner(column, 3));
    assert!(at_edge.iter().zip(&far).all(|(a, b)| close(*a, *b)), "{at_edge:?} {far:?}");
    assert!(at_edge[1] > 0.0);
    assert!(at_edge_later[1] > far_later[1] + 1e-6, "{at_edge_later:?} {far_later:?}");
}

/// The chance that every named metric takes its value at once.
fn joint(exact: &volley_kernel::outcome::Distribution, values: &[(&str, i64)]) -> f64 {
    let wanted: Vec<(usize, i64)> = values.iter().map(|&(name, v)| (exact.metric_index(name).unwrap(), v)).collect();
    exact.joint.iter().filter(|o| wanted.iter().all(|&(i, v)| o.values[i] == v)).map(|o| o.probability).sum()
}

/// A fingerprint of a whole joint distribution: the chance of each outcome
/// weighted by a pseudo-random number in [0, 1) drawn from its values (a
/// SplitMix64 chain), so that any outcome's chance moving moves it.
fn fingerprint(exact: &volley_kernel::outcome::Distribution) -> f64 {
    let mix = |mut z: u64| {
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    exact
        .joint
        .iter()
        .map(|o| {
            let weight = o.values.iter().fold(0x9E37_79B9_7F4A_7C15, |h: u64, &v| mix(h ^ v as u64));
            (weight >> 11) as f64 / (1u64 << 53) as f64 * o.probability
        })
        .sum()
}

#[test]
fn the_exact_solver_keeps_its_distributions() {
    // Regression pins, computed by the solver as it stood at accfcb7 (before
    // its states were packed into two words) and taken again after issue 14's
    // readings (deploy threat tests, the battery's chances to fire, cavalry
    // out of control, the 16-band table edge) and once more when the state
    // dropped its rout counts (more states merge, so fewer fall below the
    // solver's 1e-15: the winners moved by about 1e-11): the chances of
    // each winner, the mean turn it ended, the chance the defender ends
    // routing and the fingerprint of the whole joint distribution (every
    // outcome's chance),
    // for the default assault, cavalry against a square and a column against
    // a battery. A faster solver must merge and prune the very same states:
    // only the order of the sums may differ (far below 1e-12).
    let rules = Rules::default();
    let column = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column);
    let line = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Line);
    let cavalry = AssaultUnit::new(Quality::Veteran, Arm::Cavalry, Formation::Column);
    let square = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Square);
    let battery = AssaultUnit::new(Quality::Trained, Arm::Artillery, Formation::Line);
    let cases = [
        (
            Assault::new(&rules, column, line, Guns::Medium, 3, 8, 5).unwrap(),
            [0.23571338211338735, 0.2493666243426892, 0.5149199935225942],
            [4.4125921771427725, 0.08657128397154752, 0.5111006208877361],
            23608,
        ),
        (
            Assault::new(&rules, cavalry, square, Guns::Medium, 0, 6, 5).unwrap(),
            [0.24823953943602808, 0.07683044911244974, 0.6749300114430843],
            [4.528153204655578, 0.15888891996615132, 0.5121157841445911],
            32084,
        ),
        (
            Assault::new(&rules, column, battery, Guns::Medium, 3, 8, 6).unwrap(),
            [0.2703226518884369, 0.692917108756944, 0.0367602393266244],
            [2.6926018255534614, 0.0, 0.5152885434415809],
            31652,
        ),
    ];
    for (assault, winners, [turns, defender_routing, print], outcomes) in cases {
        let exact = assault.exact_distribution().unwrap();
        for (winner, expected) in winners.into_iter().enumerate() {
            let got = exact.probability("winner", winner as i64);
            assert!(close(got, expected), "winner {winner}: {got} against {expected}");
        }
        assert!(close(exact.mean("turns"), turns), "{} against {turns}", exact.mean("turns"));
        assert!(close(exact.mean("defender_routing"), defender_routing));
        assert!(close(fingerprint(&exact), print), "{} against {print}", fingerprint(&exact));
        assert_eq!(exact.joint.len(), outcomes);
    }
}

#[test]
fn the_exact_solver_gives_the_same_bits_on_any_number_of_threads() {
    // The solver expands states in parallel but merges them in a fixed
    // order: one thread and three give the very same outcomes, chances and
    // order, to the bit.
    let rules = Rules::default();
    let column = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column);
    let line = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Line);
    let assault = Assault::new(&rules, column, line, Guns::Medium, 0, 8, 4).unwrap();
    let on = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| volley_kernel::scenario::Scenario::exact(&assault).unwrap())
    };
    let (one, three) = (on(1), on(3));
    assert!(one.len() > 10_000, "{} outcomes", one.len());
    assert!(
        one.iter().zip(&three).all(|(a, b)| a.0 == b.0 && a.1.to_bits() == b.1.to_bits()) && one.len() == three.len()
    );
}

#[test]
fn a_column_advancing_on_cavalry_takes_down_2_on_each_advance_order() {
    // "Down 2 if infantry ordered to advance on cavalry" (within the
    // cavalry's threat zone, or with the cavalry within the infantry's move
    // plus threat zone: 4 + 3 = 7 bands for a column). A Trained column 7
    // bands from Trained cavalry in line (threat zone 5), an average officer
    // (8, Up 1 in command). Order 1 at 8 + 1 - 2 = 7 (21/36) stops it on
    // entering the zone, at 5; order 2 at 7 - 1 in the zone - 1 successive
    // = 5 (10/36) takes it to 1 band (from 5 it may not engage: outside its
    // own 3-band zone and not within 1 band); order 3 at 4 (6/36) makes
    // contact. A Huzzah! on order 1 (1/36) gives a free move to 1 band and no
    // more orders; a Huzzah! on order 2 a free move into contact.
    // P(engaged in turn 1) = (20/36)(1/36 + (9/36)(6/36)) = 1800/46656.
    // Without the Down 2 (ratings 9, 7, 6) it was (29/36)(1/36 + (20/36)(15/36))
    // = 9744/46656.
    let rules = Rules::default();
    let column = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column);
    let cavalry = AssaultUnit::new(Quality::Trained, Arm::Cavalry, Formation::Line);
    let assault = Assault::new(&rules, column, cavalry, Guns::Medium, 0, 7, 1).unwrap();
    let exact = assault.exact_distribution().unwrap();
    assert!(close(exact.probability("engaged", 1), 1800.0 / 46656.0), "{}", exact.probability("engaged", 1));
}

#[test]
fn cavalry_defenders_agree_with_monte_carlo() {
    // Infantry and cavalry assaulting cavalry over four turns: blown
    // defenders, recalls, defending cavalry out of control engaging in its
    // own turn, forced squares; the sampler and the solver run the same steps.
    let rules = Rules::default();
    let cavalry = AssaultUnit::new(Quality::Trained, Arm::Cavalry, Formation::Line);
    let column = AssaultUnit::new(Quality::Experienced, Arm::Infantry, Formation::Column);
    let mut battle = AssaultUnit::new(Quality::Trained, Arm::Cavalry, Formation::Column);
    battle.cavalry = volley_kernel::rulesets::huzzah::CavalryKind::Battle;
    for (attacker, seed) in [(column, 65), (battle, 66)] {
        let assault = Assault::new(&rules, attacker, cavalry, Guns::Medium, 0, 6, 4).unwrap();
        let exact = assault.exact_distribution().unwrap();
        let total: f64 = (0..3).map(|w| exact.probability("winner", w)).sum();
        assert!((total - 1.0).abs() < 1e-9);
        assert!(exact.probability("engaged", 1) > 0.1);
        assert_agrees(&assault, 1_000_000, seed);
    }
}

#[test]
fn a_lone_unit_is_isolated_and_its_brigade_checks_after_a_rout() {
    // A lone unit (`brigade = 1`) is isolated: "A unit is also isolated if
    // it is the only unit in a command" ("Orders and movement"), Down 1 on
    // its orders ("Down 1 if isolated sub-command"). The cavalry of
    // cavalry_four_bands_out_... (first order at 9, second at 7: 645/1296)
    // orders at 8 and 6: P(engaged in turn 1) = 1/36 + (25/36)(15/36) =
    // 411/1296.
    let rules = Rules::default();
    let mut cavalry = AssaultUnit::new(Quality::Trained, Arm::Cavalry, Formation::Line);
    cavalry.brigade = 1;
    let line = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Line);
    let assault = Assault::new(&rules, cavalry, line, Guns::Medium, 0, 4, 1).unwrap();
    let exact = assault.exact_distribution().unwrap();
    assert!(close(exact.probability("engaged", 1), 411.0 / 1296.0), "{}", exact.probability("engaged", 1));
    // Brigades on both sides over three turns: routs bring checks, failed
    // checks staggers, retirements and checks again; Monte Carlo agrees.
    let mut column = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column);
    column.brigade = 2;
    let mut defender = line;
    (defender.brigade, defender.brigade_lost) = (3, 1);
    let with_checks = Assault::new(&rules, column, defender, Guns::Medium, 0, 4, 3).unwrap();
    let (column, line) = (
        AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column),
        AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Line),
    );
    let without = Assault::new(&rules, column, line, Guns::Medium, 0, 4, 3).unwrap();
    let (checked, unchecked) = (with_checks.exact_distribution().unwrap(), without.exact_distribution().unwrap());
    // The checks only add staggers and retirements: more units break.
    let decided = |d: &volley_kernel::outcome::Distribution| d.probability("winner", 0) + d.probability("winner", 1);
    assert!(decided(&checked) > decided(&unchecked));
    assert_agrees(&with_checks, 1_000_000, 67);
    // The catalogue's keys: a brigade with more lost than it has, brigade
    // keys without a brigade, and a battery's brigade are refused.
    let huzzah = catalogue::ruleset("huzzah").unwrap();
    let rules = (huzzah.default_rules)();
    let entry = huzzah.scenario("assault").unwrap();
    let build = |keys: &[(&str, &str)]| entry.build_from_text(rules.as_ref(), keys.iter().copied());
    assert!(build(&[("attacker.brigade", "2"), ("attacker.brigade_lost", "1")]).is_ok());
    assert!(build(&[("attacker.brigade", "2"), ("attacker.brigade_lost", "2")]).is_err());
    assert!(build(&[("defender.last_check", "failed")]).is_err());
    assert!(build(&[("defender.arm", "artillery"), ("defender.brigade", "2")]).is_err());
}

#[test]
fn skirmisher_superiority_lets_a_column_engage_a_battery_from_four_bands() {
    // A Trained column 4 bands from a Trained battery with no bombardments
    // (inside its 7-band inherent zone). Its threat test (Trained Down 1
    // short range, Down 1 in column: Raw 6) cannot break it or force an
    // order, so only the orders decide whether it engages in turn 1: each at
    // 8 + 1 in command - 1 in the battery's zone = 8 (26/36), then 7.
    // Without superiority its first order stops it 1 band short ("A unit
    // cannot advance to engage an enemy that is outside its threat zone
    // unless that enemy is within 5cm": 4 bands is outside its 3-band zone),
    // and it engages on a second order or a Huzzah!'s free one:
    // 1/36 + (25/36)(21/36) = 561/1296. With its side's skirmishers superior
    // its zone is 4 bands, so the first order makes contact: 26/36 = 936/1296.
    let rules = Rules::default();
    let column = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column);
    let battery = AssaultUnit::new(Quality::Trained, Arm::Artillery, Formation::Line);
    let plain = Assault::new(&rules, column, battery, Guns::Medium, 0, 4, 1).unwrap();
    let superior = plain.clone().with_superiority(Superiority::Attacker);
    let engaged = |a: &Assault| a.exact_distribution().unwrap().probability("engaged", 1);
    assert!(close(engaged(&plain), 561.0 / 1296.0), "{}", engaged(&plain));
    assert!(close(engaged(&superior), 936.0 / 1296.0), "{}", engaged(&superior));
    // The catalogue's `skirmish` key plays the same on the decision model,
    // and Monte Carlo agrees with the solver over three turns.
    let huzzah = catalogue::ruleset("huzzah").unwrap();
    let book = (huzzah.default_rules)();
    let entry = huzzah.scenario("assault").unwrap();
    let keys = |skirmish: &'static str, turns: &'static str| {
        [
            ("distance", "4"),
            ("turns", turns),
            ("skirmish", skirmish),
            ("defender.arm", "artillery"),
            ("defender.bombardments", "0"),
            ("attacker.policy", "bold"),
        ]
    };
    let played = entry.build_from_text(book.as_ref(), keys("attacker", "1")).unwrap();
    assert!(close(played.exact_distribution().unwrap().probability("engaged", 1), 936.0 / 1296.0));
    let three = entry.build_from_text(book.as_ref(), keys("defender", "3")).unwrap();
    assert_agrees(three.as_ref(), 300_000, 69);
    assert_agrees(&superior, 1_000_000, 68);
}

/// Every path of one turn of a game, its decisions made by a script: each
/// run replays the chances of the path before it up to the last that has a
/// branch left, takes that branch, and goes on down the first branch of
/// every new chance (the kernel's enumeration, without its solver), so that
/// the paths' probabilities sum to 1.
mod scripted {
    use volley_kernel::dice::Dice;
    use volley_kernel::game::{Decision, Fate, Game, Law, Policy};

    /// What happened on one path, in order.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum Event {
        /// A side's decision and the option taken, in the game's words.
        Decided(&'static str, String),
        /// A roll of the dice.
        Rolled,
    }

    /// One path: its winner (`None`: still going at the end of the turn),
    /// its probability and its events.
    pub struct Path {
        pub winner: Option<volley_kernel::game::End>,
        pub probability: f64,
        pub events: Vec<Event>,
    }

    struct Replay<'a> {
        /// The branch taken and the branches there are, for each chance met.
        path: Vec<(usize, usize)>,
        depth: usize,
        probability: f64,
        events: Vec<Event>,
        /// The option of a decision in words.
        words: &'a dyn Fn(&'static Decision, u16) -> String,
        /// The script: the option's words for this decision, given the
        /// decisions of the same name taken before it on the path.
        script: &'a dyn Fn(&'static Decision, usize) -> &'static str,
    }

    impl Replay<'_> {
        /// The branch to take among chances `probabilities`.
        fn branch(&mut self, probabilities: &[f64]) -> usize {
            if self.depth == self.path.len() {
                self.path.push((0, probabilities.len()));
            }
            let chosen = self.path[self.depth].0;
            self.depth += 1;
            self.probability *= probabilities[chosen];
            self.events.push(Event::Rolled);
            chosen
        }
    }

    impl Fate for Replay<'_> {
        fn die(&mut self, sides: u32) -> u32 {
            self.branch(&vec![1.0 / f64::from(sides); sides as usize]) as u32 + 1
        }

        fn ways(&mut self, ways: u32, of: u32) -> bool {
            if ways == 0 || ways >= of {
                return ways > 0;
            }
            let p = f64::from(ways) / f64::from(of);
            self.branch(&[p, 1.0 - p]) == 0
        }

        fn draw<L: Law + ?Sized>(&mut self, law: &L) -> u32 {
            let outcomes = law.outcomes();
            let probabilities: Vec<f64> = outcomes.iter().map(|o| o.1).collect();
            outcomes[self.branch(&probabilities)].0
        }

        fn draw_grouped<T: Clone + 'static>(
            &mut self,
            _sample: impl FnOnce(&mut Dice) -> T,
            law: impl FnOnce() -> Vec<(T, f64)>,
        ) -> T {
            let law = law();
            let probabilities: Vec<f64> = law.iter().map(|o| o.1).collect();
            law[self.branch(&probabilities)].0.clone()
        }

        fn decide(
            &mut self,
            _side: u8,
            decision: &'static Decision,
            options: &[u16],
            _heuristic: &dyn Fn(Policy) -> u16,
        ) -> u16 {
            let before =
                self.events.iter().filter(|e| matches!(e, Event::Decided(name, _) if *name == decision.name)).count();
            let wanted = (self.script)(decision, before);
            let option = *options
                .iter()
                .find(|&&o| (self.words)(decision, o) == wanted)
                .unwrap_or_else(|| panic!("`{}` offers no `{wanted}`", decision.name));
            self.events.push(Event::Decided(decision.name, wanted.to_string()));
            option
        }
    }

    /// Every path of `game`'s first turn under `script`.
    pub fn first_turn<G: Game>(game: &G, script: &dyn Fn(&'static Decision, usize) -> &'static str) -> Vec<Path> {
        let words = |decision: &'static Decision, option: u16| game.describe_option(decision, option);
        let mut paths = Vec::new();
        let mut path: Vec<(usize, usize)> = Vec::new();
        loop {
            let mut replay = Replay { path, depth: 0, probability: 1.0, events: Vec::new(), words: &words, script };
            let mut standing = game.start();
            let winner = loop {
                if let Some(winner) = game.step(&mut standing, &mut replay) {
                    break Some(winner);
                }
                if game.starts_turn(&standing) {
                    break None;
                }
            };
            paths.push(Path { winner, probability: replay.probability, events: replay.events });
            // The next path: the deepest chance with a branch left takes it.
            path = replay.path;
            path.truncate(replay.depth);
            while let Some(last) = path.last_mut() {
                if last.0 + 1 < last.1 {
                    last.0 += 1;
                    break;
                }
                path.pop();
            }
            if path.is_empty() {
                return paths;
            }
        }
    }
}

#[test]
fn a_battery_bombards_again_after_the_attacker_deploys() {
    // "Artillery bombardment": "Once a battery has bombarded, it cannot
    // bombard the same target again during the same turn unless that target
    // acts on another order"; "a unit that is changing formation can be
    // fired on". A deploy is an order: the battery has a chance to bombard
    // once it is carried out (after the deploy's threat test, "Deploying"),
    // and another after each later order the column acts on.
    //
    // The catalogue's assault (on the decision model), one turn: a Trained
    // column with 7 kills (one stagger more breaks it) 12 bands from light
    // guns (short range 6, long 7-12) with two bombardments, its officer
    // rated 8 and in command. The column deploys to line, then advances one
    // move, then halts; the battery fires at every chance. Order ratings: 8
    // Up 1 in command, 9, for the deploy (30/36, a Huzzah! among them: 1/36);
    // 8 for the advance (Down 1 successive: 26/36). Outside the guns' short
    // range there are no threat tests but bombardments, and no stagger is
    // survived. Bombarded at long range: Trained Down 1 (kills) is Green (7)
    // for a line, Down 1 more in column, Raw (6); Up 1 once smoke is on the
    // guns (after their first bombardment).
    // - The deploy fails (6/36): no more orders; the battery fires at the
    //   column at the end of the orders, at 6: broken on 7 or more (21/36).
    // - It succeeds without a Huzzah! (29/36): the battery fires on the line
    //   at 7 (broken on 8 or more: 15/36). The advance (26/36) takes it 3
    //   bands, to 9 bands, still long range, and the battery fires again,
    //   at 8 with its smoke (broken on 9 or more: 10/36). A failed advance
    //   is no order acted on: the battery, having fired, cannot fire again.
    // - A Huzzah! deploy (1/36) makes the advance a free order: 15/36, then
    //   (21/36)(10/36).
    // P(broken) = (6/36)(21/36) + (29/36)(15/36 + (21/36)(26/36)(10/36))
    //           + (1/36)(15/36 + (21/36)(10/36)) = 912396/1679616 (0.543).
    // Were there no chance after the deploy, the battery would fire only
    // after the advance or, the advance failing, at the end of the orders,
    // once, at 7: (6/36)(21/36) + (30/36)(15/36) = 576/1296 (0.444).
    //
    // The forced deploy (a column failing a threat test against a line)
    // takes the same phases after the deploy, but cannot face a battery in
    // this scenario: forced orders come only from tests against infantry
    // in line or cavalry ("Forced orders"), and the defender is one unit.
    let rules = Rules::default();
    let mut column = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column);
    column.kills = 7;
    let battery = AssaultUnit::new(Quality::Trained, Arm::Artillery, Formation::Line);
    let assault = Assault::new(&rules, column, battery, Guns::Light, 2, 12, 1).unwrap();
    // The catalogue builds the same assault from its keys.
    let huzzah = catalogue::ruleset("huzzah").unwrap();
    let keys = [
        ("attacker.kills", "7"),
        ("defender.arm", "artillery"),
        ("defender.guns", "light"),
        ("defender.bombardments", "2"),
        ("distance", "12"),
        ("turns", "1"),
        ("attacker.policy", "bold"),
        ("defender.policy", "bold"),
        // `AssaultGame::new` is the manoeuvring fight.
        ("purpose", "manoeuvre"),
    ];
    let built = huzzah.scenario("assault").unwrap().build_from_text((huzzah.default_rules)().as_ref(), keys).unwrap();
    let bold = AssaultGame::new(assault.clone());
    assert_eq!(
        built.exact_distribution().unwrap(),
        Played::new(bold, Plan { policy: [Policy::Bold; 2], objective: [Objective::Margin; 2] })
            .exact_distribution()
            .unwrap()
    );
    let game = AssaultGame::new(assault);
    let script = |decision: &'static Decision, before: usize| match (decision.name, before) {
        ("advance", 0) => "deploy to line",
        ("advance", 1) => "advance one move",
        ("advance", _) => "halt",
        _ => "fire",
    };
    let paths = scripted::first_turn(&game, &script);
    let total: f64 = paths.iter().map(|p| p.probability).sum();
    assert!(close(total, 1.0), "{total}");
    let broken: f64 =
        paths.iter().filter(|p| p.winner == Some(volley_kernel::game::End::Defender)).map(|p| p.probability).sum();
    assert!(close(broken, 912_396.0 / 1_679_616.0), "{broken}");
    // On every path where the column got to its second order, the battery
    // was asked to fire between the deploy and that order.
    use scripted::Event;
    let deployed = Event::Decided("advance", "deploy to line".into());
    let advanced = Event::Decided("advance", "advance one move".into());
    let fired = Event::Decided("bombard", "fire".into());
    let mut second_orders = 0.0;
    for path in &paths {
        if let Some(at) = path.events.iter().position(|e| *e == advanced) {
            let deploy = path.events.iter().position(|e| *e == deployed).unwrap();
            assert!(path.events[deploy..at].contains(&fired), "{:?}", path.events);
            second_orders += path.probability;
        }
    }
    // The second order is reached unless the deploy fails or the battery's
    // first bombardment breaks the line: (30/36)(21/36).
    assert!(close(second_orders, (30.0 / 36.0) * (21.0 / 36.0)), "{second_orders}");
}
