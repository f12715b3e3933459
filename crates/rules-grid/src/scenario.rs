//! Scenario files for grid-rules-v1.1, checked with positions (FILE:LINE:COLUMN). Game Setup:
//! unless a side's `setup = "free"`, its units must stand in its two back rows and not in
//! the outer columns.

use crate::game::{Commander, CoverFire, GridGame, Objective, Phase, Setup, TurnState, Unit};
use crate::terrain;
use crate::tiles::{self, Heading};
use crate::unit_data::{Kind, UnitData, UnitDataSpec};
use crate::ID;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::Arc;
use toml::Spanned;
use volley_core::geometry::{col_row, label, parse_label};
use volley_core::map::{Grid, Map};
use volley_core::scenario::{option, resolve_options, MapSpec, ObjectiveSpec};
use volley_core::{Hex, OptionSpec, Options, ScenarioError, ScenarioSource, Side};

pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        key: "first_player",
        default: "roll",
        choices: &["roll", "red", "blue"],
        help: "Who plays first in game-turn 1: the initiative roll, or the side the scenario names (usually the attacker). Later game-turns always roll.",
    },
    OptionSpec {
        key: "fire_into_cover",
        default: "one-deep",
        choices: &["one-deep", "adjacent"],
        help: "Ranged attacks into forest or built-up areas: at any range into the first tile of it (one-deep), or only from the next tile (adjacent).",
    },
];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    ruleset: Spanned<String>,
    name: String,
    title: String,
    #[serde(default, rename = "description")]
    _description: String,
    turn_limit: Spanned<u32>,
    #[serde(default)]
    options: BTreeMap<String, Spanned<toml::Value>>,
    map: MapSpec,
    sides: Sides,
    units: Vec<UnitSpec>,
    #[serde(default)]
    commanders: Vec<CommanderSpec>,
    #[serde(default)]
    objectives: Vec<ObjectiveSpec>,
    #[serde(default)]
    unit_data: UnitDataSpec,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Sides {
    red: SideSpec,
    blue: SideSpec,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SideSpec {
    name: String,
    /// `top` (rows 1-2), `bottom` (the last two rows) or `free`.
    #[serde(default)]
    setup: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UnitSpec {
    id: Spanned<String>,
    #[serde(default)]
    name: String,
    side: Spanned<String>,
    #[serde(rename = "type")]
    kind: Spanned<String>,
    tile: Spanned<String>,
    #[serde(default)]
    facing: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CommanderSpec {
    id: Spanned<String>,
    #[serde(default)]
    name: String,
    /// The unit it starts attached to.
    with: Spanned<String>,
}

/// Where a side sets up (Game Setup).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Deployment {
    Top,
    Bottom,
    Free,
}

impl Deployment {
    fn read(
        src: &ScenarioSource,
        spec: &Option<Spanned<String>>,
        default: Deployment,
    ) -> Result<Deployment, ScenarioError> {
        let Some(s) = spec else { return Ok(default) };
        match s.get_ref().as_str() {
            "top" => Ok(Deployment::Top),
            "bottom" => Ok(Deployment::Bottom),
            "free" => Ok(Deployment::Free),
            other => Err(src.error_at(
                s.span(),
                format!("expected setup = \"top\", \"bottom\" or \"free\", found \"{other}\""),
            )),
        }
    }

    fn check(self, map: &Map, tile: Hex) -> Result<(), String> {
        let (c, r) = col_row(tile);
        let rows = match self {
            Deployment::Free => return Ok(()),
            Deployment::Top => 1..=2,
            Deployment::Bottom => map.height - 1..=map.height,
        };
        if !rows.contains(&r) {
            return Err(format!(
                "{} is not in this side's two back rows ({} to {}); units set up there unless the side has setup = \"free\" (Game Setup)",
                label(tile),
                rows.start(),
                rows.end()
            ));
        }
        if c == 1 || c == map.width {
            return Err(format!(
                "{} is in an outer column; units do not set up there unless the side has setup = \"free\" (Game Setup)",
                label(tile)
            ));
        }
        Ok(())
    }

    /// Units face the enemy's edge unless the scenario says otherwise.
    fn facing(self, side: Side, grid: Grid) -> Heading {
        let south = match self {
            Deployment::Top => true,
            Deployment::Bottom => false,
            Deployment::Free => side == Side::Red,
        };
        Heading::parse(grid, if south { "S" } else { "N" }).expect("both grids have N and S")
    }
}

fn check_map(src: &ScenarioSource, spec: &MapSpec, map: &Map) -> Result<(), ScenarioError> {
    for (r, row) in spec.rows.iter().enumerate() {
        for c in 1..=map.width {
            let t = map.terrain(volley_core::geometry::hex_at(c, r as i32 + 1));
            if !terrain::USED.contains(&t) {
                return Err(src.error_at(
                    row.span(),
                    format!(
                        "map row {}, column {c}: {} is not a terrain of {ID} (use r for rough/field, W for forest)",
                        r + 1,
                        t.name()
                    ),
                ));
            }
        }
    }
    if let Some(road) = spec.roads.first().and_then(|r| r.first()) {
        return Err(src.error_at(road.span(), format!("{ID} has no roads")));
    }
    for side in &spec.hexsides {
        if side.kind.get_ref() != "stream" {
            return Err(src.error_at(
                side.kind.span(),
                format!(
                    "{ID} knows only streams (rivers along a side), not {}",
                    side.kind.get_ref()
                ),
            ));
        }
        let a = parse_label(side.between[0].get_ref());
        let b = parse_label(side.between[1].get_ref());
        if let (Some(a), Some(b)) = (a, b) {
            if !tiles::adjacent(map.grid, a, b) {
                return Err(src.error_at(
                    side.between[1].span(),
                    "a stream runs along the side between two tiles that share it",
                ));
            }
        }
    }
    Ok(())
}

pub fn load(src: &ScenarioSource, overrides: &Options) -> Result<GridGame, ScenarioError> {
    let file: File = src.parse()?;
    if file.ruleset.get_ref() != ID {
        return Err(src.error_at(
            file.ruleset.span(),
            format!("this is a {} scenario, not {ID}", file.ruleset.get_ref()),
        ));
    }
    if *file.turn_limit.get_ref() == 0 {
        return Err(src.error_at(file.turn_limit.span(), "turn_limit must be at least 1"));
    }
    let options = resolve_options(src, OPTIONS, &file.options, overrides)?;
    let map = file.map.build(src)?;
    check_map(src, &file.map, &map)?;
    let grid = map.grid;
    let data = UnitData::built_in().with_overrides(&file.unit_data, src)?;
    let deployments = [
        Deployment::read(src, &file.sides.red.setup, Deployment::Top)?,
        Deployment::read(src, &file.sides.blue.setup, Deployment::Bottom)?,
    ];

    let mut units: Vec<Unit> = Vec::new();
    for spec in &file.units {
        let id = spec.id.get_ref();
        if id.is_empty() || id.contains(char::is_whitespace) {
            return Err(src.error_at(spec.id.span(), "a unit id is one word"));
        }
        if units.iter().any(|u| &u.id == id) {
            return Err(src.error_at(spec.id.span(), format!("duplicate unit id \"{id}\"")));
        }
        let side = Side::parse(spec.side.get_ref()).ok_or_else(|| {
            src.error_at(
                spec.side.span(),
                format!(
                    "expected side \"red\" or \"blue\", found \"{}\"",
                    spec.side.get_ref()
                ),
            )
        })?;
        let kind = Kind::from_key(spec.kind.get_ref()).ok_or_else(|| {
            src.error_at(
                spec.kind.span(),
                format!(
                    "unknown unit type \"{}\" (expected {})",
                    spec.kind.get_ref(),
                    Kind::ALL.map(Kind::key).join(", ")
                ),
            )
        })?;
        let tile = src.hex(&spec.tile, &map)?;
        if let Some(other) = units.iter().find(|u| u.tile == tile) {
            return Err(src.error_at(
                spec.tile.span(),
                format!(
                    "{} is already held by {}: units may not share a tile (Movement Rules 5)",
                    label(tile),
                    other.id
                ),
            ));
        }
        terrain::entry(kind, map.terrain(tile)).map_err(|why| {
            src.error_at(spec.tile.span(), format!("{id} at {}: {why}", label(tile)))
        })?;
        let deployment = deployments[side.index()];
        deployment
            .check(&map, tile)
            .map_err(|m| src.error_at(spec.tile.span(), m))?;
        let heading = match &spec.facing {
            None => deployment.facing(side, grid),
            Some(f) => Heading::parse(grid, f.get_ref()).ok_or_else(|| {
                src.error_at(
                    f.span(),
                    format!(
                        "expected a facing ({}), found \"{}\"",
                        Heading::names(grid),
                        f.get_ref()
                    ),
                )
            })?,
        };
        let strength = data.profile(kind).strength;
        units.push(Unit {
            id: id.clone(),
            name: if spec.name.is_empty() {
                id.clone()
            } else {
                spec.name.clone()
            },
            side,
            kind,
            tile,
            heading,
            strength,
            max_strength: strength,
            turn: TurnState::default(),
            attacked_by: Vec::new(),
            last_fire: None,
        });
    }
    for side in Side::BOTH {
        if !units.iter().any(|u| u.side == side) {
            return Err(src.error(format!("{side} has no units")));
        }
    }

    let mut commanders: Vec<Commander> = Vec::new();
    for spec in &file.commanders {
        let id = spec.id.get_ref();
        if units.iter().any(|u| &u.id == id) || commanders.iter().any(|c| &c.id == id) {
            return Err(src.error_at(spec.id.span(), format!("duplicate id \"{id}\"")));
        }
        let with = units
            .iter()
            .position(|u| &u.id == spec.with.get_ref())
            .ok_or_else(|| {
                src.error_at(
                    spec.with.span(),
                    format!(
                        "no unit \"{}\" for the commander to attach to",
                        spec.with.get_ref()
                    ),
                )
            })?;
        commanders.push(Commander {
            id: id.clone(),
            name: if spec.name.is_empty() {
                id.clone()
            } else {
                spec.name.clone()
            },
            side: units[with].side,
            with: Some(with),
            moved: false,
        });
    }

    let objectives = file
        .objectives
        .iter()
        .map(|o| {
            Ok(Objective {
                tile: src.hex(&o.hex, &map)?,
                name: o.name.clone(),
                points: o.points,
            })
        })
        .collect::<Result<Vec<_>, ScenarioError>>()?;

    let setup = Setup {
        name: file.name,
        title: file.title,
        turn_limit: *file.turn_limit.get_ref(),
        map,
        side_names: [file.sides.red.name, file.sides.blue.name],
        data,
        first_player: Side::parse(option(&options, "first_player")),
        cover_fire: match option(&options, "fire_into_cover") {
            "adjacent" => CoverFire::Adjacent,
            _ => CoverFire::OneDeep,
        },
        objectives,
    };
    Ok(GridGame {
        setup: Arc::new(setup),
        units,
        commanders,
        started: false,
        turn: 1,
        order: [Side::Red, Side::Blue],
        player_turn: 0,
        phase: Phase::Movement,
        rolls: [0, 0],
        moved_units: 0,
        mover: None,
        facing_choice: None,
        evade: None,
        scored: Vec::new(),
        attacks: Vec::new(),
        advances: Vec::new(),
        outcome: None,
    })
}
