//! The Volley engine. No I/O, no clock, no global randomness: the same scenario, options,
//! seed and actions give the same events on every machine.
//!
//! - [`game`]: the one API every ruleset implements ([`Game`], [`Ruleset`]).
//! - [`geometry`] and [`map`]: hexes (via `hexx`), facings, arcs, lines of sight, terrain.
//! - [`dice`]: seeded, scripted and enumerating dice.
//! - [`chance`]: exact chances of counts and sums of d6, for odds worked out by counting.
//! - [`scenario`]: TOML scenarios with positioned errors.
//! - [`session`]: a game in play and its saved-game file.
//! - [`odds`]: outcome distributions of an action.
//! - [`pairs`]: values kept per pair of a map's cells for a game (lines of sight).
//! - [`place`]: where a unit is: a hex, a tile, or a point on a measured table.
//! - [`view`]: what one side may see.

pub mod action;
pub mod armies;
pub mod chance;
pub mod choice;
pub mod codec;
pub mod dice;
pub mod event;
pub mod fairness;
pub mod game;
pub mod geometry;
pub mod glossary;
pub mod map;
pub mod name;
pub mod odds;
pub mod options;
pub mod pairs;
pub mod place;
pub mod resign;
pub mod scenario;
pub mod session;
pub mod side;
pub mod source;
pub mod view;

pub use dice::{Dice, ScriptedDice, Seed, SeededDice};
pub use game::{
    reach_by_steps, Action, ActionInfo, ActionKind, Event, Game, Illegal, Log, OptionSpec, Outcome,
    Reach, Ruleset, Seen, Side,
};
pub use hexx::Hex;
pub use name::Name;
pub use place::{Place, Point};
pub use scenario::{Battle, Options, ScenarioError, ScenarioSource};
pub use session::{LoggedEvent, SaveFile, Session, SessionError};
pub use view::View;
