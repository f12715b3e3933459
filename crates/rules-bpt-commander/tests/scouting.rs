//! Scouting Cavalry (optional) and the hidden set-up it scouts (option `hidden_setup`).

mod common;

use common::*;
use rules_bpt_commander::BptGame;
use volley_core::{Game, ScenarioSource, Seed, SeededDice, Side};

/// A single scouting stand's keys.
const SCOUT: &[(&str, &str)] = &[("stands", "1"), ("traits", "[\"scout\"]")];

fn ids(g: &BptGame, viewer: Side) -> Vec<String> {
    let mut v: Vec<String> = g
        .view(Some(viewer))
        .units
        .iter()
        .map(|u| u.id.to_string())
        .collect();
    v.sort();
    v
}

fn markers(g: &BptGame, viewer: Side) -> Vec<String> {
    g.view(Some(viewer))
        .markers
        .iter()
        .map(|m| volley_core::geometry::label(m.place.hex().expect("a hex")))
        .collect()
}

/// Red infantry at 0610 facing north, blue infantry `at`, hidden set-up on, red to order.
fn hidden_duel(at: &str) -> BptGame {
    Scen::new()
        .inf("red", "r1", "0610", "N", &[])
        .inf("blue", "b1", at, "S", &[])
        .option("hidden_setup", "on")
        .command()
}

#[test]
fn under_a_hidden_set_up_the_enemy_sees_only_markers() {
    let mut g = hidden_duel("0607");
    // Red sees its own units and a marker for each hex of blue's (b1, and blue's command unit
    // at 0603); blue, the same of red's.
    assert_eq!(ids(&g, Side::Red), vec!["r1", "rhq"]);
    assert_eq!(markers(&g, Side::Red), vec!["0603", "0607"]);
    assert_eq!(ids(&g, Side::Blue), vec!["b1", "bhq"]);
    assert_eq!(markers(&g, Side::Blue), vec!["0610"]);
    // Nothing can be aimed at a marker, though b1 is 15 cm away in the open.
    let legal: Vec<String> = g.legal_actions().iter().map(|&a| g.notation(a)).collect();
    assert!(!legal.iter().any(|a| a.contains("b1")), "{legal:?}");
    play(&mut g, "order rhq r1", &[2, 2]);
    let m = refused(&mut g, "fire r1 b1");
    assert!(m.contains("b1"), "{m}");
    // Coming within 5 cm reveals it: r1 steps to 0608, next to b1.
    let e = play(&mut g, "move r1 0608", &[]);
    assert!(
        log(&e).contains("b1 b1 at 0607 comes within 5 cm of r1 r1"),
        "{}",
        log(&e)
    );
    assert_eq!(ids(&g, Side::Red), vec!["b1", "r1", "rhq"]);
    assert_eq!(markers(&g, Side::Red), vec!["0603"]);
    // r1 gave itself away by its order.
    assert!(!g.units[k(&g, "r1")].hidden);
}

#[test]
fn a_hidden_unit_shows_itself_when_it_acts() {
    let mut g = hidden_duel("0605");
    assert!(g.units[k(&g, "rhq")].hidden);
    let e = play(&mut g, "order rhq r1", &[2, 2]);
    assert!(
        log(&e).contains("gives itself away by acting"),
        "{}",
        log(&e)
    );
    assert!(!g.units[k(&g, "rhq")].hidden && !g.units[k(&g, "r1")].hidden);
    assert_eq!(markers(&g, Side::Blue), Vec::<String>::new());
    // Blue's b1 is still hidden from red.
    assert!(g.units[k(&g, "b1")].hidden);
}

/// A red scouting stand at 0611 and red infantry out of its way at 1011; blue infantry `at`
/// behind a hedge on its north side when `hedge`.
fn scouted(at: &str, hedge: bool) -> BptGame {
    let mut s = Scen::new()
        .cav("red", "s1", "0611", "N", SCOUT)
        .inf("red", "r1", "1011", "N", &[])
        .inf("blue", "b1", at, "S", &[])
        .option("hidden_setup", "on");
    if hedge {
        let north = format!("{}{:02}", &at[..2], at[2..].parse::<u32>().unwrap() - 1);
        s = s.map(&format!(
            "hexsides = [{{ between = [\"{at}\", \"{north}\"], kind = \"hedge\" }}]"
        ));
    }
    s.command()
}

#[test]
fn scouting_cavalry_spot_30_cm_in_the_open_and_15_in_cover() {
    // In the open: six hexes (30 cm) from s1 is spotted at the set-up, seven is not.
    let g = scouted("0605", false);
    assert!(!g.units[k(&g, "b1")].hidden);
    let g = scouted("0604", false);
    assert!(g.units[k(&g, "b1")].hidden);
    // Behind a hedge: three hexes (15 cm), not four.
    let g = scouted("0608", true);
    assert!(!g.units[k(&g, "b1")].hidden);
    let g = scouted("0607", true);
    assert!(g.units[k(&g, "b1")].hidden);
}

#[test]
fn scouting_cavalry_need_one_order_and_then_move_freely() {
    let mut g = scouted("0604", false);
    let m = refused(&mut g, "self-order s1");
    assert!(m.contains("need one order"), "{m}");
    // The first order, with its command roll (2 + 2 against 8).
    play(&mut g, "order rhq s1", &[2, 2]);
    assert!(g.units[k(&g, "s1")].scout_free);
    // A single stand moves in any direction: back and to the side.
    play(&mut g, "move s1 0512", &[]);
    assert_eq!(g.units[k(&g, "s1")].hex, hex("0512"));
    // Next turn it orders itself, with no roll, and moves again.
    let turn = g.turn;
    while g.turn == turn
        || g.active != Side::Red
        || g.phase != rules_bpt_commander::state::Phase::Command
    {
        play(&mut g, "end", &[]);
    }
    let e = play(&mut g, "self-order s1", &[]);
    assert!(log(&e).contains("rides on as it wishes"), "{}", log(&e));
    play(&mut g, "move s1 0611", &[]);
    assert_eq!(g.units[k(&g, "s1")].hex, hex("0611"));
}

#[test]
fn scouting_cavalry_do_not_fight_and_retire_unharmed_when_fired_on() {
    // Blue's scout at 0607 is found by red's at 0511 (four hexes in the open) and stands
    // three hexes from r1, within its 20 cm.
    let mut g = Scen::new()
        .cav("red", "s1", "0511", "N", SCOUT)
        .inf("red", "r1", "0610", "N", &[])
        .cav("blue", "s2", "0607", "S", SCOUT)
        .inf("blue", "b1", "1201", "S", &[])
        .option("hidden_setup", "on")
        .command();
    assert!(!g.units[k(&g, "s2")].hidden);
    play(&mut g, "order rhq s1", &[2, 2]);
    let m = refused(&mut g, "fire s1 s2");
    assert!(m.contains("do not fight"), "{m}");
    let before = g.losses(Side::Blue);
    play(&mut g, "order rhq r1", &[2, 2]);
    // The odds know it: one outcome, certain, with no dice.
    let a = g.parse_action("fire r1 s2").unwrap();
    let cases = g.odds_cases(a).expect("counted");
    assert_eq!(cases.len(), 1);
    assert_eq!((cases[0].probability, cases[0].dice.len()), (1.0, 0));
    // No dice: the scouts ride off before any are rolled.
    let e = play(&mut g, "fire r1 s2", &[]);
    assert!(
        log(&e).contains("s2 s2 retires out of danger (fired on by r1 r1)"),
        "{}",
        log(&e)
    );
    assert!(g.units[k(&g, "s2")].ko && g.units[k(&g, "s2")].retired);
    assert_eq!(g.losses(Side::Blue), before);
}

#[test]
fn scouting_cavalry_touched_by_enemy_troops_leave_the_table() {
    // r1 moves next to blue's scout at 0608: the scout retires, not lost.
    let mut g = Scen::new()
        .inf("red", "r1", "0610", "N", &[])
        .cav("blue", "s2", "0608", "S", SCOUT)
        .inf("blue", "b1", "1201", "S", &[])
        .option("hidden_setup", "on")
        .command();
    play(&mut g, "order rhq r1", &[2, 2]);
    let e = play(&mut g, "move r1 0609", &[]);
    assert!(
        log(&e).contains("s2 s2 retires out of danger (enemy troops touch it)"),
        "{}",
        log(&e)
    );
    assert_eq!(g.losses(Side::Blue), (0, 2));
}

#[test]
fn scouting_cavalry_are_single_stands_and_need_the_hidden_set_up() {
    let load = |s: Scen| {
        rules_bpt_commander::scenario::load(
            &ScenarioSource::new("t.toml", s.text()),
            &s.options.clone(),
        )
        .map(|_| ())
        .unwrap_err()
        .to_string()
    };
    let e =
        load(
            Scen::new()
                .cav("red", "s1", "0611", "N", SCOUT)
                .inf("blue", "b1", "1201", "S", &[]),
        );
    assert!(e.contains("hidden_setup"), "{e}");
    let e = load(
        Scen::new()
            .cav("red", "s1", "0611", "N", &[("traits", "[\"scout\"]")])
            .inf("blue", "b1", "1201", "S", &[])
            .option("hidden_setup", "on"),
    );
    assert!(e.contains("single cavalry stands"), "{e}");
}

#[test]
fn what_red_believes_moves_only_what_it_cannot_see() {
    let g = Scen::new()
        .inf("red", "r1", "0610", "N", &[])
        .inf("blue", "b1", "0605", "S", &[])
        .cav("blue", "b2", "0905", "S", &[])
        .option("hidden_setup", "on")
        .command();
    let mut seen = std::collections::HashSet::new();
    for seed in 0..12 {
        let d = g.determinized(Side::Red, &mut SeededDice::new(Seed::from_u64(seed)));
        // Red's view of every sample is the true one.
        assert_eq!(d.view(Some(Side::Red)), g.view(Some(Side::Red)));
        d.check_invariants().unwrap();
        seen.insert(volley_core::geometry::label(d.units[k(&d, "b1")].hex));
    }
    // b1 was dealt to each of blue's three marker hexes (b1, b2 and the command unit's).
    assert_eq!(seen.len(), 3, "{seen:?}");
}

#[test]
fn an_enemy_hidden_on_an_objective_holds_it_only_in_its_own_sides_view() {
    let mut g = Scen::new()
        .inf("red", "r1", "0610", "N", &[])
        .inf("blue", "b1", "0605", "S", &[])
        .raw("[[objectives]]\nhex = \"0605\"\nname = \"Hill\"\npoints = 20\n")
        .option("hidden_setup", "on")
        .command();
    let blue = g.view(Some(Side::Blue));
    assert_eq!(blue.objectives[0].holder, Some(Side::Blue));
    let s = blue.standing.expect("a standing");
    assert_eq!(s.winner, Some(Side::Blue), "{}", s.reason);
    // Red sees a marker on the hill, not who holds it, and no one winning.
    let red = g.view(Some(Side::Red));
    assert_eq!(red.objectives[0].holder, None);
    let s = red.standing.expect("a standing");
    assert_eq!(s.winner, None, "{}", s.reason);
    assert!(s.reason.contains("no objective held"), "{}", s.reason);
    // The battle's end judges the map as it is: blue holds the hill.
    while g.outcome.is_none() {
        play(&mut g, "end", &[]);
    }
    let o = g.outcome.clone().unwrap();
    assert_eq!(
        o.winner,
        Some(Side::Blue),
        "{} (b1 at {:?})",
        o.reason,
        g.units[k(&g, "b1")].hex
    );
}
