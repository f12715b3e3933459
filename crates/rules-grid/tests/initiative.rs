//! Initiative: the d6 each side rolls every game-turn, who plays first, ties, and the roll as the
//! number of units a player may move. One test per rule, with scripted dice and exact results. Maps
//! are square unless a test says hex; labels are column then row ("0304" = column 3, row 4).

mod common;

use common::*;
use volley_core::{ScriptedDice, Side};

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
