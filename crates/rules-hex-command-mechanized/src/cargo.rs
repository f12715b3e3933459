//! Carrying and towing (M11–M13, M53, M108; T8): squads embark on halftracks, trucks and
//! carriers, guns limber up behind them, up to the vehicle's cargo points (a squad 4, a gun 1).
//! Loading or unloading costs the vehicle a movement point and the passenger nothing; what is
//! aboard rides with the vehicle and takes no room in the hex. Unloading puts it in the
//! vehicle's hex or a neighbouring one. A towed gun is lost with its tow; passengers of a
//! destroyed carrier bail out with a figure lost and a hit marker (C21).

use crate::acting;
use crate::hidden;
use crate::items::Kind;
use crate::logistics;
use crate::rule;
use crate::state::{State, Step};
use volley_core::game::Refusal;
use volley_core::geometry::label;
use volley_core::{Event, Hex, Log};

/// Cargo points in use on a carrier.
fn load_on(s: &State, v: usize) -> u8 {
    let charts = &s.setup.charts;
    (0..s.items.len())
        .filter(|&i| s.aboard(i) == Some(v) && !s.turn_state[i].gone)
        .filter_map(|i| logistics::load_cost(s.item(i), charts))
        .sum()
}

/// Whether the carrier has a movement point left for handling (M53).
fn handling_points(s: &State, v: usize) -> bool {
    let allowance = crate::moves::allowance(s.item(v), &s.setup.charts);
    !s.turn_state[v].done
        && s.turn_state[v].mp + logistics::HANDLING_COST <= allowance
        && (s.mover.is_none() || s.mover == Some(v) || !s.turn_state[v].moving)
}

pub fn check_load<R: Refusal>(s: &State, i: usize, v: usize) -> Result<(), R> {
    if s.step != Step::Movement {
        return Err(R::because(|| {
            format!(
                "loading is done in the movement step; it is {}",
                s.step_name()
            )
        }));
    }
    let it = s.own_item::<R>(i)?;
    if !s.in_play(v) || s.item(v).side != it.side {
        return Err(R::because(|| {
            "the carrier must be a vehicle of the same side in play"
        }));
    }
    let c = s.item(v);
    if logistics::capacity(c) == 0 {
        return Err(R::because(|| format!("{} carries nothing (T8)", c.id)));
    }
    if c.hex != it.hex {
        return Err(R::because(|| {
            format!("{} must be in {}'s hex to get aboard", it.id, c.id)
        }));
    }
    if s.routed(i) || !s.active(i) || s.turn_state[i].done && s.mover != Some(i) {
        return Err(R::because(|| format!("{} cannot get aboard now", it.id)));
    }
    if !logistics::fits(c, load_on(s, v), it, &s.setup.charts) {
        return Err(R::because(|| {
            format!(
                "{} has no room for {} ({} of {} cargo points in use, T8)",
                c.id,
                it.id,
                load_on(s, v),
                logistics::capacity(c)
            )
        }));
    }
    if !handling_points(s, v) {
        return Err(R::because(|| {
            format!("{} has no movement point left to load (M53)", c.id)
        }));
    }
    Ok(())
}

pub fn do_load(s: &mut State, i: usize, v: usize, log: &mut Log) {
    let map = &s.setup.map;
    s.board.lift(map, s.items[i].hex, i);
    s.turn_state[i].aboard = Some(v);
    s.turn_state[i].done = true;
    if s.mover == Some(i) {
        s.mover = None;
    }
    s.turn_state[v].mp += logistics::HANDLING_COST;
    let verb = if matches!(s.item(i).kind, Kind::Gun { .. }) {
        "is limbered up behind"
    } else {
        "embarks on"
    };
    log.add(|| {
        Event::new(
            "load",
            rule("M53"),
            format!(
                "{} {verb} {} at {}.",
                s.item(i).id,
                s.item(v).id,
                label(s.item(v).hex)
            ),
        )
        .side(s.item(i).side)
        .units([s.item(i).id.clone(), s.item(v).id.clone()])
    });
}

pub fn check_unload<R: Refusal>(s: &State, i: usize, hex: Hex) -> Result<(), R> {
    if s.step != Step::Movement {
        return Err(R::because(|| {
            format!(
                "unloading is done in the movement step; it is {}",
                s.step_name()
            )
        }));
    }
    let Some(v) = s.aboard(i) else {
        return Err(R::because(|| "only an item aboard a vehicle unloads"));
    };
    let it = s.item(i);
    if it.side != s.deciding() {
        return Err(R::because(|| format!("{} is {}'s", it.id, it.side)));
    }
    let c = s.item(v);
    if hex != c.hex && c.hex.unsigned_distance_to(hex) != 1 {
        return Err(R::because(|| {
            format!("{} gets off into {}'s hex or one next to it", it.id, c.id)
        }));
    }
    let map = &s.setup.map;
    if !map.contains(hex) || !s.passable(it, hex, hex) {
        return Err(R::because(|| {
            format!("{} cannot stand at {}", it.id, label(hex))
        }));
    }
    if hidden::known_enemy_in(s, hex, it.side) || hidden::known_room(s, hex, it.side) == 0 {
        return Err(R::because(|| {
            format!("{} has no room for {} (M56)", label(hex), it.id)
        }));
    }
    if !handling_points(s, v) {
        return Err(R::because(|| {
            format!("{} has no movement point left to unload (M53)", c.id)
        }));
    }
    Ok(())
}

pub fn do_unload(s: &mut State, i: usize, hex: Hex, log: &mut Log) {
    let v = s.aboard(i).expect("checked: aboard");
    let map = s.setup.map.clone();
    if s.board.room(&map, hex) == 0 || s.enemy_in(hex, s.item(i).side) {
        // A hidden enemy holds the hex: the passenger stays aboard (M117 spirit).
        log.add(|| {
            Event::new(
                "load",
                rule("M53"),
                format!(
                    "{} finds {} held and stays aboard.",
                    s.item(i).id,
                    label(hex)
                ),
            )
            .side(s.item(i).side)
        });
        s.turn_state[v].mp += logistics::HANDLING_COST;
        return;
    }
    s.turn_state[i].aboard = None;
    s.items[i].hex = hex;
    s.items[i].facing = s.item(v).facing;
    s.board.place(&map, hex, i);
    s.turn_state[v].mp += logistics::HANDLING_COST;
    let verb = if matches!(s.item(i).kind, Kind::Gun { .. }) {
        "is unlimbered from"
    } else {
        "gets off"
    };
    log.add(|| {
        Event::new(
            "load",
            rule("M53"),
            format!(
                "{} {verb} {} at {}.",
                s.item(i).id,
                s.item(v).id,
                label(hex)
            ),
        )
        .side(s.item(i).side)
        .units([s.item(i).id.clone(), s.item(v).id.clone()])
    });
}

/// M58: cavalry, not yet moved this turn, gets off or on its horses (free).
pub fn check_horses<R: Refusal>(s: &State, i: usize, mount: bool) -> Result<(), R> {
    acting::check_may_move::<R>(s, i)?;
    let it = s.item(i);
    let Kind::Squad(sq) = &it.kind else {
        return Err(R::because(|| format!("{} has no horses", it.id)));
    };
    if !sq.cavalry {
        return Err(R::because(|| format!("{} is not cavalry (M58)", it.id)));
    }
    if sq.dismounted != mount {
        return Err(R::because(|| {
            format!(
                "{} is {} already",
                it.id,
                if mount { "mounted" } else { "on foot" }
            )
        }));
    }
    if s.turn_state[i].moving {
        return Err(R::because(|| {
            "cavalry mounts or dismounts before it moves (M58)"
        }));
    }
    Ok(())
}

/// Dismounting next to the enemy is dismounting into combat: the horses are left behind.
pub fn do_dismount(s: &mut State, i: usize, log: &mut Log) {
    let (hex, side) = (s.item(i).hex, s.item(i).side);
    let into_combat = volley_core::geometry::Facing::ALL
        .iter()
        .any(|f| hidden::known_enemy_in(s, volley_core::geometry::step(hex, *f), side));
    if let Kind::Squad(sq) = &mut s.items[i].kind {
        sq.dismounted = true;
        sq.horses_lost |= into_combat;
    }
    log.add(|| {
        Event::new(
            "horses",
            rule("M58"),
            format!(
                "{} dismounts{}.",
                s.item(i).id,
                if into_combat {
                    " into combat and leaves its horses"
                } else {
                    ""
                }
            ),
        )
        .side(side)
        .units([s.item(i).id.clone()])
    });
}

/// Mounting again is free, unless the horses were left: then a d6 of 5–6 finds them.
pub fn do_mount(s: &mut State, i: usize, dice: &mut dyn volley_core::Dice, log: &mut Log) {
    let lost = matches!(&s.item(i).kind, Kind::Squad(sq) if sq.horses_lost);
    let roll = lost.then(|| dice.roll(6));
    let found = roll.is_none_or(|d| d >= 5);
    if let Kind::Squad(sq) = &mut s.items[i].kind {
        if found {
            sq.dismounted = false;
            sq.horses_lost = false;
        }
    }
    if !found {
        s.turn_state[i].done = true;
    }
    let side = s.item(i).side;
    log.add(|| {
        let text = match roll {
            None => format!("{} mounts.", s.item(i).id),
            Some(d) if found => format!(
                "{} rolls {d} and finds its horses: it mounts.",
                s.item(i).id
            ),
            Some(d) => format!(
                "{} rolls {d}: its horses are not found this turn.",
                s.item(i).id
            ),
        };
        Event::new("horses", rule("M58"), text)
            .side(side)
            .units([s.item(i).id.clone()])
    });
}
