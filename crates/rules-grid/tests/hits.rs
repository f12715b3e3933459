//! Resolving Hits: the defender's die per enemy unit that scored, retreat or one more loss,
//! strength points, removal, and the tables by quality. One test per rule, with scripted dice and
//! exact results. Maps are square unless a test says hex; labels are column then row ("0304" =
//! column 3, row 4).

mod common;

use common::*;
use volley_core::{Game, Side};

#[test]
fn hits_defender_rolls_one_die_per_enemy_unit_that_scored() {
    let mut g = two_shooters("");
    play(&mut g, "fire r1 0302", &[6, 6]);
    // The last shot ends the phase; the defender's dice follow at once.
    let events = play(&mut g, "fire r2 0302", &[6, 6, 1, 5]);
    let t = texts(&events);
    assert!(
        t.contains(
            "[grid-rules-v1.1 Resolving Hits] b1 takes 4 hits from 2 units: strength 6 → 2."
        ),
        "{t}"
    );
    assert!(t.contains("b1 at 0302 rolls 1 (retreat), 5 (stand): it retreats one tile to 0301; strength now 2."), "{t}");
    assert_eq!((strength(&*g, "b1"), tile(&*g, "b1").as_str()), (2, "0301"));
}

#[test]
fn hits_retreat_and_loss_results_add_up() {
    let mut g = two_shooters("");
    play(&mut g, "fire r1 0302", &[5, 4]);
    let events = play(&mut g, "fire r2 0302", &[5, 4, 3, 3]);
    assert!(texts(&events).contains("rolls 3 (retreat and 1 loss), 3 (retreat and 1 loss): it retreats one tile to 0301; strength now 2."), "{}", texts(&events));
}

#[test]
fn hits_a_unit_that_does_not_retreat_loses_one_more_point() {
    let mut g = two_shooters("");
    play(&mut g, "fire r1 0302", &[5, 4]);
    let events = play(&mut g, "end", &[6]);
    assert!(texts(&events)
        .contains("rolls 6 (stand): it does not retreat and loses 1 more point; strength now 4."));
    assert_eq!(tile(&*g, "b1"), "0302");
}

#[test]
fn hits_a_unit_retreats_at_most_one_tile_and_if_it_cannot_loses_one_more() {
    let s = scenario(
        "square",
        &[".", ".", ".", "."],
        &[
            unit("r1", "red", "line_infantry", "0103", "N"),
            unit("b1", "blue", "line_infantry", "0101", "S"),
        ],
        "",
    );
    let mut g = start(&s, &[6, 1]);
    play(&mut g, "end", &[]);
    let events = play(&mut g, "fire r1 0101", &[6, 6, 1]);
    assert!(
        texts(&events).contains(
            "rolls 1 (retreat): it cannot retreat and loses 1 more point instead; strength now 2."
        ),
        "{}",
        texts(&events)
    );
}

#[test]
fn hits_strength_points_are_6_infantry_4_cavalry_3_artillery() {
    let s = scenario(
        "square",
        &rows(&open(6, 6)),
        &[
            unit("r1", "red", "line_infantry", "0105", "N"),
            unit("r2", "red", "light_infantry", "0205", "N"),
            unit("r3", "red", "cavalry", "0305", "N"),
            unit("r4", "red", "artillery", "0405", "N"),
            unit("b1", "blue", "line_infantry", "0101", "S"),
        ],
        "",
    );
    let g = start(&s, &[6, 1]);
    let got: Vec<u32> = ["r1", "r2", "r3", "r4"]
        .iter()
        .map(|u| strength(&*g, u))
        .collect();
    assert_eq!(got, [6, 6, 4, 3]);
}

#[test]
fn hits_unit_removed_at_zero_and_a_side_with_no_units_loses() {
    let s = scenario(
        "square",
        &[".", ".", ".", "."],
        &[
            unit("r1", "red", "artillery", "0103", "N"),
            unit("b1", "blue", "artillery", "0101", "S"),
        ],
        "",
    );
    let mut g = start(&s, &[6, 1]);
    play(&mut g, "end", &[]);
    let events = play(&mut g, "fire r1 0101", &[6, 6]);
    let t = texts(&events);
    assert!(
        t.contains("b1 (artillery) has no strength points left and is removed from play."),
        "{t}"
    );
    assert!(t.contains("red wins: blue has no units left."), "{t}");
    assert!(g.view(None).unit("b1").is_none());
    assert_eq!(g.outcome().unwrap().winner, Some(Side::Red));
    assert_eq!(g.outcome().unwrap().score, [3, 0]);
    assert_eq!(g.to_decide(), None);
    assert!(g.legal_actions().is_empty());
}

fn quality_game(quality: &str) -> Box<dyn Game> {
    let s = scenario(
        "square",
        &rows(&open(6, 6)),
        &[
            unit("r1", "red", "line_infantry", "0204", "N"),
            unit("b1", "blue", "line_infantry", "0302", "S")
                + &format!("quality = \"{quality}\"\n"),
        ],
        "",
    );
    let mut g = start(&s, &[6, 1]);
    play(&mut g, "end", &[]);
    g
}

#[test]
fn hits_elite_units_retreat_sooner_and_inexperienced_ones_lose_more() {
    // The same shot (range 3, 5+4 = 9: 1 hit) and the same die, 3, read by quality.
    for (quality, line, at, points) in [
        ("regular", "b1 at 0302 rolls 3 (retreat and 1 loss): it retreats one tile to 0301; strength now 4.", "0301", 4),
        ("elite", "b1 at 0302 rolls 3 (retreat) on the elite table: it retreats one tile to 0301; strength now 5.", "0301", 5),
        ("inexperienced", "b1 at 0302 rolls 3 (stand) on the inexperienced table: it does not retreat and loses 1 more point; strength now 4.", "0302", 4),
    ] {
        let mut g = quality_game(quality);
        // r1 is red's only shooter: the phase ends with its shot, and b1 rolls at once.
        let events = play(&mut g, "fire r1 0302", &[5, 4, 3]);
        assert!(texts(&events).contains(line), "{quality}: {}", texts(&events));
        assert_eq!(tile(&*g, "b1"), at);
        assert_eq!(strength(&*g, "b1"), points);
        let flags = unit_view(&*g, "b1").flags;
        assert_eq!(flags.iter().any(|f| f.as_ref() == quality), quality != "regular");
    }
    let s = scenario(
        "square",
        &rows(&open(4, 4)),
        &[
            unit("r1", "red", "line_infantry", "0204", "N"),
            unit("b1", "blue", "line_infantry", "0302", "S") + "quality = \"green\"\n",
        ],
        "",
    );
    let e = load(&s).err().unwrap();
    assert_eq!(e.line, line_of(&s, "quality = \"green\""));
    assert!(
        e.message
            .contains("unknown quality \"green\" (expected elite, regular, inexperienced)"),
        "{e}"
    );
}
