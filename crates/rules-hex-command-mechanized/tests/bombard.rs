//! Indirect fire (M94–M97): a spotter, the shot's fall, HE on the hex, rockets, smoke.

mod common;

use common::*;

#[test]
fn bombard_a_mortar_fires_at_a_hex_its_side_sees_and_the_round_may_scatter() {
    let s = scenario(
        None,
        "",
        &[
            gun("r1", "red", "L", "mortar = true", "0510", "N"),
            squad("r2", "red", "M", "0507", "N", ""),
            squad("b1", "blue", "M", "0503", "S", ""),
        ],
    );
    let mut g = start(&s);
    play(&mut g, "end", &[]);
    // Blue's fire step: b1 at range 3 of r2 (needs 5+), misses.
    play(&mut g, "fire b1 r2", &[1]);
    // On target (d6 5): b1 loses a figure and takes a marker (HE of a Light gun).
    let events = play(&mut g, "bombard r1 0503", &[5]);
    let t = texts(&events);
    assert!(
        t.contains(
            "r1 fires on 0503 for red, spotted by r1: d6 5: on target: the round lands on 0503."
        ),
        "{t}"
    );
    assert!(
        t.contains("HE: a figure lost; b1 takes 1 hit: 3 figures left, 1 marker"),
        "{t}"
    );
}

#[test]
fn bombard_field_guns_need_more_than_five_hexes_and_a_spotter() {
    let s = scenario(
        None,
        "",
        &[
            gun("r1", "red", "M", "indirect = true", "0510", "N"),
            squad("r2", "red", "M", "0109", "N", ""),
            squad("b1", "blue", "M", "0506", "S", ""),
        ],
    );
    let mut g = start(&s);
    play(&mut g, "end", &[]);
    play(&mut g, "end", &[]);
    assert!(refused(&mut g, "bombard r1 0506").contains("only beyond 5 hexes (M94)"));
}

#[test]
fn bombard_needs_an_enemy_in_the_hex_and_a_unit_of_its_side_that_sees_it() {
    // A row of woods across row 06 hides rows 01–05 from every red unit (M95). A hex with no
    // enemy is refused for that first: the enemy is checked before the spotters.
    let mut rows: Vec<String> = vec![["."; 10].join(" "); 10];
    rows[5] = ["W"; 10].join(" ");
    let s = scenario(
        Some(&rows.iter().map(String::as_str).collect::<Vec<_>>()),
        "",
        &[
            gun("r1", "red", "M", "indirect = true", "0510", "N"),
            squad("r2", "red", "M", "0109", "N", ""),
            squad("b1", "blue", "M", "0502", "S", ""),
            // In sight, so that red's fire step has something to do.
            squad("b2", "blue", "M", "0807", "N", ""),
        ],
    );
    let mut g = start(&s);
    play(&mut g, "end", &[]);
    play(&mut g, "end", &[]);
    assert_eq!(g.view(None).phase, "red fires");
    let why = refused(&mut g, "bombard r1 0502");
    assert!(
        why.contains("no unit of r1's side sees 0502 within spotting range (M95)"),
        "{why}"
    );
    let why = refused(&mut g, "bombard r1 0503");
    assert!(
        why.contains("0503 holds no enemy r1's side knows of"),
        "{why}"
    );
    assert!(!legal(&*g).iter().any(|a| a.starts_with("bombard")));
}

#[test]
fn smoke_fired_by_a_mortar_hides_what_lies_behind_it() {
    let s = scenario(
        None,
        "",
        &[
            gun("r1", "red", "L", "mortar = true", "0510", "N"),
            squad("r2", "red", "M", "0507", "N", ""),
            squad("r3", "red", "M", "0703", "NW", ""),
            squad("b1", "blue", "M", "0503", "S", ""),
        ],
    );
    let mut g = start(&s);
    play(&mut g, "end", &[]);
    play(&mut g, "fire b1 r2", &[1]);
    assert!(legal(&*g).contains(&"fire r2 b1".to_string()));
    // On target (d6 5): smoke on 0504, between r2 and b1.
    let events = play(&mut g, "smoke r1 0504", &[5]);
    assert!(
        texts(&events)
            .contains("r1 fires smoke at 0504: d6 5: on target: the smoke lands on 0504."),
        "{}",
        texts(&events)
    );
    let why = refused(&mut g, "fire r2 b1");
    assert!(why.contains("r2 cannot see b1 (M71)"), "{why}");
}

#[test]
fn bombard_rockets_always_scatter() {
    let s = scenario(
        None,
        "",
        &[
            gun("r1", "red", "M", "rockets = true", "0510", "N"),
            squad("r2", "red", "M", "0509", "N", ""),
            squad("b1", "blue", "M", "0502", "S", ""),
        ],
    );
    let mut g = start(&s);
    while g.view(None).phase != "red fires" {
        play(&mut g, "end", &[]);
    }
    // Even a 6 on the first die does not land on the aim: a second die (2, NE) says where.
    let events = play(&mut g, "bombard r1 0502", &[6, 2]);
    let t = texts(&events);
    assert!(t.contains("rockets always scatter: d6 2 (NE)"), "{t}");
    assert!(!t.contains("lands on 0502"), "{t}");
}
