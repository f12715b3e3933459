//! The charts the text leaves out, as data (T1–T21): the bundled charts and roster, damage
//! blocks, the 2d10 odds, and a scenario's own chart rows.

use rules_hex_command_mechanized::charts::*;
use rules_hex_command_mechanized::damage::*;

#[test]
fn the_bundled_charts_and_roster_load_and_check() {
    let c = Charts::bundled();
    assert_eq!(c.chassis[&Weight::M].defence, 3);
    assert_eq!(c.guns[&Weight::VL].dice(), 1, "reach 10: one d10 (T3)");
    assert_eq!(c.guns[&Weight::M].dice(), 2);
    let r = Roster::bundled();
    assert!(r.vehicles.len() >= 25, "{}", r.vehicles.len());
    for nation in ["german", "us", "british", "soviet"] {
        assert!(r.vehicles.values().any(|v| v.nation == nation), "{nation}");
    }
    // The text's own examples: a Matilda is a heavy chassis with a light gun, a Panzer III a
    // medium chassis with a light gun.
    let m = &r.vehicles["matilda2"];
    assert_eq!((m.chassis, m.gun), (Weight::H, Some(Weight::L)));
    let p = &r.vehicles["pz3j"];
    assert_eq!((p.chassis, p.gun), (Weight::M, Some(Weight::L)));
}

#[test]
fn damage_blocks_follow_the_weight_difference() {
    let c = Charts::bundled();
    assert_eq!(
        c.blocks(Weight::L, Weight::VH),
        (0, BlockMode::Incremental),
        "-3: no effect"
    );
    assert_eq!(c.blocks(Weight::M, Weight::H), (1, BlockMode::Incremental));
    assert_eq!(
        c.blocks(Weight::M, Weight::M),
        (1, BlockMode::Incremental),
        "the text's case"
    );
    assert_eq!(c.blocks(Weight::H, Weight::M), (1, BlockMode::AsRolled));
    assert_eq!(c.blocks(Weight::VH, Weight::L), (2, BlockMode::AsRolled));
    assert_eq!(c.blocks(Weight::VL, Weight::Soft), (1, BlockMode::AsRolled));
}

#[test]
fn blocks_raise_their_category_and_three_doubles_destroy() {
    let mut d = Damage::default();
    d.take(Face::MM, BlockMode::Incremental);
    assert_eq!(d.movement, 1, "incremental: one step whatever the face");
    d.take(Face::CC, BlockMode::AsRolled);
    assert_eq!(d.combat, 2, "as rolled: the double at once");
    d.take(Face::D, BlockMode::AsRolled);
    assert_eq!(d.defence, 1);
    d.take(Face::C, BlockMode::AsRolled);
    assert_eq!(d.combat, 2, "never down");
    assert!(!d.destroyed());
    d.take(Face::M, BlockMode::Incremental);
    d.take(Face::D, BlockMode::Incremental);
    assert!(d.destroyed());
    let c = Charts::bundled();
    assert_eq!((d.combat_penalty(&c), d.defence_penalty(&c)), (2, 2));
    assert_eq!(
        Damage {
            movement: 1,
            ..Damage::default()
        }
        .speed(5),
        2
    );
    assert_eq!(
        Damage {
            movement: 2,
            ..Damage::default()
        }
        .speed(5),
        1
    );
}

#[test]
fn two_d10_odds_match_the_digest_table() {
    let table = [
        100, 99, 97, 94, 90, 85, 79, 72, 64, 55, 45, 36, 28, 21, 15, 10, 6, 3, 1,
    ];
    for (k, &p) in table.iter().enumerate() {
        assert_eq!(two_d10_at_least(k as i32 + 2), p, "2d10 >= {}", k + 2);
    }
}

#[test]
fn a_scenario_may_replace_a_chart_row_and_a_bad_shape_is_refused() {
    let over: toml::Value =
        toml::from_str("[chassis.M]\ndefence = 4\nspeed = 5\nfacing_changes = 1\n").unwrap();
    let c = Charts::read(Some(&over)).unwrap();
    assert_eq!(c.chassis[&Weight::M].defence, 4);
    assert_eq!(c.chassis[&Weight::H].defence, 4, "the rest stays");
    let bad: toml::Value = toml::from_str("[chassis.M]\narmour = 4\n").unwrap();
    let e = Charts::read(Some(&bad)).unwrap_err();
    assert!(e.contains("armour"), "{e}");
    let unordered: toml::Value =
        toml::from_str("damage_blocks = [{ up_to = 1, blocks = 1, mode = \"as-rolled\" }, { up_to = 0, blocks = 1, mode = \"incremental\" }]").unwrap();
    assert!(Charts::read(Some(&unordered))
        .unwrap_err()
        .contains("rising order"));
    let extra: toml::Value =
        toml::from_str("[tiger9]\nname = \"Tiger 9\"\nnation = \"german\"\nchassis = \"VH\"\ngun = \"VH\"\nmount = \"turret\"\ndrive = \"tracked\"\nmg = \"single\"\n").unwrap();
    assert!(Roster::read(Some(&extra))
        .unwrap()
        .vehicles
        .contains_key("tiger9"));
}
