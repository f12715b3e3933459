//! Tests of the closing chapters: stand losses and recovery at the turn's close, the
//! breakpoint roll, objectives and victory points.

mod common;

use common::*;
use rules_bpt_commander::state::Phase;
use volley_core::{Game, Log, Side};

/// Red with four units, `lost` of them knocked out before the battle starts.
fn losing(lost: usize) -> Scen {
    Scen::new()
        .inf("red", "r1", "0110", "N", &[])
        .inf("red", "r2", "0310", "N", &[])
        .inf("red", "r3", "0510", "N", &[])
        .inf("red", "r4", "0710", "N", &[])
        .inf("blue", "b1", "1201", "S", &[])
        .top(&format!("# {lost} lost"))
}

fn start_losing(lost: usize, dice: &[u32]) -> rules_bpt_commander::BptGame {
    let mut g = losing(lost).load();
    for id in ["r1", "r2", "r3", "r4"].iter().take(lost) {
        let u = k(&g, id);
        g.knock_out(u, "test", &mut Log::silent());
    }
    let mut d = volley_core::ScriptedDice::new(dice.iter().copied());
    g.start(&mut d);
    assert_eq!(d.remaining(), 0);
    g
}

#[test]
fn below_the_breakpoint_no_roll_is_made() {
    let g = start_losing(1, &[]);
    assert_eq!(g.phase, Phase::Command);
}

#[test]
fn at_the_breakpoint_a_command_roll_on_the_cos_value_holds() {
    let g = start_losing(2, &[4, 4]);
    assert_eq!(g.phase, Phase::Command);
    assert_eq!(g.broken, None);
}

#[test]
fn breakpoint_roll_is_one_worse_for_each_unit_beyond() {
    let mut g = losing(3).load();
    for id in ["r1", "r2", "r3"] {
        let u = k(&g, id);
        g.knock_out(u, "test", &mut Log::silent());
    }
    let mut d = volley_core::ScriptedDice::new([4, 3]);
    let e = g.start(&mut d);
    assert!(log(&e).contains("needs 7 or less"), "{}", log(&e));
    assert_eq!(g.broken, None);
}

#[test]
fn breakpoint_roll_failure_breaks_the_command() {
    let mut g = start_losing(2, &[5, 4]);
    assert_eq!(g.broken, Some(Side::Red));
    // The other side finishes the game turn, then the battle is over.
    assert_eq!(g.active, Side::Blue);
    while g.outcome.is_none() {
        play(&mut g, "end", &[]);
    }
    let o = g.outcome.clone().unwrap();
    assert_eq!(o.winner, Some(Side::Blue));
    assert!(o.reason.contains("broke"), "{}", o.reason);
}

#[test]
fn a_major_objective_held_at_the_end_of_a_game_turn_ends_the_battle_decisively() {
    let mut g = Scen::new()
        .inf("red", "r1", "0608", "N", &[])
        .inf("blue", "b1", "1201", "S", &[])
        .top("majors = [\"0608\"]")
        .raw("[[objectives]]\nhex = \"0608\"\nname = \"Village\"\npoints = 50\n")
        .command();
    play(&mut g, "end", &[]);
    play(&mut g, "end", &[]);
    assert!(g.outcome.is_none());
    while g.outcome.is_none() {
        play(&mut g, "end", &[]);
    }
    let o = g.outcome.clone().unwrap();
    assert_eq!(g.turn, 1);
    assert_eq!(o.winner, Some(Side::Red));
    assert!(o.reason.contains("a decisive victory"), "{}", o.reason);
}

#[test]
fn an_objective_that_is_one_sides_goal_counts_for_that_side_only() {
    // The village is red's goal: blue standing on it ends nothing and wins nothing.
    let scen = |goals: &str| {
        Scen::new()
            .inf("red", "r1", "1201", "N", &[])
            .inf("blue", "b1", "0608", "S", &[])
            .top("majors = [\"0608\"]")
            .top(goals)
            .raw("[[objectives]]\nhex = \"0608\"\nname = \"Village\"\npoints = 50\n")
            .command()
    };
    let mut g = scen("goals = { red = [\"0608\"] }");
    let v = volley_core::Game::view(&g, Some(Side::Red));
    assert_eq!(&*v.objectives[0].name, "Village (major, Red's goal)");
    while g.outcome.is_none() {
        play(&mut g, "end", &[]);
    }
    assert_eq!(g.turn, 4, "the battle ran to its turn limit");
    assert_eq!(g.outcome.clone().unwrap().winner, None);
    // Without the goal blue's hold ends the battle at the end of the first game turn.
    let mut g = scen("");
    while g.outcome.is_none() {
        play(&mut g, "end", &[]);
    }
    assert_eq!(g.turn, 1);
    assert_eq!(g.outcome.clone().unwrap().winner, Some(Side::Blue));
    // A goal must be an objective, and of one side only.
    for (goals, says) in [
        (
            "goals = { red = [\"0609\"] }",
            "0609 is not one of the objectives",
        ),
        (
            "goals = { red = [\"0608\"], blue = [\"0608\"] }",
            "a goal of both sides",
        ),
    ] {
        let e = village_refused(goals);
        assert!(e.contains(says), "{e}");
    }
}

#[test]
fn a_minor_objective_against_none_is_a_minor_victory_at_the_turn_limit() {
    let mut g = Scen::new()
        .inf("red", "r1", "0608", "N", &[])
        .inf("blue", "b1", "1201", "S", &[])
        .raw("[[objectives]]\nhex = \"0608\"\nname = \"Hill\"\npoints = 20\n")
        .command();
    while g.outcome.is_none() {
        play(&mut g, "end", &[]);
    }
    let o = g.outcome.clone().unwrap();
    assert_eq!(g.turn, 4);
    assert_eq!(o.winner, Some(Side::Red));
    assert!(o.reason.contains("a minor victory"), "{}", o.reason);
    assert!(o.reason.contains("4 turns are played"));
}

#[test]
fn twice_the_enemys_victory_points_raise_the_result_a_step() {
    let mut g = Scen::new()
        .inf("red", "r1", "0608", "N", &[])
        .inf("blue", "b1", "1201", "S", &[])
        .inf("blue", "b2", "1101", "S", &[])
        .inf("blue", "b3", "1001", "S", &[])
        .inf("blue", "b4", "0901", "S", &[])
        .command();
    let b2 = k(&g, "b2");
    g.knock_out(b2, "test", &mut Log::silent());
    // 10 points a stand × 4 stands.
    assert_eq!(g.victory_points(Side::Red), 40);
    while g.outcome.is_none() {
        play(&mut g, "end", &[]);
    }
    let o = g.outcome.clone().unwrap();
    assert_eq!(o.winner, Some(Side::Red));
    assert!(o.reason.contains("a minor victory"), "{}", o.reason);
    assert_eq!(o.score, [40, 0]);
}

#[test]
fn knocked_out_command_units_score_their_points() {
    let mut g = Scen::new()
        .inf("red", "r1", "0608", "N", &[])
        .inf("blue", "b1", "1201", "S", &[])
        .command();
    let h = k(&g, "bhq");
    g.knock_out(h, "test", &mut Log::silent());
    assert_eq!(g.victory_points(Side::Red), 55);
}

#[test]
fn a_side_with_no_units_left_loses_at_once() {
    let mut g = Scen::new()
        .inf("red", "r1", "0608", "N", &[])
        .inf("blue", "b1", "0605", "S", &[("stands", "1")])
        .start_with(&[]);
    play(&mut g, "fire r1 b1", &[4, 4, 4, 1]);
    let o = g.outcome.clone().expect("over");
    assert_eq!(o.winner, Some(Side::Red));
    assert!(o.reason.contains("no units left"), "{}", o.reason);
}

#[test]
fn poor_weather_costs_the_breakpoint_roll_one_too() {
    // At the breakpoint with the CO's 8 in poor weather: 7 or less, so 4+4 breaks.
    let mut g = losing(2).option("weather", "poor").load();
    for id in ["r1", "r2"] {
        let u = k(&g, id);
        g.knock_out(u, "test", &mut Log::silent());
    }
    let mut d = volley_core::ScriptedDice::new([4, 4]);
    let e = g.start(&mut d);
    assert!(log(&e).contains("needs 7 or less"), "{}", log(&e));
    assert_eq!(g.broken, Some(Side::Red));
}

#[test]
fn the_view_says_who_would_win_if_the_battle_ended_now() {
    let mut g = Scen::new()
        .inf("red", "r1", "0608", "N", &[])
        .inf("blue", "b1", "1201", "S", &[])
        .raw("[[objectives]]\nhex = \"0608\"\nname = \"Hill\"\npoints = 20\n")
        .command();
    let s = g.view(Some(Side::Blue)).standing.expect("a standing");
    assert_eq!(s.winner, Some(Side::Red));
    assert!(!s.decisive);
    assert!(
        s.reason.starts_with("a minor victory for ") && s.reason.contains("holds Hill"),
        "{}",
        s.reason
    );
    // It is the same judgement the end of the battle makes, and gone once it is made.
    while g.outcome.is_none() {
        play(&mut g, "end", &[]);
    }
    assert_eq!(g.outcome.clone().unwrap().winner, s.winner);
    assert!(g.view(Some(Side::Red)).standing.is_none());
}

#[test]
fn with_no_objective_held_and_no_losses_the_standing_is_a_draw() {
    let g = Scen::new()
        .inf("red", "r1", "0608", "N", &[])
        .inf("blue", "b1", "1201", "S", &[])
        .raw("[[objectives]]\nhex = \"0901\"\nname = \"Hill\"\npoints = 20\n")
        .command();
    let s = g.view(None).standing.expect("a standing");
    assert_eq!(s.winner, None);
    assert!(
        s.reason.starts_with("a draw (no objective held"),
        "{}",
        s.reason
    );
}

#[test]
fn an_objective_major_for_one_side_is_minor_for_the_other() {
    // The village is red's major objective and blue's minor one: blue holding it ends
    // nothing, and at the turn limit it is a minor victory for blue; red taking it ends the
    // battle at the end of that game turn, decisively.
    let scen = |blue_at: &str| {
        Scen::new()
            .inf("red", "r1", "1201", "N", &[])
            .inf("blue", "b1", blue_at, "S", &[])
            .top("majors = { red = [\"0608\"] }")
            .raw("[[objectives]]\nhex = \"0608\"\nname = \"Village\"\npoints = 50\n")
            .command()
    };
    let mut g = scen("0608");
    let v = volley_core::Game::view(&g, Some(Side::Blue));
    assert_eq!(
        &*v.objectives[0].name,
        "Village (major for Red, minor for Blue)"
    );
    while g.outcome.is_none() {
        play(&mut g, "end", &[]);
    }
    assert_eq!(g.turn, 4, "blue's hold did not end the battle");
    let o = g.outcome.clone().unwrap();
    assert_eq!(o.winner, Some(Side::Blue));
    assert!(o.reason.contains("a minor victory"), "{}", o.reason);
    // Red on the village (blue elsewhere) ends the first game turn with a decisive victory.
    let mut g = Scen::new()
        .inf("red", "r1", "0608", "N", &[])
        .inf("blue", "b1", "1201", "S", &[])
        .top("majors = { red = [\"0608\"] }")
        .raw("[[objectives]]\nhex = \"0608\"\nname = \"Village\"\npoints = 50\n")
        .command();
    while g.outcome.is_none() {
        play(&mut g, "end", &[]);
    }
    assert_eq!(g.turn, 1);
    let o = g.outcome.clone().unwrap();
    assert_eq!(o.winner, Some(Side::Red));
    assert!(o.reason.contains("a decisive victory"), "{}", o.reason);
    // By side, the hexes must still be objectives, and the sides red and blue.
    for (majors, says) in [
        (
            "majors = { red = [\"0609\"] }",
            "0609 is not one of the objectives",
        ),
        ("majors = { green = [\"0608\"] }", "unknown field `green`"),
        (
            "majors = { blue = [\"0608\"] }\ngoals = { red = [\"0608\"] }",
            "0608 is Red's goal only: it cannot be a major objective for Blue",
        ),
    ] {
        let e = village_refused(majors);
        assert!(e.contains(says), "{e}");
    }
}

/// Why a battle with a village objective at 0608 and the `top` line is refused.
fn village_refused(top: &str) -> String {
    let s = Scen::new()
        .inf("red", "r1", "1201", "N", &[])
        .inf("blue", "b1", "0608", "S", &[])
        .top(top)
        .raw("[[objectives]]\nhex = \"0608\"\nname = \"Village\"\npoints = 50\n");
    rules_bpt_commander::scenario::load(
        &volley_core::ScenarioSource::new("t.toml", s.text()),
        &s.options,
    )
    .map(|_| ())
    .expect_err("refused")
    .to_string()
}
