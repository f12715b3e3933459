//! What a player sees: the whole table (nothing is hidden in Stand and Die!), what the phasing
//! side is deciding, and each order described for bots and clients.

use crate::orders::Order;
use crate::state::{Phase, StandAndDieGame};
use crate::troops::{Arm, Unit, GUN_CASUALTIES};
use volley_core::view::{
    ElementKind, Elements, FeatureView, ObjectiveView, SideView, UnitView, Word,
};
use volley_core::{ActionInfo, ActionKind, Hex, Place, Side, View};

impl StandAndDieGame {
    /// The table as `viewer` sees it: every viewer sees all of it.
    pub fn view_for(&self, viewer: Option<Side>) -> View {
        View {
            ruleset: crate::ID.into(),
            scenario: self.setting.name.clone(),
            title: self.setting.title.clone(),
            viewer,
            turn: self.turn,
            turn_limit: self.setting.turn_limit,
            phase: self.phase_words(),
            phasing: self.phasing(),
            to_decide: self.phasing(),
            prompt: self.prompt(),
            map: self.setting.map_view.clone(),
            sides: Side::BOTH.into_iter().map(|s| self.side_view(s)).collect(),
            units: self
                .units
                .iter()
                .enumerate()
                .filter(|(_, u)| u.on_table())
                .map(|(k, u)| self.unit_view(k, u))
                .collect(),
            markers: Vec::new(),
            features: self
                .setting
                .boats
                .iter()
                .map(|&hex| FeatureView {
                    kind: "boats".into(),
                    place: Place::Hex(hex),
                    text: "boats are moored here: troops may cross the water".into(),
                    side: None,
                })
                .collect(),
            objectives: self
                .setting
                .objectives
                .iter()
                .map(|o| ObjectiveView {
                    place: Place::Hex(o.hex),
                    name: ObjectiveView::goal_name(&o.name, o.goal_of, &self.setting.side_names),
                    points: o.points,
                    holder: self.holder(o.hex),
                    goal_of: o.goal_of,
                    decisive: [false; 2],
                })
                .collect(),
            outcome: self.outcome.clone(),
            standing: self.outcome.is_none().then(|| self.standing()),
        }
    }

    fn side_view(&self, s: Side) -> SideView {
        SideView {
            side: s,
            name: self.setting.side_names[s.index()].clone(),
            losses_percent: if self.starting[s.index()] == 0 {
                0.0
            } else {
                100.0 * self.inflicted[s.other().index()] as f64 / self.starting[s.index()] as f64
            },
            break_point: None,
            score: self.score(s),
            commanders: Vec::new(),
        }
    }

    fn phase_words(&self) -> String {
        match self.phase {
            Phase::Setup => "setting up".into(),
            Phase::March(s) => format!("{} march", s.name()),
            Phase::Musketry(s) => format!("{} musketry", s.name()),
            Phase::Over => "game over".into(),
        }
    }

    fn unit_view(&self, key: usize, u: &Unit) -> UnitView {
        let mut flags: Vec<Word> = vec![if self.is_standing(u.hex) {
            "standing".into()
        } else {
            "falling back".into()
        }];
        if u.marched > 0 {
            flags.push("moved".into());
        }
        if self.fired_from.contains(&u.hex) && self.phasing() == Some(u.side) {
            flags.push("fired".into());
        }
        let artillery = u.arm == Arm::Artillery;
        UnitView {
            id: u.id.clone(),
            key: key as u32,
            name: u.name.clone(),
            side: u.side,
            arm: u.arm.name().into(),
            class: None,
            symbol: u.arm.symbol(),
            place: Place::Hex(u.hex),
            facing: Some(u.facing),
            hits: if artillery { u.gun_casualties } else { 0 },
            max_hits: if artillery { GUN_CASUALTIES } else { 0 },
            te: 0,
            max_te: 0,
            strength: Some(u.figures),
            elements: Some(Elements {
                kind: ElementKind::Figures,
                now: u.figures,
                full: u.starting_figures,
            }),
            formation: None,
            cone: Vec::new(),
            flags,
            commander: None,
        }
    }

    /// What the phasing side is deciding, naming the side.
    fn prompt(&self) -> Option<String> {
        Some(match self.phase {
            Phase::March(s) => format!(
                "{}: march (move, turn, mark hexes Standing or to fall back)",
                s.title()
            ),
            Phase::Musketry(s) => format!("{}: musketry (each hex fires once)", s.title()),
            Phase::Setup | Phase::Over => return None,
        })
    }

    /// What an order is, for bots and clients. Orders given to a hex are put down to the
    /// first unit in it.
    pub fn describe_order(&self, order: Order) -> ActionInfo {
        let first_in = |hex: Hex| self.troops_in(hex).next().map(|(i, _)| i as u32);
        let by_hex = |info: ActionInfo, hex: Hex| match first_in(hex) {
            Some(k) => info.unit(k),
            None => info,
        };
        match order {
            Order::End => ActionInfo::end(),
            Order::Move { unit, to } => ActionInfo::new("move", ActionKind::Move)
                .unit(unit as u32)
                .at(to),
            Order::Face { unit, facing } => ActionInfo::new("face", ActionKind::Turn)
                .unit(unit as u32)
                .facing(facing),
            Order::Stand { hex } => by_hex(ActionInfo::new("stand", ActionKind::Other), hex),
            Order::FallBack { hex } => by_hex(ActionInfo::new("fall-back", ActionKind::Other), hex),
            Order::Fire { from, at } => {
                by_hex(ActionInfo::new("fire", ActionKind::Attack).at(at), from)
            }
        }
    }
}
