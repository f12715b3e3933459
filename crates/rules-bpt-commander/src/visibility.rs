//! VISIBILITY on the position, and the rest of the table's questions ([`Table`]) answered on
//! its hexes: the 180° line of sight through terrain and troops, what dug-in troops and guns
//! in cover hide, the nearest visible enemy, the firing cone's hexes, flank and rear, cover
//! against an attack and the hexes of a move "directly away". The geometry they stand on
//! (centimetres to hexes, cones, the map's part of a sightline) is in [`crate::table`].

use crate::state::BptGame;
use crate::table::{
    blocks_sight, frontage_cm, hexes, in_cone_of, point, sub, unit_vector, Sightline, Table, HEX_CM,
};
use crate::terrain::{self, Area, Cover};
use crate::troops::{Arm, Formation, Unit};
use volley_core::geometry::{aspect, distance, line_between, Aspect, Facing};
use volley_core::{Hex, Side};

/// A cone's shape (facing, frontage, reach in hexes, all round) → its hexes relative to the
/// firer: the same few shapes serve every view, so each is worked out once a thread.
type ConeShape = (u8, u64, u32, bool);

thread_local! {
    static CONES: std::cell::RefCell<std::collections::HashMap<ConeShape, Vec<Hex>>> =
        Default::default();
}

impl BptGame {
    /// Whether the terrain and the troops between two hexes leave a line of sight open along
    /// one of the two centre lines. `inside` is how far into area terrain the target may be
    /// seen.
    fn line_open(
        &self,
        viewer: Side,
        from: Hex,
        to: Hex,
        side: usize,
        inside: u32,
        high_observer: bool,
    ) -> bool {
        let map = self.map();
        let d = distance(from, to);
        let open = |line: &Sightline| {
            line.open(d, inside, high_observer)
                && line.hexes.iter().all(|&h| {
                    // An enemy under a marker blocks sight whatever it is.
                    self.occupant(h).is_none_or(|k| {
                        !(blocks_sight(&self.units[k]) || self.hidden_from(k, viewer))
                    })
                })
        };
        let both = || [0, 1].map(|s| Sightline::walked(map, from, to, s));
        self.setting
            .lines
            .with(map, from, to, both, |lines| open(&lines[side]))
            .unwrap_or_else(|| open(&Sightline::walked(map, from, to, side)))
    }

    /// Whether a unit is hidden where it stands from an enemy `d` hexes away: dug-in troops
    /// behind linear terrain or at the edge of area terrain until an enemy is adjacent, and
    /// guns in cover that have not fired beyond initiative range.
    fn concealed(&self, target: &Unit, d: u32) -> bool {
        let map = self.map();
        let sheltered = terrain::area(map.terrain(target.hex)).is_some()
            || Facing::ALL.into_iter().any(|f| {
                terrain::screens(
                    map.hexside(target.hex, volley_core::geometry::step(target.hex, f)),
                )
            });
        if !sheltered {
            return false;
        }
        if target.dug_in && d > 1 {
            return true;
        }
        target.arm == Arm::Artillery && !target.limbered && !target.has_fired && d > 4
    }
}

impl BptGame {
    /// The visible enemy units nearest `unit` that pass `keep` (several when tied).
    pub fn nearest_visible_such(&self, unit: usize, keep: impl Fn(&Unit) -> bool) -> Vec<usize> {
        let me = &self.units[unit];
        let mut best = u32::MAX;
        let mut out = Vec::new();
        for (k, e) in self.units.iter().enumerate() {
            if e.side == me.side || e.ko || !keep(e) {
                continue;
            }
            let d = distance(me.hex, e.hex);
            if d > best || !self.sees(unit, k) {
                continue;
            }
            if d < best {
                best = d;
                out.clear();
            }
            out.push(k);
        }
        out
    }

    /// The map hexes `unit`'s fire reaches now: every hex within its range (at least one hex)
    /// that lies in its firing cone, by the same test as [`Table::in_cone`] (an infantry
    /// square's cone is all round). Its own hex is left out.
    pub fn cone_hexes(&self, unit: usize) -> Vec<Hex> {
        let u = &self.units[unit];
        let reach = hexes(u.range_cm).max(1);
        let all_round = u.formation == Formation::Square && u.arm == Arm::Infantry;
        let frontage = frontage_cm(u);
        let map = self.map();
        let shape = (u.facing as u8, frontage.to_bits(), reach, all_round);
        CONES.with(|cones| {
            let mut cones = cones.borrow_mut();
            let offsets = cones.entry(shape).or_insert_with(|| {
                Hex::ZERO
                    .range(reach)
                    .filter(|&h| h != Hex::ZERO)
                    .filter(|&h| all_round || in_cone_of(point(h), u.facing, frontage))
                    .collect()
            });
            // Sized once (a filtered collect grows its vector step by step, and every view
            // of the bots' search lists every unit's cone).
            let mut out = Vec::with_capacity(offsets.len());
            out.extend(
                offsets
                    .iter()
                    .map(|&d| u.hex + d)
                    .filter(|&h| map.contains(h)),
            );
            out
        })
    }
}

impl BptGame {
    /// Whether `observer` would see `target` by the sight rules alone, whether or not the
    /// target is under a marker (what scouting cavalry look with).
    pub fn sight_of(&self, observer: usize, target: usize) -> bool {
        let (o, t) = (&self.units[observer], &self.units[target]);
        if o.ko || t.ko {
            return false;
        }
        let d = distance(o.hex, t.hex);
        if d == 0 {
            return true;
        }
        if d * HEX_CM > self.visibility_cm() {
            return false;
        }
        // 180° to the front; command units, squares and scouting stands see all round.
        if !(o.is_hq() || o.formation == Formation::Square || o.traits.scout) {
            let v = sub(point(t.hex), point(o.hex));
            let a = unit_vector(o.facing);
            if v.0 * a.0 + v.1 * a.1 < -1e-6 {
                return false;
            }
        }
        if self.concealed(t, d) {
            return false;
        }
        let map = self.map();
        let target_area = terrain::area(map.terrain(t.hex));
        let high_observer = map.elevation(o.hex) > map.elevation(t.hex);
        // How far inside area terrain the target may be seen: guns and dug-in troops 5 cm,
        // others 10 cm in high and 20 cm in low area terrain (a high observer sees into low).
        let inside = if (t.arm == Arm::Artillery && !t.limbered) || t.dug_in {
            1
        } else {
            match target_area {
                Some(Area::High) | None => 2,
                Some(Area::Low) => 4,
            }
        };
        (0..2).any(|side| self.line_open(o.side, o.hex, t.hex, side, inside, high_observer))
    }
}

impl Table for BptGame {
    fn distance_cm(&self, a: usize, b: usize) -> u32 {
        distance(self.units[a].hex, self.units[b].hex) * HEX_CM
    }

    fn touching(&self, a: usize, b: usize) -> bool {
        distance(self.units[a].hex, self.units[b].hex) <= 1
    }

    fn within(&self, a: usize, b: usize, cm: u32) -> bool {
        cm > 0 && distance(self.units[a].hex, self.units[b].hex) <= hexes(cm).max(1)
    }

    fn sees(&self, observer: usize, target: usize) -> bool {
        !self.hidden_from(target, self.units[observer].side) && self.sight_of(observer, target)
    }

    fn in_cone(&self, firer: usize, target: usize) -> bool {
        let (f, t) = (&self.units[firer], &self.units[target]);
        let d = sub(point(t.hex), point(f.hex));
        if f.formation == Formation::Square && f.arm == Arm::Infantry {
            return true;
        }
        in_cone_of(d, f.facing, frontage_cm(f))
    }

    fn aspect_of(&self, target: usize, attacker: usize) -> Aspect {
        let (t, a) = (&self.units[target], &self.units[attacker]);
        if t.formation == Formation::Square && t.arm == Arm::Infantry {
            return Aspect::Front;
        }
        let mut seen = aspect(t.hex, t.facing, a.hex);
        // A refused flank turns that side's hexside to the front.
        if seen == Aspect::Flank && t.refused != 0 {
            let v = sub(point(a.hex), point(t.hex));
            let ahead = unit_vector(t.facing);
            let right = v.0 * ahead.1 - v.1 * ahead.0 < 0.0;
            if (t.refused > 0) == right {
                seen = Aspect::Front;
            }
        }
        seen
    }

    fn nearest_visible_enemies(&self, unit: usize) -> Vec<usize> {
        self.nearest_visible_such(unit, |e| !e.is_hq())
    }

    fn cover_against(&self, target: usize, from: usize) -> Cover {
        let (t, f) = (&self.units[target], &self.units[from]);
        let before = line_between(f.hex, t.hex, 0).last().unwrap_or(f.hex);
        let before2 = line_between(f.hex, t.hex, 1).last().unwrap_or(f.hex);
        let ground = terrain::cover(self.map(), t.hex, before).min(terrain::cover(
            self.map(),
            t.hex,
            before2,
        ));
        // Field defences and constructions cover the troops in their hex.
        ground.max(self.works_cover(t.hex))
    }

    fn straight_path(&self, unit: usize, from: Hex, steps: u32, towards: bool) -> Vec<Hex> {
        let start = self.units[unit].hex;
        let mut dir = sub(point(start), point(from));
        if towards {
            dir = (-dir.0, -dir.1);
        }
        if dir == (0.0, 0.0) {
            dir = unit_vector(self.units[unit].facing.opposite());
        }
        let len = (dir.0 * dir.0 + dir.1 * dir.1).sqrt();
        dir = (dir.0 / len, dir.1 / len);
        let origin = point(start);
        let mut out = Vec::new();
        let mut at = start;
        for _ in 0..steps {
            // The neighbour that goes furthest along the line while straying least from it.
            let next = Facing::ALL
                .into_iter()
                .map(|f| volley_core::geometry::step(at, f))
                .max_by(|a, b| {
                    let score = |h: Hex| {
                        let p = sub(point(h), origin);
                        let along = p.0 * dir.0 + p.1 * dir.1;
                        let off = (p.0 * dir.1 - p.1 * dir.0).abs();
                        along - 2.0 * off
                    };
                    score(*a).total_cmp(&score(*b))
                })
                .expect("six neighbours");
            out.push(next);
            at = next;
        }
        out
    }
}
