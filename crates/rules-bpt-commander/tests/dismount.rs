//! Mounting and dismounting (the lists' dragoon and cavalry notes).

mod common;

use common::*;

#[test]
fn dragoons_dismount_by_an_order_leaving_a_stand_with_the_horses_and_mount_again() {
    let other = "{ arm = \"infantry\", move = 10, dice = 1, range = 15, save = 5, hits = 2 }";
    let mut g = Scen::new()
        .cav(
            "red",
            "d1",
            "0608",
            "N",
            &[("stands", "4"), ("other_mode", other)],
        )
        .inf("blue", "b1", "0603", "S", &[])
        .command();
    let d1 = k(&g, "d1");
    let e = play(&mut g, "dismount d1", &[2, 2]);
    assert!(
        log(&e).contains("dismounts and fights on foot (3 stands, 1 left with the horses)"),
        "{}",
        log(&e)
    );
    let u = &g.units[d1];
    assert_eq!(
        (
            u.arm,
            u.stands,
            u.move_cm,
            u.range_cm,
            u.save,
            u.hits_per_stand
        ),
        (
            rules_bpt_commander::troops::Arm::Infantry,
            3,
            10,
            15,
            Some(5),
            2
        )
    );
    // Mounting again is another order, and brings the horse holders back.
    let e = play(&mut g, "mount d1", &[3, 3]);
    assert!(log(&e).contains("mounts (4 stands)"), "{}", log(&e));
    assert_eq!(g.units[d1].arm, rules_bpt_commander::troops::Arm::Cavalry);
    assert_eq!(g.units[d1].move_cm, 30);
    // Without another mode there is nothing to change to.
    let mut g = duel(&[], &[]).command();
    let m = refused(&mut g, "dismount r1");
    assert!(m.contains("has no other mode"), "{m}");
}
