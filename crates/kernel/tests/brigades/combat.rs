//! `combat`: dice per figures by arm, the base 6, grades, natural results, the loser.

use super::{close, exact, rules};
use volley_kernel::catalogue::ruleset;
use volley_kernel::check::assert_agrees;
use volley_kernel::rulesets::brigades::combat::{Combat, Striker};
use volley_kernel::rulesets::brigades::{Arm, Grade};

fn striker(arm: Arm, figures: u32, grade: Grade, modifier: i32) -> Striker {
    Striker { arm, figures, grade, modifier }
}

/// P(X > Y) etc. for independent binomials, by direct enumeration of counts.
fn binomial(n: u32, p: f64, k: u32) -> f64 {
    let choose = (0..k).fold(1.0, |c, i| c * f64::from(n - i) / f64::from(i + 1));
    choose * p.powi(k as i32) * (1.0 - p).powi((n - k) as i32)
}

#[test]
fn dice_per_figures_by_arm() {
    let rules = rules();
    let foot = striker(Arm::Infantry, 12, Grade::D, 0);
    // Cavalry against unsquared infantry in the open: one die per figure (4.1).
    let open = Combat::new(&rules, striker(Arm::Cavalry, 12, Grade::D, 0), foot, true).unwrap();
    assert_eq!(open.dice(), (12, 3));
    // Not in the open (or squared): one per three.
    let closed = Combat::new(&rules, striker(Arm::Cavalry, 14, Grade::D, 0), foot, false).unwrap();
    assert_eq!(closed.dice(), (5, 3));
    // Cavalry against cavalry: one per three, open ground or not.
    let cav = Combat::new(&rules, striker(Arm::Cavalry, 13, Grade::D, 0), striker(Arm::Cavalry, 12, Grade::D, 0), true)
        .unwrap();
    assert_eq!(cav.dice(), (4, 4));
    // Gunners: one per four, a remainder of three rounds up.
    let guns = Combat::new(&rules, foot, striker(Arm::Gunners, 7, Grade::D, 0), true).unwrap();
    assert_eq!(guns.dice(), (3, 2));
}

#[test]
fn equal_infantry_hit_on_six_and_the_loser_loses_more() {
    // 12 v 12 infantry: 3 dice each, 6-10 hit: 0.5.
    let round =
        Combat::new(&rules(), striker(Arm::Infantry, 12, Grade::D, 0), striker(Arm::Infantry, 12, Grade::D, 0), true)
            .unwrap();
    let dist = exact(&round);
    // P(tie) = sum_k b(3, 0.5, k)^2 = (1 + 9 + 9 + 1) / 64 = 20/64.
    close(dist.probability("loser", 2), 20.0 / 64.0);
    close(dist.probability("loser", 0), 22.0 / 64.0);
    close(dist.probability("loser", 1), 22.0 / 64.0);
}

#[test]
fn grades_give_one_per_grade_capped_by_natural_results() {
    // A attacks F: +5 hits on 2-10 (natural 1 misses): 0.9; F at -5 needs 11:
    // only the natural 10: 0.1.
    let round =
        Combat::new(&rules(), striker(Arm::Infantry, 8, Grade::A, 0), striker(Arm::Infantry, 8, Grade::F, 0), true)
            .unwrap();
    let (a, d) = round.chances();
    close(a, 0.9);
    close(d, 0.1);
    // C against D: +1 and -1: 0.6 and 0.4. The wrong sign would swap them.
    let round =
        Combat::new(&rules(), striker(Arm::Infantry, 8, Grade::C, 0), striker(Arm::Infantry, 8, Grade::D, 0), true)
            .unwrap();
    let (a, d) = round.chances();
    close(a, 0.6);
    close(d, 0.4);
}

#[test]
fn cavalry_against_a_line_by_enumeration() {
    // Steady cavalry vs unsquared infantry: +3 and -3 (4.2), infantry also
    // disordered vs steady -2: 12 cavalry roll 12 dice at +3 (3-10: 0.8), the
    // 12 infantry 3 dice at -5 (only natural 10: 0.1).
    let round =
        Combat::new(&rules(), striker(Arm::Cavalry, 12, Grade::D, 3), striker(Arm::Infantry, 12, Grade::D, -5), true)
            .unwrap();
    let dist = exact(&round);
    let mut defender_loses = 0.0;
    for a in 0..=3 {
        for d in 0..=12 {
            if d > a {
                defender_loses += binomial(3, 0.1, a) * binomial(12, 0.8, d);
            }
        }
    }
    close(dist.probability("loser", 1), defender_loses);
    close(dist.probability("hits_on_defender", 12), 0.8f64.powi(12));
}

#[test]
fn catalogue_keys_and_monte_carlo() {
    let brigades = ruleset("brigades").unwrap();
    let rules = (brigades.default_rules)();
    let scenario = brigades.scenario("combat").unwrap();
    let built = scenario
        .build_from_text(
            rules.as_ref(),
            [
                ("attacker.arm", "infantry"),
                ("attacker.figures", "8"),
                ("attacker.quality", "b"),
                ("defender.figures", "16"),
                ("defender.modifier", "-3"),
                ("open_ground", "false"),
            ],
        )
        .unwrap();
    // Attacker 2 dice at +2 (4-10: 0.7); defender 4 dice at -2 - 3 = -5: 0.1.
    let dist = exact(built.as_ref());
    close(dist.probability("hits_on_defender", 2), 0.49);
    close(dist.probability("hits_on_attacker", 0), 0.9f64.powi(4));
    assert_agrees(built.as_ref(), 1_000_000, 31);
    let default = scenario.build_from_text(rules.as_ref(), []).unwrap();
    assert_agrees(default.as_ref(), 1_000_000, 32);
}

mod multi_unit {
    //! 4.5 Multi-unit combats: the defender divides its dice between two attackers.
    use super::{close, exact, rules, striker};
    use volley_kernel::catalogue::ruleset;
    use volley_kernel::check::assert_agrees;
    use volley_kernel::rulesets::brigades::combat::{MultiCombat, SplitTowards};
    use volley_kernel::rulesets::brigades::{Arm, Grade};

    #[test]
    fn the_odd_die_goes_towards_the_most_figures_in_combat() {
        let foot = |figures| striker(Arm::Infantry, figures, Grade::D, 0);
        // 12 defending infantry roll 3 dice: 2 and 1, the 2 towards the
        // attacker it has the most figures in combat with.
        let towards_first = MultiCombat::new(&rules(), foot(12), foot(8), foot(12), SplitTowards::Attacker, true);
        assert_eq!(towards_first.unwrap().dice(), [3, 2, 2, 1]);
        let towards_second = MultiCombat::new(&rules(), foot(12), foot(8), foot(12), SplitTowards::Second, true);
        assert_eq!(towards_second.unwrap().dice(), [3, 2, 1, 2]);
        // Cavalry on the defender's flank rolls a die per figure against
        // unsquared infantry in the open (4.1), beside the infantry in front.
        let cavalry = striker(Arm::Cavalry, 6, Grade::D, 0);
        let mixed = MultiCombat::new(&rules(), foot(12), cavalry, foot(16), SplitTowards::Attacker, true).unwrap();
        assert_eq!(mixed.dice(), [3, 6, 2, 2]);
        // A cavalry defender's dice depend on its enemy's arm: refused.
        let horse = striker(Arm::Cavalry, 12, Grade::D, 0);
        let refused = MultiCombat::new(&rules(), foot(12), cavalry, horse, SplitTowards::Attacker, true);
        assert!(refused.err().unwrap().to_string().contains("second.arm"));
    }

    #[test]
    fn two_small_units_against_one_by_hand() {
        // Two 4-figure infantry units (a die each) against 8 infantry (2
        // dice, one at each), all grade D: every die hits on 6-10, 1/2.
        let foot = |figures| striker(Arm::Infantry, figures, Grade::D, 0);
        let round = MultiCombat::new(&rules(), foot(4), foot(4), foot(8), SplitTowards::Attacker, true).unwrap();
        let d = exact(&round);
        // The sides' totals are two Binomial(2, 1/2): the defender loses
        // when the attackers score more: (1/4)(3/4) + (1/2)(1/4) = 5/16.
        close(d.probability("loser", 1), 5.0 / 16.0);
        close(d.probability("loser", 2), 6.0 / 16.0);
        // The first attacker lost on its own account when the defender's die
        // at it hit and its own missed: 1/4.
        close(d.probability("attacker_lost", 1), 0.25);
        close(d.probability("second_lost", 1), 0.25);
        // Grades against each target: a B defender is +2 at a D attacker
        // (hits on 4-10: 0.7) and +4 at an F one (2-10: 0.9, natural 1 misses).
        let b = striker(Arm::Infantry, 8, Grade::B, 0);
        let f = striker(Arm::Infantry, 4, Grade::F, 0);
        let graded = MultiCombat::new(&rules(), foot(4), f, b, SplitTowards::Attacker, true).unwrap();
        let [_, _, at_first, at_second] = graded.chances();
        close(at_first, 0.7);
        close(at_second, 0.9);
        // The attackers strike at -2 and -4: 0.3 and 0.1 (natural 10).
        let [first, second, _, _] = graded.chances();
        close(first, 0.3);
        close(second, 0.1);
        close(exact(&graded).probability("hits_on_second", 1), 0.9);
    }

    #[test]
    fn each_target_has_its_own_defender_modifier() {
        // 4.9 Case D: the defender strikes the unit in front "with no
        // penalty" and the one on its flank at -3. Two 4-figure grade D units
        // against 8: one die at each; at the first 6-10 (0.5), at the second
        // 9-10 (0.2). One `defender.modifier` for both (the only key before
        // issue 15) would put both at 0.5 or both at 0.2.
        let entry = ruleset("brigades").unwrap();
        let book = (entry.default_rules)();
        let keys = [
            ("attacker.arm", "infantry"),
            ("attacker.figures", "4"),
            ("second.figures", "4"),
            ("defender.figures", "8"),
            ("defender.modifier_vs_second", "-3"),
        ];
        let built = entry.scenario("multi_combat").unwrap().build_from_text(book.as_ref(), keys).unwrap();
        let d = exact(built.as_ref());
        close(d.probability("hits_on_attacker", 1), 0.5);
        close(d.probability("hits_on_second", 1), 0.2);
        // The second attacker lost on its own account when the die at it hit
        // and its own missed: 0.2 x 0.5.
        close(d.probability("second_lost", 1), 0.1);
        let foot = |figures| striker(Arm::Infantry, figures, Grade::D, 0);
        let direct =
            MultiCombat::with_targets(&rules(), foot(4), foot(4), foot(8), SplitTowards::Attacker, true, [0, -3])
                .unwrap();
        assert_eq!(direct.chances().map(|c| (c * 10.0).round() as i32), [5, 5, 5, 2]);
    }

    #[test]
    fn catalogue_and_monte_carlo() {
        let entry = ruleset("brigades").unwrap();
        let rules = (entry.default_rules)();
        let keys = [
            ("attacker.arm", "infantry"),
            ("second.arm", "cavalry"),
            ("second.figures", "8"),
            ("second.modifier", "3"),
            ("defender.split_towards", "second"),
        ];
        let built = entry.scenario("multi_combat").unwrap().build_from_text(rules.as_ref(), keys).unwrap();
        assert_agrees(built.as_ref(), 1_000_000, 41);
    }
}
