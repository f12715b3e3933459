//! The HTTP API and the WebSocket over real loopback connections: every endpoint's answer,
//! the seat checks, bad requests that must get 4xx (never 500), bots that move by
//! themselves, and a restart that finds every game where it was.

mod common;

use common::{next_message, websocket, Api};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use volley_server::RateLimit;

/// The side to decide in a view reply, if any.
fn to_decide(view: &Value) -> Option<&str> {
    view["view"]["to_decide"].as_str()
}

/// The token of the seat whose decision it is, among a hotseat game's two.
async fn deciding<'a>(api: &Api, id: &str, red: &'a str, blue: &'a str) -> Option<&'a str> {
    match to_decide(&api.view(id, red).await) {
        Some("red") => Some(red),
        Some("blue") => Some(blue),
        _ => None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scenarios_list_names_options_and_a_map_preview() {
    let t = common::start().await;
    let r = t.api.get("/api/scenarios", None).await;
    assert_eq!(r.status, StatusCode::OK);
    let list = r.body.as_array().expect("an array");
    let night = list
        .iter()
        .find(|s| s["name"] == "hc-night-march")
        .expect("hc-night-march is listed");
    assert_eq!(night["ruleset"], "hex-command");
    assert_eq!(night["title"], "Night March");
    assert!(!night["description"].as_str().unwrap_or("").is_empty());
    let hidden = night["options"]
        .as_array()
        .expect("options")
        .iter()
        .find(|o| o["key"] == "hidden")
        .expect("the hidden option");
    // The scenario's own setting is the default the lobby shows.
    assert_eq!(hidden["default"], "yes");
    assert_eq!(hidden["choices"], json!(["no", "yes"]));
    assert!(hidden["help"].as_str().is_some());
    assert_eq!(night["map"]["grid"], "hex");
    assert!(night["map"]["rows"]
        .as_array()
        .is_some_and(|r| !r.is_empty()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hotseat_game_through_every_endpoint() {
    let t = common::start().await;
    let api = &t.api;
    let (id, red, blue) = api.create("hc-first-clash", "human", "human").await;
    let (red, blue) = (red.expect("red token"), blue.expect("blue token"));
    assert_ne!(red, blue);

    let v = api.view(&id, &red).await;
    assert_eq!(v["seq"], 0);
    assert_eq!(v["seat"], "red");
    assert_eq!(v["seed"], Value::Null);
    let commitment = v["commitment"].as_str().expect("a commitment").to_string();
    assert_eq!(commitment.len(), 64);
    assert_eq!(v["view"]["viewer"], "red");
    assert_eq!(api.view(&id, &blue).await["seat"], "blue");

    let mover = deciding(api, &id, &red, &blue)
        .await
        .expect("someone decides");
    let waiter = if mover == red { &blue } else { &red };
    let legal = api.legal(&id, mover).await;
    assert!(!legal.is_empty());
    assert!(api.legal(&id, waiter).await.is_empty());

    // Reach: the mover's unit that has a move among the legal actions.
    let unit = legal
        .iter()
        .find_map(|a| a.strip_prefix("move ").and_then(|r| r.split(' ').next()))
        .expect("a move among the legal actions");
    let r = api
        .get(&format!("/api/games/{id}/reach?unit={unit}"), Some(mover))
        .await;
    assert_eq!(r.status, StatusCode::OK);
    let hexes = r.body.as_array().expect("an array");
    assert!(!hexes.is_empty(), "{unit} can move somewhere");
    assert!(hexes[0]["hex"].is_string() && hexes[0]["cost"].is_u64());
    let r = api
        .get(&format!("/api/games/{id}/reach?unit={unit}"), Some(waiter))
        .await;
    assert_eq!(
        r.body,
        json!([]),
        "not the waiting seat's unit nor decision"
    );

    // Odds, as an object and as a bare string.
    let r = api
        .post(
            &format!("/api/games/{id}/odds"),
            Some(mover),
            &json!({ "action": legal[0] }),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let total: f64 = r.body["outcomes"]
        .as_array()
        .expect("outcomes")
        .iter()
        .map(|o| o["probability"].as_f64().expect("a probability"))
        .sum();
    assert!(
        (total - 1.0).abs() < 1e-6,
        "probabilities add up to {total}"
    );
    let r = api
        .post(
            &format!("/api/games/{id}/odds"),
            Some(mover),
            &json!(legal[0]),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);

    // Both seats listen; an action reaches both.
    let mut ws_red = websocket(&api.base, &id, &red).await;
    let mut ws_blue = websocket(&api.base, &id, &blue).await;
    for ws in [&mut ws_red, &mut ws_blue] {
        let first = next_message(ws).await;
        assert_eq!(first["type"], "update");
        assert_eq!(first["seq"], 0);
        assert_eq!(first["events"], json!([]));
        // The dice commitment rides with every update, the seed only once the game is over.
        assert_eq!(first["commitment"].as_str().map(str::len), Some(64));
        assert_eq!(first["seed"], json!(null));
    }
    let r = api.act(&id, mover, &legal[0]).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["seq"], 1);
    assert!(r.body["events"].is_array());
    for ws in [&mut ws_red, &mut ws_blue] {
        let update = next_message(ws).await;
        assert_eq!(update["type"], "update");
        assert_eq!(update["seq"], 1);
        assert!(update["view"]["units"].is_array());
    }
    let r = api.get(&format!("/api/games/{id}/log"), Some(&red)).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(!r.body["events"].as_array().expect("events").is_empty());

    // Not over: no export, no replay, no seed.
    let r = api
        .get(&format!("/api/games/{id}/export"), Some(&red))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    let r = api
        .get(&format!("/api/games/{id}/replay?step=0"), Some(&red))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT);

    // Play on to the end, always the first legal action (a deterministic short path is not
    // needed: the turn limit ends every game).
    let mut seq = 1;
    let started = Instant::now();
    while let Some(token) = deciding(api, &id, &red, &blue).await {
        let legal = api.legal(&id, token).await;
        let pick = legal
            .iter()
            .find(|a| a.starts_with("end"))
            .unwrap_or(&legal[0]);
        let r = api.act(&id, token, pick).await;
        assert_eq!(r.status, StatusCode::OK, "{pick}: {}", r.text);
        seq += 1;
        assert_eq!(r.body["seq"], seq);
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the game ends"
        );
    }
    let v = api.view(&id, &blue).await;
    assert!(v["view"]["outcome"].is_object());
    let seed = v["seed"].as_str().expect("the seed is revealed at the end");
    let bytes: Vec<u8> = (0..32)
        .map(|i| u8::from_str_radix(&seed[2 * i..2 * i + 2], 16).expect("hex"))
        .collect();
    let seed = volley_core::Seed(bytes.try_into().expect("32 bytes"));

    let r = api
        .get(&format!("/api/games/{id}/export"), Some(&red))
        .await;
    assert_eq!(r.status, StatusCode::OK);
    let save: volley_core::SaveFile = serde_json::from_str(&r.text).expect("a saved game");
    assert_eq!(save.actions.len() as u64, seq);
    assert_eq!(save.seed, Some(seed));
    // The commitment shown from the start is the commit–reveal's: the revealed secret, the
    // scenario, the options and the players' entropy make the seed the dice were rolled with.
    let fair = save
        .fairness
        .as_ref()
        .expect("an online game carries its commit-reveal");
    assert_eq!(fair.commitment, commitment);
    assert_eq!(fair.check(&save.scenario, &save.options, &seed), Ok(()));
    let source = volley_core::ScenarioSource::new("export", save.scenario.clone());
    let ruleset = volley_rulesets::ruleset_of(&source).expect("a known ruleset");
    volley_core::Session::from_save(ruleset, &save, "export").expect("the export replays");

    let r = api
        .get(&format!("/api/games/{id}/replay?step=0"), Some(&red))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["step"], 0);
    assert_eq!(r.body["steps"], seq);
    assert_eq!(r.body["view"]["viewer"], Value::Null);
    let r = api
        .get(&format!("/api/games/{id}/replay?step={seq}"), Some(&red))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert!(r.body["view"]["outcome"].is_object());
    // The log up to the last step is the whole log; turns say where each begins.
    let all = api
        .get(&format!("/api/games/{id}/log"), Some(&red))
        .await
        .body["events"]
        .clone();
    assert_eq!(
        r.body["events"].as_array().map(Vec::len),
        all.as_array().map(Vec::len)
    );
    let fresh = r.body["fresh"].as_u64().expect("fresh") as usize;
    assert!(fresh < r.body["events"].as_array().expect("events").len());
    let turns: Vec<u64> = serde_json::from_value(r.body["turns"].clone()).expect("turns");
    assert_eq!(turns[0], 0);
    assert!(turns.windows(2).all(|w| w[0] < w[1]) && *turns.last().expect("a turn") <= seq);
    let r = api
        .get(
            &format!("/api/games/{id}/replay?step={}", seq + 1),
            Some(&red),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);

    // Over: nobody may act.
    let r = api.act(&id, &red, "end").await;
    assert_eq!(r.status, StatusCode::CONFLICT);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seats_are_checked_and_illegal_actions_change_nothing() {
    let t = common::start().await;
    let api = &t.api;
    let (id, red, blue) = api.create("hc-crossroads", "human", "human").await;
    let (red, blue) = (red.expect("red"), blue.expect("blue"));
    let mover = deciding(api, &id, &red, &blue)
        .await
        .expect("someone decides");
    let waiter = if mover == red { &blue } else { &red };
    let legal = api.legal(&id, mover).await;

    for path in ["view", "legal", "log", "export", "replay", "reach?unit=r1"] {
        let r = api.get(&format!("/api/games/{id}/{path}"), None).await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{path} without a token");
        assert!(r.body["error"].is_string());
        let r = api
            .get(&format!("/api/games/{id}/{path}"), Some("not-a-token"))
            .await;
        assert_eq!(
            r.status,
            StatusCode::UNAUTHORIZED,
            "{path} with a bad token"
        );
        let r = api
            .get(&format!("/api/games/nosuchgame/{path}"), Some(mover))
            .await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{path} of an unknown game");
    }
    let r = api
        .post(&format!("/api/games/{id}/actions"), None, &json!(legal[0]))
        .await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    let r = api.act(&id, waiter, &legal[0]).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.text);
    let r = api
        .post(
            &format!("/api/games/{id}/odds"),
            Some(waiter),
            &json!(legal[0]),
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    let r = api
        .get(&format!("/api/games/{id}/ws?token=nope"), None)
        .await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);

    let before = (
        api.view(&id, &red).await,
        api.view(&id, &blue).await,
        api.get(&format!("/api/games/{id}/log"), Some(&red))
            .await
            .body,
    );
    for bad in ["move zz9 0101", "fly to the moon", "", "move"] {
        let r = api.act(&id, mover, bad).await;
        assert_eq!(r.status, StatusCode::CONFLICT, "\"{bad}\": {}", r.text);
        assert!(!r.body["error"].as_str().unwrap_or("").is_empty());
        let r = api
            .post(&format!("/api/games/{id}/odds"), Some(mover), &json!(bad))
            .await;
        assert_eq!(r.status, StatusCode::CONFLICT, "odds of \"{bad}\"");
    }
    let after = (
        api.view(&id, &red).await,
        api.view(&id, &blue).await,
        api.get(&format!("/api/games/{id}/log"), Some(&red))
            .await
            .body,
    );
    assert_eq!(before, after, "refused actions changed nothing");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_get_4xx_and_the_server_carries_on() {
    let t = common::start().await;
    let api = &t.api;
    let (id, red, _) = api.create("hc-first-clash", "human", "random").await;
    let red = red.expect("red");
    let actions = format!("/api/games/{id}/actions");

    let bad_bodies: [&[u8]; 5] = [b"{", b"not json", b"{\"action\": 7}", b"[1,2]", b"\xff\xfe"];
    for body in bad_bodies {
        let r = api
            .raw(Method::POST, &actions, Some(&red), Some(body.to_vec()))
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{body:?}: {}", r.text);
        assert!(r.body["error"].is_string());
    }
    let huge = vec![b' '; 100 * 1024];
    let r = api
        .raw(Method::POST, &actions, Some(&red), Some(huge))
        .await;
    assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE);
    let r = api.raw(Method::DELETE, &actions, Some(&red), None).await;
    assert_eq!(r.status, StatusCode::METHOD_NOT_ALLOWED);
    let r = api.get("/api/games", None).await;
    assert_eq!(r.status, StatusCode::METHOD_NOT_ALLOWED);
    let r = api.get("/api/nothing/here", None).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    let r = api.get("/no-such-file.js", None).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    let r = api.get(&format!("/api/games/{id}/reach"), Some(&red)).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "reach needs ?unit=");
    let r = api
        .get(&format!("/api/games/{id}/ws?token={red}"), None)
        .await;
    assert!(r.status.is_client_error(), "a plain GET of the WebSocket");

    for (body, what) in [
        (
            json!({"scenario": "nowhere", "red": "human", "blue": "human"}),
            "scenario",
        ),
        (
            json!({"scenario": "hc-first-clash", "red": "human", "blue": "genius"}),
            "bot",
        ),
        (
            json!({"scenario": "hc-first-clash", "red": "random", "blue": "random"}),
            "two bots",
        ),
        (
            json!({"scenario": "hc-first-clash", "options": {"hidden": "maybe"}, "red": "human", "blue": "human"}),
            "option value",
        ),
        (
            json!({"scenario": "hc-first-clash", "options": {"colour": "red"}, "red": "human", "blue": "human"}),
            "option key",
        ),
        (
            json!({"scenario": "hc-first-clash", "options": {"sight": [6]}, "red": "human", "blue": "human"}),
            "option type",
        ),
        (json!({"scenario": "hc-first-clash"}), "seats"),
    ] {
        let r = api.post("/api/games", None, &body).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "bad {what}: {}", r.text);
    }
    let r = api
        .post(
            "/api/games",
            None,
            &json!({"scenario": "hc-night-march", "options": {"sight": 5, "hidden": "yes"}, "red": "human", "blue": "normal"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);

    // A flood of actions: the seat is slowed down with 429, and the server still answers.
    let mut limited = 0;
    for _ in 0..300 {
        let r = api.act(&id, &red, "no such action").await;
        assert!(r.status.is_client_error(), "{}", r.text);
        limited += (r.status == StatusCode::TOO_MANY_REQUESTS) as usize;
    }
    assert!(limited > 100, "only {limited} of 300 were rate limited");
    let r = api.get("/api/scenarios", None).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(api.view(&id, &red).await["seat"], "red");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_move_by_themselves_and_a_restart_finds_every_game() {
    let t = common::start_with(RateLimit {
        per_second: 1e6,
        burst: 1e6,
    })
    .await;
    let api = &t.api;
    // Red is a bot: whoever moves first, the human is soon to decide (or the game is over).
    let (id, red, blue) = api.create("hc-first-clash", "random", "human").await;
    assert!(red.is_none());
    let blue = blue.expect("blue");
    let wait_for_human = || async {
        let started = Instant::now();
        loop {
            let v = api.view(&id, &blue).await;
            if to_decide(&v) != Some("red") {
                return v;
            }
            assert!(started.elapsed() < Duration::from_secs(30), "the bot moves");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    let mut v = wait_for_human().await;
    for _ in 0..30 {
        if to_decide(&v).is_none() {
            break;
        }
        let legal = api.legal(&id, &blue).await;
        let pick = legal
            .iter()
            .find(|a| a.starts_with("end"))
            .unwrap_or(&legal[0]);
        let r = api.act(&id, &blue, pick).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        v = wait_for_human().await;
    }
    assert!(v["seq"].as_u64().expect("seq") > 30, "the bot moved too");
    let log = api
        .get(&format!("/api/games/{id}/log"), Some(&blue))
        .await
        .body;

    // Stop without a goodbye and start again on the same database.
    let again = t.restart().await;
    let api = &again.api;
    let after = api.view(&id, &blue).await;
    assert_eq!(after["seq"], v["seq"]);
    assert_eq!(after["commitment"], v["commitment"]);
    assert_eq!(after["view"], v["view"]);
    assert_eq!(
        api.get(&format!("/api/games/{id}/log"), Some(&blue))
            .await
            .body,
        log
    );
    if to_decide(&after) == Some("blue") {
        let legal = api.legal(&id, &blue).await;
        let r = api.act(&id, &blue, &legal[0]).await;
        assert_eq!(r.status, StatusCode::OK, "play continues: {}", r.text);
    }
}

/// POST /undo for a seat.
async fn take_back(api: &Api, id: &str, token: &str) -> common::Reply {
    api.post(&format!("/api/games/{id}/undo"), Some(token), &json!({}))
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_takes_back_its_own_move_but_not_the_dice_or_the_other_seats() {
    let t = common::start().await;
    let api = &t.api;
    let (id, red, blue) = api.create("hc-crossroads", "human", "human").await;
    let (red, blue) = (red.expect("red token"), blue.expect("blue token"));
    let mover = deciding(api, &id, &red, &blue)
        .await
        .expect("someone decides");
    let waiter = if mover == red { &blue } else { &red };

    // Nothing taken yet: nothing to take back.
    let r = take_back(api, &id, mover).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert!(r.text.contains("nothing to take back"), "{}", r.text);

    let before = api.view(&id, mover).await;
    let log_before = api
        .get(&format!("/api/games/{id}/log"), Some(mover))
        .await
        .body;
    let legal = api.legal(&id, mover).await;
    let step = legal
        .iter()
        .find(|a| a.starts_with("move "))
        .expect("a unit can move")
        .clone();
    let mut ws = websocket(&api.base, &id, waiter).await;
    assert_eq!(next_message(&mut ws).await["seq"], 0);
    let r = api.act(&id, mover, &step).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(next_message(&mut ws).await["seq"], 1);

    // The other seat cannot take it back; the mover can, and everything is as it was.
    let r = take_back(api, &id, waiter).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    let r = take_back(api, &id, mover).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["undone"], json!(step));
    assert_eq!(r.body["seq"], 0);
    let after = api.view(&id, mover).await;
    assert_eq!(after["view"], before["view"]);
    assert_eq!(after["seq"], 0);
    assert_eq!(
        api.get(&format!("/api/games/{id}/log"), Some(mover))
            .await
            .body,
        log_before
    );
    // The other seat hears of it: its seq goes down.
    assert_eq!(next_message(&mut ws).await["seq"], 0);

    // The same move again is stored as action 1 (the store took the undo).
    let r = api.act(&id, mover, &step).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["seq"], 1);

    // The commit-reveal survives the undo: the finished game's export still verifies.
    let r = api
        .post(&format!("/api/games/{id}/resign"), Some(waiter), &json!({}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = api
        .get(&format!("/api/games/{id}/export"), Some(mover))
        .await;
    let save: volley_core::SaveFile = serde_json::from_str(&r.text).expect("a saved game");
    let fair = save
        .fairness
        .as_ref()
        .expect("the commit-reveal record survives an undo");
    assert_eq!(
        fair.check(&save.scenario, &save.options, &save.seed.unwrap()),
        Ok(())
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn either_seat_may_resign_and_the_game_is_over_for_both() {
    let t = common::start().await;
    let api = &t.api;
    let (id, red, blue) = api.create("hc-first-clash", "human", "human").await;
    let (red, blue) = (red.expect("red token"), blue.expect("blue token"));
    let waiter = match deciding(api, &id, &red, &blue).await {
        Some(t) if t == red => blue.clone(),
        _ => red.clone(),
    };
    let loser = api.view(&id, &waiter).await["seat"]
        .as_str()
        .expect("seat")
        .to_string();
    // Not its decision, but it may give up all the same.
    let r = api
        .post(
            &format!("/api/games/{id}/resign"),
            Some(&waiter),
            &json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    for token in [&red, &blue] {
        let v = api.view(&id, token).await;
        assert_eq!(v["view"]["to_decide"], Value::Null);
        let winner = if loser == "red" { "blue" } else { "red" };
        assert_eq!(v["view"]["outcome"]["winner"], winner);
        assert!(v["seed"].is_string(), "the seed is revealed at the end");
        assert!(api.legal(&id, token).await.is_empty());
    }
    let r = api
        .post(&format!("/api/games/{id}/resign"), Some(&red), &json!({}))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    let r = api
        .post(&format!("/api/games/{id}/undo"), Some(&waiter), &json!({}))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    // The finished game's file replays, resignation and all.
    let r = api
        .get(&format!("/api/games/{id}/export"), Some(&red))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert!(r.text.contains(&format!("resign {loser}")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_two_seats_chat_and_the_lines_are_kept() {
    let t = common::start().await;
    let api = &t.api;
    let (id, red, blue) = api.create("hc-first-clash", "human", "human").await;
    let (red, blue) = (red.expect("red token"), blue.expect("blue token"));
    let mut ws = websocket(&api.base, &id, &blue).await;
    let first = next_message(&mut ws).await;
    assert_eq!(first["chat"], Value::Null, "no chat yet");
    let path = format!("/api/games/{id}/chat");
    let r = api
        .post(&path, Some(&red), &json!({"text": "  Good luck!  "}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["side"], "red");
    assert_eq!(r.body["text"], "Good luck!");
    // The other seat hears it at once.
    let update = next_message(&mut ws).await;
    assert_eq!(update["chat"][0]["text"], "Good luck!");
    assert_eq!(update["chat"][0]["side"], "red");
    // Empty, too long, several lines, or no seat: refused.
    for bad in [
        json!({"text": "   "}),
        json!({"text": "x".repeat(501)}),
        json!({"text": "a\nb"}),
    ] {
        let r = api.post(&path, Some(&blue), &bad).await;
        assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    }
    let r = api.post(&path, Some(&blue), &json!({"txt": "hi"})).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    let r = api.post(&path, None, &json!({"text": "hi"})).await;
    assert!(r.status.is_client_error(), "{}", r.status);
    let r = api
        .post(&path, Some(&blue), &json!({"text": "And to you."}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let lines = api.get(&path, Some(&red)).await.body;
    assert_eq!(lines.as_array().map(Vec::len), Some(2));
    assert_eq!(lines[1]["side"], "blue");

    // Kept across a restart.
    let again = t.restart().await;
    assert_eq!(again.api.get(&path, Some(&blue)).await.body, lines);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn armies_are_checked_as_the_builder_asks_and_fought_on_a_field() {
    let t = common::start().await;
    let api = &t.api;
    let index = api.get("/api/armies", None).await;
    assert_eq!(index.status, StatusCode::OK);
    assert_eq!(index.body["lists"].as_array().unwrap().len(), 12);
    assert!(index.body["maps"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m["name"] == "creek-crossing"));
    let armies = index.body["armies"].as_array().unwrap();
    let union = armies.iter().find(|a| a["name"] == "acw-union").unwrap()["text"]
        .as_str()
        .unwrap()
        .to_string();
    let rebels = armies
        .iter()
        .find(|a| a["name"] == "acw-confederate")
        .unwrap()["text"]
        .as_str()
        .unwrap()
        .to_string();

    let list = api.get("/api/armies/lists/napoleonic-russian", None).await;
    assert_eq!(list.status, StatusCode::OK);
    let limber = list.body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["troop"]["name"] == "Limbered Artillery")
        .unwrap();
    assert!(limber["why_not"]
        .as_str()
        .unwrap()
        .contains("limbers come with the guns"));
    assert_eq!(
        api.get("/api/armies/lists/atlantis", None).await.status,
        StatusCode::NOT_FOUND
    );
    // What else the builder sells: the FAO, regimental guns by row, the field defences.
    assert_eq!(list.body["fao"]["points"], 55);
    assert_eq!(list.body["fao"]["per_artillery"], 6);
    assert_eq!(list.body["regimental_guns_max"], 2);
    let gun = |name: &str| {
        list.body["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["troop"]["name"] == name)
            .unwrap()["regimental_gun"]
            .clone()
    };
    assert_eq!(gun("Line Infantry"), 75);
    assert!(gun("Jager Infantry").is_null() && gun("Heavy Cavalry").is_null());
    let works = list.body["works"].as_array().unwrap();
    assert!(works
        .iter()
        .any(|w| w["kind"] == "trench" && w["points"] == 5 && w["hasty"] == true));
    assert_eq!(list.body["defences"]["fixed"], 25);

    // One heavy cavalry unit bought: a second is refused in `addable`, with the reason.
    let army = "list = \"napoleonic-russian\"\npoints = 1500\n[[command]]\nlevel = \"brigade\"\nquality = \"average\"\n[[unit]]\ntroop = \"Line Infantry\"\ncount = 4\n[[unit]]\ntroop = \"Heavy Cavalry\"\n";
    let r = api
        .post("/api/armies/check", None, &json!({ "army": army }))
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.body["ok"], true);
    assert_eq!(r.body["army"]["cost"], 55 + 4 * 225 + 4 * 60);
    let troops = r.body["addable"]["troops"].as_array().unwrap();
    let heavy = troops.iter().find(|t| t[0] == "Heavy Cavalry").unwrap();
    assert!(
        heavy[1]
            .as_str()
            .unwrap()
            .contains("at most 1 units of \"Heavy Cavalry\""),
        "{heavy}"
    );
    let line = troops.iter().find(|t| t[0] == "Line Infantry").unwrap();
    assert!(line[1].is_null(), "{line}");
    // No guns, no Field Artillery Officer; no defence, no field defences.
    assert!(r.body["addable"]["fao"]
        .as_str()
        .unwrap()
        .contains("0 artillery units allow 0"));
    let trench = r.body["addable"]["works"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w[0] == "trench")
        .unwrap();
    assert!(
        trench[1]
            .as_str()
            .unwrap()
            .contains("field defences need the army in defence"),
        "{trench}"
    );
    let r = api
        .post(
            "/api/armies/check",
            None,
            &json!({ "army": "list = \"acw-union\"\npoints = 1500\n" }),
        )
        .await;
    assert_eq!(r.body["ok"], false);
    assert_eq!(r.body["errors"][0]["line"], 1);

    // A battle of two armies: a solo game against the computer that starts at once.
    let r = api
        .post("/api/games", None, &json!({ "armies": { "red": union, "blue": rebels, "map": "creek-crossing" }, "red": "human", "blue": "random", "seat": "red", "entropy": "x" }))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    let id = r.body["id"].as_str().unwrap();
    let token = r.body["seats"]["red"].as_str().unwrap();
    let view = api.view(id, token).await;
    assert_eq!(
        view["view"]["title"],
        "Doubleday's division against Hood's division"
    );
    // A bad army is a 400 that names the side, and no game is made.
    let r = api
        .post("/api/games", None, &json!({ "armies": { "red": union, "blue": "list = \"acw-union\"\npoints = 10\n", "map": "creek-crossing" }, "red": "human", "blue": "random", "seat": "red" }))
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(
        r.body["error"]
            .as_str()
            .unwrap()
            .starts_with("the blue army is not ready"),
        "{}",
        r.body
    );
    let r = api
        .post("/api/games", None, &json!({ "armies": { "red": union, "blue": rebels, "map": "atlantis" }, "red": "human", "blue": "random" }))
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(
        r.body["error"]
            .as_str()
            .unwrap()
            .contains("no field \"atlantis\""),
        "{}",
        r.body
    );
}

/// The legal listing describes each action for a client beside its notation, in the same
/// order, with names for ids; an action sent with the position it was chosen on is refused
/// once the game has moved on, and nothing is played.
#[tokio::test]
async fn legal_actions_are_described_and_a_stale_choice_is_refused() {
    let t = common::start().await;
    let api = &t.api;
    let (id, red, blue) = api.create("bptc-first-lesson", "human", "human").await;
    let (red, blue) = (red.expect("red token"), blue.expect("blue token"));
    let mover = deciding(api, &id, &red, &blue)
        .await
        .expect("someone decides");
    let r = api
        .get(&format!("/api/games/{id}/legal"), Some(mover))
        .await;
    assert_eq!(r.status, StatusCode::OK);
    let actions = r.body["actions"].as_array().expect("actions");
    let described = r.body["described"].as_array().expect("described");
    assert_eq!(actions.len(), described.len());
    for (a, d) in actions.iter().zip(described) {
        assert_eq!(&d["action"], a);
        for key in ["label", "kind", "unit", "target", "dice"] {
            assert!(d.get(key).is_some(), "{key} missing from {d}");
        }
    }
    // The French battalion's move: to its hex by name, and the command roll it brings.
    let moving = described
        .iter()
        .find(|d| d["action"] == "move fr1 0705")
        .expect("fr1 may move to 0705");
    assert_eq!(moving["label"], "Move 1st Bn 12e Ligne to 0705");
    assert_eq!(moving["kind"], "move");
    assert_eq!(moving["unit"], "fr1");
    assert_eq!(moving["target"], json!({"hex": "0705"}));
    assert_eq!(moving["dice"], true);
    let end = described
        .iter()
        .find(|d| d["action"] == "end")
        .expect("an end");
    assert_eq!(end["label"], "End the phase: French brigade command");
    // Its odds say what the order needs, with the general's name.
    let odds = api
        .post(
            &format!("/api/games/{id}/odds"),
            Some(mover),
            &json!({"action": "move fr1 0705"}),
        )
        .await;
    assert_eq!(odds.status, StatusCode::OK, "{}", odds.text);
    assert_eq!(
        odds.body["notes"][0],
        "Command roll: Gen. Brun needs 8 or less on two dice (command 8): 72% it passes; a double one (3%) gives two actions, a double six (3%) is a blunder."
    );
    // Chosen at action 0 and sent at action 0: played.
    let played = api
        .post(
            &format!("/api/games/{id}/actions"),
            Some(mover),
            &json!({"action": "join fr1", "seq": 0}),
        )
        .await;
    assert_eq!(played.status, StatusCode::OK, "{}", played.text);
    // Chosen at action 0 but the game is at 1: refused, nothing played.
    let stale = api
        .post(
            &format!("/api/games/{id}/actions"),
            Some(mover),
            &json!({"action": "end", "seq": 0}),
        )
        .await;
    assert_eq!(stale.status, StatusCode::CONFLICT);
    assert!(
        stale.text.contains("the game has moved on"),
        "{}",
        stale.text
    );
    assert_eq!(api.view(&id, mover).await["seq"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_builds_an_army_of_the_points_asked_and_it_is_fought() {
    let t = common::start().await;
    let api = &t.api;
    let r = api
        .post(
            "/api/armies/generate",
            None,
            &json!({ "list": "napoleonic-austrian", "points": 1500, "seed": 9 }),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.body["seed"], 9);
    assert_eq!(r.body["name"], "Napoleonic Austrian Army of 1500 points");
    assert_eq!(r.body["list"], "napoleonic-austrian");
    assert_eq!(r.body["points"], 1500);
    let cost = r.body["cost"].as_u64().unwrap();
    assert!((1400..=1500).contains(&cost), "{cost}");
    assert_eq!(r.body["army"]["cost"].as_u64(), Some(cost));
    assert!(r.body["summary"][0]
        .as_str()
        .unwrap()
        .starts_with("Napoleonic Austrian Army of 1500 points (Napoleonic Austrian Army): "));
    let text = r.body["text"].as_str().unwrap().to_string();
    assert!(
        text.starts_with("# Built by the computer from the Napoleonic Austrian Army to 1500 points:\n# volley army generate napoleonic-austrian --points 1500 --seed 9\n"),
        "{text}"
    );
    // The builder's check accepts it as it stands, at the same cost; the same seed gives
    // the same army.
    let c = api
        .post("/api/armies/check", None, &json!({ "army": text }))
        .await;
    assert_eq!(c.body["ok"], true, "{}", c.body);
    assert_eq!(c.body["army"]["cost"].as_u64(), Some(cost));
    let again = api
        .post(
            "/api/armies/generate",
            None,
            &json!({ "list": "napoleonic-austrian", "points": 1500, "seed": 9 }),
        )
        .await;
    assert_eq!(again.body["text"], text);
    // Without a seed the server draws one and says which.
    let drawn = api
        .post(
            "/api/armies/generate",
            None,
            &json!({ "list": "napoleonic-russian", "points": 1500 }),
        )
        .await;
    assert_eq!(drawn.status, StatusCode::OK, "{}", drawn.body);
    let seed = drawn.body["seed"].as_u64().expect("a seed");
    let russians = drawn.body["text"].as_str().unwrap().to_string();
    assert!(russians.contains(&format!("--seed {seed}\n")), "{russians}");

    // Two armies the computer built, fought solo.
    let g = api
        .post("/api/games", None, &json!({ "armies": { "red": text, "blue": russians, "map": "rolling-farmland" }, "red": "human", "blue": "random", "seat": "red", "entropy": "x" }))
        .await;
    assert_eq!(g.status, StatusCode::CREATED, "{}", g.body);
    let view = api
        .view(
            g.body["id"].as_str().unwrap(),
            g.body["seats"]["red"].as_str().unwrap(),
        )
        .await;
    assert_eq!(
        view["view"]["title"],
        "Napoleonic Austrian Army of 1500 points against Napoleonic Russian Army of 1500 points"
    );

    // Bad requests: a 400 in words.
    for (body, said) in [
        (
            json!({ "list": "napoleonic-british", "points": 400 }),
            "the Napoleonic British Army needs at least 510 points for its compulsory part (an uninspiring brigade HQ of 30 points and 4 units of Heavy Cavalry of 2 stands at 120 points each, an all-cavalry force, which takes the infantry minimum for its horse); 400 points are too few",
        ),
        (
            json!({ "list": "napoleonic-french", "points": 0 }),
            "the points total must be more than 0",
        ),
        (
            json!({ "list": "napoleonic-french", "points": 20000 }),
            "the computer builds armies of at most 9000 points, not 20000",
        ),
    ] {
        let r = api.post("/api/armies/generate", None, &body).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(r.body["error"], said);
    }
    let r = api
        .post(
            "/api/armies/generate",
            None,
            &json!({ "list": "atlantis", "points": 1500 }),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(
        r.body["error"]
            .as_str()
            .unwrap()
            .starts_with("there is no army list \"atlantis\"; the lists are: "),
        "{}",
        r.body
    );
    for body in [
        json!({ "list": "napoleonic-french" }),
        json!({ "list": "napoleonic-french", "points": -5 }),
        json!({ "list": "napoleonic-french", "points": 1500, "colour": "red" }),
    ] {
        let r = api.post("/api/armies/generate", None, &body).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{body}");
        assert!(
            r.body["error"]
                .as_str()
                .unwrap()
                .starts_with("the request body is not the JSON expected"),
            "{}",
            r.body
        );
    }
}
