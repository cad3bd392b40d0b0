//! One Hour Napoleonic (Martin Rapier's variant of Neil Thomas' One Hour
//! Wargames, MR 02.01.24): D6 pools that hit on 3+, units that lose one hit
//! per success and rout at zero, cavalry that only charge, leaders and the
//! Waterloo commanders.
//!
//! The rules text (Martin Rapier's variant of One Hour Wargames) has no
//! numbers, so code cites them by their headings ("Unit table", "Shooting",
//! "Rout", "Cavalry Charges", "Leader Risk", "Rally by C-in-C", "WATERLOO
//! Commander effects", ...).
//!
//! # Scenarios
//!
//! - `shoot` and `charge` ([`single`]): one unit's fire, one cavalry charge;
//!   exact by binomials of the dice, then the halving or doubling.
//! - `firefight`, `cavalry_charge` and `grand_battery` ([`duel`]): two units
//!   taking side turns until one routs or the turn limit, each side turn one
//!   decision of the acting side (fire, charge, how far to move, leave column
//!   of route, form or leave square, break off); games on the kernel's
//!   decision model ([`game`](crate::game)): best play by default, `bold` and
//!   `cautious` by the `attacker.policy` / `defender.policy` keys, all exact.
//! - `second_line` ([`second_line`]): an attack on a position held in two
//!   lines: the duel against the first line, then its rout played out (the
//!   leader's 1D6, the bayonet advance or cavalry occupying the box, the
//!   leader retiring and perhaps joining the second line), then the duel
//!   against the second line `depth` boxes behind; the same game with the
//!   phase in the state, the bayonet advance as the attacker's decision, and
//!   where the first line's leader goes (`leader`) as the defender's.
//! - `brigade_fire` ([`brigade`]): several shooters at one target, as grand
//!   batteries and brigade attacks are played: two attacking units (a
//!   battalion and its battery by default, keys `attacker.*` and `support.*`,
//!   ranges `range` and `support.range`) against one defender, until the
//!   defender routs or both attackers do; each attacking unit is paired with
//!   the defender by the duels' code, the attacker decides which unit fires
//!   next (`volley`) and which unit its leader is with (`leader`), and the
//!   defender whom it fires at (`target`).
//!
//! For example `volley dist one_hour firefight --set attacker.quality=old_guard
//! --set defender.type=rifles --set range=2 --exact`, or `volley dist one_hour
//! second_line --set depth=2 --set second.column=true --exact`.
//!
//! # Ruleset note
//!
//! Every reading below is a field of [`Rules`] (the choices start
//! "Interpretation:") or, for the small ones, fixed and stated here.
//!
//! - Light infantry "take half hits from infantry/artillery fire": by default
//!   the fire hits it only as half effect would (full 3+ becomes 5+, half
//!   becomes quarter 6), which halves the expected hits exactly and is the
//!   rules' own way to halve: the shooting rules write "Half effect 5+", and
//!   the unit table's "half hits" is that effect seen from the target. Halving
//!   the hits rounding down would make light infantry immune to every single
//!   die (light infantry, line infantry at 2 boxes, artillery at 5-8), and
//!   rounding up would not halve a single die at all. Fire already at quarter
//!   effect (6) stays at 6 under `five_plus`: no score is worse than a 6, so
//!   light infantry in a town under line infantry fire gains nothing more.
//!   Field `light_infantry_half_hits`: `five_plus` (default), `round_down`,
//!   `round_up` (the halved readings halve whatever the dice hit, at any effect).
//! - Light infantry and cavalry: the cavalry row doubles the dice "vs Light
//!   Infantry" and the light infantry row takes "double hits from cavalry".
//!   By default this is one effect printed twice (double dice); field
//!   `light_infantry_charged`: `double_dice` (default), `double_hits`, `both`.
//! - A charge's dice score like shooting (3+, half effect 5+, quarter 6): the
//!   charge rules print no score, but "Towns and Strongpoints" gives charges
//!   at half effect 5+ and quarter 6, the shooting scale. Field
//!   `charge_scores`: `as_shooting` (default) or `four_up` (4+, 5+, 6).
//! - "Line Infantry may pivot to face a charge": by default it always does, so
//!   a flank charge on line infantry is met frontally (no doubled dice); field
//!   `line_infantry_pivot`: `always` (default) or `never`.
//! - Doubled dice and extra dice: by default the doubling applies to the
//!   unit's printed dice ("2x dice" is a column of the unit table) and extra
//!   dice (shock, commanders, the `extra_dice` key) are added after it; field
//!   `doubling`: `printed_dice` (default) or `all_dice`. Several reasons to
//!   double (flank and light infantry) double once (not a field).
//! - A leader who dies takes his extra hit with him (the unit "takes one extra
//!   hit before routing" because he is there), so a unit at its last hit
//!   routs; field `leader_loss`: `lose_extra_hit` (default) or `keep_hits`.
//! - Leader risk "if a leader is in a box which takes a hit": one 2D6 roll per
//!   attack that inflicts hits by default; field `leader_risk`: `per_attack`
//!   (default) or `per_hit`.
//! - The leader's "bonus to its morale roll": the one roll of these rules
//!   against morale is the reluctant unit's D6 "less than their remaining
//!   hits"; a leader with the unit takes `leader_morale_bonus` (1: the text
//!   gives no size, and 1 is the least bonus a D6 can show) off that roll.
//! - Commanders: a Waterloo commander with a unit (all but Ney adjacent) is
//!   in its box, and "Leaders: Army and Corps commanders of notable repute"
//!   makes him a leader: the extra hit, the morale bonus and leader risk come
//!   with his own effect. Field `commander_leads`: `in_box` (default) or
//!   `never` (only his listed effect).
//! - The rally of the C-in-C (Wellington at the end of the Allied turn,
//!   Napoleon at the start of the French turn) is tried whenever the unit has
//!   a hit it may regain; "the 1st hit cannot be rallied off" caps the unit
//!   one below its starting hits.
//! - "If the leader is in a box where the unit routs, or if they are overrun":
//!   when the enemy enters the box of a unit that has just routed (cavalry
//!   occupying it, line infantry's bayonet advance) that is one event and one
//!   1D6 roll, not two. In `second_line` a surviving overrun leader "retires 1
//!   box" (`leader_retire_boxes`); whether he joins the second line is field
//!   `surviving_leader`: `joins_if_reached` (default: only if the retirement
//!   brings him to its box; a leader not overrun does not retire and stays
//!   detached), `always_joins` or `never_joins`. A joining leader
//!   brings his extra hit and his leader risk; the second line has no leader of
//!   its own.
//! - Turns: side turns alternate ("at the end of any Allied turn", "at the
//!   start of any French turn"), the attacker's first unless the `first` key
//!   says otherwise; one game turn is both. In its side turn a unit either
//!   shoots or moves ("Units move OR shoot"); cavalry charge in the move phase.
//!   Every choice the rules leave to the player is a decision (listed in
//!   [`duel`]): fire or move, how far (halting anywhere from where it stands
//!   to its full move), leaving column of route, forming or leaving square,
//!   charging or breaking off, the bayonet advance, where a leader goes. The
//!   retired keys (each unit's `advances`, `close_to` and `break_off`, and
//!   `second_line`'s `bayonet_advance`) are no longer declared: each side's
//!   policy key names the ones it replaced in its doc, so setting one is
//!   answered "unknown key ...; did you mean `attacker.policy`?" and `volley
//!   list` shows why in that key's doc.
//! - Retiring: Movement lets units "pivot at the start and end of their move
//!   only, otherwise move forward", so a unit may turn about, move up to its
//!   move, and turn back to face the enemy: it retires, facing the enemy at
//!   the end (not flanked), and, having moved, does not shoot. Field
//!   `retire`: `pivot` (default) or `never` (the play before). Every unit
//!   that may move is offered it: both sides of the duels (`firefight`,
//!   `cavalry_charge`, `grand_battery`), the attacker and the second line of
//!   `second_line` (the first line has the second behind it and no room to
//!   retire into), and all three units of `brigade_fire` (the defender's
//!   retirement runs along the files and opens both attackers' ranges
//!   alike). The argument for `pivot`: the text restricts pivots to the
//!   start and end of a move, not their direction, so turning about, moving
//!   and turning to face again is a legal move, and a player who may not
//!   retire could never break off a losing firefight, which no rule forbids
//!   (only impetuous cavalry "MUST continue to charge"). What retiring means
//!   for the fight is the scenario's purpose: under `stand` a unit that
//!   retires has given up the ground its side must hold (in `brigade_fire`,
//!   either attacking unit's), under `attack` a defender that retires has
//!   given the attacker its aim and an attacker that retires may come back,
//!   and under `manoeuvre` it is a move like any other.
//! - Choices the text leaves to a player that are not decisions, because
//!   taking them is never worse: the C-in-C's rally ("may ... attempt to
//!   rally") is always tried, since a rally only gives hits back and no rule
//!   makes a unit worse for having hits; a commander's re-roll of a missed
//!   die (Hill, Lobau) and forced re-roll of an enemy's hit (Orange, Reille)
//!   are always taken, one die per attack, since the re-roll cannot come
//!   out worse than the die it replaces. (One more hit may push a target
//!   back a box, which a shooter could in principle not want; the text
//!   makes the re-roll a die's, before any retreat is known to follow, and
//!   the re-rolls are folded into the attack's law, not chosen die by die.)
//!   Cavalry whose charge routs its target "occupy the target box", a
//!   retreat is "directly away from source", and a unit routed is gone:
//!   the text gives no choice there.
//! - Keys a scenario accepts but does not read at its settings are named in
//!   every output as not read, with why (`unread_keys`; the combinations
//!   the rules forbid are refused instead): in the fights
//!   (`duel::unit_unread_keys`) `shock` and `impetuous` on a unit that is
//!   not cavalry, `conscript` and `steadfast` against cavalry alone (cavalry
//!   do not shoot, and only fire makes a unit retreat), `conscript` on a
//!   steadfast unit, `in_cover` unless guns face cavalry, `flank` where
//!   nothing it strikes doubles, `quality` under a `hits` key; in `shoot`,
//!   `target_in_town` for a shooter other than line infantry and
//!   `target_conscript` on a steadfast target; in `charge`, `flank`,
//!   `target_column`, `target_in_cover`, `effect` and the shock keys where
//!   the target's type or situation makes them change nothing.
//! - Squares: "may go into or out of square at the beginning of their
//!   movement phase", offered to infantry facing cavalry; a square neither
//!   moves nor shoots, cannot be charged, is doubled against by artillery,
//!   and is not pushed back by a retreat ("may not move"); leaving square
//!   takes the movement phase. Whether a unit that fired may form square in
//!   the same side turn is field `square_after_fire`: `forbidden` (default:
//!   changing formation is its movement, and "Units move OR shoot") or
//!   `allowed`.
//! - Reluctant units roll their D6 each time they would advance or charge
//!   ("to advance or charge"), the bayonet advance included, and, failing,
//!   stand.
//! - Column of route: "To exit formation, move a normal move next turn";
//!   field `column_exit`: `normal_move` (default: the unit deploys while
//!   moving its normal, deployed, rate, since "Standard move rates are for
//!   units deployed for combat"; the unit no longer stands a whole turn) or
//!   `spend_move` (the exit is the side turn's move, made where it stands).
//!   It does not shoot in that side turn. When to deploy is the unit's
//!   decision, so it may deploy before it comes under fire. Cavalry deploys
//!   by the same rule, or charges in column at half effect ("Cavalry may
//!   charge in CoR at half effect").
//! - Moves go straight at the enemy, so the 1.5-box moves (artillery, line
//!   infantry) cover one box: the half box pays for a diagonal ("moves on the
//!   diagonal cost 1.5"). Column of route adds its cross-country bonus.
//! - A retreat ("3 (or more) hits from shooting from a single source") opens
//!   the range by one box; charges never cause retreats; a unit that retreats
//!   out of a town leaves it and its benefits ("Towns fill a whole box"). A routed unit never
//!   retreats or recovers. In `second_line` the first line retreats towards
//!   the second line but never into its box (with no room left it stands).
//! - Bayonet Charge: line infantry that routs a unit with massed (1 box)
//!   musketry "may advance into the vacant hex": in `second_line` the
//!   attacker's decision `bayonet`; cavalry whose charge routs a unit always
//!   occupies its box. In the duels the fight is over at the rout,
//!   so neither advance (nor the leader's retirement) changes their outcome.
//! - `second_line`: the second line stands behind the first, which blocks its
//!   line of sight, and does nothing (keeping the formation it was given,
//!   column of route included) until the first line routs; then the side
//!   turn that routed it ends as any other (Wellington's rally) and the second
//!   line has the next side turn.
//! - Several shooters (`brigade_fire`): "3 (or more) hits from shooting from
//!   a single source" counts each unit's fire on its own by default, so a
//!   conscript hit once by each of two units does not retreat, and a target
//!   hit three times by each retreats twice: the conscripts' sentence in the
//!   same paragraph says "from a single shooter", a shooter is a unit, and a
//!   retreat is "directly away from source", which needs one place to be
//!   away from. Field `single_source`: `each_unit` (default) or `all_fire`
//!   (the hits of the attacker's whole shooting phase add up, and the target
//!   retreats once). Each unit's fire is also its own attack for leader risk
//!   (`leader_risk`). The fire of a shooting phase is resolved one unit at a
//!   time, in the order the attacker chooses, since a retreat changes the next
//!   unit's range; units that did not fire move afterwards ("2) Shoot 3)
//!   Move"). A routed attacker leaves the fight and its partner fights on
//!   (the rules rout units, not brigades; not a field). The two attackers
//!   stand in neighbouring files, so the defender's retreats and moves change
//!   both ranges alike and an attacker's own move or retreat only its own
//!   (scenario geometry, stated in [`brigade`]).
//! - Where a leader goes: "Leaders move with units or as cavalry", so in his
//!   side's movement phase ("3) Move") a leader may ride a cavalry move
//!   (`cavalry_move_half_boxes`) to another unit of his side, and that is the
//!   side's decision `leader` wherever the side has two units: the first
//!   line's leader in `second_line` (to the second line and back, while the
//!   first line stands, if the gap is within his move) and the one attached
//!   leader of `brigade_fire`'s attacking units (to the other unit, if it
//!   stands within his move). Where a side has one unit (the duels, the
//!   attacker of `second_line`, the defender of `brigade_fire`) there is
//!   nothing to decide: a leader apart from every unit gives nothing (the
//!   extra hit and the bonus are for "a leader stacked with a unit") and
//!   with it the unit is never worse off, so a detached leader is not an
//!   option (the argument is in [`duel`]). Waterloo commanders do not ride:
//!   their effects are keys of the unit they are given with. What his extra
//!   hit does when he rides is field `leader_leaves`: `lose_extra_hit`
//!   (default) takes it with him, so the unit he leaves routs one hit sooner
//!   and the unit he joins one later, and a unit at its last hit cannot be
//!   left. The text says the extra hit is the stacked leader's ("allows it
//!   to take one extra hit before routing"), which counts his presence, not
//!   a hit banked once; it is the reading `leader_loss` takes by default for
//!   a lost leader; and it keeps the side's hits what they were (no ride
//!   gains or loses one), where `keep_hits` (the unit he leaves keeps its
//!   hits, the one he joins gains one, up to its hits with a leader) lets a
//!   leader riding back and forth mend both units. Bold keeps him with the
//!   unit in the most danger (the first line; the attacking unit nearer the
//!   defender), cautious with the one out of reach (the second line; the
//!   attacking unit beyond the defender's reach, else the farther).
//! - Non-impetuous cavalry may break off (the fight ends, winner none) at any
//!   side turn; impetuous cavalry that has charged "MUST continue to charge"
//!   while it has a valid target (one within reach and not in square), and
//!   before its first charge it moves as it likes.
//! - The Waterloo commanders are with the unit (attached, or within the one box
//!   their effect needs). Reille's and Orange's forced re-roll and Hill's and
//!   Lobau's re-roll apply once per attack; the enemy makes one attack per
//!   side turn, so "per turn" is the same thing.
//! - A target's type in `shoot` changes nothing for cavalry: the rules give
//!   cavalry no protection from fire (the key exists for sweeps).
//! - Flanks: artillery doubles "vs flanks of infantry or cavalry, or vs
//!   Squares", so never against guns, even limbered in column of route; a unit
//!   in column of route is "flanked for all combat" and cannot pivot out of
//!   it, but light infantry keeps its "No flanks".
//! - Towns and strongpoints (`in_town`, infantry only): line infantry shoots
//!   them at half effect (artillery "as normal", light infantry's "Attacks
//!   ignore cover"), cavalry charges them at quarter effect (half against
//!   guns, for which a town counts as cover), and never in the flank; a unit
//!   that moves or retreats out of its town loses all of this.
//! - Hill's re-roll is for infantry ("British and infantry"), Picton's die for
//!   infantry at one box; Ney, D'Erlon and Lobau act "in melee", which only
//!   cavalry charges are ("Infantry and Artillery may NOT engage in melee").
//! - Not modelled: chance cards (their deck is not in the text), and terrain
//!   and line of sight beyond the `effect`, `in_cover` and `flank` keys.

use crate::catalogue::RulesetEntry;

pub mod attack;
pub mod brigade;
pub mod duel;
pub mod second_line;
pub mod single;

crate::choice_enum! {
    /// A unit type of the unit table.
    pub enum UnitType {
        /// Cavalry: charges only, 3D6.
        Cavalry = "cavalry",
        /// Heavy cavalry: charges only, 3D6, not reduced against other heavy cavalry.
        HeavyCavalry = "heavy_cavalry",
        /// Artillery (grand batteries): 3D6, 2D6, 1D6 by range.
        Artillery = "artillery",
        /// Line infantry: 3D6 at one box, 1D6 at two.
        LineInfantry = "line_infantry",
        /// Light infantry: 1D6 to two boxes; half hits from fire.
        LightInfantry = "light_infantry",
        /// Rifles: light infantry with 1D6 to three boxes.
        Rifles = "rifles",
    }
}

impl UnitType {
    /// Cavalry of either kind.
    pub fn is_cavalry(self) -> bool {
        matches!(self, UnitType::Cavalry | UnitType::HeavyCavalry)
    }

    /// Light infantry, rifles included ("Rifles increase range": they are light infantry).
    pub fn is_light(self) -> bool {
        matches!(self, UnitType::LightInfantry | UnitType::Rifles)
    }

    /// Infantry of any kind.
    pub fn is_infantry(self) -> bool {
        matches!(self, UnitType::LineInfantry | UnitType::LightInfantry | UnitType::Rifles)
    }
}

crate::choice_enum! {
    /// Troop quality ("Troop quality"): the hits a unit takes before it routs.
    pub enum Quality {
        /// Excellent: 7 hits.
        Excellent = "excellent",
        /// Good: 6 hits.
        Good = "good",
        /// Poor: 5 hits.
        Poor = "poor",
        /// French Old Guard: 8 hits.
        OldGuard = "old_guard",
    }
}

crate::choice_enum! {
    /// The effect of fire or a charge: the score each die needs.
    pub enum Effect {
        /// Full effect: 3+.
        Full = "full",
        /// Half effect: 5+.
        Half = "half",
        /// Quarter effect: 6.
        Quarter = "quarter",
    }
}

impl Effect {
    /// One step worse (quarter stays quarter: no die scores less often than a 6).
    pub fn halved(self) -> Effect {
        match self {
            Effect::Full => Effect::Half,
            Effect::Half | Effect::Quarter => Effect::Quarter,
        }
    }
}

crate::choice_enum! {
    /// A Waterloo commander with the unit ("WATERLOO Commander effects").
    pub enum Commander {
        /// No commander.
        None = "none",
        /// Wellington: rallies the unit at the end of each Allied turn.
        Wellington = "wellington",
        /// Picton: +1D6 shooting at one box (British infantry).
        Picton = "picton",
        /// Hill: re-roll one missed die when shooting (infantry).
        Hill = "hill",
        /// Orange: the enemy re-rolls one successful hit of fire or melee.
        Orange = "orange",
        /// Napoleon: rallies the unit at the start of each French turn.
        Napoleon = "napoleon",
        /// Ney attached: +2D6 in melee.
        Ney = "ney",
        /// Ney adjacent: +1D6 in melee.
        NeyAdjacent = "ney_adjacent",
        /// D'Erlon: +1D6 in melee.
        DErlon = "d_erlon",
        /// Reille: the enemy re-rolls one successful hit of fire.
        Reille = "reille",
        /// Lobau: re-roll one missed die in melee.
        Lobau = "lobau",
    }
}

impl Commander {
    /// Whether the commander stands in the unit's box (all but Ney adjacent,
    /// who is by definition in the next box).
    pub fn stands_in_box(self) -> bool {
        !matches!(self, Commander::None | Commander::NeyAdjacent)
    }
}

crate::choice_enum! {
    /// Interpretation: whether a unit may retire (Movement).
    pub enum Retire {
        /// Yes: it pivots about at the start of its move, moves up to its
        /// move away from the enemy, and pivots to face it again at the end
        /// ("May pivot at the start and end of their move only, otherwise
        /// move forward").
        Pivot = "pivot",
        /// No: a unit only holds or closes (the play before retiring came in).
        Never = "never",
    }
}

crate::choice_enum! {
    /// Interpretation: whether infantry that fired may form square in the same side turn.
    pub enum SquareAfterFire {
        /// No: forming square is the unit's movement ("Units move OR shoot").
        Forbidden = "forbidden",
        /// Yes: it forms square "at the beginning of their movement phase", after the shooting phase.
        Allowed = "allowed",
    }
}

crate::choice_enum! {
    /// Interpretation: whether a Waterloo commander with a unit is its leader.
    pub enum CommanderLeads {
        /// A commander in the unit's box is a leader too: one extra hit, the morale bonus, leader risk.
        InBox = "in_box",
        /// Commanders give only their own effects.
        Never = "never",
    }
}

crate::choice_enum! {
    /// Interpretation: what "take half hits" means for light infantry under fire.
    pub enum HalfHits {
        /// The fire counts one effect worse: 3+ becomes 5+, 5+ becomes 6.
        FivePlus = "five_plus",
        /// Halve the hits, rounding down.
        RoundDown = "round_down",
        /// Halve the hits, rounding up.
        RoundUp = "round_up",
    }
}

crate::choice_enum! {
    /// Interpretation: how cavalry's "2x dice vs Light Infantry" and light
    /// infantry's "double hits from cavalry" combine.
    pub enum LightInfantryCharged {
        /// One effect printed twice: the dice double.
        DoubleDice = "double_dice",
        /// One effect printed twice: the hits double.
        DoubleHits = "double_hits",
        /// Two effects: the dice double and so do the hits.
        Both = "both",
    }
}

crate::choice_enum! {
    /// Interpretation: the scores a charge's dice need.
    pub enum ChargeScores {
        /// As shooting: 3+, half effect 5+, quarter effect 6.
        AsShooting = "as_shooting",
        /// 4+, half effect 5+, quarter effect 6.
        FourUp = "four_up",
    }
}

crate::choice_enum! {
    /// Interpretation: whether line infantry pivots to face a flank charge.
    pub enum PivotToFace {
        /// Always: a flank charge on line infantry is met frontally.
        Always = "always",
        /// Never: a flank charge doubles the dice.
        Never = "never",
    }
}

crate::choice_enum! {
    /// Interpretation: which dice "2x dice" doubles.
    pub enum Doubling {
        /// The unit table's dice only; extra dice are added after.
        PrintedDice = "printed_dice",
        /// Every die, extra dice included.
        AllDice = "all_dice",
    }
}

crate::choice_enum! {
    /// Interpretation: what a unit loses when its attached leader is lost.
    pub enum LeaderLoss {
        /// The extra hit goes with him (a unit at its last hit routs).
        LoseExtraHit = "lose_extra_hit",
        /// The unit keeps the hits it has.
        KeepHits = "keep_hits",
    }
}

crate::choice_enum! {
    /// Interpretation: what a leader's extra hit does when he rides from one unit to another.
    pub enum LeaderLeaves {
        /// The extra hit goes with him: the unit he leaves routs one hit sooner, the one he joins one later.
        LoseExtraHit = "lose_extra_hit",
        /// The unit he leaves keeps the hits it has; the one he joins gains one, up to its hits with a leader.
        KeepHits = "keep_hits",
    }
}

crate::choice_enum! {
    /// Interpretation: how often leader risk is rolled when the box takes hits.
    pub enum LeaderRisk {
        /// One 2D6 roll per attack that inflicts any hits.
        PerAttack = "per_attack",
        /// One 2D6 roll per hit.
        PerHit = "per_hit",
    }
}

crate::choice_enum! {
    /// Interpretation: what leaving column of route costs ("To exit formation,
    /// move a normal move next turn").
    pub enum ColumnExit {
        /// The exit is the side turn's move: the unit deploys where it stands.
        SpendMove = "spend_move",
        /// The unit deploys while moving its normal (deployed) rate.
        NormalMove = "normal_move",
    }
}

crate::choice_enum! {
    /// Interpretation: whether the surviving leader of a routed first line joins the second line.
    pub enum SurvivingLeader {
        /// Only if his retirement ("the leader retires 1 box", when overrun) brings him to it.
        JoinsIfReached = "joins_if_reached",
        /// Always: he rides back to it ("Leaders move with units or as cavalry").
        AlwaysJoins = "always_joins",
        /// Never: he takes no further part.
        NeverJoins = "never_joins",
    }
}

crate::choice_enum! {
    /// Interpretation: what "a single source" of fire is for the retreat test.
    pub enum SingleSource {
        /// Each unit's fire is its own source: hits from two units never add up.
        EachUnit = "each_unit",
        /// All the fire of a shooting phase is one source: its hits add up, and the target retreats once.
        AllFire = "all_fire",
    }
}

crate::rule_book! {
    /// One Hour Napoleonic's numbers and readings, at their printed values.
    pub struct Rules {
        /// Shooting: "3+ to hit" (full effect).
        pub score_full: u32 = 3, range 1..=6;
        /// Shooting: "Half effect 5+".
        pub score_half: u32 = 5, range 1..=6;
        /// Shooting: "Quarter effect 6".
        pub score_quarter: u32 = 6, range 1..=6;
        /// Unit table, Artillery: "1 box range: 3D6".
        pub artillery_dice_close: u32 = 3, range 0..=10;
        /// Unit table, Artillery: "2-4 box range: 2D6".
        pub artillery_dice_medium: u32 = 2, range 0..=10;
        /// Unit table, Artillery: the longest medium range ("2-4 box").
        pub artillery_medium_range: u32 = 4, range 1..=12;
        /// Unit table, Artillery: "5-8 box range: 1 D6".
        pub artillery_dice_long: u32 = 1, range 0..=10;
        /// Unit table, Artillery: the longest range ("5-8 box").
        pub artillery_max_range: u32 = 8, range 1..=12;
        /// Unit table, Artillery: "2 x dice vs flanks of infantry or cavalry, or vs Squares".
        pub artillery_flank_multiplier: u32 = 2, range 1..=4;
        /// Unit table, Line Infantry: "1 box range: 3D6".
        pub line_infantry_dice_close: u32 = 3, range 0..=10;
        /// Unit table, Line Infantry: "2 box range 1 D6".
        pub line_infantry_dice_long: u32 = 1, range 0..=10;
        /// Unit table, Line Infantry: its longest range (2 boxes).
        pub line_infantry_max_range: u32 = 2, range 1..=12;
        /// Unit table, Light Infantry: "2 box range: 1 D6" (at one box too).
        pub light_infantry_dice: u32 = 1, range 0..=10;
        /// Unit table, Light Infantry: its longest range (2 boxes).
        pub light_infantry_max_range: u32 = 2, range 1..=12;
        /// Unit table, Light Infantry: "Rifles increase range to 3 boxes (still 1 D6)".
        pub rifles_max_range: u32 = 3, range 1..=12;
        /// Unit table, Cavalry: "3D6".
        pub cavalry_charge_dice: u32 = 3, range 0..=10;
        /// Unit table, Heavy Cavalry: "3D6".
        pub heavy_cavalry_charge_dice: u32 = 3, range 0..=10;
        /// Unit table, Cavalry: "2D6 v Heavy Cavalry".
        pub cavalry_vs_heavy_cavalry_dice: u32 = 2, range 0..=10;
        /// Unit table, Cavalry and Heavy Cavalry: "2x dice flank attack or vs
        /// Light Infantry, or Artillery not in cover".
        pub charge_multiplier: u32 = 2, range 1..=4;
        /// Cavalry Charges: "Units with Shock charging units without same gain an extra D6".
        pub shock_extra_dice: u32 = 1, range 0..=6;
        /// Unit table, Light Infantry: "double hits from cavalry" (the multiplier).
        pub light_infantry_cavalry_hit_multiplier: u32 = 2, range 1..=4;
        /// Unit table, move in half boxes: Cavalry "3".
        pub cavalry_move_half_boxes: u32 = 6, range 0..=20;
        /// Unit table, move in half boxes: Heavy Cavalry "3".
        pub heavy_cavalry_move_half_boxes: u32 = 6, range 0..=20;
        /// Unit table, move in half boxes: Artillery "1.5".
        pub artillery_move_half_boxes: u32 = 3, range 0..=20;
        /// Unit table, move in half boxes: Line Infantry "1.5".
        pub line_infantry_move_half_boxes: u32 = 3, range 0..=20;
        /// Unit table, move in half boxes: Light Infantry "2".
        pub light_infantry_move_half_boxes: u32 = 4, range 0..=20;
        /// Column of Route: "Line Infantry/Guns +1 box cross country".
        pub column_move_bonus: u32 = 1, range 0..=4;
        /// Shooting: "3 (or more) hits from shooting from a single source = retreat 1 box".
        pub retreat_hits: u32 = 3, range 1..=20;
        /// Shooting: "Conscripts retreat ... when suffering 2 (or more) hits from a single shooter".
        pub conscript_retreat_hits: u32 = 2, range 1..=20;
        /// Shooting: the retreat distance ("retreat 1 box directly away").
        pub retreat_boxes: u32 = 1, range 0..=4;
        /// Troop quality: "Excellent ... 7 hits".
        pub hits_excellent: u32 = 7, range 1..=11;
        /// Troop quality: "Good ... 6 hits".
        pub hits_good: u32 = 6, range 1..=11;
        /// Troop quality: "Poor ... 5 hits".
        pub hits_poor: u32 = 5, range 1..=11;
        /// Troop quality: "French Old Guard Units – 8 hits".
        pub hits_old_guard: u32 = 8, range 1..=11;
        /// Rout / Leaders: "Attached Leader +1" (extra hits before routing).
        pub leader_extra_hits: u32 = 1, range 0..=1;
        /// Leader Risk: lost "on a 2D6 roll of '2'" when the box takes a hit (this total or less).
        pub leader_risk_hit_total: u32 = 2, range 1..=12;
        /// Leader Risk: lost "on a 1D6 roll of '1'" when the unit routs or is overrun (this or less).
        pub leader_risk_rout_roll: u32 = 1, range 0..=6;
        /// Leader Risk: "If they are overrun and survive, the leader retires 1 box."
        pub leader_retire_boxes: u32 = 1, range 0..=4;
        /// Rally by C-in-C: "2,3,4 Regain 1 hit" (the least D6 that regains one).
        pub rally_one_hit_roll: u32 = 2, range 1..=7;
        /// Rally by C-in-C: "5,6 Regain 2 hits" (the least D6 that regains two).
        pub rally_two_hits_roll: u32 = 5, range 1..=7;
        /// Rally by C-in-C: "1st hit cannot be rallied off".
        pub rally_keeps_first_hit: bool = true;
        /// WATERLOO: Picton "+1 D6 for shooting at 1 box range".
        pub picton_extra_dice: u32 = 1, range 0..=6;
        /// WATERLOO: Ney "any unit he is attached to adds 2D6 in melee".
        pub ney_attached_dice: u32 = 2, range 0..=6;
        /// WATERLOO: Ney "all adjacent French units add 1 D6 in melee".
        pub ney_adjacent_dice: u32 = 1, range 0..=6;
        /// WATERLOO: D'Erlon "Units within 1 box get an extra D6 in melee".
        pub d_erlon_extra_dice: u32 = 1, range 0..=6;
        /// Interpretation: light infantry's "half hits from infantry/artillery
        /// fire": five_plus (the fire counts one effect worse; default: the
        /// rules' own halving, exact in expectation), round_down (single dice
        /// could never hurt it), round_up (single dice would not be halved).
        pub light_infantry_half_hits: HalfHits = HalfHits::FivePlus;
        /// Interpretation: cavalry's "2x dice vs Light Infantry" and light
        /// infantry's "double hits from cavalry": double_dice (default: one
        /// effect printed in both rows), double_hits, or both.
        pub light_infantry_charged: LightInfantryCharged = LightInfantryCharged::DoubleDice;
        /// Interpretation: charge dice score as_shooting (default: 3+, 5+, 6;
        /// the town rule gives charges half effect 5+ and quarter 6) or four_up.
        pub charge_scores: ChargeScores = ChargeScores::AsShooting;
        /// Interpretation: line infantry "may pivot to face a charge": always
        /// (default: no player would decline) or never (flank charges double).
        pub line_infantry_pivot: PivotToFace = PivotToFace::Always;
        /// Interpretation: which dice "2x dice" doubles: printed_dice (default:
        /// the doubling is in the unit table's row; extra dice add after it)
        /// or all_dice (shock, commanders' and extra dice doubled too).
        pub doubling: Doubling = Doubling::PrintedDice;
        /// Interpretation: a lost leader's extra hit: lose_extra_hit (default:
        /// the extra hit is his presence) or keep_hits.
        pub leader_loss: LeaderLoss = LeaderLoss::LoseExtraHit;
        /// Interpretation: leader risk when the box "takes a hit": per_attack
        /// (default: one roll per attack that hits) or per_hit.
        pub leader_risk: LeaderRisk = LeaderRisk::PerAttack;
        /// Interpretation: leaving column of route ("To exit formation, move a
        /// normal move next turn"): normal_move (default: the unit deploys
        /// while moving its normal, deployed, rate: "Standard move rates are
        /// for units deployed for combat") or spend_move (the exit is the side
        /// turn's move, made where the unit stands). It may not shoot in the
        /// turn it leaves column either way ("Units move OR shoot").
        pub column_exit: ColumnExit = ColumnExit::NormalMove;
        /// Interpretation: the surviving leader of a routed first line
        /// (`second_line`): joins_if_reached (default: he joins the second line
        /// only if his retirement when overrun, `leader_retire_boxes`, brings
        /// him to its box), always_joins (he rides back to it) or never_joins.
        /// In `brigade_fire` a routed attacking unit's leader is never overrun,
        /// and joins the other unit only under always_joins.
        pub surviving_leader: SurvivingLeader = SurvivingLeader::JoinsIfReached;
        /// Interpretation: a Waterloo commander with a unit ("WATERLOO
        /// Commander effects"; Leaders: "Army and Corps commanders of notable
        /// repute"): in_box (default: a commander in the unit's box is its
        /// leader too, with the extra hit, the morale bonus and leader risk;
        /// Ney adjacent is not in the box) or never (only his own effect).
        pub commander_leads: CommanderLeads = CommanderLeads::InBox;
        /// Interpretation: infantry that fired forming square in the same side
        /// turn (Square: "may go into or out of square at the beginning of
        /// their movement phase"): forbidden (default: changing formation is
        /// the unit's movement, and "Units move OR shoot") or allowed (the
        /// movement phase follows the shooting phase, so it may do both).
        pub square_after_fire: SquareAfterFire = SquareAfterFire::Forbidden;
        /// Interpretation: retiring (Movement: "May pivot at the start and
        /// end of their move only, otherwise move forward"): pivot (default:
        /// a unit turns about, moves up to its move away from the enemy and
        /// turns to face it again, ending its move facing the enemy, so it is
        /// not flanked; it moves, so it does not shoot; offered to every
        /// unit that may move: in the duels, `firefight`, `cavalry_charge`
        /// and `grand_battery`, in `second_line` (but not to the first
        /// line, which has the second behind it and no room to retire into)
        /// and in `brigade_fire`, where the defender's retirement opens both
        /// attackers' ranges alike) or never (a unit only holds or closes,
        /// the play before).
        pub retire: Retire = Retire::Pivot;
        /// Interpretation: Leaders: a leader "adds a bonus to its morale roll";
        /// the text gives no size, so this takes 1 off a reluctant unit's D6
        /// (the only morale roll these rules have: "score less than their
        /// remaining hits to advance or charge"); 0 turns it off.
        pub leader_morale_bonus: u32 = 1, range 0..=6;
        /// Interpretation: Shooting's "3 (or more) hits from shooting from a
        /// single source" with several shooters (`brigade_fire`): each_unit
        /// (default: each unit's fire is a source, and the conscripts'
        /// sentence says "from a single shooter") or all_fire (a shooting
        /// phase's hits add up, and the target retreats once).
        pub single_source: SingleSource = SingleSource::EachUnit;
        /// Interpretation: a leader who rides from one unit to another
        /// (Leaders: "Leaders move with units or as cavalry"; the extra hit is
        /// for "a leader stacked with a unit"): lose_extra_hit (default: the
        /// extra hit goes with him, as when he is lost; a unit at its last hit
        /// cannot be left) or keep_hits (the unit he leaves keeps its hits,
        /// the one he joins gains one up to its hits with a leader).
        pub leader_leaves: LeaderLeaves = LeaderLeaves::LoseExtraHit;
    }
}

impl Rules {
    /// The starting hits of a unit of this quality ("Troop quality").
    pub fn quality_hits(&self, quality: Quality) -> u32 {
        match quality {
            Quality::Excellent => self.hits_excellent,
            Quality::Good => self.hits_good,
            Quality::Poor => self.hits_poor,
            Quality::OldGuard => self.hits_old_guard,
        }
    }

    /// The score a die needs at this effect ("3+ to hit. Half effect 5+. Quarter effect 6").
    pub fn shooting_score(&self, effect: Effect) -> u32 {
        match effect {
            Effect::Full => self.score_full,
            Effect::Half => self.score_half,
            Effect::Quarter => self.score_quarter,
        }
    }

    /// The score a charge's die needs at this effect (interpretation `charge_scores`).
    pub fn charge_score(&self, effect: Effect) -> u32 {
        match (self.charge_scores, effect) {
            (ChargeScores::FourUp, Effect::Full) => 4,
            _ => self.shooting_score(effect),
        }
    }

    /// The dice a unit shoots at this range, or `None` when it cannot
    /// (cavalry "do NOT shoot", or out of range). Unit table.
    pub fn shooting_dice(&self, unit: UnitType, range: u32) -> Option<u32> {
        if range == 0 {
            return None;
        }
        match unit {
            UnitType::Cavalry | UnitType::HeavyCavalry => None,
            UnitType::Artillery => match range {
                1 => Some(self.artillery_dice_close),
                r if r <= self.artillery_medium_range => Some(self.artillery_dice_medium),
                r if r <= self.artillery_max_range => Some(self.artillery_dice_long),
                _ => None,
            },
            UnitType::LineInfantry => match range {
                1 => Some(self.line_infantry_dice_close),
                r if r <= self.line_infantry_max_range => Some(self.line_infantry_dice_long),
                _ => None,
            },
            UnitType::LightInfantry => (range <= self.light_infantry_max_range).then_some(self.light_infantry_dice),
            UnitType::Rifles => (range <= self.rifles_max_range).then_some(self.light_infantry_dice),
        }
    }

    /// The longest range a unit shoots at (0 for cavalry).
    pub fn max_range(&self, unit: UnitType) -> u32 {
        match unit {
            UnitType::Cavalry | UnitType::HeavyCavalry => 0,
            UnitType::Artillery => self.artillery_max_range,
            UnitType::LineInfantry => self.line_infantry_max_range,
            UnitType::LightInfantry => self.light_infantry_max_range,
            UnitType::Rifles => self.rifles_max_range,
        }
    }

    /// A unit's straight move in whole boxes (half boxes pay for diagonals),
    /// with column of route's cross-country bonus for line infantry and guns.
    pub fn move_boxes(&self, unit: UnitType, column: bool) -> u32 {
        let half_boxes = match unit {
            UnitType::Cavalry => self.cavalry_move_half_boxes,
            UnitType::HeavyCavalry => self.heavy_cavalry_move_half_boxes,
            UnitType::Artillery => self.artillery_move_half_boxes,
            UnitType::LineInfantry => self.line_infantry_move_half_boxes,
            UnitType::LightInfantry | UnitType::Rifles => self.light_infantry_move_half_boxes,
        };
        // Column of Route: "Line Infantry/Guns +1 box cross country ... Cavalry,
        // Light Infantry +1 box entirely on road (no bonus x-country)".
        let bonus = if column && matches!(unit, UnitType::LineInfantry | UnitType::Artillery) {
            self.column_move_bonus
        } else {
            0
        };
        half_boxes / 2 + bonus
    }

    /// A leader's move in half boxes: "Leaders move with units or as
    /// cavalry", so a cavalry move.
    pub fn leader_move_half_boxes(&self) -> u32 {
        self.cavalry_move_half_boxes
    }

    /// The hits a unit keeps when its leader rides away from it
    /// (interpretation `leader_leaves`), or `None` when he cannot leave: by
    /// default the extra hit goes with him, and a unit at its last hit would
    /// rout, which no rule makes a leader's ride do.
    pub fn hits_when_leader_leaves(&self, hits: u32) -> Option<u32> {
        match self.leader_leaves {
            LeaderLeaves::LoseExtraHit => (hits > self.leader_extra_hits).then(|| hits - self.leader_extra_hits),
            LeaderLeaves::KeepHits => Some(hits),
        }
    }

    /// The hits of a unit of `base_hits` (without a leader) that a leader
    /// joins with `hits` left: one more ("allows it to take one extra hit
    /// before routing"), never above its hits with a leader.
    pub fn hits_when_leader_joins(&self, hits: u32, base_hits: u32) -> u32 {
        (hits + self.leader_extra_hits).min(base_hits + self.leader_extra_hits)
    }

    /// The printed charge dice of a charger against a target, before doubling
    /// (Unit table: 3D6, "2D6 v Heavy Cavalry" for cavalry).
    pub fn charge_base_dice(&self, charger: UnitType, target: UnitType) -> u32 {
        match (charger, target) {
            (UnitType::Cavalry, UnitType::HeavyCavalry) => self.cavalry_vs_heavy_cavalry_dice,
            (UnitType::HeavyCavalry, _) => self.heavy_cavalry_charge_dice,
            _ => self.cavalry_charge_dice,
        }
    }
}

/// The `one_hour` ruleset for the catalogue.
pub fn entry() -> RulesetEntry {
    RulesetEntry {
        name: "one_hour",
        title: "One Hour Napoleonic (Martin Rapier's variant of One Hour Wargames)",
        source: "Martin Rapier's One Hour Napoleonic variant of Neil Thomas's One Hour Wargames; sections cited by name",
        default_rules: || Box::new(Rules::default()),
        scenarios: vec![
            single::shoot_entry(),
            single::charge_entry(),
            duel::firefight_entry(),
            duel::cavalry_charge_entry(),
            duel::grand_battery_entry(),
            second_line::second_line_entry(),
            brigade::brigade_fire_entry(),
        ],
    }
}
