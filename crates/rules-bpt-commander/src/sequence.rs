//! SEQUENCE OF PLAY: the player turn's phases and the decisions put to a side in the middle of
//! the active player's turn. The phase (or the decision) says which chapter lists, checks and
//! carries out an order: [`crate::initiative`], [`crate::command`], [`crate::charge`] (answers,
//! supports, consolidation), [`crate::firing`] (opportunity fire). The phases follow each other
//! here: a player turn begins (replacement command units, the breakpoint roll, the initiative
//! phase), a phase's last order says the end phase comes ([`Then`]), and after the end phase
//! ([`crate::end`]) the battle ends or the next player turn begins. The chapters never call
//! back up here.

use crate::orders::{self, Order};
use crate::state::{rule, BptGame, Interrupt, Phase, Then};
use volley_core::game::Refusal;
use volley_core::{Dice, Event, Log};

impl BptGame {
    /// Before the first turn: what each side's scouts see of a hidden set-up, the weather
    /// roll, then the first player turn.
    pub(crate) fn begin_battle(&mut self, dice: &mut dyn Dice, log: &mut Log) {
        self.spot(log);
        self.weather = crate::weather::roll_opening(self.table().weather, self.weather, dice, log);
        self.begin_player_turn(dice, log);
    }

    /// The start of the active player's turn.
    pub(crate) fn begin_player_turn(&mut self, dice: &mut dyn Dice, log: &mut Log) {
        let side = self.active;
        let first = side == self.setting.first;
        let turn = self.turn;
        log.add(|| {
            let e = Event::new(
                "phase",
                rule("Sequence of Play"),
                format!("turn {turn}: {}'s player turn", self.side_name(side)),
            )
            .side(side);
            if first {
                e.opens_turn()
            } else {
                e
            }
        });
        for u in self.units.iter_mut() {
            u.supported = false;
            if u.side == side {
                u.initiative_used = false;
                u.orders = 0;
                u.ordered_by = None;
                u.closed = false;
                u.tried = false;
                u.actions = 0;
                u.wheeled = false;
                u.hq_moved = false;
                u.fresh = false;
                u.declared_charge = false;
                u.declared_dense = false;
                u.self_move = false;
            }
        }
        self.current_hq = None;
        self.finished.clear();
        self.co_failed = false;
        self.joined.clear();
        self.order_units.clear();
        self.interrupt = None;
        self.charge = None;
        self.replace_command_units(log);
        if self.broken == Some(side) {
            return;
        }
        if self.breakpoint_roll(dice, log) {
            if side == self.setting.first {
                // The other player still plays its turn of this game turn.
                self.active = side.other();
                self.begin_player_turn(dice, log);
            } else {
                self.finish(format!("{} broke and withdrew", self.side_name(side)), log);
            }
            return;
        }
        self.phase = Phase::Initiative;
        if !self.anyone_has_initiative() {
            self.end_initiative(log);
        }
    }

    /// The player turn's orders and command movement are over: the end phase, then what
    /// comes after it.
    fn end_player_turn(&mut self, dice: &mut dyn Dice, log: &mut Log) {
        self.end_phase(log);
        self.next_player_turn(dice, log);
    }

    /// After the end phase: the battle may be over (a side gone, a Command broken, a major
    /// objective reached at the end of a game turn, the turn limit); else the other player's
    /// turn comes, or the next game turn (after the weather's turn-end roll).
    fn next_player_turn(&mut self, dice: &mut dyn Dice, log: &mut Log) {
        self.check_end_of_battle(log);
        if self.outcome.is_some() {
            return;
        }
        if self.broken.is_some() {
            let b = self.broken.expect("broken");
            self.finish(format!("{} broke and withdrew", self.side_name(b)), log);
            return;
        }
        if self.active == self.setting.first {
            self.active = self.active.other();
        } else {
            // The game turn is over: a major objective reached ends the battle, as does the
            // turn limit.
            if let Some(side) = self.major_reached() {
                self.finish(
                    format!("{} reached a major objective", self.side_name(side)),
                    log,
                );
                return;
            }
            if self.turn >= self.setting.turn_limit {
                self.finish(
                    format!("the {} turns are played", self.setting.turn_limit),
                    log,
                );
                return;
            }
            self.weather = crate::weather::change(self.table().weather, self.weather, dice, log);
            self.turn += 1;
            self.active = self.setting.first;
        }
        self.begin_player_turn(dice, log);
    }

    /// Why an order may not be given now, if it may not.
    pub fn check_order<R: Refusal>(&self, o: Order) -> Result<(), R> {
        if matches!(self.phase, Phase::Setup | Phase::Over) {
            return Err(R::because(|| "the game is not in play"));
        }
        self.may_act(o)?;
        match self.interrupt {
            Some(Interrupt::Response) => self.check_response(o),
            Some(Interrupt::Support(_)) => self.check_support(o),
            Some(Interrupt::Consolidate(_)) => self.check_consolidate(o),
            Some(Interrupt::Opportunity { target }) => self.check_opportunity(o, target),
            None => match self.phase {
                Phase::Initiative => self.check_initiative(o),
                Phase::Command => self.check_command(o),
                Phase::HqMoves => self.check_hq_move(o),
                Phase::Setup | Phase::Over => unreachable!(),
            },
        }
    }

    /// Carries out an order already checked.
    pub(crate) fn perform(&mut self, o: Order, dice: &mut dyn Dice, log: &mut Log) {
        let before = self.before_action(&o.units(), log);
        self.perform_order(o, dice, log);
        self.after_action(before, log);
    }

    fn perform_order(&mut self, o: Order, dice: &mut dyn Dice, log: &mut Log) {
        match self.interrupt {
            Some(Interrupt::Response) => self.perform_response(o, dice, log),
            Some(Interrupt::Support(_)) => self.perform_support(o, dice, log),
            Some(Interrupt::Consolidate(side)) => self.perform_consolidate(side, o, log),
            Some(Interrupt::Opportunity { target }) => {
                self.perform_opportunity(o, target, dice, log)
            }
            None => match self.phase {
                Phase::Initiative => self.perform_initiative(o, dice, log),
                Phase::Command => {
                    if self.perform_command(o, dice, log) == Then::EndPhase {
                        self.end_player_turn(dice, log);
                    }
                }
                Phase::HqMoves => {
                    if self.perform_hq_move(o, log) == Then::EndPhase {
                        self.end_player_turn(dice, log);
                    }
                }
                Phase::Setup | Phase::Over => {}
            },
        }
    }

    /// Candidate orders now (each is checked before it is listed).
    pub(crate) fn candidates(&self, out: &mut Vec<Order>) {
        match self.interrupt {
            Some(Interrupt::Response) => self.response_candidates(out),
            Some(Interrupt::Support(side)) => self.support_candidates(side, out),
            Some(Interrupt::Consolidate(side)) => self.consolidate_candidates(side, out),
            Some(Interrupt::Opportunity { target }) => self.opportunity_candidates(target, out),
            None => match self.phase {
                Phase::Initiative => self.initiative_candidates(out),
                Phase::Command => self.command_candidates(out),
                Phase::HqMoves => self.hq_move_candidates(out),
                Phase::Setup | Phase::Over => return,
            },
        }
        out.push(Order::End);
    }

    pub(crate) fn unit_candidates(&self, unit: usize, out: &mut Vec<Order>) {
        let _kept = self.reach_cache.listing();
        let mut all = Vec::new();
        self.candidates(&mut all);
        all.retain(|o| orders::describe(*o, &self.units).unit == Some(unit as u32));
        out.extend(self.checked(all));
    }

    /// The candidates that pass their check, in order and without repeats (a listing's
    /// hundreds of orders are hashed with a fast hasher: the default one was a tenth of the
    /// bots' time here).
    pub(crate) fn checked(&self, all: Vec<Order>) -> Vec<Order> {
        let mut seen = std::collections::HashSet::with_capacity_and_hasher(
            all.len(),
            foldhash::fast::FixedState::default(),
        );
        all.into_iter()
            .filter(|&o| seen.insert(o) && self.check_order::<()>(o).is_ok())
            .collect()
    }

    /// A charge waits for the charged side's answer and the supports: a preview takes none of
    /// them (cavalry that must answer counter-charges), fights it out at once, and leaves the
    /// winners where they stand.
    pub fn answer_charge_for_preview(&mut self, dice: &mut dyn Dice, events: &mut Vec<Event>) {
        while (self.charge.is_some()
            && matches!(
                self.interrupt,
                Some(Interrupt::Response | Interrupt::Support(_))
            ))
            || matches!(self.interrupt, Some(Interrupt::Consolidate(_)))
        {
            let mut log = Log::new();
            match self.interrupt {
                Some(Interrupt::Response) if self.check_order::<()>(Order::End).is_err() => {
                    let t = self.charge.as_ref().map(|c| c.target).expect("charge");
                    self.perform(Order::CounterCharge { unit: t }, dice, &mut log);
                }
                _ => self.perform(Order::End, dice, &mut log),
            }
            events.extend(log.into_events());
        }
    }
}
