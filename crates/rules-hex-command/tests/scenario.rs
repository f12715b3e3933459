//! Bad scenarios: each is refused with the file, line and column and what was expected.

mod common;

use common::*;

fn load_err(text: &str) -> volley_core::ScenarioError {
    let src = volley_core::ScenarioSource::new("bad.toml", text);
    match rules_hex_command::scenario::load(&src, &volley_core::Options::new(), OPTIONS) {
        Ok(_) => panic!("should be refused:\n{text}"),
        Err(e) => e,
    }
}

const HEAD: &str = "ruleset = \"hex-command\"\nname = \"t\"\ntitle = \"t\"\nturn_limit = 5\n[map]\nrows = [\". . .\", \". W ~\"]\n[sides.red]\nname = \"R\"\n[sides.blue]\nname = \"B\"\n";

fn with_units(units: &str) -> String {
    format!(
        "{HEAD}{units}{}",
        unit("b9", "blue", "infantry", "0101", "S", "")
    )
}

#[test]
fn two_units_in_one_hex_are_refused() {
    let text = with_units(
        &(unit("r1", "red", "infantry", "0201", "N", "")
            + &unit("r2", "red", "infantry", "0201", "N", "")),
    );
    let e = load_err(&text);
    assert!(e.message.contains("r1 is already at 0201"), "{e}");
    assert_eq!(
        e.line,
        text[..text
            .find("hex = \"0201\"\nfacing = \"N\"\n\n[[units]]\nid = \"b9\"")
            .unwrap()]
            .lines()
            .count()
            + 1
    );
}

#[test]
fn unknown_arm_class_and_facing_are_refused_where_they_stand() {
    let e = load_err(&with_units(&unit("r1", "red", "dragons", "0201", "N", "")));
    assert!(e.message.contains("unknown arm \"dragons\""), "{e}");
    assert!(e.line > 10 && e.column > 1);
    let e = load_err(&with_units(&unit(
        "r1",
        "red",
        "infantry",
        "0201",
        "N",
        "class = \"Z\"",
    )));
    assert!(e.message.contains("unknown weapon class \"Z\""), "{e}");
    let e = load_err(&with_units(&unit(
        "r1", "red", "infantry", "0201", "UP", "",
    )));
    assert!(e.message.contains("expected a facing"), "{e}");
}

#[test]
fn units_on_impossible_ground_or_off_the_map_are_refused() {
    let e = load_err(&with_units(&unit("r1", "red", "cavalry", "0202", "N", "")));
    assert!(
        e.message.contains("cavalry cannot stand in woods at 0202"),
        "{e}"
    );
    let e = load_err(&with_units(&unit("r1", "red", "infantry", "0302", "N", "")));
    assert!(e.message.contains("cannot stand in water"), "{e}");
    let e = load_err(&with_units(&unit("r1", "red", "infantry", "0909", "N", "")));
    assert!(e.message.contains("off the map"), "{e}");
}

#[test]
fn duplicate_ids_missing_sides_and_bad_numbers_are_refused() {
    let e = load_err(&with_units(
        &(unit("r1", "red", "infantry", "0201", "N", "")
            + &unit("r1", "red", "infantry", "0301", "N", "")),
    ));
    assert!(e.message.contains("\"r1\" is used twice"), "{e}");
    let e = load_err(&format!(
        "{HEAD}{}",
        unit("b9", "blue", "infantry", "0101", "S", "")
    ));
    assert!(e.message.contains("red has no units"), "{e}");
    let e = load_err(&with_units(&unit(
        "r1", "purple", "infantry", "0201", "N", "",
    )));
    assert!(e.message.contains("expected side"), "{e}");
    let bad_turns = with_units(&unit("r1", "red", "infantry", "0201", "N", ""))
        .replace("turn_limit = 5", "turn_limit = 0");
    assert!(load_err(&bad_turns).message.contains("turn_limit"));
}

#[test]
fn unknown_keys_and_options_are_refused() {
    let e = load_err(&with_units(&unit(
        "r1",
        "red",
        "infantry",
        "0201",
        "N",
        "colour = \"red\"",
    )));
    assert!(e.message.contains("unknown field `colour`"), "{e}");
    let text = with_units(&unit("r1", "red", "infantry", "0201", "N", ""))
        .replace("[map]", "[options]\noblique = \"sometimes\"\n[map]");
    let e = load_err(&text);
    assert!(
        e.message
            .contains("option oblique: expected one of yes, no"),
        "{e}"
    );
    assert_eq!(e.line, 6);
}

#[test]
fn decoys_need_hidden_movement() {
    let text = with_units(&unit("r1", "red", "infantry", "0201", "N", ""))
        + "[[decoys]]\nside = \"red\"\nhex = \"0301\"\n";
    assert!(load_err(&text)
        .message
        .contains("decoys need the option hidden"));
}
