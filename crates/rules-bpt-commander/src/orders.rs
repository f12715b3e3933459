//! The players' decisions as Volley actions ("Actions", "Orders"): the [`Order`] each is, its
//! packing into 64 bits with [`volley_core::codec`], its notation, which names units by id
//! (`order hq1 r2 charge`, `move r2 0405`, `fire r2 b3`, `fire g1 b3 shell`, `form r2 attack`,
//! `charge r2 b3`, `end`), its reading with [`Words`], and what the browser is told of it
//! ([`describe`]). The words an order carries — a gun's ammunition, an engineer's task — are
//! here with it.
//!
//! The packed layout is fixed (the bots break ties and seed shuffles with it): the kind in the
//! top 8 bits (56–63), the acting unit in 12 bits at 44, a second unit in 12 bits at 32, a small
//! value (ammunition, formation, facing, side, flags, task) in 8 bits at 24, and a hex as row
//! and column in the low 24 bits.

use crate::troops::{Formation, Unit};
use volley_core::codec::{hex_row_col, row_col_hex, Bits, Codec, Words};
use volley_core::geometry::{label, Facing};
use volley_core::{Action, ActionInfo, ActionKind, Hex, Illegal, Place};

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
        task: Task,
        hex: Hex,
    },
}

/// What a gun loads ("Artillery Ammunition").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ammo {
    /// Small arms; for guns, round shot.
    Normal,
    Canister,
    /// Shell, bursting where it lands (shrapnel after 1845).
    Shell,
    /// Shell with the fuse cut short, bursting over the target (optional rule).
    AirBurst,
}

impl Ammo {
    pub const ALL: [Ammo; 4] = [Ammo::Normal, Ammo::Canister, Ammo::Shell, Ammo::AirBurst];

    pub fn index(self) -> u64 {
        match self {
            Ammo::Normal => 0,
            Ammo::Canister => 1,
            Ammo::Shell => 2,
            Ammo::AirBurst => 3,
        }
    }

    pub fn from_index(i: u64) -> Option<Ammo> {
        Ammo::ALL.get(i as usize).copied()
    }

    /// The word of the notation: `fire GUN TARGET shell`.
    pub fn word(self) -> &'static str {
        match self {
            Ammo::Normal => "shot",
            Ammo::Canister => "canister",
            Ammo::Shell => "shell",
            Ammo::AirBurst => "airburst",
        }
    }

    pub fn parse(w: &str) -> Option<Ammo> {
        Some(match w {
            "shot" | "roundshot" | "round-shot" => Ammo::Normal,
            "canister" => Ammo::Canister,
            "shell" | "shrapnel" => Ammo::Shell,
            "airburst" | "air-burst" => Ammo::AirBurst,
            _ => return None,
        })
    }

    /// The ammunition `fire UNIT TARGET` means: shell for high-angle guns, else small arms or
    /// round shot.
    pub fn default_for(u: &Unit) -> Ammo {
        if u.high_angle() {
            Ammo::Shell
        } else {
            Ammo::Normal
        }
    }

    pub fn is_shell(self) -> bool {
        matches!(self, Ammo::Shell | Ammo::AirBurst)
    }
}

/// An engineering task.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Task {
    /// Clear an obstacle of wire or stakes in the next hex (3+ on a die).
    Clear,
    /// Demolish a ditch, a work or a wall in the next hex or on the hexside (4+).
    Demolish,
    /// Bridge water or a ditch in the next hex (no roll: a section a bridging unit a phase).
    Bridge,
    /// Dig a trench in the engineers' own hex (sapping, 5 cm a phase).
    Sap,
    /// From a trench, dig a mine the 5 cm under the works in the next hex and blow them (no
    /// roll).
    Mine,
}

impl Task {
    pub const ALL: [Task; 5] = [
        Task::Clear,
        Task::Demolish,
        Task::Bridge,
        Task::Sap,
        Task::Mine,
    ];

    pub fn word(self) -> &'static str {
        match self {
            Task::Clear => "clear",
            Task::Demolish => "demolish",
            Task::Bridge => "bridge",
            Task::Sap => "sap",
            Task::Mine => "mine",
        }
    }

    pub fn index(self) -> u64 {
        Task::ALL.iter().position(|&t| t == self).expect("listed") as u64
    }

    pub fn from_index(i: u64) -> Option<Task> {
        Task::ALL.get(i as usize).copied()
    }
}

/// The most units a scenario may have (12 bits of an action).
pub const MAX_UNITS: usize = 4095;

/// The fields of the packed layout: (offset, width).
const KIND: (u32, u32) = (56, 8);
const UNIT: (u32, u32) = (44, 12);
const TARGET: (u32, u32) = (32, 12);
const SMALL: (u32, u32) = (24, 8);
const HEX: (u32, u32) = (0, 24);

impl Codec for Order {
    fn pack(self) -> Action {
        let (kind, unit, target, small, hex): (u64, usize, usize, u64, u64) = match self {
            Order::End => (0, 0, 0, 0, 0),
            Order::Fire { unit, target, ammo } => (1, unit, target, ammo.index(), 0),
            Order::Charge { unit, target } => (2, unit, target, 0, 0),
            Order::Evade { unit } => (3, unit, 0, 0, 0),
            Order::Move { unit, to } => (4, unit, 0, 0, hex_row_col(to)),
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
            Order::Task { unit, task, hex } => (22, unit, 0, task.index(), hex_row_col(hex)),
            Order::Dismount { unit, mount } => (23, unit, 0, mount as u64, 0),
        };
        Bits::new()
            .put(KIND.0, KIND.1, kind)
            .put(UNIT.0, UNIT.1, unit as u64)
            .put(TARGET.0, TARGET.1, target as u64)
            .put(SMALL.0, SMALL.1, small)
            .put(HEX.0, HEX.1, hex)
            .action()
    }

    fn decode(action: Action) -> Option<Order> {
        let b = Bits::from(action);
        let unit = b.get(UNIT.0, UNIT.1) as usize;
        let target = b.get(TARGET.0, TARGET.1) as usize;
        let small = b.get(SMALL.0, SMALL.1);
        let hex = || row_col_hex(b.get(HEX.0, HEX.1));
        let facing = || (small < 6).then(|| Facing::from_index(small as u8));
        Some(match b.get(KIND.0, KIND.1) {
            0 => Order::End,
            1 => Order::Fire {
                unit,
                target,
                ammo: Ammo::from_index(small)?,
            },
            2 => Order::Charge { unit, target },
            3 => Order::Evade { unit },
            4 => Order::Move { unit, to: hex() },
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
            22 => Order::Task {
                unit,
                task: Task::from_index(small)?,
                hex: hex(),
            },
            23 if small < 2 => Order::Dismount {
                unit,
                mount: small == 1,
            },
            _ => return None,
        })
    }
}

impl Order {
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

/// The order an action packs, if it is one whose units are all in a game of `units` units.
pub fn of(action: Action, units: usize) -> Result<Order, Illegal> {
    Order::unpack(action)
        .filter(|o| o.units().iter().all(|&k| k < units))
        .ok_or_else(|| Illegal::new(format!("{action:?} is not a Black Powder action")))
}

/// The notation of an order.
pub fn write(o: Order, units: &[Unit]) -> String {
    let id = |k: usize| units[k].id.to_string();
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

/// Reads an order's notation (the verb, then its units by id, then its words).
pub fn read(text: &str, units: &[Unit]) -> Result<Order, Illegal> {
    let mut w = Words::new(text);
    let verb = w.verb();
    let ids = || units.iter().map(|u| &*u.id);
    let unit = |w: &mut Words| w.named(ids(), "unit");
    let order = match verb.as_str() {
        "end" | "done" | "pass" => Order::End,
        "fire" => {
            let (u, t) = (unit(&mut w)?, unit(&mut w)?);
            let ammo = match w.next_word() {
                None => Ammo::default_for(&units[u]),
                Some(a) => Ammo::parse(a).ok_or_else(|| {
                    Illegal::new(format!(
                        "\"{a}\" is not ammunition: shot, shell, airburst, canister"
                    ))
                })?,
            };
            Order::Fire {
                unit: u,
                target: t,
                ammo,
            }
        }
        "canister" => Order::Fire {
            unit: unit(&mut w)?,
            target: unit(&mut w)?,
            ammo: Ammo::Canister,
        },
        "charge" => Order::Charge {
            unit: unit(&mut w)?,
            target: unit(&mut w)?,
        },
        "evade" => Order::Evade {
            unit: unit(&mut w)?,
        },
        "move" => Order::Move {
            unit: unit(&mut w)?,
            to: w.hex()?,
        },
        "wheel" => Order::Wheel {
            unit: unit(&mut w)?,
            right: match w.word("left or right")? {
                "left" => false,
                "right" => true,
                x => return Err(Illegal::new(format!("wheel \"{x}\"? left or right"))),
            },
        },
        "about-face" => Order::AboutFace {
            unit: unit(&mut w)?,
        },
        "retire" => Order::Retire {
            unit: unit(&mut w)?,
        },
        "prolonge" => Order::Prolonge {
            unit: unit(&mut w)?,
        },
        "form" => {
            let u = unit(&mut w)?;
            let f = w.word("a formation")?;
            Order::Form {
                unit: u,
                formation: Formation::parse(f).ok_or_else(|| {
                    Illegal::new(format!(
                        "\"{f}\" is not a formation: line, extended, march, attack, square"
                    ))
                })?,
            }
        }
        "limber" => Order::Limber {
            unit: unit(&mut w)?,
        },
        "unlimber" => Order::Unlimber {
            unit: unit(&mut w)?,
            facing: w.facing()?,
        },
        "pivot" => Order::Pivot {
            unit: unit(&mut w)?,
            facing: w.facing()?,
        },
        "refuse" => Order::Refuse {
            unit: unit(&mut w)?,
            side: match w.word("left, right or none")? {
                "left" => -1,
                "right" => 1,
                "none" => 0,
                x => return Err(Illegal::new(format!("refuse \"{x}\"? left, right or none"))),
            },
        },
        "join" => Order::Join {
            unit: unit(&mut w)?,
        },
        "order" => {
            let (hq, u) = (unit(&mut w)?, unit(&mut w)?);
            let rest = w.rest();
            let said = |x: &str| rest.split(' ').any(|r| r == x);
            Order::Command {
                hq,
                unit: u,
                charge: said("charge"),
                dense: said("dense"),
            }
        }
        "self-order" => Order::SelfOrder {
            unit: unit(&mut w)?,
        },
        "square" => Order::Square {
            unit: unit(&mut w)?,
        },
        "countercharge" => Order::CounterCharge {
            unit: unit(&mut w)?,
        },
        "support" => Order::Support {
            unit: unit(&mut w)?,
            friend: unit(&mut w)?,
        },
        "prone" => Order::Prone {
            unit: unit(&mut w)?,
            down: true,
        },
        "rise" => Order::Prone {
            unit: unit(&mut w)?,
            down: false,
        },
        "transfer" => Order::Transfer {
            unit: unit(&mut w)?,
            hq: unit(&mut w)?,
        },
        "dismount" => Order::Dismount {
            unit: unit(&mut w)?,
            mount: false,
        },
        "mount" => Order::Dismount {
            unit: unit(&mut w)?,
            mount: true,
        },
        v @ ("clear" | "demolish" | "bridge" | "sap" | "mine") => {
            let task = Task::ALL
                .into_iter()
                .find(|t| t.word() == v)
                .expect("listed");
            let u = unit(&mut w)?;
            // Sapping digs where the engineers stand unless a hex is named.
            let hex = if task == Task::Sap && w.done() {
                units[u].hex
            } else {
                w.hex()?
            };
            Order::Task { unit: u, task, hex }
        }
        v => {
            return Err(Illegal::new(format!(
                "\"{v}\" is not an action here: order, join, move, wheel, about-face, retire, prolonge, form, limber, unlimber, pivot, refuse, fire, canister, charge, evade, square, countercharge, support, prone, rise, transfer, dismount, mount, clear, demolish, bridge, sap, mine, self-order, end"
            )))
        }
    };
    Ok(order)
}

/// What the browser is told of an order: its label and kind, the unit acting and the place or
/// facing it aims at.
pub fn describe(o: Order, units: &[Unit]) -> ActionInfo {
    let at = |k: usize| Place::Hex(units[k].hex);
    let info = match o {
        Order::End => return ActionInfo::end(),
        Order::Fire { ammo, target, .. } => ActionInfo::new(
            if ammo == Ammo::Canister {
                "canister"
            } else {
                "fire"
            },
            ActionKind::Attack,
        )
        .at(at(target)),
        Order::Charge { target, .. } => {
            ActionInfo::new("charge", ActionKind::Attack).at(at(target))
        }
        Order::Move { to, .. } => ActionInfo::new("move", ActionKind::Move).at(to),
        Order::Evade { .. } => ActionInfo::new("evade", ActionKind::Other),
        Order::Wheel { unit, right } => ActionInfo::new("wheel", ActionKind::Turn)
            .facing(units[unit].facing.turn(if right { 1 } else { -1 })),
        Order::AboutFace { unit } => {
            ActionInfo::new("about-face", ActionKind::Turn).facing(units[unit].facing.opposite())
        }
        Order::Retire { .. } => ActionInfo::new("retire", ActionKind::Other),
        Order::Prolonge { .. } => ActionInfo::new("prolonge", ActionKind::Other),
        Order::Form { .. } => ActionInfo::new("form", ActionKind::Other),
        Order::Limber { .. } => ActionInfo::new("limber", ActionKind::Other),
        Order::Unlimber { facing, .. } => {
            ActionInfo::new("unlimber", ActionKind::Other).facing(facing)
        }
        Order::Pivot { facing, .. } => ActionInfo::new("pivot", ActionKind::Turn).facing(facing),
        Order::Refuse { .. } => ActionInfo::new("refuse", ActionKind::Other),
        Order::Join { .. } => ActionInfo::new("join", ActionKind::Other),
        Order::Command { .. } => ActionInfo::new("order", ActionKind::Other),
        Order::SelfOrder { .. } => ActionInfo::new("self-order", ActionKind::Other),
        Order::Square { .. } => ActionInfo::new("square", ActionKind::Other),
        Order::Transfer { hq, .. } => ActionInfo::new("transfer", ActionKind::Other).at(at(hq)),
        Order::Task { task, hex, .. } => ActionInfo::new(task.word(), ActionKind::Other).at(hex),
        Order::Dismount { mount, .. } => {
            ActionInfo::new(if mount { "mount" } else { "dismount" }, ActionKind::Other)
        }
        Order::Prone { down, .. } => {
            ActionInfo::new(if down { "prone" } else { "rise" }, ActionKind::Other)
        }
        Order::CounterCharge { .. } => ActionInfo::new("countercharge", ActionKind::Other),
        Order::Support { friend, .. } => {
            ActionInfo::new("support", ActionKind::Other).at(at(friend))
        }
    };
    match o {
        // The ordered unit acts; a person gives the order with its command unit, on the
        // ordered unit's hex (the bots read `unit` and `place`, not these).
        Order::Command { hq, unit, .. } => info.unit(unit as u32).by(hq as u32).marked(at(unit)),
        _ => match o.actor() {
            Some(k) => info.unit(k as u32),
            None => info,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use volley_core::geometry::hex_at;

    /// The layout the bots' ties and shuffles rest on, value for value.
    #[test]
    fn packed_values_keep_their_layout() {
        let h = hex_at(12, 7);
        assert_eq!(Order::End.pack(), Action(0));
        assert_eq!(
            Order::Fire {
                unit: 3,
                target: 40,
                ammo: Ammo::Shell
            }
            .pack(),
            Action(1 << 56 | 3 << 44 | 40 << 32 | 2 << 24)
        );
        assert_eq!(
            Order::Move { unit: 9, to: h }.pack(),
            Action(4 << 56 | 9 << 44 | 12 << 12 | 7)
        );
        assert_eq!(
            Order::Command {
                hq: 1,
                unit: 5,
                charge: false,
                dense: true
            }
            .pack(),
            Action(15 << 56 | 1 << 44 | 5 << 32 | 2 << 24)
        );
        assert_eq!(
            Order::Task {
                unit: 4095,
                task: Task::Mine,
                hex: h
            }
            .pack(),
            Action(22 << 56 | 4095 << 44 | 4 << 24 | 12 << 12 | 7)
        );
    }

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
                task: Task::Bridge,
                hex: h,
            },
        ];
        for o in all {
            assert_eq!(Order::unpack(o.pack()), Some(o), "{o:?}");
        }
        assert_eq!(Order::unpack(Action(u64::MAX)), None);
    }
}
