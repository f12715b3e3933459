//! All-water hexes: closed but for bridges (and fords, unless the scenario closes them);
//! musketry crosses from one river-edge hex to the one opposite.

use crate::common::*;
use volley_core::geometry::{hex_at, label, step, Facing};
use volley_core::Side;

/// Column 4 is river, bridged at 0404, with a ford at 0406.
const RIVER: [&str; 8] = [
    ". . . ~ . . . .",
    ". . . ~ . . . .",
    ". . . ~ . . . .",
    ". . . = . . . .",
    ". . . ~ . . . .",
    ". . . f . . . .",
    ". . . ~ . . . .",
    ". . . ~ . . . .",
];

fn red_at_the_river(extra: &str, more: &[String]) -> Box<dyn volley_core::Game> {
    let mut units = vec![
        unit("red", "r1", "infantry", 6, "0302", "N"),
        unit("red", "r2", "infantry", 6, "0304", "N"),
        unit("red", "r3", "cavalry", 6, "0306", "N"),
    ];
    units.extend_from_slice(more);
    if !units.iter().any(|u| u.contains("\"blue\"")) {
        units.push(unit("blue", "b1", "infantry", 6, "0808", "N"));
    }
    started(&scenario(&RIVER, extra, &units), 1)
}

#[test]
fn all_water_hexes_are_closed_except_by_a_bridge() {
    let mut g = red_at_the_river("", &[]);
    let reason = refused(&mut g, "move r1 0402");
    assert!(reason.contains("all-water hex"), "{reason}");
    play(&mut g, "move r2 0404");
    play(&mut g, "move r2 0504");
    assert_eq!(hex_of(&*g, "r2"), "0504");
}

#[test]
fn fords_may_be_waded_unless_the_scenario_closes_them() {
    let mut g = red_at_the_river("", &[]);
    play(&mut g, "move r3 0406");
    let mut g = red_at_the_river("[options]\nfords = \"closed\"\n", &[]);
    assert!(refused(&mut g, "move r3 0406").contains("fords are closed"));
}

#[test]
fn river_edge_hexes_fire_across_one_water_hex() {
    let from = hex_at(3, 3);
    let opposite = step(step(from, Facing::NE), Facing::NE);
    assert_eq!(label(step(from, Facing::NE)), "0402");
    let target = standing("blue", "b1", "infantry", 10, &label(opposite), "SW");
    let mut units = vec![unit("red", "r1", "infantry", 10, "0303", "NE"), target];
    // Two hexes across open ground is out of reach; so is fire over the bridge hex.
    units.push(unit("red", "r2", "infantry", 6, "0206", "S"));
    units.push(unit("blue", "b2", "infantry", 6, "0208", "N"));
    units.push(unit("red", "r3", "infantry", 6, "0304", "SE"));
    units.push(unit("blue", "b3", "infantry", 6, "0505", "NW"));
    let mut g = started(&scenario(&RIVER, "", &units), 1);
    to_musketry(&mut g, Side::Red);
    let events = play(&mut g, &format!("fire 0303 {}", label(opposite)));
    assert!(events[0]
        .text
        .contains("10 infantry × 0.3 = 3.0 → 3 casualties"));
    assert_eq!(figures(&*g, "b1"), Some(7));
    assert!(refused(&mut g, "fire 0206 0208").contains("neither next to"));
    assert_eq!(label(step(hex_at(3, 4), Facing::SE)), "0404");
    assert!(refused(&mut g, "fire 0304 0505").contains("neither next to"));
}
