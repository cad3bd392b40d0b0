//! Points from play: the Bradley-Terry fit recovers strengths it generated
//! (sampled, within its errors; exact, to the digit), says when a ladder
//! cannot be fitted (a cycle), and runs every pairing of a scenario's kinds.

use crate::synthetic::{duel_entry, duel_rules};
use volley_analysis::balance::{Experiment, Solving};
use volley_analysis::points::{BAD_GAP, Pairing, fit, points};
use volley_kernel::dice::Dice;
use volley_kernel::runner::RunOptions;

/// The model's chances (attacker wins, draw, defender wins).
fn model(attacker: f64, defender: f64, edge: f64, draw: Option<f64>) -> [f64; 3] {
    let a = (attacker + edge).exp();
    let d = defender.exp();
    let t = draw.map_or(0.0, |tau| (tau + (attacker + edge + defender) / 2.0).exp());
    let z = a + d + t;
    [a / z, t / z, d / z]
}

fn kinds(names: &[&str]) -> Vec<String> {
    names.iter().map(|n| n.to_string()).collect()
}

const TRUE: [f64; 4] = [0.0, 0.7, -0.5, 1.2];
const EDGE: f64 = 0.3;
const DRAW: f64 = -0.9;

#[test]
fn a_sampled_ladder_from_the_model_gives_its_strengths_back_within_the_reported_errors() {
    let mut dice = Dice::seed_from_u64(2026);
    let fights = 3_000;
    let mut pairings = Vec::new();
    for a in 0..4 {
        for d in 0..4 {
            let [win, draw, _] = model(TRUE[a], TRUE[d], EDGE, Some(DRAW));
            let (mut w, mut t, mut l) = (0.0, 0.0, 0.0);
            for _ in 0..fights {
                let u = (dice.word() >> 11) as f64 / (1u64 << 53) as f64;
                if u < win {
                    w += 1.0
                } else if u < win + draw {
                    t += 1.0
                } else {
                    l += 1.0
                }
            }
            pairings.push(Pairing { attacker: a, defender: d, wins: w, draws: t, losses: l, exact: false });
        }
    }
    let fitted = fit(&kinds(&["a", "b", "c", "d"]), &pairings).unwrap();
    assert!(fitted.converged);
    let se = fitted.strength_se.clone().expect("sampled pairings have standard errors");
    assert_eq!(se[0], 0.0);
    for k in 1..4 {
        assert!(se[k] > 0.01 && se[k] < 0.1, "se {k}: {}", se[k]);
        assert!((fitted.strength[k] - TRUE[k]).abs() < 4.0 * se[k], "{k}: {} vs {}", fitted.strength[k], TRUE[k]);
    }
    assert!((fitted.attacker_edge - EDGE).abs() < 0.1, "{}", fitted.attacker_edge);
    assert!((fitted.draw.unwrap() - DRAW).abs() < 0.1, "{:?}", fitted.draw);
    // Sampled from the model itself, every pairing fits within sampling noise.
    assert!(fitted.misfits().is_empty(), "{:?}", fitted.misfits());
    let points = fitted.points();
    assert_eq!(points[0], 100.0);
    assert!((points[3] / 100.0 - TRUE[3].exp()).abs() < 0.2, "{points:?}");
}

#[test]
fn an_exact_ladder_from_the_model_is_fitted_to_the_digit_and_has_no_sampling_error() {
    let mut pairings = Vec::new();
    for a in 0..4 {
        for d in 0..4 {
            let [w, t, l] = model(TRUE[a], TRUE[d], EDGE, Some(DRAW));
            pairings.push(Pairing { attacker: a, defender: d, wins: w, draws: t, losses: l, exact: true });
        }
    }
    let fitted = fit(&kinds(&["a", "b", "c", "d"]), &pairings).unwrap();
    for k in 0..4 {
        assert!((fitted.strength[k] - TRUE[k]).abs() < 1e-7, "{k}: {}", fitted.strength[k]);
    }
    assert!((fitted.attacker_edge - EDGE).abs() < 1e-7 && (fitted.draw.unwrap() - DRAW).abs() < 1e-7);
    assert!(fitted.strength_se.is_none());
    assert!(fitted.largest_gap().1 < 1e-9);
    // Without draws the model is plain Bradley-Terry: P = π_a α / (π_a α + π_d).
    let no_draws: Vec<Pairing> = pairings
        .iter()
        .map(|p| {
            let [w, _, l] = model(TRUE[p.attacker], TRUE[p.defender], EDGE, None);
            Pairing { wins: w, draws: 0.0, losses: l, ..*p }
        })
        .collect();
    let plain = fit(&kinds(&["a", "b", "c", "d"]), &no_draws).unwrap();
    assert!(plain.draw.is_none());
    assert!((plain.strength[3] - 1.2).abs() < 1e-7 && (plain.attacker_edge - EDGE).abs() < 1e-7);
    let finding = plain.finding("kind");
    assert!(finding.starts_with("Points by kind: d 332, b 201, a 100, c 61."), "{finding}");
    assert!(finding.contains("within 0.0 points"), "{finding}");
}

#[test]
fn a_ladder_with_a_cycle_is_reported_as_one_no_strengths_describe() {
    // Rock beats scissors, scissors paper, paper rock: 90% each way, 50%
    // against itself. Any strengths put all three level, 40 points off.
    let beats = |a: usize, d: usize| -> f64 {
        match (a, d) {
            _ if a == d => 0.5,
            (0, 2) | (2, 1) | (1, 0) => 0.9,
            _ => 0.1,
        }
    };
    let mut pairings = Vec::new();
    for a in 0..3 {
        for d in 0..3 {
            let w = beats(a, d);
            pairings.push(Pairing { attacker: a, defender: d, wins: w, draws: 0.0, losses: 1.0 - w, exact: true });
        }
    }
    let empty = Pairing { attacker: 0, defender: 1, wins: 0.0, draws: 0.0, losses: 0.0, exact: true };
    assert!(fit(&kinds(&["rock", "paper", "scissors"]), &[empty]).is_err(), "a pairing with no fights");
    assert!(fit(&kinds(&["rock"]), &pairings).is_err(), "one kind");
    let fitted = fit(&kinds(&["rock", "paper", "scissors"]), &pairings).unwrap();
    assert!(fitted.strength.iter().all(|s| s.abs() < 1e-6), "{:?}", fitted.strength);
    assert_eq!(fitted.misfits().len(), 6);
    assert!((fitted.largest_gap().1 - 0.4).abs() < 1e-6);
    let finding = fitted.finding("kind");
    assert!(
        finding.contains(&format!("The model fits 3 of 9 pairings within {:.0} points", BAD_GAP * 100.0)),
        "{finding}"
    );
    assert!(finding.contains("rock attacking paper, is 40.0 points off (measured 10.0%, model 50.0%)"), "{finding}");
}

#[test]
fn points_run_every_pairing_of_a_scenarios_kinds() {
    // The synthetic duel: each grade's figures are worth 3, 2 and 1, so
    // the points rank veteran over trained over green, and the attacker's
    // role is worth nothing (its chance is 2A / (2A + 2D + 1)).
    let experiment = Experiment::from_parts("synthetic", &duel_entry(), duel_rules(), RunOptions::new(1000, 1))
        .with_solving(Solving::Always);
    let found = points(&experiment, "quality", None).unwrap();
    assert_eq!(found.fit.kinds, ["veteran", "trained", "green"]);
    assert_eq!(found.runs.len(), 9);
    let p = found.fit.points();
    assert!(p[0] > p[1] && p[1] > p[2], "{p:?}");
    assert!(found.fit.attacker_edge.abs() < 0.1, "{}", found.fit.attacker_edge);
    assert_eq!(
        found.runs[5].keys,
        [
            ("attacker.quality".to_string(), "trained".to_string()),
            ("defender.quality".to_string(), "green".to_string())
        ]
    );
    assert!(found.finding().starts_with("Points by quality: veteran 100,"), "{}", found.finding());
}
