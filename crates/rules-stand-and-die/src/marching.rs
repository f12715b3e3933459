//! Marching (the rules' first paragraph): the roll for who marches first, how far each arm
//! marches, what may share a hex and how much fits, facing, and the Standing marker.

use crate::orders::Order;
use crate::state::{Phase, StandAndDieGame};
use crate::table::TableRules;
use crate::troops::{Arm, Unit};
use crate::water;
use std::fmt;
use volley_core::geometry::{distance, label, step, Facing};
use volley_core::{reach_by_steps, Dice, Event, Hex, Illegal, Log, Reach, Side};

pub const RULE: &str = "stand-and-die marching";

/// Hexes an arm may march in one turn.
pub const fn march_allowance(arm: Arm) -> u32 {
    match arm {
        Arm::Cavalry => 3,
        Arm::Infantry => 2,
        Arm::Artillery => 1,
    }
}

/// The roll for who marches first is one d6: this or less and red marches first, otherwise
/// blue. Even odds, like both sides rolling and rolling ties again, but always one die, so
/// exact odds can walk it and no roll can go on for ever.
pub const RED_FIRST_UP_TO: u32 = 3;

/// Rolls for which side marches first this turn.
pub fn roll_initiative(dice: &mut dyn Dice, turn: u32, log: &mut Log) -> Side {
    let roll = dice.roll(6);
    let first = if roll <= RED_FIRST_UP_TO {
        Side::Red
    } else {
        Side::Blue
    };
    log.add(|| {
        let text = format!(
            "turn {turn}: d6 rolled {roll} (1–{RED_FIRST_UP_TO} red, {}–6 blue): {first} marches first",
            RED_FIRST_UP_TO + 1
        );
        Event::new("initiative", RULE, text)
            .side(first)
            .opens_turn()
    });
    first
}

/// Room a unit takes in a hex, in figures: a man or cavalryman is one, a gun `gun_room`.
pub fn room(unit: &Unit, table: &TableRules) -> u32 {
    match unit.arm {
        Arm::Artillery => unit.figures * table.gun_room,
        Arm::Infantry | Arm::Cavalry => unit.figures,
    }
}

/// Why troops may not share one hex.
#[derive(Clone, Copy, Debug)]
pub enum StackingProblem {
    /// Cavalry with infantry or guns.
    Mixed,
    /// More room taken, in figures, than the hex holds.
    Crowded { room: u32, table: TableRules },
}

impl fmt::Display for StackingProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StackingProblem::Mixed => {
                f.write_str("cavalry may not share a hex with infantry or guns")
            }
            StackingProblem::Crowded { room, table } => write!(
                f,
                "{room} figures' room (a gun takes {}) is more than the {} a hex holds",
                table.gun_room, table.hex_capacity
            ),
        }
    }
}

/// What is wrong with these troops sharing one hex, if anything: cavalry stands alone, foot
/// and guns may share, and only so much fits. Asked of every hex a unit might step into, so
/// it reads the troops once and writes no words until the problem is shown.
pub fn stacking_problem<'a>(
    troops: impl IntoIterator<Item = &'a Unit>,
    table: &TableRules,
) -> Option<StackingProblem> {
    let (mut cavalry, mut foot_or_guns, mut room_taken) = (false, false, 0);
    for u in troops {
        cavalry |= u.arm == Arm::Cavalry;
        foot_or_guns |= u.arm != Arm::Cavalry;
        room_taken += room(u, table);
    }
    if cavalry && foot_or_guns {
        return Some(StackingProblem::Mixed);
    }
    (room_taken > table.hex_capacity).then_some(StackingProblem::Crowded {
        room: room_taken,
        table: *table,
    })
}

impl StandAndDieGame {
    fn check_own_unit(&self, unit: usize) -> Result<&Unit, Illegal> {
        let u = &self.units[unit];
        if !u.on_table() {
            return Err(Illegal::new(format!("{} has been destroyed", u.label())));
        }
        if self.phase != Phase::March(u.side) {
            return Err(Illegal::new(format!(
                "{} may act only in {}'s march",
                u.label(),
                u.side
            )));
        }
        Ok(u)
    }

    pub fn check_march(&self, unit: usize, to: Hex) -> Result<(), Illegal> {
        let u = self.check_own_unit(unit)?;
        let allowance = march_allowance(u.arm);
        if u.marched >= allowance {
            return Err(Illegal::new(format!(
                "{} has marched its {allowance} hex(es) for {} this turn",
                u.label(),
                u.arm.name()
            )));
        }
        if distance(u.hex, to) != 1 {
            return Err(Illegal::new(format!(
                "{} is not next to {}'s hex {}: march one hex at a time",
                label(to),
                u.label(),
                label(u.hex)
            )));
        }
        if !self.map().contains(to) {
            return Err(Illegal::new(format!("{} is off the map", label(to))));
        }
        water::check_enterable(self.map(), to, self.table().fords_open, &self.setting.boats)?;
        if self.holder(to) == Some(u.side.other()) {
            return Err(Illegal::new(format!(
                "{} is held by the enemy: never enter an enemy hex",
                label(to)
            )));
        }
        if let Some(problem) = self.arrival_problem(u, to) {
            return Err(Illegal::new(format!("{problem} ({})", label(to))));
        }
        Ok(())
    }

    /// What would be wrong with the troops in `to` once `u` joined them.
    fn arrival_problem(&self, u: &Unit, to: Hex) -> Option<StackingProblem> {
        let troops = self.troops_in(to).map(|(_, t)| t).chain([u]);
        stacking_problem(troops, &self.table())
    }

    /// Where a unit may march next, while it has hexes of march left: each hex next to it
    /// that is on the map and dry, not the enemy's, and with room for it (what `check_march`
    /// allows, found without writing the reasons for what it refuses).
    pub fn march_steps(&self, unit: usize) -> impl Iterator<Item = Hex> + '_ {
        let u = &self.units[unit];
        let marching = u.marched < march_allowance(u.arm);
        let (fords_open, boats) = (self.table().fords_open, &self.setting.boats);
        Facing::ALL
            .into_iter()
            .filter(move |_| marching)
            .map(move |f| step(u.hex, f))
            .filter(move |&to| {
                water::enterable(self.map(), to, fords_open, boats)
                    && self.holder(to) != Some(u.side.other())
                    && self.arrival_problem(u, to).is_none()
            })
    }

    /// One hex of march. Joining friends, the unit takes up their facing: a hex faces one way.
    pub fn march(&mut self, unit: usize, to: Hex, log: &mut Log) {
        let joined = self.hex_facing(to);
        let from = self.units[unit].hex;
        self.relocate(unit, to);
        let u = &mut self.units[unit];
        u.marched += 1;
        u.turned = false;
        if let Some(f) = joined {
            u.facing = f;
        }
        let u = &self.units[unit];
        log.add(|| {
            let mut text = format!(
                "{} marches {} → {} ({} of {} hexes)",
                u.label(),
                label(from),
                label(to),
                u.marched,
                march_allowance(u.arm)
            );
            if joined.is_some() {
                text.push_str(&format!(
                    ", joins the troops there and faces {} with them",
                    u.facing
                ));
            }
            Event::new("move", RULE, text)
                .side(u.side)
                .units([u.id.clone()])
        });
        self.lift_marker_if_empty(from);
    }

    /// The hexes a unit can still march to this turn, a hex of march each (the map's
    /// overlay); none outside its side's march.
    pub fn march_reach(&self, unit: usize) -> Vec<Reach> {
        if self.phase != Phase::March(self.units[unit].side) {
            return Vec::new();
        }
        reach_by_steps(self.clone(), self.units[unit].hex, |g: &StandAndDieGame| {
            Facing::ALL
                .into_iter()
                .map(|f| step(g.units[unit].hex, f))
                .filter(|&to| g.check_march(unit, to).is_ok())
                .map(|to| {
                    let mut after = g.clone();
                    after.march(unit, to, &mut Log::silent());
                    (to, after)
                })
                .collect()
        })
    }

    pub fn check_face(&self, unit: usize, facing: Facing) -> Result<(), Illegal> {
        let u = self.check_own_unit(unit)?;
        if u.facing == facing {
            return Err(Illegal::new(format!(
                "{} already faces {facing}",
                u.label()
            )));
        }
        if u.turned {
            return Err(Illegal::new(format!(
                "{} has already turned at this stop: it may turn again after its next step",
                u.label()
            )));
        }
        Ok(())
    }

    /// The facings a unit may turn to where it stands: any other, once at each stop.
    pub fn turns(&self, unit: usize) -> impl Iterator<Item = Facing> + '_ {
        let u = &self.units[unit];
        Facing::ALL
            .into_iter()
            .filter(move |&f| !u.turned && f != u.facing)
    }

    /// Turns a unit and every friend sharing its hex: the hex faces one hexside.
    pub fn face(&mut self, unit: usize, facing: Facing, log: &mut Log) {
        let hex = self.units[unit].hex;
        let side = self.units[unit].side;
        let was = self.units[unit].facing;
        let sharing: Vec<usize> = self.troops_in(hex).map(|(i, _)| i).collect();
        for &i in &sharing {
            let u = &mut self.units[i];
            u.facing = facing;
            u.turned = true;
        }
        log.add(|| {
            let ids: Vec<&str> = sharing.iter().map(|&i| self.units[i].id.as_str()).collect();
            Event::new(
                "face",
                RULE,
                format!(
                    "{} in {} turn from {was} to face {facing}",
                    ids.join(", "),
                    label(hex)
                ),
            )
            .side(side)
            .units(ids)
        });
    }

    pub fn check_marker(&self, hex: Hex, standing: bool) -> Result<(), Illegal> {
        let Phase::March(side) = self.phase else {
            return Err(Illegal::new(
                "Standing markers are set in the owner's march",
            ));
        };
        if self.holder(hex) != Some(side) {
            return Err(Illegal::new(format!(
                "{side} holds no troops in {}",
                label(hex)
            )));
        }
        if self.is_standing(hex) == standing {
            return Err(Illegal::new(format!(
                "{} is already {}",
                label(hex),
                if standing {
                    "marked Standing"
                } else {
                    "ordered to fall back under pressure"
                }
            )));
        }
        if self.marks_changed.contains(&hex) {
            return Err(Illegal::new(format!(
                "{}'s marker has already been changed in this march",
                label(hex)
            )));
        }
        Ok(())
    }

    /// The marker order a hex the marching side holds may still be given in this march: to
    /// stand if it would fall back, or to fall back if it stands; once a march.
    pub fn marker_order(&self, hex: Hex) -> Option<Order> {
        if self.marks_changed.contains(&hex) {
            None
        } else if self.is_standing(hex) {
            Some(Order::FallBack { hex })
        } else {
            Some(Order::Stand { hex })
        }
    }

    /// Marks a hex Standing, or lifts the marker so that it falls back under pressure.
    pub fn set_marker(&mut self, hex: Hex, standing: bool, log: &mut Log) {
        if standing {
            self.standing.push(hex);
        } else {
            self.standing.retain(|h| *h != hex);
        }
        self.marks_changed.push(hex);
        log.add(|| {
            let ids = self.troops_in(hex).map(|(_, u)| u.id.as_str());
            let side = self
                .holder(hex)
                .expect("checked: the marching side holds the hex");
            let text = if standing {
                format!("{} is marked Standing: it will stand and die", label(hex))
            } else {
                format!(
                    "{}'s Standing marker is lifted: it will fall back under pressure",
                    label(hex)
                )
            };
            Event::new(if standing { "stand" } else { "fall-back" }, RULE, text)
                .side(side)
                .units(ids)
        });
    }
}
