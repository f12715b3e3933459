//! The rules' last lines: hexes not marked Standing fall back one hex when fired on, and
//! Standing hexes stand and die. Volley moves them at the end of the enemy's musketry, so
//! every hex that can reach them gets its volley first, and moves them away from the fire
//! (or, by the option `fall_back = "behind"`, straight behind their facing).

use crate::state::{FiredOn, StandAndDieGame};
use crate::table::FallBackWay;
use crate::water;
use std::fmt;
use volley_core::geometry::{distance, label, step, Facing};
use volley_core::map::Terrain;
use volley_core::{Event, Hex, Log, Side};

pub const RULE: &str = "stand-and-die falling back";

/// Why a hex cannot fall back into a neighbour.
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

/// The neighbours of `hex` that take it away from the fire, best first: each farther from
/// every hex in `by` than `hex` is; the farthest from them centre to centre first (summed
/// over the firing hexes), then the nearest to straight behind `facing`, then by label.
fn ways_away(hex: Hex, by: &[Hex], facing: Facing) -> Vec<Hex> {
    // Squared centre-to-centre distance, in cube coordinates (a constant times the true one).
    let apart = |a: Hex, b: Hex| {
        let d = a - b;
        d.x * d.x + d.y * d.y + (d.x + d.y) * (d.x + d.y)
    };
    let mut ways: Vec<(i32, u8, String, Hex)> = Facing::ALL
        .into_iter()
        .map(|f| (f, step(hex, f)))
        .filter(|&(_, n)| by.iter().all(|&b| distance(n, b) > distance(hex, b)))
        .map(|(f, n)| {
            let far: i32 = by.iter().map(|&b| apart(n, b)).sum();
            (-far, f.difference(facing.opposite()), label(n), n)
        })
        .collect();
    ways.sort_by(|a, b| (a.0, a.1, &a.2).cmp(&(b.0, b.1, &b.2)));
    ways.into_iter().map(|(_, _, _, n)| n).collect()
}

impl StandAndDieGame {
    /// `side`'s hexes fired on in the musketry just ended, and not marked Standing, each
    /// fall back one hex (`give_ground`), in the order they were first fired on.
    pub fn fall_back(&mut self, side: Side, log: &mut Log) {
        for fired in std::mem::take(&mut self.fired_on) {
            self.give_ground(&fired, side, log);
        }
    }

    /// One hex fired on falls back, if `side` still holds it and it is not Standing: into
    /// the best open hex of its way back (away from the fire, or straight behind), keeping
    /// its facing. A hex with no open hex that way holds where it is.
    pub fn give_ground(&mut self, fired: &FiredOn, side: Side, log: &mut Log) {
        let hex = fired.hex;
        if self.holder(hex) != Some(side) || self.is_standing(hex) {
            return;
        }
        let facing = self.hex_facing(hex).expect("the hex is held");
        let ways = match self.table().fall_back {
            FallBackWay::AwayFromTheFire => ways_away(hex, &fired.by, facing),
            FallBackWay::Behind => vec![step(hex, facing.opposite())],
        };
        let mut blocked = Vec::new();
        let open = ways.iter().copied().find(|&to| match self.blocked(to) {
            Some(why) => {
                blocked.push((to, why));
                false
            }
            None => true,
        });
        if let Some(to) = open {
            let troops: Vec<usize> = self.troops_in(hex).map(|(i, _)| i).collect();
            for i in troops {
                self.relocate(i, to);
            }
        }
        log.add(|| {
            let event = match open {
                Some(to) => Event::new(
                    "retreat",
                    RULE,
                    format!(
                        "{} was fired on and falls back to {}, still facing {facing}",
                        label(hex),
                        label(to)
                    ),
                ),
                None if blocked.is_empty() => Event::new(
                    "hold",
                    RULE,
                    format!(
                        "{} has no hex away from the fire to fall back to and holds",
                        label(hex)
                    ),
                ),
                None => {
                    let tried: Vec<String> = blocked
                        .iter()
                        .map(|(to, why)| format!("{} ({why})", label(*to)))
                        .collect();
                    Event::new(
                        "hold",
                        RULE,
                        format!(
                            "{} cannot fall back to {} and holds",
                            label(hex),
                            tried.join(" or ")
                        ),
                    )
                }
            };
            let ids = self
                .troops_in(open.unwrap_or(hex))
                .map(|(_, u)| u.id.as_str());
            event.side(side).units(ids)
        });
    }

    /// Why troops falling back may not go into `to`, if they may not.
    fn blocked(&self, to: Hex) -> Option<Blocked> {
        if !self.map().contains(to) {
            Some(Blocked::OffMap)
        } else if !water::enterable(self.map(), to, self.table().fords_open, &self.setting.boats) {
            Some(Blocked::River(self.map().terrain(to)))
        } else {
            self.holder(to).map(Blocked::Held)
        }
    }

    /// Notes that a volley from `from` reached the hex `at`, which will fall back.
    pub fn note_fired_on(&mut self, at: Hex, from: Hex) {
        match self.fired_on.iter_mut().find(|f| f.hex == at) {
            Some(f) if !f.by.contains(&from) => f.by.push(from),
            Some(_) => {}
            None => self.fired_on.push(FiredOn {
                hex: at,
                by: vec![from],
            }),
        }
    }
}
