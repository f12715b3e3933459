//! Scenario files: the bundled river crossing loads, and every mistake is reported at its
//! file, line and column.

mod common;

use common::*;
use rules_stand_and_die::RULESET;
use volley_core::{Options, Ruleset, ScenarioSource};

#[test]
fn the_river_crossing_loads_and_shows_every_unit() {
    let src = ScenarioSource::new("scenarios/sad-river-crossing.toml", RIVER_CROSSING);
    let g = RULESET
        .load(&src, &Options::new())
        .expect("bundled scenario is valid");
    let v = g.view(None);
    assert_eq!(
        (v.scenario.as_str(), v.turn_limit),
        ("sad-river-crossing", 10)
    );
    assert_eq!(v.units.len(), 10);
    assert_eq!(v.unit("r2").unwrap().strength, Some(2));
    assert_eq!(v.unit("r2").unwrap().max_hits, 2);
    assert_eq!(v.objectives.len(), 3);
    assert_eq!(v.sides[0].name, "Red Army");
    assert!(v.unit("b1").unwrap().has("standing"));
    g.check_invariants().unwrap();
}

/// Line and column (from 1) where `needle` first starts in `text`.
fn position_of(text: &str, needle: &str) -> (usize, usize) {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle} not in the text"));
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap().chars().count() + 1;
    (line, column)
}

/// Loads a broken scenario and checks the error's message and where it points.
fn refused_at(text: &str, needle: &str, message: &str) {
    let e = load(text).err().expect("the scenario should be refused");
    assert!(e.message.contains(message), "{e}");
    assert_eq!(e.file, "test.toml");
    assert_eq!((e.line, e.column), position_of(text, needle), "{e}");
}

fn base(units: &[String]) -> String {
    let mut all = units.to_vec();
    all.push(unit("blue", "b9", "infantry", 4, "0808", "N"));
    scenario(&OPEN_8X8, "", &all)
}

#[test]
fn an_unknown_arm_is_refused_where_it_is_written() {
    let text = base(&[unit("red", "r1", "dragoons", 6, "0303", "S")]);
    refused_at(&text, "\"dragoons\"", "unknown arm \"dragoons\"");
}

#[test]
fn duplicate_unit_ids_are_refused() {
    let text = base(&[
        unit("red", "r1", "infantry", 6, "0303", "S"),
        unit("red", "r1", "infantry", 6, "0404", "S"),
    ]);
    let second = text.rfind("id = \"r1\"").unwrap();
    let e = load(&text).err().unwrap();
    assert!(e.message.contains("id \"r1\" is used twice"), "{e}");
    assert_eq!(e.line, text[..second].matches('\n').count() + 1);
    assert_eq!(e.column, 6);
}

#[test]
fn units_that_break_stacking_are_refused() {
    let text = base(&[
        unit("red", "r1", "infantry", 6, "0303", "S"),
        unit("red", "r2", "cavalry", 4, "0303", "S"),
    ]);
    let second = text.rfind("hex = \"0303\"").unwrap();
    let e = load(&text).err().unwrap();
    assert!(e.message.contains("cavalry may not share"), "{e}");
    assert_eq!(
        (e.line, e.column),
        (text[..second].matches('\n').count() + 1, 7)
    );

    let text = base(&[
        unit("red", "r1", "infantry", 8, "0303", "S"),
        unit("red", "r2", "artillery", 3, "0303", "S"),
    ]);
    let e = load(&text).err().unwrap();
    assert!(e.message.contains("14 figures' room"), "{e}");

    let text = base(&[
        unit("red", "r1", "infantry", 8, "0303", "S"),
        unit("blue", "b1", "infantry", 3, "0303", "N"),
    ]);
    let e = load(&text).err().unwrap();
    assert!(e.message.contains("never two sides in one hex"), "{e}");

    let text = base(&[
        unit("red", "r1", "infantry", 4, "0303", "S"),
        unit("red", "r2", "infantry", 4, "0303", "N"),
    ]);
    let e = load(&text).err().unwrap();
    assert!(e.message.contains("a hex faces one way"), "{e}");
}

#[test]
fn a_unit_in_the_river_is_refused() {
    let mut rows = OPEN_8X8.to_vec();
    rows[2] = ". . ~ . . . . .";
    let units = [
        unit("red", "r1", "infantry", 6, "0303", "S"),
        unit("blue", "b1", "infantry", 6, "0808", "N"),
    ];
    let text = scenario(&rows, "", &units);
    refused_at(&text, "\"0303\"", "all-water hex");
}

#[test]
fn a_unit_off_the_map_is_refused() {
    let text = base(&[unit("red", "r1", "infantry", 6, "0909", "S")]);
    refused_at(&text, "\"0909\"", "off the map");
}

#[test]
fn bad_facings_figures_sides_and_unknown_keys_are_refused() {
    let text = base(&[unit("red", "r1", "infantry", 6, "0303", "E")]);
    refused_at(&text, "\"E\"", "expected a facing");
    let text = base(&[unit("red", "r1", "infantry", 0, "0303", "S")]);
    refused_at(&text, "0\nhex", "figures must be at least 1");
    let text = base(&[unit("green", "r1", "infantry", 6, "0303", "S")]);
    refused_at(&text, "\"green\"", "expected side");
    let text = base(&[unit("red", "r1", "infantry", 6, "0303", "S") + "strength = 4\n"]);
    refused_at(&text, "strength = 4", "unknown field `strength`");
    let text = base(&[unit("red", "r1 a", "infantry", 6, "0303", "S")]);
    refused_at(&text, "\"r1 a\"", "an id is one word");
}

#[test]
fn header_options_and_sides_are_checked() {
    let units = [unit("red", "r1", "infantry", 6, "0303", "S")];
    let text = base(&units).replace("\"stand-and-die\"", "\"hex-command\"");
    refused_at(&text, "\"hex-command\"", "not \"stand-and-die\"");
    let text = base(&units).replace("turn_limit = 3", "turn_limit = 0");
    refused_at(&text, "0\n", "turn_limit must be at least 1");
    let text = scenario(&OPEN_8X8, "[options]\nhex_capacity = 0\n", &units);
    refused_at(
        &text,
        "0\n\n[map]",
        "option hex_capacity: expected a whole number from 1 to 100",
    );
    let text = scenario(&OPEN_8X8, "[options]\nmorale = 3\n", &units);
    refused_at(&text, "3\n\n[map]", "unknown option \"morale\"");
    let text = scenario(&OPEN_8X8, "", &units);
    let e = load(&text).err().unwrap();
    assert!(e.message.contains("blue has no units"), "{e}");
}

#[test]
fn streams_and_slopes_along_hexsides_are_refused() {
    for (kind, message) in [
        (
            "stream",
            "no streams along hexsides: its rivers are all-water hexes",
        ),
        ("slope", "no slopes: heights play no part"),
    ] {
        let text = base(&[unit("red", "r1", "infantry", 6, "0303", "S")]).replace(
            "[map]\n",
            &format!(
                "[map]\nhexsides = [{{ between = [\"0303\", \"0304\"], kind = \"{kind}\" }}]\n"
            ),
        );
        refused_at(&text, &format!("\"{kind}\""), message);
    }
}

#[test]
fn boats_are_moored_on_all_water_hexes_only() {
    let mut rows = OPEN_8X8.to_vec();
    rows[2] = ". . ~ . . . . .";
    let units = [unit("red", "r1", "infantry", 6, "0202", "S")];
    let units: Vec<String> = units
        .into_iter()
        .chain([unit("blue", "b9", "infantry", 4, "0808", "N")])
        .collect();
    let text = scenario(&rows, "boats = [\"0203\"]\n", &units);
    refused_at(
        &text,
        "\"0203\"",
        "boats are moored on all-water hexes; 0203 is clear",
    );
    let text = scenario(&rows, "boats = [\"0303\", \"0303\"]\n", &units);
    let e = load(&text).err().expect("refused");
    assert!(e.message.contains("boats at 0303 are listed twice"), "{e}");
    let text = scenario(&rows, "boats = [\"0909\"]\n", &units);
    assert!(load(&text)
        .err()
        .expect("refused")
        .message
        .contains("off the map"));
}
