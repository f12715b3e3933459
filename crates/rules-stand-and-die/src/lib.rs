//! Stand and Die!: one-page rules for 16th–19th century battles on a hex map, played by
//! Volley. The rules text has no section numbers, so each file is named after the paragraph
//! it implements and every event cites that paragraph by name:
//!
//! - [`marching`]: who marches first, how far, what may share a hex, facing, Standing markers.
//! - [`water`]: all-water hexes, bridges, fords, firing across a river.
//! - [`musketry`]: the chance table, the rear bonus, casualties, guns.
//! - [`falling_back`]: hexes not marked Standing give ground after being fired on.
//! - [`victory`]: how a game ends (the text is silent; Volley's reading, see the docs).
//!
//! `docs/rules/stand-and-die.md` maps every paragraph to its code and tests and lists the
//! readings chosen where the text is silent.

mod falling_back;
mod marching;
mod musketry;
mod orders;
mod setup;
mod state;
mod troops;
mod victory;
mod water;

use volley_core::{Game, OptionSpec, Options, Ruleset, ScenarioError, ScenarioSource};

/// The ruleset id scenarios name.
pub const ID: &str = "stand-and-die";

/// The Stand and Die! ruleset.
#[derive(Clone, Copy, Debug, Default)]
pub struct StandAndDie;

pub static RULESET: StandAndDie = StandAndDie;

impl Ruleset for StandAndDie {
    fn id(&self) -> &'static str {
        ID
    }

    fn title(&self) -> &'static str {
        "Stand and Die! (16th–19th century)"
    }

    fn glossary(&self) -> Vec<volley_core::glossary::Term> {
        volley_core::glossary::read(include_str!("../data/glossary.toml"))
            .expect("the compiled-in glossary reads")
    }

    fn options(&self) -> &'static [OptionSpec] {
        setup::OPTIONS
    }

    fn load(
        &self,
        source: &ScenarioSource,
        options: &Options,
    ) -> Result<Box<dyn Game>, ScenarioError> {
        Ok(Box::new(setup::load(source, options)?))
    }
}
