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
    /// first option landing there shares one; where every answer from
    /// the place leaves the units out of each other's reach, one for all
    /// the classes, which are then read alike), each the second side's
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
                                let theirs = self.options_at(g, shaken[g], landed[0], landed[1]);
                                let settled = theirs.settled(plan.policy[g]);
                                let mut answers = Vec::new();
                                // Whether every answer leaves the units out of
                                // each other's reach: the worths after them are
                                // then read as class 0 whatever the first move's
                                // class, and so is the reply.
                                let mut quiet = true;
                                for (gi, &x) in theirs.list().iter().enumerate() {
                                    if settled.is_some_and(|y| y != x) {
                                        continue;
                                    }
                                    let mut after = landed;
                                    after[g] = (after[g] as i32 + self.steps_of(g, x)) as usize;
                                    debug_assert!(
                                        self.gap(after[0], after[1]) >= self.nearest && after[g] < self.sides[g].rooms
                                    );
                                    let mut classes = [0; 2];
                                    classes[f] = self.game.class(f, o);
                                    classes[g] = self.game.class(g, x);
                                    let class = if self.quiet(after[0], after[1]) {
                                        0
                                    } else {
                                        quiet = false;
                                        classes[0] * 3 + classes[1]
                                    };
                                    answers.push((x, gi as u8, self.place_at(after[0], after[1]) * 9 + class));
                                }
                                // A reply by the place after the first move and
                                // that move's class, but one for every class
                                // where all answers are quiet: the backward pass
                                // works out each reply once a block, and most
                                // places are out of reach.
                                let class = if quiet { 0 } else { self.game.class(f, o) };
                                let landing = self.place_at(landed[0], landed[1]) * 3 + class;
                                if known[landing] == u32::MAX {
                                    for &(_, _, at) in &answers {
                                        read[flags][at / 9] |= 1 << (at % 9);
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
}

mod backward;
mod explain;
mod forward;
mod table;
mod worth;

use forward::Masses;
use worth::*;
