//! The sequence of play over whole games. Random play from the bundled scenario: every game
//! ends, in a bounded number of actions, with the invariants holding after every action; and
//! along the way the fast paths of the game API (the legal list, each unit's actions, the
//! units that can act, the unchecked apply) say and do exactly what checking every order one
//! by one would.

mod common;

use common::{river_crossing, RIVER_CROSSING};
use rules_stand_and_die::RULESET;
use volley_core::geometry::{col_row, hex_at, label, parse_label, Facing};
use volley_core::{Action, Dice, Game, Options, Ruleset, ScenarioSource, Seed, SeededDice};

const GAMES: u64 = 200;
/// Far above what a game can take: per turn each unit has at most 3 steps and 4 turns, each
/// hex one marker change and one volley, and each side two `end`s.
const MAX_ACTIONS: usize = 5_000;

#[test]
fn random_games_from_the_river_crossing_end_with_invariants_intact() {
    let src = ScenarioSource::new("scenarios/sad-river-crossing.toml", RIVER_CROSSING);
    let end = {
        let g = RULESET.load(&src, &Options::new()).unwrap();
        g.parse_action("end").unwrap()
    };
    let mut volleys = 0;
    let mut decided = 0;
    for n in 0..GAMES {
        let mut g = RULESET.load(&src, &Options::new()).unwrap();
        let mut dice = SeededDice::new(Seed::from_u64(n));
        let mut chooser = SeededDice::new(Seed::from_u64(1_000_000 + n));
        g.start(&mut dice);
        let mut actions = 0;
        while g.outcome().is_none() {
            let legal = g.legal_actions();
            assert!(legal.contains(&end), "game {n}: end is always legal");
            let action = legal[chooser.roll(legal.len() as u32) as usize - 1];
            let text = g.notation(action);
            assert_eq!(g.parse_action(&text), Ok(action), "game {n}: {text}");
            let events = g
                .apply(action, &mut dice)
                .unwrap_or_else(|e| panic!("game {n}: legal {text} refused: {e}"));
            assert!(events.iter().all(|e| e.rule.starts_with("stand-and-die ")));
            volleys += usize::from(text.starts_with("fire"));
            g.check_invariants()
                .unwrap_or_else(|e| panic!("game {n} after {text}: {e}"));
            actions += 1;
            assert!(actions <= MAX_ACTIONS, "game {n} did not end");
        }
        assert_eq!(g.to_decide(), None);
        assert!(g.legal_actions().is_empty());
        decided += usize::from(g.outcome().unwrap().winner.is_some());
    }
    assert!(volleys > 0, "random play never fired a volley");
    assert!(decided > 0, "every random game was a draw");
}

/// Plays `games` random games, calling `at` on every position where a side is to decide.
fn positions(games: u64, mut at: impl FnMut(&dyn Game, u64)) {
    for n in 0..games {
        let mut g = river_crossing();
        let mut dice = SeededDice::new(Seed::from_u64(n));
        let mut chooser = SeededDice::new(Seed::from_u64(3_000_000 + n));
        g.start(&mut dice);
        while g.to_decide().is_some() {
            at(&*g, n);
            let legal = g.legal_actions();
            let action = legal[chooser.roll(legal.len() as u32) as usize - 1];
            g.apply(action, &mut dice).unwrap();
        }
    }
}

/// Every order that could be legal somewhere near the units now: each order of each unit
/// to or at every hex within two of it, and `end`.
fn orders_near_the_units(g: &dyn Game) -> Vec<Action> {
    let mut texts = vec!["end".to_string()];
    for u in g.view(None).units {
        let here = u.place.to_string();
        let (c, r) = col_row(parse_label(&here).unwrap());
        for f in Facing::ALL {
            texts.push(format!("face {} {f}", u.id));
        }
        for (dc, dr) in (-2..=2).flat_map(|dc| (-2..=2).map(move |dr| (dc, dr))) {
            if c + dc < 1 || r + dr < 1 {
                continue;
            }
            let there = label(hex_at(c + dc, r + dr));
            texts.push(format!("move {} {there}", u.id));
            texts.push(format!("stand {there}"));
            texts.push(format!("fall-back {there}"));
            texts.push(format!("fire {here} {there}"));
        }
    }
    let mut orders: Vec<Action> = texts.iter().map(|t| g.parse_action(t).unwrap()).collect();
    orders.sort();
    orders.dedup();
    orders
}

#[test]
fn the_legal_list_is_exactly_what_apply_accepts() {
    positions(12, |g, n| {
        let legal = g.legal_actions();
        for order in orders_near_the_units(g) {
            let accepted = g
                .clone_game()
                .apply(order, &mut SeededDice::new(Seed::from_u64(n)))
                .is_ok();
            assert_eq!(
                legal.contains(&order),
                accepted,
                "game {n}: {} is listed or accepted, not both",
                g.notation(order)
            );
        }
        let mut sorted = legal.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), legal.len(), "game {n}: an order listed twice");
    });
}

#[test]
fn apply_unchecked_leaves_the_position_apply_leaves() {
    for n in 0..40 {
        let (mut checked, mut unchecked) = (river_crossing(), river_crossing());
        let mut dice = [0, 1].map(|_| SeededDice::new(Seed::from_u64(n)));
        let mut chooser = SeededDice::new(Seed::from_u64(4_000_000 + n));
        checked.start(&mut dice[0]);
        unchecked.start(&mut dice[1]);
        while checked.to_decide().is_some() {
            let legal = checked.legal_actions();
            let action = legal[chooser.roll(legal.len() as u32) as usize - 1];
            let text = checked.notation(action);
            checked.apply(action, &mut dice[0]).unwrap();
            unchecked.apply_unchecked(action, &mut dice[1]);
            assert_eq!(unchecked.view(None), checked.view(None), "game {n}: {text}");
            assert_eq!(unchecked.legal_actions(), checked.legal_actions());
            assert_eq!(unchecked.outcome(), checked.outcome());
        }
        assert_eq!(
            dice[0].roll(1000),
            dice[1].roll(1000),
            "game {n}: dice used"
        );
    }
}
