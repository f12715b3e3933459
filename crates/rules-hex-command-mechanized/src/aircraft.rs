//! Aircraft (M69, M140). The text gives ground-attack aircraft one rule — for their weight
//! they move double the listed vehicle speed and make no turns unless they are Superior — and
//! leaves out their chart, so the rest is Volley's and scenario-given:
//!
//! ```toml
//! [[aircraft]]
//! id = "jabo"
//! side = "red"
//! name = "Fw 190"
//! weight = "M"          # its weapon's weight, and the speed of a chassis of that weight
//! turns = [2, 5]        # the turns it comes on, a sortie each
//! entry = "0110"        # where it comes on
//! facing = "NE"         # the way it heads
//! superior = false      # Superior aircraft may turn
//! ```
//!
//! On a turn of its list it comes on at its entry hex at the start of its side's turn. In its
//! side's movement step it flies hex by hex into the hex ahead (a Superior aircraft also into
//! the hexes ahead-left and ahead-right, turning as it goes), twice the speed of a chassis of
//! its weight; hexes it has not flown when the step ends it flies straight on, and it leaves
//! the map at an edge (the sortie is over). Aircraft stack with anything and are not hit by
//! ground fire except flak.
//!
//! Once a game turn an aircraft attacks. In its side's fire step it strikes a hex it flew over
//! this turn holding an enemy its side knows of: enemy vehicles with anti-aircraft machine
//! guns within 2 hexes of the hex fire first, a d6 of 6 (single mount), 5–6 (twin) or 4–6
//! (quad) driving it off; otherwise it hits the hex on a d6 of 4–6 and every item there takes
//! the weapon (HE on infantry, a block roll on vehicles, gun crews lost). Or, in any fire step
//! of its side, it attacks an enemy aircraft within 2 hexes (air-to-air): a d6 of 5–6 shoots
//! it down, 4–6 for a Superior aircraft against one that is not, 6 the other way round.

use crate::charts::{Charts, MgMount, Mount, Weight};
use crate::effects;
use crate::hidden;
use crate::items::Kind;
use crate::orders::Order;
use crate::rule;
use crate::state::Aircraft;
use crate::state::{State, Step};
use serde::Deserialize;
use std::ops::ControlFlow;
use toml::Spanned;
use volley_core::game::Refusal;
use volley_core::geometry::{label, step, Facing};
use volley_core::map::Map;
use volley_core::{Dice, Event, Hex, Log, ScenarioError, ScenarioSource};

/// How near an enemy aircraft must be for air-to-air combat, in hexes.
pub const DOGFIGHT_RANGE: u32 = 2;

#[derive(Deserialize)]
struct File {
    #[serde(default)]
    aircraft: Vec<AircraftSpec>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AircraftSpec {
    id: Spanned<String>,
    side: Spanned<String>,
    #[serde(default)]
    name: String,
    weight: Spanned<String>,
    turns: Spanned<Vec<u32>>,
    entry: Spanned<String>,
    facing: Spanned<String>,
    #[serde(default)]
    superior: bool,
}

/// The scenario's aircraft, each checked where it stands.
pub fn read(
    src: &ScenarioSource,
    ids: &mut volley_core::scenario::Ids,
    map: &Map,
    charts: &Charts,
) -> Result<Vec<Aircraft>, ScenarioError> {
    let f: File = src.parse()?;
    let mut out = Vec::new();
    for a in &f.aircraft {
        ids.claim(src, &a.id)?;
        let weight = Weight::parse(a.weight.get_ref())
            .filter(|w| *w != Weight::Soft)
            .ok_or_else(|| {
                src.error_at(
                    a.weight.span(),
                    format!(
                        "unknown weight \"{}\" (expected VL, L, M, H or VH)",
                        a.weight.get_ref()
                    ),
                )
            })?;
        if a.turns.get_ref().is_empty() || a.turns.get_ref().contains(&0) {
            return Err(src.error_at(
                a.turns.span(),
                "an aircraft flies on turns 1 or later (turns = [3, 5])",
            ));
        }
        let id = a.id.get_ref().as_str();
        let facing = src.facing(&a.facing)?;
        out.push(Aircraft {
            id: id.into(),
            name: if a.name.is_empty() {
                id.into()
            } else {
                a.name.as_str().into()
            },
            side: src.side(&a.side)?,
            weight,
            turns: a.turns.get_ref().clone(),
            entry: src.hex(&a.entry, map)?,
            entry_facing: facing,
            superior: a.superior,
            speed: 2 * charts.chassis.get(&weight).map_or(0, |c| c.speed),
            at: None,
            facing,
            flown: 0,
            flight: None,
            path: Vec::new(),
            attacked: None,
            down: false,
            leaving: false,
        });
    }
    Ok(out)
}

/// M69, air-to-air (Volley's): the d6 an attacker needs to shoot the target down.
pub fn dogfight_needed(attacker_superior: bool, target_superior: bool) -> u32 {
    match (attacker_superior, target_superior) {
        (true, false) => 4,
        (false, true) => 6,
        _ => 5,
    }
}

/// M69: the side's aircraft due this turn come on at their entry hexes.
pub fn aircraft_arrive(s: &mut State, log: &mut Log) {
    let (side, turn) = (s.phasing(), s.turn);
    for a in &mut s.aircraft {
        if a.side != side || a.down || a.at.is_some() || !a.turns.contains(&turn) {
            continue;
        }
        a.at = Some(a.entry);
        a.facing = a.entry_facing;
        a.flown = 1;
        a.flight = Some(turn);
        a.path = vec![a.entry];
        let text = format!(
            "{} ({}) comes on at {} heading {}, {} hexes a turn{}.",
            a.id,
            a.name,
            label(a.entry),
            a.facing.name(),
            a.speed,
            if a.superior {
                ", a Superior aircraft"
            } else {
                ""
            }
        );
        log.add(|| Event::new("aircraft", rule("M69"), text).side(side));
    }
}

/// The hexes an aircraft may fly into next: ahead, and for a Superior one ahead-left and
/// ahead-right too.
fn flight_hexes(s: &State, k: usize) -> Vec<Hex> {
    let a = &s.aircraft[k];
    let Some(at) = a.at else { return Vec::new() };
    let turns: &[i32] = if a.superior { &[0, -1, 1] } else { &[0] };
    turns.iter().map(|&t| step(at, a.facing.turn(t))).collect()
}

pub fn check_fly<R: Refusal>(s: &State, k: usize, to: Hex) -> Result<(), R> {
    let Some(a) = s.aircraft.get(k) else {
        return Err(R::because(|| "no such aircraft"));
    };
    if a.side != s.deciding() || s.step != Step::Movement || a.at.is_none() {
        return Err(R::because(|| {
            format!("{} flies in the air in its side's movement step", a.id)
        }));
    }
    if a.flight == Some(s.turn) && a.flown >= a.speed {
        return Err(R::because(|| {
            format!("{} has flown its {} hexes this turn (M69)", a.id, a.speed)
        }));
    }
    if !flight_hexes(s, k).contains(&to) {
        return Err(R::because(|| {
            if a.superior {
                format!(
                    "{} flies ahead, or turns a hexside as it flies on (M69)",
                    a.id
                )
            } else {
                format!(
                    "{} flies straight ahead: only Superior aircraft turn (M69)",
                    a.id
                )
            }
        }));
    }
    if !s.setup.map.contains(to) {
        return Err(R::because(|| {
            format!(
                "{} would leave the map; it does so at the end of the step",
                a.id
            )
        }));
    }
    Ok(())
}

pub fn do_fly(s: &mut State, k: usize, to: Hex, log: &mut Log) {
    let turn = s.turn;
    let a = &mut s.aircraft[k];
    if a.flight != Some(turn) {
        a.flight = Some(turn);
        a.flown = 0;
        a.path = a.at.into_iter().collect();
    }
    let from = a.at.expect("checked: in the air");
    if let Some(f) = Facing::towards(from, to) {
        a.facing = f;
    }
    a.at = Some(to);
    a.flown += 1;
    a.path.push(to);
    let text = format!("{} flies from {} to {}.", a.id, label(from), label(to));
    let side = a.side;
    log.add(|| Event::new("aircraft", rule("M69"), text).side(side));
}

/// M69: at the end of its side's movement step an aircraft flies what is left of its speed
/// straight on (it makes no turns of itself); at the map's edge it flies off.
pub fn finish_flights(s: &mut State, log: &mut Log) {
    let (side, turn) = (s.phasing(), s.turn);
    for k in 0..s.aircraft.len() {
        let a = &s.aircraft[k];
        if a.side != side || a.at.is_none() {
            continue;
        }
        if a.flight != Some(turn) {
            let a = &mut s.aircraft[k];
            a.flight = Some(turn);
            a.flown = 0;
            a.path = a.at.into_iter().collect();
        }
        let start = s.aircraft[k].at;
        while s.aircraft[k].flown < s.aircraft[k].speed {
            let a = &mut s.aircraft[k];
            let ahead = step(a.at.expect("in the air"), a.facing);
            if !s.setup.map.contains(ahead) {
                // It reaches the edge: it attacks in its fire step, then flies off.
                a.leaving = true;
                break;
            }
            a.at = Some(ahead);
            a.flown += 1;
            a.path.push(ahead);
        }
        let a = &s.aircraft[k];
        if let (Some(from), Some(to)) = (start, a.at) {
            if from != to {
                let text = format!(
                    "{} flies straight on from {} to {}{}.",
                    a.id,
                    label(from),
                    label(to),
                    if a.leaving {
                        ", the map's edge: it flies off after its attack"
                    } else {
                        ""
                    }
                );
                log.add(|| Event::new("aircraft", rule("M69"), text).side(side));
            }
        }
    }
}

/// M69: the phasing side's aircraft that reached the map's edge fly off at the end of its
/// player turn; their sortie is over.
pub fn aircraft_leave(s: &mut State, log: &mut Log) {
    let side = s.phasing();
    for a in &mut s.aircraft {
        if a.side == side && a.leaving {
            a.leaving = false;
            let at = a.at.take().map(label).unwrap_or_default();
            let text = format!(
                "{} flies off the map beyond {at}; its sortie is over.",
                a.id
            );
            log.add(|| Event::new("aircraft", rule("M69"), text).side(side));
        }
    }
}

/// Whether an aircraft of the side to decide may attack now: in the air, not yet this
/// game turn, in a fire step of its side (`own_turn`: its side's own fire step).
fn may_attack<R: Refusal>(
    s: &State,
    k: usize,
    own_turn: bool,
) -> Result<&crate::state::Aircraft, R> {
    let Some(a) = s.aircraft.get(k) else {
        return Err(R::because(|| "no such aircraft"));
    };
    let step_ok = if own_turn {
        s.step == Step::OffensiveFire && a.side == s.phasing()
    } else {
        matches!(s.step, Step::OffensiveFire | Step::DefensiveFire) && a.side == s.deciding()
    };
    if !step_ok || a.at.is_none() {
        return Err(R::because(|| {
            format!(
                "{} attacks in the air, in its side's fire step; it is {}",
                a.id,
                s.step_name()
            )
        }));
    }
    if a.attacked == Some(s.turn) {
        return Err(R::because(|| format!("{} has attacked this turn", a.id)));
    }
    Ok(a)
}

pub fn check_strike<R: Refusal>(s: &State, k: usize, hex: Hex) -> Result<(), R> {
    let a = may_attack::<R>(s, k, true)?;
    let over = if a.flight == Some(s.turn) {
        a.path.contains(&hex)
    } else {
        a.at == Some(hex)
    };
    if !over {
        return Err(R::because(|| {
            format!("{} strikes only a hex it flew over this turn (M69)", a.id)
        }));
    }
    if !hidden::known_enemy_in(s, hex, a.side) {
        return Err(R::because(|| {
            format!("{} holds no enemy {}'s side knows of", label(hex), a.id)
        }));
    }
    Ok(())
}

pub fn check_intercept<R: Refusal>(s: &State, k: usize, t: usize) -> Result<(), R> {
    let a = may_attack::<R>(s, k, false)?;
    let Some(b) = s.aircraft.get(t) else {
        return Err(R::because(|| "no such aircraft"));
    };
    let near =
        matches!((a.at, b.at), (Some(x), Some(y)) if x.unsigned_distance_to(y) <= DOGFIGHT_RANGE);
    if b.side == a.side || !near {
        return Err(R::because(|| {
            format!(
                "{} attacks an enemy aircraft in the air within {DOGFIGHT_RANGE} hexes (M69)",
                a.id
            )
        }));
    }
    Ok(())
}

/// M69 (Volley's): air-to-air combat.
pub fn do_intercept(s: &mut State, k: usize, t: usize, dice: &mut dyn Dice, log: &mut Log) {
    let turn = s.turn;
    s.aircraft[k].attacked = Some(turn);
    let (a, b) = (&s.aircraft[k], &s.aircraft[t]);
    let needed = dogfight_needed(a.superior, b.superior);
    let d = dice.roll(6);
    let down = d >= needed;
    let text = format!(
        "{} attacks {} in the air: needs {needed}+, rolled {d}: {}.",
        a.id,
        b.id,
        if down { "shot down" } else { "it gets away" }
    );
    let side = a.side;
    log.add(|| Event::new("dogfight", rule("M69"), text).side(side));
    if down {
        let b = &mut s.aircraft[t];
        b.down = true;
        b.at = None;
    }
}

/// The air orders of the side to decide.
pub(crate) fn air_orders(
    s: &State,
    take: &mut impl FnMut(Order) -> ControlFlow<()>,
) -> ControlFlow<()> {
    for k in 0..s.aircraft.len() {
        if s.step == Step::Movement {
            for to in flight_hexes(s, k) {
                if check_fly::<()>(s, k, to).is_ok() {
                    take(Order::Fly { aircraft: k, to })?;
                }
            }
        }
        if s.step == Step::OffensiveFire {
            let mut hexes = s.aircraft[k].path.clone();
            hexes.extend(s.aircraft[k].at);
            hexes.sort_by_key(|h| volley_core::geometry::col_row(*h));
            hexes.dedup();
            for hex in hexes {
                if check_strike::<()>(s, k, hex).is_ok() {
                    take(Order::Strike { aircraft: k, hex })?;
                }
            }
        }
        for t in 0..s.aircraft.len() {
            if check_intercept::<()>(s, k, t).is_ok() {
                take(Order::Intercept {
                    aircraft: k,
                    target: t,
                })?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// The d6 an enemy vehicle's anti-aircraft guns need to drive an aircraft off, if it has any.
fn flak(s: &State, v: usize) -> Option<u32> {
    match &s.item(v).kind {
        Kind::Vehicle { spec, .. } => match (spec.mount, spec.mg) {
            (_, MgMount::Quad) => Some(4),
            (Mount::Aa, _) | (_, MgMount::Aaa) => Some(5),
            (_, MgMount::Aa) => Some(6),
            _ => None,
        },
        _ => None,
    }
}

pub fn do_strike(s: &mut State, k: usize, hex: Hex, dice: &mut dyn Dice, log: &mut Log) {
    let turn = s.turn;
    s.aircraft[k].attacked = Some(turn);
    let (id, side, weight) = (
        s.aircraft[k].id.clone(),
        s.aircraft[k].side,
        s.aircraft[k].weight,
    );
    let flak: Vec<(usize, u32)> = (0..s.items.len())
        .filter(|&v| s.in_play(v) && s.item(v).side != side && !s.routed(v))
        .filter(|&v| s.item(v).hex.unsigned_distance_to(hex) <= 2)
        .filter_map(|v| flak(s, v).map(|n| (v, n)))
        .collect();
    for (v, needed) in flak {
        let d = dice.roll(6);
        let off = d >= needed;
        log.add(|| {
            Event::new(
                "flak",
                rule("M69"),
                format!(
                    "{} fires at {id} diving on {}: needs {needed}+, rolled {d}{}.",
                    s.item(v).id,
                    label(hex),
                    if off { ": driven off" } else { "" }
                ),
            )
            .side(s.item(v).side)
        });
        if off {
            return;
        }
    }
    let d = dice.roll(6);
    let on = d >= 4;
    let hit: Vec<usize> = if on {
        s.items_at(hex).collect()
    } else {
        Vec::new()
    };
    log.add(|| {
        Event::new(
            "strike",
            rule("M69"),
            format!(
                "{id} strikes {}: d6 {d}: {}.",
                label(hex),
                if on { "on target" } else { "its bombs miss" }
            ),
        )
        .side(side)
    });
    if on {
        effects::batter(s, hex, weight, log);
    }
    for t in hit {
        effects::he_hit(s, t, weight, ("M69", "the air strike shows it"), dice, log);
    }
}
