//! Reinforcements (Gunpowder 4, Rules by Sequence 2; Mechanized 3.4): groups of units that
//! enter the map during play, on a scheduled turn, at entry hexes the scenario names — or at
//! one of several locations picked by a d6 (Gunpowder 4 d).
//!
//! A scenario lists them as
//!
//! ```toml
//! [[reinforcements]]
//! id = "north-road"
//! side = "blue"
//! turn = 3
//! entry = ["0101", "0201"]                      # one entry area, or
//! locations = [["0101"], ["0601"], ["1101"]]     # a d6 picks one (4 d)
//! facing = "S"
//! ```
//!
//! and each arriving unit names its group with `arrives = "north-road"` instead of a hex.

use serde::Deserialize;
use toml::Spanned;
use volley_core::geometry::{label, Facing};
use volley_core::map::Map;
use volley_core::scenario::Ids;
use volley_core::{Dice, Hex, Log, Name, ScenarioError, ScenarioSource, Side};

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReinforcementSpec {
    pub id: Spanned<String>,
    pub side: Spanned<String>,
    pub turn: Spanned<u32>,
    #[serde(default)]
    pub entry: Vec<Spanned<String>>,
    #[serde(default)]
    pub locations: Vec<Vec<Spanned<String>>>,
    #[serde(default)]
    pub facing: Option<Spanned<String>>,
    /// A commander of the side that arrives with the group (by id).
    #[serde(default)]
    pub commander: Option<Spanned<String>>,
}

/// Where an arriving group stands in its schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Due on its turn.
    Due,
    /// Some of its units are on the map; the rest wait for room.
    Arriving,
    /// All on the map.
    Arrived,
}

/// A group of reinforcements.
#[derive(Clone, Debug)]
pub struct Arrival {
    pub id: Name,
    pub side: Side,
    pub turn: u32,
    /// The entry areas: one, or several a d6 picks from.
    pub locations: Vec<Vec<Hex>>,
    /// The location in use, once picked.
    pub chosen: Option<usize>,
    pub facing: Facing,
    /// The commander arriving with the group, by its place in the scenario's list.
    pub commander: Option<Name>,
    pub status: Status,
    /// The blocking side has been asked whether it stands (4 b).
    pub asked: bool,
}

impl Arrival {
    /// The entry hexes in use (the first area until a roll has picked one).
    pub fn entry(&self) -> &[Hex] {
        &self.locations[self.chosen.unwrap_or(0)]
    }

    pub fn due(&self, turn: u32) -> bool {
        self.status != Status::Arrived && self.turn <= turn
    }

    /// Gunpowder 4 d: a d6 picks one of the locations, splitting the die evenly (three
    /// locations: 1–2, 3–4, 5–6). With one location nothing is rolled.
    pub fn pick_location(&mut self, dice: &mut dyn Dice) -> Option<u32> {
        if self.chosen.is_some() {
            return None;
        }
        if self.locations.len() <= 1 {
            self.chosen = Some(0);
            return None;
        }
        let d = dice.roll(6);
        let n = self.locations.len() as u32;
        self.chosen = Some((((d - 1) * n) / 6) as usize);
        Some(d)
    }

    /// The entry hexes, in words.
    pub fn entry_text(&self) -> String {
        self.entry()
            .iter()
            .map(|&h| label(h))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// How far a hex lies from the nearest of an arrival's entry hexes (`u32::MAX` with none).
pub fn distance_from_entry(entry: &[Hex], h: Hex) -> u32 {
    entry
        .iter()
        .map(|&e| e.unsigned_distance_to(h))
        .min()
        .unwrap_or(u32::MAX)
}

/// Whether a unit at `h` blocks an arrival's entry (Gunpowder 4 b: on or beside its entry
/// hexes, `reach` 1; Mechanized 3.4: on them, `reach` 0, and told of the arrival within 2).
pub fn near_entry(entry: &[Hex], h: Hex, reach: u32) -> bool {
    distance_from_entry(entry, h) <= reach
}

/// A blocker falling back before an arrival (Gunpowder 4 b, Mechanized 3.4) steps only to a
/// hex farther from every entry hex than the one it leaves.
pub fn falls_back(entry: &[Hex], from: Hex, to: Hex) -> bool {
    distance_from_entry(entry, to) > distance_from_entry(entry, from)
}

/// The steps of a group's arrival that are each ruleset's own; [`arrive`] runs them in the
/// order both rulebooks give (Gunpowder 4; Mechanized 3.4, M45–M47).
pub trait Arriving {
    fn arrival(&self, g: usize) -> &Arrival;
    fn arrival_mut(&mut self, g: usize) -> &mut Arrival;
    fn arrival_count(&self) -> usize;

    /// Whether the group comes on this turn at all (Mechanized's arrival test, M46); a group
    /// that does not is passed over.
    fn comes_on(&mut self, _g: usize, _dice: &mut dyn Dice, _log: &mut Log) -> bool {
        true
    }

    /// Tells of the d6 that picked the group's entry area (Gunpowder 4 d).
    fn location_picked(&mut self, g: usize, d6: u32, log: &mut Log);

    /// Puts the arrival to the enemies on its entry hexes, once (4 b, M47): `true` while
    /// their answer is awaited.
    fn ask_blockers(&mut self, g: usize, log: &mut Log) -> bool;

    /// The group's waiting units come on at its entry hexes, as room allows.
    fn enter(&mut self, g: usize, log: &mut Log);
}

/// `side`'s reinforcements due on `turn` arrive, group by group in the scenario's order:
/// the ruleset's test, the entry area picked, the blockers asked, the units placed. `false`
/// when it stops for the blockers' answer (it is run again once they have given it).
pub fn arrive(
    p: &mut impl Arriving,
    side: Side,
    turn: u32,
    dice: &mut dyn Dice,
    log: &mut Log,
) -> bool {
    for g in 0..p.arrival_count() {
        let a = p.arrival(g);
        if a.side != side || !a.due(turn) {
            continue;
        }
        if !p.comes_on(g, dice, log) {
            continue;
        }
        if let Some(d) = p.arrival_mut(g).pick_location(dice) {
            p.location_picked(g, d, log);
        }
        if p.ask_blockers(g, log) {
            return false;
        }
        p.enter(g, log);
    }
    true
}

/// Reads the scenario's reinforcement groups, checking every hex against the map.
pub fn read(
    src: &ScenarioSource,
    map: &Map,
    ids: &mut Ids,
    specs: &[ReinforcementSpec],
) -> Result<Vec<Arrival>, ScenarioError> {
    let mut out = Vec::new();
    for r in specs {
        ids.claim(src, &r.id)?;
        let side = src.side(&r.side)?;
        if *r.turn.get_ref() < 1 {
            return Err(src.error_at(r.turn.span(), "reinforcements arrive on turn 1 or later"));
        }
        let mut areas: Vec<&Vec<Spanned<String>>> = Vec::new();
        if !r.entry.is_empty() {
            areas.push(&r.entry);
        }
        areas.extend(r.locations.iter());
        if areas.is_empty() || (!r.entry.is_empty() && !r.locations.is_empty()) {
            return Err(src.error_at(
                r.id.span(),
                "a reinforcement group gives either `entry` (its entry hexes) or `locations` (areas a d6 picks from)",
            ));
        }
        if areas.len() > 6 {
            return Err(src.error_at(r.id.span(), "a d6 picks from at most six locations"));
        }
        let mut locations = Vec::new();
        for area in areas {
            if area.is_empty() {
                return Err(src.error_at(r.id.span(), "an entry area needs at least one hex"));
            }
            let hexes = area
                .iter()
                .map(|h| src.hex(h, map))
                .collect::<Result<Vec<_>, _>>()?;
            locations.push(hexes);
        }
        let facing = match &r.facing {
            Some(f) => src.facing(f)?,
            None => Facing::N,
        };
        out.push(Arrival {
            id: r.id.get_ref().as_str().into(),
            side,
            turn: *r.turn.get_ref(),
            locations,
            chosen: None,
            facing,
            commander: r.commander.as_ref().map(|c| c.get_ref().as_str().into()),
            status: Status::Due,
            asked: false,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use volley_core::ScriptedDice;

    #[test]
    fn a_d6_picks_one_of_three_locations() {
        let mut a = Arrival {
            id: "x".into(),
            side: Side::Red,
            turn: 2,
            locations: vec![vec![Hex::ZERO]; 3],
            chosen: None,
            facing: Facing::N,
            commander: None,
            status: Status::Due,
            asked: false,
        };
        let mut picked = Vec::new();
        for d in 1..=6 {
            a.chosen = None;
            a.pick_location(&mut ScriptedDice::new([d]));
            picked.push(a.chosen.unwrap());
        }
        assert_eq!(picked, vec![0, 0, 1, 1, 2, 2]);
        assert!(a.due(2) && !a.due(1));
    }
}
