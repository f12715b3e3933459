//! Fire (3.7, M81–M102): anti-tank and HE against armour, small arms and machine guns against infantry, sight, obscured fire and works battered.

mod common;

use common::*;

#[test]
fn fire_the_non_phasing_side_fires_first_then_the_phasing_side() {
    let mut g = tank_duel();
    assert_eq!(g.view(None).phase, "blue fires (red's turn)");
    assert_eq!(g.to_decide(), Some(Side::Blue));
    // Range 3 (M83), M gun against an M tank's front (defence 3): 6+ on 2d10. Miss.
    let events = play(&mut g, "fire b1 r1", &[1, 2]);
    assert!(
        texts(&events).contains("b1 fires at r1 at range 3: needs 6+ on 2d10, rolled 1+2: miss."),
        "{}",
        texts(&events)
    );
    assert_eq!(g.view(None).phase, "red fires");
    assert!(refused(&mut g, "fire b1 r1").contains("b1 is blue's; red decides now"));
}

#[test]
fn fire_an_anti_tank_hit_rolls_damage_blocks_by_gun_against_chassis() {
    let mut g = tank_duel();
    // Hit on 5+4; equal weights: one incremental block, a d6 face (6: MM → one M step).
    let events = play(&mut g, "fire b1 r1", &[5, 4, 6]);
    let t = texts(&events);
    assert!(t.contains("needs 6+ on 2d10, rolled 5+4: hit."), "{t}");
    let v = g.view(None).unit("r1").unwrap().clone();
    assert_eq!(v.hits, 1, "{t}");
}

#[test]
fn fire_small_arms_put_a_marker_and_the_third_hit_takes_a_figure() {
    let s = scenario(
        None,
        "",
        &[
            squad("r1", "red", "M", "0506", "N", ""),
            squad("b1", "blue", "M", "0504", "S", ""),
        ],
    );
    let mut g = start(&s);
    play(&mut g, "end", &[]);
    // Blue fires first: range 1, Medium needs 3+ (D6).
    let events = play(&mut g, "fire b1 r1", &[3]);
    assert!(
        texts(&events).contains("needs 3+ on a d6, rolled 3: hit."),
        "{}",
        texts(&events)
    );
    assert!(
        texts(&events).contains("r1 takes 1 hit: 4 figures left, 1 marker"),
        "{}",
        texts(&events)
    );
    // Red answers; its marker costs it a point (needs 4+).
    let events = play(&mut g, "fire r1 b1", &[3]);
    assert!(
        texts(&events).contains("needs 4+ on a d6, rolled 3: miss."),
        "{}",
        texts(&events)
    );
}

#[test]
fn fire_a_guns_he_roll_against_infantry_reads_the_defence_of_its_weight() {
    let s = scenario(
        None,
        "",
        &[
            vehicle("r1", "red", "pz4f2", "0509", "N"),
            squad("b1", "blue", "M", "0505", "S", ""),
        ],
    );
    let mut g = start(&s);
    play(&mut g, "end", &[]);
    // Blue's squad has nothing that reaches a tank at range 3: its fire step ends by itself.
    assert_eq!(g.view(None).phase, "red fires");
    // Beyond machine-gun reach the gun fires HE: range 3 + Medium infantry's defence 3 = 6+.
    let events = play(&mut g, "fire r1 b1", &[3, 3]);
    let t = texts(&events);
    assert!(
        t.contains("r1 fires at b1 at range 3: needs 6+ on 2d10, rolled 3+3: hit."),
        "{t}"
    );
    assert!(
        t.contains("HE: a figure lost; b1 takes 1 hit: 3 figures left, 1 marker"),
        "{t}"
    );
}

#[test]
fn fire_passes_over_friends_only_from_higher_ground_and_not_at_their_neighbours() {
    let fires = |g: &dyn Game| legal(g).contains(&"fire r1 b1".to_string());
    assert!(
        !fires(&*over_friends(false, "pz4f2", "0504")),
        "level ground: r2 is in the way"
    );
    assert!(
        fires(&*over_friends(true, "pz4f2", "0504")),
        "from the hill over r2"
    );
    assert!(
        !fires(&*over_friends(true, "pz4f2", "0506")),
        "b1 is next to r2"
    );
    assert!(
        !fires(&*over_friends(true, "stug3g", "0504")),
        "a low-hulled StuG never fires past a friend"
    );
}

#[test]
fn fire_through_works_on_the_line_is_obscured_with_the_option() {
    // Range 3 for a Medium squad: 5+; the works on the line add one with obscured_fire (M74).
    let mut g = obscured_game("");
    let events = play(&mut g, "fire r1 b1", &[5]);
    assert!(
        texts(&events).contains("needs 5+ on a d6, rolled 5: hit."),
        "{}",
        texts(&events)
    );
    let mut g = obscured_game("obscured_fire = \"yes\"");
    let events = play(&mut g, "fire r1 b1", &[5]);
    assert!(
        texts(&events).contains("needs 6+ on a d6, rolled 5: miss."),
        "{}",
        texts(&events)
    );
}

#[test]
fn fire_a_halftrack_fights_as_a_light_anti_tank_stand() {
    let s = scenario(
        None,
        "",
        &[
            vehicle("r1", "red", "sdkfz251", "0508", "N"),
            vehicle("b1", "blue", "t34-76", "0506", "S"),
        ],
    );
    let mut g = start(&s);
    play(&mut g, "end", &[]);
    play(&mut g, "end", &[]);
    // Range 1 against a Medium front (3): 4+ on one d10, the AT squad's roll (M11, M88); a
    // hit rolls one incremental block (its Light weapon against a Medium chassis).
    let events = play(&mut g, "fire r1 b1", &[4, 1]);
    let t = texts(&events);
    assert!(
        t.contains("r1 fires at b1 at range 1: needs 4+ on 1d10, rolled 4: hit."),
        "{t}"
    );
    assert_eq!(g.view(None).unit("b1").unwrap().hits, 1, "{t}");
}

#[test]
fn heavy_fire_batters_works_to_rubble() {
    let s = scenario_with(
        "works = [\"0505\"]",
        &[
            gun("r1", "red", "H", "", "0509", "N"),
            gun("r2", "red", "H", "", "0609", "N"),
            squad("b1", "blue", "H", "0505", "S", ""),
        ],
    );
    let mut g = start(&s);
    play(&mut g, "end", &[]);
    play(&mut g, "end", &[]);
    // Range 3 + a Heavy squad's defence 4 + the works' cover 1: 8+ on 2d10.
    let events = play(&mut g, "fire r1 b1", &[4, 4]);
    assert!(
        texts(&events).contains("Heavy fire batters the works at 0505: 1 of 2 hits."),
        "{}",
        texts(&events)
    );
    let events = play(&mut g, "fire r2 b1", &[6, 6]);
    assert!(
        texts(&events)
            .contains("Heavy fire batters the works at 0505: 2 of 2 hits; they are rubble."),
        "{}",
        texts(&events)
    );
    assert!(g
        .view(None)
        .features
        .iter()
        .any(|f| f.text.contains("battered to rubble")));
}

#[test]
fn fire_at_a_target_that_appeared_this_turn_reaches_only_half_as_far() {
    let s = scenario(
        None,
        "",
        &[
            squad("r1", "red", "M", "0509", "N", ""),
            squad("r2", "red", "M", "0909", "N", ""),
            squad("b1", "blue", "M", "0505", "S", "hidden = true"),
            squad("b2", "blue", "M", "0906", "S", ""),
        ],
    );
    let mut g = load(&s);
    // Red first, and its spotting misses b1 (d6 2).
    g.start(&mut ScriptedDice::new([9, 1, 2]));
    play(&mut g, "end", &[]);
    // Hidden b1 fires (range 3, 5+) and shows itself; b2 holds its fire.
    play(&mut g, "fire b1 r1", &[1]);
    play(&mut g, "end", &[]);
    // r1 did not see b1 at the start of the turn: small arms reach 4, so only 2 now (M75).
    let why = refused(&mut g, "fire r1 b1");
    assert!(why.contains("b1 was not in r1's sight at the start of the turn: it may be fired on only within half the weapon's reach, range 2 (M75)"), "{why}");
    play(&mut g, "fire r2 b2", &[1]);
}

#[test]
fn fire_at_a_target_appearing_in_a_gap_reaches_only_twice_the_gaps_width() {
    // Forest at 0504 and 0506: 0505 between them is a gap one hex wide across the line of
    // fire from the west. Hidden b1 steps into it from 0605; r1 (three hexes off) cannot
    // fire, r2 (two hexes off) can, though both are well within half their guns' reach.
    let rows = forest_at(&[(4, 5), (6, 5)]);
    let rows: Vec<&str> = rows.iter().map(|r| r.as_str()).collect();
    let s = scenario(
        Some(&rows),
        "",
        &[
            vehicle("r1", "red", "t34-76", "0205", "SE"),
            vehicle("r2", "red", "t34-76", "0306", "NE"),
            squad("b1", "blue", "M", "0605", "NW", "hidden = true"),
        ],
    );
    let mut g = load(&s);
    // Red first; its spotting misses b1 at the start and the end of its turn (d6 2, 2).
    g.start(&mut ScriptedDice::new([9, 1, 2]));
    while g.to_decide() == Some(Side::Red) {
        play(&mut g, "end", &[2]);
    }
    play(&mut g, "move b1 0505", &[]);
    while g.to_decide() == Some(Side::Blue) {
        play(&mut g, "end", &[]);
    }
    let why = refused(&mut g, "fire r1 b1");
    assert!(why.contains("b1 appeared in a gap 1 hex wide and is 3 hexes from r1: a target in a gap is fired on only from within twice the gap's width, 2 hexes (M75)"), "{why}");
    assert!(
        legal(&*g).contains(&"fire r2 b1".to_string()),
        "{:?}",
        legal(&*g)
    );
}

#[test]
fn guns_in_a_forest_fire_only_out_of_the_hexside_they_face_and_never_go_forest_to_forest() {
    // Forest at 0505 and 0504. Blue's gun g1 stands in the forest at 0505 facing S.
    let rows = forest_at(&[(5, 5), (4, 5)]);
    let rows: Vec<&str> = rows.iter().map(|r| r.as_str()).collect();
    let s = scenario(
        Some(&rows),
        "",
        &[
            squad("r1", "red", "M", "0508", "N", ""),
            squad("r2", "red", "M", "0605", "NW", ""),
            gun("g1", "blue", "M", "", "0505", "S"),
        ],
    );
    let mut g = start(&s);
    while g.view(None).phase != "blue fires (red's turn)" {
        play(&mut g, "end", &[]);
    }
    // r1, straight out of its southern hexside, may be fired on; r2, in its front arc but
    // beside that hexside, may not.
    assert!(
        legal(&*g).contains(&"fire g1 r1".to_string()),
        "{:?}",
        legal(&*g)
    );
    let why = refused(&mut g, "fire g1 r2");
    assert!(
        why.contains("g1 stands in a forest and fires only out of the hexside it faces, S (M62)"),
        "{why}"
    );
    // A gun in the forest, pushed by hand, may not go on into the next forest hex (blue moves
    // first here: red 1, blue 9).
    let mut g = load(&s.replace(
        "hex = \"0505\"\nfacing = \"S\"",
        "hex = \"0505\"\nfacing = \"N\"",
    ));
    g.start(&mut ScriptedDice::new([1, 9]));
    assert_eq!(g.view(None).phase, "blue movement");
    let why = refused(&mut g, "move g1 0504");
    assert!(why.contains("g1 cannot enter 0504 (woods)"), "{why}");
}
