//! The legal actions of a position as a client shows them ([`Choice`]): the notation to send
//! back as it is, what the action is, the unit a person selects to give it, where the map
//! marks it, the facing it sets, whether dice decide it, and a label in plain words. A client
//! renders these and never reads notation.

use crate::action::{Action, ActionKind};
use crate::game::Game;
use crate::name::Name;
use crate::place::Place;
use crate::side::Side;
use crate::view::View;
use serde::Serialize;

/// One legal action, described for a client: the API's `described` list.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Choice {
    /// The notation, to send back unchanged when the action is chosen.
    #[serde(rename = "action")]
    pub text: String,
    /// The notation's first word (`move`, `fire`, `end`).
    pub verb: &'static str,
    pub kind: ActionKind,
    /// The id of the unit a person selects to give it, if one.
    pub unit: Option<Name>,
    /// Where the map marks it, if anywhere (a place as the view gives places).
    #[serde(rename = "target")]
    pub place: Option<Place>,
    /// The side it leaves the unit facing, by name, when it sets one.
    pub facing: Option<&'static str>,
    /// Whether dice decide what it does (a person is shown the odds first).
    #[serde(rename = "dice")]
    pub rolls: bool,
    /// The action in plain words.
    pub label: String,
}

/// The legal actions of `side`, described ([`Choice`]); empty unless `side` decides now.
pub fn choices(game: &dyn Game, side: Side) -> Vec<Choice> {
    if game.to_decide() != Some(side) {
        return Vec::new();
    }
    let view = game.view(Some(side));
    game.legal_actions()
        .into_iter()
        .map(|a| choice(game, a, &view))
        .collect()
}

/// One action described, against the deciding side's `view`.
pub fn choice(game: &dyn Game, action: Action, view: &View) -> Choice {
    let info = game.describe(action);
    let id = |key: u32| {
        view.units
            .iter()
            .find(|u| u.key == key)
            .map(|u| u.id.clone())
    };
    Choice {
        text: game.notation(action),
        verb: info.verb,
        kind: info.kind,
        unit: info.selected().and_then(id),
        place: info.marked_at(),
        facing: info.heading_name(),
        rolls: game.rolls(action),
        label: end_named(info.kind, game.label(action, view), view),
    }
}

/// An end whose label is the bare "End" names the phase it ends, so that nobody ends a phase
/// they did not mean to.
fn end_named(kind: ActionKind, label: String, view: &View) -> String {
    if kind == ActionKind::End && label == "End" && !view.phase.is_empty() {
        format!("End the phase: {}", view.phase.trim_end_matches('.'))
    } else {
        label
    }
}
