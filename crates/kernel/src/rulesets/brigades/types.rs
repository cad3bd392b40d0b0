//! The Brigades and Batteries types a scenario is set up with: grades,
//! weapons, formations, covers, nations and the interpretations' enums.

crate::choice_enum! {
    /// 1.7 Morale grades: A (the best) to F (raw recruits).
    pub enum Grade {
        /// Grade A.
        A = "a",
        /// Grade B.
        B = "b",
        /// Grade C.
        C = "c",
        /// Grade D: average.
        D = "d",
        /// Grade E.
        E = "e",
        /// Grade F: raw recruits.
        F = "f",
    }
}

impl Grade {
    /// 0 for A to 5 for F.
    pub fn index(self) -> usize {
        self as usize
    }
}

crate::choice_enum! {
    /// 3.2 Types of fire.
    pub enum Weapon {
        /// Muskets.
        Musket = "musket",
        /// Rifles.
        Rifle = "rifle",
        /// Light guns (4# or lighter).
        LightGun = "light_gun",
        /// Field guns (9# or lighter).
        FieldGun = "field_gun",
        /// Heavy guns (12# or heavier).
        HeavyGun = "heavy_gun",
    }
}

impl Weapon {
    /// Whether this is artillery.
    pub fn is_gun(self) -> bool {
        matches!(self, Weapon::LightGun | Weapon::FieldGun | Weapon::HeavyGun)
    }
}

crate::choice_enum! {
    /// 3.2 Range bands: close or far for small arms, canister or ballshot for guns.
    pub enum RangeBand {
        /// Small arms, close.
        Close = "close",
        /// Small arms, far.
        Far = "far",
        /// Guns, canister.
        Canister = "canister",
        /// Guns, ballshot.
        Ballshot = "ballshot",
    }
}

crate::choice_enum! {
    /// 3.2 Target types.
    pub enum Target {
        /// A close-order target in the open.
        Normal = "normal",
        /// Skirmishers.
        Skirmish = "skirmish",
        /// A target in soft cover.
        Soft = "soft",
        /// A target in hard cover.
        Hard = "hard",
    }
}

crate::choice_enum! {
    /// 1.5 Arms, as they fight in combat (4.1).
    pub enum Arm {
        /// Infantry.
        Infantry = "infantry",
        /// Cavalry.
        Cavalry = "cavalry",
        /// Gunners.
        Gunners = "gunners",
    }
}

crate::choice_enum! {
    /// 4.3 Heaviness of cavalry.
    pub enum Heaviness {
        /// Light cavalry (hussars, chasseurs, light dragoons, lancers).
        Light = "light",
        /// Heavy cavalry (line or heavy dragoons).
        Heavy = "heavy",
        /// Cuirassiers.
        Cuirassier = "cuirassier",
    }
}

crate::choice_enum! {
    /// Where a side's general is (1.11, 1.11.1).
    pub enum GeneralPlace {
        /// Within command radius, not attached: no modifier.
        InRadius = "in_radius",
        /// No general in command radius: -1 to morale and rout (5.6, 5.7.2).
        OutOfRadius = "out_of_radius",
        /// Attached: his charisma adds to morale and rout scores.
        Attached = "attached",
    }
}

crate::choice_enum! {
    /// A general's charisma (1.11): rolled on 1D10, or fixed.
    pub enum Charisma {
        /// Rolled once at the start: 1-3 +0, 4-8 +1, 9-10 +2.
        Rolled = "rolled",
        /// +0.
        Zero = "0",
        /// +1.
        One = "1",
        /// +2.
        Two = "2",
    }
}

crate::choice_enum! {
    /// Interpretation: what a failed morale test does to a firefight.
    pub enum FirefightRout {
        /// The router falls back the rout distance, shaken; the enemy closes to
        /// the same range again and the firefight goes on until the router has
        /// gone back past its room (routed off). Default: 2.4 and 5.7.4 make
        /// shaken units and their recovery part of the game, which the issue
        /// asks the firefight to model.
        Reengage = "reengage",
        /// The first rout ends the firefight: the router has left it.
        Ends = "ends",
    }
}

crate::choice_enum! {
    /// Interpretation: 2.12 "Retire, same facing: 1/2 speed" in a firefight.
    pub enum RetireSpeed {
        /// As printed: a retreat costs twice its inches of the move, so a
        /// unit in line (4") retires at most 2", and fires only after a
        /// retreat costing at most half a move (3.1), 1". Default: the
        /// table's cost column is a speed, and 3.1's half a move is a half
        /// of the move spent, whatever it is spent on.
        Printed = "printed",
        /// The old reading: up to half a move back (2"), and fire after it.
        HalfMove = "half_move",
    }
}

crate::choice_enum! {
    /// Interpretation: who moves first in a firefight's turn (2.1 "Roll for
    /// initiative. High-scoring side picks Side A or Side B this turn": side
    /// A does all its movement, then side B).
    pub enum FirefightInitiative {
        /// Rolled every turn, as 2.1 prints it: each side rolls a die (2.1
        /// names no die and no modifier; the assault's square reads it as a
        /// D10 each, ties rolled again), so each wins half the time, and the
        /// winner decides (the `order` decision) to be side A, moving first,
        /// or side B, moving after seeing A's move. Default: the turn
        /// sequence as printed.
        Rolled = "rolled",
        /// The attacker is side A every turn (the firefight before issue 32
        /// item 3), kept for comparison: it hands the defender, moving
        /// second, the sight of every attacker move.
        AttackerFirst = "attacker_first",
    }
}

crate::choice_enum! {
    /// Interpretation: what a shaken unit in a firefight does where no one
    /// decides it: in the old fixed-reading chain (`firefight::Firefight`),
    /// a battery in the decision model, and a side playing `bold` or
    /// `cautious`. Under best play 2.4 leaves it to the player, and it is
    /// the infantry unit's decision each turn it is shaken (`move`: hold
    /// and fire, or stand to recover; issue 32 item 5).
    pub enum ShakenPolicy {
        /// Stands still and holds its fire a full turn, then recovers (2.4).
        /// Default: -2 to hit and -2 to morale are worth a turn's silence.
        Recover = "recover",
        /// Keeps firing at -2 (3.3) and stays shaken.
        Fire = "fire",
    }
}

crate::choice_enum! {
    /// Interpretation: how a battery's gunners are spread over its gun models
    /// for the crew limits of 3.1 (3 crew for 2 dice, 2 for 1).
    pub enum BatteryCrew {
        /// As evenly as possible, the odd gunners to the first models. Default:
        /// a battery's stands carry their own crews (1.10).
        Even = "even",
        /// However fires the most dice: the player moves gunners between models.
        Best = "best",
    }
}

crate::choice_enum! {
    /// Interpretation: what a destroyed actual gun (3.4) does to a battery's dice.
    pub enum BatteryGunLoss {
        /// One die less per gun destroyed, from what the crews could serve.
        /// Default: 3.1 "reduce its fire by 1 die per actual gun destroyed".
        Subtract = "subtract",
        /// The crews man the guns left: the dice the crews could serve, at
        /// most one per gun left.
        Cap = "cap",
    }
}

crate::choice_enum! {
    /// Interpretation: which hits on a battery count for its morale (5.4 (1),
    /// 5.6 "each 2 hits") and for danger to generals (7.5).
    pub enum BatteryHits {
        /// Hits whose effect roll (3.4) took a gunner. Default: 3.4 calls the
        /// others a "miss".
        Effects = "effects",
        /// Every die that hit the guns, whatever its effect.
        Dice = "dice",
    }
}

crate::choice_enum! {
    /// Interpretation: which routs of a surrounded force's unit suffer the two
    /// extra rout hits of 5.8.
    pub enum SurroundedHits {
        /// The rout that carries it past its centre point. Default: "rout
        /// past this point".
        Crossing = "crossing",
        /// Every rout that ends beyond its centre point.
        Beyond = "beyond",
    }
}

crate::choice_enum! {
    /// Interpretation: at which range band the defender's fire meets a charge.
    pub enum DefensiveFireBand {
        /// Close range (canister for guns): the charge ends in contact, and
        /// a unit must shoot first at enemies charging it (3.8). Default.
        Close = "close",
        /// Far range (ballshot for guns): the fire is given as the charge starts.
        Far = "far",
    }
}

crate::choice_enum! {
    /// Interpretation: whether a square charged by steady cavalry tests morale.
    pub enum SquareChargedTest {
        /// A steady square does not test. Default: 2.3 disorders "cavalry
        /// contacting a steady square", so the cavalry that reaches it is not
        /// steady, and 5.4 (3) tests infantry "charged successfully by a
        /// steady enemy".
        Exempt = "exempt",
        /// It tests at -4 like any foot (5.4 (3) and 5.6 name no exception for squares).
        Tests = "tests",
    }
}

crate::choice_enum! {
    /// Interpretation: what 2.7's "shoot at 1/2 effect before evading" does.
    pub enum EvadeFire {
        /// 3.3's "Evading: -2". Default: 3.1 names the same fire "at a
        /// penalty" and 3.3 prints the penalty; -2 halves close musketry at a
        /// normal target (7-10 to 9-10), so "1/2 effect" describes it.
        Modifier = "modifier",
        /// Half the dice (rounded down), no modifier.
        HalfDice = "half_dice",
        /// Both: half the dice at -2.
        Both = "both",
    }
}

crate::choice_enum! {
    /// Interpretation: what a pursuer that loses a pursuit round does (7.4).
    pub enum PursuerLoses {
        /// It tests morale at -3 like any unit that loses more hits than it
        /// inflicts (5.4 (4)), and the pursuit ends. Default: 5.4 (4) names
        /// no exception, and 7.4 fights "a new round of combat".
        Tests = "tests",
        /// The pursuit just ends, without a test.
        Ends = "ends",
    }
}

crate::choice_enum! {
    /// Interpretation: which pursuits cost the pursuer a rout hit (7.4).
    pub enum PursuitCost {
        /// Every pursuit, the first too. Default: 7.4's "losing yet another
        /// rout hit to disorganization" for a renewed pursuit implies one was
        /// lost on entering the first.
        Every = "every",
        /// Only a pursuit renewed after a pursuit round.
        Again = "again",
    }
}

crate::choice_enum! {
    /// Interpretation: against whom fresh cavalry gets its +2 (4.2 "Fresh
    /// cavalry vs. non-fresh").
    pub enum FreshAgainst {
        /// Only against cavalry that is not fresh. Default: freshness is a
        /// rating of cavalry ("Fresh Cavalry": its first round of combat of the
        /// game, if steady), so "non-fresh" names cavalry without it; infantry
        /// and gunners are neither.
        Cavalry = "cavalry",
        /// Against any enemy not rated fresh, infantry and gunners included.
        Any = "any",
    }
}

crate::choice_enum! {
    /// Interpretation: which moving targets a stationary unit may shoot
    /// without 7.1 (the `crossing` scenario).
    pub enum StationaryFireTargets {
        /// Only targets eligible at the end of movement. Default: 7.1 says so
        /// of the basic rules ("Normally, units may only shoot at targets
        /// eligible at the end of movement"), and an optional rule that widens
        /// the targets would mean nothing if 3.8 already allowed them all.
        EndOfMove = "end_of_move",
        /// Any target that passed through its range and arc of fire this turn,
        /// however briefly: 3.8's sentence for a stationary unit, read
        /// literally (7.1 then adds nothing).
        PassedThrough = "passed_through",
    }
}

crate::choice_enum! {
    /// Interpretation: what pass-through fire's "at least half of its
    /// movement that turn" (7.1) is half of, for a unit that moved less than
    /// its full move (the `crossing` scenario's `move` decision).
    pub enum PassThroughMeasure {
        /// The distance it moved that turn. Default: "its movement that turn"
        /// is the movement it made, and 2.11's rates are the most a unit may
        /// move (3.1's half move, 7.11's "advancing full speed").
        Moved = "moved",
        /// Its full move (2.11), however far it went: a unit that moved a
        /// short way is eligible only if that short way is half its rate.
        FullMove = "full_move",
    }
}

crate::choice_enum! {
    /// The nations of 7.11 National Modifiers.
    pub enum Nation {
        /// No national modifiers.
        None = "none",
        /// Austria: +1 vs. shooting hits in column, -1 in line.
        Austria = "austria",
        /// Britain: +1 vs. shooting hits in line, +1 musketry if steady, cavalry +1 to charge.
        Britain = "britain",
        /// France: +2 vs. shooting hits advancing full speed in column.
        France = "france",
        /// Prussia to 1810: immune to panic tests by enemy cavalry when steady.
        PrussiaEarly = "prussia_early",
        /// Prussia after 1810: +1 vs. shooting hits in column, -1 in line.
        PrussiaLate = "prussia_late",
        /// Russia: -1 musketry, +2 on morale vs. losing a combat.
        Russia = "russia",
        /// Spain: +1 vs. shooting hits advancing full speed in column.
        Spain = "spain",
    }
}
