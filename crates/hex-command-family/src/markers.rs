//! Markers and decoys (Gunpowder, Optional Rules: Hidden Movement; Mechanized 4.1 and the
//! Sequence of Play's spotting step): units the enemy cannot see stand on the table as
//! unidentified markers, among fake ones — decoys — that the scenario places:
//!
//! ```toml
//! [[decoys]]
//! side = "red"
//! hex = "0717"
//! facing = "N"      # optional
//! ```
//!
//! What a decoy does (whether it moves, when it is found out) is each ruleset's; the scenario
//! entry, the markers a side is shown and the dealing of hidden units among them for a
//! search that must not peek are shared here.

use serde::Deserialize;
use toml::Spanned;
use volley_core::geometry::{col_row, Facing};
use volley_core::map::Map;
use volley_core::view::MarkerView;
use volley_core::{Dice, Hex, Place, ScenarioError, ScenarioSource, Side};

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DecoySpec {
    pub side: Spanned<String>,
    pub hex: Spanned<String>,
    #[serde(default = "default_facing")]
    pub facing: Spanned<String>,
}

fn default_facing() -> Spanned<String> {
    Spanned::new(0..0, "N".to_string())
}

/// A decoy as the scenario places it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decoy {
    pub side: Side,
    pub hex: Hex,
    pub facing: Facing,
}

impl DecoySpec {
    /// The decoy, its side, hex and facing checked where they stand.
    pub fn read(&self, src: &ScenarioSource, map: &Map) -> Result<Decoy, ScenarioError> {
        Ok(Decoy {
            side: src.side(&self.side)?,
            hex: src.hex(&self.hex, map)?,
            facing: src.facing(&self.facing)?,
        })
    }
}

/// The markers a side is shown at these hexes (one per hidden unit or decoy). Their ids are
/// numbered by place only, so they say nothing of what is underneath.
pub fn marker_views(mut hexes: Vec<(Hex, Side)>) -> Vec<MarkerView> {
    hexes.sort_by_key(|(h, side)| (col_row(*h), *side));
    hexes
        .into_iter()
        .enumerate()
        .map(|(k, (hex, side))| MarkerView {
            id: format!("m{}", k + 1),
            side,
            place: Place::Hex(hex),
        })
        .collect()
}

/// Deals `spots` out at random with the dice handed in (Fisher–Yates), so a side's search
/// may place the units it cannot see among the markers it does see.
pub fn shuffle<T>(spots: &mut [T], dice: &mut dyn Dice) {
    for k in (1..spots.len()).rev() {
        let j = dice.roll(k as u32 + 1) as usize - 1;
        spots.swap(k, j);
    }
}
