//! Victory (Volley's; the text has none): points destroyed and objectives held at the turn limit,
//! and one side's goals. One test per rule, with scripted dice and exact results. Maps are square
//! unless a test says hex; labels are column then row ("0304" = column 3, row 4).

mod common;

use common::*;
use volley_core::Side;

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
