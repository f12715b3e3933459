//! Bots for Volley, written once against the [`Game`] API and never told which ruleset they
//! play. A bot decides from what its side may see: [`Game::legal_actions`] for the side to
//! decide, [`Game::view`] with that side, and [`Game::determinize`] for a full position to
//! search (a plausible one, built only from what the side has seen).
//!
//! Bots are named by a spec string, read by [`bot_from_spec`] (see [`KNOWN_BOTS`]), and
//! seeded so the same seed gives the same choices. [`play_game`] and [`simulate`] play
//! whole games with them.

pub mod eval;
pub mod field;
pub mod heuristic;
pub mod mcts;
pub mod play;
pub mod rating;

pub use heuristic::{HeuristicBot, HeuristicSettings};
pub use mcts::{Budget, MctsBot, MctsSettings};
pub use play::{
    play_game, simulate, Balance, BotThinking, GameRecord, Played, Report, Share, Simulation,
    Thinking, TurnTime, BALANCED_DECIDED, BALANCED_RED_SHARE,
};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use volley_core::{Action, Game, Side};

/// The seed of game `i` of a simulation (SplitMix64), so any game can be replayed alone.
pub fn game_seed(seed: u64, i: usize) -> u64 {
    let mut z = seed.wrapping_add((i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Something that picks an action for one side.
pub trait Bot: Send {
    /// The spec that makes this bot again (`random`).
    fn spec(&self) -> String;

    /// Picks one of `game.legal_actions()` for `side`, which must be the side to decide.
    ///
    /// # Panics
    ///
    /// When there is no legal action: callers ask only while the game is not over, and a
    /// game that is not over always has a legal action.
    fn choose(&mut self, game: &dyn Game, side: Side) -> Action;
}

/// Picks uniformly among the legal actions, with its own seeded ChaCha stream (never the
/// game's dice, so a bot's choices do not shift the rolls).
pub struct RandomBot {
    rng: ChaCha8Rng,
}

impl RandomBot {
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Bot for RandomBot {
    fn spec(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, game: &dyn Game, side: Side) -> Action {
        let n = game.legal_count();
        assert!(
            n > 0,
            "{side} was asked to choose but {} lists no legal action",
            game.ruleset()
        );
        game.legal_action(self.rng.random_range(0..n))
            .expect("an index below the count")
    }
}

/// The bots [`bot_from_spec`] knows, with what each does.
pub const KNOWN_BOTS: &[(&str, &str)] = &[
    ("random", "picks uniformly among the legal actions"),
    (
        "heuristic",
        "plays like a sensible table player: cheap ordering, then one action ahead on sampled worlds and dice; settings candidates=N, samples=N, follow=N, reply=N, horizon=0|1|2, halving=N, crowd_candidates=N, crowd_samples=N, crowd_reply=N, crowd_approach=X (on maps of over 120 units), blunder=X, threads=N (the same decisions, sooner), turn_lines=N (a budget of lines a player turn: past half of it, fewer sampled worlds; 0, the default, is none), and the evaluation's weights by name (approach=X, cover=X, …; docs/AI.md)",
    ),
    (
        "mcts",
        "Monte Carlo tree search; settings ms=N or iters=N (budget per decision, default ms=40), threads=N, depth=N, c=X",
    ),
    ("easy", "a heuristic that looks at less and sometimes blunders"),
    ("normal", "the heuristic"),
    (
        "hard",
        "the heuristic looking wider, judging each action after the enemy's answer up to its own next turn, and making for the objectives worth most and the one that decides the battle first: heuristic:candidates=16,samples=12,reply=10,horizon=2,crowd_candidates=8,crowd_samples=4,crowd_approach=0.09,race=0.15,worth=12,threads=2",
    ),
];

/// Makes a bot from its spec: a name, optionally followed by `:key=value,…` settings.
pub fn bot_from_spec(spec: &str, seed: u64) -> Result<Box<dyn Bot>, String> {
    let spec = spec.trim();
    let (name, settings) = match spec.split_once(':') {
        Some((name, settings)) => (name.trim(), Some(settings)),
        None => (spec, None),
    };
    let plain = |bot: Box<dyn Bot>| match settings {
        None => Ok(bot),
        Some(s) => Err(format!(
            "the {name} bot takes no settings, but \"{s}\" was given"
        )),
    };
    match name {
        "random" => plain(Box::new(RandomBot::new(seed))),
        "heuristic" => Ok(Box::new(HeuristicBot::new(
            seed,
            HeuristicSettings::parse(settings.unwrap_or(""))?,
            spec,
        ))),
        "normal" => plain(Box::new(HeuristicBot::new(
            seed,
            HeuristicSettings::NORMAL,
            name,
        ))),
        "easy" => plain(Box::new(HeuristicBot::new(
            seed,
            HeuristicSettings::EASY,
            name,
        ))),
        "hard" => plain(Box::new(HeuristicBot::new(
            seed,
            HeuristicSettings::HARD,
            name,
        ))),
        "mcts" => {
            let parsed = MctsSettings::parse(settings.unwrap_or(""))?;
            Ok(Box::new(MctsBot::new(seed, parsed, spec)))
        }
        _ => Err(format!(
            "unknown bot \"{spec}\" (known bots: {})",
            KNOWN_BOTS
                .iter()
                .map(|(name, what)| format!("{name}, which {what}"))
                .collect::<Vec<_>>()
                .join("; ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use volley_core::{Dice, Event, Illegal, Log, Outcome, View};

    /// A bundled battle, loaded with no options and begun on `seed`'s dice.
    pub(crate) fn begun(name: &str, seed: u64) -> Box<dyn Game> {
        let (_, source) = volley_rulesets::scenario_source(name).expect("bundled");
        let mut game = volley_rulesets::ruleset_of(&source)
            .expect("known ruleset")
            .load(&source, &volley_core::Options::new())
            .expect("loads");
        game.start(&mut volley_core::SeededDice::new(
            volley_core::Seed::from_u64(seed),
        ));
        game
    }

    /// Take one to three stones from a pile; whoever takes the last one wins. Just enough of
    /// a game to watch a bot choose.
    #[derive(Clone)]
    struct Pile {
        stones: u64,
        to_move: Side,
    }

    impl Game for Pile {
        fn ruleset(&self) -> &'static str {
            "pile"
        }
        fn start(&mut self, _: &mut dyn Dice) -> Vec<Event> {
            Vec::new()
        }
        fn to_decide(&self) -> Option<Side> {
            (self.stones > 0).then_some(self.to_move)
        }
        fn legal_actions_into(&self, out: &mut Vec<Action>) {
            out.clear();
            out.extend((1..=self.stones.min(3)).map(Action));
        }
        fn describe(&self, _: Action) -> volley_core::ActionInfo {
            volley_core::ActionInfo::new("take", volley_core::ActionKind::Other)
        }
        fn check(&self, action: Action) -> Result<(), Illegal> {
            if !self.legal_actions().contains(&action) {
                return Err(Illegal::new("take one to three stones"));
            }
            Ok(())
        }
        fn play_unchecked(&mut self, action: Action, _: &mut dyn Dice, _: &mut Log) {
            self.stones -= action.0;
            self.to_move = self.to_move.other();
        }
        fn preview(&mut self, action: Action, dice: &mut dyn Dice) -> Result<Vec<Event>, Illegal> {
            self.apply(action, dice)
        }
        fn notation(&self, action: Action) -> String {
            action.0.to_string()
        }
        fn parse_action(&self, text: &str) -> Result<Action, Illegal> {
            text.parse()
                .map(Action)
                .map_err(|_| Illegal::new("a number"))
        }
        fn turn(&self) -> u32 {
            1
        }
        fn outcome(&self) -> Option<Outcome> {
            (self.stones == 0).then(|| Outcome {
                winner: Some(self.to_move.other()),
                reason: "took the last stone".into(),
                score: [0, 0],
            })
        }
        fn view(&self, _: Option<Side>) -> View {
            unreachable!("the random bot never looks at the view")
        }
        fn clone_game(&self) -> Box<dyn Game> {
            Box::new(self.clone())
        }
        fn check_invariants(&self) -> Result<(), String> {
            Ok(())
        }
    }

    fn choices(seed: u64, n: usize) -> Vec<u64> {
        let pile = Pile {
            stones: 10,
            to_move: Side::Red,
        };
        let mut bot = bot_from_spec("random", seed).expect("known");
        (0..n).map(|_| bot.choose(&pile, Side::Red).0).collect()
    }

    #[test]
    fn random_bot_repeats_for_a_seed_and_picks_every_legal_action_evenly() {
        assert_eq!(choices(7, 200), choices(7, 200));
        assert_ne!(choices(7, 200), choices(8, 200));
        let picks = choices(1, 3000);
        for action in 1..=3 {
            let n = picks.iter().filter(|&&a| a == action).count();
            assert!(
                (850..1150).contains(&n),
                "action {action} picked {n} times of 3000"
            );
        }
    }

    #[test]
    fn random_bot_plays_a_game_to_the_end_with_legal_moves_only() {
        let mut game = Pile {
            stones: 21,
            to_move: Side::Red,
        };
        let mut bot = RandomBot::new(3);
        let mut dice = volley_core::ScriptedDice::new([]);
        while let Some(side) = game.to_decide() {
            let action = bot.choose(&game, side);
            game.apply(action, &mut dice)
                .expect("the bot chose a legal action");
        }
        assert!(game.outcome().is_some());
    }

    #[test]
    fn unknown_bot_lists_the_known_ones() {
        let e = bot_from_spec("minimax", 1).err().expect("unknown");
        assert!(e.contains("unknown bot \"minimax\""), "{e}");
        assert!(e.contains("random"), "{e}");
        assert!(bot_from_spec("random:x=1", 1).is_err());
        assert_eq!(
            bot_from_spec(" random ", 1).expect("known").spec(),
            "random"
        );
    }
}
