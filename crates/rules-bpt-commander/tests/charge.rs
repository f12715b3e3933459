//! The charge chapter: who may charge and how far, the charged unit's answers (fire, evade,
//! counter-charge, square), supports, the fight's rounds, its outcome and what follows it
//! (retreat, consolidation, disorder and exhausted horse).

mod common;

use common::*;
use rules_bpt_commander::troops::Formation;
use rules_bpt_commander::BptGame;
use volley_core::geometry::Facing;
use volley_core::Side;

/// r1 at 0608 and b1 at 0606 (10 cm), facing each other; a spare blue unit far off so that
/// blue is never left without units; red in its command phase.
fn close(r: &[(&str, &str)], b: &[(&str, &str)]) -> Scen {
    Scen::new()
        .inf("red", "r1", "0608", "N", r)
        .inf("blue", "b1", "0606", "S", b)
        .inf("blue", "b9", "1201", "S", &[])
        .inf("blue", "b8", "1101", "S", &[])
        .hqs("blue", &[hq("bhq", 8, "1202", true)])
}

fn charged(s: Scen) -> BptGame {
    let mut g = s.command();
    play(&mut g, "order rhq r1 charge", &[2, 2]);
    play(&mut g, "charge r1 b1", &[]);
    g
}

/// `hits` 4s then 1s, `n` dice in all.
fn dice(n: usize, hits: usize) -> Vec<u32> {
    (0..n).map(|i| if i < hits { 4 } else { 1 }).collect()
}

fn cat(parts: &[Vec<u32>]) -> Vec<u32> {
    parts.concat()
}

#[test]
fn a_charge_moves_into_contact_and_waits_for_the_answer() {
    let g = charged(close(&[], &[]));
    let r1 = &g.units[k(&g, "r1")];
    assert_eq!((r1.hex, r1.facing), (hex("0607"), Facing::N));
    assert_eq!(g.decider(), Some(Side::Blue));
}

#[test]
fn charge_outcome_double_knocks_out_losers_in_contact() {
    let mut g = charged(close(&[], &[]));
    // Red: 2 a stand × 4 + 1 charging = 9 dice; blue 8.
    let e = play(&mut g, "end", &cat(&[dice(9, 2), dice(8, 1)]));
    assert!(log(&e).contains("double or more"), "{}", log(&e));
    assert!(log(&e).contains("+1 charging"));
    assert!(g.units[k(&g, "b1")].ko);
    assert!(!g.units[k(&g, "r1")].ko);
}

#[test]
fn charge_outcome_greater_suppresses_losers_who_retreat_half_a_move() {
    let mut g = charged(close(&[], &[]));
    play(&mut g, "end", &cat(&[dice(9, 3), dice(8, 2)]));
    let b1 = &g.units[k(&g, "b1")];
    assert!(!b1.ko && b1.is_suppressed());
    // Half of 10 cm: one hex straight away, facing unchanged.
    assert_eq!((b1.hex, b1.facing), (hex("0605"), Facing::S));
}

#[test]
fn equal_hits_fight_another_round_without_the_charge_bonus() {
    let mut g = charged(close(&[], &[]));
    let e = play(
        &mut g,
        "end",
        &cat(&[dice(9, 1), dice(8, 1), dice(8, 2), dice(8, 0)]),
    );
    assert!(log(&e).contains("charge round 2"), "{}", log(&e));
    assert!(g.units[k(&g, "b1")].ko);
}

#[test]
fn winners_consolidate_a_hex_forward_not_next_to_a_visible_enemy_and_may_turn() {
    let mut g = charged(close(&[], &[]));
    play(&mut g, "end", &cat(&[dice(9, 2), dice(8, 1)]));
    let r1 = k(&g, "r1");
    let from = g.units[r1].hex;
    let ahead = volley_core::geometry::step(from, g.units[r1].facing);
    assert_eq!(
        g.decider(),
        Some(Side::Red),
        "the winners decide their consolidation"
    );
    let to = volley_core::geometry::label(ahead);
    play(&mut g, &format!("move r1 {to}"), &[]);
    assert_eq!(g.units[r1].hex, ahead);
    // Once moved, it may still turn, but not move again.
    assert!(g
        .check_order::<()>(
            rules_bpt_commander::orders::read(
                &format!(
                    "move r1 {}",
                    volley_core::geometry::label(volley_core::geometry::step(
                        ahead,
                        g.units[r1].facing
                    ))
                ),
                &g.units
            )
            .unwrap()
        )
        .is_err());
    play(&mut g, "pivot r1 S", &[]);
    assert_eq!(g.units[r1].facing, volley_core::geometry::Facing::S);
    assert!(
        g.interrupt.is_none(),
        "with nothing left to do the consolidation closes"
    );
}

#[test]
fn winners_of_a_charge_are_disordered_cavalry_exhausted() {
    let mut g = charged(close(&[], &[]));
    play(&mut g, "end", &cat(&[dice(9, 2), dice(8, 1)]));
    let r1 = &g.units[k(&g, "r1")];
    assert_eq!(r1.formation, Formation::Disordered);
    assert!(r1.disordered() && !r1.exhausted);
    let mut g = close(&[], &[]).cav("red", "c1", "0708", "N", &[]).command();
    play(&mut g, "order rhq c1 charge", &[2, 2]);
    play(&mut g, "charge c1 b1", &[]);
    // Cavalry 3 a stand × 3 + 1 = 10 dice; infantry 8.
    play(&mut g, "end", &cat(&[dice(10, 2), dice(8, 1)]));
    let c1 = &g.units[k(&g, "c1")];
    assert!(c1.disordered() && c1.exhausted);
}

#[test]
fn a_winner_whose_hits_reach_its_disordered_capacity_is_knocked_out() {
    // r1 comes into the fight one hit short of what its stands can take once each holds one
    // hit fewer, b1 with 9 of its 12: the fight adds 1 and 2, r1 wins (8 against 11, not
    // double), is disordered by its charge, and its 8 hits now knock it out.
    let mut g = charged(close(&[], &[]));
    let r1 = k(&g, "r1");
    let u = &g.units[r1];
    let disordered_capacity = u.stands * (u.hits_per_stand - 1);
    assert!(disordered_capacity < u.capacity(false));
    g.units[r1].turn_hits = disordered_capacity - 1;
    let b1 = k(&g, "b1");
    g.units[b1].turn_hits = 9;
    let e = play(&mut g, "end", &cat(&[dice(9, 2), dice(8, 1)]));
    assert!(g.units[r1].ko, "{e:?}");
    assert!(!g.units[b1].ko, "{e:?}");
    assert!(
        e.iter().any(|e| e
            .text
            .contains("its hits this turn reach what it can take once disordered")),
        "{e:?}"
    );
}

#[test]
fn disorder_lasts_to_the_end_of_the_sides_next_initiative_phase() {
    let mut g = charged(close(&[], &[]));
    play(&mut g, "end", &cat(&[dice(9, 2), dice(8, 1)]));
    let r1 = k(&g, "r1");
    // The winner may consolidate first; it stays where it is.
    assert!(g.interrupt.is_some(), "the winner is offered consolidation");
    play(&mut g, "end", &[]);
    play(&mut g, "end", &[]);
    play(&mut g, "end", &[]);
    assert_eq!(g.active, Side::Blue);
    assert!(g.units[r1].disordered());
    while g.active == Side::Blue {
        play(&mut g, "end", &[]);
    }
    assert!(!g.units[r1].disordered());
    // The unit stays in disordered formation until a deploy order reforms it.
    assert_eq!(g.units[r1].formation, Formation::Disordered);
    play(&mut g, "order rhq r1", &[2, 2]);
    play(&mut g, "form r1 line", &[]);
    assert_eq!(g.units[r1].formation, Formation::Line);
}

#[test]
fn the_charged_unit_may_fire_at_the_charger_who_still_closes_suppressed() {
    let mut g = charged(close(&[], &[]));
    // 5 dice (adjacent: half range), one hit, the test suppresses; then the fight: red 9 -
    // 1 suppressed = 8 dice, blue 8.
    let e = play(
        &mut g,
        "fire b1 r1",
        &cat(&[dice(5, 1), vec![4], dice(8, 3), dice(8, 0)]),
    );
    assert!(log(&e).contains("-1 suppressed"), "{}", log(&e));
    assert!(g.units[k(&g, "b1")].ko);
}

#[test]
fn units_within_10_cm_of_the_charged_unit_may_fire_at_the_charger() {
    let mut g = charged(close(&[], &[]).inf("blue", "b2", "0506", "S", &[]));
    let e = play(&mut g, "fire b2 r1", &dice(5, 0));
    assert!(log(&e).contains("fires at the charging"), "{}", log(&e));
    assert_eq!(g.decider(), Some(Side::Blue));
}

#[test]
fn an_evaded_charge_is_followed_up_to_20_cm() {
    let mut g = charged(close(&[], &[]));
    let e = play(&mut g, "evade b1", &cat(&[dice(9, 2), dice(8, 1)]));
    assert!(log(&e).contains("follows"), "{}", log(&e));
    assert_eq!(g.units[k(&g, "r1")].hex, hex("0605"));
    assert!(g.units[k(&g, "b1")].ko);
}

#[test]
fn charged_cavalry_must_evade_or_counter_charge() {
    let mut g = Scen::new()
        .inf("red", "r1", "0608", "N", &[])
        .cav("blue", "c1", "0606", "S", &[])
        .inf("blue", "b9", "1201", "S", &[])
        .hqs("blue", &[hq("bhq", 8, "1202", true)])
        .command();
    play(&mut g, "order rhq r1 charge", &[2, 2]);
    play(&mut g, "charge r1 c1", &[]);
    {
        let m = refused(&mut g, "end");
        assert!(m.contains("must evade or counter-charge"), "{m}");
    }
    // Counter-charge: both have the charge bonus: red 9, blue 3 × 3 + 1 = 10.
    let e = play(&mut g, "countercharge c1", &cat(&[dice(9, 0), dice(10, 1)]));
    assert!(log(&e).contains("counter-charges"), "{}", log(&e));
    assert!(g.units[k(&g, "r1")].ko);
}

#[test]
fn a_square_is_one_cover_level_better_against_cavalry() {
    let mut g = Scen::new()
        .cav("red", "c1", "0608", "N", &[])
        .inf("blue", "b1", "0606", "S", &[("formation", "\"square\"")])
        .inf("blue", "b9", "1201", "S", &[])
        .hqs("blue", &[hq("bhq", 8, "1202", true)])
        .command();
    play(&mut g, "order rhq c1 charge", &[2, 2]);
    play(&mut g, "charge c1 b1", &[]);
    let e = play(&mut g, "end", &cat(&[vec![5; 2], dice(8, 0), dice(8, 1)]));
    assert!(log(&e).contains("needing 5+"), "{}", log(&e));
}

#[test]
fn infantry_charged_by_cavalry_may_form_square() {
    let mut g = Scen::new()
        .cav("red", "c1", "0608", "N", &[])
        .inf("blue", "b1", "0606", "S", &[])
        .inf("blue", "b9", "1201", "S", &[])
        .hqs("blue", &[hq("bhq", 8, "1202", true)])
        .command();
    play(&mut g, "order rhq c1 charge", &[2, 2]);
    play(&mut g, "charge c1 b1", &[]);
    // Square: the cavalry need 5s; 3 a stand × 3 + 1 = 10 dice, then the square's 8.
    let e = play(&mut g, "square b1", &cat(&[dice(10, 0), dice(8, 2)]));
    assert!(log(&e).contains("needing 5+"), "{}", log(&e));
    assert!(log(&e).contains("forms square"), "{}", log(&e));
    assert!(g.units[k(&g, "c1")].ko);
}

#[test]
fn a_supporting_unit_adds_a_die() {
    let mut g = charged(close(&[], &[]).inf("red", "r2", "0708", "N", &[]));
    play(&mut g, "end", &[]);
    assert_eq!(g.decider(), Some(Side::Red));
    let e = play(&mut g, "support r2 r1", &cat(&[dice(10, 2), dice(8, 1)]));
    assert!(log(&e).contains("+1 supports"), "{}", log(&e));
    assert!(g.units[k(&g, "b1")].ko);
}

#[test]
fn a_defender_charged_in_the_flank_fights_with_one_stand() {
    let mut g = close(&[], &[]).load();
    let b1 = k(&g, "b1");
    g.units[b1].facing = Facing::NE;
    let mut d = volley_core::ScriptedDice::new([]);
    volley_core::Game::start(&mut g, &mut d);
    if g.phase == rules_bpt_commander::state::Phase::Initiative {
        play(&mut g, "end", &[]);
    }
    play(&mut g, "order rhq r1 charge", &[2, 2]);
    // b1 cannot see its charger: no answer, the fight follows at once. 2 × 1 stand - 2:
    // at least one die.
    let e = play(&mut g, "charge r1 b1", &cat(&[dice(9, 2), dice(1, 0)]));
    assert!(
        log(&e).contains("-2 fighting to the flank or rear"),
        "{}",
        log(&e)
    );
}

#[test]
fn charges_start_from_line_or_attack_column_within_20_cm() {
    let mut g = close(&[("formation", "\"march\"")], &[]).command();
    play(&mut g, "order rhq r1 charge", &[2, 2]);
    {
        let m = refused(&mut g, "charge r1 b1");
        assert!(m.contains("line or attack column"), "{m}");
    }
    let mut g = Scen::new()
        .inf("red", "r1", "0610", "N", &[])
        .inf("blue", "b1", "0605", "S", &[])
        .command();
    play(&mut g, "order rhq r1", &[2, 2]);
    {
        let m = refused(&mut g, "charge r1 b1");
        assert!(m.contains("beyond the 20 cm"), "{m}");
    }
}

#[test]
fn artillery_never_charges_and_irregular_cavalry_never_charge_squares() {
    let mut g = Scen::new()
        .gun("red", "g1", "0608", "N", &[])
        .cav("red", "c1", "0708", "N", &[("traits", "[\"irregular\"]")])
        .inf("blue", "b1", "0606", "S", &[("formation", "\"square\"")])
        .command();
    play(&mut g, "order rhq g1", &[2, 2]);
    {
        let m = refused(&mut g, "charge g1 b1");
        assert!(m.contains("may not charge"), "{m}");
    }
    play(&mut g, "order rhq c1 charge", &[2, 2]);
    {
        let m = refused(&mut g, "charge c1 b1");
        assert!(m.contains("irregular"), "{m}");
    }
}

#[test]
fn unlimbered_guns_that_lose_a_charge_are_knocked_out() {
    let mut g = Scen::new()
        .inf("red", "r1", "0608", "N", &[])
        .gun("blue", "g1", "0606", "S", &[("stands", "2")])
        .inf("blue", "b9", "1201", "S", &[])
        .hqs("blue", &[hq("bhq", 8, "1202", true)])
        .command();
    play(&mut g, "order rhq r1 charge", &[2, 2]);
    play(&mut g, "charge r1 g1", &[]);
    // Guns: 1 attack a gun.
    play(&mut g, "end", &cat(&[dice(9, 3), dice(2, 2)]));
    assert!(g.units[k(&g, "g1")].ko);
}

#[test]
fn a_defender_that_wins_without_charging_is_not_disordered() {
    let mut g = charged(close(&[], &[]));
    // The charger takes two hits to the defender's one: the defender wins, holding its ground.
    play(&mut g, "end", &cat(&[dice(9, 1), dice(8, 2)]));
    let b1 = &g.units[k(&g, "b1")];
    assert!(!b1.ko && !b1.disordered(), "{:?}", b1.formation);
    assert_ne!(b1.formation, Formation::Disordered);
}

#[test]
fn saber_charge_gives_mounted_cavalry_four_attacks_a_stand() {
    let scen = |saber: &str| {
        close(&[], &[])
            .cav("red", "c1", "0708", "N", &[])
            .option("saber_charge", saber)
    };
    for (saber, per_stand, n) in [("off", 3, 10), ("on", 4, 13)] {
        let mut g = scen(saber).command();
        play(&mut g, "order rhq c1 charge", &[2, 2]);
        play(&mut g, "charge c1 b1", &[]);
        // Cavalry must be answered by nothing here (b1 is infantry): the combat follows.
        let e = play(&mut g, "end", &cat(&[dice(n, 2), dice(8, 1)]));
        let text = log(&e);
        assert!(
            text.contains(&format!("{n} dice ({per_stand} × 3 stands +1 charging")),
            "saber {saber}: {text}"
        );
    }
}
