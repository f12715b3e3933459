//! All-water hexes: closed but for bridges (and fords, unless the scenario closes them);
//! musketry crosses from one river-edge hex to the one opposite.

mod common;

use common::*;
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

#[test]
fn river_edge_hexes_facing_each_other_across_the_river_fire_on_a_slant_too() {
    // 0302 and 0502 stand level on either bank of the river in column 4: the line between
    // them runs along the hexside of 0401 and 0402, both river. 0303 and 0503 are level too;
    // their line runs between river (0403) and the bridge (0404): river on one side is enough.
    let units = [
        unit("red", "r1", "infantry", 10, "0302", "SE"),
        unit("red", "r2", "infantry", 10, "0303", "SE"),
        standing("blue", "b1", "infantry", 10, "0502", "NE"),
        standing("blue", "b2", "infantry", 10, "0503", "N"),
        unit("blue", "b3", "infantry", 6, "0603", "N"),
    ];
    let mut g = started(&scenario(&RIVER, "", &units), 1);
    to_musketry(&mut g, Side::Red);
    let listed: Vec<String> = g.legal_actions().iter().map(|&a| g.notation(a)).collect();
    for order in ["fire 0302 0502", "fire 0303 0503"] {
        assert!(listed.contains(&order.to_string()), "{order}: {listed:?}");
    }
    // b1 faces NE: the fire reaches the corner between its NW and SW hexsides, both among
    // its rear three, so the rear bonus counts.
    let events = play(&mut g, "fire 0302 0502");
    assert!(
        events[0]
            .text
            .contains("10 infantry × (0.3 + 0.1 rear) = 4.0 → 4 casualties"),
        "{}",
        events[0].text
    );
    assert_eq!(figures(&*g, "b1"), Some(6));
    // b2 faces N: of the NW and SW hexsides only SW is a rear one, so no bonus.
    let events = play(&mut g, "fire 0303 0503");
    assert!(
        events[0]
            .text
            .contains("10 infantry × 0.3 = 3.0 → 3 casualties"),
        "{}",
        events[0].text
    );
    // Three hexes away is beyond the river's edge.
    let mut g = started(&scenario(&RIVER, "", &units), 1);
    to_musketry(&mut g, Side::Red);
    assert!(refused(&mut g, "fire 0303 0603").contains("neither next to"));
}

#[test]
fn the_mill_bridge_banks_fire_at_each_other_across_the_river() {
    // The bundled map: column 5 is the river. 0402 and 0602 face each other across it.
    let text = RIVER_CROSSING
        .replace(
            "hex = \"0303\"\nfacing = \"NE\"",
            "hex = \"0402\"\nfacing = \"SE\"",
        )
        .replace(
            "hex = \"0602\"\nfacing = \"SW\"",
            "hex = \"0602\"\nfacing = \"SW\"\nstanding = true",
        );
    let mut g = load(&text).expect("the edited scenario loads");
    g.start(&mut volley_core::ScriptedDice::new([1]));
    to_musketry(&mut g, Side::Red);
    let events = play(&mut g, "fire 0402 0602");
    assert!(
        events[0].text.starts_with("0402 fires at 0602 (standing)"),
        "{}",
        events[0].text
    );
}

#[test]
fn boats_carry_troops_onto_all_water_hexes() {
    // Boats moored at 0402 and 0403, in the river; none at 0401.
    let units = [
        unit("red", "r1", "infantry", 6, "0302", "N"),
        unit("red", "r2", "infantry", 6, "0301", "N"),
        unit("blue", "b1", "infantry", 6, "0808", "N"),
    ];
    let mut g = started(
        &scenario(&RIVER, "boats = [\"0402\", \"0403\"]\n", &units),
        1,
    );
    let boats: Vec<String> = g
        .view(None)
        .features
        .iter()
        .map(|f| format!("{} {}", f.kind, f.place))
        .collect();
    assert_eq!(boats, ["boats 0402", "boats 0403"]);
    play(&mut g, "move r1 0402");
    assert_eq!(hex_of(&*g, "r1"), "0402");
    play(&mut g, "move r1 0502");
    assert_eq!(hex_of(&*g, "r1"), "0502");
    let reason = refused(&mut g, "move r2 0401");
    assert!(
        reason.contains("only a bridge or boats cross the river, and there are no boats there"),
        "{reason}"
    );
}
