//! The roll-off both chapters that open play use: both players roll a d6 until the rolls
//! differ (Game Setup: the roll for first placement; Initiative: the roll of every game-turn).

use crate::rule;
use volley_core::{Dice, Event, Log};

/// Both players roll a d6 until the rolls differ, logging each tie as `tie` words it; the
/// first event logged opens the game-turn if `opens_turn`. Returns red's roll, blue's, and
/// whether the game-turn is still to be opened.
pub fn roll_off(
    dice: &mut dyn Dice,
    log: &mut Log,
    mut opens_turn: bool,
    kind: &'static str,
    tie: impl Fn(u32) -> String,
) -> (u32, u32, bool) {
    let section = if kind == "initiative" {
        "Initiative"
    } else {
        "Game Setup"
    };
    loop {
        let (red, blue) = (dice.roll(6), dice.roll(6));
        if red != blue {
            return (red, blue, opens_turn);
        }
        log.add(|| {
            let event = Event::new(kind, rule(section), tie(red));
            if opens_turn {
                event.opens_turn()
            } else {
                event
            }
        });
        opens_turn = false;
    }
}
