//! Reinforcements (3.4, M45–M47) and paratroops (M70): arrival, the arrival test, blocked entry hexes.

mod common;

use common::*;

#[test]
fn reinforcements_enter_on_their_turn_two_a_hex() {
    let mut g = start(&reinforcement_scenario(""));
    assert!(
        g.view(None).unit("r2").is_none(),
        "not on the map before turn 2"
    );
    // Nobody is in reach: each side's turn is its movement, ended. Turn 2 opens with the
    // initiative (red 9, blue 1) and red's reinforcements come in at its step 3.
    play(&mut g, "end", &[]);
    let events = play(&mut g, "end", &[9, 1]);
    let t = texts(&events);
    assert!(t.contains("[hex-command-mechanized M45] red's reinforcements second-wave arrive: r2 at 0510, r3 at 0510, r4 at 0610."), "{t}");
    assert_eq!(hex_of(&*g, "r4"), "0610");
    assert_eq!(
        g.view(None).unit("r4").unwrap().facing,
        Some(volley_core::geometry::Facing::N)
    );
}

#[test]
fn reinforcements_with_the_arrival_test_wait_a_turn_when_they_fail() {
    let mut g = start(&reinforcement_scenario("arrival_test = \"yes\""));
    play(&mut g, "end", &[]);
    // Turn 2: initiative (red 9, blue 1), then the test: d10 5 is not above Initiative 5.
    let events = play(&mut g, "end", &[9, 1, 5]);
    let t = texts(&events);
    assert!(t.contains("red's reinforcements second-wave test to arrive: d10 5 against the default's Initiative 5: delayed a turn."), "{t}");
    assert!(g.view(None).unit("r2").is_none());
}

#[test]
fn paratroops_drop_on_their_target_or_scatter() {
    let para = |id: &str| {
        format!("[[units]]\nid = \"{id}\"\nside = \"red\"\nkind = \"squad\"\nweight = \"M\"\nparatroop = true\narrives = \"market\"\n")
    };
    let s = scenario_with(
        "[[drops]]\nid = \"market\"\nside = \"red\"\nturn = 1\ntarget = \"0505\"",
        &[
            squad("r1", "red", "M", "0109", "N", ""),
            para("r2"),
            para("r3"),
            squad("b1", "blue", "M", "0901", "S", ""),
        ],
    );
    let mut g = load(&s);
    // Initiative (red 9, blue 1); the centre lands on 0505 (d6 5); r2 lands by it (6); r3
    // fails (2) and scatters two hexes north of the centre (a wasted die, then 1: N).
    let events = g.start(&mut ScriptedDice::new([9, 1, 5, 6, 2, 3, 1]));
    let t = texts(&events);
    assert!(
        t.contains(
            "red's paratroops market jump over 0505: d6 5: on target: the drop centres on 0505."
        ),
        "{t}"
    );
    assert!(t.contains("r2 lands at 0505."), "{t}");
    assert!(t.contains("r3 lands at 0503, scattered."), "{t}");
}

#[test]
fn reinforcements_blocked_at_their_entry_ask_the_blocker_to_stand_or_fall_back() {
    let (mut g, events) = blocked_entry(1);
    let t = texts(&events);
    assert!(t.contains("[hex-command-mechanized M47] blue is told that red's reinforcements relief, 1 unit, arrive at 0210, 0410, 0510; it holds the entry and chooses to stand or fall back."), "{t}");
    // The decision goes to blue in red's turn, and nothing else may be done meanwhile.
    assert_eq!(g.to_decide(), Some(Side::Blue));
    assert_eq!(
        legal(&*g),
        vec!["block relief stand", "block relief withdraw"]
    );
    assert!(g
        .view(Some(Side::Blue))
        .prompt
        .unwrap()
        .contains("1 enemy units arrive at 0210, 0410, 0510 where you stand"));
    assert!(refused(&mut g, "move b2 0509").contains("blue first answers relief's arrival"));
    // Blue falls back: b2 has a full move (3 points), each step farther from the entry.
    play(&mut g, "block relief withdraw", &[]);
    assert!(refused(&mut g, "move b2 0410").contains("farther from the entry"));
    play(&mut g, "move b2 0509", &[]);
    play(&mut g, "move b2 0508", &[]);
    // The third step spends its last point: with nothing left to move the fall-back ends
    // by itself.
    let t = texts(&play(&mut g, "move b2 0507", &[]));
    // The entry is open and the relief comes in at its first hex; red's turn goes on.
    assert!(
        t.contains("red's reinforcements relief arrive: n0 at 0210."),
        "{t}"
    );
    assert_eq!(g.to_decide(), Some(Side::Red));
    assert_eq!(g.view(None).phase, "red movement");

    // Blue stands: a force of one is no wider than the blocking line (one hex), so it cannot
    // overlap it and comes in only next to b2 (0410, not 0210).
    let (mut g, _) = blocked_entry(1);
    let t = texts(&play(&mut g, "block relief stand", &[]));
    assert!(t.contains("blue stands and fights before relief."), "{t}");
    assert!(
        t.contains("red's reinforcements relief arrive: n0 at 0410."),
        "{t}"
    );
    assert_eq!(hex_of(&*g, "b2"), "0510");
    // A force of two is wider than the line and may come in anywhere free.
    let (mut g, _) = blocked_entry(2);
    let t = texts(&play(&mut g, "block relief stand", &[]));
    assert!(
        t.contains("red's reinforcements relief arrive: n0 at 0210, n1 at 0210."),
        "{t}"
    );
}
