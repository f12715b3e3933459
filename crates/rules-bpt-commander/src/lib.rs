//! Black Powder Tactical Commander: a game of the black powder era (1705–1899) in which
//! command units order formations of units by command rolls, units of stands fight in six
//! formations, and every attack goes through one casualty pipeline. Played by Volley on
//! hexes of 5 cm. The rulebook has named, unnumbered sections; each file is named after the
//! chapter it implements and every event cites its section by name:
//!
//! - [`troops`]: units, stat lines, formations and the deployment table, command units.
//! - [`table`]: the geometry the rules ask about, behind one interface ([`table::Table`]).
//! - [`terrain`]: open, area, wet, linear terrain and cover.
//! - [`initiative`]: the initiative phase.
//! - [`command`]: orders, command rolls, bonus, blunders, command movement.
//! - [`movement`]: moves, wheels, about face, retire, prolonge, formations, limbering, evading.
//! - [`firing`]: fire, the casualty pipeline, opportunity fire, round shot and canister.
//! - [`artillery`]: shell and air burst, howitzers, mortars, high-angle fire and its
//!   deviation, counter-battery fire, regimental guns, Field Artillery Officers.
//! - [`charge`]: charges, answers, supports, combat and its outcome.
//! - [`end`]: the end phase, breakpoints, objectives and the winner.
//!
//! `docs/rules/bpt-commander.md` maps every section to its code and tests, gives the
//! centimetres-to-hexes table and the readings chosen where the text is unclear.

pub mod armies;
pub mod army;
pub mod artillery;
pub mod battle;
pub mod charge;
pub mod command;
pub mod dismount;
pub mod end;
pub mod firing;
pub mod ideas;
pub mod initiative;
pub mod lists;
pub mod movement;
pub mod odds;
pub mod order;
pub mod prone;
pub mod scenario;
pub mod scouting;
pub mod skirmishers;
pub mod state;
pub mod table;
pub mod terrain;
pub mod troops;
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

    fn armies(&self) -> Option<&dyn volley_core::armies::Armies> {
        Some(&armies::ARMIES)
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
