//! The engine's `Game` over a Mechanized game: the position ([`State`]) with the list of its
//! legal actions kept once listed, and each call handed to the sequence of play
//! ([`crate::sequence`]), the listing ([`crate::listing`]), the notation
//! ([`crate::orders`]), the view or the chapters.

use crate::hidden;
use crate::legal;
use crate::listing;
use crate::melee;
use crate::orders;
use crate::orders::Order;
use crate::sequence;
use crate::state::State;
use crate::view;
use crate::ID;
use std::ops::ControlFlow;
use volley_core::codec::Codec;
use volley_core::{Action, ActionInfo, Dice, Event, Game, Illegal, Log, Outcome, Reach, Side};

#[derive(Clone, Debug)]
pub struct MechGame {
    /// The position.
    pub s: State,
    /// The legal actions of the position, listed when first asked for: a position the
    /// search only scores is never listed.
    pub(crate) legal: std::sync::OnceLock<Vec<Action>>,
}

impl MechGame {
    pub fn new(s: State) -> MechGame {
        MechGame {
            s,
            legal: std::sync::OnceLock::new(),
        }
    }

    /// Whether the legal actions of the position are listed (they are listed when first
    /// asked for).
    pub fn is_listed(&self) -> bool {
        self.legal.get().is_some()
    }

    /// Forgets the legal actions listed: they are listed again, for the position as it
    /// stands, when next asked for.
    pub fn refresh_legal(&mut self) {
        self.legal = std::sync::OnceLock::new();
    }

    /// The legal actions of the position, listed once.
    pub(crate) fn legal(&self) -> &[Action] {
        self.legal.get_or_init(|| {
            let mut out = Vec::new();
            listing::list_legal(&self.s, &mut out);
            out
        })
    }
}

impl Game for MechGame {
    fn notation(&self, action: Action) -> String {
        orders::notation_of(&self.s, action)
    }

    fn parse_action(&self, text: &str) -> Result<Action, Illegal> {
        orders::parse_order(&self.s, text)
    }

    fn reach(&self, unit: &str) -> Vec<Reach> {
        listing::reach_of(&self.s, unit)
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.s.position_invariants()?;
        // A list kept from an earlier listing must be the position's own (it is dropped at
        // every change).
        if let Some(kept) = self.legal.get() {
            let mut legal = Vec::new();
            listing::list_legal(&self.s, &mut legal);
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
        if !self.s.started {
            self.s.started = true;
            sequence::roll_initiative(&mut self.s, dice, &mut log);
            sequence::begin_player_turn(&mut self.s, dice, &mut log);
            sequence::advance(&mut self.s, dice, &mut log);
            self.refresh_legal();
        }
        log.into_events()
    }

    fn to_decide(&self) -> Option<Side> {
        self.s.to_decide()
    }

    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        out.extend_from_slice(self.legal());
    }

    fn unit_actions(&self, unit: u32, out: &mut Vec<Action>) {
        out.clear();
        if self.s.started && self.s.outcome.is_none() {
            let _ = listing::item_orders(&self.s, unit as usize, &mut |o| {
                out.push(o.pack());
                ControlFlow::Continue(())
            });
        }
    }

    fn check(&self, action: Action) -> Result<(), Illegal> {
        legal::checked(&self.s, action).map(|_| ())
    }

    fn play_unchecked(&mut self, action: Action, dice: &mut dyn Dice, log: &mut Log) {
        let order = Order::unpack(action).expect("an action from the legal list");
        sequence::perform(&mut self.s, order, dice, log);
        // The position changed: no list of its legal actions is kept from before.
        self.refresh_legal();
    }

    fn preview(&mut self, action: Action, dice: &mut dyn Dice) -> Result<Vec<Event>, Illegal> {
        // Every roll of an order is made when it is carried out, so the order itself is its
        // preview; the steps that would end by themselves afterwards are not played.
        let order = legal::checked(&self.s, action)?;
        let mut log = Log::new();
        if order != Order::End {
            sequence::carry_out(&mut self.s, order, dice, &mut log);
            // A melee whose defender may step back is weighed as if it stands (it may still
            // step back), so the odds say what the melee does if it is fought.
            if self.s.answer.is_some() {
                melee::do_stand(&mut self.s, dice, &mut log);
            }
        }
        // The position changed: no list of its legal actions is kept from before.
        self.refresh_legal();
        Ok(log.into_events())
    }

    fn describe(&self, action: Action) -> ActionInfo {
        match Order::unpack(action) {
            Some(o) => orders::describe_order(&self.s, o),
            None => ActionInfo::new("?", volley_core::ActionKind::Other),
        }
    }

    fn turn(&self) -> u32 {
        self.s.turn
    }

    fn phasing(&self) -> Option<Side> {
        self.s.outcome.is_none().then(|| self.s.phasing())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.s.outcome.clone()
    }

    fn view(&self, side: Option<Side>) -> volley_core::view::View {
        view::make_view(&self.s, side)
    }

    fn clone_game(&self) -> Box<dyn Game> {
        Box::new(self.clone())
    }

    fn determinize(&self, side: Side, dice: &mut dyn Dice) -> Box<dyn Game> {
        Box::new(MechGame::new(hidden::as_known_by(&self.s, side, dice)))
    }
}
