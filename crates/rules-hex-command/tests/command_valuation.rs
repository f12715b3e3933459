//! Section 2.2 (the Command Valuation System: traits, written orders, order changes, decision
//! failures, replacements), Sequence of Play 5 and 7 c (who fires first), Rules by Sequence 2
//! (army integrity and its triggers) and the audit's command defects.

mod common;

use common::*;
use hex_command_family::cvs::Traits;
use hex_command_family::orders::{Consequence, Order, OrderKind};
use rules_hex_command::state::{Cvs, FireWho};
use volley_core::Event;

fn of_kind<'a>(events: &'a [Event], kind: &str) -> Vec<&'a Event> {
    events.iter().filter(|e| e.kind == kind).collect()
}

fn spares() -> String {
    unit("r9", "red", "infantry", "1010", "S", "points = 100")
        + &unit("b9", "blue", "infantry", "0101", "N", "points = 100")
}

/// Red's brigade "1st" (r1, r2) under R1 with a written order, orders and the CVS on.
fn brigade_game(order: &str) -> HexCommandGame {
    let units = unit("r1", "red", "infantry", "0508", "N", "brigade = \"1st\"")
        + &unit("r2", "red", "infantry", "0608", "N", "brigade = \"1st\"")
        + &unit("b1", "blue", "infantry", "0502", "S", "")
        + &spares()
        + &format!(
            "[[brigades]]\nid = \"1st\"\nside = \"red\"\nname = \"First Brigade\"\ncommander = \"R1\"\norder = {order}\n"
        );
    let mut g = setup("orders = \"yes\"\ncvs = \"scenario\"", &[], &units);
    g.state.commanders[0].traits = Some(Traits {
        initiative: 5,
        combat: 1,
        morale: 1,
        tactical: 5,
        aggressiveness: 6,
    });
    g
}

#[test]
fn a_written_order_limits_where_a_brigade_steps() {
    // 2.2.1: attacking 0502, r1 may not step away from it; with a commander attached it may.
    let mut g = brigade_game("{ kind = \"attack\", hex = \"0502\" }");
    g.at(Side::Red, Phase::Movement);
    let texts = g.legal_texts();
    assert!(texts.contains(&"move r1 0507".to_string()));
    // r2, turned about, may not step straight away from 0502 (0609).
    g.play("face r2 S", &[]);
    assert!(!g.legal_texts().contains(&"move r2 0609".to_string()));
    g.play("attach R1 r2", &[]);
    assert!(
        g.legal_texts().contains(&"move r2 0609".to_string()),
        "6: free with a commander"
    );
    // A reserve brigade does not move at all.
    let mut g = brigade_game("{ kind = \"reserve\" }");
    g.at(Side::Red, Phase::Movement);
    assert!(
        !g.legal_texts().iter().any(|t| t.starts_with("move r2")),
        "{:?}",
        g.legal_texts()
    );
}

#[test]
fn an_order_change_passes_on_a_roll_over_tactical() {
    let mut g = brigade_game("{ kind = \"reserve\" }");
    g.at(Side::Red, Phase::Orders);
    assert!(g
        .legal_texts()
        .contains(&"order 1st attack 0502".to_string()));
    // d10 6 against Tactical 5: passes; the brigade has its new order at once.
    let events = g.play("order 1st attack 0502", &[6]);
    let e = of_kind(&events, "order");
    assert_eq!(e[0].rule, "hex-command 2.2.2");
    assert!(
        e[0].text.contains("d10 6 against Tactical 5: passes"),
        "{}",
        e[0].text
    );
    assert_eq!(
        g.state.brigades[0].order,
        Some(Order {
            kind: OrderKind::Attack,
            hex: Some(h("0502"))
        })
    );
    // One attempt a turn, and at most Initiative (5) in the game.
    assert_eq!(g.state.brigades[0].changes_made, 1);
    assert!(!g.legal_texts().iter().any(|t| t.starts_with("order")));
}

#[test]
fn a_failed_order_change_rolls_on_the_decision_failure_table() {
    // d10 5 is not over Tactical 5: the d10 on the table gives 2, halted and disordered.
    let mut g = brigade_game("{ kind = \"march\", hex = \"0502\" }");
    g.at(Side::Red, Phase::Orders);
    let events = g.play("order 1st hold 0508", &[5, 2]);
    let d = of_kind(&events, "decision");
    assert!(d[0].text.contains("d10 2"), "{}", d[0].text);
    assert_eq!(g.state.brigades[0].order.unwrap().kind, OrderKind::March);
    assert_eq!(g.state.brigades[0].standing.halted_turn, Some(g.state.turn));
    assert_eq!((g.u("r1").te, g.u("r2").te), (1, 1));
    g.play("end", &[]);
    assert_eq!(g.state.phase, Phase::Movement);
    assert!(
        !g.legal_texts()
            .iter()
            .any(|t| t.starts_with("move r1") || t.starts_with("face r1")),
        "result 2: no advance and no facing change this turn"
    );
}

#[test]
fn a_nine_is_the_opponents_choice_of_consequence() {
    let mut g = brigade_game("{ kind = \"march\", hex = \"0502\" }");
    g.at(Side::Red, Phase::Orders);
    g.play("order 1st hold 0508", &[1, 9]);
    assert_eq!(g.state.phase, Phase::Decision);
    assert_eq!(g.to_decide(), Some(Side::Blue));
    let choices = g.legal_texts();
    assert_eq!(choices.len(), 9, "every result but 9: {choices:?}");
    // Blue picks 10: a hit on every unit of the brigade.
    g.play("consequence 1st 10", &[]);
    assert_eq!((g.u("r1").hits, g.u("r2").hits), (1, 1));
    // Red's orders phase is over (one attempt a turn): on to its movement.
    assert_eq!(g.state.phase, Phase::Movement);
    assert_eq!(g.to_decide(), Some(Side::Red));
}

#[test]
fn a_timid_brigade_stays_back_until_it_passes_aggressiveness() {
    let mut g = brigade_game("{ kind = \"march\", hex = \"0502\" }");
    rules_hex_command::command::apply_consequence(
        &mut g.state,
        0,
        Consequence::Timid,
        &mut volley_core::Log::silent(),
    );
    g.at(Side::Red, Phase::Movement);
    let texts = g.legal_texts();
    assert!(
        !texts.contains(&"move r1 0507".to_string()),
        "no step towards b1"
    );
    // At the start of red's next turn it tests Aggressiveness 6: a 7 passes.
    let mut d = ScriptedDice::new([7]);
    rules_hex_command::command::timid_tests(
        &mut g.state,
        Side::Red,
        &mut d,
        &mut volley_core::Log::silent(),
    );
    assert!(!g.state.brigades[0].standing.timid);
}

#[test]
fn falling_back_goes_to_the_rear_until_cover() {
    // Result 6: about face and fall back until in cover, then hold.
    let mut g = setup_map(
        "orders = \"yes\"",
        &[("0510", "W")],
        "",
        &(unit("r1", "red", "infantry", "0508", "N", "brigade = \"1st\"")
            + &spares()
            + "[[brigades]]\nid = \"1st\"\nside = \"red\"\ncommander = \"R1\"\norder = { kind = \"attack\", hex = \"0502\" }\n"),
    );
    rules_hex_command::command::apply_consequence(
        &mut g.state,
        0,
        Consequence::FallBack,
        &mut volley_core::Log::silent(),
    );
    let r1 = g.u("r1");
    assert_eq!(r1.hex, h("0510"), "two hexes back, into the forest");
    assert_eq!(r1.facing, volley_core::geometry::Facing::S);
    assert_eq!(
        g.state.brigades[0].order,
        Some(Order::reserve()),
        "it holds there"
    );
}

#[test]
fn random_cvs_rates_every_commander_at_the_start() {
    let units = unit("r1", "red", "infantry", "0508", "N", "")
        + &unit("b1", "blue", "infantry", "0502", "S", "");
    let mut g = setup("cvs = \"random\"", &[], &units);
    // Each commander: a d6 for the group (5: Trained), a d6 for the row (3); then initiative.
    let mut d = ScriptedDice::new([5, 3, 5, 3, 4, 2]);
    let events = g.start(&mut d);
    let rated = of_kind(&events, "cvs");
    assert_eq!(rated.len(), 2);
    assert_eq!(rated[0].rule, "hex-command 2.2.3");
    let t = g.state.commanders[0].traits.expect("rated");
    assert_eq!(
        g.state.commanders[0].value, t.combat as i32,
        "combat is its value"
    );
    assert_eq!(g.state.settings().cvs, Cvs::Random);
}

#[test]
fn a_lost_commander_may_be_replaced() {
    let units = unit("r1", "red", "infantry", "0508", "N", "")
        + &unit("b1", "blue", "infantry", "0502", "S", "")
        + &spares();
    let mut g = setup("cvs = \"scenario\"", &[], &units);
    let mut second = g.state.commanders[0].clone();
    second.id = "R2".into();
    second.supreme = false;
    g.state.commanders.push(second);
    let (at, fallen) = (g.state.posts.at[0], g.state.posts.fallen[0]);
    g.state.posts.at.push(at);
    g.state.posts.fallen.push(fallen);
    for c in &mut g.state.commanders {
        c.traits = Some(Traits {
            initiative: 5,
            combat: 1,
            morale: 1,
            tactical: 6,
            aggressiveness: 5,
        });
    }
    g.state.posts.fallen[0] = Some(Fallen::Killed);
    // d10 7 over the best remaining Tactical (6): a replacement, rated d6 1 (Untrained), d6 2.
    let mut d = ScriptedDice::new([7, 1, 2]);
    let mut log = volley_core::Log::new();
    rules_hex_command::command::replacements(&mut g.state, &mut d, &mut log);
    let k = g.state.commanders.len() - 1;
    assert_eq!(&*g.state.commanders[k].id, "R1+");
    assert!(g.state.commander_ready(k));
    assert!(log
        .into_events()
        .iter()
        .any(|e| e.rule == "hex-command 2.2.3"));
}

#[test]
fn integrity_is_checked_when_every_commander_is_lost() {
    // Sequence of Play 2: with every commander gone, blue checks integrity each turn even
    // though its losses are below the break point; b1 rolls red and falls back 3 hexes.
    let units = unit("r1", "red", "infantry", "0508", "N", "")
        + &unit("b1", "blue", "infantry", "0503", "S", "")
        + &spares();
    let mut g = setup("", &[], &units);
    g.state.posts.fallen[1] = Some(Fallen::Killed);
    g.state.sides[1].supreme_checked = true;
    g.at(Side::Red, Phase::Melee);
    // Red ends its turn; blue's begins with the check: b1 red (4), b9 blue (1).
    let events = g.play("end", &[4, 1]);
    let rolls = of_kind(&events, "integrity");
    assert!(
        rolls[0]
            .text
            .contains("every commander of the army is lost"),
        "{}",
        rolls[0].text
    );
    assert_eq!(rolls[0].rule, "hex-command Rules by Sequence 2");
    // Its rear is north: 0502, 0501, then the map edge: it withdraws off the map.
    assert_eq!(g.u("b1").fate, Fate::LeftField);
}

#[test]
fn break_point_by_default_means_integrity_rolls_not_defeat() {
    // Rules by Sequence 2: past its break point an army rolls each turn; the game goes on.
    let units = unit("r1", "red", "infantry", "0910", "S", "")
        + &unit("b1", "blue", "infantry", "0505", "S", "")
        + &unit("b3", "blue", "infantry", "0101", "N", "points = 20");
    let mut g = setup("", &[], &units);
    g.um("b3").fate = Fate::Destroyed;
    g.at(Side::Red, Phase::Melee);
    g.state.turns.at = 1;
    // Turn ends; turn 2: initiative (red 5, blue 2), red's turn: no check for red.
    g.play("end", &[5, 2]);
    assert!(g.outcome().is_none(), "the battle goes on");
}

#[test]
fn fire_order_options_split_the_fire_step() {
    let units = unit("r1", "red", "infantry", "0508", "N", "")
        + &unit("b1", "blue", "infantry", "0502", "S", "")
        + &spares();
    // 7 c, alternative: a roll decides (red 2, blue 5: blue first).
    let mut g = setup("fire_order = \"roll\"", &[], &units);
    g.at(Side::Red, Phase::Movement);
    let events = g.play("end", &[2, 5]);
    assert_eq!(g.state.fire_rounds[0].side, Side::Blue);
    assert!(of_kind(&events, "fire order")[0]
        .text
        .contains("blue fires first"));
    // 7 c, second alternative: units with commanders first.
    let mut g = setup("fire_order = \"commanders\"", &[], &units);
    g.at(Side::Red, Phase::Movement);
    g.play("end", &[6, 1]);
    let who: Vec<(Side, FireWho)> = g
        .state
        .fire_rounds
        .iter()
        .map(|r| (r.side, r.who))
        .collect();
    assert_eq!(
        who,
        vec![
            (Side::Red, FireWho::Commanded(true)),
            (Side::Blue, FireWho::Commanded(true)),
            (Side::Red, FireWho::Commanded(false)),
            (Side::Blue, FireWho::Commanded(false)),
        ]
    );
}

#[test]
fn cavalry_withdraw_two_turns_of_their_own_march_when_the_supreme_commander_falls() {
    // Hand-out, Break Point: "two turns distance" is each unit's own: cavalry 10 hexes.
    let rows: Vec<String> = (0..16).map(|_| ["."; 10].join(" ")).collect();
    let rows: Vec<&str> = rows.iter().map(|r| r.as_str()).collect();
    let units = unit("r1", "red", "infantry", "0501", "S", "")
        + &unit("b1", "blue", "cavalry", "0503", "N", "");
    let mut g = setup("", &rows, &units);
    // A second blue commander, so that blue is not left with none (a check of its own).
    let mut spare = g.state.commanders[1].clone();
    spare.id = "B2".into();
    spare.supreme = false;
    g.state.commanders.push(spare);
    let (at, fallen) = (g.state.posts.at[1], g.state.posts.fallen[1]);
    g.state.posts.at.push(at);
    g.state.posts.fallen.push(fallen);
    let b1 = g.idx("b1");
    g.state.posts.at[1] = Some(b1);
    g.um("b1").commander = Some(1);
    g.at_fire(Side::Red, true);
    // The red star kills Blau; b1 rolls red.
    g.play("fire r1 0503", &[6, 4]);
    assert_eq!(g.u("b1").hex, h("0513"), "ten hexes to its rear");
}

/// Two brigades a side, numbered 1 and 2, and a battery each (which floats).
fn groups_game(mode: &str) -> HexCommandGame {
    let brigade = |id: &str, side: &str, n: u8| {
        format!("[[brigades]]\nid = \"{id}\"\nside = \"{side}\"\nactivation = {n}\n")
    };
    let units = unit("r1", "red", "infantry", "0310", "N", "brigade = \"ra\"")
        + &unit("r2", "red", "infantry", "0710", "N", "brigade = \"rb\"")
        + &unit("r3", "red", "artillery", "0510", "N", "limbered = true")
        + &unit("b1", "blue", "infantry", "0301", "S", "brigade = \"ba\"")
        + &unit("b2", "blue", "infantry", "0701", "S", "brigade = \"bb\"")
        + &brigade("ra", "red", 1)
        + &brigade("rb", "red", 2)
        + &brigade("ba", "blue", 1)
        + &brigade("bb", "blue", 2);
    setup(&format!("activation = \"{mode}\""), &[], &units)
}

#[test]
fn the_activation_sequence_moves_groups_alternately_then_all_fire() {
    // Hand-out: A's group 1, B's group 1, A's group 2, B's group 2; then both fire, A first.
    let mut g = groups_game("groups");
    let mut d = ScriptedDice::new([5, 2]); // red wins the initiative
    g.start(&mut d);
    let movers = |g: &HexCommandGame| {
        let mut m: Vec<String> = g
            .legal_texts()
            .into_iter()
            .filter(|t| t.starts_with("move") || t.starts_with("unlimber"))
            .map(|t| t.split(' ').nth(1).unwrap().to_string())
            .collect();
        m.dedup();
        m
    };
    assert_eq!(
        (g.state.phasing(), g.state.phase),
        (Side::Red, Phase::Movement)
    );
    assert_eq!(
        movers(&g),
        vec!["r1", "r3"],
        "group 1 and the floating battery"
    );
    g.play("end", &[]);
    assert_eq!(g.state.phasing(), Side::Blue);
    assert_eq!(movers(&g), vec!["b1"]);
    g.play("end", &[]);
    assert_eq!(movers(&g), vec!["r2", "r3"]);
    g.play("end", &[]);
    assert_eq!(movers(&g), vec!["b2"]);
    // Nobody is in range: the fire step and melee pass, both sides rally, the turn ends and
    // the next begins with its initiative (blue 4 against red 1).
    let events = g.play("end", &[1, 4]);
    assert_eq!(g.state.turn, 2);
    assert_eq!(
        (g.state.phasing(), g.state.active_group()),
        (Side::Blue, Some(1))
    );
    assert!(events.iter().any(|e| e.kind == "initiative"));
}

#[test]
fn group_turns_run_each_activation_as_a_small_player_turn() {
    // 2.3: after red's group 1 moves, blue fires as the non-phasing player, then group 1.
    let mut g = groups_game("group-turns");
    let mut d = ScriptedDice::new([5, 2]);
    g.start(&mut d);
    assert_eq!(g.state.active_group(), Some(1));
    assert!(g.legal_texts().contains(&"move r1 0309".to_string()));
    assert!(!g.legal_texts().iter().any(|t| t.starts_with("move r2")));
    g.play("end", &[]);
    // Nothing in range: the fire step and melee pass; blue's group 1 is next.
    assert_eq!(
        (g.state.phasing(), g.state.active_group()),
        (Side::Blue, Some(1))
    );
    assert_eq!(g.state.phase, Phase::Movement);
}

#[test]
fn with_commander_pieces_a_new_order_goes_by_courier() {
    // 2 d: R1 stands at 0501, seven hexes from its brigade; the courier rides five a turn.
    let units = unit("r1", "red", "infantry", "0508", "N", "brigade = \"1st\"")
        + &unit("b1", "blue", "infantry", "0902", "S", "")
        + &spares()
        + "[[brigades]]\nid = \"1st\"\nside = \"red\"\ncommander = \"R1\"\norder = { kind = \"reserve\" }\n";
    let mut g = setup("orders = \"yes\"\ncommanders = \"pieces\"", &[], &units);
    g.state.posts.at[0] = None;
    g.um("r1").commander = None;
    g.state.commanders[0].hex = Some(h("0501"));
    g.at(Side::Red, Phase::Orders);
    let events = g.play("order 1st attack 0902", &[9]);
    assert!(of_kind(&events, "courier")[0]
        .text
        .contains("rides from Roth at 0501"));
    assert_eq!(
        g.state.brigades[0].order,
        Some(Order::reserve()),
        "not yet delivered"
    );
    let mut log = volley_core::Log::new();
    rules_hex_command::command::ride_couriers(&mut g.state, Side::Red, &mut log);
    assert_eq!(g.state.couriers[0].hex, h("0506"));
    rules_hex_command::command::ride_couriers(&mut g.state, Side::Red, &mut log);
    assert!(g.state.couriers.is_empty());
    assert_eq!(g.state.brigades[0].order.unwrap().kind, OrderKind::Attack);
}
