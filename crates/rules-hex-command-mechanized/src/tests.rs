use crate::charts::*;
use crate::damage::*;

#[test]
fn the_bundled_charts_and_roster_load_and_check() {
    let c = Charts::bundled();
    assert_eq!(c.chassis[&Weight::M].defence, 3);
    assert_eq!(c.guns[&Weight::VL].dice(), 1, "reach 10: one d10 (T3)");
    assert_eq!(c.guns[&Weight::M].dice(), 2);
    let r = Roster::bundled();
    assert!(r.vehicles.len() >= 25, "{}", r.vehicles.len());
    for nation in ["german", "us", "british", "soviet"] {
        assert!(r.vehicles.values().any(|v| v.nation == nation), "{nation}");
    }
    // The text's own examples: a Matilda is a heavy chassis with a light gun, a Panzer III a
    // medium chassis with a light gun.
    let m = &r.vehicles["matilda2"];
    assert_eq!((m.chassis, m.gun), (Weight::H, Some(Weight::L)));
    let p = &r.vehicles["pz3j"];
    assert_eq!((p.chassis, p.gun), (Weight::M, Some(Weight::L)));
}

#[test]
fn damage_blocks_follow_the_weight_difference() {
    let c = Charts::bundled();
    assert_eq!(
        c.blocks(Weight::L, Weight::VH),
        (0, BlockMode::Incremental),
        "-3: no effect"
    );
    assert_eq!(c.blocks(Weight::M, Weight::H), (1, BlockMode::Incremental));
    assert_eq!(
        c.blocks(Weight::M, Weight::M),
        (1, BlockMode::Incremental),
        "the text's case"
    );
    assert_eq!(c.blocks(Weight::H, Weight::M), (1, BlockMode::AsRolled));
    assert_eq!(c.blocks(Weight::VH, Weight::L), (2, BlockMode::AsRolled));
    assert_eq!(c.blocks(Weight::VL, Weight::Soft), (1, BlockMode::AsRolled));
}

#[test]
fn blocks_raise_their_category_and_three_doubles_destroy() {
    let mut d = Damage::default();
    d.take(Face::MM, BlockMode::Incremental);
    assert_eq!(d.movement, 1, "incremental: one step whatever the face");
    d.take(Face::CC, BlockMode::AsRolled);
    assert_eq!(d.combat, 2, "as rolled: the double at once");
    d.take(Face::D, BlockMode::AsRolled);
    assert_eq!(d.defence, 1);
    d.take(Face::C, BlockMode::AsRolled);
    assert_eq!(d.combat, 2, "never down");
    assert!(!d.destroyed());
    d.take(Face::M, BlockMode::Incremental);
    d.take(Face::D, BlockMode::Incremental);
    assert!(d.destroyed());
    let c = Charts::bundled();
    assert_eq!((d.combat_penalty(&c), d.defence_penalty(&c)), (2, 2));
    assert_eq!(
        Damage {
            movement: 1,
            ..Damage::default()
        }
        .speed(5),
        2
    );
    assert_eq!(
        Damage {
            movement: 2,
            ..Damage::default()
        }
        .speed(5),
        1
    );
}

#[test]
fn two_d10_odds_match_the_digest_table() {
    let table = [
        100, 99, 97, 94, 90, 85, 79, 72, 64, 55, 45, 36, 28, 21, 15, 10, 6, 3, 1,
    ];
    for (k, &p) in table.iter().enumerate() {
        assert_eq!(two_d10_at_least(k as i32 + 2), p, "2d10 >= {}", k + 2);
    }
}

#[test]
fn a_scenario_may_replace_a_chart_row_and_a_bad_shape_is_refused() {
    let over: toml::Value =
        toml::from_str("[chassis.M]\ndefence = 4\nspeed = 5\nfacing_changes = 1\n").unwrap();
    let c = Charts::read(Some(&over)).unwrap();
    assert_eq!(c.chassis[&Weight::M].defence, 4);
    assert_eq!(c.chassis[&Weight::H].defence, 4, "the rest stays");
    let bad: toml::Value = toml::from_str("[chassis.M]\narmour = 4\n").unwrap();
    let e = Charts::read(Some(&bad)).unwrap_err();
    assert!(e.contains("armour"), "{e}");
    let unordered: toml::Value =
        toml::from_str("damage_blocks = [{ up_to = 1, blocks = 1, mode = \"as-rolled\" }, { up_to = 0, blocks = 1, mode = \"incremental\" }]").unwrap();
    assert!(Charts::read(Some(&unordered))
        .unwrap_err()
        .contains("rising order"));
    let extra: toml::Value =
        toml::from_str("[tiger9]\nname = \"Tiger 9\"\nnation = \"german\"\nchassis = \"VH\"\ngun = \"VH\"\nmount = \"turret\"\ndrive = \"tracked\"\nmg = \"single\"\n").unwrap();
    assert!(Roster::read(Some(&extra))
        .unwrap()
        .vehicles
        .contains_key("tiger9"));
}

mod options {
    use crate::state::MechGame;
    use volley_core::{Game, Options, ScenarioSource, ScriptedDice, Side};

    fn game(options: &str) -> MechGame {
        let text = format!(
            "ruleset = \"hex-command-mechanized\"\nname = \"t\"\ntitle = \"t\"\nturn_limit = 4\n[options]\n{options}\n[map]\nrows = [{}]\n[sides.red]\nname = \"Red\"\n[sides.blue]\nname = \"Blue\"\n[[units]]\nid = \"r1\"\nside = \"red\"\nkind = \"squad\"\nweight = \"M\"\nhex = \"0508\"\nfacing = \"N\"\n[[units]]\nid = \"r2\"\nside = \"red\"\nkind = \"vehicle\"\ntype = \"t34-76\"\nhex = \"0308\"\nfacing = \"N\"\n[[units]]\nid = \"b1\"\nside = \"blue\"\nkind = \"squad\"\nweight = \"M\"\nhex = \"0502\"\nfacing = \"S\"\n",
            vec![format!("\"{}\"", ["."; 10].join(" ")); 10].join(", ")
        );
        let s = crate::scenario::load(
            &ScenarioSource::new("t.toml", text),
            &Options::new(),
            crate::OPTIONS,
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
        assert!(refused(&mut g, "move r1 0507")
            .contains("has rallied and does not move nearer the enemy"));
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
            if let crate::items::Kind::Vehicle { damage, .. } = &mut g.s.items[1].kind {
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
}

mod sphere {
    use crate::state::MechGame;
    use volley_core::geometry::parse_label;
    use volley_core::{Game, Log, Options, ScenarioSource, ScriptedDice};

    /// A routed squad at 0508 and a commander of Morale 2 placed next to it, at 0507.
    fn game(options: &str) -> MechGame {
        let text = format!(
            "ruleset = \"hex-command-mechanized\"\nname = \"t\"\ntitle = \"t\"\nturn_limit = 4\n[options]\n{options}\n[map]\nrows = [{}]\n[sides.red]\nname = \"Red\"\ncommanders = [{{ id = \"R1\", name = \"R\", value = 1, supreme = true, traits = {{ initiative = 5, morale = 2, tactical = 5, aggressiveness = 5 }} }}]\n[sides.blue]\nname = \"Blue\"\n[[units]]\nid = \"r1\"\nside = \"red\"\nkind = \"squad\"\nweight = \"M\"\nfigures = 2\nhex = \"0508\"\nfacing = \"N\"\n[[units]]\nid = \"r2\"\nside = \"red\"\nkind = \"squad\"\nweight = \"M\"\nhex = \"0507\"\nfacing = \"N\"\n[[units]]\nid = \"b1\"\nside = \"blue\"\nkind = \"squad\"\nweight = \"M\"\nhex = \"0901\"\nfacing = \"S\"\n",
            vec![format!("\"{}\"", ["."; 10].join(" ")); 10].join(", ")
        );
        let s = crate::scenario::load(
            &ScenarioSource::new("t.toml", text),
            &Options::new(),
            crate::OPTIONS,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let mut g = MechGame::new(s);
        g.start(&mut ScriptedDice::new([9, 1]));
        g.s.turn_state[0].routed = true;
        g.placed[0] = Some(parse_label("0507").unwrap());
        g
    }

    #[test]
    fn a_commander_of_morale_two_rallies_the_neighbouring_hexes_with_the_option() {
        let mut g = game("sphere = \"yes\"");
        g.rally_up(&mut Log::silent());
        assert!(!g.s.turn_state[0].routed, "rallied from the next hex");
        let mut g = game("");
        g.rally_up(&mut Log::silent());
        assert!(
            g.s.turn_state[0].routed,
            "its own hex only without the option"
        );
    }
}

mod listing {
    use crate::orders::Order;
    use crate::state::MechGame;
    use volley_core::{Dice, Game, Options, ScenarioSource, Seed, SeededDice};

    /// The step ends by itself only when ending it is all that is left: the check stopped at
    /// the first order (`has_choice`) says what the full list says, at every position of
    /// random games on the bundled battles, and no list is kept past an action.
    #[test]
    fn a_step_has_a_choice_exactly_when_its_list_holds_more_than_end() {
        let end = Order::End.pack();
        for (name, text) in [
            (
                "hcm-village",
                include_str!("../../../scenarios/hcm-village.toml"),
            ),
            (
                "hcm-breakthrough",
                include_str!("../../../scenarios/hcm-breakthrough.toml"),
            ),
            (
                "hcm-night-ambush",
                include_str!("../../../scenarios/hcm-night-ambush.toml"),
            ),
        ] {
            let s = crate::scenario::load(
                &ScenarioSource::new(format!("{name}.toml"), text.to_string()),
                &Options::new(),
                crate::OPTIONS,
            )
            .unwrap_or_else(|e| panic!("{name}: {e}"));
            let mut g = MechGame::new(s);
            let mut dice = SeededDice::new(Seed::from_u64(7));
            g.start(&mut dice);
            let mut checked = 0;
            for _ in 0..600 {
                assert!(
                    g.legal.get().is_none(),
                    "{name}: a list kept past an action"
                );
                let legal = g.legal_actions();
                assert_eq!(
                    g.has_choice(),
                    legal.iter().any(|&a| a != end),
                    "{name}: {legal:?}"
                );
                if g.outcome.is_some() {
                    break;
                }
                let a = legal[dice.roll(legal.len() as u32) as usize - 1];
                g.apply(a, &mut dice).unwrap();
                checked += 1;
            }
            assert!(checked > 50, "{name}: only {checked} actions played");
        }
    }
}
