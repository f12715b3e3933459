//! The analytic odds of fire and charges against a walk of every die sequence, on positions
//! small enough to walk (issue 12: "analytic odds checked against enumeration on small
//! cases"): the fire odds the ruleset counts (`Game::odds_cases`) against a walk over every
//! die sequence of the preview, on the test harness's fields and on fields of their own.

mod common;

use common::{duel, k, log, play, Scen};

use rules_bpt_commander::scenario::load;
use rules_bpt_commander::BptGame;
use std::collections::BTreeMap;
use volley_core::dice::DiceEnumerator;
use volley_core::odds::{describe_change, odds};
use volley_core::{Game, Options, ScenarioSource, Seed, SeededDice, Side};

/// A small open field (10 × 8) with each side's command unit far behind, these units and
/// options.
fn load_field(units: &str, options: &[(&str, &str)]) -> BptGame {
    let rows: Vec<String> = (0..8)
        .map(|_| format!("  \"{}\",", ["."; 10].join(" ")))
        .collect();
    let text = format!(
        r#"ruleset = "bpt-commander"
name = "odds"
title = "Odds"
turn_limit = 3
[map]
rows = [
{}
]
[sides.red]
name = "Red"
commanders = [{{ id = "rh", value = 7, supreme = true, hex = "0108" }}]
[sides.blue]
name = "Blue"
commanders = [{{ id = "bh", value = 7, supreme = true, hex = "1001" }}]
{units}
"#,
        rows.join("\n")
    );
    let mut o = Options::default();
    for (k, v) in options {
        o.insert((*k).into(), (*v).into());
    }
    let mut g = load(&ScenarioSource::new("odds.toml", text), &o).expect("loads");
    g.start(&mut SeededDice::new(Seed::from_u64(1)));
    g
}

/// A small open field: a red and a blue unit, each with its command unit far behind.
fn field(red: &str, blue: &str) -> BptGame {
    load_field(
        &format!(
            r#"[[units]]
side = "red"
id = "r1"
name = "Red foot"
arm = "infantry"
hex = "0404"
facing = "SE"
move = 10
dice = 1
range = 10
{red}
[[units]]
side = "blue"
id = "b1"
name = "Blue foot"
arm = "infantry"
hex = "0505"
facing = "NW"
move = 10
dice = 1
range = 10
{blue}
"#
        ),
        &[],
    )
}

/// Every die sequence of the action's preview, walked, tallied by what changed.
fn walked(game: &BptGame, text: &str) -> BTreeMap<String, f64> {
    let action = game.parse_action(text).expect("parses");
    let before = game.view(Some(Side::Red));
    let mut tally = BTreeMap::new();
    let mut e = DiceEnumerator::new();
    loop {
        e.begin();
        let mut g = game.clone_game();
        g.preview(action, &mut e).expect("legal");
        *tally
            .entry(describe_change(&before, &g.view(Some(Side::Red))))
            .or_insert(0.0) += e.probability();
        assert!(!e.truncated, "the walk was cut short");
        if !e.advance() {
            break;
        }
    }
    tally
}

fn counted(game: &BptGame, text: &str) -> BTreeMap<String, f64> {
    let action = game.parse_action(text).expect("parses");
    assert!(
        game.odds_cases(action).is_some(),
        "\"{text}\" has analytic odds"
    );
    let o = odds(game, action, Some(Side::Red)).expect("odds");
    assert!(o.exact);
    o.outcomes
        .into_iter()
        .map(|l| (l.outcome, l.probability))
        .collect()
}

fn same(a: &BTreeMap<String, f64>, b: &BTreeMap<String, f64>) {
    let keys: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    for k in keys {
        let (x, y) = (
            a.get(k).copied().unwrap_or(0.0),
            b.get(k).copied().unwrap_or(0.0),
        );
        assert!((x - y).abs() < 1e-9, "{k}: counted {x}, walked {y}");
    }
}

#[test]
fn fire_odds_counted_match_every_roll_walked() {
    // Two stands fire at a line with a 5+ save (an extra save die) that is already
    // suppressed, so hits bring a fall-back roll.
    let mut g = field(
        "stands = 2\nhits = 3\nsave = 0",
        "stands = 2\nhits = 3\nsave = 5",
    );
    let b1 = g.units.iter().position(|u| &*u.id == "b1").unwrap();
    g.units[b1].suppressed = Some(rules_bpt_commander::troops::Suppression {
        placed: 0,
        by_attack: 99,
    });
    same(&counted(&g, "fire r1 b1"), &walked(&g, "fire r1 b1"));
    // Not suppressed: the suppression test instead.
    let g = field(
        "stands = 2\nhits = 3\nsave = 0",
        "stands = 2\nhits = 3\nsave = 5",
    );
    same(&counted(&g, "fire r1 b1"), &walked(&g, "fire r1 b1"));
    // Behind a skirmish screen (a die less, the first hits on the skirmishers), and prone
    // (a hit less): the counted classes still match every roll.
    let mut g = field(
        "stands = 2\nhits = 3\nsave = 0",
        "stands = 1\nhits = 3\nsave = 0\nskirmishers = 1",
    );
    same(&counted(&g, "fire r1 b1"), &walked(&g, "fire r1 b1"));
    g.units[b1].screen = 0;
    g.units[b1].prone = true;
    same(&counted(&g, "fire r1 b1"), &walked(&g, "fire r1 b1"));
}

#[test]
fn charge_odds_counted_match_every_roll_walked() {
    // One stand charges one stand (3 dice against 2). The charger already holds 5 hits of the
    // 6 it can take, so no round can end even and the walk stays small.
    let mut g = field(
        "stands = 1\nhits = 6\nsave = 0",
        "stands = 1\nhits = 3\nsave = 0",
    );
    let r1 = g.units.iter().position(|u| &*u.id == "r1").unwrap();
    g.units[r1].turn_hits = 5;
    same(&counted(&g, "charge r1 b1"), &walked(&g, "charge r1 b1"));
    // With a save for the defender (and its line's extra die).
    let mut g = field(
        "stands = 1\nhits = 6\nsave = 0",
        "stands = 1\nhits = 2\nsave = 6",
    );
    g.units[r1].turn_hits = 5;
    same(&counted(&g, "charge r1 b1"), &walked(&g, "charge r1 b1"));
}

#[test]
fn thirty_dice_of_fire_are_counted_exactly() {
    let g = field(
        "stands = 30\nhits = 3\nsave = 0",
        "stands = 6\nhits = 9\nsave = 5",
    );
    let action = g.parse_action("fire r1 b1").unwrap();
    let o = odds(&g, action, Some(Side::Red)).expect("odds");
    assert!(o.exact, "a 30-die volley's odds are exact");
    let total: f64 = o.outcomes.iter().map(|l| l.probability).sum();
    assert!((total - 1.0).abs() < 1e-9);
}

#[test]
fn a_volley_that_is_its_own_order_has_exact_odds_with_its_command_roll_and_blunders() {
    // In the command phase, fire given to a unit without an order rolls the order first: the
    // odds count the roll (issued, bonus, failed, each blunder) and then the volley.
    let mut g = field(
        "stands = 8\nhits = 3\nsave = 0",
        "stands = 4\nhits = 3\nsave = 5",
    );
    let mut dice = volley_core::ScriptedDice::tolerant(Vec::<u32>::new());
    if g.phase == rules_bpt_commander::state::Phase::Initiative {
        let end = g.parse_action("end").unwrap();
        g.apply(end, &mut dice).unwrap();
    }
    let action = g.parse_action("fire r1 b1").unwrap();
    let o = odds(&g, action, Some(Side::Red)).expect("odds");
    assert!(o.exact, "exact with the command roll in front");
    let total: f64 = o.outcomes.iter().map(|l| l.probability).sum();
    assert!((total - 1.0).abs() < 1e-9, "{total}");
    // The order fails (no effect) on 7+ of 2d6 with command 7 less nothing: 15/36 plus the
    // blunders that change nothing visible (re-locate with no enemy in sight of the command
    // unit, for one).
    let nothing: f64 = o
        .outcomes
        .iter()
        .filter(|l| l.outcome == "no effect")
        .map(|l| l.probability)
        .sum();
    assert!(nothing >= 15.0 / 36.0 - 1e-9, "{nothing}");
}

/// A howitzer 5 cm from a blue line, a second blue unit beside the target for a deviating
/// shell to land on.
fn howitzer_field(options: &[(&str, &str)]) -> BptGame {
    load_field(
        r#"[[units]]
side = "red"
id = "h1"
name = "Red howitzer"
arm = "artillery"
hex = "0404"
facing = "SE"
move = 10
dice = 1
range = 20
stands = 1
hits = 2
traits = ["howitzer"]
[[units]]
side = "blue"
id = "b1"
name = "Blue foot"
arm = "infantry"
hex = "0505"
facing = "NW"
move = 10
dice = 1
range = 10
stands = 1
hits = 2
[[units]]
side = "blue"
id = "b2"
name = "Blue foot behind"
arm = "infantry"
hex = "0605"
facing = "NW"
move = 10
dice = 1
range = 10
stands = 1
hits = 3
save = 5
"#,
        options,
    )
}

#[test]
fn deviating_shell_odds_counted_match_every_roll_walked() {
    // The hit die, the direction die and the distance die, then the attack on whatever is
    // where the shell lands: the target, the unit beside it, the howitzer itself, or nothing.
    let g = howitzer_field(&[]);
    same(&counted(&g, "fire h1 b1"), &walked(&g, "fire h1 b1"));
    let g = howitzer_field(&[("deviation", "always"), ("shrapnel", "on")]);
    same(&counted(&g, "fire h1 b1"), &walked(&g, "fire h1 b1"));
}

// On the harness's fields.

fn walk(g: &rules_bpt_commander::BptGame, action: volley_core::Action) -> BTreeMap<String, f64> {
    let before = g.view(None);
    let mut tally: BTreeMap<String, f64> = BTreeMap::new();
    let mut e = DiceEnumerator::new();
    loop {
        e.begin();
        let mut c = g.clone_game();
        c.preview(action, &mut e).unwrap();
        *tally
            .entry(describe_change(&before, &c.view(None)))
            .or_default() += e.probability();
        if !e.advance() {
            break;
        }
    }
    assert!(!e.truncated);
    tally
}

fn check(g: &rules_bpt_commander::BptGame, order: &str) {
    let a = g.parse_action(order).unwrap();
    assert!(
        g.odds_cases(a).is_some(),
        "{order}: the ruleset counts this one"
    );
    let o = odds(g, a, None).unwrap();
    assert!(o.exact);
    let counted: BTreeMap<String, f64> = o
        .outcomes
        .iter()
        .map(|l| (l.outcome.clone(), l.probability))
        .collect();
    let walked = walk(g, a);
    assert_eq!(
        counted.keys().collect::<Vec<_>>(),
        walked.keys().collect::<Vec<_>>(),
        "{order}"
    );
    for (k, p) in &counted {
        assert!(
            (p - walked[k]).abs() < 1e-9,
            "{order}: {k}: {p} vs {}",
            walked[k]
        );
    }
}

#[test]
fn fire_odds_equal_the_enumeration_for_one_to_three_dice() {
    // Saves and the march column's flank bonus add dice: those cases stay at one stand so that
    // the walk stays small.
    let cases = [
        (1, "0", "line"),
        (2, "0", "line"),
        (3, "0", "line"),
        (1, "5", "line"),
        (1, "0", "march"),
    ];
    for (stands, save, formation) in cases {
        let formation = &format!("\"{formation}\"");
        {
            let g = duel(
                &[("stands", &stands.to_string())],
                &[
                    ("save", save),
                    ("formation", formation),
                    ("stands", "2"),
                    ("hits", "2"),
                ],
            )
            .start_with(&[]);
            check(&g, "fire r1 b1");
        }
    }
}

#[test]
fn fire_odds_equal_the_enumeration_when_the_target_would_fall_back() {
    for (stands, traits) in [(1, "[]"), (2, "[\"elite\"]"), (2, "[\"poor\"]")] {
        let mut g = duel(&[("stands", &stands.to_string())], &[("traits", traits)]).start_with(&[]);
        let b1 = k(&g, "b1");
        g.units[b1].suppressed = Some(rules_bpt_commander::troops::Suppression {
            placed: 0,
            by_attack: 99,
        });
        check(&g, "fire r1 b1");
    }
}

#[test]
fn an_order_that_blunders_into_cross_fire_plays_each_attack_on_what_the_last_one_left() {
    // Blunder 2 fires on the three units nearest the commander in turn. `a`, next to it and
    // already suppressed, falls back from a hit straight away from the commander, into `c`:
    // halted by a friend, `c` is suppressed by the same attack, so when its own cross-fire
    // hits it, it tests no more. Counting each attack from the position before the blunder
    // gave `c` a suppression test it does not roll ("1 die too many").
    let mut g = Scen::new()
        .inf("red", "a", "0609", "N", &[])
        .inf("red", "c", "0608", "N", &[])
        .inf("blue", "b1", "0605", "S", &[])
        .command();
    let (a, c) = (k(&g, "a"), k(&g, "c"));
    g.units[a].suppressed = Some(rules_bpt_commander::troops::Suppression {
        placed: g.player_turn(),
        by_attack: 0,
    });
    // The path the test is about, played: 6 6 blunders, 2 is the cross-fire; `a` is hit once
    // (it has no save) and falls back 5 cm into `c`; `c` is hit once and rolls nothing more.
    let mut played = g.clone();
    let e = play(&mut played, "fire c b1", &[6, 6, 2, 6, 1, 1, 5, 6, 1, 1]);
    assert!(log(&e).contains("c is suppressed"), "{}", log(&e));
    assert_eq!(played.units[c].turn_hits, 1);
    let fire = g.parse_action("fire c b1").unwrap();
    let o = odds(&g, fire, None).expect("every case replays with exactly its dice");
    assert!(o.exact);
    let total: f64 = o.outcomes.iter().map(|l| l.probability).sum();
    assert!((total - 1.0).abs() < 1e-9, "{total}");
}
