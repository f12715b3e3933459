//! The optional rules that change what a side may do or see: rallied squads that only hold
//! without a commander, damage blocks shown only to the owner.

use rules_hex_command_mechanized::game::MechGame;
use volley_core::{Game, Options, ScenarioSource, ScriptedDice, Side};

fn game(options: &str) -> MechGame {
    let text = format!(
        "ruleset = \"hex-command-mechanized\"\nname = \"t\"\ntitle = \"t\"\nturn_limit = 4\n[options]\n{options}\n[map]\nrows = [{}]\n[sides.red]\nname = \"Red\"\n[sides.blue]\nname = \"Blue\"\n[[units]]\nid = \"r1\"\nside = \"red\"\nkind = \"squad\"\nweight = \"M\"\nhex = \"0508\"\nfacing = \"N\"\n[[units]]\nid = \"r2\"\nside = \"red\"\nkind = \"vehicle\"\ntype = \"t34-76\"\nhex = \"0308\"\nfacing = \"N\"\n[[units]]\nid = \"b1\"\nside = \"blue\"\nkind = \"squad\"\nweight = \"M\"\nhex = \"0502\"\nfacing = \"S\"\n",
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
    g
}

fn refused(g: &mut MechGame, order: &str) -> String {
    let a = g.parse_action(order).unwrap();
    g.apply(a, &mut ScriptedDice::new([]))
        .unwrap_err()
        .to_string()
}

#[test]
fn rallied_squads_only_hold_without_a_commander_with_the_option() {
    let mut g = game("rallied = \"hold\"");
    g.s.turn_state[0].rallied = true;
    g.refresh_legal();
    assert!(
        refused(&mut g, "move r1 0507").contains("has rallied and does not move nearer the enemy")
    );
    // Sideways or back it may go.
    let a = g.parse_action("reverse r2 0309").unwrap();
    g.apply(a, &mut ScriptedDice::new([])).unwrap();
    let mut free = game("");
    free.s.turn_state[0].rallied = true;
    free.refresh_legal();
    let a = free.parse_action("move r1 0507").unwrap();
    free.apply(a, &mut ScriptedDice::new([])).unwrap();
}

#[test]
fn hidden_damage_shows_damage_blocks_only_to_the_owner() {
    for (opt, blue_sees) in [("hidden_damage = \"yes\"", 0), ("", 1)] {
        let mut g = game(opt);
        if let rules_hex_command_mechanized::items::Kind::Vehicle { damage, .. } =
            &mut g.s.items[1].kind
        {
            damage.movement = 1;
        }
        assert_eq!(g.view(Some(Side::Red)).unit("r2").unwrap().hits, 1);
        assert_eq!(
            g.view(Some(Side::Blue)).unit("r2").unwrap().hits,
            blue_sees,
            "{opt}"
        );
    }
}
