//! The battlefield: terrain per hex, elevation, roads and hexside obstacles. Shared by every
//! hex ruleset; each ruleset decides what the terrain does to its units.

use crate::geometry::{col_row, hex_at, label};
use hexx::Hex;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

/// Terrain of a hex. Scenario maps write each hex as one character, optionally followed by a
/// digit for its elevation: `.` clear, `W` woods (forest), `w` light woods, `T` town
/// (buildings), `~` water (river), `=` bridge, `f` ford, `m` marsh, `r` rough, `M` mountain,
/// `F` fort; `.1` is a clear hill, `W1` a forested hill.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Terrain {
    Clear,
    Woods,
    LightWoods,
    Town,
    Water,
    Bridge,
    Ford,
    Marsh,
    Rough,
    Mountain,
    Fort,
}

impl Terrain {
    pub const ALL: [Terrain; 11] = [
        Terrain::Clear,
        Terrain::Woods,
        Terrain::LightWoods,
        Terrain::Town,
        Terrain::Water,
        Terrain::Bridge,
        Terrain::Ford,
        Terrain::Marsh,
        Terrain::Rough,
        Terrain::Mountain,
        Terrain::Fort,
    ];

    pub fn code(self) -> char {
        match self {
            Terrain::Clear => '.',
            Terrain::Woods => 'W',
            Terrain::LightWoods => 'w',
            Terrain::Town => 'T',
            Terrain::Water => '~',
            Terrain::Bridge => '=',
            Terrain::Ford => 'f',
            Terrain::Marsh => 'm',
            Terrain::Rough => 'r',
            Terrain::Mountain => 'M',
            Terrain::Fort => 'F',
        }
    }

    pub fn from_code(c: char) -> Option<Terrain> {
        Terrain::ALL.into_iter().find(|t| t.code() == c)
    }

    pub fn name(self) -> &'static str {
        match self {
            Terrain::Clear => "clear",
            Terrain::Woods => "woods",
            Terrain::LightWoods => "light woods",
            Terrain::Town => "town",
            Terrain::Water => "water",
            Terrain::Bridge => "bridge",
            Terrain::Ford => "ford",
            Terrain::Marsh => "marsh",
            Terrain::Rough => "rough",
            Terrain::Mountain => "mountain",
            Terrain::Fort => "fort",
        }
    }
}

/// One hex of the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    pub terrain: Terrain,
    /// 0 is the plain; 1 a hill; 2 a higher hill.
    pub elevation: u8,
}

/// A feature along a hexside.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Hexside {
    Wall,
    Hedge,
    Fence,
    Stream,
}

impl Hexside {
    pub fn parse(text: &str) -> Option<Hexside> {
        Some(match text {
            "wall" => Hexside::Wall,
            "hedge" => Hexside::Hedge,
            "fence" => Hexside::Fence,
            "stream" => Hexside::Stream,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Hexside::Wall => "wall",
            Hexside::Hedge => "hedge",
            Hexside::Fence => "fence",
            Hexside::Stream => "stream",
        }
    }
}

fn edge(a: Hex, b: Hex) -> (Hex, Hex) {
    if (a.x, a.y) <= (b.x, b.y) {
        (a, b)
    } else {
        (b, a)
    }
}

/// The kind of grid: hexes (every ruleset) or square tiles (Rules v1.1 allows both). Square
/// tiles are stored under the same column/row labels; their adjacency is the ruleset's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Grid {
    #[default]
    Hex,
    Square,
}

/// The whole map: `width` columns by `height` rows of hexes (or tiles).
#[derive(Clone, Debug)]
pub struct Map {
    pub grid: Grid,
    pub width: i32,
    pub height: i32,
    cells: Vec<Cell>,
    roads: HashSet<(Hex, Hex)>,
    road_hexes: HashSet<Hex>,
    hexsides: HashMap<(Hex, Hex), Hexside>,
}

impl Map {
    /// An all-clear map.
    pub fn open(width: i32, height: i32) -> Map {
        Map {
            grid: Grid::Hex,
            width,
            height,
            cells: vec![
                Cell {
                    terrain: Terrain::Clear,
                    elevation: 0
                };
                (width * height) as usize
            ],
            roads: HashSet::new(),
            road_hexes: HashSet::new(),
            hexsides: HashMap::new(),
        }
    }

    fn index(&self, hex: Hex) -> Option<usize> {
        let (c, r) = col_row(hex);
        (c >= 1 && r >= 1 && c <= self.width && r <= self.height)
            .then(|| ((r - 1) * self.width + (c - 1)) as usize)
    }

    pub fn contains(&self, hex: Hex) -> bool {
        self.index(hex).is_some()
    }

    pub fn cell(&self, hex: Hex) -> Option<Cell> {
        self.index(hex).map(|i| self.cells[i])
    }

    pub fn terrain(&self, hex: Hex) -> Terrain {
        self.cell(hex).map_or(Terrain::Clear, |c| c.terrain)
    }

    pub fn elevation(&self, hex: Hex) -> u8 {
        self.cell(hex).map_or(0, |c| c.elevation)
    }

    pub fn set(&mut self, hex: Hex, cell: Cell) {
        if let Some(i) = self.index(hex) {
            self.cells[i] = cell;
        }
    }

    pub fn add_road(&mut self, a: Hex, b: Hex) {
        self.roads.insert(edge(a, b));
        self.road_hexes.insert(a);
        self.road_hexes.insert(b);
    }

    /// Whether a road runs from `a` straight into the adjacent hex `b`.
    pub fn road_between(&self, a: Hex, b: Hex) -> bool {
        self.roads.contains(&edge(a, b))
    }

    pub fn has_road(&self, hex: Hex) -> bool {
        self.road_hexes.contains(&hex)
    }

    pub fn set_hexside(&mut self, a: Hex, b: Hex, feature: Hexside) {
        self.hexsides.insert(edge(a, b), feature);
    }

    pub fn hexside(&self, a: Hex, b: Hex) -> Option<Hexside> {
        self.hexsides.get(&edge(a, b)).copied()
    }

    /// Every hex on the map, row by row.
    pub fn hexes(&self) -> impl Iterator<Item = Hex> + '_ {
        (1..=self.height).flat_map(move |r| (1..=self.width).map(move |c| hex_at(c, r)))
    }

    /// The map as a scenario writes it (also what views carry to clients).
    pub fn to_view(&self) -> MapView {
        let rows = (1..=self.height)
            .map(|r| {
                (1..=self.width)
                    .map(|c| {
                        let cell = self.cells[((r - 1) * self.width + (c - 1)) as usize];
                        if cell.elevation > 0 {
                            format!("{}{}", cell.terrain.code(), cell.elevation)
                        } else {
                            cell.terrain.code().to_string()
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        let mut roads: Vec<[String; 2]> = self
            .roads
            .iter()
            .map(|(a, b)| [label(*a), label(*b)])
            .collect();
        roads.sort();
        let mut hexsides: Vec<HexsideView> = self
            .hexsides
            .iter()
            .map(|((a, b), f)| HexsideView {
                between: [label(*a), label(*b)],
                kind: f.name().to_string(),
            })
            .collect();
        hexsides.sort_by(|x, y| x.between.cmp(&y.between));
        MapView {
            grid: self.grid,
            width: self.width,
            height: self.height,
            rows,
            roads,
            hexsides,
        }
    }
}

/// The map in a view: terrain rows in scenario notation, roads as hex pairs, hexside features.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MapView {
    pub grid: Grid,
    pub width: i32,
    pub height: i32,
    pub rows: Vec<String>,
    pub roads: Vec<[String; 2]>,
    pub hexsides: Vec<HexsideView>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HexsideView {
    pub between: [String; 2],
    pub kind: String,
}
