//! The engine's `Game` over a Mechanized game: each call handed to the sequence of play
//! ([`crate::sequence`]), the listing ([`crate::listing`]), the notation
//! ([`crate::orders`]), the view or the chapters.

use crate::orders::Order;
use crate::state::MechGame;
use crate::ID;
use std::ops::ControlFlow;
use volley_core::codec::Codec;
use volley_core::{Action, ActionInfo, Dice, Event, Game, Illegal, Log, Outcome, Reach, Side};

impl Game for MechGame {
    fn notation(&self, action: Action) -> String {
        self.notation_of(action)
    }

    fn parse_action(&self, text: &str) -> Result<Action, Illegal> {
        self.parse_order(text)
    }

    fn reach(&self, unit: &str) -> Vec<Reach> {
        self.reach_of(unit)
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.position_invariants()?;
        // A list kept from an earlier listing must be the position's own (it is dropped at
        // every change).
        if let Some(kept) = self.legal.get() {
            let mut legal = Vec::new();
            self.list_legal(&mut legal);
            if &legal != kept {
                return Err("the legal actions kept are not those of the position".into());
            }
        }
        Ok(())
    }

    fn ruleset(&self) -> &'static str {
        ID
    }

    fn start(&mut self, dice: &mut dyn Dice) -> Vec<Event> {
        let mut log = Log::new();
        if !self.started {
            self.started = true;
            self.roll_initiative(dice, &mut log);
            self.begin_player_turn(dice, &mut log);
            self.advance(dice, &mut log);
        }
        log.into_events()
    }

    fn to_decide(&self) -> Option<Side> {
        (self.started && self.outcome.is_none()).then(|| self.deciding())
    }

    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        out.extend_from_slice(self.legal());
    }

    fn unit_actions(&self, unit: u32, out: &mut Vec<Action>) {
        out.clear();
        if self.started && self.outcome.is_none() {
            let _ = self.item_orders(unit as usize, &mut |o| {
                out.push(o.pack());
                ControlFlow::Continue(())
            });
        }
    }

    fn check(&self, action: Action) -> Result<(), Illegal> {
        self.checked(action).map(|_| ())
    }

    fn play_unchecked(&mut self, action: Action, dice: &mut dyn Dice, log: &mut Log) {
        let order = Order::unpack(action).expect("an action from the legal list");
        self.perform(order, dice, log);
    }

    fn preview(&mut self, action: Action, dice: &mut dyn Dice) -> Result<Vec<Event>, Illegal> {
        // Every roll of an order is made when it is carried out, so the order itself is its
        // preview; the steps that would end by themselves afterwards are not played.
        let order = self.checked(action)?;
        let mut log = Log::new();
        if order != Order::End {
            self.carry_out(order, dice, &mut log);
            // A melee whose defender may step back is weighed as if it stands (it may still
            // step back), so the odds say what the melee does if it is fought.
            if self.answer.is_some() {
                self.do_stand(dice, &mut log);
            }
        }
        // The position changed: no list of its legal actions is kept from before.
        self.refresh_legal();
        Ok(log.into_events())
    }

    fn describe(&self, action: Action) -> ActionInfo {
        match Order::unpack(action) {
            Some(o) => self.describe_order(o),
            None => ActionInfo::new("?", volley_core::ActionKind::Other),
        }
    }

    fn turn(&self) -> u32 {
        self.s.turn
    }

    fn phasing(&self) -> Option<Side> {
        self.outcome.is_none().then(|| MechGame::phasing(self))
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    fn view(&self, side: Option<Side>) -> volley_core::view::View {
        self.make_view(side)
    }

    fn clone_game(&self) -> Box<dyn Game> {
        Box::new(self.clone())
    }

    fn determinize(&self, side: Side, dice: &mut dyn Dice) -> Box<dyn Game> {
        Box::new(self.as_known_by(side, dice))
    }
}
