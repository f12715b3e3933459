//! Building events: every one cites its section of the rulebook.

use crate::state::State;
use volley_core::{Event, Seen};

/// An event citing `hex-command SECTION`.
pub fn ev(kind: &'static str, section: &str, text: impl Into<String>) -> Event {
    Event::new(kind, format!("hex-command {section}"), text)
}

/// Who may see an event about unit `u`: everyone, unless the unit is hidden from the enemy.
pub fn seen_for(s: &State, u: usize) -> Seen {
    let unit = &s.units[u];
    if unit.seen && unit.arm.is_real() {
        Seen::Both
    } else {
        Seen::only(unit.side)
    }
}
