//! Orders, packed into the engine's 64-bit `Action`, and their short text form:
//! `move r1 0304`, `reverse r1 0306`, `face r1 NE`, `place R1 0304`, `fire r1 b2`,
//! `melee r1 b2`, `bombard g1 0505`, `retreat b2`, `stand b2`, `embark r4 r7` (or `limber`),
//! `disembark r4 0506` (or `unlimber`), `dig r8`, `clear r8 0507`, `lay r8 0507`,
//! `smoke g1 0505`, `strike jabo 0505`, `reorder 1 attack 0804`, `freewill r3`, `dismount r5`, `mount r5`, `bridge r8 0605`, `block second-wave stand` (or `withdraw`), `fly jabo 0505`, `intercept spit jabo`, `end`.

use crate::items::Kind;
use crate::state::State;
use hex_command_family::orders::{Order as Written, OrderKind};
use volley_core::codec::{col_row_hex, hex_col_row, Bits, Codec, Words};
use volley_core::geometry::{label, Facing};
use volley_core::{Action, ActionInfo, Hex, Illegal};

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

/// Five bits of kind at 0, the item (or commander, aircraft, group, arrival) in twelve bits at
/// 5, and the rest from bit 17: a hex as column and row, a facing, a target, a flag.
impl Codec for Order {
    fn pack(self) -> Action {
        let (kind, index, arg) = match self {
            Order::Move { item, to } => (0, item, hex_col_row(to)),
            Order::Reverse { item, to } => (1, item, hex_col_row(to)),
            Order::Face { item, facing } => (2, item, facing.index() as u64),
            Order::Place { commander, hex } => (3, commander, hex_col_row(hex)),
            Order::Fire { item, target } => (4, item, target as u64),
            Order::Melee { item, target } => (5, item, target as u64),
            Order::End => (6, 0, 0),
            Order::Bombard { item, hex } => (7, item, hex_col_row(hex)),
            Order::Retreat { item } => (8, item, 0),
            Order::Stand { item } => (9, item, 0),
            Order::Load { item, carrier } => (10, item, carrier as u64),
            Order::Unload { item, hex } => (11, item, hex_col_row(hex)),
            Order::Dig { item } => (12, item, 0),
            Order::Clear { item, hex } => (13, item, hex_col_row(hex)),
            Order::Lay { item, hex } => (14, item, hex_col_row(hex)),
            Order::Smoke { item, hex } => (15, item, hex_col_row(hex)),
            Order::Strike { aircraft, hex } => (16, aircraft, hex_col_row(hex)),
            Order::Reorder { group, kind, hex } => (
                17,
                group as usize,
                (kind as u64 & 7) | (hex.map_or(0, hex_col_row) << 3),
            ),
            Order::FreeWill { item } => (18, item, 0),
            Order::Dismount { item } => (19, item, 0),
            Order::Mount { item } => (20, item, 0),
            Order::Bridge { item, hex } => (21, item, hex_col_row(hex)),
            Order::Block { arrival, withdraw } => (22, arrival, withdraw as u64),
            Order::Fly { aircraft, to } => (23, aircraft, hex_col_row(to)),
            Order::Intercept { aircraft, target } => (24, aircraft, target as u64),
        };
        Bits::new()
            .put(0, 5, kind)
            .put(5, 12, index as u64)
            .put(17, 47, arg)
            .action()
    }

    fn decode(action: Action) -> Option<Order> {
        let bits = Bits::from(action);
        let kind = bits.get(0, 5);
        let index = bits.get(5, 12) as usize;
        let arg = bits.get(17, 47);
        Some(match kind {
            0 => Order::Move {
                item: index,
                to: col_row_hex(arg)?,
            },
            1 => Order::Reverse {
                item: index,
                to: col_row_hex(arg)?,
            },
            2 => Order::Face {
                item: index,
                facing: (arg < 6).then(|| Facing::from_index(arg as u8))?,
            },
            3 => Order::Place {
                commander: index,
                hex: col_row_hex(arg)?,
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
                hex: col_row_hex(arg)?,
            },
            8 => Order::Retreat { item: index },
            9 => Order::Stand { item: index },
            10 => Order::Load {
                item: index,
                carrier: usize::try_from(arg).ok()?,
            },
            11 => Order::Unload {
                item: index,
                hex: col_row_hex(arg)?,
            },
            12 => Order::Dig { item: index },
            13 => Order::Clear {
                item: index,
                hex: col_row_hex(arg)?,
            },
            14 => Order::Lay {
                item: index,
                hex: col_row_hex(arg)?,
            },
            15 => Order::Smoke {
                item: index,
                hex: col_row_hex(arg)?,
            },
            16 => Order::Strike {
                aircraft: index,
                hex: col_row_hex(arg)?,
            },
            17 => Order::Reorder {
                group: u8::try_from(index).ok()?,
                kind: (arg & 7) as u8,
                hex: match arg >> 3 {
                    0 => None,
                    bits => Some(col_row_hex(bits)?),
                },
            },
            18 => Order::FreeWill { item: index },
            19 => Order::Dismount { item: index },
            20 => Order::Mount { item: index },
            21 => Order::Bridge {
                item: index,
                hex: col_row_hex(arg)?,
            },
            22 if arg <= 1 => Order::Block {
                arrival: index,
                withdraw: arg == 1,
            },
            23 => Order::Fly {
                aircraft: index,
                to: col_row_hex(arg)?,
            },
            24 => Order::Intercept {
                aircraft: index,
                target: usize::try_from(arg).ok()?,
            },
            _ => return None,
        })
    }
}

pub fn describe_order(s: &State, order: Order) -> ActionInfo {
    use volley_core::ActionKind::*;
    match order {
        Order::Move { item, to } => ActionInfo::new("move", Move).unit(item as u32).at(to),
        Order::Reverse { item, to } => ActionInfo::new("reverse", Move).unit(item as u32).at(to),
        Order::Face { item, facing } => ActionInfo::new("face", Turn)
            .unit(item as u32)
            .facing(facing),
        Order::Place { hex, .. } => ActionInfo::new("place", Other).at(hex),
        Order::Fire { item, target } | Order::Melee { item, target } => {
            let verb = if matches!(order, Order::Fire { .. }) {
                "fire"
            } else {
                "melee"
            };
            let info = ActionInfo::new(verb, Attack).unit(item as u32);
            match s.items.get(target) {
                Some(t) => info.at(t.hex),
                None => info,
            }
        }
        Order::Bombard { item, hex } => {
            ActionInfo::new("bombard", Attack).unit(item as u32).at(hex)
        }
        Order::Retreat { item } => ActionInfo::new("retreat", Move).unit(item as u32),
        Order::Load { item, carrier } => {
            let info = ActionInfo::new("load", Other).unit(item as u32);
            match s.items.get(carrier) {
                Some(c) => info.at(c.hex),
                None => info,
            }
        }
        Order::Unload { item, hex } => ActionInfo::new("unload", Move).unit(item as u32).at(hex),
        Order::Stand { item } => ActionInfo::new("stand", Other).unit(item as u32),
        Order::Dig { item } => ActionInfo::new("dig", Other).unit(item as u32),
        Order::Clear { item, hex } => ActionInfo::new("clear", Other).unit(item as u32).at(hex),
        Order::Lay { item, hex } => ActionInfo::new("lay", Other).unit(item as u32).at(hex),
        Order::Smoke { item, hex } => ActionInfo::new("smoke", Other).unit(item as u32).at(hex),
        Order::Strike { hex, .. } => ActionInfo::new("strike", Attack).at(hex),
        Order::Fly { to, .. } => ActionInfo::new("fly", Move).at(to),
        Order::Intercept { target, .. } => {
            let info = ActionInfo::new("intercept", Attack);
            match s.aircraft.get(target).and_then(|a| a.at) {
                Some(h) => info.at(h),
                None => info,
            }
        }
        Order::Reorder { .. } => ActionInfo::new("reorder", Other),
        Order::FreeWill { item } => ActionInfo::new("freewill", Other).unit(item as u32),
        Order::Dismount { item } => ActionInfo::new("dismount", Other).unit(item as u32),
        Order::Mount { item } => ActionInfo::new("mount", Other).unit(item as u32),
        Order::Bridge { item, hex } => ActionInfo::new("bridge", Other).unit(item as u32).at(hex),
        Order::Block { withdraw, .. } => {
            ActionInfo::new(if withdraw { "withdraw" } else { "stand" }, Other)
        }
        Order::End => ActionInfo::end(),
    }
}

/// An order in words, with this game's ids: `move r1 0304`.
pub fn notation_of(s: &State, action: Action) -> String {
    let id = |i: usize| s.items.get(i).map_or("?", |it| it.id.as_str());
    match Order::unpack(action) {
        Some(Order::Move { item, to }) => format!("move {} {}", id(item), label(to)),
        Some(Order::Reverse { item, to }) => format!("reverse {} {}", id(item), label(to)),
        Some(Order::Face { item, facing }) => format!("face {} {}", id(item), facing.name()),
        Some(Order::Place { commander, hex }) => format!(
            "place {} {}",
            s.commanders.get(commander).map_or("?", |c| c.id.as_str()),
            label(hex)
        ),
        Some(Order::Fire { item, target }) => format!("fire {} {}", id(item), id(target)),
        Some(Order::Melee { item, target }) => format!("melee {} {}", id(item), id(target)),
        Some(Order::Bombard { item, hex }) => format!("bombard {} {}", id(item), label(hex)),
        Some(Order::Retreat { item }) => format!("retreat {}", id(item)),
        Some(Order::Load { item, carrier }) => {
            let gun = matches!(s.items.get(item).map(|i| &i.kind), Some(Kind::Gun { .. }));
            format!(
                "{} {} {}",
                if gun { "limber" } else { "embark" },
                id(item),
                id(carrier)
            )
        }
        Some(Order::Unload { item, hex }) => {
            let gun = matches!(s.items.get(item).map(|i| &i.kind), Some(Kind::Gun { .. }));
            format!(
                "{} {} {}",
                if gun { "unlimber" } else { "disembark" },
                id(item),
                label(hex)
            )
        }
        Some(Order::Stand { item }) => format!("stand {}", id(item)),
        Some(Order::Dig { item }) => format!("dig {}", id(item)),
        Some(Order::Clear { item, hex }) => format!("clear {} {}", id(item), label(hex)),
        Some(Order::Lay { item, hex }) => format!("lay {} {}", id(item), label(hex)),
        Some(Order::Smoke { item, hex }) => format!("smoke {} {}", id(item), label(hex)),
        Some(Order::Strike { aircraft, hex }) => format!(
            "strike {} {}",
            s.aircraft.get(aircraft).map_or("?", |a| a.id.as_str()),
            label(hex)
        ),
        Some(Order::Reorder { group, kind, hex }) => match written(kind, hex) {
            Some(o) => format!("reorder {group} {}", o.text()),
            None => format!("unknown action {:#x}", action.0),
        },
        Some(Order::FreeWill { item }) => format!("freewill {}", id(item)),
        Some(Order::Dismount { item }) => format!("dismount {}", id(item)),
        Some(Order::Mount { item }) => format!("mount {}", id(item)),
        Some(Order::Bridge { item, hex }) => format!("bridge {} {}", id(item), label(hex)),
        Some(Order::Block { arrival, withdraw }) => format!(
            "block {} {}",
            s.arrivals.get(arrival).map_or("?", |a| a.id.as_str()),
            if withdraw { "withdraw" } else { "stand" }
        ),
        Some(Order::Fly { aircraft, to }) => format!(
            "fly {} {}",
            s.aircraft.get(aircraft).map_or("?", |a| a.id.as_str()),
            label(to)
        ),
        Some(Order::Intercept { aircraft, target }) => format!(
            "intercept {} {}",
            s.aircraft.get(aircraft).map_or("?", |a| a.id.as_str()),
            s.aircraft.get(target).map_or("?", |a| a.id.as_str())
        ),
        Some(Order::End) => "end".into(),
        None => format!("unknown action {:#x}", action.0),
    }
}

/// Reads an order from its words (see the module's notes).
pub fn parse_order(s: &State, text: &str) -> Result<Action, Illegal> {
    let mut w = Words::new(text);
    let verb = w.verb();
    let items = || s.items.iter().map(|i| &*i.id);
    let aircraft = || s.aircraft.iter().map(|x| &*x.id);
    let order = match verb.as_str() {
        "end" if w.done() => Order::End,
        "move" => Order::Move {
            item: w.named(items(), "unit")?,
            to: w.hex()?,
        },
        "reverse" => Order::Reverse {
            item: w.named(items(), "unit")?,
            to: w.hex()?,
        },
        "face" => Order::Face {
            item: w.named(items(), "unit")?,
            facing: w.facing()?,
        },
        "place" => Order::Place {
            commander: w.named(s.commanders.iter().map(|x| &*x.id), "commander")?,
            hex: w.hex()?,
        },
        "fire" => Order::Fire {
            item: w.named(items(), "unit")?,
            target: w.named(items(), "unit")?,
        },
        "bombard" => Order::Bombard {
            item: w.named(items(), "unit")?,
            hex: w.hex()?,
        },
        "dig" => Order::Dig {
            item: w.named(items(), "unit")?,
        },
        "clear" => Order::Clear {
            item: w.named(items(), "unit")?,
            hex: w.hex()?,
        },
        "lay" => Order::Lay {
            item: w.named(items(), "unit")?,
            hex: w.hex()?,
        },
        "dismount" => Order::Dismount {
            item: w.named(items(), "unit")?,
        },
        "bridge" => Order::Bridge {
            item: w.named(items(), "unit")?,
            hex: w.hex()?,
        },
        "mount" => Order::Mount {
            item: w.named(items(), "unit")?,
        },
        "freewill" => Order::FreeWill {
            item: w.named(items(), "unit")?,
        },
        "reorder" => {
            let group: u8 = w
                .next_word()
                .and_then(|g| g.parse().ok())
                .ok_or_else(|| Illegal::new("expected a group number: reorder 1 attack 0804"))?;
            let o = parse_written(&w.rest()).ok_or_else(|| {
                Illegal::new("expected an order: attack, march, hold or withdraw HEX, or reserve")
            })?;
            let kind = hex_command_family::orders::OrderKind::ALL
                .iter()
                .position(|k| *k == o.kind)
                .expect("a kind of the list") as u8;
            Order::Reorder {
                group,
                kind,
                hex: o.hex,
            }
        }
        "strike" => Order::Strike {
            aircraft: w.named(aircraft(), "aircraft")?,
            hex: w.hex()?,
        },
        "block" => {
            let arrival = w.named(s.arrivals.iter().map(|x| &*x.id), "reinforcements")?;
            let withdraw = match w.next_word() {
                Some("stand") => false,
                Some("withdraw") => true,
                _ => return Err(Illegal::new("block GROUP stand, or block GROUP withdraw")),
            };
            Order::Block { arrival, withdraw }
        }
        "fly" => Order::Fly {
            aircraft: w.named(aircraft(), "aircraft")?,
            to: w.hex()?,
        },
        "intercept" => Order::Intercept {
            aircraft: w.named(aircraft(), "aircraft")?,
            target: w.named(aircraft(), "aircraft")?,
        },
        "smoke" => Order::Smoke {
            item: w.named(items(), "unit")?,
            hex: w.hex()?,
        },
        "embark" | "limber" => Order::Load {
            item: w.named(items(), "unit")?,
            carrier: w.named(items(), "unit")?,
        },
        "disembark" | "unlimber" => Order::Unload {
            item: w.named(items(), "unit")?,
            hex: w.hex()?,
        },
        "retreat" => Order::Retreat {
            item: w.named(items(), "unit")?,
        },
        "stand" => Order::Stand {
            item: w.named(items(), "unit")?,
        },
        "melee" => Order::Melee {
            item: w.named(items(), "unit")?,
            target: w.named(items(), "unit")?,
        },
        _ => {
            return Err(Illegal::new(format!(
                "cannot read \"{text}\" (orders: move U HEX, reverse U HEX, face U DIR, place C HEX, fire U TARGET, bombard U HEX, melee U TARGET, retreat U, stand U, embark U VEHICLE, disembark U HEX, limber G VEHICLE, unlimber G HEX, dig U, clear U HEX, lay U HEX, smoke G HEX, strike AIRCRAFT HEX, reorder GROUP ORDER, freewill U, dismount U, mount U, bridge U HEX, block GROUP stand|withdraw, fly AIRCRAFT HEX, intercept AIRCRAFT AIRCRAFT, end)"
            )))
        }
    };
    w.end()?;
    Ok(order.pack())
}

/// The written order an action packs: a kind by its place in `OrderKind::ALL`, with its hex.
pub(crate) fn written(kind: u8, hex: Option<Hex>) -> Option<hex_command_family::orders::Order> {
    let kind = *hex_command_family::orders::OrderKind::ALL.get(kind as usize)?;
    (kind.has_hex() == hex.is_some()).then_some(hex_command_family::orders::Order { kind, hex })
}

/// Reads `attack 0804`, `hold 0705`, `reserve`…
pub fn parse_written(text: &str) -> Option<Written> {
    let mut w = text.split_whitespace();
    let kind = OrderKind::parse(w.next()?)?;
    let hex = match w.next() {
        Some(h) => Some(volley_core::geometry::parse_label(h)?),
        None => None,
    };
    if w.next().is_some() || kind.has_hex() != hex.is_some() {
        return None;
    }
    Some(Written { kind, hex })
}

#[cfg(test)]
mod tests {
    use super::*;
    use volley_core::geometry::hex_at;

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
