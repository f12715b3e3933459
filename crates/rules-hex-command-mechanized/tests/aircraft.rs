//! Aircraft (M69, M140): ground attack, flak, flight and air-to-air combat.

mod common;

use common::*;

#[test]
fn aircraft_strike_a_known_enemy_and_flak_may_drive_them_off() {
    let mut g = air_game(false);
    // On target on a d6 of 4–6: b1 takes the Medium weapon's HE.
    let events = play(&mut g, "strike jabo 0505", &[4]);
    let t = texts(&events);
    assert!(t.contains("jabo strikes 0505: d6 4: on target."), "{t}");
    assert!(t.contains("HE: a figure lost; b1 takes 1 hit"), "{t}");
    assert!(
        !legal(&*g).iter().any(|a| a.starts_with("strike")),
        "one strike a turn"
    );
    // A quad AA mount within 2 hexes fires first and drives it off on 4–6.
    let mut g = air_game(true);
    let events = play(&mut g, "strike jabo 0505", &[4]);
    let t = texts(&events);
    assert!(
        t.contains("b2 fires at jabo diving on 0505: needs 4+, rolled 4: driven off."),
        "{t}"
    );
    assert!(!t.contains("strikes 0505"), "{t}");
}

#[test]
fn aircraft_fly_straight_at_twice_a_chassis_speed_only_superior_ones_turn_and_they_fight_in_the_air(
) {
    let s = scenario_with(
        "[[aircraft]]\nid = \"jabo\"\nside = \"red\"\nweight = \"M\"\nturns = [1]\nentry = \"0210\"\nfacing = \"N\"\n\n[[aircraft]]\nid = \"spit\"\nside = \"blue\"\nname = \"Spitfire\"\nweight = \"H\"\nturns = [1]\nentry = \"0406\"\nfacing = \"N\"\nsuperior = true",
        &[
            squad("r1", "red", "M", "0109", "N", ""),
            squad("b1", "blue", "M", "0905", "S", ""),
        ],
    );
    let mut g = load(&s);
    let t = texts(&g.start(&mut ScriptedDice::new([9, 1])));
    // A Medium aircraft flies twice a Medium chassis' 5 hexes; it comes on at its entry.
    assert!(
        t.contains(
            "[hex-command-mechanized M69] jabo (jabo) comes on at 0210 heading N, 10 hexes a turn."
        ),
        "{t}"
    );
    assert_eq!(
        legal(&*g)
            .iter()
            .filter(|a| a.starts_with("fly"))
            .collect::<Vec<_>>(),
        vec!["fly jabo 0209"]
    );
    play(&mut g, "fly jabo 0209", &[]);
    let why = refused(&mut g, "fly jabo 0109");
    assert!(
        why.contains("jabo flies straight ahead: only Superior aircraft turn (M69)"),
        "{why}"
    );
    // Ending the step, it flies the rest of its 10 hexes straight on; blue's Superior
    // Spitfire comes on at the start of blue's turn.
    let t = texts(&play(&mut g, "end", &[]));
    assert!(
        t.contains("jabo flies straight on from 0209 to 0201."),
        "{t}"
    );
    assert!(
        t.contains(
            "spit (Spitfire) comes on at 0406 heading N, 8 hexes a turn, a Superior aircraft."
        ),
        "{t}"
    );
    // It may turn a hexside as it flies: ahead-left, ahead, ahead-right.
    let mut flights: Vec<String> = legal(&*g)
        .into_iter()
        .filter(|a| a.starts_with("fly"))
        .collect();
    flights.sort();
    assert_eq!(
        flights,
        vec!["fly spit 0306", "fly spit 0405", "fly spit 0506"]
    );
    for hex in ["0405", "0404", "0403", "0402", "0302"] {
        play(&mut g, &format!("fly spit {hex}"), &[]);
    }
    let t = texts(&play(&mut g, "end", &[]));
    assert!(
        t.contains("spit flies straight on from 0302 to 0101."),
        "{t}"
    );
    // Red fires first: jabo attacks the Spitfire a hex away and needs a 6 against a
    // Superior aircraft; then the Spitfire needs only 4 against it.
    assert_eq!(g.to_decide(), Some(Side::Red));
    let t = texts(&play(&mut g, "intercept jabo spit", &[5]));
    assert!(
        t.contains("jabo attacks spit in the air: needs 6+, rolled 5: it gets away."),
        "{t}"
    );
    // Red has nothing else to fire: blue's fire step follows at once.
    assert_eq!(g.to_decide(), Some(Side::Blue));
    // (Nothing else is left to do in blue's turn: turn 2 opens, red 9 against blue 1.)
    let t = texts(&play(&mut g, "intercept spit jabo", &[4, 9, 1]));
    assert!(
        t.contains("spit attacks jabo in the air: needs 4+, rolled 4: shot down."),
        "{t}"
    );
    let air: Vec<String> = g
        .view(None)
        .features
        .iter()
        .filter(|f| f.kind == "aircraft")
        .map(|f| f.place.to_string())
        .collect();
    assert_eq!(air, vec!["0101"]);
    // An aircraft with no entry hex is refused where it stands.
    let e = load_error(&s.replacen("entry = \"0210\"\n", "", 1));
    assert!(e.contains("entry"), "{e}");
    let e = load_error(&s.replacen("entry = \"0210\"", "entry = \"9999\"", 1));
    assert!(e.contains("9999"), "{e}");
}
