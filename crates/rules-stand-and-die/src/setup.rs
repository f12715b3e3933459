//! Reading a Stand and Die scenario: the common header, options, map and objectives through
//! `volley_core::scenario`, and the troops, checked against the marching and water rules so
//! that every mistake is reported at its file, line and column.

use crate::falling_back::FallBackWay;
use crate::marching::stacking_problem;
use crate::musketry::{CoverGround, FireArc};
use crate::orders::MAX_COORD;
use crate::state::{Objective, Setting, StandAndDieGame, TableRules};
use crate::troops::{Arm, Unit};
use crate::water;
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;
use volley_core::geometry::label;
use volley_core::map::{Hexside, Map};
use volley_core::scenario::{option, MapSpec, OwnKeys};
use volley_core::{Battle, Hex, OptionSpec, Options, ScenarioError, ScenarioSource, Side};

pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        key: "hex_capacity",
        label: "Figures a hex holds",
        default: "12",
        choices: &[], range: Some((1, 100)),
        help: "How many figures fit in one hex (the rules leave it to the size of the bases).",
    },
    OptionSpec {
        key: "gun_room",
        label: "Room a gun takes",
        default: "2",
        choices: &[], range: Some((1, 12)),
        help: "How many figures' room one gun takes in a hex.",
    },
    OptionSpec {
        key: "fords",
        label: "Fords",
        default: "open",
        choices: &["open", "closed"], range: None,
        help: "open: fords are not all-water hexes and may be waded; closed: fords count as river.",
    },
    OptionSpec {
        key: "fall_back",
        label: "Falling back",
        default: "away",
        choices: &["away", "behind"], range: None,
        help: "away: a hex fired on falls back away from the hexes that fired on it; behind: straight behind its facing, wherever the fire came from.",
    },
    OptionSpec {
        key: "fire_arc",
        label: "Who fires",
        default: "front",
        choices: &["front", "all-round"], range: None,
        help: "front: only troops facing the target fire; all-round: all troops next to the enemy fire, whatever way they face.",
    },
    OptionSpec {
        key: "cover",
        label: "Cover",
        default: "sheltering",
        choices: &["sheltering", "any-terrain"], range: None,
        help: "sheltering: woods, light woods, towns, forts and rough give cover; any-terrain: every hex but level clear ground, bridges and fords does, hills, marsh and mountain too.",
    },
];

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

pub fn load(src: &ScenarioSource, overrides: &Options) -> Result<StandAndDieGame, ScenarioError> {
    let battle = Battle::read(src, crate::ID, OPTIONS, overrides, OWN_KEYS)?;
    let file: ScenarioFile = src.parse()?;
    for side in Side::BOTH {
        if let Some(c) = battle.side(side).commanders.first() {
            return Err(src.error_at(
                c.id.span(),
                "Stand and Die! has no commanders: the rules give them nothing to do",
            ));
        }
    }
    let options = &battle.options;
    let written = &battle.written_options;
    let table = TableRules {
        hex_capacity: whole_option(src, written, overrides, options, "hex_capacity")?,
        gun_room: whole_option(src, written, overrides, options, "gun_room")?,
        fords_open: option(options, "fords") == "open",
        fall_back: match option(options, "fall_back") {
            "behind" => FallBackWay::Behind,
            _ => FallBackWay::AwayFromTheFire,
        },
        fire_arc: match option(options, "fire_arc") {
            "all-round" => FireArc::AllRound,
            _ => FireArc::Front,
        },
        cover: match option(options, "cover") {
            "any-terrain" => CoverGround::AnyTerrain,
            _ => CoverGround::Sheltering,
        },
    };
    let map = battle.map.clone();
    if map.width > MAX_COORD || map.height > MAX_COORD {
        return Err(src.error(format!(
            "the map is {} by {}: at most {MAX_COORD} columns and rows",
            map.width, map.height
        )));
    }

    check_hexsides(src, &file.map)?;
    let boats = read_boats(src, &file.boats, &map, &table)?;

    let mut ids = battle.ids();
    let mut units: Vec<Unit> = Vec::new();
    let mut standing = Vec::new();
    for spec in &file.units {
        ids.claim(src, &spec.id)?;
        let unit = read_unit(src, spec, &map, &table, &boats, &units)?;
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
    let setting = Setting {
        name: battle.name.clone(),
        title: battle.title.clone(),
        turn_limit: battle.turn_limit,
        map,
        map_view: battle.map_view.clone(),
        side_names: [battle.sides[0].name.clone(), battle.sides[1].name.clone()],
        objectives,
        table,
        boats,
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
