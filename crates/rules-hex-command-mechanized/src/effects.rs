//! What the chapters' results do to the position, below them all: an item moved (its cargo
//! with it) or removed and counted lost (M41), and what a loss does to an item — a squad down
//! to two figures routs and runs (M120), a routed one hit again or a wreck is removed (M123).

use crate::items::Kind;
use crate::losses;
use crate::rule;
use crate::state::MechGame;
use volley_core::geometry::label;
use volley_core::{Event, Hex, Log};

impl MechGame {
    /// Moves an item to another hex, keeping the board.
    pub fn relocate(&mut self, i: usize, to: Hex) {
        let map = &self.s.setup.map;
        self.s.board.lift(map, self.s.items[i].hex, i);
        self.s.items[i].hex = to;
        let placed = self.s.board.place(map, to, i);
        debug_assert!(placed, "checked: room in {}", label(to));
        self.carry_along(i);
    }

    /// Removes an item from the table (destroyed or captured) and counts it lost.
    pub fn remove(&mut self, i: usize) {
        let map = &self.s.setup.map;
        self.s.board.lift(map, self.s.items[i].hex, i);
        self.s.turn_state[i].gone = true;
        self.counted[i] = true;
        self.wreck(i, &mut Log::silent());
    }

    /// What a loss did to an item: a routed squad runs (M120), a destroyed item goes.
    pub fn after_loss(&mut self, i: usize, result: losses::Result, log: &mut Log) {
        match result {
            losses::Result::Holds => {}
            losses::Result::Routs if !self.s.turn_state[i].routed => {
                self.s.turn_state[i].routed = true;
                self.counted[i] = true;
                if let Kind::Squad(sq) = &mut self.s.items[i].kind {
                    sq.markers = 0;
                }
                log.add(|| {
                    Event::new(
                        "rout",
                        rule("M120"),
                        format!(
                            "{} is down to two figures and routs: its markers go and it runs.",
                            self.item(i).id
                        ),
                    )
                    .side(self.item(i).side)
                    .units([self.item(i).id.clone()])
                });
                self.run(i, log);
            }
            losses::Result::Routs => {
                // M123: any hit destroys a routed unit.
                self.remove(i);
                log.add(|| self.removed_event(i, "a routed unit hit again is destroyed (M123)"));
            }
            losses::Result::Destroyed => {
                self.wreck(i, log);
                self.remove(i);
                log.add(|| self.removed_event(i, "destroyed"));
            }
        }
    }

    pub(crate) fn removed_event(&self, i: usize, why: &str) -> Event {
        let it = self.item(i);
        Event::new(
            "removed",
            rule("M41"),
            format!("{} is removed from play: {why}.", it.id),
        )
        .side(it.side)
        .units([it.id.clone()])
    }
}
