//! Dice: the only source of randomness in the engine. Seeded ChaCha for play, scripted
//! results for tests and for re-enacting a table game, and an enumerator for exact odds.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::VecDeque;

/// Something that rolls dice. `roll(6)` is a d6: a number from 1 to 6.
pub trait Dice {
    fn roll(&mut self, sides: u32) -> u32;
}

/// A 32-byte seed for the game's dice, committed to (SHA-256) before play and revealed after.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seed(#[serde(with = "hex32")] pub [u8; 32]);

impl Seed {
    /// A seed from a number (`--seed N`): the number's SHA-256, so small numbers give
    /// unrelated streams.
    pub fn from_u64(n: u64) -> Seed {
        let mut h = Sha256::new();
        h.update(b"volley-seed:");
        h.update(n.to_le_bytes());
        Seed(h.finalize().into())
    }

    /// The published commitment: lowercase hex SHA-256 of the seed bytes.
    pub fn commitment(&self) -> String {
        to_hex(&Sha256::digest(self.0))
    }

    pub fn to_hex(&self) -> String {
        to_hex(&self.0)
    }

    pub fn from_hex(text: &str) -> Option<Seed> {
        from_hex32(text).map(Seed)
    }
}

pub fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn from_hex32(text: &str) -> Option<[u8; 32]> {
    let t = text.trim();
    if t.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(t.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

mod hex32 {
    use serde::{Deserialize, Deserializer, Serializer};
    pub fn serialize<S: Serializer>(v: &[u8; 32], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&super::to_hex(v))
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[u8; 32], D::Error> {
        let text = String::deserialize(d)?;
        super::from_hex32(&text).ok_or_else(|| serde::de::Error::custom("expected 64 hex digits"))
    }
}

/// The game's dice stream: ChaCha20 from a committed seed.
#[derive(Clone, Debug)]
pub struct SeededDice {
    rng: ChaCha20Rng,
}

impl SeededDice {
    pub fn new(seed: Seed) -> SeededDice {
        SeededDice {
            rng: ChaCha20Rng::from_seed(seed.0),
        }
    }
}

impl Dice for SeededDice {
    fn roll(&mut self, sides: u32) -> u32 {
        self.rng.random_range(1..=sides.max(1))
    }
}

/// Dice whose results are given in advance. Rolling past the end, or a result the die cannot
/// show, panics: a test that needs more dice than it scripted is a broken test.
///
/// A script that comes from elsewhere — a ruleset's odds cases ([`crate::odds::OddsCase`])
/// — is made with [`ScriptedDice::tolerant`] instead: a mistake is noted
/// ([`ScriptedDice::fault`]) and a made-up result rolled, so that the caller can refuse with
/// a sentence rather than bring the server down.
#[derive(Clone, Debug, Default)]
pub struct ScriptedDice {
    queue: VecDeque<u32>,
    tolerant: bool,
    /// Rolls asked for after the script ran out (tolerant dice only).
    overrun: usize,
    /// The first scripted result that was not a result of the die asked for: (value, sides).
    bad: Option<(u32, u32)>,
}

/// What went wrong with a tolerant script.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScriptFault {
    /// This many rolls were asked for after the script ran out.
    TooFew(usize),
    /// This many scripted results were never rolled.
    TooMany(usize),
    /// A scripted result (`value`) that the die asked for (`sides`) cannot show.
    NotOnDie { value: u32, sides: u32 },
}

impl std::fmt::Display for ScriptFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            ScriptFault::TooFew(n) => write!(f, "{n} {} short", dice_word(n)),
            ScriptFault::TooMany(n) => write!(f, "{n} {} too many", dice_word(n)),
            ScriptFault::NotOnDie { value, sides } => {
                write!(f, "it gives {value} for a d{sides}")
            }
        }
    }
}

fn dice_word(n: usize) -> &'static str {
    if n == 1 {
        "die"
    } else {
        "dice"
    }
}

impl ScriptedDice {
    pub fn new(results: impl IntoIterator<Item = u32>) -> ScriptedDice {
        ScriptedDice {
            queue: results.into_iter().collect(),
            ..ScriptedDice::default()
        }
    }

    /// Scripted dice that never panic: they remember the mistake for [`ScriptedDice::fault`]
    /// and go on. For a result the die cannot show they roll 1; past the end they run through
    /// the die's faces in turn (1, 2, 3, …), so that a rule that rolls again until two dice
    /// differ still comes to an end.
    pub fn tolerant(results: impl IntoIterator<Item = u32>) -> ScriptedDice {
        ScriptedDice {
            tolerant: true,
            ..ScriptedDice::new(results)
        }
    }

    pub fn remaining(&self) -> usize {
        self.queue.len()
    }

    /// Whether the script did not fit the rolls made so far: a bad result, rolls past its
    /// end, or (once the rolling is over) results left unrolled. `None` when it fitted exactly.
    pub fn fault(&self) -> Option<ScriptFault> {
        if let Some((value, sides)) = self.bad {
            Some(ScriptFault::NotOnDie { value, sides })
        } else if self.overrun > 0 {
            Some(ScriptFault::TooFew(self.overrun))
        } else if !self.queue.is_empty() {
            Some(ScriptFault::TooMany(self.queue.len()))
        } else {
            None
        }
    }
}

impl Dice for ScriptedDice {
    fn roll(&mut self, sides: u32) -> u32 {
        let Some(v) = self.queue.pop_front() else {
            assert!(
                self.tolerant,
                "scripted dice exhausted: the test needs more rolls"
            );
            self.overrun += 1;
            return (self.overrun - 1) as u32 % sides.max(1) + 1;
        };
        if v >= 1 && v <= sides {
            return v;
        }
        assert!(
            self.tolerant,
            "scripted result {v} is not a d{sides} result"
        );
        self.bad.get_or_insert((v, sides));
        1
    }
}

/// A die roll as it happened: the die and the result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    pub sides: u32,
    pub value: u32,
}

/// Forced results first (from `--dice`), then the underlying stream; records every roll.
/// A forced value that is not a result of the die asked for is remembered as an error.
pub struct ForcedDice<'a> {
    forced: VecDeque<u32>,
    inner: &'a mut dyn Dice,
    pub rolls: Vec<Roll>,
    pub bad_forced: Option<(u32, u32)>,
}

impl<'a> ForcedDice<'a> {
    pub fn new(forced: &[u32], inner: &'a mut dyn Dice) -> ForcedDice<'a> {
        ForcedDice {
            forced: forced.iter().copied().collect(),
            inner,
            rolls: Vec::new(),
            bad_forced: None,
        }
    }

    pub fn unused_forced(&self) -> usize {
        self.forced.len()
    }
}

impl Dice for ForcedDice<'_> {
    fn roll(&mut self, sides: u32) -> u32 {
        let value = match self.forced.pop_front() {
            Some(v) if v >= 1 && v <= sides => v,
            Some(v) => {
                self.bad_forced.get_or_insert((v, sides));
                1
            }
            None => self.inner.roll(sides),
        };
        self.rolls.push(Roll { sides, value });
        value
    }
}

/// Walks every sequence of die results an action can produce, depth first, for exact odds.
/// Each pass replays a prefix of chosen results and takes `1` for any die past the prefix,
/// remembering how many sides that die had so the next pass can advance it.
#[derive(Debug)]
pub struct DiceEnumerator {
    prefix: Vec<u32>,
    sides: Vec<u32>,
    pos: usize,
    /// Past this many dice in one pass (rules that reroll ties can roll for ever when every
    /// new die is a 1) the walk stops being exact: further dice come from `spill`.
    max_depth: usize,
    spill: SeededDice,
    /// Set once a pass went past `max_depth`: the walk cannot be exact.
    pub truncated: bool,
}

impl Default for DiceEnumerator {
    fn default() -> Self {
        DiceEnumerator {
            prefix: Vec::new(),
            sides: Vec::new(),
            pos: 0,
            max_depth: 64,
            spill: SeededDice::new(Seed([7; 32])),
            truncated: false,
        }
    }
}

impl DiceEnumerator {
    pub fn new() -> DiceEnumerator {
        DiceEnumerator::default()
    }

    /// Start a pass.
    pub fn begin(&mut self) {
        self.pos = 0;
    }

    /// The probability of the path the current pass took.
    pub fn probability(&self) -> f64 {
        self.sides[..self.pos]
            .iter()
            .map(|&s| 1.0 / s as f64)
            .product()
    }

    /// Move to the next path; false when every path has been walked.
    pub fn advance(&mut self) -> bool {
        self.prefix.truncate(self.pos);
        self.sides.truncate(self.pos);
        while let Some(last) = self.prefix.pop() {
            let sides = self.sides.pop().expect("same length");
            if last < sides {
                self.prefix.push(last + 1);
                self.sides.push(sides);
                return true;
            }
        }
        false
    }
}

impl Dice for DiceEnumerator {
    fn roll(&mut self, sides: u32) -> u32 {
        if self.pos >= self.max_depth {
            self.truncated = true;
            return self.spill.roll(sides);
        }
        let v = if self.pos < self.prefix.len() {
            self.prefix[self.pos]
        } else {
            self.prefix.push(1);
            self.sides.push(sides);
            1
        };
        self.pos += 1;
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_dice_repeat_for_the_same_seed() {
        let a: Vec<u32> = {
            let mut d = SeededDice::new(Seed::from_u64(7));
            (0..20).map(|_| d.roll(6)).collect()
        };
        let mut d = SeededDice::new(Seed::from_u64(7));
        let b: Vec<u32> = (0..20).map(|_| d.roll(6)).collect();
        assert_eq!(a, b);
        assert!(a.iter().all(|&v| (1..=6).contains(&v)));
    }

    #[test]
    fn commitment_is_sha256_of_the_seed() {
        let s = Seed([0; 32]);
        assert_eq!(
            s.commitment(),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
        );
        assert_eq!(Seed::from_hex(&s.to_hex()), Some(s));
    }

    #[test]
    fn enumerator_walks_two_d6_exactly_once_each() {
        let mut e = DiceEnumerator::new();
        let mut seen = Vec::new();
        let mut total = 0.0;
        loop {
            e.begin();
            let a = e.roll(6);
            let b = e.roll(6);
            seen.push((a, b));
            total += e.probability();
            if !e.advance() {
                break;
            }
        }
        assert_eq!(seen.len(), 36);
        assert!((total - 1.0).abs() < 1e-12);
    }

    #[test]
    fn enumerator_gives_up_exactness_on_endless_rerolls() {
        let mut e = DiceEnumerator::new();
        e.begin();
        // A tie-reroll loop: with every new die a 1 it would never end.
        let mut rolls = 0;
        loop {
            rolls += 2;
            if e.roll(6) != e.roll(6) {
                break;
            }
            assert!(rolls < 10_000);
        }
        assert!(e.truncated);
    }

    #[test]
    fn tolerant_scripts_note_their_faults_instead_of_panicking() {
        let mut d = ScriptedDice::tolerant([3, 4]);
        assert_eq!((d.roll(6), d.roll(6)), (3, 4));
        assert_eq!(d.fault(), None);
        assert_eq!((d.roll(6), d.roll(6)), (1, 2));
        assert_eq!(d.fault(), Some(ScriptFault::TooFew(2)));

        let mut d = ScriptedDice::tolerant([3, 4]);
        d.roll(6);
        assert_eq!(d.fault(), Some(ScriptFault::TooMany(1)));

        let mut d = ScriptedDice::tolerant([9]);
        assert_eq!(d.roll(6), 1);
        assert_eq!(
            d.fault(),
            Some(ScriptFault::NotOnDie { value: 9, sides: 6 })
        );
    }

    #[test]
    #[should_panic(expected = "scripted dice exhausted")]
    fn strict_scripts_still_panic_past_their_end() {
        ScriptedDice::new([]).roll(6);
    }

    #[test]
    fn forced_dice_come_first_and_bad_ones_are_flagged() {
        let mut inner = ScriptedDice::new([2]);
        let mut f = ForcedDice::new(&[5, 9], &mut inner);
        assert_eq!(f.roll(6), 5);
        f.roll(6);
        assert_eq!(f.bad_forced, Some((9, 6)));
        assert_eq!(f.roll(6), 2);
        assert_eq!(f.rolls.len(), 3);
    }
}
