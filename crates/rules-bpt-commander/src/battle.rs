//! Deploying two checked armies on a field into a scenario (`volley battle`): red along the
//! west edge, blue along the east; guns and foot in the front line from the centre out,
//! cavalry on the wings behind them, command units behind the centre, every unit facing the
//! enemy. The field (map, objectives, turn limit) comes from a map file of `data/maps/` or
//! from any Black Powder scenario.

use crate::army::{Army, BoughtUnit, Grade};
use crate::lists::{Arm, ArmyList, Period, Troop};
use std::collections::HashSet;
use toml::{Table, Value};
use volley_core::{Options, ScenarioError, ScenarioSource, Side};

macro_rules! maps {
    ($($name:literal),* $(,)?) => {
        &[$(($name, include_str!(concat!("../data/maps/", $name, ".toml")))),*]
    };
}

/// The fields `volley battle --map` knows by name besides the bundled scenarios.
pub const MAPS: &[(&str, &str)] = maps!["rolling-farmland", "creek-crossing", "ridge-and-village"];

/// The armies that come with Volley (`scenarios/armies/`), by file name: examples to fight
/// against and to start from.
pub const ARMIES: &[(&str, &str)] = &[
    (
        "acw-union",
        include_str!("../../../scenarios/armies/acw-union.toml"),
    ),
    (
        "acw-confederate",
        include_str!("../../../scenarios/armies/acw-confederate.toml"),
    ),
    (
        "prussia-1757",
        include_str!("../../../scenarios/armies/prussia-1757.toml"),
    ),
    (
        "austria-1757",
        include_str!("../../../scenarios/armies/austria-1757.toml"),
    ),
];

/// The ground of a battle: everything of a scenario but its troops.
#[derive(Clone, Debug)]
pub struct Field {
    pub name: String,
    pub title: String,
    pub map: Table,
    pub objectives: Vec<Value>,
    pub majors: Option<Value>,
    /// Objectives only one side is out to reach (`goals = { red = [...] }`).
    pub goals: Option<Value>,
    pub turn_limit: i64,
    /// The column (from 0) each side's deployment zone starts from, red's then blue's:
    /// the field's `fronts = { red = 11, blue = 28 }` (map columns, from 1), else a quarter of
    /// the map from each edge. The zone reaches back a quarter of the map towards its edge.
    fronts: [usize; 2],
    /// Terrain code and elevation of each hex, by row then column.
    grid: Vec<Vec<char>>,
}

/// Reads a field from a map file or a scenario (its troops are ignored).
pub fn field(src: &ScenarioSource) -> Result<Field, ScenarioError> {
    let table: Table = src.parse()?;
    let map = match table.get("map") {
        Some(Value::Table(t)) => t.clone(),
        _ => return Err(src.error("no [map] table: a field needs its map")),
    };
    let rows = match map.get("rows") {
        Some(Value::Array(rows)) => rows,
        _ => return Err(src.error("[map] has no rows")),
    };
    let grid: Vec<Vec<char>> = rows
        .iter()
        .map(|r| {
            r.as_str()
                .unwrap_or("")
                .split_whitespace()
                .map(|t| t.chars().next().unwrap_or('.'))
                .collect()
        })
        .collect();
    if grid.is_empty() || grid.iter().any(|r| r.len() != grid[0].len()) {
        return Err(src.error("[map] rows must all have the same number of hexes"));
    }
    let text = |k: &str| {
        table
            .get(k)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    let cols = grid[0].len();
    let mut fronts = [zone_depth(cols) - 1, cols - zone_depth(cols)];
    if let Some(given) = table.get("fronts") {
        let bad = || {
            src.error(format!(
                "fronts must give each side's front column, from 1 to {cols}, red's west of blue's: fronts = {{ red = 8, blue = 23 }}"
            ))
        };
        let t = given.as_table().ok_or_else(bad)?;
        if t.keys().any(|k| k != "red" && k != "blue") {
            return Err(bad());
        }
        for (i, side) in ["red", "blue"].into_iter().enumerate() {
            if let Some(v) = t.get(side) {
                let c = v
                    .as_integer()
                    .filter(|&c| c >= 1 && c <= cols as i64)
                    .ok_or_else(bad)?;
                fronts[i] = c as usize - 1;
            }
        }
        if fronts[0] >= fronts[1] {
            return Err(bad());
        }
    }
    Ok(Field {
        name: text("name"),
        title: text("title"),
        map,
        objectives: table
            .get("objectives")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default(),
        majors: table.get("majors").cloned(),
        goals: table.get("goals").cloned(),
        turn_limit: table
            .get("turn_limit")
            .and_then(Value::as_integer)
            .unwrap_or(10),
        fronts,
        grid,
    })
}

/// The names of the maps of `data/maps/`, for messages.
pub fn map_names() -> String {
    MAPS.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
}

/// A map of `data/maps/` by name.
pub fn named_map(name: &str) -> Option<ScenarioSource> {
    MAPS.iter()
        .find(|(n, _)| *n == name)
        .map(|(n, text)| ScenarioSource::new(format!("maps/{n}.toml"), *text))
}

fn label(col: usize, row: usize) -> String {
    format!("{:02}{:02}", col + 1, row + 1)
}

/// The canister of a gun row: attacks and range in cm (the lists' special rules).
fn canister(list: &ArmyList, troop: &Troop) -> Option<(u32, u32)> {
    let m = crate::army::mechanics(list, troop);
    let fortress = m.contains(&"fortress-artillery");
    let rifled = m.contains(&"rifled-artillery");
    let smoothbore = m.contains(&"smoothbore-artillery");
    if !(fortress || rifled || smoothbore) {
        return None;
    }
    Some(match list.period {
        Period::Acw if rifled => (2, 10),
        Period::Acw => (3, 10),
        Period::Fpw => (4, 20),
        _ if fortress => (3, 15),
        Period::Colonial => (3, 10),
        _ => (4, 15),
    })
}

/// The scenario row of one bought unit (hex and facing added by the caller).
fn unit_row(list: &'static ArmyList, u: &BoughtUnit) -> Option<Table> {
    let troop = u.dismounted.unwrap_or(u.troop);
    let m = crate::army::mechanics(list, troop);
    let has = |k: &str| m.contains(&k);
    // A machine gun that needs transport to go any distance is a towed machine gun on its
    // free limber (the colonial notes 12 and 22): artillery that moves limbered.
    let towed_mg = has("transport-required");
    let arm = match troop.arm {
        _ if towed_mg => "artillery",
        Arm::Infantry | Arm::Engineers => "infantry",
        Arm::Cavalry | Arm::Armour => "cavalry",
        Arm::Artillery => "artillery",
        Arm::Transport => return None,
    };
    let elite = u.grade == Grade::Elite || has("elite");
    let mut t = Table::new();
    t.insert("name".into(), Value::String(u.name.clone()));
    t.insert("arm".into(), Value::String(arm.into()));
    t.insert("stands".into(), Value::Integer(u.stands as i64));
    let limber = list.troop("Limbered Artillery");
    // A gun printed with no move of its own goes only with its limber (colonial guns).
    let immobile = has("fortress-artillery")
        || has("immobile")
        || (troop.move_cm == 0 && (limber.is_none() || troop.arm != Arm::Artillery));
    let mut traits = Vec::new();
    if troop.arm == Arm::Artillery || towed_mg {
        let horse = u.horse || has("horse-artillery");
        let towed = limber.map_or(10, |l| {
            if horse {
                l.move2.unwrap_or(l.move_cm) as i64
            } else {
                l.move_cm as i64
            }
        });
        t.insert(
            "move".into(),
            Value::Integer(if immobile { 0 } else { towed }),
        );
        t.insert(
            "manhandle".into(),
            Value::Integer(if immobile { 0 } else { troop.move_cm as i64 }),
        );
        t.insert(
            "prolonge".into(),
            Value::Integer(if immobile {
                0
            } else {
                troop.move2.unwrap_or(0) as i64
            }),
        );
        // Howitzers and mortars fire shell only, at high angle: no canister; their traits
        // make them smoothbore.
        let mortar = troop.name.contains("Mortar") || has("mortar-save");
        // The colonial modern gun fires direct, and shell over what it cannot see (trait
        // `indirect`); it is no howitzer.
        let howitzer = !mortar && troop.name.contains("Howitzer");
        if has("indirect-fire") {
            traits.push("indirect");
        }
        if let Some((d, r)) = canister(list, troop).filter(|_| !mortar && !howitzer) {
            t.insert(
                "canister".into(),
                Value::Array(vec![Value::Integer(d as i64), Value::Integer(r as i64)]),
            );
        }
        if canister(list, troop).is_some() {
            traits.push("cover_shift");
        }
        if mortar {
            traits.push("mortar");
        } else if howitzer {
            traits.push("howitzer");
        }
        if immobile || troop.name.contains("Mortar") || troop.name.contains("Siege") {
            traits.push("no_manhandle");
        }
    } else {
        t.insert("move".into(), Value::Integer(troop.move_cm as i64));
        t.insert("formation".into(), Value::String("line".into()));
    }
    t.insert("dice".into(), Value::Integer(troop.dice as i64));
    t.insert("range".into(), Value::Integer(troop.range as i64));
    t.insert(
        "hits".into(),
        Value::Integer(troop.hits as i64 + i64::from(elite)),
    );
    t.insert("save".into(), Value::Integer(troop.save as i64));
    t.insert("points".into(), Value::Integer(u.stand_points as i64));
    // The other mode of cavalry that may dismount (or of dismounted cavalry).
    let other = match u.dismounted {
        Some(_) => Some(u.troop),
        None => crate::army::dismounted_row(list, u.troop),
    };
    if let Some(o) = other.filter(|o| (o.arm == Arm::Cavalry) != (troop.arm == Arm::Cavalry)) {
        let mut m = Table::new();
        m.insert(
            "arm".into(),
            Value::String(
                if o.arm == Arm::Cavalry {
                    "cavalry"
                } else {
                    "infantry"
                }
                .into(),
            ),
        );
        m.insert("move".into(), Value::Integer(o.move_cm as i64));
        m.insert("dice".into(), Value::Integer(o.dice as i64));
        m.insert("range".into(), Value::Integer(o.range as i64));
        m.insert("save".into(), Value::Integer(o.save as i64));
        m.insert(
            "hits".into(),
            Value::Integer(o.hits as i64 + i64::from(elite)),
        );
        t.insert("other_mode".into(), Value::Table(m));
    }
    if u.morale != crate::troops::Morale::Regular {
        t.insert("morale".into(), Value::String(u.morale.name().into()));
    }
    if u.regimental_guns > 0 {
        t.insert(
            "regimental_guns".into(),
            Value::Integer(u.regimental_guns as i64),
        );
    }
    if elite {
        traits.push("elite");
    }
    if u.grade == Grade::Poor || has("poor") {
        traits.push("poor");
    }
    if has("skirmish") && troop.arm == Arm::Infantry {
        traits.push("light");
    }
    if has("heavy") {
        traits.push("heavy");
    }
    if has("lancers") {
        traits.push("lancers");
    }
    if has("irregular") {
        traits.push("irregular");
    }
    if has("no-square") {
        traits.push("no_square");
    }
    if has("extra-die") {
        traits.push("extra_die");
    }
    if has("attack-column-charge") {
        traits.push("attack_column_charge");
    }
    if has("gatling") {
        traits.push("gatling");
    }
    if troop.arm == Arm::Engineers || has("engineer") {
        traits.push("engineer");
    }
    if troop.arm == Arm::Infantry && list.period == Period::Acw && troop.name.contains("Rifled") {
        traits.push("rifled_musket");
    }
    traits.dedup();
    if !traits.is_empty() {
        t.insert(
            "traits".into(),
            Value::Array(traits.iter().map(|s| Value::String((*s).into())).collect()),
        );
    }
    Some(t)
}

/// Hexes of one side's deployment zone, front column first, each column from the centre out.
fn zone(field: &Field, side: Side) -> Vec<Vec<(usize, usize)>> {
    let rows = field.grid.len();
    let cols = field.grid[0].len();
    let depth = zone_depth(cols);
    let centre = rows / 2;
    let mut order: Vec<usize> = vec![centre];
    for d in 1..rows {
        if centre + d < rows {
            order.push(centre + d);
        }
        if d <= centre {
            order.push(centre - d);
        }
    }
    let front = field.fronts[side.index()];
    (0..depth)
        .filter_map(|k| match side {
            Side::Red => front.checked_sub(k),
            Side::Blue => Some(front + k).filter(|&c| c < cols),
        })
        .map(|col| order.iter().map(|&r| (col, r)).collect())
        .collect()
}

/// How many columns deep a deployment zone is on a map `cols` wide.
fn zone_depth(cols: usize) -> usize {
    (cols / 4).max(3).min(cols / 2)
}

/// What a deployed scenario is called, and the command that made it (kept in its header).
#[derive(Clone, Debug, Default)]
pub struct Words {
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub command: String,
}

/// Deploys the armies on the field and returns the scenario's text, checked by loading it.
pub fn muster(
    red: &Army,
    blue: &Army,
    field: &Field,
    words: &Words,
    path: &str,
) -> Result<String, ScenarioError> {
    let bad = |message: String| ScenarioError {
        file: path.to_string(),
        line: 0,
        column: 0,
        message,
    };
    let mut top = heading(red, blue, field, words);
    let mut camp = Camp {
        field,
        taken: HashSet::new(),
        units: Vec::new(),
        works: Vec::new(),
    };
    let mut sides = Table::new();
    for (side, army) in [(Side::Red, red), (Side::Blue, blue)] {
        let zone = Zone::of(field, side);
        let placed = camp.troops(&zone, army).map_err(bad)?;
        camp.field_defences(&zone, army, &placed).map_err(bad)?;
        let commanders = camp.commanders(&zone, army).map_err(bad)?;
        let mut s = Table::new();
        s.insert("name".into(), Value::String(army.name.clone()));
        s.insert("commanders".into(), Value::Array(commanders));
        sides.insert(side.to_string(), Value::Table(s));
    }
    top.insert("sides".into(), Value::Table(sides));
    if !field.objectives.is_empty() {
        top.insert("objectives".into(), Value::Array(field.objectives.clone()));
    }
    top.insert("units".into(), Value::Array(camp.units));
    if !camp.works.is_empty() {
        top.insert("works".into(), Value::Array(camp.works));
    }
    let text = scenario_text(red, blue, words, &top);
    crate::scenario::load(
        &ScenarioSource::new(path, text.clone()),
        &Options::default(),
    )?;
    Ok(text)
}

/// The scenario's header, options and map: what the armies do not decide. Shell is
/// shrapnel when both armies come from the lists after 1845; scouting cavalry bring a hidden
/// set-up.
fn heading(red: &Army, blue: &Army, field: &Field, words: &Words) -> Table {
    let mut top = Table::new();
    top.insert("ruleset".into(), Value::String(crate::ID.into()));
    top.insert("name".into(), Value::String(words.name.clone()));
    top.insert(
        "title".into(),
        Value::String(
            words
                .title
                .clone()
                .unwrap_or_else(|| format!("{} against {}", red.name, blue.name)),
        ),
    );
    top.insert(
        "description".into(),
        Value::String(words.description.clone().unwrap_or_else(|| format!(
            "{} ({}, {} of {} points) against {} ({}, {} of {} points) on {}. Deployed by volley battle.",
            red.name, red.list.name, red.cost, red.points, blue.name, blue.list.name, blue.cost, blue.points,
            if field.title.is_empty() { &field.name } else { &field.title }
        ))),
    );
    top.insert("turn_limit".into(), Value::Integer(field.turn_limit));
    top.insert("first".into(), Value::String("red".into()));
    let late = |a: &Army| matches!(a.list.period, Period::Acw | Period::Fpw | Period::Colonial);
    let mut options = Table::new();
    if late(red) && late(blue) {
        options.insert("shrapnel".into(), Value::String("on".into()));
    }
    if [red, blue]
        .iter()
        .any(|a| a.units.iter().any(|u| u.scouting))
    {
        options.insert("hidden_setup".into(), Value::String("on".into()));
    }
    if !options.is_empty() {
        top.insert("options".into(), Value::Table(options));
    }
    if let Some(majors) = &field.majors {
        top.insert("majors".into(), majors.clone());
    }
    if let Some(goals) = &field.goals {
        top.insert("goals".into(), goals.clone());
    }
    top.insert("map".into(), Value::Table(field.map.clone()));
    top
}

/// The text of the scenario: a comment saying what it is and what made it, then the TOML.
fn scenario_text(red: &Army, blue: &Army, words: &Words, top: &Table) -> String {
    let body = emit(top);
    let made_by = if words.command.is_empty() {
        String::new()
    } else {
        format!("# Made by: volley {}\n", words.command)
    };
    format!(
        "# Black Powder Tactical Commander: {} against {}, deployed by `volley battle`.\n{made_by}# Rules: docs/rules/bpt-commander.md.\n{body}",
        red.name, blue.name
    )
}

/// One side's deployment zone and the way its troops face.
struct Zone {
    side: Side,
    /// Its hexes (column, row), front column first, each column from the centre out.
    columns: Vec<Vec<(usize, usize)>>,
    centre_row: usize,
}

impl Zone {
    fn of(field: &Field, side: Side) -> Zone {
        Zone {
            side,
            columns: zone(field, side),
            centre_row: field.grid.len() / 2,
        }
    }

    /// The ids' prefix: `r1`, `bhq2`.
    fn prefix(&self) -> &'static str {
        match self.side {
            Side::Red => "r",
            Side::Blue => "b",
        }
    }

    /// Towards the enemy, and towards the centre of the field.
    fn facing(&self, row: usize) -> &'static str {
        match (self.side, row < self.centre_row) {
            (Side::Red, true) => "SE",
            (Side::Red, false) => "NE",
            (Side::Blue, true) => "SW",
            (Side::Blue, false) => "NW",
        }
    }

    /// The column in front of `c`, towards the enemy.
    fn ahead(&self, c: usize) -> usize {
        match self.side {
            Side::Red => c + 1,
            Side::Blue => c.wrapping_sub(1),
        }
    }
}

/// The field being deployed on: the hexes taken so far and what has been set out.
struct Camp<'a> {
    field: &'a Field,
    taken: HashSet<(usize, usize)>,
    units: Vec<Value>,
    works: Vec<Value>,
}

impl Camp<'_> {
    /// Whether a unit of `arm` may stand in a hex: open ground not taken (foot in woods and
    /// towns too).
    fn free(&self, (c, r): (usize, usize), arm: &str) -> bool {
        let code = self.field.grid[r][c];
        !self.taken.contains(&(c, r))
            && (code == '.' || (arm == "infantry" && (code == 'w' || code == 'T')))
    }

    /// The first free hex of the zone from its `from`th column on, taken: from the centre
    /// out, or from the wings in (`wings`).
    fn place(
        &mut self,
        zone: &Zone,
        from: usize,
        arm: &str,
        wings: bool,
    ) -> Option<(usize, usize)> {
        for col in zone.columns.iter().skip(from) {
            let it: Box<dyn Iterator<Item = &(usize, usize)>> = if wings {
                Box::new(col.iter().rev())
            } else {
                Box::new(col.iter())
            };
            for &h in it {
                if self.free(h, arm) {
                    self.taken.insert(h);
                    return Some(h);
                }
            }
        }
        None
    }

    /// The army's units: guns first, then foot, in the front line; horse on the wings a line
    /// behind; scouting cavalry as single stands in the front line on the wings. Returns
    /// where each went (column, row, guns).
    fn troops(&mut self, zone: &Zone, army: &Army) -> Result<Vec<(usize, usize, bool)>, String> {
        let prefix = zone.prefix();
        let mut order: Vec<&BoughtUnit> = army.units.iter().collect();
        order.sort_by_key(|u| match u.dismounted.unwrap_or(u.troop).arm {
            Arm::Artillery => 0,
            Arm::Infantry | Arm::Engineers => 1,
            _ => 2,
        });
        let mut placed = Vec::new();
        for (n, u) in order.into_iter().enumerate() {
            let Some(row) = unit_row(army.list, u) else {
                continue;
            };
            let rows: Vec<(String, Table)> = if u.scouting {
                scouts(&row, u, &format!("{prefix}{}", n + 1))
            } else {
                vec![(format!("{prefix}{}", n + 1), row)]
            };
            for (id, mut row) in rows {
                let arm = row["arm"].as_str().unwrap_or("infantry").to_string();
                let spot = if u.scouting {
                    self.place(zone, 0, &arm, true)
                } else if arm == "cavalry" {
                    self.place(zone, 1, &arm, true)
                        .or_else(|| self.place(zone, 0, &arm, true))
                } else {
                    self.place(zone, 0, &arm, false)
                };
                let Some((c, r)) = spot else {
                    return Err(format!(
                        "{} has no room left in its deployment zone for {}: take a larger map or fewer units",
                        army.name, u.name
                    ));
                };
                row.insert("side".into(), Value::String(zone.side.to_string()));
                row.insert("id".into(), Value::String(id));
                row.insert("hex".into(), Value::String(label(c, r)));
                row.insert("facing".into(), Value::String(zone.facing(r).into()));
                placed.push((c, r, arm == "artillery"));
                self.units.push(Value::Table(row));
            }
        }
        Ok(placed)
    }

    /// Field defences: cover and trenches on the front line's hexes (dug-outs with the guns),
    /// obstacles a hex in front of it.
    fn field_defences(
        &mut self,
        zone: &Zone,
        army: &Army,
        placed: &[(usize, usize, bool)],
    ) -> Result<(), String> {
        let grid = &self.field.grid;
        let mut covered: HashSet<(usize, usize)> = HashSet::new();
        for w in &army.works {
            for _ in 0..w.count {
                let spot = if w.kind.obstacle() {
                    placed
                        .iter()
                        .map(|&(c, r, _)| (zone.ahead(c), r))
                        .find(|&(c, r)| {
                            c < grid[0].len()
                                && grid[r][c] == '.'
                                && !self.taken.contains(&(c, r))
                                && !covered.contains(&(c, r))
                        })
                } else {
                    let guns = w.kind == crate::terrain::WorkKind::DugOut;
                    placed
                        .iter()
                        .filter(|&&(_, _, g)| g == guns)
                        .map(|&(c, r, _)| (c, r))
                        .find(|h| !covered.contains(h))
                };
                let Some(h) = spot else {
                    return Err(format!(
                        "{} has no place left for its {}: fewer field defences or more troops",
                        army.name,
                        w.kind.word()
                    ));
                };
                covered.insert(h);
                let mut t = Table::new();
                t.insert("hex".into(), Value::String(label(h.0, h.1)));
                t.insert("kind".into(), Value::String(w.kind.word().into()));
                self.works.push(Value::Table(t));
            }
        }
        Ok(())
    }

    /// The command units, behind the centre, with their stat lines as traits; the army's CO
    /// is the supreme one.
    fn commanders(&mut self, zone: &Zone, army: &Army) -> Result<Vec<Value>, String> {
        let co = army.co();
        let mut commanders = Vec::new();
        for (k, c) in army.commands.iter().enumerate() {
            let Some((col, r)) = self
                .place(zone, 2, "infantry", false)
                .or_else(|| self.place(zone, 1, "infantry", false))
            else {
                return Err(format!(
                    "{} has no room left in its deployment zone for {}",
                    army.name, c.name
                ));
            };
            let mut t = Table::new();
            t.insert(
                "id".into(),
                Value::String(format!("{}hq{}", zone.prefix(), k + 1)),
            );
            t.insert("name".into(), Value::String(c.name.clone()));
            t.insert("value".into(), Value::Integer(c.row.command as i64));
            if k == co {
                t.insert("supreme".into(), Value::Boolean(true));
            }
            t.insert("hex".into(), Value::String(label(col, r)));
            let mut traits = Table::new();
            traits.insert("presence".into(), Value::Integer(c.row.presence as i64));
            traits.insert("move".into(), Value::Integer(c.row.move_mounted as i64));
            traits.insert("save".into(), Value::Integer(c.row.save as i64));
            traits.insert("points".into(), Value::Integer(c.row.points as i64));
            if c.fao {
                traits.insert("fao".into(), Value::Integer(1));
            }
            t.insert("traits".into(), Value::Table(traits));
            commanders.push(Value::Table(t));
        }
        Ok(commanders)
    }
}

/// A unit of scouting cavalry as its single stands, each a scout of its own (`ID` + `s1`, …).
fn scouts(row: &Table, u: &BoughtUnit, id: &str) -> Vec<(String, Table)> {
    (1..=u.stands)
        .map(|k| {
            let mut r = row.clone();
            r.insert("stands".into(), Value::Integer(1));
            r.insert(
                "name".into(),
                Value::String(format!("{} scout {k}", u.name)),
            );
            let mut traits = r
                .get("traits")
                .and_then(|t| t.as_array())
                .cloned()
                .unwrap_or_default();
            traits.push(Value::String("scout".into()));
            r.insert("traits".into(), Value::Array(traits));
            (format!("{id}s{k}"), r)
        })
        .collect()
}

/// A value as inline TOML.
fn inline(v: &Value) -> String {
    match v {
        Value::Table(t) => {
            let parts: Vec<String> = t
                .iter()
                .map(|(k, v)| format!("{k} = {}", inline(v)))
                .collect();
            format!("{{ {} }}", parts.join(", "))
        }
        Value::Array(a) => {
            let parts: Vec<String> = a.iter().map(inline).collect();
            format!("[{}]", parts.join(", "))
        }
        other => other.to_string(),
    }
}

/// The scenario as a person would write it: the header first, the map's rows one a line, a
/// block for each objective and unit, keys in the order the scenario format documents.
fn emit(top: &Table) -> String {
    let mut out = String::new();
    let key = |out: &mut String, t: &Table, k: &str| {
        if let Some(v) = t.get(k) {
            out.push_str(&format!("{k} = {}\n", inline(v)));
        }
    };
    for k in [
        "ruleset",
        "name",
        "title",
        "description",
        "turn_limit",
        "first",
        "majors",
        "goals",
    ] {
        key(&mut out, top, k);
    }
    if let Some(Value::Table(options)) = top.get("options") {
        out.push_str("\n[options]\n");
        for (k, v) in options {
            out.push_str(&format!("{k} = {}\n", inline(v)));
        }
    }
    if let Some(Value::Table(map)) = top.get("map") {
        out.push_str("\n[map]\n");
        for (k, v) in map {
            match (k.as_str(), v) {
                ("rows", Value::Array(rows)) => {
                    out.push_str("rows = [\n");
                    for r in rows {
                        out.push_str(&format!("  {},\n", inline(r)));
                    }
                    out.push_str("]\n");
                }
                _ => out.push_str(&format!("{k} = {}\n", inline(v))),
            }
        }
    }
    if let Some(Value::Table(sides)) = top.get("sides") {
        for (side, v) in sides {
            let Value::Table(s) = v else { continue };
            out.push_str(&format!("\n[sides.{side}]\n"));
            key(&mut out, s, "name");
            if let Some(Value::Array(cs)) = s.get("commanders") {
                out.push_str("commanders = [\n");
                for c in cs {
                    out.push_str(&format!("  {},\n", inline(c)));
                }
                out.push_str("]\n");
            }
        }
    }
    for (block, order) in [
        ("objectives", &["hex", "name", "points"][..]),
        ("works", &["hex", "kind"][..]),
        (
            "units",
            &[
                "side",
                "id",
                "name",
                "arm",
                "hex",
                "facing",
                "stands",
                "move",
                "dice",
                "range",
                "hits",
                "save",
                "points",
                "formation",
                "canister",
                "manhandle",
                "prolonge",
                "morale",
                "regimental_guns",
                "other_mode",
                "traits",
            ][..],
        ),
    ] {
        if let Some(Value::Array(items)) = top.get(block) {
            for item in items {
                let Value::Table(t) = item else { continue };
                out.push_str(&format!("\n[[{block}]]\n"));
                for k in order {
                    key(&mut out, t, k);
                }
                for (k, v) in t {
                    if !order.contains(&k.as_str()) {
                        out.push_str(&format!("{k} = {}\n", inline(v)));
                    }
                }
            }
        }
    }
    out
}
