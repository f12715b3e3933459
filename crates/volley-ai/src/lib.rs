//! Bots for Volley, written once against the [`Game`] API and never told which ruleset they
//! play. A bot decides from what its side may see: [`Game::legal_actions`] for the side to
//! decide, and [`Game::view`] with that side for anything more.
//!
//! Bots are named by a spec string (`random`; later `heuristic`, `mcts:ms=500`), read by
//! [`bot_from_spec`], and seeded so the same seed gives the same choices.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use volley_core::{Action, Game, Side};

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
        let legal = game.legal_actions();
        assert!(
            !legal.is_empty(),
            "{side} was asked to choose but {} lists no legal action",
            game.ruleset()
        );
        legal[self.rng.random_range(0..legal.len())]
    }
}

/// The bots [`bot_from_spec`] knows, with what each does.
pub const KNOWN_BOTS: &[(&str, &str)] = &[("random", "picks uniformly among the legal actions")];

/// Makes a bot from its spec: a name, optionally followed by `:key=value,…` settings.
pub fn bot_from_spec(spec: &str, seed: u64) -> Result<Box<dyn Bot>, String> {
    let spec = spec.trim();
    let (name, settings) = match spec.split_once(':') {
        Some((name, settings)) => (name, Some(settings)),
        None => (spec, None),
    };
    match name {
        "random" => match settings {
            None => Ok(Box::new(RandomBot::new(seed))),
            Some(s) => Err(format!(
                "the random bot takes no settings, but \"{s}\" was given"
            )),
        },
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

    #[test]
    fn unknown_bot_lists_the_known_ones() {
        let e = bot_from_spec("mcts:ms=5", 1).err().expect("unknown");
        assert!(e.contains("unknown bot \"mcts:ms=5\""), "{e}");
        assert!(e.contains("random"), "{e}");
        assert!(bot_from_spec("random:x=1", 1).is_err());
        assert_eq!(
            bot_from_spec(" random ", 1).expect("known").spec(),
            "random"
        );
    }
}
