//! Falling back: unmarked hexes fired on give one hex, away from the fire, at the end of the
//! enemy's musketry; Standing hexes stay.

mod common;

use common::*;
use volley_core::Side;

fn fired_on(target: &[String], rows: &[&str]) -> Box<dyn volley_core::Game> {
    let mut units = vec![unit("red", "r1", "infantry", 10, "0403", "S")];
    units.extend_from_slice(target);
    let mut g = started(&scenario(rows, "", &units), 1);
    to_musketry(&mut g, Side::Red);
    g
}

#[test]
fn falling_back_hexes_move_one_hex_back_after_the_enemy_musketry() {
    let mut g = fired_on(
        &[unit("blue", "b1", "infantry", 10, "0404", "N")],
        &OPEN_8X8,
    );
    let events = play(&mut g, "fire 0403 0404");
    assert!(events[0]
        .text
        .starts_with("0403 fires at 0404 (falling back): 10 infantry × 0.1 = 1.0 → 1 casualty"));
    // Still there until the musketry ends, so other hexes may fire at it too.
    assert_eq!(hex_of(&*g, "b1"), "0404");
    let events = play(&mut g, "end");
    assert_eq!(events[0].rule, "stand-and-die falling back");
    assert_eq!(
        events[0].text,
        "0404 was fired on and falls back to 0405, still facing N"
    );
    assert_eq!(hex_of(&*g, "b1"), "0405");
    assert_eq!(figures(&*g, "b1"), Some(9));
}

/// Blue's b1 at 0404 facing N, and red hexes around it (`firers`) in red's musketry.
fn b1_under_fire(firers: &[String], extra: &str) -> Box<dyn volley_core::Game> {
    let mut units = firers.to_vec();
    units.push(unit("blue", "b1", "infantry", 10, "0404", "N"));
    let mut g = started(&scenario(&OPEN_8X8, extra, &units), 1);
    to_musketry(&mut g, Side::Red);
    g
}

#[test]
fn falling_back_goes_away_from_the_fire() {
    // Fired on from directly behind (0405), b1 goes straight away, ahead of it, to 0403;
    // read as "straight behind its facing" it could not give ground at all.
    let mut g = b1_under_fire(&[unit("red", "r2", "infantry", 10, "0405", "N")], "");
    play(&mut g, "fire 0405 0404");
    let events = play(&mut g, "end");
    assert_eq!(
        events[0].text,
        "0404 was fired on and falls back to 0403, still facing N"
    );
    // Fired on through its rear-right hexside (from 0505), b1 goes to 0304, straight away,
    // not to 0405 beside the firer.
    let mut g = b1_under_fire(&[unit("red", "r2", "infantry", 10, "0505", "NW")], "");
    play(&mut g, "fire 0505 0404");
    play(&mut g, "end");
    assert_eq!(hex_of(&*g, "b1"), "0304");
}

#[test]
fn falling_back_straight_behind_the_facing_is_an_option() {
    let behind = "[options]\nfall_back = \"behind\"\n";
    let mut g = b1_under_fire(&[unit("red", "r2", "infantry", 10, "0505", "NW")], behind);
    play(&mut g, "fire 0505 0404");
    play(&mut g, "end");
    assert_eq!(hex_of(&*g, "b1"), "0405");
    let mut g = b1_under_fire(&[unit("red", "r2", "infantry", 10, "0405", "N")], behind);
    play(&mut g, "fire 0405 0404");
    let events = play(&mut g, "end");
    assert_eq!(
        events[0].text,
        "0404 cannot fall back to 0405 (red troops are there) and holds"
    );
}

#[test]
fn a_hex_fired_on_from_two_sides_falls_back_away_from_both() {
    // From 0403 (ahead) and 0505 (rear right): only 0305 takes b1 farther from both.
    let firers = [
        unit("red", "r1", "infantry", 10, "0403", "S"),
        unit("red", "r2", "infantry", 10, "0505", "NW"),
    ];
    let mut g = b1_under_fire(&firers, "");
    play(&mut g, "fire 0403 0404");
    play(&mut g, "fire 0505 0404");
    play(&mut g, "end");
    assert_eq!(hex_of(&*g, "b1"), "0305");
    // From ahead and from behind, no hex is farther from both: b1 holds.
    let firers = [
        unit("red", "r1", "infantry", 10, "0403", "S"),
        unit("red", "r2", "infantry", 10, "0405", "N"),
    ];
    let mut g = b1_under_fire(&firers, "");
    play(&mut g, "fire 0403 0404");
    play(&mut g, "fire 0405 0404");
    let events = play(&mut g, "end");
    assert_eq!(
        events[0].text,
        "0404 has no hex away from the fire to fall back to and holds"
    );
    assert_eq!(hex_of(&*g, "b1"), "0404");
}

#[test]
fn standing_hexes_stand_and_die() {
    let mut g = fired_on(
        &[standing("blue", "b1", "infantry", 10, "0404", "N")],
        &OPEN_8X8,
    );
    play(&mut g, "fire 0403 0404");
    let events = play(&mut g, "end");
    assert!(events.iter().all(|e| e.kind != "retreat"));
    assert_eq!(hex_of(&*g, "b1"), "0404");
}

#[test]
fn a_hex_with_no_way_back_holds() {
    // Away from 0407, 0408 has only the map edge.
    let mut units = vec![unit("red", "r2", "infantry", 10, "0407", "S")];
    units.push(unit("blue", "b1", "infantry", 10, "0408", "N"));
    // Away from 0403, 0404 has friends at 0405 and 0305 and the river at 0505; away from
    // 0603, 0604 has only river.
    units.push(unit("blue", "b2", "infantry", 10, "0404", "N"));
    units.push(unit("blue", "b3", "infantry", 4, "0405", "N"));
    units.push(unit("blue", "b5", "infantry", 4, "0305", "N"));
    units.push(unit("red", "r3", "infantry", 10, "0603", "S"));
    units.push(unit("blue", "b4", "infantry", 10, "0604", "N"));
    let mut rows = OPEN_8X8.to_vec();
    rows[4] = ". . . . ~ ~ ~ .";
    let mut g = fired_on(&units, &rows);
    play(&mut g, "fire 0407 0408");
    play(&mut g, "fire 0403 0404");
    play(&mut g, "fire 0603 0604");
    let events = play(&mut g, "end");
    assert_eq!(
        texts(&events[..3]),
        [
            "0408 cannot fall back to 0409 (it is off the map) or 0309 (it is off the map) or 0509 (it is off the map) and holds",
            "0404 cannot fall back to 0405 (blue troops are there) or 0305 (blue troops are there) or 0505 (it is water) and holds",
            "0604 cannot fall back to 0605 (it is water) or 0505 (it is water) or 0705 (it is water) and holds",
        ]
    );
    assert_eq!(
        [hex_of(&*g, "b1"), hex_of(&*g, "b2"), hex_of(&*g, "b4")],
        ["0408", "0404", "0604"]
    );
}
