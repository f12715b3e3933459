//! Section 8: rallying units with a commander attached (and, under method c, units that
//! rally themselves) at the end of their side's player turn.

use crate::events::{ev_at, seen_for};
use crate::state::*;
use volley_core::Log;

/// Section 8: at the end of the phasing player's turn, units with a commander attached (and,
/// under method c, units that rally themselves) recover; never while in melee.
pub fn rally(s: &mut State, log: &mut Log) {
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
