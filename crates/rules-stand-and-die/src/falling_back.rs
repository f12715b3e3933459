//! The rules' last lines: hexes not marked Standing fall back one hex when fired on, and
//! Standing hexes stand and die. Volley moves them at the end of the enemy's musketry, so
//! every hex that can reach them gets its volley first.

use crate::state::StandAndDieGame;
use crate::water;
use volley_core::geometry::{label, step};
use volley_core::{Event, Side};

pub const RULE: &str = "stand-and-die falling back";

impl StandAndDieGame {
    /// `side`'s hexes fired on in the musketry just ended, and not marked Standing, each move
    /// one hex straight back (away from the hexside they face), facing as before. A hex
    /// whose way back is off the map, river, or occupied by anyone holds where it is.
    pub fn fall_back(&mut self, side: Side) -> Vec<Event> {
        let mut events = Vec::new();
        for hex in std::mem::take(&mut self.fired_on) {
            if self.holder(hex) != Some(side) || self.is_standing(hex) {
                continue;
            }
            let facing = self.hex_facing(hex).expect("the hex is held");
            let behind = step(hex, facing.opposite());
            let ids: Vec<String> = self.troops_in(hex).map(|(_, u)| u.id.to_string()).collect();
            let blocked = if !self.map().contains(behind) {
                Some("it is off the map".to_string())
            } else if !water::enterable(self.map(), behind, self.table().fords_open) {
                Some(format!("it is {}", self.map().terrain(behind).name()))
            } else {
                self.holder(behind).map(|s| format!("{s} troops are there"))
            };
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
                None => {
                    for u in self
                        .units
                        .iter_mut()
                        .filter(|u| u.on_table() && u.hex == hex)
                    {
                        u.hex = behind;
                    }
                    Event::new(
                        "retreat",
                        RULE,
                        format!(
                            "{} was fired on and falls back to {}, still facing {facing}",
                            label(hex),
                            label(behind)
                        ),
                    )
                }
            };
            events.push(event.side(side).units(ids));
        }
        events
    }
}
