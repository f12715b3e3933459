//! The position: units, commanders, brigades, melees in progress, what is built, who is due to
//! arrive, the phase, and the options in force.

use crate::board::Board;
use crate::cnc::CubeReading;
use crate::units::{Arm, Class};
use hex_command_family::activation::Mode;
use hex_command_family::brigades::Brigade;
pub use hex_command_family::commanders::Fallen;
use hex_command_family::commanders::Posts;
use hex_command_family::cvs::Traits;
use hex_command_family::ground::{Ground, Works};
use hex_command_family::orders::{Consequence, Order};
use hex_command_family::reinforcements::Arrival;
use hex_command_family::turns::Turns;
use std::sync::Arc;
use volley_core::geometry::{front_hexes, step, Facing};
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
    /// Sequence of Play 8, optional: a unit rallied from rout keeps one TE hit.
    pub rally_te: bool,
    /// Sequence of Play 8, optional: rally only in a commander's sphere (or attached).
    pub rally_in_sphere: bool,
    pub move_unlimber_fire_next_turn: bool,
    pub fire_once_per_turn: bool,
    pub melee_points: bool,
    /// Base melee values by arm (the old table) instead of equal.
    pub melee_by_arm: bool,
    pub advance_contact_mandatory: bool,
    pub hidden: bool,
    pub sight: u32,
    /// Hidden movement: every unseen unit gets one decoy (the rule's "two fake counters").
    pub decoy_per_unit: bool,
    pub break_point_ends_game: bool,
    pub skirmisher_contact_removes: bool,
    pub fire_order: FireOrder,
    pub cvs: Cvs,
    pub orders: bool,
    pub activation: Mode,
    pub spheres: bool,
    /// Commanders are pieces that move on the map, with couriers carrying orders (2 d).
    pub pieces: bool,
    pub supply: bool,
    pub tribes: bool,
    /// Tribes: the test fails when the d10 rolls higher than Tactical (as written), or when it
    /// does not (as every other CVS test).
    pub tribal_fail_high: bool,
    pub pike_and_shot: bool,
}

/// Section 8: the three ways to rally.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rally {
    /// a: all markers removed from a unit with a commander attached.
    All,
    /// b: casualty hits removed one a turn (more the longer the commander stays, 8 d).
    Incremental,
    /// c: as b, and units the scenario marks `self_rally` rally one hit without a commander.
    SelfRally,
}

/// Who fires first in the fire step (7 c and its alternatives; Sequence of Play 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FireOrder {
    /// 7 c: the non-phasing player, then the phasing player.
    Standard,
    /// 7 c, alternative: a die roll decides which player fires first.
    Roll,
    /// 7 c, second alternative: units with commanders fire first, the higher roller first.
    Commanders,
    /// Sequence of Play 5, optional: each brigade tests its commander's Tactical; brigades
    /// that pass fire first.
    Tactical,
}

/// The Command Valuation System (2.2; set-up checklist 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cvs {
    Off,
    /// Traits as the scenario gives them (rolled where it gives none).
    Scenario,
    /// Every commander's traits rolled at set-up (2.2.3).
    Random,
}

impl Settings {
    pub fn from_options(o: &Options) -> Settings {
        let get = |k: &str| volley_core::scenario::option(o, k);
        Settings {
            facing_change_cost: get("facing_change_cost").parse().unwrap_or(0),
            oblique: get("oblique") == "yes",
            limbered_rate: get("limbered_rate").parse().unwrap_or(2),
            cube: match get("cube") {
                "intro" => CubeReading::Intro,
                "charts" => CubeReading::Charts,
                _ => CubeReading::Faces,
            },
            rally: match get("rally") {
                "incremental" => Rally::Incremental,
                "self" => Rally::SelfRally,
                _ => Rally::All,
            },
            rally_te: get("rally_te") == "yes",
            rally_in_sphere: get("rally_reach") == "sphere",
            move_unlimber_fire_next_turn: get("move_unlimber_fire") == "next-turn",
            fire_once_per_turn: get("fire_once_per_turn") == "yes",
            melee_points: get("melee_points") == "yes",
            melee_by_arm: get("melee_values") == "by-arm",
            advance_contact_mandatory: get("advance_contact") == "mandatory",
            hidden: get("hidden") == "yes",
            sight: get("sight").parse().unwrap_or(9),
            decoy_per_unit: get("decoys") != "scenario",
            break_point_ends_game: get("break_point_ends_game") == "yes",
            skirmisher_contact_removes: get("skirmisher_contact") == "remove",
            fire_order: match get("fire_order") {
                "roll" => FireOrder::Roll,
                "commanders" => FireOrder::Commanders,
                "tactical" => FireOrder::Tactical,
                _ => FireOrder::Standard,
            },
            cvs: match get("cvs") {
                "scenario" => Cvs::Scenario,
                "random" => Cvs::Random,
                _ => Cvs::Off,
            },
            orders: get("orders") == "yes",
            activation: Mode::parse(get("activation")).unwrap_or(Mode::Ab),
            spheres: get("spheres") == "yes",
            pieces: get("commanders") == "pieces",
            supply: get("supply") == "yes",
            tribes: get("tribes") == "yes",
            tribal_fail_high: get("tribal_test") != "cvs",
            pike_and_shot: get("pike_and_shot") == "yes",
        }
    }

    /// Whether each unit fires once a turn: the Rate of Fire option, the Activation Sequence
    /// (2.3) and Pike and Shot era muskets all say so.
    pub fn once_per_turn(&self) -> bool {
        self.fire_once_per_turn || self.activation.fire_once_per_turn() || self.pike_and_shot
    }
}

/// The group of units no brigade numbers for the Activation Sequence: they activate last.
pub const UNNUMBERED: u8 = u8::MAX;

/// Optional Rules, Supply: the points a unit starts with and a wagon refills.
pub const FULL_SUPPLY: u8 = 12;

/// What became of a unit that is no longer on the map, or is not on it yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    Active,
    Destroyed,
    LeftField,
    GunsCaptured,
    /// A reinforcement that has not arrived.
    Waiting,
}

/// Abandoned guns (section 3, Melee and Rout): where they stand, whether the enemy holds them,
/// and how many shots a capturing crew can get out of them (a d6 when taken).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Guns {
    pub at: Hex,
    pub taken: bool,
    pub shots: u8,
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
    pub repeaters: bool,
    /// Howitzers and mortars fire over obstacles (section 3, Classes); mortars not point blank.
    pub howitzer: bool,
    pub mortar: bool,
    /// Extremely heavy guns (and the Thirty Years War's): never moved once unlimbered.
    pub immobile: bool,
    pub self_rally: bool,
    /// Tribal (or designated light) troops that check their will at the start (Optional Rules).
    pub tribal: bool,
    /// A tribal unit that failed that check: it will not close with fresh enemies.
    pub reluctant: bool,
    /// Builders of works (Constructions chart).
    pub engineers: bool,
    pub points: i32,
    /// Base melee value (7.3 a): the scenario's, or by the option in force.
    pub melee: i32,
    /// Range bands the scenario gives, overriding the firing chart (auto, Color, Code, CnC).
    pub bands: Option<[Option<u32>; 4]>,
    pub brigade: Option<u16>,
    pub nation: Option<Name>,
    /// The army (force) it counts with for integrity: 0 the main army; reinforcements arriving
    /// after a major integrity check form their own (Rules by Sequence 2).
    pub force: u8,
    /// A reinforcement: its group among the arrivals.
    pub arrival: Option<u16>,
    pub hex: Hex,
    pub facing: Facing,
    pub hits: u8,
    pub te: u8,
    pub routed: bool,
    pub routed_turn: u32,
    pub limbered: bool,
    /// Cavalry and mounted infantry on horseback (5.5 b; Optional Rules, Mounted Infantry).
    pub mounted: bool,
    /// Where a dismounted unit's horses are held.
    pub horses_at: Option<Hex>,
    /// Mounted or dismounted in this movement phase (once a phase).
    pub horse_change: bool,
    /// Moved into its hex along a road through terrain the road made passable, and not
    /// deployed: a column on the road, taken in flank by fire and melee (5.5.1).
    pub road_column: bool,
    pub fate: Fate,
    /// Movement points left this phase.
    pub mp: u8,
    /// Hexes entered this turn (any movement, voluntary or forced): blocks TE recovery.
    pub moved_this_turn: bool,
    /// Unlimbered this turn: the guns are set up and do not limber again until the next
    /// turn (section 3; interpretation 33 of docs/rules/hex-command.md).
    pub unlimbered_turn: bool,
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
    /// A gun crew that stepped back from its guns.
    pub guns: Option<Guns>,
    /// Hidden movement: whether the enemy can see this unit now.
    pub seen: bool,
    /// The decoy that goes with it under hidden movement.
    pub decoy: Option<usize>,
    /// Supply points left (Optional Rules, Supply: 12 at the start).
    pub supply: u8,
    /// Turns in a row it has rallied with a commander (8 d).
    pub rally_turns: u8,
    /// Its primary opponent in melee, as the phasing player declared it (7.2).
    pub primary: Option<usize>,
    /// The work it is building, if any.
    pub building: Option<Hex>,
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

    /// A gun crew away from its guns.
    pub fn is_crew_only(&self) -> bool {
        self.guns.is_some()
    }

    /// Where its abandoned guns stand.
    pub fn guns_at(&self) -> Option<Hex> {
        self.guns.map(|g| g.at)
    }

    /// Fresh: no hit and no TE hit (Optional Rules, Tribes).
    pub fn fresh(&self) -> bool {
        self.hits == 0 && self.te == 0 && !self.routed
    }
}

#[derive(Clone, Debug)]
pub struct Commander {
    pub id: Name,
    pub name: Name,
    pub side: Side,
    /// CVS combat value (C), 0 to +2.
    pub value: i32,
    /// The five traits, with the CVS in play.
    pub traits: Option<Traits>,
    pub supreme: bool,
    pub nation: Option<Name>,
    /// Commanders as pieces (2 d): where it stands, and movement points left this phase.
    pub hex: Option<Hex>,
    pub mp: u8,
    /// A commander that has not arrived yet (with reinforcements).
    pub waiting: bool,
    /// A lost commander whose replacement has been rolled for (2.2.3).
    pub replacement_rolled: bool,
    /// The CVS chart's group the scenario names (2.2.3), if it rolls the traits.
    pub grade: Option<hex_command_family::cvs::Grade>,
}

impl Commander {
    /// The traits rules ask for: the CVS's, or the plain stand-in when orders are played
    /// without it.
    pub fn traits(&self) -> Traits {
        self.traits
            .unwrap_or_else(|| Traits::plain(self.value.clamp(0, 2) as u8))
    }
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
    /// Sequence of Play 3: write new orders or attempt order changes.
    Orders,
    Movement,
    /// One round of the fire step ([`State::fire_rounds`]).
    Fire,
    Melee,
    /// Winners of the last melee round deciding whether to advance.
    Advance,
    /// A decision put to one side in the middle of the sequence ([`State::decisions`]).
    Decision,
    /// Enemies blocking an arrival fall back two full moves (4 b).
    Withdrawal,
    Over,
}

impl Phase {
    /// Whether the legal actions of this phase are kept unit by unit ([`crate::listing`]).
    pub fn by_unit(self) -> bool {
        matches!(
            self,
            Phase::Movement | Phase::Fire | Phase::Melee | Phase::Withdrawal
        )
    }
}

/// Which units fire in a round of the fire step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FireWho {
    All,
    /// Units with a commander attached (or in a sphere, with spheres) — or the others.
    Commanded(bool),
    /// Units of brigades that passed their Tactical test — or the others.
    Passed(bool),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FireRound {
    pub side: Side,
    pub who: FireWho,
}

/// A decision put to a side in the middle of the sequence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// A unit rallied from rout faces the way its owner wants (8 c).
    RallyFacing { unit: usize },
    /// Melee Points: the stronger unit picks which of its other opponents takes the automatic
    /// TE hit.
    MeleePoints { unit: usize, candidates: Vec<usize> },
    /// 2.2.2, result 9: the opponent picks the consequence for a brigade.
    Consequence { brigade: usize },
    /// 4 b: enemies on an arrival's entry hexes stay and fight, or fall back.
    Blocking { arrival: usize },
}

/// What to do when the decisions are made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resume {
    /// Carry on with the phase the decision interrupted.
    Phase(Phase),
    /// The melee round is over: winners advance, or the player turn ends.
    MeleeDamage,
    /// The arrivals of the phasing player's turn go on.
    Arrivals,
    /// The player turn ends after the rally.
    AfterRally,
}

/// A courier carrying a written order to a brigade (2 d).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Courier {
    pub side: Side,
    pub brigade: usize,
    pub order: Order,
    pub hex: Hex,
}

#[derive(Clone, Debug)]
pub struct Objective {
    pub hex: Hex,
    pub name: Name,
    pub points: i32,
    /// The side whose goal it is, the only one that scores it (scenario `goals`); `None`:
    /// whichever side holds it.
    pub goal_of: Option<Side>,
    pub holder: Option<Side>,
    /// The holder as each side knows it (red, blue): a marker that takes an objective
    /// changes it for the enemy only once the unit under it is seen (a decoy takes none,
    /// and the enemy must not tell the two apart by the objective).
    pub known: [Option<Side>; 2],
}

/// An army, for integrity (Rules by Sequence 2): the main one of each side, and each group of
/// reinforcements that arrives after that side's first major integrity check.
#[derive(Clone, Debug)]
pub struct Force {
    pub side: Side,
    pub name: Name,
    pub break_point: f64,
    /// The points the force's losses are reckoned against: its units at the start, and the
    /// reinforcements that have joined it since (docs/rules/hex-command.md, interpretation 27).
    pub start_points: i32,
    /// The reinforcements a force of its own was formed from (None for a side's main army).
    pub arrival: Option<u16>,
    /// A major integrity check has been made: later arrivals form their own force.
    pub checked: bool,
}

#[derive(Clone, Debug)]
pub struct SideInfo {
    pub name: Name,
    pub break_point: f64,
    /// Supreme commander lost: integrity already rolled for it.
    pub supreme_checked: bool,
    /// Route of Retreat (set-up step 8): the hexes of the way out, ending at the map edge.
    pub retreat: Vec<Hex>,
}

/// The scenario's fixed parts, shared by every copy of the game.
#[derive(Debug)]
pub struct Setup {
    pub name: Name,
    pub title: Name,
    pub map: Map,
    /// The lines of sight walked on the map so far (every copy of the game shares them).
    pub lines: hex_command_family::sight::Lines,
    /// The map as views carry it, made once: every view of every copy shares it.
    pub map_view: Arc<volley_core::map::MapView>,
    pub turn_limit: u32,
    pub settings: Settings,
    /// How far a change of place reaches in a fire phase: the longest range of any unit.
    pub fire_reach: u32,
    /// Some commander or unit belongs to a nation (2 f): commanders join only their own.
    pub nations: bool,
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
    /// The unit each commander is with this turn (section 6), and the commanders lost (2 e).
    pub posts: Posts<usize>,
    pub brigades: Vec<Brigade>,
    pub arrivals: Vec<Arrival>,
    pub forces: Vec<Force>,
    pub works: Works,
    pub couriers: Vec<Courier>,
    pub melees: Vec<Melee>,
    pub advances: Vec<Advance>,
    pub decisions: Vec<Decision>,
    pub resume: Resume,
    /// The melee round waiting on a Melee Points choice: damage per unit (hits, TE).
    pub pending_damage: Vec<(u8, u8)>,
    pub objectives: Vec<Objective>,
    pub sides: [SideInfo; 2],
    pub turn: u32,
    /// Player A, the turn's activations and the one under way (2.3).
    pub turns: Turns,
    pub phase: Phase,
    /// The rounds of the fire step, and the one being fired.
    pub fire_rounds: Vec<FireRound>,
    pub fire_round: u8,
    /// Brigades whose Tactical test passed this fire step (Sequence of Play 5, optional).
    pub passed_brigades: Vec<u16>,
    /// Units that fall back from an arrival's entry hexes (4 b), and the entry hexes.
    pub withdrawing: Vec<usize>,
    pub withdraw_from: Vec<Hex>,
    /// Fire count this phase against each target, by firing arm (7.1 ganging up).
    pub fire_log: Vec<(usize, usize)>,
    pub outcome: Option<volley_core::Outcome>,
}

impl State {
    pub fn map(&self) -> &Map {
        &self.setup.map
    }

    /// The map with what has been built on it.
    #[inline]
    pub fn ground(&self) -> Ground<'_> {
        Ground::remembering(&self.setup.map, &self.works, &self.setup.lines)
    }

    pub fn settings(&self) -> &Settings {
        &self.setup.settings
    }

    /// The side whose activation it is (after every group has moved under the hand-out's
    /// Activation Sequence, player A's for the turn's fire and melee).
    #[inline]
    pub fn phasing(&self) -> Side {
        self.turns.phasing()
    }

    /// Whether the current activation is `side`'s first this turn (the start-of-turn steps of
    /// Rules by Sequence 1–3 and reinforcements happen then).
    pub fn first_activation_of(&self, side: Side) -> bool {
        self.turns.first_activation_of(side)
    }

    /// Whether unit `i` belongs to the activation now: always under the A/B system; under the
    /// Activation Sequence its group must be the one active, or it floats.
    pub fn activates(&self, i: usize) -> bool {
        match (self.active_group(), self.group_of(i)) {
            (Some(a), Some(g)) => a == g,
            _ => true,
        }
    }

    /// The group the current activation moves (Activation Sequence), if only one does.
    pub fn active_group(&self) -> Option<u8> {
        self.turns.active_group()
    }

    /// A unit's group number for the Activation Sequence: its brigade's, [`UNNUMBERED`] for
    /// units the scenario gives none (they activate last), or none for artillery, which floats
    /// (2.3).
    pub fn group_of(&self, u: usize) -> Option<u8> {
        let unit = &self.units[u];
        if unit.arm == Arm::Artillery || unit.arm == Arm::Decoy {
            return None;
        }
        Some(
            unit.brigade
                .and_then(|b| self.brigades[b as usize].activation)
                .unwrap_or(UNNUMBERED),
        )
    }

    pub fn in_melee(&self, u: usize) -> bool {
        self.melees
            .iter()
            .any(|m| m.attacker == u || m.defender == u)
    }

    /// Whether `u` and `v` are locked in melee with each other.
    pub fn in_melee_with(&self, u: usize, v: usize) -> bool {
        self.melees
            .iter()
            .any(|m| (m.attacker == u && m.defender == v) || (m.attacker == v && m.defender == u))
    }

    /// The units in melee with `u`.
    pub fn opponents(&self, u: usize) -> impl Iterator<Item = usize> + '_ {
        self.melees.iter().filter_map(move |m| {
            if m.attacker == u {
                Some(m.defender)
            } else if m.defender == u {
                Some(m.attacker)
            } else {
                None
            }
        })
    }

    /// 5.2: a unit's zone of control is its three front hexes; lost with any hit, fatigue,
    /// melee or rout. Units that never melee (skirmishers, wagons, limbered guns, crews
    /// without guns, mounted infantry on horseback, decoys) exert none.
    pub fn has_zoc(&self, u: usize) -> bool {
        let unit = &self.units[u];
        let exerts = match unit.arm {
            Arm::Infantry | Arm::LightInfantry | Arm::Cavalry => true,
            Arm::MountedInfantry => !unit.mounted,
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

    /// Whether commander `c` is ready: in the game and on the field (not waiting to arrive).
    pub fn commander_ready(&self, c: usize) -> bool {
        self.posts.in_game(c) && !self.commanders[c].waiting
    }

    /// Where a ready commander stands: its piece's hex, or the hex of the unit it is with.
    pub fn commander_hex(&self, c: usize) -> Option<Hex> {
        let cmd = &self.commanders[c];
        if !self.commander_ready(c) {
            return None;
        }
        cmd.hex
            .or_else(|| self.posts.at[c].map(|u| self.units[u].hex))
    }

    /// Whether unit `u` is within a ready commander's sphere of influence (2.1): within the
    /// commander's Morale of where it stands (0: the unit it is with only), and of its nation.
    pub fn in_sphere(&self, u: usize) -> bool {
        let unit = &self.units[u];
        if unit.commander.is_some() {
            return true;
        }
        if !self.settings().spheres {
            return false;
        }
        self.commanders.iter().enumerate().any(|(c, cmd)| {
            cmd.side == unit.side
                && nation_fits(cmd, unit)
                && self.commander_hex(c).is_some_and(|h| {
                    let r = hex_command_family::cvs::sphere_radius(&cmd.traits());
                    h.unsigned_distance_to(unit.hex) <= r
                        && (r > 0 || self.posts.at[c] == Some(u) || cmd.hex == Some(unit.hex))
                })
        })
    }

    /// The order a unit follows now, if written orders bind it: its brigade's, unless a
    /// commander is with it (section 6).
    pub fn order_of(&self, u: usize) -> Option<Order> {
        if !self.settings().orders || self.units[u].commander.is_some() {
            return None;
        }
        let b = self.units[u].brigade?;
        self.brigades[b as usize].order
    }

    /// The brigade's commander, as an index.
    pub fn brigade_commander(&self, b: usize) -> Option<usize> {
        let id = self.brigades[b].commander.as_ref()?;
        self.commanders.iter().position(|c| c.id == *id)
    }

    /// The commander whose traits a brigade's tests use: its own if ready, else the side's
    /// supreme commander, else any ready one of the side.
    pub fn deciding_commander(&self, b: usize) -> Option<usize> {
        let side = self.brigades[b].side;
        self.brigade_commander(b)
            .filter(|&c| self.commander_ready(c))
            .or_else(|| {
                (0..self.commanders.len()).find(|&c| {
                    let cmd = &self.commanders[c];
                    cmd.side == side && cmd.supreme && self.commander_ready(c)
                })
            })
            .or_else(|| {
                (0..self.commanders.len())
                    .find(|&c| self.commanders[c].side == side && self.commander_ready(c))
            })
    }

    /// The consequence a failed decision left a brigade under, for the listing: halted this
    /// turn, timid, or falling back.
    pub fn halted(&self, u: usize) -> bool {
        self.units[u].brigade.is_some_and(|b| {
            let st = &self.brigades[b as usize].standing;
            st.halted_turn == Some(self.turn) || st.falling_back
        }) && self.units[u].commander.is_none()
    }

    pub fn timid(&self, u: usize) -> bool {
        self.units[u]
            .brigade
            .is_some_and(|b| self.brigades[b as usize].standing.timid)
            && self.units[u].commander.is_none()
    }

    /// Share of a force's points (its starting units and the reinforcements that joined it) lost (destroyed, gone, routed or its guns in enemy
    /// hands), plus 10% per commander of the side lost (hand-out, Break Point; Rules by
    /// Sequence 2). Force 0 is the side's main army.
    pub fn force_losses(&self, f: usize) -> f64 {
        let force = &self.forces[f];
        let lost: i32 = self
            .units
            .iter()
            .filter(|u| u.side == force.side && u.force as usize == f && lost_unit(u))
            .map(|u| u.points)
            .sum();
        let commanders = self.posts.lost(|c| self.commanders[c].side, force.side);
        let base = if force.start_points > 0 {
            100.0 * lost as f64 / force.start_points as f64
        } else {
            0.0
        };
        base + 10.0 * commanders as f64
    }

    /// The main army's losses, in percent.
    pub fn losses_percent(&self, side: Side) -> f64 {
        self.force_losses(side.index())
    }

    pub fn has_active_units(&self, side: Side) -> bool {
        self.units
            .iter()
            .any(|u| u.side == side && u.active() && u.arm.is_real())
            || self
                .units
                .iter()
                .any(|u| u.side == side && u.fate == Fate::Waiting)
    }
}

/// Whether a unit counts as lost for break points and victory: gone from the field, routed,
/// or a crew whose guns the enemy holds.
pub fn lost_unit(u: &Unit) -> bool {
    u.arm.is_real()
        && u.fate != Fate::Waiting
        && (!u.active() || u.routed || u.guns.is_some_and(|g| g.taken))
}

/// 2 f: an ethnic commander leads only troops of its nation, and troops of a nation only
/// their own commanders.
pub fn nation_fits(c: &Commander, u: &Unit) -> bool {
    c.nation == u.nation
}

/// An order's consequence applied to a brigade, for the log.
pub fn consequence_text(c: Consequence) -> String {
    format!("{} ({})", c.number(), c.text())
}

/// Who stands where, asked of the position through its [`Board`].
impl State {
    /// The units within `reach` hexes of `hex` (of `side` only, if given), in the order of
    /// their numbers.
    pub fn units_near(&self, hex: Hex, reach: u32, side: Option<Side>) -> Vec<usize> {
        let mut out = Vec::new();
        self.units_near_into(hex, reach, side, &mut out);
        out.sort_unstable();
        out
    }

    /// Adds the units within `reach` hexes of `hex` (of `side` only, if given) to `out`, in
    /// no particular order. Blocks of the board with nobody of that side in them are passed
    /// over.
    pub fn units_near_into(&self, hex: Hex, reach: u32, side: Option<Side>, out: &mut Vec<usize>) {
        let wanted = |k: usize| {
            let u = &self.units[k];
            u.active()
                && side.is_none_or(|s| u.side == s)
                && u.hex.unsigned_distance_to(hex) <= reach
        };
        self.board
            .units_near_into(self.map(), self.units.len(), hex, reach, side, wanted, out);
    }

    /// Calls `f` with each unit (and its distance) within `reach` of `hex`, hex by hex over
    /// the board: for a short reach (at most four hexes).
    pub fn near_cells(&self, hex: Hex, reach: u32, side: Option<Side>, f: impl FnMut(usize, u32)) {
        self.board.near_cells(self.map(), hex, reach, side, f);
    }

    /// The active unit standing in a hex (crews away from their guns included).
    pub fn unit_at(&self, hex: Hex) -> Option<usize> {
        self.board.unit_at(self.map(), hex)
    }

    /// Abandoned guns standing in a hex.
    pub fn guns_at(&self, hex: Hex) -> Option<usize> {
        self.board.guns_at(self.map(), hex)
    }

    /// The units whose zone of control covers `hex` (5.2): the neighbours facing it, in the
    /// order of the units' numbers.
    pub fn zones_at(&self, hex: Hex) -> Vec<usize> {
        let mut out: Vec<usize> = Facing::ALL
            .into_iter()
            .filter_map(|f| {
                let n = step(hex, f);
                let e = self.unit_at(n)?;
                (self.has_zoc(e) && front_hexes(n, self.units[e].facing).contains(&hex))
                    .then_some(e)
            })
            .collect();
        out.sort_unstable();
        out
    }

    /// Whether some unit's zone of control that `pred` accepts covers `hex`.
    pub fn zone_covers(&self, hex: Hex, pred: impl Fn(usize) -> bool) -> bool {
        Facing::ALL.into_iter().any(|f| {
            let n = step(hex, f);
            self.unit_at(n).is_some_and(|e| {
                self.has_zoc(e) && front_hexes(n, self.units[e].facing).contains(&hex) && pred(e)
            })
        })
    }

    /// The enemies of `side` whose zone of control covers `hex`, by number.
    pub fn enemy_zones_at(&self, side: Side, hex: Hex) -> Vec<usize> {
        let mut z = self.zones_at(hex);
        z.retain(|&e| self.units[e].side != side);
        z
    }
}

impl Board {
    /// The board of a position, built from scratch (at set-up, after a determinization, and
    /// by the invariant check that compares it with the one kept up to date).
    pub fn of(s: &State) -> Board {
        let mut b = Board::new(s.map());
        for (i, u) in s.units.iter().enumerate().filter(|(_, u)| u.active()) {
            b.place(s.map(), u.hex, i, u.side);
            if let Some(g) = u.guns_at() {
                b.put_guns(s.map(), g, Some(i));
            }
        }
        b
    }
}

/// What changed during an action, noted by whoever changed it.
#[derive(Clone, Debug, Default)]
pub struct Changes {
    pub everything: bool,
    /// Units whose own state changed, with the hex they stood in at the time.
    pub units: Vec<(usize, Hex)>,
    /// Hexes a unit entered or left, or in which one was uncovered.
    pub places: Vec<Hex>,
}

impl State {
    /// Notes that unit `i` changed (hits, facing, flags, movement points…).
    pub fn touch(&mut self, i: usize) {
        let hex = self.units[i].hex;
        self.changes.units.push((i, hex));
    }

    /// Notes that what stands in `hex` changed.
    pub fn touch_place(&mut self, hex: Hex) {
        self.changes.places.push(hex);
    }

    /// Notes a change that reaches every unit (a phase, a turn, a commander).
    pub fn touch_everything(&mut self) {
        self.changes.everything = true;
    }
}

impl State {
    /// The position's own invariants: units on the map, one to a hex, hits and TE within
    /// bounds, commanders attached where they say, melees in contact, and the board up to
    /// date.
    pub fn check_invariants(&self) -> Result<(), String> {
        let s = self;
        let mut seen = std::collections::HashMap::new();
        for (i, u) in s.units.iter().enumerate().filter(|(_, u)| u.active()) {
            if !s.map().contains(u.hex) {
                return Err(format!("{} is off the map", u.id));
            }
            // Units and abandoned guns each one to a hex; a unit may stand on guns it has
            // taken or retaken (section 3).
            for h in [Some((u.hex, true)), u.guns_at().map(|g| (g, false))]
                .into_iter()
                .flatten()
            {
                if let Some(j) = seen.insert(h, i) {
                    return Err(format!(
                        "{} and {} share {} (5.3)",
                        s.units[j].id,
                        u.id,
                        volley_core::geometry::label(h.0)
                    ));
                }
            }
            if u.hits > u.max_hits() || u.te > 3 {
                return Err(format!("{} has {} hits and {} TE", u.id, u.hits, u.te));
            }
            if u.hits >= u.max_hits() && !u.routed {
                return Err(format!("{} has {} hits but is not routed", u.id, u.hits));
            }
            if u.commander.is_some_and(|c| s.posts.at[c] != Some(i)) {
                return Err(format!("{}'s commander is attached elsewhere", u.id));
            }
        }
        for m in &s.melees {
            let (a, d) = (&s.units[m.attacker], &s.units[m.defender]);
            if !a.active() || !d.active() || a.hex.unsigned_distance_to(d.hex) != 1 {
                return Err(format!(
                    "melee between {} and {} is not in contact",
                    a.id, d.id
                ));
            }
        }
        let fresh = Board::of(s);
        if s.board != fresh {
            let map = s.map();
            let names = |b: &Board, h| {
                let id =
                    |u: Option<usize>| u.map_or("-".to_string(), |u| s.units[u].id.to_string());
                format!(
                    "unit {}, guns {}",
                    id(b.unit_at(map, h)),
                    id(b.guns_at(map, h))
                )
            };
            let at = map
                .hexes()
                .find(|&h| names(&s.board, h) != names(&fresh, h))
                .map_or(String::new(), |h| {
                    format!(
                        " at {}: kept {}; should be {}",
                        volley_core::geometry::label(h),
                        names(&s.board, h),
                        names(&fresh, h)
                    )
                });
            return Err(format!("the board (who stands where) is out of date{at}"));
        }
        Ok(())
    }
}

impl State {
    /// The phase in words: "red movement", "blue fire (non-phasing)".
    pub fn phase_name(&self) -> String {
        let s = self;
        let p = s.phasing();
        match s.phase {
            Phase::Orders => format!("{p} orders"),
            Phase::Movement => format!("{p} movement"),
            Phase::Fire => match s.fire_rounds.get(s.fire_round as usize) {
                Some(r) if r.side == p => format!("{p} fire (phasing)"),
                Some(r) => format!("{} fire (non-phasing)", r.side),
                None => "fire".into(),
            },
            Phase::Melee => format!("{p} melee"),
            Phase::Advance => "advance after melee".into(),
            Phase::Decision => "decision".into(),
            Phase::Withdrawal => "withdrawal before reinforcements".into(),
            Phase::Over => "game over".into(),
        }
    }
}
