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
    pub kind: crate::terrain::WorkKind,
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
    pub morale: crate::troops::Morale,
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
    let list = army_list(src, &file)?;
    let total = points.unwrap_or(*file.points.get_ref());
    let mut c = Checking {
        src,
        file: &file,
        list,
        total,
        blocks: (total / BLOCK).max(1),
        errors: Vec::new(),
    };
    if total == 0 {
        c.refuse(file.points.span(), "a points total is more than 0");
    }
    let commands = c.buy_commands();
    let units = c.buy_units();
    let works = c.buy_works();
    let cost = c.points_total(&commands, &units, &works);
    let arms = Arms::of(&units);
    c.row_maximums(&units, &arms);
    c.compulsory_troops(&units, &arms);
    c.elite_caps(&units);
    c.command_limits(&commands, &units, &arms);
    let Checking { mut errors, .. } = c;
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

/// The army list the file names, or the one problem that stops the check.
fn army_list(
    src: &ScenarioSource,
    file: &ArmyFile,
) -> Result<&'static ArmyList, Vec<ScenarioError>> {
    lists::find(file.list.get_ref()).ok_or_else(|| {
        let ids: Vec<&str> = lists::lists().iter().map(|l| l.id.as_str()).collect();
        vec![src.error_at(
            file.list.span(),
            format!(
                "no army list \"{}\": one of {}",
                file.list.get_ref(),
                ids.join(", ")
            ),
        )]
    })
}

/// A check under way: the file, its list and points, and the problems found so far.
struct Checking<'a> {
    src: &'a ScenarioSource,
    file: &'a ArmyFile,
    list: &'static ArmyList,
    /// The points total.
    total: u32,
    /// Full blocks of 1500 points (at least one), which the limits are counted in.
    blocks: u32,
    errors: Vec<ScenarioError>,
}

/// What was bought, with the index of the file's entry that bought it.
type Bought<T> = Vec<(usize, T)>;

/// The units of foot and horse bought, which several limits count.
struct Arms {
    infantry: u32,
    cavalry: u32,
    /// No infantry and some cavalry: the force takes the infantry limits for its horse.
    all_cavalry: bool,
}

impl Arms {
    fn of(units: &Bought<BoughtUnit>) -> Arms {
        let count = |arm| units.iter().filter(|(_, u)| u.troop.arm == arm).count() as u32;
        let (infantry, cavalry) = (count(Arm::Infantry), count(Arm::Cavalry));
        Arms {
            infantry,
            cavalry,
            all_cavalry: infantry == 0 && cavalry > 0,
        }
    }
}

impl Checking<'_> {
    fn refuse(&mut self, span: std::ops::Range<usize>, message: impl Into<String>) {
        self.errors.push(self.src.error_at(span, message));
    }

    /// A value read from the file, or `None` with its problem noted.
    fn take<T>(&mut self, read: Result<T, (std::ops::Range<usize>, String)>) -> Option<T> {
        read.map_err(|(span, why)| self.refuse(span, why)).ok()
    }

    /// Where a problem of command entry `i`'s level is reported: that key, else its `fao`,
    /// else the entry.
    fn level_span(&self, i: usize) -> std::ops::Range<usize> {
        let c = &self.file.commands[i];
        let e = c.get_ref();
        e.level
            .as_ref()
            .map(|l| l.span())
            .or_else(|| e.fao.as_ref().map(|f| f.span()))
            .unwrap_or_else(|| c.span())
    }

    /// Where a problem of command entry `i`'s quality is reported.
    fn quality_span(&self, i: usize) -> std::ops::Range<usize> {
        let e = self.file.commands[i].get_ref();
        e.quality
            .as_ref()
            .map(|q| q.span())
            .unwrap_or_else(|| self.level_span(i))
    }

    /// Where a problem of unit entry `i` is reported.
    fn entry_span(&self, i: usize) -> std::ops::Range<usize> {
        self.file.units[i].troop.span()
    }

    /// The command units: each a row of the list's command chart, or a Field Artillery
    /// Officer.
    fn buy_commands(&mut self) -> Bought<BoughtCommand> {
        let file = self.file;
        let mut commands = Vec::new();
        for (i, entry) in file.commands.iter().enumerate() {
            let c = entry.get_ref();
            let bought = if c.fao.as_ref().is_some_and(|f| *f.get_ref()) {
                let read = self.fao_entry(i, c);
                self.take(read)
            } else {
                let read = self.command_entry(i, c);
                self.take(read)
            };
            if let Some(b) = bought {
                commands.push((i, b));
            }
        }
        commands
    }

    fn fao_entry(
        &self,
        i: usize,
        c: &CommandEntry,
    ) -> Result<BoughtCommand, (std::ops::Range<usize>, String)> {
        if c.level.is_some() || c.quality.is_some() {
            return Err((
                self.level_span(i),
                "a Field Artillery Officer has its own stat line (an average brigade HQ's): leave out level and quality".into(),
            ));
        }
        Ok(BoughtCommand {
            row: &FAO,
            level: FAO.level,
            quality: FAO.quality,
            name: c
                .name
                .clone()
                .unwrap_or_else(|| format!("Field Artillery Officer {}", i + 1)),
            fao: true,
            cost: FAO.points as u32,
        })
    }

    fn command_entry(
        &self,
        i: usize,
        c: &CommandEntry,
    ) -> Result<BoughtCommand, (std::ops::Range<usize>, String)> {
        let (Some(level), Some(quality)) = (&c.level, &c.quality) else {
            return Err((
                self.level_span(i),
                "a command unit needs a level and a quality (or `fao = true` for a Field Artillery Officer)".into(),
            ));
        };
        let chart = self.list.command_chart();
        let Some(row) = chart.row(*level.get_ref(), *quality.get_ref()) else {
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
            return Err((quality.span(), message));
        };
        Ok(BoughtCommand {
            row,
            level: row.level,
            quality: row.quality,
            name: c
                .name
                .clone()
                .unwrap_or_else(|| format!("{} HQ {}", level_name(row.level), i + 1)),
            fao: false,
            cost: row.points as u32,
        })
    }

    /// The units: each entry's row, stands, grade and extras, `count` times over.
    fn buy_units(&mut self) -> Bought<BoughtUnit> {
        let file = self.file;
        let mut units: Bought<BoughtUnit> = Vec::new();
        for (i, u) in file.units.iter().enumerate() {
            let Some((count, unit)) = self.unit_entry(u) else {
                continue;
            };
            for k in 0..count {
                let name = match (&u.name, count) {
                    (Some(n), 1) => n.clone(),
                    (Some(n), _) => format!("{n} {}", k + 1),
                    (None, _) => format!("{} {}", unit.troop.name, units.len() + 1),
                };
                units.push((
                    i,
                    BoughtUnit {
                        name,
                        ..unit.clone()
                    },
                ));
            }
        }
        units
    }

    /// One `[[unit]]` entry read: how many units it buys and what each is (its name aside),
    /// or `None` with its first problem noted.
    fn unit_entry(&mut self, u: &UnitEntry) -> Option<(u32, BoughtUnit)> {
        let list = self.list;
        let troop = self.take(troop_of(list, u))?;
        let stands = self.take(stands_of(troop, u))?;
        let count = self.take(count_of(u))?;
        let grade = self.take(grade_of(list, troop, u))?;
        let horse = self.take(horse_of(list, troop, u))?;
        let dismounted = self.take(dismounted_of(list, troop, u))?;
        let morale = self.take(morale_of(u))?;
        let regimental_guns = self.take(regimental_guns_of(list, troop, u))?;
        let scouting = self.take(scouting_of(troop, dismounted, u))?;
        let guns_cost = if regimental_guns > 0 {
            regimental_gun_points(list, troop).expect("checked") * regimental_guns
        } else {
            0
        };
        let stand_points = stand_points(troop, grade, horse, morale);
        Some((
            count,
            BoughtUnit {
                troop,
                row: troop.name.clone(),
                name: String::new(),
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
        ))
    }

    /// Field defences: an army in hasty defence may spend 10% of its points on the hasty
    /// ones, in fixed defence 25% on any.
    fn buy_works(&mut self) -> Vec<BoughtWork> {
        let file = self.file;
        let defence = match &file.defence {
            None => None,
            Some(d) => match d.get_ref().as_str() {
                "hasty" => Some((false, d.span())),
                "fixed" => Some((true, d.span())),
                other => {
                    self.refuse(d.span(), format!("defence \"{other}\"? hasty or fixed"));
                    None
                }
            },
        };
        let mut works = Vec::new();
        for w in &file.works {
            let Some(kind) =
                crate::terrain::WorkKind::parse(w.kind.get_ref()).filter(|k| k.points().is_some())
            else {
                let all: Vec<&str> = buyable_works().map(|k| k.word()).collect();
                self.refuse(
                    w.kind.span(),
                    format!(
                        "\"{}\" is not a field defence: {}",
                        w.kind.get_ref(),
                        all.join(", ")
                    ),
                );
                continue;
            };
            let count = w.count.as_ref().map_or(1, |c| *c.get_ref()).max(1);
            match defence {
                None => self.refuse(
                    w.kind.span(),
                    "field defences need the army in defence: defence = \"hasty\" or \"fixed\"",
                ),
                Some((false, _)) if !kind.hasty() => self.refuse(
                    w.kind.span(),
                    format!(
                        "{} need a fixed defence: a hasty one has trenches, stakes and breastworks",
                        kind.word()
                    ),
                ),
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
            let budget = self.total * share / 100;
            if works_cost > budget {
                self.refuse(
                    span,
                    format!(
                        "field defences cost {works_cost} points, over the {share}% ({budget} points) a {} defence may spend",
                        if fixed { "fixed" } else { "hasty" }
                    ),
                );
            }
        }
        works
    }

    /// What the army costs, refused above its points total.
    fn points_total(
        &mut self,
        commands: &Bought<BoughtCommand>,
        units: &Bought<BoughtUnit>,
        works: &[BoughtWork],
    ) -> u32 {
        let cost: u32 = units.iter().map(|(_, u)| u.cost).sum::<u32>()
            + commands.iter().map(|(_, c)| c.cost).sum::<u32>()
            + works.iter().map(|w| w.cost).sum::<u32>();
        let total = self.total;
        if cost > total {
            self.refuse(
                self.file.points.span(),
                format!(
                    "the army costs {cost} points, {} over its total of {total}",
                    cost - total
                ),
            );
        }
        cost
    }

    /// Limits: the rows' maximums, per full 1500 points (poor units have none; an
    /// all-cavalry force takes the infantry limits, so its cavalry rows have none).
    fn row_maximums(&mut self, units: &Bought<BoughtUnit>, arms: &Arms) {
        let (list, total) = (self.list, self.total);
        for troop in &list.troops {
            let max = if arms.all_cavalry && troop.arm == Arm::Cavalry {
                None
            } else {
                troop.max
            };
            let Some(max) = max else { continue };
            let allowed = max as u32 * self.blocks;
            let mut n = 0;
            for (i, u) in units.iter().filter(|(_, u)| std::ptr::eq(u.troop, troop)) {
                if u.grade == Grade::Poor {
                    continue;
                }
                n += if counts_units(troop.arm) { 1 } else { u.stands };
                if n > allowed {
                    self.refuse(
                        self.entry_span(*i),
                        format!(
                            "at most {allowed} {} of \"{}\" at {total} points ({max} per full 1500): this makes {n}",
                            if counts_units(troop.arm) { "units" } else { "stands" },
                            troop.name
                        ),
                    );
                    break;
                }
            }
        }
    }

    /// Compulsory troops: the rows with a minimum form each arm's pool.
    fn compulsory_troops(&mut self, units: &Bought<BoughtUnit>, arms: &Arms) {
        let (list, total) = (self.list, self.total);
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
            let (counted_arm, counted_name) = if arm == Arm::Infantry && arms.all_cavalry {
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
            let need = min as u32 * self.blocks;
            if have < need {
                self.refuse(
                    self.file.list.span(),
                    format!(
                        "compulsory: at least {need} {} {counted_name} from the rows with a minimum at {total} points ({min} per full 1500); the army has {have}",
                        arm_name(arm),
                    ),
                );
            }
        }
    }

    /// Elite caps: one elite unit of foot and of horse per full 1500 points in the ACW, per
    /// full 3000 elsewhere (where an all-elite infantry is allowed).
    fn elite_caps(&mut self, units: &Bought<BoughtUnit>) {
        let (list, total) = (self.list, self.total);
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
            let all_elite =
                arm == Arm::Infantry && list.period != Period::Acw && elite.len() == of_arm;
            let allowed = (total / per_elite) as usize;
            if elite.len() > allowed && !all_elite {
                let (i, _) = elite[allowed];
                self.refuse(
                    self.entry_span(*i),
                    format!(
                        "at most {allowed} elite {} unit{} at {total} points (1 per full {per_elite}{}): this is elite unit {}",
                        arm_name(arm),
                        if allowed == 1 { "" } else { "s" },
                        if arm == Arm::Infantry && list.period != Period::Acw { ", unless all the infantry is elite" } else { "" },
                        allowed + 1
                    ),
                );
            }
        }
    }

    /// Command units: at least one that may command; Field Artillery Officers by the
    /// artillery; then each level's limits.
    fn command_limits(
        &mut self,
        commands: &Bought<BoughtCommand>,
        units: &Bought<BoughtUnit>,
        arms: &Arms,
    ) {
        if commands.is_empty() {
            self.refuse(
                self.file.list.span(),
                "no command units: buy at least one [[command]] (the highest is the commanding officer)",
            );
        } else if commands.iter().all(|(_, c)| c.fao) {
            self.refuse(
                self.file.list.span(),
                "no command units but Field Artillery Officers, who are never the commanding officer: buy a [[command]] with a level and a quality",
            );
        }
        self.fao_limit(commands, units);
        let by_level: Vec<&(usize, BoughtCommand)> =
            commands.iter().filter(|(_, c)| !c.fao).collect();
        let co = co_index(by_level.iter().map(|(_, c)| (c.level, c.fao)));
        for level in [
            Level::Brigade,
            Level::Division,
            Level::Corps,
            Level::Army,
            Level::Hq,
        ] {
            // (position among the commands by level, the bought command)
            let at: Vec<(usize, &(usize, BoughtCommand))> = by_level
                .iter()
                .copied()
                .enumerate()
                .filter(|(_, (_, c))| c.level == level)
                .collect();
            if at.is_empty() {
                continue;
            }
            self.level_limits(level, &at, co, arms);
            self.exceptional_cap(level, &at);
        }
    }

    /// Field Artillery Officers: one for every full 6 artillery units.
    fn fao_limit(&mut self, commands: &Bought<BoughtCommand>, units: &Bought<BoughtUnit>) {
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
            self.refuse(
                self.level_span(faos[allowed_faos]),
                format!(
                    "at most one Field Artillery Officer for every {ARTILLERY_PER_FAO} artillery units: {artillery_units} artillery unit{} allow {allowed_faos}",
                    if artillery_units == 1 { "" } else { "s" }
                ),
            );
        }
    }

    /// A level's most HQs a side, and its HQs per so many infantry units (cavalry for an
    /// all-cavalry force) besides the commanding officer (`co`, by position).
    fn level_limits(
        &mut self,
        level: Level,
        at: &[(usize, &(usize, BoughtCommand))],
        co: usize,
        arms: &Arms,
    ) {
        if let Some(max) = at.iter().filter_map(|(_, (_, c))| c.row.max).min() {
            if at.len() > max as usize {
                let (_, (i, _)) = at[max as usize];
                self.refuse(
                    self.level_span(*i),
                    format!("at most {max} {} HQ a side", level_name(level)),
                );
            }
        }
        if let Some(per) = at.iter().filter_map(|(_, (_, c))| c.row.per_infantry).min() {
            let ordered_by = if arms.all_cavalry {
                arms.cavalry
            } else {
                arms.infantry
            };
            let others: Vec<&(usize, &(usize, BoughtCommand))> =
                at.iter().filter(|(k, _)| *k != co).collect();
            let allowed = (ordered_by / per as u32) as usize;
            if others.len() > allowed {
                let (_, (i, _)) = others[allowed];
                self.refuse(
                    self.level_span(*i),
                    format!(
                        "at most one {} HQ for every {per} {} units besides the commanding officer: {ordered_by} units allow {allowed}",
                        level_name(level),
                        if arms.all_cavalry { "cavalry" } else { "infantry" }
                    ),
                );
            }
        }
    }

    /// Exceptional HQs (the lists' notes): one of a level in an army, two in the Confederate.
    fn exceptional_cap(&mut self, level: Level, at: &[(usize, &(usize, BoughtCommand))]) {
        let list = self.list;
        let cap = if list.command_chart().id == "acw-confederate" {
            2
        } else {
            1
        };
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
            self.refuse(
                self.quality_span(*i),
                format!(
                    "at most {cap} exceptional {} HQ{} in this army",
                    level_name(level),
                    if cap == 1 { "" } else { "s" }
                ),
            );
        }
    }
}

/// A problem of one key of an entry: where, and what.
type Refusal = (std::ops::Range<usize>, String);

/// The entry's troop row, for sale.
fn troop_of(list: &'static ArmyList, u: &UnitEntry) -> Result<&'static Troop, Refusal> {
    let Some(troop) = list.troop(u.troop.get_ref()) else {
        return Err((
            u.troop.span(),
            format!(
                "no troop row \"{}\" in {} (see `volley army show {}`)",
                u.troop.get_ref(),
                list.id,
                list.id
            ),
        ));
    };
    match not_for_sale(list, troop) {
        Some(why) => Err((u.troop.span(), why)),
        None => Ok(troop),
    }
}

/// Stands a unit, within its arm's range.
fn stands_of(troop: &Troop, u: &UnitEntry) -> Result<u32, Refusal> {
    let (lo, hi, default) = stand_range(troop.arm);
    match &u.stands {
        None => Ok(default),
        Some(s) if (lo..=hi).contains(s.get_ref()) => Ok(*s.get_ref()),
        Some(s) => Err((
            s.span(),
            format!(
                "a unit of {} has {lo} to {hi} stands, not {}",
                arm_name(troop.arm),
                s.get_ref()
            ),
        )),
    }
}

/// How many such units the entry buys, 1 to 40.
fn count_of(u: &UnitEntry) -> Result<u32, Refusal> {
    match &u.count {
        None => Ok(1),
        Some(c) if (1..=40).contains(c.get_ref()) => Ok(*c.get_ref()),
        Some(c) => Err((c.span(), "count is from 1 to 40 units".into())),
    }
}

/// Elite or poor, where the row allows it (the ACW Regular Infantry).
fn grade_of(list: &ArmyList, troop: &Troop, u: &UnitEntry) -> Result<Grade, Refusal> {
    let Some(g) = &u.grade else {
        return Ok(Grade::Regular);
    };
    let parsed = match g.get_ref().as_str() {
        "regular" => Grade::Regular,
        "elite" => Grade::Elite,
        "poor" => Grade::Poor,
        _ => {
            return Err((
                g.span(),
                format!("grade \"{}\"? regular, elite or poor", g.get_ref()),
            ))
        }
    };
    if parsed == Grade::Regular
        || (mechanics(list, troop).contains(&"elite-poor-option")
            && troop.name.starts_with("Regular"))
    {
        return Ok(parsed);
    }
    Err((
        g.span(),
        format!(
            "\"{}\" cannot be bought elite or poor: only the ACW Regular Infantry rows can",
            troop.name
        ),
    ))
}

/// Horse teams, for ACW field guns.
fn horse_of(list: &'static ArmyList, troop: &Troop, u: &UnitEntry) -> Result<bool, Refusal> {
    match &u.horse {
        Some(h) if *h.get_ref() => {
            if row_options(list, troop).1 {
                Ok(true)
            } else {
                Err((
                    h.span(),
                    "only ACW field guns are bought as horse artillery (+10 points a stand); other lists have a Horse Artillery row".into(),
                ))
            }
        }
        _ => Ok(false),
    }
}

/// The dismounted row a unit starting on foot fights with.
fn dismounted_of(
    list: &'static ArmyList,
    troop: &Troop,
    u: &UnitEntry,
) -> Result<Option<&'static Troop>, Refusal> {
    match &u.dismounted {
        Some(d) if *d.get_ref() => match dismounted_row(list, troop) {
            Some(row) => Ok(Some(row)),
            None => Err((
                d.span(),
                format!(
                    "\"{}\" cannot dismount: its list gives it no dismounted row",
                    troop.name
                ),
            )),
        },
        _ => Ok(None),
    }
}

/// The morale grade (the optional Morale rule).
fn morale_of(u: &UnitEntry) -> Result<crate::troops::Morale, Refusal> {
    match &u.morale {
        None => Ok(crate::troops::Morale::Regular),
        Some(m) => crate::troops::Morale::parse(m.get_ref()).ok_or_else(|| {
            (
                m.span(),
                format!(
                    "morale \"{}\"? unmotivated, regular or motivated",
                    m.get_ref()
                ),
            )
        }),
    }
}

/// The regiment's own light howitzers, where its row takes them.
fn regimental_guns_of(list: &ArmyList, troop: &Troop, u: &UnitEntry) -> Result<u32, Refusal> {
    let Some(g) = &u.regimental_guns else {
        return Ok(0);
    };
    if *g.get_ref() == 0 {
        return Ok(0);
    }
    regimental_gun_points(list, troop).map_err(|why| (g.span(), why))?;
    if *g.get_ref() > REGIMENTAL_GUNS_MAX {
        return Err((
            g.span(),
            format!(
                "a regiment has at most {REGIMENTAL_GUNS_MAX} regimental guns, not {}",
                g.get_ref()
            ),
        ));
    }
    Ok(*g.get_ref())
}

/// Deployed as scouting cavalry: mounted cavalry only.
fn scouting_of(troop: &Troop, dismounted: Option<&Troop>, u: &UnitEntry) -> Result<bool, Refusal> {
    match &u.scouting {
        Some(s) if *s.get_ref() => {
            if troop.arm != Arm::Cavalry || dismounted.is_some() {
                Err((
                    s.span(),
                    "only mounted cavalry scout (the optional Scouting Cavalry rule)".into(),
                ))
            } else {
                Ok(true)
            }
        }
        _ => Ok(false),
    }
}

/// Points a stand: the row's, 5 more elite or 5 less poor, 10 more with horse teams, then a
/// quarter off or on for the morale grade, to the nearest point.
pub(crate) fn stand_points(
    troop: &Troop,
    grade: Grade,
    horse: bool,
    morale: crate::troops::Morale,
) -> u32 {
    let base = troop.points.expect("for sale") as u32;
    let graded = match grade {
        Grade::Elite => base + 5,
        Grade::Poor => base.saturating_sub(5),
        Grade::Regular => base,
    } + if horse { 10 } else { 0 };
    (graded * morale.points_percent() + 50) / 100
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
pub fn buyable_works() -> impl Iterator<Item = crate::terrain::WorkKind> {
    crate::terrain::WorkKind::ALL
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
