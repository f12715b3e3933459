//! The command phase ("Command Phase", "Command Modifiers", "Actions", "Command Bonus",
//! "Command Blunder", "Command Movement", "Command Presence", "Command Units", "Replacing a
//! Command Units", "Commanding Officer"): command units order formations of units by 2d6
//! rolls against their command value, one command unit after another; each success gives
//! every unit of the formation an action (two on a double one), a failure ends that command
//! unit's orders (the CO's ends everyone's), a double six is a blunder.

use crate::orders::Order;
use crate::state::{rule, BptGame, Phase, Then};
use crate::table::{hexes, Table};
use crate::troops::{Arm, Formation};
use volley_core::game::Refusal;
use volley_core::geometry::{distance, Facing};
use volley_core::{Dice, Event, Log};

/// How much better than every other command unit's the CO's command value must be for an
/// action given without an order to go to the CO while another command unit could give it.
pub const CO_RESERVE: i32 = 3;

/// How far the farthest unit of an order is from its command unit, in cm.
fn units_far(g: &BptGame, hq: usize, units: &[usize]) -> u32 {
    units
        .iter()
        .map(|&k| g.distance_cm(hq, k))
        .max()
        .unwrap_or(0)
}

/// A command roll's target and its reckoning.
#[derive(Clone, Debug)]
pub struct CommandValue {
    pub value: i32,
    pub words: Vec<String>,
}

impl BptGame {
    /// Whether a command unit may still issue orders this turn.
    pub fn may_order<R: Refusal>(&self, hq: usize) -> Result<(), R> {
        let h = &self.units[hq];
        if !h.is_hq() || h.ko || h.side != self.active {
            return Err(R::because(|| {
                format!(
                    "{} is not one of {}'s command units",
                    h.label(),
                    self.active.name()
                )
            }));
        }
        if h.is_suppressed() {
            return Err(R::because(|| {
                format!("{} is suppressed and gives no orders", h.label())
            }));
        }
        if h.fresh {
            return Err(R::because(|| {
                format!("{} was placed this turn and gives no orders", h.label())
            }));
        }
        if self.co_failed {
            return Err(R::because(|| {
                "the CO failed a command roll: no more orders this turn"
            }));
        }
        if self.finished.contains(&hq) {
            return Err(R::because(|| {
                format!("{} has finished its orders this turn", h.label())
            }));
        }
        Ok(())
    }

    /// The active side's command units still on the table: the only ones `may_order` can
    /// pass, found without building its refusals' words.
    fn own_command_units(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.units.len()).filter(|&h| {
            let u = &self.units[h];
            u.is_hq() && !u.ko && u.side == self.active
        })
    }

    /// Whether a unit may be named in an order by `hq` (any command unit, when `None`).
    pub fn orderable<R: Refusal>(&self, unit: usize, hq: Option<usize>) -> Result<(), R> {
        let u = &self.units[unit];
        if u.is_hq() || u.ko || u.side != self.active {
            return Err(R::because(|| format!("{} cannot be ordered", u.label())));
        }
        if u.is_suppressed() {
            return Err(R::because(|| {
                format!("{} is suppressed and does nothing this turn", u.label())
            }));
        }
        if u.closed {
            return Err(R::because(|| {
                format!("{}'s orders are over for this turn", u.label())
            }));
        }
        if let Some(hq) = hq {
            self.may_command(hq, unit)?;
        }
        if let Some(h) = hq.filter(|&h| self.units[h].fao) {
            if u.arm != Arm::Artillery {
                return Err(R::because(|| {
                    format!(
                        "{} is a Field Artillery Officer: it orders artillery only",
                        self.units[h].label()
                    )
                }));
            }
        }
        if let (Some(by), Some(hq)) = (u.ordered_by, hq) {
            if by != hq {
                return Err(R::because(|| {
                    format!(
                        "{} takes orders from {} this turn",
                        u.label(),
                        self.units[by].label()
                    )
                }));
            }
        }
        Ok(())
    }

    /// The command unit an action given without an order is ordered by: the one giving orders
    /// now if it can order the unit, else the one with the best command value for it — the
    /// CO's value counted [`CO_RESERVE`] lower, so that the brigades' command units order
    /// first and the CO last, as the book advises (a CO's failure ends everyone's orders, an
    /// HQ's only its own).
    pub fn implicit_hq(&self, unit: usize) -> Option<usize> {
        if self.orderable::<()>(unit, None).is_err() {
            return None;
        }
        // A Field Artillery Officer orders only grand batteries, never one unit on its own.
        if let Some(h) = self.current_hq {
            if !self.units[h].fao
                && self.may_order::<()>(h).is_ok()
                && self.orderable::<()>(unit, Some(h)).is_ok()
            {
                return Some(h);
            }
        }
        self.own_command_units()
            .filter(|&h| {
                !self.units[h].fao
                    && self.may_order::<()>(h).is_ok()
                    && self.orderable::<()>(unit, Some(h)).is_ok()
            })
            .max_by_key(|&h| {
                let value = self.command_score(h, &[unit]);
                // The CO goes last: its failed roll ends every command unit's orders.
                let reserve = if self.units[h].co { CO_RESERVE } else { 0 };
                (value - reserve, std::cmp::Reverse(h))
            })
    }

    /// The units an order by `unit` would go to: those joined, and `unit`.
    pub fn formation_of(&self, unit: usize) -> Vec<usize> {
        let mut v = self.joined.clone();
        if !v.contains(&unit) {
            v.push(unit);
        }
        v
    }

    /// Whether some unit of the formation has a visible enemy close enough that charging it
    /// costs the charge modifier.
    fn charge_in_reach(&self, units: &[usize]) -> bool {
        let cm = self.table().charge_penalty_cm;
        units.iter().any(|&k| {
            self.units[k].formed_troops()
                && self.units.iter().enumerate().any(|(e, t)| {
                    t.side != self.active
                        && !t.ko
                        && !t.is_hq()
                        && self.distance_cm(k, e) <= cm
                        && self.sees(k, e)
                })
        })
    }

    fn dense_in_reach(&self, units: &[usize]) -> bool {
        units
            .iter()
            .any(|&k| self.reach_of(k).iter().any(|(_, s)| s.dense))
    }

    /// The modified command value of an order ("Command Modifiers").
    pub fn command_value(
        &self,
        hq: usize,
        units: &[usize],
        charge: bool,
        dense: bool,
    ) -> CommandValue {
        self.command_value_told(hq, units, charge, dense, true)
    }

    /// Whether the order must pass a command roll before it acts: an order a command unit
    /// gives, or in the command phase a unit's action that names its own order (a unit with
    /// no action left).
    pub fn rolls_command(&self, o: Order) -> bool {
        if self.phase != Phase::Command || self.interrupt.is_some() {
            return false;
        }
        match o {
            Order::Command { .. } => true,
            Order::End | Order::Join { .. } | Order::Transfer { .. } | Order::SelfOrder { .. } => {
                false
            }
            _ => o
                .actor()
                .is_some_and(|k| self.units[k].actions == 0 && self.implicit_hq(k).is_some()),
        }
    }

    /// The command roll an order must pass before it acts, foretold as the roll itself will
    /// reckon it: the command unit and the modified value with its words. `None` when the
    /// order rolls none ([`BptGame::rolls_command`]).
    pub fn roll_before(&self, o: Order) -> Option<(usize, CommandValue)> {
        if !self.rolls_command(o) {
            return None;
        }
        if let Order::Command {
            hq,
            unit,
            charge,
            dense,
        } = o
        {
            return Some((
                hq,
                self.command_value(hq, &self.formation_of(unit), charge, dense),
            ));
        }
        // As the order's own roll is made: units joined before are left out, and a move all
        // along a road is reckoned as one.
        let unit = o.actor()?;
        let hq = self.implicit_hq(unit)?;
        let charge = matches!(o, Order::Charge { target, .. } if self.within(unit, target, self.table().charge_penalty_cm));
        let stop = match o {
            Order::Move { to, .. } => self.check_move::<()>(unit, to).ok(),
            _ => None,
        };
        let mut rolled = self.clone();
        rolled.joined.clear();
        rolled.road_order = stop.is_some_and(|s| s.road);
        let units = rolled.formation_of(unit);
        let dense = stop.is_some_and(|s| s.dense);
        Some((hq, rolled.command_value(hq, &units, charge, dense)))
    }

    /// The modified command value alone, without the words that explain it (the cheap form
    /// for choosing among command units).
    pub fn command_score(&self, hq: usize, units: &[usize]) -> i32 {
        self.command_value_told(hq, units, false, false, false)
            .value
    }

    fn command_value_told(
        &self,
        hq: usize,
        units: &[usize],
        charge: bool,
        dense: bool,
        explain: bool,
    ) -> CommandValue {
        let h = &self.units[hq];
        let mut v = h.command as i32;
        let mut words = Vec::new();
        if explain {
            words.push(format!("{} command {}", h.label(), h.command));
        }
        let mut add = |d: i32, why: &dyn Fn() -> String| {
            if d != 0 {
                v += d;
                if explain {
                    words.push(format!("{d:+} {}", why()));
                }
            }
        };
        // Note 1: -1 for each order after the first; initiative counts as a first order.
        let before = units
            .iter()
            .map(|&k| self.units[k].orders + u32::from(self.units[k].initiative_used))
            .max()
            .unwrap_or(0);
        add(-(before as i32), &|| {
            format!("successive order ({} before)", before)
        });
        // Note 2: up to 20 cm free, then -1 a 20 cm begun (21–40 cm -1, 41–60 cm -2); none
        // for a move all along a road.
        let far = if self.road_order {
            0
        } else {
            units_far(self, hq, units)
        };
        let dist = if far <= 20 {
            0
        } else {
            far.saturating_sub(20).div_ceil(20)
        };
        add(-(dist as i32), &|| format!("farthest unit {far} cm away"));
        if dense {
            add(-1, &|| {
                "moving into, through or out of dense terrain".into()
            });
        }
        if charge {
            add(-1, &|| {
                format!(
                    "charging a visible enemy within {} cm",
                    self.table().charge_penalty_cm
                )
            });
        }
        let pt = self.player_turn();
        if units
            .iter()
            .any(|&k| self.units[k].opportunity.is_some_and(|t| t + 1 == pt))
        {
            add(-1, &|| "opportunity fire last turn".into());
        }
        let weather = self.weather.command_penalty();
        if weather != 0 {
            add(weather, &|| {
                if self.table().weather == crate::weather::WeatherRule::Night {
                    "night".to_string()
                } else {
                    self.weather.name().to_string()
                }
            });
        }
        if h.co && units.iter().any(|&k| self.units[k].tried) {
            add(-1, &|| "the CO ordering units an HQ failed to order".into());
        }
        if units.iter().any(|&k| {
            let u = &self.units[k];
            u.formed_troops() && u.formation == Formation::MarchColumn && self.touching(k, hq)
        }) {
            add(1, &|| "touching units in march column".into());
        }
        CommandValue { value: v, words }
    }

    pub fn command_candidates(&self, out: &mut Vec<Order>) {
        let side = self.active;
        let hqs: Vec<usize> = self
            .own_command_units()
            .filter(|&h| self.may_order::<()>(h).is_ok())
            .collect();
        for k in 0..self.units.len() {
            let u = &self.units[k];
            if u.side != side || u.ko || u.is_hq() {
                continue;
            }
            if self.orderable::<()>(k, None).is_ok() {
                if u.actions == 0 && self.implicit_hq(k).is_some() {
                    self.action_candidates(k, out);
                }
                out.push(Order::Join { unit: k });
                for &h in &hqs {
                    for (charge, dense) in
                        [(false, false), (true, false), (false, true), (true, true)]
                    {
                        out.push(Order::Command {
                            hq: h,
                            unit: k,
                            charge,
                            dense,
                        });
                    }
                }
                out.push(Order::SelfOrder { unit: k });
                if self.table().fixed_formations {
                    for h in 0..self.units.len() {
                        if self.units[h].is_hq() && self.units[h].side == side {
                            out.push(Order::Transfer { unit: k, hq: h });
                        }
                    }
                }
            }
            if u.actions > 0 {
                self.action_candidates(k, out);
            }
        }
    }

    /// The actions a unit with an order may take ("Actions"): move, deploy, fire, charge.
    fn action_candidates(&self, k: usize, out: &mut Vec<Order>) {
        let u = &self.units[k];
        for &(to, _) in self.reach_of(k).iter() {
            out.push(Order::Move { unit: k, to });
        }
        if u.self_move {
            return;
        }
        out.push(Order::Wheel {
            unit: k,
            right: false,
        });
        out.push(Order::Wheel {
            unit: k,
            right: true,
        });
        out.push(Order::AboutFace { unit: k });
        out.push(Order::Retire { unit: k });
        out.push(Order::Prolonge { unit: k });
        for f in Formation::ALL {
            out.push(Order::Form {
                unit: k,
                formation: f,
            });
        }
        if u.arm == Arm::Artillery {
            out.push(Order::Limber { unit: k });
            for f in Facing::ALL {
                out.push(Order::Unlimber { unit: k, facing: f });
                out.push(Order::Pivot { unit: k, facing: f });
            }
        }
        for side in [-1, 0, 1] {
            out.push(Order::Refuse { unit: k, side });
        }
        if self.table().prone {
            out.push(Order::Prone {
                unit: k,
                down: !u.prone,
            });
        }
        if u.other_mode.is_some() {
            out.push(Order::Dismount {
                unit: k,
                mount: u.arm == Arm::Infantry,
            });
        }
        for e in 0..self.units.len() {
            let t = &self.units[e];
            if t.side != u.side && !t.ko && !t.is_hq() {
                self.fire_orders(k, e, out);
                out.push(Order::Charge { unit: k, target: e });
            }
        }
    }

    pub fn check_command<R: Refusal>(&self, o: Order) -> Result<(), R> {
        let implicit = |k: usize| self.units[k].actions == 0;
        let has_action = |k: usize| -> Result<(), R> {
            if self.units[k].actions == 0 {
                match self.implicit_hq(k) {
                    Some(_) => Ok(()),
                    None => Err(R::because(|| {
                        format!(
                            "{} has no order to act on, and no command unit can order it now",
                            self.units[k].label()
                        )
                    })),
                }
            } else if self.units[k].self_move && !matches!(o, Order::Move { .. }) {
                Err(R::because(|| {
                    "an isolated unit's own order only moves it towards its command"
                }))
            } else {
                self.check_battery_action(o)
            }
        };
        if let Order::Move { unit, .. }
        | Order::Wheel { unit, .. }
        | Order::AboutFace { unit }
        | Order::Retire { unit }
        | Order::Refuse { unit, .. }
        | Order::Charge { unit, .. } = o
        {
            if self.units[unit].prone {
                return Err(R::because(|| {
                    format!(
                        "{} is prone: it must rise before it moves",
                        self.units[unit].label()
                    )
                }));
            }
        }
        match o {
            Order::End => Ok(()),
            Order::Transfer { unit, hq } => {
                let co = self.transferring_co()?;
                self.may_order(co)?;
                self.orderable(unit, Some(co))?;
                self.check_transfer(unit, hq, co)
            }
            Order::Join { unit } => {
                self.orderable(unit, None)?;
                if self.joined.contains(&unit) {
                    return Err(R::because(|| {
                        format!("{} is joined already", self.units[unit].label())
                    }));
                }
                Ok(())
            }
            Order::Command {
                hq,
                unit,
                charge,
                dense,
            } => {
                self.may_order(hq)?;
                let units = self.formation_of(unit);
                for &k in &units {
                    self.orderable(k, Some(hq))?;
                }
                self.check_grand_battery(hq, &units)?;
                if charge && !self.charge_in_reach(&units) {
                    return Err(R::because(|| {
                        "no unit of the formation has a visible enemy near enough for the charge modifier"
                    }));
                }
                if dense && !self.dense_in_reach(&units) {
                    return Err(R::because(|| {
                        "no unit of the formation can reach dense terrain"
                    }));
                }
                Ok(())
            }
            Order::SelfOrder { unit } => self.check_self_order(unit),
            Order::Move { unit, to } => {
                has_action(unit)?;
                let stop = self.check_move(unit, to)?;
                let u = &self.units[unit];
                if stop.dense && !u.declared_dense && !implicit(unit) {
                    return Err(R::because(|| {
                        format!(
                        "{}'s way to {} goes into, through or out of dense terrain: order it with the dense modifier",
                        u.label(),
                        volley_core::geometry::label(to)
                    )
                    }));
                }
                if u.self_move && !u.traits.scout {
                    let near = self.nearest_hq_distance(unit, u.hex);
                    if self.nearest_hq_distance(unit, to) >= near {
                        return Err(R::because(|| {
                            "an isolated unit moves only towards its nearest command unit"
                        }));
                    }
                }
                Ok(())
            }
            Order::Fire { unit, target, ammo } => {
                has_action(unit)?;
                self.check_shot(unit, target, ammo)?;
                if self.table().nearest_only && !self.nearest_targets(unit).contains(&target) {
                    return Err(R::because(|| {
                        "fire goes at the nearest visible enemy, or for guns the nearest visible enemy artillery (option order_fire = nearest)"
                    }));
                }
                Ok(())
            }
            Order::Charge { unit, target } => {
                has_action(unit)?;
                self.check_charge(unit, target)?;
                if self.within(unit, target, self.table().charge_penalty_cm)
                    && !self.units[unit].declared_charge
                    && !implicit(unit)
                {
                    return Err(R::because(|| {
                        format!(
                            "charging an enemy within {} cm needs the charge modifier on the order",
                            self.table().charge_penalty_cm
                        )
                    }));
                }
                Ok(())
            }
            Order::Wheel { unit, .. } => {
                has_action(unit)?;
                self.check_wheel(unit)
            }
            Order::AboutFace { unit } => {
                has_action(unit)?;
                self.check_about_face(unit)
            }
            Order::Retire { unit } => {
                has_action(unit)?;
                self.check_retire(unit).map(|_| ())
            }
            Order::Prolonge { unit } => {
                has_action(unit)?;
                self.check_prolonge(unit).map(|_| ())
            }
            Order::Form { unit, formation } => {
                has_action(unit)?;
                if self.units[unit].prone {
                    return Err(R::because(|| {
                        format!("{} is prone: it must rise first", self.units[unit].label())
                    }));
                }
                self.check_form(unit, formation)
            }
            Order::Prone { unit, down } => {
                has_action(unit)?;
                self.check_prone(unit, down)
            }
            Order::Dismount { unit, mount } => {
                has_action(unit)?;
                self.check_dismount(unit, mount)
            }
            Order::Limber { unit } => {
                has_action(unit)?;
                let u = &self.units[unit];
                if u.arm != Arm::Artillery || u.limbered {
                    return Err(R::because(|| format!("{} cannot limber", u.label())));
                }
                Ok(())
            }
            Order::Unlimber { unit, .. } => {
                has_action(unit)?;
                let u = &self.units[unit];
                if u.arm != Arm::Artillery || !u.limbered {
                    return Err(R::because(|| format!("{} cannot unlimber", u.label())));
                }
                Ok(())
            }
            Order::Pivot { unit, facing } => {
                has_action(unit)?;
                let u = &self.units[unit];
                if u.arm != Arm::Artillery || u.limbered || u.facing == facing {
                    return Err(R::because(|| format!("{} cannot pivot so", u.label())));
                }
                Ok(())
            }
            Order::Refuse { unit, side } => {
                has_action(unit)?;
                self.check_refuse(unit, side)
            }
            _ => Err(R::because(|| "that is not a command-phase action")),
        }
    }

    pub fn perform_command(&mut self, o: Order, dice: &mut dyn Dice, log: &mut Log) -> Then {
        let acted = o.actor();
        match o {
            Order::End => {
                self.close_order();
                return self.end_orders(log);
            }
            Order::Join { unit } => {
                self.joined.push(unit);
                return Then::Continue;
            }
            Order::Transfer { unit, hq } => {
                self.transfer(unit, hq, dice, log);
                return Then::Continue;
            }
            Order::Command {
                hq,
                unit,
                charge,
                dense,
            } => {
                self.command_roll(hq, unit, charge, dense, dice, log);
                self.free_scouts(unit);
                return Then::Continue;
            }
            Order::SelfOrder { unit } => {
                self.close_order();
                let pt = self.player_turn();
                let u = &mut self.units[unit];
                u.self_ordered = Some(pt);
                u.actions = 1;
                u.self_move = true;
                u.orders += 1;
                u.closed = true;
                let u = &self.units[unit];
                let (section, what) = if u.traits.scout {
                    ("SCOUTING CAVALRY", "rides on as it wishes, without orders")
                } else {
                    (
                        "Command Phase",
                        "is out of contact and orders itself towards its command",
                    )
                };
                log.add(|| {
                    Event::new("order", rule(section), format!("{} {what}", u.label()))
                        .side(u.side)
                        .units([u.id.clone()])
                });
                return Then::Continue;
            }
            _ => {}
        }
        let unit = acted.expect("a unit acts");
        if self.units[unit].actions == 0 {
            // The action names its own order: the command roll comes first, with the
            // modifiers the declared action brings.
            let hq = self.implicit_hq(unit).expect("checked");
            let charge = matches!(o, Order::Charge { target, .. } if self.within(unit, target, self.table().charge_penalty_cm));
            let stop = match o {
                Order::Move { to, .. } => self.check_move::<()>(unit, to).ok(),
                _ => None,
            };
            let dense = stop.is_some_and(|s| s.dense);
            self.joined.clear();
            self.road_order = stop.is_some_and(|s| s.road);
            self.command_roll(hq, unit, charge, dense, dice, log);
            self.free_scouts(unit);
            self.road_order = false;
            if self.units[unit].actions == 0 {
                return Then::Continue;
            }
        }
        self.units[unit].actions -= 1;
        let mut moved_or_fired = true;
        match o {
            Order::Move { unit, to } => self.do_move(unit, to, log),
            Order::Fire { unit, target, ammo } => {
                let id = self.order_id;
                self.fire(unit, target, ammo, id, dice, log);
            }
            Order::Charge { unit, target } => {
                moved_or_fired = false;
                self.charge(unit, target, false, dice, log);
            }
            Order::Wheel { unit, right } => self.wheel(unit, right, log),
            Order::AboutFace { unit } => self.about_face(unit, log),
            Order::Retire { unit } => {
                let to = self.check_retire::<()>(unit).expect("checked");
                self.step_back(unit, to, "Retire Movement", log);
            }
            Order::Prolonge { unit } => {
                let to = self.check_prolonge::<()>(unit).expect("checked");
                self.step_back(unit, to, "Prolonge Movement", log);
            }
            Order::Form { unit, formation } => {
                moved_or_fired = false;
                self.form(unit, formation, log);
            }
            Order::Prone { unit, down } => {
                moved_or_fired = false;
                self.go_prone(unit, down, log);
            }
            Order::Dismount { unit, mount } => {
                moved_or_fired = false;
                self.dismount(unit, mount, log);
            }
            Order::Limber { unit } => {
                moved_or_fired = false;
                self.set_limbered(unit, true, None, log);
            }
            Order::Unlimber { unit, facing } => {
                moved_or_fired = false;
                self.set_limbered(unit, false, Some(facing), log);
            }
            Order::Pivot { unit, facing } => {
                moved_or_fired = false;
                self.pivot(unit, facing, log);
            }
            Order::Refuse { unit, side } => {
                moved_or_fired = false;
                self.refuse(unit, side, log);
            }
            _ => {}
        }
        self.check_end_of_battle(log);
        if moved_or_fired && self.interrupt.is_none() && !self.units[unit].ko {
            self.offer_opportunity(unit);
        }
        Then::Continue
    }

    /// The current order is over: its units keep no actions.
    fn close_order(&mut self) {
        for &k in &self.order_units {
            self.units[k].actions = 0;
            self.units[k].self_move = false;
        }
    }

    /// A command roll for the formation of `unit` (and the units joined to it).
    pub(crate) fn command_roll(
        &mut self,
        hq: usize,
        unit: usize,
        charge: bool,
        dense: bool,
        dice: &mut dyn Dice,
        log: &mut Log,
    ) {
        self.close_order();
        let units = self.formation_of(unit);
        self.joined.clear();
        // One command unit finishes before the next begins.
        if let Some(prev) = self.current_hq {
            if prev != hq && !self.finished.contains(&prev) {
                self.finished.push(prev);
            }
        }
        self.current_hq = Some(hq);
        // Units left out of this order have had their last from this command unit.
        for k in self.order_units.clone() {
            if !units.contains(&k) {
                self.units[k].closed = true;
            }
        }
        let cv = self.command_value(hq, &units, charge, dense);
        let (a, b) = (dice.roll(6), dice.roll(6));
        self.order_id = self.next_attack();
        let names: Vec<String> = units
            .iter()
            .map(|&k| self.units[k].id.to_string())
            .collect();
        let bonus = a == 1 && b == 1;
        let blunder = a == 6 && b == 6;
        let success = bonus || (!blunder && (a + b) as i32 <= cv.value);
        let h = &self.units[hq];
        log.add(|| {
            Event::new(
                "order",
                rule(if bonus {
                    "Command Bonus"
                } else if blunder {
                    "Command Blunder"
                } else {
                    "Command Phase"
                }),
                format!(
                    "{} orders {}: needs {} or less ({}), rolled {a}+{b}: {}",
                    h.label(),
                    names.join(", "),
                    cv.value,
                    cv.words.join(" "),
                    if bonus {
                        "double one, a bonus: two actions each"
                    } else if blunder {
                        "double six, a blunder"
                    } else if success {
                        "the order is issued"
                    } else {
                        "failed, no more orders from this command unit"
                    }
                ),
            )
            .side(h.side)
            .units(names.clone())
        });
        if success {
            for &k in &units {
                let u = &mut self.units[k];
                u.orders += 1;
                u.ordered_by = Some(hq);
                u.actions = if bonus { 2 } else { 1 };
                u.declared_charge = charge || bonus;
                u.declared_dense = dense || bonus;
                u.supported = false;
                u.wheeled = false;
            }
            self.order_units = units;
            return;
        }
        for &k in &units {
            self.units[k].tried = true;
        }
        self.order_units.clear();
        self.finished.push(hq);
        if self.units[hq].co {
            self.co_failed = true;
            log.add(|| {
                Event::new(
                    "order",
                    rule("Command Phase"),
                    "the CO failed: no further orders this turn",
                )
                .side(self.active)
            });
        }
        if blunder && !self.hold_blunder {
            self.blunder(hq, &units, dice, log);
        }
    }

    /// The three units of the side nearest a command unit, as the cross-fire blunder finds
    /// them.
    pub(crate) fn nearest_three(&self, hq: usize) -> Vec<usize> {
        let side = self.units[hq].side;
        let mut near: Vec<usize> = (0..self.units.len())
            .filter(|&k| !self.units[k].ko && !self.units[k].is_hq() && self.units[k].side == side)
            .collect();
        near.sort_by_key(|&k| (self.distance_cm(k, hq), k));
        near.truncate(3);
        near
    }

    /// Blunder 2's cross-fire at unit `k`, one of the three nearest the commander: 3 attacks
    /// in the flank, at the cover `k` stands in when its turn comes (an earlier unit's
    /// fall-back may have moved it).
    pub(crate) fn cross_fire(&self, hq: usize, k: usize, id: u32) -> crate::attacks::Attack {
        let cover = crate::terrain::cover(self.map(), self.units[k].hex, self.units[k].hex);
        crate::attacks::Attack {
            dice: 3,
            to_hit: cover.to_hit(),
            flank: true,
            ranged: true,
            from: self.units[hq].hex,
            id,
            reckoning: format!("3 attacks of cross-fire in the flank; {}", cover.name()),
            jams: false,
            cover_save: None,
        }
    }

    /// The blunder table (a d6): what the command unit and the units it was ordering do.
    fn blunder(&mut self, hq: usize, units: &[usize], dice: &mut dyn Dice, log: &mut Log) {
        let roll = dice.roll(6);
        let what = match roll {
            1 => "cease firing: friendly shots fall on the commander",
            2 => "cross-fire: 3 attacks into the flank of each of the 3 friendly units closest to the commander",
            3 => "re-locate: the commander rides half its move back from the closest enemy it sees",
            4 => "pull back: the ordered units standing in the open give half a move of ground",
            5 => "open fire: the ordered units shoot at the closest enemy they can see and reach",
            _ => "let's get 'em: the ordered units standing in the open press half a move forward",
        };
        let side = self.units[hq].side;
        log.add(|| {
            Event::new(
                "blunder",
                rule("Command Blunder"),
                format!("blunder roll {roll}: {what}"),
            )
            .side(side)
        });
        let id = self.next_attack();
        let ready: Vec<usize> = units
            .iter()
            .copied()
            .filter(|&k| !self.units[k].ko && !self.units[k].is_suppressed())
            .collect();
        let in_open = |g: &BptGame, k: usize| {
            crate::terrain::area(g.map().terrain(g.units[k].hex)).is_none()
                && !matches!(
                    g.map().terrain(g.units[k].hex),
                    volley_core::map::Terrain::Fort
                )
        };
        match roll {
            1 => {
                let n = dice.roll(6);
                let a = crate::attacks::Attack {
                    dice: n,
                    to_hit: 6,
                    flank: false,
                    ranged: true,
                    from: self.units[hq].hex,
                    id,
                    reckoning: format!("{n} attacks of friendly fire; command units hit on 6"),
                    jams: false,
                    cover_save: None,
                };
                self.resolve_attack(hq, &a, dice, log);
            }
            2 => {
                for k in self.nearest_three(hq) {
                    let a = self.cross_fire(hq, k, id);
                    self.resolve_attack(k, &a, dice, log);
                }
            }
            3 => {
                let enemy = self.nearest_visible_enemies(hq).first().copied();
                if let Some(e) = enemy {
                    let from = self.units[e].hex;
                    self.shift(
                        hq,
                        from,
                        hexes(self.units[hq].move_cm / 2),
                        false,
                        log,
                        "Command Blunder",
                    );
                }
            }
            4 | 6 => {
                for k in ready {
                    let u = &self.units[k];
                    if !in_open(self, k) || u.dug_in || (u.arm == Arm::Artillery && !u.limbered) {
                        continue;
                    }
                    if let Some(&e) = self.nearest_visible_enemies(k).first() {
                        let from = self.units[e].hex;
                        self.shift(
                            k,
                            from,
                            hexes(self.units[k].move_cm / 2),
                            roll == 6,
                            log,
                            "Command Blunder",
                        );
                    }
                }
            }
            _ => {
                for k in ready {
                    let target = self
                        .nearest_visible_enemies(k)
                        .into_iter()
                        .find(|&e| self.check_shot::<()>(k, e, self.default_ammo(k)).is_ok());
                    if let Some(e) = target {
                        let ammo = self.default_ammo(k);
                        self.fire(k, e, ammo, id, dice, log);
                    }
                }
            }
        }
        self.check_end_of_battle(log);
    }

    /// Moves a unit up to `steps` hexes straight away from (or towards) `from`, stopping short
    /// of anything in the way, keeping its facing.
    pub fn shift(
        &mut self,
        unit: usize,
        from: volley_core::Hex,
        steps: u32,
        towards: bool,
        log: &mut Log,
        section: &str,
    ) {
        let path = self.straight_path(unit, from, steps, towards);
        let start = self.units[unit].hex;
        let mut at = start;
        for h in path {
            let u = &self.units[unit];
            if !self.ground().passable(h, u)
                || (!u.is_hq() && self.occupant(h).is_some())
                || self
                    .occupant(h)
                    .is_some_and(|o| self.units[o].side != u.side)
                || crate::terrain::linear(self.map().hexside(at, h))
            {
                break;
            }
            at = h;
        }
        if at != start {
            if self.units[unit].is_hq() {
                self.relocate(unit, at);
            } else {
                self.move_with_hqs(unit, at);
            }
            let u = &self.units[unit];
            log.add(|| {
                Event::new(
                    "move",
                    rule(section),
                    format!(
                        "{} moves {} to {}",
                        u.label(),
                        volley_core::geometry::label(start),
                        volley_core::geometry::label(at)
                    ),
                )
                .side(u.side)
                .units([u.id.clone()])
            });
        }
    }

    // Isolated units.

    fn nearest_hq_distance(&self, unit: usize, at: volley_core::Hex) -> u32 {
        let side = self.units[unit].side;
        self.units
            .iter()
            .filter(|h| h.is_hq() && !h.ko && h.side == side)
            .map(|h| distance(h.hex, at))
            .min()
            .unwrap_or(u32::MAX)
    }

    /// Whether a unit is completely out of contact: no friendly unit or command unit within
    /// 20 cm (Volley's reading, docs/rules/bpt-commander.md).
    pub fn isolated(&self, unit: usize) -> bool {
        let u = &self.units[unit];
        !self
            .units
            .iter()
            .enumerate()
            .any(|(k, f)| k != unit && !f.ko && f.side == u.side && self.within(k, unit, 20))
    }

    fn check_self_order<R: Refusal>(&self, unit: usize) -> Result<(), R> {
        self.orderable(unit, None)?;
        let u = &self.units[unit];
        if u.orders > 0 || u.ordered_by.is_some() {
            return Err(R::because(|| {
                format!("{} has had orders this turn", u.label())
            }));
        }
        if u.traits.scout {
            // Scouting cavalry: free after their first order passed.
            return if u.scout_free {
                Ok(())
            } else {
                Err(R::because(|| {
                    format!(
                        "{} need one order from a command unit before they scout on their own",
                        u.label()
                    )
                }))
            };
        }
        if !self.isolated(unit) {
            return Err(R::because(|| {
                format!("{} is not out of contact", u.label())
            }));
        }
        let pt = self.player_turn();
        if u.self_ordered.is_some_and(|t| t + 2 == pt) {
            return Err(R::because(|| {
                format!(
                    "{} ordered itself last turn: every second turn only",
                    u.label()
                )
            }));
        }
        if self.nearest_hq_distance(unit, u.hex) == u32::MAX {
            return Err(R::because(|| "no command unit is left to go to"));
        }
        Ok(())
    }

    // Command movement.

    /// Orders are over: each command unit may move (or the end phase comes, if none may).
    fn end_orders(&mut self, log: &mut Log) -> Then {
        self.order_units.clear();
        self.joined.clear();
        self.phase = Phase::HqMoves;
        if !self.hq_may_move() {
            Then::EndPhase
        } else {
            let s = self.active;
            log.add(|| {
                Event::new(
                    "phase",
                    rule("Command Movement"),
                    format!("{}: command units move", self.side_name(s)),
                )
                .side(s)
            });
            Then::Continue
        }
    }

    pub fn hq_move_candidates(&self, out: &mut Vec<Order>) {
        for h in self.hq_movers() {
            for &(to, _) in self.reach_of(h).iter() {
                out.push(Order::Move { unit: h, to });
            }
        }
    }

    /// Whether a command unit of the active side may still move this phase: one that may
    /// move at all has a hex to go to, and each hex its search finds is a legal move.
    fn hq_may_move(&self) -> bool {
        self.hq_movers().any(|h| self.may_move_at_all(h))
    }

    /// The active side's command units that may still move this phase.
    fn hq_movers(&self) -> impl Iterator<Item = usize> + '_ {
        self.units.iter().enumerate().filter_map(|(h, u)| {
            (u.is_hq()
                && u.side == self.active
                && !u.ko
                && !u.hq_moved
                && !u.is_suppressed()
                && !u.fresh)
                .then_some(h)
        })
    }

    pub fn check_hq_move<R: Refusal>(&self, o: Order) -> Result<(), R> {
        match o {
            Order::End => Ok(()),
            Order::Move { unit, to } => {
                let u = &self.units[unit];
                if !u.is_hq() {
                    return Err(R::because(|| {
                        "orders are over: only command units move now"
                    }));
                }
                if u.hq_moved || u.is_suppressed() || u.fresh {
                    return Err(R::because(|| format!("{} may not move now", u.label())));
                }
                self.check_move(unit, to).map(|_| ())
            }
            _ => Err(R::because(|| "orders are over: command units move, or end")),
        }
    }

    pub fn perform_hq_move(&mut self, o: Order, log: &mut Log) -> Then {
        match o {
            Order::Move { unit, to } => {
                self.units[unit].hq_moved = true;
                self.do_move(unit, to, log);
                // The phase ends by itself when no other command unit may move.
                if self.hq_may_move() {
                    Then::Continue
                } else {
                    Then::EndPhase
                }
            }
            _ => Then::EndPhase,
        }
    }
}
