//! [`DenseSolver`]: best play of two infantry units on a dense table.

use super::fire_game::*;
use super::*;

// ---------------------------------------------------------------------------
// Best play of two infantry units on a dense table (issue 13, issue 15).

/// The largest dense table [`DenseSolver`] builds: states (both sides' core
/// states and the places where the gap is at least 2") at most this, and
/// states times turns at most [`DENSE_MAX_STATE_TURNS`]. 24 against 24
/// with 24" of room each is 1,587,600 states from 4" (36 cores a side, 18
/// strengths short of shattered, shaken or not, at 1,225 places) and
/// 2,779,920 from 20" (2,145 places). The backward pass keeps two worths a
/// state (24 bytes each) and each block's worths after moves; the forward
/// walk two buffers of 32 bytes a state a thread (two threads here), so at
/// 3 M states the table takes at most about 900 MB with its choices.
pub const DENSE_MAX_STATES: usize = 3_000_000;

/// The same bound on states times turns (the table of choices keeps four
/// bytes a state a turn: 360 MB at the bound).
pub const DENSE_MAX_STATE_TURNS: usize = 90_000_000;

/// The runs the forward walk ([`DenseSolver::distribution`]) cuts each
/// turn's states into, each spreading into buffers of its own (two of 32
/// bytes a state): a fixed number, not one a thread, since a state's mass
/// is summed over the runs' buffers and a sum's last bits depend on how
/// it is cut (1 thread and 2 differed by 2e-18 when the runs followed the
/// threads). Two, as many as this 2-core machine runs at once: more runs
/// would cost two more buffers each for no speed here.
pub(super) const FORWARD_RUNS: usize = 2;

/// A room no rout in a law built for the table reaches past: the table
/// applies the real room afterwards.
pub(super) const FAR_ROOM: i16 = 10_000;

/// One way a side's turn ends, given its core state, whether it fired and
/// the fire it took: its next core state (if it stays), how far it routed
/// back, and whether that was a rout (the `routed` metric).
#[derive(Clone, Copy, Debug)]
pub(super) struct Turned {
    /// The next core's index, or `u32::MAX` when the side is out.
    pub(super) core: u32,
    /// Figures left (for the outcome code).
    pub(super) figures: u8,
    /// Room steps routed back this turn (0 when it held).
    pub(super) back: i16,
    /// Shattered, routed off by `FirefightRout::Ends`, or in.
    pub(super) out: Out,
    /// It failed a test this turn.
    pub(super) routs: bool,
    pub(super) p: f64,
}

/// One side of the dense table: its core states (figures, shaken, general;
/// no place, never `off`) and the places it may stand.
pub(super) struct DenseSide {
    pub(super) cores: Vec<SideState>,
    pub(super) index: HashMap<(u8, bool, bool), u32>,
    /// Its starting room, and the lowest and number of room steps.
    room0: i32,
    pub(super) low: i32,
    pub(super) rooms: usize,
    /// `fires[(core * (beyond + 1) + gap) * 2 + moving]`.
    pub(super) fires: Vec<bool>,
    /// The id of its volley's law on the enemy (0: no fire), same index.
    pub(super) volley: Vec<u32>,
    /// Its laws, `(core * 2 + fired) * incoming + volley id of the enemy`: runs of [`DenseSolver::turned`].
    pub(super) laws: Vec<(u32, u32)>,
}

/// The exact solver of [`FireGame`] between two infantry units (no
/// batteries, no 7.13 returns, not surrounded, charismas known): values
/// and choices on a dense table of every state a turn, each state's next
/// states found by index rather than by enumerating its step. It is the
/// generic solver's backward induction, specialised: the law of a turn
/// after both moves is the product of the two sides' laws (each side's
/// losses, test and rout depend on its own state, whether it fired and
/// the fire it took), so each side's law is tabulated once by (core state,
/// fired, incoming fire) and the product is summed directly against the
/// next turn's values. A test (`dense_solver_matches_the_generic_solver`)
/// checks it against the generic solver.
pub struct DenseSolver {
    pub(super) game: FireGame,
    pub(super) plan: game::Plan,
    pub(super) sides: [DenseSide; 2],
    pub(super) turned: Vec<Turned>,
    /// The room step (inches): every move and rout is a multiple of it.
    pub(super) step: i32,
    /// The closest the units may come (the start distance if closer).
    pub(super) nearest: i32,
    /// `choices[t][state]`: with the attacker moving first (side A, 2.1),
    /// the index of the attacker's option in its list in bits 0-2 and the
    /// index of the defender's answer to the attacker's `i`th option in
    /// bits `3 + 3i`; the same with the defender first from bit
    /// [`ORDER_BITS`]; and where the initiative is rolled, the order each
    /// side picks when it wins it (bit [`ORDER_PICK`] + side: 1 for side B).
    pub(super) choices: Vec<Vec<u64>>,
    /// Whether the initiative is rolled each turn (2.1,
    /// `firefight_initiative`): the table then solves both orders of the
    /// moves, and a state's worth is half the worth of the order the
    /// attacker picks and half the defender's.
    pub(super) rolled: bool,
    /// The places (both sides' room steps) where the gap is at least
    /// `nearest`, attacker's room step first: the places of attacker room
    /// step `ia` are `offsets[ia]..offsets[ia + 1]`, the defender's room
    /// step being the place less `offsets[ia]`.
    pub(super) offsets: Vec<usize>,
    /// Each place's room steps.
    pub(super) place_of: Vec<(u32, u32)>,
    /// The number of laws of the fire side `s` may take (the enemy's volleys, no fire first).
    pub(super) incoming: [usize; 2],
    /// Side `s`'s move options and its bold and cautious picks, by `(shaken * rooms of the
    /// attacker + attacker's room) * rooms of the defender + defender's room`.
    pub(super) options: [Vec<Options>; 2],
    /// By the side moving first, at each place ([`DenseSolver::place`]):
    /// its options under the plan, each with the index of the other
    /// side's reply to it in `replies`.
    pub(super) pairs: [Vec<Vec<Pair>>; 2],
    /// By the side moving first and the sides' shaken flags (`shaken[0] *
    /// 2 + shaken[1]`): the second side's replies, one for each place
    /// after the first side's move and that move's class (the second's
    /// options and the worths after them depend on nothing else, so every
    /// first option landing there shares one), each the second side's
    /// answers under the plan with the index in a block's worths after
    /// moves of the worth after the pair.
    pub(super) replies: [[Vec<Vec<(u16, u8, usize)>>; 4]; 2],
    /// By the same flags and each place: the move classes (bit `ma * 3 +
    /// md`) whose worth after moves some pair reads there, in either order.
    pub(super) read: [Vec<u16>; 4],
    /// Side `s`'s next core when neither side fires, where its law then
    /// holds no chance (one outcome, staying, probability 1), by core.
    pub(super) calm: [Vec<Option<u32>>; 2],
}

/// The first mover's option and its index in its list, with the index of
/// the other side's reply to it (see `replies`).
pub(super) type Pair = (u16, u8, u32);

/// The bits of [`DenseSolver::choices`] that one order of the moves takes:
/// 3 for the first mover's option and 3 for each of up to
/// [`MAX_MOVE_OPTIONS`] answers.
pub(super) const ORDER_BITS: u32 = 3 + 3 * MAX_MOVE_OPTIONS as u32;

/// The bit of [`DenseSolver::choices`] that holds the attacker's pick of
/// order when it wins the initiative (the defender's is the next): 0 side
/// A, 1 side B.
pub(super) const ORDER_PICK: u32 = 2 * ORDER_BITS;

/// A side's move options where it stands, and its bold and cautious picks.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Options {
    pub(super) list: [u16; MAX_MOVE_OPTIONS],
    pub(super) len: u8,
    pub(super) bold: u16,
    pub(super) cautious: u16,
}

impl Options {
    pub(super) fn list(&self) -> &[u16] {
        &self.list[..usize::from(self.len)]
    }

    /// The option a side playing `policy` other than best picks, or the only one.
    pub(super) fn settled(&self, policy: Policy) -> Option<u16> {
        if self.len == 1 {
            Some(self.list[0])
        } else if policy == Policy::Best {
            None
        } else if policy == Policy::Bold {
            Some(self.bold)
        } else {
            Some(self.cautious)
        }
    }
}

/// What side `side` maximises under `objective`, as the generic solver scores it.
pub(super) fn objective_of(worth: [f64; 2], side: usize, objective: game::Objective) -> f64 {
    match objective {
        game::Objective::Margin => worth[side] - worth[1 - side],
        game::Objective::Win => worth[side],
    }
}

pub(super) fn gcd(a: i32, b: i32) -> i32 {
    if b == 0 { a.abs() } else { gcd(b, a % b) }
}

impl DenseSolver {
    /// Whether the dense table applies to `game` at all.
    pub fn applies(game: &FireGame) -> bool {
        let rules = game.rules();
        (0..2).all(|s| {
            let side = &game.base.sides[s];
            // The choices keep an option's index in 3 bits.
            let options = 1 + game.moves(s).1.max(0) + game.retire_most(s).max(0);
            !side.battery_side()
                && !side.surrounded
                && game.base.charisma_law(s).len() == 1
                && options as usize <= MAX_MOVE_OPTIONS
        }) && !rules.optional_first_rout_off_table
    }

    /// The table's size: states, and states times turns.
    pub(super) fn size(game: &FireGame) -> (usize, usize) {
        let (step, nearest) = Self::geometry(game);
        let mut states = 1usize;
        for s in 0..2 {
            let side = &game.base.sides[s];
            let generals = if side.general == GeneralPlace::Attached { 2 } else { 1 };
            // As `build` lists its cores: every strength short of shattered, shaken or not.
            let strengths =
                (1..=side.figures).filter(|&f| !game.rules().is_shattered(side.figures, side.figures - f)).count();
            states *= strengths * 2 * generals;
        }
        states *= Self::places(game, step, nearest).0.last().copied().unwrap_or(0);
        (states, states * game.base.turns as usize)
    }

    /// The places where the gap is at least `nearest`, as `offsets` and
    /// `place_of` keep them.
    pub(super) fn places(game: &FireGame, step: i32, nearest: i32) -> (Vec<usize>, Vec<(u32, u32)>) {
        let ranges: [(i32, i32); 2] = std::array::from_fn(|s| Self::room_range(game, s, step, nearest));
        let rooms = |s: usize| (ranges[s].1 - ranges[s].0 + 1).max(0);
        // gap(ia, id) >= nearest: ia + id <= most.
        let most = (game.distance as i32 - nearest).div_euclid(step) - ranges[0].0 - ranges[1].0;
        let mut offsets = vec![0];
        let mut place_of = Vec::new();
        for ia in 0..rooms(0) {
            for id in 0..rooms(1).min(most - ia + 1).max(0) {
                place_of.push((ia as u32, id as u32));
            }
            offsets.push(place_of.len());
        }
        (offsets, place_of)
    }

    /// Whether the dense table applies and fits.
    pub fn fits(game: &FireGame) -> bool {
        let (states, state_turns) = Self::size(game);
        Self::applies(game) && states <= DENSE_MAX_STATES && state_turns <= DENSE_MAX_STATE_TURNS
    }

    pub(super) fn geometry(game: &FireGame) -> (i32, i32) {
        let rules = game.rules();
        let mut step = 0;
        for s in 0..2 {
            // Every whole inch up to the move, and up to the retreat.
            for n in 1..=game.moves(s).1.max(game.retire_most(s)) {
                step = gcd(step, n);
            }
        }
        for row in [RoutRow::Rout18, RoutRow::Rout12, RoutRow::Rout8, RoutRow::Rout6, RoutRow::Rout4] {
            step = gcd(step, rules.rout_distance(row) as i32);
        }
        let nearest = (rules.no_closer_than as i32).min(game.distance as i32);
        (step.max(1), nearest)
    }

    /// Side `s`'s room steps: from room 1 (or more) to the most it can
    /// advance, the other side standing at room 1 and the gap at its least.
    pub(super) fn room_range(game: &FireGame, s: usize, step: i32, nearest: i32) -> (i32, i32) {
        let room0 = game.base.sides[s].room as i32;
        let other = game.base.sides[1 - s].room as i32;
        let top = room0 + game.distance as i32 - nearest + other - 1;
        ((1 - room0).div_euclid(step) + i32::from((1 - room0).rem_euclid(step) != 0), (top - room0).div_euclid(step))
    }

    /// Solves `game` under `plan`; `None` where the table does not apply or fit.
    pub fn solve(game: &FireGame, plan: game::Plan) -> Option<DenseSolver> {
        if !Self::fits(game) {
            return None;
        }
        let mut solver = Self::build(game, plan);
        solver.backward();
        Some(solver)
    }

    pub(super) fn build(game: &FireGame, plan: game::Plan) -> DenseSolver {
        let (step, nearest) = Self::geometry(game);
        let rules = game.rules();
        let gaps = game.beyond as usize + 1;
        let mut sides: Vec<DenseSide> = (0..2)
            .map(|s| {
                let side = &game.base.sides[s];
                let start = game.base.start_state(s);
                let mut cores = Vec::new();
                // 7.5: an attached general may be lost; a unit without one never gains one.
                let generals: &[bool] = if start.general { &[true, false] } else { &[false] };
                for &general in generals {
                    for figures in (1..=side.figures).rev() {
                        if rules.is_shattered(side.figures, side.figures - figures) {
                            continue;
                        }
                        for shaken in [false, true] {
                            cores.push(SideState { figures: figures as u8, shaken, general, room: 0, ..start });
                        }
                    }
                }
                let index =
                    cores.iter().enumerate().map(|(i, c)| ((c.figures, c.shaken, c.general), i as u32)).collect();
                let (low, high) = Self::room_range(game, s, step, nearest);
                DenseSide {
                    cores,
                    index,
                    room0: side.room as i32,
                    low,
                    rooms: (high - low + 1).max(0) as usize,
                    fires: Vec::new(),
                    volley: Vec::new(),
                    laws: Vec::new(),
                }
            })
            .collect();
        // Each side's volleys, deduplicated: id 0 is no fire.
        let mut volleys: [Vec<Vec<(Volley, f64)>>; 2] =
            [vec![vec![(Volley::default(), 1.0)]], vec![vec![(Volley::default(), 1.0)]]];
        for s in 0..2 {
            let count = sides[s].cores.len() * gaps * 2;
            let mut fires = vec![false; count];
            let mut ids = vec![0u32; count];
            for (c, core) in sides[s].cores.iter().enumerate() {
                for gap in 0..gaps {
                    for moving in [false, true] {
                        let at = game.at(gap as i32, moving, false);
                        let mut pair = [*core; 2];
                        pair[1 - s] = game.base.start_state(1 - s);
                        let i = (c * gaps + gap) * 2 + usize::from(moving);
                        // 2.4: whether a shaken unit fires is its move (`STAND`).
                        fires[i] = at.reaches(s, pair);
                        if fires[i] {
                            let law = at.volley_law(s, *core);
                            ids[i] = match volleys[s].iter().position(|l| *l == law) {
                                Some(id) => id as u32,
                                None => {
                                    volleys[s].push(law);
                                    (volleys[s].len() - 1) as u32
                                }
                            };
                        }
                    }
                }
            }
            sides[s].fires = fires;
            sides[s].volley = ids;
        }
        // Each side's laws by (core, fired, the enemy's volley).
        let mut turned = Vec::new();
        for s in 0..2 {
            let incoming = &volleys[1 - s];
            // 1.11: the general's charisma, known (`applies`).
            let charisma = game.base.charisma_law(s)[0].0;
            let mut laws = Vec::new();
            for core in &sides[s].cores {
                for fired in [false, true] {
                    for law in incoming {
                        let first = turned.len();
                        let before = SideState { room: FAR_ROOM, ..*core };
                        for &(volley, pv) in law {
                            for ((after, out), p) in game.base.side_outcomes(s, before, fired, volley, charisma) {
                                let back = (FAR_ROOM - after.room) / step as i16;
                                let index = if out == Out::In {
                                    sides[s].index[&(after.figures, after.shaken, after.general)]
                                } else {
                                    u32::MAX
                                };
                                let entry = Turned {
                                    core: index,
                                    figures: after.figures,
                                    back,
                                    out,
                                    routs: after.routed,
                                    p: pv * p,
                                };
                                match turned[first..].iter_mut().find(|t: &&mut Turned| {
                                    t.core == entry.core
                                        && t.figures == entry.figures
                                        && t.back == entry.back
                                        && t.out == entry.out
                                        && t.routs == entry.routs
                                }) {
                                    Some(t) => t.p += entry.p,
                                    None => turned.push(entry),
                                }
                            }
                        }
                        let mut law = (first as u32, (turned.len() - first) as u32);
                        // A unit not shaken takes the same law whether it
                        // fired or not (only a shaken unit's recovery, 2.4,
                        // asks): it is kept once, so that `worth`'s cache
                        // of the defender's law serves both.
                        if fired {
                            let (held, count) = laws[laws.len() - incoming.len()];
                            let same = |x: &Turned, y: &Turned| {
                                (x.core, x.figures, x.back, x.out, x.routs, x.p.to_bits())
                                    == (y.core, y.figures, y.back, y.out, y.routs, y.p.to_bits())
                            };
                            if count == law.1
                                && turned[held as usize..(held + count) as usize]
                                    .iter()
                                    .zip(&turned[first..])
                                    .all(|(x, y)| same(x, y))
                            {
                                turned.truncate(first);
                                law = (held, count);
                            }
                        }
                        laws.push(law);
                    }
                }
            }
            sides[s].laws = laws;
        }
        let [a, d] = <[DenseSide; 2]>::try_from(sides).ok().expect("two sides");
        let (offsets, place_of) = Self::places(game, step, nearest);
        let mut solver = DenseSolver {
            game: game.clone(),
            plan,
            sides: [a, d],
            turned,
            step,
            nearest,
            choices: Vec::new(),
            rolled: game.rolls_initiative(),
            offsets,
            place_of,
            incoming: [volleys[1].len(), volleys[0].len()],
            options: [Vec::new(), Vec::new()],
            pairs: Default::default(),
            replies: Default::default(),
            read: Default::default(),
            calm: [Vec::new(), Vec::new()],
        };
        for s in 0..2 {
            let side = &solver.sides[s];
            solver.calm[s] = (0..side.cores.len())
                .map(|c| {
                    let (first, count) = side.laws[c * 2 * solver.incoming[s]];
                    let t = &solver.turned[first as usize];
                    (count == 1 && t.out == Out::In && t.back == 0 && t.p == 1.0).then_some(t.core)
                })
                .collect();
        }
        // Each side's options where the two stand, as `FireGame::move_options` and `bold_move` give them.
        for s in 0..2 {
            let mut table = Vec::new();
            for shaken in [false, true] {
                for ia in 0..solver.sides[0].rooms {
                    for id in 0..solver.sides[1].rooms {
                        let mut pair = [game.base.start_state(0), game.base.start_state(1)];
                        pair[0].room = solver.room(0, ia) as i16;
                        pair[1].room = solver.room(1, id) as i16;
                        pair[s].shaken = shaken;
                        let list = game.move_options(s, &pair);
                        let mut options = Options {
                            len: list.len() as u8,
                            bold: game.bold_move(s, &pair, &list),
                            cautious: game.cautious_move(s, &pair, &list),
                            ..Options::default()
                        };
                        options.list[..list.len()].copy_from_slice(&list);
                        table.push(options);
                    }
                }
            }
            solver.options[s] = table;
        }
        solver.build_pairs();
        solver
    }

    /// Side `s`'s room at room step `i`.
    pub(super) fn room(&self, s: usize, i: usize) -> i32 {
        self.sides[s].room0 + (self.sides[s].low + i as i32) * self.step
    }

    /// The gap between the units at room steps `ia`, `id`.
    pub(super) fn gap(&self, ia: usize, id: usize) -> i32 {
        self.game.distance as i32
            - (self.sides[0].low + ia as i32) * self.step
            - (self.sides[1].low + id as i32) * self.step
    }

    /// The number of places (see `offsets`): the states of a pair of cores.
    pub(super) fn span(&self) -> usize {
        self.place_of.len()
    }

    /// The number of states.
    pub(super) fn states(&self) -> usize {
        self.sides[0].cores.len() * self.sides[1].cores.len() * self.span()
    }

    /// The place of room steps `ia`, `id` (the gap at least `nearest`).
    #[inline]
    pub(super) fn place_at(&self, ia: usize, id: usize) -> usize {
        self.offsets[ia] + id
    }

    /// A state's index: both cores, then the place. Every place of a
    /// state's next states lies in the same pair of cores' block or
    /// another's at the same offset (a rout only widens the gap, and the
    /// places of a narrower attacker room step run at least as far).
    pub(super) fn index(&self, ca: usize, ia: usize, cd: usize, id: usize) -> usize {
        (ca * self.sides[1].cores.len() + cd) * self.span() + self.place_at(ia, id)
    }

    pub(super) fn unindex(&self, index: usize) -> (usize, usize, usize, usize) {
        let (c, p) = (index / self.span(), index % self.span());
        let (ia, id) = self.place_of[p];
        let cores = self.sides[1].cores.len();
        (c / cores, ia as usize, c % cores, id as usize)
    }

    /// Side `s`'s options at a state.
    pub(super) fn options_at(&self, s: usize, shaken: bool, ia: usize, id: usize) -> &Options {
        &self.options[s][(usize::from(shaken) * self.sides[0].rooms + ia) * self.sides[1].rooms + id]
    }

    /// The room steps an option moves side `s` forward.
    pub(super) fn steps_of(&self, s: usize, option: u16) -> i32 {
        self.game.delta(s, option) / self.step
    }

    /// The two sides' laws after their moves (classes `moved`), at room steps `ia`, `id`.
    pub(super) fn laws(&self, ca: usize, ia: usize, cd: usize, id: usize, moved: [usize; 2]) -> [&[Turned]; 2] {
        let gaps = self.game.beyond as usize + 1;
        let gap = (self.gap(ia, id).max(0) as usize).min(gaps - 1);
        let cores = [ca, cd];
        let mut fired = [false; 2];
        let mut volley = [0usize; 2];
        for s in 0..2 {
            let i = (cores[s] * gaps + gap) * 2 + usize::from(moved[s] == 1);
            fired[s] = moved[s] != 2 && self.sides[s].fires[i];
            if fired[s] {
                volley[s] = self.sides[s].volley[i] as usize;
            }
        }
        std::array::from_fn(|s| {
            let (first, count) =
                self.sides[s].laws[(cores[s] * 2 + usize::from(fired[s])) * self.incoming[s] + volley[1 - s]];
            &self.turned[first as usize..(first + count) as usize]
        })
    }

    /// Where a side's turn leaves it: its room step, or `None` when it is
    /// out. Room step 0 is the least room of 1" or more, so a rout back
    /// below it is a rout back past the baseline (5.7.3: off).
    #[inline]
    pub(super) fn lands(i: usize, t: &Turned) -> Option<usize> {
        let back = t.back as usize;
        (t.out == Out::In && i >= back).then(|| i - back)
    }

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

    /// The index in `replies` and `read` of the sides' shaken flags.
    pub(super) fn flags(&self, shaken: [bool; 2]) -> usize {
        usize::from(shaken[0]) * 2 + usize::from(shaken[1])
    }

    /// The index in `pairs` of a place (both rooms) with the sides shaken or not.
    pub(super) fn place(&self, shaken: [bool; 2], ia: usize, id: usize) -> usize {
        ((usize::from(shaken[0]) * 2 + usize::from(shaken[1])) * self.sides[0].rooms + ia) * self.sides[1].rooms + id
    }

    /// Whether neither unit reaches the other at room steps `ia`, `id`:
    /// how they moved then changes nothing this turn.
    pub(super) fn quiet(&self, ia: usize, id: usize) -> bool {
        self.game.at(self.gap(ia, id), false, false).in_range == [false; 2]
    }

    /// Every place's move pairs under the plan, in each order the table
    /// solves (see `pairs`, `replies`, `read`).
    pub(super) fn build_pairs(&mut self) {
        let plan = self.plan;
        let span = self.span();
        let mut read: [Vec<u16>; 4] = std::array::from_fn(|_| vec![0u16; span]);
        for f in 0..self.orders() {
            // Side `f` moves first, side `g` answers.
            let g = 1 - f;
            let mut table = Vec::new();
            for shaken in [[false, false], [false, true], [true, false], [true, true]] {
                let flags = self.flags(shaken);
                let mut replies = Vec::new();
                // A reply's index by the place after the first move and its class.
                let mut known = vec![u32::MAX; span * 3];
                for ia in 0..self.sides[0].rooms {
                    for id in 0..self.sides[1].rooms {
                        let mut pairs = Vec::new();
                        if self.gap(ia, id) >= self.nearest {
                            let mine = self.options_at(f, shaken[f], ia, id);
                            let fixed = mine.settled(plan.policy[f]);
                            for (fi, &o) in mine.list().iter().enumerate() {
                                if fixed.is_some_and(|x| x != o) {
                                    continue;
                                }
                                let mut landed = [ia, id];
                                landed[f] = (landed[f] as i32 + self.steps_of(f, o)) as usize;
                                // No move brings the units nearer than `nearest`.
                                debug_assert!(
                                    self.gap(landed[0], landed[1]) >= self.nearest && landed[f] < self.sides[f].rooms
                                );
                                let landing = self.place_at(landed[0], landed[1]) * 3 + self.game.class(f, o);
                                if known[landing] == u32::MAX {
                                    let theirs = self.options_at(g, shaken[g], landed[0], landed[1]);
                                    let settled = theirs.settled(plan.policy[g]);
                                    let mut answers = Vec::new();
                                    for (gi, &x) in theirs.list().iter().enumerate() {
                                        if settled.is_some_and(|y| y != x) {
                                            continue;
                                        }
                                        let mut after = landed;
                                        after[g] = (after[g] as i32 + self.steps_of(g, x)) as usize;
                                        debug_assert!(
                                            self.gap(after[0], after[1]) >= self.nearest
                                                && after[g] < self.sides[g].rooms
                                        );
                                        let mut classes = [0; 2];
                                        classes[f] = self.game.class(f, o);
                                        classes[g] = self.game.class(g, x);
                                        let class = if self.quiet(after[0], after[1]) {
                                            0
                                        } else {
                                            classes[0] * 3 + classes[1]
                                        };
                                        let place = self.place_at(after[0], after[1]);
                                        read[flags][place] |= 1 << class;
                                        answers.push((x, gi as u8, place * 9 + class));
                                    }
                                    known[landing] = replies.len() as u32;
                                    replies.push(answers);
                                }
                                pairs.push((o, fi as u8, known[landing]));
                            }
                        }
                        table.push(pairs);
                    }
                }
                self.replies[f][flags] = replies;
            }
            self.pairs[f] = table;
        }
        self.read = read;
    }

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
        let mut mass = vec![[0.0f64; 4]; n];
        mass[self.index(core(0), room(0), core(1), room(1))][0] = 1.0;
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
        let runs = FORWARD_RUNS;
        let length = n.div_ceil(runs);
        let fresh = || -> Vec<Vec<[f64; 4]>> { (0..runs).map(|_| vec![[0.0f64; 4]; n]).collect() };
        let (mut filled, mut spread) = (fresh(), fresh());
        let mut endings: Vec<Vec<f64>> = (0..runs).map(|_| vec![0.0f64; ended_len]).collect();
        filled[0] = mass;
        for t in 0..turns {
            // Each run's states in every buffer filled last turn.
            let mut held: Vec<Vec<&mut [[f64; 4]]>> = (0..runs).map(|_| Vec::with_capacity(runs)).collect();
            for buffer in &mut filled {
                for (run, chunk) in buffer.chunks_mut(length).enumerate() {
                    held[run].push(chunk);
                }
            }
            held.into_par_iter().zip(spread.par_iter_mut()).zip(endings.par_iter_mut()).enumerate().for_each(
                |(run, ((mut held, next), ended))| {
                    for i in 0..held.first().map_or(0, |h| h.len()) {
                        let mut m = [0.0f64; 4];
                        for buffer in &mut held {
                            let q = std::mem::take(&mut buffer[i]);
                            for r in 0..4 {
                                m[r] += q[r];
                            }
                        }
                        if m == [0.0; 4] {
                            continue;
                        }
                        let index = run * length + i;
                        self.spread(t, index, m, next, &mut |ka, kd, q| ended[ka * side_keys[1] + kd] += q, &key);
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
            for buffer in &filled {
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
        next: &mut [[f64; 4]],
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
        next: &mut [[f64; 4]],
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
                    let target = &mut next[self.index(ta.core as usize, i, td.core as usize, j)];
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
                self.spread(t, index, *m, &mut next, &mut |_, _, _| {}, &key);
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
