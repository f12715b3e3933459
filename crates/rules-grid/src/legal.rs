//! The legal orders of a position: one order checked against the chapter whose rule it is
//! ([`GridGame::check_order`]), every order the side to decide may give listed in a fixed
//! order ([`GridGame::each_order`]), and the tiles a unit can reach by legal steps. Above the
//! chapters: it asks each chapter's checks and never changes the position it lists.

use crate::orders::Order;
use crate::state::{EngagedUnits, GridGame, Phase};
use std::ops::ControlFlow;
use volley_core::codec::Codec;
use volley_core::game::Refusal;
use volley_core::{reach_by_steps, Action, Illegal, Log, Reach};

/// Where a listing of legal orders sends each one; `Break` ends the listing early, for a
/// caller that only asks whether there is one.
pub trait Take: FnMut(Order) -> ControlFlow<()> {}

impl<F: FnMut(Order) -> ControlFlow<()>> Take for F {}

impl GridGame {
    /// Offers `take` each legal order of the side to decide: every unit's own orders, then
    /// the commanders' rides, the occupations of vacated tiles, and `end`.
    fn each_order(&self, take: &mut impl Take) -> ControlFlow<()> {
        for unit in 0..self.units.len() {
            self.unit_orders(unit, take)?;
        }
        for commander in 0..self.commanders.len() {
            self.rides(commander, 0..self.units.len(), take)?;
        }
        for &(unit, to) in &self.advances {
            self.offer(Order::Occupy { unit, to }, take)?;
        }
        self.offer(Order::End, take)
    }

    /// Offers `take` each legal order `describe` puts down to one unit, in the order of the
    /// full listing: its own orders, the commanders' rides to it, its occupation of a tile.
    fn orders_of(&self, unit: usize, take: &mut impl Take) -> ControlFlow<()> {
        self.unit_orders(unit, take)?;
        for commander in 0..self.commanders.len() {
            self.rides(commander, [unit], take)?;
        }
        for &(_, to) in self.advances.iter().filter(|(u, _)| *u == unit) {
            self.offer(Order::Occupy { unit, to }, take)?;
        }
        ControlFlow::Continue(())
    }

    /// Offers `take` the legal orders a unit gives itself: the cavalry's answer to an attack
    /// it may evade; else, by phase, its steps, withdrawals and facings, its ranged attacks or
    /// its close combat attacks. Only what it might do is asked about, each by its check.
    fn unit_orders(&self, unit: usize, take: &mut impl Take) -> ControlFlow<()> {
        let u = &self.units[unit];
        if !u.alive() || Some(u.side) != self.decider() {
            return ControlFlow::Continue(());
        }
        if let Some((_, cavalry)) = self.evade {
            if unit == cavalry {
                self.offer(Order::Stand { unit }, take)?;
                for b in self.beside(u.tile) {
                    self.offer(Order::Withdraw { unit, to: b.tile }, take)?;
                }
            }
            return ControlFlow::Continue(());
        }
        // What lets the unit act at all is asked once; then each tile, side or enemy.
        match self.phase {
            Phase::Placement => {
                let placed = self.placing.as_ref().is_some_and(|p| p.placed[unit]);
                if !placed && u.side == self.phasing() {
                    for to in self.all_tiles() {
                        if self.check_place::<()>(unit, to).is_ok() {
                            take(Order::Place { unit, to })?;
                        }
                    }
                }
            }
            Phase::Movement => {
                // A unit that met more than one enemy may only turn to one of them; any other
                // must be free to move before it steps, withdraws or turns.
                if self.facing_choice != Some(unit) {
                    if self.check_may_move::<()>(unit).is_err() {
                        return ControlFlow::Continue(());
                    }
                    // Units held in close combat before they move may withdraw; the rest step
                    // (check_may_withdraw, check_may_step).
                    let held = self.setup.engaged_units == EngagedUnits::Held
                        && !u.turn.moving
                        && self.is_engaged(unit);
                    let here = self.around(u.tile);
                    for next in &here.beside {
                        if held && self.check_fall_back::<()>(unit, next.tile).is_ok() {
                            take(Order::Withdraw {
                                unit,
                                to: next.tile,
                            })?;
                        }
                        if !held && self.check_step_across::<()>(unit, here, next).is_ok() {
                            take(Order::Move {
                                unit,
                                to: next.tile,
                            })?;
                        }
                    }
                }
                for heading in self.turns(unit) {
                    take(Order::Face { unit, heading })?;
                }
            }
            Phase::Ranged => {
                if self.check_may_fire::<()>(unit).is_ok() {
                    for e in self.units.iter().filter(|e| e.alive() && e.side != u.side) {
                        if self.check_target::<()>(unit, e.tile).is_ok() {
                            take(Order::Fire { unit, at: e.tile })?;
                        }
                    }
                }
            }
            Phase::CloseCombat => {
                if self.check_may_attack::<()>(unit).is_ok() {
                    for (_, e) in self.enemies_beside(u.tile, u.side) {
                        let at = self.units[e].tile;
                        if self.check_attack_at::<()>(unit, at).is_ok() {
                            take(Order::Attack { unit, at })?;
                        }
                    }
                }
            }
            Phase::Advance => {}
        }
        ControlFlow::Continue(())
    }

    /// Whether the phasing side is the one to decide: the game is under way and no enemy is
    /// answering an attack (what `check` asks of every order but the answer).
    fn phasing_decides(&self) -> bool {
        self.started
            && self.outcome.is_none()
            && self.evade.is_none()
            && self.phase != Phase::Placement
    }

    /// Offers `take` a commander's rides to those of `units` the rules allow it to ride to.
    fn rides(
        &self,
        commander: usize,
        units: impl IntoIterator<Item = usize>,
        take: &mut impl Take,
    ) -> ControlFlow<()> {
        if !self.phasing_decides() || self.check_may_ride::<()>(commander).is_err() {
            return ControlFlow::Continue(());
        }
        for unit in units {
            if self.check_ride_to::<()>(commander, unit).is_ok() {
                take(Order::Attach { commander, unit })?;
            }
        }
        ControlFlow::Continue(())
    }

    /// Offers `take` an order if the rules allow it.
    fn offer(&self, order: Order, take: &mut impl Take) -> ControlFlow<()> {
        match self.check_order::<()>(order) {
            Ok(()) => take(order),
            Err(()) => ControlFlow::Continue(()),
        }
    }

    /// Checks an order against the rules; `Err` says which rule refuses it.
    pub fn check_order<R: Refusal>(&self, order: Order) -> Result<(), R> {
        if !self.started {
            return Err(R::because(|| "the game has not started"));
        }
        if let Some(o) = &self.outcome {
            return Err(R::because(|| format!("the game is over: {}", o.reason)));
        }
        if let Some((a, d)) = self.evade {
            if !matches!(order, Order::Stand { .. } | Order::Withdraw { .. }) {
                return Err(R::because(|| {
                    format!(
                        "{} must first choose to withdraw from {}'s attack or stand (Close Combat 4)",
                        self.units[d].id, self.units[a].id
                    )
                }));
            }
        }
        if self.phase == Phase::Placement && !matches!(order, Order::Place { .. } | Order::End) {
            return Err(R::because(|| {
                format!(
                    "the units are being placed (Game Setup); it is the {}",
                    self.phase_name()
                )
            }));
        }
        match order {
            Order::Place { unit, to } => self.check_place(unit, to),
            Order::Move { unit, to } => self.check_move(unit, to),
            Order::Face { unit, heading } => self.check_face(unit, heading),
            Order::Withdraw { unit, to } if self.evade.is_some() => self.check_evade(unit, to),
            Order::Withdraw { unit, to } => self.check_withdraw(unit, to),
            Order::Stand { unit } => self.check_stand(unit),
            Order::Attach { commander, unit } => self.check_attach(commander, unit),
            Order::Fire { unit, at } => self.check_fire(unit, at),
            Order::Attack { unit, at } => self.check_attack(unit, at),
            Order::Occupy { unit, to } => self.check_occupy(unit, to),
            Order::End => self.check_end(),
        }
    }

    /// Whether the phase may end now: not while a unit must still choose an enemy to face or
    /// stands in a friend's tile, nor while an attack owed for moving into contact is unmade.
    fn check_end<R: Refusal>(&self) -> Result<(), R> {
        match self.phase {
            Phase::Movement => self.check_movement_may_end(),
            Phase::CloseCombat => self.check_close_combat_may_end(),
            Phase::Placement | Phase::Ranged | Phase::Advance => Ok(()),
        }
    }

    /// The order an action packs, checked against the rules.
    pub fn checked_order(&self, action: Action) -> Result<Order, Illegal> {
        let order = Order::of_action(action, self.grid())
            .ok_or_else(|| Illegal::new("not an order of this game"))?;
        self.check_order::<Illegal>(order)?;
        Ok(order)
    }

    /// Every legal action now, written into `out` (cleared first).
    pub fn list_legal(&self, out: &mut Vec<Action>) {
        out.clear();
        let listing = self.each_order(&mut |o| {
            out.push(o.pack());
            ControlFlow::Continue(())
        });
        debug_assert!(listing.is_continue(), "nothing ends a full listing early");
    }

    /// Whether the side to decide has anything to do but end the phase.
    pub fn has_choice(&self) -> bool {
        let end = Order::End.pack();
        self.legal.iter().any(|&a| a != end)
    }

    /// The legal actions of one unit: those `describe` puts down to it.
    pub fn unit_actions_into(&self, unit: usize, out: &mut Vec<Action>) {
        out.clear();
        if unit < self.units.len() {
            let listing = self.orders_of(unit, &mut |o| {
                out.push(o.pack());
                ControlFlow::Continue(())
            });
            debug_assert!(listing.is_continue(), "nothing ends a full listing early");
        }
    }

    /// The units with a legal order of their own.
    pub fn actors(&self) -> Vec<u32> {
        (0..self.units.len())
            .filter(|&unit| {
                self.orders_of(unit, &mut |_| ControlFlow::Break(()))
                    .is_break()
            })
            .map(|unit| unit as u32)
            .collect()
    }

    /// The tiles the unit can still move to this turn, one tile a step (Movement Rules 1).
    pub fn reach_of(&self, unit: &str) -> Vec<Reach> {
        let Some(i) = self.unit_index(unit) else {
            return Vec::new();
        };
        if self.decider() != Some(self.units[i].side) {
            return Vec::new();
        }
        // The copies stand for positions one step on, and are asked only about further steps
        // (nothing lists their legal actions, so no phase is ended on them).
        reach_by_steps(self.clone(), self.units[i].tile, |g: &GridGame| {
            g.beside(g.units[i].tile)
                .iter()
                .map(|b| b.tile)
                .filter(|&to| g.check_order::<()>(Order::Move { unit: i, to }).is_ok())
                .map(|to| {
                    let mut after = g.clone();
                    after.do_move(i, to, &mut Log::silent());
                    (to, after)
                })
                .collect()
        })
    }

    /// Whether the legal actions kept with the position are those it has.
    pub fn check_listing(&self) -> Result<(), String> {
        let mut legal = Vec::new();
        self.list_legal(&mut legal);
        if legal != self.legal {
            return Err("the legal actions listed are not those of the position".into());
        }
        Ok(())
    }
}
