//! The tiles of the table. Movement Rules 1: units move through the sides of tiles, never the
//! corners. Hex maps have six sides (the engine's `geometry`); square maps have four, written
//! here on the same column/row labels.

use volley_core::geometry::{self, col_row, hex_at, Facing};
use volley_core::map::{Grid, Map};
use volley_core::Hex;

/// The side of its tile a unit faces: an index into the grid's sides, clockwise from north
/// (hex: N NE SE S SW NW; square: N E S W).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Heading(u8);

const HEX_NAMES: [&str; 6] = ["N", "NE", "SE", "S", "SW", "NW"];
const SQUARE_NAMES: [&str; 4] = ["N", "E", "S", "W"];
/// Column and row steps across each square side.
const SQUARE_STEPS: [(i32, i32); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];

/// The most sides a tile has on any grid (a hex's six).
const MOST_SIDES: u8 = 6;

fn sides(grid: Grid) -> u8 {
    match grid {
        Grid::Hex => 6,
        Grid::Square => 4,
    }
}

impl Heading {
    pub fn index(self) -> u8 {
        self.0
    }

    /// A heading by index on a grid not known yet: any index a side has on some grid (the
    /// order codec reads a heading so, and asks [`Heading::is_side_of`] once it knows the grid).
    pub fn from_any_index(index: u8) -> Option<Heading> {
        (index < MOST_SIDES).then_some(Heading(index))
    }

    /// Whether the grid's tiles have this side.
    pub fn is_side_of(self, grid: Grid) -> bool {
        self.0 < sides(grid)
    }

    pub fn all(grid: Grid) -> impl Iterator<Item = Heading> {
        (0..sides(grid)).map(Heading)
    }

    pub fn name(self, grid: Grid) -> &'static str {
        match grid {
            Grid::Hex => HEX_NAMES[self.0 as usize],
            Grid::Square => SQUARE_NAMES[self.0 as usize],
        }
    }

    pub fn parse(grid: Grid, text: &str) -> Option<Heading> {
        let t = text.trim().to_ascii_uppercase();
        let names: &[&str] = match grid {
            Grid::Hex => &HEX_NAMES,
            Grid::Square => &SQUARE_NAMES,
        };
        names.iter().position(|n| *n == t).map(|i| Heading(i as u8))
    }

    pub fn opposite(self, grid: Grid) -> Heading {
        Heading((self.0 + sides(grid) / 2) % sides(grid))
    }

    /// The engine's facing, for hex maps (square headings have no hex equivalent).
    pub fn facing(self, grid: Grid) -> Option<Facing> {
        (grid == Grid::Hex).then(|| Facing::from_index(self.0))
    }

    /// The names a scenario or an order may use, for error messages.
    pub fn names(grid: Grid) -> String {
        match grid {
            Grid::Hex => HEX_NAMES.join(", "),
            Grid::Square => SQUARE_NAMES.join(", "),
        }
    }
}

/// The tile across side `heading` of `tile` (possibly off the map).
pub fn step(grid: Grid, tile: Hex, heading: Heading) -> Hex {
    match grid {
        Grid::Hex => geometry::step(tile, Facing::from_index(heading.0)),
        Grid::Square => {
            let (c, r) = col_row(tile);
            let (dc, dr) = SQUARE_STEPS[heading.0 as usize];
            hex_at(c + dc, r + dr)
        }
    }
}

/// The tiles on the map that share a side with `tile`, with the side each lies across.
pub fn neighbours(map: &Map, tile: Hex) -> impl Iterator<Item = (Heading, Hex)> + '_ {
    Heading::all(map.grid)
        .map(move |h| (h, step(map.grid, tile, h)))
        .filter(|(_, t)| map.contains(*t))
}

/// The side of `from` that `to` lies across, when the two share a side.
pub fn heading_towards(grid: Grid, from: Hex, to: Hex) -> Option<Heading> {
    Heading::all(grid).find(|h| step(grid, from, *h) == to)
}

/// Whether two tiles share a side: they are one tile apart.
pub fn adjacent(grid: Grid, a: Hex, b: Hex) -> bool {
    distance(grid, a, b) == 1
}

/// Range in tiles: hex distance, or on squares the tiles counted through sides (Manhattan),
/// since Movement Rules 1 counts tiles through sides and never corners.
pub fn distance(grid: Grid, a: Hex, b: Hex) -> u32 {
    match grid {
        Grid::Hex => geometry::distance(a, b),
        Grid::Square => {
            let ((ac, ar), (bc, br)) = (col_row(a), col_row(b));
            ac.abs_diff(bc) + ar.abs_diff(br)
        }
    }
}

/// The tiles strictly between `a` and `b` on the centre-to-centre line (Definitions: LOS), in
/// two readings. Where the line runs exactly along a hexside, or through a corner of square
/// tiles, the readings differ by which neighbour they take; a line of sight is open when
/// either reading is clear, so a corner is blocked only when the tiles on both sides block.
pub fn lines_between(grid: Grid, a: Hex, b: Hex) -> [Vec<Hex>; 2] {
    match grid {
        Grid::Hex => geometry::lines_between(a, b),
        Grid::Square => {
            let (ac, ar) = col_row(a);
            let (bc, br) = col_row(b);
            [0, 1].map(|reading| {
                square_line((ac, ar), (bc, br), reading == 0)
                    .into_iter()
                    .map(|(c, r)| hex_at(c, r))
                    .collect()
            })
        }
    }
}

/// Walks the squares a segment between two square centres crosses, side by side. At an exact
/// corner crossing, `column_first` chooses which of the two corner squares the walk passes.
fn square_line(a: (i32, i32), b: (i32, i32), column_first: bool) -> Vec<(i32, i32)> {
    let (dc, dr) = (b.0 - a.0, b.1 - a.1);
    let (nc, nr) = (dc.abs(), dr.abs());
    let (sc, sr) = (dc.signum(), dr.signum());
    let (mut c, mut r) = a;
    let (mut ic, mut ir) = (0, 0);
    let mut out = Vec::new();
    while ic < nc || ir < nr {
        // The next column boundary lies at (ic + 1/2)/nc of the way, the next row boundary at
        // (ir + 1/2)/nr; compare them without division.
        let to_column = (1 + 2 * ic) * nr;
        let to_row = (1 + 2 * ir) * nc;
        let column_next =
            ic < nc && (ir >= nr || to_column < to_row || (to_column == to_row && column_first));
        if column_next {
            c += sc;
            ic += 1;
        } else {
            r += sr;
            ir += 1;
        }
        if (c, r) != b {
            out.push((c, r));
        }
    }
    out
}

/// Whether `target` lies in the front arc of a unit at `tile` facing `heading`: on hexes the
/// engine's 120° cone, on squares the 90° cone through the faced side.
pub fn in_front_arc(grid: Grid, tile: Hex, heading: Heading, target: Hex) -> bool {
    match grid {
        Grid::Hex => geometry::in_front_arc(tile, Facing::from_index(heading.0), target),
        Grid::Square => {
            let ((uc, ur), (tc, tr)) = (col_row(tile), col_row(target));
            let (dc, dr) = (tc - uc, tr - ur);
            let (fc, fr) = SQUARE_STEPS[heading.0 as usize];
            let ahead = dc * fc + dr * fr;
            let aside = (dc * fr - dr * fc).abs();
            ahead > 0 && ahead >= aside
        }
    }
}

/// Where an attacker stands relative to a defender's facing (Close Combat 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aspect {
    Front,
    Flank,
    Rear,
}

impl Aspect {
    pub fn name(self) -> &'static str {
        match self {
            Aspect::Front => "front",
            Aspect::Flank => "flank",
            Aspect::Rear => "rear",
        }
    }
}

/// The aspect of an adjacent attacker: on hexes the two front hexsides beside the faced one
/// are front too (the engine's cone); on squares only the faced side is front and the side
/// opposite it is the rear.
pub fn aspect(grid: Grid, tile: Hex, heading: Heading, attacker: Hex) -> Aspect {
    match grid {
        Grid::Hex => match geometry::aspect(tile, Facing::from_index(heading.0), attacker) {
            geometry::Aspect::Front => Aspect::Front,
            geometry::Aspect::Flank => Aspect::Flank,
            geometry::Aspect::Rear => Aspect::Rear,
        },
        Grid::Square => match heading_towards(grid, tile, attacker) {
            Some(h) if h == heading => Aspect::Front,
            Some(h) if h == heading.opposite(grid) => Aspect::Rear,
            _ => Aspect::Flank,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use volley_core::geometry::label;

    fn labels(tiles: &[Hex]) -> Vec<String> {
        tiles.iter().map(|t| label(*t)).collect()
    }

    #[test]
    fn square_sides_are_four_and_corners_are_not_sides() {
        let map = {
            let mut m = Map::open(5, 5);
            m.grid = Grid::Square;
            m
        };
        let n = neighbours(&map, hex_at(3, 3));
        assert_eq!(
            labels(&n.map(|(_, t)| t).collect::<Vec<_>>()),
            ["0302", "0403", "0304", "0203"]
        );
        assert!(!adjacent(Grid::Square, hex_at(3, 3), hex_at(4, 4)));
        assert_eq!(distance(Grid::Square, hex_at(1, 1), hex_at(3, 4)), 5);
    }

    #[test]
    fn square_line_through_a_corner_has_two_readings() {
        let [a, b] = lines_between(Grid::Square, hex_at(1, 1), hex_at(3, 3));
        assert_eq!(labels(&a), ["0201", "0202", "0302"]);
        assert_eq!(labels(&b), ["0102", "0202", "0203"]);
        let [a, b] = lines_between(Grid::Square, hex_at(1, 1), hex_at(1, 4));
        assert_eq!(labels(&a), ["0102", "0103"]);
        assert_eq!(a, b);
        // From 0101 to 0402 the line crosses the corner of 0201, 0301, 0202 and 0302.
        let [a, b] = lines_between(Grid::Square, hex_at(1, 1), hex_at(4, 2));
        assert_eq!(labels(&a), ["0201", "0301", "0302"]);
        assert_eq!(labels(&b), ["0201", "0202", "0302"]);
    }

    #[test]
    fn square_front_arc_and_aspects() {
        let u = hex_at(3, 3);
        let north = Heading::parse(Grid::Square, "N").unwrap();
        assert!(in_front_arc(Grid::Square, u, north, hex_at(3, 1)));
        assert!(in_front_arc(Grid::Square, u, north, hex_at(5, 1)));
        assert!(!in_front_arc(Grid::Square, u, north, hex_at(5, 2)));
        assert!(!in_front_arc(Grid::Square, u, north, hex_at(3, 4)));
        assert_eq!(aspect(Grid::Square, u, north, hex_at(3, 2)), Aspect::Front);
        assert_eq!(aspect(Grid::Square, u, north, hex_at(4, 3)), Aspect::Flank);
        assert_eq!(aspect(Grid::Square, u, north, hex_at(3, 4)), Aspect::Rear);
    }
}
