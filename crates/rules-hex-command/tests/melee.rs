//! Sections 7.2 (melee), 7.2.1 (several units), 7.3 (the melee process, cover), 7.4 (advance
//! after melee), section 3 and 3.1 (meleeing guns), the melee chart, Optional Rules
//! (Disorder/Fatigued, Melee Points).
//!
//! The rules give no base melee values: by default every fighting unit starts at 3 (a
//! scenario may rate units); most tests here play the `melee_values = "by-arm"` option
//! (cavalry 4, infantry 3, light infantry 2) to have a stronger and a weaker side. Each pair rolls the attacker's die first, then the defender's; 1–3 is blue, 4–6 red.

mod common;

use common::*;
use volley_core::Event;

/// A spare unit a side, far from everything and worth many points, so that neither side's
/// phases are empty and no loss comes near a break point.
fn spares() -> String {
    unit("r9", "red", "infantry", "1010", "S", "points = 100")
        + &unit("b9", "blue", "infantry", "0101", "N", "points = 100")
}

/// Red's melee phase with `red` and `blue` (unit tables) and the spares on the board.
fn melee_phase(options: &str, changes: &[(&str, &str)], units: &str) -> HexCommandGame {
    let mut g = setup_map(options, changes, "", &(units.to_string() + &spares()));
    g.at(Side::Red, Phase::Melee);
    g
}

/// r1 at 0508 facing N against b1 at 0507 facing S: face to face (base values by arm).
fn duel(red_arm: &str, red_extra: &str, blue_arm: &str, blue_extra: &str) -> HexCommandGame {
    melee_phase(
        "melee_values = \"by-arm\"",
        &[],
        &(unit("r1", "red", red_arm, "0508", "N", red_extra)
            + &unit("b1", "blue", blue_arm, "0507", "S", blue_extra)),
    )
}

fn of_kind<'a>(events: &'a [Event], kind: &str) -> Vec<&'a Event> {
    events.iter().filter(|e| e.kind == kind).collect()
}

fn melee_texts(events: &[Event]) -> Vec<String> {
    of_kind(events, "melee")
        .into_iter()
        .map(|e| e.text.clone())
        .collect()
}

fn damage(g: &HexCommandGame, id: &str) -> (u8, u8) {
    (g.u(id).hits, g.u(id).te)
}

#[test]
fn melee_stronger_rolling_red_hits_the_weaker() {
    let mut g = duel("cavalry", "", "infantry", "");
    let events = g.play("melee r1 0507", &[4, 1]);
    assert_eq!(damage(&g, "b1"), (1, 0));
    assert_eq!(damage(&g, "r1"), (0, 0));
    let m = of_kind(&events, "melee");
    assert_eq!(m.len(), 1);
    assert_eq!(m[0].rule, "hex-command 7.3");
    assert!(
        m[0].text.contains("r1 (4: base 4) against b1 (3: base 3)"),
        "{}",
        m[0].text
    );
    assert!(
        m[0].text
            .contains("→ red by the stronger: the weaker takes a hit"),
        "{}",
        m[0].text
    );
    let hit = of_kind(&events, "hit");
    assert_eq!(hit[0].rule, "hex-command 7 m");
    assert_eq!(of_kind(&events, "declare")[0].rule, "hex-command 7.2");
}

#[test]
fn melee_weaker_rolling_red_hits_the_stronger() {
    let mut g = duel("cavalry", "", "infantry", "");
    let events = g.play("melee r1 0507", &[1, 4]);
    assert_eq!(damage(&g, "r1"), (1, 0));
    assert_eq!(damage(&g, "b1"), (0, 0));
    assert!(melee_texts(&events)[0].contains("red by the weaker: the stronger takes a hit"));
}

#[test]
fn melee_both_red_both_hit_and_weaker_takes_te() {
    let mut g = duel("cavalry", "", "infantry", "");
    let events = g.play("melee r1 0507", &[4, 5]);
    assert_eq!(damage(&g, "r1"), (1, 0));
    assert_eq!(damage(&g, "b1"), (1, 1));
    assert!(melee_texts(&events)[0].contains("both red"));
    // The weaker side's TE hit is recorded under the melee rules.
    let te = of_kind(&events, "te");
    assert_eq!(te.len(), 1);
    assert_eq!(te[0].rule, "hex-command 7.3");
    assert_eq!(te[0].units, vec!["b1".to_string()]);
}

#[test]
fn melee_both_blue_weaker_takes_te() {
    // The blue star (3) is still blue.
    let mut g = duel("cavalry", "", "infantry", "");
    let events = g.play("melee r1 0507", &[3, 1]);
    assert_eq!(damage(&g, "r1"), (0, 0));
    assert_eq!(damage(&g, "b1"), (0, 1));
    assert!(melee_texts(&events)[0].contains("both blue: the weaker takes a TE hit"));
    // Here the defender is the stronger.
    let mut g = duel("light-infantry", "", "infantry", "");
    g.play("melee r1 0507", &[2, 2]);
    assert_eq!(damage(&g, "r1"), (0, 1));
    assert_eq!(damage(&g, "b1"), (0, 0));
}

#[test]
fn melee_equal_values_red_is_a_hit_blue_is_te() {
    let mut g = duel("infantry", "", "infantry", "");
    let events = g.play("melee r1 0507", &[4, 2]);
    assert_eq!(damage(&g, "b1"), (1, 0), "r1 rolled red: a hit");
    assert_eq!(damage(&g, "r1"), (0, 1), "b1 rolled blue: a TE hit");
    assert!(melee_texts(&events)[0].contains("equal values"));
    let mut g = duel("infantry", "", "infantry", "");
    g.play("melee r1 0507", &[6, 5]);
    assert_eq!(damage(&g, "b1"), (1, 0));
    assert_eq!(damage(&g, "r1"), (1, 0));
    let mut g = duel("infantry", "", "infantry", "");
    g.play("melee r1 0507", &[1, 3]);
    assert_eq!(damage(&g, "b1"), (0, 1));
    assert_eq!(damage(&g, "r1"), (0, 1));
}

#[test]
fn melee_flank_attack_doubles_results_on_defender() {
    // b1 faces away from r1: r1 strikes its rear (+1, and results on b1 doubled).
    let mut g = duel("infantry", "", "infantry", "");
    g.um("b1").facing = volley_core::geometry::Facing::N;
    let events = g.play("melee r1 0507", &[4, 1]);
    let t = &melee_texts(&events)[0];
    assert!(t.contains("r1 (4: base 3, +1 flank/rear)"), "{t}");
    assert!(t.contains("doubled on the flanked defender"), "{t}");
    assert_eq!(damage(&g, "b1"), (2, 0), "one hit doubled");
    // Both red: the attacker's hit is not doubled, the defender's hit and TE are.
    let mut g = duel("infantry", "", "infantry", "");
    g.um("b1").facing = volley_core::geometry::Facing::N;
    g.play("melee r1 0507", &[4, 4]);
    assert_eq!(damage(&g, "r1"), (1, 0));
    assert_eq!(damage(&g, "b1"), (2, 2));
    // A red by the weaker defender hurts the attacker once.
    let mut g = duel("infantry", "", "infantry", "");
    g.um("b1").facing = volley_core::geometry::Facing::N;
    g.play("melee r1 0507", &[1, 4]);
    assert_eq!(damage(&g, "r1"), (1, 0));
    assert_eq!(damage(&g, "b1"), (0, 0));
}

#[test]
fn melee_friend_past_the_melee_plane_adds_one() {
    // r2 stands beside b1, outside its front: r1 gets +1 and is the stronger.
    let units = unit("r1", "red", "infantry", "0508", "N", "")
        + &unit("r2", "red", "infantry", "0606", "SW", "")
        + &unit("b1", "blue", "infantry", "0507", "S", "");
    let mut g = melee_phase("", &[], &units);
    g.play("melee r1 0507", &[]);
    let events = g.play("end", &[1, 1]);
    let t = &melee_texts(&events)[0];
    assert!(
        t.contains("r1 (4: base 3, +1 friend past the melee plane)"),
        "{t}"
    );
    assert_eq!(damage(&g, "b1"), (0, 1));
    assert_eq!(damage(&g, "r1"), (0, 0));
}

#[test]
fn melee_cover_degrades_each_round() {
    let units = unit("r1", "red", "infantry", "0508", "N", "")
        + &unit("b1", "blue", "infantry", "0507", "S", "");
    let mut g = melee_phase("", &[("0507", "W")], &units);
    // Round 1 (red's melee phase): woods make b1 4 against 3; both blue → r1 a TE hit.
    let events = g.play("melee r1 0507", &[1, 1]);
    let t = &melee_texts(&events)[0];
    assert!(t.contains("b1 (4: base 3, +1 cover)"), "{t}");
    assert_eq!(damage(&g, "r1"), (0, 1));
    assert_eq!(damage(&g, "b1"), (0, 0));
    assert_eq!(g.state.melees[0].rounds, 1);
    // Round 2 comes in blue's melee phase: the cover is gone, values are equal.
    assert_eq!(
        (g.state.phasing(), g.state.phase),
        (Side::Blue, Phase::Movement)
    );
    let events = g.play("end", &[1, 1, 5, 2]);
    let t = &melee_texts(&events)[0];
    assert!(t.contains("against b1 (3: base 3):"), "{t}");
    assert!(!t.contains("cover"), "{t}");
    assert_eq!(damage(&g, "r1"), (0, 2));
    assert_eq!(damage(&g, "b1"), (0, 1));
    assert_eq!(g.state.melees[0].rounds, 2);
    assert_eq!((g.state.turn, g.state.phasing()), (2, Side::Red));
}

#[test]
fn fort_is_double_cover_in_melee() {
    let units = unit("r1", "red", "infantry", "0508", "N", "")
        + &unit("b1", "blue", "infantry", "0507", "S", "");
    let mut g = melee_phase("", &[("0507", "F")], &units);
    let round1 = g.play("melee r1 0507", &[1, 1]);
    assert!(melee_texts(&round1)[0].contains("b1 (5: base 3, +2 cover)"));
    let round2 = g.play("end", &[1, 1, 5, 2]);
    assert!(melee_texts(&round2)[0].contains("b1 (4: base 3, +1 cover)"));
    // Turn 2, red moves first; its movement ends straight into the third round.
    let round3 = g.play("end", &[4, 4]);
    let t = &melee_texts(&round3)[0];
    assert!(
        t.contains("against b1 (3: base 3):") && !t.contains("cover"),
        "{t}"
    );
    assert_eq!(damage(&g, "r1"), (1, 2));
    assert_eq!(damage(&g, "b1"), (1, 0));
}

#[test]
fn melee_continues_each_phase_until_a_unit_routs() {
    let mut g = duel("infantry", "", "infantry", "");
    g.um("b1").hits = 2;
    g.play("melee r1 0507", &[1, 1]);
    assert_eq!(damage(&g, "b1"), (2, 1));
    assert_eq!(g.state.melees.len(), 1, "nobody routed: the melee goes on");
    // In blue's turn both stay locked: neither may move or turn.
    assert!(!g
        .legal_texts()
        .iter()
        .any(|t| t.starts_with("move b1") || t.starts_with("face b1")));
    let events = g.play("end", &[4, 1]);
    assert!(melee_texts(&events)[0].contains("b1 (1: base 3, -2 hits)"));
    assert!(g.u("b1").routed);
    assert!(g.state.melees.is_empty(), "the rout ends the melee");
    assert_eq!(g.state.phase, Phase::Advance);
    assert_eq!(g.to_decide(), Some(Side::Red), "the winner decides");
    assert!(of_kind(&events, "win")
        .iter()
        .any(|e| e.rule == "hex-command 7.4"));
}

#[test]
fn entering_frontal_zone_commits_to_melee_with_all() {
    // r1 steps into 0505, which both b1 (0504, facing S) and b2 (0604, facing SW) cover.
    let units = unit("r1", "red", "infantry", "0506", "N", "")
        + &unit("b1", "blue", "infantry", "0504", "S", "")
        + &unit("b2", "blue", "infantry", "0604", "SW", "");
    let mut g = setup_map("", &[], "", &(units + &spares()));
    g.at(Side::Red, Phase::Movement);
    let events = g.play("move r1 0505", &[]);
    let zoc = of_kind(&events, "zoc");
    assert_eq!(zoc[0].rule, "hex-command 7.2.1");
    assert!(zoc[0].text.contains("b1 b1 and b2 b2"), "{}", zoc[0].text);
    let (r1, b1, b2) = (g.idx("r1"), g.idx("b1"), g.idx("b2"));
    let pairs: Vec<(usize, usize)> = g
        .state
        .melees
        .iter()
        .map(|m| (m.attacker, m.defender))
        .collect();
    assert_eq!(pairs, vec![(r1, b1), (r1, b2)]);
    assert_eq!(g.u("r1").mp, 0, "it stops");
    assert!(!g
        .legal_texts()
        .iter()
        .any(|t| t.starts_with("move r1") || t.starts_with("face r1")));
}

#[test]
fn enemy_with_a_hit_has_no_zone_and_is_not_meleed_by_contact() {
    let units = unit("r1", "red", "infantry", "0506", "N", "")
        + &unit("b1", "blue", "infantry", "0504", "S", "");
    let mut g = setup_map("", &[], "", &(units + &spares()));
    g.um("b1").hits = 1;
    g.at(Side::Red, Phase::Movement);
    g.play("move r1 0505", &[]);
    assert!(g.state.melees.is_empty());
    assert_eq!(g.u("r1").mp, 2, "no zone of control to stop it");
}

#[test]
fn unit_fighting_two_enemies_deals_only_te_to_the_second() {
    let units = unit("r1", "red", "infantry", "0506", "N", "")
        + &unit("b1", "blue", "infantry", "0504", "S", "")
        + &unit("b2", "blue", "infantry", "0604", "SW", "");
    let mut g = setup_map("", &[], "", &(units + &spares()));
    g.at(Side::Red, Phase::Movement);
    g.play("move r1 0505", &[]);
    // Ending movement runs through the empty fire phases into the melee round.
    // r1–b1 (primary for both) roll 1,1; r1–b2 roll 4,4.
    let events = g.play("end", &[1, 1, 4, 4]);
    assert_eq!(melee_texts(&events).len(), 2);
    assert_eq!(
        damage(&g, "b1"),
        (0, 1),
        "both blue, equal: a TE hit each way"
    );
    assert_eq!(
        damage(&g, "b2"),
        (0, 1),
        "r1's red against its second enemy is only a TE hit"
    );
    assert_eq!(
        damage(&g, "r1"),
        (1, 1),
        "b2 fights r1 as its primary: its red is a hit"
    );
}

#[test]
fn cavalry_cannot_melee_into_forest() {
    let mut g = melee_phase(
        "",
        &[("0507", "W")],
        &(unit("r1", "red", "cavalry", "0508", "N", "")
            + &unit("r2", "red", "infantry", "0607", "NW", "")
            + &unit("b1", "blue", "infantry", "0507", "S", "")),
    );
    let legal = g.legal_texts();
    assert!(!legal.contains(&"melee r1 0507".to_string()), "{legal:?}");
    assert!(legal.contains(&"melee r2 0507".to_string()), "infantry may");
    g.refused("melee r1 0507");
    // Entering the zone of a unit in forest stops cavalry but starts no melee (7.2.1).
    let mut g = setup_map(
        "",
        &[("0507", "W")],
        "",
        &(unit("r1", "red", "cavalry", "0509", "N", "")
            + &unit("b1", "blue", "infantry", "0507", "S", "")
            + &spares()),
    );
    g.at(Side::Red, Phase::Movement);
    let events = g.play("move r1 0508", &[]);
    assert!(g.state.melees.is_empty());
    assert_eq!(g.u("r1").mp, 0);
    assert!(of_kind(&events, "zoc")[0]
        .text
        .contains("enters an enemy zone of control at 0508 and stops"));
}

#[test]
fn no_uphill_melee_declared_without_movement_left() {
    let changes = [("0506", ".1")];
    let units = unit("r1", "red", "infantry", "0510", "N", "")
        + &unit("b1", "blue", "infantry", "0506", "S", "")
        + &spares();
    let mut g = setup_map("", &changes, "", &units);
    g.at(Side::Red, Phase::Movement);
    g.play("move r1 0509", &[]);
    g.play("move r1 0508", &[]);
    g.play("move r1 0507", &[]);
    assert_eq!(g.u("r1").mp, 0);
    assert!(g.state.melees.is_empty(), "5 c: no movement left to climb");
    g.state.phase = Phase::Melee;
    assert!(!g.legal_texts().contains(&"melee r1 0506".to_string()));
    // With movement to spare it must melee up the hill.
    let units = unit("r1", "red", "infantry", "0508", "N", "")
        + &unit("b1", "blue", "infantry", "0506", "S", "")
        + &spares();
    let mut g = setup_map("", &changes, "", &units);
    g.at(Side::Red, Phase::Movement);
    g.play("move r1 0507", &[]);
    assert_eq!(g.state.melees.len(), 1);
    // A unit that has not moved may declare against the hill.
    let units = unit("r1", "red", "infantry", "0507", "N", "")
        + &unit("b1", "blue", "infantry", "0506", "N", "")
        + &spares();
    let mut g = setup_map("", &changes, "", &units);
    g.at(Side::Red, Phase::Melee);
    assert!(g.legal_texts().contains(&"melee r1 0506".to_string()));
}

#[test]
fn artillery_meleed_in_front_fires_grapeshot_and_crew_abandons_guns() {
    let mut g = duel("infantry", "", "artillery", "");
    let events = g.play("melee r1 0507", &[]);
    let grape = of_kind(&events, "grapeshot");
    assert_eq!(grape[0].rule, "hex-command 3.1");
    assert!(grape[0].text.contains("automatic hit"));
    assert_eq!(
        damage(&g, "r1"),
        (1, 0),
        "smoothbore grapeshot always tells"
    );
    let abandon = of_kind(&events, "abandon");
    assert_eq!(abandon[0].rule, "hex-command 3");
    let b1 = g.u("b1");
    assert_eq!(b1.guns_at(), Some(h("0507")));
    assert_eq!(b1.hex, h("0506"), "the crew steps back a hex");
    assert!(b1.active() && !b1.routed);
    assert_eq!(b1.hits, 0);
    assert!(g.state.melees.is_empty());
    assert_eq!(g.state.phase, Phase::Advance);
    assert!(g.legal_texts().contains(&"advance r1 N".to_string()));
}

#[test]
fn artillery_meleed_from_behind_fires_no_grapeshot_and_crew_steps_away() {
    let mut g = duel("infantry", "", "artillery", "");
    g.um("b1").facing = volley_core::geometry::Facing::N;
    let events = g.play("melee r1 0507", &[]);
    assert!(of_kind(&events, "grapeshot").is_empty());
    assert_eq!(damage(&g, "r1"), (0, 0));
    assert_eq!(g.u("b1").guns_at(), Some(h("0507")));
    assert_eq!(
        g.u("b1").hex,
        h("0506"),
        "the crew steps back from the melee, away from r1"
    );
}

#[test]
fn rifled_artillery_grapeshot_needs_red() {
    let mut g = duel("infantry", "", "artillery", "class = \"A\"");
    let events = g.play("melee r1 0507", &[3]);
    assert!(of_kind(&events, "grapeshot")[0]
        .text
        .contains("rolled 3 (Blue star (Code)) → no effect"));
    assert_eq!(damage(&g, "r1"), (0, 0));
    assert_eq!(
        g.u("b1").guns_at(),
        Some(h("0507")),
        "the crew leaves anyway"
    );
    let mut g = duel("infantry", "", "artillery", "class = \"A\"");
    g.play("melee r1 0507", &[4]);
    assert_eq!(damage(&g, "r1"), (1, 0));
}

#[test]
fn two_units_meleeing_guns_get_one_grapeshot_and_the_crew_steps_back_once() {
    let units = unit("r1", "red", "infantry", "0508", "N", "")
        + &unit("r2", "red", "infantry", "0607", "NW", "")
        + &unit("b1", "blue", "artillery", "0507", "S", "");
    let mut g = melee_phase("", &[], &units);
    g.play("melee r1 0507", &[]);
    let events = g.play("melee r2 0507", &[]);
    assert_eq!(of_kind(&events, "grapeshot").len(), 1);
    assert_eq!(
        damage(&g, "r1"),
        (1, 0),
        "the first declared takes the grapeshot"
    );
    assert_eq!(damage(&g, "r2"), (0, 0));
    let b1 = g.u("b1");
    assert!(
        b1.active(),
        "the crew is not cut down by the second attacker"
    );
    assert_eq!((b1.hex, b1.guns_at()), (h("0506"), Some(h("0507"))));
}

#[test]
fn abandoned_guns_are_captured_by_enemy_entering() {
    // Section 3: the crew steps back and stays on the field; r1 takes the guns and gets a d6
    // (here 4) of shots out of them.
    let mut g = duel("infantry", "", "artillery", "");
    g.play("melee r1 0507", &[]);
    let events = g.play("advance r1 N", &[4]);
    assert_eq!(g.u("r1").hex, h("0507"));
    let cap = of_kind(&events, "capture");
    assert_eq!(cap[0].rule, "hex-command 3");
    assert!(
        cap[0].text.contains("can fire them 4 times"),
        "{}",
        cap[0].text
    );
    let b1 = g.u("b1");
    assert_eq!(
        b1.fate,
        Fate::Active,
        "the crew is kept nearby, not removed"
    );
    assert_eq!(b1.hex, h("0506"));
    assert_eq!(
        b1.guns,
        Some(rules_hex_command::state::Guns {
            at: h("0507"),
            taken: true,
            shots: 4
        })
    );
    // Guns in enemy hands count among blue's losses.
    assert!((g.state.losses_percent(Side::Blue) - 100.0 * 12.0 / 112.0).abs() < 1e-9);
    assert!(g.check_invariants().is_ok());
}

#[test]
fn captured_guns_fire_their_shots_and_are_retaken() {
    let mut g = duel("infantry", "", "artillery", "");
    g.play("melee r1 0507", &[]);
    g.play("advance r1 N", &[1]);
    // r1 fires the captured guns (class B: range 1 is the auto band) at their own crew.
    g.at_fire(Side::Red, true);
    assert!(g.legal_texts().contains(&"gunfire r1 0506".to_string()));
    // r1 took a grapeshot hit (1 CP): Color is needed, and a 4 is red.
    let events = g.play("gunfire r1 0506", &[4]);
    let f = of_kind(&events, "fire");
    assert!(
        f[0].text.contains("fires the captured guns"),
        "{}",
        f[0].text
    );
    assert_eq!(g.u("b1").hits, 1);
    assert_eq!(
        g.u("b1").guns.map(|x| x.shots),
        Some(0),
        "the one shot is spent"
    );
    // Blue retakes them: r1 has gone, b9 walks onto the guns.
    let r1 = g.idx("r1");
    rules_hex_command::effects::relocate(&mut g.state, r1, h("0909"));
    g.at(Side::Blue, Phase::Movement);
    g.um("b9").hex = h("0508");
    g.um("b9").facing = volley_core::geometry::Facing::N;
    g.relist();
    let events = g.play("move b9 0507", &[]);
    assert!(of_kind(&events, "recapture")[0]
        .text
        .contains("retakes the guns of b1"));
    assert_eq!(g.u("b1").guns.map(|x| x.taken), Some(false));
    assert!(
        (g.state.losses_percent(Side::Blue)).abs() < 1e-9,
        "no longer lost"
    );
}

#[test]
fn captured_guns_lose_their_shot_when_two_guns_have_fired_at_the_target() {
    // 7.1 a: at most two artillery shots at one target a phase, and captured guns fire as
    // artillery. The kept listing must drop r1's gunfire once r2 and r3 have fired at b1's
    // crew, though r1 (cavalry without carbines) lists no shot of its own at it: a stale
    // gunfire once crashed an MCTS rollout.
    let mut g = melee_phase(
        "melee_values = \"by-arm\"",
        &[],
        &(unit("r1", "red", "cavalry", "0508", "N", "")
            + &unit("b1", "blue", "artillery", "0507", "S", "")
            + &unit("r2", "red", "artillery", "0503", "S", "")
            + &unit("r3", "red", "artillery", "0603", "S", "")),
    );
    g.play("melee r1 0507", &[]);
    g.play("advance r1 N", &[4]);
    g.at_fire(Side::Red, true);
    let legal = g.legal_texts();
    for shot in ["gunfire r1 0506", "fire r2 0506", "fire r3 0506"] {
        assert!(legal.contains(&shot.to_string()), "{shot} in {legal:?}");
    }
    // Played without relisting between them, as a game and a search do.
    for shot in ["fire r2 0506", "fire r3 0506"] {
        let a = g.parse_action(shot).expect(shot);
        let mut d = volley_core::ScriptedDice::new([1, 1, 1, 1]);
        g.apply(a, &mut d).expect(shot);
        g.check_invariants().expect(shot);
    }
    let gunfire = g.parse_action("gunfire r1 0506").unwrap();
    assert!(!g.legal_actions().contains(&gunfire));
    assert!(g
        .apply(gunfire, &mut volley_core::ScriptedDice::new([].into_iter()))
        .is_err());
}

#[test]
fn crew_recovers_guns_by_returning() {
    let mut g = duel("infantry", "", "artillery", "");
    g.play("melee r1 0507", &[]);
    g.play("hold r1 N", &[]);
    // Blue's turn: the crew walks back to its guns (r1, hit by grapeshot, has no zone).
    assert_eq!(
        (g.state.phasing(), g.state.phase),
        (Side::Blue, Phase::Movement)
    );
    assert!(g.legal_texts().contains(&"move b1 0507".to_string()));
    g.play("move b1 0507", &[]);
    let b1 = g.u("b1");
    assert_eq!(b1.hex, h("0507"));
    assert_eq!(b1.guns_at(), None);
    assert!(!b1.is_crew_only());
}

#[test]
fn skirmishers_never_melee_cavalry_destroys_them() {
    let mut g = duel("cavalry", "", "skirmishers", "");
    g.at(Side::Blue, Phase::Melee);
    assert!(
        !g.legal_texts().iter().any(|t| t.starts_with("melee b1")),
        "skirmishers never declare"
    );
    g.at(Side::Red, Phase::Melee);
    let events = g.play("melee r1 0507", &[]);
    assert_eq!(g.u("b1").fate, Fate::Destroyed);
    assert_eq!(of_kind(&events, "melee")[0].rule, "hex-command 7.2");
    assert_eq!(damage(&g, "r1"), (0, 0));
    assert_eq!(g.state.phase, Phase::Advance);
}

#[test]
fn skirmishers_contacted_by_infantry_rout() {
    let mut g = duel("infantry", "", "skirmishers", "");
    let events = g.play("melee r1 0507", &[]);
    let b1 = g.u("b1");
    assert!(b1.routed && b1.active());
    assert_eq!(b1.facing, volley_core::geometry::Facing::N);
    assert_eq!(b1.hex, h("0504"));
    assert!(melee_texts(&events)[0].contains("they rout"));
    // The option: removed instead.
    let units = unit("r1", "red", "infantry", "0508", "N", "")
        + &unit("b1", "blue", "skirmishers", "0507", "S", "");
    let mut g = melee_phase("skirmisher_contact = \"remove\"", &[], &units);
    g.play("melee r1 0507", &[]);
    assert_eq!(g.u("b1").fate, Fate::Destroyed);
}

#[test]
fn advance_after_melee_into_vacated_hex() {
    let mut g = duel("infantry", "", "infantry", "");
    g.um("b1").hits = 2;
    g.play("melee r1 0507", &[4, 1]);
    assert!(g.u("b1").routed);
    assert_eq!(g.u("b1").hex, h("0504"));
    let legal = g.legal_texts();
    assert_eq!(legal.len(), 12, "six advances and six turns: {legal:?}");
    let events = g.play("advance r1 NE", &[]);
    let r1 = g.u("r1");
    assert_eq!(r1.hex, h("0507"));
    assert_eq!(r1.facing, volley_core::geometry::Facing::NE);
    assert!(r1.moved_this_turn);
    assert_eq!(of_kind(&events, "advance")[0].rule, "hex-command 7.4");
}

#[test]
fn only_one_winner_advances_into_a_vacated_hex() {
    let units = unit("r1", "red", "infantry", "0508", "N", "")
        + &unit("r2", "red", "infantry", "0607", "NW", "")
        + &unit("b1", "blue", "infantry", "0507", "S", "");
    let mut g = melee_phase("", &[], &units);
    g.um("b1").hits = 2;
    g.play("melee r1 0507", &[]);
    // r1–b1 first (b1's primary), then r2–b1.
    g.play("melee r2 0507", &[4, 1, 1, 1]);
    assert!(g.u("b1").routed);
    assert_eq!(g.state.advances.len(), 1, "7.4: one unit takes the hex");
    g.play("advance r1 N", &[]);
    assert_eq!(g.u("r1").hex, h("0507"));
    assert_eq!(g.u("r2").hex, h("0607"));
}

#[test]
fn winner_without_the_vacated_hex_in_front_may_only_turn() {
    // r1 strikes b1's rear and is beaten: b1 wins, but r1's hex lies behind it.
    let mut g = duel("infantry", "", "infantry", "");
    g.um("b1").facing = volley_core::geometry::Facing::N;
    g.um("r1").hits = 2;
    let events = g.play("melee r1 0507", &[1, 4]);
    assert!(melee_texts(&events)[0].contains("r1 (2: base 3, -2 hits, +1 flank/rear)"));
    assert_eq!(
        g.u("r1").fate,
        Fate::LeftField,
        "it routed off the map edge"
    );
    assert_eq!(g.to_decide(), Some(Side::Blue));
    let legal = g.legal_texts();
    assert!(legal.iter().all(|t| t.starts_with("hold b1 ")), "{legal:?}");
    g.play("hold b1 S", &[]);
    assert_eq!(g.u("b1").hex, h("0507"));
    assert_eq!(g.u("b1").facing, volley_core::geometry::Facing::S);
}

#[test]
fn infantry_does_not_pursue_beaten_cavalry() {
    let mut g = duel("infantry", "", "cavalry", "");
    g.um("b1").hits = 2;
    g.play("melee r1 0507", &[4, 1]);
    assert!(g.u("b1").routed);
    assert_eq!(g.u("b1").hex, h("0503"), "cavalry rout four hexes");
    let legal = g.legal_texts();
    assert!(legal.iter().all(|t| t.starts_with("hold r1 ")), "{legal:?}");
    assert_eq!(legal.len(), 6);
    g.play("hold r1 NE", &[]);
    assert_eq!(g.u("r1").hex, h("0508"));
    assert_eq!(g.u("r1").facing, volley_core::geometry::Facing::NE);
}

#[test]
fn fatigued_unit_takes_a_hit_for_each_te_in_melee() {
    let mut g = duel("infantry", "", "infantry", "");
    g.um("b1").te = 3;
    let events = g.play("melee r1 0507", &[1, 1]);
    assert!(melee_texts(&events)[0].contains("b1 (2: base 3, -1 fatigued)"));
    assert_eq!(
        damage(&g, "b1"),
        (1, 3),
        "its TE hit becomes a casualty hit"
    );
    // Both red: a hit, and the TE hit as another hit.
    let mut g = duel("infantry", "", "infantry", "");
    g.um("b1").te = 3;
    g.play("melee r1 0507", &[4, 4]);
    assert_eq!(damage(&g, "b1"), (2, 3));
    assert_eq!(damage(&g, "r1"), (1, 0));
}

#[test]
fn melee_points_option_adds_te_to_weaker() {
    let units = unit("r1", "red", "cavalry", "0508", "N", "")
        + &unit("b1", "blue", "infantry", "0507", "S", "");
    let mut g = melee_phase(
        "melee_points = \"yes\"\nmelee_values = \"by-arm\"",
        &[],
        &units,
    );
    g.play("melee r1 0507", &[4, 1]);
    assert_eq!(
        damage(&g, "b1"),
        (1, 1),
        "the hit, and the stronger's automatic TE"
    );
    assert_eq!(damage(&g, "r1"), (0, 0));
    // Even when the weaker wins the roll.
    let mut g = melee_phase(
        "melee_points = \"yes\"\nmelee_values = \"by-arm\"",
        &[],
        &units,
    );
    g.play("melee r1 0507", &[1, 4]);
    assert_eq!(damage(&g, "b1"), (0, 1));
    assert_eq!(damage(&g, "r1"), (1, 0));
    // Equal values: nobody is stronger, nothing is added.
    let units = unit("r1", "red", "infantry", "0508", "N", "")
        + &unit("b1", "blue", "infantry", "0507", "S", "");
    let mut g = melee_phase(
        "melee_points = \"yes\"\nmelee_values = \"by-arm\"",
        &[],
        &units,
    );
    g.play("melee r1 0507", &[1, 1]);
    assert_eq!(damage(&g, "b1"), (0, 1));
    assert_eq!(damage(&g, "r1"), (0, 1));
}

#[test]
fn melee_only_against_enemies_in_the_front_hexes() {
    let units = unit("r1", "red", "infantry", "0508", "N", "")
        + &unit("b1", "blue", "infantry", "0509", "N", "")
        + &unit("b2", "blue", "infantry", "0607", "SW", "");
    let g = melee_phase("", &[], &units);
    let mut m: Vec<String> = g
        .legal_texts()
        .into_iter()
        .filter(|t| t.starts_with("melee"))
        .collect();
    m.sort();
    assert_eq!(m, vec!["melee r1 0607"], "b1 is behind r1");
}

#[test]
fn unit_entering_a_zone_beside_an_enemy_stops_without_a_melee() {
    // 7.2.3: r1 (facing N) steps obliquely NE into 0607, which b1 (0708, facing NW) covers;
    // b1 is off r1's front, so they do not face each other: r1 stops, and no melee is fought
    // (before the audit r1 was forced into a melee with b1's results doubled on it).
    let units = unit("r1", "red", "infantry", "0508", "N", "")
        + &unit("b1", "blue", "infantry", "0708", "NW", "");
    let mut g = setup_map("", &[], "", &(units + &spares()));
    g.at(Side::Red, Phase::Movement);
    let events = g.play("move r1 0607", &[]);
    assert_eq!(g.u("r1").facing, volley_core::geometry::Facing::N);
    assert_eq!(g.u("r1").mp, 0, "the zone of control stops it");
    assert!(
        g.state.melees.is_empty(),
        "no melee between units not facing each other"
    );
    assert!(of_kind(&events, "zoc")
        .iter()
        .any(|e| e.text.contains("stops")));
    g.play("end", &[]);
    assert_eq!(damage(&g, "r1"), (0, 0));
    assert_eq!(damage(&g, "b1"), (0, 0));
}

#[test]
fn equal_base_values_by_default_and_scenario_ratings() {
    // Cavalry against infantry with no ratings: 3 against 3, equal values (each red a hit).
    let units = unit("r1", "red", "cavalry", "0508", "N", "")
        + &unit("b1", "blue", "infantry", "0507", "S", "melee = 5");
    let mut g = melee_phase("", &[], &units);
    let events = g.play("melee r1 0507", &[4, 1]);
    let t = &melee_texts(&events)[0];
    assert!(t.contains("r1 (3: base 3) against b1 (5: base 5)"), "{t}");
    // Red by the weaker: the stronger (b1) takes the hit.
    assert_eq!(damage(&g, "b1"), (1, 0));
    assert_eq!(damage(&g, "r1"), (0, 0));
}

#[test]
fn winner_still_locked_in_another_melee_cannot_advance() {
    // 7.2.2: r2 joins against b1; when r1 breaks, b1 wins but r2 keeps it in place.
    let units = unit("r1", "red", "infantry", "0508", "N", "")
        + &unit("r2", "red", "infantry", "0607", "NW", "")
        + &unit("b1", "blue", "infantry", "0507", "S", "");
    let mut g = melee_phase("", &[], &units);
    g.um("r1").hits = 2;
    g.play("melee r1 0507", &[]);
    // r1–b1: 1 against 3, r1 blue and b1 red → r1's third hit. r2–b1: both blue.
    let events = g.play("melee r2 0507", &[1, 4, 1, 1]);
    assert!(g.u("r1").routed || !g.u("r1").active());
    assert!(of_kind(&events, "win").is_empty());
    assert!(g.state.advances.is_empty());
    assert_eq!(g.state.melees.len(), 1, "b1 and r2 fight on");
    assert_eq!(damage(&g, "r2"), (0, 1), "b1's second enemy takes only TE");
    assert_eq!(damage(&g, "b1"), (0, 1));
    assert_eq!(
        (g.state.phasing(), g.state.phase),
        (Side::Blue, Phase::Movement)
    );
    assert!(g.check_invariants().is_ok());
}

#[test]
fn melee_points_pick_a_second_opponent_for_the_extra_te_hit() {
    // r1 (cavalry, 4 by arm) steps into the zones of b1 and b2, both facing it, and fights
    // both; it is the stronger against its primary b1, so its owner picks b2 for the second
    // automatic TE hit (Optional Rules, Melee Points).
    let units = unit("r1", "red", "cavalry", "0509", "N", "")
        + &unit("b1", "blue", "infantry", "0507", "S", "")
        + &unit("b2", "blue", "infantry", "0607", "SW", "");
    let mut g = setup_map(
        "melee_points = \"yes\"\nmelee_values = \"by-arm\"",
        &[],
        "",
        &(units + &spares()),
    );
    g.at(Side::Red, Phase::Movement);
    g.play("move r1 0508", &[]);
    assert_eq!(g.state.melees.len(), 2);
    // r1–b1: r1 blue, b1 blue → b1 (weaker) a TE hit, and the points' TE; r1–b2: both blue.
    g.play("end", &[1, 1, 1, 1]);
    assert_eq!(g.state.phase, Phase::Decision);
    assert_eq!(g.to_decide(), Some(Side::Red));
    assert_eq!(g.legal_texts(), vec!["points r1 0607"]);
    let te_before = g.u("b2").te;
    let events = g.play("points r1 0607", &[]);
    assert_eq!(g.u("b2").te, te_before + 1);
    assert!(events
        .iter()
        .any(|e| e.rule == "hex-command Optional Rules: Melee Points"));
}
