//! What a side may see. Rules v1.1 hides nothing, so every view shows the whole table.

use crate::state::{GridGame, Phase};
use crate::unit_data::Quality;
use crate::ID;
use volley_core::map::Grid;
use volley_core::view::{CommanderView, ObjectiveView, SideView, UnitView, View, Word};
use volley_core::{Place, Side};

impl GridGame {
    pub fn make_view(&self, viewer: Option<Side>) -> View {
        let grid = self.grid();
        let units = self
            .units
            .iter()
            .enumerate()
            .filter(|(_, u)| u.alive())
            .map(|(i, u)| {
                let mut flags: Vec<Word> = Vec::new();
                if grid == Grid::Square {
                    // The engine's facing is a hexside; square headings travel as a flag.
                    flags.push(format!("facing {}", u.heading.name(grid)).into());
                }
                if u.quality != Quality::Regular {
                    flags.push(u.quality.key().into());
                }
                let t = &u.turn;
                let own_turn = u.side == self.phasing();
                for (on, flag) in [
                    (own_turn && t.moving, "moved"),
                    (own_turn && t.fired, "fired"),
                    (own_turn && t.attacked, "attacked"),
                    (
                        own_turn && t.contact.is_some() && !t.attacked,
                        "must attack",
                    ),
                    (self.is_engaged(i), "engaged"),
                    (own_turn && !t.withdrew_from.is_empty(), "withdrew"),
                ] {
                    if on {
                        flags.push(flag.into());
                    }
                }
                UnitView {
                    id: u.id.clone(),
                    key: i as u32,
                    name: u.name.clone(),
                    side: u.side,
                    arm: u.kind.name().into(),
                    class: None,
                    symbol: u.kind.symbol(),
                    place: Place::Hex(u.tile),
                    facing: u.heading.facing(grid),
                    hits: (u.max_strength - u.strength) as u32,
                    max_hits: u.max_strength as u32,
                    te: 0,
                    max_te: 0,
                    strength: Some(u.strength as u32),
                    elements: None,
                    formation: None,
                    cone: Vec::new(),
                    flags,
                    commander: self
                        .commanders
                        .iter()
                        .find(|c| c.with == Some(i))
                        .map(|c| c.id.clone()),
                }
            })
            .collect();
        let sides = Side::BOTH
            .iter()
            .map(|&side| {
                let (lost, all) = self.losses(side);
                SideView {
                    side,
                    name: self.setup.side_names[side.index()].clone(),
                    losses_percent: if all == 0 {
                        0.0
                    } else {
                        100.0 * lost as f64 / all as f64
                    },
                    break_point: None,
                    score: self.score(side),
                    commanders: self
                        .commanders
                        .iter()
                        .filter(|c| c.side == side)
                        .map(|c| CommanderView {
                            id: c.id.clone(),
                            name: c.name.clone(),
                            value: 1,
                            supreme: false,
                            attached_to: c.with.map(|w| self.units[w].id.clone()),
                            status: if c.with.is_some() {
                                "attached"
                            } else {
                                "captured"
                            }
                            .into(),
                        })
                        .collect(),
                }
            })
            .collect();
        View {
            ruleset: ID.into(),
            scenario: self.setup.name.clone(),
            title: self.setup.title.clone(),
            viewer,
            turn: self.turn,
            turn_limit: self.setup.turn_limit,
            phase: self.phase_name().to_string(),
            phasing: self.outcome.is_none().then(|| self.phasing()),
            to_decide: self.decider(),
            prompt: self.prompt(),
            map: self.setup.map_view.clone(),
            sides,
            units,
            markers: Vec::new(),
            features: Vec::new(),
            objectives: self
                .setup
                .objectives
                .iter()
                .map(|o| ObjectiveView {
                    place: Place::Hex(o.tile),
                    name: ObjectiveView::goal_name(&o.name, o.goal_of, &self.setup.side_names),
                    points: o.points,
                    holder: self.objective_holder(o.tile),
                    goal_of: o.goal_of,
                    decisive: [false; 2],
                })
                .collect(),
            outcome: self.outcome.clone(),
            standing: self.outcome.is_none().then(|| self.standing()),
        }
    }

    /// What the side to decide is deciding, naming the side.
    fn prompt(&self) -> Option<String> {
        if self.outcome.is_some() {
            return None;
        }
        if let Some((attacker, cavalry)) = self.evade {
            let (a, c) = (&self.units[attacker], &self.units[cavalry]);
            return Some(format!(
                "{}: {} is attacked by {} — withdraw a tile or stand and take the attack (Close Combat 4)",
                c.side.title(), c.id, a.id
            ));
        }
        if let Some(u) = self.facing_choice {
            let u = &self.units[u];
            return Some(format!(
                "{}: {} moved beside more than one enemy — choose which to face (Movement Rules)",
                u.side.title(),
                u.id
            ));
        }
        let side = self.phasing();
        let what = match self.phase {
            Phase::Placement => {
                let (placed, all) = self.placed_count(side);
                format!(
                    "place a unit in your set-up rows ({placed} of {all} placed), or end to leave the rest where they stand"
                )
            }
            Phase::Movement => {
                let left = self.rolls[side.index()].saturating_sub(self.moved_units);
                format!(
                    "move up to {left} more unit{} (the initiative roll allows {}), turn them, or end the phase",
                    if left == 1 { "" } else { "s" },
                    self.rolls[side.index()]
                )
            }
            Phase::Ranged => "ranged attacks, each unit once".into(),
            Phase::CloseCombat => {
                "close combat: units in contact attack (those that moved into contact must)".into()
            }
            Phase::Advance => "occupy tiles the enemy left, or end".into(),
        };
        Some(format!("{}: {what}", side.title()))
    }
}
