//! The assault's state between two rolls ([`State`]), the phases of its
//! turn, and the state packed into two words for the exact solver's maps.

use super::{Formation, LastCheck};
use crate::rulesets::huzzah::engagement::Fate;

// The phases of a turn, each consuming at most one roll.
pub(super) const ATTACKER_THREAT: u8 = 0;
pub(super) const ATTACKER_FORCED: u8 = 1;
/// The threat test of a unit that completed a forced deploy in a threat zone.
pub(super) const ATTACKER_DEPLOY_THREAT: u8 = 2;
pub(super) const ATTACKER_ORDERS: u8 = 3;
pub(super) const BOMBARD: u8 = 4;
/// The battery's last chance to bombard in the attacker's Orders phase.
pub(super) const LAST_BOMBARD: u8 = 5;
pub(super) const ENGAGE_ATTACKER_ROLL: u8 = 6;
pub(super) const ENGAGE_DEFENDER_ROLL: u8 = 7;
/// The attacker's brigade's command check, first in its Rally phase.
pub(super) const ATTACKER_CHECK: u8 = 8;
pub(super) const ATTACKER_REFORM: u8 = 9;
pub(super) const DEFENDER_THREAT: u8 = 10;
pub(super) const DEFENDER_FORCED: u8 = 11;
pub(super) const DEFENDER_DEPLOY_THREAT: u8 = 12;
/// The engagement of defending cavalry out of control that advanced into
/// contact in its own turn: its roll, then the attacker's.
pub(super) const DEFENDER_ENGAGE_ROLL: u8 = 13;
pub(super) const DEFENDER_ENGAGE_SECOND: u8 = 14;
/// The defender's brigade's command check, first in its Rally phase.
pub(super) const DEFENDER_CHECK: u8 = 15;
pub(super) const DEFENDER_REFORM: u8 = 16;
pub(super) const TURN_END: u8 = 17;
/// The defender's Orders phase after an order of its own passed (the
/// game's `defender.orders` only): its successive orders ("Successive
/// orders") and a Huzzah!'s free order, before its Rally phase. Numbered
/// after [`TURN_END`] to leave the chain's phases as they were; the chain
/// never reaches it.
pub(super) const DEFENDER_ORDERS: u8 = 18;

/// [`State::orders`] once a Huzzah!'s free order is carried out: "After
/// completing a Huzzah! order, a group or individual unit can receive no
/// other orders that turn", so no rating is given past it.
pub(super) const ORDERS_SPENT: u8 = u8::MAX / 2;

/// The longest chain of Huzzah!es in one threat exchange.
pub(super) const CHAIN_LIMIT: u8 = 8;

/// What one side took in an engagement, as far as the state after it goes:
/// its losses, whether its officer fell, what became of it, and whether it
/// is blown (see [`Assault::taken_of_rolls`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Taken {
    pub(super) staggers: i8,
    pub(super) kills: i8,
    pub(super) officer_killed: bool,
    pub(super) fate: Fate,
    pub(super) blown: bool,
}

/// Where an assault stands, between two rolls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    pub(super) phase: u8,
    /// Bands between the units; 0 is contact.
    pub(super) distance: i8,
    /// Attacker's staggers and kills, defender's staggers and kills.
    pub(super) strength: [i8; 4],
    pub(super) formation: [Formation; 2],
    /// Bombardments the battery has left.
    pub(super) bombardments: u8,
    /// Smoke markers on the battery.
    pub(super) smoke: u8,
    /// Each side's cavalry is blown.
    pub(super) blown: [bool; 2],
    /// Each side's attached officer is still alive.
    pub(super) officer: [bool; 2],
    /// An engagement has taken place.
    pub(super) engaged: bool,
    /// Within a threat test: who tests now, and how many Huzzah!es so far.
    pub(super) tester: u8,
    pub(super) huzzahs: u8,
    /// A forced order is pending for each side.
    pub(super) forced: [bool; 2],
    /// Orders given this turn to the side giving them ([`ORDERS_SPENT`]
    /// after a Huzzah!'s free order).
    pub(super) orders: u8,
    /// A Huzzah! order earned a free order.
    pub(super) free_order: bool,
    /// The attacker's engagement roll, while the defender's is awaited.
    pub(super) engage_pair: u8,
    /// Each side is routing (a mob).
    pub(super) routing: [bool; 2],
    /// Bands between each unit and its table edge.
    pub(super) behind: [i8; 2],
    /// Each side's cavalry lost control: a mob until it rallies.
    pub(super) out_of_control: [bool; 2],
    /// Recalls and command checks, which most assaults never use (see [`Rare`]).
    pub(super) rare: Rare,
    /// The battery may bombard the attacker now: it has not bombarded it
    /// since the attacker last acted on an order this turn.
    pub(super) fire_ready: bool,
}

/// The parts of a [`State`] that most assaults never set, in one word of
/// bits, so that the state stays small to copy and quick to pack: for each
/// side (side 1 shifted by 5 bits) a recall pending (bit 0: blown cavalry
/// that failed to rally awaits a forced order of recall in its next Orders
/// phase, "Forced orders", Recall), its brigade's last command check (bits
/// 1-2, a [`LastCheck`]), a Huzzah! on that check (bit 3: no check "until
/// another of its sub-commands breaks or routs") and a check due (bit 4:
/// the unit routed since its side's last Rally phase, "Any of its
/// sub-commands broke or routed this turn"). Bit 15 is left for packing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Rare(pub(super) u16);

impl Rare {
    pub(super) fn bit(self, side: usize, bit: u32) -> bool {
        (self.0 >> (5 * side as u32 + bit)) & 1 == 1
    }

    pub(super) fn set_bit(&mut self, side: usize, bit: u32, on: bool) {
        let mask = 1 << (5 * side as u32 + bit);
        self.0 = if on { self.0 | mask } else { self.0 & !mask };
    }

    pub(super) fn recall(self, side: usize) -> bool {
        self.bit(side, 0)
    }

    pub(super) fn set_recall(&mut self, side: usize, on: bool) {
        self.set_bit(side, 0, on);
    }

    pub(super) fn last_check(self, side: usize) -> LastCheck {
        match (self.0 >> (5 * side as u32 + 1)) & 3 {
            0 => LastCheck::None,
            1 => LastCheck::Passed,
            _ => LastCheck::Failed,
        }
    }

    pub(super) fn set_last_check(&mut self, side: usize, last: LastCheck) {
        let shift = 5 * side as u32 + 1;
        self.0 = (self.0 & !(3 << shift)) | ((last as u16) << shift);
    }

    pub(super) fn exempt(self, side: usize) -> bool {
        self.bit(side, 3)
    }

    pub(super) fn set_exempt(&mut self, side: usize, on: bool) {
        self.set_bit(side, 3, on);
    }

    pub(super) fn due(self, side: usize) -> bool {
        self.bit(side, 4)
    }

    pub(super) fn set_due(&mut self, side: usize, on: bool) {
        self.set_bit(side, 4, on);
    }
}

/// A [`State`] packed into two words, the exact solver's map key: a key
/// compares in one step and an entry of its maps takes 24 bytes, not 40 (the
/// solver is bound by its maps' memory). See [`State::pack`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Packed(pub(super) u64, pub(super) u64);

impl std::hash::Hash for Packed {
    fn hash<H: std::hash::Hasher>(&self, hasher: &mut H) {
        hasher.write_u64(self.0);
        hasher.write_u64(self.1);
    }
}

impl State {
    /// The state in two words. The first: phase (its low 4 bits, the fifth at bit 30), Huzzah!es (4),
    /// tester (1), the nine flags, both formations (2 each), the engagement
    /// pair (6), the attacker out of control and ready to fire (1 each), then distance, smoke, orders and bombardments a byte each.
    /// The second: the four strengths and the two bands behind, a byte each
    /// (signed bytes as their bits), a byte of the defender's blown and out
    /// of control and each side's recall (a bit each), and a byte of each
    /// side's command checks (last check 2 bits, exempt and due 1 each).
    #[inline(always)]
    pub(super) fn pack(&self) -> Packed {
        debug_assert!(self.phase < 32 && self.huzzahs < 16 && self.tester < 2 && self.engage_pair < 64);
        let flags = [
            self.blown[0],
            self.officer[0],
            self.officer[1],
            self.engaged,
            self.forced[0],
            self.forced[1],
            self.free_order,
            self.routing[0],
            self.routing[1],
        ]
        .iter()
        .enumerate()
        .fold(0u64, |acc, (i, &bit)| acc | (u64::from(bit) << i));
        let first = u64::from(self.phase & 15)
            | u64::from(self.phase >> 4) << 30
            | u64::from(self.blown[1]) << 31
            | u64::from(self.huzzahs) << 4
            | u64::from(self.tester) << 8
            | flags << 9
            | (self.formation[0] as u64) << 18
            | (self.formation[1] as u64) << 20
            | u64::from(self.engage_pair) << 22
            | u64::from(self.out_of_control[0]) << 28
            | u64::from(self.fire_ready) << 29
            | u64::from(self.distance as u8) << 32
            | u64::from(self.smoke) << 40
            | u64::from(self.orders) << 48
            | u64::from(self.bombardments) << 56;
        let [a, b, c, d] = self.strength.map(|v| v as u8);
        let [rare_low, rare_high] = (self.rare.0 | u16::from(self.out_of_control[1]) << 15).to_le_bytes();
        let second = u64::from_le_bytes([a, b, c, d, self.behind[0] as u8, self.behind[1] as u8, rare_low, rare_high]);
        let packed = Packed(first, second);
        debug_assert_eq!(State::unpack(packed), *self, "a state must survive packing");
        packed
    }

    /// The state [`State::pack`] packed.
    #[inline(always)]
    pub(super) fn unpack(packed: Packed) -> State {
        let Packed(first, second) = packed;
        let bits = |shift: u32, width: u32| ((first >> shift) & ((1 << width) - 1)) as u8;
        let flag = |i: u32| (first >> (9 + i)) & 1 == 1;
        let formation = |code: u8| match code {
            0 => Formation::Line,
            1 => Formation::Column,
            _ => Formation::Square,
        };
        let [a, b, c, d, behind_0, behind_1, rare_low, rare_high] = second.to_le_bytes();
        let rare = u16::from_le_bytes([rare_low, rare_high]);
        State {
            phase: bits(0, 4) | (bits(30, 1) << 4),
            distance: bits(32, 8) as i8,
            strength: [a, b, c, d].map(|v| v as i8),
            formation: [formation(bits(18, 2)), formation(bits(20, 2))],
            bombardments: bits(56, 8),
            smoke: bits(40, 8),
            blown: [flag(0), (first >> 31) & 1 == 1],
            officer: [flag(1), flag(2)],
            engaged: flag(3),
            tester: bits(8, 1),
            huzzahs: bits(4, 4),
            forced: [flag(4), flag(5)],
            orders: bits(48, 8),
            free_order: flag(6),
            engage_pair: bits(22, 6),
            routing: [flag(7), flag(8)],
            behind: [behind_0 as i8, behind_1 as i8],
            out_of_control: [(first >> 28) & 1 == 1, rare >> 15 == 1],
            rare: Rare(rare & 0x7fff),
            fire_ready: (first >> 29) & 1 == 1,
        }
    }
}

/// A 2D6 pair index with this total (double one for 2): only the total
/// matters to the assault's rolls (a Huzzah! is a total of 2).
pub(super) fn pair_of_total(total: i32) -> u32 {
    let first = (total - 6).max(1) as u32;
    6 * (first - 1) + (total as u32 - first - 1)
}
