//! Vehicle damage (M105–M106, D5): the faces of a damage block and what they do to a vehicle.

use crate::charts::{BlockMode, Charts};

/// A face of the damage block (T2): each one a sixth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Face {
    C,
    CC,
    D,
    DD,
    M,
    MM,
}

impl Face {
    /// The face a d6 shows: 1 C, 2 CC, 3 D, 4 DD, 5 M, 6 MM.
    pub fn from_d6(d: u32) -> Face {
        [Face::C, Face::CC, Face::D, Face::DD, Face::M, Face::MM][(d.clamp(1, 6) - 1) as usize]
    }

    /// The category (0 combat, 1 defence, 2 movement) and whether the face is a double.
    fn category(self) -> (usize, bool) {
        match self {
            Face::C => (0, false),
            Face::CC => (0, true),
            Face::D => (1, false),
            Face::DD => (1, true),
            Face::M => (2, false),
            Face::MM => (2, true),
        }
    }
}

/// A vehicle's damage: each category none (0), single (1) or double (2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Damage {
    pub combat: u8,
    pub defence: u8,
    pub movement: u8,
}

impl Damage {
    fn slot(&mut self, category: usize) -> &mut u8 {
        match category {
            0 => &mut self.combat,
            1 => &mut self.defence,
            _ => &mut self.movement,
        }
    }

    /// Takes one block. Incremental: the category rises one step; as rolled: to the face's
    /// level (never down). A category already at double takes no more (D5, strict reading).
    pub fn take(&mut self, face: Face, mode: BlockMode) {
        let (category, double) = face.category();
        let slot = self.slot(category);
        *slot = match mode {
            BlockMode::Incremental => (*slot + 1).min(2),
            BlockMode::AsRolled => (*slot)
                .max(if double { 2 } else { 1 })
                .max((*slot + 1).min(2)),
        };
    }

    /// Three double indicators destroy the vehicle (M106).
    pub fn destroyed(&self) -> bool {
        self.combat == 2 && self.defence == 2 && self.movement == 2
    }

    /// Points off the vehicle's combat (its fire needs this much more).
    pub fn combat_penalty(&self, charts: &Charts) -> u8 {
        match self.combat {
            0 => 0,
            n => charts.damage_effects.combat[(n - 1) as usize],
        }
    }

    /// Points off its defence.
    pub fn defence_penalty(&self, charts: &Charts) -> u8 {
        match self.defence {
            0 => 0,
            n => charts.damage_effects.defence[(n - 1) as usize],
        }
    }

    /// Its speed with movement damage: M halves it (at least 1), MM leaves one hex.
    pub fn speed(&self, speed: u8) -> u8 {
        match self.movement {
            0 => speed,
            1 => (speed / 2).max(1),
            _ => 1,
        }
    }
}

/// The chance, in whole per cent of 2d10 throws (of 100), that 2d10 reach `n` — the table
/// D2 quotes, computed.
pub fn two_d10_at_least(n: i32) -> u32 {
    (1..=10)
        .flat_map(|a| (1..=10).map(move |b| a + b))
        .filter(|&s| s >= n)
        .count() as u32
}
