//! Hex geometry on top of `hexx`: flat-topped hexes in columns, printed-map labels
//! (`0304` = column 3, row 4, the top-left hex whole), facings, arcs and lines of sight.

use hexx::{EdgeDirection, Hex, HexOrientation, OffsetHexMode};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Columns are numbered from 1; odd-indexed (0-based) columns sit half a hex lower, so the
/// top-left hex `0101` is whole, as on printed wargame maps.
const MODE: OffsetHexMode = OffsetHexMode::Odd;
const ORIENTATION: HexOrientation = HexOrientation::Flat;

/// The hex at printed column `col` and row `row` (both from 1).
#[inline]
pub fn hex_at(col: i32, row: i32) -> Hex {
    Hex::from_offset_coordinates([col - 1, row - 1], MODE, ORIENTATION)
}

/// Printed column and row (both from 1) of a hex.
#[inline]
pub fn col_row(hex: Hex) -> (i32, i32) {
    let [c, r] = hex.to_offset_coordinates(MODE, ORIENTATION);
    (c + 1, r + 1)
}

/// The printed label of a hex: `0304`; columns or rows past 99 use three digits each.
pub fn label(hex: Hex) -> String {
    let (c, r) = col_row(hex);
    if c > 99 || r > 99 || c < 0 || r < 0 {
        format!("{c:03}{r:03}")
    } else {
        format!("{c:02}{r:02}")
    }
}

/// Parses a printed label (`0304`, or `010203` for big maps).
pub fn parse_label(text: &str) -> Option<Hex> {
    let t = text.trim();
    if !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let half = match t.len() {
        4 => 2,
        6 => 3,
        _ => return None,
    };
    let col: i32 = t[..half].parse().ok()?;
    let row: i32 = t[half..].parse().ok()?;
    (col >= 1 && row >= 1).then(|| hex_at(col, row))
}

/// The hexside a unit faces, clockwise from north.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Facing {
    N,
    NE,
    SE,
    S,
    SW,
    NW,
}

impl Facing {
    pub const ALL: [Facing; 6] = [
        Facing::N,
        Facing::NE,
        Facing::SE,
        Facing::S,
        Facing::SW,
        Facing::NW,
    ];

    #[inline]
    pub fn index(self) -> u8 {
        self as u8
    }

    #[inline]
    pub fn from_index(i: u8) -> Facing {
        Facing::ALL[(i % 6) as usize]
    }

    /// Turn clockwise by `steps` hexsides (negative: anticlockwise).
    #[inline]
    pub fn turn(self, steps: i32) -> Facing {
        Facing::from_index((self.index() as i32 + steps).rem_euclid(6) as u8)
    }

    #[inline]
    pub fn opposite(self) -> Facing {
        self.turn(3)
    }

    /// How many hexsides apart two facings are (0..=3).
    pub fn difference(self, other: Facing) -> u8 {
        let d = (self.index() as i32 - other.index() as i32).rem_euclid(6) as u8;
        d.min(6 - d)
    }

    #[inline]
    pub fn direction(self) -> EdgeDirection {
        match self {
            Facing::N => EdgeDirection::FLAT_NORTH,
            Facing::NE => EdgeDirection::FLAT_NORTH_EAST,
            Facing::SE => EdgeDirection::FLAT_SOUTH_EAST,
            Facing::S => EdgeDirection::FLAT_SOUTH,
            Facing::SW => EdgeDirection::FLAT_SOUTH_WEST,
            Facing::NW => EdgeDirection::FLAT_NORTH_WEST,
        }
    }

    pub fn from_direction(d: EdgeDirection) -> Facing {
        Facing::ALL
            .into_iter()
            .find(|f| f.direction() == d)
            .expect("six edge directions")
    }

    /// The facing from `from` to an adjacent hex `to`.
    pub fn towards(from: Hex, to: Hex) -> Option<Facing> {
        from.neighbor_direction(to).map(Facing::from_direction)
    }

    pub fn parse(text: &str) -> Option<Facing> {
        Some(match text.trim().to_ascii_uppercase().as_str() {
            "N" => Facing::N,
            "NE" => Facing::NE,
            "SE" => Facing::SE,
            "S" => Facing::S,
            "SW" => Facing::SW,
            "NW" => Facing::NW,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Facing::N => "N",
            Facing::NE => "NE",
            Facing::SE => "SE",
            Facing::S => "S",
            Facing::SW => "SW",
            Facing::NW => "NW",
        }
    }
}

impl fmt::Display for Facing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The neighbour of `hex` across the hexside `facing`.
#[inline]
pub fn step(hex: Hex, facing: Facing) -> Hex {
    hex.neighbor(facing.direction())
}

/// The three hexes ahead of a unit: its frontal zone (front-left, front, front-right).
#[inline]
pub fn front_hexes(hex: Hex, facing: Facing) -> [Hex; 3] {
    [
        step(hex, facing.turn(-1)),
        step(hex, facing),
        step(hex, facing.turn(1)),
    ]
}

/// Where a hex lies relative to a unit's facing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Aspect {
    /// Inside the 120° cone ahead (bounded by the front-left and front-right hexsides).
    Front,
    /// Beside or behind, but not in the rear cone.
    Flank,
    /// In the 60°-wide cone straight behind (through the rear hexside).
    Rear,
}

/// Coefficients of `v` in the basis of two hex directions 120° apart.
#[inline]
fn cone_coefficients(v: Hex, left: Facing, right: Facing) -> (i32, i32) {
    // Solve v = a*l + b*r for the two edge vectors; they form a lattice basis.
    let l = Hex::from(left.direction());
    let r = Hex::from(right.direction());
    let det = l.x * r.y - l.y * r.x;
    let a = (v.x * r.y - v.y * r.x) / det;
    let b = (l.x * v.y - l.y * v.x) / det;
    (a, b)
}

/// Whether `target` lies in the 120° cone ahead of a unit at `from` facing `facing`:
/// the primary (firing and movement) arc.
#[inline]
pub fn in_front_arc(from: Hex, facing: Facing, target: Hex) -> bool {
    if from == target {
        return false;
    }
    let (a, b) = cone_coefficients(target - from, facing.turn(-1), facing.turn(1));
    a >= 0 && b >= 0
}

/// Whether `target` lies in the 60° cone straight behind a unit (through its rear hexside).
pub fn in_rear_cone(from: Hex, facing: Facing, target: Hex) -> bool {
    if from == target {
        return false;
    }
    let back = facing.opposite();
    // In the basis of the two rear-flank hexsides, straight back is (1,1) and the rear
    // vertices are (2,1) and (1,2): the 60° cone between them is the rear.
    let (a, b) = cone_coefficients(target - from, back.turn(-1), back.turn(1));
    a >= 0 && b >= 0 && a <= 2 * b && b <= 2 * a
}

/// Where the hex `attacker` lies as seen from a unit at `unit` facing `facing`.
pub fn aspect(unit: Hex, facing: Facing, attacker: Hex) -> Aspect {
    if in_front_arc(unit, facing, attacker) {
        Aspect::Front
    } else if in_rear_cone(unit, facing, attacker) {
        Aspect::Rear
    } else {
        Aspect::Flank
    }
}

/// The hexes strictly between `a` and `b` on a centre-to-centre line, computed twice with the
/// line nudged to either side. Where the line runs exactly along a hexside the two lists
/// differ; a line of sight is open when either list is clear (a line along a hexside is
/// blocked only when the hexes on both sides of it block).
pub fn lines_between(a: Hex, b: Hex) -> [Vec<Hex>; 2] {
    [
        line_between(a, b, 0).collect(),
        line_between(a, b, 1).collect(),
    ]
}

/// One of the two lines of [`lines_between`] (`side` 0 or 1), hex by hex, without allocating:
/// what sight rules walk many times a decision.
pub fn line_between(a: Hex, b: Hex, side: usize) -> impl Iterator<Item = Hex> + Clone {
    let n = a.unsigned_distance_to(b);
    let [ax, ay, az] = a.to_cubic_array_f32();
    let [bx, by, bz] = b.to_cubic_array_f32();
    let eps = if side == 0 { 1e-4f32 } else { -1e-4f32 };
    (1..n.max(1)).map(move |i| {
        let t = i as f32 / n as f32;
        let x = ax + (bx - ax) * t + eps;
        let y = ay + (by - ay) * t + eps;
        let z = az + (bz - az) * t - 2.0 * eps;
        cube_round(x, y, z)
    })
}

fn cube_round(x: f32, y: f32, z: f32) -> Hex {
    let (mut rx, mut ry, rz) = (round(x), round(y), round(z));
    let (dx, dy, dz) = ((rx - x).abs(), (ry - y).abs(), (rz - z).abs());
    if dx > dy && dx > dz {
        rx = -ry - rz;
    } else if dy > dz {
        ry = -rx - rz;
    }
    Hex::new(rx as i32, ry as i32)
}

/// `x.round()` (halves away from zero) for the small numbers of hex coordinates, inline:
/// `f32::round` is a call into the C library on this target, and sight rules round three
/// numbers for every hex of every line they walk. Exact: the half is added in `f64`, where
/// every `f32` plus 0.5 is represented without rounding, and the cast truncates.
#[inline]
fn round(x: f32) -> f32 {
    let r = (f64::from(x.abs()) + 0.5) as i64 as f32;
    r.copysign(x)
}

#[inline]
pub fn distance(a: Hex, b: Hex) -> u32 {
    a.unsigned_distance_to(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_inline_round_is_the_librarys() {
        // Halves and their neighbours (where adding 0.5 in f32 would go wrong), and a sweep.
        let mut xs: Vec<f32> = Vec::new();
        for k in -200..=200 {
            let half = k as f32 + 0.5;
            xs.extend([
                half,
                half.next_up(),
                half.next_down(),
                k as f32,
                (k as f32).next_down(),
            ]);
        }
        xs.extend((-100_000..=100_000).map(|i| i as f32 * 0.00137));
        xs.extend([0.0, -0.0, 0.49999997, -0.49999997, 1e7 + 0.5, -8_388_609.0]);
        for x in xs {
            assert_eq!(round(x).to_bits(), x.round().to_bits(), "{x}");
        }
    }

    #[test]
    fn labels_round_trip_and_top_left_is_0101() {
        for c in 1..=30 {
            for r in 1..=20 {
                let h = hex_at(c, r);
                assert_eq!(parse_label(&label(h)), Some(h));
                assert_eq!(col_row(h), (c, r));
            }
        }
        assert_eq!(label(hex_at(3, 4)), "0304");
        assert_eq!(parse_label("x304"), None);
        assert_eq!(parse_label("0004"), None);
    }

    #[test]
    fn even_printed_columns_sit_half_a_hex_lower() {
        // 0101's south-east neighbour is 0201; 0201's north-east neighbour is 0301.
        assert_eq!(label(step(hex_at(1, 1), Facing::SE)), "0201");
        assert_eq!(label(step(hex_at(2, 1), Facing::NE)), "0301");
        assert_eq!(label(step(hex_at(2, 1), Facing::S)), "0202");
        assert_eq!(label(step(hex_at(3, 3), Facing::N)), "0302");
    }

    #[test]
    fn front_arc_is_a_120_degree_cone() {
        let u = hex_at(5, 5);
        for h in front_hexes(u, Facing::N) {
            assert!(in_front_arc(u, Facing::N, h));
        }
        assert!(in_front_arc(u, Facing::N, hex_at(5, 1)));
        assert!(!in_front_arc(u, Facing::N, step(u, Facing::SE)));
        assert!(!in_front_arc(u, Facing::N, step(u, Facing::S)));
        // Two hexes out along the NE edge direction is still in arc.
        assert!(in_front_arc(
            u,
            Facing::N,
            step(step(u, Facing::NE), Facing::NE)
        ));
    }

    #[test]
    fn aspects_of_the_six_neighbours() {
        let u = hex_at(5, 5);
        let f = Facing::N;
        assert_eq!(aspect(u, f, step(u, Facing::N)), Aspect::Front);
        assert_eq!(aspect(u, f, step(u, Facing::NE)), Aspect::Front);
        assert_eq!(aspect(u, f, step(u, Facing::SE)), Aspect::Flank);
        assert_eq!(aspect(u, f, step(u, Facing::S)), Aspect::Rear);
        assert_eq!(aspect(u, f, step(u, Facing::SW)), Aspect::Flank);
        assert_eq!(aspect(u, f, hex_at(5, 9)), Aspect::Rear);
    }

    #[test]
    fn line_along_a_hexside_has_two_readings() {
        // 0505 to the hex two steps along the N/NE vertex line.
        let a = hex_at(5, 5);
        let b = step(step(a, Facing::N), Facing::NE);
        let [l, r] = lines_between(a, b);
        assert_eq!(l.len(), 1);
        assert_ne!(l, r);
        let straight = lines_between(a, hex_at(5, 1));
        assert_eq!(straight[0], straight[1]);
        assert_eq!(straight[0].len(), 3);
    }
}
