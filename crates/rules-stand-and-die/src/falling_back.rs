//! The rules' last lines: hexes not marked Standing fall back one hex when fired on, and
//! Standing hexes stand and die. Volley moves them at the end of the enemy's musketry, so
//! every hex that can reach them gets its volley first.

use crate::state::StandAndDieGame;
use crate::water;
use std::fmt;
use volley_core::geometry::{label, step};
use volley_core::map::Terrain;
use volley_core::{Event, Hex, Log, Side};

pub const RULE: &str = "stand-and-die falling back";

/// Why a hex cannot fall back.
enum Blocked {
    OffMap,
    River(Terrain),
    Held(Side),
}

impl fmt::Display for Blocked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Blocked::OffMap => f.write_str("it is off the map"),
            Blocked::River(terrain) => write!(f, "it is {}", terrain.name()),
            Blocked::Held(side) => write!(f, "{side} troops are there"),
        }
    }
}

impl StandAndDieGame {
    /// `side`'s hexes fired on in the musketry just ended, and not marked Standing, each move
    /// one hex straight back (away from the hexside they face), facing as before. A hex
    /// whose way back is off the map, river, or occupied by anyone holds where it is.
    pub fn fall_back(&mut self, side: Side, log: &mut Log) {
        for hex in std::mem::take(&mut self.fired_on) {
            self.give_ground(hex, side, log);
        }
    }

    /// One hex fired on falls back, if `side` still holds it and it is not Standing.
    pub fn give_ground(&mut self, hex: Hex, side: Side, log: &mut Log) {
        if self.holder(hex) != Some(side) || self.is_standing(hex) {
            return;
        }
        let facing = self.hex_facing(hex).expect("the hex is held");
        let behind = step(hex, facing.opposite());
        let blocked = if !self.map().contains(behind) {
            Some(Blocked::OffMap)
        } else if !water::enterable(self.map(), behind, self.table().fords_open) {
            Some(Blocked::River(self.map().terrain(behind)))
        } else {
            self.holder(behind).map(Blocked::Held)
        };
        let now_in = match blocked {
            Some(_) => hex,
            None => loop {
                let Some((i, _)) = self.troops_in(hex).next() else {
                    break behind;
                };
                self.relocate(i, behind);
            },
        };
        log.add(|| {
            let event = match blocked {
                Some(why) => Event::new(
                    "hold",
                    RULE,
                    format!(
                        "{} cannot fall back to {} ({why}) and holds",
                        label(hex),
                        label(behind)
                    ),
                ),
                None => Event::new(
                    "retreat",
                    RULE,
                    format!(
                        "{} was fired on and falls back to {}, still facing {facing}",
                        label(hex),
                        label(behind)
                    ),
                ),
            };
            let ids = self.troops_in(now_in).map(|(_, u)| u.id.as_str());
            event.side(side).units(ids)
        });
    }
}
