//! The scenario: a game and the policies its sides were asked to play.

use super::*;

/// What a side was asked to play and what it played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PolicyUse {
    /// The policy the keys asked for.
    pub asked: Policy,
    /// The policy played: `asked`, or the game's fallback where best play is
    /// beyond the solver.
    pub played: Policy,
    /// What the side maximises when it plays `best`.
    pub objective: Objective,
    /// Whether the side has any decision at these settings
    /// ([`Game::decides`]): where it has none, every step plays it one way
    /// and its policy changes nothing.
    pub decides: bool,
}

impl fmt::Display for PolicyUse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::params::Choice;
        if self.asked == self.played {
            write!(f, "{}", self.played.name())?;
        } else {
            write!(f, "{} (best play is beyond the solver here)", self.played.name())?;
        }
        if !self.decides {
            return write!(f, " (no decision at these settings: its policy changes nothing)");
        }
        if self.played == Policy::Best && self.objective != Objective::Margin {
            write!(f, ", objective {}", self.objective.name())?;
        }
        Ok(())
    }
}

/// A game played under a plan: a [`Scenario`] whose sampler, exact
/// distribution and best play all come from the one description.
///
/// Its metrics are the game's with `ended` ([`ENDED_METRIC`]) after them:
/// an outcome code is the game's code times the number of [`ENDED`]
/// labels plus the ending's index.
pub struct Played<G: Game> {
    game: G,
    plan: Plan,
    layout: Layout,
    solution: OnceLock<Option<Solution<G::State>>>,
    /// The decisions of a side looking ahead, kept for every fight.
    memo: Memo<G::State>,
}

impl<G: Game> fmt::Debug for Played<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Played").field("plan", &self.plan).finish_non_exhaustive()
    }
}

impl<G: Game> Played<G> {
    /// `game` under `plan`.
    pub fn new(game: G, plan: Plan) -> Played<G> {
        let mut metrics = game.layout().metrics().to_vec();
        metrics.push(ENDED_METRIC);
        Played { layout: Layout::new(metrics), game, plan, solution: OnceLock::new(), memo: Memo::new() }
    }

    /// The game.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The plan played: the plan asked for, or, where its best play is
    /// beyond the solver, the plan with the game's fallback for `best`.
    pub(super) fn effective_plan(&self) -> Plan {
        // A side that looks ahead is sampled, so the other side's best play
        // cannot be solved against it: it plays the fallback too (a game
        // that offers `lookahead` refuses the pair where best play solves).
        if self.plan.wants_solver() && (self.plan.looks_ahead() || !self.game.solvable(self.plan)) {
            self.plan.without_best(self.game.fallback())
        } else {
            self.plan
        }
    }

    /// The solved table of the plan played, once; `None` beyond the solver.
    pub(super) fn solution(&self) -> Option<&Solution<G::State>> {
        self.solution
            .get_or_init(|| {
                let plan = self.effective_plan();
                if !plan.looks_ahead() && self.game.solvable(plan) { Solution::solve(&self.game, plan) } else { None }
            })
            .as_ref()
    }

    /// The plan sampling follows: `best` where solved, else the fallback.
    pub(super) fn sampled_plan(&self) -> (Plan, Option<&Solution<G::State>>) {
        let plan = self.effective_plan();
        if !plan.wants_solver() {
            return (plan, None);
        }
        match self.solution() {
            Some(solution) => (plan, Some(solution)),
            None => (plan.without_best(self.game.fallback()), None),
        }
    }

    /// Each side's policy as asked and as played.
    pub fn policies(&self) -> [PolicyUse; 2] {
        let (played, _) = self.sampled_plan();
        [0, 1].map(|s| PolicyUse {
            asked: self.plan.policy[s],
            played: played.policy[s],
            objective: self.plan.objective[s],
            decides: self.game.decides(s),
        })
    }

    /// How much a side looking ahead has reused its decisions so far
    /// (see [`Memo`]): all zero where no side looks ahead.
    pub fn lookahead_reuse(&self) -> MemoReuse {
        self.memo.reuse()
    }

    /// Each side's first decision with the value of every option, where the game is solved.
    pub fn explain(&self) -> Option<Vec<Explained>> {
        if self.effective_plan() != self.plan {
            return None;
        }
        Some(self.solution()?.explain(&self.game))
    }
}

impl<G: Game> Scenario for Played<G> {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn sample(&self, dice: &mut Dice) -> u64 {
        let (plan, solution) = self.sampled_plan();
        play(&self.game, plan, solution, &self.memo, dice)
    }

    fn code_space(&self) -> u64 {
        self.game.code_space() * ENDED.len() as u64
    }

    fn decode(&self, code: u64, values: &mut [i64]) {
        let (game_values, ended) = values.split_at_mut(values.len() - 1);
        self.game.decode(code / ENDED.len() as u64, game_values);
        ended[0] = (code % ENDED.len() as u64) as i64;
    }

    fn has_exact(&self) -> bool {
        let plan = self.effective_plan();
        !plan.looks_ahead() && self.game.solvable(plan)
    }

    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        Some(self.solution()?.distribution(&self.game))
    }

    fn decisions(&self) -> &'static [&'static Decision] {
        self.game.decisions()
    }

    fn policies(&self) -> Option<[PolicyUse; 2]> {
        Some(Played::policies(self))
    }

    fn lookahead_reuse(&self) -> Option<MemoReuse> {
        self.plan.looks_ahead().then(|| self.memo.reuse())
    }

    fn explain(&self) -> Option<Vec<Explained>> {
        Played::explain(self)
    }

    fn reads_rule(&self, field: &str) -> bool {
        self.game.reads_rule(field)
    }

    /// The game's own; a side's policy and objective where it has no
    /// decision at these settings ([`Game::decides`]); and each side's
    /// objective where that side does not play `best` (asked for a
    /// heuristic, or falling back to one beyond the solver): no objective
    /// steers a heuristic.
    fn unread_keys(&self) -> Vec<(String, String)> {
        use crate::params::Choice;
        let mut unread = self.game.unread_keys();
        let plan = self.effective_plan();
        for (side, name) in ["attacker", "defender"].into_iter().enumerate() {
            if !self.game.decides(side) {
                for key in ["policy", "objective"] {
                    unread.push((
                        format!("{name}.{key}"),
                        format!("the {name} has no decision at these settings: every step plays it one way"),
                    ));
                }
            } else if plan.policy[side] != Policy::Best {
                unread.push((
                    format!("{name}.objective"),
                    format!("the {name} plays {}, a heuristic no objective steers", plan.policy[side].name()),
                ));
            }
        }
        unread
    }

    fn purpose(&self) -> Option<Purpose> {
        Some(self.game.purpose())
    }

    fn exact_is_cheap(&self) -> bool {
        let plan = self.effective_plan();
        !plan.looks_ahead() && self.game.solvable(plan) && self.game.exact_is_cheap(plan)
    }
}
