//! The position: units, commanders, melees in progress, the phase, and the options in force.

use crate::board::Board;
use crate::cnc::CubeReading;
use crate::listing::Changes;
use crate::units::{Arm, Class};
use std::sync::Arc;
use volley_core::geometry::Facing;
use volley_core::map::Map;
use volley_core::Name;
use volley_core::{Hex, Options, Side};

/// The options in force, read once from the option strings.
#[derive(Clone, Debug)]
pub struct Settings {
    pub facing_change_cost: u8,
    pub oblique: bool,
    pub limbered_rate: u8,
    pub cube: CubeReading,
    pub rally: Rally,
    pub move_unlimber_fire_next_turn: bool,
    pub fire_once_per_turn: bool,
    pub melee_points: bool,
    pub advance_contact_mandatory: bool,
    pub hidden: bool,
    pub sight: u32,
    pub break_point_ends_game: bool,
    pub skirmisher_contact_removes: bool,
}

/// Section 8: the three ways to rally.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rally {
    /// a: all markers removed from a unit with a commander attached.
    All,
    /// b: one casualty hit removed each turn.
    Incremental,
    /// c: as b, and units the scenario marks `self_rally` rally one hit without a commander.
    SelfRally,
}

impl Settings {
    pub fn from_options(o: &Options) -> Settings {
        let get = |k: &str| volley_core::scenario::option(o, k);
        Settings {
            facing_change_cost: get("facing_change_cost").parse().unwrap_or(0),
            oblique: get("oblique") == "yes",
            limbered_rate: get("limbered_rate").parse().unwrap_or(2),
            cube: if get("cube") == "intro" {
                CubeReading::Intro
            } else {
                CubeReading::Faces
            },
            rally: match get("rally") {
                "incremental" => Rally::Incremental,
                "self" => Rally::SelfRally,
                _ => Rally::All,
            },
            move_unlimber_fire_next_turn: get("move_unlimber_fire") == "next-turn",
            fire_once_per_turn: get("fire_once_per_turn") == "yes",
            melee_points: get("melee_points") == "yes",
            advance_contact_mandatory: get("advance_contact") == "mandatory",
            hidden: get("hidden") == "yes",
            sight: get("sight").parse().unwrap_or(9),
            break_point_ends_game: get("break_point_ends_game") != "no",
            skirmisher_contact_removes: get("skirmisher_contact") == "remove",
        }
    }
}

/// What became of a unit that is no longer on the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    Active,
    Destroyed,
    LeftField,
    GunsCaptured,
}

#[derive(Clone, Debug)]
pub struct Unit {
    pub id: Name,
    pub name: Name,
    pub side: Side,
    pub arm: Arm,
    pub class: Class,
    pub heavy: bool,
    pub trained: bool,
    pub rare: bool,
    pub carbines: bool,
    pub self_rally: bool,
    pub points: i32,
    pub hex: Hex,
    pub facing: Facing,
    pub hits: u8,
    pub te: u8,
    pub routed: bool,
    pub routed_turn: u32,
    pub limbered: bool,
    pub fate: Fate,
    /// Movement points left this phase.
    pub mp: u8,
    /// Hexes entered this turn (any movement, voluntary or forced): blocks TE recovery.
    pub moved_this_turn: bool,
    /// Fought a melee round this turn: no TE recovery (Optional Rules, Disorder/Fatigued).
    pub meleed_this_turn: bool,
    /// Where the current move started: obstacles at that hex cost no TE (5.4 a).
    pub move_start: Hex,
    pub facing_changes: u8,
    /// The unit moved in this phase (so an infantry facing change now ends its move).
    pub stepped: bool,
    pub fired_phase: bool,
    pub fired_turn: bool,
    /// Artillery that moved and then unlimbered this turn (fires at 1 CP, or not at all).
    pub unlimbered_after_move: bool,
    /// Heavy guns: moved this game turn (cannot also fire).
    pub heavy_moved_turn: bool,
    pub commander: Option<usize>,
    /// A gun crew that stepped back from its guns: where the guns stand.
    pub guns_at: Option<Hex>,
    /// Hidden movement: whether the enemy can see this unit now.
    pub seen: bool,
}

impl Unit {
    pub fn active(&self) -> bool {
        self.fate == Fate::Active
    }

    pub fn max_hits(&self) -> u8 {
        if self.rare {
            4
        } else {
            3
        }
    }

    /// Optional Rules, Disorder/Fatigued: three TE hits.
    pub fn fatigued(&self) -> bool {
        self.te >= 3
    }

    pub fn is_crew_only(&self) -> bool {
        self.guns_at.is_some()
    }
}

#[derive(Clone, Debug)]
pub struct Commander {
    pub id: Name,
    pub name: Name,
    pub side: Side,
    /// CVS combat value (C), 0 to +2.
    pub value: i32,
    pub supreme: bool,
    pub attached: Option<usize>,
    pub status: CommanderStatus,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommanderStatus {
    Ready,
    Killed,
    Captured,
}

/// Two units locked in melee (7.2). Melees go on phase after phase until one side routs.
#[derive(Clone, Debug)]
pub struct Melee {
    pub attacker: usize,
    pub defender: usize,
    /// Rounds fought so far: the defender's cover counts one less per round (7.3 i).
    pub rounds: u8,
}

/// A melee winner that must advance into the vacated hex or turn instead (7.4).
#[derive(Clone, Debug)]
pub struct Advance {
    pub unit: usize,
    pub into: Hex,
    /// Infantry do not pursue beaten cavalry: they may only turn.
    pub may_move: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Movement,
    NonPhasingFire,
    PhasingFire,
    Melee,
    /// Winners of the last melee round deciding whether to advance.
    Advance,
    Over,
}

#[derive(Clone, Debug)]
pub struct Objective {
    pub hex: Hex,
    pub name: Name,
    pub points: i32,
    pub holder: Option<Side>,
}

#[derive(Clone, Debug)]
pub struct SideInfo {
    pub name: Name,
    pub break_point: f64,
    pub start_points: i32,
    /// Supreme commander lost: integrity already rolled for it.
    pub supreme_checked: bool,
}

/// The scenario's fixed parts, shared by every copy of the game.
#[derive(Debug)]
pub struct Setup {
    pub name: Name,
    pub title: Name,
    pub map: Map,
    /// The map as views carry it, made once: every view of every copy shares it.
    pub map_view: Arc<volley_core::map::MapView>,
    pub turn_limit: u32,
    pub settings: Settings,
}

#[derive(Clone, Debug)]
pub struct State {
    pub setup: Arc<Setup>,
    pub units: Vec<Unit>,
    /// Who stands where, kept current by [`crate::effects`].
    pub board: Board,
    /// What changed since the legal actions were last listed ([`crate::listing`]).
    pub changes: Changes,
    pub commanders: Vec<Commander>,
    pub melees: Vec<Melee>,
    pub advances: Vec<Advance>,
    pub objectives: Vec<Objective>,
    pub sides: [SideInfo; 2],
    pub turn: u32,
    /// The initiative winner: player A, who moves first this turn.
    pub first: Side,
    /// 0 while player A is phasing, 1 for player B.
    pub half: u8,
    pub phase: Phase,
    /// Fire count this phase against each target, by firing arm (7.1 ganging up).
    pub fire_log: Vec<(usize, usize)>,
    pub outcome: Option<volley_core::Outcome>,
}

impl State {
    pub fn map(&self) -> &Map {
        &self.setup.map
    }

    pub fn settings(&self) -> &Settings {
        &self.setup.settings
    }

    pub fn phasing(&self) -> Side {
        if self.half == 0 {
            self.first
        } else {
            self.first.other()
        }
    }

    pub fn in_melee(&self, u: usize) -> bool {
        self.melees
            .iter()
            .any(|m| m.attacker == u || m.defender == u)
    }

    /// 5.2: a unit's zone of control is its three front hexes; lost with any hit, fatigue,
    /// melee or rout. Units that never melee (skirmishers, wagons, limbered guns, crews
    /// without guns, decoys) exert none.
    pub fn has_zoc(&self, u: usize) -> bool {
        let unit = &self.units[u];
        let exerts = match unit.arm {
            Arm::Infantry | Arm::LightInfantry | Arm::Cavalry => true,
            Arm::Artillery => !unit.limbered && !unit.is_crew_only(),
            _ => false,
        };
        exerts
            && unit.active()
            && unit.hits == 0
            && !unit.fatigued()
            && !unit.routed
            && !self.in_melee(u)
    }

    /// Whether `viewer` can see unit `u` (hidden movement).
    pub fn visible_to(&self, u: usize, viewer: Side) -> bool {
        let unit = &self.units[u];
        unit.side == viewer || (unit.seen && unit.arm.is_real())
    }

    pub fn commander_value(&self, u: usize) -> i32 {
        self.units[u]
            .commander
            .map_or(0, |c| self.commanders[c].value)
    }

    /// Share of starting points lost (destroyed, gone or routed), plus 10% per commander lost
    /// (hand-out, Break Point; Rules by Sequence 2).
    pub fn losses_percent(&self, side: Side) -> f64 {
        let info = &self.sides[side.index()];
        let lost: i32 = self
            .units
            .iter()
            .filter(|u| u.side == side && (!u.active() || u.routed))
            .map(|u| u.points)
            .sum();
        let commanders = self
            .commanders
            .iter()
            .filter(|c| c.side == side && c.status != CommanderStatus::Ready)
            .count();
        let base = if info.start_points > 0 {
            100.0 * lost as f64 / info.start_points as f64
        } else {
            0.0
        };
        base + 10.0 * commanders as f64
    }

    pub fn has_active_units(&self, side: Side) -> bool {
        self.units
            .iter()
            .any(|u| u.side == side && u.active() && u.arm.is_real())
    }
}
