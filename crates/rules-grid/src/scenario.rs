//! Scenario files for grid-rules-v1.1, checked with positions (FILE:LINE:COLUMN), read into
//! the set-up and the units and commanders in play, in named steps: the map's codes, the Unit
//! Data, each side's set-up area, each unit (type, quality, tile, facing), the commanders and
//! the options. Game Setup: unless a side's `setup = "free"`, its units must stand in its two
//! back rows and not in the outer columns.

use crate::state::{
    Commander, CoverFire, Deployment, EdgeSight, EngagedUnits, GridGame, Objective, Setup,
    TurnState, Unit,
};
use crate::terrain::{self, Neighbourhood, TerrainCost};
use crate::tiles::{self, Heading};
use crate::unit_data::{Kind, Quality, UnitData, UnitDataSpec};
use crate::{ID, OPTIONS};
use serde::Deserialize;
use toml::Spanned;
use volley_core::geometry::{hex_at, label, parse_label};
use volley_core::map::{Grid, Map};
use volley_core::options::{option, pick};
use volley_core::scenario::{CommanderSpec, MapSpec, OwnKeys};
use volley_core::{Battle, Name, Options, ScenarioError, ScenarioSource, Side};

/// The map table alone, for the checks only this ruleset makes of what the scenario wrote.
#[derive(Deserialize)]
struct MapOnly {
    map: MapSpec,
}

/// What a Rules v1.1 scenario has besides the parts every ruleset shares (read by
/// [`Battle::read`]).
#[derive(Deserialize)]
struct File {
    sides: Sides,
    units: Vec<UnitSpec>,
    #[serde(default)]
    unit_data: UnitDataSpec,
}

/// The keys this ruleset reads itself.
const OWN_KEYS: OwnKeys = OwnKeys {
    top: &["units", "unit_data"],
    side: &["setup"],
    commander: &[],
};

#[derive(Deserialize)]
struct Sides {
    red: SideSpec,
    blue: SideSpec,
}

#[derive(Deserialize)]
struct SideSpec {
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
    /// `elite`, `regular` (the default) or `inexperienced` (Resolving Hits).
    #[serde(default)]
    quality: Option<Spanned<String>>,
    tile: Spanned<String>,
    #[serde(default)]
    facing: Option<Spanned<String>>,
}

/// Reads a scenario into a game set up and not yet started.
pub fn load(src: &ScenarioSource, overrides: &Options) -> Result<GridGame, ScenarioError> {
    let battle = Battle::read(src, ID, OPTIONS, overrides, OWN_KEYS)?;
    let file: File = src.parse()?;
    check_map(src, &battle.map)?;
    let data = UnitData::built_in().with_overrides(&file.unit_data, src)?;
    let deployments = [
        read_deployment(src, &file.sides.red.setup, Deployment::Top)?,
        read_deployment(src, &file.sides.blue.setup, Deployment::Bottom)?,
    ];
    let units = read_units(src, &file.units, &battle, &data, deployments)?;
    let commanders = read_commanders(src, &battle, &units)?;
    let setup = make_setup(&battle, data, deployments);
    Ok(GridGame::new(setup, units, commanders))
}

/// Refuses what the map may say in other rulesets but not in this one: terrain the text does
/// not have, roads, and hexside features other than streams between neighbouring tiles.
fn check_map(src: &ScenarioSource, map: &Map) -> Result<(), ScenarioError> {
    let spec: MapSpec = src.parse::<MapOnly>()?.map;
    for (r, row) in spec.rows.iter().enumerate() {
        for c in 1..=map.width {
            let t = map.terrain(hex_at(c, r as i32 + 1));
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

/// A side's `setup`: where its units stand at the start (Game Setup).
fn read_deployment(
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

/// Every unit of the scenario, in the order written; each side must have one.
fn read_units(
    src: &ScenarioSource,
    specs: &[UnitSpec],
    battle: &Battle,
    data: &UnitData,
    deployments: [Deployment; 2],
) -> Result<Vec<Unit>, ScenarioError> {
    let mut ids = battle.ids();
    let mut units: Vec<Unit> = Vec::new();
    for spec in specs {
        ids.claim(src, &spec.id)?;
        let unit = read_unit(src, spec, &battle.map, data, deployments, &units)?;
        units.push(unit);
    }
    for side in Side::BOTH {
        if !units.iter().any(|u| u.side == side) {
            return Err(src.error(format!("{side} has no units")));
        }
    }
    Ok(units)
}

/// One unit, at full strength, beside the units read before it.
fn read_unit(
    src: &ScenarioSource,
    spec: &UnitSpec,
    map: &Map,
    data: &UnitData,
    deployments: [Deployment; 2],
    before: &[Unit],
) -> Result<Unit, ScenarioError> {
    let id = spec.id.get_ref();
    let side = src.side(&spec.side)?;
    let kind = read_kind(src, &spec.kind)?;
    let quality = read_quality(src, &spec.quality)?;
    let deployment = deployments[side.index()];
    let tile = src.hex(&spec.tile, map)?;
    if let Some(other) = before.iter().find(|u| u.tile == tile) {
        return Err(src.error_at(
            spec.tile.span(),
            format!(
                "{} is already held by {}: units may not share a tile (Movement Rules 5)",
                label(tile),
                other.id
            ),
        ));
    }
    terrain::entry(kind, map.terrain(tile))
        .map_err(|why| src.error_at(spec.tile.span(), format!("{id} at {}: {why}", label(tile))))?;
    deployment
        .check(map, tile)
        .map_err(|m| src.error_at(spec.tile.span(), m))?;
    let heading = match &spec.facing {
        None => facing_the_enemy(deployment, side, map.grid),
        Some(f) => read_facing(src, f, map.grid)?,
    };
    let strength = data.profile(kind).strength;
    Ok(Unit {
        id: id.into(),
        name: name_or_id(&spec.name, id),
        side,
        kind,
        quality,
        tile,
        heading,
        strength,
        max_strength: strength,
        turn: TurnState::default(),
        attacked_by: Vec::new(),
        last_fire: None,
    })
}

/// A unit's `type` (Unit Types).
fn read_kind(src: &ScenarioSource, spec: &Spanned<String>) -> Result<Kind, ScenarioError> {
    Kind::from_key(spec.get_ref()).ok_or_else(|| {
        src.error_at(
            spec.span(),
            format!(
                "unknown unit type \"{}\" (expected {})",
                spec.get_ref(),
                Kind::ALL.map(Kind::key).join(", ")
            ),
        )
    })
}

/// A unit's `quality`, regular when not written (Resolving Hits).
fn read_quality(
    src: &ScenarioSource,
    spec: &Option<Spanned<String>>,
) -> Result<Quality, ScenarioError> {
    let Some(q) = spec else {
        return Ok(Quality::Regular);
    };
    Quality::from_key(q.get_ref()).ok_or_else(|| {
        src.error_at(
            q.span(),
            format!(
                "unknown quality \"{}\" (expected {})",
                q.get_ref(),
                Quality::ALL.map(Quality::key).join(", ")
            ),
        )
    })
}

/// A unit's `facing`: a side of the grid's tiles.
fn read_facing(
    src: &ScenarioSource,
    spec: &Spanned<String>,
    grid: Grid,
) -> Result<Heading, ScenarioError> {
    Heading::parse(grid, spec.get_ref()).ok_or_else(|| {
        src.error_at(
            spec.span(),
            format!(
                "expected a facing ({}), found \"{}\"",
                Heading::names(grid),
                spec.get_ref()
            ),
        )
    })
}

/// Units face the enemy's edge unless the scenario says otherwise.
fn facing_the_enemy(deployment: Deployment, side: Side, grid: Grid) -> Heading {
    let south = match deployment {
        Deployment::Top => true,
        Deployment::Bottom => false,
        Deployment::Free => side == Side::Red,
    };
    Heading::parse(grid, if south { "S" } else { "N" }).expect("both grids have N and S")
}

/// Every side's commanders, red's first; each starts attached to a unit of its own side.
fn read_commanders(
    src: &ScenarioSource,
    battle: &Battle,
    units: &[Unit],
) -> Result<Vec<Commander>, ScenarioError> {
    let mut commanders = Vec::new();
    for side in Side::BOTH {
        for spec in &battle.side(side).commanders {
            commanders.push(read_commander(src, side, spec, units)?);
        }
    }
    Ok(commanders)
}

/// One commander: no value (each adds +1 to attacks), and the unit it starts with.
fn read_commander(
    src: &ScenarioSource,
    side: Side,
    spec: &CommanderSpec,
    units: &[Unit],
) -> Result<Commander, ScenarioError> {
    let id = spec.id.get_ref();
    if let Some(v) = &spec.value {
        return Err(src.error_at(
            v.span(),
            format!("{ID} commanders have no value: each adds +1 to attacks"),
        ));
    }
    let with = spec.with.as_ref().ok_or_else(|| {
        src.error_at(
            spec.id.span(),
            format!("commander {id} needs with = \"UNIT\": the unit it starts with"),
        )
    })?;
    let unit = units
        .iter()
        .position(|u| u.id == *with.get_ref() && u.side == side)
        .ok_or_else(|| {
            src.error_at(
                with.span(),
                format!(
                    "no {side} unit \"{}\" for the commander to attach to",
                    with.get_ref()
                ),
            )
        })?;
    Ok(Commander {
        id: id.into(),
        name: name_or_id(&spec.name, id),
        side,
        with: Some(unit),
        moved: false,
    })
}

/// What the scenario fixes for the whole battle: map, sides, Unit Data, options, objectives.
fn make_setup(battle: &Battle, data: UnitData, deployments: [Deployment; 2]) -> Setup {
    let options = &battle.options;
    let objectives = battle
        .objectives
        .iter()
        .map(|o| Objective {
            tile: o.hex,
            name: o.name.clone(),
            points: o.points,
            goal_of: o.goal_of,
        })
        .collect();
    Setup {
        name: battle.name.clone(),
        title: battle.title.clone(),
        turn_limit: battle.turn_limit,
        neighbourhood: Neighbourhood::of(&battle.map),
        map: battle.map.clone(),
        map_view: battle.map_view.clone(),
        side_names: [battle.sides[0].name.clone(), battle.sides[1].name.clone()],
        data,
        first_player: Side::parse(option(options, "first_player")),
        cover_fire: pick(
            options,
            "fire_into_cover",
            &[
                ("one-deep", CoverFire::OneDeep),
                ("adjacent", CoverFire::Adjacent),
            ],
        ),
        engaged_units: pick(
            options,
            "engaged_units",
            &[("free", EngagedUnits::Free), ("held", EngagedUnits::Held)],
        ),
        edge_sight: pick(
            options,
            "edge_sight",
            &[("facing", EdgeSight::Facing), ("any", EdgeSight::Any)],
        ),
        terrain_cost: pick(
            options,
            "terrain_cost",
            &[
                ("once", TerrainCost::Once),
                ("per-tile", TerrainCost::PerTile),
            ],
        ),
        placement: pick(
            options,
            "placement",
            &[("scenario", None), ("roll", Some(deployments))],
        ),
        objectives,
    }
}

/// A unit or commander without a name goes by its id.
fn name_or_id(name: &str, id: &str) -> Name {
    if name.is_empty() { id } else { name }.into()
}
