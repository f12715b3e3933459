//! Issue 17, play at your own pace: a pace chosen at creation and kept across a restart, a
//! win claimed when the opponent's time runs out, a games list sorted by whose turn it is,
//! "your turn" by webhook and by e-mail (to an SMTP server this test runs), and a spectator
//! link that sees what both sides have seen and can neither act nor chat.

mod common;

use common::{next_message, Api};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reqwest::StatusCode;
use serde_json::{json, Value};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;
use volley_server::{NotifyConfig, ServerBuilder, Smtp};

/// Creates a game of two humans, both seats taken by the creator, at `pace`.
async fn paced(api: &Api, scenario: &str, pace: Value) -> (String, String, String, Value) {
    let r = api
        .post(
            "/api/games",
            None,
            &json!({"scenario": scenario, "red": "human", "blue": "human", "pace": pace}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let s = |k: &str| r.body["seats"][k].as_str().expect("a seat").to_string();
    (
        r.body["id"].as_str().unwrap().to_string(),
        s("red"),
        s("blue"),
        r.body.clone(),
    )
}

/// Plays the side to decide's first legal action until `side` is to decide.
async fn play_until(api: &Api, id: &str, tokens: [&str; 2], side: &str) {
    for _ in 0..500 {
        let v = api.view(id, tokens[0]).await;
        let to = v["view"]["to_decide"].as_str().expect("someone decides");
        if to == side {
            return;
        }
        let token = if to == "red" { tokens[0] } else { tokens[1] };
        let legal = api.legal(id, token).await;
        let pick = legal
            .iter()
            .find(|a| a.starts_with("end"))
            .unwrap_or(&legal[0]);
        let r = api.act(id, token, pick).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    panic!("{side} never came to decide in game {id}");
}

#[tokio::test]
async fn a_player_out_of_time_can_be_claimed_a_win_against_and_the_pace_survives_a_restart() {
    let t = common::start().await;
    let api = t.api.clone();
    let r = api
        .post(
            "/api/games",
            None,
            &json!({"scenario": "hc-first-clash", "red": "human", "blue": "human", "pace": "fortnight"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(r.text.contains("pace"), "{}", r.text);
    let r = api
        .post(
            "/api/games",
            None,
            &json!({"scenario": "hc-first-clash", "red": "human", "blue": "human", "pace": 400}),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(r.text.contains("60 days"), "{}", r.text);

    // Days per move: the view says so, and a restart keeps it.
    let (slow, slow_red, _, created) = paced(&api, "hc-first-clash", json!(3)).await;
    assert_eq!(created["pace"], 3 * 86_400);
    let v = api.view(&slow, &slow_red).await;
    assert_eq!(v["pace"], 3 * 86_400);
    let deadline = v["deadline"].as_i64().expect("a deadline in a paced game");

    // A live game has no clock to run out.
    let (live, live_red, live_blue, _) = paced(&api, "hc-first-clash", json!("live")).await;
    assert!(api.view(&live, &live_red).await["deadline"].is_null());
    let to = api.view(&live, &live_red).await["view"]["to_decide"].clone();
    let waiting = if to == "red" { &live_blue } else { &live_red };
    let r = api
        .post(
            &format!("/api/games/{live}/timeout"),
            Some(waiting),
            &json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    assert!(r.text.contains("live"), "{}", r.text);

    // Two seconds a move.
    let (id, red, blue, _) = paced(&api, "hc-first-clash", json!("2s")).await;
    play_until(&api, &id, [&red, &blue], "red").await;
    let path = format!("/api/games/{id}/timeout");
    let r = api.post(&path, Some(&red), &json!({})).await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    assert!(r.text.contains("own decision"), "{}", r.text);
    let r = api.post(&path, Some(&blue), &json!({})).await;
    if r.status == StatusCode::CONFLICT {
        assert!(r.text.contains("still has time"), "{}", r.text);
        tokio::time::sleep(Duration::from_millis(2500)).await;
    }
    let r = api.post(&path, Some(&blue), &json!({})).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let events = r.body["events"].as_array().expect("events");
    assert!(
        events
            .iter()
            .any(|e| e["kind"] == "timeout" && e["text"].as_str().unwrap().contains("ran out")),
        "{events:?}"
    );
    let v = api.view(&id, &red).await;
    assert_eq!(v["view"]["outcome"]["winner"], "blue");
    assert_eq!(v["view"]["outcome"]["reason"], "Red ran out of time");
    assert!(v["deadline"].is_null());

    // After a crash the pace, the clock and the result are read back from the store.
    let t = t.restart().await;
    let v = t.api.view(&slow, &slow_red).await;
    assert_eq!(v["pace"], 3 * 86_400);
    assert_eq!(v["deadline"].as_i64(), Some(deadline));
    let v = t.api.view(&id, &red).await;
    assert_eq!(v["view"]["outcome"]["reason"], "Red ran out of time");
}

#[tokio::test]
async fn the_games_list_puts_the_games_where_it_is_your_turn_first() {
    let t = common::start().await;
    let api = &t.api;
    let (over, over_red, _, _) = paced(api, "hc-first-clash", json!("1d")).await;
    let r = api
        .post(
            &format!("/api/games/{over}/resign"),
            Some(&over_red),
            &json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let (mine, mine_red, mine_blue, _) = paced(api, "hc-first-clash", json!("2d")).await;
    play_until(api, &mine, [&mine_red, &mine_blue], "red").await;
    let (theirs, theirs_red, theirs_blue, _) = paced(api, "hc-first-clash", json!("1d")).await;
    play_until(api, &theirs, [&theirs_red, &theirs_blue], "red").await;

    let r = api
        .post(
            "/api/games/list",
            None,
            &json!({"games": [
                {"id": over, "token": over_red},
                {"id": "nosuchgame", "token": "x"},
                {"id": theirs, "token": theirs_blue},
                {"id": mine, "token": mine_red},
            ]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let list = r.body.as_array().expect("a list");
    let order: Vec<(&str, &str)> = list
        .iter()
        .map(|g| (g["id"].as_str().unwrap(), g["status"].as_str().unwrap()))
        .collect();
    assert_eq!(
        order,
        vec![
            (mine.as_str(), "your turn"),
            (theirs.as_str(), "their turn"),
            (over.as_str(), "over"),
            ("nosuchgame", "unknown"),
        ]
    );
    assert_eq!(list[0]["seat"], "red");
    assert_eq!(list[0]["pace"], 2 * 86_400);
    assert!(list[0]["deadline"].as_i64().is_some());
    assert_eq!(list[1]["can_claim"], false);
    assert_eq!(list[2]["result"], "Red resigned");
    assert_eq!(list[2]["winner"], "blue");
    // A token of another game is not a seat of this one.
    let r = api
        .post(
            "/api/games/list",
            None,
            &json!({"games": [{"id": mine, "token": theirs_red}]}),
        )
        .await;
    assert_eq!(r.body[0]["status"], "unknown");
}

/// An SMTP server that takes every message and hands its text (headers and body) on.
async fn smtp_server() -> (u16, mpsc::UnboundedReceiver<(String, String)>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port for the SMTP server");
    let port = listener.local_addr().unwrap().port();
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                return;
            };
            let tx = tx.clone();
            tokio::spawn(async move {
                let (read, mut write) = stream.into_split();
                let mut lines = BufReader::new(read).lines();
                write.write_all("220 test SMTP\r\n".as_bytes()).await.ok();
                let mut to = String::new();
                while let Ok(Some(line)) = lines.next_line().await {
                    let upper = line.to_ascii_uppercase();
                    if upper.starts_with("EHLO") || upper.starts_with("HELO") {
                        write.write_all("250 test\r\n".as_bytes()).await.ok();
                    } else if upper.starts_with("RCPT TO:") {
                        to = line[8..].trim().trim_matches(['<', '>']).to_string();
                        write.write_all("250 ok\r\n".as_bytes()).await.ok();
                    } else if upper.starts_with("DATA") {
                        write.write_all("354 go on\r\n".as_bytes()).await.ok();
                        let mut text = String::new();
                        while let Ok(Some(l)) = lines.next_line().await {
                            if l == "." {
                                break;
                            }
                            text.push_str(&l);
                            text.push('\n');
                        }
                        tx.send((to.clone(), text)).ok();
                        write.write_all("250 queued\r\n".as_bytes()).await.ok();
                    } else if upper.starts_with("QUIT") {
                        write.write_all("221 bye\r\n".as_bytes()).await.ok();
                        return;
                    } else {
                        write.write_all("250 ok\r\n".as_bytes()).await.ok();
                    }
                }
            });
        }
    });
    (port, rx)
}

/// A webhook receiver: every JSON body POSTed to it is handed on.
async fn webhook_server() -> (String, mpsc::UnboundedReceiver<Value>) {
    let (tx, rx) = mpsc::unbounded_channel();
    let app = axum::Router::new().route(
        "/hook",
        axum::routing::post(move |axum::Json(body): axum::Json<Value>| {
            let tx = tx.clone();
            async move {
                tx.send(body).ok();
                "ok"
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.ok() });
    (url, rx)
}

async fn within<T>(rx: &mut mpsc::UnboundedReceiver<T>, what: &str) -> T {
    tokio::time::timeout(Duration::from_secs(30), rx.recv())
        .await
        .unwrap_or_else(|_| panic!("{what} within 30 s"))
        .expect("the receiver runs")
}

/// E-mail lines may be folded or quoted-printable encoded: undo both.
fn unfolded(mail: &str) -> String {
    mail.replace("=\n", "")
        .replace("\n ", " ")
        .replace("=3D", "=")
}

#[tokio::test]
async fn your_turn_reaches_the_player_by_webhook_and_by_email_and_tells_nothing_unseen() {
    let (smtp_port, mut mails) = smtp_server().await;
    let (hook, mut hooks) = webhook_server().await;
    let dir = tempfile::tempdir().unwrap();
    let server = ServerBuilder::new(dir.path().join("v.db").to_str().unwrap())
        .addr("127.0.0.1:0".parse().unwrap())
        .limits(common::roomy())
        .notify(NotifyConfig {
            smtp: Some(
                Smtp::parse(&format!("127.0.0.1:{smtp_port}"), "volley@example.org").unwrap(),
            ),
            public_url: Some("http://volley.example.org/".into()),
        })
        .start()
        .await
        .expect("the server starts");
    let api = Api::new(&format!("http://{}", server.addr()));

    // A bad address is refused with the field named.
    let r = api
        .post(
            "/api/games",
            None,
            &json!({"scenario": "hc-night-march", "red": "human", "blue": "human", "seat": "red",
                    "notify": {"email": "not an address"}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(
        r.text.contains("notify") && r.text.contains("e-mail"),
        "{}",
        r.text
    );

    let r = api
        .post(
            "/api/games",
            None,
            &json!({"scenario": "hc-night-march", "red": "human", "blue": "human", "seat": "red",
                    "pace": "3d", "notify": {"webhook": hook, "email": "red@example.org"}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = r.body["id"].as_str().unwrap().to_string();
    let red = r.body["seats"]["red"].as_str().unwrap().to_string();
    let claim = r.body["invites"]["blue"].as_str().unwrap().to_string();
    let r = api
        .post(
            &format!("/api/games/{id}/claim"),
            None,
            &json!({"claim": claim, "notify": {"email": "blue@example.org"}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let blue = r.body["token"].as_str().unwrap().to_string();
    let r = api
        .get(&format!("/api/games/{id}/notify"), Some(&blue))
        .await;
    assert_eq!(r.body, json!({"email": "blue@example.org"}));

    // Whoever decides first (the opening may roll for it) is told so: red by its webhook
    // and its mail, blue by mail.
    let first = api.view(&id, &red).await["view"]["to_decide"]
        .as_str()
        .expect("someone decides")
        .to_string();
    let (second, first_token, second_token) = if first == "red" {
        ("blue", &red, &blue)
    } else {
        ("red", &blue, &red)
    };
    if first == "red" {
        let posted = within(&mut hooks, "red's webhook").await;
        assert_eq!(posted["type"], "your_turn");
        assert_eq!(posted["game"], id.as_str());
        assert_eq!(posted["side"], "red");
        assert_eq!(posted["link"], "http://volley.example.org/#/");
        assert!(posted["deadline"].as_i64().is_some());
    }
    let (to, mail) = within(&mut mails, "the first player's e-mail").await;
    assert_eq!(to, format!("{first}@example.org"));
    let mail = unfolded(&mail);
    assert!(mail.contains("Subject: Volley: your turn"), "{mail}");
    assert!(mail.contains(&id), "{mail}");

    // The first plays until the second is to decide; the second's mail names nothing of
    // what the first did or has that the second has not seen.
    let first_view = api.view(&id, first_token).await;
    play_until(&api, &id, [&red, &blue], second).await;
    if second == "red" {
        let posted = within(&mut hooks, "red's webhook").await;
        assert_eq!(posted["side"], "red");
    }
    let (to, mail) = within(&mut mails, "the second player's e-mail").await;
    assert_eq!(to, format!("{second}@example.org"));
    let mail = unfolded(&mail);
    let title = if second == "red" { "Red" } else { "Blue" };
    assert!(mail.contains(&format!("{title} to play")), "{mail}");
    let first_log = api
        .get(&format!("/api/games/{id}/log"), Some(first_token))
        .await;
    let second_log = api
        .get(&format!("/api/games/{id}/log"), Some(second_token))
        .await;
    let second_saw: Vec<&str> = second_log.body["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["text"].as_str().unwrap())
        .collect();
    for unit in first_view["view"]["units"].as_array().unwrap() {
        if unit["side"] == first.as_str() {
            let name = unit["name"].as_str().unwrap();
            assert!(
                !mail.contains(name),
                "{second}'s mail names {first}'s {name}: {mail}"
            );
        }
    }
    for e in first_log.body["events"].as_array().unwrap() {
        let text = e["text"].as_str().unwrap();
        if !second_saw.contains(&text) {
            assert!(
                !mail.contains(text),
                "{second}'s mail tells {text:?}: {mail}"
            );
        }
    }
    // The webhook was asked for by red only: blue's turn posts nothing to it.
    assert!(
        hooks.try_recv().is_err(),
        "blue's turn went to red's webhook"
    );
    server.stop();
}

#[tokio::test]
async fn a_spectator_sees_what_both_sides_have_seen_and_cannot_act_or_chat() {
    // Random play as fast as the test goes: no rate limit to measure.
    let t = common::start_with(volley_server::RateLimit {
        per_second: 1e6,
        burst: 1e6,
    })
    .await;
    let api = &t.api;
    let (id, red, blue, created) = paced(api, "hc-night-march", json!("live")).await;
    let watch = created["spectate"]
        .as_str()
        .expect("a spectator link")
        .to_string();
    assert_eq!(api.view(&id, &red).await["spectate"], watch.as_str());

    // Watching needs the link's token, and the link acts for nobody.
    let r = api.get(&format!("/api/games/{id}/watch"), Some(&red)).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    for (path, body) in [
        ("actions", json!({"action": "end"})),
        ("chat", json!({"text": "hello"})),
        ("resign", json!({})),
    ] {
        let r = api
            .post(&format!("/api/games/{id}/{path}"), Some(&watch), &body)
            .await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{path}: {}", r.text);
        assert!(r.text.contains("spectator"), "{}", r.text);
    }
    let r = api
        .get(&format!("/api/games/{id}/chat"), Some(&watch))
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);

    // The players see someone watching while the spectator's socket is open.
    let mut red_socket = common::websocket(&api.base, &id, &red).await;
    assert_eq!(next_message(&mut red_socket).await["watchers"], 0);
    let url = format!(
        "{}/api/games/{id}/ws?watch={watch}",
        api.base.replacen("http://", "ws://", 1)
    );
    let (mut spectator, _) = tokio_tungstenite::connect_async(url).await.expect("opens");
    let first = next_message(&mut spectator).await;
    assert!(first["view"]["viewer"].is_null());
    assert!(first.get("chat").is_none());
    assert_eq!(next_message(&mut red_socket).await["watchers"], 1);
    assert_eq!(api.view(&id, &blue).await["watchers"], 1);

    // Random play: at every step the spectator's units are in both sides' views, each as
    // the enemy of its side sees it, and its log holds only what both logs hold.
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let mut seen_hidden = false;
    for _ in 0..150 {
        let rv = api.view(&id, &red).await;
        let bv = api.view(&id, &blue).await;
        let w = api
            .get(&format!("/api/games/{id}/watch"), Some(&watch))
            .await;
        assert_eq!(w.status, StatusCode::OK, "{}", w.text);
        let units = |v: &Value| v["view"]["units"].as_array().unwrap().clone();
        let (ru, bu, wu) = (units(&rv), units(&bv), units(&w.body));
        for u in &wu {
            let enemy = if u["side"] == "red" { &bu } else { &ru };
            let own = if u["side"] == "red" { &ru } else { &bu };
            let as_enemy = enemy.iter().find(|e| e["id"] == u["id"]);
            assert_eq!(
                as_enemy,
                Some(u),
                "the spectator sees {} as its enemy does",
                u["id"]
            );
            assert!(own.iter().any(|o| o["id"] == u["id"]));
        }
        if wu.len() < ru.len().max(bu.len()) {
            seen_hidden = true;
        }
        let texts = |v: &Value| -> Vec<String> {
            v["events"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e["text"].as_str().unwrap().to_string())
                .collect()
        };
        let rl = texts(
            &api.get(&format!("/api/games/{id}/log"), Some(&red))
                .await
                .body,
        );
        let bl = texts(
            &api.get(&format!("/api/games/{id}/log"), Some(&blue))
                .await
                .body,
        );
        for e in texts(&w.body) {
            assert!(
                rl.contains(&e) && bl.contains(&e),
                "the spectator read {e:?}"
            );
        }
        let Some(to) = rv["view"]["to_decide"].as_str() else {
            break;
        };
        let token = if to == "red" { &red } else { &blue };
        let legal = api.legal(&id, token).await;
        let pick = &legal[rng.random_range(0..legal.len())];
        let r = api.act(&id, token, pick).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    assert!(
        seen_hidden,
        "the night march hid a unit from the spectator at some point"
    );

    // The spectator leaves: the count goes back down.
    drop(spectator);
    let mut watchers = 1;
    for _ in 0..50 {
        watchers = api.view(&id, &red).await["watchers"].as_i64().unwrap();
        if watchers == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(watchers, 0);
}
