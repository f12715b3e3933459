//! Hidden units, spotting and ambush (M76–M78, M117), minefields unknown to the enemy (M65),
//! smoke in the line of sight (M99) and the secret AT capability (M4): what each side may
//! know, and a world for a side's search that holds only what it knows. Below the chapters:
//! they ask it what a side sees and tell it when a unit shows itself.
//!
//! A unit the scenario marks `hidden` is off the enemy's map until it moves, fires or starts a
//! melee, or is spotted: at the start and at the end of each player turn (steps 2 and 9) the
//! phasing side rolls a d6 for each hidden enemy within 15 hexes (20 from a hill) of one of its
//! units that sees it, 5–6 revealing it. An enemy that steps into a hidden unit's hex is
//! ambushed: the step is not made, the hidden unit shows itself and fires first (M117).
//!
//! Decoys (M77): a scenario may place fake markers (`[[decoys]]`, read by the Hex Command
//! family); then hidden units stand on the table as markers among them (the table method of
//! 4.1) instead of off it. Spotting finds a decoy out like a unit (d6 5–6), and so does an
//! enemy entering its hex. An enemy moving next to a marker shows it only if it is a vehicle
//! (real ones) — a decoy next to it is found out unless it stands in heavy terrain (forest,
//! buildings, a fort or works), where it stays a marker.

use crate::effects;
use crate::indirect;
use crate::items::Kind;
use crate::rule;
use crate::state::State;
use hex_command_family::sight::{self, Sight};
use volley_core::geometry::label;
use volley_core::{Dice, Event, Hex, Log, Seen, Side};

fn only(side: Side) -> Seen {
    match side {
        Side::Red => Seen::Red,
        Side::Blue => Seen::Blue,
    }
}

/// Whether `side` knows item `i` is there.
pub fn visible_to(s: &State, i: usize, side: Side) -> bool {
    s.item(i).side == side || !s.turn_state[i].hidden
}

/// Enemies of `side` in a hex that `side` knows of.
pub fn known_enemy_in(s: &State, hex: Hex, side: Side) -> bool {
    s.items_at(hex)
        .any(|e| s.item(e).side != side && visible_to(s, e, side))
}

/// Room in a hex as `side` knows it: two less its own items and the enemies it sees.
pub fn known_room(s: &State, hex: Hex, side: Side) -> usize {
    let map = &s.setup.map;
    if !map.contains(hex) {
        return 0;
    }
    let known = s
        .items_at(hex)
        .filter(|&e| s.item(e).side == side || visible_to(s, e, side))
        .count();
    crate::board::STACK.saturating_sub(known)
}

/// M76: the phasing side looks for hidden enemies (steps 2 and 9).
pub fn spotting(s: &mut State, dice: &mut dyn Dice, log: &mut Log) {
    let side = s.phasing();
    let g = s.ground();
    let map = &s.setup.map;
    let spotters: Vec<Hex> = (0..s.items.len())
        .filter(|&i| s.in_play(i) && s.item(i).side == side && !s.routed(i))
        .map(|i| s.item(i).hex)
        .collect();
    // Within 15 hexes of a spotter (20 from a hill) that sees it.
    let in_view = |t: Hex| {
        spotters.iter().any(|&h| {
            let reach = indirect::spotting_range(map.elevation(h) > 0);
            h.unsigned_distance_to(t) <= reach
                && sight::line_of_sight(g, h, t, None, |_| None) != Sight::Blocked
                && !smoked(s, h, t)
        })
    };
    let targets: Vec<usize> = (0..s.items.len())
        .filter(|&e| s.in_play(e) && s.item(e).side != side && s.turn_state[e].hidden)
        .filter(|&e| in_view(s.item(e).hex))
        .collect();
    let decoys: Vec<Hex> = s
        .decoys
        .iter()
        .filter(|d| d.side != side)
        .map(|d| d.hex)
        .filter(|&t| in_view(t))
        .collect();
    spot_items(s, targets, side, dice, log);
    for hex in decoys {
        let d = dice.roll(6);
        if indirect::spots(d) {
            decoy_found(s, hex, &format!("{side} spots it (d6 {d}, M76)"), log);
        } else {
            log.add(|| {
                Event::new(
                    "spotting",
                    rule("M76"),
                    format!(
                        "{side} does not spot through the marker at {} (d6 {d}).",
                        label(hex)
                    ),
                )
                .side(side.other())
                .seen(only(side.other()))
            });
        }
    }
}

fn spot_items(s: &mut State, targets: Vec<usize>, side: Side, dice: &mut dyn Dice, log: &mut Log) {
    for e in targets {
        let d = dice.roll(6);
        if indirect::spots(d) {
            effects::reveal(s, e, &format!("{side} spots it (d6 {d}, M76)"), log);
        } else {
            let owner = s.item(e).side;
            log.add(|| {
                Event::new(
                    "spotting",
                    rule("M76"),
                    format!("{side} does not spot {} (d6 {d}).", s.item(e).id),
                )
                .side(owner)
                .seen(only(owner))
            });
        }
    }
}

/// M77: a decoy marker is found out and taken off the table.
pub fn decoy_found(s: &mut State, hex: Hex, why: &str, log: &mut Log) {
    let Some(k) = s.decoys.iter().position(|d| d.hex == hex) else {
        return;
    };
    let side = s.decoys.remove(k).side;
    log.add(|| {
        Event::new(
            "reveal",
            rule("M77"),
            format!(
                "The {side} marker at {} was a decoy and is removed: {why}.",
                label(hex)
            ),
        )
        .side(side)
    });
}

/// Heavy terrain for a decoy (M77): forest, buildings, a fort or standing works — not a
/// fence, wall or bushes (light woods).
pub fn heavy_terrain(s: &State, hex: Hex) -> bool {
    use volley_core::map::Terrain;
    matches!(
        s.setup.map.terrain(hex),
        Terrain::Woods | Terrain::Town | Terrain::Fort
    ) || s
        .works
        .at(hex)
        .is_some_and(|w| w.standing() && w.kind != hex_command_family::ground::WorkKind::Pontoon)
}

/// M77: item `i` has entered `hex`. An enemy decoy in the hex is found out; in the
/// neighbouring hexes hidden enemy vehicles are revealed, other hidden units stay hidden,
/// and decoys are found out unless they stand in heavy terrain.
pub fn markers_next_to(s: &mut State, i: usize, log: &mut Log) {
    let (side, hex) = (s.item(i).side, s.item(i).hex);
    let id = s.item(i).id.clone();
    let near: Vec<Hex> = s
        .decoys
        .iter()
        .filter(|d| d.side != side)
        .map(|d| d.hex)
        .filter(|&h| {
            let d = h.unsigned_distance_to(hex);
            d == 0 || (d == 1 && !heavy_terrain(s, h))
        })
        .collect();
    for h in near {
        let why = if h == hex {
            format!("{id} enters its hex")
        } else {
            format!("{id} comes next to it")
        };
        decoy_found(s, h, &why, log);
    }
    let vehicles: Vec<usize> = (0..s.items.len())
        .filter(|&e| {
            s.in_play(e)
                && s.item(e).side != side
                && s.turn_state[e].hidden
                && matches!(s.item(e).kind, Kind::Vehicle { .. })
                && s.item(e).hex.unsigned_distance_to(hex) == 1
        })
        .collect();
    for e in vehicles {
        effects::reveal(s, e, &format!("{id} comes next to it (M77)"), log);
    }
}

/// M117: item `i` stepping into `to` finds hidden enemies there. The step is not made and
/// its move ends; the enemies waiting there are returned, to show themselves and fire first
/// at it ([`crate::fire::ambush_fire`]).
pub fn ambush(s: &mut State, i: usize, to: Hex, log: &mut Log) -> Option<Vec<usize>> {
    let side = s.item(i).side;
    let waiting: Vec<usize> = s.items_at(to).filter(|&e| s.item(e).side != side).collect();
    if waiting.is_empty() {
        return None;
    }
    s.turn_state[i].done = true;
    log.add(|| {
        Event::new(
            "ambush",
            rule("M117"),
            format!(
                "{} tries to enter {} and runs into a waiting enemy: its move ends.",
                s.item(i).id,
                label(to)
            ),
        )
        .side(side)
        .units([s.item(i).id.clone()])
    });
    Some(waiting)
}

/// A copy with what `side` does not know taken off the table: hidden enemies and every
/// minefield (for walks over possible moves that must not roll or reveal anything).
pub fn without_unknowns(s: &State, side: Side) -> State {
    let mut g = s.clone();
    for i in 0..g.items.len() {
        if g.in_play(i) && !visible_to(&g, i, side) {
            effects::remove(&mut g, i);
        }
    }
    g.minefields.clear();
    g
}

/// A copy of the game as `side` knows it, for a search that must not peek (the bots'
/// determinization): hidden enemies are dealt out afresh (among the markers with decoys
/// out, else by `deal_unseen`), unrevealed enemy squads carry no AT weapons, and enemy
/// minefields `side` has not found are gone.
pub fn as_known_by(s: &State, side: Side, dice: &mut dyn Dice) -> State {
    let mut g = s.clone();
    for i in 0..g.items.len() {
        if !g.in_play(i) || g.item(i).side == side {
            continue;
        }
        if let Kind::Squad(sq) = &mut g.items[i].kind {
            if !g.revealed_at[i] {
                sq.at = false;
            }
        }
    }
    if g.setup.markers {
        deal_markers(&mut g, side, dice);
    } else {
        deal_unseen(&mut g, side, dice);
    }
    g.minefields.retain(|m| m.side == side || m.known);
    g
}

/// The hidden enemies of `side` (carriers bring their passengers along) are first lifted
/// off the table, so that where they truly stand makes no difference, then dealt one by
/// one, each to a random empty hex it could stand in that no unit of `side` is next to:
/// heavy terrain when any such hex is left (docs/rules, interpretation 41).
fn deal_unseen(s: &mut State, side: Side, dice: &mut dyn Dice) {
    let map = s.setup.map.clone();
    let unseen: Vec<usize> = (0..s.items.len())
        .filter(|&i| {
            s.in_play(i)
                && s.item(i).side != side
                && s.turn_state[i].hidden
                && s.aboard(i).is_none()
        })
        .collect();
    for &i in &unseen {
        s.board.lift(&map, s.item(i).hex, i);
    }
    let watched: Vec<Hex> = (0..s.items.len())
        .filter(|&f| s.in_play(f) && s.item(f).side == side)
        .map(|f| s.item(f).hex)
        .collect();
    for &i in &unseen {
        let open: Vec<Hex> = map
            .hexes()
            .filter(|&h| {
                s.board.room(&map, h) > 0
                    && !s.enemy_in(h, s.item(i).side)
                    && s.passable(s.item(i), h, h)
            })
            .collect();
        let free: Vec<Hex> = open
            .iter()
            .copied()
            .filter(|&h| {
                s.items_at(h).next().is_none()
                    && !watched.iter().any(|w| w.unsigned_distance_to(h) <= 1)
            })
            .collect();
        // Where a unit could wait unseen, a player looks in cover first.
        let cover: Vec<Hex> = free
            .iter()
            .copied()
            .filter(|&h| heavy_terrain(s, h))
            .collect();
        let spots = [cover, free, open]
            .into_iter()
            .find(|v| !v.is_empty())
            .unwrap_or_default();
        if !spots.is_empty() {
            let k = (dice.roll(spots.len() as u32) - 1) as usize;
            s.items[i].hex = spots[k];
        }
        let placed = s.board.place(&map, s.item(i).hex, i);
        debug_assert!(placed, "a hex with room, or its own");
        effects::carry_along(s, i);
    }
}

/// With decoys on the table (M77), `side` sees the enemy's hidden units and decoys only as
/// markers: they are dealt out at random among the marker hexes (as Gunpowder's search
/// does, through the family's shuffle), the decoys taking the hexes left over.
fn deal_markers(s: &mut State, side: Side, dice: &mut dyn Dice) {
    let map = s.setup.map.clone();
    let hidden: Vec<usize> = (0..s.items.len())
        .filter(|&i| s.in_play(i) && s.item(i).side != side && !visible_to(s, i, side))
        .collect();
    let mut spots: Vec<Hex> = hidden.iter().map(|&i| s.item(i).hex).collect();
    spots.extend(s.decoys.iter().filter(|d| d.side != side).map(|d| d.hex));
    spots.sort_by_key(|h| volley_core::geometry::col_row(*h));
    hex_command_family::markers::shuffle(&mut spots, dice);
    for &i in &hidden {
        s.board.lift(&map, s.item(i).hex, i);
    }
    let mut left = Vec::new();
    for (k, &h) in spots.iter().enumerate() {
        match hidden.get(k) {
            Some(&i) if s.board.room(&map, h) > 0 && s.passable(s.item(i), h, h) => {
                s.items[i].hex = h;
                s.board.place(&map, h, i);
            }
            Some(&i) => {
                // No room there: back where it was, or failing that any marker hex free.
                let at = std::iter::once(s.item(i).hex)
                    .chain(spots.iter().copied())
                    .find(|&x| s.board.room(&map, x) > 0)
                    .unwrap_or(s.item(i).hex);
                s.items[i].hex = at;
                s.board.place(&map, at, i);
                left.push(h);
            }
            None => left.push(h),
        }
    }
    let mut left = left.into_iter();
    for d in s.decoys.iter_mut().filter(|d| d.side != side) {
        if let Some(h) = left.next() {
            d.hex = h;
        }
    }
}

/// Whether smoke hides `b` from `a`: smoke on a hex between them, or on `b` itself unless
/// they are neighbours.
pub fn smoked(s: &State, a: Hex, b: Hex) -> bool {
    if s.smoke.is_empty() {
        return false;
    }
    let on = |h: Hex| s.smoke.iter().any(|&(sq, _)| sq == h);
    if a.unsigned_distance_to(b) > 1 && on(b) {
        return true;
    }
    volley_core::geometry::lines_between(a, b)
        .iter()
        .all(|line| line.iter().any(|&h| h != a && h != b && on(h)))
}
