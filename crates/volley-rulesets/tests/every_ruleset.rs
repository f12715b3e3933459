//! The test every ruleset must pass. It knows no ruleset: it takes every registered ruleset's
//! bundled scenarios and plays many random games of each, checking on every step what the
//! Game API promises (see `volley_core::game`):
//!
//! - games never panic and always end, within a bound on actions;
//! - `check_invariants` holds after every action, and so do the generic ones on the views
//!   (units on the map, hits and TE within their maximum, views agreeing about unit ids);
//!   `phasing` says what the view says, and the bots' `search_view` is the view less its
//!   firing cones;
//! - every action `legal_actions` lists is accepted, the same dice give the same result,
//!   and `notation`/`parse_action` round-trip;
//! - the count and k-th action, the actions unit by unit and the units that can act agree
//!   with the whole list, every unit an action names is in the deciding side's view, and the
//!   view's prompt says who decides; applying an action quietly or unchecked leaves the
//!   position `apply` leaves;
//! - actions not in the list (another side's, garbage, corrupted bits) are refused and
//!   change nothing;
//! - every game replays identically from its saved file;
//! - the odds of an attack weigh its own dice and their consequences whenever the rules
//!   settle them: an attack that can change its target, played out through the end of its
//!   phase, never shows "no effect" as its only outcome.
//!
//! Fog of war: `tests/fog.rs` holds every ruleset with hidden information to the same
//! promise (a side's answers never depend on what it cannot see); each ruleset tests its own
//! spotting rules.
//!
//! `VOLLEY_GAMES=N` plays N games per scenario instead of the default;
//! `VOLLEY_SCENARIOS=a,b` tests only the bundled scenarios named.

use proptest::prelude::*;
use std::collections::HashSet;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use volley_ai::{Bot, RandomBot};
use volley_core::geometry::{col_row, distance};
use volley_core::session::SaveFile;
use volley_core::{
    odds, Action, ActionKind, Game, LoggedEvent, Options, Ruleset, ScenarioSource, Seed,
    SeededDice, Session, Side, View,
};
use volley_rulesets::{bundled, find, new_session, rulesets, scenario_source, validate};

/// At most this many random games per bundled scenario…
const GAMES_PER_SCENARIO: usize = 300;
/// …and about this many actions in all, so long scenarios play fewer games (the whole test
/// stays near a minute in a debug build on two cores).
const ACTIONS_PER_SCENARIO: usize = 25_000;
/// But never fewer games than this (a corps-sized battle is one long game on its own).
const MIN_GAMES: usize = 2;
/// A game still going after this many actions counts as one that never ends.
const MAX_ACTIONS: usize = 50_000;
/// One position in this many has its views checked (views are the costly part)…
const VIEWS_ONE_IN: u64 = 6;
/// …and one in this many has every legal action tried and illegal ones refused.
const SAMPLE_ONE_IN: u64 = 100;
/// An undo replays the game from its start, so a long game has at most this many undos
/// checked (one in `SAMPLE_ONE_IN` positions until then): without the cap a corps-sized
/// battle's undos cost as much as every other check of every scenario together.
const UNDOS_PER_GAME: usize = 12;

/// Games to play of a scenario: `VOLLEY_GAMES` if set, else as many as fit the action
/// budget, judged by the length of one plain game.
fn games_for(s: &Scenario) -> usize {
    if let Some(n) = std::env::var("VOLLEY_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        return n;
    }
    let mut session = start(s, u64::MAX);
    let mut bot = RandomBot::new(0);
    let mut length = 1;
    while let Some(side) = session.game.to_decide() {
        if length >= MAX_ACTIONS {
            break;
        }
        let action = bot.choose(&*session.game, side);
        if session.apply(action, &[]).is_err() {
            break;
        }
        length += 1;
    }
    (ACTIONS_PER_SCENARIO / length).clamp(MIN_GAMES, GAMES_PER_SCENARIO)
}

struct Scenario {
    name: String,
    source: ScenarioSource,
    ruleset: &'static dyn Ruleset,
}

/// Every bundled scenario, with its ruleset; fails loudly when there is nothing to test.
fn scenarios() -> Vec<Scenario> {
    assert!(
        !rulesets().is_empty(),
        "no rulesets registered in volley-rulesets: nothing to test"
    );
    let list: Vec<Scenario> = bundled()
        .iter()
        .map(|b| {
            let (name, source) = scenario_source(b.name).expect("bundled scenarios are found");
            let ruleset = volley_rulesets::ruleset_of(&source)
                .unwrap_or_else(|e| panic!("bundled scenario {}: {e}", b.name));
            Scenario {
                name,
                source,
                ruleset,
            }
        })
        .filter(|s: &Scenario| {
            std::env::var("VOLLEY_SCENARIOS")
                .map_or(true, |only| only.split(',').any(|n| n.trim() == s.name))
        })
        .collect();
    assert!(!list.is_empty(), "no scenarios bundled: nothing to test");
    list
}

/// A small deterministic stream for the test's own choices (which positions to sample).
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

fn start(s: &Scenario, seed: u64) -> Session {
    new_session(&s.name, &s.source, &Options::new(), Seed::from_u64(seed))
        .unwrap_or_else(|e| panic!("{}: cannot start a game: {e}", s.name))
}

#[test]
fn every_ruleset_has_scenarios_that_validate_and_options_that_load() {
    let mut ids = HashSet::new();
    for r in rulesets() {
        assert!(ids.insert(r.id()), "ruleset id {} registered twice", r.id());
    }
    let all = scenarios();
    let mut names = HashSet::new();
    for s in &all {
        assert!(
            names.insert(s.name.clone()),
            "scenario {} bundled twice",
            s.name
        );
        validate(&s.source).unwrap_or_else(|e| panic!("{e}"));
        let header = s.source.header().expect("validated");
        assert_eq!(
            header.name, s.name,
            "scenario file {} says its name is {}",
            s.source.path, header.name
        );
    }
    for r in rulesets() {
        let own: Vec<&Scenario> = all.iter().filter(|s| s.ruleset.id() == r.id()).collect();
        assert!(
            !own.is_empty(),
            "ruleset {} has no bundled scenario (each ruleset ships at least one)",
            r.id()
        );
        for spec in r.options() {
            for value in spec.choices.iter().copied().chain([spec.default]) {
                let options = Options::from([(spec.key.to_string(), value.to_string())]);
                let errors: Vec<String> = own
                    .iter()
                    .filter_map(|s| r.load(&s.source, &options).err())
                    .map(|e| e.to_string())
                    .collect();
                assert!(
                    errors.len() < own.len(),
                    "{}: option {}={value} loads with none of its bundled scenarios:\n{}",
                    r.id(),
                    spec.key,
                    errors.join("\n")
                );
            }
        }
    }
}

/// The ruleset's own invariants, and a game over exactly when it has an outcome.
fn check_rules(game: &dyn Game) -> Result<(), String> {
    game.check_invariants()
        .map_err(|e| format!("check_invariants: {e}"))?;
    if game.to_decide().is_none() != game.outcome().is_some() {
        return Err(format!(
            "to_decide is {:?} but outcome is {:?}: a game is over exactly when it has an outcome",
            game.to_decide(),
            game.outcome()
        ));
    }
    // The quick answer the bots' lookahead reads is the view's.
    let seen = game.view(None).phasing;
    if game.phasing() != seen {
        return Err(format!(
            "phasing() is {:?} but the view's phasing is {seen:?}",
            game.phasing()
        ));
    }
    Ok(())
}

/// The generic invariants of the full view and of each side's view.
fn check_views(game: &dyn Game) -> Result<(), String> {
    let full = game.view(None);
    if full.viewer.is_some() || full.ruleset != game.ruleset() {
        return Err("view(None) is not the full view of this ruleset".into());
    }
    if full.turn != game.turn() || full.to_decide != game.to_decide() {
        return Err(format!(
            "view(None) says turn {} / {:?} to decide, the game says turn {} / {:?}",
            full.turn,
            full.to_decide,
            game.turn(),
            game.to_decide()
        ));
    }
    check_view(&full)?;
    for side in Side::BOTH {
        let v = game.view(Some(side));
        if v.viewer != Some(side) {
            return Err(format!(
                "view(Some({side})) says its viewer is {:?}",
                v.viewer
            ));
        }
        check_view(&v)?;
        let mut without_cones = v.clone();
        without_cones.units.iter_mut().for_each(|u| u.cone.clear());
        if game.search_view(Some(side)) != without_cones {
            return Err(format!(
                "{side}'s search view is not its view without the firing cones"
            ));
        }
        if v.turn != full.turn || v.to_decide != full.to_decide {
            return Err(format!(
                "{side}'s view disagrees with the full view on turn or decision"
            ));
        }
        for u in &v.units {
            let same = full
                .unit(&u.id)
                .is_some_and(|f| f.side == u.side && f.name == u.name && f.arm == u.arm);
            if !same {
                return Err(format!(
                    "{side}'s view shows unit {} ({} {} {}) that the full view does not have",
                    u.id, u.side, u.arm, u.name
                ));
            }
        }
        for m in &v.markers {
            if full.unit(&m.id).is_some() {
                return Err(format!(
                    "{side}'s view has a marker whose id {} is a unit id: marker ids are opaque",
                    m.id
                ));
            }
        }
    }
    Ok(())
}

fn on_map(view: &View, place: &volley_core::Place) -> bool {
    place
        .hex()
        .map(col_row)
        .is_some_and(|(c, r)| c >= 1 && r >= 1 && c <= view.map.width && r <= view.map.height)
}

fn check_view(v: &View) -> Result<(), String> {
    let who = v
        .viewer
        .map_or("the full view".to_string(), |s| format!("{s}'s view"));
    if v.map.rows.len() != v.map.height as usize
        || v.map
            .rows
            .iter()
            .any(|r| r.split_whitespace().count() != v.map.width as usize)
    {
        return Err(format!(
            "{who}: the map rows are not {}×{}",
            v.map.width, v.map.height
        ));
    }
    let mut ids = HashSet::new();
    for u in &v.units {
        if !ids.insert(u.id.as_str()) {
            return Err(format!("{who}: unit id {} appears twice", u.id));
        }
        if !on_map(v, &u.place) {
            return Err(format!(
                "{who}: unit {} is at {}, off the map",
                u.id, u.place
            ));
        }
        if u.hits > u.max_hits {
            return Err(format!(
                "{who}: unit {} has {} hits of {}",
                u.id, u.hits, u.max_hits
            ));
        }
        if u.te > u.max_te {
            return Err(format!(
                "{who}: unit {} has TE {} of {}",
                u.id, u.te, u.max_te
            ));
        }
    }
    for m in &v.markers {
        if !on_map(v, &m.place) {
            return Err(format!(
                "{who}: marker {} is at {}, off the map",
                m.id, m.place
            ));
        }
    }
    Ok(())
}

/// The legal list: not empty while the game goes on, no duplicates, notations round-trip.
fn check_legal(game: &dyn Game, legal: &[Action]) -> Result<Vec<String>, String> {
    if legal.is_empty() {
        return Err(format!(
            "{:?} is to decide but there is no legal action",
            game.to_decide()
        ));
    }
    let mut seen = HashSet::new();
    let mut written = Vec::with_capacity(legal.len());
    for &a in legal {
        let text = game.notation(a);
        if !seen.insert(a) {
            return Err(format!("\"{text}\" is listed twice"));
        }
        match game.parse_action(&text) {
            Ok(b) if b == a => {}
            Ok(b) => {
                return Err(format!(
                    "\"{text}\" parses to a different action ({:#x}, written \"{}\")",
                    b.0,
                    game.notation(b)
                ))
            }
            Err(e) => {
                return Err(format!(
                    "\"{text}\", as notation wrote it, does not parse: {e}"
                ))
            }
        }
        written.push(text);
    }
    Ok(written)
}

/// The log stamps an action's events with the turn they happened in: a turn that rolls over
/// is opened by a marked event, before which the old turn's events come.
fn check_turn_stamps(logged: &[LoggedEvent], before: u32, now: u32) -> Result<(), String> {
    let opening = logged.iter().position(|e| e.event.opens_turn);
    match opening {
        None if now != before => {
            return Err(format!(
                "the turn went from {before} to {now} but no event opens the new turn"
            ))
        }
        Some(i) if now == before => {
            return Err(format!(
                "\"{}\" opens a turn but the turn is still {now}",
                logged[i].event.text
            ))
        }
        _ => {}
    }
    for (i, e) in logged.iter().enumerate() {
        let want = if opening.is_some_and(|o| i >= o) {
            now
        } else {
            before
        };
        if e.turn != want {
            return Err(format!(
                "\"{}\" is stamped turn {} but happened in turn {want}",
                e.event.text, e.turn
            ));
        }
    }
    Ok(())
}

/// What the API offers besides the whole list agrees with it: the count and the k-th action,
/// the actions unit by unit and the units that can act, the structured description, and the
/// prompt for the decision.
fn check_api(game: &dyn Game, legal: &[Action]) -> Result<(), String> {
    if game.legal_count() != legal.len() {
        return Err(format!(
            "legal_count says {} but legal_actions lists {}",
            game.legal_count(),
            legal.len()
        ));
    }
    for k in [0, legal.len() / 2, legal.len() - 1] {
        if game.legal_action(k) != Some(legal[k]) {
            return Err(format!(
                "legal_action({k}) is {:?}, not the {k}th listed action \"{}\"",
                game.legal_action(k).map(|a| game.notation(a)),
                game.notation(legal[k])
            ));
        }
    }
    if game.legal_action(legal.len()).is_some() {
        return Err("legal_action past the end of the list gives an action".into());
    }
    let mut of_units: Vec<Action> = legal
        .iter()
        .copied()
        .filter(|&a| game.describe(a).unit.is_some())
        .collect();
    let mut by_unit = Vec::new();
    for key in game.actors() {
        let mut mine = Vec::new();
        game.unit_actions(key, &mut mine);
        if mine.is_empty() {
            return Err(format!("actors lists unit {key}, which has no action"));
        }
        if let Some(a) = mine.iter().find(|&&a| game.describe(a).unit != Some(key)) {
            return Err(format!(
                "unit {key}'s actions include \"{}\", described as another unit's",
                game.notation(*a)
            ));
        }
        by_unit.extend(mine);
    }
    of_units.sort();
    by_unit.sort();
    if of_units != by_unit {
        return Err(format!(
            "the actions listed unit by unit ({}) are not the units' actions in the whole list ({})",
            by_unit.len(),
            of_units.len()
        ));
    }
    let side = game.to_decide().expect("asked while the game goes on");
    let view = game.view(Some(side));
    let keys: HashSet<u32> = view.units.iter().map(|u| u.key).collect();
    if let Some(a) = of_units
        .iter()
        .find(|&&a| game.describe(a).unit.is_some_and(|k| !keys.contains(&k)))
    {
        return Err(format!(
            "\"{}\" names a unit key that {side}'s view does not show",
            game.notation(*a)
        ));
    }
    match &view.prompt {
        Some(p) if p.starts_with(&format!("{}:", side.title())) => {}
        other => {
            return Err(format!(
                "the prompt {other:?} does not say that {} is to decide",
                side.title()
            ))
        }
    }
    check_choices(game, legal, &view)
}

/// What a client is given for each action ([`volley_core::choice::Choice`]): the notation it
/// sends back, one of the deciding side's own units to select, a place on the map, a label in
/// plain words with no unit's id in it where the unit has a name.
fn check_choices(game: &dyn Game, legal: &[Action], view: &View) -> Result<(), String> {
    let side = view.viewer.expect("the deciding side's view");
    let choices = volley_core::choice::choices(game, side);
    if choices.len() != legal.len() {
        return Err(format!(
            "{} choices for {} legal actions",
            choices.len(),
            legal.len()
        ));
    }
    for (c, &a) in choices.iter().zip(legal) {
        if c.text != game.notation(a) {
            return Err(format!(
                "the choice of \"{}\" says \"{}\"",
                game.notation(a),
                c.text
            ));
        }
        if let Some(id) = &c.unit {
            if !view.units.iter().any(|u| &u.id == id && u.side == side) {
                return Err(format!(
                    "\"{}\" is given by {id}, not a unit of {side} that {side} sees",
                    c.text
                ));
            }
        }
        if let Some(place) = &c.place {
            if !on_map(view, place) {
                return Err(format!("\"{}\" is marked off the map at {place}", c.text));
            }
        }
        if c.label.trim().is_empty() {
            return Err(format!("\"{}\" has no label", c.text));
        }
        // An end says what it ends; an attack names whom it strikes, as the view shows them.
        if c.kind == volley_core::ActionKind::End && c.label == "End" {
            return Err(format!("\"{}\" is labelled a bare \"End\"", c.text));
        }
        if c.kind == volley_core::ActionKind::Attack {
            if let Some(place) = &c.place {
                let there: Vec<&str> = view
                    .units
                    .iter()
                    .filter(|u| u.side != side && &u.place == place)
                    .map(|u| u.name.as_str())
                    .collect();
                if !there.is_empty() && !there.iter().any(|n| c.label.contains(n)) {
                    return Err(format!(
                        "the label of \"{}\" ({}) names none of those it strikes at {place} ({})",
                        c.text,
                        c.label,
                        there.join(", ")
                    ));
                }
            }
        }
        let named = |id: &str| {
            view.units
                .iter()
                .any(|u| u.id.as_str() == id && u.name.as_str() != id)
        };
        if let Some(w) = c.label.split_whitespace().find(|w| named(w)) {
            return Err(format!(
                "the label of \"{}\" ({}) says the id {w} where the unit has a name",
                c.text, c.label
            ));
        }
    }
    Ok(())
}

/// The quiet and the unchecked ways to apply an action leave the position `apply` leaves.
fn check_quiet_apply(game: &dyn Game, action: Action, seed: u64) -> Result<(), String> {
    let text = game.notation(action);
    let dice = || SeededDice::new(Seed::from_u64(seed));
    let mut loud = game.clone_game();
    loud.apply(action, &mut dice())
        .map_err(|e| format!("\"{text}\" refused: {e}"))?;
    let mut quiet = game.clone_game();
    quiet
        .apply_quiet(action, &mut dice())
        .map_err(|e| format!("\"{text}\" refused by apply_quiet: {e}"))?;
    let mut unchecked = game.clone_game();
    unchecked.apply_unchecked(action, &mut dice());
    let want = loud.view(None);
    if quiet.view(None) != want || unchecked.view(None) != want {
        return Err(format!(
            "\"{text}\" leaves another position when applied quietly or unchecked"
        ));
    }
    if quiet.legal_actions() != loud.legal_actions()
        || unchecked.legal_actions() != loud.legal_actions()
    {
        return Err(format!(
            "\"{text}\" leaves other legal actions when applied quietly or unchecked"
        ));
    }
    Ok(())
}

/// The map's movement overlay agrees with the legal list: every hex a legal `move UNIT HEX`
/// names is among the unit's reachable hexes.
fn check_reach(game: &dyn Game, written: &[String]) -> Result<(), String> {
    let mut reach: std::collections::HashMap<&str, Vec<String>> = Default::default();
    for text in written {
        let words: Vec<&str> = text.split_whitespace().collect();
        let ["move", unit, hex] = words[..] else {
            continue;
        };
        let hexes = reach
            .entry(unit)
            .or_insert_with(|| game.reach(unit).into_iter().map(|r| r.hex).collect());
        if !hexes.iter().any(|h| h == hex) {
            return Err(format!(
                "\"{text}\" is legal but {hex} is not in {unit}'s reach {hexes:?}"
            ));
        }
    }
    Ok(())
}

/// Every legal action is accepted on a clone, twice with the same dice for the same result,
/// and the position it was tried from is untouched.
fn try_every_legal_action(game: &dyn Game, legal: &[Action], seed: u64) -> Result<(), String> {
    let before = game.view(None);
    for (i, &a) in legal.iter().enumerate() {
        let text = game.notation(a);
        let dice_seed = Seed::from_u64(seed ^ i as u64);
        let mut once = game.clone_game();
        let events = once
            .apply(a, &mut SeededDice::new(dice_seed))
            .map_err(|e| format!("legal action \"{text}\" was refused: {e}"))?;
        once.check_invariants()
            .map_err(|e| format!("after \"{text}\": check_invariants: {e}"))?;
        if i % 8 != 0 {
            continue;
        }
        // For some of them: the same dice give the same events and the same position.
        let mut twice = game.clone_game();
        let again = twice
            .apply(a, &mut SeededDice::new(dice_seed))
            .map_err(|e| format!("legal action \"{text}\" was refused the second time: {e}"))?;
        if events != again || once.view(None) != twice.view(None) {
            return Err(format!(
                "\"{text}\" with the same dice gave a different result"
            ));
        }
    }
    if game.view(None) != before {
        return Err("applying actions to clones changed the original game".into());
    }
    Ok(())
}

/// Actions not in the legal list are refused and change nothing: garbage notation, the other
/// side's recent actions, and legal actions with a bit flipped.
fn check_refusals(
    game: &dyn Game,
    legal: &[Action],
    others: &[String],
    mix: &mut Mix,
) -> Result<(), String> {
    let before = game.view(None);
    let mut candidates: Vec<(String, Action)> = Vec::new();
    for text in ["", "   ", "xyzzy", "0101", "?? 9999 9999 ??", "\u{1F600}"]
        .into_iter()
        .map(String::from)
        .chain(others.iter().cloned())
    {
        if let Ok(a) = game.parse_action(&text) {
            candidates.push((format!("\"{text}\""), a));
        }
    }
    for _ in 0..8 {
        let a = legal[(mix.next() % legal.len() as u64) as usize];
        let flipped = Action(a.0 ^ (1 << (mix.next() % 32)));
        candidates.push((
            format!("{:#x} (a legal action with one bit flipped)", flipped.0),
            flipped,
        ));
    }
    for (what, a) in candidates {
        if legal.contains(&a) {
            continue;
        }
        let mut g = game.clone_game();
        let mut dice = SeededDice::new(Seed::from_u64(mix.next()));
        if g.apply(a, &mut dice).is_ok() {
            // Bits a ruleset's packing ignores may spell a listed action another way: the
            // same action, as long as it is written the same.
            let written = game.notation(a);
            if !legal.iter().any(|&l| game.notation(l) == written) {
                return Err(format!(
                    "{what} (\"{written}\") is not in the legal list but apply accepted it"
                ));
            }
        } else if g.view(None) != before {
            return Err(format!("refusing {what} changed the game"));
        }
    }
    Ok(())
}

/// The save, through JSON text and back, replays to the same log and the same position.
fn check_replay(session: &Session, ruleset: &dyn Ruleset) -> Result<(), String> {
    let text = serde_json::to_string(&session.to_save()).map_err(|e| e.to_string())?;
    let save: SaveFile = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let replayed = Session::from_save(ruleset, &save, "round-trip.json")
        .map_err(|e| format!("the saved game does not replay: {e}"))?;
    if replayed.log != session.log {
        return Err("the replayed game's log differs from the game's".into());
    }
    if replayed.game.view(None) != session.game.view(None) {
        return Err("the replayed game's position differs from the game's".into());
    }
    if replayed.records != session.records {
        return Err("the replayed game's records differ".into());
    }
    Ok(())
}

/// How many actions the random games took back (and made again): undo must be tried for real.
static TAKEN_BACK: AtomicUsize = AtomicUsize::new(0);

/// Taking back the action just made: refused for one that rolled dice, and otherwise either
/// refused leaving everything as it was, or giving back exactly the game before it — save and
/// log — after which the action is made again.
fn check_undo(
    session: &mut Session,
    ruleset: &dyn Ruleset,
    side: Side,
    action: Action,
    save: &SaveFile,
    log: &[LoggedEvent],
) -> Result<(), String> {
    let rolled = !session
        .records
        .last()
        .expect("just applied")
        .rolls
        .is_empty();
    let now = session.to_save();
    match session.undo(ruleset, side) {
        Ok(_) if rolled => Err("an action that rolled dice was taken back".into()),
        Ok(_) => {
            TAKEN_BACK.fetch_add(1, Ordering::Relaxed);
            if &session.to_save() != save {
                return Err("taking the action back did not give back the save before it".into());
            }
            if session.log != log {
                return Err("taking the action back did not give back the log before it".into());
            }
            session
                .apply(action, &[])
                .map(|_| ())
                .map_err(|e| format!("the action taken back cannot be made again: {e}"))
        }
        Err(why) if why.is_empty() => Err("undo refused without a reason".into()),
        Err(_) if session.to_save() != now => Err("a refused undo changed the game".into()),
        Err(_) => Ok(()),
    }
}

/// One random game with every check; returns how many actions it took.
fn play_checked(s: &Scenario, seed: u64, trail: &mut Vec<String>) -> Result<usize, String> {
    let mut session = start(s, seed);
    let mut bot = RandomBot::new(seed.wrapping_mul(31).wrapping_add(7));
    let mut mix = Mix(seed);
    let mut recent: [Vec<String>; 2] = [Vec::new(), Vec::new()];
    check_rules(&*session.game)?;
    check_views(&*session.game)?;
    let mut actions = 0;
    let mut undos = 0;
    while let Some(side) = session.game.to_decide() {
        if actions >= MAX_ACTIONS {
            return Err(format!(
                "the game has not ended after {MAX_ACTIONS} actions"
            ));
        }
        let game = &*session.game;
        let legal = game.legal_actions();
        let written = check_legal(game, &legal)?;
        if actions == 0 || mix.next() < u64::MAX / SAMPLE_ONE_IN {
            check_api(game, &legal)?;
            let pick = legal[(mix.next() % legal.len() as u64) as usize];
            check_quiet_apply(game, pick, mix.next())?;
            try_every_legal_action(game, &legal, mix.next())?;
            check_reach(game, &written)?;
            check_refusals(game, &legal, &recent[side.other().index()], &mut mix)?;
        }
        recent[side.index()] = written;
        let action = bot.choose(game, side);
        trail.push(game.notation(action));
        let turn_before = game.turn();
        let before = (mix.next() < u64::MAX / SAMPLE_ONE_IN && undos < UNDOS_PER_GAME)
            .then(|| (session.to_save(), session.log.clone()));
        undos += usize::from(before.is_some());
        let logged = session
            .apply(action, &[])
            .map_err(|e| format!("the chosen legal action was refused: {e}"))?;
        let after = |e: String| format!("after \"{}\": {e}", trail.last().map_or("", |t| t));
        if let Some((save, log)) = before {
            check_undo(&mut session, s.ruleset, side, action, &save, &log).map_err(after)?;
        }
        check_turn_stamps(&logged, turn_before, session.game.turn()).map_err(after)?;
        check_rules(&*session.game).map_err(after)?;
        if mix.next() < u64::MAX / VIEWS_ONE_IN {
            check_views(&*session.game).map_err(after)?;
        }
        actions += 1;
    }
    check_views(&*session.game)?;
    if !session.game.legal_actions().is_empty() {
        return Err("the game is over but still lists legal actions".into());
    }
    if session.game.view(None).outcome.is_none() {
        return Err("the game is over but its view has no outcome".into());
    }
    check_replay(&session, s.ruleset)?;
    Ok(actions)
}

fn panic_text(payload: Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "a panic".into())
}

#[test]
fn random_games_end_and_keep_every_promise() {
    let all = scenarios();
    let jobs: Vec<(usize, u64)> = all
        .iter()
        .enumerate()
        .flat_map(|(i, s)| (0..games_for(s) as u64).map(move |seed| (i, seed)))
        .collect();
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let totals = Mutex::new(vec![(0usize, 0usize, 0f64); all.len()]);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let j = next.fetch_add(1, Ordering::Relaxed);
                let Some(&(i, seed)) = jobs.get(j) else { break };
                let s = &all[i];
                let mut trail = Vec::new();
                let clock = std::time::Instant::now();
                let result = catch_unwind(AssertUnwindSafe(|| play_checked(s, seed, &mut trail)))
                    .unwrap_or_else(|p| Err(format!("panicked: {}", panic_text(p))));
                match result {
                    Ok(n) => {
                        let mut t = totals.lock().expect("totals");
                        t[i].0 += 1;
                        t[i].1 += n;
                        t[i].2 += clock.elapsed().as_secs_f64();
                    }
                    Err(e) => {
                        let last: Vec<&String> = trail.iter().rev().take(8).rev().collect();
                        failures.lock().expect("failures").push(format!(
                            "{} ({}), seed {seed}, after {} actions: {e}\n    last actions: {last:?}",
                            s.name,
                            s.ruleset.id(),
                            trail.len()
                        ));
                    }
                }
            });
        }
    });
    for (s, (n, actions, secs)) in all.iter().zip(totals.into_inner().expect("totals")) {
        eprintln!("{}: {n} games, {actions} actions, {secs:.1} s", s.name);
    }
    let failures = failures.into_inner().expect("failures");
    assert!(
        failures.is_empty(),
        "{} of {} games broke a promise:\n{}",
        failures.len(),
        jobs.len(),
        failures
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        TAKEN_BACK.load(Ordering::Relaxed) > 0,
        "no random game ever took an action back"
    );
}

#[test]
fn every_ruleset_explains_its_words() {
    for r in rulesets() {
        let terms = r.glossary();
        assert!(
            terms.len() >= 10,
            "{}: a glossary of {} terms is too thin for a new player",
            r.id(),
            terms.len()
        );
        let mut seen = HashSet::new();
        for t in &terms {
            assert!(
                seen.insert(t.term.to_lowercase()),
                "{}: \"{}\" is explained twice",
                r.id(),
                t.term
            );
            assert!(
                !t.section.trim().is_empty(),
                "{}: \"{}\" names no section",
                r.id(),
                t.term
            );
        }
    }
}

#[test]
fn odds_of_opening_actions_add_up_to_one() {
    for s in scenarios() {
        let session = start(&s, 1);
        let game = &*session.game;
        let side = game.to_decide().expect("a new game is not over");
        for a in game.legal_actions().into_iter().take(6) {
            let odds = volley_core::odds::odds(game, a, Some(side))
                .unwrap_or_else(|e| panic!("{}: odds of a legal action refused: {e}", s.name));
            let total: f64 = odds.outcomes.iter().map(|o| o.probability).sum();
            assert!(
                (total - 1.0).abs() < 1e-6,
                "{}: odds of \"{}\" add up to {total}",
                s.name,
                odds.action
            );
        }
    }
}

/// Random games per scenario played for the attack-odds test…
const ODDS_GAMES: u64 = 4;
/// …at most this many attacks that can hit weighed in each…
const ODDS_PER_GAME: usize = 6;
/// …and at most this many odds worked out in each (odds are the costly part).
const ODDS_TRIED_PER_GAME: usize = 24;

/// The odds of one of the attacks listed now, if any, weigh the attack's own dice whenever
/// the rules settle them: an attack that, played out through the end of its phase, can
/// change its target never shows "no effect" as its only outcome. Returns whether such an
/// attack was weighed.
fn check_attack_odds(game: &dyn Game, side: Side, mix: &mut Mix) -> Result<bool, String> {
    let attacks: Vec<Action> = game
        .legal_actions()
        .into_iter()
        .filter(|&a| game.describe(a).kind == ActionKind::Attack)
        .collect();
    let Some(&attack) = attacks.get((mix.next() % attacks.len().max(1) as u64) as usize) else {
        return Ok(false);
    };
    let text = game.notation(attack);
    let odds = odds::odds(game, attack, Some(side))
        .map_err(|e| format!("the odds of \"{text}\" were refused: {e}"))?;
    let total: f64 = odds.outcomes.iter().map(|o| o.probability).sum();
    if (total - 1.0).abs() > 1e-6 {
        return Err(format!("the odds of \"{text}\" add up to {total}"));
    }
    // The confirm box explains the reckoning as the log will: every outcome has a told way
    // of getting there, with its numbers.
    if let Some(o) = odds
        .outcomes
        .iter()
        .find(|o| !o.example.chars().any(|c| c.is_ascii_digit()))
    {
        return Err(format!(
            "the odds of \"{text}\" tell no reckoning with numbers for \"{}\" (example: \"{}\")",
            o.outcome, o.example
        ));
    }
    if !odds::played_out_touches_target(game, attack, Some(side)) {
        return Ok(false);
    }
    match odds.outcomes.as_slice() {
        [only] if only.outcome == odds::NO_EFFECT => Err(format!(
            "\"{text}\" can change its target when played out, but its odds say \"no effect\" only"
        )),
        _ => Ok(true),
    }
}

/// A random player that seeks battle, so that games reach attacks: it attacks when it can,
/// else steps towards the nearest enemy it sees, else ends the phase; among equals it picks
/// at random.
fn eager_choice(game: &dyn Game, side: Side, mix: &mut Mix) -> Action {
    let view = game.view(Some(side));
    let enemies: Vec<_> = view
        .units
        .iter()
        .filter(|u| u.side != side)
        .filter_map(|u| u.place.hex())
        .collect();
    let nearest = |h| enemies.iter().map(|&e| distance(h, e)).min();
    let eagerness = |a: Action| {
        let info = game.describe(a);
        let from = info
            .unit
            .and_then(|k| view.units.iter().find(|u| u.key == k))
            .and_then(|u| u.place.hex());
        let to = info.place.and_then(|p| p.hex());
        match info.kind {
            ActionKind::Attack => 3,
            ActionKind::Move if to.and_then(nearest) < from.and_then(nearest) => 2,
            ActionKind::End => 1,
            _ => 0,
        }
    };
    let legal = game.legal_actions();
    let best = legal.iter().map(|&a| eagerness(a)).max().unwrap_or(0);
    let top: Vec<Action> = legal
        .into_iter()
        .filter(|&a| eagerness(a) == best)
        .collect();
    top[(mix.next() % top.len() as u64) as usize]
}

#[test]
fn odds_of_attacks_weigh_their_own_dice_whenever_the_rules_settle_them() {
    let mut weighed: std::collections::BTreeMap<&'static str, usize> = Default::default();
    let mut failures = Vec::new();
    for s in scenarios() {
        let clock = std::time::Instant::now();
        for seed in 0..ODDS_GAMES {
            let mut session = start(&s, seed);
            let mut mix = Mix(seed ^ 0xa77ac);
            let (mut checked, mut tried, mut actions) = (0, 0, 0);
            while let Some(side) = session.game.to_decide() {
                if checked >= ODDS_PER_GAME
                    || tried >= ODDS_TRIED_PER_GAME
                    || actions >= MAX_ACTIONS
                {
                    break;
                }
                let attacking = session
                    .game
                    .legal_actions()
                    .iter()
                    .any(|&a| session.game.describe(a).kind == ActionKind::Attack);
                if attacking {
                    tried += 1;
                }
                match check_attack_odds(&*session.game, side, &mut mix) {
                    Ok(true) => {
                        checked += 1;
                        *weighed.entry(s.ruleset.id()).or_default() += 1;
                    }
                    Ok(false) => {}
                    Err(e) => {
                        // VOLLEY_DUMP=FILE saves the position, for `volley odds FILE ACTION`.
                        if let Ok(path) = std::env::var("VOLLEY_DUMP") {
                            std::fs::write(&path, session.to_save().to_json()).unwrap();
                        }
                        failures.push(format!(
                            "{} seed {seed}, turn {}: {e}",
                            s.name,
                            session.game.turn()
                        ));
                        break;
                    }
                }
                let action = eager_choice(&*session.game, side, &mut mix);
                session
                    .apply(action, &[])
                    .expect("a chosen legal action applies");
                actions += 1;
            }
        }
        eprintln!("{}: {:.1} s", s.name, clock.elapsed().as_secs_f64());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    for r in rulesets() {
        assert!(
            weighed.get(r.id()).is_some_and(|&n| n > 0),
            "{}: no attack that can hit was found to weigh ({weighed:?})",
            r.id()
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 24,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Any sequence of legal choices, cut anywhere, saves and replays to the same game, and
    /// an action from nowhere is refused by the session without a trace.
    #[test]
    fn any_line_of_play_replays_from_its_save(
        which in any::<prop::sample::Index>(),
        seed in any::<u64>(),
        choices in prop::collection::vec(any::<prop::sample::Index>(), 0..250),
    ) {
        let all = scenarios();
        let s = &all[which.index(all.len())];
        let mut session = start(s, seed);
        for choice in &choices {
            if session.game.to_decide().is_none() {
                break;
            }
            let legal = session.game.legal_actions();
            prop_assert!(!legal.is_empty());
            let action = legal[choice.index(legal.len())];
            session.apply(action, &[]).map_err(|e| TestCaseError::fail(e.to_string()))?;
        }
        check_replay(&session, s.ruleset).map_err(TestCaseError::fail)?;

        let (log, records, view) =
            (session.log.clone(), session.records.clone(), session.game.view(None));
        prop_assert!(session.apply_text("certainly not an action", &[]).is_err());
        prop_assert_eq!(&session.log, &log);
        prop_assert_eq!(&session.records, &records);
        prop_assert_eq!(session.game.view(None), view);
        prop_assert!(find(session.game.ruleset()).is_some());
    }
}

/// The option combinations that cover every pair of values of two of a ruleset's options
/// (a greedy pairwise covering array, built the same way every run). Options without a list
/// of choices are played at their default.
fn pairwise(specs: &[volley_core::OptionSpec]) -> Vec<Options> {
    let values: Vec<Vec<&str>> = specs
        .iter()
        .map(|o| {
            let mut v: Vec<&str> = vec![o.default];
            v.extend(o.choices.iter().copied().filter(|&c| c != o.default));
            v
        })
        .collect();
    let n = specs.len();
    let mut uncovered: HashSet<(usize, usize, usize, usize)> = HashSet::new();
    for i in 0..n {
        for j in i + 1..n {
            for a in 0..values[i].len() {
                for b in 0..values[j].len() {
                    uncovered.insert((i, a, j, b));
                }
            }
        }
    }
    let mut rows = vec![vec![0usize; n]]; // every default together first
    for i in 0..n {
        for j in i + 1..n {
            uncovered.remove(&(i, 0, j, 0));
        }
    }
    while !uncovered.is_empty() {
        // Start from the first uncovered pair, then give every other option the value that
        // covers most pairs with those already chosen.
        let &(i0, a0, j0, b0) = uncovered.iter().min().expect("not empty");
        let mut row: Vec<Option<usize>> = vec![None; n];
        row[i0] = Some(a0);
        row[j0] = Some(b0);
        for k in 0..n {
            if row[k].is_some() {
                continue;
            }
            let best = (0..values[k].len())
                .max_by_key(|&v| {
                    let gain = (0..n)
                        .filter_map(|m| row[m].map(|w| (m, w)))
                        .filter(|&(m, w)| {
                            let key = if m < k { (m, w, k, v) } else { (k, v, m, w) };
                            uncovered.contains(&key)
                        })
                        .count();
                    (gain, std::cmp::Reverse(v))
                })
                .unwrap_or(0);
            row[k] = Some(best);
        }
        let row: Vec<usize> = row.into_iter().map(|v| v.unwrap_or(0)).collect();
        for i in 0..n {
            for j in i + 1..n {
                uncovered.remove(&(i, row[i], j, row[j]));
            }
        }
        rows.push(row);
    }
    rows.iter()
        .map(|row| {
            specs
                .iter()
                .zip(row)
                .map(|(o, &v)| (o.key.to_string(), values_of(o)[v].to_string()))
                .collect()
        })
        .collect()
}

fn values_of(o: &volley_core::OptionSpec) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = vec![o.default];
    v.extend(o.choices.iter().copied().filter(|&c| c != o.default));
    v
}

/// Every bundled scenario of every ruleset, under each combination of a pairwise covering of
/// its options (every pair of values of two options together at least once): a random game
/// with the ruleset's invariants checked after every action. A combination a scenario
/// refuses must say why; each combination must load with some scenario of its ruleset.
#[test]
fn every_option_combination_plays_on_every_scenario() {
    const MAX: usize = 1_500;
    let all = scenarios();
    let mut failures = Vec::new();
    let mut played = 0;
    for r in rulesets() {
        let own: Vec<&Scenario> = all.iter().filter(|s| s.ruleset.id() == r.id()).collect();
        for (k, options) in pairwise(r.options()).into_iter().enumerate() {
            let mut loaded = 0;
            for s in &own {
                let Ok(mut session) =
                    new_session(&s.name, &s.source, &options, Seed::from_u64(k as u64))
                else {
                    continue;
                };
                loaded += 1;
                played += 1;
                let mut bot = RandomBot::new(k as u64 + 11);
                let mut actions = 0;
                let result = catch_unwind(AssertUnwindSafe(|| -> Result<(), String> {
                    while let Some(side) = session.game.to_decide() {
                        if actions >= MAX {
                            break;
                        }
                        let a = bot.choose(&*session.game, side);
                        let text = session.game.notation(a);
                        session
                            .apply(a, &[])
                            .map_err(|e| format!("{text}: refused: {e}"))?;
                        check_rules(&*session.game).map_err(|e| format!("after {text}: {e}"))?;
                        actions += 1;
                    }
                    Ok(())
                }))
                .unwrap_or_else(|p| Err(format!("panicked: {}", panic_text(p))));
                if let Err(e) = result {
                    failures.push(format!(
                        "{} with {options:?}, after {actions} actions: {e}",
                        s.name
                    ));
                }
            }
            assert!(
                loaded > 0,
                "{}: options {options:?} load with none of its scenarios",
                r.id()
            );
        }
    }
    eprintln!("{played} games played");
    assert!(
        failures.is_empty(),
        "{} of {played} games failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn the_pairwise_combinations_cover_every_pair() {
    for r in rulesets() {
        let specs = r.options();
        let rows = pairwise(specs);
        for (i, a) in specs.iter().enumerate() {
            for b in &specs[i + 1..] {
                for va in values_of(a) {
                    for vb in values_of(b) {
                        assert!(
                            rows.iter()
                                .any(|o| o.get(a.key).map(String::as_str) == Some(va)
                                    && o.get(b.key).map(String::as_str) == Some(vb)),
                            "{}: {}={va} never meets {}={vb}",
                            r.id(),
                            a.key,
                            b.key
                        );
                    }
                }
            }
        }
    }
}
