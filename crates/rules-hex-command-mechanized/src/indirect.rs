//! Indirect fire and spotting (M94–M96, M99, T14–T15): the minimum range of field guns, the
//! shot-fall procedure that places a round (and a paratroop drop), and the spotting roll.

use volley_core::geometry::{step, Facing};
use volley_core::{Dice, Hex};

/// M94: field guns and SP artillery fire indirectly only beyond 5 hexes; mortars at any range.
pub const MIN_INDIRECT_RANGE: u32 = 5;

pub fn indirect_allowed(range: u32, mortar: bool) -> bool {
    mortar || range > MIN_INDIRECT_RANGE
}

/// M96 (T15): the shot-fall procedure. A d6 of 5–6 lands on the aimed hex (never with the
/// rockets option, M99, which always scatters); otherwise a second d6, counted clockwise from
/// the north hexside (1 N, 2 NE … 6 NW), gives the neighbouring hex it falls in, `distance`
/// hexes out (1 for shells, 2 for a paratroop drop, M70). Returns where it lands and why.
pub fn shot_fall(
    aim: Hex,
    distance: u32,
    always_scatter: bool,
    dice: &mut dyn Dice,
) -> (Hex, String) {
    let on = dice.roll(6);
    if on >= 5 && !always_scatter {
        return (aim, format!("d6 {on}: on target"));
    }
    let d = dice.roll(6);
    let dir = Facing::from_index((d - 1) as u8);
    let mut at = aim;
    for _ in 0..distance {
        at = step(at, dir);
    }
    let why = if always_scatter {
        format!("rockets always scatter: d6 {d} ({dir})")
    } else {
        format!("d6 {on}: off target; d6 {d} ({dir})")
    };
    (at, why)
}

/// T14: a spotting roll succeeds on a d6 of 5–6 within 15 hexes, 20 from a hill.
pub fn spotting_range(on_hill: bool) -> u32 {
    if on_hill {
        20
    } else {
        15
    }
}

pub fn spots(d6: u32) -> bool {
    d6 >= 5
}

#[cfg(test)]
mod tests {
    use super::*;
    use volley_core::geometry::parse_label;
    use volley_core::ScriptedDice;

    fn h(l: &str) -> Hex {
        parse_label(l).unwrap()
    }

    #[test]
    fn field_guns_need_more_than_five_hexes_mortars_do_not() {
        assert!(!indirect_allowed(5, false));
        assert!(indirect_allowed(6, false));
        assert!(indirect_allowed(2, true));
    }

    #[test]
    fn shots_land_on_five_or_six_else_scatter_clockwise() {
        let (at, why) = shot_fall(h("0505"), 1, false, &mut ScriptedDice::new([5]));
        assert_eq!((at, why.as_str()), (h("0505"), "d6 5: on target"));
        let (at, _) = shot_fall(h("0505"), 1, false, &mut ScriptedDice::new([2, 1]));
        assert_eq!(at, h("0504"), "1: the north neighbour");
        let (at, _) = shot_fall(h("0505"), 2, false, &mut ScriptedDice::new([3, 4]));
        assert_eq!(at, h("0507"), "4: south, two hexes for a drop");
        let (at, why) = shot_fall(h("0505"), 1, true, &mut ScriptedDice::new([6, 1]));
        assert_eq!(at, h("0504"), "rockets scatter even on a 6");
        assert!(why.starts_with("rockets"), "{why}");
    }

    #[test]
    fn spotting_reaches_fifteen_hexes_or_twenty_from_a_hill() {
        assert_eq!((spotting_range(false), spotting_range(true)), (15, 20));
        assert!(spots(5) && !spots(4));
    }
}
