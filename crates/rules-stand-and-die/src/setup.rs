//! Reading a Stand and Die scenario: the common header, options, map and objectives through
//! `volley_core::scenario`, and the troops, checked against the marching and water rules so
//! that every mistake is reported at its file, line and column.

use crate::marching::stacking_problem;
use crate::orders::MAX_COORD;
use crate::state::{Objective, Setting, StandAndDieGame, TableRules};
use crate::troops::{Arm, Unit};
use crate::water;
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;
use volley_core::geometry::label;
use volley_core::scenario::{option, resolve_options, MapSpec, ObjectiveSpec};
use volley_core::{OptionSpec, Options, ScenarioError, ScenarioSource, Side};

pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        key: "hex_capacity",
        default: "12",
        choices: &[],
        help: "How many figures fit in one hex (the rules leave it to the size of the bases).",
    },
    OptionSpec {
        key: "gun_room",
        default: "2",
        choices: &[],
        help: "How many figures' room one gun takes in a hex.",
    },
    OptionSpec {
        key: "fords",
        default: "open",
        choices: &["open", "closed"],
        help: "open: fords are not all-water hexes and may be waded; closed: fords count as river.",
    },
];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioFile {
    ruleset: Spanned<String>,
    name: String,
    title: String,
    /// Shown by `volley scenarios`, which reads it through the common header.
    #[serde(default, rename = "description")]
    _description: String,
    turn_limit: Spanned<u32>,
    #[serde(default)]
    options: BTreeMap<String, Spanned<toml::Value>>,
    map: MapSpec,
    sides: SidesSpec,
    units: Vec<UnitSpec>,
    #[serde(default)]
    objectives: Vec<ObjectiveSpec>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SidesSpec {
    red: SideSpec,
    blue: SideSpec,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SideSpec {
    name: String,
}

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

pub fn load(src: &ScenarioSource, overrides: &Options) -> Result<StandAndDieGame, ScenarioError> {
    let file: ScenarioFile = src.parse()?;
    if file.ruleset.get_ref() != crate::ID {
        return Err(src.error_at(
            file.ruleset.span(),
            format!(
                "this scenario is for \"{}\", not \"{}\"",
                file.ruleset.get_ref(),
                crate::ID
            ),
        ));
    }
    if *file.turn_limit.get_ref() == 0 {
        return Err(src.error_at(file.turn_limit.span(), "turn_limit must be at least 1"));
    }
    let options = resolve_options(src, OPTIONS, &file.options, overrides)?;
    let table = TableRules {
        hex_capacity: whole_option(src, &file.options, overrides, &options, "hex_capacity")?,
        gun_room: whole_option(src, &file.options, overrides, &options, "gun_room")?,
        fords_open: option(&options, "fords") == "open",
    };
    let map = file.map.build(src)?;
    if map.width > MAX_COORD || map.height > MAX_COORD {
        return Err(src.error(format!(
            "the map is {} by {}: at most {MAX_COORD} columns and rows",
            map.width, map.height
        )));
    }

    let mut units: Vec<Unit> = Vec::new();
    let mut standing = Vec::new();
    for spec in &file.units {
        let unit = read_unit(src, spec, &map, &table, &units)?;
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
    let objectives = file
        .objectives
        .iter()
        .map(|o| {
            Ok(Objective {
                hex: src.hex(&o.hex, &map)?,
                name: o.name.clone(),
                points: o.points,
            })
        })
        .collect::<Result<Vec<_>, ScenarioError>>()?;
    let setting = Setting {
        name: file.name,
        title: file.title,
        turn_limit: *file.turn_limit.get_ref(),
        map,
        side_names: [file.sides.red.name, file.sides.blue.name],
        objectives,
        table,
    };
    Ok(StandAndDieGame::new(setting, units, standing))
}

/// A whole-number option (already known to be an integer) that must be at least 1; an error
/// points at the scenario's `[options]` entry unless the value came from the command line.
fn whole_option(
    src: &ScenarioSource,
    written: &BTreeMap<String, Spanned<toml::Value>>,
    overrides: &Options,
    options: &Options,
    key: &str,
) -> Result<u32, ScenarioError> {
    let text = option(options, key);
    text.parse::<u32>().ok().filter(|v| *v >= 1).ok_or_else(|| {
        let message = format!("option {key} must be a whole number of at least 1, found {text}");
        match written.get(key) {
            Some(v) if !overrides.contains_key(key) => src.error_at(v.span(), message),
            _ => src.error(message),
        }
    })
}

fn read_unit(
    src: &ScenarioSource,
    spec: &UnitSpec,
    map: &volley_core::map::Map,
    table: &TableRules,
    placed: &[Unit],
) -> Result<Unit, ScenarioError> {
    let side = Side::parse(spec.side.get_ref()).ok_or_else(|| {
        src.error_at(
            spec.side.span(),
            format!(
                "expected side \"red\" or \"blue\", found \"{}\"",
                spec.side.get_ref()
            ),
        )
    })?;
    let id = spec.id.get_ref();
    if id.is_empty() || id.chars().any(char::is_whitespace) {
        return Err(src.error_at(
            spec.id.span(),
            format!("unit id \"{id}\" must be one word (orders name units by it)"),
        ));
    }
    if placed.iter().any(|u| &u.id == id) {
        return Err(src.error_at(spec.id.span(), format!("duplicate unit id \"{id}\"")));
    }
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
    if !water::enterable(map, hex, table.fords_open) {
        return Err(src.error_at(
            spec.hex.span(),
            format!(
                "unit {id} is on {} ({}): troops cannot stand in an all-water hex",
                label(hex),
                map.terrain(hex).name()
            ),
        ));
    }
    let facing = src.facing(&spec.facing)?;
    let unit = Unit {
        id: id.clone(),
        name: spec.name.clone(),
        side,
        arm,
        figures,
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
