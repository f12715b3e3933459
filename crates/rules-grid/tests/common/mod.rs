//! Helpers for the rule tests: small scenarios written inline, scripted dice, and orders by
//! their text.

#![allow(dead_code)]

use rules_grid::RULESET;
use volley_core::view::UnitView;
use volley_core::{Event, Game, Options, Ruleset, ScenarioError, ScenarioSource, ScriptedDice};

/// A unit line for `scenario`: `unit("r1", "red", "line_infantry", "0305", "N")`.
pub fn unit(id: &str, side: &str, kind: &str, tile: &str, facing: &str) -> String {
    format!(
        "[[units]]\nid = \"{id}\"\nside = \"{side}\"\ntype = \"{kind}\"\ntile = \"{tile}\"\nfacing = \"{facing}\"\n"
    )
}

/// A scenario with free set-up for both sides; `extra` is appended (commanders, options…).
pub fn scenario(grid: &str, rows: &[&str], units: &[String], extra: &str) -> String {
    let rows: Vec<String> = rows.iter().map(|r| format!("\"{r}\"")).collect();
    format!(
        "ruleset = \"grid-rules-v1.1\"\nname = \"test\"\ntitle = \"Test\"\nturn_limit = 3\n\n[map]\ngrid = \"{grid}\"\nrows = [{}]\n\n[sides.red]\nname = \"Red\"\nsetup = \"free\"\n\n[sides.blue]\nname = \"Blue\"\nsetup = \"free\"\n\n{}\n{extra}",
        rows.join(", "),
        units.join("\n")
    )
}

pub fn load(text: &str) -> Result<Box<dyn Game>, ScenarioError> {
    RULESET.load(&ScenarioSource::new("test.toml", text), &Options::new())
}

/// Loads and starts a game with the initiative dice given.
pub fn start(text: &str, initiative: &[u32]) -> Box<dyn Game> {
    let mut g = load(text).unwrap_or_else(|e| panic!("{e}"));
    let mut dice = ScriptedDice::new(initiative.iter().copied());
    g.start(&mut dice);
    assert_eq!(dice.remaining(), 0, "initiative dice left over");
    g
}

/// Plays an order with exactly the dice given; panics if it is refused.
pub fn play(g: &mut Box<dyn Game>, order: &str, dice: &[u32]) -> Vec<Event> {
    let mut d = ScriptedDice::new(dice.iter().copied());
    let events = try_play(g, order, &mut d).unwrap_or_else(|e| panic!("{order}: {e}"));
    assert_eq!(d.remaining(), 0, "{order}: dice left over");
    g.check_invariants().unwrap();
    events
}

fn try_play(
    g: &mut Box<dyn Game>,
    order: &str,
    dice: &mut ScriptedDice,
) -> Result<Vec<Event>, String> {
    let a = g.parse_action(order).map_err(|e| e.to_string())?;
    g.apply(a, dice).map_err(|e| e.to_string())
}

/// Plays an order that must be refused, returns the reason, and checks nothing changed.
pub fn refused(g: &mut Box<dyn Game>, order: &str) -> String {
    let before = g.view(None);
    let legal: Vec<String> = g.legal_actions().iter().map(|a| g.notation(*a)).collect();
    assert!(
        !legal.contains(&order.to_string()),
        "{order} is listed as legal"
    );
    let e = try_play(g, order, &mut ScriptedDice::new([]))
        .expect_err(&format!("{order} should be refused"));
    assert_eq!(g.view(None), before, "{order} changed the game");
    e
}

pub fn legal(g: &dyn Game) -> Vec<String> {
    g.legal_actions().iter().map(|a| g.notation(*a)).collect()
}

pub fn unit_view(g: &dyn Game, id: &str) -> UnitView {
    g.view(None)
        .unit(id)
        .cloned()
        .unwrap_or_else(|| panic!("{id} is not in play"))
}

pub fn strength(g: &dyn Game, id: &str) -> u32 {
    unit_view(g, id).strength.unwrap()
}

pub fn tile(g: &dyn Game, id: &str) -> String {
    unit_view(g, id).place.to_string()
}

pub fn texts(events: &[Event]) -> String {
    events
        .iter()
        .map(|e| format!("[{}] {}", e.rule, e.text))
        .collect::<Vec<_>>()
        .join("\n")
}

pub fn open(w: usize, h: usize) -> Vec<String> {
    vec![vec!["."; w].join(" "); h]
}

pub fn rows(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

pub fn line_of(text: &str, needle: &str) -> usize {
    text[..text.find(needle).expect("needle in text")]
        .matches('\n')
        .count()
        + 1
}

pub fn open_field(grid: &str) -> Box<dyn Game> {
    let s = scenario(
        grid,
        &rows(&open(6, 6)),
        &[
            unit("r1", "red", "line_infantry", "0305", "N"),
            unit("r2", "red", "line_infantry", "0105", "N"),
            unit("b1", "blue", "line_infantry", "0601", "S"),
        ],
        "",
    );
    start(&s, &[6, 1])
}

pub fn contact_game() -> Box<dyn Game> {
    let s = scenario(
        "square",
        &rows(&open(6, 6)),
        &[
            unit("r1", "red", "line_infantry", "0305", "N"),
            unit("b1", "blue", "line_infantry", "0203", "S"),
        ],
        "",
    );
    start(&s, &[6, 1])
}

pub fn two_shooters(extra: &str) -> Box<dyn Game> {
    let s = scenario(
        "square",
        &rows(&open(6, 6)),
        &[
            unit("r1", "red", "line_infantry", "0204", "N"),
            unit("r2", "red", "line_infantry", "0404", "N"),
            unit("b1", "blue", "line_infantry", "0302", "S"),
        ],
        extra,
    );
    let mut g = start(&s, &[6, 1]);
    play(&mut g, "end", &[]);
    g
}

/// r1 (red) and b1 (blue) side by side; red's movement and ranged phases are ended.
pub fn melee(rows_: &[&str], red: (&str, &str, &str), blue: (&str, &str, &str)) -> Box<dyn Game> {
    let s = scenario(
        "square",
        rows_,
        &[
            unit("r1", "red", red.0, red.1, red.2),
            unit("b1", "blue", blue.0, blue.1, blue.2),
        ],
        "",
    );
    let mut g = start(&s, &[6, 1]);
    play(&mut g, "end", &[]);
    if g.view(None).phase == "red ranged attacks" {
        play(&mut g, "end", &[]);
    }
    assert_eq!(g.view(None).phase, "red close combat");
    g
}
