//! The battlefield: terrain per hex, elevation, roads and hexside obstacles. Shared by every
//! hex ruleset; each ruleset decides what the terrain does to its units.

use crate::geometry::{col_row, hex_at, label};
use hexx::Hex;
use serde::{Deserialize, Serialize};

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
    /// A steep slope or bank between two hexes: it hides part of what lies beyond it.
    Slope,
}

impl Hexside {
    pub const ALL: [Hexside; 5] = [
        Hexside::Wall,
        Hexside::Hedge,
        Hexside::Fence,
        Hexside::Stream,
        Hexside::Slope,
    ];

    pub fn parse(text: &str) -> Option<Hexside> {
        Some(match text {
            "wall" => Hexside::Wall,
            "hedge" => Hexside::Hedge,
            "fence" => Hexside::Fence,
            "stream" => Hexside::Stream,
            "slope" => Hexside::Slope,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Hexside::Wall => "wall",
            Hexside::Hedge => "hedge",
            Hexside::Fence => "fence",
            Hexside::Stream => "stream",
            Hexside::Slope => "slope",
        }
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
///
/// Everything is kept in flat arrays over the cells, so the questions movement and sight ask
/// on every step (terrain, a road between two cells, a feature on the side between them)
/// cost an index, not a hash.
#[derive(Clone, Debug)]
pub struct Map {
    pub grid: Grid,
    pub width: i32,
    pub height: i32,
    cells: Vec<Cell>,
    /// Per cell, one byte per neighbouring cell in the 3 × 3 block of columns and rows around
    /// it (hex neighbours and square neighbours both lie there): [`ROAD`] for a road between
    /// the two, and in the low bits the feature on the side between them (a [`Hexside`] index
    /// plus one; 0 for none). Both cells of a pair record it.
    edges: Vec<[u8; 9]>,
    road_cells: Vec<bool>,
}

const ROAD: u8 = 0x80;
const FEATURE: u8 = 0x0f;

impl Map {
    /// An all-clear map.
    pub fn open(width: i32, height: i32) -> Map {
        let n = (width.max(0) * height.max(0)) as usize;
        Map {
            grid: Grid::Hex,
            width,
            height,
            cells: vec![
                Cell {
                    terrain: Terrain::Clear,
                    elevation: 0
                };
                n
            ],
            edges: vec![[0; 9]; n],
            road_cells: vec![false; n],
        }
    }

    /// The cell's place in the flat arrays, for a hex on the map.
    #[inline]
    pub fn index(&self, hex: Hex) -> Option<usize> {
        let (c, r) = col_row(hex);
        (c >= 1 && r >= 1 && c <= self.width && r <= self.height)
            .then(|| ((r - 1) * self.width + (c - 1)) as usize)
    }

    /// The number of cells (the length of per-cell arrays a ruleset keeps).
    #[inline]
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }

    /// The cell index of `a` and the slot of `b` among its neighbours, when both are on the
    /// map and within one column and one row of each other.
    #[inline]
    fn edge(&self, a: Hex, b: Hex) -> Option<(usize, usize)> {
        let i = self.index(a)?;
        self.index(b)?;
        let ((ca, ra), (cb, rb)) = (col_row(a), col_row(b));
        let (dc, dr) = (cb - ca, rb - ra);
        (dc.abs() <= 1 && dr.abs() <= 1 && (dc, dr) != (0, 0))
            .then(|| (i, ((dc + 1) * 3 + dr + 1) as usize))
    }

    fn mark_edge(&mut self, a: Hex, b: Hex, set: impl Fn(u8) -> u8) -> bool {
        match (self.edge(a, b), self.edge(b, a)) {
            (Some((i, x)), Some((j, y))) => {
                self.edges[i][x] = set(self.edges[i][x]);
                self.edges[j][y] = set(self.edges[j][y]);
                true
            }
            _ => false,
        }
    }

    #[inline]
    fn edge_byte(&self, a: Hex, b: Hex) -> u8 {
        self.edge(a, b).map_or(0, |(i, x)| self.edges[i][x])
    }

    #[inline]
    pub fn contains(&self, hex: Hex) -> bool {
        self.index(hex).is_some()
    }

    #[inline]
    pub fn cell(&self, hex: Hex) -> Option<Cell> {
        self.index(hex).map(|i| self.cells[i])
    }

    #[inline]
    pub fn terrain(&self, hex: Hex) -> Terrain {
        self.cell(hex).map_or(Terrain::Clear, |c| c.terrain)
    }

    #[inline]
    pub fn elevation(&self, hex: Hex) -> u8 {
        self.cell(hex).map_or(0, |c| c.elevation)
    }

    pub fn set(&mut self, hex: Hex, cell: Cell) {
        if let Some(i) = self.index(hex) {
            self.cells[i] = cell;
        }
    }

    /// A road between two neighbouring cells (ignored unless both are on the map).
    pub fn add_road(&mut self, a: Hex, b: Hex) {
        if self.mark_edge(a, b, |e| e | ROAD) {
            for h in [a, b] {
                let i = self.index(h).expect("on the map");
                self.road_cells[i] = true;
            }
        }
    }

    /// Whether a road runs from `a` straight into the adjacent hex `b`.
    #[inline]
    pub fn road_between(&self, a: Hex, b: Hex) -> bool {
        self.edge_byte(a, b) & ROAD != 0
    }

    #[inline]
    pub fn has_road(&self, hex: Hex) -> bool {
        self.index(hex).is_some_and(|i| self.road_cells[i])
    }

    pub fn set_hexside(&mut self, a: Hex, b: Hex, feature: Hexside) {
        let code = Hexside::ALL
            .iter()
            .position(|&f| f == feature)
            .expect("every feature is listed") as u8
            + 1;
        self.mark_edge(a, b, |e| (e & !FEATURE) | code);
    }

    /// Takes away the feature along a hexside (a wall demolished), keeping any road.
    pub fn remove_hexside(&mut self, a: Hex, b: Hex) {
        self.mark_edge(a, b, |e| e & !FEATURE);
    }

    #[inline]
    pub fn hexside(&self, a: Hex, b: Hex) -> Option<Hexside> {
        match self.edge_byte(a, b) & FEATURE {
            0 => None,
            code => Some(Hexside::ALL[code as usize - 1]),
        }
    }

    /// Every hex on the map, row by row.
    pub fn hexes(&self) -> impl Iterator<Item = Hex> + '_ {
        (1..=self.height).flat_map(move |r| (1..=self.width).map(move |c| hex_at(c, r)))
    }

    /// Each pair of neighbouring cells once (the one of lower column, then row, first), with
    /// the byte that pair carries.
    fn edge_pairs(&self) -> Vec<(Hex, Hex, u8)> {
        let mut out = Vec::new();
        for a in self.hexes() {
            let (ca, ra) = col_row(a);
            for dc in -1..=1 {
                for dr in -1..=1 {
                    let b = hex_at(ca + dc, ra + dr);
                    let later = (ca + dc, ra + dr) > (ca, ra);
                    if later && self.contains(b) && (dc, dr) != (0, 0) {
                        let byte = self.edge_byte(a, b);
                        if byte != 0 {
                            out.push((a, b, byte));
                        }
                    }
                }
            }
        }
        out
    }

    /// The map as a scenario writes it (also what views carry to clients). Rulesets make it
    /// once, when the scenario is read, and share it among all views.
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
        let pairs = self.edge_pairs();
        let mut roads: Vec<[String; 2]> = pairs
            .iter()
            .filter(|(_, _, e)| e & ROAD != 0)
            .map(|(a, b, _)| [label(*a), label(*b)])
            .collect();
        roads.sort();
        let mut hexsides: Vec<HexsideView> = pairs
            .iter()
            .filter(|(_, _, e)| e & FEATURE != 0)
            .map(|(a, b, e)| HexsideView {
                between: [label(*a), label(*b)],
                kind: Hexside::ALL[(e & FEATURE) as usize - 1].name().to_string(),
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

/// Who stands in each cell of a map: the keys of the units in a hex, in ascending order, kept
/// as they move. A ruleset keeps one with its position so that "who is in this hex" is a
/// lookup, not a walk over every unit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Occupants {
    cells: Vec<Vec<usize>>,
}

impl Occupants {
    /// The index of units standing where `placed` says (each key once; a key with no hex is
    /// not on the map).
    pub fn new(map: &Map, placed: impl IntoIterator<Item = (usize, Option<Hex>)>) -> Occupants {
        let mut o = Occupants {
            cells: vec![Vec::new(); map.cell_count()],
        };
        for (key, hex) in placed {
            if let Some(hex) = hex {
                o.place(map, key, hex);
            }
        }
        o
    }

    /// The keys in a hex, in ascending order (none off the map).
    #[inline]
    pub fn at(&self, map: &Map, hex: Hex) -> &[usize] {
        map.index(hex).map_or(&[], |c| &self.cells[c])
    }

    /// The keys in a cell ([`Map::index`]), in ascending order.
    #[inline]
    pub fn in_cell(&self, cell: usize) -> &[usize] {
        &self.cells[cell]
    }

    /// The keys of every occupied cell.
    pub fn occupied(&self) -> impl Iterator<Item = &[usize]> {
        self.cells
            .iter()
            .filter(|k| !k.is_empty())
            .map(Vec::as_slice)
    }

    /// Puts a key in a hex of the map.
    #[inline]
    pub fn place(&mut self, map: &Map, key: usize, hex: Hex) {
        let keys = &mut self.cells[Self::cell(map, hex)];
        let at = keys.partition_point(|&k| k < key);
        keys.insert(at, key);
    }

    /// Takes a key out of a hex of the map: it is moving, or it has left the map.
    #[inline]
    pub fn lift(&mut self, map: &Map, key: usize, hex: Hex) {
        self.cells[Self::cell(map, hex)].retain(|&k| k != key);
    }

    /// Whether the index lists exactly the units `placed` puts on the map (an invariant of the
    /// position that keeps it): the first cell that differs, in words.
    pub fn check(
        &self,
        map: &Map,
        placed: impl IntoIterator<Item = (usize, Option<Hex>)>,
    ) -> Result<(), String> {
        let fresh = Occupants::new(map, placed);
        match (0..self.cells.len()).find(|&c| self.cells[c] != fresh.cells[c]) {
            None => Ok(()),
            Some(c) => Err(format!(
                "cell {c} lists units {:?}, but {:?} are there",
                self.cells[c], fresh.cells[c]
            )),
        }
    }

    #[inline]
    fn cell(map: &Map, hex: Hex) -> usize {
        map.index(hex)
            .unwrap_or_else(|| panic!("a unit placed off the map, at {}", label(hex)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn occupants_keep_each_hexs_keys_in_order_as_units_move() {
        let map = Map::open(4, 3);
        let (a, b) = (hex_at(2, 2), hex_at(3, 1));
        let mut o = Occupants::new(&map, [(4, Some(a)), (1, Some(a)), (2, None), (3, Some(b))]);
        assert_eq!(o.at(&map, a), &[1, 4]);
        assert_eq!(o.at(&map, b), &[3]);
        assert_eq!(o.at(&map, hex_at(9, 9)), &[] as &[usize]);
        o.lift(&map, 4, a);
        o.place(&map, 4, b);
        o.place(&map, 2, b);
        assert_eq!(o.at(&map, a), &[1]);
        assert_eq!(o.at(&map, b), &[2, 3, 4]);
        assert_eq!(o.occupied().count(), 2);
        assert_eq!(o.in_cell(map.index(b).unwrap()), &[2, 3, 4]);
        let placed = [(1, Some(a)), (2, Some(b)), (3, Some(b)), (4, Some(b))];
        assert_eq!(o.check(&map, placed), Ok(()));
        let moved = [(1, Some(b)), (2, Some(b)), (3, Some(b)), (4, Some(b))];
        // The first cell that differs, in the map's order: b's row comes before a's.
        let cell_b = map.index(b).unwrap();
        assert_eq!(
            o.check(&map, moved),
            Err(format!(
                "cell {cell_b} lists units [2, 3, 4], but [1, 2, 3, 4] are there"
            ))
        );
    }
}
