//! Optional Rules, Hidden Movement, and Rules by Sequence 3 / 3.1 (spotting): units no enemy
//! can see are shown to that enemy only as unidentified markers, among decoy plates.

use crate::board::Board;
use crate::effects::{auto_spotted, reveal, spotters, AUTO_REVEAL};
use crate::events::ev;
use crate::sight::{line_of_sight, Sight};
use crate::state::*;
use volley_core::geometry::label;
use volley_core::{Dice, Hex, Log, Seen, Side};

/// Spotting distances (3.1): beyond the 5 hexes at which a marker is revealed at once
/// ([`AUTO_REVEAL`]), from 8 hexes (12 from a hill) it takes a red star.
pub const SPOT_RANGE: u32 = 8;
pub const SPOT_RANGE_HILL: u32 = 12;
/// Hidden Movement: sight on a normal day.
pub const NORMAL_SIGHT: u32 = 9;

/// Initial sight at set-up: only what the enemy can see without a roll is revealed.
pub fn refresh_sight(s: &mut State) {
    for i in 0..s.units.len() {
        let enemy = s.units[i].side.other();
        let h = s.units[i].hex;
        s.units[i].seen = s.units[i].arm.is_real() && auto_spotted(s, enemy, h);
    }
}

/// Spotting at the start of a player turn (Sequence of Play 1): units out of every enemy's
/// sight (the `sight` option, 9 hexes) drop back under markers; markers in spotting range
/// are revealed automatically or on a red star.
pub fn spotting_step(s: &mut State, dice: &mut dyn Dice, log: &mut Log) {
    if !s.settings().hidden {
        return;
    }
    let sight = s.settings().sight;
    for i in 0..s.units.len() {
        let u = &s.units[i];
        if !u.active() || !u.seen || !u.arm.is_real() {
            continue;
        }
        let (side, h) = (u.side, u.hex);
        let watched = spotters(s, side.other()).any(|sp| {
            sp.hex.unsigned_distance_to(h) <= sight
                && line_of_sight(s, sp.hex, h, None) != Sight::Blocked
        });
        if !watched {
            s.units[i].seen = false;
            let u = &s.units[i];
            log.add(|| {
                ev!(
                    "hidden",
                    "Optional Rules: Hidden Movement",
                    format!(
                        "{} is out of the enemy's sight and goes back under a marker",
                        u.id
                    ),
                )
                .side(side)
                .seen(Seen::only(side))
            });
        }
    }
    // Markers are searched in the order of their hexes, never of the units under them: the
    // order of the rolls must not tell real units (listed first) from decoys.
    let mut unseen: Vec<usize> = (0..s.units.len())
        .filter(|&t| s.units[t].active() && !s.units[t].seen)
        .collect();
    unseen.sort_by_key(|&t| {
        (
            volley_core::geometry::col_row(s.units[t].hex),
            s.units[t].side,
        )
    });
    for t in unseen {
        let e = &s.units[t];
        if !e.active() || e.seen {
            continue;
        }
        let (owner, h) = (e.side, e.hex);
        if auto_spotted(s, owner.other(), h) {
            reveal(s, t, log);
            continue;
        }
        let in_range = spotters(s, owner.other()).any(|sp| {
            // Poor visibility (a `sight` below the normal 9) shortens spotting too.
            let range = if s.map().elevation(sp.hex) > 0 {
                SPOT_RANGE_HILL
            } else {
                SPOT_RANGE
            }
            .min(if sight < NORMAL_SIGHT {
                sight.max(AUTO_REVEAL)
            } else {
                u32::MAX
            });
            sp.hex.unsigned_distance_to(h) <= range
                && line_of_sight(s, sp.hex, h, None) != Sight::Blocked
        });
        if in_range {
            let (r, face) = s.settings().cube.roll(dice);
            let found = face.red && face.star;
            log.add(|| {
                ev!(
                    "spotting",
                    "3.1",
                    format!(
                        "{} looks for the marker at {}: rolled {r} ({}){}",
                        owner.other(),
                        label(h),
                        face.name(),
                        if found { ": spotted" } else { "" }
                    ),
                )
                // Told to the searcher only, as a judge would roll it: whether a search is
                // made at all, and with a roll or without, depends on where the searcher's
                // unseen units stand. The marker's owner learns what the search finds.
                .side(owner.other())
                .seen(Seen::only(owner.other()))
            });
            if found {
                reveal(s, t, log);
            }
        }
    }
}

/// The position as `side` might believe it: the enemy units it cannot see (and the decoys)
/// are dealt out at random among the marker hexes it does see, keeping their own facings.
/// What `side` sees is untouched, so a bot searching this copy learns nothing it has not seen.
pub fn determinize(s: &State, side: Side, dice: &mut dyn Dice) -> State {
    let mut out = s.clone();
    let hidden: Vec<usize> = (0..s.units.len())
        .filter(|&i| s.units[i].active() && !s.visible_to(i, side))
        .collect();
    let mut spots: Vec<(Hex, volley_core::geometry::Facing)> = hidden
        .iter()
        .map(|&i| (s.units[i].hex, s.units[i].facing))
        .collect();
    // Sorted whole (hex, then facing), so the list is the same whatever units stood where.
    spots.sort_by_key(|(h, f)| (h.x, h.y, *f));
    hex_command_family::markers::shuffle(&mut spots, dice);
    let mut order = hidden.clone();
    order.sort_by(|&a, &b| s.units[a].id.cmp(&s.units[b].id));
    for (i, (hex, facing)) in order.into_iter().zip(spots) {
        out.units[i].hex = hex;
        out.units[i].facing = facing;
    }
    out.board = Board::of(&out);
    out
}
