//! Reinforcements (M45–M47): groups that enter during play at the phasing side's step 3, on
//! their scenario turn, at their entry hexes (or at one of several locations a d6 picks), as
//! the Hex Command family reads them. With option `arrival_test` a group arrives only on a d10
//! above the Initiative of the commander with it, else of the overall commander, and tries
//! again the next turn. Enemies within two hexes of the entry hexes are told how many units
//! arrive; enemies on them are asked first whether they stand or fall back a full move
//! (M47, the decision put to the blocking side as Gunpowder's 4 b is). Blockers that stand
//! are never overlapped by a force no larger than their line: it comes in only next to them.
//! Full entry hexes are passed over; units with no room wait for the next turn.

use crate::effects;
use crate::hidden;
use crate::orders::Order;
use crate::rule;
use crate::state::Blocking;
use crate::state::State;
use hex_command_family::reinforcements::{self, falls_back, near_entry, Arrival, Arriving, Status};
use std::ops::ControlFlow;
use volley_core::game::Refusal;
use volley_core::geometry::{label, Facing};
use volley_core::{Dice, Event, Hex, Log, Side};

/// M47: enemies this close to an entry hex are told the arriving force's size.
pub const TOLD_WITHIN: u32 = 2;

/// M45–M47 and M70: the phasing side's reinforcements due arrive ([`reinforcements::arrive`]
/// with Mechanized's steps), then its paratroops due drop.
pub fn reinforcements(s: &mut State, dice: &mut dyn Dice, log: &mut Log) {
    let side = s.phasing();
    let turn = s.turn;
    if !reinforcements::arrive(s, side, turn, dice, log) {
        return;
    }
    for k in 0..s.drops.len() {
        let d = &s.drops[k];
        if d.side == side && !d.done && d.turn <= turn {
            drop(s, k, dice, log);
        }
    }
}

/// M70 (C16 reading A): the drop's centre lands on its target on a d6 of 5–6, else two
/// hexes off in the direction a second d6 gives; each stand then lands within two hexes of
/// the centre on a 5–6 (the owner's nearest free hex to the centre), else two hexes off the
/// centre as the centre scattered; a stand with nowhere to land, or off the map, is lost.
fn drop(s: &mut State, k: usize, dice: &mut dyn Dice, log: &mut Log) {
    s.drops[k].done = true;
    let (id, side, target) = (s.drops[k].id.clone(), s.drops[k].side, s.drops[k].target);
    let (centre, why) = crate::indirect::shot_fall(target, 2, false, dice);
    log.add(|| {
        Event::new(
            "drop",
            rule("M70"),
            format!(
                "{side}'s paratroops {id} jump over {}: {why}: the drop centres on {}.",
                label(target),
                label(centre)
            ),
        )
        .side(side)
    });
    let map = s.setup.map.clone();
    for i in 0..s.items.len() {
        if s.turn_state[i].dropping != Some(k) {
            continue;
        }
        s.turn_state[i].dropping = None;
        let on = dice.roll(6) >= 5;
        let free = |g: &State, h: volley_core::Hex| {
            map.contains(h)
                && g.board.room(&map, h) > 0
                && !g.enemy_in(h, side)
                && g.passable(g.item(i), h, h)
        };
        let spot = if on {
            let mut near: Vec<volley_core::Hex> = map
                .hexes()
                .filter(|h| h.unsigned_distance_to(centre) <= 2)
                .filter(|&h| free(s, h))
                .collect();
            near.sort_by_key(|h| (h.unsigned_distance_to(centre), label(*h)));
            near.first().copied()
        } else {
            let (h, _) = crate::indirect::shot_fall(centre, 2, true, dice);
            free(s, h).then_some(h)
        };
        match spot {
            Some(h) => {
                s.items[i].hex = h;
                s.board.place(&map, h, i);
                log.add(|| {
                    Event::new(
                        "drop",
                        rule("M70"),
                        format!(
                            "{} lands at {}{}.",
                            s.item(i).id,
                            label(h),
                            if on { "" } else { ", scattered" }
                        ),
                    )
                    .side(side)
                    .units([s.item(i).id.clone()])
                });
            }
            None => {
                s.turn_state[i].gone = true;
                s.counted[i] = true;
                log.add(|| {
                    Event::new(
                        "drop",
                        rule("M70"),
                        format!(
                            "{} is scattered with nowhere to land and is lost.",
                            s.item(i).id
                        ),
                    )
                    .side(side)
                });
            }
        }
    }
}

/// The commander whose Initiative an arrival test reads, and that Initiative.
fn arrival_commander(s: &State, g: usize) -> (String, u8) {
    let a = &s.arrivals[g];
    let named = a
        .commander
        .as_ref()
        .and_then(|id| s.commanders.iter().position(|c| &c.id == id));
    let overall = (0..s.commanders.len())
        .filter(|&c| s.commanders[c].side == a.side && s.posts.in_game(c))
        .max_by_key(|&c| s.commanders[c].supreme);
    match named.or(overall) {
        Some(c) => (s.commanders[c].id.to_string(), s.commanders[c].initiative),
        None => ("the default".into(), crate::state::DEFAULT_INITIATIVE),
    }
}

/// The group's waiting units step onto its entry hexes, two a hex, where there is room.
fn place_group(s: &mut State, g: usize, log: &mut Log) {
    let entry = s.arrivals[g].entry().to_vec();
    let facing = s.arrivals[g].facing;
    let side = s.arrivals[g].side;
    let map = s.setup.map.clone();
    let mut came = Vec::new();
    let mut left = 0;
    // M47: against blockers that stood, a force no larger than their line (the entry
    // hexes they hold) cannot overlap it and comes in only next to them.
    let held: Vec<Hex> = entry
        .iter()
        .copied()
        .filter(|&h| s.enemy_in(h, side))
        .collect();
    let force = waiting_in(s, g).len();
    let hemmed = s.stood.contains(&g) && !held.is_empty() && force <= held.len();
    for i in 0..s.items.len() {
        if s.turn_state[i].waiting != Some(g) || s.turn_state[i].gone {
            continue;
        }
        let spot = entry.iter().copied().find(|&h| {
            (!hemmed || held.iter().any(|&b| b.unsigned_distance_to(h) == 1))
                && !s.enemy_in(h, side)
                && s.board.room(&map, h) > 0
                && s.passable(s.item(i), h, h)
        });
        match spot {
            Some(h) => {
                s.items[i].hex = h;
                s.items[i].facing = facing;
                s.turn_state[i].waiting = None;
                s.board.place(&map, h, i);
                came.push(format!("{} at {}", s.item(i).id, label(h)));
            }
            None => left += 1,
        }
    }
    s.arrivals[g].status = if left == 0 {
        Status::Arrived
    } else {
        Status::Arriving
    };
    let id = s.arrivals[g].id.clone();
    log.add(|| {
        Event::new(
            "reinforcements",
            rule("M45"),
            format!(
                "{side}'s reinforcements {id} arrive: {}{}.",
                if came.is_empty() {
                    "none has room".into()
                } else {
                    came.join(", ")
                },
                if left > 0 {
                    format!("; {left} wait for room")
                } else {
                    String::new()
                }
            ),
        )
        .side(side)
    });
}

/// A group's units still off the map.
fn waiting_in(s: &State, g: usize) -> Vec<usize> {
    (0..s.items.len())
        .filter(|&i| s.turn_state[i].waiting == Some(g) && !s.turn_state[i].gone)
        .collect()
}

/// The enemy items standing on a group's entry hexes (M47's blockers).
fn blockers(s: &State, g: usize) -> Vec<usize> {
    let a = &s.arrivals[g];
    (0..s.items.len())
        .filter(|&i| {
            s.in_play(i) && s.item(i).side != a.side && near_entry(a.entry(), s.item(i).hex, 0)
        })
        .collect()
}

/// M47: enemies within two hexes of the entry hexes are told how many units arrive.
/// Returns whether some stand on them and must answer.
fn tell_blockers(s: &mut State, g: usize, log: &mut Log) -> bool {
    let a = &s.arrivals[g];
    let (side, id, at) = (a.side, a.id.clone(), a.entry_text());
    let told = (0..s.items.len()).any(|i| {
        s.in_play(i) && s.item(i).side != side && near_entry(a.entry(), s.item(i).hex, TOLD_WITHIN)
    });
    if !told {
        return false;
    }
    let force = waiting_in(s, g).len();
    let blocked = !blockers(s, g).is_empty();
    log.add(|| {
        Event::new(
            "reinforcements",
            rule("M47"),
            format!(
                "{} is told that {side}'s reinforcements {id}, {force} unit{}, arrive at {at}{}.",
                side.other(),
                if force == 1 { "" } else { "s" },
                if blocked {
                    "; it holds the entry and chooses to stand or fall back"
                } else {
                    ""
                }
            ),
        )
        .side(side.other())
    });
    blocked
}

pub fn check_blocking<R: Refusal>(s: &State, b: &Blocking, order: Order) -> Result<(), R> {
    let a = &s.arrivals[b.arrival];
    match order {
        Order::Block { arrival, .. } if !b.answered && arrival == b.arrival => Ok(()),
        Order::Move { item, to } if b.answered => check_fall_back(s, b, item, to),
        Order::End if b.answered => Ok(()),
        _ => Err(R::because(|| {
            if b.answered {
                format!(
                    "{} first falls back before {} (move its blockers away, then end; M47)",
                    a.side.other(),
                    a.id
                )
            } else {
                format!(
                    "{} first answers {}'s arrival at {}: block {} stand, or block {} withdraw (M47)",
                    a.side.other(),
                    a.id,
                    a.entry_text(),
                    a.id,
                    a.id
                )
            }
        })),
    }
}

/// M47: a blocker falling back steps, a hex at a time within its full allowance, to a
/// neighbouring hex farther from every entry hex that its side knows to have room; it
/// turns to face the way it goes without paying for it.
fn check_fall_back<R: Refusal>(s: &State, b: &Blocking, i: usize, to: Hex) -> Result<(), R> {
    if !b.withdrawing.contains(&i) || !s.in_play(i) {
        return Err(R::because(|| "only the blockers fall back (M47)"));
    }
    let (it, t) = (s.item(i), &s.turn_state[i]);
    let entry = s.arrivals[b.arrival].entry();
    if it.hex.unsigned_distance_to(to) != 1 || !falls_back(entry, it.hex, to) {
        return Err(R::because(|| {
            format!(
                "{} falls back only to a neighbouring hex farther from the entry (M47)",
                it.id
            )
        }));
    }
    if t.done {
        return Err(R::because(|| format!("{}'s move is over", it.id)));
    }
    let map = &s.setup.map;
    if !map.contains(to)
        || !s.passable(it, it.hex, to)
        || hidden::known_room(s, to, it.side) == 0
        || hidden::known_enemy_in(s, to, it.side)
    {
        return Err(R::because(|| {
            format!("{} cannot go into {}", it.id, label(to))
        }));
    }
    let cost = crate::moves::step_cost(it, map.road_between(it.hex, to));
    let have = crate::moves::allowance(it, &s.setup.charts).saturating_sub(t.mp);
    if cost > have {
        return Err(R::because(|| {
            format!("{} has {have} of its movement points left", it.id)
        }));
    }
    Ok(())
}

pub(crate) fn fall_back_orders(
    s: &State,
    i: usize,
    take: &mut impl FnMut(Order) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let Some(b) = &s.blocking else {
        return ControlFlow::Continue(());
    };
    for f in Facing::ALL {
        let to = volley_core::geometry::step(s.item(i).hex, f);
        if check_fall_back::<()>(s, b, i, to).is_ok() {
            take(Order::Move { item: i, to })?;
        }
    }
    ControlFlow::Continue(())
}

/// M47: the blocker's answer.
pub fn do_block(s: &mut State, withdraw: bool, log: &mut Log) {
    let Some(b) = &mut s.blocking else { return };
    b.answered = true;
    let g = b.arrival;
    let a = &s.arrivals[g];
    let (who, id) = (a.side.other(), a.id.clone());
    log.add(|| {
        Event::new(
            "reinforcements",
            rule("M47"),
            format!(
                "{who} {} before {id}.",
                if withdraw {
                    "falls back"
                } else {
                    "stands and fights"
                }
            ),
        )
        .side(who)
    });
    if withdraw {
        let blockers = blockers(s, g);
        for &i in &blockers {
            s.turn_state[i].new_move();
        }
        s.mover = None;
        if let Some(b) = &mut s.blocking {
            b.withdrawing = blockers;
        }
    } else {
        s.stood.push(g);
        // Nothing to move: play goes on at once.
        if let Some(b) = &mut s.blocking {
            b.withdrawing.clear();
        }
    }
}

/// A blocker's step back: it turns to face the hex, then steps as in movement (zones of
/// control, works, mines and hidden enemies stop it as they would any move; the sequence of
/// play makes the step).
pub fn face_to_fall_back(s: &mut State, i: usize, to: Hex) {
    let from = s.item(i).hex;
    if let Some(f) = Facing::towards(from, to) {
        s.items[i].facing = f;
    }
}

/// The blocker has answered and moved: the reinforcements come on, and the phasing
/// side's turn goes on.
pub fn end_withdrawal(s: &mut State, dice: &mut dyn Dice, log: &mut Log) {
    let Some(b) = s.blocking.take() else {
        return;
    };
    for &i in &b.withdrawing {
        s.turn_state[i].moving = false;
    }
    s.mover = None;
    reinforcements(s, dice, log);
    if s.blocking.is_none() {
        effects::routed_run(s, log);
    }
}

/// What the blocking side is asked, or must do.
pub fn blocking_prompt(s: &State, b: &Blocking) -> String {
    let a = &s.arrivals[b.arrival];
    let side: Side = a.side.other();
    if b.answered {
        format!(
            "{}: move the units falling back from {} away from it, a full move each, then end (M47)",
            side.title(),
            a.entry_text()
        )
    } else {
        format!(
            "{}: {} enemy units arrive at {} where you stand: stand and fight, or fall back a full move (M47)",
            side.title(),
            waiting_in(s, b.arrival).len(),
            a.entry_text()
        )
    }
}

/// Mechanized's steps of a group's arrival (3.4, M45–M47): the arrival test with the option,
/// the d6 for the entry told, the enemies near the entry told (and those on it asked) once,
/// the units on entry hexes with room.
impl Arriving for State {
    fn arrival(&self, g: usize) -> &Arrival {
        &self.arrivals[g]
    }

    fn arrival_mut(&mut self, g: usize) -> &mut Arrival {
        &mut self.arrivals[g]
    }

    fn arrival_count(&self) -> usize {
        self.arrivals.len()
    }

    fn comes_on(&mut self, g: usize, dice: &mut dyn Dice, log: &mut Log) -> bool {
        let side = self.phasing();
        let turn = self.turn;
        let a = &self.arrivals[g];
        if a.status == Status::Due && !a.asked && self.setup.settings.arrival_test {
            let (who, init) = arrival_commander(self, g);
            let d = dice.roll(10);
            let ok = d > init as u32;
            let id = self.arrivals[g].id.clone();
            log.add(|| {
                Event::new(
                    "reinforcements",
                    rule("M46"),
                    format!(
                        "{side}'s reinforcements {id} test to arrive: d10 {d} against {who}'s Initiative {init}: {}.",
                        if ok { "they arrive" } else { "delayed a turn" }
                    ),
                )
                .side(side)
            });
            if !ok {
                self.arrivals[g].turn = turn + 1;
                return false;
            }
        }
        true
    }

    fn location_picked(&mut self, g: usize, d: u32, log: &mut Log) {
        let side = self.phasing();
        let (id, at) = (self.arrivals[g].id.clone(), self.arrivals[g].entry_text());
        log.add(|| {
            Event::new(
                "reinforcements",
                rule("M45"),
                format!("{side}'s reinforcements {id}: d6 {d} picks the entry at {at}."),
            )
            .side(side)
        });
    }

    fn ask_blockers(&mut self, g: usize, log: &mut Log) -> bool {
        if !self.arrivals[g].asked {
            self.arrivals[g].asked = true;
            if tell_blockers(self, g, log) {
                self.blocking = Some(Blocking {
                    arrival: g,
                    answered: false,
                    withdrawing: Vec::new(),
                });
                return true;
            }
        }
        false
    }

    fn enter(&mut self, g: usize, log: &mut Log) {
        place_group(self, g, log);
    }
}
