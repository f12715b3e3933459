//! SEQUENCE OF PLAY: the player turn's phases and the decisions put to a side in the middle of
//! the active player's turn. The phase (or the decision) says which chapter lists, checks and
//! carries out an order: [`crate::initiative`], [`crate::command`], [`crate::charge`] (answers,
//! supports, consolidation), [`crate::firing`] (opportunity fire); the phases follow each other
//! in [`crate::end`].

use crate::orders::{self, Order};
use crate::state::{BptGame, Interrupt, Phase};
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

    /// Why an order may not be given now, if it may not.
    pub fn check_order<R: Refusal>(&self, o: Order) -> Result<(), R> {
        if matches!(self.phase, Phase::Setup | Phase::Over) {
            return Err(R::because(|| "the game is not in play"));
        }
        let side = self.decider().expect("in play");
        if let Some(k) = o.actor() {
            let u = &self.units[k];
            if u.side != side {
                return Err(R::because(|| {
                    format!("{} is not {}'s", u.label(), side.name())
                }));
            }
            if u.ko {
                return Err(R::because(|| format!("{} is knocked out", u.label())));
            }
            if u.traits.scout
                && matches!(
                    o,
                    Order::Fire { .. } | Order::Charge { .. } | Order::CounterCharge { .. }
                )
            {
                return Err(R::because(|| {
                    format!(
                        "{} are scouting cavalry: they look, they do not fight",
                        u.label()
                    )
                }));
            }
        }
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
                Phase::Command => self.perform_command(o, dice, log),
                Phase::HqMoves => self.perform_hq_move(o, dice, log),
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
