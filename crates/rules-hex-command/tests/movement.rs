//! Section 5 (movement), 5.1–5.6, section 3 (artillery movement) and 6 (attaching).

mod common;

use common::*;
use volley_core::geometry::Facing;

fn moves_of(g: &HexCommandGame, id: &str) -> Vec<String> {
    g.legal_texts()
        .into_iter()
        .filter(|t| t.starts_with(&format!("move {id} ")))
        .collect()
}

#[test]
fn infantry_moves_three_hexes_a_turn() {
    let mut g = setup(
        "",
        &[],
        &(unit("r1", "red", "infantry", "0508", "N", "")
            + &unit("b1", "blue", "infantry", "0101", "S", "")),
    );
    g.at(Side::Red, Phase::Movement);
    g.play("move r1 0507", &[]);
    g.play("move r1 0506", &[]);
    g.play("move r1 0505", &[]);
    assert_eq!(g.u("r1").hex, h("0505"));
    assert_eq!(g.u("r1").mp, 0);
    assert!(moves_of(&g, "r1").is_empty(), "no fourth hex");
}

#[test]
fn movement_chart_rates_by_arm() {
    let units = unit("r1", "red", "cavalry", "0508", "N", "")
        + &unit("r2", "red", "artillery", "0708", "N", "limbered = true")
        + &unit("r3", "red", "wagon", "0308", "N", "")
        + &unit("b1", "blue", "infantry", "0101", "S", "");
    let mut g = setup("", &[], &units);
    g.at(Side::Red, Phase::Movement);
    assert_eq!((g.u("r1").mp, g.u("r2").mp, g.u("r3").mp), (5, 2, 3));
    let mut g = setup("limbered_rate = \"3\"", &[], &units);
    g.at(Side::Red, Phase::Movement);
    assert_eq!(g.u("r2").mp, 3, "section 3's rate as an option");
}

#[test]
fn units_cannot_move_backwards() {
    let mut g = setup(
        "",
        &[],
        &(unit("r1", "red", "infantry", "0505", "N", "")
            + &unit("b1", "blue", "infantry", "0101", "S", "")),
    );
    g.at(Side::Red, Phase::Movement);
    let mut m = moves_of(&g, "r1");
    m.sort();
    assert_eq!(
        m,
        vec!["move r1 0404", "move r1 0504", "move r1 0604"],
        "front and the two obliques only"
    );
    assert!(g.refused("move r1 0506").contains("not a legal action"));
}

#[test]
fn oblique_moves_need_the_option() {
    let mut g = setup(
        "oblique = \"no\"",
        &[],
        &(unit("r1", "red", "infantry", "0505", "N", "")
            + &unit("b1", "blue", "infantry", "0101", "S", "")),
    );
    g.at(Side::Red, Phase::Movement);
    assert_eq!(moves_of(&g, "r1"), vec!["move r1 0504"]);
    g.play("move r1 0504", &[]);
    assert_eq!(g.u("r1").facing, Facing::N, "units face the way they move");
}

#[test]
fn facing_changes_once_a_turn_and_cavalry_twice() {
    let units = unit("r1", "red", "infantry", "0505", "N", "")
        + &unit("r2", "red", "cavalry", "0805", "N", "")
        + &unit("b1", "blue", "infantry", "0101", "S", "");
    let mut g = setup("", &[], &units);
    g.at(Side::Red, Phase::Movement);
    g.play("face r1 NE", &[]);
    assert_eq!(g.u("r1").facing, Facing::NE);
    assert_eq!(
        g.u("r1").mp,
        3,
        "a facing change is free by default (hand-out)"
    );
    assert!(
        !g.legal_texts().iter().any(|t| t.starts_with("face r1")),
        "infantry turn once"
    );
    g.play("face r2 NE", &[]);
    g.play("move r2 0905", &[]);
    g.play("face r2 N", &[]);
    assert!(
        !g.legal_texts().iter().any(|t| t.starts_with("face r2")),
        "cavalry turn twice"
    );
    assert_eq!(g.u("r2").mp, 4, "cavalry may turn midway and keep moving");
}

#[test]
fn facing_change_at_the_end_of_a_move_ends_it() {
    let mut g = setup(
        "",
        &[],
        &(unit("r1", "red", "infantry", "0505", "N", "")
            + &unit("b1", "blue", "infantry", "0101", "S", "")),
    );
    g.at(Side::Red, Phase::Movement);
    g.play("move r1 0504", &[]);
    g.play("face r1 SE", &[]);
    assert_eq!(g.u("r1").mp, 0);
    assert!(moves_of(&g, "r1").is_empty());
}

#[test]
fn facing_change_costs_a_point_with_the_option() {
    let mut g = setup(
        "facing_change_cost = \"1\"",
        &[],
        &(unit("r1", "red", "infantry", "0505", "N", "")
            + &unit("b1", "blue", "infantry", "0101", "S", "")),
    );
    g.at(Side::Red, Phase::Movement);
    let events = g.play("face r1 NW", &[]);
    assert_eq!(g.u("r1").mp, 2);
    assert_eq!(events[0].rule, "hex-command 5.1");
    assert!(events[0].text.contains("(1 MP)"), "{}", events[0].text);
}

#[test]
fn one_unit_a_hex() {
    let units = unit("r1", "red", "infantry", "0505", "N", "")
        + &unit("r2", "red", "infantry", "0504", "N", "")
        + &unit("b1", "blue", "infantry", "0101", "S", "");
    let mut g = setup("", &[], &units);
    g.at(Side::Red, Phase::Movement);
    assert!(!moves_of(&g, "r1").contains(&"move r1 0504".to_string()));
}

#[test]
fn light_infantry_pass_through_friends_with_a_te_hit_to_both() {
    let units = unit("r1", "red", "light-infantry", "0505", "N", "")
        + &unit("r2", "red", "infantry", "0504", "N", "")
        + &unit("b1", "blue", "infantry", "0101", "S", "");
    let mut g = setup("", &[], &units);
    g.at(Side::Red, Phase::Movement);
    assert!(moves_of(&g, "r1").contains(&"move r1 0503".to_string()));
    g.play("move r1 0503", &[]);
    assert_eq!(g.u("r1").hex, h("0503"));
    assert_eq!((g.u("r1").te, g.u("r2").te, g.u("r1").mp), (1, 1, 1));
    // Line infantry cannot.
    let units = unit("r1", "red", "infantry", "0505", "N", "")
        + &unit("r2", "red", "infantry", "0504", "N", "")
        + &unit("b1", "blue", "infantry", "0101", "S", "");
    let mut g = setup("", &[], &units);
    g.at(Side::Red, Phase::Movement);
    assert!(!moves_of(&g, "r1").contains(&"move r1 0503".to_string()));
}

#[test]
fn crossing_an_obstacle_costs_a_te_unless_the_unit_started_at_it() {
    let walls = "hexsides = [{ between = [\"0504\", \"0503\"], kind = \"wall\" }, { between = [\"0505\", \"0504\"], kind = \"hedge\" }]";
    let mut g = setup_map(
        "",
        &[],
        walls,
        &(unit("r1", "red", "infantry", "0505", "N", "")
            + &unit("b1", "blue", "infantry", "0101", "S", "")),
    );
    g.at(Side::Red, Phase::Movement);
    g.play("move r1 0504", &[]);
    assert_eq!(g.u("r1").te, 0, "started at the hedge: no TE (5.4 a)");
    let events = g.play("move r1 0503", &[]);
    assert_eq!(g.u("r1").te, 1, "the wall further on costs a TE");
    assert!(events
        .iter()
        .any(|e| e.kind == "te" && e.rule == "hex-command 5.4"));
}

#[test]
fn roads_negate_terrain_effects() {
    let road = "roads = [[\"0506\", \"0505\", \"0504\"]]";
    let mut g = setup_map(
        "",
        &[("0505", "T"), ("0504", "W")],
        road,
        &(unit("r1", "red", "infantry", "0506", "N", "")
            + &unit("r2", "red", "cavalry", "0606", "N", "")
            + &unit("b1", "blue", "infantry", "0101", "S", "")),
    );
    g.at(Side::Red, Phase::Movement);
    g.play("move r1 0505", &[]);
    g.play("move r1 0504", &[]);
    assert_eq!(
        (g.u("r1").te, g.u("r1").mp),
        (0, 1),
        "no disorder and no stop along the road"
    );
}

#[test]
fn entering_forest_costs_a_te_and_stops_the_unit() {
    let mut g = setup_map(
        "",
        &[("0504", "W"), ("0503", "W")],
        "",
        &(unit("r1", "red", "infantry", "0505", "N", "")
            + &unit("b1", "blue", "infantry", "0101", "S", "")),
    );
    g.at(Side::Red, Phase::Movement);
    let events = g.play("move r1 0504", &[]);
    assert_eq!((g.u("r1").te, g.u("r1").mp), (1, 0));
    assert!(events
        .iter()
        .any(|e| e.rule == "hex-command 5.5" && e.kind == "te"));
    // Next turn, forest to forest costs nothing more.
    g.at(Side::Red, Phase::Movement);
    g.play("move r1 0503", &[]);
    assert_eq!((g.u("r1").te, g.u("r1").mp), (1, 2));
}

#[test]
fn buildings_cost_a_te_without_stopping() {
    let mut g = setup_map(
        "",
        &[("0504", "T")],
        "",
        &(unit("r1", "red", "infantry", "0505", "N", "")
            + &unit("b1", "blue", "infantry", "0101", "S", "")),
    );
    g.at(Side::Red, Phase::Movement);
    let events = g.play("move r1 0504", &[]);
    assert_eq!((g.u("r1").te, g.u("r1").mp), (1, 2));
    assert!(events.iter().any(|e| e.rule == "hex-command 5.6"));
}

#[test]
fn cavalry_off_the_road_in_forest_dismount_and_road_columns_are_flanked() {
    // 5.5 b: r2 keeps to the road through the forest and stays mounted, as a column on the
    // road (5.5.1); r1 goes in off the road and must dismount, its horses left behind.
    let road = "roads = [[\"0705\", \"0704\"]]";
    let units = unit("r1", "red", "cavalry", "0505", "N", "")
        + &unit("r2", "red", "cavalry", "0705", "N", "")
        + &unit("b1", "blue", "infantry", "0101", "S", "");
    let mut g = setup_map("", &[("0504", "W"), ("0704", "W")], road, &units);
    g.at(Side::Red, Phase::Movement);
    assert!(moves_of(&g, "r2").contains(&"move r2 0704".to_string()));
    g.play("move r2 0704", &[]);
    assert!(g.u("r2").mounted);
    assert!(g.u("r2").road_column, "a column on the road");
    assert!(g.legal_texts().contains(&"deploy r2".to_string()));
    let events = g.play("move r1 0504", &[]);
    let r1 = g.u("r1");
    assert!(!r1.mounted, "forced to dismount");
    assert_eq!((r1.horses_at, r1.mp), (Some(h("0505")), 0));
    let dismount = events.iter().find(|e| e.kind == "dismount").unwrap();
    assert_eq!(dismount.rule, "hex-command 5.5 b");
    // Deploying astride the road: no longer a column, and disordered (a TE hit).
    g.play("deploy r2", &[]);
    assert!(!g.u("r2").road_column);
    assert_eq!(g.u("r2").te, 1);
}

#[test]
fn a_column_on_the_road_is_taken_in_flank_by_fire() {
    let road = "roads = [[\"0508\", \"0507\"]]";
    let units = unit("r1", "red", "infantry", "0508", "N", "")
        + &unit("b1", "blue", "infantry", "0505", "S", "");
    let mut g = setup_map("", &[("0507", "W")], road, &units);
    g.at(Side::Red, Phase::Movement);
    g.play("move r1 0507", &[]);
    assert!(g.u("r1").road_column);
    // b1 two hexes off: Color; 1 CP for the forest, 1 CB for the column: still Color.
    g.at_fire(Side::Blue, false);
    let events = g.play("fire b1 0507", &[4]);
    let f = events.iter().find(|e| e.kind == "fire").unwrap();
    assert!(f.text.contains("1 CB column on the road"), "{}", f.text);
}

#[test]
fn rivers_are_crossed_only_at_bridges_and_fords() {
    let units = unit("r1", "red", "infantry", "0305", "N", "")
        + &unit("r2", "red", "infantry", "0505", "N", "")
        + &unit("r3", "red", "infantry", "0705", "N", "")
        + &unit("b1", "blue", "infantry", "0101", "S", "");
    let mut g = setup_map(
        "oblique = \"no\"",
        &[("0304", "~"), ("0504", "="), ("0704", "f")],
        "",
        &units,
    );
    g.at(Side::Red, Phase::Movement);
    assert!(moves_of(&g, "r1").is_empty(), "water is closed");
    g.play("move r2 0504", &[]);
    assert_eq!(g.u("r2").te, 0);
    g.play("move r3 0704", &[]);
    assert_eq!(
        g.u("r3").te,
        0,
        "a unit starting beside the ford wades it without disorder"
    );
    g.at(Side::Red, Phase::Movement);
    g.play("move r3 0703", &[]);
    let units = unit("r1", "red", "infantry", "0706", "N", "")
        + &unit("b1", "blue", "infantry", "0101", "S", "");
    let mut g = setup_map("oblique = \"no\"", &[("0704", "f")], "", &units);
    g.at(Side::Red, Phase::Movement);
    g.play("move r1 0705", &[]);
    g.play("move r1 0704", &[]);
    assert_eq!(
        g.u("r1").te,
        1,
        "reaching the ford in the same move disorders (5.4)"
    );
}

#[test]
fn limbering_and_unlimbering_cost_a_te_hit() {
    let units = unit("r1", "red", "artillery", "0505", "N", "")
        + &unit("b1", "blue", "infantry", "0101", "S", "");
    let mut g = setup("", &[], &units);
    g.at(Side::Red, Phase::Movement);
    assert!(
        moves_of(&g, "r1").is_empty(),
        "unlimbered guns do not march"
    );
    g.play("limber r1", &[]);
    assert!(g.u("r1").limbered);
    assert_eq!((g.u("r1").te, g.u("r1").mp), (1, 2));
    g.play("move r1 0504", &[]);
    g.play("unlimber r1", &[]);
    assert_eq!(g.u("r1").te, 2);
    assert!(g.u("r1").unlimbered_after_move);
}

#[test]
fn guns_unlimbered_this_turn_do_not_limber_again_until_the_next() {
    // Section 3 names limber-and-move, move-and-unlimber and unlimber-and-fire: once set up
    // the guns stay set up for the turn (without it a battery could limber and unlimber for
    // ever in one phase, a TE hit each time).
    let units = unit("r1", "red", "artillery", "0505", "N", "")
        + &unit("b1", "blue", "infantry", "0101", "S", "");
    let mut g = setup("", &[], &units);
    g.at(Side::Red, Phase::Movement);
    g.play("limber r1", &[]);
    g.play("unlimber r1", &[]);
    assert_eq!(g.u("r1").te, 2);
    assert!(!g.legal_texts().contains(&"limber r1".to_string()));
    g.refused("limber r1");
    // A new turn frees them again (initiative: red 6, blue 1).
    let mut dice = volley_core::ScriptedDice::new([6, 1]);
    rules_hex_command::sequence::begin_turn(
        &mut g.state,
        &mut dice,
        &mut volley_core::Log::silent(),
    );
    assert!(!g.u("r1").unlimbered_turn);
    g.at(Side::Red, Phase::Movement);
    assert!(g.legal_texts().contains(&"limber r1".to_string()));
}

#[test]
fn artillery_push_one_hex_over_level_clear_ground() {
    let units = unit("r1", "red", "artillery", "0505", "N", "")
        + &unit("b1", "blue", "infantry", "0101", "S", "");
    let mut g = setup_map("", &[("0604", ".1"), ("0404", "w")], "", &units);
    g.at(Side::Red, Phase::Movement);
    let pushes: Vec<String> = g
        .legal_texts()
        .into_iter()
        .filter(|t| t.starts_with("push"))
        .collect();
    assert_eq!(
        pushes,
        vec!["push r1 0504"],
        "not uphill to 0604, not into light woods at 0404"
    );
    g.play("push r1 0504", &[]);
    assert_eq!(
        (g.u("r1").hex, g.u("r1").te, g.u("r1").mp),
        (h("0504"), 1, 0)
    );
}

#[test]
fn artillery_enter_woods_only_from_clear_ground_or_by_road() {
    let units = unit("r1", "red", "artillery", "0506", "N", "limbered = true")
        + &unit("b1", "blue", "infantry", "0101", "S", "");
    let mut g = setup_map(
        "oblique = \"no\"",
        &[("0505", "W"), ("0504", "W")],
        "",
        &units,
    );
    g.at(Side::Red, Phase::Movement);
    g.play("move r1 0505", &[]);
    g.at(Side::Red, Phase::Movement);
    assert!(
        moves_of(&g, "r1").is_empty(),
        "never woods to woods (section 3)"
    );
}

#[test]
fn heavy_guns_cannot_move_and_fire_in_one_turn() {
    let units = unit(
        "r1",
        "red",
        "artillery",
        "0508",
        "N",
        "heavy = true\nlimbered = true",
    ) + &unit("b1", "blue", "infantry", "0504", "S", "");
    let mut g = setup("", &[], &units);
    g.at(Side::Red, Phase::Movement);
    g.play("move r1 0507", &[]);
    g.play("unlimber r1", &[]);
    assert!(!rules_hex_command::fire::may_fire(&g.state, g.idx("r1")));
}

#[test]
fn entering_an_enemy_front_zone_stops_the_unit() {
    let units = unit("r1", "red", "infantry", "0507", "N", "")
        + &unit("b1", "blue", "infantry", "0504", "S", "");
    let mut g = setup("", &[], &units);
    g.at(Side::Red, Phase::Movement);
    g.play("move r1 0506", &[]);
    assert_eq!(g.u("r1").mp, 2);
    let events = g.play("move r1 0505", &[]);
    assert_eq!(g.u("r1").mp, 0, "stopped in the zone (7.2.1)");
    assert!(g.state.in_melee(g.idx("r1")));
    assert!(events
        .iter()
        .any(|e| e.kind == "zoc" && e.rule == "hex-command 7.2.1"));
}

#[test]
fn zone_of_control_is_lost_with_a_hit() {
    let units = unit("r1", "red", "infantry", "0507", "N", "")
        + &unit("b1", "blue", "infantry", "0504", "S", "");
    let mut g = setup("", &[], &units);
    g.um("b1").hits = 1;
    g.at(Side::Red, Phase::Movement);
    g.play("move r1 0506", &[]);
    g.play("move r1 0505", &[]);
    assert_eq!(g.u("r1").mp, 1, "no zone, no stop (5.2 b)");
    assert!(!g.state.in_melee(g.idx("r1")));
}

#[test]
fn units_that_never_melee_cannot_enter_a_seen_enemy_zone() {
    let units = unit("r1", "red", "skirmishers", "0506", "N", "")
        + &unit("b1", "blue", "infantry", "0504", "S", "");
    let mut g = setup("", &[], &units);
    g.at(Side::Red, Phase::Movement);
    assert!(!moves_of(&g, "r1").contains(&"move r1 0505".to_string()));
}

#[test]
fn third_te_hit_fatigues_stops_and_forbids_turning() {
    let mut g = setup_map(
        "",
        &[("0504", "T")],
        "",
        &(unit("r1", "red", "infantry", "0505", "N", "")
            + &unit("b1", "blue", "infantry", "0101", "S", "")),
    );
    g.um("r1").te = 2;
    g.at(Side::Red, Phase::Movement);
    let events = g.play("move r1 0504", &[]);
    assert!(g.u("r1").fatigued());
    assert_eq!(g.u("r1").mp, 0);
    assert!(events.iter().any(|e| e.kind == "fatigued"));
    assert!(!g.legal_texts().iter().any(|t| t.starts_with("face r1")));
    assert!(
        !g.state.has_zoc(g.idx("r1")),
        "fatigued units have no zone (5.2 d)"
    );
    g.at(Side::Red, Phase::Movement);
    assert_eq!(
        g.u("r1").mp,
        1,
        "a fatigued unit creeps one hex a turn (charts)"
    );
}

#[test]
fn commanders_attach_one_to_a_unit() {
    let units = unit("r1", "red", "infantry", "0505", "N", "")
        + &unit("r2", "red", "infantry", "0705", "N", "")
        + &unit("b1", "blue", "infantry", "0101", "S", "");
    let mut g = setup("", &[], &units);
    g.at(Side::Red, Phase::Movement);
    let events = g.play("attach R1 r1", &[]);
    assert_eq!(events[0].rule, "hex-command 6");
    assert_eq!(g.u("r1").commander, Some(0));
    assert!(
        !g.legal_texts().iter().any(|t| t.starts_with("attach R1")),
        "placed, it stays for the turn"
    );
}

#[test]
fn reach_lists_every_hex_with_its_cost() {
    let units = unit("r1", "red", "infantry", "0508", "N", "")
        + &unit("b1", "blue", "infantry", "0101", "S", "");
    let mut g = setup("oblique = \"no\"", &[], &units);
    g.at(Side::Red, Phase::Movement);
    let reach: Vec<(String, u32)> = g.reach("r1").into_iter().map(|r| (r.hex, r.cost)).collect();
    assert_eq!(
        reach,
        vec![("0505".into(), 3), ("0506".into(), 2), ("0507".into(), 1)]
    );
    assert!(g.reach("b1").is_empty(), "not blue's move");
}
