//! The numbers of Mechanized melee and rally (M110–M118, M124, D8): each side's total, who
//! wins, retreating before a melee, advancing after one, and a commander's rally.

use crate::charts::Charts;
use crate::items::{Item, Kind};

/// What moves a squad's melee total (D8): each one point.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MeleeModifiers {
    pub commander: bool,
    /// The defender's cover or structure — counted against the first attacker only (M110).
    pub cover: bool,
    /// Attacking a flank or the rear.
    pub flank: bool,
    /// An attacker that came in across a wall or hedge.
    pub over_wall: bool,
    /// A defender on higher ground.
    pub higher: bool,
}

/// M110, D7–D8: a squad's melee value before the die: its weight's base, SMG +1, less a point
/// a hit marker, with the modifiers.
pub fn melee_value(item: &Item, charts: &Charts, m: MeleeModifiers) -> i32 {
    let Kind::Squad(s) = &item.kind else {
        return 0;
    };
    let base = s
        .weight
        .and_then(|w| charts.infantry.get(&w))
        .map_or(2, |i| i.melee);
    base + s.smg as i32 - s.markers as i32 + m.commander as i32 + m.cover as i32 + m.flank as i32
        - m.over_wall as i32
        + m.higher as i32
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeleeResult {
    /// The defender is captured (destroyed).
    AttackerWins,
    /// The attacker is captured.
    DefenderWins,
    /// M111: each loses a figure and is pushed back a hex.
    Tie,
}

/// M110–M111: both roll a d6 and add their values; the higher total wins.
pub fn resolve(attacker: i32, attacker_d6: u32, defender: i32, defender_d6: u32) -> MeleeResult {
    let (a, d) = (attacker + attacker_d6 as i32, defender + defender_d6 as i32);
    match a.cmp(&d) {
        std::cmp::Ordering::Greater => MeleeResult::AttackerWins,
        std::cmp::Ordering::Less => MeleeResult::DefenderWins,
        std::cmp::Ordering::Equal => MeleeResult::Tie,
    }
}

/// The chance the attacker wins, ties, loses, in 36ths.
pub fn odds(attacker: i32, defender: i32) -> [u32; 3] {
    let mut out = [0; 3];
    for a in 1..=6 {
        for d in 1..=6 {
            out[match resolve(attacker, a, defender, d) {
                MeleeResult::AttackerWins => 0,
                MeleeResult::Tie => 1,
                MeleeResult::DefenderWins => 2,
            }] += 1;
        }
    }
    out
}

/// M115: a defender may step back before the melee if it is faster by a point or more and
/// unmarked (the hex behind must also be open — the caller's check).
pub fn may_retreat_before_melee(defender_mp: u8, attacker_mp: u8, defender_markers: u8) -> bool {
    defender_markers == 0 && defender_mp > attacker_mp
}

/// M118 (T22): a winner takes the vacated hex on a d6 of 4 or more, one better with a
/// commander.
pub fn advances(d6: u32, commander: bool) -> bool {
    d6 + commander as u32 >= 4
}

/// M124: a commander with a squad at the end of its turn gives back a figure, takes off a
/// marker and rallies it from rout. Returns whether anything changed.
pub fn rally_up(item: &mut Item, routed: &mut bool) -> bool {
    let Kind::Squad(s) = &mut item.kind else {
        return false;
    };
    let before = (s.figures, s.markers, *routed);
    s.figures = (s.figures + 1).min(4);
    s.markers = s.markers.saturating_sub(1);
    *routed = false;
    before != (s.figures, s.markers, *routed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::Weight;
    use crate::items::Squad;
    use volley_core::geometry::Facing;
    use volley_core::{Hex, Side};

    fn squad(w: Weight, smg: bool, markers: u8, figures: u8) -> Item {
        Item {
            id: "s".into(),
            name: "s".into(),
            side: Side::Red,
            kind: Kind::Squad(Squad {
                weight: Some(w),
                figures,
                markers,
                smg,
                ..Default::default()
            }),
            hex: Hex::ZERO,
            facing: Facing::N,
        }
    }

    #[test]
    fn melee_values_add_weight_weapons_and_modifiers() {
        let c = Charts::bundled();
        assert_eq!(
            melee_value(
                &squad(Weight::H, false, 0, 4),
                &c,
                MeleeModifiers::default()
            ),
            3
        );
        let m = MeleeModifiers {
            commander: true,
            flank: true,
            over_wall: true,
            ..Default::default()
        };
        assert_eq!(
            melee_value(&squad(Weight::M, true, 1, 4), &c, m),
            3,
            "Medium 2, SMG +1, a marker -1, commander +1, flank +1, over a wall -1"
        );
        let cover = MeleeModifiers {
            cover: true,
            higher: true,
            ..Default::default()
        };
        assert_eq!(melee_value(&squad(Weight::L, false, 0, 4), &c, cover), 3);
    }

    #[test]
    fn the_higher_total_wins_and_ties_push_both_back() {
        assert_eq!(resolve(2, 4, 3, 2), MeleeResult::AttackerWins);
        assert_eq!(resolve(2, 1, 3, 2), MeleeResult::DefenderWins);
        assert_eq!(resolve(2, 3, 3, 2), MeleeResult::Tie);
        assert_eq!(odds(2, 2), [15, 6, 15]);
        assert_eq!(odds(3, 2).iter().sum::<u32>(), 36);
        assert_eq!(odds(3, 2)[0], 21);
    }

    #[test]
    fn retreat_before_melee_advance_and_rally() {
        assert!(may_retreat_before_melee(4, 3, 0));
        assert!(
            !may_retreat_before_melee(3, 3, 0),
            "faster by a point at least"
        );
        assert!(!may_retreat_before_melee(5, 3, 1), "unmarked only");
        assert!(advances(4, false) && !advances(3, false) && advances(3, true));
        let mut s = squad(Weight::M, false, 2, 2);
        let mut routed = true;
        assert!(rally_up(&mut s, &mut routed));
        match &s.kind {
            Kind::Squad(q) => assert_eq!((q.figures, q.markers, routed), (3, 1, false)),
            _ => unreachable!(),
        }
    }
}
