//! The forward walk: the exact law of outcomes under the solved choices
//! ([`DenseSolver::distribution`]) and one fight with real dice
//! ([`DenseSolver::sample`], [`TableFate`]).

use super::*;

impl DenseSolver {
    /// The exact distribution of outcome codes under the solved choices:
    /// the mass of every state (with both sides' `routed` flags) walked
    /// forwards a turn at a time.
    pub fn distribution(&self) -> Vec<(u64, f64)> {
        let n = self.states();
        let game = &self.game;
        let base = &game.base;
        let start = [base.start_state(0), base.start_state(1)];
        let core = |s: usize| self.sides[s].index[&(start[s].figures, start[s].shaken, start[s].general)] as usize;
        let room = |s: usize| (-self.sides[s].low) as usize;
        // An ending side: its figures, routed, and how it ended (In, or out).
        let figures = [start[0].figures as usize + 1, start[1].figures as usize + 1];
        let key = |figures: u8, routed: bool, out: Out| {
            (usize::from(figures) * 2 + usize::from(routed)) * 4
                + match out {
                    Out::In => 0,
                    Out::Shattered => 1,
                    Out::RoutedOff => 2,
                    Out::Surrendered => 3,
                }
        };
        let side_keys = [figures[0] * 8, figures[1] * 8];
        let ended_len = side_keys[0] * side_keys[1];
        let mut codes: HashMap<u64, f64, BuildHasherDefault<CodeHasher>> = HashMap::default();
        let turns = base.turns as usize;
        let unkey = |s: usize, k: usize| -> (SideState, Out) {
            let out = [Out::In, Out::Shattered, Out::RoutedOff, Out::Surrendered][k % 4];
            let state = SideState { figures: (k / 8) as u8, routed: (k / 4) % 2 == 1, ..start[s] };
            (state, out)
        };
        // The turn's spreading is cut into `FORWARD_RUNS` runs of states,
        // each spreading into its own buffer. A state's mass is the sum of
        // the buffers the turn before filled: each run reads and clears its
        // own states in all of them, so that no pass adds the buffers up.
        // The runs are as many whatever the threads, so that the sums, and
        // the law, are the same to the bit on any thread count.
        //
        // Each buffer keeps a bit for each state it was spread into (by
        // run, one word for 64 states), and a run reads only the states
        // some buffer marked: most states hold no mass in a turn (about a
        // quarter do at the default, 24 against 24), and the buffers (32
        // bytes a state each) were read and cleared whole every turn. The
        // states read are summed as before, buffer by buffer, so the law
        // is the same to the bit. The buffers are filled by writing (not
        // allocated zeroed): a zeroed page read before it is written is
        // mapped to the shared zero page and copied at the first write,
        // and each such copy flushed both cores' address caches (a fifth
        // of the time of a ten-turn walk on two threads).
        let runs = FORWARD_RUNS;
        let length = n.div_ceil(runs);
        let words = length.div_ceil(64);
        let zeros = || -> Vec<[f64; 4]> {
            let mut buffer = Vec::with_capacity(n);
            buffer.resize(n, [0.0f64; 4]);
            buffer
        };
        let fresh = || -> Vec<Marked> { (0..runs).map(|_| (zeros(), vec![vec![0u64; words]; runs])).collect() };
        let (mut filled, mut spread) = (fresh(), fresh());
        let mut endings: Vec<Vec<f64>> = (0..runs).map(|_| vec![0.0f64; ended_len]).collect();
        {
            let index = self.index(core(0), room(0), core(1), room(1));
            let (mass, marks) = &mut filled[0];
            let mut start = Masses { mass, touched: Some((marks, length)) };
            start.at(index)[0] = 1.0;
        }
        for t in 0..turns {
            // Each run's states, and their marks, in every buffer filled last turn.
            let mut held: Vec<Vec<Held<'_>>> = (0..runs).map(|_| Vec::with_capacity(runs)).collect();
            for (buffer, marks) in &mut filled {
                for ((run, chunk), bits) in buffer.chunks_mut(length).enumerate().zip(marks.iter_mut()) {
                    held[run].push((chunk, bits));
                }
            }
            held.into_par_iter().zip(spread.par_iter_mut()).zip(endings.par_iter_mut()).enumerate().for_each(
                |(run, ((mut held, (next, marks)), ended))| {
                    let mut next = Masses { mass: next, touched: Some((marks, length)) };
                    for w in 0..words {
                        let mut bits = 0u64;
                        for (_, marks) in &mut held {
                            bits |= std::mem::take(&mut marks[w]);
                        }
                        while bits != 0 {
                            let i = w * 64 + bits.trailing_zeros() as usize;
                            bits &= bits - 1;
                            let mut m = [0.0f64; 4];
                            for (buffer, _) in &mut held {
                                let q = std::mem::take(&mut buffer[i]);
                                for r in 0..4 {
                                    m[r] += q[r];
                                }
                            }
                            if m == [0.0; 4] {
                                continue;
                            }
                            let index = run * length + i;
                            self.spread(
                                t,
                                index,
                                m,
                                &mut next,
                                &mut |ka, kd, q| ended[ka * side_keys[1] + kd] += q,
                                &key,
                            );
                        }
                    }
                },
            );
            std::mem::swap(&mut filled, &mut spread);
            for ended in &mut endings {
                for (k, q) in ended.iter_mut().enumerate() {
                    if *q > 0.0 {
                        let (sa, oa) = unkey(0, k / side_keys[1]);
                        let (sd, od) = unkey(1, k % side_keys[1]);
                        let end = match (oa != Out::In, od != Out::In) {
                            (false, true) => End::Attacker,
                            (true, false) => End::Defender,
                            _ => End::BothBroke,
                        };
                        let winner = self.game.purpose.winner(end);
                        let code = base.end_code_won(Some(winner), t as u32 + 1, [sa, sd], [oa, od]);
                        *codes.entry(code * game::ENDED.len() as u64 + end.ended_index()).or_insert(0.0) += *q;
                    }
                    *q = 0.0;
                }
            }
        }
        // What is still going has reached the limit, won by nobody.
        for index in 0..n {
            let (ca, _, cd, _) = self.unindex(index);
            let mut m = [0.0f64; 4];
            for (buffer, _) in &filled {
                for r in 0..4 {
                    m[r] += buffer[index][r];
                }
            }
            for (r, &q) in m.iter().enumerate() {
                if q > 0.0 {
                    let sa = SideState { routed: r & 1 == 1, ..self.sides[0].cores[ca] };
                    let sd = SideState { routed: r & 2 == 2, ..self.sides[1].cores[cd] };
                    let winner = self.game.purpose.winner(End::Limit);
                    let code = base.end_code_won(Some(winner), base.turns, [sa, sd], [Out::In, Out::In]);
                    *codes.entry(code * game::ENDED.len() as u64 + End::Limit.ended_index()).or_insert(0.0) += q;
                }
            }
        }
        let mut result: Vec<(u64, f64)> = codes.into_iter().filter(|&(_, p)| p > 0.0).collect();
        result.sort_unstable_by_key(|&(code, _)| code);
        result
    }

    /// Spreads the mass `m` (by both sides' `routed` flags) of state
    /// `index` in turn `t` over the next turn's states (`next`) and the
    /// endings (`ended(attacker key, defender key, mass)`, keyed by `key`).
    pub(super) fn spread(
        &self,
        t: usize,
        index: usize,
        m: [f64; 4],
        next: &mut Masses<'_>,
        ended: &mut impl FnMut(usize, usize, f64),
        key: &impl Fn(u8, bool, Out) -> usize,
    ) {
        if !self.rolled {
            self.spread_moves(index, self.chosen(t, index, 0), 1.0, m, next, ended, key);
            return;
        }
        // 2.1: each side wins the initiative half the time, the attacker's
        // win first; where both wins lead to the same moves (both units
        // holding, say), the state's mass is spread once.
        let moves = [0, 1].map(|winner| self.chosen(t, index, self.first_of(t, index, winner)));
        if moves[0] == moves[1] {
            self.spread_moves(index, moves[0], 1.0, m, next, ended, key);
            return;
        }
        for moves in moves {
            self.spread_moves(index, moves, 0.5, m, next, ended, key);
        }
    }

    /// Spreads `weight` of the mass `m` of state `index` over the next
    /// turn's states and the endings (as [`DenseSolver::spread`]), the
    /// sides having moved `[a, d]`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn spread_moves(
        &self,
        index: usize,
        [a, d]: [u16; 2],
        weight: f64,
        m: [f64; 4],
        next: &mut Masses<'_>,
        ended: &mut impl FnMut(usize, usize, f64),
        key: &impl Fn(u8, bool, Out) -> usize,
    ) {
        let m = m.map(|q| q * weight);
        let (ca, ia, cd, id) = self.unindex(index);
        let ia2 = (ia as i32 + self.steps_of(0, a)) as usize;
        let id2 = (id as i32 + self.steps_of(1, d)) as usize;
        let [la, ld] = self.laws(ca, ia2, cd, id2, [self.game.class(0, a), self.game.class(1, d)]);
        // A side out of the fight: how it ended (a rout past its room routs it off).
        let out = |land: Option<usize>, t: &Turned| match (land, t.out) {
            (Some(_), _) => Out::In,
            (None, Out::In) => Out::RoutedOff,
            (None, out) => out,
        };
        for ta in la {
            let land_a = DenseSolver::lands(ia2, ta);
            for td in ld {
                let land_d = DenseSolver::lands(id2, td);
                let p = ta.p * td.p;
                if let (Some(i), Some(j)) = (land_a, land_d) {
                    let target = next.at(self.index(ta.core as usize, i, td.core as usize, j));
                    for (r, &q) in m.iter().enumerate() {
                        if q != 0.0 {
                            let routed = usize::from(r & 1 == 1 || ta.routs) | usize::from(r & 2 == 2 || td.routs) << 1;
                            target[routed] += q * p;
                        }
                    }
                } else {
                    let (out_a, out_d) = (out(land_a, ta), out(land_d, td));
                    for (r, &q) in m.iter().enumerate() {
                        if q != 0.0 {
                            let ka = key(ta.figures, r & 1 == 1 || ta.routs, out_a);
                            let kd = key(td.figures, r & 2 == 2 || td.routs, out_d);
                            ended(ka, kd, q * p);
                        }
                    }
                }
            }
        }
    }

    /// One fight with real dice, the sides playing `best` following the table.
    pub fn sample(&self, dice: &mut Dice) -> u64 {
        let game = &self.game;
        let mut state = game.start();
        let turns = game.steps();
        for turn in 0..turns {
            let mut fate = TableFate {
                dice: &mut *dice,
                solver: self,
                turn: turn as usize,
                sides: state.sides,
                first: 0,
                moved: HOLD,
            };
            if let Some(end) = game.step(&mut state, &mut fate) {
                return game::outcome_code(game, end, turn + 1, &state);
            }
        }
        game::outcome_code(game, game.at_limit(&state), turns, &state)
    }

    /// The table's index of a state at the start of a turn.
    pub(super) fn index_of(&self, sides: &[SideState; 2]) -> usize {
        let at = |s: usize| {
            let core = self.sides[s].index[&(sides[s].figures, sides[s].shaken, sides[s].general)] as usize;
            let room = ((i32::from(sides[s].room) - self.sides[s].room0) / self.step - self.sides[s].low) as usize;
            (core, room)
        };
        let ((ca, ia), (cd, id)) = (at(0), at(1));
        self.index(ca, ia, cd, id)
    }
}

/// A buffer of the forward walk, with its marks by run (see `distribution`).
type Marked = (Vec<[f64; 4]>, Vec<Vec<u64>>);

/// One run's states in one buffer, and their marks.
type Held<'a> = (&'a mut [[f64; 4]], &'a mut [u64]);

/// The masses a turn's states are spread into (by both sides' `routed`
/// flags), and where the forward walk keeps them, the marks of the states
/// spread into: by run of `length` states, a bit a state.
pub(super) struct Masses<'a> {
    pub(super) mass: &'a mut [[f64; 4]],
    pub(super) touched: Option<(&'a mut [Vec<u64>], usize)>,
}

impl Masses<'_> {
    /// State `index`'s masses, marked as spread into.
    #[inline]
    pub(super) fn at(&mut self, index: usize) -> &mut [f64; 4] {
        if let Some((marks, length)) = &mut self.touched {
            let (run, i) = (index / *length, index % *length);
            marks[run][i / 64] |= 1 << (i % 64);
        }
        &mut self.mass[index]
    }
}

/// Real dice, and the moves of sides playing `best` from the table.
pub(super) struct TableFate<'a> {
    pub(super) dice: &'a mut Dice,
    pub(super) solver: &'a DenseSolver,
    pub(super) turn: usize,
    /// The sides at the start of the turn.
    pub(super) sides: [SideState; 2],
    /// The side moving first this turn (side A, 2.1), once known.
    pub(super) first: usize,
    /// The first mover's move this turn, once taken.
    pub(super) moved: u16,
}

impl Fate for TableFate<'_> {
    fn die(&mut self, sides: u32) -> u32 {
        if sides <= 1 { 1 } else { self.dice.die(sides) }
    }

    fn ways(&mut self, ways: u32, of: u32) -> bool {
        ways >= of || (ways > 0 && (self.dice.below(u64::from(of)) as u32) < ways)
    }

    fn draw<L: Law + ?Sized>(&mut self, law: &L) -> u32 {
        law.sample(self.dice)
    }

    fn draw_grouped<T: Clone + 'static>(
        &mut self,
        sample: impl FnOnce(&mut Dice) -> T,
        _: impl FnOnce() -> Vec<(T, f64)>,
    ) -> T {
        sample(self.dice)
    }

    fn decide(
        &mut self,
        side: u8,
        decision: &'static Decision,
        options: &[u16],
        heuristic: &dyn Fn(Policy) -> u16,
    ) -> u16 {
        let s = usize::from(side);
        let policy = self.solver.plan.policy[s];
        let index = || self.solver.index_of(&self.sides);
        if std::ptr::eq(decision, &ORDER_DECISION) {
            let chosen = if policy != Policy::Best {
                heuristic(policy)
            } else if self.solver.first_of(self.turn, index(), s) == s {
                SIDE_A
            } else {
                SIDE_B
            };
            self.first = if chosen == SIDE_A { s } else { 1 - s };
            return chosen;
        }
        let chosen = if options.len() == 1 {
            options[0]
        } else if policy != Policy::Best {
            heuristic(policy)
        } else if s == self.first {
            self.solver.chosen(self.turn, index(), s)[s]
        } else {
            self.solver.answer(self.turn, index(), self.first, self.moved)
        };
        if s == self.first {
            self.moved = chosen;
        }
        chosen
    }
}
