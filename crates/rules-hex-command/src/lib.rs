//! Hex Command (Gunpowder), Terry and R. Jeffrey Cabak, 2010, as a Volley ruleset.
//!
//! One module per chapter of the rulebook: [`units`] (1), [`command`] (2, 6), [`movement`]
//! (3, 5), [`fire`] (7, 7.1, 3.1), [`melee`] (7.2–7.4), [`rout`] (7.5, 8), [`sequence`]
//! (Sequence of Play, Rules by Sequence, 9, victory), [`hidden`] (3.1, Hidden Movement).
//! docs/rules/hex-command.md maps every section to its code and tests.

pub mod actions;
pub mod cnc;
pub mod command;
mod events;
pub mod fire;
pub mod hidden;
pub mod melee;
pub mod movement;
pub mod rout;
pub mod scenario;
pub mod sequence;
pub mod state;
pub mod units;
mod view;

#[cfg(test)]
mod tests;

use actions::HcAction;
use state::{Phase, State};
use volley_core::{
    Action, Dice, Event, Game, Illegal, OptionSpec, Options, Outcome, Ruleset, ScenarioError,
    ScenarioSource, Side, View,
};

pub struct HexCommand;

pub static RULESET: HexCommand = HexCommand;

pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec { key: "facing_change_cost", default: "0", choices: &["0", "1"], help: "movement points a facing change costs: 0 (hand-out) or 1 (5.1 a)" },
    OptionSpec { key: "oblique", default: "yes", choices: &["yes", "no"], help: "units may step into their front-left and front-right hexes without turning (hand-out, Movement)" },
    OptionSpec { key: "limbered_rate", default: "2", choices: &["2", "3"], help: "hexes a turn for limbered artillery: 2 (movement chart) or 3 (section 3)" },
    OptionSpec { key: "cube", default: "faces", choices: &["faces", "intro"], help: "d6 for the Code 'n Color cube: faces (4-6 red, stars on 3 and 6) or intro (1-3 Color, 4-5 Code, 6 CnC)" },
    OptionSpec { key: "rally", default: "all", choices: &["all", "incremental", "self"], help: "rally method of section 8: a (all markers), b (one hit a turn), c (b, plus self-rallying units)" },
    OptionSpec { key: "move_unlimber_fire", default: "penalty", choices: &["penalty", "next-turn"], help: "artillery that moved and unlimbered fires at 1 CP (section 3) or only next turn (hand-out)" },
    OptionSpec { key: "fire_once_per_turn", default: "no", choices: &["no", "yes"], help: "Optional Rules, Rate of Fire: each unit fires once a turn" },
    OptionSpec { key: "melee_points", default: "no", choices: &["no", "yes"], help: "Optional Rules, Melee Points: the stronger unit adds a TE hit to its primary target" },
    OptionSpec { key: "advance_contact", default: "optional", choices: &["optional", "mandatory"], help: "whether an advance into an enemy zone starts a new melee (7.4)" },
    OptionSpec { key: "hidden", default: "no", choices: &["no", "yes"], help: "Optional Rules, Hidden Movement with spotting (3.1)" },
    OptionSpec { key: "sight", default: "9", choices: &[], help: "hexes of sight for hidden movement: 9 on a normal day, 6 otherwise" },
    OptionSpec { key: "break_point_ends_game", default: "yes", choices: &["yes", "no"], help: "an army at its break point at the end of a turn withdraws and loses" },
    OptionSpec { key: "skirmisher_contact", default: "rout", choices: &["rout", "remove"], help: "skirmishers contacted by infantry rout (7.2 a) or are removed (7.2 b)" },
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
        Ok(Box::new(HexCommandGame {
            state: scenario::load(source, options, OPTIONS)?,
        }))
    }
}

#[derive(Clone)]
pub struct HexCommandGame {
    pub state: State,
}

/// Whose decision it is.
pub(crate) fn decider(s: &State) -> Option<Side> {
    match s.phase {
        Phase::Over => None,
        Phase::NonPhasingFire => Some(s.phasing().other()),
        Phase::Advance => s.advances.first().map(|a| s.units[a.unit].side),
        _ => Some(s.phasing()),
    }
}

pub(crate) fn legal(s: &State) -> Vec<HcAction> {
    let mut out = Vec::new();
    match s.phase {
        Phase::Over => return out,
        Phase::Movement => movement::legal(s, &mut out),
        Phase::NonPhasingFire => fire::legal(s, s.phasing().other(), &mut out),
        Phase::PhasingFire => fire::legal(s, s.phasing(), &mut out),
        Phase::Melee => melee::legal(s, &mut out),
        Phase::Advance => {
            melee::legal_advance(s, &mut out);
            return out;
        }
    }
    out.push(HcAction::End);
    out
}

/// Whether the side to decide has anything to do but end the phase: the same question as
/// "does `legal` list more than `end`", answered at the first unit that can act instead of
/// listing every unit's actions.
pub(crate) fn has_choice(s: &State) -> bool {
    match s.phase {
        Phase::Over => false,
        Phase::Advance => !s.advances.is_empty(),
        Phase::Movement => {
            let mut out = Vec::new();
            movement::legal_commanders(s, &mut out);
            if !out.is_empty() {
                return true;
            }
            let board = movement::Board::new(s);
            (0..s.units.len()).any(|i| {
                movement::unit_moves(s, &board, i, &mut out);
                !out.is_empty()
            })
        }
        Phase::NonPhasingFire | Phase::PhasingFire => {
            let side = decider(s).expect("a fire phase has a side to decide");
            (0..s.units.len()).any(|i| {
                s.units[i].side == side && fire::may_fire(s, i) && !fire::shots(s, i).is_empty()
            })
        }
        Phase::Melee => {
            let mut out = Vec::new();
            melee::legal(s, &mut out);
            !out.is_empty()
        }
    }
}

/// Whether an action is legal now. A unit's move or shot is checked against that unit's
/// actions alone; anything else against the whole list.
pub(crate) fn is_legal(s: &State, a: HcAction) -> bool {
    match (s.phase, a) {
        (
            Phase::Movement,
            HcAction::Move { unit, .. }
            | HcAction::Face { unit, .. }
            | HcAction::Limber { unit }
            | HcAction::Unlimber { unit }
            | HcAction::Push { unit, .. },
        ) if (unit as usize) < s.units.len() => {
            let mut out = Vec::new();
            movement::unit_moves(s, &movement::Board::new(s), unit as usize, &mut out);
            out.contains(&a)
        }
        (Phase::NonPhasingFire | Phase::PhasingFire, HcAction::Fire { unit, target })
            if (unit as usize) < s.units.len() =>
        {
            let i = unit as usize;
            Some(s.units[i].side) == decider(s)
                && fire::may_fire(s, i)
                && fire::shots(s, i)
                    .iter()
                    .any(|shot| s.units[shot.target].hex == target)
        }
        _ => legal(s).contains(&a),
    }
}

impl HexCommandGame {
    /// Applies an action already known to be legal, then plays out any phase in which the
    /// side to decide could only end it.
    pub fn apply_legal(&mut self, a: HcAction, dice: &mut dyn Dice) -> Vec<Event> {
        let mut events = self.apply_effects(a, dice);
        self.skip_empty_phases(dice, &mut events);
        events
    }

    /// The action and its immediate consequences, without playing out the empty phases after it.
    fn apply_effects(&mut self, a: HcAction, dice: &mut dyn Dice) -> Vec<Event> {
        let s = &mut self.state;
        let mut events = Vec::new();
        match a {
            HcAction::End => sequence::end_phase(s, dice, &mut events),
            HcAction::Fire { unit, target } => {
                fire::apply(s, unit as usize, target, dice, &mut events)
            }
            HcAction::Melee { unit, target } => {
                melee::declare(s, unit as usize, target, &mut events)
            }
            HcAction::Advance { .. } | HcAction::Hold { .. } => {
                melee::apply_advance(s, a, &mut events)
            }
            _ => movement::apply(s, a, &mut events),
        }
        sequence::settle(s, dice, &mut events);
        events
    }

    /// The action, if it is legal now; otherwise why not.
    fn checked(&self, action: Action) -> Result<HcAction, Illegal> {
        let a = HcAction::decode(action).ok_or_else(|| Illegal::new("not a Hex Command action"))?;
        if !is_legal(&self.state, a) {
            return Err(Illegal::new(self.why_illegal(a)));
        }
        Ok(a)
    }

    fn skip_empty_phases(&mut self, dice: &mut dyn Dice, events: &mut Vec<Event>) {
        while self.state.phase != Phase::Over && self.state.phase != Phase::Advance {
            if has_choice(&self.state) {
                break;
            }
            sequence::end_phase(&mut self.state, dice, events);
            sequence::settle(&mut self.state, dice, events);
        }
    }

    fn why_illegal(&self, a: HcAction) -> String {
        let s = &self.state;
        let text = a.notation(s);
        let unit = match a {
            HcAction::End => None,
            HcAction::Attach { unit, .. }
            | HcAction::Move { unit, .. }
            | HcAction::Face { unit, .. }
            | HcAction::Limber { unit }
            | HcAction::Unlimber { unit }
            | HcAction::Push { unit, .. }
            | HcAction::Fire { unit, .. }
            | HcAction::Melee { unit, .. }
            | HcAction::Advance { unit, .. }
            | HcAction::Hold { unit, .. } => Some(unit as usize),
        };
        let phase = view::view(s, None).phase;
        if let Some(u) = unit.and_then(|u| s.units.get(u)) {
            if Some(u.side) != decider(s) {
                return format!(
                    "\"{text}\": {} belongs to {}, and it is {}'s decision now ({phase})",
                    u.id,
                    u.side,
                    decider(s).map_or("nobody".into(), |d| d.to_string())
                );
            }
            if !u.active() {
                return format!("\"{text}\": {} is no longer on the field", u.id);
            }
            if u.routed {
                return format!(
                    "\"{text}\": {} is routed and moves only by rout (7.5)",
                    u.id
                );
            }
            if s.in_melee(s.units.iter().position(|x| x.id == u.id).unwrap_or(0)) {
                return format!("\"{text}\": {} is locked in melee (7.3)", u.id);
            }
        }
        format!("\"{text}\" is not a legal action in the {phase} phase (see `volley legal`)")
    }
}

impl Game for HexCommandGame {
    fn ruleset(&self) -> &'static str {
        "hex-command"
    }

    fn start(&mut self, dice: &mut dyn Dice) -> Vec<Event> {
        let mut events = Vec::new();
        sequence::begin_turn(&mut self.state, dice, &mut events);
        self.skip_empty_phases(dice, &mut events);
        events
    }

    fn to_decide(&self) -> Option<Side> {
        decider(&self.state)
    }

    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        out.extend(legal(&self.state).into_iter().map(HcAction::encode));
    }

    fn describe(&self, action: Action) -> volley_core::ActionInfo {
        HcAction::decode(action).map_or(
            volley_core::ActionInfo::new("?", volley_core::ActionKind::Other),
            HcAction::describe,
        )
    }

    fn apply(&mut self, action: Action, dice: &mut dyn Dice) -> Result<Vec<Event>, Illegal> {
        let a = self.checked(action)?;
        Ok(self.apply_legal(a, dice))
    }

    fn preview(&mut self, action: Action, dice: &mut dyn Dice) -> Result<Vec<Event>, Illegal> {
        let a = self.checked(action)?;
        Ok(self.apply_effects(a, dice))
    }

    fn notation(&self, action: Action) -> String {
        HcAction::decode(action).map_or_else(|| "?".into(), |a| a.notation(&self.state))
    }

    fn parse_action(&self, text: &str) -> Result<Action, Illegal> {
        HcAction::parse(text, &self.state).map(HcAction::encode)
    }

    fn turn(&self) -> u32 {
        self.state.turn
    }

    fn outcome(&self) -> Option<Outcome> {
        self.state.outcome.clone()
    }

    fn view(&self, side: Option<Side>) -> View {
        view::view(&self.state, side)
    }

    fn clone_game(&self) -> Box<dyn Game> {
        Box::new(self.clone())
    }

    fn determinize(&self, side: Side, dice: &mut dyn Dice) -> Box<dyn Game> {
        Box::new(HexCommandGame {
            state: hidden::determinize(&self.state, side, dice),
        })
    }

    fn reach(&self, unit: &str) -> Vec<volley_core::Reach> {
        movement::reach(&self.state, unit)
    }

    fn check_invariants(&self) -> Result<(), String> {
        let s = &self.state;
        let mut seen = std::collections::HashMap::new();
        for (i, u) in s.units.iter().enumerate().filter(|(_, u)| u.active()) {
            if !s.map().contains(u.hex) {
                return Err(format!("{} is off the map", u.id));
            }
            for h in [Some(u.hex), u.guns_at].into_iter().flatten() {
                if let Some(j) = seen.insert(h, i) {
                    return Err(format!(
                        "{} and {} share {} (5.3)",
                        s.units[j].id,
                        u.id,
                        volley_core::geometry::label(h)
                    ));
                }
            }
            if u.hits > u.max_hits() || u.te > 3 {
                return Err(format!("{} has {} hits and {} TE", u.id, u.hits, u.te));
            }
            if u.hits >= u.max_hits() && !u.routed {
                return Err(format!("{} has {} hits but is not routed", u.id, u.hits));
            }
            if u.commander
                .is_some_and(|c| s.commanders[c].attached != Some(i))
            {
                return Err(format!("{}'s commander is attached elsewhere", u.id));
            }
        }
        for m in &s.melees {
            let (a, d) = (&s.units[m.attacker], &s.units[m.defender]);
            if !a.active() || !d.active() || a.hex.unsigned_distance_to(d.hex) != 1 {
                return Err(format!(
                    "melee between {} and {} is not in contact",
                    a.id, d.id
                ));
            }
        }
        if s.phase != Phase::Over && legal(s).is_empty() {
            return Err("no legal action but the game is not over".into());
        }
        Ok(())
    }
}
