//! MORE IDEAS: morale grades (optional), multi-national armies and fixed formations
//! (optional), the CO moving a unit between formations.

mod common;

use common::*;

#[test]
fn morale_grades_set_the_suppression_score_4_5_or_6() {
    // Two hits in the open (4 dice: 4, 3, 6, 1); the test dice then decide.
    for (grade, test, is) in [
        ("unmotivated", [4, 1], true),
        ("unmotivated", [3, 3], false),
        ("regular", [5, 1], true),
        ("regular", [4, 4], false),
        ("motivated", [5, 5], false),
        ("motivated", [1, 6], true),
    ] {
        let mut g = duel(&[], &[("morale", &format!("\"{grade}\""))])
            .option("morale", "grades")
            .start_with(&[]);
        let mut d = vec![4, 3, 6, 1];
        d.extend(test);
        let e = play(&mut g, "fire r1 b1", &d);
        assert_eq!(
            g.units[k(&g, "b1")].is_suppressed(),
            is,
            "{grade} {test:?}\n{}",
            log(&e)
        );
    }
    // Without the rule the test is at the to-hit score (4 in the open), whatever the grade.
    let mut g = duel(&[], &[("morale", "\"motivated\"")]).start_with(&[]);
    play(&mut g, "fire r1 b1", &[4, 3, 6, 1, 4, 1]);
    assert!(g.units[k(&g, "b1")].is_suppressed());
}

#[test]
fn morale_grades_knock_out_a_unit_falling_back_beyond_5_10_or_15_cm() {
    // Two hits on a suppressed unit: it falls back the sum of two dice.
    for (grade, fall, ko) in [
        ("unmotivated", [3, 3], true),
        ("unmotivated", [1, 4], false),
        ("regular", [5, 6], true),
        ("regular", [6, 4], false),
        ("motivated", [6, 6], false),
    ] {
        let mut g = duel(&[], &[("morale", &format!("\"{grade}\""))])
            .option("morale", "grades")
            .start_with(&[]);
        suppressed(&mut g, "b1");
        let mut d = vec![4, 4, 1, 1];
        d.extend(fall);
        let e = play(&mut g, "fire r1 b1", &d);
        assert_eq!(g.units[k(&g, "b1")].ko, ko, "{grade} {fall:?}\n{}", log(&e));
    }
    // A motivated unit falling back 12 cm goes two hexes, where the book's 20 cm would too.
    let mut g = duel(&[], &[("morale", "\"motivated\"")])
        .option("morale", "grades")
        .start_with(&[]);
    suppressed(&mut g, "b1");
    play(&mut g, "fire r1 b1", &[4, 4, 1, 1, 6, 6]);
    assert_eq!(g.units[k(&g, "b1")].hex, hex("0603"));
}

#[test]
fn with_grades_and_charge_the_grade_is_the_score_that_hits_in_a_charge() {
    let s = Scen::new()
        .inf("red", "r1", "0608", "N", &[("morale", "\"unmotivated\"")])
        .inf("blue", "b1", "0606", "S", &[("morale", "\"motivated\"")])
        .inf("blue", "b9", "1201", "S", &[])
        .hqs("blue", &[hq("bhq", 8, "1202", true)]);
    let mut g = s.option("morale", "grades-and-charge").command();
    play(&mut g, "order rhq r1 charge", &[2, 2]);
    play(&mut g, "charge r1 b1", &[]);
    // Red 9 dice on the motivated defender (6s), blue 8 on the unmotivated charger (4+).
    let mut d = vec![6, 5, 5, 5, 5, 5, 5, 5, 5];
    d.extend([4, 4, 1, 1, 1, 1, 1, 1]);
    let e = play(&mut g, "end", &d);
    let text = log(&e);
    assert!(
        text.contains("needing 6+: rolled [6, 5, 5, 5, 5, 5, 5, 5, 5], 1 hit"),
        "{text}"
    );
    assert!(
        text.contains("needing 4+: rolled [4, 4, 1, 1, 1, 1, 1, 1], 2 hits"),
        "{text}"
    );
}

#[test]
fn the_morale_option_reads_grades_from_the_scenario_and_refuses_unknown_ones() {
    let s = duel(&[], &[("morale", "\"fearless\"")]);
    let e = rules_bpt_commander::scenario::load(
        &volley_core::ScenarioSource::new("test.toml", s.text()),
        &s.options,
    )
    .map(|_| ())
    .expect_err("refused");
    assert!(
        e.message
            .contains("morale \"fearless\"? unmotivated, regular or motivated"),
        "{e}"
    );
}

fn allies() -> Scen {
    Scen::new()
        .inf("red", "r1", "0608", "N", &[("nation", "\"spanish\"")])
        .inf(
            "red",
            "r2",
            "0508",
            "N",
            &[
                ("nation", "\"portuguese\""),
                ("trained_by", "[\"british\"]"),
            ],
        )
        .inf("red", "r3", "0708", "N", &[("nation", "\"british\"")])
        .inf("blue", "b1", "0603", "S", &[])
        .hqs(
            "red",
            &[
                hq("rhq", 8, "0610", true),
                "{ id = \"wel\", name = \"wel\", value = 7, hex = \"0510\", nation = \"british\" }"
                    .to_string(),
            ],
        )
}

#[test]
fn a_multi_national_army_takes_orders_from_the_co_and_its_own_nations_command_units() {
    let mut g = allies().command();
    let m = refused(&mut g, "order wel r1");
    assert!(
        m.contains("(spanish) takes orders only from the commanding officer and spanish command units, not from wel wel (british)"),
        "{m}"
    );
    // Portuguese trained by the British, and the British themselves: yes.
    play(&mut g, "order wel r2", &[2, 2]);
    assert_eq!(g.units[k(&g, "r2")].actions, 1);
    play(&mut g, "order wel r3", &[2, 3]);
    assert_eq!(g.units[k(&g, "r3")].actions, 1);
    // The commanding officer orders anyone.
    play(&mut g, "order rhq r1", &[2, 2]);
    assert_eq!(g.units[k(&g, "r1")].actions, 1);
}

#[test]
fn with_fixed_formations_a_unit_takes_orders_from_its_own_command_unit_only() {
    let s = Scen::new()
        .inf("red", "r1", "0608", "N", &[("hq", "\"rhq2\"")])
        .inf("red", "r2", "0508", "N", &[])
        .inf("blue", "b1", "0603", "S", &[])
        .hqs(
            "red",
            &[hq("rhq", 8, "0610", true), hq("rhq2", 7, "0510", false)],
        );
    let mut g = s.option("fixed_formations", "on").command();
    let m = refused(&mut g, "order rhq r1");
    assert!(
        m.contains("belongs to rhq2 rhq2's formation and takes orders from it only"),
        "{m}"
    );
    play(&mut g, "order rhq2 r1", &[2, 2]);
    assert_eq!(g.units[k(&g, "r1")].actions, 1);
    // A unit of no formation takes orders from any command unit.
    play(&mut g, "order rhq r2", &[2, 2]);
    // Without the rule the formation is only a note.
    let s = Scen::new()
        .inf("red", "r1", "0608", "N", &[("hq", "\"rhq2\"")])
        .inf("blue", "b1", "0603", "S", &[])
        .hqs(
            "red",
            &[hq("rhq", 8, "0610", true), hq("rhq2", 7, "0510", false)],
        );
    let mut g = s.command();
    play(&mut g, "order rhq r1", &[2, 2]);
    assert_eq!(g.units[k(&g, "r1")].actions, 1);
}

#[test]
fn the_co_moves_a_unit_of_its_formation_to_another_command_units_within_10_cm_of_it() {
    let s = || {
        Scen::new()
            .inf("red", "r1", "0608", "N", &[("hq", "\"rhq\"")])
            .inf("blue", "b1", "0603", "S", &[])
            .hqs(
                "red",
                &[hq("rhq", 8, "0610", true), hq("rhq2", 7, "0210", false)],
            )
            .option("fixed_formations", "on")
    };
    let mut g = s().command();
    // 20 cm from the CO to rhq2: -2, so 6 or less.
    let e = play(&mut g, "transfer r1 rhq2", &[2, 3]);
    assert!(log(&e).contains("needs 6 or less"), "{}", log(&e));
    assert!(
        log(&e).contains("-2 20 cm from the CO to rhq2"),
        "{}",
        log(&e)
    );
    let (r1, h2) = (k(&g, "r1"), k(&g, "rhq2"));
    assert_eq!(g.units[r1].formation_hq, Some(h2 as u16));
    assert!(volley_core::geometry::distance(g.units[r1].hex, g.units[h2].hex) <= 2);
    // No further orders to it this turn.
    let m = refused(&mut g, "order rhq2 r1");
    assert!(m.contains("orders are over for this turn"), "{m}");
    // A failure is the CO's: the side's orders are over.
    let mut g = s().command();
    let e = play(&mut g, "transfer r1 rhq2", &[4, 3]);
    assert!(
        log(&e).contains("failed: the CO's orders are over this turn"),
        "{}",
        log(&e)
    );
    let m = refused(&mut g, "order rhq2 r1");
    assert!(m.contains("the CO failed"), "{m}");
    // Without the rule there are no formations to move units between.
    let mut g = duel(&[], &[]).command();
    let m = refused(&mut g, "transfer r1 rhq");
    assert!(m.contains("fixed formations rule is not in play"), "{m}");
}
