//! Rally Up (M124): squads of the phasing side with a commander rally up at the end of its
//! turn. Routing itself and the routed run (M120–M123) are what a loss does, in
//! [`crate::effects`].

use crate::rule;
use crate::state::State;
use volley_core::{Event, Log};

/// M124: every squad of the phasing side with a commander regains a figure and loses a
/// marker; a routed one rallies.
pub fn rally_up(s: &mut State, log: &mut Log) {
    let side = s.phasing();
    for i in 0..s.items.len() {
        if !s.in_play(i) || s.item(i).side != side || !s.active(i) || s.influenced_by(i).is_none() {
            continue;
        }
        let mut routed = s.turn_state[i].routed;
        if crate::melee_tables::rally_up(&mut s.items[i], &mut routed) {
            if s.turn_state[i].routed && !routed {
                s.counted[i] = false;
                s.turn_state[i].rallied = true;
            }
            s.turn_state[i].routed = routed;
            log.add(|| {
                Event::new(
                    "rally",
                    rule("M124"),
                    format!(
                        "{} rallies up with its commander{}.",
                        s.item(i).id,
                        if routed { "" } else { " and is in good order" }
                    ),
                )
                .side(side)
                .units([s.item(i).id.clone()])
            });
        }
    }
}
