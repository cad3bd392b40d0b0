//! The multi-turn duels as games: two units taking side turns until one routs.
//!
//! `firefight` (two shooters), `cavalry_charge` (cavalry against a unit that
//! shoots back) and `grand_battery` (a unit closing on artillery) are one
//! game, [`Duel`], with different defaults and checks. A side turn follows
//! the turn sequence ("2) Shoot 3) Move, Resolve cavalry charges"): Napoleon's
//! rally at its start, then one decision of the side, then Wellington's rally
//! at its end.
//!
//! # Decisions
//!
//! Each side turn the acting side takes one decision (see [`DECISIONS`]); its
//! options, in the order ties are broken:
//!
//! 1. `fire` where a shooter that is neither in column of route nor in square
//!    has the enemy in range; `fire, then form square` for infantry facing
//!    cavalry where interpretation `square_after_fire` allows it (Square:
//!    "may go into or out of square at the beginning of their movement
//!    phase", which comes after the shooting phase);
//! 2. `charge` where cavalry can reach an enemy that is not in square (an
//!    impetuous unit that has charged has this option alone while it has a
//!    valid target: "MUST continue to charge");
//! 3. `halt at R boxes`, from where it stands (no move) to each nearer box
//!    its move reaches, least movement first ("Units move OR shoot"); in
//!    column of route these are marches in column; then `retire to R
//!    boxes`, each farther box its move reaches (Movement: "May pivot at the
//!    start and end of their move only", so a unit turns about, moves, and
//!    faces the enemy again; interpretation `retire`, `pivot` by default,
//!    `never` for the play before). A retiring unit moves, so it does not
//!    shoot, and ends facing the enemy, so it is not flanked; it takes no
//!    reluctance roll ("to advance or charge"). Retiring gives up the unit's
//!    ground: under `purpose = stand` either side that retires has left the
//!    fight and lost it, under `attack` a defender that retires has given
//!    the attacker its aim, and an attacker that retires may come back;
//!    under `manoeuvre` it is a move like any other. (Measured under
//!    `manoeuvre`, as an independent review's solver gave them: the grand
//!    battery from 1 box 9.0% / 37.4% / 53.6% undecided, from 2 boxes 0 /
//!    46.8 / 53.2, from 6 all undecided; the firefight from 1 box all
//!    undecided: nothing makes a unit step into range first.)
//! 4. `leave column, halt at R boxes` for a unit in column of route
//!    (interpretation `column_exit`: by default it deploys while moving its
//!    normal rate, so these run from where it stands to its normal move);
//! 5. `form square` for infantry facing cavalry;
//! 6. `break off` for non-impetuous cavalry (the fight ends: the cavalry has
//!    left, the defender's win under `attack` and `stand`, a draw under
//!    `manoeuvre`).
//!
//! A unit in square decides only `stay in square` or `leave square`: a square
//! "may not move or shoot", and leaving it takes the movement phase.
//!
//! # Policies
//!
//! `best` is the solver's. `bold` fires or charges whenever it may, never
//! forms square or breaks off, marches in column until its normal move would
//! bring the enemy within its range, and otherwise moves its full move.
//! `cautious` fires or charges whenever it may (forming square after firing,
//! or instead of moving, when enemy cavalry could reach it); otherwise it
//! halts at the farthest box from which it can attack next turn that the enemy
//! cannot reach, else at the nearest box the enemy cannot reach, else as
//! bold; cavalry breaks off at [`CAUTIOUS_BREAK_OFF_HITS`] hits or fewer.
//!
//! # Leaders
//!
//! A duel's leaders take no decision. "Leaders move with units or as
//! cavalry", and where each side has one unit the only places a leader could
//! go are with it or apart from it. Apart from any unit he does nothing: the
//! extra hit and the morale bonus are for "a leader stacked with a unit", and
//! the duels' commanders' effects are their own keys. With it, the unit is at
//! every moment at least as well off as without him: his 2D6 loss takes away
//! only the hit he brought (`leader_loss`, or nothing under `keep_hits`), and
//! his 1D6 on the rout comes when the fight is already lost. So for either
//! objective (`margin`, `win`) staying with the unit is never worse than
//! riding off, and a detached leader is not modelled as an option: keeping
//! him apart to save his life counts only for a player who values the
//! leader beyond this fight, which the `attacker_leader_lost` metric reports
//! but no objective weighs. Where a side has two units (`second_line`'s two
//! lines, `brigade_fire`'s two attacking units) where he goes is a decision,
//! `leader` (see those modules).
//!
//! # Start distances
//!
//! Under best play the attacker's chance of winning moves by less than 10
//! points between neighbouring start distances (1 to 8 boxes) except where
//! the rules themselves make distance matter (the tests assert each jump):
//!
//! - `firefight` (good lines, its default purpose `stand`): the attacker
//!   wins 66.9% from 1 box, 57.3% from 2, 3.5% from 3 and beyond (the
//!   defender 33.1%, 42.7%, 6.0%; undecided 0, 0, 90.5%). From 3 boxes on
//!   neither line will step into the other's 2-box range, since whoever
//!   does is fired on first (a unit moves or shoots, and the enemy's volley
//!   comes before its own); both halt out of range and the fight stands off.
//!   Only with six game turns or fewer left does the defender step in, since
//!   its side turn closes every game turn and the fight's last volley is its
//!   own: that end-game is the 3.5% / 6.0% (turn limits of 4 or fewer leave
//!   all of it undecided, 5 leave 0.5% to the defender). Retiring changes
//!   none of this under `stand`: a line that retires has left the fight.
//! - `grand_battery`: 45% from 1 box, 18% from 2, 7% from 3, 2% from 4: the
//!   battery outranges the infantry (8 boxes against 2), so every box of the
//!   approach is a volley the infantry cannot answer; from 1 box the infantry
//!   fires its 3D6 first.
//! - `cavalry_charge` is flat: the cavalry halts out of reach until it can
//!   charge in one move (issue 13's 70.4% against 29.6% from 4 boxes came from
//!   the old forced full move), and against infantry playing its best it
//!   never wins (0% at the defaults): the infantry forms square whenever the
//!   cavalry could charge it, and non-impetuous cavalry then holds or breaks off.
//!
//! # Purposes
//!
//! Each scenario's `purpose` key says what each side must achieve by the
//! turn limit. `firefight` is a stand-up fight (both lines must hold, a draw
//! at the limit); its step from 57.3% at 2 boxes to 3.5% at 3 (90.5%
//! undecided) is a rule's, not the purpose's: whoever steps into the other's
//! range is fired on first, so from 3 boxes neither does until the last six
//! game turns (see "Start distances"; the purpose key's doc says so too);
//! `cavalry_charge`, `grand_battery`, `second_line` and
//! `brigade_fire` are attacks: the attacker must rout its enemy by the
//! limit, and anything else (the limit, breaking off) is the defender's.
//! The rules force `cavalry_charge`'s answer at its defaults: infantry that
//! may form square cannot be beaten by cavalry alone (a square is never
//! charged, Square), so under `attack` the infantry forms square, every
//! cavalry option is worth nothing, and the cavalry breaks off at once: 0%
//! against 100%. The question a designer asks of it is infantry that keeps
//! its formation (`defender.policy=bold` or `cautious`): 70.4% against
//! 29.6%. Under `stand` or `manoeuvre` the cavalry may also wait out the
//! limit (78.5% and 100% undecided).

use super::attack::{self, Attack, ChargeSituation, FireTarget, Rerolls};
use super::{
    ColumnExit, Commander, CommanderLeads, Effect, LeaderLoss, LeaderRisk, PivotToFace, Quality, Rules,
    SquareAfterFire, UnitType,
};
use crate::catalogue::ScenarioEntry;
use crate::dice::Dice;
use crate::game::{self, ATTACKER, Decision, End, Fate, Game, Law, Played, Policy};
use crate::outcome::{Layout, Metric, WINNERS};
use crate::params::{Param, ParamError, RuleBook, Settings, rules_of};
use crate::scenario::DynScenario;

/// The farthest range tracked; retreats beyond it stop here.
pub const MAX_RANGE: u32 = 15;
/// The most starting hits (11 by key or quality, one more with a leader).
pub const MAX_HITS: u32 = 12;
/// The longest turn limit.
pub const MAX_TURNS: u32 = 100;
/// Cautious non-impetuous cavalry breaks off at this many hits left or fewer
/// (the old fixed `break_off` default).
pub const CAUTIOUS_BREAK_OFF_HITS: u32 = 2;

/// The retreat room of a side with open ground behind it (never counted down).
const UNLIMITED_ROOM: u8 = u8::MAX;

/// Option codes (see the module documentation for their order).
pub(super) const FIRE: u16 = 1;
pub(super) const FIRE_THEN_SQUARE: u16 = 2;
pub(super) const CHARGE: u16 = 3;
pub(super) const FORM_SQUARE: u16 = 4;
pub(super) const STAY_IN_SQUARE: u16 = 5;
pub(super) const LEAVE_SQUARE: u16 = 6;
pub(super) const BREAK_OFF: u16 = 7;
/// `HALT_AT + r`: end the move `r` boxes from the enemy (in column: marching).
pub(super) const HALT_AT: u16 = 16;
/// `DEPLOY_AT + r`: leave column of route and end the move `r` boxes away.
pub(super) const DEPLOY_AT: u16 = 32;
/// `RETIRE_AT + r`: pivot about, retire to `r` boxes away, face the enemy again.
pub(super) const RETIRE_AT: u16 = 48;

/// A shooter with the enemy in range.
pub static FIRE_DECISION: Decision = Decision {
    name: "fire",
    who: "either side",
    doc: "A unit with the enemy in range fires, or moves instead (\"Units move OR shoot\"); infantry facing cavalry \
          may form square after firing (\"at the beginning of their movement phase\").",
    options: "fire; fire, then form square; halt at R boxes (least movement first); retire to R boxes \
              (`retire = pivot`); leave column, halt at R boxes; form square",
};
/// Cavalry within reach of a target.
pub static CHARGE_DECISION: Decision = Decision {
    name: "charge",
    who: "either side",
    doc: "Cavalry that can reach a target not in square charges, moves without charging, or (not impetuous) breaks \
          off; impetuous cavalry that has charged \"MUST continue to charge\".",
    options: "charge; halt at R boxes (least movement first); retire to R boxes (`retire = pivot`); leave \
              column, halt at R boxes; break off",
};
/// A unit that cannot attack this side turn.
pub static MOVE_DECISION: Decision = Decision {
    name: "move",
    who: "either side",
    doc: "A unit that cannot attack moves: how far (halting out of range, at charge reach, or not at all; or \
          retiring: pivoting about, moving away and facing the enemy again), whether it leaves column of route \
          (\"To exit formation, move a normal move next turn\"), whether infantry facing cavalry forms square, \
          whether non-impetuous cavalry breaks off.",
    options: "halt at R boxes (least movement first); retire to R boxes (`retire = pivot`); leave column, \
              halt at R boxes; form square; break off",
};
/// A unit in square.
pub static SQUARE_DECISION: Decision = Decision {
    name: "square",
    who: "either side",
    doc: "Infantry in square stays in it or leaves it at the beginning of its movement phase; a square \"may not \
          move or shoot\".",
    options: "stay in square; leave square",
};

/// Every decision of the duels.
pub static DECISIONS: &[&Decision] = &[&FIRE_DECISION, &CHARGE_DECISION, &MOVE_DECISION, &SQUARE_DECISION];

/// A unit's formation or place: what the enemy's attacks depend on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Posture {
    /// Deployed for combat in the open.
    Deployed = 0,
    /// In column of route: "Treat units as flanked for all combat".
    Column = 1,
    /// In square: no move or fire, cannot be charged, artillery doubles.
    Square = 2,
    /// Holding a town or strongpoint.
    Town = 3,
}

/// One side's unit and its situation, as the keys give it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideSetup {
    /// Its type.
    pub unit: UnitType,
    /// Its quality (the hits it starts with).
    pub quality: Quality,
    /// Starting hits instead of the quality's (0: from quality).
    pub hits: u32,
    /// Conscripts retreat at 2 hits from one shooter.
    pub conscript: bool,
    /// Steadfast troops never retreat.
    pub steadfast: bool,
    /// An attached leader: one extra hit, a morale bonus, and leader risk.
    pub leader: bool,
    /// A Waterloo commander with the unit (a leader too, by interpretation `commander_leads`).
    pub commander: Commander,
    /// Impetuous cavalry must charge again.
    pub impetuous: bool,
    /// Reluctant: a D6 under its hits left to advance or charge.
    pub reluctant: bool,
    /// Shock cavalry: +1D6 charging units without shock.
    pub shock: bool,
    /// Its attacks strike the enemy's flank.
    pub flank: bool,
    /// In cover (guns in cover are not doubled against by charges).
    pub in_cover: bool,
    /// Starts holding a town or strongpoint (infantry only): line infantry
    /// fire at half effect, charges at quarter effect, no flanks; lost when
    /// it moves or retreats out.
    pub in_town: bool,
    /// Starts in square.
    pub square: bool,
    /// Starts in column of route.
    pub column: bool,
    /// The effect of its attacks (half or quarter against towns and the like).
    pub effect: Effect,
    /// Extra dice on each of its attacks.
    pub extra_dice: u32,
}

impl SideSetup {
    /// A good unit of this type, no leader, nothing special.
    pub fn new(unit: UnitType) -> SideSetup {
        SideSetup {
            unit,
            quality: Quality::Good,
            hits: 0,
            conscript: false,
            steadfast: false,
            leader: false,
            commander: Commander::None,
            impetuous: false,
            reluctant: false,
            shock: false,
            flank: false,
            in_cover: false,
            in_town: false,
            square: false,
            column: false,
            effect: Effect::Full,
            extra_dice: 0,
        }
    }

    fn posture(&self) -> Posture {
        if self.column {
            Posture::Column
        } else if self.square {
            Posture::Square
        } else if self.in_town {
            Posture::Town
        } else {
            Posture::Deployed
        }
    }
}

/// Which scenario a duel plays (defaults and checks differ).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DuelKind {
    /// Two shooters at a range.
    Firefight,
    /// Cavalry charging a unit that shoots back.
    CavalryCharge,
    /// Artillery on a unit advancing on it.
    GrandBattery,
    /// One of the fights of `second_line` (any two types).
    SecondLine,
}

/// The metrics a fight of this ruleset opens with: `winner`, `turns`,
/// `attacker_remaining` and `defender_remaining` (whose docs differ by scenario).
pub(super) fn fight_metrics(turns: u32, winner_doc: &'static str, defender_remaining_doc: &'static str) -> Vec<Metric> {
    vec![
        Metric::categories("winner", winner_doc, WINNERS),
        Metric::integer(
            "turns",
            "the game turn the fight ended (each side has one side turn a game turn)",
            1,
            i64::from(turns),
        ),
        Metric::integer(
            "attacker_remaining",
            "the attacker's hits left, percent of its starting hits (rounded down)",
            0,
            100,
        ),
        Metric::integer("defender_remaining", defender_remaining_doc, 0, 100),
    ]
}

/// Whether the attacker's attached leader was lost (only where he is there to lose).
pub(super) const ATTACKER_LEADER_LOST: Metric =
    Metric::boolean("attacker_leader_lost", "whether the attacker's attached leader was lost");

/// One side, ready to fight: its attacks precomputed.
#[derive(Clone, Debug)]
struct Side {
    setup: SideSetup,
    /// Hits at the start, leader included.
    start_hits: u32,
    /// Hits without the leader's.
    base_hits: u32,
    /// Whether a leader (attached, or a commander in its box) starts with it.
    led: bool,
    /// Its fire at each range 0..=MAX_RANGE (None: cannot shoot there), by
    /// the enemy's posture.
    fire: [Vec<Option<Attack>>; 4],
    /// Its charge, for cavalry: charging deployed (index 0) or in column of
    /// route (1), by the enemy's posture.
    charge: Option<[[Attack; 4]; 2]>,
    /// Its longest range (0 for cavalry).
    max_range: u32,
    /// Its move in boxes (cavalry: also its charge reach), deployed (index 0)
    /// or in column of route (index 1).
    move_boxes: [u32; 2],
    /// The hits of enemy fire at which it retreats (u32::MAX: never).
    retreat_at: u32,
}

impl Side {
    fn is_cavalry(&self) -> bool {
        self.setup.unit.is_cavalry()
    }
}

/// The state between side turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Each side's hits left.
    pub(super) hits: [u8; 2],
    /// The range in boxes.
    pub(super) range: u8,
    /// Each side's formation or place.
    pub(super) posture: [Posture; 2],
    /// Each side's leader is still with it.
    pub(super) leader: [bool; 2],
    /// Each side has charged (impetuous cavalry must go on charging).
    pub(super) charged: [bool; 2],
    /// The boxes each side may still retreat ([`UNLIMITED_ROOM`]: open ground).
    pub(super) room: [u8; 2],
    /// Whose side turn comes next.
    pub(super) next: u8,
}

/// Two units fighting side turn by side turn until one routs or the turn limit.
#[derive(Clone, Debug)]
pub struct Duel {
    /// What each side must achieve (the scenario's `purpose` key).
    purpose: game::Purpose,
    /// Units may retire (interpretation `retire`).
    retiring: bool,
    rules: Rules,
    sides: [Side; 2],
    start: State,
    turns: u32,
    layout: Layout,
}

impl Duel {
    /// A duel; fails on a combination the rules or the scenario do not allow.
    pub fn new(
        rules: &Rules,
        kind: DuelKind,
        attacker: SideSetup,
        defender: SideSetup,
        range: u32,
        turns: u32,
    ) -> Result<Duel, ParamError> {
        let invalid = |key: &str, reason: &str| Err(ParamError::Invalid { key: key.into(), reason: reason.into() });
        if !(1..=MAX_TURNS).contains(&turns) {
            return Err(ParamError::OutOfRange {
                key: "turns".into(),
                value: i64::from(turns),
                min: 1,
                max: i64::from(MAX_TURNS),
            });
        }
        if !(1..=MAX_RANGE).contains(&range) {
            return Err(ParamError::OutOfRange {
                key: "range".into(),
                value: i64::from(range),
                min: 1,
                max: i64::from(MAX_RANGE),
            });
        }
        for (prefix, side) in [("attacker", &attacker), ("defender", &defender)] {
            if side.square && !side.unit.is_infantry() {
                return invalid(&format!("{prefix}.square"), "only infantry forms square");
            }
            if side.in_town && !side.unit.is_infantry() {
                return invalid(&format!("{prefix}.in_town"), "only infantry can occupy towns and strongpoints");
            }
            if side.in_town && (side.column || side.square) {
                return invalid(&format!("{prefix}.in_town"), "a unit holding a town is not in column or square");
            }
            if side.square && side.column {
                return invalid(&format!("{prefix}.column"), "a unit in square is not in column of route");
            }
            if side.hits > MAX_HITS - 1 {
                return Err(ParamError::OutOfRange {
                    key: format!("{prefix}.hits"),
                    value: i64::from(side.hits),
                    min: 0,
                    max: i64::from(MAX_HITS - 1),
                });
            }
        }
        match kind {
            DuelKind::Firefight => {
                for (prefix, side) in [("attacker", &attacker), ("defender", &defender)] {
                    if side.unit.is_cavalry() {
                        return invalid(
                            &format!("{prefix}.type"),
                            "cavalry do not shoot; a firefight needs two shooters",
                        );
                    }
                }
            }
            DuelKind::CavalryCharge => {
                if !attacker.unit.is_cavalry() {
                    return invalid("attacker.type", "the charger must be cavalry or heavy_cavalry");
                }
            }
            DuelKind::GrandBattery => {
                if defender.unit != UnitType::Artillery {
                    return invalid("defender.type", "the grand battery is artillery");
                }
            }
            DuelKind::SecondLine => {}
        }
        let sides = [Self::side(rules, &attacker, &defender), Self::side(rules, &defender, &attacker)];
        let start = State {
            hits: [sides[0].start_hits as u8, sides[1].start_hits as u8],
            range: range as u8,
            posture: [attacker.posture(), defender.posture()],
            leader: [sides[0].led, sides[1].led],
            charged: [false; 2],
            room: [UNLIMITED_ROOM; 2],
            next: ATTACKER,
        };
        let mut metrics = fight_metrics(
            turns,
            "the side whose enemy routed (none: the turn limit, or cavalry broke off); under `purpose = attack` every fight the attacker does not win is the defender's (`ended` says how each ended)",
            "the defender's hits left, percent of its starting hits (rounded down)",
        );
        // A leader-lost metric only where there is a leader to lose: a metric
        // that can never vary says nothing (and Monte Carlo's sum of its
        // probabilities is 1 only to rounding).
        if sides[0].led {
            metrics.push(ATTACKER_LEADER_LOST);
        }
        if sides[1].led {
            metrics.push(Metric::boolean("defender_leader_lost", "whether the defender's attached leader was lost"));
        }
        let layout = Layout::new(metrics);
        Ok(Duel {
            purpose: game::Purpose::Manoeuvre,
            retiring: false,
            rules: rules.clone(),
            sides,
            start,
            turns,
            layout,
        })
    }

    /// The same duel with the defender taking the first side turn of each game turn.
    pub fn defender_first(mut self) -> Duel {
        self.start.next = 1;
        self
    }

    /// The same duel with side `s` able to retreat only `boxes` boxes in all
    /// (ground behind it that is not open: a second line).
    pub(super) fn with_retreat_room(mut self, s: u8, boxes: u32) -> Duel {
        self.start.room[s as usize] = boxes.min(u32::from(UNLIMITED_ROOM) - 1) as u8;
        self
    }

    /// The state the duel starts in.
    pub(super) fn start_state(&self) -> State {
        self.start
    }

    /// Side `s`'s hits at the start, its leader's included.
    pub(super) fn start_hits(&self, s: u8) -> u32 {
        self.sides[s as usize].start_hits
    }

    /// Side `s`'s hits without a leader ("Troop quality", or its `hits` key).
    pub(super) fn base_hits(&self, s: u8) -> u32 {
        self.sides[s as usize].base_hits
    }

    /// Side `s`'s unit as the keys gave it.
    pub(super) fn setup(&self, s: u8) -> &SideSetup {
        &self.sides[s as usize].setup
    }

    /// The rules it is played under.
    pub(super) fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Whether side `s` starts with a leader (attached, or a commander in its box).
    pub(super) fn led(&self, s: u8) -> bool {
        self.sides[s as usize].led
    }

    fn side(rules: &Rules, me: &SideSetup, enemy: &SideSetup) -> Side {
        let base_hits = if me.hits > 0 { me.hits } else { rules.quality_hits(me.quality) };
        // Leaders: "Army and Corps commanders of notable repute"; a Waterloo
        // commander in the unit's box leads it (interpretation `commander_leads`).
        let led = me.leader || (rules.commander_leads == CommanderLeads::InBox && me.commander.stands_in_box());
        // Rout: "Attached Leader +1".
        let start_hits = (base_hits + if led { rules.leader_extra_hits } else { 0 }).min(MAX_HITS);
        let enemy_light = enemy.unit.is_light();
        // Column of Route: "Treat units as flanked for all combat"; Light Infantry:
        // "No flanks"; artillery doubles only against "flanks of infantry or cavalry".
        // Towns: occupied towns "cannot be charged/shot in the flank/rear".
        let enemy_flanked = |posture: Posture| {
            (me.flank || posture == Posture::Column)
                && !enemy_light
                && enemy.unit != UnitType::Artillery
                && posture != Posture::Town
        };
        let rerolls_fire = Rerolls {
            // Hill: "British and infantry within 1 box may re-roll 1 missed die when shooting".
            miss: me.commander == Commander::Hill && me.unit.is_infantry(),
            // Orange and Reille: the enemy re-rolls one successful hit from fire.
            forced_hit: matches!(enemy.commander, Commander::Orange | Commander::Reille),
        };
        let fire_against = |posture: Posture| -> Vec<Option<Attack>> {
            (0..=MAX_RANGE)
                .map(|range| {
                    // Picton: "+1 D6 for shooting at 1 box range for any British infantry".
                    let picton = if me.commander == Commander::Picton && me.unit.is_infantry() && range == 1 {
                        rules.picton_extra_dice
                    } else {
                        0
                    };
                    // Artillery: "2 x dice vs flanks of infantry or cavalry, or vs Squares".
                    let double =
                        me.unit == UnitType::Artillery && (posture == Posture::Square || enemy_flanked(posture));
                    let target = FireTarget { light: enemy_light, double, in_town: posture == Posture::Town };
                    attack::fire(rules, me.unit, range, me.effect, target, me.extra_dice + picton, rerolls_fire)
                })
                .collect()
        };
        let charge_against = |column: bool, posture: Posture| -> Attack {
            let commander_dice = match me.commander {
                Commander::Ney => rules.ney_attached_dice,
                Commander::NeyAdjacent => rules.ney_adjacent_dice,
                Commander::DErlon => rules.d_erlon_extra_dice,
                _ => 0,
            };
            let situation = ChargeSituation {
                flank: me.flank,
                target_column: posture == Posture::Column,
                shock: me.shock,
                target_shock: enemy.shock && enemy.unit.is_cavalry(),
                target_in_cover: enemy.in_cover,
                target_in_town: posture == Posture::Town,
                // Column of Route: "Cavalry may charge in CoR at half effect".
                effect: if column { me.effect.halved() } else { me.effect },
                extra_dice: me.extra_dice + commander_dice,
            };
            let rerolls = Rerolls {
                // Lobau: "may reroll one missed die in melee".
                miss: me.commander == Commander::Lobau,
                // Orange: "force enemy to re roll one successful hit from fire or melee".
                forced_hit: enemy.commander == Commander::Orange,
            };
            attack::charge(rules, me.unit, enemy.unit, situation, rerolls)
        };
        const POSTURES: [Posture; 4] = [Posture::Deployed, Posture::Column, Posture::Square, Posture::Town];
        let retreat_at = if me.steadfast {
            u32::MAX
        } else if me.conscript {
            rules.conscript_retreat_hits
        } else {
            rules.retreat_hits
        };
        Side {
            setup: *me,
            start_hits,
            base_hits,
            led,
            fire: POSTURES.map(fire_against),
            charge: me
                .unit
                .is_cavalry()
                .then(|| [false, true].map(|column| POSTURES.map(|p| charge_against(column, p)))),
            max_range: rules.max_range(me.unit),
            move_boxes: [rules.move_boxes(me.unit, false), rules.move_boxes(me.unit, true)],
            retreat_at,
        }
    }

    /// One side turn of the side `state.next`; `Some(winner)` when the fight ends.
    pub(super) fn side_turn<F: Fate>(&self, state: &mut State, fate: &mut F) -> Option<End> {
        let s = self.begin_side_turn(state, fate);
        let ended = self.act(s, state, fate);
        if ended.is_none() {
            self.end_of_side_turn(s, state, fate);
        }
        ended
    }

    /// What opens a side turn: the turn passes to side `state.next`, which is
    /// returned, and Napoleon rallies.
    pub(super) fn begin_side_turn<F: Fate>(&self, state: &mut State, fate: &mut F) -> u8 {
        let s = state.next;
        state.next = 1 - s;
        // WATERLOO: "Napoleon - at the start of any French turn may attempt to rally one French unit."
        if self.sides[s as usize].setup.commander == Commander::Napoleon {
            self.rally(s, state, fate);
        }
        s
    }

    /// What closes side `s`'s turn once it has acted: Wellington's rally.
    pub(super) fn end_of_side_turn<F: Fate>(&self, s: u8, state: &mut State, fate: &mut F) {
        // WATERLOO: "Wellington – at the end of any Allied turn, may ... attempt to rally 1 unit."
        if self.sides[s as usize].setup.commander == Commander::Wellington {
            self.rally(s, state, fate);
        }
    }

    /// The charge side `s` could make now, if any: cavalry within reach of a
    /// target that is not in square ("may NOT be charged by cavalry while in Square").
    fn charge_now(&self, s: u8, state: &State) -> Option<&Attack> {
        let i = s as usize;
        let me = &self.sides[i];
        let column = state.posture[i] == Posture::Column;
        let enemy = state.posture[1 - i];
        let charges = me.charge.as_ref()?;
        (u32::from(state.range) <= me.move_boxes[usize::from(column)] && enemy != Posture::Square)
            .then(|| &charges[usize::from(column)][enemy as usize])
    }

    /// The fire side `s` could deliver now, if any: not in column of route
    /// ("may not fight in column of route apart from cavalry") nor in square,
    /// and the enemy in range.
    pub(super) fn fire_now(&self, s: u8, state: &State) -> Option<&Attack> {
        let i = s as usize;
        if matches!(state.posture[i], Posture::Column | Posture::Square) {
            return None;
        }
        self.sides[i].fire[state.posture[1 - i] as usize][state.range as usize].as_ref()
    }

    /// Whether side `s` is infantry facing cavalry, and so may form square.
    fn may_form_square(&self, s: u8, state: &State) -> bool {
        let i = s as usize;
        self.sides[i].setup.unit.is_infantry()
            && self.sides[1 - i].is_cavalry()
            && state.posture[i] == Posture::Deployed
    }

    /// The options of side `s` this side turn, in the order ties are broken,
    /// and the decision they belong to.
    pub(super) fn options(&self, s: u8, state: &State, options: &mut Vec<u16>) -> &'static Decision {
        let i = s as usize;
        let me = &self.sides[i];
        let range = u32::from(state.range);
        if state.posture[i] == Posture::Square {
            options.extend([STAY_IN_SQUARE, LEAVE_SQUARE]);
            return &SQUARE_DECISION;
        }
        let square = self.may_form_square(s, state);
        let mut decision = &MOVE_DECISION;
        if self.fire_now(s, state).is_some() {
            decision = &FIRE_DECISION;
            options.push(FIRE);
            if square && self.rules.square_after_fire == SquareAfterFire::Allowed {
                options.push(FIRE_THEN_SQUARE);
            }
        }
        if self.charge_now(s, state).is_some() {
            decision = &CHARGE_DECISION;
            options.push(CHARGE);
            // Cavalry Charges: "Impetuous units that charge MUST continue to
            // charge on subsequent turns as long as there are any valid targets!"
            if me.setup.impetuous && state.charged[i] {
                return decision;
            }
        }
        let column = state.posture[i] == Posture::Column;
        let march = me.move_boxes[usize::from(column)];
        for r in (range.saturating_sub(march).max(1)..=range).rev() {
            options.push(HALT_AT + r as u16);
        }
        // Movement: pivot about, move away up to its move, pivot back to face
        // the enemy (interpretation `retire`); not into a limited room behind.
        if self.retiring && state.room[i] == UNLIMITED_ROOM {
            for r in range + 1..=(range + march).min(MAX_RANGE) {
                options.push(RETIRE_AT + r as u16);
            }
        }
        if column {
            // Column of Route: "To exit formation, move a normal move next turn"
            // (interpretation `column_exit`).
            let deployed_move = match self.rules.column_exit {
                ColumnExit::NormalMove => me.move_boxes[0],
                ColumnExit::SpendMove => 0,
            };
            for r in (range.saturating_sub(deployed_move).max(1)..=range).rev() {
                options.push(DEPLOY_AT + r as u16);
            }
        }
        if square {
            options.push(FORM_SQUARE);
        }
        if me.is_cavalry() && !me.setup.impetuous {
            options.push(BREAK_OFF);
        }
        decision
    }

    /// The range within which side `s`'s enemy could attack it next side
    /// turn, for `cautious`: its shooting range if it may shoot, its move if cavalry.
    pub(super) fn threat(&self, s: u8, state: &State) -> u32 {
        let o = 1 - s as usize;
        let enemy = &self.sides[o];
        match state.posture[o] {
            Posture::Square => 0,
            Posture::Column if enemy.is_cavalry() => enemy.move_boxes[1],
            Posture::Column => 0,
            _ if enemy.is_cavalry() => enemy.move_boxes[0],
            _ => enemy.max_range,
        }
    }

    /// Side `s`'s move in boxes as it stands (in column of route, its march).
    pub(super) fn march(&self, s: u8, state: &State) -> u32 {
        self.sides[s as usize].move_boxes[usize::from(state.posture[s as usize] == Posture::Column)]
    }

    /// Side `s`'s deployed move in boxes: the most it closes in a side turn
    /// and ends deployed (a column deploys moving its normal rate at most,
    /// rule `column_exit`).
    pub(super) fn deployed_move(&self, s: u8) -> u32 {
        self.sides[s as usize].move_boxes[0]
    }

    /// Whether from `range` side `s` could attack next side turn (after the
    /// move `option`).
    fn attacks_from(&self, s: u8, option: u16, range: u32, state: &State) -> bool {
        let me = &self.sides[s as usize];
        let column = state.posture[s as usize] == Posture::Column && option < DEPLOY_AT;
        if me.is_cavalry() { range <= me.move_boxes[usize::from(column)] } else { !column && range <= me.max_range }
    }

    /// What a heuristic policy picks among `options` (see the module documentation).
    pub(super) fn heuristic(&self, s: u8, state: &State, options: &[u16], policy: Policy) -> u16 {
        let i = s as usize;
        let me = &self.sides[i];
        let has = |option: u16| options.contains(&option);
        let threat = self.threat(s, state);
        let range = u32::from(state.range);
        let cautious = policy == Policy::Cautious;
        let in_reach_of_cavalry = self.sides[1 - i].is_cavalry() && range <= threat;
        if state.posture[i] == Posture::Square {
            return if cautious && in_reach_of_cavalry { STAY_IN_SQUARE } else { LEAVE_SQUARE };
        }
        if cautious && has(BREAK_OFF) && u32::from(state.hits[i]) <= CAUTIOUS_BREAK_OFF_HITS {
            return BREAK_OFF;
        }
        if has(CHARGE) {
            return CHARGE;
        }
        if has(FIRE) {
            return if cautious && has(FIRE_THEN_SQUARE) && in_reach_of_cavalry { FIRE_THEN_SQUARE } else { FIRE };
        }
        if cautious && has(FORM_SQUARE) && in_reach_of_cavalry {
            return FORM_SQUARE;
        }
        // The heuristics never retire: the moves that hold or close.
        let moves: Vec<(u16, u32)> = options
            .iter()
            .filter(|&&o| (HALT_AT..RETIRE_AT).contains(&o))
            .map(|&o| (o, u32::from(if o >= DEPLOY_AT { o - DEPLOY_AT } else { o - HALT_AT })))
            .collect();
        let bold = || -> u16 {
            // Bold: in column it deploys once its deployed move brings the enemy
            // within its range (or charge reach), and otherwise moves its full move.
            let deploy = moves.iter().rfind(|&&(o, r)| o >= DEPLOY_AT && self.attacks_from(s, o, r, state));
            if let Some(&(o, _)) = deploy
                && !me.is_cavalry()
            {
                return o;
            }
            moves.iter().filter(|&&(o, _)| o < DEPLOY_AT).min_by_key(|&&(_, r)| r).map_or(options[0], |m| m.0)
        };
        if !cautious {
            return bold();
        }
        let safe = |r: u32| r > threat;
        let ready = |o: u16, r: u32| self.attacks_from(s, o, r, state);
        // The farthest box it could attack from next turn that the enemy cannot reach.
        if let Some(&(o, _)) = moves.iter().filter(|&&(o, r)| safe(r) && ready(o, r)).max_by_key(|&&(o, r)| (r, o)) {
            return o;
        }
        // Else the nearest box the enemy cannot reach, if it is nearer than where it stands.
        if let Some(&(o, r)) = moves.iter().filter(|&&(_, r)| safe(r)).min_by_key(|&&(o, r)| (r, std::cmp::Reverse(o)))
            && r < range
        {
            return o;
        }
        bold()
    }

    /// Side `s` acts: fires, charges, moves, changes formation or breaks off;
    /// `Some(winner)` when the fight ends.
    pub(super) fn act<F: Fate>(&self, s: u8, state: &mut State, fate: &mut F) -> Option<End> {
        let mut options = Vec::with_capacity(40);
        let decision = self.options(s, state, &mut options);
        let now = *state;
        let chosen = fate.decide(s, decision, &options, &|policy| self.heuristic(s, &now, &options, policy));
        self.apply(s, chosen, state, fate)
    }

    /// Side `s` carries out the option `chosen` (one [`Duel::options`]
    /// offered it); `Some(winner)` when the fight ends.
    pub(super) fn apply<F: Fate>(&self, s: u8, chosen: u16, state: &mut State, fate: &mut F) -> Option<End> {
        let i = s as usize;
        match chosen {
            STAY_IN_SQUARE => None,
            LEAVE_SQUARE => {
                state.posture[i] = Posture::Deployed;
                None
            }
            FORM_SQUARE => {
                state.posture[i] = Posture::Square;
                None
            }
            BREAK_OFF => Some(End::left_by(s)),
            FIRE | FIRE_THEN_SQUARE => {
                let fire = self.fire_now(s, state).expect("fire is offered only in range");
                let hits = fate.draw(fire);
                let ended = self.take_hits(s, hits, true, state, fate);
                if ended.is_none() && chosen == FIRE_THEN_SQUARE {
                    state.posture[i] = Posture::Square;
                }
                ended
            }
            CHARGE => {
                if !self.willing(s, state, fate) {
                    return None;
                }
                let charge = self.charge_now(s, state).expect("a charge is offered only within reach");
                let hits = fate.draw(charge);
                state.charged[i] = true;
                // "If the charge routs the enemy, occupy the target box,
                // otherwise cavalry remains next to the target unit."
                state.range = 1;
                self.take_hits(s, hits, false, state, fate)
            }
            _ if chosen >= RETIRE_AT => {
                // Holding the ground is what a stand-up fight asks of both
                // sides and an attack of the defender: retiring gives it up.
                match self.purpose {
                    game::Purpose::Stand => return Some(End::left_by(s)),
                    game::Purpose::Attack if s != ATTACKER => return Some(End::left_by(s)),
                    _ => {}
                }
                self.move_to(s, u32::from(chosen - RETIRE_AT), state, fate);
                None
            }
            _ => {
                let (deploy, to) =
                    if chosen >= DEPLOY_AT { (true, chosen - DEPLOY_AT) } else { (false, chosen - HALT_AT) };
                if deploy {
                    state.posture[i] = Posture::Deployed;
                }
                self.move_to(s, u32::from(to), state, fate);
                None
            }
        }
    }

    /// Side `s` moves to `to` boxes from the enemy, if that is an advance and
    /// it is willing; a unit that moves leaves its town.
    pub(super) fn move_to<F: Fate>(&self, s: u8, to: u32, state: &mut State, fate: &mut F) -> bool {
        if to > u32::from(state.range) {
            // Retiring: no reluctance roll ("to advance or charge").
            state.range = to as u8;
            if state.posture[s as usize] == Posture::Town {
                state.posture[s as usize] = Posture::Deployed;
            }
            return true;
        }
        if to >= u32::from(state.range) || !self.willing(s, state, fate) {
            return false;
        }
        state.range = to as u8;
        if state.posture[s as usize] == Posture::Town {
            state.posture[s as usize] = Posture::Deployed;
        }
        true
    }

    /// Reluctant units: "must roll a D6 and score less than their remaining
    /// hits to advance or charge"; an attached leader "adds a bonus to its
    /// morale roll" (`leader_morale_bonus`, taken off the roll).
    pub(super) fn willing<F: Fate>(&self, s: u8, state: &State, fate: &mut F) -> bool {
        let i = s as usize;
        if !self.sides[i].setup.reluctant {
            return true;
        }
        let bonus = if state.leader[i] { self.rules.leader_morale_bonus } else { 0 };
        // The D6 less the bonus is under the hits: D6 <= hits + bonus - 1.
        let ways = (u32::from(state.hits[i]) + bonus).saturating_sub(1).min(6);
        fate.ways(ways, 6)
    }

    /// The enemy of `s` takes `hits`; `Some(s)` if it routs. Hits of
    /// `shooting` make it retreat when they are enough from this one source.
    pub(super) fn take_hits<F: Fate>(
        &self,
        s: u8,
        hits: u32,
        shooting: bool,
        state: &mut State,
        fate: &mut F,
    ) -> Option<End> {
        if hits == 0 {
            return None;
        }
        let o = 1 - s as usize;
        // Leader Risk: "If a leader is in a box which takes a hit, leader is removed on a 2D6 roll of '2'."
        if state.leader[o] {
            let rolls = match self.rules.leader_risk {
                LeaderRisk::PerAttack => 1,
                LeaderRisk::PerHit => hits,
            };
            let ways = two_d6_ways_at_most(self.rules.leader_risk_hit_total);
            for _ in 0..rolls {
                if fate.ways(ways, 36) {
                    state.leader[o] = false;
                    if self.rules.leader_loss == LeaderLoss::LoseExtraHit {
                        state.hits[o] = state.hits[o].saturating_sub(self.rules.leader_extra_hits as u8);
                    }
                    break;
                }
            }
        }
        state.hits[o] = state.hits[o].saturating_sub(hits.min(255) as u8);
        if state.hits[o] == 0 {
            // Leader Risk: "If the leader is in a box where the unit routs, or if
            // they are overrun ... they are lost on a 1D6 roll of '1'."
            if state.leader[o] && fate.ways(self.rules.leader_risk_rout_roll.min(6), 6) {
                state.leader[o] = false;
            }
            return Some(End::won_by(s));
        }
        // Shooting: "Targets that suffer 3 (or more) hits from shooting from a
        // single source = retreat 1 box directly away from source."
        if shooting && hits >= self.sides[o].retreat_at {
            self.retreat(o as u8, state);
        }
        None
    }

    /// The hits of enemy fire from one source at which side `s` retreats (u32::MAX: never).
    pub(super) fn retreat_at(&self, s: u8) -> u32 {
        self.sides[s as usize].retreat_at
    }

    /// Side `s` retreats from fire ("retreat 1 box directly away from
    /// source"). A square "may not move" and is not pushed back; a unit that
    /// retreats out of a town leaves it (Towns: "Towns fill a whole box").
    pub(super) fn retreat(&self, s: u8, state: &mut State) {
        let o = s as usize;
        if state.posture[o] == Posture::Square {
            return;
        }
        let mut boxes = self.rules.retreat_boxes;
        if state.room[o] != UNLIMITED_ROOM {
            // No room behind (the second line's box): it retreats as far as it can.
            boxes = boxes.min(u32::from(state.room[o]));
            state.room[o] -= boxes as u8;
        }
        if boxes > 0 {
            state.range = (u32::from(state.range) + boxes).min(MAX_RANGE) as u8;
            if state.posture[o] == Posture::Town {
                state.posture[o] = Posture::Deployed;
            }
        }
    }

    /// Rally by C-in-C: D6, 1 nothing, 2-4 one hit back, 5-6 two; "1st hit cannot be rallied off".
    pub(super) fn rally<F: Fate>(&self, s: u8, state: &mut State, fate: &mut F) {
        let side = &self.sides[s as usize];
        // The whole a unit rallies towards counts a leader who is with it now
        // (he may have ridden to it from another unit), or, when a lost
        // leader's hit stays (`leader_loss`), one it started with.
        let with_leader = state.leader[s as usize] || (self.rules.leader_loss == LeaderLoss::KeepHits && side.led);
        let whole = side.base_hits + if with_leader { self.rules.leader_extra_hits } else { 0 };
        let cap = whole - u32::from(self.rules.rally_keeps_first_hit);
        let hits = u32::from(state.hits[s as usize]);
        if hits == 0 || hits >= cap {
            return;
        }
        let roll = fate.die(6);
        let gain = if roll >= self.rules.rally_two_hits_roll {
            2
        } else if roll >= self.rules.rally_one_hit_roll {
            1
        } else {
            0
        };
        state.hits[s as usize] = (hits + gain).min(cap) as u8;
    }

    /// The outcome code: winner, turn, hits left and leaders lost, packed
    /// small enough to count densely at the default turn limit.
    fn pack(&self, winner: u8, turn: u32, state: &State) -> u64 {
        let radix = u64::from(MAX_HITS) + 1;
        let lost = |s: usize| u64::from(self.start.leader[s] && !state.leader[s]);
        let mut code = lost(0) + 2 * lost(1);
        code = code * radix + u64::from(state.hits[1]);
        code = code * radix + u64::from(state.hits[0]);
        code = code * u64::from(self.turns) + u64::from(turn - 1);
        code * 3 + u64::from(winner)
    }

    /// The words for a unit type.
    pub(super) fn unit_words(unit: UnitType) -> &'static str {
        match unit {
            UnitType::Cavalry => "cavalry",
            UnitType::HeavyCavalry => "heavy cavalry",
            UnitType::Artillery => "artillery",
            UnitType::LineInfantry => "line infantry",
            UnitType::LightInfantry => "light infantry",
            UnitType::Rifles => "rifles",
        }
    }

    /// A state in words, from side `side`'s point of view.
    pub(super) fn describe(&self, state: &State, side: u8) -> String {
        let i = side as usize;
        let posture = |p: Posture| match p {
            Posture::Deployed => "",
            Posture::Column => " in column of route",
            Posture::Square => " in square",
            Posture::Town => " holding a town",
        };
        let range = state.range;
        format!(
            "{}{} ({} hits) {range} box{} from {}{} ({} hits)",
            Self::unit_words(self.sides[i].setup.unit),
            posture(state.posture[i]),
            state.hits[i],
            if range == 1 { "" } else { "es" },
            Self::unit_words(self.sides[1 - i].setup.unit),
            posture(state.posture[1 - i]),
            state.hits[1 - i],
        )
    }
}

/// An option in words.
pub(super) fn describe_option(option: u16) -> String {
    let boxes = |r: u16| format!("{r} box{}", if r == 1 { "" } else { "es" });
    match option {
        FIRE => "fire".into(),
        FIRE_THEN_SQUARE => "fire, then form square".into(),
        CHARGE => "charge".into(),
        FORM_SQUARE => "form square".into(),
        STAY_IN_SQUARE => "stay in square".into(),
        LEAVE_SQUARE => "leave square".into(),
        BREAK_OFF => "break off".into(),
        o if o >= RETIRE_AT => format!("retire to {}", boxes(o - RETIRE_AT)),
        o if o >= DEPLOY_AT => format!("leave column, halt at {}", boxes(o - DEPLOY_AT)),
        o => format!("halt at {}", boxes(o - HALT_AT)),
    }
}

/// The ways two D6 total `total` or less, of 36.
fn two_d6_ways_at_most(total: u32) -> u32 {
    (1..=6u32).flat_map(|a| (1..=6u32).map(move |b| a + b)).filter(|&t| t <= total).count() as u32
}

impl Law for Attack {
    #[inline]
    fn sample(&self, dice: &mut Dice) -> u32 {
        self.roll(dice)
    }

    fn outcomes(&self) -> &[(u32, f64)] {
        self.law()
    }
}

impl Duel {
    /// This duel with retiring as the rules' `retire` field reads it (every
    /// fight of the ruleset: the duel scenarios, `second_line`'s two fights
    /// and `brigade_fire`'s pairs). A side whose room behind is limited (the
    /// first line, with the second behind it) never retires.
    pub fn with_retiring(mut self) -> Self {
        self.retiring = self.rules.retire == super::Retire::Pivot;
        self
    }

    /// This fight under `purpose`: what each side must achieve by the turn
    /// limit ([`crate::game::Purpose`]).
    pub fn with_purpose(mut self, purpose: game::Purpose) -> Self {
        self.purpose = purpose;
        self
    }
}

impl Game for Duel {
    type State = State;

    /// The unit keys that change nothing against this enemy (`unit_unread_keys`).
    fn unread_keys(&self) -> Vec<(String, String)> {
        let mut unread = Vec::new();
        for (i, side) in ["attacker", "defender"].into_iter().enumerate() {
            let enemy = self.sides[1 - i].setup.unit;
            unread.extend(unit_unread_keys(&self.rules, side, &self.sides[i].setup, &[enemy]));
        }
        unread
    }

    fn purpose(&self) -> game::Purpose {
        self.purpose
    }

    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn code_space(&self) -> u64 {
        3 * u64::from(self.turns) * u64::from(MAX_HITS + 1).pow(2) * 4
    }

    fn decode(&self, code: u64, values: &mut [i64]) {
        let radix = u64::from(MAX_HITS) + 1;
        let winner = code % 3;
        let rest = code / 3;
        let turn = rest % u64::from(self.turns) + 1;
        let rest = rest / u64::from(self.turns);
        let attacker_hits = rest % radix;
        let rest = rest / radix;
        let defender_hits = rest % radix;
        let lost = rest / radix;
        let percent = |hits: u64, s: usize| (hits * 100 / u64::from(self.sides[s].start_hits)) as i64;
        values[0] = winner as i64;
        values[1] = turn as i64;
        values[2] = percent(attacker_hits, 0);
        values[3] = percent(defender_hits, 1);
        let mut next = 4;
        for s in 0..2 {
            if self.start.leader[s] {
                values[next] = ((lost >> s) & 1) as i64;
                next += 1;
            }
        }
    }

    fn start(&self) -> State {
        self.start
    }

    fn steps(&self) -> u32 {
        2 * self.turns
    }

    fn step<F: Fate>(&self, state: &mut State, fate: &mut F) -> Option<End> {
        self.side_turn(state, fate)
    }

    fn code(&self, winner: u8, steps: u32, state: &State) -> u64 {
        self.pack(winner, steps.div_ceil(2), state)
    }

    fn decisions(&self) -> &'static [&'static Decision] {
        DECISIONS
    }

    fn describe_state(&self, state: &State, side: u8) -> String {
        self.describe(state, side)
    }

    fn describe_option(&self, _: &'static Decision, option: u16) -> String {
        describe_option(option)
    }
}

/// The keys retired when the duels became games, each unit's (`UNIT.advances`,
/// ...), and what replaced them.
const RETIRED: &[&str] = &["advances", "close_to", "break_off"];

/// Names in side `side`'s policy doc the retired keys of its units (`units`,
/// the prefixes of its unit keys) and any `other` retired keys its policy
/// replaced, in backquotes: the keys are no longer declared (so `volley list`
/// no longer shows them), and setting one is answered "unknown key ...; did
/// you mean `SIDE.policy`?" (the params' unknown-key check), whose doc says why.
pub(super) fn name_retired_keys(params: &mut [Param], side: &str, units: &[&str], other: &[(&str, &str)]) {
    let policy = format!("{side}.policy");
    let param = params.iter_mut().find(|p| p.name == policy).expect("a game scenario has both policy keys");
    let keys: Vec<String> =
        units.iter().flat_map(|unit| RETIRED.iter().map(move |r| format!("`{unit}.{r}`"))).collect();
    param.doc.push_str(&format!(
        "; it replaces the retired keys {}: whether and how far a unit moves, the range it fires at and whether \
         cavalry breaks off are now the side's decisions (bold moves its full move, fires as soon as in range and \
         never breaks off; cautious breaks off at {CAUTIOUS_BREAK_OFF_HITS} hits or fewer)",
        keys.join(", ")
    ));
    for (key, why) in other {
        param.doc.push_str(&format!("; it replaces the retired `{key}`: {why}"));
    }
}

/// The per-side keys of a duel, with this side's defaults.
pub(super) fn side_params(prefix: &str, defaults: SideSetup) -> Vec<Param> {
    let key = |name: &str| format!("{prefix}.{name}");
    vec![
        Param::choice(key("type"), "the unit type", defaults.unit),
        Param::choice(key("quality"), "excellent (7 hits), good (6), poor (5) or old_guard (8)", defaults.quality),
        Param::int(
            key("hits"),
            "starting hits instead of the quality's (0: from quality); a leader adds one",
            0,
            0,
            i64::from(MAX_HITS - 1),
        ),
        Param::boolean(key("conscript"), "conscript: retreats at 2 hits from one shooter", defaults.conscript),
        Param::boolean(key("steadfast"), "steadfast: never retreats from fire", defaults.steadfast),
        Param::boolean(
            key("leader"),
            "an attached leader: one extra hit, a bonus to its morale roll, and leader risk",
            defaults.leader,
        ),
        Param::choice(
            key("commander"),
            "a Waterloo commander with the unit (in its box he leads it as a leader too: rule commander_leads)",
            defaults.commander,
        ),
        Param::boolean(
            key("impetuous"),
            "impetuous cavalry: once it has charged it must charge again",
            defaults.impetuous,
        ),
        Param::boolean(
            key("reluctant"),
            "reluctant: needs a D6 under its hits left to advance or charge",
            defaults.reluctant,
        ),
        Param::boolean(key("shock"), "shock cavalry: +1D6 charging units without shock", defaults.shock),
        Param::boolean(
            key("flank"),
            "its attacks strike the enemy's flank (artillery and cavalry double dice)",
            defaults.flank,
        ),
        Param::boolean(
            key("in_cover"),
            "in cover: guns in cover are not doubled against by charges",
            defaults.in_cover,
        ),
        Param::boolean(
            key("in_town"),
            "infantry starting in a town or strongpoint: line infantry fire at half effect, charges at quarter, no \
             flanks, until it moves or retreats out",
            defaults.in_town,
        ),
        Param::boolean(
            key("square"),
            "infantry starting in square: no move or fire, cannot be charged, artillery doubles against it",
            defaults.square,
        ),
        Param::boolean(
            key("column"),
            "starting in column of route: treated as flanked, no fire until it leaves it with a move (cavalry may \
             charge in it at half effect)",
            defaults.column,
        ),
        Param::choice(
            key("effect"),
            "the effect of its attacks: full, half or quarter (e.g. against a town)",
            defaults.effect,
        ),
        Param::int(key("extra_dice"), "extra D6 on each of its attacks", i64::from(defaults.extra_dice), 0, 12),
    ]
}

pub(super) fn side_from(settings: &Settings, prefix: &str) -> SideSetup {
    let key = |name: &str| format!("{prefix}.{name}");
    SideSetup {
        unit: settings.choice(&key("type")),
        quality: settings.choice(&key("quality")),
        hits: settings.int(&key("hits")) as u32,
        conscript: settings.bool(&key("conscript")),
        steadfast: settings.bool(&key("steadfast")),
        // `second_line`'s second line has no leader key: its leader is the
        // first line's, if he joins it.
        leader: settings.iter().any(|(name, _)| name == key("leader")) && settings.bool(&key("leader")),
        commander: settings.choice(&key("commander")),
        impetuous: settings.bool(&key("impetuous")),
        reluctant: settings.bool(&key("reluctant")),
        shock: settings.bool(&key("shock")),
        flank: settings.bool(&key("flank")),
        in_cover: settings.bool(&key("in_cover")),
        in_town: settings.bool(&key("in_town")),
        square: settings.bool(&key("square")),
        column: settings.bool(&key("column")),
        effect: settings.choice(&key("effect")),
        extra_dice: settings.int(&key("extra_dice")) as u32,
    }
}

/// The keys of the unit `prefix` (`attacker`, `defender`, `support`,
/// `second`) that change nothing when it fights only `enemies`, each with
/// why, for the outputs to name as not read ([`Game::unread_keys`]):
///
/// - `shock` and `impetuous` on a unit that is not cavalry: it never charges,
///   and a charged unit's shock counts only for cavalry (Cavalry Charges).
/// - `conscript` and `steadfast` against cavalry alone: cavalry "do NOT
///   shoot", and only fire makes a unit retreat (Shooting); `conscript` on a
///   steadfast unit, which never retreats.
/// - `in_cover` unless the unit is artillery facing cavalry: cover spares
///   only guns charged by cavalry (Unit table: "Artillery not in cover").
/// - `flank` on infantry (only artillery fire and cavalry charges double
///   against a flank), on artillery facing only light infantry or guns
///   ("vs flanks of infantry or cavalry"; light infantry has "No flanks"),
///   on cavalry facing only light infantry or line infantry that pivots to
///   face a charge (rule `line_infantry_pivot`).
/// - `quality` when the `hits` key sets the unit's hits instead.
pub(super) fn unit_unread_keys(
    rules: &Rules,
    prefix: &str,
    unit: &SideSetup,
    enemies: &[UnitType],
) -> Vec<(String, String)> {
    let mut unread = Vec::new();
    let mut push = |key: &str, why: String| unread.push((format!("{prefix}.{key}"), why));
    let kind = unit.unit;
    if !kind.is_cavalry() {
        for key in ["shock", "impetuous"] {
            push(key, format!("the {prefix} unit is not cavalry and never charges"));
        }
    }
    if enemies.iter().all(|enemy| enemy.is_cavalry()) {
        for key in ["conscript", "steadfast"] {
            push(key, "cavalry do not shoot, and only fire makes a unit retreat".into());
        }
    } else if unit.steadfast {
        push("conscript", format!("the {prefix} unit is steadfast and never retreats"));
    }
    if !(kind == UnitType::Artillery && enemies.iter().any(|enemy| enemy.is_cavalry())) {
        push("in_cover", "cover spares only guns charged by cavalry (\"Artillery not in cover\")".into());
    }
    let flanks = match kind {
        UnitType::Artillery => enemies.iter().any(|&enemy| !enemy.is_light() && enemy != UnitType::Artillery),
        UnitType::Cavalry | UnitType::HeavyCavalry => {
            let pivots = rules.line_infantry_pivot == PivotToFace::Always;
            enemies.iter().any(|&enemy| !(enemy.is_light() || pivots && enemy == UnitType::LineInfantry))
        }
        _ => false,
    };
    if !flanks {
        let why = if kind.is_infantry() {
            "only artillery fire and cavalry charges double against a flank"
        } else if kind.is_cavalry() {
            "light infantry has no flanks and line infantry pivots to face a charge (rule line_infantry_pivot)"
        } else {
            "artillery doubles only against flanks of infantry or cavalry, and light infantry has no flanks"
        };
        push("flank", why.into());
    }
    if unit.hits > 0 {
        push("quality", format!("the {prefix} unit's hits are set by {prefix}.hits"));
    }
    unread
}

/// The keys of a duel: [`duel_params`] with each side's retired keys named in its policy doc.
fn duel_only_params(range: i64, attacker: SideSetup, defender: SideSetup) -> Vec<Param> {
    let mut params = duel_params(range, attacker, defender);
    name_retired_keys(&mut params, "attacker", &["attacker"], &[]);
    name_retired_keys(&mut params, "defender", &["defender"], &[]);
    params
}

/// The keys every fight of this ruleset starts from: the range, the turns,
/// who goes first, the policies, and both sides' units.
pub(super) fn duel_params(range: i64, attacker: SideSetup, defender: SideSetup) -> Vec<Param> {
    let mut params = vec![
        Param::int("range", "the starting range in boxes", range, 1, i64::from(MAX_RANGE)),
        Param::int("turns", "the turn limit (game turns, each both side turns)", 30, 1, i64::from(MAX_TURNS)),
        Param::choice("first", "the side whose side turn comes first in each game turn", FirstSide::Attacker),
    ];
    params.extend(game::plan_params());
    params.extend(side_params("attacker", attacker));
    params.extend(side_params("defender", defender));
    params
}

crate::choice_enum! {
    /// Whose side turn comes first in each game turn.
    pub enum FirstSide {
        /// The attacker shoots or moves first.
        Attacker = "attacker",
        /// The defender shoots or moves first.
        Defender = "defender",
    }
}

fn build(kind: DuelKind, rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    let duel = Duel::new(
        rules_of::<Rules>(rules),
        kind,
        side_from(settings, "attacker"),
        side_from(settings, "defender"),
        settings.int("range") as u32,
        settings.int("turns") as u32,
    )?;
    let duel = match settings.choice::<FirstSide>("first") {
        FirstSide::Attacker => duel,
        FirstSide::Defender => duel.defender_first(),
    };
    Ok(Box::new(Played::new(
        duel.with_retiring().with_purpose(game::Purpose::from_settings(settings)),
        game::Plan::from_settings(settings),
    )))
}

/// The default units of a firefight: two good lines of infantry.
pub fn firefight_defaults() -> (SideSetup, SideSetup) {
    (SideSetup::new(UnitType::LineInfantry), SideSetup::new(UnitType::LineInfantry))
}

/// The `firefight` scenario for the catalogue.
pub fn firefight_entry() -> ScenarioEntry {
    let (attacker, defender) = firefight_defaults();
    ScenarioEntry {
        name: "firefight",
        summary: "Two units in side turns (attacker first), each firing or moving as its policy decides, retreats \
                  opening the range, until one routs or the turn limit.",
        params: {
            let mut params = duel_only_params(1, attacker, defender);
            params.push(game::purpose_key(
                game::Purpose::Stand,
                "rout the defender",
                "two units that stand and trade fire: who gives way first. The start range matters by a rule: \
                 from 3 boxes or more neither line steps into the other's 2-box range, since whoever does is \
                 fired on first (\"Units move OR shoot\"), so they stand off until the last six game turns, \
                 when the defender, whose side turn closes each game turn, steps in: the attacker wins 66.9% \
                 from 1 box, 57.3% from 2, 3.5% from 3 or more (90.5% undecided)",
            ));
            params
        },
        build: |rules, settings| build(DuelKind::Firefight, rules, settings),
    }
}

/// The `cavalry_charge` scenario for the catalogue.
pub fn cavalry_charge_entry() -> ScenarioEntry {
    ScenarioEntry {
        name: "cavalry_charge",
        summary: "Cavalry against a unit that shoots back: it halts, closes, charges or breaks off, the infantry \
                  fires or forms square, as each side's policy decides, until one routs.",
        params: {
            let mut params =
                duel_only_params(2, SideSetup::new(UnitType::Cavalry), SideSetup::new(UnitType::LineInfantry));
            params.push(game::purpose_key(
                game::Purpose::Attack,
                "rout the defender",
                "a charge is the cavalry's to carry; infantry standing at the limit has held",
            ));
            params
        },
        build: |rules, settings| build(DuelKind::CavalryCharge, rules, settings),
    }
}

/// The `grand_battery` scenario for the catalogue.
pub fn grand_battery_entry() -> ScenarioEntry {
    ScenarioEntry {
        name: "grand_battery",
        summary: "Artillery (the defender) firing on a unit that closes on it from a range, each side's moves and \
                  fire as its policy decides.",
        params: {
            let mut params =
                duel_only_params(6, SideSetup::new(UnitType::LineInfantry), SideSetup::new(UnitType::Artillery));
            params.push(game::purpose_key(
                game::Purpose::Attack,
                "rout the battery",
                "the unit closing on the guns must silence them within the limit",
            ));
            params
        },
        build: |rules, settings| build(DuelKind::GrandBattery, rules, settings),
    }
}

impl DuelKind {
    /// The scenario's name.
    pub fn name(self) -> &'static str {
        match self {
            DuelKind::Firefight => "firefight",
            DuelKind::CavalryCharge => "cavalry_charge",
            DuelKind::GrandBattery => "grand_battery",
            DuelKind::SecondLine => "second_line",
        }
    }
}
