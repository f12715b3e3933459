//! Movement, Movement Formations, Wheel, About Face, Retire, Oblique, Refuse the Flank,
//! Road Bonus, Passage of Lines, Terrain, Limbered or Unlimbered, Prolonge, Visibility.

mod common;

use common::*;
use rules_bpt_commander::table::Table;
use rules_bpt_commander::troops::Formation;
use volley_core::geometry::Facing;

/// r1 at 0610 facing N with an order, the enemy far off.
fn ordered(r: &[(&str, &str)], rows: Option<&[&str]>) -> rules_bpt_commander::BptGame {
    let mut s = Scen::new()
        .inf("red", "r1", "0610", "N", r)
        .inf("blue", "b1", "1201", "S", &[])
        .hqs("red", &[hq("rhq", 8, "0611", true)])
        .hqs("blue", &[hq("bhq", 8, "1202", true)]);
    if let Some(rows) = rows {
        s = s.rows(rows);
    }
    let mut g = s.command();
    play(&mut g, "order rhq r1", &[2, 2]);
    g
}

fn rows_with(cells: &[(usize, usize, &str)]) -> Vec<String> {
    let mut rows: Vec<Vec<String>> = vec![vec![".".to_string(); 12]; 12];
    for &(c, r, t) in cells {
        rows[r - 1][c - 1] = t.to_string();
    }
    rows.into_iter().map(|r| r.join(" ")).collect()
}

#[test]
fn infantry_moves_10_cm_two_hexes() {
    let mut g = ordered(&[], None);
    {
        let m = refused(&mut g, "move r1 0607");
        assert!(m.contains("cannot move"), "{m}");
    }
    play(&mut g, "move r1 0608", &[]);
    assert_eq!(g.units[k(&g, "r1")].hex, hex("0608"));
}

#[test]
fn formed_troops_go_forward_or_oblique_keeping_their_facing() {
    let mut g = ordered(&[], None);
    {
        let m = refused(&mut g, "move r1 0611");
        assert!(m.contains("cannot move"), "{m}");
    }
    // Oblique: into a front-diagonal hex, still facing N.
    play(&mut g, "move r1 0709", &[]);
    let r1 = &g.units[k(&g, "r1")];
    assert_eq!((r1.hex, r1.facing), (hex("0709"), Facing::N));
}

#[test]
fn a_line_wheels_once_a_phase() {
    let mut g = Scen::new()
        .inf("red", "r1", "0610", "N", &[])
        .inf("blue", "b1", "1201", "S", &[])
        .hqs("red", &[hq("rhq", 2, "0611", true)])
        .command();
    play(&mut g, "order rhq r1", &[1, 1]);
    play(&mut g, "wheel r1 right", &[]);
    assert_eq!(g.units[k(&g, "r1")].facing, Facing::NE);
    {
        let m = refused(&mut g, "wheel r1 right");
        assert!(m.contains("wheeled this phase"), "{m}");
    }
}

#[test]
fn about_face_turns_the_unit_round() {
    let mut g = ordered(&[], None);
    play(&mut g, "about-face r1", &[]);
    assert_eq!(g.units[k(&g, "r1")].facing, Facing::S);
}

#[test]
fn retire_goes_straight_back_keeping_the_facing() {
    let mut g = Scen::new()
        .inf("red", "r1", "0608", "N", &[])
        .inf("blue", "b1", "1201", "S", &[])
        .hqs("red", &[hq("rhq", 8, "0111", true)])
        .command();
    play(&mut g, "order rhq r1", &[2, 2]);
    play(&mut g, "retire r1", &[]);
    let r1 = &g.units[k(&g, "r1")];
    assert_eq!((r1.hex, r1.facing), (hex("0609"), Facing::N));
}

#[test]
fn squares_do_not_move() {
    let mut g = ordered(&[("formation", "\"square\"")], None);
    {
        let m = refused(&mut g, "move r1 0609");
        assert!(m.contains("cannot move"), "{m}");
    }
}

#[test]
fn entering_area_terrain_ends_the_move() {
    let band: Vec<(usize, usize, &str)> =
        (1..=12).flat_map(|c| [(c, 9, "w"), (c, 8, "w")]).collect();
    let rows = rows_with(&band);
    let rows: Vec<&str> = rows.iter().map(|s| s.as_str()).collect();
    let mut g = ordered(&[("move", "30")], Some(&rows));
    {
        let m = refused(&mut g, "move r1 0608");
        assert!(m.contains("cannot move"), "{m}");
    }
    play(&mut g, "move r1 0609", &[]);
}

#[test]
fn a_linear_obstacle_is_crossed_only_from_contact() {
    let s = "hexsides = [{ between = [\"0608\", \"0609\"], kind = \"hedge\" }]";
    let mut g = Scen::new()
        .inf("red", "r1", "0610", "N", &[])
        .inf("blue", "b1", "1201", "S", &[])
        .hqs("red", &[hq("rhq", 8, "0611", true)])
        .map(s)
        .command();
    play(&mut g, "order rhq r1", &[2, 2]);
    {
        let m = refused(&mut g, "move r1 0608");
        assert!(m.contains("cannot move"), "{m}");
    }
    play(&mut g, "move r1 0609", &[]);
    play(&mut g, "order rhq r1", &[2, 2]);
    play(&mut g, "move r1 0607", &[]);
    assert_eq!(g.units[k(&g, "r1")].hex, hex("0607"));
}

#[test]
fn march_column_on_a_road_gets_the_road_bonus() {
    let road: Vec<String> = (1..=12).rev().map(|r| format!("\"06{r:02}\"")).collect();
    let mut g = Scen::new()
        .inf("red", "r1", "0610", "N", &[("formation", "\"march\"")])
        .inf("blue", "b1", "1201", "S", &[])
        .hqs("red", &[hq("rhq", 8, "0611", true)])
        .map(&format!("roads = [[{}]]", road.join(", ")))
        .command();
    play(&mut g, "order rhq r1", &[2, 2]);
    // 10 cm + 5 cm on the road: three hexes.
    play(&mut g, "move r1 0607", &[]);
    assert_eq!(g.units[k(&g, "r1")].hex, hex("0607"));
}

#[test]
fn passing_through_friends_costs_half_the_allowance() {
    let mut g = Scen::new()
        .inf("red", "r1", "0610", "N", &[("move", "20")])
        .inf("red", "r2", "0609", "N", &[])
        .inf("blue", "b1", "1201", "S", &[])
        .hqs("red", &[hq("rhq", 8, "0611", true)])
        .command();
    play(&mut g, "order rhq r1", &[2, 2]);
    // 20 cm: through r2 (5 + 10) and one hex beyond (5).
    play(&mut g, "move r1 0608", &[]);
    assert_eq!(g.units[k(&g, "r1")].hex, hex("0608"));
}

#[test]
fn deep_water_bars_every_unit() {
    let rows = rows_with(&[(6, 9, "~")]);
    let rows: Vec<&str> = rows.iter().map(|s| s.as_str()).collect();
    let mut g = ordered(&[], Some(&rows));
    {
        let m = refused(&mut g, "move r1 0609");
        assert!(m.contains("cannot move"), "{m}");
    }
}

#[test]
fn limbering_and_unlimbering_are_deploy_actions() {
    let mut g = Scen::new()
        .gun("red", "g1", "0610", "N", &[])
        .inf("blue", "b1", "1201", "S", &[])
        .hqs("red", &[hq("rhq", 8, "0611", true)])
        .command();
    play(&mut g, "order rhq g1", &[2, 2]);
    play(&mut g, "limber g1", &[]);
    assert!(g.units[k(&g, "g1")].limbered);
    // Limbered: 30 cm in any direction.
    play(&mut g, "order rhq g1", &[2, 2]);
    play(&mut g, "move g1 0604", &[]);
    assert_eq!(g.units[k(&g, "g1")].hex, hex("0604"));
}

#[test]
fn guns_go_back_on_prolonge_ready_to_fire() {
    let mut g = Scen::new()
        .gun("red", "g1", "0608", "N", &[])
        .inf("blue", "b1", "1201", "S", &[])
        .hqs("red", &[hq("rhq", 8, "0111", true)])
        .command();
    play(&mut g, "order rhq g1", &[2, 2]);
    play(&mut g, "prolonge g1", &[]);
    let g1 = &g.units[k(&g, "g1")];
    assert_eq!(
        (g1.hex, g1.facing, g1.limbered),
        (hex("0610"), Facing::N, false)
    );
}

#[test]
fn refusing_a_flank_turns_that_side_to_the_front() {
    let mut g = Scen::new()
        .inf("red", "r1", "0608", "N", &[])
        .inf("blue", "b1", "0808", "NW", &[])
        .command();
    let (r1, b1) = (k(&g, "r1"), k(&g, "b1"));
    assert_ne!(g.aspect_of(r1, b1), volley_core::geometry::Aspect::Front);
    play(&mut g, "order rhq r1", &[2, 2]);
    play(&mut g, "refuse r1 right", &[]);
    assert_eq!(g.aspect_of(r1, b1), volley_core::geometry::Aspect::Front);
}

#[test]
fn sight_is_180_degrees_to_the_front() {
    let g = Scen::new()
        .inf("red", "r1", "0608", "N", &[])
        .inf("blue", "b1", "0610", "N", &[])
        .load();
    let (r1, b1) = (k(&g, "r1"), k(&g, "b1"));
    assert!(!g.sees(r1, b1));
    assert!(g.sees(b1, r1));
}

#[test]
fn units_block_sight_but_skirmishers_do_not() {
    let g = Scen::new()
        .inf("red", "r1", "0608", "N", &[])
        .inf("red", "r2", "0607", "N", &[])
        .inf("blue", "b1", "0605", "S", &[])
        .load();
    assert!(!g.sees(k(&g, "r1"), k(&g, "b1")));
    let g = Scen::new()
        .inf("red", "r1", "0608", "N", &[])
        .inf(
            "red",
            "r2",
            "0607",
            "N",
            &[("traits", "[\"light\"]"), ("formation", "\"extended\"")],
        )
        .inf("blue", "b1", "0605", "S", &[])
        .load();
    assert!(g.sees(k(&g, "r1"), k(&g, "b1")));
}

#[test]
fn woods_hide_units_deeper_than_their_edge() {
    let rows = rows_with(&[(6, 3, "W"), (6, 4, "W"), (6, 5, "W")]);
    let rows: Vec<&str> = rows.iter().map(|s| s.as_str()).collect();
    let g = Scen::new()
        .rows(&rows)
        .inf("red", "r1", "0608", "N", &[])
        .inf("blue", "b1", "0605", "S", &[])
        .inf("blue", "b2", "0603", "S", &[])
        .hqs("blue", &[hq("bhq", 8, "1201", true)])
        .load();
    assert!(g.sees(k(&g, "r1"), k(&g, "b1")));
    assert!(!g.sees(k(&g, "r1"), k(&g, "b2")));
}

#[test]
fn visibility_ends_at_100_cm() {
    let g = Scen::new()
        .rows(&[["."; 24].join(" ").as_str(); 4])
        .inf("red", "r1", "0102", "NE", &[])
        .inf("blue", "b1", "2202", "SW", &[])
        .hqs("red", &[hq("rhq", 8, "0101", true)])
        .hqs("blue", &[hq("bhq", 8, "2401", true)])
        .load();
    let (r1, b1) = (k(&g, "r1"), k(&g, "b1"));
    assert_eq!(g.distance_cm(r1, b1), 105);
    assert!(!g.sees(r1, b1));
}

#[test]
fn deployment_table_bars_extended_line_to_column() {
    let mut g = ordered(&[("formation", "\"extended\"")], None);
    {
        let m = refused(&mut g, "form r1 march");
        assert!(m.contains("deployment table"), "{m}");
    }
    play(&mut g, "form r1 line", &[]);
    assert_eq!(g.units[k(&g, "r1")].formation, Formation::Line);
}

#[test]
fn high_ground_hides_what_stands_behind_its_crest() {
    // A hill two hexes deep (elevation 1) between r1 on the plain and the blue units: b1 on
    // the forward slope is seen, b2 behind the crest is not; from the hill top b3 sees r1.
    let rows = rows_with(&[(6, 5, ".1"), (6, 4, ".1"), (6, 3, ".1")]);
    let rows: Vec<&str> = rows.iter().map(|s| s.as_str()).collect();
    let g = Scen::new()
        .rows(&rows)
        .inf("red", "r1", "0608", "N", &[])
        .inf("blue", "b1", "0605", "S", &[])
        .inf("blue", "b2", "0603", "S", &[])
        .hqs("blue", &[hq("bhq", 8, "1201", true)])
        .load();
    assert!(
        g.sees(k(&g, "r1"), k(&g, "b1")),
        "the forward slope is in sight"
    );
    assert!(
        !g.sees(k(&g, "r1"), k(&g, "b2")),
        "behind the crest is out of sight"
    );
    assert!(g.sees(k(&g, "b1"), k(&g, "r1")));
}

#[test]
fn from_high_ground_low_area_terrain_is_seen_over() {
    // Three hexes of scrub between: too wide to see across from the plain, but a unit on a
    // hill sees over it.
    let scrub = [(6, 4, "w"), (6, 5, "w"), (6, 6, "w")];
    let rows = rows_with(&scrub);
    let rows: Vec<&str> = rows.iter().map(|s| s.as_str()).collect();
    let g = Scen::new()
        .rows(&rows)
        .inf("red", "r1", "0607", "N", &[])
        .inf("blue", "b1", "0603", "S", &[])
        .load();
    assert!(!g.sees(k(&g, "r1"), k(&g, "b1")));
    let mut high: Vec<(usize, usize, &str)> = scrub.to_vec();
    high.push((6, 7, ".1"));
    let rows = rows_with(&high);
    let rows: Vec<&str> = rows.iter().map(|s| s.as_str()).collect();
    let g = Scen::new()
        .rows(&rows)
        .inf("red", "r1", "0607", "N", &[])
        .inf("blue", "b1", "0603", "S", &[])
        .load();
    assert!(g.sees(k(&g, "r1"), k(&g, "b1")));
}
