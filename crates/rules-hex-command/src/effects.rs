//! What happens to units, below the chapters that decide it: a counter moves, takes hits or
//! TE hits, routs and runs (7.5, 7.5.1), is destroyed or leaves the field, is uncovered by the
//! enemy (Hidden Movement), loses its commander (2 e), is locked in melee, abandons or loses
//! its guns (section 3). Movement, fire, melee, rally and command decide; this layer carries
//! it out and keeps the position's index ([`crate::board`]) current, so a chapter uses what
//! lies below it and nothing beside it.

use crate::events::{ev, ev_at, seen_for};
use crate::sight::{line_of_sight, Sight};
use crate::state::*;
use crate::units::may_stand;
use crate::units::Arm;
use volley_core::geometry::{label, step, Facing};
use volley_core::map::Terrain;
use volley_core::{Dice, Hex, Log, Side};

// --- Places -------------------------------------------------------------------------------

/// Moves a unit's counter, keeping the board and objectives' holders up to date.
pub fn relocate(s: &mut State, i: usize, to: Hex) {
    let (from, side) = (s.units[i].hex, s.units[i].side);
    // Its zone of control leaves the old hex with it.
    s.touch(i);
    s.board.lift(&s.setup.map, from, i, side);
    s.units[i].hex = to;
    s.board.place(&s.setup.map, to, i, side);
    s.touch_place(from);
    s.touch_place(to);
    s.touch(i);
    if s.units[i].arm.is_real() {
        let side = s.units[i].side;
        let seen_by = Side::BOTH.map(|v| s.visible_to(i, v));
        for o in s.objectives.iter_mut().filter(|o| o.hex == to) {
            o.holder = Some(side);
            for v in Side::BOTH.into_iter().filter(|v| seen_by[v.index()]) {
                o.known[v.index()] = Some(side);
            }
        }
    }
}

/// A unit leaves the map for good: destroyed, routed off, or its guns taken.
fn remove(s: &mut State, i: usize, fate: Fate) {
    let u = &s.units[i];
    let (hex, guns, side) = (u.hex, u.guns_at(), u.side);
    s.board.lift(&s.setup.map, hex, i, side);
    if let Some(g) = guns.filter(|&g| s.guns_at(g) == Some(i)) {
        s.board.put_guns(&s.setup.map, g, None);
        s.touch_place(g);
    }
    s.touch_place(hex);
    s.touch(i);
    let u = &mut s.units[i];
    u.fate = fate;
    u.guns = None;
}

// --- Hits, TE hits and losses ----------------------------------------------------------------

/// Adds TE hits; the third makes the unit fatigued and stops it (Optional Rules,
/// Disorder/Fatigued). A fatigued unit that takes another in melee takes a casualty hit
/// instead (charts, fatigue hits) — that case is melee's.
pub fn add_te(s: &mut State, i: usize, n: u8, why: &str, section: &str, log: &mut Log) {
    if n == 0 {
        return;
    }
    let was = s.units[i].fatigued();
    s.touch(i);
    let u = &mut s.units[i];
    u.te = (u.te + n).min(3);
    let seen = seen_for(s, i);
    let u = &s.units[i];
    log.add(|| {
        ev_at(
            "te",
            section,
            format!(
                "{} {} takes {} TE hit{} ({why}): TE {}",
                u.id,
                u.name,
                n,
                if n > 1 { "s" } else { "" },
                u.te
            ),
        )
        .side(u.side)
        .units([&u.id])
        .seen(seen)
    });
    if !was && u.fatigued() {
        log.add(|| {
            ev!("fatigued", "Optional Rules: Disorder/Fatigued",
                format!("{} is fatigued: it stops, cannot turn, loses its zone of control and fights at 1 CP", u.id),
            )
            .side(u.side)
            .units([&u.id])
            .seen(seen)
        });
        s.units[i].mp = 0;
    }
}

/// Casualty hits on a unit: a routed unit that is hit is destroyed (7 o); the third hit
/// (fourth for rare units) routs it (7 m, 7.5).
pub fn apply_hits(s: &mut State, t: usize, n: u8, source: &str, log: &mut Log) {
    if s.units[t].routed {
        destroy(s, t, &format!("hit by {source} while routing (7 o)"), log);
        return;
    }
    s.touch(t);
    let u = &mut s.units[t];
    u.hits = (u.hits + n).min(u.max_hits());
    let u = &s.units[t];
    log.add(|| {
        ev!(
            "hit",
            "7 m",
            format!(
                "{} {} takes {} hit{} from {source}: {}/{} hits",
                u.id,
                u.name,
                n,
                if n > 1 { "s" } else { "" },
                u.hits,
                u.max_hits()
            ),
        )
        .side(u.side)
        .units([&u.id])
    });
    if u.hits >= u.max_hits() {
        if u.is_crew_only() {
            destroy(s, t, "a crew without guns broken", log);
        } else {
            rout(s, t, log);
        }
    }
}

pub fn destroy(s: &mut State, t: usize, why: &str, log: &mut Log) {
    if let Some(c) = s.units[t].commander {
        lose_commander(s, c, Fallen::Captured, log);
    }
    // A unit lost under a hidden-movement marker is named only to its owner.
    let seen = seen_for(s, t);
    remove(s, t, Fate::Destroyed);
    let u = &s.units[t];
    log.add(|| {
        ev!(
            "destroyed",
            "7.5",
            format!("{} {} is destroyed ({why})", u.id, u.name),
        )
        .side(u.side)
        .units([&u.id])
        .seen(seen)
    });
}

/// A unit that withdraws off the map (an integrity roll) is lost.
pub fn leave_field(s: &mut State, i: usize) {
    remove(s, i, Fate::LeftField);
}

/// A commander killed (red star on a unit it is with) or captured (its unit routed or
/// destroyed). Losing the supreme commander shakes the whole army (hand-out, Break Point).
pub fn lose_commander(s: &mut State, c: usize, status: Fallen, log: &mut Log) {
    let Some(post) = s.posts.fall(c, status) else {
        return;
    };
    if let Some(u) = post {
        s.units[u].commander = None;
        // Its combat value no longer counts for that unit's shots (2 d).
        s.touch(u);
    }
    let cmd = &s.commanders[c];
    log.add(|| {
        let what = if status == Fallen::Killed {
            "is killed (red star: the unit takes no hit)"
        } else {
            "is captured"
        };
        ev!(
            "commander",
            "2 e",
            format!("{} {what}; {} adds 10% to its losses", cmd.name, cmd.side),
        )
        .side(cmd.side)
    });
}

// --- Rout (7.5, 7.5.1) -------------------------------------------------------------------------

/// A unit routs: it turns about, its commander is captured, guns limber up, and it runs at
/// once (7.5; 2 e; section 3, Melee and Rout).
pub fn rout(s: &mut State, t: usize, log: &mut Log) {
    if let Some(c) = s.units[t].commander {
        lose_commander(s, c, Fallen::Captured, log);
    }
    let turn = s.turn;
    s.touch(t);
    let u = &mut s.units[t];
    u.routed = true;
    u.routed_turn = turn;
    u.facing = u.facing.opposite();
    if u.arm == Arm::Artillery && !u.is_crew_only() {
        u.limbered = true;
    }
    let seen = seen_for(s, t);
    let u = &s.units[t];
    log.add(|| {
        ev!(
            "rout",
            "7.5",
            format!("{} {} routs and turns about", u.id, u.name),
        )
        .side(u.side)
        .units([&u.id])
        .seen(seen)
    });
    rout_move(s, t, log);
}

/// The next hex towards the rear along the side's Route of Retreat (set-up step 8): on the
/// route, the next hex of it (off the map beyond its last); off it, towards the nearest hex
/// of it. `None` when the side has no route.
pub fn retreat_step(s: &State, i: usize) -> Option<Hex> {
    let route = &s.sides[s.units[i].side.index()].retreat;
    let here = s.units[i].hex;
    let (k, d) = route
        .iter()
        .enumerate()
        .map(|(k, &h)| (k, h.unsigned_distance_to(here)))
        .min_by_key(|&(k, d)| (d, std::cmp::Reverse(k)))?;
    let target = match (d, route.get(k + 1)) {
        (0, Some(&next)) => next,
        (0, None) => {
            return Facing::ALL
                .into_iter()
                .map(|f| step(here, f))
                .find(|&h| !s.map().contains(h))
        }
        _ => route[k],
    };
    Facing::ALL
        .into_iter()
        .map(|f| step(here, f))
        .min_by_key(|h| h.unsigned_distance_to(target))
}

fn nearest_enemy(s: &State, t: usize, hex: Hex) -> u32 {
    let side = s.units[t].side;
    s.units
        .iter()
        .filter(|e| e.side != side && e.active() && e.arm.is_real())
        .map(|e| e.hex.unsigned_distance_to(hex))
        .min()
        .unwrap_or(u32::MAX)
}

fn passable(s: &State, arm: Arm, h: Hex) -> bool {
    s.map().contains(h) && may_stand(arm, s.map().terrain(h), s.map().elevation(h))
}

/// The rout move: 3 hexes (4 for cavalry and artillery) straight on from the about-faced
/// unit, following impassable ground sideways only if that does not bring it nearer the
/// enemy; through one friend (which takes a TE hit) if there is room beyond; destroyed in
/// an enemy zone of control or with nowhere to go (7.5, 7.5.1). Off the map it is gone.
pub fn rout_move(s: &mut State, t: usize, log: &mut Log) {
    let arm = s.units[t].arm;
    let mut left = arm.rout_distance();
    let start = s.units[t].hex;
    while left > 0 {
        let here = s.units[t].hex;
        // Routs run along the Route of Retreat where the side has one.
        if let Some(f) = retreat_step(s, t).and_then(|h| Facing::towards(here, h)) {
            s.units[t].facing = f;
        }
        let facing = s.units[t].facing;
        let ahead = step(here, facing);
        if !s.map().contains(ahead) {
            let seen = seen_for(s, t);
            remove(s, t, Fate::LeftField);
            let u = &s.units[t];
            log.add(|| {
                ev!(
                    "rout",
                    "7.5",
                    format!(
                        "{} routs off the map from {} and is lost",
                        u.id,
                        label(here)
                    ),
                )
                .side(u.side)
                .units([&u.id])
                .seen(seen)
            });
            return;
        }
        let blocked = |h: Hex| {
            !passable(s, arm, h)
                || s.unit_at(h)
                    .is_some_and(|o| s.units[o].side != s.units[t].side)
                || s.guns_at(h).is_some()
        };
        let mut dir = facing;
        if blocked(ahead) {
            let here_d = nearest_enemy(s, t, here);
            let side_step = [facing.turn(-1), facing.turn(1)].into_iter().find(|&f| {
                let h = step(here, f);
                s.map().contains(h)
                    && !blocked(h)
                    && s.unit_at(h).is_none()
                    && nearest_enemy(s, t, h) >= here_d
            });
            match side_step {
                Some(f) => dir = f,
                None => {
                    destroy(s, t, "routing with nowhere to go (7.5)", log);
                    return;
                }
            }
        }
        let next = step(here, dir);
        let mut land = next;
        if let Some(f) = s.unit_at(next) {
            // 7.5.1: through one friend, unless both are cavalry or cavalry meet guns.
            let fa = s.units[f].arm;
            let allowed = !(arm == Arm::Cavalry && (fa == Arm::Cavalry || fa == Arm::Artillery));
            let beyond = step(next, dir);
            let room = s.map().contains(beyond) && !blocked(beyond) && s.unit_at(beyond).is_none();
            if !allowed || !room {
                destroy(
                    s,
                    t,
                    "routing into friends with no room beyond them (7.5.1)",
                    log,
                );
                return;
            }
            add_te(s, f, 1, "routed through by a friendly unit", "7.5.1", log);
            land = beyond;
            left = left.saturating_sub(1);
        }
        relocate(s, t, land);
        s.units[t].moved_this_turn = true;
        left = left.saturating_sub(1);
        let side = s.units[t].side;
        if s.zone_covers(land, |e| s.units[e].side != side) {
            destroy(
                s,
                t,
                &format!("routed into an enemy zone of control at {}", label(land)),
                log,
            );
            return;
        }
    }
    let seen = seen_for(s, t);
    let u = &s.units[t];
    log.add(|| {
        ev!(
            "rout",
            "7.5",
            format!("{} routs {}→{}", u.id, label(start), label(u.hex)),
        )
        .side(u.side)
        .units([&u.id])
        .seen(seen)
    });
    after_move(s, t, log);
}

// --- Contact: zones of control and melee (7.2, 7.2.1) ------------------------------------------

/// Whether `a` can melee `d` at all (5 b, 5 c, 7.2.1): cavalry never fight into forest, and a
/// unit that arrives at the foot of a hill with no movement left cannot charge up it.
pub fn may_melee(s: &State, a: usize, d: usize, mp_left: u8) -> bool {
    let (ua, ud) = (&s.units[a], &s.units[d]);
    let map = s.map();
    moving_arm(ua).can_melee()
        && !ua.is_crew_only()
        && ud.active()
        && ud.arm.is_real()
        && !ud.routed
        && !(ua.arm == Arm::Cavalry && map.terrain(ud.hex) == Terrain::Woods)
        && !(mp_left == 0 && ua.stepped && map.elevation(ud.hex) > map.elevation(ua.hex))
}

/// Locks two units in melee (7.2), once.
pub fn engage(s: &mut State, a: usize, d: usize) {
    if !s
        .melees
        .iter()
        .any(|m| (m.attacker == a && m.defender == d) || (m.attacker == d && m.defender == a))
    {
        s.melees.push(Melee {
            attacker: a,
            defender: d,
            rounds: 0,
        });
        s.touch(a);
        s.touch(d);
    }
}

/// The arm a unit moves and fights as: a gun crew without its guns walks like infantry, as
/// do horsemen who have dismounted; mounted infantry on horseback ride but never melee.
pub fn moving_arm(u: &Unit) -> Arm {
    match u.arm {
        _ if u.is_crew_only() => Arm::Infantry,
        Arm::Cavalry | Arm::MountedInfantry if !u.mounted => Arm::Infantry,
        a => a,
    }
}

/// Movement allowance at the start of a phase (movement chart; a fatigued unit creeps one hex).
pub fn allowance(s: &State, u: &Unit) -> u8 {
    let rate = moving_arm(u).movement(s.settings().limbered_rate);
    if u.fatigued() {
        rate.min(1)
    } else {
        rate
    }
}

/// 7.2.1: stepping into enemies' front zones halts the mover, which then fights each of
/// those enemies it is able to reach (terrain and slope may rule some out).
pub fn enter_zones(s: &mut State, i: usize, log: &mut Log) {
    let u = &s.units[i];
    let hex = u.hex;
    let zones = s.enemy_zones_at(u.side, hex);
    if zones.is_empty() {
        return;
    }
    let mp_left = u.mp;
    s.units[i].mp = 0;
    s.touch(i);
    let mut engaged = Vec::new();
    for e in zones {
        reveal(s, e, log);
        // 7.2.3: only units that face each other fight; a unit that comes in beside or behind
        // an enemy stops in its zone without a melee.
        let faces =
            volley_core::geometry::in_front_arc(s.units[i].hex, s.units[i].facing, s.units[e].hex);
        if faces && moving_arm(&s.units[i]).can_melee() && may_melee(s, i, e, mp_left) {
            engage(s, i, e);
            engaged.push(e);
        }
    }
    let u = &s.units[i];
    let hidden_mover = !s.visible_to(i, u.side.other());
    log.add(|| {
        let text = if engaged.is_empty() {
            format!(
                "{} enters an enemy zone of control at {} and stops",
                u.id,
                label(hex)
            )
        } else {
            let names: Vec<String> = engaged
                .iter()
                .map(|&e| format!("{} {}", s.units[e].id, s.units[e].name))
                .collect();
            format!(
                "{} enters the zone of control of {} at {}: it stops and must melee",
                u.id,
                names.join(" and "),
                label(hex)
            )
        };
        let e = ev!("zoc", "7.2.1", text).side(u.side).units([&u.id]);
        // A marker the enemy cannot see (a decoy, or a unit under it) stops unseen: only its
        // owner is told; what the enemy learns comes with the reveal.
        if hidden_mover {
            e.seen(volley_core::Seen::only(u.side))
        } else {
            e
        }
    });
}

// --- Guns (section 3, Melee and Rout) ----------------------------------------------------------

/// Crews do not melee: they leave the guns and step back a hex, away from the unit that
/// meleed them; with nowhere to go they are lost with the guns.
pub fn abandon_guns(s: &mut State, d: usize, attacker: Hex, log: &mut Log) {
    let u = &s.units[d];
    let hex = u.hex;
    let back = Facing::towards(attacker, hex).unwrap_or(u.facing.opposite());
    let spot = [back, back.turn(-1), back.turn(1)]
        .into_iter()
        .map(|f| step(hex, f))
        .find(|&h| {
            s.map().contains(h)
                && may_stand(Arm::Infantry, s.map().terrain(h), s.map().elevation(h))
                && s.unit_at(h).is_none()
                && s.guns_at(h).is_none()
        });
    // A commander with the crew steps back with it (2 e captures commanders only with a
    // unit that is destroyed or routed, not one that leaves its guns).
    match spot {
        Some(h) => {
            s.units[d].guns = Some(Guns {
                at: hex,
                taken: false,
                shots: 0,
            });
            s.units[d].limbered = false;
            s.board.put_guns(&s.setup.map, hex, Some(d));
            s.touch_place(hex);
            relocate(s, d, h);
            let u = &s.units[d];
            log.add(|| {
                ev!(
                    "abandon",
                    "3",
                    format!(
                        "{}'s crew abandons its guns at {} and steps back to {}",
                        u.id,
                        label(hex),
                        label(h)
                    ),
                )
                .side(u.side)
                .units([&u.id])
            });
        }
        None => {
            let u = &s.units[d];
            log.add(|| {
                ev!(
                    "abandon",
                    "3",
                    format!(
                        "{}'s crew has nowhere to step back to and is lost with its guns",
                        u.id
                    ),
                )
                .side(u.side)
                .units([&u.id])
            });
            destroy(s, d, "crew overrun", log);
        }
    }
}

/// Guns taken by the enemy entering their hex: the crew stays nearby (a target, and lost for
/// the break point while the guns are held), and the captors get a d6 of shots out of them
/// (section 3).
pub fn capture_guns(s: &mut State, g: usize, by: usize, dice: &mut dyn Dice, log: &mut Log) {
    let Some(guns) = s.units[g].guns.filter(|x| !x.taken) else {
        return;
    };
    let shots = dice.roll(6) as u8;
    change_hands(s, g, by, true, shots);
    let (b, gu) = (&s.units[by], &s.units[g]);
    log.add(|| {
        ev!(
            "capture",
            "3",
            format!(
                "{} captures the guns of {} {} at {} and can fire them {shots} time{} (rolled {shots})",
                b.id,
                gu.id,
                gu.name,
                label(guns.at),
                if shots == 1 { "" } else { "s" }
            ),
        )
        .side(b.side)
        .units([&b.id, &gu.id])
    });
}

/// Crew `g`'s guns pass into (or out of) enemy hands as unit `by` enters them.
fn change_hands(s: &mut State, g: usize, by: usize, taken: bool, shots: u8) {
    let Some(guns) = s.units[g].guns else { return };
    s.units[g].guns = Some(Guns {
        taken,
        shots,
        ..guns
    });
    s.touch(g);
    s.touch(by);
    s.touch_place(guns.at);
}

/// Guns the enemy took, entered again by their own side: back in friendly hands, for the
/// crew to man (section 3).
pub fn retake_guns(s: &mut State, g: usize, by: usize, log: &mut Log) {
    let Some(guns) = s.units[g].guns.filter(|x| x.taken) else {
        return;
    };
    change_hands(s, g, by, false, 0);
    let (b, gu) = (&s.units[by], &s.units[g]);
    log.add(|| {
        ev!(
            "recapture",
            "3",
            format!(
                "{} retakes the guns of {} at {}",
                b.id,
                gu.id,
                label(guns.at)
            ),
        )
        .side(b.side)
        .units([&b.id, &gu.id])
    });
}

/// What a unit entering `to` does to guns standing there: enemy guns left by their crew are
/// captured, its own side's guns in enemy hands are retaken, and a crew back at its own
/// guns mans them.
pub fn guns_entered(s: &mut State, i: usize, to: Hex, dice: &mut dyn Dice, log: &mut Log) {
    let Some(g) = s.guns_at(to) else { return };
    if g == i {
        retake_guns(s, g, i, log);
        man_guns(s, i);
    } else if s.units[g].side != s.units[i].side {
        capture_guns(s, g, i, dice, log);
    } else {
        retake_guns(s, g, i, log);
    }
}

/// A crew walks back onto its own abandoned guns and mans them again.
pub fn man_guns(s: &mut State, i: usize) {
    if let Some(g) = s.units[i].guns.take().map(|g| g.at) {
        if s.guns_at(g) == Some(i) {
            s.board.put_guns(&s.setup.map, g, None);
        }
        s.touch_place(g);
        s.touch(i);
    }
}

// --- Hidden movement: being seen ------------------------------------------------------------

/// Spotting distances (3.1): a marker is revealed at once within 5 hexes unless it sits in
/// cover.
pub const AUTO_REVEAL: u32 = 5;

fn in_cover(s: &State, h: Hex) -> bool {
    matches!(
        s.map().terrain(h),
        Terrain::Woods | Terrain::Town | Terrain::Fort
    )
}

/// The units of `side` that can spot: on the map and real.
pub fn spotters(s: &State, side: Side) -> impl Iterator<Item = &Unit> {
    s.units
        .iter()
        .filter(move |u| u.side == side && u.active() && u.arm.is_real())
}

/// Whether a unit at `spotter` sees `h` well enough to reveal a marker there without a roll.
fn spots_at_once(s: &State, spotter: Hex, h: Hex) -> bool {
    let d = spotter.unsigned_distance_to(h);
    d <= 1
        || (d <= AUTO_REVEAL
            && !in_cover(s, h)
            && line_of_sight(s, spotter, h, None) != Sight::Blocked)
}

/// Whether some unit of `side` sees `h` well enough to reveal a marker there without a roll.
pub fn auto_spotted(s: &State, side: Side, h: Hex) -> bool {
    spotters(s, side).any(|sp| spots_at_once(s, sp.hex, h))
}

/// A unit is revealed to the enemy (a decoy is found out and removed).
pub fn reveal(s: &mut State, u: usize, log: &mut Log) {
    if !s.settings().hidden || s.units[u].seen || !s.units[u].active() {
        return;
    }
    let h = s.units[u].hex;
    if s.units[u].arm == Arm::Decoy {
        remove(s, u, Fate::Destroyed);
        log.add(|| {
            ev!(
                "spotted",
                "Optional Rules: Hidden Movement",
                format!("the marker at {} was a decoy and is removed", label(h)),
            )
        });
        return;
    }
    s.units[u].seen = true;
    // The enemy now sees who stands on an objective here.
    let (side, enemy) = (s.units[u].side, s.units[u].side.other());
    for o in s.objectives.iter_mut().filter(|o| o.hex == h) {
        o.known[enemy.index()] = Some(side);
    }
    s.touch_place(h);
    s.touch(u);
    let unit = &s.units[u];
    log.add(|| {
        ev!(
            "spotted",
            "3.1",
            format!(
                "{} {} ({}) is spotted at {}",
                unit.id,
                unit.name,
                unit.arm.name(),
                label(h)
            ),
        )
        .side(unit.side)
        .units([&unit.id])
    });
}

/// After a unit moves (or turns): it may reveal itself, and its side may now spot markers
/// at once.
pub fn after_move(s: &mut State, i: usize, log: &mut Log) {
    if !s.settings().hidden || !s.units[i].active() {
        return;
    }
    let side = s.units[i].side;
    if s.units[i].arm.is_real() && auto_spotted(s, side.other(), s.units[i].hex) {
        reveal(s, i, log);
    }
    if !s.units[i].arm.is_real() {
        return;
    }
    for t in 0..s.units.len() {
        let e = &s.units[t];
        if e.side != side && e.active() && !e.seen && auto_spotted(s, side, e.hex) {
            reveal(s, t, log);
        }
    }
}
