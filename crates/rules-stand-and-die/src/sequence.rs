//! The sequence of play. The text only says to roll for which side moves first; Volley's
//! reading (docs, interpretation 2): each turn the side that won the roll marches, then fires,
//! and its enemy's hexes fired on fall back; then the other side does the same; after the
//! last turn the game is scored. Here, too, which orders each phase allows (the legal list
//! and the refusals) and carrying an order out: the chapters do the work and return, and
//! what a volley leaves for later (falling back, the end of the battle) is acted on here.

use crate::marching;
use crate::musketry::{self, Volley};
use crate::orders::Order;
use crate::state::{Phase, StandAndDieGame};
use volley_core::codec::Codec;
use volley_core::{Action, Dice, Event, Illegal, Log, Side};

impl StandAndDieGame {
    /// The order an action packs, if it is one of this game's.
    pub fn order_of(&self, action: Action) -> Result<Order, Illegal> {
        Order::unpack(action)
            .filter(|o| o.unit().is_none_or(|i| i < self.units.len()))
            .ok_or_else(|| Illegal::new(format!("{action:?} is not a Stand and Die action")))
    }

    /// Why an order may not be given now, if it may not.
    pub fn check_order(&self, order: Order) -> Result<(), Illegal> {
        match self.phase {
            Phase::Setup => return Err(Illegal::new("the game has not started")),
            Phase::Over => return Err(Illegal::new("the game is over")),
            _ => {}
        }
        match order {
            Order::End => Ok(()),
            Order::Move { unit, to } => self.check_march(unit, to),
            Order::Face { unit, facing } => self.check_face(unit, facing),
            Order::Stand { hex } => self.check_marker(hex, true),
            Order::FallBack { hex } => self.check_marker(hex, false),
            Order::Fire { from, at } => self.check_fire(from, at),
        }
    }

    /// The orders the phasing side may give now, into `out`: every unit's steps and turns,
    /// then every hex's marker change or volleys, then `end`.
    pub fn legal_orders_into(&self, out: &mut Vec<Action>) {
        out.clear();
        let Some(side) = self.phasing() else {
            return;
        };
        let own = || (0..self.units.len()).filter(|&i| self.units[i].side == side);
        for unit in own() {
            self.steps_and_turns(unit, out);
        }
        for unit in own() {
            self.hex_orders(unit, out);
        }
        out.push(Order::End.pack());
    }

    /// The orders of one unit now, into `out`: its steps and turns, and those given to the
    /// hex it leads.
    pub fn unit_orders_into(&self, unit: usize, out: &mut Vec<Action>) {
        out.clear();
        if unit < self.units.len() && Some(self.units[unit].side) == self.phasing() {
            self.steps_and_turns(unit, out);
            self.hex_orders(unit, out);
        }
    }

    /// A unit's own orders now, in its side's march: its steps, then its turns.
    fn steps_and_turns(&self, unit: usize, out: &mut Vec<Action>) {
        let u = &self.units[unit];
        if !u.on_table() || self.phase != Phase::March(u.side) {
            return;
        }
        out.extend(
            self.march_steps(unit)
                .map(|to| Order::Move { unit, to }.pack()),
        );
        out.extend(
            self.turns(unit)
                .map(|facing| Order::Face { unit, facing }.pack()),
        );
    }

    /// The orders given to a unit's hex, when the unit leads it: the change of its Standing
    /// marker in the march, or its volleys in the musketry.
    fn hex_orders(&self, unit: usize, out: &mut Vec<Action>) {
        if !self.leads_its_hex(unit) {
            return;
        }
        let u = &self.units[unit];
        match self.phase {
            Phase::March(side) if side == u.side => {
                out.extend(self.marker_order(u.hex).map(Order::pack));
            }
            Phase::Musketry(side) if side == u.side => {
                out.extend(
                    self.targets(u.hex)
                        .map(|at| Order::Fire { from: u.hex, at }.pack()),
                );
            }
            _ => {}
        }
    }

    /// Carries out an order already checked, writing its events to `log`.
    pub fn perform(&mut self, order: Order, dice: &mut dyn Dice, log: &mut Log) {
        match order {
            Order::End => self.end_phase(dice, log),
            Order::Move { unit, to } => self.march(unit, to, log),
            Order::Face { unit, facing } => self.face(unit, facing, log),
            Order::Stand { hex } => self.set_marker(hex, true, log),
            Order::FallBack { hex } => self.set_marker(hex, false, log),
            Order::Fire { from, at } => {
                let volley = self.fire(from, at, dice, log);
                self.after_volley(volley, log);
            }
        }
    }

    /// What a volley leaves: a hex driven back is noted to fall back when the musketry ends,
    /// and a side with no troops left has lost.
    fn after_volley(&mut self, volley: Volley, log: &mut Log) {
        if volley.drives_back {
            self.note_fired_on(volley.at, volley.from);
        }
        self.check_annihilation(log);
    }

    /// `end`: the phasing side is done; the next phase (or turn) begins.
    fn end_phase(&mut self, dice: &mut dyn Dice, log: &mut Log) {
        match self.phase {
            Phase::March(side) => {
                self.phase = Phase::Musketry(side);
                self.fired_from.clear();
                self.fired_on.clear();
                log.add(|| {
                    Event::new(
                        "phase",
                        musketry::RULE,
                        format!("{} musketry", self.side_name(side)),
                    )
                    .side(side)
                });
            }
            Phase::Musketry(side) => {
                self.fall_back(side.other(), log);
                if side == self.first {
                    self.begin_march(side.other(), log);
                } else if self.turn >= self.setting.turn_limit {
                    self.end_at_turn_limit(log);
                } else {
                    self.turn += 1;
                    self.begin_turn(dice, log);
                }
            }
            Phase::Setup | Phase::Over => {}
        }
    }

    /// A turn opens with the roll for who marches first.
    pub fn begin_turn(&mut self, dice: &mut dyn Dice, log: &mut Log) {
        self.first = marching::roll_initiative(dice, self.turn, log);
        self.begin_march(self.first, log);
    }

    fn begin_march(&mut self, side: Side, log: &mut Log) {
        self.phase = Phase::March(side);
        self.marks_changed.clear();
        for u in self.units.iter_mut() {
            u.marched = 0;
            u.turned = false;
        }
        log.add(|| {
            Event::new(
                "phase",
                marching::RULE,
                format!("turn {}: {} march", self.turn, self.side_name(side)),
            )
            .side(side)
        });
    }

    /// An order carried out as `Game::preview` shows it: a volley's falling back, which
    /// waits for the end of the musketry, is made at once for the hex fired on, so that its
    /// odds weigh it.
    pub fn preview_order(&mut self, order: Order, dice: &mut dyn Dice, log: &mut Log) {
        self.perform(order, dice, log);
        if let (Order::Fire { at, .. }, Phase::Musketry(side)) = (order, self.phase) {
            if let Some(fired) = self.fired_on.iter().find(|f| f.hex == at).cloned() {
                self.give_ground(&fired, side.other(), log);
            }
        }
    }
}
