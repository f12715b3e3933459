//! The army lists' special rules that become unit traits: pikes (18th century), note 22's
//! extra die, note 21's attack-column charge, the Gatling gun, light infantry's move.

mod common;

use common::*;

#[test]
fn cavalry_may_not_charge_pikes_from_the_front_but_may_from_the_flank() {
    let s = |facing: &str| {
        Scen::new()
            .cav("red", "c1", "0608", "N", &[])
            .inf("blue", "p1", "0606", facing, &[("traits", "[\"pikes\"]")])
            .inf("blue", "b9", "1201", "S", &[])
            .hqs("blue", &[hq("bhq", 8, "1202", true)])
    };
    let mut g = s("S").command();
    play(&mut g, "order rhq c1 charge", &[2, 2]);
    let m = refused(&mut g, "charge c1 p1");
    assert!(m.contains("may not charge the pikes of"), "{m}");
    // Facing away: the charge comes in on the rear.
    let mut g = s("N").command();
    play(&mut g, "order rhq c1 charge", &[2, 2]);
    play(&mut g, "charge c1 p1", &[]);
    assert!(g.charge.is_some());
}

#[test]
fn pikes_fight_foot_from_a_level_of_cover_better() {
    let s = Scen::new()
        .inf("red", "r1", "0608", "N", &[])
        .inf("blue", "p1", "0606", "S", &[("traits", "[\"pikes\"]")])
        .inf("blue", "b9", "1201", "S", &[])
        .hqs("blue", &[hq("bhq", 8, "1202", true)]);
    let mut g = s.command();
    play(&mut g, "order rhq r1 charge", &[2, 2]);
    play(&mut g, "charge r1 p1", &[]);
    // In the open the defender is hit on 4+; pikes make it soft cover, 5+: a 4 misses.
    let mut d = vec![5, 4, 4, 1, 1, 1, 1, 1, 1];
    d.extend([1; 8]);
    let e = play(&mut g, "end", &d);
    assert!(
        log(&e).contains(
            "defender in soft cover) needing 5+: rolled [5, 4, 4, 1, 1, 1, 1, 1, 1], 1 hit"
        ),
        "{}",
        log(&e)
    );
}

#[test]
fn note_22_units_roll_an_extra_die_in_fire_and_in_a_charge() {
    let mut g = duel(&[("traits", "[\"extra_die\"]")], &[]).start_with(&[]);
    let e = play(&mut g, "fire r1 b1", &[1, 1, 1, 1, 1]);
    assert!(
        log(&e).contains("+1 an extra die (list note)"),
        "{}",
        log(&e)
    );
    assert!(log(&e).contains("5 dice"), "{}", log(&e));
}

#[test]
fn note_21_units_charge_only_in_attack_column() {
    let s = |formation: &str| {
        Scen::new()
            .inf(
                "red",
                "r1",
                "0608",
                "N",
                &[
                    ("traits", "[\"attack_column_charge\"]"),
                    ("formation", formation),
                ],
            )
            .inf("blue", "b1", "0606", "S", &[])
            .inf("blue", "b9", "1201", "S", &[])
            .hqs("blue", &[hq("bhq", 8, "1202", true)])
    };
    let mut g = s("\"line\"").command();
    play(&mut g, "order rhq r1 charge", &[2, 2]);
    let m = refused(&mut g, "charge r1 b1");
    assert!(m.contains("charges only in attack column"), "{m}");
    let mut g = s("\"attack\"").command();
    play(&mut g, "order rhq r1 charge", &[2, 2]);
    play(&mut g, "charge r1 b1", &[]);
    assert!(g.charge.is_some());
}

#[test]
fn a_gatling_gun_jams_on_any_double_and_is_knocked_out() {
    let gun = [
        ("traits", "[\"gatling\"]"),
        ("dice", "2"),
        ("range", "10"),
        ("stands", "1"),
    ];
    let s = || {
        Scen::new()
            .gun("red", "g1", "0608", "N", &gun)
            .inf("blue", "b1", "0606", "S", &[])
    };
    let mut g = s().start_with(&[]);
    // 2 dice at 10 cm: 5 and 5 is a double.
    let e = play(&mut g, "fire g1 b1", &[5, 5]);
    assert!(
        log(&e).contains("show a double ([5, 5]): it jams"),
        "{}",
        log(&e)
    );
    assert!(g.units[k(&g, "g1")].ko);
    assert_eq!(g.units[k(&g, "b1")].turn_hits, 0);
    // No double: it fires as any gun.
    let mut g = s().start_with(&[]);
    play(&mut g, "fire g1 b1", &[5, 6, 1, 1]);
    assert!(!g.units[k(&g, "g1")].ko);
    assert_eq!(g.units[k(&g, "b1")].turn_hits, 2);
}

#[test]
fn light_infantry_move_12_cm_on_their_own() {
    let g = duel(&[("traits", "[\"light\"]"), ("move", "10")], &[]).load();
    assert_eq!(g.allowance_cm(k(&g, "r1")), 12);
    let g = duel(&[("move", "10")], &[]).load();
    assert_eq!(g.allowance_cm(k(&g, "r1")), 10);
}
