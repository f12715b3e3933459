//! The order of play within a game turn, as both sequences of play step through it
//! (Gunpowder Sequence of Play 3 and 2.3; Mechanized 3.1, M15–M18): player A (the initiative
//! winner), the turn's activations ([`crate::activation::schedule`]) and the one under way.
//!
//! Under the A/B system a game turn is two player turns, A's then B's; under the Activation
//! Sequence it is the schedule's activations in order. Each ruleset rolls its own initiative
//! and plays its own steps inside an activation; the stepping from one activation to the
//! next is this.

use crate::activation::{Activation, Mode};
use volley_core::Side;

/// Where a game turn stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turns {
    /// The A/B system or the Activation Sequence.
    pub mode: Mode,
    /// The initiative winner: player A, who plays first this turn.
    pub first: Side,
    /// The activations this turn (under the A/B system a ruleset may leave it empty).
    pub schedule: Vec<Activation>,
    /// The activation under way: 0 while player A is phasing and 1 for player B under the A/B
    /// system; the place in `schedule` under the Activation Sequence.
    pub at: usize,
}

impl Turns {
    /// Before the first turn: red is player A until the initiative says otherwise.
    pub fn new(mode: Mode) -> Turns {
        Turns {
            mode,
            first: Side::Red,
            schedule: Vec::new(),
            at: 0,
        }
    }

    /// A new game turn: `first` is player A, the activations are `schedule`.
    pub fn begin(&mut self, first: Side, schedule: Vec<Activation>) {
        self.first = first;
        self.schedule = schedule;
        self.at = 0;
    }

    /// Whether play is by activations (2.3, M18) rather than the A/B system.
    #[inline]
    pub fn by_groups(&self) -> bool {
        self.mode != Mode::Ab
    }

    /// The side whose activation it is (past the last activation, player A's: under the
    /// hand-out's Activation Sequence the turn's fire and melee are A's).
    #[inline]
    pub fn phasing(&self) -> Side {
        let groups = self.by_groups();
        match self.schedule.get(self.at) {
            Some(a) if groups => a.side,
            _ if groups || self.at == 0 => self.first,
            _ => self.first.other(),
        }
    }

    /// The group the current activation moves, if only one does (none under the A/B system).
    #[inline]
    pub fn active_group(&self) -> Option<u8> {
        if !self.by_groups() {
            return None;
        }
        self.schedule.get(self.at).and_then(|a| a.group)
    }

    /// Whether the current activation is `side`'s first this turn: the start-of-turn steps
    /// (spotting, reinforcements, panic…) happen then. Always under the A/B system.
    pub fn first_activation_of(&self, side: Side) -> bool {
        !self.by_groups() || !self.schedule.iter().take(self.at).any(|a| a.side == side)
    }

    /// How many activations the turn has: two player turns, or the schedule's.
    pub fn activations(&self) -> usize {
        if self.by_groups() {
            self.schedule.len()
        } else {
            2
        }
    }

    /// Steps on to the next activation; `false` (and nothing changed) when the turn's last
    /// is over.
    pub fn step_on(&mut self) -> bool {
        if self.at + 1 < self.activations() {
            self.at += 1;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::activation::schedule;

    #[test]
    fn the_ab_system_is_player_a_then_player_b() {
        let mut t = Turns::new(Mode::Ab);
        t.begin(Side::Blue, Vec::new());
        assert_eq!((t.phasing(), t.active_group()), (Side::Blue, None));
        assert!(t.step_on());
        assert_eq!(t.phasing(), Side::Red);
        assert!(t.first_activation_of(Side::Blue));
        assert!(!t.step_on());
    }

    #[test]
    fn groups_take_their_turns_and_a_side_starts_once() {
        let mut t = Turns::new(Mode::GroupTurns);
        t.begin(
            Side::Red,
            schedule(Mode::GroupTurns, Side::Red, [&[1, 2], &[1]]),
        );
        let mut seen = vec![(
            t.phasing(),
            t.active_group(),
            t.first_activation_of(t.phasing()),
        )];
        while t.step_on() {
            seen.push((
                t.phasing(),
                t.active_group(),
                t.first_activation_of(t.phasing()),
            ));
        }
        assert_eq!(
            seen,
            vec![
                (Side::Red, Some(1), true),
                (Side::Blue, Some(1), true),
                (Side::Red, Some(2), false)
            ]
        );
        // Past the last activation (the hand-out's fire and melee) player A is phasing.
        t.at = t.schedule.len();
        assert_eq!((t.phasing(), t.active_group()), (Side::Red, None));
    }
}
