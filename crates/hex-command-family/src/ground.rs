//! The ground as the rules see it during play: the scenario's map, changed by what the armies
//! build on it (Gunpowder Constructions chart: pontoon bridges, redoubts, quick works) and by
//! guns battering defensive structures (Gunpowder section 3).
//!
//! The map is shared by every copy of a game; what is built is kept with the position, as a
//! short list (a battle has a handful of works), and every question about terrain goes
//! through [`Ground`], which lays the works over the map.

use crate::lines::{Cells, Lines};
use volley_core::geometry::label;
use volley_core::map::{Hexside, Map, Terrain};
use volley_core::{Hex, Side};

/// Something the armies build (Constructions chart) or a fortification the map already has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WorkKind {
    /// Built over a water hex from the bank beside it: the water becomes a bridge.
    Pontoon,
    /// A closed earthwork: the hex counts as a fort (double cover).
    Redoubt,
    /// Hasty breastworks: one cover and a partial obstacle to sight.
    QuickWorks,
    /// A fort drawn on the map (it can be battered, never built).
    Fort,
}

impl WorkKind {
    pub const BUILDABLE: [WorkKind; 3] =
        [WorkKind::Pontoon, WorkKind::Redoubt, WorkKind::QuickWorks];

    pub fn parse(text: &str) -> Option<WorkKind> {
        match text {
            "pontoon" => Some(WorkKind::Pontoon),
            "redoubt" => Some(WorkKind::Redoubt),
            "quick-works" => Some(WorkKind::QuickWorks),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            WorkKind::Pontoon => "pontoon",
            WorkKind::Redoubt => "redoubt",
            WorkKind::QuickWorks => "quick-works",
            WorkKind::Fort => "fort",
        }
    }

    /// Constructions chart: turns of work to finish it.
    pub fn turns(self) -> u8 {
        match self {
            WorkKind::Pontoon => 3,
            WorkKind::Redoubt => 6,
            WorkKind::QuickWorks => 4,
            WorkKind::Fort => 0,
        }
    }

    /// How many hits from guns a defensive structure takes before it no longer shelters anyone
    /// (Volley's numbers: the chart gives none).
    pub fn strength(self) -> u8 {
        match self {
            WorkKind::Fort => 4,
            WorkKind::Redoubt => 3,
            WorkKind::QuickWorks => 2,
            WorkKind::Pontoon => 0,
        }
    }

    /// Whether guns must get through it to hit those inside (section 3, Classes).
    pub fn defensive(self) -> bool {
        self != WorkKind::Pontoon
    }
}

/// One construction on the map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Work {
    pub hex: Hex,
    pub kind: WorkKind,
    /// The side that built it (for a fort on the map, nobody in particular: red).
    pub side: Side,
    /// Turns of work put in so far.
    pub progress: u8,
    /// Hits taken from guns.
    pub damage: u8,
}

impl Work {
    pub fn complete(&self) -> bool {
        self.progress >= self.kind.turns()
    }

    /// Still standing as a defence: complete and not battered down.
    pub fn standing(&self) -> bool {
        self.complete() && (!self.kind.defensive() || self.damage < self.kind.strength())
    }

    pub fn text(&self) -> String {
        let state = if !self.complete() {
            format!(", {} of {} turns built", self.progress, self.kind.turns())
        } else if self.kind.defensive() && self.damage > 0 {
            format!(", {} of {} hits taken", self.damage, self.kind.strength())
        } else {
            String::new()
        };
        format!("{} at {}{state}", self.kind.name(), label(self.hex))
    }
}

/// The works on the map, kept with the position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Works(pub Vec<Work>);

impl Works {
    /// The forts drawn on a map, as works that guns can batter.
    pub fn of_map(map: &Map) -> Works {
        Works(
            map.hexes()
                .filter(|&h| map.terrain(h) == Terrain::Fort)
                .map(|hex| Work {
                    hex,
                    kind: WorkKind::Fort,
                    side: Side::Red,
                    progress: 0,
                    damage: 0,
                })
                .collect(),
        )
    }

    pub fn at(&self, hex: Hex) -> Option<&Work> {
        self.0.iter().find(|w| w.hex == hex)
    }

    pub fn at_mut(&mut self, hex: Hex) -> Option<&mut Work> {
        self.0.iter_mut().find(|w| w.hex == hex)
    }

    /// The standing defensive work in a hex, if any.
    pub fn defence(&self, hex: Hex) -> Option<&Work> {
        self.at(hex).filter(|w| w.kind.defensive() && w.standing())
    }
}

/// The map with the works laid over it.
#[derive(Clone, Copy)]
pub struct Ground<'a> {
    pub map: &'a Map,
    pub works: &'a Works,
    /// The lines of sight already walked on this map, when the game keeps them
    /// ([`Ground::remembering`]).
    pub lines: Option<&'a Lines>,
    /// One bit per work, by its cell's index modulo 256 ([`Cells`]): a remembered line whose
    /// hexes share no bit with it has no work on it.
    pub(crate) works_mask: Cells,
}

impl<'a> Ground<'a> {
    pub fn new(map: &'a Map, works: &'a Works) -> Ground<'a> {
        Ground {
            map,
            works,
            lines: None,
            works_mask: Cells::default(),
        }
    }

    /// The ground of a game that keeps `lines` with its map (in its shared set-up), so each
    /// line of sight is walked hex by hex once a game rather than at every question.
    pub fn remembering(map: &'a Map, works: &'a Works, lines: &'a Lines) -> Ground<'a> {
        let works_mask = Cells::of(map, works.0.iter().map(|w| w.hex));
        Ground {
            map,
            works,
            lines: Some(lines),
            works_mask,
        }
    }

    /// The bare map, without works: what a remembered line is judged on.
    pub(crate) fn bare(map: &'a Map) -> Ground<'a> {
        static NONE: Works = Works(Vec::new());
        Ground::new(map, &NONE)
    }

    /// The terrain a unit meets: a finished pontoon makes water a bridge, a standing redoubt
    /// makes its hex a fort, and a fort battered down is open ground strewn with rubble.
    #[inline]
    pub fn terrain(&self, h: Hex) -> Terrain {
        let t = self.map.terrain(h);
        if self.works.0.is_empty() {
            return t;
        }
        laid_over(t, self.works.at(h))
    }

    #[inline]
    pub fn elevation(&self, h: Hex) -> u8 {
        self.map.elevation(h)
    }

    #[inline]
    pub fn hexside(&self, a: Hex, b: Hex) -> Option<Hexside> {
        self.map.hexside(a, b)
    }

    /// Quick works standing in the hex: one cover, and a partial obstacle to sight.
    #[inline]
    pub fn quick_works(&self, h: Hex) -> bool {
        !self.works.0.is_empty() && self.works.at(h).is_some_and(quick_works_standing)
    }

    /// [`Ground::terrain`] and [`Ground::quick_works`] with one look at the works: what a
    /// line of sight asks of every hex it crosses, many times a decision.
    #[inline]
    pub fn terrain_and_quick_works(&self, h: Hex) -> (Terrain, bool) {
        let t = self.map.terrain(h);
        if self.works.0.is_empty() {
            return (t, false);
        }
        let w = self.works.at(h);
        (laid_over(t, w), w.is_some_and(quick_works_standing))
    }
}

/// The terrain of a hex with the work in it, if any, laid over.
#[inline]
fn laid_over(t: Terrain, work: Option<&Work>) -> Terrain {
    match work {
        Some(w) if w.kind == WorkKind::Pontoon && w.complete() && t == Terrain::Water => {
            Terrain::Bridge
        }
        Some(w) if w.kind == WorkKind::Redoubt && w.standing() => Terrain::Fort,
        Some(w) if w.kind == WorkKind::Fort && !w.standing() => Terrain::Rough,
        _ => t,
    }
}

#[inline]
fn quick_works_standing(w: &Work) -> bool {
    w.kind == WorkKind::QuickWorks && w.standing()
}

#[cfg(test)]
mod tests {
    use super::*;
    use volley_core::geometry::parse_label;
    use volley_core::map::Cell;

    #[test]
    fn a_finished_pontoon_bridges_water_and_a_battered_fort_is_open() {
        let mut map = Map::open(4, 4);
        let (w, f) = (parse_label("0202").unwrap(), parse_label("0303").unwrap());
        map.set(
            w,
            Cell {
                terrain: Terrain::Water,
                elevation: 0,
            },
        );
        map.set(
            f,
            Cell {
                terrain: Terrain::Fort,
                elevation: 0,
            },
        );
        let mut works = Works::of_map(&map);
        works.0.push(Work {
            hex: w,
            kind: WorkKind::Pontoon,
            side: Side::Blue,
            progress: 2,
            damage: 0,
        });
        assert_eq!(Ground::new(&map, &works).terrain(w), Terrain::Water);
        works.at_mut(w).unwrap().progress = 3;
        assert_eq!(Ground::new(&map, &works).terrain(w), Terrain::Bridge);
        assert_eq!(Ground::new(&map, &works).terrain(f), Terrain::Fort);
        works.at_mut(f).unwrap().damage = 4;
        assert_eq!(Ground::new(&map, &works).terrain(f), Terrain::Rough);
    }
}
