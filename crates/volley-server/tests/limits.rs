//! Issue 16's attacks, bounded, on loopback: one client flooding games, a bot asked to think
//! for ten minutes on 64 threads, sockets piled on one game, half-sent requests, odds queued
//! without end, and old games kept for ever. Each limit answers at once with a sentence, and
//! another client is still served.

mod common;

use common::{roomy, start_limited, Api};
use reqwest::StatusCode;
use serde_json::json;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use volley_server::{Limits, RateLimit};

#[tokio::test]
async fn one_client_creating_games_is_held_to_its_hourly_share_and_others_still_play() {
    let t = start_limited(
        RateLimit::default(),
        Limits {
            games_per_client_per_hour: 30, // three at once
            ..Limits::default()
        },
    )
    .await;
    for _ in 0..3 {
        let r = t.api.try_create("hc-first-clash", "human", "human").await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    }
    let r = t.api.try_create("hc-first-clash", "human", "human").await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(
        r.body["error"]
            .as_str()
            .unwrap()
            .contains("30 games an hour"),
        "{}",
        r.text
    );
    // A bad request costs nothing: it is refused for what it is.
    let r = t.api.try_create("nowhere", "human", "human").await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    let other = Api::from_address(&t.api.base, "127.0.0.2");
    let r = other.try_create("hc-first-clash", "human", "human").await;
    assert_eq!(r.status, StatusCode::CREATED, "another client: {}", r.text);
}

#[tokio::test]
async fn the_server_keeps_at_most_its_open_games() {
    let t = start_limited(
        RateLimit::default(),
        Limits {
            open_games_max: 2,
            ..roomy()
        },
    )
    .await;
    t.api.create("hc-first-clash", "human", "human").await;
    t.api.create("hc-first-clash", "human", "normal").await;
    let r = t.api.try_create("hc-first-clash", "human", "human").await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(
        r.body["error"]
            .as_str()
            .unwrap()
            .contains("unfinished games"),
        "{}",
        r.text
    );
}

#[tokio::test]
async fn a_bot_asked_to_think_past_the_limits_is_refused_in_words() {
    let t = common::start().await;
    for (spec, words) in [
        ("mcts:ms=600000,threads=64", "at most 2000 ms"),
        ("mcts:threads=64", "at most 1 thread"),
        ("mcts:iters=1000000000", "iterations"),
    ] {
        let r = t.api.try_create("hc-first-clash", "human", spec).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{spec}");
        assert!(
            r.body["error"].as_str().unwrap().contains(words),
            "{spec}: {}",
            r.text
        );
    }
    t.api.create("hc-first-clash", "human", "mcts:ms=200").await;
}

#[tokio::test]
async fn websockets_on_one_game_are_capped_and_their_places_given_back() {
    let t = start_limited(
        RateLimit::default(),
        Limits {
            sockets_per_game: 3,
            ..roomy()
        },
    )
    .await;
    let (id, red, _) = t.api.create("hc-first-clash", "human", "human").await;
    let red = red.unwrap();
    let mut open = Vec::new();
    for _ in 0..3 {
        open.push(common::websocket(&t.api.base, &id, &red).await);
    }
    let url = format!(
        "{}/api/games/{id}/ws?token={red}",
        t.api.base.replacen("http://", "ws://", 1)
    );
    match tokio_tungstenite::connect_async(url.clone()).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(res)) => {
            assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
            let body =
                String::from_utf8_lossy(res.body().as_deref().unwrap_or_default()).to_string();
            assert!(body.contains("WebSockets on this game"), "{body}");
        }
        other => panic!(
            "a fourth socket should be refused, got {:?}",
            other.map(|_| ())
        ),
    }
    // Closing one gives its place back (within a moment: the server sees the close).
    let mut first = open.remove(0);
    first.close(None).await.expect("closes");
    drop(first);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if tokio_tungstenite::connect_async(url.clone()).await.is_ok() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the closed socket's place never came back"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn half_sent_requests_are_cut_off_and_cannot_crowd_out_other_clients() {
    let t = start_limited(
        RateLimit::default(),
        Limits {
            header_timeout: Duration::from_secs(1),
            connections_per_client: 20,
            ..roomy()
        },
    )
    .await;
    let addr = t.server.addr();
    // Twenty connections that start a request and never finish it.
    let mut slow = Vec::new();
    for _ in 0..20 {
        let mut s = TcpStream::connect(addr).await.expect("connects");
        s.write_all(b"GET /api/scenarios HTTP/1.1\r\nHost: x\r\n")
            .await
            .unwrap();
        slow.push(s);
    }
    // The twenty-first from the same client is turned away at once, in words.
    let mut extra = TcpStream::connect(addr).await.expect("connects");
    let mut answer = String::new();
    tokio::time::timeout(Duration::from_secs(5), extra.read_to_string(&mut answer))
        .await
        .expect("answered at once")
        .ok();
    assert!(answer.starts_with("HTTP/1.1 429"), "{answer}");
    assert!(answer.contains("connections"), "{answer}");
    // Another client is served meanwhile.
    let other = Api::from_address(&t.api.base, "127.0.0.3");
    assert_eq!(
        other.get("/api/scenarios", None).await.status,
        StatusCode::OK
    );
    // Past the header timeout the server has closed every half-sent request.
    let started = Instant::now();
    for s in &mut slow {
        let mut buf = Vec::new();
        let read = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut buf)).await;
        assert!(
            read.is_ok(),
            "a half-sent request was still open after 10 s"
        );
    }
    assert!(started.elapsed() < Duration::from_secs(10));
    drop(slow);
    // And their places are free again.
    let deadline = Instant::now() + Duration::from_secs(10);
    while t.api.get("/api/scenarios", None).await.status != StatusCode::OK {
        assert!(Instant::now() < deadline);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn odds_requests_past_the_queue_are_answered_at_once_not_queued() {
    let t = start_limited(
        RateLimit {
            per_second: 1e9,
            burst: 1e9,
        },
        Limits {
            odds_at_once: 1,
            odds_waiting_max: 1,
            odds_per_client: 64,
            ..roomy()
        },
    )
    .await;
    let (id, red, blue) = t.api.create("hc-first-clash", "human", "human").await;
    // Whichever side decides first asks the odds of its first legal action.
    let mut asker = None;
    for token in [red.unwrap(), blue.unwrap()] {
        if let Some(a) = t.api.legal(&id, &token).await.into_iter().next() {
            asker = Some((token, a));
        }
    }
    let (red, action) = asker.expect("one side has a decision");
    let asks = (0..24).map(|_| {
        let api = t.api.clone();
        let (id, red, action) = (id.clone(), red.clone(), action.clone());
        tokio::spawn(async move {
            api.post(
                &format!("/api/games/{id}/odds"),
                Some(&red),
                &json!({ "action": action }),
            )
            .await
        })
    });
    let started = Instant::now();
    let mut answered = 0;
    for ask in asks {
        let r = ask.await.expect("the request task ends");
        match r.status {
            StatusCode::OK => answered += 1,
            StatusCode::SERVICE_UNAVAILABLE => {
                assert!(
                    r.body["error"].as_str().unwrap().contains("odds requests"),
                    "{}",
                    r.text
                )
            }
            other => panic!("odds answered {other}: {}", r.text),
        }
    }
    assert!(answered >= 1, "the queue still serves");
    assert!(started.elapsed() < Duration::from_secs(60));
}

#[tokio::test]
async fn old_games_expire_and_the_database_is_its_owners_alone() {
    let t = common::start().await;
    let db = t.dir.path().join("volley.db");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&db).unwrap().permissions().mode() & 0o777;
        assert_eq!(
            mode, 0o600,
            "the database is created readable by its owner only"
        );
    }
    let (id, red, _) = t.api.create("hc-first-clash", "human", "human").await;
    let red = red.unwrap();
    // Restarted with the default keeping times, the game is there.
    let t = t.restart().await;
    t.api.view(&id, &red).await;
    // Restarted on a server that keeps abandoned games no time at all, it is gone. (Times are
    // Unix seconds: wait for the game to be a second old.)
    let dir = t.dir;
    t.server.stop();
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let server = volley_server::ServerBuilder::new(db.to_str().unwrap())
        .addr("127.0.0.1:0".parse().unwrap())
        .limits(Limits {
            keep_abandoned: Duration::ZERO,
            ..roomy()
        })
        .start()
        .await
        .expect("starts");
    let api = Api::new(&format!("http://{}", server.addr()));
    let r = api.get(&format!("/api/games/{id}/view"), Some(&red)).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text);
    drop(dir);
}

#[tokio::test]
async fn a_finished_game_is_kept_in_the_store_and_read_back_when_asked_for() {
    // The server keeps only games in play in memory from the start; a finished one is read
    // back from the store on demand, whole (its log, its export).
    let t = common::start().await;
    let (id, red, blue) = t.api.create("hc-first-clash", "human", "human").await;
    let (red, blue) = (red.unwrap(), blue.unwrap());
    let r = t
        .api
        .post(&format!("/api/games/{id}/resign"), Some(&red), &json!({}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let log_before = t
        .api
        .get(&format!("/api/games/{id}/log"), Some(&blue))
        .await
        .body;
    let t = t.restart().await;
    let v = t.api.view(&id, &blue).await;
    assert!(v["view"]["outcome"].is_object(), "read back, still over");
    assert_eq!(
        t.api
            .get(&format!("/api/games/{id}/log"), Some(&blue))
            .await
            .body,
        log_before
    );
    let r = t
        .api
        .get(&format!("/api/games/{id}/export"), Some(&red))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // An id that is no game is still no game.
    let r = t
        .api
        .get("/api/games/0123456789abcdef0123/view", Some(&red))
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
}
