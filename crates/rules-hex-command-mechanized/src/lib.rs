//! Hex Command: Mechanized (WWII), Cabak, as a Volley ruleset `hex-command-mechanized`. One
//! file per chapter of the rules, each a set of free functions over the position
//! ([`state::State`]) with the dice and the log, as in Gunpowder; a chapter uses what lies
//! below it and never another chapter or the sequence of play:
//!
//! - [`movement`] — movement, facing, stacking (M48–M68), commanders placed; a step that
//!   runs into hidden enemies says so ([`movement::Stepped`]) and the sequence has them fire
//! - [`fire`] — fire: anti-tank, HE, small arms, machine guns, an ambush's fire (M81–M102,
//!   M117)
//! - [`bombard`] — indirect fire with a spotter, shot fall, HE on the hex (M94–M97)
//! - [`cargo`] — carrying, towing, bailing out (M11–M13, M53, M108)
//! - [`engineers`] — works built, mines laid and cleared (M66–M67)
//! - [`aircraft`] — ground-attack aircraft and flak (M69, M140)
//! - [`melee`] — melee, ramming and swarming (M107–M119)
//! - [`reinforce`] — reinforcements arriving and the blockers' answer (M45–M47)
//! - [`command`] — written orders, free-will tests, the consequence table (M23–M39)
//! - [`rout`] — Rally Up (M121–M124)
//! - [`victory`] — losses, break point, panic and victory (M41–M44)
//! - below them: [`acting`] (whether an item may still move or fire, zones of control, the
//!   holds of rally and panic, written orders that refuse a step), [`hidden`] (hidden units,
//!   markers and decoys, spotting, what each side sees, smoke, M75–M80), [`effects`] (items
//!   moved and removed, a hidden one revealed, HE on an item, what a loss does: rout and the
//!   routed run, wrecks, commanders killed or captured, works battered) and [`state`] (the position: the scenario's set-up and the
//!   game in play, with the lookups every chapter asks); the numbers they use: [`charts`]
//!   (the charts the text leaves out, as data), [`damage`], [`fire_tables`], [`losses`],
//!   [`moves`], [`melee_tables`], [`command_tables`], [`indirect`], [`logistics`]; the pieces
//!   in [`items`], who stands where in [`board`], ground in [`terrain`], the order codec and
//!   notation in [`orders`]
//! - above them: [`legal`] (why an order is legal or not, each handed to its chapter),
//!   [`listing`] (the legal orders and a unit's reach), [`sequence`] (the sequence of play,
//!   M15–M22: initiative, each activation's steps, an order carried out by its chapter and
//!   the steps that end by themselves), [`view`] (what a side sees, the hidden AT
//!   capability, M4), [`scenario`] (reading a scenario) and [`game`] ([`game::MechGame`]: the
//!   position and its kept listing, and the `Game` API)
//!
//! The family skeleton shared with Gunpowder (the turn's activations, reinforcements
//! arriving, commanders' posts and losses, written orders, markers, works, line of sight and
//! cover) is in `hex-command-family`. docs/rules/hex-command-mechanized.md maps the rulebook
//! to the code.

pub mod acting;
pub mod aircraft;
pub mod board;
pub mod bombard;
pub mod cargo;
pub mod charts;
pub mod command;
pub mod command_tables;
pub mod damage;
pub mod effects;
pub mod engineers;
pub mod fire;
pub mod fire_tables;
pub mod game;
pub mod hidden;
pub mod indirect;
pub mod items;
pub mod legal;
pub mod listing;
pub mod logistics;
pub mod losses;
pub mod melee;
pub mod melee_tables;
pub mod movement;
pub mod moves;
pub mod orders;
pub mod reinforce;
pub mod rout;
pub mod scenario;
pub mod sequence;
pub mod state;
pub mod terrain;
pub mod victory;
pub mod view;

use volley_core::{Game, OptionSpec, Options, Ruleset, ScenarioError, ScenarioSource};

/// The ruleset id scenarios name.
pub const ID: &str = "hex-command-mechanized";

/// A rule reference for events: the id and the digest's section number (M1–M140), which
/// docs/rules/hex-command-mechanized.md maps to the rulebook's own sections.
fn rule(section: &str) -> String {
    [ID, " ", section].concat()
}

pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        key: "oblique",
        label: "Oblique steps",
        default: "yes",
        choices: &["yes", "no"], range: None,
        help: "Whether items may step into their front-left and front-right hexes without turning (the rules do not say; Gunpowder's option, C12).",
    },
    OptionSpec {
        key: "activation",
        label: "Who moves when",
        default: "ab",
        choices: &["ab", "group-turns", "group-turns-pairs", "group-turns-commanders"], range: None,
        help: "ab: the initiative winner plays a whole player turn, then the other side (3.1's A/B system); group-turns: each side numbers its groups (`group = N` on a unit) and the groups take small player turns in order, the initiative winner's first 1, then the other's 1, then the 2s…; every unit fires once a game turn and units with no group float, firing whenever their side may (3.1, 4.6); group-turns-pairs: the same, with the initiative rolled again before each pair of groups after the first; group-turns-commanders: the initiative rolled for every pair of groups with each group's own commander's Initiative (`[[groups]]` names them; a group without one, or whose commander has fallen, uses the overall commander's).",
    },
    OptionSpec {
        key: "arrival_test",
        label: "Reinforcements must pass a test",
        default: "no",
        choices: &["no", "yes"], range: None,
        help: "yes: a reinforcement group arrives only on a d10 above the Initiative of the commander with it (else of the overall commander), and tries again next turn (3.4).",
    },
    OptionSpec {
        key: "cvs_orders",
        label: "Written orders",
        default: "no",
        choices: &["no", "yes"], range: None,
        help: "yes: each group follows the order the scenario writes for it ([[orders]]); changing it needs a d10 above the overall commander's Tactical (at most 10 - Initiative times), acting outside it a d10 above his Aggressiveness, and a failure rolls the consequence table (2.1.1, 4.5.1).",
    },
    OptionSpec {
        key: "cvs_combat",
        label: "Commanders add their Combat trait to fire",
        default: "no",
        choices: &["no", "yes"], range: None,
        help: "no: a commander with a unit helps its fire by one; yes: by its Combat value, 0 to 2 (3.10 d).",
    },
    OptionSpec {
        key: "cvs_advance",
        label: "Advance after melee by Aggressiveness",
        default: "no",
        choices: &["no", "yes"], range: None,
        help: "no: the winner advances on a d6 of 4-6 (+1 with a commander); yes: on a d10 above the Aggressiveness of the commander with it, else of the overall commander (3.8.5).",
    },
    OptionSpec {
        key: "rain",
        label: "Rain and mud",
        default: "no",
        choices: &["no", "yes"], range: None,
        help: "yes: each wheeled vehicle rolls a d6 when it starts to move, and is stuck for the turn on 3-6 (3.5.1).",
    },
    OptionSpec {
        key: "rallied",
        label: "What rallied squads may do",
        default: "free",
        choices: &["free", "hold"], range: None,
        help: "hold: a squad that has rallied from a rout only defends — it neither moves nearer the enemy nor starts a melee — unless a commander is with it (the designer's note); free: it fights as before.",
    },
    OptionSpec {
        key: "obscured_fire",
        label: "Obscured fire",
        default: "no",
        choices: &["no", "yes"], range: None,
        help: "yes: a line of fire only partly clear (light woods, works or a slope on it) costs a point, on the anti-tank roll and on small arms (4.4).",
    },
    OptionSpec {
        key: "sphere",
        label: "Commanders' sphere of influence",
        default: "no",
        choices: &["no", "yes"], range: None,
        help: "yes: a commander with Morale 2 rallies and urges on the units in the six hexes around it as well as in its own (3.6, 4.5); no: its own hex only.",
    },
    OptionSpec {
        key: "sound_ranging",
        label: "Sound ranging",
        default: "no",
        choices: &["no", "yes"], range: None,
        help: "yes: a hidden gun or mortar firing indirectly stays hidden; the enemy is shown instead an area of ten hexes it fired from, until the end of the next turn (4.2).",
    },
    OptionSpec {
        key: "break_point",
        label: "At a side's break point",
        default: "plays-on",
        choices: &["plays-on", "ends"], range: None,
        help: "plays-on: the enemy of a side at its break point wins if it has lost less or holds more objectives; otherwise the battle goes on, and the broken side rolls for panic at the start of each of its turns (3.3, 3.11); ends: the battle ends there, a draw unless the enemy has lost less or holds more.",
    },
    OptionSpec {
        key: "hidden_damage",
        label: "Hidden damage",
        default: "no",
        choices: &["no", "yes"], range: None,
        help: "yes: a vehicle's damage blocks are shown only to its owner (Introduction).",
    },
];

pub struct MechanizedRules;

pub static RULESET: MechanizedRules = MechanizedRules;

impl Ruleset for MechanizedRules {
    fn id(&self) -> &'static str {
        ID
    }

    fn title(&self) -> &'static str {
        "Hex Command: Mechanized (WWII)"
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
        let s = scenario::load(source, options, OPTIONS)?;
        Ok(Box::new(game::MechGame::new(s)))
    }
}
