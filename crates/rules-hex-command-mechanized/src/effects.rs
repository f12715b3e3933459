//! What the chapters' results do to the position, below them all: an item moved (its cargo
//! with it) or removed and counted lost (M41), a hidden item revealed (M78), HE falling on an
//! item from guns or aircraft (M97, M69), and what a loss does to an item — a squad down
//! to two figures routs and runs its full allowance from the nearest enemy (M120, and the
//! phasing side's routed units run again at the start of its turn), a routed one hit again is
//! removed (M123), a wreck takes its passengers with it (M13); a commander with a unit that is
//! hit may die (M32) and one left alone in a hex the enemy enters is captured (M119); heavy
//! fire batters works (M101).

use crate::charts::Weight;
use crate::command_tables;
use crate::items::Kind;
use crate::losses;
use crate::rule;
use crate::state::{Fallen, State};
use volley_core::geometry::{label, Facing};
use volley_core::{Dice, Event, Hex, Log};

/// Moves an item to another hex, keeping the board.
pub fn relocate(s: &mut State, i: usize, to: Hex) {
    let map = &s.setup.map;
    s.board.lift(map, s.items[i].hex, i);
    s.items[i].hex = to;
    let placed = s.board.place(map, to, i);
    debug_assert!(placed, "checked: room in {}", label(to));
    carry_along(s, i);
}

/// Removes an item from the table (destroyed or captured) and counts it lost.
pub fn remove(s: &mut State, i: usize) {
    let map = &s.setup.map;
    s.board.lift(map, s.items[i].hex, i);
    s.turn_state[i].gone = true;
    s.counted[i] = true;
    wreck(s, i, &mut Log::silent());
}

/// What a loss did to an item: a routed squad runs (M120), a destroyed item goes.
pub fn after_loss(s: &mut State, i: usize, result: losses::Result, log: &mut Log) {
    match result {
        losses::Result::Holds => {}
        losses::Result::Routs if !s.turn_state[i].routed => {
            s.turn_state[i].routed = true;
            s.counted[i] = true;
            if let Kind::Squad(sq) = &mut s.items[i].kind {
                sq.markers = 0;
            }
            log.add(|| {
                Event::new(
                    "rout",
                    rule("M120"),
                    format!(
                        "{} is down to two figures and routs: its markers go and it runs.",
                        s.item(i).id
                    ),
                )
                .side(s.item(i).side)
                .units([s.item(i).id.clone()])
            });
            run(s, i, log);
        }
        losses::Result::Routs => {
            // M123: any hit destroys a routed unit.
            remove(s, i);
            log.add(|| removed_event(s, i, "a routed unit hit again is destroyed (M123)"));
        }
        losses::Result::Destroyed => {
            wreck(s, i, log);
            remove(s, i);
            log.add(|| removed_event(s, i, "destroyed"));
        }
    }
}

pub(crate) fn removed_event(s: &State, i: usize, why: &str) -> Event {
    let it = s.item(i);
    Event::new(
        "removed",
        rule("M41"),
        format!("{} is removed from play: {why}.", it.id),
    )
    .side(it.side)
    .units([it.id.clone()])
}

/// M120–M121: a routed item runs its full allowance away from the nearest enemy, a hex at
/// a time, while a hex farther away has room; leaving the map removes it.
pub fn run(s: &mut State, i: usize, log: &mut Log) {
    let allowance = crate::moves::allowance(s.item(i), &s.setup.charts);
    let from = s.item(i).hex;
    for _ in 0..allowance {
        let here = s.item(i).hex;
        let side = s.item(i).side;
        let nearest = |h: Hex| {
            (0..s.items.len())
                .filter(|&e| s.in_play(e) && s.item(e).side != side)
                .map(|e| h.unsigned_distance_to(s.item(e).hex))
                .min()
                .unwrap_or(u32::MAX)
        };
        let now = nearest(here);
        let best = Facing::ALL
            .iter()
            .map(|f| volley_core::geometry::step(here, *f))
            .filter(|&h| {
                s.setup.map.contains(h)
                    && s.passable(s.item(i), here, h)
                    && !s.enemy_in(h, side)
                    && s.board.room(&s.setup.map, h) > 0
                    && nearest(h) > now
            })
            .max_by_key(|&h| (nearest(h), std::cmp::Reverse(label(h))));
        match best {
            Some(h) => {
                relocate(s, i, h);
                if let Some(f) = Facing::towards(here, h) {
                    s.items[i].facing = f;
                }
            }
            None => break,
        }
    }
    let to = s.item(i).hex;
    if to != from {
        log.add(|| {
            Event::new(
                "rout",
                rule("M121"),
                format!(
                    "{} runs from {} to {}.",
                    s.item(i).id,
                    label(from),
                    label(to)
                ),
            )
            .side(s.item(i).side)
            .units([s.item(i).id.clone()])
        });
    }
}

/// M121: at the start of its turn (after its reinforcements), the phasing side's routed
/// units run.
pub(crate) fn routed_run(s: &mut State, log: &mut Log) {
    let side = s.phasing();
    for i in 0..s.items.len() {
        if s.in_play(i) && s.item(i).side == side && s.routed(i) {
            run(s, i, log);
            s.turn_state[i].done = true;
        }
    }
}

/// Everything aboard rides along when the carrier moves.
pub fn carry_along(s: &mut State, v: usize) {
    let (hex, facing) = (s.item(v).hex, s.item(v).facing);
    for i in 0..s.items.len() {
        if s.aboard(i) == Some(v) {
            s.items[i].hex = hex;
            s.items[i].facing = facing;
        }
    }
}

/// M108, C21: a destroyed carrier's towed guns are lost; its passengers bail out into its
/// hex (or a neighbouring one) with a figure lost and a hit marker, or are lost with it.
pub fn wreck(s: &mut State, v: usize, log: &mut Log) {
    let map = s.setup.map.clone();
    for i in 0..s.items.len() {
        if s.aboard(i) != Some(v) || s.turn_state[i].gone {
            continue;
        }
        s.turn_state[i].aboard = None;
        let side = s.item(i).side;
        let here = s.item(v).hex;
        let spot = std::iter::once(here)
            .chain(
                volley_core::geometry::Facing::ALL
                    .iter()
                    .map(|f| volley_core::geometry::step(here, *f)),
            )
            .find(|&h| {
                map.contains(h)
                    && s.board.room(&map, h) > 0
                    && !s.enemy_in(h, side)
                    && s.passable(s.item(i), h, h)
            });
        let is_gun = matches!(s.item(i).kind, Kind::Gun { .. });
        match spot {
            Some(h) if !is_gun => {
                s.items[i].hex = h;
                s.board.place(&map, h, i);
                if let Kind::Squad(sq) = &mut s.items[i].kind {
                    sq.figures = sq.figures.saturating_sub(1);
                }
                let (r, text) = losses::hit_squad(&mut s.items[i], 1);
                log.add(|| {
                    Event::new(
                        "bail out",
                        rule("M108"),
                        format!(
                            "{} bails out of the wreck at {}, losing a figure: {text}.",
                            s.item(i).id,
                            label(h)
                        ),
                    )
                    .side(side)
                });
                after_loss(s, i, r, log);
            }
            _ => {
                s.turn_state[i].gone = true;
                s.counted[i] = true;
                log.add(|| {
                    Event::new(
                        "removed",
                        rule("M108"),
                        format!("{} is lost with {}.", s.item(i).id, s.item(v).id),
                    )
                    .side(side)
                });
            }
        }
    }
}

/// M31: a hit on an item in a commander's hex kills the commander on a d6 of 1.
pub fn commander_risk(s: &mut State, i: usize, dice: &mut dyn Dice, log: &mut Log) {
    if let Some(c) = s.commander_with(i) {
        let d = dice.roll(6);
        if command_tables::commander_dies(d) {
            s.posts.fall(c, Fallen::Killed);
        }
        log.add(|| {
            let cm = &s.commanders[c];
            Event::new(
                "commander",
                rule("M31"),
                format!(
                    "{} is in the hex hit and rolls {d}: {}.",
                    cm.id,
                    if d == 1 { "killed" } else { "unharmed" }
                ),
            )
            .side(cm.side)
        });
    }
}

/// A commander is captured (M32, M119): out of the game, counted lost.
pub(crate) fn capture(s: &mut State, c: usize, section: &str, text: String, log: &mut Log) {
    s.posts.fall(c, Fallen::Captured);
    let side = s.commanders[c].side;
    log.add(|| Event::new("commander", rule(section), text).side(side));
}

/// M32: an item entering a hex where an enemy commander stands with none of its own side's
/// items catches it unattached: the commander is captured.
pub fn catch_commanders(s: &mut State, i: usize, log: &mut Log) {
    let (side, hex) = (s.item(i).side, s.item(i).hex);
    if s.items_at(hex).any(|x| s.item(x).side != side) {
        return;
    }
    for c in 0..s.posts.at.len() {
        if s.posts.at[c] == Some(hex) && s.commanders[c].side != side {
            let text = format!(
                "{} is caught alone at {} by {} and captured.",
                s.commanders[c].id,
                label(hex),
                s.item(i).id
            );
            capture(s, c, "M32", text, log);
        }
    }
}

/// M101 (D10): heavy fire (a Heavy or Very Heavy weapon) that hits a hex of works or a
/// fort batters it; after as many hits as its weight's structure points (quick works 2,
/// a fort 4) it is rubble: no cover, no obstacle.
pub fn batter(s: &mut State, hex: Hex, weight: crate::charts::Weight, log: &mut Log) {
    use crate::charts::Weight;
    if !matches!(weight, Weight::H | Weight::VH) {
        return;
    }
    let Some(w) = s.works.at_mut(hex) else {
        return;
    };
    if !w.standing() {
        return;
    }
    w.damage += 1;
    let (damage, strength, rubble) = (w.damage, w.kind.strength(), !w.standing());
    log.add(|| {
        Event::new(
            "works",
            rule("M101"),
            format!(
                "Heavy fire batters the works at {}: {damage} of {strength} hits{}.",
                label(hex),
                if rubble { "; they are rubble" } else { "" }
            ),
        )
    });
}

/// A hidden item shows itself (M78): it moved, fired, was spotted or was hit.
pub fn reveal(s: &mut State, i: usize, why: &str, log: &mut Log) {
    if !s.turn_state[i].hidden {
        return;
    }
    s.turn_state[i].hidden = false;
    log.add(|| {
        let it = s.item(i);
        Event::new(
            "reveal",
            rule("M78"),
            format!(
                "{} ({}) is revealed at {}: {why}.",
                it.id,
                it.name,
                label(it.hex)
            ),
        )
        .side(it.side)
        .units([it.id.clone()])
    });
}

/// HE falling on item `t` (M97, and the air strike's bombs, M69): a squad takes its figure and
/// markers, a vehicle rolls damage blocks by the weapon's weight, a gun's crew is lost. The item
/// shows itself, a commander with it may fall (M31) and the loss takes effect.
pub fn he_hit(
    s: &mut State,
    t: usize,
    weight: Weight,
    (section, shown_by): (&'static str, &str),
    dice: &mut dyn Dice,
    log: &mut Log,
) {
    let setup = std::sync::Arc::clone(&s.setup);
    let charts = &setup.charts;
    let target = &mut s.items[t];
    let (result, text) = match &target.kind {
        Kind::Squad(_) => losses::he_on_squad(target, charts.guns[&weight].he_markers),
        Kind::Vehicle { .. } => losses::hit_vehicle(target, weight, charts, dice),
        Kind::Gun { .. } => (
            losses::Result::Destroyed,
            format!("{}'s crew is hit and the gun is lost", target.id),
        ),
    };
    let (side, id) = (s.item(t).side, s.item(t).id.clone());
    reveal(s, t, shown_by, log);
    log.add(|| {
        Event::new("hit", rule(section), format!("{text}."))
            .side(side)
            .units([id])
    });
    commander_risk(s, t, dice, log);
    after_loss(s, t, result, log);
}
