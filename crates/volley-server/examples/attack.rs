//! Issue 16's attacks, repeated against a server with the default limits (`volley serve`'s),
//! in this process on a fresh SQLite file, on loopback only. Each attack is bounded in count
//! and time; the report says what got through, what was turned away, and whether another
//! client was still served meanwhile.
//!
//! ```text
//! cargo run --release -p volley-server --example attack
//! ```

use serde_json::{json, Value};
use std::time::{Duration, Instant};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use volley_server::ServerBuilder;

fn client(local: &str) -> reqwest::Client {
    reqwest::Client::builder()
        .no_proxy()
        .local_address(Some(local.parse().expect("an address")))
        .timeout(Duration::from_secs(30))
        .build()
        .expect("a client")
}

/// The resident memory of this process, in MiB.
fn rss_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

/// Creates a two-player game from a client; its reply.
async fn create(local: &str, base: &str, scenario: &str) -> Value {
    client(local)
        .post(format!("{base}/api/games"))
        .json(&json!({"scenario": scenario, "red": "human", "blue": "human"}))
        .send()
        .await
        .expect("answered")
        .json()
        .await
        .expect("JSON")
}

/// How long another client waits for the scenario list.
async fn bystander(base: &str) -> String {
    let started = Instant::now();
    let status = client("127.0.0.9")
        .get(format!("{base}/api/scenarios"))
        .send()
        .await
        .map(|r| r.status().as_u16().to_string())
        .unwrap_or_else(|e| format!("failed ({e})"));
    format!(
        "{status} in {:.1} ms",
        started.elapsed().as_secs_f64() * 1e3
    )
}

#[tokio::main]
async fn main() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = dir.path().join("attack.db");
    let server = ServerBuilder::new(db.to_str().expect("UTF-8"))
        .addr("127.0.0.1:0".parse().expect("an address"))
        .start()
        .await
        .expect("the server starts");
    let base = format!("http://{}", server.addr());
    let attacker = client("127.0.0.1");
    println!("server at {base}, resident {:.0} MiB", rss_mib());

    // 1. Games created as fast as one client can for 30 s (hc-corps, the biggest battle).
    let started = Instant::now();
    let (mut created, mut turned) = (0, 0);
    while started.elapsed() < Duration::from_secs(30) {
        let r = attacker
            .post(format!("{base}/api/games"))
            .json(&json!({"scenario": "hc-corps", "red": "human", "blue": "human"}))
            .send()
            .await
            .expect("answered");
        match r.status().as_u16() {
            201 => created += 1,
            429 => turned += 1,
            s => panic!("creation answered {s}"),
        }
    }
    let db_mib = std::fs::metadata(&db).map_or(0, |m| m.len()) as f64 / 1048576.0;
    println!(
        "1. game flood, 30 s: {created} created, {turned} turned away (429); db {db_mib:.1} MiB, resident {:.0} MiB; bystander {}",
        rss_mib(),
        bystander(&base).await
    );

    // 2. A bot asked for ten minutes on 64 threads.
    let r = attacker
        .post(format!("{base}/api/games"))
        .json(&json!({"scenario": "hc-first-clash", "red": "human", "blue": "mcts:ms=600000,threads=64"}))
        .send()
        .await
        .expect("answered");
    let status = r.status().as_u16();
    let body: Value = r.json().await.unwrap_or_default();
    println!(
        "2. bot mcts:ms=600000,threads=64: {status} \"{}\"",
        body["error"].as_str().unwrap_or("")
    );

    // 3. 8,000 WebSockets on one game from one client.
    let game = create("127.0.0.2", &base, "hc-first-clash").await;
    let (id, token) = (
        game["id"].as_str().unwrap(),
        game["seats"]["red"].as_str().unwrap(),
    );
    let url = format!(
        "{}/api/games/{id}/ws?token={token}",
        base.replacen("http", "ws", 1)
    );
    let before = rss_mib();
    let (mut open, mut refused) = (Vec::new(), 0);
    for _ in 0..8000 {
        match tokio_tungstenite::connect_async(url.clone()).await {
            Ok((socket, _)) => open.push(socket),
            Err(_) => refused += 1,
        }
    }
    println!(
        "3. 8,000 WebSockets on one game: {} open, {refused} refused; resident {before:.0} → {:.0} MiB; bystander {}",
        open.len(),
        rss_mib(),
        bystander(&base).await
    );
    drop(open);

    // 4. 3,000 half-sent requests from one client.
    let mut slow = Vec::new();
    let mut cut = 0;
    for _ in 0..3000 {
        match TcpStream::connect(server.addr()).await {
            Ok(mut s) => {
                if s.write_all(b"GET /api/scenarios HTTP/1.1\r\nHost: x\r\n")
                    .await
                    .is_ok()
                {
                    slow.push(s);
                } else {
                    cut += 1;
                }
            }
            Err(_) => cut += 1,
        }
    }
    println!(
        "4. 3,000 half-sent requests: bystander {} (while they hang; connections per client 128, header timeout 20 s)",
        bystander(&base).await
    );
    drop(slow);
    let _ = cut;

    // 5. 64 odds requests at once on hc-corps.
    let game = create("127.0.0.3", &base, "hc-corps").await;
    let id = game["id"].as_str().unwrap().to_string();
    let mut asker = None;
    for side in ["red", "blue"] {
        let token = game["seats"][side].as_str().unwrap().to_string();
        let legal: Value = client("127.0.0.3")
            .get(format!("{base}/api/games/{id}/legal"))
            .bearer_auth(&token)
            .send()
            .await
            .expect("answered")
            .json()
            .await
            .expect("JSON");
        if let Some(a) = legal["actions"].as_array().and_then(|a| a.first()) {
            asker = Some((token, a.as_str().unwrap().to_string()));
        }
    }
    let (token, action) = asker.expect("a side decides");
    let started = Instant::now();
    let asks: Vec<_> = (0..64)
        .map(|_| {
            let c = client("127.0.0.3");
            let (base, id, token, action) =
                (base.clone(), id.clone(), token.clone(), action.clone());
            tokio::spawn(async move {
                c.post(format!("{base}/api/games/{id}/odds"))
                    .bearer_auth(token)
                    .json(&json!({ "action": action }))
                    .send()
                    .await
                    .map(|r| r.status().as_u16())
                    .unwrap_or(0)
            })
        })
        .collect();
    let mut statuses = std::collections::BTreeMap::new();
    for a in asks {
        *statuses.entry(a.await.unwrap_or(0)).or_insert(0) += 1;
    }
    println!(
        "5. 64 odds requests at once: {statuses:?} (status: count), all answered in {:.2} s; bystander {}",
        started.elapsed().as_secs_f64(),
        bystander(&base).await
    );
    server.stop();
}
