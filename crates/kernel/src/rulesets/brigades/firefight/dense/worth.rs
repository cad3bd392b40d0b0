//! What the dense table keeps of a state's worth, and the sum of a turn's
//! law against the next turn's worths ([`DenseSolver::worth`]).

use super::*;

impl DenseSolver {
    /// The worth after both moves, given the next turn's worths. `cache`
    /// keeps the defender's law resolved to table offsets (with the chance
    /// it stays and the chance it is out), which the next call often
    /// shares, and, for that law, the sum over it from each attacker's
    /// landing (its next core and room step): the attacker's laws after
    /// the defender's move classes land mostly alike, so a state's worths
    /// after moves sum each landing once (the same sum, in the same
    /// order, so the worths are the same to the bit).
    pub(super) fn worth<W: Worth>(
        &self,
        (ca, ia, cd, id): (usize, usize, usize, usize),
        moved: [usize; 2],
        next: &[W],
        cache: &mut Resolved<W>,
    ) -> W {
        let [la, ld] = self.laws(ca, ia, cd, id, moved);
        let key = (ld.as_ptr() as usize, id, next.as_ptr() as usize);
        let span = self.span();
        let rooms = self.sides[0].rooms;
        if cache.key != key {
            cache.key = key;
            cache.stays.clear();
            (cache.d_in, cache.d_out) = (0.0, 0.0);
            for td in ld {
                match DenseSolver::lands(id, td) {
                    Some(j) => {
                        cache.stays.push((td.core as usize * span + j, td.p));
                        cache.d_in += td.p;
                    }
                    None => cache.d_out += td.p,
                }
            }
            // A new law: every landing's sum is stale.
            cache.stamp = cache.stamp.wrapping_add(1);
            if cache.stamp == 0 || cache.sums.len() != self.sides[0].cores.len() * rooms {
                cache.sums.clear();
                cache.sums.resize(self.sides[0].cores.len() * rooms, (0, W::default()));
                cache.stamp = 1;
            }
        }
        // What each ending is worth under the purpose, once a call rather
        // than once an outcome.
        let purpose = self.game.purpose;
        let (beaten, both, beat) =
            (W::ending(purpose, End::Defender), W::ending(purpose, End::BothBroke), W::ending(purpose, End::Attacker));
        let mut worth = W::default();
        for ta in la {
            match DenseSolver::lands(ia, ta) {
                // The attacker is out: the defender beat it if it stays,
                // both broke if it is out too.
                None => {
                    worth.add(ta.p * cache.d_in, beaten);
                    worth.add(ta.p * cache.d_out, both);
                }
                Some(i) => {
                    let landing = ta.core as usize * rooms + i;
                    let (stamp, known) = cache.sums[landing];
                    let sum = if stamp == cache.stamp {
                        known
                    } else {
                        let row = &next[ta.core as usize * self.sides[1].cores.len() * span + self.offsets[i]..];
                        let mut sum = W::default();
                        for &(offset, p) in &cache.stays {
                            sum.add(p, row[offset]);
                        }
                        // Both still in: a turn more to play.
                        sum.add_turn(cache.d_in);
                        // The defender is out: the attacker beat it.
                        sum.add(cache.d_out, beat);
                        cache.sums[landing] = (cache.stamp, sum);
                        sum
                    };
                    worth.add(ta.p, sum);
                }
            }
        }
        worth
    }
}

/// What the dense table keeps of a state's worth, as the generic solver
/// keeps it: both sides' chances of winning under the purpose, of beating
/// the other outright, and the turns to play ([`Full`]); or, where every
/// side playing `best` maximises its margin (the game is then zero-sum),
/// the attacker's two margins and the turns ([`Margins`]), which is less
/// for the table to hold and read.
pub(super) trait Worth: Copy + Default + Send + Sync {
    /// What ending `end` is worth under `purpose`.
    fn ending(purpose: game::Purpose, end: End) -> Self;
    /// `self += p * other`.
    fn add(&mut self, p: f64, other: Self);
    /// One more turn to play, with chance `p`.
    fn add_turn(&mut self, p: f64);
    /// What side `side` maximises under `objective`, most important first,
    /// as the generic solver ranks it.
    fn key(&self, side: usize, objective: game::Objective) -> [f64; 3];
}

/// Both sides' chances of winning under the purpose and of beating the
/// other outright, and the turns to play.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Full {
    pub(super) wins: [f64; 2],
    pub(super) beats: [f64; 2],
    pub(super) turns: f64,
}

impl Worth for Full {
    fn ending(purpose: game::Purpose, end: End) -> Full {
        let mut worth = Full::default();
        match purpose.winner(end) {
            ATTACKER => worth.wins[0] = 1.0,
            game::DEFENDER => worth.wins[1] = 1.0,
            _ => {}
        }
        if let Some(side) = end.beaten_by() {
            worth.beats[side as usize] = 1.0;
        }
        worth
    }

    #[inline]
    fn add(&mut self, p: f64, other: Self) {
        for s in 0..2 {
            self.wins[s] += p * other.wins[s];
            self.beats[s] += p * other.beats[s];
        }
        self.turns += p * other.turns;
    }

    #[inline]
    fn add_turn(&mut self, p: f64) {
        self.turns += p;
    }

    fn key(&self, side: usize, objective: game::Objective) -> [f64; 3] {
        game::preference(objective_of(self.wins, side, objective), self.beats[side] - self.beats[1 - side], self.turns)
    }
}

/// The attacker's margins (its chance of winning under the purpose minus
/// the defender's, and likewise of beating it outright), and the turns.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Margins {
    pub(super) aim: f64,
    pub(super) beat: f64,
    pub(super) turns: f64,
}

impl Worth for Margins {
    fn ending(purpose: game::Purpose, end: End) -> Margins {
        let full = Full::ending(purpose, end);
        Margins { aim: full.wins[0] - full.wins[1], beat: full.beats[0] - full.beats[1], turns: 0.0 }
    }

    #[inline]
    fn add(&mut self, p: f64, other: Self) {
        self.aim += p * other.aim;
        self.beat += p * other.beat;
        self.turns += p * other.turns;
    }

    #[inline]
    fn add_turn(&mut self, p: f64) {
        self.turns += p;
    }

    fn key(&self, side: usize, _: game::Objective) -> [f64; 3] {
        let sign = if side == 0 { 1.0 } else { -1.0 };
        game::preference(sign * self.aim, sign * self.beat, self.turns)
    }
}

/// A defender's law resolved to offsets in the table, for [`DenseSolver::worth`].
pub(super) struct Resolved<W> {
    /// The law (its first outcome's address), the defender's room step,
    /// and the next turn's worths (their address).
    pub(super) key: (usize, usize, usize),
    pub(super) stays: Vec<(usize, f64)>,
    pub(super) d_in: f64,
    pub(super) d_out: f64,
    /// The sum over the law from each attacker landing (`core * rooms +
    /// room step`), valid where its stamp is `stamp`.
    pub(super) sums: Vec<(u32, W)>,
    pub(super) stamp: u32,
}

impl<W> Default for Resolved<W> {
    fn default() -> Self {
        Resolved { key: (0, 0, 0), stays: Vec::new(), d_in: 0.0, d_out: 0.0, sums: Vec::new(), stamp: 0 }
    }
}
