//! Hidden units, spotting and ambush (M76–M78, M117), minefields unknown to the enemy (M65)
//! and the secret AT capability (M4): what each side may know, and a world for a side's
//! search that holds only what it knows.
//!
//! A unit the scenario marks `hidden` is off the enemy's map until it moves, fires or starts a
//! melee, or is spotted: at the start and at the end of each player turn (steps 2 and 9) the
//! phasing side rolls a d6 for each hidden enemy within 15 hexes (20 from a hill) of one of its
//! units that sees it, 5–6 revealing it. An enemy that steps into a hidden unit's hex is
//! ambushed: the step is not made, the hidden unit shows itself and fires first (M117).

use crate::game::MechGame;
use crate::indirect;
use crate::items::Kind;
use crate::rule;
use hex_command_family::ground::Ground;
use hex_command_family::sight::{self, Sight};
use volley_core::geometry::label;
use volley_core::{Dice, Event, Hex, Log, Seen, Side};

fn only(side: Side) -> Seen {
    match side {
        Side::Red => Seen::Red,
        Side::Blue => Seen::Blue,
    }
}

impl MechGame {
    /// Whether `side` knows item `i` is there.
    pub fn visible_to(&self, i: usize, side: Side) -> bool {
        self.item(i).side == side || !self.s.turn_state[i].hidden
    }

    /// Enemies of `side` in a hex that `side` knows of.
    pub fn known_enemy_in(&self, hex: Hex, side: Side) -> bool {
        self.items_at(hex)
            .any(|e| self.item(e).side != side && self.visible_to(e, side))
    }

    /// Room in a hex as `side` knows it: two less its own items and the enemies it sees.
    pub fn known_room(&self, hex: Hex, side: Side) -> usize {
        let map = &self.s.setup.map;
        if !map.contains(hex) {
            return 0;
        }
        let known = self
            .items_at(hex)
            .filter(|&e| self.item(e).side == side || self.visible_to(e, side))
            .count();
        crate::board::STACK.saturating_sub(known)
    }

    pub fn reveal(&mut self, i: usize, why: &str, log: &mut Log) {
        if !self.s.turn_state[i].hidden {
            return;
        }
        self.s.turn_state[i].hidden = false;
        log.add(|| {
            let it = self.item(i);
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

    /// M76: the phasing side looks for hidden enemies (steps 2 and 9).
    pub fn spotting(&mut self, dice: &mut dyn Dice, log: &mut Log) {
        let side = self.phasing();
        let g = Ground::new(&self.s.setup.map, &self.s.works);
        let map = &self.s.setup.map;
        let spotters: Vec<Hex> = (0..self.s.items.len())
            .filter(|&i| self.in_play(i) && self.item(i).side == side && !self.routed(i))
            .map(|i| self.item(i).hex)
            .collect();
        let targets: Vec<usize> = (0..self.s.items.len())
            .filter(|&e| {
                self.in_play(e) && self.item(e).side != side && self.s.turn_state[e].hidden
            })
            .filter(|&e| {
                let t = self.item(e).hex;
                spotters.iter().any(|&h| {
                    let reach = indirect::spotting_range(map.elevation(h) > 0);
                    h.unsigned_distance_to(t) <= reach
                        && sight::line_of_sight(g, h, t, None, |_| None) != Sight::Blocked
                        && !self.smoked(h, t)
                })
            })
            .collect();
        for e in targets {
            let d = dice.roll(6);
            if indirect::spots(d) {
                self.reveal(e, &format!("{side} spots it (d6 {d}, M76)"), log);
            } else {
                let owner = self.item(e).side;
                log.add(|| {
                    Event::new(
                        "spotting",
                        rule("M76"),
                        format!("{side} does not spot {} (d6 {d}).", self.item(e).id),
                    )
                    .side(owner)
                    .seen(only(owner))
                });
            }
        }
    }

    /// M117: item `i` stepping into `to` finds hidden enemies there. The step is not made;
    /// they show themselves and each fires first at it. Returns whether it was ambushed.
    pub fn ambush(&mut self, i: usize, to: Hex, dice: &mut dyn Dice, log: &mut Log) -> bool {
        let side = self.item(i).side;
        let waiting: Vec<usize> = self
            .items_at(to)
            .filter(|&e| self.item(e).side != side)
            .collect();
        if waiting.is_empty() {
            return false;
        }
        self.s.turn_state[i].done = true;
        log.add(|| {
            Event::new(
                "ambush",
                rule("M117"),
                format!(
                    "{} tries to enter {} and runs into a waiting enemy: its move ends.",
                    self.item(i).id,
                    label(to)
                ),
            )
            .side(side)
            .units([self.item(i).id.clone()])
        });
        for e in waiting {
            self.reveal(e, "it springs an ambush", log);
            let bears = crate::fire_tables::bearing(self.item(e), self.item(i).hex, false)
                != crate::fire_tables::Bearing::No;
            let shot = self.shot(e, i).filter(|s| {
                !matches!(
                    s,
                    crate::fire::Shot::At {
                        roll: crate::fire_tables::AtRoll::Impossible,
                        ..
                    }
                )
            });
            if bears && shot.is_some() && self.in_play(i) && !self.routed(e) {
                self.do_fire(e, i, dice, log);
            }
        }
        true
    }

    /// A copy with what `side` does not know taken off the table: hidden enemies and every
    /// minefield (for walks over possible moves that must not roll or reveal anything).
    pub fn without_unknowns(&self, side: Side) -> MechGame {
        let mut g = self.clone();
        for i in 0..g.s.items.len() {
            if g.in_play(i) && !g.visible_to(i, side) {
                g.remove(i);
            }
        }
        g.s.minefields.clear();
        g
    }

    /// A copy of the game as `side` knows it, for a search that must not peek (the bots'
    /// determinization): hidden enemies stand in random empty hexes that no unit of `side`
    /// is next to, unrevealed enemy squads carry no AT weapons, and enemy minefields `side`
    /// has not found are gone.
    pub fn as_known_by(&self, side: Side, dice: &mut dyn Dice) -> MechGame {
        let mut g = self.clone();
        let map = &g.s.setup.map.clone();
        for i in 0..g.s.items.len() {
            if !g.in_play(i) || g.item(i).side == side {
                continue;
            }
            if let Kind::Squad(s) = &mut g.s.items[i].kind {
                if !g.revealed_at[i] {
                    s.at = false;
                }
            }
            if !g.s.turn_state[i].hidden {
                continue;
            }
            let free: Vec<Hex> = map
                .hexes()
                .filter(|&h| {
                    g.items_at(h).next().is_none()
                        && g.passable(g.item(i), h, h)
                        && !(0..g.s.items.len()).any(|f| {
                            g.in_play(f)
                                && g.item(f).side == side
                                && g.item(f).hex.unsigned_distance_to(h) <= 1
                        })
                })
                .collect();
            if !free.is_empty() {
                let k = (dice.roll(free.len() as u32) - 1) as usize;
                g.relocate(i, free[k]);
            }
        }
        g.s.minefields.retain(|m| m.side == side || m.known);
        g.refresh_legal();
        g
    }
}
