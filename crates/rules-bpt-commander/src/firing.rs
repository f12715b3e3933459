//! Firing ("Firing", "Opportunity Fire", "Artillery Ammunition"): who may fire at whom, a fire
//! order carried out, round shot going on through the target, canister into the cone, cavalry
//! forced into square, and the inactive player's opportunity fire. Shell, howitzers and the
//! other artillery rules are in [`crate::artillery`] (the rest of the book's Firing chapter,
//! which this file asks and which never asks it back); the dice, hits, saves and the casualty
//! pipeline every attack goes through are in [`crate::attacks`]; marking a unit suppressed or
//! knocked out is the position's ([`crate::state`]); the exact odds of a fire order are in
//! [`crate::odds`].

use crate::attacks::Attack;
use crate::orders::{Ammo, Order};
use crate::state::{rule, BptGame, Interrupt, Phase};
use crate::table::Table;
use crate::troops::{Arm, Formation};
use volley_core::game::Refusal;
use volley_core::{Dice, Event, Hex, Log};

impl BptGame {
    /// Whether a unit is in a state to fire at all.
    pub fn may_fire(&self, unit: usize) -> bool {
        let u = &self.units[unit];
        let limbered_guns = u.arm == Arm::Artillery && u.limbered;
        let prone_close_order = u.prone && !u.skirmish_order();
        !(u.ko || u.is_hq() || u.is_suppressed() || limbered_guns || prone_close_order)
            && u.dice > 0
            && u.range_cm > 0
    }

    /// Why `unit` may not fire at `target` now (range, sight, cone, ammunition), if it may
    /// not. High-angle shell needs no sight of the target ("High Angle Direct Fire").
    pub fn check_shot<R: Refusal>(&self, unit: usize, target: usize, ammo: Ammo) -> Result<(), R> {
        let canister = ammo == Ammo::Canister;
        let (u, t) = (&self.units[unit], &self.units[target]);
        if !self.may_fire(unit) {
            return Err(R::because(|| format!("{} cannot fire now", u.label())));
        }
        if t.side == u.side || t.ko {
            return Err(R::because(|| {
                format!("{} is not an enemy in play", t.label())
            }));
        }
        if t.is_hq() {
            return Err(R::because(|| "command units may not be chosen as targets"));
        }
        self.check_ammo(unit, target, ammo)?;
        // A unit under a marker is no target, not even for guns firing over what they see.
        if self.hidden_from(target, u.side) {
            return Err(R::because(|| {
                format!("{} cannot see {}", u.label(), t.label())
            }));
        }
        let over = ammo.is_shell() && (self.high_angle(unit) || self.observed(unit, target));
        if !over && !self.sees(unit, target) {
            return Err(R::because(|| {
                format!("{} cannot see {}", u.label(), t.label())
            }));
        }
        if !self.in_cone(unit, target) {
            return Err(R::because(|| {
                format!("{} is outside {}'s firing cone", t.label(), u.label())
            }));
        }
        let d = self.distance_cm(unit, target);
        let range = if canister {
            match u.canister {
                Some((_, r)) => r,
                None => return Err(R::because(|| format!("{} has no canister", u.label()))),
            }
        } else if u.arm != Arm::Artillery && ammo.is_shell() {
            return Err(R::because(|| format!("{} has no shell", u.label())));
        } else {
            u.range_cm
        };
        if !self.within(unit, target, range) {
            return Err(R::because(|| {
                format!("{} is {d} cm away, beyond {range} cm", t.label())
            }));
        }
        Ok(())
    }

    /// A unit's fire at a target: the attack, then round shot going on behind it (and a
    /// regiment's own howitzers), or canister into every unit in the cone within canister
    /// range, or shell ([`BptGame::fire_shell`]).
    pub fn fire(
        &mut self,
        unit: usize,
        target: usize,
        ammo: Ammo,
        id: u32,
        dice: &mut dyn Dice,
        log: &mut Log,
    ) {
        if self.units[target].traits.scout {
            // Scouting cavalry fired on leave the table unharmed ("Scouting Cavalry").
            self.units[unit].has_fired = true;
            let why = format!("fired on by {}", self.units[unit].label());
            self.retire_scout(target, &why, log);
            return;
        }
        let canister = ammo == Ammo::Canister;
        self.force_square(target, log);
        if self.in_grand_battery(unit) {
            self.battery = Some((self.order_id, target));
        }
        let u = &self.units[unit];
        log.add(|| {
            Event::new(
                "fire",
                rule(match ammo {
                    Ammo::Canister => "Canister",
                    Ammo::Shell if self.lobs(unit, target) => "High Angle Direct Fire",
                    Ammo::Shell => "Shell",
                    Ammo::AirBurst => "Air Burst Shell Fire",
                    Ammo::Normal => "Firing",
                }),
                format!(
                    "{} fires {}at {} ({} cm)",
                    u.label(),
                    match ammo {
                        Ammo::Normal => "",
                        Ammo::Canister => "canister ",
                        Ammo::Shell => "shell ",
                        Ammo::AirBurst => "an air burst ",
                    },
                    self.units[target].label(),
                    self.distance_cm(unit, target)
                ),
            )
            .side(u.side)
            .units([u.id.clone(), self.units[target].id.clone()])
        });
        if ammo.is_shell() {
            self.fire_shell(unit, target, ammo, id, dice, log);
        } else if canister {
            let (per_gun, range) = u.canister.expect("checked");
            let guns = u.stands;
            let mut zone: Vec<usize> = (0..self.units.len())
                .filter(|&k| {
                    k != unit
                        && !self.units[k].ko
                        && self.within(unit, k, range)
                        && self.in_cone(unit, k)
                })
                .collect();
            zone.sort_by_key(|&k| (self.distance_cm(unit, k), k));
            for k in zone {
                if self.units[k].ko {
                    continue;
                }
                let (to_hit, why) = self.to_hit(unit, k);
                let a = Attack {
                    dice: per_gun * guns,
                    to_hit,
                    flank: self.flank_shot(k, unit),
                    ranged: true,
                    from: self.units[unit].hex,
                    id,
                    reckoning: format!("canister {per_gun} × {guns} guns; {why}"),
                    jams: false,
                    cover_save: None,
                };
                self.resolve_attack(k, &a, dice, log);
            }
        } else {
            let (n, reckoning) = self.fire_dice(unit, target);
            let (to_hit, why) = self.to_hit(unit, target);
            let a = Attack {
                dice: n,
                to_hit,
                flank: self.flank_shot(target, unit),
                ranged: true,
                from: self.units[unit].hex,
                id,
                reckoning: format!("{reckoning}; {why}"),
                jams: self.units[unit].traits.gatling,
                cover_save: None,
            };
            // What stands behind the target when the shot is fired, not where the target may
            // fall back to.
            let aim = self.units[target].hex;
            let behind = if self.units[unit].arm == Arm::Artillery {
                self.round_shot_path(unit, aim)
            } else {
                Vec::new()
            };
            let target_hex = self.units[target].hex;
            let struck = self.resolve_attack(target, &a, dice, log);
            if self.units[unit].arm == Arm::Artillery {
                // Round shot at troops in a construction strikes the construction too.
                self.strike_construction(target_hex, n, id, dice, log);
            }
            if struck.jammed {
                self.knock_out(unit, "its Gatling gun jammed on a double", log);
                return;
            }
            if !behind.is_empty() {
                self.round_shot_through(unit, &behind, id, dice, log);
            }
            self.regimental_shot(unit, target, aim, id, dice, log);
        }
        let u = &mut self.units[unit];
        u.has_fired = true;
        u.dug_in = false;
    }

    /// Round shot goes on 5 cm behind its target, one attack on each stand it reaches,
    /// unless a wall, a hedge, high area terrain or a building stops it ("Round Shot").
    /// The units round shot fired from `gun` at a target in `target_hex` would go on into:
    /// those in the next hex, unless a wall, a hedge, high area terrain or a building stops
    /// it.
    pub fn round_shot_path(&self, gun: usize, target_hex: Hex) -> Vec<usize> {
        let gun_hex = self.units[gun].hex;
        let Some(next) = self.straight_from(gun_hex, target_hex) else {
            return Vec::new();
        };
        let map = self.map();
        if !map.contains(next)
            || crate::terrain::linear(map.hexside(target_hex, next))
            || crate::terrain::area(map.terrain(next)) == Some(crate::terrain::Area::High)
        {
            return Vec::new();
        }
        let mut struck: Vec<usize> = self.occupant(next).into_iter().collect();
        struck.extend(self.hqs_in(next));
        struck
    }

    fn round_shot_through(
        &mut self,
        gun: usize,
        struck: &[usize],
        id: u32,
        dice: &mut dyn Dice,
        log: &mut Log,
    ) {
        let gun_hex = self.units[gun].hex;
        for &k in struck {
            if self.units[k].ko {
                continue;
            }
            let (to_hit, why) = self.to_hit(gun, k);
            let a = Attack {
                dice: self.units[k].stands,
                to_hit,
                flank: self.flank_shot(k, gun),
                ranged: true,
                from: gun_hex,
                id,
                reckoning: format!("round shot going on, one a stand; {why}"),
                jams: false,
                cover_save: None,
            };
            self.resolve_attack(k, &a, dice, log);
        }
    }

    /// The hex just beyond `to` on the line from `from`.
    fn straight_from(&self, from: Hex, to: Hex) -> Option<Hex> {
        crate::table::beyond(from, to)
    }

    /// "Square": infantry shot at with enemy cavalry within 30 cm and no friendly cavalry
    /// within 30 cm must form square first, where it may.
    pub fn force_square(&mut self, target: usize, log: &mut Log) {
        let t = &self.units[target];
        if t.arm != Arm::Infantry
            || !self.table().squares
            || t.formation == Formation::Square
            || !t.may_form(Formation::Square)
            || !t.formation.may_become(Formation::Square)
        {
            return;
        }
        let near = |side| {
            self.units.iter().enumerate().any(|(k, c)| {
                !c.ko && c.arm == Arm::Cavalry && c.side == side && self.within(k, target, 30)
            })
        };
        if near(t.side.other()) && !near(t.side) {
            let label = t.label();
            let (side, id) = (t.side, t.id.clone());
            self.units[target].formation = Formation::Square;
            log.add(|| {
                Event::new(
                    "form",
                    rule("Square March Formation"),
                    format!(
                        "{label} must form square: enemy cavalry within 30 cm and none of its own"
                    ),
                )
                .side(side)
                .units([id])
            });
        }
    }

    // Opportunity fire.

    /// After an active unit moved or fired in the command phase, the inactive player may fire
    /// at it with units that see it and have not fired this way this turn.
    pub fn offer_opportunity(&mut self, target: usize) {
        if self.phase != Phase::Command || self.units[target].ko || self.outcome.is_some() {
            return;
        }
        let mut any = Vec::new();
        self.opportunity_candidates(target, &mut any);
        if any
            .iter()
            .any(|o| self.check_opportunity::<()>(*o, target).is_ok())
        {
            self.opportunity_fired.clear();
            self.interrupt = Some(Interrupt::Opportunity { target });
        }
    }

    /// The enemy units that could take opportunity fire at the unit `o` moves or fires, once
    /// it has: worked out on a copy where the order is carried out (its command roll passing).
    /// Empty for an order that draws none.
    pub fn opportunity_after(&self, o: Order) -> Vec<usize> {
        let Some(unit) = o.actor() else {
            return Vec::new();
        };
        if self.phase != Phase::Command || self.interrupt.is_some() {
            return Vec::new();
        }
        let mut after = self.clone();
        // A double one passes any command roll; the rest of the dice are what they are.
        let mut dice = volley_core::ScriptedDice::tolerant([1, 1]);
        if volley_core::Game::apply_quiet(&mut after, volley_core::codec::Codec::pack(o), &mut dice)
            .is_err()
        {
            return Vec::new();
        }
        if after.interrupt != Some(Interrupt::Opportunity { target: unit }) {
            return Vec::new();
        }
        let mut fire = Vec::new();
        after.opportunity_candidates(unit, &mut fire);
        let mut who: Vec<usize> = fire
            .into_iter()
            .filter(|f| after.check_opportunity::<()>(*f, unit).is_ok())
            .filter_map(|f| f.actor())
            .collect();
        who.dedup();
        who
    }

    pub fn opportunity_candidates(&self, target: usize, out: &mut Vec<Order>) {
        let side = self.active.other();
        for k in 0..self.units.len() {
            let u = &self.units[k];
            if u.side == side && !u.ko && !u.is_hq() {
                self.fire_orders(k, target, out);
            }
        }
    }

    pub fn check_opportunity<R: Refusal>(&self, o: Order, target: usize) -> Result<(), R> {
        match o {
            Order::End => Ok(()),
            Order::Fire {
                unit,
                target: t,
                ammo,
            } if t == target => {
                let u = &self.units[unit];
                if u.opportunity == Some(self.player_turn())
                    || self.opportunity_fired.contains(&unit)
                {
                    return Err(R::because(|| {
                        format!("{} has used its opportunity fire this turn", u.label())
                    }));
                }
                // Opportunity fire needs sight of the target, high angle or not.
                if !self.sees(unit, target) {
                    return Err(R::because(|| {
                        format!("{} cannot see {}", u.label(), self.units[target].label())
                    }));
                }
                self.check_shot(unit, target, ammo)
            }
            _ => Err(R::because(|| {
                format!(
                    "now only opportunity fire at {} (or end)",
                    self.units[target].label()
                )
            })),
        }
    }

    pub fn perform_opportunity(
        &mut self,
        o: Order,
        _target: usize,
        dice: &mut dyn Dice,
        log: &mut Log,
    ) {
        match o {
            Order::Fire { unit, target, ammo } => {
                let pt = self.player_turn();
                self.units[unit].opportunity = Some(pt);
                self.opportunity_fired.push(unit);
                log.add(|| {
                    Event::new(
                        "opportunity",
                        rule("Opportunity Fire"),
                        format!("{} takes opportunity fire", self.units[unit].label()),
                    )
                    .side(self.units[unit].side)
                    .units([self.units[unit].id.clone()])
                });
                let id = self.next_attack();
                self.fire(unit, target, ammo, id, dice, log);
                self.check_end_of_battle(log);
                if self.units[target].ko || self.outcome.is_some() {
                    self.interrupt = None;
                } else {
                    let mut more = Vec::new();
                    self.opportunity_candidates(target, &mut more);
                    if !more
                        .iter()
                        .any(|o| self.check_opportunity::<()>(*o, target).is_ok())
                    {
                        self.interrupt = None;
                    }
                }
            }
            _ => self.interrupt = None,
        }
    }
}
