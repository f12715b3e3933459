//! Section 7 (fire), 7.1 (ganging up), section 3 and 3.1 (artillery fire), the firing chart.

mod common;

use common::*;

fn red_fires(options: &str, changes: &[(&str, &str)], units: &str) -> HexCommandGame {
    let mut g = setup_map(options, changes, "", units);
    g.at_fire(Side::Red, true);
    g
}

fn fires_of(g: &HexCommandGame, id: &str) -> Vec<String> {
    let mut v: Vec<String> = g
        .legal_texts()
        .into_iter()
        .filter(|t| t.starts_with(&format!("fire {id} ")))
        .collect();
    v.sort();
    v
}

#[test]
fn fire_only_at_targets_in_the_primary_arc() {
    let units = unit("r1", "red", "infantry", "0508", "N", "")
        + &unit("b1", "blue", "infantry", "0506", "S", "")
        + &unit("b2", "blue", "infantry", "0509", "N", "");
    let g = red_fires("", &[], &units);
    assert_eq!(fires_of(&g, "r1"), vec!["fire r1 0506"], "b2 is behind r1");
}

#[test]
fn small_arms_at_range_three_need_code() {
    let units = unit("r1", "red", "infantry", "0508", "N", "")
        + &unit("b1", "blue", "infantry", "0505", "S", "");
    let mut g = red_fires("", &[], &units);
    let events = g.play("fire r1 0505", &[4]);
    assert_eq!(g.u("b1").hits, 0, "a plain red face is not Code");
    assert!(
        events[0].text.contains("range 3 → Code"),
        "{}",
        events[0].text
    );
    assert!(
        events[0].text.contains("rolled 4 (Red): miss"),
        "{}",
        events[0].text
    );
    assert_eq!(events[0].rule, "hex-command 7");
    let mut g = red_fires("", &[], &units);
    g.play("fire r1 0505", &[3]);
    assert_eq!(g.u("b1").hits, 1, "the blue star is Code");
}

#[test]
fn neighbouring_hex_is_an_automatic_hit() {
    let units = unit("r1", "red", "infantry", "0506", "N", "")
        + &unit("b1", "blue", "infantry", "0505", "S", "");
    let mut g = red_fires("", &[], &units);
    let events = g.play("fire r1 0505", &[]);
    assert_eq!(g.u("b1").hits, 1);
    assert!(events[0].text.contains("automatic hit"));
}

#[test]
fn cover_pushes_the_band_out() {
    let units = unit("r1", "red", "infantry", "0506", "N", "")
        + &unit("b1", "blue", "infantry", "0505", "S", "");
    let mut g = red_fires("", &[("0505", "W")], &units);
    let events = g.play("fire r1 0505", &[2]);
    assert_eq!(g.u("b1").hits, 0, "in woods the auto hit needs Color");
    assert!(
        events[0].text.contains("1 CP for cover → needs Color"),
        "{}",
        events[0].text
    );
}

#[test]
fn walls_add_cover_and_forts_count_double() {
    let units = unit("r1", "red", "infantry", "0507", "N", "")
        + &unit("b1", "blue", "infantry", "0505", "S", "");
    let mut g = setup_map(
        "",
        &[("0505", "F")],
        "hexsides = [{ between = [\"0505\", \"0506\"], kind = \"wall\" }]",
        &units,
    );
    g.at_fire(Side::Red, true);
    assert_eq!(
        rules_hex_command::sight::cover(&g.state, h("0505"), h("0507")),
        3
    );
    assert!(
        fires_of(&g, "r1").is_empty(),
        "Color pushed three bands out is beyond CnC"
    );
}

#[test]
fn each_hit_on_the_firer_is_a_penalty() {
    let units = unit("r1", "red", "infantry", "0507", "N", "")
        + &unit("b1", "blue", "infantry", "0505", "S", "");
    let mut g = red_fires("", &[], &units);
    g.um("r1").hits = 2;
    let events = g.play("fire r1 0505", &[5]);
    assert!(
        events[0].text.contains("2 CP for hits → needs CnC"),
        "{}",
        events[0].text
    );
    assert_eq!(g.u("b1").hits, 0);
}

#[test]
fn bonuses_are_capped_at_two() {
    let units = unit("r1", "red", "infantry", "0509", "N", "trained = true")
        + &unit("b1", "blue", "infantry", "0505", "N", "");
    let mut g = red_fires("", &[], &units);
    g.state.posts.at[0] = Some(g.idx("r1"));
    g.um("r1").commander = Some(0);
    // Range 4 is CnC; flank/rear, commander and trained would be three bonuses: only two count.
    let events = g.play("fire r1 0505", &[4]);
    assert!(
        events[0].text.contains("bonuses capped at 2 → needs Color"),
        "{}",
        events[0].text
    );
    assert_eq!(g.u("b1").hits, 1);
}

#[test]
fn the_closest_band_with_a_target_must_be_fired_at() {
    let units = unit("r1", "red", "infantry", "0508", "N", "")
        + &unit("b1", "blue", "infantry", "0506", "S", "")
        + &unit("b2", "blue", "infantry", "0604", "S", "")
        + &unit("b3", "blue", "infantry", "0406", "S", "");
    let g = red_fires("", &[], &units);
    assert_eq!(
        fires_of(&g, "r1"),
        vec!["fire r1 0406", "fire r1 0506"],
        "a choice within the nearest band, not beyond it"
    );
}

#[test]
fn skirmishers_may_be_passed_over_for_a_more_threatening_target() {
    let units = unit("r1", "red", "infantry", "0508", "N", "")
        + &unit("b1", "blue", "skirmishers", "0507", "S", "")
        + &unit("b2", "blue", "infantry", "0406", "S", "");
    let g = red_fires("", &[], &units);
    assert_eq!(fires_of(&g, "r1"), vec!["fire r1 0406", "fire r1 0507"]);
}

#[test]
fn no_more_than_two_units_of_an_arm_fire_at_one_target() {
    let units = unit("r1", "red", "infantry", "0407", "N", "")
        + &unit("r2", "red", "infantry", "0507", "N", "")
        + &unit("r3", "red", "infantry", "0607", "N", "")
        + &unit("r4", "red", "artillery", "0305", "NE", "")
        + &unit("b1", "blue", "infantry", "0505", "S", "");
    let mut g = red_fires("", &[], &units);
    g.play("fire r1 0505", &[1]);
    g.play("fire r2 0505", &[1]);
    assert!(
        fires_of(&g, "r3").is_empty(),
        "a third infantry unit may not join (7.1 a)"
    );
    assert_eq!(
        fires_of(&g, "r4"),
        vec!["fire r4 0505"],
        "guns are another arm"
    );
}

#[test]
fn a_second_firer_needs_the_target_alone_in_its_band() {
    let units = unit("r1", "red", "infantry", "0507", "N", "")
        + &unit("r2", "red", "infantry", "0607", "N", "")
        + &unit("b1", "blue", "infantry", "0505", "S", "")
        + &unit("b2", "blue", "infantry", "0705", "S", "");
    let mut g = red_fires("", &[], &units);
    g.play("fire r1 0505", &[1]);
    assert_eq!(
        fires_of(&g, "r2"),
        vec!["fire r2 0705"],
        "0505 is not alone in r2's band"
    );
}

#[test]
fn woods_and_units_block_the_line_of_sight() {
    let units = unit("r1", "red", "infantry", "0508", "N", "")
        + &unit("b1", "blue", "infantry", "0505", "S", "");
    let g = red_fires("", &[("0506", "W")], &units);
    assert!(fires_of(&g, "r1").is_empty());
    let units = unit("r1", "red", "infantry", "0508", "N", "")
        + &unit("r2", "red", "infantry", "0506", "N", "")
        + &unit("b1", "blue", "infantry", "0504", "S", "");
    let g = red_fires("", &[], &units);
    assert!(fires_of(&g, "r1").is_empty(), "not through a friend");
}

#[test]
fn a_partial_obstacle_costs_one_cp() {
    let units = unit("r1", "red", "infantry", "0507", "N", "")
        + &unit("b1", "blue", "infantry", "0505", "S", "");
    let mut g = red_fires("", &[("0506", "w")], &units);
    let events = g.play("fire r1 0505", &[4]);
    assert!(
        events[0]
            .text
            .contains("1 CP partial obstacle → needs Code"),
        "{}",
        events[0].text
    );
}

#[test]
fn a_hill_hides_what_lies_below_its_far_side() {
    // r1 on a two-hex hill fires north; 0505 at the foot is dead ground unless fired at
    // from the crest hex beside it (fig. 2).
    let units = unit("r1", "red", "infantry", "0507", "N", "")
        + &unit("b1", "blue", "infantry", "0505", "S", "");
    let g = red_fires("", &[("0507", ".1"), ("0506", ".1")], &units);
    assert!(fires_of(&g, "r1").is_empty());
    let units = unit("r1", "red", "infantry", "0506", "N", "")
        + &unit("b1", "blue", "infantry", "0504", "S", "");
    let g = red_fires("", &[("0507", ".1"), ("0506", ".1")], &units);
    assert_eq!(fires_of(&g, "r1"), vec!["fire r1 0504"]);
}

#[test]
fn guns_on_higher_ground_fire_over_friends_outside_their_dead_zone() {
    let units = unit("r1", "red", "artillery", "0509", "N", "")
        + &unit("r2", "red", "infantry", "0507", "N", "")
        + &unit("b1", "blue", "infantry", "0504", "S", "");
    let g = red_fires("", &[("0509", ".1")], &units);
    assert_eq!(fires_of(&g, "r1"), vec!["fire r1 0504"]);
    let units = unit("r1", "red", "artillery", "0509", "N", "")
        + &unit("r2", "red", "infantry", "0507", "N", "")
        + &unit("b1", "blue", "infantry", "0506", "S", "");
    let g = red_fires("", &[("0509", ".1")], &units);
    assert!(
        fires_of(&g, "r1").is_empty(),
        "a target beside the friend is too close to it (7 p)"
    );
    let units = unit("r1", "red", "infantry", "0509", "N", "")
        + &unit("r2", "red", "infantry", "0507", "N", "")
        + &unit("b1", "blue", "infantry", "0506", "S", "");
    let g = red_fires("", &[("0509", ".1")], &units);
    assert!(
        fires_of(&g, "r1").is_empty(),
        "only artillery fires over friends"
    );
}

#[test]
fn point_blank_fire_beside_the_arc_costs_one_cp() {
    let units = unit("r1", "red", "infantry", "0505", "N", "")
        + &unit("b1", "blue", "infantry", "0605", "N", "");
    let mut g = red_fires("", &[], &units);
    assert_eq!(fires_of(&g, "r1"), vec!["fire r1 0605"]);
    let events = g.play("fire r1 0605", &[4]);
    assert!(
        events[0]
            .text
            .contains("1 CP point blank outside the arc → needs Color"),
        "{}",
        events[0].text
    );
    assert_eq!(g.u("b1").hits, 1);
    // Not into the rear hex.
    let units = unit("r1", "red", "infantry", "0505", "N", "")
        + &unit("b1", "blue", "infantry", "0506", "N", "");
    let g = red_fires("", &[], &units);
    assert!(fires_of(&g, "r1").is_empty());
}

#[test]
fn rifled_artillery_has_no_auto_hit() {
    let units = unit("r1", "red", "artillery", "0507", "N", "class = \"A\"")
        + &unit("b1", "blue", "infantry", "0505", "S", "");
    let mut g = red_fires("", &[], &units);
    let events = g.play("fire r1 0505", &[3]);
    assert!(events[0].text.contains("needs Color"), "{}", events[0].text);
    assert_eq!(g.u("b1").hits, 0);
    let units = unit("r1", "red", "artillery", "0507", "N", "class = \"B\"")
        + &unit("b1", "blue", "infantry", "0505", "S", "");
    let mut g = red_fires("", &[], &units);
    g.play("fire r1 0505", &[]);
    assert_eq!(
        g.u("b1").hits,
        1,
        "smoothbores hit automatically at two hexes"
    );
}

#[test]
fn artillery_that_moved_and_unlimbered_fires_at_one_cp() {
    let units = unit("r1", "red", "artillery", "0508", "N", "")
        + &unit("b1", "blue", "infantry", "0505", "S", "");
    let mut g = red_fires("", &[], &units);
    g.um("r1").unlimbered_after_move = true;
    // Range 3 is the guns' Color band; moving and unlimbering pushes it to Code.
    let events = g.play("fire r1 0505", &[4]);
    assert!(
        events[0]
            .text
            .contains("range 3 → Color; 1 CP moved and unlimbered → needs Code"),
        "{}",
        events[0].text
    );
    assert_eq!(g.u("b1").hits, 0);
    let mut g = red_fires("move_unlimber_fire = \"next-turn\"", &[], &units);
    g.um("r1").unlimbered_after_move = true;
    assert!(
        fires_of(&g, "r1").is_empty(),
        "the hand-out's reading: it fires next turn"
    );
}

#[test]
fn heavy_guns_score_double_hits() {
    let units = unit("r1", "red", "artillery", "0507", "N", "heavy = true")
        + &unit("b1", "blue", "infantry", "0505", "S", "");
    let mut g = red_fires("", &[], &units);
    g.play("fire r1 0505", &[]);
    assert_eq!(g.u("b1").hits, 2);
}

#[test]
fn skirmisher_hits_are_fatigue_only() {
    let units = unit("r1", "red", "skirmishers", "0506", "N", "class = \"B\"")
        + &unit("b1", "blue", "infantry", "0505", "S", "");
    let mut g = red_fires("", &[], &units);
    g.play("fire r1 0505", &[]);
    assert_eq!((g.u("b1").hits, g.u("b1").te), (0, 1));
}

#[test]
fn no_fire_into_a_melee() {
    let units = unit("r1", "red", "infantry", "0507", "N", "")
        + &unit("r2", "red", "infantry", "0705", "NW", "")
        + &unit("b1", "blue", "infantry", "0505", "S", "");
    let mut g = red_fires("", &[], &units);
    let (a, d) = (g.idx("r2"), g.idx("b1"));
    rules_hex_command::effects::engage(&mut g.state, a, d);
    assert!(fires_of(&g, "r1").is_empty());
}

#[test]
fn a_unit_fires_once_a_phase_and_once_a_turn_with_the_option() {
    let units = unit("r1", "red", "infantry", "0506", "N", "")
        + &unit("r2", "red", "infantry", "0806", "N", "")
        + &unit("b1", "blue", "infantry", "0505", "S", "")
        + &unit("b2", "blue", "infantry", "0804", "S", "");
    let mut g = red_fires("fire_once_per_turn = \"yes\"", &[], &units);
    g.play("fire r1 0505", &[]);
    assert!(fires_of(&g, "r1").is_empty());
    g.um("r1").fired_phase = false;
    assert!(
        !rules_hex_command::fire::may_fire(&g.state, g.idx("r1")),
        "fired already this turn"
    );
}

#[test]
fn firing_at_the_flank_is_a_bonus() {
    let units = unit("r1", "red", "infantry", "0507", "N", "")
        + &unit("b1", "blue", "infantry", "0505", "NE", "");
    let mut g = red_fires("", &[], &units);
    // Range 2 is Color; the bonus pulls it to an automatic hit.
    let events = g.play("fire r1 0505", &[]);
    assert!(
        events[0]
            .text
            .contains("1 CB flank/rear → needs auto: automatic hit"),
        "{}",
        events[0].text
    );
    assert_eq!(g.u("b1").hits, 1);
}

#[test]
fn odds_of_a_shot_weigh_its_own_die_only() {
    // The only shot of the phase: applying it would play out the following phases too.
    let units = unit("r1", "red", "infantry", "0508", "N", "")
        + &unit("b1", "blue", "infantry", "0505", "S", "");
    let g = red_fires("", &[], &units);
    let a = g.parse_action("fire r1 0505").unwrap();
    let odds = volley_core::odds::odds(&g, a, Some(Side::Red)).unwrap();
    assert!(odds.exact);
    assert_eq!(odds.trials, 6, "one d6, nothing after it");
    let got: Vec<(String, f64)> = odds
        .outcomes
        .iter()
        .map(|o| (o.outcome.clone(), o.probability))
        .collect();
    assert_eq!(got[0].0, "no effect");
    assert!((got[0].1 - 2.0 / 3.0).abs() < 1e-12);
    assert_eq!(got[1].0, "0505 b1: hits 0→1");
    assert!(
        (got[1].1 - 1.0 / 3.0).abs() < 1e-12,
        "Code is the blue or red star"
    );
}
