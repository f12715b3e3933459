//! Victory. The text sets no victory conditions; Volley's (docs/rules/grid-rules-v1.1.md):
//! a side with no units left loses at once; otherwise at the end of the last game-turn each
//! side scores the enemy strength points it has destroyed plus the objectives it holds (a
//! unit of its own on the tile; an objective that is the other side's goal scores nothing),
//! and the higher score wins.

use crate::rule;
use crate::state::GridGame;
use volley_core::{Event, Log, Outcome, Side};

impl GridGame {
    /// Strength points a side has lost, and what it started with.
    pub fn losses(&self, side: Side) -> (u32, u32) {
        self.units
            .iter()
            .filter(|u| u.side == side)
            .fold((0, 0), |(lost, all), u| {
                (
                    lost + (u.max_strength - u.strength) as u32,
                    all + u.max_strength as u32,
                )
            })
    }

    pub fn objective_holder(&self, tile: volley_core::Hex) -> Option<Side> {
        self.occupant(tile, None).map(|i| self.units[i].side)
    }

    pub fn score(&self, side: Side) -> i32 {
        let destroyed = self.losses(side.other()).0 as i32;
        let held: i32 = self
            .setup
            .objectives
            .iter()
            .filter(|o| {
                o.goal_of.is_none_or(|s| s == side) && self.objective_holder(o.tile) == Some(side)
            })
            .map(|o| o.points)
            .sum();
        destroyed + held
    }

    fn scores(&self) -> [i32; 2] {
        [self.score(Side::Red), self.score(Side::Blue)]
    }

    fn has_units(&self, side: Side) -> bool {
        self.units.iter().any(|u| u.alive() && u.side == side)
    }

    /// Ends the game when a side has no units left.
    pub fn check_wipeout(&mut self, log: &mut Log) {
        let (red, blue) = (self.has_units(Side::Red), self.has_units(Side::Blue));
        let reason = match (red, blue) {
            (true, true) => return,
            (false, false) => (None, "both sides have lost every unit".to_string()),
            (true, false) => (Some(Side::Red), "blue has no units left".to_string()),
            (false, true) => (Some(Side::Blue), "red has no units left".to_string()),
        };
        self.outcome = Some(Outcome {
            winner: reason.0,
            reason: reason.1,
            score: self.scores(),
        });
        log.add(|| self.outcome_event());
    }

    pub fn final_outcome(&self) -> Outcome {
        let score = self.scores();
        let winner = match score[0].cmp(&score[1]) {
            std::cmp::Ordering::Greater => Some(Side::Red),
            std::cmp::Ordering::Less => Some(Side::Blue),
            std::cmp::Ordering::Equal => None,
        };
        Outcome {
            winner,
            reason: format!(
                "after game-turn {}: red scores {}, blue {} (enemy strength points destroyed plus objectives held)",
                self.turn, score[0], score[1]
            ),
            score,
        }
    }

    /// Who would win if the battle ended now ("as it stands"), for the view: the scores
    /// compared as at the end of the last game-turn. Both sides see every unit, so it is the
    /// same for both.
    pub fn standing(&self) -> volley_core::view::Standing {
        volley_core::view::Standing::by_score(self.scores())
    }

    pub fn outcome_event(&self) -> Event {
        let o = self.outcome.as_ref().expect("called once the game is over");
        let text = match o.winner {
            Some(w) => format!("{w} wins: {}.", o.reason),
            None => format!("A draw: {}.", o.reason),
        };
        Event::new("end", rule("Victory (Volley)"), text)
    }
}
