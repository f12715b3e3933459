//! Section 8: rallying units with a commander attached (and, under method c, units that
//! rally themselves) at the end of their side's player turn.

use crate::events::{ev_at, seen_for};
use crate::state::*;
use volley_core::geometry::Facing;
use volley_core::Log;

/// Section 8: at the end of the phasing player's turn, units with a commander attached (and,
/// under method c, units that rally themselves) recover; never while in melee.
pub fn rally(s: &mut State, side: volley_core::Side, log: &mut Log) {
    let method = s.settings().rally;
    for i in 0..s.units.len() {
        let u = &s.units[i];
        if u.side != side || !u.active() || !u.arm.is_real() || s.in_melee(i) {
            continue;
        }
        let with_commander =
            u.commander.is_some() || (s.settings().rally_in_sphere && s.in_sphere(i));
        let self_rally = method == Rally::SelfRally && u.self_rally && !with_commander;
        let nothing = u.hits == 0 && u.te == 0 && !u.routed;
        if !with_commander {
            s.units[i].rally_turns = 0;
        }
        if !(with_commander || self_rally) || nothing {
            continue;
        }
        let u = &s.units[i];
        let (h0, t0, r0) = (u.hits, u.te, u.routed);
        let rally_te = s.settings().rally_te;
        let u = &mut s.units[i];
        match (method, with_commander) {
            (Rally::All, true) => {
                u.hits = 0;
                u.te = 0;
            }
            (_, true) => {
                // 8 d: the longer a commander stays, the more hits come off each turn.
                u.rally_turns = u.rally_turns.saturating_add(1);
                u.hits = u.hits.saturating_sub(u.rally_turns);
                u.te = 0;
            }
            (_, false) => u.hits = u.hits.saturating_sub(1),
        }
        let rallied = u.routed && u.hits < u.max_hits();
        if rallied {
            u.routed = false;
            if rally_te {
                // Sequence of Play 8, optional: rallied from rout, but shaken.
                u.te = u.te.max(1);
            }
        }
        let how = match (method, with_commander) {
            (Rally::All, true) => "8 a",
            (_, true) if u.rally_turns > 1 => "8 d",
            (_, true) => "8 b",
            _ => "8 c",
        };
        s.touch(i);
        if rallied {
            // 8 c: the owner turns it to face as it wishes.
            s.decisions.push(Decision::RallyFacing { unit: i });
        }
        let seen = seen_for(s, i);
        let u = &s.units[i];
        log.add(|| {
            ev_at(
                "rally",
                how,
                format!(
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
                ),
            )
            .side(side)
            .units([&u.id])
            .seen(seen)
        });
    }
}

/// 8 c: the facing the owner chose for a unit rallied from rout.
pub fn face(s: &mut State, i: usize, facing: Facing, log: &mut Log) {
    s.decisions.remove(0);
    s.touch(i);
    s.units[i].facing = facing;
    let seen = seen_for(s, i);
    let u = &s.units[i];
    log.add(|| {
        ev_at("rally", "8 c", format!("{} faces {facing}", u.id))
            .side(u.side)
            .units([&u.id])
            .seen(seen)
    });
}
