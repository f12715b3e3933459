//! Hidden units (M65, M76–M79): markers, spotting, ambush, decoys, sound ranging, and a search that must not peek.

mod common;

use common::*;

#[test]
fn hidden_units_are_off_the_enemys_map_and_failed_spotting_is_not_told_to_the_spotter() {
    let g = ambush_game();
    assert!(g.view(Some(Side::Blue)).unit("r1").is_none());
    assert!(g.view(Some(Side::Red)).unit("r1").unwrap().has("hidden"));
    // Blue's orders do not depend on r1: it may try to drive into its hex.
    assert!(volley_core::Game::legal_actions(&*g)
        .iter()
        .any(|a| g.notation(*a) == "move b1 0506"));
}

#[test]
fn ambush_a_unit_entering_a_hidden_enemys_hex_is_stopped_and_fired_on_first() {
    let mut g = ambush_game();
    play(&mut g, "move b1 0506", &[]);
    // 0505 holds hidden r1: the step is not made, r1 shows itself and fires its AT weapon at
    // range 0 (automatic, no penalties: a hit without a roll), then one damage block (d6 3).
    let events = play(&mut g, "move b1 0505", &[3]);
    let t = texts(&events);
    assert!(
        t.contains("b1 tries to enter 0505 and runs into a waiting enemy: its move ends."),
        "{t}"
    );
    assert!(
        t.contains("r1 (r1) is revealed at 0505: it springs an ambush."),
        "{t}"
    );
    assert!(
        t.contains("r1 fires at b1 at range 0: automatic range, no roll: hit."),
        "{t}"
    );
    assert_eq!(hex_of(&*g, "b1"), "0506");
    assert!(g.view(Some(Side::Blue)).unit("r1").unwrap().has("AT"));
}

#[test]
fn spotting_reveals_a_hidden_unit_on_five_or_six() {
    let s = scenario(
        None,
        "",
        &[
            squad("r1", "red", "M", "0505", "S", "hidden = true"),
            squad("b1", "blue", "M", "0509", "N", ""),
        ],
    );
    let mut g = load(&s);
    let events = g.start(&mut ScriptedDice::new([1, 9, 5]));
    assert!(
        texts(&events).contains("r1 (r1) is revealed at 0505: blue spots it (d6 5, M76)."),
        "{}",
        texts(&events)
    );
    assert!(g.view(Some(Side::Blue)).unit("r1").is_some());
}

#[test]
fn sound_ranging_shows_the_enemy_only_an_area_around_a_hidden_gun() {
    let s = with_options(
        &scenario(
            None,
            "",
            &[
                gun(
                    "r1",
                    "red",
                    "L",
                    "mortar = true\nhidden = true",
                    "0510",
                    "N",
                ),
                squad("r2", "red", "M", "0507", "N", ""),
                squad("b1", "blue", "M", "0503", "S", ""),
            ],
        ),
        "sound_ranging = \"yes\"",
    );
    let mut g = start(&s);
    play(&mut g, "end", &[]);
    play(&mut g, "fire b1 r2", &[1]);
    // The area: the ten hexes nearest the hex a d6 (1: N) puts next to the gun; then the
    // round lands on target (5).
    let events = play(&mut g, "bombard r1 0503", &[1, 5]);
    assert!(
        texts(&events).contains("red fires unseen: blue sound-ranges it to the area"),
        "{}",
        texts(&events)
    );
    let blue = g.view(Some(Side::Blue));
    assert!(blue.unit("r1").is_none(), "the gun stays hidden");
    let area: Vec<String> = blue
        .features
        .iter()
        .filter(|f| f.kind == "sound ranging")
        .map(|f| f.place.to_string())
        .collect();
    assert_eq!(area.len(), 10);
    assert!(
        area.contains(&"0510".to_string()) && area.contains(&"0509".to_string()),
        "{area:?}"
    );
    assert!(g
        .view(Some(Side::Red))
        .features
        .iter()
        .all(|f| f.kind != "sound ranging"));
    // The shot's own line, naming the gun, is red's alone.
    assert!(events
        .iter()
        .filter(|e| e.kind == "bombard")
        .all(|e| !e.seen.by(Side::Blue)));
}

#[test]
fn decoys_stand_among_the_markers_and_are_found_out_unless_in_heavy_terrain() {
    let rows = forest_at(&[(6, 6)]);
    let rows: Vec<&str> = rows.iter().map(|r| r.as_str()).collect();
    let decoy = |hex: &str| format!("[[decoys]]\nside = \"blue\"\nhex = \"{hex}\"\n");
    let s = scenario(
        Some(&rows),
        "",
        &[
            squad("r1", "red", "M", "0509", "N", ""),
            squad("b1", "blue", "M", "0407", "S", "hidden = true"),
            vehicle("b2", "blue", "pz4f2", "0607", "N").replace("facing", "hidden = true\nfacing"),
            decoy("0406"),
            decoy("0606"),
            decoy("0102"),
        ],
    );
    let mut g = load(&s);
    // Red's spotting: b1 and b2 (d6 2, 2), then the decoys: 0406 and 0606 not (2, 2), 0102
    // found out on a 6.
    let t = texts(&g.start(&mut ScriptedDice::new([9, 1, 2, 2, 2, 2, 6])));
    assert!(t.contains("[hex-command-mechanized M77] The blue marker at 0102 was a decoy and is removed: red spots it (d6 6, M76)."), "{t}");
    // Red sees four markers, blue's two hidden units and two decoys alike, and no unit of
    // blue's; blue knows which of its markers are decoys.
    let red = g.view(Some(Side::Red));
    let at: Vec<String> = red.markers.iter().map(|m| m.place.to_string()).collect();
    assert_eq!(at, vec!["0406", "0407", "0606", "0607"]);
    assert!(red.unit("b1").is_none() && red.unit("b2").is_none());
    let blue = g.view(Some(Side::Blue));
    assert_eq!(
        blue.features.iter().filter(|f| f.kind == "decoy").count(),
        2
    );
    // A search for red deals blue's hidden units among the marker hexes.
    let mut d = ScriptedDice::new(std::iter::repeat_n(1, 20));
    g.determinize(Side::Red, &mut d).check_invariants().unwrap();
    // r1 steps next to the hidden vehicle b2 (revealed) and the hidden squad b1 (not); then
    // next to the decoy in the open at 0406 (found out) and the one in the forest at 0606
    // (it stays a marker).
    let t = texts(&play(&mut g, "move r1 0508", &[]));
    assert!(
        t.contains("b2 (") && t.contains("is revealed at 0607: r1 comes next to it (M77)."),
        "{t}"
    );
    assert!(!t.contains("b1 ("), "{t}");
    let t = texts(&play(&mut g, "move r1 0507", &[]));
    assert!(
        t.contains("The blue marker at 0406 was a decoy and is removed: r1 comes next to it."),
        "{t}"
    );
    assert!(!t.contains("0606"), "{t}");
    let at: Vec<String> = g
        .view(Some(Side::Red))
        .markers
        .iter()
        .map(|m| m.place.to_string())
        .collect();
    assert_eq!(at, vec!["0407", "0606"]);
    // A decoy shares its hex with nobody.
    let e = load_error(&s.replace("hex = \"0606\"", "hex = \"0509\""));
    assert!(
        e.contains("hex 0509 is already taken: a decoy stands alone"),
        "{e}"
    );
}

#[test]
fn a_search_guesses_an_unseen_unit_in_heavy_terrain_out_of_the_sides_reach() {
    // Red's squad r1 at 0509 and blue's hidden squad b1 in the open at 0202, with forest at
    // the places given.
    let game = |forest: &[(usize, usize)]| {
        let rows = forest_at(forest);
        let rows: Vec<&str> = rows.iter().map(|r| r.as_str()).collect();
        load(&scenario(
            Some(&rows),
            "",
            &[
                squad("r1", "red", "M", "0509", "N", ""),
                squad("b1", "blue", "M", "0202", "S", "hidden = true"),
            ],
        ))
    };
    // Forest at 0703 and 0802, far from red, and at 0508, next to r1.
    let g = game(&[(3, 7), (2, 8), (8, 5)]);
    assert_eq!(hex_of(&*g, "b1"), "0202");
    // Red's search puts b1 where a unit could wait unseen: a forest hex no red unit is next
    // to, the die choosing which (a d2 here). The forest beside r1 is left out, as is the
    // open ground.
    for (k, hex) in [(1, "0802"), (2, "0703")] {
        let known = g.determinize(Side::Red, &mut ScriptedDice::new([k]));
        known.check_invariants().unwrap();
        assert_eq!(hex_of(&*known, "b1"), hex, "die {k}");
    }
    // With no forest free, the guess is any free hex no red unit is next to: here the first
    // of them in the map's order.
    let g = game(&[(8, 5)]);
    let known = g.determinize(Side::Red, &mut ScriptedDice::new([1]));
    assert_eq!(hex_of(&*known, "b1"), "0101");
    // Blue's own search leaves its unit where it is.
    let own = g.determinize(Side::Blue, &mut ScriptedDice::new([1]));
    assert_eq!(hex_of(&*own, "b1"), "0202");
}

#[test]
fn a_search_deals_unseen_units_the_same_wherever_they_truly_stand() {
    // Red's squad r1 at 0509; blue's hidden squads b1 and b2 wherever the case puts them, with
    // forest at 0703, 0802 and 0405, none of them next to r1.
    let game = |b1: &str, b2: &str| {
        let rows = forest_at(&[(3, 7), (2, 8), (5, 4)]);
        let rows: Vec<&str> = rows.iter().map(|r| r.as_str()).collect();
        load(&scenario(
            Some(&rows),
            "",
            &[
                squad("r1", "red", "M", "0509", "N", ""),
                squad("b1", "blue", "M", b1, "S", "hidden = true"),
                squad("b2", "blue", "M", b2, "S", "hidden = true"),
            ],
        ))
    };
    // Red knows neither where b1 and b2 stand nor which forest they hide in: its search must
    // deal them out alike whether they sit in the open, in one forest each, or in the very
    // hexes the dice would pick. Each is dealt to a forest hex not yet taken, in map order
    // 0802, 0703, 0405 (b1 from three, b2 from the two left).
    let cases = [
        ("0202", "0909"),
        ("0703", "0802"),
        ("0405", "0703"),
        ("0802", "0202"),
    ];
    for (dice, want) in [
        ([1, 1], ("0802", "0703")),
        ([2, 2], ("0703", "0405")),
        ([3, 1], ("0405", "0802")),
        ([3, 2], ("0405", "0703")),
    ] {
        for (b1, b2) in cases {
            let known = game(b1, b2).determinize(Side::Red, &mut ScriptedDice::new(dice));
            known.check_invariants().unwrap();
            let got = (hex_of(&*known, "b1"), hex_of(&*known, "b2"));
            assert_eq!(
                (got.0.as_str(), got.1.as_str()),
                want,
                "dice {dice:?}, b1 and b2 truly at {b1} and {b2}"
            );
        }
    }
}

#[test]
fn an_objective_a_hidden_unit_holds_shows_as_held_only_to_its_own_side() {
    // Blue's hidden squad b1 stands on the farm (10 points). Red cannot see it (M76), so in
    // red's view nobody holds the farm and blue has no points; blue's own view, and the
    // whole table's, show the farm blue's. The score that decides the battle (M44) is the
    // true one.
    let top = "[[objectives]]\nhex = \"0505\"\nname = \"the farm\"\npoints = 10";
    let s = scenario_with(
        top,
        &[
            squad("r1", "red", "M", "0509", "N", ""),
            squad("b1", "blue", "M", "0505", "S", "hidden = true"),
        ],
    );
    let g = load(&s);
    let red = g.view(Some(Side::Red));
    assert!(red.unit("b1").is_none(), "b1 is hidden from red");
    assert_eq!(red.objectives[0].holder, None);
    assert_eq!((red.sides[0].score, red.sides[1].score), (0, 0));
    for v in [g.view(Some(Side::Blue)), g.view(None)] {
        assert_eq!(v.objectives[0].holder, Some(Side::Blue));
        assert_eq!((v.sides[0].score, v.sides[1].score), (0, 10));
    }
}
