//! Random play from the bundled scenario: every game ends, in a bounded number of actions,
//! with the invariants holding after every action.

use crate::scenario::RIVER_CROSSING;
use rules_stand_and_die::RULESET;
use volley_core::{Dice, Options, Ruleset, ScenarioSource, Seed, SeededDice};

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
