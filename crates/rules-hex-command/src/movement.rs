//! Section 5 (movement, facing, zone of control, stacking, obstacles, roads and terrain,
//! buildings), the artillery movement of section 3, and section 6 (attaching commanders).

use crate::actions::{HcAction, Sink};
use crate::effects::{self, add_te, moving_arm, relocate};
use crate::events::{ev, ev_at, seen_for};
use crate::scenario::may_stand;
use crate::state::*;
use crate::units::Arm;
use volley_core::geometry::{label, step, Facing};
use volley_core::map::{Hexside, Terrain};
use volley_core::{Hex, Log};

/// Movement allowance at the start of a phase (movement chart; a fatigued unit creeps one hex).
pub fn allowance(s: &State, u: &Unit) -> u8 {
    let rate = moving_arm(u).movement(s.settings().limbered_rate);
    if u.fatigued() {
        rate.min(1)
    } else {
        rate
    }
}

/// Whether a unit can make voluntary moves at all now.
fn can_act(s: &State, i: usize) -> bool {
    let u = &s.units[i];
    u.active() && u.side == s.phasing() && !u.routed && !s.in_melee(i)
}

/// The directions a unit may step in: straight ahead, or obliquely when that option is on
/// (5 d, 5 e: never backwards). Decoy plates go where they like.
fn step_directions(s: &State, u: &Unit) -> impl Iterator<Item = Facing> {
    let f = u.facing;
    let (list, skip, take) = if u.arm == Arm::Decoy {
        (Facing::ALL, 0, 6)
    } else if s.settings().oblique {
        ([f.turn(-1), f, f.turn(1), f, f, f], 0, 3)
    } else {
        ([f.turn(-1), f, f.turn(1), f, f, f], 1, 1)
    };
    list.into_iter().skip(skip).take(take)
}

/// Terrain that a unit of this arm may enter from `from` (5.5 b, section 3 Woods, rivers).
fn terrain_allows(s: &State, arm: Arm, from: Hex, to: Hex) -> bool {
    let map = s.map();
    let Some(cell) = map.cell(to) else {
        return false;
    };
    let from_t = map.terrain(from);
    match arm {
        // Cavalry enter and leave normal forest only along a road (5.5 b).
        Arm::Cavalry if cell.terrain == Terrain::Woods || from_t == Terrain::Woods => {
            map.road_between(from, to)
        }
        // Guns enter woods only by road or from a clear hex; never woods to woods (section 3).
        Arm::Artillery | Arm::Wagon
            if cell.terrain == Terrain::Woods
                && from_t != Terrain::Clear
                && !map.road_between(from, to) =>
        {
            false
        }
        _ => may_stand(arm, cell.terrain, cell.elevation),
    }
}

/// Whether a step into `to` is open to unit `i` as its side knows the map: hexes with units
/// it can see, and zones of control of enemies it can see, are judged here; unseen enemies
/// are discovered when the move is made.
fn step_open(s: &State, i: usize, from: Hex, to: Hex) -> bool {
    let u = &s.units[i];
    let arm = moving_arm(u);
    if !terrain_allows(s, arm, from, to) {
        return false;
    }
    if let Some(o) = s.unit_at(to) {
        if s.visible_to(o, u.side) || s.units[o].side == u.side {
            return false;
        }
        // An unseen enemy or a plate: the step is allowed and becomes a bump.
    }
    if let Some(g) = s.guns_at(to) {
        let own_guns = g == i;
        let capture = s.units[g].side != u.side && arm.can_melee();
        if !own_guns && !capture {
            return false;
        }
    }
    if !arm.can_melee()
        && s.zone_covers(to, |e| {
            s.units[e].side != u.side && s.units[e].arm.is_real() && s.visible_to(e, u.side)
        })
    {
        return false;
    }
    true
}

pub fn legal(s: &State, out: &mut impl Sink) {
    legal_commanders(s, out);
    for i in 0..s.units.len() {
        unit_moves(s, i, out);
    }
}

/// Whether a ready commander of the phasing side may join unit `i` (section 6).
pub(crate) fn may_join(s: &State, i: usize) -> bool {
    let u = &s.units[i];
    u.side == s.phasing()
        && u.active()
        && u.arm.is_real()
        && u.commander.is_none()
        && !u.is_crew_only()
        && !(u.routed && u.routed_turn == s.turn)
}

/// The commanders free to attach now.
pub(crate) fn ready_commanders(s: &State) -> impl Iterator<Item = usize> + '_ {
    let side = s.phasing();
    s.commanders.iter().enumerate().filter_map(move |(ci, c)| {
        (c.side == side && c.status == CommanderStatus::Ready && c.attached.is_none()).then_some(ci)
    })
}

/// Attaching a ready commander to a unit of the phasing side.
pub(crate) fn legal_commanders(s: &State, out: &mut impl Sink) {
    for ci in ready_commanders(s) {
        for i in 0..s.units.len() {
            if may_join(s, i) {
                out.put(HcAction::Attach {
                    commander: ci as u16,
                    unit: i as u16,
                });
            }
        }
    }
}

/// The commanders that may attach to unit `i`.
pub(crate) fn commanders_for(s: &State, i: usize, out: &mut impl Sink) {
    if may_join(s, i) {
        for ci in ready_commanders(s) {
            out.put(HcAction::Attach {
                commander: ci as u16,
                unit: i as u16,
            });
        }
    }
}

/// The movement actions of one unit (everything but attaching commanders).
pub(crate) fn unit_moves(s: &State, i: usize, out: &mut impl Sink) {
    if !can_act(s, i) {
        return;
    }
    let u = &s.units[i];
    let unit = i as u16;
    let heavy_fired = u.heavy && u.fired_turn;
    let may_walk =
        u.mp > 0 && !(u.arm == Arm::Artillery && !u.is_crew_only() && !u.limbered) && !heavy_fired;
    if may_walk {
        for dir in step_directions(s, u) {
            let to = step(u.hex, dir);
            if step_open(s, i, u.hex, to) {
                out.put(HcAction::Move { unit, to });
            } else if u.arm == Arm::LightInfantry && u.mp >= 2 {
                // 5 f: light infantry pass through one friendly unit.
                let beyond = step(to, dir);
                if let Some(f) = s.unit_at(to) {
                    if s.units[f].side == u.side
                        && terrain_allows(s, Arm::LightInfantry, u.hex, to)
                        && step_open(s, i, to, beyond)
                    {
                        out.put(HcAction::Move { unit, to: beyond });
                    }
                }
            }
        }
    }
    if facing_change_allowed(s, u) {
        for f in Facing::ALL {
            if f != u.facing {
                out.put(HcAction::Face { unit, facing: f });
            }
        }
    }
    if u.arm == Arm::Artillery && !u.is_crew_only() {
        if u.limbered {
            out.put(HcAction::Unlimber { unit });
        } else if !u.stepped && !heavy_fired {
            out.put(HcAction::Limber { unit });
            if !u.heavy && !u.moved_this_turn {
                for dir in step_directions(s, u) {
                    let to = step(u.hex, dir);
                    if push_open(s, i, to) {
                        out.put(HcAction::Push { unit, to });
                    }
                }
            }
        }
    }
}

/// 5.1 and the hand-out: once a turn (cavalry twice), at the start or end of a move
/// (cavalry also midway); never while fatigued.
fn facing_change_allowed(s: &State, u: &Unit) -> bool {
    if u.fatigued() || u.facing_changes >= u.arm.facing_changes() {
        return false;
    }
    u.mp >= s.settings().facing_change_cost
}

/// Section 3, Push Move: one hex over open, level, clear ground; not across streams.
fn push_open(s: &State, i: usize, to: Hex) -> bool {
    let u = &s.units[i];
    let map = s.map();
    map.contains(to)
        && map.terrain(to) == Terrain::Clear
        && map.elevation(to) <= map.elevation(u.hex)
        && map.hexside(u.hex, to) != Some(Hexside::Stream)
        && s.unit_at(to).is_none()
        && s.guns_at(to).is_none()
        && !s.zone_covers(to, |e| {
            s.units[e].side != u.side && s.units[e].arm.is_real()
        })
}

pub fn apply(s: &mut State, a: HcAction, log: &mut Log) {
    match a {
        HcAction::Move { unit, to } => move_unit(s, unit as usize, to, log),
        HcAction::Face { unit, facing } => {
            let i = unit as usize;
            let cost = s.settings().facing_change_cost;
            s.touch(i);
            let u = &mut s.units[i];
            let was = u.facing;
            u.facing = facing;
            u.facing_changes += 1;
            u.mp -= cost;
            if u.stepped && u.arm != Arm::Cavalry && u.arm != Arm::Decoy {
                u.mp = 0;
            }
            let seen = seen_for(s, i);
            let u = &s.units[i];
            log.add(|| {
                ev!(
                    "face",
                    "5.1",
                    format!(
                        "{} turns from {was} to {facing}{}",
                        u.id,
                        if cost > 0 { " (1 MP)" } else { "" }
                    ),
                )
                .side(u.side)
                .units([&u.id])
                .seen(seen)
            });
            effects::after_move(s, i, log);
        }
        HcAction::Unlimber { unit } => {
            let i = unit as usize;
            s.touch(i);
            let u = &mut s.units[i];
            u.limbered = false;
            u.unlimbered_after_move = u.moved_this_turn;
            u.mp = 0;
            let seen = seen_for(s, i);
            let u = &s.units[i];
            log.add(|| {
                let note = if u.unlimbered_after_move {
                    if s.setup.settings.move_unlimber_fire_next_turn {
                        "; it moved this turn, so it fires next turn"
                    } else {
                        "; it moved this turn, so it fires at 1 CP"
                    }
                } else {
                    ""
                };
                ev!("unlimber", "3", format!("{} unlimbers{note}", u.id))
                    .side(u.side)
                    .units([&u.id])
                    .seen(seen)
            });
            add_te(s, i, 1, "unlimbering, movement chart", "3", log);
        }
        HcAction::Limber { unit } => {
            let i = unit as usize;
            let rate = s.settings().limbered_rate;
            s.touch(i);
            let u = &mut s.units[i];
            u.limbered = true;
            u.mp = if u.fatigued() { 1 } else { rate };
            let seen = seen_for(s, i);
            let u = &s.units[i];
            log.add(|| {
                ev!("limber", "3", format!("{} limbers up", u.id))
                    .side(u.side)
                    .units([&u.id])
                    .seen(seen)
            });
            add_te(s, i, 1, "limbering, movement chart", "3", log);
        }
        HcAction::Push { unit, to } => {
            let i = unit as usize;
            let from = s.units[i].hex;
            relocate(s, i, to);
            let u = &mut s.units[i];
            u.mp = 0;
            u.stepped = true;
            u.moved_this_turn = true;
            let seen = seen_for(s, i);
            let u = &s.units[i];
            log.add(|| {
                ev!(
                    "push",
                    "3",
                    format!("{} is pushed by hand {}→{}", u.id, label(from), label(to)),
                )
                .side(u.side)
                .units([&u.id])
                .seen(seen)
            });
            add_te(s, i, 1, "pushing the guns, movement chart", "3", log);
            effects::after_move(s, i, log);
        }
        HcAction::Attach { commander, unit } => {
            let (c, i) = (commander as usize, unit as usize);
            s.commanders[c].attached = Some(i);
            s.units[i].commander = Some(c);
            s.touch(i);
            let seen = seen_for(s, i);
            let (cmd, u) = (&s.commanders[c], &s.units[i]);
            log.add(|| {
                ev!(
                    "attach",
                    "6",
                    format!(
                        "{} (combat +{}) attaches to {} {}",
                        cmd.name, cmd.value, u.id, u.name
                    ),
                )
                .side(u.side)
                .units([&u.id])
                .seen(seen)
            });
        }
        _ => unreachable!("not a movement action"),
    }
}

fn move_unit(s: &mut State, i: usize, to: Hex, log: &mut Log) {
    let from = s.units[i].hex;
    let side = s.units[i].side;
    let pass_through = from.unsigned_distance_to(to) == 2;
    let first_hex = if pass_through {
        Facing::ALL
            .into_iter()
            .map(|f| step(from, f))
            .find(|&m| m.unsigned_distance_to(to) == 1)
            .expect("a pass-through crosses one hex")
    } else {
        to
    };
    // Bumping into an unseen enemy or a plate stops the move where it is (Hidden Movement).
    if let Some(o) = [first_hex, to]
        .into_iter()
        .filter_map(|h| s.unit_at(h))
        .find(|&o| s.units[o].side != side)
    {
        s.units[i].mp = 0;
        s.touch(i);
        let seen = seen_for(s, i);
        let (u, other) = (&s.units[i], &s.units[o]);
        log.add(|| {
            let text = if other.arm == Arm::Decoy {
                format!(
                    "{} finds only a decoy at {}; it is removed",
                    u.id,
                    label(other.hex)
                )
            } else {
                format!(
                    "{} runs into {} {} at {} and halts",
                    u.id,
                    other.id,
                    other.name,
                    label(other.hex)
                )
            };
            ev!("bump", "Optional Rules: Hidden Movement", text)
                .side(side)
                .units([&u.id])
                .seen(seen)
        });
        effects::reveal(s, o, log);
        return;
    }
    let map = s.map();
    let road =
        map.road_between(from, first_hex) && (!pass_through || map.road_between(first_hex, to));
    let started_here = from == s.units[i].move_start && !s.units[i].stepped;
    let mut te: [Option<(&str, &str)>; 4] = [None; 4];
    let mut n_te = 0;
    let mut stop = false;
    let arm = moving_arm(&s.units[i]);
    if arm != Arm::Decoy && !road {
        for (a, b) in [(from, first_hex), (first_hex, to)] {
            if a == b {
                continue;
            }
            let mut note = |why: (&'static str, &'static str)| {
                te[n_te] = Some(why);
                n_te += 1;
            };
            if matches!(
                map.hexside(a, b),
                Some(Hexside::Wall | Hexside::Hedge | Hexside::Fence)
            ) && !(started_here && a == from)
            {
                note(("crossing an obstacle", "5.4"));
            }
            match map.terrain(b) {
                Terrain::Ford if !(started_here && a == from) => note(("wading a ford", "5.4")),
                Terrain::Town => note(("entering buildings", "5.6")),
                Terrain::Marsh => note(("entering marsh", "5.5")),
                Terrain::Woods if map.terrain(a) != Terrain::Woods => {
                    note(("entering forest", "5.5"));
                    stop = true;
                }
                _ => {}
            }
        }
    }
    relocate(s, i, to);
    let u = &mut s.units[i];
    u.mp -= if pass_through { 2 } else { 1 };
    u.stepped = true;
    u.moved_this_turn = true;
    if u.heavy {
        u.heavy_moved_turn = true;
    }
    if u.guns_at == Some(to) {
        effects::man_guns(s, i);
    }
    let seen = seen_for(s, i);
    let u = &s.units[i];
    log.add(|| {
        ev_at(
            "move",
            if road { "5.5" } else { "5" },
            format!(
                "{} {} moves {}→{} ({} MP left){}",
                u.id,
                u.name,
                label(from),
                label(to),
                u.mp,
                if road { " along the road" } else { "" }
            ),
        )
        .side(side)
        .units([&u.id])
        .seen(seen)
    });
    if stop {
        s.units[i].mp = 0;
    }
    if let Some(g) = s.guns_at(to).filter(|&g| s.units[g].side != side) {
        effects::capture_guns(s, g, i, log);
    }
    if pass_through {
        let f = s.unit_at(first_hex).expect("pass-through needs a friend");
        add_te(s, i, 1, "passing through a friendly unit", "5 f", log);
        add_te(s, f, 1, "being passed through", "5 f", log);
    }
    for (why, section) in te.into_iter().flatten() {
        add_te(s, i, 1, why, section, log);
    }
    effects::enter_zones(s, i, log);
    effects::after_move(s, i, log);
}

/// Every hex unit `id` can reach this phase by a chain of legal steps, with the fewest
/// movement points spent getting there (for the map's movement overlay).
pub fn reach(s: &State, id: &str) -> Vec<volley_core::Reach> {
    use std::collections::{HashMap, VecDeque};
    let Some(i) = s.units.iter().position(|u| u.id == id) else {
        return Vec::new();
    };
    if s.phase != Phase::Movement || !can_act(s, i) {
        return Vec::new();
    }
    let start_mp = s.units[i].mp;
    let mut best: HashMap<Hex, u32> = HashMap::new();
    let mut queue = VecDeque::from([s.clone()]);
    let mut out = Vec::new();
    while let Some(state) = queue.pop_front() {
        let mut actions = Vec::new();
        unit_moves(&state, i, &mut actions);
        for a in actions {
            if !matches!(a, HcAction::Move { .. }) {
                continue;
            }
            let mut next = state.clone();
            apply(&mut next, a, &mut Log::silent());
            let u = &next.units[i];
            let cost = (start_mp - u.mp.min(start_mp)) as u32;
            if u.hex == state.units[i].hex || best.get(&u.hex).is_some_and(|&c| c <= cost) {
                continue;
            }
            best.insert(u.hex, cost);
            if u.mp > 0 {
                queue.push_back(next);
            }
        }
    }
    for (hex, cost) in best {
        out.push(volley_core::Reach {
            hex: label(hex),
            cost,
        });
    }
    out.sort_by(|a, b| a.hex.cmp(&b.hex));
    out
}
