//! [`FirePlayed`]: the `firefight` scenario, [`FireGame`] under a plan.

use super::dense::*;
use super::fire_game::*;
use super::*;

/// The `firefight` scenario: [`FireGame`] under a plan, solved on the
/// dense table ([`DenseSolver`]) where it applies and fits, and by the
/// generic solver ([`game::Played`]) otherwise.
pub struct FirePlayed {
    pub(super) played: game::Played<FireGame>,
    pub(super) plan: game::Plan,
    pub(super) dense: std::sync::OnceLock<Option<DenseSolver>>,
}

impl std::fmt::Debug for FirePlayed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FirePlayed").field("plan", &self.plan).finish_non_exhaustive()
    }
}

impl FirePlayed {
    /// `game` under `plan`.
    pub fn new(game: FireGame, plan: game::Plan) -> FirePlayed {
        FirePlayed { played: game::Played::new(game, plan), plan, dense: std::sync::OnceLock::new() }
    }

    /// From the catalogue's settings.
    pub fn from_settings(rules: &Rules, settings: &Settings) -> Result<FirePlayed, ParamError> {
        Ok(FirePlayed::new(
            FireGame::from_settings(rules, settings)?.with_purpose(game::Purpose::from_settings(settings)),
            game::Plan::from_settings(settings),
        ))
    }

    /// The dense solution, where the table applies and fits.
    pub(super) fn dense(&self) -> Option<&DenseSolver> {
        if !DenseSolver::fits(self.played.game()) {
            return None;
        }
        self.dense.get_or_init(|| DenseSolver::solve(self.played.game(), self.plan)).as_ref()
    }
}

impl Scenario for FirePlayed {
    fn layout(&self) -> &Layout {
        Scenario::layout(&self.played)
    }

    fn sample(&self, dice: &mut Dice) -> u64 {
        match self.plan.wants_solver().then(|| self.dense()).flatten() {
            Some(dense) => dense.sample(dice),
            None => Scenario::sample(&self.played, dice),
        }
    }

    fn code_space(&self) -> u64 {
        Scenario::code_space(&self.played)
    }

    fn decode(&self, code: u64, values: &mut [i64]) {
        Scenario::decode(&self.played, code, values);
    }

    fn has_exact(&self) -> bool {
        DenseSolver::fits(self.played.game()) || Scenario::has_exact(&self.played)
    }

    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        match self.dense() {
            Some(dense) => Some(dense.distribution()),
            None => Scenario::exact(&self.played),
        }
    }

    fn decisions(&self) -> &'static [&'static Decision] {
        FIRE_DECISIONS
    }

    fn policies(&self) -> Option<[game::PolicyUse; 2]> {
        if DenseSolver::fits(self.played.game()) {
            return Some([0, 1].map(|s| game::PolicyUse {
                asked: self.plan.policy[s],
                played: self.plan.policy[s],
                objective: self.plan.objective[s],
                decides: true,
            }));
        }
        Scenario::policies(&self.played)
    }

    fn reads_rule(&self, field: &str) -> bool {
        self.played.game().reads_rule(field)
    }

    fn purpose(&self) -> Option<game::Purpose> {
        Scenario::purpose(&self.played)
    }

    fn unread_keys(&self) -> Vec<(String, String)> {
        let mut unread = Scenario::unread_keys(&self.played);
        // The dense table plays best where the generic solver would fall
        // back to a heuristic: a side at its best there reads its objective.
        if DenseSolver::fits(self.played.game()) {
            for (side, name) in ["attacker", "defender"].into_iter().enumerate() {
                if self.plan.policy[side] == Policy::Best {
                    let key = format!("{name}.objective");
                    unread.retain(|(k, _)| *k != key);
                }
            }
        }
        unread
    }

    fn explain(&self) -> Option<Vec<game::Explained>> {
        // The dense table explains where it solves, the generic solver elsewhere.
        match self.dense() {
            Some(dense) => Some(dense.explain()),
            None if self.played.game().solvable(self.plan) => self.played.explain(),
            None => None,
        }
    }
}
