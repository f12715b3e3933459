//! Reading a Stand and Die scenario: the common header, options, map and objectives through
//! `volley_core::scenario`, and the troops, checked against the marching and water rules so
//! that every mistake is reported at its file, line and column. The file is read into a typed
//! [`SetUp`] in short steps, and the position is built from it.

use crate::marching::stacking_problem;
use crate::orders::MAX_COORD;
use crate::state::{Objective, Setting, StandAndDieGame};
use crate::table::{CoverGround, FallBackWay, FireArc, TableRules};
use crate::troops::{Arm, Unit};
use crate::water;
use crate::OPTIONS;
use serde::Deserialize;
use toml::Spanned;
use volley_core::geometry::label;
use volley_core::map::{Hexside, Map};
use volley_core::options::{pick, whole};
use volley_core::scenario::{MapSpec, OwnKeys};
use volley_core::{Battle, Hex, Options, ScenarioError, ScenarioSource, Side};

/// What a Stand and Die scenario has besides the parts every ruleset shares (read by
/// [`Battle::read`]).
#[derive(Deserialize)]
struct ScenarioFile {
    units: Vec<UnitSpec>,
    /// All-water hexes where boats are moored.
    #[serde(default)]
    boats: Vec<Spanned<String>>,
    /// The map again, for the hexside features only this ruleset judges.
    map: MapSpec,
}

/// The keys this ruleset reads itself.
const OWN_KEYS: OwnKeys = OwnKeys {
    top: &["units", "boats"],
    side: &[],
    commander: &[],
};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UnitSpec {
    side: Spanned<String>,
    id: Spanned<String>,
    name: String,
    arm: Spanned<String>,
    /// Men, cavalrymen, or guns for artillery.
    figures: Spanned<u32>,
    hex: Spanned<String>,
    facing: Spanned<String>,
    /// Whether its hex starts marked Standing.
    #[serde(default)]
    standing: bool,
}

/// A scenario read and checked: what the position is built from.
pub struct SetUp {
    pub setting: Setting,
    /// Every unit, in scenario order (their keys).
    pub units: Vec<Unit>,
    /// The hexes marked Standing from the start.
    pub standing: Vec<Hex>,
}

/// Reads a scenario and builds the position from it.
pub fn load(src: &ScenarioSource, overrides: &Options) -> Result<StandAndDieGame, ScenarioError> {
    let SetUp {
        setting,
        units,
        standing,
    } = read(src, overrides)?;
    Ok(StandAndDieGame::new(setting, units, standing))
}

/// Reads a scenario into its set-up, step by step.
pub fn read(src: &ScenarioSource, overrides: &Options) -> Result<SetUp, ScenarioError> {
    let battle = Battle::read(src, crate::ID, OPTIONS, overrides, OWN_KEYS)?;
    let file: ScenarioFile = src.parse()?;
    refuse_commanders(src, &battle)?;
    let table = table_rules(&battle.options);
    check_map_size(src, &battle.map)?;
    check_hexsides(src, &file.map)?;
    let boats = read_boats(src, &file.boats, &battle.map, &table)?;
    let (units, standing) = read_units(src, &battle, &file.units, &table, &boats)?;
    Ok(SetUp {
        setting: setting(&battle, table, boats),
        units,
        standing,
    })
}

/// The rules give commanders nothing to do, so a scenario may not name any.
fn refuse_commanders(src: &ScenarioSource, battle: &Battle) -> Result<(), ScenarioError> {
    for side in Side::BOTH {
        if let Some(c) = battle.side(side).commanders.first() {
            return Err(src.error_at(
                c.id.span(),
                "Stand and Die! has no commanders: the rules give them nothing to do",
            ));
        }
    }
    Ok(())
}

/// The table's choices, from the options (already checked against [`OPTIONS`]).
fn table_rules(options: &Options) -> TableRules {
    TableRules {
        hex_capacity: whole(options, "hex_capacity") as u32,
        gun_room: whole(options, "gun_room") as u32,
        fords_open: pick(options, "fords", &[("open", true), ("closed", false)]),
        fall_back: pick(
            options,
            "fall_back",
            &[
                ("away", FallBackWay::AwayFromTheFire),
                ("behind", FallBackWay::Behind),
            ],
        ),
        fire_arc: pick(
            options,
            "fire_arc",
            &[("front", FireArc::Front), ("all-round", FireArc::AllRound)],
        ),
        cover: pick(
            options,
            "cover",
            &[
                ("sheltering", CoverGround::Sheltering),
                ("any-terrain", CoverGround::AnyTerrain),
            ],
        ),
    }
}

/// A packed order carries a hex's column and row in 12 bits each (`orders.rs`).
fn check_map_size(src: &ScenarioSource, map: &Map) -> Result<(), ScenarioError> {
    if map.width > MAX_COORD || map.height > MAX_COORD {
        return Err(src.error(format!(
            "the map is {} by {}: at most {MAX_COORD} columns and rows",
            map.width, map.height
        )));
    }
    Ok(())
}

/// Every unit, each checked where it is written (`read_unit`), with ids claimed once; the
/// hexes marked Standing from the start; and troops on both sides.
fn read_units(
    src: &ScenarioSource,
    battle: &Battle,
    specs: &[UnitSpec],
    table: &TableRules,
    boats: &[Hex],
) -> Result<(Vec<Unit>, Vec<Hex>), ScenarioError> {
    let mut ids = battle.ids();
    let mut units: Vec<Unit> = Vec::new();
    let mut standing = Vec::new();
    for spec in specs {
        ids.claim(src, &spec.id)?;
        let unit = read_unit(src, spec, &battle.map, table, boats, &units)?;
        if spec.standing && !standing.contains(&unit.hex) {
            standing.push(unit.hex);
        }
        units.push(unit);
    }
    for side in Side::BOTH {
        if !units.iter().any(|u| u.side == side) {
            return Err(src.error(format!("{side} has no units: each side needs troops")));
        }
    }
    Ok((units, standing))
}

/// What the scenario fixes for the whole game.
fn setting(battle: &Battle, table: TableRules, boats: Vec<Hex>) -> Setting {
    let objectives = battle
        .objectives
        .iter()
        .map(|o| Objective {
            hex: o.hex,
            name: o.name.clone(),
            points: o.points,
            goal_of: o.goal_of,
        })
        .collect();
    Setting {
        name: battle.name.clone(),
        title: battle.title.clone(),
        turn_limit: battle.turn_limit,
        map: battle.map.clone(),
        map_view: battle.map_view.clone(),
        side_names: [battle.sides[0].name.clone(), battle.sides[1].name.clone()],
        objectives,
        table,
        boats,
    }
}

/// Walls, hedges and fences give cover (musketry); the text has no streams along hexsides
/// (its rivers are all-water hexes) and no heights, so those are refused where written.
fn check_hexsides(src: &ScenarioSource, map: &MapSpec) -> Result<(), ScenarioError> {
    for side in &map.hexsides {
        let why = match Hexside::parse(side.kind.get_ref()) {
            Some(Hexside::Stream) => {
                "Stand and Die! has no streams along hexsides: its rivers are all-water hexes (~), crossed by bridges (=), fords (f) or boats"
            }
            Some(Hexside::Slope) => {
                "Stand and Die! has no slopes: heights play no part in its rules"
            }
            _ => continue,
        };
        return Err(src.error_at(side.kind.span(), why));
    }
    Ok(())
}

/// The hexes where boats are moored: each on the map, an all-water hex, and named once.
fn read_boats(
    src: &ScenarioSource,
    specs: &[Spanned<String>],
    map: &Map,
    table: &TableRules,
) -> Result<Vec<Hex>, ScenarioError> {
    let mut boats = Vec::new();
    for spec in specs {
        let hex = src.hex(spec, map)?;
        if !water::is_river(map, hex, table.fords_open) {
            return Err(src.error_at(
                spec.span(),
                format!(
                    "boats are moored on all-water hexes; {} is {}",
                    label(hex),
                    map.terrain(hex).name()
                ),
            ));
        }
        if boats.contains(&hex) {
            return Err(src.error_at(
                spec.span(),
                format!("boats at {} are listed twice", label(hex)),
            ));
        }
        boats.push(hex);
    }
    Ok(boats)
}

fn read_unit(
    src: &ScenarioSource,
    spec: &UnitSpec,
    map: &Map,
    table: &TableRules,
    boats: &[Hex],
    placed: &[Unit],
) -> Result<Unit, ScenarioError> {
    let side = src.side(&spec.side)?;
    let id = spec.id.get_ref();
    let arm = Arm::parse(spec.arm.get_ref()).ok_or_else(|| {
        src.error_at(
            spec.arm.span(),
            format!(
                "unknown arm \"{}\" (expected infantry, cavalry or artillery)",
                spec.arm.get_ref()
            ),
        )
    })?;
    let figures = *spec.figures.get_ref();
    if figures == 0 {
        return Err(src.error_at(
            spec.figures.span(),
            "figures must be at least 1 (for artillery: the number of guns)",
        ));
    }
    let hex = src.hex(&spec.hex, map)?;
    if !water::enterable(map, hex, table.fords_open, boats) {
        return Err(src.error_at(
            spec.hex.span(),
            format!(
                "unit {id} is on {} ({}): troops cannot stand in an all-water hex without boats",
                label(hex),
                map.terrain(hex).name()
            ),
        ));
    }
    let facing = src.facing(&spec.facing)?;
    let unit = Unit {
        id: id.into(),
        name: spec.name.as_str().into(),
        side,
        arm,
        figures,
        starting_figures: figures,
        gun_casualties: 0,
        hex,
        facing,
        marched: 0,
        turned: false,
    };
    let sharing: Vec<&Unit> = placed.iter().filter(|u| u.hex == hex).collect();
    if let Some(enemy) = sharing.iter().find(|u| u.side != side) {
        return Err(src.error_at(
            spec.hex.span(),
            format!(
                "unit {id} is in {}, which {} ({}) holds: never two sides in one hex",
                label(hex),
                enemy.id,
                enemy.side
            ),
        ));
    }
    if let Some(friend) = sharing.iter().find(|u| u.facing != facing) {
        return Err(src.error_at(
            spec.facing.span(),
            format!(
                "unit {id} faces {facing} but {} in the same hex faces {}: a hex faces one way",
                friend.id, friend.facing
            ),
        ));
    }
    if let Some(problem) = stacking_problem(sharing.into_iter().chain([&unit]), table) {
        return Err(src.error_at(
            spec.hex.span(),
            format!("unit {id} cannot join {}: {problem}", label(hex)),
        ));
    }
    Ok(unit)
}
