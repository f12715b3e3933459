//! Section 2 (command: commanders as symbols, their combat value, death and capture),
//! section 6 (attaching them) and Rules by Sequence 1–2 (removing commanders, army integrity).

use crate::effects::{self, moving_arm, relocate};
use crate::events::{ev_at, seen_for};
use crate::state::*;
use volley_core::geometry::{label, step};
use volley_core::{Dice, Log, Side};

/// Rules by Sequence 1: the phasing player takes back its commanders at the start of its turn.
pub fn remove_commanders(s: &mut State, side: Side) {
    for c in s.commanders.iter_mut().filter(|c| c.side == side) {
        if let Some(u) = c.attached.take() {
            s.units[u].commander = None;
        }
    }
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
    log: &mut Log,
) {
    log.add(|| {
        ev_at(
            "integrity",
            section,
            format!("{side} checks army integrity: {why}"),
        )
        .side(side)
    });
    for i in 0..s.units.len() {
        let u = &s.units[i];
        if u.side != side || !u.active() || !u.arm.is_real() || u.routed || s.in_melee(i) {
            continue;
        }
        let (r, face) = s.settings().cube.roll(dice);
        let id = u.id.clone();
        if !face.red {
            let seen = seen_for(s, i);
            log.add(|| {
                ev_at(
                    "integrity",
                    section,
                    format!("{id} rolls {r} ({}): holds", face.name()),
                )
                .side(side)
                .units([&id])
                .seen(seen)
            });
            continue;
        }
        let back = s.units[i].facing.opposite();
        let start = s.units[i].hex;
        let mut moved = 0;
        for _ in 0..hexes {
            let h = step(s.units[i].hex, back);
            if !s.map().contains(h) {
                effects::leave_field(s, i);
                break;
            }
            let arm = moving_arm(&s.units[i]);
            if !crate::scenario::may_stand(arm, s.map().terrain(h), s.map().elevation(h))
                || s.unit_at(h).is_some()
                || s.guns_at(h).is_some()
            {
                break;
            }
            relocate(s, i, h);
            s.units[i].moved_this_turn = true;
            moved += 1;
        }
        // A unit under a hidden-movement marker falls back unseen.
        let seen = seen_for(s, i);
        let u = &s.units[i];
        log.add(|| {
            let text = if u.fate == Fate::LeftField {
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
                    label(u.hex)
                )
            };
            ev_at("integrity", section, text)
                .side(side)
                .units([&id])
                .seen(seen)
        });
        if moved > 0 {
            effects::after_move(s, i, log);
        }
    }
}

/// Pending consequences of a supreme commander's loss, rolled as soon as it happens.
pub fn settle_supreme_losses(s: &mut State, dice: &mut dyn Dice, log: &mut Log) {
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
                log,
            );
        }
    }
}
