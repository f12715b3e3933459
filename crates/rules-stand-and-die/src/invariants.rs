//! What must hold of every position reached in play (`Game::check_invariants`, asked after
//! every action by the tests): troops on the map and out of the river, within their march,
//! guns' casualties in bounds, the per-hex index true, each hex one side's, facing one way
//! and within its stacking, markers only on held hexes, and the casualties adding up.

use crate::marching::{march_allowance, stacking_problem};
use crate::state::{Phase, StandAndDieGame};
use crate::troops::{Arm, Unit, GUN_CASUALTIES};
use crate::water;
use volley_core::geometry::label;
use volley_core::Side;

impl StandAndDieGame {
    /// The first invariant broken, in words, if any.
    pub fn check_position(&self) -> Result<(), String> {
        let table = self.table();
        for u in self.units.iter().filter(|u| u.on_table()) {
            if !self.map().contains(u.hex) {
                return Err(format!("{} is off the map at {}", u.label(), label(u.hex)));
            }
            if !water::enterable(self.map(), u.hex, table.fords_open, &self.setting.boats) {
                return Err(format!("{} is in the river at {}", u.label(), label(u.hex)));
            }
            if u.marched > march_allowance(u.arm) {
                return Err(format!("{} marched {} hexes", u.label(), u.marched));
            }
        }
        for u in &self.units {
            if u.gun_casualties >= GUN_CASUALTIES
                || (u.arm != Arm::Artillery && u.gun_casualties > 0)
            {
                return Err(format!(
                    "{} has {} gun casualties",
                    u.label(),
                    u.gun_casualties
                ));
            }
            if !u.on_table() && u.gun_casualties > 0 {
                return Err(format!("destroyed {} still has gun casualties", u.label()));
            }
        }
        self.check_index()?;
        for troops in self.occupied_hexes() {
            let hex = troops[0].hex;
            if troops.iter().any(|u| u.side != troops[0].side) {
                return Err(format!("both sides are in {}", label(hex)));
            }
            if troops.iter().any(|u| u.facing != troops[0].facing) {
                return Err(format!("the troops in {} face different ways", label(hex)));
            }
            if let Some(problem) = stacking_problem(troops, &table) {
                return Err(format!("{problem} in {}", label(hex)));
            }
        }
        if let Some(h) = self.standing.iter().find(|h| self.holder(**h).is_none()) {
            return Err(format!("empty hex {} is marked Standing", label(*h)));
        }
        for side in Side::BOTH {
            let left: u32 = self
                .units
                .iter()
                .filter(|u| u.side == side)
                .map(Unit::casualties_to_destroy)
                .sum();
            if left + self.inflicted[side.other().index()] != self.starting[side.index()] {
                return Err(format!(
                    "{side} casualties do not add up: {left} left + {} inflicted != {} at start",
                    self.inflicted[side.other().index()],
                    self.starting[side.index()]
                ));
            }
        }
        if self.outcome.is_some() != (self.phase == Phase::Over) {
            return Err("the outcome and the phase disagree".into());
        }
        Ok(())
    }
}
