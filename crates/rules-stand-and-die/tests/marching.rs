//! Marching: who marches first, how far, what shares a hex, facing, Standing markers.

mod common;

use common::*;
use volley_core::Side;

fn two_lines(red: &[String]) -> String {
    let mut units = red.to_vec();
    units.push(unit("blue", "b1", "infantry", 6, "0808", "N"));
    scenario(&OPEN_8X8, "", &units)
}

#[test]
fn a_d6_decides_which_side_marches_first_each_turn() {
    let text = two_lines(&[unit("red", "r1", "infantry", 6, "0202", "S")]);
    let g = started(&text, 3);
    assert_eq!(g.to_decide(), Some(Side::Red));
    assert_eq!(g.view(None).phase, "red march");

    let mut g = started(&text, 4);
    assert_eq!(g.to_decide(), Some(Side::Blue));
    play(&mut g, "end");
    assert_eq!(g.view(None).phase, "blue musketry");
    play(&mut g, "end");
    assert_eq!(g.view(None).phase, "red march");
    play(&mut g, "end");
    let events = play_with(&mut g, "end", &[2]);
    assert_eq!(g.turn(), 2);
    assert_eq!(g.to_decide(), Some(Side::Red));
    assert!(texts(&events)
        .contains(&"turn 2: d6 rolled 2 (1–3 red, 4–6 blue): red marches first".to_string()));
    assert_eq!(events[0].rule, "stand-and-die marching");
}

#[test]
fn cavalry_marches_three_hexes_infantry_two_artillery_one() {
    let text = two_lines(&[
        unit("red", "r1", "cavalry", 4, "0102", "S"),
        unit("red", "r2", "infantry", 6, "0302", "S"),
        unit("red", "r3", "artillery", 1, "0502", "S"),
    ]);
    let mut g = started(&text, 1);
    for hex in ["0103", "0104", "0105"] {
        play(&mut g, &format!("move r1 {hex}"));
    }
    assert!(refused(&mut g, "move r1 0106").contains("marched its 3"));
    assert!(refused(&mut g, "move r2 0304").contains("not next to"));
    play(&mut g, "move r2 0303");
    play(&mut g, "move r2 0304");
    assert!(refused(&mut g, "move r2 0305").contains("marched its 2"));
    play(&mut g, "move r3 0503");
    assert!(refused(&mut g, "move r3 0504").contains("marched its 1"));
    // A new turn gives a new allowance.
    for _ in 0..3 {
        play(&mut g, "end");
    }
    play_with(&mut g, "end", &[1]);
    play(&mut g, "move r1 0106");
    assert_eq!(hex_of(&*g, "r1"), "0106");
}

#[test]
fn never_enter_an_enemy_hex() {
    let text = scenario(
        &OPEN_8X8,
        "",
        &[
            unit("red", "r1", "infantry", 6, "0303", "S"),
            unit("blue", "b1", "infantry", 6, "0304", "N"),
        ],
    );
    let mut g = started(&text, 1);
    assert!(refused(&mut g, "move r1 0304").contains("never enter an enemy hex"));
}

#[test]
fn cavalry_stands_alone_while_infantry_and_guns_may_share() {
    let text = two_lines(&[
        unit("red", "r1", "cavalry", 4, "0303", "S"),
        unit("red", "r2", "infantry", 4, "0304", "S"),
        unit("red", "r3", "artillery", 1, "0305", "S"),
        unit("red", "r4", "cavalry", 3, "0203", "S"),
    ]);
    let mut g = started(&text, 1);
    assert!(refused(&mut g, "move r1 0304").contains("cavalry may not share"));
    play(&mut g, "move r2 0305");
    play(&mut g, "move r1 0304");
    assert!(refused(&mut g, "move r1 0305").contains("cavalry may not share"));
    // Cavalry may join cavalry.
    play(&mut g, "move r4 0303");
    assert_eq!(hex_of(&*g, "r4"), "0303");
}

#[test]
fn a_hex_holds_only_the_figures_the_scenario_allows() {
    let units = [
        unit("red", "r1", "infantry", 8, "0303", "S"),
        unit("red", "r2", "infantry", 6, "0304", "S"),
        unit("red", "r3", "artillery", 2, "0403", "S"),
        unit("blue", "b1", "infantry", 6, "0808", "N"),
    ];
    let mut g = started(&scenario(&OPEN_8X8, "", &units), 1);
    assert!(refused(&mut g, "move r2 0303").contains("14 figures' room"));
    // 8 men and 2 guns of 2 figures' room each fill a 12-figure hex exactly.
    play(&mut g, "move r3 0303");

    let roomy = "[options]\nhex_capacity = 14\n";
    let mut g = started(&scenario(&OPEN_8X8, roomy, &units), 1);
    play(&mut g, "move r2 0303");
    assert_eq!(hex_of(&*g, "r2"), "0303");

    let big_guns = "[options]\ngun_room = 3\n";
    let mut g = started(&scenario(&OPEN_8X8, big_guns, &units), 1);
    assert!(refused(&mut g, "move r3 0303").contains("a gun takes 3"));
}

#[test]
fn facing_may_change_before_during_and_after_a_march() {
    let text = two_lines(&[unit("red", "r1", "infantry", 6, "0404", "N")]);
    let mut g = started(&text, 1);
    play(&mut g, "face r1 NE");
    assert!(refused(&mut g, "face r1 SE").contains("already turned"));
    assert!(refused(&mut g, "face r1 NE").contains("already faces"));
    play(&mut g, "move r1 0403");
    play(&mut g, "face r1 S");
    play(&mut g, "move r1 0402");
    play(&mut g, "face r1 N");
    let v = g.view(None);
    assert_eq!(
        v.unit("r1").unwrap().facing,
        Some(volley_core::geometry::Facing::N)
    );
    assert!(refused(&mut g, "face r1 S").contains("already turned"));
}

#[test]
fn troops_sharing_a_hex_face_the_same_hexside() {
    use volley_core::geometry::Facing;
    let text = two_lines(&[
        unit("red", "r1", "infantry", 4, "0404", "N"),
        unit("red", "r2", "infantry", 4, "0405", "SE"),
    ]);
    let mut g = started(&text, 1);
    let events = play(&mut g, "move r2 0404");
    assert!(
        events[0].text.contains("faces N with them"),
        "{}",
        events[0].text
    );
    assert_eq!(g.view(None).unit("r2").unwrap().facing, Some(Facing::N));
    play(&mut g, "face r1 S");
    let v = g.view(None);
    assert_eq!(v.unit("r1").unwrap().facing, Some(Facing::S));
    assert_eq!(v.unit("r2").unwrap().facing, Some(Facing::S));
}

#[test]
fn occupied_hexes_fall_back_under_pressure_unless_marked_standing() {
    let text = two_lines(&[
        unit("red", "r1", "infantry", 6, "0404", "N"),
        standing("red", "r2", "infantry", 6, "0204", "N"),
    ]);
    let mut g = started(&text, 1);
    assert!(flags(&*g, "r1").contains(&"falling back".to_string()));
    assert!(flags(&*g, "r2").contains(&"standing".to_string()));
    let events = play(&mut g, "stand 0404");
    assert_eq!(events[0].kind, "stand");
    assert!(flags(&*g, "r1").contains(&"standing".to_string()));
    assert!(refused(&mut g, "fall-back 0404").contains("already been changed"));
    assert!(refused(&mut g, "stand 0808").contains("holds no troops"));
    // The marker stays with the hex: marching out leaves the troops unmarked.
    play(&mut g, "move r1 0403");
    assert!(flags(&*g, "r1").contains(&"falling back".to_string()));
    play(&mut g, "stand 0403");
    play(&mut g, "fall-back 0204");
    assert!(flags(&*g, "r2").contains(&"falling back".to_string()));
    // Markers are set in the owner's march only.
    play(&mut g, "end");
    assert!(refused(&mut g, "fall-back 0403").contains("owner's march"));
}

#[test]
fn a_side_marches_only_in_its_own_march() {
    let text = two_lines(&[unit("red", "r1", "infantry", 6, "0404", "N")]);
    let mut g = started(&text, 1);
    assert!(refused(&mut g, "move b1 0807").contains("only in blue's march"));
    assert!(refused(&mut g, "face b1 S").contains("only in blue's march"));
    play(&mut g, "end");
    assert!(refused(&mut g, "move r1 0403").contains("only in red's march"));
}

#[test]
fn reach_lists_the_hexes_a_unit_can_still_march_to_with_the_hexes_it_takes() {
    use volley_core::geometry::{distance, parse_label};
    let text = scenario(
        &OPEN_8X8,
        "",
        &[
            unit("red", "r1", "infantry", 6, "0303", "S"),
            unit("blue", "b1", "infantry", 6, "0305", "N"),
        ],
    );
    let mut g = started(&text, 1);
    let r1 = parse_label("0303").unwrap();
    let reach = g.reach("r1");
    // Every hex within two, but its own and the enemy's.
    assert_eq!(reach.len(), 18 - 1, "{reach:?}");
    for r in &reach {
        let hex = parse_label(&r.hex).unwrap();
        assert_eq!(r.cost, distance(r1, hex), "{r:?}");
        assert_ne!(r.hex, "0305", "never into an enemy hex");
    }
    // After one hex of march, one more.
    play(&mut g, "move r1 0302");
    let reach = g.reach("r1");
    assert_eq!(reach.len(), 6, "{reach:?}");
    assert!(reach.iter().all(|r| r.cost == 1));
    // The enemy's units, and anyone's outside their own march, reach nothing.
    assert!(g.reach("b1").is_empty());
    assert!(g.reach("nobody").is_empty());
}
