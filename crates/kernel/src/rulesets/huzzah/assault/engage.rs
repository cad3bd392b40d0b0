//! The engagement on contact ("Engage the enemy"): both sides, what each
//! takes from the rolls, and the state after it (routs, retirements, blown
//! cavalry).

use super::state::*;
use super::{Assault, Formation};
use crate::rulesets::huzzah::engagement::{Fate, Fighter, engagement_rating, resolve_with_ratings};
use crate::rulesets::huzzah::standoff::Node;

impl Assault {
    /// The two sides as they engage, and their effective engagement ratings
    /// (which the dice do not change).
    pub(super) fn fighters(&self, s: &State) -> ([Fighter; 2], [i32; 2]) {
        let fighter = |side: usize| {
            let unit = &self.units[side];
            Fighter {
                quality: unit.quality,
                shifts: unit.shifts,
                // "If engaged while blown, cavalry fights with its disadvantaged
                // rating"; mobs "use their disadvantaged morale rating if ... engaged".
                disadvantaged: unit.disadvantaged || s.blown[side] || s.routing[side],
                staggers: i32::from(s.strength[2 * side]),
                kills: i32::from(s.strength[2 * side + 1]),
                arm: unit.arm,
                square: s.formation[side] == Formation::Square,
                officer: self.officer_of(s, side),
                favourable: self.favourable(s, side),
                cavalry: unit.cavalry,
                small: unit.small,
            }
        };
        let (a, d) = (fighter(0), fighter(1));
        let rating = [engagement_rating(&self.rules, &a, &d), engagement_rating(&self.rules, &d, &a)];
        ([a, d], rating)
    }

    /// What each side takes from both rolls of an engagement from its
    /// first roll's phase (`ENGAGE_ATTACKER_ROLL`, or `DEFENDER_ENGAGE_ROLL`
    /// for the defender's own): the phasing side's roll `first`, then the
    /// other's `second`, with the sides worked out once
    /// ([`Assault::fighters`]) for every pair of rolls. It is all that the
    /// state after the engagement depends on, so that the many pairs of
    /// rolls that lead to the same losses and fates are applied to the
    /// state once ([`Assault::engage_taken`]); the two together are the
    /// phase's two steps.
    pub(super) fn taken_of_rolls(
        &self,
        s: &State,
        fighters: &[Fighter; 2],
        rating: [i32; 2],
        first: u32,
        second: u32,
    ) -> [Taken; 2] {
        debug_assert!(s.distance == 0 && (s.phase == ENGAGE_ATTACKER_ROLL || s.phase == DEFENDER_ENGAGE_ROLL));
        let pair = if s.phase == ENGAGE_ATTACKER_ROLL { [first, second] } else { [second, first] };
        self.taken_of(s, fighters, rating, pair)
    }

    /// The state after an engagement from its first roll's phase in which
    /// each side took `taken` ([`Assault::taken_of_rolls`]).
    pub(super) fn engage_taken(&self, mut s: State, taken: [Taken; 2]) -> Node<State> {
        s.phase = if s.phase == ENGAGE_ATTACKER_ROLL { ENGAGE_DEFENDER_ROLL } else { DEFENDER_ENGAGE_SECOND };
        self.apply_taken(s, taken)
    }

    /// The engagement on contact ("Engage the enemy").
    pub(super) fn engage(&self, s: State, attacker_pair: u32, defender_pair: u32) -> Node<State> {
        let (fighters, rating) = self.fighters(&s);
        self.engage_with(s, &fighters, rating, [attacker_pair, defender_pair])
    }

    /// [`Assault::engage`] with the sides and their ratings worked out (the
    /// exact solver works them out once for all 1296 pairs of rolls). The
    /// sides, ratings and rolls are the attacker's first; the phasing unit
    /// (the rules' attacker: "the phasing player's units are assumed to be
    /// attacking", "Doctrinal deployment") is the attacker in the attacker's
    /// Engagement phase and the defender in its own.
    pub(super) fn engage_with(
        &self,
        s: State,
        fighters: &[Fighter; 2],
        rating: [i32; 2],
        pair: [u32; 2],
    ) -> Node<State> {
        self.apply_taken(s, self.taken_of(&s, fighters, rating, pair))
    }

    /// What each side (attacker first) takes in the engagement of
    /// [`Assault::engage_with`].
    pub(super) fn taken_of(&self, s: &State, fighters: &[Fighter; 2], rating: [i32; 2], pair: [u32; 2]) -> [Taken; 2] {
        let phasing = usize::from(s.phase >= DEFENDER_ENGAGE_ROLL);
        let (p, q) = (phasing, 1 - phasing);
        let result =
            resolve_with_ratings(&self.rules, [&fighters[p], &fighters[q]], [rating[p], rating[q]], [pair[p], pair[q]]);
        let taken = |side: usize| {
            let result = if side == phasing { result.attacker } else { result.defender };
            Taken {
                staggers: result.staggers as i8,
                kills: result.kills as i8,
                officer_killed: result.officer_killed,
                fate: result.fate,
                blown: result.blown,
            }
        };
        [taken(0), taken(1)]
    }

    /// The state after an engagement in which each side took `taken`
    /// (its phase that of the engagement's last roll).
    pub(super) fn apply_taken(&self, mut s: State, taken: [Taken; 2]) -> Node<State> {
        let phasing = usize::from(s.phase >= DEFENDER_ENGAGE_ROLL);
        s.engaged = true;
        for (side, taken) in taken.iter().enumerate() {
            s.strength[2 * side] += taken.staggers;
            s.strength[2 * side + 1] += taken.kills;
            if taken.officer_killed {
                s.officer[side] = false;
            }
        }
        let winner = match (taken[0].fate == Fate::Broken, taken[1].fate == Fate::Broken) {
            (true, true) => Some(2),
            (true, false) => Some(1),
            (false, true) => Some(0),
            (false, false) => None,
        };
        if let Some(winner) = winner {
            return Node::End(self.code(winner, 1, &s));
        }
        s.engage_pair = 0;
        s.phase = if phasing == 0 { ATTACKER_CHECK } else { DEFENDER_CHECK };
        // The loser routs ("forms a mob and then makes one move at march
        // column rate directly away from the enemy"); on a tie the phasing
        // unit, and a Huzzah! loser, retires one move. The side that holds
        // stays where it is: a unit that routed its enemy occupies its ground.
        for (side, taken) in taken.iter().enumerate() {
            // "Cavalry that does not rout after an engagement is blown"; a
            // recall already pending stays for its Orders phase.
            s.blown[side] = taken.blown;
            let moved = match taken.fate {
                Fate::Routs => {
                    s.routing[side] = true;
                    // A routing mob now, no longer one out of control, and
                    // no longer blown or recalled.
                    s.out_of_control[side] = false;
                    s.rare.set_recall(side, false);
                    // "A command must take a command check if: Any of its
                    // sub-commands broke or routed this turn", a Huzzah!'s
                    // exemption included ("until another of its sub-commands
                    // breaks or routs").
                    if self.units[side].brigade > 0 {
                        s.rare.set_due(side, true);
                        s.rare.set_exempt(side, false);
                    }
                    // A mob acts on no orders, forced ones included.
                    s.forced[side] = false;
                    self.rout_move(side)
                }
                Fate::Retires => self.move_of(&s, side).max(1),
                Fate::Holds | Fate::Broken => continue,
            };
            if let Some(end) = self.fall_back(&mut s, side, moved) {
                return end;
            }
        }
        Node::Live(s)
    }
}
