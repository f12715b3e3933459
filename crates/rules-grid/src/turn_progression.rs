//! The order of a turn (Turn Progression): a game-turn opens with a roll for who goes first; each
//! player-turn then moves, shoots, fights at close quarters and takes away the units done for.
//! The sequence of play over the chapters: it opens the battle (with the placement of units
//! when the players roll for it), carries out each order by the chapter whose rule it is,
//! ends phases — resolving the hits they hold and asking whether a side has lost its last
//! unit — and player-turns and game-turns, until the turn limit. A phase in which the side to
//! decide has nothing to do but end it ends by itself.

use crate::orders::Order;
use crate::rule;
use crate::state::{GridGame, Phase, TurnState};
use volley_core::{Dice, Event, Log};

impl GridGame {
    /// Opens the battle, once: the roll for first placement, or game-turn 1's initiative.
    pub fn begin_battle(&mut self, dice: &mut dyn Dice, log: &mut Log) {
        if self.started {
            return;
        }
        self.started = true;
        if self.setup.placement.is_some() {
            self.begin_placement(dice, log);
        } else {
            self.roll_initiative(dice, log);
            self.begin_player_turn(log);
        }
        self.advance_phases(dice, log);
    }

    /// Carries out an order already checked, then the phases that end by themselves, writing
    /// the events to `log`.
    pub fn perform(&mut self, order: Order, dice: &mut dyn Dice, log: &mut Log) {
        self.carry_out(order, dice, log);
        self.advance_phases(dice, log);
    }

    /// Carries out an order already checked, and nothing after it.
    fn carry_out(&mut self, order: Order, dice: &mut dyn Dice, log: &mut Log) {
        match order {
            Order::Move { unit, to } => self.do_move(unit, to, log),
            Order::Face { unit, heading } => self.do_face(unit, heading, log),
            Order::Withdraw { unit, to } if self.evade.is_some() => self.do_evade(unit, to, log),
            Order::Withdraw { unit, to } => self.do_withdraw(unit, to, log),
            Order::Stand { unit } => self.do_stand(unit, dice, log),
            Order::Attach { commander, unit } => self.do_attach(commander, unit, log),
            Order::Fire { unit, at } => self.do_fire(unit, at, dice, log),
            Order::Attack { unit, at } => self.do_attack(unit, at, dice, log),
            Order::Occupy { unit, to } => self.do_occupy(unit, to, log),
            Order::Place { unit, to } => self.do_place(unit, to, log),
            Order::End => self.end_phase(dice, log),
        }
    }

    /// An order for its odds (`Game::preview`): an attack's hits are resolved at once, with
    /// the defender's die for this attacker alone, as if no other hits were held on the target
    /// (those stay held); cavalry attacked by infantry is taken to stand, so the attack's
    /// dice are rolled; `end` settles the hits the phase holds. Phases that would end by
    /// themselves afterwards are not played, nor their dice rolled.
    pub fn preview_order(&mut self, order: Order, dice: &mut dyn Dice, log: &mut Log) {
        let held = self.scored.len();
        match order {
            Order::Attack { unit, at } => {
                let target = self
                    .enemy_at(at, self.units[unit].side)
                    .expect("checked: an enemy there");
                self.resolve_attack(unit, target, dice, log);
            }
            Order::End => match self.phase {
                Phase::Ranged | Phase::CloseCombat => self.remove_units(dice, log),
                Phase::Placement | Phase::Movement | Phase::Advance => {}
            },
            _ => self.carry_out(order, dice, log),
        }
        if self.scored.len() > held {
            let s = self.scored.pop().expect("one more held");
            self.resolve_target(s.target, &[(s.attacker, s.hits)], dice, log);
            self.check_wipeout(log);
        }
    }

    /// Phases advance by themselves when the only thing left to do is to end them. The
    /// position they stop at has its legal actions listed.
    fn advance_phases(&mut self, dice: &mut dyn Dice, log: &mut Log) {
        loop {
            let mut legal = std::mem::take(&mut self.legal);
            self.list_legal(&mut legal);
            self.legal = legal;
            let awaited = self.outcome.is_some()
                || self.evade.is_some()
                || self.facing_choice.is_some()
                || self.has_choice();
            if awaited {
                return;
            }
            self.end_phase(dice, log);
        }
    }

    /// Resolves the hits an attack phase holds and removes the units they destroy; a side
    /// with none left loses.
    fn remove_units(&mut self, dice: &mut dyn Dice, log: &mut Log) {
        self.resolve_hits(dice, log);
        self.check_wipeout(log);
    }

    fn end_phase(&mut self, dice: &mut dyn Dice, log: &mut Log) {
        match self.phase {
            Phase::Placement => {
                if self.end_placement(log) {
                    self.roll_initiative(dice, log);
                    self.begin_player_turn(log);
                }
                return;
            }
            Phase::Movement => {
                self.finish_move();
                self.phase = Phase::Ranged;
            }
            Phase::Ranged => {
                self.remove_units(dice, log);
                self.phase = Phase::CloseCombat;
            }
            Phase::CloseCombat => {
                self.remove_units(dice, log);
                self.find_advances();
                self.phase = Phase::Advance;
            }
            Phase::Advance => {
                self.advances.clear();
                self.end_player_turn(dice, log);
                return;
            }
        }
        if self.outcome.is_none() {
            log.add(|| self.phase_event());
        }
    }

    fn end_player_turn(&mut self, dice: &mut dyn Dice, log: &mut Log) {
        let side = self.phasing();
        // Engagement lasts until the end of the engaged side's own next player-turn.
        for u in self.units.iter_mut().filter(|u| u.side == side) {
            u.attacked_by.clear();
        }
        if self.player_turn == 0 {
            self.player_turn = 1;
        } else if self.turn >= self.setup.turn_limit {
            self.outcome = Some(self.final_outcome());
            log.add(|| self.outcome_event());
            return;
        } else {
            self.turn += 1;
            self.roll_initiative(dice, log);
        }
        self.begin_player_turn(log);
    }

    fn begin_player_turn(&mut self, log: &mut Log) {
        let side = self.phasing();
        for u in self.units.iter_mut().filter(|u| u.side == side) {
            u.turn = TurnState::default();
        }
        for c in self.commanders.iter_mut().filter(|c| c.side == side) {
            c.moved = false;
        }
        self.moved_units = 0;
        self.mover = None;
        self.phase = Phase::Movement;
        log.add(|| self.phase_event());
    }

    fn phase_event(&self) -> Event {
        Event::new(
            "phase",
            rule("Turn Progression"),
            format!("Game-turn {}: {}.", self.turn, self.phase_name()),
        )
        .side(self.phasing())
    }
}
