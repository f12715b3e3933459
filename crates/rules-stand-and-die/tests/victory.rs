//! The end of the game: a side with nothing left loses; otherwise the turn limit, scored by
//! casualties inflicted plus objective hexes held.

mod common;

use common::*;
use volley_core::Side;

#[test]
fn a_side_with_no_troops_left_loses_at_once() {
    let units = [
        unit("red", "r1", "infantry", 10, "0303", "S"),
        standing("blue", "b1", "infantry", 2, "0304", "N"),
    ];
    let mut g = started(&scenario(&OPEN_8X8, "", &units), 1);
    to_musketry(&mut g, Side::Red);
    let events = play(&mut g, "fire 0303 0304");
    let last = events.last().unwrap();
    assert_eq!((&*last.kind, &*last.rule), ("end", "stand-and-die victory"));
    let outcome = g.outcome().expect("the game is over");
    assert_eq!(outcome.winner, Some(Side::Red));
    assert_eq!(outcome.reason, "Blue has no troops left: Red wins");
    assert_eq!(outcome.score, [2, 0]);
    assert_eq!(g.to_decide(), None);
    assert!(g.legal_actions().is_empty());
    assert!(refused(&mut g, "end").contains("game is over"));
}

#[test]
fn at_the_turn_limit_casualties_inflicted_and_objectives_held_decide() {
    let units = [
        unit("red", "r1", "infantry", 10, "0303", "S"),
        standing("blue", "b1", "infantry", 10, "0304", "N"),
        unit("blue", "b2", "infantry", 4, "0606", "N"),
    ];
    let extra = "[[objectives]]\nhex = \"0606\"\nname = \"Farm\"\npoints = 5\n";
    let text = scenario(&OPEN_8X8, extra, &units).replace("turn_limit = 3", "turn_limit = 1");
    let mut g = started(&text, 1);
    to_musketry(&mut g, Side::Red);
    play(&mut g, "fire 0303 0304");
    assert_eq!(g.view(None).sides[0].score, 3);
    assert_eq!(g.view(None).sides[1].score, 5);
    assert_eq!(g.view(None).objectives[0].holder, Some(Side::Blue));
    play(&mut g, "end");
    play(&mut g, "end");
    let events = play(&mut g, "end");
    let outcome = g.outcome().expect("turn 1 of 1 is over");
    assert_eq!(
        outcome.reason,
        "turn limit 1 reached: Red 3 (3 casualties inflicted + 0 objective points) to Blue 5 (0 casualties inflicted + 5 objective points): Blue wins"
    );
    assert_eq!(outcome.winner, Some(Side::Blue));
    assert_eq!(outcome.score, [3, 5]);
    assert_eq!(events.last().unwrap().kind, "end");
    assert!((g.view(None).sides[1].losses_percent - 3.0 / 14.0 * 100.0).abs() < 1e-9);
}

#[test]
fn equal_scores_at_the_turn_limit_are_a_draw() {
    let units = [
        unit("red", "r1", "infantry", 10, "0303", "S"),
        unit("blue", "b1", "infantry", 10, "0606", "N"),
    ];
    let text = scenario(&OPEN_8X8, "", &units).replace("turn_limit = 3", "turn_limit = 1");
    let mut g = started(&text, 4);
    for _ in 0..4 {
        play(&mut g, "end");
    }
    let outcome = g.outcome().expect("over");
    assert_eq!((outcome.winner, outcome.score), (None, [0, 0]));
    assert!(outcome.reason.ends_with("a draw"));
}

#[test]
fn an_objective_that_is_one_sides_goal_scores_for_that_side_only() {
    let units = [
        unit("red", "r1", "infantry", 10, "0303", "S"),
        standing("blue", "b1", "infantry", 10, "0304", "N"),
        unit("blue", "b2", "infantry", 4, "0606", "N"),
    ];
    // Blue stands on the farm, but the farm is red's goal: blue scores nothing for it.
    let extra = "goals = { red = [\"0606\"] }\n[[objectives]]\nhex = \"0606\"\nname = \"Farm\"\npoints = 5\n";
    let text = scenario(&OPEN_8X8, extra, &units).replace("turn_limit = 3", "turn_limit = 1");
    let mut g = started(&text, 1);
    let v = g.view(Some(Side::Blue));
    assert_eq!(v.objectives[0].name.as_str(), "Farm (Red's goal)");
    assert_eq!(v.objectives[0].goal_of, Some(Side::Red));
    assert_eq!(v.objectives[0].holder, Some(Side::Blue));
    assert_eq!(v.sides[1].score, 0);
    assert_eq!(
        v.standing.expect("judged by score").reason,
        "a draw: red scores 0, blue 0"
    );
    to_musketry(&mut g, Side::Red);
    play(&mut g, "fire 0303 0304");
    let standing = g.view(Some(Side::Blue)).standing.expect("still on");
    assert_eq!(standing.winner, Some(Side::Red));
    assert_eq!(standing.reason, "red would win: red scores 3, blue 0");
    play(&mut g, "end");
    play(&mut g, "end");
    play(&mut g, "end");
    let outcome = g.outcome().expect("turn 1 of 1 is over");
    assert_eq!(
        outcome.reason,
        "turn limit 1 reached: Red 3 (3 casualties inflicted + 0 objective points) to Blue 0 (0 casualties inflicted + 0 objective points): Red wins"
    );
    assert_eq!(outcome.score, [3, 0]);
    assert!(g.view(None).standing.is_none());
}
