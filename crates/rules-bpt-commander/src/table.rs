//! The table's geometry, behind one narrow interface ([`Table`]): distances, the 180° line of
//! sight, the firing cone, flank and rear, the nearest visible enemy, cover, and the hexes of a
//! move "directly away" or "towards". The rules ask only these questions, so a measured-table
//! mode can answer them from bases and centimetres instead of hexes.
//!
//! This file holds the geometry below the position, at one hex = 5 cm centre to centre:
//! centimetres to hexes, the firing cone's shape ("Weapons Firing Cone"), the map's part of a
//! line of sight, kept per pair of hexes ("Visibility"), what blocks sight; the conversion table
//! is in docs/rules/bpt-commander.md. The position's answers to [`Table`] are in
//! [`crate::visibility`].

use crate::terrain::{self, Area, Cover};
use crate::troops::{Arm, Formation, Unit};
use volley_core::geometry::{distance, line_between, Aspect, Facing};
use volley_core::map::Map;
use volley_core::Hex;

/// Centimetres between hex centres.
pub const HEX_CM: u32 = 5;

/// Hexes of a distance in cm, rounded half up, at least one for any distance at all.
pub fn hexes(cm: u32) -> u32 {
    if cm == 0 {
        0
    } else {
        ((cm + HEX_CM / 2) / HEX_CM).max(1)
    }
}

/// The geometry questions of the rules.
pub trait Table {
    /// The shortest distance between two units, in cm.
    fn distance_cm(&self, a: usize, b: usize) -> u32;
    /// Whether `b` is within `cm` of `a`, as ranges and "within" distances are judged (a
    /// distance short of the next hex still reaches the adjacent one).
    fn within(&self, a: usize, b: usize, cm: u32) -> bool;
    /// Whether two units are in base contact (next to each other, or a command unit with the
    /// unit it is with).
    fn touching(&self, a: usize, b: usize) -> bool;
    /// Whether `observer` can trace a line of sight to `target`.
    fn sees(&self, observer: usize, target: usize) -> bool;
    /// Whether `target` lies in `firer`'s firing cone.
    fn in_cone(&self, firer: usize, target: usize) -> bool;
    /// Where `attacker` stands relative to `target`'s front, as fire and charges judge it.
    fn aspect_of(&self, target: usize, attacker: usize) -> Aspect;
    /// The visible enemy units nearest `unit` (several when tied); command units, which may not
    /// be targeted, are left out.
    fn nearest_visible_enemies(&self, unit: usize) -> Vec<usize>;
    /// The cover `target` has against attacks from `from`.
    fn cover_against(&self, target: usize, from: usize) -> Cover;
    /// The hexes, in order, of a move of `steps` hexes directly away from `from` (towards it,
    /// with `towards`), stopping short where the map ends.
    fn straight_path(&self, unit: usize, from: Hex, steps: u32, towards: bool) -> Vec<Hex>;
}

/// A hex centre on the plane, in hex widths (flat-topped: neighbours one unit apart).
pub fn point(h: Hex) -> (f64, f64) {
    let q = h.x as f64;
    let r = h.y as f64;
    (1.5 * q / 3f64.sqrt(), r + q / 2.0)
}

pub fn sub(a: (f64, f64), b: (f64, f64)) -> (f64, f64) {
    (a.0 - b.0, a.1 - b.1)
}

pub fn unit_vector(f: Facing) -> (f64, f64) {
    point(Hex::ZERO + Hex::from(f.direction()))
}

/// The hex just beyond `to` on the straight line from `from` (round shot going on).
pub fn beyond(from: Hex, to: Hex) -> Option<Hex> {
    if from == to {
        return None;
    }
    let dir = sub(point(to), point(from));
    let origin = point(from);
    Facing::ALL
        .into_iter()
        .map(|f| volley_core::geometry::step(to, f))
        .filter(|h| distance(from, *h) > distance(from, to))
        .min_by(|a, b| {
            let off = |h: Hex| {
                let p = sub(point(h), origin);
                (p.0 * dir.1 - p.1 * dir.0).abs()
            };
            off(*a).total_cmp(&off(*b))
        })
}

/// A unit's frontage in cm for its firing cone: the width of its stands side by side in its
/// formation (infantry and artillery stands 2.5 cm wide, cavalry 3.5 cm).
pub fn frontage_cm(u: &Unit) -> f64 {
    let stand = if u.arm == Arm::Cavalry { 3.5 } else { 2.5 };
    let n = u.stands as f64;
    match u.arm {
        Arm::Artillery => stand,
        Arm::Command => 0.0,
        _ => match u.formation {
            Formation::Line | Formation::Disordered => n * stand,
            Formation::ExtendedLine => {
                n * stand + (n - 1.0).max(0.0) * if u.traits.light { 2.0 } else { 1.0 }
            }
            Formation::AttackColumn => 2.0 * stand,
            Formation::MarchColumn => stand,
            Formation::Square => stand,
        },
    }
}

/// Whether a point `d` (relative to the firer, in hex widths) lies in a cone 15° either side of
/// a front edge of `frontage` cm facing `f`.
pub fn in_cone_of(d: (f64, f64), f: Facing, frontage: f64) -> bool {
    let ahead = unit_vector(f);
    let forward = d.0 * ahead.0 + d.1 * ahead.1;
    if forward <= 0.0 {
        return false;
    }
    let lateral = (d.0 * ahead.1 - d.1 * ahead.0).abs();
    let cm = HEX_CM as f64;
    // Hex centres stand 5 cm apart; the front edge is half a hex ahead of the centre.
    let reach = frontage / 2.0 + (forward * cm - cm / 2.0).max(0.0) * 15f64.to_radians().tan();
    lateral * cm <= reach + 1e-6
}

/// One of the two centre lines between two hexes (`side` 0 or 1), as the map alone judges it
/// ("Visibility"): kept per pair of hexes for the game ([`Sightlines`]), since the bots' search
/// asks for the same lines many thousands of times a turn. Engineers changing the map start
/// the lines afresh ([`crate::state::MapMut`]).
pub struct Sightline {
    /// The hexes between the two ends, in order.
    pub hexes: Box<[Hex]>,
    /// A wall, fence or hedge the ends do not touch, or a crest, hides one end from the other.
    screened: bool,
    /// Some hex on the line is high area terrain.
    high_area: bool,
    /// More than two hexes of low area terrain in a row (more than the one strip of up to
    /// 10 cm that may be seen over).
    wide_low_area: bool,
}

/// The two lines between each pair of hexes of a map, once judged.
pub type Sightlines = volley_core::pairs::Pairs<[Sightline; 2]>;

/// A bound on the pairs of lines kept for one map: past it, lines are judged each time.
pub const SIGHTLINES_KEPT: usize = 1 << 17;

impl Sightline {
    pub fn walked(map: &Map, from: Hex, to: Hex, side: usize) -> Sightline {
        let hexes: Box<[Hex]> = line_between(from, to, side).collect();
        let (eo, et) = (map.elevation(from), map.elevation(to));
        let (lo, hi) = (eo.min(et), eo.max(et));
        let (mut screened, mut high_area, mut wide_low_area) = (false, false, false);
        let mut prev = from;
        let mut low_run = 0;
        for (i, &h) in hexes.iter().enumerate() {
            // Walls, fences and hedges block unless the observer or the target touches them
            // (so neither the first hexside, out of the observer's hex, nor the last, into
            // the target's, counts).
            if i > 0 && terrain::screens(map.hexside(prev, h)) {
                screened = true;
            }
            let e = map.elevation(h);
            // The crest: ground as high as the higher end, and higher than the lower, hides
            // what lies behind it.
            if e > lo && e >= hi {
                screened = true;
            }
            match terrain::area(map.terrain(h)) {
                Some(Area::High) => {
                    high_area = true;
                    low_run = 0;
                }
                Some(Area::Low) => {
                    low_run += 1;
                    wide_low_area |= low_run > 2;
                }
                None => low_run = 0,
            }
            prev = h;
        }
        Sightline {
            hexes,
            screened,
            high_area,
            wide_low_area,
        }
    }

    /// Whether the map leaves the line open, `inside` being how far (in hexes) into area
    /// terrain the target may be seen; a high observer sees over low area terrain.
    pub fn open(&self, d: u32, inside: u32, high_observer: bool) -> bool {
        !(self.screened
            || (d > inside && (self.high_area || (!high_observer && self.wide_low_area))))
    }
}

/// Units block sight, except command units, skirmishers and unlimbered guns.
pub fn blocks_sight(u: &Unit) -> bool {
    !(u.is_hq()
        || (u.traits.light && u.formation == Formation::ExtendedLine)
        || (u.arm == Arm::Artillery && !u.limbered))
}

/// The facing from `from` that looks most nearly at `to`.
pub fn facing_towards(from: Hex, to: Hex) -> Option<Facing> {
    if from == to {
        return None;
    }
    Facing::ALL.into_iter().min_by_key(|f| {
        distance(volley_core::geometry::step(from, *f), to) * 10
            + u32::from(!volley_core::geometry::in_front_arc(from, *f, to))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use volley_core::geometry::{hex_at, step};

    #[test]
    fn a_line_of_four_stands_covers_the_three_hexes_ahead_and_narrows_to_one_beyond() {
        let from = hex_at(5, 5);
        let f = Facing::N;
        let d = |h: Hex| sub(point(h), point(from));
        for h in volley_core::geometry::front_hexes(from, f) {
            assert!(in_cone_of(d(h), f, 10.0), "front hex {h:?}");
        }
        // A single stand fires into the hex straight ahead only.
        assert!(in_cone_of(d(step(from, f)), f, 2.5));
        assert!(!in_cone_of(d(step(from, Facing::NE)), f, 2.5));
        assert!(!in_cone_of(d(step(from, Facing::S)), f, 10.0));
    }

    #[test]
    fn rounding_centimetres_to_hexes() {
        assert_eq!(hexes(10), 2);
        assert_eq!(hexes(8), 2);
        assert_eq!(hexes(12), 2);
        assert_eq!(hexes(15), 3);
        assert_eq!(hexes(3), 1);
        assert_eq!(hexes(2), 1);
        assert_eq!(hexes(0), 0);
    }

    /// The map's part of a line of sight, as the text reads it hex by hex ("Visibility"):
    /// the reference the kept [`Sightline`] is checked against.
    fn open_by_walking(
        map: &Map,
        from: Hex,
        to: Hex,
        side: usize,
        inside: u32,
        high: bool,
    ) -> bool {
        let d = distance(from, to);
        let (eo, et) = (map.elevation(from), map.elevation(to));
        let (lo, hi) = (eo.min(et), eo.max(et));
        let mut prev = from;
        let mut low_run = 0;
        for (i, h) in line_between(from, to, side).enumerate() {
            if i > 0 && terrain::screens(map.hexside(prev, h)) {
                return false;
            }
            let e = map.elevation(h);
            if e > lo && e >= hi {
                return false;
            }
            match terrain::area(map.terrain(h)) {
                Some(Area::High) if d > inside => return false,
                Some(Area::Low) if !high && d > inside => {
                    low_run += 1;
                    if low_run > 2 {
                        return false;
                    }
                }
                _ => low_run = 0,
            }
            prev = h;
        }
        true
    }

    #[test]
    fn a_kept_sightline_judges_as_walking_the_line() {
        use volley_core::map::{Cell, Hexside, Terrain};
        let mut map = Map::open(14, 12);
        let all: Vec<Hex> = map.hexes().collect();
        for (k, &h) in all.iter().enumerate() {
            let terrain = match (k * 5 + k / 7) % 11 {
                0 => Terrain::Woods,
                1 | 2 => Terrain::LightWoods,
                3 => Terrain::Rough,
                4 => Terrain::Town,
                _ => Terrain::Clear,
            };
            let elevation = u8::from(k % 13 == 2) + u8::from(k % 19 == 7);
            map.set(h, Cell { terrain, elevation });
            if let Some(&next) = all.get(k + 1).filter(|&&n| distance(h, n) == 1) {
                match k % 10 {
                    3 => map.set_hexside(h, next, Hexside::Wall),
                    6 => map.set_hexside(h, next, Hexside::Hedge),
                    8 => map.set_hexside(h, next, Hexside::Stream),
                    _ => {}
                }
            }
        }
        let mut verdicts = [0; 2];
        for &a in all.iter().step_by(2) {
            for &b in &all {
                for side in 0..2 {
                    let line = Sightline::walked(&map, a, b, side);
                    for (inside, high) in
                        [(1, false), (2, false), (4, false), (2, true), (9, false)]
                    {
                        let want = open_by_walking(&map, a, b, side, inside, high);
                        assert_eq!(
                            line.open(distance(a, b), inside, high),
                            want,
                            "{a:?} to {b:?}, line {side}, inside {inside}, high observer {high}"
                        );
                        verdicts[usize::from(want)] += 1;
                    }
                }
            }
        }
        assert!(verdicts.iter().all(|&n| n > 1000), "{verdicts:?}");
    }
}
