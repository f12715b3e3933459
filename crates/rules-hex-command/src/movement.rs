//! Section 5 (movement, facing, zone of control, stacking, obstacles, roads and terrain,
//! buildings), the artillery movement of section 3, and section 6 (attaching commanders).

use crate::effects::{self, add_te, moving_arm, relocate};
use crate::events::{ev, ev_at, seen_for};
use crate::orders::{HcAction, Sink};
use crate::state::*;
use crate::units::may_stand;
use crate::units::Arm;
use volley_core::geometry::{label, step, Facing};
use volley_core::map::{Hexside, Terrain};
use volley_core::{Dice, Hex, Log};

/// Whether a unit can make voluntary moves at all now.
fn can_act(s: &State, i: usize) -> bool {
    let u = &s.units[i];
    u.active() && u.side == s.phasing() && !u.routed && !s.in_melee(i) && s.activates(i)
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
    if !map.contains(to) {
        return false;
    }
    let ground = s.ground();
    let (to_t, from_t, elevation) = (
        ground.terrain(to),
        ground.terrain(from),
        ground.elevation(to),
    );
    match arm {
        // Horsemen keep to the road through normal forest; off it they must dismount (5.5 b),
        // so they may go where their men may go on foot.
        Arm::Cavalry if to_t == Terrain::Woods || from_t == Terrain::Woods => {
            map.road_between(from, to) || may_stand(Arm::Infantry, to_t, elevation)
        }
        // Guns enter woods only by road or from a clear hex; never woods to woods (section 3).
        Arm::Artillery | Arm::Wagon
            if to_t == Terrain::Woods
                && from_t != Terrain::Clear
                && !map.road_between(from, to) =>
        {
            false
        }
        _ => may_stand(arm, to_t, elevation),
    }
}

/// 5.5 b: horsemen going into or out of normal forest other than along a road.
fn forced_dismount(s: &State, i: usize, from: Hex, to: Hex) -> bool {
    let u = &s.units[i];
    let ground = s.ground();
    u.mounted
        && matches!(u.arm, Arm::Cavalry | Arm::MountedInfantry)
        && (ground.terrain(to) == Terrain::Woods || ground.terrain(from) == Terrain::Woods)
        && !s.map().road_between(from, to)
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
        let taken = s.units[g].guns.is_some_and(|x| x.taken);
        // Fighting units take the enemy's abandoned guns, and retake their own side's.
        let capture = arm.can_melee() && (s.units[g].side != u.side || taken);
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

/// The commanders free to attach now (as symbols: commander pieces join the unit whose hex
/// they ride into, 2 d).
pub(crate) fn ready_commanders(s: &State) -> impl Iterator<Item = usize> + '_ {
    let side = s.phasing();
    let symbols = !s.settings().pieces;
    s.commanders.iter().enumerate().filter_map(move |(ci, c)| {
        (symbols && c.side == side && s.commander_ready(ci) && s.posts.at[ci].is_none())
            .then_some(ci)
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
        for ci in ready_commanders(s).filter(|&c| nation_fits(&s.commanders[c], &s.units[i])) {
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
    let halted = s.halted(i);
    let unlimbered_guns = u.arm == Arm::Artillery && !u.is_crew_only() && !u.limbered;
    let may_walk = u.mp > 0 && !unlimbered_guns && !heavy_fired && !halted;
    // Written orders (2.2.1) and a timid brigade (2.2.2, result 3) limit where a step goes.
    let order = s.order_of(i);
    let timid = s.timid(i);
    // Tribes: a reluctant unit will not close with a fresh enemy.
    let shy = u.reluctant;
    let allowed = |to: Hex| {
        order.is_none_or(|o| o.allows_step(u.hex, to))
            && !(timid && nearer_enemy(s, i, u.hex, to))
            && !(shy && beside_fresh_enemy(s, i, to))
    };
    if may_walk {
        for dir in step_directions(s, u) {
            let to = step(u.hex, dir);
            if !allowed(to) && !allowed(step(to, dir)) {
                continue;
            }
            if step_open(s, i, u.hex, to) && allowed(to) {
                out.put(HcAction::Move { unit, to });
            } else if u.arm == Arm::LightInfantry && u.mp >= 2 {
                // 5 f: light infantry pass through one friendly unit.
                let beyond = step(to, dir);
                if let Some(f) = s.unit_at(to) {
                    if s.units[f].side == u.side
                        && allowed(beyond)
                        && terrain_allows(s, Arm::LightInfantry, u.hex, to)
                        && step_open(s, i, to, beyond)
                    {
                        out.put(HcAction::Move { unit, to: beyond });
                    }
                }
            }
        }
    }
    if matches!(u.arm, Arm::Cavalry | Arm::MountedInfantry) && !u.is_crew_only() && !u.horse_change
    {
        if u.mounted {
            out.put(HcAction::Dismount { unit });
        } else if !u.stepped && horses_near(s, i) && may_mount_here(s, i) {
            out.put(HcAction::Mount { unit });
        }
    }
    if u.road_column {
        out.put(HcAction::Deploy { unit });
    }
    if u.engineers && u.building.is_none() && !u.moved_this_turn && !halted {
        for (kind, hex) in building_sites(s, i) {
            out.put(HcAction::Build { unit, kind, hex });
        }
    }
    if facing_change_allowed(s, u) && !halted {
        for f in Facing::ALL {
            if f != u.facing {
                out.put(HcAction::Face { unit, facing: f });
            }
        }
    }
    // Extra-heavy guns, and Pike and Shot era guns that are not rare, stay where they were
    // unlimbered (section 3; Optional Rules, Pike and Shot).
    let rooted = u.immobile || (s.settings().pike_and_shot && !u.rare);
    if u.arm == Arm::Artillery && !u.is_crew_only() {
        if u.limbered {
            out.put(HcAction::Unlimber { unit });
        } else if !u.stepped && !heavy_fired && !rooted && !halted && !u.unlimbered_turn {
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

/// Whether a dismounted unit's horses are at hand: in its hex or beside it.
fn horses_near(s: &State, i: usize) -> bool {
    let u = &s.units[i];
    u.horses_at
        .is_none_or(|h| h.unsigned_distance_to(u.hex) <= 1)
}

/// Horsemen mount only where horses may stand: not in normal forest off the road.
fn may_mount_here(s: &State, i: usize) -> bool {
    let h = s.units[i].hex;
    s.ground().terrain(h) != Terrain::Woods
}

/// Constructions chart: what an engineer unit may start building, and where: works in its own
/// hex, or a pontoon over the water hex in front of it.
fn building_sites(s: &State, i: usize) -> Vec<(hex_command_family::ground::WorkKind, Hex)> {
    use hex_command_family::ground::WorkKind;
    let u = &s.units[i];
    let mut sites = Vec::new();
    if s.works.at(u.hex).is_none() {
        sites.push((WorkKind::Redoubt, u.hex));
        sites.push((WorkKind::QuickWorks, u.hex));
    }
    let front = step(u.hex, u.facing);
    if s.map().contains(front)
        && s.map().terrain(front) == Terrain::Water
        && s.works.at(front).is_none()
    {
        sites.push((WorkKind::Pontoon, front));
    }
    sites
}

/// Whether `to` lies beside a fresh (unhurt, ordered) enemy unit `i` can see.
pub(crate) fn beside_fresh_enemy(s: &State, i: usize, to: Hex) -> bool {
    let side = s.units[i].side;
    Facing::ALL.into_iter().any(|f| {
        s.unit_at(step(to, f)).is_some_and(|e| {
            let eu = &s.units[e];
            eu.side != side && eu.arm.is_real() && eu.fresh() && s.visible_to(e, side)
        })
    })
}

/// Whether a step from `from` to `to` brings unit `i` nearer the closest enemy it can see.
fn nearer_enemy(s: &State, i: usize, from: Hex, to: Hex) -> bool {
    let side = s.units[i].side;
    let closest = |h: Hex| {
        s.units
            .iter()
            .enumerate()
            .filter(|(k, e)| {
                e.side != side && e.active() && e.arm.is_real() && s.visible_to(*k, side)
            })
            .map(|(_, e)| e.hex.unsigned_distance_to(h))
            .min()
    };
    matches!((closest(from), closest(to)), (Some(a), Some(b)) if b < a)
}

/// 5.1 and the hand-out: once a turn (cavalry twice), at the start or end of a move
/// (cavalry also midway); never while fatigued.
fn facing_change_allowed(s: &State, u: &Unit) -> bool {
    if u.fatigued() || u.facing_changes >= u.arm.facing_changes() {
        return false;
    }
    u.mp >= s.settings().facing_change_cost
}

/// Section 3, Push Move: one hex over flat, clear ground — no slope up or down, no stream.
fn push_open(s: &State, i: usize, to: Hex) -> bool {
    let u = &s.units[i];
    let ground = s.ground();
    s.map().contains(to)
        && ground.terrain(to) == Terrain::Clear
        && ground.elevation(to) == ground.elevation(u.hex)
        && !matches!(
            ground.hexside(u.hex, to),
            Some(Hexside::Stream | Hexside::Slope)
        )
        && s.unit_at(to).is_none()
        && s.guns_at(to).is_none()
        && !s.zone_covers(to, |e| {
            s.units[e].side != u.side && s.units[e].arm.is_real()
        })
}

pub fn apply(s: &mut State, a: HcAction, dice: &mut dyn Dice, log: &mut Log) {
    match a {
        HcAction::Move { unit, to } => move_unit(s, unit as usize, to, dice, log),
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
            u.unlimbered_turn = true;
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
            s.posts.at[c] = Some(i);
            s.units[i].commander = Some(c);
            s.touch(i);
            if s.setup.nations {
                // Every unit's own list of commanders changes.
                s.touch_everything();
            }
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
        HcAction::Dismount { unit } => horses(s, unit as usize, false, log),
        HcAction::Mount { unit } => horses(s, unit as usize, true, log),
        HcAction::Deploy { unit } => deploy(s, unit as usize, log),
        HcAction::Build { unit, kind, hex } => build(s, unit as usize, kind, hex, log),
        HcAction::CommanderMove { commander, to } => move_commander(s, commander as usize, to, log),
        _ => unreachable!("not a movement action"),
    }
}

fn move_unit(s: &mut State, i: usize, to: Hex, dice: &mut dyn Dice, log: &mut Log) {
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
    let ground = s.ground();
    let started_here = from == s.units[i].move_start && !s.units[i].stepped;
    let mut te: [Option<(&str, &str)>; 4] = [None; 4];
    let mut n_te = 0;
    let mut stop = false;
    let arm = moving_arm(&s.units[i]);
    let sphere = s.settings().spheres && s.in_sphere(i);
    if arm != Arm::Decoy && !road {
        for (a, b) in [(from, first_hex), (first_hex, to)] {
            if a == b {
                continue;
            }
            let mut note = |why: (&'static str, &'static str)| {
                te[n_te] = Some(why);
                n_te += 1;
            };
            // 5.4 b, optional: a commander's sphere spares its units the obstacle's TE hit.
            if matches!(
                map.hexside(a, b),
                Some(Hexside::Wall | Hexside::Hedge | Hexside::Fence)
            ) && !(started_here && a == from)
                && !sphere
            {
                note(("crossing an obstacle", "5.4"));
            }
            match ground.terrain(b) {
                Terrain::Ford if !(started_here && a == from) => note(("wading a ford", "5.4")),
                Terrain::Town => note(("entering buildings", "5.6")),
                Terrain::Marsh => note(("entering marsh", "5.5")),
                Terrain::Woods if ground.terrain(a) != Terrain::Woods => {
                    note(("entering forest", "5.5"));
                    stop = true;
                }
                _ => {}
            }
        }
    }
    let dismount = forced_dismount(s, i, from, to);
    // 5.5.1: a unit that came into broken ground along the road is a column on it, taken in
    // flank until it deploys.
    let column = road && s.ground().terrain(to) != Terrain::Clear && !dismount;
    relocate(s, i, to);
    let u = &mut s.units[i];
    u.mp -= if pass_through { 2 } else { 1 };
    u.stepped = true;
    u.moved_this_turn = true;
    u.road_column = column;
    u.building = None;
    if u.heavy {
        u.heavy_moved_turn = true;
    }
    if dismount {
        u.mounted = false;
        u.horses_at = Some(from);
        u.mp = 0;
        let (id, side) = (u.id.clone(), u.side);
        let seen = seen_for(s, i);
        log.add(|| {
            ev!(
                "dismount",
                "5.5 b",
                format!(
                    "{id} goes into the forest off the road and must dismount; its horses stay at {}",
                    label(from)
                ),
            )
            .side(side)
            .units([&id])
            .seen(seen)
        });
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
    effects::guns_entered(s, i, to, dice, log);
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
            // Reach only looks at where a unit can get to: the dice of a capture do not matter.
            let mut dice = volley_core::SeededDice::new(volley_core::Seed([0; 32]));
            apply(&mut next, a, &mut dice, &mut Log::silent());
            let u = &next.units[i];
            if u.hex == state.units[i].hex {
                // A bump into something unseen: as far as the side knows, the hex was open
                // (the step's cost), but the unit stops short of it.
                let HcAction::Move { to, .. } = a else {
                    continue;
                };
                let cost = (start_mp - state.units[i].mp.min(start_mp)) as u32 + 1;
                if best.get(&to).is_none_or(|&c| c > cost) {
                    best.insert(to, cost);
                }
                continue;
            }
            let cost = (start_mp - u.mp.min(start_mp)) as u32;
            if best.get(&u.hex).is_some_and(|&c| c <= cost) {
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

/// Dismounting (Optional Rules, Mounted Infantry; 5.5 b) ends the unit's move and leaves its
/// horses in the hex behind it; mounting again, beside its horses, takes the whole move.
fn horses(s: &mut State, i: usize, mount: bool, log: &mut Log) {
    s.touch(i);
    let u = &mut s.units[i];
    u.mp = 0;
    u.mounted = mount;
    u.horse_change = true;
    u.horses_at = if mount {
        None
    } else {
        let behind = step(u.hex, u.facing.opposite());
        Some(if s.setup.map.contains(behind) {
            behind
        } else {
            u.hex
        })
    };
    let seen = seen_for(s, i);
    let u = &s.units[i];
    let kind = if mount { "mount" } else { "dismount" };
    log.add(|| {
        let text = match u.horses_at {
            Some(h) => format!("{} dismounts; its horses are held at {}", u.id, label(h)),
            None => format!("{} mounts its horses", u.id),
        };
        ev_at(kind, "Optional Rules: Mounted Infantry", text)
            .side(u.side)
            .units([&u.id])
            .seen(seen)
    });
    effects::after_move(s, i, log);
}

/// 5.5.1 c: a column on the road deploys astride it, disordered (a TE hit), and is no longer
/// taken in flank.
fn deploy(s: &mut State, i: usize, log: &mut Log) {
    s.touch(i);
    let u = &mut s.units[i];
    u.road_column = false;
    u.mp = 0;
    let seen = seen_for(s, i);
    let u = &s.units[i];
    log.add(|| {
        ev!(
            "deploy",
            "5.5.1",
            format!("{} deploys off the road at {}", u.id, label(u.hex)),
        )
        .side(u.side)
        .units([&u.id])
        .seen(seen)
    });
    add_te(s, i, 1, "deploying astride the road", "5.5.1", log);
}

/// Constructions chart: engineers start a work; it grows a turn at a time while they stay
/// at it ([`crate::sequence`] counts the turns).
fn build(
    s: &mut State,
    i: usize,
    kind: hex_command_family::ground::WorkKind,
    hex: Hex,
    log: &mut Log,
) {
    let side = s.units[i].side;
    s.works.0.push(hex_command_family::ground::Work {
        hex,
        kind,
        side,
        progress: 0,
        damage: 0,
    });
    s.touch_everything();
    let u = &mut s.units[i];
    u.building = Some(hex);
    u.mp = 0;
    let seen = seen_for(s, i);
    let u = &s.units[i];
    log.add(|| {
        ev!(
            "build",
            "Constructions",
            format!(
                "{} starts a {} at {} ({} turns of work)",
                u.id,
                kind.name(),
                label(hex),
                kind.turns()
            ),
        )
        .side(u.side)
        .units([&u.id])
        .seen(seen)
    });
}

/// 2 d: commanders as pieces move at cavalry speed over any ground a horseman can cross,
/// one hex at a time; one that steps onto a unit of its side may attach to it.
pub fn commander_moves(s: &State, out: &mut impl Sink) {
    if !s.settings().pieces {
        return;
    }
    let side = s.phasing();
    for (c, cmd) in s.commanders.iter().enumerate() {
        if cmd.side != side || !s.commander_ready(c) || cmd.mp == 0 {
            continue;
        }
        let Some(at) = s.commander_hex(c) else {
            continue;
        };
        for f in Facing::ALL {
            let to = step(at, f);
            let ground = s.ground();
            let enemy = s
                .unit_at(to)
                .is_some_and(|o| s.units[o].side != side && s.visible_to(o, side));
            if s.map().contains(to)
                && !enemy
                && may_stand(Arm::Infantry, ground.terrain(to), ground.elevation(to))
            {
                out.put(HcAction::CommanderMove {
                    commander: c as u16,
                    to,
                });
            }
        }
    }
}

fn move_commander(s: &mut State, c: usize, to: Hex, log: &mut Log) {
    let from = s.commander_hex(c);
    // It leaves the unit it was with, and joins one of its side it rides in with (6).
    if let Some(u) = s.posts.at[c].take() {
        s.units[u].commander = None;
        s.touch(u);
    }
    s.commanders[c].hex = Some(to);
    s.commanders[c].mp -= 1;
    let side = s.commanders[c].side;
    if let Some(u) = s
        .unit_at(to)
        .filter(|&u| s.units[u].side == side && s.units[u].commander.is_none())
        .filter(|&u| nation_fits(&s.commanders[c], &s.units[u]))
    {
        s.units[u].commander = Some(c);
        s.posts.at[c] = Some(u);
        s.commanders[c].hex = None;
        s.touch(u);
    }
    s.touch_everything();
    let cmd = &s.commanders[c];
    log.add(|| {
        ev!(
            "commander",
            "2 d",
            format!(
                "{} rides {}→{} ({} MP left)",
                cmd.name,
                from.map_or("?".into(), label),
                label(to),
                cmd.mp
            ),
        )
        .side(cmd.side)
    });
}

/// 4 b: the units that fall back from an arrival's entry hexes, each stepping away from them.
pub fn legal_withdrawal(s: &State, out: &mut impl Sink) {
    for &i in &s.withdrawing {
        withdrawal_moves(s, i, out);
    }
}

/// A withdrawing unit's steps: to any open hex farther from every entry hex, while it has
/// movement left (two full moves).
pub fn withdrawal_moves(s: &State, i: usize, out: &mut impl Sink) {
    if !s.withdrawing.contains(&i) || s.units[i].mp == 0 {
        return;
    }
    let u = &s.units[i];
    for f in Facing::ALL {
        let to = step(u.hex, f);
        if hex_command_family::reinforcements::falls_back(&s.withdraw_from, u.hex, to)
            && terrain_allows(s, moving_arm(u), u.hex, to)
            && s.unit_at(to).is_none()
            && s.guns_at(to).is_none()
        {
            out.put(HcAction::Move { unit: i as u16, to });
        }
    }
}
