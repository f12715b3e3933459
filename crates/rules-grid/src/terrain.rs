//! Terrain: what each kind of tile does to movement, cover and line of sight, and the ground
//! around every tile of the map, worked out once. The map codes are the engine's
//! (`volley_core::map::Terrain`); a hill is any tile with an elevation.

use crate::tiles::{self, Heading};
use crate::unit_data::Kind;
use volley_core::map::{Cell, Hexside, Map, Terrain};
use volley_core::Hex;

/// The map codes this ruleset reads; light woods and forts are not in the text.
pub const USED: [Terrain; 9] = [
    Terrain::Clear,
    Terrain::Woods,
    Terrain::Town,
    Terrain::Water,
    Terrain::Bridge,
    Terrain::Ford,
    Terrain::Marsh,
    Terrain::Rough,
    Terrain::Mountain,
];

/// Whether a unit of `kind` may enter (or be placed in) terrain, and if not, why.
pub fn entry(kind: Kind, terrain: Terrain) -> Result<(), &'static str> {
    match terrain {
        Terrain::Water => Err("rivers are impassable except at bridges or fords (Terrain: River)"),
        Terrain::Marsh => Err("swamps are impassable (Terrain: Swamps)"),
        Terrain::Mountain => Err("mountains are impassable (Terrain: Mountain)"),
        Terrain::Woods if !kind.is_infantry() => {
            Err("only infantry may enter forest (Terrain: Forest)")
        }
        Terrain::Town if !kind.is_infantry() => {
            Err("only infantry may occupy a built-up area (Terrain: Built-Up-Area)")
        }
        _ => Ok(()),
    }
}

/// A stream drawn along a tile side is a river there: crossed only where a bridge or ford
/// tile touches it.
pub fn side_crossable(map: &Map, a: Hex, b: Hex) -> bool {
    map.hexside(a, b) != Some(Hexside::Stream)
        || [a, b]
            .iter()
            .any(|t| matches!(map.terrain(*t), Terrain::Bridge | Terrain::Ford))
}

/// A tile across one side of another.
#[derive(Clone, Copy, Debug)]
pub struct Beside {
    /// The side of the other tile it lies across.
    pub heading: Heading,
    pub tile: Hex,
    /// Its place in per-cell arrays ([`Map::index`]).
    pub cell: usize,
    /// Its terrain and elevation.
    pub ground: Cell,
    /// Whether the side between the two may be crossed ([`side_crossable`]).
    pub crossable: bool,
}

/// A tile's own terrain and elevation, and the tiles beside it (in heading order).
#[derive(Debug)]
pub struct Surroundings {
    pub ground: Cell,
    pub beside: Vec<Beside>,
}

/// The surroundings of every tile of a map, per cell, worked out once when the scenario is
/// read. Every listing of moves asks what lies beside every unit and what ground it stands
/// on, and the map answers each such question by converting coordinates; this answers from
/// an array.
#[derive(Debug)]
pub struct Neighbourhood(Vec<Surroundings>);

impl Neighbourhood {
    pub fn of(map: &Map) -> Neighbourhood {
        let cells = map
            .hexes()
            .map(|tile| Surroundings {
                ground: map.cell(tile).expect("a tile of the map"),
                beside: tiles::neighbours(map, tile)
                    .map(|(heading, t)| Beside {
                        heading,
                        tile: t,
                        cell: map.index(t).expect("neighbours are on the map"),
                        ground: map.cell(t).expect("neighbours are on the map"),
                        crossable: side_crossable(map, tile, t),
                    })
                    .collect(),
            })
            .collect();
        Neighbourhood(cells)
    }

    /// The surroundings of a tile, by the tile's cell.
    pub fn of_cell(&self, cell: usize) -> &Surroundings {
        &self.0[cell]
    }
}

/// Forest and built-up areas: the close terrain the text treats alike for fire into and out
/// of it, and for close combat into it.
pub fn is_close(terrain: Terrain) -> bool {
    matches!(terrain, Terrain::Woods | Terrain::Town)
}

/// Cover (the -1 to ranged attacks): forest and built-up areas for everyone, rough/field for
/// light infantry only.
pub fn in_cover(kind: Kind, terrain: Terrain) -> bool {
    is_close(terrain) || (terrain == Terrain::Rough && kind == Kind::LightInfantry)
}

/// Whether a tile on the line between two tiles blocks sight. Forest, built-up areas and
/// mountains block what is behind them. High ground blocks what lies behind it: a tile
/// higher than the lower end and at least as high as the higher end, so units on a hill's
/// near edge are seen and units behind its crest are not, units on one plateau see each
/// other, and a unit on a crest sees down its own slope (the tiles below it there are lower
/// than it).
pub fn blocks_sight(map: &Map, between: Hex, a: Hex, b: Hex) -> bool {
    let (ea, eb) = (map.elevation(a), map.elevation(b));
    let height = map.elevation(between);
    matches!(
        map.terrain(between),
        Terrain::Woods | Terrain::Town | Terrain::Mountain
    ) || (height > ea.min(eb) && height >= ea.max(eb))
}

/// Line of sight, centre to centre, open when either reading of the line is clear.
pub fn line_of_sight(map: &Map, a: Hex, b: Hex) -> bool {
    tiles::lines_between(map.grid, a, b)
        .iter()
        .any(|line| line.iter().all(|t| !blocks_sight(map, *t, a, b)))
}

/// A tile of forest or town on the edge of its area: beside a tile of some other terrain.
pub fn on_edge(map: &Map, tile: Hex) -> bool {
    let here = map.terrain(tile);
    tiles::neighbours(map, tile).any(|(_, t)| map.terrain(t) != here)
}

/// How hills (and rough, for cavalry) reduce movement by 1 tile (Terrain: Hill,
/// Rough/Field; the option `terrain_cost`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TerrainCost {
    /// By 1 for the whole move, however many such tiles it enters.
    Once,
    /// By 1 for each such tile entered (it costs two).
    PerTile,
}

impl TerrainCost {
    /// The tiles of movement taken away by `entered` tiles of one kind of slowing ground.
    fn of(self, entered: u8) -> u8 {
        match self {
            TerrainCost::Once => entered.min(1),
            TerrainCost::PerTile => entered,
        }
    }
}

/// What the ground crossed so far does to a unit's movement this turn (Terrain).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Going {
    /// Hill tiles entered: movement reduced by 1 (or by 1 for each, with option
    /// `terrain_cost = "per-tile"`).
    pub hills: u8,
    /// Rough/field tiles entered: cavalry movement reduced by 1 (or by 1 for each).
    pub rough: u8,
    /// Started in or entered forest: movement reduced to 1 tile.
    pub forest: bool,
}

impl Going {
    /// The going of a unit that has not left the ground it stands on yet: only forest slows a
    /// unit where it stands (a hill or rough field counts when entered).
    pub fn starting_on(ground: Cell) -> Going {
        Going {
            forest: ground.terrain == Terrain::Woods,
            ..Going::default()
        }
    }

    /// The going after also entering ground of this terrain and elevation.
    pub fn with(self, ground: Cell) -> Going {
        Going {
            hills: self.hills.saturating_add(u8::from(ground.elevation > 0)),
            rough: self
                .rough
                .saturating_add(u8::from(ground.terrain == Terrain::Rough)),
            forest: self.forest || ground.terrain == Terrain::Woods,
        }
    }

    /// The tiles a unit with `movement` may move this turn over this going.
    pub fn allowance(self, kind: Kind, movement: u8, cost: TerrainCost) -> u8 {
        let mut tiles = movement
            .saturating_sub(cost.of(self.hills))
            .saturating_sub(self.rough_cost(kind, cost));
        if self.forest {
            tiles = tiles.min(1);
        }
        tiles
    }

    /// The tiles of movement the rough entered takes from a unit of `kind`: cavalry only.
    fn rough_cost(self, kind: Kind, cost: TerrainCost) -> u8 {
        if kind == Kind::Cavalry {
            cost.of(self.rough)
        } else {
            0
        }
    }

    /// Why the allowance is what it is, for messages.
    pub fn describe(self, kind: Kind, cost: TerrainCost) -> String {
        let mut why = Vec::new();
        if self.hills > 0 {
            why.push(format!("hill -{}", cost.of(self.hills)));
        }
        if self.rough_cost(kind, cost) > 0 {
            why.push(format!(
                "rough -{} for cavalry",
                self.rough_cost(kind, cost)
            ));
        }
        if self.forest {
            why.push("forest: 1 tile".to_string());
        }
        if why.is_empty() {
            String::new()
        } else {
            format!(" ({})", why.join(", "))
        }
    }
}
