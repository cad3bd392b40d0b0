//! The assault on the decision model: the fixed chain reproduced under bold
//! play, best play against the heuristics, Monte Carlo following the solved
//! table, `--explain`, and the fallback beyond the solver.

use super::assert_agrees;
use volley_kernel::catalogue;
use volley_kernel::game::{Played, Policy};
use volley_kernel::outcome::Distribution;
use volley_kernel::rulesets::huzzah::assault::{
    Assault, AssaultGame, AssaultUnit, BATTERY_BEST_TURN_LIMIT, BATTERY_TURN_LIMIT, BEST_TURN_LIMIT, Formation, Guns,
};
use volley_kernel::rulesets::huzzah::{Arm, Quality, Rules};
use volley_kernel::runner::RunOptions;
use volley_kernel::scenario::DynScenario;

fn assault(settings: &[(&str, &str)]) -> Box<dyn DynScenario> {
    let huzzah = catalogue::ruleset("huzzah").unwrap();
    let rules = (huzzah.default_rules)();
    {
        let entry = huzzah.scenario("assault").unwrap();
        entry.build_from_text(rules.as_ref(), crate::manoeuvring(entry, settings))
    }
    .unwrap()
}

fn exact(settings: &[(&str, &str)]) -> Distribution {
    assault(settings).exact_distribution().expect("solved")
}

fn margin(exact: &Distribution) -> f64 {
    exact.probability("winner", 0) - exact.probability("winner", 1)
}

/// The same laws, to the chain's dropped mass (states below 1e-15).
fn same_laws(game: &Distribution, chain: &Distribution, turns: i64) {
    for (metric, values) in [("winner", 0..3), ("turns", 1..turns + 1), ("attacker_staggers", 0..8)] {
        for v in values {
            let (g, c) = (game.probability(metric, v), chain.probability(metric, v));
            assert!((g - c).abs() < 1e-9, "{metric} = {v}: game {g}, chain {c}");
        }
    }
}

#[test]
fn bold_play_is_the_fixed_chain_where_nobody_pursues() {
    // The chain always advances and its battery fires at every chance: a
    // bold attacker and a bold battery. Against a battery (which breaks but
    // never routs) there is no pursuit, where bold and the chain differ.
    let rules = Rules::default();
    let battery = AssaultUnit::new(Quality::Trained, Arm::Artillery, Formation::Line);
    for attacker in [
        AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column),
        AssaultUnit::new(Quality::Veteran, Arm::Cavalry, Formation::Line),
    ] {
        let chain = Assault::new(&rules, attacker, battery, Guns::Medium, 3, 8, 4).unwrap();
        let game = Played::new(
            AssaultGame::new(chain.clone()),
            volley_kernel::game::Plan { policy: [Policy::Bold; 2], ..volley_kernel::game::Plan::BEST },
        );
        same_laws(&game.exact_distribution().unwrap(), &chain.exact_distribution().unwrap(), 4);
    }
}

#[test]
fn best_play_beats_each_heuristic_and_monte_carlo_follows_it() {
    let turns = "3".to_string();
    let best = margin(&exact(&[("turns", &turns)]));
    for policy in ["bold", "cautious"] {
        let heuristic = margin(&exact(&[("turns", &turns), ("attacker.policy", policy)]));
        assert!(best >= heuristic - 1e-12, "best {best} < {policy} {heuristic}");
    }
    // Cavalry against a battery: both sides decide (advance, bombard).
    let cavalry = [
        ("turns", turns.as_str()),
        ("attacker.arm", "cavalry"),
        ("attacker.formation", "line"),
        ("defender.arm", "artillery"),
        ("distance", "10"),
    ];
    let played = assault(&cavalry);
    assert_agrees(played.as_ref(), 400_000, 71);
    let one = played.simulate(&RunOptions::new(100_000, 5).with_threads(1)).unwrap();
    let two = played.simulate(&RunOptions::new(100_000, 5).with_threads(2)).unwrap();
    assert_eq!(one, two);
    assert_agrees(assault(&[("turns", &turns), ("distance", "4")]).as_ref(), 400_000, 72);
}

#[test]
fn explain_shows_the_attackers_first_order_with_every_option() {
    let played = assault(&[("turns", "3")]);
    let explained = played.explain().expect("solved at 3 turns");
    let first = explained.iter().find(|e| e.side == "attacker").expect("the attacker decides");
    assert_eq!(first.decision, "advance");
    assert_eq!(first.step, 1);
    let words: Vec<&str> = first.options.iter().map(|o| o.option.as_str()).collect();
    assert_eq!(words, ["halt", "advance one move", "deploy to line"]);
    // The option taken is the one with the best margin.
    let chosen = first.options.iter().find(|o| o.chosen).unwrap();
    for option in &first.options {
        assert!(chosen.attacker_wins - chosen.defender_wins >= option.attacker_wins - option.defender_wins - 1e-12);
    }
    assert!(first.situation.starts_with("infantry in column"), "{}", first.situation);
}

#[test]
fn a_routing_defender_leaves_the_attacker_the_choice_to_pursue() {
    // A defender that starts routing ("routing at the start") 3 bands away:
    // the attacker's first order is whether to pursue the mob.
    let played = assault(&[("turns", "2"), ("defender.routing", "true"), ("distance", "3")]);
    let explained = played.explain().unwrap();
    let first = explained.iter().find(|e| e.side == "attacker").unwrap();
    assert_eq!(first.decision, "pursue");
    let words: Vec<&str> = first.options.iter().map(|o| o.option.as_str()).collect();
    assert_eq!(words, ["hold the ground", "pursue"]);
    // Holding the ground is the chain's play, and cautious: pursuing does
    // at least as well for an attacker at its best.
    let best = margin(&played.exact_distribution().unwrap());
    let hold = margin(&exact(&[
        ("turns", "2"),
        ("defender.routing", "true"),
        ("distance", "3"),
        ("attacker.policy", "cautious"),
    ]));
    assert!(best >= hold - 1e-12);
}

#[test]
fn infantry_facing_cavalry_may_form_square_of_its_own_accord() {
    let cavalry = [("turns", "2"), ("attacker.arm", "cavalry"), ("attacker.formation", "line"), ("distance", "6")];
    let played = assault(&cavalry);
    let decisions: Vec<&str> = played.decisions().iter().map(|d| d.name).collect();
    assert_eq!(decisions, ["advance", "pursue", "bombard", "defend"]);
    // A defender at its best does at least as well as one that stays in line.
    let best = margin(&played.exact_distribution().unwrap());
    let mut staying = cavalry.to_vec();
    staying.push(("defender.policy", "bold"));
    assert!(best <= margin(&exact(&staying)) + 1e-12);
    let mut forming = cavalry.to_vec();
    forming.push(("defender.policy", "cautious"));
    assert!(best <= margin(&exact(&forming)) + 1e-12);
}

#[test]
fn the_default_assault_is_solved_under_best_play_and_beyond_the_solver_best_plays_bold() {
    // The default 30 turns: best play, solved, beats bold play for the
    // attacker (0.472623 - 0.190802 against 0.494241 - 0.501314, measured
    // with `solve_time huzzah assault`).
    let played = assault(&[]);
    let policies = played.policies().unwrap();
    assert_eq!((policies[0].asked, policies[0].played), (Policy::Best, Policy::Best));
    let best = played.exact_distribution().expect("solved at the default 30 turns");
    assert!((best.probability("winner", 0) - 0.472623).abs() < 5e-7, "{}", best.probability("winner", 0));
    assert!((best.probability("winner", 1) - 0.190802).abs() < 5e-7, "{}", best.probability("winner", 1));
    let bold = exact(&[("attacker.policy", "bold")]);
    assert!((bold.probability("winner", 0) - 0.494241).abs() < 5e-7, "{}", bold.probability("winner", 0));
    assert!(margin(&best) > margin(&bold));
    // Past the solver's limit best plays bold, sampled, and says so.
    let past = (BEST_TURN_LIMIT + 1).to_string();
    let fallen = assault(&[("turns", &past)]);
    let policies = fallen.policies().unwrap();
    assert_eq!((policies[0].asked, policies[0].played), (Policy::Best, Policy::Bold));
    assert!(!fallen.has_exact() && fallen.exact_distribution().is_none() && fallen.explain().is_none());
}

#[test]
fn an_assault_on_a_battery_is_solved_only_as_far_as_its_states_allow() {
    // A battery's states keep growing with the turns: best play is solved
    // for its first turns, the heuristics for a few more, and past them the
    // assault is sampled, a side asked for `best` playing bold, and says so.
    let battery = |turns: u32, policy: &str| {
        let turns = turns.to_string();
        assault(&[
            ("defender.arm", "artillery"),
            ("turns", &turns),
            ("attacker.policy", policy),
            ("defender.policy", policy),
        ])
    };
    let solved = battery(1, "best");
    assert!(solved.has_exact() && solved.exact_distribution().is_some() && solved.explain().is_some());
    let fallen = battery(BATTERY_BEST_TURN_LIMIT + 1, "best");
    let policies = fallen.policies().unwrap();
    assert_eq!((policies[1].asked, policies[1].played), (Policy::Best, Policy::Bold));
    // Its fallback, bold against bold, is within the heuristics' limit: exact.
    assert!(fallen.has_exact() && fallen.explain().is_none());
    assert!(battery(BATTERY_TURN_LIMIT, "bold").has_exact());
    let sampled = battery(BATTERY_TURN_LIMIT + 1, "bold");
    assert!(!sampled.has_exact() && sampled.exact_distribution().is_none());
}

#[test]
fn the_defender_takes_a_decision_only_where_it_has_one() {
    // At the defaults the line gives no order of its own, has no guns and
    // faces no cavalry: it stands, and says so rather than "best" (issue
    // 31). Cavalry attacking gives it the square; `defender.orders` its
    // own orders; a battery its fire or hold.
    let decides = |settings: &[(&str, &str)]| assault(settings).policies().unwrap().map(|p| p.decides);
    assert_eq!(decides(&[]), [true, false]);
    assert_eq!(decides(&[("attacker.arm", "cavalry"), ("turns", "2")]), [true, true]);
    assert_eq!(decides(&[("defender.orders", "true"), ("turns", "2")]), [true, true]);
    assert_eq!(decides(&[("defender.arm", "artillery"), ("turns", "1")]), [true, true]);
    // Its policy then changes nothing: the same law under every policy.
    let law = |policy: &str| assault(&[("defender.policy", policy), ("turns", "4")]).exact_distribution().unwrap();
    assert_eq!(law("best"), law("bold"));
    assert_eq!(law("best"), law("cautious"));
    // Its policy and objective are named as not read here.
    let unread: Vec<String> = assault(&[]).unread_keys().into_iter().map(|(key, _)| key).collect();
    assert!(unread.contains(&"defender.policy".into()) && unread.contains(&"defender.objective".into()), "{unread:?}");
    let deciding: Vec<String> =
        assault(&[("defender.orders", "true"), ("turns", "2")]).unread_keys().into_iter().map(|(key, _)| key).collect();
    assert!(!deciding.contains(&"defender.policy".into()), "{deciding:?}");
}

#[test]
fn cavalry_giving_its_own_orders_is_promised_exact_only_where_it_solves() {
    // Cavalry defending under `defender.orders` passes the state budget at
    // 3 turns (1.2 GB, no exact law), so the game says so up front rather
    // than promising an exact law and failing after seconds of work (issue
    // 30 item 7); 2 turns solve.
    let cavalry = |turns: &str| assault(&[("defender.arm", "cavalry"), ("defender.orders", "true"), ("turns", turns)]);
    let fallen = cavalry("3");
    let policies = fallen.policies().unwrap();
    assert!(policies.iter().all(|p| p.asked == Policy::Best && p.played != Policy::Best), "{policies:?}");
    // Whatever it promises of its fallback, it keeps.
    assert_eq!(fallen.has_exact(), fallen.exact_distribution().is_some());
    let solved = cavalry("2");
    assert!(solved.has_exact() && solved.exact_distribution().is_some());
}

#[test]
fn a_start_distance_sweep_under_best_play_has_no_jump_a_player_would_avoid() {
    // Best play over 3 turns, from 1 to 12 bands: each win chance moves by
    // under 10 points between neighbouring distances (the largest step, 3
    // to 4 bands, is the defender's 14.1% to 5.0%: from 3 bands the column
    // starts inside the line's threat zone and tests).
    let turns = "3".to_string();
    let mut last: Option<[f64; 2]> = None;
    for distance in 1..=12 {
        let distance = distance.to_string();
        let law = exact(&[("turns", &turns), ("distance", &distance)]);
        let now = [law.probability("winner", 0), law.probability("winner", 1)];
        if let Some(before) = last {
            for side in 0..2 {
                assert!((now[side] - before[side]).abs() < 0.10, "{distance} bands: {before:?} -> {now:?}");
            }
        }
        last = Some(now);
    }
}

#[test]
fn a_start_distance_sweep_over_the_default_30_turns_is_flat_beyond_the_threat_zone() {
    // Best play over the default 30 turns (measured with `solve_time huzzah
    // assault distance=D`): from 1 to 3 bands, inside the line's 3-band
    // threat zone, the attacker wins 39.6% and the defender 27.7%; from 4
    // bands on 47.3% and 19.1%, to within 0.1 point however far: the column
    // halts where it likes and advances when it is ready, so the start
    // distance stops mattering. The largest step, 3 to 4 bands, is 8.6
    // points (the defender's). Past 4 bands every distance is checked
    // against the same figures to 0.1 point, so a few far apart suffice
    // (each is a default-size solve).
    let mut last: Option<[f64; 2]> = None;
    for distance in [2, 3, 4, 6, 9, 12] {
        let law = exact(&[("distance", &distance.to_string())]);
        let now = [law.probability("winner", 0), law.probability("winner", 1)];
        if distance == 3 {
            assert!((now[0] - 0.396438).abs() < 5e-7 && (now[1] - 0.277332).abs() < 5e-7, "{now:?}");
        }
        if distance >= 4 {
            assert!((now[0] - 0.4726).abs() < 1e-3 && (now[1] - 0.1910).abs() < 1e-3, "{distance} bands: {now:?}");
        }
        if let Some(before) = last {
            for side in 0..2 {
                assert!((now[side] - before[side]).abs() < 0.10, "{distance} bands: {before:?} -> {now:?}");
            }
        }
        last = Some(now);
    }
}

#[test]
fn the_retired_fire_key_points_to_the_defenders_policy() {
    let huzzah = catalogue::ruleset("huzzah").unwrap();
    let rules = (huzzah.default_rules)();
    let refused = huzzah
        .scenario("assault")
        .unwrap()
        .build_from_text(rules.as_ref(), [("defender.fire", "short")])
        .err()
        .expect("refused");
    assert!(refused.to_string().contains("did you mean `defender.policy`?"), "{refused}");
}

#[test]
fn a_column_facing_cavalry_may_deploy_where_an_advance_cannot_be_ordered() {
    // "Down 2 if infantry ordered to advance on cavalry" binds advance
    // orders only. A Trained column with an abysmal officer (6, Up 1 in
    // command) 5 bands from cavalry (inside its 5-band zone): an advance at
    // 6 + 1 - 1 - 2 = 4, a deploy at 6; after one order each is Down 1
    // more. So on its first order both are offered, and best play beats
    // both heuristics; Monte Carlo follows the solved table.
    let settings = [
        ("turns", "2"),
        ("defender.arm", "cavalry"),
        ("defender.formation", "line"),
        ("attacker.rating", "6"),
        ("distance", "5"),
    ];
    let played = assault(&settings);
    let explained = played.explain().expect("solved at 2 turns");
    let first = explained.iter().find(|e| e.side == "attacker").expect("the attacker decides");
    let words: Vec<&str> = first.options.iter().map(|o| o.option.as_str()).collect();
    assert_eq!(words, ["halt", "advance one move", "deploy to line"]);
    let best = margin(&exact(&settings));
    for policy in ["bold", "cautious"] {
        let mut with_policy = settings.to_vec();
        with_policy.push(("attacker.policy", policy));
        let heuristic = margin(&exact(&with_policy));
        assert!(best >= heuristic - 1e-12, "best {best} < {policy} {heuristic}");
    }
    assert_agrees(played.as_ref(), 400_000, 73);
}

#[test]
fn a_cavalry_against_cavalry_sweep_under_best_play_has_no_jump_a_player_would_avoid() {
    // Cavalry in line against cavalry in line, best play over 2 turns, from
    // 1 to 12 bands: each win chance moves by under 10 points between
    // neighbouring distances (measured: the attacker 11.3%, 13.0% from 2 to
    // 5 bands, 10.6% from 6 to 10, 6.4% at 11 and 12; the largest step is
    // the defender's 5.3% to 2.1% from 5 to 6 bands, where the attacker
    // starts outside the defender's 5-band zone and takes no threat test).
    // The flat stretches are the cavalry's 5-band move: from 2 to 5 bands
    // one order reaches contact, from 6 to 10 two.
    let mut last: Option<[f64; 2]> = None;
    for distance in 1..=12 {
        let distance = distance.to_string();
        let law = exact(&[
            ("turns", "2"),
            ("distance", &distance),
            ("attacker.arm", "cavalry"),
            ("attacker.formation", "line"),
            ("defender.arm", "cavalry"),
            ("defender.formation", "line"),
        ]);
        let now = [law.probability("winner", 0), law.probability("winner", 1)];
        if let Some(before) = last {
            for side in 0..2 {
                assert!((now[side] - before[side]).abs() < 0.10, "{distance} bands: {before:?} -> {now:?}");
            }
        }
        last = Some(now);
    }
}

#[test]
fn the_solver_is_promised_only_where_it_answers() {
    // An assault on cavalry or with the attacker's command checks passes
    // the state budget within a few turns (issue 30: `--exact` failed after
    // 18 s and 1.1 GB at the defaults' 30 turns). The scenario says so
    // before any solve, so `volley list` names those keys and a sampled run
    // never pays for a failed solve; within the limits the solver answers.
    for (key, value, limit) in [("defender.arm", "cavalry", "3"), ("attacker.brigade", "2", "5")] {
        assert!(!assault(&[(key, value)]).has_exact(), "{key}={value} at 30 turns");
        let short = assault(&[(key, value), ("turns", "2")]);
        assert!(short.has_exact() && short.exact_is_cheap(), "{key}={value} at 2 turns");
        assert!(short.exact_distribution().is_some());
        assert!(assault(&[(key, value), ("turns", limit)]).has_exact(), "{key}={value} at {limit} turns");
    }
    // The defender's command checks solve, but slowly: exact only when asked.
    let checked = assault(&[("defender.brigade", "2")]);
    assert!(checked.has_exact() && !checked.exact_is_cheap());
}

#[test]
fn the_attackers_partial_advance_ends_the_cavalrys_zig_zag_with_the_start_distance() {
    // Cavalry in line on a Trained line over the default 30 turns, best
    // play (manoeuvre): before the partial advance the defender won 0.3%
    // from 10 bands and 12.7% from 11 (only from 4-5 bands, mod 5, could
    // the cavalry stop outside the line's 3-band zone with the line inside
    // its own 5-band zone). Now from 11 it advances 5 bands and then 2,
    // short of the zone, where from 10 it advances 5 to 5: both about 3.0%
    // (measured with `purposes huzzah assault attacker.arm=cavalry
    // attacker.formation=line distance=D`), a step of under a point.
    let cavalry =
        |distance: &str| exact(&[("attacker.arm", "cavalry"), ("attacker.formation", "line"), ("distance", distance)]);
    let (ten, eleven) = (cavalry("10"), cavalry("11"));
    for law in [&ten, &eleven] {
        assert!((law.probability("winner", 1) - 0.030).abs() < 0.001, "{}", law.probability("winner", 1));
    }
    for side in 0..2 {
        let step = (ten.probability("winner", side) - eleven.probability("winner", side)).abs();
        assert!(step < 0.03, "side {side}: {step}");
    }
}

#[test]
fn best_play_with_the_attackers_every_order_beats_each_heuristic_and_monte_carlo_follows() {
    // A column on cavalry (its square re-forms), with the retire, and
    // cavalry on a line with every order (partial advances of each band,
    // retires, deploys between line and column), over 2 turns: best play
    // does at least as well as either heuristic, and the sampler, which
    // follows the solved table, agrees with the exact law.
    let on_cavalry = [("turns", "2"), ("defender.arm", "cavalry"), ("distance", "6"), ("attacker.retire", "true")];
    let best = margin(&exact(&on_cavalry));
    for policy in ["bold", "cautious"] {
        let mut heuristic = on_cavalry.to_vec();
        heuristic.push(("attacker.policy", policy));
        let heuristic = margin(&exact(&heuristic));
        assert!(best >= heuristic - 1e-12, "best {best} < {policy} {heuristic}");
    }
    assert_agrees(assault(&on_cavalry).as_ref(), 200_000, 81);
    let every = [
        ("turns", "2"),
        ("attacker.arm", "cavalry"),
        ("attacker.formation", "line"),
        ("distance", "7"),
        ("attacker.every_order", "true"),
    ];
    let played = assault(&every);
    let first = played.explain().expect("solved at 2 turns");
    let first = first.iter().find(|e| e.decision == "advance").expect("the attacker orders");
    let words: Vec<&str> = first.options.iter().map(|o| o.option.as_str()).collect();
    assert_eq!(
        words,
        [
            "halt",
            "advance one move",
            "deploy to column",
            "advance 3 bands",
            "advance 2 bands",
            "advance 1 band",
            "retire 1 band",
            "retire 2 bands"
        ]
    );
    let mut default = every.to_vec();
    default.pop();
    // More options never hurt the side that has them.
    assert!(margin(&played.exact_distribution().unwrap()) >= margin(&exact(&default)) - 1e-12);
    assert_agrees(played.as_ref(), 200_000, 82);
    // Past its 2 turns `every_order` is sampled, best playing bold.
    let mut longer = every.to_vec();
    longer[0] = ("turns", "3");
    assert!(!assault(&longer).has_exact());
}

#[test]
fn the_defenders_successive_orders_best_play_beats_each_heuristic_and_monte_carlo_follows() {
    // Cavalry on a line over 2 turns with `defender.orders`: the line may
    // order again after each order that passes (Down 1 for each before it,
    // "Successive orders"), and on a Huzzah! give a free order of any type
    // (retire out of the cavalry's zone and form square, say). Best play
    // for the defender does at least as well as either heuristic, and the
    // sampler agrees with the exact law under each policy, on one thread
    // and two alike.
    let on = [("turns", "2"), ("attacker.arm", "cavalry"), ("defender.orders", "true")];
    let best = margin(&exact(&on));
    for policy in ["bold", "cautious"] {
        let mut heuristic = on.to_vec();
        heuristic.push(("defender.policy", policy));
        // The defender minimises the attacker's margin.
        let heuristic_margin = margin(&exact(&heuristic));
        assert!(best <= heuristic_margin + 1e-12, "best {best} > {policy} {heuristic_margin}");
        assert_agrees(assault(&heuristic).as_ref(), 100_000, 84);
    }
    let played = assault(&on);
    assert_agrees(played.as_ref(), 200_000, 83);
    let one = played.simulate(&RunOptions::new(50_000, 6).with_threads(1)).unwrap();
    let two = played.simulate(&RunOptions::new(50_000, 6).with_threads(2)).unwrap();
    assert_eq!(one, two);
}
