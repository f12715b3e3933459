//! Command (3.2, M23–M39): commanders with the troops they lead, written orders, free-will tests, the consequence table, capture.

mod common;

use common::*;

#[test]
fn commanders_help_fire_by_one_or_by_their_combat_trait() {
    // A commander takes one off the number needed: 3+ becomes 2+ (M27).
    let mut g = commander_fire_game("");
    let events = play(&mut g, "fire r1 b1", &[2]);
    assert!(
        texts(&events).contains("needs 2+ on a d6, rolled 2: hit."),
        "{}",
        texts(&events)
    );
    // With cvs_combat its Combat, 2: a hit without a roll (M132).
    let mut g = commander_fire_game("cvs_combat = \"yes\"");
    let events = play(&mut g, "fire r1 b1", &[]);
    assert!(
        texts(&events).contains("r1 fires at b1 at range 1: a hit without a roll: hit."),
        "{}",
        texts(&events)
    );
}

#[test]
fn orders_bind_a_group_until_a_change_gets_through_on_tactical() {
    let mut g = orders_game();
    assert!(refused(&mut g, "move r1 0508")
        .contains("r1: its written order (reserve) does not allow that step (M37)"));
    // d10 6 above Roth's Tactical 5: the new order gets through.
    let events = play(&mut g, "reorder 1 attack 0505", &[6]);
    assert!(texts(&events).contains("red tries to change group 1's order to attack 0505: d10 6 against R1's Tactical 5: the new order gets through."), "{}", texts(&events));
    play(&mut g, "move r1 0508", &[]);
    // Attack 0505 never steps away from it: every step r1 may still take keeps it as near.
    for m in legal(&*g).iter().filter(|a| a.starts_with("move r1 ")) {
        let to = volley_core::geometry::parse_label(&m[8..]).unwrap();
        let farm = volley_core::geometry::parse_label("0505").unwrap();
        let here = volley_core::geometry::parse_label("0508").unwrap();
        assert!(
            to.unsigned_distance_to(farm) <= here.unsigned_distance_to(farm),
            "{m}"
        );
    }
}

#[test]
fn orders_a_failed_change_rolls_the_consequence_table() {
    let mut g = orders_game();
    // d10 3 fails; consequence d10 1: halted this turn (M39).
    let events = play(&mut g, "reorder 1 attack 0505", &[3, 1]);
    let t = texts(&events);
    assert!(
        t.contains(
            "Consequence d10 1 for red's group 1: no advance and no facing change this turn."
        ),
        "{t}"
    );
    assert!(refused(&mut g, "move r1 0508").contains("group 1 is halted this turn"));
}

#[test]
fn orders_a_free_will_test_frees_a_unit_for_the_turn() {
    let mut g = orders_game();
    // d10 7 above Aggressiveness 6.
    let events = play(&mut g, "freewill r2", &[7]);
    assert!(texts(&events).contains("r2 tests its free will: d10 7 against R1's Aggressiveness 6: it acts as it sees fit this turn."), "{}", texts(&events));
    play(&mut g, "move r2 0308", &[]);
}

#[test]
fn commanders_of_a_nation_lead_only_their_own_troops() {
    for (nation, needed) in [("german", "2+"), ("italian", "3+")] {
        let s = scenario(
            None,
            "commanders = [{ id = \"R1\", name = \"Roth\", value = 1, supreme = true, nation = \"German\" }, { id = \"R2\", name = \"Rossi\", value = 1, nation = \"italian\" }]",
            &[
                squad("r1", "red", "M", "0506", "N", &format!("nation = \"{nation}\"")),
                squad("b1", "blue", "M", "0504", "S", ""),
            ],
        );
        let mut g = start(&s);
        play(&mut g, "end", &[]);
        // R2 has no other hex of its side to go to: the step ends with R1 placed.
        play(&mut g, "place R1 0506", &[]);
        play(&mut g, "fire b1 r1", &[1]);
        // Roth leads Germans: his +1 (3+ becomes 2+) reaches only a German squad (M34).
        let events = play(&mut g, "fire r1 b1", &[1]);
        assert!(
            texts(&events).contains(&format!("needs {needed} on a d6")),
            "{nation}: {}",
            texts(&events)
        );
    }
}

#[test]
fn a_commander_caught_alone_by_the_enemy_is_captured() {
    // Four more blue squads far off keep blue's losses short of its break point.
    let mut units = vec![
        squad("r1", "red", "M", "0507", "N", ""),
        gun("g1", "blue", "M", "", "0506", "N"),
    ];
    units
        .extend((1..=4).map(|c| squad(&format!("b{c}"), "blue", "M", &format!("0{c}01"), "N", "")));
    let s = scenario(
        None,
        "",
        &units,
    )
    .replace(
        "[sides.blue]\nname = \"Blue\"\n",
        "[sides.blue]\nname = \"Blue\"\ncommanders = [{ id = \"B1\", name = \"Blau\", value = 1, supreme = true }]\n",
    );
    let mut g = start(&s);
    while g.view(None).phase != "blue places commanders" {
        play(&mut g, "end", &[]);
    }
    play(&mut g, "place B1 0506", &[]);
    // Red's fire takes the gun's crew (d6 6); B1 survives the hit on its hex (d6 2) and is
    // left alone; blue has nothing left to do, and turn 2 opens (red 9, blue 1).
    play(&mut g, "fire r1 g1", &[6, 2, 9, 1]);
    assert!(gone(&*g, "g1"));
    let t = texts(&play(&mut g, "move r1 0506", &[]));
    assert!(
        t.contains("[hex-command-mechanized M32] B1 is caught alone at 0506 by r1 and captured."),
        "{t}"
    );
}

/// M35 with option `sphere`: a commander of Morale 2 reaches the neighbouring hexes.
mod sphere {
    use rules_hex_command_mechanized::game::MechGame;
    use volley_core::geometry::parse_label;
    use volley_core::{Game, Log, Options, ScenarioSource, ScriptedDice};

    /// A routed squad at 0508 and a commander of Morale 2 placed next to it, at 0507.
    fn game(options: &str) -> MechGame {
        let text = format!(
            "ruleset = \"hex-command-mechanized\"\nname = \"t\"\ntitle = \"t\"\nturn_limit = 4\n[options]\n{options}\n[map]\nrows = [{}]\n[sides.red]\nname = \"Red\"\ncommanders = [{{ id = \"R1\", name = \"R\", value = 1, supreme = true, traits = {{ initiative = 5, morale = 2, tactical = 5, aggressiveness = 5 }} }}]\n[sides.blue]\nname = \"Blue\"\n[[units]]\nid = \"r1\"\nside = \"red\"\nkind = \"squad\"\nweight = \"M\"\nfigures = 2\nhex = \"0508\"\nfacing = \"N\"\n[[units]]\nid = \"r2\"\nside = \"red\"\nkind = \"squad\"\nweight = \"M\"\nhex = \"0507\"\nfacing = \"N\"\n[[units]]\nid = \"b1\"\nside = \"blue\"\nkind = \"squad\"\nweight = \"M\"\nhex = \"0901\"\nfacing = \"S\"\n",
            vec![format!("\"{}\"", ["."; 10].join(" ")); 10].join(", ")
        );
        let s = rules_hex_command_mechanized::scenario::load(
            &ScenarioSource::new("t.toml", text),
            &Options::new(),
            rules_hex_command_mechanized::OPTIONS,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let mut g = MechGame::new(s);
        g.start(&mut ScriptedDice::new([9, 1]));
        g.s.turn_state[0].routed = true;
        g.s.posts.at[0] = Some(parse_label("0507").unwrap());
        g
    }

    #[test]
    fn a_commander_of_morale_two_rallies_the_neighbouring_hexes_with_the_option() {
        let mut g = game("sphere = \"yes\"");
        rules_hex_command_mechanized::rout::rally_up(&mut g.s, &mut Log::silent());
        assert!(!g.s.turn_state[0].routed, "rallied from the next hex");
        let mut g = game("");
        rules_hex_command_mechanized::rout::rally_up(&mut g.s, &mut Log::silent());
        assert!(
            g.s.turn_state[0].routed,
            "its own hex only without the option"
        );
    }
}
