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
