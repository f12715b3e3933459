//! The legal actions of a position as a client shows them ([`Choice`]): the notation to send
//! back as it is, what the action is, the unit a person selects to give it, where the map
//! marks it, the facing it sets, whether dice decide it, and a label in plain words. A client
//! renders these and never reads notation.

use crate::action::{Action, ActionInfo, ActionKind};
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

/// An action in plain words from what it is ([`ActionInfo`]) and the deciding side's view:
/// who acts and where it goes or strikes, by name, with the range of an attack on a hex map
/// ("Fire at T-34, 1st with Panzer IV, 1st (range 2)", "Move 1st Line to 0705"). What the
/// description does not say is worded from the notation with names for ids
/// ([`View::plain_words`]).
pub fn words(info: &ActionInfo, notation: &str, view: &View) -> String {
    let verb = capitalised(info.verb);
    let actor = info.unit.and_then(|k| view.unit_by_key(k));
    let Some(actor) = actor else {
        // Who acts is not a unit on the map (an aircraft, a battery off the table): the
        // notation in words, and whom it strikes by name.
        let words = view.plain_words(notation);
        return match (info.kind, info.place) {
            (ActionKind::Attack, Some(place)) => {
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
        (ActionKind::Move, Some(place)) => {
            let facing = info
                .heading_name()
                .map(|f| format!(", facing {f}"))
                .unwrap_or_default();
            format!("{verb} {} to {place}{facing}", actor.name)
        }
        (ActionKind::Turn, _) => match info.heading_name() {
            Some(f) => format!("{verb} {} to face {f}", actor.name),
            None => view.plain_words(notation),
        },
        (ActionKind::Attack, Some(place)) => {
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
