//! Reading a Hex Command scenario file into the opening position.

use crate::state::*;
use crate::units::{Arm, Class};
use serde::Deserialize;
use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;
use toml::Spanned;
use volley_core::map::Terrain;
use volley_core::scenario::{resolve_options, MapSpec, ObjectiveSpec};
use volley_core::{Options, ScenarioError, ScenarioSource, Side};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[allow(dead_code)]
    ruleset: String,
    name: String,
    title: String,
    #[serde(default)]
    #[allow(dead_code)]
    description: String,
    turn_limit: Spanned<u32>,
    #[serde(default)]
    options: BTreeMap<String, Spanned<toml::Value>>,
    map: MapSpec,
    sides: SidesSpec,
    units: Vec<UnitSpec>,
    #[serde(default)]
    objectives: Vec<ObjectiveSpec>,
    #[serde(default)]
    decoys: Vec<DecoySpec>,
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
    /// Percent of starting points lost at which the army breaks (hand-out: 25–40).
    #[serde(default = "default_break_point")]
    break_point: Spanned<u32>,
    #[serde(default)]
    commanders: Vec<CommanderSpec>,
}

fn zero() -> Spanned<i32> {
    Spanned::new(0..0, 0)
}

fn default_break_point() -> Spanned<u32> {
    Spanned::new(0..0, 35)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CommanderSpec {
    id: Spanned<String>,
    name: String,
    #[serde(default = "zero")]
    value: Spanned<i32>,
    #[serde(default)]
    supreme: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UnitSpec {
    id: Spanned<String>,
    side: Spanned<String>,
    name: String,
    arm: Spanned<String>,
    #[serde(default)]
    class: Option<Spanned<String>>,
    hex: Spanned<String>,
    facing: Spanned<String>,
    #[serde(default)]
    heavy: bool,
    #[serde(default)]
    trained: bool,
    #[serde(default)]
    rare: bool,
    #[serde(default)]
    carbines: bool,
    #[serde(default)]
    self_rally: bool,
    #[serde(default)]
    limbered: Option<bool>,
    #[serde(default)]
    points: Option<i32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DecoySpec {
    side: Spanned<String>,
    hex: Spanned<String>,
    #[serde(default = "default_decoy_facing")]
    facing: Spanned<String>,
}

fn default_decoy_facing() -> Spanned<String> {
    Spanned::new(0..0, "N".to_string())
}

fn side_of(src: &ScenarioSource, s: &Spanned<String>) -> Result<Side, ScenarioError> {
    Side::parse(s.get_ref()).ok_or_else(|| {
        src.error_at(
            s.span(),
            format!(
                "expected side \"red\" or \"blue\", found \"{}\"",
                s.get_ref()
            ),
        )
    })
}

/// Whether a unit of `arm` may stand on this terrain at all.
pub fn may_stand(arm: Arm, terrain: Terrain, elevation: u8) -> bool {
    match terrain {
        Terrain::Water | Terrain::Mountain => false,
        Terrain::Marsh => !matches!(arm, Arm::Artillery | Arm::Wagon),
        Terrain::Woods => arm != Arm::Cavalry && !(arm == Arm::Artillery && elevation > 0),
        _ => true,
    }
}

pub fn load(
    src: &ScenarioSource,
    overrides: &Options,
    specs: &[volley_core::OptionSpec],
) -> Result<State, ScenarioError> {
    let f: File = src.parse()?;
    let options = resolve_options(src, specs, &f.options, overrides)?;
    let settings = Settings::from_options(&options);
    let map = f.map.build(src)?;
    if *f.turn_limit.get_ref() == 0 {
        return Err(src.error_at(f.turn_limit.span(), "turn_limit must be at least 1"));
    }
    let mut commanders = Vec::new();
    let mut ids = HashSet::new();
    for (side, spec) in [(Side::Red, &f.sides.red), (Side::Blue, &f.sides.blue)] {
        if !(1..=100).contains(spec.break_point.get_ref()) {
            return Err(src.error_at(
                spec.break_point.span(),
                "break_point is a percentage from 1 to 100",
            ));
        }
        let mut supreme = 0;
        for c in &spec.commanders {
            if !ids.insert(c.id.get_ref().clone()) {
                return Err(src.error_at(
                    c.id.span(),
                    format!("id \"{}\" is used twice", c.id.get_ref()),
                ));
            }
            if !(0..=2).contains(c.value.get_ref()) {
                return Err(src.error_at(
                    c.value.span(),
                    "a commander's combat value is 0, 1 or 2 (section 2.2)",
                ));
            }
            supreme += c.supreme as u32;
            if supreme > 1 {
                return Err(src.error_at(
                    c.id.span(),
                    format!("{side} has more than one supreme commander"),
                ));
            }
            commanders.push(Commander {
                id: c.id.get_ref().clone(),
                name: c.name.clone(),
                side,
                value: *c.value.get_ref(),
                supreme: c.supreme,
                attached: None,
                status: CommanderStatus::Ready,
            });
        }
    }
    let mut units: Vec<Unit> = Vec::new();
    for u in &f.units {
        if !ids.insert(u.id.get_ref().clone()) {
            return Err(src.error_at(
                u.id.span(),
                format!("id \"{}\" is used twice", u.id.get_ref()),
            ));
        }
        if u.id.get_ref().is_empty() || u.id.get_ref().contains(char::is_whitespace) {
            return Err(src.error_at(u.id.span(), "a unit id is one word, like \"r1\""));
        }
        let side = side_of(src, &u.side)?;
        let arm: Arm = Arm::deserialize(toml::Value::String(u.arm.get_ref().clone())).map_err(|_| {
            src.error_at(
                u.arm.span(),
                format!(
                    "unknown arm \"{}\" (expected infantry, light-infantry, skirmishers, cavalry, artillery or wagon)",
                    u.arm.get_ref()
                ),
            )
        })?;
        if arm == Arm::Decoy {
            return Err(src.error_at(
                u.arm.span(),
                "decoys are listed under [[decoys]], not as units",
            ));
        }
        let class = match &u.class {
            None => Class::B,
            Some(c) => match c.get_ref().as_str() {
                "A" => Class::A,
                "B" => Class::B,
                "C" => Class::C,
                other => {
                    return Err(src.error_at(
                        c.span(),
                        format!("unknown weapon class \"{other}\" (expected A, B or C)"),
                    ))
                }
            },
        };
        if u.heavy && arm != Arm::Artillery {
            return Err(src.error_at(u.arm.span(), "only artillery can be heavy"));
        }
        let hex = src.hex(&u.hex, &map)?;
        let facing = src.facing(&u.facing)?;
        let cell = map.cell(hex).expect("checked on map");
        if !may_stand(arm, cell.terrain, cell.elevation) {
            return Err(src.error_at(
                u.hex.span(),
                format!(
                    "{} cannot stand in {} at {}",
                    arm.name(),
                    cell.terrain.name(),
                    u.hex.get_ref()
                ),
            ));
        }
        if let Some(other) = units.iter().find(|o| o.hex == hex) {
            return Err(src.error_at(
                u.hex.span(),
                format!(
                    "{} is already at {} (one unit a hex, section 5.3)",
                    other.id,
                    u.hex.get_ref()
                ),
            ));
        }
        units.push(new_unit(
            u.id.get_ref().clone(),
            u.name.clone(),
            side,
            arm,
            class,
            hex,
            facing,
            u.points.unwrap_or(arm.default_points()),
        ));
        let last = units.last_mut().expect("just pushed");
        last.heavy = u.heavy;
        last.trained = u.trained;
        last.rare = u.rare;
        last.carbines = u.carbines;
        last.self_rally = u.self_rally;
        last.limbered = arm == Arm::Artillery && u.limbered.unwrap_or(false);
    }
    for (i, d) in f.decoys.iter().enumerate() {
        let side = side_of(src, &d.side)?;
        let hex = src.hex(&d.hex, &map)?;
        let facing = src.facing(&d.facing)?;
        if !settings.hidden {
            return Err(src.error_at(d.hex.span(), "decoys need the option hidden = \"yes\""));
        }
        if units.iter().any(|o| o.hex == hex) {
            return Err(src.error_at(
                d.hex.span(),
                format!("hex {} is already taken", d.hex.get_ref()),
            ));
        }
        if !may_stand(Arm::Decoy, map.terrain(hex), map.elevation(hex)) {
            return Err(src.error_at(d.hex.span(), "a decoy cannot stand there"));
        }
        units.push(new_unit(
            format!("{}d{}", side.name().chars().next().unwrap_or('x'), i + 1),
            "decoy".into(),
            side,
            Arm::Decoy,
            Class::C,
            hex,
            facing,
            0,
        ));
    }
    for side in Side::BOTH {
        if !units.iter().any(|u| u.side == side && u.arm.is_real()) {
            return Err(src.error(format!("{side} has no units")));
        }
    }
    let mut objectives = Vec::new();
    for o in &f.objectives {
        let hex = src.hex(&o.hex, &map)?;
        let holder = units
            .iter()
            .find(|u| u.hex == hex && u.arm.is_real())
            .map(|u| u.side);
        objectives.push(Objective {
            hex,
            name: o.name.clone(),
            points: o.points,
            holder,
        });
    }
    let side_info = |spec: &SideSpec, side: Side| SideInfo {
        name: spec.name.clone(),
        break_point: *spec.break_point.get_ref() as f64,
        start_points: units
            .iter()
            .filter(|u| u.side == side)
            .map(|u| u.points)
            .sum(),
        supreme_checked: false,
    };
    let sides = [
        side_info(&f.sides.red, Side::Red),
        side_info(&f.sides.blue, Side::Blue),
    ];
    let hidden = settings.hidden;
    let setup = Setup {
        name: f.name,
        title: f.title,
        map_view: map.to_view(),
        map,
        turn_limit: *f.turn_limit.get_ref(),
        settings,
    };
    let mut state = State {
        setup: Arc::new(setup),
        units,
        commanders,
        melees: Vec::new(),
        advances: Vec::new(),
        objectives,
        sides,
        turn: 1,
        first: Side::Red,
        half: 0,
        phase: Phase::Movement,
        fire_log: Vec::new(),
        outcome: None,
    };
    if hidden {
        crate::hidden::refresh_sight(&mut state);
    }
    Ok(state)
}

#[allow(clippy::too_many_arguments)]
pub fn new_unit(
    id: String,
    name: String,
    side: Side,
    arm: Arm,
    class: Class,
    hex: volley_core::Hex,
    facing: volley_core::geometry::Facing,
    points: i32,
) -> Unit {
    Unit {
        id,
        name,
        side,
        arm,
        class,
        heavy: false,
        trained: false,
        rare: false,
        carbines: false,
        self_rally: false,
        points,
        hex,
        facing,
        hits: 0,
        te: 0,
        routed: false,
        routed_turn: 0,
        limbered: false,
        fate: Fate::Active,
        mp: 0,
        moved_this_turn: false,
        meleed_this_turn: false,
        move_start: hex,
        facing_changes: 0,
        stepped: false,
        fired_phase: false,
        fired_turn: false,
        unlimbered_after_move: false,
        heavy_moved_turn: false,
        commander: None,
        guns_at: None,
        seen: true,
    }
}
