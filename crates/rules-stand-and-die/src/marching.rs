//! Marching (the rules' first paragraph): the roll for who marches first, how far each arm
//! marches, what may share a hex and how much fits, facing, and the Standing marker.

use crate::state::{Phase, StandAndDieGame, TableRules};
use crate::troops::{Arm, Unit};
use crate::water;
use volley_core::geometry::{distance, label, Facing};
use volley_core::{Dice, Event, Hex, Illegal, Side};

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
pub fn roll_initiative(dice: &mut dyn Dice, turn: u32) -> (Side, Event) {
    let roll = dice.roll(6);
    let first = if roll <= RED_FIRST_UP_TO {
        Side::Red
    } else {
        Side::Blue
    };
    let text = format!(
        "turn {turn}: d6 rolled {roll} (1–{RED_FIRST_UP_TO} red, {}–6 blue): {first} marches first",
        RED_FIRST_UP_TO + 1
    );
    (
        first,
        Event::new("initiative", RULE, text)
            .side(first)
            .opens_turn(),
    )
}

/// Room a unit takes in a hex, in figures: a man or cavalryman is one, a gun `gun_room`.
pub fn room(unit: &Unit, table: &TableRules) -> u32 {
    match unit.arm {
        Arm::Artillery => unit.figures * table.gun_room,
        Arm::Infantry | Arm::Cavalry => unit.figures,
    }
}

/// What is wrong with these troops sharing one hex, if anything: cavalry stands alone, foot
/// and guns may share, and only so much fits.
pub fn stacking_problem<'a>(
    troops: impl IntoIterator<Item = &'a Unit>,
    table: &TableRules,
) -> Option<String> {
    let troops: Vec<&Unit> = troops.into_iter().collect();
    let cavalry = troops.iter().any(|u| u.arm == Arm::Cavalry);
    let foot_or_guns = troops.iter().any(|u| u.arm != Arm::Cavalry);
    if cavalry && foot_or_guns {
        return Some("cavalry may not share a hex with infantry or guns".into());
    }
    let room: u32 = troops.iter().map(|u| room(u, table)).sum();
    (room > table.hex_capacity).then(|| {
        format!(
            "{room} figures' room (a gun takes {}) is more than the {} a hex holds",
            table.gun_room, table.hex_capacity
        )
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
        water::check_enterable(self.map(), to, self.table().fords_open)?;
        if self.holder(to) == Some(u.side.other()) {
            return Err(Illegal::new(format!(
                "{} is held by the enemy: never enter an enemy hex",
                label(to)
            )));
        }
        let mut arrived = u.clone();
        arrived.hex = to;
        let troops = self
            .troops_in(to)
            .map(|(_, t)| t)
            .chain(std::iter::once(&arrived));
        if let Some(problem) = stacking_problem(troops, &self.table()) {
            return Err(Illegal::new(format!("{problem} ({})", label(to))));
        }
        Ok(())
    }

    /// One hex of march. Joining friends, the unit takes up their facing: a hex faces one way.
    pub fn march(&mut self, unit: usize, to: Hex) -> Event {
        let joined = self.hex_facing(to);
        let u = &mut self.units[unit];
        let from = u.hex;
        u.hex = to;
        u.marched += 1;
        u.turned = false;
        if let Some(f) = joined {
            u.facing = f;
        }
        let u = &self.units[unit];
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
        let event = Event::new("move", RULE, text)
            .side(u.side)
            .units([u.id.clone()]);
        self.lift_marker_if_empty(from);
        event
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

    /// Turns a unit and every friend sharing its hex: the hex faces one hexside.
    pub fn face(&mut self, unit: usize, facing: Facing) -> Event {
        let hex = self.units[unit].hex;
        let side = self.units[unit].side;
        let was = self.units[unit].facing;
        let mut ids = Vec::new();
        for u in self
            .units
            .iter_mut()
            .filter(|u| u.on_table() && u.hex == hex && u.side == side)
        {
            u.facing = facing;
            u.turned = true;
            ids.push(u.id.clone());
        }
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

    /// Marks a hex Standing, or lifts the marker so that it falls back under pressure.
    pub fn set_marker(&mut self, hex: Hex, standing: bool) -> Event {
        if standing {
            self.standing.push(hex);
        } else {
            self.standing.retain(|h| *h != hex);
        }
        self.marks_changed.push(hex);
        let ids: Vec<String> = self.troops_in(hex).map(|(_, u)| u.id.to_string()).collect();
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
    }
}
