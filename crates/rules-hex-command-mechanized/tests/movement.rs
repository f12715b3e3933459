//! Movement (3.5, M48–M68): steps, facing, stacking, zones of control, terrain, works and minefields on the way, rain, horses.

mod common;

use common::*;

#[test]
fn movement_steps_ahead_or_obliquely_on_movement_points() {
    let s = scenario(
        None,
        "",
        &[
            squad("r1", "red", "M", "0509", "N", ""),
            squad("r2", "red", "M", "0909", "N", ""),
            squad("b1", "blue", "M", "0201", "S", ""),
        ],
    );
    let mut g = start(&s);
    // A Medium squad has 3 points (D7); one a hex.
    play(&mut g, "move r1 0508", &[]);
    assert!(refused(&mut g, "move r1 0509").contains("steps only into the hex ahead"));
    play(&mut g, "move r1 0507", &[]);
    play(&mut g, "move r1 0506", &[]);
    assert!(refused(&mut g, "move r1 0505").contains("0 of its 3 movement points left"));
    assert_eq!(hex_of(&*g, "r1"), "0506");
}

#[test]
fn movement_an_enemy_zone_of_control_ends_the_move() {
    let s = scenario(
        None,
        "",
        &[
            squad("r1", "red", "L", "0509", "N", ""),
            squad("b1", "blue", "M", "0505", "S", ""),
        ],
    );
    let mut g = start(&s);
    play(&mut g, "move r1 0508", &[]);
    let events = play(&mut g, "move r1 0507", &[]);
    // 0506 is in b1's front hexes, 0507 is not; the next step enters them.
    assert!(!texts(&events).contains("zone of control"));
    let events = play(&mut g, "move r1 0506", &[]);
    assert!(
        texts(&events).contains("into an enemy's zone of control, and stops (M54)"),
        "{}",
        texts(&events)
    );
}

#[test]
fn movement_two_items_a_hex() {
    let s = scenario(
        None,
        "",
        &[
            squad("r1", "red", "M", "0508", "N", ""),
            squad("r2", "red", "M", "0507", "N", ""),
            squad("r3", "red", "M", "0507", "N", ""),
            squad("b1", "blue", "M", "0201", "S", ""),
        ],
    );
    let mut g = start(&s);
    assert!(refused(&mut g, "move r1 0507").contains("already holds two items (M56)"));
}

#[test]
fn movement_vehicles_reverse_at_half_speed() {
    let s = scenario(
        None,
        "",
        &[
            vehicle("r1", "red", "t34-76", "0505", "N"),
            squad("b1", "blue", "M", "0201", "S", ""),
        ],
    );
    let mut g = start(&s);
    // A Medium chassis moves 5 (D2): reversing, 3.
    for hex in ["0506", "0507", "0508"] {
        play(&mut g, &format!("reverse r1 {hex}"), &[]);
    }
    assert!(refused(&mut g, "reverse r1 0509").contains("movement points left"));
}

#[test]
fn facing_changes_are_limited_by_class() {
    let s = scenario(
        None,
        "",
        &[
            vehicle("r1", "red", "t34-76", "0505", "N"),
            vehicle("r2", "red", "pz2", "0305", "N"),
            squad("b1", "blue", "M", "0201", "S", ""),
        ],
    );
    let mut g = start(&s);
    // Medium vehicles turn once a turn, Light ones twice (T6).
    play(&mut g, "face r1 NE", &[]);
    assert!(refused(&mut g, "face r1 SE").contains("made its 1 facing change this turn (M51)"));
    play(&mut g, "face r2 NE", &[]);
    play(&mut g, "face r2 SE", &[]);
    assert!(refused(&mut g, "face r2 S").contains("made its 2 facing changes"));
}

#[test]
fn movement_vehicles_entering_works_stop_there_infantry_do_not() {
    let s = scenario_with(
        "works = [\"0506\", \"0306\"]",
        &[
            vehicle("r1", "red", "t34-76", "0508", "N"),
            squad("r2", "red", "M", "0308", "N", ""),
            squad("b1", "blue", "M", "0201", "S", ""),
        ],
    );
    let mut g = start(&s);
    play(&mut g, "move r1 0507", &[]);
    let events = play(&mut g, "move r1 0506", &[]);
    assert!(
        texts(&events).contains("into works, and stops for the turn (M64)"),
        "{}",
        texts(&events)
    );
    assert!(refused(&mut g, "move r1 0505").contains("finished its move"));
    play(&mut g, "move r2 0307", &[]);
    play(&mut g, "move r2 0306", &[]);
    play(&mut g, "move r2 0305", &[]);
}

#[test]
fn movement_a_minefield_stops_the_item_and_hurts_it_unless_it_clears_mines() {
    let mines = "[[minefields]]\nhex = \"0506\"\nside = \"blue\"\n\n[[minefields]]\nhex = \"0306\"\nside = \"blue\"";
    let s = scenario_with(
        mines,
        &[
            squad("r1", "red", "M", "0507", "N", ""),
            squad("r2", "red", "M", "0307", "N", "engineer = true"),
            squad("b1", "blue", "M", "0201", "S", ""),
        ],
    );
    let mut g = start(&s);
    // Red cannot see blue's minefields until it finds them.
    assert!(g
        .view(Some(Side::Red))
        .features
        .iter()
        .all(|f| f.kind != "minefield"));
    assert_eq!(
        g.view(Some(Side::Blue))
            .features
            .iter()
            .filter(|f| f.kind == "minefield")
            .count(),
        2
    );
    let events = play(&mut g, "move r1 0506", &[]);
    let t = texts(&events);
    assert!(
        t.contains("r1 runs into a minefield at 0506 and stops"),
        "{t}"
    );
    assert!(t.contains("1 marker"), "{t}");
    assert!(g
        .view(Some(Side::Red))
        .features
        .iter()
        .any(|f| f.kind == "minefield"));
    // Engineers pass through (M65).
    let events = play(&mut g, "move r2 0306", &[]);
    assert!(
        texts(&events).contains("r2 finds mines at 0306 and passes through them."),
        "{}",
        texts(&events)
    );
    play(&mut g, "move r2 0305", &[]);
}

#[test]
fn movement_rain_sticks_wheeled_vehicles_on_three_to_six() {
    let units = [
        vehicle("r1", "red", "m8", "0508", "N"),
        vehicle("r2", "red", "m8", "0308", "N"),
        squad("b1", "blue", "M", "0901", "S", ""),
    ];
    let mut g = start(&with_options(&scenario(None, "", &units), "rain = \"yes\""));
    let events = play(&mut g, "move r1 0507", &[3]);
    assert!(
        texts(&events).contains("r1 rolls 3 in the mud: stuck for the turn."),
        "{}",
        texts(&events)
    );
    assert_eq!(hex_of(&*g, "r1"), "0508");
    let events = play(&mut g, "move r2 0307", &[2]);
    assert!(
        texts(&events).contains("r2 rolls 2 in the mud: it gets going."),
        "{}",
        texts(&events)
    );
    // One roll a turn: the next step rolls nothing.
    play(&mut g, "move r2 0306", &[]);
    assert_eq!(hex_of(&*g, "r2"), "0306");
}

#[test]
fn horses_left_when_cavalry_dismounts_into_combat_are_found_on_five_or_six() {
    let cav = |enemy: &str| {
        start(&scenario(
            None,
            "",
            &[
                squad("r1", "red", "M", "0509", "N", "cavalry = true"),
                squad("r2", "red", "M", "0109", "N", ""),
                squad("b1", "blue", "M", enemy, "S", ""),
            ],
        ))
    };
    // Away from the enemy: off and on again for nothing.
    let mut g = cav("0501");
    play(&mut g, "dismount r1", &[]);
    let events = play(&mut g, "mount r1", &[]);
    assert!(texts(&events).contains("r1 mounts."), "{}", texts(&events));
    // Next to b1: the horses are left; a 4 does not find them, and r1's move is over.
    let mut g = cav("0508");
    let events = play(&mut g, "dismount r1", &[]);
    assert!(
        texts(&events).contains("r1 dismounts into combat and leaves its horses."),
        "{}",
        texts(&events)
    );
    let events = play(&mut g, "mount r1", &[4]);
    assert!(
        texts(&events).contains("r1 rolls 4: its horses are not found this turn."),
        "{}",
        texts(&events)
    );
    assert!(refused(&mut g, "move r1 0408").contains("finished its move"));
}

#[test]
fn zone_of_control_3_5_5_a_unit_stopped_before_it_has_turned_may_still_turn() {
    let s = scenario(
        None,
        "",
        &[
            vehicle("r1", "red", "t34-76", "0509", "N"),
            squad("r2", "red", "L", "0109", "N", ""),
            squad("b1", "blue", "M", "0505", "S", ""),
            squad("b2", "blue", "M", "0308", "SW", ""),
        ],
    );
    let mut g = start(&s);
    // The Medium tank has 5 points (D2): three steps bring it into b1's front hex 0506 with
    // two left, and it stops there.
    play(&mut g, "move r1 0508", &[]);
    play(&mut g, "move r1 0507", &[]);
    let t = texts(&play(&mut g, "move r1 0506", &[]));
    assert!(
        t.contains("r1 moves from 0507 to 0506, into an enemy's zone of control, and stops (M54)"),
        "{t}"
    );
    assert!(refused(&mut g, "move r1 0505").contains("finished its move"));
    // Stopped, it may still turn to any side, once.
    let turns: Vec<String> = legal(&*g)
        .into_iter()
        .filter(|a| a.starts_with("face r1"))
        .collect();
    assert_eq!(
        turns,
        [
            "face r1 NE",
            "face r1 SE",
            "face r1 S",
            "face r1 SW",
            "face r1 NW"
        ]
    );
    let t = texts(&play(&mut g, "face r1 NE", &[]));
    assert!(t.contains("r1 turns from N to NE."), "{t}");
    assert!(!legal(&*g).iter().any(|a| a.starts_with("face r1")));
    assert!(refused(&mut g, "face r1 N").contains("r1 has finished its move this turn"));
    assert_eq!(
        g.view(None).unit("r1").unwrap().facing.map(|f| f.name()),
        Some("NE")
    );

    // A squad that has turned already and then walks into a zone of control has had its turn:
    // r2 turns north-east and steps into b2's front hex 0208.
    play(&mut g, "face r2 NE", &[]);
    let t = texts(&play(&mut g, "move r2 0208", &[]));
    assert!(
        t.contains("into an enemy's zone of control, and stops (M54)"),
        "{t}"
    );
    // With no turn left to r2 and nothing else for red to do, red's movement is over.
    assert_eq!(g.view(None).phase, "blue fires (red's turn)");
}

#[test]
fn zone_of_control_3_5_5_the_turn_is_lost_once_another_unit_moves() {
    let s = scenario(
        None,
        "",
        &[
            squad("r1", "red", "L", "0508", "N", ""),
            squad("r2", "red", "L", "0909", "N", ""),
            squad("b1", "blue", "M", "0505", "S", ""),
        ],
    );
    let mut g = start(&s);
    play(&mut g, "move r1 0507", &[]);
    play(&mut g, "move r1 0506", &[]);
    assert!(legal(&*g).contains(&"face r1 NW".to_string()));
    play(&mut g, "move r2 0908", &[]);
    assert!(refused(&mut g, "face r1 NW").contains("finished its move"));
}
