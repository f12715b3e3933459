//! The numbers of Mechanized fire (3.7): the anti-tank roll (M85–M87), small arms (M90, D6),
//! and how facing lowers a target's defence (M86, C8). Each function returns the number the
//! dice must reach and the chance of reaching it, so the odds a player asks for and the roll
//! made come from the same arithmetic.

use crate::charts::{Charts, Gun};
use volley_core::geometry::{aspect, Aspect, Facing};
use volley_core::Hex;

/// Range as Mechanized counts it (M83): the neighbouring hex is range 0.
pub fn range(a: Hex, b: Hex) -> u32 {
    a.unsigned_distance_to(b).saturating_sub(1)
}

/// A hex's centre in the plane (flat-topped axial hexes: x = 3/2 q, y = √3 (r + q/2)).
fn plane(h: Hex) -> (f64, f64) {
    let (q, r) = (h.x as f64, h.y as f64);
    (1.5 * q, 3f64.sqrt() * (r + q / 2.0))
}

/// M62: whether `target` lies across the hexside `side` of `from` — within the 60° wedge
/// straight out through it (a line along the wedge's edge counts).
pub fn across_hexside(from: Hex, side: Facing, target: Hex) -> bool {
    let ((fx, fy), (tx, ty)) = (plane(from), plane(target));
    let (ax, ay) = plane(volley_core::geometry::step(from, side));
    let (dx, dy, ux, uy) = (tx - fx, ty - fy, ax - fx, ay - fy);
    let len = (dx * dx + dy * dy).sqrt() * (ux * ux + uy * uy).sqrt();
    len > 0.0 && (dx * ux + dy * uy) / len >= (30f64).to_radians().cos() - 1e-9
}

/// The longest gap M75's rule looks for: wider gaps leave every shot within twice their width.
pub const WIDEST_GAP: u32 = 10;

/// M75's gap: the width, in hexes, of the open run the target's hex lies in along the hex row
/// most nearly across the line of fire from `from`, when both ends of the run are hexes that
/// stand higher for sight (`height`) than the target's ground — two obstacles with the target
/// between them. `None` when no such gap of at most [`WIDEST_GAP`] hexes holds the target.
/// When two rows are equally across the line, the narrower gap counts.
pub fn gap_across(
    map: &volley_core::map::Map,
    height: impl Fn(Hex) -> u8,
    from: Hex,
    to: Hex,
) -> Option<u32> {
    use volley_core::geometry::step;
    let ((fx, fy), (tx, ty)) = (plane(from), plane(to));
    let (lx, ly) = (tx - fx, ty - fy);
    let across = |f: Facing| {
        let (ax, ay) = plane(step(to, f));
        ((ax - tx) * lx + (ay - ty) * ly).abs()
    };
    let axes = [Facing::N, Facing::NE, Facing::SE];
    let best = axes
        .iter()
        .map(|&f| across(f))
        .fold(f64::INFINITY, f64::min);
    let ground = map.elevation(to);
    axes.iter()
        .filter(|&&f| across(f) <= best + 1e-9)
        .filter_map(|&f| {
            let mut width = 1;
            for dir in [f, f.opposite()] {
                let mut h = to;
                loop {
                    h = step(h, dir);
                    if !map.contains(h) || width > WIDEST_GAP {
                        return None;
                    }
                    if height(h) > ground {
                        break;
                    }
                    width += 1;
                }
            }
            Some(width)
        })
        .min()
}

/// M86 with C8's reading B: the target's defence falls by one seen from its flank and by two
/// from its rear (never below 0).
pub fn facing_defence(defence: u8, target: Hex, facing: Facing, firer: Hex) -> u8 {
    let off = match aspect(target, facing, firer) {
        Aspect::Front => 0,
        Aspect::Flank => 1,
        Aspect::Rear => 2,
    };
    defence.saturating_sub(off)
}

/// What moves an anti-tank shot (M91): each is one point on the number needed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AtModifiers {
    /// Hit markers on the firing squad, or the firing vehicle's combat damage points.
    pub firer_penalty: u8,
    /// Covers the target has (wall or hedge, woods, building, works, higher ground).
    pub cover: u8,
    pub obscured: bool,
    /// A turret turned to answer a shooter outside its arc (M93).
    pub turret_turn: bool,
    /// A commander with the firer: −1 (or its Combat with the CVS).
    pub commander: u8,
    /// D17: a low-silhouette target, beyond automatic range.
    pub low_silhouette: bool,
}

impl AtModifiers {
    fn penalties(&self) -> u32 {
        self.firer_penalty as u32
            + self.cover as u32
            + self.obscured as u32
            + self.turret_turn as u32
    }
}

/// How an anti-tank shot is resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtRoll {
    /// At automatic range with nothing against it: a hit without a roll.
    Automatic,
    /// At automatic range: 1d10 at most this (each penalty takes 10%, M87).
    AutoRangeAtMost(u32),
    /// Beyond it: the dice (1 or 2 d10) must reach this.
    AtLeast { dice: u32, needed: u32 },
    /// Out of reach.
    Impossible,
}

impl AtRoll {
    /// The chance of a hit, in hundredths.
    pub fn percent(self) -> u32 {
        match self {
            AtRoll::Automatic => 100,
            AtRoll::AutoRangeAtMost(n) => 10 * n.min(10),
            AtRoll::AtLeast { dice: 1, needed } => {
                10 * (11u32.saturating_sub(needed.max(1))).min(10)
            }
            AtRoll::AtLeast { needed, .. } => crate::damage::two_d10_at_least(needed as i32),
            AtRoll::Impossible => 0,
        }
    }

    /// Whether the dice thrown hit.
    pub fn hits(self, total: u32) -> bool {
        match self {
            AtRoll::Automatic => true,
            AtRoll::AutoRangeAtMost(n) => total <= n,
            AtRoll::AtLeast { needed, .. } => total >= needed,
            AtRoll::Impossible => false,
        }
    }
}

/// M85–M87: the roll a gun needs against a target of `defence` (already facing-adjusted and
/// less its D damage) at range `r`.
pub fn at_roll(gun: &Gun, r: u32, defence: u8, m: AtModifiers) -> AtRoll {
    if r > gun.max_range {
        return AtRoll::Impossible;
    }
    if r <= gun.auto_range {
        let p = m.penalties();
        return if p == 0 {
            AtRoll::Automatic
        } else {
            AtRoll::AutoRangeAtMost(10u32.saturating_sub(p))
        };
    }
    let needed = (r + defence as u32 + m.penalties() + m.low_silhouette as u32)
        .saturating_sub(m.commander as u32);
    let dice = gun.dice();
    if needed > 10 * dice {
        AtRoll::Impossible
    } else {
        AtRoll::AtLeast { dice, needed }
    }
}

/// Who fires small arms, for D6's modifiers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SmallArmsFirer {
    /// Infantry weight (None for a vehicle's machine guns, which fire as Medium, M92).
    pub light: bool,
    pub heavy: bool,
    pub smg: bool,
    pub markers: u8,
    pub commander: u8,
}

/// D6: the d6 a small-arms shot needs at range `r` against a target with `cover` covers (and
/// obscured): `None` when it cannot hit; `Some(1)` for a hit without a roll.
pub fn small_arms_needed(
    charts: &Charts,
    r: u32,
    firer: SmallArmsFirer,
    cover: u8,
    obscured: bool,
) -> Option<u32> {
    let sa = &charts.small_arms;
    let reach = if firer.smg {
        sa.smg_range
    } else {
        sa.max_range
    };
    if r > reach {
        return None;
    }
    let n = sa.base
        + r as i32
        + firer.markers as i32
        + cover as i32
        + obscured as i32
        + if firer.light { sa.light_penalty } else { 0 }
        - if firer.heavy { sa.heavy_bonus } else { 0 }
        - if firer.smg { sa.smg_bonus } else { 0 }
        - firer.commander as i32;
    match n {
        ..=1 => Some(1),
        2..=6 => Some(n as u32),
        _ => None,
    }
}

/// M84, M93: whether an item's weapon bears on a target, and at what cost. Turrets fire all
/// round (answering a shooter outside the arc in the non-phasing fire costs the turret turn);
/// SP guns, halftracks and emplaced guns only into their front arc; AA mounts all round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bearing {
    Bears,
    TurretTurn,
    No,
}

pub fn bearing(item: &crate::items::Item, target: Hex, responding: bool) -> Bearing {
    use crate::charts::Mount;
    use crate::items::Kind;
    let front = volley_core::geometry::in_front_arc(item.hex, item.facing, target);
    match &item.kind {
        Kind::Vehicle { spec, .. } => match spec.mount {
            Mount::Aa => Bearing::Bears,
            Mount::Turret if front => Bearing::Bears,
            Mount::Turret if responding => Bearing::TurretTurn,
            Mount::Turret => Bearing::Bears,
            Mount::Sp if front => Bearing::Bears,
            Mount::Sp => Bearing::No,
        },
        Kind::Gun { .. } if !front => Bearing::No,
        // Squads fire all round (they turn as they fire); guns into their front.
        _ => Bearing::Bears,
    }
}

#[cfg(test)]
mod bearing_tests {
    use super::*;
    use crate::charts::Roster;
    use crate::damage::Damage;
    use crate::items::{Item, Kind};
    use volley_core::geometry::parse_label;
    use volley_core::Side;

    fn v(t: &str) -> Item {
        Item {
            id: "v".into(),
            name: "v".into(),
            side: Side::Red,
            kind: Kind::Vehicle {
                type_id: t.into(),
                spec: Box::new(Roster::bundled().vehicles[t].clone()),
                damage: Damage::default(),
            },
            hex: parse_label("0505").unwrap(),
            facing: Facing::N,
        }
    }

    #[test]
    fn turrets_turn_sp_guns_do_not() {
        let ahead = parse_label("0502").unwrap();
        let behind = parse_label("0508").unwrap();
        assert_eq!(bearing(&v("pz4f2"), ahead, true), Bearing::Bears);
        assert_eq!(bearing(&v("pz4f2"), behind, false), Bearing::Bears);
        assert_eq!(
            bearing(&v("pz4f2"), behind, true),
            Bearing::TurretTurn,
            "M93: −1"
        );
        assert_eq!(bearing(&v("stug3g"), behind, false), Bearing::No);
        assert_eq!(bearing(&v("stug3g"), ahead, false), Bearing::Bears);
        assert_eq!(
            bearing(&v("m16"), behind, true),
            Bearing::Bears,
            "AA all round"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::{Charts, Weight};
    use volley_core::geometry::parse_label;

    fn h(l: &str) -> Hex {
        parse_label(l).unwrap()
    }

    #[test]
    fn range_zero_is_the_neighbouring_hex() {
        assert_eq!(range(h("0505"), h("0504")), 0);
        assert_eq!(range(h("0505"), h("0502")), 2);
    }

    #[test]
    fn flank_and_rear_lower_the_defence() {
        // A tank at 0505 facing N, defence 3.
        assert_eq!(facing_defence(3, h("0505"), Facing::N, h("0502")), 3);
        assert_eq!(facing_defence(3, h("0505"), Facing::N, h("0705")), 2);
        assert_eq!(facing_defence(3, h("0505"), Facing::N, h("0508")), 1);
        assert_eq!(
            facing_defence(1, h("0505"), Facing::N, h("0508")),
            0,
            "never below 0"
        );
    }

    #[test]
    fn the_at_roll_adds_range_defence_and_modifiers() {
        let c = Charts::bundled();
        let m = &c.guns[&Weight::M];
        // The digest's check: an M gun against an M tank's front at range 5 needs 8+ (79%).
        let r = at_roll(m, 5, c.chassis[&Weight::M].defence, AtModifiers::default());
        assert_eq!(r, AtRoll::AtLeast { dice: 2, needed: 8 });
        assert_eq!(r.percent(), 79);
        assert!(r.hits(8) && !r.hits(7));
        // A commander takes one off; cover and a turret turn add one each.
        let mods = AtModifiers {
            cover: 1,
            turret_turn: true,
            commander: 1,
            ..Default::default()
        };
        assert_eq!(
            at_roll(m, 5, 3, mods),
            AtRoll::AtLeast { dice: 2, needed: 9 }
        );
        // Beyond reach, and too hard for the dice.
        assert_eq!(
            at_roll(&c.guns[&Weight::VL], 11, 0, AtModifiers::default()),
            AtRoll::Impossible
        );
        assert_eq!(
            at_roll(m, 20, 3, AtModifiers::default()),
            AtRoll::Impossible
        );
        // A very light gun rolls one d10: range 4 against defence 2 needs 6+, 50%.
        let vl = at_roll(&c.guns[&Weight::VL], 4, 2, AtModifiers::default());
        assert_eq!(
            (vl, vl.percent()),
            (AtRoll::AtLeast { dice: 1, needed: 6 }, 50)
        );
    }

    #[test]
    fn at_automatic_range_each_penalty_takes_ten_per_cent() {
        let c = Charts::bundled();
        let m = &c.guns[&Weight::M];
        assert_eq!(at_roll(m, 0, 5, AtModifiers::default()), AtRoll::Automatic);
        let two = AtModifiers {
            cover: 1,
            obscured: true,
            low_silhouette: true,
            ..Default::default()
        };
        let r = at_roll(m, 0, 5, two);
        assert_eq!(
            r,
            AtRoll::AutoRangeAtMost(8),
            "low silhouette never counts here"
        );
        assert_eq!(r.percent(), 80);
    }

    #[test]
    fn small_arms_need_two_plus_range_and_penalties() {
        let c = Charts::bundled();
        let medium = SmallArmsFirer::default();
        let needed: Vec<Option<u32>> = (0..=5)
            .map(|r| small_arms_needed(&c, r, medium, 0, false))
            .collect();
        assert_eq!(
            needed,
            vec![Some(2), Some(3), Some(4), Some(5), Some(6), None]
        );
        let light = SmallArmsFirer {
            light: true,
            ..Default::default()
        };
        assert_eq!(
            small_arms_needed(&c, 4, light, 0, false),
            None,
            "Light at 4 cannot hit"
        );
        let smg = SmallArmsFirer {
            smg: true,
            commander: 1,
            ..Default::default()
        };
        assert_eq!(
            small_arms_needed(&c, 0, smg, 0, false),
            Some(1),
            "a hit without a roll"
        );
        assert_eq!(small_arms_needed(&c, 3, smg, 0, false), None, "SMG reach 2");
    }
}
