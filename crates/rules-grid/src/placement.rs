//! Game Setup with option `placement = "roll"`: the players roll for first placement, then
//! take turns placing their units one at a time in their set-up rows (the two back rows,
//! not an outer column, unless the side's `setup = "free"`). A side ends its placement when
//! it has placed every unit or says `end`; units it leaves stay where the scenario put them.
//! When both sides are done, the turn progression rolls the first game-turn's initiative.

use crate::roll_off::roll_off;
use crate::rule;
use crate::state::{GridGame, Phase, Placing};
use crate::terrain;
use volley_core::game::Refusal;
use volley_core::geometry::label;
use volley_core::{Dice, Event, Hex, Log, Side};

impl GridGame {
    /// Rolls for first placement (ties roll again) and opens the placement.
    pub fn begin_placement(&mut self, dice: &mut dyn Dice, log: &mut Log) {
        let (red, blue, opens_turn) = roll_off(dice, log, true, "placement", |n| {
            format!("Placement: red and blue both rolled {n}; roll again.")
        });
        let first = if red > blue { Side::Red } else { Side::Blue };
        self.order = [first, first.other()];
        self.player_turn = 0;
        self.phase = Phase::Placement;
        self.placing = Some(Placing {
            done: [false; 2],
            placed: vec![false; self.units.len()],
        });
        log.add(|| {
            let e = Event::new(
                "placement",
                rule("Game Setup"),
                format!(
                    "Placement: red rolled {red}, blue rolled {blue}; {first} places first. The sides take turns placing one unit at a time."
                ),
            )
            .side(first);
            if opens_turn {
                e.opens_turn()
            } else {
                e
            }
        });
    }

    /// Whether `unit` may be placed at `to` now.
    pub fn check_place<R: Refusal>(&self, unit: usize, to: Hex) -> Result<(), R> {
        let (Some(placing), Some(areas)) = (&self.placing, &self.setup.placement) else {
            return Err(R::because(|| {
                "units are placed only at the start, with option placement = roll (Game Setup)"
            }));
        };
        let u = self.own_unit::<R>(unit)?;
        if placing.placed[unit] {
            return Err(R::because(|| format!("{} has already been placed", u.id)));
        }
        if !self.map().contains(to) {
            return Err(R::because(|| format!("{} is off the map", label(to))));
        }
        areas[u.side.index()]
            .check(self.map(), to)
            .map_err(|m| R::because(|| m))?;
        terrain::entry(u.kind, self.map().terrain(to))
            .map_err(|why| R::because(|| format!("{} at {}: {why}", u.id, label(to))))?;
        if let Some(other) = self.occupant(to, Some(unit)) {
            return Err(R::because(|| {
                format!(
                    "{} is already held by {}: units may not share a tile (Movement Rules 5)",
                    label(to),
                    self.units[other].id
                )
            }));
        }
        Ok(())
    }

    pub fn do_place(&mut self, unit: usize, to: Hex, log: &mut Log) {
        self.relocate(unit, to);
        let placing = self.placing.as_mut().expect("checked: placing");
        placing.placed[unit] = true;
        let u = &self.units[unit];
        let left = self
            .units
            .iter()
            .enumerate()
            .filter(|(i, x)| x.side == u.side && x.alive() && !placing.placed[*i])
            .count();
        log.add(|| {
            Event::new(
                "place",
                rule("Game Setup"),
                format!(
                    "{} places {} ({}) at {}; {left} left to place.",
                    u.side,
                    u.id,
                    u.kind.name(),
                    label(to)
                ),
            )
            .side(u.side)
            .units([u.id.clone()])
        });
        // The sides take turns, one unit each, while both are still placing.
        let other = u.side.other();
        if !placing.done[other.index()] {
            self.player_turn = 1 - self.player_turn;
        }
    }

    /// The side to place ends its placement. Returns whether both sides have: then the first
    /// game-turn begins.
    pub fn end_placement(&mut self, log: &mut Log) -> bool {
        let side = self.phasing();
        let placing = self.placing.as_mut().expect("in placement");
        placing.done[side.index()] = true;
        if !placing.done[side.other().index()] {
            self.player_turn = 1 - self.player_turn;
            log.add(|| {
                Event::new(
                    "placement",
                    rule("Game Setup"),
                    format!(
                        "{side} has placed its units; {} places the rest of its own.",
                        side.other()
                    ),
                )
                .side(side.other())
            });
            return false;
        }
        self.placing = None;
        log.add(|| {
            Event::new(
                "placement",
                rule("Game Setup"),
                "Both sides have placed their units.",
            )
        });
        true
    }
}
