//! Sections 7.5 (routing) and 7.5.1 (rout and passing through), hits and destruction, and
//! section 8 (rally).

use crate::events::{ev, seen_for};
use crate::movement::{add_te, relocate};
use crate::scenario::may_stand;
use crate::state::*;
use crate::units::Arm;
use volley_core::geometry::{label, step};
use volley_core::{Event, Hex};

/// Casualty hits on a unit: a routed unit that is hit is destroyed (7 o); the third hit
/// (fourth for rare units) routs it (7 m, 7.5).
pub fn apply_hits(s: &mut State, t: usize, n: u8, source: &str, events: &mut Vec<Event>) {
    if s.units[t].routed {
        destroy(
            s,
            t,
            &format!("hit by {source} while routing (7 o)"),
            events,
        );
        return;
    }
    let u = &mut s.units[t];
    u.hits = (u.hits + n).min(u.max_hits());
    let text = format!(
        "{} {} takes {} hit{} from {source}: {}/{} hits",
        u.id,
        u.name,
        n,
        if n > 1 { "s" } else { "" },
        u.hits,
        u.max_hits()
    );
    events.push(ev("hit", "7 m", text).side(u.side).units([u.id.clone()]));
    if s.units[t].hits >= s.units[t].max_hits() {
        if s.units[t].is_crew_only() {
            destroy(s, t, "a crew without guns broken", events);
        } else {
            rout(s, t, events);
        }
    }
}

pub fn destroy(s: &mut State, t: usize, why: &str, events: &mut Vec<Event>) {
    if let Some(c) = s.units[t].commander {
        crate::command::lose_commander(s, c, CommanderStatus::Captured, events);
    }
    // A unit lost under a hidden-movement marker is named only to its owner.
    let seen = seen_for(s, t);
    let u = &mut s.units[t];
    u.fate = Fate::Destroyed;
    u.guns_at = None;
    let text = format!("{} {} is destroyed ({why})", u.id, u.name);
    events.push(
        ev("destroyed", "7.5", text)
            .side(u.side)
            .units([u.id.clone()])
            .seen(seen),
    );
}

/// A unit routs: it turns about, its commander is captured, guns limber up, and it runs at
/// once (7.5; 2 e; section 3, Melee and Rout).
pub fn rout(s: &mut State, t: usize, events: &mut Vec<Event>) {
    if let Some(c) = s.units[t].commander {
        crate::command::lose_commander(s, c, CommanderStatus::Captured, events);
    }
    let turn = s.turn;
    let u = &mut s.units[t];
    u.routed = true;
    u.routed_turn = turn;
    u.facing = u.facing.opposite();
    if u.arm == Arm::Artillery && !u.is_crew_only() {
        u.limbered = true;
    }
    let text = format!("{} {} routs and turns about", u.id, u.name);
    events.push(
        ev("rout", "7.5", text)
            .side(u.side)
            .units([u.id.clone()])
            .seen(seen_for(s, t)),
    );
    rout_move(s, t, events);
}

fn nearest_enemy(s: &State, t: usize, hex: Hex) -> u32 {
    let side = s.units[t].side;
    s.units
        .iter()
        .filter(|e| e.side != side && e.active() && e.arm.is_real())
        .map(|e| e.hex.unsigned_distance_to(hex))
        .min()
        .unwrap_or(u32::MAX)
}

fn passable(s: &State, arm: Arm, h: Hex) -> bool {
    s.map().contains(h) && may_stand(arm, s.map().terrain(h), s.map().elevation(h))
}

fn in_enemy_zoc(s: &State, t: usize, h: Hex) -> bool {
    let side = s.units[t].side;
    (0..s.units.len()).any(|e| s.units[e].side != side && s.in_zoc_of(e, h))
}

/// The rout move: 3 hexes (4 for cavalry and artillery) straight on from the about-faced
/// unit, following impassable ground sideways only if that does not bring it nearer the
/// enemy; through one friend (which takes a TE hit) if there is room beyond; destroyed in
/// an enemy zone of control or with nowhere to go (7.5, 7.5.1). Off the map it is gone.
pub fn rout_move(s: &mut State, t: usize, events: &mut Vec<Event>) {
    let arm = s.units[t].arm;
    let mut left = arm.rout_distance();
    let start = s.units[t].hex;
    while left > 0 {
        let here = s.units[t].hex;
        let facing = s.units[t].facing;
        let ahead = step(here, facing);
        if !s.map().contains(ahead) {
            let seen = seen_for(s, t);
            let u = &mut s.units[t];
            u.fate = Fate::LeftField;
            let text = format!(
                "{} routs off the map from {} and is lost",
                u.id,
                label(here)
            );
            events.push(
                ev("rout", "7.5", text)
                    .side(u.side)
                    .units([u.id.clone()])
                    .seen(seen),
            );
            return;
        }
        let blocked = |h: Hex| {
            !passable(s, arm, h)
                || s.unit_at(h)
                    .is_some_and(|o| s.units[o].side != s.units[t].side)
                || s.guns_at(h).is_some()
        };
        let mut dir = facing;
        if blocked(ahead) {
            let here_d = nearest_enemy(s, t, here);
            let side_step = [facing.turn(-1), facing.turn(1)].into_iter().find(|&f| {
                let h = step(here, f);
                s.map().contains(h)
                    && !blocked(h)
                    && s.unit_at(h).is_none()
                    && nearest_enemy(s, t, h) >= here_d
            });
            match side_step {
                Some(f) => dir = f,
                None => {
                    destroy(s, t, "routing with nowhere to go (7.5)", events);
                    return;
                }
            }
        }
        let next = step(here, dir);
        let mut land = next;
        if let Some(f) = s.unit_at(next) {
            // 7.5.1: through one friend, unless both are cavalry or cavalry meet guns.
            let fa = s.units[f].arm;
            let allowed = !(arm == Arm::Cavalry && (fa == Arm::Cavalry || fa == Arm::Artillery));
            let beyond = step(next, dir);
            let room = s.map().contains(beyond) && !blocked(beyond) && s.unit_at(beyond).is_none();
            if !allowed || !room {
                destroy(
                    s,
                    t,
                    "routing into friends with no room beyond them (7.5.1)",
                    events,
                );
                return;
            }
            add_te(
                s,
                f,
                1,
                "routed through by a friendly unit",
                "7.5.1",
                events,
            );
            land = beyond;
            left = left.saturating_sub(1);
        }
        relocate(s, t, land);
        s.units[t].moved_this_turn = true;
        left = left.saturating_sub(1);
        if in_enemy_zoc(s, t, land) {
            destroy(
                s,
                t,
                &format!("routed into an enemy zone of control at {}", label(land)),
                events,
            );
            return;
        }
    }
    let u = &s.units[t];
    let text = format!("{} routs {}→{}", u.id, label(start), label(u.hex));
    events.push(
        ev("rout", "7.5", text)
            .side(u.side)
            .units([u.id.clone()])
            .seen(seen_for(s, t)),
    );
    crate::hidden::after_move(s, t, events);
}

/// Section 8: at the end of the phasing player's turn, units with a commander attached (and,
/// under method c, units that rally themselves) recover; never while in melee.
pub fn rally(s: &mut State, events: &mut Vec<Event>) {
    let side = s.phasing();
    let method = s.settings().rally;
    for i in 0..s.units.len() {
        let u = &s.units[i];
        if u.side != side || !u.active() || !u.arm.is_real() || s.in_melee(i) {
            continue;
        }
        let with_commander = u.commander.is_some();
        let self_rally = method == Rally::SelfRally && u.self_rally && !with_commander;
        if !(with_commander || self_rally) || (u.hits == 0 && u.te == 0 && !u.routed) {
            continue;
        }
        let (h0, t0, r0) = (u.hits, u.te, u.routed);
        let u = &mut s.units[i];
        match (method, with_commander) {
            (Rally::All, true) => {
                u.hits = 0;
                u.te = 0;
            }
            (_, true) => {
                u.hits = u.hits.saturating_sub(1);
                u.te = 0;
            }
            (_, false) => u.hits = u.hits.saturating_sub(1),
        }
        if u.routed && u.hits < u.max_hits() {
            u.routed = false;
            // Rallied units turn back to face the way they fled from (8 c).
            u.facing = u.facing.opposite();
        }
        let how = match (method, with_commander) {
            (Rally::All, true) => "8 a",
            (_, true) => "8 b",
            _ => "8 c",
        };
        let text = format!(
            "{} rallies{}: hits {h0}→{}, TE {t0}→{}{}",
            u.id,
            if with_commander {
                " with its commander"
            } else {
                " by itself"
            },
            u.hits,
            u.te,
            if r0 && !u.routed {
                ", no longer routed"
            } else {
                ""
            }
        );
        events.push(
            ev("rally", how, text)
                .side(side)
                .units([u.id.clone()])
                .seen(seen_for(s, i)),
        );
    }
}
