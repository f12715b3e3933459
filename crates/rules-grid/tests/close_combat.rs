//! Close Combat: flank and rear, uphill and downhill, into forest and towns, withdrawal of engaged
//! units (3), cavalry evading infantry (4), occupying a vacated tile (5). One test per rule, with
//! scripted dice and exact results. Maps are square unless a test says hex; labels are column then
//! row ("0304" = column 3, row 4).

mod common;

use common::*;
use volley_core::{Game, Side};

#[test]
fn close_combat_flank_attack_adds_one() {
    let mut g = contact_game();
    play(&mut g, "move r1 0304", &[]);
    play(&mut g, "move r1 0303", &[]);
    let events = play(&mut g, "attack r1 0203", &[4, 4, 6]);
    assert_eq!(events[0].rule, "grid-rules-v1.1 Close Combat Process 4");
    assert_eq!(
        events[0].text,
        "r1 (line infantry) attacks b1 (line infantry) at 0203: rolled 4+4 +1 flank attack = 9 on the line infantry close combat table: 2 hits."
    );
}

#[test]
fn close_combat_rear_attack_adds_one() {
    let mut g = melee(
        &rows(&open(5, 5)),
        ("line_infantry", "0304", "N"),
        ("line_infantry", "0303", "N"),
    );
    let events = play(&mut g, "attack r1 0303", &[3, 3, 6]);
    assert!(
        events[0].text.ends_with(
            "rolled 3+3 +1 rear attack = 7 on the line infantry close combat table: 1 hit."
        ),
        "{}",
        events[0].text
    );
}

#[test]
fn close_combat_downhill_adds_one_and_uphill_subtracts_one() {
    let map = [". .1 .", ". . .", ". . ."];
    let mut g = melee(
        &map,
        ("line_infantry", "0201", "S"),
        ("line_infantry", "0202", "N"),
    );
    let events = play(&mut g, "attack r1 0202", &[3, 3, 6]);
    assert!(
        events[0]
            .text
            .contains("rolled 3+3 +1 attacking downhill = 7"),
        "{}",
        events[0].text
    );
    let mut g = melee(
        &map,
        ("line_infantry", "0202", "N"),
        ("line_infantry", "0201", "S"),
    );
    let events = play(&mut g, "attack r1 0201", &[3, 3, 6]);
    assert!(
        events[0].text.ends_with(
            "rolled 3+3 -1 attacking uphill = 5 on the line infantry close combat table: 1 hit."
        ),
        "{}",
        events[0].text
    );
}

#[test]
fn close_combat_into_forest_or_built_up_area_subtracts_one() {
    for (code, name) in [("W", "woods"), ("T", "town")] {
        let map = [format!(". {code} ."), ". . .".into(), ". . .".into()];
        let mut g = melee(
            &rows(&map),
            ("cavalry", "0202", "N"),
            ("line_infantry", "0201", "S"),
        );
        let events = play(&mut g, "attack r1 0201", &[3, 3, 6]);
        assert!(
            events[0].text.ends_with(&format!(
                "rolled 3+3 -1 attacking into {name} = 5 on the cavalry close combat table: 1 hit."
            )),
            "{}",
            events[0].text
        );
    }
}

/// Blue's b1 attacks red's r1 in blue's player-turn, so r1 starts red's engaged with b1;
/// red's r2 has a shot of its own, so red's ranged phase is played.
fn engaged_r1(options: &str) -> Box<dyn Game> {
    let s = scenario(
        "square",
        &rows(&open(5, 6)),
        &[
            unit("r1", "red", "line_infantry", "0304", "N"),
            unit("r2", "red", "line_infantry", "0205", "N"),
            unit("b1", "blue", "line_infantry", "0303", "S"),
            unit("b2", "blue", "line_infantry", "0104", "S"),
        ],
        options,
    );
    let mut g = start(&s, &[2, 6]);
    play(&mut g, "end", &[]);
    play(&mut g, "end", &[]);
    // The only attack ends blue's close combat, and so blue's player-turn.
    play(&mut g, "attack b1 0304", &[1, 1]);
    assert_eq!(g.to_decide(), Some(Side::Red));
    assert!(unit_view(&*g, "r1").flags.contains(&"engaged".into()));
    g
}

#[test]
fn close_combat_an_engaged_unit_moves_freely_and_leaving_is_its_withdrawal() {
    let mut g = engaged_r1("");
    assert!(refused(&mut g, "withdraw r1 0305").contains("withdraws by moving away"));
    let events = play(&mut g, "move r1 0305", &[]);
    assert_eq!(events[0].rule, "grid-rules-v1.1 Close Combat 3");
    assert_eq!(
        events[0].text,
        "r1 moves out of close combat with b1: it has withdrawn and may not attack it this turn."
    );
    assert!(unit_view(&*g, "r1").flags.contains(&"withdrew".into()));
    play(&mut g, "end", &[]);
    assert_eq!(g.view(None).phase, "red ranged attacks");
    assert!(refused(&mut g, "fire r1 0303").contains(
        "r1 withdrew from close combat with b1 this turn and may not attack it in any way (Close Combat 3)"
    ));
}

#[test]
fn close_combat_engaged_unit_may_withdraw_and_then_not_attack() {
    // The option that holds engaged units: they may only stay or withdraw.
    let mut g = engaged_r1("[options]\nengaged_units = \"held\"\n");
    assert!(refused(&mut g, "move r1 0305").contains(
        "engaged in close combat: it may withdraw one tile or stay (Close Combat 3; option engaged_units = held)"
    ));
    assert!(refused(&mut g, "withdraw r1 0204").contains("next to an enemy"));
    let events = play(&mut g, "withdraw r1 0305", &[]);
    assert_eq!(events[0].rule, "grid-rules-v1.1 Close Combat 3");
    assert_eq!(
        events[0].text,
        "r1 withdraws from close combat with b1 to 0305, and may not attack it this turn."
    );
    assert!(unit_view(&*g, "r1").flags.contains(&"withdrew".into()));
    play(&mut g, "end", &[]);
    // Not by fire either: r2 may fire at b1, r1 may not.
    assert_eq!(legal(&*g), ["fire r2 0303", "fire r2 0104", "end"]);
    assert!(refused(&mut g, "fire r1 0303").contains("may not attack it in any way"));
}

#[test]
fn close_combat_units_not_engaged_may_not_withdraw() {
    let mut g = open_field("square");
    assert!(refused(&mut g, "withdraw r1 0304").contains("was not engaged in close combat"));
}

#[test]
fn close_combat_cavalry_may_withdraw_from_infantry_and_attacker_occupies() {
    let mut g = melee(
        &rows(&open(5, 5)),
        ("line_infantry", "0304", "N"),
        ("cavalry", "0303", "S"),
    );
    let events = play(&mut g, "attack r1 0303", &[]);
    assert_eq!(events[0].rule, "grid-rules-v1.1 Close Combat 4");
    // A decision put to blue in the middle of red's turn, and the prompt says what it is.
    assert_eq!(g.to_decide(), Some(Side::Blue));
    let v = g.view(Some(Side::Blue));
    assert_eq!(v.phasing, Some(Side::Red));
    assert!(v.interrupt());
    assert_eq!(
        v.prompt.as_deref(),
        Some("Blue: b1 is attacked by r1 — withdraw a tile or stand and take the attack (Close Combat 4)")
    );
    let choices = legal(&*g);
    assert_eq!(
        choices,
        [
            "stand b1",
            "withdraw b1 0302",
            "withdraw b1 0403",
            "withdraw b1 0203"
        ]
    );
    play(&mut g, "withdraw b1 0302", &[]);
    assert_eq!(tile(&*g, "b1"), "0302");
    assert_eq!(g.to_decide(), Some(Side::Red));
    assert!(!g.view(None).interrupt());
    assert_eq!(g.view(None).phase, "red advance after close combat");
    let events = play(&mut g, "occupy r1 0303", &[]);
    assert_eq!(events[0].rule, "grid-rules-v1.1 Close Combat 5");
    assert_eq!(tile(&*g, "r1"), "0303");
}

/// Red line infantry r1 in 0304 facing N, blue `kind` b1 next to it in 0303 facing S, on
/// an open 5 × 5 square grid: red's ranged attack phase of game-turn 1.
fn facing_red_infantry_at_range_one(kind: &str) -> Box<dyn Game> {
    let s = scenario(
        "square",
        &rows(&open(5, 5)),
        &[
            unit("r1", "red", "line_infantry", "0304", "N"),
            unit("b1", "blue", kind, "0303", "S"),
        ],
        "",
    );
    let mut g = start(&s, &[6, 1]);
    play(&mut g, "end", &[]);
    assert_eq!(g.view(None).phase, "red ranged attacks");
    g
}

#[test]
fn close_combat_a_unit_that_fired_may_still_attack_in_the_same_turn() {
    // Each attack is once a turn; firing does not use up the close combat attack.
    let mut g = facing_red_infantry_at_range_one("line_infantry");
    let events = play(&mut g, "fire r1 0303", &[1, 1]);
    assert_eq!(
        events[0].text,
        "r1 fires at b1 (line infantry) at 0303, range 1 (band 1-2): rolled 1+1 = 2 on the line infantry table: 0 hits."
    );
    assert_eq!(g.view(None).phase, "red close combat");
    let events = play(&mut g, "attack r1 0303", &[4, 4, 6]);
    assert_eq!(
        events[0].text,
        "r1 (line infantry) attacks b1 (line infantry) at 0303: rolled 4+4 = 8 on the line infantry close combat table: 2 hits."
    );
    assert_eq!(strength(&*g, "b1"), 3);
}

#[test]
fn close_combat_4_and_5_are_for_close_combat_not_ranged_fire() {
    // Infantry fire on cavalry: no choice to withdraw (Close Combat 4 is for close combat
    // attacks), and when the cavalry retreats the firer may not occupy its tile (Close
    // Combat 5 is for close combat attackers).
    let mut g = facing_red_infantry_at_range_one("cavalry");
    let events = play(&mut g, "fire r1 0303", &[6, 6, 1]);
    assert!(
        events.iter().all(|e| e.kind != "evade"),
        "{}",
        texts(&events)
    );
    let lines: Vec<&str> = events.iter().map(|e| e.text.as_str()).collect();
    assert_eq!(
        lines[1..],
        [
            "b1 takes 3 hits from 1 unit: strength 4 → 1.",
            "b1 at 0303 rolls 1 (retreat): it retreats one tile to 0203; strength now 1.",
            "Game-turn 1: red close combat.",
            "Game-turn 1: red advance after close combat.",
            "Game-turn 1: blue movement (0 of 1 unit moved).",
        ]
    );
    // The advance phase offered r1 nothing and passed: 0303 stays empty.
    assert_eq!(tile(&*g, "b1"), "0203");
    assert_eq!(tile(&*g, "r1"), "0304");
    assert!(legal(&*g).contains(&"move b1 0303".to_string()));
}

#[test]
fn close_combat_cavalry_that_stands_takes_the_attack() {
    let mut g = melee(
        &rows(&open(5, 5)),
        ("line_infantry", "0304", "N"),
        ("cavalry", "0303", "S"),
    );
    play(&mut g, "attack r1 0303", &[]);
    let events = play(&mut g, "stand b1", &[4, 4, 6]);
    assert!(
        events[1]
            .text
            .ends_with("rolled 4+4 = 8 on the line infantry close combat table: 2 hits."),
        "{}",
        events[1].text
    );
}

#[test]
fn close_combat_attacker_may_occupy_a_tile_vacated_by_retreat() {
    let mut g = contact_game();
    play(&mut g, "move r1 0304", &[]);
    play(&mut g, "move r1 0303", &[]);
    // The only attack ends the close combat phase: the hits are resolved at once.
    let events = play(&mut g, "attack r1 0203", &[4, 4, 1]);
    assert!(
        texts(&events).contains(
            "b1 at 0203 rolls 1 (retreat): it retreats one tile to 0103; strength now 4."
        ),
        "{}",
        texts(&events)
    );
    assert_eq!(legal(&*g), ["occupy r1 0203", "end"]);
    play(&mut g, "occupy r1 0203", &[]);
    assert_eq!(tile(&*g, "r1"), "0203");
    assert!(unit_view(&*g, "r1").flags.contains(&"facing W".into()));
}
