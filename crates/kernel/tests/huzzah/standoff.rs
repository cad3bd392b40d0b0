//! Standoffs: threat tests, reform and compulsory casualties turn by turn;
//! the rules' rally example, a hand-worked first turn, and Markov against
//! Monte Carlo.

use super::assert_agrees;
use volley_kernel::catalogue;
use volley_kernel::rulesets::huzzah::standoff::{Stand, Standoff, staggers_after_reform, threat_staggers};
use volley_kernel::rulesets::huzzah::{HuzzahThreatChain, Officer, Quality, Rules, remaining_percent};
use volley_kernel::scenario::DynScenario;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

#[test]
fn the_rules_rally_example() {
    // "A routing Raw cavalry regiment with two kills and two staggers and
    // within the command radius of its officer tries to rally. Its effective
    // morale rating is Unreliable (5) - Raw (6) Up 1 for being in command,
    // Down 1 for the kills and Down 1 for routing."
    let rules = Rules::default();
    let shifts = rules.rally_in_command_up - rules.rally_kills_down - rules.rally_routing_down;
    let rating = rules.effective_rating(Quality::Raw, shifts, false);
    assert_eq!(rating, 5);
    // Out of command it "would remain Unreliable (5)".
    assert_eq!(rules.effective_rating(Quality::Raw, shifts - rules.rally_in_command_up, false), 5);
    // "A result of 4 would rally it and remove one stagger; it would then take
    // one kill. A result of 3 would rally the unit and remove all the staggers."
    assert_eq!(staggers_after_reform(&rules, rating, 2, 4, false), 1);
    assert_eq!(staggers_after_reform(&rules, rating, 2, 3, false), 0);
    // A roll equal to the rating rallies but removes nothing; a Huzzah! removes all.
    assert_eq!(staggers_after_reform(&rules, rating, 2, 5, false), 2);
    assert_eq!(staggers_after_reform(&rules, 10, 7, 2, true), 0);
    // 11 always fails, even against a rating it would otherwise beat.
    assert_eq!(staggers_after_reform(&rules, 10, 3, 11, false), 3);
}

#[test]
fn threat_staggers_are_the_excess_and_ratings_fall_with_staggers_and_kills() {
    let rules = Rules::default();
    assert_eq!(threat_staggers(&rules, 8, 10), 2);
    assert_eq!(threat_staggers(&rules, 8, 8), 0);
    assert_eq!(threat_staggers(&rules, 10, 11), 1);
    let mut unit = Stand::new(Quality::Trained);
    assert_eq!(unit.threat_rating(&rules, 0, 0), 8);
    // Down 1 any staggers, Down 1 any kills, whatever the number.
    assert_eq!(unit.threat_rating(&rules, 3, 0), 7);
    assert_eq!(unit.threat_rating(&rules, 1, 2), 6);
    unit.officer = Officer::Inspirational;
    assert_eq!(unit.threat_rating(&rules, 1, 2), 8);
    unit.favourable = true;
    unit.disadvantaged = true;
    // Disadvantaged: no favourable position; Trained Up 0 disadvantaged is 4.
    assert_eq!(unit.threat_rating(&rules, 1, 2), 4);
    // Rally: full rating; Down 1 kills, Down 1 threat zone, Up 1 in command.
    let unit = Stand::new(Quality::Trained);
    assert_eq!(unit.reform_rating(&rules, 1, true), 7);
    assert_eq!(unit.reform_rating(&rules, 0, false), 9);
    // "Only troops that are not disadvantaged can be in a favourable
    // position": favourable ground gives Up 1 to reform (Trained, Down 1
    // threat zone, Up 1 in command, Up 1 favourable: Experienced, 9), but
    // not to a disadvantaged unit, which reforms at Trained (8) on its full
    // rating (the old reading gave it 9 too).
    let mut placed = Stand::new(Quality::Trained);
    placed.favourable = true;
    assert_eq!(placed.reform_rating(&rules, 0, true), 9);
    placed.disadvantaged = true;
    assert_eq!(placed.reform_rating(&rules, 0, true), 8);
}

#[test]
fn a_hand_worked_first_turn_unreliable_against_veterans() {
    // Unreliable (5, breaks at 5) attacks Veterans (10), turn limit 1, a
    // Huzzah! making the other unit test once (`single`).
    // Attacker's threat test: 10-12 (6 ways) break it; 6,7,8,9 give 1-4
    // staggers (5,6,5,4 ways). Reform at 5 (Down 1 threat zone, Up 1 in
    // command) then a kill if staggers remain: with 4 staggers it breaks unless
    // it rolls 2, 3 or 4 (6 ways): 4 x 30 more. Broken so far: 216 + 120 of 1296.
    // Surviving states (of 1296): (0,0) 417, (1,1) 178, (2,1) 203, (3,1) 162.
    // In the defender's turn a Veteran Huzzah! (1/36) makes the attacker test:
    // it breaks on 10+ (6 ways), 8+ (15), 7+ (21), 6+ (26) respectively.
    // P = 336/1296 + (417*6 + 178*15 + 203*21 + 162*26) / (1296 * 36 * 36)
    //   = (435456 + 13647) / 1679616.
    let rules = Rules { huzzah_threat_chain: HuzzahThreatChain::Single, ..Rules::default() };
    let standoff = Standoff::new(&rules, Stand::new(Quality::Unreliable), Stand::new(Quality::Veteran), 1).unwrap();
    let exact = standoff.exact_distribution().unwrap();
    assert!(close(exact.probability("winner", 1), 449_103.0 / 1_679_616.0));
    assert!(close(exact.probability("winner", 0), 0.0));
    assert!(close(exact.probability("turns", 1), 1.0));
    // Monte Carlo over two turns (one turn makes `turns` certain, which the
    // check cannot compare through rounding).
    assert_agrees(
        &Standoff::new(&rules, Stand::new(Quality::Unreliable), Stand::new(Quality::Veteran), 2).unwrap(),
        1_000_000,
        51,
    );
}

#[test]
fn markov_and_monte_carlo_agree_over_many_turns() {
    let rules = Rules::default();
    let trained = Standoff::new(&rules, Stand::new(Quality::Trained), Stand::new(Quality::Trained), 30).unwrap();
    let exact = trained.exact_distribution().unwrap();
    // Symmetric units, but the attacker tests first each turn: it should lose more often.
    assert!(exact.probability("winner", 1) > exact.probability("winner", 0));
    assert_agrees(&trained, 1_000_000, 52);
    let mut veteran = Stand::new(Quality::Veteran);
    veteran.officer = Officer::Attached;
    veteran.favourable = true;
    let mut green = Stand::new(Quality::Green);
    green.staggers = 2;
    green.kills = 1;
    // (A lopsided pairing, such as a disadvantaged Green, leaves tails near
    // 1e-8 that one stray sample pushes past 4.5 standard errors.)
    let mixed = Standoff::new(&rules, green, veteran, 12).unwrap();
    assert_agrees(&mixed, 1_000_000, 53);
    let single = Rules { huzzah_threat_chain: HuzzahThreatChain::Single, ..Rules::default() };
    assert_agrees(&Standoff::new(&single, green, veteran, 12).unwrap(), 1_000_000, 54);
}

#[test]
fn remaining_is_the_unused_share_of_the_breaking_threshold() {
    assert_eq!(remaining_percent(8, 3, 1), 50);
    assert_eq!(remaining_percent(7, 2, 0), 71);
    assert_eq!(remaining_percent(5, 4, 3), 0);
    assert_eq!(remaining_percent(10, 0, 0), 100);
}

#[test]
fn the_catalogue_builds_standoffs_and_every_decided_standoff_breaks_someone() {
    let huzzah = catalogue::ruleset("huzzah").unwrap();
    let rules = (huzzah.default_rules)();
    let standoff = huzzah
        .scenario("standoff")
        .unwrap()
        .build_from_text(
            rules.as_ref(),
            [("attacker.quality", "raw"), ("defender.quality", "experienced"), ("turns", "8")],
        )
        .unwrap();
    let exact = standoff.exact_distribution().unwrap();
    let winner = exact.metric_index("winner").unwrap();
    let attacker_remaining = exact.metric_index("attacker_remaining").unwrap();
    let defender_remaining = exact.metric_index("defender_remaining").unwrap();
    for joint in &exact.joint {
        match joint.values[winner] {
            0 => assert_eq!(joint.values[defender_remaining], 0),
            1 => assert_eq!(joint.values[attacker_remaining], 0),
            _ => assert!(joint.values[attacker_remaining] > 0 && joint.values[defender_remaining] > 0),
        }
    }
    assert!(exact.probability("turns", 8) > 0.0);
}
