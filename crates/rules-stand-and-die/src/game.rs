//! The `Game` API over the position: each method hands over to the sequence of play
//! (`sequence.rs`), a chapter, or the view (`view.rs`).

use crate::orders::Order;
use crate::state::{Phase, StandAndDieGame};
use volley_core::codec::Codec;
use volley_core::{
    Action, ActionInfo, ActionKind, Dice, Event, Game, Illegal, Log, Outcome, Reach, Side, View,
};

impl Game for StandAndDieGame {
    fn ruleset(&self) -> &'static str {
        crate::ID
    }

    fn start(&mut self, dice: &mut dyn Dice) -> Vec<Event> {
        let mut log = Log::new();
        if self.phase == Phase::Setup {
            self.begin_turn(dice, &mut log);
        }
        log.into_events()
    }

    fn to_decide(&self) -> Option<Side> {
        self.phasing()
    }

    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        self.legal_orders_into(out);
    }

    fn unit_actions(&self, unit: u32, out: &mut Vec<Action>) {
        self.unit_orders_into(unit as usize, out);
    }

    fn actors(&self) -> Vec<u32> {
        let mut orders = Vec::new();
        (0..self.units.len() as u32)
            .filter(|&unit| {
                self.unit_actions(unit, &mut orders);
                !orders.is_empty()
            })
            .collect()
    }

    fn describe(&self, action: Action) -> ActionInfo {
        match self.order_of(action) {
            Ok(order) => self.describe_order(order),
            Err(_) => ActionInfo::new("?", ActionKind::Other),
        }
    }

    fn check(&self, action: Action) -> Result<(), Illegal> {
        let order = self.order_of(action)?;
        self.check_order(order)
    }

    fn play_unchecked(&mut self, action: Action, dice: &mut dyn Dice, log: &mut Log) {
        let order = Order::unpack(action).expect("an action from the legal list");
        self.perform(order, dice, log);
    }

    /// Fire's casualties are taken at once; the fall back it causes waits for the end of the
    /// musketry, and is made here at once for the hex fired on.
    fn preview(&mut self, action: Action, dice: &mut dyn Dice) -> Result<Vec<Event>, Illegal> {
        let order = self.order_of(action)?;
        self.check_order(order)?;
        let mut log = Log::new();
        self.preview_order(order, dice, &mut log);
        Ok(log.into_events())
    }

    fn notation(&self, action: Action) -> String {
        match self.order_of(action) {
            Ok(order) => order.write(&self.units),
            Err(e) => e.0,
        }
    }

    fn parse_action(&self, text: &str) -> Result<Action, Illegal> {
        Order::read(text, &self.units).map(Order::pack)
    }

    fn turn(&self) -> u32 {
        self.turn
    }

    fn phasing(&self) -> Option<Side> {
        Self::phasing(self)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    fn view(&self, side: Option<Side>) -> View {
        self.view_for(side)
    }

    fn clone_game(&self) -> Box<dyn Game> {
        Box::new(self.clone())
    }

    /// The hexes the unit can still march to this turn, a hex of march each.
    fn reach(&self, unit: &str) -> Vec<Reach> {
        match self.units.iter().position(|u| u.id == unit) {
            Some(i) => self.march_reach(i),
            None => Vec::new(),
        }
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.check_position()
    }
}
