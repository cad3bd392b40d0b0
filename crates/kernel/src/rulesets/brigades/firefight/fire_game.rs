//! [`FireGame`]: the firefight on the decision model (its state, moves and step).

use super::*;

// ---------------------------------------------------------------------------
// The firefight on the decision model.

/// 2.11, 3.1 Each unit's move in a firefight's movement phase.
pub static MOVE_DECISION: Decision = Decision {
    name: "move",
    who: "either side",
    doc: "Infantry not shaken, in the movement phase (2.1, side A first: see `order`), by the whole inch (2.11's rates are \
          maximums): hold and fire; close up to half a move and fire at the moving penalty (3.1, 3.3 -2), or more, \
          up to a whole move, and not fire; or retire, same facing, at half speed (2.12: an inch back costs two of \
          the move; `retire_speed`), firing while the cost is at most half a move; never closer than 2\" (2.2), \
          never back off its own edge. Infantry shaken stands (2.4, issue 32 item 5): hold and fire at -2 (3.3), \
          staying shaken, or stand to recover, holding its fire for the turn (it recovers at the turn's end if it \
          stays in). Batteries never move (3.1: artillery may not move and fire).",
    options: "hold; close N inches; retire N inches; stand to recover (shaken)",
};

/// 3.2, 3.6 A battery's ammunition where both reach.
pub static AMMUNITION_DECISION: Decision = Decision {
    name: "ammunition",
    who: "either side",
    doc: "A battery whose target is within its canister range, which its ballshot also reaches (3.2): canister, \
          or ballshot (against guns a ballshot hit takes a gun on 10 and misses on 1-7, canister takes a gunner \
          on 5-10, 3.4).",
    options: "canister; ballshot",
};

/// 2.1 The initiative's winner picks side A or side B for the turn.
pub static ORDER_DECISION: Decision = Decision {
    name: "order",
    who: "either side",
    doc: "The side that wins the turn's initiative (2.1: rolled every turn, each side half the time; \
          `firefight_initiative`) picks side A, moving first, or side B, moving after it has seen A's move. Bold \
          takes side A (it means to advance, and makes the enemy answer its move); cautious side B (it waits to \
          see what the enemy does).",
    options: "side A (move first); side B (move second)",
};

pub(super) static FIRE_DECISIONS: &[&Decision] = &[&ORDER_DECISION, &MOVE_DECISION, &AMMUNITION_DECISION];

/// The `order` options: side A moves first, side B second (2.1).
pub(super) const SIDE_A: u16 = 0;
/// Side B: the winner moves second.
pub(super) const SIDE_B: u16 = 1;

/// The move options, in the order ties are broken (holding first, then
/// closing the fewest inches, then retiring the fewest): hold is 0, closing
/// `n` inches is `n`, retiring `n` inches is [`RETIRE`] + `n`.
pub(super) const HOLD: u16 = 0;
/// Retiring `n` inches is the option `RETIRE + n`.
pub(super) const RETIRE: u16 = 100;
/// A shaken unit stands to recover (2.4): it holds its fire and does not
/// move. Offered to shaken infantry only, after `HOLD` (which for a shaken
/// unit is holding and firing at -2, 3.3, staying shaken).
pub(super) const STAND: u16 = 1000;

/// The most move options a side has ([`super::DenseSolver`] packs its choices in 3 bits).
pub(super) const MAX_MOVE_OPTIONS: usize = 8;

/// A firefight's state between turns: both sides (each side's `room` also
/// gives its place: it has advanced `room - start room` inches), the
/// charismas once rolled, and how each side ended, once it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FireState {
    /// The attacker and the defender.
    pub sides: [SideState; 2],
    /// Each attached general's charisma (1.11), rolled at the first step.
    pub charisma: [i8; 2],
    /// How each side ended (both `In` while the fight goes on).
    pub outs: [Out; 2],
}

/// A draw from an enumerated law: the index of its outcome.
#[derive(Clone, Debug)]
pub(super) struct Table(Vec<f64>);

impl Table {
    pub(super) fn new(probabilities: impl Iterator<Item = f64>) -> (Table, Vec<(u32, f64)>) {
        let probabilities: Vec<f64> = probabilities.collect();
        let outcomes = probabilities.iter().enumerate().map(|(i, &p)| (i as u32, p)).collect();
        (Table(probabilities), outcomes)
    }
}

/// A [`Table`] with its outcomes, as a [`Law`].
#[derive(Clone, Debug)]
pub(super) struct TableLaw(Table, Vec<(u32, f64)>);

impl Law for TableLaw {
    fn sample(&self, dice: &mut Dice) -> u32 {
        let u = dice.below(1 << 53) as f64 / (1u64 << 53) as f64;
        let mut acc = 0.0;
        for (i, &p) in self.0.0.iter().enumerate() {
            acc += p;
            if u < acc {
                return i as u32;
            }
        }
        (self.0.0.len() - 1) as u32
    }

    fn outcomes(&self) -> &[(u32, f64)] {
        &self.1
    }
}

pub(super) fn draw<F: Fate>(fate: &mut F, probabilities: impl Iterator<Item = f64>) -> usize {
    let (table, outcomes) = Table::new(probabilities);
    if outcomes.len() == 1 {
        return 0;
    }
    fate.draw(&TableLaw(table, outcomes)) as usize
}

/// The firefight played on the kernel's decision model: the units keep
/// their places between turns (a rout opens the gap, and only a unit's own
/// moves close it), each side decides how to move, and a battery which
/// ammunition to fire.
#[derive(Clone, Debug)]
pub struct FireGame {
    /// What each side must achieve (the scenario's `purpose` key).
    pub(super) purpose: game::Purpose,
    /// The firefight at its start distance, for the laws that do not depend on distance.
    pub(super) base: Firefight,
    /// The start distance (inches).
    pub(super) distance: u32,
    /// Beyond this distance nobody reaches: distances are clamped to it.
    pub(super) beyond: u32,
    /// The firefight at each distance up to `beyond`, by [moving][ball].
    pub(super) at: Vec<[[Firefight; 2]; 2]>,
    /// Each volley's law with its draw table, built the first time a fight
    /// needs it (see [`FireGame::volley_law`]): a sampler met the same few
    /// laws every turn of every fight and built each afresh.
    pub(super) volley_laws: Vec<std::sync::OnceLock<VolleyLaw>>,
    /// The most dice either side rolls, plus one (the laws' last index).
    pub(super) dice_rows: usize,
}

/// One side's volley law at a distance: its volleys, and the table a draw
/// picks one from.
#[derive(Clone, Debug)]
pub(super) struct VolleyLaw {
    pub(super) volleys: Vec<Volley>,
    law: TableLaw,
}

impl FireGame {
    /// The firefight of `Firefight::new`'s arguments, played with decisions.
    pub fn new(
        rules: &Rules,
        attacker: FireSide,
        defender: FireSide,
        distance: u32,
        turns: u32,
    ) -> Result<FireGame, ParamError> {
        let base = Firefight::new(rules, attacker, defender, distance, turns)?;
        let reach = |side: &FireSide| {
            let bands = if side.battery_side() {
                [RangeBand::Canister, RangeBand::Ballshot]
            } else {
                [RangeBand::Close, RangeBand::Far]
            };
            bands.iter().filter_map(|&b| rules.band_range(side.weapon, b)).max().unwrap_or(0)
        };
        let beyond = reach(&attacker).max(reach(&defender)) + 1;
        let mut at = Vec::new();
        for d in 0..=beyond {
            let build = |moving: bool, ball: bool| {
                let mut sides = [attacker, defender];
                if moving {
                    // 3.3: the firer moved (half a move, 3.1).
                    for side in &mut sides {
                        side.modifier += rules.fire_moving;
                    }
                }
                Firefight::build(rules, sides[0], sides[1], d.max(1), turns, ball)
            };
            at.push([[build(false, false)?, build(false, true)?], [build(true, false)?, build(true, true)?]]);
        }
        let dice_rows = base.dice.iter().flatten().copied().max().unwrap_or(0) as usize + 1;
        let volley_laws = (0..at.len() * 16 * dice_rows).map(|_| std::sync::OnceLock::new()).collect();
        Ok(FireGame { purpose: game::Purpose::Manoeuvre, base, distance, beyond, at, volley_laws, dice_rows })
    }

    /// From the catalogue's settings.
    pub fn from_settings(rules: &Rules, settings: &Settings) -> Result<FireGame, ParamError> {
        FireGame::new(
            rules,
            FireSide::from_settings(settings, "attacker"),
            FireSide::from_settings(settings, "defender"),
            settings.int("distance") as u32,
            settings.int("turns") as u32,
        )
    }

    /// Inches side `s` has advanced from its start (negative: fallen back).
    pub(super) fn advanced(&self, s: usize, state: &SideState) -> i32 {
        i32::from(state.room) - self.base.sides[s].room as i32
    }

    /// The distance between the units.
    pub fn gap(&self, sides: &[SideState; 2]) -> i32 {
        self.distance as i32 - self.advanced(0, &sides[0]) - self.advanced(1, &sides[1])
    }

    pub(super) fn rules(&self) -> &Rules {
        &self.base.rules
    }

    /// The half and the whole move of side `s` (2.11, infantry in line),
    /// the half rounded down to the whole inch.
    pub(super) fn moves(&self, s: usize) -> (i32, i32) {
        let rules = self.rules();
        let full = if self.base.sides[s].figures > rules.line_max_width {
            rules.move_infantry_extended_line
        } else {
            rules.move_infantry_line
        } as i32;
        (full / 2, full)
    }

    /// The most inches side `s` may retire in a turn (2.12 "Retire, same
    /// facing: 1/2 speed"): half its move under either reading of
    /// `retire_speed` (printed: an inch back costs two; half_move: half a
    /// move back, as the old reading had it).
    pub(super) fn retire_most(&self, s: usize) -> i32 {
        self.moves(s).1 / 2
    }

    /// Whether side `s` fires after `option` (3.1: half a move and fire):
    /// holding, closing at most half a move, and retiring while the
    /// retreat costs at most half a move (`retire_speed`: printed, an
    /// inch back costs two inches of the move, so 1" of a 4" move; the
    /// old half_move reading fires after any retreat it allows).
    pub(super) fn fires_after(&self, s: usize, option: u16) -> bool {
        let full = self.moves(s).1;
        match option {
            HOLD => true,
            // 2.4: standing to recover, the unit holds its fire.
            STAND => false,
            o if o > RETIRE => match self.rules().retire_speed {
                RetireSpeed::Printed => 4 * i32::from(o - RETIRE) <= full,
                RetireSpeed::HalfMove => true,
            },
            o => 2 * i32::from(o) <= full,
        }
    }

    /// The movement class of side `s`'s `option`: 0 held, 1 moved and
    /// fires (at the moving penalty, 3.3), 2 moved and does not fire.
    pub(super) fn class(&self, s: usize, option: u16) -> usize {
        if option == HOLD {
            0
        } else if option == STAND || !self.fires_after(s, option) {
            2
        } else {
            1
        }
    }

    /// Whether side `s` fires after `option` at the firefight `at`, the
    /// units standing as `sides` after the moves: infantry fires where it
    /// reaches unless its option holds its fire (a whole move, a long
    /// retreat, standing to recover: the shaken unit's fire is its
    /// decision, 2.4); a battery, which never decides, fires as
    /// `shaken_policy` reads 2.4.
    pub(super) fn fires_with(&self, s: usize, option: u16, at: &Firefight, sides: [SideState; 2]) -> bool {
        if self.base.sides[s].battery_side() {
            self.fires_after(s, option) && at.fires(s, sides)
        } else {
            self.fires_after(s, option) && at.reaches(s, sides)
        }
    }

    /// What a side playing a heuristic (`bold` or `cautious`) does when
    /// shaken: as `shaken_policy` reads 2.4 (by default it stands to
    /// recover). Both heuristics read it alike: their names are about the
    /// approach (closing or holding), and a shaken unit does not move.
    pub(super) fn shaken_pick(&self) -> u16 {
        if self.rules().shaken_policy == ShakenPolicy::Recover { STAND } else { HOLD }
    }

    /// The cautious pick of side `s` from `sides`: hold, or a shaken
    /// unit's reading of 2.4 ([`FireGame::shaken_pick`]).
    pub(super) fn cautious_move(&self, s: usize, sides: &[SideState; 2], options: &[u16]) -> u16 {
        if sides[s].shaken && options.contains(&STAND) { self.shaken_pick() } else { HOLD }
    }

    /// Side `s`'s legal moves with `sides` as they stand.
    pub(super) fn move_options(&self, s: usize, sides: &[SideState; 2]) -> Vec<u16> {
        let me = sides[s];
        if self.base.sides[s].battery_side() || me.off || sides[1 - s].off {
            // 3.1 guns do not move and fire; 7.13 nobody moves for an absent enemy.
            return vec![HOLD];
        }
        if me.shaken {
            // 2.4 a shaken unit stays put: it fires (at -2, 3.3) and stays
            // shaken, or stands still to recover, holding its fire. 2.4
            // leaves which to the player (issue 32 item 5).
            return vec![HOLD, STAND];
        }
        let (_, full) = self.moves(s);
        let gap = self.gap(sides);
        let nearest = (self.rules().no_closer_than as i32).min(gap);
        let mut options = vec![HOLD];
        // 2.11 any whole number of inches up to the move, 2.2 never nearer than 2".
        for n in 1..=full.min(gap - nearest) {
            options.push(n as u16);
        }
        // 2.12 retire at half speed, never off its own edge, nor through a ring (5.8).
        if !self.base.sides[s].surrounded {
            for n in 1..=self.retire_most(s).min(i32::from(me.room) - 1) {
                options.push(RETIRE + n as u16);
            }
        }
        options
    }

    /// The inches an option moves side `s` forward.
    pub(super) fn delta(&self, _s: usize, option: u16) -> i32 {
        if option == STAND {
            0
        } else if option > RETIRE {
            -i32::from(option - RETIRE)
        } else {
            i32::from(option)
        }
    }

    /// The firefight at the units' distance, moving or not, ball or not.
    pub(super) fn at(&self, gap: i32, moving: bool, ball: bool) -> &Firefight {
        let d = (gap.max(0) as u32).min(self.beyond) as usize;
        &self.at[d][usize::from(moving)][usize::from(ball)]
    }

    /// 2.1 Who is side A this turn, moving first: under `rolled` each side
    /// wins the initiative half the time (a D10 each, ties rolled again)
    /// and its winner decides ([`ORDER_DECISION`]); under `attacker_first`
    /// the attacker, with no roll. With a battery on either side nothing is
    /// rolled either: a battery never moves (3.1), so the order changes
    /// nothing.
    pub(super) fn rolls_initiative(&self) -> bool {
        self.rules().firefight_initiative == FirefightInitiative::Rolled
            && !self.base.sides.iter().any(FireSide::battery_side)
    }

    /// Side A this turn (see [`FireGame::rolls_initiative`]).
    pub(super) fn first_mover<F: Fate>(&self, fate: &mut F) -> usize {
        if !self.rolls_initiative() {
            return 0;
        }
        let winner = usize::from(!fate.d10_at_most(5));
        let order = fate.decide(winner as u8, &ORDER_DECISION, &[SIDE_A, SIDE_B], &|policy| match policy {
            Policy::Cautious => SIDE_B,
            _ => SIDE_A,
        });
        if order == SIDE_A { winner } else { 1 - winner }
    }

    /// Side `s`'s volley law from `state` at the units' distance, moving
    /// or not, ball or not: [`Firefight::volley_law`], built once per
    /// distance, movement, ammunition, side, shaken or not and dice.
    pub(super) fn volley_law(&self, gap: i32, moving: bool, ball: bool, s: usize, state: SideState) -> &VolleyLaw {
        let d = (gap.max(0) as u32).min(self.beyond) as usize;
        let at = &self.at[d][usize::from(moving)][usize::from(ball)];
        let dice = at.dice_of(s, state) as usize;
        let key = (((d * 2 + usize::from(moving)) * 2 + usize::from(ball)) * 2 + s) * 2 + usize::from(state.shaken);
        self.volley_laws[key * self.dice_rows + dice].get_or_init(|| {
            let law = at.volley_law(s, state);
            let (table, outcomes) = Table::new(law.iter().map(|v| v.1));
            VolleyLaw { volleys: law.into_iter().map(|v| v.0).collect(), law: TableLaw(table, outcomes) }
        })
    }

    pub(super) fn bold_move(&self, s: usize, sides: &[SideState; 2], options: &[u16]) -> u16 {
        // Bold closes back to the start distance, as the old fixed reading
        // had it: a whole move while it cannot shoot, half a move (firing)
        // while the gap is wider than at the start. Shaken, it reads 2.4
        // as `shaken_policy` does (see `shaken_pick`).
        if sides[s].shaken && options.contains(&STAND) {
            return self.shaken_pick();
        }
        let gap = self.gap(sides);
        let reaches = self.at(gap, false, false).in_range[s];
        let (half, full) = self.moves(s);
        let (half, full) = (half as u16, full as u16);
        if !reaches && half < full && options.contains(&full) {
            full
        } else if half > 0 && (gap - i32::from(half) >= self.distance as i32 || !reaches) && options.contains(&half) {
            half
        } else {
            HOLD
        }
    }
}

impl FireGame {
    /// This fight under `purpose`: what each side must achieve by the turn
    /// limit ([`crate::game::Purpose`]).
    pub fn with_purpose(mut self, purpose: game::Purpose) -> Self {
        self.purpose = purpose;
        self
    }
}

impl Game for FireGame {
    type State = FireState;

    fn purpose(&self) -> game::Purpose {
        self.purpose
    }

    fn layout(&self) -> &Layout {
        &self.base.layout
    }

    fn start(&self) -> FireState {
        FireState {
            sides: [self.base.start_state(0), self.base.start_state(1)],
            charisma: [UNROLLED; 2],
            outs: [Out::In; 2],
        }
    }

    fn steps(&self) -> u32 {
        self.base.turns
    }

    fn step<F: Fate>(&self, state: &mut FireState, fate: &mut F) -> Option<End> {
        let rules = self.rules();
        if state.charisma[0] == UNROLLED {
            // 1.11: an attached general's charisma, rolled once at the start.
            for s in 0..2 {
                let law = self.base.charisma_law(s);
                let i = draw(fate, law.iter().map(|&(_, p)| p));
                state.charisma[s] = law[i].0 as i8;
            }
        }
        // 7.13, 7.4: a D10 at the start of movement brings a unit back.
        let tenths = 11u32.saturating_sub(rules.return_min_score).min(10);
        for s in 0..2 {
            if state.sides[s].off && fate.d10_at_most(tenths) {
                state.sides[s] = Firefight::returned(state.sides[s]);
            }
        }
        // 2.1 movement: side A first, then side B; 2.11, 3.1 how far each moves.
        let first = self.first_mover(fate);
        let mut moved = [HOLD; 2];
        for s in [first, 1 - first] {
            let options = self.move_options(s, &state.sides);
            let sides = state.sides;
            let bold = self.bold_move(s, &sides, &options);
            let cautious = self.cautious_move(s, &sides, &options);
            let choice = fate.decide(s as u8, &MOVE_DECISION, &options, &|policy| match policy {
                Policy::Bold => bold,
                _ => cautious,
            });
            moved[s] = choice;
            state.sides[s].room += self.delta(s, choice) as i16;
        }
        let gap = self.gap(&state.sides);
        // 3.2 a battery within canister range picks its ammunition.
        let mut ball = [false; 2];
        for (s, ball) in ball.iter_mut().enumerate() {
            let canister = self.at(gap, false, false);
            let balled = self.at(gap, false, true);
            if self.base.sides[s].battery_side()
                && canister.fires(s, state.sides)
                && balled.in_range[s]
                && !canister.aims[s].lands_as(&balled.aims[s])
            {
                let choice = fate
                    .decide(s as u8, &AMMUNITION_DECISION, &[0, 1], &|policy| u16::from(policy == Policy::Cautious));
                *ball = choice == 1;
            }
        }
        // 3.1 a whole move leaves no time to fire; half a move fires at the penalty.
        let fired: [bool; 2] =
            std::array::from_fn(|s| self.fires_with(s, moved[s], self.at(gap, moved[s] != HOLD, ball[s]), state.sides));
        let mut volleys = [Volley::default(); 2];
        for s in 0..2 {
            if fired[s] {
                // As `draw` would: no draw from a law of one outcome.
                let law = self.volley_law(gap, moved[s] != HOLD, ball[s], s, state.sides[s]);
                let i = if law.volleys.len() == 1 { 0 } else { fate.draw(&law.law) as usize };
                volleys[1 - s] = law.volleys[i];
            }
        }
        let mut outs = [Out::In; 2];
        for s in 0..2 {
            if !state.sides[s].off {
                let law =
                    self.base.side_outcomes(s, state.sides[s], fired[s], volleys[s], i32::from(state.charisma[s]));
                let i = draw(fate, law.iter().map(|o| o.1));
                (state.sides[s], outs[s]) = law[i].0;
            }
        }
        if outs == [Out::In; 2] {
            return None;
        }
        state.outs = outs;
        Some(match (outs[0] != Out::In, outs[1] != Out::In) {
            (false, true) => End::Attacker,
            (true, false) => End::Defender,
            _ => End::BothBroke,
        })
    }

    fn code(&self, winner: u8, steps: u32, state: &FireState) -> u64 {
        self.base.end_code_won(Some(winner), steps.max(1), state.sides, state.outs)
    }

    fn decisions(&self) -> &'static [&'static Decision] {
        FIRE_DECISIONS
    }

    fn fallback(&self) -> Policy {
        Policy::Bold
    }

    fn solvable(&self, _plan: game::Plan) -> bool {
        let size = |side: &FireSide| (side.figures + 1) * if side.battery_side() { side.guns + 1 } else { 1 };
        size(&self.base.sides[0]) * size(&self.base.sides[1]) <= GAME_MAX_SIZES
    }

    fn describe_state(&self, state: &FireState, side: u8) -> String {
        let s = usize::from(side);
        format!(
            "{} figures{} {}\" from {} figures{}",
            state.sides[s].figures,
            if state.sides[s].shaken { " (shaken)" } else { "" },
            self.gap(&state.sides),
            state.sides[1 - s].figures,
            if state.sides[1 - s].shaken { " (shaken)" } else { "" },
        )
    }

    fn describe_option(&self, decision: &'static Decision, option: u16) -> String {
        if decision.name == "order" {
            return if option == SIDE_A { "side A (move first)" } else { "side B (move second)" }.to_string();
        }
        if decision.name == "ammunition" {
            return if option == 0 { "canister" } else { "ballshot" }.to_string();
        }
        match option {
            HOLD => "hold".to_string(),
            STAND => "stand to recover".to_string(),
            o if o > RETIRE => format!("retire {}\"", o - RETIRE),
            o => format!("close {o}\""),
        }
    }

    /// The numbers of weapons, grades, covers, generals and rules this
    /// firefight has not: the ranges and scores to hit of weapons no one
    /// fires and of covers no one presents; a battery's dice and the hits
    /// on it without a battery; the two-rank line's dice without one; the
    /// morale and rout numbers of grades neither side has; charisma,
    /// danger and lost generals without an attached general; 5.8 without
    /// a surrounded side; the fire of a shaken unit that holds it to
    /// recover (2.4); and everything of combat, cavalry, charges,
    /// pursuit, pass-through and carry-through fire, which a firefight
    /// never comes to.
    fn reads_rule(&self, field: &str) -> bool {
        let rules = self.rules();
        let sides = &self.base.sides;
        let any = |test: &dyn Fn(&FireSide) -> bool| sides.iter().any(test);
        let infantry = any(&|side| !side.battery_side());
        let battery = any(&|side| side.battery_side());
        let grades = [sides[0].grade, sides[1].grade];
        // A grade's own morale or rout number, by its name after the prefix.
        let graded = |prefix: &str| field.strip_prefix(prefix).and_then(Grade::from_name).map(|g| grades.contains(&g));
        // 3.1: infantry rolls a die per four, a two-rank line in close order a die per three (7.9).
        let two_rank = |side: &FireSide| side.two_rank && side.cover != Target::Skirmish;
        let attached = any(&|side| side.general == GeneralPlace::Attached);
        // 7.5: an attached general lost leaves his unit without a general.
        let danger = attached && rules.optional_danger_to_generals;
        // 3.2: every range and score to hit, and those of the weapons fired at the covers presented.
        let table = |weapon: Weapon, cover: Target| fire_table_fields(weapon, cover).iter().any(|f| f == field);
        if Weapon::ALL.iter().any(|&weapon| Target::ALL.iter().any(|&cover| table(weapon, cover))) {
            return (0..2).any(|s| table(sides[s].weapon, sides[1 - s].cover));
        }
        match field {
            // 1.4, 3.1 a battery's dice; 3.4 hits on a battery, ballshot's
            // effects only from a battery's ballshot; no gun is limbered.
            "guns_per_model"
            | "crew_for_two_dice"
            | "crew_for_one_die"
            | "battery_crew"
            | "battery_gun_loss"
            | "battery_hits"
            | "counterbattery_miss_max" => battery,
            "counterbattery_ballshot_miss_max" | "counterbattery_gun_min" => sides.iter().all(FireSide::battery_side),
            "counterbattery_limbered" => false,
            // 3.1, 7.9 infantry's dice.
            "fire_figures_per_die" | "fire_remainder_rounds_up" => any(&|side| !side.battery_side() && !two_rank(side)),
            "two_rank_figures_per_die" | "two_rank_remainder_rounds_up" => {
                any(&|side| !side.battery_side() && two_rank(side))
            }
            "optional_two_rank_line" => any(&|side| side.two_rank),
            // 3.3: a shaken unit that recovers holds its fire, though a
            // battery's ammunition decision compares its shaken aims too;
            // only infantry moves; nothing is dense, evading or in square.
            "fire_grade_a_b" => grades.iter().any(|g| matches!(g, Grade::A | Grade::B)),
            "fire_grade_e_f" => grades.iter().any(|g| matches!(g, Grade::E | Grade::F)),
            "fire_disordered_or_skirmishing" => any(&|side| side.cover == Target::Skirmish),
            // 2.4: a shaken infantry unit's fire is its decision (best
            // play may fire); a battery's follows `shaken_policy`.
            "fire_shaken" => infantry || rules.shaken_policy != ShakenPolicy::Recover,
            "fire_moving" => infantry,
            "fire_ball_vs_dense" | "fire_evading" | "fire_in_square" => false,
            // 7.11
            "optional_national_modifiers" => any(&|side| side.nation != Nation::None),
            // 5.6 against shooting; the charge and combat modifiers never apply.
            "morale_square_or_hard_cover" => any(&|side| side.cover == Target::Hard),
            "morale_no_general" | "rout_no_general" => any(&|side| side.general == GeneralPlace::OutOfRadius) || danger,
            "morale_foot_charging_home"
            | "morale_meeting_infantry_charge"
            | "morale_cavalry_vs_square"
            | "morale_meeting_cavalry_charge"
            | "morale_flanked"
            | "morale_losing_combat" => false,
            // 5.7.1: the large column needs a unit that large (at its start, the most it has).
            "rout_hits_large_18" | "rout_hits_large_12" | "rout_hits_large_8" | "rout_hits_large_6"
            | "rout_hits_large_4" => any(&|side| side.figures >= rules.rout_large_unit_min),
            // 5.8
            "surrounded_extra_rout_hits" | "surrounded_hits" => any(&|side| side.surrounded),
            // 7.13 (a surrounded unit routs on past its centre point instead;
            // the switch also decides whether the dense table applies).
            "optional_first_rout_off_table" => any(&|side| !side.surrounded),
            "return_min_score" => {
                rules.optional_first_rout_off_table
                    && rules.firefight_rout == FirefightRout::Reengage
                    && any(&|side| !side.surrounded)
            }
            // 1.11, 7.5 an attached general; the command radius is a key.
            "charisma_zero_max" | "charisma_one_max" => {
                any(&|side| side.general == GeneralPlace::Attached && side.charisma == Charisma::Rolled)
            }
            "optional_danger_to_generals" => attached,
            "general_danger_hits" | "general_danger_max" => danger,
            "command_radius" | "command_radius_attached" => false,
            // 2.2, 2.11 infantry moves in line or extended line; batteries never move.
            "line_max_width" | "no_closer_than" | "retire_speed" => infantry,
            // 2.1 the order of moves matters only where both sides move.
            "firefight_initiative" => !battery,
            "move_infantry_line" => any(&|side| !side.battery_side() && side.figures <= rules.line_max_width),
            "move_infantry_extended_line" => any(&|side| !side.battery_side() && side.figures > rules.line_max_width),
            // 1.8, 2.x columns, cavalry, evading, charges, squares, pinning;
            // 4 combat; 6.4.4 town blocks; 7.1 pass-through fire and the
            // cavalry bounce, 7.4 pursuit, 7.8 carry-through: a firefight
            // between two units standing in line has none of them.
            "move_infantry_column"
            | "move_heavy_cavalry"
            | "move_light_cavalry"
            | "move_heavy_cavalry_charge"
            | "move_light_cavalry_charge"
            | "evade_infantry_within"
            | "evade_cavalry_within"
            | "evade_fire"
            | "plowed_disorder_min"
            | "square_initiative"
            | "charge_move_steady"
            | "cavalry_stationary_advance"
            | "column_width"
            | "square_faces"
            | "square_face"
            | "square_charged_test"
            | "charged_cavalry"
            | "defensive_fire_band"
            | "multi_loser"
            | "split_odd_die"
            | "converging_hits"
            | "fresh_against"
            | "block_fire_divisor"
            | "block_attack_side_percent"
            | "optional_pinning"
            | "pinning_distance"
            | "formation_change_fire"
            | "optional_pass_through_fire"
            | "pass_through_percent"
            | "pass_through_measure"
            | "stationary_fire_targets"
            | "optional_cavalry_bounce"
            | "bounce_recoil"
            | "bounce_follow_up"
            | "optional_pursuit"
            | "pursuit_max_score"
            | "pursuit_grade_e_f"
            | "pursuit_hit_multiplier"
            | "pursuit_rout_hits"
            | "pursuer_loses"
            | "pursuit_cost"
            | "optional_carry_through"
            | "carry_through_small_arms_and_canister"
            | "carry_through_light_ballshot"
            | "carry_through_field_ballshot"
            | "carry_through_heavy_ballshot"
            | "carry_through_natural_ones"
            | "carry_through_nil" => false,
            _ if field.starts_with("combat_") => false,
            // 5.5, 5.7.2 grades; everything else (natural results, morale
            // tests, rout table, shattering) is read.
            _ => graded("morale_pass_").or_else(|| graded("rout_grade_")).unwrap_or(true),
        }
    }
}

/// The 3.2 numbers (ranges and scores to hit) that `weapon` reads firing at
/// a target presenting `cover`: small arms' close and far bands, a gun's
/// canister and ballshot (its own ballshot score against hard cover).
pub(super) fn fire_table_fields(weapon: Weapon, cover: Target) -> Vec<String> {
    let cover = cover.name();
    match weapon.name().strip_suffix("_gun") {
        None => ["close", "far"]
            .iter()
            .flat_map(|band| [format!("{}_{band}_range", weapon.name()), format!("{}_{band}_{cover}", weapon.name())])
            .collect(),
        Some(gun) => vec![
            format!("{gun}_canister_range"),
            format!("{gun}_ballshot_range"),
            format!("canister_{cover}"),
            if cover == "hard" { format!("{gun}_ballshot_hard") } else { format!("ballshot_{cover}") },
        ],
    }
}

impl FireGame {
    /// The live states at the end of each turn (every chance branch and
    /// every move option kept; 7.13 returns and ammunition left out), for
    /// sizing the solver.
    pub fn live_states_per_turn(&self, turns: u32) -> Vec<usize> {
        use std::collections::HashSet;
        let start = [self.base.start_state(0), self.base.start_state(1)];
        let mut layer: HashSet<[SideState; 2]> = HashSet::from([start]);
        let mut counts = Vec::new();
        for _ in 0..turns {
            let mut next = HashSet::new();
            for sides in &layer {
                for a in self.move_options(0, sides) {
                    let mut after_a = *sides;
                    after_a[0].room += self.delta(0, a) as i16;
                    for d in self.move_options(1, &after_a) {
                        let mut moved = after_a;
                        moved[1].room += self.delta(1, d) as i16;
                        let gap = self.gap(&moved);
                        let options = [a, d];
                        let fired: [bool; 2] = std::array::from_fn(|s| {
                            self.fires_with(s, options[s], self.at(gap, options[s] != HOLD, false), moved)
                        });
                        let volleys = |s: usize| -> Vec<Volley> {
                            if fired[1 - s] {
                                let at = self.at(gap, options[1 - s] != HOLD, false);
                                at.volley_law(1 - s, moved[1 - s]).into_iter().map(|v| v.0).collect()
                            } else {
                                vec![Volley::default()]
                            }
                        };
                        let ends = |s: usize| -> Vec<SideState> {
                            let mut out = Vec::new();
                            for v in volleys(s) {
                                for ((st, o), _) in self.base.side_outcomes(s, moved[s], fired[s], v, 0) {
                                    if o == Out::In && !out.contains(&st) {
                                        out.push(st);
                                    }
                                }
                            }
                            out
                        };
                        let (ea, ed) = (ends(0), ends(1));
                        for x in &ea {
                            for y in &ed {
                                next.insert([*x, *y]);
                            }
                        }
                    }
                }
            }
            counts.push(next.len());
            layer = next;
        }
        counts
    }
}
