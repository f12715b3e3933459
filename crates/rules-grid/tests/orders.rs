//! Orders: every legal order written in short text reads back to the same action; what cannot be
//! read is refused. One test per rule, with scripted dice and exact results. Maps are square unless
//! a test says hex; labels are column then row ("0304" = column 3, row 4).

mod common;

use common::*;

#[test]
fn orders_are_read_and_written_in_short_text() {
    let mut g = open_field("square");
    for a in g.legal_actions() {
        assert_eq!(g.parse_action(&g.notation(a)).unwrap(), a);
    }
    assert!(g.parse_action("jump r1 0304").is_err());
    assert!(g
        .parse_action("move r9 0304")
        .unwrap_err()
        .to_string()
        .contains("no unit \"r9\""));
    assert!(refused(&mut g, "fire r1 0601").contains("ranged attack phase"));
}
