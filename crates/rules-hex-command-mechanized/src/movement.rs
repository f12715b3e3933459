//! Movement (M48–M68) and commander placement (M25): hex by hex on movement points, stepping
//! into a front hex (obliquely with option `oblique`, C12), vehicles reversing at half speed,
//! facing changes by class and free on a road, two items a hex, enemy zones of control that
//! stop a move (M54–M55), and vehicles forcing their way into forest (M61).

use crate::acting;
use crate::effects;
use crate::hidden;
use crate::items::Kind;
use crate::moves;
use crate::rule;
use crate::state::{State, Step};
use crate::terrain;
use volley_core::game::Refusal;
use volley_core::geometry::{label, step, Facing};
use volley_core::{Dice, Event, Hex, Log};

/// The movement points an item has for a forward or a reverse move.
fn points(s: &State, i: usize, reverse: bool) -> u8 {
    let charts = &s.setup.charts;
    if reverse {
        moves::reverse_allowance(s.item(i), charts)
    } else {
        moves::allowance(s.item(i), charts)
    }
}

pub fn check_step<R: Refusal>(s: &State, i: usize, to: Hex, reverse: bool) -> Result<(), R> {
    acting::check_may_move::<R>(s, i)?;
    let it = s.item(i);
    let map = &s.setup.map;
    if reverse {
        if !matches!(it.kind, Kind::Vehicle { .. }) {
            return Err(R::because(|| {
                format!("only vehicles reverse (M50); {} turns to go back", it.id)
            }));
        }
        if to != step(it.hex, it.facing.opposite()) {
            return Err(R::because(|| {
                format!("{} reverses only into the hex behind it", it.id)
            }));
        }
        if s.turn_state[i].mp > 0 && !s.turn_state[i].moving {
            return Err(R::because(|| "a reverse move is a whole move"));
        }
    } else {
        let ahead = step(it.hex, it.facing);
        let oblique = [it.facing.turn(-1), it.facing.turn(1)].map(|f| step(it.hex, f));
        if to != ahead && !(s.setup.oblique && oblique.contains(&to)) {
            return Err(R::because(|| {
                format!(
                    "{} steps only into the hex ahead{} (M49); turn first",
                    it.id,
                    if s.setup.oblique {
                        " or its front-left and front-right"
                    } else {
                        ""
                    }
                )
            }));
        }
    }
    if !map.contains(to) {
        return Err(R::because(|| format!("{} is off the map", label(to))));
    }
    if !s.passable(it, it.hex, to) {
        return Err(R::because(|| {
            format!(
                "{} cannot enter {} ({})",
                it.id,
                label(to),
                map.terrain(to).name()
            )
        }));
    }
    if hidden::known_enemy_in(s, to, it.side) {
        return Err(R::because(|| {
            format!("the enemy holds {}; melee it instead", label(to))
        }));
    }
    if hidden::known_room(s, to, it.side) == 0 {
        return Err(R::because(|| {
            format!("{} already holds two items (M56)", label(to))
        }));
    }
    let vehicle = matches!(it.kind, Kind::Vehicle { .. });
    if vehicle
        && terrain::forest_off_road(map, it.hex, to)
        && !s.forced.contains(&to)
        && s.turn_state[i].forest
    {
        return Err(R::because(|| {
            format!("{} has entered a forest hex this turn already (M61)", it.id)
        }));
    }
    if let Some(why) = acting::order_refuses_step(s, i, it.hex, to) {
        return Err(R::because(|| format!("{}: {why}", it.id)));
    }
    if acting::holds(s, i) && acting::nearer_the_enemy(s, i, to) {
        return Err(R::because(|| {
            format!("{} has rallied and does not move nearer the enemy unless a commander is with it (option rallied = hold)", it.id)
        }));
    }
    if acting::panic_holds(s, i) && acting::nearer_the_enemy(s, i, to) {
        return Err(R::because(|| {
            format!(
                "{} may not move nearer the enemy: {} has panicked and no commander is with it (M43)",
                it.id,
                s.setup.side_names[it.side.index()]
            )
        }));
    }
    let cost = moves::step_cost(it, map.road_between(it.hex, to));
    let t = &s.turn_state[i];
    let have = points(s, i, reverse);
    if t.mp + cost > have {
        return Err(R::because(|| {
            format!(
                "{} has {} of its {have} movement points left; {} costs {cost} (M48)",
                it.id,
                have.saturating_sub(t.mp),
                label(to)
            )
        }));
    }
    if moves::crippled(it) && t.mp > 0 {
        return Err(R::because(|| {
            format!("{} is crippled and moves one hex a turn (M63)", it.id)
        }));
    }
    Ok(())
}

/// What came of a step.
#[derive(Clone, Debug, PartialEq, Eq)]
#[must_use]
pub enum Stepped {
    /// The step was made, or the move ended where it stood (mud, forest, mines).
    Done,
    /// Hidden enemies waited in the hex (M117): the step was not made and they fire first.
    Ambushed(Vec<usize>),
}

pub fn do_step(
    s: &mut State,
    i: usize,
    to: Hex,
    reverse: bool,
    dice: &mut dyn Dice,
    log: &mut Log,
) -> Stepped {
    begin_moving(s, i);
    if stuck_in_mud(s, i, dice, log) {
        return Stepped::Done;
    }
    effects::reveal(s, i, "it moves", log);
    if let Some(waiting) = hidden::ambush(s, i, to, log) {
        return Stepped::Ambushed(waiting);
    }
    let map = &s.setup.map;
    let from = s.item(i).hex;
    let cost = moves::step_cost(s.item(i), map.road_between(from, to));
    let vehicle = matches!(s.item(i).kind, Kind::Vehicle { .. });
    if vehicle && terrain::forest_off_road(map, from, to) && !s.forced.contains(&to) {
        let needed = moves::forest_entry_needed(s.item(i), &s.setup.charts).unwrap_or(4);
        let d = dice.roll(6);
        let t = &mut s.turn_state[i];
        t.forest = true;
        let ok = d >= needed;
        if ok {
            s.forced.push(to);
        } else {
            t.done = true;
        }
        log.add(|| {
            Event::new(
                "forest",
                rule("M61"),
                format!(
                    "{} tries to force its way into the forest at {}: needs {needed}+, rolled {d}: {}.",
                    s.item(i).id,
                    label(to),
                    if ok { "it breaks through" } else { "it cannot, and its move ends" }
                ),
            )
            .side(s.item(i).side)
            .units([s.item(i).id.clone()])
        });
        if !ok {
            return Stepped::Done;
        }
    }
    if vehicle && terrain::forest_off_road(map, from, to) {
        s.turn_state[i].forest = true;
    }
    effects::relocate(s, i, to);
    hidden::markers_next_to(s, i, log);
    effects::catch_commanders(s, i, log);
    // Steps ahead and oblique steps (C12) keep the facing; so does a reverse (M50).
    let zoc = acting::in_enemy_zoc(s, i, to);
    // M64: anything but infantry entering works stops there for the turn.
    let works = !matches!(s.item(i).kind, Kind::Squad(_))
        && s.works.at(to).is_some_and(|w| {
            w.standing() && w.kind != hex_command_family::ground::WorkKind::Pontoon
        });
    let t = &mut s.turn_state[i];
    t.mp += cost;
    if zoc || works {
        t.done = true;
    }
    t.zoc_stopped = zoc;
    log.add(|| {
        Event::new(
            "move",
            rule(if reverse { "M50" } else { "M48" }),
            format!(
                "{} {} {} to {}{}.",
                s.item(i).id,
                if reverse {
                    "reverses from"
                } else {
                    "moves from"
                },
                label(from),
                label(to),
                if zoc {
                    ", into an enemy's zone of control, and stops (M54)"
                } else if works {
                    ", into works, and stops for the turn (M64)"
                } else {
                    ""
                }
            ),
        )
        .side(s.item(i).side)
        .units([s.item(i).id.clone()])
    });
    mines(s, i, to, dice, log);
    Stepped::Done
}

/// M65: an item entering a minefield stops and, unless it can clear mines, takes a hit
/// marker (infantry) or a damage block (vehicles); the field is known to both from then on.
fn mines(s: &mut State, i: usize, to: Hex, dice: &mut dyn Dice, log: &mut Log) {
    let Some(k) = s.minefields.iter().position(|m| m.hex == to) else {
        return;
    };
    s.minefields[k].known = true;
    if crate::logistics::mine_capable(s.item(i)) {
        log.add(|| {
            Event::new(
                "mines",
                rule("M65"),
                format!(
                    "{} finds mines at {} and passes through them.",
                    s.item(i).id,
                    label(to)
                ),
            )
            .side(s.item(i).side)
            .units([s.item(i).id.clone()])
        });
        return;
    }
    s.turn_state[i].done = true;
    let (result, text) = crate::logistics::enter_minefield(&mut s.items[i], dice);
    log.add(|| {
        Event::new(
            "mines",
            rule("M65"),
            format!(
                "{} runs into a minefield at {} and stops: {text}.",
                s.item(i).id,
                label(to)
            ),
        )
        .side(s.item(i).side)
        .units([s.item(i).id.clone()])
    });
    effects::commander_risk(s, i, dice, log);
    effects::after_loss(s, i, result, log);
}

/// Option `rain` (3.5.1): a wheeled vehicle rolls a d6 as it starts to move; 3–6 and it
/// is stuck for the turn.
fn stuck_in_mud(s: &mut State, i: usize, dice: &mut dyn Dice, log: &mut Log) -> bool {
    let wheeled = matches!(&s.item(i).kind, Kind::Vehicle { spec, .. } if spec.drive == crate::charts::Drive::Wheeled);
    if !s.setup.settings.rain || !wheeled || s.turn_state[i].rain_checked {
        return false;
    }
    s.turn_state[i].rain_checked = true;
    let d = dice.roll(6);
    let stuck = d >= 3;
    if stuck {
        s.turn_state[i].done = true;
    }
    log.add(|| {
        Event::new(
            "rain",
            rule("M60"),
            format!(
                "{} rolls {d} in the mud: {}.",
                s.item(i).id,
                if stuck {
                    "stuck for the turn"
                } else {
                    "it gets going"
                }
            ),
        )
        .side(s.item(i).side)
        .units([s.item(i).id.clone()])
    });
    stuck
}

/// The item starts (or goes on with) its move; any other item's move is over.
fn begin_moving(s: &mut State, i: usize) {
    if let Some(m) = s.mover.filter(|&m| m != i) {
        s.turn_state[m].done = true;
    }
    s.mover = Some(i);
    s.turn_state[i].moving = true;
}

pub fn check_face<R: Refusal>(s: &State, i: usize, facing: Facing) -> Result<(), R> {
    s.own_item::<R>(i)?;
    let t = &s.turn_state[i];
    // M54 (3.5.5): a unit a zone of control has stopped may still turn, once, if it has
    // not turned this move — whatever points it has left — until another unit moves.
    let zoc_turn = s.step == Step::Movement
        && t.zoc_stopped
        && t.done
        && t.facing_changes == 0
        && s.mover == Some(i);
    if !zoc_turn {
        acting::check_may_move::<R>(s, i)?;
    }
    let it = s.item(i);
    if it.facing == facing {
        return Err(R::because(|| {
            format!("{} already faces {}", it.id, facing.name())
        }));
    }
    let limit = moves::facing_changes(it, &s.setup.charts);
    if t.facing_changes >= limit {
        return Err(R::because(|| {
            format!(
                "{} has made its {limit} facing change{} this turn (M51)",
                it.id,
                if limit == 1 { "" } else { "s" }
            )
        }));
    }
    let cost = moves::facing_cost(s.setup.map.has_road(it.hex));
    let have = points(s, i, false);
    if t.mp + cost > have && !zoc_turn {
        return Err(R::because(|| {
            format!("{} has no movement point left to turn (M51)", it.id)
        }));
    }
    Ok(())
}

pub fn do_face(s: &mut State, i: usize, facing: Facing, log: &mut Log) {
    if s.mover != Some(i) {
        begin_moving(s, i);
    }
    effects::reveal(s, i, "it moves", log);
    let cost = moves::facing_cost(s.setup.map.has_road(s.item(i).hex));
    let before = s.item(i).facing;
    s.items[i].facing = facing;
    let t = &mut s.turn_state[i];
    t.facing_changes += 1;
    t.mp += cost;
    log.add(|| {
        Event::new(
            "face",
            rule("M51"),
            format!(
                "{} turns from {} to {}{}.",
                s.item(i).id,
                before.name(),
                facing.name(),
                if cost == 0 {
                    " (free on the road, M52)"
                } else {
                    ""
                }
            ),
        )
        .side(s.item(i).side)
        .units([s.item(i).id.clone()])
    });
}

/// M25–M26: after movement the phasing side places each commander with its own items,
/// one commander a hex.
pub fn check_place<R: Refusal>(s: &State, c: usize, hex: Hex) -> Result<(), R> {
    if s.step != Step::Command {
        return Err(R::because(|| {
            format!(
                "commanders are placed after movement (M25); it is {}",
                s.step_name()
            )
        }));
    }
    let Some(cm) = s.commanders.get(c) else {
        return Err(R::because(|| "no such commander"));
    };
    if cm.side != s.phasing() {
        return Err(R::because(|| format!("{} is {}'s", cm.id, cm.side)));
    }
    if let Some(f) = s.posts.fallen[c] {
        return Err(R::because(|| format!("{} is {f:?}", cm.id).to_lowercase()));
    }
    if s.posts.at[c].is_some() {
        return Err(R::because(|| {
            format!("{} is placed for this turn (M25)", cm.id)
        }));
    }
    if !s.items_at(hex).any(|i| s.item(i).side == cm.side) {
        return Err(R::because(|| {
            format!("{} goes to a hex held by its own side", cm.id)
        }));
    }
    if s.posts.at.contains(&Some(hex)) {
        return Err(R::because(|| {
            format!("a commander is already at {} (M56)", label(hex))
        }));
    }
    Ok(())
}

pub fn do_place(s: &mut State, c: usize, hex: Hex, log: &mut Log) {
    s.posts.at[c] = Some(hex);
    let cm = &s.commanders[c];
    let with: Vec<String> = s.items_at(hex).map(|i| s.item(i).id.to_string()).collect();
    log.add(|| {
        Event::new(
            "commander",
            rule("M25"),
            format!(
                "{} is placed at {} with {}.",
                cm.id,
                label(hex),
                with.join(" and ")
            ),
        )
        .side(cm.side)
    });
}
