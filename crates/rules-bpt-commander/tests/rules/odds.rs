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

#[test]
fn an_order_that_blunders_into_cross_fire_plays_each_attack_on_what_the_last_one_left() {
    // Blunder 2 fires on the three units nearest the commander in turn. `a`, next to it and
    // already suppressed, falls back from a hit straight away from the commander, into `c`:
    // halted by a friend, `c` is suppressed by the same attack, so when its own cross-fire
    // hits it, it tests no more. Counting each attack from the position before the blunder
    // gave `c` a suppression test it does not roll ("1 die too many").
    let mut g = Scen::new()
        .inf("red", "a", "0609", "N", &[])
        .inf("red", "c", "0608", "N", &[])
        .inf("blue", "b1", "0605", "S", &[])
        .command();
    let (a, c) = (k(&g, "a"), k(&g, "c"));
    g.units[a].suppressed = Some(rules_bpt_commander::troops::Suppression {
        placed: g.player_turn(),
        by_attack: 0,
    });
    // The path the test is about, played: 6 6 blunders, 2 is the cross-fire; `a` is hit once
    // (it has no save) and falls back 5 cm into `c`; `c` is hit once and rolls nothing more.
    let mut played = g.clone();
    let e = play(&mut played, "fire c b1", &[6, 6, 2, 6, 1, 1, 5, 6, 1, 1]);
    assert!(log(&e).contains("c is suppressed"), "{}", log(&e));
    assert_eq!(played.units[c].turn_hits, 1);
    let fire = g.parse_action("fire c b1").unwrap();
    let o = odds(&g, fire, None).expect("every case replays with exactly its dice");
    assert!(o.exact);
    let total: f64 = o.outcomes.iter().map(|l| l.probability).sum();
    assert!((total - 1.0).abs() < 1e-9, "{total}");
}
