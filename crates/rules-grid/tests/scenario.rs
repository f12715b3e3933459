//! Scenario files: errors name the line and say what was expected. One test per rule, with scripted
//! dice and exact results. Maps are square unless a test says hex; labels are column then row
//! ("0304" = column 3, row 4).

mod common;

use common::*;

fn bad(units: &[String], needle: &str) -> (usize, String) {
    let s = scenario("square", &[". . m", ". . .", ". . ."], units, "");
    let e = load(&s).err().expect("scenario should be refused");
    assert_eq!(e.file, "test.toml");
    assert_eq!(e.line, line_of(&s, needle), "{e}");
    (e.line, e.message)
}

#[test]
fn scenario_errors_name_the_line() {
    let b1 = unit("b1", "blue", "line_infantry", "0103", "N");
    let (_, m) = bad(
        &[unit("r1", "red", "grenadiers", "0101", "S"), b1.clone()],
        "\"grenadiers\"",
    );
    assert!(m.contains("unknown unit type \"grenadiers\" (expected line_infantry, light_infantry, cavalry, artillery)"), "{m}");
    let (_, m) = bad(
        &[
            unit("r1", "red", "cavalry", "0101", "S"),
            unit("r1", "red", "cavalry", "0201", "S"),
            b1.clone(),
        ],
        "id = \"r1\"\nside = \"red\"\ntype = \"cavalry\"\ntile = \"0201\"",
    );
    assert!(m.contains("id \"r1\" is used twice"), "{m}");
    let (_, m) = bad(
        &[
            unit("r1", "red", "cavalry", "0101", "S"),
            unit("r2", "red", "cavalry", "0101", "S"),
            b1.clone(),
        ],
        "tile = \"0101\"\nfacing = \"S\"\n\n[[units]]\nid = \"b1\"",
    );
    assert!(m.contains("0101 is already held by r1"), "{m}");
    let (_, m) = bad(
        &[unit("r1", "red", "cavalry", "0301", "S"), b1.clone()],
        "tile = \"0301\"",
    );
    assert!(m.contains("swamps are impassable"), "{m}");
    let (_, m) = bad(&[unit("r1", "red", "cavalry", "0101", "SE"), b1], "\"SE\"");
    assert!(m.contains("expected a facing (N, E, S, W)"), "{m}");
}
