//! Line of sight and cover from fire, as both Hex Command rulebooks judge them (Gunpowder
//! 7 h–7 j, 7 p, figures 1–3; Mechanized 3.7.8–3.7.9): centre to centre, hills higher than the
//! lower end block, woods, buildings and mountains stand a level above their ground, units on
//! the line block, and guns on higher ground fire over friends outside their dead zone.

use crate::ground::Ground;
use crate::lines::{Along, Cells};
pub use crate::lines::{Lines, Sight};
use volley_core::geometry::{distance, line_between};
use volley_core::map::{Hexside, Map, Terrain};
use volley_core::{Hex, Side};

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
    if let Some(lines) = g.lines {
        if let Some(sight) = lines.judge(g, from, to, side, viewer, occupant) {
            return sight;
        }
    }
    walk(g, from, to, line_between(from, to, side), viewer, occupant)
}

/// Walks the hexes between `from` and `to` (`line`, in order from `from`) and judges the sight.
fn walk(
    g: Ground,
    from: Hex,
    to: Hex,
    line: impl Iterator<Item = Hex>,
    viewer: Option<Viewer>,
    occupant: &impl Fn(Hex) -> Option<Side>,
) -> Sight {
    let (e1, e2) = (g.elevation(from), g.elevation(to));
    let low = e1.min(e2);
    let mut partial = false;
    let mut prev = from;
    for h in line {
        match obstacle(g, h, low) {
            Sight::Blocked => return Sight::Blocked,
            Sight::Partial => partial = true,
            Sight::Clear => {}
        }
        if g.hexside(prev, h) == Some(Hexside::Slope) {
            partial = true;
        }
        prev = h;
        if let Some(v) = viewer {
            if let Some(o) = occupant(h) {
                let back = distance(from, h);
                let eh = g.elevation(h);
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

/// What one hex on a line puts in the way of a sight between ends whose lower stands at `low`:
/// it blocks if it stands higher, and light woods, a fort or quick works are partial.
#[inline]
fn obstacle(g: Ground, h: Hex, low: u8) -> Sight {
    let (t, quick_works) = g.terrain_and_quick_works(h);
    if height_for_sight(g.elevation(h), t) > low {
        Sight::Blocked
    } else if matches!(t, Terrain::LightWoods | Terrain::Fort) || quick_works {
        Sight::Partial
    } else {
        Sight::Clear
    }
}

impl Lines {
    /// The sight along one line, from the remembered walk; `None` when either end is off the
    /// map, or the lines were made for a smaller map (the caller walks it).
    fn judge(
        &self,
        g: Ground,
        from: Hex,
        to: Hex,
        side: usize,
        viewer: Option<Viewer>,
        occupant: &impl Fn(Hex) -> Option<Side>,
    ) -> Option<Sight> {
        let both = || [0, 1].map(|s| Along::walked(g.map, from, to, s));
        self.0.with(g.map, from, to, both, |lines| {
            let line = &lines[side];
            match line.judge(g) {
                Sight::Blocked => Sight::Blocked,
                _ if viewer.is_some() => {
                    walk(g, from, to, line.hexes.iter().copied(), viewer, occupant)
                }
                open => open,
            }
        })
    }
}

impl Along {
    fn walked(map: &Map, from: Hex, to: Hex, side: usize) -> Along {
        let bare = Ground::bare(map);
        let hexes: Box<[Hex]> = line_between(from, to, side).collect();
        let low = map.elevation(from).min(map.elevation(to));
        let obstacles: Box<[Sight]> = hexes.iter().map(|&h| obstacle(bare, h, low)).collect();
        let ends = std::iter::once(&from)
            .chain(hexes.iter())
            .zip(hexes.iter().chain([&to]));
        let slope = ends
            .into_iter()
            .any(|(&a, &b)| map.hexside(a, b) == Some(Hexside::Slope));
        let none = |_: Hex| None;
        Along {
            bare: walk(bare, from, to, hexes.iter().copied(), None, &none),
            cells: Cells::of(map, hexes.iter().copied()),
            obstacles,
            hexes,
            low,
            slope,
        }
    }

    /// The sight along the line over `g`'s works (its units aside): the hexes that may hold a
    /// work are judged again, the others as the bare map has them.
    fn judge(&self, g: Ground) -> Sight {
        if !self.cells.meets(&g.works_mask) {
            return self.bare;
        }
        let mut worst = if self.slope {
            Sight::Partial
        } else {
            Sight::Clear
        };
        for (&h, &bare) in self.hexes.iter().zip(self.obstacles.iter()) {
            let here = if g.works_mask.holds(g.map, h) {
                obstacle(g, h, self.low)
            } else {
                bare
            };
            worst = worst.max(here);
            if worst == Sight::Blocked {
                break;
            }
        }
        worst
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

    /// A remembered line judges as a fresh walk does, for every pair of hexes, with and
    /// without units on the line, and still after the works on the map change under it: on a
    /// map small enough for [`Cells`] to be exact and on one where they only filter.
    #[test]
    fn a_remembered_line_judges_as_a_fresh_walk() {
        use crate::ground::{Work, WorkKind};
        use volley_core::geometry::hex_at;
        use volley_core::map::Hexside;
        for (width, height) in [(12, 10), (20, 16)] {
            let mut map = Map::open(width, height);
            let hexes: Vec<Hex> = map.hexes().collect();
            for (k, &hx) in hexes.iter().enumerate() {
                let terrain = match (k * 7 + k / 5) % 13 {
                    0 | 1 => Terrain::Woods,
                    2 => Terrain::LightWoods,
                    3 => Terrain::Town,
                    4 => Terrain::Water,
                    5 => Terrain::Fort,
                    6 => Terrain::Mountain,
                    _ => Terrain::Clear,
                };
                let elevation = u8::from(k % 11 == 3) + u8::from(k % 17 == 5);
                map.set(hx, Cell { terrain, elevation });
                if k % 9 == 4 {
                    if let Some(&next) = hexes.get(k + 1) {
                        if distance(hx, next) == 1 {
                            map.set_hexside(hx, next, Hexside::Slope);
                        }
                    }
                }
            }
            let work = |c, r, kind, progress, damage| Work {
                hex: hex_at(c, r),
                kind,
                side: Side::Red,
                progress,
                damage,
            };
            let mut works = Works::of_map(&map);
            works.0.extend([
                work(4, 4, WorkKind::Redoubt, 6, 0),
                work(6, 5, WorkKind::QuickWorks, 4, 0),
                work(5, 7, WorkKind::QuickWorks, 2, 0),
                work(8, 3, WorkKind::Pontoon, 3, 0),
            ]);
            let occupant = |h: Hex| match (h.x + 2 * h.y).rem_euclid(7) {
                0 => Some(Side::Red),
                1 => Some(Side::Blue),
                _ => None,
            };
            let viewer = Viewer {
                side: Side::Red,
                fires_over: true,
            };
            let lines = Lines::new(&map);
            let mut judged = [0usize; 3];
            for round in 0..3 {
                if round == 1 {
                    // Works change under the remembered lines: the redoubt is battered down,
                    // the unfinished quick works are finished, and a new work goes up.
                    works.0[0].damage = 9;
                    works.0.iter_mut().for_each(|w| w.progress = w.kind.turns());
                    works.0.push(work(7, 6, WorkKind::Redoubt, 6, 0));
                }
                if round == 2 {
                    works.0.clear();
                }
                let fresh = Ground::new(&map, &works);
                let kept = Ground::remembering(&map, &works, &lines);
                for &a in hexes.iter().step_by(3) {
                    for &b in &hexes {
                        let want = line_of_sight(fresh, a, b, None, |_| None);
                        assert_eq!(line_of_sight(kept, a, b, None, |_| None), want);
                        judged[want as usize] += 1;
                        let want = line_of_sight(fresh, a, b, Some(viewer), occupant);
                        assert_eq!(line_of_sight(kept, a, b, Some(viewer), occupant), want);
                    }
                }
            }
            // The map is varied enough for every verdict to be tried.
            assert!(judged.iter().all(|&n| n > 100), "{judged:?}");
        }
    }
}
