//! grid-rules-v1.1 ("Rules v1.1"): a short musket-era ruleset for a gridded table, hexes or
//! squares. One module per chapter of the text, over the position and under the game:
//!
//! - [`placement`] — Game Setup: the roll for first placement and placing units in turn
//! - [`turn_progression`] — Turn Progression: the sequence of play (initiative, move, ranged
//!   attack, close combat, remove units), phases that end by themselves
//! - [`initiative`] — Initiative (the d6 that orders the player-turns and counts units moved)
//! - [`movement`] — Movement Rules 1-7, withdrawal in movement (Close Combat 3), commanders
//!   attaching
//! - [`ranged`] — Infantry and Artillery Ranged Attack
//! - [`close_combat`] — Close Combat (attacks, cavalry evading infantry, occupying a tile)
//! - [`hits`] — Resolving Hits and removing units
//! - [`terrain`] — Terrain and line of sight, and the ground around every tile
//! - [`unit_data`] — Unit Types and the Unit Data table (Volley's design: the text has none)
//! - [`victory`] — victory (Volley's: the text has none)
//!
//! Below the chapters: [`state`] (the position and its lookups), [`tiles`] (square and hex
//! tiles), [`passage`] (crossing a side, falling back a tile), [`modifiers`] (an attack's
//! modifiers in words), [`roll_off`] (both players roll a d6 until they differ). Above them:
//! [`legal`] (an order checked, every order listed), [`game`] (the engine's `Game` API),
//! [`orders`] (the order codec and notation), [`scenario`] (scenario files and Game Setup's
//! positions) and [`view`].
//!
//! docs/rules/grid-rules-v1.1.md maps every point of the text to its code and tests.

mod close_combat;
mod game;
mod hits;
mod initiative;
mod legal;
mod modifiers;
mod movement;
mod orders;
mod passage;
mod placement;
mod ranged;
mod roll_off;
mod scenario;
mod state;
mod terrain;
mod tiles;
mod turn_progression;
mod unit_data;
mod victory;
mod view;

use volley_core::{Game, OptionSpec, Options, Ruleset, ScenarioError, ScenarioSource};

/// The ruleset id scenarios name.
pub const ID: &str = "grid-rules-v1.1";

/// A rule reference for events: the id and the text's heading and point.
fn rule(section: &str) -> String {
    [ID, " ", section].concat()
}

/// The ruleset.
pub struct GridRules;

pub static RULESET: GridRules = GridRules;

impl Ruleset for GridRules {
    fn id(&self) -> &'static str {
        ID
    }

    fn title(&self) -> &'static str {
        "Rules v1.1 (hex or square grid)"
    }

    fn glossary(&self) -> Vec<volley_core::glossary::Term> {
        volley_core::glossary::read(include_str!("../data/glossary.toml"))
            .expect("the compiled-in glossary reads")
    }

    fn options(&self) -> &'static [OptionSpec] {
        scenario::OPTIONS
    }

    fn load(
        &self,
        source: &ScenarioSource,
        options: &Options,
    ) -> Result<Box<dyn Game>, ScenarioError> {
        scenario::load(source, options).map(|g| Box::new(g) as Box<dyn Game>)
    }
}
