//! Melee (3.8, M107–M119): the totals compared, ties, stepping back, advancing.

mod common;

use common::*;

#[test]
fn melee_the_higher_total_captures_the_other() {
    let mut g = melee_game("H");
    // Heavy 3 + d6 5 = 8 against Medium 2 + d6 4 = 6 (D8).
    let events = play(&mut g, "melee r1 b1", &[5, 4]);
    assert!(
        texts(&events).contains("r1 melees b1: 5+3 = 8 against 4+2 = 6: r1 wins and captures b1."),
        "{}",
        texts(&events)
    );
    assert!(gone(&*g, "b1"));
}

#[test]
fn melee_a_tie_costs_both_a_figure_and_pushes_both_back() {
    let mut g = melee_game("M");
    let events = play(&mut g, "melee r1 b1", &[4, 4]);
    let t = texts(&events);
    assert!(
        t.contains("a tie: both lose a figure and fall back (M111)"),
        "{t}"
    );
    assert_eq!(hex_of(&*g, "r1"), "0507");
    assert_eq!(hex_of(&*g, "b1"), "0504");
    assert_eq!(
        g.view(None)
            .unit("r1")
            .unwrap()
            .elements
            .as_ref()
            .unwrap()
            .now,
        3
    );
}

#[test]
fn melee_a_faster_unmarked_defender_may_step_back_and_the_attacker_may_advance() {
    let mut g = retreat_game();
    // b1 steps back to 0504 with a marker; r1 rolls 4 and takes 0505 (M118).
    let events = play(&mut g, "retreat b1", &[4]);
    let t = texts(&events);
    assert!(
        t.contains("b1 steps back from 0505 to 0504 and takes a marker"),
        "{t}"
    );
    assert!(t.contains("r1 rolls 4 to advance: it takes 0505."), "{t}");
    assert_eq!(hex_of(&*g, "r1"), "0505");
    assert_eq!(hex_of(&*g, "b1"), "0504");
    assert_eq!(
        g.view(None).unit("b1").unwrap().facing,
        Some(volley_core::geometry::Facing::S)
    );
}

#[test]
fn melee_a_defender_that_stands_fights_it_out() {
    let mut g = retreat_game();
    // Medium 2 + 6 = 8 against Light 1 + 1 = 2.
    let events = play(&mut g, "stand b1", &[6, 1]);
    assert!(
        texts(&events).contains("r1 melees b1: 6+2 = 8 against 1+1 = 2: r1 wins and captures b1."),
        "{}",
        texts(&events)
    );
}

#[test]
fn melee_advance_by_aggressiveness_with_the_option() {
    let s = with_options(
        &scenario(
            None,
            "",
            &[
                squad("r1", "red", "M", "0506", "N", ""),
                squad("b1", "blue", "L", "0505", "S", ""),
            ],
        ),
        "cvs_advance = \"yes\"",
    );
    let mut g = start(&s);
    for _ in 0..3 {
        play(&mut g, "end", &[]);
    }
    play(&mut g, "melee r1 b1", &[]);
    // No commander: the default Aggressiveness 6; a d10 of 7 is above it.
    let events = play(&mut g, "retreat b1", &[7]);
    assert!(
        texts(&events)
            .contains("r1 rolls 7 on a d10 against Aggressiveness 6 to advance: it takes 0505."),
        "{}",
        texts(&events)
    );
}
