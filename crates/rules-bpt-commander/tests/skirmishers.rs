//! Brigade skirmishers (Formations of skirmishers screening a unit): the die they cost the
//! firer, the hits they take first, running back when their unit is charged.

mod common;

use common::*;
use volley_core::Side;

#[test]
fn brigade_skirmishers_cost_the_firer_a_die_and_take_the_first_hits() {
    let mut g = duel(&[], &[("skirmishers", "2")]).start_with(&[]);
    let b1 = k(&g, "b1");
    // 4 dice less one for the screen = 3: three hits, all on the skirmishers' 2 × 2.
    let e = play(&mut g, "fire r1 b1", &[4, 4, 4]);
    assert!(
        log(&e).contains("-1 target screened by skirmishers"),
        "{}",
        log(&e)
    );
    assert!(
        log(&e).contains("b1's skirmishers take 3 hits: 1 of 2 skirmish stands lost"),
        "{}",
        log(&e)
    );
    assert_eq!(
        (
            g.units[b1].screen,
            g.units[b1].screen_hits,
            g.units[b1].turn_hits
        ),
        (1, 1, 0)
    );
    assert!(!g.units[b1].is_suppressed());
    // One skirmish stand: it takes two of three hits and is gone; the third reaches the
    // battalion and goes through the test as usual.
    let mut g = duel(&[], &[("skirmishers", "1")]).start_with(&[]);
    let e = play(&mut g, "fire r1 b1", &[4, 4, 4, 1]);
    assert!(
        log(&e).contains("b1's skirmishers take 2 hits: 1 of 1 skirmish stands lost"),
        "{}",
        log(&e)
    );
    assert_eq!((g.units[b1].screen, g.units[b1].turn_hits), (0, 1));
}

#[test]
fn skirmishers_run_back_when_their_unit_is_charged_and_screen_only_line_column_or_extended() {
    let s = Scen::new()
        .inf("red", "r1", "0608", "N", &[])
        .inf("blue", "b1", "0606", "S", &[("skirmishers", "2")])
        .inf("blue", "b9", "1201", "S", &[])
        .hqs("blue", &[hq("bhq", 8, "1202", true)]);
    let mut g = s.command();
    play(&mut g, "order rhq r1 charge", &[2, 2]);
    let e = play(&mut g, "charge r1 b1", &[]);
    assert!(
        log(&e).contains("b1's skirmishers run back to their lines"),
        "{}",
        log(&e)
    );
    assert_eq!(g.units[k(&g, "b1")].screen, 0);
    // A march column has no screen out.
    let g = duel(&[], &[("skirmishers", "2"), ("formation", "\"march\"")]).load();
    assert!(!g.units[k(&g, "b1")].screened());
}

#[test]
fn skirmish_hits_short_of_a_stand_are_dropped_at_the_end_phase() {
    let mut g = duel(&[], &[("skirmishers", "2")]).start_with(&[]);
    let b1 = k(&g, "b1");
    // 4 dice less one for the screen: one hit, on the skirmishers.
    play(&mut g, "fire r1 b1", &[4, 1, 1]);
    assert_eq!((g.units[b1].screen, g.units[b1].screen_hits), (2, 1));
    while g.active == Side::Red {
        play(&mut g, "end", &[]);
    }
    assert_eq!((g.units[b1].screen, g.units[b1].screen_hits), (2, 0));
}
