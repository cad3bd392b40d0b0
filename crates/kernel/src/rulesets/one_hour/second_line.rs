//! `second_line`: an attack on a position held in two lines.
//!
//! The attacker fights the first line exactly as in the duels ([`Duel`]);
//! when the first line routs, what the rules say happens in that box is
//! played out, and the fight goes on against the second line, `depth` boxes
//! behind the first, with the same side-turn code:
//!
//! - Leader Risk: the first line's attached leader is lost on a 1D6 roll of
//!   '1' when his unit routs (rolled where the duel rolls it). If the enemy
//!   enters the box he is overrun too: one roll covers both (the rout and the
//!   overrun are one event), and if he survives he "retires 1 box"
//!   (`leader_retire_boxes`). Whether he then joins the second line, giving it
//!   his extra hit and taking leader risk with it, is interpretation
//!   `surviving_leader`.
//! - The enemy enters the box when cavalry routs it ("If the charge routs the
//!   enemy, occupy the target box") or line infantry routs it with massed (1
//!   box) musketry and makes its bayonet advance ("it may advance into the
//!   vacant hex"): the attacker's decision `bayonet` (options `stay`,
//!   `advance into the box`, in that order), an advance for which a reluctant
//!   unit must pass its D6 (Reluctant units: "to advance or charge"). Then
//!   the range to the second line is the gap between the lines; otherwise the
//!   attacker stays where it stood and the range is its range to the first
//!   line plus the gap.
//! - The gap is `depth` less the boxes the first line retreated: it retreats
//!   from fire as in the duels, but not into the second line's box (with no
//!   room left it stands).
//! - The second line stands behind the first, out of the fight (the first
//!   line blocks its line of sight), and keeps the formation it was given
//!   until the first line breaks; in column of route it must then leave it
//!   before it can shoot (interpretation `column_exit`). The attacker's side
//!   turn that broke the first line ends as any other (Wellington's rally).
//! - Where the first line's leader goes (decision `leader`, the defender's):
//!   "Leaders move with units or as cavalry", so in each defender movement
//!   phase while the first line stands, after it has shot or moved, its
//!   attached leader may ride to the second line, or back, if the gap between
//!   them (`depth` less the first line's retreats) is within a cavalry move
//!   (3 boxes at the printed rate). His extra hit, his morale bonus and his
//!   risk go with him (interpretation `leader_leaves`; by default the first
//!   line, left, routs one hit sooner, and a line at its last hit cannot be
//!   left). Options: where he is, then the other line. `bold` keeps him with
//!   the first line, the one under attack; `cautious` takes him to the
//!   second line, out of reach until the first breaks. Best play weighs his
//!   hit now against his hit later: with him behind, the first line breaks
//!   sooner but the second line is stronger and he is never at risk on the
//!   first line's rout; staying, he may still reach the second line by his
//!   retirement when overrun (`surviving_leader`). A Waterloo commander does
//!   not ride (his effects are keys of the unit he is given with), and a gap
//!   beyond his move is not crossed (riding it would leave him with neither
//!   line for a side turn or more, which the game does not model).
//!
//! - Retiring (interpretation `retire`, as in the duels): the attacker and
//!   the second line may pivot about and move away; the first line, with
//!   the second line behind it, has no room to. Under the default purpose,
//!   `attack`, a second line that retires has given up the position (the
//!   attacker's aim) and one that stands is never worse off, so the
//!   defaults do not move (7.5 / 92.5 at range 2; 10.7 / 89.3 at range 1;
//!   4.4 / 95.6 from 3 boxes); playing for the margin (`purpose =
//!   manoeuvre`) the attacker retires out of reach and every fight ends at
//!   the limit, as the duels' do (`cargo run --release -p volley-kernel
//!   --example purposes one_hour second_line range=R`).
//!
//! At the defaults (depth 1) best play makes the leader's move matter: the
//! defender wins 84.5% instead of 83.4% when he could not ride.
//!
//! It is a [`Game`] over the duel's state and the phase (first line
//! standing, or the second line with the first line's leader's fate): every
//! decision of the duels, and the bayonet advance, is taken by the sides'
//! policies, best play by default.

use super::duel::{self, Duel, DuelKind, FirstSide, MAX_RANGE, SideSetup, State};
use super::{CommanderLeads, Quality, Rules, SurvivingLeader, UnitType};
use crate::catalogue::ScenarioEntry;
use crate::game::{self, ATTACKER, DEFENDER, Decision, End, Fate, Game, Played, Policy};
use crate::outcome::{Layout, Metric};
use crate::params::{Param, ParamError, RuleBook, Settings, rules_of};
use crate::scenario::DynScenario;

/// The deepest second line, in boxes behind the first.
pub const MAX_DEPTH: u32 = 8;

/// The labels of the `defender_leader` metric, in order.
pub const DEFENDER_LEADER: &[&str] = &["with_first_line", "lost", "detached", "with_second_line"];

const WITH_FIRST_LINE: i64 = 0;
const LOST: i64 = 1;
const DETACHED: i64 = 2;
const WITH_SECOND_LINE: i64 = 3;

/// Option codes of the bayonet advance.
const STAY: u16 = 0;
const ADVANCE: u16 = 1;
/// Option codes of the leader's move: where he is at the end of it.
const LEAD_FIRST_LINE: u16 = 2;
const LEAD_SECOND_LINE: u16 = 3;

/// Line infantry that has routed the first line with massed musketry.
pub static BAYONET_DECISION: Decision = Decision {
    name: "bayonet",
    who: "attacker",
    doc: "Bayonet Charge: \"If a Line Infantry unit routs an enemy with massed (1 box) musketry, it may advance into \
          the vacant hex\" (a reluctant unit must pass its D6 to advance).",
    options: "stay; advance into the box",
};

/// The first line's attached leader in the defender's movement phase.
pub static LEADER_DECISION: Decision = Decision {
    name: "leader",
    who: "defender",
    doc: "Leaders: \"Leaders move with units or as cavalry\": in its movement phase, while the first line stands, the \
          defender's attached leader stays where he is or rides to the other line, if it is within a cavalry move; \
          his extra hit and morale bonus go with him (rule leader_leaves).",
    options: "stay with (or join) the first line; stay with (or join) the second line (where he is first)",
};

/// Every decision of `second_line`: the duels', the bayonet advance and the leader's move.
static DECISIONS: &[&Decision] = &[
    &duel::FIRE_DECISION,
    &duel::CHARGE_DECISION,
    &duel::MOVE_DECISION,
    &duel::SQUARE_DECISION,
    &BAYONET_DECISION,
    &LEADER_DECISION,
];

/// What became of the first line's leader when it routed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum LeaderAfterRout {
    /// The first line had no leader.
    Absent,
    /// Lost (to a hit's 2D6, or to the rout's 1D6).
    Lost,
    /// Survived, with no unit: he takes no further part.
    Detached,
    /// Joined the second line (the duel state says whether he is still with it).
    Joined,
}

/// Which line the attacker is fighting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Phase {
    /// The first line stands; the second line waits behind it with its hits
    /// (`second_hits`), and the first line's leader may have ridden to it
    /// (`leader_behind`; the duel state then has him away from the first line).
    First { second_hits: u8, leader_behind: bool },
    /// The first line has routed; the second line fights.
    Second(LeaderAfterRout),
}

/// The state between side turns: the duel being fought and which one it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Lines {
    duel: State,
    phase: Phase,
}

/// An attack on two lines, side turn by side turn, until the attacker or the
/// second line routs or the turn limit.
#[derive(Clone, Debug)]
pub struct SecondLine {
    /// What each side must achieve (the scenario's `purpose` key).
    purpose: game::Purpose,
    rules: Rules,
    /// The attacker against the first line.
    first: Duel,
    /// The attacker against the second line, without (index 0) and with
    /// (index 1) the first line's leader.
    second: [Duel; 2],
    attacker: UnitType,
    attacker_leader: bool,
    defender_leader: bool,
    /// Whether the first line's leader may ride between the lines: an
    /// attached leader (`defender.leader`), not a Waterloo commander, whose
    /// own effects stay with the unit the keys put him with.
    leader_moves: bool,
    /// Both lines' hits at the start (the first line's leader's included).
    defender_start_hits: u32,
    start: Lines,
    turns: u32,
    layout: Layout,
}

/// The keys of `second_line` that are not a unit's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinesSetup {
    /// The attacker's starting range to the first line.
    pub range: u32,
    /// The boxes from the first line to the second.
    pub depth: u32,
    /// The turn limit (game turns).
    pub turns: u32,
    /// Whose side turn comes first in each game turn.
    pub first: FirstSide,
}

impl SecondLine {
    /// The attack; fails on a combination the rules or the scenario do not
    /// allow (errors about the second line name its `second.` keys).
    pub fn new(
        rules: &Rules,
        attacker: SideSetup,
        defender: SideSetup,
        second: SideSetup,
        setup: LinesSetup,
    ) -> Result<SecondLine, ParamError> {
        if !(1..=MAX_DEPTH).contains(&setup.depth) {
            return Err(ParamError::OutOfRange {
                key: "depth".into(),
                value: i64::from(setup.depth),
                min: 1,
                max: i64::from(MAX_DEPTH),
            });
        }
        if second.leader {
            return Err(ParamError::Invalid {
                key: "second.leader".into(),
                reason: "the second line's leader is the first line's, if he joins it".into(),
            });
        }
        let first = Duel::new(rules, DuelKind::SecondLine, attacker, defender, setup.range, setup.turns)?
            .with_retreat_room(1, setup.depth - 1)
            .with_retiring();
        let first = match setup.first {
            FirstSide::Attacker => first,
            FirstSide::Defender => first.defender_first(),
        };
        let against_second = |leader: bool| {
            Duel::new(rules, DuelKind::SecondLine, attacker, SideSetup { leader, ..second }, 1, setup.turns)
                .map(Duel::with_retiring)
                .map_err(second_keys)
        };
        let second_duels = [against_second(false)?, against_second(true)?];
        let mut metrics = duel::fight_metrics(
            setup.turns,
            "attacker: both lines routed; defender: the attacker routed; none: the turn limit, or cavalry broke off; under `purpose = attack` every fight the attacker does not win is the defender's (`ended` says how each ended)",
            "both lines' hits left, percent of both lines' starting hits (the first line's leader's counted once, \
             with whichever line has him; rounded down)",
        );
        metrics.push(Metric::integer("lines_broken", "how many of the two lines routed", 0, 2));
        if first.led(0) {
            metrics.push(duel::ATTACKER_LEADER_LOST);
        }
        if first.led(1) {
            metrics.push(Metric::categories(
                "defender_leader",
                "the first line's leader at the end: with_first_line (it stands), lost, detached (survived its \
                 rout without joining the second line) or with_second_line (he rode to it, or joined it after \
                 the rout)",
                DEFENDER_LEADER,
            ));
        }
        Ok(SecondLine {
            purpose: game::Purpose::Manoeuvre,
            rules: rules.clone(),
            defender_start_hits: first.start_hits(1) + second_duels[0].start_hits(1),
            start: Lines {
                duel: first.start_state(),
                phase: Phase::First { second_hits: second_duels[0].start_hits(1) as u8, leader_behind: false },
            },
            attacker: attacker.unit,
            attacker_leader: first.led(0),
            defender_leader: first.led(1),
            leader_moves: defender.leader
                && !(rules.commander_leads == CommanderLeads::InBox && defender.commander.stands_in_box()),
            first,
            second: second_duels,
            turns: setup.turns,
            layout: Layout::new(metrics),
        })
    }

    /// The duel against the second line, as the first line's leader left it.
    fn second_duel(&self, leader: LeaderAfterRout) -> &Duel {
        &self.second[usize::from(leader == LeaderAfterRout::Joined)]
    }

    /// One side turn; `Some(winner)` when the fight ends.
    fn side_turn<F: Fate>(&self, lines: &mut Lines, fate: &mut F) -> Option<End> {
        match lines.phase {
            Phase::First { .. } => {
                // The duel's side turn, with the leader's move in the
                // defender's movement phase ("3) Move"), after its unit has
                // shot or moved and before Wellington's rally closes the turn.
                let s = self.first.begin_side_turn(&mut lines.duel, fate);
                if let Some(end) = self.first.act(s, &mut lines.duel, fate) {
                    if end != End::Attacker {
                        return Some(end);
                    }
                    self.break_first_line(lines, fate);
                    return None;
                }
                if s == DEFENDER {
                    self.leader_moves(lines, fate);
                }
                self.first.end_of_side_turn(s, &mut lines.duel, fate);
                None
            }
            Phase::Second(leader) => self.second_duel(leader).side_turn(&mut lines.duel, fate),
        }
    }

    /// The first line's leader decides where he ends the defender's movement
    /// phase, while the first line stands: with it or with the second line,
    /// if the gap between them (`depth` less the first line's retreats) is
    /// within his cavalry move ("Leaders move with units or as cavalry"). His
    /// extra hit goes with him (interpretation `leader_leaves`).
    fn leader_moves<F: Fate>(&self, lines: &mut Lines, fate: &mut F) {
        let Phase::First { second_hits, leader_behind } = lines.phase else {
            return;
        };
        let duel = &mut lines.duel;
        if !self.leader_moves || !(leader_behind || duel.leader[1]) {
            return;
        }
        let gap = u32::from(duel.room[1]) + 1;
        if gap * 2 > self.rules.leader_move_half_boxes() {
            return;
        }
        let (here, there) =
            if leader_behind { (LEAD_SECOND_LINE, LEAD_FIRST_LINE) } else { (LEAD_FIRST_LINE, LEAD_SECOND_LINE) };
        let (from_hits, to_hits, to_base) = if leader_behind {
            (u32::from(second_hits), u32::from(duel.hits[1]), self.first.base_hits(1))
        } else {
            (u32::from(duel.hits[1]), u32::from(second_hits), self.second[0].base_hits(1))
        };
        let Some(left) = self.rules.hits_when_leader_leaves(from_hits) else {
            return;
        };
        // Bold puts him with the unit in the most danger, the first line, which
        // is the one under attack; cautious with the second line, out of reach.
        let chosen = fate.decide(DEFENDER, &LEADER_DECISION, &[here, there], &|policy| {
            if policy == Policy::Cautious { LEAD_SECOND_LINE } else { LEAD_FIRST_LINE }
        });
        if chosen == here {
            return;
        }
        let joined = self.rules.hits_when_leader_joins(to_hits, to_base);
        let (first_hits, second_hits) = if leader_behind { (joined, left) } else { (left, joined) };
        duel.hits[1] = first_hits as u8;
        duel.leader[1] = leader_behind;
        lines.phase = Phase::First { second_hits: second_hits as u8, leader_behind: !leader_behind };
    }

    /// The attacker has just routed the first line: the overrun, the leader,
    /// and the second line's fight set up from where everyone stands.
    fn break_first_line<F: Fate>(&self, lines: &mut Lines, fate: &mut F) {
        let routed = lines.duel;
        let Phase::First { second_hits, leader_behind } = lines.phase else {
            panic!("the first line routs only while it stands");
        };
        let range = u32::from(routed.range);
        // Cavalry Charges: "If the charge routs the enemy, occupy the target box"
        // (cavalry rout only by charging); Bayonet Charge: "If a Line Infantry unit
        // routs an enemy with massed (1 box) musketry, it may advance into the
        // vacant hex" (the attacker's decision; Reluctant units roll "to advance").
        let overrun = self.attacker.is_cavalry()
            || (self.attacker == UnitType::LineInfantry
                && range == 1
                && fate.decide(ATTACKER, &BAYONET_DECISION, &[STAY, ADVANCE], &|policy| {
                    if policy == Policy::Bold { ADVANCE } else { STAY }
                }) == ADVANCE
                && self.first.willing(ATTACKER, &routed, fate));
        // From the first line's box to the second's: `depth` less its retreats.
        let gap = u32::from(routed.room[1]) + 1;
        // Leader Risk: the rout's 1D6 was rolled as the unit routed (the duel
        // rolls it); an overrun in the same box is the same event, not a second
        // roll. "If they are overrun and survive, the leader retires 1 box."
        let leader = if !self.defender_leader {
            LeaderAfterRout::Absent
        } else if leader_behind {
            // He rode to the second line before the rout: he is with it already.
            LeaderAfterRout::Joined
        } else if !routed.leader[1] {
            LeaderAfterRout::Lost
        } else {
            let joins = match self.rules.surviving_leader {
                SurvivingLeader::JoinsIfReached => overrun && self.rules.leader_retire_boxes >= gap,
                SurvivingLeader::AlwaysJoins => true,
                SurvivingLeader::NeverJoins => false,
            };
            if joins { LeaderAfterRout::Joined } else { LeaderAfterRout::Detached }
        };
        let second = self.second_duel(leader);
        let mut duel = second.start_state();
        duel.hits[1] = if leader == LeaderAfterRout::Joined && !leader_behind {
            self.rules.hits_when_leader_joins(u32::from(second_hits), second.base_hits(1)) as u8
        } else {
            second_hits
        };
        duel.hits[0] = routed.hits[0];
        duel.leader[0] = routed.leader[0];
        duel.posture[0] = routed.posture[0];
        duel.charged[0] = routed.charged[0];
        duel.room[0] = routed.room[0];
        duel.range = (if overrun { gap } else { range + gap }).min(MAX_RANGE) as u8;
        duel.next = routed.next;
        lines.duel = duel;
        lines.phase = Phase::Second(leader);
        // The attacker's side turn goes on to its end.
        second.end_of_side_turn(ATTACKER, &mut lines.duel, fate);
    }

    /// The outcome code: the metric values through the layout.
    fn pack(&self, winner: u8, turn: u32, lines: &Lines) -> u64 {
        let duel = &lines.duel;
        let (defender_hits, broken, leader) = match lines.phase {
            Phase::First { second_hits, leader_behind } => {
                let leader = if leader_behind {
                    WITH_SECOND_LINE
                } else if duel.leader[1] {
                    WITH_FIRST_LINE
                } else {
                    LOST
                };
                (u32::from(duel.hits[1]) + u32::from(second_hits), 0, leader)
            }
            Phase::Second(after) => {
                let leader = match after {
                    LeaderAfterRout::Joined if duel.leader[1] => WITH_SECOND_LINE,
                    LeaderAfterRout::Detached => DETACHED,
                    _ => LOST,
                };
                (u32::from(duel.hits[1]), 1 + i64::from(winner == ATTACKER), leader)
            }
        };
        // At most 100: under `leader_leaves = keep_hits` a leader's ride
        // leaves the unit he left its hits and gives the one he joins one more.
        let percent = |hits: u32, of: u32| i64::from((hits * 100 / of).min(100));
        let mut values = [
            i64::from(winner),
            i64::from(turn),
            percent(u32::from(duel.hits[0]), self.first.start_hits(0)),
            percent(defender_hits, self.defender_start_hits),
            broken,
            0,
            0,
        ];
        let mut len = 5;
        if self.attacker_leader {
            values[len] = i64::from(!duel.leader[0]);
            len += 1;
        }
        if self.defender_leader {
            values[len] = leader;
            len += 1;
        }
        self.layout.encode(&values[..len])
    }
}

impl SecondLine {
    /// This fight under `purpose`: what each side must achieve by the turn
    /// limit ([`crate::game::Purpose`]).
    pub fn with_purpose(mut self, purpose: game::Purpose) -> Self {
        self.purpose = purpose;
        // The duels' retirements read it: under `attack` the second line
        // retiring gives up the position, under `stand` either side does.
        self.first = self.first.with_purpose(purpose);
        self.second = self.second.map(|duel| duel.with_purpose(purpose));
        self
    }
}

impl Game for SecondLine {
    type State = Lines;

    /// The unit keys that change nothing against these enemies
    /// (`duel::unit_unread_keys`): the attacker fights both lines, each
    /// line the attacker alone.
    fn unread_keys(&self) -> Vec<(String, String)> {
        let rules = self.first.rules();
        let (attacker, first, second) = (self.first.setup(0), self.first.setup(1), self.second[0].setup(1));
        let mut unread = duel::unit_unread_keys(rules, "attacker", attacker, &[first.unit, second.unit]);
        unread.extend(duel::unit_unread_keys(rules, "defender", first, &[attacker.unit]));
        unread.extend(duel::unit_unread_keys(rules, "second", second, &[attacker.unit]));
        unread
    }

    fn purpose(&self) -> game::Purpose {
        self.purpose
    }

    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn start(&self) -> Lines {
        self.start
    }

    fn steps(&self) -> u32 {
        2 * self.turns
    }

    fn step<F: Fate>(&self, lines: &mut Lines, fate: &mut F) -> Option<End> {
        self.side_turn(lines, fate)
    }

    fn code(&self, winner: u8, steps: u32, lines: &Lines) -> u64 {
        self.pack(winner, steps.div_ceil(2), lines)
    }

    fn decisions(&self) -> &'static [&'static Decision] {
        DECISIONS
    }

    fn describe_state(&self, lines: &Lines, side: u8) -> String {
        let line = match lines.phase {
            Phase::First { leader_behind: false, .. } => "the first line",
            Phase::First { leader_behind: true, .. } => "the first line, its leader with the second line",
            Phase::Second(_) => "the second line",
        };
        format!("{} (against {line})", self.first.describe(&lines.duel, side))
    }

    fn describe_option(&self, decision: &'static Decision, option: u16) -> String {
        if std::ptr::eq(decision, &BAYONET_DECISION) {
            return if option == ADVANCE { "advance into the box".into() } else { "stay".into() };
        }
        if std::ptr::eq(decision, &LEADER_DECISION) {
            return if option == LEAD_FIRST_LINE {
                "with the first line".into()
            } else {
                "with the second line".into()
            };
        }
        duel::describe_option(option)
    }
}

/// A duel's error about its defender, renamed to the second line's keys.
fn second_keys(error: ParamError) -> ParamError {
    let rename = |key: String| key.replacen("defender.", "second.", 1);
    match error {
        ParamError::Invalid { key, reason } => ParamError::Invalid { key: rename(key), reason },
        ParamError::OutOfRange { key, value, min, max } => ParamError::OutOfRange { key: rename(key), value, min, max },
        other => other,
    }
}

/// The default units of `second_line`: Old Guard line infantry against a
/// poor first line with a leader and a good second line.
pub fn second_line_defaults() -> (SideSetup, SideSetup, SideSetup) {
    (
        SideSetup { quality: Quality::OldGuard, ..SideSetup::new(UnitType::LineInfantry) },
        SideSetup { quality: Quality::Poor, leader: true, ..SideSetup::new(UnitType::LineInfantry) },
        SideSetup::new(UnitType::LineInfantry),
    )
}

fn build(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    let setup = LinesSetup {
        range: settings.int("range") as u32,
        depth: settings.int("depth") as u32,
        turns: settings.int("turns") as u32,
        first: settings.choice("first"),
    };
    let lines = SecondLine::new(
        rules_of::<Rules>(rules),
        duel::side_from(settings, "attacker"),
        duel::side_from(settings, "defender"),
        duel::side_from(settings, "second"),
        setup,
    )?;
    Ok(Box::new(Played::new(
        lines.with_purpose(game::Purpose::from_settings(settings)),
        game::Plan::from_settings(settings),
    )))
}

/// The `second_line` scenario for the catalogue.
pub fn second_line_entry() -> ScenarioEntry {
    let (attacker, defender, second) = second_line_defaults();
    let mut params = duel::duel_params(2, attacker, defender);
    params.push(Param::int(
        "depth",
        "the boxes from the first line (the defender.* keys) to the second (second.*)",
        1,
        1,
        i64::from(MAX_DEPTH),
    ));
    params.extend(duel::side_params("second", second).into_iter().filter(|param| param.name != "second.leader"));
    duel::name_retired_keys(
        &mut params,
        "attacker",
        &["attacker"],
        &[(
            "bayonet_advance",
            "the bayonet advance is now the attacker's decision `bayonet` (bold advances, cautious stays)",
        )],
    );
    duel::name_retired_keys(&mut params, "defender", &["defender", "second"], &[]);
    params.push(game::purpose_key(
        game::Purpose::Attack,
        "break both lines",
        "an attack on a position held in two lines: can it break them within the limit",
    ));
    ScenarioEntry {
        name: "second_line",
        summary: "An attack on a position held in two lines: the first line's rout, its leader's risk, the bayonet \
                  advance or cavalry's occupation of its box, then the second line, until one side is broken.",
        params,
        build,
    }
}
