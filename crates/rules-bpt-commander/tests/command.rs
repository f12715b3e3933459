//! Command Phase, Command Modifiers, Actions, Command Bonus, Command Blunder, Command
//! Movement, Command Presence, Command Units, Commanding Officer, Initiative Phase.

mod common;

use common::*;
use rules_bpt_commander::state::Phase;
use rules_bpt_commander::troops::{Formation, Suppression};
use volley_core::geometry::{distance, Facing};
use volley_core::{Game, Side};

fn two_hqs() -> Scen {
    duel(&[], &[]).inf("red", "r2", "0708", "N", &[]).hqs(
        "red",
        &[hq("rhq", 8, "0610", true), hq("rhq2", 7, "0710", false)],
    )
}

#[test]
fn command_roll_at_or_under_the_value_issues_the_order() {
    let mut g = duel(&[], &[]).command();
    let e = play(&mut g, "order rhq r1", &[4, 4]);
    assert!(log(&e).contains("needs 8 or less"), "{}", log(&e));
    assert!(log(&e).contains("the order is issued"));
    assert_eq!(g.units[k(&g, "r1")].actions, 1);
}

#[test]
fn command_roll_fails_and_ends_that_hqs_orders() {
    let mut g = two_hqs().command();
    let e = play(&mut g, "order rhq2 r2", &[5, 3]);
    assert!(log(&e).contains("failed"), "{}", log(&e));
    assert_eq!(g.units[k(&g, "r2")].actions, 0);
    {
        let m = refused(&mut g, "order rhq2 r1");
        assert!(m.contains("finished its orders"), "{m}");
    }
    // The CO still orders.
    play(&mut g, "order rhq r1", &[4, 4]);
    assert_eq!(g.units[k(&g, "r1")].actions, 1);
}

#[test]
fn co_failure_ends_every_hqs_orders() {
    let mut g = two_hqs().command();
    play(&mut g, "order rhq r1", &[5, 4]);
    assert!(g.co_failed);
    {
        let m = refused(&mut g, "order rhq2 r2");
        assert!(m.contains("the CO failed"), "{m}");
    }
}

#[test]
fn co_ordering_a_unit_an_hq_failed_to_order_is_at_minus_one() {
    let mut g = two_hqs().command();
    play(&mut g, "order rhq2 r2", &[6, 2]);
    let e = play(&mut g, "order rhq r2", &[3, 3]);
    assert!(log(&e).contains("needs 7 or less"), "{}", log(&e));
    assert!(log(&e).contains("the CO ordering units an HQ failed to order"));
}

#[test]
fn double_one_gives_two_actions() {
    let mut g = duel(&[], &[])
        .hqs("red", &[hq("rhq", 2, "0610", true)])
        .command();
    let e = play(&mut g, "order rhq r1", &[1, 1]);
    assert!(log(&e).contains("double one"), "{}", log(&e));
    let r1 = k(&g, "r1");
    assert_eq!(g.units[r1].actions, 2);
    play(&mut g, "wheel r1 left", &[]);
    // b1 sees the wheel: it may take opportunity fire; it passes.
    play(&mut g, "end", &[]);
    play(&mut g, "about-face r1", &[]);
    assert_eq!(g.units[r1].facing, Facing::SE);
    assert_eq!(g.units[r1].actions, 0);
}

#[test]
fn double_six_is_a_blunder_whatever_the_value() {
    let mut g = duel(&[], &[])
        .hqs("red", &[hq("rhq", 12, "0809", true)])
        .command();
    let before = distance(hex("0809"), hex("0605"));
    // Blunder 3, re-locate: the command unit goes half its 30 cm move (3 hexes) straight
    // away from the nearest visible enemy.
    let e = play(&mut g, "order rhq r1", &[6, 6, 3]);
    assert!(log(&e).contains("double six, a blunder"), "{}", log(&e));
    assert!(log(&e).contains("blunder roll 3"));
    assert_eq!(g.units[k(&g, "r1")].actions, 0);
    assert_eq!(distance(g.units[k(&g, "rhq")].hex, hex("0605")), before + 3);
    assert!(g.co_failed);
}

#[test]
fn blunder_1_puts_friendly_fire_on_the_hq_hitting_on_6() {
    let mut g = duel(&[], &[]).command();
    // d6 = 2 attacks, both 6: 2 hits; the command unit saves on 6 with a die a hit, then
    // tests for suppression on 6.
    play(&mut g, "order rhq r1", &[6, 6, 1, 2, 6, 6, 1, 2, 3, 4]);
    let h = &g.units[k(&g, "rhq")];
    assert_eq!(h.turn_hits, 2);
    assert!(!h.is_suppressed());
}

#[test]
fn blunder_2_cross_fire_gives_the_nearest_units_three_flank_attacks() {
    let mut g = duel(&[], &[]).command();
    play(&mut g, "order rhq r1", &[6, 6, 2, 6, 6, 1, 3, 2]);
    let r1 = &g.units[k(&g, "r1")];
    assert_eq!(r1.turn_hits, 2);
    assert!(!r1.is_suppressed());
}

#[test]
fn blunder_4_pulls_back_units_in_the_open() {
    let mut g = duel(&[], &[]).command();
    play(&mut g, "order rhq r1", &[6, 6, 4]);
    let r1 = &g.units[k(&g, "r1")];
    assert_eq!(r1.hex, hex("0609"));
    assert_eq!(r1.facing, Facing::N);
}

#[test]
fn blunder_5_ordered_units_open_fire_at_the_nearest_enemy() {
    let mut g = duel(&[], &[]).command();
    let e = play(&mut g, "order rhq r1", &[6, 6, 5, 4, 1, 1, 1, 2]);
    assert!(log(&e).contains("open fire:"));
    let b1 = &g.units[k(&g, "b1")];
    assert_eq!(b1.turn_hits, 1);
    assert!(!b1.is_suppressed());
}

#[test]
fn blunder_6_ordered_units_in_the_open_advance_half_a_move() {
    let mut g = duel(&[], &[]).command();
    play(&mut g, "order rhq r1", &[6, 6, 6]);
    assert_eq!(g.units[k(&g, "r1")].hex, hex("0607"));
}

#[test]
fn blunder_moves_leave_units_in_area_terrain_alone() {
    let mut rows = vec![["."; 12].join(" "); 12];
    rows[7] = ". . . . . W . . . . . .".into();
    let rows: Vec<&str> = rows.iter().map(|s| s.as_str()).collect();
    let mut g = Scen::new()
        .rows(&rows)
        .inf("red", "r1", "0608", "N", &[])
        .inf("blue", "b1", "0607", "S", &[])
        .command();
    play(&mut g, "order rhq r1", &[6, 6, 4]);
    assert_eq!(g.units[k(&g, "r1")].hex, hex("0608"));
}

#[test]
fn successive_orders_cost_one_each() {
    let mut g = duel(&[], &[]).command();
    play(&mut g, "order rhq r1", &[3, 3]);
    let e = play(&mut g, "order rhq r1", &[3, 3]);
    assert!(log(&e).contains("needs 7 or less"), "{}", log(&e));
    let e = play(&mut g, "order rhq r1", &[3, 3]);
    assert!(log(&e).contains("needs 6 or less"), "{}", log(&e));
}

#[test]
fn a_unit_that_used_initiative_starts_its_orders_at_minus_one() {
    let mut g = duel(&[], &[]).start_with(&[]);
    assert_eq!(g.phase, Phase::Initiative);
    play(&mut g, "fire r1 b1", &[1, 1, 1, 1]);
    play(&mut g, "end", &[]);
    let e = play(&mut g, "order rhq r1", &[3, 3]);
    assert!(log(&e).contains("needs 7 or less"), "{}", log(&e));
}

#[test]
fn distance_penalty_minus_one_from_21_to_40_cm() {
    let mut g = Scen::new()
        .inf("red", "r1", "0112", "N", &[])
        .inf("blue", "b1", "1201", "S", &[])
        .command();
    let (h, r1) = (k(&g, "rhq"), k(&g, "r1"));
    for (cm, want) in [(5, 8), (20, 8), (25, 7), (40, 7), (45, 6), (60, 6), (65, 5)] {
        let at = (1..=12)
            .flat_map(|c| (1..=12).map(move |r| volley_core::geometry::hex_at(c, r)))
            .find(|&x| distance(x, g.units[r1].hex) * 5 == cm)
            .expect("a hex at that distance");
        g.relocate(h, at);
        assert_eq!(
            g.command_value(h, &[r1], false, false).value,
            want,
            "{cm} cm"
        );
    }
}

#[test]
fn distance_penalty_in_the_log() {
    let mut g = duel(&[], &[])
        .hqs("red", &[hq("rhq", 8, "0612", true)])
        .inf("red", "r2", "0607", "N", &[])
        .command();
    // r2 is 25 cm from the command unit: the farthest unit of the order decides.
    play(&mut g, "join r2", &[]);
    let e = play(&mut g, "order rhq r1", &[3, 3]);
    assert!(log(&e).contains("needs 7 or less"), "{}", log(&e));
    assert!(log(&e).contains("farthest unit 25 cm away"));
    assert_eq!(g.units[k(&g, "r2")].actions, 1);
}

#[test]
fn charging_an_enemy_within_10_cm_costs_one_and_must_be_declared() {
    let mut g = Scen::new()
        .inf("red", "r1", "0608", "N", &[])
        .inf("blue", "b1", "0606", "S", &[])
        .command();
    play(&mut g, "order rhq r1", &[2, 2]);
    {
        let m = refused(&mut g, "charge r1 b1");
        assert!(m.contains("needs the charge modifier"), "{m}");
    }
    let e = play(&mut g, "order rhq r1 charge", &[2, 2]);
    assert!(log(&e).contains("needs 6 or less"), "{}", log(&e));
    assert!(log(&e).contains("charging a visible enemy within 10 cm"));
}

#[test]
fn charge_modifier_distance_option_20_cm() {
    let mut g = duel(&[], &[]).option("charge_penalty", "20").command();
    let e = play(&mut g, "order rhq r1 charge", &[2, 2]);
    assert!(log(&e).contains("within 20 cm"), "{}", log(&e));
}

#[test]
fn dense_terrain_costs_one_and_must_be_declared() {
    let mut rows = vec![["."; 12].join(" "); 12];
    rows[6] = ". . . . . m . . . . . .".into();
    let rows: Vec<&str> = rows.iter().map(|s| s.as_str()).collect();
    let mut g = duel(&[], &[]).rows(&rows).command();
    play(&mut g, "order rhq r1", &[2, 2]);
    {
        let m = refused(&mut g, "move r1 0607");
        assert!(m.contains("dense"), "{m}");
    }
    let e = play(&mut g, "order rhq r1 dense", &[2, 2]);
    assert!(log(&e).contains("dense terrain"), "{}", log(&e));
    assert!(log(&e).contains("needs 6 or less"), "{}", log(&e));
    play(&mut g, "move r1 0607", &[]);
    assert_eq!(g.units[k(&g, "r1")].hex, hex("0607"));
}

#[test]
fn opportunity_fire_costs_initiative_next_turn() {
    let mut g = duel(&[], &[]).command();
    play(&mut g, "order rhq r1", &[2, 1]);
    play(&mut g, "move r1 0607", &[]);
    assert_eq!(g.decider(), Some(Side::Blue));
    // 10 cm: within half range, 5 dice.
    play(&mut g, "fire b1 r1", &[1, 1, 1, 1, 1]);
    assert_eq!(g.decider(), Some(Side::Red));
    play(&mut g, "end", &[]);
    assert_eq!(g.phase, Phase::HqMoves);
    play(&mut g, "end", &[]);
    // Blue's turn: b1 took opportunity fire, so no initiative (and no one else has any).
    assert_eq!(g.active, Side::Blue);
    assert_eq!(g.phase, Phase::Command);
    let e = play(&mut g, "order bhq b1", &[3, 3]);
    assert!(
        log(&e).contains("opportunity fire last turn"),
        "{}",
        log(&e)
    );
    assert!(log(&e).contains("needs 7 or less"));
}

#[test]
fn march_column_gets_plus_one_when_hq_touches() {
    let mut g = duel(&[("formation", "\"march\"")], &[])
        .hqs("red", &[hq("rhq", 8, "0609", true)])
        .command();
    let e = play(&mut g, "order rhq r1", &[4, 5]);
    assert!(log(&e).contains("needs 9 or less"), "{}", log(&e));
    assert!(log(&e).contains("the order is issued"));
    // Two hexes off, no bonus.
    let mut g = duel(&[("formation", "\"march\"")], &[]).command();
    let e = play(&mut g, "order rhq r1", &[4, 5]);
    assert!(log(&e).contains("needs 8 or less"), "{}", log(&e));
}

#[test]
fn a_unit_takes_orders_from_one_hq_a_turn() {
    let mut g = two_hqs().command();
    play(&mut g, "order rhq2 r1", &[2, 2]);
    {
        let m = refused(&mut g, "order rhq r1");
        assert!(m.contains("takes orders from"), "{m}");
    }
}

#[test]
fn orders_to_a_unit_are_consecutive() {
    let mut g = two_hqs().command();
    play(&mut g, "order rhq r1", &[2, 2]);
    play(&mut g, "order rhq r2", &[2, 2]);
    {
        let m = refused(&mut g, "order rhq r1");
        assert!(m.contains("orders are over"), "{m}");
    }
}

#[test]
fn an_action_without_an_order_is_its_own_order() {
    let mut g = duel(&[], &[]).command();
    // The command roll (2+2) comes first, then the move.
    let e = play(&mut g, "move r1 0607", &[2, 2]);
    assert!(log(&e).contains("needs 8 or less"), "{}", log(&e));
    assert_eq!(g.units[k(&g, "r1")].hex, hex("0607"));
}

#[test]
fn suppressed_hq_gives_no_orders_and_suppressed_units_take_none() {
    let mut g = two_hqs().command();
    let h = k(&g, "rhq2");
    g.units[h].suppressed = Some(Suppression {
        placed: 0,
        by_attack: 99,
    });
    {
        let m = refused(&mut g, "order rhq2 r2");
        assert!(m.contains("suppressed"), "{m}");
    }
    let r1 = k(&g, "r1");
    g.units[r1].suppressed = Some(Suppression {
        placed: 0,
        by_attack: 99,
    });
    {
        let m = refused(&mut g, "order rhq r1");
        assert!(m.contains("suppressed"), "{m}");
    }
}

#[test]
fn command_units_move_once_after_the_orders() {
    let mut g = duel(&[], &[]).command();
    play(&mut g, "end", &[]);
    assert_eq!(g.phase, Phase::HqMoves);
    {
        let m = refused(&mut g, "move r1 0607");
        assert!(m.contains("only command units move"), "{m}");
    }
    // 30 cm: six hexes, in any direction.
    play(&mut g, "move rhq 1210", &[]);
    assert_eq!(g.units[k(&g, "rhq")].hex, hex("1210"));
    // It was the only one: blue's turn follows.
    assert_eq!(g.active, Side::Blue);
}

#[test]
fn command_movement_goes_on_while_another_command_unit_may_still_move() {
    let mut g = duel(&[], &[])
        .hqs(
            "red",
            &[hq("rhq", 8, "0610", true), hq("rhq2", 7, "0608", false)],
        )
        .command();
    play(&mut g, "end", &[]);
    assert_eq!(g.phase, Phase::HqMoves);
    play(&mut g, "move rhq 1210", &[]);
    // The second command unit has not moved: the phase waits for it.
    assert_eq!(g.phase, Phase::HqMoves);
    assert_eq!(g.active, Side::Red);
    {
        let m = refused(&mut g, "move rhq 1211");
        assert!(m.contains("may not move now"), "{m}");
    }
    play(&mut g, "move rhq2 0609", &[]);
    assert_eq!(g.units[k(&g, "rhq2")].hex, hex("0609"));
    // None is left to move: blue's turn follows by itself.
    assert_eq!(g.active, Side::Blue);
}

#[test]
fn command_presence_adds_the_hq_attack_dice() {
    let mut g = duel(&[], &[])
        .hqs("red", &[hq("rhq", 8, "0608", true)])
        .command();
    play(&mut g, "order rhq r1", &[2, 2]);
    let e = play(&mut g, "fire r1 b1", &[6, 1, 1, 1, 1, 1]);
    assert!(log(&e).contains("+1 command presence"), "{}", log(&e));
    assert_eq!(g.units[k(&g, "b1")].turn_hits, 1);
}

#[test]
fn a_joined_hq_shares_suppression_and_knock_out() {
    let mut g = duel(&[], &[])
        .hqs("red", &[hq("rhq", 8, "0608", true)])
        .start_with(&[]);
    play(&mut g, "end", &[]);
    play(&mut g, "end", &[]);
    play(&mut g, "end", &[]);
    assert_eq!(g.active, Side::Blue);
    // Blue's initiative: 4 dice at r1, one hit, the test suppresses.
    play(&mut g, "fire b1 r1", &[4, 1, 1, 1, 5]);
    assert!(g.units[k(&g, "r1")].is_suppressed());
    assert!(g.units[k(&g, "rhq")].is_suppressed());
    // Knocked out, it takes the command unit with it.
    let r1 = k(&g, "r1");
    let mut quiet = volley_core::Log::silent();
    g.knock_out(r1, "test", &mut quiet);
    assert!(g.units[k(&g, "rhq")].ko);
}

#[test]
fn a_lone_hq_contacted_by_an_enemy_is_overrun() {
    // Blue's command unit stands alone next to where r1 moves; no blue unit within half
    // its move (15 cm): knocked out.
    let mut g = Scen::new()
        .inf("red", "r1", "0608", "N", &[])
        .inf("blue", "b1", "0201", "S", &[])
        .hqs("blue", &[hq("bhq", 8, "0605", true)])
        .command();
    play(&mut g, "order rhq r1", &[2, 2]);
    play(&mut g, "move r1 0606", &[]);
    assert!(g.units[k(&g, "bhq")].ko);
}

#[test]
fn a_knocked_out_hq_is_replaced_next_turn_one_worse() {
    let mut g = two_hqs().command();
    let h = k(&g, "rhq2");
    let mut quiet = volley_core::Log::silent();
    g.knock_out(h, "test", &mut quiet);
    play(&mut g, "end", &[]);
    play(&mut g, "end", &[]);
    assert_eq!(g.active, Side::Blue);
    while g.active == Side::Blue {
        play(&mut g, "end", &[]);
    }
    if g.phase == Phase::Initiative {
        play(&mut g, "end", &[]);
    }
    let u = &g.units[h];
    assert!(!u.ko && u.replaced && u.fresh);
    assert_eq!(u.command, 6);
    {
        let m = refused(&mut g, "order rhq2 r2");
        assert!(m.contains("placed this turn"), "{m}");
    }
}

#[test]
fn an_isolated_unit_orders_itself_towards_its_command_every_second_turn() {
    let mut g = Scen::new()
        .inf("red", "r1", "0601", "S", &[])
        .inf("red", "r2", "0612", "N", &[])
        .inf("blue", "b1", "1212", "N", &[])
        .hqs("red", &[hq("rhq", 8, "0611", true)])
        .hqs("blue", &[hq("bhq", 8, "1211", true)])
        .command();
    {
        let m = refused(&mut g, "self-order r2");
        assert!(m.contains("not out of contact"), "{m}");
    }
    play(&mut g, "self-order r1", &[]);
    {
        let m = refused(&mut g, "about-face r1");
        assert!(m.contains("only moves it towards"), "{m}");
    }
    play(&mut g, "move r1 0603", &[]);
    assert_eq!(g.units[k(&g, "r1")].hex, hex("0603"));
}

#[test]
fn initiative_needs_a_visible_enemy_within_20_cm() {
    // 25 cm apart: no initiative, straight to the command phase.
    let g = Scen::new()
        .inf("red", "r1", "0609", "N", &[])
        .inf("blue", "b1", "0604", "S", &[])
        .start_with(&[]);
    assert_eq!(g.phase, Phase::Command);
    // 20 cm: initiative.
    let g = Scen::new()
        .inf("red", "r1", "0609", "N", &[])
        .inf("blue", "b1", "0605", "S", &[])
        .start_with(&[]);
    assert_eq!(g.phase, Phase::Initiative);
}

#[test]
fn initiative_fire_goes_at_the_nearest_visible_enemy_only() {
    let mut g = duel(&[], &[])
        .inf("blue", "b2", "0604", "S", &[])
        .inf("blue", "b3", "0708", "SW", &[])
        .start_with(&[]);
    // b3 (5 cm) is nearer than b1 (15 cm).
    {
        let m = refused(&mut g, "fire r1 b1");
        assert!(m.contains("nearest"), "{m}");
    }
    play(&mut g, "fire r1 b3", &[1, 1, 1, 1, 1]);
    // One action each on initiative.
    {
        let m = refused(&mut g, "fire r1 b3");
        assert!(m.contains("used its initiative"), "{m}");
    }
}

#[test]
fn initiative_fire_distance_option_10_cm() {
    let mut g = duel(&[], &[])
        .option("initiative_fire", "10")
        .start_with(&[]);
    {
        let m = refused(&mut g, "fire r1 b1");
        assert!(m.contains("within 10 cm"), "{m}");
    }
}

#[test]
fn initiative_evade_goes_a_full_move_straight_away() {
    let mut g = duel(&[], &[]).start_with(&[]);
    play(&mut g, "evade r1", &[]);
    assert_eq!(g.units[k(&g, "r1")].hex, hex("0610"));
}

#[test]
fn suppressed_units_and_hqs_have_no_initiative() {
    let mut g = duel(&[], &[]).load();
    let r1 = k(&g, "r1");
    g.units[r1].suppressed = Some(Suppression {
        placed: 0,
        by_attack: 99,
    });
    let mut d = volley_core::ScriptedDice::new([]);
    g.start(&mut d);
    assert_eq!(g.phase, Phase::Command);
}

#[test]
fn deploy_follows_the_deployment_table() {
    let mut g = duel(&[], &[]).command();
    play(&mut g, "order rhq r1", &[1, 2]);
    {
        let m = refused(&mut g, "form r1 attack");
        assert!(m.contains("attack column"), "{m}");
    }
    play(&mut g, "form r1 march", &[]);
    assert_eq!(g.units[k(&g, "r1")].formation, Formation::MarchColumn);
}

#[test]
fn a_move_all_along_a_road_is_free_of_the_distance_modifier() {
    // r1 in march column on a road, 30 cm from its command unit: -1 for distance, except
    // when the move it is ordered to make goes all along the road.
    let road: Vec<String> = (1..=12).rev().map(|r| format!("\"06{r:02}\"")).collect();
    let scen = Scen::new()
        .inf("red", "r1", "0610", "N", &[("formation", "\"march\"")])
        .inf("blue", "b1", "1201", "S", &[])
        .hqs("red", &[hq("rhq", 8, "0604", true)])
        .map(&format!("roads = [[{}]]", road.join(", ")));
    let mut g = scen.command();
    let e = play(&mut g, "move r1 0608", &[4, 4]);
    assert!(log(&e).contains("needs 8 or less"), "{}", log(&e));
    assert_eq!(g.units[k(&g, "r1")].hex, hex("0608"));
    // Off the road, the same distance costs its -1.
    let mut g = scen.command();
    let e = play(&mut g, "move r1 0709", &[4, 4]);
    assert!(log(&e).contains("needs 7 or less"), "{}", log(&e));
    assert!(log(&e).contains("farthest unit 30 cm away"), "{}", log(&e));
}

#[test]
fn an_action_without_an_order_goes_to_a_brigade_hq_before_the_co() {
    // rhq2 (7) orders r2 rather than the CO (8), whose failure would end every order.
    let mut g = two_hqs().command();
    let e = play(&mut g, "move r2 0707", &[3, 3]);
    assert!(log(&e).contains("rhq2 rhq2 orders r2"), "{}", log(&e));
    assert!(log(&e).contains("needs 7 or less"), "{}", log(&e));
    assert_eq!(g.units[k(&g, "r2")].hex, hex("0707"));
    assert!(!g.co_failed);
}

#[test]
fn an_action_without_an_order_goes_to_the_co_when_it_is_far_the_better() {
    // rhq2's 4 is more than CO_RESERVE (3) below the CO's 8.
    let mut g = duel(&[], &[])
        .inf("red", "r2", "0708", "N", &[])
        .hqs(
            "red",
            &[hq("rhq", 8, "0610", true), hq("rhq2", 4, "0710", false)],
        )
        .command();
    let e = play(&mut g, "move r2 0707", &[3, 3]);
    assert!(log(&e).contains("rhq rhq orders r2"), "{}", log(&e));
    assert!(log(&e).contains("needs 8 or less"), "{}", log(&e));
}

#[test]
fn a_command_unit_ringed_by_the_enemy_cannot_move_and_the_phase_passes_it_by() {
    // rhq2 at 0303 with a blue unit in each of its six neighbouring hexes.
    let ring: Vec<String> = volley_core::geometry::Facing::ALL
        .into_iter()
        .map(|f| volley_core::geometry::label(volley_core::geometry::step(hex("0303"), f)))
        .collect();
    let mut s = duel(&[], &[]).hqs(
        "red",
        &[hq("rhq", 8, "0610", true), hq("rhq2", 7, "0303", false)],
    );
    for (i, h) in ring.iter().enumerate() {
        s = s.inf("blue", &format!("b{}", i + 2), h, "N", &[]);
    }
    let mut g = s.command();
    for u in 0..g.units.len() {
        assert_eq!(
            g.may_move_at_all(u),
            !g.reachable(u).is_empty(),
            "{}",
            g.units[u].id
        );
    }
    assert!(!g.may_move_at_all(k(&g, "rhq2")));
    assert!(g.may_move_at_all(k(&g, "rhq")));
    play(&mut g, "end", &[]);
    assert_eq!(g.phase, Phase::HqMoves);
    play(&mut g, "move rhq 1210", &[]);
    // rhq2 has not moved, but it has nowhere to go: blue's turn follows by itself.
    assert_eq!(g.active, Side::Blue);
}

/// A player is told the command roll an order must pass before giving it: what it needs on two
/// dice, every modifier, and its chance, as the roll itself will reckon it.
#[test]
fn an_order_foretells_its_command_roll_with_each_modifier_and_its_chance() {
    let mut g = duel(&[], &[]).command();
    let order = g.parse_action("order rhq r1").unwrap();
    assert!(g.rolls(order));
    assert_eq!(
        g.notes(order),
        vec![
            "Command roll: rhq needs 8 or less on two dice (command 8): 72% it passes; a double one (3%) gives two actions, a double six (3%) is a blunder."
        ]
    );
    // Once ordered, the unit's action needs no roll; a second order to it is one down.
    play(&mut g, "order rhq r1", &[4, 4]);
    let moving = g.parse_action("move r1 0607").unwrap();
    assert!(!g.rolls(moving));
    assert!(g
        .notes(moving)
        .iter()
        .all(|n| !n.starts_with("Command roll")));
    let again = g.parse_action("order rhq r1").unwrap();
    assert_eq!(
        g.notes(again)[0],
        "Command roll: rhq needs 7 or less on two dice (command 8, -1 successive order (1 before)): 58% it passes; a double one (3%) gives two actions, a double six (3%) is a blunder."
    );
}

/// A unit's own action names its order: the move rolls for it, and the roll is foretold with the
/// modifiers the move brings.
#[test]
fn a_units_own_move_foretells_the_order_it_names() {
    let g = duel(&[], &[]).command();
    let moving = g.parse_action("move r1 0607").unwrap();
    assert!(g.rolls(moving));
    let notes = g.notes(moving);
    assert!(
        notes[0].starts_with("Command roll: rhq needs 8 or less on two dice (command 8)"),
        "{notes:?}"
    );
}
