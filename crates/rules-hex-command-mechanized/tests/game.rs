//! The Game API over whole battles: the listing of legal orders kept for a position, and a
//! step's choice judged as the listing would.

use rules_hex_command_mechanized::game::MechGame;
use rules_hex_command_mechanized::orders::Order;
use volley_core::codec::Codec;
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
        let s = rules_hex_command_mechanized::scenario::load(
            &ScenarioSource::new(format!("{name}.toml"), text.to_string()),
            &Options::new(),
            rules_hex_command_mechanized::OPTIONS,
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut g = MechGame::new(s);
        let mut dice = SeededDice::new(Seed::from_u64(7));
        g.start(&mut dice);
        let mut checked = 0;
        for _ in 0..600 {
            assert!(!g.is_listed(), "{name}: a list kept past an action");
            let legal = g.legal_actions();
            assert_eq!(
                rules_hex_command_mechanized::listing::has_choice(&g.s),
                legal.iter().any(|&a| a != end),
                "{name}: {legal:?}"
            );
            if g.s.outcome.is_some() {
                break;
            }
            let a = legal[dice.roll(legal.len() as u32) as usize - 1];
            g.apply(a, &mut dice).unwrap();
            checked += 1;
        }
        assert!(checked > 50, "{name}: only {checked} actions played");
    }
}
