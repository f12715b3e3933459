//! Orders, packed into the engine's 64-bit `Action`, and their short text form:
//! `move r1 0304`, `reverse r1 0306`, `face r1 NE`, `place R1 0304`, `fire r1 b2`,
//! `melee r1 b2`, `bombard g1 0505`, `retreat b2`, `stand b2`, `embark r4 r7` (or `limber`),
//! `disembark r4 0506` (or `unlimber`), `dig r8`, `clear r8 0507`, `lay r8 0507`,
//! `smoke g1 0505`, `strike jabo 0505`, `reorder 1 attack 0804`, `freewill r3`, `dismount r5`, `mount r5`, `bridge r8 0605`, `block second-wave stand` (or `withdraw`), `fly jabo 0505`, `intercept spit jabo`, `end`.

use volley_core::geometry::{col_row, hex_at, Facing};
use volley_core::{Action, Hex};

/// One decision a player can make. Items and commanders are named by their index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// One step into a front hex (straight ahead, or obliquely with option `oblique`).
    Move { item: usize, to: Hex },
    /// A vehicle backs one hex without turning (M50).
    Reverse { item: usize, to: Hex },
    /// A facing change (M51).
    Face { item: usize, facing: Facing },
    /// A commander placed after movement (M25).
    Place { commander: usize, hex: Hex },
    /// Fire at an enemy item (M82).
    Fire { item: usize, target: usize },
    /// Start a melee with an enemy item next to it (M109).
    Melee { item: usize, target: usize },
    /// End the step.
    End,
    /// Indirect fire at a hex (M95).
    Bombard { item: usize, hex: Hex },
    /// A defender steps back before the melee (M115).
    Retreat { item: usize },
    /// A defender that may step back stays and fights.
    Stand { item: usize },
    /// Embark on, or limber up behind, a vehicle in the same hex (M53).
    Load { item: usize, carrier: usize },
    /// Get off, or unlimber, into the carrier's hex or a neighbouring one (M53).
    Unload { item: usize, hex: Hex },
    /// An engineer works on works in its hex (M66).
    Dig { item: usize },
    /// Clear a known minefield in the squad's hex or the next (M67).
    Clear { item: usize, hex: Hex },
    /// Lay mines in the squad's hex or the next (M67).
    Lay { item: usize, hex: Hex },
    /// Indirect fire with smoke at a hex.
    Smoke { item: usize, hex: Hex },
    /// An aircraft strikes a hex (M69).
    Strike { aircraft: usize, hex: Hex },
    /// Try to change a group's written order (M37): the order's kind (its index in
    /// `OrderKind::ALL`) and hex.
    Reorder {
        group: u8,
        kind: u8,
        hex: Option<Hex>,
    },
    /// A free-will test to act outside the written order this turn (M38).
    FreeWill { item: usize },
    /// Cavalry gets off its horses (M58).
    Dismount { item: usize },
    /// Cavalry gets back on them (M58).
    Mount { item: usize },
    /// Engineers bridge a neighbouring water hex (M66).
    Bridge { item: usize, hex: Hex },
    /// The side holding a reinforcement group's entry hexes stands or falls back (M47).
    Block { arrival: usize, withdraw: bool },
    /// An aircraft flies one hex (M69).
    Fly { aircraft: usize, to: Hex },
    /// An aircraft attacks an enemy aircraft (M69, air-to-air).
    Intercept { aircraft: usize, target: usize },
}

const KIND_BITS: u32 = 5;
const INDEX_BITS: u32 = 12;
const ARG_SHIFT: u32 = KIND_BITS + INDEX_BITS;
const MASK: u64 = (1 << INDEX_BITS) - 1;

fn hex_bits(h: Hex) -> u64 {
    let (c, r) = col_row(h);
    (c as u64 & MASK) | ((r as u64 & MASK) << INDEX_BITS)
}

fn hex_from(bits: u64) -> Option<Hex> {
    let (c, r) = ((bits & MASK) as i32, ((bits >> INDEX_BITS) & MASK) as i32);
    (c >= 1 && r >= 1).then(|| hex_at(c, r))
}

impl Order {
    pub fn pack(self) -> Action {
        let (kind, index, arg) = match self {
            Order::Move { item, to } => (0, item, hex_bits(to)),
            Order::Reverse { item, to } => (1, item, hex_bits(to)),
            Order::Face { item, facing } => (2, item, facing.index() as u64),
            Order::Place { commander, hex } => (3, commander, hex_bits(hex)),
            Order::Fire { item, target } => (4, item, target as u64),
            Order::Melee { item, target } => (5, item, target as u64),
            Order::End => (6, 0, 0),
            Order::Bombard { item, hex } => (7, item, hex_bits(hex)),
            Order::Retreat { item } => (8, item, 0),
            Order::Stand { item } => (9, item, 0),
            Order::Load { item, carrier } => (10, item, carrier as u64),
            Order::Unload { item, hex } => (11, item, hex_bits(hex)),
            Order::Dig { item } => (12, item, 0),
            Order::Clear { item, hex } => (13, item, hex_bits(hex)),
            Order::Lay { item, hex } => (14, item, hex_bits(hex)),
            Order::Smoke { item, hex } => (15, item, hex_bits(hex)),
            Order::Strike { aircraft, hex } => (16, aircraft, hex_bits(hex)),
            Order::Reorder { group, kind, hex } => (
                17,
                group as usize,
                (kind as u64 & 7) | (hex.map_or(0, hex_bits) << 3),
            ),
            Order::FreeWill { item } => (18, item, 0),
            Order::Dismount { item } => (19, item, 0),
            Order::Mount { item } => (20, item, 0),
            Order::Bridge { item, hex } => (21, item, hex_bits(hex)),
            Order::Block { arrival, withdraw } => (22, arrival, withdraw as u64),
            Order::Fly { aircraft, to } => (23, aircraft, hex_bits(to)),
            Order::Intercept { aircraft, target } => (24, aircraft, target as u64),
        };
        Action(kind | ((index as u64 & MASK) << KIND_BITS) | (arg << ARG_SHIFT))
    }

    /// The order an action packs, exactly (stray bits make it no order).
    pub fn unpack(action: Action) -> Option<Order> {
        Order::decode(action).filter(|o| o.pack() == action)
    }

    fn decode(action: Action) -> Option<Order> {
        let kind = action.0 & ((1 << KIND_BITS) - 1);
        let index = ((action.0 >> KIND_BITS) & MASK) as usize;
        let arg = action.0 >> ARG_SHIFT;
        Some(match kind {
            0 => Order::Move {
                item: index,
                to: hex_from(arg)?,
            },
            1 => Order::Reverse {
                item: index,
                to: hex_from(arg)?,
            },
            2 => Order::Face {
                item: index,
                facing: (arg < 6).then(|| Facing::from_index(arg as u8))?,
            },
            3 => Order::Place {
                commander: index,
                hex: hex_from(arg)?,
            },
            4 => Order::Fire {
                item: index,
                target: usize::try_from(arg).ok()?,
            },
            5 => Order::Melee {
                item: index,
                target: usize::try_from(arg).ok()?,
            },
            6 => Order::End,
            7 => Order::Bombard {
                item: index,
                hex: hex_from(arg)?,
            },
            8 => Order::Retreat { item: index },
            9 => Order::Stand { item: index },
            10 => Order::Load {
                item: index,
                carrier: usize::try_from(arg).ok()?,
            },
            11 => Order::Unload {
                item: index,
                hex: hex_from(arg)?,
            },
            12 => Order::Dig { item: index },
            13 => Order::Clear {
                item: index,
                hex: hex_from(arg)?,
            },
            14 => Order::Lay {
                item: index,
                hex: hex_from(arg)?,
            },
            15 => Order::Smoke {
                item: index,
                hex: hex_from(arg)?,
            },
            16 => Order::Strike {
                aircraft: index,
                hex: hex_from(arg)?,
            },
            17 => Order::Reorder {
                group: u8::try_from(index).ok()?,
                kind: (arg & 7) as u8,
                hex: match arg >> 3 {
                    0 => None,
                    bits => Some(hex_from(bits)?),
                },
            },
            18 => Order::FreeWill { item: index },
            19 => Order::Dismount { item: index },
            20 => Order::Mount { item: index },
            21 => Order::Bridge {
                item: index,
                hex: hex_from(arg)?,
            },
            22 if arg <= 1 => Order::Block {
                arrival: index,
                withdraw: arg == 1,
            },
            23 => Order::Fly {
                aircraft: index,
                to: hex_from(arg)?,
            },
            24 => Order::Intercept {
                aircraft: index,
                target: usize::try_from(arg).ok()?,
            },
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_pack_and_unpack_exactly() {
        let orders = [
            Order::Move {
                item: 3,
                to: hex_at(4, 5),
            },
            Order::Face {
                item: 0,
                facing: Facing::SW,
            },
            Order::Fire { item: 7, target: 2 },
            Order::Place {
                commander: 1,
                hex: hex_at(2, 2),
            },
            Order::End,
        ];
        for o in orders {
            assert_eq!(Order::unpack(o.pack()), Some(o));
            for bit in 0..64 {
                let flipped = Action(o.pack().0 ^ (1 << bit));
                if let Some(other) = Order::unpack(flipped) {
                    assert_ne!(other, o);
                }
            }
        }
    }
}
