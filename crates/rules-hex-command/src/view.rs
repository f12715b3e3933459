//! What each side sees: the whole position for its own units, seen enemies in full, and
//! unseen enemies (and decoy plates) only as unidentified markers.

use crate::state::*;
use crate::units::Arm;
use volley_core::view::{CommanderView, FeatureView, ObjectiveView, SideView, UnitView, Word};
use volley_core::{Place, Side, View};

/// The prompt as `viewer` may read it: one that names a unit `viewer` cannot see (the enemy
/// rallying a unit under its marker, say) says only who decides.
pub fn prompt_for(s: &State, prompt: String, viewer: Option<Side>) -> String {
    let Some(v) = viewer else { return prompt };
    let names_unseen = s.units.iter().enumerate().any(|(i, u)| {
        !s.visible_to(i, v)
            && prompt
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .any(|w| w == u.id.as_str())
    });
    match crate::legal::decider(s) {
        Some(side) if names_unseen => {
            format!("{}: a decision about a unit you cannot see", side.title())
        }
        _ => prompt,
    }
}

/// What the side to decide is deciding, naming the side.
fn prompt(s: &State) -> Option<String> {
    let side = crate::legal::decider(s)?.title();
    let p = s.phasing();
    Some(match s.phase {
        Phase::Orders => {
            format!("{side}: write new orders for your brigades, or end to keep them (2.2.1)")
        }
        Phase::Movement => format!("{side}: move (attach commanders, move, turn, limber)"),
        Phase::Fire => match s.fire_rounds.get(s.fire_round as usize) {
            Some(r) if r.side != p => {
                format!("{side}: fire at {p}'s units before they fire (non-phasing fire)")
            }
            _ => format!("{side}: fire"),
        },
        Phase::Decision => crate::sequence::decision_prompt(s, s.decisions.first()?),
        Phase::Withdrawal => format!(
            "{side}: move the units that fall back from the arrival's entry hexes, two moves (4 b)"
        ),
        Phase::Melee => format!("{side}: declare melees"),
        Phase::Advance => {
            let a = s.advances.first()?;
            if a.may_move {
                format!(
                    "{side}: {} won its melee: advance into {} or hold, and choose its facing (7.4)",
                    s.units[a.unit].id,
                    Place::Hex(a.into)
                )
            } else {
                format!(
                    "{side}: {} won its melee: choose its facing (7.4)",
                    s.units[a.unit].id
                )
            }
        }
        Phase::Over => return None,
    })
}

fn unit_view(s: &State, i: usize) -> UnitView {
    let u = &s.units[i];
    let mut flags: Vec<Word> = Vec::new();
    if u.routed {
        flags.push("routed".into());
    }
    if u.fatigued() {
        flags.push("fatigued".into());
    }
    if u.fired_phase || u.fired_turn {
        flags.push("fired".into());
    }
    if u.arm == Arm::Artillery && u.limbered {
        flags.push("limbered".into());
    }
    if s.in_melee(i) {
        flags.push("in melee".into());
    }
    if let Some(g) = u.guns {
        flags.push(if g.taken {
            format!("guns captured at {}", Place::Hex(g.at)).into()
        } else {
            format!("guns abandoned at {}", Place::Hex(g.at)).into()
        });
    }
    if !u.seen && u.arm.is_real() && s.settings().hidden {
        flags.push("hidden".into());
    }
    if u.moved_this_turn {
        flags.push("moved".into());
    }
    let class: Option<Word> = match u.arm {
        Arm::Artillery if u.heavy => Some(format!("heavy {}", u.class.name()).into()),
        Arm::Artillery | Arm::Infantry | Arm::LightInfantry | Arm::Skirmishers => {
            Some(u.class.name().into())
        }
        Arm::Cavalry if u.carbines => Some("carbines".into()),
        _ => None,
    };
    UnitView {
        id: u.id.clone(),
        key: i as u32,
        name: u.name.clone(),
        side: u.side,
        arm: u.arm.name().into(),
        class,
        symbol: u.arm.symbol(),
        place: Place::Hex(u.hex),
        facing: Some(u.facing),
        hits: u.hits as u32,
        max_hits: u.max_hits() as u32,
        te: u.te as u32,
        max_te: 3,
        strength: None,
        elements: None,
        formation: None,
        cone: Vec::new(),
        flags,
        commander: u.commander.map(|c| s.commanders[c].name.clone()),
    }
}

pub fn view(s: &State, viewer: Option<Side>) -> View {
    let sees = |i: usize| viewer.is_none_or(|v| s.visible_to(i, v));
    let mut units = Vec::new();
    let mut marker_hexes: Vec<(volley_core::Hex, Side)> = Vec::new();
    for (i, u) in s.units.iter().enumerate() {
        if !u.active() {
            continue;
        }
        if sees(i) {
            units.push(unit_view(s, i));
        } else {
            marker_hexes.push((u.hex, u.side));
        }
    }
    let markers = hex_command_family::markers::marker_views(marker_hexes);
    let sides = Side::BOTH
        .into_iter()
        .map(|side| SideView {
            side,
            name: s.sides[side.index()].name.clone(),
            losses_percent: s.losses_percent(side),
            break_point: Some(s.sides[side.index()].break_point),
            score: crate::sequence::score(s, side),
            commanders: s
                .commanders
                .iter()
                .enumerate()
                .filter(|(_, c)| c.side == side)
                .map(|(k, c)| CommanderView {
                    id: c.id.clone(),
                    name: c.name.clone(),
                    value: c.value,
                    supreme: c.supreme,
                    // Only a unit the view shows: one the viewer sees and still on the map.
                    attached_to: s.posts.at[k]
                        .filter(|&u| s.units[u].active() && sees(u))
                        .map(|u| s.units[u].id.clone()),
                    status: match (s.posts.fallen[k], s.posts.at[k]) {
                        (Some(f), _) => f.name(),
                        (None, Some(_)) => "attached",
                        (None, None) => "ready",
                    }
                    .into(),
                })
                .collect(),
        })
        .collect();
    let over = s.phase == Phase::Over;
    View {
        ruleset: "hex-command".into(),
        scenario: s.setup.name.clone(),
        title: s.setup.title.clone(),
        viewer,
        turn: s.turn,
        turn_limit: s.setup.turn_limit,
        phase: s.phase_name(),
        phasing: (!over).then(|| s.phasing()),
        to_decide: crate::legal::decider(s),
        prompt: prompt(s).map(|p| prompt_for(s, p, viewer)),
        map: s.setup.map_view.clone(),
        sides,
        units,
        markers,
        features: features(s, viewer),
        objectives: s
            .objectives
            .iter()
            .map(|o| ObjectiveView {
                place: Place::Hex(o.hex),
                name: ObjectiveView::goal_name(
                    &o.name,
                    o.goal_of,
                    &[s.sides[0].name.clone(), s.sides[1].name.clone()],
                ),
                points: o.points,
                holder: viewer.map_or(o.holder, |v| o.known[v.index()]),
                goal_of: o.goal_of,
                decisive: [false; 2],
            })
            .collect(),
        outcome: s.outcome.clone(),
        standing: None,
    }
}

/// Works on the map, abandoned and captured guns, and (to their own side) couriers riding.
fn features(s: &State, viewer: Option<Side>) -> Vec<FeatureView> {
    let mut out: Vec<FeatureView> = s
        .works
        .0
        .iter()
        .map(|w| FeatureView {
            kind: w.kind.name().into(),
            place: Place::Hex(w.hex),
            text: w.text(),
            side: (w.kind != hex_command_family::ground::WorkKind::Fort).then_some(w.side),
        })
        .collect();
    for (i, u) in s.units.iter().enumerate().filter(|(_, u)| u.active()) {
        if let Some(g) = u.guns {
            // The crew is named only to a side that sees it: a crew back under its marker
            // leaves guns that anyone can see, but not whose they are.
            let guns = if viewer.is_none_or(|v| s.visible_to(i, v)) {
                format!("{}'s guns", u.id)
            } else {
                "guns".to_string()
            };
            out.push(FeatureView {
                kind: "guns".into(),
                place: Place::Hex(g.at),
                text: if g.taken {
                    format!("{guns}, in enemy hands ({} shots left)", g.shots)
                } else {
                    format!("{guns}, abandoned")
                },
                side: Some(u.side),
            });
        }
    }
    for c in s
        .couriers
        .iter()
        .filter(|c| viewer.is_none_or(|v| v == c.side))
    {
        out.push(FeatureView {
            kind: "courier".into(),
            place: Place::Hex(c.hex),
            text: format!(
                "a courier carrying {} to {}",
                c.order.text(),
                s.brigades[c.brigade].name
            ),
            side: Some(c.side),
        });
    }
    out
}
