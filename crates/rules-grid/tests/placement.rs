//! Game Setup: the back two rows and outer columns, and (option `placement = "roll"`) the roll for
//! first placement and placing units in turn. One test per rule, with scripted dice and exact
//! results. Maps are square unless a test says hex; labels are column then row ("0304" = column 3,
//! row 4).

mod common;

use common::*;
use volley_core::{ScriptedDice, Side};

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
