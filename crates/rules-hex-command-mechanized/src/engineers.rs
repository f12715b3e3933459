//! Engineering (M66–M67): an engineer squad that has not moved builds a hex of works where it
//! stands over one, two or three turns by its weight (T12); any squad clears a minefield its
//! side knows of in its hex or the next, or lays one there from the mines the scenario gives
//! it. Whoever works does not fight that turn.

use crate::items::Kind;
use crate::logistics;
use crate::rule;
use crate::state::Digging;
use crate::state::Minefield;
use crate::state::{State, Step};
use hex_command_family::ground::{Work, WorkKind};
use volley_core::game::Refusal;
use volley_core::geometry::label;
use volley_core::{Event, Hex, Log, Side};

/// A squad of the side to decide that has not moved this turn, free to work.
fn check_worker<R: Refusal>(s: &State, i: usize) -> Result<(), R> {
    if s.step != Step::Movement {
        return Err(R::because(|| {
            format!(
                "engineering is done in the movement step; it is {}",
                s.step_name()
            )
        }));
    }
    let it = s.own_item::<R>(i)?;
    if !matches!(it.kind, Kind::Squad(_)) || s.routed(i) || !s.active(i) {
        return Err(R::because(|| format!("{} cannot work", it.id)));
    }
    let t = &s.turn_state[i];
    if t.moving || t.done || t.worked {
        return Err(R::because(|| {
            format!("{} has moved or worked this turn (M66–M67)", it.id)
        }));
    }
    Ok(())
}

pub fn check_dig<R: Refusal>(s: &State, i: usize) -> Result<(), R> {
    check_worker::<R>(s, i)?;
    let it = s.item(i);
    if !matches!(&it.kind, Kind::Squad(sq) if sq.engineer) {
        return Err(R::because(|| {
            format!("only engineers build works (M66); {} is not", it.id)
        }));
    }
    if s.works.at(it.hex).is_some() {
        return Err(R::because(|| {
            format!("{} already has works", label(it.hex))
        }));
    }
    Ok(())
}

/// M66: a turn's work on the works in the engineer's hex.
pub fn do_dig(s: &mut State, i: usize, log: &mut Log) {
    let hex = s.item(i).hex;
    work_on(
        s,
        i,
        hex,
        WorkKind::QuickWorks,
        ("digs in", "the works are ready"),
        log,
    );
}

pub fn check_bridge<R: Refusal>(s: &State, i: usize, hex: Hex) -> Result<(), R> {
    check_worker::<R>(s, i)?;
    let it = s.item(i);
    if !matches!(&it.kind, Kind::Squad(sq) if sq.engineer) {
        return Err(R::because(|| {
            format!("only engineers bridge water (M66); {} is not", it.id)
        }));
    }
    if it.hex.unsigned_distance_to(hex) != 1 {
        return Err(R::because(|| {
            format!("{} bridges a water hex next to it", it.id)
        }));
    }
    let map = &s.setup.map;
    if !map.contains(hex) || map.terrain(hex) != volley_core::map::Terrain::Water {
        return Err(R::because(|| format!("{} is not water", label(hex))));
    }
    if s.works.at(hex).is_some() {
        return Err(R::because(|| format!("{} is bridged already", label(hex))));
    }
    Ok(())
}

/// M66: a turn's work on a bridge over the water next to the engineers; it carries troops
/// after as many turns as the engineers' weight says (T12).
pub fn do_bridge(s: &mut State, i: usize, hex: Hex, log: &mut Log) {
    work_on(
        s,
        i,
        hex,
        WorkKind::Pontoon,
        ("bridges the water", "the bridge is open"),
        log,
    );
}

/// M66: a turn of engineer `i`'s work on `kind` at `hex`, its side's work there carried on
/// from earlier turns; done after as many turns as the engineers' weight says (T12), the work
/// then stands on the map. The log says what is done (`doing`) and, when ready, `ready`.
fn work_on(
    s: &mut State,
    i: usize,
    hex: Hex,
    kind: WorkKind,
    (doing, ready): (&str, &str),
    log: &mut Log,
) {
    let side = s.item(i).side;
    let weight = match &s.item(i).kind {
        Kind::Squad(sq) => sq.weight.unwrap_or(crate::charts::Weight::M),
        _ => unreachable!("checked: a squad"),
    };
    let needed = logistics::works_turns(weight);
    let k = match s
        .digging
        .iter()
        .position(|d| d.hex == hex && d.side == side)
    {
        Some(k) => k,
        None => {
            s.digging.push(Digging {
                hex,
                side,
                progress: 0,
            });
            s.digging.len() - 1
        }
    };
    s.digging[k].progress += 1;
    let progress = s.digging[k].progress;
    finish_work(s, i);
    let done = progress >= needed;
    if done {
        s.digging.remove(k);
        s.works.0.push(Work {
            hex,
            kind,
            side,
            progress: kind.turns(),
            damage: 0,
        });
    }
    log.add(|| {
        Event::new(
            "works",
            rule("M66"),
            format!(
                "{} {doing} at {}: turn {progress} of {needed}{}.",
                s.item(i).id,
                label(hex),
                if done {
                    format!("; {ready}")
                } else {
                    String::new()
                }
            ),
        )
        .side(side)
        .units([s.item(i).id.clone()])
    });
}

/// The worker is done for the turn and does not fight until its side's next turn.
fn finish_work(s: &mut State, i: usize) {
    let t = &mut s.turn_state[i];
    t.done = true;
    t.worked = true;
    if s.mover == Some(i) {
        s.mover = None;
    }
}

pub fn check_clear<R: Refusal>(s: &State, i: usize, hex: Hex) -> Result<(), R> {
    check_worker::<R>(s, i)?;
    let it = s.item(i);
    if it.hex != hex && it.hex.unsigned_distance_to(hex) != 1 {
        return Err(R::because(|| {
            format!("{} clears mines in its own hex or the next (M67)", it.id)
        }));
    }
    let known = s
        .minefields
        .iter()
        .any(|m| m.hex == hex && (m.known || m.side == it.side));
    if !known {
        return Err(R::because(|| {
            format!("{}'s side knows of no minefield at {}", it.id, label(hex))
        }));
    }
    Ok(())
}

pub fn do_clear(s: &mut State, i: usize, hex: Hex, log: &mut Log) {
    s.minefields.retain(|m| m.hex != hex);
    finish_work(s, i);
    log.add(|| {
        Event::new(
            "mines",
            rule("M67"),
            format!("{} clears the minefield at {}.", s.item(i).id, label(hex)),
        )
        .side(s.item(i).side)
        .units([s.item(i).id.clone()])
    });
}

pub fn check_lay<R: Refusal>(s: &State, i: usize, hex: Hex) -> Result<(), R> {
    check_worker::<R>(s, i)?;
    let it = s.item(i);
    if !matches!(&it.kind, Kind::Squad(sq) if sq.mines > 0) {
        return Err(R::because(|| {
            format!("{} has no mines to lay (the scenario's `mines`)", it.id)
        }));
    }
    if it.hex != hex && it.hex.unsigned_distance_to(hex) != 1 {
        return Err(R::because(|| {
            format!("{} lays mines in its own hex or the next (M67)", it.id)
        }));
    }
    let map = &s.setup.map;
    if !map.contains(hex) || !s.passable(it, hex, hex) {
        return Err(R::because(|| {
            format!("no mines can be laid at {}", label(hex))
        }));
    }
    if s.minefields
        .iter()
        .any(|m| m.hex == hex && (m.known || m.side == it.side))
    {
        return Err(R::because(|| format!("{} is mined already", label(hex))));
    }
    Ok(())
}

pub fn do_lay(s: &mut State, i: usize, hex: Hex, log: &mut Log) {
    let side = s.item(i).side;
    if let Kind::Squad(sq) = &mut s.items[i].kind {
        sq.mines -= 1;
    }
    if !s.minefields.iter().any(|m| m.hex == hex) {
        s.minefields.push(Minefield {
            hex,
            side,
            known: false,
        });
    }
    finish_work(s, i);
    log.add(|| {
        Event::new(
            "mines",
            rule("M67"),
            format!("{} lays mines at {}.", s.item(i).id, label(hex)),
        )
        .side(side)
        .units([s.item(i).id.clone()])
        .seen(match side {
            Side::Red => volley_core::Seen::Red,
            Side::Blue => volley_core::Seen::Blue,
        })
    });
}
