//! `volley odds` walks the dice exactly: the two volleys the issue names.

use crate::common::*;
use volley_core::odds::odds;
use volley_core::Side;

fn odds_of(firers: u32) -> Vec<(String, f64)> {
    let units = [
        unit("red", "r1", "infantry", firers, "0303", "S"),
        standing("blue", "b1", "infantry", 10, "0304", "N"),
    ];
    let mut g = started(&scenario(&OPEN_8X8, "", &units), 1);
    to_musketry(&mut g, Side::Red);
    let action = g.parse_action("fire 0303 0304").unwrap();
    let o = odds(&*g, action, None).expect("fire is legal");
    assert!(o.exact);
    o.outcomes
        .into_iter()
        .map(|l| (l.outcome, l.probability))
        .collect()
}

#[test]
fn odds_of_ten_and_seven_infantry_at_a_standing_enemy_in_the_open() {
    let ten = odds_of(10);
    assert_eq!(ten.len(), 1);
    assert_eq!(ten[0].0, "0304 b1 infantry: loses 3");
    assert!((ten[0].1 - 1.0).abs() < 1e-9);

    let seven = odds_of(7);
    assert_eq!(seven.len(), 2);
    assert_eq!(seven[0].0, "0304 b1 infantry: loses 2");
    assert!((seven[0].1 - 0.9).abs() < 1e-9);
    assert_eq!(seven[1].0, "0304 b1 infantry: loses 3");
    assert!((seven[1].1 - 0.1).abs() < 1e-9);
}

#[test]
fn odds_of_fire_weigh_the_fall_back_it_causes_at_the_end_of_the_musketry() {
    // Blue in woods, not Standing: seven infantry have no chance at troops that will fall
    // back in cover, yet the volley still drives them back one hex.
    let mut rows = OPEN_8X8;
    rows[3] = ". . W . . . . .";
    let units = [
        unit("red", "r1", "infantry", 7, "0303", "S"),
        unit("blue", "b1", "infantry", 10, "0304", "N"),
    ];
    let mut g = started(&scenario(&rows, "", &units), 1);
    to_musketry(&mut g, Side::Red);
    let action = g.parse_action("fire 0303 0304").unwrap();
    let o = odds(&*g, action, None).expect("fire is legal");
    let lines: Vec<(&str, f64)> = o
        .outcomes
        .iter()
        .map(|l| (l.outcome.as_str(), l.probability))
        .collect();
    assert_eq!(lines, [("0304 b1 infantry: to 0305", 1.0)]);
    // Out of cover, 0.1 a man: 0.7, one d10; a casualty on 1-7, and the hex falls back.
    let units = [
        unit("red", "r1", "infantry", 7, "0303", "S"),
        unit("blue", "b1", "infantry", 10, "0304", "N"),
    ];
    let mut g = started(&scenario(&OPEN_8X8, "", &units), 1);
    to_musketry(&mut g, Side::Red);
    let o = odds(&*g, action, None).expect("fire is legal");
    assert_eq!(o.outcomes.len(), 2);
    assert_eq!(o.outcomes[0].outcome, "0304 b1 infantry: loses 1, to 0305");
    assert!((o.outcomes[0].probability - 0.7).abs() < 1e-9);
    assert_eq!(o.outcomes[1].outcome, "0304 b1 infantry: to 0305");
    // The odds moved nothing: b1 falls back only when red's musketry ends.
    assert_eq!(hex_of(&*g, "b1"), "0304");
}
