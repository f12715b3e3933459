//! The game API ([`Game`]) over the position: each call goes to the sequence of play
//! (`sequence.rs`), the orders' codec (`orders.rs`), the view (`view.rs`) or the odds
//! (`odds.rs`).

use crate::orders::{self, Order};
use crate::state::{BptGame, Phase};
use volley_core::codec::Codec;
use volley_core::geometry::label;
use volley_core::{
    Action, ActionInfo, ActionKind, Dice, Event, Game, Illegal, Log, Outcome, Side, View,
};

impl Game for BptGame {
    fn ruleset(&self) -> &'static str {
        crate::ID
    }

    fn start(&mut self, dice: &mut dyn Dice) -> Vec<Event> {
        let mut log = Log::new();
        if self.phase == Phase::Setup {
            self.begin_battle(dice, &mut log);
        }
        log.into_events()
    }

    fn to_decide(&self) -> Option<Side> {
        self.decider()
    }

    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        let _kept = self.reach_cache.listing();
        let mut all = Vec::new();
        self.candidates(&mut all);
        out.extend(self.checked(all).into_iter().map(Order::pack));
    }

    fn unit_actions(&self, unit: u32, out: &mut Vec<Action>) {
        out.clear();
        let mut mine = Vec::new();
        if (unit as usize) < self.units.len() {
            self.unit_candidates(unit as usize, &mut mine);
        }
        out.extend(mine.into_iter().map(Order::pack));
    }

    fn check(&self, action: Action) -> Result<(), Illegal> {
        let o = orders::of(action, self.units.len())?;
        self.check_order(o)
    }

    fn play_unchecked(&mut self, action: Action, dice: &mut dyn Dice, log: &mut Log) {
        let o = Order::unpack(action).expect("an action from the legal list");
        self.perform(o, dice, log);
    }

    /// Hits are turned into stand losses only at the end phase; the preview does it at once
    /// for the units the action touched, so that the odds show what the attack leaves.
    fn preview(&mut self, action: Action, dice: &mut dyn Dice) -> Result<Vec<Event>, Illegal> {
        let before: Vec<u32> = self.units.iter().map(|u| u.turn_hits).collect();
        let mut events = self.apply(action, dice)?;
        if matches!(Order::unpack(action), Some(Order::Charge { .. })) {
            self.answer_charge_for_preview(dice, &mut events);
        }
        for (k, u) in self.units.iter_mut().enumerate() {
            if u.turn_hits != before[k] && !u.ko {
                let lost = u.turn_hits / u.hits_per_stand;
                u.stands = u.stands.saturating_sub(lost);
            }
        }
        Ok(events)
    }

    fn odds_cases(&self, action: Action) -> Option<Vec<volley_core::odds::OddsCase>> {
        let o = Order::unpack(action)?;
        if o.actor()
            .is_some_and(|k| self.units.get(k).is_some_and(|u| u.actions == 0))
            && self.phase == Phase::Command
            && self.interrupt.is_none()
        {
            return self.own_order_cases(o);
        }
        match o {
            Order::Charge { .. } => self.charge_cases(o),
            _ => self.fire_cases(o),
        }
    }

    fn notation(&self, action: Action) -> String {
        match orders::of(action, self.units.len()) {
            Ok(o) => orders::write(o, &self.units),
            Err(e) => e.0,
        }
    }

    fn describe(&self, action: Action) -> ActionInfo {
        match orders::of(action, self.units.len()) {
            Ok(o) => orders::describe(o, &self.units),
            Err(_) => ActionInfo::new("?", ActionKind::Other),
        }
    }

    fn label(&self, action: Action, view: &View) -> String {
        match orders::of(action, self.units.len()) {
            Ok(o) => self.label_of(o, view),
            Err(e) => e.0,
        }
    }

    /// Orders that must pass a command roll roll dice, as attacks do.
    fn rolls(&self, action: Action) -> bool {
        match orders::of(action, self.units.len()) {
            Ok(o) => {
                self.rolls_command(o) || orders::describe(o, &self.units).kind == ActionKind::Attack
            }
            Err(_) => false,
        }
    }

    /// The command roll an order must pass, with its chance and every modifier, and who may
    /// take opportunity fire at the unit once it has moved or fired.
    fn notes(&self, action: Action) -> Vec<String> {
        let Ok(o) = orders::of(action, self.units.len()) else {
            return Vec::new();
        };
        let mut notes = Vec::new();
        if let Some((hq, cv)) = self.roll_before(o) {
            notes.push(crate::view::command_roll_words(&self.units[hq], &cv));
        }
        let who = self.opportunity_after(o);
        if !who.is_empty() {
            let names: Vec<String> = who
                .iter()
                .map(|&k| self.units[k].name.to_string())
                .collect();
            notes.push(format!(
                "Opportunity fire: {} may fire at it as it {} (Opportunity Fire).",
                names.join(", "),
                if matches!(o, Order::Fire { .. }) {
                    "fires"
                } else {
                    "moves"
                }
            ));
        }
        notes
    }

    fn parse_action(&self, text: &str) -> Result<Action, Illegal> {
        orders::read(text, &self.units).map(Order::pack)
    }

    fn turn(&self) -> u32 {
        self.turn
    }

    fn phasing(&self) -> Option<Side> {
        (!matches!(self.phase, Phase::Over | Phase::Setup)).then_some(self.active)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    /// The table is open: both players see every unit, as the book plays it ("there are no
    /// tests for visibility"); sight decides only what a unit may act against.
    fn view(&self, side: Option<Side>) -> View {
        self.view_with(side, true)
    }

    fn search_view(&self, side: Option<Side>) -> View {
        self.view_with(side, false)
    }

    fn clone_game(&self) -> Box<dyn Game> {
        Box::new(self.clone())
    }

    fn determinize(&self, side: Side, dice: &mut dyn Dice) -> Box<dyn Game> {
        Box::new(self.determinized(side, dice))
    }

    fn reach(&self, unit: &str) -> Vec<volley_core::Reach> {
        let Some(k) = self.units.iter().position(|u| &*u.id == unit) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut mine = Vec::new();
        self.unit_candidates(k, &mut mine);
        for o in mine {
            if let Order::Move { to, .. } = o {
                out.push(volley_core::Reach {
                    hex: label(to),
                    cost: volley_core::geometry::distance(self.units[k].hex, to),
                });
            }
        }
        out
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.invariants()
    }
}
