//! Command in numbers (M16, M31, M41–M43): the initiative roll by each side's margin over its
//! commander's Initiative, a commander's death when its hex is hit, the loss percentage and
//! the panic roll.

use volley_core::Dice;

/// M16, C3 (reading B): each side rolls a d10 less its overall commander's Initiative; the
/// larger margin wins (ties are rolled again). Returns red's win and the rolls in words.
pub fn initiative(red_initiative: u8, blue_initiative: u8, dice: &mut dyn Dice) -> (bool, String) {
    let mut rolls = Vec::new();
    loop {
        let (r, b) = (dice.roll(10), dice.roll(10));
        let (mr, mb) = (
            r as i32 - red_initiative as i32,
            b as i32 - blue_initiative as i32,
        );
        rolls.push(format!(
            "red d10 {r} − I {red_initiative} = {mr}, blue d10 {b} − I {blue_initiative} = {mb}"
        ));
        if mr != mb {
            return (mr > mb, rolls.join("; then "));
        }
    }
}

/// M31 (T20): a commander in a hex where an item takes a hit dies on a d6 of 1.
pub fn commander_dies(d6: u32) -> bool {
    d6 == 1
}

/// M41, C6: the loss percentage — points lost over points at the start, plus 10 a commander
/// lost (M33).
pub fn loss_percent(lost_points: i32, start_points: i32, commanders_lost: u32) -> f64 {
    let base = if start_points > 0 {
        100.0 * lost_points as f64 / start_points as f64
    } else {
        0.0
    };
    base + 10.0 * commanders_lost as f64
}

/// M42–M43, C5 (reading A): once past its break point, a side panics when ten times a d10 is
/// below its loss percentage — the heavier the losses, the likelier.
pub fn panics(d10: u32, loss_percent: f64, break_point: u32) -> bool {
    loss_percent >= break_point as f64 && ((10 * d10) as f64) < loss_percent
}

/// The d10 rolls that panic at a loss percentage, in words: "a roll of 1–4", "a roll of 1",
/// or "no roll".
pub fn panic_needs(loss_percent: f64) -> String {
    let top = (1..=10).filter(|&d| ((10 * d) as f64) < loss_percent).max();
    match top {
        None => "no roll".into(),
        Some(1) => "a roll of 1".into(),
        Some(t) => format!("a roll of 1–{t}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use volley_core::ScriptedDice;

    #[test]
    fn initiative_goes_to_the_larger_margin_ties_rolled_again() {
        // Red 7 − 5 = 2 against blue 8 − 6 = 2: again; red 9 − 5 = 4 against blue 3 − 6.
        let (red, text) = initiative(5, 6, &mut ScriptedDice::new([7, 8, 9, 3]));
        assert!(red);
        assert!(text.contains("; then "), "{text}");
        // A better commander is no guarantee: red 5 − 4 = 1 loses to blue 10 − 7 = 3.
        let (red, _) = initiative(4, 7, &mut ScriptedDice::new([5, 10]));
        assert!(!red);
    }

    #[test]
    fn commanders_die_on_a_one_and_count_ten_per_cent() {
        assert!(commander_dies(1) && !commander_dies(2));
        assert_eq!(loss_percent(30, 100, 1), 40.0);
        assert_eq!(loss_percent(0, 0, 0), 0.0);
    }

    #[test]
    fn panic_only_past_the_break_point_and_likelier_with_losses() {
        assert!(!panics(1, 30.0, 40), "below the break point: no roll");
        assert!(panics(4, 45.0, 40), "40 < 45");
        assert!(!panics(5, 45.0, 40), "50 is not below 45");
        let chance = |loss: f64| (1..=10).filter(|&d| panics(d, loss, 40)).count();
        assert_eq!((chance(40.0), chance(75.0)), (3, 7));
    }
}
