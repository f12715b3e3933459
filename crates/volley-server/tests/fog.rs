//! Hidden movement over the wire: on hc-night-march, random games are played through the API
//! while every message each seat receives is kept — views, legal lists, logs, reach, odds,
//! refusals, action replies and WebSocket updates. Once a game is over its export (with the
//! revealed seed) is replayed here, and every message is searched for what its seat could
//! not see at that moment: the ids and names of enemy units hidden from it, and any trace of
//! the enemy's decoys. A hidden unit's hex may appear only as a marker.
//!
//! And through the server, the generic promise of `volley-rulesets/tests/fog.rs`: every odds
//! and reach answer a seat received is worked out again on a twin of that position (what the
//! seat could not see dealt out differently) and must be the same, byte for byte. Every
//! other game is played on the shortest sight, and moves next to the enemy's markers are
//! chosen and asked about, where a decoy and a real unit would otherwise answer apart.

mod common;

use common::{next_message, websocket, Api};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reqwest::StatusCode;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};
use volley_core::{ScenarioSource, Session, Side, View};
use volley_server::RateLimit;

const GAMES: u64 = 30;

/// A message one seat received, after `from` actions and up to `to` actions (the same for
/// a snapshot; a range for messages that carry the events of actions `from+1..=to`).
struct Received {
    seat: Side,
    what: String,
    kind: Kind,
    from: u64,
    to: u64,
    text: String,
    /// For odds and reach: what was asked, to work the answer out again on a twin.
    ask: Option<Ask>,
}

/// An odds or reach question a seat asked.
#[derive(Clone)]
enum Ask {
    Odds(String),
    Reach(String),
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    /// A picture of the position now (view, legal, reach, odds, a refusal).
    Snapshot,
    /// New events (an action's reply, a WebSocket update).
    Events,
    /// The whole log so far.
    Log,
}

/// Whether `word` occurs in `text` on its own (not inside a longer id or word).
fn contains_word(text: &str, word: &str) -> bool {
    let bytes = text.as_bytes();
    let inside = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80;
    let mut from = 0;
    while let Some(pos) = text[from..].find(word) {
        let start = from + pos;
        let end = start + word.len();
        let before = start == 0 || !inside(bytes[start - 1]);
        let after = end == bytes.len() || !inside(bytes[end]);
        if before && after {
            return true;
        }
        from = start + 1;
        while !text.is_char_boundary(from) {
            from += 1;
        }
    }
    false
}

struct Step {
    full: View,
    /// What each seat's view holds, red then blue.
    seat_views: [View; 2],
}

/// Replays an exported game and keeps every position.
fn positions(save: &volley_core::SaveFile) -> Vec<Step> {
    let source = ScenarioSource::new("export", save.scenario.clone());
    let ruleset = volley_rulesets::ruleset_of(&source).expect("a known ruleset");
    let seed = save.seed.expect("the export reveals the seed");
    let mut session = Session::new(ruleset, &source, &save.scenario_name, &save.options, seed)
        .expect("the scenario loads");
    let snap = |s: &Session| Step {
        full: s.game.view(None),
        seat_views: Side::BOTH.map(|side| s.game.view(Some(side))),
    };
    let mut out = vec![snap(&session)];
    for record in &save.actions {
        session
            .apply_text(&record.action, &[])
            .expect("the export replays");
        out.push(snap(&session));
    }
    out
}

/// Works every odds and reach answer the seats received out again, on a twin of the position
/// (what the seat could not see dealt out differently): the server's answer must be the
/// twin's, byte for byte. Returns how many were checked, and how many next to a marker.
fn check_twins(received: &[Received], save: &volley_core::SaveFile) -> (usize, usize) {
    let source = ScenarioSource::new("export", save.scenario.clone());
    let ruleset = volley_rulesets::ruleset_of(&source).expect("a known ruleset");
    let seed = save.seed.expect("the export reveals the seed");
    let mut session = Session::new(ruleset, &source, &save.scenario_name, &save.options, seed)
        .expect("the scenario loads");
    let (mut checked, mut near) = (0, 0);
    for (k, record) in std::iter::once(None)
        .chain(save.actions.iter().map(Some))
        .enumerate()
    {
        if let Some(record) = record {
            session
                .apply_text(&record.action, &[])
                .expect("the export replays");
        }
        for m in received
            .iter()
            .filter(|m| m.to == k as u64 && m.ask.is_some())
        {
            let game = session.game.as_ref();
            let twin = game.determinize(
                m.seat,
                &mut volley_core::SeededDice::new(volley_core::Seed::from_u64(k as u64 + 7)),
            );
            let expected = match m.ask.as_ref().expect("asked") {
                Ask::Odds(text) => {
                    let action = twin.parse_action(text).expect("the action reads");
                    serde_json::to_value(
                        volley_core::odds::odds(twin.as_ref(), action, Some(m.seat))
                            .expect("legal"),
                    )
                    .expect("JSON")
                }
                Ask::Reach(unit) => {
                    serde_json::to_value(volley_core::game::reach_for(twin.as_ref(), m.seat, unit))
                        .expect("JSON")
                }
            };
            let got: Value = serde_json::from_str(&m.text).expect("JSON");
            // Odds the walk gave up on are sampled, and the server caps endless rerolls its
            // own way: only exact answers are compared.
            if got["exact"] == json!(false) {
                continue;
            }
            assert_eq!(
                got, expected,
                "{} at action {k}: the server's answer is not the same on a twin of the position",
                m.what
            );
            checked += 1;
            near += usize::from(m.what.contains("marker"));
        }
    }
    (checked, near)
}

fn visible_ids(view: &View) -> BTreeSet<String> {
    view.units.iter().map(|u| u.id.to_string()).collect()
}

fn check_game(received: &[Received], steps: &[Step]) -> usize {
    // Every enemy unit there ever was (decoys included), from the full view at the start.
    let enemies = |seat: Side| -> BTreeMap<String, String> {
        steps[0]
            .full
            .units
            .iter()
            .filter(|u| u.side != seat)
            .map(|u| (u.id.to_string(), u.name.to_string()))
            .collect()
    };
    let all_names: Vec<(String, String)> = steps[0]
        .full
        .units
        .iter()
        .map(|u| (u.id.to_string(), u.name.to_string()))
        .collect();
    let mut checked = 0;
    for m in received {
        let seat = m.seat;
        let enemy = enemies(seat);
        // The enemy ids this seat saw at some position in the window of the message.
        let window = match m.kind {
            Kind::Snapshot => m.to..=m.to,
            Kind::Events => m.from..=m.to,
            Kind::Log => 0..=m.to,
        };
        let mut seen: BTreeSet<String> = BTreeSet::new();
        for k in window {
            seen.extend(visible_ids(&steps[k as usize].seat_views[seat.index()]));
        }
        // A unit spotted and back under its marker within one action was seen all the same:
        // the "spotted" event the seat received names it.
        if m.kind != Kind::Snapshot {
            if let Ok(Value::Array(events)) = serde_json::from_str::<Value>(&m.text)
                .map(|v| v.get("events").cloned().unwrap_or(v))
            {
                for e in events.iter().filter(|e| e["kind"] == "spotted") {
                    for u in e["units"].as_array().into_iter().flatten() {
                        seen.extend(u.as_str().map(str::to_string));
                    }
                }
            }
        }
        let hidden: BTreeSet<&String> = enemy.keys().filter(|id| !seen.contains(*id)).collect();
        for id in &hidden {
            assert!(
                !contains_word(&m.text, id),
                "{seat} received the id of hidden enemy {id} in {} (actions {}..={}):\n{}",
                m.what,
                m.from,
                m.to,
                m.text
            );
        }
        // A name gives a unit away only if no unit the seat may know carries it too.
        for (id, name) in &enemy {
            let shared = all_names
                .iter()
                .any(|(other, n)| n == name && !hidden.contains(other));
            if hidden.contains(id) && !shared {
                assert!(
                    !contains_word(&m.text, name),
                    "{seat} received the name \"{name}\" of hidden enemy {id} in {} (actions {}..={}):\n{}",
                    m.what,
                    m.from,
                    m.to,
                    m.text
                );
            }
        }
        if m.what == "view" || m.what == "websocket view" {
            let step = &steps[m.to as usize];
            let sent: Value = serde_json::from_str(&m.text).expect("JSON");
            let sent = sent.get("view").cloned().unwrap_or(sent);
            let view: View = serde_json::from_value(sent).expect("a view");
            assert_eq!(
                view,
                step.seat_views[seat.index()],
                "the view is the seat's own"
            );
            let markers: Vec<volley_core::Place> = view
                .markers
                .iter()
                .filter(|mk| mk.side != seat)
                .map(|mk| mk.place)
                .collect();
            let unseen: Vec<&volley_core::view::UnitView> = step
                .full
                .units
                .iter()
                .filter(|u| u.side != seat && view.unit(&u.id).is_none())
                .collect();
            assert_eq!(
                markers.len(),
                unseen.len(),
                "one marker for each unseen enemy (decoys included), no more"
            );
            for u in unseen {
                assert!(
                    markers.contains(&u.place),
                    "hidden enemy {} at {} is not under a marker",
                    u.id,
                    u.place
                );
                assert!(
                    !view
                        .units
                        .iter()
                        .any(|v| v.side != seat && v.place == u.place),
                    "a seen enemy unit stands where hidden {} is",
                    u.id
                );
            }
        }
        checked += 1;
    }
    checked
}

fn token_of(seat: Side, red: &str, blue: &str) -> String {
    match seat {
        Side::Red => red.to_string(),
        Side::Blue => blue.to_string(),
    }
}

/// Asks the odds of a legal action, kept with the question to work out again on a twin.
async fn ask_odds(
    api: &Api,
    id: &str,
    token: &str,
    pick: &str,
    what: &str,
    seat: Side,
    seq: u64,
) -> Received {
    let r = api
        .post(&format!("/api/games/{id}/odds"), Some(token), &json!(pick))
        .await;
    assert_eq!(r.status, StatusCode::OK, "odds of {pick}: {}", r.text);
    Received {
        seat,
        what: what.to_string(),
        kind: Kind::Snapshot,
        from: seq,
        to: seq,
        text: r.text,
        ask: Some(Ask::Odds(pick.to_string())),
    }
}

/// Plays one random game and returns what each seat received, with the export.
async fn play(api: &Api, seed: u64) -> (Vec<Received>, volley_core::SaveFile) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // Every other game on the shortest sight, so that units come next to the enemy's markers.
    let options = if seed.is_multiple_of(2) {
        json!({})
    } else {
        json!({"sight": 1})
    };
    let r = api
        .post(
            "/api/games",
            None,
            &json!({"scenario": "hc-night-march", "options": options, "red": "human", "blue": "human"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = r.body["id"].as_str().expect("an id").to_string();
    let red = r.body["seats"]["red"].as_str().map(str::to_string);
    let blue = r.body["seats"]["blue"].as_str().map(str::to_string);
    let (red, blue) = (red.expect("red"), blue.expect("blue"));
    let sockets = Side::BOTH.map(|seat| {
        let (base, id, token) = (api.base.clone(), id.clone(), token_of(seat, &red, &blue));
        tokio::spawn(async move {
            let mut socket = websocket(&base, &id, &token).await;
            let mut got = Vec::new();
            let mut seq = 0;
            loop {
                let msg = next_message(&mut socket).await;
                let to = msg["seq"].as_u64().expect("seq");
                let over = msg["view"]["outcome"].is_object();
                got.push(Received {
                    seat,
                    what: "websocket view".into(),
                    kind: Kind::Snapshot,
                    from: to,
                    to,
                    text: msg["view"].to_string(),
                    ask: None,
                });
                got.push(Received {
                    seat,
                    what: "websocket events".into(),
                    kind: Kind::Events,
                    from: seq,
                    to,
                    text: msg["events"].to_string(),
                    ask: None,
                });
                seq = to;
                if over {
                    return got;
                }
            }
        })
    });
    let mut received = Vec::new();
    let mut seq = 0u64;
    let snapshot = |seat, what: &str, seq, text: String| Received {
        seat,
        what: what.to_string(),
        kind: Kind::Snapshot,
        from: seq,
        to: seq,
        text,
        ask: None,
    };
    loop {
        let mut mover = None;
        for seat in Side::BOTH {
            let token = token_of(seat, &red, &blue);
            let view = api
                .get(&format!("/api/games/{id}/view"), Some(&token))
                .await;
            assert_eq!(view.status, StatusCode::OK);
            assert_eq!(view.body["seq"], seq);
            if view.body["view"]["to_decide"] == json!(seat) {
                mover = Some(seat);
            }
            received.push(snapshot(seat, "view", seq, view.text));
            let legal = api
                .get(&format!("/api/games/{id}/legal"), Some(&token))
                .await;
            received.push(snapshot(seat, "legal", seq, legal.text));
            if rng.random_bool(0.2) {
                let log = api.get(&format!("/api/games/{id}/log"), Some(&token)).await;
                received.push(Received {
                    kind: Kind::Log,
                    ..snapshot(seat, "log", seq, log.text)
                });
            }
        }
        let Some(seat) = mover else { break };
        let token = token_of(seat, &red, &blue);
        let legal = api.legal(&id, &token).await;
        // Ask what a curious client would: reach for a unit, odds of a shot, a move that
        // goes somewhere it may not.
        if let Some(unit) = legal
            .iter()
            .filter_map(|a| a.strip_prefix("move ").and_then(|r| r.split(' ').next()))
            .next()
        {
            let r = api
                .get(&format!("/api/games/{id}/reach?unit={unit}"), Some(&token))
                .await;
            received.push(Received {
                ask: Some(Ask::Reach(unit.to_string())),
                ..snapshot(seat, "reach", seq, r.text)
            });
        }
        let shots: Vec<&String> = legal.iter().filter(|a| !a.starts_with("move")).collect();
        if !shots.is_empty() && rng.random_bool(0.3) {
            let pick = shots[rng.random_range(0..shots.len())];
            received.push(ask_odds(api, &id, &token, pick, "odds", seat, seq).await);
        }
        // The odds of a move next to one of the enemy's markers: where a decoy and a real
        // unit would answer differently if the server looked at the true position.
        let view = api.view(&id, &token).await;
        let markers: Vec<volley_core::Hex> = view["view"]["markers"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|m| m["side"] != json!(seat))
            .filter_map(|m| {
                m["place"]["hex"]
                    .as_str()
                    .and_then(volley_core::geometry::parse_label)
            })
            .collect();
        let near = legal.iter().find(|a| {
            a.starts_with("move ")
                && a.rsplit(' ')
                    .next()
                    .and_then(volley_core::geometry::parse_label)
                    .is_some_and(|to| {
                        markers
                            .iter()
                            .any(|&m| volley_core::geometry::distance(m, to) <= 1)
                    })
        });
        if let Some(pick) = near {
            let what = "odds next to a marker";
            received.push(ask_odds(api, &id, &token, pick, what, seat, seq).await);
        }
        if rng.random_bool(0.2) {
            // A move to a random hex of the map, legal or not.
            let hex = format!(
                "{:02}{:02}",
                rng.random_range(1..=24),
                rng.random_range(1..=18)
            );
            let unit = legal
                .iter()
                .find_map(|a| a.strip_prefix("move ").and_then(|r| r.split(' ').next()))
                .unwrap_or(if seat == Side::Red { "r1" } else { "b1" });
            let r = api
                .post(
                    &format!("/api/games/{id}/odds"),
                    Some(&token),
                    &json!(format!("move {unit} {hex}")),
                )
                .await;
            received.push(snapshot(seat, "odds of a guessed move", seq, r.text));
        }
        // Hurry the game along: end the phase often, otherwise anything legal.
        // Half the time, close with the enemy's markers (so moves next to them come up).
        let closest = legal
            .iter()
            .filter(|a| a.starts_with("move "))
            .filter_map(|a| {
                let to = a
                    .rsplit(' ')
                    .next()
                    .and_then(volley_core::geometry::parse_label)?;
                let d = markers
                    .iter()
                    .map(|&m| volley_core::geometry::distance(m, to))
                    .min()?;
                Some((d, a))
            })
            .min_by_key(|(d, _)| *d)
            .map(|(_, a)| a.clone());
        let pick = match (legal.iter().find(|a| a.starts_with("end")), closest) {
            (_, Some(close)) if rng.random_bool(0.5) => close,
            (Some(end), _) if rng.random_bool(0.35) => end.clone(),
            _ => legal[rng.random_range(0..legal.len())].clone(),
        };
        let r = api.act(&id, &token, &pick).await;
        assert_eq!(r.status, StatusCode::OK, "{pick}: {}", r.text);
        seq += 1;
        assert_eq!(r.body["seq"], seq);
        received.push(Received {
            seat,
            what: format!("the reply to \"{pick}\""),
            kind: Kind::Events,
            from: seq - 1,
            to: seq,
            text: r.text,
            ask: None,
        });
    }
    for socket in sockets {
        received.extend(socket.await.expect("the listener finishes"));
    }
    let token = red.clone();
    let r = api
        .get(&format!("/api/games/{id}/export"), Some(&token))
        .await;
    assert_eq!(r.status, StatusCode::OK);
    let save = serde_json::from_str(&r.text).expect("a saved game");
    (received, save)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seats_never_receive_what_their_side_cannot_see() {
    let t = common::start_with(RateLimit {
        per_second: 1e6,
        burst: 1e6,
    })
    .await;
    let started = Instant::now();
    let games: Vec<_> = (0..GAMES)
        .map(|seed| {
            let api = t.api.clone();
            tokio::spawn(async move { play(&api, seed).await })
        })
        .collect();
    let mut messages = 0;
    let mut actions = 0;
    let mut hidden_moments = 0;
    let (mut asked, mut asked_near) = (0, 0);
    for game in games {
        let (received, save) = game.await.expect("the game is played");
        let (steps, received, twins) = tokio::task::spawn_blocking(move || {
            let twins = check_twins(&received, &save);
            (positions(&save), received, twins)
        })
        .await
        .expect("replayed");
        asked += twins.0;
        asked_near += twins.1;
        actions += steps.len() - 1;
        hidden_moments += steps
            .iter()
            .filter(|s| s.seat_views.iter().any(|v| !v.markers.is_empty()))
            .count();
        messages += check_game(&received, &steps);
    }
    // The test means something only if there was fog to leak.
    assert!(
        hidden_moments * 2 > actions,
        "hidden units in only {hidden_moments} of {actions} positions"
    );
    assert!(
        asked_near > 0,
        "no odds of a move next to a marker were asked"
    );
    eprintln!(
        "{GAMES} games, {actions} actions, {messages} messages searched, {asked} odds and reach answers ({asked_near} next to a marker) the same on a twin, in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    assert!(started.elapsed() < Duration::from_secs(120));
}

#[test]
fn words_are_found_only_whole() {
    assert!(contains_word("fire b1 at r2", "b1"));
    assert!(!contains_word("fire b10 at r2", "b1"));
    assert!(!contains_word("rb1", "b1"));
    assert!(contains_word("\"b1\"", "b1"));
    assert!(contains_word("the Jägers rout", "Jägers"));
    assert!(!contains_word("Jägersx", "Jägers"));
}
