//! PRONE MOVEMENT (optional rule): going prone and rising as orders, what a prone unit may do
//! and the hit it saves.

mod common;

use common::*;

#[test]
fn going_prone_and_rising_are_orders_and_only_with_the_rule() {
    let mut g = duel(&[], &[]).option("prone", "on").command();
    let e = play(&mut g, "prone r1", &[2, 2]);
    assert!(
        log(&e).contains("r1 goes prone in close order"),
        "{}",
        log(&e)
    );
    assert!(log(&e).contains("needs 8 or less"), "{}", log(&e));
    let r1 = k(&g, "r1");
    assert!(g.units[r1].prone);
    // Close order prone: no fire, no move, no change of formation.
    let m = refused(&mut g, "fire r1 b1");
    assert!(m.contains("cannot fire now"), "{m}");
    let m = refused(&mut g, "move r1 0607");
    assert!(!m.is_empty());
    let m = refused(&mut g, "form r1 attack");
    assert!(m.contains("is prone: it must rise first"), "{m}");
    // Rising is a second action of the same order (the double 2 was no bonus): refused
    // without an order of its own; the next order (at -1) stands it up.
    play(&mut g, "rise r1", &[3, 3]);
    assert!(!g.units[r1].prone);
    let mut g = duel(&[], &[]).command();
    let m = refused(&mut g, "prone r1");
    assert!(m.contains("prone movement rule is not in play"), "{m}");
}

#[test]
fn prone_in_skirmish_order_may_fire_but_not_move() {
    let mut g = duel(&[("formation", "\"extended\"")], &[])
        .option("prone", "on")
        .command();
    play(&mut g, "prone r1", &[2, 2]);
    let r1 = k(&g, "r1");
    assert!(g.units[r1].prone && g.units[r1].skirmish_order());
    assert!(g.may_fire(r1));
    assert_eq!(g.allowance_cm(r1), 0);
}

#[test]
fn a_prone_unit_takes_one_hit_fewer_from_each_unit_firing_at_it() {
    let mut g = duel(&[], &[]).option("prone", "on").start_with(&[]);
    let b1 = k(&g, "b1");
    g.units[b1].prone = true;
    // 4 dice, two hits (4 and 6): one is lost to the ground, one test die.
    let e = play(&mut g, "fire r1 b1", &[4, 3, 6, 1, 1]);
    assert_eq!(g.units[b1].turn_hits, 1, "{}", log(&e));
    assert!(!g.units[b1].is_suppressed());
    // One hit only: none left.
    let mut g = duel(&[], &[]).option("prone", "on").start_with(&[]);
    g.units[b1].prone = true;
    play(&mut g, "fire r1 b1", &[4, 3, 1, 1]);
    assert_eq!(g.units[b1].turn_hits, 0);
}

#[test]
fn a_prone_unit_driven_back_is_on_its_feet_again() {
    let mut g = duel(&[], &[]).option("prone", "on").start_with(&[]);
    let b1 = k(&g, "b1");
    g.units[b1].prone = true;
    suppressed(&mut g, "b1");
    // Three hits, one lost to the ground: two fall-back dice, 3 + 4 = 7 cm, one hex.
    play(&mut g, "fire r1 b1", &[4, 4, 4, 1, 3, 4]);
    assert_eq!(g.units[b1].hex, hex("0604"));
    assert!(!g.units[b1].prone);
}
