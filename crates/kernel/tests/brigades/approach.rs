//! Two chargers on their approach (`assault` with `attacker.units = 2` from
//! beyond charge reach): the attacker's `approach` decision, the line's
//! `target` decision (3.10: concentrate on one target until charged), the
//! forced even split once both charge, hand-worked values, best play against
//! the heuristics, Monte Carlo against the solver, and a start-distance
//! sweep.

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
    for base in [&COLUMNS[..], &RIFLES[..]] {
        let best = exact(build("assault", &rules(), base).as_ref());
        for policy in ["bold", "cautious"] {
            let attacker = exact(build("assault", &rules(), &with(base, &[("attacker.policy", policy)])).as_ref());
            assert!(margin(&best, 0) >= margin(&attacker, 0) - 1e-12, "attacker {policy} {base:?}");
            let defender = exact(build("assault", &rules(), &with(base, &[("defender.policy", policy)])).as_ref());
            assert!(margin(&best, 1) >= margin(&defender, 1) - 1e-12, "defender {policy} {base:?}");
        }
    }
    // The rifles' second volley: hitting the column already shot again
    // (bold) and the fresh one (cautious) differ, and best play is at least
    // as good as either for the line.
    let bold = exact(build("assault", &rules(), &with(&RIFLES, &[("defender.policy", "bold")])).as_ref());
    let cautious = exact(build("assault", &rules(), &with(&RIFLES, &[("defender.policy", "cautious")])).as_ref());
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
