//! Orders: the text notation, and refusals that leave the game as it was.

mod common;

use common::*;
use volley_core::{Action, ScriptedDice};

#[test]
fn every_legal_order_reads_back_from_its_notation() {
    let mut g = river_crossing();
    assert!(
        g.legal_actions().is_empty(),
        "nothing is legal before the opening roll"
    );
    assert_eq!(g.to_decide(), None);
    g.start(&mut ScriptedDice::new([1]));
    let legal = g.legal_actions();
    let written: Vec<String> = legal.iter().map(|a| g.notation(*a)).collect();
    for (a, text) in legal.iter().zip(&written) {
        assert_eq!(g.parse_action(text).as_ref(), Ok(a), "{text}");
    }
    for expected in [
        "end",
        "move r1 0404",
        "face r3 N",
        "stand 0304",
        "fall-back 0304",
    ] {
        if expected == "fall-back 0304" {
            assert!(
                !written.contains(&expected.to_string()),
                "0304 is not Standing yet"
            );
        } else {
            assert!(
                written.contains(&expected.to_string()),
                "{expected} missing"
            );
        }
    }
}

#[test]
fn illegal_orders_are_refused_and_change_nothing() {
    let mut g = river_crossing();
    g.start(&mut ScriptedDice::new([1]));
    assert!(refused(&mut g, "move r1 0504").contains("not next to"));
    assert!(refused(&mut g, "move b1 0604").contains("only in blue's march"));
    assert!(refused(&mut g, "fire 0304 0404").contains("musketry"));
    let before = g.view(None);
    let e = g
        .apply(Action(u64::MAX), &mut ScriptedDice::new([]))
        .unwrap_err();
    assert!(e.0.contains("not a Stand and Die action"), "{e}");
    assert_eq!(g.view(None), before);
    assert!(g
        .parse_action("charge r1")
        .unwrap_err()
        .0
        .contains("expected end, move"));
    assert!(g
        .parse_action("move zz 0303")
        .unwrap_err()
        .0
        .contains("no unit"));
    assert!(g
        .parse_action("face r1 E")
        .unwrap_err()
        .0
        .contains("\"E\" is not a facing"));
    assert!(g
        .parse_action("stand 33")
        .unwrap_err()
        .0
        .contains("\"33\" is not a hex"));
}
