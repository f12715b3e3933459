//! The optional rules and the More Ideas chapter: weather and night, prone movement, morale
//! grades, fixed formations, multi-national armies; and pikes.

use crate::common::*;
use rules_bpt_commander::state::Phase;
use rules_bpt_commander::table::Table;
use rules_bpt_commander::weather::Weather;
use volley_core::Side;

/// Ends phases until the game turn is over, giving `dice` to the end of the second player's
/// last phase (where the end of the game turn rolls).
fn finish_game_turn(g: &mut rules_bpt_commander::BptGame, dice: &[u32]) -> Vec<volley_core::Event> {
    let turn = g.turn;
    loop {
        let last = g.active == Side::Blue && g.phase == Phase::HqMoves;
        let e = play(g, "end", if last { dice } else { &[] });
        if g.turn != turn {
            return e;
        }
    }
}

#[test]
fn the_weather_is_rolled_before_the_battle_12_extreme_10_or_11_poor() {
    for (dice, weather) in [
        ([6, 6], Weather::Extreme),
        ([5, 5], Weather::Poor),
        ([6, 5], Weather::Poor),
        ([4, 5], Weather::Normal),
    ] {
        let g = duel(&[], &[]).option("weather", "roll").start_with(&dice);
        assert_eq!(g.weather, weather, "{dice:?}");
    }
    // Without the rule nothing is rolled.
    let g = duel(&[], &[]).start_with(&[]);
    assert_eq!(g.weather, Weather::Normal);
}

#[test]
fn poor_weather_costs_command_rolls_one_and_extreme_two() {
    let mut g = duel(&[], &[]).option("weather", "poor").command();
    let e = play(&mut g, "order rhq r1", &[3, 3]);
    assert!(log(&e).contains("-1 poor weather"), "{}", log(&e));
    assert!(log(&e).contains("needs 7 or less"), "{}", log(&e));
    let mut g = duel(&[], &[]).option("weather", "extreme").command();
    let e = play(&mut g, "order rhq r1", &[3, 3]);
    assert!(log(&e).contains("-2 extreme weather"), "{}", log(&e));
    assert!(log(&e).contains("needs 6 or less"), "{}", log(&e));
    let mut g = duel(&[], &[]).option("weather", "night").command();
    let e = play(&mut g, "order rhq r1", &[3, 3]);
    assert!(log(&e).contains("-1 night"), "{}", log(&e));
}

#[test]
fn sight_reaches_40_cm_in_poor_weather_and_10_in_extreme() {
    // r1 and b1 stand 15 cm apart.
    for (weather, sees) in [
        ("off", true),
        ("poor", true),
        ("night", true),
        ("extreme", false),
    ] {
        let g = duel(&[], &[]).option("weather", weather).load();
        let (r1, b1) = (k(&g, "r1"), k(&g, "b1"));
        assert_eq!(g.distance_cm(r1, b1), 15);
        assert_eq!(g.sees(r1, b1), sees, "{weather}");
    }
    let g = Scen::new()
        .inf("red", "r1", "0611", "N", &[])
        .inf("blue", "b1", "0602", "S", &[])
        .option("weather", "poor")
        .load();
    let (r1, b1) = (k(&g, "r1"), k(&g, "b1"));
    assert_eq!(g.distance_cm(r1, b1), 45);
    assert!(!g.sees(r1, b1));
}

#[test]
fn a_double_six_at_the_end_of_a_game_turn_worsens_the_weather_and_a_double_one_clears_it() {
    let mut g = duel(&[], &[]).option("weather", "normal").start_with(&[]);
    let e = finish_game_turn(&mut g, &[6, 6]);
    assert_eq!(g.weather, Weather::Poor, "{}", log(&e));
    assert!(
        log(&e).contains("normal weather becomes poor weather"),
        "{}",
        log(&e)
    );
    finish_game_turn(&mut g, &[6, 6]);
    assert_eq!(g.weather, Weather::Extreme);
    let e = finish_game_turn(&mut g, &[1, 1]);
    assert_eq!(g.weather, Weather::Poor);
    assert!(
        log(&e).contains("extreme weather becomes poor weather"),
        "{}",
        log(&e)
    );
    // Any other pair leaves it as it is.
    let mut g = duel(&[], &[]).option("weather", "extreme").start_with(&[]);
    let e = finish_game_turn(&mut g, &[3, 3]);
    assert_eq!(g.weather, Weather::Extreme);
    assert!(
        log(&e).contains("the weather holds (3, 3): extreme weather"),
        "{}",
        log(&e)
    );
    // Night never changes: nothing is rolled.
    let mut g = duel(&[], &[]).option("weather", "night").start_with(&[]);
    finish_game_turn(&mut g, &[]);
    assert_eq!(g.weather, Weather::Poor);
    assert!(g.phase_words().ends_with("· night"), "{}", g.phase_words());
}

fn suppressed(g: &mut rules_bpt_commander::BptGame, id: &str) {
    let u = k(g, id);
    g.units[u].suppressed = Some(rules_bpt_commander::troops::Suppression {
        placed: 0,
        by_attack: 99,
    });
}

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

fn work(hex: &str, kind: &str) -> String {
    format!("[[works]]\nhex = \"{hex}\"\nkind = \"{kind}\"")
}

#[test]
fn stakes_bar_horse_and_foot_cross_them_only_from_contact() {
    let s = || {
        duel(&[], &[])
            .cav("red", "c1", "0808", "N", &[])
            .raw(&work("0607", "stakes"))
            .raw(&work("0807", "stakes"))
    };
    let g = s().load();
    let reach = |g: &rules_bpt_commander::BptGame, id: &str| -> Vec<String> {
        g.reachable(k(g, id))
            .iter()
            .map(|(h, _)| volley_core::geometry::label(*h))
            .collect()
    };
    assert!(reach(&g, "r1").contains(&"0607".to_string()));
    assert!(!reach(&g, "c1").contains(&"0807".to_string()));
    // Foot reach the stakes only from contact: r1 two hexes off cannot step into them.
    let g = Scen::new()
        .inf("red", "r1", "0609", "N", &[])
        .inf("blue", "b1", "0603", "S", &[])
        .raw(&work("0607", "stakes"))
        .load();
    assert!(
        !reach(&g, "r1").contains(&"0607".to_string()),
        "{:?}",
        reach(&g, "r1")
    );
}

#[test]
fn works_cover_their_troops_and_a_trench_digs_them_in() {
    let mut g = duel(&[], &[])
        .raw(&work("0605", "breastworks"))
        .start_with(&[]);
    let e = play(&mut g, "fire r1 b1", &[5, 4, 1, 1, 1]);
    assert!(log(&e).contains("needing 5+"), "{}", log(&e));
    let mut g = duel(&[], &[])
        .raw(&work("0605", "fortified-works"))
        .start_with(&[]);
    let e = play(&mut g, "fire r1 b1", &[6, 5, 1, 1, 1]);
    assert!(log(&e).contains("needing 6+"), "{}", log(&e));
    let g = duel(&[], &[]).raw(&work("0605", "trench")).load();
    assert!(g.units[k(&g, "b1")].dug_in);
}

fn sappers() -> Scen {
    Scen::new()
        .inf("red", "e1", "0608", "N", &[("traits", "[\"engineer\"]")])
        .inf("blue", "b1", "0602", "S", &[])
}

#[test]
fn engineers_clear_an_obstacle_on_3_and_take_no_orders_after() {
    let mut g = sappers().raw(&work("0607", "stakes")).start_with(&[]);
    let e = play(&mut g, "clear e1 0607", &[2]);
    assert!(
        log(&e).contains("needs 3+, rolled 2): the work is not done"),
        "{}",
        log(&e)
    );
    assert!(g.work_at(hex("0607")).is_some());
    let mut g = sappers().raw(&work("0607", "wire")).start_with(&[]);
    let e = play(&mut g, "clear e1 0607", &[3]);
    assert!(log(&e).contains("the wire in 0607 is gone"), "{}", log(&e));
    assert!(g.work_at(hex("0607")).is_none());
    play(&mut g, "end", &[]);
    let m = refused(&mut g, "order rhq e1");
    assert!(m.contains("orders are over"), "{m}");
}

#[test]
fn engineers_demolish_works_or_a_wall_on_4() {
    let mut g = sappers().raw(&work("0607", "log-works")).start_with(&[]);
    play(&mut g, "demolish e1 0607", &[3]);
    assert!(g.work_at(hex("0607")).is_some());
    let mut g = sappers().raw(&work("0607", "log-works")).start_with(&[]);
    play(&mut g, "demolish e1 0607", &[4]);
    assert!(g.work_at(hex("0607")).is_none());
    let mut g = sappers()
        .map("hexsides = [{ between = [\"0608\", \"0607\"], kind = \"wall\" }]")
        .start_with(&[]);
    let (e1, b1) = (k(&g, "e1"), k(&g, "b1"));
    assert!(g.sight_of(e1, b1));
    assert!(
        g.setting.lines.kept() > 0,
        "the lines looked along are kept"
    );
    let e = play(&mut g, "demolish e1 0607", &[6]);
    // The lines kept were judged on the old map: a changed map starts them afresh.
    assert_eq!(g.setting.lines.kept(), 0);
    assert!(
        log(&e).contains("the wall between 0608 and 0607 is down"),
        "{}",
        log(&e)
    );
    assert_eq!(g.map().hexside(hex("0608"), hex("0607")), None);
}

#[test]
fn engineers_bridge_water_a_section_a_phase_and_dig_trenches() {
    let mut rows = vec![["."; 12].join(" "); 12];
    rows[6] = ". . . . . ~ . . . . . .".into();
    let rows: Vec<&str> = rows.iter().map(|s| s.as_str()).collect();
    let mut g = sappers().rows(&rows).start_with(&[]);
    assert!(refused(&mut g, "bridge e1 0606").contains("no water or ditch to bridge"));
    let e = play(&mut g, "bridge e1 0607", &[]);
    assert!(
        log(&e).contains("a bridge section spans 0607"),
        "{}",
        log(&e)
    );
    assert_eq!(
        g.map().terrain(hex("0607")),
        volley_core::map::Terrain::Bridge
    );
    let v = volley_core::Game::view(&g, None);
    let row = &v.map.rows[6];
    assert!(row.contains('='), "the map the players see shows it: {row}");
    let mut g = sappers().start_with(&[]);
    let e = play(&mut g, "sap e1", &[]);
    assert!(
        log(&e).contains("a trench is dug in 0608, and they are dug in"),
        "{}",
        log(&e)
    );
    assert!(g.units[k(&g, "e1")].dug_in);
}

#[test]
fn a_construction_lends_its_save_takes_round_shot_on_sixes_and_collapses_on_its_occupants() {
    let gun = [("dice", "3"), ("range", "60")];
    let s = || {
        Scen::new()
            .gun("red", "g1", "0610", "N", &gun)
            .inf("blue", "b1", "0605", "S", &[])
            .inf("blue", "b2", "0705", "S", &[])
            .raw(&work("0605", "breastworks"))
            .option("constructions", "on")
    };
    let mut g = s().start_with(&[]);
    // The order (2, 2), then 5 dice (3, +1 within half range, +1 the HQ's presence) at b1 in
    // breastworks (soft cover, 5+): two hits, no saves, two test dice that fail. Then the
    // breastworks: the same 5 attacks hitting on sixes, 3 hits of the 3 they take.
    let e = play(
        &mut g,
        "fire g1 b1",
        &[2, 2, 5, 5, 1, 1, 1, 1, 1, 6, 6, 6, 1, 1],
    );
    let text = log(&e);
    assert!(
        text.contains(
            "the breastworks in 0605: 5 attacks needing 6: rolled [6, 6, 6, 1, 1], 3 hits, 3 of 3"
        ),
        "{text}"
    );
    assert!(text.contains("the breastworks in 0605 collapses"), "{text}");
    assert!(g.units[k(&g, "b1")].ko);
    assert!(g.units[k(&g, "b2")].is_suppressed());
    assert!(g.work_at(hex("0605")).is_none());
    // Log works save on 5: infantry without a save of their own use it.
    let g = Scen::new()
        .inf("red", "r1", "0608", "N", &[])
        .inf("blue", "b1", "0605", "S", &[])
        .raw(&work("0605", "log-works"))
        .option("constructions", "on")
        .load();
    assert_eq!(g.saves(k(&g, "b1"), 2, false, true), Some((5, 3)));
}

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

#[test]
fn engineers_in_a_trench_mine_the_works_next_to_them_without_a_roll() {
    // Not from the open: mining starts from a sap.
    let mut g = sappers()
        .raw(&work("0607", "fortified-works"))
        .start_with(&[]);
    assert!(refused(&mut g, "mine e1 0607").contains("sap first"));
    // Sapped in: the 5 cm gallery is one phase's digging, and the works go up.
    let mut g = sappers()
        .raw(&work("0607", "fortified-works"))
        .raw(&work("0608", "trench"))
        .start_with(&[]);
    let e = play(&mut g, "mine e1 0607", &[]);
    assert!(
        log(&e).contains("e1 e1 mine: the fortified-works in 0607 is gone"),
        "{}",
        log(&e)
    );
    assert!(g.work_at(hex("0607")).is_none());
    // Wire is cleared, not mined.
    let mut g = sappers()
        .raw(&work("0607", "wire"))
        .raw(&work("0608", "trench"))
        .start_with(&[]);
    let m = refused(&mut g, "mine e1 0607");
    assert!(m.contains("no works to mine"), "{m}");
}
