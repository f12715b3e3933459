//! Orders, packed into the engine's 64-bit `Action`, and their short text form
//! (`move r3 0405`, `face r3 E`, `fire r3 0607`, `attack r3 0506`, `withdraw r3 0404`,
//! `stand b4`, `attach rc r2`, `occupy r3 0506`, `end`, and at set-up `place r3 0102`).

use crate::tiles::Heading;
use volley_core::geometry::{col_row, hex_at};
use volley_core::{Action, Hex};

/// One decision a player can make. Units and commanders are named by their index in the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// One step of a move, through a side into the next tile.
    Move {
        unit: usize,
        to: Hex,
    },
    /// Turn to face a side, ending the unit's move.
    Face {
        unit: usize,
        heading: Heading,
    },
    /// An engaged unit leaves close combat, or cavalry evades an infantry attack.
    Withdraw {
        unit: usize,
        to: Hex,
    },
    /// Cavalry declines to evade and takes the attack.
    Stand {
        unit: usize,
    },
    /// A commander rides to another unit and attaches to it.
    Attach {
        commander: usize,
        unit: usize,
    },
    Fire {
        unit: usize,
        at: Hex,
    },
    Attack {
        unit: usize,
        at: Hex,
    },
    /// An attacker moves into the tile its enemy left.
    Occupy {
        unit: usize,
        to: Hex,
    },
    /// Ends the phase.
    End,
    /// Places a unit at set-up (option `placement = "roll"`).
    Place {
        unit: usize,
        to: Hex,
    },
}

const KIND_BITS: u32 = 4;
const INDEX_BITS: u32 = 12;
const ARG_SHIFT: u32 = KIND_BITS + INDEX_BITS;
const INDEX_MASK: u64 = (1 << INDEX_BITS) - 1;

fn tile_bits(tile: Hex) -> u64 {
    let (c, r) = col_row(tile);
    (c as u64 & INDEX_MASK) | ((r as u64 & INDEX_MASK) << INDEX_BITS)
}

fn tile_from(bits: u64) -> Option<Hex> {
    let (c, r) = (
        (bits & INDEX_MASK) as i32,
        ((bits >> INDEX_BITS) & INDEX_MASK) as i32,
    );
    (c >= 1 && r >= 1).then(|| hex_at(c, r))
}

impl Order {
    pub fn pack(self) -> Action {
        let (kind, index, arg) = match self {
            Order::Move { unit, to } => (0, unit, tile_bits(to)),
            Order::Face { unit, heading } => (1, unit, heading.index() as u64),
            Order::Withdraw { unit, to } => (2, unit, tile_bits(to)),
            Order::Stand { unit } => (3, unit, 0),
            Order::Attach { commander, unit } => (4, commander, unit as u64),
            Order::Fire { unit, at } => (5, unit, tile_bits(at)),
            Order::Attack { unit, at } => (6, unit, tile_bits(at)),
            Order::Occupy { unit, to } => (7, unit, tile_bits(to)),
            Order::End => (8, 0, 0),
            Order::Place { unit, to } => (9, unit, tile_bits(to)),
        };
        Action(kind | ((index as u64 & INDEX_MASK) << KIND_BITS) | (arg << ARG_SHIFT))
    }

    /// The order an action packs, if it packs one (and packs it exactly: stray bits make
    /// it no order). Whether the order is legal is checked later.
    pub fn unpack(action: Action, heading: impl Fn(u8) -> Option<Heading>) -> Option<Order> {
        Order::decode(action, heading).filter(|o| o.pack() == action)
    }

    fn decode(action: Action, heading: impl Fn(u8) -> Option<Heading>) -> Option<Order> {
        let kind = action.0 & ((1 << KIND_BITS) - 1);
        let index = ((action.0 >> KIND_BITS) & INDEX_MASK) as usize;
        let arg = action.0 >> ARG_SHIFT;
        Some(match kind {
            0 => Order::Move {
                unit: index,
                to: tile_from(arg)?,
            },
            1 => Order::Face {
                unit: index,
                heading: heading(u8::try_from(arg).ok()?)?,
            },
            2 => Order::Withdraw {
                unit: index,
                to: tile_from(arg)?,
            },
            3 => Order::Stand { unit: index },
            4 => Order::Attach {
                commander: index,
                unit: usize::try_from(arg).ok()?,
            },
            5 => Order::Fire {
                unit: index,
                at: tile_from(arg)?,
            },
            6 => Order::Attack {
                unit: index,
                at: tile_from(arg)?,
            },
            7 => Order::Occupy {
                unit: index,
                to: tile_from(arg)?,
            },
            8 => Order::End,
            9 => Order::Place {
                unit: index,
                to: tile_from(arg)?,
            },
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use volley_core::map::Grid;

    #[test]
    fn orders_pack_and_unpack_exactly() {
        let heading = |i| Heading::from_index(Grid::Square, i);
        let orders = [
            Order::Move {
                unit: 3,
                to: hex_at(4, 5),
            },
            Order::Face {
                unit: 0,
                heading: heading(3).unwrap(),
            },
            Order::Attach {
                commander: 1,
                unit: 7,
            },
            Order::End,
            Order::Place {
                unit: 2,
                to: hex_at(3, 1),
            },
        ];
        for o in orders {
            let a = o.pack();
            assert_eq!(Order::unpack(a, heading), Some(o));
            for bit in 0..64 {
                let flipped = Action(a.0 ^ (1 << bit));
                if let Some(other) = Order::unpack(flipped, heading) {
                    assert_ne!(other, o, "bit {bit}");
                    assert_eq!(other.pack(), flipped);
                }
            }
        }
        assert_eq!(Order::unpack(Action(1 | (9 << ARG_SHIFT)), heading), None);
    }
}
