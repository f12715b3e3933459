//! The game in play: units, commanders, the turn sequence (Turn Progression: initiative,
//! move, ranged attack, close combat, remove units) and the engine's `Game` API.

use crate::action::Order;
use crate::terrain::Going;
use crate::tiles::{self, Heading};
use crate::unit_data::{Kind, UnitData};
use crate::{rule, ID};
use std::sync::Arc;
use volley_core::geometry::{label, parse_label};
use volley_core::map::{Grid, Map, MapView};
use volley_core::view::View;
use volley_core::{
    reach_by_steps, Action, ActionInfo, Dice, Event, Game, Hex, Illegal, Name, Outcome, Reach, Side,
};

/// How far (in tiles) a commander rides to attach to another unit, or to escape when the unit
/// it is with is destroyed. The text gives commanders no movement; 4 is a cavalry move.
pub const COMMANDER_REACH: u32 = 4;

/// Firing into forest or a built-up area (Infantry Ranged Attack 4, Terrain: Forest).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CoverFire {
    /// Only the first tile of it can be seen and hit, from any range.
    OneDeep,
    /// Only from an adjacent tile.
    Adjacent,
}

/// What the scenario fixed; shared by every copy of the game.
#[derive(Debug)]
pub struct Setup {
    pub name: Name,
    pub title: Name,
    pub turn_limit: u32,
    pub map: Map,
    /// The map as views carry it, made once.
    pub map_view: Arc<MapView>,
    pub side_names: [Name; 2],
    pub data: UnitData,
    /// Who plays first in game-turn 1 when the scenario says; `None`: the initiative roll.
    pub first_player: Option<Side>,
    pub cover_fire: CoverFire,
    pub objectives: Vec<Objective>,
}

#[derive(Clone, Debug)]
pub struct Objective {
    pub tile: Hex,
    pub name: Name,
    pub points: i32,
}

/// What a unit has done in its side's current player-turn.
#[derive(Clone, Debug, Default)]
pub struct TurnState {
    /// It has begun its move (counted against the initiative roll).
    pub moving: bool,
    /// Its move is over (Movement Rules 2: once per turn).
    pub done: bool,
    /// Tiles moved.
    pub tiles: u8,
    pub going: Going,
    pub fired: bool,
    pub attacked: bool,
    /// The enemy it moved into contact with and must attack (Close Combat 1).
    pub contact: Option<usize>,
    /// The enemies it withdrew from, which it may not attack (Close Combat 3).
    pub withdrew_from: Vec<usize>,
}

#[derive(Clone, Debug)]
pub struct Unit {
    pub id: Name,
    pub name: Name,
    pub side: Side,
    pub kind: Kind,
    pub tile: Hex,
    pub heading: Heading,
    /// Strength points left; 0 once removed from play.
    pub strength: u8,
    pub max_strength: u8,
    pub turn: TurnState,
    /// Enemies that attacked it in close combat since its own last player-turn.
    pub attacked_by: Vec<usize>,
    /// Game-turn and tile of its last ranged attack (artillery: same tile as last turn).
    pub last_fire: Option<(u32, Hex)>,
}

impl Unit {
    pub fn alive(&self) -> bool {
        self.strength > 0
    }
}

#[derive(Clone, Debug)]
pub struct Commander {
    pub id: Name,
    pub name: Name,
    pub side: Side,
    /// The unit it is attached to; `None` once captured.
    pub with: Option<usize>,
    pub moved: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Movement,
    Ranged,
    CloseCombat,
    /// Attackers may occupy tiles their enemies left (Close Combat 5).
    Advance,
}

/// Hits scored on a target by one attacker, waiting for the defender's roll.
#[derive(Clone, Debug)]
pub struct Scored {
    pub attacker: usize,
    pub target: usize,
    pub hits: u8,
}

#[derive(Clone, Debug)]
pub struct GridGame {
    pub setup: Arc<Setup>,
    pub units: Vec<Unit>,
    pub commanders: Vec<Commander>,
    pub started: bool,
    pub turn: u32,
    /// This game-turn's player order.
    pub order: [Side; 2],
    /// 0 or 1: which of `order` is playing.
    pub player_turn: usize,
    pub phase: Phase,
    /// This game-turn's initiative rolls, by side index: units each side may move.
    pub rolls: [u32; 2],
    pub moved_units: u32,
    /// The unit whose move is under way.
    pub mover: Option<usize>,
    /// A unit that moved next to two or more enemies and must choose which to face.
    pub facing_choice: Option<usize>,
    /// An infantry attack on cavalry, waiting for the cavalry's choice: (attacker, cavalry).
    pub evade: Option<(usize, usize)>,
    pub scored: Vec<Scored>,
    /// This close combat phase's attacks: attacker, defender, defender's tile.
    pub attacks: Vec<(usize, usize, Hex)>,
    /// Tiles attackers may occupy now.
    pub advances: Vec<(usize, Hex)>,
    pub outcome: Option<Outcome>,
}

impl GridGame {
    pub fn grid(&self) -> Grid {
        self.setup.map.grid
    }

    pub fn map(&self) -> &Map {
        &self.setup.map
    }

    pub fn phasing(&self) -> Side {
        self.order[self.player_turn]
    }

    pub fn unit(&self, index: usize) -> Result<&Unit, Illegal> {
        self.units
            .get(index)
            .filter(|u| u.alive())
            .ok_or_else(|| Illegal::new("no such unit in play"))
    }

    /// A unit of the side to play, in play.
    pub fn own_unit(&self, index: usize) -> Result<&Unit, Illegal> {
        let u = self.unit(index)?;
        if u.side != self.phasing() {
            return Err(Illegal::new(format!(
                "{} is {}'s; it is {}'s player-turn",
                u.id,
                u.side,
                self.phasing()
            )));
        }
        Ok(u)
    }

    /// The unit in a tile, other than `except` (a unit passing through shares a tile).
    pub fn occupant(&self, tile: Hex, except: Option<usize>) -> Option<usize> {
        self.units
            .iter()
            .enumerate()
            .find(|(i, u)| u.alive() && u.tile == tile && Some(*i) != except)
            .map(|(i, _)| i)
    }

    pub fn enemy_at(&self, tile: Hex, side: Side) -> Option<usize> {
        self.occupant(tile, None)
            .filter(|i| self.units[*i].side != side)
    }

    /// Enemy units sharing a side with `tile`, with the side each lies across.
    pub fn enemies_beside(&self, tile: Hex, side: Side) -> Vec<(Heading, usize)> {
        tiles::neighbours(self.map(), tile)
            .into_iter()
            .filter_map(|(h, t)| self.enemy_at(t, side).map(|e| (h, e)))
            .collect()
    }

    /// The enemies a unit is engaged with: those that attacked it in close combat in the
    /// opponent's last player-turn and are still beside it (Close Combat 3).
    pub fn engaged_with(&self, index: usize) -> Vec<usize> {
        let u = &self.units[index];
        u.attacked_by
            .iter()
            .copied()
            .filter(|e| {
                let e = &self.units[*e];
                e.alive() && tiles::adjacent(self.grid(), u.tile, e.tile)
            })
            .collect()
    }

    /// Whether a friendly commander is attached to the unit or to a unit beside it (the +1 of
    /// every attack).
    pub fn commander_near(&self, index: usize) -> Option<&Commander> {
        let u = &self.units[index];
        self.commanders.iter().find(|c| {
            c.with.is_some_and(|w| {
                let host = &self.units[w];
                host.side == u.side
                    && (w == index || tiles::adjacent(self.grid(), host.tile, u.tile))
            })
        })
    }

    pub fn allowance(&self, index: usize, going: Going) -> u8 {
        let u = &self.units[index];
        going.allowance(u.kind, self.setup.data.profile(u.kind).movement)
    }

    pub fn heading_name(&self, heading: Heading) -> &'static str {
        heading.name(self.grid())
    }

    /// Everything the side to decide might do now, before the rules are checked.
    fn candidates(&self) -> Vec<Order> {
        let mut out = Vec::new();
        if let Some((_, cavalry)) = self.evade {
            let tile = self.units[cavalry].tile;
            out.push(Order::Stand { unit: cavalry });
            for (_, to) in tiles::neighbours(self.map(), tile) {
                out.push(Order::Withdraw { unit: cavalry, to });
            }
            return out;
        }
        let side = self.phasing();
        for (i, u) in self.units.iter().enumerate() {
            if !u.alive() || u.side != side {
                continue;
            }
            match self.phase {
                Phase::Movement => {
                    for (_, to) in tiles::neighbours(self.map(), u.tile) {
                        out.push(Order::Move { unit: i, to });
                        out.push(Order::Withdraw { unit: i, to });
                    }
                    for heading in Heading::all(self.grid()) {
                        out.push(Order::Face { unit: i, heading });
                    }
                }
                Phase::Ranged => {
                    for e in self.units.iter().filter(|e| e.alive() && e.side != side) {
                        out.push(Order::Fire {
                            unit: i,
                            at: e.tile,
                        });
                    }
                }
                Phase::CloseCombat => {
                    for (_, e) in self.enemies_beside(u.tile, side) {
                        out.push(Order::Attack {
                            unit: i,
                            at: self.units[e].tile,
                        });
                    }
                }
                Phase::Advance => {}
            }
        }
        if self.phase == Phase::Movement {
            for (c, cmd) in self.commanders.iter().enumerate() {
                if cmd.side == side && cmd.with.is_some() {
                    for (i, u) in self.units.iter().enumerate() {
                        if u.alive() && u.side == side {
                            out.push(Order::Attach {
                                commander: c,
                                unit: i,
                            });
                        }
                    }
                }
            }
        }
        if self.phase == Phase::Advance {
            out.extend(
                self.advances
                    .iter()
                    .map(|&(unit, to)| Order::Occupy { unit, to }),
            );
        }
        out.push(Order::End);
        out
    }

    /// Checks an order against the rules; `Err` says which rule refuses it.
    pub fn check(&self, order: Order) -> Result<(), Illegal> {
        if !self.started {
            return Err(Illegal::new("the game has not started"));
        }
        if let Some(o) = &self.outcome {
            return Err(Illegal::new(format!("the game is over: {}", o.reason)));
        }
        if let Some((a, d)) = self.evade {
            if !matches!(order, Order::Stand { .. } | Order::Withdraw { .. }) {
                return Err(Illegal::new(format!(
                    "{} must first choose to withdraw from {}'s attack or stand (Close Combat 4)",
                    self.units[d].id, self.units[a].id
                )));
            }
        }
        match order {
            Order::Move { unit, to } => self.check_move(unit, to),
            Order::Face { unit, heading } => self.check_face(unit, heading),
            Order::Withdraw { unit, to } => self.check_withdraw(unit, to),
            Order::Stand { unit } => self.check_stand(unit),
            Order::Attach { commander, unit } => self.check_attach(commander, unit),
            Order::Fire { unit, at } => self.check_fire(unit, at),
            Order::Attack { unit, at } => self.check_attack(unit, at),
            Order::Occupy { unit, to } => self.check_occupy(unit, to),
            Order::End => self.check_end(),
        }
    }

    fn check_end(&self) -> Result<(), Illegal> {
        match self.phase {
            Phase::Movement => self.check_movement_may_end(),
            Phase::CloseCombat => self.check_close_combat_may_end(),
            Phase::Ranged | Phase::Advance => Ok(()),
        }
    }

    fn perform(&mut self, order: Order, dice: &mut dyn Dice) -> Vec<Event> {
        match order {
            Order::Move { unit, to } => self.do_move(unit, to),
            Order::Face { unit, heading } => self.do_face(unit, heading),
            Order::Withdraw { unit, to } => self.do_withdraw(unit, to),
            Order::Stand { unit } => self.do_stand(unit, dice),
            Order::Attach { commander, unit } => self.do_attach(commander, unit),
            Order::Fire { unit, at } => self.do_fire(unit, at, dice),
            Order::Attack { unit, at } => self.do_attack(unit, at, dice),
            Order::Occupy { unit, to } => self.do_occupy(unit, to),
            Order::End => self.end_phase(dice),
        }
    }

    /// Whether the side to decide has anything to do but end the phase.
    fn has_choice(&self) -> bool {
        self.candidates()
            .into_iter()
            .any(|o| o != Order::End && self.check(o).is_ok())
    }

    /// Phases advance by themselves when the only thing left to do is to end them.
    fn advance_phases(&mut self, dice: &mut dyn Dice) -> Vec<Event> {
        let mut events = Vec::new();
        while self.outcome.is_none()
            && self.evade.is_none()
            && self.facing_choice.is_none()
            && !self.has_choice()
        {
            events.extend(self.end_phase(dice));
        }
        events
    }

    fn end_phase(&mut self, dice: &mut dyn Dice) -> Vec<Event> {
        let mut events = Vec::new();
        match self.phase {
            Phase::Movement => {
                self.finish_move();
                self.phase = Phase::Ranged;
            }
            Phase::Ranged => {
                events.extend(self.resolve_hits(dice));
                self.phase = Phase::CloseCombat;
            }
            Phase::CloseCombat => {
                events.extend(self.resolve_hits(dice));
                self.find_advances();
                self.phase = Phase::Advance;
            }
            Phase::Advance => {
                self.advances.clear();
                events.extend(self.end_player_turn(dice));
                return events;
            }
        }
        if self.outcome.is_none() {
            events.push(self.phase_event());
        }
        events
    }

    fn end_player_turn(&mut self, dice: &mut dyn Dice) -> Vec<Event> {
        let side = self.phasing();
        // Engagement lasts until the end of the engaged side's own next player-turn.
        for u in self.units.iter_mut().filter(|u| u.side == side) {
            u.attacked_by.clear();
        }
        let mut events = Vec::new();
        if self.player_turn == 0 {
            self.player_turn = 1;
        } else if self.turn >= self.setup.turn_limit {
            self.outcome = Some(self.final_outcome());
            events.push(self.outcome_event());
            return events;
        } else {
            self.turn += 1;
            events.extend(self.roll_initiative(dice));
        }
        events.extend(self.begin_player_turn());
        events
    }

    pub fn begin_player_turn(&mut self) -> Vec<Event> {
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
        vec![self.phase_event()]
    }

    pub fn phase_name(&self) -> String {
        if self.outcome.is_some() {
            return "game over".into();
        }
        let side = self.phasing();
        match self.phase {
            Phase::Movement => format!(
                "{side} movement ({} of {} units moved)",
                self.moved_units,
                self.rolls[side.index()]
            ),
            Phase::Ranged => format!("{side} ranged attacks"),
            Phase::CloseCombat => format!("{side} close combat"),
            Phase::Advance => format!("{side} advance after close combat"),
        }
    }

    fn phase_event(&self) -> Event {
        Event::new(
            "phase",
            rule("Turn Progression"),
            format!("Game-turn {}: {}.", self.turn, self.phase_name()),
        )
        .side(self.phasing())
    }

    pub fn unit_index(&self, id: &str) -> Option<usize> {
        self.units.iter().position(|u| u.id == id)
    }

    fn unit_arg(&self, text: Option<&str>) -> Result<usize, Illegal> {
        let id = text.ok_or_else(|| Illegal::new("expected a unit id"))?;
        self.unit_index(id)
            .ok_or_else(|| Illegal::new(format!("no unit \"{id}\" in this game")))
    }

    fn tile_arg(text: Option<&str>) -> Result<Hex, Illegal> {
        let t = text.ok_or_else(|| Illegal::new("expected a tile like 0405"))?;
        parse_label(t).ok_or_else(|| Illegal::new(format!("\"{t}\" is not a tile like 0405")))
    }
}

impl Game for GridGame {
    fn ruleset(&self) -> &'static str {
        ID
    }

    fn start(&mut self, dice: &mut dyn Dice) -> Vec<Event> {
        if self.started {
            return Vec::new();
        }
        self.started = true;
        let mut events = self.roll_initiative(dice);
        events.extend(self.begin_player_turn());
        events.extend(self.advance_phases(dice));
        events
    }

    fn to_decide(&self) -> Option<Side> {
        if !self.started || self.outcome.is_some() {
            return None;
        }
        match self.evade {
            Some((_, cavalry)) => Some(self.units[cavalry].side),
            None => Some(self.phasing()),
        }
    }

    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        if self.to_decide().is_none() {
            return;
        }
        out.extend(
            self.candidates()
                .into_iter()
                .filter(|o| self.check(*o).is_ok())
                .map(Order::pack),
        );
    }

    fn describe(&self, action: Action) -> ActionInfo {
        let grid = self.grid();
        match Order::unpack(action, |i| Heading::from_index(grid, i)) {
            Some(order) => self.describe_order(order),
            None => ActionInfo::new("?", volley_core::ActionKind::Other),
        }
    }

    fn apply(&mut self, action: Action, dice: &mut dyn Dice) -> Result<Vec<Event>, Illegal> {
        let grid = self.grid();
        let order = Order::unpack(action, |i| Heading::from_index(grid, i))
            .ok_or_else(|| Illegal::new("not an order of this game"))?;
        self.check(order)?;
        let mut events = self.perform(order, dice);
        events.extend(self.advance_phases(dice));
        Ok(events)
    }

    fn notation(&self, action: Action) -> String {
        let grid = self.grid();
        let id = |i: usize| self.units.get(i).map_or("?", |u| u.id.as_str());
        match Order::unpack(action, |i| Heading::from_index(grid, i)) {
            Some(Order::Move { unit, to }) => format!("move {} {}", id(unit), label(to)),
            Some(Order::Face { unit, heading }) => {
                format!("face {} {}", id(unit), heading.name(grid))
            }
            Some(Order::Withdraw { unit, to }) => format!("withdraw {} {}", id(unit), label(to)),
            Some(Order::Stand { unit }) => format!("stand {}", id(unit)),
            Some(Order::Attach { commander, unit }) => format!(
                "attach {} {}",
                self.commanders
                    .get(commander)
                    .map_or("?", |c| c.id.as_str()),
                id(unit)
            ),
            Some(Order::Fire { unit, at }) => format!("fire {} {}", id(unit), label(at)),
            Some(Order::Attack { unit, at }) => format!("attack {} {}", id(unit), label(at)),
            Some(Order::Occupy { unit, to }) => format!("occupy {} {}", id(unit), label(to)),
            Some(Order::End) => "end".into(),
            None => format!("unknown action {:#x}", action.0),
        }
    }

    fn parse_action(&self, text: &str) -> Result<Action, Illegal> {
        let mut words = text.split_whitespace();
        let verb = words.next().unwrap_or("").to_ascii_lowercase();
        let (a, b) = (words.next(), words.next());
        if words.next().is_some() {
            return Err(Illegal::new(format!("too many words in \"{text}\"")));
        }
        let order = match verb.as_str() {
            "end" if a.is_none() => Order::End,
            "move" => Order::Move {
                unit: self.unit_arg(a)?,
                to: Self::tile_arg(b)?,
            },
            "withdraw" => Order::Withdraw {
                unit: self.unit_arg(a)?,
                to: Self::tile_arg(b)?,
            },
            "fire" => Order::Fire {
                unit: self.unit_arg(a)?,
                at: Self::tile_arg(b)?,
            },
            "attack" => Order::Attack {
                unit: self.unit_arg(a)?,
                at: Self::tile_arg(b)?,
            },
            "occupy" => Order::Occupy {
                unit: self.unit_arg(a)?,
                to: Self::tile_arg(b)?,
            },
            "face" => {
                let unit = self.unit_arg(a)?;
                let t = b.unwrap_or("");
                let heading = Heading::parse(self.grid(), t).ok_or_else(|| {
                    Illegal::new(format!(
                        "\"{t}\" is not a side to face (expected one of {})",
                        Heading::names(self.grid())
                    ))
                })?;
                Order::Face { unit, heading }
            }
            "stand" if b.is_none() => Order::Stand {
                unit: self.unit_arg(a)?,
            },
            "attach" => {
                let c = a.unwrap_or("");
                let commander = self
                    .commanders
                    .iter()
                    .position(|x| x.id == c)
                    .ok_or_else(|| Illegal::new(format!("no commander \"{c}\" in this game")))?;
                Order::Attach {
                    commander,
                    unit: self.unit_arg(b)?,
                }
            }
            _ => {
                return Err(Illegal::new(format!(
                    "cannot read \"{text}\" (orders: move U TILE, face U SIDE, withdraw U TILE, stand U, attach C U, fire U TILE, attack U TILE, occupy U TILE, end)"
                )))
            }
        };
        Ok(order.pack())
    }

    fn turn(&self) -> u32 {
        self.turn
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    fn view(&self, side: Option<Side>) -> View {
        self.make_view(side)
    }

    fn clone_game(&self) -> Box<dyn Game> {
        Box::new(self.clone())
    }

    /// The tiles the unit can still move to this turn, one tile a step (Movement Rules 1).
    fn reach(&self, unit: &str) -> Vec<Reach> {
        let Some(i) = self.unit_index(unit) else {
            return Vec::new();
        };
        if self.to_decide() != Some(self.units[i].side) {
            return Vec::new();
        }
        reach_by_steps(self.clone(), self.units[i].tile, |g: &GridGame| {
            tiles::neighbours(&g.setup.map, g.units[i].tile)
                .into_iter()
                .filter(|&(_, to)| g.check(Order::Move { unit: i, to }).is_ok())
                .map(|(_, to)| {
                    let mut after = g.clone();
                    after.do_move(i, to);
                    (to, after)
                })
                .collect()
        })
    }

    fn check_invariants(&self) -> Result<(), String> {
        let mut seen: Vec<(Hex, usize)> = Vec::new();
        for (i, u) in self.units.iter().enumerate() {
            if u.strength > u.max_strength {
                return Err(format!(
                    "{} has {} strength points of {}",
                    u.id, u.strength, u.max_strength
                ));
            }
            if !u.alive() {
                continue;
            }
            if !self.map().contains(u.tile) {
                return Err(format!("{} is off the map at {}", u.id, label(u.tile)));
            }
            if let Err(why) = crate::terrain::entry(u.kind, self.map().terrain(u.tile)) {
                return Err(format!("{} stands where {why}", u.id));
            }
            if let Some(&(_, j)) = seen.iter().find(|(t, _)| *t == u.tile) {
                // Only cavalry passing through a friend may share a tile, mid-move.
                let passing = |k: usize| {
                    self.mover == Some(k)
                        && self.units[k].kind == Kind::Cavalry
                        && self.units[j].side == u.side
                };
                if !(passing(i) || passing(j)) {
                    return Err(format!(
                        "{} and {} share tile {}",
                        self.units[j].id,
                        u.id,
                        label(u.tile)
                    ));
                }
            }
            seen.push((u.tile, i));
        }
        for c in &self.commanders {
            if let Some(w) = c.with {
                let host = self.units.get(w).ok_or("commander with no unit")?;
                if !host.alive() || host.side != c.side {
                    return Err(format!(
                        "commander {} is with {}, which is not a friendly unit in play",
                        c.id, host.id
                    ));
                }
            }
        }
        Ok(())
    }
}
