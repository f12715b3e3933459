//! Line of sight (7 h, 7 j, 7 p) and cover from fire (7 i): what the rules of fire, spotting
//! and hidden movement ask of the ground between two hexes. Below every chapter that sees.

use crate::state::State;
use volley_core::geometry::{distance, line_between};
use volley_core::map::{Hexside, Terrain};
use volley_core::{Hex, Side};

/// What a line of sight crosses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Sight {
    Clear,
    /// A partial obstacle (light woods, works): 1 CP (7 i).
    Partial,
    Blocked,
}

/// Line of sight, centre to centre (7 h): hills higher than the lower end block, woods and
/// buildings block as if a level higher (so forest below a hill extends its crest, fig. 3),
/// and with `units` set, units on the line block — except friends that artillery on higher
/// ground fires over from more than one hex back, outside their dead zone (7 p, 7 j).
/// A line along a hexside is open if either side of it is.
pub fn line_of_sight(s: &State, from: Hex, to: Hex, viewer: Option<(Side, bool)>) -> Sight {
    let first = sight_along(s, from, to, line_between(from, to, 0), viewer);
    if first == Sight::Clear {
        return first;
    }
    first.min(sight_along(s, from, to, line_between(from, to, 1), viewer))
}

fn sight_along(
    s: &State,
    from: Hex,
    to: Hex,
    line: impl Iterator<Item = Hex>,
    viewer: Option<(Side, bool)>,
) -> Sight {
    let map = s.map();
    let (e1, e2) = (map.elevation(from), map.elevation(to));
    let low = e1.min(e2);
    let mut partial = false;
    for h in line {
        let t = map.terrain(h);
        let eh = map.elevation(h);
        let height = eh
            + u8::from(matches!(
                t,
                Terrain::Woods | Terrain::Town | Terrain::Mountain
            ));
        if height > low {
            return Sight::Blocked;
        }
        if matches!(t, Terrain::LightWoods | Terrain::Fort) {
            partial = true;
        }
        if let Some((side, artillery)) = viewer {
            if let Some(o) = s.unit_at(h).filter(|&o| s.visible_to(o, side)) {
                let friend = s.units[o].side == side;
                let back = distance(from, h);
                let over = friend
                    && artillery
                    && e1 > eh
                    && back >= 2
                    && distance(h, to) > 1
                    && 2 * distance(h, to) > back;
                if !over {
                    return Sight::Blocked;
                }
            }
        }
    }
    if partial {
        Sight::Partial
    } else {
        Sight::Clear
    }
}

/// Covers the target has against fire from `from`: woods, light woods or buildings count
/// one, a fort two, a wall, hedge or fence on the hexside the fire crosses one more.
pub fn cover(s: &State, target: Hex, from: Hex) -> i32 {
    let map = s.map();
    let mut c = match map.terrain(target) {
        Terrain::Woods | Terrain::LightWoods | Terrain::Town => 1,
        Terrain::Fort => 2,
        _ => 0,
    };
    let last = |side| line_between(from, target, side).last().unwrap_or(from);
    if [last(0), last(1)].iter().any(|&h| {
        matches!(
            map.hexside(h, target),
            Some(Hexside::Wall | Hexside::Hedge | Hexside::Fence)
        )
    }) {
        c += 1;
    }
    c
}
