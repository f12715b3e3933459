//! What hits do (M97, M103–M108): hit markers and figures on squads, damage blocks on
//! vehicles, HE on a hex, infantry swarming a vehicle. Each function changes one item and
//! says in words what happened, for the log.

use crate::charts::{BlockMode, Charts, Weight};
use crate::damage::Face;
use crate::items::{Item, Kind};
use volley_core::Dice;

/// What became of an item after a loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Result {
    /// Still fighting.
    Holds,
    /// M104: down to two figures, it routs.
    Routs,
    /// Gone: a squad with no figures, a vehicle with three doubles.
    Destroyed,
}

/// M103 (C1, reading A): each hit puts a red marker on a squad; the third removes a figure
/// instead and the markers go. M104: at two figures or fewer the squad routs. Returns the
/// outcome and a description.
pub fn hit_squad(item: &mut Item, hits: u8) -> (Result, String) {
    let Kind::Squad(s) = &mut item.kind else {
        return (Result::Holds, String::new());
    };
    let mut lost = 0;
    for _ in 0..hits {
        if s.markers >= 2 {
            s.markers = 0;
            s.figures = s.figures.saturating_sub(1);
            lost += 1;
        } else {
            s.markers += 1;
        }
    }
    let text = format!(
        "{} takes {hits} hit{}: {} figure{} left, {} marker{}{}",
        item.id,
        if hits == 1 { "" } else { "s" },
        s.figures,
        if s.figures == 1 { "" } else { "s" },
        s.markers,
        if s.markers == 1 { "" } else { "s" },
        if lost > 0 {
            format!(" ({lost} figure{} lost)", if lost == 1 { "" } else { "s" })
        } else {
            String::new()
        }
    );
    let result = match s.figures {
        0 => Result::Destroyed,
        1 | 2 => Result::Routs,
        _ => Result::Holds,
    };
    (result, text)
}

/// M97: an HE hit on a squad: one figure and `markers` hit markers.
pub fn he_on_squad(item: &mut Item, markers: u8) -> (Result, String) {
    if let Kind::Squad(s) = &mut item.kind {
        s.figures = s.figures.saturating_sub(1);
    }
    let (r, text) = hit_squad(item, markers);
    (r, format!("HE: a figure lost; {text}"))
}

/// M105: a hit by a gun of weight `gun` on a vehicle rolls its damage blocks (a d6 each).
pub fn hit_vehicle(
    item: &mut Item,
    gun: Weight,
    charts: &Charts,
    dice: &mut dyn Dice,
) -> (Result, String) {
    let Kind::Vehicle { spec, .. } = &item.kind else {
        return (Result::Holds, String::new());
    };
    let (blocks, mode) = charts.blocks(gun, spec.chassis);
    roll_blocks(item, blocks, mode, dice)
}

/// Rolls `blocks` damage blocks on a vehicle.
pub fn roll_blocks(
    item: &mut Item,
    blocks: u8,
    mode: BlockMode,
    dice: &mut dyn Dice,
) -> (Result, String) {
    let id = item.id.clone();
    let Kind::Vehicle { damage, .. } = &mut item.kind else {
        return (Result::Holds, String::new());
    };
    if blocks == 0 {
        return (
            Result::Holds,
            format!("{id} is hit, but the gun is too light to harm it"),
        );
    }
    let mut faces = Vec::new();
    for _ in 0..blocks {
        let face = Face::from_d6(dice.roll(6));
        damage.take(face, mode);
        faces.push(format!("{face:?}"));
    }
    let how = match mode {
        BlockMode::Incremental => "incremental",
        BlockMode::AsRolled => "as rolled",
    };
    let destroyed = damage.destroyed();
    let text = format!(
        "{id} takes {blocks} damage block{} ({how}): {}; now C{} D{} M{}{}",
        if blocks == 1 { "" } else { "s" },
        faces.join(", "),
        damage.combat,
        damage.defence,
        damage.movement,
        if destroyed { ": destroyed" } else { "" }
    );
    (
        if destroyed {
            Result::Destroyed
        } else {
            Result::Holds
        },
        text,
    )
}

/// M107 (T18): infantry swarming a vehicle. Heavy: one incremental block; Medium: one as
/// rolled; Light: two as rolled. Open-topped vehicles are taken instead (the caller decides
/// between capture and destruction).
pub fn swarm(item: &mut Item, dice: &mut dyn Dice) -> Option<(Result, String)> {
    let Kind::Vehicle { spec, .. } = &item.kind else {
        return None;
    };
    if spec.open_topped {
        return None;
    }
    let (blocks, mode) = match spec.chassis {
        Weight::H | Weight::VH => (1, BlockMode::Incremental),
        Weight::M => (1, BlockMode::AsRolled),
        _ => (2, BlockMode::AsRolled),
    };
    Some(roll_blocks(item, blocks, mode, dice))
}

/// M116, D11: ramming. Each vehicle rolls damage blocks as if hit by a gun of the other's
/// chassis weight (soft chassis count as very light for this); a wheeled rammer harms only
/// wheeled vehicles. Returns the outcome for the rammer and for the rammed, in words.
pub fn ram(
    rammer: &mut Item,
    rammed: &mut Item,
    charts: &Charts,
    dice: &mut dyn Dice,
) -> ((Result, String), (Result, String)) {
    use crate::charts::Drive;
    let chassis = |i: &Item| match &i.kind {
        Kind::Vehicle { spec, .. } => Some((spec.chassis.max(Weight::VL), spec.drive)),
        _ => None,
    };
    let (Some((wa, da)), Some((wb, db))) = (chassis(rammer), chassis(rammed)) else {
        return (
            (Result::Holds, String::new()),
            (Result::Holds, String::new()),
        );
    };
    let on_rammed = if da == Drive::Wheeled && db != Drive::Wheeled {
        (
            Result::Holds,
            format!("{}'s wheels cannot harm {}", rammer.id, rammed.id),
        )
    } else {
        hit_vehicle(rammed, wa, charts, dice)
    };
    let on_rammer = hit_vehicle(rammer, wb, charts, dice);
    (on_rammer, on_rammed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::Roster;
    use crate::damage::Damage;
    use crate::items::Squad;
    use volley_core::geometry::Facing;
    use volley_core::{Hex, ScriptedDice, Side};

    fn squad() -> Item {
        Item {
            id: "r1".into(),
            name: "r1".into(),
            side: Side::Red,
            kind: Kind::Squad(Squad {
                weight: Some(Weight::M),
                figures: 4,
                ..Default::default()
            }),
            hex: Hex::ZERO,
            facing: Facing::N,
        }
    }

    fn vehicle(type_id: &str) -> Item {
        let spec = Roster::bundled().vehicles[type_id].clone();
        Item {
            id: "b1".into(),
            name: "b1".into(),
            side: Side::Blue,
            kind: Kind::Vehicle {
                type_id: type_id.into(),
                spec: Box::new(spec),
                damage: Damage::default(),
            },
            hex: Hex::ZERO,
            facing: Facing::N,
        }
    }

    fn figures(i: &Item) -> (u8, u8) {
        match &i.kind {
            Kind::Squad(s) => (s.figures, s.markers),
            _ => unreachable!(),
        }
    }

    #[test]
    fn every_third_hit_costs_a_figure_and_two_figures_rout() {
        let mut s = squad();
        assert_eq!(hit_squad(&mut s, 2).0, Result::Holds);
        assert_eq!(figures(&s), (4, 2));
        let (r, text) = hit_squad(&mut s, 1);
        assert_eq!((r, figures(&s)), (Result::Holds, (3, 0)));
        assert!(text.contains("1 figure lost"), "{text}");
        assert_eq!(
            hit_squad(&mut s, 3).0,
            Result::Routs,
            "the sixth hit: two figures"
        );
        assert_eq!(figures(&s), (2, 0));
    }

    #[test]
    fn he_takes_a_figure_and_places_markers() {
        let mut s = squad();
        let (r, text) = he_on_squad(&mut s, 2);
        assert_eq!((r, figures(&s)), (Result::Holds, (3, 2)));
        assert!(text.starts_with("HE: a figure lost"), "{text}");
    }

    #[test]
    fn a_hit_rolls_blocks_by_gun_against_chassis() {
        let c = Charts::bundled();
        // An M gun on a Tiger (VH): two classes lighter, no effect.
        let mut t = vehicle("tiger1");
        let (r, text) = hit_vehicle(&mut t, Weight::M, &c, &mut ScriptedDice::new([]));
        assert_eq!(r, Result::Holds);
        assert!(text.contains("too light"), "{text}");
        // An H gun on a Panzer IV (M): one block as rolled; a 4 is DD.
        let mut p = vehicle("pz4f2");
        let (_, text) = hit_vehicle(&mut p, Weight::H, &c, &mut ScriptedDice::new([4]));
        assert!(text.contains("DD; now C0 D2 M0"), "{text}");
        // A VH gun on a Stuart (L): two blocks as rolled: CC and MM; then DD destroys it.
        let mut s = vehicle("m3stuart");
        hit_vehicle(&mut s, Weight::VH, &c, &mut ScriptedDice::new([2, 6]));
        let (r, text) = hit_vehicle(&mut s, Weight::VH, &c, &mut ScriptedDice::new([4, 1]));
        assert_eq!(r, Result::Destroyed, "{text}");
    }

    #[test]
    fn ramming_hurts_both_by_the_other_chassis_and_wheels_spare_tracks() {
        let c = Charts::bundled();
        // A KV-1 (H) rams a Panzer III (M): the Panzer takes one block as rolled (+1), the
        // KV one incremental (-1).
        let (mut kv, mut pz) = (vehicle("kv1"), vehicle("pz3j"));
        let (on_kv, on_pz) = ram(&mut kv, &mut pz, &c, &mut ScriptedDice::new([4, 2]));
        assert!(on_pz.1.contains("as rolled): DD"), "{}", on_pz.1);
        assert!(on_kv.1.contains("incremental): CC; now C1"), "{}", on_kv.1);
        // An armoured car's wheels cannot harm a tank; the tank still hurts the car.
        let (mut car, mut tank) = (vehicle("sdkfz222"), vehicle("m4sherman"));
        let (on_car, on_tank) = ram(&mut car, &mut tank, &c, &mut ScriptedDice::new([1, 3]));
        assert!(on_tank.1.contains("cannot harm"), "{}", on_tank.1);
        assert!(on_car.1.contains("2 damage blocks"), "{}", on_car.1);
    }

    #[test]
    fn swarming_infantry_damage_by_weight_and_take_open_vehicles() {
        let mut kv = vehicle("kv1"); // H: one incremental block: a 2 (CC) is only C
        let (_, text) = swarm(&mut kv, &mut ScriptedDice::new([2])).unwrap();
        assert!(text.contains("C1 D0 M0"), "{text}");
        let mut crusader = vehicle("crusader"); // L: two blocks as rolled
        let (_, text) = swarm(&mut crusader, &mut ScriptedDice::new([6, 3])).unwrap();
        assert!(text.contains("C0 D1 M2"), "{text}");
        assert!(swarm(&mut vehicle("marder3"), &mut ScriptedDice::new([])).is_none());
    }
}
