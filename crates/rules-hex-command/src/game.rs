//! The `Game` API over a Hex Command position: whose decision it is, the legal actions (all
//! of them, or one unit's), applying them (checked, or unchecked and silent for search),
//! and the checks of the position's own invariants.

use crate::actions::{Count, HcAction, Sink};
use crate::board::Board;
use crate::listing::Listing;
use crate::state::{Phase, State};
use crate::{fire, hidden, melee, movement, sequence, view};
use volley_core::{
    Action, ActionInfo, ActionKind, Dice, Event, Game, Illegal, Log, Outcome, Side, View,
};

#[derive(Clone)]
pub struct HexCommandGame {
    pub state: State,
    /// The legal actions of the side to decide, kept current by every action.
    listing: Listing,
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

/// Whether some unit has an action now: a look that stops at the first that does.
fn some_unit_acts(s: &State) -> bool {
    (0..s.units.len()).any(|i| {
        let mut n = Count::default();
        unit_legal(s, i, &mut n);
        n.0 > 0
    })
}

/// Every legal action now.
pub(crate) fn legal(s: &State) -> Vec<HcAction> {
    let mut out = Vec::new();
    legal_into(s, &mut out);
    out
}

fn legal_into(s: &State, out: &mut impl Sink) {
    match s.phase {
        Phase::Over => return,
        Phase::Movement => movement::legal(s, out),
        Phase::NonPhasingFire => fire::legal(s, s.phasing().other(), out),
        Phase::PhasingFire => fire::legal(s, s.phasing(), out),
        Phase::Melee => melee::legal(s, out),
        Phase::Advance => {
            melee::legal_advance(s, out);
            return;
        }
    }
    out.put(HcAction::End);
}

/// The legal actions of unit `i` alone (section 6's attachments count as the unit's).
pub(crate) fn unit_legal(s: &State, i: usize, out: &mut impl Sink) {
    if i >= s.units.len() {
        return;
    }
    match s.phase {
        Phase::Over => {}
        Phase::Movement => {
            movement::commanders_for(s, i, out);
            movement::unit_moves(s, i, out);
        }
        Phase::NonPhasingFire | Phase::PhasingFire => {
            if Some(s.units[i].side) == decider(s) {
                fire::unit_shots(s, i, out);
            }
        }
        Phase::Melee => melee::unit_melees(s, i, out),
        Phase::Advance => {
            if s.advances.first().is_some_and(|a| a.unit == i) {
                melee::legal_advance(s, out);
            }
        }
    }
}

impl HexCommandGame {
    pub fn new(state: State) -> HexCommandGame {
        let listing = Listing::of(&state);
        HexCommandGame { state, listing }
    }

    /// Lists everything afresh: after a test or a bench has set up a position by hand.
    pub fn relist(&mut self) {
        self.state.board = Board::of(&self.state);
        self.state.changes = Default::default();
        self.listing = Listing::of(&self.state);
    }

    /// Applies an action already known to be legal, then plays out any phase in which the
    /// side to decide could only end it.
    pub fn apply_legal(&mut self, a: HcAction, dice: &mut dyn Dice, log: &mut Log) {
        self.apply_effects(a, dice, log);
        self.skip_empty_phases(dice, log);
    }

    /// Whether the side to decide has anything to do but end the phase.
    fn has_choice(&self) -> bool {
        match self.state.phase {
            Phase::Over => false,
            Phase::Advance => !self.state.advances.is_empty(),
            _ => self.listing.any(),
        }
    }

    /// Whether an action is legal now: a unit's action is looked for among that unit's;
    /// ending the phase is open in every phase but the advance after melee.
    fn is_legal(&self, a: HcAction) -> bool {
        let s = &self.state;
        match a {
            HcAction::End => s.phase != Phase::Over && s.phase != Phase::Advance,
            _ if a.unit() >= s.units.len() => false,
            _ => self.listing.has(s, a.unit(), a),
        }
    }

    /// The action and its immediate consequences, without playing out the empty phases after it.
    fn apply_effects(&mut self, a: HcAction, dice: &mut dyn Dice, log: &mut Log) {
        let s = &mut self.state;
        match a {
            HcAction::End => sequence::end_phase(s, dice, log),
            HcAction::Fire { unit, target } => fire::apply(s, unit as usize, target, dice, log),
            HcAction::Melee { unit, target } => melee::declare(s, unit as usize, target, log),
            HcAction::Advance { .. } | HcAction::Hold { .. } => melee::apply_advance(s, a, log),
            _ => movement::apply(s, a, log),
        }
        sequence::settle(s, dice, log);
        self.listing.update(&mut self.state);
    }

    /// The action, if it is legal now; otherwise why not.
    fn checked(&self, action: Action) -> Result<HcAction, Illegal> {
        let a = HcAction::decode(action).ok_or_else(|| Illegal::new("not a Hex Command action"))?;
        if !self.is_legal(a) {
            return Err(Illegal::new(self.why_illegal(a)));
        }
        Ok(a)
    }

    /// Plays out the phases in which the side to decide could only end the phase. A phase
    /// that is passed over is only asked whether some unit can act (stopping at the first
    /// that can); the listing is made for the phase the game stops in.
    fn skip_empty_phases(&mut self, dice: &mut dyn Dice, log: &mut Log) {
        let open = |s: &State| s.phase != Phase::Over && s.phase != Phase::Advance;
        if !open(&self.state) || self.has_choice() {
            return;
        }
        loop {
            sequence::end_phase(&mut self.state, dice, log);
            sequence::settle(&mut self.state, dice, log);
            if !open(&self.state) || some_unit_acts(&self.state) {
                break;
            }
        }
        self.listing.update(&mut self.state);
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
        let mut log = Log::new();
        sequence::begin_turn(&mut self.state, dice, &mut log);
        self.listing.update(&mut self.state);
        self.skip_empty_phases(dice, &mut log);
        log.into_events()
    }

    fn to_decide(&self) -> Option<Side> {
        decider(&self.state)
    }

    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        let s = &self.state;
        if matches!(s.phase, Phase::Over | Phase::Advance) {
            legal_into(s, out);
            return;
        }
        out.reserve(self.listing.total() + 1);
        for i in 0..s.units.len() {
            self.listing.unit(s, i, out);
        }
        out.put(HcAction::End);
    }

    fn unit_actions(&self, unit: u32, out: &mut Vec<Action>) {
        out.clear();
        self.listing.unit(&self.state, unit as usize, out);
    }

    fn actors(&self) -> Vec<u32> {
        (0..self.state.units.len())
            .filter(|&i| self.listing.count(i) > 0)
            .map(|i| i as u32)
            .collect()
    }

    fn legal_count(&self) -> usize {
        let s = &self.state;
        if matches!(s.phase, Phase::Over | Phase::Advance) {
            return legal(s).len();
        }
        self.listing.total() + 1
    }

    fn legal_action(&self, k: usize) -> Option<Action> {
        let s = &self.state;
        if matches!(s.phase, Phase::Over | Phase::Advance) {
            return legal(s).get(k).map(|a| a.encode());
        }
        match self.listing.locate(k) {
            Some((i, j)) => self.listing.nth(s, i, j),
            None => (k == self.listing.total()).then(|| HcAction::End.encode()),
        }
    }

    fn describe(&self, action: Action) -> ActionInfo {
        HcAction::decode(action).map_or(ActionInfo::new("?", ActionKind::Other), HcAction::describe)
    }

    fn apply(&mut self, action: Action, dice: &mut dyn Dice) -> Result<Vec<Event>, Illegal> {
        let a = self.checked(action)?;
        let mut log = Log::new();
        self.apply_legal(a, dice, &mut log);
        Ok(log.into_events())
    }

    fn apply_quiet(&mut self, action: Action, dice: &mut dyn Dice) -> Result<(), Illegal> {
        let a = self.checked(action)?;
        self.apply_legal(a, dice, &mut Log::silent());
        Ok(())
    }

    fn apply_unchecked(&mut self, action: Action, dice: &mut dyn Dice) {
        let a = HcAction::decode(action).expect("an action from the legal list");
        self.apply_legal(a, dice, &mut Log::silent());
    }

    fn preview(&mut self, action: Action, dice: &mut dyn Dice) -> Result<Vec<Event>, Illegal> {
        let a = self.checked(action)?;
        let mut log = Log::new();
        self.apply_effects(a, dice, &mut log);
        Ok(log.into_events())
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
        if !self.state.settings().hidden {
            return self.clone_game();
        }
        Box::new(HexCommandGame::new(hidden::determinize(
            &self.state,
            side,
            dice,
        )))
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
        if s.board != Board::of(s) {
            return Err("the board (who stands where) is out of date".into());
        }
        if !self.listing.agrees_with(&Listing::of(s)) {
            return Err("the kept listing of legal actions is out of date".into());
        }
        Ok(())
    }
}
