//! The pieces of Mechanized (M1–M14): infantry squads of four figures, vehicles of a roster
//! type, and guns; at most two share a hex (M56).

use crate::charts::{VehicleType, Weight};
use crate::damage::Damage;
use volley_core::geometry::Facing;
use volley_core::{Hex, Name, Side};

/// What an item is.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// M2–M5: an infantry squad of its weight, with its special weapons and skills.
    Squad(Squad),
    /// M6: a vehicle of a roster type, with its damage.
    Vehicle {
        type_id: Name,
        spec: Box<VehicleType>,
        damage: Damage,
    },
    /// A towed or emplaced gun and its crew (anti-tank, field gun, mortar).
    Gun {
        weight: Weight,
        indirect: bool,
        mortar: bool,
        /// Rocket artillery: its rounds always scatter (M99).
        rockets: bool,
    },
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Squad {
    pub weight: Option<Weight>,
    /// Figures left (4 full, M3); the squad routs at 2 (M104).
    pub figures: u8,
    /// Red hit markers, 0–2 (M103).
    pub markers: u8,
    /// Anti-vehicle capable (M88); hidden from the enemy until it fires at a vehicle (M4).
    pub at: bool,
    pub smg: bool,
    pub engineer: bool,
    pub anti_mine: bool,
    pub cavalry: bool,
    pub commando: bool,
    pub paratroop: bool,
    /// Hexes of mines it carries to lay (M67; the scenario's `mines`).
    pub mines: u8,
    /// Cavalry on foot (M58).
    pub dismounted: bool,
    /// Cavalry that dismounted into combat and left its horses (M58).
    pub horses_lost: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    pub id: Name,
    pub name: Name,
    pub side: Side,
    pub kind: Kind,
    pub hex: Hex,
    pub facing: Facing,
}
