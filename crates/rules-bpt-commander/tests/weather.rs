//! WEATHER and NIGHT (optional rules): the weather roll before the battle, its cost to command
//! rolls and sight, and its change at the end of each game turn.

mod common;

use common::*;
use rules_bpt_commander::state::Phase;
use rules_bpt_commander::table::Table;
use rules_bpt_commander::weather::Weather;
use volley_core::Side;

/// Ends phases until the game turn is over, giving `dice` to the end of the second player's
/// last phase (where the end of the game turn rolls).
fn finish_game_turn(g: &mut rules_bpt_commander::BptGame, dice: &[u32]) -> Vec<volley_core::Event> {
    let turn = g.turn;
    loop {
        let last = g.active == Side::Blue && g.phase == Phase::HqMoves;
        let e = play(g, "end", if last { dice } else { &[] });
        if g.turn != turn {
            return e;
        }
    }
}

#[test]
fn the_weather_is_rolled_before_the_battle_12_extreme_10_or_11_poor() {
    for (dice, weather) in [
        ([6, 6], Weather::Extreme),
        ([5, 5], Weather::Poor),
        ([6, 5], Weather::Poor),
        ([4, 5], Weather::Normal),
    ] {
        let g = duel(&[], &[]).option("weather", "roll").start_with(&dice);
        assert_eq!(g.weather, weather, "{dice:?}");
    }
    // Without the rule nothing is rolled.
    let g = duel(&[], &[]).start_with(&[]);
    assert_eq!(g.weather, Weather::Normal);
}

#[test]
fn poor_weather_costs_command_rolls_one_and_extreme_two() {
    let mut g = duel(&[], &[]).option("weather", "poor").command();
    let e = play(&mut g, "order rhq r1", &[3, 3]);
    assert!(log(&e).contains("-1 poor weather"), "{}", log(&e));
    assert!(log(&e).contains("needs 7 or less"), "{}", log(&e));
    let mut g = duel(&[], &[]).option("weather", "extreme").command();
    let e = play(&mut g, "order rhq r1", &[3, 3]);
    assert!(log(&e).contains("-2 extreme weather"), "{}", log(&e));
    assert!(log(&e).contains("needs 6 or less"), "{}", log(&e));
    let mut g = duel(&[], &[]).option("weather", "night").command();
    let e = play(&mut g, "order rhq r1", &[3, 3]);
    assert!(log(&e).contains("-1 night"), "{}", log(&e));
}

#[test]
fn sight_reaches_40_cm_in_poor_weather_and_10_in_extreme() {
    // r1 and b1 stand 15 cm apart.
    for (weather, sees) in [
        ("off", true),
        ("poor", true),
        ("night", true),
        ("extreme", false),
    ] {
        let g = duel(&[], &[]).option("weather", weather).load();
        let (r1, b1) = (k(&g, "r1"), k(&g, "b1"));
        assert_eq!(g.distance_cm(r1, b1), 15);
        assert_eq!(g.sees(r1, b1), sees, "{weather}");
    }
    let g = Scen::new()
        .inf("red", "r1", "0611", "N", &[])
        .inf("blue", "b1", "0602", "S", &[])
        .option("weather", "poor")
        .load();
    let (r1, b1) = (k(&g, "r1"), k(&g, "b1"));
    assert_eq!(g.distance_cm(r1, b1), 45);
    assert!(!g.sees(r1, b1));
}

#[test]
fn a_double_six_at_the_end_of_a_game_turn_worsens_the_weather_and_a_double_one_clears_it() {
    let mut g = duel(&[], &[]).option("weather", "normal").start_with(&[]);
    let e = finish_game_turn(&mut g, &[6, 6]);
    assert_eq!(g.weather, Weather::Poor, "{}", log(&e));
    assert!(
        log(&e).contains("normal weather becomes poor weather"),
        "{}",
        log(&e)
    );
    finish_game_turn(&mut g, &[6, 6]);
    assert_eq!(g.weather, Weather::Extreme);
    let e = finish_game_turn(&mut g, &[1, 1]);
    assert_eq!(g.weather, Weather::Poor);
    assert!(
        log(&e).contains("extreme weather becomes poor weather"),
        "{}",
        log(&e)
    );
    // Any other pair leaves it as it is.
    let mut g = duel(&[], &[]).option("weather", "extreme").start_with(&[]);
    let e = finish_game_turn(&mut g, &[3, 3]);
    assert_eq!(g.weather, Weather::Extreme);
    assert!(
        log(&e).contains("the weather holds (3, 3): extreme weather"),
        "{}",
        log(&e)
    );
    // Night never changes: nothing is rolled.
    let mut g = duel(&[], &[]).option("weather", "night").start_with(&[]);
    finish_game_turn(&mut g, &[]);
    assert_eq!(g.weather, Weather::Poor);
    assert!(g.phase_words().ends_with("· night"), "{}", g.phase_words());
}
