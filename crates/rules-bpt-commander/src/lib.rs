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

pub mod armies;
pub mod army;
pub mod artillery;
pub mod attacks;
pub mod battle;
pub mod charge;
pub mod command;
pub mod dismount;
pub mod end;
pub mod firing;
pub mod game;
pub mod generate;
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

/// The options a scenario or the command line may set: the readings where the book is
/// unclear and the optional rules (docs/rules/bpt-commander.md).
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        key: "initiative_fire",
        label: "Initiative fire distance (cm)",
        default: "20",
        choices: &["20", "10"],
        range: None,
        help: "20: units fire on initiative at the nearest visible enemy within 20 cm, as the phase table says; 10: only within 10 cm, as the Firing chapter says.",
    },
    OptionSpec {
        key: "charge_penalty",
        label: "Charge modifier distance (cm)",
        default: "10",
        choices: &["10", "20"],
        range: None,
        help: "An order that charges a visible enemy this close costs -1: 10 cm (note 4, the 'zone of control') or 20 cm (the modifier table).",
    },
    OptionSpec {
        key: "saber_charge",
        label: "Saber charge",
        default: "off",
        choices: &["off", "on"],
        range: None,
        help: "The optional rule: mounted cavalry charge with 4 attacks a stand instead of 3, and infantry with rifled muskets get an extra attack a stand against them.",
    },
    OptionSpec {
        key: "exhaustion",
        label: "Exhausted cavalry lose",
        default: "die",
        choices: &["die", "hit"],
        range: None,
        help: "die: exhausted cavalry lose one more attack die while disordered (Game Concepts); hit: one more hit a stand instead (the Firing chapter).",
    },
    OptionSpec {
        key: "first_fire",
        label: "First fire bonus",
        default: "off",
        choices: &["off", "on"],
        range: None,
        help: "on: +1 to each hit roll of a unit's first fire of the battle (the ACW and Napoleonic special rules).",
    },
    OptionSpec {
        key: "squares",
        label: "Squares",
        default: "allowed",
        choices: &["allowed", "none"],
        range: None,
        help: "none: no unit forms square (the American Civil War, and wars before 1760).",
    },
    OptionSpec {
        key: "order_fire",
        label: "Targets of ordered fire",
        default: "any",
        choices: &["any", "nearest"],
        range: None,
        help: "any: an order may fire at any visible enemy in range and cone; nearest: only at the nearest visible enemy, as initiative fire must (guns may pick the nearest visible enemy artillery instead: counter-battery fire).",
    },
    OptionSpec {
        key: "shrapnel",
        label: "Shell is shrapnel",
        default: "off",
        choices: &["off", "on"],
        range: None,
        help: "on: the battle is after 1845 and shell is shrapnel, one more attack a gun.",
    },
    OptionSpec {
        key: "air_burst",
        label: "Air burst shell",
        default: "off",
        choices: &["off", "on"],
        range: None,
        help: "The optional rule: guns may fire shell as an air burst over open ground, one die fewer, every target counted as in the open.",
    },
    OptionSpec {
        key: "deviation",
        label: "High-angle deviation die",
        default: "hit_die",
        choices: &["hit_die", "always"],
        range: None,
        help: "hit_die: howitzer and mortar shells roll a d6 first, 1-2 landing on the aiming point, else a direction d6 and the distance dice; always: no hit die, every shell deviates.",
    },
    OptionSpec {
        key: "weather",
        label: "Weather",
        default: "off",
        choices: &["off", "roll", "normal", "poor", "extreme", "night"],
        range: None,
        help: "The weather optional rule. off: not used. roll: two dice before the battle (12 extreme, 10-11 poor). normal, poor, extreme: the scenario's weather at the start. Either way a double six at the end of a game turn worsens it and a double one clears it. Poor weather costs command rolls 1 and limits sight to 40 cm, extreme 2 and 10 cm. night: poor weather that never changes.",
    },
    OptionSpec {
        key: "morale",
        label: "Morale grades",
        default: "off",
        choices: &["off", "grades", "grades-and-charge"],
        range: None,
        help: "The Morale optional rule. grades: each unit's grade (morale = unmotivated, regular or motivated in the scenario) replaces the suppression score (4+, 5+, 6) and the fall-back that knocks it out (beyond 5, 10, 15 cm). grades-and-charge: the grade is also the score that hits the unit in a charge.",
    },
    OptionSpec {
        key: "prone",
        label: "Prone movement",
        default: "off",
        choices: &["off", "on"],
        range: None,
        help: "The Prone Movement optional rule: by an order foot lie down (prone) and stand up again (rise). Prone, a unit takes one hit fewer from each unit firing at it; in extended line it may still fire but not move, in close order it may neither fire nor move.",
    },
    OptionSpec {
        key: "fixed_formations",
        label: "Fixed formations",
        default: "off",
        choices: &["off", "on"],
        range: None,
        help: "The Fixed Formations optional rule: a unit given a formation (hq = \"ID\" in the scenario) takes orders from that command unit only; units with none take them from any.",
    },
    OptionSpec {
        key: "hidden_setup",
        label: "Hidden set-up",
        default: "off",
        choices: &["off", "on"],
        range: None,
        help: "A hidden set-up, for the Scouting Cavalry optional rule: each side sees only a marker where an enemy unit stands until it acts (an order, a move, a shot), is struck, has an enemy within 5 cm, or is found by scouting cavalry (units with the trait scout: single cavalry stands that spot 30 cm in the open and 15 cm in cover, move freely after one order, do not fight, and leave the table unharmed when fired on or touched).",
    },
    OptionSpec {
        key: "frozen",
        label: "Frozen terrain",
        default: "off",
        choices: &["off", "on"],
        range: None,
        help: "Frozen Terrain, for a winter battle: rivers, lakes, marsh, fords and streams are frozen and every arm crosses them as high area terrain (a quarter speed, 20 cm a hex), with no contact needed at a frozen stream or ford. Snow is open ground. Sight and cover do not change.",
    },
    OptionSpec {
        key: "constructions",
        label: "Constructions",
        default: "off",
        choices: &["off", "on"],
        range: None,
        help: "The Constructions optional rule: works and buildings ([[works]] in the scenario) have hits and a save; infantry in them may use the save, artillery fire strikes them too on sixes, and at their hits value they collapse on their occupants.",
    },
];

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
