//! The fire odds the ruleset counts (Game::odds_cases) against a walk over every die
//! sequence of the preview.

use crate::common::*;
use std::collections::BTreeMap;
use volley_core::dice::DiceEnumerator;
use volley_core::odds::{describe_change, odds};
use volley_core::Game;

fn walk(g: &rules_bpt_commander::BptGame, action: volley_core::Action) -> BTreeMap<String, f64> {
    let before = g.view(None);
    let mut tally: BTreeMap<String, f64> = BTreeMap::new();
    let mut e = DiceEnumerator::new();
    loop {
        e.begin();
        let mut c = g.clone_game();
        c.preview(action, &mut e).unwrap();
        *tally
            .entry(describe_change(&before, &c.view(None)))
            .or_default() += e.probability();
        if !e.advance() {
            break;
        }
    }
    assert!(!e.truncated);
    tally
}

fn check(g: &rules_bpt_commander::BptGame, order: &str) {
    let a = g.parse_action(order).unwrap();
    assert!(
        g.odds_cases(a).is_some(),
        "{order}: the ruleset counts this one"
    );
    let o = odds(g, a, None).unwrap();
    assert!(o.exact);
    let counted: BTreeMap<String, f64> = o
        .outcomes
        .iter()
        .map(|l| (l.outcome.clone(), l.probability))
        .collect();
    let walked = walk(g, a);
    assert_eq!(
        counted.keys().collect::<Vec<_>>(),
        walked.keys().collect::<Vec<_>>(),
        "{order}"
    );
    for (k, p) in &counted {
        assert!(
            (p - walked[k]).abs() < 1e-9,
            "{order}: {k}: {p} vs {}",
            walked[k]
        );
    }
}

#[test]
fn fire_odds_equal_the_enumeration_for_one_to_three_dice() {
    // Saves and the march column's flank bonus add dice: those cases stay at one stand so that
    // the walk stays small.
    let cases = [
        (1, "0", "line"),
        (2, "0", "line"),
        (3, "0", "line"),
        (1, "5", "line"),
        (1, "0", "march"),
    ];
    for (stands, save, formation) in cases {
        let formation = &format!("\"{formation}\"");
        {
            let g = duel(
                &[("stands", &stands.to_string())],
                &[
                    ("save", save),
                    ("formation", formation),
                    ("stands", "2"),
                    ("hits", "2"),
                ],
            )
            .start_with(&[]);
            check(&g, "fire r1 b1");
        }
    }
}

#[test]
fn fire_odds_equal_the_enumeration_when_the_target_would_fall_back() {
    for (stands, traits) in [(1, "[]"), (2, "[\"elite\"]"), (2, "[\"poor\"]")] {
        let mut g = duel(&[("stands", &stands.to_string())], &[("traits", traits)]).start_with(&[]);
        let b1 = k(&g, "b1");
        g.units[b1].suppressed = Some(rules_bpt_commander::troops::Suppression {
            placed: 0,
            by_attack: 99,
        });
        check(&g, "fire r1 b1");
    }
}
