//! The game in play: units, commanders, the turn sequence (Turn Progression: initiative,
//! move, ranged attack, close combat, remove units) and the engine's `Game` API.

use crate::action::Order;
use crate::placement::Placing;
use crate::scenario::Deployment;
use crate::terrain::{Going, TerrainCost};
use crate::tiles::{self, Aspect, Beside, Heading, Neighbourhood, Surroundings};
use crate::unit_data::{Kind, Quality, UnitData};
use crate::{rule, ID};
use std::fmt;
use std::ops::ControlFlow;
use std::sync::Arc;
use volley_core::geometry::{label, parse_label};
use volley_core::map::{Cell, Grid, Map, MapView, Terrain};
use volley_core::view::View;
use volley_core::{
    reach_by_steps, Action, ActionInfo, Dice, Event, Game, Hex, Illegal, Log, Name, Outcome, Reach,
    Side,
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

/// What a unit engaged in close combat may do in its movement (Close Combat 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngagedUnits {
    /// It moves like any other unit; a step out of its tile is its withdrawal.
    Free,
    /// It may only stay (turn, attack) or withdraw one tile into a tile beside no enemy.
    Held,
}

/// Whether units in a forest, or on a hill above the viewer, must face it to be seen
/// (Terrain: Hill, Forest).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeSight {
    /// Seen from beyond the next tile only while facing the viewer.
    Facing,
    /// Seen whatever their facing.
    Any,
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
    pub engaged_units: EngagedUnits,
    pub edge_sight: EdgeSight,
    pub terrain_cost: TerrainCost,
    /// With option `placement = "roll"`, each side's set-up area: the game opens with the
    /// placement of units (Game Setup). `None`: units start where the scenario put them.
    pub placement: Option<[Deployment; 2]>,
    pub objectives: Vec<Objective>,
    pub neighbourhood: Neighbourhood,
}

#[derive(Clone, Debug)]
pub struct Objective {
    pub tile: Hex,
    pub name: Name,
    pub points: i32,
    /// The side whose goal it is, the only one that scores it (scenario `goals`); `None`:
    /// whichever side holds it.
    pub goal_of: Option<Side>,
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
    /// Elite, regular or inexperienced: which retreat/damage table it rolls on.
    pub quality: Quality,
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
    /// Units placed in turn at set-up (option `placement = "roll"`, Game Setup).
    Placement,
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

/// Why an attack's 2d6 is modified, in the words its event gives.
pub enum Modifier<'a> {
    Commander(&'a str),
    Aspect(Aspect),
    Downhill,
    Uphill,
    /// Close combat into forest or a built-up area.
    Into(Terrain),
    /// Artillery firing again into the tile it fired into last game-turn.
    SameTileAgain,
    /// A ranged target in cover.
    Cover(Terrain),
}

impl fmt::Display for Modifier<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Modifier::Commander(id) => write!(f, "commander {id}"),
            Modifier::Aspect(aspect) => write!(f, "{} attack", aspect.name()),
            Modifier::Downhill => f.write_str("attacking downhill"),
            Modifier::Uphill => f.write_str("attacking uphill"),
            Modifier::Into(ground) => write!(f, "attacking into {}", ground.name()),
            Modifier::SameTileAgain => f.write_str("fired into the same tile last turn"),
            Modifier::Cover(ground) => write!(f, "target in cover ({})", ground.name()),
        }
    }
}

/// The phase of a game in words: "red movement (1 of 4 units moved)".
pub struct PhaseName<'a>(&'a GridGame);

impl fmt::Display for PhaseName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = self.0;
        if g.outcome.is_some() {
            return f.write_str("game over");
        }
        let side = g.phasing();
        match g.phase {
            Phase::Placement => {
                let (placed, all) = g.placed_count(side);
                let s = if all == 1 { "" } else { "s" };
                write!(f, "{side} placement ({placed} of {all} unit{s} placed)")
            }
            Phase::Movement => {
                let all = g.rolls[side.index()];
                let s = if all == 1 { "" } else { "s" };
                write!(
                    f,
                    "{side} movement ({} of {all} unit{s} moved)",
                    g.moved_units
                )
            }
            Phase::Ranged => write!(f, "{side} ranged attacks"),
            Phase::CloseCombat => write!(f, "{side} close combat"),
            Phase::Advance => write!(f, "{side} advance after close combat"),
        }
    }
}

pub use volley_core::game::Refusal;

/// Where a listing of legal orders sends each one; `Break` ends the listing early, for a
/// caller that only asks whether there is one.
pub trait Take: FnMut(Order) -> ControlFlow<()> {}

impl<F: FnMut(Order) -> ControlFlow<()>> Take for F {}

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
    /// The placement under way at set-up, if any.
    pub placing: Option<Placing>,
    pub outcome: Option<Outcome>,
    /// Per map cell ([`Map::index`]), the keys of the units in play there, in key order (two
    /// only while cavalry passes through a friend). Who stands in a tile is asked for every
    /// tile a unit might step into; this answers without a walk over the armies. Kept by
    /// [`GridGame::relocate`] and [`GridGame::unlist`].
    in_tile: Vec<Vec<usize>>,
    /// The legal actions of the position as it stands, listed once when play reaches it:
    /// whether a phase ends by itself is decided by listing them anyway, and every decision
    /// asks for them. Kept by [`GridGame::advance_phases`], which ends every change.
    legal: Vec<Action>,
}

impl GridGame {
    /// A game set up and not yet started.
    pub fn new(setup: Setup, units: Vec<Unit>, commanders: Vec<Commander>) -> GridGame {
        let mut in_tile = vec![Vec::new(); setup.map.cell_count()];
        for (i, u) in units.iter().enumerate() {
            in_tile[cell(&setup.map, u.tile)].push(i);
        }
        GridGame {
            setup: Arc::new(setup),
            units,
            commanders,
            started: false,
            turn: 1,
            order: [Side::Red, Side::Blue],
            player_turn: 0,
            phase: Phase::Movement,
            rolls: [0, 0],
            moved_units: 0,
            mover: None,
            facing_choice: None,
            evade: None,
            scored: Vec::new(),
            attacks: Vec::new(),
            advances: Vec::new(),
            placing: None,
            outcome: None,
            in_tile,
            legal: Vec::new(),
        }
    }

    pub fn grid(&self) -> Grid {
        self.setup.map.grid
    }

    pub fn map(&self) -> &Map {
        &self.setup.map
    }

    pub fn phasing(&self) -> Side {
        self.order[self.player_turn]
    }

    pub fn unit<R: Refusal>(&self, index: usize) -> Result<&Unit, R> {
        self.units
            .get(index)
            .filter(|u| u.alive())
            .ok_or_else(|| R::because(|| "no such unit in play"))
    }

    /// A unit of the side to play, in play.
    pub fn own_unit<R: Refusal>(&self, index: usize) -> Result<&Unit, R> {
        let u = self.unit::<R>(index)?;
        if u.side != self.phasing() {
            return Err(R::because(|| {
                format!(
                    "{} is {}'s; it is {}'s player-turn",
                    u.id,
                    u.side,
                    self.phasing()
                )
            }));
        }
        Ok(u)
    }

    /// The unit in a tile, other than `except` (a unit passing through shares a tile).
    pub fn occupant(&self, tile: Hex, except: Option<usize>) -> Option<usize> {
        self.map()
            .index(tile)
            .and_then(|c| self.occupant_in(c, except))
    }

    /// The unit in a map cell, other than `except`.
    pub fn occupant_in(&self, cell: usize, except: Option<usize>) -> Option<usize> {
        self.in_tile[cell]
            .iter()
            .copied()
            .find(|&i| Some(i) != except)
    }

    /// The ground of a tile on the map and the tiles beside it.
    pub fn around(&self, tile: Hex) -> &Surroundings {
        self.setup.neighbourhood.of_cell(cell(self.map(), tile))
    }

    /// The tiles beside a tile on the map.
    pub fn beside(&self, tile: Hex) -> &[Beside] {
        &self.around(tile).beside
    }

    /// The terrain and elevation of a tile on the map.
    pub fn ground(&self, tile: Hex) -> Cell {
        self.around(tile).ground
    }

    /// Moves a unit in play to another tile of the map.
    pub fn relocate(&mut self, unit: usize, to: Hex) {
        self.unlist(unit);
        self.units[unit].tile = to;
        let keys = &mut self.in_tile[cell(&self.setup.map, to)];
        let at = keys.partition_point(|&k| k < unit);
        keys.insert(at, unit);
    }

    /// Takes a unit out of its tile's list: it is moving, or it has been removed from play.
    pub fn unlist(&mut self, unit: usize) {
        let keys = &mut self.in_tile[cell(&self.setup.map, self.units[unit].tile)];
        keys.retain(|&k| k != unit);
    }

    pub fn enemy_at(&self, tile: Hex, side: Side) -> Option<usize> {
        self.occupant(tile, None)
            .filter(|i| self.units[*i].side != side)
    }

    /// The enemy of `side` in a map cell, if any.
    pub fn enemy_in(&self, cell: usize, side: Side) -> Option<usize> {
        self.occupant_in(cell, None)
            .filter(|i| self.units[*i].side != side)
    }

    /// Enemy units sharing a side with `tile`, with the side each lies across.
    pub fn enemies_beside(
        &self,
        tile: Hex,
        side: Side,
    ) -> impl Iterator<Item = (Heading, usize)> + '_ {
        self.beside(tile)
            .iter()
            .filter_map(move |b| self.enemy_in(b.cell, side).map(|e| (b.heading, e)))
    }

    /// The enemies a unit is engaged with: those that attacked it in close combat in the
    /// opponent's last player-turn and are still beside it (Close Combat 3).
    pub fn engaged_with(&self, index: usize) -> impl Iterator<Item = usize> + '_ {
        let u = &self.units[index];
        u.attacked_by.iter().copied().filter(move |e| {
            let e = &self.units[*e];
            e.alive() && tiles::adjacent(self.grid(), u.tile, e.tile)
        })
    }

    /// Whether a unit is engaged with any enemy (see `engaged_with`).
    pub fn is_engaged(&self, index: usize) -> bool {
        self.engaged_with(index).next().is_some()
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
        going.allowance(
            u.kind,
            self.setup.data.profile(u.kind).movement,
            self.setup.terrain_cost,
        )
    }

    pub fn heading_name(&self, heading: Heading) -> &'static str {
        heading.name(self.grid())
    }

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
        if !u.alive() || Some(u.side) != self.to_decide() {
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
            Order::Withdraw { unit, to } => self.check_withdraw(unit, to),
            Order::Stand { unit } => self.check_stand(unit),
            Order::Attach { commander, unit } => self.check_attach(commander, unit),
            Order::Fire { unit, at } => self.check_fire(unit, at),
            Order::Attack { unit, at } => self.check_attack(unit, at),
            Order::Occupy { unit, to } => self.check_occupy(unit, to),
            Order::End => self.check_end(),
        }
    }

    fn check_end<R: Refusal>(&self) -> Result<(), R> {
        match self.phase {
            Phase::Movement => self.check_movement_may_end(),
            Phase::CloseCombat => self.check_close_combat_may_end(),
            Phase::Placement | Phase::Ranged | Phase::Advance => Ok(()),
        }
    }

    /// Carries out an order already checked, then the phases that end by themselves, writing
    /// the events to `log`.
    fn perform(&mut self, order: Order, dice: &mut dyn Dice, log: &mut Log) {
        self.carry_out(order, dice, log);
        self.advance_phases(dice, log);
    }

    /// Carries out an order already checked, and nothing after it.
    fn carry_out(&mut self, order: Order, dice: &mut dyn Dice, log: &mut Log) {
        match order {
            Order::Move { unit, to } => self.do_move(unit, to, log),
            Order::Face { unit, heading } => self.do_face(unit, heading, log),
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
    fn preview_order(&mut self, order: Order, dice: &mut dyn Dice, log: &mut Log) {
        let held = self.scored.len();
        match order {
            Order::Attack { unit, at } => {
                let target = self
                    .enemy_at(at, self.units[unit].side)
                    .expect("checked: an enemy there");
                self.resolve_attack(unit, target, dice, log);
            }
            Order::End => match self.phase {
                Phase::Ranged | Phase::CloseCombat => self.resolve_hits(dice, log),
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

    /// The order an action packs, checked against the rules.
    fn checked_order(&self, action: Action) -> Result<Order, Illegal> {
        let grid = self.grid();
        let order = Order::unpack(action, |i| Heading::from_index(grid, i))
            .ok_or_else(|| Illegal::new("not an order of this game"))?;
        self.check_order::<Illegal>(order)?;
        Ok(order)
    }

    /// Every legal action now, written into `out` (cleared first).
    fn list_legal(&self, out: &mut Vec<Action>) {
        out.clear();
        let listing = self.each_order(&mut |o| {
            out.push(o.pack());
            ControlFlow::Continue(())
        });
        debug_assert!(listing.is_continue(), "nothing ends a full listing early");
    }

    /// Whether the side to decide has anything to do but end the phase.
    fn has_choice(&self) -> bool {
        let end = Order::End.pack();
        self.legal.iter().any(|&a| a != end)
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

    fn end_phase(&mut self, dice: &mut dyn Dice, log: &mut Log) {
        match self.phase {
            Phase::Placement => {
                self.end_placement(dice, log);
                return;
            }
            Phase::Movement => {
                self.finish_move();
                self.phase = Phase::Ranged;
            }
            Phase::Ranged => {
                self.resolve_hits(dice, log);
                self.phase = Phase::CloseCombat;
            }
            Phase::CloseCombat => {
                self.resolve_hits(dice, log);
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

    pub fn begin_player_turn(&mut self, log: &mut Log) {
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

    /// The phase in words, written out where it is shown (a phase event is made at every
    /// change of phase).
    pub fn phase_name(&self) -> PhaseName<'_> {
        PhaseName(self)
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
        let mut log = Log::new();
        if !self.started {
            self.started = true;
            if self.setup.placement.is_some() {
                self.begin_placement(dice, &mut log);
            } else {
                self.roll_initiative(dice, &mut log);
                self.begin_player_turn(&mut log);
            }
            self.advance_phases(dice, &mut log);
        }
        log.into_events()
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
        out.extend_from_slice(&self.legal);
    }

    fn unit_actions(&self, unit: u32, out: &mut Vec<Action>) {
        out.clear();
        if (unit as usize) < self.units.len() {
            let listing = self.orders_of(unit as usize, &mut |o| {
                out.push(o.pack());
                ControlFlow::Continue(())
            });
            debug_assert!(listing.is_continue(), "nothing ends a full listing early");
        }
    }

    fn actors(&self) -> Vec<u32> {
        (0..self.units.len())
            .filter(|&unit| {
                self.orders_of(unit, &mut |_| ControlFlow::Break(()))
                    .is_break()
            })
            .map(|unit| unit as u32)
            .collect()
    }

    fn describe(&self, action: Action) -> ActionInfo {
        let grid = self.grid();
        match Order::unpack(action, |i| Heading::from_index(grid, i)) {
            Some(order) => self.describe_order(order),
            None => ActionInfo::new("?", volley_core::ActionKind::Other),
        }
    }

    fn check(&self, action: Action) -> Result<(), Illegal> {
        self.checked_order(action).map(|_| ())
    }

    fn play_unchecked(&mut self, action: Action, dice: &mut dyn Dice, log: &mut Log) {
        let grid = self.grid();
        let order = Order::unpack(action, |i| Heading::from_index(grid, i))
            .expect("an action from the legal list");
        self.perform(order, dice, log);
    }

    fn preview(&mut self, action: Action, dice: &mut dyn Dice) -> Result<Vec<Event>, Illegal> {
        let order = self.checked_order(action)?;
        let mut log = Log::new();
        self.preview_order(order, dice, &mut log);
        Ok(log.into_events())
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
            Some(Order::Place { unit, to }) => format!("place {} {}", id(unit), label(to)),
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
            "place" => Order::Place {
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
                    "cannot read \"{text}\" (orders: move U TILE, face U SIDE, withdraw U TILE, stand U, attach C U, fire U TILE, attack U TILE, occupy U TILE, place U TILE, end)"
                )))
            }
        };
        Ok(order.pack())
    }

    fn turn(&self) -> u32 {
        self.turn
    }

    fn phasing(&self) -> Option<Side> {
        self.outcome.is_none().then(|| Self::phasing(self))
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
        for (c, keys) in self.in_tile.iter().enumerate() {
            let listed: Vec<usize> = (0..self.units.len())
                .filter(|&i| self.units[i].alive() && cell(self.map(), self.units[i].tile) == c)
                .collect();
            if *keys != listed {
                return Err(format!(
                    "cell {c} lists units {keys:?}, but {listed:?} are there"
                ));
            }
        }
        let mut legal = Vec::new();
        self.list_legal(&mut legal);
        if legal != self.legal {
            return Err("the legal actions listed are not those of the position".into());
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

/// The cell of a tile on the map, in the game's per-cell arrays.
fn cell(map: &Map, tile: Hex) -> usize {
    map.index(tile).expect("units in play stand on the map")
}
