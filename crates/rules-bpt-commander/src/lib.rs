//! Black Powder Tactical Commander: a game of the black powder era (1705–1899) in which
//! command units order formations of units by command rolls, units of stands fight in six
//! formations, and every attack goes through one casualty pipeline. Played by Volley on
//! hexes of 5 cm. The rulebook has named, unnumbered sections; each file is named after the
//! chapter it implements and every event cites its section by name.
//!
//! Below the position (they name no other layer):
//! - [`troops`]: units, stat lines, morale grades, formations and the deployment table.
//! - [`terrain`]: open, area, wet, linear terrain, cover, and the works that stand on it.
//! - [`table`]: the geometry the rules ask about ([`table::Table`]): centimetres to hexes,
//!   firing cones, the map's part of a line of sight.
//! - [`weather`]: the weather and night, rolled before the battle and changing each turn.
//! - [`reach`]: the units' move searches, kept while the legal actions are listed.
//! - [`orders`]: the players' orders, their packing, notation and description.
//!
//! The position: [`state`]. The chapters, each taking the position (and dice and log):
//! - [`visibility`]: line of sight and the rest of [`table::Table`] answered on the hexes.
//! - [`initiative`]: the initiative phase.
//! - [`command`]: orders, command rolls, bonus, blunders, command movement.
//! - [`movement`]: moves, wheels, about face, retire, prolonge, formations, limbering, evading.
//! - [`firing`]: fire, the casualty pipeline, opportunity fire, round shot and canister.
//! - [`artillery`]: shell and air burst, howitzers, mortars, high-angle fire and its
//!   deviation, counter-battery fire, regimental guns, Field Artillery Officers.
//! - [`charge`]: charges, answers, supports, combat and its outcome.
//! - [`end`]: the end phase, breakpoints, objectives and the winner.
//! - [`works`]: engineering, field defences and constructions; [`ideas`]: More Ideas
//!   (morale grades, fixed formations, multi-national armies); [`scouting`]: scouting cavalry
//!   and the hidden set-up; [`skirmishers`], [`prone`], [`dismount`].
//!
//! Above them: [`sequence`] (the sequence of play: which chapter the phase or the decision in
//! progress asks), [`view`] (what each side sees), [`odds`] (exact odds of an order),
//! [`game`] (the `Game` API). Reading scenarios: [`scenario`]. Army building: [`lists`] (the
//! army lists as data), [`army`] (checking an army file), [`battle`] (mustering two armies on
//! a field).
//!
//! `docs/rules/bpt-commander.md` maps every section to its code and tests, gives the
//! centimetres-to-hexes table and the readings chosen where the text is unclear.

pub mod army;
pub mod artillery;
pub mod battle;
pub mod charge;
pub mod command;
pub mod dismount;
pub mod end;
pub mod firing;
pub mod game;
pub mod ideas;
pub mod initiative;
pub mod lists;
pub mod movement;
pub mod odds;
pub mod orders;
pub mod prone;
pub mod reach;
pub mod scenario;
pub mod scouting;
pub mod sequence;
pub mod skirmishers;
pub mod state;
pub mod table;
pub mod terrain;
pub mod troops;
pub mod view;
pub mod visibility;
pub mod weather;
pub mod works;

pub use state::BptGame;
use volley_core::{Game, OptionSpec, Options, Ruleset, ScenarioError, ScenarioSource};

/// The ruleset id scenarios name.
pub const ID: &str = "bpt-commander";

#[derive(Clone, Copy, Debug, Default)]
pub struct BptCommander;

pub static RULESET: BptCommander = BptCommander;

impl Ruleset for BptCommander {
    fn id(&self) -> &'static str {
        ID
    }

    fn title(&self) -> &'static str {
        "Black Powder Tactical Commander (1705–1899)"
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
        Ok(Box::new(scenario::load(source, options)?))
    }
}
