//! "What are my odds?": the distribution of what an action does, without doing it. Exact from
//! the ruleset's own classes of alike die sequences when it gives them
//! ([`Game::odds_cases`]); otherwise exact by walking every die sequence when there are few,
//! and by sampling when there are many.
//!
//! Each die sequence is played through [`Game::preview`], which settles the action's results
//! even when the rules hold them back to the end of the phase. An attack the odds find sure
//! to do nothing is played out for real through the end of its phase ([`played_out`]) in a
//! few dice worlds; if that shows it does something, the ruleset's preview has left results
//! unsettled and the odds are refused rather than shown wrong.

use crate::dice::{Dice, DiceEnumerator, ScriptedDice, Seed, SeededDice};
use crate::game::{Action, ActionKind, Game, Illegal, Side};
use crate::view::{UnitView, View};
use serde::Serialize;
use std::collections::BTreeMap;

/// Leaves walked before giving up on exactness and sampling instead.
pub const EXACT_LIMIT: usize = 20_000;
/// Samples taken when the odds are not exact.
pub const SAMPLES: usize = 20_000;
/// Dice worlds in which an attack the odds find sure to do nothing is played out to check it.
pub const CHECK_PLAYS: u64 = 24;
/// `end`s [`played_out`] gives before it stops waiting for the phase to change.
const MAX_ENDS: usize = 4;

#[derive(Clone, Debug, Serialize)]
pub struct OddsLine {
    /// What changed, in words ("0405 2nd Line: hits 1→2"); "no effect" when nothing did.
    pub outcome: String,
    pub probability: f64,
    /// How the log would tell one way of getting there — band, modifiers, the die needed and
    /// a roll that gives it — so the player sees the reckoning before committing.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub example: String,
}

pub use crate::chance::OddsCase;

#[derive(Clone, Debug, Serialize)]
pub struct Odds {
    pub action: String,
    pub exact: bool,
    /// Die sequences walked (exact), the ruleset's classes of sequences played (exact, see
    /// [`Game::odds_cases`]), or games sampled.
    pub trials: usize,
    pub outcomes: Vec<OddsLine>,
    /// What else to know before committing ([`Game::notes`]): the roll that decides whether
    /// the action happens, who may answer it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// The outcome distribution of `action` as `viewer` would see it (so odds never reveal what
/// the viewer cannot see).
pub fn odds(
    game: &dyn Game,
    action: Action,
    viewer: Option<Side>,
) -> Result<Odds, crate::game::Illegal> {
    if !game.legal_actions().contains(&action) {
        return Err(crate::game::Illegal::new(format!(
            "\"{}\" is not a legal action now",
            game.notation(action)
        )));
    }
    // A seat's odds are worked out on the position as it knows it, never the real one.
    let known = viewer.map(|side| crate::game::as_known_to(game, side));
    let game: &dyn Game = known.as_deref().unwrap_or(game);
    let before = game.view(viewer);
    let mut tally: BTreeMap<String, f64> = BTreeMap::new();
    let mut examples: BTreeMap<String, String> = BTreeMap::new();
    // What the seat may be told of one way of getting an outcome. Worked out on a sample of
    // what it cannot see, the position may reveal units there that are only the sample's:
    // events naming a unit the seat does not see now, and reveals, are left out.
    let known: std::collections::HashSet<&str> =
        before.units.iter().map(|u| u.id.as_str()).collect();
    let unknown: Vec<String> = match viewer {
        None => Vec::new(),
        Some(_) => game
            .view(None)
            .units
            .iter()
            .filter(|u| !known.contains(u.id.as_str()))
            .map(|u| u.id.to_string())
            .collect(),
    };
    let tellable = |ev: &crate::game::Event| match viewer {
        None => true,
        Some(side) => {
            ev.seen.by(side)
                && ev.kind != "spotted"
                && ev.units.iter().all(|u| known.contains(u.as_str()))
                && !unknown.iter().any(|id| names_word(&ev.text, id))
        }
    };
    let mut note = |outcome: &str, events: &[crate::game::Event]| {
        if !examples.contains_key(outcome) {
            let told: Vec<&str> = events
                .iter()
                .filter(|ev| tellable(ev))
                .map(|ev| ev.text.as_str())
                .collect();
            examples.insert(outcome.to_string(), told.join(" · "));
        }
    };
    let (exact, trials) = if let Some(cases) = game.odds_cases(action) {
        // The ruleset has counted the dice itself: one play of each class's representative
        // says what the class does, and the class's chance is exact.
        let wrong = |why: String| {
            Illegal::new(format!(
                "the odds of \"{}\" cannot be shown: {}'s odds cases are wrong for that action ({why})",
                game.notation(action),
                game.ruleset()
            ))
        };
        if cases.is_empty() {
            return Err(wrong("it gives none".into()));
        }
        if let Some((i, case)) = cases
            .iter()
            .enumerate()
            .find(|(_, c)| !(c.probability.is_finite() && c.probability >= 0.0))
        {
            return Err(wrong(format!(
                "case {} of {} has chance {}",
                i + 1,
                cases.len(),
                case.probability
            )));
        }
        debug_assert!(
            (cases.iter().map(|c| c.probability).sum::<f64>() - 1.0).abs() < 1e-9,
            "{}'s odds cases for \"{}\" do not add up to 1",
            game.ruleset(),
            game.notation(action)
        );
        for (i, case) in cases.iter().enumerate() {
            let mut dice = ScriptedDice::tolerant(case.dice.iter().copied());
            let mut g = game.clone_game();
            let events = g.preview(action, &mut dice)?;
            if let Some(fault) = dice.fault() {
                return Err(wrong(format!(
                    "case {} of {}, dice {:?}: {fault}",
                    i + 1,
                    cases.len(),
                    case.dice
                )));
            }
            // A class that cannot happen is checked like the others but shown as nothing.
            if case.probability > 0.0 {
                let outcome = describe_change(&before, &g.view(viewer));
                note(&outcome, &events);
                *tally.entry(outcome).or_default() += case.probability;
            }
        }
        (true, cases.len())
    } else {
        let mut e = DiceEnumerator::new();
        let mut leaves = 0usize;
        let exact = loop {
            e.begin();
            let mut g = game.clone_game();
            let events = g.preview(action, &mut e)?;
            let outcome = describe_change(&before, &g.view(viewer));
            note(&outcome, &events);
            *tally.entry(outcome).or_default() += e.probability();
            leaves += 1;
            if e.truncated || !e.advance() {
                break !e.truncated;
            }
            if leaves >= EXACT_LIMIT {
                break false;
            }
        };
        let trials = if exact {
            leaves
        } else {
            tally.clear();
            let mut dice = SeededDice::new(Seed::from_u64(0x0dd5));
            for _ in 0..SAMPLES {
                let mut g = game.clone_game();
                let events = g.preview(action, &mut dice)?;
                let outcome = describe_change(&before, &g.view(viewer));
                note(&outcome, &events);
                *tally.entry(outcome).or_default() += 1.0 / SAMPLES as f64;
            }
            SAMPLES
        };
        (exact, trials)
    };
    let nothing = tally.len() == 1 && tally.contains_key(NO_EFFECT);
    if nothing
        && game.describe(action).kind == ActionKind::Attack
        && played_out_touches_target(game, action, viewer)
    {
        return Err(Illegal::new(format!(
            "the odds of \"{}\" cannot be shown: {}'s preview says it does nothing, but played out to the end of its phase it does (the ruleset's Game::preview leaves results unsettled)",
            game.notation(action),
            game.ruleset()
        )));
    }
    let mut outcomes: Vec<OddsLine> = tally
        .into_iter()
        .map(|(outcome, probability)| OddsLine {
            example: examples.remove(&outcome).unwrap_or_default(),
            outcome,
            // To twelve places: sums of the same chances taken in another order differ in
            // the last bit, which says nothing to a player (and must not differ between
            // positions a side cannot tell apart).
            probability: (probability * 1e12).round() / 1e12,
        })
        .collect();
    outcomes.sort_by(|a, b| {
        b.probability
            .total_cmp(&a.probability)
            .then(a.outcome.cmp(&b.outcome))
    });
    Ok(Odds {
        action: game.notation(action),
        exact,
        trials,
        outcomes,
        notes: game.notes(action),
    })
}

/// The outcome of an action that changed nothing anyone can see.
pub const NO_EFFECT: &str = "no effect";

/// Plays `action` as [`Game::apply`] does (or nothing, for `None`), then ends its phase the
/// way a side that does nothing more would: while the side that was to decide is still to
/// decide in the same turn and phase, it takes its `end` action ([`ActionKind::End`]).
/// Returns the game once the phase (or the turn, or the game) has changed; `None` when the
/// phase cannot be ended that way (the other side must decide first, or `end` is refused).
///
/// This is what the rules do with an action's results once its phase is over, whenever they
/// settle them: the odds check their own "no effect" against it, and the every-ruleset test
/// holds every ruleset's previews to it.
pub fn played_out(
    game: &dyn Game,
    action: Option<Action>,
    dice: &mut dyn Dice,
) -> Option<Box<dyn Game>> {
    let side = game.to_decide()?;
    let phase = |g: &dyn Game| (g.turn(), g.view(None).phase);
    let start = phase(game);
    let mut g = game.clone_game();
    if let Some(a) = action {
        g.apply(a, dice).ok()?;
    }
    for _ in 0..=MAX_ENDS {
        if g.to_decide().is_none() || phase(&*g) != start {
            return Some(g);
        }
        if g.to_decide() != Some(side) {
            return None;
        }
        let end = g
            .legal_actions()
            .into_iter()
            .find(|&a| g.describe(a).kind == ActionKind::End)?;
        g.apply(end, dice).ok()?;
    }
    None
}

/// Whether, in one of [`CHECK_PLAYS`] dice worlds, playing `action` out ([`played_out`])
/// changes a unit `viewer` sees at the place it attacks, where ending the phase without it
/// does not: the attack can do something, whenever the rules settle it.
pub fn played_out_touches_target(game: &dyn Game, action: Action, viewer: Option<Side>) -> bool {
    let Some(place) = game.describe(action).place else {
        return false;
    };
    let before = game.view(viewer);
    let targets: Vec<&UnitView> = before.units.iter().filter(|u| u.place == place).collect();
    if targets.is_empty() {
        return false;
    }
    (0..CHECK_PLAYS).any(|k| {
        let seed = Seed::from_u64(k);
        let with = played_out(game, Some(action), &mut SeededDice::new(seed));
        let without = played_out(game, None, &mut SeededDice::new(seed));
        match (with, without) {
            (Some(with), Some(without)) => {
                touched(&targets, &with.view(viewer)) && !touched(&targets, &without.view(viewer))
            }
            _ => false,
        }
    })
}

/// Whether any of `units` is gone from `after`, or changed there (hits, TE, strength, place).
fn touched(units: &[&UnitView], after: &View) -> bool {
    units.iter().any(|u| match after.unit(&u.id) {
        None => true,
        Some(a) => {
            a.hits != u.hits || a.te != u.te || a.strength != u.strength || a.place != u.place
        }
    })
}

/// What changed between two views of the same position, one phrase per unit, sorted.
/// Whether `word` stands in `text` on its own (not inside a longer id).
fn names_word(text: &str, word: &str) -> bool {
    let inside = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back().is_none_or(|c| !inside(c));
        let after = text[at + word.len()..]
            .chars()
            .next()
            .is_none_or(|c| !inside(c));
        before && after
    })
}

pub fn describe_change(before: &View, after: &View) -> String {
    let mut parts = Vec::new();
    for u in &before.units {
        match after.unit(&u.id) {
            None => parts.push(format!("{} {} eliminated", u.place, u.name)),
            Some(a) => {
                let d = unit_change(u, a);
                if !d.is_empty() {
                    parts.push(format!("{} {}: {}", u.place, u.name, d.join(", ")));
                }
            }
        }
    }
    for (b, a) in before.sides.iter().zip(&after.sides) {
        for (cb, ca) in b.commanders.iter().zip(&a.commanders) {
            if cb.status != ca.status && (ca.status == "killed" || ca.status == "captured") {
                parts.push(format!("commander {} {}", ca.name, ca.status));
            }
        }
    }
    if parts.is_empty() {
        NO_EFFECT.into()
    } else {
        parts.sort();
        parts.join("; ")
    }
}

fn unit_change(b: &UnitView, a: &UnitView) -> Vec<String> {
    let mut d = Vec::new();
    if a.hits != b.hits {
        d.push(format!("hits {}→{}", b.hits, a.hits));
    }
    if a.te != b.te {
        d.push(format!("TE {}→{}", b.te, a.te));
    }
    if a.strength != b.strength {
        if let (Some(x), Some(y)) = (b.strength, a.strength) {
            if y < x {
                d.push(format!("loses {}", x - y));
            } else {
                d.push(format!("strength {x}→{y}"));
            }
        }
    }
    for f in &a.flags {
        if !b.flags.contains(f) && f != "fired" && f != "moved" {
            d.push(f.to_string());
        }
    }
    if a.place != b.place {
        d.push(format!("to {}", a.place));
    }
    d
}
