//! The sequence of play (3.1, M15–M22): initiative, the player turn's steps, and the activation sequence (M18).

mod common;

use common::*;

#[test]
fn sequence_the_initiative_winner_plays_first() {
    let s = scenario(
        None,
        "",
        &[
            squad("r1", "red", "M", "0509", "N", ""),
            squad("b1", "blue", "M", "0502", "S", ""),
        ],
    );
    let mut g = load(&s);
    // Red d10 3 − I 5 = −2, blue d10 8 − I 5 = 3: blue's margin is larger.
    let events = g.start(&mut ScriptedDice::new([3, 8]));
    let t = texts(&events);
    assert!(
        t.contains("[hex-command-mechanized M16] Turn 1: red d10 3 − I 5 = -2, blue d10 8 − I 5 = 3; blue has the initiative and plays first."),
        "{t}"
    );
    assert_eq!(g.to_decide(), Some(Side::Blue));
    assert_eq!(g.view(None).phase, "blue movement");
}

#[test]
fn sequence_the_overall_commanders_initiative_trait_sets_each_margin() {
    let s = scenario(
        None,
        "commanders = [{ id = \"R1\", name = \"Roth\", value = 1, supreme = true, traits = { initiative = 4, morale = 1, tactical = 5, aggressiveness = 6 } }]",
        &[
            squad("r1", "red", "M", "0509", "N", ""),
            squad("b1", "blue", "M", "0502", "S", ""),
        ],
    );
    let mut g = load(&s);
    // Red's Initiative 4 against blue's default 5: 5 − 4 = 1 ties 6 − 5 = 1; rolled again.
    let events = g.start(&mut ScriptedDice::new([5, 6, 3, 3]));
    assert!(
        texts(&events).contains("red d10 5 − I 4 = 1, blue d10 6 − I 5 = 1; then red d10 3 − I 4 = -1, blue d10 3 − I 5 = -2; red has the initiative"),
        "{}",
        texts(&events)
    );
    let bad = s.replace("initiative = 4", "initiative = 9");
    let e = RULESET
        .load(
            &ScenarioSource::new("t.toml", bad.as_str()),
            &Options::new(),
        )
        .err()
        .unwrap();
    assert!(e.to_string().starts_with("t.toml:"), "{e}");
    assert!(e.to_string().contains("Mechanized 4.5, M23"), "{e}");
}

#[test]
fn activation_groups_take_small_player_turns_in_order_and_fire_once_a_turn() {
    let s = with_options(
        &scenario(
            None,
            "",
            &[
                squad("r1", "red", "M", "0509", "N", "group = 1"),
                squad("r2", "red", "M", "0309", "N", "group = 2"),
                squad("b1", "blue", "M", "0506", "S", "group = 1"),
            ],
        ),
        "activation = \"group-turns\"",
    );
    let mut g = start(&s);
    // Red won the initiative: red's group 1 first.
    assert_eq!(g.view(None).phase, "red group 1 movement");
    assert!(refused(&mut g, "move r2 0308").contains("r2 is not in the group that moves now (M18)"));
    play(&mut g, "move r1 0508", &[]);
    play(&mut g, "end", &[]);
    // Blue answers r1 (range 1: 3+) and misses; r1 fires back (3+) and misses.
    play(&mut g, "fire b1 r1", &[1]);
    play(&mut g, "fire r1 b1", &[1]);
    // Blue's group 1 next: b1 has fired this game turn and fires no more (M19).
    assert_eq!(g.view(None).phase, "blue group 1 movement");
    play(&mut g, "end", &[]);
    // Red answers blue's activation: r1 has fired this turn, r2 (not activated yet) may.
    assert_eq!(g.view(None).phase, "red fires (blue's turn)");
    assert!(refused(&mut g, "fire r1 b1").contains("r1 has fired this turn (M19)"));
    play(&mut g, "end", &[]);
    assert_eq!(g.view(None).phase, "red group 2 movement");
    play(&mut g, "move r2 0308", &[]);
}

#[test]
fn activation_pairs_roll_the_initiative_again_for_each_later_pair() {
    let s = with_options(
        &scenario(
            None,
            "",
            &[
                squad("r1", "red", "M", "0109", "N", "group = 1"),
                squad("r2", "red", "M", "0309", "N", "group = 2"),
                squad("b1", "blue", "M", "0101", "S", "group = 1"),
                squad("b2", "blue", "M", "0301", "S", "group = 2"),
            ],
        ),
        "activation = \"group-turns-pairs\"",
    );
    let mut g = load(&s);
    // The turn's roll puts red's group 1 first; the second pair's roll (red 1, blue 9) blue's.
    let events = g.start(&mut ScriptedDice::new([9, 1, 1, 9]));
    let t = texts(&events);
    assert!(t.contains("[hex-command-mechanized M18] Groups red 2 and blue 2: red d10 1 − I 5 = -4, blue d10 9 − I 5 = 4; blue activates first."), "{t}");
    assert_eq!(g.view(None).phase, "red group 1 movement");
}

#[test]
fn activation_each_group_rolls_with_its_own_commanders_initiative() {
    let traits = |i: u8| {
        format!("traits = {{ initiative = {i}, morale = 1, tactical = 5, aggressiveness = 5 }}")
    };
    let s = with_options(
        &(scenario(
            None,
            &format!(
                "commanders = [{{ id = \"R1\", name = \"Roth\", value = 1, supreme = true, {} }}, {{ id = \"R2\", name = \"Rau\", value = 1, {} }}]",
                traits(7),
                traits(4)
            ),
            &[
                squad("r1", "red", "M", "0109", "N", "group = 1"),
                squad("r2", "red", "M", "0309", "N", "group = 2"),
                squad("b1", "blue", "M", "0101", "S", "group = 1"),
                squad("b2", "blue", "M", "0301", "S", "group = 2"),
            ],
        ) + "\n[[groups]]\nside = \"red\"\ngroup = 2\ncommander = \"R2\"\n"),
        "activation = \"group-turns-commanders\"",
    );
    let mut g = load(&s);
    // Red's group 1 has no commander of its own: the overall commander's Initiative 7 against
    // blue's default 5 (9 − 7 = 2, 1 − 5 = −4) puts red's group 1 first. Group 2 rolls with
    // R2's Initiative 4: 5 − 4 = 1 against 5 − 5 = 0, red's group 2 first again.
    let events = g.start(&mut ScriptedDice::new([9, 1, 5, 5]));
    let t = texts(&events);
    assert!(
        t.contains("Turn 1: red d10 9 − I 7 = 2, blue d10 1 − I 5 = -4; red has the initiative"),
        "{t}"
    );
    assert!(t.contains("[hex-command-mechanized M18] Groups red 2 (R2) and blue 2 (overall): red d10 5 − I 4 = 1, blue d10 5 − I 5 = 0; red activates first."), "{t}");
    assert_eq!(g.view(None).phase, "red group 1 movement");
    // With the overall commander (option group-turns-pairs) the same dice give blue group 2
    // the lead: 5 − 7 = −2 against 0.
    let mut g = load(&s.replace("group-turns-commanders", "group-turns-pairs"));
    let t = texts(&g.start(&mut ScriptedDice::new([9, 1, 5, 5])));
    assert!(t.contains("Groups red 2 and blue 2: red d10 5 − I 7 = -2, blue d10 5 − I 5 = 0; blue activates first."), "{t}");
    // A group naming a commander that does not exist, or of the other side, or a group no
    // unit is in, is refused where it stands.
    for (from, to, why) in [
        (
            "commander = \"R2\"",
            "commander = \"R9\"",
            "no commander \"R9\"",
        ),
        (
            "side = \"red\"\ngroup = 2",
            "side = \"blue\"\ngroup = 2",
            "R2 is not a commander of blue",
        ),
        (
            "group = 2\ncommander",
            "group = 3\ncommander",
            "no unit of red is in group 3",
        ),
    ] {
        let e = load_error(&s.replacen(from, to, 1));
        assert!(e.contains(why), "{e}");
    }
}
