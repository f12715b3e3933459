//! A server on an ephemeral loopback port with a fresh database, and a small JSON client.

#![allow(dead_code)] // each test file uses its own part of these helpers

use futures_util::StreamExt;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use std::time::Duration;
use tempfile::TempDir;
use tokio_tungstenite::tungstenite::Message;
use volley_server::{Limits, RateLimit, RunningServer, ServerBuilder};

pub struct TestServer {
    pub server: RunningServer,
    pub dir: TempDir,
    pub api: Api,
}

pub async fn start() -> TestServer {
    start_with(RateLimit::default()).await
}

pub async fn start_with(rate_limit: RateLimit) -> TestServer {
    start_limited(rate_limit, roomy()).await
}

/// The server's limits, but room for every test of a file to play its games at once from
/// the one loopback client (tests/limits.rs tries the limits themselves).
pub fn roomy() -> Limits {
    Limits {
        games_per_client_per_hour: 1_000_000,
        odds_per_client: 10_000,
        odds_waiting_max: 10_000,
        sockets_per_client: 10_000,
        connections_per_client: 10_000,
        ..Limits::default()
    }
}

pub async fn start_limited(rate_limit: RateLimit, limits: Limits) -> TestServer {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = dir.path().join("volley.db");
    let server = ServerBuilder::new(db.to_str().expect("a UTF-8 path"))
        .addr("127.0.0.1:0".parse().expect("an address"))
        .rate_limit(rate_limit)
        .limits(limits)
        .start()
        .await
        .expect("the server starts");
    let api = Api::new(&format!("http://{}", server.addr()));
    TestServer { server, dir, api }
}

#[derive(Clone)]
pub struct Api {
    pub base: String,
    http: reqwest::Client,
}

/// A status and the body, parsed as JSON when it is JSON (else a JSON string of the text).
#[derive(Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub body: Value,
    pub text: String,
}

impl Api {
    pub fn new(base: &str) -> Api {
        Api {
            base: base.to_string(),
            http: reqwest::Client::builder()
                .no_proxy()
                .timeout(Duration::from_secs(60))
                .build()
                .expect("an HTTP client"),
        }
    }

    /// A client that connects from another loopback address (127.0.0.2…): another client
    /// as far as the server's per-client limits go.
    pub fn from_address(base: &str, ip: &str) -> Api {
        Api {
            base: base.to_string(),
            http: reqwest::Client::builder()
                .no_proxy()
                .local_address(Some(ip.parse().expect("an IP address")))
                .timeout(Duration::from_secs(60))
                .build()
                .expect("an HTTP client"),
        }
    }

    pub async fn raw(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Vec<u8>>,
    ) -> Reply {
        let mut req = self.http.request(method, format!("{}{path}", self.base));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(b) = body {
            req = req.header("content-type", "application/json").body(b);
        }
        let res = req.send().await.expect("the server answers");
        let status = res.status();
        let text = res.text().await.expect("a body");
        let body = serde_json::from_str(&text).unwrap_or_else(|_| Value::String(text.clone()));
        assert_ne!(
            status,
            StatusCode::INTERNAL_SERVER_ERROR,
            "{path} answered 500: {text}"
        );
        Reply { status, body, text }
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Reply {
        self.raw(Method::GET, path, token, None).await
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: &Value) -> Reply {
        self.raw(
            Method::POST,
            path,
            token,
            Some(serde_json::to_vec(body).expect("JSON")),
        )
        .await
    }

    /// Asks for a game; the reply as it comes (created or refused).
    pub async fn try_create(&self, scenario: &str, red: &str, blue: &str) -> Reply {
        self.post(
            "/api/games",
            None,
            &json!({"scenario": scenario, "red": red, "blue": blue}),
        )
        .await
    }

    /// Creates a game and returns its id and the two seats' tokens (None for a bot).
    pub async fn create(
        &self,
        scenario: &str,
        red: &str,
        blue: &str,
    ) -> (String, Option<String>, Option<String>) {
        let r = self.try_create(scenario, red, blue).await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
        let token = |side: &str| r.body["seats"][side].as_str().map(str::to_string);
        (
            r.body["id"].as_str().expect("an id").to_string(),
            token("red"),
            token("blue"),
        )
    }

    pub async fn view(&self, id: &str, token: &str) -> Value {
        let r = self
            .get(&format!("/api/games/{id}/view"), Some(token))
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        r.body
    }

    pub async fn legal(&self, id: &str, token: &str) -> Vec<String> {
        let r = self
            .get(&format!("/api/games/{id}/legal"), Some(token))
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        r.body["actions"]
            .as_array()
            .expect("actions")
            .iter()
            .map(|a| a.as_str().expect("text").to_string())
            .collect()
    }

    pub async fn act(&self, id: &str, token: &str, action: &str) -> Reply {
        self.post(
            &format!("/api/games/{id}/actions"),
            Some(token),
            &json!({ "action": action }),
        )
        .await
    }
}

pub type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

pub async fn websocket(base: &str, id: &str, token: &str) -> Socket {
    let url = format!(
        "{}/api/games/{id}/ws?token={token}",
        base.replacen("http://", "ws://", 1)
    );
    let (socket, _) = tokio_tungstenite::connect_async(url)
        .await
        .expect("the WebSocket opens");
    socket
}

/// The next JSON message on a socket, within 30 seconds.
pub async fn next_message(socket: &mut Socket) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(30), socket.next())
            .await
            .expect("a message within 30 s")
            .expect("the socket stays open")
            .expect("a good frame");
        if let Message::Text(text) = msg {
            return serde_json::from_str(&text).expect("JSON messages");
        }
    }
}

impl TestServer {
    /// Stops the server without a goodbye (as kill -9 would leave the database) and starts a
    /// new one on the same database, on a new port.
    pub async fn restart(self) -> TestServer {
        let db = self.dir.path().join("volley.db");
        self.server.stop();
        let server = volley_server::ServerBuilder::new(db.to_str().expect("utf-8"))
            .addr("127.0.0.1:0".parse().expect("addr"))
            .limits(roomy())
            .start()
            .await
            .expect("the server starts again");
        let api = Api::new(&format!("http://{}", server.addr()));
        TestServer {
            server,
            dir: self.dir,
            api,
        }
    }
}
