//! Reading a Hex Command scenario file into the opening position.

use crate::state::*;
use crate::units::{Arm, Class};
use serde::Deserialize;
use std::sync::Arc;
use toml::Spanned;
use volley_core::map::Terrain;
use volley_core::scenario::OwnKeys;
use volley_core::Name;
use volley_core::{Battle, Options, ScenarioError, ScenarioSource, Side};

/// What a Hex Command scenario has besides the parts every ruleset shares (read by
/// [`Battle::read`]).
#[derive(Deserialize)]
struct File {
    units: Vec<UnitSpec>,
    #[serde(default)]
    decoys: Vec<DecoySpec>,
}

/// The keys this ruleset reads itself.
const OWN_KEYS: OwnKeys = OwnKeys {
    top: &["units", "decoys"],
    side: &[],
    commander: &[],
};

/// Hand-out, Break Point: 25–40% is usual; 35 when the scenario does not say.
const DEFAULT_BREAK_POINT: u32 = 35;

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
    let battle = Battle::read(src, "hex-command", specs, overrides, OWN_KEYS)?;
    let f: File = src.parse()?;
    let settings = Settings::from_options(&battle.options);
    let map = battle.map.clone();
    let mut ids = battle.ids();
    let mut commanders = Vec::new();
    let mut starts_with = Vec::new();
    for side in Side::BOTH {
        let mut supreme = 0;
        for c in &battle.side(side).commanders {
            let value = c.value.as_ref().map_or(0, |v| *v.get_ref());
            if !(0..=2).contains(&value) {
                return Err(src.error_at(
                    c.value
                        .as_ref()
                        .expect("a value out of range was written")
                        .span(),
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
            if let Some(w) = &c.with {
                starts_with.push((commanders.len(), w.clone()));
            }
            commanders.push(Commander {
                id: c.id.get_ref().as_str().into(),
                name: c.name.as_str().into(),
                side,
                value,
                supreme: c.supreme,
                attached: None,
                status: CommanderStatus::Ready,
            });
        }
    }
    let mut units: Vec<Unit> = Vec::new();
    for u in &f.units {
        ids.claim(src, &u.id)?;
        let side = src.side(&u.side)?;
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
            u.id.get_ref().as_str().into(),
            u.name.as_str().into(),
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
        let side = src.side(&d.side)?;
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
            format!("{}d{}", side.name().chars().next().unwrap_or('x'), i + 1).into(),
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
    // A commander the scenario puts with a unit starts attached to it (section 6).
    for (c, with) in starts_with {
        let i = units
            .iter()
            .position(|u| u.id == *with.get_ref() && u.arm.is_real())
            .ok_or_else(|| {
                src.error_at(
                    with.span(),
                    format!("no unit \"{}\" to attach to", with.get_ref()),
                )
            })?;
        if units[i].side != commanders[c].side || units[i].commander.is_some() {
            return Err(src.error_at(
                with.span(),
                format!(
                    "{} cannot start with {}: a commander joins one unit of its own side",
                    commanders[c].id,
                    with.get_ref()
                ),
            ));
        }
        units[i].commander = Some(c);
        commanders[c].attached = Some(i);
    }
    let objectives = battle
        .objectives
        .iter()
        .map(|o| Objective {
            hex: o.hex,
            name: o.name.clone(),
            points: o.points,
            holder: units
                .iter()
                .find(|u| u.hex == o.hex && u.arm.is_real())
                .map(|u| u.side),
        })
        .collect();
    let side_info = |side: Side| SideInfo {
        name: battle.side(side).name.clone(),
        break_point: battle.side(side).break_point.unwrap_or(DEFAULT_BREAK_POINT) as f64,
        start_points: units
            .iter()
            .filter(|u| u.side == side)
            .map(|u| u.points)
            .sum(),
        supreme_checked: false,
    };
    let sides = [side_info(Side::Red), side_info(Side::Blue)];
    let hidden = settings.hidden;
    let setup = Setup {
        name: battle.name.clone(),
        title: battle.title.clone(),
        map_view: battle.map_view.clone(),
        map,
        turn_limit: battle.turn_limit,
        settings,
    };
    let board = crate::board::Board::new(&setup.map);
    let mut state = State {
        setup: Arc::new(setup),
        units,
        board,
        changes: Default::default(),
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
    state.board = crate::board::Board::of(&state);
    if hidden {
        crate::hidden::refresh_sight(&mut state);
    }
    Ok(state)
}

#[allow(clippy::too_many_arguments)]
pub fn new_unit(
    id: Name,
    name: Name,
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
