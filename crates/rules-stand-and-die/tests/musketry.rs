//! Musketry: the chance table, whole chances and the d10 for the fraction, the rear bonus,
//! which troops fire, and how guns take casualties; and `volley odds` walking a volley's dice
//! exactly, with the falling back it causes.

mod common;

use common::*;
use volley_core::geometry::{hex_at, label, step, Facing};
use volley_core::odds::odds;
use volley_core::Side;

/// Red `firers` in 0303 facing S at blue `target` in 0304 facing N.
fn face_to_face(firers: &[String], target: &[String], extra: &str) -> Box<dyn volley_core::Game> {
    let units: Vec<String> = firers.iter().chain(target).cloned().collect();
    let mut g = started(&scenario(&OPEN_8X8, extra, &units), 1);
    to_musketry(&mut g, Side::Red);
    g
}

/// Ten red infantry in 0303 fire at ten standing blue infantry in 0304, whose hex is `cell`
/// (a map cell: terrain code and any height); the figures lost and the volley's events.
fn ten_infantry_at_standing_troops_on(cell: &str, extra: &str) -> (u32, Vec<volley_core::Event>) {
    let mut rows = OPEN_8X8.map(String::from);
    rows[3] = format!(". . {cell} . . . . .");
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let units = [
        unit("red", "r1", "infantry", 10, "0303", "S"),
        standing("blue", "b1", "infantry", 10, "0304", "N"),
    ];
    let mut g = started(&scenario(&rows, extra, &units), 1);
    to_musketry(&mut g, Side::Red);
    let events = play(&mut g, "fire 0303 0304");
    (10 - figures(&*g, "b1").unwrap(), events)
}

#[test]
fn seven_infantry_at_a_standing_enemy_kill_two_and_roll_a_d10_for_the_third() {
    let firers = [unit("red", "r1", "infantry", 7, "0303", "S")];
    let target = [standing("blue", "b1", "infantry", 10, "0304", "N")];

    let mut g = face_to_face(&firers, &target, "");
    let events = play_with(&mut g, "fire 0303 0304", &[1]);
    assert_eq!(
        events[0].text,
        "0303 fires at 0304 (standing): 7 infantry × 0.3 = 2.1 → 2 casualties, d10 rolled 1 ≤ 1 → +1 = 3"
    );
    assert_eq!(events[0].rule, "stand-and-die musketry");
    assert_eq!(events[1].text, "b1 infantry (b1) loses 3 figures: 10 → 7");
    assert_eq!(figures(&*g, "b1"), Some(7));

    let mut g = face_to_face(&firers, &target, "");
    let events = play_with(&mut g, "fire 0303 0304", &[2]);
    assert!(
        events[0].text.ends_with("d10 rolled 2 > 1 → 2"),
        "{}",
        events[0].text
    );
    assert_eq!(figures(&*g, "b1"), Some(8));
}

#[test]
fn every_whole_chance_is_a_casualty_without_a_roll() {
    let mut g = face_to_face(
        &[unit("red", "r1", "infantry", 10, "0303", "S")],
        &[standing("blue", "b1", "infantry", 10, "0304", "N")],
        "",
    );
    let events = play_with(&mut g, "fire 0303 0304", &[]);
    assert_eq!(
        events[0].text,
        "0303 fires at 0304 (standing): 10 infantry × 0.3 = 3.0 → 3 casualties, no fraction to roll for"
    );
    assert_eq!(figures(&*g, "b1"), Some(7));
}

#[test]
fn chance_table_per_arm_and_target_state() {
    // (arm, [standing, falling back, standing in cover, falling back in cover]) in tenths:
    // ten firing figures make each entry a whole number of casualties.
    let table = [
        ("infantry", [3, 1, 1, 0]),
        ("cavalry", [4, 4, 3, 2]),
        ("artillery", [11, 3, 6, 1]),
    ];
    let extra = "[options]\nhex_capacity = 30\ngun_room = 1\n";
    for (arm, expected) in table {
        for (column, (stands, terrain)) in [(true, '.'), (false, '.'), (true, 'W'), (false, 'W')]
            .into_iter()
            .enumerate()
        {
            let mut rows = OPEN_8X8.map(String::from);
            rows[3] = format!(". . {terrain} . . . . .");
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            let target = if stands {
                standing("blue", "b1", "infantry", 20, "0304", "N")
            } else {
                unit("blue", "b1", "infantry", 20, "0304", "N")
            };
            let units = [unit("red", "r1", arm, 10, "0303", "S"), target];
            let mut g = started(&scenario(&rows, extra, &units), 1);
            to_musketry(&mut g, Side::Red);
            play(&mut g, "fire 0303 0304");
            assert_eq!(
                figures(&*g, "b1"),
                Some(20 - expected[column]),
                "{arm}, column {column}"
            );
        }
    }
}

#[test]
fn cover_is_woods_light_woods_town_fort_and_rough() {
    for (code, cover) in [
        ('W', true),
        ('w', true),
        ('T', true),
        ('F', true),
        ('r', true),
        ('.', false),
        ('m', false),
        ('M', false),
        ('=', false),
    ] {
        let (lost, _) = ten_infantry_at_standing_troops_on(&code.to_string(), "");
        assert_eq!(lost, if cover { 1 } else { 3 }, "terrain {code}");
    }
}

#[test]
fn walls_hedges_and_fences_give_cover_from_fire_across_them() {
    for kind in ["wall", "hedge", "fence"] {
        // b1 at 0404 behind a hedge on its N hexside (towards 0403); r1 fires across it,
        // r2 from 0504, across open ground.
        let units = [
            unit("red", "r1", "infantry", 10, "0403", "S"),
            unit("red", "r2", "infantry", 10, "0504", "SW"),
            standing("blue", "b1", "infantry", 20, "0404", "N"),
        ];
        let text = scenario(&OPEN_8X8, "[options]\nhex_capacity = 20\n", &units).replace(
            "[map]\n",
            &format!(
                "[map]\nhexsides = [{{ between = [\"0403\", \"0404\"], kind = \"{kind}\" }}]\n"
            ),
        );
        let mut g = started(&text, 1);
        to_musketry(&mut g, Side::Red);
        let events = play(&mut g, "fire 0403 0404");
        assert_eq!(
            events[0].text,
            format!("0403 fires at 0404 (standing in cover, behind a {kind}): 10 infantry × 0.1 = 1.0 → 1 casualty, no fraction to roll for")
        );
        let events = play(&mut g, "fire 0504 0404");
        assert!(
            events[0]
                .text
                .starts_with("0504 fires at 0404 (standing): 10 infantry × 0.3 = 3.0"),
            "{}",
            events[0].text
        );
    }
}

#[test]
fn fire_through_the_rear_three_hexsides_adds_per_figure() {
    // Target faces N; fire arriving through SE, S or SW comes from its rear.
    let target = hex_at(4, 4);
    let extra = "[options]\nhex_capacity = 30\ngun_room = 1\n";
    for (arm, front, rear) in [("infantry", 3, 4), ("cavalry", 4, 6), ("artillery", 11, 16)] {
        for side in Facing::ALL {
            let from = step(target, side);
            let units = [
                unit("red", "r1", arm, 10, &label(from), side.opposite().name()),
                standing("blue", "b1", "infantry", 20, "0404", "N"),
            ];
            let mut g = started(&scenario(&OPEN_8X8, extra, &units), 1);
            to_musketry(&mut g, Side::Red);
            let events = play(&mut g, &format!("fire {} 0404", label(from)));
            let from_rear = side.difference(Facing::N) >= 2;
            let lost = 20 - figures(&*g, "b1").unwrap();
            assert_eq!(
                lost,
                if from_rear { rear } else { front },
                "{arm} from {side}"
            );
            assert_eq!(events[0].text.contains("from its rear"), from_rear);
        }
    }
    let mut g = face_to_face(
        &[unit("red", "r1", "infantry", 7, "0303", "S")],
        &[standing("blue", "b1", "infantry", 10, "0304", "S")],
        "",
    );
    let events = play_with(&mut g, "fire 0303 0304", &[8]);
    assert_eq!(
        events[0].text,
        "0303 fires at 0304 (standing, from its rear): 7 infantry × (0.3 + 0.1 rear) = 2.8 → 2 casualties, d10 rolled 8 ≤ 8 → +1 = 3"
    );
}

#[test]
fn a_hex_adds_the_chances_of_all_its_arms() {
    let mut g = face_to_face(
        &[
            unit("red", "r1", "infantry", 8, "0303", "S"),
            unit("red", "r2", "artillery", 2, "0303", "S"),
        ],
        &[standing("blue", "b1", "infantry", 10, "0304", "N")],
        "",
    );
    let events = play_with(&mut g, "fire 0303 0304", &[6]);
    assert_eq!(
        events[0].text,
        "0303 fires at 0304 (standing): 8 infantry × 0.3 = 2.4 + 2 guns × 1.1 = 2.2 = 4.6 → 4 casualties, d10 rolled 6 ≤ 6 → +1 = 5"
    );
    assert_eq!(figures(&*g, "b1"), Some(5));
}

#[test]
fn only_troops_facing_the_target_fire_and_each_hex_fires_once() {
    let mut g = face_to_face(
        &[
            unit("red", "r1", "infantry", 10, "0303", "N"),
            unit("red", "r2", "infantry", 10, "0203", "SE"),
        ],
        &[standing("blue", "b1", "infantry", 10, "0304", "N")],
        "",
    );
    assert!(refused(&mut g, "fire 0303 0304").contains("face N"));
    assert!(refused(&mut g, "fire 0203 0305").contains("no enemy"));
    play(&mut g, "fire 0203 0304");
    assert!(refused(&mut g, "fire 0203 0304").contains("already fired"));
    assert!(refused(&mut g, "fire 0304 0203").contains("red has no troops"));
}

#[test]
fn all_troops_next_to_the_enemy_fire_whatever_their_facing_as_an_option() {
    // r1 faces N, away from b1 in 0304: by default it may not fire; with fire_arc =
    // "all-round" every troop next to the enemy fires, and the volley is the usual one.
    let firers = [unit("red", "r1", "infantry", 7, "0303", "N")];
    let target = [standing("blue", "b1", "infantry", 10, "0304", "N")];
    let mut g = face_to_face(&firers, &target, "");
    assert!(refused(&mut g, "fire 0303 0304").contains("face N"));

    let mut g = face_to_face(&firers, &target, "[options]\nfire_arc = \"all-round\"\n");
    let action = g.parse_action("fire 0303 0304").unwrap();
    assert!(g.legal_actions().contains(&action));
    let events = play_with(&mut g, "fire 0303 0304", &[1]);
    assert_eq!(
        events[0].text,
        "0303 fires at 0304 (standing): 7 infantry × 0.3 = 2.1 → 2 casualties, d10 rolled 1 ≤ 1 → +1 = 3"
    );
    assert_eq!(figures(&*g, "b1"), Some(7));
    assert!(refused(&mut g, "fire 0303 0304").contains("already fired"));
}

#[test]
fn cover_on_any_terrain_but_level_open_ground_is_an_option() {
    // Ten infantry at a standing target: 3 casualties in the open, 1 in cover.
    for (cell, cover) in [
        ("m", true),
        ("M", true),
        ("r", true),
        ("W", true),
        (".1", true),
        (".", false),
        ("=", false),
        ("f", false),
    ] {
        for (extra, covered) in [
            ("", cover && !matches!(cell, "m" | "M" | ".1")),
            ("[options]\ncover = \"any-terrain\"\n", cover),
        ] {
            let (lost, events) = ten_infantry_at_standing_troops_on(cell, extra);
            assert_eq!(lost, if covered { 1 } else { 3 }, "{cell} {extra}");
            if cell == ".1" && covered {
                assert_eq!(
                    events[0].text,
                    "0303 fires at 0304 (standing in cover, on a hill): 10 infantry × 0.1 = 1.0 → 1 casualty, no fraction to roll for"
                );
            }
        }
    }
}

#[test]
fn musketry_reaches_adjacent_hexes_only() {
    let mut g = face_to_face(
        &[unit("red", "r1", "infantry", 10, "0302", "S")],
        &[standing("blue", "b1", "infantry", 10, "0304", "N")],
        "",
    );
    assert!(refused(&mut g, "fire 0302 0304").contains("neither next to"));
}

#[test]
fn casualties_are_spread_over_the_infantry_in_the_hex() {
    let mut g = face_to_face(
        &[unit("red", "r1", "infantry", 10, "0303", "S")],
        &[
            standing("blue", "b1", "infantry", 5, "0304", "N"),
            unit("blue", "b2", "infantry", 4, "0304", "N"),
        ],
        "",
    );
    play(&mut g, "fire 0303 0304");
    assert_eq!((figures(&*g, "b1"), figures(&*g, "b2")), (Some(3), Some(3)));
}

#[test]
fn guns_take_casualties_only_when_no_infantry_shares_their_hex() {
    let mut g = face_to_face(
        &[unit("red", "r1", "infantry", 10, "0303", "S")],
        &[
            standing("blue", "b1", "infantry", 2, "0304", "N"),
            unit("blue", "b2", "artillery", 2, "0304", "N"),
        ],
        "",
    );
    let events = play(&mut g, "fire 0303 0304");
    assert_eq!(
        texts(&events[1..]),
        [
            "b1 infantry (b1) loses 2 figures: 2 → 0, and is gone",
            "b2 artillery (b2) takes 1 casualty with no infantry in 0304: guns in action 2 → 2, one with 1 casualty of its 2",
        ]
    );
    assert_eq!(events[1].kind, "eliminated");
    assert_eq!(figures(&*g, "b1"), None);
    let guns = g.view(None).unit("b2").unwrap().clone();
    assert_eq!((guns.strength, guns.hits, guns.max_hits), (Some(2), 1, 2));
}

#[test]
fn guns_are_out_of_action_after_two_casualties() {
    let mut g = face_to_face(
        &[standing("red", "r1", "infantry", 10, "0303", "S")],
        &[standing("blue", "b1", "artillery", 2, "0304", "N")],
        "",
    );
    let events = play(&mut g, "fire 0303 0304");
    assert_eq!(
        events[1].text,
        "b1 artillery (b1) takes 3 casualties with no infantry in 0304: guns in action 2 → 1, one with 1 casualty of its 2"
    );
    // Only the gun still in action fires back.
    play(&mut g, "end");
    play(&mut g, "end");
    assert_eq!(g.view(None).phase, "blue musketry");
    let events = play_with(&mut g, "fire 0304 0303", &[5]);
    assert_eq!(
        events[0].text,
        "0304 fires at 0303 (standing): 1 gun × 1.1 = 1.1 → 1 casualty, d10 rolled 5 > 1 → 1"
    );
    assert_eq!(figures(&*g, "r1"), Some(9));
}

fn odds_of(firers: u32) -> Vec<(String, f64)> {
    let units = [
        unit("red", "r1", "infantry", firers, "0303", "S"),
        standing("blue", "b1", "infantry", 10, "0304", "N"),
    ];
    let mut g = started(&scenario(&OPEN_8X8, "", &units), 1);
    to_musketry(&mut g, Side::Red);
    let action = g.parse_action("fire 0303 0304").unwrap();
    let o = odds(&*g, action, None).expect("fire is legal");
    assert!(o.exact);
    o.outcomes
        .into_iter()
        .map(|l| (l.outcome, l.probability))
        .collect()
}

#[test]
fn odds_of_ten_and_seven_infantry_at_a_standing_enemy_in_the_open() {
    let ten = odds_of(10);
    assert_eq!(ten.len(), 1);
    assert_eq!(ten[0].0, "0304 b1 infantry: loses 3");
    assert!((ten[0].1 - 1.0).abs() < 1e-9);

    let seven = odds_of(7);
    assert_eq!(seven.len(), 2);
    assert_eq!(seven[0].0, "0304 b1 infantry: loses 2");
    assert!((seven[0].1 - 0.9).abs() < 1e-9);
    assert_eq!(seven[1].0, "0304 b1 infantry: loses 3");
    assert!((seven[1].1 - 0.1).abs() < 1e-9);
}

#[test]
fn odds_of_fire_weigh_the_fall_back_it_causes_at_the_end_of_the_musketry() {
    // Blue in woods, not Standing: seven infantry have no chance at troops that will fall
    // back in cover, yet the volley still drives them back one hex.
    let mut rows = OPEN_8X8;
    rows[3] = ". . W . . . . .";
    let units = [
        unit("red", "r1", "infantry", 7, "0303", "S"),
        unit("blue", "b1", "infantry", 10, "0304", "N"),
    ];
    let mut g = started(&scenario(&rows, "", &units), 1);
    to_musketry(&mut g, Side::Red);
    let action = g.parse_action("fire 0303 0304").unwrap();
    let o = odds(&*g, action, None).expect("fire is legal");
    let lines: Vec<(&str, f64)> = o
        .outcomes
        .iter()
        .map(|l| (l.outcome.as_str(), l.probability))
        .collect();
    assert_eq!(lines, [("0304 b1 infantry: to 0305", 1.0)]);
    // Out of cover, 0.1 a man: 0.7, one d10; a casualty on 1-7, and the hex falls back.
    let units = [
        unit("red", "r1", "infantry", 7, "0303", "S"),
        unit("blue", "b1", "infantry", 10, "0304", "N"),
    ];
    let mut g = started(&scenario(&OPEN_8X8, "", &units), 1);
    to_musketry(&mut g, Side::Red);
    let o = odds(&*g, action, None).expect("fire is legal");
    assert_eq!(o.outcomes.len(), 2);
    assert_eq!(o.outcomes[0].outcome, "0304 b1 infantry: loses 1, to 0305");
    assert!((o.outcomes[0].probability - 0.7).abs() < 1e-9);
    assert_eq!(o.outcomes[1].outcome, "0304 b1 infantry: to 0305");
    // The odds moved nothing: b1 falls back only when red's musketry ends.
    assert_eq!(hex_of(&*g, "b1"), "0304");
}
