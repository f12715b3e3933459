//! Hex Command (Gunpowder), Terry and R. Jeffrey Cabak, 2010, as a Volley ruleset.
//!
//! One module per chapter of the rulebook: [`units`] (1), [`command`] (2, 6), [`movement`]
//! (3, 5), [`fire`] (7, 7.1, 3.1), [`melee`] (7.2–7.4), [`rally`] (8), [`sequence`]
//! (Sequence of Play, Rules by Sequence, 9, victory), [`hidden`] (3.1, Hidden Movement).
//! Below the chapters: [`effects`] carries out what they decide (hits, TE, rout 7.5,
//! relocation, reveal, removal) and keeps the [`board`] (who stands where) current;
//! [`sight`] answers line-of-sight and cover questions. [`game`] is the `Game` API over it,
//! with the [`listing`] of legal actions kept from action to action.
//! docs/rules/hex-command.md maps every section to its code and tests.

pub mod actions;
pub mod board;
pub mod cnc;
pub mod command;
pub mod effects;
mod events;
pub mod fire;
pub mod game;
pub mod hidden;
pub mod listing;
pub mod melee;
pub mod movement;
pub mod rally;
pub mod scenario;
pub mod sequence;
pub mod sight;
pub mod state;
pub mod units;
mod view;

#[cfg(test)]
mod tests;

pub use game::HexCommandGame;
use volley_core::{Game, OptionSpec, Options, Ruleset, ScenarioError, ScenarioSource};

pub struct HexCommand;

pub static RULESET: HexCommand = HexCommand;

pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec { key: "facing_change_cost", label: "Facing change cost", default: "0", choices: &["0", "1"], help: "movement points a facing change costs: 0 (hand-out) or 1 (5.1 a)" },
    OptionSpec { key: "oblique", label: "Oblique steps", default: "yes", choices: &["yes", "no"], help: "units may step into their front-left and front-right hexes without turning (hand-out, Movement)" },
    OptionSpec { key: "limbered_rate", label: "Limbered artillery speed", default: "2", choices: &["2", "3"], help: "hexes a turn for limbered artillery: 2 (movement chart) or 3 (section 3)" },
    OptionSpec { key: "cube", label: "Command cube die", default: "faces", choices: &["faces", "intro"], help: "d6 for the Code 'n Color cube: faces (4-6 red, stars on 3 and 6) or intro (1-3 Color, 4-5 Code, 6 CnC)" },
    OptionSpec { key: "rally", label: "Rally method", default: "all", choices: &["all", "incremental", "self"], help: "rally method of section 8: a (all markers), b (one hit a turn), c (b, plus self-rallying units)" },
    OptionSpec { key: "move_unlimber_fire", label: "Moving, unlimbering and firing", default: "penalty", choices: &["penalty", "next-turn"], help: "artillery that moved and unlimbered fires at 1 CP (section 3) or only next turn (hand-out)" },
    OptionSpec { key: "fire_once_per_turn", label: "Rate of fire", default: "no", choices: &["no", "yes"], help: "Optional Rules, Rate of Fire: each unit fires once a turn" },
    OptionSpec { key: "melee_points", label: "Melee points", default: "no", choices: &["no", "yes"], help: "Optional Rules, Melee Points: the stronger unit adds a TE hit to its primary target" },
    OptionSpec { key: "advance_contact", label: "Advance into contact", default: "optional", choices: &["optional", "mandatory"], help: "whether an advance into an enemy zone starts a new melee (7.4)" },
    OptionSpec { key: "hidden", label: "Hidden movement", default: "no", choices: &["no", "yes"], help: "Optional Rules, Hidden Movement with spotting (3.1)" },
    OptionSpec { key: "sight", label: "Sight distance", default: "9", choices: &[], help: "hexes of sight for hidden movement: 9 on a normal day, 6 otherwise" },
    OptionSpec { key: "break_point_ends_game", label: "Break point ends the battle", default: "yes", choices: &["yes", "no"], help: "an army at its break point at the end of a turn withdraws and loses" },
    OptionSpec { key: "skirmisher_contact", label: "Skirmishers contacted by infantry", default: "rout", choices: &["rout", "remove"], help: "skirmishers contacted by infantry rout (7.2 a) or are removed (7.2 b)" },
];

impl Ruleset for HexCommand {
    fn id(&self) -> &'static str {
        "hex-command"
    }

    fn title(&self) -> &'static str {
        "Hex Command (Gunpowder)"
    }

    fn options(&self) -> &'static [OptionSpec] {
        OPTIONS
    }

    fn load(
        &self,
        source: &ScenarioSource,
        options: &Options,
    ) -> Result<Box<dyn Game>, ScenarioError> {
        Ok(Box::new(HexCommandGame::new(scenario::load(
            source, options, OPTIONS,
        )?)))
    }
}
