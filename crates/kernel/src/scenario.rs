//! What a scenario is: an immutable, validated value that draws one outcome code
//! from dice, says how codes split into metrics, and may know its exact answer.

use crate::dice::Dice;
use crate::game::{Decision, Explained, PolicyUse};
use crate::outcome::{Distribution, Layout, Metric};
use crate::runner::{self, RunError, RunOptions};

/// A scenario: one test, one engagement, or a multi-turn fight.
///
/// Built by a validating constructor, then sampled many times from many
/// threads, so it is `Sync` and never changes. `sample` is the hot path: it
/// returns one `u64` outcome code, which the runner counts; codes are split into
/// metrics only at the end. Most scenarios encode their metrics with their
/// [`Layout`]; one whose outcome depends on a few dice may return a code of the
/// dice themselves and override [`code_space`](Scenario::code_space) and
/// [`decode`](Scenario::decode).
pub trait Scenario: Send + Sync {
    /// The metrics and their packing.
    fn layout(&self) -> &Layout;

    /// One sample's outcome code.
    fn sample(&self, dice: &mut Dice) -> u64;

    /// The number of distinct codes `sample` can return (a bound; codes at or
    /// above [`DENSE_LIMIT`](crate::outcome::DENSE_LIMIT) are counted sparsely).
    fn code_space(&self) -> u64 {
        self.layout().size()
    }

    /// The metric values of a code, in metric order.
    fn decode(&self, code: u64, values: &mut [i64]) {
        self.layout().decode(code, values);
    }

    /// Whether [`exact`](Scenario::exact) answers for these settings, known
    /// without solving: a solver may refuse states too large to enumerate.
    /// `volley list` and `--exact` ask this first; it must agree with
    /// `exact().is_some()`, which the catalogue tests check. It has no default
    /// so that no scenario's solver can be switched off by forgetting it.
    fn has_exact(&self) -> bool;

    /// The exact distribution over codes, where a solver exists.
    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        None
    }

    /// The decisions the players take in this scenario (none for a single
    /// test); see [`game`](crate::game).
    fn decisions(&self) -> &'static [&'static Decision] {
        &[]
    }

    /// Each side's policy as asked and as played, for a scenario with decisions.
    fn policies(&self) -> Option<[PolicyUse; 2]> {
        None
    }

    /// Each side's first decision with every option's value under best play,
    /// where the scenario has decisions and is solved.
    fn explain(&self) -> Option<Vec<Explained>> {
        None
    }

    /// Whether rule field `field` (named as `volley rules` prints it) may
    /// change this scenario's outcomes at its settings. `false` is a promise:
    /// built with any other value of that field, the scenario gives the same
    /// outcome codes from the same dice and the same exact law, to the bit
    /// (the field is never read, or read only where these settings never
    /// go: a howitzer's numbers where there is no howitzer). The default,
    /// `true`, promises nothing. The sensitivity study skips the fields a
    /// scenario does not read; the kernel's tests hold each promise to a
    /// change of every such field.
    fn reads_rule(&self, field: &str) -> bool {
        let _ = field;
        true
    }

    /// The keys this scenario does not read at its settings, each with the
    /// reason in a clause ("`attacker.shock`: shock is a cavalry's, and the
    /// attacker is infantry"): setting one changes nothing here, which the
    /// command line says beside the keys set. A key listed is a promise, like
    /// [`Scenario::reads_rule`]'s `false`.
    fn unread_keys(&self) -> Vec<(String, String)> {
        Vec::new()
    }

    /// What each side must achieve, for scenarios that are fights with a
    /// purpose ([`crate::game::Purpose`]).
    fn purpose(&self) -> Option<crate::game::Purpose> {
        None
    }

    /// Whether the exact answer at these settings comes quickly (within
    /// about two seconds on a two-core machine), so that it may be the
    /// default answer rather than sampling: answered without solving. A
    /// scenario whose solver slows sharply with its settings (strengths,
    /// turns) says no beyond what it solves quickly.
    fn exact_is_cheap(&self) -> bool {
        self.has_exact()
    }

    /// How much a side looking ahead ([`crate::game::Policy::Lookahead`])
    /// has reused its decisions in the fights sampled so far, where one does.
    fn lookahead_reuse(&self) -> Option<crate::game::MemoReuse> {
        None
    }
}

/// A scenario behind a pointer: what the catalogue hands out, so the CLI and
/// the analysis crate can run any scenario by name. The runner inside is still
/// compiled for each concrete scenario.
pub trait DynScenario: Send + Sync {
    /// The metrics, in order.
    fn metrics(&self) -> Vec<Metric>;
    /// A Monte Carlo distribution.
    fn simulate(&self, options: &RunOptions) -> Result<Distribution, RunError>;
    /// Whether the scenario has an exact solver for its settings (cheap).
    fn has_exact(&self) -> bool;
    /// The exact distribution, or `None` when this scenario has no solver.
    fn exact_distribution(&self) -> Option<Distribution>;
    /// The decisions its players take.
    fn decisions(&self) -> &'static [&'static Decision];
    /// Each side's policy as asked and as played (scenarios with decisions).
    fn policies(&self) -> Option<[PolicyUse; 2]>;
    /// Each side's first decision, every option valued under best play.
    fn explain(&self) -> Option<Vec<Explained>>;
    /// Whether rule field `field` may change the outcomes ([`Scenario::reads_rule`]).
    fn reads_rule(&self, field: &str) -> bool;
    /// The keys not read at these settings, with why ([`Scenario::unread_keys`]).
    fn unread_keys(&self) -> Vec<(String, String)>;
    /// What each side must achieve ([`Scenario::purpose`]).
    fn purpose(&self) -> Option<crate::game::Purpose>;
    /// Whether the exact answer comes quickly ([`Scenario::exact_is_cheap`]).
    fn exact_is_cheap(&self) -> bool;
    /// See [`Scenario::lookahead_reuse`].
    fn lookahead_reuse(&self) -> Option<crate::game::MemoReuse>;
}

impl<S: Scenario> DynScenario for S {
    fn metrics(&self) -> Vec<Metric> {
        self.layout().metrics().to_vec()
    }

    fn simulate(&self, options: &RunOptions) -> Result<Distribution, RunError> {
        let tally = runner::run(self, options)?;
        Ok(Distribution::from_tally(self.metrics(), &tally, |code, values| self.decode(code, values)))
    }

    fn has_exact(&self) -> bool {
        Scenario::has_exact(self)
    }

    fn exact_distribution(&self) -> Option<Distribution> {
        if !Scenario::has_exact(self) {
            return None;
        }
        let probabilities = self.exact()?;
        Some(Distribution::from_exact(self.metrics(), probabilities, |code, values| self.decode(code, values)))
    }

    fn decisions(&self) -> &'static [&'static Decision] {
        Scenario::decisions(self)
    }

    fn policies(&self) -> Option<[PolicyUse; 2]> {
        Scenario::policies(self)
    }

    fn explain(&self) -> Option<Vec<Explained>> {
        Scenario::explain(self)
    }

    fn reads_rule(&self, field: &str) -> bool {
        Scenario::reads_rule(self, field)
    }

    fn unread_keys(&self) -> Vec<(String, String)> {
        Scenario::unread_keys(self)
    }

    fn purpose(&self) -> Option<crate::game::Purpose> {
        Scenario::purpose(self)
    }

    fn exact_is_cheap(&self) -> bool {
        Scenario::exact_is_cheap(self)
    }

    fn lookahead_reuse(&self) -> Option<crate::game::MemoReuse> {
        Scenario::lookahead_reuse(self)
    }
}
