//! Losses, break point, panic and victory (3.3, 3.11, M41–M44).

mod common;

use common::*;

#[test]
fn an_objective_that_is_the_enemys_goal_scores_nothing_for_its_holder() {
    // `goals` makes the farm blue's goal: red, standing on it, scores nothing for it (M44
    // counts the objectives each side holds at the turn limit).
    let top = "goals = { blue = [\"0505\"] }\n[[objectives]]\nhex = \"0505\"\nname = \"the farm\"\npoints = 10\n\n[[objectives]]\nhex = \"0101\"\nname = \"the mill\"\npoints = 5";
    let s = scenario_with(
        top,
        &[
            squad("r1", "red", "M", "0505", "N", ""),
            squad("b1", "blue", "M", "0101", "S", ""),
        ],
    );
    let g = start(&s);
    let v = g.view(Some(Side::Red));
    assert_eq!(v.objectives[0].name.as_str(), "the farm (Blue's goal)");
    assert_eq!(v.objectives[0].goal_of, Some(Side::Blue));
    assert_eq!(v.objectives[0].holder, Some(Side::Red));
    assert_eq!((v.sides[0].score, v.sides[1].score), (0, 5));
}

#[test]
fn as_it_stands_is_the_turn_limits_result_on_what_the_side_sees() {
    // Blue's hidden squad b2 holds the farm (10 points); red's heavy squad r1 melees blue's
    // b1. The view's "as it stands" is what M44 would give at the turn limit: the more
    // objective points, then the lower losses, reckoned on what the viewer sees
    // (interpretation 43).
    let top = "[[objectives]]\nhex = \"0101\"\nname = \"the farm\"\npoints = 10";
    let s = scenario_with(
        top,
        &[
            squad("r1", "red", "H", "0506", "N", ""),
            squad("r2", "red", "M", "0909", "N", ""),
            squad("b1", "blue", "M", "0505", "S", ""),
            squad("b2", "blue", "M", "0101", "S", "hidden = true"),
            squad("b3", "blue", "M", "0901", "S", ""),
        ],
    );
    // Red wins the initiative (9 against 1) and does not spot b2 (d6 1, M76).
    let mut g = load(&s);
    g.start(&mut ScriptedDice::new([9, 1, 1]));
    let reason = |g: &dyn Game, viewer: Option<Side>| {
        let s = g
            .view(viewer)
            .standing
            .expect("a battle in play stands somehow");
        assert!(!s.decisive, "Mechanized knows no decisive victory");
        (s.winner, s.reason)
    };
    // Nobody has lost anything; red does not see who holds the farm: a draw to red.
    assert_eq!(
        reason(&*g, Some(Side::Red)),
        (
            None,
            "a draw at the turn limit: objectives red 0, blue 0; losses red 0%, blue 0%".into()
        )
    );
    for _ in 0..3 {
        play(&mut g, "end", &[]);
    }
    // Heavy 3 + 5 against Medium 2 + 4: b1 is captured, a third of blue's items; the melee
    // over, red looks for b2 again and misses (d6 1).
    let events = play(&mut g, "melee r1 b1", &[5, 4, 1]);
    assert!(
        texts(&events).contains("r1 wins and captures b1"),
        "{}",
        texts(&events)
    );
    // Red still sees no holder of the farm, so blue's heavier losses decide for red; blue
    // and the whole table see blue's 10 points, which outweigh any losses.
    assert_eq!(
        reason(&*g, Some(Side::Red)),
        (
            Some(Side::Red),
            "Red would win at the turn limit: objectives red 0, blue 0; losses red 0%, blue 33%"
                .into()
        )
    );
    for viewer in [Some(Side::Blue), None] {
        assert_eq!(
            reason(&*g, viewer),
            (
                Some(Side::Blue),
                "Blue would win at the turn limit: objectives red 0, blue 10; losses red 0%, blue 33%"
                    .into()
            )
        );
    }
}

#[test]
fn victory_3_11_a_side_at_its_break_point_fights_on_when_the_enemy_has_lost_more() {
    let (mut g, mut log) = break_point_game("", true);
    while g.view(None).phase != "blue movement" {
        log += &texts(&play(&mut g, "end", &[]));
    }
    assert!(g.view(None).outcome.is_none(), "{log}");
    assert!(
        log.contains("[hex-command-mechanized M44] Red has reached its break point (20% lost of 20%), but Blue has lost 33% and holds no more objectives, so the battle goes on; Red checks for panic at the start of each of its turns (M42)."),
        "{log}"
    );
    let v = g.view(None);
    assert_eq!(v.sides[0].losses_percent, 20.0);
    assert_eq!(v.sides[1].losses_percent, 100.0 / 3.0);
}

#[test]
fn victory_3_11_a_side_at_its_break_point_loses_to_an_enemy_that_has_lost_less() {
    let (mut g, mut log) = break_point_game("", false);
    while g.view(None).outcome.is_none() {
        log += &texts(&play(&mut g, "end", &[]));
    }
    let o = g.view(None).outcome.unwrap();
    assert_eq!(o.winner, Some(Side::Blue), "{log}");
    assert_eq!(
        o.reason,
        "red reached its break point (20% lost of 20%); blue has lost 0%, objectives red 0, blue 0."
    );
    assert!(!log.contains("panic"), "{log}");
}

#[test]
fn victory_3_11_with_the_option_the_break_point_ends_the_battle_as_a_draw() {
    let (mut g, mut log) = break_point_game("break_point = \"ends\"", true);
    while g.view(None).outcome.is_none() {
        log += &texts(&play(&mut g, "end", &[]));
    }
    let o = g.view(None).outcome.unwrap();
    assert_eq!(o.winner, None);
    assert_eq!(
        o.reason,
        "red reached its break point (20% lost of 20%); blue has lost 33%, objectives red 0, blue 0. The battle ends there as a draw (option break_point = ends)."
    );
}

#[test]
fn panic_3_3_a_side_past_its_break_point_rolls_a_d10_each_turn_and_panics_below_its_losses() {
    let (mut g, mut log) = break_point_game("", true);
    while g.view(None).phase != "blue movement" {
        log += &texts(&play(&mut g, "end", &[]));
    }
    // Blue's turn passes; turn 2 opens with red's initiative (9 against 1) and red, at 20%,
    // rolls for panic: a 1 (10 is below 20) panics.
    let mut t = String::new();
    while g.view(None).phase != "red movement" {
        // Blue's last step ends its turn; turn 2 opens, and red rolls for panic.
        let dice: &[u32] = if g.view(None).phase == "blue melee" {
            &[9, 1, 1]
        } else {
            &[]
        };
        t += &texts(&play(&mut g, "end", dice));
    }
    assert!(
        t.contains("[hex-command-mechanized M43] Red has lost 20% (break point 20%) and rolls 1 on a d10 for panic (a roll of 1 panics): it panics; every squad takes a hit marker, and until its next turn no unit advances without a commander."),
        "{t}"
    );
    let v = g.view(None);
    for id in ["r1", "r2", "r3", "r4"] {
        let u = v.unit(id).unwrap();
        assert_eq!(u.hits, 1, "{id} takes a hit marker");
        assert!(u.flags.iter().any(|f| &**f == "panicked"), "{id}");
    }
    assert!(!v
        .unit("b1")
        .unwrap()
        .flags
        .iter()
        .any(|f| &**f == "panicked"));
    // r4 may not step nearer b1 (two hexes off), but may turn and go back.
    assert_eq!(
        refused(&mut g, "move r4 0908"),
        "r4 may not move nearer the enemy: Red has panicked and no commander is with it (M43)"
    );
    play(&mut g, "face r4 S", &[]);
    play(&mut g, "move r4 0910", &[]);
    assert_eq!(hex_of(&*g, "r4"), "0910");
    // Nor does a panicked unit advance after a melee: b3 steps back from r1's melee, and r1,
    // with no commander, stays where it is without a roll.
    while g.view(None).phase != "red melee" {
        play(&mut g, "end", &[]);
    }
    play(&mut g, "melee r1 b3", &[]);
    let t = texts(&play(&mut g, "retreat b3", &[]));
    assert!(
        t.contains("[hex-command-mechanized M43] r1 may not advance into 0506: Red has panicked and no commander is with it."),
        "{t}"
    );
    assert_eq!(hex_of(&*g, "r1"), "0507");
}
