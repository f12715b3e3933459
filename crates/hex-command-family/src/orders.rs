//! Written orders (Gunpowder 2.2, 2.2.1, 2.2.2; Mechanized 4.5): each brigade follows the order
//! written for it before the battle, changes it only on a passed Tactical test, and a failed
//! attempt rolls on the decision-failure table.
//!
//! The rulebooks say what an order is for ("objectives to accomplish") but not how it binds a
//! unit; Volley makes each kind a rule about the steps a unit of the brigade may take (see
//! docs/rules/hex-command.md, Interpretations):
//!
//! - **attack** an objective hex: move and melee freely, but never step away from it;
//! - **march** to a hex: as attack, but declare no melee (contacts still fight);
//! - **hold** a hex: stay within two hexes of it; fire and melee as usual;
//! - **withdraw** to a hex: as march, towards the hex named;
//! - **reserve**: turn, fire and fight where it stands, but do not move.
//!
//! A unit with a commander attached is free of its order for the turn (Gunpowder 6: attaching
//! a commander is how a player makes sure a unit does what he wants).

use volley_core::geometry::{distance, label};
use volley_core::Hex;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OrderKind {
    Attack,
    March,
    Hold,
    Withdraw,
    Reserve,
}

impl OrderKind {
    pub const ALL: [OrderKind; 5] = [
        OrderKind::Attack,
        OrderKind::March,
        OrderKind::Hold,
        OrderKind::Withdraw,
        OrderKind::Reserve,
    ];

    pub fn parse(text: &str) -> Option<OrderKind> {
        OrderKind::ALL.into_iter().find(|k| k.name() == text)
    }

    pub fn name(self) -> &'static str {
        match self {
            OrderKind::Attack => "attack",
            OrderKind::March => "march",
            OrderKind::Hold => "hold",
            OrderKind::Withdraw => "withdraw",
            OrderKind::Reserve => "reserve",
        }
    }

    /// Whether the order names a hex.
    pub fn has_hex(self) -> bool {
        self != OrderKind::Reserve
    }
}

/// A written order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Order {
    pub kind: OrderKind,
    pub hex: Option<Hex>,
}

/// How far from its hex a holding brigade may stand.
pub const HOLD_RADIUS: u32 = 2;

impl Order {
    pub fn reserve() -> Order {
        Order {
            kind: OrderKind::Reserve,
            hex: None,
        }
    }

    pub fn text(&self) -> String {
        match self.hex {
            Some(h) => format!("{} {}", self.kind.name(), label(h)),
            None => self.kind.name().into(),
        }
    }

    /// Whether a unit under this order may step from `from` to `to`.
    pub fn allows_step(&self, from: Hex, to: Hex) -> bool {
        match (self.kind, self.hex) {
            (OrderKind::Reserve, _) => false,
            (OrderKind::Hold, Some(h)) => distance(to, h) <= HOLD_RADIUS,
            (_, Some(h)) => distance(to, h) <= distance(from, h),
            (_, None) => true,
        }
    }

    /// Whether a unit under this order may declare a melee.
    pub fn allows_melee(&self) -> bool {
        matches!(
            self.kind,
            OrderKind::Attack | OrderKind::Hold | OrderKind::Reserve
        )
    }
}

/// The decision-failure table (Gunpowder 2.2.2, d10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Consequence {
    /// 1: no advance and no facing change until its next activation.
    Halt,
    /// 2: as 1, and every unit takes a TE hit.
    HaltDisorder,
    /// 3: may not move towards the enemy until it passes an Aggressiveness test.
    Timid,
    /// 4: holds where it stands until a new order gets through.
    Hold,
    /// 5: carries on with its original order.
    Carry,
    /// 6: about face and fall back until in cover, then hold.
    FallBack,
    /// 7: as 6, and every unit takes a TE hit.
    FallBackDisorder,
    /// 8: as 5, and every unit takes a hit.
    CarryHit,
    /// 9: the opponent picks one of the others.
    OpponentsChoice,
    /// 10: every unit takes a hit.
    Hit,
}

impl Consequence {
    pub const ALL: [Consequence; 10] = [
        Consequence::Halt,
        Consequence::HaltDisorder,
        Consequence::Timid,
        Consequence::Hold,
        Consequence::Carry,
        Consequence::FallBack,
        Consequence::FallBackDisorder,
        Consequence::CarryHit,
        Consequence::OpponentsChoice,
        Consequence::Hit,
    ];

    pub fn from_d10(d10: u32) -> Consequence {
        Consequence::ALL[(d10.clamp(1, 10) - 1) as usize]
    }

    /// Mechanized 4.5.1 (results a–j): the same table, except that its ninth result repeats
    /// the third (no move towards the enemy) where Gunpowder's is the opponent's choice, and
    /// the hit markers of b, g and h fall on random units rather than every one (the caller
    /// picks them).
    pub fn from_d10_mechanized(d10: u32) -> Consequence {
        match Consequence::from_d10(d10) {
            Consequence::OpponentsChoice => Consequence::Timid,
            c => c,
        }
    }

    /// The table's number.
    pub fn number(self) -> u8 {
        self as u8 + 1
    }

    pub fn text(self) -> &'static str {
        match self {
            Consequence::Halt => "no advance and no facing change this turn",
            Consequence::HaltDisorder => {
                "no advance and no facing change this turn, and a TE hit on every unit"
            }
            Consequence::Timid => {
                "no move towards the enemy until the brigade passes an Aggressiveness test"
            }
            Consequence::Hold => "holds where it stands until a new order gets through",
            Consequence::Carry => "carries on with its original order",
            Consequence::FallBack => "about faces and falls back to cover, then holds there",
            Consequence::FallBackDisorder => {
                "about faces and falls back to cover, then holds there; a TE hit on every unit"
            }
            Consequence::CarryHit => "carries on with its original order; a hit on every unit",
            Consequence::OpponentsChoice => "the opponent chooses one of the other results",
            Consequence::Hit => "a hit on every unit",
        }
    }

    /// The choices the opponent has on a 9.
    pub fn choices() -> impl Iterator<Item = Consequence> {
        Consequence::ALL
            .into_iter()
            .filter(|&c| c != Consequence::OpponentsChoice)
    }

    /// The TE hits and casualty hits the result puts on every unit of the brigade.
    pub fn damage(self) -> (u8, u8) {
        match self {
            Consequence::HaltDisorder | Consequence::FallBackDisorder => (1, 0),
            Consequence::CarryHit | Consequence::Hit => (0, 1),
            _ => (0, 0),
        }
    }

    /// Whether the brigade is halted this turn.
    pub fn halts(self) -> bool {
        matches!(self, Consequence::Halt | Consequence::HaltDisorder)
    }

    /// Whether the brigade falls back to cover.
    pub fn falls_back(self) -> bool {
        matches!(self, Consequence::FallBack | Consequence::FallBackDisorder)
    }
}

/// What a brigade is doing besides following its order, after a failed decision.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    /// Halted until the end of this game turn (results 1, 2).
    pub halted_turn: Option<u32>,
    /// Will not move towards the enemy until an Aggressiveness test passes (result 3).
    pub timid: bool,
    /// Falling back to cover (results 6, 7).
    pub falling_back: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use volley_core::geometry::parse_label;

    fn h(l: &str) -> Hex {
        parse_label(l).unwrap()
    }

    #[test]
    fn attack_never_steps_away_from_its_objective() {
        let o = Order {
            kind: OrderKind::Attack,
            hex: Some(h("0501")),
        };
        assert!(o.allows_step(h("0505"), h("0504")));
        assert!(!o.allows_step(h("0505"), h("0506")));
        assert!(o.allows_melee());
    }

    #[test]
    fn hold_keeps_within_two_hexes_and_reserve_does_not_move() {
        let o = Order {
            kind: OrderKind::Hold,
            hex: Some(h("0505")),
        };
        assert!(o.allows_step(h("0505"), h("0507")));
        assert!(!o.allows_step(h("0507"), h("0508")));
        assert!(!Order::reserve().allows_step(h("0505"), h("0504")));
        let march = Order {
            kind: OrderKind::March,
            hex: Some(h("0501")),
        };
        assert!(!march.allows_melee());
    }

    #[test]
    fn the_table_reads_one_to_ten() {
        assert_eq!(Consequence::from_d10(1), Consequence::Halt);
        assert_eq!(Consequence::from_d10(9), Consequence::OpponentsChoice);
        assert_eq!(Consequence::from_d10(10).number(), 10);
        assert_eq!(Consequence::from_d10_mechanized(9), Consequence::Timid);
        assert_eq!(Consequence::from_d10_mechanized(4), Consequence::Hold);
        assert_eq!(Consequence::choices().count(), 9);
        assert_eq!(Consequence::FallBackDisorder.damage(), (1, 0));
        assert_eq!(Consequence::CarryHit.damage(), (0, 1));
    }
}
