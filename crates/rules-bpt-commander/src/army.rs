//! Building a battle group to a points total from an army list (ARMY LISTS: Points, Limit,
//! the command charts' limits and the special rules that cap elites and exceptional HQs).
//!
//! An army file names its list and its points total and buys command units and units:
//!
//! ```toml
//! list = "napoleonic-french"
//! name = "Division Morand"
//! points = 3000
//!
//! [[command]]
//! level = "division"
//! quality = "average"
//! name = "Gen. Morand"
//!
//! [[command]]
//! fao = true               # a Field Artillery Officer (one per 6 artillery units)
//!
//! [[unit]]
//! troop = "Line Infantry (08-12)"
//! stands = 5
//! count = 4
//! regimental_guns = 1      # its own light howitzers (18th-century and Napoleonic lines)
//!
//! [[unit]]
//! troop = "Light Cavalry"
//! stands = 3
//! scouting = true          # three scouting stands (the battle gets a hidden set-up)
//! ```
//!
//! [`check`] reads such a file and reports every problem at its line and column, all of them
//! at once; [`Army`] is what a clean file buys. Readings of the book's limits are listed in
//! docs/rules/bpt-commander.md ("Army building").

use crate::lists::{self, Arm, ArmyList, Command, Level, Period, Quality, Troop};
use serde::Deserialize;
use toml::Spanned;
use volley_core::{ScenarioError, ScenarioSource};

/// Points a block of the limits: min and max count per full 1500 points.
pub const BLOCK: u32 = 1500;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ArmyFile {
    list: Spanned<String>,
    #[serde(default)]
    name: Option<String>,
    points: Spanned<u32>,
    #[serde(default, rename = "command")]
    commands: Vec<Spanned<CommandEntry>>,
    #[serde(default, rename = "unit")]
    units: Vec<UnitEntry>,
    /// An attack-defence scenario's defence: "hasty" (10% of the points on field defences,
    /// the hasty ones only) or "fixed" (25%, all of them).
    #[serde(default)]
    defence: Option<Spanned<String>>,
    #[serde(default, rename = "work")]
    works: Vec<WorkEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WorkEntry {
    kind: Spanned<String>,
    #[serde(default)]
    count: Option<Spanned<u32>>,
}

/// Field defences bought.
#[derive(Clone, Debug, serde::Serialize)]
pub struct BoughtWork {
    #[serde(skip)]
    pub kind: crate::works::WorkKind,
    pub work: String,
    pub count: u32,
    pub cost: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CommandEntry {
    /// Required but for a Field Artillery Officer, which has its own stat line.
    #[serde(default)]
    level: Option<Spanned<Level>>,
    #[serde(default)]
    quality: Option<Spanned<Quality>>,
    #[serde(default)]
    name: Option<String>,
    /// A Field Artillery Officer: [`FAO`]'s stat line, one per [`ARTILLERY_PER_FAO`]
    /// artillery units, never the commanding officer.
    #[serde(default)]
    fao: Option<Spanned<bool>>,
}

/// Artillery units a Field Artillery Officer needs (the scenario checks the same at load).
pub const ARTILLERY_PER_FAO: u32 = crate::artillery::GUNS_PER_FAO as u32;

/// A Field Artillery Officer's stat line: the book gives none, so an Average Brigade HQ's
/// (docs/rules/bpt-commander.md, reading 81).
pub static FAO: Command = Command {
    level: Level::Brigade,
    quality: Quality::Average,
    command: 7,
    move_cm: 10,
    move_mounted: 30,
    presence: 1,
    hits: 6,
    save: 6,
    points: 55,
    limit: None,
    per_infantry: None,
    max: None,
    notes: Vec::new(),
    fix: None,
};

/// Most regimental guns an infantry unit takes.
pub const REGIMENTAL_GUNS_MAX: u32 = 2;

/// What one regimental gun of this row costs (the list's howitzer row, a stand), or why the
/// row takes none: only the formed infantry of the 18th-century and Napoleonic lists do.
pub fn regimental_gun_points(list: &ArmyList, troop: &Troop) -> Result<u32, String> {
    if troop.arm != Arm::Infantry {
        return Err(format!(
            "regimental guns go with an infantry regiment, and \"{}\" is {}",
            troop.name,
            arm_name(troop.arm)
        ));
    }
    if !matches!(list.period, Period::EighteenthCentury | Period::Napoleonic) {
        return Err(format!(
            "regimental guns are for the 18th-century and Napoleonic lists, not {}",
            list.name
        ));
    }
    let m = mechanics(list, troop);
    if m.contains(&"skirmish") || m.contains(&"irregular") {
        return Err(format!(
            "\"{}\" fight in open order: regimental guns go with the formed infantry",
            troop.name
        ));
    }
    list.troops
        .iter()
        .find(|t| t.arm == Arm::Artillery && t.name.starts_with("Howitzer"))
        .and_then(|t| t.points)
        .map(|p| p as u32)
        .ok_or_else(|| {
            format!(
                "{} has no howitzer row to price regimental guns by",
                list.name
            )
        })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UnitEntry {
    troop: Spanned<String>,
    #[serde(default)]
    stands: Option<Spanned<u32>>,
    #[serde(default)]
    count: Option<Spanned<u32>>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    grade: Option<Spanned<String>>,
    #[serde(default)]
    horse: Option<Spanned<bool>>,
    #[serde(default)]
    dismounted: Option<Spanned<bool>>,
    /// Morale grade (the optional Morale rule): unmotivated -25%, motivated +25% a stand.
    #[serde(default)]
    morale: Option<Spanned<String>>,
    /// Light howitzers of the regiment's own (Regimental Artillery), 0 to 2.
    #[serde(default)]
    regimental_guns: Option<Spanned<u32>>,
    /// Cavalry deployed as scouting cavalry: each stand a scout of its own (the optional
    /// Scouting Cavalry rule; the battle is then fought with a hidden set-up).
    #[serde(default)]
    scouting: Option<Spanned<bool>>,
}

/// A unit's grade where its row lets it be bought better or worse (the ACW Regular Infantry).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Grade {
    Regular,
    Elite,
    Poor,
}

/// One unit bought.
#[derive(Clone, Debug, serde::Serialize)]
pub struct BoughtUnit {
    #[serde(skip)]
    pub troop: &'static Troop,
    /// The row's name (also in `troop`), for JSON readers.
    pub row: String,
    pub name: String,
    pub stands: u32,
    pub grade: Grade,
    /// Horse artillery (ACW guns bought with horse teams).
    pub horse: bool,
    /// Starts the battle on foot, fighting with its list's dismounted row.
    #[serde(skip)]
    pub dismounted: Option<&'static Troop>,
    /// Morale grade (the optional Morale rule).
    #[serde(skip)]
    pub morale: crate::ideas::Morale,
    /// Points a stand, with the grade, horse teams and morale.
    pub stand_points: u32,
    /// The regiment's own light howitzers.
    pub regimental_guns: u32,
    /// Deployed as scouting cavalry, a stand a unit.
    pub scouting: bool,
    /// Its stands and its regimental guns.
    pub cost: u32,
}

/// One command unit bought.
#[derive(Clone, Debug, serde::Serialize)]
pub struct BoughtCommand {
    #[serde(skip)]
    pub row: &'static Command,
    pub level: Level,
    pub quality: Quality,
    pub name: String,
    /// A Field Artillery Officer (its row is [`FAO`]).
    pub fao: bool,
    pub cost: u32,
}

/// A battle group that passed every check.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Army {
    #[serde(skip)]
    pub list: &'static ArmyList,
    pub list_id: String,
    pub name: String,
    /// The points total it was built to.
    pub points: u32,
    /// What it costs (never above `points`).
    pub cost: u32,
    pub commands: Vec<BoughtCommand>,
    pub units: Vec<BoughtUnit>,
    /// Field defences (an army in defence).
    pub works: Vec<BoughtWork>,
}

impl Army {
    /// The commanding officer: the first command unit of the highest level (never an FAO).
    pub fn co(&self) -> usize {
        co_index(self.commands.iter().map(|c| (c.level, c.fao)))
    }
}

fn rank(level: Level) -> u8 {
    match level {
        Level::Brigade | Level::Hq => 0,
        Level::Division => 1,
        Level::Corps => 2,
        Level::Army => 3,
    }
}

/// The first command unit of the highest level, Field Artillery Officers (`true`) left out.
fn co_index(levels: impl Iterator<Item = (Level, bool)>) -> usize {
    let mut best: Option<(u8, usize)> = None;
    for (i, (l, fao)) in levels.enumerate() {
        if !fao && best.is_none_or(|(r, _)| rank(l) > r) {
            best = Some((rank(l), i));
        }
    }
    best.map_or(0, |(_, i)| i)
}

/// The mechanic words of a troop row's notes in its list.
pub fn mechanics(list: &ArmyList, troop: &Troop) -> Vec<&'static str> {
    let rules = list.rule_set();
    troop
        .notes
        .iter()
        .filter_map(|n| rules.note(*n))
        .map(|n| n.mechanic.as_str())
        .collect()
}

/// Whether the row's units are elite (by its notes, or bought so).
fn is_elite(list: &ArmyList, troop: &Troop, grade: Grade) -> bool {
    grade == Grade::Elite || mechanics(list, troop).contains(&"elite")
}

/// Stands a unit of this arm may have, and the default.
pub fn stand_range(arm: Arm) -> (u32, u32, u32) {
    match arm {
        Arm::Infantry => (2, 8, 5),
        Arm::Cavalry => (2, 6, 4),
        Arm::Artillery => (1, 4, 2),
        Arm::Engineers | Arm::Armour => (1, 3, 1),
        Arm::Transport => (1, 6, 1),
    }
}

/// Whether the limits count this arm in units (infantry, cavalry) or stands (the rest).
fn counts_units(arm: Arm) -> bool {
    matches!(arm, Arm::Infantry | Arm::Cavalry)
}

/// Why a row cannot be bought on its own, if it cannot.
fn not_for_sale(list: &ArmyList, troop: &Troop) -> Option<String> {
    let m = mechanics(list, troop);
    if m.contains(&"dismounted") || troop.name.contains("(Dismounted)") {
        return Some(format!(
            "\"{}\" is the dismounted form of a cavalry row: buy the mounted unit and give it `dismounted = true`",
            troop.name
        ));
    }
    if troop.name == "Limbered Artillery" {
        return Some(
            "limbers come with the guns they tow: buy the artillery row (its limbered move is this row's)"
                .into(),
        );
    }
    if troop.points.is_none() {
        if troop.name.starts_with("Skirmishing") {
            return Some(format!(
                "\"{}\" has no points in the book: brigade skirmishers come free with the infantry of a brigade after 1760 (2 stands for every 3 infantry units)",
                troop.name
            ));
        }
        return Some(format!("\"{}\" has no points in the book", troop.name));
    }
    None
}

/// The dismounted row a mounted row fights with on foot, if its list has one.
pub(crate) fn dismounted_row(list: &'static ArmyList, troop: &Troop) -> Option<&'static Troop> {
    if troop.arm != Arm::Cavalry || !mechanics(list, troop).contains(&"dismount") {
        return None;
    }
    let stem: String = troop
        .name
        .split_whitespace()
        .take_while(|w| !w.starts_with('1'))
        .collect::<Vec<_>>()
        .join(" ");
    let foot = |t: &&Troop| {
        mechanics(list, t).contains(&"dismounted")
            || t.name.contains("(Dismounted)")
            || t.name.starts_with("Dismounted")
    };
    list.troops
        .iter()
        .filter(foot)
        .find(|t| t.name.starts_with(&stem) && stem.len() > 2)
        .or_else(|| list.troops.iter().find(foot))
}

/// Reads and checks an army file: every problem, each at its place, or the army.
/// `points` overrides the file's own points total (as `volley battle --points` does).
pub fn check(src: &ScenarioSource, points: Option<u32>) -> Result<Army, Vec<ScenarioError>> {
    let file: ArmyFile = src.parse().map_err(|e| vec![e])?;
    let mut errors = Vec::new();
    let Some(list) = lists::find(file.list.get_ref()) else {
        let ids: Vec<&str> = lists::lists().iter().map(|l| l.id.as_str()).collect();
        return Err(vec![src.error_at(
            file.list.span(),
            format!(
                "no army list \"{}\": one of {}",
                file.list.get_ref(),
                ids.join(", ")
            ),
        )]);
    };
    let total = points.unwrap_or(*file.points.get_ref());
    if total == 0 {
        errors.push(src.error_at(file.points.span(), "a points total is more than 0"));
    }
    let blocks = (total / BLOCK).max(1);
    let chart = list.command_chart();

    // Command units.
    // Where a problem of command entry `i`'s level (or quality) is reported: that key, else
    // its `fao`, else the entry.
    let level_span = |i: usize| {
        let c = &file.commands[i];
        let e = c.get_ref();
        e.level
            .as_ref()
            .map(|l| l.span())
            .or_else(|| e.fao.as_ref().map(|f| f.span()))
            .unwrap_or_else(|| c.span())
    };
    let quality_span = |i: usize| {
        let e = file.commands[i].get_ref();
        e.quality
            .as_ref()
            .map(|q| q.span())
            .unwrap_or_else(|| level_span(i))
    };
    let mut commands = Vec::new();
    for (i, entry) in file.commands.iter().enumerate() {
        let c = entry.get_ref();
        if c.fao.as_ref().is_some_and(|f| *f.get_ref()) {
            if c.level.is_some() || c.quality.is_some() {
                errors.push(src.error_at(
                    level_span(i),
                    "a Field Artillery Officer has its own stat line (an average brigade HQ's): leave out level and quality",
                ));
                continue;
            }
            commands.push((
                i,
                BoughtCommand {
                    row: &FAO,
                    level: FAO.level,
                    quality: FAO.quality,
                    name: c
                        .name
                        .clone()
                        .unwrap_or_else(|| format!("Field Artillery Officer {}", i + 1)),
                    fao: true,
                    cost: FAO.points as u32,
                },
            ));
            continue;
        }
        let (Some(level), Some(quality)) = (&c.level, &c.quality) else {
            errors.push(src.error_at(
                level_span(i),
                "a command unit needs a level and a quality (or `fao = true` for a Field Artillery Officer)",
            ));
            continue;
        };
        match chart.row(*level.get_ref(), *quality.get_ref()) {
            Some(row) => commands.push((
                i,
                BoughtCommand {
                    row,
                    level: row.level,
                    quality: row.quality,
                    name: c
                        .name
                        .clone()
                        .unwrap_or_else(|| format!("{} HQ {}", level_name(row.level), i + 1)),
                    fao: false,
                    cost: row.points as u32,
                },
            )),
            None => {
                let have: Vec<String> = chart
                    .rows
                    .iter()
                    .filter(|r| r.level == *level.get_ref())
                    .map(|r| quality_name(r.quality).to_string())
                    .collect();
                let message = if have.is_empty() {
                    format!(
                        "the {} has no {} command units",
                        chart.name,
                        level_name(*level.get_ref())
                    )
                } else {
                    format!(
                        "the {} has no {} {} HQ: {}",
                        chart.name,
                        quality_name(*quality.get_ref()),
                        level_name(*level.get_ref()),
                        have.join(", ")
                    )
                };
                errors.push(src.error_at(quality.span(), message));
            }
        }
    }

    // Units.
    let mut units: Vec<(usize, BoughtUnit)> = Vec::new();
    for (i, u) in file.units.iter().enumerate() {
        let Some(troop) = list.troop(u.troop.get_ref()) else {
            errors.push(src.error_at(
                u.troop.span(),
                format!(
                    "no troop row \"{}\" in {} (see `volley army show {}`)",
                    u.troop.get_ref(),
                    list.id,
                    list.id
                ),
            ));
            continue;
        };
        if let Some(why) = not_for_sale(list, troop) {
            errors.push(src.error_at(u.troop.span(), why));
            continue;
        }
        let (lo, hi, default) = stand_range(troop.arm);
        let stands = match &u.stands {
            None => default,
            Some(s) if (lo..=hi).contains(s.get_ref()) => *s.get_ref(),
            Some(s) => {
                errors.push(src.error_at(
                    s.span(),
                    format!(
                        "a unit of {} has {lo} to {hi} stands, not {}",
                        arm_name(troop.arm),
                        s.get_ref()
                    ),
                ));
                continue;
            }
        };
        let count = match &u.count {
            None => 1,
            Some(c) if (1..=40).contains(c.get_ref()) => *c.get_ref(),
            Some(c) => {
                errors.push(src.error_at(c.span(), "count is from 1 to 40 units"));
                continue;
            }
        };
        let m = mechanics(list, troop);
        let grade = match &u.grade {
            None => Grade::Regular,
            Some(g) => {
                let parsed = match g.get_ref().as_str() {
                    "regular" => Some(Grade::Regular),
                    "elite" => Some(Grade::Elite),
                    "poor" => Some(Grade::Poor),
                    _ => None,
                };
                match parsed {
                    None => {
                        errors.push(src.error_at(
                            g.span(),
                            format!("grade \"{}\"? regular, elite or poor", g.get_ref()),
                        ));
                        continue;
                    }
                    Some(Grade::Regular) => Grade::Regular,
                    Some(p)
                        if m.contains(&"elite-poor-option")
                            && troop.name.starts_with("Regular") =>
                    {
                        p
                    }
                    Some(_) => {
                        errors.push(src.error_at(
                            g.span(),
                            format!(
                                "\"{}\" cannot be bought elite or poor: only the ACW Regular Infantry rows can",
                                troop.name
                            ),
                        ));
                        continue;
                    }
                }
            }
        };
        let horse = match &u.horse {
            Some(h) if *h.get_ref() => {
                if row_options(list, troop).1 {
                    true
                } else {
                    errors.push(src.error_at(
                        h.span(),
                        "only ACW field guns are bought as horse artillery (+10 points a stand); other lists have a Horse Artillery row",
                    ));
                    continue;
                }
            }
            _ => false,
        };
        let dismounted = match &u.dismounted {
            Some(d) if *d.get_ref() => match dismounted_row(list, troop) {
                Some(row) => Some(row),
                None => {
                    errors.push(src.error_at(
                        d.span(),
                        format!(
                            "\"{}\" cannot dismount: its list gives it no dismounted row",
                            troop.name
                        ),
                    ));
                    continue;
                }
            },
            _ => None,
        };
        let morale = match &u.morale {
            None => crate::ideas::Morale::Regular,
            Some(m) => match crate::ideas::Morale::parse(m.get_ref()) {
                Some(m) => m,
                None => {
                    errors.push(src.error_at(
                        m.span(),
                        format!(
                            "morale \"{}\"? unmotivated, regular or motivated",
                            m.get_ref()
                        ),
                    ));
                    continue;
                }
            },
        };
        let regimental_guns = match &u.regimental_guns {
            None => 0,
            Some(g) if *g.get_ref() == 0 => 0,
            Some(g) => match regimental_gun_points(list, troop) {
                Err(why) => {
                    errors.push(src.error_at(g.span(), why));
                    continue;
                }
                Ok(_) if *g.get_ref() > REGIMENTAL_GUNS_MAX => {
                    errors.push(src.error_at(
                        g.span(),
                        format!(
                            "a regiment has at most {REGIMENTAL_GUNS_MAX} regimental guns, not {}",
                            g.get_ref()
                        ),
                    ));
                    continue;
                }
                Ok(_) => *g.get_ref(),
            },
        };
        let scouting = match &u.scouting {
            Some(s) if *s.get_ref() => {
                if troop.arm != Arm::Cavalry || dismounted.is_some() {
                    errors.push(src.error_at(
                        s.span(),
                        "only mounted cavalry scout (the optional Scouting Cavalry rule)",
                    ));
                    continue;
                }
                true
            }
            _ => false,
        };
        let guns_cost = if regimental_guns > 0 {
            regimental_gun_points(list, troop).expect("checked") * regimental_guns
        } else {
            0
        };
        let base = troop.points.expect("for sale") as u32;
        let graded = match grade {
            Grade::Elite => base + 5,
            Grade::Poor => base.saturating_sub(5),
            Grade::Regular => base,
        } + if horse { 10 } else { 0 };
        // Morale grades: a quarter off or on, to the nearest point.
        let stand_points = (graded * morale.points_percent() + 50) / 100;
        for k in 0..count {
            let name = match (&u.name, count) {
                (Some(n), 1) => n.clone(),
                (Some(n), _) => format!("{n} {}", k + 1),
                (None, _) => format!("{} {}", troop.name, units.len() + 1),
            };
            units.push((
                i,
                BoughtUnit {
                    troop,
                    row: troop.name.clone(),
                    name,
                    stands,
                    grade,
                    horse,
                    dismounted,
                    morale,
                    stand_points,
                    regimental_guns,
                    scouting,
                    cost: stand_points * stands + guns_cost,
                },
            ));
        }
    }
    let entry_span = |i: usize| file.units[i].troop.span();

    // Field defences: an army in hasty defence may spend 10% of its points on the hasty
    // ones, in fixed defence 25% on any.
    let defence = match &file.defence {
        None => None,
        Some(d) => match d.get_ref().as_str() {
            "hasty" => Some((false, d.span())),
            "fixed" => Some((true, d.span())),
            other => {
                errors.push(src.error_at(d.span(), format!("defence \"{other}\"? hasty or fixed")));
                None
            }
        },
    };
    let mut works = Vec::new();
    for w in &file.works {
        let Some(kind) =
            crate::works::WorkKind::parse(w.kind.get_ref()).filter(|k| k.points().is_some())
        else {
            let all: Vec<&str> = buyable_works().map(|k| k.word()).collect();
            errors.push(src.error_at(
                w.kind.span(),
                format!(
                    "\"{}\" is not a field defence: {}",
                    w.kind.get_ref(),
                    all.join(", ")
                ),
            ));
            continue;
        };
        let count = w.count.as_ref().map_or(1, |c| *c.get_ref()).max(1);
        match defence {
            None => errors.push(src.error_at(
                w.kind.span(),
                "field defences need the army in defence: defence = \"hasty\" or \"fixed\"",
            )),
            Some((false, _)) if !kind.hasty() => errors.push(src.error_at(
                w.kind.span(),
                format!(
                    "{} need a fixed defence: a hasty one has trenches, stakes and breastworks",
                    kind.word()
                ),
            )),
            _ => {}
        }
        works.push(BoughtWork {
            kind,
            work: kind.word().to_string(),
            count,
            cost: kind.points().expect("bought") * count,
        });
    }
    let works_cost: u32 = works.iter().map(|w| w.cost).sum();
    if let Some((fixed, span)) = defence {
        let share = if fixed { 25 } else { 10 };
        let budget = total * share / 100;
        if works_cost > budget {
            errors.push(src.error_at(
                span,
                format!(
                    "field defences cost {works_cost} points, over the {share}% ({budget} points) a {} defence may spend",
                    if fixed { "fixed" } else { "hasty" }
                ),
            ));
        }
    }

    // The points total.
    let cost: u32 = units.iter().map(|(_, u)| u.cost).sum::<u32>()
        + commands.iter().map(|(_, c)| c.cost).sum::<u32>()
        + works_cost;
    if cost > total {
        errors.push(src.error_at(
            file.points.span(),
            format!(
                "the army costs {cost} points, {} over its total of {total}",
                cost - total
            ),
        ));
    }

    // Limits: the rows' maximums, per full 1500 points.
    let infantry_units = units
        .iter()
        .filter(|(_, u)| u.troop.arm == Arm::Infantry)
        .count() as u32;
    let cavalry_units = units
        .iter()
        .filter(|(_, u)| u.troop.arm == Arm::Cavalry)
        .count() as u32;
    let all_cavalry = infantry_units == 0 && cavalry_units > 0;
    for troop in &list.troops {
        let bought: Vec<&(usize, BoughtUnit)> = units
            .iter()
            .filter(|(_, u)| std::ptr::eq(u.troop, troop))
            .collect();
        if bought.is_empty() {
            continue;
        }
        // Poor units have no min/max; an all-cavalry force takes the infantry limits.
        let max = if all_cavalry && troop.arm == Arm::Cavalry {
            None
        } else {
            troop.max
        };
        let Some(max) = max else { continue };
        let allowed = max as u32 * blocks;
        let mut n = 0;
        for (i, u) in bought {
            if u.grade == Grade::Poor {
                continue;
            }
            n += if counts_units(troop.arm) { 1 } else { u.stands };
            if n > allowed {
                errors.push(src.error_at(
                    entry_span(*i),
                    format!(
                        "at most {allowed} {} of \"{}\" at {total} points ({max} per full 1500): this makes {n}",
                        if counts_units(troop.arm) { "units" } else { "stands" },
                        troop.name
                    ),
                ));
                break;
            }
        }
    }

    // Compulsory troops: the rows with a minimum form each arm's pool.
    for arm in [Arm::Infantry, Arm::Cavalry, Arm::Artillery, Arm::Engineers] {
        let Some(min) = list
            .troops
            .iter()
            .filter(|t| t.arm == arm)
            .filter_map(|t| t.min)
            .max()
        else {
            continue;
        };
        let (counted_arm, counted_name) = if arm == Arm::Infantry && all_cavalry {
            (
                Arm::Cavalry,
                "cavalry units (an all-cavalry force takes the infantry minimum)",
            )
        } else {
            (arm, if counts_units(arm) { "units" } else { "stands" })
        };
        let have: u32 = units
            .iter()
            .filter(|(_, u)| u.troop.arm == counted_arm && u.grade != Grade::Poor)
            .filter(|(_, u)| counted_arm != arm || u.troop.min.is_some())
            .map(|(_, u)| {
                if counts_units(counted_arm) {
                    1
                } else {
                    u.stands
                }
            })
            .sum::<u32>()
            + if arm == Arm::Infantry {
                // Poor infantry have no min/max but are infantry all the same.
                units
                    .iter()
                    .filter(|(_, u)| u.troop.arm == Arm::Infantry && u.grade == Grade::Poor)
                    .count() as u32
            } else {
                0
            };
        let need = min as u32 * blocks;
        if have < need {
            errors.push(src.error_at(
                file.list.span(),
                format!(
                    "compulsory: at least {need} {} {counted_name} from the rows with a minimum at {total} points ({min} per full 1500); the army has {have}",
                    arm_name(arm),
                ),
            ));
        }
    }

    // Elite caps.
    let per_elite = if list.period == Period::Acw {
        BLOCK
    } else {
        2 * BLOCK
    };
    for arm in [Arm::Infantry, Arm::Cavalry] {
        let elite: Vec<&(usize, BoughtUnit)> = units
            .iter()
            .filter(|(_, u)| u.troop.arm == arm && is_elite(list, u.troop, u.grade))
            .collect();
        let of_arm = units.iter().filter(|(_, u)| u.troop.arm == arm).count();
        let all_elite = arm == Arm::Infantry && list.period != Period::Acw && elite.len() == of_arm;
        let allowed = (total / per_elite) as usize;
        if elite.len() > allowed && !all_elite {
            let (i, _) = elite[allowed];
            errors.push(src.error_at(
                entry_span(*i),
                format!(
                    "at most {allowed} elite {} unit{} at {total} points (1 per full {per_elite}{}): this is elite unit {}",
                    arm_name(arm),
                    if allowed == 1 { "" } else { "s" },
                    if arm == Arm::Infantry && list.period != Period::Acw { ", unless all the infantry is elite" } else { "" },
                    allowed + 1
                ),
            ));
        }
    }

    // Command units: at least one; one army HQ; HQs per infantry units; exceptional caps.
    if commands.is_empty() {
        errors.push(src.error_at(
            file.list.span(),
            "no command units: buy at least one [[command]] (the highest is the commanding officer)",
        ));
    } else if commands.iter().all(|(_, c)| c.fao) {
        errors.push(src.error_at(
            file.list.span(),
            "no command units but Field Artillery Officers, who are never the commanding officer: buy a [[command]] with a level and a quality",
        ));
    }
    // Field Artillery Officers: one for every full 6 artillery units.
    let artillery_units = units
        .iter()
        .filter(|(_, u)| u.troop.arm == Arm::Artillery)
        .count() as u32;
    let faos: Vec<usize> = commands
        .iter()
        .filter(|(_, c)| c.fao)
        .map(|(i, _)| *i)
        .collect();
    let allowed_faos = (artillery_units / ARTILLERY_PER_FAO) as usize;
    if faos.len() > allowed_faos {
        errors.push(src.error_at(
            level_span(faos[allowed_faos]),
            format!(
                "at most one Field Artillery Officer for every {ARTILLERY_PER_FAO} artillery units: {artillery_units} artillery unit{} allow {allowed_faos}",
                if artillery_units == 1 { "" } else { "s" }
            ),
        ));
    }
    let commands_by_level: Vec<&(usize, BoughtCommand)> =
        commands.iter().filter(|(_, c)| !c.fao).collect();
    let co = co_index(commands_by_level.iter().map(|(_, c)| (c.level, c.fao)));
    let ordered_by = if all_cavalry {
        cavalry_units
    } else {
        infantry_units
    };
    let levels = [
        Level::Brigade,
        Level::Division,
        Level::Corps,
        Level::Army,
        Level::Hq,
    ];
    for level in levels {
        let at: Vec<(usize, &(usize, BoughtCommand))> = commands_by_level
            .iter()
            .copied()
            .enumerate()
            .filter(|(_, (_, c))| c.level == level)
            .collect();
        if at.is_empty() {
            continue;
        }
        if let Some(max) = at.iter().filter_map(|(_, (_, c))| c.row.max).min() {
            if at.len() > max as usize {
                let (_, (i, _)) = at[max as usize];
                errors.push(src.error_at(
                    level_span(*i),
                    format!("at most {max} {} HQ a side", level_name(level)),
                ));
            }
        }
        if let Some(per) = at.iter().filter_map(|(_, (_, c))| c.row.per_infantry).min() {
            let others: Vec<&(usize, &(usize, BoughtCommand))> =
                at.iter().filter(|(k, _)| *k != co).collect();
            let allowed = (ordered_by / per as u32) as usize;
            if others.len() > allowed {
                let (_, (i, _)) = others[allowed];
                errors.push(src.error_at(
                    level_span(*i),
                    format!(
                        "at most one {} HQ for every {per} {} units besides the commanding officer: {ordered_by} units allow {allowed}",
                        level_name(level),
                        if all_cavalry { "cavalry" } else { "infantry" }
                    ),
                ));
            }
        }
        let cap = if chart.id == "acw-confederate" { 2 } else { 1 };
        let exceptional: Vec<&(usize, &(usize, BoughtCommand))> = at
            .iter()
            .filter(|(_, (_, c))| {
                c.quality == Quality::Exceptional
                    && c.row.notes.iter().any(|n| {
                        list.rule_set()
                            .note(*n)
                            .is_some_and(|n| n.mechanic == "exceptional-hq")
                    })
            })
            .collect();
        if exceptional.len() > cap {
            let (_, (i, _)) = exceptional[cap];
            errors.push(src.error_at(
                quality_span(*i),
                format!(
                    "at most {cap} exceptional {} HQ{} in this army",
                    level_name(level),
                    if cap == 1 { "" } else { "s" }
                ),
            ));
        }
    }

    if !errors.is_empty() {
        errors.sort_by_key(|e| (e.line, e.column));
        return Err(errors);
    }
    Ok(Army {
        list,
        list_id: list.id.clone(),
        name: file.name.clone().unwrap_or_else(|| list.name.clone()),
        points: total,
        cost,
        commands: commands.into_iter().map(|(_, c)| c).collect(),
        units: units.into_iter().map(|(_, u)| u).collect(),
        works,
    })
}

pub fn level_name(level: Level) -> &'static str {
    match level {
        Level::Brigade => "brigade",
        Level::Division => "division",
        Level::Corps => "corps",
        Level::Army => "army",
        Level::Hq => "colonial",
    }
}

pub fn quality_name(q: Quality) -> &'static str {
    match q {
        Quality::Uninspiring => "uninspiring",
        Quality::Inspiring => "inspiring",
        Quality::Average => "average",
        Quality::Good => "good",
        Quality::VeryGood => "very-good",
        Quality::Exceptional => "exceptional",
    }
}

pub fn arm_name(arm: Arm) -> &'static str {
    match arm {
        Arm::Infantry => "infantry",
        Arm::Cavalry => "cavalry",
        Arm::Artillery => "artillery",
        Arm::Engineers => "engineer",
        Arm::Transport => "transport",
        Arm::Armour => "armoured",
    }
}

/// Whether one more of each troop row and command row could be bought now: `None` where it
/// can, or the problem it would make (over the total, past a maximum or a cap). The browser's
/// builder greys out what cannot be added.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Addable {
    /// By troop row name.
    pub troops: Vec<(String, Option<String>)>,
    /// By "level quality".
    pub commands: Vec<(String, Option<String>)>,
    /// A Field Artillery Officer.
    pub fao: Option<String>,
    /// One more field defence, by kind (`WorkKind::word`).
    pub works: Vec<(String, Option<String>)>,
}

/// What the check says of `text` with one more row, beyond what it says already.
fn new_problem(
    src_path: &str,
    text: &str,
    extra: &str,
    before: &[String],
    points: Option<u32>,
) -> Option<String> {
    let with = format!("{text}\n{extra}");
    match check(&ScenarioSource::new(src_path, with), points) {
        Ok(_) => None,
        Err(errors) => errors.into_iter().map(|e| e.message).find(|m| {
            !before.contains(m)
                && !m.starts_with("compulsory")
                && !m.starts_with("no command units")
        }),
    }
}

/// [`Addable`] for an army file's text. Rows that are never bought on their own are left
/// out (the list says why).
pub fn addable(text: &str, points: Option<u32>) -> Addable {
    let src = ScenarioSource::new("army", text);
    let Ok(file) = src.parse::<ArmyFile>() else {
        return Addable::default();
    };
    let Some(list) = lists::find(file.list.get_ref()) else {
        return Addable::default();
    };
    let before: Vec<String> = match check(&src, points) {
        Ok(_) => Vec::new(),
        Err(e) => e.into_iter().map(|e| e.message).collect(),
    };
    let quote = |s: &str| toml::Value::String(s.to_string()).to_string();
    let troops = list
        .troops
        .iter()
        .filter(|t| not_for_sale(list, t).is_none())
        .map(|t| {
            let extra = format!("[[unit]]\ntroop = {}\n", quote(&t.name));
            (
                t.name.clone(),
                new_problem("army", text, &extra, &before, points),
            )
        })
        .collect();
    let commands = list
        .command_chart()
        .rows
        .iter()
        .map(|r| {
            let extra = format!(
                "[[command]]\nlevel = \"{}\"\nquality = \"{}\"\n",
                level_id(r.level),
                quality_name(r.quality)
            );
            (
                format!("{} {}", level_id(r.level), quality_name(r.quality)),
                new_problem("army", text, &extra, &before, points),
            )
        })
        .collect();
    let fao = new_problem("army", text, "[[command]]\nfao = true\n", &before, points);
    let works = buyable_works()
        .map(|k| {
            let extra = format!("[[work]]\nkind = \"{}\"\n", k.word());
            (
                k.word().to_string(),
                new_problem("army", text, &extra, &before, points),
            )
        })
        .collect();
    Addable {
        troops,
        commands,
        fao,
        works,
    }
}

/// The field defences an army may buy (the rest are the map's, like buildings).
pub fn buyable_works() -> impl Iterator<Item = crate::works::WorkKind> {
    crate::works::WorkKind::ALL
        .into_iter()
        .filter(|k| k.points().is_some())
}

/// A level as army files write it.
pub fn level_id(level: Level) -> &'static str {
    match level {
        Level::Hq => "hq",
        other => level_name(other),
    }
}

/// Why a row is not bought on its own, or `None` when it is (for the builder's list).
pub fn why_not_for_sale(list: &ArmyList, troop: &Troop) -> Option<String> {
    not_for_sale(list, troop)
}

/// Whether a row may be bought elite or poor, with horse teams, or dismounted.
pub fn row_options(list: &'static ArmyList, troop: &Troop) -> (bool, bool, bool) {
    let grades =
        mechanics(list, troop).contains(&"elite-poor-option") && troop.name.starts_with("Regular");
    let horse = list.period == Period::Acw
        && troop.arm == Arm::Artillery
        && !troop.name.contains("Siege")
        && troop.name != "Mortar"
        && troop.name != "Gatling Gun";
    (grades, horse, dismounted_row(list, troop).is_some())
}
