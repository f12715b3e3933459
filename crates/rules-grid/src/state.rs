//! The position: what the scenario fixed ([`Setup`]), the units and commanders in play, the
//! phase, and what each unit has done this player-turn ([`TurnState`]). Below every chapter:
//! it imports none, and holds only the lookups every chapter asks (who stands where, who is
//! engaged, whose turn it is) and the index of units per tile that keeps them quick.

use crate::terrain::{self, Beside, Going, Neighbourhood, Surroundings, TerrainCost};
use crate::tiles::{self, Heading};
use crate::unit_data::{Kind, Quality, UnitData};
use std::fmt;
use std::sync::Arc;
use volley_core::game::Refusal;
use volley_core::geometry::{col_row, hex_at, label};
use volley_core::map::{Cell, Grid, Map, MapView, Occupants};
use volley_core::{Action, Hex, Name, Outcome, Side};

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

/// Where a side sets up (Game Setup).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deployment {
    Top,
    Bottom,
    Free,
}

impl Deployment {
    /// Whether a unit of the side may set up in `tile`: its two back rows, not an outer
    /// column, unless the side sets up freely.
    pub fn check(self, map: &Map, tile: Hex) -> Result<(), String> {
        let (c, r) = col_row(tile);
        let rows = match self {
            Deployment::Free => return Ok(()),
            Deployment::Top => 1..=2,
            Deployment::Bottom => map.height - 1..=map.height,
        };
        if !rows.contains(&r) {
            return Err(format!(
                "{} is not in this side's two back rows ({} to {}); units set up there unless the side has setup = \"free\" (Game Setup)",
                label(tile),
                rows.start(),
                rows.end()
            ));
        }
        if c == 1 || c == map.width {
            return Err(format!(
                "{} is in an outer column; units do not set up there unless the side has setup = \"free\" (Game Setup)",
                label(tile)
            ));
        }
        Ok(())
    }
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

/// Who has placed what, while the units are placed at set-up (Game Setup).
#[derive(Clone, Debug)]
pub struct Placing {
    /// Sides that have ended their placement, by side index.
    pub done: [bool; 2],
    /// Units placed, by unit index.
    pub placed: Vec<bool>,
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
    in_tile: Occupants,
    /// The legal actions of the position as it stands, listed once when play reaches it:
    /// whether a phase ends by itself is decided by listing them anyway, and every decision
    /// asks for them. Kept by the turn progression's `advance_phases`, which ends every change.
    pub(crate) legal: Vec<Action>,
}

impl GridGame {
    /// A game set up and not yet started.
    pub fn new(setup: Setup, units: Vec<Unit>, commanders: Vec<Commander>) -> GridGame {
        let in_tile = Occupants::new(
            &setup.map,
            units.iter().enumerate().map(|(i, u)| (i, Some(u.tile))),
        );
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

    /// The side to decide: the phasing side, or the cavalry's while it answers an infantry
    /// attack (Close Combat 4); nobody before the start or after the end.
    pub fn decider(&self) -> Option<Side> {
        if !self.started || self.outcome.is_some() {
            return None;
        }
        match self.evade {
            Some((_, cavalry)) => Some(self.units[cavalry].side),
            None => Some(self.phasing()),
        }
    }

    /// The phase in words, written out where it is shown (a phase event is made at every
    /// change of phase).
    pub fn phase_name(&self) -> PhaseName<'_> {
        PhaseName(self)
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

    pub fn unit_index(&self, id: &str) -> Option<usize> {
        self.units.iter().position(|u| u.id == id)
    }

    /// The unit in a tile, other than `except` (a unit passing through shares a tile).
    pub fn occupant(&self, tile: Hex, except: Option<usize>) -> Option<usize> {
        self.map()
            .index(tile)
            .and_then(|c| self.occupant_in(c, except))
    }

    /// The unit in a map cell, other than `except`.
    pub fn occupant_in(&self, cell: usize, except: Option<usize>) -> Option<usize> {
        self.in_tile
            .in_cell(cell)
            .iter()
            .copied()
            .find(|&i| Some(i) != except)
    }

    /// The ground of a tile on the map and the tiles beside it.
    pub fn around(&self, tile: Hex) -> &Surroundings {
        let cell = self
            .map()
            .index(tile)
            .expect("units in play stand on the map");
        self.setup.neighbourhood.of_cell(cell)
    }

    /// The tiles beside a tile on the map.
    pub fn beside(&self, tile: Hex) -> &[Beside] {
        &self.around(tile).beside
    }

    /// The terrain and elevation of a tile on the map.
    pub fn ground(&self, tile: Hex) -> Cell {
        self.around(tile).ground
    }

    /// Every tile of the map, row by row.
    pub fn all_tiles(&self) -> impl Iterator<Item = Hex> + '_ {
        let map = self.map();
        (1..=map.height).flat_map(move |r| (1..=map.width).map(move |c| hex_at(c, r)))
    }

    /// Moves a unit in play to another tile of the map.
    pub fn relocate(&mut self, unit: usize, to: Hex) {
        self.unlist(unit);
        self.units[unit].tile = to;
        self.in_tile.place(&self.setup.map, unit, to);
    }

    /// Takes a unit out of its tile's list: it is moving, or it has been removed from play.
    pub fn unlist(&mut self, unit: usize) {
        self.in_tile
            .lift(&self.setup.map, unit, self.units[unit].tile);
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

    /// The tiles a unit may move this turn over the ground it has crossed (Terrain).
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

    /// How many of the side's units are placed, and how many it has.
    pub fn placed_count(&self, side: Side) -> (usize, usize) {
        let placed = self.placing.as_ref().map_or(&[][..], |p| &p.placed);
        let mine = || {
            self.units
                .iter()
                .enumerate()
                .filter(|(_, u)| u.side == side)
        };
        (
            mine()
                .filter(|(i, _)| placed.get(*i) == Some(&true))
                .count(),
            mine().count(),
        )
    }

    /// What must hold of every position: strength within bounds, units in play on the map on
    /// ground open to them, one to a tile (but cavalry passing through a friend), the index
    /// of units per tile true, and commanders with friendly units in play.
    pub fn invariants(&self) -> Result<(), String> {
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
            if let Err(why) = terrain::entry(u.kind, self.map().terrain(u.tile)) {
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
        self.in_tile.check(
            self.map(),
            self.units
                .iter()
                .enumerate()
                .map(|(i, u)| (i, u.alive().then_some(u.tile))),
        )?;
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
