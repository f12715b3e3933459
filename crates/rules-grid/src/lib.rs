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

/// The options a scenario's `[options]` or the command line may set.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        key: "first_player",
        label: "Who moves first",
        default: "roll",
        choices: &["roll", "red", "blue"], range: None,
        help: "Who plays first in game-turn 1: the initiative roll, or the side the scenario names (usually the attacker). Later game-turns always roll.",
    },
    OptionSpec {
        key: "fire_into_cover",
        label: "Shooting into woods and towns",
        default: "one-deep",
        choices: &["one-deep", "adjacent"], range: None,
        help: "Ranged attacks into forest or built-up areas: at any range into the first tile of it (one-deep), or only from the next tile (adjacent).",
    },
    OptionSpec {
        key: "engaged_units",
        label: "Units engaged in close combat",
        default: "free",
        choices: &["free", "held"], range: None,
        help: "free: a unit engaged in close combat moves like any other, and leaving its tile is its withdrawal (it may not attack the enemies it left that turn); held: it may only stay or withdraw one tile into a tile beside no enemy (Close Combat 3).",
    },
    OptionSpec {
        key: "edge_sight",
        label: "Seeing units on hill and forest edges",
        default: "facing",
        choices: &["facing", "any"], range: None,
        help: "facing: a unit in a forest, or on a hill above the firer, can be seen from beyond the next tile only while it faces the firer (Terrain: Hill, Forest); any: it is seen whatever its facing.",
    },
    OptionSpec {
        key: "placement",
        label: "Placing the units",
        default: "scenario",
        choices: &["scenario", "roll"], range: None,
        help: "scenario: units start where the scenario puts them; roll: the players roll for first placement and take turns placing their units, one at a time, in their set-up rows (Game Setup).",
    },
    OptionSpec {
        key: "terrain_cost",
        label: "Hills and rough slowing movement",
        default: "once",
        choices: &["once", "per-tile"], range: None,
        help: "once: a move that enters hill tiles is one tile shorter, however many it enters, and so is a cavalry move entering rough; per-tile: one tile shorter for each such tile entered (Terrain: Hill, Rough/Field).",
    },
];

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
        OPTIONS
    }

    fn load(
        &self,
        source: &ScenarioSource,
        options: &Options,
    ) -> Result<Box<dyn Game>, ScenarioError> {
        scenario::load(source, options).map(|g| Box::new(g) as Box<dyn Game>)
    }
}
