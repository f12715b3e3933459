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
//! [[unit]]
//! troop = "Line Infantry (08-12)"
//! stands = 5
//! count = 4
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
    commands: Vec<CommandEntry>,
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
    level: Spanned<Level>,
    quality: Spanned<Quality>,
    #[serde(default)]
    name: Option<String>,
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
    /// The commanding officer: the first command unit of the highest level.
    pub fn co(&self) -> usize {
        co_index(self.commands.iter().map(|c| c.level))
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

fn co_index(levels: impl Iterator<Item = Level>) -> usize {
    let mut best: Option<(u8, usize)> = None;
    for (i, l) in levels.enumerate() {
        if best.is_none_or(|(r, _)| rank(l) > r) {
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
    let mut commands = Vec::new();
    for (i, c) in file.commands.iter().enumerate() {
        match chart.row(*c.level.get_ref(), *c.quality.get_ref()) {
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
                    cost: row.points as u32,
                },
            )),
            None => {
                let have: Vec<String> = chart
                    .rows
                    .iter()
                    .filter(|r| r.level == *c.level.get_ref())
                    .map(|r| quality_name(r.quality).to_string())
                    .collect();
                let message = if have.is_empty() {
                    format!(
                        "the {} has no {} command units",
                        chart.name,
                        level_name(*c.level.get_ref())
                    )
                } else {
                    format!(
                        "the {} has no {} {} HQ: {}",
                        chart.name,
                        quality_name(*c.quality.get_ref()),
                        level_name(*c.level.get_ref()),
                        have.join(", ")
                    )
                };
                errors.push(src.error_at(c.quality.span(), message));
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
                    cost: stand_points * stands,
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
            let all: Vec<&str> = crate::works::WorkKind::ALL
                .iter()
                .filter(|k| k.points().is_some())
                .map(|k| k.word())
                .collect();
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
    }
    let co = co_index(commands.iter().map(|(_, c)| c.level));
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
        let at: Vec<(usize, &(usize, BoughtCommand))> = commands
            .iter()
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
                    file.commands[*i].level.span(),
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
                    file.commands[*i].level.span(),
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
                file.commands[*i].quality.span(),
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
    Addable { troops, commands }
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
