//! Stand and Die!: one-page rules for 16th–19th century battles on a hex map, played by
//! Volley. The rules text has no section numbers, so each file is named after the paragraph
//! it implements and every event cites that paragraph by name.
//!
//! The chapters, each over the position and returning to its caller:
//!
//! - [`marching`]: who marches first, how far, what may share a hex, facing, Standing markers.
//! - [`musketry`]: the chance table, the rear bonus, casualties, guns.
//! - [`falling_back`]: hexes not marked Standing give ground after being fired on.
//! - [`victory`]: how a game ends (the text is silent; Volley's reading, see the docs).
//!
//! Below them, consulted by several: [`water`] (all-water hexes, bridges, fords, firing
//! across a river: questions about the map, over no position) and [`troops`] (the units and
//! their arms). [`table`] holds the choices the text leaves to the table (set by the options
//! below), [`state`] the position, [`orders`] the action codec and notation.
//!
//! Above them: [`sequence`] (the turn, Volley's reading: which orders each phase allows, and
//! what a volley leaves for later), [`view`], [`invariants`], and [`game`], the `Game` impl.
//! [`scenario`] reads a scenario into a typed set-up and builds the position from it.
//!
//! `docs/rules/stand-and-die.md` maps every paragraph to its code and tests and lists the
//! readings chosen where the text is silent.

mod falling_back;
mod game;
mod invariants;
mod marching;
mod musketry;
mod orders;
mod scenario;
mod sequence;
mod state;
mod table;
mod troops;
mod victory;
mod view;
mod water;

use volley_core::{Game, OptionSpec, Options, Ruleset, ScenarioError, ScenarioSource};

/// The ruleset id scenarios name.
pub const ID: &str = "stand-and-die";

/// The Stand and Die! ruleset.
#[derive(Clone, Copy, Debug, Default)]
pub struct StandAndDie;

pub static RULESET: StandAndDie = StandAndDie;

/// The choices the text leaves to the table (`table.rs`), as scenario options.
const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        key: "hex_capacity",
        label: "Figures a hex holds",
        default: "12",
        choices: &[], range: Some((1, 100)),
        help: "How many figures fit in one hex (the rules leave it to the size of the bases).",
    },
    OptionSpec {
        key: "gun_room",
        label: "Room a gun takes",
        default: "2",
        choices: &[], range: Some((1, 12)),
        help: "How many figures' room one gun takes in a hex.",
    },
    OptionSpec {
        key: "fords",
        label: "Fords",
        default: "open",
        choices: &["open", "closed"], range: None,
        help: "open: fords are not all-water hexes and may be waded; closed: fords count as river.",
    },
    OptionSpec {
        key: "fall_back",
        label: "Falling back",
        default: "away",
        choices: &["away", "behind"], range: None,
        help: "away: a hex fired on falls back away from the hexes that fired on it; behind: straight behind its facing, wherever the fire came from.",
    },
    OptionSpec {
        key: "fire_arc",
        label: "Who fires",
        default: "front",
        choices: &["front", "all-round"], range: None,
        help: "front: only troops facing the target fire; all-round: all troops next to the enemy fire, whatever way they face.",
    },
    OptionSpec {
        key: "cover",
        label: "Cover",
        default: "sheltering",
        choices: &["sheltering", "any-terrain"], range: None,
        help: "sheltering: woods, light woods, towns, forts and rough give cover; any-terrain: every hex but level clear ground, bridges and fords does, hills, marsh and mountain too.",
    },
];

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
        OPTIONS
    }

    fn load(
        &self,
        source: &ScenarioSource,
        options: &Options,
    ) -> Result<Box<dyn Game>, ScenarioError> {
        Ok(Box::new(scenario::load(source, options)?))
    }
}
