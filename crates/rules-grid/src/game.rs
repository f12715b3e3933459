//! The engine's `Game` API over the position: each call hands over to the turn progression,
//! the legal orders, the order codec or the view.

use crate::orders::{self, Order};
use crate::state::GridGame;
use crate::ID;
use volley_core::view::View;
use volley_core::{
    Action, ActionInfo, ActionKind, Dice, Event, Game, Illegal, Log, Outcome, Reach, Side,
};

impl Game for GridGame {
    fn ruleset(&self) -> &'static str {
        ID
    }

    fn start(&mut self, dice: &mut dyn Dice) -> Vec<Event> {
        let mut log = Log::new();
        self.begin_battle(dice, &mut log);
        log.into_events()
    }

    fn to_decide(&self) -> Option<Side> {
        self.decider()
    }

    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        out.extend_from_slice(&self.legal);
    }

    fn unit_actions(&self, unit: u32, out: &mut Vec<Action>) {
        self.unit_actions_into(unit as usize, out);
    }

    fn actors(&self) -> Vec<u32> {
        GridGame::actors(self)
    }

    fn describe(&self, action: Action) -> ActionInfo {
        match Order::of_action(action, self.grid()) {
            Some(order) => order.describe(self.grid()),
            None => ActionInfo::new("?", ActionKind::Other),
        }
    }

    fn check(&self, action: Action) -> Result<(), Illegal> {
        self.checked_order(action).map(|_| ())
    }

    fn play_unchecked(&mut self, action: Action, dice: &mut dyn Dice, log: &mut Log) {
        let order = Order::of_action(action, self.grid()).expect("an action from the legal list");
        self.perform(order, dice, log);
    }

    fn preview(&mut self, action: Action, dice: &mut dyn Dice) -> Result<Vec<Event>, Illegal> {
        let order = self.checked_order(action)?;
        let mut log = Log::new();
        self.preview_order(order, dice, &mut log);
        Ok(log.into_events())
    }

    fn notation(&self, action: Action) -> String {
        orders::notation(self, action)
    }

    fn parse_action(&self, text: &str) -> Result<Action, Illegal> {
        orders::read(self, text).map(volley_core::codec::Codec::pack)
    }

    fn turn(&self) -> u32 {
        self.turn
    }

    fn phasing(&self) -> Option<Side> {
        self.outcome.is_none().then(|| GridGame::phasing(self))
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    fn view(&self, side: Option<Side>) -> View {
        self.make_view(side)
    }

    fn clone_game(&self) -> Box<dyn Game> {
        Box::new(self.clone())
    }

    /// The tiles the unit can still move to this turn, one tile a step (Movement Rules 1).
    fn reach(&self, unit: &str) -> Vec<Reach> {
        self.reach_of(unit)
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.invariants()?;
        self.check_listing()
    }
}
