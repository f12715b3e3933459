//! A generic evaluation of a position, read only from one side's [`View`]: material left,
//! losses against the break point, victory points, objectives, and where the units stand.
//! Every ruleset fills the same view, so the same evaluation serves all of them.

use crate::field::Field;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use volley_core::geometry::in_front_arc;
use volley_core::map::Grid;
use volley_core::view::{ElementKind, ObjectiveView, UnitView, View};
use volley_core::{Hex, Place, Side};

/// A won (or lost) game is worth more than any material.
pub const WIN: f64 = 1000.0;
/// The evaluation's weights. [`Weights::STANDARD`] serves every bot; a bot may be given
/// others (the heuristic's settings, docs/AI.md).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// What an unidentified marker is guessed to be worth (some markers are decoys).
    pub marker: f64,
    /// Points of evaluation per percent of an army lost.
    pub loss: f64,
    /// Per victory point.
    pub score: f64,
    /// Per hex nearer a unit's goal (an objective not held, or the nearest enemy).
    pub approach: f64,
    /// A weakened, routed or fatigued unit next to a fresh enemy.
    pub danger: f64,
    /// A unit facing its nearest enemy.
    pub facing: f64,
    /// Per enemy within musket range that has a unit in its front arc (and per enemy in ours).
    pub arc: f64,
    /// Per point of power difference in a melee in progress.
    pub melee: f64,
    /// An own unit in cover (woods, a town, a fort or works) with the enemy within reach.
    pub cover: f64,
    /// An own unit the enemy has not found yet: worth keeping unseen until it can strike.
    pub hidden: f64,
    /// Guns limbered up with the enemy within reach cannot fire.
    pub limbered: f64,
    /// Per level of victory (minor 1, decisive 2) the battle would end in now: at the start…
    pub standing_early: f64,
    /// …and added towards the last turn (growing with the square of the turns played).
    pub standing_late: f64,
    /// Per hex between the side's front runner and the objective it races for: the fit unit
    /// nearest to an objective the side makes for, however far behind the rest are. Where
    /// getting there first decides the battle (Black Powder's major objectives) or much of it
    /// (the chapel of hc-night-march, held at dawn), one unit there soon is worth more than
    /// every unit a little nearer. Counted only where one of the side's goals decides the
    /// battle ([`ObjectiveView::decisive`]): on a field where the objectives lie behind a
    /// line the enemy holds (grid-ridge, hc-corps) a lone front runner walks into it.
    /// 0 in the standard weights; `hard` weighs it (docs/AI.md, "The weights", for
    /// what it buys and where it costs).
    pub race: f64,
    /// Hexes of walk an objective counts as farther, in the approach to it, for lacking all
    /// of the most valuable objective's points (in proportion for lacking part of them),
    /// where one of the side's goals decides the battle (that one lacks nothing): 0 sends
    /// every unit to the nearest objective it makes for, however little it is worth; more
    /// sends units past a small one near them to the one that decides the battle farther off
    /// (Black Powder's first lesson: a French battalion three hexes from its own hill, worth
    /// 20, and five from the village, worth 50 and the battle). 0 in the standard weights
    /// (docs/AI.md, "The weights").
    pub worth: f64,
    /// What each hit an enemy unit carries short of losing its next element is worth, as a
    /// share of that element: the hits wear the unit down towards the loss (in Hex Command:
    /// Mechanized a squad loses a figure at its third hit, and each marker weakens its fire and
    /// melee and lifts its zone of control). A hit counts `wear` ÷ (the hits the unit can
    /// carry + 1) of an element: at 2, a marker on an enemy squad is two thirds of a figure.
    /// Only where a unit is counted in figures and carries hits as well
    /// ([`UnitView::max_hits`]), and only on the enemy's units: counted on its own side's as
    /// well, the bot shrank from the fire it has to walk into (docs/AI.md,
    /// "The weights"). 0 in the standard weights and in `hard`'s: at 2 it made `hard`'s
    /// German ambushers on hcm-night-ambush win a few points more, but not `hard` over both
    /// sides.
    pub wear: f64,
}

impl Weights {
    pub const STANDARD: Weights = Weights {
        marker: 0.6,
        loss: 0.06,
        score: 0.02,
        approach: 0.03,
        danger: 0.25,
        facing: 0.04,
        arc: 0.03,
        melee: 0.5,
        cover: 0.08,
        hidden: 0.12,
        limbered: 0.15,
        standing_early: 0.3,
        standing_late: 3.0,
        race: 0.0,
        worth: 0.0,
        wear: 0.0,
    };

    /// `hard`'s weights: the standard ones, with the race and the worth of objectives weighed
    /// (docs/AI.md, "The weights").
    pub const HARD: Weights = Weights {
        race: 0.15,
        worth: 12.0,
        ..Weights::STANDARD
    };

    /// The weight named `key` (the field's name), for settings read from text.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut f64> {
        Some(match key {
            "marker" => &mut self.marker,
            "loss" => &mut self.loss,
            "score" => &mut self.score,
            "approach" => &mut self.approach,
            "danger" => &mut self.danger,
            "facing" => &mut self.facing,
            "arc" => &mut self.arc,
            "melee" => &mut self.melee,
            "cover" => &mut self.cover,
            "hidden" => &mut self.hidden,
            "limbered" => &mut self.limbered,
            "standing_early" => &mut self.standing_early,
            "standing_late" => &mut self.standing_late,
            "race" => &mut self.race,
            "worth" => &mut self.worth,
            "wear" => &mut self.wear,
            _ => return None,
        })
    }

    /// The names [`Weights::get_mut`] knows.
    pub const NAMES: &'static str =
        "marker, loss, score, approach, danger, facing, arc, melee, cover, hidden, limbered, standing_early, standing_late, race, worth, wear";
}

/// The race counts no further than this many hexes: a front runner farther off has no race
/// to win yet, and the pull of every other term stays the larger one.
const RACE_REACH: u32 = 12;

/// Hexes within which an enemy facing a unit is a threat to it.
const THREAT_RANGE: u32 = 4;
/// A command unit keeps close to this many of its side's troops, the group it orders.
const COMMAND_GROUP: usize = 3;
/// Enemies within this many hexes count as near for guns and for the weakened.
const NEAR: u32 = 8;

/// Positions on the map as the view gives them, with distance taken the way the grid counts
/// it.
#[derive(Clone, Copy)]
pub struct Geometry {
    pub grid: Grid,
}

impl Geometry {
    pub fn new(grid: Grid) -> Geometry {
        Geometry { grid }
    }

    pub fn of(view: &View) -> Geometry {
        Geometry::new(view.map.grid)
    }

    /// The hex a place is in (a measured table's points have none yet).
    pub fn hex(&self, place: &Place) -> Option<Hex> {
        place.hex()
    }

    pub fn distance(&self, a: Hex, b: Hex) -> u32 {
        match self.grid {
            Grid::Hex => a.unsigned_distance_to(b),
            // Squares are counted through their sides, as Rules v1.1 (the one ruleset on
            // squares) counts moves and ranges.
            Grid::Square => {
                let (ac, ar) = volley_core::geometry::col_row(a);
                let (bc, br) = volley_core::geometry::col_row(b);
                (ac - bc).unsigned_abs() + (ar - br).unsigned_abs()
            }
        }
    }
}

/// Where the enemies stand, for the nearest-enemy and within-range questions an evaluation
/// asks of every unit. A small army is searched directly; a big one through a distance field
/// and a map of who is where, so an evaluation costs the map once instead of the square of
/// the army.
pub struct Near<'a> {
    geometry: Geometry,
    enemies: &'a [(Hex, Option<&'a UnitView>)],
    big: Option<Rc<Big>>,
}

/// The map-wide part of a [`Near`], which depends only on where the enemies stand: an
/// evaluator keeps the last one and reuses it while they stand in the same hexes (the
/// heuristic's lookaheads mostly move its own side).
pub struct Big {
    field: Field,
    /// Per cell: the enemy standing there (its place in `enemies`, plus one).
    at: Vec<u16>,
    width: i32,
    height: i32,
}

/// Above this many (own unit, enemy) pairs, the searches go through the map.
const PAIRS_SEARCHED_DIRECTLY: usize = 4096;

/// The last few map-wide search structures built, each with the map and the enemy hexes it
/// was built for.
type NearCache = Vec<(std::sync::Arc<volley_core::map::MapView>, Vec<Hex>, Rc<Big>)>;

thread_local! {
    /// Kept across evaluators, not in each: a lookahead line sets up an evaluator for every
    /// decision it plays, mostly with the enemy standing where it stood the decision before.
    static NEAR_FIELDS: RefCell<NearCache> = const { RefCell::new(Vec::new()) };
}

/// How many of them are kept (a line alternates between the two sides' enemies).
const NEAR_KEPT: usize = 4;

impl<'a> Near<'a> {
    pub fn new(
        view: &View,
        geometry: Geometry,
        enemies: &'a [(Hex, Option<&'a UnitView>)],
    ) -> Near<'a> {
        let own = view.units.len() + view.markers.len() - enemies.len();
        if own * enemies.len() <= PAIRS_SEARCHED_DIRECTLY {
            return Near {
                geometry,
                enemies,
                big: None,
            };
        }
        let same = |hexes: &[Hex]| {
            hexes.len() == enemies.len() && hexes.iter().zip(enemies).all(|(a, b)| *a == b.0)
        };
        let cached = NEAR_FIELDS.with_borrow(|c| {
            c.iter()
                .find(|(map, hexes, _)| std::sync::Arc::ptr_eq(map, &view.map) && same(hexes))
                .map(|e| e.2.clone())
        });
        if cached.is_some() {
            return Near {
                geometry,
                enemies,
                big: cached,
            };
        }
        let (width, height) = (view.map.width, view.map.height);
        let big = Rc::new({
            let sources: Vec<(Hex, u16)> = enemies
                .iter()
                .enumerate()
                .map(|(k, &(h, _))| (h, k as u16))
                .collect();
            let mut at = vec![0u16; (width.max(0) * height.max(0)) as usize];
            for &(h, k) in &sources {
                if let Some(c) = cell(width, height, h) {
                    at[c] = k + 1;
                }
            }
            Big {
                field: Field::new(view.map.grid, width, height, &sources),
                at,
                width,
                height,
            }
        });
        NEAR_FIELDS.with_borrow_mut(|c| {
            if c.len() >= NEAR_KEPT {
                c.remove(0);
            }
            c.push((
                view.map.clone(),
                enemies.iter().map(|e| e.0).collect(),
                big.clone(),
            ));
        });
        Near {
            geometry,
            enemies,
            big: Some(big),
        }
    }

    /// The nearest enemy: its distance, hex and unit (`None` for a marker).
    pub fn nearest(&self, h: Hex) -> Option<(u32, Hex, Option<&'a UnitView>)> {
        match self.big.as_deref() {
            Some(b) => b.field.nearest(h).map(|(d, k)| {
                let (e, ev) = self.enemies[k as usize];
                (d, e, ev)
            }),
            None => self
                .enemies
                .iter()
                .map(|&(e, ev)| (self.geometry.distance(h, e), e, ev))
                .min_by_key(|&(d, e, _)| (d, e.x, e.y)),
        }
    }

    /// The enemy standing in `h`, if any (`None` inside for a marker).
    pub fn at(&self, h: Hex) -> Option<Option<&'a UnitView>> {
        match self.big.as_deref() {
            Some(b) => {
                let k = cell(b.width, b.height, h).and_then(|c| b.at[c].checked_sub(1))?;
                Some(self.enemies[k as usize].1)
            }
            None => self.enemies.iter().find(|e| e.0 == h).map(|e| e.1),
        }
    }

    /// Calls `f` for every seen enemy unit within `reach` of `h` (when `any`: the caller
    /// knows from the nearest enemy whether there is one).
    pub fn within(&self, h: Hex, reach: u32, any: bool, mut f: impl FnMut(Hex, &'a UnitView)) {
        if !any {
            return;
        }
        match self.big.as_deref() {
            Some(b) if self.geometry.grid == volley_core::map::Grid::Hex => {
                for n in h.range(reach) {
                    let Some(c) = cell(b.width, b.height, n) else {
                        continue;
                    };
                    if let Some(&(e, Some(x))) =
                        b.at[c].checked_sub(1).map(|k| &self.enemies[k as usize])
                    {
                        f(e, x);
                    }
                }
            }
            _ => {
                for &(e, ev) in self.enemies {
                    if let Some(x) = ev.filter(|_| self.geometry.distance(h, e) <= reach) {
                        f(e, x);
                    }
                }
            }
        }
    }
}

fn cell(width: i32, height: i32, h: Hex) -> Option<usize> {
    let (c, r) = volley_core::geometry::col_row(h);
    (c >= 1 && r >= 1 && c <= width && r <= height).then(|| ((r - 1) * width + (c - 1)) as usize)
}

/// How much fighting a unit has left in it, from 0 to about 1.
/// `wear` is what each hit short of the next element lost takes off ([`Weights::wear`]).
pub fn health(u: &UnitView, reference: Option<u32>, wear: f64) -> f64 {
    let base = match u.strength {
        Some(s) => {
            let full = reference.unwrap_or(0).max(u.max_hits).max(s).max(1);
            let worn = match &u.elements {
                Some(e) if e.kind == ElementKind::Figures && u.max_hits > 0 => {
                    wear * u.hits.min(u.max_hits) as f64 / (u.max_hits + 1) as f64
                }
                _ => 0.0,
            };
            (s as f64 - worn).max(0.0) / full as f64
        }
        None if u.max_hits > 0 => (u.max_hits.saturating_sub(u.hits)) as f64 / u.max_hits as f64,
        None => 1.0,
    };
    let te = if u.max_te > 0 {
        1.0 - 0.12 * u.te as f64 / u.max_te as f64
    } else {
        1.0
    };
    let mut v = base * te;
    if has(u, "routed") {
        v *= 0.35;
    }
    if has(u, "fatigued") {
        v *= 0.85;
    }
    v
}

pub fn has(u: &UnitView, flag: &str) -> bool {
    u.has(flag)
}

/// Close-combat weight of an arm relative to line infantry.
pub fn arm_power(u: &UnitView) -> f64 {
    match &*u.arm {
        "cavalry" => 1.3,
        "infantry" => 1.0,
        "light infantry" => 0.8,
        "skirmishers" => 0.4,
        _ => 0.3,
    }
}

pub fn is_guns(u: &UnitView) -> bool {
    u.arm == "artillery"
}

/// Whether objective `o` counts for `side`: it is that side's goal, or either side's.
pub fn scores(o: &ObjectiveView, side: Side) -> bool {
    o.goal_of.is_none_or(|g| g == side)
}

/// One of the side's own decoy markers (hidden movement shows a side its decoys as units of
/// the arm `decoy`): it cannot fight, hold an objective or be lost, so it is worth nothing
/// and goes nowhere of its own accord — above all not onto an objective, where it would
/// block the real unit that could take it.
pub fn is_decoy(u: &UnitView) -> bool {
    u.arm == "decoy"
}

/// A command unit on the table (Black Powder Tactical Commander's HQs and CO): it fights
/// nobody and holds nothing; its place is among the troops it orders, out of the enemy's
/// reach.
pub fn is_command(u: &UnitView) -> bool {
    u.arm == "command"
}

/// The hexes that give cover: woods (`W`, `w`), towns (`T`) and forts (`F`) on the map, and
/// works shown as features.
struct Cover {
    /// The map's, made once a map on each thread ([`COVER`]).
    ground: Ground,
    /// The works'.
    works: Vec<Hex>,
}

impl Cover {
    fn of(view: &View) -> Cover {
        let kept = COVER.with_borrow(|c| {
            c.as_ref()
                .filter(|(map, _)| std::sync::Arc::ptr_eq(map, &view.map))
                .map(|(_, ground)| ground.clone())
        });
        let ground = kept.unwrap_or_else(|| {
            let ground: Ground = Rc::new(
                terrain_codes(view)
                    .filter(|(_, code)| matches!(code.chars().next(), Some('W' | 'w' | 'T' | 'F')))
                    .map(|(h, _)| h)
                    .collect(),
            );
            COVER.set(Some((view.map.clone(), ground.clone())));
            ground
        });
        let works = view
            .features
            .iter()
            .filter(|f| f.kind == "works")
            .filter_map(|f| f.place.hex())
            .collect();
        Cover { ground, works }
    }

    fn contains(&self, h: Hex) -> bool {
        self.ground.contains(&h) || self.works.contains(&h)
    }
}

thread_local! {
    /// The cover of the map last asked for on this thread (held, so that its address is not
    /// reused while it is the key): every evaluator of a game's lines asks for the same.
    static COVER: RefCell<Option<(std::sync::Arc<volley_core::map::MapView>, Ground)>> =
        const { RefCell::new(None) };
}

/// The cover hexes of a map, shared by the evaluators of one thread.
type Ground = Rc<std::collections::HashSet<Hex>>;

/// Every hex of a view's map with its terrain code in scenario notation (`W`, `~`, `.1`…).
fn terrain_codes(view: &View) -> impl Iterator<Item = (Hex, &str)> {
    view.map.rows.iter().enumerate().flat_map(|(r, row)| {
        row.split_whitespace().enumerate().map(move |(c, code)| {
            (
                volley_core::geometry::hex_at(c as i32 + 1, r as i32 + 1),
                code,
            )
        })
    })
}

/// The routes fields made lately on this thread: the map they were made for (held, so that
/// its address is not reused while it is a key), the objectives they lead to, and the field.
/// Every decision of a game asks for the same two (one a side), and `hard`'s follow-ups make
/// hundreds of decisions a move.
type RoutesCache = Vec<(
    std::sync::Arc<volley_core::map::MapView>,
    Vec<(Hex, u16)>,
    Rc<Field>,
)>;

thread_local! {
    static ROUTES: RefCell<RoutesCache> = const { RefCell::new(Vec::new()) };
}

/// The objectives `side`'s units make for: those it scores and does not hold yet, and those
/// it holds with an enemy within [`THREAT_RANGE`] of them. An objective held and out of the
/// enemy's reach needs nobody beside it (the unit standing on it stays for its own bonus):
/// otherwise the troops near a rear objective crowd it while the battle is lost elsewhere
/// (hc-crossroads' Windmill Hill, docs/AI.md). When every objective is held and none is
/// threatened, all of them are goals, so the troops stay by what they have won.
fn goals(view: &View, side: Side) -> Vec<Hex> {
    let scored: Vec<(Hex, bool)> = view
        .objectives
        .iter()
        .filter(|o| scores(o, side))
        .filter_map(|o| o.place.hex().map(|h| (h, o.holder == Some(side))))
        .collect();
    let geometry = Geometry::of(view);
    let enemies: Vec<Hex> = view
        .units
        .iter()
        .filter(|u| u.side != side && !is_decoy(u))
        .map(|u| &u.place)
        .chain(
            view.markers
                .iter()
                .filter(|m| m.side != side)
                .map(|m| &m.place),
        )
        .filter_map(|p| p.hex())
        .collect();
    let wanted: Vec<Hex> = scored
        .iter()
        .filter(|&&(h, held)| {
            !held
                || enemies
                    .iter()
                    .any(|&e| geometry.distance(h, e) <= THREAT_RANGE)
        })
        .map(|&(h, _)| h)
        .collect();
    if wanted.is_empty() {
        scored.into_iter().map(|(h, _)| h).collect()
    } else {
        wanted
    }
}

/// How many hexes farther each goal counts for the points it lacks against the most valuable
/// objective the side scores ([`Weights::worth`]), where one of the goals decides the battle
/// for the side: that one (or those) lack nothing, whatever their points. All 0 when `worth`
/// is, or where no goal decides the battle: where every objective only adds its points, the
/// nearest is worth walking to (on hc-corps, counting its bridges, worth 10, farther than its
/// towns, worth 15, cost `hard` twenty points).
fn detours(view: &View, side: Side, goals: &[Hex], decides: bool, worth: f64) -> Vec<u16> {
    let at = |h: Hex| {
        view.objectives
            .iter()
            .filter(move |o| o.place.hex() == Some(h))
    };
    let points = |h: Hex| at(h).map(|o| o.points).max().unwrap_or(0);
    let decisive = |h: Hex| at(h).any(|o| o.decisive[side.index()]);
    let most = goals.iter().map(|&h| points(h)).max().unwrap_or(0);
    goals
        .iter()
        .map(|&h| {
            if worth <= 0.0 || most <= 0 || !decides || decisive(h) {
                return 0;
            }
            let lack = 1.0 - points(h).max(0) as f64 / most as f64;
            (worth * lack).round().clamp(0.0, u16::MAX as f64) as u16
        })
        .collect()
}

/// The walking distance from every hex to the nearest of `targets` (each with the hexes it
/// counts as farther), with open water (`~`)
/// in the way.
fn routes_to_objectives(view: &View, targets: Vec<(Hex, u16)>) -> Option<Rc<Field>> {
    if targets.is_empty() {
        return None;
    }
    let cached = ROUTES.with_borrow(|c| {
        c.iter()
            .find(|(map, t, _)| std::sync::Arc::ptr_eq(map, &view.map) && *t == targets)
            .map(|e| e.2.clone())
    });
    if cached.is_some() {
        return cached;
    }
    let (width, height) = (view.map.width, view.map.height);
    let mut blocked = vec![false; (width.max(0) * height.max(0)) as usize];
    for (h, _) in terrain_codes(view).filter(|(_, code)| code.starts_with('~')) {
        if let Some(k) = cell(width, height, h) {
            blocked[k] = true;
        }
    }
    let sources: Vec<(Hex, u16, u16)> = targets
        .iter()
        .enumerate()
        .map(|(i, &(h, start))| (h, i as u16, start))
        .collect();
    let field = Rc::new(Field::from_starts(
        view.map.grid,
        width,
        height,
        &sources,
        &blocked,
    ));
    ROUTES.with_borrow_mut(|c| {
        if c.len() >= 4 {
            c.remove(0);
        }
        c.push((view.map.clone(), targets, field.clone()));
    });
    Some(field)
}

/// An evaluation of positions seen by one side, set up once per decision from the view the
/// decision starts from (for strength references).
pub struct Evaluator {
    pub side: Side,
    pub geometry: Geometry,
    /// Each unit's strength when the decision began (by key), so strength lost shows as a
    /// fraction.
    reference: HashMap<u32, u32>,
    /// Hexes that give cover: woods, light woods, towns and forts on the map, and works the
    /// view shows as features.
    cover: Cover,
    /// The objectives this side's units make for when the decision began ([`goals`]).
    goals: Vec<Hex>,
    /// The hexes each of `goals` counts as farther for its worth ([`Weights::worth`]).
    detour: Vec<u16>,
    /// Whether one of `goals` decides the battle for the side ([`Weights::race`]).
    decides: bool,
    /// How far each hex is from the nearest of `goals`, walking round open water (a river
    /// is crossed at its bridges and fords); `None` with no such objective.
    routes: Option<Rc<Field>>,
    /// The weights.
    pub w: Weights,
}

impl Evaluator {
    pub fn new(view: &View, side: Side) -> Evaluator {
        Evaluator::weighted(view, side, Weights::STANDARD)
    }

    /// The evaluation with other weights than the standard ones.
    pub fn weighted(view: &View, side: Side, w: Weights) -> Evaluator {
        let goals = goals(view, side);
        let decides = view
            .objectives
            .iter()
            .any(|o| o.decisive[side.index()] && o.place.hex().is_some_and(|h| goals.contains(&h)));
        let detour = detours(view, side, &goals, decides, w.worth);
        let targets = goals.iter().copied().zip(detour.iter().copied()).collect();
        Evaluator {
            side,
            geometry: Geometry::of(view),
            reference: view
                .units
                .iter()
                .filter_map(|u| u.strength.map(|s| (u.key, s)))
                .collect(),
            cover: Cover::of(view),
            routes: routes_to_objectives(view, targets),
            goals,
            detour,
            decides,
            w,
        }
    }

    /// How far `h` is from the nearest objective this side makes for ([`goals`]), going
    /// round open water; as the crow flies from a hex the walk does not reach (a boat on the
    /// water).
    pub fn objective_distance(&self, h: Hex) -> Option<u32> {
        let routes = self.routes.as_ref()?;
        routes.nearest(h).map(|(d, _)| d).or_else(|| {
            self.goals
                .iter()
                .zip(&self.detour)
                .map(|(&o, &d)| self.geometry.distance(h, o) + u32::from(d))
                .min()
        })
    }

    pub fn health(&self, u: &UnitView) -> f64 {
        let wear = if u.side == self.side {
            0.0
        } else {
            self.w.wear
        };
        health(u, self.reference.get(&u.key).copied(), wear)
    }

    /// Whether a unit is in no state to be near the enemy.
    pub fn weakened(&self, u: &UnitView) -> bool {
        self.health(u) < 0.7 || has(u, "routed") || has(u, "fatigued")
    }

    /// The position's worth for `self.side`: positive is good.
    pub fn evaluate(&self, view: &View) -> f64 {
        let me = self.side;
        if let Some(o) = &view.outcome {
            let material = self.material(view);
            return match o.winner {
                Some(w) if w == me => WIN + material,
                Some(_) => -WIN + material,
                None => material,
            };
        }
        self.material(view) + self.position(view) + self.standing(view)
    }

    /// Who would win if the battle ended now, where the ruleset says ([`View::standing`]):
    /// a little early on, and more as the last turn nears, when holding the objectives
    /// the scenario counts is what wins.
    pub fn standing(&self, view: &View) -> f64 {
        let Some(s) = &view.standing else {
            return 0.0;
        };
        let sign = match s.winner {
            Some(w) if w == self.side => 1.0,
            Some(_) => -1.0,
            None => return 0.0,
        };
        let level = if s.decisive { 2.0 } else { 1.0 };
        let t = (view.turn as f64 / view.turn_limit.max(1) as f64).min(1.0);
        sign * level * (self.w.standing_early + self.w.standing_late * t * t)
    }

    /// Material, losses and victory points: what the rules count.
    pub fn material(&self, view: &View) -> f64 {
        let me = self.side;
        let mut v = 0.0;
        for u in view.units.iter().filter(|u| !is_decoy(u)) {
            let h = self.health(u);
            v += if u.side == me { h } else { -h };
            if u.side == me && has(u, "hidden") {
                v += self.w.hidden;
            }
        }
        for m in &view.markers {
            v += if m.side == me {
                self.w.marker
            } else {
                -self.w.marker
            };
        }
        for s in &view.sides {
            let sign = if s.side == me { -1.0 } else { 1.0 };
            let mut loss = s.losses_percent * self.w.loss;
            if let Some(bp) = s.break_point.filter(|&bp| bp > 0.0) {
                // Nearing the break point matters more than the same loss far from it.
                let r = (s.losses_percent / bp).min(1.5);
                loss += r * r * 2.0;
            }
            v += sign * loss;
            v -= sign * s.score as f64 * self.w.score;
        }
        v
    }

    /// Where the units stand: towards objectives and the enemy, facing them, weak units kept
    /// out of reach, guns unlimbered when the enemy is near, melees we are winning.
    /// The enemies this side can see or suspect: units, then markers, in the view's order.
    pub fn enemies<'v>(&self, view: &'v View) -> Vec<(Hex, Option<&'v UnitView>)> {
        let (me, g) = (self.side, self.geometry);
        view.units
            .iter()
            .filter(|u| u.side != me)
            .filter_map(|u| g.hex(&u.place).map(|h| (h, Some(u))))
            .chain(
                view.markers
                    .iter()
                    .filter(|m| m.side != me)
                    .filter_map(|m| g.hex(&m.place).map(|h| (h, None))),
            )
            .collect()
    }

    /// The nearest-enemy and within-range searches over `enemies` (from [`Evaluator::enemies`]
    /// of the same view), reusing the last map-wide structure while the enemy stands still.
    pub fn near<'v>(&self, view: &View, enemies: &'v [(Hex, Option<&'v UnitView>)]) -> Near<'v> {
        Near::new(view, self.geometry, enemies)
    }

    /// What a command unit standing in `h` costs: its distance from the troops nearest it
    /// (orders lose by the distance to the farthest unit ordered), and the enemy close by.
    fn command_placement(&self, h: Hex, enemy: Option<u32>, troops: &[Hex]) -> f64 {
        let mut d: Vec<u32> = troops
            .iter()
            .map(|&t| self.geometry.distance(h, t))
            .collect();
        let n = d.len().min(COMMAND_GROUP);
        let mut cost = 0.0;
        if n > 0 {
            d.select_nth_unstable(n - 1);
            let mean = d[..n].iter().sum::<u32>() as f64 / n as f64;
            cost += self.w.approach * (mean - 1.0).max(0.0);
        }
        if enemy.is_some_and(|e| e <= 2) {
            cost += self.w.danger;
        }
        cost
    }

    /// How far the side's front runner is from the objectives it makes for ([`goals`]): the
    /// walk of the nearest of its units fit to hold one (not routed, at least half its
    /// strength, neither a command unit nor a decoy), up to [`RACE_REACH`]; `None` with no
    /// such unit or objective.
    pub fn front_runner(&self, view: &View) -> Option<u32> {
        let routes = self.routes.as_ref()?;
        view.units
            .iter()
            .filter(|u| u.side == self.side && !is_decoy(u) && !is_command(u))
            .filter(|u| !has(u, "routed") && self.health(u) >= 0.5)
            .filter_map(|u| self.geometry.hex(&u.place))
            .filter_map(|h| routes.nearest(h).map(|(d, _)| d))
            .min()
            .map(|d| d.min(RACE_REACH))
    }

    pub fn position(&self, view: &View) -> f64 {
        let me = self.side;
        let g = self.geometry;
        let enemies = self.enemies(view);
        let near = self.near(view, &enemies);
        // The objectives this side scores. The enemy's goals are no place to be for their own
        // sake: a unit guards them by standing up to the enemy that comes for them.
        let scored = || view.objectives.iter().filter(|o| scores(o, me));
        let held: Vec<Hex> = scored()
            .filter(|o| o.holder == Some(me))
            .filter_map(|o| g.hex(&o.place))
            .collect();
        let troops: Vec<Hex> = view
            .units
            .iter()
            .filter(|u| u.side == me && !is_decoy(u) && !is_command(u))
            .filter_map(|u| g.hex(&u.place))
            .collect();
        let mut v = 0.0;
        for u in view.units.iter().filter(|u| u.side == me && !is_decoy(u)) {
            let Some(h) = g.hex(&u.place) else { continue };
            let nearest = near.nearest(h);
            if is_command(u) {
                v -= self.command_placement(h, nearest.map(|n| n.0), &troops);
                continue;
            }
            let weak = self.weakened(u);
            if let Some((d, e, ev)) = nearest {
                if weak && d <= 2 {
                    let threat = ev.map_or(self.w.marker, |x| self.health(x) * arm_power(x));
                    v -= self.w.danger * threat * if d <= 1 { 2.0 } else { 1.0 };
                }
                if is_guns(u) && d <= 1 {
                    v -= self.w.danger;
                }
                if is_guns(u) && has(u, "limbered") && d <= NEAR {
                    v -= self.w.limbered;
                }
                if let Some(f) = u.facing {
                    if d <= NEAR && in_front_arc(h, f, e) {
                        v += self.w.facing;
                    }
                }
                if has(u, "in melee") || has(u, "engaged") {
                    if let Some(x) = ev.filter(|_| d <= 1) {
                        let mine = self.health(u) * arm_power(u);
                        let theirs = self.health(x) * arm_power(x);
                        v += self.w.melee * (mine - theirs);
                    }
                }
            }
            // Facing the enemy's muskets is bad; having them in our own arc is good.
            let in_reach = nearest.is_some_and(|(d, _, _)| d <= THREAT_RANGE);
            near.within(h, THREAT_RANGE, in_reach, |e, x| {
                if x.facing.is_some_and(|f| in_front_arc(e, f, h)) && !has(x, "routed") {
                    v -= self.w.arc * self.health(x);
                }
                if u.facing.is_some_and(|f| in_front_arc(h, f, e)) && !weak {
                    v += self.w.arc * self.health(u);
                }
            });
            if in_reach && self.cover.contains(h) {
                v += self.w.cover;
            }
            if weak {
                continue;
            }
            // Sit on an objective already held, else go for the nearest objective or enemy.
            if held.contains(&h) {
                v += self.w.approach * 3.0;
                continue;
            }
            // Every objective counts as a place to be, held or not, so taking one does not
            // suddenly send every other unit off after the next.
            let goal = self
                .objective_distance(h)
                .into_iter()
                .chain(nearest.map(|(d, _, _)| d + 1))
                .min();
            if let Some(d) = goal {
                v -= self.w.approach * d as f64;
            }
        }
        if self.w.race > 0.0 && self.decides {
            v -= self.w.race * self.front_runner(view).unwrap_or(RACE_REACH) as f64;
        }
        for s in view.sides.iter().filter(|s| s.side == me) {
            for c in &s.commanders {
                let Some(u) = c.attached_to.as_ref().and_then(|id| view.unit(id)) else {
                    continue;
                };
                // A commander is best with a unit that needs rallying.
                let need = 1.0 - self.health(u);
                v += 0.05 + 0.4 * need;
            }
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use volley_core::view::UnitView;

    fn unit(hits: u32, flags: &[&str]) -> UnitView {
        UnitView {
            id: "u".into(),
            key: 0,
            name: "u".into(),
            side: Side::Red,
            arm: "infantry".into(),
            class: None,
            symbol: 'I',
            place: Place::Hex(volley_core::geometry::hex_at(1, 1)),
            facing: None,
            hits,
            max_hits: 3,
            te: 0,
            max_te: 3,
            strength: None,
            elements: None,
            formation: None,
            cone: Vec::new(),
            flags: flags.iter().map(|f| f.to_string().into()).collect(),
            commander: None,
        }
    }

    /// The view from red's side of a bundled battle, begun.
    fn view_of(name: &str) -> View {
        crate::tests::begun(name, 1).view(Some(Side::Red))
    }

    /// A map's cover hexes, in order.
    fn cover_hexes(view: &View) -> Vec<Hex> {
        let mut out: Vec<Hex> = Cover::of(view).ground.iter().copied().collect();
        out.sort_by_key(|h| (h.x, h.y));
        out
    }

    #[test]
    fn the_cover_kept_on_a_thread_is_the_map_asked_for_when_the_battle_changes() {
        let crossroads = view_of("hc-crossroads");
        let clash = view_of("hc-first-clash");
        // Each map's cover as a thread that never saw the other makes it.
        let fresh = |name: &'static str| {
            std::thread::spawn(move || cover_hexes(&view_of(name)))
                .join()
                .expect("a fresh thread")
        };
        let (a, b) = (fresh("hc-crossroads"), fresh("hc-first-clash"));
        assert!(!a.is_empty() && a != b, "two maps with different woods");
        // Back and forth on one thread, each evaluator gets its own map's.
        assert_eq!(cover_hexes(&crossroads), a);
        assert_eq!(cover_hexes(&clash), b);
        assert_eq!(cover_hexes(&crossroads), a);
        // A map's cover is made once on a thread, not at every evaluator.
        let (first, second) = (Cover::of(&crossroads), Cover::of(&crossroads));
        assert!(Rc::ptr_eq(&first.ground, &second.ground));
    }

    #[test]
    fn hits_and_rout_lower_a_units_health() {
        let fresh = health(&unit(0, &[]), None, 0.0);
        let hit = health(&unit(1, &[]), None, 0.0);
        let routed = health(&unit(1, &["routed"]), None, 0.0);
        assert!(fresh > hit && hit > routed, "{fresh} {hit} {routed}");
        let mut figures = unit(0, &[]);
        figures.strength = Some(6);
        figures.max_hits = 0;
        assert!((health(&figures, Some(12), 0.0) - 0.5).abs() < 1e-9);
    }
}
