//! Orders as Volley actions: packed into 64 bits with `volley_core::codec`, written in a short
//! text form and read back with its `Words`:
//! `move r1 0304`, `face r1 NE`, `stand 0304`, `fall-back 0304`, `fire 0304 0405`, `end`.

use crate::troops::Unit;
use volley_core::codec::{hex_row_col, row_col_hex, Bits, Codec, Words};
use volley_core::geometry::{label, Facing};
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

/// The layout: the kind in bits 56..64; below it a low field in 0..24 (a hex, column and
/// row 12 bits each, row lowest; or a facing) and a high field in 24..56 (a unit's number,
/// or the firing hex).
const KIND: (u32, u32) = (56, 8);
const LOW: (u32, u32) = (0, 24);
const HIGH: (u32, u32) = (24, 32);
/// Bits of a packed column or row.
const COORD_BITS: u32 = 12;
/// The biggest column or row a packed hex can carry; scenarios are checked against it.
pub const MAX_COORD: i32 = (1 << COORD_BITS) - 1;

const END: u64 = 0;
const MOVE: u64 = 1;
const FACE: u64 = 2;
const STAND: u64 = 3;
const FALL_BACK: u64 = 4;
const FIRE: u64 = 5;

/// An order of `kind` with its high and low fields.
fn packed(kind: u64, high: u64, low: u64) -> Action {
    Bits::new()
        .put(KIND.0, KIND.1, kind)
        .put(HIGH.0, HIGH.1, high)
        .put(LOW.0, LOW.1, low)
        .action()
}

impl Codec for Order {
    fn pack(self) -> Action {
        match self {
            Order::End => packed(END, 0, 0),
            Order::Move { unit, to } => packed(MOVE, unit as u64, hex_row_col(to)),
            Order::Face { unit, facing } => packed(FACE, unit as u64, facing.index() as u64),
            Order::Stand { hex } => packed(STAND, 0, hex_row_col(hex)),
            Order::FallBack { hex } => packed(FALL_BACK, 0, hex_row_col(hex)),
            Order::Fire { from, at } => packed(FIRE, hex_row_col(from), hex_row_col(at)),
        }
    }

    fn decode(action: Action) -> Option<Order> {
        let bits = Bits::from(action);
        let low = bits.get(LOW.0, LOW.1);
        let high = bits.get(HIGH.0, HIGH.1);
        Some(match bits.get(KIND.0, KIND.1) {
            END => Order::End,
            MOVE => Order::Move {
                unit: high as usize,
                to: row_col_hex(low),
            },
            FACE if low < 6 => Order::Face {
                unit: high as usize,
                facing: Facing::from_index(low as u8),
            },
            STAND => Order::Stand {
                hex: row_col_hex(low),
            },
            FALL_BACK => Order::FallBack {
                hex: row_col_hex(low),
            },
            FIRE => Order::Fire {
                from: row_col_hex(high),
                at: row_col_hex(low),
            },
            _ => return None,
        })
    }
}

const FORMS: &str =
    "end, move UNIT HEX, face UNIT FACING, stand HEX, fall-back HEX or fire HEX HEX";

impl Order {
    /// The unit the order names, if any.
    pub fn unit(self) -> Option<usize> {
        match self {
            Order::Move { unit, .. } | Order::Face { unit, .. } => Some(unit),
            _ => None,
        }
    }

    /// The order in notation; `units` are the game's, which name units by id.
    pub fn write(self, units: &[Unit]) -> String {
        match self {
            Order::End => "end".into(),
            Order::Move { unit, to } => format!("move {} {}", units[unit].id, label(to)),
            Order::Face { unit, facing } => format!("face {} {facing}", units[unit].id),
            Order::Stand { hex } => format!("stand {}", label(hex)),
            Order::FallBack { hex } => format!("fall-back {}", label(hex)),
            Order::Fire { from, at } => format!("fire {} {}", label(from), label(at)),
        }
    }

    /// Reads an order's notation; `units` are the game's, for the ids it names.
    pub fn read(text: &str, units: &[Unit]) -> Result<Order, Illegal> {
        let mut words = Words::new(text);
        let ids = || units.iter().map(|u| &u.id);
        let order = match words.verb().as_str() {
            "end" => Order::End,
            "move" => Order::Move {
                unit: words.named(ids(), "unit")?,
                to: words.hex()?,
            },
            "face" => Order::Face {
                unit: words.named(ids(), "unit")?,
                facing: words.facing()?,
            },
            "stand" => Order::Stand { hex: words.hex()? },
            "fall-back" => Order::FallBack { hex: words.hex()? },
            "fire" => Order::Fire {
                from: words.hex()?,
                at: words.hex()?,
            },
            _ => {
                return Err(Illegal::new(format!(
                    "cannot read \"{}\": expected {FORMS}",
                    text.trim()
                )))
            }
        };
        words.end()?;
        Ok(order)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use volley_core::geometry::hex_at;

    /// The packing as it was written before the shared codec, bit by bit: the values order
    /// the bots' ties and seed their shuffles, so they must not move.
    fn packed_by_hand(order: Order) -> u64 {
        let hex = |h: Hex| {
            let (c, r) = volley_core::geometry::col_row(h);
            ((c as u64 & 0xfff) << 12) | (r as u64 & 0xfff)
        };
        let (kind, body) = match order {
            Order::End => (0, 0),
            Order::Move { unit, to } => (1, ((unit as u64) << 24) | hex(to)),
            Order::Face { unit, facing } => (2, ((unit as u64) << 24) | facing.index() as u64),
            Order::Stand { hex: h } => (3, hex(h)),
            Order::FallBack { hex: h } => (4, hex(h)),
            Order::Fire { from, at } => (5, (hex(from) << 24) | hex(at)),
        };
        (kind << 56) | body
    }

    #[test]
    fn every_kind_of_order_packs_as_it_always_has_and_unpacks_exactly() {
        let (a, b) = (hex_at(3, 4), hex_at(12, 1));
        let orders = [
            Order::End,
            Order::Move { unit: 0, to: a },
            Order::Move { unit: 17, to: b },
            Order::Face {
                unit: 5,
                facing: Facing::from_index(4),
            },
            Order::Stand { hex: a },
            Order::FallBack { hex: b },
            Order::Fire { from: a, at: b },
        ];
        for order in orders {
            assert_eq!(order.pack().0, packed_by_hand(order), "{order:?}");
            assert_eq!(Order::unpack(order.pack()), Some(order));
        }
        // Stray bits make no order: only the canonical packing is an action.
        assert_eq!(Order::unpack(Action(1)), None);
        assert_eq!(Order::unpack(Action((3 << 56) | (1 << 30))), None);
        assert_eq!(Order::unpack(Action((2 << 56) | 6)), None);
        assert_eq!(Order::unpack(Action(u64::MAX)), None);
    }
}
