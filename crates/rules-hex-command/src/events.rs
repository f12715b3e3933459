//! Building events: every one cites its section of the rulebook.

use crate::state::State;
use volley_core::{Event, Seen};

/// An event citing `hex-command SECTION`, for a section known only at run time.
pub fn ev_at(kind: &'static str, section: &str, text: impl Into<String>) -> Event {
    Event::new(kind, format!("hex-command {section}"), text)
}

/// An event citing `hex-command SECTION`, the section written in place (the rule reference is
/// then made when the code is compiled, not each time).
macro_rules! ev {
    ($kind:literal, $section:literal, $text:expr $(,)?) => {
        volley_core::Event::new($kind, concat!("hex-command ", $section), $text)
    };
}
pub(crate) use ev;

/// Who may see an event about unit `u`: everyone, unless the unit is hidden from the enemy.
pub fn seen_for(s: &State, u: usize) -> Seen {
    let unit = &s.units[u];
    if unit.seen && unit.arm.is_real() {
        Seen::Both
    } else {
        Seen::only(unit.side)
    }
}
