//! What a side sees (M4): the hidden anti-tank capability of a squad.

mod common;

use common::*;

#[test]
fn view_hides_a_squads_anti_tank_weapons_until_they_fire_at_a_vehicle() {
    let s = scenario(
        None,
        "",
        &[
            squad("r1", "red", "M", "0506", "N", "at = true"),
            vehicle("b1", "blue", "t34-76", "0504", "S"),
        ],
    );
    let mut g = start(&s);
    assert!(g.view(Some(Side::Red)).unit("r1").unwrap().has("AT"));
    assert!(!g.view(Some(Side::Blue)).unit("r1").unwrap().has("AT"));
    play(&mut g, "end", &[]);
    play(&mut g, "end", &[]);
    // Red fires its panzerfaust at range 1: an M weapon, 1d10 (M88): 1 + 3 = 4+.
    let events = play(&mut g, "fire r1 b1", &[2]);
    assert!(
        texts(&events).contains("needs 4+ on 1d10, rolled 2: miss."),
        "{}",
        texts(&events)
    );
    assert!(g.view(Some(Side::Blue)).unit("r1").unwrap().has("AT"));
}
