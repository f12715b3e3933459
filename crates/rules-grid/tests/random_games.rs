//! The bundled scenario is valid and playable: random games (uniform over the legal actions,
//! seeded dice) run to the end without panics, keep the invariants after every action, and
//! end within a bounded number of actions.

use rules_grid::RULESET;
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
/// evasion, retreats, advances and removals all happen: played on the bundled map as a
/// square grid and as a hex grid, checking the invariants after every action.
#[test]
fn aggressive_random_games_on_both_grids_keep_the_invariants() {
    fn col_row(label: &str) -> (i32, i32) {
        (label[..2].parse().unwrap(), label[2..].parse().unwrap())
    }
    for grid in ["square", "hex"] {
        let text = BUNDLED.replace("grid = \"square\"", &format!("grid = \"{grid}\""));
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
                        "move"
                            if nearest(w[2])
                                < nearest(&view.unit(w[1]).unwrap().place.to_string()) =>
                        {
                            6
                        }
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
                let a = choice[pick.roll(choice.len() as u32) as usize - 1];
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
