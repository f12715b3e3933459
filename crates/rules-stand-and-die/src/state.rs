//! The game in play: the position, the turn's phases, and the `Game` API over them. The
//! procedures themselves live in the file of the paragraph they come from.

use crate::falling_back::{FallBackWay, FiredOn};
use crate::marching::{self, march_allowance};
use crate::musketry;
use crate::musketry::{CoverGround, FireArc};
use crate::orders::Order;
use crate::troops::{Arm, Unit, GUN_CASUALTIES};
use crate::water;
use std::sync::Arc;
use volley_core::geometry::{label, step, Facing};
use volley_core::map::{Map, MapView};
use volley_core::view::{
    ElementKind, Elements, FeatureView, ObjectiveView, SideView, UnitView, Word,
};
use volley_core::{
    reach_by_steps, Action, ActionInfo, ActionKind, Dice, Event, Game, Hex, Illegal, Log, Name,
    Outcome, Place, Reach, Side, View,
};

/// What the scenario fixed, which never changes in play.
#[derive(Debug)]
pub struct Setting {
    pub name: Name,
    pub title: Name,
    pub turn_limit: u32,
    pub map: Map,
    /// The map as views carry it, made once.
    pub map_view: Arc<MapView>,
    pub side_names: [Name; 2],
    pub objectives: Vec<Objective>,
    pub table: TableRules,
    /// All-water hexes where the scenario moors boats: troops may enter them.
    pub boats: Vec<Hex>,
}

#[derive(Clone, Debug)]
pub struct Objective {
    pub hex: Hex,
    pub name: Name,
    pub points: i32,
    /// The side whose goal it is, the only one that scores it (scenario `goals`); `None`:
    /// whichever side holds it.
    pub goal_of: Option<Side>,
}

/// The choices the text leaves to the table, set by the scenario's options.
#[derive(Clone, Copy, Debug)]
pub struct TableRules {
    /// Figures' room in one hex.
    pub hex_capacity: u32,
    /// Room one gun takes, in figures.
    pub gun_room: u32,
    /// Whether troops may wade fords (a ford is not an all-water hex).
    pub fords_open: bool,
    /// Which way hexes fired on fall back.
    pub fall_back: FallBackWay,
    /// Which troops in a hex fire: those facing the target, or all.
    pub fire_arc: FireArc,
    /// What terrain gives cover.
    pub cover: CoverGround,
}

/// Each turn: the side that won the roll marches, then fires; then the other side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Loaded, opening roll not yet made.
    Setup,
    March(Side),
    Musketry(Side),
    Over,
}

#[derive(Clone, Debug)]
pub struct StandAndDieGame {
    pub setting: Arc<Setting>,
    /// Every unit of the scenario, in scenario order; destroyed ones stay with 0 figures so
    /// that action numbers keep pointing at the same unit.
    pub units: Vec<Unit>,
    /// Hexes marked Standing; every other occupied hex will fall back under pressure.
    pub standing: Vec<Hex>,
    pub turn: u32,
    pub phase: Phase,
    /// The side marching first this turn.
    pub first: Side,
    /// Hexes whose Standing marker was set or lifted in this march (once each).
    pub marks_changed: Vec<Hex>,
    /// Hexes that have fired in this musketry phase.
    pub fired_from: Vec<Hex>,
    /// Enemy hexes fired on in this musketry phase, in order, that will fall back, with the
    /// hexes that fired on each.
    pub fired_on: Vec<FiredOn>,
    /// Casualties each side has inflicted (a man or a gun casualty counts one).
    pub inflicted: [u32; 2],
    /// Casualties each side could take at the start.
    pub starting: [u32; 2],
    pub outcome: Option<Outcome>,
    /// Per map cell ([`Map::index`]), the keys of the units on the table there, in key order.
    /// Who holds a hex, which way it faces and what still fits in it are asked for every
    /// hex a unit might step into; this answers them without a walk over the army. Kept by
    /// [`StandAndDieGame::relocate`] and [`StandAndDieGame::unlist`].
    in_hex: Vec<Vec<usize>>,
}

impl StandAndDieGame {
    pub fn new(setting: Setting, units: Vec<Unit>, standing: Vec<Hex>) -> StandAndDieGame {
        let starting = Side::BOTH.map(|s| {
            units
                .iter()
                .filter(|u| u.side == s)
                .map(Unit::casualties_to_destroy)
                .sum()
        });
        let mut in_hex = vec![Vec::new(); setting.map.cell_count()];
        for (i, u) in units.iter().enumerate() {
            in_hex[cell(&setting.map, u.hex)].push(i);
        }
        StandAndDieGame {
            setting: Arc::new(setting),
            units,
            standing,
            turn: 1,
            phase: Phase::Setup,
            first: Side::Red,
            marks_changed: Vec::new(),
            fired_from: Vec::new(),
            fired_on: Vec::new(),
            inflicted: [0, 0],
            starting,
            outcome: None,
            in_hex,
        }
    }

    pub fn map(&self) -> &Map {
        &self.setting.map
    }

    pub fn table(&self) -> TableRules {
        self.setting.table
    }

    /// Whether troops may stand in a hex: on the map, and dry, bridged or with boats.
    pub fn enterable(&self, hex: Hex) -> bool {
        water::enterable(
            self.map(),
            hex,
            self.table().fords_open,
            &self.setting.boats,
        )
    }

    /// The keys of the units still on the table in a hex, in key order.
    fn keys_in(&self, hex: Hex) -> &[usize] {
        self.map().index(hex).map_or(&[], |c| &self.in_hex[c])
    }

    /// The units still on the table in a hex, with their numbers.
    pub fn troops_in(&self, hex: Hex) -> impl Iterator<Item = (usize, &Unit)> {
        self.keys_in(hex).iter().map(|&i| (i, &self.units[i]))
    }

    /// Moves a unit on the table to another hex of the map.
    pub fn relocate(&mut self, unit: usize, to: Hex) {
        self.unlist(unit);
        self.units[unit].hex = to;
        let keys = &mut self.in_hex[cell(&self.setting.map, to)];
        let at = keys.partition_point(|&k| k < unit);
        keys.insert(at, unit);
    }

    /// Takes a unit out of its hex's list: it is moving, or it has left the table.
    pub fn unlist(&mut self, unit: usize) {
        let keys = &mut self.in_hex[cell(&self.setting.map, self.units[unit].hex)];
        keys.retain(|&k| k != unit);
    }

    /// The side holding a hex, if any.
    pub fn holder(&self, hex: Hex) -> Option<Side> {
        self.troops_in(hex).next().map(|(_, u)| u.side)
    }

    /// The hexside the troops in a hex face (they all face the same way).
    pub fn hex_facing(&self, hex: Hex) -> Option<Facing> {
        self.troops_in(hex).next().map(|(_, u)| u.facing)
    }

    pub fn is_standing(&self, hex: Hex) -> bool {
        self.standing.contains(&hex)
    }

    /// Whether a unit is on the table and the first (by key) in its hex: orders given to a
    /// hex are put down to it (see `describe_order`).
    fn leads_its_hex(&self, unit: usize) -> bool {
        self.keys_in(self.units[unit].hex).first() == Some(&unit)
    }

    /// A Standing marker leaves with the last troops out of its hex.
    pub fn lift_marker_if_empty(&mut self, hex: Hex) {
        if self.holder(hex).is_none() {
            self.standing.retain(|h| *h != hex);
        }
    }

    /// The side whose march or musketry it is.
    pub fn phasing(&self) -> Option<Side> {
        match self.phase {
            Phase::March(s) | Phase::Musketry(s) => Some(s),
            Phase::Setup | Phase::Over => None,
        }
    }

    pub fn side_name(&self, side: Side) -> &str {
        &self.setting.side_names[side.index()]
    }

    fn order_of(&self, action: Action) -> Result<Order, Illegal> {
        Order::unpack(action)
            .filter(|o| o.unit().is_none_or(|i| i < self.units.len()))
            .ok_or_else(|| Illegal::new(format!("{action:?} is not a Stand and Die action")))
    }

    /// Why an order may not be given now, if it may not.
    fn check_order(&self, order: Order) -> Result<(), Illegal> {
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
    fn begin_turn(&mut self, dice: &mut dyn Dice, log: &mut Log) {
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

    /// Carries out an order already checked, writing its events to `log`.
    fn perform(&mut self, order: Order, dice: &mut dyn Dice, log: &mut Log) {
        match order {
            Order::End => self.end_phase(dice, log),
            Order::Move { unit, to } => self.march(unit, to, log),
            Order::Face { unit, facing } => self.face(unit, facing, log),
            Order::Stand { hex } => self.set_marker(hex, true, log),
            Order::FallBack { hex } => self.set_marker(hex, false, log),
            Order::Fire { from, at } => self.fire(from, at, dice, log),
        }
    }

    fn phase_words(&self) -> String {
        match self.phase {
            Phase::Setup => "setting up".into(),
            Phase::March(s) => format!("{} march", s.name()),
            Phase::Musketry(s) => format!("{} musketry", s.name()),
            Phase::Over => "game over".into(),
        }
    }

    fn unit_view(&self, key: usize, u: &Unit) -> UnitView {
        let mut flags: Vec<Word> = vec![if self.is_standing(u.hex) {
            "standing".into()
        } else {
            "falling back".into()
        }];
        if u.marched > 0 {
            flags.push("moved".into());
        }
        if self.fired_from.contains(&u.hex) && self.phasing() == Some(u.side) {
            flags.push("fired".into());
        }
        let artillery = u.arm == Arm::Artillery;
        UnitView {
            id: u.id.clone(),
            key: key as u32,
            name: u.name.clone(),
            side: u.side,
            arm: u.arm.name().into(),
            class: None,
            symbol: u.arm.symbol(),
            place: Place::Hex(u.hex),
            facing: Some(u.facing),
            hits: if artillery { u.gun_casualties } else { 0 },
            max_hits: if artillery { GUN_CASUALTIES } else { 0 },
            te: 0,
            max_te: 0,
            strength: Some(u.figures),
            elements: Some(Elements {
                kind: ElementKind::Figures,
                now: u.figures,
                full: u.starting_figures,
            }),
            formation: None,
            cone: Vec::new(),
            flags,
            commander: None,
        }
    }

    /// What the phasing side is deciding, naming the side.
    fn prompt(&self) -> Option<String> {
        Some(match self.phase {
            Phase::March(s) => format!(
                "{}: march (move, turn, mark hexes Standing or to fall back)",
                s.title()
            ),
            Phase::Musketry(s) => format!("{}: musketry (each hex fires once)", s.title()),
            Phase::Setup | Phase::Over => return None,
        })
    }

    /// What an order is, for bots and clients. Orders given to a hex are put down to the
    /// first unit in it.
    fn describe_order(&self, order: Order) -> ActionInfo {
        let first_in = |hex: Hex| self.troops_in(hex).next().map(|(i, _)| i as u32);
        let by_hex = |info: ActionInfo, hex: Hex| match first_in(hex) {
            Some(k) => info.unit(k),
            None => info,
        };
        match order {
            Order::End => ActionInfo::end(),
            Order::Move { unit, to } => ActionInfo::new("move", ActionKind::Move)
                .unit(unit as u32)
                .at(to),
            Order::Face { unit, facing } => ActionInfo::new("face", ActionKind::Turn)
                .unit(unit as u32)
                .facing(facing),
            Order::Stand { hex } => by_hex(ActionInfo::new("stand", ActionKind::Other), hex),
            Order::FallBack { hex } => by_hex(ActionInfo::new("fall-back", ActionKind::Other), hex),
            Order::Fire { from, at } => {
                by_hex(ActionInfo::new("fire", ActionKind::Attack).at(at), from)
            }
        }
    }
}

impl Game for StandAndDieGame {
    fn ruleset(&self) -> &'static str {
        crate::ID
    }

    fn start(&mut self, dice: &mut dyn Dice) -> Vec<Event> {
        let mut log = Log::new();
        if self.phase == Phase::Setup {
            self.begin_turn(dice, &mut log);
        }
        log.into_events()
    }

    fn to_decide(&self) -> Option<Side> {
        self.phasing()
    }

    fn legal_actions_into(&self, out: &mut Vec<Action>) {
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

    fn unit_actions(&self, unit: u32, out: &mut Vec<Action>) {
        out.clear();
        let unit = unit as usize;
        if unit < self.units.len() && Some(self.units[unit].side) == self.phasing() {
            self.steps_and_turns(unit, out);
            self.hex_orders(unit, out);
        }
    }

    fn actors(&self) -> Vec<u32> {
        let mut orders = Vec::new();
        (0..self.units.len() as u32)
            .filter(|&unit| {
                self.unit_actions(unit, &mut orders);
                !orders.is_empty()
            })
            .collect()
    }

    fn describe(&self, action: Action) -> ActionInfo {
        match self.order_of(action) {
            Ok(order) => self.describe_order(order),
            Err(_) => ActionInfo::new("?", ActionKind::Other),
        }
    }

    fn check(&self, action: Action) -> Result<(), Illegal> {
        let order = self.order_of(action)?;
        self.check_order(order)
    }

    fn play_unchecked(&mut self, action: Action, dice: &mut dyn Dice, log: &mut Log) {
        let order = Order::unpack(action).expect("an action from the legal list");
        self.perform(order, dice, log);
    }

    /// Fire's casualties are taken at once; the fall back it causes waits for the end of the
    /// musketry, and is made here at once for the hex fired on (`Game::preview`).
    fn preview(&mut self, action: Action, dice: &mut dyn Dice) -> Result<Vec<Event>, Illegal> {
        let order = self.order_of(action)?;
        self.check_order(order)?;
        let mut log = Log::new();
        self.perform(order, dice, &mut log);
        if let (Order::Fire { at, .. }, Phase::Musketry(side)) = (order, self.phase) {
            if let Some(fired) = self.fired_on.iter().find(|f| f.hex == at).cloned() {
                self.give_ground(&fired, side.other(), &mut log);
            }
        }
        Ok(log.into_events())
    }

    fn notation(&self, action: Action) -> String {
        match self.order_of(action) {
            Ok(order) => self.write_order(order),
            Err(e) => e.0,
        }
    }

    fn parse_action(&self, text: &str) -> Result<Action, Illegal> {
        self.read_order(text).map(Order::pack)
    }

    fn turn(&self) -> u32 {
        self.turn
    }

    fn phasing(&self) -> Option<Side> {
        Self::phasing(self)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    fn view(&self, side: Option<Side>) -> View {
        // Nothing is hidden in Stand and Die: every viewer sees the whole table.
        View {
            ruleset: crate::ID.into(),
            scenario: self.setting.name.clone(),
            title: self.setting.title.clone(),
            viewer: side,
            turn: self.turn,
            turn_limit: self.setting.turn_limit,
            phase: self.phase_words(),
            phasing: self.phasing(),
            to_decide: self.phasing(),
            prompt: self.prompt(),
            map: self.setting.map_view.clone(),
            sides: Side::BOTH
                .into_iter()
                .map(|s| SideView {
                    side: s,
                    name: self.setting.side_names[s.index()].clone(),
                    losses_percent: if self.starting[s.index()] == 0 {
                        0.0
                    } else {
                        100.0 * self.inflicted[s.other().index()] as f64
                            / self.starting[s.index()] as f64
                    },
                    break_point: None,
                    score: self.score(s),
                    commanders: Vec::new(),
                })
                .collect(),
            units: self
                .units
                .iter()
                .enumerate()
                .filter(|(_, u)| u.on_table())
                .map(|(k, u)| self.unit_view(k, u))
                .collect(),
            markers: Vec::new(),
            features: self
                .setting
                .boats
                .iter()
                .map(|&hex| FeatureView {
                    kind: "boats".into(),
                    place: Place::Hex(hex),
                    text: "boats are moored here: troops may cross the water".into(),
                    side: None,
                })
                .collect(),
            objectives: self
                .setting
                .objectives
                .iter()
                .map(|o| ObjectiveView {
                    place: Place::Hex(o.hex),
                    name: ObjectiveView::goal_name(&o.name, o.goal_of, &self.setting.side_names),
                    points: o.points,
                    holder: self.holder(o.hex),
                    goal_of: o.goal_of,
                    decisive: [false; 2],
                })
                .collect(),
            outcome: self.outcome.clone(),
            standing: self.outcome.is_none().then(|| self.standing()),
        }
    }

    fn clone_game(&self) -> Box<dyn Game> {
        Box::new(self.clone())
    }

    /// The hexes the unit can still march to this turn, a hex of march each.
    fn reach(&self, unit: &str) -> Vec<Reach> {
        let Some(i) = self.units.iter().position(|u| u.id == unit) else {
            return Vec::new();
        };
        if self.phase != Phase::March(self.units[i].side) {
            return Vec::new();
        }
        reach_by_steps(self.clone(), self.units[i].hex, |g: &StandAndDieGame| {
            Facing::ALL
                .into_iter()
                .map(|f| step(g.units[i].hex, f))
                .filter(|&to| g.check_order(Order::Move { unit: i, to }).is_ok())
                .map(|to| {
                    let mut after = g.clone();
                    after.march(i, to, &mut Log::silent());
                    (to, after)
                })
                .collect()
        })
    }

    fn check_invariants(&self) -> Result<(), String> {
        let table = self.table();
        for u in self.units.iter().filter(|u| u.on_table()) {
            if !self.map().contains(u.hex) {
                return Err(format!("{} is off the map at {}", u.label(), label(u.hex)));
            }
            if !self.enterable(u.hex) {
                return Err(format!("{} is in the river at {}", u.label(), label(u.hex)));
            }
            if u.marched > march_allowance(u.arm) {
                return Err(format!("{} marched {} hexes", u.label(), u.marched));
            }
        }
        for u in &self.units {
            if u.gun_casualties >= GUN_CASUALTIES
                || (u.arm != Arm::Artillery && u.gun_casualties > 0)
            {
                return Err(format!(
                    "{} has {} gun casualties",
                    u.label(),
                    u.gun_casualties
                ));
            }
            if !u.on_table() && u.gun_casualties > 0 {
                return Err(format!("destroyed {} still has gun casualties", u.label()));
            }
        }
        for (c, keys) in self.in_hex.iter().enumerate() {
            let listed: Vec<usize> = (0..self.units.len())
                .filter(|&i| self.units[i].on_table() && cell(self.map(), self.units[i].hex) == c)
                .collect();
            if *keys != listed {
                return Err(format!(
                    "cell {c} lists units {keys:?}, but {listed:?} are there"
                ));
            }
        }
        for keys in self.in_hex.iter().filter(|keys| !keys.is_empty()) {
            let troops: Vec<&Unit> = keys.iter().map(|&i| &self.units[i]).collect();
            let hex = troops[0].hex;
            if troops.iter().any(|u| u.side != troops[0].side) {
                return Err(format!("both sides are in {}", label(hex)));
            }
            if troops.iter().any(|u| u.facing != troops[0].facing) {
                return Err(format!("the troops in {} face different ways", label(hex)));
            }
            if let Some(problem) = marching::stacking_problem(troops, &table) {
                return Err(format!("{problem} in {}", label(hex)));
            }
        }
        if let Some(h) = self.standing.iter().find(|h| self.holder(**h).is_none()) {
            return Err(format!("empty hex {} is marked Standing", label(*h)));
        }
        for side in Side::BOTH {
            let left: u32 = self
                .units
                .iter()
                .filter(|u| u.side == side)
                .map(Unit::casualties_to_destroy)
                .sum();
            if left + self.inflicted[side.other().index()] != self.starting[side.index()] {
                return Err(format!(
                    "{side} casualties do not add up: {left} left + {} inflicted != {} at start",
                    self.inflicted[side.other().index()],
                    self.starting[side.index()]
                ));
            }
        }
        if self.outcome.is_some() != (self.phase == Phase::Over) {
            return Err("the outcome and the phase disagree".into());
        }
        Ok(())
    }
}

/// The cell of a hex on the map, in the game's per-cell arrays.
fn cell(map: &Map, hex: Hex) -> usize {
    map.index(hex).expect("units on the table stand on the map")
}
