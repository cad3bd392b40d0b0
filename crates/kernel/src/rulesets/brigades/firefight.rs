//! The `firefight` scenario: two infantry units at a given distance exchange
//! fire each turn (3.1-3.3, all shooting simultaneous in phase 5 of 2.1), test
//! morale after two or more hits (5.4 (1), 5.6), rout on failure (5.7),
//! stand still to recover from shaken (2.4), and shatter at three quarters
//! losses (5.3) or a rout score of 0 or less, until one routs off (back past
//! its `room`), shatters, or the turn limit. The exact solver is an absorbing
//! Markov chain over (figures, shaken, room left, general, routed) per side,
//! propagated turn by turn as `markov::absorb` does.
//!
//! Order within a turn: both units fire with the figures they had at the
//! start of the phase; hits come off; a unit now at 3/4 losses is shattered
//! (no test); a unit with 2 or more hits tests (one test per phase, 2.1), and
//! on failure rolls on the rout table, takes its rout hits (which may shatter
//! it) and falls back the rout distance, shaken. With danger to generals (7.5)
//! an attached general of a unit hit twice or more rolls after the test. A
//! shaken unit that held its fire and did not rout this turn recovers at the
//! end of the turn.

use super::{
    Charisma, FirefightRout, GeneralPlace, Grade, Nation, RangeBand, RoutRow, Rules, ShakenPolicy, Target, TestResult,
    Weapon, dice_from_figures, grade_param, invalid, roll_test, test_distribution,
};
use crate::dice::Dice;
use crate::outcome::CodeHasher;
use crate::outcome::{Layout, Metric, WINNERS};
use crate::params::{Param, ParamError, Settings};
use crate::pmf::Pmf;
use crate::scenario::Scenario;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// The per-side keys of a firefight (without the side prefix): quality,
/// figures, weapon, cover, modifier, general, charisma, room, two_rank, nation.
pub fn side_params(side: &str, figures: i64) -> Vec<Param> {
    vec![
        grade_param(&format!("{side}.quality"), "morale grade a-f (5.5, 5.7.2, 3.3)"),
        Param::int(format!("{side}.figures"), "starting figures", figures, 1, 60),
        Param::choice(format!("{side}.weapon"), "musket or rifle (3.2)", Weapon::Musket),
        Param::choice(
            format!("{side}.cover"),
            "the target type the unit presents: normal, skirmish (it also fires at -1), soft or hard (+1 morale vs. shooting)",
            Target::Normal,
        ),
        Param::int(format!("{side}.modifier"), "net of other shooting modifiers of its fire (3.3)", 0, -10, 10),
        Param::choice(
            format!("{side}.general"),
            "its general: in_radius, out_of_radius (-1) or attached (+charisma)",
            GeneralPlace::InRadius,
        ),
        Param::choice(
            format!("{side}.charisma"),
            "an attached general's charisma: rolled on 1D10 (1.11), or 0, 1, 2",
            Charisma::Rolled,
        ),
        Param::int(
            format!("{side}.room"),
            "inches behind it to its baseline: a rout this far or more routs it off",
            24,
            1,
            100,
        ),
        Param::boolean(format!("{side}.two_rank"), "a two-rank line (7.9; needs optional_two_rank_line)", false),
        Param::choice(
            format!("{side}.nation"),
            "national modifiers in line (7.11; needs optional_national_modifiers)",
            Nation::None,
        ),
    ]
}

/// The keys of `firefight`.
pub fn params() -> Vec<Param> {
    let mut params = side_params("attacker", 24);
    params.extend(side_params("defender", 24));
    params.push(Param::int("distance", "inches between the units (3.2: close or far range by weapon)", 4, 1, 40));
    params.push(Param::int("turns", "the turn limit", 30, 1, 200));
    params
}

/// One side of a firefight, as configured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FireSide {
    /// Morale grade.
    pub grade: Grade,
    /// Starting figures.
    pub figures: u32,
    /// Musket or rifle.
    pub weapon: Weapon,
    /// The target type it presents.
    pub cover: Target,
    /// Net of other shooting modifiers.
    pub modifier: i32,
    /// Where its general is.
    pub general: GeneralPlace,
    /// Its general's charisma, if attached.
    pub charisma: Charisma,
    /// Inches to its baseline.
    pub room: u32,
    /// A two-rank line (7.9).
    pub two_rank: bool,
    /// Its nation (7.11).
    pub nation: Nation,
}

impl FireSide {
    /// A plain side: grade D, musket, in the open, general in radius.
    pub fn new(grade: Grade, figures: u32) -> FireSide {
        FireSide {
            grade,
            figures,
            weapon: Weapon::Musket,
            cover: Target::Normal,
            modifier: 0,
            general: GeneralPlace::InRadius,
            charisma: Charisma::Rolled,
            room: 24,
            two_rank: false,
            nation: Nation::None,
        }
    }

    fn from_settings(settings: &Settings, side: &str) -> FireSide {
        FireSide {
            grade: settings.choice(&format!("{side}.quality")),
            figures: settings.int(&format!("{side}.figures")) as u32,
            weapon: settings.choice(&format!("{side}.weapon")),
            cover: settings.choice(&format!("{side}.cover")),
            modifier: settings.int(&format!("{side}.modifier")) as i32,
            general: settings.choice(&format!("{side}.general")),
            charisma: settings.choice(&format!("{side}.charisma")),
            room: settings.int(&format!("{side}.room")) as u32,
            two_rank: settings.bool(&format!("{side}.two_rank")),
            nation: settings.choice(&format!("{side}.nation")),
        }
    }
}

/// One side's state between turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SideState {
    /// Figures left.
    pub figures: u8,
    /// Shaken.
    pub shaken: bool,
    /// Inches left to its baseline.
    pub room: i16,
    /// Its attached general is still with it.
    pub general: bool,
    /// It has failed morale at least once.
    pub routed: bool,
}

/// How a side ends a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Out {
    /// Still in the fight.
    In,
    /// Shattered (5.3 or 5.7.1).
    Shattered,
    /// Routed off (back past its room), or routed at all with `FirefightRout::Ends`.
    RoutedOff,
}

/// The exact solver answers when neither side has more figures than this.
pub const EXACT_MAX_FIGURES: u32 = 24;

/// Two infantry units shooting it out.
#[derive(Clone, Debug)]
pub struct Firefight {
    rules: Rules,
    sides: [FireSide; 2],
    /// For each side firing, shaken or not: the faces that hit.
    faces: [[[bool; 10]; 2]; 2],
    chances: [[f64; 2]; 2],
    /// Dice by figures, per side.
    dice: [Vec<u32>; 2],
    /// Whether each side can reach the other at all.
    in_range: [bool; 2],
    turns: u32,
    layout: Layout,
}

/// The metrics every multi-turn scenario of this ruleset reports, in order.
pub fn multi_turn_metrics(turns: u32) -> Vec<Metric> {
    vec![
        Metric::categories(
            "winner",
            "the side left in the field when the other routed off or shattered; none at the limit or if both went",
            WINNERS,
        ),
        Metric::integer("turns", "the turn it ended (the limit if undecided)", 1, i64::from(turns)),
        Metric::integer(
            "attacker_remaining",
            "percent of the attacker's starting figures not lost, rounded down",
            0,
            100,
        ),
        Metric::integer(
            "defender_remaining",
            "percent of the defender's starting figures not lost, rounded down",
            0,
            100,
        ),
        Metric::boolean("attacker_routed", "whether the attacker failed a morale test at least once"),
        Metric::boolean("defender_routed", "whether the defender failed a morale test at least once"),
        Metric::boolean(
            "attacker_shattered",
            "whether the attacker shattered (3/4 losses or a rout score of 0 or less)",
        ),
        Metric::boolean("defender_shattered", "whether the defender shattered"),
    ]
}

/// Percent of `start` in `left`, rounded down.
pub fn percent(left: u32, start: u32) -> i64 {
    (left * 100).checked_div(start).map_or(0, i64::from)
}

impl Firefight {
    /// A firefight at `distance` inches with a turn limit.
    pub fn new(
        rules: &Rules,
        attacker: FireSide,
        defender: FireSide,
        distance: u32,
        turns: u32,
    ) -> Result<Firefight, ParamError> {
        let sides = [attacker, defender];
        let names = ["attacker", "defender"];
        let mut faces = [[[false; 10]; 2]; 2];
        let mut chances = [[0.0; 2]; 2];
        let mut in_range = [false; 2];
        let mut dice: [Vec<u32>; 2] = [Vec::new(), Vec::new()];
        for s in 0..2 {
            let me = sides[s];
            let enemy = sides[1 - s];
            if me.weapon.is_gun() {
                return Err(invalid(
                    &format!("{}.weapon", names[s]),
                    "a firefight is between infantry: musket or rifle",
                ));
            }
            if me.two_rank && !rules.optional_two_rank_line {
                return Err(invalid(
                    &format!("{}.two_rank", names[s]),
                    "needs the optional rule optional_two_rank_line (7.9)",
                ));
            }
            if me.nation != Nation::None && !rules.optional_national_modifiers {
                return Err(invalid(
                    &format!("{}.nation", names[s]),
                    "needs the optional rule optional_national_modifiers (7.11)",
                ));
            }
            if me.figures > 60 {
                return Err(invalid(&format!("{}.figures", names[s]), "at most 60 figures"));
            }
            let close = rules.band_range(me.weapon, RangeBand::Close).unwrap_or(0);
            let far = rules.band_range(me.weapon, RangeBand::Far).unwrap_or(0);
            let band = if distance <= close {
                Some(RangeBand::Close)
            } else if distance <= far {
                Some(RangeBand::Far)
            } else {
                None
            };
            let skirmishing = me.cover == Target::Skirmish;
            dice[s] = (0..=me.figures)
                .map(|f| {
                    if me.two_rank && !skirmishing {
                        // 7.9: close-order fire of a two-rank line, one die per three.
                        dice_from_figures(f, rules.two_rank_figures_per_die, rules.two_rank_remainder_rounds_up)
                    } else {
                        // 3.1: one die per four, a remainder of three rounds up.
                        dice_from_figures(f, rules.fire_figures_per_die, rules.fire_remainder_rounds_up)
                    }
                })
                .collect();
            if let Some(band) = band {
                in_range[s] = true;
                let score = rules.score_to_hit(me.weapon, band, enemy.cover).unwrap_or(0);
                for shaken in [false, true] {
                    // 3.3: grade, shaken, skirmishing, and the side's own modifier.
                    let mut modifier = me.modifier + rules.fire_grade(me.grade);
                    if shaken {
                        modifier += rules.fire_shaken;
                    }
                    if skirmishing {
                        modifier += rules.fire_disordered_or_skirmishing;
                    }
                    modifier += national_musketry(rules, me, shaken);
                    faces[s][usize::from(shaken)] = rules.hit_faces(score, modifier);
                    chances[s][usize::from(shaken)] = rules.hit_chance(score, modifier);
                }
            }
        }
        Ok(Firefight {
            rules: rules.clone(),
            sides,
            faces,
            chances,
            dice,
            in_range,
            turns,
            layout: Layout::new(multi_turn_metrics(turns)),
        })
    }

    /// From the catalogue's settings.
    pub fn from_settings(rules: &Rules, settings: &Settings) -> Result<Firefight, ParamError> {
        Firefight::new(
            rules,
            FireSide::from_settings(settings, "attacker"),
            FireSide::from_settings(settings, "defender"),
            settings.int("distance") as u32,
            settings.int("turns") as u32,
        )
    }

    fn start_state(&self, s: usize) -> SideState {
        SideState {
            figures: self.sides[s].figures as u8,
            shaken: false,
            room: self.sides[s].room as i16,
            general: self.sides[s].general == GeneralPlace::Attached,
            routed: false,
        }
    }

    /// Whether side `s` fires this turn.
    fn fires(&self, s: usize, state: SideState) -> bool {
        // 2.4: a shaken unit that means to recover must not shoot.
        self.in_range[s] && !(state.shaken && self.rules.shaken_policy == ShakenPolicy::Recover)
    }

    /// (pass score, morale modifier, rout modifier) of side `s` testing after
    /// `hits` this phase, with `state` already showing them.
    fn test_numbers(&self, s: usize, state: SideState, hits: u32, charisma: i32) -> (i32, i32, i32) {
        let rules = &self.rules;
        let side = self.sides[s];
        let lost = side.figures - u32::from(state.figures);
        let mut modifier = 0;
        if state.shaken {
            modifier += rules.morale_shaken;
        }
        // 5.6: each 2 hits this phase, each 25% total losses.
        modifier += (hits / 2) as i32 * rules.morale_per_two_hits;
        modifier += Rules::quarters_lost(side.figures, lost) * rules.morale_per_quarter_losses;
        if side.cover == Target::Hard {
            // 5.6: hard cover vs. shooting hits.
            modifier += rules.morale_square_or_hard_cover;
        }
        modifier += national_morale_vs_shooting(rules, side);
        let mut rout = rules.rout_grade(side.grade);
        if u32::from(state.figures) * 2 <= side.figures {
            // 5.7.2: at or below half strength.
            rout += rules.rout_half_strength;
        }
        let (morale_general, rout_general) = general_modifiers(rules, side.general, state.general, charisma);
        (rules.morale_pass(side.grade), modifier + morale_general, rout + rout_general)
    }

    /// Where one side goes after taking `hits` this turn: the exact law.
    fn side_outcomes(
        &self,
        s: usize,
        before: SideState,
        fired: bool,
        hits: u32,
        charisma: i32,
    ) -> Vec<((SideState, Out), f64)> {
        let rules = &self.rules;
        let side = self.sides[s];
        let mut state = before;
        state.figures = (u32::from(state.figures).saturating_sub(hits)) as u8;
        if rules.is_shattered(side.figures, side.figures - u32::from(state.figures)) {
            return vec![((state, Out::Shattered), 1.0)];
        }
        if hits < rules.morale_test_shooting_hits {
            return vec![((recovered(state, before, fired), Out::In), 1.0)];
        }
        let (pass, modifier, rout_modifier) = self.test_numbers(s, state, hits, charisma);
        let danger = self.danger_chance(s, state, hits);
        let mut out = Vec::new();
        for (result, p) in test_distribution(rules, pass, modifier, rout_modifier) {
            let (after, end) = self.after_test(s, state, before, fired, result);
            if danger > 0.0 {
                let mut lost = after;
                lost.general = false;
                out.push(((lost, end), p * danger));
                out.push(((after, end), p * (1.0 - danger)));
            } else {
                out.push(((after, end), p));
            }
        }
        out
    }

    /// The same as [`Firefight::side_outcomes`], drawn from dice.
    #[inline]
    fn side_sample(
        &self,
        s: usize,
        before: SideState,
        fired: bool,
        hits: u32,
        charisma: i32,
        dice: &mut Dice,
    ) -> (SideState, Out) {
        let rules = &self.rules;
        let side = self.sides[s];
        let mut state = before;
        state.figures = (u32::from(state.figures).saturating_sub(hits)) as u8;
        if rules.is_shattered(side.figures, side.figures - u32::from(state.figures)) {
            return (state, Out::Shattered);
        }
        if hits < rules.morale_test_shooting_hits {
            return (recovered(state, before, fired), Out::In);
        }
        let (pass, modifier, rout_modifier) = self.test_numbers(s, state, hits, charisma);
        let danger = self.danger_chance(s, state, hits) > 0.0;
        let result = roll_test(rules, dice, pass, modifier, rout_modifier);
        let (mut after, end) = self.after_test(s, state, before, fired, result);
        if danger && dice.d10() <= rules.general_danger_max {
            after.general = false;
        }
        (after, end)
    }

    /// 7.5: the chance an attached general is lost when his unit takes `hits`.
    fn danger_chance(&self, _s: usize, state: SideState, hits: u32) -> f64 {
        if self.rules.optional_danger_to_generals && state.general && hits >= self.rules.general_danger_hits {
            f64::from(self.rules.general_danger_max.min(10)) / 10.0
        } else {
            0.0
        }
    }

    fn after_test(
        &self,
        s: usize,
        state: SideState,
        before: SideState,
        fired: bool,
        result: TestResult,
    ) -> (SideState, Out) {
        let rules = &self.rules;
        let side = self.sides[s];
        match result {
            TestResult::Pass => (recovered(state, before, fired), Out::In),
            TestResult::Rout(RoutRow::Shattered) => (SideState { routed: true, ..state }, Out::Shattered),
            TestResult::Rout(row) => {
                // 5.7.1: rout hits by the size at the time of the test.
                let hits = rules.rout_hits(row, u32::from(state.figures));
                let figures = u32::from(state.figures).saturating_sub(hits);
                let room = state.room - rules.rout_distance(row) as i16;
                let after =
                    SideState { figures: figures as u8, shaken: true, room, general: state.general, routed: true };
                if rules.is_shattered(side.figures, side.figures - figures) {
                    (after, Out::Shattered)
                } else if room <= 0 || rules.firefight_rout == FirefightRout::Ends {
                    (after, Out::RoutedOff)
                } else {
                    (after, Out::In)
                }
            }
        }
    }

    fn end_code(&self, turn: u32, states: [SideState; 2], outs: [Out; 2]) -> u64 {
        let winner = match (outs[0] != Out::In, outs[1] != Out::In) {
            (false, true) => 0,
            (true, false) => 1,
            _ => 2,
        };
        self.layout.encode(&[
            winner,
            i64::from(turn),
            percent(u32::from(states[0].figures), self.sides[0].figures),
            percent(u32::from(states[1].figures), self.sides[1].figures),
            i64::from(states[0].routed),
            i64::from(states[1].routed),
            i64::from(outs[0] == Out::Shattered),
            i64::from(outs[1] == Out::Shattered),
        ])
    }

    fn charisma_law(&self, s: usize) -> Vec<(i32, f64)> {
        if self.sides[s].general == GeneralPlace::Attached {
            self.rules.charisma_distribution(self.sides[s].charisma)
        } else {
            vec![(0, 1.0)]
        }
    }

    fn roll_charisma(&self, s: usize, dice: &mut Dice) -> i32 {
        if self.sides[s].general != GeneralPlace::Attached {
            return 0;
        }
        match self.sides[s].charisma {
            Charisma::Zero => 0,
            Charisma::One => 1,
            Charisma::Two => 2,
            Charisma::Rolled => self.rules.charisma_of_roll(dice.d10()),
        }
    }

    /// The exact distribution given both charismas.
    fn exact_given(&self, charisma: [i32; 2]) -> Vec<(u64, f64)> {
        // The kernel's `markov::absorb`, specialised: states packed into one
        // word and hashed by multiplication, and each side's law for a turn
        // memoised by (side, its state, the enemy's figures and shaken), as
        // the default 24 against 24 has tens of thousands of states a turn.
        type Fast<V> = HashMap<u64, V, BuildHasherDefault<CodeHasher>>;
        let mut memo: Fast<Vec<(u32, Out, f64)>> = Fast::default();
        let mut ended: Fast<f64> = Fast::default();
        let start = pack_pair(self.start_state(0), self.start_state(1));
        let mut current: Fast<f64> = Fast::default();
        current.insert(start, 1.0);
        for turn in 1..=self.turns {
            if current.is_empty() {
                break;
            }
            let mut next: Fast<f64> = Fast::with_capacity_and_hasher(current.len(), BuildHasherDefault::default());
            for (&packed, &p) in &current {
                let states = unpack_pair(packed);
                for s in 0..2 {
                    let enemy = states[1 - s];
                    let key = (u64::from(pack(states[s])) << 16)
                        | (u64::from(enemy.figures) << 2)
                        | (u64::from(enemy.shaken) << 1)
                        | s as u64;
                    memo.entry(key).or_insert_with(|| self.side_law(s, states, charisma[s]));
                }
                let key = |s: usize| {
                    let enemy = states[1 - s];
                    (u64::from(pack(states[s])) << 16)
                        | (u64::from(enemy.figures) << 2)
                        | (u64::from(enemy.shaken) << 1)
                        | s as u64
                };
                let (law_a, law_d) = (&memo[&key(0)], &memo[&key(1)]);
                for &(a, out_a, pa) in law_a {
                    for &(d, out_d, pd) in law_d {
                        let mass = p * pa * pd;
                        if mass < 1e-300 {
                            continue;
                        }
                        if out_a == Out::In && out_d == Out::In {
                            *next.entry((u64::from(a) << 32) | u64::from(d)).or_insert(0.0) += mass;
                        } else {
                            let code = self.end_code(turn, [unpack(a), unpack(d)], [out_a, out_d]);
                            *ended.entry(code).or_insert(0.0) += mass;
                        }
                    }
                }
            }
            current = next;
        }
        for (packed, p) in current {
            *ended.entry(self.end_code(self.turns, unpack_pair(packed), [Out::In, Out::In])).or_insert(0.0) += p;
        }
        ended.into_iter().collect()
    }

    /// Side `s`'s law for one turn from `states`: (packed state, out, probability).
    fn side_law(&self, s: usize, states: [SideState; 2], charisma: i32) -> Vec<(u32, Out, f64)> {
        let enemy = 1 - s;
        let fired = self.fires(s, states[s]);
        let hits = if self.fires(enemy, states[enemy]) {
            let dice = self.dice[enemy][usize::from(states[enemy].figures)];
            Pmf::binomial(dice, self.chances[enemy][usize::from(states[enemy].shaken)])
        } else {
            Pmf::point(0)
        };
        let mut merged: Vec<(u32, Out, f64)> = Vec::new();
        for (h, ph) in hits.iter() {
            if ph == 0.0 {
                continue;
            }
            for ((state, out), p) in self.side_outcomes(s, states[s], fired, h as u32, charisma) {
                let packed = pack(state);
                match merged.iter_mut().find(|e| e.0 == packed && e.1 == out) {
                    Some(entry) => entry.2 += ph * p,
                    None => merged.push((packed, out, ph * p)),
                }
            }
        }
        merged
    }
}

/// A side's state in 27 bits: figures, shaken, room, general, routed.
fn pack(state: SideState) -> u32 {
    u32::from(state.figures)
        | (u32::from(state.shaken) << 8)
        | ((state.room.clamp(-1000, 1000) + 1024) as u32) << 9
        | (u32::from(state.general) << 20)
        | (u32::from(state.routed) << 21)
}

fn unpack(packed: u32) -> SideState {
    SideState {
        figures: (packed & 0xFF) as u8,
        shaken: packed >> 8 & 1 == 1,
        room: ((packed >> 9) & 0x7FF) as i16 - 1024,
        general: packed >> 20 & 1 == 1,
        routed: packed >> 21 & 1 == 1,
    }
}

fn pack_pair(a: SideState, d: SideState) -> u64 {
    (u64::from(pack(a)) << 32) | u64::from(pack(d))
}

fn unpack_pair(packed: u64) -> [SideState; 2] {
    [unpack((packed >> 32) as u32), unpack(packed as u32)]
}

/// 2.4: a shaken unit that stood still all turn (did not shoot, did not rout) recovers.
fn recovered(mut state: SideState, before: SideState, fired: bool) -> SideState {
    if before.shaken && !fired {
        state.shaken = false;
    }
    state
}

/// 5.6 and 5.7.2: the morale and rout modifiers of a side's general.
pub fn general_modifiers(rules: &Rules, place: GeneralPlace, still_attached: bool, charisma: i32) -> (i32, i32) {
    match place {
        GeneralPlace::InRadius => (0, 0),
        GeneralPlace::Attached if still_attached => (charisma, charisma),
        // A lost general (7.5) leaves the unit with no general in radius.
        _ => (rules.morale_no_general, rules.rout_no_general),
    }
}

/// 7.11: national musketry modifiers (Britain +1 if steady, Russia -1), grade
/// A-E infantry only.
pub fn national_musketry(rules: &Rules, side: FireSide, shaken: bool) -> i32 {
    if !rules.optional_national_modifiers || side.grade == Grade::F {
        return 0;
    }
    match side.nation {
        Nation::Britain if !shaken && side.cover != Target::Skirmish => 1,
        Nation::Russia if side.weapon == Weapon::Musket => -1,
        _ => 0,
    }
}

/// 7.11: national morale modifiers vs. shooting hits for a unit in line
/// (Austria and later Prussia -1, Britain +1), grade A-E infantry only.
pub fn national_morale_vs_shooting(rules: &Rules, side: FireSide) -> i32 {
    if !rules.optional_national_modifiers || side.grade == Grade::F || side.cover == Target::Skirmish {
        return 0;
    }
    match side.nation {
        Nation::Austria | Nation::PrussiaLate => -1,
        Nation::Britain => 1,
        _ => 0,
    }
}

impl Scenario for Firefight {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn sample(&self, dice: &mut Dice) -> u64 {
        let charisma = [self.roll_charisma(0, dice), self.roll_charisma(1, dice)];
        let mut states = [self.start_state(0), self.start_state(1)];
        for turn in 1..=self.turns {
            let fired = [self.fires(0, states[0]), self.fires(1, states[1])];
            let mut hits = [0u32; 2];
            for s in 0..2 {
                if fired[s] {
                    let faces = &self.faces[s][usize::from(states[s].shaken)];
                    let n = self.dice[s][usize::from(states[s].figures)];
                    let mut h = 0;
                    for _ in 0..n {
                        h += u32::from(faces[dice.d10() as usize - 1]);
                    }
                    hits[1 - s] = h;
                }
            }
            let (a, out_a) = self.side_sample(0, states[0], fired[0], hits[0], charisma[0], dice);
            let (d, out_d) = self.side_sample(1, states[1], fired[1], hits[1], charisma[1], dice);
            states = [a, d];
            if out_a != Out::In || out_d != Out::In {
                return self.end_code(turn, states, [out_a, out_d]);
            }
        }
        self.end_code(self.turns, states, [Out::In, Out::In])
    }

    fn has_exact(&self) -> bool {
        !self.sides.iter().any(|side| side.figures > EXACT_MAX_FIGURES)
    }

    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        // The chain grows with both strengths: 24 against 24 takes seconds,
        // 36 against 36 over a minute; beyond this, Monte Carlo only.
        if self.sides.iter().any(|side| side.figures > EXACT_MAX_FIGURES) {
            return None;
        }
        let mut total: HashMap<u64, f64> = HashMap::new();
        for (ca, pa) in self.charisma_law(0) {
            for (cd, pd) in self.charisma_law(1) {
                for (code, p) in self.exact_given([ca, cd]) {
                    *total.entry(code).or_insert(0.0) += pa * pd * p;
                }
            }
        }
        Some(total.into_iter().collect())
    }
}
