//! Section 7 (combat: the fire step), 7.1 (ganging up), section 3 and 3.1 (artillery classes,
//! heavy guns, howitzers and mortars, fire against defensive structures, captured guns), the
//! firing chart and its modifiers, and the Supply and Pike and Shot optional rules.

use crate::cnc::Band;
use crate::effects;
use crate::events::ev_at;
use crate::orders::{HcAction, Sink};
use crate::sight::{cover, line_of_sight, Sight};
use crate::state::*;
use crate::units::{Arm, Class};
use volley_core::geometry::{aspect, distance, in_front_arc, label, Aspect};
use volley_core::{Dice, Hex, Log};

/// What a unit fires with: its own weapon, or enemy guns it has taken (section 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weapon {
    pub artillery: bool,
    pub class: Class,
    pub heavy: bool,
    pub howitzer: bool,
    pub mortar: bool,
    pub bands: [Option<u32>; 4],
}

/// Firing chart: the longest range, in hexes, of each band (auto, Color, Code, CnC); `None`
/// where the weapon has no such band. Artillery bands are two hexes each (section 3), heavy
/// guns' three (their "greater range", hand-out); class A weapons reach one band further at
/// CnC (the chart's "A class" row); repeaters and carbines reach only the Code band (the
/// chart's "+"). A scenario may give a unit its own bands.
pub fn band_ranges_for(u: &Unit, settings: &Settings) -> [Option<u32>; 4] {
    if let Some(b) = u.bands {
        return b;
    }
    let class = effective_class(u.class, settings);
    match (u.arm, class, u.heavy) {
        (Arm::Artillery, Class::A, false) => [None, Some(4), Some(6), Some(10)],
        (Arm::Artillery, Class::B, false) => [Some(2), Some(4), Some(6), Some(8)],
        (Arm::Artillery, Class::C, false) => [None, Some(2), Some(4), Some(6)],
        (Arm::Artillery, Class::A, true) => [None, Some(5), Some(8), Some(14)],
        (Arm::Artillery, Class::B, true) => [Some(2), Some(5), Some(8), Some(11)],
        (Arm::Artillery, Class::C, true) => [None, Some(3), Some(6), Some(9)],
        (Arm::Cavalry, _, _) => [Some(1), Some(2), Some(3), None],
        _ if u.repeaters => [Some(1), Some(2), Some(3), None],
        (_, Class::A, _) => [Some(1), Some(2), Some(3), Some(5)],
        (_, Class::B, _) => [Some(1), Some(2), Some(3), Some(4)],
        (_, Class::C, _) => [None, Some(1), Some(2), Some(3)],
    }
}

/// Pike and Shot era: the best firearms and guns are class B.
fn effective_class(class: Class, settings: &Settings) -> Class {
    if settings.pike_and_shot && class == Class::A {
        Class::B
    } else {
        class
    }
}

/// A unit's own weapon.
pub fn weapon(s: &State, u: &Unit) -> Weapon {
    let mut bands = band_ranges_for(u, s.settings());
    if u.mortar {
        // Mortars cannot fire into the hexes right before them (firing overview).
        bands[0] = None;
    }
    Weapon {
        artillery: u.arm == Arm::Artillery,
        class: effective_class(u.class, s.settings()),
        heavy: u.heavy,
        howitzer: u.howitzer,
        mortar: u.mortar,
        bands,
    }
}

/// The enemy guns unit `i` stands on and may fire (section 3: captured guns get a d6 of
/// shots), as a weapon, with the crew unit that lost them.
pub fn captured_guns(s: &State, i: usize) -> Option<(usize, Weapon)> {
    let u = &s.units[i];
    let g = s.guns_at(u.hex)?;
    let crew = &s.units[g];
    let guns = crew.guns?;
    (crew.side != u.side && guns.taken && guns.shots > 0 && u.arm.can_melee()).then(|| {
        let mut as_guns = crew.clone();
        as_guns.guns = None;
        (g, weapon(s, &as_guns))
    })
}

/// The band a target at `range` hexes falls in, before modifiers.
pub fn band_at(bands: &[Option<u32>; 4], range: u32) -> Option<Band> {
    Band::ALL
        .into_iter()
        .zip(bands)
        .find(|(_, max)| max.is_some_and(|m| range <= m))
        .map(|(b, _)| b)
}

/// The band a target at `range` hexes falls in for a unit's own weapon.
pub fn range_band(s: &State, u: &Unit, range: u32) -> Option<Band> {
    let w = weapon(s, u);
    band_at(&w.bands, range).filter(|_| !(w.mortar && range <= 1))
}

/// The weapon's point-blank band: its first (7 e).
fn first_band(w: &Weapon) -> Option<Band> {
    Band::ALL
        .into_iter()
        .zip(w.bands)
        .find(|(_, m)| m.is_some())
        .map(|(b, _)| b)
}

/// Whether unit `i` may fire in this round of the fire step at all.
pub fn may_fire(s: &State, i: usize) -> bool {
    let u = &s.units[i];
    let armed = match u.arm {
        Arm::Infantry | Arm::LightInfantry | Arm::Skirmishers => true,
        Arm::Cavalry => u.carbines,
        // Mounted infantry cannot fire on horseback.
        Arm::MountedInfantry => !u.mounted,
        Arm::Artillery => !u.limbered && !u.is_crew_only(),
        Arm::Wagon | Arm::Decoy => false,
    };
    let armed = armed || captured_guns(s, i).is_some();
    armed
        && u.active()
        && !u.routed
        && !u.fired_phase
        && !(s.settings().once_per_turn() && u.fired_turn)
        && !(u.unlimbered_after_move && s.settings().move_unlimber_fire_next_turn)
        && !(u.heavy && u.heavy_moved_turn)
        && !(s.settings().supply && u.supply == 0 && !u.fired_turn)
        && u.building.is_none()
        && !s.in_melee(i)
        && fires_this_round(s, i)
}

/// Whether unit `i` belongs to the units firing in this round (7 c and its alternatives).
fn fires_this_round(s: &State, i: usize) -> bool {
    let Some(round) = s.fire_rounds.get(s.fire_round as usize) else {
        return false;
    };
    let u = &s.units[i];
    if u.side != round.side {
        return false;
    }
    if let Some(g) = s.active_group() {
        // Section 2.3: in a group's small turn the phasing player fires that group and its
        // floating guns; the other player fires as usual.
        if u.side == s.phasing() && s.group_of(i).is_some_and(|x| x != g) {
            return false;
        }
    }
    match round.who {
        FireWho::All => true,
        FireWho::Commanded(with) => s.in_sphere(i) == with,
        FireWho::Passed(passed) => {
            u.brigade.is_some_and(|b| s.passed_brigades.contains(&b)) == passed
        }
    }
}

/// A possible shot and how it is judged.
#[derive(Clone, Debug)]
pub struct Shot {
    /// The target unit; `None` for a shot at a defensive work alone.
    pub target: Option<usize>,
    pub hex: Hex,
    pub range: u32,
    pub base: Band,
    pub needed: Band,
    pub modifiers: Modifiers,
    /// Fired with captured guns.
    pub guns: bool,
    /// A defensive work the shot must get through first (section 3, Classes).
    pub structure: bool,
}

/// What moved a shot's band (firing chart, 7 e, 7 i, 2 d): CP (Code Penalties) worsen it, CB
/// (Color Bonuses) better it, two at most. Kept as numbers; written out only for the log.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Modifiers {
    pub hits: u8,
    pub fatigued: bool,
    pub cover: i32,
    pub partial_obstacle: bool,
    pub out_of_arc: bool,
    pub unlimbered_after_move: bool,
    /// Pike and Shot guns that turned this turn.
    pub turned: bool,
    pub flank: bool,
    /// The target is a column on a road (5.5.1).
    pub road_column: bool,
    pub higher: bool,
    pub commander: i32,
    pub trained: bool,
    pub repeaters: bool,
}

impl Modifiers {
    /// The net shift of the band: penalties less bonuses (at most 2).
    pub fn shift(&self) -> i32 {
        let cp = self.hits as i32
            + self.fatigued as i32
            + self.cover
            + self.partial_obstacle as i32
            + self.out_of_arc as i32
            + self.unlimbered_after_move as i32
            + self.turned as i32;
        cp - self.bonus().min(2)
    }

    fn bonus(&self) -> i32 {
        (self.flank || self.road_column) as i32
            + self.higher as i32
            + self.commander
            + (self.trained || self.repeaters) as i32
    }

    /// Each modifier in words, as the log writes them.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if self.hits > 0 {
            lines.push(format!("{} CP for hits", self.hits));
        }
        if self.fatigued {
            lines.push("1 CP fatigued".into());
        }
        if self.cover > 0 {
            lines.push(format!("{} CP for cover", self.cover));
        }
        if self.partial_obstacle {
            lines.push("1 CP partial obstacle".into());
        }
        if self.out_of_arc {
            lines.push("1 CP point blank outside the arc".into());
        }
        if self.unlimbered_after_move {
            lines.push("1 CP moved and unlimbered".into());
        }
        if self.turned {
            lines.push("1 CP guns turned".into());
        }
        if self.flank {
            lines.push("1 CB flank/rear".into());
        } else if self.road_column {
            lines.push("1 CB column on the road".into());
        }
        if self.higher {
            lines.push("1 CB higher".into());
        }
        if self.commander > 0 {
            lines.push(format!("{} CB commander", self.commander));
        }
        if self.trained || self.repeaters {
            lines.push(
                if self.repeaters {
                    "1 CB repeaters"
                } else {
                    "1 CB trained"
                }
                .into(),
            );
        }
        if self.bonus() > 2 {
            lines.push("bonuses capped at 2".into());
        }
        lines
    }
}

/// A target found in range: the unit, its range, band and sight.
struct Found {
    target: usize,
    range: u32,
    base: Band,
    sight: Sight,
}

/// Every target unit `i` may fire at now with weapon `w`, with what it needs to hit.
fn shots_with(s: &State, i: usize, w: &Weapon, guns: bool, out: &mut Vec<Shot>) {
    let u = &s.units[i];
    let mut in_arc: Vec<Found> = Vec::new();
    let mut beside: Vec<Found> = Vec::new();
    let reach = w.bands.into_iter().flatten().max().unwrap_or(0);
    let point_blank = first_band(w);
    for t in s.units_near(u.hex, reach, Some(u.side.other())) {
        let e = &s.units[t];
        if e.side == u.side || !e.active() || !s.visible_to(t, u.side) {
            continue;
        }
        let range = distance(u.hex, e.hex);
        // No firing into a melee (7.3 g), except skirmishers point blank in its first round.
        if s.in_melee(t) {
            let first_round = s
                .melees
                .iter()
                .filter(|m| m.attacker == t || m.defender == t)
                .all(|m| m.rounds == 0);
            if !(u.arm == Arm::Skirmishers && range == 1 && first_round && !guns) {
                continue;
            }
        }
        let Some(base) = band_at(&w.bands, range) else {
            continue;
        };
        if w.mortar && range <= 1 {
            continue;
        }
        // Howitzers and mortars fire over what stands between (section 3, Classes); the
        // ground must still let them see the target.
        let viewer = (!w.howitzer).then_some((u.side, w.artillery));
        let mut sight = line_of_sight(s, u.hex, e.hex, viewer);
        if w.howitzer && sight == Sight::Partial {
            sight = Sight::Clear;
        }
        if sight == Sight::Blocked {
            continue;
        }
        let found = Found {
            target: t,
            range,
            base,
            sight,
        };
        if in_front_arc(u.hex, u.facing, e.hex) {
            in_arc.push(found);
        } else if Some(base) == point_blank && aspect(u.hex, u.facing, e.hex) == Aspect::Flank {
            beside.push(found);
        }
    }
    // 7 f, 7 g: the closest band holding a target must be fired at; skirmishers may be
    // passed over for a more threatening target (firing chart notes).
    let nearest = |skip_sk: bool| {
        in_arc
            .iter()
            .filter(|x| !(skip_sk && s.units[x.target].arm == Arm::Skirmishers))
            .map(|x| x.base)
            .min()
    };
    let bands: Vec<Band> = [nearest(false), nearest(true)]
        .into_iter()
        .flatten()
        .collect();
    for f in &in_arc {
        if !bands.contains(&f.base) {
            continue;
        }
        let alone_in_band = in_arc.iter().filter(|x| x.base == f.base).count() == 1;
        if let Some(shot) = judge(s, i, w, f, false, alone_in_band, guns) {
            out.push(shot);
        }
    }
    // 7 e: point-blank fire beside the arc, at 1 CP, when nothing in the arc is in that band.
    if point_blank.is_some_and(|pb| !in_arc.iter().any(|x| x.base == pb)) {
        for f in &beside {
            if let Some(shot) = judge(s, i, w, f, true, true, guns) {
                out.push(shot);
            }
        }
    }
    // Guns may batter an empty enemy work in their arc (section 3, Classes).
    if w.artillery && !w.howitzer && in_arc.is_empty() {
        for work in &s.works.0 {
            let h = work.hex;
            let range = distance(u.hex, h);
            if !work.kind.defensive()
                || !work.standing()
                || work.side == u.side && work.kind != hex_command_family::ground::WorkKind::Fort
                || s.unit_at(h).is_some()
                || !in_front_arc(u.hex, u.facing, h)
            {
                continue;
            }
            let Some(base) = band_at(&w.bands, range) else {
                continue;
            };
            if line_of_sight(s, u.hex, h, Some((u.side, true))) == Sight::Blocked {
                continue;
            }
            out.push(Shot {
                target: None,
                hex: h,
                range,
                base,
                needed: Band::Color,
                modifiers: Modifiers::default(),
                guns,
                structure: true,
            });
        }
    }
}

/// Every shot unit `i` may fire now: with its own weapon, and with captured guns.
pub fn shots(s: &State, i: usize) -> Vec<Shot> {
    let mut out = Vec::new();
    let u = &s.units[i];
    let own_armed = match u.arm {
        Arm::Cavalry => u.carbines,
        Arm::MountedInfantry => !u.mounted,
        Arm::Artillery => !u.limbered && !u.is_crew_only(),
        Arm::Wagon | Arm::Decoy => false,
        _ => true,
    };
    if own_armed {
        shots_with(s, i, &weapon(s, u), false, &mut out);
    }
    if let Some((_, w)) = captured_guns(s, i) {
        shots_with(s, i, &w, true, &mut out);
    }
    out
}

fn judge(
    s: &State,
    i: usize,
    w: &Weapon,
    f: &Found,
    out_of_arc: bool,
    alone_in_band: bool,
    guns: bool,
) -> Option<Shot> {
    let u = &s.units[i];
    let t = f.target;
    let e = &s.units[t];
    // 7.1 a: at most two units of one arm on a target, and a second only when the target is
    // the only one in its band.
    let same_arm = |a: Arm| if a == Arm::Artillery { 0 } else { 1 };
    let firing_arm = if w.artillery { Arm::Artillery } else { u.arm };
    let earlier = s
        .fire_log
        .iter()
        .filter(|(f, tt)| *tt == t && same_arm(s.units[*f].arm) == same_arm(firing_arm))
        .count();
    if earlier >= 2 || (earlier == 1 && !alone_in_band) {
        return None;
    }
    let ground = s.ground();
    // Howitzers fire over fortification walls: only the ground's own cover counts.
    let cover = if w.howitzer {
        match ground.terrain(e.hex) {
            volley_core::map::Terrain::Woods
            | volley_core::map::Terrain::LightWoods
            | volley_core::map::Terrain::Town => 1,
            _ => 0,
        }
    } else {
        cover(s, e.hex, u.hex)
    };
    let mods = Modifiers {
        hits: u.hits,
        fatigued: u.fatigued(),
        cover,
        partial_obstacle: f.sight == Sight::Partial,
        out_of_arc,
        unlimbered_after_move: u.unlimbered_after_move && !guns,
        turned: w.artillery
            && !guns
            && (s.settings().pike_and_shot && !u.rare || u.immobile)
            && u.facing_changes > 0,
        flank: aspect(e.hex, e.facing, u.hex) != Aspect::Front && !e.routed,
        road_column: e.road_column,
        higher: ground.elevation(u.hex) > ground.elevation(e.hex),
        commander: s.commander_value(i).max(0),
        trained: u.trained && !guns,
        repeaters: u.repeaters && !guns,
    };
    let needed = f.base.shifted(mods.shift())?;
    // Rifled guns (and class C) have no automatic hit: they roll for Red (3.1).
    let needed = if needed == Band::Auto && w.artillery && w.class != Class::B {
        Band::Color
    } else {
        needed
    };
    let structure = w.artillery && !w.howitzer && s.works.defence(e.hex).is_some();
    Some(Shot {
        target: Some(t),
        hex: e.hex,
        range: f.range,
        base: f.base,
        needed,
        modifiers: mods,
        guns,
        structure,
    })
}

pub fn legal(s: &State, out: &mut impl Sink) {
    for i in 0..s.units.len() {
        unit_shots(s, i, out);
    }
}

/// The shots unit `i` may fire now.
pub fn unit_shots(s: &State, i: usize, out: &mut impl Sink) {
    if !may_fire(s, i) {
        return;
    }
    for shot in shots(s, i) {
        let unit = i as u16;
        out.put(if shot.guns {
            HcAction::GunFire {
                unit,
                target: shot.hex,
            }
        } else {
            HcAction::Fire {
                unit,
                target: shot.hex,
            }
        });
    }
}

pub fn apply(
    s: &mut State,
    i: usize,
    target_hex: Hex,
    with_guns: bool,
    dice: &mut dyn Dice,
    log: &mut Log,
) {
    let shot = shots(s, i)
        .into_iter()
        .find(|x| x.hex == target_hex && x.guns == with_guns)
        .expect("legal shot");
    s.touch(i);
    {
        let supply = s.settings().supply;
        let u = &mut s.units[i];
        if supply && !u.fired_turn {
            // Optional Rules, Supply: a point for each turn the unit fires.
            u.supply = u.supply.saturating_sub(1);
        }
        u.fired_phase = true;
        u.fired_turn = true;
    }
    if with_guns {
        if let Some((g, _)) = captured_guns(s, i) {
            if let Some(guns) = s.units[g].guns.as_mut() {
                guns.shots -= 1;
            }
        }
    }
    effects::reveal(s, i, log);
    let section = if s.units[i].arm == Arm::Artillery || with_guns {
        "3"
    } else {
        "7"
    };
    if shot.structure {
        let (d, face) = s.settings().cube.roll(dice);
        let work = s.works.defence(target_hex).cloned();
        if let Some(work) = work.filter(|_| face.red) {
            let n = if weapon_of(s, i, with_guns).heavy {
                2
            } else {
                1
            };
            let w = s.works.at_mut(target_hex).expect("a standing work");
            w.damage = (w.damage + n).min(w.kind.strength());
            let (now, fell) = (w.damage, !w.standing());
            s.touch_everything();
            let id = s.units[i].id.clone();
            log.add(|| {
                ev_at(
                    "fire",
                    "3",
                    format!(
                        "{id} fires at the {} at {}: rolled {d} ({}): the shot strikes the works ({now}/{} hits){}",
                        work.kind.name(),
                        label(target_hex),
                        face.name(),
                        work.kind.strength(),
                        if fell { "; they no longer shelter anyone" } else { "" }
                    ),
                )
                .side(s.units[i].side)
                .units([&id])
            });
            return;
        }
        let text = match shot.target {
            None => format!(
                "fires at the works at {}: rolled {d} ({}): miss",
                label(target_hex),
                face.name()
            ),
            Some(_) => format!(
                "'s shot at {}: rolled {d} ({}) for the works: it passes them",
                label(target_hex),
                face.name()
            ),
        };
        let id = s.units[i].id.clone();
        let sep = if shot.target.is_none() { " " } else { "" };
        log.add(|| {
            ev_at("fire", "3", format!("{id}{sep}{text}"))
                .side(s.units[i].side)
                .units([&id])
        });
        if shot.target.is_none() {
            return;
        }
    }
    let Some(t) = shot.target else { return };
    s.fire_log.push((i, t));
    s.touch(t);
    let (hit, star_red, roll) = if shot.needed == Band::Auto {
        (true, false, None)
    } else {
        let (d, face) = s.settings().cube.roll(dice);
        let hit = shot.needed.met_by(face);
        (hit, face.red && face.star, Some((d, face, hit)))
    };
    let (u, e) = (&s.units[i], &s.units[t]);
    log.add(|| {
        let lines = shot.modifiers.lines();
        let mods = if lines.is_empty() {
            "no modifiers".to_string()
        } else {
            lines.join(", ")
        };
        let mut text = format!(
            "{} fires{} at {} {} ({}): range {} → {}; {} → needs {}",
            u.id,
            if with_guns { " the captured guns" } else { "" },
            e.id,
            e.name,
            label(target_hex),
            shot.range,
            shot.base.name(),
            mods,
            shot.needed.name()
        );
        match roll {
            None => text.push_str(": automatic hit"),
            Some((d, face, hit)) => text.push_str(&format!(
                "; rolled {d} ({}): {}",
                face.name(),
                if hit { "hit" } else { "miss" }
            )),
        }
        ev_at("fire", section, text)
            .side(u.side)
            .units([&u.id, &e.id])
    });
    if !hit {
        return;
    }
    if s.units[i].arm == Arm::Skirmishers && !with_guns {
        // Skirmisher hits are fatigue and disorder only (melee chart notes): no casualty, and
        // so no commander falls to them.
        effects::add_te(s, t, 1, "skirmisher fire", "7", log);
        return;
    }
    // 2 e, 2 g: on the red star the attached commander falls instead of the unit taking the hit.
    if star_red {
        if let Some(c) = s.units[t].commander {
            effects::lose_commander(s, c, Fallen::Killed, log);
            return;
        }
    }
    let n = if weapon_of(s, i, with_guns).heavy {
        2
    } else {
        1
    };
    effects::apply_hits(s, t, n, "fire", log);
}

fn weapon_of(s: &State, i: usize, guns: bool) -> Weapon {
    if guns {
        captured_guns(s, i)
            .map(|(_, w)| w)
            .unwrap_or_else(|| weapon(s, &s.units[i]))
    } else {
        weapon(s, &s.units[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::Class;
    use volley_core::Side;

    fn unit(arm: Arm, class: Class) -> Unit {
        crate::scenario::new_unit(
            "x".into(),
            "x".into(),
            Side::Red,
            arm,
            class,
            Hex::ZERO,
            volley_core::geometry::Facing::N,
            10,
        )
    }

    fn settings() -> Settings {
        Settings::from_options(&volley_core::Options::new())
    }

    fn bands(u: &Unit) -> Vec<Option<Band>> {
        (1..=15)
            .map(|r| band_at(&band_ranges_for(u, &settings()), r))
            .collect()
    }

    #[test]
    fn small_arms_bands_follow_the_chart() {
        use Band::*;
        let b = unit(Arm::Infantry, Class::B);
        assert_eq!(
            bands(&b)[..5],
            [Some(Auto), Some(Color), Some(Code), Some(CnC), None]
        );
        let a = unit(Arm::Infantry, Class::A);
        assert_eq!(bands(&a)[4], Some(CnC));
        let c = unit(Arm::Infantry, Class::C);
        assert_eq!(bands(&c)[0], Some(Color));
        assert_eq!(bands(&c)[3], None);
    }

    #[test]
    fn artillery_bands_are_two_hexes_each() {
        use Band::*;
        let b = unit(Arm::Artillery, Class::B);
        assert_eq!(
            bands(&b)[..9],
            [
                Some(Auto),
                Some(Auto),
                Some(Color),
                Some(Color),
                Some(Code),
                Some(Code),
                Some(CnC),
                Some(CnC),
                None
            ]
        );
        let a = unit(Arm::Artillery, Class::A);
        assert_eq!(
            bands(&a)[0],
            Some(Color),
            "rifled guns have no auto-hit band"
        );
        assert_eq!(bands(&a)[9], Some(CnC));
    }

    #[test]
    fn heavy_guns_reach_further_and_repeaters_stop_at_code() {
        use Band::*;
        let mut h = unit(Arm::Artillery, Class::B);
        h.heavy = true;
        assert_eq!(
            bands(&h)[10],
            Some(CnC),
            "heavy smoothbore reaches 11 hexes"
        );
        assert_eq!(bands(&h)[11], None);
        let mut r = unit(Arm::Infantry, Class::A);
        r.repeaters = true;
        assert_eq!(bands(&r)[2], Some(Code));
        assert_eq!(bands(&r)[3], None, "repeaters: maximum range the Code band");
    }
}
