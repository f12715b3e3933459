//! The two sides of every battle, and how a battle ended.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The two sides of every battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Red,
    Blue,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::Red, Side::Blue];

    pub fn other(self) -> Side {
        match self {
            Side::Red => Side::Blue,
            Side::Blue => Side::Red,
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Side::Red => "red",
            Side::Blue => "blue",
        }
    }

    /// The side's name as it begins a sentence: "Red", "Blue".
    pub fn title(self) -> &'static str {
        match self {
            Side::Red => "Red",
            Side::Blue => "Blue",
        }
    }

    pub fn parse(text: &str) -> Option<Side> {
        match text.trim().to_ascii_lowercase().as_str() {
            "red" => Some(Side::Red),
            "blue" => Some(Side::Blue),
            _ => None,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// `None` for a draw.
    pub winner: Option<Side>,
    /// Why, in words: "Blue reached its break point (42% lost of 35%)".
    pub reason: String,
    /// Victory points at the end, red then blue.
    pub score: [i32; 2],
}
