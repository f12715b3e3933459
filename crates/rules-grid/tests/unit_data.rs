//! Unit Data (Volley's table; the text prints none), overridden by a scenario. One test per rule,
//! with scripted dice and exact results. Maps are square unless a test says hex; labels are column
//! then row ("0304" = column 3, row 4).

mod common;

use common::*;

#[test]
fn unit_data_can_be_overridden_by_the_scenario() {
    let mut g = two_shooters(
        "[unit_data.line_infantry]\nranged = [{ range = 3, hits = [5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5] }]\n",
    );
    let events = play(&mut g, "fire r1 0302", &[1, 1]);
    assert!(
        events[0]
            .text
            .ends_with("rolled 1+1 = 2 on the line infantry table: 5 hits."),
        "{}",
        events[0].text
    );
    let s = scenario(
        "square",
        &rows(&open(4, 4)),
        &[
            unit("r1", "red", "line_infantry", "0103", "N"),
            unit("b1", "blue", "line_infantry", "0101", "S"),
        ],
        "[unit_data.grenadiers]\nstrength = 7\n",
    );
    let e = load(&s).err().unwrap();
    assert_eq!(e.line, line_of(&s, "[unit_data.grenadiers]"));
    assert!(e.message.contains("unknown field `grenadiers`"), "{e}");
}
