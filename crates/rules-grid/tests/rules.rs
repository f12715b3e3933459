//! One test per rule of grid-rules-v1.1, with scripted dice and exact results. Maps are
//! square unless a test says hex; labels are column then row ("0304" = column 3, row 4).

mod common;

use common::*;
use volley_core::geometry::Facing;
use volley_core::{Game, ScriptedDice, Side};

fn line_of(text: &str, needle: &str) -> usize {
    text[..text.find(needle).expect("needle in text")]
        .matches('\n')
        .count()
        + 1
}

// ---------------------------------------------------------------- Initiative

#[test]
fn initiative_higher_roll_plays_first_and_counts_units() {
    let s = scenario(
        "square",
        &rows(&open(5, 5)),
        &[
            unit("r1", "red", "line_infantry", "0305", "N"),
            unit("b1", "blue", "line_infantry", "0301", "S"),
        ],
        "",
    );
    let mut g = load(&s).unwrap();
    let events = g.start(&mut ScriptedDice::new([2, 5]));
    assert!(texts(&events).contains(
        "red rolled 2, blue rolled 5; blue plays first with the higher roll. Red may move 2 units, blue 5."
    ), "{}", texts(&events));
    assert_eq!(events[0].rule, "grid-rules-v1.1 Initiative");
    assert_eq!(g.to_decide(), Some(Side::Blue));
    assert_eq!(g.view(None).phase, "blue movement (0 of 5 units moved)");
}

#[test]
fn initiative_ties_are_rolled_again() {
    let s = scenario(
        "square",
        &rows(&open(5, 5)),
        &[
            unit("r1", "red", "line_infantry", "0305", "N"),
            unit("b1", "blue", "line_infantry", "0301", "S"),
        ],
        "",
    );
    let mut g = load(&s).unwrap();
    let mut dice = ScriptedDice::new([3, 3, 4, 1]);
    let events = g.start(&mut dice);
    assert_eq!(dice.remaining(), 0);
    let t = texts(&events);
    assert!(t.contains("red and blue both rolled 3; roll again."), "{t}");
    assert!(
        t.contains("red rolled 4, blue rolled 1; red plays first"),
        "{t}"
    );
    assert_eq!(g.to_decide(), Some(Side::Red));
}

#[test]
fn initiative_roll_is_the_number_of_units_a_player_may_move() {
    let s = scenario(
        "square",
        &rows(&open(6, 6)),
        &[
            unit("r1", "red", "line_infantry", "0106", "N"),
            unit("r2", "red", "line_infantry", "0306", "N"),
            unit("r3", "red", "line_infantry", "0506", "N"),
            unit("b1", "blue", "line_infantry", "0101", "S"),
        ],
        "",
    );
    let mut g = start(&s, &[2, 1]);
    play(&mut g, "move r1 0105", &[]);
    play(&mut g, "move r2 0305", &[]);
    assert_eq!(g.view(None).phase, "red movement (2 of 2 units moved)");
    assert!(refused(&mut g, "move r3 0505").contains("rolled 2 for initiative"));
    assert!(refused(&mut g, "face r3 E").contains("rolled 2 for initiative"));
}

#[test]
fn initiative_first_player_may_be_named_by_the_scenario() {
    let s = scenario(
        "square",
        &rows(&open(5, 5)),
        &[
            unit("r1", "red", "line_infantry", "0305", "N"),
            unit("b1", "blue", "line_infantry", "0301", "S"),
        ],
        "[options]\nfirst_player = \"blue\"\n",
    );
    let mut g = load(&s).unwrap();
    let events = g.start(&mut ScriptedDice::new([6, 1]));
    assert!(texts(&events)
        .contains("blue plays first as the scenario dictates. Red may move 6 units, blue 1."));
    assert_eq!(g.to_decide(), Some(Side::Blue));
}

// ---------------------------------------------------------------- Game Setup

fn back_rows_scenario(red_tile: &str) -> String {
    scenario(
        "square",
        &rows(&open(6, 6)),
        &[
            unit("r1", "red", "line_infantry", red_tile, "S"),
            unit("b1", "blue", "line_infantry", "0306", "N"),
        ],
        "",
    )
    .replacen("setup = \"free\"\n", "", 1)
}

#[test]
fn setup_is_in_the_back_two_rows_and_not_the_outer_columns() {
    assert!(load(&back_rows_scenario("0302")).is_ok());
    let s = back_rows_scenario("0303");
    let e = load(&s).err().unwrap();
    assert_eq!(e.line, line_of(&s, "tile = \"0303\""));
    assert!(
        e.message
            .contains("not in this side's two back rows (1 to 2)"),
        "{e}"
    );
    let s = back_rows_scenario("0101");
    let e = load(&s).err().unwrap();
    assert!(e.message.contains("outer column"), "{e}");
    assert!(e
        .to_string()
        .starts_with(&format!("test.toml:{}:", line_of(&s, "tile = \"0101\""))));
}

// ---------------------------------------------------------------- Movement Rules

fn open_field(grid: &str) -> Box<dyn Game> {
    let s = scenario(
        grid,
        &rows(&open(6, 6)),
        &[
            unit("r1", "red", "line_infantry", "0305", "N"),
            unit("r2", "red", "line_infantry", "0105", "N"),
            unit("b1", "blue", "line_infantry", "0601", "S"),
        ],
        "",
    );
    start(&s, &[6, 1])
}

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

fn contact_game() -> Box<dyn Game> {
    let s = scenario(
        "square",
        &rows(&open(6, 6)),
        &[
            unit("r1", "red", "line_infantry", "0305", "N"),
            unit("b1", "blue", "line_infantry", "0203", "S"),
        ],
        "",
    );
    start(&s, &[6, 1])
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

// ---------------------------------------------------------------- Terrain and movement

fn mover_on(rows_: &[&str], kind: &str, at: &str) -> Box<dyn Game> {
    mover_on_with(rows_, kind, at, "")
}

fn mover_on_with(rows_: &[&str], kind: &str, at: &str, extra: &str) -> Box<dyn Game> {
    let w = rows_[0].split_whitespace().count();
    let enemy_col = format!("{:02}01", w);
    let s = scenario(
        "square",
        rows_,
        &[
            unit("r1", "red", kind, at, "N"),
            unit("b1", "blue", "line_infantry", &enemy_col, "S"),
        ],
        extra,
    );
    start(&s, &[6, 1])
}

#[test]
fn terrain_river_impassable_except_at_bridges_and_fords() {
    let map = [". ~ = f .", ". . . . .", ". . . . .", ". . . . ."];
    let mut g = mover_on(&map, "light_infantry", "0202");
    assert!(refused(&mut g, "move r1 0201")
        .contains("rivers are impassable except at bridges or fords"));
    let mut g = mover_on(&map, "light_infantry", "0302");
    play(&mut g, "move r1 0301", &[]);
    let mut g = mover_on(&map, "light_infantry", "0402");
    play(&mut g, "move r1 0401", &[]);
    // A stream along a tile side is a river there.
    let s = scenario(
        "square",
        &rows(&open(4, 4)),
        &[
            unit("r1", "red", "cavalry", "0103", "N"),
            unit("b1", "blue", "line_infantry", "0401", "S"),
        ],
        "",
    )
    .replace(
        "rows = [",
        "hexsides = [{ between = [\"0103\", \"0102\"], kind = \"stream\" }]\nrows = [",
    );
    let mut g = start(&s, &[6, 1]);
    assert!(refused(&mut g, "move r1 0102").contains("a river runs between 0103 and 0102"));
}

#[test]
fn terrain_swamp_and_mountain_are_impassable() {
    let map = [". m M .", ". . . .", ". . . ."];
    let mut g = mover_on(&map, "light_infantry", "0202");
    assert!(refused(&mut g, "move r1 0201").contains("swamps are impassable"));
    let mut g = mover_on(&map, "light_infantry", "0302");
    assert!(refused(&mut g, "move r1 0301").contains("mountains are impassable"));
}

#[test]
fn terrain_forest_and_built_up_areas_are_for_infantry_only() {
    let map = [". W T .", ". . . .", ". . . ."];
    let mut g = mover_on(&map, "cavalry", "0202");
    assert!(refused(&mut g, "move r1 0201").contains("only infantry may enter forest"));
    let mut g = mover_on(&map, "artillery", "0302");
    assert!(refused(&mut g, "move r1 0301").contains("only infantry may occupy a built-up area"));
    let mut g = mover_on(&map, "line_infantry", "0302");
    play(&mut g, "move r1 0301", &[]);
    let s = scenario(
        "square",
        &map,
        &[
            unit("r1", "red", "artillery", "0201", "N"),
            unit("b1", "blue", "line_infantry", "0403", "S"),
        ],
        "",
    );
    let e = load(&s).err().unwrap();
    assert!(e.message.contains("only infantry may enter forest"), "{e}");
}

#[test]
fn terrain_forest_reduces_movement_to_one_tile() {
    let map = [". . . .", ". . . .", ". . . .", ". W . .", ". . . ."];
    let mut g = mover_on(&map, "light_infantry", "0205");
    play(&mut g, "move r1 0204", &[]);
    assert!(refused(&mut g, "move r1 0203").contains("may move 1 tiles this turn (forest: 1 tile)"));
    // Leaving forest is as slow as entering it; starting on a hill costs nothing.
    let mut g = mover_on(&map, "light_infantry", "0204");
    play(&mut g, "move r1 0203", &[]);
    assert!(refused(&mut g, "move r1 0202").contains("(forest: 1 tile)"));
    let hill = [". . . .", ". . . .", ". . . .", ". .1 . .", ". . . ."];
    let mut g = mover_on(&hill, "line_infantry", "0204");
    play(&mut g, "move r1 0203", &[]);
    play(&mut g, "move r1 0202", &[]);
}

#[test]
fn terrain_hill_reduces_movement_by_one() {
    let map = [". . . .", ". . . .", ". . . .", ". .1 . .", ". . . ."];
    let mut g = mover_on(&map, "line_infantry", "0205");
    play(&mut g, "move r1 0204", &[]);
    assert!(refused(&mut g, "move r1 0203").contains("may move 1 tiles this turn (hill -1)"));
    let mut g = mover_on(&map, "light_infantry", "0205");
    play(&mut g, "move r1 0204", &[]);
    play(&mut g, "move r1 0203", &[]);
    assert!(refused(&mut g, "move r1 0202").contains("may move 2 tiles"));
}

#[test]
fn terrain_hills_and_rough_slow_movement_for_each_tile_entered_as_an_option() {
    let per_tile = "[options]\nterrain_cost = \"per-tile\"\n";
    // Light infantry (3 tiles) climbs two hill tiles, 0204 and 0203.
    let map = [". . . .", ". . . .", ". .1 . .", ". .1 . .", ". . . ."];
    // Default: the move is one tile shorter, however many hill tiles it enters.
    let mut g = mover_on(&map, "light_infantry", "0205");
    play(&mut g, "move r1 0204", &[]);
    play(&mut g, "move r1 0203", &[]);
    assert!(refused(&mut g, "move r1 0202").contains("may move 2 tiles this turn (hill -1)"));
    // terrain_cost = "per-tile": one tile shorter for each hill tile entered.
    let mut g = mover_on_with(&map, "light_infantry", "0205", per_tile);
    play(&mut g, "move r1 0204", &[]);
    assert_eq!(
        refused(&mut g, "move r1 0203"),
        "r1 may move 1 tiles this turn (hill -2) and has moved 1 (Terrain)"
    );
    play(&mut g, "move r1 0304", &[]);
    assert_eq!(tile(&*g, "r1"), "0304");
    // Cavalry (4 tiles) through two rough tiles, 0106 and 0105: 3 tiles by default, 2
    // with the option.
    let map = [
        ". . .", ". . .", ". . .", ". . .", "r . .", "r . .", ". . .",
    ];
    let mut g = mover_on(&map, "cavalry", "0107");
    for to in ["0106", "0105", "0104"] {
        play(&mut g, &format!("move r1 {to}"), &[]);
    }
    let mut g = mover_on_with(&map, "cavalry", "0107", per_tile);
    play(&mut g, "move r1 0106", &[]);
    play(&mut g, "move r1 0105", &[]);
    assert_eq!(
        refused(&mut g, "move r1 0104"),
        "r1 may move 2 tiles this turn (rough -2 for cavalry) and has moved 2 (Terrain)"
    );
}

#[test]
fn terrain_rough_slows_cavalry_only() {
    let map = [
        ". . .", ". . .", ". . .", ". . .", ". . .", "r . .", ". . .",
    ];
    let mut g = mover_on(&map, "cavalry", "0107");
    for to in ["0106", "0105", "0104"] {
        play(&mut g, &format!("move r1 {to}"), &[]);
    }
    assert!(refused(&mut g, "move r1 0103")
        .contains("may move 3 tiles this turn (rough -1 for cavalry)"));
    let mut g = mover_on(&map, "light_infantry", "0107");
    for to in ["0106", "0105", "0104"] {
        play(&mut g, &format!("move r1 {to}"), &[]);
    }
}

// ---------------------------------------------------------------- Ranged attacks

fn two_shooters(extra: &str) -> Box<dyn Game> {
    let s = scenario(
        "square",
        &rows(&open(6, 6)),
        &[
            unit("r1", "red", "line_infantry", "0204", "N"),
            unit("r2", "red", "line_infantry", "0404", "N"),
            unit("b1", "blue", "line_infantry", "0302", "S"),
        ],
        extra,
    );
    let mut g = start(&s, &[6, 1]);
    play(&mut g, "end", &[]);
    g
}

#[test]
fn ranged_units_fire_only_once_per_turn() {
    let mut g = two_shooters("");
    play(&mut g, "fire r1 0302", &[1, 1]);
    assert!(refused(&mut g, "fire r1 0302")
        .contains("already fired this turn (Infantry Ranged Attack 1)"));
}

#[test]
fn ranged_targets_out_of_range_are_refused() {
    let s = scenario(
        "square",
        &rows(&open(6, 6)),
        &[
            unit("r1", "red", "line_infantry", "0106", "N"),
            unit("r2", "red", "light_infantry", "0306", "N"),
            unit("b1", "blue", "line_infantry", "0102", "S"),
            unit("b2", "blue", "line_infantry", "0302", "S"),
        ],
        "",
    );
    let mut g = start(&s, &[6, 1]);
    play(&mut g, "end", &[]);
    assert!(refused(&mut g, "fire r1 0102")
        .contains("4 tiles away; line infantry reaches 3 (Infantry Ranged Attack 2)"));
    play(&mut g, "fire r2 0302", &[1, 1]);
}

#[test]
fn ranged_commander_attached_or_adjacent_adds_one() {
    let s = scenario(
        "square",
        &rows(&open(6, 6)),
        &[
            unit("r1", "red", "line_infantry", "0204", "N"),
            unit("r2", "red", "line_infantry", "0304", "N"),
            unit("r3", "red", "line_infantry", "0503", "W"),
            unit("b1", "blue", "line_infantry", "0302", "S"),
        ],
        "[[sides.red.commanders]]\nid = \"rc\"\nwith = \"r2\"\n",
    );
    let mut g = start(&s, &[6, 1]);
    play(&mut g, "end", &[]);
    // r2 has the commander attached; r1 is beside r2; r3 is neither.
    let events = play(&mut g, "fire r1 0302", &[4, 4]);
    assert!(
        events[0].text.ends_with(
            "range 3 (band 3-3): rolled 4+4 +1 commander rc = 9 on the line infantry table: 1 hit."
        ),
        "{}",
        events[0].text
    );
    let events = play(&mut g, "fire r2 0302", &[4, 4]);
    assert!(events[0].text.ends_with("range 2 (band 1-2): rolled 4+4 +1 commander rc = 9 on the line infantry table: 2 hits."), "{}", events[0].text);
    let events = play(&mut g, "fire r3 0302", &[4, 4, 6, 6, 6]);
    assert!(
        events[0]
            .text
            .ends_with("range 3 (band 3-3): rolled 4+4 = 8 on the line infantry table: 1 hit."),
        "{}",
        events[0].text
    );
    assert_eq!(strength(&*g, "b1"), 1);
}

#[test]
fn ranged_target_in_cover_subtracts_one_and_rough_covers_only_light_infantry() {
    let s = scenario(
        "square",
        &[". r . r .", ". . . . .", ". . . . ."],
        &[
            unit("r1", "red", "line_infantry", "0203", "N"),
            unit("r2", "red", "line_infantry", "0403", "N"),
            unit("b1", "blue", "light_infantry", "0201", "S"),
            unit("b2", "blue", "line_infantry", "0401", "S"),
        ],
        "",
    );
    let mut g = start(&s, &[6, 1]);
    play(&mut g, "end", &[]);
    let events = play(&mut g, "fire r1 0201", &[4, 4]);
    assert!(
        events[0].text.ends_with(
            "rolled 4+4 -1 target in cover (rough) = 7 on the line infantry table: 1 hit."
        ),
        "{}",
        events[0].text
    );
    let events = play(&mut g, "fire r2 0401", &[4, 4, 6, 6]);
    assert!(
        events[0]
            .text
            .ends_with("rolled 4+4 = 8 on the line infantry table: 1 hit."),
        "{}",
        events[0].text
    );
}

#[test]
fn ranged_artillery_may_not_fire_after_moving() {
    let s = scenario(
        "square",
        &rows(&open(3, 6)),
        &[
            unit("r1", "red", "artillery", "0106", "N"),
            unit("r2", "red", "line_infantry", "0304", "N"),
            unit("b1", "blue", "line_infantry", "0202", "S"),
        ],
        "",
    );
    let mut g = start(&s, &[6, 1]);
    play(&mut g, "move r1 0105", &[]);
    play(&mut g, "end", &[]);
    assert!(refused(&mut g, "fire r1 0202")
        .contains("has moved and may not fire (Artillery Ranged Attack 2)"));
}

#[test]
fn ranged_artillery_firing_into_the_same_tile_as_last_turn_adds_one() {
    let s = scenario(
        "square",
        &rows(&open(3, 6)),
        &[
            unit("r1", "red", "artillery", "0106", "N"),
            unit("b1", "blue", "line_infantry", "0101", "N"),
        ],
        "",
    );
    let mut g = start(&s, &[6, 1]);
    play(&mut g, "end", &[]);
    let events = play(&mut g, "fire r1 0101", &[3, 3, 6]);
    assert!(
        events[0]
            .text
            .contains("range 5 (band 4-6): rolled 3+3 = 6 on the artillery table: 1 hit."),
        "{}",
        events[0].text
    );
    assert_eq!(g.to_decide(), Some(Side::Blue));
    // Blue's "end" runs out its player-turn and rolls game-turn 2's initiative.
    play(&mut g, "end", &[6, 1]);
    assert_eq!(g.turn(), 2);
    play(&mut g, "end", &[]);
    let events = play(&mut g, "fire r1 0101", &[3, 3, 6]);
    assert!(
        events[0].text.contains(
            "rolled 3+3 +1 fired into the same tile last turn = 7 on the artillery table: 1 hit."
        ),
        "{}",
        events[0].text
    );
    assert_eq!(
        events[0].rule,
        "grid-rules-v1.1 Artillery Ranged Attack Process 4"
    );
}

/// A two-column map: column 1 holds `blocker` at row 3 between r1 (0105) and b1 (0101 or as
/// given); column 2 is open, so the ranged phase always has a shot.
fn sight_game(grid: &str, col1: [&str; 5], target: &str, extra: &str) -> Box<dyn Game> {
    let rows_: Vec<String> = col1.iter().map(|c| format!("{c} .")).collect();
    let s = scenario(
        grid,
        &rows(&rows_),
        &[
            unit("r1", "red", "artillery", "0105", "N"),
            unit("r2", "red", "artillery", "0205", "N"),
            unit("b1", "blue", "light_infantry", target, "S"),
            unit("b2", "blue", "line_infantry", "0201", "S"),
        ],
        extra,
    );
    let mut g = start(&s, &[6, 1]);
    play(&mut g, "end", &[]);
    g
}

#[test]
fn ranged_line_of_sight_is_blocked_by_forest_towns_mountains_and_hills() {
    for grid in ["square", "hex"] {
        for blocker in ["W", "T", "M", ".1"] {
            let mut g = sight_game(grid, [".", ".", blocker, ".", "."], "0101", "");
            let why = refused(&mut g, "fire r1 0101");
            assert!(
                why.contains("no line of sight to 0101 (Artillery Ranged Attack 4)"),
                "{grid} {blocker}: {why}"
            );
        }
        for open in [".", "r", "~", "m"] {
            let mut g = sight_game(grid, [".", ".", open, ".", "."], "0101", "");
            play(&mut g, "fire r1 0101", &[1, 1]);
        }
    }
}

#[test]
fn ranged_units_on_the_edge_of_a_hill_are_seen_but_the_hill_blocks_behind() {
    for grid in ["square", "hex"] {
        let mut g = sight_game(grid, [".1", ".1", ".", ".", "."], "0102", "");
        play(&mut g, "fire r1 0102", &[1, 1]);
        let mut g = sight_game(grid, [".1", ".1", ".", ".", "."], "0101", "");
        assert!(refused(&mut g, "fire r1 0101").contains("no line of sight"));
    }
}

#[test]
fn ranged_guns_on_a_hill_crest_see_down_their_own_slope_to_its_foot() {
    for grid in ["square", "hex"] {
        // r1's guns on the crest (elevation 2) at 0105, the slope below them at 0104 and
        // 0103 (elevation 1), b1 at the foot, 0102.
        let mut g = sight_game(grid, [".", ".", ".1", ".1", ".2"], "0102", "");
        let events = play(&mut g, "fire r1 0102", &[4, 4]);
        assert!(
            events[0]
                .text
                .contains("range 3 (band 1-3): rolled 4+4 = 8"),
            "{grid}: {}",
            events[0].text
        );
        // A hill as high as the crest between them hides what is behind it…
        let mut g = sight_game(grid, [".", ".2", ".", ".", ".2"], "0101", "");
        assert!(refused(&mut g, "fire r1 0101").contains("no line of sight"));
        // …but the crest sees over a lower one to the ground behind it.
        let mut g = sight_game(grid, [".", ".", ".1", ".", ".2"], "0101", "");
        play(&mut g, "fire r1 0101", &[1, 1]);
    }
}

#[test]
fn ranged_fire_into_woods_reaches_only_one_tile_deep() {
    let mut g = sight_game("square", ["W", "W", ".", ".", "."], "0102", "");
    let events = play(&mut g, "fire r1 0102", &[4, 4]);
    assert!(
        events[0].text.contains("-1 target in cover (woods) = 7"),
        "{}",
        events[0].text
    );
    let mut g = sight_game("square", ["W", "W", ".", ".", "."], "0101", "");
    assert!(refused(&mut g, "fire r1 0101").contains("no line of sight"));
    // The other reading, as an option: only from the next tile.
    let mut g = sight_game(
        "square",
        ["W", "W", ".", ".", "."],
        "0102",
        "[options]\nfire_into_cover = \"adjacent\"\n",
    );
    assert!(refused(&mut g, "fire r1 0102").contains("only from the next tile"));
}

#[test]
fn ranged_infantry_fires_out_of_woods_only_from_its_edge() {
    let s = scenario(
        "square",
        &["W W W . .", "W W W . ."],
        &[
            unit("r1", "red", "light_infantry", "0201", "E"),
            unit("r2", "red", "light_infantry", "0302", "E"),
            unit("b1", "blue", "line_infantry", "0501", "W"),
            unit("b2", "blue", "line_infantry", "0502", "W"),
        ],
        "",
    );
    let mut g = start(&s, &[6, 1]);
    play(&mut g, "end", &[]);
    assert!(refused(&mut g, "fire r1 0501")
        .contains("may fire out of woods only from its edge (Infantry Ranged Attack 5)"));
    play(&mut g, "fire r2 0502", &[1, 1]);
}

#[test]
fn ranged_built_up_area_gives_all_round_fire() {
    let s = scenario(
        "square",
        &["T . .", ". . .", ". . ."],
        &[
            unit("r1", "red", "line_infantry", "0101", "N"),
            unit("r2", "red", "line_infantry", "0301", "N"),
            unit("b1", "blue", "line_infantry", "0103", "N"),
            unit("b2", "blue", "line_infantry", "0303", "N"),
        ],
        "",
    );
    let mut g = start(&s, &[6, 1]);
    play(&mut g, "end", &[]);
    assert!(refused(&mut g, "fire r2 0303").contains("not in r2's front arc"));
    play(&mut g, "fire r1 0103", &[1, 1]);
}

// ---------------------------------------------------------------- Close combat

/// r1 (red) and b1 (blue) side by side; red's movement and ranged phases are ended.
fn melee(rows_: &[&str], red: (&str, &str, &str), blue: (&str, &str, &str)) -> Box<dyn Game> {
    let s = scenario(
        "square",
        rows_,
        &[
            unit("r1", "red", red.0, red.1, red.2),
            unit("b1", "blue", blue.0, blue.1, blue.2),
        ],
        "",
    );
    let mut g = start(&s, &[6, 1]);
    play(&mut g, "end", &[]);
    if g.view(None).phase == "red ranged attacks" {
        play(&mut g, "end", &[]);
    }
    assert_eq!(g.view(None).phase, "red close combat");
    g
}

#[test]
fn close_combat_flank_attack_adds_one() {
    let mut g = contact_game();
    play(&mut g, "move r1 0304", &[]);
    play(&mut g, "move r1 0303", &[]);
    let events = play(&mut g, "attack r1 0203", &[4, 4, 6]);
    assert_eq!(events[0].rule, "grid-rules-v1.1 Close Combat Process 4");
    assert_eq!(
        events[0].text,
        "r1 (line infantry) attacks b1 (line infantry) at 0203: rolled 4+4 +1 flank attack = 9 on the line infantry close combat table: 2 hits."
    );
}

#[test]
fn close_combat_rear_attack_adds_one() {
    let mut g = melee(
        &rows(&open(5, 5)),
        ("line_infantry", "0304", "N"),
        ("line_infantry", "0303", "N"),
    );
    let events = play(&mut g, "attack r1 0303", &[3, 3, 6]);
    assert!(
        events[0].text.ends_with(
            "rolled 3+3 +1 rear attack = 7 on the line infantry close combat table: 1 hit."
        ),
        "{}",
        events[0].text
    );
}

#[test]
fn close_combat_downhill_adds_one_and_uphill_subtracts_one() {
    let map = [". .1 .", ". . .", ". . ."];
    let mut g = melee(
        &map,
        ("line_infantry", "0201", "S"),
        ("line_infantry", "0202", "N"),
    );
    let events = play(&mut g, "attack r1 0202", &[3, 3, 6]);
    assert!(
        events[0]
            .text
            .contains("rolled 3+3 +1 attacking downhill = 7"),
        "{}",
        events[0].text
    );
    let mut g = melee(
        &map,
        ("line_infantry", "0202", "N"),
        ("line_infantry", "0201", "S"),
    );
    let events = play(&mut g, "attack r1 0201", &[3, 3, 6]);
    assert!(
        events[0].text.ends_with(
            "rolled 3+3 -1 attacking uphill = 5 on the line infantry close combat table: 1 hit."
        ),
        "{}",
        events[0].text
    );
}

#[test]
fn close_combat_into_forest_or_built_up_area_subtracts_one() {
    for (code, name) in [("W", "woods"), ("T", "town")] {
        let map = [format!(". {code} ."), ". . .".into(), ". . .".into()];
        let mut g = melee(
            &rows(&map),
            ("cavalry", "0202", "N"),
            ("line_infantry", "0201", "S"),
        );
        let events = play(&mut g, "attack r1 0201", &[3, 3, 6]);
        assert!(
            events[0].text.ends_with(&format!(
                "rolled 3+3 -1 attacking into {name} = 5 on the cavalry close combat table: 1 hit."
            )),
            "{}",
            events[0].text
        );
    }
}

/// Blue's b1 attacks red's r1 in blue's player-turn, so r1 starts red's engaged with b1;
/// red's r2 has a shot of its own, so red's ranged phase is played.
fn engaged_r1(options: &str) -> Box<dyn Game> {
    let s = scenario(
        "square",
        &rows(&open(5, 6)),
        &[
            unit("r1", "red", "line_infantry", "0304", "N"),
            unit("r2", "red", "line_infantry", "0205", "N"),
            unit("b1", "blue", "line_infantry", "0303", "S"),
            unit("b2", "blue", "line_infantry", "0104", "S"),
        ],
        options,
    );
    let mut g = start(&s, &[2, 6]);
    play(&mut g, "end", &[]);
    play(&mut g, "end", &[]);
    // The only attack ends blue's close combat, and so blue's player-turn.
    play(&mut g, "attack b1 0304", &[1, 1]);
    assert_eq!(g.to_decide(), Some(Side::Red));
    assert!(unit_view(&*g, "r1").flags.contains(&"engaged".into()));
    g
}

#[test]
fn close_combat_an_engaged_unit_moves_freely_and_leaving_is_its_withdrawal() {
    let mut g = engaged_r1("");
    assert!(refused(&mut g, "withdraw r1 0305").contains("withdraws by moving away"));
    let events = play(&mut g, "move r1 0305", &[]);
    assert_eq!(events[0].rule, "grid-rules-v1.1 Close Combat 3");
    assert_eq!(
        events[0].text,
        "r1 moves out of close combat with b1: it has withdrawn and may not attack it this turn."
    );
    assert!(unit_view(&*g, "r1").flags.contains(&"withdrew".into()));
    play(&mut g, "end", &[]);
    assert_eq!(g.view(None).phase, "red ranged attacks");
    assert!(refused(&mut g, "fire r1 0303").contains(
        "r1 withdrew from close combat with b1 this turn and may not attack it in any way (Close Combat 3)"
    ));
}

#[test]
fn close_combat_engaged_unit_may_withdraw_and_then_not_attack() {
    // The option that holds engaged units: they may only stay or withdraw.
    let mut g = engaged_r1("[options]\nengaged_units = \"held\"\n");
    assert!(refused(&mut g, "move r1 0305").contains(
        "engaged in close combat: it may withdraw one tile or stay (Close Combat 3; option engaged_units = held)"
    ));
    assert!(refused(&mut g, "withdraw r1 0204").contains("next to an enemy"));
    let events = play(&mut g, "withdraw r1 0305", &[]);
    assert_eq!(events[0].rule, "grid-rules-v1.1 Close Combat 3");
    assert_eq!(
        events[0].text,
        "r1 withdraws from close combat with b1 to 0305, and may not attack it this turn."
    );
    assert!(unit_view(&*g, "r1").flags.contains(&"withdrew".into()));
    play(&mut g, "end", &[]);
    // Not by fire either: r2 may fire at b1, r1 may not.
    assert_eq!(legal(&*g), ["fire r2 0303", "fire r2 0104", "end"]);
    assert!(refused(&mut g, "fire r1 0303").contains("may not attack it in any way"));
}

#[test]
fn close_combat_units_not_engaged_may_not_withdraw() {
    let mut g = open_field("square");
    assert!(refused(&mut g, "withdraw r1 0304").contains("was not engaged in close combat"));
}

#[test]
fn close_combat_cavalry_may_withdraw_from_infantry_and_attacker_occupies() {
    let mut g = melee(
        &rows(&open(5, 5)),
        ("line_infantry", "0304", "N"),
        ("cavalry", "0303", "S"),
    );
    let events = play(&mut g, "attack r1 0303", &[]);
    assert_eq!(events[0].rule, "grid-rules-v1.1 Close Combat 4");
    // A decision put to blue in the middle of red's turn, and the prompt says what it is.
    assert_eq!(g.to_decide(), Some(Side::Blue));
    let v = g.view(Some(Side::Blue));
    assert_eq!(v.phasing, Some(Side::Red));
    assert!(v.interrupt());
    assert_eq!(
        v.prompt.as_deref(),
        Some("Blue: b1 is attacked by r1 — withdraw a tile or stand and take the attack (Close Combat 4)")
    );
    let choices = legal(&*g);
    assert_eq!(
        choices,
        [
            "stand b1",
            "withdraw b1 0302",
            "withdraw b1 0403",
            "withdraw b1 0203"
        ]
    );
    play(&mut g, "withdraw b1 0302", &[]);
    assert_eq!(tile(&*g, "b1"), "0302");
    assert_eq!(g.to_decide(), Some(Side::Red));
    assert!(!g.view(None).interrupt());
    assert_eq!(g.view(None).phase, "red advance after close combat");
    let events = play(&mut g, "occupy r1 0303", &[]);
    assert_eq!(events[0].rule, "grid-rules-v1.1 Close Combat 5");
    assert_eq!(tile(&*g, "r1"), "0303");
}

/// Red line infantry r1 in 0304 facing N, blue `kind` b1 next to it in 0303 facing S, on
/// an open 5 × 5 square grid: red's ranged attack phase of game-turn 1.
fn facing_red_infantry_at_range_one(kind: &str) -> Box<dyn Game> {
    let s = scenario(
        "square",
        &rows(&open(5, 5)),
        &[
            unit("r1", "red", "line_infantry", "0304", "N"),
            unit("b1", "blue", kind, "0303", "S"),
        ],
        "",
    );
    let mut g = start(&s, &[6, 1]);
    play(&mut g, "end", &[]);
    assert_eq!(g.view(None).phase, "red ranged attacks");
    g
}

#[test]
fn close_combat_a_unit_that_fired_may_still_attack_in_the_same_turn() {
    // Each attack is once a turn; firing does not use up the close combat attack.
    let mut g = facing_red_infantry_at_range_one("line_infantry");
    let events = play(&mut g, "fire r1 0303", &[1, 1]);
    assert_eq!(
        events[0].text,
        "r1 fires at b1 (line infantry) at 0303, range 1 (band 1-2): rolled 1+1 = 2 on the line infantry table: 0 hits."
    );
    assert_eq!(g.view(None).phase, "red close combat");
    let events = play(&mut g, "attack r1 0303", &[4, 4, 6]);
    assert_eq!(
        events[0].text,
        "r1 (line infantry) attacks b1 (line infantry) at 0303: rolled 4+4 = 8 on the line infantry close combat table: 2 hits."
    );
    assert_eq!(strength(&*g, "b1"), 3);
}

#[test]
fn close_combat_4_and_5_are_for_close_combat_not_ranged_fire() {
    // Infantry fire on cavalry: no choice to withdraw (Close Combat 4 is for close combat
    // attacks), and when the cavalry retreats the firer may not occupy its tile (Close
    // Combat 5 is for close combat attackers).
    let mut g = facing_red_infantry_at_range_one("cavalry");
    let events = play(&mut g, "fire r1 0303", &[6, 6, 1]);
    assert!(
        events.iter().all(|e| e.kind != "evade"),
        "{}",
        texts(&events)
    );
    let lines: Vec<&str> = events.iter().map(|e| e.text.as_str()).collect();
    assert_eq!(
        lines[1..],
        [
            "b1 takes 3 hits from 1 unit: strength 4 → 1.",
            "b1 at 0303 rolls 1 (retreat): it retreats one tile to 0203; strength now 1.",
            "Game-turn 1: red close combat.",
            "Game-turn 1: red advance after close combat.",
            "Game-turn 1: blue movement (0 of 1 unit moved).",
        ]
    );
    // The advance phase offered r1 nothing and passed: 0303 stays empty.
    assert_eq!(tile(&*g, "b1"), "0203");
    assert_eq!(tile(&*g, "r1"), "0304");
    assert!(legal(&*g).contains(&"move b1 0303".to_string()));
}

#[test]
fn close_combat_cavalry_that_stands_takes_the_attack() {
    let mut g = melee(
        &rows(&open(5, 5)),
        ("line_infantry", "0304", "N"),
        ("cavalry", "0303", "S"),
    );
    play(&mut g, "attack r1 0303", &[]);
    let events = play(&mut g, "stand b1", &[4, 4, 6]);
    assert!(
        events[1]
            .text
            .ends_with("rolled 4+4 = 8 on the line infantry close combat table: 2 hits."),
        "{}",
        events[1].text
    );
}

#[test]
fn close_combat_attacker_may_occupy_a_tile_vacated_by_retreat() {
    let mut g = contact_game();
    play(&mut g, "move r1 0304", &[]);
    play(&mut g, "move r1 0303", &[]);
    // The only attack ends the close combat phase: the hits are resolved at once.
    let events = play(&mut g, "attack r1 0203", &[4, 4, 1]);
    assert!(
        texts(&events).contains(
            "b1 at 0203 rolls 1 (retreat): it retreats one tile to 0103; strength now 4."
        ),
        "{}",
        texts(&events)
    );
    assert_eq!(legal(&*g), ["occupy r1 0203", "end"]);
    play(&mut g, "occupy r1 0203", &[]);
    assert_eq!(tile(&*g, "r1"), "0203");
    assert!(unit_view(&*g, "r1").flags.contains(&"facing W".into()));
}

// ---------------------------------------------------------------- Resolving hits

#[test]
fn hits_defender_rolls_one_die_per_enemy_unit_that_scored() {
    let mut g = two_shooters("");
    play(&mut g, "fire r1 0302", &[6, 6]);
    // The last shot ends the phase; the defender's dice follow at once.
    let events = play(&mut g, "fire r2 0302", &[6, 6, 1, 5]);
    let t = texts(&events);
    assert!(
        t.contains(
            "[grid-rules-v1.1 Resolving Hits] b1 takes 4 hits from 2 units: strength 6 → 2."
        ),
        "{t}"
    );
    assert!(t.contains("b1 at 0302 rolls 1 (retreat), 5 (stand): it retreats one tile to 0301; strength now 2."), "{t}");
    assert_eq!((strength(&*g, "b1"), tile(&*g, "b1").as_str()), (2, "0301"));
}

#[test]
fn hits_retreat_and_loss_results_add_up() {
    let mut g = two_shooters("");
    play(&mut g, "fire r1 0302", &[5, 4]);
    let events = play(&mut g, "fire r2 0302", &[5, 4, 3, 3]);
    assert!(texts(&events).contains("rolls 3 (retreat and 1 loss), 3 (retreat and 1 loss): it retreats one tile to 0301; strength now 2."), "{}", texts(&events));
}

#[test]
fn hits_a_unit_that_does_not_retreat_loses_one_more_point() {
    let mut g = two_shooters("");
    play(&mut g, "fire r1 0302", &[5, 4]);
    let events = play(&mut g, "end", &[6]);
    assert!(texts(&events)
        .contains("rolls 6 (stand): it does not retreat and loses 1 more point; strength now 4."));
    assert_eq!(tile(&*g, "b1"), "0302");
}

#[test]
fn hits_a_unit_retreats_at_most_one_tile_and_if_it_cannot_loses_one_more() {
    let s = scenario(
        "square",
        &[".", ".", ".", "."],
        &[
            unit("r1", "red", "line_infantry", "0103", "N"),
            unit("b1", "blue", "line_infantry", "0101", "S"),
        ],
        "",
    );
    let mut g = start(&s, &[6, 1]);
    play(&mut g, "end", &[]);
    let events = play(&mut g, "fire r1 0101", &[6, 6, 1]);
    assert!(
        texts(&events).contains(
            "rolls 1 (retreat): it cannot retreat and loses 1 more point instead; strength now 2."
        ),
        "{}",
        texts(&events)
    );
}

#[test]
fn hits_strength_points_are_6_infantry_4_cavalry_3_artillery() {
    let s = scenario(
        "square",
        &rows(&open(6, 6)),
        &[
            unit("r1", "red", "line_infantry", "0105", "N"),
            unit("r2", "red", "light_infantry", "0205", "N"),
            unit("r3", "red", "cavalry", "0305", "N"),
            unit("r4", "red", "artillery", "0405", "N"),
            unit("b1", "blue", "line_infantry", "0101", "S"),
        ],
        "",
    );
    let g = start(&s, &[6, 1]);
    let got: Vec<u32> = ["r1", "r2", "r3", "r4"]
        .iter()
        .map(|u| strength(&*g, u))
        .collect();
    assert_eq!(got, [6, 6, 4, 3]);
}

#[test]
fn hits_unit_removed_at_zero_and_a_side_with_no_units_loses() {
    let s = scenario(
        "square",
        &[".", ".", ".", "."],
        &[
            unit("r1", "red", "artillery", "0103", "N"),
            unit("b1", "blue", "artillery", "0101", "S"),
        ],
        "",
    );
    let mut g = start(&s, &[6, 1]);
    play(&mut g, "end", &[]);
    let events = play(&mut g, "fire r1 0101", &[6, 6]);
    let t = texts(&events);
    assert!(
        t.contains("b1 (artillery) has no strength points left and is removed from play."),
        "{t}"
    );
    assert!(t.contains("red wins: blue has no units left."), "{t}");
    assert!(g.view(None).unit("b1").is_none());
    assert_eq!(g.outcome().unwrap().winner, Some(Side::Red));
    assert_eq!(g.outcome().unwrap().score, [3, 0]);
    assert_eq!(g.to_decide(), None);
    assert!(g.legal_actions().is_empty());
}

// ---------------------------------------------------------------- Odds (volley odds)

/// The issue's position: blue b1 and b2 in line facing N, red r1 two tiles ahead of b1; blue
/// plays first and its movement is over.
fn blue_volley() -> Box<dyn Game> {
    let s = scenario(
        "square",
        &rows(&open(5, 5)),
        &[
            unit("b1", "blue", "line_infantry", "0304", "N"),
            unit("b2", "blue", "line_infantry", "0404", "N"),
            unit("r1", "red", "line_infantry", "0302", "S"),
        ],
        "",
    );
    let mut g = start(&s, &[1, 6]);
    play(&mut g, "end", &[]);
    assert_eq!(g.view(None).phase, "blue ranged attacks");
    g
}

/// The odds of an order as blue sees them: (outcome, probability) by falling probability.
fn odds_of(g: &dyn Game, order: &str) -> Vec<(String, f64)> {
    let action = g.parse_action(order).unwrap();
    let o = volley_core::odds::odds(g, action, Some(Side::Blue)).unwrap();
    assert!(o.exact, "{order}: the odds are exact");
    o.outcomes
        .into_iter()
        .map(|l| (l.outcome, l.probability))
        .collect()
}

fn assert_odds(got: &[(String, f64)], want: &[(&str, f64)]) {
    let got: Vec<(&str, f64)> = got.iter().map(|(o, p)| (o.as_str(), *p)).collect();
    assert_eq!(got.len(), want.len(), "{got:?}");
    for ((o, p), (wo, wp)) in got.iter().zip(want) {
        assert_eq!(o, wo, "{got:?}");
        assert!((p - wp).abs() < 1e-9, "{o}: {p} against {wp}");
    }
}

#[test]
fn odds_weigh_a_shots_own_hits_though_they_are_held_to_the_end_of_the_phase() {
    let g = blue_volley();
    // Range 2 on the line infantry table: 2-5 miss (10/36), 6-8 one hit (16/36), 9-11 two
    // (9/36), 12 three (1/36). Then r1's die: 1-2 retreat (to 0202, away from b1 and beside
    // no enemy), 3 retreat and one more loss, 4-6 stand and one more loss.
    let want = [
        ("no effect", 10.0 / 36.0),
        ("0302 r1: hits 0→2, loses 2", 16.0 / 36.0 / 2.0),
        (
            "0302 r1: hits 0→2, loses 2, to 0202",
            16.0 / 36.0 / 6.0 + 9.0 / 36.0 / 3.0,
        ),
        ("0302 r1: hits 0→1, loses 1, to 0202", 16.0 / 36.0 / 3.0),
        ("0302 r1: hits 0→3, loses 3", 9.0 / 36.0 / 2.0),
        (
            "0302 r1: hits 0→3, loses 3, to 0202",
            9.0 / 36.0 / 6.0 + 1.0 / 36.0 / 3.0,
        ),
        ("0302 r1: hits 0→4, loses 4", 1.0 / 36.0 / 2.0),
        ("0302 r1: hits 0→4, loses 4, to 0202", 1.0 / 36.0 / 6.0),
    ];
    assert_odds(&odds_of(&*g, "fire b1 0302"), &want);
    // Weighing the odds changed nothing.
    assert_eq!(legal(&*g), ["fire b1 0302", "fire b2 0302", "end"]);
    assert_eq!(strength(&*g, "r1"), 6);
}

#[test]
fn odds_of_a_later_shot_weigh_its_own_die_and_leave_earlier_hits_held() {
    let mut g = blue_volley();
    // b2's shot, at range 3, scores 1 hit, held for the end of the phase.
    play(&mut g, "fire b2 0302", &[5, 5]);
    assert_eq!(strength(&*g, "r1"), 6);
    // b1's preview: 3+4 = 7, one hit; r1's die for b1 alone is 5: it stands and loses one
    // more. b2's two hits stay held, not counted in what b1's shot does.
    let mut preview = g.clone_game();
    let mut dice = ScriptedDice::new([3, 4, 5]);
    let events = preview
        .preview(g.parse_action("fire b1 0302").unwrap(), &mut dice)
        .unwrap();
    assert_eq!(dice.remaining(), 0);
    let t = texts(&events);
    assert!(
        t.contains("r1 takes 1 hit from 1 unit: strength 6 → 5."),
        "{t}"
    );
    assert!(
        t.contains("r1 at 0302 rolls 5 (stand): it does not retreat and loses 1 more point; strength now 4."),
        "{t}"
    );
    assert_eq!(strength(&*preview, "r1"), 4);
    // The game itself is untouched, and ends the phase with both shots' hits together.
    assert_eq!(strength(&*g, "r1"), 6);
    let events = play(&mut g, "fire b1 0302", &[3, 4, 1, 5]);
    assert!(
        texts(&events).contains("r1 takes 2 hits from 2 units: strength 6 → 4."),
        "{}",
        texts(&events)
    );
}

#[test]
fn odds_of_an_infantry_attack_on_cavalry_weigh_it_as_if_the_cavalry_stands() {
    let mut g = melee(
        &rows(&open(5, 5)),
        ("line_infantry", "0304", "N"),
        ("cavalry", "0303", "S"),
    );
    let action = g.parse_action("attack r1 0303").unwrap();
    let o = volley_core::odds::odds(&*g, action, Some(Side::Red)).unwrap();
    // Line infantry close combat: 2-4 no hit (6/36), the cavalry only engaged; every other
    // roll hits it.
    let missed = o
        .outcomes
        .iter()
        .find(|l| l.outcome == "0303 b1: engaged; 0304 r1: attacked")
        .map(|l| l.probability);
    assert!(
        missed.is_some_and(|p| (p - 6.0 / 36.0).abs() < 1e-9),
        "{:?}",
        o.outcomes
    );
    assert_eq!(o.outcomes.len(), 7, "{:?}", o.outcomes);
    assert!(o.outcomes.iter().all(|l| l.outcome != "no effect"));
    // Playing it still puts the choice to the cavalry.
    play(&mut g, "attack r1 0303", &[]);
    assert_eq!(g.to_decide(), Some(Side::Blue));
}

/// Rules v1.1 as it was before odds settled held hits: a preview that is a plain `apply`.
struct HeldHitsUnsettled(Box<dyn Game>);

impl Game for HeldHitsUnsettled {
    fn ruleset(&self) -> &'static str {
        self.0.ruleset()
    }
    fn start(&mut self, dice: &mut dyn volley_core::Dice) -> Vec<volley_core::Event> {
        self.0.start(dice)
    }
    fn to_decide(&self) -> Option<Side> {
        self.0.to_decide()
    }
    fn legal_actions_into(&self, out: &mut Vec<volley_core::Action>) {
        self.0.legal_actions_into(out)
    }
    fn check(&self, action: volley_core::Action) -> Result<(), volley_core::Illegal> {
        self.0.check(action)
    }
    fn play_unchecked(
        &mut self,
        action: volley_core::Action,
        dice: &mut dyn volley_core::Dice,
        log: &mut volley_core::Log,
    ) {
        self.0.play_unchecked(action, dice, log)
    }
    fn preview(
        &mut self,
        action: volley_core::Action,
        dice: &mut dyn volley_core::Dice,
    ) -> Result<Vec<volley_core::Event>, volley_core::Illegal> {
        self.0.apply(action, dice)
    }
    fn notation(&self, action: volley_core::Action) -> String {
        self.0.notation(action)
    }
    fn describe(&self, action: volley_core::Action) -> volley_core::ActionInfo {
        self.0.describe(action)
    }
    fn parse_action(&self, text: &str) -> Result<volley_core::Action, volley_core::Illegal> {
        self.0.parse_action(text)
    }
    fn turn(&self) -> u32 {
        self.0.turn()
    }
    fn outcome(&self) -> Option<volley_core::Outcome> {
        self.0.outcome()
    }
    fn view(&self, side: Option<Side>) -> volley_core::View {
        self.0.view(side)
    }
    fn clone_game(&self) -> Box<dyn Game> {
        Box::new(HeldHitsUnsettled(self.0.clone_game()))
    }
    fn check_invariants(&self) -> Result<(), String> {
        self.0.check_invariants()
    }
}

#[test]
fn odds_are_refused_rather_than_shown_wrong_when_a_preview_leaves_hits_held() {
    let g = HeldHitsUnsettled(blue_volley());
    let action = g.parse_action("fire b1 0302").unwrap();
    let e = volley_core::odds::odds(&g, action, Some(Side::Blue)).unwrap_err();
    assert_eq!(
        e.0,
        "the odds of \"fire b1 0302\" cannot be shown: grid-rules-v1.1's preview says it does nothing, but played out to the end of its phase it does (the ruleset's Game::preview leaves results unsettled)"
    );
}

// ---------------------------------------------------------------- Victory, data, orders

#[test]
fn victory_at_the_turn_limit_by_points_destroyed_and_objectives_held() {
    let s = scenario(
        "square",
        &rows(&open(6, 6)),
        &[
            unit("r1", "red", "line_infantry", "0305", "E"),
            unit("b1", "blue", "line_infantry", "0101", "N"),
        ],
        "[[objectives]]\nhex = \"0305\"\nname = \"Mill\"\npoints = 3\n",
    )
    .replace("turn_limit = 3", "turn_limit = 1");
    let mut g = start(&s, &[6, 1]);
    play(&mut g, "end", &[]);
    assert_eq!(g.to_decide(), Some(Side::Blue));
    let events = play(&mut g, "end", &[]);
    assert!(
        texts(&events).contains("red wins: after game-turn 1: red scores 3, blue 0"),
        "{}",
        texts(&events)
    );
    assert_eq!(g.view(None).objectives[0].holder, Some(Side::Red));
}

#[test]
fn an_objective_that_is_one_sides_goal_scores_for_that_side_only() {
    let s = scenario(
        "square",
        &rows(&open(6, 6)),
        &[
            unit("r1", "red", "line_infantry", "0305", "E"),
            unit("b1", "blue", "line_infantry", "0101", "N"),
        ],
        "[[objectives]]\nhex = \"0305\"\nname = \"Mill\"\npoints = 3\n\n\
         [[objectives]]\nhex = \"0101\"\nname = \"Bridge\"\npoints = 2\n",
    )
    .replace(
        "turn_limit = 3",
        "turn_limit = 1\ngoals = { blue = [\"0305\"] }",
    );
    let mut g = start(&s, &[6, 1]);
    // Red stands on the mill, blue's goal: it scores nothing for it, and the view says whose
    // goal it is and who would win as it stands.
    let v = g.view(Some(Side::Red));
    assert_eq!(v.objectives[0].name.as_str(), "Mill (Blue's goal)");
    assert_eq!(v.objectives[0].holder, Some(Side::Red));
    assert_eq!(v.objectives[1].name.as_str(), "Bridge");
    let standing = v.standing.expect("the grid rules say who leads");
    assert_eq!(standing.winner, Some(Side::Blue));
    assert_eq!(standing.reason, "blue would win: red scores 0, blue 2");
    play(&mut g, "end", &[]);
    let events = play(&mut g, "end", &[]);
    assert!(
        texts(&events).contains("blue wins: after game-turn 1: red scores 0, blue 2"),
        "{}",
        texts(&events)
    );
    assert_eq!(g.outcome().unwrap().score, [0, 2]);
    assert!(
        g.view(None).standing.is_none(),
        "no standing once it is over"
    );

    // A goal must be an objective, and only one side's.
    let bad = s.replace("blue = [\"0305\"]", "blue = [\"0404\"]");
    let e = load(&bad).err().expect("refused").to_string();
    assert!(e.contains("0404 is not one of the objectives"), "{e}");
    let bad = s.replace("blue = [\"0305\"]", "blue = [\"0305\"], red = [\"0305\"]");
    let e = load(&bad).err().expect("refused").to_string();
    assert!(e.contains("0305 is a goal of both sides"), "{e}");
}

#[test]
fn unit_data_can_be_overridden_by_the_scenario() {
    let mut g = two_shooters(
        "[unit_data.line_infantry]\nranged = [{ range = 3, hits = [5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5] }]\n",
    );
    let events = play(&mut g, "fire r1 0302", &[1, 1]);
    assert!(
        events[0]
            .text
            .ends_with("rolled 1+1 = 2 on the line infantry table: 5 hits."),
        "{}",
        events[0].text
    );
    let s = scenario(
        "square",
        &rows(&open(4, 4)),
        &[
            unit("r1", "red", "line_infantry", "0103", "N"),
            unit("b1", "blue", "line_infantry", "0101", "S"),
        ],
        "[unit_data.grenadiers]\nstrength = 7\n",
    );
    let e = load(&s).err().unwrap();
    assert_eq!(e.line, line_of(&s, "[unit_data.grenadiers]"));
    assert!(e.message.contains("unknown field `grenadiers`"), "{e}");
}

#[test]
fn orders_are_read_and_written_in_short_text() {
    let mut g = open_field("square");
    for a in g.legal_actions() {
        assert_eq!(g.parse_action(&g.notation(a)).unwrap(), a);
    }
    assert!(g.parse_action("jump r1 0304").is_err());
    assert!(g
        .parse_action("move r9 0304")
        .unwrap_err()
        .to_string()
        .contains("no unit \"r9\""));
    assert!(refused(&mut g, "fire r1 0601").contains("ranged attack phase"));
}

// ---------------------------------------------------------------- Scenario errors

fn bad(units: &[String], needle: &str) -> (usize, String) {
    let s = scenario("square", &[". . m", ". . .", ". . ."], units, "");
    let e = load(&s).err().expect("scenario should be refused");
    assert_eq!(e.file, "test.toml");
    assert_eq!(e.line, line_of(&s, needle), "{e}");
    (e.line, e.message)
}

#[test]
fn scenario_errors_name_the_line() {
    let b1 = unit("b1", "blue", "line_infantry", "0103", "N");
    let (_, m) = bad(
        &[unit("r1", "red", "grenadiers", "0101", "S"), b1.clone()],
        "\"grenadiers\"",
    );
    assert!(m.contains("unknown unit type \"grenadiers\" (expected line_infantry, light_infantry, cavalry, artillery)"), "{m}");
    let (_, m) = bad(
        &[
            unit("r1", "red", "cavalry", "0101", "S"),
            unit("r1", "red", "cavalry", "0201", "S"),
            b1.clone(),
        ],
        "id = \"r1\"\nside = \"red\"\ntype = \"cavalry\"\ntile = \"0201\"",
    );
    assert!(m.contains("id \"r1\" is used twice"), "{m}");
    let (_, m) = bad(
        &[
            unit("r1", "red", "cavalry", "0101", "S"),
            unit("r2", "red", "cavalry", "0101", "S"),
            b1.clone(),
        ],
        "tile = \"0101\"\nfacing = \"S\"\n\n[[units]]\nid = \"b1\"",
    );
    assert!(m.contains("0101 is already held by r1"), "{m}");
    let (_, m) = bad(
        &[unit("r1", "red", "cavalry", "0301", "S"), b1.clone()],
        "tile = \"0301\"",
    );
    assert!(m.contains("swamps are impassable"), "{m}");
    let (_, m) = bad(&[unit("r1", "red", "cavalry", "0101", "SE"), b1], "\"SE\"");
    assert!(m.contains("expected a facing (N, E, S, W)"), "{m}");
}

// ---------------------------------------------------------------- Issue 9, defect 7

fn placement_scenario() -> String {
    scenario(
        "square",
        &rows(&open(6, 6)),
        &[
            unit("r1", "red", "line_infantry", "0302", "S"),
            unit("r2", "red", "cavalry", "0402", "S"),
            unit("b1", "blue", "line_infantry", "0305", "N"),
            unit("b2", "blue", "line_infantry", "0405", "N"),
        ],
        "[options]\nplacement = \"roll\"\n",
    )
    .replace("setup = \"free\"\n", "")
}

#[test]
fn setup_players_roll_for_first_placement_and_place_in_turn() {
    let mut g = load(&placement_scenario()).unwrap();
    let mut dice = ScriptedDice::new([4, 4, 2, 5]);
    let events = g.start(&mut dice);
    assert_eq!(dice.remaining(), 0);
    let t = texts(&events);
    assert!(
        t.contains(
            "[grid-rules-v1.1 Game Setup] Placement: red and blue both rolled 4; roll again."
        ),
        "{t}"
    );
    assert!(
        t.contains("red rolled 2, blue rolled 5; blue places first."),
        "{t}"
    );
    assert!(events[0].opens_turn);
    assert_eq!(g.to_decide(), Some(Side::Blue));
    assert_eq!(g.view(None).phase, "blue placement (0 of 2 units placed)");
    assert!(refused(&mut g, "move b1 0304").contains("the units are being placed"));
    assert!(refused(&mut g, "place b1 0303").contains("not in this side's two back rows (5 to 6)"));
    assert!(refused(&mut g, "place b1 0106").contains("outer column"));
    assert!(refused(&mut g, "place b1 0405").contains("already held by b2"));
    assert!(refused(&mut g, "place r1 0201").contains("r1 is red's"));
    let events = play(&mut g, "place b1 0206", &[]);
    assert_eq!(
        texts(&events),
        "[grid-rules-v1.1 Game Setup] blue places b1 (line infantry) at 0206; 1 left to place."
    );
    // The sides take turns, one unit each.
    assert_eq!(g.to_decide(), Some(Side::Red));
    play(&mut g, "place r1 0201", &[]);
    assert!(refused(&mut g, "place b1 0506").contains("b1 has already been placed"));
    play(&mut g, "place b2 0506", &[]);
    // Red's last unit: both sides are done, and game-turn 1's initiative is rolled.
    let events = play(&mut g, "place r2 0501", &[6, 1]);
    let t = texts(&events);
    assert!(t.contains("Both sides have placed their units."), "{t}");
    assert!(
        t.contains("red rolled 6, blue rolled 1; red plays first"),
        "{t}"
    );
    assert!(
        !events.iter().any(|e| e.opens_turn),
        "the placement opened game-turn 1"
    );
    assert_eq!(g.view(None).phase, "red movement (0 of 6 units moved)");
    for (id, at) in [
        ("r1", "0201"),
        ("r2", "0501"),
        ("b1", "0206"),
        ("b2", "0506"),
    ] {
        assert_eq!(tile(&*g, id), at);
    }
}

#[test]
fn setup_a_side_may_end_its_placement_and_leave_the_rest_where_the_scenario_put_them() {
    let mut g = load(&placement_scenario()).unwrap();
    g.start(&mut ScriptedDice::new([5, 2]));
    assert_eq!(g.to_decide(), Some(Side::Red));
    play(&mut g, "place r1 0202", &[]);
    play(&mut g, "end", &[]);
    // Red's turn again: it is the only side still placing.
    let events = play(&mut g, "place r2 0502", &[3, 4]);
    assert!(
        texts(&events).contains("blue plays first"),
        "{}",
        texts(&events)
    );
    assert_eq!(tile(&*g, "b1"), "0305");
    assert_eq!(tile(&*g, "r2"), "0502");
    // Without the option, the scenario places the units and play begins at once.
    let s = placement_scenario().replace("placement = \"roll\"", "placement = \"scenario\"");
    let g = start(&s, &[6, 1]);
    assert_eq!(g.view(None).phase, "red movement (0 of 6 units moved)");
}

fn quality_game(quality: &str) -> Box<dyn Game> {
    let s = scenario(
        "square",
        &rows(&open(6, 6)),
        &[
            unit("r1", "red", "line_infantry", "0204", "N"),
            unit("b1", "blue", "line_infantry", "0302", "S")
                + &format!("quality = \"{quality}\"\n"),
        ],
        "",
    );
    let mut g = start(&s, &[6, 1]);
    play(&mut g, "end", &[]);
    g
}

#[test]
fn hits_elite_units_retreat_sooner_and_inexperienced_ones_lose_more() {
    // The same shot (range 3, 5+4 = 9: 1 hit) and the same die, 3, read by quality.
    for (quality, line, at, points) in [
        ("regular", "b1 at 0302 rolls 3 (retreat and 1 loss): it retreats one tile to 0301; strength now 4.", "0301", 4),
        ("elite", "b1 at 0302 rolls 3 (retreat) on the elite table: it retreats one tile to 0301; strength now 5.", "0301", 5),
        ("inexperienced", "b1 at 0302 rolls 3 (stand) on the inexperienced table: it does not retreat and loses 1 more point; strength now 4.", "0302", 4),
    ] {
        let mut g = quality_game(quality);
        // r1 is red's only shooter: the phase ends with its shot, and b1 rolls at once.
        let events = play(&mut g, "fire r1 0302", &[5, 4, 3]);
        assert!(texts(&events).contains(line), "{quality}: {}", texts(&events));
        assert_eq!(tile(&*g, "b1"), at);
        assert_eq!(strength(&*g, "b1"), points);
        let flags = unit_view(&*g, "b1").flags;
        assert_eq!(flags.iter().any(|f| f.as_ref() == quality), quality != "regular");
    }
    let s = scenario(
        "square",
        &rows(&open(4, 4)),
        &[
            unit("r1", "red", "line_infantry", "0204", "N"),
            unit("b1", "blue", "line_infantry", "0302", "S") + "quality = \"green\"\n",
        ],
        "",
    );
    let e = load(&s).err().unwrap();
    assert_eq!(e.line, line_of(&s, "quality = \"green\""));
    assert!(
        e.message
            .contains("unknown quality \"green\" (expected elite, regular, inexperienced)"),
        "{e}"
    );
}

fn edge_game(ground: &str, facing: &str, extra: &str) -> Box<dyn Game> {
    let col1 = [ground, ground, ".", ".", "."];
    let rows_: Vec<String> = col1.iter().map(|c| format!("{c} .")).collect();
    let s = scenario(
        "square",
        &rows(&rows_),
        &[
            unit("r1", "red", "artillery", "0105", "N"),
            unit("r2", "red", "artillery", "0205", "N"),
            unit("b1", "blue", "light_infantry", "0102", facing),
            unit("b2", "blue", "line_infantry", "0201", "S"),
        ],
        extra,
    );
    let mut g = start(&s, &[6, 1]);
    play(&mut g, "end", &[]);
    g
}

#[test]
fn ranged_units_on_hill_and_forest_edges_are_seen_only_facing_the_enemy() {
    for (ground, place) in [(".1", "on the hill"), ("W", "in the forest")] {
        // b1 on the edge facing r1 is seen…
        let mut g = edge_game(ground, "S", "");
        play(&mut g, "fire r1 0102", &[1, 1]);
        // …facing away it is not…
        let mut g = edge_game(ground, "N", "");
        let why = refused(&mut g, "fire r1 0102");
        assert!(
            why.contains(&format!(
                "b1 is {place} facing away from r1 and cannot be seen"
            )),
            "{ground}: {why}"
        );
        // …unless the table reads the edge rule without the facing.
        let mut g = edge_game(ground, "N", "[options]\nedge_sight = \"any\"\n");
        play(&mut g, "fire r1 0102", &[1, 1]);
    }
}
