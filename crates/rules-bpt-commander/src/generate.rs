//! An army the computer builds from a list to a points total (`volley army generate`, and the
//! army builder's computer opponent): an army [`army::check`] accepts at that total, spent
//! until nothing more fits, different with every seed.
//!
//! Every purchase is kept only if the check accepts the army with it, so the limits are the
//! checker's own (maximums, the compulsory pools, elite and exceptional caps, HQs per so many
//! infantry, Field Artillery Officers per six guns). It is built in three steps:
//!
//! 1. **The compulsory part**: a commanding officer and each arm's minimum, of rows and
//!    stands the seed picks; if that does not fit, the cheapest such part; if even that does
//!    not, the cheapest all-cavalry force (which takes the infantry minimum for its horse).
//! 2. **The body**: units of foot, horse and guns (now and then engineers), each arm bought
//!    towards a share of the points the seed picks, the foot mostly of one or two rows; an HQ
//!    for every four to six infantry units.
//! 3. **What remains**: a stand more for a unit, another unit, a regimental gun, a better HQ,
//!    another HQ, a Field Artillery Officer, and last transport, while any of them fits; so
//!    when it is done, nothing a player could add to the army fits in its points.
//!
//! The readings this makes where the book says nothing are docs/rules/bpt-commander.md,
//! reading 107.

use crate::army::{self, Army, Grade, BLOCK};
use crate::lists::{self, Arm, ArmyList, Command, Level, Quality, Troop};
use crate::troops::Morale;
use volley_core::{Dice, ScenarioError, ScenarioSource, Seed, SeededDice};

/// The largest points total the computer builds to: six blocks of 1500. Beyond 6000 points
/// the cheaper lists' armies (colonial, above all) may not fit a side's deployment zone on the
/// smaller fields, as a player's army of that size may not.
pub const MAX_POINTS: u32 = 9_000;

/// An army the computer built: its file's text and the army the check made of it.
#[derive(Clone, Debug)]
pub struct Generated {
    pub text: String,
    pub army: Army,
}

/// Builds an army from the list `list_id` to `points`, its choices drawn from `seed`; or why
/// it cannot, in words.
pub fn generate(list_id: &str, points: u32, seed: u64) -> Result<Generated, String> {
    let list = lists::find(list_id).ok_or_else(|| {
        let ids: Vec<&str> = lists::lists().iter().map(|l| l.id.as_str()).collect();
        format!(
            "there is no army list \"{list_id}\"; the lists are: {}",
            ids.join(", ")
        )
    })?;
    if points == 0 {
        return Err("the points total must be more than 0".into());
    }
    if points > MAX_POINTS {
        return Err(format!(
            "the computer builds armies of at most {MAX_POINTS} points, not {points}"
        ));
    }
    let mut rng = Rng::new(seed);
    let plan = Plan::new(list, points, &mut rng);
    let cores = [
        Some(plan.core(points, seed, &mut rng)),
        cheapest_core(list, points, seed, false),
        cheapest_core(list, points, seed, true),
    ];
    let Some(mut draft) = cores.into_iter().flatten().find(|d| d.check().is_ok()) else {
        return Err(too_small(list, points, seed));
    };
    spend(&mut draft, &plan, &mut rng);
    fill(&mut draft, &mut rng);
    let text = draft.text();
    let army = army::check(&ScenarioSource::new(SOURCE, text.clone()), None).map_err(|e| {
        format!(
            "the army built from the {} failed its check: {}",
            list.name,
            e.iter()
                .map(|e| e.message.clone())
                .collect::<Vec<_>>()
                .join("; ")
        )
    })?;
    Ok(Generated { text, army })
}

/// What the check calls a generated army's file.
const SOURCE: &str = "generated army";

/// Why a total is too small for the list: the least its compulsory part costs, and what.
fn too_small(list: &'static ArmyList, points: u32, seed: u64) -> String {
    let least = [false, true]
        .into_iter()
        .filter_map(|cavalry| cheapest_core(list, points, seed, cavalry))
        .filter(|d| {
            // Legal at its own cost: only the total stood in its way.
            let mut at = d.clone();
            at.points = d.cost();
            at.check().is_ok()
        })
        .min_by_key(|d| d.cost());
    match least {
        Some(d) => format!(
            "the {} needs at least {} points for its compulsory part ({}); {points} points are too few",
            list.name,
            d.cost(),
            d.describe()
        ),
        None => format!(
            "no army of the {} can be built to {points} points",
            list.name
        ),
    }
}

/// The seeded dice the choices are drawn from.
struct Rng(SeededDice);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(SeededDice::new(Seed::from_u64(seed)))
    }

    /// A number from 0 to `n` − 1.
    fn below(&mut self, n: usize) -> usize {
        self.0.roll(n.max(1) as u32) as usize - 1
    }

    /// A number from `lo` to `hi`.
    fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + self.below((hi.max(lo) - lo + 1) as usize) as u32
    }

    /// True `percent` times in a hundred.
    fn chance(&mut self, percent: u32) -> bool {
        self.0.roll(100) <= percent
    }

    /// One of `items`, each as likely as its weight.
    fn weighted<T: Copy>(&mut self, items: &[(T, u32)]) -> Option<T> {
        let total: u32 = items.iter().map(|(_, w)| w).sum();
        if total == 0 {
            return None;
        }
        let mut roll = self.0.roll(total);
        for &(item, w) in items {
            if roll <= w {
                return Some(item);
            }
            roll -= w;
        }
        None
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// One unit of a draft.
#[derive(Clone, Copy, Debug)]
struct Unit {
    troop: &'static Troop,
    stands: u32,
    grade: Grade,
    horse: bool,
    guns: u32,
}

/// Alike: the same row (the very row of the list), stands and extras.
impl PartialEq for Unit {
    fn eq(&self, other: &Unit) -> bool {
        std::ptr::eq(self.troop, other.troop)
            && (self.stands, self.grade, self.horse, self.guns)
                == (other.stands, other.grade, other.horse, other.guns)
    }
}

impl Unit {
    fn plain(troop: &'static Troop, stands: u32) -> Unit {
        Unit {
            troop,
            stands,
            grade: Grade::Regular,
            horse: false,
            guns: 0,
        }
    }
}

/// One command unit of a draft.
#[derive(Clone, Copy, Debug)]
enum Hq {
    Row(&'static Command),
    Fao,
}

impl Hq {
    fn cost(self) -> u32 {
        match self {
            Hq::Row(c) => c.points as u32,
            Hq::Fao => army::FAO.points as u32,
        }
    }
}

/// An army being built.
#[derive(Clone)]
struct Draft {
    list: &'static ArmyList,
    points: u32,
    seed: u64,
    commands: Vec<Hq>,
    units: Vec<Unit>,
}

fn level_rank(level: Level) -> u8 {
    match level {
        Level::Brigade | Level::Hq => 0,
        Level::Division => 1,
        Level::Corps => 2,
        Level::Army => 3,
    }
}

fn arm_rank(arm: Arm) -> u8 {
    match arm {
        Arm::Infantry => 0,
        Arm::Cavalry => 1,
        Arm::Artillery => 2,
        Arm::Engineers => 3,
        Arm::Armour => 4,
        Arm::Transport => 5,
    }
}

fn grade_rank(grade: Grade) -> u8 {
    match grade {
        Grade::Regular => 0,
        Grade::Elite => 1,
        Grade::Poor => 2,
    }
}

/// Whether the limits count this arm in units (foot and horse) or in stands.
fn counts_units(arm: Arm) -> bool {
    matches!(arm, Arm::Infantry | Arm::Cavalry)
}

/// The rows bought on their own.
fn for_sale(list: &'static ArmyList) -> impl Iterator<Item = &'static Troop> {
    list.troops
        .iter()
        .filter(move |t| army::why_not_for_sale(list, t).is_none())
}

/// An arm's compulsory pool: the largest minimum of its rows, per full 1500 points.
fn pool_min(list: &ArmyList, arm: Arm) -> Option<u32> {
    list.troops
        .iter()
        .filter(|t| t.arm == arm)
        .filter_map(|t| t.min)
        .max()
        .map(u32::from)
}

fn is_elite(list: &ArmyList, t: &Troop) -> bool {
    army::mechanics(list, t).contains(&"elite")
}

impl Draft {
    fn new(list: &'static ArmyList, points: u32, seed: u64) -> Draft {
        Draft {
            list,
            points,
            seed,
            commands: Vec::new(),
            units: Vec::new(),
        }
    }

    fn unit_cost(&self, u: &Unit) -> u32 {
        let guns = if u.guns > 0 {
            army::regimental_gun_points(self.list, u.troop).unwrap_or(0) * u.guns
        } else {
            0
        };
        army::stand_points(u.troop, u.grade, u.horse, Morale::Regular) * u.stands + guns
    }

    fn cost(&self) -> u32 {
        self.units.iter().map(|u| self.unit_cost(u)).sum::<u32>()
            + self.commands.iter().map(|c| c.cost()).sum::<u32>()
    }

    fn remaining(&self) -> u32 {
        self.points.saturating_sub(self.cost())
    }

    fn count(&self, arm: Arm) -> usize {
        self.units.iter().filter(|u| u.troop.arm == arm).count()
    }

    fn name(&self) -> String {
        format!("{} of {} points", self.list.name, self.points)
    }

    /// The army file: a comment saying how it was made, the commanding officer first, the
    /// units by arm and row, alike ones counted together.
    fn text(&self) -> String {
        let quote = |s: &str| toml::Value::String(s.to_string()).to_string();
        let mut out = format!(
            "# Built by the computer from the {} to {} points:\n# volley army generate {} --points {} --seed {}\nlist = {}\nname = {}\npoints = {}\n",
            self.list.name,
            self.points,
            self.list.id,
            self.points,
            self.seed,
            quote(&self.list.id),
            quote(&self.name()),
            self.points
        );
        let mut commands = self.commands.clone();
        commands.sort_by_key(|c| match c {
            Hq::Row(r) => (0, 3 - level_rank(r.level)),
            Hq::Fao => (1, 0),
        });
        for c in commands {
            match c {
                Hq::Row(r) => out.push_str(&format!(
                    "\n[[command]]\nlevel = \"{}\"\nquality = \"{}\"\n",
                    army::level_id(r.level),
                    army::quality_name(r.quality)
                )),
                Hq::Fao => out.push_str("\n[[command]]\nfao = true\n"),
            }
        }
        let row_index = |t: &Troop| {
            self.list
                .troops
                .iter()
                .position(|r| std::ptr::eq(r, t))
                .unwrap_or(usize::MAX)
        };
        let mut units = self.units.clone();
        units.sort_by_key(|u| {
            (
                arm_rank(u.troop.arm),
                row_index(u.troop),
                std::cmp::Reverse(u.stands),
                grade_rank(u.grade),
                u.horse,
                u.guns,
            )
        });
        let mut i = 0;
        while i < units.len() {
            let u = units[i];
            // An entry buys at most 40 units.
            let n = units[i..].iter().take(40).take_while(|v| **v == u).count();
            out.push_str(&format!(
                "\n[[unit]]\ntroop = {}\nstands = {}\n",
                quote(&u.troop.name),
                u.stands
            ));
            if n > 1 {
                out.push_str(&format!("count = {n}\n"));
            }
            match u.grade {
                Grade::Regular => {}
                Grade::Elite => out.push_str("grade = \"elite\"\n"),
                Grade::Poor => out.push_str("grade = \"poor\"\n"),
            }
            if u.horse {
                out.push_str("horse = true\n");
            }
            if u.guns > 0 {
                out.push_str(&format!("regimental_guns = {}\n", u.guns));
            }
            i += n;
        }
        out
    }

    fn check(&self) -> Result<Army, Vec<ScenarioError>> {
        army::check(&ScenarioSource::new(SOURCE, self.text()), None)
    }

    /// Adds a unit if the army stays legal with it.
    fn try_unit(&mut self, u: Unit) -> bool {
        self.units.push(u);
        if self.check().is_ok() {
            return true;
        }
        self.units.pop();
        false
    }

    /// Adds a command unit if the army stays legal with it.
    fn try_hq(&mut self, hq: Hq) -> bool {
        self.commands.push(hq);
        if self.check().is_ok() {
            return true;
        }
        self.commands.pop();
        false
    }

    /// What it buys, in words (for the compulsory part a total is too small for).
    fn describe(&self) -> String {
        let mut parts: Vec<String> = self
            .commands
            .iter()
            .map(|c| match c {
                Hq::Row(r) => format!(
                    "{} {} {} HQ of {} points",
                    if matches!(r.quality, Quality::Good | Quality::VeryGood) {
                        "a"
                    } else {
                        "an"
                    },
                    army::quality_name(r.quality),
                    army::level_name(r.level),
                    r.points
                ),
                Hq::Fao => "a Field Artillery Officer".into(),
            })
            .collect();
        let mut i = 0;
        while i < self.units.len() {
            let u = self.units[i];
            let n = self.units[i..].iter().take_while(|v| **v == u).count();
            parts.push(format!(
                "{n} {} of {} of {} stand{}{} at {} points each",
                if n == 1 { "unit" } else { "units" },
                u.troop.name,
                u.stands,
                if u.stands == 1 { "" } else { "s" },
                match u.grade {
                    Grade::Poor => ", bought poor,",
                    _ => "",
                },
                self.unit_cost(&u)
            ));
            i += n;
        }
        let mut said = match parts.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
            None => String::new(),
        };
        if self.count(Arm::Infantry) == 0 && self.count(Arm::Cavalry) > 0 {
            said.push_str(", an all-cavalry force, which takes the infantry minimum for its horse");
        }
        said
    }
}

/// The seed's choices for the whole army.
struct Plan {
    list: &'static ArmyList,
    /// The rows of the compulsory infantry the army is built around.
    core: Vec<&'static Troop>,
    /// Each arm's share of the points, in percent.
    shares: Vec<(Arm, u32)>,
    /// Infantry units an HQ leads.
    per_hq: usize,
    /// The commanding officer's level, and the level of the HQs under it.
    co_level: Level,
    sub_level: Level,
    /// 6000 points or more: bigger units, so that the army has room to deploy.
    big: bool,
}

impl Plan {
    fn new(list: &'static ArmyList, points: u32, rng: &mut Rng) -> Plan {
        let pool: Vec<&'static Troop> = for_sale(list)
            .filter(|t| t.arm == Arm::Infantry && t.min.is_some())
            .collect();
        let mut plain: Vec<&'static Troop> = pool
            .iter()
            .copied()
            .filter(|t| !is_elite(list, t))
            .collect();
        if plain.is_empty() {
            plain = pool;
        }
        rng.shuffle(&mut plain);
        let k = 1 + rng.below(2);
        let core: Vec<&'static Troop> = plain.into_iter().take(k).collect();
        let has = |arm: Arm| for_sale(list).any(|t| t.arm == arm);
        let mut shares = vec![(Arm::Infantry, rng.range(55, 70))];
        if has(Arm::Cavalry) {
            shares.push((Arm::Cavalry, rng.range(10, 25)));
        }
        if has(Arm::Artillery) {
            shares.push((Arm::Artillery, rng.range(10, 20)));
        }
        if has(Arm::Engineers) && rng.chance(30) {
            shares.push((Arm::Engineers, 5));
        }
        if has(Arm::Armour) && rng.chance(20) {
            shares.push((Arm::Armour, 5));
        }
        let chart = list.command_chart();
        let levels: Vec<Level> = [
            Level::Brigade,
            Level::Division,
            Level::Corps,
            Level::Army,
            Level::Hq,
        ]
        .into_iter()
        .filter(|l| chart.rows.iter().any(|r| r.level == *l))
        .collect();
        let (co_level, sub_level) = if levels.contains(&Level::Hq) || levels.len() == 1 {
            (levels[0], levels[0])
        } else {
            let wanted = match points {
                0..=1999 if rng.chance(70) => Level::Brigade,
                0..=4499 => Level::Division,
                4500..=8999 if rng.chance(70) => Level::Corps,
                4500..=8999 => Level::Division,
                _ => Level::Corps,
            };
            let co = if levels.contains(&wanted) {
                wanted
            } else {
                levels[0]
            };
            (co, levels[0])
        };
        Plan {
            list,
            core,
            shares,
            per_hq: if points >= 4 * BLOCK {
                rng.range(5, 7)
            } else {
                rng.range(4, 6)
            } as usize,
            co_level,
            sub_level,
            big: points >= 4 * BLOCK,
        }
    }

    /// A command row of `level`: exceptional ones seldom, uninspiring and good ones less
    /// often than average ones.
    fn hq(&self, level: Level, rng: &mut Rng) -> Option<&'static Command> {
        let rows: Vec<(&'static Command, u32)> = self
            .list
            .command_chart()
            .rows
            .iter()
            .filter(|r| r.level == level)
            .map(|r| {
                let w = match r.quality {
                    Quality::Uninspiring | Quality::Good => 3,
                    Quality::Inspiring | Quality::Average => 4,
                    Quality::VeryGood => 2,
                    Quality::Exceptional => 1,
                };
                (r, w)
            })
            .collect();
        rng.weighted(&rows)
    }

    /// Stands for a unit of the row: foot 4 to 6, horse 3 or 4, guns 1 or 2, and from 6000
    /// points (where the units would crowd the field) a stand or two more; cheap foot and
    /// horse in units big enough to be worth about 150 points.
    fn stands(&self, t: &Troop, rng: &mut Rng) -> u32 {
        let (lo, hi, default) = army::stand_range(t.arm);
        let price = t.points.unwrap_or(1).max(1) as u32;
        let more = if self.big { 2 } else { 0 };
        let s = match t.arm {
            Arm::Infantry => rng.range(4 + more, 6 + more).max(150u32.div_ceil(price)),
            Arm::Cavalry => rng.range(3 + more, 4 + more).max(150u32.div_ceil(price)),
            Arm::Artillery => rng.range(1 + more / 2, 2 + more / 2),
            _ => default,
        };
        s.clamp(lo, hi)
    }

    /// A unit of the row with the seed's stands and, now and then, what its row may take:
    /// an ACW grade, horse teams, a regimental gun.
    fn unit(&self, t: &'static Troop, rng: &mut Rng) -> Unit {
        let mut u = Unit::plain(t, self.stands(t, rng));
        let (grades, horse, _) = army::row_options(self.list, t);
        if grades {
            let roll = rng.below(100);
            u.grade = if roll < 10 {
                Grade::Elite
            } else if roll < 25 {
                Grade::Poor
            } else {
                Grade::Regular
            };
        }
        if horse && rng.chance(30) {
            u.horse = true;
        }
        if army::regimental_gun_points(self.list, t).is_ok() && rng.chance(15) {
            u.guns = 1;
        }
        u
    }

    /// The compulsory part as the seed would have it: the commanding officer and each arm's
    /// minimum of the plan's rows.
    fn core(&self, points: u32, seed: u64, rng: &mut Rng) -> Draft {
        let list = self.list;
        let mut d = Draft::new(list, points, seed);
        if let Some(co) = self.hq(self.co_level, rng) {
            d.commands.push(Hq::Row(co));
        }
        let blocks = (points / BLOCK).max(1);
        for arm in [Arm::Infantry, Arm::Cavalry, Arm::Artillery, Arm::Engineers] {
            let Some(min) = pool_min(list, arm) else {
                continue;
            };
            let rows: Vec<&'static Troop> = if arm == Arm::Infantry && !self.core.is_empty() {
                self.core.clone()
            } else {
                for_sale(list)
                    .filter(|t| t.arm == arm && t.min.is_some())
                    .collect()
            };
            if rows.is_empty() {
                continue;
            }
            let mut have = 0;
            while have < min * blocks {
                let t = rows[rng.below(rows.len())];
                let u = if counts_units(arm) {
                    Unit::plain(t, self.stands(t, rng))
                } else {
                    Unit::plain(t, army::stand_range(arm).0)
                };
                have += if counts_units(arm) { 1 } else { u.stands };
                d.units.push(u);
            }
        }
        // Where many blocks make the minimum many units, smaller ones: the part may take
        // three quarters of the points, the body the rest.
        while d.cost() > points / 4 * 3 {
            let Some(u) = d
                .units
                .iter_mut()
                .filter(|u| u.stands > army::stand_range(u.troop.arm).0)
                .max_by_key(|u| u.stands)
            else {
                break;
            };
            u.stands -= 1;
        }
        d
    }
}

/// The cheapest compulsory part: the cheapest command unit and each arm's minimum of its
/// cheapest rows at the fewest stands (foot may be poor where the row allows); with
/// `all_cavalry`, the infantry minimum met with the cheapest horse instead. `None` where the
/// list has no such force.
fn cheapest_core(
    list: &'static ArmyList,
    points: u32,
    seed: u64,
    all_cavalry: bool,
) -> Option<Draft> {
    if all_cavalry && pool_min(list, Arm::Infantry).is_none() {
        return None;
    }
    let mut d = Draft::new(list, points, seed);
    let hq = list.command_chart().rows.iter().min_by_key(|c| c.points)?;
    d.commands.push(Hq::Row(hq));
    let blocks = (points / BLOCK).max(1);
    for arm in [Arm::Infantry, Arm::Cavalry, Arm::Artillery, Arm::Engineers] {
        let Some(min) = pool_min(list, arm) else {
            continue;
        };
        let need = min * blocks;
        let options: Vec<Unit> = if arm == Arm::Infantry && all_cavalry {
            for_sale(list)
                .filter(|t| t.arm == Arm::Cavalry)
                .map(|t| Unit::plain(t, army::stand_range(Arm::Cavalry).0))
                .collect()
        } else {
            let lo = army::stand_range(arm).0;
            let mut options: Vec<Unit> = for_sale(list)
                .filter(|t| t.arm == arm && t.min.is_some())
                .map(|t| Unit::plain(t, lo))
                .collect();
            if arm == Arm::Infantry {
                options.extend(
                    for_sale(list)
                        .filter(|t| t.arm == Arm::Infantry && army::row_options(list, t).0)
                        .map(|t| Unit {
                            grade: Grade::Poor,
                            ..Unit::plain(t, lo)
                        }),
                );
            }
            options
        };
        let cheapest = options.into_iter().min_by_key(|u| d.unit_cost(u))?;
        let n = if counts_units(arm) {
            need
        } else {
            need.div_ceil(cheapest.stands)
        };
        d.units.extend((0..n).map(|_| cheapest));
    }
    Some(d)
}

/// The body of the army: while a unit of some row still fits, a unit of the arm furthest
/// below its share (the seed's rows and stands, fewer stands if that is what fits), and an HQ
/// whenever the infantry outgrows its HQs. A row the check refuses at its fewest stands is
/// not tried again.
fn spend(d: &mut Draft, plan: &Plan, rng: &mut Rng) {
    let list = d.list;
    let rows: Vec<&'static Troop> = for_sale(list).filter(|t| t.arm != Arm::Transport).collect();
    let mut closed: Vec<bool> = vec![false; rows.len()];
    // The infantry count at which an HQ was last refused.
    let mut hq_refused: Option<usize> = None;
    loop {
        let infantry = d.count(Arm::Infantry);
        if hq_refused != Some(infantry) {
            if let Some(level) = wanted_hq(d, plan) {
                let added = plan
                    .hq(level, rng)
                    .is_some_and(|row| d.try_hq(Hq::Row(row)));
                if !added {
                    hq_refused = Some(infantry);
                }
                continue;
            }
        }
        let remaining = d.remaining();
        let open: Vec<usize> = (0..rows.len())
            .filter(|&i| {
                !closed[i]
                    && d.unit_cost(&Unit::plain(rows[i], army::stand_range(rows[i].arm).0))
                        <= remaining
            })
            .collect();
        if open.is_empty() {
            break;
        }
        // The arm furthest below its share, give or take a little.
        let spent = |arm: Arm| -> u32 {
            d.units
                .iter()
                .filter(|u| u.troop.arm == arm)
                .map(|u| d.unit_cost(u))
                .sum()
        };
        let mut arms: Vec<(Arm, u64)> = Vec::new();
        for &(arm, share) in &plan.shares {
            if open.iter().any(|&i| rows[i].arm == arm) {
                let jitter = 85 + rng.below(31) as u64;
                arms.push((arm, spent(arm) as u64 * 1000 / share as u64 * jitter));
            }
        }
        let arm = match arms.iter().min_by_key(|(_, k)| *k) {
            Some(&(arm, _)) => arm,
            // Only rows of arms without a share are left: they may have what remains.
            None => rows[open[0]].arm,
        };
        let weights: Vec<(usize, u32)> = open
            .iter()
            .filter(|&&i| rows[i].arm == arm)
            .map(|&i| (i, row_weight(plan, rows[i])))
            .collect();
        let Some(i) = rng.weighted(&weights) else {
            break;
        };
        let t = rows[i];
        let (lo, _, _) = army::stand_range(t.arm);
        let mut u = plan.unit(t, rng);
        while d.unit_cost(&u) > remaining && u.stands > lo {
            u.stands -= 1;
        }
        if d.unit_cost(&u) <= remaining && d.try_unit(u) {
            continue;
        }
        let plain = Unit::plain(t, lo);
        if plain != u && d.unit_cost(&plain) <= remaining && d.try_unit(plain) {
            continue;
        }
        closed[i] = true;
    }
}

/// How likely a row is picked within its arm: the plan's core foot by far the most; fortress,
/// siege and mortar batteries seldom.
fn row_weight(plan: &Plan, t: &Troop) -> u32 {
    if plan.core.iter().any(|c| std::ptr::eq(*c, t)) {
        return 8;
    }
    let heavy = ["Fortress", "Siege", "Mortar"];
    if t.arm == Arm::Artillery && heavy.iter().any(|w| t.name.contains(w)) {
        return 1;
    }
    if t.arm == Arm::Infantry && (t.min.is_some() || is_elite(plan.list, t)) {
        return 1;
    }
    3
}

/// The HQ the army wants next, if any: one of the level under the commanding officer for
/// every `per_hq` infantry units (the CO leads its share when it is of that level), and a
/// division for every three brigades under a corps or army.
fn wanted_hq(d: &Draft, plan: &Plan) -> Option<Level> {
    let at = |level: Level| {
        d.commands
            .iter()
            .filter(|c| matches!(c, Hq::Row(r) if r.level == level))
            .count()
    };
    let infantry = d.count(Arm::Infantry);
    let led = at(plan.sub_level);
    if led * plan.per_hq < infantry {
        return Some(plan.sub_level);
    }
    if level_rank(plan.co_level) >= 2
        && plan.sub_level == Level::Brigade
        && at(Level::Division) < led / 3
    {
        return Some(Level::Division);
    }
    None
}

/// One thing more an army could buy.
#[derive(Clone, Copy)]
enum Change {
    /// A stand more for the unit at this index.
    Stand(usize),
    /// A regimental gun more for the unit at this index.
    Gun(usize),
    Unit(Unit),
    /// The command unit at this index, of a better (dearer) row of its level.
    Better(usize, &'static Command),
    Hq(Hq),
}

impl Draft {
    fn change_cost(&self, c: Change) -> u32 {
        match c {
            Change::Stand(i) => {
                let u = self.units[i];
                self.unit_cost(&Unit {
                    stands: u.stands + 1,
                    ..u
                }) - self.unit_cost(&u)
            }
            Change::Gun(i) => {
                army::regimental_gun_points(self.list, self.units[i].troop).unwrap_or(u32::MAX / 2)
            }
            Change::Unit(u) => self.unit_cost(&u),
            Change::Better(i, row) => (row.points as u32).saturating_sub(self.commands[i].cost()),
            Change::Hq(h) => h.cost(),
        }
    }

    fn apply(&mut self, c: Change) {
        match c {
            Change::Stand(i) => self.units[i].stands += 1,
            Change::Gun(i) => self.units[i].guns += 1,
            Change::Unit(u) => self.units.push(u),
            Change::Better(i, row) => self.commands[i] = Hq::Row(row),
            Change::Hq(h) => self.commands.push(h),
        }
    }

    /// Everything the army could still buy, in the order it is tried: stands for the foot
    /// and horse, new units (dearest first), stands for the rest, regimental guns, better
    /// HQs, more HQs, a Field Artillery Officer, and last transport.
    fn changes(&self, rng: &mut Rng) -> Vec<Change> {
        let list = self.list;
        let growable = |pred: &dyn Fn(Arm) -> bool| {
            (0..self.units.len())
                .filter(|&i| {
                    let u = &self.units[i];
                    pred(u.troop.arm) && u.stands < army::stand_range(u.troop.arm).1
                })
                .map(Change::Stand)
                .collect::<Vec<Change>>()
        };
        let new_units = |transport: bool, rng: &mut Rng| {
            let mut v: Vec<Unit> = for_sale(list)
                .filter(|t| (t.arm == Arm::Transport) == transport)
                .flat_map(|t| variants(list, t))
                .collect();
            rng.shuffle(&mut v);
            v.sort_by_key(|u| std::cmp::Reverse(self.unit_cost(u)));
            v.into_iter().map(Change::Unit).collect::<Vec<_>>()
        };
        let mut out = Vec::new();
        let mut foot = growable(&|a| counts_units(a));
        rng.shuffle(&mut foot);
        out.extend(foot);
        out.extend(new_units(false, rng));
        let mut rest = growable(&|a| !counts_units(a) && a != Arm::Transport);
        rng.shuffle(&mut rest);
        out.extend(rest);
        let mut guns: Vec<Change> = (0..self.units.len())
            .filter(|&i| {
                let u = &self.units[i];
                u.guns < army::REGIMENTAL_GUNS_MAX
                    && army::regimental_gun_points(list, u.troop).is_ok()
            })
            .map(Change::Gun)
            .collect();
        rng.shuffle(&mut guns);
        out.extend(guns);
        let chart = list.command_chart();
        for (i, c) in self.commands.iter().enumerate() {
            if let Hq::Row(r) = c {
                let better = chart
                    .rows
                    .iter()
                    .filter(|x| x.level == r.level && x.points > r.points)
                    .min_by_key(|x| x.points);
                if let Some(b) = better {
                    out.push(Change::Better(i, b));
                }
            }
        }
        let mut rows: Vec<&'static Command> = chart.rows.iter().collect();
        rows.sort_by_key(|r| r.points);
        out.extend(rows.into_iter().map(|r| Change::Hq(Hq::Row(r))));
        out.push(Change::Hq(Hq::Fao));
        out.extend(new_units(true, rng));
        out.extend(growable(&|a| a == Arm::Transport));
        out
    }
}

/// A new unit of the row at its fewest stands, in each grade and with and without horse
/// teams where the row has them.
fn variants(list: &'static ArmyList, t: &'static Troop) -> Vec<Unit> {
    let (grades, horse, _) = army::row_options(list, t);
    let lo = army::stand_range(t.arm).0;
    let grades: &[Grade] = if grades {
        &[Grade::Regular, Grade::Elite, Grade::Poor]
    } else {
        &[Grade::Regular]
    };
    let horses: &[bool] = if horse { &[false, true] } else { &[false] };
    grades
        .iter()
        .flat_map(|&grade| {
            horses.iter().map(move |&horse| Unit {
                grade,
                horse,
                ..Unit::plain(t, lo)
            })
        })
        .collect()
}

/// What remains: the first change in [`Draft::changes`]'s order that fits and that the
/// check accepts, again and again until none does.
fn fill(d: &mut Draft, rng: &mut Rng) {
    loop {
        let remaining = d.remaining();
        let mut bought = false;
        for c in d.changes(rng) {
            let cost = d.change_cost(c);
            if cost == 0 || cost > remaining {
                continue;
            }
            let mut next = d.clone();
            next.apply(c);
            if next.check().is_ok() {
                *d = next;
                bought = true;
                break;
            }
        }
        if !bought {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alike_units_are_counted_together_forty_to_an_entry() {
        let list = lists::find("napoleonic-russian").unwrap();
        let line = list.troop("Line Infantry").unwrap();
        let mut d = Draft::new(list, 13_500, 1);
        d.commands.push(Hq::Row(&list.command_chart().rows[0]));
        d.units = vec![Unit::plain(line, 2); 45];
        d.units.push(Unit::plain(line, 3));
        let text = d.text();
        assert!(
            text.contains(
                "[[unit]]\ntroop = \"Line Infantry\"\nstands = 3\n\n\
                 [[unit]]\ntroop = \"Line Infantry\"\nstands = 2\ncount = 40\n\n\
                 [[unit]]\ntroop = \"Line Infantry\"\nstands = 2\ncount = 5\n"
            ),
            "{text}"
        );
        let a = d.check().expect("the check reads it");
        assert_eq!(a.units.len(), 46);
        assert_eq!(a.cost, d.cost());
    }
}
