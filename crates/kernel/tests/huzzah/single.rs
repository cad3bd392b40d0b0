//! The quality ladder and the single rolls: `test`, `orders`, `quality_roll`.

use super::assert_agrees;
use volley_kernel::catalogue;
use volley_kernel::params::Choice;
use volley_kernel::rulesets::huzzah::single::{OrderRoll, QualityRoll, QualityTest};
use volley_kernel::rulesets::huzzah::{Quality, Rules, UnitClass, shift_quality};
use volley_kernel::scenario::DynScenario;

/// How many of the 36 ordered pairs of 2D6 have a total satisfying `keep`.
fn pairs_with(keep: impl Fn(i32) -> bool) -> f64 {
    let mut count = 0;
    for a in 1..=6 {
        for b in 1..=6 {
            if keep(a + b) {
                count += 1;
            }
        }
    }
    f64::from(count)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

#[test]
fn the_ladder_matches_the_playsheet_quality_shifts_table() {
    // Playsheet, Unit Quality Shifts: one row per base quality, Down 5 .. Up 5.
    let table = "
        Unreliable Raw Green Trained Experienced Veteran Veteran Veteran Veteran Veteran Veteran
        Unreliable Unreliable Raw Green Trained Experienced Veteran Veteran Veteran Veteran Veteran
        Unreliable Unreliable Unreliable Raw Green Trained Experienced Veteran Veteran Veteran Veteran
        Unreliable Unreliable Unreliable Unreliable Raw Green Trained Experienced Veteran Veteran Veteran
        Unreliable Unreliable Unreliable Unreliable Unreliable Raw Green Trained Experienced Veteran Veteran
        Unreliable Unreliable Unreliable Unreliable Unreliable Unreliable Raw Green Trained Experienced Veteran";
    for (row, &base) in table.trim().lines().zip(Quality::ALL) {
        for (column, word) in row.split_whitespace().enumerate() {
            let shifts = column as i32 - 5;
            let expected = Quality::from_name(&word.to_ascii_lowercase()).unwrap();
            assert_eq!(shift_quality(base, shifts), expected, "{base:?} shifted {shifts}");
        }
    }
}

#[test]
fn ratings_are_read_off_after_shifting_and_clamping() {
    let rules = Rules::default();
    // "Quality and morale": Trained 8/4; Up 1 Experienced 9; Down 3 Unreliable 5.
    assert_eq!(rules.effective_rating(Quality::Trained, 0, false), 8);
    assert_eq!(rules.effective_rating(Quality::Trained, 0, true), 4);
    assert_eq!(rules.effective_rating(Quality::Trained, 1, false), 9);
    assert_eq!(rules.effective_rating(Quality::Trained, -3, false), 5);
    assert_eq!(rules.effective_rating(Quality::Trained, -9, true), 3);
    // Veterans with positive modifiers stay Veterans (10, or 6 disadvantaged).
    assert_eq!(rules.effective_rating(Quality::Veteran, 4, false), 10);
    assert_eq!(rules.effective_rating(Quality::Veteran, 4, true), 6);
    // Shifts move the descriptive quality, not the number: Green Down 1 is Raw,
    // still 4 disadvantaged; Green Up 1 disadvantaged is Trained's 4 too.
    assert_eq!(rules.effective_rating(Quality::Green, -1, true), 4);
    assert_eq!(rules.effective_rating(Quality::Raw, 1, false), 7);
    // A sign error would make Up 1 worse: Raw Up 1 must beat Raw.
    assert!(rules.effective_rating(Quality::Raw, 1, false) > rules.effective_rating(Quality::Raw, 0, false));
}

#[test]
fn trained_passes_on_26_of_36_and_takes_the_excess_as_staggers() {
    let rules = Rules::default();
    let test = QualityTest::new(&rules, Quality::Trained, 0, false).unwrap();
    assert_eq!(test.rating(), 8);
    let exact = test.exact_distribution().unwrap();
    // 2D6 at most 8: 1+2+3+4+5+6+5 = 26 of 36.
    assert!(close(exact.probability("passed", 1), 26.0 / 36.0));
    assert!(close(exact.probability("passed", 1), pairs_with(|t| t <= 8) / 36.0));
    // Staggers: 9 (4 ways) gives 1, 10 (3) gives 2, 11 (2) gives 3, 12 (1) gives 4.
    for (staggers, ways) in [(0, 26.0), (1, 4.0), (2, 3.0), (3, 2.0), (4, 1.0)] {
        assert!(close(exact.probability("staggers", staggers), ways / 36.0), "staggers {staggers}");
    }
    assert!(close(exact.mean("staggers"), (4.0 + 6.0 + 6.0 + 4.0) / 36.0));
    assert!(close(exact.probability("huzzah", 1), 1.0 / 36.0));
    assert_agrees(&test, 1_000_000, 31);
}

#[test]
fn veterans_still_fail_on_11_and_12_and_disadvantage_uses_the_second_column() {
    let rules = Rules::default();
    let veteran = QualityTest::new(&rules, Quality::Veteran, 3, false).unwrap().exact_distribution().unwrap();
    // Rating 10: everything but 11 (2 ways) and 12 (1 way) passes.
    assert!(close(veteran.probability("passed", 1), 33.0 / 36.0));
    assert!(close(veteran.probability("staggers", 1), 2.0 / 36.0));
    assert!(close(veteran.probability("staggers", 2), 1.0 / 36.0));
    let disadvantaged = QualityTest::new(&rules, Quality::Trained, 0, true).unwrap();
    assert_eq!(disadvantaged.rating(), 4);
    let exact = disadvantaged.exact_distribution().unwrap();
    // At most 4: 1 + 2 + 3 = 6 of 36; a 12 gives 8 staggers (1 way).
    assert!(close(exact.probability("passed", 1), 6.0 / 36.0));
    assert!(close(exact.probability("staggers", 8), 1.0 / 36.0));
    assert_agrees(&disadvantaged, 1_000_000, 32);
}

#[test]
fn order_rolls_add_shifts_and_fail_on_11_even_at_rating_12() {
    let rules = Rules::default();
    let average = OrderRoll::new(&rules, 8, 0, false).unwrap().exact_distribution().unwrap();
    assert!(close(average.probability("succeeded", 1), 26.0 / 36.0));
    assert!(close(average.probability("huzzah", 1), 1.0 / 36.0));
    // Excellent Up 2: a simple plus gives 12, but 11 and 12 always fail.
    let twelve = OrderRoll::new(&rules, 10, 2, false).unwrap();
    assert_eq!(twelve.rating(), 12);
    assert!(close(twelve.exact_distribution().unwrap().probability("succeeded", 1), 33.0 / 36.0));
    // Poor with Down 2 (successive orders, threat zone): 5, so 10 of 36.
    let poor = OrderRoll::new(&rules, 7, -2, false).unwrap().exact_distribution().unwrap();
    assert!(close(poor.probability("succeeded", 1), pairs_with(|t| t <= 5) / 36.0));
    assert!(close(poor.probability("succeeded", 1), 10.0 / 36.0));
    // Effective 2 passes only on double one; effective 1 cannot be issued at all.
    let two = OrderRoll::new(&rules, 6, -4, false).unwrap().exact_distribution().unwrap();
    assert!(close(two.probability("succeeded", 1), 1.0 / 36.0));
    let one = OrderRoll::new(&rules, 6, -5, false).unwrap();
    assert_eq!(one.rating(), 1);
    let one = one.exact_distribution().unwrap();
    assert!(close(one.probability("succeeded", 1), 0.0));
    assert!(close(one.probability("huzzah", 1), 0.0));
    assert_agrees(&OrderRoll::new(&rules, 7, -2, false).unwrap(), 1_000_000, 33);
}

#[test]
fn the_cinc_is_two_better_but_never_above_excellent() {
    let rules = Rules::default();
    assert_eq!(OrderRoll::new(&rules, 6, 0, true).unwrap().rating(), 8);
    assert_eq!(OrderRoll::new(&rules, 8, 0, true).unwrap().rating(), 10);
    assert_eq!(OrderRoll::new(&rules, 9, 0, true).unwrap().rating(), 10);
    assert_eq!(OrderRoll::new(&rules, 10, -1, true).unwrap().rating(), 9);
}

#[test]
fn the_unit_quality_table_by_class() {
    let rules = Rules::default();
    let exact = QualityRoll::new(&rules, UnitClass::RegularsB).unwrap().exact_distribution().unwrap();
    // Regulars B: Veteran 2-3, Experienced 4-5, Trained 6-8, Green 9-12.
    let expected = [
        (Quality::Veteran, pairs_with(|t| t <= 3)),
        (Quality::Experienced, pairs_with(|t| (4..=5).contains(&t))),
        (Quality::Trained, pairs_with(|t| (6..=8).contains(&t))),
        (Quality::Green, pairs_with(|t| t >= 9)),
        (Quality::Raw, 0.0),
        (Quality::Unreliable, 0.0),
    ];
    assert_eq!(expected.iter().map(|e| e.1).collect::<Vec<_>>(), vec![3.0, 7.0, 16.0, 10.0, 0.0, 0.0]);
    for (quality, ways) in expected {
        assert!(close(exact.probability("quality", quality as i64), ways / 36.0), "{quality:?}");
    }
    // Militia D: Green 2-5, Raw 6-8, Unreliable 9-12, never better than Green.
    let militia = QualityRoll::new(&rules, UnitClass::MilitiaD).unwrap().exact_distribution().unwrap();
    assert!(close(militia.probability("quality", Quality::Green as i64), 10.0 / 36.0));
    assert!(close(militia.probability("quality", Quality::Raw as i64), 16.0 / 36.0));
    assert!(close(militia.probability("quality", Quality::Unreliable as i64), 10.0 / 36.0));
    // Elites A: Veteran 2-7 (21 ways), Experienced 8-12 (15).
    let guard = QualityRoll::new(&rules, UnitClass::ElitesA).unwrap().exact_distribution().unwrap();
    assert!(close(guard.probability("quality", Quality::Veteran as i64), 21.0 / 36.0));
    assert_agrees(&QualityRoll::new(&rules, UnitClass::RegularsC).unwrap(), 1_000_000, 34);
}

#[test]
fn every_class_covers_every_roll_once() {
    let rules = Rules::default();
    for &class in UnitClass::ALL {
        let bands = rules.class_table(class);
        let used: Vec<u32> = bands.iter().copied().filter(|&m| m != 0).collect();
        assert_eq!(used.last(), Some(&12), "{class:?}");
        assert!(used.windows(2).all(|w| w[0] < w[1]), "{class:?}");
        assert!(QualityRoll::new(&rules, class).is_ok());
    }
}

#[test]
fn the_catalogue_builds_the_single_rolls_from_typed_keys() {
    let huzzah = catalogue::ruleset("huzzah").unwrap();
    let rules = (huzzah.default_rules)();
    let test = huzzah
        .scenario("test")
        .unwrap()
        .build_from_text(rules.as_ref(), [("quality", "green"), ("shifts", "-1"), ("disadvantaged", "false")])
        .unwrap();
    // Green Down 1 is Raw: 6 or less, 15 of 36.
    assert!(close(test.exact_distribution().unwrap().probability("passed", 1), 15.0 / 36.0));
    let orders = huzzah.scenario("orders").unwrap().build_from_text(rules.as_ref(), [("rating", "9")]).unwrap();
    assert!(close(orders.exact_distribution().unwrap().probability("succeeded", 1), 30.0 / 36.0));
    let roll = huzzah.scenario("quality_roll").unwrap().build_from_text(rules.as_ref(), [("class", "regulars_b")]);
    assert!(roll.is_ok());
    assert!(huzzah.scenario("orders").unwrap().build_from_text(rules.as_ref(), [("rating", "11")]).is_err());
    assert!(huzzah.scenario("test").unwrap().build_from_text(rules.as_ref(), [("quality", "elite")]).is_err());
}

#[test]
fn the_rules_rearm_example() {
    // "The British have a bombardment factor of 4 and the Spanish a
    // bombardment factor of 3 ... On a 4 or less, only the British batteries
    // are rearmed; on a 3, the British and the Spanish batteries are rearmed."
    use volley_kernel::rulesets::huzzah::single::RearmRoll;
    let rules = Rules::default();
    let british = RearmRoll::new(&rules, 4, false, false).unwrap();
    let spanish = RearmRoll::new(&rules, 3, false, false).unwrap();
    assert!(close(british.exact_distribution().unwrap().probability("succeeded", 1), 6.0 / 36.0));
    assert!(close(spanish.exact_distribution().unwrap().probability("succeeded", 1), 3.0 / 36.0));
    // Up 1 for the majority depleted, Up 1 more for all: 3 becomes 5.
    let depleted = RearmRoll::new(&rules, 3, true, true).unwrap();
    assert_eq!(depleted.factor(), 5);
    assert!(close(depleted.exact_distribution().unwrap().probability("succeeded", 1), 10.0 / 36.0));
    assert!(RearmRoll::new(&rules, 3, false, true).is_err());
    assert_agrees(&depleted, 1_000_000, 35);
}

#[test]
fn command_checks_count_their_modifiers_and_cost_staggers_on_failure() {
    use volley_kernel::rulesets::huzzah::single::{Command, CommandCheck};
    let rules = Rules::default();
    let command = Command {
        rating: 8,
        broken: 2,
        favourable: 1,
        last_check: -1,
        levels_removed: 1,
        isolated: false,
        inspirational: true,
        seize_flag: true,
        officer_dead: false,
        cinc_in_person: false,
    };
    // 8 - 2 (broken) + 1 (favourable) - 1 (failed last) - 1 (a level removed)
    // + 1 (inspirational) + 1 (seizes the flag) = 7: passes on 21 of 36.
    let check = CommandCheck::new(&rules, command).unwrap();
    assert_eq!(check.rating(), 7);
    let exact = check.exact_distribution().unwrap();
    assert!(close(exact.probability("passed", 1), 21.0 / 36.0));
    // On failure each unit takes a stagger per broken sub-command, retires,
    // and the officer who seized the flag dies.
    assert!(close(exact.probability("staggers", 2), 15.0 / 36.0));
    assert!(close(exact.probability("officer_killed", 1), 15.0 / 36.0));
    let isolated = CommandCheck::new(&rules, Command { isolated: true, seize_flag: false, ..command }).unwrap();
    assert_eq!(isolated.rating(), 4);
    assert_agrees(&check, 1_000_000, 36);
}

#[test]
fn a_dead_officers_command_fails_unless_a_senior_officer_stands_in() {
    use volley_kernel::rulesets::huzzah::CommandCheckHuzzah;
    use volley_kernel::rulesets::huzzah::single::{Command, CommandCheck};
    let rules = Rules::default();
    let command = Command {
        rating: 8,
        broken: 1,
        favourable: 0,
        last_check: 0,
        levels_removed: 0,
        isolated: false,
        inspirational: false,
        seize_flag: false,
        officer_dead: true,
        cinc_in_person: false,
    };
    // "If its officer has been killed, a command automatically fails": every
    // unit takes a stagger (one broken sub-command) and retires, whatever the roll.
    let alone = CommandCheck::new(&rules, command).unwrap().exact_distribution().unwrap();
    assert!(close(alone.probability("passed", 0), 1.0));
    assert!(close(alone.probability("staggers", 1), 1.0));
    assert!(close(alone.probability("retires", 1), 1.0));
    assert!(close(alone.probability("huzzah", 0), 1.0));
    // A divisional officer stands in at Down 1: 8 - 1 - 1 = 6, 15/36.
    let division = CommandCheck::new(&rules, Command { levels_removed: 1, ..command }).unwrap();
    assert_eq!(division.rating(), 6);
    assert!(close(division.exact_distribution().unwrap().probability("passed", 1), 15.0 / 36.0));
    // The CinC, three levels removed, tests at Down 3 through his staff (4,
    // 6/36) but at no Down in person (7, 21/36).
    let staff = CommandCheck::new(&rules, Command { levels_removed: 3, ..command }).unwrap();
    assert_eq!(staff.rating(), 4);
    let in_person = CommandCheck::new(&rules, Command { levels_removed: 3, cinc_in_person: true, ..command }).unwrap();
    assert_eq!(in_person.rating(), 7);
    assert!(close(in_person.exact_distribution().unwrap().probability("passed", 1), 21.0 / 36.0));
    // A dead officer cannot seize the flag, and the CinC supersedes only a junior.
    assert!(CommandCheck::new(&rules, Command { seize_flag: true, ..command }).is_err());
    assert!(CommandCheck::new(&rules, Command { officer_dead: false, cinc_in_person: true, ..command }).is_err());
    // Seven broken sub-commands take an Average officer to 8 - 7 = 1: no
    // roll is at or under it, and only a Huzzah! passes (by default).
    let hopeless = Command { broken: 7, officer_dead: false, ..command };
    let check = CommandCheck::new(&rules, hopeless).unwrap();
    assert_eq!(check.rating(), 1);
    let exact = check.exact_distribution().unwrap();
    assert!(close(exact.probability("passed", 1), 1.0 / 36.0));
    assert!(close(exact.probability("huzzah", 1), 1.0 / 36.0));
    assert!(close(exact.probability("staggers", 7), 35.0 / 36.0));
    let by_rating = Rules { command_check_huzzah: CommandCheckHuzzah::Rating, ..Rules::default() };
    let strict = CommandCheck::new(&by_rating, hopeless).unwrap().exact_distribution().unwrap();
    assert!(close(strict.probability("passed", 0), 1.0));
    assert_agrees(&division, 1_000_000, 37);
}
