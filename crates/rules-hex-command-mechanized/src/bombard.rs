//! Indirect fire (M94–M97, C19): a field gun or mortar fires at a hex it need not see, when a
//! unit of its side sees the hex within spotting range (15 hexes, 20 from a hill; M95, T14).
//! Field guns fire so only beyond 5 hexes, mortars at any range (M94). The round lands on the
//! hex on a d6 of 5–6, else in the neighbouring hex a second d6 names (M96), and hits every
//! item there, friend or foe: infantry as HE (a figure and markers, M97), vehicles with a
//! damage-block roll of the gun's weight (C19), gun crews lose their gun.

use crate::acting;
use crate::effects;
use crate::hidden;
use crate::indirect;
use crate::items::Kind;
use crate::rule;
use crate::state::State;
use hex_command_family::sight::{self, Sight};
use volley_core::game::Refusal;
use volley_core::geometry::label;
use volley_core::{Dice, Event, Hex, Log};

/// A bombardment: indirect fire at a hex holding an enemy the side knows of. The target is
/// checked before the spotters, the costliest check (a line of sight from each).
pub fn check_bombard<R: Refusal>(s: &State, i: usize, hex: Hex) -> Result<(), R> {
    check_indirect::<R>(s, i, hex)?;
    let it = s.item(i);
    if !hidden::known_enemy_in(s, hex, it.side) {
        return Err(R::because(|| {
            format!("{} holds no enemy {}'s side knows of", label(hex), it.id)
        }));
    }
    check_spotted(s, i, hex)
}

/// Smoke is fired like a bombardment, at a hex holding or next to an enemy the side knows
/// of; where it lands it hides what is behind and in it until the firing side's next turn.
pub fn check_smoke<R: Refusal>(s: &State, i: usize, hex: Hex) -> Result<(), R> {
    check_indirect::<R>(s, i, hex)?;
    let side = s.item(i).side;
    let near = (0..s.items.len()).any(|e| {
        s.in_play(e)
            && s.item(e).side != side
            && hidden::visible_to(s, e, side)
            && s.item(e).hex.unsigned_distance_to(hex) <= 1
    });
    if !near {
        return Err(R::because(|| {
            format!("smoke goes on or next to an enemy; {} is not", label(hex))
        }));
    }
    if s.smoke.iter().any(|&(h, _)| h == hex) {
        return Err(R::because(|| format!("{} is smoked already", label(hex))));
    }
    check_spotted(s, i, hex)
}

pub fn do_smoke(s: &mut State, i: usize, aim: Hex, dice: &mut dyn Dice, log: &mut Log) {
    s.turn_state[i].fired += 1;
    s.turn_state[i].fired_turn = true;
    fire_unseen(s, i, dice, log);
    let rockets = matches!(s.item(i).kind, Kind::Gun { rockets: true, .. });
    let (at, why) = indirect::shot_fall(aim, 1, rockets, dice);
    let side = s.item(i).side;
    let on_map = s.setup.map.contains(at);
    if on_map && !s.smoke.iter().any(|&(h, _)| h == at) {
        s.smoke.push((at, side));
    }
    log.add(|| {
        Event::new(
            "smoke",
            rule("M96"),
            format!(
                "{} fires smoke at {}: {why}: the smoke {} {}.",
                s.item(i).id,
                label(aim),
                if on_map {
                    "lands on"
                } else {
                    "falls off the map beyond"
                },
                label(at)
            ),
        )
        .side(side)
        .units([s.item(i).id.clone()])
        .seen(firer_seen_by(s, i))
    });
}

/// A hidden gun fires indirectly: it shows itself, or with option `sound_ranging` (M79)
/// the enemy learns only an area of ten hexes around a point a d6 puts next to it.
fn fire_unseen(s: &mut State, i: usize, dice: &mut dyn Dice, log: &mut Log) {
    if !(s.setup.settings.sound_ranging && s.turn_state[i].hidden) {
        effects::reveal(s, i, "it fires", log);
        return;
    }
    let hex = s.item(i).hex;
    let d = dice.roll(6);
    let centre = volley_core::geometry::step(
        hex,
        volley_core::geometry::Facing::from_index((d - 1) as u8),
    );
    let mut near: Vec<Hex> = s.setup.map.hexes().collect();
    near.sort_by_key(|h| (h.unsigned_distance_to(centre), label(*h)));
    let mut area: Vec<Hex> = near.into_iter().take(10).collect();
    if !area.contains(&hex) {
        area.pop();
        area.push(hex);
    }
    area.sort_by_key(|h| label(*h));
    let side = s.item(i).side;
    let turn = s.turn;
    s.sound
        .retain(|(sq, _, a)| !(*sq == side && a.contains(&hex)));
    s.sound.push((side, turn, area.clone()));
    log.add(|| {
        Event::new(
            "sound ranging",
            rule("M79"),
            format!(
                "{} fires unseen: {} sound-ranges it to the area {}.",
                side,
                side.other(),
                area.iter().map(|h| label(*h)).collect::<Vec<_>>().join(" ")
            ),
        )
        .side(side.other())
    });
}

/// Who is told of an indirect shot: both sides, but only the firer's own while the gun
/// stays hidden under sound ranging (the enemy sees the area and the rounds' effect).
fn firer_seen_by(s: &State, i: usize) -> volley_core::Seen {
    if !s.turn_state[i].hidden {
        return volley_core::Seen::Both;
    }
    match s.item(i).side {
        volley_core::Side::Red => volley_core::Seen::Red,
        volley_core::Side::Blue => volley_core::Seen::Blue,
    }
}

/// What bombardment and smoke both need of the gun and the range (M94); the spotter
/// (M95) is [`check_spotted`], asked last.
fn check_indirect<R: Refusal>(s: &State, i: usize, hex: Hex) -> Result<(), R> {
    acting::check_may_fire::<R>(s, i)?;
    let it = s.item(i);
    let Kind::Gun {
        weight,
        indirect: field,
        mortar,
        ..
    } = it.kind
    else {
        return Err(R::because(|| {
            format!("{} has no indirect fire (M94)", it.id)
        }));
    };
    if !field && !mortar {
        return Err(R::because(|| {
            format!("{} fires only at what it sees (M94)", it.id)
        }));
    }
    let map = &s.setup.map;
    if !map.contains(hex) {
        return Err(R::because(|| format!("{} is off the map", label(hex))));
    }
    let r = crate::fire_tables::range(it.hex, hex);
    if !indirect::indirect_allowed(r, mortar) {
        return Err(R::because(|| {
            format!(
                "field guns fire indirectly only beyond {} hexes (M94)",
                indirect::MIN_INDIRECT_RANGE
            )
        }));
    }
    let reach = s.setup.charts.guns[&weight].max_range;
    if r > reach {
        return Err(R::because(|| {
            format!("{} is out of {}'s reach ({reach})", label(hex), it.id)
        }));
    }
    Ok(())
}

/// A unit of the firer's side sees the hex within spotting range (M95).
fn check_spotted<R: Refusal>(s: &State, i: usize, hex: Hex) -> Result<(), R> {
    if spotter(s, i, hex).is_none() {
        return Err(R::because(|| {
            format!(
                "no unit of {}'s side sees {} within spotting range (M95)",
                s.item(i).id,
                label(hex)
            )
        }));
    }
    Ok(())
}

/// A unit of the firer's side that sees `hex` within spotting range (M95).
pub fn spotter(s: &State, i: usize, hex: Hex) -> Option<usize> {
    let side = s.item(i).side;
    let g = s.ground();
    let map = &s.setup.map;
    (0..s.items.len()).find(|&sq| {
        let h = s.item(sq).hex;
        s.in_play(sq)
            && s.item(sq).side == side
            && !s.routed(sq)
            && h.unsigned_distance_to(hex) <= indirect::spotting_range(map.elevation(h) > 0)
            && sight::line_of_sight(g, h, hex, None, |_| None) != Sight::Blocked
            && !hidden::smoked(s, h, hex)
    })
}

pub fn do_bombard(s: &mut State, i: usize, aim: Hex, dice: &mut dyn Dice, log: &mut Log) {
    let Kind::Gun { weight, .. } = s.item(i).kind else {
        unreachable!("checked: a gun")
    };
    s.turn_state[i].fired += 1;
    s.turn_state[i].fired_turn = true;
    fire_unseen(s, i, dice, log);
    let spotter = spotter(s, i, aim).expect("checked: a spotter");
    let rockets = matches!(s.item(i).kind, Kind::Gun { rockets: true, .. });
    let (at, why) = indirect::shot_fall(aim, 1, rockets, dice);
    let hit: Vec<usize> = if s.setup.map.contains(at) {
        s.items_at(at).collect()
    } else {
        Vec::new()
    };
    log.add(|| {
        Event::new(
            "bombard",
            rule("M96"),
            format!(
                "{} fires on {} for {}, spotted by {}: {why}: the round lands on {}{}.",
                s.item(i).id,
                label(aim),
                s.item(i).side,
                s.item(spotter).id,
                label(at),
                if hit.is_empty() {
                    ", harming nobody"
                } else {
                    ""
                }
            ),
        )
        .side(s.item(i).side)
        .units([s.item(i).id.clone()])
        .seen(firer_seen_by(s, i))
    });
    if s.setup.map.contains(at) {
        effects::batter(s, at, weight, log);
    }
    for t in hit {
        effects::he_hit(s, t, weight, ("M97", "the shelling shows it"), dice, log);
    }
}
