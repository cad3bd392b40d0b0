//! Chargers on their approach: two (`assault` with `attacker.units = 2` from
//! beyond charge reach): the attacker's `approach` decision, the line's
//! `target` decision (3.10: concentrate on one target until charged), the
//! forced even split once both charge; and a single charger's `approach`
//! (close a full move, or halt at the edge of charge reach): hand-worked
//! values, best play against the heuristics, Monte Carlo against the
//! solver, and start-distance sweeps.

use super::{binomial, build, close, exact, rules};
use volley_kernel::check::assert_agrees;
use volley_kernel::game::Policy;
use volley_kernel::outcome::Distribution;
use volley_kernel::rulesets::brigades::Rules;
use volley_kernel::rulesets::brigades::assault::SplitOddDie;
use volley_kernel::runner::RunOptions;

/// P(an 8-figure grade D column fails its test) after `hits` shooting hits
/// (5.4 (1), only from 2): pass 3 (5.5) with -1 a pair of hits and -2 a
/// quarter of its 8 figures lost (5.6).
fn column_of_8_fails(hits: u32) -> f64 {
    if hits < 2 {
        return 0.0;
    }
    let modifier = -((hits / 2) as i32) - 2 * (hits * 4 / 8) as i32;
    (1..=10).filter(|&r| r + modifier < 3).count() as f64 / 10.0
}

/// P(one of two columns routs) under `dice` dice hitting at `p`, each die at
/// the column its share says.
fn either_routs(shares: [u32; 2], p: f64) -> f64 {
    let routs = |dice: u32| (0..=dice).map(|h| binomial(dice, p, h) * column_of_8_fails(h)).sum::<f64>();
    1.0 - (1.0 - routs(shares[0])) * (1.0 - routs(shares[1]))
}

fn with(
    pairs: &[(&'static str, &'static str)],
    more: &[(&'static str, &'static str)],
) -> Vec<(&'static str, &'static str)> {
    let mut all = pairs.to_vec();
    all.extend_from_slice(more);
    all
}

const COLUMNS: [(&str, &str); 4] =
    [("attacker.units", "2"), ("attacker.figures", "8"), ("defender.figures", "16"), ("distance", "12")];

#[test]
fn one_turn_of_the_approach_by_hand() {
    // Two 8-figure grade D columns 12" from a 16-figure grade D musket line,
    // one turn. A column moves 8" and charges from within 8" (2.11), so it
    // cannot charge this turn: it closes the full move to 4" or halts at
    // the edge of its reach, 8". Not being charged, the line "must
    // concentrate its fire onto one target" (3.10): its 4 dice (16 figures,
    // 3.1) all at one column, at close range 7-10 (0.4) from 4", at far
    // range 9-10 (0.2) from 8" (3.2). That column tests after 2 hits
    // (5.4 (1)): 2 or 3 hits fail 1-5 (-1 a pair, -2 a quarter of 8), 4
    // hits 1-8 (-2, -4). Nobody can win in one turn (the line shoots one
    // column), so both sides' margins are 0 whatever they choose, and the
    // ties go to the first options: the full move, the first column.
    //   full move:  0.3456 x 0.5 + 0.1536 x 0.5 + 0.0256 x 0.8 = 0.27008
    //   halted:     0.1536 x 0.5 + 0.0256 x 0.5 + 0.0016 x 0.8 = 0.09088
    // Had the line split its dice 2 and 2 on the approach (3.10 allows that
    // only against chargers), a column would rout with 1 - (1 - 0.08)^2 =
    // 0.1536 from 4".
    let one = with(&COLUMNS, &[("turns", "1")]);
    let best = exact(build("assault", &rules(), &one).as_ref());
    close(either_routs([4, 0], 0.4), 0.27008);
    close(either_routs([2, 2], 0.4), 0.1536);
    close(either_routs([4, 0], 0.2), 0.09088);
    close(best.probability("attacker_routed", 1), 0.27008);
    close(best.probability("winner", 2), 1.0);
    let cautious = exact(build("assault", &rules(), &with(&one, &[("attacker.policy", "cautious")])).as_ref());
    close(cautious.probability("attacker_routed", 1), 0.09088);
    // The line's choice of target changes nothing between alike columns.
    let bold = exact(build("assault", &rules(), &with(&one, &[("defender.policy", "bold")])).as_ref());
    close(bold.probability("attacker_routed", 1), 0.27008);
    // Over two turns the pair halts at 8" under best play, to be shot at far
    // range before its charge: exactly the cautious attacker's play.
    let two = with(&COLUMNS, &[("turns", "2")]);
    let best = exact(build("assault", &rules(), &two).as_ref());
    let halting = exact(build("assault", &rules(), &with(&two, &[("attacker.policy", "cautious")])).as_ref());
    let closing = exact(build("assault", &rules(), &with(&two, &[("attacker.policy", "bold")])).as_ref());
    close(best.probability("winner", 0), halting.probability("winner", 0));
    assert!(best.probability("winner", 0) > closing.probability("winner", 0) + 0.01);
}

/// P(a 16-figure grade D line routs) in the turn two grade D columns of 8
/// charge it from 4", the columns having `now` figures (`None`: out) and
/// the line's 4 close-range dice (0.4) split `fire` between them: each
/// column takes its hits and tests to charge home (5.4 (2): -2, -1 a pair,
/// -2 a quarter of its 8 lost in all); if any arrives the line tests on
/// being charged (-3: fails 1-5); then a round in which the columns' fronts
/// strike (a die per 4, a remainder of 3 rounds up) and the line's 4 dice go
/// 2 and 2, or 4 at a lone column (4.5), all at 6-10; the line tests at -3
/// (-1 a pair, -2 a quarter of 16) if it took more hits than it struck.
fn line_routs_on_the_charge(now: [Option<u32>; 2], fire: [u32; 2]) -> f64 {
    let passes = |modifier: i32| (1..=10).filter(|&r| r + modifier >= 3).count() as f64 / 10.0;
    let dice = |figures: u32| figures / 4 + u32::from(figures % 4 >= 3);
    // Each column's (figures after the charge, if it arrives) and chance.
    let column = |now: Option<u32>, share: u32| -> Vec<(Option<u32>, f64)> {
        let Some(now) = now else { return vec![(None, 1.0)] };
        let mut out = Vec::new();
        for h in 0..=share {
            let p = binomial(share, 0.4, h);
            let lost = 8 - now + h;
            let pass = passes(-2 - (h / 2) as i32 - 2 * (lost * 4 / 8) as i32);
            out.push((Some(now - h), p * pass));
            out.push((None, p * (1.0 - pass)));
        }
        out
    };
    let mut routs = 0.0;
    for (first, p1) in column(now[0], fire[0]) {
        for (second, p2) in column(now[1], fire[1]) {
            let fronts: Vec<u32> = [first, second].into_iter().flatten().collect();
            if fronts.is_empty() {
                continue;
            }
            let p = p1 * p2;
            routs += p * 0.5;
            let column_dice: u32 = fronts.iter().map(|&f| dice(f)).sum();
            for on_line in 0..=column_dice {
                for on_columns in 0..on_line.min(5) {
                    let q = binomial(column_dice, 0.5, on_line) * binomial(4, 0.5, on_columns);
                    let modifier = -3 - (on_line / 2) as i32 - 2 * (on_line * 4 / 16) as i32;
                    routs += p * 0.5 * q * (1.0 - passes(modifier));
                }
            }
        }
    }
    routs
}

#[test]
fn two_turns_approach_and_charge_by_hand() {
    // The columns of `one_turn_of_the_approach_by_hand` over two turns, both
    // sides bold: the pair closes to 4" and the line's 4 dice all go at the
    // first column (3.10; bold shoots the weaker, the first when equal),
    // which tests after 2 hits. Next turn they charge from 4": the line's
    // dice are split 2 and 2 (3.10), or all 4 go at the column left if the
    // first routed (3.8: it shoots at the enemy charging it). Enumerated in
    // `line_routs_on_the_charge`: P(line routs) = 0.356471713164. Giving
    // the lone column only its half of the dice (as if its routed partner
    // still drew fire) would make it 0.373920231564.
    let pairs = with(&COLUMNS, &[("turns", "2"), ("attacker.policy", "bold"), ("defender.policy", "bold")]);
    let dist = exact(build("assault", &rules(), &pairs).as_ref());
    // The first column takes `volley` dice on the approach; `lone` dice go
    // at the second on the charge if the first routed.
    let approach = |volley: u32, lone: u32| {
        let mut total = 0.0;
        for h in 0..=volley {
            let p = binomial(volley, 0.4, h);
            let fails = column_of_8_fails(h);
            total += p * (1.0 - fails) * line_routs_on_the_charge([Some(8 - h), Some(8)], [2, 2]);
            total += p * fails * line_routs_on_the_charge([None, Some(8)], [0, lone]);
        }
        total
    };
    let expected = approach(4, 4);
    close(expected, 0.356471713164);
    close(approach(4, 2), 0.373920231564);
    close(dist.probability("defender_routed", 1), expected);
}

#[test]
fn within_reach_the_two_chargers_play_as_before() {
    // Pinned before the approach was added (the within-reach pair, its
    // defender and the cavalry pair): the approach leaves them alone.
    for (scenario, pairs, wins, losses, remaining) in [
        (
            "assault",
            vec![("attacker.units", "2"), ("attacker.figures", "8"), ("defender.figures", "16"), ("distance", "6")],
            0.477427183669392,
            0.522558180383136,
            63.58888039580658,
        ),
        (
            "assault",
            vec![("attacker.units", "2"), ("attacker.figures", "12"), ("distance", "8"), ("turns", "4")],
            0.438611371984444,
            0.555616472770533,
            69.22765796738902,
        ),
        (
            "cavalry_charge",
            vec![("attacker.units", "2"), ("attacker.figures", "6"), ("defender.figures", "12")],
            0.948118331503861,
            0.051836431370709,
            80.28085462286447,
        ),
    ] {
        let dist = exact(build(scenario, &rules(), &pairs).as_ref());
        assert!((dist.probability("winner", 0) - wins).abs() < 1e-12, "{pairs:?}");
        assert!((dist.probability("winner", 1) - losses).abs() < 1e-12, "{pairs:?}");
        assert!((dist.mean("attacker_remaining") - remaining).abs() < 1e-9, "{pairs:?}");
    }
}

/// Each side's margin (its wins less its losses).
fn margin(dist: &Distribution, side: i64) -> f64 {
    dist.probability("winner", side) - dist.probability("winner", 1 - side)
}

/// Two 8-figure columns against a 16-figure rifle line from 20": shot on
/// the approach at 12" (rifle far, 16") and at 8" or 4" (rifle close, 8"),
/// so the line's second target is a real choice.
const RIFLES: [(&str, &str); 6] = [
    ("attacker.units", "2"),
    ("attacker.figures", "8"),
    ("defender.figures", "16"),
    ("defender.weapon", "rifle"),
    ("distance", "20"),
    ("turns", "5"),
];

#[test]
fn best_play_does_at_least_as_well_as_the_heuristics() {
    // The rifles' laws with the line bold and cautious, kept for below.
    let mut rifles_defender = Vec::new();
    for base in [&COLUMNS[..], &RIFLES[..]] {
        let best = exact(build("assault", &rules(), base).as_ref());
        for policy in ["bold", "cautious"] {
            let attacker = exact(build("assault", &rules(), &with(base, &[("attacker.policy", policy)])).as_ref());
            assert!(margin(&best, 0) >= margin(&attacker, 0) - 1e-12, "attacker {policy} {base:?}");
            let defender = exact(build("assault", &rules(), &with(base, &[("defender.policy", policy)])).as_ref());
            assert!(margin(&best, 1) >= margin(&defender, 1) - 1e-12, "defender {policy} {base:?}");
            if base == &RIFLES[..] {
                rifles_defender.push(defender);
            }
        }
    }
    // The rifles' second volley: hitting the column already shot again
    // (bold) and the fresh one (cautious) differ, and best play is at least
    // as good as either for the line (the laws solved above).
    let [bold, cautious] = <[_; 2]>::try_from(rifles_defender).expect("bold, then cautious");
    assert!((margin(&bold, 1) - margin(&cautious, 1)).abs() > 1e-6);
    // The odd die of a split volley (3.10) as the line's choice can only
    // help the line.
    let chosen = Rules { split_odd_die: SplitOddDie::Chosen, ..rules() };
    let odd = [("attacker.units", "2"), ("attacker.figures", "8"), ("defender.figures", "12"), ("distance", "20")];
    let by_figures = exact(build("assault", &rules(), &odd).as_ref());
    let by_choice = exact(build("assault", &chosen, &odd).as_ref());
    assert!(margin(&by_choice, 1) >= margin(&by_figures, 1) - 1e-12);
}

#[test]
fn monte_carlo_follows_the_solver_on_the_approach() {
    for (i, policy) in ["best", "bold", "cautious"].into_iter().enumerate() {
        let pairs = with(&RIFLES, &[("attacker.policy", policy), ("defender.policy", policy)]);
        assert_agrees(build("assault", &rules(), &pairs).as_ref(), 300_000, 150 + i as u64);
    }
    // Two cavalry regiments from 20": beyond their 16" charge reach, their
    // full move ends at 10", out of musket range, or they halt at 16".
    let cavalry = [
        ("attacker.units", "2"),
        ("attacker.figures", "6"),
        ("defender.figures", "12"),
        ("distance", "20"),
        ("turns", "4"),
    ];
    assert_agrees(build("cavalry_charge", &rules(), &cavalry).as_ref(), 300_000, 153);
    // The same counts on one thread as on two.
    let scenario = build("assault", &rules(), &RIFLES);
    let one = scenario.simulate(&RunOptions::new(20_000, 7).with_threads(1)).unwrap();
    let two = scenario.simulate(&RunOptions::new(20_000, 7).with_threads(2)).unwrap();
    assert_eq!(one, two);
}

#[test]
fn large_pairs_on_their_approach_play_bold() {
    // Beyond TWO_CHARGERS_APPROACH_EXACT_MAX_FIGURES (10) from beyond reach
    // the solver stands aside and best play falls back to bold, which the
    // scenario reports; within reach two of 12 still solve.
    let large = build("assault", &rules(), &[("attacker.units", "2"), ("attacker.figures", "11"), ("distance", "12")]);
    assert!(!large.has_exact());
    let policies = large.policies().unwrap();
    assert_eq!(policies[0].played, Policy::Bold);
    assert_eq!(policies[1].played, Policy::Bold);
    let near = build("assault", &rules(), &[("attacker.units", "2"), ("attacker.figures", "12"), ("distance", "8")]);
    assert!(near.has_exact());
}

#[test]
fn start_distance_sweep_of_two_chargers_under_best_play() {
    // Two 8-figure columns against a 16-figure musket line, 6 turns. No jump
    // reaches 10 points; the largest, about 5 from 8" to 9" (0.477 to
    // 0.428), is the concentrated far volley the pair takes halting at 8"
    // before it charges (see the `assault` module docs). From 9" to 16" best
    // play halts at 8" every time, so the chance is flat; from 17" a turn
    // out of range costs only a turn of the limit.
    let wins: Vec<f64> = (1..=24)
        .map(|d| {
            let text = d.to_string();
            let pairs = [
                ("attacker.units", "2"),
                ("attacker.figures", "8"),
                ("defender.figures", "16"),
                ("turns", "6"),
                ("distance", text.as_str()),
            ];
            exact(build("assault", &rules(), &pairs).as_ref()).probability("winner", 0)
        })
        .collect();
    // Two regiments of 6 heavy cavalry against a 12-figure line, 4 turns:
    // beyond their 16" charge reach they halt at 16", out of musket range,
    // rather than close into it, so the distance costs them only turns.
    let cavalry: Vec<f64> = (1..=30)
        .map(|d| {
            let text = d.to_string();
            let pairs = [
                ("attacker.units", "2"),
                ("attacker.figures", "6"),
                ("defender.figures", "12"),
                ("turns", "4"),
                ("distance", text.as_str()),
            ];
            exact(build("cavalry_charge", &rules(), &pairs).as_ref()).probability("winner", 0)
        })
        .collect();
    for (name, wins) in [("two columns", &wins), ("two regiments", &cavalry)] {
        for (i, pair) in wins.windows(2).enumerate() {
            let jump = (pair[1] - pair[0]).abs();
            eprintln!("{name} {} -> {}: {:.4} -> {:.4}", i + 1, i + 2, pair[0], pair[1]);
            assert!(jump <= 0.10, "{name}: {} to {}: {jump}", i + 1, i + 2);
        }
    }
}

#[test]
fn explain_names_the_approach_and_the_target() {
    // From 12" with six turns: the attacker's first decision is its
    // approach, where halting at 8" is chosen and worth more than closing to
    // 4"; the line's first is its target, the two columns alike.
    let pairs = with(&COLUMNS, &[("turns", "6")]);
    let explained = build("assault", &rules(), &pairs).explain().unwrap();
    let approach = explained.iter().find(|e| e.decision == "approach").unwrap();
    assert_eq!(approach.side, "attacker");
    assert_eq!(approach.situation, "two infantry units (8 and 8 figures) 12\" from 16 of a line");
    assert_eq!(approach.options.len(), 2);
    let (close, halt) = (&approach.options[0], &approach.options[1]);
    assert_eq!(
        (close.option.as_str(), halt.option.as_str()),
        ("close a full move", "halt at the edge of charge reach")
    );
    assert!(halt.chosen && !close.chosen);
    assert!(halt.attacker_wins > close.attacker_wins + 0.01);
    let target = explained.iter().find(|e| e.decision == "target").unwrap();
    assert_eq!(target.side, "defender");
    close_enough(target.options[0].defender_wins, target.options[1].defender_wins);
}

#[track_caller]
fn close_enough(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-9, "{a} != {b}");
}

/// P(a 24-figure grade D column routs) under 6 dice (a 24-figure line, 3.1)
/// hitting at `p`: it tests after 2 hits (5.4 (1)), passing 3 (5.5) at -1 a
/// pair of hits and -2 a quarter of its 24 lost (5.6).
fn column_of_24_routs(p: f64) -> f64 {
    (2..=6)
        .map(|h: u32| {
            let modifier = -((h / 2) as i32) - 2 * (h * 4 / 24) as i32;
            let fails = (1..=10).filter(|&r| r + modifier < 3).count() as f64 / 10.0;
            binomial(6, p, h) * fails
        })
        .sum()
}

#[test]
fn one_turn_of_a_single_chargers_approach_by_hand() {
    // The default 24-figure grade D column 12" from the default 24-figure
    // grade D musket line, one turn. It moves 8" and charges from within 8"
    // (2.11), so it cannot charge this turn: it closes its full move to 4"
    // (bold, the only play before the `approach` decision) or halts at the
    // edge of its reach, 8" (cautious). The line's 6 dice hit at close range
    // 7-10 (0.4) from 4", at far range 9-10 (0.2) from 8" (3.2); the column
    // fails its test on 1-3 after 2 or 3 hits (-1), 1-4 after 4 or 5 (-2),
    // 1-7 after 6 (-3, -2 a quarter lost):
    //   full move: 0.31104 x 0.3 + 0.27648 x 0.3 + 0.13824 x 0.4
    //              + 0.036864 x 0.4 + 0.004096 x 0.7 = 0.2491648
    //   halted:    0.24576 x 0.3 + 0.08192 x 0.3 + 0.01536 x 0.4
    //              + 0.001536 x 0.4 + 0.000064 x 0.7 = 0.1051072
    // Nobody wins in this turn but by the column's rout, so best play halts.
    let one = [("distance", "12"), ("turns", "1")];
    close(column_of_24_routs(0.4), 0.2491648);
    close(column_of_24_routs(0.2), 0.1051072);
    let play = |policy: &'static str| {
        exact(build("assault", &rules(), &with(&one, &[("attacker.policy", policy)])).as_ref())
            .probability("attacker_routed", 1)
    };
    close(play("bold"), 0.2491648);
    close(play("cautious"), 0.1051072);
    close(play("best"), 0.1051072);
}

#[test]
fn a_single_charger_plays_its_approach_best() {
    // Over the whole fight best play is at least as good for the charger as
    // either heuristic, from where its approach is a choice (12", 20") and
    // for cavalry from beyond its 16" charge reach (20": a full move ends
    // at 10", a halt at 16").
    for (scenario, base) in [
        ("assault", vec![("distance", "12")]),
        ("assault", vec![("distance", "20"), ("turns", "6")]),
        ("assault", vec![("defender.weapon", "rifle"), ("distance", "20"), ("turns", "6")]),
        ("cavalry_charge", vec![("distance", "20"), ("turns", "4")]),
        ("cavalry_charge", vec![("defender.formation", "forms_square"), ("distance", "20"), ("turns", "4")]),
    ] {
        let best = exact(build(scenario, &rules(), &base).as_ref());
        for policy in ["bold", "cautious"] {
            let other = exact(build(scenario, &rules(), &with(&base, &[("attacker.policy", policy)])).as_ref());
            assert!(margin(&best, 0) >= margin(&other, 0) - 1e-12, "{scenario} {policy} {base:?}");
        }
    }
    // From 12" the column halts at 8" and is shot at far range before its
    // charge, rather than from 4" at close range: 0.2249 against 0.1728.
    let best = exact(build("assault", &rules(), &[("distance", "12")]).as_ref());
    let bold = exact(build("assault", &rules(), &[("distance", "12"), ("attacker.policy", "bold")]).as_ref());
    assert!(best.probability("winner", 0) > bold.probability("winner", 0) + 0.05);
}

#[test]
fn a_single_chargers_bold_approach_is_the_old_play() {
    // Bold closes the full move, as every single charger did before the
    // `approach` decision: these are the wins (attacker, defender) the
    // solver gave at these keys before it (release `solve_time`, six
    // decimals), the defender playing best against the charger's one play.
    for (scenario, pairs, wins, losses) in [
        ("assault", vec![("distance", "12")], 0.172780, 0.827219),
        ("assault", vec![("distance", "20"), ("turns", "6")], 0.172708, 0.826449),
        ("cavalry_charge", vec![("distance", "24"), ("turns", "4")], 0.696806, 0.303194),
        (
            "cavalry_charge",
            vec![("defender.formation", "forms_square"), ("distance", "20"), ("turns", "4")],
            0.000221,
            0.999727,
        ),
    ] {
        let dist = exact(build(scenario, &rules(), &with(&pairs, &[("attacker.policy", "bold")])).as_ref());
        assert!((dist.probability("winner", 0) - wins).abs() < 5e-7, "{scenario} {pairs:?}");
        assert!((dist.probability("winner", 1) - losses).abs() < 5e-7, "{scenario} {pairs:?}");
    }
}

#[test]
fn monte_carlo_follows_the_single_chargers_best_approach() {
    let column = [("attacker.figures", "16"), ("defender.figures", "16"), ("distance", "12"), ("turns", "4")];
    assert_agrees(build("assault", &rules(), &column).as_ref(), 300_000, 160);
    let cavalry = [("attacker.figures", "12"), ("defender.figures", "16"), ("distance", "20"), ("turns", "4")];
    assert_agrees(build("cavalry_charge", &rules(), &cavalry).as_ref(), 300_000, 161);
    // The same counts on one thread as on two.
    let scenario = build("assault", &rules(), &column);
    let one = scenario.simulate(&RunOptions::new(20_000, 9).with_threads(1)).unwrap();
    let two = scenario.simulate(&RunOptions::new(20_000, 9).with_threads(2)).unwrap();
    assert_eq!(one, two);
}

#[test]
fn explain_names_a_single_chargers_approach() {
    // From 12" the column's first decision is its approach: halting at 8"
    // is chosen and worth more than closing to 4".
    let explained = build("assault", &rules(), &[("distance", "12")]).explain().unwrap();
    let first = explained.iter().find(|e| e.side == "attacker").unwrap();
    assert_eq!(first.decision, "approach");
    assert_eq!(first.situation, "24 infantry 12\" from 24 of a line");
    let (close, halt) = (&first.options[0], &first.options[1]);
    assert_eq!(
        (close.option.as_str(), halt.option.as_str()),
        ("close a full move", "halt at the edge of charge reach")
    );
    assert!(halt.chosen && !close.chosen);
    assert!(halt.attacker_wins > close.attacker_wins + 0.05);
}

#[test]
fn start_distance_sweep_of_a_single_charger_under_best_play() {
    // The default column against the default line, 6 turns. Within reach
    // (8" or less) it charges at once: 0.2608. From 9" to 12" best play
    // halts at 8" and takes one far volley before its charge, 0.2249, where
    // closing a full move (the only play before) took a close one, 0.1728:
    // the step from 8" to 9" falls from 8.8 points to 3.6. From 13" to 16"
    // the full move already ends at 5"-8", so nothing changes there.
    let wins: Vec<f64> = (1..=24)
        .map(|d| {
            let text = d.to_string();
            let pairs = [("turns", "6"), ("distance", text.as_str()), ("purpose", "attack")];
            exact(build("assault", &rules(), &pairs).as_ref()).probability("winner", 0)
        })
        .collect();
    assert!((wins[7] - 0.260796).abs() < 5e-7, "{}", wins[7]);
    for d in 9..=16 {
        assert!((wins[d - 1] - 0.224872).abs() < 5e-7, "{d}: {}", wins[d - 1]);
    }
    for (i, pair) in wins.windows(2).enumerate() {
        let jump = (pair[1] - pair[0]).abs();
        eprintln!("one column {} -> {}: {:.4} -> {:.4}", i + 1, i + 2, pair[0], pair[1]);
        assert!(jump <= 0.10, "{} to {}: {jump}", i + 1, i + 2);
    }
}
