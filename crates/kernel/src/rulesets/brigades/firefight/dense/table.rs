//! Reading the solved table: the moves it takes at a state and their
//! worths, and every state's worth under it ([`DenseSolver::evaluate`]).

use super::*;

impl DenseSolver {
    /// The worth of the state `index` (turn start) when the attacker takes
    /// `a` and the defender `d`, given the next turn's worths: the worth
    /// after both moves, as `backward_with` tabulates it.
    pub(super) fn pair_worth<W: Worth>(
        &self,
        index: usize,
        [a, d]: [u16; 2],
        next: &[W],
        cache: &mut Resolved<W>,
    ) -> W {
        let (ca, ia, cd, id) = self.unindex(index);
        let ia2 = (ia as i32 + self.steps_of(0, a)) as usize;
        let id2 = (id as i32 + self.steps_of(1, d)) as usize;
        // Out of both units' reach, the pairs read the first worth (see `build_pairs`).
        let moved = if self.quiet(ia2, id2) { [0, 0] } else { [self.game.class(0, a), self.game.class(1, d)] };
        self.worth((ca, ia2, cd, id2), moved, next, cache)
    }

    /// The side moving first (side A, 2.1) under the table at state
    /// `index` in turn `t` when `winner` wins the initiative (the
    /// attacker, with the initiative not rolled).
    pub(super) fn first_of(&self, t: usize, index: usize, winner: usize) -> usize {
        if !self.rolled {
            return 0;
        }
        let pick = (self.choices[t][index] >> (ORDER_PICK + winner as u32)) & 1;
        if pick == u64::from(SIDE_A) { winner } else { 1 - winner }
    }

    /// The moves the table takes at state `index` in turn `t` with side
    /// `f` moving first, by side: the first mover's, and the other's
    /// answer to it.
    pub(super) fn chosen(&self, t: usize, index: usize, f: usize) -> [u16; 2] {
        let (ca, ia, cd, id) = self.unindex(index);
        let shaken = [self.sides[0].cores[ca].shaken, self.sides[1].cores[cd].shaken];
        let mine = self.options_at(f, shaken[f], ia, id).list();
        let o = mine[((self.choices[t][index] >> (f as u32 * ORDER_BITS)) & 7) as usize];
        let mut moves = [o; 2];
        moves[1 - f] = self.answer(t, index, f, o);
        moves
    }

    /// The answer the table gives at state `index` in turn `t`, side `f`
    /// moving first, to the first mover's option `o`.
    pub(super) fn answer(&self, t: usize, index: usize, f: usize, o: u16) -> u16 {
        let (ca, ia, cd, id) = self.unindex(index);
        let shaken = [self.sides[0].cores[ca].shaken, self.sides[1].cores[cd].shaken];
        let mine = self.options_at(f, shaken[f], ia, id).list();
        let i = mine.iter().position(|&x| x == o).expect("the first mover's option") as u32;
        let j = (self.choices[t][index] >> (f as u32 * ORDER_BITS + 3 + 3 * i)) & 7;
        let mut landed = [ia, id];
        landed[f] = (landed[f] as i32 + self.steps_of(f, o)) as usize;
        self.options_at(1 - f, shaken[1 - f], landed[0], landed[1]).list()[j as usize]
    }

    /// The worth of state `index` in turn `t` under the table, given the
    /// next turn's worths: with the initiative rolled, half the worth of
    /// the order each side picks when it wins it.
    pub(super) fn table_worth<W: Worth>(&self, t: usize, index: usize, next: &[W], cache: &mut Resolved<W>) -> W {
        if !self.rolled {
            return self.pair_worth(index, self.chosen(t, index, 0), next, cache);
        }
        let mut worth = W::default();
        for winner in 0..2 {
            let moves = self.chosen(t, index, self.first_of(t, index, winner));
            worth.add(0.5, self.pair_worth(index, moves, next, cache));
        }
        worth
    }

    /// Both sides' chances of winning from every state at the start of
    /// turn `t`, the sides following the table from there on (the table
    /// may keep the attacker's margin alone; `--explain` shows both chances).
    pub(super) fn evaluate(&self, t: usize) -> Vec<Full> {
        let n = self.states();
        let mut next = vec![Full::ending(self.game.purpose, End::Limit); n];
        for turn in (t..self.game.base.turns as usize).rev() {
            let mut current = vec![Full::default(); n];
            current.par_iter_mut().with_min_len(256).enumerate().for_each_init(
                Resolved::default,
                |cache, (index, out)| {
                    let (_, ia, _, id) = self.unindex(index);
                    if self.gap(ia, id) >= self.nearest {
                        *out = self.table_worth(turn, index, &next, cache);
                    }
                },
            );
            next = current;
        }
        next
    }
}
