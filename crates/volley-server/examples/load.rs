//! A load test on loopback: a server in this process (on a fresh SQLite file, with its
//! durable writes), and scripted clients each playing a hotseat game through the HTTP API
//! while two WebSockets (one per seat) take every update, as the web client does. Each
//! client asks `legal`, posts an action, and starts a new game when one ends. Reports
//! actions per second and the latency of `POST /actions` (stored before the reply).
//!
//! ```text
//! cargo run --release -p volley-server --example load -- [--games N] [--seconds S] [--rate R]
//!     [--db postgres://… --servers K]
//! ```
//!
//! `--rate` paces each client to R actions a second (0, the default, is as fast as it can).
//! `--db` runs the servers on a PostgreSQL database (its tables are made if missing; games
//! it already holds are played on too) and `--servers` starts K servers in this process on
//! it: each game's two seats then play through different servers, red's through one and
//! blue's through the next, and each seat's WebSocket is on its own seat's server, so every
//! action is pushed to the other seat through PostgreSQL's NOTIFY.
//! Bounded: at most 256 games, 60 seconds and 4 servers; only 127.0.0.1 is used.

use futures_util::StreamExt;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Mutex;
use volley_server::{Limits, RateLimit, ServerBuilder};

struct Settings {
    games: usize,
    seconds: u64,
    rate: f64,
    scenario: String,
    db: Option<String>,
    servers: usize,
}

fn settings() -> Result<Settings, String> {
    let mut s = Settings {
        games: 32,
        seconds: 10,
        rate: 0.0,
        scenario: "hc-crossroads".into(),
        db: None,
        servers: 1,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args
            .get(i + 1)
            .ok_or_else(|| format!("{} needs a value", args[i]))?;
        let bad = |what: &str| format!("{} expects {what}, found \"{value}\"", args[i]);
        match args[i].as_str() {
            "--games" => s.games = value.parse().map_err(|_| bad("a number of games"))?,
            "--seconds" => s.seconds = value.parse().map_err(|_| bad("whole seconds"))?,
            "--rate" => s.rate = value.parse().map_err(|_| bad("actions a second"))?,
            "--scenario" => s.scenario = value.clone(),
            "--db" => s.db = Some(value.clone()),
            "--servers" => s.servers = value.parse().map_err(|_| bad("a number of servers"))?,
            other => return Err(format!("unknown argument {other}")),
        }
        i += 2;
    }
    if !(1..=256).contains(&s.games) || !(1..=60).contains(&s.seconds) {
        return Err("--games must be 1 to 256 and --seconds 1 to 60".into());
    }
    if !(1..=4).contains(&s.servers) {
        return Err("--servers must be 1 to 4".into());
    }
    if s.servers > 1 && s.db.is_none() {
        return Err(
            "several servers share games through PostgreSQL: give --db postgres://…".into(),
        );
    }
    Ok(s)
}

#[derive(Default)]
struct Tally {
    action_latency: Vec<Duration>,
    legal_latency: Vec<Duration>,
    updates: usize,
    games_finished: usize,
    errors: usize,
}

async fn drain(base: String, id: String, token: String, tally: Arc<Mutex<Tally>>) {
    let url = format!(
        "{}/api/games/{id}/ws?token={token}",
        base.replacen("http://", "ws://", 1)
    );
    let Ok((mut socket, _)) = tokio_tungstenite::connect_async(url).await else {
        tally.lock().await.errors += 1;
        return;
    };
    while let Some(Ok(_)) = socket.next().await {
        tally.lock().await.updates += 1;
    }
}

async fn client(
    n: usize,
    bases: Vec<String>,
    scenario: String,
    rate: f64,
    until: Instant,
    tally: Arc<Mutex<Tally>>,
) {
    let http = reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("an HTTP client");
    let mut rng = ChaCha8Rng::seed_from_u64(n as u64);
    let pace = (rate > 0.0).then(|| Duration::from_secs_f64(1.0 / rate));
    // Red plays through one server, blue through the next (the same one when there is one).
    let base_of = |seat: usize| bases[(n + seat) % bases.len()].clone();
    let base = base_of(0);
    'games: while Instant::now() < until {
        let created: Value = match http
            .post(format!("{base}/api/games"))
            .json(&json!({"scenario": scenario, "red": "human", "blue": "human"}))
            .send()
            .await
        {
            Ok(r) => r.json().await.unwrap_or(Value::Null),
            Err(_) => Value::Null,
        };
        let (Some(id), Some(red), Some(blue)) = (
            created["id"].as_str(),
            created["seats"]["red"].as_str(),
            created["seats"]["blue"].as_str(),
        ) else {
            tally.lock().await.errors += 1;
            return;
        };
        let listeners = [(0, red), (1, blue)].map(|(seat, t)| {
            tokio::spawn(drain(
                base_of(seat),
                id.to_string(),
                t.to_string(),
                tally.clone(),
            ))
        });
        let tokens = [red, blue];
        let mut seat = 0;
        while Instant::now() < until {
            let started = Instant::now();
            let mut legal: Vec<String> = Vec::new();
            for _ in 0..2 {
                let t0 = Instant::now();
                let reply: Value = match http
                    .get(format!("{}/api/games/{id}/legal", base_of(seat)))
                    .bearer_auth(tokens[seat])
                    .send()
                    .await
                {
                    Ok(r) => r.json().await.unwrap_or(Value::Null),
                    Err(_) => Value::Null,
                };
                tally.lock().await.legal_latency.push(t0.elapsed());
                legal = reply["actions"]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .filter_map(|x| x.as_str().map(String::from))
                            .collect()
                    })
                    .unwrap_or_default();
                if !legal.is_empty() {
                    break;
                }
                seat = 1 - seat;
            }
            if legal.is_empty() {
                tally.lock().await.games_finished += 1;
                listeners.iter().for_each(|l| l.abort());
                continue 'games;
            }
            let pick = match legal.iter().find(|a| a.starts_with("end")) {
                Some(end) if rng.random_bool(0.3) => end.clone(),
                _ => legal[rng.random_range(0..legal.len())].clone(),
            };
            let t0 = Instant::now();
            let ok = http
                .post(format!("{}/api/games/{id}/actions", base_of(seat)))
                .bearer_auth(tokens[seat])
                .json(&json!({ "action": pick }))
                .send()
                .await
                .is_ok_and(|r| r.status().is_success());
            let took = t0.elapsed();
            {
                let mut t = tally.lock().await;
                if ok {
                    t.action_latency.push(took);
                } else {
                    t.errors += 1;
                }
            }
            if let Some(pace) = pace {
                tokio::time::sleep(pace.saturating_sub(started.elapsed())).await;
            }
        }
        listeners.iter().for_each(|l| l.abort());
    }
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

#[tokio::main]
async fn main() {
    let s = match settings() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("load: {e}");
            std::process::exit(2);
        }
    };
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = match &s.db {
        Some(url) => url.clone(),
        None => dir
            .path()
            .join("load.db")
            .to_str()
            .expect("a UTF-8 path")
            .to_string(),
    };
    let mut servers = Vec::new();
    for _ in 0..s.servers {
        // The clients pace themselves; the per-seat limit would only measure itself.
        let server = ServerBuilder::new(db.clone())
            .addr("127.0.0.1:0".parse().expect("an address"))
            .rate_limit(RateLimit {
                per_second: 1e9,
                burst: 1e9,
            })
            // All the load comes from one loopback client: let it open its games.
            // (and hold two WebSockets for each of up to 256 games).
            .limits(Limits {
                games_per_client_per_hour: 1_000_000,
                sockets_per_client: 1024,
                connections_per_client: 2048,
                ..Limits::default()
            })
            .start()
            .await
            .unwrap_or_else(|e| {
                eprintln!("load: the server does not start: {e}");
                std::process::exit(1)
            });
        servers.push(server);
    }
    let bases: Vec<String> = servers
        .iter()
        .map(|s| format!("http://{}", s.addr()))
        .collect();
    let tally = Arc::new(Mutex::new(Tally::default()));
    let started = Instant::now();
    let until = started + Duration::from_secs(s.seconds);
    let clients: Vec<_> = (0..s.games)
        .map(|n| {
            tokio::spawn(client(
                n,
                bases.clone(),
                s.scenario.clone(),
                s.rate,
                until,
                tally.clone(),
            ))
        })
        .collect();
    for c in clients {
        let _ = c.await;
    }
    let elapsed = started.elapsed().as_secs_f64();
    let mut t = tally.lock().await;
    t.action_latency.sort();
    t.legal_latency.sort();
    let actions = t.action_latency.len();
    println!(
        "{} games ({}), {} on {}, {:.1} s, pace {}: {actions} actions, {:.0} actions/s; POST /actions p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; GET /legal p50 {:.2} ms, p99 {:.2} ms; {} WebSocket updates, {} games finished, {} errors",
        s.games,
        s.scenario,
        if s.servers == 1 { "1 server".to_string() } else { format!("{} servers", s.servers) },
        if s.db.is_some() { "PostgreSQL" } else { "SQLite" },
        elapsed,
        if s.rate > 0.0 { format!("{} actions/s per game", s.rate) } else { "flat out".into() },
        actions as f64 / elapsed,
        percentile(&t.action_latency, 0.5),
        percentile(&t.action_latency, 0.99),
        percentile(&t.action_latency, 1.0),
        percentile(&t.legal_latency, 0.5),
        percentile(&t.legal_latency, 0.99),
        t.updates,
        t.games_finished,
        t.errors
    );
    for server in servers {
        server.stop();
    }
}
