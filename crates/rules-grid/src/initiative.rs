//! Initiative: at the start of every game-turn both players roll a d6. The higher roll plays
//! its player-turn first (ties are rolled again), and each roll is the number of units that
//! player may move in the game-turn.

use crate::roll_off::roll_off;
use crate::rule;
use crate::state::{GridGame, Phase};
use volley_core::{Dice, Event, Log, Side};

impl GridGame {
    /// Both players roll for the game-turn: the order of its player-turns and the units each
    /// may move.
    pub fn roll_initiative(&mut self, dice: &mut dyn Dice, log: &mut Log) {
        // The first roll (a tie, perhaps) opens the game-turn, unless the placement opened it.
        let opens = self.phase != Phase::Placement;
        let turn = self.turn;
        let (red, blue, opens_turn) = roll_off(dice, log, opens, "initiative", |n| {
            format!("Game-turn {turn}: red and blue both rolled {n}; roll again.")
        });
        self.rolls = [red, blue];
        let higher = if red > blue { Side::Red } else { Side::Blue };
        // A scenario may name who moves first in the first game-turn (Initiative: "unless a
        // scenario dictates otherwise"); the rolls still count units.
        let (first, why) = match self.setup.first_player {
            Some(side) if self.turn == 1 => (side, "as the scenario dictates"),
            _ => (higher, "with the higher roll"),
        };
        self.order = [first, first.other()];
        self.player_turn = 0;
        log.add(|| {
            let event = Event::new(
                "initiative",
                rule("Initiative"),
                format!(
                    "Game-turn {}: red rolled {red}, blue rolled {blue}; {first} plays first {why}. Red may move {red} units, blue {blue}.",
                    self.turn
                ),
            )
            .side(first);
            if opens_turn {
                event.opens_turn()
            } else {
                event
            }
        });
    }
}
