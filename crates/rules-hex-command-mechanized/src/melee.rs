//! Melee (M109–M119), fought from the neighbouring hex (C2): each item starts at most one
//! melee a turn, against an enemy item in its front hexes. Squads (and gun crews) roll a d6
//! plus their melee value each; the higher total captures the other, a tie costs both a
//! figure and pushes both back a hex (M110–M112). A vehicle rams a vehicle (M116), a squad
//! swarms a vehicle (M107), and a vehicle against infantry kills a figure (M114).

use crate::acting;
use crate::effects;
use crate::hidden;
use crate::items::Kind;
use crate::losses;
use crate::melee_tables::{self, MeleeModifiers, MeleeResult};
use crate::rule;
use crate::state::{State, Step};
use hex_command_family::sight;
use volley_core::game::Refusal;
use volley_core::geometry::{aspect, front_hexes, label, step, Aspect};
use volley_core::{Dice, Event, Log};

pub fn check_melee<R: Refusal>(s: &State, i: usize, t: usize) -> Result<(), R> {
    if s.step != Step::Melee {
        return Err(R::because(|| {
            format!(
                "melees are started after fire (M20); it is {}",
                s.step_name()
            )
        }));
    }
    let it = s.own_item::<R>(i)?;
    if !s.active(i) {
        return Err(R::because(|| {
            format!("{} is not in the group that fights now (M18)", it.id)
        }));
    }
    if s.routed(i) {
        return Err(R::because(|| {
            format!("{} is routed and cannot melee (M123)", it.id)
        }));
    }
    if s.turn_state[i].worked {
        return Err(R::because(|| {
            format!("{} worked this turn and does not fight (M66–M67)", it.id)
        }));
    }
    if s.turn_state[i].meleed {
        return Err(R::because(|| {
            format!("{} has started a melee this turn (M109)", it.id)
        }));
    }
    if let Some(why) = acting::order_refuses_melee(s, i) {
        return Err(R::because(|| format!("{}: {why}", it.id)));
    }
    if acting::holds(s, i) {
        return Err(R::because(|| {
            format!("{} has rallied and only holds unless a commander is with it (option rallied = hold)", it.id)
        }));
    }
    if matches!(it.kind, Kind::Gun { .. }) {
        return Err(R::because(|| {
            format!("{} is a gun and does not start melees", it.id)
        }));
    }
    if !s.in_play(t) || s.item(t).side == it.side || !hidden::visible_to(s, t, it.side) {
        return Err(R::because(|| {
            "the target must be an enemy item in play that its side can see"
        }));
    }
    let tg = s.item(t);
    if !front_hexes(it.hex, it.facing).contains(&tg.hex) {
        return Err(R::because(|| {
            format!("{} is not in a front hex of {} (M109)", tg.id, it.id)
        }));
    }
    Ok(())
}

/// Melee modifiers of one side against the other (D8).
fn melee_mods(s: &State, i: usize, against: usize, defending: bool) -> MeleeModifiers {
    let g = s.ground();
    let (h, o) = (s.item(i).hex, s.item(against).hex);
    let map = &s.setup.map;
    MeleeModifiers {
        commander: s.commander_with(i).is_some(),
        cover: defending && sight::terrain_cover(g, h) > 0,
        flank: !defending && aspect(o, s.item(against).facing, h) != Aspect::Front,
        over_wall: !defending && sight::sheltering(map.hexside(h, o)),
        higher: map.elevation(h) > map.elevation(o),
    }
}

pub fn do_melee(s: &mut State, i: usize, t: usize, dice: &mut dyn Dice, log: &mut Log) {
    s.turn_state[i].meleed = true;
    effects::reveal(s, i, "it starts a melee", log);
    let charts = s.setup.charts.clone();
    let (attacker_vehicle, target_vehicle) = (
        matches!(s.item(i).kind, Kind::Vehicle { .. }),
        matches!(s.item(t).kind, Kind::Vehicle { .. }),
    );
    let (side, ids) = (s.item(i).side, [s.item(i).id.clone(), s.item(t).id.clone()]);
    match (attacker_vehicle, target_vehicle) {
        (true, true) => {
            let (mut a, mut b) = (s.items[i].clone(), s.items[t].clone());
            let ((ra, ta), (rb, tb)) = losses::ram(&mut a, &mut b, &charts, dice);
            s.items[i] = a;
            s.items[t] = b;
            log.add(|| {
                Event::new(
                    "ram",
                    rule("M116"),
                    format!("{} rams {}: {ta}; {tb}.", ids[0], ids[1]),
                )
                .side(side)
                .units(ids.clone())
            });
            effects::after_loss(s, i, ra, log);
            effects::after_loss(s, t, rb, log);
        }
        (false, true) => match losses::swarm(&mut s.items[t], dice) {
            Some((r, text)) => {
                log.add(|| {
                    Event::new(
                        "swarm",
                        rule("M107"),
                        format!("{} swarms {}: {text}.", ids[0], ids[1]),
                    )
                    .side(side)
                    .units(ids.clone())
                });
                effects::after_loss(s, t, r, log);
            }
            None => {
                // M107: an open-topped vehicle swarmed is taken; Volley destroys it (C20).
                log.add(|| {
                    Event::new(
                        "swarm",
                        rule("M107"),
                        format!(
                            "{} swarms the open-topped {} and takes it out of the fight.",
                            ids[0], ids[1]
                        ),
                    )
                    .side(side)
                    .units(ids.clone())
                });
                effects::after_loss(s, t, losses::Result::Destroyed, log);
            }
        },
        (true, false) => {
            // M114: each attacking vehicle kills one figure of the defending stand (a gun
            // is overrun).
            let target = &mut s.items[t];
            let (r, text) = match &mut target.kind {
                Kind::Squad(sq) => {
                    sq.figures = sq.figures.saturating_sub(1);
                    let r = match sq.figures {
                        0 => losses::Result::Destroyed,
                        1 | 2 => losses::Result::Routs,
                        _ => losses::Result::Holds,
                    };
                    (
                        r,
                        format!("{} loses a figure, {} left", target.id, sq.figures),
                    )
                }
                _ => (
                    losses::Result::Destroyed,
                    format!("{} is overrun", target.id),
                ),
            };
            log.add(|| {
                Event::new(
                    "melee",
                    rule("M114"),
                    format!("{} attacks {}: {text}.", ids[0], ids[1]),
                )
                .side(side)
                .units(ids.clone())
            });
            effects::after_loss(s, t, r, log);
        }
        (false, false) => {
            if may_step_back(s, i, t) {
                s.answer = Some((i, t));
                log.add(|| {
                    Event::new(
                        "melee",
                        rule("M115"),
                        format!(
                            "{} attacks {}, which is faster and may step back before the melee.",
                            ids[0], ids[1]
                        ),
                    )
                    .side(side)
                    .units(ids.clone())
                });
            } else {
                infantry_melee(s, i, t, dice, log)
            }
        }
    }
}

/// M115: the defender may step back if it is faster by a point, unmarked, and the hex
/// straight behind it is open.
fn may_step_back(s: &State, a: usize, d: usize) -> bool {
    let charts = &s.setup.charts;
    let Kind::Squad(sq) = &s.item(d).kind else {
        return false;
    };
    let (dmp, amp) = (
        crate::moves::allowance(s.item(d), charts),
        crate::moves::allowance(s.item(a), charts),
    );
    melee_tables::may_retreat_before_melee(dmp, amp, sq.markers) && back_open(s, d).is_some()
}

/// The hex straight behind an item, if it may enter it now.
fn back_open(s: &State, x: usize) -> Option<volley_core::Hex> {
    let it = s.item(x);
    let to = step(it.hex, it.facing.opposite());
    let map = &s.setup.map;
    (map.contains(to)
        && s.passable(it, it.hex, to)
        && !s.enemy_in(to, it.side)
        && s.board.room(map, to) > 0
        && !acting::in_enemy_zoc(s, x, to))
    .then_some(to)
}

pub fn check_answer<R: Refusal>(s: &State, item: usize) -> Result<(), R> {
    match s.answer {
        Some((_, d)) if d == item => Ok(()),
        _ => Err(R::because(|| {
            "only a defender that may step back before a melee answers it (M115)"
        })),
    }
}

/// M115, M118: the defender steps back a hex, takes a marker and faces the hex it left;
/// the attacker takes the vacated hex on a d6 of 4–6 (+1 with a commander).
pub fn do_retreat(s: &mut State, dice: &mut dyn Dice, log: &mut Log) {
    let (a, d) = s.answer.take().expect("checked: a melee waiting");
    let from = s.item(d).hex;
    let to = back_open(s, d).expect("checked when the melee was declared");
    effects::relocate(s, d, to);
    if let Some(f) = volley_core::geometry::Facing::towards(to, from) {
        s.items[d].facing = f;
    }
    let (r, text) = losses::hit_squad(&mut s.items[d], 1);
    log.add(|| {
        Event::new(
            "melee",
            rule("M115"),
            format!(
                "{} steps back from {} to {} and takes a marker: {text}.",
                s.item(d).id,
                label(from),
                label(to)
            ),
        )
        .side(s.item(d).side)
        .units([s.item(d).id.clone()])
    });
    effects::after_loss(s, d, r, log);
    if acting::panic_holds(s, a) {
        log.add(|| {
            Event::new(
                "advance",
                rule("M43"),
                format!(
                    "{} may not advance into {}: {} has panicked and no commander is with it.",
                    s.item(a).id,
                    label(from),
                    s.setup.side_names[s.item(a).side.index()]
                ),
            )
            .side(s.item(a).side)
            .units([s.item(a).id.clone()])
        });
        return;
    }
    let commander = s.influenced_by(a);
    let (roll, why, won) = if s.setup.settings.cvs_advance {
        // Option cvs_advance (3.8.5): a d10 above the Aggressiveness of the commander with
        // the attacker, else of the overall commander.
        let side = s.item(a).side;
        let c = commander.or_else(|| {
            (0..s.commanders.len())
                .filter(|&c| s.commanders[c].side == side && s.posts.in_game(c))
                .max_by_key(|&c| s.commanders[c].supreme)
        });
        let agg = c.map_or(6, |c| s.commanders[c].aggressiveness);
        let d = dice.roll(10);
        (
            d,
            format!(" on a d10 against Aggressiveness {agg}"),
            d > agg as u32,
        )
    } else {
        let d = dice.roll(6);
        (
            d,
            if commander.is_some() {
                " +1 (commander)".to_string()
            } else {
                String::new()
            },
            melee_tables::advances(d, commander.is_some()),
        )
    };
    let goes = won && s.items_at(from).next().is_none();
    if goes {
        effects::relocate(s, a, from);
        effects::catch_commanders(s, a, log);
    }
    log.add(|| {
        Event::new(
            "advance",
            rule("M118"),
            format!(
                "{} rolls {roll}{why} to advance: {}.",
                s.item(a).id,
                if goes {
                    format!("it takes {}", label(from))
                } else {
                    "it stays".into()
                }
            ),
        )
        .side(s.item(a).side)
        .units([s.item(a).id.clone()])
    });
}

/// The defender stands: the melee is fought.
pub fn do_stand(s: &mut State, dice: &mut dyn Dice, log: &mut Log) {
    let (a, d) = s.answer.take().expect("checked: a melee waiting");
    infantry_melee(s, a, d, dice, log);
}

/// M110–M112: d6 + melee value each; the loser is captured, a tie costs both a figure
/// and pushes both back.
fn infantry_melee(s: &mut State, i: usize, t: usize, dice: &mut dyn Dice, log: &mut Log) {
    let charts = &s.setup.charts;
    let av = melee_tables::melee_value(s.item(i), charts, melee_mods(s, i, t, false));
    let dv = melee_tables::melee_value(s.item(t), charts, melee_mods(s, t, i, true));
    let (ad, dd) = (dice.roll(6), dice.roll(6));
    let result = melee_tables::resolve(av, ad, dv, dd);
    let (side, ids) = (s.item(i).side, [s.item(i).id.clone(), s.item(t).id.clone()]);
    log.add(|| {
        Event::new(
            "melee",
            rule("M110"),
            format!(
                "{} melees {}: {ad}+{av} = {} against {dd}+{dv} = {}: {}.",
                ids[0],
                ids[1],
                ad as i32 + av,
                dd as i32 + dv,
                match result {
                    MeleeResult::AttackerWins => format!("{} wins and captures {}", ids[0], ids[1]),
                    MeleeResult::DefenderWins => format!("{} wins and captures {}", ids[1], ids[0]),
                    MeleeResult::Tie => "a tie: both lose a figure and fall back (M111)".into(),
                }
            ),
        )
        .side(side)
        .units(ids.clone())
    });
    match result {
        MeleeResult::AttackerWins => captured(s, t, log),
        MeleeResult::DefenderWins => captured(s, i, log),
        MeleeResult::Tie => {
            for x in [i, t] {
                let r = match &mut s.items[x].kind {
                    Kind::Squad(sq) => {
                        sq.figures = sq.figures.saturating_sub(1);
                        match sq.figures {
                            0 => losses::Result::Destroyed,
                            1 | 2 => losses::Result::Routs,
                            _ => losses::Result::Holds,
                        }
                    }
                    _ => losses::Result::Holds,
                };
                effects::after_loss(s, x, r, log);
                if s.in_play(x) && !s.routed(x) {
                    push_back(s, x, log);
                }
            }
        }
    }
}

/// The loser of a melee is captured, and so is a commander with it (M119).
fn captured(s: &mut State, x: usize, log: &mut Log) {
    if let Some(c) = s.commander_with(x) {
        if s.items_at(s.item(x).hex).count() == 1 {
            let text = format!("{} is captured with {}.", s.commanders[c].id, s.item(x).id);
            effects::capture(s, c, "M119", text, log);
        }
    }
    effects::after_loss(s, x, losses::Result::Destroyed, log);
}

/// M111–M112: pushed back one hex straight behind; with no way back the item routs.
fn push_back(s: &mut State, x: usize, log: &mut Log) {
    if let Some(to) = back_open(s, x) {
        let from = s.item(x).hex;
        effects::relocate(s, x, to);
        log.add(|| {
            Event::new(
                "push",
                rule("M111"),
                format!(
                    "{} is pushed back from {} to {}.",
                    s.item(x).id,
                    label(from),
                    label(to)
                ),
            )
            .side(s.item(x).side)
            .units([s.item(x).id.clone()])
        });
    } else {
        log.add(|| {
            Event::new(
                "push",
                rule("M112"),
                format!("{} has no way back and routs.", s.item(x).id),
            )
            .side(s.item(x).side)
            .units([s.item(x).id.clone()])
        });
        effects::after_loss(s, x, losses::Result::Routs, log);
    }
}
