//! Optional Rules, Hidden Movement, and Rules by Sequence 3 / 3.1 (spotting): what each side
//! may see, and which events each side is told about.

mod common;

use common::*;
use volley_core::{Event, Seen};

/// Hidden movement with only the decoys a test places (the default gives every unit one).
const HIDDEN: &str = "hidden = \"yes\"\ndecoys = \"scenario\"";

fn of_kind<'a>(events: &'a [Event], kind: &str) -> Vec<&'a Event> {
    events.iter().filter(|e| e.kind == kind).collect()
}

fn start(g: &mut HexCommandGame, dice: &[u32]) -> Vec<Event> {
    let mut d = ScriptedDice::new(dice.iter().copied());
    let events = g.start(&mut d);
    assert_eq!(d.remaining(), 0, "unused scripted dice");
    events
}

fn rows(n: usize, hill: Option<(usize, usize)>) -> Vec<String> {
    (0..n)
        .map(|r| {
            (0..10)
                .map(|c| {
                    if hill == Some((c + 1, r + 1)) {
                        ".1"
                    } else {
                        "."
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

#[test]
fn hidden_enemy_is_shown_only_as_a_marker() {
    let units = unit("r1", "red", "infantry", "0510", "N", "")
        + "[[units]]\nid = \"lancers\"\nside = \"blue\"\nname = \"Lancers of the Guard\"\narm = \"cavalry\"\nhex = \"0501\"\nfacing = \"S\"\n"
        + "[[decoys]]\nside = \"blue\"\nhex = \"0301\"\n";
    let mut g = setup(HIDDEN, &[], &units);
    let lancers = g.idx("lancers");
    g.state.posts.at[1] = Some(lancers);
    g.um("lancers").commander = Some(1);
    assert!(
        !g.u("lancers").seen,
        "nine hexes off: not seen at the start"
    );
    let red = g.view(Some(Side::Red));
    assert_eq!(
        red.units.iter().map(|u| u.id.as_str()).collect::<Vec<_>>(),
        vec!["r1"]
    );
    assert!(red.units.iter().all(|u| u.arm != "cavalry"));
    let mut markers: Vec<(String, String, Side)> = red
        .markers
        .iter()
        .map(|m| (m.id.clone(), m.place.to_string(), m.side))
        .collect();
    markers.sort();
    assert_eq!(
        markers,
        vec![
            ("m1".to_string(), "0301".to_string(), Side::Blue),
            ("m2".to_string(), "0501".to_string(), Side::Blue)
        ],
        "the real unit and the decoy look alike"
    );
    let json = serde_json::to_string(&red).unwrap();
    for secret in ["lancers", "Lancers", "cavalry", "decoy", "bd1"] {
        assert!(
            !json.contains(secret),
            "red's view leaks {secret:?}: {json}"
        );
    }
    let blau = &red.sides[Side::Blue.index()].commanders[0];
    assert_eq!(blau.attached_to, None, "nor where Blau is");
    // Blue sees its own units, the decoy among them.
    let blue = g.view(Some(Side::Blue));
    assert!(blue
        .units
        .iter()
        .any(|u| u.id == "lancers" && u.name == "Lancers of the Guard" && u.has("hidden")));
    assert!(blue.units.iter().any(|u| u.arm == "decoy"));
    // Red's own unit, nine hexes from any blue one, is hidden from blue in turn.
    assert_eq!(blue.markers.len(), 1);
    assert_eq!(blue.markers[0].place, "0510");
}

#[test]
fn hidden_enemy_cannot_be_targeted() {
    let units = unit("r1", "red", "infantry", "0505", "N", "")
        + &unit("b1", "blue", "infantry", "0502", "S", "");
    let mut g = setup_map(HIDDEN, &[("0502", "W")], "", &units);
    assert!(!g.u("b1").seen, "in woods three hexes off");
    g.at_fire(Side::Red, true);
    assert!(!g.legal_texts().iter().any(|t| t.starts_with("fire r1")));
}

#[test]
fn units_within_five_hexes_in_the_open_are_revealed() {
    let units = unit("r1", "red", "infantry", "0509", "N", "")
        + &unit("b1", "blue", "infantry", "0501", "S", "");
    let mut g = setup(HIDDEN, &[], &units);
    assert!(!g.u("b1").seen && !g.u("r1").seen);
    g.at(Side::Red, Phase::Movement);
    g.play("move r1 0508", &[]);
    let events = g.play("move r1 0507", &[]);
    assert!(of_kind(&events, "spotted").is_empty(), "six hexes: not yet");
    assert!(!g.u("b1").seen);
    let events = g.play("move r1 0506", &[]);
    assert!(g.u("b1").seen, "five hexes in the open");
    assert!(g.u("r1").seen, "and r1, in the open, is seen by b1");
    let spotted = of_kind(&events, "spotted");
    assert!(spotted.iter().all(|e| e.rule == "hex-command 3.1"));
    assert!(spotted
        .iter()
        .any(|e| e.text.contains("b1 b1 (infantry) is spotted at 0501")));
    assert!(g.view(Some(Side::Red)).units.iter().any(|u| u.id == "b1"));
    assert!(g.view(Some(Side::Red)).markers.is_empty());
}

#[test]
fn units_in_woods_are_not_revealed_automatically() {
    let units = unit("r1", "red", "infantry", "0505", "N", "")
        + &unit("b1", "blue", "infantry", "0501", "N", "");
    let mut g = setup_map(HIDDEN, &[("0501", "W")], "", &units);
    g.at(Side::Red, Phase::Movement);
    g.play("move r1 0504", &[]);
    g.play("move r1 0503", &[]);
    assert!(!g.u("b1").seen, "two hexes off, but in woods");
    assert!(g.u("r1").seen, "r1 in the open is seen");
    // Only next to it.
    g.play("move r1 0502", &[]);
    assert!(g.u("b1").seen);
}

#[test]
fn spotting_roll_needs_a_red_star() {
    // Eight hexes apart on the flat: at the start of red's turn each side looks for the
    // other's marker, markers in the order of their hexes (never of the units under them,
    // which would tell real units from decoys): red for b1 at 0502, then blue for r1 at 0510.
    let units = unit("r1", "red", "infantry", "0510", "N", "")
        + &unit("b1", "blue", "infantry", "0502", "S", "");
    let mut g = setup(HIDDEN, &[], &units);
    let events = start(&mut g, &[5, 2, 6, 1]);
    assert!(g.u("b1").seen, "red rolled the red star");
    assert!(!g.u("r1").seen, "blue rolled blue");
    let rolls = of_kind(&events, "spotting");
    assert_eq!(rolls.len(), 2);
    assert!(rolls.iter().all(|e| e.rule == "hex-command 3.1"));
    assert!(rolls[0].text.contains("looks for the marker at 0502"));
    assert!(rolls[0].text.contains("rolled 6 (Red star (CnC)): spotted"));
    // A plain red is not enough.
    let mut g = setup(HIDDEN, &[], &units);
    start(&mut g, &[5, 2, 4, 1]);
    assert!(!g.u("b1").seen);
    // Nine hexes is out of range: no roll at all.
    let units = unit("r1", "red", "infantry", "0510", "N", "")
        + &unit("b1", "blue", "infantry", "0501", "S", "");
    let mut g = setup(HIDDEN, &[], &units);
    let events = start(&mut g, &[5, 2]);
    assert!(of_kind(&events, "spotting").is_empty());
}

#[test]
fn a_search_for_a_marker_is_told_to_the_searcher_only() {
    // 3.1 with Hidden Movement (interpretation 43): whether a marker is searched, and with a
    // roll or at once, depends on where the searcher's own unseen units stand, so the roll is
    // told to the searching side only; the marker's owner is told what the search finds.
    let units = unit("r1", "red", "infantry", "0510", "N", "")
        + &unit("b1", "blue", "infantry", "0502", "S", "");
    let mut g = setup(HIDDEN, &[], &units);
    // Red searches b1's marker and rolls the red star; blue searches r1's and rolls a 1.
    let events = start(&mut g, &[5, 2, 6, 1]);
    let rolls = of_kind(&events, "spotting");
    assert_eq!(rolls.len(), 2);
    assert_eq!((rolls[0].side, rolls[0].seen), (Some(Side::Red), Seen::Red));
    assert_eq!(
        (rolls[1].side, rolls[1].seen),
        (Some(Side::Blue), Seen::Blue)
    );
    // Blue's failed search leaves red nothing to read; red's success shows blue its unit found.
    let found = of_kind(&events, "spotted");
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].seen, Seen::Both);
    assert!(found[0]
        .text
        .contains("b1 b1 (infantry) is spotted at 0502"));
    assert!(!events
        .iter()
        .any(|e| e.seen.by(Side::Red) && e.text.contains("looks for the marker at 0510")));
}

#[test]
fn spotting_from_a_hill_reaches_twelve_hexes() {
    let map = rows(14, Some((5, 14)));
    let map: Vec<&str> = map.iter().map(|r| r.as_str()).collect();
    // Eleven hexes from the hill: red rolls (blue, on the flat, cannot look that far).
    let units = unit("r1", "red", "infantry", "0514", "N", "")
        + &unit("b1", "blue", "infantry", "0503", "S", "");
    let mut g = setup(HIDDEN, &map, &units);
    start(&mut g, &[5, 2, 6]);
    assert!(g.u("b1").seen);
    assert!(!g.u("r1").seen);
    // Thirteen: too far even from the hill.
    let units = unit("r1", "red", "infantry", "0514", "N", "")
        + &unit("b1", "blue", "infantry", "0501", "S", "");
    let mut g = setup(HIDDEN, &map, &units);
    start(&mut g, &[5, 2]);
    assert!(!g.u("b1").seen);
}

#[test]
fn units_out_of_sight_go_back_under_markers() {
    // b1 was seen, but no red unit is within the 9 hexes of sight any more.
    let units = unit("r1", "red", "infantry", "1010", "N", "")
        + &unit("b1", "blue", "infantry", "0101", "S", "");
    let mut g = setup(HIDDEN, &[], &units);
    g.um("b1").seen = true;
    let events = start(&mut g, &[5, 2]);
    assert!(!g.u("b1").seen);
    let hid = of_kind(&events, "hidden");
    assert_eq!(hid.len(), 1);
    assert_eq!(hid[0].seen, Seen::Blue, "only blue is told");
    assert_eq!(hid[0].rule, "hex-command Optional Rules: Hidden Movement");
    assert!(g
        .view(Some(Side::Red))
        .markers
        .iter()
        .any(|m| m.place == "0101"));
}

#[test]
fn decoy_found_out_is_removed() {
    let units = unit("r1", "red", "infantry", "0509", "N", "")
        + &unit("b1", "blue", "infantry", "0101", "N", "")
        + "[[decoys]]\nside = \"blue\"\nhex = \"0503\"\n";
    let mut g = setup(HIDDEN, &[], &units);
    let d = g
        .state
        .units
        .iter()
        .position(|u| u.arm == rules_hex_command::units::Arm::Decoy)
        .unwrap();
    g.at(Side::Red, Phase::Movement);
    let events = g.play("move r1 0508", &[]);
    assert!(
        !g.state.units[d].active(),
        "five hexes in the open: found out"
    );
    let e = of_kind(&events, "spotted");
    assert_eq!(e[0].rule, "hex-command Optional Rules: Hidden Movement");
    assert!(
        e[0].text.contains("the marker at 0503 was a decoy"),
        "{}",
        e[0].text
    );
    assert!(g
        .view(Some(Side::Red))
        .markers
        .iter()
        .all(|m| m.place != "0503"));
    // By a spotting roll at the start of a turn.
    let units = unit("r1", "red", "infantry", "0510", "N", "")
        + &unit("b1", "blue", "infantry", "0101", "N", "")
        + "[[decoys]]\nside = \"blue\"\nhex = \"0503\"\n";
    let mut g = setup(HIDDEN, &[], &units);
    start(&mut g, &[5, 2, 6]);
    assert!(!g.state.units[d].active());
    // Decoys never count as units: blue's losses are unchanged.
    assert_eq!(g.state.losses_percent(Side::Blue), 0.0);
}

#[test]
fn bumping_into_a_hidden_enemy_halts_the_move() {
    // b1 stands next to r1 but is still under its marker (as after an integrity withdrawal
    // that put r1 beside it): to red the hex looks empty.
    let units = unit("r1", "red", "infantry", "0508", "N", "")
        + &unit("b1", "blue", "infantry", "0507", "N", "")
        + &unit("b9", "blue", "infantry", "0101", "N", "");
    let mut g = setup(HIDDEN, &[], &units);
    g.um("b1").seen = false;
    g.at(Side::Red, Phase::Movement);
    assert!(g.legal_texts().contains(&"move r1 0507".to_string()));
    let events = g.play("move r1 0507", &[]);
    assert_eq!(g.u("r1").hex, h("0508"), "it halts where it is");
    assert_eq!(g.u("r1").mp, 0);
    assert!(g.u("b1").seen, "and finds b1");
    let bump = of_kind(&events, "bump");
    assert_eq!(bump[0].rule, "hex-command Optional Rules: Hidden Movement");
    assert!(bump[0].text.contains("runs into b1"), "{}", bump[0].text);
    // A decoy in the way is found out and removed, and the move halts too.
    let units = unit("r1", "red", "infantry", "0508", "N", "")
        + &unit("b9", "blue", "infantry", "0101", "N", "")
        + "[[decoys]]\nside = \"blue\"\nhex = \"0507\"\n";
    let mut g = setup(HIDDEN, &[], &units);
    g.at(Side::Red, Phase::Movement);
    let events = g.play("move r1 0507", &[]);
    assert!(of_kind(&events, "bump")[0]
        .text
        .contains("finds only a decoy"));
    assert_eq!(g.u("r1").hex, h("0508"));
    assert!(g
        .view(Some(Side::Red))
        .markers
        .iter()
        .all(|m| m.place != "0507"));
}

#[test]
fn bumping_into_a_hidden_enemy_beyond_a_friend_halts_the_pass_through() {
    let units = unit("r1", "red", "light-infantry", "0509", "N", "")
        + &unit("r2", "red", "infantry", "0508", "N", "")
        + &unit("b1", "blue", "infantry", "0507", "N", "")
        + &unit("b9", "blue", "infantry", "0101", "N", "");
    let mut g = setup(HIDDEN, &[], &units);
    g.um("b1").seen = false;
    g.at(Side::Red, Phase::Movement);
    assert!(g.legal_texts().contains(&"move r1 0507".to_string()));
    g.play("move r1 0507", &[]);
    assert_eq!(g.u("r1").hex, h("0509"));
    assert!(g.u("b1").seen);
    assert!(g.check_invariants().is_ok());
}

#[test]
fn firing_reveals_the_firer() {
    // b1 in woods two hexes from r1: it sees r1 in the open, r1 does not see it.
    let units = unit("r1", "red", "infantry", "0505", "N", "")
        + &unit("b1", "blue", "infantry", "0503", "S", "");
    let mut g = setup_map(HIDDEN, &[("0503", "W")], "", &units);
    assert!(g.u("r1").seen && !g.u("b1").seen);
    g.at_fire(Side::Blue, false);
    let events = g.play("fire b1 0505", &[1]);
    assert!(g.u("b1").seen, "the smoke gives it away");
    let spotted = of_kind(&events, "spotted");
    assert_eq!(spotted[0].rule, "hex-command 3.1");
    // Red may now fire back in its phasing fire (range 2, woods: Code).
    assert_eq!(g.view(None).phase, "red fire (phasing)");
    assert!(g.legal_texts().contains(&"fire r1 0503".to_string()));
}

#[test]
fn events_about_hidden_units_are_seen_only_by_their_owner() {
    let units = unit("r1", "red", "infantry", "0510", "N", "")
        + &unit("b1", "blue", "infantry", "0101", "S", "")
        + &unit("b2", "blue", "infantry", "0508", "N", "");
    let mut g = setup(HIDDEN, &[], &units);
    assert!(!g.u("b1").seen && g.u("b2").seen);
    g.at(Side::Blue, Phase::Movement);
    let events = g.play("move b1 0102", &[]);
    let mv = of_kind(&events, "move");
    assert_eq!(mv[0].seen, Seen::Blue);
    assert!(!mv[0].seen.by(Side::Red) && mv[0].seen.by(Side::Blue));
    let events = g.play("face b1 SE", &[]);
    assert_eq!(of_kind(&events, "face")[0].seen, Seen::Blue);
    let events = g.play("attach B1 b1", &[]);
    assert_eq!(of_kind(&events, "attach")[0].seen, Seen::Blue);
    // A seen unit's doings are everyone's.
    let events = g.play("move b2 0507", &[]);
    assert_eq!(of_kind(&events, "move")[0].seen, Seen::Both);
}

#[test]
fn integrity_rolls_of_hidden_units_are_seen_only_by_their_owner() {
    let units = unit("r1", "red", "infantry", "1010", "S", "")
        + &unit("b1", "blue", "infantry", "0105", "S", "")
        + &unit("b3", "blue", "infantry", "0101", "N", "points = 20");
    let mut g = setup(HIDDEN, &[], &units);
    g.um("b3").fate = Fate::Destroyed;
    assert!(!g.u("b1").seen);
    g.at(Side::Red, Phase::Melee);
    let events = g.play("end", &[5]);
    assert_eq!(g.u("b1").hex, h("0102"));
    let rolls = of_kind(&events, "integrity");
    assert_eq!(rolls[0].seen, Seen::Both, "that blue checks is public");
    assert_eq!(
        rolls[1].seen,
        Seen::Blue,
        "which unit fell back where is not"
    );
}

#[test]
fn hidden_unit_routing_off_the_map_is_named_only_to_its_owner() {
    let units = unit("r1", "red", "infantry", "1010", "S", "")
        + &unit("b1", "blue", "infantry", "0102", "N", "")
        + &unit("b9", "blue", "infantry", "0301", "N", "points = 100");
    let mut g = setup(HIDDEN, &[], &units);
    {
        let b1 = g.um("b1");
        b1.routed = true;
        b1.routed_turn = 1;
        b1.hits = 3;
    }
    assert!(!g.u("b1").seen);
    g.at(Side::Red, Phase::Melee);
    let events = g.play("end", &[]);
    assert_eq!(g.u("b1").fate, Fate::LeftField);
    let rout = of_kind(&events, "rout");
    assert!(rout.iter().all(|e| e.seen == Seen::Blue), "{rout:?}");
}

#[test]
fn every_unit_gets_one_decoy_by_default() {
    // Optional Rules, Hidden Movement: each unseen unit shows as two markers, itself and one
    // decoy, placed behind it.
    let units = unit("r1", "red", "infantry", "0508", "N", "")
        + &unit("b1", "blue", "infantry", "0502", "S", "");
    let g = setup("hidden = \"yes\"", &[], &units);
    let decoys: Vec<(String, volley_core::Hex)> = g
        .state
        .units
        .iter()
        .filter(|u| u.arm == rules_hex_command::units::Arm::Decoy)
        .map(|u| (u.id.to_string(), u.hex))
        .collect();
    assert_eq!(
        decoys,
        vec![
            ("rx1".to_string(), h("0509")),
            ("bx2".to_string(), h("0501"))
        ]
    );
    // Blue sees two markers on red's side, and cannot tell which is real.
    let v = g.view(Some(Side::Blue));
    assert_eq!(v.markers.len(), 2, "{:?}", v.markers);
}

#[test]
fn a_marker_stopping_in_a_zone_of_control_is_told_only_to_its_owner() {
    // Issue 16: "b1 enters an enemy zone of control" shown to red named the marker's unit
    // (or decoy) before red had found anything out. The stop is blue's to know; what red
    // learns comes with the reveal.
    let units = unit("r1", "red", "infantry", "0505", "N", "")
        + &unit("b1", "blue", "infantry", "0503", "S", "")
        + &unit("b9", "blue", "infantry", "0101", "N", "");
    let mut g = setup(HIDDEN, &[], &units);
    g.um("b1").seen = false;
    g.at(Side::Blue, Phase::Movement);
    let events = g.play("move b1 0504", &[]);
    let zoc = of_kind(&events, "zoc");
    assert_eq!(zoc.len(), 1, "{events:?}");
    assert!(
        zoc[0].text.contains("b1 enters") && zoc[0].text.contains("0504"),
        "{}",
        zoc[0].text
    );
    assert_eq!(zoc[0].seen, volley_core::Seen::Blue);
    // A unit the enemy already sees stops in plain view.
    let mut g = setup(HIDDEN, &[], &units);
    g.at(Side::Blue, Phase::Movement);
    g.um("b1").seen = true;
    let events = g.play("move b1 0504", &[]);
    assert_eq!(of_kind(&events, "zoc")[0].seen, volley_core::Seen::Both);
}

#[test]
fn a_marker_taking_an_objective_changes_it_for_the_enemy_only_once_seen() {
    // Issue 16: the holder changed under a marker only when it was a real unit, so the
    // objective told red what the marker was. Red now learns who holds it when it sees.
    let objective = "[[objectives]]\nhex = \"0504\"\nname = \"the mill\"\npoints = 10\n";
    let units = unit("r1", "red", "infantry", "0510", "N", "")
        + &unit("b1", "blue", "infantry", "0503", "S", "")
        + &unit("b9", "blue", "infantry", "0101", "N", "")
        + objective;
    let mut g = setup_map(HIDDEN, &[("0503", "W"), ("0504", "W")], "", &units);
    g.um("b1").seen = false;
    g.at(Side::Blue, Phase::Movement);
    g.play("move b1 0504", &[]);
    let holder = |g: &HexCommandGame, viewer: Option<Side>| g.view(viewer).objectives[0].holder;
    assert_eq!(
        g.state.objectives[0].holder,
        Some(Side::Blue),
        "blue holds it"
    );
    assert_eq!(holder(&g, Some(Side::Blue)), Some(Side::Blue));
    assert_eq!(holder(&g, None), Some(Side::Blue));
    assert_eq!(
        holder(&g, Some(Side::Red)),
        None,
        "to red it is a marker in the woods"
    );
    // Seen, the unit shows who holds the mill.
    let b1 = g.state.units.iter().position(|u| u.id == "b1").unwrap();
    rules_hex_command::effects::reveal(&mut g.state, b1, &mut volley_core::Log::silent());
    assert_eq!(holder(&g, Some(Side::Red)), Some(Side::Blue));
}

#[test]
fn the_enemy_is_not_told_which_unit_under_a_marker_decides() {
    // Issue 16: the waiting side read "Blue: b4 has rallied; choose the way it faces" about
    // a unit under a marker. (Abandoned guns no longer name a crew gone back under one
    // either; the server's fog test searches every view for such names.)
    let units = unit("r1", "red", "infantry", "0510", "N", "")
        + &unit("b1", "blue", "infantry", "0502", "S", "");
    let g = setup(HIDDEN, &[], &units);
    let b1 = g.state.units.iter().position(|u| u.id == "b1").unwrap();
    assert!(!g.state.visible_to(b1, Side::Red));
    let named = "Blue: b1 has rallied; choose the way it faces (8)".to_string();
    let decider = rules_hex_command::legal::decider(&g.state).unwrap().title();
    assert_eq!(
        rules_hex_command::view::prompt_for(&g.state, named.clone(), Some(Side::Red)),
        format!("{decider}: a decision about a unit you cannot see")
    );
    assert_eq!(
        rules_hex_command::view::prompt_for(&g.state, named.clone(), Some(Side::Blue)),
        named
    );
    assert_eq!(
        rules_hex_command::view::prompt_for(&g.state, named.clone(), None),
        named
    );
}
