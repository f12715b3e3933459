//! Reading a Mechanized scenario's own parts: `[[units]]` of three kinds (squad, vehicle,
//! gun), the `[charts]` and `[vehicles]` a scenario lays over Volley's, and the stacking
//! limit. Every problem is reported where it stands in the file.

use crate::board::Board;
use crate::charts::{Charts, Roster, Weight};
use crate::damage::Damage;
use crate::items::{Item, Kind, Squad};
use crate::state::{
    Commander, Drop, Minefield, Settings, Setup, SideInfo, State, Step, Turn, DEFAULT_BREAK_POINT,
    DEFAULT_INITIATIVE, OWN_KEYS,
};
use hex_command_family::activation::Mode;
use hex_command_family::commanders::Posts;
use hex_command_family::turns::Turns;
use serde::Deserialize;
use std::sync::Arc;
use toml::Spanned;
use volley_core::map::Map;
use volley_core::scenario::Battle;
use volley_core::scenario::Ids;
use volley_core::{Options, Side};
use volley_core::{ScenarioError, ScenarioSource};

#[derive(Deserialize)]
struct File {
    #[serde(default)]
    units: Vec<UnitSpec>,
    /// Hexes of field works (trenches, foxholes), complete at the start (M64).
    #[serde(default)]
    works: Vec<Spanned<String>>,
    /// Minefields and the side that laid them (M65).
    #[serde(default)]
    minefields: Vec<MinefieldSpec>,
    /// Paratroop drops (M70).
    #[serde(default)]
    drops: Vec<DropSpec>,
    /// Decoy markers (M77), as the Hex Command family reads them.
    #[serde(default)]
    decoys: Vec<hex_command_family::markers::DecoySpec>,
    /// Groups arriving during play (M45), read by the Hex Command family.
    #[serde(default)]
    reinforcements: Vec<hex_command_family::reinforcements::ReinforcementSpec>,
    #[serde(default)]
    charts: Option<Spanned<toml::Value>>,
    #[serde(default)]
    vehicles: Option<Spanned<toml::Value>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DropSpec {
    id: Spanned<String>,
    side: Spanned<String>,
    turn: Spanned<u32>,
    target: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MinefieldSpec {
    hex: Spanned<String>,
    side: Spanned<String>,
}

/// What the scenario lays on the ground, and which units start hidden (M78).
pub struct Placed {
    pub works: hex_command_family::ground::Works,
    pub minefields: Vec<Minefield>,
    pub hidden: Vec<bool>,
    pub arrivals: Vec<hex_command_family::reinforcements::Arrival>,
    /// Per unit, the arrival group it waits for (index into `arrivals`).
    pub arrives: Vec<Option<usize>>,
    /// Per unit, its activation group (M18).
    pub groups: Vec<Option<u8>>,
    pub drops: Vec<Drop>,
    /// Per unit, the drop it comes down with (index into `drops`).
    pub drop_of: Vec<Option<usize>>,
    /// Per unit, the nation the scenario gives it (M34).
    pub nations: Vec<Option<String>>,
    /// Decoy markers (M77).
    pub decoys: Vec<hex_command_family::markers::Decoy>,
}

/// The works, minefields and hidden units of a scenario, each checked where it stands.
pub fn placed(src: &ScenarioSource, map: &Map, ids: &mut Ids) -> Result<Placed, ScenarioError> {
    let f: File = src.parse()?;
    let works = read_works(src, map, &f)?;
    let minefields = read_minefields(src, map, &f)?;
    let arrivals = hex_command_family::reinforcements::read(src, map, ids, &f.reinforcements)?;
    let drops = read_drops(src, map, ids, &f)?;
    let (arrives, drop_of) = arrivals_of_units(src, &f, &arrivals, &drops)?;
    let decoys = read_decoys(src, map, &f)?;
    Ok(Placed {
        decoys,
        works,
        minefields,
        hidden: f.units.iter().map(|u| u.hidden).collect(),
        arrivals,
        arrives,
        drops,
        drop_of,
        groups: f.units.iter().map(|u| u.group).collect(),
        nations: f
            .units
            .iter()
            .map(|u| u.nation.as_ref().map(|n| n.to_lowercase()))
            .collect(),
    })
}

/// Works on the map at the start (M64): quick works, finished.
fn read_works(
    src: &ScenarioSource,
    map: &Map,
    f: &File,
) -> Result<hex_command_family::ground::Works, ScenarioError> {
    use hex_command_family::ground::{Work, WorkKind, Works};
    let mut works = Works::of_map(map);
    for w in &f.works {
        let hex = src.hex(w, map)?;
        if works.at(hex).is_some() {
            return Err(src.error_at(w.span(), "works are already there"));
        }
        works.0.push(Work {
            hex,
            kind: WorkKind::QuickWorks,
            side: volley_core::Side::Red,
            progress: WorkKind::QuickWorks.turns(),
            damage: 0,
        });
    }
    Ok(works)
}

/// Minefields (M65), one a hex, unknown to the enemy.
fn read_minefields(
    src: &ScenarioSource,
    map: &Map,
    f: &File,
) -> Result<Vec<Minefield>, ScenarioError> {
    let mut minefields = Vec::new();
    for m in &f.minefields {
        let hex = src.hex(&m.hex, map)?;
        let side = src.side(&m.side)?;
        if minefields.iter().any(|x: &Minefield| x.hex == hex) {
            return Err(src.error_at(m.hex.span(), "a minefield is already there"));
        }
        minefields.push(Minefield {
            hex,
            side,
            known: false,
        });
    }
    Ok(minefields)
}

/// Paratroop drops (M70), on turn 1 or later.
fn read_drops(
    src: &ScenarioSource,
    map: &Map,
    ids: &mut Ids,
    f: &File,
) -> Result<Vec<Drop>, ScenarioError> {
    let mut drops = Vec::new();
    for d in &f.drops {
        ids.claim(src, &d.id)?;
        if *d.turn.get_ref() < 1 {
            return Err(src.error_at(d.turn.span(), "a drop comes on turn 1 or later"));
        }
        drops.push(Drop {
            id: d.id.get_ref().as_str().into(),
            side: src.side(&d.side)?,
            turn: *d.turn.get_ref(),
            target: src.hex(&d.target, map)?,
            done: false,
        });
    }
    Ok(drops)
}

/// An index (into the arrivals, or the drops) for each unit, if it has one.
type ByUnit = Vec<Option<usize>>;

/// The reinforcement group or drop each unit arrives with (of its own side), by unit.
fn arrivals_of_units(
    src: &ScenarioSource,
    f: &File,
    arrivals: &[hex_command_family::reinforcements::Arrival],
    drops: &[Drop],
) -> Result<(ByUnit, ByUnit), ScenarioError> {
    let mut arrives = Vec::new();
    let mut drop_of = Vec::new();
    for u in &f.units {
        let Some(a) = &u.arrives else {
            arrives.push(None);
            drop_of.push(None);
            continue;
        };
        let name = a.get_ref().as_str();
        if let Some(k) = drops.iter().position(|d| d.id.as_str() == name) {
            arrives.push(None);
            drop_of.push(Some(k));
            if src.side(&u.side).is_ok_and(|s| s != drops[k].side) {
                return Err(src.error_at(
                    u.side.span(),
                    format!("{} drops with the other side", u.id.get_ref()),
                ));
            }
            continue;
        }
        drop_of.push(None);
        arrives.push(Some(
            arrivals
                .iter()
                .position(|g| g.id.as_str() == name)
                .ok_or_else(|| {
                    src.error_at(
                        a.span(),
                        format!(
                            "no [[reinforcements]] group or [[drops]] \"{}\"",
                            a.get_ref()
                        ),
                    )
                })?,
        ));
    }
    for (u, a) in f.units.iter().zip(&arrives) {
        if let (Some(g), Ok(side)) = (a, src.side(&u.side)) {
            if arrivals[*g].side != side {
                return Err(src.error_at(
                    u.side.span(),
                    format!("{} arrives with a group of the other side", u.id.get_ref()),
                ));
            }
        }
    }
    Ok((arrives, drop_of))
}

/// Decoy markers (M77), each alone in a hex a unit could stand in.
fn read_decoys(
    src: &ScenarioSource,
    map: &Map,
    f: &File,
) -> Result<Vec<hex_command_family::markers::Decoy>, ScenarioError> {
    let mut decoys: Vec<hex_command_family::markers::Decoy> = Vec::new();
    for d in &f.decoys {
        let decoy = d.read(src, map)?;
        let taken = decoys.iter().any(|x| x.hex == decoy.hex)
            || f.units.iter().any(|u| {
                u.hex
                    .as_ref()
                    .is_some_and(|h| src.hex(h, map).is_ok_and(|h| h == decoy.hex))
            });
        if taken {
            return Err(src.error_at(
                d.hex.span(),
                format!(
                    "hex {} is already taken: a decoy stands alone",
                    d.hex.get_ref()
                ),
            ));
        }
        if matches!(
            map.terrain(decoy.hex),
            volley_core::map::Terrain::Water
                | volley_core::map::Terrain::Marsh
                | volley_core::map::Terrain::Mountain
        ) {
            return Err(src.error_at(d.hex.span(), "a decoy cannot stand there: no unit could"));
        }
        decoys.push(decoy);
    }
    Ok(decoys)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UnitSpec {
    id: Spanned<String>,
    side: Spanned<String>,
    #[serde(default)]
    name: String,
    kind: Spanned<String>,
    /// Where it stands at the start; a reinforcement gives `arrives` instead.
    #[serde(default)]
    hex: Option<Spanned<String>>,
    /// The `[[reinforcements]]` group it arrives with (M45).
    #[serde(default)]
    arrives: Option<Spanned<String>>,
    /// Its facing; arrivals take their group's.
    #[serde(default)]
    facing: Option<Spanned<String>>,
    /// Squads and guns: their weight.
    #[serde(default)]
    weight: Option<Spanned<String>>,
    /// Vehicles: a roster type.
    #[serde(default, rename = "type")]
    vehicle_type: Option<Spanned<String>>,
    #[serde(default)]
    figures: Option<Spanned<u8>>,
    #[serde(default)]
    at: bool,
    #[serde(default)]
    smg: bool,
    #[serde(default)]
    engineer: bool,
    #[serde(default)]
    anti_mine: bool,
    #[serde(default)]
    cavalry: bool,
    #[serde(default)]
    commando: bool,
    #[serde(default)]
    paratroop: bool,
    /// Its nation (M34), for commanders who lead only their own; vehicles take their type's.
    #[serde(default)]
    nation: Option<String>,
    /// The group (segment) it activates with in the activation sequence (M18); none: it
    /// floats, firing whenever it can, once a turn (M19).
    #[serde(default)]
    group: Option<u8>,
    /// Rocket artillery (M99): fires indirectly, every round scatters.
    #[serde(default)]
    rockets: bool,
    /// Hexes of mines a squad carries to lay (M67).
    #[serde(default)]
    mines: u8,
    #[serde(default)]
    indirect: bool,
    #[serde(default)]
    mortar: bool,
    /// Starts hidden from the enemy (M78, option-free: the scenario says who is hidden).
    #[serde(default)]
    hidden: bool,
}

/// The charts and roster in force: Volley's, with the scenario's tables laid over them.
pub fn tables(src: &ScenarioSource) -> Result<(Charts, Roster), ScenarioError> {
    let f: File = src.parse()?;
    let charts = match &f.charts {
        Some(c) => Charts::read(Some(c.get_ref()))
            .map_err(|e| src.error_at(c.span(), format!("[charts]: {e}")))?,
        None => Charts::bundled(),
    };
    let roster = match &f.vehicles {
        Some(v) => Roster::read(Some(v.get_ref()))
            .map_err(|e| src.error_at(v.span(), format!("[vehicles]: {e}")))?,
        None => Roster::bundled(),
    };
    Ok((charts, roster))
}

/// The scenario's units, each checked: its kind and what that kind needs, its place, and the
/// two-items-a-hex limit (M56).
pub fn units(
    src: &ScenarioSource,
    map: &Map,
    ids: &mut Ids,
    roster: &Roster,
) -> Result<Vec<Item>, ScenarioError> {
    let f: File = src.parse()?;
    let mut out: Vec<Item> = Vec::new();
    for u in &f.units {
        ids.claim(src, &u.id)?;
        let (hex, facing) = unit_place(src, map, u)?;
        let kind = unit_kind(src, roster, u)?;
        check_room(src, &f.units, &out, u, hex)?;
        out.push(Item {
            id: u.id.get_ref().as_str().into(),
            name: if u.name.is_empty() {
                u.id.get_ref().as_str().into()
            } else {
                u.name.as_str().into()
            },
            side: src.side(&u.side)?,
            kind,
            hex,
            facing,
        });
    }
    Ok(out)
}

/// Where a unit starts and which way it faces; arrivals stand off the map (at its first
/// hex, unlisted) until they enter.
fn unit_place(
    src: &ScenarioSource,
    map: &Map,
    u: &UnitSpec,
) -> Result<(volley_core::Hex, volley_core::geometry::Facing), ScenarioError> {
    Ok(// Arrivals stand off the map (at its first hex, unlisted) until they enter.
        match (&u.hex, &u.arrives) {
            (Some(h), None) => (
                src.hex(h, map)?,
                match &u.facing {
                    Some(f) => src.facing(f)?,
                    None => return Err(src.error_at(u.id.span(), "a unit on the map needs a facing")),
                },
            ),
            (None, Some(_)) => (volley_core::geometry::hex_at(1, 1), volley_core::geometry::Facing::N),
            _ => {
                return Err(src.error_at(
                    u.id.span(),
                    "a unit gives either `hex` (where it starts) or `arrives` (its reinforcement group)",
                ))
            }
        })
}

/// What a unit is (M1–M3): a squad of its weight and figures, a vehicle of the roster, or a
/// gun of its weight.
fn unit_kind(src: &ScenarioSource, roster: &Roster, u: &UnitSpec) -> Result<Kind, ScenarioError> {
    let weight = |w: &Option<Spanned<String>>, what: &str| -> Result<Weight, ScenarioError> {
        let w = w.as_ref().ok_or_else(|| {
            src.error_at(
                u.kind.span(),
                format!("a {what} needs a weight (L, M or H)"),
            )
        })?;
        Weight::parse(w.get_ref())
            .filter(|w| *w != Weight::Soft)
            .ok_or_else(|| {
                src.error_at(
                    w.span(),
                    format!(
                        "unknown weight \"{}\" (expected VL, L, M, H or VH)",
                        w.get_ref()
                    ),
                )
            })
    };
    let kind = match u.kind.get_ref().as_str() {
        "squad" => {
            let figures = u.figures.as_ref().map_or(4, |f| *f.get_ref());
            if let Some(f) = u
                .figures
                .as_ref()
                .filter(|f| !(1..=4).contains(f.get_ref()))
            {
                return Err(src.error_at(f.span(), "a squad has 1 to 4 figures (M3)"));
            }
            Kind::Squad(Squad {
                weight: Some(weight(&u.weight, "squad")?),
                figures,
                markers: 0,
                at: u.at,
                smg: u.smg,
                engineer: u.engineer,
                anti_mine: u.anti_mine,
                cavalry: u.cavalry,
                commando: u.commando,
                paratroop: u.paratroop,
                mines: u.mines,
                dismounted: false,
                horses_lost: false,
            })
        }
        "vehicle" => {
            let t = u.vehicle_type.as_ref().ok_or_else(|| {
                src.error_at(u.kind.span(), "a vehicle needs a type from the roster")
            })?;
            let spec = roster.vehicles.get(t.get_ref()).ok_or_else(|| {
                let near: Vec<&str> = roster
                    .vehicles
                    .keys()
                    .filter(|k| k.chars().next() == t.get_ref().chars().next())
                    .map(String::as_str)
                    .collect();
                src.error_at(
                    t.span(),
                    format!(
                        "unknown vehicle type \"{}\"{} (see the roster, or add it under [vehicles])",
                        t.get_ref(),
                        if near.is_empty() {
                            String::new()
                        } else {
                            format!("; did you mean one of: {}", near.join(", "))
                        }
                    ),
                )
            })?;
            Kind::Vehicle {
                type_id: t.get_ref().as_str().into(),
                spec: Box::new(spec.clone()),
                damage: Damage::default(),
            }
        }
        "gun" => Kind::Gun {
            weight: weight(&u.weight, "gun")?,
            indirect: u.indirect || u.rockets,
            mortar: u.mortar,
            rockets: u.rockets,
        },
        other => {
            return Err(src.error_at(
                u.kind.span(),
                format!("unknown kind \"{other}\" (expected squad, vehicle or gun)"),
            ))
        }
    };
    Ok(kind)
}

/// At most two items share a hex at the start (M56).
fn check_room(
    src: &ScenarioSource,
    specs: &[UnitSpec],
    placed: &[Item],
    u: &UnitSpec,
    hex: volley_core::Hex,
) -> Result<(), ScenarioError> {
    if let Some(h) = &u.hex {
        let here = specs
            .iter()
            .zip(placed)
            .filter(|(spec, o)| spec.hex.is_some() && o.hex == hex)
            .count();
        if here >= 2 {
            return Err(src.error_at(
                h.span(),
                format!(
                    "hex {} already holds two items: at most two share a hex (M56)",
                    h.get_ref()
                ),
            ));
        }
    }
    Ok(())
}

/// Reads a scenario into its first position.
pub fn load(
    src: &ScenarioSource,
    options: &Options,
    specs: &[volley_core::OptionSpec],
) -> Result<State, ScenarioError> {
    let battle = Battle::read(src, "hex-command-mechanized", specs, options, OWN_KEYS)?;
    let (charts, roster) = crate::scenario::tables(src)?;
    let mut ids = battle.ids();
    let items = crate::scenario::units(src, &battle.map, &mut ids, &roster)?;
    let placed = crate::scenario::placed(src, &battle.map, &mut ids)?;
    let items_nations: Vec<Option<String>> = items
        .iter()
        .map(|it| match &it.kind {
            crate::items::Kind::Vehicle { spec, .. } => Some(spec.nation.to_lowercase()),
            _ => None,
        })
        .collect();
    for side in Side::BOTH {
        if !items.iter().any(|i| i.side == side) {
            return Err(src.error(format!("{side} has no units")));
        }
    }
    let mut commanders = Vec::new();
    for side in Side::BOTH {
        for c in &battle.side(side).commanders {
            let value = c.value.as_ref().map_or(1, |v| *v.get_ref());
            let traits =
                hex_command_family::cvs::read_traits(src, c, value, "Mechanized 4.5, M23")?;
            commanders.push(Commander {
                id: c.id.get_ref().as_str().into(),
                name: c.name.as_str().into(),
                side,
                value,
                supreme: c.supreme,
                initiative: traits.map_or(DEFAULT_INITIATIVE, |t| t.initiative),
                combat: value.clamp(0, 2) as u8,
                morale: traits.map_or(1, |t| t.morale),
                nation: c
                    .nation
                    .as_ref()
                    .map(|n| n.get_ref().to_lowercase().as_str().into()),
                tactical: traits.map_or(hex_command_family::cvs::Traits::plain(0).tactical, |t| {
                    t.tactical
                }),
                aggressiveness: traits.map_or(
                    hex_command_family::cvs::Traits::plain(0).aggressiveness,
                    |t| t.aggressiveness,
                ),
            });
        }
    }
    let sides = Side::BOTH.map(|side| {
        let s = battle.side(side);
        SideInfo {
            name: s.name.clone(),
            break_point: s.break_point.unwrap_or(DEFAULT_BREAK_POINT),
        }
    });
    let setup = Arc::new(Setup {
        name: battle.name.clone(),
        title: battle.title.clone(),
        map: battle.map.clone(),
        lines: hex_command_family::sight::Lines::new(&battle.map),
        map_view: battle.map_view.clone(),
        side_names: [battle.sides[0].name.clone(), battle.sides[1].name.clone()],
        oblique: volley_core::scenario::option(&battle.options, "oblique") != "no",
        turn_limit: battle.turn_limit,
        charts,
        roster,
        options: battle.options.clone(),
        settings: Settings::of(&battle.options),
        markers: !placed.decoys.is_empty(),
    });
    let group_commanders = crate::command::read_groups(
        src,
        &commanders,
        &items
            .iter()
            .zip(&placed.groups)
            .map(|(it, g)| (it.side, *g))
            .collect::<Vec<_>>(),
    )?;
    // The game in play opens before the first turn: nothing counted lost, no step begun.
    let n = items.len();
    let mut start_items = [0; 2];
    for it in &items {
        start_items[it.side.index()] += 1;
    }
    let n_commanders = commanders.len();
    let mode = if setup.settings.activation {
        Mode::GroupTurns
    } else {
        Mode::Ab
    };
    let mut state = State {
        turn_state: placed
            .hidden
            .iter()
            .zip(&placed.arrives)
            .zip(&placed.drop_of)
            .map(|((&hidden, &waiting), &dropping)| Turn {
                hidden,
                waiting,
                dropping,
                ..Turn::default()
            })
            .collect(),
        arrivals: placed.arrivals,
        groups: placed.groups,
        nations: placed
            .nations
            .iter()
            .zip(&items_nations)
            .map(|(n, v)| n.clone().or(v.clone()).map(|s| s.as_str().into()))
            .collect(),
        orders: crate::command::read(src, &battle.map)?,
        group_commanders,
        drops: placed.drops.clone(),
        decoys: placed.decoys.clone(),
        aircraft: crate::aircraft::read(src, &mut ids, &setup.map, &setup.charts)?,
        works: placed.works,
        minefields: placed.minefields,
        board: Board::new(&setup.map),
        items,
        setup,
        commanders,
        objectives: battle.objectives.clone(),
        sides,
        turn: 1,
        started: false,
        turns: Turns::new(mode),
        order_changes: [0, 0],
        seen_at_start: Vec::new(),
        sound: Vec::new(),
        step: Step::Movement,
        mover: None,
        answer: None,
        blocking: None,
        stood: Vec::new(),
        digging: Vec::new(),
        smoke: Vec::new(),
        forced: Vec::new(),
        panicked: [false; 2],
        broken: [false; 2],
        outcome: None,
        posts: Posts::new(n_commanders),
        counted: vec![false; n],
        revealed_at: vec![false; n],
        start_items,
    };
    state.board = state.fresh_board();
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(units: &str) -> ScenarioSource {
        let rows = (0..6)
            .map(|_| format!("\"{}\"", ["."; 6].join(" ")))
            .collect::<Vec<_>>()
            .join(", ");
        ScenarioSource::new(
            "t.toml",
            format!("ruleset = \"hex-command-mechanized\"\nname = \"t\"\ntitle = \"t\"\n[map]\nrows = [{rows}]\n{units}"),
        )
    }

    fn map(src: &ScenarioSource) -> Map {
        #[derive(Deserialize)]
        struct M {
            map: volley_core::scenario::MapSpec,
        }
        let m: M = src.parse().unwrap();
        m.map.build(src).unwrap()
    }

    fn read(units: &str) -> Result<Vec<Item>, ScenarioError> {
        let src = source(units);
        let (_, roster) = tables(&src)?;
        units_of(&src, &roster)
    }

    fn units_of(src: &ScenarioSource, roster: &Roster) -> Result<Vec<Item>, ScenarioError> {
        units(src, &map(src), &mut Ids::default(), roster)
    }

    const TANK: &str = "[[units]]\nid = \"r1\"\nside = \"red\"\nkind = \"vehicle\"\ntype = \"pz4f2\"\nhex = \"0303\"\nfacing = \"N\"\n";
    const SQUAD: &str = "[[units]]\nid = \"r2\"\nside = \"red\"\nkind = \"squad\"\nweight = \"M\"\nat = true\nhex = \"0303\"\nfacing = \"N\"\n";

    #[test]
    fn squads_vehicles_and_guns_are_read() {
        let items = read(&format!("{TANK}{SQUAD}")).unwrap();
        assert_eq!(items.len(), 2, "two items share 0303");
        match &items[0].kind {
            Kind::Vehicle { spec, .. } => assert_eq!(spec.name, "Panzer IV F2"),
            k => panic!("{k:?}"),
        }
        match &items[1].kind {
            Kind::Squad(s) => assert_eq!((s.weight, s.figures, s.at), (Some(Weight::M), 4, true)),
            k => panic!("{k:?}"),
        }
    }

    #[test]
    fn a_third_item_in_a_hex_is_refused_where_it_stands() {
        let third = SQUAD.replace("r2", "r3");
        let e = read(&format!("{TANK}{SQUAD}{third}"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("already holds two items"), "{e}");
        assert!(e.starts_with("t.toml:"), "{e}");
    }

    #[test]
    fn an_unknown_vehicle_type_is_refused_with_suggestions() {
        let e = read(&TANK.replace("pz4f2", "pz5")).unwrap_err().to_string();
        assert!(e.contains("unknown vehicle type \"pz5\""), "{e}");
        assert!(e.contains("pz4f2"), "{e}");
        let line_col = e.split(':').nth(1).unwrap();
        assert!(line_col.parse::<u32>().unwrap() > 5, "{e}");
    }

    #[test]
    fn a_chart_override_of_the_wrong_shape_is_refused() {
        let src = source("[charts.chassis.M]\narmour = 3\n");
        let e = tables(&src).unwrap_err().to_string();
        assert!(e.contains("[charts]"), "{e}");
        assert!(e.contains("armour"), "{e}");
    }
}
