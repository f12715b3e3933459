//! The troops: groups of figures of one arm. Infantry and cavalry count men; artillery
//! counts guns, each of which takes two casualties before it is out of action.

use volley_core::geometry::Facing;
use volley_core::Name;
use volley_core::{Hex, Side};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arm {
    Infantry,
    Cavalry,
    Artillery,
}

impl Arm {
    pub const ALL: [Arm; 3] = [Arm::Infantry, Arm::Cavalry, Arm::Artillery];

    pub fn parse(text: &str) -> Option<Arm> {
        Arm::ALL.into_iter().find(|a| a.name() == text.trim())
    }

    pub fn name(self) -> &'static str {
        match self {
            Arm::Infantry => "infantry",
            Arm::Cavalry => "cavalry",
            Arm::Artillery => "artillery",
        }
    }

    pub fn symbol(self) -> char {
        match self {
            Arm::Infantry => 'I',
            Arm::Cavalry => 'C',
            Arm::Artillery => 'A',
        }
    }

    /// How `n` figures of this arm are called in event sentences: "7 infantry", "2 guns".
    pub fn figures(self, n: u32) -> String {
        match self {
            Arm::Artillery if n == 1 => "1 gun".to_string(),
            Arm::Artillery => format!("{n} guns"),
            arm => format!("{n} {}", arm.name()),
        }
    }
}

/// Casualties a gun takes before it is out of action.
pub const GUN_CASUALTIES: u32 = 2;

#[derive(Clone, Debug)]
pub struct Unit {
    pub id: Name,
    pub name: Name,
    pub side: Side,
    pub arm: Arm,
    /// Men or cavalrymen left, or guns still in action. 0: the unit has left the table.
    pub figures: u32,
    /// Figures (or guns) it set up with.
    pub starting_figures: u32,
    /// Casualties already on the gun being hit (always below [`GUN_CASUALTIES`]).
    pub gun_casualties: u32,
    pub hex: Hex,
    pub facing: Facing,
    /// Hexes marched this turn.
    pub marched: u32,
    /// Whether it has changed facing since it last stepped (it may turn once at each stop).
    pub turned: bool,
}

impl Unit {
    pub fn on_table(&self) -> bool {
        self.figures > 0
    }

    /// Casualties it can still take before it is gone: one a man, two a gun.
    pub fn casualties_to_destroy(&self) -> u32 {
        match self.arm {
            Arm::Artillery => self.figures * GUN_CASUALTIES - self.gun_casualties,
            _ => self.figures,
        }
    }

    /// "1st Foot (r1)", as events name units.
    pub fn label(&self) -> String {
        format!("{} ({})", self.name, self.id)
    }
}
