//! Sections 7 m–o (hits), 7.5 (routing), 7.5.1 (rout and passing through), 8 (rally) and 6
//! (no commander on a unit routed this turn).

mod common;

use common::*;
use volley_core::geometry::Facing;
use volley_core::Event;

/// A spare unit a side, far away and worth many points, so phases are never empty and no
/// loss comes near a break point.
fn spares() -> String {
    unit("r9", "red", "infantry", "1010", "S", "points = 100")
        + &unit("b9", "blue", "infantry", "0101", "N", "points = 100")
}

/// Blue is phasing and red fires in its non-phasing fire phase: a blue unit red routs stays
/// where its first rout move left it until blue's next turn.
fn red_fires_at_blue(changes: &[(&str, &str)], units: &str) -> HexCommandGame {
    let mut g = setup_map("", changes, "", &(units.to_string() + &spares()));
    g.at_fire(Side::Red, false);
    g
}

/// r1 at 0508 facing N fires point blank at b1 (0507, facing S, two hits).
fn point_blank(blue_arm: &str, blue_extra: &str, more: &str) -> HexCommandGame {
    let mut g = red_fires_at_blue(
        &[],
        &(unit("r1", "red", "infantry", "0508", "N", "")
            + &unit("b1", "blue", blue_arm, "0507", "S", blue_extra)
            + more),
    );
    g.um("b1").hits = 2;
    g
}

fn of_kind<'a>(events: &'a [Event], kind: &str) -> Vec<&'a Event> {
    events.iter().filter(|e| e.kind == kind).collect()
}

#[test]
fn rout_after_third_casualty_hit() {
    let mut g = point_blank("infantry", "", "");
    g.um("b1").hits = 1;
    g.play("fire r1 0507", &[]);
    assert_eq!(g.u("b1").hits, 2);
    assert!(!g.u("b1").routed, "two hits do not rout");
    let mut g = point_blank("infantry", "", "");
    let events = g.play("fire r1 0507", &[]);
    let b1 = g.u("b1");
    assert!(b1.routed && b1.active());
    assert_eq!((b1.hits, b1.routed_turn), (3, 1));
    let hit = of_kind(&events, "hit");
    assert_eq!(hit[0].rule, "hex-command 7 m");
    assert!(hit[0].text.contains("3/3 hits"), "{}", hit[0].text);
    let rout = of_kind(&events, "rout");
    assert!(rout.iter().all(|e| e.rule == "hex-command 7.5"));
    // A routed unit has no zone of control.
    assert!(!g.state.has_zoc(g.idx("b1")));
}

#[test]
fn rare_unit_routs_on_fourth_hit() {
    let mut g = point_blank(
        "infantry",
        "rare = true",
        &unit("r2", "red", "infantry", "0607", "NW", ""),
    );
    let events = g.play("fire r1 0507", &[]);
    assert!(of_kind(&events, "hit")[0].text.contains("3/4 hits"));
    assert!(!g.u("b1").routed);
    g.play("fire r2 0507", &[]);
    assert_eq!(g.u("b1").hits, 4);
    assert!(g.u("b1").routed);
}

#[test]
fn routed_unit_turns_about_and_runs_three_hexes() {
    let mut g = point_blank("infantry", "", "");
    let events = g.play("fire r1 0507", &[]);
    let b1 = g.u("b1");
    assert_eq!(b1.facing, Facing::N, "it turns about");
    assert_eq!(b1.hex, h("0504"), "three hexes straight to its new front");
    assert!(b1.moved_this_turn);
    assert!(of_kind(&events, "rout")
        .iter()
        .any(|e| e.text == "b1 routs 0507→0504"));
}

#[test]
fn routed_cavalry_and_artillery_run_four() {
    let mut g = point_blank("cavalry", "", "");
    g.play("fire r1 0507", &[]);
    assert_eq!(g.u("b1").hex, h("0503"));
    let mut g = point_blank("artillery", "", "");
    assert!(!g.u("b1").limbered);
    g.play("fire r1 0507", &[]);
    let b1 = g.u("b1");
    assert_eq!(b1.hex, h("0503"));
    assert!(b1.limbered, "guns routed by fire limber up and go");
    assert_eq!(b1.guns_at(), None, "and are not abandoned");
}

#[test]
fn routed_unit_keeps_running_in_its_movement_phase() {
    let units = unit("b1", "blue", "infantry", "0507", "N", "") + &spares();
    let mut g = setup("", &[], &units);
    {
        let b1 = g.um("b1");
        b1.routed = true;
        b1.routed_turn = 1;
        b1.hits = 3;
    }
    // Red's melee phase ends its turn; blue's turn opens with the rout move.
    g.at(Side::Red, Phase::Melee);
    let events = g.play("end", &[]);
    assert_eq!(
        (g.state.phasing(), g.state.phase),
        (Side::Blue, Phase::Movement)
    );
    assert_eq!(g.u("b1").hex, h("0504"));
    assert!(of_kind(&events, "rout")
        .iter()
        .any(|e| e.text == "b1 routs 0507→0504" && e.rule == "hex-command 7.5"));
    assert!(
        !g.legal_texts().iter().any(|t| t.starts_with("move b1")),
        "a routed unit moves only by rout"
    );
}

#[test]
fn routing_through_a_friend_gives_it_a_te_hit() {
    let mut g = point_blank(
        "infantry",
        "",
        &unit("b2", "blue", "infantry", "0506", "S", ""),
    );
    let events = g.play("fire r1 0507", &[]);
    assert_eq!(
        g.u("b1").hex,
        h("0504"),
        "through b2 to 0505, then on to 0504"
    );
    assert_eq!(g.u("b2").te, 1);
    assert_eq!(g.u("b2").hex, h("0506"));
    let te = of_kind(&events, "te");
    assert_eq!(te[0].rule, "hex-command 7.5.1");
    assert_eq!(te[0].units, vec!["b2".to_string()]);
}

#[test]
fn routing_into_friends_without_room_destroys() {
    let mut g = point_blank(
        "infantry",
        "",
        &(unit("b2", "blue", "infantry", "0506", "S", "")
            + &unit("b3", "blue", "infantry", "0505", "S", "")),
    );
    let events = g.play("fire r1 0507", &[]);
    assert_eq!(
        g.u("b1").fate,
        Fate::Destroyed,
        "two units deep: nowhere to go"
    );
    assert_eq!(g.u("b2").te, 0);
    let d = of_kind(&events, "destroyed");
    assert_eq!(d[0].rule, "hex-command 7.5");
    assert!(d[0].text.contains("no room"), "{}", d[0].text);
    // Routing cavalry cannot pass through cavalry (7.5.1), room or not.
    let mut g = point_blank(
        "cavalry",
        "",
        &unit("b2", "blue", "cavalry", "0506", "S", ""),
    );
    g.play("fire r1 0507", &[]);
    assert_eq!(g.u("b1").fate, Fate::Destroyed);
    // ... nor through guns.
    let mut g = point_blank(
        "cavalry",
        "",
        &unit("b2", "blue", "artillery", "0506", "N", ""),
    );
    g.play("fire r1 0507", &[]);
    assert_eq!(g.u("b1").fate, Fate::Destroyed);
    // Infantry may pass through guns.
    let mut g = point_blank(
        "infantry",
        "",
        &unit("b2", "blue", "artillery", "0506", "N", ""),
    );
    g.play("fire r1 0507", &[]);
    assert_eq!(g.u("b1").hex, h("0504"));
}

#[test]
fn routing_into_enemy_zone_destroys() {
    // r2 at 0604 facing SW covers 0505, the second hex of b1's rout.
    let mut g = point_blank(
        "infantry",
        "",
        &unit("r2", "red", "infantry", "0604", "SW", ""),
    );
    let events = g.play("fire r1 0507", &[]);
    assert_eq!(g.u("b1").fate, Fate::Destroyed);
    assert!(of_kind(&events, "destroyed")[0]
        .text
        .contains("routed into an enemy zone of control at 0505"));
    // An enemy with a hit has no zone: the rout goes on.
    let mut g = point_blank(
        "infantry",
        "",
        &unit("r2", "red", "infantry", "0604", "SW", ""),
    );
    g.um("r2").hits = 1;
    g.play("fire r1 0507", &[]);
    assert_eq!(g.u("b1").hex, h("0504"));
}

#[test]
fn routed_unit_sidesteps_impassable_ground_unless_that_nears_the_enemy() {
    // Water at 0505: b1 follows it round to the side that is no nearer red.
    let mut g = setup_map(
        "",
        &[("0505", "~")],
        "",
        &(unit("r1", "red", "infantry", "0508", "N", "")
            + &unit("b1", "blue", "infantry", "0507", "S", "")
            + &spares()),
    );
    g.um("b1").hits = 2;
    g.at_fire(Side::Red, false);
    g.play("fire r1 0507", &[]);
    let b1 = g.u("b1");
    assert!(b1.active() && b1.routed);
    // 0506, then round the water to 0405 (no nearer r1 than 0506), then on north to 0404.
    assert_eq!(
        b1.hex,
        h("0404"),
        "{}",
        volley_core::geometry::label(b1.hex)
    );
    assert_eq!(b1.facing, Facing::N);
}

#[test]
fn routing_off_the_map_loses_the_unit() {
    let mut g = red_fires_at_blue(
        &[],
        &(unit("r1", "red", "infantry", "0503", "N", "")
            + &unit("b1", "blue", "infantry", "0502", "S", "")),
    );
    g.um("b1").hits = 2;
    let events = g.play("fire r1 0502", &[]);
    assert_eq!(g.u("b1").fate, Fate::LeftField);
    assert!(of_kind(&events, "rout")
        .iter()
        .any(|e| e.text.contains("routs off the map from 0501")));
    assert!((g.state.losses_percent(Side::Blue) - 100.0 * 10.0 / 110.0).abs() < 1e-9);
}

#[test]
fn hit_on_routed_unit_eliminates_it() {
    let mut g = red_fires_at_blue(
        &[],
        &(unit("r1", "red", "infantry", "0508", "N", "")
            + &unit("b1", "blue", "infantry", "0506", "N", "")),
    );
    {
        let b1 = g.um("b1");
        b1.routed = true;
        b1.hits = 3;
    }
    // Range 2 needs Color; a routed unit's back gives no flank bonus.
    let events = g.play("fire r1 0506", &[4]);
    assert_eq!(g.u("b1").fate, Fate::Destroyed);
    let d = of_kind(&events, "destroyed");
    assert!(d[0].text.contains("while routing (7 o)"), "{}", d[0].text);
}

/// Blue's movement phase in turn 2 with b1 at 0505 and the commander B1 free.
fn blue_to_rally(options: &str, b1_extra: &str, more: &str) -> HexCommandGame {
    let units = unit("b1", "blue", "infantry", "0505", "N", b1_extra) + more + &spares();
    let mut g = setup(options, &[], &units);
    g.state.turn = 2;
    g.at(Side::Blue, Phase::Movement);
    g
}

#[test]
fn rally_method_a_removes_all_markers() {
    let mut g = blue_to_rally("", "", "");
    {
        let b1 = g.um("b1");
        b1.routed = true;
        b1.routed_turn = 1;
        b1.hits = 3;
        b1.te = 2;
    }
    g.play("attach B1 b1", &[]);
    // The rest of blue's turn is empty; the rally ends it and red's turn begins.
    let events = g.play("end", &[]);
    let b1 = g.u("b1");
    assert_eq!((b1.hits, b1.te, b1.routed), (0, 0, false));
    // 8 c: blue chooses the facing before red's turn begins.
    assert_eq!(g.state.phase, Phase::Decision);
    assert_eq!(g.to_decide(), Some(Side::Blue));
    let mut faces = g.legal_texts();
    faces.sort();
    assert_eq!(faces.len(), 6, "{faces:?}");
    g.play("face b1 SE", &[]);
    assert_eq!(g.u("b1").facing, Facing::SE, "faced as its owner chose");
    assert_eq!(
        (g.state.phasing(), g.state.phase),
        (Side::Red, Phase::Movement)
    );
    let r = of_kind(&events, "rally");
    assert_eq!(r[0].rule, "hex-command 8 a");
    assert!(r[0].text.contains("no longer routed"), "{}", r[0].text);
    assert_eq!(g.state.phasing(), Side::Red);
}

#[test]
fn rally_method_b_removes_one_hit() {
    let mut g = blue_to_rally("rally = \"incremental\"", "", "");
    {
        let b1 = g.um("b1");
        b1.hits = 2;
        b1.te = 2;
    }
    g.play("attach B1 b1", &[]);
    let events = g.play("end", &[]);
    assert_eq!((g.u("b1").hits, g.u("b1").te), (1, 0), "one hit and all TE");
    assert_eq!(of_kind(&events, "rally")[0].rule, "hex-command 8 b");
    // A routed unit with three hits rallies with two left.
    let mut g = blue_to_rally("rally = \"incremental\"", "", "");
    {
        let b1 = g.um("b1");
        b1.routed = true;
        b1.routed_turn = 1;
        b1.hits = 3;
    }
    g.play("attach B1 b1", &[]);
    g.play("end", &[]);
    assert_eq!((g.u("b1").hits, g.u("b1").routed), (2, false));
}

#[test]
fn rally_method_c_self_rallies_marked_units() {
    let more = unit("b2", "blue", "infantry", "0705", "N", "");
    let mut g = blue_to_rally("rally = \"self\"", "self_rally = true", &more);
    for id in ["b1", "b2"] {
        let u = g.um(id);
        u.hits = 2;
        u.te = 1;
    }
    let events = g.play("end", &[]);
    assert_eq!(
        (g.u("b1").hits, g.u("b1").te),
        (1, 1),
        "one hit, without a commander"
    );
    assert_eq!(
        (g.u("b2").hits, g.u("b2").te),
        (2, 1),
        "b2 needs a commander"
    );
    let r = of_kind(&events, "rally");
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].rule, "hex-command 8 c");
    // Without method c, self_rally means nothing.
    let mut g = blue_to_rally("rally = \"incremental\"", "self_rally = true", "");
    g.um("b1").hits = 2;
    g.play("end", &[]);
    assert_eq!(g.u("b1").hits, 2);
}

#[test]
fn no_rally_in_melee() {
    let more = unit("r1", "red", "infantry", "0506", "N", "");
    let mut g = blue_to_rally("", "", &more);
    g.um("b1").facing = Facing::S;
    g.um("b1").hits = 1;
    let (r1, b1) = (g.idx("r1"), g.idx("b1"));
    g.state.melees.push(Melee {
        attacker: r1,
        defender: b1,
        rounds: 1,
    });
    g.play("attach B1 b1", &[]);
    // Blue's melee round: r1 3 against b1 3 (-1 hit, +1 commander); both blue.
    let events = g.play("end", &[1, 1]);
    assert!(of_kind(&events, "melee")[0]
        .text
        .contains("b1 (3: base 3, -1 hits, +1 commander)"));
    assert!(of_kind(&events, "rally").is_empty());
    assert_eq!((g.u("b1").hits, g.u("b1").te), (1, 1));
}

#[test]
fn commander_cannot_attach_to_unit_routed_this_turn() {
    // Red routs b1 in its own phasing fire; blue's turn follows in the same game turn.
    let units = unit("r1", "red", "infantry", "0508", "N", "")
        + &unit("b1", "blue", "infantry", "0507", "S", "")
        + &spares();
    let mut g = setup("", &[], &units);
    g.um("b1").hits = 2;
    g.at_fire(Side::Red, true);
    g.play("fire r1 0507", &[]);
    assert_eq!(
        (g.state.phasing(), g.state.phase),
        (Side::Blue, Phase::Movement)
    );
    assert_eq!(
        g.u("b1").hex,
        h("0501"),
        "routed on, in its own movement phase"
    );
    let legal = g.legal_texts();
    assert!(!legal.contains(&"attach B1 b1".to_string()), "{legal:?}");
    assert!(legal.contains(&"attach B1 b9".to_string()));
    g.refused("attach B1 b1");
    // Next turn it may.
    g.state.turn = 2;
    assert!(g.legal_texts().contains(&"attach B1 b1".to_string()));
}
