//! The position: what the scenario fixed, the troops on the table, the Standing markers, the
//! phase, and the per-hex index of who stands where. It imports no chapter; the chapters, the
//! sequence of play and the `Game` impl read and change it.

use crate::table::TableRules;
use crate::troops::Unit;
use std::sync::Arc;
use volley_core::geometry::Facing;
use volley_core::map::{Map, MapView, Occupants};
use volley_core::{Hex, Name, Outcome, Side};

/// What the scenario fixed, which never changes in play.
#[derive(Debug)]
pub struct Setting {
    pub name: Name,
    pub title: Name,
    pub turn_limit: u32,
    pub map: Map,
    /// The map as views carry it, made once.
    pub map_view: Arc<MapView>,
    pub side_names: [Name; 2],
    pub objectives: Vec<Objective>,
    pub table: TableRules,
    /// All-water hexes where the scenario moors boats: troops may enter them.
    pub boats: Vec<Hex>,
}

#[derive(Clone, Debug)]
pub struct Objective {
    pub hex: Hex,
    pub name: Name,
    pub points: i32,
    /// The side whose goal it is, the only one that scores it (scenario `goals`); `None`:
    /// whichever side holds it.
    pub goal_of: Option<Side>,
}

/// Each turn: the side that won the roll marches, then fires; then the other side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Loaded, opening roll not yet made.
    Setup,
    March(Side),
    Musketry(Side),
    Over,
}

/// A hex fired on in this musketry, and the hexes whose volleys reached it.
#[derive(Clone, Debug)]
pub struct FiredOn {
    pub hex: Hex,
    pub by: Vec<Hex>,
}

#[derive(Clone, Debug)]
pub struct StandAndDieGame {
    pub setting: Arc<Setting>,
    /// Every unit of the scenario, in scenario order; destroyed ones stay with 0 figures so
    /// that action numbers keep pointing at the same unit.
    pub units: Vec<Unit>,
    /// Hexes marked Standing; every other occupied hex will fall back under pressure.
    pub standing: Vec<Hex>,
    pub turn: u32,
    pub phase: Phase,
    /// The side marching first this turn.
    pub first: Side,
    /// Hexes whose Standing marker was set or lifted in this march (once each).
    pub marks_changed: Vec<Hex>,
    /// Hexes that have fired in this musketry phase.
    pub fired_from: Vec<Hex>,
    /// Enemy hexes fired on in this musketry phase, in order, that will fall back, with the
    /// hexes that fired on each.
    pub fired_on: Vec<FiredOn>,
    /// Casualties each side has inflicted (a man or a gun casualty counts one).
    pub inflicted: [u32; 2],
    /// Casualties each side could take at the start.
    pub starting: [u32; 2],
    pub outcome: Option<Outcome>,
    /// Per map cell ([`Map::index`]), the keys of the units on the table there, in key order.
    /// Who holds a hex, which way it faces and what still fits in it are asked for every
    /// hex a unit might step into; this answers them without a walk over the army. Kept by
    /// [`StandAndDieGame::relocate`] and [`StandAndDieGame::unlist`].
    in_hex: Occupants,
}

impl StandAndDieGame {
    pub fn new(setting: Setting, units: Vec<Unit>, standing: Vec<Hex>) -> StandAndDieGame {
        let starting = Side::BOTH.map(|s| {
            units
                .iter()
                .filter(|u| u.side == s)
                .map(Unit::casualties_to_destroy)
                .sum()
        });
        let in_hex = Occupants::new(
            &setting.map,
            units.iter().enumerate().map(|(i, u)| (i, Some(u.hex))),
        );
        StandAndDieGame {
            setting: Arc::new(setting),
            units,
            standing,
            turn: 1,
            phase: Phase::Setup,
            first: Side::Red,
            marks_changed: Vec::new(),
            fired_from: Vec::new(),
            fired_on: Vec::new(),
            inflicted: [0, 0],
            starting,
            outcome: None,
            in_hex,
        }
    }

    pub fn map(&self) -> &Map {
        &self.setting.map
    }

    pub fn table(&self) -> TableRules {
        self.setting.table
    }

    /// The keys of the units still on the table in a hex, in key order.
    fn keys_in(&self, hex: Hex) -> &[usize] {
        self.in_hex.at(self.map(), hex)
    }

    /// The units still on the table in a hex, with their numbers.
    pub fn troops_in(&self, hex: Hex) -> impl Iterator<Item = (usize, &Unit)> {
        self.keys_in(hex).iter().map(|&i| (i, &self.units[i]))
    }

    /// Moves a unit on the table to another hex of the map.
    pub fn relocate(&mut self, unit: usize, to: Hex) {
        self.unlist(unit);
        self.units[unit].hex = to;
        self.in_hex.place(&self.setting.map, unit, to);
    }

    /// Takes a unit out of its hex's list: it is moving, or it has left the table.
    pub fn unlist(&mut self, unit: usize) {
        self.in_hex
            .lift(&self.setting.map, unit, self.units[unit].hex);
    }

    /// The side holding a hex, if any.
    pub fn holder(&self, hex: Hex) -> Option<Side> {
        self.troops_in(hex).next().map(|(_, u)| u.side)
    }

    /// The hexside the troops in a hex face (they all face the same way).
    pub fn hex_facing(&self, hex: Hex) -> Option<Facing> {
        self.troops_in(hex).next().map(|(_, u)| u.facing)
    }

    pub fn is_standing(&self, hex: Hex) -> bool {
        self.standing.contains(&hex)
    }

    /// Whether a unit is on the table and the first (by key) in its hex: orders given to a
    /// hex are put down to it (see `describe_order` in `view.rs`).
    pub fn leads_its_hex(&self, unit: usize) -> bool {
        self.keys_in(self.units[unit].hex).first() == Some(&unit)
    }

    /// A Standing marker leaves with the last troops out of its hex.
    pub fn lift_marker_if_empty(&mut self, hex: Hex) {
        if self.holder(hex).is_none() {
            self.standing.retain(|h| *h != hex);
        }
    }

    /// The side whose march or musketry it is.
    pub fn phasing(&self) -> Option<Side> {
        match self.phase {
            Phase::March(s) | Phase::Musketry(s) => Some(s),
            Phase::Setup | Phase::Over => None,
        }
    }

    pub fn side_name(&self, side: Side) -> &str {
        &self.setting.side_names[side.index()]
    }

    /// Whether the per-hex index lists exactly the units on the table in each hex, in key
    /// order (one of the invariants, `invariants.rs`).
    pub fn check_index(&self) -> Result<(), String> {
        self.in_hex.check(
            self.map(),
            self.units
                .iter()
                .enumerate()
                .map(|(i, u)| (i, u.on_table().then_some(u.hex))),
        )?;
        Ok(())
    }

    /// The troops of each occupied hex, hex by hex in map order.
    pub fn occupied_hexes(&self) -> impl Iterator<Item = Vec<&Unit>> {
        self.in_hex
            .occupied()
            .map(|keys| keys.iter().map(|&i| &self.units[i]).collect())
    }
}
