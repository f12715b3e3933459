//! Line of sight and cover from fire, as both Hex Command rulebooks judge them (Gunpowder
//! 7 h–7 j, 7 p, figures 1–3; Mechanized 3.7.8–3.7.9): centre to centre, hills higher than the
//! lower end block, woods, buildings and mountains stand a level above their ground, units on
//! the line block, and guns on higher ground fire over friends outside their dead zone.

use crate::ground::Ground;
use volley_core::geometry::{distance, line_between};
use volley_core::map::{Hexside, Terrain};
use volley_core::{Hex, Side};

/// What a line of sight crosses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Sight {
    Clear,
    /// A partial obstacle on the line (light woods, works, a slope): 1 CP (Gunpowder 7 i).
    Partial,
    Blocked,
}

/// Who is looking, for the units on the line: the viewer's side, and whether it is artillery
/// that may fire over friends (Gunpowder 7 p).
#[derive(Clone, Copy, Debug)]
pub struct Viewer {
    pub side: Side,
    pub fires_over: bool,
}

/// Line of sight from `from` to `to`. With a `viewer`, the units it can see on the line block
/// (`occupant` names the side of the unit the viewer sees in a hex, if any). A line along a
/// hexside is open if either side of it is.
pub fn line_of_sight(
    g: Ground,
    from: Hex,
    to: Hex,
    viewer: Option<Viewer>,
    occupant: impl Fn(Hex) -> Option<Side>,
) -> Sight {
    let first = sight_along(g, from, to, 0, viewer, &occupant);
    if first == Sight::Clear {
        return first;
    }
    first.min(sight_along(g, from, to, 1, viewer, &occupant))
}

/// How high a hex stands for sight: woods, buildings and mountains a level above the ground
/// (so forest below a hill extends the crest, Gunpowder figure 3).
#[inline]
pub fn sight_height(g: Ground, h: Hex) -> u8 {
    height_for_sight(g.elevation(h), g.terrain(h))
}

#[inline]
fn height_for_sight(elevation: u8, t: Terrain) -> u8 {
    elevation
        + u8::from(matches!(
            t,
            Terrain::Woods | Terrain::Town | Terrain::Mountain
        ))
}

fn sight_along(
    g: Ground,
    from: Hex,
    to: Hex,
    side: usize,
    viewer: Option<Viewer>,
    occupant: &impl Fn(Hex) -> Option<Side>,
) -> Sight {
    let (e1, e2) = (g.elevation(from), g.elevation(to));
    let low = e1.min(e2);
    let mut partial = false;
    let mut prev = from;
    for h in line_between(from, to, side) {
        let (t, quick_works) = g.terrain_and_quick_works(h);
        let eh = g.elevation(h);
        if height_for_sight(eh, t) > low {
            return Sight::Blocked;
        }
        if matches!(t, Terrain::LightWoods | Terrain::Fort) || quick_works {
            partial = true;
        }
        if g.hexside(prev, h) == Some(Hexside::Slope) {
            partial = true;
        }
        prev = h;
        if let Some(v) = viewer {
            if let Some(o) = occupant(h) {
                let back = distance(from, h);
                let over = o == v.side
                    && v.fires_over
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
    if g.hexside(prev, to) == Some(Hexside::Slope) {
        partial = true;
    }
    if partial {
        Sight::Partial
    } else {
        Sight::Clear
    }
}

/// Whether a hexside gives cover to whoever stands behind it: a wall, hedge or fence.
#[inline]
pub fn sheltering(side: Option<Hexside>) -> bool {
    matches!(side, Some(Hexside::Wall | Hexside::Hedge | Hexside::Fence))
}

/// The cover a hex gives by its terrain: woods, light woods and buildings one, a fort (or a
/// standing redoubt) two, quick works one.
pub fn terrain_cover(g: Ground, target: Hex) -> i32 {
    let base = match g.terrain(target) {
        Terrain::Woods | Terrain::LightWoods | Terrain::Town => 1,
        Terrain::Fort => 2,
        _ => 0,
    };
    base.max(i32::from(g.quick_works(target)))
}

/// Covers the target has against fire from `from` (Gunpowder charts, Modifiers): its hex's
/// cover, and one more for a wall, hedge or fence on the hexside the fire crosses into it.
pub fn cover(g: Ground, target: Hex, from: Hex) -> i32 {
    let last = |side| line_between(from, target, side).last().unwrap_or(from);
    let wall = [last(0), last(1)]
        .iter()
        .any(|&h| sheltering(g.hexside(h, target)));
    terrain_cover(g, target) + i32::from(wall)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ground::Works;
    use volley_core::geometry::parse_label;
    use volley_core::map::{Cell, Map};

    fn h(l: &str) -> Hex {
        parse_label(l).unwrap()
    }

    #[test]
    fn a_slope_on_the_line_is_a_partial_obstacle() {
        let mut map = Map::open(8, 8);
        let works = Works::default();
        let g = Ground::new(&map, &works);
        assert_eq!(
            line_of_sight(g, h("0302"), h("0306"), None, |_| None),
            Sight::Clear
        );
        map.set_hexside(h("0303"), h("0304"), Hexside::Slope);
        let g = Ground::new(&map, &works);
        assert_eq!(
            line_of_sight(g, h("0302"), h("0306"), None, |_| None),
            Sight::Partial
        );
        map.set(
            h("0304"),
            Cell {
                terrain: Terrain::Woods,
                elevation: 0,
            },
        );
        let g = Ground::new(&map, &works);
        assert_eq!(
            line_of_sight(g, h("0302"), h("0306"), None, |_| None),
            Sight::Blocked
        );
    }
}
