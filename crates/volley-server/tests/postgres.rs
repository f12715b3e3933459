//! Issue 17, more than one server: two servers on one PostgreSQL database share their games.
//! A move made through one is pushed at once to a WebSocket of the other (LISTEN/NOTIFY);
//! moves sent to both at the same moment are stored one at a time, each acknowledged one
//! exactly once; a game waiting for its seats is claimed through the other server; and a
//! third server started on the database has everything acknowledged.
//! (Killing one with SIGKILL is tried on the real binary: crates/volley/tests/postgres.rs.)

mod common;

use common::{next_message, websocket, Api};
use reqwest::StatusCode;
use serde_json::json;
use std::time::Duration;
use volley_server::{RunningServer, ServerBuilder};

async fn server(db: &str) -> (RunningServer, Api) {
    let server = ServerBuilder::new(db)
        .addr("127.0.0.1:0".parse().unwrap())
        .limits(common::roomy())
        .rate_limit(volley_server::RateLimit {
            per_second: 1000.0,
            burst: 1000.0,
        })
        .start()
        .await
        .expect("a server on PostgreSQL starts");
    let api = Api::new(&format!("http://{}", server.addr()));
    (server, api)
}

#[tokio::test]
async fn two_servers_share_games_pushes_and_one_writer_per_game() {
    let Some(db) = volley_server::test_database().await else {
        return;
    };
    let (a_server, a) = server(&db).await;
    let (b_server, b) = server(&db).await;

    let (id, red, blue) = a.create("hc-first-clash", "human", "human").await;
    let (red, blue) = (red.unwrap(), blue.unwrap());
    // The game made through A is played through B; B's sockets hear of A's moves at once.
    let mut on_b = websocket(&b.base, &id, &red).await;
    let first = next_message(&mut on_b).await;
    assert_eq!(first["seq"], 0);
    let to = a.view(&id, &red).await["view"]["to_decide"].clone();
    let token = if to == "red" { &red } else { &blue };
    let legal = a.legal(&id, token).await;
    let r = a.act(&id, token, &legal[0]).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let pushed = tokio::time::timeout(Duration::from_secs(5), next_message(&mut on_b))
        .await
        .expect("B pushes A's move within 5 s");
    assert_eq!(pushed["seq"], 1);
    assert!(!pushed["events"].as_array().unwrap().is_empty());
    assert_eq!(b.view(&id, &blue).await["seq"], 1);

    // Chat said through B is read through A.
    let r = b
        .post(
            &format!("/api/games/{id}/chat"),
            Some(&red),
            &json!({"text": "from B"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let mut heard = false;
    for _ in 0..50 {
        let c = a.get(&format!("/api/games/{id}/chat"), Some(&blue)).await;
        if c.body.as_array().is_some_and(|l| l.len() == 1) {
            assert_eq!(c.body[0]["text"], "from B");
            heard = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(heard, "A reads the chat line said through B");

    // Both servers are sent moves at the same moment: each acknowledged move is stored
    // once, in one order both servers agree on.
    let mut acknowledged = 0;
    for _ in 0..15 {
        let v = a.view(&id, &red).await;
        let Some(to) = v["view"]["to_decide"].as_str() else {
            break;
        };
        let token = if to == "red" {
            red.clone()
        } else {
            blue.clone()
        };
        let legal = a.legal(&id, &token).await;
        let pick = legal
            .iter()
            .find(|x| x.starts_with("end"))
            .unwrap_or(&legal[0])
            .clone();
        let (ra, rb) = tokio::join!(a.act(&id, &token, &pick), b.act(&id, &token, &pick));
        for r in [&ra, &rb] {
            match r.status {
                StatusCode::OK => acknowledged += 1,
                StatusCode::CONFLICT | StatusCode::FORBIDDEN => {}
                other => panic!("a move answered {other}: {}", r.text),
            }
        }
        assert!(
            ra.status == StatusCode::OK || rb.status == StatusCode::OK,
            "one of two simultaneous moves is taken: {} / {}",
            ra.text,
            rb.text
        );
    }
    let seq_a = a.view(&id, &red).await["seq"].as_u64().unwrap();
    let mut seq_b = 0;
    for _ in 0..50 {
        seq_b = b.view(&id, &red).await["seq"].as_u64().unwrap();
        if seq_b == seq_a {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(seq_a, seq_b, "both servers hold the same game");
    assert_eq!(seq_a, 1 + acknowledged, "every acknowledged move, once");

    // An invitation made through A is claimed through B, and the game starts for both.
    let r = a
        .post(
            "/api/games",
            None,
            &json!({"scenario": "hc-first-clash", "red": "human", "blue": "human", "seat": "red"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let invited = r.body["id"].as_str().unwrap().to_string();
    let inviter = r.body["seats"]["red"].as_str().unwrap().to_string();
    let claim = r.body["invites"]["blue"].as_str().unwrap().to_string();
    let r = b
        .post(
            &format!("/api/games/{invited}/claim"),
            None,
            &json!({"claim": claim}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let s = a.get(&format!("/api/games/{invited}/seats"), None).await;
    assert_eq!(s.body["started"], true, "{}", s.text);
    assert_eq!(a.view(&invited, &inviter).await["seq"], 0);

    // A third server started on the database has every acknowledged move.
    let (c_server, c) = server(&db).await;
    assert_eq!(c.view(&id, &blue).await["seq"].as_u64(), Some(seq_a));
    for s in [a_server, b_server, c_server] {
        s.stop();
    }
}
