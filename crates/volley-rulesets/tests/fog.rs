//! A side learns nothing it has not seen (issue 16): the generic fog test every ruleset with
//! hidden information passes. At positions of random games of every bundled scenario, the
//! true position is set beside "twins" — the same game with what the deciding side cannot
//! see dealt out differently (`Game::determinize` with other dice: hidden units swapped
//! among their markers, decoys among real units). The side cannot tell them apart, so
//! everything it can obtain must be byte for byte the same on each: its view, its legal
//! actions, the reach of each of its units, the odds of its actions (those that go next to a
//! marker among them), the refusals of moves into the markers' hexes, the events it is told
//! when it takes some of its actions (where its view after is the same), and the whole position
//! its bots' search deals out for a given die (so the search cannot peek either). Positions
//! with enemy units the side cannot see and no markers count too. Games are played
//! by a chooser that closes with the enemy half the time, and every scenario is also played
//! with each numeric option at its least (the shortest sight brings markers close).
//!
//! Before odds and reach were worked out on the position as the side knows it
//! (`volley_core::game::as_known_to`), this test found 19 of 270 positions answering
//! differently: a move next to a marker was "halted in a zone of control" when the marker
//! was a real unit and a plain move when it was a decoy.

use volley_core::game::{as_known_to, reach_for};
use volley_core::{odds, Game, Options, Seed, SeededDice, Side};
use volley_rulesets::{bundled, new_session, scenario_source};

const SEEDS: u64 = 3;
const MAX_ACTIONS: usize = 400;
/// Look at every this-many-th position of a game.
const EVERY: usize = 9;
const TWINS: u64 = 2;
/// Odds of this many of the side's actions at each position looked at.
const ODDS: usize = 2;
/// How an answer "this action taken: the view after, and the events told" begins, and where
/// its events begin.
const AFTER: &str = "after ";
const TOLD: &str = " || told ";

/// Everything `side` can obtain from `game`, as text.
fn answers(game: &dyn Game, side: Side, pick: &[usize]) -> Vec<String> {
    let view = game.view(Some(side));
    let mut out = vec![format!("view {}", serde_json::to_string(&view).unwrap())];
    let mut legal: Vec<String> = game
        .legal_actions()
        .iter()
        .map(|&a| game.notation(a))
        .collect();
    legal.sort();
    out.push(format!("legal {legal:?}"));
    for u in view.units.iter().filter(|u| u.side == side) {
        out.push(format!("reach {} {:?}", u.id, reach_for(game, side, &u.id)));
    }
    let actions = game.legal_actions();
    for &k in pick {
        if actions.is_empty() {
            break;
        }
        // The same k-th action of the sorted list on every twin.
        let text = &legal[k % legal.len()];
        let action = game.parse_action(text).expect("a listed action parses");
        let o = odds::odds(game, action, Some(side)).map(|o| serde_json::to_string(&o).unwrap());
        out.push(format!("odds {text} {o:?}"));
    }
    // The odds of the actions that go next to (or onto) a marker: where a hidden unit and a
    // decoy would answer differently if the odds looked at the true position.
    let near: Vec<&String> = legal
        .iter()
        .filter(|text| {
            let a = game.parse_action(text).expect("a listed action parses");
            let to = game.describe(a).place.and_then(|p| p.hex());
            to.is_some_and(|to| {
                view.markers
                    .iter()
                    .filter_map(|m| m.place.hex())
                    .any(|m| volley_core::geometry::distance(m, to) <= 1)
            })
        })
        .take(4)
        .collect();

    for text in &near {
        let action = game.parse_action(text).expect("a listed action parses");
        let o = odds::odds(game, action, Some(side)).map(|o| serde_json::to_string(&o).unwrap());
        out.push(format!("odds {text} {o:?}"));
    }
    // Those actions taken, on the same dice: what the side then sees, and the events it is
    // told. Where the view after differs, the action found something out (a marker was a
    // decoy, a hidden unit was spotted); where it does not, the events must not differ either.
    for text in pick
        .iter()
        .filter(|_| !legal.is_empty())
        .map(|&k| &legal[k % legal.len()])
        .chain(near.iter().copied())
    {
        let action = game.parse_action(text).expect("a listed action parses");
        let mut copy = game.clone_game();
        let events = copy
            .apply(action, &mut SeededDice::new(Seed::from_u64(5)))
            .expect("a legal action applies");
        let told: Vec<String> = events
            .iter()
            .filter(|e| e.seen.by(side))
            .map(|e| format!("{} [{}] {} {:?}", e.kind, e.rule, e.text, e.units))
            .collect();
        out.push(format!(
            "{AFTER}{text}: {}{TOLD}{told:?}",
            serde_json::to_string(&copy.view(Some(side))).unwrap()
        ));
    }
    // A move of each of the side's units onto each marker: refused or not, in the same words.
    for m in &view.markers {
        let Some(hex) = m.place.hex() else { continue };
        for u in view.units.iter().filter(|u| u.side == side).take(2) {
            let text = format!("move {} {}", u.id, volley_core::geometry::label(hex));
            let said = match game.parse_action(&text) {
                Err(e) => format!("unreadable: {e}"),
                Ok(a) => {
                    let mut copy = game.clone_game();
                    match copy.apply(a, &mut SeededDice::new(Seed::from_u64(1))) {
                        Err(e) => format!("refused: {e}"),
                        Ok(_) => format!(
                            "taken: {}",
                            serde_json::to_string(&copy.view(Some(side))).unwrap()
                        ),
                    }
                }
            };
            out.push(format!("{text}: {said}"));
        }
    }
    // The worlds the side's bots search (the whole position, all seen): dealt with the same
    // dice, they must not depend on where the unseen enemies truly stand.
    let world = game.determinize(side, &mut SeededDice::new(Seed::from_u64(77)));
    out.push(format!(
        "search {}",
        serde_json::to_string(&world.view(None)).unwrap()
    ));
    out
}

#[test]
fn what_a_side_cannot_see_changes_nothing_it_can_obtain() {
    let mut looked = 0usize;
    let mut by_variant: std::collections::BTreeMap<String, usize> = Default::default();
    let mut failures = Vec::new();
    for (b, options) in bundled()
        .iter()
        .flat_map(|b| variants(b.name).into_iter().map(move |o| (b, o)))
    {
        let (name, source) = scenario_source(b.name).expect("bundled");
        for seed in 0..SEEDS {
            // (An option at its least may not fit the scenario: a hex too small for its
            // troops, say. Such a variant is passed over.)
            let Ok(mut session) = new_session(&name, &source, &options, Seed::from_u64(seed))
            else {
                continue;
            };
            let mut mix = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
            let mut n = 0;
            while let Some(side) = session.game.to_decide() {
                if n >= MAX_ACTIONS {
                    break;
                }
                let game = session.game.as_ref();
                if n % EVERY == 0 && unseen(game, side) {
                    looked += 1;
                    *by_variant.entry(format!("{name} {options:?}")).or_insert(0) += 1;
                    let pick: Vec<usize> = (0..ODDS)
                        .map(|i| (seed as usize + n + i * 7) * 31)
                        .collect();
                    let truth = answers(game, side, &pick);
                    // The copy every answer is worked out on is itself one of the twins.
                    let known = as_known_to(game, side);
                    for k in 0..=TWINS {
                        let twin = if k == 0 {
                            known.clone_game()
                        } else {
                            game.determinize(side, &mut SeededDice::new(Seed::from_u64(1000 + k)))
                        };
                        let theirs = answers(twin.as_ref(), side, &pick);
                        if let Some((a, b)) = truth
                            .iter()
                            .zip(&theirs)
                            .find(|(a, b)| a != b && !found_out(a, b))
                        {
                            failures.push(format!(
                                "{name} {options:?} seed {seed} after {n} actions, {side} deciding, twin {k}:\n  true: {}\n  twin: {}",
                                cut(a, b),
                                cut(b, a)
                            ));
                        }
                    }
                }
                let action = closing(session.game.as_ref(), side, &mut mix);
                session.apply(action, &[]).expect("a legal action applies");
                n += 1;
            }
        }
    }
    eprintln!("{looked} positions with hidden information looked at: {by_variant:?}");
    // Every variant that turns a hidden set-up on must have been looked at.
    for (b, options) in bundled()
        .iter()
        .flat_map(|b| variants(b.name).into_iter().map(move |o| (b, o)))
    {
        if options
            .iter()
            .any(|(k, v)| k.starts_with("hidden") && v == "on")
        {
            let key = format!(
                "{} {options:?}",
                scenario_source(b.name).expect("bundled").0
            );
            assert!(
                by_variant.contains_key(&key),
                "{key}: no position with markers"
            );
        }
    }
    assert!(looked > 0, "no position with hidden information was found");
    assert!(
        failures.is_empty(),
        "{} of {looked} positions answered differently:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Two answers "after an action" whose views differ: the action found out something the twins
/// deal differently (a marker's truth, a spotted unit), so their events may differ too. With the
/// same view after, the events must be the same, or they tell what the view does not show.
fn found_out(a: &str, b: &str) -> bool {
    fn view(s: &str) -> Option<&str> {
        s.strip_prefix(AFTER).and_then(|s| s.split(TOLD).next())
    }
    matches!((view(a), view(b)), (Some(x), Some(y)) if x != y)
}

/// Whether `side` has something not to see: enemy markers, or enemy units it cannot see
/// (hidden without markers, as Mechanized's ambushers are).
fn unseen(game: &dyn Game, side: Side) -> bool {
    let view = game.view(Some(side));
    !view.markers.is_empty() || game.view(None).units.len() > view.units.len()
}

/// Plays so that units come next to the enemy's markers: the action that ends nearest an
/// enemy marker (or unit) half the time, else any.
fn closing(game: &dyn Game, side: Side, mix: &mut u64) -> volley_core::Action {
    *mix ^= *mix << 13;
    *mix ^= *mix >> 7;
    *mix ^= *mix << 17;
    let legal = game.legal_actions();
    if (*mix).is_multiple_of(2) {
        return legal[(*mix >> 8) as usize % legal.len()];
    }
    let view = game.view(Some(side));
    let enemy: Vec<_> = view
        .markers
        .iter()
        .filter(|m| m.side != side)
        .filter_map(|m| m.place.hex())
        .chain(
            view.units
                .iter()
                .filter(|u| u.side != side)
                .filter_map(|u| u.place.hex()),
        )
        .collect();
    let nearness = |a: &volley_core::Action| {
        game.describe(*a)
            .place
            .and_then(|p| p.hex())
            .and_then(|to| {
                enemy
                    .iter()
                    .map(|&e| volley_core::geometry::distance(e, to))
                    .min()
            })
            .unwrap_or(u32::MAX)
    };
    *legal
        .iter()
        .min_by_key(|a| nearness(a))
        .expect("a legal action")
}

/// The scenario as it comes, and with each numeric option at the least its range allows
/// (the shortest sight, say: the enemy's markers then come close).
fn variants(name: &str) -> Vec<Options> {
    let (_, source) = scenario_source(name).expect("bundled");
    let ruleset = volley_rulesets::ruleset_of(&source).expect("a ruleset");
    let mut out = vec![Options::new()];
    for spec in ruleset.options() {
        if let Some((least, _)) = spec.range {
            out.push([(spec.key.to_string(), least.to_string())].into());
        }
        // A hidden set-up an option turns on (Black Powder's, for its scouting cavalry).
        if spec.key.starts_with("hidden") && spec.default == "off" && spec.choices.contains(&"on") {
            out.push([(spec.key.to_string(), "on".to_string())].into());
        }
    }
    out
}

/// The answer's first 100 characters, and 300 around where it first differs from `other`.
fn cut(s: &str, other: &str) -> String {
    let at = s
        .chars()
        .zip(other.chars())
        .position(|(a, b)| a != b)
        .unwrap_or(0);
    let head: String = s.chars().take(100).collect();
    let here: String = s.chars().skip(at.saturating_sub(150)).take(300).collect();
    format!("{head} … at {at}: {here}")
}

#[test]
fn a_sides_events_are_numbered_as_it_counts_them() {
    // Numbered over the whole log, a side's events would show gaps where the enemy did what
    // it cannot see (issue 16): each side counts only its own, and every part of the log
    // it is sent later carries on the same count.
    let (name, source) = scenario_source("hc-night-march").expect("bundled");
    let mut session =
        new_session(&name, &source, &Options::new(), Seed::from_u64(3)).expect("starts");
    let mut mix = 11u64;
    let mut hidden_somewhere = false;
    for _ in 0..300 {
        let Some(side) = session.game.to_decide() else {
            break;
        };
        let action = closing(session.game.as_ref(), side, &mut mix);
        session.apply(action, &[]).expect("applies");
    }
    for side in Side::BOTH {
        let all = session.events_for(side, 0);
        let seen: Vec<_> = session
            .log
            .iter()
            .filter(|e| e.event.seen.by(side))
            .collect();
        hidden_somewhere |= seen.len() < session.log.len();
        assert_eq!(all.len(), seen.len());
        for (k, (mine, real)) in all.iter().zip(&seen).enumerate() {
            assert_eq!(mine.seq, k as u64 + 1, "{side}'s events count 1, 2, 3…");
            assert_eq!(mine.event, real.event);
        }
        // A later part carries on the count.
        let half = session.log.len() / 2;
        let tail = session.events_for(side, half);
        assert_eq!(
            tail.first().map(|e| e.seq),
            all.get(all.len() - tail.len()).map(|e| e.seq)
        );
    }
    assert!(hidden_somewhere, "the game hid some events from a side");
}
