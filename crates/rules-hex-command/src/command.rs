//! Section 2 (command: commanders as symbols, their combat value, death and capture),
//! section 6 (attaching them) and Rules by Sequence 1–2 (removing commanders, army integrity).

use crate::events::{ev, seen_for};
use crate::state::*;
use crate::units::Arm;
use volley_core::geometry::{label, step};
use volley_core::{Dice, Event, Side};

/// Rules by Sequence 1: the phasing player takes back its commanders at the start of its turn.
pub fn remove_commanders(s: &mut State, side: Side) {
    for c in s.commanders.iter_mut().filter(|c| c.side == side) {
        if let Some(u) = c.attached.take() {
            s.units[u].commander = None;
        }
    }
}

/// A commander killed (red star on a unit it is with) or captured (its unit routed or
/// destroyed). Losing the supreme commander shakes the whole army (hand-out, Break Point).
pub fn lose_commander(s: &mut State, c: usize, status: CommanderStatus, events: &mut Vec<Event>) {
    let cmd = &mut s.commanders[c];
    if cmd.status != CommanderStatus::Ready {
        return;
    }
    cmd.status = status;
    if let Some(u) = cmd.attached.take() {
        s.units[u].commander = None;
    }
    let cmd = &s.commanders[c];
    let what = if status == CommanderStatus::Killed {
        "is killed (red star: the unit takes no hit)"
    } else {
        "is captured"
    };
    let text = format!("{} {what}; {} adds 10% to its losses", cmd.name, cmd.side);
    events.push(ev("commander", "2 e", text).side(cmd.side));
}

/// An army integrity roll for every unit of `side` (Rules by Sequence 2; hand-out, Break
/// Point): on red a unit falls back `hexes` hexes straight to its rear at once.
pub fn integrity_check(
    s: &mut State,
    side: Side,
    hexes: u8,
    why: &str,
    section: &str,
    dice: &mut dyn Dice,
    events: &mut Vec<Event>,
) {
    events.push(
        ev(
            "integrity",
            section,
            format!("{side} checks army integrity: {why}"),
        )
        .side(side),
    );
    for i in 0..s.units.len() {
        let u = &s.units[i];
        if u.side != side || !u.active() || !u.arm.is_real() || u.routed || s.in_melee(i) {
            continue;
        }
        let (r, face) = s.settings().cube.roll(dice);
        let id = u.id.clone();
        if !face.red {
            events.push(
                ev(
                    "integrity",
                    section,
                    format!("{id} rolls {r} ({}): holds", face.name()),
                )
                .side(side)
                .units([id])
                .seen(seen_for(s, i)),
            );
            continue;
        }
        let back = s.units[i].facing.opposite();
        let start = s.units[i].hex;
        let mut moved = 0;
        for _ in 0..hexes {
            let h = step(s.units[i].hex, back);
            if !s.map().contains(h) {
                s.units[i].fate = Fate::LeftField;
                break;
            }
            let arm = if s.units[i].is_crew_only() {
                Arm::Infantry
            } else {
                s.units[i].arm
            };
            if !crate::scenario::may_stand(arm, s.map().terrain(h), s.map().elevation(h))
                || s.unit_at(h).is_some()
                || s.guns_at(h).is_some()
            {
                break;
            }
            crate::movement::relocate(s, i, h);
            s.units[i].moved_this_turn = true;
            moved += 1;
        }
        let text = if s.units[i].fate == Fate::LeftField {
            format!(
                "{id} rolls {r} ({}): withdraws off the map and is lost",
                face.name()
            )
        } else {
            format!(
                "{id} rolls {r} ({}): withdraws {moved} hex{} from {} to {}",
                face.name(),
                if moved == 1 { "" } else { "es" },
                label(start),
                label(s.units[i].hex)
            )
        };
        // A unit under a hidden-movement marker falls back unseen.
        events.push(
            ev("integrity", section, text)
                .side(side)
                .units([id])
                .seen(seen_for(s, i)),
        );
        if moved > 0 {
            crate::hidden::after_move(s, i, events);
        }
    }
}

/// Pending consequences of a supreme commander's loss, rolled as soon as it happens.
pub fn settle_supreme_losses(s: &mut State, dice: &mut dyn Dice, events: &mut Vec<Event>) {
    for side in Side::BOTH {
        let lost = s
            .commanders
            .iter()
            .any(|c| c.side == side && c.supreme && c.status != CommanderStatus::Ready);
        if lost && !s.sides[side.index()].supreme_checked {
            s.sides[side.index()].supreme_checked = true;
            let hexes = 2 * crate::units::Arm::Infantry.movement(s.settings().limbered_rate);
            integrity_check(
                s,
                side,
                hexes,
                "its supreme commander is lost; units on red withdraw two turns' march",
                "Hand-out: Break Point",
                dice,
                events,
            );
        }
    }
}
