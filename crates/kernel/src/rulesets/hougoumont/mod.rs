//! Hougoumont 1815: a D20-per-figure ruleset with small arms, three kinds of
//! artillery, buildings, melee by total scores, and morale with retreat and
//! rally (the Hougoumont 1815 rules text).
//!
//! Scenarios: `small_arms`, `artillery` and `morale` (single tests, exact by
//! enumerating dice), `melee` (one round, exact by convolving the figures'
//! D20 sums), and three multi-turn games on the decision model
//! ([`crate::game`], played at their best by the solver by default):
//! `firefight` (two units trading volleys, each deciding where to stand: hold,
//! come back towards its place once rallied, or fall back; see
//! [`Firefight`]), `assault` and `farm_assault` (the side outside the position
//! decides each turn how far to move, when to charge and whether to fall
//! back, and defenders who lost it may rally and retake it; see [`Assault`]).
//!
//! # Ruleset note
//!
//! The rules leave several things unsaid. Each gap is a field of [`Rules`]
//! whose doc starts with "Interpretation:", so `volley rules hougoumont` lists
//! it and `--rules` can switch it. The defaults and why:
//!
//! - `morale_threshold` = 10 (5): the text compares the D20 to "the morale
//!   threshold" without printing it; 10 makes an Experienced unit pass 55% of
//!   the time, the middle of the D20. Inexperienced troops have no melee
//!   modifier (`melee_inexperienced` = 0, 4.1 lists none).
//! - `figures_per_hit` = 1 (3.1, 3.2): a small-arms or flat-trajectory hit
//!   removes one figure, the usual reading of a figure-scale game.
//! - `melee_casualties` = `loser_average` (4.2): the loser loses the score
//!   difference divided by its own average score per figure (its total over
//!   its figures), rounded down, never more than its figures. Equal totals are
//!   a draw with no casualties. The formula names the losing side's "effective
//!   score per figure", so the loser's own figures are the natural divisor.
//! - `melee_rounding` = `down` (4.2): casualties are "proportional to the
//!   score difference" and figures are whole, so a fraction must go one way;
//!   a figure is lost only when the difference pays for all of it, the
//!   usual convention of figure games and the reading before issue 34.
//!   `nearest` counts a half or more as a figure: more casualties in every
//!   melee (about a fifth more at 20 figures a side).
//! - `howitzer_adjustment` = `towards_seven` (3.2): a veteran crew may move
//!   its 2D6 result up to 1 towards 7, an elite crew up to 2, and a second
//!   consecutive turn at a stationary target adds 1 more. A crew always
//!   adjusts in its own favour, so "adjust" means "towards the direct hit".
//! - `roof_hit` = `roof_only` (6): the first direct hit on a building blows the
//!   roof off and does no other damage; later direct hits do regular D4 damage
//!   ("Subsequent hits calculate regular howitzer damage"). So the roof goes
//!   first: a near miss (6 or 8) kills no one under an intact roof either,
//!   since a direct hit on it kills none (`roof_and_damage` lets every hit do
//!   its damage).
//! - `howitzer_consecutive` = `adjustment` (3.2): "Consecutive turn on
//!   stationary target: +1 adjust to 2D6 roll" is one more point of the crew's
//!   adjustment towards 7 (a regular crew's direct hits go from 1/6 to 4/9).
//!   The literal reading, `roll_plus_one`, adds 1 to the roll itself; aimed at
//!   7 that makes a regular crew's direct hit rarer (5/36 for 6/36), which no
//!   bonus for a ranged-in target can mean, and the text says "adjust", its
//!   word for the crews' adjustments. In the assaults the count resets when
//!   the guns do not fire (3.3 forbids firing into a melee) or the target
//!   moves.
//! - `fire_after` = `penetrating_hits` (3.2, 6): a building catches fire on a
//!   D6 of 5 or 6 after each penetrating hit: a flat-trajectory penetration or
//!   a howitzer direct hit (which comes through the roof). Near misses and
//!   canister never set a building alight.
//! - `building_hits` = `penetrating_only` (6): a flat-trajectory hit on a
//!   building that does not penetrate hurts no one inside.
//! - `loss_test_base` = `phase_start` (5): "Unit takes 25% or more casualties
//!   in a single phase" measures the casualties against the unit as it stood
//!   when the phase began, the unit that takes them; the text does not name
//!   the starting strength, which the half-strength trigger names separately
//!   ("falls below half strength"). `unit_start` counts 25% of the starting
//!   strength.
//! - `flanked_test` = `first_check` (5): "Unit is flanked" is a situation met
//!   once, like the others in its list (a loss, a fall below half): the unit
//!   tests at the first Morale Check it is flanked, and if it holds it has
//!   faced the threat. `every_check` tests it at every Morale Check while it
//!   stays flanked.
//! - `flanked_when` = `start` (5): in an assault on the defenders' flank
//!   (`defender.flanked`) the attackers stand off their flank from the
//!   start, so the defenders are "flanked" at the first Morale Check,
//!   however far away the attackers are (the firefight's flanked unit has
//!   the enemy on its flank at any range, too). `contact` reads "flanked" as
//!   an attack arriving on the flank: the defenders test when a charge
//!   reaches them (each charge a new flank attack). Measured with the
//!   default assault flanked, both under `attack`: see the guide.
//! - `handover` = `at_once` (5): holders broken by fire at a distance
//!   "immediately move 8 inches away", and the position is the side
//!   outside's the moment they go: nothing else is near enough to contest
//!   it, and the assault's state keeps one distance (the reading before
//!   issue 34). `walk_in` leaves the position empty until the side outside
//!   walks in at its move, as the `both_break = play_on` fight does; the
//!   holders roll to rally meanwhile and, rallied, walk back if they can get
//!   there first. A small difference (the guide gives it measured).
//! - `half_strength_test` = `on_falling` (5): "falls below half strength"
//!   triggers a test in the turn the unit drops below half, not every turn
//!   after.
//! - `woods_movement_percent` = 50 (2): light infantry has "no movement
//!   penalty in woods", which implies one for line infantry that is not
//!   printed; half a move is the usual convention. Cavalry and artillery
//!   cannot enter woods (2), so an `assault` of cavalry through woods is refused.
//! - `closing_volley` = `at_charge_start` (1, 3.3): the turn runs
//!   Movement, Firing, Melee, so a unit charged in Movement is still there
//!   to fire in the Firing phase before the melee is fought; 3.3 bars only
//!   artillery, and only from firing into an "ongoing" melee, which one not
//!   yet fought is not. Measured at contact a D20 would hit on any roll,
//!   which no charge could survive and no player would accept, so the
//!   defenders' muskets and guns (canister within its range) fire once at
//!   the distance the charge began, as they would at a unit coming on from
//!   there. `none` (the reading before issue 34) sends contact straight to
//!   melee: then a charge from within reach takes no fire at all, and the
//!   default assault's attacker wins 49.9% from 10 inches but 17.3% from 11
//!   (one approach turn under fire); under `at_charge_start` 15.4% and
//!   15.9%, and starts from 8 to 14 inches run 12.8% to 16.0% (the nearer
//!   the start, the heavier the volley the charge meets).
//! - `attacker_fire` = `infantry` (1, 3.1): the Firing phase applies to every
//!   unit and nothing forbids firing after moving, so attacking infantry fires
//!   in every turn it is not in contact or retreating, as the defenders do;
//!   firing never harms the firer, so it is no decision. Cavalry does not
//!   fire (3.1's figures roll for muskets; mounted troops charge). `never` is
//!   the reading before issue 16, attackers who only close; `all` lets
//!   cavalry fire as line troops.
//! - `burning_building` = `evacuate` (6): the rules say nothing of what fire
//!   does; defenders cannot stay in a burning building, so they leave it and
//!   lose the position. It does not decide `farm_assault`: under best play
//!   the attackers wait out of musket range while their howitzers, 20 inches
//!   off (`gun_distance`) where the garrison's muskets cannot answer, fire
//!   the farm; they win 100.0% under `evacuate`, 99.8% under `morale_test`
//!   and 100.0% under `no_effect`, and 77.7% with no battery
//!   (`attacker.guns = 0`). By default the garrison never fires at the
//!   gunners (`fire_at_gunners`, below); where it may, it silences the
//!   howitzers in a turn or two and the attackers win 94.30%.
//!
//! - `assault_limit` = `undecided`: the rules have no turn limit; an assault
//!   still going at the scenario's limit is undecided, as every other
//!   multi-turn scenario here. Under best play this lets an attacker facing
//!   likely defeat hold out of reach and wait for the limit (its margin
//!   counts a draw as 0; under purpose `manoeuvre` the default assault's
//!   attacker, who may fall back out of the gun's reach, waits); under the
//!   scenario's default purpose, `attack`, the limit is the defenders' win
//!   anyway. `holder` gives such a fight to the side holding the position
//!   then (the defenders, unless the attackers took it), so that waiting
//!   outside is a loss.
//! - `defender_failure` = `retreat_and_rally` (5): a defender that fails
//!   morale in an assault "must immediately move 8 inches away from the
//!   enemy", and "in the next Give Orders phase ... may attempt to rally";
//!   if it does it "can act normally", and if not it "continues to retreat 8
//!   inches per turn until it rallies or exits the battlefield". Nothing in 5
//!   ends the fight at the failure, so the assault plays it: the attackers
//!   take the position the defenders left, and the defenders retreat, rally
//!   or leave the field past their table edge (`edge` inches behind the
//!   position); rallied, they decide (`retake`) whether to stay off or come
//!   back and charge to retake it, and attackers thrown out of the position
//!   in turn do the same. `attacker_wins` is the reading before issue 16:
//!   the defenders' first failure ends the assault as the attackers' win
//!   (the position is what the attackers came for, and retaking it a new
//!   assault); a fair reading of a scenario that ends at the position's
//!   fall, kept to compare (the default assault: 9.2% against 19.2%).
//! - `both_break` = `play_on` (5): when the holders of an assault's position
//!   fail morale while the side outside also fails or is already
//!   retreating, each does what 5 tells a failed unit: retreats 8 inches
//!   away from the enemy, tries to rally in the next Give Orders phase, and
//!   rallied "can act normally"; nothing in 5 ends the fight, and the
//!   firefight plays on in the same case. Both roll in the same Give Orders
//!   phase; rallied sides walk back to the empty position, and the first in
//!   holds it (see [`Assault`]). `no_one` is the reading before issue 34:
//!   the fight ends with no one holding the position (the default assault
//!   under purpose `manoeuvre`: 16.4% / 83.6% / 0.0% played on, against
//!   9.2% / 75.2% / 15.6%).
//! - `sortie_return` = `after_break` (4, 5): holders who counter-charge
//!   (the assaults' `counter_charge` key: 2 ties no unit to its ground) go
//!   back to their position once the melee is decided, for out in the open
//!   they no longer hold what they came to hold; until then the melee goes
//!   on a round a turn, as every melee in contact does in these scenarios.
//!   `after_round` sends holders still standing back after one round, the
//!   enemy left where it stood (a raid). See [`Assault`].
//! - `sortie_cover` = `open` (3.1): "+10 needed" is for "targets behind
//!   walls/buildings", and holders who charged out are not behind them, so
//!   the closing volley that meets their charge (`closing_volley`) needs no
//!   more than at troops on the ground between. `position` gives them their
//!   position's cover, where the charge began.
//! - `fire_at_gunners` = `allowed` (`farm_assault`): 3.1 lets every figure
//!   fire at any target, hitting on a D20 of the distance or more, and 3.3
//!   bars only artillery, and only from a melee; a battery's gunners are
//!   men in the open, so the text lets the garrison fire at them (light
//!   infantry hit them at 20 inches on 18 or more). The rules never size a
//!   crew: the scenario assumes `attacker.gun_crew` figures a gun (1 by
//!   default), hits fall on one gun's crew after another, and a gun without
//!   crew falls silent; the garrison decides each turn whether its volley
//!   goes at the attackers or the gunners when it can hit both. The
//!   default is still `never`, the reading before issue 34, for the exact
//!   solve's budget alone: with the assault's states cut (see [`Assault`])
//!   the default farm under `allowed` solves in 3.7 s of CPU (2.6 s wall)
//!   and 0.65 GB, under the 1 GB budget but past the 2 s of CPU (`never`:
//!   1.3 s of CPU, 0.27 GB). Measured at the default farm under the
//!   default purpose (`attack`), best play: the attackers win 94.30% and
//!   the defenders 5.70% (0.0% undecided) under `allowed`, against 100.0%
//!   / 0.0% / 0.0% under `never`.
//! - `gunner_melee` = `by_crew` (`farm_assault` with `sally`, 4.1): the
//!   rules give a battery's gunners no melee modifier, yet a sallying
//!   garrison melees them. 3.2 grades crews `regular`, `veteran` and
//!   `elite`, a ladder beside 4.1's qualities, so by default they fight as
//!   troops of that grade, a regular crew as Experienced (+2: trained
//!   soldiers, not the Inexperienced whose -2 morale marks green troops).
//!   `no_modifier` fights every crew at +0. One Veteran garrison figure
//!   (+3) against one regular gunner: the gunner kills it with 64/400 by
//!   crew, 49/400 with no modifier (test `gunner_melee_readings_by_hand`).
//!
//! Also by default and not switchable, because the rules are explicit or a
//! scenario fixes it: no natural-roll specials (none are printed); fire at a
//! unit counts its figures at the start of the phase, both sides at once;
//! artillery casualties come off before small arms fire (3.2 note); artillery
//! never fires at a unit in melee (3.3); a unit that fails morale retreats 8
//! inches and does nothing more that turn, tries to rally in the next orders
//! phase, and leaves the field when a retreat takes it past its table edge
//! (key `edge`, inches behind its starting place); a retreating unit does not
//! test morale again until it has rallied. Walls give no melee bonus (the
//! rules give none). A howitzer's D4 or single hit and canister's D8 or D6
//! are casualties as rolled (`figures_per_hit` scales only small-arms and
//! flat-trajectory hits). Artillery has no woods modifier but canister's D6
//! (3.2 prints none). In an assault the side outside the position decides
//! (how far to move, when to charge): the attackers, and defenders who lost
//! the position and rallied; the holders of the position fire every musket
//! and gun whenever the rules allow, since firing never harms the firer;
//! guns fire canister within its range (the deadlier load) and their
//! `defender.artillery`, flat shot or howitzer shells, beyond it. The
//! defenders' guns are left in the position when they retreat from it
//! (artillery moves 4 inches, a retreat 8), and the attackers' battery does
//! not fire on buildings its own men hold. A holder broken by fire at a
//! distance leaves the position to the side outside at once (`handover`).
//! The holders may counter-charge the side outside within their charge
//! reach (the `counter_charge` key; on in `assault`, off by default in
//! `farm_assault` for its solve budget); with the `sally` key (off by
//! default, for its solve budget) the farm's garrison, the whole unit, may
//! leave the farm to melee the battery's crews (see [`Assault`], "A sally").
//! The "flanked" trigger of 5 is the `SIDE.flanked` key of the firefight and
//! `defender.flanked` of the assaults (an attack that comes on the defenders'
//! flank): a flanked unit tests at the first Morale Check, whatever its
//! losses, and the text gives it no other penalty in fire or melee.

mod artillery;
mod assault;
mod firefight;
mod melee;
mod morale;
mod small_arms;

pub use artillery::Artillery;
pub use assault::{ADVANCE, Assault, AssaultSetup, Battery, COUNTER_CHARGE, RETAKE, SALLY, TARGET};
pub use firefight::{Firefight, FirefightSide, MOVE};
pub use melee::{CasualtyRule, Melee, melee_casualties};
pub use morale::Morale;
pub use small_arms::SmallArms;

use crate::catalogue::{RulesetEntry, ScenarioEntry};
use crate::game::{Plan, Played, plan_params_worded};
use crate::params::{Param, ParamError, RuleBook, Settings, rules_of};
use crate::scenario::DynScenario;

crate::choice_enum! {
    /// A unit's experience (4.1 melee, 5 morale).
    pub enum Quality {
        /// Inexperienced: -2 to morale, no melee modifier.
        Inexperienced = "inexperienced",
        /// Experienced: +2 in melee, no morale modifier.
        Experienced = "experienced",
        /// Veteran: +3 in melee, +2 to morale.
        Veteran = "veteran",
        /// Elite: +5 in melee, +4 to morale.
        Elite = "elite",
    }
}

crate::choice_enum! {
    /// What a unit fires (3.1).
    pub enum Troops {
        /// Line infantry: no modifier.
        Line = "line",
        /// Light infantry: +2 to the D20.
        Light = "light",
        /// Rifles: +5 to the D20.
        Rifles = "rifles",
    }
}

crate::choice_enum! {
    /// What the target of small arms stands in or behind (3.1).
    pub enum Cover {
        /// In the open: hit on the distance.
        Open = "open",
        /// In woods: 2 more needed.
        Woods = "woods",
        /// Behind walls or in buildings: 10 more needed.
        Walls = "walls",
    }
}

crate::choice_enum! {
    /// The kind of artillery fire (3.2).
    pub enum ArtilleryKind {
        /// Flat trajectory: 3D20 at least the distance.
        Flat = "flat",
        /// Howitzer: 2D6, 7 a direct hit.
        Howitzer = "howitzer",
        /// Canister within 20 inches: D8 casualties.
        Canister = "canister",
    }
}

crate::choice_enum! {
    /// What artillery fires at (3.2, 6).
    pub enum Target {
        /// Troops in the open.
        Open = "open",
        /// Troops in woods (canister rolls a D6).
        Woods = "woods",
        /// Troops in a building (penetration, roof and fire rules).
        Building = "building",
    }
}

crate::choice_enum! {
    /// A gun crew's quality (3.2 howitzer adjustments).
    pub enum Crew {
        /// No adjustment.
        Regular = "regular",
        /// Adjusts the 2D6 by 1.
        Veteran = "veteran",
        /// Adjusts the 2D6 by 2.
        Elite = "elite",
    }
}

crate::choice_enum! {
    /// How a unit moves (2).
    pub enum Arm {
        /// Infantry: 8 inches, charge +2.
        Infantry = "infantry",
        /// Light infantry: 8 inches, charge +2.
        LightInfantry = "light_infantry",
        /// Cavalry: 16 inches, charge +4.
        Cavalry = "cavalry",
    }
}

crate::choice_enum! {
    /// The ground the attackers cross (2, 3.1).
    pub enum Ground {
        /// Open ground.
        Open = "open",
        /// Woods: no cavalry, infantry slowed, cover from fire.
        Woods = "woods",
    }
}

crate::choice_enum! {
    /// Interpretation of 4.2's "effective score per figure".
    pub enum MeleeCasualties {
        /// The loser's total divided by its figures (default).
        LoserAverage = "loser_average",
        /// The winner's total divided by its figures.
        WinnerAverage = "winner_average",
        /// The expected score of one of the loser's figures, 10.5 plus its
        /// modifier, whatever was rolled.
        ExpectedAverage = "expected_average",
    }
}

crate::choice_enum! {
    /// Interpretation of how 4.2's casualties are rounded to whole figures.
    pub enum MeleeRounding {
        /// Down: a fraction of a figure is no casualty (default).
        Down = "down",
        /// To the nearest figure, a half up.
        Nearest = "nearest",
    }
}

crate::choice_enum! {
    /// Interpretation of 3.2's howitzer crew "adjust roll".
    pub enum HowitzerAdjustment {
        /// The crew moves the 2D6 result up to its adjustment towards 7 (default).
        TowardsSeven = "towards_seven",
        /// Crew adjustments and the consecutive bonus are ignored.
        Ignored = "ignored",
    }
}

crate::choice_enum! {
    /// Interpretation of 6's howitzer direct hit on a building.
    pub enum RoofHit {
        /// The first direct hit only blows the roof off; later ones do D4 damage (default).
        RoofOnly = "roof_only",
        /// Every direct hit does D4 damage; the first also blows the roof off.
        RoofAndDamage = "roof_and_damage",
    }
}

crate::choice_enum! {
    /// Interpretation of which hits on a building bring the fire check (3.2, 6).
    pub enum FireAfter {
        /// Flat-trajectory penetrations and howitzer direct hits (default).
        PenetratingHits = "penetrating_hits",
        /// Also howitzer near misses (6 or 8) that hit the building.
        AnyHowitzerHit = "any_howitzer_hit",
    }
}

crate::choice_enum! {
    /// Interpretation of a flat-trajectory hit on a building that does not penetrate (6).
    pub enum BuildingHits {
        /// Only a penetrating hit removes a figure inside (default).
        PenetratingOnly = "penetrating_only",
        /// Any hit removes a figure; penetration only decides the fire check.
        AnyHit = "any_hit",
    }
}

crate::choice_enum! {
    /// Interpretation of 5's "falls below half strength" trigger.
    pub enum HalfStrengthTest {
        /// Test in the turn the unit drops below half (default).
        OnFalling = "on_falling",
        /// Test in every morale phase while below half.
        EveryTurn = "every_turn",
    }
}

crate::choice_enum! {
    /// Interpretation: does a charged unit fire before melee (2, 4)?
    pub enum ClosingVolley {
        /// No: contact goes straight to melee (the reading before issue 34).
        None = "none",
        /// Yes (default): the defenders' muskets and canister fire once at the
        /// distance the charge started from.
        AtChargeStart = "at_charge_start",
    }
}

crate::choice_enum! {
    /// Interpretation of what a burning building does to its defenders (6).
    pub enum BurningBuilding {
        /// They leave it and lose the position (default).
        Evacuate = "evacuate",
        /// They test morale in every morale phase while it burns.
        MoraleTest = "morale_test",
        /// Nothing.
        NoEffect = "no_effect",
    }
}

crate::choice_enum! {
    /// Interpretation of 3.2's "Consecutive turn on stationary target: +1 adjust to 2D6 roll".
    pub enum HowitzerConsecutive {
        /// One more point of the crew's adjustment towards the direct-hit score (default).
        Adjustment = "adjustment",
        /// A literal +1 to the 2D6 roll, before the crew's adjustment.
        RollPlusOne = "roll_plus_one",
    }
}

crate::choice_enum! {
    /// Interpretation of who fires in an assault's Firing phase (1, 3.1).
    pub enum AttackerFire {
        /// Attacking infantry and light infantry fire as the defenders do; cavalry does not (default).
        Infantry = "infantry",
        /// Every attacker fires, cavalry as line troops.
        All = "all",
        /// Attackers never fire: they close (the reading before the game model).
        Never = "never",
    }
}

crate::choice_enum! {
    /// Interpretation of what 5's "25% or more casualties in a single phase" is 25% of.
    pub enum LossTestBase {
        /// The unit's figures at the start of the phase (default).
        PhaseStart = "phase_start",
        /// The unit's starting strength.
        UnitStart = "unit_start",
    }
}

crate::choice_enum! {
    /// Interpretation of 5's "Unit is flanked" trigger for a unit that stays flanked.
    pub enum FlankedTest {
        /// It tests at the first Morale Check it is flanked (default).
        FirstCheck = "first_check",
        /// It tests at every Morale Check while it stays flanked.
        EveryCheck = "every_check",
    }
}

crate::choice_enum! {
    /// Interpretation of how an assault's position changes hands when its
    /// holders break while the other side is still some way off (5).
    pub enum Handover {
        /// At once: the side outside takes it as the holders leave (default).
        AtOnce = "at_once",
        /// The position stays empty until the side outside walks in (or the
        /// holders rally and walk back first).
        WalkIn = "walk_in",
    }
}

crate::choice_enum! {
    /// Interpretation of when an assault's flanked defenders are flanked (5).
    pub enum FlankedWhen {
        /// From the start: the attack comes on their flank from wherever it
        /// begins (default).
        Start = "start",
        /// When a charge reaches them: the attack is on their flank only when it arrives.
        Contact = "contact",
    }
}

crate::choice_enum! {
    /// Interpretation of who wins an assault still going at its turn limit (the rules have none).
    pub enum AssaultLimit {
        /// No one: the fight is undecided (default).
        Undecided = "undecided",
        /// The side that holds the position then.
        Holder = "holder",
    }
}

crate::choice_enum! {
    /// Interpretation of what a defender's failed morale test does to an assault (5).
    pub enum DefenderFailure {
        /// The defenders retreat 8 inches, the attackers take the position, and
        /// the defenders may rally and come back to retake it (default).
        RetreatAndRally = "retreat_and_rally",
        /// The assault ends at once as the attackers' win.
        AttackerWins = "attacker_wins",
    }
}

crate::choice_enum! {
    /// Interpretation of an assault in which the holders break while the side
    /// outside also breaks or is already retreating (5).
    pub enum BothBreak {
        /// Both retreat and try to rally; the first rallied side to walk back
        /// into the empty position holds it (default).
        PlayOn = "play_on",
        /// The fight ends there with no one holding the position (the reading before issue 34).
        NoOne = "no_one",
    }
}

crate::choice_enum! {
    /// Interpretation of when holders who counter-charged go back to their position (4, 5).
    pub enum SortieReturn {
        /// When the melee is decided (default): they stay in contact, a round
        /// each turn as every melee in contact, and go back once the enemy breaks.
        AfterBreak = "after_break",
        /// After one round: holders still standing after the turn's Melee and
        /// Morale Check go back, whether or not the enemy broke.
        AfterRound = "after_round",
    }
}

crate::choice_enum! {
    /// Interpretation of the cover of holders who charged out of their position (3.1).
    pub enum SortieCover {
        /// The ground they charge over (default): out of the walls, in the open.
        Open = "open",
        /// Their position's: the closing volley meets them where their charge
        /// began, behind their walls.
        Position = "position",
    }
}

crate::choice_enum! {
    /// Interpretation of whether the garrison may fire at the battery's gunners (3.1).
    pub enum FireAtGunners {
        /// No (default, for the solve's budget: see the ruleset note): the
        /// battery cannot be fired at (the reading before issue 34).
        Never = "never",
        /// Yes (the text's reading): the gunners are men in the open at
        /// `gun_distance`, hit as any target (3.1); a gun whose crew is gone
        /// falls silent.
        Allowed = "allowed",
    }
}

crate::choice_enum! {
    /// Interpretation of how a battery's gunners fight in melee (4.1 gives gunners no modifier).
    pub enum GunnerMelee {
        /// As troops of their crew's grade (default): a `regular` crew as
        /// Experienced, `veteran` as Veteran, `elite` as Elite.
        ByCrew = "by_crew",
        /// With no modifier (as Inexperienced troops), whatever the crew.
        NoModifier = "no_modifier",
    }
}

crate::rule_book! {
    /// Every number of the Hougoumont 1815 rules, and each interpretation.
    pub struct Rules {
        /// 2 Movement: infantry moves this many inches per turn.
        pub move_infantry: u32 = 8, range 0..=48;
        /// 2 Movement: light infantry moves this many inches per turn.
        pub move_light_infantry: u32 = 8, range 0..=48;
        /// 2 Movement: artillery moves this many inches per turn (guns stand still in these scenarios).
        pub move_artillery: u32 = 4, range 0..=48;
        /// 2 Movement: cavalry moves this many inches per turn.
        pub move_cavalry: u32 = 16, range 0..=48;
        /// Interpretation: the percent of its move infantry makes in woods. 2
        /// says light infantry has "no movement penalty in woods" but prints no
        /// penalty for the others; half, the common convention.
        pub woods_movement_percent: u32 = 50, range 0..=100;
        /// 2 Movement: the charge bonus of infantry, inches.
        pub charge_bonus_infantry: u32 = 2, range 0..=24;
        /// 2 Movement: the charge bonus of cavalry, inches.
        pub charge_bonus_cavalry: u32 = 4, range 0..=24;
        /// 3.1 Small Arms: light infantry adds this to the D20.
        pub small_arms_light_bonus: i32 = 2, range -20..=20;
        /// 3.1 Small Arms: rifles add this to the D20.
        pub small_arms_rifles_bonus: i32 = 5, range -20..=20;
        /// 3.1 Small Arms: this much more is needed to hit into woods.
        pub small_arms_woods_penalty: i32 = 2, range -20..=40;
        /// 3.1 Small Arms: this much more is needed to hit behind walls or in buildings.
        pub small_arms_walls_penalty: i32 = 10, range -20..=40;
        /// Interpretation: figures one small-arms or flat-trajectory hit removes
        /// (3.1, 3.2 do not say); 1, a figure-scale game. Howitzer and canister
        /// results are casualties as rolled.
        pub figures_per_hit: u32 = 1, range 1..=10;
        /// 3.2 Flat Trajectory Artillery: the number of D20 rolled.
        pub flat_dice: u32 = 3, range 1..=10;
        /// 3.2, 6 Buildings: the extra points over the distance needed to penetrate a building.
        pub flat_penetration_extra: u32 = 9, range 0..=100;
        /// 3.2, 6: a building catches fire on a D6 of at least this (5 or 6: 1/3).
        pub fire_at_least: u32 = 5, range 1..=7;
        /// 3.2 Howitzer: the 2D6 score of a direct hit.
        pub howitzer_direct_score: u32 = 7, range 2..=12;
        /// 3.2 Howitzer: the die rolled for a direct hit's damage (D4).
        pub howitzer_damage_die: u32 = 4, range 1..=20;
        /// 3.2 Howitzer: hits of a result 1 inch off (6 or 8).
        pub howitzer_near_miss_hits: u32 = 1, range 0..=20;
        /// 3.2 Howitzer: the minimum range, inches; closer is an error.
        pub howitzer_minimum_range: u32 = 7, range 0..=100;
        /// 3.2 Howitzer: the adjustment of a veteran crew.
        pub howitzer_veteran_adjust: u32 = 1, range 0..=10;
        /// 3.2 Howitzer: the adjustment of an elite crew.
        pub howitzer_elite_adjust: u32 = 2, range 0..=10;
        /// 3.2 Howitzer: the extra adjustment on a consecutive turn at a stationary target.
        pub howitzer_consecutive_adjust: u32 = 1, range 0..=10;
        /// 3.2 Canister: the greatest range of canister, inches.
        pub canister_range: u32 = 20, range 1..=100;
        /// 3.2 Canister: the damage die against troops in the open (D8).
        pub canister_damage_die: u32 = 8, range 1..=20;
        /// 3.2 Canister: the damage die against woods or walls and buildings (D6).
        pub canister_cover_damage_die: u32 = 6, range 1..=20;
        /// Interpretation: the melee modifier of Inexperienced troops; 4.1
        /// lists none, so 0.
        pub melee_inexperienced: i32 = 0, range -10..=20;
        /// 4.1 Melee: the modifier of Experienced troops.
        pub melee_experienced: i32 = 2, range -10..=20;
        /// 4.1 Melee: the modifier of Veteran troops.
        pub melee_veteran: i32 = 3, range -10..=20;
        /// 4.1 Melee: the modifier of Elite troops.
        pub melee_elite: i32 = 5, range -10..=20;
        /// Interpretation: the morale threshold (5 does not print it): a unit
        /// passes when D20 plus its modifier reaches it; 10, the middle of the die.
        pub morale_threshold: i32 = 10, range -20..=40;
        /// 5 Morale: the modifier of Inexperienced troops.
        pub morale_inexperienced: i32 = -2, range -20..=20;
        /// 5 Morale: the modifier of Experienced troops.
        pub morale_experienced: i32 = 0, range -20..=20;
        /// 5 Morale: the modifier of Veteran troops.
        pub morale_veteran: i32 = 2, range -20..=20;
        /// 5 Morale: the modifier of Elite troops.
        pub morale_elite: i32 = 4, range -20..=20;
        /// 5 Morale: a unit that loses at least this percent of its figures in one phase tests.
        pub morale_loss_percent: u32 = 25, range 1..=100;
        /// 5 Morale: a unit that falls below this percent of its starting figures tests.
        pub morale_half_strength_percent: u32 = 50, range 0..=100;
        /// 5 Morale: the retreat of a failed test or failed rally, inches.
        pub retreat_distance: u32 = 8, range 1..=48;
        /// Interpretation of 4.2's divisor: `loser_average` (default, the
        /// loser's own total over its figures, as the formula names the losing
        /// side), `winner_average`, or `expected_average` (10.5 plus the loser's modifier).
        pub melee_casualties: MeleeCasualties = MeleeCasualties::LoserAverage;
        /// Interpretation of 4.2's "proportional" casualties in whole figures:
        /// `down` (default: a fraction of a figure is not a casualty) or
        /// `nearest` (a half or more is one).
        pub melee_rounding: MeleeRounding = MeleeRounding::Down;
        /// Interpretation of 3.2's crew adjustment: `towards_seven` (default: a
        /// crew moves the 2D6 up to its adjustment towards 7, as any crew would
        /// use it in its favour) or `ignored`.
        pub howitzer_adjustment: HowitzerAdjustment = HowitzerAdjustment::TowardsSeven;
        /// Interpretation of 6: `roof_only` (default: the first direct hit blows
        /// the roof off without other damage, "subsequent hits" do D4) or `roof_and_damage`.
        pub roof_hit: RoofHit = RoofHit::RoofOnly;
        /// Interpretation of 3.2 and 6's fire check: `penetrating_hits` (default:
        /// after a flat penetration or a howitzer direct hit) or `any_howitzer_hit` (near misses too).
        pub fire_after: FireAfter = FireAfter::PenetratingHits;
        /// Interpretation of 6: `penetrating_only` (default: a flat hit that does
        /// not penetrate a building hurts no one inside) or `any_hit`.
        pub building_hits: BuildingHits = BuildingHits::PenetratingOnly;
        /// Interpretation of 5's "falls below half strength": `on_falling`
        /// (default: test in the turn it happens) or `every_turn`.
        pub half_strength_test: HalfStrengthTest = HalfStrengthTest::OnFalling;
        /// Interpretation of the Firing phase in the turn of a charge (1, 3.3):
        /// `at_charge_start` (default: the charged defenders' small arms and
        /// canister fire once, at the distance the charge began) or `none`
        /// (contact goes straight to melee).
        pub closing_volley: ClosingVolley = ClosingVolley::AtChargeStart;
        /// Interpretation of a fire in a held building (6 is silent): `evacuate`
        /// (default: the defenders leave and lose the position), `morale_test`
        /// (they test each morale phase) or `no_effect`.
        pub burning_building: BurningBuilding = BurningBuilding::Evacuate;
        /// Interpretation of 3.2's "Consecutive turn on stationary target: +1
        /// adjust to 2D6 roll": `adjustment` (default: one more point of the
        /// crew's adjustment towards 7) or `roll_plus_one` (a literal +1 to the
        /// 2D6, which makes a regular crew's direct hit rarer, 5/36 for 6/36).
        pub howitzer_consecutive: HowitzerConsecutive = HowitzerConsecutive::Adjustment;
        /// Interpretation of who fires in an assault (1, 3.1): `infantry`
        /// (default: the Firing phase applies to every unit with muskets, so
        /// attacking infantry fires after moving; cavalry does not), `all` or
        /// `never` (attackers only close).
        pub attacker_fire: AttackerFire = AttackerFire::Infantry;
        /// Interpretation of 5's "25% or more casualties in a single phase":
        /// `phase_start` (default: 25% of the figures the unit had when the
        /// phase began) or `unit_start` (25% of its starting strength).
        pub loss_test_base: LossTestBase = LossTestBase::PhaseStart;
        /// Interpretation of 5's "Unit is flanked": `first_check` (default: a
        /// flanked unit tests at the first Morale Check) or `every_check` (at
        /// every Morale Check while it stays flanked).
        pub flanked_test: FlankedTest = FlankedTest::FirstCheck;
        /// Interpretation of when an assault's `defender.flanked` defenders are
        /// flanked (5): `start` (default: from the first Morale Check, the
        /// attackers coming on from their flank wherever they begin) or
        /// `contact` (when a charge reaches them: they test at the Morale Check
        /// of each turn a charge comes in, or of every turn in contact under
        /// `flanked_test = every_check`).
        pub flanked_when: FlankedWhen = FlankedWhen::Start;
        /// Interpretation of an assault's position when its holders break with
        /// the side outside still some way off (5): `at_once` (default: the
        /// side outside takes it as they leave) or `walk_in` (it stays empty
        /// until the side outside walks in, and the holders, if they rally
        /// first, may walk back to it).
        pub handover: Handover = Handover::AtOnce;
        /// Interpretation of an assault's turn limit, which the rules do not
        /// have: `undecided` (default: no one wins) or `holder` (the side
        /// holding the position then wins).
        pub assault_limit: AssaultLimit = AssaultLimit::Undecided;
        /// Interpretation of 5 in an assault: `retreat_and_rally` (default:
        /// defenders who fail morale retreat 8 inches, the attackers take the
        /// position, and the defenders may rally and come back to retake it)
        /// or `attacker_wins` (their first failure ends the assault).
        pub defender_failure: DefenderFailure = DefenderFailure::RetreatAndRally;
        /// Interpretation of 5 in an assault whose holders break while the side
        /// outside also breaks or is retreating: `play_on` (default: both
        /// retreat and try to rally, and the first rallied side to walk back
        /// into the empty position holds it) or `no_one` (the fight ends,
        /// no one holding the position).
        pub both_break: BothBreak = BothBreak::PlayOn;
        /// Interpretation of 4 and 5 for holders who counter-charged:
        /// `after_break` (default: the melee goes on a round a turn, as every
        /// melee in contact, and they go back to their position once the
        /// enemy breaks) or `after_round` (they go back after one round,
        /// whether or not the enemy broke).
        pub sortie_return: SortieReturn = SortieReturn::AfterBreak;
        /// Interpretation of 3.1 for holders who counter-charged: `open`
        /// (default: the closing volley meets them in the open, out of their
        /// walls) or `position` (behind their position's cover, where their
        /// charge began).
        pub sortie_cover: SortieCover = SortieCover::Open;
        /// Interpretation of 3.1 in `farm_assault`: `never` (default, kept for
        /// the exact solve's budget: the battery cannot be fired at) or
        /// `allowed` (the text's reading: the garrison's small arms may fire
        /// at the battery's gunners, in the open at `gun_distance`, each gun
        /// with `attacker.gun_crew` figures; a gun whose crew is gone falls
        /// silent). Measured in the ruleset note.
        pub fire_at_gunners: FireAtGunners = FireAtGunners::Never;
        /// Interpretation of 4.1 for the battery's gunners in melee with a
        /// sallying garrison (`farm_assault`, key `sally`), which the rules
        /// give no melee modifier: `by_crew` (default: as troops of their
        /// crew's grade, a `regular` crew as Experienced, +2; 3.2 grades
        /// crews regular, veteran and elite, a ladder beside 4.1's, and a
        /// regular crew is trained soldiers, not the Inexperienced whose
        /// morale marks them green) or `no_modifier` (gunners are no melee
        /// troops: +0 whatever the crew).
        pub gunner_melee: GunnerMelee = GunnerMelee::ByCrew;
    }
}

impl Rules {
    /// 4.1: the melee modifier of a quality.
    pub fn melee_modifier(&self, quality: Quality) -> i32 {
        match quality {
            Quality::Inexperienced => self.melee_inexperienced,
            Quality::Experienced => self.melee_experienced,
            Quality::Veteran => self.melee_veteran,
            Quality::Elite => self.melee_elite,
        }
    }

    /// 5: the morale modifier of a quality.
    pub fn morale_modifier(&self, quality: Quality) -> i32 {
        match quality {
            Quality::Inexperienced => self.morale_inexperienced,
            Quality::Experienced => self.morale_experienced,
            Quality::Veteran => self.morale_veteran,
            Quality::Elite => self.morale_elite,
        }
    }

    /// 5: the least D20 face that passes a morale test (may be below 1 or above 20).
    pub fn morale_need(&self, quality: Quality, modifier: i32) -> i32 {
        self.morale_threshold - self.morale_modifier(quality) - modifier
    }

    /// 3.1: the least D20 face that hits at `distance` inches.
    pub fn small_arms_need(&self, troops: Troops, cover: Cover, distance: u32) -> i32 {
        let bonus = match troops {
            Troops::Line => 0,
            Troops::Light => self.small_arms_light_bonus,
            Troops::Rifles => self.small_arms_rifles_bonus,
        };
        let penalty = match cover {
            Cover::Open => 0,
            Cover::Woods => self.small_arms_woods_penalty,
            Cover::Walls => self.small_arms_walls_penalty,
        };
        distance as i32 + penalty - bonus
    }

    /// 2: inches moved per turn and the charge bonus of an arm on `ground`
    /// (cavalry cannot enter woods: the caller refuses it).
    pub fn movement(&self, arm: Arm, ground: Ground) -> (u32, u32) {
        match arm {
            Arm::Infantry if ground == Ground::Woods => {
                (self.move_infantry * self.woods_movement_percent / 100, self.charge_bonus_infantry)
            }
            Arm::Infantry => (self.move_infantry, self.charge_bonus_infantry),
            Arm::LightInfantry => (self.move_light_infantry, self.charge_bonus_infantry),
            Arm::Cavalry => (self.move_cavalry, self.charge_bonus_cavalry),
        }
    }

    /// 3.2: the howitzer adjustment of a crew, with the consecutive bonus
    /// where `howitzer_consecutive` reads it as more adjustment.
    pub fn howitzer_adjust(&self, crew: Crew, consecutive: bool) -> u32 {
        if self.howitzer_adjustment == HowitzerAdjustment::Ignored {
            return 0;
        }
        let crew_adjust = match crew {
            Crew::Regular => 0,
            Crew::Veteran => self.howitzer_veteran_adjust,
            Crew::Elite => self.howitzer_elite_adjust,
        };
        let consecutive = consecutive && self.howitzer_consecutive == HowitzerConsecutive::Adjustment;
        crew_adjust + if consecutive { self.howitzer_consecutive_adjust } else { 0 }
    }

    /// 3.2: what a consecutive turn adds to the 2D6 roll itself, under the
    /// literal reading `howitzer_consecutive = roll_plus_one` (0 otherwise).
    pub fn howitzer_roll_shift(&self, consecutive: bool) -> u32 {
        let literal = self.howitzer_adjustment == HowitzerAdjustment::TowardsSeven
            && self.howitzer_consecutive == HowitzerConsecutive::RollPlusOne;
        if consecutive && literal { self.howitzer_consecutive_adjust } else { 0 }
    }
}

/// The chance a D20 shows `need` or more.
pub fn d20_at_least(need: i32) -> f64 {
    f64::from((21 - need).clamp(0, 20)) / 20.0
}

/// The integer percent (rounded down) of `now` out of `start`.
pub fn percent(now: u32, start: u32) -> i64 {
    i64::from(now * 100 / start.max(1))
}

fn build_small_arms(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    let rules = rules_of::<Rules>(rules);
    Ok(Box::new(SmallArms::new(
        rules,
        settings.int("figures") as u32,
        settings.int("distance") as u32,
        settings.choice("troops"),
        settings.choice("cover"),
    )?))
}

fn build_artillery(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    let rules = rules_of::<Rules>(rules);
    Ok(Box::new(Artillery::new(
        rules,
        settings.choice("kind"),
        settings.int("distance") as u32,
        settings.choice("target"),
        settings.choice("crew"),
        settings.bool("consecutive"),
        settings.bool("roof_intact"),
    )?))
}

fn build_morale(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    let rules = rules_of::<Rules>(rules);
    Ok(Box::new(Morale::new(rules, settings.choice("quality"), settings.int("modifier") as i32)?))
}

fn build_melee(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    let rules = rules_of::<Rules>(rules);
    Ok(Box::new(Melee::new(
        rules,
        settings.int("attacker.figures") as u32,
        settings.choice("attacker.quality"),
        settings.int("defender.figures") as u32,
        settings.choice("defender.quality"),
    )?))
}

fn firefight_side(settings: &Settings, side: &str) -> FirefightSide {
    FirefightSide {
        figures: settings.int(&format!("{side}.figures")) as u32,
        quality: settings.choice(&format!("{side}.quality")),
        troops: settings.choice(&format!("{side}.troops")),
        cover: settings.choice(&format!("{side}.cover")),
        flanked: settings.bool(&format!("{side}.flanked")),
    }
}

fn build_firefight(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    let rules = rules_of::<Rules>(rules);
    let firefight = Firefight::new(
        rules,
        firefight_side(settings, "attacker"),
        firefight_side(settings, "defender"),
        settings.int("distance") as u32,
        settings.int("edge") as u32,
        settings.int("turns") as u32,
    )?;
    Ok(Box::new(Played::new(
        firefight.with_following(settings.bool("follow")).with_purpose(crate::game::Purpose::from_settings(settings)),
        Plan::from_settings(settings),
    )))
}

fn build_assault(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    let rules = rules_of::<Rules>(rules);
    let setup = AssaultSetup {
        attacker_figures: settings.int("attacker.figures") as u32,
        attacker_quality: settings.choice("attacker.quality"),
        attacker_arm: settings.choice("attacker.arm"),
        ground: settings.choice("ground"),
        defender_figures: settings.int("defender.figures") as u32,
        defender_quality: settings.choice("defender.quality"),
        defender_troops: settings.choice("defender.troops"),
        defender_cover: Cover::Open,
        defender_flanked: settings.bool("defender.flanked"),
        defender_guns: settings.int("defender.guns") as u32,
        defender_artillery: settings.choice("defender.artillery"),
        battery: None,
        distance: settings.int("distance") as u32,
        edge: settings.int("edge") as u32,
        turns: settings.int("turns") as u32,
    };
    Ok(Box::new(Played::new(
        Assault::new(rules, setup)?
            .with_counter_charge(settings.bool("counter_charge"))
            .with_purpose(crate::game::Purpose::from_settings(settings)),
        Plan::from_settings(settings),
    )))
}

fn build_farm_assault(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    let rules = rules_of::<Rules>(rules);
    let guns = settings.int("attacker.guns") as u32;
    let setup = AssaultSetup {
        attacker_figures: settings.int("attacker.figures") as u32,
        attacker_quality: settings.choice("attacker.quality"),
        attacker_arm: Arm::Infantry,
        ground: Ground::Open,
        defender_figures: settings.int("defender.figures") as u32,
        defender_quality: settings.choice("defender.quality"),
        defender_troops: settings.choice("defender.troops"),
        defender_cover: Cover::Walls,
        defender_flanked: settings.bool("defender.flanked"),
        defender_guns: settings.int("defender.guns") as u32,
        defender_artillery: settings.choice("defender.artillery"),
        battery: (guns > 0).then(|| Battery {
            guns,
            kind: settings.choice("attacker.artillery"),
            crew: settings.choice("attacker.crew"),
            distance: settings.int("gun_distance") as u32,
            crew_figures: settings.int("attacker.gun_crew") as u32,
        }),
        distance: settings.int("distance") as u32,
        edge: settings.int("edge") as u32,
        turns: settings.int("turns") as u32,
    };
    Ok(Box::new(Played::new(
        Assault::new(rules, setup)?
            .with_counter_charge(settings.bool("counter_charge"))
            .with_sally(settings.bool("sally"))
            .with_purpose(crate::game::Purpose::from_settings(settings)),
        Plan::from_settings(settings),
    )))
}

/// The defenders' guns of an assault: how many, and what they fire beyond canister range.
fn defender_gun_params(default: i64) -> [Param; 2] {
    [
        Param::int(
            "defender.guns",
            "the defenders' guns: canister within its range (3.2), defender.artillery beyond",
            default,
            0,
            10,
        ),
        Param::choice(
            "defender.artillery",
            "what the defenders' guns fire beyond canister range: flat (3D20) or howitzer (2D6, 7 a direct hit)",
            ArtilleryKind::Flat,
        ),
    ]
}

/// The keys of an assault: `own`, then the guns, the counter-charge (on by
/// default where `counter_charge`), the plan and the limits.
fn assault_params(own: Vec<Param>, guns: i64, counter_charge: bool) -> Vec<Param> {
    let mut params = own;
    params.push(Param::boolean(
        "counter_charge",
        "whether the holders of the position may charge out at the side outside when it ends its move within their \
         move plus charge bonus (2 ties no unit to its ground; see sortie_return, sortie_cover); false: they never \
         leave it",
        counter_charge,
    ));
    params.push(Param::boolean(
        "defender.flanked",
        "the attack comes on the defenders' flank: they test morale at the first Morale Check (5)",
        false,
    ));
    params.extend(defender_gun_params(guns));
    params.push(Param::int(
        "edge",
        "inches from each side's starting place (the attackers' start, the defenders' position) back to its table \
         edge; a retreat past it leaves the field",
        8,
        0,
        100,
    ));
    params.push(turns_param());
    params.extend(plan_params_worded(
        "moves its full move and charges as soon as the position is within its charge reach; defenders thrown \
         out come back the same way",
        "halts at its charge reach, then charges",
    ));
    params.push(crate::game::purpose_key(
        crate::game::Purpose::Attack,
        "break the defenders or take the position",
        "an assault is the attacker's to carry; defenders holding the position at the limit have held it",
    ));
    params
}

fn turns_param() -> Param {
    Param::int("turns", "the turn limit", 30, 1, 200)
}

fn edge_param(default: i64) -> Param {
    Param::int(
        "edge",
        "inches from a unit's starting place back to its table edge; a retreat past it leaves the field",
        default,
        0,
        100,
    )
}

/// The Hougoumont 1815 ruleset.
pub fn entry() -> RulesetEntry {
    let mut firefight_params = Vec::new();
    for side in ["attacker", "defender"] {
        firefight_params.push(Param::int(format!("{side}.figures"), "figures in the unit", 20, 1, 100));
        firefight_params.push(Param::choice(format!("{side}.quality"), "experience (5 morale)", Quality::Experienced));
        firefight_params.push(Param::choice(format!("{side}.troops"), "line, light or rifles (3.1)", Troops::Line));
        firefight_params.push(Param::choice(
            format!("{side}.cover"),
            "what the unit stands in or behind (3.1)",
            Cover::Open,
        ));
        firefight_params.push(Param::boolean(
            format!("{side}.flanked"),
            "the enemy is on its flank: it tests morale at the first Morale Check (5)",
            false,
        ));
    }
    firefight_params.push(Param::int("distance", "inches between the units at the start", 15, 1, 100));
    firefight_params.push(Param::boolean(
        "follow",
        "whether a unit may come forward past its own starting place to follow an enemy that fell back, while the \
         two stay at least `distance` apart (2: infantry moves 8 inches a turn, in no set direction); false: never \
         past its own starting place",
        true,
    ));
    firefight_params.push(edge_param(16));
    firefight_params.push(turns_param());
    firefight_params.extend(plan_params_worded(
        "a unit that fell back comes back towards its place as soon as it has rallied",
        "holds where it stands, never moving of its own accord",
    ));
    firefight_params.push(crate::game::purpose_key(
        crate::game::Purpose::Stand,
        "drive the defender from the field",
        "two lines that stand and trade volleys: who gives way first",
    ));

    RulesetEntry {
        name: "hougoumont",
        title: "Hougoumont 1815",
        source: "the Hougoumont 1815 tabletop miniatures rules; sections cited by number",
        default_rules: || Box::new(Rules::default()),
        scenarios: vec![
            ScenarioEntry {
                name: "small_arms",
                summary: "One volley of small arms: each figure rolls a D20 and hits on the distance or more (3.1).",
                params: vec![
                    Param::int("figures", "figures firing", 20, 1, 200),
                    Param::int("distance", "inches to the target", 10, 1, 100),
                    Param::choice("troops", "line, light (+2) or rifles (+5)", Troops::Line),
                    Param::choice(
                        "cover",
                        "the target's cover: open, woods (+2 needed) or walls (+10 needed)",
                        Cover::Open,
                    ),
                ],
                build: build_small_arms,
            },
            ScenarioEntry {
                name: "artillery",
                summary: "One artillery shot: flat trajectory, howitzer or canister, at troops or a building (3.2, 6).",
                params: vec![
                    Param::choice("kind", "flat, howitzer or canister", ArtilleryKind::Flat),
                    Param::int("distance", "inches to the target", 20, 1, 200),
                    Param::choice("target", "open, woods or building", Target::Open),
                    Param::choice("crew", "regular, veteran or elite (howitzer adjustment)", Crew::Regular),
                    Param::boolean("consecutive", "the howitzer fired at this stationary target last turn too", false),
                    Param::boolean("roof_intact", "the building still has its roof (howitzer direct hits, 6)", true),
                ],
                build: build_artillery,
            },
            ScenarioEntry {
                name: "melee",
                summary: "One round of melee: each figure rolls a D20 plus its modifier; the lower total loses figures (4).",
                params: vec![
                    Param::int("attacker.figures", "the attacker's figures", 20, 1, 100),
                    Param::choice("attacker.quality", "the attacker's experience (4.1)", Quality::Experienced),
                    Param::int("defender.figures", "the defender's figures", 20, 1, 100),
                    Param::choice("defender.quality", "the defender's experience (4.1)", Quality::Experienced),
                ],
                build: build_melee,
            },
            ScenarioEntry {
                name: "morale",
                summary: "One morale test: D20 plus modifiers against the threshold (5).",
                params: vec![
                    Param::choice("quality", "the unit's experience", Quality::Experienced),
                    Param::int("modifier", "any further modifier to the D20", 0, -20, 20),
                ],
                build: build_morale,
            },
            ScenarioEntry {
                name: "firefight",
                summary: "Two units trade volleys at a distance, test morale, retreat and rally, each deciding to hold, come forward (following an enemy that fell back) or fall back, until one leaves the field or the turn limit.",
                params: firefight_params,
                build: build_firefight,
            },
            ScenarioEntry {
                name: "assault",
                summary: "Attackers advance under the defenders' guns and musketry, firing back, halt or charge as they choose, and melee until one side breaks.",
                params: assault_params(
                    vec![
                        Param::int("attacker.figures", "the attacker's figures", 20, 1, 100),
                        Param::choice("attacker.quality", "the attacker's experience", Quality::Experienced),
                        Param::choice(
                            "attacker.arm",
                            "infantry, light_infantry or cavalry (2 movement)",
                            Arm::Infantry,
                        ),
                        Param::choice(
                            "ground",
                            "open or woods between the units (woods: no cavalry, infantry slowed, +2 to hit, canister D6)",
                            Ground::Open,
                        ),
                        Param::int("defender.figures", "the defender's figures", 20, 1, 100),
                        Param::choice("defender.quality", "the defender's experience", Quality::Experienced),
                        Param::choice("defender.troops", "line, light or rifles (3.1)", Troops::Line),
                        Param::int("distance", "inches between the units at the start", 24, 1, 100),
                    ],
                    1,
                    true,
                ),
                build: build_assault,
            },
            ScenarioEntry {
                name: "farm_assault",
                summary: "Hougoumont: attackers storm defenders behind walls and in buildings while their guns try to penetrate and fire the buildings.",
                params: assault_params(
                    vec![
                        Param::int("attacker.figures", "the attacker's figures", 30, 1, 100),
                        Param::choice("attacker.quality", "the attacker's experience", Quality::Experienced),
                        Param::int("attacker.guns", "the attackers' guns bombarding the farm", 2, 0, 10),
                        Param::choice(
                            "attacker.artillery",
                            "flat or howitzer (canister is refused: the guns stand off)",
                            ArtilleryKind::Howitzer,
                        ),
                        Param::choice("attacker.crew", "the gun crews' quality", Crew::Regular),
                        Param::int("gun_distance", "inches from the guns to the farm", 20, 1, 200),
                        Param::int(
                            "attacker.gun_crew",
                            "figures in each gun's crew (the rules size none): the garrison's hits fall on one \
                             gun's crew after another and a gun without its crew falls silent (fire_at_gunners)",
                            1,
                            1,
                            20,
                        ),
                        Param::int("defender.figures", "the defenders in the farm", 12, 1, 100),
                        Param::choice("defender.quality", "the defender's experience", Quality::Veteran),
                        Param::choice("defender.troops", "line, light or rifles (3.1)", Troops::Light),
                        Param::int("distance", "inches from the attackers to the farm at the start", 24, 1, 100),
                        Param::boolean(
                            "sally",
                            "whether the garrison may sally against the battery: the whole unit leaves the farm \
                             (2), walks at the guns under fire and melees their crews (4), the farm empty for the \
                             attackers to walk into; it may turn back (see the assault's docs, \"A sally\"); \
                             false: it never leaves the farm for the guns",
                            false,
                        ),
                    ],
                    0,
                    false,
                ),
                build: build_farm_assault,
            },
        ],
    }
}
