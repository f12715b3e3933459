//! Terrain and movement: rivers, swamps, mountains, forest and built-up areas, hills and rough. One
//! test per rule, with scripted dice and exact results. Maps are square unless a test says hex;
//! labels are column then row ("0304" = column 3, row 4).

mod common;

use common::*;
use volley_core::Game;

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
