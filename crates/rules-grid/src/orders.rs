//! Orders: the decisions a player makes ([`Order`]), packed into the engine's 64-bit `Action`
//! with `volley_core::codec`, described for bots and clients, and written and read in short
//! text: `move r3 0405`, `face r3 E`, `fire r3 0607`, `attack r3 0506`, `withdraw r3 0404`,
//! `stand b4`, `attach rc r2`, `occupy r3 0506`, `end`, and at set-up `place r3 0102`.

use crate::state::GridGame;
use crate::tiles::Heading;
use volley_core::codec::{col_row_hex, hex_col_row, Bits, Codec, Words};
use volley_core::geometry::{label, parse_label};
use volley_core::map::Grid;
use volley_core::{Action, ActionInfo, ActionKind, Hex, Illegal};

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

// The layout, as (offset, width): the kind of order, the index of the unit (or commander)
// that gives it, and its argument — a tile as column and row, a heading's index, or the unit
// a commander rides to.
const KIND: (u32, u32) = (0, 4);
const INDEX: (u32, u32) = (4, 12);
const ARG: (u32, u32) = (16, 48);

fn packed(kind: u64, index: usize, arg: u64) -> Action {
    Bits::new()
        .put(KIND.0, KIND.1, kind)
        .put(INDEX.0, INDEX.1, index as u64)
        .put(ARG.0, ARG.1, arg)
        .action()
}

impl Codec for Order {
    fn pack(self) -> Action {
        match self {
            Order::Move { unit, to } => packed(0, unit, hex_col_row(to)),
            Order::Face { unit, heading } => packed(1, unit, heading.index() as u64),
            Order::Withdraw { unit, to } => packed(2, unit, hex_col_row(to)),
            Order::Stand { unit } => packed(3, unit, 0),
            Order::Attach { commander, unit } => packed(4, commander, unit as u64),
            Order::Fire { unit, at } => packed(5, unit, hex_col_row(at)),
            Order::Attack { unit, at } => packed(6, unit, hex_col_row(at)),
            Order::Occupy { unit, to } => packed(7, unit, hex_col_row(to)),
            Order::End => packed(8, 0, 0),
            Order::Place { unit, to } => packed(9, unit, hex_col_row(to)),
        }
    }

    /// The order the bits hold; a heading is read as any side of any grid
    /// ([`Order::of_action`] asks the map's grid).
    fn decode(action: Action) -> Option<Order> {
        let bits = Bits::from(action);
        let index = bits.get(INDEX.0, INDEX.1) as usize;
        let arg = bits.get(ARG.0, ARG.1);
        let tile = || col_row_hex(arg);
        Some(match bits.get(KIND.0, KIND.1) {
            0 => Order::Move {
                unit: index,
                to: tile()?,
            },
            1 => Order::Face {
                unit: index,
                heading: Heading::from_any_index(u8::try_from(arg).ok()?)?,
            },
            2 => Order::Withdraw {
                unit: index,
                to: tile()?,
            },
            3 => Order::Stand { unit: index },
            4 => Order::Attach {
                commander: index,
                unit: usize::try_from(arg).ok()?,
            },
            5 => Order::Fire {
                unit: index,
                at: tile()?,
            },
            6 => Order::Attack {
                unit: index,
                at: tile()?,
            },
            7 => Order::Occupy {
                unit: index,
                to: tile()?,
            },
            8 => Order::End,
            9 => Order::Place {
                unit: index,
                to: tile()?,
            },
            _ => return None,
        })
    }
}

impl Order {
    /// The order an action packs on a map of this grid, if it packs one exactly (a heading
    /// the grid's tiles lack makes it none). Whether the order is legal is checked later.
    pub fn of_action(action: Action, grid: Grid) -> Option<Order> {
        Order::unpack(action).filter(|o| match o {
            Order::Face { heading, .. } => heading.is_side_of(grid),
            _ => true,
        })
    }

    /// What an order is, for bots and clients.
    pub fn describe(self, grid: Grid) -> ActionInfo {
        use ActionKind::*;
        match self {
            Order::Move { unit, to } => ActionInfo::new("move", Move).unit(unit as u32).at(to),
            Order::Face { unit, heading } => {
                let info = ActionInfo::new("face", Turn).unit(unit as u32);
                match heading.facing(grid) {
                    Some(f) => info.facing(f),
                    // A square's side, by name (N, E, S, W), for a person at the table.
                    None => info.heading(heading.name(grid)),
                }
            }
            Order::Withdraw { unit, to } => {
                ActionInfo::new("withdraw", Move).unit(unit as u32).at(to)
            }
            Order::Stand { unit } => ActionInfo::new("stand", Other).unit(unit as u32),
            Order::Attach { unit, .. } => ActionInfo::new("attach", Other).unit(unit as u32),
            Order::Fire { unit, at } => ActionInfo::new("fire", Attack).unit(unit as u32).at(at),
            Order::Attack { unit, at } => {
                ActionInfo::new("attack", Attack).unit(unit as u32).at(at)
            }
            Order::Occupy { unit, to } => ActionInfo::new("occupy", Move).unit(unit as u32).at(to),
            Order::End => ActionInfo::end(),
            Order::Place { unit, to } => ActionInfo::new("place", Move).unit(unit as u32).at(to),
        }
    }
}

/// An action in short text, naming units and commanders by their ids.
pub fn notation(g: &GridGame, action: Action) -> String {
    let grid = g.grid();
    let id = |i: usize| g.units.get(i).map_or("?", |u| u.id.as_str());
    match Order::of_action(action, grid) {
        Some(Order::Move { unit, to }) => format!("move {} {}", id(unit), label(to)),
        Some(Order::Face { unit, heading }) => {
            format!("face {} {}", id(unit), heading.name(grid))
        }
        Some(Order::Withdraw { unit, to }) => format!("withdraw {} {}", id(unit), label(to)),
        Some(Order::Stand { unit }) => format!("stand {}", id(unit)),
        Some(Order::Attach { commander, unit }) => format!(
            "attach {} {}",
            g.commanders.get(commander).map_or("?", |c| c.id.as_str()),
            id(unit)
        ),
        Some(Order::Fire { unit, at }) => format!("fire {} {}", id(unit), label(at)),
        Some(Order::Attack { unit, at }) => format!("attack {} {}", id(unit), label(at)),
        Some(Order::Occupy { unit, to }) => format!("occupy {} {}", id(unit), label(to)),
        Some(Order::End) => "end".into(),
        Some(Order::Place { unit, to }) => format!("place {} {}", id(unit), label(to)),
        None => format!("unknown action {:#x}", action.0),
    }
}

/// Reads an order written in short text; whether it is legal is checked later.
pub fn read(g: &GridGame, text: &str) -> Result<Order, Illegal> {
    let mut words = Words::new(text);
    let verb = words.verb();
    let w = &mut words;
    let unit = |w: &mut Words| w.named(g.units.iter().map(|u| &u.id), "unit");
    let order = match verb.as_str() {
        "end" => Order::End,
        "move" => Order::Move {
            unit: unit(w)?,
            to: tile(w)?,
        },
        "face" => Order::Face {
            unit: unit(w)?,
            heading: side(w, g.grid())?,
        },
        "withdraw" => Order::Withdraw {
            unit: unit(w)?,
            to: tile(w)?,
        },
        "stand" => Order::Stand { unit: unit(w)? },
        "attach" => Order::Attach {
            commander: w.named(g.commanders.iter().map(|c| &c.id), "commander")?,
            unit: unit(w)?,
        },
        "fire" => Order::Fire {
            unit: unit(w)?,
            at: tile(w)?,
        },
        "attack" => Order::Attack {
            unit: unit(w)?,
            at: tile(w)?,
        },
        "occupy" => Order::Occupy {
            unit: unit(w)?,
            to: tile(w)?,
        },
        "place" => Order::Place {
            unit: unit(w)?,
            to: tile(w)?,
        },
        _ => {
            return Err(Illegal::new(format!(
                "cannot read \"{text}\" (orders: move U TILE, face U SIDE, withdraw U TILE, stand U, attach C U, fire U TILE, attack U TILE, occupy U TILE, place U TILE, end)"
            )))
        }
    };
    words.end()?;
    Ok(order)
}

/// The next word as a tile label (`0405`): a tile, on squares as on hexes.
fn tile(w: &mut Words) -> Result<Hex, Illegal> {
    let t = w.word("a tile like 0405")?;
    parse_label(t).ok_or_else(|| Illegal::new(format!("\"{t}\" is not a tile like 0405")))
}

/// The next word as a side of the grid's tiles to face (`N E S W` or `N NE SE S SW NW`).
fn side(w: &mut Words, grid: Grid) -> Result<Heading, Illegal> {
    let names = Heading::names(grid);
    let t = w.word(&format!("a side to face ({names})"))?;
    Heading::parse(grid, t).ok_or_else(|| {
        Illegal::new(format!(
            "\"{t}\" is not a side to face (expected one of {names})"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use volley_core::geometry::hex_at;

    #[test]
    fn orders_pack_and_unpack_exactly() {
        let heading = |i| Heading::from_any_index(i);
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
            assert_eq!(Order::of_action(a, Grid::Square), Some(o));
            for bit in 0..64 {
                let flipped = Action(a.0 ^ (1 << bit));
                if let Some(other) = Order::of_action(flipped, Grid::Square) {
                    assert_ne!(other, o, "bit {bit}");
                    assert_eq!(other.pack(), flipped);
                }
            }
        }
        assert_eq!(
            Order::of_action(Action(1 | (9 << ARG.0)), Grid::Square),
            None
        );
        // A hex's fifth side is no side of a square.
        let fifth = Action(1 | (4 << ARG.0));
        assert_eq!(Order::of_action(fifth, Grid::Square), None);
        assert!(Order::of_action(fifth, Grid::Hex).is_some());
    }

    /// The packed values order the bots' ties and seed their shuffles: they are what they
    /// were before the shared codec.
    #[test]
    fn orders_pack_to_the_values_they_always_had() {
        let h = |i| Heading::from_any_index(i).unwrap();
        let cases = [
            (
                Order::Move {
                    unit: 3,
                    to: hex_at(4, 5),
                },
                1_342_439_472,
            ),
            (
                Order::Face {
                    unit: 0,
                    heading: h(3),
                },
                196_609,
            ),
            (
                Order::Withdraw {
                    unit: 5,
                    to: hex_at(12, 10),
                },
                2_685_141_074,
            ),
            (Order::Stand { unit: 7 }, 115),
            (
                Order::Attach {
                    commander: 1,
                    unit: 7,
                },
                458_772,
            ),
            (
                Order::Fire {
                    unit: 2,
                    at: hex_at(6, 7),
                },
                1_879_441_445,
            ),
            (
                Order::Attack {
                    unit: 11,
                    at: hex_at(5, 6),
                },
                1_610_940_598,
            ),
            (
                Order::Occupy {
                    unit: 4,
                    to: hex_at(3, 4),
                },
                1_073_938_503,
            ),
            (Order::End, 8),
            (
                Order::Place {
                    unit: 2,
                    to: hex_at(3, 1),
                },
                268_632_105,
            ),
        ];
        for (order, value) in cases {
            assert_eq!(order.pack(), Action(value), "{order:?}");
        }
    }
}
