//! Falling back: unmarked hexes fired on give one hex straight back at the end of the
//! enemy's musketry; Standing hexes stay.

use crate::common::*;
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

#[test]
fn falling_back_goes_directly_behind_the_facing() {
    // Facing NE, "behind" is the SW neighbour.
    let mut units = vec![unit("red", "r2", "infantry", 10, "0504", "SW")];
    units.push(unit("blue", "b1", "infantry", 10, "0404", "NE"));
    let mut g = fired_on(&units, &OPEN_8X8);
    play(&mut g, "fire 0504 0404");
    play(&mut g, "end");
    assert_eq!(hex_of(&*g, "b1"), "0305");
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
    // Behind 0408 is the map edge.
    let mut units = vec![unit("red", "r2", "infantry", 10, "0407", "S")];
    units.push(unit("blue", "b1", "infantry", 10, "0408", "N"));
    // Behind 0404 stand friends; behind 0604 is the river.
    units.push(unit("blue", "b2", "infantry", 10, "0404", "N"));
    units.push(unit("blue", "b3", "infantry", 4, "0405", "N"));
    units.push(unit("red", "r3", "infantry", 10, "0603", "S"));
    units.push(unit("blue", "b4", "infantry", 10, "0604", "N"));
    let mut rows = OPEN_8X8.to_vec();
    rows[4] = ". . . . . ~ . .";
    let mut g = fired_on(&units, &rows);
    play(&mut g, "fire 0407 0408");
    play(&mut g, "fire 0403 0404");
    play(&mut g, "fire 0603 0604");
    let events = play(&mut g, "end");
    assert_eq!(
        texts(&events[..3]),
        [
            "0408 cannot fall back to 0409 (it is off the map) and holds",
            "0404 cannot fall back to 0405 (blue troops are there) and holds",
            "0604 cannot fall back to 0605 (it is water) and holds",
        ]
    );
    assert_eq!(
        [hex_of(&*g, "b1"), hex_of(&*g, "b2"), hex_of(&*g, "b4")],
        ["0408", "0404", "0604"]
    );
}
