//! What a side sees. Mechanized hides a squad's anti-tank weapons from the enemy until they
//! fire at a vehicle (M4, M80), hidden units (M78) and, with the option, damage blocks;
//! with decoys on the table hidden units show as markers among them (M77); aircraft in the
//! air are shown where they fly (M69).

use crate::hidden;
use crate::items::Kind;
use crate::reinforce;
use crate::state::{Fallen, State, Step};
use crate::victory;
use crate::ID;
use volley_core::view::{
    CommanderView, ElementKind, Elements, FeatureView, ObjectiveView, SideView, UnitView, View,
    Word,
};
use volley_core::{Place, Side};

pub fn make_view(s: &State, viewer: Option<Side>) -> View {
    let units = (0..s.items.len())
        .filter(|&i| {
            (s.in_play(i) || (s.aboard(i).is_some() && !s.turn_state[i].gone))
                && viewer.is_none_or(|v| hidden::visible_to(s, i, v))
        })
        .map(|i| unit_view(s, i, viewer))
        .collect();
    let sides = Side::BOTH
        .iter()
        .map(|&side| side_view(s, side, viewer))
        .collect();
    View {
        ruleset: ID.into(),
        scenario: s.setup.name.clone(),
        title: s.setup.title.clone(),
        viewer,
        turn: s.turn,
        turn_limit: s.setup.turn_limit,
        phase: s.step_name().to_string(),
        phasing: s.outcome.is_none().then(|| s.phasing()),
        to_decide: s.to_decide(),
        prompt: prompt(s),
        map: s.setup.map_view.clone(),
        sides,
        units,
        markers: markers(s, viewer),
        features: features(s, viewer),
        objectives: s
            .objectives
            .iter()
            .map(|o| ObjectiveView {
                place: Place::Hex(o.hex),
                name: ObjectiveView::goal_name(&o.name, o.goal_of, &s.setup.side_names),
                points: o.points,
                holder: victory::holder_seen_by(s, o.hex, viewer),
                goal_of: o.goal_of,
                decisive: [false; 2],
            })
            .collect(),
        outcome: s.outcome.clone(),
        standing: s.outcome.is_none().then(|| victory::standing(s, viewer)),
    }
}

/// An item as the viewer sees it: what it is, its hits, and the flags of its state.
fn unit_view(s: &State, i: usize, viewer: Option<Side>) -> UnitView {
    let it = s.item(i);
    let t = &s.turn_state[i];
    let mut flags: Vec<Word> = Vec::new();
    if t.routed {
        flags.push("routed".into());
    }
    if t.hidden {
        flags.push("hidden".into());
    }
    if let Some(v) = t.aboard {
        flags.push(format!("aboard {}", s.item(v).id).into());
    }
    let own = viewer.is_none() || viewer == Some(it.side);
    let piece = piece(s, i, own, &mut flags);
    if s.panicked[it.side.index()] && s.outcome.is_none() {
        flags.push("panicked".into());
    }
    if it.side == s.deciding() && s.outcome.is_none() {
        match s.step {
            Step::Movement if t.moving => flags.push("moved".into()),
            Step::DefensiveFire | Step::OffensiveFire if t.fired > 0 => flags.push("fired".into()),
            Step::Melee if t.meleed => flags.push("meleed".into()),
            _ => {}
        }
    }
    UnitView {
        id: it.id.clone(),
        key: i as u32,
        name: it.name.clone(),
        side: it.side,
        arm: piece.arm,
        class: piece.class,
        symbol: piece.symbol,
        place: Place::Hex(it.hex),
        facing: Some(it.facing),
        hits: piece.hits,
        max_hits: piece.max_hits,
        te: 0,
        max_te: 0,
        strength: piece.elements.as_ref().map(|e| e.now),
        elements: piece.elements,
        formation: None,
        cone: Vec::new(),
        flags,
        commander: s.commander_with(i).map(|c| s.commanders[c].id.clone()),
    }
}

/// What a piece is on the counter: its arm and class, the symbol, its hits (a squad's markers,
/// a vehicle's damage blocks) and a squad's figures.
struct Piece {
    arm: Word,
    class: Option<Word>,
    symbol: char,
    hits: u32,
    max_hits: u32,
    elements: Option<Elements>,
}

/// The piece item `i` is, adding its weapons and damage to `flags`: a squad's AT weapons show
/// to the enemy only once they have fired at a vehicle (M4, M80), and with option
/// `hidden_damage` only the owner sees a vehicle's blocks.
fn piece(s: &State, i: usize, own: bool, flags: &mut Vec<Word>) -> Piece {
    match &s.item(i).kind {
        Kind::Squad(sq) => {
            if sq.at && (own || s.revealed_at[i]) {
                flags.push("AT".into());
            }
            for (on, f) in [
                (sq.smg, "SMG"),
                (sq.engineer, "engineer"),
                (sq.cavalry, "cavalry"),
            ] {
                if on {
                    flags.push(f.into());
                }
            }
            Piece {
                arm: "infantry".into(),
                class: sq.weight.map(|w| Word::from(w.name())),
                symbol: 'I',
                hits: sq.markers as u32,
                max_hits: 2,
                elements: Some(Elements {
                    kind: ElementKind::Figures,
                    now: sq.figures as u32,
                    full: 4,
                }),
            }
        }
        Kind::Vehicle { spec, damage, .. } => {
            let blank = crate::damage::Damage::default();
            let damage = if own || !s.setup.settings.hidden_damage {
                damage
            } else {
                &blank
            };
            for (n, c) in [
                (damage.combat, "C"),
                (damage.defence, "D"),
                (damage.movement, "M"),
            ] {
                if n > 0 {
                    flags.push(c.repeat(n as usize).into());
                }
            }
            Piece {
                arm: Word::from(if spec.gun.is_some() {
                    "armour"
                } else {
                    "transport"
                }),
                class: Some(Word::from(spec.chassis.name())),
                symbol: 'V',
                hits: (damage.combat + damage.defence + damage.movement) as u32,
                max_hits: 6,
                elements: None,
            }
        }
        Kind::Gun { weight, .. } => Piece {
            arm: "gun".into(),
            class: Some(Word::from(weight.name())),
            symbol: 'G',
            hits: 0,
            max_hits: 0,
            elements: None,
        },
    }
}

/// A side as the viewer sees it: its losses against its break point, the objective points it
/// holds as far as the viewer knows, and its commanders (where one stands is named only by an
/// item the viewer sees).
fn side_view(s: &State, side: Side, viewer: Option<Side>) -> SideView {
    SideView {
        side,
        name: s.setup.side_names[side.index()].clone(),
        losses_percent: victory::loss_percent(s, side),
        break_point: Some(s.sides[side.index()].break_point as f64),
        score: victory::objective_points_seen_by(s, side, viewer),
        commanders: (0..s.commanders.len())
            .filter(|&c| s.commanders[c].side == side)
            .map(|c| {
                let cm = &s.commanders[c];
                CommanderView {
                    id: cm.id.clone(),
                    name: cm.name.clone(),
                    value: cm.value,
                    supreme: cm.supreme,
                    attached_to: s.posts.at[c]
                        .and_then(|h| {
                            s.items_at(h)
                                .find(|&i| viewer.is_none_or(|v| hidden::visible_to(s, i, v)))
                        })
                        .map(|i| s.item(i).id.clone()),
                    status: match (s.posts.fallen[c], s.posts.at[c]) {
                        (Some(Fallen::Killed), _) => "killed",
                        (Some(Fallen::Captured), _) => "captured",
                        (None, Some(_)) => "attached",
                        (None, None) => "ready",
                    }
                    .into(),
                }
            })
            .collect(),
    }
}

/// The markers on the table (M77, with decoys in the scenario): every decoy, and the
/// hidden units the viewer's enemy keeps from it.
fn markers(s: &State, viewer: Option<Side>) -> Vec<volley_core::view::MarkerView> {
    let mut hexes: Vec<(volley_core::Hex, Side)> =
        s.decoys.iter().map(|d| (d.hex, d.side)).collect();
    if s.setup.markers {
        hexes.extend(
            (0..s.items.len())
                .filter(|&i| s.in_play(i) && viewer.is_some_and(|v| !hidden::visible_to(s, i, v)))
                .map(|i| (s.item(i).hex, s.item(i).side)),
        );
    }
    hex_command_family::markers::marker_views(hexes)
}

/// Works for everyone; minefields for the side that laid them, and for both once found.
fn features(s: &State, viewer: Option<Side>) -> Vec<FeatureView> {
    let works = s.works.0.iter().map(|w| FeatureView {
        kind: "works".into(),
        place: Place::Hex(w.hex),
        text: if w.kind == hex_command_family::ground::WorkKind::Pontoon {
            format!("bridge at {} (M66)", volley_core::geometry::label(w.hex))
        } else if w.standing() {
            format!("works at {} (M64)", volley_core::geometry::label(w.hex))
        } else {
            format!(
                "works at {}, battered to rubble (M101)",
                volley_core::geometry::label(w.hex)
            )
        },
        side: None,
    });
    let mines = s
        .minefields
        .iter()
        .filter(|m| m.known || viewer.is_none_or(|v| v == m.side))
        .map(|m| FeatureView {
            kind: "minefield".into(),
            place: Place::Hex(m.hex),
            text: format!(
                "{}'s minefield at {}{} (M65)",
                m.side,
                volley_core::geometry::label(m.hex),
                if m.known {
                    ""
                } else {
                    ", not yet found by the enemy"
                }
            ),
            side: Some(m.side),
        });
    let sound = s
        .sound
        .iter()
        .filter(|(side, _, _)| viewer.is_none_or(|v| v != *side))
        .flat_map(|(side, _, area)| {
            area.iter().map(move |&h| FeatureView {
                kind: "sound ranging".into(),
                place: Place::Hex(h),
                text: format!("a hidden {side} gun fired from somewhere in this area (M79)"),
                side: Some(*side),
            })
        });
    // A side knows which of its own markers are decoys.
    let decoys = s
        .decoys
        .iter()
        .filter(move |d| viewer.is_none_or(|v| v == d.side))
        .map(|d| FeatureView {
            kind: "decoy".into(),
            place: Place::Hex(d.hex),
            text: format!(
                "a {} decoy marker at {} (M77)",
                d.side,
                volley_core::geometry::label(d.hex)
            ),
            side: Some(d.side),
        });
    // Aircraft in the air (M69), seen by all.
    let aircraft = s.aircraft.iter().filter_map(|a| {
        Some(FeatureView {
            kind: "aircraft".into(),
            place: Place::Hex(a.at?),
            text: format!(
                "aircraft {} ({}, {}{}) heading {} (M69)",
                a.id,
                a.name,
                a.weight.name(),
                if a.superior { ", Superior" } else { "" },
                a.facing.name()
            ),
            side: Some(a.side),
        })
    });
    works
        .chain(mines)
        .chain(sound)
        .chain(decoys)
        .chain(aircraft)
        .collect()
}

fn prompt(s: &State) -> Option<String> {
    if s.outcome.is_some() || !s.started {
        return None;
    }
    let side = s.deciding();
    if let Some(b) = &s.blocking {
        return Some(reinforce::blocking_prompt(s, b));
    }
    let what = match s.step {
        Step::Movement => "move and turn your units, one at a time, then end",
        Step::Command => "place your commanders with your units, one a hex, then end",
        Step::DefensiveFire => {
            "fire at the enemy that moved (each unit once; light guns twice), then end"
        }
        Step::OffensiveFire => "fire (each unit once; light guns twice), then end",
        Step::Melee => "start melees against enemies in your units' front hexes, then end",
    };
    Some(format!("{}: {what}", side.title()))
}
