//! How a game turn is divided between the two players (Gunpowder hand-out and 2.3;
//! Mechanized 3.1): the traditional A/B system, or the Activation Sequence, in which each
//! player numbers its groups (brigades) and the groups move in turn, A's first, then B's
//! first, A's second…
//!
//! The text describes the Activation Sequence twice. The hand-out (and the optional line of
//! the Sequence of Play) has every group move in turn and then both players fire, A first,
//! and melee; section 2.3 has each group's activation run like a small player turn, the other
//! player firing "as usual" as the non-phasing player. Both are played: [`Mode::Groups`] and
//! [`Mode::GroupTurns`].

use volley_core::Side;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The traditional A/B system: A moves everything and both fire, then B.
    Ab,
    /// The hand-out's Activation Sequence: groups move alternately, then all fire, then melee.
    Groups,
    /// Section 2.3: each group's activation is a small player turn (move, the other side's
    /// fire, its own fire, melee).
    GroupTurns,
}

impl Mode {
    pub fn parse(text: &str) -> Option<Mode> {
        match text {
            "ab" => Some(Mode::Ab),
            "groups" => Some(Mode::Groups),
            "group-turns" => Some(Mode::GroupTurns),
            _ => None,
        }
    }

    /// Whether each unit fires once a turn (2.3: "it is vital to mark units that fire").
    pub fn fire_once_per_turn(self) -> bool {
        self != Mode::Ab
    }
}

/// One activation: a side and the group number it activates (`None`: every unit of the side,
/// the A/B system's whole player turn).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Activation {
    pub side: Side,
    pub group: Option<u8>,
}

/// The activations of a game turn. `groups` holds each side's group numbers (by
/// [`Side::index`]); `first` is player A. Groups go in number order, A's before B's of the
/// same rank; a side that has run out of groups lets the other carry on alone.
pub fn schedule(mode: Mode, first: Side, groups: [&[u8]; 2]) -> Vec<Activation> {
    if mode == Mode::Ab {
        return vec![
            Activation {
                side: first,
                group: None,
            },
            Activation {
                side: first.other(),
                group: None,
            },
        ];
    }
    let sorted = |side: Side| {
        let mut g = groups[side.index()].to_vec();
        g.sort_unstable();
        g.dedup();
        g
    };
    let (a, b) = (sorted(first), sorted(first.other()));
    let mut out = Vec::with_capacity(a.len() + b.len());
    for k in 0..a.len().max(b.len()) {
        if let Some(&g) = a.get(k) {
            out.push(Activation {
                side: first,
                group: Some(g),
            });
        }
        if let Some(&g) = b.get(k) {
            out.push(Activation {
                side: first.other(),
                group: Some(g),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_alternate_from_player_a_and_the_longer_side_carries_on() {
        let s = schedule(Mode::Groups, Side::Blue, [&[1, 2, 3], &[2, 1]]);
        let got: Vec<(Side, u8)> = s.iter().map(|a| (a.side, a.group.unwrap())).collect();
        assert_eq!(
            got,
            vec![
                (Side::Blue, 1),
                (Side::Red, 1),
                (Side::Blue, 2),
                (Side::Red, 2),
                (Side::Red, 3)
            ]
        );
    }

    #[test]
    fn the_ab_system_is_two_whole_player_turns() {
        let s = schedule(Mode::Ab, Side::Red, [&[1], &[1]]);
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].group, None);
        assert_eq!(s[1].side, Side::Blue);
    }
}
