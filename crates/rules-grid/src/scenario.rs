//! Scenario files for grid-rules-v1.1, checked with positions (FILE:LINE:COLUMN). Game Setup:
//! unless a side's `setup = "free"`, its units must stand in its two back rows and not in
//! the outer columns.

use crate::game::{
    Commander, CoverFire, EdgeSight, EngagedUnits, GridGame, Objective, Setup, TurnState, Unit,
};
use crate::terrain::{self, TerrainCost};
use crate::tiles::{self, Heading, Neighbourhood};
use crate::unit_data::{Kind, Quality, UnitData, UnitDataSpec};
use crate::ID;
use serde::Deserialize;
use toml::Spanned;
use volley_core::geometry::{col_row, label, parse_label};
use volley_core::map::{Grid, Map};
use volley_core::scenario::{option, MapSpec, OwnKeys};
use volley_core::{Battle, Hex, Name, OptionSpec, Options, ScenarioError, ScenarioSource, Side};

/// The map table alone, for the checks only this ruleset makes of what the scenario wrote.
#[derive(Deserialize)]
struct MapOnly {
    map: MapSpec,
}

pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        key: "first_player",
        label: "Who moves first",
        default: "roll",
        choices: &["roll", "red", "blue"], range: None,
        help: "Who plays first in game-turn 1: the initiative roll, or the side the scenario names (usually the attacker). Later game-turns always roll.",
    },
    OptionSpec {
        key: "fire_into_cover",
        label: "Shooting into woods and towns",
        default: "one-deep",
        choices: &["one-deep", "adjacent"], range: None,
        help: "Ranged attacks into forest or built-up areas: at any range into the first tile of it (one-deep), or only from the next tile (adjacent).",
    },
    OptionSpec {
        key: "engaged_units",
        label: "Units engaged in close combat",
        default: "free",
        choices: &["free", "held"], range: None,
        help: "free: a unit engaged in close combat moves like any other, and leaving its tile is its withdrawal (it may not attack the enemies it left that turn); held: it may only stay or withdraw one tile into a tile beside no enemy (Close Combat 3).",
    },
    OptionSpec {
        key: "edge_sight",
        label: "Seeing units on hill and forest edges",
        default: "facing",
        choices: &["facing", "any"], range: None,
        help: "facing: a unit in a forest, or on a hill above the firer, can be seen from beyond the next tile only while it faces the firer (Terrain: Hill, Forest); any: it is seen whatever its facing.",
    },
    OptionSpec {
        key: "placement",
        label: "Placing the units",
        default: "scenario",
        choices: &["scenario", "roll"], range: None,
        help: "scenario: units start where the scenario puts them; roll: the players roll for first placement and take turns placing their units, one at a time, in their set-up rows (Game Setup).",
    },
    OptionSpec {
        key: "terrain_cost",
        label: "Hills and rough slowing movement",
        default: "once",
        choices: &["once", "per-tile"], range: None,
        help: "once: a move that enters hill tiles is one tile shorter, however many it enters, and so is a cavalry move entering rough; per-tile: one tile shorter for each such tile entered (Terrain: Hill, Rough/Field).",
    },
];

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

/// Where a side sets up (Game Setup).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deployment {
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

    pub fn check(self, map: &Map, tile: Hex) -> Result<(), String> {
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

/// A unit or commander without a name goes by its id.
fn name_or_id(name: &str, id: &str) -> Name {
    if name.is_empty() { id } else { name }.into()
}

pub fn load(src: &ScenarioSource, overrides: &Options) -> Result<GridGame, ScenarioError> {
    let battle = Battle::read(src, ID, OPTIONS, overrides, OWN_KEYS)?;
    let file: File = src.parse()?;
    let options = &battle.options;
    let map = battle.map.clone();
    let spec: MapSpec = src.parse::<MapOnly>()?.map;
    check_map(src, &spec, &map)?;
    let grid = map.grid;
    let data = UnitData::built_in().with_overrides(&file.unit_data, src)?;
    let deployments = [
        Deployment::read(src, &file.sides.red.setup, Deployment::Top)?,
        Deployment::read(src, &file.sides.blue.setup, Deployment::Bottom)?,
    ];

    let mut ids = battle.ids();
    let mut units: Vec<Unit> = Vec::new();
    for spec in &file.units {
        ids.claim(src, &spec.id)?;
        let id = spec.id.get_ref();
        let side = src.side(&spec.side)?;
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
        let quality = match &spec.quality {
            None => Quality::Regular,
            Some(q) => Quality::from_key(q.get_ref()).ok_or_else(|| {
                src.error_at(
                    q.span(),
                    format!(
                        "unknown quality \"{}\" (expected {})",
                        q.get_ref(),
                        Quality::ALL.map(Quality::key).join(", ")
                    ),
                )
            })?,
        };
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
        });
    }
    for side in Side::BOTH {
        if !units.iter().any(|u| u.side == side) {
            return Err(src.error(format!("{side} has no units")));
        }
    }

    // Commanders start attached to a unit of their own side (Commanders 1).
    let mut commanders: Vec<Commander> = Vec::new();
    for side in Side::BOTH {
        for spec in &battle.side(side).commanders {
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
            commanders.push(Commander {
                id: id.into(),
                name: name_or_id(&spec.name, id),
                side,
                with: Some(unit),
                moved: false,
            });
        }
    }

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

    let neighbourhood = Neighbourhood::of(&map);
    let setup = Setup {
        name: battle.name.clone(),
        title: battle.title.clone(),
        turn_limit: battle.turn_limit,
        map,
        map_view: battle.map_view.clone(),
        side_names: [battle.sides[0].name.clone(), battle.sides[1].name.clone()],
        data,
        first_player: Side::parse(option(options, "first_player")),
        cover_fire: match option(options, "fire_into_cover") {
            "adjacent" => CoverFire::Adjacent,
            _ => CoverFire::OneDeep,
        },
        engaged_units: match option(options, "engaged_units") {
            "held" => EngagedUnits::Held,
            _ => EngagedUnits::Free,
        },
        edge_sight: match option(options, "edge_sight") {
            "any" => EdgeSight::Any,
            _ => EdgeSight::Facing,
        },
        terrain_cost: match option(options, "terrain_cost") {
            "per-tile" => TerrainCost::PerTile,
            _ => TerrainCost::Once,
        },
        placement: (option(options, "placement") == "roll").then_some(deployments),
        objectives,
        neighbourhood,
    };
    Ok(GridGame::new(setup, units, commanders))
}
