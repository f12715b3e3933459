//! What lets an item act this step and what holds it back, asked by every chapter: whether it
//! may still move (M48) or fire (M21, M7's two shots for light guns), the enemy's zones of
//! control (M54), the holds of a rallied unit (option `rallied`) and of a panicked side (M43),
//! and the written orders that refuse a step or a melee (M37).

use crate::hidden;
use crate::items::Kind;
use crate::state::State;
use crate::state::{GroupOrder, Step};
use volley_core::game::Refusal;
use volley_core::geometry::front_hexes;
use volley_core::Hex;

/// Whether item `i` may still move (or turn) this movement step.
pub fn check_may_move<R: Refusal>(s: &State, i: usize) -> Result<(), R> {
    if s.step != Step::Movement {
        return Err(R::because(|| {
            format!("items move in the movement step; it is {}", s.step_name())
        }));
    }
    let it = s.own_item::<R>(i)?;
    if !s.active(i) {
        return Err(R::because(|| {
            format!("{} is not in the group that moves now (M18)", it.id)
        }));
    }
    let t = &s.turn_state[i];
    if t.routed {
        return Err(R::because(|| {
            format!("{} is routed and runs by itself (M121)", it.id)
        }));
    }
    if t.done || (t.moving && s.mover != Some(i)) {
        return Err(R::because(|| {
            format!("{} has finished its move this turn (M48)", it.id)
        }));
    }
    Ok(())
}

/// Whether item `i` may fire now, at anyone.
pub fn check_may_fire<R: Refusal>(s: &State, i: usize) -> Result<(), R> {
    if !matches!(s.step, Step::DefensiveFire | Step::OffensiveFire) {
        return Err(R::because(|| {
            format!("items fire in the fire steps; it is {}", s.step_name())
        }));
    }
    let it = s.own_item::<R>(i)?;
    if s.setup.settings.activation {
        // M19: in the activation sequence each unit fires once a game turn; the group
        // activated fires in its own fire step, floaters in any of their side's.
        let t = &s.turn_state[i];
        if t.fired_turn && t.fired == 0 {
            return Err(R::because(|| {
                format!("{} has fired this turn (M19)", it.id)
            }));
        }
        let floats = s.groups.get(i).copied().flatten().is_none();
        if s.step == Step::OffensiveFire && !s.active(i) && !floats {
            return Err(R::because(|| {
                format!("{} is not in the group that fires now (M18)", it.id)
            }));
        }
    }
    if s.routed(i) {
        return Err(R::because(|| {
            format!("{} is routed and cannot fire (M123)", it.id)
        }));
    }
    if s.turn_state[i].worked {
        return Err(R::because(|| {
            format!("{} worked this turn and does not fight (M66–M67)", it.id)
        }));
    }
    let shots = shots(s, i);
    if s.turn_state[i].fired >= shots {
        return Err(R::because(|| {
            format!(
                "{} has fired {shots} time{} this step (M21)",
                it.id,
                if shots == 1 { "" } else { "s" }
            )
        }));
    }
    Ok(())
}

/// Shots a fire step: Very Light and Light guns two (M7), everything else one.
pub fn shots(s: &State, i: usize) -> u8 {
    let gun = match &s.item(i).kind {
        Kind::Vehicle { spec, .. } => spec.gun,
        Kind::Gun { weight, .. } => Some(*weight),
        Kind::Squad(_) => None,
    };
    gun.map_or(1, |w| s.setup.charts.guns[&w].shots)
}

/// Option `rallied = "hold"`: a rallied squad with no commander only defends.
pub fn holds(s: &State, i: usize) -> bool {
    s.setup.settings.rallied_hold
        && s.turn_state[i].rallied
        && matches!(s.item(i).kind, Kind::Squad(_))
        && s.commander_with(i).is_none()
}

/// Whether `hex` is in the zone of control of an enemy of item `i` (M54: the three front
/// hexes of an enemy without hit markers and not routed, M55).
pub fn in_enemy_zoc(s: &State, i: usize, hex: Hex) -> bool {
    let side = s.item(i).side;
    (0..s.items.len()).any(|e| {
        s.in_play(e)
            && s.item(e).side != side
            && !s.routed(e)
            && hidden::visible_to(s, e, side)
            && !matches!(&s.item(e).kind, Kind::Squad(sq) if sq.markers > 0)
            && front_hexes(s.item(e).hex, s.item(e).facing).contains(&hex)
    })
}

/// M43: a unit of a panicked side does not advance unless a commander is with it (or, with
/// option `sphere`, reaches it: 4.5).
pub fn panic_holds(s: &State, i: usize) -> bool {
    s.panicked[s.item(i).side.index()] && s.influenced_by(i).is_none()
}

/// Whether a step of item `i` to `to` brings it nearer the nearest enemy its side knows of.
pub fn nearer_the_enemy(s: &State, i: usize, to: Hex) -> bool {
    let side = s.item(i).side;
    let nearest = |h: Hex| {
        (0..s.items.len())
            .filter(|&e| s.in_play(e) && s.item(e).side != side && hidden::visible_to(s, e, side))
            .map(|e| h.unsigned_distance_to(s.item(e).hex))
            .min()
            .unwrap_or(u32::MAX)
    };
    nearest(to) < nearest(s.item(i).hex)
}

pub fn order_refuses_melee(s: &State, i: usize) -> Option<String> {
    let o = order_of(s, i)?;
    (!o.order.allows_melee()).then(|| {
        format!(
            "its written order ({}) declares no melee (M37)",
            o.order.text()
        )
    })
}

/// Whether an item's order lets it step from `from` to `to` (M37, results 1–3).
pub fn order_refuses_step(s: &State, i: usize, from: Hex, to: Hex) -> Option<String> {
    let o = order_of(s, i)?;
    if o.halted_turn == Some(s.turn) {
        return Some(format!(
            "group {} is halted this turn (consequence 1–2, M39)",
            o.group
        ));
    }
    if o.timid && nearer_the_enemy(s, i, to) {
        return Some(format!(
            "group {} is timid and does not move nearer the enemy (consequence 3, M39)",
            o.group
        ));
    }
    (!o.order.allows_step(from, to)).then(|| {
        format!(
            "its written order ({}) does not allow that step (M37); a free-will test may",
            o.order.text()
        )
    })
}

/// The written order binding an item now, if the option is on, it belongs to a group with
/// an order, and it has not passed a free-will test this turn.
pub fn order_of(s: &State, i: usize) -> Option<&GroupOrder> {
    if !s.setup.settings.cvs_orders || s.turn_state[i].free_will {
        return None;
    }
    let g = s.groups.get(i).copied().flatten()?;
    let side = s.item(i).side;
    s.orders.iter().find(|o| o.side == side && o.group == g)
}
