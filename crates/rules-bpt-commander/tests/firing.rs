//! Firing, Calculating Firing, Firing Modifiers, Scoring Hits, Saves, Testing For
//! Casualties, Knock-Out, Suppression, Fall-back, Opportunity Fire, Artillery Ammunition,
//! Movement Formations (their fire and saves), End Phase.

mod common;

use common::*;
use rules_bpt_commander::state::Phase;
use rules_bpt_commander::troops::{Formation, Suppression};
use volley_core::geometry::Facing;
use volley_core::{Game, Side};

/// Suppressed by an earlier attack (number 99), placed in this player turn.
fn suppress(g: &mut rules_bpt_commander::BptGame, id: &str) {
    let u = k(g, id);
    g.units[u].suppressed = Some(Suppression {
        placed: 0,
        by_attack: 99,
    });
}

#[test]
fn hits_on_4_in_the_open_and_a_test_die_at_the_to_hit_suppresses() {
    let mut g = duel(&[], &[]).start_with(&[]);
    let e = play(&mut g, "fire r1 b1", &[4, 3, 6, 1, 1, 4]);
    assert!(log(&e).contains("needing 4+"), "{}", log(&e));
    let b1 = &g.units[k(&g, "b1")];
    assert_eq!(b1.turn_hits, 2);
    assert!(b1.is_suppressed());
}

#[test]
fn suppression_test_below_the_to_hit_leaves_the_unit_unsuppressed() {
    let mut g = duel(&[], &[]).start_with(&[]);
    play(&mut g, "fire r1 b1", &[6, 1, 1, 1, 3]);
    let b1 = &g.units[k(&g, "b1")];
    assert_eq!(b1.turn_hits, 1);
    assert!(!b1.is_suppressed());
}

#[test]
fn soft_cover_in_woods_hits_on_5_and_suppresses_on_5() {
    let rows = with_row(5, ". . . . . W . . . . . .");
    let rows: Vec<&str> = rows.iter().map(|s| s.as_str()).collect();
    let mut g = duel(&[], &[]).rows(&rows).start_with(&[]);
    let e = play(&mut g, "fire r1 b1", &[5, 4, 4, 4, 4]);
    assert!(log(&e).contains("needing 5+"), "{}", log(&e));
    let b1 = &g.units[k(&g, "b1")];
    assert_eq!(b1.turn_hits, 1);
    assert!(!b1.is_suppressed());
}

#[test]
fn hard_cover_in_a_fort_hits_on_6() {
    let rows = with_row(5, ". . . . . F . . . . . .");
    let rows: Vec<&str> = rows.iter().map(|s| s.as_str()).collect();
    let mut g = duel(&[], &[]).rows(&rows).start_with(&[]);
    play(&mut g, "fire r1 b1", &[6, 5, 5, 5, 5]);
    assert_eq!(g.units[k(&g, "b1")].turn_hits, 1);
}

#[test]
fn a_wall_on_the_hexside_the_fire_crosses_is_soft_cover() {
    let mut g = duel(&[], &[])
        .map("hexsides = [{ between = [\"0605\", \"0606\"], kind = \"wall\" }]")
        .start_with(&[]);
    let e = play(&mut g, "fire r1 b1", &[4, 4, 4, 1]);
    assert!(log(&e).contains("needing 5+"), "{}", log(&e));
    assert_eq!(g.units[k(&g, "b1")].turn_hits, 0);
}

#[test]
fn smoothbore_guns_read_cover_one_step_easier() {
    let rows = with_row(5, ". . . . . W . . . . . .");
    let rows: Vec<&str> = rows.iter().map(|s| s.as_str()).collect();
    let mut g = Scen::new()
        .rows(&rows)
        .gun("red", "g1", "0608", "N", &[("traits", "[\"cover_shift\"]")])
        .inf("blue", "b1", "0605", "S", &[])
        .start_with(&[]);
    // 3 dice a gun, +1 within half range; open-ground 4+ although b1 is in woods.
    let e = play(&mut g, "fire g1 b1", &[4, 1, 1, 1, 1]);
    assert!(log(&e).contains("needing 4+"), "{}", log(&e));
    assert_eq!(g.units[k(&g, "b1")].turn_hits, 1);
}

#[test]
fn dice_are_attacks_times_stands() {
    let mut g = duel(&[("dice", "2"), ("stands", "3")], &[]).start_with(&[]);
    let e = play(&mut g, "fire r1 b1", &[1, 1, 1, 1, 1, 1]);
    assert!(log(&e).contains("6 dice"), "{}", log(&e));
}

#[test]
fn extended_line_loses_a_die_firing_and_being_fired_at() {
    let mut g = duel(
        &[("formation", "\"extended\"")],
        &[("formation", "\"extended\"")],
    )
    .start_with(&[]);
    let e = play(&mut g, "fire r1 b1", &[1, 1]);
    let l = log(&e);
    assert!(l.contains("-1 firing in extended line"), "{l}");
    assert!(l.contains("-1 target in extended line"));
    assert!(l.contains("2 dice"));
}

#[test]
fn within_half_range_adds_a_die() {
    let mut g = Scen::new()
        .inf("red", "r1", "0607", "N", &[])
        .inf("blue", "b1", "0605", "S", &[])
        .start_with(&[]);
    let e = play(&mut g, "fire r1 b1", &[1, 1, 1, 1, 1]);
    assert!(log(&e).contains("+1 within half range"), "{}", log(&e));
}

#[test]
fn howitzers_get_no_half_range_bonus() {
    let mut g = Scen::new()
        .gun("red", "g1", "0607", "N", &[("traits", "[\"howitzer\"]")])
        .inf("blue", "b1", "0605", "S", &[])
        .start_with(&[]);
    // Shell at high angle: the hit die (1, on target), then 3 dice with no half-range die.
    let e = play(&mut g, "fire g1 b1", &[1, 1, 1, 1]);
    assert!(!log(&e).contains("half range"), "{}", log(&e));
}

#[test]
fn flank_or_rear_fire_adds_two_dice_and_worsens_the_save() {
    // b1 faces away: r1 is behind it. Save 5 becomes 6; a line rolls a die more.
    let mut g = duel(&[], &[("facing", "-"), ("save", "5")]).load();
    let b1 = k(&g, "b1");
    g.units[b1].facing = Facing::N;
    let mut d = volley_core::ScriptedDice::new([]);
    volley_core::Game::start(&mut g, &mut d);
    let e = play(&mut g, "fire r1 b1", &[4, 1, 1, 1, 1, 1, 5, 6]);
    let l = log(&e);
    assert!(l.contains("+2 at the flank or rear"), "{l}");
    assert!(l.contains("1 saved"), "{l}");
    assert_eq!(g.units[b1].turn_hits, 0);
}

#[test]
fn line_rolls_an_extra_save_die() {
    let mut g = duel(&[], &[("save", "5")]).start_with(&[]);
    let e = play(&mut g, "fire r1 b1", &[4, 4, 1, 1, 5, 5, 5]);
    assert!(log(&e).contains("saves [5, 5, 5]: 2 saved"), "{}", log(&e));
    assert_eq!(g.units[k(&g, "b1")].turn_hits, 0);
}

#[test]
fn attack_column_has_no_saves() {
    let mut g = duel(&[], &[("save", "5"), ("formation", "\"attack\"")]).start_with(&[]);
    play(&mut g, "fire r1 b1", &[4, 1, 1, 1, 1]);
    assert_eq!(g.units[k(&g, "b1")].turn_hits, 1);
}

#[test]
fn attack_column_fires_with_its_two_front_stands() {
    let mut g = duel(&[("formation", "\"attack\"")], &[]).start_with(&[]);
    let e = play(&mut g, "fire r1 b1", &[1, 1]);
    assert!(log(&e).contains("1 × 2 stands"), "{}", log(&e));
}

#[test]
fn square_has_no_saves_against_fire_and_infantry_get_a_die_more() {
    let mut g = duel(&[], &[("save", "5"), ("formation", "\"square\"")]).start_with(&[]);
    let e = play(&mut g, "fire r1 b1", &[4, 1, 1, 1, 1, 1]);
    assert!(
        log(&e).contains("+1 infantry against a square"),
        "{}",
        log(&e)
    );
    assert_eq!(g.units[k(&g, "b1")].turn_hits, 1);
}

#[test]
fn artillery_gets_a_die_a_gun_against_a_square() {
    let mut g = Scen::new()
        .gun("red", "g1", "0608", "N", &[("stands", "2")])
        .inf("blue", "b1", "0605", "S", &[("formation", "\"square\"")])
        .start_with(&[]);
    // 3 × 2 guns, +1 half range, +2 against a square: 9 dice.
    let e = play(&mut g, "fire g1 b1", &[1; 9]);
    assert!(
        log(&e).contains("+2 artillery against a square"),
        "{}",
        log(&e)
    );
}

#[test]
fn march_column_fires_one_stand_and_is_always_shot_in_the_flank() {
    let mut g = duel(&[("formation", "\"march\"")], &[("formation", "\"march\"")]).start_with(&[]);
    // One stand, +2 for the flank: 3 dice.
    let e = play(&mut g, "fire r1 b1", &[1, 1, 1]);
    let l = log(&e);
    assert!(l.contains("1 × 1 stands"), "{l}");
    assert!(l.contains("+2 at the flank or rear"));
}

#[test]
fn hits_reaching_the_units_capacity_knock_it_out_at_once() {
    let mut g = duel(&[], &[("stands", "1")]).start_with(&[]);
    play(&mut g, "fire r1 b1", &[4, 4, 4, 1]);
    assert!(g.units[k(&g, "b1")].ko);
}

#[test]
fn suppressed_unit_hit_again_falls_back_the_sum_of_its_dice() {
    let mut g = duel(&[], &[]).start_with(&[]);
    suppress(&mut g, "b1");
    let e = play(&mut g, "fire r1 b1", &[4, 4, 1, 1, 3, 4]);
    assert!(log(&e).contains("falls back 7 cm"), "{}", log(&e));
    let b1 = &g.units[k(&g, "b1")];
    // 7 cm is one hex, straight away from the firer, turned to face it.
    assert_eq!(b1.hex, hex("0604"));
    assert_eq!(b1.facing, Facing::S);
}

#[test]
fn fall_back_of_20_cm_goes_four_hexes() {
    let mut g = duel(&[], &[]).start_with(&[]);
    suppress(&mut g, "b1");
    play(&mut g, "fire r1 b1", &[4, 4, 4, 4, 6, 6, 4, 4]);
    assert_eq!(g.units[k(&g, "b1")].hex, hex("0601"));
}

#[test]
fn fall_back_beyond_20_cm_knocks_out() {
    let mut g = duel(&[], &[]).start_with(&[]);
    suppress(&mut g, "b1");
    play(&mut g, "fire r1 b1", &[4, 4, 4, 4, 6, 6, 6, 3]);
    assert!(g.units[k(&g, "b1")].ko);
}

#[test]
fn fall_back_off_the_table_knocks_out() {
    let mut g = Scen::new()
        .inf("red", "r1", "0605", "N", &[])
        .inf("blue", "b1", "0602", "S", &[])
        .hqs("blue", &[hq("bhq", 8, "1201", true)])
        .start_with(&[]);
    suppress(&mut g, "b1");
    play(&mut g, "fire r1 b1", &[4, 4, 1, 1, 6, 5]);
    assert!(g.units[k(&g, "b1")].ko);
}

#[test]
fn fall_back_into_friends_halts_and_suppresses_them() {
    let mut g = duel(&[], &[])
        .inf("blue", "b2", "0604", "S", &[])
        .start_with(&[]);
    suppress(&mut g, "b1");
    play(&mut g, "fire r1 b1", &[4, 4, 1, 1, 3, 4]);
    assert_eq!(g.units[k(&g, "b1")].hex, hex("0605"));
    assert!(g.units[k(&g, "b2")].is_suppressed());
}

#[test]
fn dug_in_troops_hold_unless_the_fall_back_passes_10_cm() {
    let mut g = duel(&[], &[("dug_in", "true")]).start_with(&[]);
    suppress(&mut g, "b1");
    play(&mut g, "fire r1 b1", &[4, 4, 1, 1, 6, 4]);
    assert_eq!(g.units[k(&g, "b1")].hex, hex("0605"));
    assert!(!g.units[k(&g, "b1")].ko);
    let mut g = duel(&[], &[("dug_in", "true")]).start_with(&[]);
    suppress(&mut g, "b1");
    play(&mut g, "fire r1 b1", &[4, 4, 1, 1, 6, 5]);
    assert!(g.units[k(&g, "b1")].ko);
}

#[test]
fn elite_roll_one_fall_back_die_fewer_and_poor_one_more() {
    let mut g = duel(&[], &[("traits", "[\"elite\"]")]).start_with(&[]);
    suppress(&mut g, "b1");
    let e = play(&mut g, "fire r1 b1", &[4, 4, 1, 1, 6]);
    assert!(log(&e).contains("falls back 6 cm"), "{}", log(&e));
    let mut g = duel(&[], &[("traits", "[\"poor\"]")]).start_with(&[]);
    suppress(&mut g, "b1");
    let e = play(&mut g, "fire r1 b1", &[4, 4, 1, 1, 1, 1, 1]);
    assert!(log(&e).contains("falls back 3 cm"), "{}", log(&e));
}

#[test]
fn one_order_never_both_suppresses_and_forces_a_fall_back() {
    let mut g = duel(&[], &[]).inf("red", "r2", "0508", "N", &[]).command();
    play(&mut g, "join r2", &[]);
    play(&mut g, "order rhq r1", &[2, 2]);
    play(&mut g, "fire r1 b1", &[4, 1, 1, 1, 5]);
    assert!(g.units[k(&g, "b1")].is_suppressed());
    // The same order's second fire: a hit, but neither a test nor a fall-back.
    play(&mut g, "fire r2 b1", &[4, 1, 1, 1]);
    let b1 = &g.units[k(&g, "b1")];
    assert_eq!(b1.turn_hits, 2);
    assert_eq!(b1.hex, hex("0605"));
}

#[test]
fn two_initiative_actions_may_suppress_then_force_a_fall_back() {
    let mut g = duel(&[], &[])
        .inf("red", "r2", "0508", "N", &[])
        .start_with(&[]);
    play(&mut g, "fire r1 b1", &[4, 1, 1, 1, 5]);
    play(&mut g, "fire r2 b1", &[4, 1, 1, 1, 6]);
    assert_eq!(g.units[k(&g, "b1")].hex, hex("0604"));
}

#[test]
fn hits_become_stand_losses_at_the_end_phase() {
    let mut g = duel(&[], &[]).start_with(&[]);
    play(&mut g, "fire r1 b1", &[4, 4, 4, 4, 1, 1, 1, 1]);
    let b1 = k(&g, "b1");
    assert_eq!((g.units[b1].turn_hits, g.units[b1].stands), (4, 4));
    play(&mut g, "end", &[]);
    play(&mut g, "end", &[]);
    play(&mut g, "end", &[]);
    // 4 hits at 3 a stand: one stand lost, the odd hit dropped.
    assert_eq!(g.active, Side::Blue);
    assert_eq!((g.units[b1].turn_hits, g.units[b1].stands), (0, 3));
}

#[test]
fn disordered_units_are_knocked_out_a_hit_a_stand_sooner_and_roll_two_dice_fewer() {
    let mut g = duel(&[], &[]).load();
    let (r1, b1) = (k(&g, "r1"), k(&g, "b1"));
    g.units[r1].disorder_until = Some(5);
    g.units[r1].dice = 2;
    g.units[b1].disorder_until = Some(5);
    let mut d = volley_core::ScriptedDice::new([]);
    volley_core::Game::start(&mut g, &mut d);
    // 2 × 4 - 2 = 6 dice.
    let e = play(&mut g, "fire r1 b1", &[4, 4, 4, 4, 1, 1, 1, 1, 1, 1]);
    assert!(log(&e).contains("-2 disordered"), "{}", log(&e));
    // Disordered, its 4 stands take 8 hits before it is knocked out (not 12)…
    assert_eq!(g.units[b1].capacity(false), 8);
    play(&mut g, "end", &[]);
    play(&mut g, "end", &[]);
    play(&mut g, "end", &[]);
    // …but the end phase turns the 4 hits into stands at the list's 3 a stand
    // (Interpretation 54): one stand lost, not two.
    assert_eq!(g.units[b1].stands, 3);
}

#[test]
fn suppression_placed_last_turn_lifts_at_the_end_phase() {
    let mut g = duel(&[], &[]).start_with(&[]);
    play(&mut g, "fire r1 b1", &[4, 1, 1, 1, 4]);
    let b1 = k(&g, "b1");
    play(&mut g, "end", &[]);
    play(&mut g, "end", &[]);
    play(&mut g, "end", &[]);
    // Red's end phase lifts only red's markers: b1 stays suppressed through its own turn.
    assert_eq!(g.active, Side::Blue);
    assert!(g.units[b1].is_suppressed());
    assert_eq!(g.phase, Phase::Command);
    play(&mut g, "end", &[]);
    play(&mut g, "end", &[]);
    assert_eq!(g.active, Side::Red);
    assert!(!g.units[b1].is_suppressed());
}

#[test]
fn suppression_placed_in_the_owners_own_turn_stays_through_its_next_turn() {
    let mut g = duel(&[], &[]).command();
    play(&mut g, "order rhq r1", &[2, 1]);
    play(&mut g, "move r1 0607", &[]);
    // Blue's opportunity fire suppresses r1 in red's own turn.
    play(&mut g, "fire b1 r1", &[4, 1, 1, 1, 1, 6]);
    let r1 = k(&g, "r1");
    assert!(g.units[r1].is_suppressed());
    play(&mut g, "end", &[]);
    play(&mut g, "end", &[]);
    assert_eq!(g.active, Side::Blue);
    assert!(g.units[r1].is_suppressed());
    play(&mut g, "end", &[]);
    play(&mut g, "end", &[]);
    // Red's second turn: still suppressed, so no orders; its end phase lifts it.
    assert_eq!(g.active, Side::Red);
    assert!(g.units[r1].is_suppressed());
    {
        let m = refused(&mut g, "order rhq r1");
        assert!(m.contains("suppressed"), "{m}");
    }
    play(&mut g, "end", &[]);
    play(&mut g, "end", &[]);
    assert!(!g.units[r1].is_suppressed());
}

#[test]
fn infantry_shot_at_with_enemy_cavalry_near_must_form_square() {
    let mut g = duel(&[], &[("save", "5")])
        .cav("red", "c1", "0908", "N", &[])
        .start_with(&[]);
    let e = play(&mut g, "fire r1 b1", &[4, 1, 1, 1, 1, 1]);
    assert!(log(&e).contains("must form square"), "{}", log(&e));
    let b1 = &g.units[k(&g, "b1")];
    assert_eq!(b1.formation, Formation::Square);
    assert_eq!(b1.turn_hits, 1);
}

#[test]
fn no_forced_square_when_friendly_cavalry_is_near() {
    let mut g = duel(&[], &[])
        .cav("red", "c1", "0908", "N", &[])
        .cav("blue", "c2", "0303", "S", &[])
        .start_with(&[]);
    play(&mut g, "fire r1 b1", &[1, 1, 1, 1]);
    assert_eq!(g.units[k(&g, "b1")].formation, Formation::Line);
}

#[test]
fn command_units_may_not_be_targeted() {
    let mut g = duel(&[], &[])
        .hqs("blue", &[hq("bhq", 8, "0606", true)])
        .command();
    play(&mut g, "order rhq r1", &[2, 2]);
    {
        let m = refused(&mut g, "fire r1 bhq");
        assert!(m.contains("command units"), "{m}");
    }
}

#[test]
fn limbered_guns_do_not_fire() {
    let mut g = Scen::new()
        .gun("red", "g1", "0608", "N", &[("limbered", "true")])
        .inf("blue", "b1", "0605", "S", &[])
        .command();
    play(&mut g, "order rhq g1", &[2, 2]);
    {
        let m = refused(&mut g, "fire g1 b1");
        assert!(m.contains("cannot fire"), "{m}");
    }
    play(&mut g, "unlimber g1 N", &[]);
    assert!(!g.units[k(&g, "g1")].limbered);
}

#[test]
fn first_fire_option_adds_one_to_each_hit_roll() {
    let mut g = duel(&[], &[]).option("first_fire", "on").start_with(&[]);
    let e = play(&mut g, "fire r1 b1", &[3, 1, 1, 1, 1]);
    assert!(log(&e).contains("needing 3+"), "{}", log(&e));
    assert_eq!(g.units[k(&g, "b1")].turn_hits, 1);
}

#[test]
fn round_shot_goes_on_into_the_unit_behind() {
    let mut g = Scen::new()
        .gun("red", "g1", "0609", "N", &[])
        .inf("blue", "b1", "0606", "S", &[])
        .inf("blue", "b2", "0605", "S", &[])
        .start_with(&[]);
    // 3 + 1 (half range) at b1, all miss; then one die a stand of b2: one hit, no test.
    let e = play(&mut g, "fire g1 b1", &[1, 1, 1, 1, 4, 1, 1, 1, 1]);
    assert!(log(&e).contains("round shot going on"), "{}", log(&e));
    assert_eq!(g.units[k(&g, "b1")].turn_hits, 0);
    assert_eq!(g.units[k(&g, "b2")].turn_hits, 1);
}

#[test]
fn round_shot_is_stopped_by_a_wall() {
    let mut g = Scen::new()
        .gun("red", "g1", "0609", "N", &[])
        .inf("blue", "b1", "0606", "S", &[])
        .inf("blue", "b2", "0605", "S", &[])
        .map("hexsides = [{ between = [\"0605\", \"0606\"], kind = \"wall\" }]")
        .start_with(&[]);
    play(&mut g, "fire g1 b1", &[1, 1, 1, 1]);
    assert_eq!(g.units[k(&g, "b2")].turn_hits, 0);
}

#[test]
fn canister_hits_every_unit_in_the_cone() {
    let mut g = Scen::new()
        .gun("red", "g1", "0608", "N", &[("canister", "[3, 10]")])
        .inf(
            "red",
            "r2",
            "0607",
            "N",
            &[("traits", "[\"light\"]"), ("formation", "\"extended\"")],
        )
        .inf("blue", "b1", "0606", "S", &[])
        .start_with(&[]);
    // Friend first (nearest), then foe: 3 attacks each.
    play(&mut g, "canister g1 b1", &[6, 1, 1, 1, 4, 4, 1, 1, 1]);
    assert_eq!(g.units[k(&g, "r2")].turn_hits, 1);
    assert_eq!(g.units[k(&g, "b1")].turn_hits, 2);
}

#[test]
fn opportunity_fire_is_offered_after_a_move_and_taken_once_a_turn() {
    let mut g = duel(&[], &[]).command();
    play(&mut g, "order rhq r1", &[2, 2]);
    play(&mut g, "order rhq r1", &[2, 2]);
    play(&mut g, "move r1 0607", &[]);
    assert_eq!(g.decider(), Some(Side::Blue));
    play(&mut g, "fire b1 r1", &[1, 1, 1, 1, 1]);
    assert_eq!(g.decider(), Some(Side::Red));
    play(&mut g, "order rhq r1", &[2, 2]);
    play(&mut g, "wheel r1 left", &[]);
    // A wheel is a move, but b1 has had its opportunity shot this turn: no interrupt.
    assert_eq!(g.decider(), Some(Side::Red));
}

#[test]
fn round_shot_goes_on_into_what_stood_behind_not_into_the_target_falling_back() {
    let mut g = Scen::new()
        .gun("red", "g1", "0609", "N", &[])
        .inf("blue", "b1", "0606", "S", &[])
        .start_with(&[]);
    let b1 = k(&g, "b1");
    // Already suppressed: a hit makes it fall back, straight away from the gun, into the hex
    // the shot goes on through. The shot goes on through what stood there when it was fired:
    // nothing.
    g.units[b1].suppressed = Some(rules_bpt_commander::troops::Suppression {
        placed: 0,
        by_attack: 99,
    });
    let e = play(&mut g, "fire g1 b1", &[4, 1, 1, 1, 3]);
    assert_eq!(g.units[b1].hex, hex("0605"), "{}", log(&e));
    assert_eq!(g.units[b1].turn_hits, 1);
    assert!(!log(&e).contains("round shot going on"), "{}", log(&e));
}

/// Before a move that will draw opportunity fire, the player is told who may fire; a move that
/// draws none says nothing of it.
#[test]
fn a_move_into_opportunity_fire_names_who_may_fire() {
    let mut g = duel(&[], &[]).command();
    play(&mut g, "order rhq r1", &[2, 2]);
    let moving = g.parse_action("move r1 0607").unwrap();
    assert_eq!(
        g.notes(moving),
        vec!["Opportunity fire: b1 may fire at it as it moves (Opportunity Fire)."]
    );
    // Telling it changed nothing: the move is still to be made, and blue still to be asked.
    assert_eq!(g.decider(), Some(Side::Red));
    play(&mut g, "move r1 0607", &[]);
    assert_eq!(g.decider(), Some(Side::Blue));
    play(&mut g, "fire b1 r1", &[1, 1, 1, 1, 1]);
    // b1 has had its shot this turn: the next move draws none, and the note says nothing.
    play(&mut g, "order rhq r1", &[2, 2]);
    let wheel = g.parse_action("wheel r1 left").unwrap();
    assert!(g.notes(wheel).is_empty(), "{:?}", g.notes(wheel));
}
