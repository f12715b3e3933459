//! Carrying, towing, building and mines (M11–M13, M53, M64–M67, T8, T12, T13): what a
//! carrier holds, what loading costs, how long works take, and what a minefield does.

use crate::charts::{BlockMode, Charts, Weight};
use crate::items::{Item, Kind};
use crate::losses::{self, Result};
use volley_core::Dice;

/// M13: the cargo points an item takes up: a squad 4, any other item (a gun, a mortar or MG
/// team) 1. Vehicles are not cargo.
pub fn load_cost(item: &Item, charts: &Charts) -> Option<u8> {
    match &item.kind {
        Kind::Squad(_) => Some(charts.cargo.squad),
        Kind::Gun { .. } => Some(charts.cargo.item),
        Kind::Vehicle { .. } => None,
    }
}

/// M11–M12, T8: the points a vehicle carries (its roster's cargo; none for fighting vehicles).
pub fn capacity(item: &Item) -> u8 {
    match &item.kind {
        Kind::Vehicle { spec, .. } => spec.cargo,
        _ => 0,
    }
}

/// Whether `load` fits into `carrier` beside what it carries already (`aboard` points).
pub fn fits(carrier: &Item, aboard: u8, load: &Item, charts: &Charts) -> bool {
    load_cost(load, charts).is_some_and(|c| aboard + c <= capacity(carrier))
}

/// M53: loading, unloading, limbering or unlimbering costs the vehicle a movement point; the
/// passenger or gun pays nothing.
pub const HANDLING_COST: u8 = 1;

/// M66, T12: turns of engineering for a hex of works by weight: Light 1, Medium 2, Heavy 3.
pub fn works_turns(weight: Weight) -> u8 {
    match weight {
        Weight::Soft | Weight::VL | Weight::L => 1,
        Weight::M => 2,
        Weight::H | Weight::VH => 3,
    }
}

/// Whether an item crosses minefields unharmed (M65: engineers with anti-mine gear, flails).
pub fn mine_capable(item: &Item) -> bool {
    match &item.kind {
        Kind::Squad(s) => s.anti_mine || s.engineer,
        _ => false,
    }
}

/// M65: an item that is not mine-capable entering a minefield stops for the turn and is hurt:
/// a hit marker on a squad, a damage block on a vehicle (one, incremental: the text says "a
/// damage-block roll"), nothing on a towed gun beyond the stop. Returns the outcome in words.
pub fn enter_minefield(item: &mut Item, dice: &mut dyn Dice) -> (Result, String) {
    if mine_capable(item) {
        return (
            Result::Holds,
            format!("{} clears its way through the mines", item.id),
        );
    }
    match &item.kind {
        Kind::Squad(_) => losses::hit_squad(item, 1),
        Kind::Vehicle { .. } => losses::roll_blocks(item, 1, BlockMode::Incremental, dice),
        Kind::Gun { .. } => (Result::Holds, format!("{} stops at the mines", item.id)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::Roster;
    use crate::damage::Damage;
    use crate::items::Squad;
    use volley_core::geometry::Facing;
    use volley_core::{Hex, ScriptedDice, Side};

    fn item(kind: Kind) -> Item {
        Item {
            id: "x".into(),
            name: "x".into(),
            side: Side::Red,
            kind,
            hex: Hex::ZERO,
            facing: Facing::N,
        }
    }

    fn vehicle(t: &str) -> Item {
        item(Kind::Vehicle {
            type_id: t.into(),
            spec: Box::new(Roster::bundled().vehicles[t].clone()),
            damage: Damage::default(),
        })
    }

    fn squad(f: impl Fn(&mut Squad)) -> Item {
        let mut s = Squad {
            weight: Some(Weight::M),
            figures: 4,
            ..Default::default()
        };
        f(&mut s);
        item(Kind::Squad(s))
    }

    #[test]
    fn carriers_hold_their_points_squads_cost_four() {
        let c = Charts::bundled();
        let ht = vehicle("sdkfz251");
        let gun = item(Kind::Gun {
            weight: Weight::L,
            indirect: false,
            mortar: false,
            rockets: false,
        });
        assert_eq!(capacity(&ht), 6);
        assert!(fits(&ht, 0, &squad(|_| {}), &c));
        assert!(
            !fits(&ht, 4, &squad(|_| {}), &c),
            "a second squad does not fit"
        );
        assert!(fits(&ht, 4, &gun, &c));
        assert!(
            !fits(&vehicle("panther"), 0, &gun, &c),
            "fighting vehicles carry nothing"
        );
        assert_eq!(capacity(&vehicle("cckw")), 12);
        assert_eq!(capacity(&vehicle("bren")), 4);
    }

    #[test]
    fn works_take_one_two_or_three_turns() {
        assert_eq!(
            [Weight::L, Weight::M, Weight::H].map(works_turns),
            [1, 2, 3]
        );
    }

    #[test]
    fn mines_mark_squads_damage_vehicles_and_spare_engineers() {
        let mut s = squad(|_| {});
        let (_, text) = enter_minefield(&mut s, &mut ScriptedDice::new([]));
        assert!(text.contains("1 marker"), "{text}");
        let mut e = squad(|s| s.engineer = true);
        assert!(enter_minefield(&mut e, &mut ScriptedDice::new([]))
            .1
            .contains("clears"));
        let mut t = vehicle("pz4f2");
        let (_, text) = enter_minefield(&mut t, &mut ScriptedDice::new([6]));
        assert!(text.contains("C0 D0 M1"), "one incremental block: {text}");
    }
}
