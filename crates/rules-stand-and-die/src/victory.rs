//! How a game ends. The rules text says nothing, so this is Volley's reading (see
//! docs/rules/stand-and-die.md): a side with no troops left loses at once; otherwise at the
//! scenario's turn limit the higher score wins, a score being the casualties inflicted plus
//! the points of the objective hexes held (one that is the other side's goal scores nothing).

use crate::state::{Phase, StandAndDieGame};
use volley_core::{Event, Log, Outcome, Side};

pub const RULE: &str = "stand-and-die victory";

impl StandAndDieGame {
    /// Points of the objective hexes a side's troops hold now.
    pub fn objective_points(&self, side: Side) -> i32 {
        self.setting
            .objectives
            .iter()
            .filter(|o| o.goal_of.is_none_or(|s| s == side) && self.holder(o.hex) == Some(side))
            .map(|o| o.points)
            .sum()
    }

    pub fn score(&self, side: Side) -> i32 {
        self.inflicted[side.index()] as i32 + self.objective_points(side)
    }

    fn scores(&self) -> [i32; 2] {
        Side::BOTH.map(|s| self.score(s))
    }

    /// Who would win if the battle ended now ("as it stands"), for the view: the scores
    /// compared as at the turn limit. Both sides see the whole table, so it is the same for
    /// both.
    pub fn standing(&self) -> volley_core::view::Standing {
        volley_core::view::Standing::by_score(self.scores())
    }

    fn finish(&mut self, winner: Option<Side>, reason: String, log: &mut Log) {
        self.phase = Phase::Over;
        self.outcome = Some(Outcome {
            winner,
            reason: reason.clone(),
            score: self.scores(),
        });
        log.add(|| {
            let event = Event::new("end", RULE, reason);
            match winner {
                Some(w) => event.side(w),
                None => event,
            }
        });
    }

    /// Ends the game when a side has nothing left on the table.
    pub fn check_annihilation(&mut self, log: &mut Log) {
        let Some(gone) = Side::BOTH
            .into_iter()
            .find(|&s| !self.units.iter().any(|u| u.side == s && u.on_table()))
        else {
            return;
        };
        let winner = gone.other();
        let reason = format!(
            "{} has no troops left: {} wins",
            self.side_name(gone),
            self.side_name(winner)
        );
        self.finish(Some(winner), reason, log);
    }

    /// Ends the game after the last turn's last musketry.
    pub fn end_at_turn_limit(&mut self, log: &mut Log) {
        let [red, blue] = self.scores();
        let tally = |s: Side| {
            format!(
                "{} {} ({} casualties inflicted + {} objective points)",
                self.side_name(s),
                self.score(s),
                self.inflicted[s.index()],
                self.objective_points(s)
            )
        };
        let winner = match red.cmp(&blue) {
            std::cmp::Ordering::Greater => Some(Side::Red),
            std::cmp::Ordering::Less => Some(Side::Blue),
            std::cmp::Ordering::Equal => None,
        };
        let verdict = match winner {
            Some(w) => format!("{} wins", self.side_name(w)),
            None => "a draw".to_string(),
        };
        let reason = format!(
            "turn limit {} reached: {} to {}: {verdict}",
            self.setting.turn_limit,
            tally(Side::Red),
            tally(Side::Blue)
        );
        self.finish(winner, reason, log)
    }
}
