//! The position: what the scenario fixed ([`Setting`], [`TableRules`]), the units where they
//! stand with the hex index kept beside them, the phase and the decision in progress, the
//! weather and the works on the table; the few updates every chapter makes through it (a unit
//! relocated with the command units beside it, lifted, knocked out, suppressed; a new attack
//! number) and the questions every chapter asks of it (who decides, who may act, what is
//! hidden from whom, who holds a hex). It names no chapter: the rules live in the file of the
//! chapter they come from, the sequence of play in `sequence.rs`, the `Game` API in `game.rs`.

use crate::orders::Order;
use crate::reach::ReachCache;
use crate::troops::{MoraleRule, Suppression, Unit};
use crate::weather::{Weather, WeatherRule};
use std::sync::Arc;
use volley_core::game::Refusal;
use volley_core::geometry::label;
use volley_core::map::{Map, MapView};
use volley_core::{Event, Hex, Log, Name, Outcome, Side};

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
    pub weather: WeatherRule,
    /// The Morale optional rule.
    pub morale: MoraleRule,
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

/// What a phase's order leaves for the sequence of play to do next.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Then {
    /// The phase goes on.
    Continue,
    /// The player turn's orders and command movement are over: its end phase comes.
    EndPhase,
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
    pub weather: Weather,
    /// Field defences and constructions on the table (shared until one changes).
    pub works: Arc<Vec<crate::terrain::Work>>,
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

    /// Marks a unit suppressed (and a command unit with it).
    pub fn suppress(&mut self, unit: usize, by: u32, log: &mut Log, test: &[u32]) {
        let mark = Suppression {
            placed: self.player_turn(),
            by_attack: by,
        };
        self.units[unit].suppressed = Some(mark);
        let u = &self.units[unit];
        log.add(|| {
            Event::new(
                "suppressed",
                rule("Suppression"),
                if test.is_empty() {
                    format!("{} is suppressed", u.label())
                } else {
                    format!("{} is suppressed (test {test:?})", u.label())
                },
            )
            .side(u.side)
            .units([u.id.clone()])
        });
        let (hex, side) = (u.hex, u.side);
        let with: Vec<usize> = self
            .hqs_in(hex)
            .filter(|&h| self.units[h].side == side)
            .collect();
        for h in with {
            self.units[h].suppressed = Some(mark);
        }
    }

    /// Moves a unit and the command units with it.
    pub fn move_with_hqs(&mut self, unit: usize, to: Hex) {
        let from = self.units[unit].hex;
        let side = self.units[unit].side;
        let with: Vec<usize> = if self.units[unit].is_hq() {
            Vec::new()
        } else {
            self.hqs_in(from)
                .filter(|&h| self.units[h].side == side)
                .collect()
        };
        self.relocate(unit, to);
        for h in with {
            self.relocate(h, to);
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

    /// A new attack number.
    pub fn next_attack(&mut self) -> u32 {
        self.attack_seq += 1;
        self.attack_seq
    }

    /// Whether `unit` is hidden from `side` (the enemy sees only its marker).
    pub fn hidden_from(&self, unit: usize, side: Side) -> bool {
        let u = &self.units[unit];
        u.hidden && !u.ko && u.side != side
    }

    /// Whether `unit` is hidden from anyone looking: from its enemy, or from a spectator.
    pub fn hidden_from_view(&self, unit: usize, viewer: Option<Side>) -> bool {
        let u = &self.units[unit];
        u.hidden && !u.ko && viewer != Some(u.side)
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

    /// Why the unit acting in `o` may not act now, if it may not: it is not the deciding
    /// side's, it is knocked out, or it is scouting cavalry asked to fight ("Scouting
    /// Cavalry": they look, they do not fight). The game is in play.
    pub fn may_act<R: Refusal>(&self, o: Order) -> Result<(), R> {
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
        Ok(())
    }

    /// Units of a side knocked out, command units left out, and how many there were.
    pub fn losses(&self, side: Side) -> (u32, u32) {
        let mine = self.units.iter().filter(|u| u.side == side && !u.is_hq());
        let all = mine.clone().count() as u32;
        // Scouting cavalry that left the table are not lost.
        (mine.filter(|u| u.ko && !u.retired).count() as u32, all)
    }

    /// What must hold of every position: knocked-out units carry nothing, the rest stand on
    /// the map, one a hex, with stands and hits in bounds, and the hex index agrees.
    pub fn invariants(&self) -> Result<(), String> {
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
