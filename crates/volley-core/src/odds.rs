//! "What are my odds?": the distribution of what an action does, without doing it. Exact by
//! walking every die sequence when there are few; otherwise by sampling.

use crate::dice::{DiceEnumerator, Seed, SeededDice};
use crate::game::{Action, Game, Side};
use crate::view::{UnitView, View};
use serde::Serialize;
use std::collections::BTreeMap;

/// Leaves walked before giving up on exactness and sampling instead.
pub const EXACT_LIMIT: usize = 20_000;
/// Samples taken when the odds are not exact.
pub const SAMPLES: usize = 20_000;

#[derive(Clone, Debug, Serialize)]
pub struct OddsLine {
    /// What changed, in words ("0405 2nd Line: hits 1→2"); "no effect" when nothing did.
    pub outcome: String,
    pub probability: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct Odds {
    pub action: String,
    pub exact: bool,
    /// Die sequences walked (exact) or games sampled.
    pub trials: usize,
    pub outcomes: Vec<OddsLine>,
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
    let before = game.view(viewer);
    let mut tally: BTreeMap<String, f64> = BTreeMap::new();
    let mut e = DiceEnumerator::new();
    let mut leaves = 0usize;
    let exact = loop {
        e.begin();
        let mut g = game.clone_game();
        g.preview(action, &mut e)?;
        *tally
            .entry(describe_change(&before, &g.view(viewer)))
            .or_default() += e.probability();
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
            g.preview(action, &mut dice)?;
            *tally
                .entry(describe_change(&before, &g.view(viewer)))
                .or_default() += 1.0 / SAMPLES as f64;
        }
        SAMPLES
    };
    let mut outcomes: Vec<OddsLine> = tally
        .into_iter()
        .map(|(outcome, probability)| OddsLine {
            outcome,
            probability,
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
    })
}

/// What changed between two views of the same position, one phrase per unit, sorted.
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
        "no effect".into()
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
