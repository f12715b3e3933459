//! Fire (M81–M102): the non-phasing side fires, then the phasing side. Each item fires once a
//! fire step (Very Light and Light guns twice, M7); the weapon follows from firer and target:
//! guns and AT squads roll the anti-tank roll against vehicles (M85–M88) and fire HE at
//! infantry and guns (M97–M98), squads and vehicle machine guns fire small arms (M90, M92),
//! squads without AT weapons hurt a vehicle only next to it (M89, C9).

use crate::acting;
use crate::charts::{Gun, Weight};
use crate::effects;
use crate::fire_tables::{self, at_roll, AtModifiers, AtRoll, Bearing, SmallArmsFirer};
use crate::hidden;
use crate::items::Kind;
use crate::losses;
use crate::rule;
use crate::state::{State, Step};
use hex_command_family::sight::{self, Sight};
use volley_core::game::Refusal;
use volley_core::{Dice, Event, Hex, Log};

/// How a shot is resolved.
#[derive(Clone, Debug, PartialEq)]
pub enum Shot {
    /// The anti-tank roll of a gun of this weight (against a vehicle: damage blocks; against
    /// a squad or gun: HE).
    At {
        weight: Weight,
        roll: AtRoll,
        he: bool,
    },
    /// Small arms: a d6 needing this (1: a hit without a roll).
    SmallArms { needed: u32 },
}

/// M11: a halftrack with no gun of its own fights as a Light AT infantry stand.
fn fights_as_infantry(s: &State, i: usize) -> bool {
    matches!(&s.item(i).kind, Kind::Vehicle { spec, .. }
        if spec.gun.is_none() && spec.drive == crate::charts::Drive::Halftrack)
}

/// The weight of an item's gun: a vehicle's, a towed gun's, an AT squad's (M88).
fn gun_weight(s: &State, i: usize) -> Option<Weight> {
    match &s.item(i).kind {
        Kind::Vehicle { spec, .. } if fights_as_infantry(s, i) => s
            .setup
            .charts
            .infantry
            .get(&Weight::L)
            .map(|inf| inf.at_weight)
            .or(spec.gun),
        Kind::Vehicle { spec, .. } => spec.gun,
        Kind::Gun { weight, .. } => Some(*weight),
        Kind::Squad(sq) if sq.at => sq
            .weight
            .and_then(|w| s.setup.charts.infantry.get(&w))
            .map(|inf| inf.at_weight),
        Kind::Squad(_) => None,
    }
}

pub fn check_fire<R: Refusal>(s: &State, i: usize, t: usize) -> Result<(), R> {
    acting::check_may_fire::<R>(s, i)?;
    if !s.in_play(t)
        || s.item(t).side == s.item(i).side
        || !hidden::visible_to(s, t, s.item(i).side)
    {
        return Err(R::because(|| {
            "the target must be an enemy item in play that its side can see"
        }));
    }
    let (it, tg) = (s.item(i), s.item(t));
    if fire_tables::bearing(it, tg.hex, s.step == Step::DefensiveFire) == Bearing::No {
        return Err(R::because(|| {
            format!(
                "{} cannot bear on {}: it fires only to its front (M84)",
                it.id, tg.id
            )
        }));
    }
    if matches!(it.kind, Kind::Gun { .. })
        && s.setup.map.terrain(it.hex) == volley_core::map::Terrain::Woods
        && !fire_tables::across_hexside(it.hex, it.facing, tg.hex)
    {
        return Err(R::because(|| {
            format!(
                "{} stands in a forest and fires only out of the hexside it faces, {} (M62)",
                it.id,
                it.facing.name()
            )
        }));
    }
    let g = s.ground();
    if sight::line_of_sight(g, it.hex, tg.hex, None, |_| None) == Sight::Blocked
        || hidden::smoked(s, it.hex, tg.hex)
        || units_in_the_way(s, i, t)
    {
        return Err(R::because(|| {
            format!("{} cannot see {} (M71)", it.id, tg.id)
        }));
    }
    if let Some(limit) = sudden_target_beyond(s, i, t) {
        return Err(R::because(|| {
            format!(
                "{} was not in {}'s sight at the start of the turn: it may be fired on only within half the weapon's reach, range {limit} (M75)",
                tg.id, it.id
            )
        }));
    }
    if let Some(gap) = sudden_target_in_a_gap(s, i, t) {
        return Err(R::because(|| {
            format!(
                "{} appeared in a gap {gap} hex{} wide and is {} hexes from {}: a target in a gap is fired on only from within twice the gap's width, {} hexes (M75)",
                tg.id,
                if gap == 1 { "" } else { "es" },
                it.hex.unsigned_distance_to(tg.hex),
                it.id,
                2 * gap
            )
        }));
    }
    match shot(s, i, t) {
        None
        | Some(Shot::At {
            roll: AtRoll::Impossible,
            ..
        }) => Err(R::because(|| {
            format!(
                "{} has no weapon that reaches {} at range {} (M85, M89, M90)",
                it.id,
                tg.id,
                fire_tables::range(it.hex, tg.hex)
            )
        })),
        Some(_) => Ok(()),
    }
}

/// M73: items on the line of fire block it, unless the firer stands higher than the item
/// or the target does, and the target is not next to it; a low-hulled assault gun (fixed
/// gun, low silhouette) never fires past a friend in its front arc. Only items the firer's
/// side knows of count; a line along a hexside is open if either reading is.
pub fn units_in_the_way(s: &State, i: usize, t: usize) -> bool {
    let map = &s.setup.map;
    let (a, b) = (s.item(i).hex, s.item(t).hex);
    let side = s.item(i).side;
    let low_hull = matches!(&s.item(i).kind, Kind::Vehicle { spec, .. }
        if spec.mount == crate::charts::Mount::Sp && spec.low_silhouette);
    let blocks = |h: Hex| {
        let known: Vec<usize> = s
            .items_at(h)
            .filter(|&o| hidden::visible_to(s, o, side))
            .collect();
        if known.is_empty() {
            return false;
        }
        let friend = known.iter().any(|&o| s.item(o).side == side);
        if low_hull && friend {
            return true;
        }
        let over = map.elevation(a) > map.elevation(h) || map.elevation(b) > map.elevation(h);
        !(over && h.unsigned_distance_to(b) > 1)
    };
    volley_core::geometry::lines_between(a, b)
        .iter()
        .all(|line| line.iter().any(|&h| h != a && h != b && blocks(h)))
}

/// M75: at the start of each game turn, every item notes the enemies its side knows of
/// that it can see.
pub fn note_what_is_seen(s: &mut State) {
    let n = s.items.len();
    let g = s.ground();
    let seen: Vec<Vec<usize>> = (0..n)
        .map(|i| {
            if !s.in_play(i) {
                return Vec::new();
            }
            let side = s.item(i).side;
            (0..n)
                .filter(|&t| {
                    s.in_play(t)
                        && s.item(t).side != side
                        && hidden::visible_to(s, t, side)
                        && sight::line_of_sight(g, s.item(i).hex, s.item(t).hex, None, |_| None)
                            != Sight::Blocked
                })
                .collect()
        })
        .collect();
    s.seen_at_start = seen;
}

/// The farthest an item's weapons reach against a target of that kind, for M75.
fn reach_against(s: &State, i: usize, t: usize) -> u32 {
    let charts = &s.setup.charts;
    let gun = gun_weight(s, i).map_or(0, |w| charts.guns[&w].max_range);
    let vehicle_target = matches!(s.item(t).kind, Kind::Vehicle { .. });
    match &s.item(i).kind {
        Kind::Squad(sq) if vehicle_target => {
            if sq.at {
                2
            } else {
                0
            }
        }
        Kind::Squad(sq) => {
            if sq.smg {
                charts.small_arms.smg_range
            } else {
                charts.small_arms.max_range
            }
        }
        Kind::Vehicle { .. } if !vehicle_target => gun.max(charts.small_arms.mg_range),
        _ => gun,
    }
}

/// M75: a target the firer could not see at the start of the turn is fired on only within
/// half the weapon's reach; `Some(limit)` when this shot is beyond it.
pub fn sudden_target_beyond(s: &State, i: usize, t: usize) -> Option<u32> {
    let seen = s.seen_at_start.get(i).is_some_and(|sq| sq.contains(&t));
    if seen || s.seen_at_start.is_empty() {
        return None;
    }
    let limit = reach_against(s, i, t) / 2;
    let r = fire_tables::range(s.item(i).hex, s.item(t).hex);
    (r > limit).then_some(limit)
}

/// M75's second example: a target the firer could not see at the start of the turn that
/// stands in a gap between two hexes blocking sight, across the line of fire, is fired on
/// only from within twice the gap's width; `Some(width)` when this shot is farther.
pub fn sudden_target_in_a_gap(s: &State, i: usize, t: usize) -> Option<u32> {
    let seen = s.seen_at_start.get(i).is_some_and(|sq| sq.contains(&t));
    if seen || s.seen_at_start.is_empty() {
        return None;
    }
    let g = s.ground();
    let (from, to) = (s.item(i).hex, s.item(t).hex);
    let width = fire_tables::gap_across(&s.setup.map, |h| sight::sight_height(g, h), from, to)?;
    (from.unsigned_distance_to(to) > 2 * width).then_some(width)
}

/// The covers a target has against a firer (M91): its hex and hexside as the Hex Command
/// family counts them, and higher ground.
fn covers(s: &State, i: usize, t: usize) -> u8 {
    let g = s.ground();
    let map = &s.setup.map;
    let (a, b) = (s.item(i).hex, s.item(t).hex);
    let higher = map.elevation(b) > map.elevation(a);
    (sight::cover(g, b, a).max(0) as u8) + higher as u8
}

/// The shot item `i` would make at `t`, if it has a weapon for it.
pub fn shot(s: &State, i: usize, t: usize) -> Option<Shot> {
    let charts = &s.setup.charts;
    let (it, tg) = (s.item(i), s.item(t));
    let r = fire_tables::range(it.hex, tg.hex);
    // M27: a commander with the firer helps by one, or by its Combat (option cvs_combat).
    let commander = s.commander_with(i).map_or(0, |c| {
        if s.setup.settings.cvs_combat {
            s.commanders[c].combat
        } else {
            1
        }
    });
    let markers = match &it.kind {
        Kind::Squad(sq) => sq.markers,
        Kind::Vehicle { damage, .. } => damage.combat_penalty(charts),
        Kind::Gun { .. } => 0,
    };
    let cover = covers(s, i, t);
    // M74, M130 (option obscured_fire): a line only partly clear (light woods, works, a
    // slope on it) costs a point.
    let obscured = s.setup.settings.obscured_fire && {
        let g = s.ground();
        sight::line_of_sight(g, it.hex, tg.hex, None, |_| None) == Sight::Partial
    };
    let turret_turn =
        fire_tables::bearing(it, tg.hex, s.step == Step::DefensiveFire) == Bearing::TurretTurn;
    let mods = |low: bool| AtModifiers {
        firer_penalty: markers,
        cover,
        obscured,
        turret_turn,
        commander,
        low_silhouette: low,
    };
    let gun_of = |w: Weight, squad: bool| -> Gun {
        let mut g = charts.guns[&w].clone();
        if squad {
            // M88: an AT squad's weapon reaches range 2 and rolls one d10.
            g.max_range = 2;
            g.auto_range = 0;
        }
        g
    };
    match &tg.kind {
        Kind::Vehicle { spec, damage, .. } => {
            let defence = charts.chassis[&spec.chassis]
                .defence
                .saturating_sub(damage.defence_penalty(charts));
            let defence = fire_tables::facing_defence(defence, tg.hex, tg.facing, it.hex);
            let (weight, gun) = match &it.kind {
                Kind::Squad(sq) if sq.at => {
                    let w = gun_weight(s, i)?;
                    (w, gun_of(w, true))
                }
                // M89, C9: a squad without AT weapons hurts a vehicle only next to it, as
                // a Very Light weapon.
                Kind::Squad(_) => {
                    let mut g = gun_of(Weight::VL, true);
                    g.max_range = 0;
                    (Weight::VL, g)
                }
                _ => {
                    let w = gun_weight(s, i)?;
                    (w, gun_of(w, fights_as_infantry(s, i)))
                }
            };
            let low = spec.low_silhouette && r > gun.auto_range;
            Some(Shot::At {
                weight,
                roll: at_roll(&gun, r, defence, mods(low)),
                he: false,
            })
        }
        Kind::Squad(_) | Kind::Gun { .. } => {
            // T1 rates infantry and guns by weight as it rates vehicles: a gun's HE roll
            // (M98's "ordinary hit roll") reads the defence of that weight.
            let soft = soft_defence(s, t);
            match &it.kind {
                Kind::Squad(sq) => {
                    let firer = SmallArmsFirer {
                        light: sq.weight == Some(Weight::L),
                        heavy: sq.weight == Some(Weight::H),
                        smg: sq.smg,
                        markers: sq.markers,
                        commander,
                    };
                    fire_tables::small_arms_needed(charts, r, firer, cover, obscured)
                        .map(|needed| Shot::SmallArms { needed })
                }
                Kind::Vehicle { spec, .. } => {
                    // M92: within its reach a vehicle's machine guns fire as a Medium squad;
                    // beyond, its gun fires HE (M98).
                    let mg = spec.mg != crate::charts::MgMount::None;
                    if mg && r <= charts.small_arms.mg_range {
                        let firer = SmallArmsFirer {
                            markers,
                            commander,
                            ..Default::default()
                        };
                        fire_tables::small_arms_needed(charts, r, firer, cover, obscured)
                            .map(|needed| Shot::SmallArms { needed })
                    } else {
                        let w = spec.gun?;
                        Some(Shot::At {
                            weight: w,
                            roll: at_roll(&gun_of(w, false), r, soft, mods(false)),
                            he: true,
                        })
                    }
                }
                Kind::Gun { weight, .. } => Some(Shot::At {
                    weight: *weight,
                    roll: at_roll(&gun_of(*weight, false), r, soft, mods(false)),
                    he: true,
                }),
            }
        }
    }
}

/// The defence infantry and guns oppose to a gun's HE roll: that of a chassis of their
/// weight (Volley's reading of T1).
fn soft_defence(s: &State, t: usize) -> u8 {
    let w = match &s.item(t).kind {
        Kind::Squad(sq) => sq.weight,
        Kind::Gun { weight, .. } => Some(*weight),
        Kind::Vehicle { .. } => None,
    };
    w.and_then(|w| s.setup.charts.chassis.get(&w))
        .map_or(0, |c| c.defence)
}

pub fn do_fire(s: &mut State, i: usize, t: usize, dice: &mut dyn Dice, log: &mut Log) {
    let shot = shot(s, i, t).expect("checked: a weapon");
    s.turn_state[i].fired += 1;
    s.turn_state[i].fired_turn = true;
    effects::reveal(s, i, "it fires", log);
    let charts = s.setup.charts.clone();
    let (hit, rolled, rule_id) = match &shot {
        Shot::At { roll, .. } => {
            let (total, text) = match roll {
                AtRoll::Automatic => (0, "automatic range, no roll".to_string()),
                AtRoll::AutoRangeAtMost(n) => {
                    let d = dice.roll(10);
                    (
                        d,
                        format!("automatic range, needs {n} or less on a d10, rolled {d}"),
                    )
                }
                AtRoll::AtLeast { dice: n, needed } => {
                    let rolls: Vec<u32> = (0..*n).map(|_| dice.roll(10)).collect();
                    let total: u32 = rolls.iter().sum();
                    (
                        total,
                        format!(
                            "needs {needed}+ on {n}d10, rolled {}",
                            rolls
                                .iter()
                                .map(u32::to_string)
                                .collect::<Vec<_>>()
                                .join("+")
                        ),
                    )
                }
                AtRoll::Impossible => (0, "out of reach".to_string()),
            };
            (roll.hits(total), text, "M85")
        }
        Shot::SmallArms { needed } => {
            if *needed <= 1 {
                (true, "a hit without a roll".to_string(), "M90")
            } else {
                let d = dice.roll(6);
                (
                    d >= *needed,
                    format!("needs {needed}+ on a d6, rolled {d}"),
                    "M90",
                )
            }
        }
    };
    if matches!(&s.item(i).kind, Kind::Squad(sq) if sq.at)
        && matches!(s.item(t).kind, Kind::Vehicle { .. })
    {
        s.revealed_at[i] = true;
    }
    log.add(|| {
        Event::new(
            "fire",
            rule(rule_id),
            format!(
                "{} fires at {} at range {}: {rolled}: {}.",
                s.item(i).id,
                s.item(t).id,
                fire_tables::range(s.item(i).hex, s.item(t).hex),
                if hit { "hit" } else { "miss" }
            ),
        )
        .side(s.item(i).side)
        .units([s.item(i).id.clone(), s.item(t).id.clone()])
    });
    if !hit {
        return;
    }
    if let Shot::At {
        weight, he: true, ..
    } = &shot
    {
        let (w, hex) = (*weight, s.item(t).hex);
        effects::batter(s, hex, w, log);
    }
    let target = &mut s.items[t];
    let (result, text) = match (&shot, &target.kind) {
        (Shot::At { weight, .. }, Kind::Vehicle { .. }) => {
            losses::hit_vehicle(target, *weight, &charts, dice)
        }
        (Shot::At { weight, .. }, Kind::Squad(_)) => {
            losses::he_on_squad(target, charts.guns[weight].he_markers)
        }
        (Shot::SmallArms { .. }, Kind::Squad(_)) => losses::hit_squad(target, 1),
        // A gun's crew hit by HE or small arms is lost with its gun.
        (_, Kind::Gun { .. }) => (
            losses::Result::Destroyed,
            format!("{}'s crew is hit and the gun is lost", target.id),
        ),
        // M102: small arms do not harm a vehicle.
        (Shot::SmallArms { .. }, Kind::Vehicle { .. }) => (
            losses::Result::Holds,
            format!("small arms do not harm {}", target.id),
        ),
    };
    let (side, id) = (s.item(t).side, s.item(t).id.clone());
    log.add(|| {
        Event::new("hit", rule("M103"), format!("{text}."))
            .side(side)
            .units([id])
    });
    effects::commander_risk(s, t, dice, log);
    effects::after_loss(s, t, result, log);
}

/// M117: the hidden enemies item `i` ran into show themselves and each fires first at it,
/// where its weapon bears and can hurt it.
pub fn ambush_fire(
    s: &mut State,
    i: usize,
    waiting: Vec<usize>,
    dice: &mut dyn Dice,
    log: &mut Log,
) {
    for e in waiting {
        effects::reveal(s, e, "it springs an ambush", log);
        let bears = fire_tables::bearing(s.item(e), s.item(i).hex, false) != Bearing::No;
        let shot = shot(s, e, i).filter(|sq| {
            !matches!(
                sq,
                Shot::At {
                    roll: AtRoll::Impossible,
                    ..
                }
            )
        });
        if bears && shot.is_some() && s.in_play(i) && !s.routed(e) {
            do_fire(s, e, i, dice, log);
        }
    }
}
