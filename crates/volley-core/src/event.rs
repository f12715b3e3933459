//! What happened: events with the rule they came from, who may see them, and the log a
//! ruleset writes them into.

use crate::name::{Name, Word};
use crate::side::Side;
use serde::{Deserialize, Serialize};

/// Who may see an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Seen {
    Both,
    Red,
    Blue,
}

impl Seen {
    pub fn by(self, side: Side) -> bool {
        match self {
            Seen::Both => true,
            Seen::Red => side == Side::Red,
            Seen::Blue => side == Side::Blue,
        }
    }

    pub fn only(side: Side) -> Seen {
        match side {
            Side::Red => Seen::Red,
            Side::Blue => Seen::Blue,
        }
    }
}

/// Something that happened, with the rule it came from and the numbers that decided it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// A short machine-readable kind: `move`, `fire`, `hit`, `rout`, `melee`, `phase`, …
    pub kind: Word,
    /// Ruleset and section, e.g. `hex-command 7.5`.
    pub rule: Word,
    /// A sentence for people, with the numbers: range, band, modifiers, roll, result.
    pub text: String,
    /// The side that acted or the side the event concerns, if any.
    pub side: Option<Side>,
    /// Ids of the units involved (for highlighting on the map).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub units: Vec<Name>,
    /// Who may see it: hidden units' doings are shown only to their owner.
    pub seen: Seen,
    /// The first event of a new game turn (its initiative roll, say): the log stamps it, and
    /// what follows it, with the new turn, and what came before it with the old one.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub opens_turn: bool,
}

impl Event {
    pub fn new(kind: &'static str, rule: impl Into<Word>, text: impl Into<String>) -> Event {
        Event {
            kind: kind.into(),
            rule: rule.into(),
            text: text.into(),
            side: None,
            units: Vec::new(),
            seen: Seen::Both,
            opens_turn: false,
        }
    }

    /// Marks the first event of a new game turn (see [`Event::opens_turn`]).
    pub fn opens_turn(mut self) -> Event {
        self.opens_turn = true;
        self
    }

    pub fn side(mut self, side: Side) -> Event {
        self.side = Some(side);
        self
    }

    pub fn units<I: IntoIterator>(mut self, ids: I) -> Event
    where
        I::Item: Into<Name>,
    {
        self.units.extend(ids.into_iter().map(Into::into));
        self
    }

    pub fn seen(mut self, seen: Seen) -> Event {
        self.seen = seen;
        self
    }
}

/// Where a ruleset writes the events of an action: kept for the log, or — in search, through
/// [`Game::apply_unchecked`] — dropped without ever being built. Events are handed over as
/// closures, so a dropped event costs no formatting at all.
#[derive(Debug, Default)]
pub struct Log {
    events: Vec<Event>,
    silent: bool,
}

impl Log {
    /// A log that keeps every event.
    pub fn new() -> Log {
        Log::default()
    }

    /// A log that builds and keeps nothing.
    pub fn silent() -> Log {
        Log {
            events: Vec::new(),
            silent: true,
        }
    }

    /// Writes the event `make` builds, unless this log is silent.
    #[inline]
    pub fn add(&mut self, make: impl FnOnce() -> Event) {
        if !self.silent {
            self.events.push(make());
        }
    }

    /// Whether events are being kept (a ruleset may skip work done only to describe).
    pub fn keeps(&self) -> bool {
        !self.silent
    }

    /// The events kept so far.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    pub fn into_events(self) -> Vec<Event> {
        self.events
    }
}
