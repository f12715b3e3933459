//! The Sequence of Play (initiative, the phases of a player turn), Rules by Sequence 2
//! (integrity at the break point), section 9 and Optional Rules Disorder/Fatigued (TE
//! recovery at the turn's end), the hand-out's Break Point, the turn limit and victory.

mod common;

use common::*;
use volley_core::geometry::Facing;
use volley_core::Event;

fn of_kind<'a>(events: &'a [Event], kind: &str) -> Vec<&'a Event> {
    events.iter().filter(|e| e.kind == kind).collect()
}

fn start(g: &mut HexCommandGame, dice: &[u32]) -> Vec<Event> {
    let mut d = ScriptedDice::new(dice.iter().copied());
    let events = g.start(&mut d);
    assert_eq!(d.remaining(), 0, "unused scripted dice");
    events
}

fn far_apart() -> String {
    unit("r1", "red", "infantry", "1010", "S", "")
        + &unit("b1", "blue", "infantry", "0101", "N", "")
}

#[test]
fn initiative_higher_roll_moves_first() {
    let mut g = setup("", &[], &far_apart());
    let events = start(&mut g, &[2, 5]);
    assert_eq!(g.state.turns.first, Side::Blue);
    assert_eq!(
        (g.state.phasing(), g.state.phase),
        (Side::Blue, Phase::Movement)
    );
    assert_eq!(g.to_decide(), Some(Side::Blue));
    let e = of_kind(&events, "initiative");
    assert_eq!(e[0].rule, "hex-command Sequence of Play 3");
    assert!(
        e[0].text.contains("red 2, blue 5: blue is player A"),
        "{}",
        e[0].text
    );
    let mut g = setup("", &[], &far_apart());
    start(&mut g, &[6, 1]);
    assert_eq!(g.state.phasing(), Side::Red);
}

#[test]
fn initiative_ties_are_rolled_again() {
    let mut g = setup("", &[], &far_apart());
    let events = start(&mut g, &[3, 3, 6, 6, 4, 1]);
    assert_eq!(g.state.turns.first, Side::Red);
    let e = of_kind(&events, "initiative");
    assert!(
        e[0].text
            .contains("red 3, blue 3; then red 6, blue 6; then red 4, blue 1"),
        "{}",
        e[0].text
    );
}

#[test]
fn phases_run_movement_nonphasing_fire_phasing_fire_melee() {
    // r1/b1 can shoot each other at range 3; r2/b2 stand face to face, so every phase has
    // something to decide and none is skipped.
    let units = unit("r1", "red", "infantry", "0307", "N", "")
        + &unit("b1", "blue", "infantry", "0304", "S", "")
        + &unit("r2", "red", "infantry", "0909", "N", "")
        + &unit("b2", "blue", "infantry", "0908", "S", "");
    let mut g = setup("", &[], &units);
    start(&mut g, &[5, 2]);
    let phase = |g: &HexCommandGame| (g.view(None).phase, g.to_decide());
    assert_eq!(phase(&g), ("red movement".into(), Some(Side::Red)));
    let e = g.play("end", &[]);
    assert_eq!(
        phase(&g),
        ("blue fire (non-phasing)".into(), Some(Side::Blue))
    );
    assert_eq!(
        of_kind(&e, "phase")[0].rule,
        "hex-command Sequence of Play 5"
    );
    assert!(g.legal_texts().contains(&"fire b1 0307".to_string()));
    let e = g.play("end", &[]);
    assert_eq!(phase(&g), ("red fire (phasing)".into(), Some(Side::Red)));
    assert_eq!(
        of_kind(&e, "phase")[0].rule,
        "hex-command Sequence of Play 6"
    );
    let e = g.play("end", &[]);
    assert_eq!(phase(&g), ("red melee".into(), Some(Side::Red)));
    assert_eq!(
        of_kind(&e, "phase")[0].rule,
        "hex-command Sequence of Play 7"
    );
    assert!(g.legal_texts().contains(&"melee r2 0908".to_string()));
    // Then player B's turn, the same way round.
    g.play("end", &[]);
    assert_eq!(phase(&g), ("blue movement".into(), Some(Side::Blue)));
    g.play("end", &[]);
    assert_eq!(
        phase(&g),
        ("red fire (non-phasing)".into(), Some(Side::Red))
    );
    g.play("end", &[]);
    assert_eq!(phase(&g), ("blue fire (phasing)".into(), Some(Side::Blue)));
    g.play("end", &[]);
    assert_eq!(phase(&g), ("blue melee".into(), Some(Side::Blue)));
    assert_eq!(g.state.turn, 1);
    // The end of blue's turn ends the game turn: initiative for turn 2.
    g.play("end", &[1, 6]);
    assert_eq!(g.state.turn, 2);
    assert_eq!(phase(&g), ("blue movement".into(), Some(Side::Blue)));
}

#[test]
fn phases_with_nothing_to_decide_are_skipped() {
    let mut g = setup("", &[], &far_apart());
    start(&mut g, &[5, 2]);
    // No targets and no melees: ending movement runs on to blue's movement.
    let events = g.play("end", &[]);
    assert_eq!(
        (g.state.phasing(), g.state.phase),
        (Side::Blue, Phase::Movement)
    );
    let phases: Vec<&str> = of_kind(&events, "phase")
        .iter()
        .map(|e| e.text.as_str())
        .collect();
    assert_eq!(
        phases,
        vec![
            "blue fires (non-phasing)",
            "red fires (phasing)",
            "red melee",
            "blue movement"
        ]
    );
}

#[test]
fn te_recovers_after_a_turn_without_movement() {
    let units = unit("r1", "red", "infantry", "0808", "N", "")
        + &unit("r2", "red", "infantry", "0709", "N", "")
        + &unit("b1", "blue", "infantry", "0101", "N", "");
    let mut g = setup("", &[], &units);
    g.um("r1").te = 2;
    g.um("r2").te = 2;
    g.at(Side::Red, Phase::Movement);
    g.play("move r2 0708", &[]);
    g.play("end", &[]);
    assert_eq!(g.state.phasing(), Side::Blue);
    let events = g.play("end", &[5, 2]);
    assert_eq!(g.state.turn, 2);
    assert_eq!(g.u("r1").te, 1, "r1 rested");
    assert_eq!(g.u("r2").te, 2, "r2 moved");
    let rec = of_kind(&events, "recover");
    assert_eq!(rec.len(), 1);
    assert_eq!(rec[0].rule, "hex-command Optional Rules: Disorder/Fatigued");
    assert!(
        !g.u("r1").moved_this_turn && !g.u("r2").moved_this_turn,
        "reset for turn 2"
    );
}

#[test]
fn te_does_not_recover_in_melee() {
    let units = unit("r1", "red", "infantry", "0508", "N", "")
        + &unit("b1", "blue", "infantry", "0507", "S", "")
        + &unit("b9", "blue", "infantry", "0101", "N", "");
    let mut g = setup("", &[], &units);
    g.um("r1").te = 2;
    let (r1, b1) = (g.idx("r1"), g.idx("b1"));
    g.state.melees.push(Melee {
        attacker: r1,
        defender: b1,
        rounds: 2,
    });
    g.at(Side::Red, Phase::Melee);
    g.state.turns.at = 1;
    // Blue's melee phase: one round (both blue: a TE hit each), then the turn ends.
    g.play("end", &[1, 1, 5, 2]);
    assert_eq!(g.state.turn, 2);
    assert_eq!(g.u("r1").te, 3, "no rest while locked in melee");
}

#[test]
fn integrity_check_at_break_point_withdraws_units_rolling_red() {
    let units = unit("r1", "red", "infantry", "0910", "S", "")
        + &unit("b1", "blue", "infantry", "0505", "S", "")
        + &unit("b2", "blue", "infantry", "0805", "S", "")
        + &unit("b3", "blue", "infantry", "0101", "N", "points = 20");
    let mut g = setup("", &[], &units);
    g.um("b3").fate = Fate::Destroyed;
    assert_eq!(g.state.losses_percent(Side::Blue), 50.0);
    // Red's turn ends; blue's opens with the integrity check: b1 red, b2 blue.
    g.at(Side::Red, Phase::Melee);
    let events = g.play("end", &[5, 1]);
    assert_eq!(
        (g.state.phasing(), g.state.phase),
        (Side::Blue, Phase::Movement)
    );
    let b1 = g.u("b1");
    assert_eq!(b1.hex, h("0502"), "three hexes straight to its rear");
    assert_eq!(b1.facing, Facing::S);
    assert_eq!(g.u("b2").hex, h("0805"));
    let rolls = of_kind(&events, "integrity");
    assert!(rolls
        .iter()
        .all(|e| e.rule == "hex-command Rules by Sequence 2"));
    assert!(rolls[0]
        .text
        .contains("losses 50% have reached the break point of 35%"));
    // Red, under its break point, never rolls.
    assert_eq!(rolls.len(), 3);
}

#[test]
fn army_at_break_point_loses_at_turn_end() {
    let units = unit("r1", "red", "infantry", "0910", "S", "")
        + &unit("b1", "blue", "infantry", "0505", "S", "")
        + &unit("b2", "blue", "infantry", "0805", "S", "")
        + &unit("b3", "blue", "infantry", "0101", "N", "points = 20");
    let mut g = setup("break_point_ends_game = \"yes\"", &[], &units);
    g.um("b3").fate = Fate::Destroyed;
    // Blue's melee phase, the last of the turn.
    g.at(Side::Red, Phase::Melee);
    g.state.turns.at = 1;
    let events = g.play("end", &[]);
    let o = g.outcome().expect("the game is over");
    assert_eq!(o.winner, Some(Side::Red));
    assert!(
        o.reason
            .contains("blue reached its break point (50% lost against 35%)"),
        "{}",
        o.reason
    );
    assert_eq!(o.score, [20, 0]);
    assert_eq!(g.state.phase, Phase::Over);
    assert!(g.legal_actions().is_empty());
    assert_eq!(of_kind(&events, "game over").len(), 1);
    // With the option off, the game goes on into turn 2.
    let mut g = setup("break_point_ends_game = \"no\"", &[], &units);
    g.um("b3").fate = Fate::Destroyed;
    g.at(Side::Red, Phase::Melee);
    g.state.turns.at = 1;
    g.play("end", &[5, 2]);
    assert!(g.outcome().is_none());
    assert_eq!((g.state.turn, g.state.phasing()), (2, Side::Red));
}

#[test]
fn both_armies_broken_the_deeper_loser_loses() {
    let units = unit("r1", "red", "infantry", "0910", "S", "")
        + &unit("r2", "red", "infantry", "1010", "S", "points = 20")
        + &unit("b1", "blue", "infantry", "0505", "S", "")
        + &unit("b3", "blue", "infantry", "0101", "N", "points = 30");
    let mut g = setup("break_point_ends_game = \"yes\"", &[], &units);
    g.um("r2").fate = Fate::Destroyed; // red 20/30 lost
    g.um("b3").fate = Fate::Destroyed; // blue 30/40 lost
    g.at(Side::Red, Phase::Melee);
    g.state.turns.at = 1;
    g.play("end", &[]);
    let o = g.outcome().unwrap();
    assert_eq!(o.winner, Some(Side::Red), "{}", o.reason);
}

#[test]
fn turn_limit_decides_by_objectives_and_losses() {
    let units = unit("r1", "red", "infantry", "0505", "N", "")
        + &unit("b1", "blue", "infantry", "0101", "N", "points = 100")
        + &unit("b2", "blue", "infantry", "0301", "N", "");
    let mut g = setup("", &[], &units);
    g.state.objectives.push(Objective {
        hex: h("0505"),
        name: "Mill".into(),
        points: 10,
        goal_of: None,
        holder: Some(Side::Red),
        known: [Some(Side::Red); 2],
    });
    g.um("b2").routed = true;
    g.state.turn = 10;
    g.at(Side::Red, Phase::Melee);
    g.state.turns.at = 1;
    g.play("end", &[]);
    let o = g.outcome().expect("turn 10 of 10 is the last");
    assert_eq!(o.winner, Some(Side::Red));
    assert_eq!(o.score, [20, 0], "the mill and the routed b2");
    assert!(
        o.reason
            .contains("turn limit (10) reached: victory points red 20 – blue 0"),
        "{}",
        o.reason
    );
    // Nothing held, nothing lost: a draw.
    let mut g = setup("", &[], &units);
    g.state.turn = 10;
    g.at(Side::Red, Phase::Melee);
    g.state.turns.at = 1;
    g.play("end", &[]);
    assert_eq!(g.outcome().unwrap().winner, None);
    // Before the limit the game goes on.
    let mut g = setup("", &[], &units);
    g.state.turn = 9;
    g.at(Side::Red, Phase::Melee);
    g.state.turns.at = 1;
    g.play("end", &[5, 2]);
    assert!(g.outcome().is_none());
}

#[test]
fn objectives_change_hands_when_entered() {
    let units = unit("r1", "red", "infantry", "0506", "N", "")
        + &unit("b1", "blue", "infantry", "0101", "N", "");
    let mut g = setup("", &[], &units);
    g.state.objectives.push(Objective {
        hex: h("0505"),
        name: "Mill".into(),
        points: 10,
        goal_of: None,
        holder: Some(Side::Blue),
        known: [Some(Side::Blue); 2],
    });
    g.at(Side::Red, Phase::Movement);
    g.play("move r1 0505", &[]);
    assert_eq!(g.state.objectives[0].holder, Some(Side::Red));
    assert_eq!(rules_hex_command::sequence::score(&g.state, Side::Red), 10);
}

#[test]
fn an_objective_that_is_the_enemys_goal_scores_nothing_for_its_holder() {
    // The scenario's `goals` makes the mill blue's goal: red, standing on it, scores nothing.
    let text = "ruleset = \"hex-command\"\nname = \"t\"\ntitle = \"t\"\nturn_limit = 10\n\
        goals = { blue = [\"0505\"] }\n[map]\nrows = [\". . . . . .\", \". . . . . .\", \
        \". . . . . .\", \". . . . . .\", \". . . . . .\", \". . . . . .\"]\n\
        [sides.red]\nname = \"Red\"\n[sides.blue]\nname = \"Blue\"\n\
        [[objectives]]\nhex = \"0505\"\nname = \"Mill\"\npoints = 10\n\
        [[objectives]]\nhex = \"0101\"\nname = \"Ford\"\npoints = 5\n"
        .to_string()
        + &unit("r1", "red", "infantry", "0505", "N", "")
        + &unit("b1", "blue", "infantry", "0101", "N", "");
    let src = volley_core::ScenarioSource::new("test.toml", &text);
    let g = HexCommandGame::new(
        rules_hex_command::scenario::load(
            &src,
            &volley_core::Options::new(),
            rules_hex_command::OPTIONS,
        )
        .unwrap_or_else(|e| panic!("{e}")),
    );
    assert_eq!(g.state.objectives[0].holder, Some(Side::Red));
    assert_eq!(rules_hex_command::sequence::score(&g.state, Side::Red), 0);
    assert_eq!(
        rules_hex_command::sequence::score(&g.state, Side::Blue),
        5,
        "the ford only"
    );
    let v = volley_core::Game::view(&g, Some(Side::Red));
    assert_eq!(v.objectives[0].name.as_str(), "Mill (Blue's goal)");
    assert_eq!(v.objectives[0].goal_of, Some(Side::Blue));
    assert_eq!(v.objectives[1].goal_of, None);
    // A goal that is no objective is refused where it is written.
    let bad = text.replace("blue = [\"0505\"]", "blue = [\"0303\"]");
    let src = volley_core::ScenarioSource::new("test.toml", &bad);
    let e = rules_hex_command::scenario::load(
        &src,
        &volley_core::Options::new(),
        rules_hex_command::OPTIONS,
    )
    .expect_err("refused")
    .to_string();
    assert!(
        e.contains("test.toml:5:") && e.contains("0303 is not one of the objectives"),
        "{e}"
    );
}

#[test]
fn side_with_no_units_left_loses() {
    let units = unit("r1", "red", "infantry", "0503", "N", "")
        + &unit("b1", "blue", "infantry", "0502", "S", "");
    let mut g = setup("", &[], &units);
    g.um("b1").hits = 2;
    g.at_fire(Side::Red, true);
    let events = g.play("fire r1 0502", &[]);
    assert_eq!(g.u("b1").fate, Fate::LeftField);
    let o = g.outcome().expect("blue has nothing left");
    assert_eq!(o.winner, Some(Side::Red));
    assert!(o.reason.contains("blue has no units left"), "{}", o.reason);
    assert_eq!(g.state.phase, Phase::Over);
    assert!(g.legal_actions().is_empty());
    assert!(of_kind(&events, "game over")[0]
        .text
        .starts_with("red wins"));
}

#[test]
fn the_log_stamps_turn_end_events_with_the_old_turn_and_the_initiative_with_the_new() {
    // Sequence of Play 3 opens each turn; what the last player's phases logged before it
    // belongs to the turn that ended.
    let text = format!(
        "ruleset = \"hex-command\"\nname = \"t\"\ntitle = \"t\"\nturn_limit = 5\n[map]\nrows = [{}]\n[sides.red]\nname = \"Red\"\n[sides.blue]\nname = \"Blue\"\n{}{}",
        vec![format!("\"{}\"", [".";10].join(" ")); 10].join(", "),
        unit("r1", "red", "infantry", "0909", "N", ""),
        unit("b1", "blue", "infantry", "0101", "S", ""),
    );
    let mut s = volley_core::Session::new(
        &rules_hex_command::RULESET,
        &volley_core::ScenarioSource::new("t.toml", text),
        "t",
        &volley_core::Options::new(),
        Seed::from_u64(1),
    )
    .unwrap();
    assert_eq!(s.game.turn(), 1);
    // Player A ends its movement (its fire and melee are empty), then player B does the same,
    // which ends the turn: B's empty phases are logged, then turn 2's initiative (red 5, blue 2).
    s.apply_text("end", &[]).unwrap();
    let logged = s.apply_text("end", &[5, 2]).unwrap();
    assert_eq!(s.game.turn(), 2);
    let opening = logged.iter().position(|e| e.event.opens_turn).unwrap();
    assert_eq!(logged[opening].event.kind, "initiative");
    assert!(opening > 0, "{logged:#?}");
    assert!(logged[..opening].iter().all(|e| e.turn == 1), "{logged:#?}");
    assert!(logged[opening..].iter().all(|e| e.turn == 2), "{logged:#?}");
}

/// A crowded battle: both armies in dense lines of every arm, face to face.
fn crowded(per_side: usize) -> HexCommandGame {
    let mut units = String::new();
    let arms = [
        ("infantry", "B"),
        ("light-infantry", "A"),
        ("skirmishers", "C"),
        ("cavalry", "B"),
        ("artillery", "B"),
        ("infantry", "A"),
    ];
    for (side, row0, facing, dir) in [("red", 13, "N", -1i32), ("blue", 8, "S", 1)] {
        for k in 0..per_side {
            let (arm, class) = arms[k % arms.len()];
            let (col, row) = (1 + (k % 20) as i32, row0 + dir * (k / 20) as i32);
            units += &format!(
                "[[units]]\nid = \"{}{k}\"\nside = \"{side}\"\nname = \"{side} {k}\"\narm = \"{arm}\"\nclass = \"{class}\"\nhex = \"{col:02}{row:02}\"\nfacing = \"{facing}\"\n",
                &side[..1]
            );
        }
    }
    let rows: Vec<String> = (0..20).map(|_| ["."; 20].join(" ")).collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    setup("", &rows, &units)
}

#[test]
fn the_kept_listing_agrees_with_a_fresh_one_in_a_crowded_battle() {
    // Every action of random games between dense lines: the invariant check compares the
    // listing kept from action to action with one made from scratch.
    let mut played = 0;
    for seed in 0..12u64 {
        let mut g = crowded(60);
        let mut dice = SeededDice::new(Seed::from_u64(seed));
        let mut bot = 0x9e37_79b9_u64 ^ seed;
        g.start(&mut dice);
        let mut n = 0;
        while g.outcome().is_none() && n < 3000 {
            let legal = g.legal_actions();
            bot = bot
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let a = legal[(bot >> 33) as usize % legal.len()];
            g.apply(a, &mut dice).unwrap();
            if let Err(e) = g.check_invariants() {
                panic!("seed {seed} after {}: {e}", g.notation(a));
            }
            n += 1;
        }
        played += n;
    }
    assert!(played > 6000, "only {played} actions were played");
}
