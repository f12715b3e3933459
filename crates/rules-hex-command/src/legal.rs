//! Which actions are open now: whose decision it is, and the legal actions of the phase, each
//! listed by the chapter it belongs to (movement, fire, melee, orders, the decisions of the
//! sequence of play). The [`crate::listing`] keeps them from action to action.

use crate::orders::{Count, HcAction, Sink};
use crate::state::{Phase, State};
use crate::{command, fire, melee, movement, sequence};
use volley_core::Side;

/// Whose decision it is.
pub fn decider(s: &State) -> Option<Side> {
    match s.phase {
        Phase::Over => None,
        Phase::Fire => s.fire_rounds.get(s.fire_round as usize).map(|r| r.side),
        Phase::Advance => s.advances.first().map(|a| s.units[a.unit].side),
        Phase::Decision => s.decisions.first().map(|d| sequence::decision_side(s, d)),
        Phase::Withdrawal => s.withdrawing.first().map(|&u| s.units[u].side),
        Phase::Orders | Phase::Movement | Phase::Melee => Some(s.phasing()),
    }
}

/// The actions of the side to decide that belong to no unit: commander pieces moving (2 d).
pub fn side_actions(s: &State, out: &mut impl Sink) {
    if s.phase == Phase::Movement {
        movement::commander_moves(s, out);
    }
}

/// How many actions belong to no unit.
pub fn side_count(s: &State) -> usize {
    let mut n = Count::default();
    side_actions(s, &mut n);
    n.0
}

/// Whether some unit has an action now: a look that stops at the first that does.
pub fn some_unit_acts(s: &State) -> bool {
    side_count(s) > 0
        || (0..s.units.len()).any(|i| {
            let mut n = Count::default();
            unit_legal(s, i, &mut n);
            n.0 > 0
        })
}

/// Every legal action now.
pub fn legal(s: &State) -> Vec<HcAction> {
    let mut out = Vec::new();
    legal_into(s, &mut out);
    out
}

pub fn legal_into(s: &State, out: &mut impl Sink) {
    match s.phase {
        Phase::Over => return,
        Phase::Movement => {
            movement::legal(s, out);
            side_actions(s, out);
        }
        Phase::Fire => fire::legal(s, out),
        Phase::Melee => melee::legal(s, out),
        Phase::Withdrawal => movement::legal_withdrawal(s, out),
        Phase::Orders => command::legal_orders(s, out),
        Phase::Advance => {
            melee::legal_advance(s, out);
            return;
        }
        Phase::Decision => {
            sequence::legal_decision(s, out);
            return;
        }
    }
    out.put(HcAction::End);
}

/// The legal actions of unit `i` alone (section 6's attachments count as the unit's).
pub fn unit_legal(s: &State, i: usize, out: &mut impl Sink) {
    if i >= s.units.len() {
        return;
    }
    match s.phase {
        Phase::Over | Phase::Orders => {}
        Phase::Decision => {
            let mut all: Vec<HcAction> = Vec::new();
            sequence::legal_decision(s, &mut all);
            for a in all.into_iter().filter(|a| a.acting_unit() == Some(i)) {
                out.put(a);
            }
        }
        Phase::Movement => {
            movement::commanders_for(s, i, out);
            movement::unit_moves(s, i, out);
        }
        Phase::Fire => {
            if Some(s.units[i].side) == decider(s) {
                fire::unit_shots(s, i, out);
            }
        }
        Phase::Melee => melee::unit_melees(s, i, out),
        Phase::Withdrawal => movement::withdrawal_moves(s, i, out),
        Phase::Advance => {
            if s.advances.first().is_some_and(|a| a.unit == i) {
                melee::legal_advance(s, out);
            }
        }
    }
}

/// Why an action is not legal now, in words: whose decision it is, or what holds the unit.
pub fn why_illegal(s: &State, a: HcAction) -> String {
    let text = a.notation(s);
    let unit = a.acting_unit();
    let phase = s.phase_name();
    if let Some(u) = unit.and_then(|u| s.units.get(u)) {
        if Some(u.side) != decider(s) {
            return format!(
                "\"{text}\": {} belongs to {}, and it is {}'s decision now ({phase})",
                u.id,
                u.side,
                decider(s).map_or("nobody".into(), |d| d.to_string())
            );
        }
        if !u.active() {
            return format!("\"{text}\": {} is no longer on the field", u.id);
        }
        if u.routed {
            return format!(
                "\"{text}\": {} is routed and moves only by rout (7.5)",
                u.id
            );
        }
        if s.in_melee(s.units.iter().position(|x| x.id == u.id).unwrap_or(0)) {
            return format!("\"{text}\": {} is locked in melee (7.3)", u.id);
        }
    }
    format!("\"{text}\" is not a legal action in the {phase} phase (see `volley legal`)")
}
