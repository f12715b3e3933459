//! What a side may see. Rules v1.1 hides nothing, so every view shows the whole table.

use crate::game::GridGame;
use crate::ID;
use volley_core::geometry::label;
use volley_core::map::Grid;
use volley_core::view::{CommanderView, ObjectiveView, SideView, UnitView, View};
use volley_core::Side;

impl GridGame {
    pub fn make_view(&self, viewer: Option<Side>) -> View {
        let grid = self.grid();
        let units = self
            .units
            .iter()
            .enumerate()
            .filter(|(_, u)| u.alive())
            .map(|(i, u)| {
                let mut flags = Vec::new();
                if grid == Grid::Square {
                    // The engine's facing is a hexside; square headings travel as a flag.
                    flags.push(format!("facing {}", u.heading.name(grid)));
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
                    (!self.engaged_with(i).is_empty(), "engaged"),
                    (own_turn && !t.withdrew_from.is_empty(), "withdrew"),
                ] {
                    if on {
                        flags.push(flag.to_string());
                    }
                }
                UnitView {
                    id: u.id.clone(),
                    name: u.name.clone(),
                    side: u.side,
                    arm: u.kind.name().to_string(),
                    class: None,
                    symbol: u.kind.symbol(),
                    hex: label(u.tile),
                    facing: u.heading.facing(grid),
                    hits: (u.max_strength - u.strength) as u32,
                    max_hits: u.max_strength as u32,
                    te: 0,
                    max_te: 0,
                    strength: Some(u.strength as u32),
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
                            .to_string(),
                        })
                        .collect(),
                }
            })
            .collect();
        View {
            ruleset: ID.to_string(),
            scenario: self.setup.name.clone(),
            title: self.setup.title.clone(),
            viewer,
            turn: self.turn,
            turn_limit: self.setup.turn_limit,
            phase: self.phase_name(),
            phasing: self.outcome.is_none().then(|| self.phasing()),
            to_decide: volley_core::Game::to_decide(self),
            map: self.map().to_view(),
            sides,
            units,
            markers: Vec::new(),
            objectives: self
                .setup
                .objectives
                .iter()
                .map(|o| ObjectiveView {
                    hex: label(o.tile),
                    name: o.name.clone(),
                    points: o.points,
                    holder: self.objective_holder(o.tile),
                })
                .collect(),
            outcome: self.outcome.clone(),
        }
    }
}
