//! Bots on the bundled scenarios: they play whole games legally, repeat for a seed, and
//! never decide from what their side cannot see.

use rules_hex_command::{HexCommandGame, OPTIONS};
use volley_ai::{bot_from_spec, play_game, Bot};
use volley_core::{Game, Options, Seed, SeededDice, Side};

fn load(name: &str) -> Box<dyn Game> {
    let (_, source) = volley_rulesets::scenario_source(name).expect("bundled");
    volley_rulesets::ruleset_of(&source)
        .expect("known ruleset")
        .load(&source, &Options::new())
        .expect("loads")
}

fn bots(red: &str, blue: &str, seed: u64) -> [Box<dyn Bot>; 2] {
    [
        bot_from_spec(red, seed).expect("known"),
        bot_from_spec(blue, seed + 1).expect("known"),
    ]
}

#[test]
fn heuristic_and_easy_play_every_bundled_scenario_to_the_end() {
    for b in volley_rulesets::bundled() {
        let mut players = bots("heuristic", "easy", 5);
        let record = play_game(load(b.name), &mut players, Seed::from_u64(5), 100_000)
            .unwrap_or_else(|e| panic!("{}: {e}", b.name));
        assert!(record.turns >= 1, "{}", b.name);
    }
}

/// Plays hc-first-clash twice between the two bots from one seed and checks the records match.
fn repeats_for_a_seed(red: &str, blue: &str, seed: u64) {
    let run = || {
        let mut players = bots(red, blue, seed);
        play_game(
            load("hc-first-clash"),
            &mut players,
            Seed::from_u64(seed),
            100_000,
        )
        .expect("plays")
    };
    assert_eq!(run(), run(), "{red} against {blue}");
}

#[test]
fn mcts_plays_a_small_battle_to_the_end_and_repeats_for_a_seed() {
    repeats_for_a_seed("mcts:iters=40", "mcts:iters=40,threads=2", 9);
}

#[test]
fn hard_plays_a_battle_to_the_end_and_repeats_for_a_seed() {
    // Its follow-ups and the enemy's replies are played in sampled worlds with their own
    // seeded dice: the same seed gives the same game, action for action.
    repeats_for_a_seed("hard", "heuristic:follow=2,reply=2,halving=1", 4);
}

#[test]
fn bot_specs_with_settings() {
    for spec in [
        "random",
        "heuristic",
        "heuristic:follow=2,samples=2,candidates=4",
        "heuristic:blunder=0.5",
        "mcts:ms=100",
        "mcts:iters=2000",
        "mcts:iters=50,threads=2,depth=3,c=0.5",
        "easy",
        "normal",
        "hard",
    ] {
        let bot = bot_from_spec(spec, 1).unwrap_or_else(|e| panic!("{spec}: {e}"));
        assert!(!bot.spec().is_empty());
    }
    for bad in [
        "mcts:ms",
        "mcts:fast=1",
        "heuristic:x=1",
        "mcts:iters=many",
        "heuristic:samples=0",
        "heuristic:follow=many",
        "heuristic:blunder=2",
        "normal:follow=1",
    ] {
        assert!(bot_from_spec(bad, 1).is_err(), "{bad} was accepted");
    }
}

/// Night March after some moves, with red to decide and at least two blue units hidden from
/// red; and a copy in which two of those hidden units have traded places. Red's view of the
/// two is the same, so every bot must make the same decision in both.
fn fogged_pair(plies: usize) -> (HexCommandGame, HexCommandGame) {
    let (_, source) = volley_rulesets::scenario_source("hc-night-march").expect("bundled");
    let state =
        rules_hex_command::scenario::load(&source, &Options::new(), OPTIONS).expect("loads");
    let mut game = HexCommandGame::new(state);
    let mut dice = SeededDice::new(Seed::from_u64(77));
    game.start(&mut dice);
    let mut mover = bot_from_spec("random", 3).expect("known");
    let mut n = 0;
    loop {
        let side = game.to_decide().expect("the game goes on this long");
        let s = &game.state;
        let hidden: Vec<usize> = (0..s.units.len())
            .filter(|&i| {
                s.units[i].side == Side::Blue && s.units[i].active() && !s.visible_to(i, Side::Red)
            })
            .collect();
        if n >= plies && side == Side::Red && hidden.len() >= 2 {
            let (a, b) = (hidden[0], hidden[hidden.len() - 1]);
            let mut other = game.clone();
            let ua = other.state.units[a].clone();
            let ub = other.state.units[b].clone();
            other.state.units[a].hex = ub.hex;
            other.state.units[a].facing = ub.facing;
            other.state.units[b].hex = ua.hex;
            other.state.units[b].facing = ua.facing;
            assert_ne!(ua.hex, ub.hex);
            return (game, other);
        }
        let a = mover.choose(&game, side);
        game.apply(a, &mut dice).expect("legal");
        n += 1;
    }
}

/// A bot that cheats: it picks by where the units it should not see really stand. The test
/// below must be able to tell it from an honest bot.
struct Peeker;

impl Bot for Peeker {
    fn spec(&self) -> String {
        "peeker".into()
    }

    fn choose(&mut self, game: &dyn Game, _side: Side) -> volley_core::Action {
        let legal = game.legal_actions();
        let hexes: usize = game
            .view(None)
            .units
            .iter()
            .filter(|u| u.side == Side::Blue)
            .map(|u| u.place.to_string().parse::<usize>().unwrap_or(0) * u.id.len())
            .enumerate()
            .map(|(k, h)| h * (k + 1))
            .sum();
        legal[hexes % legal.len()]
    }
}

#[test]
fn no_bot_decides_from_what_its_side_cannot_see() {
    let mut caught = false;
    for plies in [0, 12, 40] {
        let (real, swapped) = fogged_pair(plies);
        assert_eq!(
            real.view(Some(Side::Red)),
            swapped.view(Some(Side::Red)),
            "the swap must be invisible to red"
        );
        assert_ne!(real.view(None), swapped.view(None), "the swap must be real");
        for spec in [
            "random",
            "easy",
            "heuristic",
            "hard",
            "heuristic:follow=2,reply=3,halving=1",
            "mcts:iters=150",
        ] {
            let a = bot_from_spec(spec, 11)
                .expect("known")
                .choose(&real, Side::Red);
            let b = bot_from_spec(spec, 11)
                .expect("known")
                .choose(&swapped, Side::Red);
            assert_eq!(
                real.notation(a),
                swapped.notation(b),
                "{spec} decided differently on hidden information (after {plies} actions)"
            );
        }
        caught |= Peeker.choose(&real, Side::Red) != Peeker.choose(&swapped, Side::Red);
    }
    assert!(
        caught,
        "the test cannot tell a bot that peeks from one that does not"
    );
}
