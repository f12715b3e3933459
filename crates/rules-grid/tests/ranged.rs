//! Infantry and Artillery Ranged Attack: once per turn, range, line of sight, firing into and out
//! of woods and towns, the modifiers, units seen on hill and forest edges. One test per rule, with
//! scripted dice and exact results. Maps are square unless a test says hex; labels are column then
//! row ("0304" = column 3, row 4).

mod common;

use common::*;
use volley_core::{Game, Side};

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
