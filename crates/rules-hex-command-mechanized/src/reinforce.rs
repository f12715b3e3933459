//! Reinforcements (M45–M47): groups that enter during play at the phasing side's step 3, on
//! their scenario turn, at their entry hexes (or at one of several locations a d6 picks), as
//! the Hex Command family reads them. With option `arrival_test` a group arrives only on a d10
//! above the Initiative of the commander with it, else of the overall commander, and tries
//! again the next turn. Entry hexes the enemy holds or that are full are passed over; units
//! with no room wait for the next turn.

use crate::game::MechGame;
use crate::rule;
use hex_command_family::reinforcements::Status;
use volley_core::geometry::label;
use volley_core::{Dice, Event, Log};

impl MechGame {
    pub fn reinforcements(&mut self, dice: &mut dyn Dice, log: &mut Log) {
        let side = self.phasing();
        let turn = self.s.turn;
        for g in 0..self.s.arrivals.len() {
            let a = &self.s.arrivals[g];
            if a.side != side || !a.due(turn) {
                continue;
            }
            if a.status == Status::Due && self.s.setup.settings.arrival_test {
                let (who, init) = self.arrival_commander(g);
                let d = dice.roll(10);
                let ok = d > init as u32;
                let id = self.s.arrivals[g].id.clone();
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
                    self.s.arrivals[g].turn = turn + 1;
                    continue;
                }
            }
            if let Some(d) = self.s.arrivals[g].pick_location(dice) {
                let (id, at) = (
                    self.s.arrivals[g].id.clone(),
                    self.s.arrivals[g].entry_text(),
                );
                log.add(|| {
                    Event::new(
                        "reinforcements",
                        rule("M45"),
                        format!("{side}'s reinforcements {id}: d6 {d} picks the entry at {at}."),
                    )
                    .side(side)
                });
            }
            self.enter(g, log);
        }
        for k in 0..self.s.drops.len() {
            let d = &self.s.drops[k];
            if d.side == side && !d.done && d.turn <= turn {
                self.drop(k, dice, log);
            }
        }
    }

    /// M70 (C16 reading A): the drop's centre lands on its target on a d6 of 5–6, else two
    /// hexes off in the direction a second d6 gives; each stand then lands within two hexes of
    /// the centre on a 5–6 (the owner's nearest free hex to the centre), else two hexes off the
    /// centre as the centre scattered; a stand with nowhere to land, or off the map, is lost.
    fn drop(&mut self, k: usize, dice: &mut dyn Dice, log: &mut Log) {
        self.s.drops[k].done = true;
        let (id, side, target) = (
            self.s.drops[k].id.clone(),
            self.s.drops[k].side,
            self.s.drops[k].target,
        );
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
        let map = self.s.setup.map.clone();
        for i in 0..self.s.items.len() {
            if self.s.turn_state[i].dropping != Some(k) {
                continue;
            }
            self.s.turn_state[i].dropping = None;
            let on = dice.roll(6) >= 5;
            let free = |g: &Self, h: volley_core::Hex| {
                map.contains(h)
                    && g.s.board.room(&map, h) > 0
                    && !g.enemy_in(h, side)
                    && g.passable(g.item(i), h, h)
            };
            let spot = if on {
                let mut near: Vec<volley_core::Hex> = map
                    .hexes()
                    .filter(|h| h.unsigned_distance_to(centre) <= 2)
                    .filter(|&h| free(self, h))
                    .collect();
                near.sort_by_key(|h| (h.unsigned_distance_to(centre), label(*h)));
                near.first().copied()
            } else {
                let (h, _) = crate::indirect::shot_fall(centre, 2, true, dice);
                free(self, h).then_some(h)
            };
            match spot {
                Some(h) => {
                    self.s.items[i].hex = h;
                    self.s.board.place(&map, h, i);
                    log.add(|| {
                        Event::new(
                            "drop",
                            rule("M70"),
                            format!(
                                "{} lands at {}{}.",
                                self.item(i).id,
                                label(h),
                                if on { "" } else { ", scattered" }
                            ),
                        )
                        .side(side)
                        .units([self.item(i).id.clone()])
                    });
                }
                None => {
                    self.s.turn_state[i].gone = true;
                    self.counted[i] = true;
                    log.add(|| {
                        Event::new(
                            "drop",
                            rule("M70"),
                            format!(
                                "{} is scattered with nowhere to land and is lost.",
                                self.item(i).id
                            ),
                        )
                        .side(side)
                    });
                }
            }
        }
    }

    /// The commander whose Initiative an arrival test reads, and that Initiative.
    fn arrival_commander(&self, g: usize) -> (String, u8) {
        let a = &self.s.arrivals[g];
        let named = a
            .commander
            .as_ref()
            .and_then(|id| self.s.commanders.iter().position(|c| &c.id == id));
        let overall = (0..self.s.commanders.len())
            .filter(|&c| self.s.commanders[c].side == a.side && self.fallen[c].is_none())
            .max_by_key(|&c| self.s.commanders[c].supreme);
        match named.or(overall) {
            Some(c) => (
                self.s.commanders[c].id.to_string(),
                self.s.commanders[c].initiative,
            ),
            None => ("the default".into(), crate::state::DEFAULT_INITIATIVE),
        }
    }

    /// The group's waiting units step onto its entry hexes, two a hex, where there is room.
    fn enter(&mut self, g: usize, log: &mut Log) {
        let entry = self.s.arrivals[g].entry().to_vec();
        let facing = self.s.arrivals[g].facing;
        let side = self.s.arrivals[g].side;
        let map = self.s.setup.map.clone();
        let mut came = Vec::new();
        let mut left = 0;
        for i in 0..self.s.items.len() {
            if self.s.turn_state[i].waiting != Some(g) || self.s.turn_state[i].gone {
                continue;
            }
            let spot = entry.iter().copied().find(|&h| {
                !self.enemy_in(h, side)
                    && self.s.board.room(&map, h) > 0
                    && self.passable(self.item(i), h, h)
            });
            match spot {
                Some(h) => {
                    self.s.items[i].hex = h;
                    self.s.items[i].facing = facing;
                    self.s.turn_state[i].waiting = None;
                    self.s.board.place(&map, h, i);
                    came.push(format!("{} at {}", self.item(i).id, label(h)));
                }
                None => left += 1,
            }
        }
        self.s.arrivals[g].status = if left == 0 {
            Status::Arrived
        } else {
            Status::Arriving
        };
        let id = self.s.arrivals[g].id.clone();
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
}
