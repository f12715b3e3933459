//! The game in play: the position, the player turn's four phases ("Sequence of Play"), the
//! decisions put to the inactive player in the middle of the active player's turn, and the
//! `Game` API over them. The procedures live in the file of the chapter they come from.

use crate::order::Order;
use crate::troops::{Arm, Unit};
use std::collections::HashMap;
use std::sync::Arc;
use volley_core::game::Refusal;
use volley_core::geometry::label;
use volley_core::map::{Map, MapView};
use volley_core::view::{
    CommanderView, ElementKind, Elements, ObjectiveView, SideView, UnitView, Word,
};
use volley_core::{
    Action, ActionInfo, ActionKind, Dice, Event, Game, Hex, Illegal, Log, Name, Outcome, Place,
    Side, View,
};

/// `n` things, the word plural when `n` is not one.
fn counted(n: u32, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// Where a rule comes from, for the log: the ruleset and the book's section name.
pub fn rule(section: &str) -> String {
    format!("{} {section}", crate::ID)
}

/// Whose eyes a question about the map is answered with: the map as it is (the referee,
/// the end of the battle), or as one side's view shows it (`None`: the spectators'), where
/// units hidden by a hidden set-up are not there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sight {
    AsItIs,
    View(Option<Side>),
}

/// What the scenario fixed, which changes in play only where engineers bridge water or
/// demolish a wall (copied then, as rarely as that happens).
#[derive(Clone, Debug)]
pub struct Setting {
    pub name: Name,
    pub title: Name,
    pub turn_limit: u32,
    pub map: Map,
    /// The lines of sight judged on the map so far (every copy of the game shares them).
    pub lines: Arc<crate::table::Sightlines>,
    pub map_view: Arc<MapView>,
    pub side_names: [Name; 2],
    pub objectives: Vec<Objective>,
    /// The side that plays the first player turn of each game turn.
    pub first: Side,
    pub table: TableRules,
    /// The nations of a multi-national scenario (units and command units name them).
    pub nations: Vec<String>,
}

#[derive(Clone, Debug)]
pub struct Objective {
    pub hex: Hex,
    pub name: Name,
    pub points: i32,
    /// Whether it is a major objective (else minor) for red and for blue, for the outcome
    /// table of "Reaching an Objective" (a scenario may make it major for one side only).
    pub major: [bool; 2],
    /// The side that must reach it; `None`: either.
    pub goal_of: Option<Side>,
}

/// The choices the text leaves open, set by options (docs/rules/bpt-commander.md).
#[derive(Clone, Copy, Debug)]
pub struct TableRules {
    /// How close (cm) the nearest visible enemy must be for initiative fire: 20 (the phase
    /// table) or 10 (the Firing chapter).
    pub initiative_fire_cm: u32,
    /// Charging a visible enemy within this many cm costs -1 on the command roll: 10 (note 4)
    /// or 20 (the modifier table).
    pub charge_penalty_cm: u32,
    /// The saber charge optional rule: mounted cavalry 4 attacks a stand, no firing.
    pub saber: bool,
    /// Exhausted cavalry lose a hit a stand (the Firing chapter) instead of an attack die
    /// (Game Concepts).
    pub exhaustion_hit: bool,
    /// +1 to each hit roll of a unit's first fire of the battle (ACW and Napoleonic lists).
    pub first_fire: bool,
    /// Whether squares may be formed (not in the ACW or before 1760).
    pub squares: bool,
    /// Per-order fire: any visible enemy in range (false) or the nearest only (true).
    pub nearest_only: bool,
    /// The weather and night optional rules.
    pub weather: crate::weather::WeatherRule,
    /// The Morale optional rule.
    pub morale: crate::ideas::MoraleRule,
    /// The Prone Movement optional rule.
    pub prone: bool,
    /// The Fixed Formations optional rule.
    pub fixed_formations: bool,
    /// The Constructions optional rule.
    pub constructions: bool,
    /// Shell is shrapnel (battles after 1845): one more attack a gun.
    pub shrapnel: bool,
    /// The air burst optional rule.
    pub air_burst: bool,
    /// A hidden set-up (for the Scouting Cavalry optional rule).
    pub hidden_setup: bool,
    /// The Frozen Terrain rule: wet terrain frozen over moves as high area terrain.
    pub frozen: bool,
    /// High-angle deviation starts with a hit die (1–2: on target); else it always deviates.
    pub deviation_hit_die: bool,
}

/// The units' move searches, kept while the legal actions are listed: one search a unit
/// rather than one a candidate. Outside a listing it holds nothing and every search is made
/// afresh; a copy of the game starts with an empty one.
#[derive(Debug, Default)]
pub struct ReachCache(std::sync::Mutex<Option<HashMap<usize, Reach>>>);

/// A unit's move search: every hex it may reach with one move action, and how.
pub type Reach = std::sync::Arc<Vec<(Hex, crate::movement::Stop)>>;

impl Clone for ReachCache {
    fn clone(&self) -> ReachCache {
        ReachCache::default()
    }
}

/// A listing under way: while it lives the move searches are kept; when it ends, even by a
/// panic, they are dropped, so no search outlives the position it was made in.
pub struct Listing<'a>(&'a ReachCache);

impl Drop for Listing<'_> {
    fn drop(&mut self) {
        self.0.set(false);
    }
}

impl ReachCache {
    /// Starts a listing of the legal actions (what was kept before is dropped).
    pub fn listing(&self) -> Listing<'_> {
        self.set(true);
        Listing(self)
    }

    fn set(&self, on: bool) {
        let mut c = self.0.lock().unwrap_or_else(|e| e.into_inner());
        *c = on.then(HashMap::new);
    }

    /// The unit's search from the cache during a listing (made with `search` the first
    /// time); outside one, made afresh.
    pub fn get(
        &self,
        unit: usize,
        search: impl FnOnce() -> Vec<(Hex, crate::movement::Stop)>,
    ) -> Reach {
        if let Ok(mut c) = self.0.lock() {
            if let Some(kept) = c.as_mut() {
                return kept
                    .entry(unit)
                    .or_insert_with(|| std::sync::Arc::new(search()))
                    .clone();
            }
        }
        std::sync::Arc::new(search())
    }
}

/// The player turn's phases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Setup,
    Initiative,
    Command,
    /// Orders are done: each command unit may make one move.
    HqMoves,
    Over,
}

/// A decision of the middle of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interrupt {
    /// The charged side answers: fire, evade, square, counter-charge.
    Response,
    /// A side moves units in support of the charge in progress.
    Support(Side),
    /// The inactive side may fire at a unit that just moved or fired.
    Opportunity { target: usize },
    /// A side's units that came out of a charge on top consolidate: a hex forward, a new
    /// facing.
    Consolidate(Side),
}

/// A charge between its declaration and its outcome ("Charge").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Charge {
    pub charger: usize,
    pub target: usize,
    /// Declared in the initiative phase (else by order).
    pub initiative: bool,
    /// The target counter-charged: both sides have the charge bonus in the first round.
    pub counter: bool,
    /// Units that answered the charge (each answers once).
    pub answered: Vec<usize>,
    /// Supporting units, red's then blue's.
    pub supporters: [Vec<usize>; 2],
}

#[derive(Clone, Debug)]
pub struct BptGame {
    pub setting: Arc<Setting>,
    /// Every unit and command unit of the scenario, in scenario order; knocked-out ones stay
    /// so that action numbers keep pointing at the same unit.
    pub units: Vec<Unit>,
    pub turn: u32,
    pub phase: Phase,
    /// The active player.
    pub active: Side,
    /// Attacks made so far (an order's or an initiative action's attacks share a number).
    pub attack_seq: u32,
    /// Command phase: the command unit issuing orders now, those done, whether the CO failed.
    pub current_hq: Option<usize>,
    pub finished: Vec<usize>,
    pub co_failed: bool,
    /// Units named for the next order.
    pub joined: Vec<usize>,
    /// The units of the order being carried out.
    pub order_units: Vec<usize>,
    pub interrupt: Option<Interrupt>,
    pub charge: Option<Charge>,
    /// Units that fired at the current opportunity target.
    pub opportunity_fired: Vec<usize>,
    /// A side whose Command broke and withdrew.
    pub broken: Option<Side>,
    /// The attack number of the order being carried out.
    pub order_id: u32,
    /// Where the charger of the charge in progress started.
    pub charge_start: Hex,
    /// Units of the charge just fought that may consolidate, and what they have done of it
    /// (unit, moved: true / turned: false).
    pub consolidating: Vec<usize>,
    pub consolidated: Vec<(usize, bool)>,
    /// The move search of one unit, kept while the legal actions are listed (never while the
    /// position changes: it is cleared before and after each listing).
    pub reach_cache: ReachCache,
    /// The order being rolled moves its unit all along a road (no distance modifier).
    pub road_order: bool,
    /// Set on a copy to stop a failed command roll before its blunder table (the odds read
    /// the position there).
    pub hold_blunder: bool,
    /// Set on a copy to stop a charge just before its combat (the odds read it there).
    pub hold_resolution: bool,
    /// The grand battery firing now: its order's number and its one target.
    pub battery: Option<(u32, usize)>,
    /// Hits of units knocked out in the charge in progress, for its outcome.
    pub ko_hits: std::collections::BTreeMap<usize, u32>,
    pub outcome: Option<Outcome>,
    /// The weather now (normal throughout unless the weather or night rule is used).
    pub weather: crate::weather::Weather,
    /// Field defences and constructions on the table (shared until one changes).
    pub works: Arc<Vec<crate::works::Work>>,
    /// Per map cell, the unit (not command unit) standing there.
    occupant: Vec<Option<u16>>,
}

impl BptGame {
    pub fn new(setting: Setting, units: Vec<Unit>) -> BptGame {
        let cells = setting.map.cell_count();
        let first = setting.first;
        let mut g = BptGame {
            setting: Arc::new(setting),
            units,
            turn: 1,
            phase: Phase::Setup,
            active: first,
            attack_seq: 0,
            current_hq: None,
            finished: Vec::new(),
            co_failed: false,
            joined: Vec::new(),
            order_units: Vec::new(),
            interrupt: None,
            charge: None,
            opportunity_fired: Vec::new(),
            broken: None,
            order_id: 0,
            charge_start: Hex::ZERO,
            ko_hits: Default::default(),
            battery: None,
            hold_resolution: false,
            hold_blunder: false,
            reach_cache: Default::default(),
            road_order: false,
            consolidating: Vec::new(),
            consolidated: Vec::new(),
            outcome: None,
            weather: Default::default(),
            works: Default::default(),
            occupant: vec![None; cells],
        };
        g.weather = g.setting.table.weather.opening();
        for k in 0..g.units.len() {
            if !g.units[k].is_hq() && !g.units[k].ko {
                let c = g.cell(g.units[k].hex);
                g.occupant[c] = Some(k as u16);
            }
        }
        g
    }

    pub fn map(&self) -> &Map {
        &self.setting.map
    }

    /// The map as troops move over it (frozen or not).
    pub fn ground(&self) -> crate::terrain::Ground<'_> {
        crate::terrain::Ground {
            map: &self.setting.map,
            frozen: self.setting.table.frozen,
        }
    }

    /// The map, to change (a bridge built, a wall demolished): the setting is copied if
    /// another game shares it, and the map's view follows.
    pub fn map_mut(&mut self) -> MapMut<'_> {
        MapMut(Arc::make_mut(&mut self.setting))
    }

    pub fn table(&self) -> TableRules {
        self.setting.table
    }

    pub fn visibility_cm(&self) -> u32 {
        self.weather.visibility_cm()
    }

    fn cell(&self, hex: Hex) -> usize {
        self.map().index(hex).expect("units stand on the map")
    }

    /// The unit (not command unit) in a hex.
    pub fn occupant(&self, hex: Hex) -> Option<usize> {
        self.map()
            .index(hex)
            .and_then(|c| self.occupant[c])
            .map(usize::from)
    }

    /// The command units in a hex.
    pub fn hqs_in(&self, hex: Hex) -> impl Iterator<Item = usize> + '_ {
        (0..self.units.len()).filter(move |&k| {
            let u = &self.units[k];
            u.is_hq() && !u.ko && u.hex == hex
        })
    }

    /// Puts a unit in a hex (its old hex emptied).
    pub fn relocate(&mut self, unit: usize, to: Hex) {
        if !self.units[unit].is_hq() {
            let from = self.cell(self.units[unit].hex);
            if self.occupant[from] == Some(unit as u16) {
                self.occupant[from] = None;
            }
            let c = self.cell(to);
            self.occupant[c] = Some(unit as u16);
        }
        self.units[unit].hex = to;
    }

    /// Takes a unit out of the hex index (to be placed again with [`BptGame::relocate`]).
    pub fn lift(&mut self, unit: usize) {
        if !self.units[unit].is_hq() {
            let c = self.cell(self.units[unit].hex);
            if self.occupant[c] == Some(unit as u16) {
                self.occupant[c] = None;
            }
        }
    }

    /// Takes a knocked-out unit off the table.
    pub fn knock_out(&mut self, unit: usize, why: &str, log: &mut Log) {
        if self.units[unit].ko {
            return;
        }
        self.units[unit].ko = true;
        self.units[unit].turn_hits = 0;
        self.units[unit].suppressed = None;
        if !self.units[unit].is_hq() {
            let c = self.cell(self.units[unit].hex);
            if self.occupant[c] == Some(unit as u16) {
                self.occupant[c] = None;
            }
        }
        let u = &self.units[unit];
        log.add(|| {
            Event::new(
                "ko",
                rule("Knock-Out"),
                format!("{} is knocked out: {why}", u.label()),
            )
            .side(u.side)
            .units([u.id.clone()])
        });
        // A command unit touching a unit shares its fate ("Command Units").
        if !self.units[unit].is_hq() {
            let hex = self.units[unit].hex;
            let side = self.units[unit].side;
            let with: Vec<usize> = self
                .hqs_in(hex)
                .filter(|&h| self.units[h].side == side)
                .collect();
            for h in with {
                self.knock_out(h, "the unit it was with was knocked out", log);
            }
        }
    }

    /// The player turn number: 0 for the first player turn of the game, then one each.
    pub fn player_turn(&self) -> u32 {
        (self.turn - 1) * 2 + u32::from(self.active != self.setting.first)
    }

    pub fn side_name(&self, side: Side) -> &str {
        &self.setting.side_names[side.index()]
    }

    pub fn enemy_of(&self, a: usize, b: usize) -> bool {
        self.units[a].side != self.units[b].side
    }

    fn order_of(&self, action: Action) -> Result<Order, Illegal> {
        Order::unpack(action)
            .filter(|o| o.units().iter().all(|&k| k < self.units.len()))
            .ok_or_else(|| Illegal::new(format!("{action:?} is not a Black Powder action")))
    }

    /// Who decides now.
    pub fn decider(&self) -> Option<Side> {
        if self.phase == Phase::Over || self.phase == Phase::Setup {
            return None;
        }
        Some(match self.interrupt {
            Some(Interrupt::Response) | Some(Interrupt::Opportunity { .. }) => self.active.other(),
            Some(Interrupt::Support(side)) | Some(Interrupt::Consolidate(side)) => side,
            None => self.active,
        })
    }

    /// Why an order may not be given now, if it may not.
    pub fn check_order<R: Refusal>(&self, o: Order) -> Result<(), R> {
        if matches!(self.phase, Phase::Setup | Phase::Over) {
            return Err(R::because(|| "the game is not in play"));
        }
        let side = self.decider().expect("in play");
        if let Some(k) = o.actor() {
            let u = &self.units[k];
            if u.side != side {
                return Err(R::because(|| {
                    format!("{} is not {}'s", u.label(), side.name())
                }));
            }
            if u.ko {
                return Err(R::because(|| format!("{} is knocked out", u.label())));
            }
            if u.traits.scout
                && matches!(
                    o,
                    Order::Fire { .. } | Order::Charge { .. } | Order::CounterCharge { .. }
                )
            {
                return Err(R::because(|| {
                    format!(
                        "{} are scouting cavalry: they look, they do not fight",
                        u.label()
                    )
                }));
            }
        }
        match self.interrupt {
            Some(Interrupt::Response) => self.check_response(o),
            Some(Interrupt::Support(_)) => self.check_support(o),
            Some(Interrupt::Consolidate(_)) => self.check_consolidate(o),
            Some(Interrupt::Opportunity { target }) => self.check_opportunity(o, target),
            None => match self.phase {
                Phase::Initiative => self.check_initiative(o),
                Phase::Command => self.check_command(o),
                Phase::HqMoves => self.check_hq_move(o),
                Phase::Setup | Phase::Over => unreachable!(),
            },
        }
    }

    /// Carries out an order already checked.
    pub(crate) fn perform(&mut self, o: Order, dice: &mut dyn Dice, log: &mut Log) {
        let before = self.before_action(&o.units(), log);
        self.perform_order(o, dice, log);
        self.after_action(before, log);
    }

    fn perform_order(&mut self, o: Order, dice: &mut dyn Dice, log: &mut Log) {
        match self.interrupt {
            Some(Interrupt::Response) => self.perform_response(o, dice, log),
            Some(Interrupt::Support(_)) => self.perform_support(o, dice, log),
            Some(Interrupt::Consolidate(side)) => self.perform_consolidate(side, o, log),
            Some(Interrupt::Opportunity { target }) => {
                self.perform_opportunity(o, target, dice, log)
            }
            None => match self.phase {
                Phase::Initiative => self.perform_initiative(o, dice, log),
                Phase::Command => self.perform_command(o, dice, log),
                Phase::HqMoves => self.perform_hq_move(o, dice, log),
                Phase::Setup | Phase::Over => {}
            },
        }
    }

    /// Candidate orders now (each is checked before it is listed).
    fn candidates(&self, out: &mut Vec<Order>) {
        match self.interrupt {
            Some(Interrupt::Response) => self.response_candidates(out),
            Some(Interrupt::Support(side)) => self.support_candidates(side, out),
            Some(Interrupt::Consolidate(side)) => self.consolidate_candidates(side, out),
            Some(Interrupt::Opportunity { target }) => self.opportunity_candidates(target, out),
            None => match self.phase {
                Phase::Initiative => self.initiative_candidates(out),
                Phase::Command => self.command_candidates(out),
                Phase::HqMoves => self.hq_move_candidates(out),
                Phase::Setup | Phase::Over => return,
            },
        }
        out.push(Order::End);
    }

    fn unit_candidates(&self, unit: usize, out: &mut Vec<Order>) {
        let _kept = self.reach_cache.listing();
        let mut all = Vec::new();
        self.candidates(&mut all);
        all.retain(|o| self.describe_order(*o).unit == Some(unit as u32));
        out.extend(self.checked(all));
    }

    /// The candidates that pass their check, in order and without repeats (a listing's
    /// hundreds of orders are hashed with a fast hasher: the default one was a tenth of the
    /// bots' time here).
    fn checked(&self, all: Vec<Order>) -> Vec<Order> {
        let mut seen = std::collections::HashSet::with_capacity_and_hasher(
            all.len(),
            foldhash::fast::FixedState::default(),
        );
        all.into_iter()
            .filter(|&o| seen.insert(o) && self.check_order::<()>(o).is_ok())
            .collect()
    }

    pub fn phase_words(&self) -> String {
        let words = self.phase_name();
        match self.table().weather {
            crate::weather::WeatherRule::Off => words,
            crate::weather::WeatherRule::Night => format!("{words} · night"),
            _ => format!("{words} · {}", self.weather.name()),
        }
    }

    fn phase_name(&self) -> String {
        let s = self.side_name(self.active);
        match self.phase {
            Phase::Setup => "setting up".into(),
            Phase::Initiative => format!("{s} initiative"),
            Phase::Command => format!("{s} command"),
            Phase::HqMoves => format!("{s} command units move"),
            Phase::Over => "game over".into(),
        }
    }

    fn prompt(&self) -> Option<String> {
        let side = self.decider()?;
        let who = side.title();
        Some(match self.interrupt {
            Some(Interrupt::Response) => {
                let c = self.charge.as_ref().expect("a charge in progress");
                format!(
                    "{who}: {} charges {} — fire at the charger, evade, form square or counter-charge, then end",
                    self.units[c.charger].label(),
                    self.units[c.target].label()
                )
            }
            Some(Interrupt::Support(_)) => format!("{who}: move units in support of the charge, then end"),
            Some(Interrupt::Consolidate(_)) => format!(
                "{who}: consolidate — the charge's winners may go a hex forward (not next to a visible enemy) and turn, then end"
            ),
            Some(Interrupt::Opportunity { target }) => format!(
                "{who}: opportunity fire at {}? (each firer loses its initiative and -1 command next turn)",
                self.units[target].label()
            ),
            None => match self.phase {
                Phase::Initiative => format!(
                    "{who}: initiative — units within 20 cm of the nearest visible enemy may fire, charge, evade or deploy"
                ),
                Phase::Command => match self.current_hq {
                    Some(h) if !self.order_units.is_empty() => format!(
                        "{who}: carry out {}'s order, or give the next (join units, then order)",
                        self.units[h].label()
                    ),
                    _ => format!("{who}: command — give a unit its action (the order's command roll comes first), or join units and order them together; end when done"),
                },
                Phase::HqMoves => format!("{who}: each command unit may move once"),
                Phase::Setup | Phase::Over => return None,
            },
        })
    }

    fn describe_order(&self, o: Order) -> ActionInfo {
        let at = |k: usize| Place::Hex(self.units[k].hex);
        let info = match o {
            Order::End => return ActionInfo::end(),
            Order::Fire { ammo, target, .. } => ActionInfo::new(
                if ammo == crate::artillery::Ammo::Canister {
                    "canister"
                } else {
                    "fire"
                },
                ActionKind::Attack,
            )
            .at(at(target)),
            Order::Charge { target, .. } => {
                ActionInfo::new("charge", ActionKind::Attack).at(at(target))
            }
            Order::Move { to, .. } => ActionInfo::new("move", ActionKind::Move).at(to),
            Order::Evade { .. } => ActionInfo::new("evade", ActionKind::Other),
            Order::Wheel { unit, right } => ActionInfo::new("wheel", ActionKind::Turn)
                .facing(self.units[unit].facing.turn(if right { 1 } else { -1 })),
            Order::AboutFace { unit } => ActionInfo::new("about-face", ActionKind::Turn)
                .facing(self.units[unit].facing.opposite()),
            Order::Retire { .. } => ActionInfo::new("retire", ActionKind::Other),
            Order::Prolonge { .. } => ActionInfo::new("prolonge", ActionKind::Other),
            Order::Form { .. } => ActionInfo::new("form", ActionKind::Other),
            Order::Limber { .. } => ActionInfo::new("limber", ActionKind::Other),
            Order::Unlimber { facing, .. } => {
                ActionInfo::new("unlimber", ActionKind::Other).facing(facing)
            }
            Order::Pivot { facing, .. } => {
                ActionInfo::new("pivot", ActionKind::Turn).facing(facing)
            }
            Order::Refuse { .. } => ActionInfo::new("refuse", ActionKind::Other),
            Order::Join { .. } => ActionInfo::new("join", ActionKind::Other),
            Order::Command { .. } => ActionInfo::new("order", ActionKind::Other),
            Order::SelfOrder { .. } => ActionInfo::new("self-order", ActionKind::Other),
            Order::Square { .. } => ActionInfo::new("square", ActionKind::Other),
            Order::Transfer { hq, .. } => ActionInfo::new("transfer", ActionKind::Other).at(at(hq)),
            Order::Task { task, hex, .. } => {
                ActionInfo::new(task.word(), ActionKind::Other).at(hex)
            }
            Order::Dismount { mount, .. } => {
                ActionInfo::new(if mount { "mount" } else { "dismount" }, ActionKind::Other)
            }
            Order::Prone { down, .. } => {
                ActionInfo::new(if down { "prone" } else { "rise" }, ActionKind::Other)
            }
            Order::CounterCharge { .. } => ActionInfo::new("countercharge", ActionKind::Other),
            Order::Support { friend, .. } => {
                ActionInfo::new("support", ActionKind::Other).at(at(friend))
            }
        };
        match o {
            Order::Command { unit, .. } => info.unit(unit as u32),
            _ => match o.actor() {
                Some(k) => info.unit(k as u32),
                None => info,
            },
        }
    }

    /// What `side` may see ([`Game::view`]); without the firing cones when `cones` is false
    /// ([`Game::search_view`]: the bots' search never reads them, and they cost a tenth of it).
    fn view_with(&self, side: Option<Side>, cones: bool) -> View {
        View {
            ruleset: crate::ID.into(),
            scenario: self.setting.name.clone(),
            title: self.setting.title.clone(),
            viewer: side,
            turn: self.turn,
            turn_limit: self.setting.turn_limit,
            phase: self.phase_words(),
            phasing: (!matches!(self.phase, Phase::Over | Phase::Setup)).then_some(self.active),
            to_decide: self.decider(),
            prompt: self.prompt(),
            map: self.setting.map_view.clone(),
            sides: Side::BOTH
                .into_iter()
                .map(|s| {
                    let (lost, all) = self.losses(s);
                    SideView {
                        side: s,
                        name: self.setting.side_names[s.index()].clone(),
                        losses_percent: if all == 0 {
                            0.0
                        } else {
                            100.0 * lost as f64 / all as f64
                        },
                        break_point: (all > 0).then(|| 100.0 * all.div_ceil(2) as f64 / all as f64),
                        score: self.victory_points(s) as i32,
                        commanders: self
                            .units
                            .iter()
                            .enumerate()
                            .filter(|(_, u)| u.side == s && u.is_hq())
                            .map(|(hk, u)| CommanderView {
                                id: u.id.clone(),
                                name: u.name.clone(),
                                value: u.command as i32,
                                supreme: u.co,
                                attached_to: self
                                    .occupant(u.hex)
                                    .filter(|&k| self.units[k].side == s)
                                    .filter(|&k| !self.hidden_from_view(k, side))
                                    .map(|k| self.units[k].id.clone()),
                                status: if u.ko {
                                    "killed".into()
                                } else if self.hidden_from_view(hk, side) {
                                    "hidden".into()
                                } else if self
                                    .occupant(u.hex)
                                    .is_some_and(|k| !self.hidden_from_view(k, side))
                                {
                                    "attached".into()
                                } else {
                                    "ready".into()
                                },
                            })
                            .collect(),
                    }
                })
                .collect(),
            units: self
                .units
                .iter()
                .enumerate()
                .filter(|(k, u)| !u.ko && !self.hidden_from_view(*k, side))
                .map(|(k, u)| self.unit_view(k, u, cones))
                .collect(),
            markers: self.markers(side),
            features: Vec::new(),
            objectives: self
                .setting
                .objectives
                .iter()
                .map(|o| ObjectiveView {
                    place: Place::Hex(o.hex),
                    name: match (o.major, o.goal_of) {
                        ([false, false], None) => o.name.clone(),
                        ([true, true], None) => format!("{} (major)", o.name).into(),
                        (major, None) => {
                            let m = if major[0] { 0 } else { 1 };
                            format!(
                                "{} (major for {}, minor for {})",
                                o.name,
                                self.setting.side_names[m],
                                self.setting.side_names[1 - m]
                            )
                            .into()
                        }
                        (major, Some(s)) => format!(
                            "{} ({}{}'s goal)",
                            o.name,
                            if major[s.index()] { "major, " } else { "" },
                            self.setting.side_names[s.index()]
                        )
                        .into(),
                    },
                    points: o.points,
                    holder: self.holder(o.hex, Sight::View(side)),
                    goal_of: o.goal_of,
                    decisive: o.major,
                })
                .collect(),
            outcome: self.outcome.clone(),
            standing: self
                .outcome
                .is_none()
                .then(|| self.standing(Sight::View(side))),
        }
    }

    fn unit_view(&self, key: usize, u: &Unit, cones: bool) -> UnitView {
        let mut flags: Vec<Word> = Vec::new();
        if u.is_suppressed() {
            flags.push("suppressed".into());
        }
        if u.disordered() {
            flags.push("disordered".into());
        }
        if u.exhausted {
            flags.push("exhausted".into());
        }
        if u.arm == Arm::Artillery {
            flags.push(if u.limbered {
                "limbered".into()
            } else {
                "unlimbered".into()
            });
            if u.traits.howitzer {
                flags.push("howitzer".into());
            }
            if u.traits.mortar {
                flags.push("mortar".into());
            }
        }
        if u.regimental_guns > 0 {
            flags.push(counted(u.regimental_guns, "regimental gun").into());
        }
        if u.dug_in {
            flags.push("dug in".into());
        }
        if u.hidden {
            flags.push("hidden".into());
        }
        if u.traits.scout {
            flags.push(
                if u.scout_free {
                    "scouting freely"
                } else {
                    "scouting"
                }
                .into(),
            );
        }
        if u.refused != 0 {
            flags.push(if u.refused < 0 {
                "refused left".into()
            } else {
                "refused right".into()
            });
        }
        if u.initiative_used && self.active == u.side {
            flags.push("acted on initiative".into());
        }
        if u.actions > 0 {
            flags.push(format!("{} left", counted(u.actions, "action")).into());
        }
        if self.joined.contains(&key) {
            flags.push("joined".into());
        }
        if u.opportunity.is_some_and(|t| t + 1 >= self.player_turn()) {
            flags.push("opportunity fired".into());
        }
        let hq = u.is_hq();
        UnitView {
            id: u.id.clone(),
            key: key as u32,
            name: u.name.clone(),
            side: u.side,
            arm: u.arm.name().into(),
            class: hq.then(|| {
                if u.co {
                    "CO".into()
                } else if u.fao {
                    "FAO".into()
                } else {
                    "HQ".into()
                }
            }),
            symbol: u.arm.symbol(),
            place: Place::Hex(u.hex),
            facing: (!hq).then_some(u.facing),
            hits: u.turn_hits,
            max_hits: u.capacity(self.table().exhaustion_hit),
            te: 0,
            max_te: 0,
            strength: hq.then_some(u.command),
            elements: (!hq).then_some(Elements {
                kind: ElementKind::Stands,
                now: u.stands,
                full: u.full_stands,
            }),
            formation: u.formed_troops().then(|| u.formation.name().into()),
            cone: if !cones || hq || u.ko || (u.arm == Arm::Artillery && u.limbered) {
                Vec::new()
            } else {
                self.cone_hexes(key).into_iter().map(Place::Hex).collect()
            },
            flags,
            commander: if hq {
                None
            } else {
                self.hqs_in(u.hex)
                    .find(|&h| self.units[h].side == u.side)
                    .map(|h| self.units[h].name.clone())
            },
        }
    }

    /// A charge waits for the charged side's answer and the supports: a preview takes none of
    /// them (cavalry that must answer counter-charges), fights it out at once, and leaves the
    /// winners where they stand.
    pub fn answer_charge_for_preview(&mut self, dice: &mut dyn Dice, events: &mut Vec<Event>) {
        while (self.charge.is_some()
            && matches!(
                self.interrupt,
                Some(Interrupt::Response | Interrupt::Support(_))
            ))
            || matches!(self.interrupt, Some(Interrupt::Consolidate(_)))
        {
            let mut log = Log::new();
            match self.interrupt {
                Some(Interrupt::Response) if self.check_order::<()>(Order::End).is_err() => {
                    let t = self.charge.as_ref().map(|c| c.target).expect("charge");
                    self.perform(Order::CounterCharge { unit: t }, dice, &mut log);
                }
                _ => self.perform(Order::End, dice, &mut log),
            }
            events.extend(log.into_events());
        }
    }

    /// The side holding a hex (its unit standing there), as `sight` shows the map: an enemy
    /// hidden there under a hidden set-up holds nothing a view can show.
    pub fn holder(&self, hex: Hex, sight: Sight) -> Option<Side> {
        self.occupant(hex)
            .filter(|&k| match sight {
                Sight::AsItIs => true,
                Sight::View(viewer) => !self.hidden_from_view(k, viewer),
            })
            .map(|k| self.units[k].side)
    }

    /// Units of a side knocked out, command units left out, and how many there were.
    pub fn losses(&self, side: Side) -> (u32, u32) {
        let mine = self.units.iter().filter(|u| u.side == side && !u.is_hq());
        let all = mine.clone().count() as u32;
        // Scouting cavalry that left the table are not lost.
        (mine.filter(|u| u.ko && !u.retired).count() as u32, all)
    }
}

impl Game for BptGame {
    fn ruleset(&self) -> &'static str {
        crate::ID
    }

    fn start(&mut self, dice: &mut dyn Dice) -> Vec<Event> {
        let mut log = Log::new();
        if self.phase == Phase::Setup {
            self.spot(&mut log);
            self.roll_opening_weather(dice, &mut log);
            self.begin_player_turn(dice, &mut log);
        }
        log.into_events()
    }

    fn to_decide(&self) -> Option<Side> {
        self.decider()
    }

    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        let _kept = self.reach_cache.listing();
        let mut all = Vec::new();
        self.candidates(&mut all);
        out.extend(self.checked(all).into_iter().map(Order::pack));
    }

    fn unit_actions(&self, unit: u32, out: &mut Vec<Action>) {
        out.clear();
        let mut mine = Vec::new();
        if (unit as usize) < self.units.len() {
            self.unit_candidates(unit as usize, &mut mine);
        }
        out.extend(mine.into_iter().map(Order::pack));
    }

    fn check(&self, action: Action) -> Result<(), Illegal> {
        let o = self.order_of(action)?;
        self.check_order(o)
    }

    fn play_unchecked(&mut self, action: Action, dice: &mut dyn Dice, log: &mut Log) {
        let o = Order::unpack(action).expect("an action from the legal list");
        self.perform(o, dice, log);
    }

    /// Hits are turned into stand losses only at the end phase; the preview does it at once
    /// for the units the action touched, so that the odds show what the attack leaves.
    fn preview(&mut self, action: Action, dice: &mut dyn Dice) -> Result<Vec<Event>, Illegal> {
        let before: Vec<u32> = self.units.iter().map(|u| u.turn_hits).collect();
        let mut events = self.apply(action, dice)?;
        if matches!(Order::unpack(action), Some(Order::Charge { .. })) {
            self.answer_charge_for_preview(dice, &mut events);
        }
        for (k, u) in self.units.iter_mut().enumerate() {
            if u.turn_hits != before[k] && !u.ko {
                let lost = u.turn_hits / u.hits_per_stand;
                u.stands = u.stands.saturating_sub(lost);
            }
        }
        Ok(events)
    }

    fn odds_cases(&self, action: Action) -> Option<Vec<volley_core::odds::OddsCase>> {
        let o = Order::unpack(action)?;
        if o.actor()
            .is_some_and(|k| self.units.get(k).is_some_and(|u| u.actions == 0))
            && self.phase == Phase::Command
            && self.interrupt.is_none()
        {
            return self.own_order_cases(o);
        }
        match o {
            Order::Charge { .. } => self.charge_cases(o),
            _ => self.cases(o),
        }
    }

    fn notation(&self, action: Action) -> String {
        match self.order_of(action) {
            Ok(o) => self.write_order(o),
            Err(e) => e.0,
        }
    }

    fn describe(&self, action: Action) -> ActionInfo {
        match self.order_of(action) {
            Ok(o) => self.describe_order(o),
            Err(_) => ActionInfo::new("?", ActionKind::Other),
        }
    }

    fn parse_action(&self, text: &str) -> Result<Action, Illegal> {
        self.read_order(text).map(Order::pack)
    }

    fn turn(&self) -> u32 {
        self.turn
    }

    fn phasing(&self) -> Option<Side> {
        (!matches!(self.phase, Phase::Over | Phase::Setup)).then_some(self.active)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    /// The table is open: both players see every unit, as the book plays it ("there are no
    /// tests for visibility"); sight decides only what a unit may act against.
    fn view(&self, side: Option<Side>) -> View {
        self.view_with(side, true)
    }

    fn search_view(&self, side: Option<Side>) -> View {
        self.view_with(side, false)
    }

    fn clone_game(&self) -> Box<dyn Game> {
        Box::new(self.clone())
    }

    fn determinize(&self, side: Side, dice: &mut dyn Dice) -> Box<dyn Game> {
        Box::new(self.determinized(side, dice))
    }

    fn reach(&self, unit: &str) -> Vec<volley_core::Reach> {
        let Some(k) = self.units.iter().position(|u| &*u.id == unit) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut mine = Vec::new();
        self.unit_candidates(k, &mut mine);
        for o in mine {
            if let Order::Move { to, .. } = o {
                out.push(volley_core::Reach {
                    hex: label(to),
                    cost: volley_core::geometry::distance(self.units[k].hex, to),
                });
            }
        }
        out
    }

    fn check_invariants(&self) -> Result<(), String> {
        let mut seen = vec![None::<usize>; self.map().cell_count()];
        for (k, u) in self.units.iter().enumerate() {
            if u.ko {
                if u.turn_hits != 0 || u.suppressed.is_some() {
                    return Err(format!(
                        "knocked-out {} still has hits or suppression",
                        u.label()
                    ));
                }
                continue;
            }
            let Some(c) = self.map().index(u.hex) else {
                return Err(format!("{} is off the map at {}", u.label(), label(u.hex)));
            };
            if u.stands == 0 || u.stands > u.full_stands {
                return Err(format!(
                    "{} has {} stands of {}",
                    u.label(),
                    u.stands,
                    u.full_stands
                ));
            }
            if u.turn_hits >= u.stands * u.hits_per_stand {
                return Err(format!(
                    "{} has {} hits and is still in play",
                    u.label(),
                    u.turn_hits
                ));
            }
            if !u.is_hq() {
                if let Some(other) = seen[c] {
                    return Err(format!(
                        "{} and {} share {}",
                        self.units[other].label(),
                        u.label(),
                        label(u.hex)
                    ));
                }
                seen[c] = Some(k);
                if self.occupant[c] != Some(k as u16) {
                    return Err(format!(
                        "the hex index misses {} at {}",
                        u.label(),
                        label(u.hex)
                    ));
                }
                if self.map().terrain(u.hex) == volley_core::map::Terrain::Water
                    && !self.table().frozen
                {
                    return Err(format!("{} stands in water at {}", u.label(), label(u.hex)));
                }
            }
        }
        for (c, o) in self.occupant.iter().enumerate() {
            if let Some(k) = o {
                if seen[c] != Some(*k as usize) {
                    return Err(format!("the hex index lists unit {k} where it is not"));
                }
            }
        }
        if self.outcome.is_some() != (self.phase == Phase::Over) {
            return Err("the outcome and the phase disagree".into());
        }
        Ok(())
    }
}

/// The map being changed; its view is brought up to date when the change is done.
pub struct MapMut<'a>(&'a mut Setting);

impl std::ops::Deref for MapMut<'_> {
    type Target = Map;
    fn deref(&self) -> &Map {
        &self.0.map
    }
}

impl std::ops::DerefMut for MapMut<'_> {
    fn deref_mut(&mut self) -> &mut Map {
        &mut self.0.map
    }
}

impl Drop for MapMut<'_> {
    fn drop(&mut self) {
        self.0.map_view = Arc::new(self.0.map.to_view());
        self.0.lines = Arc::new(crate::table::Sightlines::new(
            &self.0.map,
            crate::table::SIGHTLINES_KEPT,
        ));
    }
}
