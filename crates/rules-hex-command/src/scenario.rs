//! Reading a Hex Command scenario file into the opening position (Game Setup and Operations
//! Checklist: CVS and options, orders of battle, activation numbers, placed and hidden units,
//! reinforcements, Route of Retreat).

use crate::board::Board;
use crate::state::*;
use crate::units::{may_stand, Arm, Class};
use hex_command_family::brigades::{self, Brigade, BrigadeSpec};
use hex_command_family::commanders::Posts;
use hex_command_family::ground::{Work, WorkKind, Works};
use hex_command_family::reinforcements::{self, Arrival, ReinforcementSpec};
use hex_command_family::turns::Turns;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::Arc;
use toml::Spanned;
use volley_core::geometry::{distance, Facing};
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
    decoys: Vec<hex_command_family::markers::DecoySpec>,
    #[serde(default)]
    brigades: Vec<BrigadeSpec>,
    #[serde(default)]
    reinforcements: Vec<ReinforcementSpec>,
    #[serde(default)]
    works: Vec<WorkSpec>,
    sides: BTreeMap<String, SideSpec>,
}

#[derive(Deserialize)]
struct SideSpec {
    /// Route of Retreat (set-up step 8).
    #[serde(default)]
    retreat: Vec<Spanned<String>>,
}

/// The keys this ruleset reads itself.
const OWN_KEYS: OwnKeys = OwnKeys {
    top: &["units", "decoys", "brigades", "reinforcements", "works"],
    side: &["retreat"],
    commander: &["traits", "grade", "nation", "hex"],
};

/// Hand-out, Break Point: 25–40% is usual; 35 when the scenario does not say.
const DEFAULT_BREAK_POINT: u32 = 35;

/// Base melee value of every fighting unit when values are equal (7.3 a compares only).
pub const EQUAL_MELEE: i32 = 3;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UnitSpec {
    id: Spanned<String>,
    side: Spanned<String>,
    name: String,
    arm: Spanned<String>,
    #[serde(default)]
    class: Option<Spanned<String>>,
    #[serde(default)]
    hex: Option<Spanned<String>>,
    /// A reinforcement: the group it arrives with, instead of a hex.
    #[serde(default)]
    arrives: Option<Spanned<String>>,
    #[serde(default)]
    facing: Option<Spanned<String>>,
    #[serde(default)]
    brigade: Option<Spanned<String>>,
    #[serde(default)]
    nation: Option<String>,
    #[serde(default)]
    heavy: bool,
    #[serde(default)]
    trained: bool,
    #[serde(default)]
    rare: bool,
    #[serde(default)]
    carbines: bool,
    #[serde(default)]
    repeaters: bool,
    #[serde(default)]
    howitzer: bool,
    #[serde(default)]
    mortar: bool,
    #[serde(default)]
    immobile: bool,
    #[serde(default)]
    self_rally: bool,
    #[serde(default)]
    tribal: bool,
    #[serde(default)]
    engineers: bool,
    #[serde(default)]
    limbered: Option<bool>,
    #[serde(default)]
    mounted: Option<bool>,
    #[serde(default)]
    points: Option<i32>,
    #[serde(default)]
    melee: Option<Spanned<i32>>,
    #[serde(default)]
    bands: Option<Spanned<BandsSpec>>,
}

/// Range bands a scenario gives a weapon: the longest range of each band, in hexes.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BandsSpec {
    #[serde(default)]
    auto: Option<u32>,
    #[serde(default)]
    color: Option<u32>,
    #[serde(default)]
    code: Option<u32>,
    #[serde(default)]
    cnc: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WorkSpec {
    hex: Spanned<String>,
    kind: Spanned<String>,
    side: Spanned<String>,
    /// Turns of work already done; finished when not given.
    #[serde(default)]
    progress: Option<u8>,
}

/// Reads a scenario into the opening position: the shared parts ([`Battle::read`]), then this
/// ruleset's, step by step, each checked where it is read.
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
    let (mut commanders, starts_with) = read_commanders(src, &battle, &map, &settings)?;
    let brigades = read_brigades(src, &map, &mut ids, &f.brigades, &commanders)?;
    let arrivals = read_arrivals(src, &map, &mut ids, &f.reinforcements, &mut commanders)?;
    let mut units: Vec<Unit> = Vec::new();
    for u in &f.units {
        let unit = read_unit(
            src, &map, &mut ids, u, &settings, &brigades, &arrivals, &units,
        )?;
        units.push(unit);
    }
    place_decoys(src, &map, &f.decoys, &settings, &mut units)?;
    if settings.hidden && settings.decoy_per_unit {
        decoy_per_unit(&map, &mut units);
    }
    check_forces(src, &units, &arrivals)?;
    let mut posts = Posts::new(commanders.len());
    attach_commanders(
        src,
        starts_with,
        &settings,
        &mut commanders,
        &mut posts,
        &mut units,
    )?;
    if settings.pieces {
        place_commander_pieces(&mut commanders, &mut posts, &mut units);
    }
    let works = read_works(src, &map, &f.works)?;
    let objectives = objectives(&battle, &units);
    let mut retreats = read_retreats(src, &map, &f.sides)?;
    let forces = vec![
        main_force(&battle, &units, Side::Red),
        main_force(&battle, &units, Side::Blue),
    ];
    let mut side_info = |side: Side| SideInfo {
        name: battle.side(side).name.clone(),
        break_point: forces[side.index()].break_point,
        supreme_checked: false,
        retreat: std::mem::take(&mut retreats[side.index()]),
    };
    let sides = [side_info(Side::Red), side_info(Side::Blue)];
    for u in units.iter_mut() {
        u.force = u.side.index() as u8;
    }
    let setup = setup(&battle, map, settings, &units, &commanders);
    let mut state = State {
        board: Board::new(&setup.map),
        turns: Turns::new(setup.settings.activation),
        setup: Arc::new(setup),
        units,
        changes: Default::default(),
        commanders,
        posts,
        brigades,
        arrivals,
        forces,
        works,
        couriers: Vec::new(),
        melees: Vec::new(),
        advances: Vec::new(),
        decisions: Vec::new(),
        resume: Resume::Phase(Phase::Movement),
        pending_damage: Vec::new(),
        objectives,
        sides,
        turn: 1,
        phase: Phase::Movement,
        fire_rounds: Vec::new(),
        fire_round: 0,
        passed_brigades: Vec::new(),
        withdrawing: Vec::new(),
        withdraw_from: Vec::new(),
        fire_log: Vec::new(),
        outcome: None,
    };
    state.board = Board::of(&state);
    if state.settings().hidden {
        crate::hidden::refresh_sight(&mut state);
    }
    Ok(state)
}

/// A commander the scenario starts with a unit: its index and the unit's id (section 6).
type StartsWith = Vec<(usize, Spanned<String>)>;

/// Both sides' commanders (2.2, 2.2.3): combat value, one supreme commander a side, grade and
/// traits; and the units some start with.
fn read_commanders(
    src: &ScenarioSource,
    battle: &Battle,
    map: &volley_core::map::Map,
    settings: &Settings,
) -> Result<(Vec<Commander>, StartsWith), ScenarioError> {
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
            if let Some(g) = &c.grade {
                if hex_command_family::cvs::Grade::parse(g.get_ref()).is_none() {
                    return Err(src.error_at(
                        g.span(),
                        "a commander's grade is veteran, trained or untrained (2.2.3)",
                    ));
                }
            }
            let traits = hex_command_family::cvs::read_traits(src, c, value, "section 2.2")?;
            let hex = c.hex.as_ref().map(|h| src.hex(h, map)).transpose()?;
            if let Some(w) = &c.with {
                starts_with.push((commanders.len(), w.clone()));
            }
            commanders.push(Commander {
                id: c.id.get_ref().as_str().into(),
                name: c.name.as_str().into(),
                side,
                value,
                traits: if settings.cvs == Cvs::Off {
                    None
                } else {
                    traits
                },
                supreme: c.supreme,
                nation: c.nation.as_ref().map(|n| n.get_ref().as_str().into()),
                hex,
                mp: 0,
                waiting: false,
                replacement_rolled: false,
                grade: c
                    .grade
                    .as_ref()
                    .and_then(|g| hex_command_family::cvs::Grade::parse(g.get_ref())),
            });
        }
    }
    Ok((commanders, starts_with))
}

/// The brigades (1 d, 2.3), each led by a commander of its own side.
fn read_brigades(
    src: &ScenarioSource,
    map: &volley_core::map::Map,
    ids: &mut volley_core::scenario::Ids,
    specs: &[BrigadeSpec],
    commanders: &[Commander],
) -> Result<Vec<Brigade>, ScenarioError> {
    let brigades = brigades::read(src, map, ids, specs)?;
    for (b, spec) in brigades.iter().zip(specs) {
        if let Some(c) = &spec.commander {
            match commanders.iter().find(|x| x.id == *c.get_ref()) {
                Some(cmd) if cmd.side == b.side => {}
                Some(_) => {
                    return Err(src.error_at(
                        c.span(),
                        format!("{} is not a commander of {}", c.get_ref(), b.side),
                    ))
                }
                None => {
                    return Err(src.error_at(c.span(), format!("no commander \"{}\"", c.get_ref())))
                }
            }
        }
    }
    Ok(brigades)
}

/// The reinforcement groups (4); a commander arriving with one waits off the map.
fn read_arrivals(
    src: &ScenarioSource,
    map: &volley_core::map::Map,
    ids: &mut volley_core::scenario::Ids,
    specs: &[ReinforcementSpec],
    commanders: &mut [Commander],
) -> Result<Vec<Arrival>, ScenarioError> {
    let mut arrivals = reinforcements::read(src, map, ids, specs)?;
    for (a, spec) in arrivals.iter_mut().zip(specs) {
        if let Some(c) = &spec.commander {
            let cmd = commanders
                .iter_mut()
                .find(|x| x.id == *c.get_ref() && x.side == a.side)
                .ok_or_else(|| {
                    src.error_at(
                        c.span(),
                        format!("no commander \"{}\" of {} to arrive", c.get_ref(), a.side),
                    )
                })?;
            cmd.waiting = true;
        }
    }
    Ok(arrivals)
}

/// One unit of an order of battle (section 1): its arm and weapons, brigade, where it starts
/// or the group it arrives with, its melee value and range bands.
#[allow(clippy::too_many_arguments)]
fn read_unit(
    src: &ScenarioSource,
    map: &volley_core::map::Map,
    ids: &mut volley_core::scenario::Ids,
    u: &UnitSpec,
    settings: &Settings,
    brigades: &[Brigade],
    arrivals: &[Arrival],
    units: &[Unit],
) -> Result<Unit, ScenarioError> {
    ids.claim(src, &u.id)?;
    let side = src.side(&u.side)?;
    let (arm, class) = read_arm(src, u)?;
    let brigade = unit_brigade(src, u, side, brigades)?;
    let arrival = unit_arrival(src, u, side, arrivals)?;
    let (hex, facing) = match (&u.hex, arrival) {
        (Some(h), _) => {
            let facing = u
                .facing
                .as_ref()
                .ok_or_else(|| src.error_at(u.id.span(), "a unit on the map needs a facing"))?;
            (src.hex(h, map)?, src.facing(facing)?)
        }
        (None, Some(a)) => {
            let facing = match &u.facing {
                Some(f) => src.facing(f)?,
                None => arrivals[a as usize].facing,
            };
            (arrivals[a as usize].locations[0][0], facing)
        }
        (None, None) => unreachable!("checked above"),
    };
    let mounted = matches!(arm, Arm::Cavalry | Arm::MountedInfantry) && u.mounted.unwrap_or(true);
    if let Some(h) = &u.hex {
        check_standing(src, map, h, hex, arm, mounted, units)?;
    }
    let melee = match &u.melee {
        Some(m) => {
            if !(0..=9).contains(m.get_ref()) {
                return Err(src.error_at(m.span(), "a melee value runs from 0 to 9"));
            }
            *m.get_ref()
        }
        None if !arm.on_foot().can_melee() => 0,
        None if settings.melee_by_arm => arm.on_foot().melee_by_arm(),
        None => EQUAL_MELEE,
    };
    let bands = read_bands(src, u)?;
    let mut unit = new_unit(
        u.id.get_ref().as_str().into(),
        u.name.as_str().into(),
        side,
        arm,
        class,
        hex,
        facing,
        u.points.unwrap_or(arm.default_points()),
    );
    unit.heavy = u.heavy;
    unit.trained = u.trained;
    unit.rare = u.rare;
    unit.carbines = u.carbines;
    unit.repeaters = u.repeaters;
    unit.howitzer = u.howitzer || u.mortar;
    unit.mortar = u.mortar;
    unit.immobile = u.immobile;
    unit.self_rally = u.self_rally;
    unit.tribal = u.tribal;
    unit.engineers = u.engineers;
    unit.limbered = arm == Arm::Artillery && u.limbered.unwrap_or(false);
    unit.mounted = mounted;
    unit.melee = melee;
    unit.bands = bands;
    unit.brigade = brigade;
    unit.nation = u.nation.as_deref().map(Name::from);
    unit.arrival = arrival;
    if arrival.is_some() {
        unit.fate = Fate::Waiting;
        unit.seen = false;
    }
    Ok(unit)
}

/// A unit's arm and weapon class, and the gun-only and small-arms-only marks it may carry.
fn read_arm(src: &ScenarioSource, u: &UnitSpec) -> Result<(Arm, Class), ScenarioError> {
    let arm: Arm = Arm::deserialize(toml::Value::String(u.arm.get_ref().clone())).map_err(|_| {
        src.error_at(
            u.arm.span(),
            format!(
                "unknown arm \"{}\" (expected infantry, light-infantry, skirmishers, cavalry, mounted-infantry, artillery or wagon)",
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
    let guns_only = [
        (u.heavy, "heavy"),
        (u.howitzer, "howitzer"),
        (u.mortar, "mortar"),
        (u.immobile, "immobile"),
    ];
    if let Some((_, what)) = guns_only.iter().find(|(set, _)| *set) {
        if arm != Arm::Artillery {
            return Err(src.error_at(u.arm.span(), format!("only artillery can be {what}")));
        }
    }
    if u.repeaters && matches!(arm, Arm::Artillery | Arm::Wagon) {
        return Err(src.error_at(u.arm.span(), "repeaters are small arms"));
    }
    Ok((arm, class))
}

/// The brigade a unit names, of its own side.
fn unit_brigade(
    src: &ScenarioSource,
    u: &UnitSpec,
    side: Side,
    brigades: &[Brigade],
) -> Result<Option<u16>, ScenarioError> {
    let Some(b) = &u.brigade else {
        return Ok(None);
    };
    let i = brigades
        .iter()
        .position(|x| x.id == *b.get_ref())
        .ok_or_else(|| src.error_at(b.span(), format!("no brigade \"{}\"", b.get_ref())))?;
    if brigades[i].side != side {
        return Err(src.error_at(
            b.span(),
            format!("brigade {} belongs to {}", b.get_ref(), brigades[i].side),
        ));
    }
    Ok(Some(i as u16))
}

/// The reinforcement group a unit arrives with, if it has no hex (one or the other).
fn unit_arrival(
    src: &ScenarioSource,
    u: &UnitSpec,
    side: Side,
    arrivals: &[Arrival],
) -> Result<Option<u16>, ScenarioError> {
    match (&u.hex, &u.arrives) {
        (Some(_), Some(a)) => Err(src.error_at(
            a.span(),
            "a unit either starts at a hex or arrives with reinforcements, not both",
        )),
        (None, None) => Err(src.error_at(
            u.id.span(),
            "a unit needs a hex, or `arrives` naming its reinforcement group",
        )),
        (None, Some(a)) => {
            let i = arrivals
                .iter()
                .position(|x| x.id == *a.get_ref())
                .ok_or_else(|| {
                    src.error_at(
                        a.span(),
                        format!("no reinforcement group \"{}\"", a.get_ref()),
                    )
                })?;
            if arrivals[i].side != side {
                return Err(src.error_at(
                    a.span(),
                    format!("reinforcements {} are {}'s", a.get_ref(), arrivals[i].side),
                ));
            }
            Ok(Some(i as u16))
        }
        (Some(_), None) => Ok(None),
    }
}

/// A unit placed on the map stands on ground it may stand on, alone in its hex (5.3).
fn check_standing(
    src: &ScenarioSource,
    map: &volley_core::map::Map,
    h: &Spanned<String>,
    hex: volley_core::Hex,
    arm: Arm,
    mounted: bool,
    units: &[Unit],
) -> Result<(), ScenarioError> {
    let cell = map.cell(hex).expect("checked on map");
    let stand_as = if matches!(arm, Arm::Cavalry) && !mounted {
        Arm::Infantry
    } else {
        arm
    };
    if !may_stand(stand_as, cell.terrain, cell.elevation) {
        return Err(src.error_at(
            h.span(),
            format!(
                "{} cannot stand in {} at {}",
                arm.name(),
                cell.terrain.name(),
                h.get_ref()
            ),
        ));
    }
    if let Some(other) = units
        .iter()
        .find(|o| o.hex == hex && o.fate == Fate::Active)
    {
        return Err(src.error_at(
            h.span(),
            format!(
                "{} is already at {} (one unit a hex, section 5.3)",
                other.id,
                h.get_ref()
            ),
        ));
    }
    Ok(())
}

/// The range bands a scenario gives a unit's weapon, growing from auto to cnc.
fn read_bands(
    src: &ScenarioSource,
    u: &UnitSpec,
) -> Result<Option<[Option<u32>; 4]>, ScenarioError> {
    let bands = u.bands.as_ref().map(|b| {
        let v = b.get_ref();
        [v.auto, v.color, v.code, v.cnc]
    });
    if let (Some(b), Some(spec)) = (bands, &u.bands) {
        let given: Vec<u32> = b.iter().flatten().copied().collect();
        if given.is_empty() || given.windows(2).any(|w| w[0] >= w[1]) {
            return Err(src.error_at(
                spec.span(),
                "bands give each band's longest range, growing from auto to cnc",
            ));
        }
    }
    Ok(bands)
}

/// The decoys the scenario places (Hidden Movement).
fn place_decoys(
    src: &ScenarioSource,
    map: &volley_core::map::Map,
    decoys: &[hex_command_family::markers::DecoySpec],
    settings: &Settings,
    units: &mut Vec<Unit>,
) -> Result<(), ScenarioError> {
    for (i, d) in decoys.iter().enumerate() {
        let hex_command_family::markers::Decoy { side, hex, facing } = d.read(src, map)?;
        if !settings.hidden {
            return Err(src.error_at(d.hex.span(), "decoys need the option hidden = \"yes\""));
        }
        if units.iter().any(|o| o.hex == hex && o.active()) {
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
    Ok(())
}

/// Hidden Movement: each unit on the map shows as two markers, itself and a decoy, placed in
/// the nearest free hex behind it (or beside it).
fn decoy_per_unit(map: &volley_core::map::Map, units: &mut Vec<Unit>) {
    let real: Vec<usize> = (0..units.len())
        .filter(|&i| units[i].arm.is_real() && units[i].active())
        .collect();
    for (n, i) in real.into_iter().enumerate() {
        let (side, hex, facing) = (units[i].side, units[i].hex, units[i].facing);
        let back = facing.opposite();
        let spot = [
            back,
            back.turn(-1),
            back.turn(1),
            facing.turn(-2),
            facing.turn(2),
        ]
        .into_iter()
        .map(|f| volley_core::geometry::step(hex, f))
        .find(|&h| {
            map.contains(h)
                && may_stand(Arm::Decoy, map.terrain(h), map.elevation(h))
                && !units.iter().any(|o| o.hex == h && o.fate != Fate::Waiting)
        });
        if let Some(h) = spot {
            let mut d = new_unit(
                format!("{}x{}", side.name().chars().next().unwrap_or('x'), n + 1).into(),
                "decoy".into(),
                side,
                Arm::Decoy,
                Class::C,
                h,
                facing,
                0,
            );
            d.seen = false;
            units.push(d);
        }
    }
}

/// Each side has units, and each reinforcement group some.
fn check_forces(
    src: &ScenarioSource,
    units: &[Unit],
    arrivals: &[Arrival],
) -> Result<(), ScenarioError> {
    for side in Side::BOTH {
        if !units.iter().any(|u| u.side == side && u.arm.is_real()) {
            return Err(src.error(format!("{side} has no units")));
        }
    }
    for (k, a) in arrivals.iter().enumerate() {
        if !units.iter().any(|u| u.arrival == Some(k as u16)) {
            return Err(src.error(format!(
                "reinforcement group {} has no units (give them arrives = \"{}\")",
                a.id, a.id
            )));
        }
    }
    Ok(())
}

/// A commander the scenario puts with a unit starts attached to it (section 6).
fn attach_commanders(
    src: &ScenarioSource,
    starts_with: StartsWith,
    settings: &Settings,
    commanders: &mut [Commander],
    posts: &mut Posts<usize>,
    units: &mut [Unit],
) -> Result<(), ScenarioError> {
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
        if units[i].side != commanders[c].side
            || units[i].commander.is_some()
            || !nation_fits(&commanders[c], &units[i])
        {
            return Err(src.error_at(
                with.span(),
                format!(
                    "{} cannot start with {}: a commander joins one unit of its own side (and nation, 2 f)",
                    commanders[c].id,
                    with.get_ref()
                ),
            ));
        }
        units[i].commander = Some(c);
        posts.at[c] = Some(i);
        if settings.pieces {
            commanders[c].hex = Some(units[i].hex);
        }
    }
    Ok(())
}

/// Commanders as pieces (2 d) start where the scenario puts them, or with the first unit of
/// their side that has no commander.
fn place_commander_pieces(
    commanders: &mut [Commander],
    posts: &mut Posts<usize>,
    units: &mut [Unit],
) {
    for (c, cmd) in commanders.iter_mut().enumerate() {
        if cmd.hex.is_some() || cmd.waiting {
            continue;
        }
        let side = cmd.side;
        if let Some(i) = units.iter().position(|u| {
            u.side == side
                && u.active()
                && u.arm.is_real()
                && u.commander.is_none()
                && nation_fits(cmd, u)
        }) {
            cmd.hex = Some(units[i].hex);
            posts.at[c] = Some(i);
            units[i].commander = Some(c);
        } else if let Some(u) = units.iter().find(|u| u.side == side && u.active()) {
            cmd.hex = Some(u.hex);
        }
    }
}

/// The forts on the map and the works the scenario has built (Constructions chart).
fn read_works(
    src: &ScenarioSource,
    map: &volley_core::map::Map,
    specs: &[WorkSpec],
) -> Result<Works, ScenarioError> {
    let mut works = Works::of_map(map);
    for w in specs {
        let hex = src.hex(&w.hex, map)?;
        let kind = WorkKind::parse(w.kind.get_ref())
            .filter(|k| *k != WorkKind::Fort)
            .ok_or_else(|| {
                src.error_at(
                    w.kind.span(),
                    "a work is a pontoon, redoubt or quick-works (Constructions chart)",
                )
            })?;
        if works.at(hex).is_some() {
            return Err(src.error_at(w.hex.span(), "there is already a work in that hex"));
        }
        if (kind == WorkKind::Pontoon) != (map.terrain(hex) == Terrain::Water) {
            return Err(src.error_at(
                w.hex.span(),
                "a pontoon spans a water hex; other works stand on land",
            ));
        }
        works.0.push(Work {
            hex,
            kind,
            side: src.side(&w.side)?,
            progress: w.progress.unwrap_or(kind.turns()).min(kind.turns()),
            damage: 0,
        });
    }
    Ok(works)
}

/// The objectives, held by whoever stands on them at the start.
fn objectives(battle: &Battle, units: &[Unit]) -> Vec<Objective> {
    battle
        .objectives
        .iter()
        .map(|o| {
            let on = units
                .iter()
                .find(|u| u.hex == o.hex && u.arm.is_real() && u.active());
            let known_to = |viewer: Side| on.filter(|u| u.side == viewer || u.seen).map(|u| u.side);
            Objective {
                hex: o.hex,
                name: o.name.clone(),
                points: o.points,
                goal_of: o.goal_of,
                holder: on.map(|u| u.side),
                known: [known_to(Side::Red), known_to(Side::Blue)],
            }
        })
        .collect()
}

/// Each side's Route of Retreat (set-up step 8): a path of neighbouring hexes to the edge.
fn read_retreats(
    src: &ScenarioSource,
    map: &volley_core::map::Map,
    sides: &BTreeMap<String, SideSpec>,
) -> Result<[Vec<volley_core::Hex>; 2], ScenarioError> {
    let mut retreats = [Vec::new(), Vec::new()];
    for (name, spec) in sides {
        let Some(side) = Side::parse(name) else {
            continue;
        };
        let path = spec
            .retreat
            .iter()
            .map(|h| src.hex(h, map))
            .collect::<Result<Vec<_>, _>>()?;
        if let Some(w) = path.windows(2).position(|w| distance(w[0], w[1]) != 1) {
            return Err(src.error_at(
                spec.retreat[w + 1].span(),
                "a Route of Retreat is a path of neighbouring hexes",
            ));
        }
        if let (Some(&last), Some(at)) = (path.last(), spec.retreat.last()) {
            let edge = Facing::ALL
                .into_iter()
                .any(|f| !map.contains(volley_core::geometry::step(last, f)));
            if !edge {
                return Err(src.error_at(
                    at.span(),
                    "a Route of Retreat ends at the edge of the map (set-up step 8)",
                ));
            }
        }
        retreats[side.index()] = path;
    }
    Ok(retreats)
}

/// A side's army at the start, the force its break point counts against (hand-out).
fn main_force(battle: &Battle, units: &[Unit], side: Side) -> Force {
    Force {
        side,
        name: battle.side(side).name.clone(),
        break_point: battle.side(side).break_point.unwrap_or(DEFAULT_BREAK_POINT) as f64,
        start_points: units
            .iter()
            .filter(|u| u.side == side && u.fate == Fate::Active && u.arm.is_real())
            .map(|u| u.points)
            .sum(),
        arrival: None,
        checked: false,
    }
}

/// The scenario's fixed parts, shared by every copy of the game: the map and its lines of
/// sight, the settings, the longest fire range (for the listing) and whether nations matter.
fn setup(
    battle: &Battle,
    map: volley_core::map::Map,
    settings: Settings,
    units: &[Unit],
    commanders: &[Commander],
) -> Setup {
    let nations =
        units.iter().any(|u| u.nation.is_some()) || commanders.iter().any(|c| c.nation.is_some());
    let fire_reach = units
        .iter()
        .map(|u| {
            crate::fire::band_ranges_for(u, &settings)
                .into_iter()
                .flatten()
                .max()
                .unwrap_or(0)
        })
        .max()
        .unwrap_or(0)
        .max(10);
    Setup {
        name: battle.name.clone(),
        title: battle.title.clone(),
        map_view: battle.map_view.clone(),
        lines: hex_command_family::sight::Lines::new(&map),
        map,
        turn_limit: battle.turn_limit,
        settings,
        fire_reach,
        nations,
    }
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
        repeaters: false,
        howitzer: false,
        mortar: false,
        immobile: false,
        self_rally: false,
        tribal: false,
        reluctant: false,
        horse_change: false,
        engineers: false,
        points,
        melee: if arm.on_foot().can_melee() {
            EQUAL_MELEE
        } else {
            0
        },
        bands: None,
        brigade: None,
        nation: None,
        force: side.index() as u8,
        arrival: None,
        hex,
        facing,
        hits: 0,
        te: 0,
        routed: false,
        routed_turn: 0,
        limbered: false,
        mounted: matches!(arm, Arm::Cavalry | Arm::MountedInfantry),
        horses_at: None,
        road_column: false,
        fate: Fate::Active,
        mp: 0,
        moved_this_turn: false,
        unlimbered_turn: false,
        meleed_this_turn: false,
        move_start: hex,
        facing_changes: 0,
        stepped: false,
        fired_phase: false,
        fired_turn: false,
        unlimbered_after_move: false,
        heavy_moved_turn: false,
        commander: None,
        guns: None,
        seen: true,
        decoy: None,
        supply: 12,
        rally_turns: 0,
        primary: None,
        building: None,
    }
}
