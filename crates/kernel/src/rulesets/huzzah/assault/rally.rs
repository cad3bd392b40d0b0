//! Command checks ("Command integrity check") and the rally, reform and
//! rout roll's rating ("Rally and reform").

use super::state::*;
use super::{Assault, LastCheck};
use crate::rulesets::huzzah::standoff::Node;
use crate::rulesets::huzzah::{
    CavalryKind, CommandCheckHuzzah, CommandCheckIsolated, Officer, pair_is_huzzah, pair_total,
};

impl Assault {
    /// Units of `side`'s brigade broken or routing now: the others lost and
    /// the unit itself if it routs.
    pub(super) fn brigade_losses(&self, s: &State, side: usize) -> i32 {
        self.units[side].brigade_lost + i32::from(s.routing[side])
    }

    /// Whether `side`'s unit is isolated: "A unit is isolated if it is the
    /// only non-routing unit in a brigade" ("Threat tests"), and "A unit is
    /// also isolated if it is the only unit in a command" ("Orders and
    /// movement"): the brigade's other units are all lost.
    pub(super) fn isolated(&self, side: usize) -> bool {
        let unit = &self.units[side];
        unit.brigade > 0 && unit.brigade - 1 - unit.brigade_lost == 0
    }

    /// Whether `side`'s brigade takes a command check in its Rally phase
    /// ("Command integrity check", Conditions): its unit routed since its
    /// last Rally phase; or it failed its last check (a check failed is
    /// checked again the next turn); or it has broken or routing units and
    /// its unit is within an enemy threat zone. A Huzzah! on the last check
    /// spares it "until another of its sub-commands breaks or routs".
    pub(super) fn check_due(&self, s: &State, side: usize) -> bool {
        if self.units[side].brigade == 0 {
            return false;
        }
        s.rare.due(side)
            || (!s.rare.exempt(side)
                && (s.rare.last_check(side) == LastCheck::Failed
                    || (self.brigade_losses(s, side) > 0 && self.in_zone_of(s, 1 - side))))
    }

    /// The effective rating of `side`'s brigade officer (its `rating`) on a
    /// command check ("Command integrity check", Procedure).
    pub(super) fn check_rating(&self, s: &State, side: usize) -> i32 {
        let r = &self.rules;
        let unit = &self.units[side];
        let losses = self.brigade_losses(s, side);
        let mut rating = unit.rating - losses * r.command_check_broken_down;
        rating += match s.rare.last_check(side) {
            LastCheck::Failed => -r.command_check_failed_last_down,
            LastCheck::Passed => r.command_check_passed_last_up,
            LastCheck::None => 0,
        };
        // "Down 2 if isolated sub-command" (`command_check_isolated`).
        let isolated = match r.command_check_isolated {
            // One unit of the brigade left neither broken nor routing, or a
            // lone unit ("A sub-command is isolated if it is the only
            // sub-command in a group that is not entirely broken or routing. A
            // unit is also isolated if it is the only unit in a command").
            CommandCheckIsolated::SubCommand => unit.brigade == 1 || unit.brigade - losses == 1,
            CommandCheckIsolated::Command => unit.brigade_isolated,
        };
        if isolated {
            rating -= r.command_check_isolated_down;
        }
        // "Up 1 for each sub-command in a favourable position": its unit, on
        // its ground and neither disadvantaged nor routing.
        if self.favourable(s, side) && !self.threat_disadvantaged(s, side) {
            rating += r.command_check_favourable_up;
        }
        rating
    }

    /// `side`'s brigade takes its command check with this roll. Passed, it
    /// is marked so (a Huzzah! spares it further checks until its unit
    /// routs again). Failed ("If the command check fails, every unit in the
    /// command takes a number of staggers equal to the number of broken or
    /// routing sub-commands in that command. In addition, all non-routing
    /// units in the command must retire one full move facing the enemy ...
    /// Units do not stop at enemy threat zones. Any units forced to leave
    /// the table are broken"): the unit takes the staggers and, if not
    /// routing, retires a move; and it is Down 1 on its next check and on
    /// advance orders.
    pub(super) fn command_check(&self, mut s: State, side: usize, pair: u32) -> Node<State> {
        let r = &self.rules;
        let rating = self.check_rating(&s, side);
        let huzzah = pair_is_huzzah(pair);
        // Huzzah! results assume the command passed (`command_check_huzzah`).
        let passed =
            (huzzah && r.command_check_huzzah == CommandCheckHuzzah::Passes) || r.passes(pair_total(pair), rating);
        if passed {
            s.rare.set_last_check(side, LastCheck::Passed);
            s.rare.set_exempt(side, huzzah);
            return Node::Live(s);
        }
        s.rare.set_last_check(side, LastCheck::Failed);
        s.strength[2 * side] += (self.brigade_losses(&s, side) * r.command_check_failure_staggers) as i8;
        if !s.routing[side] {
            let moved = self.move_of(&s, side).max(1);
            if let Some(end) = self.fall_back(&mut s, side, moved) {
                return end;
            }
        }
        self.settle(s, side)
    }

    /// The effective rating of `side` rallying or reforming ("Rally and
    /// reform", Procedure).
    pub(super) fn rally_rating(&self, s: &State, side: usize) -> i32 {
        let r = &self.rules;
        let unit = &self.units[side];
        let mut shifts = 0;
        if s.strength[2 * side + 1] > 0 {
            shifts -= r.rally_kills_down;
        }
        if s.routing[side] {
            shifts -= r.rally_routing_down;
        }
        // "Down 1 if blown battle cavalry."
        if self.blown(s, side) && unit.cavalry == CavalryKind::Battle {
            shifts -= r.rally_blown_battle_cavalry_down;
        }
        if self.in_zone_of(s, 1 - side) {
            shifts -= r.rally_threat_zone_down;
        }
        if unit.in_command {
            shifts += r.rally_in_command_up;
        }
        // "Favourable position": "Only troops that are not disadvantaged can
        // be in a favourable position": a disadvantaged unit, or a mob
        // (playsheet: "Use disadvantaged rating ... if routing"), takes no Up
        // for its ground, though it rallies on its full rating.
        if self.favourable(s, side) && !self.threat_disadvantaged(s, side) {
            shifts += r.rally_favourable_up;
        }
        shifts += match self.officer_of(s, side) {
            Officer::None => 0,
            Officer::Attached => r.rally_officer_up,
            Officer::Inspirational => r.rally_officer_up + r.rally_inspirational_up,
        };
        // "Rallying or reforming always uses the full, not disadvantaged, quality rating."
        r.effective_rating(unit.quality, shifts, false)
    }
}
