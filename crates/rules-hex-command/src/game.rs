//! The `Game` API over a Hex Command position: whose decision it is, the legal actions (all
//! of them, or one unit's), applying them (checked, or unchecked and silent for search),
//! and the checks of the position's own invariants.

use crate::board::Board;
use crate::legal::{decider, legal, legal_into, side_actions, side_count, some_unit_acts};
use crate::listing::Listing;
use crate::orders::{HcAction, Sink};
use crate::state::Changes;
use crate::state::{Phase, State};
use crate::{command, hidden, movement, sequence, view};
use std::sync::{Mutex, MutexGuard, PoisonError};
use volley_core::codec::Codec;
use volley_core::{
    Action, ActionInfo, ActionKind, Dice, Event, Game, Illegal, Log, Outcome, Side, View,
};

pub struct HexCommandGame {
    pub state: State,
    /// The legal actions of the side to decide, kept from action to action: what an action
    /// changed is listed when the legal actions are next asked for, or before the next
    /// action, so a position the search only scores (a quick player's candidates) is never
    /// listed, and the listing is brought up to date one action at a time, as it stood.
    kept: Mutex<Kept>,
}

#[derive(Clone)]
struct Kept {
    list: Listing,
    /// What the last action changed, not yet listed.
    pending: Option<Changes>,
}

impl Kept {
    /// Lists what the last action changed, if it is not listed yet.
    fn catch_up(&mut self, s: &State) {
        if let Some(changes) = self.pending.take() {
            self.list.update(s, changes);
        }
    }
}

impl Clone for HexCommandGame {
    fn clone(&self) -> HexCommandGame {
        let kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        HexCommandGame {
            state: self.state.clone(),
            kept: Mutex::new(kept.clone()),
        }
    }
}

impl HexCommandGame {
    pub fn new(state: State) -> HexCommandGame {
        let kept = Kept {
            list: Listing::of(&state),
            pending: None,
        };
        HexCommandGame {
            state,
            kept: Mutex::new(kept),
        }
    }

    /// The listing, up to date.
    fn listing(&self) -> MutexGuard<'_, Kept> {
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        kept.catch_up(&self.state);
        kept
    }

    /// Whether what the last action changed is listed yet (the listing is brought up to date
    /// when next asked for).
    pub fn is_listed(&self) -> bool {
        let kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        kept.pending.is_none()
    }

    /// Lists what the last action changed before the position changes again.
    fn flush(&mut self) {
        let kept = self.kept.get_mut().unwrap_or_else(PoisonError::into_inner);
        kept.catch_up(&self.state);
    }

    /// Notes what changed since the listing was last brought up to date, to list it later.
    fn pend(&mut self) {
        self.flush();
        let changes = std::mem::take(&mut self.state.changes);
        let kept = self.kept.get_mut().unwrap_or_else(PoisonError::into_inner);
        kept.pending = Some(changes);
    }

    /// Lists everything afresh: after a test or a bench has set up a position by hand.
    pub fn relist(&mut self) {
        self.state.board = Board::of(&self.state);
        self.state.changes = Default::default();
        *self.kept.get_mut().unwrap_or_else(PoisonError::into_inner) = Kept {
            list: Listing::of(&self.state),
            pending: None,
        };
    }

    /// Applies an action already known to be legal, then plays out any phase in which the
    /// side to decide could only end it.
    pub fn apply_legal(&mut self, a: HcAction, dice: &mut dyn Dice, log: &mut Log) {
        self.apply_effects(a, dice, log);
        self.skip_empty_phases(dice, log);
    }

    /// Whether the side to decide has anything to do but end the phase.
    pub fn has_choice(&self) -> bool {
        let s = &self.state;
        match s.phase {
            Phase::Over => false,
            Phase::Advance => !s.advances.is_empty(),
            Phase::Decision => !s.decisions.is_empty(),
            Phase::Orders => command::has_orders_to_write(s),
            // With the last action not yet listed, a look that stops at the first unit that
            // can act answers the same.
            _ => {
                let kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
                if kept.pending.is_some() {
                    some_unit_acts(s)
                } else {
                    kept.list.any() || side_count(s) > 0
                }
            }
        }
    }

    /// Whether an action is legal now: a unit's action is looked for among that unit's;
    /// ending the phase is open in every phase but the advance after melee.
    fn is_legal(&self, a: HcAction) -> bool {
        let s = &self.state;
        match a {
            HcAction::End => !matches!(s.phase, Phase::Over | Phase::Advance | Phase::Decision),
            _ if !s.phase.by_unit() => legal(s).contains(&a),
            HcAction::CommanderMove { .. } => {
                let mut f = crate::orders::Find {
                    want: a,
                    found: false,
                };
                side_actions(s, &mut f);
                f.found
            }
            _ if a.unit() >= s.units.len() => false,
            _ => self.listing().list.has(s, a.unit(), a),
        }
    }

    /// The action and its immediate consequences, without playing out the empty phases after it.
    fn apply_effects(&mut self, a: HcAction, dice: &mut dyn Dice, log: &mut Log) {
        self.flush();
        sequence::play(&mut self.state, a, dice, log);
        self.pend();
    }

    /// The action, if it is legal now; otherwise why not.
    fn checked(&self, action: Action) -> Result<HcAction, Illegal> {
        let a = HcAction::unpack(action).ok_or_else(|| Illegal::new("not a Hex Command action"))?;
        if !self.is_legal(a) {
            return Err(Illegal::new(crate::legal::why_illegal(&self.state, a)));
        }
        Ok(a)
    }

    /// Plays out the phases in which the side to decide could only end the phase. A phase
    /// that is passed over is only asked whether some unit can act (stopping at the first
    /// that can); the listing is made for the phase the game stops in.
    fn skip_empty_phases(&mut self, dice: &mut dyn Dice, log: &mut Log) {
        let open = |s: &State| !matches!(s.phase, Phase::Over | Phase::Advance | Phase::Decision);
        if !open(&self.state) || self.has_choice() {
            return;
        }
        self.flush();
        loop {
            sequence::end_phase(&mut self.state, dice, log);
            sequence::settle(&mut self.state, dice, log);
            if !open(&self.state) || some_unit_acts(&self.state) {
                break;
            }
        }
        self.pend();
    }
}

impl Game for HexCommandGame {
    fn ruleset(&self) -> &'static str {
        "hex-command"
    }

    fn start(&mut self, dice: &mut dyn Dice) -> Vec<Event> {
        let mut log = Log::new();
        self.flush();
        sequence::begin_game(&mut self.state, dice, &mut log);
        self.pend();
        self.skip_empty_phases(dice, &mut log);
        log.into_events()
    }

    fn to_decide(&self) -> Option<Side> {
        decider(&self.state)
    }

    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        let s = &self.state;
        if !s.phase.by_unit() {
            legal_into(s, out);
            return;
        }
        let kept = self.listing();
        out.reserve(kept.list.total() + 1);
        for i in 0..s.units.len() {
            kept.list.unit(s, i, out);
        }
        side_actions(s, out);
        out.put(HcAction::End);
    }

    fn unit_actions(&self, unit: u32, out: &mut Vec<Action>) {
        out.clear();
        self.listing().list.unit(&self.state, unit as usize, out);
    }

    fn actors(&self) -> Vec<u32> {
        let kept = self.listing();
        (0..self.state.units.len())
            .filter(|&i| kept.list.count(i) > 0)
            .map(|i| i as u32)
            .collect()
    }

    fn legal_count(&self) -> usize {
        let s = &self.state;
        if !s.phase.by_unit() {
            return legal(s).len();
        }
        self.listing().list.total() + side_count(s) + 1
    }

    fn legal_action(&self, k: usize) -> Option<Action> {
        let s = &self.state;
        if !s.phase.by_unit() {
            return legal(s).get(k).map(|a| a.pack());
        }
        let kept = self.listing();
        match kept.list.locate(k) {
            Some((i, j)) => kept.list.nth(s, i, j),
            None => {
                let mut extra: Vec<Action> = Vec::new();
                side_actions(s, &mut extra);
                extra.push(HcAction::End.pack());
                extra.get(k.checked_sub(kept.list.total())?).copied()
            }
        }
    }

    fn describe(&self, action: Action) -> ActionInfo {
        HcAction::unpack(action).map_or(ActionInfo::new("?", ActionKind::Other), HcAction::describe)
    }

    fn check(&self, action: Action) -> Result<(), Illegal> {
        self.checked(action).map(|_| ())
    }

    fn play_unchecked(&mut self, action: Action, dice: &mut dyn Dice, log: &mut Log) {
        let a = HcAction::unpack(action).expect("an action from the legal list");
        self.apply_legal(a, dice, log);
    }

    fn preview(&mut self, action: Action, dice: &mut dyn Dice) -> Result<Vec<Event>, Illegal> {
        let a = self.checked(action)?;
        let mut log = Log::new();
        self.apply_effects(a, dice, &mut log);
        Ok(log.into_events())
    }

    fn notation(&self, action: Action) -> String {
        HcAction::unpack(action).map_or_else(|| "?".into(), |a| a.notation(&self.state))
    }

    fn parse_action(&self, text: &str) -> Result<Action, Illegal> {
        HcAction::parse(text, &self.state).map(HcAction::pack)
    }

    fn turn(&self) -> u32 {
        self.state.turn
    }

    fn phasing(&self) -> Option<Side> {
        (self.state.phase != Phase::Over).then(|| self.state.phasing())
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
        s.check_invariants()?;
        if s.phase != Phase::Over && legal(s).is_empty() {
            return Err("no legal action but the game is not over".into());
        }
        if !self.listing().list.agrees_with(&Listing::of(s)) {
            return Err("the kept listing of legal actions is out of date".into());
        }
        Ok(())
    }
}
