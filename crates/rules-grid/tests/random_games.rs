//! The bundled scenario is valid and playable: random games (uniform over the legal actions,
//! seeded dice) run to the end without panics, keep the invariants after every action, and
//! end within a bounded number of actions. Along the way the fast paths of the game API (the
//! legal list, each unit's actions, the units that can act, the unchecked apply) say and do
//! exactly what checking every order one by one would.

use rules_grid::RULESET;
use volley_core::geometry::{col_row, hex_at, label, parse_label};
use volley_core::{Action, Dice, Game, Options, Ruleset, ScenarioSource, Seed, SeededDice};

const BUNDLED: &str = include_str!("../../../scenarios/grid-ridge.toml");
/// Far above any real game: 12 game-turns of 2 player-turns, each a few dozen orders.
const MAX_ACTIONS: usize = 5_000;

fn bundled() -> Box<dyn Game> {
    RULESET
        .load(
            &ScenarioSource::new("scenarios/grid-ridge.toml", BUNDLED),
            &Options::new(),
        )
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn bundled_scenario_is_valid_and_every_order_reads_back() {
    let mut g = bundled();
    g.start(&mut SeededDice::new(Seed::from_u64(1)));
    g.check_invariants().unwrap();
    let view = g.view(None);
    assert_eq!(view.units.len(), 16);
    assert_eq!(view.map.grid, volley_core::map::Grid::Square);
    for a in g.legal_actions() {
        assert_eq!(g.parse_action(&g.notation(a)).unwrap(), a);
    }
}

#[test]
fn random_games_from_grid_ridge_end_without_panics() {
    let mut longest = 0;
    let mut decided = 0;
    for n in 0..200u64 {
        let mut g = bundled();
        let mut dice = SeededDice::new(Seed::from_u64(n));
        let mut pick = SeededDice::new(Seed::from_u64(1_000_000 + n));
        g.start(&mut dice);
        let mut actions = 0;
        while g.outcome().is_none() {
            let legal = g.legal_actions();
            assert!(
                !legal.is_empty(),
                "game {n}: no legal action but no outcome"
            );
            assert!(g.to_decide().is_some());
            let a = legal[pick.roll(legal.len() as u32) as usize - 1];
            let text = g.notation(a);
            g.apply(a, &mut dice)
                .unwrap_or_else(|e| panic!("game {n}: legal {text} refused: {e}"));
            g.check_invariants()
                .unwrap_or_else(|e| panic!("game {n} after {text}: {e}"));
            actions += 1;
            assert!(actions <= MAX_ACTIONS, "game {n} did not end");
        }
        assert!(g.legal_actions().is_empty() && g.to_decide().is_none());
        longest = longest.max(actions);
        decided += g.outcome().unwrap().winner.is_some() as usize;
    }
    assert!(decided > 0, "no random game had a winner");
    eprintln!("longest random game: {longest} actions; {decided} of 200 decided");
}

/// A player that mostly attacks, fires and closes with the enemy, so that close combat,
/// evasion, retreats, advances and removals all happen.
fn aggressive_choice(g: &dyn Game, pick: &mut SeededDice) -> Action {
    fn col_row(label: &str) -> (i32, i32) {
        (label[..2].parse().unwrap(), label[2..].parse().unwrap())
    }
    let view = g.view(None);
    let side = g.to_decide().unwrap();
    let nearest = |tile: &str| {
        let (c, r) = col_row(tile);
        view.units
            .iter()
            .filter(|u| u.side != side)
            .map(|u| {
                let (ec, er) = col_row(&u.place.to_string());
                (ec - c).abs() + (er - r).abs()
            })
            .min()
            .unwrap_or(0)
    };
    let eagerness = |a: &Action| {
        let text = g.notation(*a);
        let w: Vec<&str> = text.split(' ').collect();
        match w[0] {
            "attack" | "fire" | "occupy" => 10,
            "stand" | "withdraw" => 5,
            "move" if nearest(w[2]) < nearest(&view.unit(w[1]).unwrap().place.to_string()) => 6,
            "end" => 2,
            _ => 1,
        }
    };
    let legal = g.legal_actions();
    let best = legal.iter().map(eagerness).max().unwrap();
    let choice: Vec<Action> = legal
        .iter()
        .filter(|a| eagerness(a) == best || pick.roll(6) == 1)
        .copied()
        .collect();
    choice[pick.roll(choice.len() as u32) as usize - 1]
}

/// The aggressive player on the bundled map as a square grid and as a hex grid, checking the
/// invariants after every action. The battles are played to twelve game-turns (the bundled
/// battle has eight since issue 15's balance passes), so that every kind of combat result
/// comes up in 60 games.
#[test]
fn aggressive_random_games_on_both_grids_keep_the_invariants() {
    for grid in ["square", "hex"] {
        let text = BUNDLED
            .replace("grid = \"square\"", &format!("grid = \"{grid}\""))
            .replace("turn_limit = 8", "turn_limit = 12");
        assert!(text.contains("turn_limit = 12"));
        let mut kinds = std::collections::BTreeSet::new();
        for n in 0..60u64 {
            let mut g = RULESET
                .load(
                    &ScenarioSource::new("grid-ridge.toml", text.as_str()),
                    &Options::new(),
                )
                .unwrap();
            let mut dice = SeededDice::new(Seed::from_u64(n));
            let mut pick = SeededDice::new(Seed::from_u64(2_000_000 + n));
            g.start(&mut dice);
            let mut actions = 0;
            while g.outcome().is_none() {
                let a = aggressive_choice(&*g, &mut pick);
                let text = g.notation(a);
                for e in g.apply(a, &mut dice).unwrap() {
                    kinds.insert(e.kind);
                }
                g.check_invariants()
                    .unwrap_or_else(|e| panic!("{grid} game {n} after {text}: {e}"));
                actions += 1;
                assert!(actions <= MAX_ACTIONS, "{grid} game {n} did not end");
            }
        }
        for kind in [
            "attack",
            "evade",
            "stand",
            "withdraw",
            "occupy",
            "impact",
            "removed",
            "commander",
        ] {
            assert!(kinds.contains(kind), "{grid}: no {kind} event in 60 games");
        }
    }
}

/// The bundled scenario on its square grid and, with the same rows, on hexes.
fn both_grids() -> [Box<dyn Game>; 2] {
    ["square", "hex"].map(|grid| {
        let text = BUNDLED.replace("grid = \"square\"", &format!("grid = \"{grid}\""));
        RULESET
            .load(
                &ScenarioSource::new("grid-ridge.toml", text.as_str()),
                &Options::new(),
            )
            .unwrap()
    })
}

/// Plays `games` games on each grid, half of them uniformly at random and half
/// aggressively (so that combat comes up), calling `at` on every position where a side is
/// to decide, and on the game before it starts.
fn positions(games: u64, mut at: impl FnMut(&dyn Game, u64)) {
    for fresh in both_grids() {
        for n in 0..games {
            let mut g = fresh.clone_game();
            at(&*g, n);
            let mut dice = SeededDice::new(Seed::from_u64(n));
            let mut pick = SeededDice::new(Seed::from_u64(3_000_000 + n));
            g.start(&mut dice);
            while g.to_decide().is_some() {
                at(&*g, n);
                let a = if n % 2 == 0 {
                    let legal = g.legal_actions();
                    legal[pick.roll(legal.len() as u32) as usize - 1]
                } else {
                    aggressive_choice(&*g, &mut pick)
                };
                g.apply(a, &mut dice).unwrap();
            }
        }
    }
}

/// Every order that could be legal somewhere near the units now: each order of each unit to
/// or at every tile within two of it and every unit's tile, its facings, every commander's
/// ride to it, and `end`.
fn orders_near_the_units(g: &dyn Game) -> Vec<Action> {
    let view = g.view(None);
    let mut texts = vec!["end".to_string()];
    for u in &view.units {
        let (c, r) = col_row(parse_label(&u.place.to_string()).unwrap());
        for side in ["N", "NE", "E", "SE", "S", "SW", "W", "NW"] {
            texts.push(format!("face {} {side}", u.id));
        }
        texts.push(format!("stand {}", u.id));
        let near = (-2..=2).flat_map(|dc| (-2..=2).map(move |dr| (c + dc, r + dr)));
        let tiles = near
            .filter(|&(c, r)| c >= 1 && r >= 1)
            .map(|(c, r)| label(hex_at(c, r)))
            .chain(view.units.iter().map(|e| e.place.to_string()));
        for tile in tiles {
            for verb in ["move", "withdraw", "fire", "attack", "occupy"] {
                texts.push(format!("{verb} {} {tile}", u.id));
            }
        }
        for commander in view.sides.iter().flat_map(|s| &s.commanders) {
            texts.push(format!("attach {} {}", commander.id, u.id));
        }
    }
    let mut orders: Vec<Action> = texts
        .iter()
        .filter_map(|t| g.parse_action(t).ok())
        .collect();
    orders.sort();
    orders.dedup();
    orders
}

#[test]
fn the_legal_list_is_exactly_what_apply_accepts() {
    positions(6, |g, n| {
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
    for fresh in both_grids() {
        for n in 0..30 {
            let (mut checked, mut unchecked) = (fresh.clone_game(), fresh.clone_game());
            let mut dice = [0, 1].map(|_| SeededDice::new(Seed::from_u64(n)));
            let mut pick = SeededDice::new(Seed::from_u64(4_000_000 + n));
            checked.start(&mut dice[0]);
            unchecked.start(&mut dice[1]);
            while checked.to_decide().is_some() {
                let a = if n % 2 == 0 {
                    let legal = checked.legal_actions();
                    legal[pick.roll(legal.len() as u32) as usize - 1]
                } else {
                    aggressive_choice(&*checked, &mut pick)
                };
                let text = checked.notation(a);
                checked.apply(a, &mut dice[0]).unwrap();
                unchecked.apply_unchecked(a, &mut dice[1]);
                assert_eq!(unchecked.view(None), checked.view(None), "game {n}: {text}");
                assert_eq!(unchecked.legal_actions(), checked.legal_actions());
                assert_eq!(unchecked.outcome(), checked.outcome());
                unchecked
                    .check_invariants()
                    .unwrap_or_else(|e| panic!("game {n} after {text}: {e}"));
            }
            assert_eq!(
                dice[0].roll(1000),
                dice[1].roll(1000),
                "game {n}: dice used"
            );
        }
    }
}
