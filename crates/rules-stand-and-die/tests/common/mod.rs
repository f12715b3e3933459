//! Helpers for the rule tests (one file per chapter): small scenarios written inline, the
//! bundled river crossing, and orders played by their text with scripted dice.

#![allow(dead_code)]

use rules_stand_and_die::RULESET;
use volley_core::{Event, Game, Options, Ruleset, ScenarioError, ScenarioSource, ScriptedDice};

/// The bundled scenario, "The Mill Bridge".
pub const RIVER_CROSSING: &str = include_str!("../../../../scenarios/sad-river-crossing.toml");

/// The bundled scenario loaded with its own options, not started.
pub fn river_crossing() -> Box<dyn Game> {
    let src = ScenarioSource::new("scenarios/sad-river-crossing.toml", RIVER_CROSSING);
    RULESET.load(&src, &Options::new()).unwrap()
}

pub const OPEN_8X8: [&str; 8] = [". . . . . . . ."; 8];

/// One `[[units]]` table.
pub fn unit(side: &str, id: &str, arm: &str, figures: u32, hex: &str, facing: &str) -> String {
    format!(
        "[[units]]\nside = \"{side}\"\nid = \"{id}\"\nname = \"{id} {arm}\"\narm = \"{arm}\"\nfigures = {figures}\nhex = \"{hex}\"\nfacing = \"{facing}\"\n"
    )
}

/// The same, with its hex marked Standing.
pub fn standing(side: &str, id: &str, arm: &str, figures: u32, hex: &str, facing: &str) -> String {
    unit(side, id, arm, figures, hex, facing) + "standing = true\n"
}

/// A whole scenario: map rows, extra top-level text (options, objectives), units.
pub fn scenario(rows: &[&str], extra: &str, units: &[String]) -> String {
    let rows: Vec<String> = rows.iter().map(|r| format!("\"{r}\"")).collect();
    format!(
        "ruleset = \"stand-and-die\"\nname = \"test\"\ntitle = \"Test\"\nturn_limit = 3\n{extra}\n[map]\nrows = [{}]\n\n[sides.red]\nname = \"Red\"\n[sides.blue]\nname = \"Blue\"\n\n{}",
        rows.join(", "),
        units.join("\n")
    )
}

pub fn load(text: &str) -> Result<Box<dyn Game>, ScenarioError> {
    RULESET.load(&ScenarioSource::new("test.toml", text), &Options::new())
}

/// Loads and starts a game; the opening d6 is `initiative` (1–3 red marches first).
pub fn started(text: &str, initiative: u32) -> Box<dyn Game> {
    let mut g = load(text).expect("test scenario loads");
    g.start(&mut ScriptedDice::new([initiative]));
    g
}

/// Plays an order with these dice; panics if it is refused or leaves dice unused.
pub fn play_with(g: &mut Box<dyn Game>, order: &str, dice: &[u32]) -> Vec<Event> {
    let action = g.parse_action(order).expect("order parses");
    let mut d = ScriptedDice::new(dice.iter().copied());
    let events = g
        .apply(action, &mut d)
        .unwrap_or_else(|e| panic!("{order} refused: {e}"));
    assert_eq!(d.remaining(), 0, "{order} left dice unused");
    g.check_invariants().expect("invariants hold");
    events
}

/// Plays an order that rolls no dice.
pub fn play(g: &mut Box<dyn Game>, order: &str) -> Vec<Event> {
    play_with(g, order, &[])
}

/// Tries an order that must be refused; returns the reason and checks nothing changed.
pub fn refused(g: &mut Box<dyn Game>, order: &str) -> String {
    let before = g.view(None);
    let action = g.parse_action(order).expect("order parses");
    let reason = g
        .apply(action, &mut ScriptedDice::new([]))
        .expect_err(&format!("{order} should be refused"))
        .0;
    assert_eq!(g.view(None), before, "refused {order} changed the game");
    assert!(
        !g.legal_actions().contains(&action),
        "{order} is listed as legal"
    );
    reason
}

pub fn figures(g: &dyn Game, id: &str) -> Option<u32> {
    g.view(None).unit(id).and_then(|u| u.strength)
}

pub fn hex_of(g: &dyn Game, id: &str) -> String {
    g.view(None)
        .unit(id)
        .expect("unit on the table")
        .place
        .to_string()
}

pub fn flags(g: &dyn Game, id: &str) -> Vec<String> {
    g.view(None)
        .unit(id)
        .expect("unit on the table")
        .flags
        .iter()
        .map(|f| f.to_string())
        .collect()
}

pub fn texts(events: &[Event]) -> Vec<String> {
    events.iter().map(|e| e.text.clone()).collect()
}

/// Ends phases until `side`'s musketry (at most a turn's worth).
pub fn to_musketry(g: &mut Box<dyn Game>, side: volley_core::Side) {
    for _ in 0..4 {
        if g.view(None).phase == format!("{} musketry", side.name()) {
            return;
        }
        play(g, "end");
    }
    panic!("never reached {side} musketry");
}
