//! What one side may see: the shape every ruleset fills and every client draws.
//!
//! Views are made on every decision (by bots many times a decision), so they are cheap to
//! build: names and ids are shared [`Name`]s taken from the scenario, words the rules fix
//! are `&'static str`s, places are coordinates (written as labels only when serialised), and
//! the map is one shared copy made when the scenario is read.

use crate::geometry::{parse_label, Facing};
use crate::map::MapView;
use crate::name::Name;
use crate::place::Place;
use crate::side::{Outcome, Side};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A word the rules fix ("infantry", "routed"), or one read from a save or a client.
pub use crate::name::Word;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct View {
    pub ruleset: Word,
    pub scenario: Name,
    pub title: Name,
    /// The side this view is for; `None` for the full (referee) view.
    pub viewer: Option<Side>,
    pub turn: u32,
    pub turn_limit: u32,
    /// The phase now, in words ("Red movement", "Blue fire").
    pub phase: String,
    pub phasing: Option<Side>,
    pub to_decide: Option<Side>,
    /// What the side to decide is deciding, in words, naming the side: "Blue: fire
    /// (non-phasing)", "Blue: b3 may withdraw from r2's attack or stand its ground". The side
    /// to decide is not always the phasing side: the rules may put a decision to the other
    /// side in the middle of a turn (an interrupt). `None` once the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    pub map: Arc<MapView>,
    pub sides: Vec<SideView>,
    pub units: Vec<UnitView>,
    /// Enemy units not seen, shown only as unidentified markers (some of them decoys).
    pub markers: Vec<MarkerView>,
    pub objectives: Vec<ObjectiveView>,
    /// What stands on the map besides units and changes in play: works being built or
    /// battered, abandoned guns, couriers riding (only to their own side)…
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub features: Vec<FeatureView>,
    pub outcome: Option<Outcome>,
    /// Who would win if the battle ended now, by the scenario's victory conditions, for
    /// rulesets whose result is judged only at the end (objectives held, victory points
    /// compared): "as it stands". `None` once the game is over, and for rulesets that do not
    /// say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub standing: Option<Standing>,
}

/// The result the battle would have if it ended now.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    /// `None` for a draw.
    pub winner: Option<Side>,
    /// A decisive victory rather than a minor one.
    pub decisive: bool,
    /// In words: "a minor victory for Hood's division: it holds Mumma farm".
    pub reason: String,
}

impl Standing {
    /// The standing of a battle judged by comparing the two sides' scores (red, blue): the
    /// higher leads, never decisively.
    pub fn by_score([red, blue]: [i32; 2]) -> Standing {
        let winner = match red.cmp(&blue) {
            std::cmp::Ordering::Greater => Some(Side::Red),
            std::cmp::Ordering::Less => Some(Side::Blue),
            std::cmp::Ordering::Equal => None,
        };
        let lead = match winner {
            Some(w) => format!("{w} would win"),
            None => "a draw".into(),
        };
        Standing {
            winner,
            decisive: false,
            reason: format!("{lead}: red scores {red}, blue {blue}"),
        }
    }
}

impl View {
    pub fn unit(&self, id: &str) -> Option<&UnitView> {
        self.units.iter().find(|u| u.id == id)
    }

    /// The unit with a given key.
    pub fn unit_by_key(&self, key: u32) -> Option<&UnitView> {
        self.units.iter().find(|u| u.key == key)
    }

    /// What both sides have seen, and nothing more: the view a spectator is given. Each
    /// side's units and commanders as the other side sees them (a unit the enemy has not seen
    /// is the enemy's unidentified marker, or absent), and of everything else only what the
    /// two views agree on. `red` and `blue` are the two sides' views of one position.
    pub fn common(red: &View, blue: &View) -> View {
        let of = |side: Side| if side == Side::Red { blue } else { red };
        let mut units = Vec::new();
        let mut markers = Vec::new();
        for view in [red, blue] {
            let owner = view.viewer.unwrap_or(Side::Red);
            for own in view.units.iter().filter(|u| u.side == owner) {
                // As the enemy sees it: seen (with what the enemy knows of it) or not at all.
                if let Some(seen) = of(owner).units.iter().find(|u| u.id == own.id) {
                    units.push(seen.clone());
                }
            }
            markers.extend(
                of(owner)
                    .markers
                    .iter()
                    .filter(|m| m.side == owner)
                    .cloned(),
            );
        }
        let same = |a: &Option<String>, b: &Option<String>| if a == b { a.clone() } else { None };
        View {
            ruleset: red.ruleset.clone(),
            scenario: red.scenario.clone(),
            title: red.title.clone(),
            viewer: None,
            turn: red.turn,
            turn_limit: red.turn_limit,
            phase: if red.phase == blue.phase {
                red.phase.clone()
            } else {
                String::new()
            },
            phasing: red.phasing,
            to_decide: red.to_decide,
            prompt: same(&red.prompt, &blue.prompt),
            map: red.map.clone(),
            sides: red
                .sides
                .iter()
                .map(|s| {
                    of(s.side)
                        .sides
                        .iter()
                        .find(|o| o.side == s.side)
                        .unwrap_or(s)
                        .clone()
                })
                .collect(),
            units,
            markers,
            objectives: red
                .objectives
                .iter()
                .filter(|o| blue.objectives.contains(o))
                .cloned()
                .collect(),
            features: red
                .features
                .iter()
                .filter(|f| blue.features.contains(f))
                .cloned()
                .collect(),
            outcome: red.outcome.clone(),
            standing: red
                .standing
                .clone()
                .filter(|s| Some(s) == blue.standing.as_ref()),
        }
    }

    /// Whether the side to decide is deciding in the middle of the other side's turn.
    pub fn interrupt(&self) -> bool {
        matches!((self.to_decide, self.phasing), (Some(d), Some(p)) if d != p)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SideView {
    pub side: Side,
    pub name: Name,
    /// Share of the starting strength lost (with any per-commander additions), in percent.
    pub losses_percent: f64,
    /// The break point in percent, when the ruleset has one.
    pub break_point: Option<f64>,
    pub score: i32,
    pub commanders: Vec<CommanderView>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CommanderView {
    pub id: Name,
    pub name: Name,
    /// Combat value added to fire and melee.
    pub value: i32,
    pub supreme: bool,
    /// The unit it is attached to, if that unit can be seen.
    pub attached_to: Option<Name>,
    /// `ready`, `attached`, `killed` or `captured`.
    pub status: Word,
}

/// What a unit is made of, for rulesets that count its parts: stands (bases) or figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Elements {
    /// `stands` or `figures`.
    pub kind: ElementKind,
    /// How many it has now.
    pub now: u32,
    /// How many it had at full strength.
    pub full: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ElementKind {
    Stands,
    Figures,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnitView {
    pub id: Name,
    /// The unit's number in the game, fixed for the whole game: actions name their unit by it
    /// ([`crate::ActionInfo::unit`]), and [`crate::Game::unit_actions`] takes it.
    pub key: u32,
    pub name: Name,
    pub side: Side,
    /// `infantry`, `light infantry`, `skirmishers`, `cavalry`, `artillery`, `wagon`, …
    pub arm: Word,
    /// Weapon class or other qualifier ("A", "B", "heavy B"), if any.
    pub class: Option<Word>,
    /// One character for text maps: I, L, K, C, A, W…
    pub symbol: char,
    /// Where it stands: a hex (or a square tile), or a point on a measured table. Several
    /// units may share a hex where the rules allow it.
    pub place: Place,
    pub facing: Option<Facing>,
    pub hits: u32,
    pub max_hits: u32,
    pub te: u32,
    pub max_te: u32,
    /// Strength points left, for rulesets that count them.
    pub strength: Option<u32>,
    /// Stands or figures, for rulesets whose units are made of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elements: Option<Elements>,
    /// The formation it is in (`line`, `column`, `square`, …), for rulesets that have them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub formation: Option<Word>,
    /// The hexes the unit's fire reaches now: its firing cone within its range, for rulesets
    /// that have firing cones (empty otherwise, and for units that cannot fire).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cone: Vec<Place>,
    /// Conditions: `routed`, `fatigued`, `fired`, `limbered`, `in melee`, `standing`, …
    pub flags: Vec<Word>,
    pub commander: Option<Name>,
}

impl UnitView {
    pub fn has(&self, flag: &str) -> bool {
        self.flags.iter().any(|f| f == flag)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MarkerView {
    /// An opaque marker id that says nothing about the unit under it.
    pub id: String,
    pub side: Side,
    pub place: Place,
}

/// Something on the map that is not a unit: its kind in one word ("redoubt", "guns",
/// "courier"), where it is, and what it is in words for the log and the map's legend.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FeatureView {
    pub kind: Word,
    pub place: Place,
    pub text: String,
    /// The side it belongs to, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<Side>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ObjectiveView {
    pub place: Place,
    pub name: Name,
    pub points: i32,
    pub holder: Option<Side>,
    /// The side whose goal it is, the only one it counts for (a scenario's `goals`); `None`:
    /// whichever side holds it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goal_of: Option<Side>,
    /// For each side (red, blue), whether holding it decides the battle at once, not only
    /// adds its points (Black Powder's major objectives).
    #[serde(default, skip_serializing_if = "decides_nothing")]
    pub decisive: [bool; 2],
}

fn decides_nothing(d: &[bool; 2]) -> bool {
    !d[0] && !d[1]
}

impl ObjectiveView {
    /// An objective's name as the map shows it, saying whose goal it is, if only one side's:
    /// "The town (Red Brigade's goal)".
    pub fn goal_name(name: &Name, goal_of: Option<Side>, side_names: &[Name; 2]) -> Name {
        match goal_of {
            None => name.clone(),
            Some(s) => format!("{name} ({}'s goal)", side_names[s.index()]).into(),
        }
    }
}

impl View {
    /// Notation in plain words: the verb capitalised, hyphens as spaces, and each unit's or
    /// commander's id replaced by its name ("fire r1 b2" → "Fire 1st Line 2nd Guard"); an order
    /// to the troops of a hex says so ("fall-back 0704" → "Fall back (the troops in 0704)"), and
    /// `end` reads "End".
    pub fn plain_words(&self, notation: &str) -> String {
        let mut words = notation.split_whitespace();
        let verb = words.next().unwrap_or("");
        let mut out = String::new();
        let mut chars = verb.chars();
        if let Some(first) = chars.next() {
            out.extend(first.to_uppercase());
            out.push_str(&chars.as_str().replace('-', " "));
        }
        let rest: Vec<&str> = words.collect();
        if let [only] = rest.as_slice() {
            if parse_label(only).is_some() {
                return format!("{out} (the troops in {only})");
            }
        }
        for w in rest {
            let commander = self
                .sides
                .iter()
                .flat_map(|s| &s.commanders)
                .find(|c| c.id.as_str() == w);
            let named = match commander {
                Some(c) => format!("★ {}", c.name),
                None => self
                    .units
                    .iter()
                    .find(|u| u.id.as_str() == w)
                    .map_or_else(|| w.to_string(), |u| u.name.to_string()),
            };
            out.push(' ');
            out.push_str(&named);
        }
        out
    }
}

/// An action in plain words from what it is ([`crate::action::ActionInfo`]) and the deciding side's view:
/// who acts and where it goes or strikes, by name, with the range of an attack on a hex map
/// ("Fire at T-34, 1st with Panzer IV, 1st (range 2)", "Move 1st Line to 0705"). What the
/// description does not say is worded from the notation with names for ids
/// ([`View::plain_words`]).
pub fn action_words(info: &crate::action::ActionInfo, notation: &str, view: &View) -> String {
    let verb = capitalised(info.verb);
    let actor = info.unit.and_then(|k| view.unit_by_key(k));
    let Some(actor) = actor else {
        // Who acts is not a unit on the map (an aircraft, a battery off the table): the
        // notation in words, and whom it strikes by name.
        let words = view.plain_words(notation);
        return match (info.kind, info.place) {
            (crate::action::ActionKind::Attack, Some(place)) => {
                let side = view.viewer;
                let there: Vec<&str> = view
                    .units
                    .iter()
                    .filter(|u| Some(u.side) != side && u.place == place)
                    .map(|u| u.name.as_str())
                    .collect();
                if there.is_empty() {
                    words
                } else {
                    format!("{words}: at {}", there.join(" and "))
                }
            }
            _ => words,
        };
    };
    match (info.kind, info.place) {
        (crate::action::ActionKind::Move, Some(place)) => {
            let facing = info
                .heading_name()
                .map(|f| format!(", facing {f}"))
                .unwrap_or_default();
            format!("{verb} {} to {place}{facing}", actor.name)
        }
        (crate::action::ActionKind::Turn, _) => match info.heading_name() {
            Some(f) => format!("{verb} {} to face {f}", actor.name),
            None => view.plain_words(notation),
        },
        (crate::action::ActionKind::Attack, Some(place)) => {
            // The target the notation names, else whoever of the enemy the view shows there.
            let named: Vec<&str> = notation
                .split_whitespace()
                .skip(1)
                .filter_map(|w| view.unit(w))
                .filter(|u| u.side != actor.side)
                .map(|u| u.name.as_str())
                .collect();
            let targets: Vec<&str> = if named.is_empty() {
                view.units
                    .iter()
                    .filter(|u| u.side != actor.side && u.place == place)
                    .map(|u| u.name.as_str())
                    .collect()
            } else {
                named
            };
            let target = if targets.is_empty() {
                format!("the troops in {place}")
            } else {
                targets.join(" and ")
            };
            let range = match (view.map.grid, actor.place.hex(), place.hex()) {
                (crate::map::Grid::Hex, Some(a), Some(b)) => {
                    format!(" (range {})", crate::geometry::distance(a, b))
                }
                _ => String::new(),
            };
            format!("{verb} at {target} with {}{range}", actor.name)
        }
        _ => view.plain_words(notation),
    }
}

fn capitalised(verb: &str) -> String {
    let mut chars = verb.chars();
    chars.next().map_or_else(String::new, |first| {
        first
            .to_uppercase()
            .chain(chars)
            .collect::<String>()
            .replace('-', " ")
    })
}
