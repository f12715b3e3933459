//! Artillery Ammunition (shell), Howitzers, Regimental Artillery, Mortars, High Angle Direct
//! Fire (deviation), Counter-Battery Fire, Air Burst Shell Fire, Field Artillery Officers.
//! The gun of the harness: one stand, 3 attacks, range 60 cm; the map is 12 × 12 open.

mod common;

use common::*;
use rules_bpt_commander::orders::{self, Ammo, Order};
use volley_core::codec::Codec;
use volley_core::geometry::{label, step, Facing};
use volley_core::{Game, ScriptedDice};

/// The hex `n` steps from `from` towards `f`, as a label.
fn toward(from: &str, f: Facing, n: u32) -> String {
    let mut h = hex(from);
    for _ in 0..n {
        h = step(h, f);
    }
    label(h)
}

// Artillery Ammunition: shell.

#[test]
fn plain_fire_is_still_round_shot_and_the_firer_may_name_shell() {
    let g = Scen::new()
        .gun("red", "g1", "0608", "N", &[])
        .inf("blue", "b1", "0605", "S", &[])
        .start_with(&[]);
    let (g1, b1) = (k(&g, "g1"), k(&g, "b1"));
    let plain = orders::read("fire g1 b1", &g.units).unwrap();
    assert_eq!(
        plain,
        Order::Fire {
            unit: g1,
            target: b1,
            ammo: Ammo::Normal
        }
    );
    assert_eq!(orders::write(plain, &g.units), "fire g1 b1");
    let shell = orders::read("fire g1 b1 shell", &g.units).unwrap();
    assert_eq!(orders::write(shell, &g.units), "fire g1 b1 shell");
    assert_eq!(Order::unpack(shell.pack()), Some(shell));
    // Small arms have no shell.
    let g = duel(&[], &[]).start_with(&[]);
    let mut g2 = g.clone();
    assert!(refused(&mut g2, "fire r1 b1 shell").contains("no shell"));
}

#[test]
fn shell_bursts_in_the_target_hex_attacking_the_command_unit_there_and_goes_no_further() {
    let mut g = Scen::new()
        .hqs("blue", &[hq("bhq", 8, "0605", true)])
        .gun("red", "g1", "0608", "N", &[])
        .inf("blue", "b1", "0605", "S", &[])
        .inf("blue", "b2", "0604", "S", &[])
        .start_with(&[]);
    // 3 + 1 (half range) dice at b1: one hit, the test die misses; the same 4 dice at the
    // command unit with it, hit on 6: one hit, its save of 6 fails, the test die misses. The
    // shell does not go on into b2 as round shot would.
    let e = play(
        &mut g,
        "fire g1 b1 shell",
        &[4, 1, 1, 1, 1, 6, 1, 1, 1, 1, 1],
    );
    let l = log(&e);
    assert!(l.contains("fires shell at"), "{l}");
    assert_eq!(g.units[k(&g, "b1")].turn_hits, 1, "{l}");
    assert_eq!(g.units[k(&g, "bhq")].turn_hits, 1, "{l}");
    assert_eq!(g.units[k(&g, "b2")].turn_hits, 0, "{l}");
}

#[test]
fn shell_strikes_a_wooden_construction_with_troops_in_it_but_not_brick() {
    let with = |kind: &str| {
        Scen::new()
            .gun("red", "g1", "0608", "N", &[])
            .inf("blue", "b1", "0605", "S", &[])
            .raw(&format!("[[works]]\nhex = \"0605\"\nkind = \"{kind}\""))
            .option("constructions", "on")
            .start_with(&[])
    };
    // 4 dice at b1 in the wooden building (soft cover, 5+): one hit, the test die misses;
    // then the building: the same 4 attacks hitting on 6, one hit (it has no save).
    let mut g = with("wooden-building");
    let e = play(&mut g, "fire g1 b1 shell", &[5, 1, 1, 1, 1, 6, 1, 1, 1]);
    let l = log(&e);
    assert!(
        l.contains("the wooden-building in 0605: 4 attacks needing 6: rolled [6, 1, 1, 1], 1 hit"),
        "{l}"
    );
    // A brick building lends its save of 5 but shell leaves the building alone.
    let mut g = with("brick-building");
    let e = play(&mut g, "fire g1 b1 shell", &[5, 1, 1, 1, 1, 1, 1]);
    assert!(!log(&e).contains("brick-building in"), "{}", log(&e));
}

#[test]
fn shrapnel_after_1845_adds_an_attack_a_gun() {
    let mut g = Scen::new()
        .gun("red", "g1", "0608", "N", &[("stands", "2")])
        .inf("blue", "b1", "0605", "S", &[])
        .option("shrapnel", "on")
        .start_with(&[]);
    // 3 × 2 guns + 1 half range + 2 shrapnel: 9 dice.
    let e = play(&mut g, "fire g1 b1 shell", &[1; 9]);
    assert!(log(&e).contains("+2 shrapnel"), "{}", log(&e));
    assert!(log(&e).contains("9 dice"), "{}", log(&e));
    // Round shot is not shrapnel.
    let mut g = Scen::new()
        .gun("red", "g1", "0608", "N", &[("stands", "2")])
        .inf("blue", "b1", "0605", "S", &[])
        .option("shrapnel", "on")
        .start_with(&[]);
    let e = play(&mut g, "fire g1 b1", &[1; 7]);
    assert!(!log(&e).contains("shrapnel"), "{}", log(&e));
}

// Howitzers and mortars.

#[test]
fn howitzers_fire_shell_only_and_plain_fire_means_shell() {
    let mut g = Scen::new()
        .gun(
            "red",
            "h1",
            "0608",
            "N",
            &[("traits", "[\"howitzer\"]"), ("canister", "[3, 10]")],
        )
        .inf("blue", "b1", "0605", "S", &[])
        .start_with(&[]);
    let o = orders::read("fire h1 b1", &g.units).unwrap();
    assert_eq!(orders::write(o, &g.units), "fire h1 b1 shell");
    assert!(refused(&mut g, "fire h1 b1 shot").contains("shell only"));
    assert!(refused(&mut g, "canister h1 b1").contains("shell only"));
    // The hit die 2 lands on the aiming point; 3 dice, no half-range die.
    let e = play(&mut g, "fire h1 b1", &[2, 4, 4, 1, 1, 1]);
    let l = log(&e);
    assert!(l.contains("on the aiming point"), "{l}");
    assert!(l.contains("3 dice"), "{l}");
    assert_eq!(g.units[k(&g, "b1")].turn_hits, 2);
}

#[test]
fn howitzer_shell_harms_only_targets_in_the_open_smoothbore_reading_a_wall_as_open() {
    // Behind a wall (soft cover, read one step easier): attacked as in the open.
    let mut g = Scen::new()
        .gun("red", "h1", "0608", "N", &[("traits", "[\"howitzer\"]")])
        .inf("blue", "b1", "0605", "S", &[])
        .map("hexsides = [{ between = [\"0605\", \"0606\"], kind = \"wall\" }]")
        .start_with(&[]);
    let e = play(&mut g, "fire h1 b1", &[1, 4, 1, 1, 1]);
    assert!(log(&e).contains("needing 4+"), "{}", log(&e));
    assert_eq!(g.units[k(&g, "b1")].turn_hits, 1);
    // In a fort (hard cover, read as soft): no effect at all.
    let rows = with_row(5, ". . . . . F . . . . . .");
    let rows: Vec<&str> = rows.iter().map(|s| s.as_str()).collect();
    let mut g = Scen::new()
        .rows(&rows)
        .gun("red", "h1", "0608", "N", &[("traits", "[\"howitzer\"]")])
        .inf("blue", "b1", "0605", "S", &[])
        .start_with(&[]);
    let e = play(&mut g, "fire h1 b1", &[1]);
    assert!(log(&e).contains("no effect"), "{}", log(&e));
    assert_eq!(g.units[k(&g, "b1")].turn_hits, 0);
}

#[test]
fn mortars_fire_over_units_and_an_unseen_target_adds_a_deviation_die() {
    let mut g = Scen::new()
        .gun("red", "m1", "0608", "N", &[("traits", "[\"mortar\"]")])
        .gun("red", "g1", "0508", "N", &[])
        .inf("red", "r1", "0607", "N", &[])
        .inf("blue", "b1", "0605", "S", &[])
        .inf("blue", "b2", "0604", "S", &[])
        .command();
    let m1 = k(&g, "m1");
    assert!(g.units[m1].traits.no_manhandle && g.units[m1].traits.no_half_range);
    // r1 hides b1 from the mortar; a gun would not fire over it.
    assert!(!rules_bpt_commander::table::Table::sees(
        &g,
        m1,
        k(&g, "b1")
    ));
    // The order's roll (1+2), the hit die 5: it deviates; direction 1 (straight on, away
    // from the mortar); 15 cm away: 2 dice, +1 unseen: 1+1+1 = 3 cm, one hex on, into b2.
    // 3 dice at b2: one hit, the test die misses.
    let e = play(&mut g, "fire m1 b1", &[1, 2, 5, 1, 1, 1, 1, 4, 1, 1, 1]);
    let l = log(&e);
    assert!(l.contains("3 dice (target unseen)"), "{l}");
    assert!(l.contains("lands in 0604"), "{l}");
    assert_eq!(g.units[k(&g, "b1")].turn_hits, 0, "{l}");
    assert_eq!(g.units[k(&g, "b2")].turn_hits, 1, "{l}");
}

#[test]
fn a_target_behind_a_wall_saves_on_4_against_a_mortar() {
    let mut g = Scen::new()
        .gun("red", "m1", "0608", "N", &[("traits", "[\"mortar\"]")])
        .inf("blue", "b1", "0605", "S", &[])
        .map("hexsides = [{ between = [\"0605\", \"0606\"], kind = \"wall\" }]")
        .start_with(&[]);
    // On target; 3 dice at 4+ (the wall read one step easier): two hits; b1 has no save of
    // its own but saves on 4 against the mortar, a line with a die more: one saved.
    let e = play(&mut g, "fire m1 b1", &[1, 4, 4, 1, 4, 1, 1, 1]);
    let l = log(&e);
    assert!(l.contains("over a wall, saves 4+"), "{l}");
    assert!(l.contains("1 saved"), "{l}");
    assert_eq!(g.units[k(&g, "b1")].turn_hits, 1, "{l}");
}

// High Angle Direct Fire: deviation.

#[test]
fn deviation_rolls_a_die_per_5_cm_and_goes_its_total_along_the_direction_die() {
    // Direction 2 is one hexside clockwise of straight on: north-east of the aiming point.
    let ne = toward("0605", Facing::NE, 2);
    let mut g = Scen::new()
        .hqs("blue", &[hq("bhq", 8, "1201", true)])
        .gun("red", "h1", "0608", "N", &[("traits", "[\"howitzer\"]")])
        .inf("blue", "b1", "0605", "S", &[])
        .inf("blue", "b2", &ne, "S", &[])
        .start_with(&[]);
    // Hit die 4: deviates; direction 2; 15 cm away: 2 dice, 4 + 4 = 8 cm: two hexes.
    let e = play(&mut g, "fire h1 b1", &[4, 2, 4, 4, 4, 4, 1, 1, 1]);
    let l = log(&e);
    assert!(l.contains("2 dice [4, 4] = 8 cm"), "{l}");
    assert_eq!(g.units[k(&g, "b1")].turn_hits, 0, "{l}");
    assert_eq!(g.units[k(&g, "b2")].turn_hits, 2, "{l}");
}

#[test]
fn a_shell_deviating_off_the_table_or_into_water_is_lost() {
    let mut g = Scen::new()
        .hqs("blue", &[hq("bhq", 8, "1212", true)])
        .gun("red", "h1", "0603", "N", &[("traits", "[\"howitzer\"]")])
        .inf("blue", "b1", "0601", "S", &[])
        .start_with(&[]);
    // Straight on 3 cm from the edge row: off the table.
    let e = play(&mut g, "fire h1 b1", &[6, 1, 3]);
    assert!(log(&e).contains("off the table, lost"), "{}", log(&e));
    assert_eq!(g.units[k(&g, "b1")].turn_hits, 0);
    let rows = with_row(4, ". . . . . ~ . . . . . .");
    let rows: Vec<&str> = rows.iter().map(|s| s.as_str()).collect();
    let mut g = Scen::new()
        .rows(&rows)
        .hqs("blue", &[hq("bhq", 8, "1201", true)])
        .gun("red", "h1", "0608", "N", &[("traits", "[\"howitzer\"]")])
        .inf("blue", "b1", "0605", "S", &[])
        .start_with(&[]);
    let e = play(&mut g, "fire h1 b1", &[6, 1, 3, 1]);
    assert!(
        log(&e).contains("in wet ground at 0604, lost"),
        "{}",
        log(&e)
    );
}

#[test]
fn without_the_hit_die_every_high_angle_shell_deviates() {
    let mut g = Scen::new()
        .hqs("blue", &[hq("bhq", 8, "1201", true)])
        .gun("red", "h1", "0608", "N", &[("traits", "[\"howitzer\"]")])
        .inf("blue", "b1", "0605", "S", &[])
        .option("deviation", "always")
        .start_with(&[]);
    // No hit die: direction 4 (back towards the gun), 1 + 1 = 2 cm: still the target's hex.
    let e = play(&mut g, "fire h1 b1", &[4, 1, 1, 4, 1, 1, 1]);
    let l = log(&e);
    assert!(
        l.contains("direction 4, 2 dice [1, 1] = 2 cm: lands in 0605"),
        "{l}"
    );
    assert_eq!(g.units[k(&g, "b1")].turn_hits, 1, "{l}");
}

// Counter-Battery Fire.

#[test]
fn guns_may_fire_on_initiative_at_the_nearest_artillery_instead_of_the_nearest_unit() {
    let ne = toward("0608", Facing::NE, 1);
    let scen = Scen::new()
        .gun("red", "g1", "0608", "N", &[])
        .inf("blue", "b1", &ne, "SW", &[])
        .gun("blue", "bg", "0605", "S", &[])
        .inf("blue", "b3", "0602", "S", &[]);
    let mut g = scen.start_with(&[]);
    // b1 is nearest (5 cm); bg, 15 cm away, is the nearest artillery.
    let e = play(&mut g, "fire g1 bg", &[1, 1, 1, 1]);
    assert!(log(&e).contains("fires at bg"), "{}", log(&e));
    // Infantry has no such choice; nor may guns pick a farther unit that is not artillery.
    let mut g = scen.clone().start_with(&[]);
    assert!(refused(&mut g, "fire g1 b3").contains("nearest"));
    // Ordered fire with order_fire = nearest: the same choice.
    let mut g = scen.clone().option("order_fire", "nearest").command();
    play(&mut g, "order rhq g1", &[1, 2]);
    play(&mut g, "fire g1 bg", &[1, 1, 1, 1]);
}

// Air Burst Shell Fire.

#[test]
fn air_burst_is_an_option_a_die_fewer_and_every_target_as_in_the_open() {
    let scen = Scen::new()
        .gun("red", "g1", "0608", "N", &[])
        .inf("blue", "b1", "0605", "S", &[])
        .map("hexsides = [{ between = [\"0605\", \"0606\"], kind = \"wall\" }]");
    let mut g = scen.start_with(&[]);
    assert!(refused(&mut g, "fire g1 b1 airburst").contains("optional rule"));
    let mut g = scen.clone().option("air_burst", "on").start_with(&[]);
    // 3 + 1 half range - 1 air burst: 3 dice, 4+ behind the wall.
    let e = play(&mut g, "fire g1 b1 airburst", &[4, 1, 1, 1]);
    let l = log(&e);
    assert!(l.contains("-1 air burst"), "{l}");
    assert!(l.contains("3 dice"), "{l}");
    assert!(l.contains("needing 4+"), "{l}");
    assert_eq!(g.units[k(&g, "b1")].turn_hits, 1);
}

#[test]
fn air_burst_only_over_open_ground_and_howitzers_reach_hard_cover_with_it() {
    let woods = with_row(5, ". . . . . W . . . . . .");
    let woods: Vec<&str> = woods.iter().map(|s| s.as_str()).collect();
    let mut g = Scen::new()
        .rows(&woods)
        .gun("red", "g1", "0608", "N", &[])
        .inf("blue", "b1", "0605", "S", &[])
        .option("air_burst", "on")
        .start_with(&[]);
    assert!(refused(&mut g, "fire g1 b1 airburst").contains("open ground"));
    let fort = with_row(5, ". . . . . F . . . . . .");
    let fort: Vec<&str> = fort.iter().map(|s| s.as_str()).collect();
    let mut g = Scen::new()
        .rows(&fort)
        .gun("red", "h1", "0608", "N", &[("traits", "[\"howitzer\"]")])
        .inf("blue", "b1", "0605", "S", &[])
        .option("air_burst", "on")
        .start_with(&[]);
    // On target; 3 - 1 = 2 dice at 4+ against the fort.
    let e = play(&mut g, "fire h1 b1 airburst", &[1, 4, 4, 1, 1]);
    assert!(log(&e).contains("needing 4+"), "{}", log(&e));
    assert_eq!(g.units[k(&g, "b1")].turn_hits, 2);
}

// Field Artillery Officers.

fn batteries(guns: usize) -> Scen {
    let mut s = Scen::new().hqs(
        "red",
        &[
            hq("rhq", 8, "0610", true),
            "{ id = \"fao\", name = \"fao\", value = 8, hex = \"0609\", traits = { fao = 1 } }"
                .to_string(),
        ],
    );
    for i in 0..guns {
        s = s.gun(
            "red",
            &format!("g{}", i + 1),
            &format!("{:02}08", i + 2),
            "N",
            &[],
        );
    }
    s.inf("red", "r1", "0111", "N", &[])
        .inf("blue", "b1", "0601", "S", &[])
        .inf("blue", "b2", "0101", "S", &[])
}

#[test]
fn one_field_artillery_officer_needs_six_artillery_units() {
    let five = batteries(5);
    let e = rules_bpt_commander::scenario::load(
        &volley_core::ScenarioSource::new("t.toml", five.text()),
        &five.options,
    )
    .expect_err("refused");
    assert!(e.to_string().contains("need 6 artillery units"), "{e}");
    assert!(batteries(6).load().units.iter().any(|u| u.fao));
}

#[test]
fn a_field_artillery_officer_orders_grand_batteries_of_touching_guns_only() {
    let g = batteries(6).command();
    let mut g = g.clone();
    // One gun alone is no grand battery; infantry is not artillery; g1 and g3 do not touch.
    assert!(refused(&mut g, "order fao g1").contains("grand batteries only"));
    play(&mut g, "join r1", &[]);
    assert!(refused(&mut g, "order fao g1").contains("artillery only"));
    let mut g = batteries(6).command();
    play(&mut g, "join g1", &[]);
    assert!(refused(&mut g, "order fao g3").contains("touch"));
    // An action given without an order never goes to the FAO.
    let g = batteries(6).command();
    let g1 = k(&g, "g1");
    assert_eq!(g.implicit_hq(g1), Some(k(&g, "rhq")));
}

#[test]
fn a_grand_battery_fires_at_one_target_as_one_attack() {
    let mut g = batteries(6).command();
    play(&mut g, "join g5", &[]);
    play(&mut g, "order fao g4", &[1, 2]);
    assert!(refused(&mut g, "form g4 line").contains("grand battery"));
    // g5 (0608): 3 dice at b1 35 cm away, one hit, the test die suppresses it.
    play(&mut g, "fire g5 b1", &[4, 1, 1, 4]);
    let b1 = k(&g, "b1");
    assert!(g.units[b1].is_suppressed());
    let why = refused(&mut g, "fire g4 b2");
    assert!(why.contains("one target"), "{why}");
    // g4 (0508): its hits belong to the same attack, so b1 does not fall back.
    let e = play(&mut g, "fire g4 b1", &[4, 4, 1]);
    assert_eq!(g.units[b1].turn_hits, 3, "{}", log(&e));
    assert_eq!(g.units[b1].hex, hex("0601"));
}

// Regimental Artillery.

#[test]
fn regimental_guns_add_a_howitzer_shell_to_the_regiments_fire() {
    let mut g = duel(&[("regimental_guns", "1")], &[]).start_with(&[]);
    // The muskets: 4 dice, one hit, the test die misses. The regiment's howitzer: on target
    // (hit die 1), one die, a hit; the test die misses.
    let e = play(&mut g, "fire r1 b1", &[4, 1, 1, 1, 1, 1, 4, 1]);
    let l = log(&e);
    assert!(l.contains("regimental howitzers fire shell"), "{l}");
    assert_eq!(g.units[k(&g, "b1")].turn_hits, 2, "{l}");
    // Only infantry drags regimental guns.
    let bad = Scen::new().cav("red", "c1", "0608", "N", &[("regimental_guns", "1")]);
    let e = rules_bpt_commander::scenario::load(
        &volley_core::ScenarioSource::new("t.toml", bad.text()),
        &bad.options,
    )
    .expect_err("refused");
    assert!(e.to_string().contains("infantry regiment"), "{e}");
}

#[test]
fn the_exact_odds_of_a_deviating_shell_add_up_to_one() {
    let g = Scen::new()
        .gun("red", "h1", "0608", "N", &[("traits", "[\"howitzer\"]")])
        .inf("blue", "b1", "0605", "S", &[])
        .inf("blue", "b2", "0604", "S", &[])
        .start_with(&[]);
    let a = g.parse_action("fire h1 b1").unwrap();
    let cases = g.odds_cases(a).expect("counted");
    let total: f64 = cases.iter().map(|c| c.probability).sum();
    assert!((total - 1.0).abs() < 1e-9, "{total}");
    // Every case's dice play out without a fault.
    for c in cases.iter().take(40) {
        let mut h = g.clone();
        let mut d = ScriptedDice::new(c.dice.iter().copied());
        h.apply(a, &mut d).unwrap();
        assert_eq!(d.remaining(), 0, "{:?}", c.dice);
    }
}

/// Both sides with every artillery rule at once: howitzers, mortars, field guns, an FAO over
/// six guns, a regiment with its own guns; air burst and shrapnel on.
fn every_artillery_rule() -> Scen {
    let fao = |id: &str, hex: &str, co: &str, co_hex: &str| {
        vec![
            hq(co, 8, co_hex, true),
            format!("{{ id = \"{id}\", name = \"{id}\", value = 7, hex = \"{hex}\", traits = {{ fao = 1 }} }}"),
        ]
    };
    let mut s = Scen::new()
        .hqs("red", &fao("rfao", "0611", "rhq", "0612"))
        .hqs("blue", &fao("bfao", "0602", "bhq", "0601"))
        .option("air_burst", "on")
        .option("shrapnel", "on");
    for (side, row, facing) in [("red", 10, "N"), ("blue", 3, "S")] {
        let p = &side[..1];
        for c in 0..6 {
            let traits = match c {
                0 => "[\"howitzer\"]",
                1 => "[\"mortar\"]",
                _ => "[\"cover_shift\"]",
            };
            let canister = if c < 2 { "-" } else { "[3, 10]" };
            s = s.gun(
                side,
                &format!("{p}g{c}"),
                &format!("{:02}{row:02}", c + 4),
                facing,
                &[("traits", traits), ("canister", canister)],
            );
        }
        let inf_row = if side == "red" { row - 2 } else { row + 2 };
        s = s
            .inf(
                side,
                &format!("{p}r1"),
                &format!("05{inf_row:02}"),
                facing,
                &[("regimental_guns", "1")],
            )
            .inf(
                side,
                &format!("{p}r2"),
                &format!("08{inf_row:02}"),
                facing,
                &[],
            )
            .cav(
                side,
                &format!("{p}c1"),
                &format!("02{inf_row:02}"),
                facing,
                &[],
            );
    }
    s
}

#[test]
fn random_games_with_every_artillery_rule_keep_their_invariants() {
    use rand::{Rng, SeedableRng};
    let base = every_artillery_rule().load();
    let mut seen = std::collections::BTreeMap::<String, usize>::new();
    for seed in 0..12u64 {
        let mut g = base.clone();
        let mut dice = volley_core::SeededDice::new(volley_core::Seed::from_u64(seed));
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        g.start(&mut dice);
        let mut steps = 0;
        while g.to_decide().is_some() && steps < 4000 {
            let legal = g.legal_actions();
            assert!(!legal.is_empty());
            // Mostly attacks, so that shells fly.
            let attacks: Vec<_> = legal
                .iter()
                .copied()
                .filter(|&a| g.describe(a).kind == volley_core::ActionKind::Attack)
                .collect();
            let pool = if !attacks.is_empty() && rng.random_bool(0.7) {
                &attacks
            } else {
                &legal
            };
            let a = pool[rng.random_range(0..pool.len())];
            let text = g.notation(a);
            assert_eq!(g.parse_action(&text), Ok(a), "{text}");
            let events = g
                .apply(a, &mut dice)
                .unwrap_or_else(|e| panic!("{text}: {}", e.0));
            for e in events {
                *seen.entry(e.rule.to_string()).or_default() += 1;
            }
            g.check_invariants()
                .unwrap_or_else(|e| panic!("seed {seed} after {text}: {e}"));
            steps += 1;
        }
    }
    for rule in [
        "bpt-commander High Angle Direct Fire",
        "bpt-commander Air Burst Shell Fire",
        "bpt-commander Shell",
        "bpt-commander Regimental Artillery",
    ] {
        assert!(seen.contains_key(rule), "no {rule} in {seen:?}");
    }
}

#[test]
fn a_gun_with_limited_indirect_fire_shells_a_target_only_a_friend_sees() {
    // r1 stands between the gun and b1: the gun cannot see b1, r1 can.
    let scen = |traits: &str| {
        Scen::new()
            .gun("red", "i1", "0608", "N", &[("traits", traits)])
            .inf("red", "r1", "0607", "N", &[])
            .inf("blue", "b1", "0605", "S", &[])
            .inf("blue", "b2", "0604", "S", &[])
            .command()
    };
    let mut g = scen("[]");
    play(&mut g, "order rhq i1", &[1, 2]);
    assert!(refused(&mut g, "fire i1 b1 shell").contains("cannot see"));
    let mut g = scen("[\"indirect\"]");
    // Round shot still needs sight; shell goes over at high angle, with the unseen die.
    play(&mut g, "order rhq i1", &[1, 2]);
    assert!(refused(&mut g, "fire i1 b1").contains("cannot see"));
    // The hit die 5: it deviates; direction 1 (straight on); 15 cm: 2 dice, +1 unseen:
    // 1+1+1 = 3 cm, one hex on, into b2, whose attack dice all miss.
    let e = play(&mut g, "fire i1 b1 shell", &[5, 1, 1, 1, 1, 1, 1, 1, 1]);
    let l = log(&e);
    assert!(l.contains("3 dice (target unseen)"), "{l}");
    assert!(l.contains("lands in 0604"), "{l}");
    assert_eq!(g.units[k(&g, "b1")].turn_hits, 0, "{l}");
}
