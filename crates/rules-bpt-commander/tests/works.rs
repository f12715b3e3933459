//! ENGINEERING, Field Defenses and CONSTRUCTIONS (optional rule): obstacles, the cover of
//! works, the engineers' tasks, constructions' saves and collapse.

mod common;

use common::*;

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
