//! Dice nobody can choose: the commit–reveal of an online game.
//!
//! When a game is created the server draws a secret seed and publishes a commitment: the
//! SHA-256 of that seed together with the scenario text and the options the game was created
//! with. Each player, on taking a seat, adds entropy of their own; the dice seed is the hash
//! of the server's secret and every seat's entropy, and nothing is rolled before every seat
//! is taken. The server cannot steer the dice (its secret was fixed before the players'
//! entropy came in), a player cannot (they never see the secret before the end), and once
//! the game is over the secret is revealed so that `volley verify` can check the commitment,
//! the seed, the scenario and options, and every roll.

use crate::dice::{to_hex, Seed};
use crate::scenario::Options;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// The commit–reveal record an online game carries into its exported file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fairness {
    /// Published at creation: SHA-256 over the server's secret, the scenario text and the
    /// options.
    pub commitment: String,
    /// The server's secret, revealed once the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_seed: Option<Seed>,
    /// What each seat added when it was taken, by side name.
    pub entropy: BTreeMap<String, String>,
}

/// The most characters of entropy a seat may add.
pub const ENTROPY_MAX: usize = 256;

/// Hashes a text with its length first, so no two sequences of texts hash alike.
fn framed(h: &mut Sha256, text: &str) {
    h.update((text.len() as u64).to_le_bytes());
    h.update(text.as_bytes());
}

impl Fairness {
    /// The commitment to a secret and to what the game is: its scenario text and options.
    pub fn commit(server_seed: &Seed, scenario: &str, options: &Options) -> String {
        let mut h = Sha256::new();
        h.update(b"volley-commitment:");
        h.update(server_seed.0);
        framed(&mut h, scenario);
        for (k, v) in options {
            framed(&mut h, k);
            framed(&mut h, v);
        }
        to_hex(&h.finalize())
    }

    /// The dice seed made of the server's secret and every seat's entropy.
    pub fn dice_seed(server_seed: &Seed, entropy: &BTreeMap<String, String>) -> Seed {
        let mut h = Sha256::new();
        h.update(b"volley-dice:");
        h.update(server_seed.0);
        for (side, e) in entropy {
            framed(&mut h, side);
            framed(&mut h, e);
        }
        Seed(h.finalize().into())
    }

    /// Checks an exported game: the secret is revealed, the commitment is to this secret,
    /// scenario and options, and the dice seed is the one they and the entropy make.
    pub fn check(&self, scenario: &str, options: &Options, seed: &Seed) -> Result<(), String> {
        let secret = self.server_seed.as_ref().ok_or(
            "the server's secret has not been revealed (the game is not over, or the file was cut)",
        )?;
        if Fairness::commit(secret, scenario, options) != self.commitment {
            return Err(
                "the scenario, the options or the server's secret are not the ones committed to when the game was created"
                    .into(),
            );
        }
        if Fairness::dice_seed(secret, &self.entropy) != *seed {
            return Err(
                "the dice seed is not the one made of the server's secret and the players' entropy"
                    .into(),
            );
        }
        Ok(())
    }
}

/// Checks a seat's entropy: printable text of at most [`ENTROPY_MAX`] characters.
pub fn check_entropy(text: &str) -> Result<(), String> {
    if text.chars().count() > ENTROPY_MAX {
        return Err(format!("entropy is at most {ENTROPY_MAX} characters"));
    }
    if text.chars().any(char::is_control) {
        return Err("entropy is one line of printable text".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entropy(red: &str, blue: &str) -> BTreeMap<String, String> {
        [
            ("red".to_string(), red.to_string()),
            ("blue".to_string(), blue.to_string()),
        ]
        .into()
    }

    #[test]
    fn the_seed_depends_on_every_part_and_the_check_catches_each_change() {
        let secret = Seed::from_u64(7);
        let options: Options = [("sight".to_string(), "9".to_string())].into();
        let scenario = "title = \"x\"";
        let fair = Fairness {
            commitment: Fairness::commit(&secret, scenario, &options),
            server_seed: Some(secret),
            entropy: entropy("a", "b"),
        };
        let seed = Fairness::dice_seed(&secret, &fair.entropy);
        assert_eq!(fair.check(scenario, &options, &seed), Ok(()));
        assert_ne!(seed, Fairness::dice_seed(&secret, &entropy("a", "c")));
        assert_ne!(seed, Fairness::dice_seed(&Seed::from_u64(8), &fair.entropy));
        // Framing: moving a character between the two entropies changes the seed.
        assert_ne!(seed, Fairness::dice_seed(&secret, &entropy("ab", "")));
        let changed: Options = [("sight".to_string(), "6".to_string())].into();
        assert!(fair
            .check(scenario, &changed, &seed)
            .unwrap_err()
            .contains("options"));
        assert!(fair.check("title = \"y\"", &options, &seed).is_err());
        assert!(fair
            .check(scenario, &options, &Seed::from_u64(1))
            .unwrap_err()
            .contains("dice seed"));
        let hidden = Fairness {
            server_seed: None,
            ..fair
        };
        assert!(hidden
            .check(scenario, &options, &seed)
            .unwrap_err()
            .contains("not been revealed"));
    }

    #[test]
    fn entropy_is_short_printable_text() {
        assert!(check_entropy("f00d and a cat on the keyboard").is_ok());
        assert!(check_entropy(&"x".repeat(ENTROPY_MAX + 1)).is_err());
        assert!(check_entropy("a\nb").is_err());
    }
}
