//! The initiative phase ("Initiative Phase", "Firing", "Evading", "Deploying", "Charging"):
//! the active player's units within 20 cm of the nearest visible enemy may each fire at,
//! charge, evade or deploy against that enemy, one unit at a time, before any orders.

use crate::orders::Order;
use crate::state::{rule, BptGame, Phase};
use crate::table::{Table, HEX_CM};
use crate::troops::Arm;
use volley_core::game::Refusal;
use volley_core::{Dice, Event, Log};

/// How near the nearest visible enemy must be for initiative (the phase table).
pub const INITIATIVE_CM: u32 = 20;

impl BptGame {
    /// The nearest visible enemies a unit may use its initiative against, or why it may not.
    pub fn initiative_targets<R: Refusal>(&self, unit: usize) -> Result<Vec<usize>, R> {
        let u = &self.units[unit];
        if u.is_hq() {
            return Err(R::because(|| "command units do not act on initiative"));
        }
        if u.is_suppressed() {
            return Err(R::because(|| format!("{} is suppressed", u.label())));
        }
        if u.initiative_used {
            return Err(R::because(|| {
                format!("{} has used its initiative", u.label())
            }));
        }
        let pt = self.player_turn();
        if u.opportunity.is_some_and(|t| t + 1 == pt) {
            return Err(R::because(|| {
                format!(
                    "{} took opportunity fire last turn: no initiative now",
                    u.label()
                )
            }));
        }
        let near = self.nearest_visible_enemies(unit);
        match near.first() {
            Some(&e) if self.distance_cm(unit, e) <= INITIATIVE_CM => Ok(near),
            _ => Err(R::because(|| {
                format!("{} has no visible enemy within 20 cm", u.label())
            })),
        }
    }

    pub fn initiative_candidates(&self, out: &mut Vec<Order>) {
        self.task_candidates(out);
        for k in 0..self.units.len() {
            let u = &self.units[k];
            if u.side != self.active || u.ko || u.is_hq() {
                continue;
            }
            let Ok(targets) = self.initiative_targets::<()>(k) else {
                continue;
            };
            for &t in &targets {
                out.push(Order::Charge { unit: k, target: t });
            }
            for t in self.nearest_targets(k) {
                self.fire_orders(k, t, out);
            }
            out.push(Order::Evade { unit: k });
            if u.arm == Arm::Artillery {
                if u.limbered {
                    if let Some(f) = crate::table::facing_towards(u.hex, self.units[targets[0]].hex)
                    {
                        out.push(Order::Unlimber { unit: k, facing: f });
                    }
                } else {
                    out.push(Order::Limber { unit: k });
                }
            }
        }
    }

    pub fn check_initiative<R: Refusal>(&self, o: Order) -> Result<(), R> {
        match o {
            Order::End => Ok(()),
            Order::Task { unit, task, hex } => self.check_task(unit, task, hex),
            Order::Fire { unit, target, ammo } => {
                self.initiative_targets(unit)?;
                if !self.nearest_targets(unit).contains(&target) {
                    return Err(R::because(|| {
                        "initiative fire goes at the nearest visible enemy (guns: or the nearest visible enemy artillery)"
                    }));
                }
                if self.distance_cm(unit, target) > self.table().initiative_fire_cm {
                    return Err(R::because(|| {
                        format!(
                            "initiative fire needs the enemy within {} cm",
                            self.table().initiative_fire_cm
                        )
                    }));
                }
                self.check_shot(unit, target, ammo)
            }
            Order::Charge { unit, target } => {
                let near = self.initiative_targets(unit)?;
                if !near.contains(&target) {
                    return Err(R::because(|| {
                        "an initiative charge goes at the nearest visible enemy"
                    }));
                }
                self.check_charge(unit, target).map(|_| ())
            }
            Order::Evade { unit } => {
                let near = self.initiative_targets(unit)?;
                let from = self.units[near[0]].hex;
                self.evade_to(unit, from).map(|_| ()).ok_or_else(|| {
                    R::because(|| format!("{} cannot evade", self.units[unit].label()))
                })
            }
            Order::Limber { unit } => {
                self.initiative_targets(unit)?;
                let u = &self.units[unit];
                if u.arm != Arm::Artillery || u.limbered {
                    return Err(R::because(|| format!("{} cannot limber", u.label())));
                }
                Ok(())
            }
            Order::Unlimber { unit, .. } => {
                self.initiative_targets(unit)?;
                let u = &self.units[unit];
                if u.arm != Arm::Artillery || !u.limbered {
                    return Err(R::because(|| format!("{} cannot unlimber", u.label())));
                }
                Ok(())
            }
            _ => Err(R::because(|| {
                "in the initiative phase units only fire, charge, evade or deploy against the nearest visible enemy (or end)"
            })),
        }
    }

    pub fn perform_initiative(&mut self, o: Order, dice: &mut dyn Dice, log: &mut Log) {
        if let Some(k) = o.actor() {
            self.units[k].initiative_used = true;
        }
        match o {
            Order::End => {
                self.end_initiative(log);
                return;
            }
            Order::Fire { unit, target, ammo } => {
                let id = self.next_attack();
                self.fire(unit, target, ammo, id, dice, log);
            }
            Order::Charge { unit, target } => self.charge(unit, target, true, dice, log),
            Order::Evade { unit } => {
                let near = self.nearest_visible_enemies(unit);
                let from = self.units[near[0]].hex;
                self.evade(unit, from, log);
            }
            Order::Task { unit, task, hex } => self.perform_task(unit, task, hex, dice, log),
            Order::Limber { unit } => self.set_limbered(unit, true, None, log),
            Order::Unlimber { unit, facing } => self.set_limbered(unit, false, Some(facing), log),
            _ => {}
        }
        self.check_end_of_battle(log);
    }

    /// The initiative phase ends: disorder from the side's last charges lapses; orders begin.
    pub fn end_initiative(&mut self, log: &mut Log) {
        let pt = self.player_turn();
        for u in self.units.iter_mut().filter(|u| u.side == self.active) {
            if u.disorder_until.is_some_and(|t| t <= pt) {
                u.disorder_until = None;
                u.exhausted = false;
            }
        }
        self.phase = Phase::Command;
        let s = self.active;
        log.add(|| {
            Event::new(
                "phase",
                rule("Command Phase"),
                format!("{} command phase", self.side_name(s)),
            )
            .side(s)
        });
    }

    /// Whether any of the active side's units may act on initiative.
    pub fn anyone_has_initiative(&self) -> bool {
        (0..self.units.len()).any(|k| {
            let u = &self.units[k];
            u.side == self.active && !u.ko && self.initiative_targets::<()>(k).is_ok()
        }) || self.anyone_has_a_task()
    }
}

#[allow(dead_code)]
const _: u32 = HEX_CM;
