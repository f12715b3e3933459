//! Hex Command (Gunpowder), Terry and R. Jeffrey Cabak, 2010, as a Volley ruleset.
//!
//! One module per chapter of the rulebook: [`units`] (1), [`command`] (2, 6), [`movement`]
//! (3, 5), [`fire`] (7, 7.1, 3.1), [`melee`] (7.2–7.4), [`rally`] (8), [`sequence`]
//! (Sequence of Play, Rules by Sequence, 9, victory), [`hidden`] (3.1, Hidden Movement).
//! Below the chapters: [`state`] holds the position, with its [`board`] (who stands where);
//! [`effects`] carries out what the chapters decide (hits, TE, rout 7.5, relocation, reveal,
//! removal) and keeps the board current; [`sight`] answers line-of-sight and cover
//! questions; [`cnc`] reads the Code 'n Color cube. Above them: [`orders`] is the action codec
//! and notation, [`legal`] says whose decision it is and what is legal, the [`listing`] keeps
//! it from action to action, [`view`] is what a side sees, [`scenario`] reads a scenario, and
//! [`game`] is the `Game` API. The family skeleton (the turn's activations, reinforcements
//! arriving, CVS and written orders, markers, works, line of sight) is `hex-command-family`.
//! docs/rules/hex-command.md maps every section to its code and tests.

pub mod board;
pub mod cnc;
pub mod command;
pub mod effects;
mod events;
pub mod fire;
pub mod game;
pub mod hidden;
pub mod legal;
pub mod listing;
pub mod melee;
pub mod movement;
pub mod orders;
pub mod rally;
pub mod scenario;
pub mod sequence;
pub mod sight;
pub mod state;
pub mod units;
pub mod view;

pub use game::HexCommandGame;
use volley_core::{Game, OptionSpec, Options, Ruleset, ScenarioError, ScenarioSource};

pub struct HexCommand;

pub static RULESET: HexCommand = HexCommand;

pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec { key: "facing_change_cost", label: "Facing change cost", default: "0", choices: &["0", "1"], range: None, help: "Movement points a change of facing costs: 0, as the hand-out says, or 1, as section 5.1 a says." },
    OptionSpec { key: "oblique", label: "Oblique steps", default: "yes", choices: &["yes", "no"], range: None, help: "Whether units may step into their front-left and front-right hexes without turning (the hand-out leaves it to the players)." },
    OptionSpec { key: "limbered_rate", label: "Limbered artillery speed", default: "2", choices: &["2", "3"], range: None, help: "Hexes a turn for limbered guns: 2 (the movement chart) or 3 (section 3)." },
    OptionSpec { key: "cube", label: "Die for the Code 'n Color cube", default: "faces", choices: &["faces", "intro", "charts"], range: None, help: "How a six-sided die stands in for the cube. faces: 4-6 red, stars on 3 and 6 (the real cube's odds). intro: the Introduction's table everywhere (1-3 Color, 4-5 Code, 6 CnC). charts: the Introduction's table for fire, spotting and integrity, and the melee chart's 4-6 red for melee." },
    OptionSpec { key: "rally", label: "Rally method", default: "all", choices: &["all", "incremental", "self"], range: None, help: "Section 8. all: a commander removes every marker. incremental: one hit a turn, more the longer the commander stays. self: as incremental, and units marked self_rally recover a hit without a commander." },
    OptionSpec { key: "rally_te", label: "Rallied units stay shaken", default: "no", choices: &["no", "yes"], range: None, help: "Sequence of Play 8, optional: a unit rallied from rout keeps one TE hit." },
    OptionSpec { key: "rally_reach", label: "Who can be rallied", default: "attached", choices: &["attached", "sphere"], range: None, help: "Sequence of Play 8, optional: only units with a commander attached rally, or also units within a commander's sphere of influence (needs spheres)." },
    OptionSpec { key: "move_unlimber_fire", label: "Moving, unlimbering and firing", default: "penalty", choices: &["penalty", "next-turn"], range: None, help: "Guns that moved and unlimbered this turn fire at 1 CP (section 3), or not until next turn (the hand-out)." },
    OptionSpec { key: "fire_once_per_turn", label: "Rate of fire", default: "no", choices: &["no", "yes"], range: None, help: "Optional Rules, Rate of Fire: each unit fires once a turn, so it must choose between firing as the non-phasing player and in its own turn." },
    OptionSpec { key: "melee_points", label: "Melee points", default: "no", choices: &["no", "yes"], range: None, help: "Optional Rules, Melee Points: the stronger unit in a melee adds an automatic TE hit on its primary target, and on one more opponent of its choice when it fights several." },
    OptionSpec { key: "melee_values", label: "Melee strength by arm", default: "equal", choices: &["equal", "by-arm"], range: None, help: "The rules give no base melee values. equal: every fighting unit starts at 3 and only modifiers decide (a scenario may rate units). by-arm: cavalry 4, line infantry 3, light infantry 2." },
    OptionSpec { key: "advance_contact", label: "Advance into contact", default: "optional", choices: &["optional", "mandatory"], range: None, help: "Section 7.4: whether a winner that advances into a new enemy's zone may decline to melee it (optional) or must (mandatory)." },
    OptionSpec { key: "hidden", label: "Hidden movement", default: "no", choices: &["no", "yes"], range: None, help: "Optional Rules, Hidden Movement: units no enemy can see are shown only as markers, among decoys, until spotted (Rules by Sequence 3.1)." },
    OptionSpec { key: "sight", label: "Sight distance", default: "9", choices: &[], range: Some((1, 30)), help: "Hidden movement: hexes a unit can see, a number. 9 on a normal day, 6 at night or in bad weather." },
    OptionSpec { key: "decoys", label: "Decoys", default: "one-per-unit", choices: &["one-per-unit", "scenario"], range: None, help: "Hidden movement: every unseen unit shows as two markers, itself and one decoy (the rule's two fake counters), or only the decoys the scenario places." },
    OptionSpec { key: "break_point_ends_game", label: "Break point ends the battle", default: "no", choices: &["no", "yes"], range: None, help: "no: an army past its break point rolls for integrity every turn, units on red falling back (Rules by Sequence 2). yes: an army at its break point at the end of a turn withdraws and loses at once." },
    OptionSpec { key: "skirmisher_contact", label: "Skirmishers caught by infantry", default: "rout", choices: &["rout", "remove"], range: None, help: "Section 7.2: skirmishers contacted by anything but cavalry rout away (rout) or are removed (remove). Cavalry always destroys them." },
    OptionSpec { key: "fire_order", label: "Who fires first", default: "non-phasing", choices: &["non-phasing", "roll", "commanders", "tactical"], range: None, help: "Section 7 c. non-phasing: the non-phasing player fires, then the phasing player. roll: a die decides. commanders: units with commanders fire first, the higher roller's first. tactical: each brigade tests its commander's Tactical and those that pass fire first (needs the CVS)." },
    OptionSpec { key: "cvs", label: "Command Valuation System", default: "off", choices: &["off", "scenario", "random"], range: None, help: "Section 2.2: commanders rated by five traits tested on a d10 (Initiative, Combat, Morale, Tactical, Aggressiveness). scenario: as the scenario rates them (rolled where it does not). random: every commander rolled on the CVS chart at the start." },
    OptionSpec { key: "orders", label: "Written orders", default: "no", choices: &["no", "yes"], range: None, help: "Sections 2.2.1-2.2.2: each brigade follows its written order (attack, march, hold, withdraw, reserve); changing one needs a Tactical test, and failing rolls on the decision-failure table. A unit with a commander attached acts freely." },
    OptionSpec { key: "activation", label: "Turn sequence", default: "ab", choices: &["ab", "groups", "group-turns"], range: None, help: "ab: the traditional A/B system, each player moving all its units in turn. groups: the hand-out's Activation Sequence, brigades moving alternately by number, then all fire and player A's melee. group-turns: section 2.3, each brigade's activation a small turn of its own. In both activation modes units fire once a turn and artillery floats." },
    OptionSpec { key: "spheres", label: "Spheres of influence", default: "no", choices: &["no", "yes"], range: None, help: "Section 2.1: a commander influences units within its Morale in hexes of where it stands (rally, obstacles, fatigue), not only the unit it is with." },
    OptionSpec { key: "commanders", label: "Commanders on the map", default: "symbols", choices: &["symbols", "pieces"], range: None, help: "symbols: commanders are placed on units each turn (section 2 b). pieces: they move on the map at cavalry speed over any ground, and couriers carry new orders to brigades (section 2 d)." },
    OptionSpec { key: "supply", label: "Supply", default: "no", choices: &["no", "yes"], range: None, help: "Optional Rules, Supply: each unit carries 12 supply points and spends one each turn it fires; a wagon within 2 hexes refills it." },
    OptionSpec { key: "tribes", label: "Tribal troops", default: "no", choices: &["no", "yes"], range: None, help: "Optional Rules, Tribes and Light Infantry: units marked tribal test their commander's Tactical at the start; those that fail will not close with fresh enemies." },
    OptionSpec { key: "tribal_test", label: "Tribal test reads", default: "as-written", choices: &["as-written", "cvs"], range: None, help: "The Tribes rule says a unit fails by rolling higher than Tactical, the reverse of every other CVS test. as-written plays it so; cvs makes it fail by not rolling higher." },
    OptionSpec { key: "pike_and_shot", label: "Pike and Shot era", default: "no", choices: &["no", "yes"], range: None, help: "Optional Rules, Pike and Shot era Muskets: firearms at best class B, every unit fires once a turn, and guns once unlimbered never move again (turning costs a CP) unless rare." },
];

impl Ruleset for HexCommand {
    fn id(&self) -> &'static str {
        "hex-command"
    }

    fn title(&self) -> &'static str {
        "Hex Command (Gunpowder)"
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
        Ok(Box::new(HexCommandGame::new(scenario::load(
            source, options, OPTIONS,
        )?)))
    }
}
