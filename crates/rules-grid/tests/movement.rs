//! Movement Rules 1-7: through sides, once per turn, one tile less to fire, facing, no sharing,
//! contact with the enemy, cavalry through friends; commanders riding to a unit; the reach the map
//! draws. One test per rule, with scripted dice and exact results. Maps are square unless a test
//! says hex; labels are column then row ("0304" = column 3, row 4).

mod common;

use common::*;
use volley_core::geometry::Facing;
use volley_core::Game;

#[test]
fn movement_is_through_tile_sides_not_corners() {
    let mut g = open_field("square");
    let moves = |g: &dyn Game| {
        legal(g)
            .iter()
            .filter(|a| a.starts_with("move r1 "))
            .count()
    };
    assert_eq!(moves(&*g), 4);
    assert!(refused(&mut g, "move r1 0404").contains("not corners (Movement Rules 1)"));
    play(&mut g, "move r1 0405", &[]);
    assert_eq!(tile(&*g, "r1"), "0405");
    let g = open_field("hex");
    assert_eq!(moves(&*g), 6);
}

#[test]
fn reach_lists_the_tiles_a_unit_can_move_to_through_sides() {
    use volley_core::geometry::{col_row, parse_label};
    let g = open_field("square");
    let reach = g.reach("r1");
    // Line infantry moves two tiles, through sides only: every tile two sides away or
    // nearer, on the map, but r2's (only cavalry passes through or stops with friends).
    let (c0, r0) = col_row(parse_label("0305").unwrap());
    assert_eq!(reach.len(), 10, "{reach:?}");
    for r in &reach {
        let (c, row) = col_row(parse_label(&r.hex).unwrap());
        assert_eq!(r.cost, c.abs_diff(c0) + row.abs_diff(r0), "{r:?}");
        assert_ne!(r.hex, "0105");
    }
    assert!(g.reach("b1").is_empty(), "not blue's turn");
}

#[test]
fn units_move_only_once_per_turn() {
    let mut g = open_field("square");
    play(&mut g, "move r1 0304", &[]);
    play(&mut g, "move r2 0104", &[]);
    assert!(refused(&mut g, "move r1 0303").contains("already moved this turn (Movement Rules 2)"));
}

#[test]
fn units_end_their_move_facing_one_side() {
    let mut g = open_field("square");
    play(&mut g, "move r1 0304", &[]);
    let events = play(&mut g, "face r1 E", &[]);
    assert_eq!(events[0].rule, "grid-rules-v1.1 Movement Rules 4");
    assert!(unit_view(&*g, "r1").has("facing E"));
    assert!(refused(&mut g, "move r1 0404").contains("already moved"));
    assert!(g.parse_action("face r2 NE").is_err());
    let mut g = open_field("hex");
    play(&mut g, "face r1 NE", &[]);
    assert_eq!(unit_view(&*g, "r1").facing, Some(Facing::NE));
}

#[test]
fn units_that_fire_move_one_tile_less() {
    let s = scenario(
        "square",
        &rows(&open(6, 6)),
        &[
            unit("r1", "red", "line_infantry", "0205", "N"),
            unit("r2", "red", "line_infantry", "0405", "N"),
            unit("b1", "blue", "line_infantry", "0302", "S"),
        ],
        "",
    );
    let mut g = start(&s, &[6, 1]);
    play(&mut g, "move r1 0204", &[]);
    play(&mut g, "move r2 0404", &[]);
    play(&mut g, "move r2 0403", &[]);
    play(&mut g, "end", &[]);
    assert_eq!(g.view(None).phase, "red ranged attacks");
    assert!(refused(&mut g, "fire r2 0302").contains("moved its full 2 tiles"));
    let events = play(&mut g, "fire r1 0302", &[5, 4, 6]);
    assert_eq!(
        events[0].text,
        "r1 fires at b1 (line infantry) at 0302, range 3 (band 3-3): rolled 5+4 = 9 on the line infantry table: 1 hit."
    );
    assert_eq!(
        events[0].rule,
        "grid-rules-v1.1 Infantry Ranged Attack Process 4"
    );
}

#[test]
fn units_may_not_share_tiles_and_only_cavalry_pass_through_friends() {
    let s = scenario(
        "square",
        &rows(&open(6, 6)),
        &[
            unit("r1", "red", "line_infantry", "0304", "N"),
            unit("r2", "red", "line_infantry", "0305", "N"),
            unit("r3", "red", "cavalry", "0306", "N"),
            unit("b1", "blue", "line_infantry", "0601", "S"),
        ],
        "",
    );
    let mut g = start(&s, &[6, 1]);
    assert!(refused(&mut g, "move r2 0304").contains("only cavalry may move through a friend"));
    play(&mut g, "move r3 0305", &[]);
    assert!(refused(&mut g, "end").contains("may not end its move in a friend's tile"));
    assert!(refused(&mut g, "face r3 E").contains("friend's tile"));
    assert!(refused(&mut g, "move r1 0204").contains("must move on"));
    play(&mut g, "move r3 0304", &[]);
    play(&mut g, "move r3 0303", &[]);
    assert_eq!(tile(&*g, "r3"), "0303");
    play(&mut g, "end", &[]);
}

#[test]
fn commanders_attach_to_a_unit_and_share_its_tile() {
    let s = scenario(
        "square",
        &rows(&open(6, 6)),
        &[
            unit("r1", "red", "line_infantry", "0305", "N"),
            unit("r2", "red", "line_infantry", "0505", "N"),
            unit("b1", "blue", "line_infantry", "0101", "S"),
        ],
        "[[sides.red.commanders]]\nid = \"rc\"\nname = \"Colonel\"\nwith = \"r1\"\n",
    );
    let mut g = start(&s, &[6, 1]);
    assert_eq!(unit_view(&*g, "r1").commander.as_deref(), Some("rc"));
    play(&mut g, "attach rc r2", &[]);
    assert_eq!(unit_view(&*g, "r2").commander.as_deref(), Some("rc"));
    assert_eq!(unit_view(&*g, "r1").commander, None);
    // A commander is not one of the units the initiative roll counts.
    assert_eq!(g.view(None).phase, "red movement (0 of 6 units moved)");
    assert!(refused(&mut g, "attach rc r1").contains("already moved"));
}

#[test]
fn moving_next_to_an_enemy_stops_the_unit_turns_it_and_starts_close_combat() {
    let mut g = contact_game();
    play(&mut g, "move r1 0304", &[]);
    let events = play(&mut g, "move r1 0303", &[]);
    assert_eq!(events[1].rule, "grid-rules-v1.1 Movement Rules 6");
    assert_eq!(
        events[1].text,
        "r1 stops next to b1, turns to face it (W) and must engage it in close combat."
    );
    let flags = unit_view(&*g, "r1").flags;
    assert!(flags.contains(&"facing W".into()) && flags.contains(&"must attack".into()));
    // With nothing else to move and no shot, red's phases run on to close combat.
    assert_eq!(g.view(None).phase, "red close combat");
    assert!(refused(&mut g, "end").contains("must attack it (Close Combat 1)"));
    play(&mut g, "attack r1 0203", &[1, 1]);
}

#[test]
fn moving_next_to_two_enemies_the_player_chooses_which_to_face() {
    let s = scenario(
        "square",
        &rows(&open(6, 6)),
        &[
            unit("r1", "red", "line_infantry", "0305", "N"),
            unit("r2", "red", "line_infantry", "0605", "N"),
            unit("b1", "blue", "line_infantry", "0203", "S"),
            unit("b2", "blue", "line_infantry", "0302", "S"),
        ],
        "",
    );
    let mut g = start(&s, &[6, 1]);
    play(&mut g, "move r1 0304", &[]);
    play(&mut g, "move r1 0303", &[]);
    assert!(refused(&mut g, "face r1 E").contains("must face one of the enemies"));
    assert!(refused(&mut g, "move r2 0604").contains("choose which enemy to face"));
    assert!(refused(&mut g, "end").contains("choose which enemy to face"));
    let events = play(&mut g, "face r1 N", &[]);
    assert!(
        events[0].text.starts_with("r1 stops next to b2"),
        "{}",
        events[0].text
    );
    assert!(unit_view(&*g, "r1").flags.contains(&"facing N".into()));
}
