//! The Mechanized position: the scenario's fixed parts (map, charts, roster), the items with
//! what each has done this turn, the board, commanders, objectives and the turn.

use crate::board::Board;
use crate::charts::{Charts, Roster};
use crate::items::Item;
use std::sync::Arc;
use volley_core::map::{Map, MapView};
use volley_core::scenario::{Battle, Objective, OwnKeys};
use volley_core::{Hex, Name, Options, ScenarioError, ScenarioSource, Side};

/// The keys a Mechanized scenario adds to the shared ones.
pub const OWN_KEYS: OwnKeys = OwnKeys {
    top: &[
        "units",
        "charts",
        "vehicles",
        "works",
        "minefields",
        "reinforcements",
        "aircraft",
        "orders",
        "drops",
        "groups",
        "decoys",
    ],
    side: &[],
    commander: &["traits", "grade", "nation", "hex"],
};

/// M16 and the sides' default break point (T21: 40%).
pub const DEFAULT_BREAK_POINT: u32 = 40;

/// The scenario's fixed parts, shared by every copy of the game.
#[derive(Debug)]
pub struct Setup {
    pub name: Name,
    pub title: Name,
    pub map: Map,
    /// The lines of sight walked on the map so far (every copy of the game shares them).
    pub lines: hex_command_family::sight::Lines,
    /// The map as views carry it, made once.
    pub map_view: Arc<MapView>,
    pub side_names: [Name; 2],
    /// Step into the front-left and front-right hexes without turning (C12).
    pub oblique: bool,
    pub turn_limit: u32,
    pub charts: Charts,
    pub roster: Roster,
    pub options: Options,
    pub settings: Settings,
    /// The scenario places decoys, so hidden units stand on the table as markers among them
    /// (M77); without decoys they are kept off it, on a secret map (M78).
    pub markers: bool,
}

/// The optional rules in force (lib.rs `OPTIONS`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    pub arrival_test: bool,
    pub cvs_combat: bool,
    pub cvs_advance: bool,
    pub rain: bool,
    /// Rallied squads only hold unless a commander is with them.
    pub rallied_hold: bool,
    pub hidden_damage: bool,
    pub obscured_fire: bool,
    /// Commanders with Morale 2 influence the neighbouring hexes too (M35).
    pub sphere: bool,
    /// The activation sequence (M18, option `activation = "group-turns"`) rather than A/B.
    pub activation: bool,
    /// Initiative rolled again for each pair of groups (`activation = "group-turns-pairs"`,
    /// and `"group-turns-commanders"`).
    pub activation_pairs: bool,
    /// Each group rolls with its own commander's Initiative (`"group-turns-commanders"`).
    pub activation_commanders: bool,
    /// Written orders (M37, option `cvs_orders`).
    pub cvs_orders: bool,
    /// Hidden guns firing indirectly show only an area (M79, option `sound_ranging`).
    pub sound_ranging: bool,
    /// A side's break point ends the battle, a draw unless the enemy has lost less or holds
    /// more (option `break_point = "ends"`; interpretation 14).
    pub break_point_ends: bool,
}

impl Settings {
    pub fn of(options: &Options) -> Settings {
        let yes = |k: &str| volley_core::scenario::option(options, k) == "yes";
        Settings {
            arrival_test: yes("arrival_test"),
            cvs_combat: yes("cvs_combat"),
            cvs_advance: yes("cvs_advance"),
            rain: yes("rain"),
            rallied_hold: volley_core::scenario::option(options, "rallied") == "hold",
            hidden_damage: yes("hidden_damage"),
            obscured_fire: yes("obscured_fire"),
            sphere: yes("sphere"),
            activation: volley_core::scenario::option(options, "activation")
                .starts_with("group-turns"),
            activation_pairs: matches!(
                volley_core::scenario::option(options, "activation"),
                "group-turns-pairs" | "group-turns-commanders"
            ),
            activation_commanders: volley_core::scenario::option(options, "activation")
                == "group-turns-commanders",
            cvs_orders: yes("cvs_orders"),
            sound_ranging: yes("sound_ranging"),
            break_point_ends: volley_core::scenario::option(options, "break_point") == "ends",
        }
    }
}

/// What an item has done this turn, and its lasting state beside what it is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Turn {
    /// Movement points spent this turn.
    pub mp: u8,
    pub facing_changes: u8,
    /// Shots fired in the fire step under way.
    pub fired: u8,
    /// Routed (M120–M123), until rallied; lasts from turn to turn.
    pub routed: bool,
    /// Destroyed or captured; lasts.
    pub gone: bool,
    /// It has begun its move this turn.
    pub moving: bool,
    /// Its move is over: another item began moving, or an enemy zone of control stopped it.
    pub done: bool,
    /// An enemy zone of control stopped it this move (M54): it may still turn once if it has
    /// not turned yet.
    pub zoc_stopped: bool,
    /// The hex it stood on when its side's player turn began: a panicked side's units may end
    /// no step nearer the enemy than this (M43).
    pub began_at: Option<Hex>,
    /// It has started a melee this turn (M109).
    pub meleed: bool,
    /// It has entered a forest hex this turn (vehicles: one a turn, M61).
    pub forest: bool,
    /// Hidden from the enemy (M78) until it moves, fires, melees or is spotted; lasts.
    pub hidden: bool,
    /// Off the map, waiting for its reinforcement group (index into `State::arrivals`).
    pub waiting: Option<usize>,
    /// It has rallied from a rout (option `rallied = "hold"`); lasts.
    pub rallied: bool,
    /// Its rain roll is made this turn (option `rain`).
    pub rain_checked: bool,
    /// The vehicle it rides on or is towed by (M11–M13); it takes no room then.
    pub aboard: Option<usize>,
    /// It worked (dug, laid or cleared mines) and does not fight until its next turn (M66–M67).
    pub worked: bool,
    /// It has fired this game turn (the activation sequence lets each unit fire once, M19).
    pub fired_turn: bool,
    /// It passed a free-will test this turn and is free of its written order (M38).
    pub free_will: bool,
    /// Waiting in the aircraft for its drop (index into `State::drops`, M70).
    pub dropping: Option<usize>,
}

impl Turn {
    /// A fresh move: no points spent, no turns made, not begun, not over, no forest entered.
    pub fn new_move(&mut self) {
        self.mp = 0;
        self.facing_changes = 0;
        self.moving = false;
        self.done = false;
        self.zoc_stopped = false;
        self.forest = false;
    }
}

#[derive(Clone, Debug)]
pub struct Commander {
    pub id: Name,
    pub name: Name,
    pub side: Side,
    pub value: i32,
    pub supreme: bool,
    /// The Initiative trait (M23: 4–7) from the scenario's `traits`, else the default.
    pub initiative: u8,
    /// The Combat trait: its value, 0 to 2 (M27, option `cvs_combat`).
    pub combat: u8,
    /// The Aggressiveness trait (4–7; option `cvs_advance`).
    pub aggressiveness: u8,
    /// The Morale trait (0–2; option `sphere`).
    pub morale: u8,
    /// The Tactical trait (4–7; option `cvs_orders`).
    pub tactical: u8,
    /// The nation it alone may lead (M34); `None` leads every nation.
    pub nation: Option<Name>,
}

/// The Initiative of a commander whose scenario gives none: the middle of 4–7.
pub const DEFAULT_INITIATIVE: u8 = 5;

#[derive(Clone, Debug)]
pub struct SideInfo {
    pub name: Name,
    pub break_point: u32,
}

#[derive(Clone, Debug)]
pub struct State {
    pub setup: Arc<Setup>,
    pub items: Vec<Item>,
    pub turn_state: Vec<Turn>,
    pub board: Board,
    pub commanders: Vec<Commander>,
    pub objectives: Vec<Objective>,
    pub sides: [SideInfo; 2],
    pub turn: u32,
    /// Field works on the map (M64), as the Hex Command family keeps them.
    pub works: hex_command_family::ground::Works,
    pub minefields: Vec<crate::scenario::Minefield>,
    /// Reinforcement groups (M45), as the Hex Command family keeps them.
    pub arrivals: Vec<hex_command_family::reinforcements::Arrival>,
    /// Ground-attack aircraft (M69).
    pub aircraft: Vec<crate::aircraft::Aircraft>,
    /// Each item's activation group (M18); `None` floats (M19).
    pub groups: Vec<Option<u8>>,
    /// The groups' written orders (M37).
    pub orders: Vec<crate::command::GroupOrder>,
    /// The groups' own commanders (M18's variant).
    pub group_commanders: Vec<crate::command::GroupCommander>,
    /// Paratroop drops (M70).
    pub drops: Vec<crate::scenario::Drop>,
    /// Decoy markers still on the table (M77).
    pub decoys: Vec<hex_command_family::markers::Decoy>,
    /// Each item's nation (M34): the scenario's, else a vehicle's roster nation.
    pub nations: Vec<Option<Name>>,
}

impl State {
    /// The board of the position, built from the items (for checks against the kept one).
    pub fn fresh_board(&self) -> Board {
        let mut b = Board::new(&self.setup.map);
        for (i, it) in self.items.iter().enumerate() {
            let t = &self.turn_state[i];
            if !t.gone && t.waiting.is_none() && t.dropping.is_none() && t.aboard.is_none() {
                b.place(&self.setup.map, it.hex, i);
            }
        }
        b
    }
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
    };
    state.board = state.fresh_board();
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scenario_loads_into_a_position_with_its_board() {
        let rows = (0..6)
            .map(|_| format!("\"{}\"", ["."; 6].join(" ")))
            .collect::<Vec<_>>()
            .join(", ");
        let text = format!(
            "ruleset = \"hex-command-mechanized\"\nname = \"t\"\ntitle = \"t\"\nturn_limit = 8\n[map]\nrows = [{rows}]\n[sides.red]\nname = \"Red\"\ncommanders = [{{ id = \"R1\", name = \"Roth\", value = 1, supreme = true }}]\n[sides.blue]\nname = \"Blue\"\nbreak_point = 30\n[[units]]\nid = \"r1\"\nside = \"red\"\nkind = \"vehicle\"\ntype = \"t34-76\"\nhex = \"0303\"\nfacing = \"N\"\n[[units]]\nid = \"r2\"\nside = \"red\"\nkind = \"squad\"\nweight = \"M\"\nhex = \"0303\"\nfacing = \"N\"\n[[units]]\nid = \"b1\"\nside = \"blue\"\nkind = \"gun\"\nweight = \"M\"\nhex = \"0301\"\nfacing = \"S\"\n"
        );
        let src = ScenarioSource::new("t.toml", text);
        let s = load(&src, &Options::new(), &[]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.items.len(), 3);
        assert_eq!(
            s.board
                .items_at(
                    &s.setup.map,
                    volley_core::geometry::parse_label("0303").unwrap()
                )
                .count(),
            2
        );
        assert_eq!((s.sides[0].break_point, s.sides[1].break_point), (40, 30));
        assert_eq!(s.commanders.len(), 1);
        assert_eq!(s.board, s.fresh_board());
        // A scenario for another ruleset is refused.
        let other = ScenarioSource::new(
            "o.toml",
            src.text.replace("hex-command-mechanized", "hex-command"),
        );
        assert!(load(&other, &Options::new(), &[])
            .unwrap_err()
            .to_string()
            .contains("not \"hex-command-mechanized\""));
    }
}
