//! Actions: packed into 64 bits, described in structured form for bots and clients, and
//! refused with a reason. The codec every ruleset packs and reads its orders with is in
//! [`crate::codec`].

use crate::geometry::Facing;
use crate::place::Place;
use serde::{Deserialize, Serialize};

/// An action, packed by its ruleset into 64 bits: cheap to copy, hash and compare in search.
/// Its text form (what `legal` prints and `apply` reads) comes from [`Game::notation`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Action(pub u64);

/// Why an action was refused. Nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Illegal(pub String);

impl Illegal {
    pub fn new(text: impl Into<String>) -> Illegal {
        Illegal(text.into())
    }
}

/// A rule's refusal of an order, for rulesets that write each check once and use it both to
/// apply an order and to list the legal ones: `apply` needs the sentence that says why (an
/// [`Illegal`]); a listing only needs to know that the order is refused, so there it is `()`
/// and the sentence is never written.
pub trait Refusal {
    fn because<S: Into<String>>(why: impl FnOnce() -> S) -> Self;
}

impl Refusal for Illegal {
    fn because<S: Into<String>>(why: impl FnOnce() -> S) -> Illegal {
        Illegal::new(why())
    }
}

impl Refusal for () {
    fn because<S: Into<String>>(_: impl FnOnce() -> S) {}
}

/// What kind of thing an action does, for bots and clients that must not read notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ActionKind {
    /// Ends the phase (or the decision) without doing anything more.
    End,
    /// Moves a unit to [`ActionInfo::place`].
    Move,
    /// Turns a unit to [`ActionInfo::facing`] where it stands.
    Turn,
    /// Attacks whatever is at [`ActionInfo::place`]: fire, melee, charge, close combat.
    Attack,
    /// Anything else: formation and limbering changes, orders, markers, answers to a prompt.
    Other,
}

/// An action described in structured form: what `notation` writes, without the text.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ActionInfo {
    /// The first word of the notation: `move`, `fire`, `end`, …
    pub verb: &'static str,
    pub kind: ActionKind,
    /// The acting unit's key ([`crate::view::UnitView::key`]), when one unit acts.
    pub unit: Option<u32>,
    /// Where the action goes or strikes, if anywhere.
    pub place: Option<Place>,
    /// The facing it leaves the unit in, when it sets one.
    pub facing: Option<Facing>,
    /// For a person at the table, when it differs from `unit`: the unit one selects to give
    /// the action (a headquarters giving an order to one of its units).
    pub by: Option<u32>,
    /// For a person at the table, when it differs from `place`: where the map marks the
    /// action (the unit an order goes to, the hex a brigade is sent to).
    pub mark: Option<Place>,
    /// The side it leaves the unit facing, by name, where that is not a hexside ([`Facing`]):
    /// a square's `N`, `E`, `S` or `W`.
    pub heading: Option<&'static str>,
}

impl ActionInfo {
    pub fn new(verb: &'static str, kind: ActionKind) -> ActionInfo {
        ActionInfo {
            verb,
            kind,
            unit: None,
            place: None,
            facing: None,
            by: None,
            mark: None,
            heading: None,
        }
    }

    pub fn end() -> ActionInfo {
        ActionInfo::new("end", ActionKind::End)
    }

    pub fn unit(mut self, key: u32) -> ActionInfo {
        self.unit = Some(key);
        self
    }

    pub fn at(mut self, place: impl Into<Place>) -> ActionInfo {
        self.place = Some(place.into());
        self
    }

    pub fn facing(mut self, facing: Facing) -> ActionInfo {
        self.facing = Some(facing);
        self
    }

    /// The unit a person selects to give the action (see [`ActionInfo::by`]).
    pub fn by(mut self, key: u32) -> ActionInfo {
        self.by = Some(key);
        self
    }

    /// Where the map marks the action (see [`ActionInfo::mark`]).
    pub fn marked(mut self, place: impl Into<Place>) -> ActionInfo {
        self.mark = Some(place.into());
        self
    }

    /// A heading by name (see [`ActionInfo::heading`]).
    pub fn heading(mut self, name: &'static str) -> ActionInfo {
        self.heading = Some(name);
        self
    }

    /// The unit a person selects to give the action: [`ActionInfo::by`], else the acting unit.
    pub fn selected(&self) -> Option<u32> {
        self.by.or(self.unit)
    }

    /// Where the map marks the action: [`ActionInfo::mark`], else [`ActionInfo::place`].
    pub fn marked_at(&self) -> Option<Place> {
        self.mark.or(self.place)
    }

    /// The side it leaves the unit facing, by name: a hexside, or a square's side.
    pub fn heading_name(&self) -> Option<&'static str> {
        self.heading.or(self.facing.map(Facing::name))
    }
}
