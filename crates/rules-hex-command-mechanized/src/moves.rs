//! Movement numbers (M48–M68): how far each item goes, what a facing change costs, reversing,
//! wheeled vehicles off the road, forest entry and the damage that slows a vehicle.

use crate::charts::{Charts, Drive, Weight};
use crate::items::{Item, Kind};

/// M48, D2, D7, M58–M59: movement points at the start of a move.
pub fn allowance(item: &Item, charts: &Charts) -> u8 {
    match &item.kind {
        Kind::Squad(s) if s.cavalry && !s.dismounted => 5,
        Kind::Squad(s) if s.commando => charts.infantry[&Weight::L].movement,
        Kind::Squad(s) => s
            .weight
            .and_then(|w| charts.infantry.get(&w))
            .map_or(3, |i| i.movement),
        Kind::Vehicle { spec, damage, .. } => damage.speed(charts.chassis[&spec.chassis].speed),
        // Guns are moved by towing, or pushed a hex (as infantry's single step).
        Kind::Gun { .. } => 1,
    }
}

/// M50: a vehicle reverses at half its speed, rounded up.
pub fn reverse_allowance(item: &Item, charts: &Charts) -> u8 {
    allowance(item, charts).div_ceil(2)
}

/// What a step costs (D9): one point; wheeled vehicles off the road two (M68; halftracks pay
/// no penalty).
pub fn step_cost(item: &Item, on_road: bool) -> u8 {
    match &item.kind {
        Kind::Vehicle { spec, .. } if spec.drive == Drive::Wheeled && !on_road => 2,
        _ => 1,
    }
}

/// T6, C11: facing changes a turn — vehicles by chassis (M damage leaves one), squads once
/// (cavalry twice), as in Gunpowder.
pub fn facing_changes(item: &Item, charts: &Charts) -> u8 {
    match &item.kind {
        Kind::Vehicle { spec, damage, .. } => {
            let n = charts.chassis[&spec.chassis].facing_changes;
            if damage.movement > 0 {
                n.min(1)
            } else {
                n
            }
        }
        Kind::Squad(s) if s.cavalry => 2,
        _ => 1,
    }
}

/// M51–M52: a facing change costs a point, nothing along a road.
pub fn facing_cost(on_road: bool) -> u8 {
    if on_road {
        0
    } else {
        1
    }
}

/// T10, M61: the d6 a vehicle needs to force its way into a forest hex off the road.
pub fn forest_entry_needed(item: &Item, charts: &Charts) -> Option<u32> {
    match &item.kind {
        Kind::Vehicle { spec, .. } => charts.forest_entry.get(&spec.chassis).copied(),
        _ => None,
    }
}

/// M63, C15: a vehicle with double movement damage climbs no hill and crosses no obstacle.
pub fn crippled(item: &Item) -> bool {
    matches!(&item.kind, Kind::Vehicle { damage, .. } if damage.movement >= 2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::Roster;
    use crate::damage::Damage;
    use crate::items::Squad;
    use volley_core::geometry::Facing;
    use volley_core::{Hex, Side};

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

    fn vehicle(t: &str, damage: Damage) -> Item {
        item(Kind::Vehicle {
            type_id: t.into(),
            spec: Box::new(Roster::bundled().vehicles[t].clone()),
            damage,
        })
    }

    fn squad(w: Weight, f: impl Fn(&mut Squad)) -> Item {
        let mut s = Squad {
            weight: Some(w),
            figures: 4,
            ..Default::default()
        };
        f(&mut s);
        item(Kind::Squad(s))
    }

    #[test]
    fn allowances_by_piece() {
        let c = Charts::bundled();
        assert_eq!(allowance(&squad(Weight::L, |_| {}), &c), 4);
        assert_eq!(allowance(&squad(Weight::H, |_| {}), &c), 3);
        assert_eq!(
            allowance(&squad(Weight::H, |s| s.commando = true), &c),
            4,
            "M59"
        );
        assert_eq!(
            allowance(&squad(Weight::M, |s| s.cavalry = true), &c),
            5,
            "M58"
        );
        assert_eq!(allowance(&vehicle("tiger1", Damage::default()), &c), 3);
        assert_eq!(allowance(&vehicle("pz4f2", Damage::default()), &c), 5);
        let m = Damage {
            movement: 1,
            ..Damage::default()
        };
        assert_eq!(
            allowance(&vehicle("pz4f2", m), &c),
            2,
            "M: half, rounded down"
        );
        assert_eq!(
            reverse_allowance(&vehicle("pz4f2", Damage::default()), &c),
            3,
            "M50"
        );
    }

    #[test]
    fn wheels_pay_off_the_road_and_facing_is_free_on_it() {
        let c = Charts::bundled();
        let car = vehicle("sdkfz222", Damage::default());
        assert_eq!((step_cost(&car, true), step_cost(&car, false)), (1, 2));
        assert_eq!(
            step_cost(&vehicle("m3ht", Damage::default()), false),
            1,
            "halftracks"
        );
        assert_eq!((facing_cost(true), facing_cost(false)), (0, 1));
        assert_eq!(facing_changes(&car, &c), 2);
        assert_eq!(
            facing_changes(&vehicle("panther", Damage::default()), &c),
            1
        );
    }

    #[test]
    fn forest_and_crippled_vehicles() {
        let c = Charts::bundled();
        assert_eq!(
            forest_entry_needed(&vehicle("pz4f2", Damage::default()), &c),
            Some(4)
        );
        assert_eq!(
            forest_entry_needed(&vehicle("kingtiger", Damage::default()), &c),
            Some(6)
        );
        assert_eq!(forest_entry_needed(&squad(Weight::M, |_| {}), &c), None);
        let mm = Damage {
            movement: 2,
            ..Damage::default()
        };
        assert!(crippled(&vehicle("pz4f2", mm)));
        assert_eq!(
            allowance(&vehicle("pz4f2", mm), &c),
            1,
            "MM: one hex a turn"
        );
    }
}
