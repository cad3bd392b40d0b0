//! The backward pass: each turn's worths after the moves, the replies and
//! each state's choices ([`DenseSolver::backward`]).

use super::*;

impl DenseSolver {
    /// Backward induction, a turn at a time from the limit (where a fight
    /// still going is worth nothing to either side): the worth of every
    /// state after every pair of move classes, then each state's choices.
    pub(super) fn backward(&mut self) {
        let zero_sum =
            (0..2).all(|s| self.plan.policy[s] != Policy::Best || self.plan.objective[s] == game::Objective::Margin);
        self.choices = if zero_sum { self.backward_with::<Margins>() } else { self.backward_with::<Full>() };
    }

    pub(super) fn backward_with<W: Worth>(&self) -> Vec<Vec<u64>> {
        let n = self.states();
        let turns = self.game.base.turns as usize;
        let span = self.span();
        let cores_d = self.sides[1].cores.len();
        // At the limit every fight still going ends as the purpose says.
        let mut next = vec![W::ending(self.game.purpose, End::Limit); n];
        let mut current = vec![W::default(); n];
        let mut choices = vec![Vec::new(); turns];
        // A block of the table is one pair of cores: the states of a
        // block are walked in order, their places read off `place_of`.
        // Moves change places, never cores, so a state's choice reads only
        // the worths after moves of its own block: each block's are worked
        // out in a buffer of its own, never for the whole table.
        let cores_of = |block: usize| (block / cores_d, block % cores_d);
        let most = self.replies.iter().flatten().map(Vec::len).max().unwrap_or(0);
        let fresh = || {
            let replies = [vec![(0u8, W::default()); most], vec![(0u8, W::default()); most]];
            (Resolved::default(), vec![W::default(); 9 * span], replies)
        };
        for t in (0..turns).rev() {
            let mut table = vec![0u64; n];
            current.par_chunks_mut(span).zip(table.par_chunks_mut(span)).enumerate().for_each_init(
                fresh,
                |(cache, after, replies), (block, (worths, packed))| {
                    let (ca, cd) = cores_of(block);
                    let flags = self.flags([self.sides[0].cores[ca].shaken, self.sides[1].cores[cd].shaken]);
                    let read = &self.read[flags];
                    for (p, out) in after.chunks_mut(9).enumerate() {
                        let (ia, id) = self.place_of[p];
                        self.after_moves((ca, ia as usize, cd, id as usize), read[p], out, &next, cache);
                    }
                    // The second mover's reply to each first move, once for
                    // every state whose first mover lands there, in each
                    // order the table solves.
                    for f in 0..self.orders() {
                        for (reply, answers) in replies[f].iter_mut().zip(&self.replies[f][flags]) {
                            *reply = self.reply(1 - f, answers, after);
                        }
                    }
                    for (p, (worth, packed)) in worths.iter_mut().zip(packed.iter_mut()).enumerate() {
                        let (ia, id) = self.place_of[p];
                        let at = (ca, ia as usize, cd, id as usize);
                        (*worth, *packed) = self.decide(at, replies);
                    }
                },
            );
            std::mem::swap(&mut next, &mut current);
            choices[t] = table;
        }
        choices
    }

    /// The worths of state `at` after each pair of move classes (by
    /// `ma * 3 + md`, the places being those after the moves), given the
    /// next turn's worths.
    /// Only the classes in `read` (bit `ma * 3 + md`), those some pair
    /// reads at this place, are worked out.
    pub(super) fn after_moves<W: Worth>(
        &self,
        at: (usize, usize, usize, usize),
        read: u16,
        out: &mut [W],
        next: &[W],
        cache: &mut Resolved<W>,
    ) {
        let (ca, ia, cd, id) = at;
        if self.gap(ia, id) < self.nearest || read == 0 {
            return;
        }
        // Out of both units' reach, how they moved changes nothing
        // this turn: the pairs read the first worth only, which,
        // where neither side's turn holds a chance, is the worth
        // of the state it leads to (the laws' one outcome has
        // probability 1, so the sum is that worth exactly).
        if self.quiet(ia, id) {
            out[0] = match (self.calm[0][ca], self.calm[1][cd]) {
                (Some(ra), Some(rd)) => {
                    // Both still in: a turn more to play.
                    let mut worth = next[self.index(ra as usize, ia, rd as usize, id)];
                    worth.add_turn(1.0);
                    worth
                }
                _ => self.worth(at, [0, 0], next, cache),
            };
            return;
        }
        // A shaken unit's classes are 0 (it fires) and 2 (it stands to
        // recover, 2.4); `read` holds only the classes some pair reaches.
        for ma in 0..3 {
            for md in 0..3 {
                if read & (1 << (ma * 3 + md)) != 0 {
                    out[ma * 3 + md] = self.worth(at, [ma, md], next, cache);
                }
            }
        }
    }

    /// The orders of the moves the table solves: the attacker first only,
    /// or, with the initiative rolled, each side first.
    pub(super) fn orders(&self) -> usize {
        if self.rolled { 2 } else { 1 }
    }

    /// Side `s`'s best answer among `answers` (the first of the best
    /// where they tie), its index in its list and the worth after it,
    /// given a block's worths after moves.
    #[inline]
    pub(super) fn reply<W: Worth>(&self, s: usize, answers: &[(u16, u8, usize)], after: &[W]) -> (u8, W) {
        if let [(_, d, at)] = answers[..] {
            return (d, after[at]);
        }
        let objective = self.plan.objective[s];
        let mut answer: Option<([f64; 3], u8, W)> = None;
        for &(_, d, at) in answers {
            let w = after[at];
            let key = w.key(s, objective);
            if answer.is_none_or(|(b, _, _)| game::prefers(key, b)) {
                answer = Some((key, d, w));
            }
        }
        let (_, d, w) = answer.expect("a side has an option");
        (d, w)
    }

    /// The moves at a state: in each order the table solves, the first
    /// mover's option and the second's answer to each of the first's
    /// options, and, with the initiative rolled, each side's pick of
    /// order when it wins it (packed as in `choices`); and the state's
    /// worth, given the replies in its block (by the first mover, then
    /// by index in `replies`).
    pub(super) fn decide<W: Worth>(&self, at: (usize, usize, usize, usize), replies: &[Vec<(u8, W)>; 2]) -> (W, u64) {
        let (_, ia, _, id) = at;
        if self.gap(ia, id) < self.nearest {
            return (W::default(), 0);
        }
        let (first, packed) = self.decide_order(at, 0, &replies[0]);
        if !self.rolled {
            return (first, u64::from(packed));
        }
        let (second, later) = self.decide_order(at, 1, &replies[1]);
        let mut packed = u64::from(packed) | u64::from(later) << ORDER_BITS;
        // 2.1: each side wins the initiative half the time (the attacker's
        // win first, as the roll lists it) and picks side A or side B.
        let by_first = [first, second];
        let mut worth = W::default();
        for winner in 0..2 {
            let options = [by_first[winner], by_first[1 - winner]];
            let pick = match self.plan.policy[winner] {
                Policy::Best => {
                    let objective = self.plan.objective[winner];
                    usize::from(game::prefers(options[1].key(winner, objective), options[0].key(winner, objective)))
                }
                Policy::Cautious => usize::from(SIDE_B),
                _ => usize::from(SIDE_A),
            };
            packed |= (pick as u64) << (ORDER_PICK + winner as u32);
            worth.add(0.5, options[pick]);
        }
        (worth, packed)
    }

    /// The moves at a state with side `f` moving first: its option and
    /// the other side's answer to each of its options (packed as one
    /// order's bits of `choices`), and the worth, given the replies in
    /// its block (by index in `replies`).
    pub(super) fn decide_order<W: Worth>(
        &self,
        (ca, ia, cd, id): (usize, usize, usize, usize),
        f: usize,
        replies: &[(u8, W)],
    ) -> (W, u32) {
        let objective = self.plan.objective[f];
        let shaken = [self.sides[0].cores[ca].shaken, self.sides[1].cores[cd].shaken];
        let pairs = &self.pairs[f][self.place(shaken, ia, id)];
        let mut packed = 0u32;
        let mut best: Option<([f64; 3], u8, W)> = None;
        for &(_, a, reply) in pairs {
            let (d, worth) = replies[reply as usize];
            packed |= u32::from(d) << (3 + 3 * a);
            let key = worth.key(f, objective);
            if best.is_none_or(|(b, _, _)| game::prefers(key, b)) {
                best = Some((key, a, worth));
            }
        }
        let (_, a, worth) = best.expect("a side has an option");
        (worth, packed | u32::from(a))
    }
}
