//! Section 2 (commanders: combat value, death, capture), section 6 (attaching), Rules by
//! Sequence 1–2 (removing commanders, army integrity) and the hand-out's Break Point
//! paragraph (a lost supreme commander).

mod common;

use common::*;
use volley_core::geometry::Facing;
use volley_core::Event;

const R1: usize = 0;
const B1: usize = 1;

fn spares() -> String {
    unit("r9", "red", "infantry", "1010", "S", "points = 100")
        + &unit("b9", "blue", "infantry", "0101", "N", "points = 100")
}

/// A second commander each side keeps back, so that losing the first does not leave a side
/// with every commander lost (an integrity check of its own, Rules by Sequence 2).
fn with_reserves(mut g: HexCommandGame) -> HexCommandGame {
    for (c, id) in [(R1, "R2"), (B1, "B2")] {
        let mut spare = g.state.commanders[c].clone();
        spare.id = id.into();
        spare.supreme = false;
        g.state.commanders.push(spare);
        let (at, fallen) = (g.state.posts.at[c], g.state.posts.fallen[c]);
        g.state.posts.at.push(at);
        g.state.posts.fallen.push(fallen);
    }
    g.relist();
    g
}

fn of_kind<'a>(events: &'a [Event], kind: &str) -> Vec<&'a Event> {
    events.iter().filter(|e| e.kind == kind).collect()
}

fn attach(g: &mut HexCommandGame, c: usize, id: &str) {
    let i = g.idx(id);
    g.state.posts.at[c] = Some(i);
    g.um(id).commander = Some(c);
}

#[test]
fn commanders_removed_at_start_of_phasing_turn() {
    let units = unit("r1", "red", "infantry", "0508", "N", "")
        + &unit("b1", "blue", "infantry", "0503", "S", "")
        + &spares();
    let mut g = with_reserves(setup("", &[], &units));
    attach(&mut g, R1, "r1");
    attach(&mut g, B1, "b1");
    // Blue's melee phase ends blue's turn; red's turn begins.
    g.at(Side::Blue, Phase::Melee);
    g.play("end", &[]);
    assert_eq!(
        (g.state.phasing(), g.state.phase),
        (Side::Red, Phase::Movement)
    );
    assert_eq!(g.state.posts.at[R1], None, "red takes its commander back");
    assert_eq!(g.u("r1").commander, None);
    assert_eq!(
        g.state.posts.at[B1],
        Some(g.idx("b1")),
        "blue's stays with its unit through red's turn"
    );
    assert!(g.legal_texts().contains(&"attach R1 r1".to_string()));
    assert_eq!(g.state.posts.fallen[R1], None);
}

#[test]
fn attached_commander_stays_where_it_was_placed() {
    let units = unit("r1", "red", "infantry", "0508", "N", "")
        + &unit("b1", "blue", "infantry", "0503", "S", "")
        + &spares();
    let mut g = with_reserves(setup("", &[], &units));
    g.at(Side::Red, Phase::Movement);
    let events = g.play("attach R1 r1", &[]);
    assert_eq!(of_kind(&events, "attach")[0].rule, "hex-command 6");
    assert!(
        !g.legal_texts().iter().any(|t| t.starts_with("attach R1")),
        "R1 stays where it was placed for the turn"
    );
}

#[test]
fn commander_value_adds_to_melee() {
    let units = unit("r1", "red", "infantry", "0508", "N", "")
        + &unit("b1", "blue", "infantry", "0507", "S", "")
        + &spares();
    let mut g = with_reserves(setup("", &[], &units));
    attach(&mut g, R1, "r1");
    g.at(Side::Red, Phase::Melee);
    // 4 against 3: both blue, so only the weaker b1 takes a TE hit.
    let events = g.play("melee r1 0507", &[1, 1]);
    let m = of_kind(&events, "melee");
    assert!(
        m[0].text.contains("r1 (4: base 3, +1 commander)"),
        "{}",
        m[0].text
    );
    assert_eq!((g.u("r1").hits, g.u("r1").te), (0, 0));
    assert_eq!((g.u("b1").hits, g.u("b1").te), (0, 1));
}

#[test]
fn commander_value_adds_to_fire() {
    let units = unit("r1", "red", "infantry", "0508", "N", "")
        + &unit("b1", "blue", "infantry", "0505", "S", "")
        + &spares();
    let mut g = with_reserves(setup("", &[], &units));
    attach(&mut g, R1, "r1");
    g.at_fire(Side::Red, true);
    // Range 3 is Code; the commander's +1 brings it to Color.
    let events = g.play("fire r1 0505", &[4]);
    assert!(of_kind(&events, "fire")[0]
        .text
        .contains("1 CB commander → needs Color"));
    assert_eq!(g.u("b1").hits, 1);
}

/// r1 at 0508 fires at b1 two hexes off (Color); B1, not supreme, is with b1.
fn shot_at_commander(b1_hits: u8) -> HexCommandGame {
    let units = unit("r1", "red", "infantry", "0508", "N", "")
        + &unit("b1", "blue", "infantry", "0506", "S", "")
        + &spares();
    let mut g = with_reserves(setup("", &[], &units));
    g.state.commanders[B1].supreme = false;
    attach(&mut g, B1, "b1");
    g.um("b1").hits = b1_hits;
    g.at_fire(Side::Red, true);
    g
}

#[test]
fn commander_killed_on_red_star_instead_of_the_hit() {
    let mut g = shot_at_commander(0);
    let events = g.play("fire r1 0506", &[6]);
    assert_eq!(g.u("b1").hits, 0, "no hit is applied to the unit");
    assert_eq!(g.u("b1").commander, None);
    let p = &g.state.posts;
    assert_eq!((p.fallen[B1], p.at[B1]), (Some(Fallen::Killed), None));
    let e = of_kind(&events, "commander");
    assert_eq!(e[0].rule, "hex-command 2 e");
    assert!(e[0].text.contains("Blau is killed"), "{}", e[0].text);
    let view = g.view(None);
    let b = view.sides.iter().find(|s| s.side == Side::Blue).unwrap();
    assert_eq!(b.commanders[0].status, "killed");
    // A plain red is an ordinary hit, and the commander is safe.
    let mut g = shot_at_commander(0);
    g.play("fire r1 0506", &[4]);
    assert_eq!(g.u("b1").hits, 1);
    assert_eq!(g.state.posts.fallen[B1], None);
    // Without a commander the red star is just a hit.
    let mut g = shot_at_commander(0);
    g.state.posts.at[B1] = None;
    g.um("b1").commander = None;
    g.play("fire r1 0506", &[6]);
    assert_eq!(g.u("b1").hits, 1);
}

#[test]
fn commander_captured_when_its_unit_routs() {
    let mut g = shot_at_commander(2);
    let events = g.play("fire r1 0506", &[5]);
    assert!(g.u("b1").routed);
    let p = &g.state.posts;
    assert_eq!((p.fallen[B1], p.at[B1]), (Some(Fallen::Captured), None));
    assert!(of_kind(&events, "commander")[0]
        .text
        .contains("is captured"));
}

#[test]
fn commander_loss_adds_ten_percent_to_losses() {
    let mut g = shot_at_commander(0);
    assert_eq!(g.state.losses_percent(Side::Blue), 0.0);
    g.play("fire r1 0506", &[6]);
    assert_eq!(g.state.losses_percent(Side::Blue), 10.0);
    let view = g.view(Some(Side::Red));
    let b = view.sides.iter().find(|s| s.side == Side::Blue).unwrap();
    assert_eq!(b.losses_percent, 10.0);
    // Captured with a routed unit: the unit's points and the commander's 10%.
    let mut g = shot_at_commander(2);
    g.play("fire r1 0506", &[5]);
    let expected = 100.0 * 10.0 / 110.0 + 10.0;
    assert!((g.state.losses_percent(Side::Blue) - expected).abs() < 1e-9);
}

#[test]
fn supreme_commander_loss_forces_integrity_rolls() {
    // A 10×14 map gives room to fall back six hexes.
    let rows: Vec<String> = (0..14).map(|_| ["."; 10].join(" ")).collect();
    let rows: Vec<&str> = rows.iter().map(|r| r.as_str()).collect();
    let units = unit("r1", "red", "infantry", "0501", "S", "")
        + &unit("r2", "red", "infantry", "0201", "S", "")
        + &unit("b1", "blue", "infantry", "0503", "N", "")
        + &unit("b2", "blue", "infantry", "0803", "N", "");
    let mut g = with_reserves(setup("", &rows, &units));
    attach(&mut g, B1, "b1");
    assert!(g.state.commanders[B1].supreme);
    g.at_fire(Side::Red, true);
    // The red star kills Blau; then each blue unit rolls: b1 red, b2 blue. Red rolls nothing.
    let events = g.play("fire r1 0503", &[6, 4, 2]);
    assert_eq!(g.state.posts.fallen[B1], Some(Fallen::Killed));
    let b1 = g.u("b1");
    assert_eq!(
        b1.hex,
        h("0509"),
        "two turns' march (six hexes) to its rear"
    );
    assert_eq!(b1.facing, Facing::N, "it falls back without turning");
    assert!(b1.moved_this_turn);
    assert_eq!(g.u("b2").hex, h("0803"), "blue holds");
    let rolls = of_kind(&events, "integrity");
    assert_eq!(rolls.len(), 3, "the announcement and one roll a unit");
    assert!(rolls
        .iter()
        .all(|e| e.rule == "hex-command Hand-out: Break Point"));
    assert!(rolls[1]
        .text
        .contains("b1 rolls 4 (Red): withdraws 6 hexes from 0503 to 0509"));
    assert!(rolls[2].text.contains("b2 rolls 2 (Blue): holds"));
    assert!(g.state.sides[Side::Blue.index()].supreme_checked);
    assert!(!g.state.sides[Side::Red.index()].supreme_checked);
}

#[test]
fn supreme_commander_integrity_withdrawal_stops_at_blocked_ground() {
    let units = unit("r1", "red", "infantry", "0501", "S", "")
        + &unit("b1", "blue", "infantry", "0503", "N", "")
        + &unit("b2", "blue", "infantry", "0506", "N", "")
        + &unit("b9", "blue", "infantry", "0101", "S", "points = 100");
    let mut g = with_reserves(setup("", &[], &units));
    attach(&mut g, B1, "b1");
    g.at_fire(Side::Red, true);
    // b1 red: stops behind b2; b2 red: falls back to 0510 and off the map edge; b9 blue.
    g.play("fire r1 0503", &[6, 4, 5, 1]);
    assert_eq!(g.u("b1").hex, h("0505"));
    assert_eq!(g.u("b2").fate, Fate::LeftField);
    assert_eq!(g.u("b9").hex, h("0101"));
}
