//! The actions of Hex Command, packed into 64 bits with `volley_core::codec`, and their text
//! notation:
//! `move r3 0405`, `face r3 NE`, `limber r5`, `unlimber r5`, `push r5 0405`,
//! `attach R1 r3`, `fire r3 0607`, `gunfire r3 0607` (captured guns), `melee r3 0506`,
//! `advance r3 NE`, `hold r3 NE`, `points r3 0507` (Melee Points), `dismount r3`, `mount r3`,
//! `deploy r3` (off the road), `build r3 redoubt 0506`, `move R1 0405` (a commander piece),
//! `order 1st attack 0605`, `consequence 1st 4`, `block 2nd stand|withdraw`, `end`.

use crate::state::State;
use hex_command_family::ground::WorkKind;
use hex_command_family::orders::{Order, OrderKind};
use volley_core::codec::{axial_hex, hex_axial, Bits, Codec, Words};
use volley_core::geometry::{label, Facing};
use volley_core::{Action, ActionInfo, ActionKind, Hex, Illegal};

/// Where a listing of actions goes: a list, the engine's packed actions, or a question about
/// them — so that listing one unit's actions to check one, or to see whether there are any,
/// builds no list.
pub trait Sink {
    fn put(&mut self, a: HcAction);
}

impl Sink for Vec<HcAction> {
    fn put(&mut self, a: HcAction) {
        self.push(a);
    }
}

impl Sink for Vec<Action> {
    fn put(&mut self, a: HcAction) {
        self.push(a.pack());
    }
}

/// How many actions were listed.
#[derive(Default)]
pub struct Count(pub usize);

impl Sink for Count {
    fn put(&mut self, _: HcAction) {
        self.0 += 1;
    }
}

/// Whether one given action was listed.
pub struct Find {
    pub want: HcAction,
    pub found: bool,
}

impl Sink for Find {
    fn put(&mut self, a: HcAction) {
        self.found |= a == self.want;
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HcAction {
    End,
    Move {
        unit: u16,
        to: Hex,
    },
    Face {
        unit: u16,
        facing: Facing,
    },
    Limber {
        unit: u16,
    },
    Unlimber {
        unit: u16,
    },
    Push {
        unit: u16,
        to: Hex,
    },
    Attach {
        commander: u16,
        unit: u16,
    },
    Fire {
        unit: u16,
        target: Hex,
    },
    Melee {
        unit: u16,
        target: Hex,
    },
    Advance {
        unit: u16,
        facing: Facing,
    },
    Hold {
        unit: u16,
        facing: Facing,
    },
    /// Fire enemy guns the unit has taken (section 3).
    GunFire {
        unit: u16,
        target: Hex,
    },
    /// Melee Points: the opponent that takes the extra TE hit.
    Points {
        unit: u16,
        target: Hex,
    },
    Dismount {
        unit: u16,
    },
    Mount {
        unit: u16,
    },
    /// A column on a road spreads out into its hex (5.5.1).
    Deploy {
        unit: u16,
    },
    Build {
        unit: u16,
        kind: WorkKind,
        hex: Hex,
    },
    /// A commander piece moves (2 d).
    CommanderMove {
        commander: u16,
        to: Hex,
    },
    /// A brigade's new written order (2.2.1).
    Order {
        brigade: u16,
        order: Order,
    },
    /// Decision failure 9: the opponent's choice of consequence for a brigade.
    Consequence {
        brigade: u16,
        number: u8,
    },
    /// 4 b: the units on an arrival's entry hexes stand, or fall back.
    Block {
        arrival: u16,
        withdraw: bool,
    },
}

fn work_code(k: WorkKind) -> u64 {
    match k {
        WorkKind::Pontoon => 0,
        WorkKind::Redoubt => 1,
        WorkKind::QuickWorks => 2,
        WorkKind::Fort => 3,
    }
}

fn order_code(k: OrderKind) -> u64 {
    OrderKind::ALL.iter().position(|&x| x == k).unwrap_or(0) as u64
}

impl Codec for HcAction {
    /// Eight bits of kind at 56, the unit (or commander, brigade, arrival) in sixteen bits at
    /// 32, eight more bits of detail at 48 (a work, an order's kind), and a hex (axial), a
    /// facing or a number in the low 32.
    fn pack(self) -> Action {
        let (kind, a, b): (u64, u64, u64) = match self {
            HcAction::End => (0, 0, 0),
            HcAction::Move { unit, to } => (1, unit as u64, hex_axial(to)),
            HcAction::Face { unit, facing } => (2, unit as u64, facing.index() as u64),
            HcAction::Limber { unit } => (3, unit as u64, 0),
            HcAction::Unlimber { unit } => (4, unit as u64, 0),
            HcAction::Push { unit, to } => (5, unit as u64, hex_axial(to)),
            HcAction::Attach { commander, unit } => (6, unit as u64, commander as u64),
            HcAction::Fire { unit, target } => (7, unit as u64, hex_axial(target)),
            HcAction::Melee { unit, target } => (8, unit as u64, hex_axial(target)),
            HcAction::Advance { unit, facing } => (9, unit as u64, facing.index() as u64),
            HcAction::Hold { unit, facing } => (10, unit as u64, facing.index() as u64),
            HcAction::GunFire { unit, target } => (11, unit as u64, hex_axial(target)),
            HcAction::Points { unit, target } => (12, unit as u64, hex_axial(target)),
            HcAction::Dismount { unit } => (13, unit as u64, 0),
            HcAction::Mount { unit } => (14, unit as u64, 0),
            HcAction::Deploy { unit } => (15, unit as u64, 0),
            HcAction::Build { unit, kind, hex } => {
                (16, unit as u64 | work_code(kind) << 16, hex_axial(hex))
            }
            HcAction::CommanderMove { commander, to } => (17, commander as u64, hex_axial(to)),
            HcAction::Order { brigade, order } => (
                18,
                brigade as u64 | order_code(order.kind) << 16,
                order.hex.map_or(0, hex_axial),
            ),
            HcAction::Consequence { brigade, number } => (19, brigade as u64, number as u64),
            HcAction::Block { arrival, withdraw } => (20, arrival as u64, withdraw as u64),
        };
        Bits::new()
            .put(56, 8, kind)
            .put(32, 24, a)
            .put(0, 32, b)
            .action()
    }

    fn decode(action: Action) -> Option<HcAction> {
        let bits = Bits::from(action);
        let kind = bits.get(56, 8);
        let unit = bits.get(32, 16) as u16;
        let extra = bits.get(48, 8);
        let b = bits.get(0, 32);
        let facing = || Facing::from_index(b.min(6) as u8);
        Some(match kind {
            0 => HcAction::End,
            1 => HcAction::Move {
                unit,
                to: axial_hex(b),
            },
            2 => HcAction::Face {
                unit,
                facing: facing(),
            },
            3 => HcAction::Limber { unit },
            4 => HcAction::Unlimber { unit },
            5 => HcAction::Push {
                unit,
                to: axial_hex(b),
            },
            6 => HcAction::Attach {
                commander: b as u16,
                unit,
            },
            7 => HcAction::Fire {
                unit,
                target: axial_hex(b),
            },
            8 => HcAction::Melee {
                unit,
                target: axial_hex(b),
            },
            9 => HcAction::Advance {
                unit,
                facing: facing(),
            },
            10 => HcAction::Hold {
                unit,
                facing: facing(),
            },
            11 => HcAction::GunFire {
                unit,
                target: axial_hex(b),
            },
            12 => HcAction::Points {
                unit,
                target: axial_hex(b),
            },
            13 => HcAction::Dismount { unit },
            14 => HcAction::Mount { unit },
            15 => HcAction::Deploy { unit },
            16 => HcAction::Build {
                unit,
                kind: *[
                    WorkKind::Pontoon,
                    WorkKind::Redoubt,
                    WorkKind::QuickWorks,
                    WorkKind::Fort,
                ]
                .get(extra as usize)?,
                hex: axial_hex(b),
            },
            17 => HcAction::CommanderMove {
                commander: unit,
                to: axial_hex(b),
            },
            18 => {
                let kind = *OrderKind::ALL.get(extra as usize)?;
                HcAction::Order {
                    brigade: unit,
                    order: Order {
                        kind,
                        hex: kind.has_hex().then(|| axial_hex(b)),
                    },
                }
            }
            19 => HcAction::Consequence {
                brigade: unit,
                number: b.min(255) as u8,
            },
            20 => HcAction::Block {
                arrival: unit,
                withdraw: b != 0,
            },
            _ => return None,
        })
    }
}

impl HcAction {
    /// The acting unit's number (the unit joined, for an attachment); `usize::MAX` for `end`.
    pub fn unit(self) -> usize {
        match self {
            HcAction::End => usize::MAX,
            HcAction::Move { unit, .. }
            | HcAction::Face { unit, .. }
            | HcAction::Limber { unit }
            | HcAction::Unlimber { unit }
            | HcAction::Push { unit, .. }
            | HcAction::Attach { unit, .. }
            | HcAction::Fire { unit, .. }
            | HcAction::Melee { unit, .. }
            | HcAction::Advance { unit, .. }
            | HcAction::Hold { unit, .. }
            | HcAction::GunFire { unit, .. }
            | HcAction::Points { unit, .. }
            | HcAction::Dismount { unit }
            | HcAction::Mount { unit }
            | HcAction::Deploy { unit }
            | HcAction::Build { unit, .. } => unit as usize,
            HcAction::CommanderMove { .. }
            | HcAction::Order { .. }
            | HcAction::Consequence { .. }
            | HcAction::Block { .. } => usize::MAX,
        }
    }

    /// The unit that acts, if a unit does.
    pub fn acting_unit(self) -> Option<usize> {
        Some(self.unit()).filter(|&u| u != usize::MAX)
    }

    /// What the action is, for bots and clients: its verb, kind, unit and target.
    pub fn describe(self) -> ActionInfo {
        use ActionKind::*;
        match self {
            HcAction::End => ActionInfo::end(),
            HcAction::Move { unit, to } => ActionInfo::new("move", Move).unit(unit as u32).at(to),
            HcAction::Face { unit, facing } => ActionInfo::new("face", Turn)
                .unit(unit as u32)
                .facing(facing),
            HcAction::Limber { unit } => ActionInfo::new("limber", Other).unit(unit as u32),
            HcAction::Unlimber { unit } => ActionInfo::new("unlimber", Other).unit(unit as u32),
            HcAction::Push { unit, to } => ActionInfo::new("push", Move).unit(unit as u32).at(to),
            HcAction::Attach { unit, .. } => ActionInfo::new("attach", Other).unit(unit as u32),
            HcAction::Fire { unit, target } => {
                ActionInfo::new("fire", Attack).unit(unit as u32).at(target)
            }
            HcAction::Melee { unit, target } => ActionInfo::new("melee", Attack)
                .unit(unit as u32)
                .at(target),
            HcAction::Advance { unit, facing } => ActionInfo::new("advance", Move)
                .unit(unit as u32)
                .facing(facing),
            HcAction::Hold { unit, facing } => ActionInfo::new("hold", Turn)
                .unit(unit as u32)
                .facing(facing),
            HcAction::GunFire { unit, target } => ActionInfo::new("gunfire", Attack)
                .unit(unit as u32)
                .at(target),
            HcAction::Points { unit, target } => ActionInfo::new("points", Other)
                .unit(unit as u32)
                .at(target),
            HcAction::Dismount { unit } => ActionInfo::new("dismount", Other).unit(unit as u32),
            HcAction::Mount { unit } => ActionInfo::new("mount", Other).unit(unit as u32),
            HcAction::Deploy { unit } => ActionInfo::new("deploy", Other).unit(unit as u32),
            HcAction::Build { unit, hex, .. } => {
                ActionInfo::new("build", Other).unit(unit as u32).at(hex)
            }
            HcAction::CommanderMove { to, .. } => ActionInfo::new("move", Other).at(to),
            // The hex a brigade is sent to, for the map (the bots read `place`, not this).
            HcAction::Order { order, .. } => match order.hex {
                Some(hex) => ActionInfo::new("order", Other).marked(hex),
                None => ActionInfo::new("order", Other),
            },
            HcAction::Consequence { .. } => ActionInfo::new("consequence", Other),
            HcAction::Block { .. } => ActionInfo::new("block", Other),
        }
    }

    pub fn notation(self, s: &State) -> String {
        let id = |u: u16| s.units.get(u as usize).map_or("?", |u| &*u.id).to_string();
        match self {
            HcAction::End => "end".into(),
            HcAction::Move { unit, to } => format!("move {} {}", id(unit), label(to)),
            HcAction::Face { unit, facing } => format!("face {} {facing}", id(unit)),
            HcAction::Limber { unit } => format!("limber {}", id(unit)),
            HcAction::Unlimber { unit } => format!("unlimber {}", id(unit)),
            HcAction::Push { unit, to } => format!("push {} {}", id(unit), label(to)),
            HcAction::Attach { commander, unit } => {
                format!(
                    "attach {} {}",
                    s.commanders.get(commander as usize).map_or("?", |c| &*c.id),
                    id(unit)
                )
            }
            HcAction::Fire { unit, target } => format!("fire {} {}", id(unit), label(target)),
            HcAction::Melee { unit, target } => format!("melee {} {}", id(unit), label(target)),
            HcAction::Advance { unit, facing } => format!("advance {} {facing}", id(unit)),
            HcAction::Hold { unit, facing } => format!("hold {} {facing}", id(unit)),
            HcAction::GunFire { unit, target } => {
                format!("gunfire {} {}", id(unit), label(target))
            }
            HcAction::Points { unit, target } => format!("points {} {}", id(unit), label(target)),
            HcAction::Dismount { unit } => format!("dismount {}", id(unit)),
            HcAction::Mount { unit } => format!("mount {}", id(unit)),
            HcAction::Deploy { unit } => format!("deploy {}", id(unit)),
            HcAction::Build { unit, kind, hex } => {
                format!("build {} {} {}", id(unit), kind.name(), label(hex))
            }
            HcAction::CommanderMove { commander, to } => format!(
                "move {} {}",
                s.commanders.get(commander as usize).map_or("?", |c| &*c.id),
                label(to)
            ),
            HcAction::Order { brigade, order } => format!(
                "order {} {}",
                s.brigades.get(brigade as usize).map_or("?", |b| &*b.id),
                order.text()
            ),
            HcAction::Consequence { brigade, number } => format!(
                "consequence {} {number}",
                s.brigades.get(brigade as usize).map_or("?", |b| &*b.id)
            ),
            HcAction::Block { arrival, withdraw } => format!(
                "block {} {}",
                s.arrivals.get(arrival as usize).map_or("?", |a| &*a.id),
                if withdraw { "withdraw" } else { "stand" }
            ),
        }
    }

    /// Reads an action from its notation, with the ids of this game's units, commanders,
    /// brigades and arrivals.
    pub fn parse(text: &str, s: &State) -> Result<HcAction, Illegal> {
        let usage = "actions look like: move r3 0405 | face r3 NE | limber r5 | unlimber r5 | push r5 0405 | attach R1 r3 | fire r3 0607 | gunfire r3 0607 | melee r3 0506 | advance r3 NE | hold r3 NE | points r3 0507 | dismount r3 | mount r3 | deploy r3 | build r3 redoubt 0506 | move R1 0405 | order 1st attack 0605 | consequence 1st 4 | block 2nd stand | end";
        let mut w = Words::new(text);
        let verb = w.verb();
        let unit = |w: &mut Words| {
            w.named(s.units.iter().map(|u| &*u.id), "unit")
                .map(|i| i as u16)
        };
        let commander = |w: &mut Words| {
            w.named(s.commanders.iter().map(|c| &*c.id), "commander")
                .map(|i| i as u16)
        };
        let brigade = |w: &mut Words| {
            w.named(s.brigades.iter().map(|b| &*b.id), "brigade")
                .map(|i| i as u16)
        };
        let a = match verb.as_str() {
            "end" => HcAction::End,
            "move"
                if w.peek()
                    .is_some_and(|c| s.commanders.iter().any(|x| x.id == c)) =>
            {
                HcAction::CommanderMove {
                    commander: commander(&mut w)?,
                    to: w.hex()?,
                }
            }
            "move" => HcAction::Move {
                unit: unit(&mut w)?,
                to: w.hex()?,
            },
            "face" => HcAction::Face {
                unit: unit(&mut w)?,
                facing: w.facing()?,
            },
            "limber" => HcAction::Limber {
                unit: unit(&mut w)?,
            },
            "unlimber" => HcAction::Unlimber {
                unit: unit(&mut w)?,
            },
            "push" => HcAction::Push {
                unit: unit(&mut w)?,
                to: w.hex()?,
            },
            "attach" => HcAction::Attach {
                commander: commander(&mut w)?,
                unit: unit(&mut w)?,
            },
            "fire" => HcAction::Fire {
                unit: unit(&mut w)?,
                target: w.hex()?,
            },
            "melee" => HcAction::Melee {
                unit: unit(&mut w)?,
                target: w.hex()?,
            },
            "advance" => HcAction::Advance {
                unit: unit(&mut w)?,
                facing: w.facing()?,
            },
            "hold" => HcAction::Hold {
                unit: unit(&mut w)?,
                facing: w.facing()?,
            },
            "gunfire" => HcAction::GunFire {
                unit: unit(&mut w)?,
                target: w.hex()?,
            },
            "points" => HcAction::Points {
                unit: unit(&mut w)?,
                target: w.hex()?,
            },
            "dismount" => HcAction::Dismount {
                unit: unit(&mut w)?,
            },
            "mount" => HcAction::Mount {
                unit: unit(&mut w)?,
            },
            "deploy" => HcAction::Deploy {
                unit: unit(&mut w)?,
            },
            "build" => {
                let unit = unit(&mut w)?;
                let k = w.word("a work: pontoon, redoubt or quick-works")?;
                let kind = WorkKind::parse(k)
                    .filter(|k| WorkKind::BUILDABLE.contains(k))
                    .ok_or_else(|| {
                        Illegal::new(format!(
                            "\"{k}\" is not a work: pontoon, redoubt or quick-works"
                        ))
                    })?;
                HcAction::Build {
                    unit,
                    kind,
                    hex: w.hex()?,
                }
            }
            "order" => {
                let brigade = brigade(&mut w)?;
                let kind = w.next_word().and_then(OrderKind::parse).ok_or_else(|| {
                    Illegal::new(
                        "an order is attack, march, hold or withdraw with a hex, or reserve",
                    )
                })?;
                let hex = match (kind.has_hex(), w.done()) {
                    (true, false) => Some(w.hex()?),
                    (false, true) => None,
                    (true, true) => {
                        return Err(Illegal::new(format!("a {} order names a hex", kind.name())))
                    }
                    (false, false) => return Err(Illegal::new("a reserve order names no hex")),
                };
                HcAction::Order {
                    brigade,
                    order: Order { kind, hex },
                }
            }
            "consequence" => HcAction::Consequence {
                brigade: brigade(&mut w)?,
                number: w
                    .number("a consequence from 1 to 10")
                    .ok()
                    .filter(|n| (1..=10).contains(n))
                    .ok_or_else(|| Illegal::new("a consequence is a number from 1 to 10"))?,
            },
            "block" => HcAction::Block {
                arrival: w.named(s.arrivals.iter().map(|a| &*a.id), "arrival")? as u16,
                withdraw: match w.word("stand or withdraw")? {
                    "withdraw" => true,
                    "stand" => false,
                    _ => return Err(Illegal::new("block ... stand or block ... withdraw")),
                },
            },
            _ => return Err(Illegal::new(format!("cannot read \"{text}\": {usage}"))),
        };
        w.end()?;
        Ok(a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_has_exactly_one_packing() {
        let a = HcAction::Face {
            unit: 3,
            facing: Facing::SE,
        }
        .pack();
        assert_eq!(
            HcAction::unpack(a),
            Some(HcAction::Face {
                unit: 3,
                facing: Facing::SE
            })
        );
        for bit in 0..64 {
            let flipped = Action(a.0 ^ (1 << bit));
            if let Some(other) = HcAction::unpack(flipped) {
                assert_eq!(other.pack(), flipped, "bit {bit}");
                assert_ne!(
                    other,
                    HcAction::Face {
                        unit: 3,
                        facing: Facing::SE
                    }
                );
            }
        }
        let m = HcAction::Move {
            unit: 1,
            to: Hex::new(-3, 7),
        };
        assert_eq!(HcAction::unpack(m.pack()), Some(m));
    }
}
