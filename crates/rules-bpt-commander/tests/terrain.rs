//! Terrain: the Frozen Terrain rule (wet terrain frozen over).

mod common;

use common::*;

/// The field for the frozen-terrain tests: a river of deep water along row 9, marsh at 0810,
/// and a stream between 0408 and 0409.
fn winter(frozen: bool) -> rules_bpt_commander::BptGame {
    let mut rows: Vec<String> = vec![["."; 12].join(" "); 12];
    rows[8] = ["~"; 12].join(" ");
    rows[9] = ". . . . . . . m . . . .".into();
    let rows: Vec<&str> = rows.iter().map(|s| s.as_str()).collect();
    let mut s = Scen::new()
        .cav("red", "c1", "0610", "N", &[])
        .cav("red", "c2", "0410", "N", &[])
        .cav("red", "c3", "0811", "N", &[])
        .inf("blue", "b1", "1201", "S", &[])
        .hqs("red", &[hq("rhq", 8, "0611", true)])
        .rows(&rows)
        .map("hexsides = [{ between = [\"0408\", \"0409\"], kind = \"stream\" }]");
    if frozen {
        s = s.option("frozen", "on");
    }
    s.command()
}

#[test]
fn frozen_water_and_marsh_bear_every_arm_as_high_area_terrain() {
    // Not frozen: the river bars cavalry.
    let mut g = winter(false);
    play(&mut g, "order rhq c1", &[2, 2]);
    let m = refused(&mut g, "move c1 0609");
    assert!(m.contains("cannot move"), "{m}");
    // and marsh is for troops on foot.
    play(&mut g, "order rhq c3", &[2, 2]);
    let m = refused(&mut g, "move c3 0810");
    assert!(m.contains("cannot move"), "{m}");
    // Frozen: the river hex costs 20 cm of the cavalry's 30 and the open hex beyond 5 more;
    // the frozen marsh takes cavalry.
    let mut g = winter(true);
    play(&mut g, "order rhq c1", &[2, 2]);
    let m = refused(&mut g, "move c1 0606");
    assert!(m.contains("cannot move"), "{m}");
    play(&mut g, "move c1 0608", &[]);
    assert_eq!(g.units[k(&g, "c1")].hex, hex("0608"));
    play(&mut g, "order rhq c3", &[2, 2]);
    play(&mut g, "move c3 0810", &[]);
    assert_eq!(g.units[k(&g, "c3")].hex, hex("0810"));
}

#[test]
fn a_frozen_stream_is_crossed_anywhere_at_a_quarter_speed() {
    // Not frozen: the stream between 0409 and 0408 is crossed only from contact.
    let mut g = winter(false);
    play(&mut g, "order rhq c2", &[2, 2]);
    let m = refused(&mut g, "move c2 0408");
    assert!(m.contains("cannot move"), "{m}");
    // Frozen: 5 cm to the ice, 20 cm over it: 0408 lies in reach, 0406 does not. (The
    // river along row 9 is frozen as well.)
    let mut g = winter(true);
    play(&mut g, "order rhq c2", &[2, 2]);
    let m = refused(&mut g, "move c2 0406");
    assert!(m.contains("cannot move"), "{m}");
    play(&mut g, "move c2 0408", &[]);
    assert_eq!(g.units[k(&g, "c2")].hex, hex("0408"));
}
