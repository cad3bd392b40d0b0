//! `--explain` on the dense table: each side's first decision with every
//! option's worth ([`DenseSolver::explain`]).

use super::*;

impl DenseSolver {
    /// Whether side `s` decides at state `index` in turn `t` under the
    /// plan, as the generic solver's graph has a decision node there: it
    /// plays `best` and has more than one option (the defender's, after the
    /// attacker's move the table takes).
    pub(super) fn decides(&self, s: usize, t: usize, index: usize) -> bool {
        if self.plan.policy[s] != Policy::Best {
            return false;
        }
        let (ca, ia, cd, id) = self.unindex(index);
        let shaken = [self.sides[0].cores[ca].shaken, self.sides[1].cores[cd].shaken];
        if s == 0 {
            return self.options_at(0, shaken[0], ia, id).len > 1;
        }
        let [a, _] = self.chosen(t, index, 0);
        let ia2 = (ia as i32 + self.steps_of(0, a)) as usize;
        self.options_at(1, shaken[1], ia2, id).len > 1
    }

    /// Each side's first decision under the table, as
    /// [`game::Played::explain`] gives it: walking the table forwards, the
    /// first turn in which the side decides, the most likely state there in
    /// which it does (ties go to the first in the table's order), and the
    /// worth of each of its options (both sides' chances of winning, best
    /// play by both afterwards; the defender's options after the attacker's
    /// move the table takes, the attacker's each met by the defender's
    /// answer the table gives to it).
    pub fn explain(&self) -> Vec<game::Explained> {
        if self.rolled {
            return self.explain_rolled();
        }
        let n = self.states();
        let game = &self.game;
        let turns = game.base.turns as usize;
        // Forward under the table until every side playing `best` has decided.
        let start = [game.base.start_state(0), game.base.start_state(1)];
        let core = |s: usize| self.sides[s].index[&(start[s].figures, start[s].shaken, start[s].general)] as usize;
        let room = |s: usize| (-self.sides[s].low) as usize;
        let mut mass = vec![[0.0f64; 4]; n];
        mass[self.index(core(0), room(0), core(1), room(1))][0] = 1.0;
        let mut next = vec![[0.0f64; 4]; n];
        let mut found: [Option<(usize, usize, f64)>; 2] = [None, None];
        let wanted = |found: &[Option<(usize, usize, f64)>; 2]| {
            (0..2).any(|s| found[s].is_none() && self.plan.policy[s] == Policy::Best)
        };
        let key = |_: u8, _: bool, _: Out| 0usize;
        for t in 0..turns {
            if !wanted(&found) {
                break;
            }
            let mut candidates: [Option<(usize, f64)>; 2] = [None, None];
            for (index, m) in mass.iter().enumerate() {
                let p: f64 = m.iter().sum();
                if p == 0.0 {
                    continue;
                }
                for (s, best) in candidates.iter_mut().enumerate() {
                    if self.decides(s, t, index) && best.is_none_or(|(_, b)| p > b + game::TIE) {
                        *best = Some((index, p));
                    }
                }
                self.spread(t, index, *m, &mut Masses { mass: &mut next, touched: None }, &mut |_, _, _| {}, &key);
            }
            for s in 0..2 {
                if found[s].is_none()
                    && let Some((index, p)) = candidates[s]
                {
                    found[s] = Some((t, index, p));
                }
            }
            std::mem::swap(&mut mass, &mut next);
            next.iter_mut().for_each(|m| *m = [0.0; 4]);
        }
        // The worths after the explained turns, the table followed.
        let Some(earliest) = found.iter().flatten().map(|f| f.0).min() else { return Vec::new() };
        let mut after = self.evaluate(earliest + 1);
        let mut at_turn = earliest + 1;
        let mut explained = Vec::new();
        for (s, found) in found.iter().enumerate() {
            let Some(&(t, index, reached)) = found.as_ref() else { continue };
            if at_turn != t + 1 {
                after = self.evaluate(t + 1);
                at_turn = t + 1;
            }
            let (ca, ia, cd, id) = self.unindex(index);
            let [a, d] = self.chosen(t, index, 0);
            let shaken = [self.sides[0].cores[ca].shaken, self.sides[1].cores[cd].shaken];
            let list: Vec<u16> = if s == 0 {
                self.options_at(0, shaken[0], ia, id).list().to_vec()
            } else {
                let ia2 = (ia as i32 + self.steps_of(0, a)) as usize;
                self.options_at(1, shaken[1], ia2, id).list().to_vec()
            };
            let mut cache = Resolved::default();
            let worths: Vec<Full> = list
                .iter()
                .map(|&option| {
                    // The attacker's option is met by the defender's answer to it.
                    let pair = if s == 0 { [option, self.answer(t, index, 0, option)] } else { [a, option] };
                    self.pair_worth(index, pair, &after, &mut cache)
                })
                .collect();
            let chosen = if s == 0 { a } else { d };
            explained.push(self.explained(s, t, index, reached, &MOVE_DECISION, &list, &worths, chosen));
        }
        explained
    }

    /// Each side's first decision under the table with the initiative
    /// rolled, as [`game::Played::explain`] meets it walking the turn's
    /// branches in order (the attacker's win of the initiative first,
    /// then the chosen options): the attacker's pick of order when it
    /// wins, in the first turn; the defender's move after that pick (its
    /// first move if the attacker takes side B, its answer to the
    /// attacker's move if side A) where it has more than one, or else
    /// its own pick of order when it wins. Each reached half the time.
    pub(super) fn explain_rolled(&self) -> Vec<game::Explained> {
        let game = &self.game;
        let start = [game.base.start_state(0), game.base.start_state(1)];
        let core = |s: usize| self.sides[s].index[&(start[s].figures, start[s].shaken, start[s].general)] as usize;
        let room = |s: usize| (-self.sides[s].low) as usize;
        let (ca, ia, cd, id) = (core(0), room(0), core(1), room(1));
        let index = self.index(ca, ia, cd, id);
        let after = self.evaluate(1);
        let mut cache = Resolved::default();
        let mut worth = |moves: [u16; 2]| self.pair_worth(index, moves, &after, &mut cache);
        let mut explained = Vec::new();
        for s in 0..2 {
            if self.plan.policy[s] != Policy::Best {
                continue;
            }
            let mut order = |winner: usize| {
                let worths: Vec<Full> = [winner, 1 - winner].map(|f| worth(self.chosen(0, index, f))).to_vec();
                let chosen = if self.first_of(0, index, winner) == winner { SIDE_A } else { SIDE_B };
                (&ORDER_DECISION, vec![SIDE_A, SIDE_B], worths, chosen)
            };
            let (decision, list, worths, chosen) = if s == 0 {
                order(0)
            } else if self.first_of(0, index, 0) == 1 {
                let list = self.options_at(1, start[1].shaken, ia, id).list().to_vec();
                if list.len() > 1 {
                    // The defender first, each option met by the attacker's answer.
                    let worths = list.iter().map(|&o| worth([self.answer(0, index, 1, o), o])).collect();
                    (&MOVE_DECISION, list, worths, self.chosen(0, index, 1)[1])
                } else {
                    order(1)
                }
            } else {
                let [a, d] = self.chosen(0, index, 0);
                let ia2 = (ia as i32 + self.steps_of(0, a)) as usize;
                let list = self.options_at(1, start[1].shaken, ia2, id).list().to_vec();
                if list.len() > 1 {
                    let worths = list.iter().map(|&o| worth([a, o])).collect();
                    (&MOVE_DECISION, list, worths, d)
                } else {
                    order(1)
                }
            };
            explained.push(self.explained(s, 0, index, 0.5, decision, &list, &worths, chosen));
        }
        explained
    }

    /// Side `s`'s decision at state `index` in turn `t`, reached with
    /// chance `reached`: each option in `list` with its worth, `chosen` the
    /// table's.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn explained(
        &self,
        s: usize,
        t: usize,
        index: usize,
        reached: f64,
        decision: &'static Decision,
        list: &[u16],
        worths: &[Full],
        chosen: u16,
    ) -> game::Explained {
        let game = &self.game;
        let (ca, ia, cd, id) = self.unindex(index);
        let objective = self.plan.objective[s];
        let taken = list.iter().zip(worths).find(|(o, _)| **o == chosen).map(|(_, w)| w.key(s, objective));
        let taken = taken.expect("the table's option is offered");
        let options = list
            .iter()
            .zip(worths)
            .map(|(&option, w)| {
                let key = w.key(s, objective);
                let tie = if option == chosen || (key[0] - taken[0]).abs() > game::TIE {
                    game::Tie::No
                } else if game::prefers(taken, key) {
                    game::Tie::Purpose
                } else {
                    game::Tie::All
                };
                game::OptionValue {
                    option: game.describe_option(decision, option),
                    attacker_wins: w.wins[0],
                    defender_wins: w.wins[1],
                    attacker_beats: w.beats[0],
                    defender_beats: w.beats[1],
                    turns: w.turns,
                    chosen: option == chosen,
                    tie,
                }
            })
            .collect();
        let mut sides = [self.sides[0].cores[ca], self.sides[1].cores[cd]];
        sides[0].room = self.room(0, ia) as i16;
        sides[1].room = self.room(1, id) as i16;
        let state = FireState { sides, charisma: [0; 2], outs: [Out::In; 2] };
        game::Explained {
            side: game::side_name(s as u8),
            decision: decision.name,
            situation: game.describe_state(&state, s as u8),
            step: t as u32 + 1,
            reached,
            options,
        }
    }
}
