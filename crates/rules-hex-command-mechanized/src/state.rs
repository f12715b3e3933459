//! The Mechanized position: the scenario's fixed parts (map, charts, roster), the items with
//! what each has done this turn, the board, commanders, objectives and the turn.

use crate::board::Board;
use crate::charts::Weight;
use crate::charts::{Charts, Roster};
use crate::items::Item;
pub use hex_command_family::commanders::Fallen;
use hex_command_family::commanders::Posts;
use hex_command_family::ground::Ground;
use hex_command_family::orders::Order as Written;
use hex_command_family::turns::Turns;
use std::fmt;
use std::sync::Arc;
use volley_core::game::Refusal;
use volley_core::geometry::{label, Facing};
use volley_core::map::{Map, MapView};
use volley_core::scenario::{Objective, OwnKeys};
use volley_core::Outcome;
use volley_core::{Hex, Name, Options, Side};
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
    pub minefields: Vec<crate::state::Minefield>,
    /// Reinforcement groups (M45), as the Hex Command family keeps them.
    pub arrivals: Vec<hex_command_family::reinforcements::Arrival>,
    /// Ground-attack aircraft (M69).
    pub aircraft: Vec<crate::state::Aircraft>,
    /// Each item's activation group (M18); `None` floats (M19).
    pub groups: Vec<Option<u8>>,
    /// The groups' written orders (M37).
    pub orders: Vec<crate::state::GroupOrder>,
    /// The groups' own commanders (M18's variant).
    pub group_commanders: Vec<crate::state::GroupCommander>,
    /// Paratroop drops (M70).
    pub drops: Vec<crate::state::Drop>,
    /// Decoy markers still on the table (M77).
    pub decoys: Vec<hex_command_family::markers::Decoy>,
    /// Each item's nation (M34): the scenario's, else a vehicle's roster nation.
    pub nations: Vec<Option<Name>>,
    pub started: bool,
    /// This game turn's order of play: the initiative winner first (M15), and with the
    /// activation sequence the turn's activations and the one under way (M18).
    pub turns: Turns,
    /// Areas the enemy has sound-ranged hidden guns to (M79): the firing side, the turn, the
    /// ten hexes.
    pub sound: Vec<(Side, u32, Vec<Hex>)>,
    /// What each item could see at the start of the game turn, by item (M75: a target that
    /// appears later may be fired on only within half the weapon's reach).
    pub seen_at_start: Vec<Vec<usize>>,
    /// Written orders changed so far, by side (M37: at most 10 − Initiative).
    pub order_changes: [u32; 2],
    pub step: Step,
    /// The item whose move is under way.
    pub mover: Option<usize>,
    /// A melee waiting for its defender to step back or stand (M115): attacker, defender.
    pub answer: Option<(usize, usize)>,
    /// Reinforcements whose entry hexes the enemy holds, waiting for it to stand or fall
    /// back (M47).
    pub blocking: Option<crate::state::Blocking>,
    /// Reinforcement groups whose blockers stood this turn (M47): they overlap the blocking
    /// line only with more units than it is wide.
    pub stood: Vec<usize>,
    /// Works being built (M66).
    pub digging: Vec<crate::state::Digging>,
    /// Smoke on the map: the hex and the side whose fire laid it (it clears at the start of
    /// that side's next player turn).
    pub smoke: Vec<(Hex, Side)>,
    /// Where each commander stands this turn (M25), by commander index.
    pub posts: Posts<Hex>,
    /// Items counted lost (destroyed, captured or routed, M41), by item index.
    pub counted: Vec<bool>,
    /// Items each side began with.
    pub start_items: [u32; 2],
    /// AT squads the enemy has seen fire at a vehicle (M4).
    pub revealed_at: Vec<bool>,
    /// Forest hexes a vehicle has forced, passable to vehicles for the rest of the game (M61).
    pub forced: Vec<Hex>,
    /// Each side (red, blue) panicked at its last panic check (M43): until its next check its
    /// units advance only with a commander.
    pub panicked: [bool; 2],
    /// Each side (red, blue) stood at or past its break point at the end of the last player
    /// turn (M42, M44): the log tells when a side reaches it and the battle goes on.
    pub broken: [bool; 2],
    pub outcome: Option<Outcome>,
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

/// Reinforcements held up at their entry hexes (M47).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blocking {
    /// The reinforcement group (index into `State::arrivals`).
    pub arrival: usize,
    /// The blocker has answered (and falls back).
    pub answered: bool,
    /// The items falling back, each a full move.
    pub withdrawing: Vec<usize>,
}

/// Works under way: the hex, the side building, the turns put in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Digging {
    pub hex: Hex,
    pub side: Side,
    pub progress: u8,
}

/// An aircraft of the scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Aircraft {
    pub id: Name,
    pub name: Name,
    pub side: Side,
    pub weight: Weight,
    /// The turns it comes on, a sortie each.
    pub turns: Vec<u32>,
    pub entry: Hex,
    pub entry_facing: Facing,
    /// Superior aircraft may turn (M69).
    pub superior: bool,
    /// Hexes a turn: twice a chassis of its weight (M69).
    pub speed: u8,
    /// Where it is while in the air.
    pub at: Option<Hex>,
    pub facing: Facing,
    /// Hexes flown in its side's movement step under way.
    pub flown: u8,
    /// The game turn of its last flight, and the hexes it flew over then (where it is too).
    pub flight: Option<u32>,
    pub path: Vec<Hex>,
    /// The game turn it last attacked (one attack a game turn).
    pub attacked: Option<u32>,
    /// Shot down.
    pub down: bool,
    /// It has reached the map's edge and flies off at the end of its side's player turn.
    pub leaving: bool,
}

/// A group's written order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupOrder {
    pub side: Side,
    pub group: u8,
    pub order: Written,
    /// Timid after a failure (result 3, 9): no step nearer the enemy until a free-will test.
    pub timid: bool,
    /// Halted for this game turn (results 1, 2).
    pub halted_turn: Option<u32>,
}

/// A group's own commander (M18's variant: each group rolls with its commander's Initiative):
/// `[[groups]]` with the side, the group number and the commander's id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupCommander {
    pub side: Side,
    pub group: u8,
    /// Index into `State::commanders`.
    pub commander: usize,
}

/// A paratroop drop (M70): its side, turn and target hex; units give `arrives = ID`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drop {
    pub id: volley_core::Name,
    pub side: volley_core::Side,
    pub turn: u32,
    pub target: volley_core::Hex,
    pub done: bool,
}

/// A minefield: hidden from the enemy of the side that laid it until an item enters it (M65).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Minefield {
    pub hex: volley_core::Hex,
    pub side: volley_core::Side,
    pub known: bool,
}

/// The steps of a player turn that take decisions (M20). Panic, spotting, reinforcements and
/// Rally Up are carried out by the rules alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// (4) the phasing side moves.
    Movement,
    /// (5) the phasing side places its commanders.
    Command,
    /// (6) the non-phasing side fires.
    DefensiveFire,
    /// (7) the phasing side fires…
    OffensiveFire,
    /// …then starts its melees.
    Melee,
}

/// The step of a game in words: "red movement", "blue fires (red's turn)".
pub struct StepName<'a>(&'a State);

impl fmt::Display for StepName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = self.0;
        if g.outcome.is_some() {
            return f.write_str("game over");
        }
        let side = g.phasing();
        if let Some(b) = &g.blocking {
            let a = &g.arrivals[b.arrival];
            return if b.answered {
                write!(f, "{} falls back before {}", a.side.other(), a.id)
            } else {
                write!(f, "{} answers {}'s arrival", a.side.other(), a.id)
            };
        }
        match g.step {
            Step::Movement => match g.active_group() {
                Some(n) => write!(f, "{side} group {n} movement"),
                None => write!(f, "{side} movement"),
            },
            Step::Command => write!(f, "{side} places commanders"),
            Step::DefensiveFire => write!(f, "{} fires ({side}'s turn)", side.other()),
            Step::OffensiveFire => write!(f, "{side} fires"),
            Step::Melee => write!(f, "{side} melee"),
        }
    }
}

impl State {
    pub fn phasing(&self) -> Side {
        self.turns.phasing()
    }

    /// The group activated now (activation sequence), `None` in A/B play.
    pub fn active_group(&self) -> Option<u8> {
        self.turns.active_group()
    }

    /// Whether an item of the phasing side moves and melees now: all of them in A/B play, the
    /// activated group's in the activation sequence (M18).
    pub fn active(&self, i: usize) -> bool {
        self.item(i).side == self.phasing()
            && (!self.setup.settings.activation
                || self.groups.get(i).copied().flatten() == self.active_group())
    }

    pub fn step_name(&self) -> StepName<'_> {
        StepName(self)
    }

    /// The map with the works laid over it, remembering the lines of sight walked on it.
    pub fn ground(&self) -> Ground<'_> {
        Ground::remembering(&self.setup.map, &self.works, &self.setup.lines)
    }

    pub fn item(&self, i: usize) -> &Item {
        &self.items[i]
    }

    /// An item on the table: not destroyed, not waiting to arrive.
    pub fn in_play(&self, i: usize) -> bool {
        i < self.items.len()
            && !self.turn_state[i].gone
            && self.turn_state[i].waiting.is_none()
            && self.turn_state[i].aboard.is_none()
            && self.turn_state[i].dropping.is_none()
    }

    pub fn routed(&self, i: usize) -> bool {
        self.turn_state[i].routed
    }

    /// Items in a hex.
    pub fn items_at(&self, hex: Hex) -> impl Iterator<Item = usize> + '_ {
        self.board.items_at(&self.setup.map, hex)
    }

    pub fn enemy_in(&self, hex: Hex, side: Side) -> bool {
        self.items_at(hex).any(|i| self.item(i).side != side)
    }

    /// The commander standing with an item this turn, if any.
    pub fn commander_with(&self, i: usize) -> Option<usize> {
        let (hex, side) = (self.item(i).hex, self.item(i).side);
        (0..self.posts.at.len()).find(|&c| {
            self.posts.at[c] == Some(hex) && self.commanders[c].side == side && self.leads(c, i)
        })
    }

    /// M34: a commander of a nation leads only items of that nation; one of no nation leads
    /// all. Items of a nation whose commanders are all gone follow nobody.
    pub fn leads(&self, c: usize, i: usize) -> bool {
        let nation = self.nations.get(i).cloned().flatten();
        match (&self.commanders[c].nation, &nation) {
            (Some(cn), Some(n)) => cn == n,
            (Some(_), None) => false,
            (None, Some(n)) => {
                // A nation with commanders of its own follows only them.
                !self
                    .commanders
                    .iter()
                    .any(|x| x.side == self.item(i).side && x.nation.as_ref() == Some(n))
            }
            (None, None) => true,
        }
    }

    /// Whether an item may step from `from` into `to` as far as the ground goes: the terrain
    /// (`terrain::passable`), or a bridge the engineers have laid over the water (M66).
    pub fn passable(&self, item: &Item, from: Hex, to: Hex) -> bool {
        let map = &self.setup.map;
        if crate::terrain::passable(map, item, from, to) {
            return true;
        }
        let bridged = self.works.at(to).is_some_and(|w| {
            w.kind == hex_command_family::ground::WorkKind::Pontoon && w.complete()
        });
        bridged && !crate::moves::crippled(item)
    }
}

impl State {
    /// The position's own invariants: items on the map, at most two to a hex (M56), the board
    /// up to date, one side to a hex.
    pub fn position_invariants(&self) -> Result<(), String> {
        let map = &self.setup.map;
        let mut board = Board::new(map);
        for (i, it) in self.items.iter().enumerate() {
            if !self.in_play(i) {
                continue;
            }
            if !map.contains(it.hex) {
                return Err(format!("{} is off the map at {}", it.id, label(it.hex)));
            }
            if !board.place(map, it.hex, i) {
                return Err(format!("more than two items in {} (M56)", label(it.hex)));
            }
        }
        for hex in self.items.iter().map(|i| i.hex) {
            let sorted = |b: &Board| {
                let mut v: Vec<usize> = b.items_at(map, hex).collect();
                v.sort_unstable();
                v
            };
            if sorted(&board) != sorted(&self.board) {
                return Err(format!(
                    "the board does not match the items at {}",
                    label(hex)
                ));
            }
        }
        for hex in self.items.iter().map(|i| i.hex) {
            let sides: Vec<Side> = self.items_at(hex).map(|i| self.item(i).side).collect();
            if sides.windows(2).any(|w| w[0] != w[1]) {
                return Err(format!("both sides stand in {}", label(hex)));
            }
        }
        Ok(())
    }
}

impl State {
    /// The side to decide: the non-phasing side in its fire step, else the phasing side.
    pub fn deciding(&self) -> Side {
        if let Some(b) = &self.blocking {
            self.arrivals[b.arrival].side.other()
        } else if let Some((_, d)) = self.answer {
            self.item(d).side
        } else if self.step == Step::DefensiveFire {
            self.phasing().other()
        } else {
            self.phasing()
        }
    }
    /// An item of the side to decide, on the table.
    pub fn own_item<R: Refusal>(&self, i: usize) -> Result<&Item, R> {
        if !self.in_play(i) {
            return Err(R::because(|| "no such item in play"));
        }
        let it = self.item(i);
        if it.side != self.deciding() {
            return Err(R::because(|| {
                format!(
                    "{} is {}'s; {} decides now",
                    it.id,
                    it.side,
                    self.deciding()
                )
            }));
        }
        Ok(it)
    }
    /// The side to decide, once the game has begun and until it is over.
    pub fn to_decide(&self) -> Option<Side> {
        (self.started && self.outcome.is_none()).then(|| self.deciding())
    }
    /// The commander whose influence reaches an item: one in its hex, or with option `sphere`
    /// one of Morale 2 in a neighbouring hex (M35).
    pub fn influenced_by(&self, i: usize) -> Option<usize> {
        self.commander_with(i).or_else(|| {
            if !self.setup.settings.sphere {
                return None;
            }
            let (hex, side) = (self.item(i).hex, self.item(i).side);
            (0..self.posts.at.len()).find(|&c| {
                let cm = &self.commanders[c];
                cm.side == side
                    && cm.morale >= 2
                    && self.leads(c, i)
                    && self.posts.at[c].is_some_and(|p| p.unsigned_distance_to(hex) == 1)
            })
        })
    }
    /// The carrier an item rides on, if any.
    pub fn aboard(&self, i: usize) -> Option<usize> {
        self.turn_state.get(i).and_then(|t| t.aboard)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::load;
    use volley_core::ScenarioSource;

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
