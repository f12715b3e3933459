//! The players' decisions as Volley actions: packed into 64 bits and written in a short text
//! form that names units by id, e.g. `order hq1 r2 charge`, `move r2 0405`, `fire r2 b3`,
//! `fire g1 b3 shell`, `form r2 attack`, `charge r2 b3`, `end`.

use crate::artillery::Ammo;
use crate::state::BptGame;
use crate::troops::Formation;
use volley_core::geometry::{col_row, hex_at, label, parse_label, Facing};
use volley_core::{Action, Hex, Illegal};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Order {
    /// Ends the phase, or the answer to an interrupt.
    End,
    /// Fires at an enemy unit with the ammunition named (small arms and round shot are
    /// `Ammo::Normal`; canister goes into the gun's cone).
    Fire {
        unit: usize,
        target: usize,
        ammo: Ammo,
    },
    Charge {
        unit: usize,
        target: usize,
    },
    /// Moves straight away from the nearest visible enemy (or from a charger).
    Evade {
        unit: usize,
    },
    /// Moves to a hex within the move allowance (a command unit's move, too).
    Move {
        unit: usize,
        to: Hex,
    },
    /// Turns one hexside to the left or right as a move.
    Wheel {
        unit: usize,
        right: bool,
    },
    AboutFace {
        unit: usize,
    },
    /// Steps back keeping the facing.
    Retire {
        unit: usize,
    },
    /// Guns on prolonge: back, still ready to fire.
    Prolonge {
        unit: usize,
    },
    /// A deploy action into a new formation.
    Form {
        unit: usize,
        formation: Formation,
    },
    Limber {
        unit: usize,
    },
    Unlimber {
        unit: usize,
        facing: Facing,
    },
    /// A deploy action turning an unlimbered gun (or man-handling it to face a charge).
    Pivot {
        unit: usize,
        facing: Facing,
    },
    /// Refuses a flank (-1 left, +1 right) or brings it back (0).
    Refuse {
        unit: usize,
        side: i8,
    },
    /// Names a unit for the next order, with the others named: a formation of units.
    Join {
        unit: usize,
    },
    /// A command roll: the command unit `hq` orders `unit` and the units joined to it, with
    /// the modifiers for charging a near enemy and for dense terrain declared up front.
    Command {
        hq: usize,
        unit: usize,
        charge: bool,
        dense: bool,
    },
    /// An isolated unit orders itself to move towards its nearest command unit.
    SelfOrder {
        unit: usize,
    },
    /// Forms square against a cavalry charge.
    Square {
        unit: usize,
    },
    CounterCharge {
        unit: usize,
    },
    /// Moves beside a friend in contact, supporting its charge.
    Support {
        unit: usize,
        friend: usize,
    },
    /// Goes prone (`down`) or stands up again (the optional Prone Movement rule).
    Prone {
        unit: usize,
        down: bool,
    },
    /// The CO moves a unit of its own formation to another command unit's (Fixed Formations).
    Transfer {
        unit: usize,
        hq: usize,
    },
    /// Cavalry dismount (`mount` false) or mount again.
    Dismount {
        unit: usize,
        mount: bool,
    },
    /// An engineering task at a hex (Engineering).
    Task {
        unit: usize,
        task: crate::works::Task,
        hex: Hex,
    },
}

const KIND_SHIFT: u32 = 56;
const UNIT_SHIFT: u32 = 44;
const TARGET_SHIFT: u32 = 32;
const SMALL_SHIFT: u32 = 24;
const MASK12: u64 = 0xfff;
const MASK8: u64 = 0xff;

/// The most units a scenario may have (12 bits of an action).
pub const MAX_UNITS: usize = 4095;

fn pack_hex(hex: Hex) -> u64 {
    let (c, r) = col_row(hex);
    ((c as u64 & MASK12) << 12) | (r as u64 & MASK12)
}

fn unpack_hex(bits: u64) -> Hex {
    hex_at(((bits >> 12) & MASK12) as i32, (bits & MASK12) as i32)
}

impl Order {
    pub fn pack(self) -> Action {
        let (kind, unit, target, small, hex): (u64, usize, usize, u64, u64) = match self {
            Order::End => (0, 0, 0, 0, 0),
            Order::Fire { unit, target, ammo } => (1, unit, target, ammo.index(), 0),
            Order::Charge { unit, target } => (2, unit, target, 0, 0),
            Order::Evade { unit } => (3, unit, 0, 0, 0),
            Order::Move { unit, to } => (4, unit, 0, 0, pack_hex(to)),
            Order::Wheel { unit, right } => (5, unit, 0, right as u64, 0),
            Order::AboutFace { unit } => (6, unit, 0, 0, 0),
            Order::Retire { unit } => (7, unit, 0, 0, 0),
            Order::Prolonge { unit } => (8, unit, 0, 0, 0),
            Order::Form { unit, formation } => (9, unit, 0, formation.index(), 0),
            Order::Limber { unit } => (10, unit, 0, 0, 0),
            Order::Unlimber { unit, facing } => (11, unit, 0, facing.index() as u64, 0),
            Order::Pivot { unit, facing } => (12, unit, 0, facing.index() as u64, 0),
            Order::Refuse { unit, side } => (13, unit, 0, (side + 1) as u64, 0),
            Order::Join { unit } => (14, unit, 0, 0, 0),
            Order::Command {
                hq,
                unit,
                charge,
                dense,
            } => (15, hq, unit, charge as u64 | (dense as u64) << 1, 0),
            Order::SelfOrder { unit } => (16, unit, 0, 0, 0),
            Order::Square { unit } => (17, unit, 0, 0, 0),
            Order::CounterCharge { unit } => (18, unit, 0, 0, 0),
            Order::Support { unit, friend } => (19, unit, friend, 0, 0),
            Order::Prone { unit, down } => (20, unit, 0, down as u64, 0),
            Order::Transfer { unit, hq } => (21, unit, hq, 0, 0),
            Order::Task { unit, task, hex } => (22, unit, 0, task.index(), pack_hex(hex)),
            Order::Dismount { unit, mount } => (23, unit, 0, mount as u64, 0),
        };
        Action(
            kind << KIND_SHIFT
                | (unit as u64 & MASK12) << UNIT_SHIFT
                | (target as u64 & MASK12) << TARGET_SHIFT
                | (small & MASK8) << SMALL_SHIFT
                | hex,
        )
    }

    pub fn unpack(action: Action) -> Option<Order> {
        let b = action.0;
        let unit = ((b >> UNIT_SHIFT) & MASK12) as usize;
        let target = ((b >> TARGET_SHIFT) & MASK12) as usize;
        let small = (b >> SMALL_SHIFT) & MASK8;
        let hex = b & 0xff_ffff;
        let facing = || (small < 6).then(|| Facing::from_index(small as u8));
        let order = match b >> KIND_SHIFT {
            0 if b == 0 => Order::End,
            1 => Order::Fire {
                unit,
                target,
                ammo: Ammo::from_index(small)?,
            },
            2 => Order::Charge { unit, target },
            3 => Order::Evade { unit },
            4 => Order::Move {
                unit,
                to: unpack_hex(hex),
            },
            5 if small < 2 => Order::Wheel {
                unit,
                right: small == 1,
            },
            6 => Order::AboutFace { unit },
            7 => Order::Retire { unit },
            8 => Order::Prolonge { unit },
            9 => Order::Form {
                unit,
                formation: Formation::from_index(small)?,
            },
            10 => Order::Limber { unit },
            11 => Order::Unlimber {
                unit,
                facing: facing()?,
            },
            12 => Order::Pivot {
                unit,
                facing: facing()?,
            },
            13 if small < 3 => Order::Refuse {
                unit,
                side: small as i8 - 1,
            },
            14 => Order::Join { unit },
            15 if small < 4 => Order::Command {
                hq: unit,
                unit: target,
                charge: small & 1 == 1,
                dense: small & 2 == 2,
            },
            16 => Order::SelfOrder { unit },
            17 => Order::Square { unit },
            18 => Order::CounterCharge { unit },
            19 => Order::Support {
                unit,
                friend: target,
            },
            20 if small < 2 => Order::Prone {
                unit,
                down: small == 1,
            },
            21 => Order::Transfer { unit, hq: target },
            23 if small < 2 => Order::Dismount {
                unit,
                mount: small == 1,
            },
            22 => Order::Task {
                unit,
                task: crate::works::Task::from_index(small)?,
                hex: unpack_hex(hex),
            },
            _ => return None,
        };
        (order.pack() == action).then_some(order)
    }

    /// The units an order names, for checking that they exist.
    pub fn units(self) -> Vec<usize> {
        match self {
            Order::End => vec![],
            Order::Fire { unit, target, .. } | Order::Charge { unit, target } => vec![unit, target],
            Order::Command { hq, unit, .. } => vec![hq, unit],
            Order::Support { unit, friend } => vec![unit, friend],
            Order::Transfer { unit, hq } => vec![unit, hq],
            Order::Evade { unit }
            | Order::Move { unit, .. }
            | Order::Wheel { unit, .. }
            | Order::AboutFace { unit }
            | Order::Retire { unit }
            | Order::Prolonge { unit }
            | Order::Form { unit, .. }
            | Order::Limber { unit }
            | Order::Unlimber { unit, .. }
            | Order::Pivot { unit, .. }
            | Order::Refuse { unit, .. }
            | Order::Join { unit }
            | Order::SelfOrder { unit }
            | Order::Square { unit }
            | Order::CounterCharge { unit }
            | Order::Prone { unit, .. }
            | Order::Task { unit, .. }
            | Order::Dismount { unit, .. } => vec![unit],
        }
    }

    /// The acting unit, if one acts.
    pub fn actor(self) -> Option<usize> {
        match self {
            Order::End => None,
            Order::Command { hq, .. } => Some(hq),
            _ => self.units().first().copied(),
        }
    }
}

impl BptGame {
    pub fn write_order(&self, o: Order) -> String {
        let id = |k: usize| self.units[k].id.to_string();
        match o {
            Order::End => "end".into(),
            Order::Fire { unit, target, ammo } => match ammo {
                Ammo::Normal => format!("fire {} {}", id(unit), id(target)),
                Ammo::Canister => format!("canister {} {}", id(unit), id(target)),
                _ => format!("fire {} {} {}", id(unit), id(target), ammo.word()),
            },
            Order::Charge { unit, target } => format!("charge {} {}", id(unit), id(target)),
            Order::Evade { unit } => format!("evade {}", id(unit)),
            Order::Move { unit, to } => format!("move {} {}", id(unit), label(to)),
            Order::Wheel { unit, right } => {
                format!(
                    "wheel {} {}",
                    id(unit),
                    if right { "right" } else { "left" }
                )
            }
            Order::AboutFace { unit } => format!("about-face {}", id(unit)),
            Order::Retire { unit } => format!("retire {}", id(unit)),
            Order::Prolonge { unit } => format!("prolonge {}", id(unit)),
            Order::Form { unit, formation } => format!("form {} {}", id(unit), formation.word()),
            Order::Limber { unit } => format!("limber {}", id(unit)),
            Order::Unlimber { unit, facing } => format!("unlimber {} {}", id(unit), facing.name()),
            Order::Pivot { unit, facing } => format!("pivot {} {}", id(unit), facing.name()),
            Order::Refuse { unit, side } => format!(
                "refuse {} {}",
                id(unit),
                match side {
                    -1 => "left",
                    1 => "right",
                    _ => "none",
                }
            ),
            Order::Join { unit } => format!("join {}", id(unit)),
            Order::Command {
                hq,
                unit,
                charge,
                dense,
            } => format!(
                "order {} {}{}{}",
                id(hq),
                id(unit),
                if charge { " charge" } else { "" },
                if dense { " dense" } else { "" }
            ),
            Order::SelfOrder { unit } => format!("self-order {}", id(unit)),
            Order::Square { unit } => format!("square {}", id(unit)),
            Order::CounterCharge { unit } => format!("countercharge {}", id(unit)),
            Order::Support { unit, friend } => format!("support {} {}", id(unit), id(friend)),
            Order::Prone { unit, down } => {
                format!("{} {}", if down { "prone" } else { "rise" }, id(unit))
            }
            Order::Transfer { unit, hq } => format!("transfer {} {}", id(unit), id(hq)),
            Order::Task { unit, task, hex } => {
                format!("{} {} {}", task.word(), id(unit), label(hex))
            }
            Order::Dismount { unit, mount } => {
                format!("{} {}", if mount { "mount" } else { "dismount" }, id(unit))
            }
        }
    }

    pub fn read_order(&self, text: &str) -> Result<Order, Illegal> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let unit = |i: usize| -> Result<usize, Illegal> {
            let w = words
                .get(i)
                .ok_or_else(|| Illegal::new(format!("\"{text}\" is missing a unit id")))?;
            self.units
                .iter()
                .position(|u| &*u.id == *w)
                .ok_or_else(|| Illegal::new(format!("there is no unit \"{w}\"")))
        };
        let word = |i: usize, what: &str| -> Result<&str, Illegal> {
            words
                .get(i)
                .copied()
                .ok_or_else(|| Illegal::new(format!("\"{text}\" is missing {what}")))
        };
        let facing = |i: usize| -> Result<Facing, Illegal> {
            let w = word(i, "a facing (N, NE, SE, S, SW, NW)")?;
            Facing::parse(w).ok_or_else(|| Illegal::new(format!("\"{w}\" is not a facing")))
        };
        let order = match words.first().copied().unwrap_or("") {
            "end" | "done" | "pass" => Order::End,
            "fire" => {
                let (u, t) = (unit(1)?, unit(2)?);
                let ammo = match words.get(3) {
                    None => self.default_ammo(u),
                    Some(w) => Ammo::parse(w).ok_or_else(|| {
                        Illegal::new(format!(
                            "\"{w}\" is not ammunition: shot, shell, airburst, canister"
                        ))
                    })?,
                };
                Order::Fire { unit: u, target: t, ammo }
            }
            "canister" => Order::Fire { unit: unit(1)?, target: unit(2)?, ammo: Ammo::Canister },
            "charge" => Order::Charge { unit: unit(1)?, target: unit(2)? },
            "evade" => Order::Evade { unit: unit(1)? },
            "move" => {
                let w = word(2, "a hex")?;
                Order::Move {
                    unit: unit(1)?,
                    to: parse_label(w)
                        .ok_or_else(|| Illegal::new(format!("\"{w}\" is not a hex label")))?,
                }
            }
            "wheel" => Order::Wheel {
                unit: unit(1)?,
                right: match word(2, "left or right")? {
                    "left" => false,
                    "right" => true,
                    w => return Err(Illegal::new(format!("wheel \"{w}\"? left or right"))),
                },
            },
            "about-face" => Order::AboutFace { unit: unit(1)? },
            "retire" => Order::Retire { unit: unit(1)? },
            "prolonge" => Order::Prolonge { unit: unit(1)? },
            "form" => {
                let w = word(2, "a formation")?;
                Order::Form {
                    unit: unit(1)?,
                    formation: Formation::parse(w).ok_or_else(|| {
                        Illegal::new(format!(
                            "\"{w}\" is not a formation: line, extended, march, attack, square"
                        ))
                    })?,
                }
            }
            "limber" => Order::Limber { unit: unit(1)? },
            "unlimber" => Order::Unlimber { unit: unit(1)?, facing: facing(2)? },
            "pivot" => Order::Pivot { unit: unit(1)?, facing: facing(2)? },
            "refuse" => Order::Refuse {
                unit: unit(1)?,
                side: match word(2, "left, right or none")? {
                    "left" => -1,
                    "right" => 1,
                    "none" => 0,
                    w => return Err(Illegal::new(format!("refuse \"{w}\"? left, right or none"))),
                },
            },
            "join" => Order::Join { unit: unit(1)? },
            "order" => Order::Command {
                hq: unit(1)?,
                unit: unit(2)?,
                charge: words[3..].contains(&"charge"),
                dense: words[3..].contains(&"dense"),
            },
            "self-order" => Order::SelfOrder { unit: unit(1)? },
            "square" => Order::Square { unit: unit(1)? },
            "countercharge" => Order::CounterCharge { unit: unit(1)? },
            "support" => Order::Support { unit: unit(1)?, friend: unit(2)? },
            "prone" => Order::Prone { unit: unit(1)?, down: true },
            "rise" => Order::Prone { unit: unit(1)?, down: false },
            "transfer" => Order::Transfer { unit: unit(1)?, hq: unit(2)? },
            "dismount" => Order::Dismount { unit: unit(1)?, mount: false },
            "mount" => Order::Dismount { unit: unit(1)?, mount: true },
            w @ ("clear" | "demolish" | "bridge" | "sap" | "mine") => {
                let task = crate::works::Task::ALL
                    .into_iter()
                    .find(|t| t.word() == w)
                    .expect("listed");
                let at = match words.get(2) {
                    Some(h) => parse_label(h)
                        .ok_or_else(|| Illegal::new(format!("\"{h}\" is not a hex label")))?,
                    None if task == crate::works::Task::Sap => self.units[unit(1)?].hex,
                    None => return Err(Illegal::new(format!("\"{text}\" is missing a hex"))),
                };
                Order::Task { unit: unit(1)?, task, hex: at }
            }
            w => {
                return Err(Illegal::new(format!(
                    "\"{w}\" is not an action here: order, join, move, wheel, about-face, retire, prolonge, form, limber, unlimber, pivot, refuse, fire, canister, charge, evade, square, countercharge, support, prone, rise, transfer, dismount, mount, clear, demolish, bridge, sap, mine, self-order, end"
                )))
            }
        };
        Ok(order)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_order_packs_and_unpacks() {
        let h = hex_at(12, 7);
        let all = [
            Order::End,
            Order::Fire {
                unit: 3,
                target: 40,
                ammo: Ammo::Canister,
            },
            Order::Fire {
                unit: 3,
                target: 40,
                ammo: Ammo::AirBurst,
            },
            Order::Charge {
                unit: 4095,
                target: 1,
            },
            Order::Evade { unit: 2 },
            Order::Move { unit: 9, to: h },
            Order::Wheel {
                unit: 9,
                right: true,
            },
            Order::AboutFace { unit: 1 },
            Order::Retire { unit: 1 },
            Order::Prolonge { unit: 1 },
            Order::Form {
                unit: 1,
                formation: Formation::Square,
            },
            Order::Limber { unit: 7 },
            Order::Unlimber {
                unit: 7,
                facing: Facing::SW,
            },
            Order::Pivot {
                unit: 7,
                facing: Facing::NW,
            },
            Order::Refuse { unit: 7, side: -1 },
            Order::Join { unit: 5 },
            Order::Command {
                hq: 0,
                unit: 5,
                charge: true,
                dense: true,
            },
            Order::SelfOrder { unit: 5 },
            Order::Square { unit: 5 },
            Order::CounterCharge { unit: 5 },
            Order::Support { unit: 5, friend: 6 },
            Order::Prone {
                unit: 5,
                down: true,
            },
            Order::Prone {
                unit: 5,
                down: false,
            },
            Order::Transfer { unit: 5, hq: 2 },
            Order::Dismount {
                unit: 5,
                mount: true,
            },
            Order::Task {
                unit: 5,
                task: crate::works::Task::Bridge,
                hex: h,
            },
        ];
        for o in all {
            assert_eq!(Order::unpack(o.pack()), Some(o), "{o:?}");
        }
        assert_eq!(Order::unpack(Action(u64::MAX)), None);
    }
}
