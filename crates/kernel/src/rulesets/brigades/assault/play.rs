//! The assault as a [`Game`]: its step, outcome codes, decisions, unread keys
//! and descriptions, and `played`.

use super::*;

impl Game for Assault {
    type State = AssaultState;

    fn purpose(&self) -> game::Purpose {
        self.purpose
    }

    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn start(&self) -> AssaultState {
        Assault::start(self)
    }

    fn steps(&self) -> u32 {
        self.turns
    }

    fn step<F: Fate>(&self, state: &mut AssaultState, fate: &mut F) -> Option<End> {
        if state.charisma[0] == UNROLLED {
            // 1.11: an attached general's charisma, rolled once at the start.
            for s in 0..2 {
                let (place, charisma) = self.general(s);
                state.charisma[s] = if place != GeneralPlace::Attached {
                    0
                } else {
                    match charisma {
                        Charisma::Zero => 0,
                        Charisma::One => 1,
                        Charisma::Two => 2,
                        Charisma::Rolled => self.rules.charisma_of_roll(fate.die(10)) as i8,
                    }
                };
            }
        }
        let charisma = state.charisma.map(i32::from);
        let ending = if self.charger.units == 2 {
            self.turn_two(*state, charisma, fate)
        } else {
            self.turn(*state, charisma, fate)
        };
        match ending {
            Ending::Going(next) => {
                *state = next;
                None
            }
            Ending::Over(end, ends) => {
                *state = end;
                state.fate = pack_fate(ends);
                Some(match (ends[0].0, ends[1].0) {
                    (false, true) => End::Attacker,
                    (true, false) => End::Defender,
                    (true, true) => End::BothBroke,
                    // 2.7: only an evade ends a fight with both sides in it:
                    // the defender left.
                    (false, false) => End::DefenderLeft,
                })
            }
        }
    }

    fn code(&self, winner: u8, steps: u32, state: &AssaultState) -> u64 {
        let mut ends = if state.fate != 0 { unpack_fate(state.fate) } else { Self::limit_fate(state) };
        if self.charger.units == 2 && state.fate == 0 {
            // A fight going on at the limit: one of two chargers may already
            // have routed or shattered (on the approach, or in a round), and
            // the attacker's `routed`/`shattered` say so.
            ends[0] = Self::chargers_side(state.chargers);
        }
        // The winner under the purpose, whoever is left in the field.
        self.layout.with_value(self.encode(steps.max(1), state, ends), 0, i64::from(winner))
    }

    fn at_limit(&self, state: &AssaultState) -> End {
        // A side still pursued at the limit has routed: its enemy has won.
        match state.pursuer {
            Some(p) => End::won_by(p),
            None => End::Limit,
        }
    }

    fn decisions(&self) -> &'static [&'static Decision] {
        DECISIONS
    }

    /// Keys that change nothing at these settings: cavalry's keys on an
    /// infantry unit (and an infantry charger's formation on cavalry), an
    /// attached general's charisma with no general attached, a battery's
    /// guns with no battery, a block's cover with no block.
    fn unread_keys(&self) -> Vec<(String, String)> {
        let mut unread = Vec::new();
        let mut push = |key: &str, why: &str| unread.push((key.to_string(), why.to_string()));
        if self.cavalry() {
            push("attacker.formation", "the charger is cavalry: the formation is an infantry charger's");
        } else {
            for key in ["attacker.heaviness", "attacker.lancers", "attacker.fresh"] {
                push(key, "the charger is infantry: the key is cavalry's");
            }
        }
        if !self.holder_cavalry() {
            for key in ["defender.heaviness", "defender.lancers", "defender.advanced", "defender.fresh"] {
                push(key, "the defender is not cavalry: the key is cavalry's");
            }
        }
        for (s, side) in ["attacker", "defender"].into_iter().enumerate() {
            if self.general(s).0 != GeneralPlace::Attached {
                push(&format!("{side}.charisma"), "no general is attached (1.11: charisma counts only when attached)");
            }
        }
        if !self.battery() {
            push("defender.guns", "the defender is not a battery (its weapon is not a gun)");
        }
        if self.holder.block == 0 {
            push("defender.block_cover", "the defender holds no town block (defender.block = 0)");
        }
        unread
    }

    fn fallback(&self) -> Policy {
        // Two chargers beyond the solver play bold: they close the full move
        // and the line shoots the weaker (see `TWO_CHARGERS_EXACT_MAX_FIGURES`).
        if self.charger.units == 2 { Policy::Bold } else { Policy::Cautious }
    }

    fn solvable(&self, _plan: game::Plan) -> bool {
        let most = match self.charger.units {
            2 if self.distance > self.moves().1 => TWO_CHARGERS_APPROACH_EXACT_MAX_FIGURES,
            2 => TWO_CHARGERS_EXACT_MAX_FIGURES,
            _ => EXACT_MAX_FIGURES,
        };
        self.charger.figures <= most && self.holder.figures <= EXACT_MAX_FIGURES
    }

    fn describe_state(&self, state: &AssaultState, _side: u8) -> String {
        let charger = if self.cavalry() { "cavalry" } else { "infantry" };
        let holder = if self.battery() {
            "a battery"
        } else if self.holder_cavalry() {
            "cavalry"
        } else if self.holder.order == DefenderOrder::Skirmish {
            "skirmishers"
        } else if state.square {
            "a square"
        } else {
            "a line"
        };
        if self.charger.units == 2 {
            let out = |i: usize| state.chargers & Self::charger_bit(i, 0) != 0;
            let unit = |i: usize, figures: u8| if out(i) { "out".to_string() } else { figures.to_string() };
            return format!(
                "two {charger} units ({} and {} figures) {}\" from {} of {holder}",
                unit(0, state.figures[0]),
                unit(1, state.second),
                state.distance,
                state.figures[1]
            );
        }
        format!("{} {charger} {}\" from {} of {holder}", state.figures[0], state.distance, state.figures[1])
    }

    fn describe_option(&self, decision: &'static Decision, option: u16) -> String {
        let words: [&str; 2] = match decision.name {
            "charge" => ["charge now", "close first"],
            "approach" => ["close a full move", "halt at the edge of charge reach"],
            "target" => ["fire at the first charger", "fire at the second charger"],
            "evade" => ["stand", "evade"],
            "pursue" => ["hold", "pursue"],
            "hold" => ["charge", "hold where it stands"],
            "square" => ["stay in line", "form square"],
            other => unreachable!("assault has no decision {other}"),
        };
        words[usize::from(option.min(1))].to_string()
    }
}

/// Per side (out, routed, shattered) as bits.
fn pack_fate(ends: [(bool, bool, bool); 2]) -> u8 {
    let side =
        |(out, routed, shattered): (bool, bool, bool)| u8::from(out) | u8::from(routed) << 1 | u8::from(shattered) << 2;
    side(ends[0]) | side(ends[1]) << 3
}

fn unpack_fate(bits: u8) -> [(bool, bool, bool); 2] {
    let side = |b: u8| (b & 1 != 0, b & 2 != 0, b & 4 != 0);
    [side(bits & 7), side(bits >> 3)]
}

/// `assault` or `cavalry_charge` as played by the plan of its keys.
pub fn played(assault: Assault, settings: &Settings) -> Played<Assault> {
    Played::new(assault.with_purpose(game::Purpose::from_settings(settings)), game::Plan::from_settings(settings))
}
