//! Carrying and towing (M11–M13, M53, M108): embarking, riding, getting off, limbering, a tow destroyed.

mod common;

use common::*;

#[test]
fn cargo_squads_embark_ride_and_get_off_and_the_halftrack_pays_the_points() {
    let s = scenario(
        None,
        "",
        &[
            vehicle("r1", "red", "sdkfz251", "0508", "N"),
            squad("r2", "red", "M", "0508", "N", ""),
            squad("r3", "red", "L", "0509", "N", ""),
            squad("b1", "blue", "M", "0901", "S", ""),
        ],
    );
    let mut g = start(&s);
    let events = play(&mut g, "embark r2 r1", &[]);
    assert!(
        texts(&events).contains("r2 embarks on r1 at 0508."),
        "{}",
        texts(&events)
    );
    assert!(g.view(None).unit("r2").unwrap().has("aboard r1"));
    // r2 takes no room in the hex; but a halftrack carries 6 points: one squad (4), no second
    // (T8).
    play(&mut g, "move r3 0508", &[]);
    assert!(refused(&mut g, "embark r3 r1")
        .contains("r1 has no room for r3 (4 of 6 cargo points in use, T8)"));
    // The halftrack (Very Light: 6 points) has paid one to load; it drives on with r2.
    for hex in ["0507", "0506", "0505", "0504"] {
        play(&mut g, &format!("move r1 {hex}"), &[]);
    }
    assert_eq!(hex_of(&*g, "r2"), "0504");
    // Its last point unloads r2 into the hex ahead.
    let events = play(&mut g, "disembark r2 0503", &[]);
    assert!(
        texts(&events).contains("r2 gets off r1 at 0503."),
        "{}",
        texts(&events)
    );
    // The halftrack has spent its 6 points (load, four hexes, unload) and r2 ends its move as it
    // gets off: red has nothing left to move, and its movement ends by itself.
    assert_eq!(hex_of(&*g, "r2"), "0503");
    assert_eq!(g.view(None).phase, "blue fires (red's turn)");
}

#[test]
fn cargo_a_truck_limbers_a_gun_and_a_destroyed_tow_loses_it() {
    let s = scenario(
        None,
        "",
        &[
            vehicle("r1", "red", "opelblitz", "0508", "N"),
            gun("r2", "red", "M", "", "0508", "N"),
            squad("r3", "red", "M", "0509", "N", ""),
            gun("b1", "blue", "L", "", "0506", "S"),
        ],
    );
    let mut g = start(&s);
    let events = play(&mut g, "limber r2 r1", &[]);
    assert!(
        texts(&events).contains("r2 is limbered up behind r1 at 0508."),
        "{}",
        texts(&events)
    );
    play(&mut g, "end", &[]);
    // Blue's Light gun fires twice (M7). Against the soft truck at range 1 it needs 1+ on
    // 2d10; a Light gun against a soft chassis rolls two blocks as rolled: CC and DD…
    play(&mut g, "fire b1 r1", &[1, 1, 2, 4]);
    assert!(g.view(None).unit("r2").unwrap().has("aboard r1"));
    // …then MM: three doubles, the truck is destroyed and the gun it tows with it (M108).
    let events = play(&mut g, "fire b1 r1", &[1, 1, 6, 1]);
    let t = texts(&events);
    assert!(t.contains("r2 is lost with r1."), "{t}");
    assert!(gone(&*g, "r1") && gone(&*g, "r2"));
}
