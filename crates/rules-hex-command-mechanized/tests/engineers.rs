//! Engineers (M66–M67): works dug over turns, bridges, minefields cleared and laid.

mod common;

use common::*;

#[test]
fn engineers_dig_works_over_turns_by_weight_and_do_not_fight_meanwhile() {
    let s = scenario(
        None,
        "",
        &[
            squad("r1", "red", "M", "0508", "N", "engineer = true"),
            squad("r2", "red", "M", "0108", "N", ""),
            squad("b1", "blue", "M", "0506", "S", ""),
        ],
    );
    let mut g = start(&s);
    assert!(refused(&mut g, "dig r2").contains("only engineers build works (M66)"));
    let events = play(&mut g, "dig r1", &[]);
    assert!(
        texts(&events).contains("r1 digs in at 0508: turn 1 of 2."),
        "{}",
        texts(&events)
    );
    play(&mut g, "end", &[]);
    // Blue fires (range 1, 3+) and misses; red's r1 may not answer: it worked.
    play(&mut g, "fire b1 r1", &[1]);
    assert!(refused(&mut g, "fire r1 b1").contains("r1 worked this turn and does not fight"));
    // Red's melee step has nothing to do; blue's turn: it moves nothing, red's r2 may fire
    // back (r1 still may not), blue fires nothing, and turn 2 opens (red 9, blue 1).
    play(&mut g, "end", &[]);
    assert_eq!(g.view(None).phase, "blue movement");
    play(&mut g, "end", &[]);
    assert_eq!(g.view(None).phase, "red fires (blue's turn)");
    assert!(refused(&mut g, "fire r1 b1").contains("worked"));
    play(&mut g, "end", &[]);
    play(&mut g, "end", &[9, 1]);
    assert_eq!(g.view(None).phase, "red movement");
    // The second turn of work finishes the works of a Medium squad (T12).
    let events = play(&mut g, "dig r1", &[]);
    assert!(
        texts(&events).contains("r1 digs in at 0508: turn 2 of 2; the works are ready."),
        "{}",
        texts(&events)
    );
    assert!(g.view(None).features.iter().any(|f| f.kind == "works"
        && f.place
            == volley_core::Place::Hex(volley_core::geometry::parse_label("0508").unwrap())));
}

#[test]
fn squads_clear_known_minefields_and_lay_their_own() {
    let mines = "[[minefields]]\nhex = \"0507\"\nside = \"red\"\n\n[[minefields]]\nhex = \"0305\"\nside = \"red\"";
    let s = scenario_with(
        mines,
        &[
            squad("r1", "red", "M", "0508", "N", "mines = 1"),
            squad("r2", "red", "M", "0506", "N", ""),
            squad("b1", "blue", "M", "0901", "S", ""),
        ],
    );
    let mut g = start(&s);
    // Red knows its own fields; blue cannot see them.
    let events = play(&mut g, "clear r2 0507", &[]);
    assert!(
        texts(&events).contains("r2 clears the minefield at 0507."),
        "{}",
        texts(&events)
    );
    assert!(refused(&mut g, "lay r2 0505").contains("r2 has moved or worked this turn"));
    assert!(g
        .view(Some(Side::Blue))
        .features
        .iter()
        .all(|f| f.kind != "minefield"));
    let events = play(&mut g, "lay r1 0408", &[]);
    assert!(
        texts(&events).contains("r1 lays mines at 0408."),
        "{}",
        texts(&events)
    );
    assert!(
        events
            .iter()
            .filter(|e| e.kind == "mines")
            .all(|e| !e.seen.by(Side::Blue)),
        "blue is not told"
    );
    assert_eq!(
        g.view(Some(Side::Red))
            .features
            .iter()
            .filter(|f| f.kind == "minefield")
            .count(),
        2
    );
}

#[test]
fn engineers_bridge_water_and_troops_cross_when_it_is_open() {
    let mut rows: Vec<String> = vec![["."; 10].join(" "); 10];
    rows[6] = ". . . . ~ . . . . .".into();
    let s = scenario(
        Some(&rows.iter().map(String::as_str).collect::<Vec<_>>()),
        "",
        &[
            squad("r1", "red", "M", "0508", "N", "engineer = true"),
            squad("r2", "red", "M", "0509", "N", ""),
            squad("b1", "blue", "M", "0901", "S", ""),
        ],
    );
    let mut g = start(&s);
    assert!(refused(&mut g, "move r1 0507").contains("cannot enter 0507 (water)"));
    let events = play(&mut g, "bridge r1 0507", &[]);
    assert!(
        texts(&events).contains("r1 bridges the water at 0507: turn 1 of 2."),
        "{}",
        texts(&events)
    );
    play(&mut g, "end", &[]);
    play(&mut g, "end", &[9, 1]);
    let events = play(&mut g, "bridge r1 0507", &[]);
    assert!(
        texts(&events).contains("turn 2 of 2; the bridge is open."),
        "{}",
        texts(&events)
    );
    play(&mut g, "move r2 0508", &[]);
    play(&mut g, "move r2 0507", &[]);
    assert_eq!(hex_of(&*g, "r2"), "0507");
}
