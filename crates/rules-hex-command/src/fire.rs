//! Section 7 (combat: phasing and non-phasing fire), 7.1 (ganging up), section 3 and 3.1
//! (artillery classes, rifled guns' grapeshot), and the firing chart.

use crate::actions::{HcAction, Sink};
use crate::cnc::Band;
use crate::effects;
use crate::events::ev_at;
use crate::sight::{cover, line_of_sight, Sight};
use crate::state::*;
use crate::units::{Arm, Class};
use volley_core::geometry::{aspect, distance, in_front_arc, label, Aspect};
use volley_core::{Dice, Hex, Log, Side};

/// Firing chart: the longest range, in hexes, of each band (auto, Color, Code, CnC); `None`
/// where the weapon has no such band. Artillery bands are two hexes each (section 3); class A
/// weapons reach one band further at CnC (the chart's "A class" row).
pub fn band_ranges(u: &Unit) -> [Option<u32>; 4] {
    match (u.arm, u.class) {
        (Arm::Artillery, Class::A) => [None, Some(4), Some(6), Some(10)],
        (Arm::Artillery, Class::B) => [Some(2), Some(4), Some(6), Some(8)],
        (Arm::Artillery, Class::C) => [None, Some(2), Some(4), Some(6)],
        // Repeaters and cavalry carbines reach only the Code band (chart note "+").
        (Arm::Cavalry, _) => [Some(1), Some(2), Some(3), None],
        (_, Class::A) => [Some(1), Some(2), Some(3), Some(5)],
        (_, Class::B) => [Some(1), Some(2), Some(3), Some(4)],
        (_, Class::C) => [None, Some(1), Some(2), Some(3)],
    }
}

/// The band a target at `range` hexes falls in, before modifiers.
pub fn range_band(u: &Unit, range: u32) -> Option<Band> {
    let ranges = band_ranges(u);
    Band::ALL
        .into_iter()
        .zip(ranges)
        .find(|(_, max)| max.is_some_and(|m| range <= m))
        .map(|(b, _)| b)
}

/// Whether unit `i` may fire in this phase at all.
pub fn may_fire(s: &State, i: usize) -> bool {
    let u = &s.units[i];
    let armed = match u.arm {
        Arm::Infantry | Arm::LightInfantry | Arm::Skirmishers => true,
        Arm::Cavalry => u.carbines,
        Arm::Artillery => !u.limbered && !u.is_crew_only(),
        Arm::Wagon | Arm::Decoy => false,
    };
    armed
        && u.active()
        && !u.routed
        && !u.fired_phase
        && !(s.settings().fire_once_per_turn && u.fired_turn)
        && !(u.unlimbered_after_move && s.settings().move_unlimber_fire_next_turn)
        && !(u.heavy && u.heavy_moved_turn)
        && !s.in_melee(i)
}

/// A possible shot and how it is judged.
#[derive(Clone, Debug)]
pub struct Shot {
    pub target: usize,
    pub range: u32,
    pub base: Band,
    pub needed: Band,
    pub modifiers: Modifiers,
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
    pub flank: bool,
    pub commander: i32,
    pub trained: bool,
}

impl Modifiers {
    /// The net shift of the band: penalties less bonuses (at most 2).
    pub fn shift(&self) -> i32 {
        let cp = self.hits as i32
            + self.fatigued as i32
            + self.cover
            + self.partial_obstacle as i32
            + self.out_of_arc as i32
            + self.unlimbered_after_move as i32;
        cp - self.bonus().min(2)
    }

    fn bonus(&self) -> i32 {
        self.flank as i32 + self.commander + self.trained as i32
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
        if self.flank {
            lines.push("1 CB flank/rear".into());
        }
        if self.commander > 0 {
            lines.push(format!("{} CB commander", self.commander));
        }
        if self.trained {
            lines.push("1 CB trained".into());
        }
        if self.bonus() > 2 {
            lines.push("bonuses capped at 2".into());
        }
        lines
    }
}

/// Every target unit `i` may fire at now, with what it needs to hit.
pub fn shots(s: &State, i: usize) -> Vec<Shot> {
    let u = &s.units[i];
    let artillery = u.arm == Arm::Artillery;
    let mut in_arc: Vec<(usize, u32, Band, Sight)> = Vec::new();
    let mut beside: Vec<(usize, Sight)> = Vec::new();
    let reach = band_ranges(u).into_iter().flatten().max().unwrap_or(0);
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
            if !(u.arm == Arm::Skirmishers && range == 1 && first_round) {
                continue;
            }
        }
        let Some(base) = range_band(u, range) else {
            continue;
        };
        let sight = line_of_sight(s, u.hex, e.hex, Some((u.side, artillery)));
        if sight == Sight::Blocked {
            continue;
        }
        if in_front_arc(u.hex, u.facing, e.hex) {
            in_arc.push((t, range, base, sight));
        } else if range == 1 && aspect(u.hex, u.facing, e.hex) == Aspect::Flank {
            beside.push((t, sight));
        }
    }
    // 7 f, 7 g: the closest band holding a target must be fired at; skirmishers may be
    // passed over for a more threatening target (firing chart notes).
    let nearest = |skip_sk: bool| {
        in_arc
            .iter()
            .filter(|x| !(skip_sk && s.units[x.0].arm == Arm::Skirmishers))
            .map(|x| x.2)
            .min()
    };
    let bands: Vec<Band> = [nearest(false), nearest(true)]
        .into_iter()
        .flatten()
        .collect();
    let mut out = Vec::new();
    for &(t, range, base, sight) in &in_arc {
        if !bands.contains(&base) {
            continue;
        }
        let alone_in_band = in_arc.iter().filter(|x| x.2 == base).count() == 1;
        if let Some(shot) = judge(s, i, t, range, base, sight, false, alone_in_band) {
            out.push(shot);
        }
    }
    // 7 e: point-blank fire beside the arc, at 1 CP, when nothing in arc is that close.
    if !in_arc.iter().any(|x| x.1 == 1) {
        for &(t, sight) in &beside {
            if let Some(base) = range_band(u, 1) {
                if let Some(shot) = judge(s, i, t, 1, base, sight, true, true) {
                    out.push(shot);
                }
            }
        }
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn judge(
    s: &State,
    i: usize,
    t: usize,
    range: u32,
    base: Band,
    sight: Sight,
    out_of_arc: bool,
    alone_in_band: bool,
) -> Option<Shot> {
    let u = &s.units[i];
    let e = &s.units[t];
    // 7.1 a: at most two units of one arm on a target, and a second only when the target is
    // the only one in its band.
    let same_arm = |a: Arm| if a == Arm::Artillery { 0 } else { 1 };
    let earlier = s
        .fire_log
        .iter()
        .filter(|(f, tt)| *tt == t && same_arm(s.units[*f].arm) == same_arm(u.arm))
        .count();
    if earlier >= 2 || (earlier == 1 && !alone_in_band) {
        return None;
    }
    let mods = Modifiers {
        hits: u.hits,
        fatigued: u.fatigued(),
        cover: cover(s, e.hex, u.hex),
        partial_obstacle: sight == Sight::Partial,
        out_of_arc,
        unlimbered_after_move: u.unlimbered_after_move,
        flank: aspect(e.hex, e.facing, u.hex) != Aspect::Front && !e.routed,
        commander: s.commander_value(i).max(0),
        trained: u.trained,
    };
    let needed = base.shifted(mods.shift())?;
    // Rifled guns (and class C) have no automatic hit: they roll for Red (3.1).
    let needed = if needed == Band::Auto && u.arm == Arm::Artillery && u.class != Class::B {
        Band::Color
    } else {
        needed
    };
    Some(Shot {
        target: t,
        range,
        base,
        needed,
        modifiers: mods,
    })
}

pub fn legal(s: &State, side: Side, out: &mut impl Sink) {
    for i in 0..s.units.len() {
        if s.units[i].side == side {
            unit_shots(s, i, out);
        }
    }
}

/// The shots unit `i` may fire now.
pub fn unit_shots(s: &State, i: usize, out: &mut impl Sink) {
    if !may_fire(s, i) {
        return;
    }
    for shot in shots(s, i) {
        out.put(HcAction::Fire {
            unit: i as u16,
            target: s.units[shot.target].hex,
        });
    }
}

pub fn apply(s: &mut State, i: usize, target_hex: Hex, dice: &mut dyn Dice, log: &mut Log) {
    let shot = shots(s, i)
        .into_iter()
        .find(|x| s.units[x.target].hex == target_hex)
        .expect("legal shot");
    let t = shot.target;
    s.fire_log.push((i, t));
    s.touch(i);
    s.touch(t);
    {
        let u = &mut s.units[i];
        u.fired_phase = true;
        u.fired_turn = true;
    }
    effects::reveal(s, i, log);
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
            "{} fires at {} {} ({}): range {} → {}; {} → needs {}",
            u.id,
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
        ev_at(
            "fire",
            if u.arm == Arm::Artillery { "3" } else { "7" },
            text,
        )
        .side(u.side)
        .units([&u.id, &e.id])
    });
    if !hit {
        return;
    }
    // 2 e, 2 g: on the red star the attached commander falls instead of the unit taking the hit.
    if star_red {
        if let Some(c) = s.units[t].commander {
            effects::lose_commander(s, c, CommanderStatus::Killed, log);
            return;
        }
    }
    if s.units[i].arm == Arm::Skirmishers {
        // Skirmisher hits are fatigue only (melee chart notes).
        effects::add_te(s, t, 1, "skirmisher fire", "7", log);
        return;
    }
    let n = if s.units[i].heavy { 2 } else { 1 };
    effects::apply_hits(s, t, n, "fire", log);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::Class;

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

    #[test]
    fn small_arms_bands_follow_the_chart() {
        let b = unit(Arm::Infantry, Class::B);
        let got: Vec<_> = (1..=5).map(|r| range_band(&b, r)).collect();
        assert_eq!(
            got,
            vec![
                Some(Band::Auto),
                Some(Band::Color),
                Some(Band::Code),
                Some(Band::CnC),
                None
            ]
        );
        let a = unit(Arm::Infantry, Class::A);
        assert_eq!(range_band(&a, 5), Some(Band::CnC));
        let c = unit(Arm::Infantry, Class::C);
        assert_eq!(range_band(&c, 1), Some(Band::Color));
        assert_eq!(range_band(&c, 4), None);
    }

    #[test]
    fn artillery_bands_are_two_hexes_each() {
        let b = unit(Arm::Artillery, Class::B);
        let got: Vec<_> = [1, 2, 3, 4, 5, 6, 7, 8, 9]
            .into_iter()
            .map(|r| range_band(&b, r))
            .collect();
        use Band::*;
        assert_eq!(
            got,
            vec![
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
            range_band(&a, 1),
            Some(Color),
            "rifled guns have no auto-hit band"
        );
        assert_eq!(range_band(&a, 10), Some(CnC));
    }
}
