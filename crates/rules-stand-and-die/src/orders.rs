//! Orders as Volley actions: packed into 64 bits, written in a short text form:
//! `move r1 0304`, `face r1 NE`, `stand 0304`, `fall-back 0304`, `fire 0304 0405`, `end`.

use crate::state::StandAndDieGame;
use volley_core::geometry::{col_row, hex_at, label, parse_label, Facing};
use volley_core::{Action, Hex, Illegal};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Ends the phasing side's march or musketry.
    End,
    /// One hex of march for one unit.
    Move { unit: usize, to: Hex },
    /// Turns a unit (and the friends sharing its hex) to face a hexside.
    Face { unit: usize, facing: Facing },
    /// Marks a hex Standing.
    Stand { hex: Hex },
    /// Lifts a hex's Standing marker: it will fall back under pressure.
    FallBack { hex: Hex },
    /// A hex's volley at an enemy hex.
    Fire { from: Hex, at: Hex },
}

/// Bits: kind in 56..64; a hex is column and row, 12 bits each.
const KIND_SHIFT: u32 = 56;
const COORD_BITS: u32 = 12;
const COORD_MASK: u64 = (1 << COORD_BITS) - 1;
const HEX_BITS: u32 = 2 * COORD_BITS;
const HEX_MASK: u64 = (1 << HEX_BITS) - 1;
/// The biggest column or row a packed hex can carry; scenarios are checked against it.
pub const MAX_COORD: i32 = COORD_MASK as i32;

const END: u64 = 0;
const MOVE: u64 = 1;
const FACE: u64 = 2;
const STAND: u64 = 3;
const FALL_BACK: u64 = 4;
const FIRE: u64 = 5;

fn pack_hex(hex: Hex) -> u64 {
    let (c, r) = col_row(hex);
    ((c as u64 & COORD_MASK) << COORD_BITS) | (r as u64 & COORD_MASK)
}

fn unpack_hex(bits: u64) -> Hex {
    hex_at(
        ((bits >> COORD_BITS) & COORD_MASK) as i32,
        (bits & COORD_MASK) as i32,
    )
}

impl Order {
    pub fn pack(self) -> Action {
        let (kind, body) = match self {
            Order::End => (END, 0),
            Order::Move { unit, to } => (MOVE, ((unit as u64) << HEX_BITS) | pack_hex(to)),
            Order::Face { unit, facing } => {
                (FACE, ((unit as u64) << HEX_BITS) | facing.index() as u64)
            }
            Order::Stand { hex } => (STAND, pack_hex(hex)),
            Order::FallBack { hex } => (FALL_BACK, pack_hex(hex)),
            Order::Fire { from, at } => (FIRE, (pack_hex(from) << HEX_BITS) | pack_hex(at)),
        };
        Action((kind << KIND_SHIFT) | body)
    }

    pub fn unpack(action: Action) -> Option<Order> {
        let bits = action.0;
        let body = bits & ((1 << KIND_SHIFT) - 1);
        let low = body & HEX_MASK;
        let high = body >> HEX_BITS;
        let order = match bits >> KIND_SHIFT {
            END if body == 0 => Order::End,
            MOVE => Order::Move {
                unit: high as usize,
                to: unpack_hex(low),
            },
            FACE if low < 6 => Order::Face {
                unit: high as usize,
                facing: Facing::from_index(low as u8),
            },
            STAND if high == 0 => Order::Stand {
                hex: unpack_hex(low),
            },
            FALL_BACK if high == 0 => Order::FallBack {
                hex: unpack_hex(low),
            },
            FIRE => Order::Fire {
                from: unpack_hex(high),
                at: unpack_hex(low),
            },
            _ => return None,
        };
        // Only the canonical packing is an action, so equal orders are equal actions.
        (order.pack() == action).then_some(order)
    }

    /// The unit the order names, if any.
    pub fn unit(self) -> Option<usize> {
        match self {
            Order::Move { unit, .. } | Order::Face { unit, .. } => Some(unit),
            _ => None,
        }
    }
}

const FORMS: &str =
    "end, move UNIT HEX, face UNIT FACING, stand HEX, fall-back HEX or fire HEX HEX";

impl StandAndDieGame {
    pub fn write_order(&self, order: Order) -> String {
        match order {
            Order::End => "end".into(),
            Order::Move { unit, to } => format!("move {} {}", self.units[unit].id, label(to)),
            Order::Face { unit, facing } => format!("face {} {facing}", self.units[unit].id),
            Order::Stand { hex } => format!("stand {}", label(hex)),
            Order::FallBack { hex } => format!("fall-back {}", label(hex)),
            Order::Fire { from, at } => format!("fire {} {}", label(from), label(at)),
        }
    }

    pub fn read_order(&self, text: &str) -> Result<Order, Illegal> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let hex = |w: &str| {
            parse_label(w).ok_or_else(|| {
                Illegal::new(format!("expected a hex label like 0304, found \"{w}\""))
            })
        };
        let unit = |w: &str| {
            self.units
                .iter()
                .position(|u| u.id == w)
                .ok_or_else(|| Illegal::new(format!("no unit with id \"{w}\"")))
        };
        match words.as_slice() {
            ["end"] => Ok(Order::End),
            ["move", u, h] => Ok(Order::Move {
                unit: unit(u)?,
                to: hex(h)?,
            }),
            ["face", u, f] => Ok(Order::Face {
                unit: unit(u)?,
                facing: Facing::parse(f).ok_or_else(|| {
                    Illegal::new(format!(
                        "expected a facing (N, NE, SE, S, SW or NW), found \"{f}\""
                    ))
                })?,
            }),
            ["stand", h] => Ok(Order::Stand { hex: hex(h)? }),
            ["fall-back", h] => Ok(Order::FallBack { hex: hex(h)? }),
            ["fire", a, b] => Ok(Order::Fire {
                from: hex(a)?,
                at: hex(b)?,
            }),
            _ => Err(Illegal::new(format!(
                "cannot read \"{}\": expected {FORMS}",
                text.trim()
            ))),
        }
    }
}
