//! Points from play: one strength per unit kind, fitted to every pairing of
//! the kinds in a scenario, and a points table where equal points give as
//! near an even fight as the model allows.
//!
//! # The model
//!
//! Bradley-Terry with draws (Davidson, 1970) and an edge for the side in the
//! attacker's role (as a home advantage is fitted in sports ratings): when
//! kind `i` attacks kind `j`, with strengths `π_i`, `π_j`, the attacker's
//! edge `α` and the draw parameter `ν`,
//!
//! ```text
//! P(attacker wins) = α π_i / Z,   P(defender wins) = π_j / Z,
//! P(neither)       = ν √(α π_i π_j) / Z,   Z = the sum of the three numerators.
//! ```
//!
//! A fight that ends with no winner (a draw, a turn limit) is a draw. With
//! no draw in any pairing, `ν` is left out (plain Bradley-Terry). In logs
//! (`θ = ln π`, `h = ln α`, `τ = ln ν`) each outcome's log-numerator is
//! linear in the parameters, so the log-likelihood is a sum of linear terms
//! less log-sum-exps: concave, with one maximum where it has one at all, and
//! Newton's method with step halving finds it in a few steps. That is why
//! this module writes its own Newton iteration (a handful of parameters, an
//! analytic gradient and Hessian) rather than taking an optimisation crate:
//! nalgebra, already in the tree through statrs, does the linear algebra
//! (the Newton step's solve and the covariance's inverse).
//!
//! The first kind listed has `θ = 0` (its points are the scale's 100).
//!
//! # How far to trust it
//!
//! Points mean something only where the model fits: the largest gap
//! between a pairing's measured chance of an attacker's win and the
//! model's, and every pairing past [`BAD_GAP`], are reported. A ladder with
//! a cycle (rock beats scissors beats paper beats rock) cannot be fitted by
//! any strengths, and shows as large gaps: a finding, not an error.
//! Standard errors come from the inverse of the Hessian where the pairings
//! were sampled (the counts are real); where every pairing was solved
//! exactly there is no sampling error to report, and the gap alone says how
//! far the numbers hold.

use crate::AnalysisError;
use crate::balance::{Experiment, Measure, capitalised, frame_of, side_by_side};
use crate::frame::Run;
use nalgebra::{DMatrix, DVector};
use polars::prelude::*;
use volley_kernel::outcome::{Distribution, Domain};

/// A pairing whose measured chance is this far (or farther) from the
/// model's breaks the model; the finding names it.
pub const BAD_GAP: f64 = 0.05;
/// The points of the first kind listed.
pub const SCALE: f64 = 100.0;
/// Newton steps before the fit gives up (a kind that wins or loses every
/// pairing has no finite strength).
const MAX_STEPS: usize = 100;

/// One pairing's outcomes: wins, draws and losses of the attacker, as
/// counts (sampled) or as probabilities times a weight (exact).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pairing {
    /// The attacking kind (an index into the kinds).
    pub attacker: usize,
    /// The defending kind.
    pub defender: usize,
    /// The attacker's wins.
    pub wins: f64,
    /// Fights with no winner.
    pub draws: f64,
    /// The defender's wins.
    pub losses: f64,
    /// Whether the outcomes are an exact law (then there is no sampling error).
    pub exact: bool,
}

impl Pairing {
    /// The fights behind it.
    pub fn total(&self) -> f64 {
        self.wins + self.draws + self.losses
    }

    /// The measured chance of an attacker's win.
    pub fn win_share(&self) -> f64 {
        self.wins / self.total()
    }
}

/// A fitted points table.
#[derive(Clone, Debug)]
pub struct Fit {
    /// The kinds, in the order given.
    pub kinds: Vec<String>,
    /// `ln π` of each kind (the first's is 0).
    pub strength: Vec<f64>,
    /// Each strength's standard error, where the pairings were sampled.
    pub strength_se: Option<Vec<f64>>,
    /// `ln α`, the attacker's role edge.
    pub attacker_edge: f64,
    /// `ln ν`, where some pairing had a draw.
    pub draw: Option<f64>,
    /// The pairings fitted.
    pub pairings: Vec<Pairing>,
    /// The model's chance of an attacker's win in each pairing.
    pub model_wins: Vec<f64>,
    /// Whether Newton's method converged (it does not where a kind wins or
    /// loses every fight).
    pub converged: bool,
}

impl Fit {
    /// Each kind's points: [`SCALE`] times its strength over the first kind's.
    pub fn points(&self) -> Vec<f64> {
        self.strength.iter().map(|t| SCALE * t.exp()).collect()
    }

    /// The largest gap between a pairing's measured and modelled chance of
    /// an attacker's win, with the pairing's index.
    pub fn largest_gap(&self) -> (usize, f64) {
        self.pairings
            .iter()
            .zip(&self.model_wins)
            .map(|(p, m)| (p.win_share() - m).abs())
            .enumerate()
            .fold((0, 0.0), |best, (k, gap)| if gap > best.1 { (k, gap) } else { best })
    }

    /// The pairings whose gap is [`BAD_GAP`] or more.
    pub fn misfits(&self) -> Vec<usize> {
        (0..self.pairings.len())
            .filter(|&k| (self.pairings[k].win_share() - self.model_wins[k]).abs() >= BAD_GAP)
            .collect()
    }

    /// The model's chance that `attacker` beats `defender`, and of a draw.
    pub fn predict(&self, attacker: usize, defender: usize) -> (f64, f64) {
        let (win, draw, loss) =
            outcome_weights(self.strength[attacker] + self.attacker_edge, self.strength[defender], self.draw);
        let z = win + draw + loss;
        (win / z, draw / z)
    }

    /// The points table in a few plain sentences.
    pub fn finding(&self, subject: &str) -> String {
        let points = self.points();
        let mut order: Vec<usize> = (0..self.kinds.len()).collect();
        order.sort_by(|a, b| points[*b].total_cmp(&points[*a]));
        let listed: Vec<String> =
            order.iter().map(|&k| format!("{} {}", self.kinds[k], round_points(points[k]))).collect();
        let mut text = format!("Points by {subject}: {}.", listed.join(", "));
        if !self.converged {
            text.push_str(
                " The fit did not settle: some kind wins or loses (nearly) every fight, so no finite strength \
                 describes it; read the points as a ranking only.",
            );
        }
        let (worst, gap) = self.largest_gap();
        let misfits = self.misfits();
        let p = &self.pairings[worst];
        if misfits.is_empty() {
            text.push_str(&format!(
                " The model fits every pairing within {:.1} points of the measured chance of an attacker's win \
                 (worst: {} attacking {}).",
                gap * 100.0,
                self.kinds[p.attacker],
                self.kinds[p.defender]
            ));
        } else {
            text.push_str(&format!(
                " The model fits {} of {} pairings within {:.0} points of the measured chance of an attacker's win; \
                 the worst, {} attacking {}, is {:.1} points off (measured {:.1}%, model {:.1}%), so one number a \
                 kind does not describe every pairing (the pairings table lists them).",
                self.pairings.len() - misfits.len(),
                self.pairings.len(),
                BAD_GAP * 100.0,
                self.kinds[p.attacker],
                self.kinds[p.defender],
                gap * 100.0,
                p.win_share() * 100.0,
                self.model_wins[worst] * 100.0
            ));
        }
        text.push_str(&format!(
            " Attacking is worth a factor of {:.2} in strength here (equal kinds: the attacker wins {:.1}%).",
            self.attacker_edge.exp(),
            self.predict(0, 0).0 * 100.0
        ));
        text
    }

    /// One row per kind: points, strength, its standard error.
    pub fn frame(&self) -> PolarsResult<DataFrame> {
        frame_of(vec![
            Column::new("kind".into(), self.kinds.clone()),
            Column::new("points".into(), self.points().iter().map(|p| round_points(*p) as f64).collect::<Vec<_>>()),
            Column::new("strength".into(), self.strength.clone()),
            Column::new(
                "strength_se".into(),
                self.strength_se.clone().map_or(vec![None; self.kinds.len()], |se| se.into_iter().map(Some).collect()),
            ),
        ])
    }

    /// One row per pairing: measured and modelled chance of an attacker's win.
    pub fn pairings_frame(&self) -> PolarsResult<DataFrame> {
        let name = |k: usize| self.kinds[k].clone();
        frame_of(vec![
            Column::new("attacker".into(), self.pairings.iter().map(|p| name(p.attacker)).collect::<Vec<_>>()),
            Column::new("defender".into(), self.pairings.iter().map(|p| name(p.defender)).collect::<Vec<_>>()),
            Column::new(
                "measured".into(),
                self.pairings.iter().map(|p| format!("{:.1}%", 100.0 * p.win_share())).collect::<Vec<_>>(),
            ),
            Column::new(
                "model".into(),
                self.model_wins.iter().map(|m| format!("{:.1}%", 100.0 * m)).collect::<Vec<_>>(),
            ),
            Column::new(
                "gap".into(),
                self.pairings
                    .iter()
                    .zip(&self.model_wins)
                    .map(|(p, m)| format!("{:+.1}", 100.0 * (p.win_share() - m)))
                    .collect::<Vec<_>>(),
            ),
        ])
    }
}

/// Points as a person would print them: whole numbers, to two significant
/// figures past 100.
pub fn round_points(points: f64) -> i64 {
    if points >= 1000.0 { (points / 10.0).round() as i64 * 10 } else { points.round() as i64 }
}

/// The three outcomes' unnormalised weights from the attacker's and the
/// defender's log-strengths (the edge included in the attacker's).
fn outcome_weights(attacker: f64, defender: f64, draw: Option<f64>) -> (f64, f64, f64) {
    // Scaled by the larger strength, so that large strengths never overflow.
    let top = attacker.max(defender);
    let (a, d) = ((attacker - top).exp(), (defender - top).exp());
    let t = draw.map_or(0.0, |tau| (tau + (attacker + defender) / 2.0 - top).exp());
    (a, t, d)
}

/// Fits strengths to `pairings` over `kinds` by maximum likelihood.
pub fn fit(kinds: &[String], pairings: &[Pairing]) -> Result<Fit, AnalysisError> {
    let k = kinds.len();
    if k < 2 {
        return Err(AnalysisError::Invalid("points need two kinds at least".to_string()));
    }
    if pairings.iter().any(|p| p.attacker >= k || p.defender >= k || p.total().is_nan() || p.total() <= 0.0) {
        return Err(AnalysisError::Invalid("every pairing needs two known kinds and some fights".to_string()));
    }
    let draws = pairings.iter().any(|p| p.draws > 0.0);
    // Parameters: θ_1..θ_{k-1} (θ_0 = 0), h, then τ where there are draws.
    let n = k - 1 + 1 + usize::from(draws);
    let edge = k - 1;
    let tau = draws.then_some(k);
    // Each outcome's coefficient vector over the parameters.
    let coefficients = |p: &Pairing| -> [DVector<f64>; 3] {
        let mut win = DVector::zeros(n);
        let mut loss = DVector::zeros(n);
        if p.attacker > 0 {
            win[p.attacker - 1] += 1.0;
        }
        win[edge] += 1.0;
        if p.defender > 0 {
            loss[p.defender - 1] += 1.0;
        }
        let mut draw = (&win + &loss) * 0.5;
        if let Some(t) = tau {
            draw[t] = 1.0;
        }
        [win, draw, loss]
    };
    let prepared: Vec<([DVector<f64>; 3], [f64; 3])> =
        pairings.iter().map(|p| (coefficients(p), [p.wins, p.draws, p.losses])).collect();
    // Without draws, the draw outcome has no weight at all.
    let indices: &[usize] = if draws { &[0, 1, 2] } else { &[0, 2] };
    let evaluate = |x: &DVector<f64>| -> (f64, DVector<f64>, DMatrix<f64>) {
        let mut value = 0.0;
        let mut gradient = DVector::zeros(n);
        let mut hessian = DMatrix::zeros(n, n);
        for (c, counts) in &prepared {
            let eta: Vec<f64> = c.iter().map(|ci| ci.dot(x)).collect();
            let top = indices.iter().map(|&o| eta[o]).fold(f64::NEG_INFINITY, f64::max);
            let z: f64 = indices.iter().map(|&o| (eta[o] - top).exp()).sum();
            let total: f64 = indices.iter().map(|&o| counts[o]).sum();
            let mut mean = DVector::zeros(n);
            for &o in indices {
                let p = (eta[o] - top).exp() / z;
                value += counts[o] * (eta[o] - top - z.ln());
                gradient += &c[o] * counts[o];
                mean += &c[o] * p;
                hessian -= &c[o] * c[o].transpose() * (total * p);
            }
            gradient -= &mean * total;
            hessian += &mean * mean.transpose() * total;
        }
        (value, gradient, hessian)
    };
    let mut x = DVector::zeros(n);
    let (mut value, mut gradient, mut hessian) = evaluate(&x);
    let scale: f64 = pairings.iter().map(Pairing::total).sum();
    let mut converged = false;
    for _ in 0..MAX_STEPS {
        if gradient.amax() <= 1e-10 * scale.max(1.0) {
            converged = true;
            break;
        }
        // The Hessian is negative semi-definite; a tiny ridge keeps the
        // solve defined where a kind's strength runs off to infinity.
        let negative = -&hessian + DMatrix::identity(n, n) * 1e-12 * scale.max(1.0);
        let Some(step) = negative.clone().cholesky().map(|c| c.solve(&gradient)) else { break };
        let mut length = 1.0;
        loop {
            let candidate = &x + &step * length;
            let (v, g, h) = evaluate(&candidate);
            if v >= value - 1e-12 * scale.max(1.0) || length < 1e-8 {
                x = candidate;
                (value, gradient, hessian) = (v, g, h);
                break;
            }
            length /= 2.0;
        }
    }
    let sampled = pairings.iter().all(|p| !p.exact);
    let strength_se = if sampled && converged {
        (-&hessian).try_inverse().map(|cov| {
            let mut se = vec![0.0];
            se.extend((0..k - 1).map(|i| cov[(i, i)].max(0.0).sqrt()));
            se
        })
    } else {
        None
    };
    let mut strength = vec![0.0];
    strength.extend((0..k - 1).map(|i| x[i]));
    let mut fitted = Fit {
        kinds: kinds.to_vec(),
        strength,
        strength_se,
        attacker_edge: x[edge],
        draw: tau.map(|t| x[t]),
        pairings: pairings.to_vec(),
        model_wins: Vec::new(),
        converged,
    };
    fitted.model_wins = pairings.iter().map(|p| fitted.predict(p.attacker, p.defender).0).collect();
    Ok(fitted)
}

/// A pairing from a run's law: the attacker's wins, the defender's, and
/// the rest as draws, read from the `winner` (or `result`) metric; exact
/// laws count `weight` fights.
pub fn pairing_of(
    attacker: usize,
    defender: usize,
    law: &Distribution,
    measure: &Measure,
    weight: f64,
) -> Result<Pairing, AnalysisError> {
    let (index, _) = measure.check(&law.metrics)?;
    let metric = law.metrics[index];
    let Domain::Categories(labels) = metric.domain else {
        return Err(AnalysisError::Invalid(format!("metric `{}` does not name a winner", metric.name)));
    };
    let (mut wins, mut draws, mut losses) = (0.0, 0.0, 0.0);
    let samples = law.samples();
    for row in law.marginal(index) {
        let amount = match samples {
            Some(_) => row.count as f64,
            None => row.probability * weight,
        };
        match labels.get(row.value as usize).copied() {
            Some("attacker") => wins += amount,
            Some("defender") => losses += amount,
            _ => draws += amount,
        }
    }
    Ok(Pairing { attacker, defender, wins, draws, losses, exact: samples.is_none() })
}

/// The fights an exact law stands for in the fit: enough that the
/// likelihood's curvature is well scaled; the points do not depend on it.
pub const EXACT_WEIGHT: f64 = 10_000.0;

/// Points for the kinds of one key a side has (`quality` sets
/// `attacker.quality` and `defender.quality`): every kind attacks every
/// kind, and the strengths are fitted to all the pairings.
#[derive(Clone, Debug)]
pub struct Points {
    /// The side-less key (`quality`, `figures`).
    pub key: String,
    /// The fit.
    pub fit: Fit,
    /// Every run, attacker kind by defender kind.
    pub runs: Vec<Run>,
}

/// Runs every pairing of `values` of `attacker.KEY` against `defender.KEY`
/// and fits points to them.
pub fn points(experiment: &Experiment, key: &str, values: Option<&[String]>) -> Result<Points, AnalysisError> {
    let (attacker_key, defender_key) = (format!("attacker.{key}"), format!("defender.{key}"));
    let kinds: Vec<String> = match values {
        Some(given) => given.to_vec(),
        None => experiment.choices(&attacker_key)?,
    };
    let measure = Measure::attacker_wins(&experiment.metrics()?).ok_or_else(|| {
        AnalysisError::Invalid(format!(
            "scenario `{}` has neither a `winner` nor a `result` metric to fit points to",
            experiment.scenario.name
        ))
    })?;
    let n = kinds.len();
    let outcomes = side_by_side(n * n, experiment.options.threads, |k| {
        experiment.run(&[(attacker_key.clone(), kinds[k / n].clone()), (defender_key.clone(), kinds[k % n].clone())])
    });
    let mut runs = Vec::with_capacity(n * n);
    let mut pairings = Vec::with_capacity(n * n);
    for (k, outcome) in outcomes.into_iter().enumerate() {
        let run = outcome?;
        pairings.push(pairing_of(k / n, k % n, &run.distribution, &measure, EXACT_WEIGHT)?);
        runs.push(run);
    }
    let fit = fit(&kinds, &pairings)?;
    Ok(Points { key: key.to_string(), fit, runs })
}

impl Points {
    /// The finding, naming the ruleset's key.
    pub fn finding(&self) -> String {
        capitalised(&self.fit.finding(&self.key))
    }
}
