//! What one side may see: the shape every ruleset fills and every client draws.

use crate::game::{Outcome, Side};
use crate::geometry::Facing;
use crate::map::MapView;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct View {
    pub ruleset: String,
    pub scenario: String,
    pub title: String,
    /// The side this view is for; `None` for the full (referee) view.
    pub viewer: Option<Side>,
    pub turn: u32,
    pub turn_limit: u32,
    /// The phase now, in words ("Red movement", "Blue fire").
    pub phase: String,
    pub phasing: Option<Side>,
    pub to_decide: Option<Side>,
    pub map: MapView,
    pub sides: Vec<SideView>,
    pub units: Vec<UnitView>,
    /// Enemy units not seen, shown only as unidentified markers (some of them decoys).
    pub markers: Vec<MarkerView>,
    pub objectives: Vec<ObjectiveView>,
    pub outcome: Option<Outcome>,
}

impl View {
    pub fn unit(&self, id: &str) -> Option<&UnitView> {
        self.units.iter().find(|u| u.id == id)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SideView {
    pub side: Side,
    pub name: String,
    /// Share of the starting strength lost (with any per-commander additions), in percent.
    pub losses_percent: f64,
    /// The break point in percent, when the ruleset has one.
    pub break_point: Option<f64>,
    pub score: i32,
    pub commanders: Vec<CommanderView>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CommanderView {
    pub id: String,
    pub name: String,
    /// Combat value added to fire and melee.
    pub value: i32,
    pub supreme: bool,
    /// The unit it is attached to, if that unit can be seen.
    pub attached_to: Option<String>,
    /// `ready`, `attached`, `killed` or `captured`.
    pub status: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnitView {
    pub id: String,
    pub name: String,
    pub side: Side,
    /// `infantry`, `light infantry`, `skirmishers`, `cavalry`, `artillery`, `wagon`, …
    pub arm: String,
    /// Weapon class or other qualifier ("A", "B", "heavy B"), if any.
    pub class: Option<String>,
    /// One character for text maps: I, L, K, C, A, W…
    pub symbol: char,
    pub hex: String,
    pub facing: Option<Facing>,
    pub hits: u32,
    pub max_hits: u32,
    pub te: u32,
    pub max_te: u32,
    /// Figures or strength points left, for rulesets that count them.
    pub strength: Option<u32>,
    /// Conditions: `routed`, `fatigued`, `fired`, `limbered`, `in melee`, `standing`, …
    pub flags: Vec<String>,
    pub commander: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MarkerView {
    /// An opaque marker id that says nothing about the unit under it.
    pub id: String,
    pub side: Side,
    pub hex: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ObjectiveView {
    pub hex: String,
    pub name: String,
    pub points: i32,
    pub holder: Option<Side>,
}
