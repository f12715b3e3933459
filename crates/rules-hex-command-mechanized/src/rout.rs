//! Rout and rally (M120–M124): a routed item runs its full allowance from the nearest enemy,
//! the phasing side's routed units run at the start of its turn, and squads with a commander
//! rally up at the end of it.

use crate::rule;
use crate::state::MechGame;
use volley_core::geometry::{label, Facing};
use volley_core::{Event, Hex, Log};

impl MechGame {
    /// M120–M121: a routed item runs its full allowance away from the nearest enemy, a hex at
    /// a time, while a hex farther away has room; leaving the map removes it.
    pub fn run(&mut self, i: usize, log: &mut Log) {
        let allowance = crate::moves::allowance(self.item(i), &self.s.setup.charts);
        let from = self.item(i).hex;
        for _ in 0..allowance {
            let here = self.item(i).hex;
            let side = self.item(i).side;
            let nearest = |h: Hex| {
                (0..self.s.items.len())
                    .filter(|&e| self.in_play(e) && self.item(e).side != side)
                    .map(|e| h.unsigned_distance_to(self.item(e).hex))
                    .min()
                    .unwrap_or(u32::MAX)
            };
            let now = nearest(here);
            let best = Facing::ALL
                .iter()
                .map(|f| volley_core::geometry::step(here, *f))
                .filter(|&h| {
                    self.s.setup.map.contains(h)
                        && self.passable(self.item(i), here, h)
                        && !self.enemy_in(h, side)
                        && self.s.board.room(&self.s.setup.map, h) > 0
                        && nearest(h) > now
                })
                .max_by_key(|&h| (nearest(h), std::cmp::Reverse(label(h))));
            match best {
                Some(h) => {
                    self.relocate(i, h);
                    if let Some(f) = Facing::towards(here, h) {
                        self.s.items[i].facing = f;
                    }
                }
                None => break,
            }
        }
        let to = self.item(i).hex;
        if to != from {
            log.add(|| {
                Event::new(
                    "rout",
                    rule("M121"),
                    format!(
                        "{} runs from {} to {}.",
                        self.item(i).id,
                        label(from),
                        label(to)
                    ),
                )
                .side(self.item(i).side)
                .units([self.item(i).id.clone()])
            });
        }
    }

    /// M121: at the start of its turn (after its reinforcements), the phasing side's routed
    /// units run.
    pub(crate) fn routed_run(&mut self, log: &mut Log) {
        let side = self.phasing();
        for i in 0..self.s.items.len() {
            if self.in_play(i) && self.item(i).side == side && self.routed(i) {
                self.run(i, log);
                self.s.turn_state[i].done = true;
            }
        }
    }

    /// M124: every squad of the phasing side with a commander regains a figure and loses a
    /// marker; a routed one rallies.
    pub fn rally_up(&mut self, log: &mut Log) {
        let side = self.phasing();
        for i in 0..self.s.items.len() {
            if !self.in_play(i)
                || self.item(i).side != side
                || !self.active(i)
                || self.influenced_by(i).is_none()
            {
                continue;
            }
            let mut routed = self.s.turn_state[i].routed;
            if crate::melee_tables::rally_up(&mut self.s.items[i], &mut routed) {
                if self.s.turn_state[i].routed && !routed {
                    self.counted[i] = false;
                    self.s.turn_state[i].rallied = true;
                }
                self.s.turn_state[i].routed = routed;
                log.add(|| {
                    Event::new(
                        "rally",
                        rule("M124"),
                        format!(
                            "{} rallies up with its commander{}.",
                            self.item(i).id,
                            if routed { "" } else { " and is in good order" }
                        ),
                    )
                    .side(side)
                    .units([self.item(i).id.clone()])
                });
            }
        }
    }
}
